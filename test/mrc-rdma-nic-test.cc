/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RDMA NIC core: memory-region placement records, the fixed-entropy path selector, PSN
// arithmetic, queue-pair creation and demultiplexing, and the per-port scheduler on a
// direct host-to-host link (no switch).

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-cc-state-header.h"
#include "ns3/mrc-congestion-ops.h"
#include "ns3/mrc-icrc-trailer.h"
#include "ns3/mrc-link-helper.h"
#include "ns3/mrc-memory-region.h"
#include "ns3/mrc-meth-header.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-opcodes.h"
#include "ns3/mrc-packet-info.h"
#include "ns3/mrc-path-selector.h"
#include "ns3/mrc-queue-pair.h"
#include "ns3/mrc-rdma-helper.h"
#include "ns3/mrc-rdma-nic.h"
#include "ns3/mrc-reth-header.h"
#include "ns3/mrc-roce-queue-pair.h"
#include "ns3/mrc-seth-header.h"
#include "ns3/mrc-srv6-encap.h"
#include "ns3/mrc-traffic-class.h"
#include "ns3/mrc-tseth-header.h"
#include "ns3/mrc-usid.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <limits>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Two hosts joined by one link, each with a NIC.
struct DirectPair
{
    Ptr<Node> a;
    Ptr<Node> b;
    Ptr<MrcRdmaNic> nicA;
    Ptr<MrcRdmaNic> nicB;
    Ptr<MrcNetDevice> devA;
    Ptr<MrcNetDevice> devB;
};

DirectPair
MakeDirectPair(MrcRdmaHelper& rdma, DataRate rate = DataRate("100Gbps"))
{
    DirectPair d;
    d.a = CreateObject<Node>();
    d.b = CreateObject<Node>();
    MrcLinkHelper link;
    link.SetDeviceAttribute("DataRate", DataRateValue(rate));
    link.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    NetDeviceContainer devs = link.Install(d.a, d.b);
    d.devA = DynamicCast<MrcNetDevice>(devs.Get(0));
    d.devB = DynamicCast<MrcNetDevice>(devs.Get(1));
    d.nicA = rdma.Install(d.a, d.devA, Ipv6Address("fd00::1"));
    d.nicB = rdma.Install(d.b, d.devB, Ipv6Address("fd00::2"));
    return d;
}

} // namespace

TEST(MrcMemoryRegion, InOrderPlacementIsOneInterval)
{
    Ptr<MrcMemoryRegion> mr = CreateObject<MrcMemoryRegion>();
    mr->Configure(7, 1000, 10000);
    EXPECT_EQ(mr->GetRkey(), 7u);
    for (uint64_t off = 0; off < 10000; off += 1000)
    {
        EXPECT_TRUE(mr->Place(1000 + off, 1000));
    }
    EXPECT_EQ(mr->GetBytesPlaced(), 10000u);
    EXPECT_EQ(mr->GetDuplicateBytes(), 0u);
    EXPECT_EQ(mr->GetIntervalCount(), 1u);
    EXPECT_EQ(mr->GetPlacements(), 10u);
    EXPECT_TRUE(mr->IsExactlyOnce(1000, 10000));
    EXPECT_FALSE(mr->IsExactlyOnce(1000, 9999));
}

TEST(MrcMemoryRegion, OutOfOrderDuplicatesAndBounds)
{
    Ptr<MrcMemoryRegion> mr = CreateObject<MrcMemoryRegion>();
    mr->Configure(1, 0, 100);
    EXPECT_TRUE(mr->Place(50, 10)); // [50,60)
    EXPECT_TRUE(mr->Place(10, 10)); // [10,20)
    EXPECT_EQ(mr->GetIntervalCount(), 2u);
    EXPECT_FALSE(mr->IsCovered(10, 50));
    EXPECT_TRUE(mr->Place(15, 40)); // [15,55): 5 + 5 bytes overlap
    EXPECT_EQ(mr->GetIntervalCount(), 1u);
    EXPECT_EQ(mr->GetDuplicateBytes(), 10u);
    EXPECT_EQ(mr->GetBytesPlaced(), 50u); // [10,60)
    EXPECT_TRUE(mr->IsCovered(10, 50));
    EXPECT_FALSE(mr->IsExactlyOnce(10, 50)); // duplicates
    EXPECT_FALSE(mr->Place(95, 6));          // beyond the end
    EXPECT_FALSE(mr->Place(uint64_t(-1), 2));
    EXPECT_TRUE(mr->Place(60, 0));
    EXPECT_EQ(mr->GetBytesPlaced(), 50u);
    mr->Clear();
    EXPECT_EQ(mr->GetIntervalCount(), 0u);
    EXPECT_TRUE(mr->Place(0, 100));
    EXPECT_TRUE(mr->IsExactlyOnce(0, 100));
}

TEST(MrcMemoryRegion, AdjacentPlacementsMerge)
{
    Ptr<MrcMemoryRegion> mr = CreateObject<MrcMemoryRegion>();
    mr->Configure(1, 0, 100);
    EXPECT_TRUE(mr->Place(20, 10));
    EXPECT_TRUE(mr->Place(40, 10));
    EXPECT_TRUE(mr->Place(30, 10)); // fills the gap exactly
    EXPECT_EQ(mr->GetIntervalCount(), 1u);
    EXPECT_EQ(mr->GetDuplicateBytes(), 0u);
    EXPECT_TRUE(mr->IsExactlyOnce(20, 30));
}

TEST(MrcPathSelector, LinuxFlowLabelAndUdpPort)
{
    // v = 256 * 257 = 65792 = 0x10100; v ^= v >> 20 (0); v ^= v >> 40 (0)
    EXPECT_EQ(MrcFixedEntropyPathSelector::FlowLabelOf(256, 257), 0x10100u);
    // low 14 bits 0x0100, bits 19..14 = 0x10100 >> 14 = 4: 0x0100 ^ 4 = 0x104, | 0xC000
    EXPECT_EQ(MrcFixedEntropyPathSelector::UdpSourcePortOf(0x10100), 0xc104);
    // v = 0xffffff * 0xfffffe = 0xfffffd000002; v >> 20 = 0xfffffd0, v ^= that:
    // 0xfffff2ffffd2; v >> 40 = 0xff, v ^= that: 0xfffff2ffff2d; & 0xfffff = 0xfff2d
    EXPECT_EQ(MrcFixedEntropyPathSelector::FlowLabelOf(0xffffff, 0xfffffe), 0xfff2du);
    // 0xfff2d: low 0x3f2d, high (0xfc000 >> 14) = 0x3f: 0x3f2d ^ 0x3f = 0x3f12 | 0xc000
    EXPECT_EQ(MrcFixedEntropyPathSelector::UdpSourcePortOf(0xfff2d), 0xff12);

    Ptr<MrcFixedEntropyPathSelector> s = CreateObject<MrcFixedEntropyPathSelector>();
    s->Init(256, 257, 4);
    MrcPathChoice c = s->Select(MrcPathSelector::NO_PORT, false);
    EXPECT_EQ(c.flowLabel, 0x10100u);
    EXPECT_EQ(c.udpSrcPort, 0xc104);
    EXPECT_EQ(c.port, 0x10100u % 4);
    EXPECT_TRUE(s->UsesPort(0));
    EXPECT_FALSE(s->UsesPort(1));
    // Same answer for a retransmission: the path is fixed.
    EXPECT_EQ(s->Select(2, true).udpSrcPort, 0xc104);

    Ptr<MrcFixedEntropyPathSelector> t = CreateObject<MrcFixedEntropyPathSelector>();
    t->SetAttribute("Port", UintegerValue(3));
    t->SetAttribute("Salt", UintegerValue(0x00104));
    t->Init(256, 257, 4);
    c = t->Select(MrcPathSelector::NO_PORT, false);
    EXPECT_EQ(c.port, 3u);
    EXPECT_EQ(c.flowLabel, 0x10004u);
    EXPECT_EQ(c.udpSrcPort, 0xc000); // 0x0004 ^ 4
}

TEST(MrcPathSelectorDeathTest, BadPortAborts)
{
    Ptr<MrcFixedEntropyPathSelector> s = CreateObject<MrcFixedEntropyPathSelector>();
    s->SetAttribute("Port", UintegerValue(2));
    EXPECT_DEATH(s->Init(1, 2, 2), "Port 2 but the NIC has 2 ports");
    Ptr<MrcFixedEntropyPathSelector> t = CreateObject<MrcFixedEntropyPathSelector>();
    t->AssignPort(4);
    EXPECT_DEATH(t->Init(1, 2, 4), "assigned port 4 but the NIC has 4 ports \\(0..3\\)");
}

TEST(MrcPathSelector, FlowLabelRuleUsesHalfOfFourPortsWhenBothEndsHaveEqualNumbers)
{
    // Why the port is assigned (session 44): each host's NIC numbers its QPs from 256, so
    // in a symmetric workload both ends of a connection often have the same number, and
    // the label of equal numbers is a square (here below 2^20: v = q * q). A square is 0
    // or 1 mod 4: the flow-label rule put no queue pair on ports 2 and 3.
    std::vector<uint32_t> perPort(4, 0);
    for (uint32_t q = 256; q < 256 + 64; ++q)
    {
        ++perPort[MrcFixedEntropyPathSelector::FlowLabelOf(q, q) % 4];
    }
    EXPECT_EQ(perPort, (std::vector<uint32_t>{32, 32, 0, 0}));
}

TEST(MrcPathSelector, AnAssignedPortWinsUnlessThePortAttributeOrTheFlowLabelRule)
{
    // 256 * 256 = 0x10000: label mod 4 = 0
    auto portOf = [](uint32_t assigned, const std::string& rule, uint32_t attribute) {
        Ptr<MrcFixedEntropyPathSelector> s = CreateObject<MrcFixedEntropyPathSelector>();
        if (!rule.empty())
        {
            s->SetAttribute("PortRule", StringValue(rule));
        }
        if (attribute != MrcPathSelector::NO_PORT)
        {
            s->SetAttribute("Port", UintegerValue(attribute));
        }
        if (assigned != MrcPathSelector::NO_PORT)
        {
            s->AssignPort(assigned);
        }
        s->Init(256, 256, 4);
        const uint32_t port = s->Select(MrcPathSelector::NO_PORT, false).port;
        EXPECT_TRUE(s->UsesPort(port));
        return port;
    };
    const uint32_t none = MrcPathSelector::NO_PORT;
    EXPECT_EQ(portOf(3, "", none), 3u);          // Assigned, the default
    EXPECT_EQ(portOf(3, "Assigned", none), 3u);  // the same, named
    EXPECT_EQ(portOf(none, "", none), 0u);       // nothing assigned: the flow label's
    EXPECT_EQ(portOf(3, "FlowLabel", none), 0u); // the rule before session 44
    EXPECT_EQ(portOf(3, "", 2), 2u);             // the Port attribute wins
    EXPECT_EQ(portOf(none, "FlowLabel", 1), 1u); // whatever the rule

    // A queue pair hands its assigned port to its selector at Connect.
    Ptr<Node> a = CreateObject<Node>();
    Ptr<Node> b = CreateObject<Node>();
    MrcRdmaHelper rdma;
    for (Ptr<Node> n : {a, b})
    {
        std::vector<std::pair<Ptr<MrcNetDevice>, Ipv6Address>> ports;
        for (uint32_t p = 0; p < 4; ++p)
        {
            Ptr<MrcNetDevice> d = CreateObject<MrcNetDevice>();
            n->AddDevice(d);
            ports.emplace_back(
                d,
                Ipv6Address::MakeAutoconfiguredLinkLocalAddress(Mac48Address::Allocate()));
        }
        rdma.Install(n, ports);
    }
    for (uint32_t lane = 0; lane < 6; ++lane)
    {
        rdma.SetPort(lane % 4);
        MrcRdmaHelper::Connection c = rdma.Connect(a, b, 0);
        EXPECT_EQ(DynamicCast<MrcRoceQueuePair>(c.requester)->GetPort(), lane % 4) << lane;
        EXPECT_EQ(DynamicCast<MrcRoceQueuePair>(c.responder)->GetPort(), lane % 4) << lane;
    }
    Simulator::Destroy();
}

TEST(MrcQueuePair, PsnArithmetic)
{
    EXPECT_EQ(MrcQueuePair::PsnDiff(5, 3), 2);
    EXPECT_EQ(MrcQueuePair::PsnDiff(3, 5), -2);
    EXPECT_EQ(MrcQueuePair::PsnDiff(1, 0xffffff), 2);  // wraps forward
    EXPECT_EQ(MrcQueuePair::PsnDiff(0xffffff, 1), -2); // wraps backward
    EXPECT_EQ(MrcQueuePair::Unwrap(1, 0xffffff), 0x1000001u);
    EXPECT_EQ(MrcQueuePair::Unwrap(0xfffffe, 0x1000001), 0xfffffeu);
    EXPECT_EQ(MrcQueuePair::Unwrap(7, 5), 7u);
    EXPECT_EQ(MrcQueuePair::Unwrap(0xfffff0, 3), 0u); // before the start: clamps to 0
}

TEST(MrcRdmaNic, CreatesQueuePairsAndRegions)
{
    MrcRdmaHelper rdma;
    DirectPair d = MakeDirectPair(rdma);
    EXPECT_EQ(MrcRdmaNic::GetNic(d.a), d.nicA);
    EXPECT_EQ(d.nicA->GetNPorts(), 1u);
    EXPECT_EQ(d.nicA->GetAddress(0), Ipv6Address("fd00::1"));
    Ptr<MrcQueuePair> q1 = d.nicA->CreateQueuePair(MrcRoceQueuePair::GetTypeId());
    Ptr<MrcQueuePair> q2 = d.nicA->CreateQueuePair(MrcRoceQueuePair::GetTypeId());
    EXPECT_EQ(q1->GetQpn(), 256u);
    EXPECT_EQ(q2->GetQpn(), 257u);
    EXPECT_EQ(d.nicA->GetQueuePair(257), q2);
    EXPECT_EQ(d.nicA->GetQueuePair(258), nullptr);
    EXPECT_EQ(q1->GetState(), MrcQpState::RESET);
    EXPECT_EQ(q1->GetCongestionOps(), nullptr);
    Ptr<MrcMemoryRegion> r1 = d.nicB->RegisterMemoryRegion(0x1000, 4096);
    Ptr<MrcMemoryRegion> r2 = d.nicB->RegisterMemoryRegion(0x9000, 4096);
    EXPECT_EQ(r1->GetRkey(), 1u);
    EXPECT_EQ(r2->GetRkey(), 2u);
    EXPECT_EQ(d.nicB->GetMemoryRegion(2), r2);
    EXPECT_EQ(d.nicB->GetMemoryRegion(3), nullptr);

    // A QP refuses work before Connect.
    MrcWorkRequest wr;
    wr.length = 10;
    EXPECT_FALSE(q1->PostSend(wr));
    Simulator::Destroy();
}

TEST(MrcRdmaNic, SkippedNumbersAreNotGivenTwice)
{
    // A split run's rank skips the queue pairs and regions of lanes it does not hold; the
    // ones it makes afterwards keep the numbers of a one-process run.
    MrcRdmaHelper rdma;
    DirectPair d = MakeDirectPair(rdma);
    Ptr<MrcQueuePair> q1 = d.nicA->CreateQueuePair(MrcRoceQueuePair::GetTypeId());
    EXPECT_EQ(d.nicA->SkipQueuePair(), 257u);
    EXPECT_EQ(d.nicA->SkipQueuePair(), 258u);
    Ptr<MrcQueuePair> q4 = d.nicA->CreateQueuePair(MrcRoceQueuePair::GetTypeId());
    EXPECT_EQ(q1->GetQpn(), 256u);
    EXPECT_EQ(q4->GetQpn(), 259u);
    EXPECT_EQ(d.nicA->GetNQueuePairs(), 2u);
    EXPECT_EQ(d.nicA->GetQueuePair(257), nullptr);
    EXPECT_EQ(d.nicB->SkipMemoryRegion(), 1u);
    Ptr<MrcMemoryRegion> r2 = d.nicB->RegisterMemoryRegion(0x1000, 4096);
    EXPECT_EQ(r2->GetRkey(), 2u);
    EXPECT_EQ(d.nicB->GetMemoryRegion(1), nullptr);
    Simulator::Destroy();
}

TEST(MrcRdmaNic, QueuePairTableFollowsAnyFirstQpn)
{
    // The NIC finds a QP by its number in a table that starts at the lowest number given:
    // numbers below it, skipped ones and those past the end name no QP (their arrivals are
    // unknown-qp drops), and a FirstQpn lowered after the first QP still finds every QP.
    MrcRdmaHelper rdma;
    DirectPair d = MakeDirectPair(rdma);
    Ptr<MrcQueuePair> q1 = d.nicA->CreateQueuePair(MrcRoceQueuePair::GetTypeId());
    EXPECT_EQ(d.nicA->SkipQueuePair(), 257u);
    Ptr<MrcQueuePair> q3 = d.nicA->CreateQueuePair(MrcRoceQueuePair::GetTypeId());
    d.nicA->SetAttribute("FirstQpn", UintegerValue(10));
    Ptr<MrcQueuePair> q4 = d.nicA->CreateQueuePair(MrcRoceQueuePair::GetTypeId());
    ASSERT_EQ(q3->GetQpn(), 258u);
    ASSERT_EQ(q4->GetQpn(), 10u);
    EXPECT_EQ(d.nicA->GetQueuePair(10), q4);
    EXPECT_EQ(d.nicA->GetQueuePair(256), q1);
    EXPECT_EQ(d.nicA->GetQueuePair(258), q3);
    for (uint32_t qpn : {0u, 9u, 11u, 255u, 257u, 259u, 0xffffffu, 0xffffffffu})
    {
        EXPECT_EQ(d.nicA->GetQueuePair(qpn), nullptr) << "QPN " << qpn;
    }
    EXPECT_EQ(d.nicA->GetNQueuePairs(), 3u);
    // arrivals for a number below the table, a skipped one and one past its end
    uint32_t k = 0;
    for (uint32_t qpn : {9u, 257u, 259u})
    {
        Ptr<MrcQueuePair> qb = d.nicB->CreateQueuePair(MrcRoceQueuePair::GetTypeId());
        qb->Connect(Ipv6Address("fd00::1"), qpn);
        MrcWorkRequest wr;
        wr.id = ++k;
        wr.length = 100;
        ASSERT_TRUE(qb->PostSend(wr));
    }
    Simulator::Stop(MicroSeconds(50));
    Simulator::Run();
    EXPECT_EQ(d.nicA->GetRxUnknownQp(), 3u);
    EXPECT_EQ(d.nicA->GetRxNotBth(), 0u);
    // regions by rkey: 0 and numbers past the last are none
    Ptr<MrcMemoryRegion> r1 = d.nicA->RegisterMemoryRegion(0x1000, 4096);
    EXPECT_EQ(d.nicA->GetMemoryRegion(r1->GetRkey()), r1);
    EXPECT_EQ(d.nicA->GetMemoryRegion(0), nullptr);
    EXPECT_EQ(d.nicA->GetMemoryRegion(r1->GetRkey() + 1), nullptr);
    EXPECT_EQ(d.nicA->GetMemoryRegion(0xffffffffu), nullptr);
    Simulator::Destroy();
}

TEST(MrcRdmaNicDeathTest, WrongTransportTypeAborts)
{
    MrcRdmaHelper rdma;
    DirectPair d = MakeDirectPair(rdma);
    EXPECT_DEATH(d.nicA->CreateQueuePair(MrcMemoryRegion::GetTypeId()),
                 "ns3::MrcMemoryRegion is not a subclass of ns3::MrcQueuePair");
    Simulator::Destroy();
}

TEST(MrcRdmaNic, ConnectSetsStrategiesAndState)
{
    MrcRdmaHelper rdma;
    DirectPair d = MakeDirectPair(rdma, DataRate("25Gbps"));
    MrcRdmaHelper::Connection c = rdma.Connect(d.a, d.b, 1 << 20);
    EXPECT_EQ(c.requester->GetState(), MrcQpState::RTS);
    EXPECT_EQ(c.responder->GetState(), MrcQpState::RTS);
    EXPECT_EQ(c.requester->GetRemoteQpn(), c.responder->GetQpn());
    EXPECT_EQ(c.responder->GetRemoteQpn(), c.requester->GetQpn());
    EXPECT_EQ(c.requester->GetRemoteAddress(0), Ipv6Address("fd00::2"));
    ASSERT_TRUE(c.requester->GetCongestionOps());
    EXPECT_EQ(c.requester->GetCongestionOps()->GetName(), "none");
    EXPECT_EQ(c.requester->GetCcState().lineRate, DataRate("25Gbps"));
    EXPECT_EQ(c.requester->GetCcState().rate, DataRate("25Gbps"));
    EXPECT_EQ(c.requester->GetCcState().mtu, 4096u);
    ASSERT_TRUE(c.region);
    EXPECT_EQ(c.region->GetLength(), 1u << 20);
    EXPECT_EQ(d.nicB->GetMemoryRegion(c.region->GetRkey()), c.region);
    Simulator::Destroy();
}

TEST(MrcRdmaNicDeathTest, SecondConnectAborts)
{
    MrcRdmaHelper rdma;
    DirectPair d = MakeDirectPair(rdma);
    MrcRdmaHelper::Connection c = rdma.Connect(d.a, d.b, 0);
    EXPECT_FALSE(c.region);
    EXPECT_DEATH(c.requester->Connect(Ipv6Address("fd00::2"), 5), "is already connected");
    Simulator::Destroy();
}

TEST(MrcRdmaNic, UnknownQpIsCountedAndDropped)
{
    MrcRdmaHelper rdma;
    DirectPair d = MakeDirectPair(rdma);
    Ptr<MrcQueuePair> qa = d.nicA->CreateQueuePair(MrcRoceQueuePair::GetTypeId());
    qa->Connect(Ipv6Address("fd00::2"), 4242); // no such QP at b
    MrcWorkRequest wr;
    wr.id = 9;
    wr.length = 3000;
    ASSERT_TRUE(qa->PostSend(wr));
    Simulator::Stop(MicroSeconds(50));
    Simulator::Run();
    EXPECT_EQ(d.nicB->GetRxUnknownQp(), 1u);
    EXPECT_EQ(d.nicB->GetRxNotBth(), 0u);
    EXPECT_EQ(qa->GetCounters().dataPacketsSent, 1u);
    EXPECT_EQ(qa->GetOutstandingRequests(), 1u);
    Simulator::Destroy();
}

/// Two QPs on one port share it round robin: their messages finish within about one
/// packet time of each other, and the wire never idles.
TEST(MrcRdmaNic, RoundRobinBetweenQueuePairs)
{
    MrcRdmaHelper rdma;
    rdma.SetQueuePairAttribute("Mtu", UintegerValue(1000));
    DirectPair d = MakeDirectPair(rdma);
    MrcRdmaHelper::Connection c1 = rdma.Connect(d.a, d.b, 100000);
    MrcRdmaHelper::Connection c2 = rdma.Connect(d.a, d.b, 100000);
    std::vector<MrcWorkCompletion> done;
    auto record = [&done](const MrcWorkCompletion& wc) { done.push_back(wc); };
    c1.requester->SetCompletionCallback(Callback<void, const MrcWorkCompletion&>(record));
    c2.requester->SetCompletionCallback(Callback<void, const MrcWorkCompletion&>(record));
    for (auto* c : {&c1, &c2})
    {
        MrcWorkRequest wr;
        wr.id = c->requester->GetQpn();
        wr.remoteAddress = c->region->GetBase();
        wr.rkey = c->region->GetRkey();
        wr.length = 100000;
        ASSERT_TRUE(c->requester->PostSend(wr));
    }
    Simulator::Run();
    ASSERT_EQ(done.size(), 2u);
    EXPECT_EQ(done[0].status, MrcWcStatus::SUCCESS);
    EXPECT_EQ(done[1].status, MrcWcStatus::SUCCESS);
    // One 1000-byte packet: 1000 + 12 BTH + 8 UDP + 40 IPv6 + 4 ICRC + 14 Ethernet
    // + 24 wire overhead = 1102 bytes = 88.16 ns at 100 Gb/s.
    const Time pkt = DataRate("100Gbps").CalculateBytesTxTime(1102);
    const Time gap = done[1].end - done[0].end;
    EXPECT_LE(gap, pkt * 2) << gap.As(Time::NS);
    // 200 packets back to back (the first of each message has a 16-byte RETH), plus
    // the link delay, plus the ACK's return.
    EXPECT_EQ(c1.region->GetBytesPlaced(), 100000u);
    EXPECT_TRUE(c1.region->IsExactlyOnce(c1.region->GetBase(), 100000));
    EXPECT_TRUE(c2.region->IsExactlyOnce(c2.region->GetBase(), 100000));
    const Time wire = DataRate("100Gbps").CalculateBytesTxTime(200 * 1102 + 2 * 16);
    EXPECT_LT(done[1].end, wire + MicroSeconds(3));
    EXPECT_EQ(d.nicA->GetTxDataPackets(0), 200u);
    Simulator::Destroy();
}

/// A NIC with two ports (planes): each QP sends on the port its path selector chose, the
/// two transfers run in parallel, and the responder answers on the arrival port.
TEST(MrcRdmaNic, TwoPortsCarryQueuePairsInParallel)
{
    Ptr<Node> a = CreateObject<Node>();
    Ptr<Node> b = CreateObject<Node>();
    MrcLinkHelper link;
    link.SetDeviceAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
    link.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    NetDeviceContainer p0 = link.Install(a, b);
    NetDeviceContainer p1 = link.Install(a, b);
    MrcRdmaHelper rdma; // QPs made by CreateQueuePair below keep the default Mtu 4096
    auto dev = [](NetDeviceContainer& c, uint32_t i) {
        return DynamicCast<MrcNetDevice>(c.Get(i));
    };
    Ptr<MrcRdmaNic> na = rdma.Install(
        a,
        {{dev(p0, 0), Ipv6Address("fd00::a0")}, {dev(p1, 0), Ipv6Address("fd01::a0")}});
    Ptr<MrcRdmaNic> nb = rdma.Install(
        b,
        {{dev(p0, 1), Ipv6Address("fd00::b0")}, {dev(p1, 1), Ipv6Address("fd01::b0")}});
    EXPECT_EQ(na->GetNPorts(), 2u);
    Ptr<MrcMemoryRegion> region = nb->RegisterMemoryRegion(0, 200000);
    std::vector<MrcWorkCompletion> done;
    std::vector<Ptr<MrcQueuePair>> qps;
    for (uint32_t port = 0; port < 2; ++port)
    {
        Ptr<MrcQueuePair> qa = na->CreateQueuePair(MrcRoceQueuePair::GetTypeId());
        Ptr<MrcQueuePair> qb = nb->CreateQueuePair(MrcRoceQueuePair::GetTypeId());
        Ptr<MrcFixedEntropyPathSelector> sel = CreateObject<MrcFixedEntropyPathSelector>();
        sel->SetAttribute("Port", UintegerValue(port));
        qa->SetPathSelector(sel);
        MrcRdmaHelper::ConnectPair(qa, qb);
        EXPECT_EQ(DynamicCast<MrcRoceQueuePair>(qa)->GetPort(), port);
        EXPECT_EQ(qa->GetRemoteAddress(port), nb->GetAddress(port));
        EXPECT_EQ(qa->GetCcState().lineRate, DataRate("100Gbps")); // one port's rate
        qa->SetCompletionCallback(Callback<void, const MrcWorkCompletion&>(
            [&done](const MrcWorkCompletion& wc) { done.push_back(wc); }));
        MrcWorkRequest wr;
        wr.id = port;
        wr.remoteAddress = port * 100000;
        wr.rkey = region->GetRkey();
        wr.length = 100000;
        ASSERT_TRUE(qa->PostSend(wr));
        qps.push_back(qa);
    }
    Simulator::Run();
    ASSERT_EQ(done.size(), 2u);
    EXPECT_EQ(na->GetTxDataPackets(0), 25u); // 100000 B in 4096-byte packets
    EXPECT_EQ(na->GetTxDataPackets(1), 25u);
    EXPECT_TRUE(region->IsExactlyOnce(0, 200000));
    // In parallel: each finishes in about one port's time for 100 packets, not two.
    const Time one = DataRate("100Gbps").CalculateBytesTxTime(24 * 4198 + 1696 + 102 + 16);
    for (const auto& wc : done)
    {
        EXPECT_EQ(wc.status, MrcWcStatus::SUCCESS);
        EXPECT_LT(wc.end, one + MicroSeconds(3));
    }
    // The ACKs came back on the port the data used.
    EXPECT_EQ(dev(p0, 0)->GetRxPackets(7), qps[0]->GetCounters().acksReceived);
    EXPECT_EQ(dev(p1, 0)->GetRxPackets(7), qps[1]->GetCounters().acksReceived);
    EXPECT_EQ(qps[0]->GetCounters().acksReceived, 25u);
    Simulator::Destroy();
}

/// The bytes of a RoCE Write-with-Immediate-Only packet as built by the QP, and its ICRC.
TEST(MrcRdmaNic, WireBytesOfAWriteOnlyWithImmediate)
{
    MrcRdmaHelper rdma;
    rdma.SetNicAttribute("ComputeIcrc", BooleanValue(true));
    DirectPair d = MakeDirectPair(rdma);
    MrcRdmaHelper::Connection c = rdma.Connect(d.a, d.b, 4096);
    ASSERT_EQ(c.requester->GetQpn(), 256u);
    ASSERT_EQ(c.responder->GetQpn(), 256u);
    std::vector<Ptr<Packet>> sent;
    c.requester->TraceConnectWithoutContext(
        "Tx",
        Callback<void, Ptr<const Packet>>(
            [&sent](Ptr<const Packet> p) { sent.push_back(p->Copy()); }));
    MrcWorkRequest wr;
    wr.id = 5;
    wr.opcode = MrcWrOpcode::WRITE_WITH_IMM;
    wr.remoteAddress = c.region->GetBase(); // 0x100000000
    wr.rkey = c.region->GetRkey();          // 1
    wr.length = 8;
    wr.immediate = 0x12345678;
    ASSERT_TRUE(c.requester->PostSend(wr));
    Simulator::Run();
    ASSERT_EQ(sent.size(), 1u);
    // flow label of QPs 256/256: 256 x 256 = 0x10000; UDP port 0xC000 | (0 ^ 4) = 0xC004
    const std::vector<uint8_t> expect = {
        0x66, 0xa1, 0x00, 0x00, // version 6, DSCP 26 + ECT(0) = 0x6a, flow label 0x10000
        0x00, 0x34, 0x11, 0x40, // payload 52 = UDP 8 + BTH 12 + RETH 16 + ImmDt 4 + 8 + ICRC 4
        0xfd, 0,    0,    0,    0,    0,    0,    0,    0, 0, 0, 0, 0, 0, 0, 0x01, // fd00::1
        0xfd, 0,    0,    0,    0,    0,    0,    0,    0, 0, 0, 0, 0, 0, 0, 0x02, // fd00::2
        0xc0, 0x04, 0x12, 0xb7, 0x00, 0x34, 0x00, 0x00, // UDP 0xc004 -> 4791, len 52
        0x0b, 0x00, 0xff, 0xff, 0x00, 0x00, 0x01, 0x00, // BTH: Write Only Imm, QP 256
        0x80, 0x00, 0x00, 0x00,                         // A, PSN 0
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, // RETH VA
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x08, // rkey 1, length 8
        0x12, 0x34, 0x56, 0x78,                         // ImmDt
        0,    0,    0,    0,    0,    0,    0,    0,    // payload
    };
    ASSERT_EQ(sent[0]->GetSize(), expect.size() + 4);
    std::vector<uint8_t> got(sent[0]->GetSize());
    sent[0]->CopyData(got.data(), got.size());
    EXPECT_EQ(std::vector<uint8_t>(got.begin(), got.begin() + expect.size()), expect);
    EXPECT_TRUE(MrcIcrcTrailer::Verify(sent[0]));
    EXPECT_EQ(c.responder->GetCounters().messagesReceived, 1u);
    Simulator::Destroy();
}

namespace
{

/// Test controller: a fixed window and a fixed fraction of the line rate; raises the rate
/// to the line rate from a timer (through notifyChanged).
class TestCc : public MrcCongestionOps
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::MrcTestCc").SetParent<MrcCongestionOps>().SetGroupName("Mrc");
        return tid;
    }

    uint64_t window{std::numeric_limits<uint64_t>::max()};
    double rateFraction{1.0};
    Time raiseAt{Seconds(0)};
    uint64_t sent{0};
    uint64_t acked{0};

    std::string GetName() const override
    {
        return "test";
    }

    void Init(MrcCcState& s) override
    {
        s.cwnd = window;
        s.rate = DataRate(static_cast<uint64_t>(s.lineRate.GetBitRate() * rateFraction));
        if (raiseAt > Seconds(0))
        {
            MrcCcState* st = &s;
            Simulator::Schedule(raiseAt, [st]() {
                st->rate = st->lineRate;
                st->notifyChanged();
            });
        }
    }

    void OnSent(MrcCcState& s, uint32_t bytes) override
    {
        sent += bytes;
        EXPECT_LE(uint64_t(s.inflight), std::max<uint64_t>(s.cwnd, bytes));
    }

    void OnAck(MrcCcState& /* s */, const MrcCcAck& ack) override
    {
        acked += ack.newlyAckedBytes;
    }

    Ptr<MrcCongestionOps> Fork() const override
    {
        Ptr<TestCc> c = CreateObject<TestCc>();
        c->window = window;
        c->rateFraction = rateFraction;
        c->raiseAt = raiseAt;
        return c;
    }
};

/// Run one 100-packet Write (Mtu 1000, direct 100 Gb/s link) under a controller.
Time
RunUnder(Ptr<TestCc> proto, Ptr<MrcQueuePair>* requesterOut = nullptr)
{
    MrcRdmaHelper rdma;
    rdma.SetQueuePairAttribute("Mtu", UintegerValue(1000));
    DirectPair d = MakeDirectPair(rdma);
    Ptr<MrcQueuePair> qa = d.nicA->CreateQueuePair([] {
        ObjectFactory f("ns3::MrcRoceQueuePair");
        f.Set("Mtu", UintegerValue(1000));
        return f;
    }());
    Ptr<MrcQueuePair> qb = d.nicB->CreateQueuePair(MrcRoceQueuePair::GetTypeId());
    qa->SetCongestionOpsPrototype(proto);
    MrcRdmaHelper::ConnectPair(qa, qb);
    Ptr<MrcMemoryRegion> mr = d.nicB->RegisterMemoryRegion(0, 100000);
    Time end;
    qa->SetCompletionCallback(
        Callback<void, const MrcWorkCompletion&>([&end](const MrcWorkCompletion& wc) {
            EXPECT_EQ(wc.status, MrcWcStatus::SUCCESS);
            end = wc.end;
        }));
    MrcWorkRequest wr;
    wr.rkey = mr->GetRkey();
    wr.length = 100000;
    EXPECT_TRUE(qa->PostSend(wr));
    Simulator::Run();
    EXPECT_TRUE(mr->IsExactlyOnce(0, 100000));
    Ptr<TestCc> used = DynamicCast<TestCc>(qa->GetCongestionOps());
    EXPECT_NE(used, proto); // a fork, not the prototype
    EXPECT_EQ(used->sent, 100000u);
    EXPECT_EQ(used->acked, 100000u);
    if (requesterOut)
    {
        *requesterOut = qa;
    }
    return end;
}

} // namespace

TEST(MrcQueuePair, PacingRateOfTheController)
{
    const Time wire = DataRate("100Gbps").CalculateBytesTxTime(100 * 1102 + 16);
    Ptr<TestCc> full = CreateObject<TestCc>();
    const Time tFull = RunUnder(full);
    Simulator::Destroy();
    EXPECT_LT(tFull, wire + MicroSeconds(3));
    Ptr<TestCc> half = CreateObject<TestCc>();
    half->rateFraction = 0.5;
    const Time tHalf = RunUnder(half);
    Simulator::Destroy();
    // 99 gaps of two packet times, plus the last packet and the round trip.
    EXPECT_GE(tHalf, wire * 2 - MicroSeconds(1));
    EXPECT_LT(tHalf, wire * 2 + MicroSeconds(3));
    // Half rate for 5 us, then the controller raises it from a timer (notifyChanged).
    Ptr<TestCc> raise = CreateObject<TestCc>();
    raise->rateFraction = 0.5;
    raise->raiseAt = MicroSeconds(5);
    const Time tRaise = RunUnder(raise);
    Simulator::Destroy();
    EXPECT_GT(tRaise, tFull + MicroSeconds(2));
    EXPECT_LT(tRaise, tFull + MicroSeconds(3));
}

TEST(MrcQueuePair, WindowOfTheController)
{
    // A window of 4 packets on a 2 x 1 us + serialization round trip: about 4 packets per
    // RTT instead of line rate, and never more than 4000 bytes in flight (TestCc::OnSent).
    Ptr<TestCc> w = CreateObject<TestCc>();
    w->window = 4000;
    Ptr<MrcQueuePair> qa;
    const Time t = RunUnder(w, &qa);
    const Time wire = DataRate("100Gbps").CalculateBytesTxTime(100 * 1102 + 16);
    EXPECT_GT(t, wire * 4);
    EXPECT_EQ(qa->GetCcState().inflight, 0);
    EXPECT_EQ(qa->GetCounters().retransmittedPackets, 0u);
    Simulator::Destroy();
}

TEST(MrcQueuePair, CcTraceFiresOnChangesOnly)
{
    MrcRdmaHelper rdma;
    DirectPair d = MakeDirectPair(rdma);
    Ptr<MrcQueuePair> qa = d.nicA->CreateQueuePair(MrcRoceQueuePair::GetTypeId());
    Ptr<MrcQueuePair> qb = d.nicB->CreateQueuePair(MrcRoceQueuePair::GetTypeId());
    Ptr<TestCc> proto = CreateObject<TestCc>();
    proto->rateFraction = 0.25;
    proto->raiseAt = MicroSeconds(3);
    qa->SetCongestionOpsPrototype(proto);
    std::vector<uint64_t> rates;
    qa->TraceConnectWithoutContext(
        "Cc",
        Callback<void, uint32_t, uint64_t, uint64_t>(
            [&rates](uint32_t, uint64_t bps, uint64_t) { rates.push_back(bps); }));
    MrcRdmaHelper::ConnectPair(qa, qb);
    Ptr<MrcMemoryRegion> mr = d.nicB->RegisterMemoryRegion(0, 100000);
    MrcWorkRequest wr;
    wr.rkey = mr->GetRkey();
    wr.length = 100000;
    ASSERT_TRUE(qa->PostSend(wr));
    Simulator::Run();
    // At Connect (25 Gb/s) and when raised (100 Gb/s); ACKs change nothing.
    EXPECT_EQ(rates, (std::vector<uint64_t>{25000000000ull, 100000000000ull}));
    Simulator::Destroy();
}

// ---------------------------------------------------------------------------
// Endpoint operations, listeners and port admin (the NIC knows no transport)
// ---------------------------------------------------------------------------

namespace
{

/// Endpoint handler that records what it gets and takes it or not.
class RecordingHandler : public MrcEndpointOps
{
  public:
    bool take{true};               //!< what ReceiveEndpoint answers
    std::vector<uint32_t> destQps; //!< BTH destination QP of each packet it got
    std::vector<uint32_t> ports;   //!< arrival port of each
    std::vector<uint8_t> opcodes;  //!< BTH opcode of each

    bool ReceiveEndpoint(const MrcRxPacket& rx) override
    {
        destQps.push_back(rx.destQp);
        ports.push_back(rx.port);
        opcodes.push_back(rx.opcode);
        return take;
    }
};

/// Counts the queue-pair traces of a NIC, with the state the QP was in when each fired.
struct QpTraces
{
    std::vector<Ptr<MrcQueuePair>> created;
    std::vector<Ptr<MrcQueuePair>> connected;
    std::vector<MrcQpState> connectedState;

    void Created(Ptr<MrcQueuePair> qp)
    {
        created.push_back(qp);
    }

    void Connected(Ptr<MrcQueuePair> qp)
    {
        connected.push_back(qp);
        connectedState.push_back(qp->GetState());
    }
};

/// Records (time, port, state) of a PortState or PortAdminState trace.
struct PortTrace
{
    std::vector<Time> at;
    std::vector<uint32_t> port;
    std::vector<bool> up;

    void Record(uint32_t p, bool u)
    {
        at.push_back(Simulator::Now());
        port.push_back(p);
        up.push_back(u);
    }
};

} // namespace

TEST(MrcRdmaNic, EndpointHandlerGetsItsReservedQpn)
{
    MrcRdmaHelper rdma;
    DirectPair d = MakeDirectPair(rdma);
    Ptr<RecordingHandler> h = CreateObject<RecordingHandler>();
    d.nicB->RegisterEndpointHandler(4242, h);
    EXPECT_EQ(d.nicB->GetEndpointHandler(4242), h);
    EXPECT_EQ(d.nicB->GetEndpointHandler(4243), nullptr);
    // a QP at A sends to QPN 4242 at B, which no QP has: the handler gets the packet
    Ptr<MrcQueuePair> qa = d.nicA->CreateQueuePair(MrcRoceQueuePair::GetTypeId());
    qa->Connect(Ipv6Address("fd00::2"), 4242);
    MrcWorkRequest wr;
    wr.id = 9;
    wr.length = 3000;
    ASSERT_TRUE(qa->PostSend(wr));
    Simulator::Stop(MicroSeconds(50));
    Simulator::Run();
    ASSERT_EQ(h->destQps.size(), 1u);
    EXPECT_EQ(h->destQps[0], 4242u);
    EXPECT_EQ(h->ports[0], 0u);
    EXPECT_EQ(d.nicB->GetRxUnknownQp(), 0u);
    EXPECT_EQ(d.nicB->GetRxNotBth(), 0u);
    Simulator::Destroy();
}

TEST(MrcRdmaNic, PacketAHandlerRefusesIsAnUnknownQp)
{
    MrcRdmaHelper rdma;
    DirectPair d = MakeDirectPair(rdma);
    Ptr<RecordingHandler> h = CreateObject<RecordingHandler>();
    h->take = false;
    d.nicB->RegisterEndpointHandler(4242, h);
    std::vector<std::string> why;
    d.nicB->TraceConnectWithoutContext(
        "RxDrop",
        MakeCallback(+[](std::vector<std::string>* w, Ptr<const Packet>, const std::string& s) {
            w->push_back(s);
        }).Bind(&why));
    Ptr<MrcQueuePair> qa = d.nicA->CreateQueuePair(MrcRoceQueuePair::GetTypeId());
    qa->Connect(Ipv6Address("fd00::2"), 4242);
    MrcWorkRequest wr;
    wr.id = 9;
    wr.length = 3000;
    ASSERT_TRUE(qa->PostSend(wr));
    Simulator::Stop(MicroSeconds(50));
    Simulator::Run();
    EXPECT_EQ(h->destQps.size(), 1u); // offered, refused
    EXPECT_EQ(d.nicB->GetRxUnknownQp(), 1u);
    ASSERT_EQ(why.size(), 1u);
    EXPECT_EQ(why[0], "unknown-qp");
    Simulator::Destroy();
}

TEST(MrcRdmaNic, DoNothingHandlerAndNoHandlerCountNothing)
{
    Ptr<MrcEndpointOps> none = CreateObject<MrcEndpointOps>();
    MrcRxPacket rx;
    EXPECT_FALSE(none->ReceiveEndpoint(rx));
    EXPECT_EQ(none->GetEndpointStats().requestsSent, 0u);
    EXPECT_EQ(none->GetRequestId(Ipv6Address("fd00::2")), 0u);
    // without a handler at the endpoint QPN 0x2 the Port Status accessors read 0, and its
    // PortStatusTx trace cannot be connected
    Ptr<MrcRdmaNic> nic = CreateObject<MrcRdmaNic>();
    EXPECT_EQ(nic->GetPortStatusSent(), 0u);
    EXPECT_EQ(nic->GetPortStatusResent(), 0u);
    EXPECT_EQ(nic->GetPortStatusAnswered(), 0u);
    EXPECT_EQ(nic->GetPortStatusReceived(), 0u);
    EXPECT_EQ(nic->GetPortStatusResponses(), 0u);
    EXPECT_EQ(nic->GetPortStatusRequestId(Ipv6Address("fd00::2")), 0u);
    EXPECT_FALSE(
        nic->TraceConnectWithoutContext("PortStatusTx",
                                        MakeCallback(+[](Ipv6Address, uint16_t, uint32_t) {})));
    nic->Dispose();
}

TEST(MrcRdmaNic, QueuePairTracesFireOncePerQp)
{
    MrcRdmaHelper rdma;
    DirectPair d = MakeDirectPair(rdma);
    QpTraces tr;
    d.nicA->TraceConnectWithoutContext("QueuePairCreated", MakeCallback(&QpTraces::Created, &tr));
    d.nicA->TraceConnectWithoutContext("QueuePairConnected",
                                       MakeCallback(&QpTraces::Connected, &tr));
    Ptr<MrcQueuePair> q1 = d.nicA->CreateQueuePair(MrcRoceQueuePair::GetTypeId());
    Ptr<MrcQueuePair> q2 = d.nicA->CreateQueuePair(MrcRoceQueuePair::GetTypeId());
    ASSERT_EQ(tr.created.size(), 2u);
    EXPECT_EQ(tr.created[0], q1);
    EXPECT_EQ(tr.created[1], q2);
    EXPECT_TRUE(tr.connected.empty());
    // explicit steps: the trace fires at RTR, not at INIT or RTS
    q2->ModifyToInit();
    EXPECT_TRUE(tr.connected.empty());
    q2->ModifyToRtr({Ipv6Address("fd00::2")}, 300, 0);
    ASSERT_EQ(tr.connected.size(), 1u);
    EXPECT_EQ(tr.connected[0], q2);
    EXPECT_EQ(tr.connectedState[0], MrcQpState::RTR);
    q2->ModifyToRts();
    q1->Connect(Ipv6Address("fd00::2"), 301);
    ASSERT_EQ(tr.connected.size(), 2u);
    EXPECT_EQ(tr.connected[1], q1);
    EXPECT_EQ(tr.created.size(), 2u);
    Simulator::Destroy();
}

TEST(MrcRdmaNic, DisabledPortGoesDownAfterTheDetectionDelay)
{
    MrcRdmaHelper rdma;
    DirectPair d = MakeDirectPair(rdma);
    d.devA->SetAttribute("LinkDownDetectDelay", TimeValue(MicroSeconds(3)));
    d.devA->SetAttribute("LinkUpDetectDelay", TimeValue(MicroSeconds(5)));
    PortTrace admin;
    PortTrace link;
    d.nicA->TraceConnectWithoutContext("PortAdminState", MakeCallback(&PortTrace::Record, &admin));
    d.nicA->TraceConnectWithoutContext("PortState", MakeCallback(&PortTrace::Record, &link));
    EXPECT_TRUE(d.nicA->IsPortEnabled(0));
    EXPECT_TRUE(d.nicA->IsPortEnabled(7)); // no such port: never disabled
    Simulator::Schedule(MicroSeconds(10), &MrcRdmaNic::SetPortEnabled, d.nicA, 0, false);
    Simulator::Schedule(MicroSeconds(20), &MrcRdmaNic::SetPortEnabled, d.nicA, 0, true);
    bool enabledBetween = true;
    Simulator::Schedule(MicroSeconds(15), [&]() { enabledBetween = d.nicA->IsPortEnabled(0); });
    Simulator::Stop(MicroSeconds(50));
    Simulator::Run();
    EXPECT_FALSE(enabledBetween);
    EXPECT_TRUE(d.nicA->IsPortEnabled(0));
    // admin changes at once, the link as the device detects it
    ASSERT_EQ(admin.at.size(), 2u);
    EXPECT_EQ(admin.at[0], MicroSeconds(10));
    EXPECT_FALSE(admin.up[0]);
    EXPECT_EQ(admin.at[1], MicroSeconds(20));
    EXPECT_TRUE(admin.up[1]);
    ASSERT_EQ(link.at.size(), 2u);
    EXPECT_EQ(link.at[0], MicroSeconds(13));
    EXPECT_EQ(link.port[0], 0u);
    EXPECT_FALSE(link.up[0]);
    EXPECT_EQ(link.at[1], MicroSeconds(25));
    EXPECT_TRUE(link.up[1]);
    EXPECT_TRUE(d.devA->IsLinkUp());
    Simulator::Destroy();
}

TEST(MrcRdmaNicDeathTest, PortAdminOfAMissingPortAborts)
{
    MrcRdmaHelper rdma;
    DirectPair d = MakeDirectPair(rdma);
    EXPECT_DEATH(d.nicA->SetPortEnabled(1, false), "port 1 does not exist");
    EXPECT_DEATH(d.nicA->RegisterEndpointHandler(2, nullptr), "null handler");
    Simulator::Destroy();
}

namespace
{

/// A queue pair that only exposes MrcQueuePair::AddIpUdpIcrc and AddFrameHeaders (no
/// transport).
class HeaderOnlyQueuePair : public MrcQueuePair
{
  public:
    using MrcQueuePair::AddFrameHeaders;
    using MrcQueuePair::AddIpUdpIcrc;
    using MrcQueuePair::NewPacket;

    Time GetNextSendTime(uint32_t /* port */) const override
    {
        return Time::Max();
    }

    uint8_t GetNextDscp(uint32_t /* port */) const override
    {
        return 0;
    }

  protected:
    MrcTxPacket DoBuildNextPacket(uint32_t /* port */) override
    {
        return MrcTxPacket();
    }

    void DoReceive(const MrcRxPacket& /* rx */) override
    {
    }
};

/// \return a packet's bytes
std::vector<uint8_t>
BytesOf(Ptr<const Packet> p)
{
    std::vector<uint8_t> v(p->GetSize());
    p->CopyData(v.data(), v.size());
    return v;
}

} // namespace

TEST(MrcQueuePairHeaders, AddIpUdpIcrcWithSrv6GivesTheBytesOfSeparateAdds)
{
    // MRC's data packets, SACKs, NACKs and probes: the transport headers, IPv6, UDP and
    // the outer SRv6 IPv6 header with one AddHeader (the fast path when neither ICRC nor
    // UDP checksum is computed) must give the bytes of adding the transport headers,
    // then AddIpUdpIcrc, then MrcSrv6Encapsulate; with ICRC or UDP checksum on, the
    // separate path gives them too.
    const Ipv6Address src("2001:db8::7");
    const Ipv6Address dst("2001:db8::9");
    const MrcUsidCarrier carrier(MrcUsidCarrier::DEFAULT_LOCATOR_BLOCK, {0x1405, 0x2406});
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::MRC_WRITE_FIRST);
    bth.SetDestQp(0x123456);
    bth.SetPsn(0xabcdef);
    bth.SetTimestampPresent(true);
    MrcMethHeader meth;
    meth.SetMsn(77);
    meth.SetRqMsn(5);
    MrcTsethHeader ts;
    ts.SetTxTimestamp(0x1234);
    MrcRethHeader reth;
    reth.SetVirtualAddress(0x1122334455667788ULL);
    reth.SetRkey(0x99aabbcc);
    reth.SetDmaLength(100000);
    MrcSethHeader seth;
    seth.SetCcType(MrcSethHeader::CC_TYPE_NSCC);
    MrcCcStateHeader ccs;
    ccs.SetTxTimestamp(0x4321);
    for (int mode = 0; mode < 3; ++mode)
    {
        Ptr<MrcRdmaNic> nic = CreateObject<MrcRdmaNic>();
        nic->SetAttribute("ComputeIcrc", BooleanValue(mode == 1));
        nic->SetAttribute("ComputeUdpChecksum", BooleanValue(mode == 2));
        Ptr<HeaderOnlyQueuePair> qp = CreateObject<HeaderOnlyQueuePair>();
        qp->SetNic(nic, 1);
        for (int stack = 0; stack < 2; ++stack)
        {
            const uint32_t flowLabel = 0x54321 + stack;
            const uint8_t dscp = stack == 0 ? 26 : 48;
            const MrcEcn ecn = stack == 0 ? MrcEcn::ECT0 : MrcEcn::NOT_ECT;
            Ptr<Packet> separate = Create<Packet>(stack == 0 ? 1000 : 0);
            Ptr<Packet> once = separate->Copy();
            if (stack == 0)
            {
                MrcAddHeaders(separate, {&bth, &meth, &ts, &reth});
                qp->AddIpUdpIcrc(once,
                                 src,
                                 dst,
                                 dscp,
                                 ecn,
                                 flowLabel,
                                 0xc001,
                                 {&bth, &meth, &ts, &reth},
                                 &carrier);
            }
            else
            {
                MrcAddHeaders(separate, {&bth, &seth, &ccs});
                qp->AddIpUdpIcrc(once,
                                 src,
                                 dst,
                                 dscp,
                                 ecn,
                                 flowLabel,
                                 0xc002,
                                 {&bth, nullptr, &seth, &ccs},
                                 &carrier);
            }
            qp->AddIpUdpIcrc(separate,
                             src,
                             dst,
                             dscp,
                             ecn,
                             flowLabel,
                             stack == 0 ? 0xc001 : 0xc002);
            MrcSrv6Encapsulate(separate, MrcMakeTrafficClass(dscp, ecn), flowLabel, src, carrier);
            SCOPED_TRACE("mode " + std::to_string(mode) + " stack " + std::to_string(stack));
            EXPECT_EQ(once->GetSize(), separate->GetSize());
            EXPECT_EQ(BytesOf(once), BytesOf(separate));
            // without a carrier: the plain IPv6 + UDP packet
            Ptr<Packet> plain = Create<Packet>(8);
            Ptr<Packet> plainOnce = plain->Copy();
            plain->AddHeader(bth);
            qp->AddIpUdpIcrc(plain, src, dst, dscp, ecn, flowLabel, 0xc003);
            qp->AddIpUdpIcrc(plainOnce, src, dst, dscp, ecn, flowLabel, 0xc003, {&bth}, nullptr);
            EXPECT_EQ(BytesOf(plainOnce), BytesOf(plain));
        }
    }
    // the outer header is really there: 40 + 40 + 8 + BTH ... + ICRC, next header 41
    Ptr<MrcRdmaNic> nic = CreateObject<MrcRdmaNic>();
    Ptr<HeaderOnlyQueuePair> qp = CreateObject<HeaderOnlyQueuePair>();
    qp->SetNic(nic, 1);
    Ptr<Packet> p = Create<Packet>(0);
    qp->AddIpUdpIcrc(p, src, dst, 0, MrcEcn::NOT_ECT, 1, 2, {&bth}, &carrier);
    const std::vector<uint8_t> b = BytesOf(p);
    ASSERT_EQ(b.size(), 40u + 40 + 8 + bth.GetSerializedSize() + 4);
    EXPECT_EQ(b[6], 41u);
    EXPECT_EQ((b[4] << 8) | b[5], 40 + 8 + bth.GetSerializedSize() + 4);
    EXPECT_EQ(b[40] >> 4, 6);
    EXPECT_EQ(b[46], 17u);
}

TEST(MrcQueuePairHeaders, AddFrameHeadersPutsThePortsEthernetHeaderInFront)
{
    // A frame built by a queue pair (AddFrameHeaders, from a NewPacket that ends with four
    // zero bytes of room for the ICRC) must be the port device's Ethernet header followed by
    // exactly the bytes of AddIpUdpIcrc on the bare payload, in every mode (the Ethernet
    // header in the single AddHeader, or added last after a computed ICRC, which replaces
    // the room, a UDP checksum or an SRv6 encapsulation; the UDP and IPv6 lengths count
    // the ICRC once); SendFramed then sends these bytes and SendToClass would have sent
    // the same.
    const Ipv6Address src("2001:db8::7");
    const Ipv6Address dst("2001:db8::9");
    const MrcUsidCarrier carrier(MrcUsidCarrier::DEFAULT_LOCATOR_BLOCK, {0x1405});
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::MRC_WRITE_ONLY);
    bth.SetDestQp(0x42);
    bth.SetPsn(0x777);
    MrcRethHeader reth;
    reth.SetDmaLength(4096);
    const Mac48Address mac("02:00:00:00:00:2a");
    for (int mode = 0; mode < 3; ++mode)
    {
        for (int srv6 = 0; srv6 < 2; ++srv6)
        {
            Ptr<MrcRdmaNic> nic = CreateObject<MrcRdmaNic>();
            nic->SetAttribute("ComputeIcrc", BooleanValue(mode == 1));
            nic->SetAttribute("ComputeUdpChecksum", BooleanValue(mode == 2));
            Ptr<MrcNetDevice> dev = CreateObject<MrcNetDevice>();
            dev->SetAddress(mac);
            nic->AddPort(dev, src);
            Ptr<HeaderOnlyQueuePair> qp = CreateObject<HeaderOnlyQueuePair>();
            qp->SetNic(nic, 1);
            const MrcUsidCarrier* c = srv6 ? &carrier : nullptr;
            // AddFrameHeaders takes a packet that ends with the ICRC's room (NewPacket)
            Ptr<Packet> ip = Create<Packet>(100);
            Ptr<Packet> frame = HeaderOnlyQueuePair::NewPacket(100);
            ASSERT_EQ(frame->GetSize(), 104u);
            qp->AddIpUdpIcrc(ip, src, dst, 26, MrcEcn::ECT0, 0x12345, 0xc001, {&bth, &reth}, c);
            qp->AddFrameHeaders(frame,
                                0,
                                src,
                                dst,
                                26,
                                MrcEcn::ECT0,
                                0x12345,
                                0xc001,
                                {&bth, &reth},
                                c);
            SCOPED_TRACE("mode " + std::to_string(mode) + " srv6 " + std::to_string(srv6));
            const std::vector<uint8_t> f = BytesOf(frame);
            const std::vector<uint8_t> i = BytesOf(ip);
            ASSERT_EQ(f.size(), i.size() + 14);
            // no channel: the destination is the broadcast address; the source is the port's
            EXPECT_EQ(std::vector<uint8_t>(f.begin(), f.begin() + 6),
                      std::vector<uint8_t>(6, 0xff));
            uint8_t own[6];
            mac.CopyTo(own);
            EXPECT_EQ(std::vector<uint8_t>(f.begin() + 6, f.begin() + 12),
                      std::vector<uint8_t>(own, own + 6));
            EXPECT_EQ(f[12], 0x86);
            EXPECT_EQ(f[13], 0xdd);
            EXPECT_EQ(std::vector<uint8_t>(f.begin() + 14, f.end()), i);
        }
    }
}
