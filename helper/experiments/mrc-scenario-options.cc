/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-scenario-options.h"

#include "mrc-scenario-inputs.h"
#include "mrc-scenario-presets.h"
#include "mrc-transport-table.h"

#include "ns3/mrc-flow-size-cdf.h"
#include "ns3/mrc-input-error.h"
#include "ns3/mrc-profiles.h"
#include "ns3/mrc-workload.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <sstream>

namespace ns3
{

namespace
{

bool
ParseU64(const std::string& s, uint64_t& out)
{
    if (s.empty() || s.size() > 18 || s.find_first_not_of("0123456789") != std::string::npos)
    {
        return false;
    }
    out = std::stoull(s);
    return true;
}

/// A time with an explicit unit ("10us", "1.5ms"); false (instead of ns-3's abort) otherwise.
bool
ParseTime(const std::string& s, Time& out)
{
    static const std::regex re("^[0-9]+(\\.[0-9]+)?(s|ms|us|ns|ps)$");
    if (s.size() > 40 || !std::regex_match(s, re))
    {
        return false;
    }
    out = Time(s);
    return true;
}

/// MrcCommandLine::CheckChoice without its "error: " prefix (Fail adds it).
std::string
Choice(const std::string& name, const std::string& value, const std::vector<std::string>& allowed)
{
    std::string e = MrcCommandLine::CheckChoice(name, value, allowed);
    const std::string prefix = "error: ";
    if (e.rfind(prefix, 0) == 0)
    {
        e.erase(0, prefix.size());
    }
    return e;
}

std::string
Bad(const std::string& name, const std::string& value, const std::string& what)
{
    return "--" + name + "='" + MrcParse::Printable(value) + "' " + what;
}

} // namespace

MrcScenarioOptions::MrcScenarioOptions()
{
    // Empty: the profile's payload size if it sets one (roce-hpcc and roce-paper: 1000 B,
    // HPCC simulator run.py), else the transport's: 4096 B for roce (roce-deployed), mrc
    // (the mrc profile) and uec (uec-htsim, htsim main_uec.cpp).
    topo.mtu = "";
}

void
MrcScenarioOptions::Register(MrcCommandLine& cmd)
{
    cmd.AddValue("scenario", "scenario name (see --list)", scenario);
    topo.Register(cmd);
    cmd.AddValue("transport",
                 "transport: " + MrcCommandLine::Join(MrcScenarios::GetTransports()),
                 transport);
    cmd.AddValue("transports",
                 "comma-separated transports run one after another on fresh fabrics with the "
                 "same seed and workload (overrides --transport)",
                 transports);
    cmd.AddValue("sameFabric",
                 "1: every transport on the fabric given; 0: roce and uec on one plane at "
                 "planes x the link rates (the same NIC bandwidth as mrc on all planes)",
                 sameFabric);
    cmd.AddValue("evFormat", "mrc entropy values: srv6 (topology paths) or structured", evFormat);
    cmd.AddValue("evMinPerPlane",
                 "srv6: a plane with fewer paths than this gets replica EVs up to it",
                 evMinPerPlane);
    cmd.AddValue("lossRate", "random packet loss probability (0: none)", lossRate);
    cmd.AddValue("lossAt",
                 "where --lossRate drops: path (every packet once, where it enters its "
                 "destination host's NIC port, data and control; PFC frames pass: [P1] "
                 "5.2.7's P4 program on every NIC) or links (every device of every link)",
                 lossAt);
    cmd.AddValue("duration", "flows: window of Poisson arrivals", duration);
    cmd.AddValue("load", "flows: offered load per host, 0..1", load);
    cmd.AddValue("cdf",
                 "flows: flow-size distribution (data/cdf/NAME.txt: websearch, fb-hadoop, "
                 "alistorage2019, google-rpc2008) or a file path",
                 cdf);
    cmd.AddValue("chunks", "allreduce: chunks per segment (pipelining)", chunks);
    cmd.AddValue("maxEvEvents", "ev_state records kept in events.csv per transport", maxEvEvents);
    cmd.AddValue("maxCcEvents",
                 "cc_cut records (NSCC window cuts and DCQCN rate cuts, with their cause) "
                 "kept in events.csv per transport; 0: none",
                 maxCcEvents);
    cmd.AddValue("profile",
                 "parameter profile: " + MrcCommandLine::Join(MrcProfiles::GetNames()) +
                     " or none (empty: roce-deployed for roce)",
                 profile);
    cmd.AddValue("bytes", "bytes each sender writes (split over qpsPerPair messages)", bytes);
    cmd.AddValue("senders", "incast: number of senders", senders);
    cmd.AddValue("qpsPerPair",
                 "messages each flow is split into (each sender-receiver pair's flow)",
                 qpsPerPair);
    cmd.AddValue("qpsPerConnection",
                 "queue pairs per connection (job, sender, receiver), opened once and reused "
                 "by its messages, striped round-robin (empty: qpsPerPair; message: a new "
                 "pair for every message)",
                 qpsPerConnection);
    cmd.AddValue("failAt",
                 "when the --failLink links without their own @TIME are cut; also the failure "
                 "time of the other failure options unless they give their own",
                 failAt);
    cmd.AddValue("failLink",
                 "links to cut, comma-separated nodeA:nodeB[@TIME] (node names as p0-t0-0, "
                 "host3; TIME: this link's cut time, e.g. 300us; without it --failAt)",
                 failLink);
    cmd.AddValue("repairAt",
                 "when the cut links are repaired (empty: never); also the repair time of the "
                 "other failure options unless they give their own",
                 repairAt);
    fail.Register(cmd);
    cmd.AddValue("seed", "run seed (permutation, incast senders, ECMP, ECN marking)", seed);
    cmd.AddValue("simTime", "simulated-time limit", simTime);
    cmd.AddValue("ranks",
                 "split the fabric over N MPI ranks: run under mpirun -np N (./ns3-mrc run "
                 "--ranks=N); N=1 is one process with the split runs' rules (a message a "
                 "completion releases starts 1 lookahead + 1 ns after it; the run ends 2 x "
                 "lookahead after the last completion; no time series), the reference the "
                 "splits are compared with (empty: one process, the run ends at the last "
                 "completion)",
                 ranks);
    cmd.AddValue("sync",
                 "with --ranks: ns-3's synchronization, granted (time windows, "
                 "DistributedSimulatorImpl) or null (null messages, NullMessageSimulatorImpl)",
                 sync);
    cmd.AddValue("rankMap",
                 "with --ranks: a file of 'NAME RANK' lines giving T0 groups (t0-I) and T1s "
                 "(t1-I), or pods (pod-I) and cores (core-I), or with --topoFile the file's "
                 "switch node ids, their ranks; the others keep the consecutive blocks "
                 "(empty: blocks)",
                 rankMap);
    cmd.AddValue("out", "output folder (empty: results/<scenario>/)", out);
    cmd.AddValue("pcap", "write a pcap file per port into the output folder", pcap);
    cmd.AddValue("sampleInterval", "time-series sampling period (0s: none)", sampleInterval);
    cmd.AddValue("benchJson", "also write the benchmark figures as JSON to this file", benchJson);
    cmd.AddValue("list", "list the scenarios and exit", list);
    cmd.AddValue("checkOnly",
                 "check every option, input file and --out, then exit 0 without simulating "
                 "(exit 2 naming what is wrong)",
                 checkOnly);
    cmd.AddValue("topoFile",
                 "fabric from a file instead of --topology: an HPCC/ConWeave topology file "
                 "('N S L', switch ids, 'src dst rate delay err' links) or an htsim fat tree "
                 "(name ending in .topo); none: no file",
                 topoFile);
    cmd.AddValue("flowFile",
                 "messages from a file instead of the scenario's pattern: an HPCC/ConWeave flow "
                 "file (count, then 'src dst pg dport bytes start_s') or an htsim connection "
                 "matrix (name ending in .cm); none: no file",
                 flowFile);
    coll.Register(cmd);
}

std::map<std::string, std::string>
MrcScenarioOptions::ToMap() const
{
    return {{"scenario", scenario},
            {"topology", topo.topology},
            {"planes", topo.planes},
            {"hosts", topo.hosts},
            {"hostsPerT0", topo.hostsPerT0},
            {"t1PerPlane", topo.t1PerPlane},
            {"uplinksPerT0", topo.uplinksPerT0},
            {"k", topo.k},
            {"hostRate", topo.hostRate},
            {"fabricRate", topo.fabricRate},
            {"coreRate", topo.coreRate},
            {"linkDelay", topo.linkDelay},
            {"hostLinkDelay", topo.hostLinkDelay},
            {"coreLinkDelay", topo.coreLinkDelay},
            {"mtu", topo.mtu},
            {"transport", transport},
            {"transports", transports},
            {"sameFabric", sameFabric},
            {"evFormat", evFormat},
            {"evMinPerPlane", evMinPerPlane},
            {"lossRate", lossRate},
            {"lossAt", lossAt},
            {"duration", duration},
            {"load", load},
            {"cdf", cdf},
            {"chunks", chunks},
            {"maxEvEvents", maxEvEvents},
            {"maxCcEvents", maxCcEvents},
            {"profile", profile},
            {"bytes", bytes},
            {"senders", senders},
            {"qpsPerPair", qpsPerPair},
            {"failAt", failAt},
            {"failLink", failLink},
            {"repairAt", repairAt},
            {"seed", seed},
            {"simTime", simTime},
            {"pcap", pcap ? "true" : "false"},
            {"sampleInterval", sampleInterval},
            {"topoFile", topoFile},
            {"flowFile", flowFile}};
}

std::string
MrcScenarioOptions::TryToConfig(MrcScenarioConfig& c) const
{
    for (auto part : {&MrcScenarioOptions::CheckFabricAndInputs,
                      &MrcScenarioOptions::CheckTransports,
                      &MrcScenarioOptions::CheckFabricModel,
                      &MrcScenarioOptions::CheckWorkload,
                      &MrcScenarioOptions::CheckRun,
                      &MrcScenarioOptions::CheckFailures})
    {
        const std::string e = (this->*part)(c);
        if (!e.empty())
        {
            return e;
        }
    }
    c.options = ToMap();
    for (const auto& [name, value] : fail.ToMap())
    {
        c.options[name] = value; // recorded when given
    }
    if (!qpsPerConnection.empty())
    {
        c.options["qpsPerConnection"] = qpsPerConnection; // recorded when given
    }
    const std::string ce = coll.TryToConfig(c);
    if (!ce.empty())
    {
        return ce;
    }
    if (c.graph)
    {
        // The fabric of --topoFile, not of the topology options.
        c.options["topology"] = "graph";
        c.options["hosts"] = std::to_string(c.topology.hosts);
    }
    return "";
}

std::string
MrcScenarioOptions::CheckFabricAndInputs(MrcScenarioConfig& c) const
{
    if (!MrcScenarios::Find(scenario))
    {
        return Bad("scenario",
                   scenario,
                   "is not a scenario (allowed: " + MrcCommandLine::Join(MrcScenarios::GetNames()) +
                       ")");
    }
    c.scenario = scenario;
    c.pattern = pattern;
    MrcTopologyOptions t = topo;
    c.mtuAuto = t.mtu.empty();
    if (c.mtuAuto)
    {
        t.mtu = "1000"; // replaced per transport in Build
    }
    std::string e = t.TryToConfig(c.topology);
    if (!e.empty())
    {
        return e;
    }
    e = MrcScenarioInputs::Load(c, topoFile, flowFile);
    if (!e.empty())
    {
        return e;
    }
    if (!c.flowFile.empty())
    {
        c.pattern = "file";
    }
    else if (c.pattern == "file")
    {
        return Bad("flowFile", flowFile, "is needed by scenario " + scenario + " (a flow file)");
    }
    return "";
}

std::string
MrcScenarioOptions::CheckTransports(MrcScenarioConfig& c) const
{
    const std::vector<std::string> transportsOk = MrcScenarios::GetTransports();
    std::string e = Choice("transport", transport, transportsOk);
    if (!e.empty())
    {
        return e;
    }
    c.transport = transport;
    if (transports.empty())
    {
        return "";
    }
    std::stringstream ss(transports);
    std::string item;
    std::vector<std::string> list;
    while (std::getline(ss, item, ','))
    {
        e = Choice("transports", item, transportsOk);
        if (!e.empty())
        {
            return e;
        }
        list.push_back(item);
    }
    if (list.empty())
    {
        return Bad("transports", transports, "names no transport");
    }
    c.transport = list[0];
    c.transports = list;
    return "";
}

std::string
MrcScenarioOptions::CheckFabricModel(MrcScenarioConfig& c) const
{
    if (sameFabric != "0" && sameFabric != "1")
    {
        return Bad("sameFabric", sameFabric, "must be 0 or 1");
    }
    c.sameFabric = sameFabric == "1";
    std::string e = Choice("evFormat", evFormat, {"srv6", "structured"});
    if (!e.empty())
    {
        return e;
    }
    c.evFormat = evFormat;
    uint64_t v = 0;
    if (!ParseU64(evMinPerPlane, v) || v == 0 || v > 256)
    {
        return Bad("evMinPerPlane", evMinPerPlane, "must be an integer 1..256");
    }
    c.evMinPerPlane = static_cast<uint32_t>(v);
    char* end = nullptr;
    c.lossRate = std::strtod(lossRate.c_str(), &end);
    if (lossRate.empty() || *end != '\0' || !(c.lossRate >= 0 && c.lossRate <= 1))
    {
        return Bad("lossRate", lossRate, "must be a probability 0..1");
    }
    c.load = std::strtod(load.c_str(), &end);
    if (load.empty() || *end != '\0' || !(c.load > 0 && c.load <= 1))
    {
        return Bad("load", load, "must be a number in (0, 1]");
    }
    e = Choice("lossAt", lossAt, {"path", "links"});
    if (!e.empty())
    {
        return e;
    }
    c.lossAt = lossAt;
    return "";
}

std::string
MrcScenarioOptions::CheckWorkload(MrcScenarioConfig& c) const
{
    uint64_t v = 0;
    if (!ParseTime(duration, c.duration) || c.duration.IsZero())
    {
        return Bad("duration", duration, "must be a positive time with a unit, e.g. 500us");
    }
    c.cdf = cdf;
    if (pattern == "flows")
    {
        const std::string e = CheckFlowsWorkload(c);
        if (!e.empty())
        {
            return e;
        }
    }
    if (!ParseU64(chunks, v) || v == 0 || v > 1024)
    {
        return Bad("chunks", chunks, "must be an integer 1..1024");
    }
    c.chunks = static_cast<uint32_t>(v);
    if (!ParseU64(maxEvEvents, v) || v > 0xffffffffULL)
    {
        return Bad("maxEvEvents", maxEvEvents, "must be a non-negative integer");
    }
    c.maxEvEvents = static_cast<uint32_t>(v);
    if (!ParseU64(maxCcEvents, v) || v > 0xffffffffULL)
    {
        return Bad("maxCcEvents", maxCcEvents, "must be a non-negative integer");
    }
    c.maxCcEvents = static_cast<uint32_t>(v);
    std::vector<std::string> profiles = MrcProfiles::GetNames();
    profiles.push_back("none");
    if (!profile.empty())
    {
        const std::string e = Choice("profile", profile, profiles);
        if (!e.empty())
        {
            return e;
        }
    }
    // Empty: the transport's own profile (chosen per transport in MrcSimMain).
    c.profile = profile.empty() ? MrcScenarios::DefaultProfile(c.transport) : profile;
    if (!ParseU64(bytes, c.bytes) || c.bytes > 0xffffffffULL)
    {
        return Bad("bytes", bytes, "must be an integer 0..4294967295 (one RDMA Write)");
    }
    const uint32_t hosts = c.topology.GetHosts();
    if (hosts < 2)
    {
        return c.graph ? Bad("topoFile", topoFile, "has fewer than 2 hosts")
                       : Bad("hosts", topo.hosts, "gives a fabric of fewer than 2 hosts");
    }
    if ((pattern == "allreduce" || pattern == "allgather") && c.bytes < uint64_t{hosts} * c.chunks)
    {
        // the ring splits --bytes into hosts x chunks pieces, none empty
        return Bad("bytes",
                   bytes,
                   "is too small for the " + pattern + " ring of " + std::to_string(hosts) +
                       " hosts x --chunks=" + chunks + " (allowed: at least " +
                       std::to_string(uint64_t{hosts} * c.chunks) + ")");
    }
    const bool incastLike = pattern == "incast" || pattern == "incast-victim";
    if (!ParseU64(senders, v) || v == 0 || (incastLike && v >= hosts))
    {
        return Bad("senders",
                   senders,
                   "must be an integer 1.." + std::to_string(hosts - 1) + " (hosts - 1)");
    }
    c.senders = static_cast<uint32_t>(v);
    if (pattern == "incast-victim")
    {
        // senders from outside the receiver's (the last host's) rack, one left for the victim
        const uint32_t receiver = hosts - 1;
        const uint32_t pool =
            receiver - receiver % std::max<uint32_t>(c.topology.GetHostsPerT0(), 1);
        if (c.senders >= pool)
        {
            return Bad("senders",
                       senders,
                       pool < 2 ? "cannot be met: incast-victim needs 2 hosts outside the "
                                  "receiver's rack (give more --hosts)"
                                : "must be 1.." + std::to_string(pool - 1) +
                                      " for incast-victim (hosts outside the receiver's rack, "
                                      "one left for the victim)");
        }
    }
    if (!ParseU64(qpsPerPair, v) || v == 0 || v > 1024)
    {
        return Bad("qpsPerPair", qpsPerPair, "must be an integer 1..1024");
    }
    c.qpsPerPair = static_cast<uint32_t>(v);
    if (qpsPerConnection == "message")
    {
        c.qpsPerConnection = MrcScenarioConfig::QP_PER_MESSAGE;
    }
    else if (!qpsPerConnection.empty())
    {
        if (!ParseU64(qpsPerConnection, v) || v == 0 || v > 1024)
        {
            return Bad("qpsPerConnection",
                       qpsPerConnection,
                       "must be an integer 1..1024 or 'message'");
        }
        c.qpsPerConnection = static_cast<uint32_t>(v);
    }
    return "";
}

std::string
MrcScenarioOptions::CheckFlowsWorkload(const MrcScenarioConfig& c) const
{
    std::string path;
    std::string e = MrcScenarioInputs::TryFindCdfFile(cdf, path);
    if (!e.empty())
    {
        return e;
    }
    double mean = 0;
    try
    {
        mean = MrcFlowSizeCdf::LoadFile(path).GetMean();
    }
    catch (const MrcInputError& err)
    {
        return Bad("cdf", cdf, std::string("is not a flow-size CDF: ") + err.what());
    }
    // The fastest host rate any transport runs at (a one-plane transport gets planes x).
    const double rate =
        static_cast<double>(c.topology.hostRate.GetBitRate()) * std::max(c.topology.planes, 1U);
    const double flows = MrcWorkloadGenerator::ExpectedPoissonFlows(c.topology.GetHosts(),
                                                                    c.load,
                                                                    static_cast<uint64_t>(rate),
                                                                    mean,
                                                                    c.duration);
    if (!(flows <= static_cast<double>(MrcInputLimits::MAX_FLOWS)))
    {
        std::ostringstream os;
        os << "with --load=" << load << " and --duration=" << duration << " makes about " << flows
           << " flows (mean size " << mean << " B), more than the limit of "
           << MrcInputLimits::MAX_FLOWS;
        return Bad("cdf", cdf, os.str());
    }
    return "";
}

std::string
MrcScenarioOptions::CheckFrameSizes(const MrcScenarioConfig& c)
{
    // The attribute defaults a run applies last (--ns3::Class::Attribute=value).
    auto overridden = [&c](const std::string& path, uint64_t& value) {
        bool found = false;
        for (const auto& [name, text] : c.attributeOverrides)
        {
            if (name == path && ParseU64(text, value))
            {
                found = true;
            }
        }
        return found;
    };
    uint64_t deviceMtu = 9000;
    TypeId tid;
    struct TypeId::AttributeInformation info;
    if (TypeId::LookupByNameFailSafe("ns3::MrcNetDevice", &tid) &&
        tid.LookupAttributeByName("Mtu", &info))
    {
        deviceMtu = DynamicCast<const UintegerValue>(info.initialValue)->Get();
    }
    overridden("ns3::MrcNetDevice::Mtu", deviceMtu);
    const std::vector<std::string> list =
        c.transports.empty() ? std::vector<std::string>{c.transport} : c.transports;
    for (const std::string& name : list)
    {
        const MrcTransportInfo& t = MrcTransportTable::Get(name);
        uint64_t payload = c.mtuAuto ? t.defaultMtu : c.topology.mtu;
        const bool byAttribute = overridden(t.queuePairType + "::Mtu", payload);
        // The device's Mtu counts the frame without its 14-byte Ethernet header.
        const uint64_t headers =
            t.dataFrameOverhead + (c.evFormat == "srv6" ? t.srv6EncapBytes : 0) - 14;
        if (payload + headers > deviceMtu)
        {
            std::ostringstream os;
            os << (byAttribute ? "--" + t.queuePairType + "::Mtu" : std::string("--mtu")) << "='"
               << payload << "' is too large for " << name << ": its packets carry " << headers
               << " bytes of headers and the device Mtu is " << deviceMtu << " bytes (allowed: 1.."
               << (deviceMtu > headers ? deviceMtu - headers : 0)
               << "; --ns3::MrcNetDevice::Mtu, at most 65535, raises it)";
            return os.str();
        }
    }
    return "";
}

std::string
MrcScenarioOptions::CheckRun(MrcScenarioConfig& c) const
{
    if (!ParseU64(seed, c.seed) || c.seed == 0)
    {
        return Bad("seed", seed, "must be a positive integer");
    }
    if (!ParseTime(simTime, c.simTime) || c.simTime.IsZero())
    {
        return Bad("simTime", simTime, "must be a positive time with a unit, e.g. 10ms");
    }
    Time lastStart;
    for (const MrcFlowSpec& f : c.fileFlows)
    {
        lastStart = std::max(lastStart, f.start);
    }
    if (!c.fileFlows.empty() && c.simTime <= lastStart)
    {
        return Bad("simTime",
                   simTime,
                   "ends before the last flow of --flowFile starts (at " +
                       std::to_string(lastStart.GetSeconds()) + " s): give a later --simTime");
    }
    if (!ParseTime(failAt, c.failAt))
    {
        return Bad("failAt", failAt, "must be a time with a unit, e.g. 100us");
    }
    // --failLink=A:B[@TIME],...: each link's own cut time, else --failAt.
    c.failLink = failLink;
    Time lastCut;
    bool anyCut = false;
    std::string lastCutText;
    if (!failLink.empty())
    {
        static const std::regex linkRe("^[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+$");
        std::stringstream ss(failLink);
        std::string item;
        std::size_t items = 0;
        while (std::getline(ss, item, ','))
        {
            ++items;
            const std::size_t at = item.find('@');
            const std::string link = item.substr(0, at);
            if (!std::regex_match(link, linkRe))
            {
                return Bad("failLink",
                           failLink,
                           "has the item '" + MrcParse::Printable(item) +
                               "'; allowed: nodeA:nodeB[@TIME][,nodeC:nodeD[@TIME]...]");
            }
            Time when = c.failAt;
            if (at != std::string::npos)
            {
                const std::string text = item.substr(at + 1);
                if (!ParseTime(text, when))
                {
                    return Bad("failLink",
                               failLink,
                               "gives '" + link + "' the time '" + MrcParse::Printable(text) +
                                   "'; allowed: a time with a unit after @, e.g. " + link +
                                   "@300us");
                }
                if (when >= c.simTime)
                {
                    return Bad("failLink",
                               failLink,
                               "cuts '" + link + "' at " + text + ", not before --simTime='" +
                                   simTime + "': the link would never fail");
                }
            }
            else if (c.failAt >= c.simTime)
            {
                return Bad("failAt",
                           failAt,
                           "is not before --simTime='" + simTime +
                               "': the --failLink links would never fail");
            }
            if (!anyCut || when > lastCut)
            {
                anyCut = true;
                lastCut = when;
                lastCutText =
                    at == std::string::npos ? "--failAt='" + failAt + "'" : "'" + item + "'";
            }
        }
        if (items == 0 || failLink.back() == ',')
        {
            return Bad("failLink", failLink, "must be nodeA:nodeB[@TIME][,nodeC:nodeD[@TIME]...]");
        }
    }
    c.repairAt = Time(0);
    if (!repairAt.empty() && (!ParseTime(repairAt, c.repairAt) || c.repairAt <= c.failAt))
    {
        return Bad("repairAt", repairAt, "must be a time with a unit after --failAt");
    }
    if (!failLink.empty() && !repairAt.empty() && c.repairAt <= lastCut)
    {
        return Bad("repairAt",
                   repairAt,
                   "is not after the last --failLink cut (" + lastCutText +
                       "); allowed: a later time, or no --repairAt");
    }
    if (!failLink.empty() && c.repairAt >= c.simTime)
    {
        return Bad("repairAt",
                   repairAt,
                   "is not before --simTime='" + simTime +
                       "': the --failLink links would never be repaired (allowed: an earlier "
                       "time, or no --repairAt)");
    }
    const std::string e = CheckReachable(c);
    if (!e.empty())
    {
        return e;
    }
    if (!ParseTime(sampleInterval, c.sampleInterval) && sampleInterval != "0")
    {
        return Bad("sampleInterval", sampleInterval, "must be a time with a unit, e.g. 10us");
    }
    if (sampleInterval == "0")
    {
        c.sampleInterval = Time(0);
    }
    c.pcap = pcap;
    c.ranks = 0;
    if (!ranks.empty())
    {
        uint64_t n = 0;
        if (!ParseU64(ranks, n) || n == 0 || n > 4096)
        {
            return Bad("ranks", ranks, "must be a number of MPI ranks, 1..4096");
        }
        c.ranks = static_cast<uint32_t>(n);
    }
    if (sync != "granted" && sync != "null")
    {
        return Bad("sync", sync, "is not a synchronization (allowed: granted, null)");
    }
    c.nullMessages = sync == "null";
    c.rankMap = rankMap;
    if (!rankMap.empty() && c.ranks == 0)
    {
        return Bad("rankMap", rankMap, "needs --ranks=N (a map of ranks for a split run)");
    }
    return "";
}

std::string
MrcScenarioOptions::CheckFailures(MrcScenarioConfig& c) const
{
    MrcFailureOptions::Context ctx;
    ctx.topology = c.topology;
    ctx.graph = c.graph != nullptr;
    ctx.simTime = c.simTime;
    ctx.failAtText = failAt;
    ctx.failAt = c.failAt;
    ctx.repairAtText = repairAt;
    ctx.repairAt = c.repairAt;
    ctx.failLinkText = failLink;
    if (!c.sameFabric && !c.graph && c.topology.planes > 1)
    {
        for (const std::string& t :
             c.transports.empty() ? std::vector<std::string>{c.transport} : c.transports)
        {
            if (ctx.onePlaneRun.empty() && !MrcTransportTable::Get(t).usesAllPlanes)
            {
                ctx.onePlaneRun = t;
            }
        }
    }
    return fail.Check(ctx, c.failures);
}

std::string
MrcScenarioOptions::CheckReachable(const MrcScenarioConfig& c) const
{
    if (c.graph)
    {
        return ""; // the links of --topoFile
    }
    // The shortest trip: a host, its switch and another host under it (2 host links).
    const MrcTopologyConfig& t = c.topology;
    const Time oneWay = 2 * t.hostDelay;
    if (oneWay >= c.simTime)
    {
        std::ostringstream os;
        os << "is not longer than the shortest trip between two hosts (2 x the host link "
           << "delay, " << t.hostDelay.GetSeconds() * 2
           << " s): no message could complete; give a later --simTime or a shorter "
           << "--linkDelay or --hostLinkDelay";
        return Bad("simTime", simTime, os.str());
    }
    // One full-size frame at the slowest rate.
    const uint64_t slowest =
        std::min({t.hostRate.GetBitRate(), t.fabricRate.GetBitRate(), t.coreRate.GetBitRate()});
    const uint32_t frame = std::max<uint32_t>(t.mtu, 1000) + 100;
    if (slowest == 0 || DataRate(slowest).CalculateBytesTxTime(frame) >= c.simTime)
    {
        std::ostringstream os;
        os << "is not longer than sending one " << frame << "-byte frame at the slowest rate ("
           << slowest << " bps): no message could complete; give a later --simTime or "
           << "faster --hostRate, --fabricRate or --coreRate";
        return Bad("simTime", simTime, os.str());
    }
    return "";
}

MrcScenarioConfig
MrcScenarioOptions::ToConfig() const
{
    MrcScenarioConfig c;
    const std::string e = TryToConfig(c);
    if (!e.empty())
    {
        MrcCommandLine::Fail(e);
    }
    return c;
}

} // namespace ns3
