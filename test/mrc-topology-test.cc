/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Topology helper: shapes and counts, addressing and uSIDs, validation, base RTT,
// bisection bandwidth, and probes over ECMP and along every SRv6 path of a small
// 2-plane Clos, before and after a T0-T1 link failure.

#include "mrc-test-support.h"

#include "ns3/enum.h"
#include "ns3/mrc-channel.h"
#include "ns3/mrc-dual-forwarding.h"
#include "ns3/mrc-packet-info.h"
#include "ns3/mrc-srv6-encap.h"
#include "ns3/mrc-topology-helper.h"
#include "ns3/mrc-topology-options.h"
#include "ns3/mrc-topology.h"
#include "ns3/names.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sstream>
#include <sys/wait.h>
#include <vector>

using namespace ns3;
using ns3::MrcTest::ExampleBinary;
using ns3::MrcTest::ReadFile;
using ns3::MrcTest::RunCommand;

namespace
{

MrcTopologyConfig
Clos(uint32_t planes, uint32_t hosts, uint32_t hpt, uint32_t t1, uint32_t uplinks = 0)
{
    MrcTopologyConfig c;
    c.kind = MrcTopologyKind::CLOS;
    c.planes = planes;
    c.hosts = hosts;
    c.hostsPerT0 = hpt;
    c.t1PerPlane = t1;
    c.uplinksPerT0 = uplinks;
    return c;
}

MrcTopologyConfig
FatTree(uint32_t planes, uint32_t k, uint32_t hpt = 0)
{
    MrcTopologyConfig c;
    c.kind = MrcTopologyKind::FAT_TREE;
    c.planes = planes;
    c.k = k;
    c.hosts = 0;
    c.hostsPerT0 = hpt;
    return c;
}

Ptr<MrcTopology>
Build(const MrcTopologyConfig& c, bool names = false)
{
    MrcTopologyHelper th(c);
    th.SetNames(names);
    return th.Build();
}

/// Expected counts of a shape.
struct Counts
{
    uint32_t hosts, t0, t1, t2, switches, hostLinks, t0t1, t1t2;
};

void
ExpectCounts(Ptr<MrcTopology> t, const Counts& e)
{
    EXPECT_EQ(t->GetNHosts(), e.hosts);
    EXPECT_EQ(t->GetNSwitchesPerPlane(MrcTier::T0), e.t0);
    EXPECT_EQ(t->GetNSwitchesPerPlane(MrcTier::T1), e.t1);
    EXPECT_EQ(t->GetNSwitchesPerPlane(MrcTier::T2), e.t2);
    EXPECT_EQ(t->GetNSwitches(), e.switches);
    EXPECT_EQ(t->GetNLinks(MrcLinkTier::HOST), e.hostLinks);
    EXPECT_EQ(t->GetNLinks(MrcLinkTier::T0_T1), e.t0t1);
    EXPECT_EQ(t->GetNLinks(MrcLinkTier::T1_T2), e.t1t2);
    EXPECT_EQ(t->GetNLinks(), e.hostLinks + e.t0t1 + e.t1t2);
    // every host has one NIC port per plane, cabled to its T0
    for (uint32_t h = 0; h < t->GetNHosts(); ++h)
    {
        ASSERT_EQ(t->GetHost(h)->GetNDevices(), t->GetNPlanes());
    }
}

} // namespace

TEST(MrcTopology, ClassicSinglePlaneLeafSpine)
{
    Ptr<MrcTopology> t = Build(Clos(1, 16, 4, 4));
    ExpectCounts(t, {16, 4, 4, 0, 8, 16, 16, 0});
    EXPECT_EQ(t->GetPaths(0, 15, 0).size(), 4u); // one per T1
    EXPECT_EQ(t->GetPaths(0, 3, 0).size(), 1u);  // same T0
    EXPECT_EQ(t->GetPaths(5, 5, 0).size(), 0u);  // same host
    EXPECT_DOUBLE_EQ(t->GetConfig().GetOversubscription(), 1.0);
    Simulator::Destroy();
}

TEST(MrcTopology, OddThreePlaneShape)
{
    // 3 planes, 5 hosts per T0, 4 T0 and 3 T1 per plane: 20 hosts
    Ptr<MrcTopology> t = Build(Clos(3, 20, 5, 3));
    // switches 3 * (4 + 3) = 21; host links 20 * 3 = 60; T0-T1 links 3 * 4 * 3 = 36
    ExpectCounts(t, {20, 4, 3, 0, 21, 60, 36, 0});
    EXPECT_EQ(t->GetPaths(0, 19, 2).size(), 3u);
    EXPECT_EQ(t->GetAllPaths(0, 19).size(), 9u); // 3 planes x 3 T1
    EXPECT_EQ(t->GetAllPaths(0, 4).size(), 3u);  // same T0: 1 per plane
    EXPECT_EQ(t->GetAllPaths(4, 5).size(), 9u);  // hosts 4 and 5: T0 0 and T0 1
    // links of a T0: 5 downlinks + 3 uplinks; of a T1: 4 downlinks; of a host: 3 NIC links
    EXPECT_EQ(t->GetLinksOf(t->GetSwitch(1, MrcTier::T0, 2)).size(), 8u);
    EXPECT_EQ(t->GetLinksOf(t->GetSwitch(2, MrcTier::T1, 0)).size(), 4u);
    EXPECT_EQ(t->GetLinksOf(t->GetHost(7)).size(), 3u);
    EXPECT_DOUBLE_EQ(t->GetConfig().GetOversubscription(), 5.0 / 3.0);

    // host 19 is downlink 4 of T0 3; its plane-1 path through T1 2:
    // T0(1,0) = 0x2000, T1(1,2) = 0x2402, T0(1,3) = 0x2003, downlink(1,4) = 0x2804
    std::vector<MrcPath> ps = t->GetPaths(0, 19, 1);
    ASSERT_EQ(ps.size(), 3u);
    EXPECT_EQ(ps[2].usids, (std::vector<uint16_t>{0x2000, 0x2402, 0x2003, 0x2804}));
    EXPECT_EQ(ps[2].carrier.ToAddress(), Ipv6Address("fcbb:bb00:2000:2402:2003:2804::"));
    EXPECT_EQ(ps[2].switches,
              (std::vector<uint32_t>{t->GetSwitchId(1, MrcTier::T0, 0),
                                     t->GetSwitchId(1, MrcTier::T1, 2),
                                     t->GetSwitchId(1, MrcTier::T0, 3)}));
    ASSERT_EQ(ps[2].links.size(), 4u);
    EXPECT_EQ(ps[2].links.front(), t->GetHostLink(0, 1));
    EXPECT_EQ(ps[2].links.back(), t->GetHostLink(19, 1));
    EXPECT_EQ(t->GetLink(ps[2].links[1]).nodeB, t->GetSwitch(1, MrcTier::T1, 2));
    // same T0: T0 | downlink
    std::vector<MrcPath> local = t->GetPaths(1, 3, 0);
    ASSERT_EQ(local.size(), 1u);
    EXPECT_EQ(local[0].carrier.ToAddress(), Ipv6Address("fcbb:bb00:1000:1803::"));
    Simulator::Destroy();
}

TEST(MrcTopology, ParallelUplinksAndFatTrees)
{
    // 8 uplinks over 4 T1: two parallel links per T0-T1 pair, oversubscription 1/2
    Ptr<MrcTopology> t = Build(Clos(1, 8, 4, 4, 8));
    ExpectCounts(t, {8, 2, 4, 0, 6, 8, 16, 0});
    EXPECT_EQ(t->GetPaths(0, 7, 0).size(), 4u);
    EXPECT_DOUBLE_EQ(t->GetConfig().GetOversubscription(), 0.5);
    EXPECT_EQ(
        t->GetLinksBetween(t->GetSwitch(0, MrcTier::T0, 1), t->GetSwitch(0, MrcTier::T1, 3)).size(),
        2u);

    // k = 4: 16 hosts, 8 ToR, 8 aggregation, 4 core; 16 + 16 + 16 links
    Ptr<MrcTopology> f4 = Build(FatTree(1, 4));
    ExpectCounts(f4, {16, 8, 8, 4, 20, 16, 16, 16});
    EXPECT_EQ(f4->GetPaths(0, 15, 0).size(), 4u); // other pod: (k/2)^2
    EXPECT_EQ(f4->GetPaths(0, 2, 0).size(), 2u);  // same pod, other ToR: k/2
    EXPECT_EQ(f4->GetPaths(0, 1, 0).size(), 1u);  // same ToR
    // A copy: GetPaths returns a temporary vector (a reference into it would dangle).
    const MrcPath cross = f4->GetPaths(0, 15, 0)[0];
    EXPECT_EQ(cross.usids.size(), 6u); // ToR | agg | core | agg | ToR | downlink
    EXPECT_EQ(cross.carrier.GetRemainingCount(), 6u);
    // ToR 0 (0x1000), agg 0 (0x1400), core 0 (0x1c00), agg 6 (0x1406), ToR 7 (0x1007), dl 1
    EXPECT_EQ(cross.carrier.ToAddress(), Ipv6Address("fcbb:bb00:1000:1400:1c00:1406:1007:1801"));

    // k = 8: the 128-host fat-tree of the HPCC literature: 32 + 32 + 16 switches
    Ptr<MrcTopology> f8 = Build(FatTree(1, 8));
    ExpectCounts(f8, {128, 32, 32, 16, 80, 128, 128, 128});
    EXPECT_EQ(f8->GetPaths(0, 127, 0).size(), 16u);

    // k = 16: the 1024-host fat-tree: 128 + 128 + 64 switches, 3 x 1024 links
    Ptr<MrcTopology> f16 = Build(FatTree(1, 16));
    ExpectCounts(f16, {1024, 128, 128, 64, 320, 1024, 1024, 1024});
    EXPECT_EQ(f16->GetPaths(0, 1023, 0).size(), 64u);
    EXPECT_EQ(f16->GetPaths(0, 8, 0).size(), 8u); // same pod (64 hosts per pod), other ToR

    // 2 planes, ToR oversubscribed 2:1 (4 hosts per ToR of a k = 4 tree)
    Ptr<MrcTopology> f2 = Build(FatTree(2, 4, 4));
    ExpectCounts(f2, {32, 8, 8, 4, 40, 64, 32, 32});
    EXPECT_EQ(f2->GetAllPaths(0, 31).size(), 8u);
    EXPECT_DOUBLE_EQ(f2->GetConfig().GetOversubscription(), 2.0);
    Simulator::Destroy();
}

TEST(MrcTopology, AddressesNamesAndAccessors)
{
    Names::Clear();
    Ptr<MrcTopology> t = Build(Clos(2, 16, 4, 2), true);
    EXPECT_EQ(t->GetAddress(12, 1), Ipv6Address("fd00:0:0:2::d"));
    EXPECT_EQ(t->GetAddress(0, 0), Ipv6Address("fd00:0:0:1::1"));
    uint32_t h = 99, p = 99;
    ASSERT_TRUE(t->FindNicPort(Ipv6Address("fd00:0:0:2::d"), h, p));
    EXPECT_EQ(h, 12u);
    EXPECT_EQ(p, 1u);
    EXPECT_FALSE(t->FindNicPort(Ipv6Address("fd00:0:0:3::1"), h, p));  // no plane 2
    EXPECT_FALSE(t->FindNicPort(Ipv6Address("fd00:0:0:1::11"), h, p)); // no host 16

    EXPECT_EQ(Names::FindName(t->GetHost(12)), "host12");
    EXPECT_EQ(Names::FindName(t->GetSwitch(1, MrcTier::T0, 3)), "p1-t0-3");
    EXPECT_EQ(Names::FindName(t->GetSwitch(1, MrcTier::T1, 0)), "p1-t1-0");
    EXPECT_EQ(Names::Find<Node>("p0-t1-1"), t->GetSwitch(0, MrcTier::T1, 1));

    for (uint32_t host = 0; host < 16; ++host)
    {
        for (uint32_t plane = 0; plane < 2; ++plane)
        {
            Ptr<MrcNetDevice> nic = t->GetNicPort(host, plane);
            EXPECT_EQ(nic, t->GetHost(host)->GetDevice(plane));
            Ptr<MrcSwitchNode> t0 = t->GetSwitch(plane, MrcTier::T0, host / 4);
            EXPECT_EQ(nic->GetPeer()->GetNode(), t0);
            const MrcTopologyLink& l = t->GetLink(t->GetHost(host), t0);
            EXPECT_EQ(l.tier, MrcLinkTier::HOST);
            EXPECT_EQ(l.devA, nic);
            EXPECT_EQ(l.id, t->GetHostLink(host, plane));
        }
    }
    const uint32_t id = t->GetSwitchId(1, MrcTier::T1, 1);
    EXPECT_EQ(t->GetUsid(id), 0x2401);
    uint32_t plane = 9, index = 9;
    MrcTier tier = MrcTier::T2;
    t->DescribeSwitch(id, plane, tier, index);
    EXPECT_EQ(plane, 1u);
    EXPECT_EQ(tier, MrcTier::T1);
    EXPECT_EQ(index, 1u);
    EXPECT_EQ(t->FindSwitchId(t->GetSwitchById(id)), static_cast<int32_t>(id));
    EXPECT_EQ(t->FindSwitchId(t->GetHost(0)), -1);
    EXPECT_EQ(t->FindHost(t->GetHost(13)), 13);
    EXPECT_EQ(t->FindHost(t->GetSwitchById(id)), -1);
    // every switch forwards with the dual strategy; its uSID is its SRv6 identity
    Ptr<MrcDualForwarding> fwd =
        DynamicCast<MrcDualForwarding>(t->GetSwitchById(id)->GetForwarding());
    ASSERT_TRUE(fwd);
    UintegerValue u;
    fwd->GetSrv6()->GetAttribute("Usid", u);
    EXPECT_EQ(u.Get(), 0x2401u);
    // a T1 has an SRv6 entry per T0 and one ECMP range route per T0 (aggregated tables,
    // the default) ...
    EXPECT_EQ(fwd->GetSrv6()->GetNEntries(), 4u);
    EXPECT_EQ(fwd->GetEcmp()->GetNRoutes(), 4u);
    // ... or, with per-host tables, an ECMP route per NIC port of its plane
    {
        MrcTopologyHelper th(Clos(2, 16, 4, 2));
        th.SetNames(false);
        th.SetRouteManagerAttribute("Tables", EnumValue(MrcEcmpRouteManager::TABLES_PER_HOST));
        Ptr<MrcTopology> perHost = th.Build();
        EXPECT_EQ(DynamicCast<MrcDualForwarding>(perHost->GetSwitchById(id)->GetForwarding())
                      ->GetEcmp()
                      ->GetNRoutes(),
                  16u);
    }
    // a T0: 2 T1 + 4 downlinks
    EXPECT_EQ(DynamicCast<MrcDualForwarding>(t->GetSwitch(0, MrcTier::T0, 0)->GetForwarding())
                  ->GetSrv6()
                  ->GetNEntries(),
              6u);
    Simulator::Destroy();
    Names::Clear();
}

TEST(MrcTopology, InvalidShapesAreNamed)
{
    auto msg = [](const MrcTopologyConfig& c) { return c.Validate(); };
    EXPECT_EQ(msg(Clos(1, 16, 4, 4)), "");
    EXPECT_NE(msg(Clos(1, 15, 4, 4)).find("hosts=15 is not a multiple of hostsPerT0=4"),
              std::string::npos);
    EXPECT_NE(msg(Clos(0, 16, 4, 4)).find("planes=0"), std::string::npos);
    EXPECT_NE(msg(Clos(16, 16, 4, 4)).find("planes=16"), std::string::npos);
    EXPECT_NE(msg(Clos(1, 16, 4, 0)).find("t1PerPlane=0"), std::string::npos);
    EXPECT_NE(msg(Clos(1, 16, 4, 1025)).find("t1PerPlane=1025"), std::string::npos);
    EXPECT_NE(msg(Clos(1, 2050, 2, 4)).find("1025 T0 per plane"), std::string::npos);
    EXPECT_NE(msg(Clos(1, 16, 4, 4, 6)).find("uplinksPerT0=6"), std::string::npos);
    MrcTopologyConfig r = Clos(1, 16, 4, 4);
    r.fabricRate = DataRate(0);
    EXPECT_NE(msg(r).find("fabricRate=0"), std::string::npos);
    r.hostRate = DataRate(0);
    EXPECT_NE(msg(r).find("hostRate=0"), std::string::npos);
    EXPECT_NE(msg(FatTree(1, 5)).find("k=5"), std::string::npos);
    EXPECT_NE(msg(FatTree(1, 46)).find("k=46"), std::string::npos);
    MrcTopologyConfig f = FatTree(1, 4);
    f.hosts = 20;
    EXPECT_NE(msg(f).find("hosts=20 does not fill"), std::string::npos);
}

TEST(MrcTopologyDeathTest, BuildAbortsNamingTheShapeError)
{
    EXPECT_DEATH(Build(Clos(1, 15, 4, 4)), "hosts=15 is not a multiple of hostsPerT0=4");
    EXPECT_DEATH(Build(Clos(0, 16, 4, 4)), "planes=0");
}

TEST(MrcTopologyDeathTest, ASecondTopologyInOneProcessStopsNamingTheTakenName)
{
    // ns-3's names outlive Simulator::Destroy: building again without Names::Clear() stops
    // with the name and the two ways out; with either, the second build works.
    EXPECT_DEATH(
        {
            MrcTopologyHelper(Clos(1, 8, 4, 2)).Build();
            Simulator::Destroy();
            MrcTopologyHelper(Clos(1, 8, 4, 2)).Build();
        },
        "the ns-3 name \"host0\" is taken .*Names::Clear.*SetNames.false.");
    MrcTopologyHelper(Clos(1, 8, 4, 2)).Build();
    Simulator::Destroy();
    MrcTopologyHelper unnamed(Clos(1, 8, 4, 2));
    unnamed.SetNames(false);
    EXPECT_EQ(unnamed.Build()->GetNHosts(), 8u);
    Simulator::Destroy();
    Names::Clear();
    Ptr<MrcTopology> again = MrcTopologyHelper(Clos(1, 8, 4, 2)).Build();
    EXPECT_EQ(Names::Find<Node>("host7"), again->GetHost(7));
    EXPECT_EQ(Names::Find<Node>("p0-t1-1"), again->GetSwitch(0, MrcTier::T1, 1));
    Simulator::Destroy();
    Names::Clear();
}

TEST(MrcTopology, CommandLineOptions)
{
    MrcTopologyOptions o;
    MrcTopologyConfig c;
    EXPECT_EQ(o.TryToConfig(c), "");
    EXPECT_EQ(c.hosts, 16u);
    EXPECT_EQ(c.hostsPerT0, 4u);
    EXPECT_EQ(c.hostDelay, MicroSeconds(1));
    EXPECT_EQ(c.coreRate, DataRate("100Gbps"));
    o.topology = "fattree";
    o.k = "8";
    o.hostLinkDelay = "500ns";
    o.coreRate = "400Gbps";
    EXPECT_EQ(o.TryToConfig(c), "");
    EXPECT_EQ(c.kind, MrcTopologyKind::FAT_TREE);
    EXPECT_EQ(c.GetHosts(), 128u);
    EXPECT_EQ(c.hostDelay, NanoSeconds(500));
    EXPECT_EQ(c.fabricDelay, MicroSeconds(1));
    EXPECT_EQ(c.coreRate, DataRate("400Gbps"));
    MrcTopologyOptions bad;
    bad.topology = "ring";
    bad.hostRate = "fast";
    bad.linkDelay = "5";
    bad.planes = "-1";
    const std::string m = bad.TryToConfig(c);
    EXPECT_NE(m.find("--topology='ring' is not a topology (allowed: clos, fattree)"),
              std::string::npos);
    EXPECT_NE(m.find("--hostRate='fast'"), std::string::npos);
    EXPECT_NE(m.find("--linkDelay='5'"), std::string::npos);
    EXPECT_NE(m.find("--planes='-1'"), std::string::npos);
    MrcTopologyOptions zero;
    zero.planes = "0";
    EXPECT_NE(zero.TryToConfig(c).find("planes=0"), std::string::npos);
}

TEST(MrcTopology, BaseRttAndBisection)
{
    // host links 100 Gb/s + 1 us, T0-T1 links 400 Gb/s + 2 us
    MrcTopologyConfig c = Clos(2, 8, 2, 2);
    c.fabricRate = DataRate("400Gbps");
    c.fabricDelay = MicroSeconds(2);
    Ptr<MrcTopology> t = Build(c);
    // data frame 4088 + 138 = 4226 bytes + 24 wire overhead = 4250 bytes = 34000 bits:
    // 340 ns at 100G, 85 ns at 400G; ack 226 + 24 = 250 bytes = 2000 bits: 20 ns, 5 ns.
    // longest path: host -> T0 -> T1 -> T0 -> host
    // data 340+1000 + 85+2000 + 85+2000 + 340+1000 = 6850; ack 20+1000+5+2000+5+2000+20+1000 =
    // 6050
    EXPECT_EQ(t->GetBaseRtt(4088, 138, 226), NanoSeconds(12900));
    // same-T0 path: 2 * (340 + 1000) + 2 * (20 + 1000)
    EXPECT_EQ(t->GetPathRtt(t->GetPaths(0, 1, 0)[0], 4088, 138, 226), NanoSeconds(4720));
    // default sizes: 4096 + 138 + 24 = 4258 B = 34064 bits (340 ns / 85 ns at the
    // simulator's 1 ns resolution, rounded down); SACK 154 + 24 = 178 B = 1424 bits (14 / 3 ns)
    EXPECT_EQ(t->GetBaseRtt(4096), NanoSeconds(340 + 85 + 85 + 340 + 14 + 3 + 3 + 14 + 12000));

    // bisection: hosts 8 x 100G = 800G, T0 uplinks 4 x 2 x 400G = 3.2T: half of 800G x 2 planes
    EXPECT_EQ(t->GetBisectionBandwidth(), 800000000000ULL);
    // oversubscribed Clos: 16 hosts, 4 T0 with 2 uplinks of 100G: uplinks 800G < hosts 1.6T
    EXPECT_EQ(Build(Clos(1, 16, 4, 2))->GetBisectionBandwidth(), 400000000000ULL);
    // full fat-tree k = 4: 16 x 100G / 2
    EXPECT_EQ(Build(FatTree(1, 4))->GetBisectionBandwidth(), 800000000000ULL);
    // one T0: host links only
    EXPECT_EQ(Build(Clos(1, 4, 4, 1))->GetBisectionBandwidth(), 200000000000ULL);
    Simulator::Destroy();
}

TEST(MrcDualForwarding, SrvSixInsideTheLocatorBlockEcmpOutside)
{
    Ptr<MrcDualForwarding> fwd = CreateObject<MrcDualForwarding>();
    fwd->GetSrv6()->SetAttribute("Usid", UintegerValue(0x1000));
    fwd->GetSrv6()->AddUsidRoute(0x1401, 2);
    fwd->GetEcmp()->AddRoute(Ipv6Address("fd00:0:0:1::5"), 128, 1);
    fwd->GetEcmp()->AddRoute(Ipv6Address("fd00:0:0:1::5"), 128, 3);

    MrcPacketInfo info;
    info.dst = Ipv6Address("fcbb:bb00:1000:1401:1003:1804::");
    EXPECT_EQ(fwd->Route(info, 0), 2);
    EXPECT_TRUE(info.rewriteDst);
    EXPECT_EQ(info.dst, Ipv6Address("fcbb:bb00:1401:1003:1804::"));
    // an SRv6 packet the static table cannot forward is dropped, never hashed
    MrcPacketInfo unknown;
    unknown.dst = Ipv6Address("fcbb:bb00:1000:1455::");
    EXPECT_EQ(fwd->Route(unknown, 0), MrcForwarding::NO_ROUTE);
    MrcPacketInfo foreign;
    foreign.dst = Ipv6Address("fcbb:bb00:1001:1401::");
    EXPECT_EQ(fwd->Route(foreign, 0), MrcForwarding::NO_ROUTE);
    EXPECT_EQ(fwd->GetNoRouteCount(), 2u);

    MrcPacketInfo ecmp;
    ecmp.dst = Ipv6Address("fd00:0:0:1::5");
    const int32_t first = fwd->Route(ecmp, 0);
    EXPECT_TRUE(first == 1 || first == 3);
    EXPECT_FALSE(ecmp.rewriteDst);
    // port state reaches the ECMP engine
    fwd->SetPortState(1, false);
    EXPECT_FALSE(fwd->GetEcmp()->IsPortUp(1));
    EXPECT_EQ(fwd->Route(ecmp, 0), 3);

    // another locator block: the old carriers are ordinary addresses now (no ECMP route)
    fwd->SetLocatorBlock(0xfc000000);
    UintegerValue block;
    fwd->GetSrv6()->GetAttribute("LocatorBlock", block);
    EXPECT_EQ(block.Get(), 0xfc000000u);
    MrcPacketInfo old;
    old.dst = Ipv6Address("fcbb:bb00:1000:1401::");
    EXPECT_EQ(fwd->Route(old, 0), MrcForwarding::NO_ROUTE);
    MrcPacketInfo now;
    now.dst = Ipv6Address("fc00:0:1000:1401::");
    EXPECT_EQ(fwd->Route(now, 0), 2);
}

// ---------------------------------------------------------------------------
// Probes

namespace
{

/// Where probes went.
struct ProbeLog
{
    std::map<uint32_t, std::vector<uint32_t>> visited;         //!< probe id -> switch ids
    std::map<uint32_t, std::pair<uint32_t, uint32_t>> arrived; //!< probe id -> (host, plane)
    std::map<uint32_t, Time> arrivedAt;                        //!< probe id -> time
};

ProbeLog* g_log = nullptr;

void
OnForward(uint32_t sw, Ptr<const Packet> p, uint32_t, uint32_t, uint8_t)
{
    MrcPacketInfo info;
    ASSERT_TRUE(MrcParsePacket(p, info));
    g_log->visited[info.flowLabel].push_back(sw);
}

void
OnNicRx(uint32_t host, uint32_t plane, Ptr<MrcNetDevice>, Ptr<Packet> p, uint16_t, uint8_t)
{
    MrcPacketInfo info;
    ASSERT_TRUE(MrcParsePacket(p, info));
    EXPECT_TRUE(g_log->arrived.emplace(info.flowLabel, std::make_pair(host, plane)).second);
    g_log->arrivedAt[info.flowLabel] = Simulator::Now();
}

void
Attach(Ptr<MrcTopology> t, ProbeLog& log)
{
    g_log = &log;
    for (uint32_t s = 0; s < t->GetNSwitches(); ++s)
    {
        t->GetSwitchById(s)->TraceConnectWithoutContext("Forward",
                                                        MakeBoundCallback(&OnForward, s));
    }
    for (uint32_t h = 0; h < t->GetNHosts(); ++h)
    {
        for (uint32_t p = 0; p < t->GetNPlanes(); ++p)
        {
            t->GetNicPort(h, p)->SetClassReceiveCallback(MakeBoundCallback(&OnNicRx, h, p));
        }
    }
}

/// An IPv6/UDP probe from one NIC port to another, flow label = id.
Ptr<Packet>
MakeProbe(Ptr<MrcTopology> t, uint32_t src, uint32_t dst, uint32_t plane, uint32_t id)
{
    Ptr<Packet> p = Create<Packet>(64);
    UdpHeader udp;
    udp.SetSourcePort(static_cast<uint16_t>(49152 + id % 16384));
    udp.SetDestinationPort(4000);
    p->AddHeader(udp);
    Ipv6Header ip;
    ip.SetSource(t->GetAddress(src, plane));
    ip.SetDestination(t->GetAddress(dst, plane));
    ip.SetNextHeader(17);
    ip.SetHopLimit(64);
    ip.SetFlowLabel(id);
    ip.SetPayloadLength(static_cast<uint16_t>(p->GetSize()));
    p->AddHeader(ip);
    return p;
}

void
SendEcmp(Ptr<MrcTopology> t, uint32_t src, uint32_t dst, uint32_t plane, uint32_t id)
{
    t->GetNicPort(src, plane)
        ->SendToClass(MakeProbe(t, src, dst, plane, id), MrcNetDevice::ETHER_TYPE_IPV6, 0);
}

void
SendSrv6(Ptr<MrcTopology> t, const MrcPath& path, uint32_t id)
{
    Ptr<Packet> p = MakeProbe(t, path.srcHost, path.dstHost, path.plane, id);
    MrcSrv6Encapsulate(p, t->GetAddress(path.srcHost, path.plane), path.carrier);
    t->GetNicPort(path.srcHost, path.plane)->SendToClass(p, MrcNetDevice::ETHER_TYPE_IPV6, 0);
}

/// All ordered pairs of distinct hosts on all planes, as (src, dst, plane).
std::vector<std::tuple<uint32_t, uint32_t, uint32_t>>
AllPairs(Ptr<MrcTopology> t)
{
    std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> v;
    for (uint32_t p = 0; p < t->GetNPlanes(); ++p)
    {
        for (uint32_t s = 0; s < t->GetNHosts(); ++s)
        {
            for (uint32_t d = 0; d < t->GetNHosts(); ++d)
            {
                if (s != d)
                {
                    v.emplace_back(s, d, p);
                }
            }
        }
    }
    return v;
}

} // namespace

TEST(MrcTopologyProbes, EcmpAllPairsAndEverySrv6Path)
{
    // 2 planes, 8 hosts, 2 hosts per T0 (4 T0), 2 T1 per plane
    Ptr<MrcTopology> t = Build(Clos(2, 8, 2, 2));
    ProbeLog log;
    Attach(t, log);
    uint32_t id = 1;
    std::map<uint32_t, std::tuple<uint32_t, uint32_t, uint32_t>> ecmp;
    for (const auto& [s, d, p] : AllPairs(t))
    {
        ecmp[id] = {s, d, p};
        Simulator::Schedule(MicroSeconds(id), &SendEcmp, t, s, d, p, id);
        ++id;
    }
    std::map<uint32_t, MrcPath> srv6;
    uint32_t nPaths = 0;
    for (uint32_t s = 0; s < 8; ++s)
    {
        for (uint32_t d = 0; d < 8; ++d)
        {
            for (const MrcPath& path : t->GetAllPaths(s, d))
            {
                srv6[id] = path;
                Simulator::Schedule(MicroSeconds(id), &SendSrv6, t, path, id);
                ++id;
                ++nPaths;
            }
        }
    }
    // per plane and ordered pair: 1 path on the same T0 (8 pairs), else 2 (48 pairs)
    EXPECT_EQ(nPaths, 2u * (8 * 1 + 48 * 2));
    Simulator::Run();

    for (const auto& [pid, sdp] : ecmp)
    {
        auto [s, d, p] = sdp;
        auto it = log.arrived.find(pid);
        ASSERT_NE(it, log.arrived.end()) << "ECMP probe " << s << "->" << d << " plane " << p;
        EXPECT_EQ(it->second, std::make_pair(d, p));
        // hop count: 1 switch on the same T0, 3 otherwise, all of the plane
        const std::vector<uint32_t>& v = log.visited[pid];
        EXPECT_EQ(v.size(), (s / 2 == d / 2) ? 1u : 3u);
    }
    for (const auto& [pid, path] : srv6)
    {
        auto it = log.arrived.find(pid);
        ASSERT_NE(it, log.arrived.end()) << "SRv6 probe along " << path.carrier;
        EXPECT_EQ(it->second, std::make_pair(path.dstHost, path.plane));
        EXPECT_EQ(log.visited[pid], path.switches) << path.carrier;
    }
    EXPECT_EQ(log.arrived.size(), ecmp.size() + srv6.size());
    Simulator::Destroy();
}

TEST(MrcTopologyProbes, BaseRttIsTheSimulatedOneWayPlusAck)
{
    // One data-size probe along the longest path arrives after exactly the data half of the
    // base RTT (the probe's frame size stands in for the MRC data frame).
    MrcTopologyConfig c = Clos(1, 4, 2, 2);
    c.fabricRate = DataRate("400Gbps");
    c.fabricDelay = MicroSeconds(2);
    Ptr<MrcTopology> t = Build(c);
    ProbeLog log;
    Attach(t, log);
    MrcPath path = t->GetPaths(0, 3, 0)[0];
    Simulator::Schedule(Seconds(0), &SendSrv6, t, path, 7);
    Simulator::Run();
    ASSERT_EQ(log.arrivedAt.count(7), 1u);
    // probe: 64 + UDP 8 + inner 40 + outer 40 + Ethernet 14 = 166 bytes, so a data frame of
    // "mtu" 166 - overhead; with a zero-byte ack the RTT minus the 4 propagation delays and
    // the ack's minimum frames is the one-way time
    const Time oneWay = log.arrivedAt[7];
    const Time rttData = t->GetPathRtt(path, 166, 0, 0);
    const Time ack = t->GetPathRtt(path, 0, 0, 0) / 2; // min frames both ways, halved
    EXPECT_EQ(oneWay, rttData - ack);
    Simulator::Destroy();
}

TEST(MrcTopologyProbes, LinkFailureLosesExactlyItsPathsAndEcmpConverges)
{
    MrcTopologyHelper th(Clos(2, 8, 2, 2));
    th.SetNames(false);
    th.SetRouteManagerAttribute("ConvergenceDelay", TimeValue(MicroSeconds(500)));
    Ptr<MrcTopology> t = th.Build();
    ProbeLog log;
    Attach(t, log);
    const MrcTopologyLink& failed =
        t->GetLink(t->GetSwitch(0, MrcTier::T0, 0), t->GetSwitch(0, MrcTier::T1, 1));
    const Time failAt = MilliSeconds(1);
    Simulator::Schedule(failAt, &MrcChannel::SetLinkUp, failed.channel, false);

    // SRv6 probes on every path, 10 us after the failure
    uint32_t id = 1;
    std::map<uint32_t, MrcPath> srv6;
    for (uint32_t s = 0; s < 8; ++s)
    {
        for (uint32_t d = 0; d < 8; ++d)
        {
            for (const MrcPath& path : t->GetAllPaths(s, d))
            {
                srv6[id] = path;
                Simulator::Schedule(failAt + MicroSeconds(10) + NanoSeconds(100 * id),
                                    &SendSrv6,
                                    t,
                                    path,
                                    id);
                ++id;
            }
        }
    }
    // ECMP probes before convergence (10 us after) and after it (600 us after)
    std::map<uint32_t, std::tuple<uint32_t, uint32_t, uint32_t>> early, late;
    for (uint32_t round = 0; round < 4; ++round)
    {
        for (const auto& [s, d, p] : AllPairs(t))
        {
            early[id] = {s, d, p};
            Simulator::Schedule(failAt + MicroSeconds(100) + NanoSeconds(100 * id),
                                &SendEcmp,
                                t,
                                s,
                                d,
                                p,
                                id);
            ++id;
            late[id] = {s, d, p};
            Simulator::Schedule(failAt + MicroSeconds(600) + NanoSeconds(100 * id),
                                &SendEcmp,
                                t,
                                s,
                                d,
                                p,
                                id);
            ++id;
        }
    }
    bool reachableAfter = true;
    Simulator::Schedule(failAt + MicroSeconds(1), [&]() {
        for (const auto& [s, d, p] : AllPairs(t))
        {
            reachableAfter = reachableAfter && t->IsReachable(s, d, p);
        }
    });
    Simulator::Run();

    uint32_t through = 0;
    for (const auto& [pid, path] : srv6)
    {
        const bool usesLink =
            std::find(path.links.begin(), path.links.end(), failed.id) != path.links.end();
        through += usesLink;
        EXPECT_EQ(log.arrived.count(pid), usesLink ? 0u : 1u) << path.carrier;
        EXPECT_EQ(t->IsPathUp(path), !usesLink);
    }
    // plane 0: T0 0 (hosts 0, 1) to the 6 hosts under other T0 via T1 1, both ways: 24 paths
    EXPECT_EQ(through, 24u);
    EXPECT_TRUE(reachableAfter);
    uint32_t earlyLost = 0;
    for (const auto& [pid, sdp] : early)
    {
        earlyLost += log.arrived.count(pid) == 0;
    }
    EXPECT_GT(earlyLost, 0u); // remote T0s still hash onto T1 1 towards T0 0
    for (const auto& [pid, sdp] : late)
    {
        auto [s, d, p] = sdp;
        EXPECT_EQ(log.arrived.count(pid), 1u) << s << "->" << d << " plane " << p;
    }
    EXPECT_EQ(t->GetRouteManager(0)->GetNRecomputations(), 2u);
    Simulator::Destroy();
}

// ---------------------------------------------------------------------------
// The example program

namespace
{

namespace fs = std::filesystem;

} // namespace

TEST(MrcTopologyExample, WritesTheShapeAndRejectsBadOptions)
{
    const std::string bin = ExampleBinary("mrc-topology");
    if (bin.empty())
    {
        GTEST_SKIP() << "mrc-topology not found (MRC_EXAMPLES_DIR unset, no examples/ beside "
                        "the test binary)";
    }
    const MrcTest::ScopedTempDir tmp("mrc-topology-test");
    const fs::path dir = fs::path(tmp.Path()) / "out"; // the example makes it
    auto [rc, text] = RunCommand(bin +
                                 " --planes=3 --hosts=20 --hostsPerT0=5 --t1PerPlane=3 --src=0 "
                                 "--dst=19 --out=" +
                                 dir.string());
    ASSERT_EQ(rc, 0) << text;
    EXPECT_NE(text.find("switches per plane: T0 4, T1 3, T2 0; total 21"), std::string::npos)
        << text;
    const std::string js = ReadFile((dir / "topology.json").string());
    for (const char* expected : {"\"schema\": 1",
                                 "\"planes\": 3",
                                 "\"hosts\": 20",
                                 "\"switchesPerPlane\": {\"t0\": 4, \"t1\": 3, \"t2\": 0}",
                                 "\"links\": {\"total\": 96, \"host\": 60, \"t0t1\": 36",
                                 // 4 hops: 4 x (340 + 14) ns serialization + 8 x 1 us
                                 "\"baseRttNs\": 9416",
                                 // min(20 x 100G, 4 x 3 x 100G) / 2 x 3 planes
                                 "\"bisectionBps\": 1800000000000",
                                 "\"plane\": 2, \"count\": 3",
                                 "\"fcbb:bb00:3000:3402:3003:3804::\""})
    {
        EXPECT_NE(js.find(expected), std::string::npos) << expected << " not in " << js;
    }

    auto [rc2, t2] = RunCommand(bin + " --hosts=15");
    EXPECT_EQ(rc2, 2);
    EXPECT_NE(t2.find("hosts=15 is not a multiple of hostsPerT0=4"), std::string::npos) << t2;
    auto [rc3, t3] = RunCommand(bin + " --topology=torus");
    EXPECT_EQ(rc3, 2);
    EXPECT_NE(t3.find("--topology='torus'"), std::string::npos) << t3;
    auto [rc4, t4] = RunCommand(bin + " --dst=20");
    EXPECT_EQ(rc4, 2);
    EXPECT_NE(t4.find("--dst='20'"), std::string::npos) << t4;
}
