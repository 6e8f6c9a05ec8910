/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RoCE baselines as operators run them: selective repeat (IRN style) with a lost PSN,
// several lost PSNs, a lost tail and the BDP cap; a flow striped over N queue pairs;
// switch adaptive routing and flowlet switching.

#include "mrc-test-support.h"

#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/mrc-adaptive-forwarding.h"
#include "ns3/mrc-dual-forwarding.h"
#include "ns3/mrc-ecmp-forwarding.h"
#include "ns3/mrc-ecn-marker.h"
#include "ns3/mrc-link-helper.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-packet-info.h"
#include "ns3/mrc-rdma-helper.h"
#include "ns3/mrc-rdma-nic.h"
#include "ns3/mrc-roce-queue-pair.h"
#include "ns3/mrc-scenario.h"
#include "ns3/mrc-shared-buffer-mmu.h"
#include "ns3/mrc-switch-helper.h"
#include "ns3/mrc-switch-node.h"
#include "ns3/names.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <vector>

using namespace ns3;
using ns3::MrcTest::WriteRequest;

namespace
{

using MrcTest::HostAddress;

const DataRate RATE("100Gbps");
const Time DELAY = MicroSeconds(1);

/// Two hosts on one switch without PFC (lossy), a NIC on each.
struct Pair
{
    Ptr<MrcSwitchNode> sw;
    NodeContainer hosts;
    std::vector<Ptr<MrcNetDevice>> dev; //!< host side
};

Pair
MakePair(MrcRdmaHelper& rdma)
{
    Pair s;
    MrcSwitchHelper sh;
    sh.SetMmuAttribute("BufferSize", UintegerValue(8 << 20));
    sh.SetMmuAttribute("PfcPriorityMask", UintegerValue(0));
    s.sw = sh.CreateSwitch();
    MrcLinkHelper link;
    link.SetDeviceAttribute("DataRate", DataRateValue(RATE));
    link.SetChannelAttribute("Delay", TimeValue(DELAY));
    s.hosts.Create(2);
    Ptr<MrcEcmpForwarding> fwd = DynamicCast<MrcEcmpForwarding>(s.sw->GetForwarding());
    for (uint32_t i = 0; i < 2; ++i)
    {
        const uint32_t port = MrcSwitchHelper::ConnectHost(link, s.sw, s.hosts.Get(i));
        fwd->AddRoute(HostAddress(i), 128, port);
        s.dev.push_back(s.sw->GetPort(port)->GetPeer());
        rdma.Install(s.hosts.Get(i), s.dev.back(), HostAddress(i));
    }
    return s;
}

/// The PSN of a packet that starts at its IPv6 header (or its Ethernet header).
uint32_t
PsnOf(Ptr<const Packet> p)
{
    uint8_t b[80];
    p->CopyData(b, sizeof(b));
    const uint32_t off = (b[0] >> 4) == 6 ? 0 : 14;
    const uint8_t* bth = b + off + 48;
    return (uint32_t(bth[9]) << 16) | (uint32_t(bth[10]) << 8) | bth[11];
}

/// Drops the data frames (longer than 500 bytes) with the given arrival ranks (1-based).
class DropData : public ErrorModel
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::MrcTestDropData").SetParent<ErrorModel>().SetGroupName("Mrc");
        return tid;
    }

    std::set<uint32_t> ranks;
    uint32_t seen{0};
    std::vector<uint32_t> droppedPsns;

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        if (p->GetSize() <= 500 || ranks.count(++seen) == 0)
        {
            return false;
        }
        droppedPsns.push_back(PsnOf(p));
        return true;
    }

    void DoReset() override
    {
    }
};

/// A selective-repeat run of one Write of `bytes` with the given data frames dropped.
struct SrRun
{
    MrcRdmaHelper::Connection c;
    Ptr<DropData> em;
    std::vector<uint32_t> sentPsns;
    std::vector<MrcWorkCompletion> wc;
    std::vector<uint64_t> outstanding; //!< next - unacked at every data send

    void Run(uint32_t bytes, std::set<uint32_t> drop, uint32_t cap = 0)
    {
        MrcRdmaHelper rdma;
        rdma.SetQueuePairAttribute("Mtu", UintegerValue(1000));
        rdma.SetQueuePairAttribute("Recovery", EnumValue(MrcRoceQueuePair::SELECTIVE_REPEAT));
        rdma.SetQueuePairAttribute("MaxOutstandingPsns", UintegerValue(cap));
        Pair s = MakePair(rdma);
        em = CreateObject<DropData>();
        em->ranks = std::move(drop);
        s.dev[1]->SetAttribute("ReceiveErrorModel", PointerValue(em));
        c = rdma.Connect(s.hosts.Get(0), s.hosts.Get(1), bytes);
        // a plain pointer: a Ptr held by the QP's own trace source would be a reference
        // cycle, and the QP would never be freed (LeakSanitizer)
        MrcRoceQueuePair* rq = PeekPointer(DynamicCast<MrcRoceQueuePair>(c.requester));
        c.requester->TraceConnectWithoutContext(
            "Tx",
            Callback<void, Ptr<const Packet>>([this, rq](Ptr<const Packet> p) {
                sentPsns.push_back(PsnOf(p));
                outstanding.push_back(rq->GetSendNext() - rq->GetSendUnacked());
            }));
        c.requester->SetCompletionCallback(Callback<void, const MrcWorkCompletion&>(
            [this](const MrcWorkCompletion& w) { wc.push_back(w); }));
        ASSERT_TRUE(c.requester->PostSend(WriteRequest(c, 1, bytes)));
        Simulator::Run();
    }

    /// \return the PSNs sent more than once, in the order of their second sending
    std::vector<uint32_t> Resent() const
    {
        std::vector<uint32_t> out;
        std::set<uint32_t> seen;
        for (uint32_t psn : sentPsns)
        {
            if (!seen.insert(psn).second)
            {
                out.push_back(psn);
            }
        }
        return out;
    }
};

} // namespace

TEST(MrcRoceSelectiveRepeat, OneLostPsnIsTheOnlyOneResent)
{
    SrRun r;
    r.Run(100000, {20});
    ASSERT_EQ(r.wc.size(), 1u);
    EXPECT_EQ(r.wc[0].status, MrcWcStatus::SUCCESS);
    EXPECT_TRUE(r.c.region->IsExactlyOnce(r.c.region->GetBase(), 100000));
    ASSERT_EQ(r.em->droppedPsns.size(), 1u);
    EXPECT_EQ(r.em->droppedPsns[0], r.sentPsns.front() + 19);
    EXPECT_EQ(r.Resent(), std::vector<uint32_t>{r.em->droppedPsns[0]});
    const MrcQpCounters& tx = r.c.requester->GetCounters();
    const MrcQpCounters& rx = r.c.responder->GetCounters();
    EXPECT_EQ(tx.retransmittedPackets, 1u);
    EXPECT_EQ(tx.dataPacketsSent, 101u);
    EXPECT_EQ(tx.timeouts, 0u);
    EXPECT_EQ(rx.naksSent, 1u); // one NAK for the one hole
    EXPECT_EQ(tx.naksReceived, 1u);
    EXPECT_EQ(rx.duplicatePackets, 0u);
    EXPECT_EQ(rx.bytesPlaced, 100000u);
    EXPECT_GT(rx.outOfOrderPackets, 0u); // the packets behind the hole were kept
    EXPECT_EQ(DynamicCast<MrcRoceQueuePair>(r.c.responder)->GetHeldPackets(), 0u);
    Simulator::Destroy();
}

TEST(MrcRoceSelectiveRepeat, SeveralLostPsnsAreResentOnceEach)
{
    SrRun r;
    // 20 and 21 (two holes side by side), 50, and 100 (the last packet of a 100-packet
    // window... here the message has 200 packets, so later packets reveal it).
    r.Run(200000, {20, 21, 50, 100});
    ASSERT_EQ(r.wc.size(), 1u);
    EXPECT_EQ(r.wc[0].status, MrcWcStatus::SUCCESS);
    EXPECT_TRUE(r.c.region->IsExactlyOnce(r.c.region->GetBase(), 200000));
    std::vector<uint32_t> resent = r.Resent();
    std::sort(resent.begin(), resent.end());
    std::vector<uint32_t> dropped = r.em->droppedPsns;
    std::sort(dropped.begin(), dropped.end());
    ASSERT_EQ(dropped.size(), 4u);
    EXPECT_EQ(resent, dropped);
    const MrcQpCounters& tx = r.c.requester->GetCounters();
    EXPECT_EQ(tx.retransmittedPackets, 4u);
    EXPECT_EQ(tx.dataPacketsSent, 204u);
    EXPECT_EQ(tx.timeouts, 0u);
    EXPECT_EQ(r.c.responder->GetCounters().naksSent, 4u);
    EXPECT_EQ(r.c.responder->GetCounters().bytesPlaced, 200000u);
    Simulator::Destroy();
}

TEST(MrcRoceSelectiveRepeat, LostFirstPacketOfAMessageKeepsTheFollowingOnes)
{
    // The lost packet carries the RETH: the packets after it cannot be placed until it
    // arrives again; they are kept, not resent.
    SrRun r;
    r.Run(50000, {1});
    ASSERT_EQ(r.wc.size(), 1u);
    EXPECT_EQ(r.wc[0].status, MrcWcStatus::SUCCESS);
    EXPECT_TRUE(r.c.region->IsExactlyOnce(r.c.region->GetBase(), 50000));
    EXPECT_EQ(r.Resent(), std::vector<uint32_t>{r.sentPsns.front()});
    EXPECT_EQ(r.c.requester->GetCounters().retransmittedPackets, 1u);
    Simulator::Destroy();
}

TEST(MrcRoceSelectiveRepeat, LostTailIsResentByTheTimeoutOnly)
{
    SrRun r;
    r.Run(100000, {100});
    ASSERT_EQ(r.wc.size(), 1u);
    EXPECT_EQ(r.wc[0].status, MrcWcStatus::SUCCESS);
    EXPECT_TRUE(r.c.region->IsExactlyOnce(r.c.region->GetBase(), 100000));
    const MrcQpCounters& tx = r.c.requester->GetCounters();
    EXPECT_EQ(tx.timeouts, 1u);
    EXPECT_EQ(tx.retransmittedPackets, 1u);
    EXPECT_EQ(tx.naksReceived, 0u);
    EXPECT_EQ(r.Resent(), std::vector<uint32_t>{r.em->droppedPsns.at(0)});
    Simulator::Destroy();
}

TEST(MrcRoceSelectiveRepeat, OutstandingPsnsStayWithinTheCap)
{
    SrRun r;
    r.Run(100000, {30}, 8);
    ASSERT_EQ(r.wc.size(), 1u);
    EXPECT_EQ(r.wc[0].status, MrcWcStatus::SUCCESS);
    EXPECT_TRUE(r.c.region->IsExactlyOnce(r.c.region->GetBase(), 100000));
    ASSERT_FALSE(r.outstanding.empty());
    // Measured after the send: at most the cap.
    EXPECT_EQ(*std::max_element(r.outstanding.begin(), r.outstanding.end()), 8u);
    EXPECT_EQ(r.c.requester->GetCounters().retransmittedPackets, 1u);
    Simulator::Destroy();
}

TEST(MrcRoceSelectiveRepeat, GoBackNStaysTheDefault)
{
    Ptr<MrcRoceQueuePair> qp = CreateObject<MrcRoceQueuePair>();
    EXPECT_EQ(qp->GetRecovery(), MrcRoceQueuePair::GO_BACK_N);
    UintegerValue cap;
    qp->GetAttribute("MaxOutstandingPsns", cap);
    EXPECT_EQ(cap.Get(), 0u);
}

// ---------------------------------------------------------------------------
// Switch forwarding: adaptive (per packet) and flowlets
// ---------------------------------------------------------------------------

namespace
{

/// A packet of flow i to fd00:2::2.
MrcPacketInfo
FlowPacket(uint32_t i)
{
    MrcPacketInfo info;
    info.src = Ipv6Address("fd00:1::1");
    info.dst = Ipv6Address("fd00:2::2");
    info.flowLabel = (i * 2654435761u) & 0xfffff;
    info.hasUdp = true;
    info.udpSrcPort = static_cast<uint16_t>(49152 + i);
    info.udpDstPort = 4791;
    return info;
}

/// Egress loads a test sets by hand.
struct Loads
{
    std::vector<uint64_t> bytes = std::vector<uint64_t>(8, 0);

    uint64_t Get(uint32_t port)
    {
        return bytes.at(port);
    }
};

template <typename T>
Ptr<T>
FourUplinks(Loads& loads)
{
    Ptr<T> f = CreateObject<T>();
    for (uint32_t port = 1; port <= 4; ++port)
    {
        f->AddRoute(Ipv6Address("fd00:2::"), 64, port);
    }
    f->SetPortLoadCallback(MakeCallback(&Loads::Get, &loads));
    return f;
}

} // namespace

TEST(MrcAdaptiveForwarding, EachPacketTakesTheLeastLoadedLivePort)
{
    Loads loads;
    Ptr<MrcAdaptiveForwarding> f = FourUplinks<MrcAdaptiveForwarding>(loads);
    Ptr<MrcEcmpForwarding> ecmp = FourUplinks<MrcEcmpForwarding>(loads);
    MrcPacketInfo info = FlowPacket(7);
    const int32_t hashed = ecmp->Route(info, 0);
    // All empty: round-robin, 4 packets on the 4 ports.
    std::set<int32_t> idle;
    for (uint32_t i = 0; i < 4; ++i)
    {
        idle.insert(f->Route(info, 0));
    }
    EXPECT_EQ(idle, (std::set<int32_t>{1, 2, 3, 4}));
    // Load everything but port 3: port 3 whatever the hash.
    loads.bytes = {0, 5000, 5000, 100, 5000, 0, 0, 0};
    EXPECT_EQ(f->Route(info, 0), 3);
    // Port 3 down: the least loaded of the others (ties among 1, 2, 4 all 5000 keep the
    // hashed port if live).
    f->SetPortState(3, false);
    loads.bytes[2] = 4000;
    EXPECT_EQ(f->Route(info, 0), 2);
    EXPECT_GE(f->GetMovedPackets(), 1u);
    // ECMP ignores the loads.
    EXPECT_EQ(ecmp->Route(info, 0), hashed);
}

TEST(MrcFlowletForwarding, BackToBackStaysAndAGapMoves)
{
    Loads loads;
    Ptr<MrcFlowletForwarding> f = FourUplinks<MrcFlowletForwarding>(loads);
    f->SetAttribute("FlowletGap", TimeValue(MicroSeconds(10)));
    MrcPacketInfo info = FlowPacket(3);
    std::vector<int32_t> ports;
    // 20 packets 1 us apart: one flowlet, whatever the loads do meanwhile.
    for (uint32_t i = 0; i < 20; ++i)
    {
        Simulator::Schedule(MicroSeconds(i), [&, i]() {
            for (uint32_t p = 1; p <= 4; ++p)
            {
                loads.bytes[p] = p == 1 + (i + 1) % 4 ? 0 : 1000 * p; // least loaded rotates
            }
            ports.push_back(f->Route(info, 0));
        });
    }
    int32_t before = -1;
    int32_t after = -1;
    // After a 15 us gap, its port is loaded and another is empty: the flow moves.
    Simulator::Schedule(MicroSeconds(35), [&]() {
        before = ports.front();
        loads.bytes = {0, 9000, 9000, 9000, 9000, 0, 0, 0};
        loads.bytes[before == 4 ? 1 : before + 1] = 0;
        after = f->Route(info, 0);
    });
    Simulator::Run();
    ASSERT_EQ(ports.size(), 20u);
    for (int32_t p : ports)
    {
        EXPECT_EQ(p, ports.front());
    }
    EXPECT_EQ(after, before == 4 ? 1 : before + 1);
    EXPECT_EQ(f->GetFlowlets(), 2u);
    EXPECT_EQ(f->GetNFlows(), 1u);
    Simulator::Destroy();
}

TEST(MrcFlowletForwarding, ADownPortStartsANewFlowletAtOnce)
{
    Loads loads;
    Ptr<MrcFlowletForwarding> f = FourUplinks<MrcFlowletForwarding>(loads);
    MrcPacketInfo info = FlowPacket(5);
    const int32_t first = f->Route(info, 0);
    f->SetPortState(static_cast<uint32_t>(first), false);
    const int32_t second = f->Route(info, 0);
    EXPECT_NE(second, first);
    EXPECT_EQ(f->GetFlowlets(), 2u);
    EXPECT_EQ(f->Route(info, 0), second);
}

namespace
{

/// Settings of a permutation on a two-T0 Clos (4 hosts per T0, 2 spines, 1 plane).
MrcScenarioConfig
SmallClos(const std::string& transport, uint64_t bytes)
{
    MrcScenarioOptions o;
    o.scenario = "permutation";
    MrcScenarios::Find("permutation")->preset(o);
    o.topo.hosts = "8";
    o.topo.hostsPerT0 = "4";
    o.topo.t1PerPlane = "2";
    o.topo.planes = "1";
    o.transport = transport;
    o.profile = "";
    o.sampleInterval = "0s";
    MrcScenarioConfig c = o.ToConfig();
    c.bytes = bytes;
    c.progress = false;
    c.simTime = Seconds(1);
    return c;
}

void
Reset()
{
    Simulator::Destroy();
    Names::Clear();
    Config::Reset();
}

/// Data bytes each T0 uplink sent.
std::vector<uint64_t>
UplinkBytes(const MrcScenarioRunner& r)
{
    std::vector<uint64_t> out;
    Ptr<MrcTopology> t = r.GetTopology();
    for (uint32_t i = 0; i < t->GetConfig().GetT0PerPlane(); ++i)
    {
        Ptr<MrcSwitchNode> sw = t->GetSwitch(0, MrcTier::T0, i);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            if (sw->IsHostFacing(p))
            {
                continue;
            }
            uint64_t b = 0;
            for (uint8_t cls = 0; cls < MrcNetDevice::N_CLASSES; ++cls)
            {
                b += sw->GetPort(p)->GetTxBytes(cls);
            }
            out.push_back(b);
        }
    }
    return out;
}

} // namespace

TEST(MrcAdaptiveForwarding, SpreadsAPermutationAndRoceDeliversExactlyOnce)
{
    // 8 senders, 4 leave each T0 over 2 uplinks. Adaptive routing with a selective-repeat
    // RoCE that tolerates reordering.
    Config::SetDefault("ns3::MrcDualForwarding::EcmpForwarding",
                       TypeIdValue(MrcAdaptiveForwarding::GetTypeId()));
    Config::SetDefault("ns3::MrcRoceQueuePair::Recovery",
                       EnumValue(MrcRoceQueuePair::SELECTIVE_REPEAT));
    Config::SetDefault("ns3::MrcRoceQueuePair::ReorderPsns", UintegerValue(64));
    const uint64_t bytes = 2000000;
    MrcScenarioConfig c = SmallClos("roce", bytes);
    MrcScenarioRunner r(c);
    r.Run();
    const auto s = r.GetResults().Summarize();
    EXPECT_EQ(s.at(0).completed, 8u);
    EXPECT_EQ(s.at(0).counters.bytesExactlyOnce, 8 * bytes);
    const std::vector<uint64_t> up = UplinkBytes(r);
    ASSERT_EQ(up.size(), 4u);
    uint64_t total = 0;
    for (uint64_t b : up)
    {
        total += b;
    }
    ASSERT_GT(total, 0u); // some senders' destinations are under the other T0
    // Per T0, the two uplinks carry within 10 % of each other.
    for (uint32_t t0 = 0; t0 < 2; ++t0)
    {
        const double a = double(up[2 * t0]);
        const double b = double(up[2 * t0 + 1]);
        if (a + b > 0)
        {
            EXPECT_LT(std::abs(a - b) / std::max(a, b), 0.10)
                << "T0 " << t0 << ": " << a << " vs " << b;
        }
    }
    Reset();
}

TEST(MrcRoceStriping, AFlowOverNQueuePairsUsesNFlowHashesExactlyOnce)
{
    // One 4 MB flow per sender split into 4 messages, one per queue pair of its connection
    // (--qpsPerPair=4, NCCL's QPs per connection).
    const uint64_t bytes = 4000000;
    MrcScenarioConfig c = SmallClos("roce", bytes);
    c.qpsPerPair = 4;
    MrcScenarioRunner r(c);
    r.Run();
    const auto s = r.GetResults().Summarize();
    EXPECT_EQ(s.at(0).completed, 32u);
    EXPECT_EQ(s.at(0).counters.bytesExactlyOnce, 8 * bytes);
    const auto& lanes = r.GetConnections().GetLanes();
    ASSERT_EQ(r.GetConnections().GetNConnections(), 8u);
    ASSERT_EQ(lanes.size(), 32u);
    std::map<uint32_t, std::set<uint16_t>> portsOfConnection;
    for (const MrcConnectionLane& lane : lanes)
    {
        EXPECT_EQ(lane.messages, 1u);
        EXPECT_EQ(lane.nextOffset, bytes / 4);
        EXPECT_TRUE(lane.qps.region->IsExactlyOnce(lane.qps.region->GetBase(), bytes / 4));
        Ptr<MrcRoceQueuePair> qp = DynamicCast<MrcRoceQueuePair>(lane.qps.requester);
        ASSERT_TRUE(qp);
        portsOfConnection[lane.connection].insert(qp->GetPath().udpSrcPort);
    }
    for (const auto& [conn, ports] : portsOfConnection)
    {
        EXPECT_EQ(ports.size(), 4u) << "connection " << conn; // 4 distinct flow hashes
    }
    Reset();
}

// ---------------------------------------------------------------------------
// DCQCN as deployed: utilization and convergence of long flows into one host
// ---------------------------------------------------------------------------

namespace
{

/// Rates of staggered long flows into host 15 of a one-T0 fabric (16 hosts).
struct Bottleneck
{
    double utilization{0};      //!< receiver link use in the window (wire bytes / capacity)
    std::vector<double> shares; //!< each sender's rate over the mean rate in the window
    uint64_t exactlyOnce{0};    //!< payload bytes delivered exactly once
    uint64_t total{0};          //!< payload bytes posted
    std::string profile;        //!< the profile the run used (summary.json run.profile)
    std::string mtu;            //!< the payload size it used (summary.json options.mtu)
    Time firstEnd;              //!< completion time of the first flow to finish
    Time windowEnd;             //!< end of the window measured: `to`, or the first finish
    double maxDeviation{0};     //!< largest |share - 1|
};

/**
 * n flows of `bytes` each, sender i starting at i x gap, with profile `profile` and
 * --mtu=4096, or with mrc-sim's defaults for roce (no --profile, no --mtu) when `profile`
 * is empty; rates measured through the device counters from `from` to `to`, or to the last
 * 10 us sample before the first flow finishes if that comes earlier (every sender active).
 */
Bottleneck
RunBottleneck(const std::string& profile, uint32_t n, uint64_t bytes, Time gap, Time from, Time to)
{
    MrcScenarioOptions o;
    o.scenario = "permutation"; // its messages replaced by the flow list below
    MrcScenarios::Find("permutation")->preset(o);
    o.topo.hosts = "16";
    o.topo.hostsPerT0 = "16";
    o.topo.t1PerPlane = "1";
    o.topo.planes = "1";
    o.topo.mtu = profile.empty() ? "" : "4096";
    o.transport = "roce";
    o.profile = profile;
    o.sampleInterval = "0s";
    MrcScenarioConfig c = o.ToConfig();
    c.pattern = "file";
    for (uint32_t i = 0; i < n; ++i)
    {
        MrcFlowSpec f;
        f.src = i;
        f.dst = 15;
        f.bytes = bytes;
        f.start = gap * static_cast<int64_t>(i);
        c.fileFlows.push_back(f);
    }
    c.progress = false;
    c.simTime = Seconds(1);
    MrcScenarioRunner r(c);
    r.Build();
    auto wire = [&r](uint32_t host, bool rx) {
        Ptr<Node> h = r.GetTopology()->GetHost(host);
        Ptr<MrcNetDevice> d = DynamicCast<MrcNetDevice>(h->GetDevice(h->GetNDevices() - 1));
        uint64_t b = 0;
        for (uint8_t cls = 0; cls < MrcNetDevice::N_CLASSES; ++cls)
        {
            b += rx ? d->GetRxBytes(cls) : d->GetTxBytes(cls);
        }
        return b;
    };

    // Counters every 10 us from `from` to `to`: the window can then end before the first
    // completion, so that a finished sender's idle time does not count as a low share.
    struct Snapshot
    {
        Time at;
        std::vector<uint64_t> tx;
        uint64_t rx{0};
    };

    std::vector<Snapshot> snaps;
    for (Time t = from; t <= to; t += MicroSeconds(10))
    {
        Simulator::Schedule(t, [&, t]() {
            Snapshot sn;
            sn.at = t;
            for (uint32_t i = 0; i < n; ++i)
            {
                sn.tx.push_back(wire(i, false));
            }
            sn.rx = wire(15, true);
            snaps.push_back(sn);
        });
    }
    r.Run();
    Bottleneck b;
    int64_t firstEndNs = -1;
    for (const MrcFlowRecord& f : r.GetResults().GetFlows())
    {
        if (f.IsCompleted() && (firstEndNs < 0 || f.endNs < firstEndNs))
        {
            firstEndNs = f.endNs;
        }
    }
    b.firstEnd = firstEndNs < 0 ? Time::Max() : NanoSeconds(firstEndNs);
    size_t last = snaps.size() - 1;
    while (last > 0 && snaps[last].at > b.firstEnd)
    {
        --last;
    }
    b.windowEnd = snaps[last].at;
    const std::vector<uint64_t>& tx0 = snaps.front().tx;
    const std::vector<uint64_t>& tx1 = snaps[last].tx;
    const uint64_t rx0 = snaps.front().rx;
    const uint64_t rx1 = snaps[last].rx;
    const double seconds = (b.windowEnd - from).GetSeconds();
    b.utilization = double(rx1 - rx0) * 8 / seconds / 100e9;
    double sum = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        sum += double(tx1[i] - tx0[i]);
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        b.shares.push_back(double(tx1[i] - tx0[i]) / (sum / n));
        b.maxDeviation = std::max(b.maxDeviation, std::abs(b.shares.back() - 1));
    }
    const auto s = r.GetResults().Summarize();
    b.exactlyOnce = s.at(0).counters.bytesExactlyOnce;
    b.total = uint64_t(n) * bytes;
    b.profile = r.GetResults().GetInfo().profile;
    b.mtu = r.GetResults().GetInfo().options.at("mtu");
    return b;
}

} // namespace

TEST(MrcRoceDeployedProfile, TwoStaggeredFlowsFillTheBottleneckFairly)
{
    // Sender 1 starts 200 us after sender 0; both are active until about 2.3 ms. mrc-sim's
    // defaults for roce since issue 19: roce-deployed at 4096 B.
    const Bottleneck b =
        RunBottleneck("", 2, 15000000, MicroSeconds(200), MicroSeconds(500), MicroSeconds(2200));
    EXPECT_EQ(b.profile, "roce-deployed");
    EXPECT_EQ(b.mtu, "4096");
    EXPECT_EQ(b.windowEnd, MicroSeconds(2200)); // both still sending at the window's end
    EXPECT_GE(b.utilization, 0.95);
    for (double s : b.shares)
    {
        EXPECT_NEAR(s, 1.0, 0.10);
    }
    EXPECT_EQ(b.exactlyOnce, b.total);
    Reset();
}

TEST(MrcRoceDeployedProfile, EightStaggeredFlowsFillTheBottleneckButKeepUnequalShares)
{
    // Senders start 100 us apart; measured from 8.7 ms (well after the last start) until the
    // first flow finishes (15.5 ms at this seed; 17.5 ms at most).
    const Bottleneck b =
        RunBottleneck("", 8, 30000000, MicroSeconds(100), MicroSeconds(8700), MicroSeconds(17500));
    EXPECT_EQ(b.profile, "roce-deployed");
    EXPECT_EQ(b.mtu, "4096");
    EXPECT_GT(b.windowEnd, MicroSeconds(13700)); // at least 5 ms with all eight active
    EXPECT_GE(b.utilization, 0.95);
    EXPECT_EQ(b.exactlyOnce, b.total);
    // Issue 19 asks for every sender within 10 % of the fair share. With the NIC's alpha gain
    // (g = 5/1024, roce-deployed since session 15) and the pacing gap re-planned at the
    // current rate (PacingGap RateNow, session 16) DCQCN does not get there here: largest
    // deviation 0.20 at this seed, within 10 % at 5 of seeds 1-20 (2 of 20 with the gap
    // fixed at send, 6 of 20 with that and g = 1/256). Measured in session 17 (doc/mrc.rst,
    // "Eight staggered flows: convergence and fluctuation"): the late joiners' head start
    // (their target rate kept from line rate) decays in about 15 ms, then each share
    // fluctuates about the fair share (sd 0.07 per ms, correlation time about 5 ms), so a
    // 7-9 ms window is within 10 % about half the time; the next test takes a 60 ms window.
    // A finding, not a goal: this fails once the model converges within the bound
    // at this seed.
    EXPECT_GT(b.maxDeviation, 0.10);
    EXPECT_LT(b.maxDeviation, 0.30);
    Reset();
}

TEST(MrcRoceDeployedProfile, EightStaggeredFlowsConvergeOverAWindowLongerThanTheirFluctuation)
{
    // The same eight staggered senders with 135 MB each (all active until about 84 ms),
    // measured from 20 ms, after the join-order transient, to 80 ms: 12 correlation times of
    // the share fluctuation. Seeds 1-20 (mrc-sim, session 17): largest deviation 0.027-0.074,
    // 0.052 at this seed; with roce-hpcc's DCQCN (300 us increase timer) 0.166 here, so the
    // bound separates a fluctuating fair share from a persistently unequal one.
    const Bottleneck b =
        RunBottleneck("", 8, 135000000, MicroSeconds(100), MilliSeconds(20), MilliSeconds(80));
    EXPECT_EQ(b.profile, "roce-deployed");
    EXPECT_EQ(b.windowEnd, MilliSeconds(80)); // all eight still sending
    EXPECT_GE(b.utilization, 0.95);
    for (double s : b.shares)
    {
        EXPECT_NEAR(s, 1.0, 0.10);
    }
    EXPECT_EQ(b.exactlyOnce, b.total);
    Reset();
}

TEST(MrcRoceDeployedProfile, TheHpccSettingsLeaveTheBottleneckPartlyIdle)
{
    // The measurement behind the profile: the same two flows with roce-hpcc's 300 us rate
    // increase timer use the bottleneck less (about 86 % at 1000 B in mrc-sim).
    const Bottleneck b = RunBottleneck("roce-hpcc",
                                       2,
                                       15000000,
                                       MicroSeconds(200),
                                       MicroSeconds(500),
                                       MicroSeconds(2200));
    EXPECT_LT(b.utilization, 0.93);
    Reset();
}

namespace
{

/// The profile and payload size a two-host roce run records, given --profile and --mtu.
std::pair<std::string, std::string>
ResolvedDefaults(const std::string& profile, const std::string& mtu)
{
    MrcScenarioOptions o;
    o.scenario = "permutation";
    MrcScenarios::Find("permutation")->preset(o);
    o.transports = "";
    o.transport = "roce";
    o.topo.hosts = "2";
    o.topo.hostsPerT0 = "2";
    o.topo.t1PerPlane = "1";
    o.topo.planes = "1";
    o.bytes = "20000";
    o.profile = profile;
    o.topo.mtu = mtu;
    o.sampleInterval = "0s";
    MrcScenarioConfig c = o.ToConfig();
    c.progress = false;
    MrcScenarioRunner r(c);
    r.Run();
    UintegerValue qpMtu;
    r.GetRequesters().at(0)->GetAttribute("Mtu", qpMtu);
    const MrcRunInfo& info = r.GetResults().GetInfo();
    EXPECT_EQ(std::to_string(qpMtu.Get()), info.options.at("mtu"));
    // a permutation of two hosts: each writes 20 kB to the other
    EXPECT_EQ(r.GetResults().Summarize().at(0).counters.bytesExactlyOnce, 40000u);
    auto out = std::make_pair(info.profile, info.options.at("mtu"));
    Reset();
    return out;
}

} // namespace

TEST(MrcRoceDefaults, DeployedProfileAt4096BytesUnlessTheProfileOrMtuSaysOtherwise)
{
    // issue 19: roce-deployed and 4096 B by default, as uec and mrc
    EXPECT_EQ(ResolvedDefaults("", ""),
              std::make_pair(std::string("roce-deployed"), std::string("4096")));
    // a profile that fixes the payload keeps it when --mtu is not given (HPCC run.py)
    EXPECT_EQ(ResolvedDefaults("roce-hpcc", ""),
              std::make_pair(std::string("roce-hpcc"), std::string("1000")));
    EXPECT_EQ(ResolvedDefaults("roce-paper", ""),
              std::make_pair(std::string("roce-paper"), std::string("1000")));
    // --mtu wins over the profile; no profile: the transport's 4096
    EXPECT_EQ(ResolvedDefaults("roce-hpcc", "2048"),
              std::make_pair(std::string("roce-hpcc"), std::string("2048")));
    EXPECT_EQ(ResolvedDefaults("none", "").second, "4096");
}
