/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Route convergence of MrcEcmpRouteManager on a small leaf-spine:
//
//        S1      S2          A: port 0 -> S1, port 1 -> S2, port 2 -> host HA
//       /  \    /  \         S1, S2: port 0 -> A, port 1 -> B
//      A    \  /    B        B: port 0 -> S1, port 1 -> S2, port 2 -> host HB
//      |     \/     |
//      HA          HB
//
// The switches' local reaction to a failure of their own link (SetPortState at once)
// is what the switch node does; here the test wires it to the channel's trace.

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/enum.h"
#include "ns3/mrc-channel.h"
#include "ns3/mrc-ecmp-forwarding.h"
#include "ns3/mrc-ecmp-route-manager.h"
#include "ns3/mrc-link-helper.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-raw-traffic.h"
#include "ns3/mrc-switch-helper.h"
#include "ns3/mrc-switch-node.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

using Ports = std::vector<uint32_t>;

/// Route tables the Fabric tests build with (each runs with per-host and aggregated ones).
MrcEcmpRouteManager::Tables g_tables = MrcEcmpRouteManager::TABLES_PER_HOST;

/// The leaf-spine of the file comment.
struct Fabric
{
    enum
    {
        A = 0,
        S1 = 1,
        S2 = 2,
        B = 3
    };

    Ptr<MrcEcmpRouteManager> mgr;
    std::vector<Ptr<MrcEcmpForwarding>> engine;       //!< by switch index
    std::vector<std::vector<Ptr<MrcNetDevice>>> port; //!< by switch index, port
    Ptr<MrcChannel> s2b;                              //!< the link S2 port 1 - B port 1
    Ipv6Address ha{"2001:db8::a"};
    Ipv6Address hb{"2001:db8::b"};
    std::vector<Time> recomputedAt;

    Ports Route(uint32_t sw, Ipv6Address dst) const
    {
        return engine[sw]->GetNextHops(dst);
    }
};

void
LocalReaction(Ptr<MrcEcmpForwarding> engine, uint32_t port, bool up)
{
    engine->SetPortState(port, up);
}

void
RecordRecompute(Fabric* f, Time now, uint32_t switches)
{
    EXPECT_EQ(switches, 4u);
    EXPECT_EQ(now, Simulator::Now());
    f->recomputedAt.push_back(now);
}

void
Build(Fabric& f, Time delay, bool enabled = true)
{
    NodeContainer sw;
    sw.Create(4);
    NodeContainer hosts;
    hosts.Create(2);
    f.engine.clear();
    f.port.assign(4, std::vector<Ptr<MrcNetDevice>>(3));
    for (uint32_t i = 0; i < 4; ++i)
    {
        f.engine.push_back(CreateObject<MrcEcmpForwarding>());
    }
    MrcLinkHelper link;
    auto join = [&](uint32_t a, uint32_t pa, uint32_t b, uint32_t pb) {
        NetDeviceContainer d = link.Install(sw.Get(a), sw.Get(b));
        f.port[a][pa] = DynamicCast<MrcNetDevice>(d.Get(0));
        f.port[b][pb] = DynamicCast<MrcNetDevice>(d.Get(1));
        Ptr<MrcChannel> ch = f.port[a][pa]->GetMrcChannel();
        ch->TraceConnectWithoutContext("LinkStateChange",
                                       MakeBoundCallback(&LocalReaction, f.engine[a], pa));
        ch->TraceConnectWithoutContext("LinkStateChange",
                                       MakeBoundCallback(&LocalReaction, f.engine[b], pb));
        return ch;
    };
    join(Fabric::A, 0, Fabric::S1, 0);
    join(Fabric::A, 1, Fabric::S2, 0);
    join(Fabric::S1, 1, Fabric::B, 0);
    f.s2b = join(Fabric::S2, 1, Fabric::B, 1);
    NetDeviceContainer da = link.Install(sw.Get(Fabric::A), hosts.Get(0));
    f.port[Fabric::A][2] = DynamicCast<MrcNetDevice>(da.Get(0));
    NetDeviceContainer db = link.Install(sw.Get(Fabric::B), hosts.Get(1));
    f.port[Fabric::B][2] = DynamicCast<MrcNetDevice>(db.Get(0));

    f.mgr = CreateObject<MrcEcmpRouteManager>();
    f.mgr->SetAttribute("ConvergenceDelay", TimeValue(delay));
    f.mgr->SetAttribute("Enabled", BooleanValue(enabled));
    f.mgr->SetAttribute("Tables", EnumValue(g_tables));
    for (uint32_t i = 0; i < 4; ++i)
    {
        EXPECT_EQ(f.mgr->AddSwitch(sw.Get(i), f.engine[i], f.port[i]), i);
    }
    f.mgr->AddHost(f.ha, f.port[Fabric::A][2]);
    f.mgr->AddHost(f.hb, f.port[Fabric::B][2]);
    f.mgr->TraceConnectWithoutContext("RoutesRecomputed", MakeBoundCallback(&RecordRecompute, &f));
    f.mgr->ComputeAndInstall();
}

/// Routes of the intact fabric.
void
ExpectIntact(const Fabric& f)
{
    EXPECT_EQ(f.Route(Fabric::A, f.hb), (Ports{0, 1}));
    EXPECT_EQ(f.Route(Fabric::S1, f.hb), (Ports{1}));
    EXPECT_EQ(f.Route(Fabric::S2, f.hb), (Ports{1}));
    EXPECT_EQ(f.Route(Fabric::B, f.hb), (Ports{2}));
    EXPECT_EQ(f.Route(Fabric::A, f.ha), (Ports{2}));
    EXPECT_EQ(f.Route(Fabric::S1, f.ha), (Ports{0}));
    EXPECT_EQ(f.Route(Fabric::S2, f.ha), (Ports{0}));
    EXPECT_EQ(f.Route(Fabric::B, f.ha), (Ports{0, 1}));
}

/// Routes once the control plane knows S2-B is down.
void
ExpectConverged(const Fabric& f)
{
    EXPECT_EQ(f.Route(Fabric::A, f.hb), (Ports{0}));
    EXPECT_EQ(f.Route(Fabric::S1, f.hb), (Ports{1}));
    EXPECT_EQ(f.Route(Fabric::S2, f.hb), (Ports{0})); // S2 -> A -> S1 -> B, 3 hops
    EXPECT_EQ(f.Route(Fabric::B, f.hb), (Ports{2}));
    EXPECT_EQ(f.Route(Fabric::A, f.ha), (Ports{2}));
    EXPECT_EQ(f.Route(Fabric::S1, f.ha), (Ports{0}));
    EXPECT_EQ(f.Route(Fabric::S2, f.ha), (Ports{0}));
    EXPECT_EQ(f.Route(Fabric::B, f.ha), (Ports{0}));
}

void
SetLink(Ptr<MrcChannel> ch, bool up)
{
    ch->SetLinkUp(up);
}

} // namespace

/// The Fabric tests, once per kind of route table.
class MrcEcmpConvergence : public ::testing::TestWithParam<MrcEcmpRouteManager::Tables>
{
  protected:
    void SetUp() override
    {
        g_tables = GetParam();
    }
};

INSTANTIATE_TEST_SUITE_P(Tables,
                         MrcEcmpConvergence,
                         ::testing::Values(MrcEcmpRouteManager::TABLES_PER_HOST,
                                           MrcEcmpRouteManager::TABLES_AGGREGATED));

TEST_P(MrcEcmpConvergence, InstallsShortestPathPortSets)
{
    Fabric f;
    Build(f, MilliSeconds(10));
    EXPECT_EQ(f.mgr->GetNSwitches(), 4u);
    EXPECT_EQ(f.mgr->GetNLinks(), 6u); // 4 switch links + 2 host links
    ExpectIntact(f);
    for (uint32_t s = 0; s < 4; ++s)
    {
        EXPECT_EQ(f.engine[s]->GetNRoutes(), 2u);
    }
    EXPECT_EQ(f.mgr->GetNRouteChanges(), 8u);
    EXPECT_EQ(f.mgr->GetNRecomputations(), 1u);
    ASSERT_EQ(f.recomputedAt.size(), 1u);
    EXPECT_EQ(f.recomputedAt[0], Seconds(0));
    // Recomputing an unchanged fabric changes nothing.
    f.mgr->ComputeAndInstall();
    EXPECT_EQ(f.mgr->GetNRouteChanges(), 8u);
    Simulator::Destroy();
}

TEST_P(MrcEcmpConvergence, RemoteSwitchesConvergeExactlyAfterTheDelay)
{
    const Time delay = MilliSeconds(10);
    const Time failAt = MilliSeconds(1);
    const Time recoverAt = MilliSeconds(30);
    Fabric f;
    Build(f, delay);
    Simulator::Schedule(failAt, &SetLink, f.s2b, false);
    Simulator::Schedule(recoverAt, &SetLink, f.s2b, true);

    std::vector<Ports> seen;
    auto look = [&f, &seen]() { seen.push_back(f.Route(Fabric::A, f.hb)); };
    // At the failure, the ends react locally: S2 and B take port 1 down, A's group is untouched.
    Simulator::Schedule(failAt + NanoSeconds(1), [&f]() {
        EXPECT_FALSE(f.engine[Fabric::S2]->IsPortUp(1));
        EXPECT_FALSE(f.engine[Fabric::B]->IsPortUp(1));
        EXPECT_TRUE(f.engine[Fabric::A]->IsPortUp(1));
        ExpectIntact(f);
    });
    Simulator::Schedule(failAt + delay - NanoSeconds(1), look);
    Simulator::Schedule(failAt + delay + NanoSeconds(1), look);
    Simulator::Schedule(failAt + delay + NanoSeconds(1), [&f]() { ExpectConverged(f); });
    // Recovery: the ends bring the port back at once, but a converged group no longer
    // names it (S2's route to HB still goes via A) until the control plane learns it.
    Simulator::Schedule(recoverAt + NanoSeconds(1), [&f]() {
        EXPECT_TRUE(f.engine[Fabric::S2]->IsPortUp(1));
        ExpectConverged(f);
    });
    Simulator::Schedule(recoverAt + delay - NanoSeconds(1), look);
    Simulator::Schedule(recoverAt + delay + NanoSeconds(1), look);
    Simulator::Schedule(recoverAt + delay + NanoSeconds(1), [&f]() { ExpectIntact(f); });
    Simulator::Run();

    ASSERT_EQ(seen.size(), 4u);
    EXPECT_EQ(seen[0], (Ports{0, 1}));
    EXPECT_EQ(seen[1], (Ports{0}));
    EXPECT_EQ(seen[2], (Ports{0}));
    EXPECT_EQ(seen[3], (Ports{0, 1}));
    ASSERT_EQ(f.recomputedAt.size(), 3u);
    EXPECT_EQ(f.recomputedAt[1], failAt + delay);
    EXPECT_EQ(f.recomputedAt[2], recoverAt + delay);
    // Failure: A, S2 (to HB) and B (to HA) changed; recovery: the same three back.
    // Aggregated tables count runs: at the failure S2's runs to HA and HB (now both via
    // port 0, consecutive addresses) merge into one (one run changed, one removed), and
    // split again at the recovery.
    EXPECT_EQ(f.mgr->GetNRouteChanges(),
              g_tables == MrcEcmpRouteManager::TABLES_PER_HOST ? 8u + 3u + 3u : 8u + 4u + 4u);
    Simulator::Destroy();
}

TEST_P(MrcEcmpConvergence, ZeroDelayIsImmediate)
{
    Fabric f;
    Build(f, Time(0));
    Simulator::Schedule(MilliSeconds(1), [&f]() {
        f.s2b->SetLinkUp(false);
        ExpectConverged(f);
    });
    Simulator::Schedule(MilliSeconds(2), [&f]() {
        f.s2b->SetLinkUp(true);
        ExpectIntact(f);
    });
    Simulator::Run();
    ASSERT_EQ(f.recomputedAt.size(), 3u);
    EXPECT_EQ(f.recomputedAt[1], MilliSeconds(1));
    EXPECT_EQ(f.recomputedAt[2], MilliSeconds(2));
    Simulator::Destroy();
}

TEST_P(MrcEcmpConvergence, FlapShorterThanTheDelayIsReplayedInOrder)
{
    const Time delay = MilliSeconds(10);
    Fabric f;
    Build(f, delay);
    Simulator::Schedule(MilliSeconds(1), &SetLink, f.s2b, false);
    Simulator::Schedule(MilliSeconds(3), &SetLink, f.s2b, true);
    Simulator::Schedule(MilliSeconds(12), [&f]() { ExpectConverged(f); });
    Simulator::Schedule(MilliSeconds(14), [&f]() { ExpectIntact(f); });
    Simulator::Run();
    ASSERT_EQ(f.recomputedAt.size(), 3u);
    EXPECT_EQ(f.recomputedAt[1], MilliSeconds(11));
    EXPECT_EQ(f.recomputedAt[2], MilliSeconds(13));
    Simulator::Destroy();
}

TEST_P(MrcEcmpConvergence, StaticRoutesNeverChange)
{
    for (int mode = 0; mode < 2; ++mode)
    {
        Fabric f;
        if (mode == 0)
        {
            Build(f, MilliSeconds(10), false); // Enabled=false
        }
        else
        {
            Build(f, Time::Max()); // infinite delay
        }
        EXPECT_TRUE(f.mgr->IsStatic());
        Simulator::Schedule(MilliSeconds(1), &SetLink, f.s2b, false);
        Simulator::Schedule(MilliSeconds(50), [&f]() {
            ExpectIntact(f);
            // Only the local reaction: S2 cannot use its failed port, so its group to HB
            // has no live port left (the engine drops: no route).
            EXPECT_FALSE(f.engine[Fabric::S2]->IsPortUp(1));
        });
        Simulator::Schedule(MilliSeconds(60), &SetLink, f.s2b, true);
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        ExpectIntact(f);
        EXPECT_EQ(f.recomputedAt.size(), 1u);
        EXPECT_EQ(f.mgr->GetNRecomputations(), 1u);
        Simulator::Destroy();
    }
}

TEST_P(MrcEcmpConvergence, UnreachableHostHasNoRoute)
{
    Fabric f;
    Build(f, Time(0));
    // Cut HB's host link: no switch has a route to HB any more.
    Ptr<MrcChannel> hostLink = f.port[Fabric::B][2]->GetMrcChannel();
    hostLink->SetLinkUp(false);
    for (uint32_t s = 0; s < 4; ++s)
    {
        EXPECT_TRUE(f.Route(s, f.hb).empty()) << "switch " << s;
        EXPECT_EQ(f.engine[s]->GetNRoutes(), 1u);
    }
    hostLink->SetLinkUp(true);
    ExpectIntact(f);
    Simulator::Destroy();
}

// ---- With real switch nodes, links and traffic ----

namespace
{

struct Drops
{
    std::vector<Time> at; //!< times of S2's drops
};

void
RecordDrop(Drops* d, Ptr<const Packet>, uint32_t, MrcSwitchDropReason)
{
    d->at.push_back(Simulator::Now());
}

/// Run 8 flows HA -> HB over the leaf-spine built from MrcSwitchNodes; S2-B fails at
/// 20 us. Returns per-flow received packets; fills sent and S2's drop times.
std::vector<uint64_t>
RunTraffic(bool enabled, Time delay, uint64_t& sent, uint64_t& lost, Drops& drops)
{
    MrcSwitchHelper sh;
    sh.SetForwarding("ns3::MrcEcmpForwarding");
    sh.SetSwitchAttribute("EcnEnabled", BooleanValue(false));
    MrcLinkHelper link;
    link.SetDeviceAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
    link.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    std::vector<Ptr<MrcSwitchNode>> sw;
    for (int i = 0; i < 4; ++i)
    {
        sw.push_back(sh.CreateSwitch());
    }
    MrcSwitchHelper::ConnectSwitches(link, sw[Fabric::A], sw[Fabric::S1]);
    MrcSwitchHelper::ConnectSwitches(link, sw[Fabric::A], sw[Fabric::S2]);
    MrcSwitchHelper::ConnectSwitches(link, sw[Fabric::S1], sw[Fabric::B]);
    auto s2b = MrcSwitchHelper::ConnectSwitches(link, sw[Fabric::S2], sw[Fabric::B]);
    Ptr<Node> ha = CreateObject<Node>();
    Ptr<Node> hb = CreateObject<Node>();
    uint32_t pa = MrcSwitchHelper::ConnectHost(link, sw[Fabric::A], ha);
    uint32_t pb = MrcSwitchHelper::ConnectHost(link, sw[Fabric::B], hb);
    const Ipv6Address hbAddr("fd00::b");

    Ptr<MrcEcmpRouteManager> mgr = CreateObject<MrcEcmpRouteManager>();
    mgr->SetAttribute("Enabled", BooleanValue(enabled));
    mgr->SetAttribute("ConvergenceDelay", TimeValue(delay));
    for (auto& s : sw)
    {
        mgr->AddSwitch(s);
    }
    mgr->AddHost(Ipv6Address("fd00::a"), sw[Fabric::A]->GetPort(pa));
    mgr->AddHost(hbAddr, sw[Fabric::B]->GetPort(pb));
    mgr->ComputeAndInstall();

    Ptr<MrcRawSink> sink = CreateObject<MrcRawSink>();
    hb->AddApplication(sink);
    std::vector<Ptr<MrcRawSource>> sources;
    std::vector<Ipv6Address> local;
    for (uint32_t i = 0; i < 8; ++i)
    {
        uint8_t b[16] = {0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0a, 0};
        b[15] = static_cast<uint8_t>(i);
        local.emplace_back(b);
        Ptr<MrcRawSource> s = CreateObject<MrcRawSource>();
        s->SetAttribute("Local", Ipv6AddressValue(local.back()));
        s->SetAttribute("Remote", Ipv6AddressValue(hbAddr));
        s->SetAttribute("MaxBytes", UintegerValue(100 * 1024));
        s->SetAttribute("UdpSourcePort", UintegerValue(49152 + 101 * i));
        s->SetAttribute("DataRate", DataRateValue(DataRate("10Gbps")));
        ha->AddApplication(s);
        sources.push_back(s);
    }
    sw[Fabric::S2]->TraceConnectWithoutContext("Drop", MakeBoundCallback(&RecordDrop, &drops));
    Ptr<MrcChannel> ch = sw[Fabric::S2]->GetPort(s2b.first)->GetMrcChannel();
    Simulator::Schedule(MicroSeconds(20), &SetLink, ch, false);
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();

    sent = 0;
    lost = ch->GetLostPackets();
    for (auto& s : sw)
    {
        lost += s->GetTotalDropPackets();
    }
    std::vector<uint64_t> rx;
    for (uint32_t i = 0; i < 8; ++i)
    {
        sent += sources[i]->GetSentPackets();
        rx.push_back(sink->GetStats(local[i]).packets);
    }
    Simulator::Destroy();
    return rx;
}

} // namespace

TEST(MrcEcmpConvergenceTraffic, SwitchNodesLoseTrafficOnlyUntilConvergence)
{
    const Time delay = MicroSeconds(30);
    uint64_t sent = 0;
    uint64_t lost = 0;
    Drops drops;
    std::vector<uint64_t> rx = RunTraffic(true, delay, sent, lost, drops);
    uint64_t received = 0;
    for (uint64_t r : rx)
    {
        received += r;
    }
    EXPECT_EQ(sent, 8u * 100u);
    EXPECT_EQ(received + lost, sent); // every packet is received or counted lost
    EXPECT_GT(lost, 0u);              // some flows crossed S2 in the window
    ASSERT_FALSE(drops.at.empty());
    for (Time t : drops.at)
    {
        EXPECT_GE(t, MicroSeconds(20));
        EXPECT_LE(t, MicroSeconds(20) + delay); // no loss at S2 after convergence
    }

    // Static routes: the flows hashed to S2 lose everything after the failure.
    Drops staticDrops;
    uint64_t staticLost = 0;
    std::vector<uint64_t> srx = RunTraffic(false, delay, sent, staticLost, staticDrops);
    uint64_t sreceived = 0;
    for (uint64_t r : srx)
    {
        sreceived += r;
    }
    EXPECT_EQ(sreceived + staticLost, sent);
    EXPECT_GT(staticLost, lost);
    EXPECT_GT(staticDrops.at.back(), MicroSeconds(20) + delay);
}
