/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Receiver-side pieces of MRC and UEC RUD, and the controller's REPLACE_EV: the backpressure rule
// behind rcv_cwnd_pen / restore_cwnd (hand-computed values, and end to end on a small fabric), the
// UEC ACK_CC carrying those fields, MRC's Transport ACK (AETH, opcode 0xD1; counts, completion on
// Transport ACK, bytes decoded by tshark), and the acknowledged Port Status Update.

#include "mrc-test-support.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/mrc-aeth-header.h"
#include "ns3/mrc-cc-state-header.h"
#include "ns3/mrc-channel.h"
#include "ns3/mrc-congestion-ops.h"
#include "ns3/mrc-controller.h"
#include "ns3/mrc-ev-table.h"
#include "ns3/mrc-link-helper.h"
#include "ns3/mrc-memory-region.h"
#include "ns3/mrc-multipath-helper.h"
#include "ns3/mrc-multipath-queue-pair.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-nscc.h"
#include "ns3/mrc-opcodes.h"
#include "ns3/mrc-rcv-backpressure.h"
#include "ns3/mrc-rdma-helper.h"
#include "ns3/mrc-rdma-nic.h"
#include "ns3/mrc-receive-bitmap.h"
#include "ns3/mrc-seth-header.h"
#include "ns3/mrc-topology-helper.h"
#include "ns3/mrc-topology.h"
#include "ns3/mrc-uec-queue-pair.h"
#include "ns3/mrc-uec-wire.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

using namespace ns3;
using ns3::MrcTest::Mp;
using ns3::MrcTest::Shell;
using ns3::MrcTest::TwoPlaneClos;
using ns3::MrcTest::WriteRequest;

namespace
{

/// Completions of the requester.
struct Done
{
    std::vector<MrcWorkCompletion> wc;

    void Add(const MrcWorkCompletion& c)
    {
        wc.push_back(c);
    }
};

/// Frames of one opcode a device put on the wire (Ethernet from its header on).
struct FrameTap
{
    uint8_t opcode{0};
    std::vector<Ptr<Packet>> frames;

    void Dequeue(Ptr<const Packet> frame, uint8_t /* cls */)
    {
        // Ethernet 14 + IPv6 40 + UDP 8: the BTH opcode is byte 62 (no outer header)
        if (frame->GetSize() < 63)
        {
            return;
        }
        uint8_t b[63];
        frame->CopyData(b, 63);
        if (b[12] == 0x86 && b[13] == 0xdd && b[20] == 17 && b[62] == opcode)
        {
            frames.push_back(frame->Copy());
        }
    }
};

} // namespace

// ---------------------------------------------------------------------------
// The backpressure rule with hand-computed values
// ---------------------------------------------------------------------------

TEST(MrcRcvBackpressure, PenaltyFormula)
{
    // pen = 0 for B <= T, else min(127, ceil(128 (B - T) / B))
    EXPECT_EQ(MrcRcvBackpressure::PenaltyFor(0, 1000), 0);
    EXPECT_EQ(MrcRcvBackpressure::PenaltyFor(1000, 1000), 0);
    EXPECT_EQ(MrcRcvBackpressure::PenaltyFor(1001, 1000), 1);  // 128 / 1001 -> 1
    EXPECT_EQ(MrcRcvBackpressure::PenaltyFor(2000, 1000), 64); // 2T halves in one RTT
    EXPECT_EQ(MrcRcvBackpressure::PenaltyFor(1500, 1000), 43); // 42.67 -> 43
    EXPECT_EQ(MrcRcvBackpressure::PenaltyFor(4000, 1000), 96);
    EXPECT_EQ(MrcRcvBackpressure::PenaltyFor(100000, 1000), 127);  // 126.72 -> 127
    EXPECT_EQ(MrcRcvBackpressure::PenaltyFor(1000000, 1000), 127); // 127.87 -> capped
}

TEST(MrcRcvBackpressure, BacklogPenaltyAndRestore)
{
    MrcRcvBackpressure bp;
    bp.Configure(DataRate("8Gbps"), 1000, 2); // drains 1 byte per ns; T = 1000 B
    EXPECT_TRUE(bp.IsEnabled());
    bp.OnData(NanoSeconds(0), 3000);
    EXPECT_EQ(bp.GetBacklog(NanoSeconds(0)), 3000u);
    MrcRcvBackpressure::Fields f = bp.OnSack(NanoSeconds(1000)); // B = 2000
    EXPECT_EQ(f.pen, 64);
    EXPECT_FALSE(f.restore);
    f = bp.OnSack(NanoSeconds(1500)); // B = 1500
    EXPECT_EQ(f.pen, 43);
    f = bp.OnSack(NanoSeconds(2000)); // B = 1000 = T: no penalty, above T/2: no restore
    EXPECT_EQ(f.pen, 0);
    EXPECT_FALSE(f.restore);
    f = bp.OnSack(NanoSeconds(2600)); // B = 400 <= 500: restore 1 of 2
    EXPECT_EQ(f.pen, 0);
    EXPECT_TRUE(f.restore);
    f = bp.OnSack(NanoSeconds(2700)); // restore 2 of 2
    EXPECT_TRUE(f.restore);
    f = bp.OnSack(NanoSeconds(2800)); // episode over
    EXPECT_FALSE(f.restore);
    EXPECT_EQ(bp.GetBacklog(NanoSeconds(2800)), 200u);
    // empty at 3000 ns; 5000 idle ns are not banked: 700 bytes at 8000 ns stay 700
    EXPECT_EQ(bp.GetBacklog(NanoSeconds(3000)), 0u);
    bp.OnData(NanoSeconds(8000), 700);
    EXPECT_EQ(bp.GetBacklog(NanoSeconds(8000)), 700u);
    // fractional drain is carried: 3 Gb/s = 0.375 B/ns; 8 steps of 1 ns drain exactly 3 B
    MrcRcvBackpressure slow;
    slow.Configure(DataRate("3Gbps"), 10, 1);
    slow.OnData(NanoSeconds(0), 100);
    for (int i = 1; i <= 8; ++i)
    {
        slow.GetBacklog(NanoSeconds(i));
    }
    EXPECT_EQ(slow.GetBacklog(NanoSeconds(8)), 97u);
}

TEST(MrcRcvBackpressure, OffByDefaultRate)
{
    MrcRcvBackpressure bp;
    bp.Configure(DataRate(0), 1, 1);
    EXPECT_FALSE(bp.IsEnabled());
    bp.OnData(Seconds(0), 1 << 30);
    const MrcRcvBackpressure::Fields f = bp.OnSack(Seconds(0));
    EXPECT_EQ(f.pen, 0);
    EXPECT_FALSE(f.restore);
}

TEST(MrcRcvBackpressure, UecAckCarriesPenaltyAndRestore)
{
    MrcReceiveBitmap win(1024, 0);
    win.OnArrival(0);
    Ptr<Packet> p = MrcUecMakeAck(win, 0, 0x123, 7, false, 4096, 64, true);
    // BTH 12 + SETH 28 + CC_STATE 8; CC_STATE byte 4 = C (restore) | rcv_cwnd_pen
    ASSERT_EQ(p->GetSize(), 48u);
    uint8_t b[48];
    p->CopyData(b, 48);
    EXPECT_EQ(b[0], MrcOpcode::MRC_SACK);
    EXPECT_EQ(b[40 + 4], 0x80 | 64);
    MrcUecAckFields a;
    MrcUecReadAck(b + 12, a);
    EXPECT_EQ(a.rcvCwndPend, 64u);
    EXPECT_TRUE(a.restoreCwnd);
    EXPECT_EQ(a.rcvdUnits, 16u);
    // the defaults leave both fields clear
    Ptr<Packet> q = MrcUecMakeAck(win, 0, 0x123, 7, false, 4096);
    q->CopyData(b, 48);
    EXPECT_EQ(b[44], 0);
}

// ---------------------------------------------------------------------------
// MRC end to end
// ---------------------------------------------------------------------------

namespace
{

/// One Write of `bytes` from host 0 to host 3; returns its completion time (0 if none).
Time
BackpressureRun(DataRate drain, uint64_t& penaltySacks, uint64_t& restoreSacks)
{
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    MrcMultipathHelper mrc;
    mrc.SetQueuePairAttribute("RcvDrainRate", DataRateValue(drain));
    mrc.SetQueuePairAttribute("RcvBusyBytes", UintegerValue(65536));
    const uint32_t bytes = 4 << 20;
    MrcRdmaHelper::Connection c = mrc.Connect(t, 0, 3, bytes);
    Done d;
    c.requester->SetCompletionCallback(MakeCallback(&Done::Add, &d));
    EXPECT_TRUE(c.requester->PostSend(WriteRequest(c, 1, bytes, 0)));
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    Time end(0);
    if (d.wc.size() == 1 && d.wc[0].status == MrcWcStatus::SUCCESS)
    {
        end = d.wc[0].end;
        EXPECT_TRUE(c.region->IsExactlyOnce(c.region->GetBase(), bytes));
    }
    penaltySacks = Mp(c.responder)->GetMultipathCounters().penaltySacks;
    restoreSacks = Mp(c.responder)->GetMultipathCounters().restoreSacks;
    Simulator::Destroy();
    return end;
}

} // namespace

TEST(MrcReceiver, BackpressureSlowsTheSenderToTheDrainRate)
{
    uint64_t pen = 0;
    uint64_t restore = 0;
    // default: the rule is off, every SACK carries pen 0 and no restore
    const Time free = BackpressureRun(DataRate(0), pen, restore);
    ASSERT_TRUE(free.IsStrictlyPositive());
    EXPECT_EQ(pen, 0u);
    EXPECT_EQ(restore, 0u);
    // a 20 Gb/s receiver: 4 MiB take at least 4 MiB / 20 Gb/s = 1.678 ms minus what the
    // 64 KiB threshold lets through early; the penalty holds the sender near that rate
    const Time slow = BackpressureRun(DataRate("20Gbps"), pen, restore);
    ASSERT_TRUE(slow.IsStrictlyPositive());
    EXPECT_GT(pen, 0u);
    EXPECT_GT(slow, free * 3) << slow.As(Time::US) << " vs " << free.As(Time::US);
    EXPECT_GT(slow, MicroSeconds(1000));
}

TEST(MrcReceiver, TransportAckPerMessage)
{
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    MrcMultipathHelper mrc;
    MrcRdmaHelper::Connection c = mrc.Connect(t, 0, 3, 1 << 20);
    FrameTap tap;
    tap.opcode = MrcOpcode::MRC_TRANSPORT_ACK;
    Ptr<MrcRdmaNic> rnic = c.responder->GetNic();
    for (uint32_t p = 0; p < rnic->GetNPorts(); ++p)
    {
        rnic->GetDevice(p)->TraceConnectWithoutContext("Dequeue",
                                                       MakeCallback(&FrameTap::Dequeue, &tap));
    }
    // the module's pcap path on both responder ports (MrcLinkHelper, Ethernet frames)
    const bool haveTshark = Shell("command -v tshark >/dev/null").first == 0;
    const MrcTest::ScopedTempDir tmp("mrc-tack");
    const std::filesystem::path dir = tmp.Path();
    MrcLinkHelper pcap;
    std::vector<std::string> files;
    for (uint32_t p = 0; p < rnic->GetNPorts(); ++p)
    {
        files.push_back((dir / ("responder-" + std::to_string(p) + ".pcap")).string());
        pcap.EnablePcap(files.back(), rnic->GetDevice(p), false, true);
    }
    Done d;
    c.requester->SetCompletionCallback(MakeCallback(&Done::Add, &d));
    // three Writes, posted at once
    for (uint32_t i = 0; i < 3; ++i)
    {
        ASSERT_TRUE(c.requester->PostSend(WriteRequest(c, i, 65536, i * 65536)));
    }
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    ASSERT_EQ(d.wc.size(), 3u);
    const uint64_t sent = Mp(c.responder)->GetMultipathCounters().transportAcksSent;
    const uint64_t rcvd = Mp(c.requester)->GetMultipathCounters().transportAcksRcvd;
    const uint32_t qpn = c.requester->GetQpn();
    // TransportAckMessages 1: at most one per message; each is cumulative
    EXPECT_GE(sent, 1u);
    EXPECT_LE(sent, 3u);
    EXPECT_EQ(rcvd, sent);
    EXPECT_EQ(Mp(c.requester)->GetTransportAckedMessages(), 3u);
    ASSERT_EQ(tap.frames.size(), sent);
    // the last one on the wire: Eth 14 + IPv6 40 + UDP 8 + BTH 12 + AETH 4 + ICRC 4 = 82 B
    Ptr<Packet> last = tap.frames.back();
    ASSERT_EQ(last->GetSize(), 82u);
    uint8_t b[82];
    last->CopyData(b, 82);
    EXPECT_EQ(b[62], 0xd1);                                    // opcode
    EXPECT_EQ((b[67] << 16) | (b[68] << 8) | b[69], int(qpn)); // dest QP
    // AETH: syndrome 0 00 11111 (ACK, no credit), MSN 3 = three messages completed
    EXPECT_EQ(b[74], 0x1f);
    EXPECT_EQ(b[75], 0);
    EXPECT_EQ(b[76], 0);
    EXPECT_EQ(b[77], 3);
    // DSCP 46 (control class): IPv6 traffic class = 46 << 2, not ECT
    EXPECT_EQ(((b[14] & 0x0f) << 4) | (b[15] >> 4), 46 << 2);
    // release every reference to the devices: their sniffer sinks close the pcap files
    Simulator::Destroy();
    last = nullptr;
    tap.frames.clear();
    rnic = nullptr;
    c = MrcRdmaHelper::Connection();
    t = nullptr;

    // tshark finds the same Transport ACKs in the pcaps, as RoCEv2 opcode 209, with no
    // malformed frame in either file
    if (haveTshark)
    {
        std::ostringstream all;
        for (const std::string& f : files)
        {
            auto bad = Shell("tshark -r " + f +
                             " -Y '_ws.malformed' -T fields -e frame.number 2>/dev/null");
            EXPECT_EQ(bad.first, 0);
            EXPECT_EQ(bad.second, "") << f;
            auto r = Shell("tshark -r " + f +
                           " -Y 'infiniband.bth.opcode == 209' -T fields -E separator=, "
                           "-e frame.len -e udp.dstport -e infiniband.bth.destqp 2>/dev/null");
            EXPECT_EQ(r.first, 0);
            all << r.second;
        }
        char hex[16];
        std::snprintf(hex, sizeof(hex), "0x%06x", qpn); // tshark prints the QPN in hex
        std::ostringstream want;
        for (uint64_t i = 0; i < sent; ++i)
        {
            want << "82,4791," << hex << "\n";
        }
        EXPECT_EQ(all.str(), want.str());
    }
}

TEST(MrcReceiver, CompletionWaitsForTheTransportAck)
{
    for (bool tackOn : {true, false})
    {
        Ptr<MrcTopology> t = TwoPlaneClos(4);
        MrcMultipathHelper mrc;
        mrc.SetQueuePairAttribute("CompleteOnTransportAck", BooleanValue(true));
        mrc.SetQueuePairAttribute("TransportAckMessages", UintegerValue(tackOn ? 2 : 0));
        mrc.SetQueuePairAttribute("TailProbeDelay", TimeValue(MicroSeconds(50)));
        MrcRdmaHelper::Connection c = mrc.Connect(t, 0, 3, 1 << 20);
        Done d;
        c.requester->SetCompletionCallback(MakeCallback(&Done::Add, &d));
        for (uint32_t i = 0; i < 3; ++i)
        {
            ASSERT_TRUE(c.requester->PostSend(WriteRequest(c, i, 4096, i * 4096)));
        }
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();
        const MrcMultipathCounters& rx = Mp(c.responder)->GetMultipathCounters();
        if (tackOn)
        {
            // every PSN SACKed; the Transport ACKs (per 2 messages, or when none is in
            // progress) complete all three in order
            ASSERT_EQ(d.wc.size(), 3u);
            for (uint32_t i = 0; i < 3; ++i)
            {
                EXPECT_EQ(d.wc[i].wrId, i);
                EXPECT_EQ(d.wc[i].status, MrcWcStatus::SUCCESS);
            }
            EXPECT_EQ(Mp(c.requester)->GetTransportAckedMessages(), 3u);
            EXPECT_GE(rx.transportAcksSent, 1u);
        }
        else
        {
            // no Transport ACK ever comes: all PSNs acknowledged, nothing completes
            EXPECT_EQ(d.wc.size(), 0u);
            EXPECT_EQ(rx.transportAcksSent, 0u);
            EXPECT_EQ(Mp(c.requester)->GetOutstandingPsns(), 0u);
            EXPECT_EQ(c.requester->GetOutstandingRequests(), 3u);
        }
        Simulator::Destroy();
    }
}

// ---------------------------------------------------------------------------
// Port Status Update: acknowledged, resent, applied by the peer at once
// ---------------------------------------------------------------------------

namespace
{

/// These tests exercise the per-QP exchange: NICs made while it lives use
/// PortStatusScope Qp (the NIC-scope default is tested in mrc-port-status-test.cc).
struct QpScopePortStatus
{
    QpScopePortStatus()
    {
        Config::SetDefault("ns3::MrcRdmaNic::PortStatusScope", StringValue("Qp"));
    }

    ~QpScopePortStatus()
    {
        Config::SetDefault("ns3::MrcRdmaNic::PortStatusScope", StringValue("Nic"));
    }
};

/// Samples the times the first update was sent and received, and the requester's last
/// send on plane 1.
struct PortWatch
{
    Ptr<MrcMultipathQueuePair> requester;
    Ptr<MrcMultipathQueuePair> responder;
    Time sent{Time::Max()};
    Time received{Time::Max()};
    Time lastPlane1{0};
    uint64_t plane1{0};

    void Sample()
    {
        const Time now = Simulator::Now();
        if (sent == Time::Max() && responder->GetMultipathCounters().portStatusSent > 0)
        {
            sent = now;
        }
        if (received == Time::Max() && requester->GetMultipathCounters().portStatusReceived > 0)
        {
            received = now;
        }
        const uint64_t n = requester->GetNic()->GetTxDataPackets(1);
        if (n != plane1)
        {
            plane1 = n;
            lastPlane1 = now;
        }
    }
};

} // namespace

TEST(MrcReceiver, PortDownReachesThePeerWhichDropsThatPlaneAtOnce)
{
    QpScopePortStatus qpScope;
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    MrcMultipathHelper mrc;
    MrcRdmaHelper::Connection c = mrc.Connect(t, 0, 3, 4 << 20);
    Done d;
    c.requester->SetCompletionCallback(MakeCallback(&Done::Add, &d));
    const uint32_t bytes = 4 << 20;
    ASSERT_TRUE(c.requester->PostSend(WriteRequest(c, 1, bytes, 0)));
    Ptr<MrcEvTable> peer = Mp(c.requester)->GetEvTable();
    const uint32_t plane0Active = peer->GetActiveCount(0);
    ASSERT_GT(plane0Active, 0u);
    // the receiver's plane-1 port dies 20 us into the transfer
    Ptr<MrcChannel> ch = t->GetLink(t->GetHostLink(3, 1)).channel;
    Simulator::Schedule(MicroSeconds(20), &MrcChannel::SetLinkUp, ch, false);
    PortWatch w;
    w.requester = Mp(c.requester);
    w.responder = Mp(c.responder);
    for (int64_t ns = 0; ns <= 200000; ns += 100)
    {
        Simulator::Schedule(NanoSeconds(ns), &PortWatch::Sample, &w);
    }
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    ASSERT_EQ(d.wc.size(), 1u);
    EXPECT_EQ(d.wc[0].status, MrcWcStatus::SUCCESS);
    EXPECT_TRUE(c.region->IsExactlyOnce(c.region->GetBase(), bytes));
    const MrcMultipathCounters& rs = w.responder->GetMultipathCounters();
    const MrcMultipathCounters& rq = w.requester->GetMultipathCounters();
    // one request, answered; no resend
    EXPECT_EQ(rs.portStatusSent, 1u);
    EXPECT_EQ(rs.portStatusAnswered, 1u);
    EXPECT_EQ(rs.portStatusResent, 0u);
    EXPECT_EQ(rq.portStatusReceived, 1u);
    // it took one way through the fabric (< one RTT of ~10 us), and the peer sent nothing
    // on plane 1 after it arrived (sampling step 100 ns)
    ASSERT_NE(w.sent, Time::Max());
    ASSERT_NE(w.received, Time::Max());
    EXPECT_LE(w.received - w.sent, MicroSeconds(10));
    EXPECT_LE(w.lastPlane1, w.received);
    // capacity loss: exactly plane 1; plane 0 keeps its full active set
    EXPECT_FALSE(peer->IsPlaneUp(1));
    EXPECT_TRUE(peer->IsPlaneUp(0));
    EXPECT_EQ(peer->GetActiveCount(0), plane0Active);
    for (uint32_t id = 0; id < peer->GetEvCount(); ++id)
    {
        if (peer->GetPlane(id) == 0)
        {
            EXPECT_NE(peer->GetState(id), MrcEvState::ASSUMED_BAD) << "EV " << id;
        }
    }
    Simulator::Destroy();
}

namespace
{

/// First time (100 ns grid) a QP had sent a Port Status Update.
struct SentWatch
{
    Ptr<MrcMultipathQueuePair> qp;
    Time sent{Time::Max()};

    void Sample()
    {
        if (sent == Time::Max() && qp->GetMultipathCounters().portStatusSent > 0)
        {
            sent = Simulator::Now();
        }
    }
};

} // namespace

TEST(MrcReceiver, PortRemapDelayKeepsUsingTheDeadPortUntilItEnds)
{
    QpScopePortStatus qpScope;
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    MrcMultipathHelper mrc;
    mrc.SetQueuePairAttribute("PortRemapDelay", TimeValue(MicroSeconds(50)));
    const uint32_t bytes = 4 << 20;
    MrcRdmaHelper::Connection c = mrc.Connect(t, 0, 3, bytes);
    Done d;
    c.requester->SetCompletionCallback(MakeCallback(&Done::Add, &d));
    ASSERT_TRUE(c.requester->PostSend(WriteRequest(c, 1, bytes, 0)));
    // the requester's own plane-1 port dies at 20 us
    Ptr<MrcChannel> ch = t->GetLink(t->GetHostLink(0, 1)).channel;
    Simulator::Schedule(MicroSeconds(20), &MrcChannel::SetLinkUp, ch, false);
    SentWatch w;
    w.qp = Mp(c.requester);
    for (int64_t ns = 0; ns <= 100000; ns += 100)
    {
        Simulator::Schedule(NanoSeconds(ns), &SentWatch::Sample, &w);
    }
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    ASSERT_EQ(d.wc.size(), 1u);
    EXPECT_EQ(d.wc[0].status, MrcWcStatus::SUCCESS);
    EXPECT_TRUE(c.region->IsExactlyOnce(c.region->GetBase(), bytes));
    // the update left at 20 + 50 us (seen by the first sample after it)
    EXPECT_GT(w.sent, MicroSeconds(70));
    EXPECT_LE(w.sent, NanoSeconds(70100));
    EXPECT_EQ(w.qp->GetMultipathCounters().portStatusSent, 1u);
    EXPECT_EQ(w.qp->GetMultipathCounters().portStatusAnswered, 1u);
    // meanwhile the QP kept sending on the dead port: the device refused those packets
    EXPECT_GT(c.requester->GetNic()->GetTxDataDrops(1), 0u);
    EXPECT_FALSE(w.qp->GetEvTable()->IsPlaneUp(1));
    EXPECT_FALSE(Mp(c.responder)->GetEvTable()->IsPlaneUp(1));
    Simulator::Destroy();
}

TEST(MrcReceiver, UnansweredPortStatusIsSentThreeTimes)
{
    QpScopePortStatus qpScope;
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    // a QP whose peer QPN does not exist: the peer NIC drops what it gets, nobody answers
    Ptr<MrcRdmaNic> a = MrcRdmaNic::GetNic(t->GetHost(0));
    Ptr<MrcRdmaNic> b = MrcRdmaNic::GetNic(t->GetHost(3));
    ObjectFactory f("ns3::MrcMultipathQueuePair");
    f.Set("CongestionControl", TypeIdValue(MrcNoCongestionControl::GetTypeId()));
    Ptr<MrcQueuePair> qp = a->CreateQueuePair(f);
    qp->Connect(b->GetAddresses(), 0xabcde);
    Ptr<MrcChannel> ch = t->GetLink(t->GetHostLink(0, 1)).channel;
    Simulator::Schedule(MicroSeconds(10), &MrcChannel::SetLinkUp, ch, false);
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    const MrcMultipathCounters& m = Mp(qp)->GetMultipathCounters();
    // the first attempt and two more, 2 ms apart; then it gives up
    EXPECT_EQ(m.portStatusSent, 3u);
    EXPECT_EQ(m.portStatusResent, 2u);
    EXPECT_EQ(m.portStatusAnswered, 0u);
    Simulator::Destroy();
}

// ---------------------------------------------------------------------------
// REPLACE_EV
// ---------------------------------------------------------------------------

TEST(MrcReceiver, ControllerReplaceEv)
{
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    MrcMultipathHelper mrc;
    MrcRdmaHelper::Connection c = mrc.Connect(t, 0, 3, 2 << 20);
    Ptr<MrcController> ctl = MrcController::Install(c.requester->GetNic());
    const uint32_t qpn = c.requester->GetQpn();
    Ptr<MrcEvTable> evs = Mp(c.requester)->GetEvTable();
    // an active EV of plane 1 (port 2) and another EV of the same plane
    uint32_t id = MrcEvTable::NO_EV;
    uint32_t other = MrcEvTable::NO_EV;
    for (uint32_t i = 0; i < evs->GetEvCount(); ++i)
    {
        if (evs->GetPlane(i) != 1)
        {
            continue;
        }
        if (id == MrcEvTable::NO_EV && evs->GetEntry(i).set == MrcEvEntry::ACTIVE)
        {
            id = i;
        }
        else if (other == MrcEvTable::NO_EV)
        {
            other = i;
        }
    }
    ASSERT_NE(id, MrcEvTable::NO_EV);
    ASSERT_NE(other, MrcEvTable::NO_EV);
    const uint32_t oldValue = evs->GetValue(id);
    uint32_t fresh = 0x4d52;
    while (evs->FindByValue(fresh) != MrcEvTable::NO_EV)
    {
        ++fresh;
    }
    // refused: another port, or a value the QP already has
    EXPECT_FALSE(ctl->ReplaceEv(qpn, id, fresh, 1));
    EXPECT_NE(ctl->GetLastError().find("on port 2; the replacement names port 1"),
              std::string::npos)
        << ctl->GetLastError();
    EXPECT_FALSE(ctl->ReplaceEv(qpn, id, evs->GetValue(other), 2));
    EXPECT_NE(ctl->GetLastError().find("is already EV " + std::to_string(other)), std::string::npos)
        << ctl->GetLastError();
    EXPECT_EQ(evs->GetValue(id), oldValue);
    // accepted: same id, same set and state, new value
    ASSERT_TRUE(ctl->ReplaceEv(qpn, id, fresh, 2));
    EXPECT_EQ(evs->FindByValue(fresh), id);
    EXPECT_EQ(evs->FindByValue(oldValue), MrcEvTable::NO_EV);
    bool found = false;
    for (const MrcCtlEv& e : ctl->QueryEvArray(qpn))
    {
        if (e.evId == id)
        {
            found = true;
            EXPECT_EQ(e.value, fresh);
            EXPECT_EQ(e.port, 2u);
            EXPECT_EQ(e.state, MrcEvState::GOOD);
            EXPECT_TRUE(e.active);
        }
    }
    EXPECT_TRUE(found);
    // the new value carries traffic and its SACK echoes are recognised (no stray feedback)
    ASSERT_TRUE(c.requester->PostSend(WriteRequest(c, 1, 2 << 20, 0)));
    Simulator::Stop(MilliSeconds(3));
    Simulator::Run();
    EXPECT_EQ(c.requester->GetCounters().messagesCompleted, 1u);
    EXPECT_TRUE(c.region->IsExactlyOnce(c.region->GetBase(), 2 << 20));
    EXPECT_GT(evs->GetEntry(id).sent, 0u);
    EXPECT_EQ(evs->GetState(id), MrcEvState::GOOD);
    // a DENIED EV stays DENIED when replaced
    ASSERT_TRUE(ctl->ModifyEvState(qpn, other, MrcEvState::DENIED));
    uint32_t fresh2 = fresh + 1;
    while (evs->FindByValue(fresh2) != MrcEvTable::NO_EV)
    {
        ++fresh2;
    }
    ASSERT_TRUE(ctl->ReplaceEv(qpn, other, fresh2, 2));
    EXPECT_EQ(evs->GetState(other), MrcEvState::DENIED);
    EXPECT_EQ(evs->GetValue(other), fresh2);
    Simulator::Destroy();
}

// ---------------------------------------------------------------------------
// Responder service time
// ---------------------------------------------------------------------------

TEST(MrcServiceTime, NsccKeepsBaseRttForSamplesWithServiceTime)
{
    MrcCcState s;
    s.lineRate = DataRate("100Gbps");
    s.mtu = 4096;
    s.baseRtt = MicroSeconds(12);
    Ptr<MrcNscc> n = CreateObject<MrcNscc>();
    n->Init(s);
    s.inflight = 100000;
    MrcCcAck a;
    a.newlyAckedBytes = 4096;
    a.rttValid = true;
    a.rttSample = MicroSeconds(10); // network RTT after subtracting 3 us of service time
    a.serviceTime = MicroSeconds(3);
    n->OnAck(s, a);
    EXPECT_EQ(n->GetBaseRtt(), MicroSeconds(12)); // not lowered by a service-time sample
    a.serviceTime = Time(0);
    n->OnAck(s, a);
    EXPECT_EQ(n->GetBaseRtt(), MicroSeconds(10)); // a sample without service time lowers it
    Simulator::Destroy();
}

namespace
{

/// A controller that records the acknowledgements it is given (and does nothing else).
class AckRecorder : public MrcNoCongestionControl
{
  public:
    std::vector<MrcCcAck> acks; //!< every OnAck, in order

    void OnAck(MrcCcState& /* s */, const MrcCcAck& ack) override
    {
        acks.push_back(ack);
    }

    Ptr<MrcCongestionOps> Fork() const override
    {
        return Ptr<MrcCongestionOps>(const_cast<AckRecorder*>(this)); // share: the test reads it
    }
};

struct SvcRun
{
    std::vector<MrcCcAck> acks;
    Time end{0};
};

/// One 4096-byte Write from host 0 to host 3, both QPs with ServiceTime `svc`.
SvcRun
ServiceTimeRun(Time svc)
{
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    Ptr<MrcRdmaNic> na = MrcRdmaNic::GetNic(t->GetHost(0));
    Ptr<MrcRdmaNic> nb = MrcRdmaNic::GetNic(t->GetHost(3));
    ObjectFactory f("ns3::MrcMultipathQueuePair");
    f.Set("ServiceTime", TimeValue(svc));
    Ptr<MrcQueuePair> qa = na->CreateQueuePair(f);
    Ptr<MrcQueuePair> qb = nb->CreateQueuePair(f);
    Ptr<AckRecorder> rec = CreateObject<AckRecorder>();
    qa->SetCongestionOpsPrototype(rec);
    qb->SetCongestionOpsPrototype(CreateObject<MrcNoCongestionControl>());
    Ptr<MrcMemoryRegion> mr = nb->RegisterMemoryRegion(0x100000, 1 << 20);
    qa->Connect(nb->GetAddresses(), qb->GetQpn(), qb->GetInitialPsn());
    qb->Connect(na->GetAddresses(), qa->GetQpn(), qa->GetInitialPsn());
    Done d;
    qa->SetCompletionCallback(MakeCallback(&Done::Add, &d));
    MrcWorkRequest wr;
    wr.id = 1;
    wr.remoteAddress = mr->GetBase();
    wr.rkey = mr->GetRkey();
    wr.length = 4096;
    EXPECT_TRUE(qa->PostSend(wr));
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    SvcRun r;
    r.acks = rec->acks;
    if (d.wc.size() == 1)
    {
        r.end = d.wc[0].end;
    }
    Simulator::Destroy();
    return r;
}

} // namespace

TEST(MrcServiceTime, SackLeavesLaterAndTheSenderSubtractsIt)
{
    const SvcRun plain = ServiceTimeRun(Time(0));
    const SvcRun svc = ServiceTimeRun(MicroSeconds(5));
    ASSERT_EQ(plain.acks.size(), 1u);
    ASSERT_EQ(svc.acks.size(), 1u);
    ASSERT_TRUE(plain.acks[0].rttValid);
    ASSERT_TRUE(svc.acks[0].rttValid);
    EXPECT_EQ(plain.acks[0].serviceTime, Time(0));
    EXPECT_EQ(svc.acks[0].serviceTime, MicroSeconds(5));
    // the SACK left 5 us later, so the Write completed exactly 5 us later ...
    ASSERT_TRUE(plain.end.IsStrictlyPositive());
    EXPECT_EQ(svc.end - plain.end, MicroSeconds(5));
    // ... but the RTT sample NSCC sees is the same network RTT
    EXPECT_EQ(svc.acks[0].rttSample, plain.acks[0].rttSample);
    EXPECT_GT(plain.acks[0].rttSample, MicroSeconds(8)); // 8 links of 1 us, at least
}

namespace
{

/// One Write of `bytes` from host 0 to host 3 over UEC RUD (one plane); the requester's
/// completion time (0 if none). `attr`/`value`: an attribute set on both UEC QPs.
Time
UecRun(uint32_t bytes, const std::string& attr, const AttributeValue& value)
{
    Ptr<MrcTopology> t = MrcTest::OnePlaneClos(4);
    MrcRdmaHelper rdma;
    rdma.SetQueuePairType("ns3::MrcUecQueuePair");
    rdma.SetQueuePairAttribute("BaseRtt", TimeValue(t->GetBaseRtt(4096)));
    rdma.SetQueuePairAttribute(attr, value);
    MrcTest::InstallNicsOnPlane0(rdma, t);
    MrcRdmaHelper::Connection conn = rdma.Connect(t->GetHost(0), t->GetHost(3), bytes);
    Done d;
    conn.requester->SetCompletionCallback(MakeCallback(&Done::Add, &d));
    EXPECT_TRUE(conn.requester->PostSend(WriteRequest(conn, 1, bytes, 0)));
    DynamicCast<MrcUecQueuePair>(conn.requester)->GetEntropySelector()->AssignStreams(7);
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    Time end(0);
    if (d.wc.size() == 1 && d.wc[0].status == MrcWcStatus::SUCCESS)
    {
        end = d.wc[0].end;
        EXPECT_TRUE(conn.region->IsExactlyOnce(conn.region->GetBase(), bytes));
    }
    Simulator::Destroy();
    return end;
}

} // namespace

TEST(MrcServiceTime, UecAckLeavesLater)
{
    const Time plain = UecRun(4096, "ServiceTime", TimeValue(Time(0)));
    const Time svc = UecRun(4096, "ServiceTime", TimeValue(MicroSeconds(5)));
    ASSERT_TRUE(plain.IsStrictlyPositive());
    EXPECT_EQ(svc - plain, MicroSeconds(5));
}

TEST(MrcReceiver, UecBackpressureSlowsTheSender)
{
    const uint32_t bytes = 4 << 20;
    const Time free = UecRun(bytes, "RcvDrainRate", DataRateValue(DataRate(0)));
    const Time slow = UecRun(bytes, "RcvDrainRate", DataRateValue(DataRate("20Gbps")));
    ASSERT_TRUE(free.IsStrictlyPositive());
    ASSERT_TRUE(slow.IsStrictlyPositive());
    // one 100 Gb/s plane: about 0.35 ms free; near 4 MiB / 20 Gb/s = 1.68 ms throttled
    EXPECT_GT(slow, free * 3) << slow.As(Time::US) << " vs " << free.As(Time::US);
}
