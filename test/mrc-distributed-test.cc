/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Distributed runs (issue 17), the parts that run in one process: which rank simulates
// each node, which splits a fabric allows, the end of a run with --ranks, and how rank 0
// adds the other ranks' figures and flow parts to its own. The runs under mpirun are
// checked by test/mpi-identity.sh in the in-tree build with MPI.

#include "ns3/error-model.h"
#include "ns3/mac48-address.h"
#include "ns3/mrc-canonical-scheduler.h"
#include "ns3/mrc-channel.h"
#include "ns3/mrc-dual-forwarding.h"
#include "ns3/mrc-ecmp-forwarding.h"
#include "ns3/mrc-failure-injector.h"
#include "ns3/mrc-flow-stream.h"
#include "ns3/mrc-mpi.h"
#include "ns3/mrc-rdma-helper.h"
#include "ns3/mrc-run-results.h"
#include "ns3/mrc-scenario-options.h"
#include "ns3/mrc-scenario-presets.h"
#include "ns3/mrc-scenario-runner.h"
#include "ns3/mrc-switch-node.h"
#include "ns3/mrc-topology-helper.h"
#include "ns3/mrc-topology.h"
#include "ns3/names.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <map>
#include <numeric>
#include <set>
#include <sstream>
#include <string>

using namespace ns3;

namespace
{

/// Expects two texts equal line by line, reporting the first line that differs (rather than two
/// long texts) with \p what in front, and any line \p lean has beyond \p whole.
void
ExpectSameLines(const std::string& lean, const std::string& whole, const std::string& what = "")
{
    std::istringstream a(lean);
    std::istringstream b(whole);
    std::string la;
    std::string lb;
    while (std::getline(b, lb))
    {
        const bool more = static_cast<bool>(std::getline(a, la));
        if (!more || la != lb)
        {
            ADD_FAILURE() << what << "lean '" << la << "', whole '" << lb << "'";
            return;
        }
    }
    EXPECT_FALSE(std::getline(a, la)) << what << "lean has more: " << la;
}

MrcTopologyConfig
Clos(uint32_t hosts, uint32_t perT0, uint32_t t1, uint32_t planes)
{
    MrcTopologyConfig c;
    c.kind = MrcTopologyKind::CLOS;
    c.hosts = hosts;
    c.hostsPerT0 = perT0;
    c.t1PerPlane = t1;
    c.planes = planes;
    return c;
}

std::string
Slurp(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

/**
 * The options of a small run on a Clos of `hosts` hosts, 2 T1s per plane.
 * \param scenario the preset \param hosts hosts \param perT0 hosts per T0
 * \param bytes --bytes \param ranks --ranks ("" for none)
 */
MrcScenarioOptions
SmallRun(const std::string& scenario,
         const std::string& hosts,
         const std::string& perT0,
         const std::string& bytes,
         const std::string& ranks)
{
    MrcScenarioOptions o;
    o.scenario = scenario;
    MrcScenarios::Find(scenario)->preset(o);
    o.topo.hosts = hosts;
    o.topo.hostsPerT0 = perT0;
    o.topo.t1PerPlane = "2";
    o.bytes = bytes;
    o.ranks = ranks;
    return o;
}

} // namespace

// ---------------------------------------------------------------------------
// the split of a fabric

TEST(MrcDistributed, ClosSplitsByT0GroupAndT1Block)
{
    // 16 hosts, 4 per T0 (4 T0s), 4 T1s, 2 planes, over 2 ranks: T0 groups 0-1 and their
    // 8 hosts on rank 0, T0 groups 2-3 on rank 1; T1s 0-1 on rank 0, 2-3 on rank 1.
    MrcTopologyHelper th(Clos(16, 4, 4, 2));
    th.SetRanks(2);
    Ptr<MrcTopology> t = th.Build();
    for (uint32_t h = 0; h < 16; ++h)
    {
        EXPECT_EQ(t->GetHost(h)->GetSystemId(), h < 8 ? 0u : 1u) << "host " << h;
    }
    for (uint32_t p = 0; p < 2; ++p)
    {
        for (uint32_t i = 0; i < 4; ++i)
        {
            EXPECT_EQ(t->GetSwitch(p, MrcTier::T0, i)->GetSystemId(), i < 2 ? 0u : 1u);
            EXPECT_EQ(t->GetSwitch(p, MrcTier::T1, i)->GetSystemId(), i < 2 ? 0u : 1u);
        }
    }
    // Host links never cross ranks; every T0-T1 link between the halves does.
    uint32_t crossing = 0;
    for (uint32_t l = 0; l < t->GetNLinks(); ++l)
    {
        const MrcTopologyLink& k = t->GetLink(l);
        const bool cross = k.nodeA->GetSystemId() != k.nodeB->GetSystemId();
        crossing += cross ? 1 : 0;
        if (k.tier == MrcLinkTier::HOST)
        {
            EXPECT_FALSE(cross) << "link " << l;
        }
    }
    EXPECT_EQ(crossing, 2u * 2 * 4); // 2 planes x (4 T0 x 2 T1 of the other half)
    Simulator::Destroy();
}

TEST(MrcDistributed, FatTreeSplitsByPod)
{
    // k = 4: 4 pods of 2 T0 + 2 aggregation switches and 4 hosts; 4 cores. 2 ranks: pods
    // 0-1 and cores 0-1 on rank 0, pods 2-3 and cores 2-3 on rank 1.
    MrcTopologyConfig c;
    c.kind = MrcTopologyKind::FAT_TREE;
    c.k = 4;
    c.hosts = 0;      // k^3/4
    c.hostsPerT0 = 0; // k/2
    MrcTopologyHelper th(c);
    th.SetRanks(2);
    Ptr<MrcTopology> t = th.Build();
    ASSERT_EQ(t->GetNHosts(), 16u);
    for (uint32_t h = 0; h < 16; ++h)
    {
        EXPECT_EQ(t->GetHost(h)->GetSystemId(), h < 8 ? 0u : 1u) << "host " << h;
    }
    for (uint32_t i = 0; i < 8; ++i)
    {
        EXPECT_EQ(t->GetSwitch(0, MrcTier::T0, i)->GetSystemId(), i < 4 ? 0u : 1u);
        EXPECT_EQ(t->GetSwitch(0, MrcTier::T1, i)->GetSystemId(), i < 4 ? 0u : 1u);
    }
    for (uint32_t i = 0; i < 4; ++i)
    {
        EXPECT_EQ(t->GetSwitch(0, MrcTier::T2, i)->GetSystemId(), i < 2 ? 0u : 1u);
    }
    // Only aggregation-core links cross ranks: the lookahead is the core delay.
    for (uint32_t l = 0; l < t->GetNLinks(); ++l)
    {
        const MrcTopologyLink& k = t->GetLink(l);
        if (k.nodeA->GetSystemId() != k.nodeB->GetSystemId())
        {
            EXPECT_EQ(k.tier, MrcLinkTier::T1_T2) << "link " << l;
        }
    }
    Simulator::Destroy();
}

TEST(MrcDistributed, OneRankBuildsWhatItAlwaysBuilt)
{
    // SetRanks(1) (and the default) put every node on system id 0.
    MrcTopologyHelper th(Clos(8, 4, 2, 1));
    th.SetRanks(1);
    Ptr<MrcTopology> t = th.Build();
    for (uint32_t h = 0; h < 8; ++h)
    {
        EXPECT_EQ(t->GetHost(h)->GetSystemId(), 0u);
    }
    for (uint32_t s = 0; s < t->GetNSwitches(); ++s)
    {
        EXPECT_EQ(t->GetSwitchById(s)->GetSystemId(), 0u);
    }
    Simulator::Destroy();
}

TEST(MrcDistributed, SystemIdScopesNest)
{
    Ptr<MrcSwitchNode> outside = CreateObject<MrcSwitchNode>();
    Ptr<MrcSwitchNode> a;
    Ptr<MrcSwitchNode> b;
    Ptr<MrcSwitchNode> c;
    {
        MrcSwitchNode::SystemIdScope s3(3);
        a = CreateObject<MrcSwitchNode>();
        {
            MrcSwitchNode::SystemIdScope s5(5);
            b = CreateObject<MrcSwitchNode>();
        }
        c = CreateObject<MrcSwitchNode>();
    }
    EXPECT_EQ(outside->GetSystemId(), 0u);
    EXPECT_EQ(a->GetSystemId(), 3u);
    EXPECT_EQ(b->GetSystemId(), 5u);
    EXPECT_EQ(c->GetSystemId(), 3u);
    EXPECT_EQ(CreateObject<MrcSwitchNode>()->GetSystemId(), 0u);
    Simulator::Destroy();
}

TEST(MrcDistributed, CheckRanksNamesWhatTheFabricAllows)
{
    EXPECT_EQ(MrcTopologyHelper::CheckRanks(Clos(16, 4, 4, 1), 1), "");
    EXPECT_EQ(MrcTopologyHelper::CheckRanks(Clos(16, 4, 4, 1), 4), "");
    EXPECT_EQ(MrcTopologyHelper::CheckRanks(Clos(16, 4, 4, 1), 5),
              "the fabric has 4 T0s per plane and 4 T1 switches per plane; each rank needs at "
              "least one of each (allowed: 1..4 ranks)");
    // fewer T1s than T0 groups: the T1s limit the split
    EXPECT_EQ(MrcTopologyHelper::CheckRanks(Clos(16, 4, 2, 1), 3),
              "the fabric has 4 T0s per plane and 2 T1 switches per plane; each rank needs at "
              "least one of each (allowed: 1..2 ranks)");
    EXPECT_EQ(MrcTopologyHelper::CheckRanks(Clos(16, 4, 4, 1), 0), "0 ranks");
    MrcTopologyConfig f;
    f.kind = MrcTopologyKind::FAT_TREE;
    f.k = 4;
    EXPECT_EQ(MrcTopologyHelper::CheckRanks(f, 4), "");
    EXPECT_NE(MrcTopologyHelper::CheckRanks(f, 5).find("4 pods and 4 core switches"),
              std::string::npos);
    // a graph's split is checked with the graph (MrcTopologyGraph::CheckRanks, below)
    MrcTopologyConfig g;
    g.kind = MrcTopologyKind::GRAPH;
    EXPECT_EQ(MrcTopologyHelper::CheckRanks(g, 2), "");
    EXPECT_EQ(MrcTopologyHelper::CheckRanks(g, 1), "");
}

// ---------------------------------------------------------------------------
// a user's rank map (--rankMap)

namespace
{

/// Write text to a fresh file \return its path
std::string
WriteMap(const std::string& name, const std::string& text)
{
    const std::string path =
        (std::filesystem::temp_directory_path() / ("mrc-rankmap-" + name)).string();
    std::ofstream(path) << text;
    return path;
}

} // namespace

TEST(MrcDistributed, ARankMapPlacesGroupsAndT1sWhereItSays)
{
    // 16 hosts, 4 T0 groups, 4 T1s, 2 planes, 2 ranks. The map puts T0 groups 0 and 3 and
    // T1 3 on rank 1; the others keep the blocks (groups 0-1 and T1s 0-1 on rank 0).
    const MrcTopologyConfig c = Clos(16, 4, 4, 2);
    const std::string path = WriteMap("good", "# a map\nt0-0 1\nt0-3 1  # end\n\nt1-3 1\n");
    std::vector<uint32_t> groups;
    std::vector<uint32_t> tops;
    ASSERT_EQ(MrcTopologyHelper::ReadRankMap(path, c, 2, groups, tops), "");
    EXPECT_EQ(groups, (std::vector<uint32_t>{1, 0, 1, 1}));
    EXPECT_EQ(tops, (std::vector<uint32_t>{0, 0, 1, 1}));
    MrcTopologyHelper th(c);
    th.SetRanks(2);
    th.SetRankMap(groups, tops);
    Ptr<MrcTopology> t = th.Build();
    for (uint32_t h = 0; h < 16; ++h)
    {
        EXPECT_EQ(t->GetHost(h)->GetSystemId(), groups[h / 4]) << "host " << h;
    }
    for (uint32_t p = 0; p < 2; ++p)
    {
        for (uint32_t i = 0; i < 4; ++i)
        {
            EXPECT_EQ(t->GetSwitch(p, MrcTier::T0, i)->GetSystemId(), groups[i]);
            EXPECT_EQ(t->GetSwitch(p, MrcTier::T1, i)->GetSystemId(), tops[i]);
        }
    }
    Simulator::Destroy();
}

TEST(MrcDistributed, ABadRankMapIsRefusedNamingItsLine)
{
    const MrcTopologyConfig c = Clos(16, 4, 4, 1);
    std::vector<uint32_t> g;
    std::vector<uint32_t> t;
    auto read = [&](const std::string& name, const std::string& text, uint32_t ranks = 2) {
        const std::string path = WriteMap(name, text);
        const std::string e = MrcTopologyHelper::ReadRankMap(path, c, ranks, g, t);
        return e.empty() ? e : e.substr(path.size());
    };
    EXPECT_EQ(read("unknown", "t0-1 0\np0-t1-2 1\n"),
              ":2: 'p0-t1-2' is not a T0 group or T1 of this fabric (allowed: t0-0..t0-3, "
              "t1-0..t1-3)");
    EXPECT_EQ(read("host", "host3 1\n").substr(0, 65),
              ":1: 'host3' is not a T0 group or T1 of this fabric (a host goes w");
    EXPECT_EQ(read("range", "t0-1 2\n"), ":1: rank '2' of 't0-1' is out of range (allowed: 0..1)");
    EXPECT_EQ(read("index", "t1-4 0\n").substr(0, 20), ":1: 't1-4' is not a ");
    EXPECT_EQ(read("twice", "t0-1 1\nt0-1 1\n"), ":2: 't0-1' is given twice");
    EXPECT_EQ(read("twice-spelt", "t0-1 1\nt0-01 1\n"), ":2: 't0-01' is given twice");
    EXPECT_EQ(read("words", "t0-1\n"), ":1: expected 'NAME RANK'");
    EXPECT_EQ(read("empty-rank", "t0-2 0\nt0-3 0\n"),
              ": rank 1 has no T0 group; each rank needs at least one T0 group and one T1 "
              "(notices between ranks travel on their links)");
    EXPECT_EQ(read("no-t1", "t1-2 0\nt1-3 0\n").substr(0, 20), ": rank 1 has no T1; ");
    EXPECT_NE(MrcTopologyHelper::ReadRankMap("/nonexistent/map", c, 2, g, t).find("cannot be read"),
              std::string::npos);
    // a fat-tree's names are pods and cores
    MrcTopologyConfig f;
    f.kind = MrcTopologyKind::FAT_TREE;
    f.k = 4;
    const std::string fp = WriteMap("fat", "pod-0 1\ncore-3 0\nt0-0 1\n");
    EXPECT_NE(
        MrcTopologyHelper::ReadRankMap(fp, f, 2, g, t).find(":3: 't0-0' is not a pod or core"),
        std::string::npos);
}

// ---------------------------------------------------------------------------
// fabrics from topology files (--topoFile)

namespace
{

/// A link of a test graph. \param a \param b its ends \param delayNs its delay in ns
MrcGraphLink
GraphLink(uint32_t a, uint32_t b, int64_t delayNs = 1000)
{
    return MrcGraphLink{a, b, DataRate("100Gbps"), NanoSeconds(delayNs)};
}

/**
 * data/hpcc/topology.txt as a graph: hosts 0-7, ToR 8 (hosts 0-3), ToR 9 (hosts 4-7),
 * spines 10 and 11 joined to both ToRs; 1 us links.
 */
MrcTopologyGraph
LeafSpine()
{
    MrcTopologyGraph g;
    g.isSwitch.assign(12, false);
    for (uint32_t s = 8; s < 12; ++s)
    {
        g.isSwitch[s] = true;
    }
    for (uint32_t h = 0; h < 8; ++h)
    {
        g.links.push_back(GraphLink(h, h < 4 ? 8 : 9));
    }
    for (auto [a, b] :
         std::vector<std::pair<uint32_t, uint32_t>>{{8, 10}, {8, 11}, {9, 10}, {9, 11}})
    {
        g.links.push_back(GraphLink(a, b));
    }
    return g;
}

/**
 * data/htsim/fattree-16.topo as mrc-sim wires it: hosts 0-15, ToRs 16-23 (2 a pod, 2 hosts
 * each), aggregation switches 24-31 (2 a pod, each joined to its pod's ToRs), cores 32-35
 * (aggregation switch k of a pod joins cores 2k and 2k+1); 1 us links.
 */
MrcTopologyGraph
FatTree16()
{
    MrcTopologyGraph g;
    g.isSwitch.assign(36, true);
    for (uint32_t h = 0; h < 16; ++h)
    {
        g.isSwitch[h] = false;
        g.links.push_back(GraphLink(h, 16 + h / 2));
    }
    for (uint32_t r = 0; r < 8; ++r)
    {
        for (uint32_t k = 0; k < 2; ++k)
        {
            g.links.push_back(GraphLink(16 + r, 24 + (r / 2) * 2 + k));
        }
    }
    for (uint32_t a = 0; a < 8; ++a)
    {
        for (uint32_t m = 0; m < 2; ++m)
        {
            g.links.push_back(GraphLink(24 + a, 32 + (a % 2) * 2 + m));
        }
    }
    return g;
}

/**
 * Write a fabric's base RTT and, per host pair and plane, every path: its path RTT, switch
 * ids, links, uSIDs and carrier.
 * \param os where \param t the topology \param planes planes
 */
void
AppendBaseRttAndPaths(std::ostream& os, Ptr<MrcTopology> t, uint32_t planes)
{
    os << "baseRtt " << t->GetBaseRtt(4096).GetTimeStep() << "\n";
    for (uint32_t a = 0; a < t->GetNHosts(); ++a)
    {
        for (uint32_t b = 0; b < t->GetNHosts(); ++b)
        {
            for (uint32_t p = 0; a != b && p < planes; ++p)
            {
                for (const MrcPath& path : t->GetPaths(a, b, p))
                {
                    os << a << ">" << b << " p" << p << " rtt "
                       << t->GetPathRtt(path, 4096).GetTimeStep() << " via";
                    for (uint32_t s : path.switches)
                    {
                        os << " s" << s;
                    }
                    for (uint32_t l : path.links)
                    {
                        os << " l" << l;
                    }
                    for (uint16_t u : path.usids)
                    {
                        os << " u" << u;
                    }
                    os << " " << path.carrier << "\n";
                }
            }
        }
    }
}

/**
 * Write a switch's ECMP table: its route count and the next-hop ports toward every host
 * address of every plane.
 * \param os where \param t the topology \param s switch id \param planes planes
 */
void
AppendEcmpTable(std::ostream& os, Ptr<MrcTopology> t, uint32_t s, uint32_t planes)
{
    Ptr<MrcDualForwarding> fwd =
        DynamicCast<MrcDualForwarding>(t->GetSwitchById(s)->GetForwarding());
    os << "switch " << s << " routes " << fwd->GetEcmp()->GetNRoutes() << "\n";
    for (uint32_t h = 0; h < t->GetNHosts(); ++h)
    {
        for (uint32_t p = 0; p < planes; ++p)
        {
            os << " h" << h << "p" << p << ":";
            for (uint32_t port : fwd->GetEcmp()->GetNextHops(t->GetAddress(h, p)))
            {
                os << " " << port;
            }
        }
    }
    os << "\n";
}

/// Everything a one-process build decides about a fabric, as text: per host pair and
/// plane the paths (switch ids, links, uSIDs), the base RTT, and every switch's ECMP next
/// hops towards every host address and SRv6 uSID. \param t a fabric
std::string
FabricFacts(Ptr<MrcTopology> t)
{
    std::ostringstream os;
    const uint32_t planes = t->GetConfig().planes;
    AppendBaseRttAndPaths(os, t, planes);
    for (uint32_t s = 0; s < t->GetNSwitches(); ++s)
    {
        AppendEcmpTable(os, t, s, planes);
    }
    return os.str();
}

/// \param a a MAC address \return it as a number
uint64_t
MacNumber(const Address& a)
{
    uint8_t b[6];
    Mac48Address::ConvertFrom(a).CopyTo(b);
    uint64_t v = 0;
    for (uint8_t x : b)
    {
        v = (v << 8) | x;
    }
    return v;
}

/**
 * What a build decides that a lean build (SetBuildRank) must keep, as text: the base RTT,
 * every path with its path RTT, every link (tier, ports, rate, delay), the interface index
 * and MAC address (after macBase) of the devices of the links in `built`, and the ECMP
 * next hops of the switches in `tables` towards every host address.
 * \param t a fabric \param tables switch ids \param built link ids \param macBase a MAC
 * address taken just before the build
 */
std::string
LeanFacts(Ptr<MrcTopology> t,
          const std::set<uint32_t>& tables,
          const std::set<uint32_t>& built,
          uint64_t macBase)
{
    std::ostringstream os;
    const uint32_t planes = t->GetConfig().planes;
    AppendBaseRttAndPaths(os, t, planes);
    for (uint32_t l = 0; l < t->GetNLinks(); ++l)
    {
        const MrcTopologyLink& k = t->GetLink(l);
        os << "link " << l << " " << MrcLinkTierName(k.tier) << " " << k.nodeA->GetId() << ":"
           << k.portA << "-" << k.nodeB->GetId() << ":" << k.portB << " "
           << k.GetRate().GetBitRate() << " "
           << (k.IsBuilt() ? k.channel->GetDelay() : k.delay).GetTimeStep();
        for (std::size_t end = 0; end < 2 && built.count(l) != 0; ++end)
        {
            // a device, or the far end of a link to another rank (MrcRemotePort)
            Ptr<MrcNetDevice> dev = end == 0 ? k.devA : k.devB;
            Ptr<NetDevice> d = dev;
            if (!dev && k.channel)
            {
                d = k.channel->GetRemotePort(end);
            }
            if (!d)
            {
                os << " (end " << end << " missing)";
                continue;
            }
            os << " if" << d->GetIfIndex() << " mac+" << MacNumber(d->GetAddress()) - macBase;
        }
        os << "\n";
    }
    for (uint32_t s : tables)
    {
        AppendEcmpTable(os, t, s, planes);
    }
    return os.str();
}

/**
 * Build a fabric at 1 rank and, for every rank r of `ranks`, with SetBuildRank(r): the
 * lean build makes no device, channel or NIC port for another rank's host, makes every
 * device of its own hosts, makes a switch link only where one of its switches is on rank
 * r (a link to another rank: its device here, an MrcRemotePort at the far end), makes
 * another rank's switch a bare node without devices, and keeps LeanFacts (the tables: of
 * rank r's switches; the far ends' interface indices and MAC addresses).
 * \param build builds the fabric with a helper \param ranks the split
 */
void
ExpectLeanBuildsKeepTheFacts(const std::function<Ptr<MrcTopology>(MrcTopologyHelper&)>& build,
                             uint32_t ranks)
{
    for (uint32_t r = 0; r < ranks; ++r)
    {
        std::set<uint32_t> mine;
        std::set<uint32_t> built;
        std::string lean;
        {
            MrcTopologyHelper th;
            th.SetNames(false);
            th.SetRanks(ranks);
            th.SetBuildRank(r);
            const uint64_t base = MacNumber(Mac48Address::Allocate());
            Ptr<MrcTopology> t = build(th);
            for (uint32_t s = 0; s < t->GetNSwitches(); ++s)
            {
                if (t->GetSwitchNode(s)->GetSystemId() == r)
                {
                    mine.insert(s);
                    EXPECT_EQ(t->GetSwitchById(s), t->GetSwitchNode(s)) << "switch " << s;
                }
                else
                {
                    // another rank's switch: a bare node, no forwarding, MMU or port
                    EXPECT_FALSE(t->GetSwitchById(s)) << "switch " << s;
                    EXPECT_EQ(t->GetSwitchNode(s)->GetInstanceTypeId(), Node::GetTypeId())
                        << "switch " << s;
                    EXPECT_EQ(t->GetSwitchNode(s)->GetNDevices(), 0u) << "switch " << s;
                }
            }
            uint32_t unbuilt = 0;
            for (uint32_t h = 0; h < t->GetNHosts(); ++h)
            {
                const bool here = t->GetHost(h)->GetSystemId() == r;
                EXPECT_EQ(t->GetHost(h)->GetNDevices(), here ? t->GetNPlanes() : 0u)
                    << "host " << h;
                for (uint32_t p = 0; p < t->GetNPlanes(); ++p)
                {
                    const MrcTopologyLink& k = t->GetLink(t->GetHostLink(h, p));
                    EXPECT_EQ(k.IsBuilt(), here) << "host " << h << " plane " << p;
                    EXPECT_EQ(t->GetNicPort(h, p) != nullptr, here);
                    unbuilt += here ? 0 : 1;
                }
            }
            EXPECT_GT(unbuilt, 0u);
            // Switch links: made where a switch of rank r is at one end, data otherwise; a
            // link to another rank has its device here and an MrcRemotePort at the far end.
            uint32_t unbuiltSwitchLinks = 0;
            uint32_t toRank = 0;
            for (uint32_t l = 0; l < t->GetNLinks(); ++l)
            {
                const MrcTopologyLink& k = t->GetLink(l);
                if (k.IsBuilt())
                {
                    built.insert(l);
                }
                if (k.tier == MrcLinkTier::HOST)
                {
                    continue;
                }
                const bool hereA = k.nodeA->GetSystemId() == r;
                const bool hereB = k.nodeB->GetSystemId() == r;
                EXPECT_EQ(k.IsBuilt(), hereA || hereB) << "link " << l;
                unbuiltSwitchLinks += hereA || hereB ? 0 : 1;
                if (!k.IsBuilt())
                {
                    continue;
                }
                EXPECT_EQ(k.devA != nullptr, hereA) << "link " << l;
                EXPECT_EQ(k.devB != nullptr, hereB) << "link " << l;
                EXPECT_EQ(k.channel->GetRemotePort(0) != nullptr, !hereA) << "link " << l;
                EXPECT_EQ(k.channel->GetRemotePort(1) != nullptr, !hereB) << "link " << l;
                for (std::size_t end = 0; end < 2; ++end)
                {
                    EXPECT_EQ(k.channel->GetDevice(end)->GetNode(), end == 0 ? k.nodeA : k.nodeB)
                        << "link " << l;
                }
                toRank += hereA && hereB ? 0 : 1;
            }
            EXPECT_GT(unbuiltSwitchLinks, 0u) << ranks << " ranks, rank " << r;
            EXPECT_GT(toRank, 0u) << ranks << " ranks, rank " << r;
            lean = LeanFacts(t, mine, built, base);
            Simulator::Destroy();
        }
        MrcTopologyHelper th;
        th.SetNames(false);
        const uint64_t base = MacNumber(Mac48Address::Allocate());
        Ptr<MrcTopology> t = build(th);
        const std::string whole = LeanFacts(t, mine, built, base);
        EXPECT_GT(whole.size(), 1000u);
        ExpectSameLines(lean,
                        whole,
                        std::to_string(ranks) + " ranks, rank " + std::to_string(r) + ": ");
        Simulator::Destroy();
    }
}

} // namespace

TEST(MrcDistributed, ALeanBuildMakesOnlyItsRanksNodesAndLinksAndKeepsPathsRttsAndTables)
{
    // Clos: 4 T0 groups of 4 hosts, 4 T1s per plane, 2 planes
    for (uint32_t ranks : {2u, 4u})
    {
        ExpectLeanBuildsKeepTheFacts(
            [](MrcTopologyHelper& th) {
                th.SetConfig(Clos(16, 4, 4, 2));
                return th.Build();
            },
            ranks);
    }
    // fat-tree k=4: 4 pods, 4 cores per plane
    for (uint32_t ranks : {2u, 4u})
    {
        ExpectLeanBuildsKeepTheFacts(
            [](MrcTopologyHelper& th) {
                MrcTopologyConfig c;
                c.kind = MrcTopologyKind::FAT_TREE;
                c.k = 4;
                c.hosts = 0;
                c.hostsPerT0 = 0;
                c.planes = 2;
                th.SetConfig(c);
                return th.Build();
            },
            ranks);
    }
    // a graph (htsim's 16-host fat tree), 2 planes, hosts' and switch links interleaved
    for (uint32_t ranks : {2u, 4u})
    {
        ExpectLeanBuildsKeepTheFacts(
            [](MrcTopologyHelper& th) {
                th.GetConfig().planes = 2;
                MrcTopologyGraph g = FatTree16();
                // a switch link before the host links: ports of a switch interleave
                std::rotate(g.links.begin(), g.links.begin() + 16, g.links.begin() + 17);
                return th.BuildGraph(g);
            },
            ranks);
    }
}

TEST(MrcDistributed, ARunSplitOverRanksBuildsLeanWithEveryFailureKind)
{
    MrcScenarioConfig c;
    EXPECT_FALSE(MrcScenarioRunner::BuildsLean(c)); // no --ranks: one process
    c.ranks = 1;
    EXPECT_FALSE(MrcScenarioRunner::BuildsLean(c));
    c.ranks = 2;
    EXPECT_TRUE(MrcScenarioRunner::BuildsLean(c));
    c.lossRate = 0.01;
    c.lossAt = "links";
    c.graphLinkError = {0, 0.001};
    EXPECT_TRUE(MrcScenarioRunner::BuildsLean(c)); // losses: each device keeps its stream
    // every failure kind: through the fabric's link state (and a gray failure's stream slot)
    MrcScenarioConfig cut = c;
    cut.failLink = "p0-t0-0:p0-t1-0";
    EXPECT_TRUE(MrcScenarioRunner::BuildsLean(cut));
    using Kind = MrcFailureSpec::Kind;
    for (Kind k : {Kind::LINK, Kind::FLAP, Kind::SWITCH, Kind::GRAY, Kind::PLANE, Kind::PORT})
    {
        MrcScenarioConfig f = cut;
        f.failures.emplace_back();
        f.failures.back().kind = Kind::LINK;
        f.failures.emplace_back();
        f.failures.back().kind = k;
        EXPECT_TRUE(MrcScenarioRunner::BuildsLean(f)) << MrcFailureSpec::KindName(k);
        f.ranks = 1;
        EXPECT_FALSE(MrcScenarioRunner::BuildsLean(f)) << MrcFailureSpec::KindName(k);
    }
}

namespace
{

/**
 * Build the named 2-plane Clos of the failure tests (4 T0 groups of 4 hosts, 4 T1s, routes
 * converging 100 ns after a change) whole or lean for one rank of 2.
 * \param rank the build rank (-1: whole)
 * \return the fabric
 */
Ptr<MrcTopology>
BuildTwoRankClos(int rank)
{
    MrcTopologyHelper th;
    th.SetNames(true);
    th.SetConfig(Clos(16, 4, 4, 2));
    th.SetRouteManagerAttribute("ConvergenceDelay", TimeValue(NanoSeconds(100)));
    th.SetRanks(2);
    if (rank >= 0)
    {
        th.SetBuildRank(static_cast<uint32_t>(rank));
    }
    return th.Build();
}

/**
 * Build a 2-plane Clos (4 T0 groups of 4 hosts, 4 T1s) whole (rank -1) or lean for one
 * rank of 2, cut two links of plane 0 at 1 us with the failure injector through the fabric
 * (a T0-T1 link of two rank-1 switches and the host link of a rank-1 host: neither built on
 * rank 0) and flap a third (a T0-T1 link between the ranks) from 1.5 us, and give as text
 * what rank 0 must agree on at 2 us: the injector's records, IsPathUp of every path from
 * host 0 to each host, IsReachable, and the ECMP tables of rank 0's switches.
 * \param rank the build rank (-1: whole)
 */
std::string
CutFacts(int rank)
{
    Ptr<MrcTopology> t = BuildTwoRankClos(rank);
    Ptr<MrcFailureInjector> fi = CreateObject<MrcFailureInjector>();
    fi->SetTopology(t);
    fi->FailLinks("p0-t0-2:p0-t1-3,host9:p0-t0-2", MicroSeconds(1));
    MrcFailureSpec flap;
    flap.kind = MrcFailureSpec::Kind::FLAP;
    flap.option = "flapLink";
    flap.nodeA = "p0-t0-3";
    flap.nodeB = "p0-t1-0";
    flap.at = NanoSeconds(1500);
    flap.period = NanoSeconds(200);
    flap.downTime = NanoSeconds(100);
    flap.count = 2;
    const std::string e = fi->TrySchedule(flap, t);
    std::ostringstream os;
    os << "schedule '" << e << "'\n";
    Simulator::Stop(MicroSeconds(2)); // (after the flap's last repair, at 1.8 us)
    Simulator::Run();
    for (const MrcEventRecord& r : fi->GetEventLog()->GetRecords())
    {
        os << r.time.GetTimeStep() << " " << r.kind << " " << r.where << " " << r.detail << "\n";
    }
    for (uint32_t h = 1; h < t->GetNHosts(); ++h)
    {
        os << "host " << h << " reachable " << t->IsReachable(0, h, 0) << " paths";
        for (const MrcPath& path : t->GetAllPaths(0, h))
        {
            os << " " << t->IsPathUp(path);
        }
        os << "\n";
    }
    for (uint32_t s = 0; s < t->GetNSwitches(); ++s)
    {
        if (t->GetSwitchNode(s)->GetSystemId() == 0)
        {
            AppendEcmpTable(os, t, s, 2);
        }
    }
    Simulator::Destroy();
    Names::Clear();
    return os.str();
}

} // namespace

TEST(MrcDistributed, ALeanBuildCutsAndFlapsLinksItDoesNotBuildAsOneProcess)
{
    const std::string whole = CutFacts(-1);
    const std::string lean = CutFacts(0);
    // the cuts took hold: records, paths down, routes around them
    EXPECT_NE(whole.find("link_down p0-t0-2:"), std::string::npos) << whole;
    EXPECT_NE(whole.find("link_down p0-t0-2:1-host9:0"), std::string::npos) << whole;
    EXPECT_NE(whole.find("flap 2/2"), std::string::npos) << whole;
    EXPECT_NE(whole.find("host 9 reachable 0"), std::string::npos) << whole;
    EXPECT_NE(whole.find(" 0"), std::string::npos);
    EXPECT_EQ(whole.find("schedule ''"), 0u) << whole;
    ExpectSameLines(lean, whole);
    // before any cut, the state of an unbuilt link is up and made only when asked for
    MrcTopologyHelper th;
    th.SetNames(false);
    th.SetConfig(Clos(16, 4, 4, 2));
    th.SetRanks(2);
    th.SetBuildRank(0);
    Ptr<MrcTopology> t = th.Build();
    uint32_t unbuilt = 0;
    for (uint32_t l = 0; l < t->GetNLinks(); ++l)
    {
        const MrcTopologyLink& k = t->GetLink(l);
        EXPECT_TRUE(k.IsUp()) << "link " << l;
        EXPECT_FALSE(k.state) << "link " << l;
        if (!k.IsBuilt())
        {
            ++unbuilt;
            Ptr<MrcChannel> state = t->GetLinkState(l);
            EXPECT_EQ(state, t->GetLinkState(l)); // made once
            EXPECT_EQ(state->GetNDevices(), 0u);
            state->SetLinkUp(false);
            EXPECT_FALSE(t->GetLink(l).IsUp());
        }
        else
        {
            EXPECT_EQ(t->GetLinkState(l), k.channel);
        }
    }
    EXPECT_GT(unbuilt, 0u);
    Simulator::Destroy();
}

namespace
{

/**
 * The first 48 draws of the receive error model of every device of a fabric, by link id
 * and end ("l12a"): '1' a lost packet, '0' a kept one; devices without a model are left
 * out. \param t a fabric \return the draws
 */
std::map<std::string, std::string>
LossDraws(Ptr<MrcTopology> t)
{
    std::map<std::string, std::string> draws;
    for (uint32_t l = 0; l < t->GetNLinks(); ++l)
    {
        const MrcTopologyLink& k = t->GetLink(l);
        for (int end = 0; end < 2 && k.IsBuilt(); ++end)
        {
            Ptr<MrcNetDevice> dev = end == 0 ? k.devA : k.devB;
            if (!dev)
            {
                continue; // the far end of a link to another rank (MrcRemotePort)
            }
            PointerValue v;
            dev->GetAttribute("ReceiveErrorModel", v);
            Ptr<ErrorModel> em = v.Get<ErrorModel>();
            if (!em)
            {
                continue;
            }
            std::string& d = draws[std::string("l") + std::to_string(l) + (end == 0 ? "a" : "b")];
            for (int i = 0; i < 48; ++i)
            {
                d += em->IsCorrupt(Create<Packet>(100)) ? '1' : '0';
            }
        }
    }
    return draws;
}

/**
 * Install the losses of `c` with the runner's MrcScenarioRunner::InstallLosses on a lean
 * build of every rank and on a whole build: each device made by a lean build draws what
 * the same device draws in the whole build.
 * \param c the settings (ranks, losses) \param build builds the fabric
 */
void
ExpectLeanLossesDrawAsWhole(const MrcScenarioConfig& c,
                            const std::function<Ptr<MrcTopology>(MrcTopologyHelper&)>& build)
{
    std::map<std::string, std::string> whole;
    {
        MrcTopologyHelper th;
        th.SetNames(false);
        Ptr<MrcTopology> t = build(th);
        MrcScenarioRunner::InstallLosses(c, t);
        whole = LossDraws(t);
        Simulator::Destroy();
    }
    ASSERT_FALSE(whole.empty());
    for (uint32_t r = 0; r < c.ranks; ++r)
    {
        MrcTopologyHelper th;
        th.SetNames(false);
        th.SetRanks(c.ranks);
        th.SetBuildRank(r);
        Ptr<MrcTopology> t = build(th);
        MrcScenarioRunner::InstallLosses(c, t);
        const std::map<std::string, std::string> lean = LossDraws(t);
        EXPECT_LT(lean.size(), whole.size()) << "rank " << r;
        EXPECT_GT(lean.size(), 0u) << "rank " << r;
        for (const auto& [device, draws] : lean)
        {
            ASSERT_EQ(whole.count(device), 1u) << device;
            EXPECT_EQ(draws, whole.at(device)) << "rank " << r << ", device " << device;
        }
        Simulator::Destroy();
    }
}

} // namespace

TEST(MrcDistributed, ALeanBuildsLossesDrawAsInOneProcess)
{
    MrcScenarioConfig c;
    c.ranks = 2;
    c.lossRate = 0.3;
    const auto clos = [](MrcTopologyHelper& th) {
        th.SetConfig(Clos(16, 4, 4, 2));
        return th.Build();
    };
    c.lossAt = "path"; // host NIC ports
    ExpectLeanLossesDrawAsWhole(c, clos);
    c.lossAt = "links"; // both ends of every link
    ExpectLeanLossesDrawAsWhole(c, clos);
    c.ranks = 4;
    ExpectLeanLossesDrawAsWhole(c, clos);
    // a topology file's per-link error rates
    MrcScenarioConfig g;
    g.ranks = 2;
    auto graph = std::make_shared<MrcTopologyGraph>(FatTree16());
    g.graph = graph;
    g.graphLinkError.assign(graph->links.size(), 0.0);
    for (std::size_t i = 0; i < g.graphLinkError.size(); i += 3)
    {
        g.graphLinkError[i] = 0.25; // host links and switch links of both ranks
    }
    ExpectLeanLossesDrawAsWhole(g, [graph](MrcTopologyHelper& th) {
        th.GetConfig().planes = 2;
        return th.BuildGraph(*graph);
    });
}

namespace
{

/**
 * Build the 2-plane Clos of CutFacts whole (rank -1) or lean for one rank of 2 and schedule,
 * through the fabric (MrcFailureInjector::TrySchedule), one failure of each kind that names
 * devices: a switch of rank 1 (p0-t0-3, down 1 us to 1.6 us), a NIC port of a rank-1 host
 * on that switch (host13 plane 0, from 1.2 us: still down when the switch comes back), plane 1 (1.3
 * us to 1.7 us) and two gray failures (from 1 us: first a direction received on rank 1, then one
 * received on rank 0). Give as text what rank 0 must agree on, at 1.45 us (everything down) and at
 * 2 us: the records, IsPathUp of every path from host 0 and IsReachable on both planes, and the
 * ECMP tables of rank 0's switches; and in draws the first draws of every gray failure's error
 * model on a device built here (by link id and end, as LossDraws). \param rank the build rank (-1:
 * whole) \param draws set to the gray failures' draws \return the text
 */
std::string
FailureKindFacts(int rank, std::map<std::string, std::string>& draws)
{
    Ptr<MrcTopology> t = BuildTwoRankClos(rank);
    Ptr<MrcFailureInjector> fi = CreateObject<MrcFailureInjector>();
    fi->SetTopology(t);
    std::ostringstream os;
    using Kind = MrcFailureSpec::Kind;
    auto spec = [](Kind k,
                   const std::string& a,
                   const std::string& b,
                   uint32_t plane,
                   Time at,
                   Time repair) {
        MrcFailureSpec f;
        f.kind = k;
        f.option = MrcFailureSpec::KindName(k);
        f.item = a;
        f.nodeA = a;
        f.nodeB = b;
        f.plane = plane;
        f.at = at;
        f.repair = repair;
        f.loss = 0.5;
        return f;
    };
    for (const MrcFailureSpec& f :
         {spec(Kind::SWITCH, "p0-t0-3", "", 0, NanoSeconds(1000), NanoSeconds(1600)),
          spec(Kind::PORT, "host13", "", 0, NanoSeconds(1200), Time(0)),
          spec(Kind::PLANE, "", "", 1, NanoSeconds(1300), NanoSeconds(1700)),
          spec(Kind::GRAY, "p0-t1-1", "p0-t0-3", 0, NanoSeconds(1000), Time(0)),
          spec(Kind::GRAY, "p0-t1-2", "p0-t0-0", 0, NanoSeconds(1000), Time(0))})
    {
        os << "schedule " << f.option << " '" << fi->TrySchedule(f, t) << "'\n";
    }
    fi->AssignStreams(600);
    auto snapshot = [&os, t]() {
        os << "at " << Simulator::Now().GetNanoSeconds() << "\n";
        for (uint32_t h = 1; h < t->GetNHosts(); ++h)
        {
            os << "host " << h << " reachable " << t->IsReachable(0, h, 0)
               << t->IsReachable(0, h, 1) << " paths";
            for (const MrcPath& path : t->GetAllPaths(0, h))
            {
                os << " " << t->IsPathUp(path);
            }
            os << "\n";
        }
        for (uint32_t s = 0; s < t->GetNSwitches(); ++s)
        {
            if (t->GetSwitchNode(s)->GetSystemId() == 0)
            {
                AppendEcmpTable(os, t, s, 2);
            }
        }
    };
    Simulator::Schedule(NanoSeconds(1450), snapshot);
    Simulator::Stop(MicroSeconds(2));
    Simulator::Run();
    snapshot();
    for (const MrcEventRecord& r : fi->GetEventLog()->GetRecords())
    {
        os << r.time.GetTimeStep() << " " << r.kind << " " << r.where << " " << r.detail << "\n";
    }
    draws = LossDraws(t);
    Simulator::Destroy();
    Names::Clear();
    return os.str();
}

} // namespace

TEST(MrcDistributed, ALeanBuildFailsSwitchesPortsPlanesAndGrayLinksAsOneProcess)
{
    std::map<std::string, std::string> wholeDraws;
    std::map<std::string, std::string> leanDraws;
    const std::string whole = FailureKindFacts(-1, wholeDraws);
    const std::string lean = FailureKindFacts(0, leanDraws);
    // every failure took hold: scheduled, recorded with its links, paths down, host 9 cut off
    EXPECT_EQ(whole.find("schedule switch ''\nschedule port ''\nschedule plane ''\n"
                         "schedule gray ''\nschedule gray ''\n"),
              0u)
        << whole;
    EXPECT_NE(whole.find("switch_down p0-t0-3 links=8"), std::string::npos) << whole;
    EXPECT_NE(whole.find("port_down host13:0"), std::string::npos) << whole;
    EXPECT_NE(whole.find("plane_down p1 links="), std::string::npos) << whole;
    EXPECT_NE(whole.find("plane_up p1 links="), std::string::npos) << whole;
    EXPECT_NE(whole.find("switch_up p0-t0-3 links=8; still down: p0-t0-3:1-host13:0 (port "
                         "host13:0)"),
              std::string::npos)
        << whole;
    EXPECT_NE(whole.find("gray_failure_start p0-t1-1:3->p0-t0-3:"), std::string::npos) << whole;
    EXPECT_NE(whole.find("host 13 reachable 01"), std::string::npos) << whole; // at 2 us
    EXPECT_NE(whole.find("host 12 reachable 00"), std::string::npos) << whole; // at 1.45 us
    EXPECT_NE(whole.find("host 12 reachable 11"), std::string::npos) << whole; // at 2 us
    ExpectSameLines(lean, whole);
    // the gray failures' losses: drawn where the receiver is built, from the same stream
    EXPECT_EQ(wholeDraws.size(), 2u);
    ASSERT_EQ(leanDraws.size(), 1u); // (the other receiver is rank 1's)
    for (const auto& [device, d] : leanDraws)
    {
        ASSERT_EQ(wholeDraws.count(device), 1u) << device;
        EXPECT_EQ(d, wholeDraws.at(device)) << device;
    }
}

TEST(MrcDistributed, AHostWithoutANicKeepsItsNumbersInTheRdmaHelper)
{
    // A host another rank simulates has no NIC in a lean build: the helper counts its QP
    // numbers and rkeys as its NIC would (FirstQpn, rkeys from 1).
    Ptr<Node> bare = CreateObject<Node>();
    Ptr<Node> other = CreateObject<Node>();
    MrcRdmaHelper rdma;
    EXPECT_EQ(rdma.SkipQueuePair(bare), 256u);
    EXPECT_EQ(rdma.SkipQueuePair(bare), 257u);
    EXPECT_EQ(rdma.SkipMemoryRegion(bare), 1u);
    EXPECT_EQ(rdma.SkipMemoryRegion(bare), 2u);
    EXPECT_EQ(rdma.SkipQueuePair(bare), 258u);
    MrcRdmaHelper given;
    given.SetNicAttribute("FirstQpn", UintegerValue(1000));
    EXPECT_EQ(given.SkipQueuePair(other), 1000u);
    EXPECT_EQ(given.SkipMemoryRegion(other), 1u);
    Simulator::Destroy();
}

TEST(MrcDistributed, AGraphSplitsBySwitchBlocksWithEachHostOnItsSwitch)
{
    // 2 ranks: ToR 8 with hosts 0-3 and spine 10 on rank 0, ToR 9 with hosts 4-7 and
    // spine 11 on rank 1 (each tier in blocks of node id order).
    const MrcTopologyGraph g = LeafSpine();
    EXPECT_EQ(g.DefaultRanks(2), (std::vector<uint32_t>{0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 0, 1}));
    EXPECT_EQ(g.DefaultRanks(1), std::vector<uint32_t>(12, 0));
    EXPECT_EQ(g.CheckRanks(2, g.DefaultRanks(2)), "");
    MrcTopologyConfig c;
    c.planes = 2;
    MrcTopologyHelper th(c);
    th.SetRanks(2);
    Ptr<MrcTopology> t = th.BuildGraph(g);
    for (uint32_t h = 0; h < 8; ++h)
    {
        EXPECT_EQ(t->GetHost(h)->GetSystemId(), h < 4 ? 0u : 1u) << "host " << h;
    }
    for (uint32_t p = 0; p < 2; ++p)
    {
        for (uint32_t i = 0; i < 2; ++i)
        {
            EXPECT_EQ(t->GetSwitch(p, MrcTier::T0, i)->GetSystemId(), i);
            EXPECT_EQ(t->GetSwitch(p, MrcTier::T1, i)->GetSystemId(), i);
        }
    }
    // Host links never cross; ToR 8 - spine 11 and ToR 9 - spine 10 do, in each plane.
    uint32_t crossing = 0;
    for (uint32_t l = 0; l < t->GetNLinks(); ++l)
    {
        const MrcTopologyLink& k = t->GetLink(l);
        const bool cross = k.nodeA->GetSystemId() != k.nodeB->GetSystemId();
        crossing += cross ? 1 : 0;
        EXPECT_FALSE(cross && k.tier == MrcLinkTier::HOST) << "link " << l;
    }
    EXPECT_EQ(crossing, 2u * 2);
    Simulator::Destroy();

    // An htsim fat tree of 4 pods over 4 ranks: a pod a rank (its 2 ToRs, 2 aggregation
    // switches and 4 hosts) and a core each.
    const MrcTopologyGraph f = FatTree16();
    const std::vector<uint32_t> r = f.DefaultRanks(4);
    for (uint32_t v = 0; v < 32; ++v)
    {
        const uint32_t pod = v < 16 ? v / 4 : (v - (v < 24 ? 16 : 24)) / 2;
        EXPECT_EQ(r[v], pod) << "node " << v;
    }
    for (uint32_t core = 0; core < 4; ++core)
    {
        EXPECT_EQ(r[32 + core], core);
    }
    EXPECT_EQ(f.CheckRanks(4, r), "");
}

TEST(MrcDistributed, AGraphSplitKeepsPathsBaseRttsAndTables)
{
    // Every rank builds the whole graph: node ids, paths, base RTTs and switch tables are
    // those of one process, whatever the split.
    const MrcTopologyGraph f = FatTree16();
    std::vector<std::string> facts;
    for (uint32_t ranks : {1u, 2u, 4u})
    {
        MrcTopologyConfig c;
        c.planes = 2;
        MrcTopologyHelper th(c);
        th.SetNames(false); // three builds in one process
        th.SetRanks(ranks);
        Ptr<MrcTopology> t = th.BuildGraph(f);
        facts.push_back(FabricFacts(t));
        std::set<uint32_t> used;
        for (uint32_t h = 0; h < t->GetNHosts(); ++h)
        {
            used.insert(t->GetHost(h)->GetSystemId());
        }
        EXPECT_EQ(used.size(), ranks);
        Simulator::Destroy();
    }
    EXPECT_GT(facts[0].size(), 1000u);
    EXPECT_EQ(facts[1], facts[0]);
    EXPECT_EQ(facts[2], facts[0]);
}

TEST(MrcDistributed, AGraphSplitIsRefusedWhereItCannotRun)
{
    const MrcTopologyGraph g = LeafSpine();
    // 2 switches with hosts: at most 2 ranks have hosts
    EXPECT_EQ(g.CheckRanks(3, g.DefaultRanks(3)),
              "rank 2 has no host; each rank needs at least one switch with hosts (the fabric "
              "has 2)");
    // a host away from its switch
    std::vector<uint32_t> r = g.DefaultRanks(2);
    r[2] = 1;
    EXPECT_EQ(g.CheckRanks(2, r),
              "host 2 is on rank 1 and its switch 8 on rank 0 (a host goes with its switch: "
              "host links do not cross ranks)");
    // a link between ranks with zero delay: ns-3's lookahead would be zero
    MrcTopologyGraph z = LeafSpine();
    z.links[9].delay = Time(0); // 8-11, between the ranks
    EXPECT_EQ(z.CheckRanks(2, z.DefaultRanks(2)),
              "the link 8-11 joins rank 0 and rank 1 with a zero delay; a link between ranks "
              "needs a positive delay (the lookahead of ns-3's engine is the smallest delay of "
              "such a link): put both ends on one rank with --rankMap");
    // the same link inside a rank is allowed
    std::vector<uint32_t> inside = z.DefaultRanks(2);
    inside[11] = 0;
    EXPECT_EQ(z.CheckRanks(2, inside), "");
    // two ranks without a link between them (notices travel on links): 4 ToRs on a ring of
    // ranks 0-1-2-3 with no 0-2 or 1-3 link
    MrcTopologyGraph ring;
    ring.isSwitch = {false, false, false, false, true, true, true, true};
    for (uint32_t h = 0; h < 4; ++h)
    {
        ring.links.push_back(GraphLink(h, 4 + h));
        ring.links.push_back(GraphLink(4 + h, 4 + (h + 1) % 4));
    }
    EXPECT_EQ(ring.CheckRanks(4, ring.DefaultRanks(4)),
              "rank 0 and rank 2 share no link; every two ranks need one (notices of message "
              "ends between ranks travel on their links)");
    EXPECT_EQ(ring.CheckRanks(2, ring.DefaultRanks(2)), "");
}

TEST(MrcDistributed, AGraphRankMapNamesTheFilesSwitches)
{
    const MrcTopologyGraph g = LeafSpine();
    std::vector<uint32_t> r;
    // spines swapped: ToR 8 and spine 11 on rank 0, ToR 9 and spine 10 on rank 1
    const std::string good = WriteMap("graph-good", "# spines crossed\n10 1\n11 0 # end\n\n");
    ASSERT_EQ(g.ReadRankMap(good, 2, r), "");
    EXPECT_EQ(r, (std::vector<uint32_t>{0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 1, 0}));
    // a ToR moves its hosts
    ASSERT_EQ(g.ReadRankMap(WriteMap("graph-tors", "8 1\n9 0\n"), 2, r), "");
    EXPECT_EQ(r, (std::vector<uint32_t>{1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 0, 1}));
    // the build follows the map
    MrcTopologyHelper th;
    th.SetRanks(2);
    th.SetGraphRanks(r);
    Ptr<MrcTopology> t = th.BuildGraph(g);
    EXPECT_EQ(t->GetHost(0)->GetSystemId(), 1u);
    EXPECT_EQ(t->GetHost(7)->GetSystemId(), 0u);
    EXPECT_EQ(t->GetSwitch(0, MrcTier::T0, 0)->GetSystemId(), 1u); // node 8
    EXPECT_EQ(t->GetSwitch(0, MrcTier::T1, 1)->GetSystemId(), 1u); // node 11
    Simulator::Destroy();

    auto read = [&](const std::string& name, const std::string& text, uint32_t ranks = 2) {
        const std::string path = WriteMap(name, text);
        const std::string e = g.ReadRankMap(path, ranks, r);
        return e.empty() ? e : e.substr(path.size());
    };
    EXPECT_EQ(read("graph-unknown", "10 1\nt1-0 0\n"),
              ":2: 't1-0' is not a switch of this topology file (allowed: the switches' node "
              "ids 8, 9, 10, 11)");
    EXPECT_NE(read("graph-range-id", "12 0\n").find(":1: '12' is not a switch of this topology"),
              std::string::npos);
    EXPECT_EQ(read("graph-host", "3 1\n"),
              ":1: '3' is a host (a host goes with its switch: host links do not cross ranks) "
              "(allowed: the switches' node ids 8, 9, 10, 11)");
    EXPECT_EQ(read("graph-twice", "10 1\n010 1\n"), ":2: '010' is given twice");
    EXPECT_EQ(read("graph-rank", "10 2\n"), ":1: rank '2' of '10' is out of range (allowed: 0..1)");
    EXPECT_EQ(read("graph-words", "10\n"), ":1: expected 'NAME RANK'");
    EXPECT_EQ(read("graph-extra", "10 1 2\n"), ":1: expected 'NAME RANK'");
    EXPECT_EQ(read("graph-empty-rank", "9 0\n"),
              ": rank 1 has no host; each rank needs at least one switch with hosts (the fabric "
              "has 2)");
    EXPECT_NE(g.ReadRankMap("/nonexistent/map", 2, r).find("cannot be read"), std::string::npos);
    // a long list of switches is cut short in the message
    const MrcTopologyGraph f = FatTree16();
    const std::string fp = WriteMap("graph-fat", "5 0\n");
    EXPECT_EQ(f.ReadRankMap(fp, 4, r).substr(fp.size()),
              ":1: '5' is a host (a host goes with its switch: host links do not cross ranks) "
              "(allowed: the switches' node ids 16, 17, 18, 19, ..., 35)");
}

TEST(MrcDistributed, AGraphsNoticeDelayIsItsLargestSwitchLinkDelay)
{
    // The delay after which ends are applied is the same for every split of a graph and at
    // least the lookahead of any split (the smallest delay of a link between ranks).
    MrcTopologyGraph g = LeafSpine();
    EXPECT_EQ(g.GetNoticeDelay(), MicroSeconds(1));
    g.links[9].delay = NanoSeconds(400);
    g.links[10].delay = NanoSeconds(2500);
    g.links[0].delay = MicroSeconds(7); // a host link does not count
    EXPECT_EQ(g.GetNoticeDelay(), NanoSeconds(2500));
    MrcTopologyGraph one; // one switch: no switch-switch link, the host links' delay
    one.isSwitch = {false, false, true};
    one.links = {GraphLink(0, 2, 300), GraphLink(1, 2, 300)};
    EXPECT_EQ(one.GetNoticeDelay(), NanoSeconds(300));
}

// ---------------------------------------------------------------------------
// MrcMpi without MPI

TEST(MrcDistributed, WithoutMpiEveryNodeIsLocalAndTheRankIsZero)
{
    EXPECT_FALSE(MrcMpi::IsActive());
    EXPECT_EQ(MrcMpi::GetRank(), 0u);
    EXPECT_EQ(MrcMpi::GetSize(), 1u);
    MrcSwitchNode::SystemIdScope s(7);
    Ptr<MrcSwitchNode> sw = CreateObject<MrcSwitchNode>();
    EXPECT_TRUE(MrcMpi::IsLocal(PeekPointer(sw))); // no distributed run: all local
    const std::vector<std::string> all = MrcMpi::GatherToRoot("abc");
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0], "abc");
    EXPECT_EQ(MrcMpi::MinOverRanks(42), 42);
    Simulator::Destroy();
}

TEST(MrcDistributed, MpirunWithoutMpiInTheBuildIsAClearError)
{
    if (MrcMpi::IsCompiled())
    {
        GTEST_SKIP() << "this build has MPI (Initialize would start it)";
    }
    setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
    int argc = 1;
    char name[] = "mrc-sim";
    char* args[] = {name, nullptr};
    char** argv = args;
    const std::string why = MrcMpi::Initialize(&argc, &argv);
    unsetenv("OMPI_COMM_WORLD_SIZE");
    EXPECT_EQ(why,
              "started by mpirun with 2 ranks, but this build of the module has no MPI (ns-3 "
              "was built without its mpi module; build the MPI variant: ./ns3-mrc run "
              "--ranks=N ...)");
    EXPECT_FALSE(MrcMpi::IsDistributed());
    // one process: no complaint
    EXPECT_EQ(MrcMpi::Initialize(&argc, &argv), "");
}

// ---------------------------------------------------------------------------
// rank 0 adds the other ranks' figures

TEST(MrcDistributed, RankFiguresAreSummedExactly)
{
    // Two ranks' results of the same run (same transports and links): counts add up,
    // simulated times take the latest, PFC entries are ordered by (time, node, port)
    // whoever recorded them, counted figures add up, others keep rank 0's value.
    auto make = [](uint64_t k) {
        MrcRunResults r;
        r.AddTransport("mrc");
        MrcTransportCounters& c = r.GetCounters("mrc");
        c.retransmissions = 10 * k;
        c.timeouts = k;
        c.trims = 100 * k;
        c.pfcPausedNs = 1000 * static_cast<int64_t>(k);
        c.bytesExactlyOnce = 4096 * k;
        c.simulatedTimeNs = 5000 + static_cast<int64_t>(k);
        MrcLinkRecord l;
        l.transport = "mrc";
        l.from = "host0";
        l.to = "p0-t0-0";
        l.packets = 7 * k;
        l.bytes = 7000 * k;
        l.ecnMarks = k;
        r.AddLink(l);
        MrcPfcRecord p;
        p.timeNs = 300;
        p.node = static_cast<uint32_t>(10 - k); // rank 1's port sorts first at 300 ns
        p.type = 1;
        r.AddPfc(p);
        p.timeNs = 100 * static_cast<int64_t>(k);
        p.type = 0;
        r.AddPfc(p);
        r.GetInfo().options["mrcProbesSent"] = std::to_string(3 * k);
        r.GetInfo().options["mtu"] = "4096";
        MrcFlowRecord f;
        f.transport = "mrc";
        f.flowId = k;
        f.bytes = 1000;
        f.startNs = 0;
        f.endNs = 100 * static_cast<int64_t>(k);
        r.AddStreamedFlow(f);
        return r;
    };
    MrcRunResults r0 = make(1);
    const MrcRunResults r1 = make(2);
    r0.AddRankFigures(r1.PackRankFigures());
    r0.SortPfcLog();
    const MrcTransportCounters& c = r0.GetCounters("mrc");
    EXPECT_EQ(c.retransmissions, 30u);
    EXPECT_EQ(c.timeouts, 3u);
    EXPECT_EQ(c.trims, 300u);
    EXPECT_EQ(c.pfcPausedNs, 3000);
    EXPECT_EQ(c.bytesExactlyOnce, 3u * 4096);
    EXPECT_EQ(c.simulatedTimeNs, 5002);
    ASSERT_EQ(r0.GetLinks().size(), 1u);
    EXPECT_EQ(r0.GetLinks()[0].packets, 21u);
    EXPECT_EQ(r0.GetLinks()[0].bytes, 21000u);
    EXPECT_EQ(r0.GetLinks()[0].ecnMarks, 3u);
    EXPECT_EQ(r0.GetLinks()[0].from, "host0");
    ASSERT_EQ(r0.GetPfcLog().size(), 4u);
    const std::vector<std::pair<int64_t, uint32_t>> order = {{100, 9},
                                                             {200, 8},
                                                             {300, 8},
                                                             {300, 9}};
    for (std::size_t i = 0; i < 4; ++i)
    {
        EXPECT_EQ(r0.GetPfcLog()[i].timeNs, order[i].first) << i;
        EXPECT_EQ(r0.GetPfcLog()[i].node, order[i].second) << i;
    }
    EXPECT_EQ(r0.GetInfo().options.at("mrcProbesSent"), "9");
    EXPECT_EQ(r0.GetInfo().options.at("mtu"), "4096");
    EXPECT_EQ(r0.GetNStreamedFlows(), 2u);
    const std::vector<MrcTransportSummary> s = r0.Summarize();
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s[0].messages, 2u);
    EXPECT_EQ(s[0].completed, 2u);
    EXPECT_EQ(s[0].completedBytes, 2000u);
}

TEST(MrcDistributed, ACutShortPackIsRefused)
{
    MrcRunResults a;
    a.AddTransport("roce");
    MrcRunResults b;
    b.AddTransport("roce");
    b.AddTransport("mrc");
    EXPECT_DEATH(a.AddRankFigures(b.PackRankFigures()), "a rank ran 2 transports, this one 1");
}

TEST(MrcDistributed, FlowPartsMergeByFlowIdAndEndTime)
{
    // Two ranks stream the flows they posted (ids with gaps); rank 0 merges: flows.csv by
    // flow id, fct.txt by (end time, flow id), the summary from every rank's FCTs.
    const std::string dir = "/tmp/mrc-distributed-test-flows";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir + "/r0");
    std::filesystem::create_directories(dir + "/r1");
    auto flow = [](uint64_t id, int64_t end) {
        MrcFlowRecord f;
        f.transport = "uec";
        f.flowId = id;
        f.src = static_cast<uint32_t>(id);
        f.dst = static_cast<uint32_t>(id + 1);
        f.bytes = 1000 + id;
        f.startNs = 10;
        f.endNs = end;
        f.idealFctNs = 50;
        return f;
    };
    // rank 1: flows 1, 3 and 5 (5 never completes)
    MrcRunResults res1;
    std::string pack1;
    {
        MrcFlowStream s1(dir + "/r1");
        s1.SetSplit(true);
        s1.BeginTransport(&res1, "uec");
        s1.Add(flow(3, 200));
        s1.Add(flow(1, 300));
        s1.Add(flow(5, -1));
        s1.EndTransport();
        pack1 = s1.PackParts();
    }
    // rank 0: flows 0, 2 and 4; flow 2 ends at 300 ns like rank 1's flow 1
    MrcRunResults res0;
    MrcFlowStream s0(dir + "/r0");
    s0.SetSplit(true);
    s0.BeginTransport(&res0, "uec");
    s0.Add(flow(4, 100)); // (a rank adds its completions in time order)
    s0.Add(flow(2, 300));
    s0.Add(flow(0, 400));
    s0.EndTransport();
    res0.AddRankFigures(res1.PackRankFigures());
    s0.MergeParts({pack1});
    s0.Finish(dir, res0);
    const std::string flows = Slurp(dir + "/flows.csv");
    std::istringstream rows(flows);
    std::string row;
    std::getline(rows, row); // header
    for (uint64_t id = 0; id < 6; ++id)
    {
        ASSERT_TRUE(static_cast<bool>(std::getline(rows, row))) << "flow " << id;
        EXPECT_EQ(row.rfind("uec," + std::to_string(id) + ",", 0), 0u) << row;
    }
    EXPECT_FALSE(static_cast<bool>(std::getline(rows, row)));
    // fct.txt: by end time, then flow id: 4 (100), 3 (200), 1 (300), 2 (300), 0 (400);
    // HPCC's columns: sip dip sport dport size start fct ideal (size = 1000 + id)
    std::istringstream lines(Slurp(dir + "/fct.txt"));
    std::vector<uint64_t> sizes;
    for (std::string line; std::getline(lines, line);)
    {
        std::istringstream f(line);
        std::string sip;
        std::string dip;
        uint64_t sport = 0;
        uint64_t dport = 0;
        uint64_t size = 0;
        f >> sip >> dip >> sport >> dport >> size;
        sizes.push_back(size);
    }
    EXPECT_EQ(sizes, (std::vector<uint64_t>{1004, 1003, 1001, 1002, 1000}));
    const std::vector<MrcTransportSummary> s = res0.Summarize();
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s[0].messages, 6u);
    EXPECT_EQ(s[0].completed, 5u);
    EXPECT_EQ(s[0].fctMaxNs, 390); // flow 0: 10 -> 400 ns
    std::filesystem::remove_all(dir);
}

TEST(MrcDistributed, TheEndOfARunWithRanksIsTwoLookaheadsAfterTheLastCompletion)
{
    // --ranks=1: one process with the split runs' end rule. The last message ends at T;
    // the run ends at T + 2 x 1 us (the T0-T1 delay is the lookahead).
    MrcScenarioOptions o = SmallRun("permutation", "8", "4", "100000", "1");
    o.transport = "mrc";
    MrcScenarioConfig c;
    ASSERT_EQ(o.TryToConfig(c), "");
    EXPECT_EQ(c.ranks, 1u);
    c.sampleInterval = Time(0);
    c.progress = false;
    c.transports.clear();
    MrcScenarioRunner r(c);
    r.Run();
    int64_t lastEnd = 0;
    const MrcRunResults& res = r.GetResults();
    for (const MrcFlowRecord& f : res.GetFlows())
    {
        ASSERT_TRUE(f.IsCompleted());
        lastEnd = std::max(lastEnd, f.endNs);
    }
    ASSERT_GT(lastEnd, 0);
    const int64_t endPs = Simulator::Now().GetPicoSeconds();
    // the completion time in ns is truncated from ps: the end is within 1 ns of the rule
    EXPECT_GE(endPs, lastEnd * 1000 + 2000000 - 1);
    EXPECT_LT(endPs, lastEnd * 1000 + 2000000 + 1000);
    Simulator::Destroy();
}

TEST(MrcDistributed, ACollectiveStepStartsOneLookaheadAfterTheEndThatReleasesIt)
{
    // --ranks=1, a ring all-reduce of 4 hosts in 1 chunk: every rank learns of a message's
    // end one lookahead (the 1 us T0-T1 delay) + 1 ns (one time step) after it, and the step it
    // releases starts then. Without --ranks it starts at the end itself. Both move the same bytes.
    std::map<std::string, std::vector<MrcFlowRecord>> flows;
    for (const std::string ranks : {"", "1"})
    {
        MrcScenarioOptions o = SmallRun("allreduce", "4", "2", "400000", ranks);
        o.transport = "roce";
        MrcScenarioConfig c;
        ASSERT_EQ(o.TryToConfig(c), "");
        c.chunks = 1;
        c.progress = false;
        c.transports.clear();
        MrcScenarioRunner r(c);
        r.Run();
        flows[ranks] = r.GetResults().GetFlows();
        Simulator::Destroy();
    }
    for (const auto& [ranks, fl] : flows)
    {
        ASSERT_EQ(fl.size(), 2u * 3 * 4) << ranks; // 2(n-1) steps x n hosts
        uint64_t bytes = 0;
        for (const MrcFlowRecord& f : fl)
        {
            ASSERT_TRUE(f.IsCompleted()) << ranks;
            bytes += f.bytes;
        }
        EXPECT_EQ(bytes, 2u * 3 * 400000) << ranks; // 2(n-1) S over all hosts
        // a message of a later step starts when the message into its source before it
        // ends (a segment takes 8 us, longer than the wait: the latest earlier end into
        // that host is the one that released it)
        std::size_t released = 0;
        for (const MrcFlowRecord& g : fl)
        {
            if (g.startNs == 0)
            {
                continue;
            }
            int64_t wait = INT64_MAX;
            for (const MrcFlowRecord& f : fl)
            {
                if (f.dst == g.src && f.endNs <= g.startNs)
                {
                    wait = std::min(wait, g.startNs - f.endNs);
                }
            }
            ++released;
            if (ranks.empty())
            {
                EXPECT_EQ(wait, 0) << g.src;
            }
            else
            {
                // 1 us + one time step after the end
                EXPECT_EQ(wait, 1001); // (1 ns: one time step at the default resolution)
            }
        }
        EXPECT_EQ(released, 5u * 4) << ranks; // all but step 0
    }
}

TEST(MrcDistributed, RankSamplesMergeInTheOrderOfOneProcess)
{
    // A --ranks=1 run with time series (hosts, flows with windows, switch queues), two
    // transports. Its samples dealt out to two "ranks" by series, packed, merged and sorted
    // by (time, order) come back in the order one process added them, values exact.
    MrcScenarioOptions o = SmallRun("permutation", "8", "4", "200000", "1");
    o.transports = "roce,uec";
    o.sampleInterval = "2us";
    MrcScenarioConfig c;
    ASSERT_EQ(o.TryToConfig(c), "");
    c.progress = false;
    MrcRunResults all;
    for (const std::string t : {"roce", "uec"})
    {
        MrcScenarioConfig ct = c;
        ct.transport = t;
        ct.tagFabricSeries = true;
        MrcScenarioRunner r(ct);
        r.SetSharedResults(&all, nullptr);
        r.Run();
        Simulator::Destroy();
    }
    const auto& series = all.GetSeries();
    const auto& samples = all.GetSamples();
    ASSERT_GT(samples.size(), 500u);
    std::set<std::string> metrics;
    for (const auto& s : series)
    {
        metrics.insert(s.metric);
    }
    EXPECT_EQ(metrics.count("queue_bytes"), 1u);
    EXPECT_EQ(metrics.count("cwnd_bytes"), 1u);
    MrcRunResults rank[2];
    for (const auto& smp : samples)
    {
        const auto& s = series[smp.series];
        MrcRunResults& to = rank[std::hash<std::string>()(s.entity) % 2];
        const uint32_t id = to.RegisterSeries(s.transport, s.entity, s.metric);
        to.SetSeriesOrder(id, s.order);
        to.AddSample(smp.timeNs, id, smp.value);
    }
    ASSERT_GT(rank[0].GetSamples().size(), 0u);
    ASSERT_GT(rank[1].GetSamples().size(), 0u);
    MrcRunResults merged;
    merged.AddRankSamples(rank[1].PackRankSamples()); // the other rank's first
    merged.AddRankSamples(rank[0].PackRankSamples());
    merged.SortSamplesByOrder();
    ASSERT_EQ(merged.GetSamples().size(), samples.size());
    // timeseries.csv's order: by time, then as added (the first transport's before the next's)
    std::vector<std::size_t> order(samples.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&samples](std::size_t x, std::size_t y) {
        return samples[x].timeNs < samples[y].timeNs;
    });
    for (std::size_t i = 0; i < samples.size(); ++i)
    {
        const auto& a = samples[order[i]];
        const auto& b = merged.GetSamples()[i];
        const auto& sa = series[a.series];
        const auto& sb = merged.GetSeries()[b.series];
        ASSERT_EQ(a.timeNs, b.timeNs) << i;
        ASSERT_EQ(sa.transport + " " + sa.entity + " " + sa.metric,
                  sb.transport + " " + sb.entity + " " + sb.metric)
            << i;
        ASSERT_EQ(a.value, b.value) << i; // exact
    }
}

// ---------------------------------------------------------------------------
// the order of same-time events (MrcCanonicalScheduler)

TEST(MrcDistributed, CanonicalOrderOfSameTimeEvents)
{
    // Events at one time stamp run by (time scheduled, scheduling node, that node's count),
    // not by the global order of scheduling: node 7's events scheduled first still run after
    // node 3's; a node's own events keep their order; events scheduled outside any node's
    // event (NO_CONTEXT) come last; SetNextInsertion schedules in another node's name.
    Simulator::Destroy();
    ObjectFactory f;
    f.SetTypeId("ns3::MrcCanonicalScheduler");
    Simulator::SetScheduler(f);
    std::vector<std::string> ran;
    auto mark = [&ran](std::string s) { ran.push_back(std::move(s)); };
    // at 1 us, node 7 and node 3 each schedule two events for 5 us; NO_CONTEXT one too
    Simulator::ScheduleWithContext(7, MicroSeconds(1), [&mark]() {
        Simulator::Schedule(MicroSeconds(4), [&mark]() { mark("7a"); });
        Simulator::Schedule(MicroSeconds(4), [&mark]() { mark("7b"); });
    });
    Simulator::ScheduleWithContext(3, MicroSeconds(1), [&mark]() {
        Simulator::Schedule(MicroSeconds(4), [&mark]() { mark("3a"); });
        // in node 1's name (a frame node 1 sent at 1 us): before node 3's
        MrcCanonicalScheduler::SetNextInsertion(MicroSeconds(1).GetTimeStep(),
                                                1,
                                                MrcCanonicalScheduler::TakeSequence(1));
        Simulator::Schedule(MicroSeconds(4), [&mark]() { mark("1"); });
        Simulator::Schedule(MicroSeconds(4), [&mark]() { mark("3b"); });
    });
    // scheduled at time 0: before all of them (earlier scheduling time)
    Simulator::Schedule(MicroSeconds(5), [&mark]() { mark("setup"); });
    Simulator::Run();
    EXPECT_EQ(ran, (std::vector<std::string>{"setup", "1", "3a", "3b", "7a", "7b"}));
    Simulator::Destroy();
    f.SetTypeId("ns3::MapScheduler");
    Simulator::SetScheduler(f);
    Simulator::Destroy();
}
