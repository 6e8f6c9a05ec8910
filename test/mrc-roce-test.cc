/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RoCEv2 RC over a one-switch star: line-rate goodput, ACK coalescing, Write with
// Immediate, 32->1 incast under PFC, go-back-N after one lost packet, a dead link
// ending in a QP error, a rejected rkey, both CNP styles; and the named profiles.

#include "mrc-test-support.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/mrc-channel.h"
#include "ns3/mrc-congestion-ops.h"
#include "ns3/mrc-dcqcn-np.h"
#include "ns3/mrc-dcqcn.h"
#include "ns3/mrc-ecmp-forwarding.h"
#include "ns3/mrc-ecn-marker.h"
#include "ns3/mrc-link-helper.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-profiles.h"
#include "ns3/mrc-rdma-helper.h"
#include "ns3/mrc-rdma-nic.h"
#include "ns3/mrc-roce-queue-pair.h"
#include "ns3/mrc-shared-buffer-mmu.h"
#include "ns3/mrc-switch-helper.h"
#include "ns3/mrc-switch-node.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;
using ns3::MrcTest::WriteRequest;

namespace
{

using MrcTest::HostAddress;

const DataRate RATE("100Gbps");
const Time DELAY = MicroSeconds(1);

/// Star configuration.
struct StarConfig
{
    uint32_t hosts{2};
    bool pfc{true};
    uint64_t sharedBytes{4 << 20}; //!< shared buffer beyond reserves and headrooms
    uint64_t kmin{400000};
    uint64_t kmax{1600000};
};

/// N hosts on one switch, a NIC on each.
struct Star
{
    Ptr<MrcSwitchNode> sw;
    NodeContainer hosts;
    std::vector<Ptr<MrcNetDevice>> dev; //!< host side
    std::vector<Ptr<MrcRdmaNic>> nic;
};

Star
MakeStar(MrcRdmaHelper& rdma, const StarConfig& cfg)
{
    Star s;
    const uint64_t reserve = 4096;
    const uint64_t headroom = MrcSharedBufferMmu::ComputeHeadroom(RATE, DELAY) + 2 * (9000 + 38);
    const uint64_t fixed = uint64_t(cfg.hosts) * (8 * reserve + (cfg.pfc ? headroom : 0));
    MrcSwitchHelper sh;
    sh.SetMmuAttribute("BufferSize", UintegerValue(fixed + cfg.sharedBytes));
    sh.SetMmuAttribute("ReservePerQueue", UintegerValue(reserve));
    sh.SetMmuAttribute("PfcPriorityMask", UintegerValue(cfg.pfc ? (1u << 3) : 0));
    sh.SetEcnAttribute("Kmin", UintegerValue(cfg.kmin));
    sh.SetEcnAttribute("Kmax", UintegerValue(cfg.kmax));
    s.sw = sh.CreateSwitch();
    MrcLinkHelper link;
    link.SetDeviceAttribute("DataRate", DataRateValue(RATE));
    link.SetChannelAttribute("Delay", TimeValue(DELAY));
    s.hosts.Create(cfg.hosts);
    Ptr<MrcEcmpForwarding> fwd = DynamicCast<MrcEcmpForwarding>(s.sw->GetForwarding());
    for (uint32_t i = 0; i < cfg.hosts; ++i)
    {
        const uint32_t port = MrcSwitchHelper::ConnectHost(link, s.sw, s.hosts.Get(i));
        fwd->AddRoute(HostAddress(i), 128, port);
        s.dev.push_back(s.sw->GetPort(port)->GetPeer());
        s.nic.push_back(rdma.Install(s.hosts.Get(i), s.dev.back(), HostAddress(i)));
    }
    int64_t stream = 0;
    for (uint32_t p = 0; p < s.sw->GetNPorts(); ++p)
    {
        stream += s.sw->GetEcnMarker(p)->AssignStreams(stream);
    }
    return s;
}

/// Collects completions.
struct Completions
{
    std::vector<MrcWorkCompletion> wc;

    MrcQueuePair::CompletionCallback Cb()
    {
        return MakeCallback(&Completions::Add, this);
    }

    void Add(const MrcWorkCompletion& c)
    {
        wc.push_back(c);
    }
};

/// The PSN of a packet that starts at its IPv6 header (or its Ethernet header).
uint32_t
PsnOf(Ptr<const Packet> p)
{
    uint8_t b[80];
    p->CopyData(b, sizeof(b));
    uint32_t off = (b[0] >> 4) == 6 ? 0 : 14;
    const uint8_t* bth = b + off + 48;
    return (uint32_t(bth[9]) << 16) | (uint32_t(bth[10]) << 8) | bth[11];
}

/// Drops the n-th received frame longer than 500 bytes (a data packet) and records its PSN.
class DropNthData : public ErrorModel
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::MrcTestDropNthData").SetParent<ErrorModel>().SetGroupName("Mrc");
        return tid;
    }

    uint32_t n{0};
    uint32_t seen{0};
    uint32_t droppedPsn{0xffffffff};

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        if (p->GetSize() <= 500)
        {
            return false;
        }
        if (++seen == n)
        {
            droppedPsn = PsnOf(p);
            return true;
        }
        return false;
    }

    void DoReset() override
    {
    }
};

/// Controller that counts how congestion reaches it.
class CountingCc : public MrcNoCongestionControl
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::MrcTestCountingCc")
                                .SetParent<MrcNoCongestionControl>()
                                .SetGroupName("Mrc")
                                .AddConstructor<CountingCc>();
        return tid;
    }

    uint64_t cnps{0};
    uint64_t flaggedAcks{0};

    void OnCnp(MrcCcState& /* s */) override
    {
        ++cnps;
    }

    void OnAck(MrcCcState& /* s */, const MrcCcAck& ack) override
    {
        flaggedAcks += ack.cnpFlag ? 1 : 0;
        EXPECT_EQ(ack.cnpFlag, ack.ecnEcho);
    }
};

NS_OBJECT_ENSURE_REGISTERED(CountingCc);

/// Controller that starts at 1 Mb/s and raises its rate to the line rate at RaiseAt, telling
/// the queue pair through notifyChanged (as MrcDcqcn's increase timer does).
class StepRateCc : public MrcNoCongestionControl
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::MrcTestStepRateCc")
                                .SetParent<MrcNoCongestionControl>()
                                .SetGroupName("Mrc")
                                .AddConstructor<StepRateCc>();
        return tid;
    }

    static constexpr uint64_t LOW_BPS = 1000000; //!< 1 Mb/s, DCQCN's NIC floor

    /// \return when the rate rises
    static Time RaiseAt()
    {
        return MicroSeconds(10);
    }

    void Init(MrcCcState& s) override
    {
        s.rate = DataRate(LOW_BPS);
        m_state = &s;
        m_event = Simulator::Schedule(RaiseAt(), &StepRateCc::Raise, this);
    }

    Ptr<MrcCongestionOps> Fork() const override
    {
        return CreateObject<StepRateCc>();
    }

  private:
    void Raise()
    {
        m_state->rate = m_state->lineRate;
        if (!m_state->notifyChanged.IsNull())
        {
            m_state->notifyChanged();
        }
    }

    void DoDispose() override
    {
        m_event.Cancel();
        m_state = nullptr;
        MrcNoCongestionControl::DoDispose();
    }

    MrcCcState* m_state{nullptr};
    EventId m_event;
};

NS_OBJECT_ENSURE_REGISTERED(StepRateCc);

} // namespace

TEST(MrcRoce, SingleFlowReachesLineRate)
{
    MrcRdmaHelper rdma;
    Star s = MakeStar(rdma, StarConfig{});
    MrcRdmaHelper::Connection c = rdma.Connect(s.hosts.Get(0), s.hosts.Get(1), 8 << 20);
    Completions done;
    c.requester->SetCompletionCallback(done.Cb());
    const uint32_t bytes = 8 << 20;
    ASSERT_TRUE(c.requester->PostSend(WriteRequest(c, 1, bytes)));
    Simulator::Run();
    ASSERT_EQ(done.wc.size(), 1u);
    EXPECT_EQ(done.wc[0].status, MrcWcStatus::SUCCESS);
    EXPECT_EQ(done.wc[0].bytes, bytes);
    EXPECT_EQ(done.wc[0].wrId, 1u);
    EXPECT_EQ(done.wc[0].start, Seconds(0));
    const double goodput = bytes * 8.0 / (done.wc[0].end - done.wc[0].start).GetSeconds();
    EXPECT_GE(goodput, 0.95 * RATE.GetBitRate()) << goodput;
    EXPECT_TRUE(c.region->IsExactlyOnce(c.region->GetBase(), bytes));
    const MrcQpCounters& tx = c.requester->GetCounters();
    const MrcQpCounters& rx = c.responder->GetCounters();
    EXPECT_EQ(tx.dataPacketsSent, 2048u); // 8 MiB / 4096
    EXPECT_EQ(tx.retransmittedPackets, 0u);
    EXPECT_EQ(tx.cnpsReceived, 0u);
    EXPECT_EQ(rx.cnpsSent, 0u);
    EXPECT_EQ(rx.ecnMarkedReceived, 0u);
    EXPECT_EQ(rx.acksSent, 2048u); // AckInterval 1
    EXPECT_EQ(tx.acksReceived, 2048u);
    EXPECT_EQ(rx.messagesReceived, 1u);
    EXPECT_EQ(s.sw->GetTotalDropPackets(), 0u);
    EXPECT_EQ(c.requester->GetOutstandingRequests(), 0u);
    Simulator::Destroy();
}

// A rate raised while a packet's pacing gap is pending: with PacingGap RateNow the next
// packet leaves at once (gap re-evaluated at the new rate from the last send time); with
// AtSend (the HPCC simulator's rule) it waits out the gap computed at 1 Mb/s when the first
// packet left: about 4,214 wire bytes at 1 Mb/s = 33.7 ms.
TEST(MrcRoce, RateIncreaseShortensAPendingGapOnlyWithRateNow)
{
    for (const std::string gap : {"RateNow", "AtSend"})
    {
        SCOPED_TRACE(gap);
        MrcRdmaHelper rdma;
        rdma.SetQueuePairAttribute("CongestionControl", TypeIdValue(StepRateCc::GetTypeId()));
        rdma.SetQueuePairAttribute("PacingGap", StringValue(gap));
        Star s = MakeStar(rdma, StarConfig{});
        MrcRdmaHelper::Connection c = rdma.Connect(s.hosts.Get(0), s.hosts.Get(1), 1 << 20);
        Completions done;
        c.requester->SetCompletionCallback(done.Cb());
        ASSERT_TRUE(c.requester->PostSend(WriteRequest(c, 1, 2 * 4096))); // two packets
        Simulator::Run();
        ASSERT_EQ(done.wc.size(), 1u);
        EXPECT_EQ(done.wc[0].status, MrcWcStatus::SUCCESS);
        EXPECT_EQ(c.requester->GetCounters().dataPacketsSent, 2u);
        if (gap == "RateNow")
        {
            // Second packet at the raise (10 us) + two hops and an ACK: well under 20 us.
            EXPECT_GT(done.wc[0].end, StepRateCc::RaiseAt());
            EXPECT_LT(done.wc[0].end, MicroSeconds(20)) << done.wc[0].end.As(Time::US);
        }
        else
        {
            EXPECT_GT(done.wc[0].end, MilliSeconds(33)) << done.wc[0].end.As(Time::US);
            EXPECT_LT(done.wc[0].end, MilliSeconds(34));
        }
        EXPECT_TRUE(c.region->IsExactlyOnce(c.region->GetBase(), 2 * 4096));
        Simulator::Destroy();
    }
}

TEST(MrcRoce, AckCoalescingCountsAndWriteWithImmediate)
{
    MrcRdmaHelper rdma;
    rdma.SetQueuePairAttribute("Mtu", UintegerValue(1000));
    rdma.SetQueuePairAttribute("AckInterval", UintegerValue(4));
    Star s = MakeStar(rdma, StarConfig{});
    MrcRdmaHelper::Connection c = rdma.Connect(s.hosts.Get(0), s.hosts.Get(1), 20000);
    Completions done;
    c.requester->SetCompletionCallback(done.Cb());
    std::vector<MrcRecvCompletion> recv;
    c.responder->SetReceiveCallback(Callback<void, const MrcRecvCompletion&>(
        [&recv](const MrcRecvCompletion& r) { recv.push_back(r); }));
    // 10 packets, 3 packets with imm (first, middle, last-imm), 1 packet with imm
    // (only-imm), an empty Write (1 packet).
    ASSERT_TRUE(c.requester->PostSend(WriteRequest(c, 1, 10000, 0)));
    MrcWorkRequest w2 = WriteRequest(c, 2, 2500, 10000);
    w2.opcode = MrcWrOpcode::WRITE_WITH_IMM;
    w2.immediate = 0xdeadbeef;
    ASSERT_TRUE(c.requester->PostSend(w2));
    MrcWorkRequest w3 = WriteRequest(c, 3, 100, 12500);
    w3.opcode = MrcWrOpcode::WRITE_WITH_IMM;
    w3.immediate = 7;
    ASSERT_TRUE(c.requester->PostSend(w3));
    ASSERT_TRUE(c.requester->PostSend(WriteRequest(c, 4, 0, 12600)));
    Simulator::Run();
    ASSERT_EQ(done.wc.size(), 4u);
    for (uint32_t i = 0; i < 4; ++i)
    {
        EXPECT_EQ(done.wc[i].wrId, i + 1);
        EXPECT_EQ(done.wc[i].status, MrcWcStatus::SUCCESS);
    }
    EXPECT_EQ(done.wc[1].opcode, MrcWrOpcode::WRITE_WITH_IMM);
    ASSERT_EQ(recv.size(), 4u);
    EXPECT_FALSE(recv[0].hasImmediate);
    EXPECT_EQ(recv[0].bytes, 10000u);
    EXPECT_TRUE(recv[1].hasImmediate);
    EXPECT_EQ(recv[1].immediate, 0xdeadbeefu);
    EXPECT_EQ(recv[1].address, c.region->GetBase() + 10000);
    EXPECT_EQ(recv[1].bytes, 2500u);
    EXPECT_TRUE(recv[2].hasImmediate);
    EXPECT_EQ(recv[2].immediate, 7u);
    EXPECT_EQ(recv[3].bytes, 0u);
    EXPECT_TRUE(c.region->IsExactlyOnce(c.region->GetBase(), 12600));
    const MrcQpCounters& rx = c.responder->GetCounters();
    EXPECT_EQ(rx.dataPacketsReceived, 15u);
    // ACKs: message 1 after packets 4, 8 and 10 (end); messages 2, 3, 4 at their ends.
    EXPECT_EQ(rx.acksSent, 6u);
    EXPECT_EQ(c.requester->GetCounters().acksReceived, 6u);
    Simulator::Destroy();
}

TEST(MrcRoce, Incast32To1WithPfcIsLosslessAndExactlyOnce)
{
    const uint32_t n = 32;
    const uint32_t bytes = 64000;
    MrcRdmaHelper rdma;
    rdma.SetQueuePairAttribute("Mtu", UintegerValue(1000));
    StarConfig cfg;
    cfg.hosts = n + 1;
    cfg.sharedBytes = 256 * 1024;
    Star s = MakeStar(rdma, cfg);
    std::vector<MrcRdmaHelper::Connection> conns;
    Completions done;
    for (uint32_t i = 0; i < n; ++i)
    {
        conns.push_back(rdma.Connect(s.hosts.Get(i), s.hosts.Get(n), bytes));
        conns.back().requester->SetCompletionCallback(done.Cb());
        ASSERT_TRUE(conns.back().requester->PostSend(WriteRequest(conns.back(), i, bytes)));
    }
    Simulator::Run();
    ASSERT_EQ(done.wc.size(), n);
    for (const auto& wc : done.wc)
    {
        EXPECT_EQ(wc.status, MrcWcStatus::SUCCESS);
    }
    EXPECT_EQ(s.sw->GetTotalDropPackets(), 0u);
    EXPECT_GT(s.sw->GetPausesSent(), 0u); // PFC did act
    uint64_t retx = 0;
    uint64_t timeouts = 0;
    for (const auto& c : conns)
    {
        EXPECT_TRUE(c.region->IsExactlyOnce(c.region->GetBase(), bytes));
        EXPECT_EQ(c.responder->GetCounters().bytesPlaced, bytes);
        EXPECT_EQ(c.responder->GetCounters().duplicatePackets, 0u);
        retx += c.requester->GetCounters().retransmittedPackets;
        timeouts += c.requester->GetCounters().timeouts;
    }
    EXPECT_EQ(retx, 0u);
    EXPECT_EQ(timeouts, 0u);
    const MrcQpCounters sum = MrcRdmaHelper::SumCounters(s.hosts);
    EXPECT_EQ(sum.messagesCompleted, n);
    EXPECT_EQ(sum.messagesReceived, n);
    EXPECT_EQ(sum.bytesPlaced, uint64_t(n) * bytes);
    EXPECT_EQ(sum.dataPacketsSent, uint64_t(n) * 64);
    EXPECT_EQ(sum.dataPacketsReceived, uint64_t(n) * 64);
    EXPECT_EQ(sum.acksSent, sum.acksReceived);
    // Data drained at the receiver's line rate: 32 x 64 packets of 1102 bytes on the wire.
    Time lastEnd;
    for (const auto& wc : done.wc)
    {
        lastEnd = std::max(lastEnd, wc.end);
    }
    EXPECT_LT(lastEnd,
              RATE.CalculateBytesTxTime(uint64_t(n) * 64 * 1102 + n * 16) + MicroSeconds(20));
    Simulator::Destroy();
}

TEST(MrcRoce, OneLostPacketGoesBackN)
{
    MrcRdmaHelper rdma;
    rdma.SetQueuePairAttribute("Mtu", UintegerValue(1000));
    StarConfig cfg;
    cfg.pfc = false; // lossy
    Star s = MakeStar(rdma, cfg);
    Ptr<DropNthData> em = CreateObject<DropNthData>();
    em->n = 20;
    s.dev[1]->SetAttribute("ReceiveErrorModel", PointerValue(em));
    MrcRdmaHelper::Connection c = rdma.Connect(s.hosts.Get(0), s.hosts.Get(1), 100000);
    std::vector<uint32_t> sentPsns;
    c.requester->TraceConnectWithoutContext(
        "Tx",
        Callback<void, Ptr<const Packet>>(
            [&sentPsns](Ptr<const Packet> p) { sentPsns.push_back(PsnOf(p)); }));
    Completions done;
    c.requester->SetCompletionCallback(done.Cb());
    ASSERT_TRUE(c.requester->PostSend(WriteRequest(c, 1, 100000)));
    Simulator::Run();
    ASSERT_EQ(done.wc.size(), 1u);
    EXPECT_EQ(done.wc[0].status, MrcWcStatus::SUCCESS);
    EXPECT_TRUE(c.region->IsExactlyOnce(c.region->GetBase(), 100000));
    const uint32_t first = sentPsns.front();
    ASSERT_EQ(em->droppedPsn, first + 19);
    // The first PSN sent out of order is the dropped one (go back N from the NAK).
    uint32_t rewindTo = 0xffffffff;
    for (std::size_t i = 1; i < sentPsns.size(); ++i)
    {
        if (sentPsns[i] != sentPsns[i - 1] + 1)
        {
            rewindTo = sentPsns[i];
            break;
        }
    }
    EXPECT_EQ(rewindTo, em->droppedPsn);
    const MrcQpCounters& tx = c.requester->GetCounters();
    const MrcQpCounters& rx = c.responder->GetCounters();
    EXPECT_EQ(rx.naksSent, 1u); // once per NakInterval
    EXPECT_EQ(tx.naksReceived, 1u);
    EXPECT_EQ(tx.timeouts, 0u);
    EXPECT_GE(tx.retransmittedPackets, 1u);
    EXPECT_EQ(tx.dataPacketsSent, 100u + tx.retransmittedPackets);
    // Everything sent after the drop before the rewind arrived out of order or was the
    // drop itself: retransmissions = packets sent from the dropped PSN before the rewind.
    EXPECT_EQ(rx.outOfOrderPackets + 1, tx.retransmittedPackets);
    EXPECT_EQ(rx.bytesPlaced, 100000u);
    Simulator::Destroy();
}

TEST(MrcRoce, PsnWrapAroundWithALoss)
{
    MrcRdmaHelper rdma;
    rdma.SetQueuePairAttribute("Mtu", UintegerValue(1000));
    rdma.SetQueuePairAttribute("InitialPsn", UintegerValue(0xffffc0)); // wraps at packet 65
    StarConfig cfg;
    cfg.pfc = false;
    Star s = MakeStar(rdma, cfg);
    Ptr<DropNthData> em = CreateObject<DropNthData>();
    em->n = 70; // after the wrap
    s.dev[1]->SetAttribute("ReceiveErrorModel", PointerValue(em));
    MrcRdmaHelper::Connection c = rdma.Connect(s.hosts.Get(0), s.hosts.Get(1), 100000);
    EXPECT_EQ(c.responder->GetRemoteInitialPsn(), 0xffffc0u);
    std::vector<uint32_t> sentPsns;
    c.requester->TraceConnectWithoutContext(
        "Tx",
        Callback<void, Ptr<const Packet>>(
            [&sentPsns](Ptr<const Packet> p) { sentPsns.push_back(PsnOf(p)); }));
    Completions done;
    c.requester->SetCompletionCallback(done.Cb());
    ASSERT_TRUE(c.requester->PostSend(WriteRequest(c, 1, 100000)));
    Simulator::Run();
    ASSERT_EQ(done.wc.size(), 1u);
    EXPECT_EQ(done.wc[0].status, MrcWcStatus::SUCCESS);
    EXPECT_TRUE(c.region->IsExactlyOnce(c.region->GetBase(), 100000));
    EXPECT_EQ(sentPsns.front(), 0xffffc0u);
    EXPECT_EQ(sentPsns[64], 0u);
    EXPECT_EQ(em->droppedPsn, 5u); // 0xffffc0 + 69 mod 2^24
    uint32_t rewindTo = 0xffffffff;
    for (std::size_t i = 1; i < sentPsns.size(); ++i)
    {
        if (sentPsns[i] != ((sentPsns[i - 1] + 1) & 0xffffff))
        {
            rewindTo = sentPsns[i];
            break;
        }
    }
    EXPECT_EQ(rewindTo, 5u);
    EXPECT_EQ(c.responder->GetCounters().naksSent, 1u);
    EXPECT_EQ(c.requester->GetCounters().timeouts, 0u);
    Simulator::Destroy();
}

TEST(MrcRoce, LostLastPacketIsRecoveredByTheTimeout)
{
    MrcRdmaHelper rdma;
    rdma.SetQueuePairAttribute("Mtu", UintegerValue(1000));
    StarConfig cfg;
    cfg.pfc = false;
    Star s = MakeStar(rdma, cfg);
    Ptr<DropNthData> em = CreateObject<DropNthData>();
    em->n = 100; // the last packet: no later packet reveals the gap, so no NAK
    s.dev[1]->SetAttribute("ReceiveErrorModel", PointerValue(em));
    MrcRdmaHelper::Connection c = rdma.Connect(s.hosts.Get(0), s.hosts.Get(1), 100000);
    Completions done;
    c.requester->SetCompletionCallback(done.Cb());
    ASSERT_TRUE(c.requester->PostSend(WriteRequest(c, 1, 100000)));
    Simulator::Run();
    ASSERT_EQ(done.wc.size(), 1u);
    EXPECT_EQ(done.wc[0].status, MrcWcStatus::SUCCESS);
    EXPECT_TRUE(c.region->IsExactlyOnce(c.region->GetBase(), 100000));
    const MrcQpCounters& tx = c.requester->GetCounters();
    EXPECT_EQ(tx.timeouts, 1u);
    EXPECT_EQ(tx.retransmittedPackets, 1u); // only the unacknowledged last packet
    EXPECT_EQ(tx.naksReceived, 0u);
    // The timer restarted with the ACK of packet 99 (about 10 us in), expired 1.048576 ms
    // later; the retransmission and its ACK take a few microseconds more.
    EXPECT_GT(done.wc[0].end, NanoSeconds(1048576));
    EXPECT_LT(done.wc[0].end, NanoSeconds(1048576) + MicroSeconds(20));
    Simulator::Destroy();
}

TEST(MrcRoce, DeadLinkEndsInQpErrorWithoutHanging)
{
    MrcRdmaHelper rdma;
    rdma.SetQueuePairAttribute("AckTimeout", TimeValue(MicroSeconds(100)));
    rdma.SetQueuePairAttribute("RetryCount", UintegerValue(3));
    Star s = MakeStar(rdma, StarConfig{});
    MrcRdmaHelper::Connection c = rdma.Connect(s.hosts.Get(0), s.hosts.Get(1), 1 << 20);
    Completions done;
    c.requester->SetCompletionCallback(done.Cb());
    std::vector<std::string> errors;
    Time errorAt;
    c.requester->TraceConnectWithoutContext(
        "Error",
        Callback<void, uint32_t, MrcQpError, const std::string&>(
            [&](uint32_t qpn, MrcQpError e, const std::string& why) {
                EXPECT_EQ(qpn, c.requester->GetQpn());
                EXPECT_EQ(e, MrcQpError::RETRY_EXCEEDED);
                errors.push_back(why);
                errorAt = Simulator::Now();
            }));
    ASSERT_TRUE(c.requester->PostSend(WriteRequest(c, 1, 1 << 20)));
    ASSERT_TRUE(c.requester->PostSend(WriteRequest(c, 2, 1000)));
    Ptr<MrcChannel> ch = s.dev[0]->GetMrcChannel();
    Simulator::Schedule(MicroSeconds(5), &MrcChannel::SetLinkUp, ch, false);
    Simulator::Run(); // returns: nothing keeps running after the error
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_NE(errors[0].find("local ACK timeout: 4 expiries"), std::string::npos) << errors[0];
    EXPECT_EQ(c.requester->GetState(), MrcQpState::ERROR);
    EXPECT_EQ(c.requester->GetError(), MrcQpError::RETRY_EXCEEDED);
    EXPECT_EQ(c.requester->GetErrorReason(), errors[0]);
    EXPECT_EQ(c.requester->GetCounters().timeouts, 4u);
    ASSERT_EQ(done.wc.size(), 2u);
    EXPECT_EQ(done.wc[0].wrId, 1u);
    EXPECT_EQ(done.wc[0].status, MrcWcStatus::RETRY_EXCEEDED);
    EXPECT_EQ(done.wc[0].end, errorAt);
    EXPECT_EQ(done.wc[1].status, MrcWcStatus::FLUSHED);
    // 4 timeouts of 100 us, each restarted by the first (re)transmission at most a few
    // microseconds after the previous one.
    EXPECT_GE(errorAt, MicroSeconds(400));
    EXPECT_LT(errorAt, MicroSeconds(500));
    EXPECT_FALSE(c.requester->PostSend(WriteRequest(c, 3, 10)));
    Simulator::Destroy();
}

TEST(MrcRoce, BadRkeyIsARemoteAccessError)
{
    MrcRdmaHelper rdma;
    Star s = MakeStar(rdma, StarConfig{});
    MrcRdmaHelper::Connection c = rdma.Connect(s.hosts.Get(0), s.hosts.Get(1), 4096);
    Completions done;
    c.requester->SetCompletionCallback(done.Cb());
    MrcWorkRequest wr = WriteRequest(c, 1, 5000); // longer than the region
    ASSERT_TRUE(c.requester->PostSend(wr));
    Simulator::Run();
    ASSERT_EQ(done.wc.size(), 1u);
    EXPECT_EQ(done.wc[0].status, MrcWcStatus::REMOTE_ACCESS_ERROR);
    EXPECT_EQ(c.requester->GetError(), MrcQpError::REMOTE_ACCESS_ERROR);
    EXPECT_EQ(c.region->GetBytesPlaced(), 0u);
    EXPECT_GE(c.responder->GetCounters().naksSent, 1u);
    Simulator::Destroy();
}

namespace
{

/// 2 -> 1 with every queued packet marked (Kmin = Kmax = 0); returns the connections.
std::vector<MrcRdmaHelper::Connection>
MarkedIncast(MrcRdmaHelper& rdma,
             Time& firstArrival,
             Time& lastArrival,
             Time* lastArrivalOfAny = nullptr)
{
    StarConfig cfg;
    cfg.hosts = 3;
    cfg.kmin = 0;
    cfg.kmax = 0;
    Star s = MakeStar(rdma, cfg);
    std::vector<MrcRdmaHelper::Connection> conns;
    for (uint32_t i = 0; i < 2; ++i)
    {
        conns.push_back(rdma.Connect(s.hosts.Get(i), s.hosts.Get(2), 500000));
        conns.back().requester->PostSend(WriteRequest(conns.back(), i, 500000));
    }
    firstArrival = Time::Max();
    conns[0].responder->TraceConnectWithoutContext(
        "Rx",
        Callback<void, Ptr<const Packet>>([&](Ptr<const Packet>) {
            firstArrival = std::min(firstArrival, Simulator::Now());
            lastArrival = Simulator::Now();
        }));
    if (lastArrivalOfAny != nullptr)
    {
        for (const auto& c : conns)
        {
            c.responder->TraceConnectWithoutContext(
                "Rx",
                Callback<void, Ptr<const Packet>>([lastArrivalOfAny](Ptr<const Packet>) {
                    *lastArrivalOfAny = Simulator::Now();
                }));
        }
    }
    Simulator::Run();
    EXPECT_EQ(s.sw->GetTotalDropPackets(), 0u);
    EXPECT_GT(s.sw->GetMarkedPackets(), 0u);
    return conns;
}

/// Restores every attribute default when the test ends (also when an ASSERT returns early).
struct ResetDefaultsAtEnd
{
    ~ResetDefaultsAtEnd()
    {
        Config::Reset();
    }
};

} // namespace

TEST(MrcRoce, SeparateCnpsAtMostOncePerInterval)
{
    ResetDefaultsAtEnd reset;
    // The QPs' notification points take these defaults when the QPs are created.
    Config::SetDefault("ns3::MrcDcqcnNotificationPoint::CnpStyle", StringValue("Interval"));
    Config::SetDefault("ns3::MrcDcqcnNotificationPoint::CnpInterval", TimeValue(MicroSeconds(10)));
    MrcRdmaHelper rdma;
    rdma.SetQueuePairAttribute("CongestionControl", TypeIdValue(CountingCc::GetTypeId()));
    Time first;
    Time last;
    auto conns = MarkedIncast(rdma, first, last);
    const MrcQpCounters& rx = conns[0].responder->GetCounters();
    EXPECT_GT(rx.ecnMarkedReceived, 0u);
    EXPECT_GE(rx.cnpsSent, 2u);
    // One CNP at the first mark, then at most one per 10 us interval (the deferred one
    // at the end of the last interval included).
    const uint64_t bound = 2 + static_cast<uint64_t>((last - first).GetMicroSeconds() / 10);
    EXPECT_LE(rx.cnpsSent, bound);
    EXPECT_EQ(conns[0].requester->GetCounters().cnpsReceived, rx.cnpsSent);
    Ptr<CountingCc> cc = DynamicCast<CountingCc>(conns[0].requester->GetCongestionOps());
    ASSERT_TRUE(cc);
    EXPECT_EQ(cc->cnps, rx.cnpsSent); // each CNP once, through OnCnp
    EXPECT_EQ(cc->flaggedAcks, 0u);
    for (const auto& c : conns)
    {
        EXPECT_TRUE(c.region->IsExactlyOnce(c.region->GetBase(), 500000));
    }
    Simulator::Destroy();
}

// PortInterval: the receiving NIC port sends at most one CNP per CnpInterval for both queue
// pairs together (NVIDIA min_time_between_cnps "from the port"), none deferred.
TEST(MrcRoce, PortIntervalCnpsAtMostOncePerIntervalPerPort)
{
    ResetDefaultsAtEnd reset;
    Config::SetDefault("ns3::MrcDcqcnNotificationPoint::CnpStyle", StringValue("PortInterval"));
    Config::SetDefault("ns3::MrcDcqcnNotificationPoint::CnpInterval", TimeValue(MicroSeconds(10)));
    MrcRdmaHelper rdma;
    rdma.SetQueuePairAttribute("CongestionControl", TypeIdValue(CountingCc::GetTypeId()));
    Time first;
    Time last;
    Time lastAny;
    auto conns = MarkedIncast(rdma, first, last, &lastAny);
    uint64_t cnps = 0;
    uint64_t marked = 0;
    for (const auto& c : conns)
    {
        cnps += c.responder->GetCounters().cnpsSent;
        marked += c.responder->GetCounters().ecnMarkedReceived;
        EXPECT_EQ(c.requester->GetCounters().cnpsReceived, c.responder->GetCounters().cnpsSent);
        EXPECT_TRUE(c.region->IsExactlyOnce(c.region->GetBase(), 500000));
    }
    EXPECT_GE(cnps, 2u);
    EXPECT_LT(cnps, marked);
    // Every two CNPs of the port are at least 10 us apart, from time 0 to the last arrival.
    EXPECT_LE(cnps, 1 + static_cast<uint64_t>(lastAny.GetMicroSeconds() / 10));
    Simulator::Destroy();
}

TEST(MrcRoce, CnpFlagOnAcks)
{
    ResetDefaultsAtEnd reset;
    Config::SetDefault("ns3::MrcDcqcnNotificationPoint::CnpStyle", StringValue("AckFlag"));
    MrcRdmaHelper rdma;
    rdma.SetQueuePairAttribute("CongestionControl", TypeIdValue(CountingCc::GetTypeId()));
    Time first;
    Time last;
    auto conns = MarkedIncast(rdma, first, last);
    const MrcQpCounters& rx = conns[0].responder->GetCounters();
    EXPECT_GT(rx.ecnMarkedReceived, 0u);
    // AckInterval 1: every marked packet's ACK carries the flag.
    EXPECT_EQ(rx.cnpsSent, rx.ecnMarkedReceived);
    EXPECT_LE(rx.cnpsSent, rx.acksSent);
    EXPECT_EQ(conns[0].requester->GetCounters().cnpsReceived, rx.cnpsSent);
    Ptr<CountingCc> cc = DynamicCast<CountingCc>(conns[0].requester->GetCongestionOps());
    ASSERT_TRUE(cc);
    EXPECT_EQ(cc->flaggedAcks, rx.cnpsSent); // each flag once, through OnAck
    EXPECT_EQ(cc->cnps, 0u);
    Simulator::Destroy();
}

// ---- profiles ----

TEST(MrcProfiles, Names)
{
    EXPECT_EQ(MrcProfiles::GetNames(),
              (std::vector<std::string>{"mrc",
                                        "roce-ar",
                                        "roce-deployed",
                                        "roce-hpcc",
                                        "roce-paper",
                                        "uec-htsim",
                                        "uec-htsim-nscc-rccc",
                                        "uec-htsim-rccc"}));
    EXPECT_TRUE(MrcProfiles::Exists("roce-hpcc"));
    EXPECT_FALSE(MrcProfiles::Exists("roce"));
}

TEST(MrcProfiles, FindProfileArgument)
{
    const char* a1[] = {"prog", "--senders=3", "--profile=roce-paper", "--x=1"};
    EXPECT_EQ(MrcProfiles::FindProfileArgument(4, const_cast<char**>(a1)), "roce-paper");
    const char* a2[] = {"prog", "--profile", "roce-hpcc"};
    EXPECT_EQ(MrcProfiles::FindProfileArgument(3, const_cast<char**>(a2)), "roce-hpcc");
    const char* a3[] = {"prog", "--profiles=x", "--profile"};
    EXPECT_EQ(MrcProfiles::FindProfileArgument(3, const_cast<char**>(a3)), "");
}

TEST(MrcProfiles, ApplySetsDefaults)
{
    // Apply the roce-hpcc transport settings (QP and notification point) through the same
    // path Apply uses.
    for (const auto& s : MrcProfiles::GetSettings("roce-hpcc"))
    {
        if ((s.path.rfind("ns3::MrcRoceQueuePair::", 0) == 0 ||
             s.path.rfind("ns3::MrcDcqcnNotificationPoint::", 0) == 0) &&
            s.path.find("Congestion") == std::string::npos)
        {
            ASSERT_EQ(MrcProfiles::Check(s), "");
            Config::SetDefault(s.path, StringValue(s.value));
        }
    }
    Ptr<MrcRoceQueuePair> qp = CreateObject<MrcRoceQueuePair>();
    UintegerValue mtu;
    qp->GetAttribute("Mtu", mtu);
    EXPECT_EQ(mtu.Get(), 1000u);
    StringValue mode;
    qp->GetNotificationPoint()->GetAttribute("CnpStyle", mode);
    EXPECT_EQ(mode.Get(), "AckFlag");
    Config::Reset();
}

TEST(MrcProfilesDeathTest, UnknownProfileListsTheValidOnes)
{
    EXPECT_DEATH(MrcProfiles::GetSettings("roce"),
                 "unknown profile 'roce'; valid profiles: mrc, roce-ar, roce-deployed, roce-hpcc, "
                 "roce-paper");
    EXPECT_DEATH(MrcProfiles::Apply("hpcc"),
                 "valid profiles: mrc, roce-ar, roce-deployed, roce-hpcc, roce-paper");
}

namespace
{

std::string
ValueOf(const std::vector<MrcProfileSetting>& s, const std::string& path)
{
    for (const auto& e : s)
    {
        if (e.path == path)
        {
            EXPECT_FALSE(e.source.empty()) << path;
            return e.value;
        }
    }
    return "<missing " + path + ">";
}

} // namespace

TEST(MrcProfiles, RoceHpccValuesScaleWithRate)
{
    auto s = MrcProfiles::GetSettings("roce-hpcc"); // 100 Gb/s, 1 us
    EXPECT_EQ(ValueOf(s, "ns3::MrcRoceQueuePair::CongestionControl"), "ns3::MrcDcqcn");
    EXPECT_EQ(ValueOf(s, "ns3::MrcRoceQueuePair::Mtu"), "1000");
    EXPECT_EQ(ValueOf(s, "ns3::MrcDcqcnNotificationPoint::CnpStyle"), "AckFlag");
    EXPECT_EQ(ValueOf(s, "ns3::MrcEcnMarker::Kmin"), "400000");
    EXPECT_EQ(ValueOf(s, "ns3::MrcEcnMarker::Kmax"), "1600000");
    EXPECT_EQ(ValueOf(s, "ns3::MrcEcnMarker::Pmax"), "0.2");
    EXPECT_EQ(ValueOf(s, "ns3::MrcDcqcn::G"), "0.00390625");
    EXPECT_EQ(ValueOf(s, "ns3::MrcDcqcn::RateAi"), "20000000bps");   // 5 Mb/s x 4
    EXPECT_EQ(ValueOf(s, "ns3::MrcDcqcn::RateHai"), "200000000bps"); // 50 Mb/s x 4
    EXPECT_EQ(ValueOf(s, "ns3::MrcDcqcn::RateIncreaseInterval"), "300us");
    EXPECT_EQ(ValueOf(s, "ns3::MrcSharedBufferMmu::Headroom"), "37500");
    EXPECT_EQ(ValueOf(s, "ns3::MrcSharedBufferMmu::BufferSize"), "33554432"); // 32 MiB
    EXPECT_EQ(ValueOf(s, "ns3::MrcSharedBufferMmu::PfcPriorityMask"), "8");

    MrcProfileContext ctx;
    ctx.hostRate = DataRate("25Gbps");
    ctx.linkDelay = MicroSeconds(2);
    s = MrcProfiles::GetSettings("roce-hpcc", ctx);
    EXPECT_EQ(ValueOf(s, "ns3::MrcEcnMarker::Kmin"), "100000");
    EXPECT_EQ(ValueOf(s, "ns3::MrcDcqcn::RateAi"), "5000000bps");
    EXPECT_EQ(ValueOf(s, "ns3::MrcSharedBufferMmu::Headroom"), "18750"); // 3 x 25G x 2us / 8
    EXPECT_EQ(ValueOf(s, "ns3::MrcSharedBufferMmu::BufferSize"), "8388608");
}

TEST(MrcProfiles, RocePaperOverridesDcqcn)
{
    auto s = MrcProfiles::GetSettings("roce-paper");
    EXPECT_EQ(ValueOf(s, "ns3::MrcDcqcnNotificationPoint::CnpStyle"), "Interval");
    EXPECT_EQ(ValueOf(s, "ns3::MrcDcqcnNotificationPoint::CnpInterval"), "50us");
    EXPECT_EQ(ValueOf(s, "ns3::MrcDcqcn::AlphaUpdateInterval"), "55us");
    EXPECT_EQ(ValueOf(s, "ns3::MrcDcqcn::RateIncreaseInterval"), "55us");
    EXPECT_EQ(ValueOf(s, "ns3::MrcDcqcn::ByteCounter"), "10000000");
    EXPECT_EQ(ValueOf(s, "ns3::MrcDcqcn::FastRecoveryTimes"), "5");
    EXPECT_EQ(ValueOf(s, "ns3::MrcDcqcn::HyperIncreaseForm"), "Scaled");
    // The paper's reaction point sets RT = RC at every CNP (as htsim); roce-hpcc and
    // roce-deployed keep RT at a cut with no timer increase since the last one.
    EXPECT_EQ(ValueOf(s, "ns3::MrcDcqcn::ClampTargetRate"), "true");
    EXPECT_EQ(ValueOf(MrcProfiles::GetSettings("roce-hpcc"), "ns3::MrcDcqcn::ClampTargetRate"),
              "false");
    EXPECT_EQ(ValueOf(MrcProfiles::GetSettings("roce-deployed"), "ns3::MrcDcqcn::ClampTargetRate"),
              "false");
    EXPECT_EQ(ValueOf(s, "ns3::MrcEcnMarker::Kmin"), "400000"); // fabric as roce-hpcc
    const std::string json = MrcProfiles::ToJson("roce-paper");
    EXPECT_EQ(json.rfind("{\"name\": \"roce-paper\", \"settings\": [{\"path\": ", 0), 0u);
    EXPECT_NE(json.find("{\"path\": \"ns3::MrcDcqcn::FastRecoveryTimes\", \"value\": \"5\""),
              std::string::npos);
}

TEST(MrcProfiles, RoceDeployedTakesTheNicAlphaGain)
{
    // ConnectX's default dce_tcp_g is 1019 of 1024: alpha keeps 1019/1024 of itself each
    // 1 us period and gains 5/1024 when a CNP came, i.e. g = 5/1024 (NVIDIA's DCQCN
    // parameter table). roce-hpcc keeps the HPCC simulator's run.py value, 1/256.
    EXPECT_EQ(ValueOf(MrcProfiles::GetSettings("roce-deployed"), "ns3::MrcDcqcn::G"),
              "0.0048828125");
    EXPECT_EQ(
        ValueOf(MrcProfiles::GetSettings("roce-deployed"), "ns3::MrcDcqcn::AlphaUpdateInterval"),
        "1us"); // dce_tcp_rtt 1 us
    EXPECT_EQ(ValueOf(MrcProfiles::GetSettings("roce-hpcc"), "ns3::MrcDcqcn::G"), "0.00390625");
    EXPECT_EQ(ValueOf(MrcProfiles::GetSettings("roce-paper"), "ns3::MrcDcqcn::G"), "0.00390625");
}

TEST(MrcProfiles, OnlyRoceDeployedReplansThePacingGap)
{
    // The HPCC simulator's DCQCN keeps a packet's gap as computed when it left (roce-hpcc and
    // roce-paper); roce-deployed re-plans it at the current rate, as a NIC rate limiter.
    EXPECT_EQ(
        ValueOf(MrcProfiles::GetSettings("roce-deployed"), "ns3::MrcRoceQueuePair::PacingGap"),
        "RateNow");
    EXPECT_EQ(ValueOf(MrcProfiles::GetSettings("roce-hpcc"), "ns3::MrcRoceQueuePair::PacingGap"),
              "AtSend");
    EXPECT_EQ(ValueOf(MrcProfiles::GetSettings("roce-paper"), "ns3::MrcRoceQueuePair::PacingGap"),
              "AtSend");
    // The attribute's default is the HPCC simulator's rule.
    Ptr<MrcRoceQueuePair> qp = CreateObject<MrcRoceQueuePair>();
    EXPECT_EQ(qp->GetPacingGap(), MrcRoceQueuePair::GAP_AT_SEND);
}

TEST(MrcProfiles, CheckNamesTheBadSetting)
{
    EXPECT_EQ(MrcProfiles::Check({"ns3::MrcRoceQueuePair::AckInterval", "4", ""}), "");
    EXPECT_EQ(MrcProfiles::Check({"ns3::MrcRoceQueuePair::NoSuch", "4", ""}),
              "setting 'ns3::MrcRoceQueuePair::NoSuch': class ns3::MrcRoceQueuePair has no "
              "attribute NoSuch");
    EXPECT_EQ(MrcProfiles::Check({"ns3::MrcNoSuchClass::G", "1", ""}),
              "setting 'ns3::MrcNoSuchClass::G': class ns3::MrcNoSuchClass is not registered");
    EXPECT_EQ(MrcProfiles::Check({"ns3::MrcDcqcnNotificationPoint::CnpStyle", "Sometimes", ""})
                  .rfind("setting 'ns3::MrcDcqcnNotificationPoint::CnpStyle': value 'Sometimes' is "
                         "not valid",
                         0),
              0u);
    // Every setting of every profile whose class exists in this build passes the check
    // (the DCQCN class may live in another part of the module).
    for (const auto& name : MrcProfiles::GetNames())
    {
        for (const auto& s : MrcProfiles::GetSettings(name))
        {
            const std::string why = MrcProfiles::Check(s);
            if (why.find("is not registered") == std::string::npos)
            {
                EXPECT_EQ(why, "") << name;
            }
        }
    }
}

namespace
{

/// \return attribute `name` of `obj` in its string form
std::string
AttributeString(Ptr<Object> obj, const std::string& name)
{
    StringValue v;
    obj->GetAttribute(name, v);
    return v.Get();
}

} // namespace

// Each profile applies (every class, attribute and value is known now that ns3::MrcDcqcn
// and ns3::MrcDcqcnNotificationPoint are part of the build), and objects created afterwards
// carry its values.
TEST(MrcProfiles, ApplyEachProfile)
{
    struct Expected
    {
        std::string name;
        std::string style;    // CnpStyle
        std::string rateAi;   // 100 Gb/s context
        std::string alphaInt; // AlphaUpdateInterval
    };

    const std::vector<Expected> cases = {
        {"roce-hpcc", "AckFlag", "20000000bps", "1us"},    // 5 Mb/s x 100/25
        {"roce-paper", "Interval", "40000000bps", "55us"}, // paper value
    };
    for (const auto& c : cases)
    {
        SCOPED_TRACE(c.name);
        ResetDefaultsAtEnd reset;
        for (const auto& s : MrcProfiles::GetSettings(c.name))
        {
            ASSERT_EQ(MrcProfiles::Check(s), "");
        }
        MrcProfiles::Apply(c.name);

        Ptr<MrcDcqcn> dcqcn = CreateObject<MrcDcqcn>();
        DoubleValue g;
        dcqcn->GetAttribute("G", g);
        EXPECT_DOUBLE_EQ(g.Get(), 1.0 / 256);
        DataRateValue minRate;
        dcqcn->GetAttribute("MinRate", minRate);
        EXPECT_EQ(minRate.Get().GetBitRate(), 1000000000u);
        DataRateValue rateAi;
        dcqcn->GetAttribute("RateAi", rateAi);
        EXPECT_EQ(rateAi.Get(), DataRate(c.rateAi));
        TimeValue alphaInt;
        dcqcn->GetAttribute("AlphaUpdateInterval", alphaInt);
        EXPECT_EQ(alphaInt.Get(), Time(c.alphaInt));

        Ptr<MrcEcnMarker> ecn = CreateObject<MrcEcnMarker>();
        UintegerValue kmin;
        ecn->GetAttribute("Kmin", kmin);
        EXPECT_EQ(kmin.Get(), 400000u); // 100 KB x 100/25

        Ptr<MrcDcqcnNotificationPoint> np = CreateObject<MrcDcqcnNotificationPoint>();
        EXPECT_EQ(AttributeString(np, "CnpStyle"), c.style);
        TimeValue interval;
        np->GetAttribute("CnpInterval", interval);
        EXPECT_EQ(interval.Get(), MicroSeconds(50)); // roce-paper: N; roce-hpcc: default

        // A queue pair made now uses DCQCN, 1000 B packets and a notification point with
        // the profile's style.
        Ptr<MrcRoceQueuePair> qp = CreateObject<MrcRoceQueuePair>();
        TypeIdValue cc;
        qp->GetAttribute("CongestionControl", cc);
        EXPECT_EQ(cc.Get(), MrcDcqcn::GetTypeId());
        UintegerValue mtu;
        qp->GetAttribute("Mtu", mtu);
        EXPECT_EQ(mtu.Get(), 1000u);
        EXPECT_EQ(qp->GetNotificationPoint()->GetStyle(),
                  c.style == "Interval" ? MrcDcqcnNotificationPoint::INTERVAL
                                        : MrcDcqcnNotificationPoint::ACK_FLAG);
        qp->Dispose();
    }
}
