/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MrcScenarioOptions::CheckRunSettings: the settings that pass every option's own check
// but would stop a run with an abort when its fabric is built or its first packets move
// (issue 20: --checkOnly must see them). Per transport of the run, the attribute defaults
// the run will apply are worked out as MrcScenarioRunner applies them (the transport's
// fabric defaults, its profile for the run's rate and delay, --mtu, the RoCE priority
// groups of a flow file, then --ns3::Class::Attribute=value), and checked.

#include "mrc-scenario-options.h"
#include "mrc-scenario-presets.h"
#include "mrc-transport-table.h"

#include "ns3/mrc-comma-list.h"
#include "ns3/mrc-fabric-streams.h"
#include "ns3/mrc-input-error.h"
#include "ns3/mrc-profiles.h"
#include "ns3/mrc-shared-buffer-mmu.h"
#include "ns3/mrc-topology-helper.h"
#include "ns3/mrc-uint128.h"
#include "ns3/mrc-usid.h"
#include "ns3/nstime.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <limits>
#include <sstream>

namespace ns3
{

namespace
{

/// One attribute default a run sets: path, value, where it comes from.
struct Setting
{
    std::string path;   //!< "ns3::Class::Attribute"
    std::string value;  //!< serialized value
    std::string source; //!< "" for a --ns3:: option, else e.g. "profile roce-hpcc"
};

/**
 * The attribute defaults one transport of a run works with, in the order
 * MrcScenarioRunner applies them; what no setting names is the attribute's current
 * default.
 */
class RunAttributes
{
  public:
    /// \param c the run \param transport the transport \param topo its fabric
    RunAttributes(const MrcScenarioConfig& c,
                  const std::string& transport,
                  const MrcTopologyConfig& topo)
        : m_transport(transport)
    {
        const MrcTransportInfo& t = MrcTransportTable::Get(transport);
        for (const auto& [path, value] : t.fabricDefaults)
        {
            m_settings.push_back({path, value, "the " + transport + " fabric"});
        }
        const auto given = c.options.find("profile");
        const std::string profile = given != c.options.end() && !given->second.empty()
                                        ? c.profile
                                        : MrcScenarios::DefaultProfile(transport);
        if (profile != "none" && MrcProfiles::Exists(profile))
        {
            MrcProfileContext ctx;
            ctx.hostRate = topo.hostRate;
            ctx.linkDelay = topo.hostDelay;
            for (const MrcProfileSetting& s : MrcProfiles::GetSettings(profile, ctx))
            {
                m_settings.push_back({s.path, s.value, "profile " + profile});
            }
        }
        if (t.priorityGroups)
        {
            // A flow file's priority groups other than 3 are made lossless with 3.
            uint32_t others = 0;
            for (const MrcFlowSpec& f : c.fileFlows)
            {
                if (f.priorityGroup >= 0 && f.priorityGroup < 8 && f.priorityGroup != 3)
                {
                    others |= 1U << f.priorityGroup;
                }
            }
            const std::string path = "ns3::MrcSharedBufferMmu::PfcPriorityMask";
            const uint64_t mask = std::strtoull(Get(path).c_str(), nullptr, 10);
            if (others != 0 && (mask & (1U << 3)))
            {
                m_settings.push_back(
                    {path, std::to_string(mask | others), "the priority groups of --flowFile"});
            }
        }
        for (const auto& [path, value] : c.attributeOverrides)
        {
            m_settings.push_back({path, value, ""});
        }
    }

    /// \param path "ns3::Class::Attribute" \return its value for this run ("" if unknown)
    std::string Get(const std::string& path) const
    {
        const Setting* s = Find(path);
        if (s)
        {
            return s->value;
        }
        const std::size_t sep = path.rfind("::");
        TypeId tid;
        TypeId::AttributeInformation info;
        if (sep == std::string::npos || !TypeId::LookupByNameFailSafe(path.substr(0, sep), &tid) ||
            !tid.LookupAttributeByName(path.substr(sep + 2), &info))
        {
            return "";
        }
        return info.initialValue->SerializeToString(info.checker);
    }

    /// \param path the attribute \return it named for a message, with its value and origin
    std::string Name(const std::string& path) const
    {
        const Setting* s = Find(path);
        const std::string v = "='" + MrcParse::Printable(Get(path)) + "'";
        if (!s)
        {
            return path + v + " (its default)";
        }
        return s->source.empty() ? "--" + path + v : path + v + " (from " + s->source + ")";
    }

    /// \param path the attribute \return whether a setting of the run names it
    bool IsSet(const std::string& path) const
    {
        return Find(path) != nullptr;
    }

    /// \param path the attribute \return its value as an unsigned integer
    uint64_t GetU64(const std::string& path) const
    {
        return std::strtoull(Get(path).c_str(), nullptr, 10);
    }

    /// \param path the attribute \return its value as a number
    double GetDouble(const std::string& path) const
    {
        return std::strtod(Get(path).c_str(), nullptr);
    }

    /// \return the transport
    const std::string& Transport() const
    {
        return m_transport;
    }

  private:
    /// \param path the attribute \return the last setting of it, or nullptr
    const Setting* Find(const std::string& path) const
    {
        for (auto it = m_settings.rbegin(); it != m_settings.rend(); ++it)
        {
            if (it->path == path)
            {
                return &*it;
            }
        }
        return nullptr;
    }

    std::string m_transport;         //!< the transport
    std::vector<Setting> m_settings; //!< in the order they are applied
};

/// A value one attribute must have beyond what its checker accepts (the object aborts
/// on the others when it is set up).
struct ValueRule
{
    std::string path;                                //!< "ns3::Class::Attribute"
    std::function<bool(const std::string&)> allowed; //!< true for an allowed value
    std::string what;                                //!< the allowed values, in words
    bool onlySet{false}; //!< checked only when set (its default means "not given")
};

bool
PositiveTime(const std::string& v)
{
    return Time(v).IsStrictlyPositive();
}

bool
UnitFraction(const std::string& v)
{
    const double x = std::strtod(v.c_str(), nullptr);
    return x > 0.0 && x <= 1.0;
}

/// DWRR weights: 8 numbers, class 0 first (as MrcClassScheduler::SetDwrrWeights reads them).
bool
Weights(const std::string& v)
{
    const std::vector<std::string> items = MrcSplitCommas(v);
    uint32_t w = 0;
    return items.size() == 8 && std::all_of(items.begin(), items.end(), [&w](const auto& i) {
               return MrcParseUnsigned(i, w);
           });
}

/// A DSCP map: dscp:class items, DSCP 0..63, class 0..7 (as MrcNetDevice::SetDscpToClass).
bool
DscpMap(const std::string& v)
{
    for (const std::string& item : MrcSplitCommas(v))
    {
        const std::size_t colon = item.find(':');
        uint32_t dscp = 0;
        uint32_t cls = 0;
        if (colon == std::string::npos || !MrcParseUnsigned(MrcTrim(item.substr(0, colon)), dscp) ||
            !MrcParseUnsigned(MrcTrim(item.substr(colon + 1)), cls) || dscp > 63 || cls > 7)
        {
            return false;
        }
    }
    return true;
}

/// Values the classes abort on when they are set up, though their checkers accept them.
const std::vector<ValueRule>&
ValueRules()
{
    const std::string weights = "8 comma-separated integers, class 0 first";
    const std::string dscps = "comma-separated dscp:class items, DSCP 0..63, class 0..7";
    static const std::vector<ValueRule> rules = {
        {"ns3::MrcDcqcn::G", UnitFraction, "a number in (0, 1]"},
        {"ns3::MrcDcqcn::RateOnFirstCnp", UnitFraction, "a number in (0, 1]"},
        {"ns3::MrcDcqcn::AlphaUpdateInterval", PositiveTime, "a time above 0"},
        {"ns3::MrcDcqcn::RateDecreaseInterval", PositiveTime, "a time above 0"},
        {"ns3::MrcDcqcn::RateIncreaseInterval", PositiveTime, "a time above 0"},
        {"ns3::MrcClassScheduler::DwrrWeights", Weights, weights},
        {"ns3::MrcNetDevice::DwrrWeights", Weights, weights},
        {"ns3::MrcNetDevice::DscpToClass", DscpMap, dscps},
        {"ns3::MrcUecQueuePair::BaseRtt",
         PositiveTime,
         "a time above 0 (not given: the fabric's base RTT)",
         true},
        {"ns3::MrcUecQueuePair::WindowPsns",
         [](const std::string& v) { return std::strtoull(v.c_str(), nullptr, 10) % 64 == 0; },
         "a multiple of 64 in [64, 32640]"},
        {"ns3::MrcUecQueuePair::MaxCredit",
         [](const std::string& v) { return std::strtoull(v.c_str(), nullptr, 10) < (1u << 23); },
         "0 (1.5 x rate x BaseRtt) or below 8388608 (the pull target's 16 bits of 256 B)"},
        {"ns3::MrcUecPullPacer::CreditPerPull",
         [](const std::string& v) { return std::strtoull(v.c_str(), nullptr, 10) % 256 == 0; },
         "a multiple of 256 in [256, 1048576]"},
    };
    return rules;
}

/// Ports of a switch with the same link, added one after another.
struct PortRun
{
    uint64_t count{0}; //!< ports
    DataRate rate;     //!< their link rate
    Time delay;        //!< their link delay
};

/// A kind of switch of a fabric and its ports in the order they are added.
struct SwitchShape
{
    std::string name;          //!< e.g. "a T1 switch"
    std::vector<PortRun> runs; //!< in port order

    /// \return the ports
    uint64_t Ports() const
    {
        uint64_t n = 0;
        for (const PortRun& r : runs)
        {
            n += r.count;
        }
        return n;
    }
};

/// \param c the run \param t a fabric \return one shape per kind of switch (per switch
/// of a --topoFile)
std::vector<SwitchShape>
SwitchShapes(const MrcScenarioConfig& c, const MrcTopologyConfig& t)
{
    std::vector<SwitchShape> out;
    if (c.graph)
    {
        const MrcTopologyGraph& g = *c.graph;
        std::vector<std::size_t> index(g.isSwitch.size(), 0);
        for (std::size_t v = 0; v < g.isSwitch.size(); ++v)
        {
            if (g.isSwitch[v])
            {
                index[v] = out.size();
                out.push_back({"switch node " + std::to_string(v) + " of --topoFile", {}});
            }
        }
        for (const MrcGraphLink& l : g.links)
        {
            for (uint32_t v : {l.a, l.b})
            {
                if (v < g.isSwitch.size() && g.isSwitch[v])
                {
                    out[index[v]].runs.push_back({1, l.rate, l.delay});
                }
            }
        }
        return out;
    }
    const uint64_t up = t.GetUplinksPerT0();
    out.push_back(
        {"a T0 switch",
         {{t.GetHostsPerT0(), t.hostRate, t.hostDelay}, {up, t.fabricRate, t.fabricDelay}}});
    if (t.kind == MrcTopologyKind::FAT_TREE)
    {
        const uint64_t half = t.k / 2;
        out.push_back({"a T1 switch",
                       {{half, t.fabricRate, t.fabricDelay}, {half, t.coreRate, t.coreDelay}}});
        out.push_back({"a T2 switch", {{t.k, t.coreRate, t.coreDelay}}});
        return out;
    }
    const uint64_t t1Ports =
        t.GetT1PerPlane() == 0 ? 0 : uint64_t{t.GetT0PerPlane()} * up / t.GetT1PerPlane();
    out.push_back({"a T1 switch", {{t1Ports, t.fabricRate, t.fabricDelay}}});
    return out;
}

/// \return the fabric transport k of the run builds (one plane at planes x the rates for
/// a transport on one plane, unless --sameFabric=1), as mrc-sim's TransportConfig
MrcTopologyConfig
TransportTopology(const MrcScenarioConfig& c, const std::string& transport)
{
    MrcTopologyConfig t = c.topology;
    if (!c.sameFabric && !MrcTransportTable::Get(transport).usesAllPlanes && t.planes > 1 &&
        !c.graph)
    {
        const uint64_t p = t.planes;
        t.planes = 1;
        t.hostRate = DataRate(t.hostRate.GetBitRate() * p);
        t.fabricRate = DataRate(t.fabricRate.GetBitRate() * p);
        t.coreRate = DataRate(t.coreRate.GetBitRate() * p);
    }
    return t;
}

/// Ports a switch may have (the random streams of a switch, MrcFabricStreams).
std::string
CheckPortCounts(const MrcScenarioConfig& c, const std::vector<SwitchShape>& shapes)
{
    for (const SwitchShape& s : shapes)
    {
        if (s.Ports() > static_cast<uint64_t>(MrcFabricStreams::STREAMS_PER_SWITCH))
        {
            std::ostringstream os;
            os << (c.graph ? "--topoFile: "
                           : "--uplinksPerT0='" + std::to_string(c.topology.uplinksPerT0) +
                                 "' (with --hosts, --hostsPerT0, "
                                 "--t1PerPlane): ")
               << s.name << " gets " << s.Ports() << " ports; allowed: at most "
               << MrcFabricStreams::STREAMS_PER_SWITCH << " per switch";
            return os.str();
        }
    }
    return "";
}

/**
 * The shared buffer of every switch holds its reserves and the PFC headroom of its
 * lossless queues, at every step of the switch's setup (MrcSharedBufferMmu::Recompute:
 * first every port with the Headroom attribute, then, with AutoHeadroom, port by port
 * the headroom of its link).
 */
std::string
CheckBuffers(const RunAttributes& a, const std::vector<SwitchShape>& shapes)
{
    auto clamp = [](MrcUint128 v) { return v > ~uint64_t{0} ? ~uint64_t{0} : uint64_t(v); };
    const std::string mmu = "ns3::MrcSharedBufferMmu::";
    const uint64_t buffer = a.GetU64(mmu + "BufferSize");
    const uint64_t reserve = a.GetU64(mmu + "ReservePerQueue");
    const uint64_t headroom = a.GetU64(mmu + "Headroom");
    const uint32_t lossless = __builtin_popcount(a.GetU64(mmu + "PfcPriorityMask") & 0xff);
    const bool autoHeadroom = a.Get("ns3::MrcSwitchNode::AutoHeadroom") == "true";
    const uint64_t maxFrame = a.GetU64("ns3::MrcNetDevice::Mtu") + 14 + 24;
    for (const SwitchShape& s : shapes)
    {
        const uint64_t n = s.Ports();
        const MrcUint128 reserved = MrcUint128{reserve} * n * MrcSharedBufferMmu::N_PRIO;
        // The headroom limits of one priority over the ports, first all at Headroom, then
        // port by port its link's: within a run of equal ports the sum moves one way, so
        // its largest value is at the start or the end of a run.
        MrcUint128 sum = MrcUint128{headroom} * n;
        MrcUint128 worst = sum;
        uint64_t worstPort = 0;
        uint64_t port = 0;
        for (const PortRun& r : autoHeadroom ? s.runs : std::vector<PortRun>{})
        {
            const uint64_t h = MrcSharedBufferMmu::ComputeHeadroom(r.rate, r.delay) + 2 * maxFrame;
            sum = sum - MrcUint128{headroom} * r.count + MrcUint128{h} * r.count;
            port += r.count;
            if (sum > worst)
            {
                worst = sum;
                worstPort = port - 1;
            }
        }
        const MrcUint128 need = reserved + worst * lossless;
        if (need <= buffer)
        {
            continue;
        }
        const uint64_t needed = clamp(need);
        std::ostringstream os;
        os << a.Name(mmu + "BufferSize") << " is too small for " << a.Transport() << ": " << s.name
           << " (" << n << " ports) reserves " << clamp(reserved) << " B ("
           << a.Name(mmu + "ReservePerQueue") << " x " << n * MrcSharedBufferMmu::N_PRIO
           << " queues)";
        if (lossless > 0)
        {
            os << " and " << clamp(worst * lossless) << " B of PFC headroom (" << lossless
               << " lossless priorities of " << a.Name(mmu + "PfcPriorityMask") << " x ";
            if (autoHeadroom)
            {
                os << "each port's 3 x rate x link delay + 2 frames, ns3::MrcSwitchNode::"
                      "AutoHeadroom, up to port "
                   << worstPort << ")";
            }
            else
            {
                os << a.Name(mmu + "Headroom") << " a port)";
            }
        }
        os << "; allowed: BufferSize >= " << needed
           << " B, or fewer lossless priorities, a smaller ReservePerQueue or Headroom, "
              "shorter link delays";
        return os.str();
    }
    return "";
}

/// ECN thresholds in order (MrcEcnMarker aborts at the first packet otherwise).
std::string
CheckEcn(const RunAttributes& a)
{
    const std::string kmin = "ns3::MrcEcnMarker::Kmin";
    const std::string kmax = "ns3::MrcEcnMarker::Kmax";
    if (a.GetU64(kmin) > a.GetU64(kmax))
    {
        return a.Name(kmin) + " is larger than " + a.Name(kmax) + " for " + a.Transport() +
               " (allowed: Kmin <= Kmax)";
    }
    return "";
}

/// NSCC's reference window (ReferenceRate x ReferenceRtt) of at least one byte.
std::string
CheckNscc(const RunAttributes& a)
{
    const std::string rate = "ns3::MrcNscc::ReferenceRate";
    const std::string rtt = "ns3::MrcNscc::ReferenceRtt";
    if (a.Get(rate).empty() || a.Get(rtt).empty())
    {
        return "";
    }
    const MrcUint128 bits =
        MrcUint128{DataRate(a.Get(rate)).GetBitRate()} *
        static_cast<uint64_t>(std::max<int64_t>(Time(a.Get(rtt)).GetPicoSeconds(), 0));
    if (bits < MrcUint128{8} * 1000000000000ULL)
    {
        return a.Name(rate) + " x " + a.Name(rtt) + " is below one byte for " + a.Transport() +
               " (allowed: a product of at least 8 bits, both above 0)";
    }
    return "";
}

/// The values of ValueRules.
std::string
CheckValues(const RunAttributes& a)
{
    for (const ValueRule& r : ValueRules())
    {
        const std::string v = a.Get(r.path);
        if (!v.empty() && (!r.onlySet || a.IsSet(r.path)) && !r.allowed(v))
        {
            return a.Name(r.path) + " is not allowed for " + a.Transport() +
                   " (allowed: " + r.what + ")";
        }
    }
    return "";
}

/**
 * MRC with SRv6 entropy values over a topology file: every host-to-host path must fit one
 * uSID carrier (MrcUsidCarrier::MAX_USIDS uSIDs: the switches of the path and the host
 * downlink). A longer path would abort the run when its first connection is made.
 * Distances are counted over switches only (a host has one link, so no shortest path
 * crosses one): one breadth-first search from every switch with hosts.
 * \param c the run \param transport one of its transports
 * \return "" or the longest path (hosts, switches) and the limit
 */
std::string
CheckSrv6PathLengths(const MrcScenarioConfig& c, const std::string& transport)
{
    if (!c.graph || c.evFormat != "srv6" || MrcTransportTable::Get(transport).srv6EncapBytes == 0)
    {
        return "";
    }
    const MrcTopologyGraph& g = *c.graph;
    const std::size_t n = g.isSwitch.size();
    std::vector<std::vector<uint32_t>> adj(n);
    std::vector<int64_t> switchOfNode(n, -1); // per host node: its switch
    for (const MrcGraphLink& l : g.links)
    {
        if (g.isSwitch[l.a] && g.isSwitch[l.b])
        {
            adj[l.a].push_back(l.b);
            adj[l.b].push_back(l.a);
        }
        else
        {
            switchOfNode[g.isSwitch[l.a] ? l.b : l.a] = g.isSwitch[l.a] ? l.a : l.b;
        }
    }
    // per switch with hosts: its first host (host index), in host order
    std::vector<std::pair<uint32_t, uint32_t>> edge; // (switch node, first host)
    std::vector<bool> listed(n, false);
    for (uint32_t h = 0; h < c.graphNodeOfHost.size(); ++h)
    {
        const int64_t sw = switchOfNode[c.graphNodeOfHost[h]];
        if (sw >= 0 && !listed[sw])
        {
            listed[sw] = true;
            edge.emplace_back(static_cast<uint32_t>(sw), h);
        }
    }
    constexpr uint32_t limit = MrcUsidCarrier::MAX_USIDS - 1; // switches; + the downlink
    uint32_t worst = 0;
    uint32_t worstSrc = 0;
    uint32_t worstDst = 0;
    std::vector<uint32_t> dist(n);
    for (const auto& [from, fromHost] : edge)
    {
        std::fill(dist.begin(), dist.end(), std::numeric_limits<uint32_t>::max());
        std::vector<uint32_t> todo{from};
        dist[from] = 0;
        for (std::size_t i = 0; i < todo.size(); ++i)
        {
            for (uint32_t w : adj[todo[i]])
            {
                if (dist[w] == std::numeric_limits<uint32_t>::max())
                {
                    dist[w] = dist[todo[i]] + 1;
                    todo.push_back(w);
                }
            }
        }
        for (const auto& [to, toHost] : edge)
        {
            const uint32_t switches = dist[to] + 1; // disconnected fabrics are refused earlier
            if (dist[to] != std::numeric_limits<uint32_t>::max() && switches > worst)
            {
                worst = switches;
                worstSrc = fromHost;
                worstDst = toHost;
            }
        }
    }
    if (worst <= limit)
    {
        return "";
    }
    return "--topoFile='" + MrcParse::Printable(c.topoFile) + "': with --evFormat=srv6, the " +
           transport + " path from host " + std::to_string(worstSrc) + " to host " +
           std::to_string(worstDst) + " crosses " + std::to_string(worst) + " switches (" +
           std::to_string(worst + 1) + " uSIDs with the host downlink); a uSID carrier holds " +
           std::to_string(MrcUsidCarrier::MAX_USIDS) + " uSIDs (allowed: paths of at most " +
           std::to_string(limit) +
           " switches; for this topology --evFormat=structured runs MRC over ECMP)";
}

} // namespace

std::string
MrcScenarioOptions::CheckRunSettings(const MrcScenarioConfig& c)
{
    const std::vector<std::string> list =
        c.transports.empty() ? std::vector<std::string>{c.transport} : c.transports;
    if (c.nullMessages && list.size() > 1)
    {
        return "invalid value for --sync=null: ns-3's null-message engine runs once per "
               "process, and this run has " +
               std::to_string(list.size()) +
               " transports (allowed: --sync=granted, or one transport with --transport=X)";
    }
    if (c.graph && !c.rankMap.empty())
    {
        std::vector<uint32_t> nodeRank;
        const std::string why =
            c.graph->ReadRankMap(c.rankMap, std::max<uint32_t>(c.ranks, 1), nodeRank);
        if (!why.empty())
        {
            return "invalid value for --rankMap='" + MrcParse::Printable(c.rankMap) + "' (" +
                   "--topoFile='" + MrcParse::Printable(c.topoFile) + "'): " + why;
        }
    }
    else if (c.graph && c.ranks > 1)
    {
        const std::string why = c.graph->CheckRanks(c.ranks, c.graph->DefaultRanks(c.ranks));
        if (!why.empty())
        {
            return "invalid value for --ranks=" + std::to_string(c.ranks) + " (--topoFile='" +
                   MrcParse::Printable(c.topoFile) + "', split by switch blocks): " + why;
        }
    }
    for (const std::string& name : list)
    {
        const MrcTopologyConfig topo = TransportTopology(c, name);
        if (c.ranks > 1)
        {
            const std::string why = MrcTopologyHelper::CheckRanks(topo, c.ranks);
            if (!why.empty())
            {
                return "invalid value for --ranks=" + std::to_string(c.ranks) + " (" + name +
                       " fabric): " + why;
            }
        }
        if (!c.rankMap.empty() && !c.graph)
        {
            std::vector<uint32_t> groups;
            std::vector<uint32_t> tops;
            const std::string why =
                MrcTopologyHelper::ReadRankMap(c.rankMap, topo, c.ranks, groups, tops);
            if (!why.empty())
            {
                return "invalid value for --rankMap='" + MrcParse::Printable(c.rankMap) + "' (" +
                       name + " fabric): " + why;
            }
        }
        const std::vector<SwitchShape> shapes = SwitchShapes(c, topo);
        const RunAttributes a(c, name, topo);
        for (const std::string& e : {CheckSrv6PathLengths(c, name),
                                     CheckPortCounts(c, shapes),
                                     CheckValues(a),
                                     CheckEcn(a),
                                     CheckNscc(a),
                                     CheckBuffers(a, shapes)})
        {
            if (!e.empty())
            {
                return e;
            }
        }
    }
    return "";
}

} // namespace ns3
