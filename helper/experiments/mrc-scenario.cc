/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-scenario.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/mrc-channel.h"
#include "ns3/mrc-ev-profile.h"
#include "ns3/mrc-hpcc-input.h"
#include "ns3/mrc-htsim-input.h"
#include "ns3/mrc-input-error.h"
#include "ns3/mrc-link-helper.h"
#include "ns3/mrc-multipath-helper.h"
#include "ns3/mrc-multipath-queue-pair.h"
#include "ns3/mrc-profiles.h"
#include "ns3/mrc-rdma-nic.h"
#include "ns3/mrc-results-writer.h"
#include "ns3/mrc-roce-queue-pair.h"
#include "ns3/mrc-shared-buffer-mmu.h"
#include "ns3/mrc-switch-node.h"
#include "ns3/mrc-uec-path-selector.h"
#include "ns3/mrc-uec-queue-pair.h"
#include "ns3/names.h"
#include "ns3/object-factory.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <random>
#include <regex>
#include <sstream>
#include <sys/resource.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcScenario");

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

std::string
Join(const std::vector<std::string>& v)
{
    std::string s;
    for (const auto& x : v)
    {
        s += (s.empty() ? "" : ", ") + x;
    }
    return s;
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

/// A file named relative to the source tree ("data/..."): as given if it exists, otherwise
/// looked up from the current folder and the executable's folder upwards ("" if not found).
std::string
FindDataFile(const std::string& rel)
{
    namespace fs = std::filesystem;
    if (fs::exists(rel) || rel.empty() || rel[0] == '/')
    {
        return rel;
    }
    std::vector<fs::path> starts{fs::current_path()};
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec)
    {
        starts.push_back(exe.parent_path());
    }
    for (fs::path d : starts)
    {
        for (int up = 0; up < 6 && !d.empty(); ++up, d = d.parent_path())
        {
            if (fs::exists(d / rel))
            {
                return (d / rel).string();
            }
            if (d == d.parent_path())
            {
                break;
            }
        }
    }
    return rel;
}

/// A flow-size CDF: a file path, or NAME of data/cdf/NAME.txt looked up from the current
/// folder and the executable's folder upwards.
std::string
FindCdfFile(const std::string& name)
{
    namespace fs = std::filesystem;
    if (name.find('/') != std::string::npos || fs::exists(name))
    {
        return name;
    }
    std::vector<fs::path> starts{fs::current_path()};
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec)
    {
        starts.push_back(exe.parent_path());
    }
    for (fs::path d : starts)
    {
        for (int up = 0; up < 6 && !d.empty(); ++up, d = d.parent_path())
        {
            const fs::path f = d / "data" / "cdf" / (name + ".txt");
            if (fs::exists(f))
            {
                return f.string();
            }
            if (d == d.parent_path())
            {
                break;
            }
        }
    }
    NS_FATAL_ERROR("--cdf='" << name << "': no data/cdf/" << name
                             << ".txt found (allowed: websearch, fb-hadoop, alistorage2019, "
                                "google-rpc2008, or a file path)");
}

std::string
Bad(const std::string& name, const std::string& value, const std::string& what)
{
    return "--" + name + "='" + value + "' " + what;
}

double
CpuSeconds()
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

uint64_t
PeakRssKb()
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return static_cast<uint64_t>(u.ru_maxrss);
}

uint64_t
DevTxBytes(Ptr<MrcNetDevice> d)
{
    uint64_t b = 0;
    for (uint8_t c = 0; c < MrcNetDevice::N_CLASSES; ++c)
    {
        b += d->GetTxBytes(c);
    }
    return b;
}

uint64_t
DevRxBytes(Ptr<MrcNetDevice> d)
{
    uint64_t b = 0;
    for (uint8_t c = 0; c < MrcNetDevice::N_CLASSES; ++c)
    {
        b += d->GetRxBytes(c);
    }
    return b;
}

uint64_t
DevTxPackets(Ptr<MrcNetDevice> d)
{
    uint64_t n = 0;
    for (uint8_t c = 0; c < MrcNetDevice::N_CLASSES; ++c)
    {
        n += d->GetTxPackets(c);
    }
    return n;
}

int64_t
DevPausedNs(Ptr<MrcNetDevice> d)
{
    int64_t t = 0;
    for (uint8_t c = 0; c < MrcNetDevice::N_CLASSES; ++c)
    {
        t += d->GetPausedTime(c).GetNanoSeconds();
    }
    return t;
}

uint64_t
DevDrops(Ptr<MrcNetDevice> d)
{
    uint64_t n = 0;
    for (std::size_t r = 0; r < MRC_DROP_REASON_COUNT; ++r)
    {
        n += d->GetDropPackets(static_cast<MrcDropReason>(r));
    }
    return n;
}

/// \return the current default of an attribute (after Config::SetDefault), serialized
std::string
CurrentDefault(TypeId tid, const std::string& name)
{
    TypeId::AttributeInformation info;
    NS_ABORT_UNLESS(tid.LookupAttributeByName(name, &info));
    return info.initialValue->SerializeToString(info.checker);
}

/**
 * RoCE: every priority group (pg) of a flow file gets its own device class. pg 3 is the
 * RoCE data class already (DSCP 26 -> class 3, MrcRoceQueuePair::DataDscp); another pg p
 * sends its data with DSCP 32 + p, mapped to class p in every device's DscpToClass; when
 * the profile makes class 3 lossless (PfcPriorityMask bit 3), the other pgs' classes are
 * made lossless too (the HPCC simulator pauses every data priority).
 * \param flows the file's flows
 * \return per pg 0..7 its data DSCP (-1: no flow uses it)
 */
std::vector<int>
ConfigurePriorityGroups(const std::vector<MrcFlowSpec>& flows)
{
    std::vector<int> dscp(8, -1);
    uint32_t others = 0; // bit p: pg p != 3 used
    for (const MrcFlowSpec& f : flows)
    {
        if (f.priorityGroup >= 0 && f.priorityGroup < 8)
        {
            const int pg = f.priorityGroup;
            dscp[pg] = pg == 3 ? MrcDscp::ROCE_DATA : 32 + pg;
            others |= pg == 3 ? 0 : 1U << pg;
        }
    }
    if (others == 0)
    {
        return dscp;
    }
    std::string map = CurrentDefault(MrcNetDevice::GetTypeId(), "DscpToClass");
    for (int pg = 0; pg < 8; ++pg)
    {
        if (others & (1U << pg))
        {
            map += "," + std::to_string(32 + pg) + ":" + std::to_string(pg);
        }
    }
    Config::SetDefault("ns3::MrcNetDevice::DscpToClass", StringValue(map));
    const uint32_t mask =
        std::stoul(CurrentDefault(MrcSharedBufferMmu::GetTypeId(), "PfcPriorityMask"));
    if (mask & (1U << 3))
    {
        Config::SetDefault("ns3::MrcSharedBufferMmu::PfcPriorityMask",
                           UintegerValue(mask | others));
    }
    return dscp;
}

/// \return true if path ends with ext
bool
EndsWith(const std::string& path, const std::string& ext)
{
    return path.size() >= ext.size() &&
           path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
}

/// The fat tree an htsim .topo describes, as an edge list: hosts 0..Nodes-1, then the
/// ToRs, the aggregation switches and the cores (pod by pod). Host h hangs off ToR
/// h / Radix_Down(0); every ToR has Bundle(1) links to every aggregation switch of its pod;
/// aggregation switch k of a pod has Bundle(2) links to cores k*c .. k*c+c-1, c = cores /
/// aggs per pod (as MrcTopologyHelper's fat-tree joins aggregation j to cores j*k/2..).
MrcTopologyGraph
HtsimGraph(const MrcHtsimTopology& t, const MrcHtsimFatTreeShape& s)
{
    if (t.tiers == 2 && s.pods != 1)
    {
        throw MrcInputError(t.file,
                            t.podSizeLine,
                            "Podsize equal to Nodes = " + std::to_string(t.nodes) +
                                " in a 2-tier fabric (one pod)",
                            std::to_string(t.podSize));
    }
    const uint32_t nTor = s.pods * s.torsPerPod;
    const uint32_t nAgg = s.pods * s.aggsPerPod;
    const uint32_t tor0 = t.nodes;
    const uint32_t agg0 = tor0 + nTor;
    const uint32_t core0 = agg0 + nAgg;
    MrcTopologyGraph g;
    g.isSwitch.assign(core0 + s.cores, true);
    auto link = [&g, &t](uint32_t a, uint32_t b, uint32_t tier) {
        MrcGraphLink l;
        l.a = a;
        l.b = b;
        l.rate = DataRate(t.tier[tier].downlinkGbps * 1000000000ULL);
        l.delay = NanoSeconds(t.tier[tier].downlinkLatencyNs);
        g.links.push_back(l);
    };
    for (uint32_t h = 0; h < t.nodes; ++h)
    {
        g.isSwitch[h] = false;
        link(h, tor0 + h / t.tier[0].radixDown, 0);
    }
    for (uint32_t r = 0; r < nTor; ++r)
    {
        const uint32_t pod = r / s.torsPerPod;
        for (uint32_t k = 0; k < s.aggsPerPod; ++k)
        {
            for (uint32_t b = 0; b < t.tier[1].bundle; ++b)
            {
                link(tor0 + r, agg0 + pod * s.aggsPerPod + k, 1);
            }
        }
    }
    if (t.tiers == 3)
    {
        const uint32_t c = s.cores / s.aggsPerPod;
        for (uint32_t a = 0; a < nAgg; ++a)
        {
            const uint32_t k = a % s.aggsPerPod;
            for (uint32_t m = 0; m < c; ++m)
            {
                for (uint32_t b = 0; b < t.tier[2].bundle; ++b)
                {
                    link(agg0 + a, core0 + k * c + m, 2);
                }
            }
        }
    }
    return g;
}

/**
 * Load --topoFile and --flowFile into the settings (c.topology.planes and mtu already set).
 * A name ending in .topo is an htsim fat tree, any other an HPCC/ConWeave topology file; a
 * name ending in .cm is an htsim connection matrix, any other an HPCC/ConWeave flow file.
 * \return "" or the problem ("FILE:LINE: expected ..., got '...'" for a malformed file)
 */
std::string
LoadInputFiles(MrcScenarioConfig& c, const std::string& topoFile, const std::string& flowFile)
{
    // "none": no file (a preset's default file can be dropped: empty values are not options)
    c.topoFile = topoFile == "none" ? "" : FindDataFile(topoFile);
    c.flowFile = flowFile == "none" ? "" : FindDataFile(flowFile);
    try
    {
        std::vector<bool> fileSwitch; // node ids of the topology file that are switches
        if (!c.topoFile.empty())
        {
            auto g = std::make_shared<MrcTopologyGraph>();
            std::vector<uint32_t> lines; // per graph link: its line (0: derived)
            if (EndsWith(c.topoFile, ".topo"))
            {
                const MrcHtsimTopology t = MrcHtsimInput::LoadTopology(c.topoFile);
                *g = HtsimGraph(t, MrcHtsimInput::Shape(t));
                lines.assign(g->links.size(), 0);
                c.graphLinkError.assign(g->links.size(), 0.0);
            }
            else
            {
                const MrcHpccTopology t = MrcHpccInput::LoadTopology(c.topoFile);
                g->isSwitch = t.isSwitch;
                for (const MrcHpccLink& l : t.links)
                {
                    MrcGraphLink gl;
                    gl.a = l.a;
                    gl.b = l.b;
                    gl.rate = DataRate(l.rateBps);
                    gl.delay = l.delay;
                    g->links.push_back(gl);
                    lines.push_back(l.line);
                    c.graphLinkError.push_back(l.errorRate);
                }
            }
            int64_t bad = -1;
            const std::string e = g->Validate(bad);
            if (!e.empty())
            {
                if (bad >= 0 && lines[bad] > 0)
                {
                    throw MrcInputError(c.topoFile,
                                        lines[bad],
                                        "one link per host, each to a switch",
                                        e);
                }
                return "--topoFile='" + c.topoFile + "': " + e;
            }
            c.graphNodeOfHost.clear();
            for (uint32_t v = 0; v < g->isSwitch.size(); ++v)
            {
                if (!g->isSwitch[v])
                {
                    c.graphNodeOfHost.push_back(v);
                }
            }
            fileSwitch = g->isSwitch;
            // The shape the profiles and checks read: hosts, first host link's rate and delay.
            c.topology.kind = MrcTopologyKind::GRAPH;
            c.topology.hosts = static_cast<uint32_t>(c.graphNodeOfHost.size());
            for (const MrcGraphLink& l : g->links)
            {
                if (!g->isSwitch[l.a] || !g->isSwitch[l.b])
                {
                    c.topology.hostRate = l.rate;
                    c.topology.hostDelay = l.delay;
                    break;
                }
            }
            c.graph = g;
        }
        const uint32_t hosts = c.topology.GetHosts();
        c.fileFlows.clear();
        if (c.flowFile.empty())
        {
            return "";
        }
        if (EndsWith(c.flowFile, ".cm"))
        {
            // htsim numbers hosts 0..Nodes-1: they are host indices.
            const MrcHtsimConnectionMatrix cm = MrcHtsimInput::LoadConnectionMatrix(c.flowFile);
            if (cm.nodes > hosts)
            {
                return "--flowFile='" + c.flowFile + "': 'Nodes " + std::to_string(cm.nodes) +
                       "' is more than the fabric's " + std::to_string(hosts) +
                       " hosts (give --hosts or --topoFile)";
            }
            for (const MrcHtsimConnection& k : cm.connections)
            {
                if (k.size == 0 || k.size > 0xffffffffULL)
                {
                    throw MrcInputError(c.flowFile,
                                        k.line,
                                        "'size B' with 1..4294967295 bytes (one RDMA Write)",
                                        std::to_string(k.size));
                }
            }
            if (!cm.failures.empty())
            {
                std::cerr << "warning: " << c.flowFile << ": " << cm.failures.size()
                          << " failure line(s) not run (use --failLink and --failAt)\n";
            }
            c.fileFlows = cm.TimedFlows();
            c.htsimMatrix = std::make_shared<const MrcHtsimConnectionMatrix>(cm);
            return "";
        }
        MrcHpccFlowOptions fo;
        fo.numNodes = c.graph ? static_cast<uint32_t>(fileSwitch.size()) : hosts;
        fo.isSwitch = fileSwitch;
        fo.maxBytes = 0xffffffffULL;
        {
            // ConWeave's 5-field files: the count on line 1 may be wrong (its traffic_gen.py
            // overwrites the start of an estimate in place), so the flow lines are counted.
            std::ifstream in(c.flowFile);
            std::string line;
            int seen = 0;
            while (seen < 2 && std::getline(in, line))
            {
                std::istringstream ls(line);
                std::string w;
                int n = 0;
                while (ls >> w)
                {
                    ++n;
                }
                if (n > 0 && ++seen == 2)
                {
                    fo.ignoreCount = n == 5;
                }
            }
        }
        std::vector<MrcFlowSpec> flows = MrcHpccInput::LoadFlows(c.flowFile, fo);
        if (c.graph)
        {
            // node id -> host index
            std::vector<uint32_t> hostOf(fileSwitch.size(), 0);
            for (uint32_t h = 0; h < c.graphNodeOfHost.size(); ++h)
            {
                hostOf[c.graphNodeOfHost[h]] = h;
            }
            for (MrcFlowSpec& f : flows)
            {
                f.src = hostOf[f.src];
                f.dst = hostOf[f.dst];
            }
        }
        c.fileFlows = std::move(flows);
    }
    catch (const MrcInputError& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

// ---------------------------------------------------------------------------
// options

MrcScenarioOptions::MrcScenarioOptions()
{
    // Empty: the transport's payload size, 1000 B for roce (HPCC simulator run.py) and
    // 4096 B for mrc (the mrc profile) and uec (uec-htsim, htsim main_uec.cpp).
    topo.mtu = "";
}

void
MrcScenarioOptions::Register(MrcCommandLine& cmd)
{
    cmd.AddValue("scenario", "scenario name (see --list)", scenario);
    topo.Register(cmd);
    cmd.AddValue("transport", "transport: " + Join(MrcScenarios::GetTransports()), transport);
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
                 "where --lossRate drops: path (once per path, at the receiving host's NIC "
                 "port) or links (every device of every link)",
                 lossAt);
    cmd.AddValue("duration", "flows: window of Poisson arrivals", duration);
    cmd.AddValue("load", "flows: offered load per host, 0..1", load);
    cmd.AddValue("cdf",
                 "flows: flow-size distribution (data/cdf/NAME.txt: websearch, fb-hadoop, "
                 "alistorage2019, google-rpc2008) or a file path",
                 cdf);
    cmd.AddValue("chunks", "allreduce: chunks per segment (pipelining)", chunks);
    cmd.AddValue("maxEvEvents", "ev_state records kept in events.csv per transport", maxEvEvents);
    cmd.AddValue("profile",
                 "parameter profile: " + Join(MrcProfiles::GetNames()) +
                     " or none (empty: roce-hpcc for roce)",
                 profile);
    cmd.AddValue("bytes", "bytes each sender writes (split over qpsPerPair messages)", bytes);
    cmd.AddValue("senders", "incast: number of senders", senders);
    cmd.AddValue("qpsPerPair",
                 "queue pairs (one message each) per sender-receiver pair",
                 qpsPerPair);
    cmd.AddValue("failAt", "when the --failLink links are cut", failAt);
    cmd.AddValue("failLink",
                 "links to cut, comma-separated nodeA:nodeB (node names as p0-t0-0, host3)",
                 failLink);
    cmd.AddValue("repairAt", "when the cut links are repaired (empty: never)", repairAt);
    cmd.AddValue("seed", "run seed (permutation, incast senders, ECMP, ECN marking)", seed);
    cmd.AddValue("simTime", "simulated-time limit", simTime);
    cmd.AddValue("out", "output folder (empty: results/<scenario>/)", out);
    cmd.AddValue("pcap", "write a pcap file per port into the output folder", pcap);
    cmd.AddValue("sampleInterval", "time-series sampling period (0s: none)", sampleInterval);
    cmd.AddValue("benchJson", "also write the benchmark figures as JSON to this file", benchJson);
    cmd.AddValue("list", "list the scenarios and exit", list);
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
    if (!MrcScenarios::Find(scenario))
    {
        return Bad("scenario",
                   scenario,
                   "is not a scenario (allowed: " + Join(MrcScenarios::GetNames()) + ")");
    }
    c.scenario = scenario;
    c.pattern = pattern;
    uint64_t v = 0;
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
    e = LoadInputFiles(c, topoFile, flowFile);
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
    Time lastStart;
    for (const MrcFlowSpec& f : c.fileFlows)
    {
        lastStart = std::max(lastStart, f.start);
    }
    const std::vector<std::string> transportsOk = MrcScenarios::GetTransports();
    e = Choice("transport", transport, transportsOk);
    if (!e.empty())
    {
        return e;
    }
    c.transport = transport;
    if (!transports.empty())
    {
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
    }
    if (sameFabric != "0" && sameFabric != "1")
    {
        return Bad("sameFabric", sameFabric, "must be 0 or 1");
    }
    c.sameFabric = sameFabric == "1";
    e = Choice("evFormat", evFormat, {"srv6", "structured"});
    if (!e.empty())
    {
        return e;
    }
    c.evFormat = evFormat;
    if (!ParseU64(evMinPerPlane, v) || v == 0 || v > 256)
    {
        return Bad("evMinPerPlane", evMinPerPlane, "must be an integer 1..256");
    }
    c.evMinPerPlane = static_cast<uint32_t>(v);
    {
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
    }
    e = Choice("lossAt", lossAt, {"path", "links"});
    if (!e.empty())
    {
        return e;
    }
    c.lossAt = lossAt;
    if (!ParseTime(duration, c.duration) || c.duration.IsZero())
    {
        return Bad("duration", duration, "must be a positive time with a unit, e.g. 500us");
    }
    c.cdf = cdf;
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
    std::vector<std::string> profiles = MrcProfiles::GetNames();
    profiles.push_back("none");
    if (!profile.empty())
    {
        e = Choice("profile", profile, profiles);
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
    const bool incastLike = pattern == "incast" || pattern == "incast-victim";
    if (!ParseU64(senders, v) || v == 0 || (incastLike && v >= hosts))
    {
        return Bad("senders",
                   senders,
                   "must be an integer 1.." + std::to_string(hosts - 1) + " (hosts - 1)");
    }
    c.senders = static_cast<uint32_t>(v);
    if (!ParseU64(qpsPerPair, v) || v == 0 || v > 1024)
    {
        return Bad("qpsPerPair", qpsPerPair, "must be an integer 1..1024");
    }
    c.qpsPerPair = static_cast<uint32_t>(v);
    if (!ParseU64(seed, c.seed) || c.seed == 0)
    {
        return Bad("seed", seed, "must be a positive integer");
    }
    if (!ParseTime(simTime, c.simTime) || c.simTime.IsZero())
    {
        return Bad("simTime", simTime, "must be a positive time with a unit, e.g. 10ms");
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
    c.repairAt = Time(0);
    if (!repairAt.empty() && (!ParseTime(repairAt, c.repairAt) || c.repairAt <= c.failAt))
    {
        return Bad("repairAt", repairAt, "must be a time with a unit after --failAt");
    }
    c.failLink = failLink;
    if (!failLink.empty())
    {
        static const std::regex re(
            "^[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+)*$");
        if (!std::regex_match(failLink, re))
        {
            return Bad("failLink", failLink, "must be nodeA:nodeB[,nodeC:nodeD...]");
        }
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
    c.options = ToMap();
    if (c.graph)
    {
        // The fabric of --topoFile, not of the topology options.
        c.options["topology"] = "graph";
        c.options["hosts"] = std::to_string(c.topology.hosts);
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

// ---------------------------------------------------------------------------
// registry

const std::vector<MrcScenarioInfo>&
MrcScenarios::GetAll()
{
    static const std::vector<MrcScenarioInfo> all = {
        {"permutation",
         "every host writes --bytes to a distinct random host (default 16-host Clos, 1 MB), "
         "roce, uec, then mrc",
         [](MrcScenarioOptions& o) {
             o.pattern = "permutation";
             o.transports = "roce,uec,mrc";
         }},
        {"incast",
         "--senders hosts (default 8) write --bytes each to the last host",
         [](MrcScenarioOptions& o) { o.pattern = "incast"; }},
        {"perm128-roce",
         "the benchmark: 128 hosts (8 T0 x 16, 8 T1, 100 Gb/s, 1 us), 128 x 2 MB permutation, "
         "RoCE DCQCN + PFC",
         [](MrcScenarioOptions& o) {
             o.pattern = "permutation";
             o.topo.hosts = "128";
             o.topo.hostsPerT0 = "16";
             o.topo.t1PerPlane = "8";
             o.bytes = "2000000";
             o.sampleInterval = "0";
         }},
        {"perm128-mrc",
         "the perm128 shape on 4 planes (128 hosts, 8 T0 x 16 and 8 T1 per plane, 100 Gb/s, "
         "1 us), 128 x 2 MB permutation, MRC (profile mrc)",
         [](MrcScenarioOptions& o) {
             o.pattern = "permutation";
             o.transport = "mrc";
             o.topo.planes = "4";
             o.topo.hosts = "128";
             o.topo.hostsPerT0 = "16";
             o.topo.t1PerPlane = "8";
             o.bytes = "2000000";
             o.sampleInterval = "0";
         }},
        {"compare",
         "roce, uec, then mrc, same seed and permutation of 8 MB per host over 32 hosts, "
         "same NIC bandwidth: mrc on 4 planes x 100 Gb/s, roce and uec on one 400 Gb/s "
         "plane (--sameFabric=1: all on the 4 planes)",
         [](MrcScenarioOptions& o) {
             o.pattern = "permutation";
             o.transports = "roce,uec,mrc";
             o.sameFabric = "0";
             o.topo.planes = "4";
             o.topo.hosts = "32";
             o.bytes = "8000000";
         }},
        {"incast-victim",
         "--senders (7) from other racks write --bytes (4 MB) to the last host (cross-spine); "
         "a victim flow from another rack into the receiver's rack shares the spine links "
         "(summary.json options.victimFlow)",
         [](MrcScenarioOptions& o) {
             o.pattern = "incast-victim";
             o.transports = "roce,uec,mrc";
             o.senders = "7";
             o.bytes = "4000000";
         }},
        {"alltoall",
         "every host writes --bytes (1 MB) to every other host, all at once, roce, uec, then "
         "mrc",
         [](MrcScenarioOptions& o) {
             o.pattern = "alltoall";
             o.transports = "roce,uec,mrc";
         }},
        {"loss",
         "permutation of 8 hosts x 8 MB with --lossRate=0.01 random loss, roce, uec, then mrc",
         [](MrcScenarioOptions& o) {
             o.pattern = "permutation";
             o.transports = "roce,uec,mrc";
             o.topo.hosts = "8";
             o.bytes = "8000000";
             o.lossRate = "0.01";
             o.simTime = "100ms";
         }},
        {"failover",
         "link p0-t0-0:p0-t1-0 fails at 150 us under a 20 MB permutation (8 hosts, 4 planes, "
         "2 T1 each), roce, uec, then mrc: mrc dips, roce QPs on the link stall",
         [](MrcScenarioOptions& o) {
             o.pattern = "permutation";
             o.transports = "roce,uec,mrc";
             o.topo.planes = "4";
             o.topo.hosts = "8";
             o.topo.t1PerPlane = "2";
             o.bytes = "20000000";
             o.failLink = "p0-t0-0:p0-t1-0";
             o.failAt = "150us";
             o.simTime = "50ms";
         }},
        {"allreduce",
         "one ring all-reduce of --bytes (16 MB) over all hosts in --chunks (4) chunks per "
         "segment; completion time in summary.json (options.allreduceCompletionNs)",
         [](MrcScenarioOptions& o) {
             o.pattern = "allreduce";
             o.transports = "roce,uec,mrc";
             o.bytes = "16000000";
             o.chunks = "4";
         }},
        {"allgather",
         "one ring all-gather of --bytes (16 MB) over all hosts in --chunks (4) chunks per "
         "segment, n - 1 steps each waiting on the previous; completion time in summary.json "
         "(options.allgatherCompletionNs), roce, uec, then mrc",
         [](MrcScenarioOptions& o) {
             o.pattern = "allgather";
             o.transports = "roce,uec,mrc";
             o.bytes = "16000000";
             o.chunks = "4";
         }},
        {"flows",
         "Poisson arrivals for --duration (500 us) at --load (0.5) per host, sizes from --cdf "
         "(websearch), roce, uec, then mrc",
         [](MrcScenarioOptions& o) {
             o.pattern = "flows";
             o.transports = "roce,uec,mrc";
         }},
        {"hpcc",
         "an HPCC/ConWeave topology and flow file (--topoFile, --flowFile; default the samples "
         "data/hpcc/topology.txt and flow.txt), roce",
         [](MrcScenarioOptions& o) {
             o.pattern = "file";
             o.topoFile = "data/hpcc/topology.txt";
             o.flowFile = "data/hpcc/flow.txt";
             o.simTime = "10s";
         }},
        {"htsim",
         "an htsim connection matrix on an htsim fat tree (--flowFile=X.cm, --topoFile=X.topo; "
         "default the samples in data/htsim/), uec",
         [](MrcScenarioOptions& o) {
             o.pattern = "file";
             o.transport = "uec";
             o.topoFile = "data/htsim/fattree-16.topo";
             o.flowFile = "data/htsim/sample.cm";
             o.simTime = "10s";
         }},
    };
    return all;
}

const MrcScenarioInfo*
MrcScenarios::Find(const std::string& name)
{
    for (const auto& s : GetAll())
    {
        if (s.name == name)
        {
            return &s;
        }
    }
    return nullptr;
}

std::vector<std::string>
MrcScenarios::GetNames()
{
    std::vector<std::string> n;
    for (const auto& s : GetAll())
    {
        n.push_back(s.name);
    }
    return n;
}

std::vector<std::string>
MrcScenarios::GetTransports()
{
    return {"roce", "uec", "mrc"};
}

std::string
MrcScenarios::DefaultProfile(const std::string& transport)
{
    if (transport == "mrc")
    {
        return "mrc";
    }
    return transport == "uec" ? "uec-htsim" : "roce-hpcc";
}

void
MrcScenarios::PrintList(std::ostream& os)
{
    for (const auto& s : GetAll())
    {
        os << s.name << std::string(s.name.size() < 14 ? 14 - s.name.size() : 1, ' ')
           << s.description << "\n";
    }
}

// ---------------------------------------------------------------------------
// runner

struct MrcScenarioRunner::Impl
{
    using Clock = std::chrono::steady_clock;

    MrcScenarioConfig cfg;
    bool built{false};
    bool ran{false};
    Ptr<MrcTopology> topo;
    Ptr<MrcEventLog> log;
    Ptr<MrcFailureInjector> injector;
    Ptr<MrcProgressReporter> progress;
    std::vector<MrcFlowSpec> msgs;
    std::vector<MrcRdmaHelper::Connection> conns;
    std::vector<Ptr<MrcQueuePair>> requesters;
    std::vector<std::size_t> handles;
    std::vector<bool> ended;
    std::size_t nEnded{0};
    MrcRunResults results;
    MrcRunResults* res{&results}; //!< where results go (own, or shared by several runs)

    // time series
    std::vector<Ptr<MrcNetDevice>> hostDevs; //!< per host, plane order (hosts*planes)
    std::vector<uint64_t> hostTxPrev;
    std::vector<uint64_t> hostRxPrev;
    std::vector<uint32_t> hostTxSeries;
    std::vector<uint32_t> hostRxSeries;
    std::vector<uint64_t> flowTxPrev;
    std::vector<uint32_t> flowTxSeries;
    std::vector<uint32_t> flowRateSeries;
    std::vector<int64_t> flowCwndSeries; //!< -1 until the flow reports a finite window

    struct QueuePort
    {
        Ptr<MrcNetDevice> dev;
        std::string name;
        std::string tag; //!< transport of the series ("" with one transport)
        int64_t series{-1};
        bool lastNonZero{false};
    };

    std::vector<QueuePort> queues;
    EventId sampleEvent;

    // figures
    uint64_t hops{0};
    uint64_t events{0};
    double buildWall{0};
    double runWall{0};
    double runCpu{0};

    // transport
    bool mrc{false};
    bool uec{false}; //!< UEC RUD queue pairs (ns3::MrcUecQueuePair)
    MrcRdmaHelper rdma;
    ObjectFactory mrcQpFactory; //!< makes MRC queue pairs
    Time mrcBaseRtt;            //!< the fabric's base RTT for the MRC MTU
    int64_t nextStream{0};
    std::map<std::pair<uint32_t, uint32_t>, std::pair<int64_t, uint64_t>> pathCache;
    Ptr<MrcEventLog> sharedLog; //!< events of several runs (tagged with the transport)
    uint64_t evRecorded{0};     //!< ev_state records written
    uint64_t evChanges{0};      //!< EV health changes seen
    std::vector<MrcRingCollective> collectives;
    std::vector<int> pgDscps; //!< roce: data DSCP per priority group of a flow file (-1: none)

    /// An htsim trigger's state (htsim's SingleShot, MultiShot and Barrier triggers).
    struct TriggerState
    {
        MrcHtsimTrigger::Type type{MrcHtsimTrigger::ONESHOT}; //!< its type
        uint32_t remaining{0};                                //!< barrier: activations still needed
        std::size_t next{0};                                  //!< multishot: next target
        bool fired{false};                                    //!< oneshot/barrier: fired already
        std::vector<std::size_t> targets; //!< connections it starts, in file order
    };

    std::map<uint32_t, TriggerState> triggers; //!< htsim triggers by id
    std::vector<int64_t> msgConn;              //!< per message: its .cm connection (-1: none)
    uint64_t connsStarted{0};                  //!< .cm connections started

    /// Start .cm connection k now (or at its start time).
    void StartConnection(std::size_t k);
    /// Activate an htsim trigger (a connection's send_done/recv_done trigger).
    void ActivateTrigger(uint32_t id);

    void Sample();
    void AddMessage(const MrcFlowSpec& f);
    /// SRv6 EV candidates of a host pair: the topology's paths, replicated up to evPerQp
    std::vector<MrcEvCandidate> Srv6Candidates(uint32_t src, uint32_t dst) const;
    uint32_t evPerQp{0}; //!< EvCount + BackupCount of the EV profile
    void OnEvState(const std::string& where,
                   uint32_t evId,
                   uint32_t value,
                   uint32_t plane,
                   MrcEvState from,
                   MrcEvState to,
                   MrcEvReason reason);
    void OnComplete(std::size_t i, const MrcWorkCompletion& wc);
    void Collect();

    // Per-message stalls (runs with --failLink): the longest time in which the responder
    // placed no new payload byte, from the message's start until its last byte was placed
    // (or the end of the run). The Rx trace fires before the packet is handled, so a
    // packet's progress is seen (and dated) at the next Rx of the same QP or at completion.
    bool trackStalls{false};
    std::vector<int64_t> stallLastProgressNs; //!< time of the last progress (start at first)
    std::vector<int64_t> stallLastRxNs;       //!< time of the previous Rx at the responder
    std::vector<int64_t> stallMaxNs;          //!< longest gap so far
    std::vector<int64_t> stallFromNs;         //!< where that gap started
    std::vector<uint64_t> stallPlaced;        //!< responder bytesPlaced at the last check
    std::vector<bool> stallClosed;            //!< its flow_stall record was written
    void OnResponderRx(std::size_t i);
    /// Account the progress (if any) of the packet of the previous Rx.
    void NoteProgress(std::size_t i);
    /// Write the flow_stall record; with `until` >= 0 the gap up to it counts too.
    void CloseStall(std::size_t i, int64_t until);
};

MrcScenarioRunner::MrcScenarioRunner(const MrcScenarioConfig& config)
    : m_impl(std::make_unique<Impl>())
{
    m_impl->cfg = config;
    m_impl->log = CreateObject<MrcEventLog>();
}

MrcScenarioRunner::~MrcScenarioRunner() = default;

void
MrcScenarioRunner::Build()
{
    Impl& m = *m_impl;
    if (m.built)
    {
        return;
    }
    m.built = true;
    const auto t0 = Impl::Clock::now();
    MrcScenarioConfig& c = m.cfg;
    NS_ABORT_MSG_IF(c.transport != "roce" && c.transport != "mrc" && c.transport != "uec",
                    "transport '" << c.transport << "' is not available (allowed: roce, uec, mrc)");
    const bool mrc = c.transport == "mrc";
    const bool uec = c.transport == "uec";
    if (c.mtuAuto)
    {
        c.topology.mtu = mrc || uec ? 4096 : 1000;
    }
    c.options["mtu"] = std::to_string(c.topology.mtu);

    Names::Clear();
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(c.seed);

    // The transport's fabric settings (an MRC fabric is lossy and trims; RoCE's are the
    // attribute defaults plus its profile), then the profile, --mtu and explicit
    // attribute defaults (so they win).
    if (mrc)
    {
        Config::SetDefault("ns3::MrcSwitchNode::TrimmingEnabled", BooleanValue(true));
        Config::SetDefault("ns3::MrcSwitchNode::NoEcnToHost", BooleanValue(true));
        Config::SetDefault("ns3::MrcSharedBufferMmu::PfcPriorityMask", UintegerValue(0));
    }
    if (uec)
    {
        // A UEC fabric: lossy (no PFC), trimming, ECN marking up to the receiver (NSCC
        // reads the ECN echo); the uec-htsim profile sets the same and its thresholds.
        Config::SetDefault("ns3::MrcSwitchNode::TrimmingEnabled", BooleanValue(true));
        Config::SetDefault("ns3::MrcSwitchNode::EcnEnabled", BooleanValue(true));
        Config::SetDefault("ns3::MrcSharedBufferMmu::PfcPriorityMask", UintegerValue(0));
    }
    MrcProfileContext ctx;
    ctx.hostRate = c.topology.hostRate;
    ctx.linkDelay = c.topology.hostDelay;
    if (c.profile != "none")
    {
        MrcProfiles::Apply(c.profile, ctx);
        for (const auto& s : MrcProfiles::GetSettings(c.profile, ctx))
        {
            m.res->GetInfo().profileSettings[s.path] = s.value;
        }
    }
    {
        std::string& pr = m.res->GetInfo().profile;
        if (pr.empty())
        {
            pr = c.profile;
        }
        else if (("," + pr + ",").find("," + c.profile + ",") == std::string::npos)
        {
            pr += "," + c.profile;
        }
    }
    Config::SetDefault(mrc   ? "ns3::MrcMultipathQueuePair::Mtu"
                       : uec ? "ns3::MrcUecQueuePair::Mtu"
                             : "ns3::MrcRoceQueuePair::Mtu",
                       UintegerValue(c.topology.mtu));
    if (c.pcap)
    {
        // Captures are for Wireshark, which checks the ICRC.
        Config::SetDefault("ns3::MrcRdmaNic::ComputeIcrc", BooleanValue(true));
    }
    if (!mrc && !uec)
    {
        m.pgDscps = ConfigurePriorityGroups(c.fileFlows);
    }
    for (const auto& o : c.attributeOverrides)
    {
        Config::SetDefault(o.first, StringValue(o.second));
    }

    MrcTopologyHelper th(c.topology);
    th.SetEcmpSeed(c.seed);
    m.topo = c.graph ? th.BuildGraph(*c.graph) : th.Build();
    const uint32_t nHosts = m.topo->GetNHosts();
    const uint32_t nPlanes = m.topo->GetNPlanes();

    int64_t stream = 1000;
    for (uint32_t s = 0; s < m.topo->GetNSwitches(); ++s)
    {
        Ptr<MrcSwitchNode> sw = m.topo->GetSwitchById(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            stream += sw->GetEcnMarker(p)->AssignStreams(stream);
        }
    }

    for (uint32_t h = 0; h < nHosts; ++h)
    {
        for (uint32_t p = 0; p < nPlanes; ++p)
        {
            m.hostDevs.push_back(m.topo->GetNicPort(h, p));
        }
    }
    MrcMultipathHelper::InstallNics(m.rdma, m.topo); // one port per plane on every host
    m.mrc = mrc;
    if (mrc)
    {
        m.mrcQpFactory.SetTypeId("ns3::MrcMultipathQueuePair");
        m.mrcBaseRtt = m.topo->GetBaseRtt(c.topology.mtu);
        // The EV profile's current defaults, read without creating one (a new object's
        // random variable would shift the automatic stream numbers of everything after it).
        const TypeId tid = MrcEvProfile::GetTypeId();
        uint32_t evs = 0;
        for (const char* a : {"EvCount", "BackupCount"})
        {
            TypeId::AttributeInformation info;
            NS_ABORT_UNLESS(tid.LookupAttributeByName(a, &info));
            evs += std::stoul(info.initialValue->SerializeToString(info.checker));
        }
        m.evPerQp = evs;
    }
    m.uec = uec;
    if (uec)
    {
        // One NIC port per QP: the path selector's (ns3::MrcFixedEntropyPathSelector: the
        // RoCEv2 flow label of the QPN pair modulo the planes); per-packet spraying over
        // ECMP within that plane by the EV in the UDP source port. BaseRtt: the fabric's
        // unloaded RTT for the MTU, unless --ns3::MrcUecQueuePair::BaseRtt is given.
        m.rdma.SetQueuePairType("ns3::MrcUecQueuePair");
        bool rttGiven = false;
        for (const auto& o : c.attributeOverrides)
        {
            rttGiven = rttGiven || o.first == "ns3::MrcUecQueuePair::BaseRtt";
        }
        if (!rttGiven)
        {
            m.rdma.SetQueuePairAttribute("BaseRtt", TimeValue(m.topo->GetBaseRtt(c.topology.mtu)));
        }
    }
    m.res->AddTransport(c.transport);
    if (c.sampleInterval > Time(0))
    {
        const std::string fabricTag = c.tagFabricSeries ? c.transport : "";
        for (uint32_t h = 0; h < nHosts; ++h)
        {
            const std::string name = "host" + std::to_string(h);
            m.hostTxSeries.push_back(m.res->RegisterSeries(fabricTag, name, "tx_gbps"));
            m.hostRxSeries.push_back(m.res->RegisterSeries(fabricTag, name, "rx_gbps"));
        }
        m.hostTxPrev.assign(nHosts, 0);
        m.hostRxPrev.assign(nHosts, 0);
    }

    // Random loss.
    if (c.lossRate > 0)
    {
        NetDeviceContainer devs;
        if (c.lossAt == "path")
        {
            // Every packet enters exactly one host NIC port on its way: drop there.
            for (uint32_t h = 0; h < nHosts; ++h)
            {
                for (uint32_t p = 0; p < nPlanes; ++p)
                {
                    devs.Add(m.topo->GetNicPort(h, p));
                }
            }
        }
        else
        {
            for (uint32_t l = 0; l < m.topo->GetNLinks(); ++l)
            {
                devs.Add(m.topo->GetLink(l).devA);
                devs.Add(m.topo->GetLink(l).devB);
            }
        }
        stream += MrcInstallRandomLoss(devs, c.lossRate, stream);
    }
    // Per-link packet error rates of a topology file (HPCC's err column): a receive error
    // model on both devices of the link, in every plane, as the HPCC simulator installs it.
    if (c.graph)
    {
        const uint32_t nl = static_cast<uint32_t>(c.graph->links.size());
        for (uint32_t p = 0; p < nPlanes; ++p)
        {
            for (uint32_t i = 0; i < nl; ++i)
            {
                if (c.graphLinkError[i] > 0)
                {
                    const MrcTopologyLink& l = m.topo->GetLink(p * nl + i);
                    NetDeviceContainer devs;
                    devs.Add(l.devA);
                    devs.Add(l.devB);
                    stream += MrcInstallRandomLoss(devs, c.graphLinkError[i], stream);
                }
            }
        }
    }

    // Workload.
    m.trackStalls = !c.failLink.empty();
    m.nextStream = stream + 100000;
    if (c.pattern == "allreduce" || c.pattern == "allgather")
    {
        // One ring all-reduce (or all-gather) over all hosts in index order, started at 0.
        std::vector<uint32_t> ring(nHosts);
        for (uint32_t h = 0; h < nHosts; ++h)
        {
            ring[h] = h;
        }
        NS_ABORT_MSG_IF(c.bytes < uint64_t{nHosts} * c.chunks,
                        c.pattern << ": --bytes=" << c.bytes
                                  << " must be at least hosts x chunks = "
                                  << uint64_t{nHosts} * c.chunks);
        m.collectives.emplace_back(0,
                                   c.pattern == "allreduce" ? MrcRingCollective::ALL_REDUCE
                                                            : MrcRingCollective::ALL_GATHER,
                                   ring,
                                   c.bytes,
                                   c.chunks);
        for (const MrcFlowSpec& f : m.collectives[0].Start(Time(0)))
        {
            m.AddMessage(f);
        }
    }
    else
    {
        if (c.htsimMatrix)
        {
            // An htsim connection matrix: timed connections now, the others when a trigger
            // starts them.
            for (const MrcHtsimTrigger& t : c.htsimMatrix->triggers)
            {
                Impl::TriggerState& st = m.triggers[t.id];
                st.type = t.type;
                st.remaining = t.count;
            }
            const auto& conns = c.htsimMatrix->connections;
            for (std::size_t k = 0; k < conns.size(); ++k)
            {
                if (conns[k].hasStart)
                {
                    m.StartConnection(k);
                }
                else
                {
                    m.triggers[conns[k].trigger].targets.push_back(k);
                }
            }
        }
        else
        {
            for (const MrcFlowSpec& f : MakeMessages(c, nHosts))
            {
                m.AddMessage(f);
            }
        }
    }
    for (std::size_t i = 0; i < m.msgs.size(); ++i)
    {
        if (m.msgs[i].kind == MrcFlowKind::VICTIM)
        {
            c.options["victimFlow"] = std::to_string(i);
        }
    }

    // Failures.
    if (!c.failLink.empty())
    {
        std::stringstream ss(c.failLink);
        std::string item;
        while (std::getline(ss, item, ','))
        {
            const std::size_t colon = item.find(':');
            const std::string a = item.substr(0, colon);
            const std::string b = item.substr(colon + 1);
            if (!MrcFailureInjector::FindNode(a) || !MrcFailureInjector::FindNode(b) ||
                m.topo->GetLinksBetween(MrcFailureInjector::FindNode(a),
                                        MrcFailureInjector::FindNode(b))
                        .size() != 1)
            {
                MrcCommandLine::Fail("--failLink='" + c.failLink + "': '" + item +
                                     "' does not name two nodes joined by one link "
                                     "(nodes are host<i> and p<plane>-t<tier>-<index>)");
            }
        }
        m.injector = CreateObject<MrcFailureInjector>();
        m.injector->SetEventLog(m.log);
        if (c.repairAt > Time(0))
        {
            m.injector->FailLinks(c.failLink, c.failAt, c.repairAt);
        }
        else
        {
            m.injector->FailLinks(c.failLink, c.failAt);
        }
    }

    // PFC log (HPCC's pfc.txt: the paused port's node and interface) from every device.
    for (uint32_t l = 0; l < m.topo->GetNLinks(); ++l)
    {
        const MrcTopologyLink& link = m.topo->GetLink(l);
        for (int end = 0; end < 2; ++end)
        {
            Ptr<MrcNetDevice> dev = end == 0 ? link.devA : link.devB;
            Ptr<Node> node = end == 0 ? link.nodeA : link.nodeB;
            const uint32_t nodeId = node->GetId();
            const uint32_t type = m.topo->FindSwitchId(node) >= 0 ? 1 : 0;
            const uint32_t ifIndex = dev->GetIfIndex();
            MrcRunResults* results = m.res;
            dev->TraceConnectWithoutContext(
                "PauseState",
                Callback<void, uint8_t, bool>([results, nodeId, type, ifIndex](uint8_t, bool p) {
                    MrcPfcRecord r;
                    r.timeNs = Simulator::Now().GetNanoSeconds();
                    r.node = nodeId;
                    r.nodeType = type;
                    r.ifIndex = ifIndex;
                    r.type = p ? 1 : 0;
                    results->AddPfc(r);
                }));
        }
    }

    // Time series.
    if (c.sampleInterval > Time(0))
    {
        for (uint32_t s = 0; s < m.topo->GetNSwitches(); ++s)
        {
            Ptr<MrcSwitchNode> sw = m.topo->GetSwitchById(s);
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                m.queues.push_back(
                    Impl::QueuePort{sw->GetPort(p),
                                    MrcFailureInjector::NodeName(sw) + ":" + std::to_string(p),
                                    c.tagFabricSeries ? c.transport : ""});
            }
        }
        // Flow files often start late (HPCC's at 2 s): sample from the first message on.
        Time first = Time::Max();
        for (const MrcFlowSpec& f : m.msgs)
        {
            first = std::min(first, f.start);
        }
        first = m.msgs.empty() || c.pattern != "file" ? Time(0) : first;
        m.sampleEvent = Simulator::Schedule(first + c.sampleInterval, &Impl::Sample, &m);
    }

    if (c.pcap)
    {
        MrcLinkHelper pcap;
        std::string dir = c.pcapDir.empty() ? "." : c.pcapDir;
        if (dir.back() != '/')
        {
            dir += "/";
        }
        for (uint32_t l = 0; l < m.topo->GetNLinks(); ++l)
        {
            pcap.EnablePcap(dir + "mrc", m.topo->GetLink(l).devA);
            pcap.EnablePcap(dir + "mrc", m.topo->GetLink(l).devB);
        }
    }
    m.buildWall = std::chrono::duration<double>(Impl::Clock::now() - t0).count();
}

void
MrcScenarioRunner::Impl::AddMessage(const MrcFlowSpec& f)
{
    const MrcScenarioConfig& c = cfg;
    const std::size_t i = msgs.size();
    msgs.push_back(f);
    const uint32_t mtu = c.topology.mtu;
    const uint64_t regionBytes = std::max<uint64_t>(f.bytes, 1);
    MrcRdmaHelper::Connection conn;
    if (mrc)
    {
        // As MrcMultipathHelper::Connect, with the EV profiles' random streams fixed
        // before the EV sets are drawn (the helper fixes none: automatic stream numbers
        // depend on everything created before in the process).
        std::vector<MrcEvCandidate> ab;
        std::vector<MrcEvCandidate> ba;
        const bool srv6 = c.evFormat == "srv6";
        if (srv6 && topo->GetKind() == MrcTopologyKind::GRAPH)
        {
            // A topology file may have paths longer than a uSID carrier holds.
            for (const MrcPath& p : topo->GetPaths(f.src, f.dst, 0))
            {
                NS_ABORT_MSG_IF(p.usids.size() > MrcUsidCarrier::MAX_USIDS,
                                "--evFormat=srv6: the path from host "
                                    << f.src << " to host " << f.dst << " crosses "
                                    << p.switches.size() << " switches; a uSID carrier holds "
                                    << MrcUsidCarrier::MAX_USIDS - 1
                                    << " switches and the host downlink (allowed for this "
                                       "topology: --evFormat=structured, MRC over ECMP)");
            }
        }
        if (srv6)
        {
            ab = Srv6Candidates(f.src, f.dst);
            ba = Srv6Candidates(f.dst, f.src);
        }
        Ptr<MrcRdmaNic> na = MrcRdmaNic::GetNic(topo->GetHost(f.src));
        Ptr<MrcRdmaNic> nb = MrcRdmaNic::GetNic(topo->GetHost(f.dst));
        conn.requester = na->CreateQueuePair(mrcQpFactory);
        conn.responder = nb->CreateQueuePair(mrcQpFactory);
        for (auto [q, cands] :
             {std::make_pair(conn.requester, &ab), std::make_pair(conn.responder, &ba)})
        {
            Ptr<MrcMultipathQueuePair> mq = DynamicCast<MrcMultipathQueuePair>(q);
            Ptr<MrcEvProfile> profile = CreateObject<MrcEvProfile>();
            profile->SetFormat(srv6 ? MrcEvProfile::SRV6 : MrcEvProfile::STRUCTURED);
            nextStream += profile->AssignStreams(nextStream);
            mq->SetEvProfile(profile);
            mq->SetEvCandidates(*cands);
            mq->SetAttribute("BaseRtt", TimeValue(mrcBaseRtt));
        }
        MrcRdmaHelper::ConnectPair(conn.requester, conn.responder);
        conn.region = nb->RegisterMemoryRegion(0x100000000ULL, regionBytes);
        for (Ptr<MrcQueuePair> q : {conn.requester, conn.responder})
        {
            Ptr<MrcMultipathQueuePair> mq = DynamicCast<MrcMultipathQueuePair>(q);
            nextStream += mq->AssignStreams(nextStream);
        }
        if (c.maxEvEvents > 0)
        {
            const std::string where =
                "host" + std::to_string(f.src) + ":qp" + std::to_string(conn.requester->GetQpn());
            Impl* self = this;
            DynamicCast<MrcMultipathQueuePair>(conn.requester)
                ->GetEvTable()
                ->TraceConnectWithoutContext(
                    "EvState",
                    Callback<void,
                             uint32_t,
                             uint32_t,
                             uint32_t,
                             MrcEvState,
                             MrcEvState,
                             MrcEvReason>([self, where](uint32_t id,
                                                        uint32_t value,
                                                        uint32_t plane,
                                                        MrcEvState from,
                                                        MrcEvState to,
                                                        MrcEvReason reason) {
                        self->OnEvState(where, id, value, plane, from, to, reason);
                    }));
        }
    }
    else
    {
        conn = rdma.Connect(topo->GetHost(f.src), topo->GetHost(f.dst), regionBytes);
        if (!uec && f.priorityGroup >= 0 && f.priorityGroup < static_cast<int>(pgDscps.size()) &&
            pgDscps[f.priorityGroup] >= 0)
        {
            conn.requester->SetAttribute("DataDscp", UintegerValue(pgDscps[f.priorityGroup]));
        }
        if (uec)
        {
            // Fixed streams for the per-packet EV choice (as the MRC EV profiles above).
            for (Ptr<MrcQueuePair> q : {conn.requester, conn.responder})
            {
                nextStream += DynamicCast<MrcUecQueuePair>(q)->GetEntropySelector()->AssignStreams(
                    nextStream);
            }
        }
    }
    conns.push_back(conn);
    requesters.push_back(conn.requester);
    const uint32_t overhead =
        mrc   ? (c.evFormat == "srv6" ? MrcTopology::MRC_DATA_FRAME_OVERHEAD
                                      : MrcTopology::MRC_DATA_FRAME_OVERHEAD - 40)
        : uec ? MrcTopology::MRC_DATA_FRAME_OVERHEAD - 40 // no SRv6, RETH on every packet
              : ROCE_DATA_OVERHEAD + 16;
    auto key = std::make_pair(f.src, f.dst);
    auto it = pathCache.find(key);
    if (it == pathCache.end())
    {
        const std::vector<MrcPath> paths = topo->GetPaths(f.src, f.dst, 0);
        NS_ABORT_MSG_IF(paths.empty(), "no path from host " << f.src << " to " << f.dst);
        const int64_t rtt =
            topo->GetPathRtt(paths[0],
                             mtu,
                             overhead,
                             mrc || uec ? MrcTopology::MRC_SACK_FRAME_BYTES : ROCE_ACK_BYTES)
                .GetNanoSeconds();
        uint64_t bottleneck = UINT64_MAX;
        for (uint32_t l : paths[0].links)
        {
            bottleneck = std::min(bottleneck, topo->GetLink(l).devA->GetDataRate().GetBitRate());
        }
        if (mrc)
        {
            bottleneck *= topo->GetNPlanes(); // MRC sprays over every plane
        }
        it = pathCache.emplace(key, std::make_pair(rtt, bottleneck)).first;
    }
    MrcFlowRecord rec;
    rec.transport = c.transport;
    rec.flowId = i;
    rec.src = f.src;
    rec.dst = f.dst;
    rec.sport = static_cast<uint16_t>(conn.requester->GetQpn());
    rec.dport = static_cast<uint16_t>(conn.responder->GetQpn());
    if (f.dstPort >= 0)
    {
        rec.dport = static_cast<uint16_t>(f.dstPort); // the flow file's dport, as HPCC writes it
    }
    if (!c.graphNodeOfHost.empty())
    {
        // fct.txt addresses from the topology file's node ids (HPCC's 11.x.y.1 scheme)
        rec.sip = MrcHpccAddress(c.graphNodeOfHost.at(f.src));
        rec.dip = MrcHpccAddress(c.graphNodeOfHost.at(f.dst));
    }
    rec.bytes = f.bytes;
    rec.startNs = f.start.GetNanoSeconds();
    rec.idealFctNs = MrcIdealFctNs(f.bytes,
                                   mtu,
                                   overhead + (mrc || uec ? 0 : 8),
                                   it->second.first,
                                   it->second.second);
    handles.push_back(res->AddFlow(rec));
    ended.push_back(false);
    if (c.sampleInterval > Time(0))
    {
        const std::string name = "flow" + std::to_string(i);
        flowTxSeries.push_back(res->RegisterSeries(c.transport, name, "tx_gbps"));
        flowRateSeries.push_back(res->RegisterSeries(c.transport, name, "rate_gbps"));
        flowTxPrev.push_back(0);
        flowCwndSeries.push_back(-1);
    }

    Impl* self = this;
    if (trackStalls)
    {
        stallLastProgressNs.push_back(f.start.GetNanoSeconds());
        stallLastRxNs.push_back(-1);
        stallMaxNs.push_back(0);
        stallFromNs.push_back(f.start.GetNanoSeconds());
        stallPlaced.push_back(0);
        stallClosed.push_back(false);
        conn.responder->TraceConnectWithoutContext(
            "Rx",
            Callback<void, Ptr<const Packet>>(
                [self, i](Ptr<const Packet>) { self->OnResponderRx(i); }));
    }
    conn.requester->SetCompletionCallback(Callback<void, const MrcWorkCompletion&>(
        [self, i](const MrcWorkCompletion& wc) { self->OnComplete(i, wc); }));
    auto onError = [self](const std::string& where) {
        return Callback<void, uint32_t, MrcQpError, const std::string&>(
            [self, where](uint32_t qpn, MrcQpError e, const std::string& reason) {
                self->log->RecordNow(MrcEventKind::QP_ERROR,
                                     where + ":qp" + std::to_string(qpn),
                                     MrcQpErrorName(e) + ": " + reason);
            });
    };
    conn.requester->TraceConnectWithoutContext("Error", onError("host" + std::to_string(f.src)));
    conn.responder->TraceConnectWithoutContext("Error", onError("host" + std::to_string(f.dst)));
    MrcWorkRequest wr;
    wr.id = i;
    wr.remoteAddress = conn.region->GetBase();
    wr.rkey = conn.region->GetRkey();
    wr.length = static_cast<uint32_t>(f.bytes);
    Ptr<MrcQueuePair> qp = conn.requester;
    const Time delay = f.start > Simulator::Now() ? f.start - Simulator::Now() : Time(0);
    Simulator::Schedule(delay, [qp, wr]() { qp->PostSend(wr); });
}

std::vector<MrcEvCandidate>
MrcScenarioRunner::Impl::Srv6Candidates(uint32_t src, uint32_t dst) const
{
    std::vector<MrcEvCandidate> paths = MrcMultipathHelper::GetSrv6Candidates(topo, src, dst);
    const uint32_t planes = topo->GetNPlanes();
    const uint32_t want =
        std::min((evPerQp + planes - 1) / planes, std::max<uint32_t>(cfg.evMinPerPlane, 1));
    std::vector<uint32_t> perPlane(planes, 0);
    for (const auto& c : paths)
    {
        ++perPlane[c.plane];
    }
    // Our choice: a plane with fewer paths than its share of the EVs (EvCount + BackupCount)
    // gives each path several EVs, told apart by a replica number in bits 16-23 of the EV
    // value (the SRv6 EV's plane and uplink bits stay; switches route by the carrier).
    std::vector<MrcEvCandidate> out = paths;
    for (uint32_t r = 1; r < 256; ++r)
    {
        bool added = false;
        for (const auto& c : paths)
        {
            if (perPlane[c.plane] * r < want)
            {
                MrcEvCandidate copy = c;
                copy.value |= r << 16;
                out.push_back(copy);
                added = true;
            }
        }
        if (!added)
        {
            break;
        }
    }
    return out;
}

void
MrcScenarioRunner::Impl::OnEvState(const std::string& where,
                                   uint32_t evId,
                                   uint32_t value,
                                   uint32_t plane,
                                   MrcEvState from,
                                   MrcEvState to,
                                   MrcEvReason reason)
{
    // Congestion skips (ECN echoes and their expiry) happen all the time under load: only
    // health changes are recorded, at most maxEvEvents of them.
    if (reason == MrcEvReason::ECN_ECHO || reason == MrcEvReason::SKIP_EXPIRED ||
        reason == MrcEvReason::ALWAYS_SKIP)
    {
        return;
    }
    ++evChanges;
    if (evRecorded >= cfg.maxEvEvents)
    {
        return;
    }
    ++evRecorded;
    std::ostringstream d;
    d << "ev " << evId << " value 0x" << std::hex << value << std::dec << " plane " << plane << " "
      << MrcEvStateName(from) << "->" << MrcEvStateName(to) << " " << MrcEvReasonName(reason);
    log->RecordNow(MrcEventKind::EV_STATE, where, d.str());
}

std::vector<uint32_t>
MrcScenarioRunner::Derangement(uint32_t hosts, uint64_t seed)
{
    NS_ABORT_MSG_IF(hosts < 2, "a permutation needs at least 2 hosts, got " << hosts);
    std::mt19937_64 rng(seed);
    std::vector<uint32_t> dst(hosts);
    for (bool ok = false; !ok;)
    {
        for (uint32_t i = 0; i < hosts; ++i)
        {
            dst[i] = i;
        }
        for (uint32_t i = hosts - 1; i > 0; --i)
        {
            std::swap(dst[i], dst[rng() % (i + 1)]);
        }
        ok = true;
        for (uint32_t i = 0; i < hosts; ++i)
        {
            ok = ok && dst[i] != i;
        }
    }
    return dst;
}

std::vector<MrcFlowSpec>
MrcScenarioRunner::MakeMessages(const MrcScenarioConfig& c, uint32_t hosts)
{
    std::vector<MrcFlowSpec> flows;
    std::vector<uint32_t> all(hosts);
    for (uint32_t h = 0; h < hosts; ++h)
    {
        all[h] = h;
    }
    if (c.pattern == "file")
    {
        flows = c.fileFlows; // --flowFile
    }
    else if (c.pattern == "alltoall")
    {
        flows = MrcWorkloadGenerator::AllToAll(all, c.bytes, Time(0));
    }
    else if (c.pattern == "flows")
    {
        const MrcFlowSizeCdf cdf = MrcFlowSizeCdf::LoadFile(FindCdfFile(c.cdf));
        Ptr<MrcWorkloadGenerator> gen = CreateObject<MrcWorkloadGenerator>();
        gen->AssignStreams(500);
        flows =
            gen->Poisson(all, cdf, c.load, c.topology.hostRate.GetBitRate(), Time(0), c.duration);
    }
    else if (c.pattern == "incast" || c.pattern == "incast-victim")
    {
        NS_ABORT_MSG_IF(c.senders == 0 || c.senders >= hosts,
                        "incast senders " << c.senders << " must be 1.." << hosts - 1);
        const uint32_t receiver = hosts - 1;
        // incast-victim is a cross-spine incast ([P1] sec. 5.2.8): the senders are drawn
        // from the hosts outside the receiver's rack (the last hostsPerT0 hosts), one of
        // which must stay free to send the victim flow.
        const uint32_t pool =
            c.pattern == "incast-victim"
                ? receiver - receiver % std::max<uint32_t>(c.topology.GetHostsPerT0(), 1)
                : receiver;
        NS_ABORT_MSG_IF(c.pattern == "incast-victim" && c.senders >= pool,
                        "incast-victim: --senders=" << c.senders << " must be 1.." << pool - 1
                                                    << " (hosts outside the receiver's rack, "
                                                       "one left for the victim)");
        std::mt19937_64 rng(c.seed);
        std::vector<uint32_t> others(pool);
        for (uint32_t i = 0; i < pool; ++i)
        {
            others[i] = i;
        }
        for (uint32_t i = pool - 1; i > 0; --i)
        {
            std::swap(others[i], others[rng() % (i + 1)]);
        }
        others.resize(c.senders);
        std::sort(others.begin(), others.end());
        flows = MrcWorkloadGenerator::Incast(others, receiver, c.bytes, Time(0));
        if (c.pattern == "incast-victim")
        {
            const uint32_t hpt = c.topology.GetHostsPerT0();
            std::vector<uint32_t> rack;
            for (uint32_t h = receiver - receiver % hpt; h < hosts && rack.size() < hpt; ++h)
            {
                rack.push_back(h);
            }
            flows.push_back(
                MrcWorkloadGenerator::ChooseVictim(others, receiver, rack, all, c.bytes, Time(0)));
        }
    }
    else
    {
        NS_ABORT_MSG_IF(c.pattern != "permutation",
                        "unknown traffic pattern '"
                            << c.pattern
                            << "' (allowed: permutation, incast, incast-victim, alltoall, flows)");
        const std::vector<uint32_t> dst = Derangement(hosts, c.seed);
        for (uint32_t i = 0; i < hosts; ++i)
        {
            MrcFlowSpec f;
            f.src = i;
            f.dst = dst[i];
            f.bytes = c.bytes;
            flows.push_back(f);
        }
    }
    const uint32_t parts = std::max<uint32_t>(c.qpsPerPair, 1);
    std::vector<MrcFlowSpec> out;
    out.reserve(flows.size() * parts);
    for (const auto& f : flows)
    {
        for (uint32_t k = 0; k < parts; ++k)
        {
            MrcFlowSpec m = f;
            m.bytes = f.bytes / parts + (k < f.bytes % parts ? 1 : 0);
            out.push_back(m);
        }
    }
    return out;
}

void
MrcScenarioRunner::Impl::OnComplete(std::size_t i, const MrcWorkCompletion& wc)
{
    if (ended[i])
    {
        return;
    }
    ended[i] = true;
    ++nEnded;
    if (trackStalls && wc.status == MrcWcStatus::SUCCESS)
    {
        CloseStall(i, -1); // a failed message stays stalled: Collect closes it at the end
    }
    if (wc.status == MrcWcStatus::SUCCESS)
    {
        res->CompleteFlow(handles[i], wc.end.GetNanoSeconds());
        if (msgs[i].kind == MrcFlowKind::COLLECTIVE)
        {
            MrcRingCollective& rc = collectives.at(msgs[i].collective);
            const MrcFlowSpec done = msgs[i]; // AddMessage may reallocate msgs
            for (const MrcFlowSpec& f : rc.OnFlowComplete(done, Simulator::Now()))
            {
                AddMessage(f);
            }
            if (rc.IsComplete())
            {
                cfg.options[cfg.pattern + "CompletionNs"] =
                    std::to_string(rc.GetDuration().GetNanoSeconds());
            }
        }
        if (cfg.htsimMatrix && msgConn.size() > i && msgConn[i] >= 0)
        {
            // htsim's send_done and recv_done triggers, both at the sender's completion
            const MrcHtsimConnection& k = cfg.htsimMatrix->connections[msgConn[i]];
            for (uint32_t t : {k.sendDoneTrigger, k.recvDoneTrigger})
            {
                if (t != 0)
                {
                    ActivateTrigger(t);
                }
            }
        }
    }
    if (nEnded == msgs.size())
    {
        Simulator::Stop();
        sampleEvent.Cancel();
        if (progress)
        {
            progress->Stop();
        }
    }
}

void
MrcScenarioRunner::Impl::StartConnection(std::size_t k)
{
    const MrcHtsimConnection& conn = cfg.htsimMatrix->connections[k];
    MrcFlowSpec f;
    f.src = conn.src;
    f.dst = conn.dst;
    f.bytes = conn.size;
    // htsim truncates a start time to whole microseconds; a triggered connection starts now
    f.start = conn.hasStart ? MicroSeconds(static_cast<int64_t>(std::floor(conn.startUs)))
                            : Simulator::Now();
    AddMessage(f);
    msgConn.resize(msgs.size(), -1);
    msgConn.back() = static_cast<int64_t>(k);
    ++connsStarted;
    cfg.options["htsimConnectionsStarted"] = std::to_string(connsStarted);
}

void
MrcScenarioRunner::Impl::ActivateTrigger(uint32_t id)
{
    auto it = triggers.find(id);
    if (it == triggers.end())
    {
        return; // a done trigger no connection waits for
    }
    TriggerState& t = it->second;
    std::vector<std::size_t> start;
    switch (t.type)
    {
    case MrcHtsimTrigger::ONESHOT:
        // every target, on the first activation only
        if (!t.fired)
        {
            t.fired = true;
            start = t.targets;
        }
        break;
    case MrcHtsimTrigger::MULTISHOT:
        // the next target per activation
        if (t.next < t.targets.size())
        {
            start.push_back(t.targets[t.next++]);
        }
        break;
    case MrcHtsimTrigger::BARRIER:
        // every target after `count` activations
        if (!t.fired && t.remaining > 0 && --t.remaining == 0)
        {
            t.fired = true;
            start = t.targets;
        }
        break;
    }
    for (std::size_t k : start)
    {
        StartConnection(k);
    }
}

void
MrcScenarioRunner::Impl::Sample()
{
    const int64_t now = Simulator::Now().GetNanoSeconds();
    const double toGbps = 8.0 / cfg.sampleInterval.GetNanoSeconds(); // bytes/ns*8 = Gb/s
    const uint32_t planes = topo->GetNPlanes();
    for (uint32_t h = 0; h < hostTxSeries.size(); ++h)
    {
        uint64_t tx = 0;
        uint64_t rx = 0;
        for (uint32_t p = 0; p < planes; ++p)
        {
            tx += DevTxBytes(hostDevs[h * planes + p]);
            rx += DevRxBytes(hostDevs[h * planes + p]);
        }
        res->AddSample(now, hostTxSeries[h], (tx - hostTxPrev[h]) * toGbps);
        res->AddSample(now, hostRxSeries[h], (rx - hostRxPrev[h]) * toGbps);
        hostTxPrev[h] = tx;
        hostRxPrev[h] = rx;
    }
    for (std::size_t i = 0; i < requesters.size(); ++i)
    {
        if (ended[i])
        {
            continue;
        }
        const uint64_t b = requesters[i]->GetCounters().dataBytesSent;
        res->AddSample(now, flowTxSeries[i], (b - flowTxPrev[i]) * toGbps);
        flowTxPrev[i] = b;
        const MrcCcState& cc = requesters[i]->GetCcState();
        res->AddSample(now, flowRateSeries[i], cc.rate.GetBitRate() / 1e9);
        if (cc.cwnd != std::numeric_limits<uint64_t>::max())
        {
            // Window-based controllers only (DCQCN is rate-based: no window).
            if (flowCwndSeries[i] < 0)
            {
                flowCwndSeries[i] =
                    res->RegisterSeries(cfg.transport, "flow" + std::to_string(i), "cwnd_bytes");
            }
            res->AddSample(now,
                           static_cast<uint32_t>(flowCwndSeries[i]),
                           static_cast<double>(cc.cwnd));
        }
    }
    for (auto& q : queues)
    {
        const uint64_t bytes = q.dev->GetTotalQueueBytes();
        if (bytes > 0 || q.lastNonZero)
        {
            if (q.series < 0)
            {
                q.series = res->RegisterSeries(q.tag, q.name, "queue_bytes");
            }
            res->AddSample(now, static_cast<uint32_t>(q.series), static_cast<double>(bytes));
        }
        q.lastNonZero = bytes > 0;
    }
    if (nEnded < msgs.size() && Simulator::Now() + cfg.sampleInterval < cfg.simTime)
    {
        sampleEvent = Simulator::Schedule(cfg.sampleInterval, &Impl::Sample, this);
    }
}

void
MrcScenarioRunner::Run()
{
    Build();
    Impl& m = *m_impl;
    NS_ABORT_MSG_IF(m.ran, "MrcScenarioRunner::Run called twice");
    m.ran = true;
    if (m.cfg.progress)
    {
        m.progress = CreateObject<MrcProgressReporter>();
        m.progress->Start(m.cfg.simTime);
    }
    Simulator::Stop(m.cfg.simTime);
    const double cpu0 = CpuSeconds();
    const auto t0 = Impl::Clock::now();
    if (m.msgs.empty())
    {
        Simulator::Stop();
    }
    Simulator::Run();
    m.runWall = std::chrono::duration<double>(Impl::Clock::now() - t0).count();
    m.runCpu = CpuSeconds() - cpu0;
    if (m.progress)
    {
        m.progress->Stop();
    }
    m.events = Simulator::GetEventCount() - (m.progress ? m.progress->GetChecks() : 0);
    m.Collect();
    if (m.sharedLog)
    {
        // Several transports: say which run each record belongs to.
        const bool tag = m.cfg.transports.size() > 1;
        for (const MrcEventRecord& e : m.log->GetRecords())
        {
            const std::string t = "transport=" + m.cfg.transport;
            m.sharedLog->Record(e.time,
                                e.kind,
                                e.where,
                                tag ? (e.detail.empty() ? t : e.detail + " " + t) : e.detail);
        }
        m.log = m.sharedLog;
    }
}

void
MrcScenarioRunner::Impl::NoteProgress(std::size_t i)
{
    const uint64_t placed = conns[i].responder->GetCounters().bytesPlaced;
    if (placed > stallPlaced[i] && stallLastRxNs[i] >= 0)
    {
        // The packet of the previous Rx was placed (new bytes): progress at that time.
        const int64_t gap = stallLastRxNs[i] - stallLastProgressNs[i];
        if (gap > stallMaxNs[i])
        {
            stallMaxNs[i] = gap;
            stallFromNs[i] = stallLastProgressNs[i];
        }
        stallLastProgressNs[i] = stallLastRxNs[i];
        stallPlaced[i] = placed;
    }
}

void
MrcScenarioRunner::Impl::OnResponderRx(std::size_t i)
{
    if (!ended[i])
    {
        NoteProgress(i);
        stallLastRxNs[i] = Simulator::Now().GetNanoSeconds();
    }
}

void
MrcScenarioRunner::Impl::CloseStall(std::size_t i, int64_t until)
{
    NoteProgress(i);
    if (until >= 0 && until - stallLastProgressNs[i] > stallMaxNs[i])
    {
        stallMaxNs[i] = until - stallLastProgressNs[i];
        stallFromNs[i] = stallLastProgressNs[i];
    }
    stallClosed[i] = true;
    log->RecordNow("flow_stall",
                   "flow" + std::to_string(i),
                   "max_stall_ns=" + std::to_string(stallMaxNs[i]) +
                       " from_ns=" + std::to_string(stallFromNs[i]));
}

void
MrcScenarioRunner::Impl::Collect()
{
    for (std::size_t i = 0; trackStalls && i < msgs.size(); ++i)
    {
        if (!stallClosed[i])
        {
            // Still running, stuck or failed at the end of the run: the gap lasts until now.
            CloseStall(i, Simulator::Now().GetNanoSeconds());
        }
    }
    MrcTransportCounters& tc = res->GetCounters(cfg.transport);
    uint64_t mpTrimNacks = 0;
    uint64_t mpProbes = 0;
    uint64_t mpInferred = 0;
    MrcUecCounters uc;
    for (std::size_t i = 0; i < conns.size(); ++i)
    {
        const MrcQpCounters& q = conns[i].requester->GetCounters();
        tc.retransmissions += q.retransmittedPackets;
        tc.timeouts += q.timeouts;
        tc.nacks += q.naksReceived;
        tc.cnps += q.cnpsReceived;
        if (mrc)
        {
            Ptr<MrcMultipathQueuePair> mq = DynamicCast<MrcMultipathQueuePair>(conns[i].requester);
            mpTrimNacks += mq->GetMultipathCounters().trimNacksReceived;
            mpProbes += mq->GetMultipathCounters().probesSent;
            mpInferred += mq->GetMultipathCounters().inferredLosses;
        }
        if (uec)
        {
            const MrcUecCounters& u =
                DynamicCast<MrcUecQueuePair>(conns[i].requester)->GetUecCounters();
            const MrcUecCounters& r =
                DynamicCast<MrcUecQueuePair>(conns[i].responder)->GetUecCounters();
            uc.trimNacksReceived += u.trimNacksReceived;
            uc.inferredLosses += u.inferredLosses;
            uc.timedOutPsns += u.timedOutPsns;
            uc.lastHopNacksSent += r.lastHopNacksSent;
            uc.oorDrops += r.oorDrops;
        }
        const Ptr<MrcMemoryRegion> r = conns[i].region;
        if (msgs[i].bytes == 0 || r->IsExactlyOnce(r->GetBase(), msgs[i].bytes))
        {
            tc.bytesExactlyOnce += msgs[i].bytes;
        }
        else if (r->GetBytesPlaced() > r->GetDuplicateBytes())
        {
            tc.bytesExactlyOnce += r->GetBytesPlaced() - r->GetDuplicateBytes();
        }
    }
    for (uint32_t s = 0; s < topo->GetNSwitches(); ++s)
    {
        Ptr<MrcSwitchNode> sw = topo->GetSwitchById(s);
        tc.trims += sw->GetTrimmedPackets();
        tc.drops += sw->GetTotalDropPackets();
        tc.ecnMarks += sw->GetMarkedPackets();
        tc.pfcPauseFrames += sw->GetPausesSent();
    }
    hops = 0;
    for (uint32_t l = 0; l < topo->GetNLinks(); ++l)
    {
        const MrcTopologyLink& link = topo->GetLink(l);
        for (int end = 0; end < 2; ++end)
        {
            Ptr<MrcNetDevice> dev = end == 0 ? link.devA : link.devB;
            Ptr<MrcNetDevice> peer = end == 0 ? link.devB : link.devA;
            Ptr<Node> node = end == 0 ? link.nodeA : link.nodeB;
            Ptr<Node> peerNode = end == 0 ? link.nodeB : link.nodeA;
            MrcLinkRecord r;
            r.from = MrcFailureInjector::NodeName(node);
            r.fromPort = end == 0 ? link.portA : link.portB;
            r.to = MrcFailureInjector::NodeName(peerNode);
            r.toPort = end == 0 ? link.portB : link.portA;
            r.rateBps = dev->GetDataRate().GetBitRate();
            r.packets = DevTxPackets(dev);
            r.bytes = DevTxBytes(dev);
            r.pausesRecv = dev->GetPfcRxFrames();
            r.pausedNs = DevPausedNs(dev);
            Ptr<MrcSwitchNode> sw = DynamicCast<MrcSwitchNode>(node);
            if (sw)
            {
                const uint32_t port = r.fromPort;
                for (std::size_t k = 0; k < MRC_SWITCH_DROP_REASON_COUNT; ++k)
                {
                    r.drops += sw->GetDropPackets(port, static_cast<MrcSwitchDropReason>(k));
                }
                r.trims = sw->GetTrimmedPackets(port);
                r.ecnMarks = sw->GetMarkedPackets(port);
                r.pausesSent = sw->GetPausesSent(port);
            }
            else
            {
                r.drops = DevDrops(dev);
                tc.drops += r.drops;
                r.pausesSent = dev->GetPfcTxFrames();
                tc.pfcPauseFrames += r.pausesSent;
            }
            tc.pfcPausedNs += r.pausedNs;
            hops += r.packets;
            res->AddLink(r);
        }
    }
    MrcRunInfo& info = res->GetInfo();
    info.scenario = cfg.scenario;
    info.seed = cfg.seed;
    // Several transports in one results: keep the first one's options, add per-transport
    // figures under "<transport>." names.
    const bool first = info.options.empty();
    const std::string pre = cfg.transports.size() > 1 ? cfg.transport + "." : "";
    if (first)
    {
        info.options = cfg.options;
    }
    for (const char* k : {"victimFlow",
                          "allreduceCompletionNs",
                          "allgatherCompletionNs",
                          "mtu",
                          "htsimConnectionsStarted"})
    {
        auto it = cfg.options.find(k);
        if (it != cfg.options.end())
        {
            info.options[pre + k] = it->second;
        }
    }
    if (mrc)
    {
        // MRC's own counters (summary.json "options" has room for named figures).
        info.options[pre + "mrcTrimNacksReceived"] = std::to_string(mpTrimNacks);
        info.options[pre + "mrcInferredLosses"] = std::to_string(mpInferred);
        info.options[pre + "mrcProbesSent"] = std::to_string(mpProbes);
        info.options[pre + "mrcEvHealthChanges"] = std::to_string(evChanges);
        if (!conns.empty())
        {
            // One MRC timeout, 1.024 us x 2^TimeoutExponent (the stall bound of validation).
            UintegerValue e;
            conns[0].requester->GetAttribute("TimeoutExponent", e);
            info.options[pre + "mrcTimeoutNs"] = std::to_string(uint64_t{1024} << e.Get());
        }
    }
    if (uec)
    {
        // UEC's own counters (requester side, except the responder's last-hop NACKs and
        // out-of-window drops).
        info.options[pre + "uecTrimNacksReceived"] = std::to_string(uc.trimNacksReceived);
        info.options[pre + "uecLastHopNacksSent"] = std::to_string(uc.lastHopNacksSent);
        info.options[pre + "uecInferredLosses"] = std::to_string(uc.inferredLosses);
        info.options[pre + "uecTimedOutPsns"] = std::to_string(uc.timedOutPsns);
        info.options[pre + "uecOutOfWindowDrops"] = std::to_string(uc.oorDrops);
    }
    info.ns3Version = MrcNs3VersionString();
    info.simulatedTimeNs = std::max(info.simulatedTimeNs, Simulator::Now().GetNanoSeconds());
    info.eventsExecuted += events;
    info.wallClockSeconds += buildWall + runWall;
    info.peakRssKb = PeakRssKb();
}

void
MrcScenarioRunner::SetSharedResults(MrcRunResults* results, Ptr<MrcEventLog> log)
{
    NS_ABORT_MSG_IF(m_impl->built, "SetSharedResults must come before Build");
    m_impl->res = results ? results : &m_impl->results;
    m_impl->sharedLog = log;
}

const MrcRunResults&
MrcScenarioRunner::GetResults() const
{
    return *m_impl->res;
}

Ptr<MrcEventLog>
MrcScenarioRunner::GetEventLog() const
{
    return m_impl->log;
}

Ptr<MrcTopology>
MrcScenarioRunner::GetTopology() const
{
    return m_impl->topo;
}

const std::vector<MrcFlowSpec>&
MrcScenarioRunner::GetMessages() const
{
    return m_impl->msgs;
}

const std::vector<Ptr<MrcQueuePair>>&
MrcScenarioRunner::GetRequesters() const
{
    return m_impl->requesters;
}

std::vector<std::string>
MrcScenarioRunner::Write(const std::string& dir) const
{
    Ptr<MrcEventLog> log = m_impl->log;
    std::vector<std::string> files =
        MrcResultsWriter::WriteAll(*m_impl->res, dir, [log](const std::string& d) {
            log->WriteCsv(d + "/events.csv");
        });
    files.push_back("events.csv");
    return files;
}

uint64_t
MrcScenarioRunner::GetPacketHops() const
{
    return m_impl->hops;
}

uint64_t
MrcScenarioRunner::GetEvents() const
{
    return m_impl->events;
}

double
MrcScenarioRunner::GetBuildWallSeconds() const
{
    return m_impl->buildWall;
}

double
MrcScenarioRunner::GetRunWallSeconds() const
{
    return m_impl->runWall;
}

double
MrcScenarioRunner::GetRunCpuSeconds() const
{
    return m_impl->runCpu;
}

// ---------------------------------------------------------------------------
// mrc-sim

int
MrcSimMain(int argc, char* argv[])
{
    const auto start = std::chrono::steady_clock::now();
    std::vector<char*> args(argv, argv + argc);
    std::string scenario = "permutation";
    if (args.size() > 1 && args[1][0] != '-')
    {
        scenario = args[1];
        args.erase(args.begin() + 1);
    }
    for (std::size_t i = 1; i < args.size(); ++i)
    {
        const std::string a = args[i];
        if (a.rfind("--scenario=", 0) == 0)
        {
            scenario = a.substr(11);
        }
        if (a == "--list" || a == "--list=1" || a == "--list=true")
        {
            MrcScenarios::PrintList(std::cout);
            return 0;
        }
    }
    const MrcScenarioInfo* info = MrcScenarios::Find(scenario);
    if (!info)
    {
        MrcCommandLine::Fail("--scenario='" + scenario + "' is not a scenario (allowed: " +
                             Join(MrcScenarios::GetNames()) + ")");
    }
    // ns-3's PriorityQueueScheduler (a binary heap over std::priority_queue) runs the
    // perm128-roce benchmark about 17% faster than the default MapScheduler with identical
    // results (events of equal time keep their insertion order); --SchedulerType=...
    // still chooses another one.
    GlobalValue::Bind("SchedulerType", StringValue("ns3::PriorityQueueScheduler"));
    MrcScenarioOptions o;
    o.scenario = scenario;
    info->preset(o);
    MrcCommandLine cmd;
    cmd.Usage("mrc-sim: run a named scenario (" + Join(MrcScenarios::GetNames()) +
              "), print the summary table and write the result files.");
    o.Register(cmd);
    cmd.Parse(static_cast<int>(args.size()), args.data());
    bool transportGiven = false;
    bool transportsGiven = false;
    for (std::size_t i = 1; i < args.size(); ++i)
    {
        const std::string a = args[i];
        transportGiven = transportGiven || a.rfind("--transport=", 0) == 0;
        transportsGiven = transportsGiven || a.rfind("--transports=", 0) == 0;
    }
    if (transportGiven && !transportsGiven)
    {
        o.transports = ""; // --transport=X replaces the scenario's transport list
    }
    MrcScenarioConfig c = o.ToConfig();
    for (std::size_t i = 1; i < args.size(); ++i)
    {
        std::string a = args[i];
        while (!a.empty() && a[0] == '-')
        {
            a.erase(0, 1);
        }
        const std::size_t eq = a.find('=');
        if (a.rfind("ns3::", 0) == 0 && eq != std::string::npos)
        {
            c.attributeOverrides.emplace_back(a.substr(0, eq), a.substr(eq + 1));
        }
    }
    const std::string out = o.out.empty() ? "results/" + scenario + "/" : o.out;
    c.pcapDir = out;
    if (c.pcap)
    {
        // The pcap files are opened at build time: create the folder first.
        std::error_code ec;
        std::filesystem::create_directories(out, ec);
    }

    const std::vector<std::string> list =
        c.transports.empty() ? std::vector<std::string>{c.transport} : c.transports;
    MrcRunResults shared;
    Ptr<MrcEventLog> log = CreateObject<MrcEventLog>();
    std::unique_ptr<MrcScenarioRunner> runner;
    double buildWall = 0;
    double runWall = 0;
    double runCpu = 0;
    uint64_t hops = 0;
    uint64_t events = 0;
    uint64_t messages = 0;
    uint32_t hosts = 0;
    for (std::size_t k = 0; k < list.size(); ++k)
    {
        if (k > 0)
        {
            // A fresh fabric: no object, attribute default or name of the previous run.
            runner.reset();
            Simulator::Destroy();
            Config::Reset();
            GlobalValue::Bind("SchedulerType", StringValue("ns3::PriorityQueueScheduler"));
        }
        MrcScenarioConfig ct = c;
        ct.transport = list[k];
        ct.transports = list;
        ct.options["transport"] = list[k];
        ct.profile = o.profile.empty() ? MrcScenarios::DefaultProfile(list[k]) : o.profile;
        ct.tagFabricSeries = list.size() > 1;
        if (!c.sameFabric && list[k] != "mrc" && c.topology.planes > 1 && !c.graph)
        {
            // The same NIC bandwidth on one plane.
            const uint64_t p = c.topology.planes;
            ct.topology.planes = 1;
            ct.topology.hostRate = DataRate(c.topology.hostRate.GetBitRate() * p);
            ct.topology.fabricRate = DataRate(c.topology.fabricRate.GetBitRate() * p);
            ct.topology.coreRate = DataRate(c.topology.coreRate.GetBitRate() * p);
        }
        runner = std::make_unique<MrcScenarioRunner>(ct);
        runner->SetSharedResults(&shared, log);
        runner->Run();
        buildWall += runner->GetBuildWallSeconds();
        runWall += runner->GetRunWallSeconds();
        runCpu += runner->GetRunCpuSeconds();
        hops += runner->GetPacketHops();
        events += runner->GetEvents();
        messages += runner->GetMessages().size();
        hosts = runner->GetTopology()->GetNHosts();
        std::cout << "scenario " << scenario << " (" << ct.transport << ", profile " << ct.profile
                  << ", " << hosts << " hosts, " << ct.topology.planes << " plane(s), seed "
                  << c.seed << "): simulated " << Simulator::Now().GetMicroSeconds() << " us in "
                  << MrcResultsWriter::FormatFixed(runner->GetBuildWallSeconds() +
                                                       runner->GetRunWallSeconds(),
                                                   2)
                  << " s\n";
    }
    runner->Write(out);
    MrcResultsWriter::PrintTable(shared, std::cout);
    for (const auto& [key, value] : shared.GetInfo().options)
    {
        if (key.find("mrc") != std::string::npos || key.find("uec") != std::string::npos ||
            key.find("CompletionNs") != std::string::npos ||
            key.find("victimFlow") != std::string::npos)
        {
            std::cout << key << " " << value << "\n";
        }
    }
    std::cout << "files: " << out << "\n";

    bool allDone = true;
    for (const auto& f : shared.GetFlows())
    {
        allDone = allDone && f.IsCompleted();
    }
    if (!o.benchJson.empty())
    {
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::ofstream js(o.benchJson);
        if (!js)
        {
            MrcCommandLine::Fail("--benchJson='" + o.benchJson + "': cannot write the file");
        }
        const double run = runWall;
        const double cpu = runCpu;
        js << "{\"scenario\": " << MrcResultsWriter::JsonString(scenario)
           << ", \"hosts\": " << hosts << ", \"messages\": " << messages
           << ", \"allCompleted\": " << (allDone ? "true" : "false")
           << ", \"simulatedNs\": " << Simulator::Now().GetNanoSeconds()
           << ", \"eventsExecuted\": " << events << ", \"packetHops\": " << hops
           << ", \"setupWallSeconds\": " << MrcResultsWriter::FormatFixed(buildWall, 3)
           << ", \"runWallSeconds\": " << MrcResultsWriter::FormatFixed(run, 3)
           << ", \"runCpuSeconds\": " << MrcResultsWriter::FormatFixed(cpu, 3)
           << ", \"totalWallSeconds\": " << MrcResultsWriter::FormatFixed(wall, 3)
           << ", \"peakRssKb\": " << PeakRssKb()
           << ", \"hopsPerWallSecond\": " << MrcResultsWriter::FormatFixed(hops / run, 0)
           << ", \"eventsPerWallSecond\": " << MrcResultsWriter::FormatFixed(events / run, 0)
           << ", \"hopsPerCpuSecond\": " << MrcResultsWriter::FormatFixed(hops / cpu, 0)
           << ", \"eventsPerCpuSecond\": " << MrcResultsWriter::FormatFixed(events / cpu, 0)
           << "}\n";
    }
    Simulator::Destroy();
    return allDone ? 0 : 1;
}

} // namespace ns3
