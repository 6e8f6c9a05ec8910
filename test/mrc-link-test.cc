/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the fabric link layer: MrcNetDevice, MrcChannel and MrcLinkHelper.
// Each test builds two nodes joined by one link and checks hand-computed times,
// orders and counts.

#include "mrc-test-support.h"

#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/error-model.h"
#include "ns3/ethernet-header.h"
#include "ns3/ipv6-header.h"
#include "ns3/mrc-channel.h"
#include "ns3/mrc-ingress-loss-model.h"
#include "ns3/mrc-link-helper.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-packet-info.h"
#include "ns3/mrc-pfc-frame.h"
#include "ns3/mrc-traffic-class.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/pcap-file.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <gtest/gtest.h>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint16_t TEST_ETHER_TYPE = 0x88B5; ///< IEEE 802 local experimental EtherType

/// A frame seen at a receiver or a transmitter.
struct Seen
{
    int64_t ns;    ///< simulation time in ns
    uint32_t id;   ///< identifier from the payload (0 for non-test frames)
    uint32_t size; ///< bytes (frame with header at the sender, packet at the receiver)
    uint16_t type; ///< EtherType
    uint8_t cls;   ///< class
};

/// A packet of frameBytes - 14 bytes whose first four bytes are id.
Ptr<Packet>
Data(uint32_t frameBytes, uint32_t id)
{
    std::vector<uint8_t> buf(frameBytes - 14, 0);
    buf[0] = id >> 24;
    buf[1] = id >> 16;
    buf[2] = id >> 8;
    buf[3] = id;
    return Create<Packet>(buf.data(), buf.size());
}

/// \return the id written by Data(), after skip bytes of headers
uint32_t
IdOf(Ptr<const Packet> p, uint32_t skip)
{
    std::vector<uint8_t> buf(skip + 4, 0);
    p->CopyData(buf.data(), buf.size());
    return (uint32_t(buf[skip]) << 24) | (uint32_t(buf[skip + 1]) << 16) |
           (uint32_t(buf[skip + 2]) << 8) | buf[skip + 3];
}

/// An IPv6 packet with the given DSCP and size (header included), ECN-capable (ECT(0)).
Ptr<Packet>
Ipv6Packet(uint8_t dscp, uint32_t size, const Ipv6Address& dst = Ipv6Address("fd00::2"))
{
    Ptr<Packet> p = Create<Packet>(size - 40);
    Ipv6Header ip;
    ip.SetSource(Ipv6Address("fd00::1"));
    ip.SetDestination(dst);
    ip.SetNextHeader(17);
    ip.SetHopLimit(64);
    ip.SetPayloadLength(size - 40);
    ip.SetTrafficClass(MrcMakeTrafficClass(dscp, MrcEcn::ECT0));
    p->AddHeader(ip);
    return p;
}

/// Two nodes joined by one link, with recorders on both devices.
struct Link
{
    Ptr<Node> na;
    Ptr<Node> nb;
    Ptr<MrcNetDevice> a;
    Ptr<MrcNetDevice> b;
    Ptr<MrcChannel> ch;
    std::vector<Seen> rxA;      ///< packets delivered by a (class receive callback)
    std::vector<Seen> rxB;      ///< packets delivered by b
    std::vector<Seen> txBeginA; ///< frames a started to send
    std::vector<Seen> txBeginB; ///< frames b started to send

    /// Build the link; helper attributes are set by the caller through h.
    explicit Link(MrcLinkHelper& h)
    {
        na = CreateObject<Node>();
        nb = CreateObject<Node>();
        NetDeviceContainer d = h.Install(na, nb);
        a = DynamicCast<MrcNetDevice>(d.Get(0));
        b = DynamicCast<MrcNetDevice>(d.Get(1));
        ch = a->GetMrcChannel();
        Hook(a, rxA, txBeginA);
        Hook(b, rxB, txBeginB);
    }

    /// Record what a device delivers and what it starts to send.
    static void Hook(Ptr<MrcNetDevice> dev, std::vector<Seen>& rx, std::vector<Seen>& tx)
    {
        dev->SetClassReceiveCallback(MrcNetDevice::ClassReceiveCallback(
            [&rx](Ptr<MrcNetDevice>, Ptr<Packet> p, uint16_t type, uint8_t cls) {
                rx.push_back({Simulator::Now().GetNanoSeconds(),
                              type == TEST_ETHER_TYPE ? IdOf(p, 0) : 0,
                              p->GetSize(),
                              type,
                              cls});
            }));
        dev->TraceConnectWithoutContext(
            "PhyTxBegin",
            Callback<void, Ptr<const Packet>>([&tx](Ptr<const Packet> p) {
                EthernetHeader eth;
                p->PeekHeader(eth);
                uint16_t type = eth.GetLengthType();
                tx.push_back({Simulator::Now().GetNanoSeconds(),
                              type == TEST_ETHER_TYPE ? IdOf(p, 14) : 0,
                              p->GetSize(),
                              type,
                              0});
            }));
    }

    /// Schedule a test frame from dev at time ns.
    static void SendAt(int64_t ns,
                       Ptr<MrcNetDevice> dev,
                       uint32_t frameBytes,
                       uint32_t id,
                       uint8_t cls)
    {
        Simulator::Schedule(NanoSeconds(ns), [=]() {
            dev->SendToClass(Data(frameBytes, id), TEST_ETHER_TYPE, cls);
        });
    }
};

/// A helper for links at the given rate and delay.
MrcLinkHelper
Helper(const std::string& rate, const std::string& delay)
{
    MrcLinkHelper h;
    h.SetDeviceAttribute("DataRate", StringValue(rate));
    h.SetChannelAttribute("Delay", StringValue(delay));
    return h;
}

/// The ids of a list of frames, in order.
std::vector<uint32_t>
Ids(const std::vector<Seen>& v)
{
    std::vector<uint32_t> ids;
    for (const Seen& s : v)
    {
        ids.push_back(s.id);
    }
    return ids;
}

/// The times of a list of frames, in ns.
std::vector<int64_t>
Times(const std::vector<Seen>& v)
{
    std::vector<int64_t> t;
    for (const Seen& s : v)
    {
        t.push_back(s.ns);
    }
    return t;
}

} // namespace

TEST(MrcLink, SerializationTimeIncludesWireOverhead)
{
    MrcLinkHelper h = Helper("100Gbps", "1us");
    Link l(h);
    // 1226-byte frame + 24 bytes overhead = 1250 B = 10000 bits = 100 ns at 100 Gb/s.
    EXPECT_EQ(l.a->GetSerializationTime(1226), NanoSeconds(100));
    // A frame shorter than 60 bytes is timed as 60 + 24 = 84 B = 672 bits = 6.72 ns -> 6 ns.
    EXPECT_EQ(l.a->GetSerializationTime(34), NanoSeconds(6));
    std::vector<int64_t> txEnd;
    l.a->TraceConnectWithoutContext("PhyTxEnd",
                                    Callback<void, Ptr<const Packet>>([&](Ptr<const Packet>) {
                                        txEnd.push_back(Simulator::Now().GetNanoSeconds());
                                    }));
    Link::SendAt(0, l.a, 1226, 1, 0);
    // Three back-to-back 1000-byte frames: 1024 B = 8192 bits = 81.92 ns each. The
    // remainder is carried, so they end at floor(k * 81.92) ns after their start.
    Link::SendAt(1000, l.a, 1000, 2, 0);
    Link::SendAt(1000, l.a, 1000, 3, 0);
    Link::SendAt(1000, l.a, 1000, 4, 0);
    Simulator::Run();
    EXPECT_EQ(txEnd, (std::vector<int64_t>{100, 1081, 1163, 1245}));
    // Arrival = end of serialization + 1 us propagation.
    EXPECT_EQ(Times(l.rxB), (std::vector<int64_t>{1100, 2081, 2163, 2245}));
    EXPECT_EQ(Ids(l.rxB), (std::vector<uint32_t>{1, 2, 3, 4}));
    EXPECT_EQ(l.rxB[0].size, 1226u - 14);
    EXPECT_EQ(l.a->GetTxBytes(0), 1226u + 3 * 1000);
    EXPECT_EQ(l.b->GetRxBytes(0), 1226u + 3 * 1000);
    Simulator::Destroy();
}

TEST(MrcLink, PropagationDelayAndMinimumFrame)
{
    // At 8 Gb/s a byte takes exactly 1 ns.
    MrcLinkHelper h = Helper("8Gbps", "2500ns");
    Link l(h);
    Link::SendAt(0, l.a, 1000, 1, 0);     // 1024 ns on the wire
    Link::SendAt(10000, l.b, 1000, 2, 0); // the other direction
    Link::SendAt(20000, l.a, 34, 3, 0);   // padded timing: 84 ns
    Simulator::Run();
    EXPECT_EQ(Times(l.rxB), (std::vector<int64_t>{1024 + 2500, 20000 + 84 + 2500}));
    EXPECT_EQ(Times(l.rxA), (std::vector<int64_t>{10000 + 1024 + 2500}));
    EXPECT_EQ(Ids(l.rxB), (std::vector<uint32_t>{1, 3}));
    EXPECT_EQ(l.rxB[1].size, 34u - 14); // the padding is timed, not carried
    Simulator::Destroy();
}

TEST(MrcLink, StrictPriorityServesTheHighestClassAfterTheCurrentFrame)
{
    MrcLinkHelper h = Helper("8Gbps", "1us");
    Link l(h);
    uint32_t enqueued = 0;
    std::vector<uint8_t> dequeued;
    l.a->TraceConnectWithoutContext("Enqueue",
                                    Callback<void, Ptr<const Packet>, uint8_t>(
                                        [&](Ptr<const Packet>, uint8_t) { ++enqueued; }));
    l.a->TraceConnectWithoutContext(
        "Dequeue",
        Callback<void, Ptr<const Packet>, uint8_t>(
            [&](Ptr<const Packet>, uint8_t cls) { dequeued.push_back(cls); }));
    Link::SendAt(0, l.a, 1000, 1, 1); // starts at once
    Link::SendAt(0, l.a, 1000, 2, 1);
    Link::SendAt(0, l.a, 1000, 3, 1);
    Link::SendAt(0, l.a, 500, 4, 7);
    Link::SendAt(0, l.a, 500, 5, 3);
    Simulator::Schedule(NanoSeconds(1), [&]() {
        EXPECT_EQ(l.a->GetQueueBytes(1), 2000u);
        EXPECT_EQ(l.a->GetQueueBytes(7), 500u);
        EXPECT_EQ(l.a->GetTotalQueueBytes(), 3000u);
        EXPECT_EQ(l.a->GetQueuePackets(1), 2u);
    });
    Simulator::Run();
    EXPECT_EQ(Ids(l.rxB), (std::vector<uint32_t>{1, 4, 5, 2, 3}));
    // 1024, then 524, then 524, then 1024, 1024 ns.
    EXPECT_EQ(Times(l.txBeginA), (std::vector<int64_t>{0, 1024, 1548, 2072, 3096}));
    EXPECT_EQ(enqueued, 5u);
    EXPECT_EQ(dequeued, (std::vector<uint8_t>{1, 7, 3, 1, 1}));
    EXPECT_EQ(l.a->GetTxPackets(1), 3u);
    EXPECT_EQ(l.a->GetTxBytes(7), 500u);
    EXPECT_EQ(l.a->GetTotalQueueBytes(), 0u);
    Simulator::Destroy();
}

TEST(MrcLink, DwrrSharesByWeightWithStrictZeroWeightClasses)
{
    MrcLinkHelper h = Helper("8Gbps", "1us");
    h.SetDeviceAttribute("Scheduler", StringValue("Dwrr"));
    h.SetDeviceAttribute("DwrrWeights", StringValue("1,1,1,3,1,1,1,0"));
    h.SetDeviceAttribute("DwrrQuantum", UintegerValue(1000));
    Link l(h);
    std::vector<uint8_t> order;
    l.a->SetDequeueHook(
        MrcNetDevice::DequeueHook([&](Ptr<Packet>, uint8_t cls) { order.push_back(cls); }));
    // Eight 1000-byte frames on class 1 (weight 1, credit 1000 B per round) and on
    // class 3 (weight 3, 3000 B per round), two on class 7 (weight 0: strict).
    uint32_t id = 0;
    for (int i = 0; i < 8; ++i)
    {
        Link::SendAt(0, l.a, 1000, ++id, 1);
    }
    for (int i = 0; i < 8; ++i)
    {
        Link::SendAt(0, l.a, 1000, ++id, 3);
    }
    Link::SendAt(0, l.a, 1000, ++id, 7);
    Link::SendAt(0, l.a, 1000, ++id, 7);
    Simulator::Run();
    // The first class-1 frame leaves at once; then the strict class 7, then rounds
    // of one class-1 frame per three class-3 frames until class 3 runs dry.
    EXPECT_EQ(order, (std::vector<uint8_t>{1, 7, 7, 3, 3, 3, 1, 3, 3, 3, 1, 3, 3, 1, 1, 1, 1, 1}));
    EXPECT_EQ(l.a->GetTxBytes(1), 8000u);
    EXPECT_EQ(l.a->GetTxBytes(3), 8000u);
    EXPECT_EQ(l.rxB.size(), 18u);
    Simulator::Destroy();
}

TEST(MrcLink, PfcPauseExpiresAfterQuantaTimes512BitTimes)
{
    // 8 Gb/s: a quantum (512 bits) is 64 ns; a PFC frame (60 + 24 B) takes 84 ns.
    MrcLinkHelper h = Helper("8Gbps", "1000ns");
    Link l(h);
    EXPECT_EQ(l.a->GetPauseDuration(10), NanoSeconds(640));
    EXPECT_EQ(l.a->GetPauseDuration(0xffff), NanoSeconds(0xffffll * 64));
    std::vector<std::pair<uint8_t, uint16_t>> pfcTx;
    std::vector<std::pair<uint8_t, uint16_t>> pfcRx;
    std::vector<std::pair<int64_t, bool>> pauseState;
    l.b->TraceConnectWithoutContext("PfcTx",
                                    Callback<void, uint8_t, uint16_t>(
                                        [&](uint8_t c, uint16_t q) { pfcTx.emplace_back(c, q); }));
    l.a->TraceConnectWithoutContext("PfcRx",
                                    Callback<void, uint8_t, uint16_t>(
                                        [&](uint8_t c, uint16_t q) { pfcRx.emplace_back(c, q); }));
    l.a->TraceConnectWithoutContext("PauseState",
                                    Callback<void, uint8_t, bool>([&](uint8_t c, bool paused) {
                                        pauseState.emplace_back(Simulator::Now().GetNanoSeconds(),
                                                                paused);
                                    }));
    // b pauses a's class 3 for 10 quanta: the frame arrives at 84 + 1000 = 1084 ns,
    // the pause ends at 1084 + 640 = 1724 ns.
    Simulator::Schedule(NanoSeconds(0), [&]() { l.b->SendPause(3, 10); });
    Link::SendAt(1100, l.a, 1000, 1, 3); // waits for the pause to end
    Link::SendAt(1100, l.a, 100, 2, 1);  // class 1 is not paused: leaves at once
    Simulator::Schedule(NanoSeconds(1723), [&]() {
        EXPECT_TRUE(l.a->IsClassPaused(3));
        EXPECT_FALSE(l.a->IsClassPaused(1));
        EXPECT_EQ(l.a->GetPausedTime(3), NanoSeconds(1723 - 1084));
        // the scheduler's gate follows the PFC port
        EXPECT_EQ(l.a->GetClassScheduler()->GetPausedMask(), 0x08);
    });
    // (Checks run 1 ns after an event: a check scheduled now would run before an
    // event the device schedules later for the same time.)
    Simulator::Schedule(NanoSeconds(1725), [&]() {
        EXPECT_FALSE(l.a->IsClassPaused(3));
        EXPECT_EQ(l.a->GetClassScheduler()->GetPausedMask(), 0);
    });
    Simulator::Run();
    ASSERT_EQ(l.txBeginA.size(), 2u);
    EXPECT_EQ(l.txBeginA[0].id, 2u);
    EXPECT_EQ(l.txBeginA[0].ns, 1100);
    EXPECT_EQ(l.txBeginA[1].id, 1u);
    EXPECT_EQ(l.txBeginA[1].ns, 1724);
    EXPECT_EQ(l.a->GetPausedTime(3), NanoSeconds(640));
    EXPECT_EQ(l.a->GetPausedTime(1), NanoSeconds(0));
    EXPECT_EQ(pfcTx, (std::vector<std::pair<uint8_t, uint16_t>>{{3, 10}}));
    EXPECT_EQ(pfcRx, (std::vector<std::pair<uint8_t, uint16_t>>{{3, 10}}));
    EXPECT_EQ(pauseState, (std::vector<std::pair<int64_t, bool>>{{1084, true}, {1724, false}}));
    EXPECT_EQ(l.b->GetPfcTxFrames(), 1u);
    EXPECT_EQ(l.a->GetPfcRxFrames(), 1u);
    // PFC frames are consumed, not delivered; data is.
    EXPECT_TRUE(l.rxA.empty());
    EXPECT_EQ(Ids(l.rxB), (std::vector<uint32_t>{2, 1}));
    Simulator::Destroy();
}

TEST(MrcLink, PfcRefreshRestartsTheTimer)
{
    MrcLinkHelper h = Helper("8Gbps", "1000ns");
    Link l(h);
    Simulator::Schedule(NanoSeconds(0), [&]() { l.b->SendPause(3, 10); });   // at a: 1084
    Simulator::Schedule(NanoSeconds(500), [&]() { l.b->SendPause(3, 10); }); // at a: 1584
    Link::SendAt(1100, l.a, 1000, 1, 3);
    Simulator::Run();
    ASSERT_EQ(l.txBeginA.size(), 1u);
    EXPECT_EQ(l.txBeginA[0].ns, 1584 + 640);
    EXPECT_EQ(l.a->GetPausedTime(3), NanoSeconds(1584 + 640 - 1084));
    Simulator::Destroy();
}

TEST(MrcLink, PfcZeroQuantaResumesAtOnce)
{
    MrcLinkHelper h = Helper("8Gbps", "1000ns");
    Link l(h);
    Simulator::Schedule(NanoSeconds(0), [&]() { l.b->SendPause(3, 1000); }); // at a: 1084
    Simulator::Schedule(NanoSeconds(300), [&]() { l.b->SendResume(3); });    // at a: 1384
    Link::SendAt(1100, l.a, 1000, 1, 3);
    Simulator::Run();
    ASSERT_EQ(l.txBeginA.size(), 1u);
    EXPECT_EQ(l.txBeginA[0].ns, 1384);
    EXPECT_EQ(l.a->GetPausedTime(3), NanoSeconds(300));
    EXPECT_EQ(l.a->GetPfcRxFrames(), 2u);
    Simulator::Destroy();
}

TEST(MrcLink, PfcFramesBypassQueuesAndPauses)
{
    MrcLinkHelper h = Helper("8Gbps", "1000ns");
    Link l(h);
    // b pauses every class of a (vector 0xff) for 1000 quanta: at a from 1084 ns.
    std::array<uint16_t, 8> q;
    q.fill(1000);
    Simulator::Schedule(NanoSeconds(0), [&]() { l.b->SendPfc(0xff, q); });
    Link::SendAt(1100, l.a, 1000, 1, 2); // paused: stays queued
    Link::SendAt(1100, l.a, 1000, 2, 7); // paused: stays queued
    // a's own PFC frame leaves at once, though all its classes are paused.
    Simulator::Schedule(NanoSeconds(1200), [&]() { l.a->SendPause(5, 7); });
    Simulator::Schedule(NanoSeconds(1200 + 84 + 1000 + 1),
                        [&]() { EXPECT_TRUE(l.b->IsClassPaused(5)); });
    // b has a frame on the wire (2000..3024 ns) and another queued when it sends a
    // PFC frame at 2500 ns: the PFC frame goes second, ahead of the queued data.
    Link::SendAt(2000, l.b, 1000, 3, 0);
    Link::SendAt(2000, l.b, 1000, 4, 0);
    Simulator::Schedule(NanoSeconds(2500), [&]() { l.b->SendResume(2); });
    Simulator::Stop(MicroSeconds(20));
    Simulator::Run();
    ASSERT_EQ(l.txBeginA.size(), 2u);
    EXPECT_EQ(l.txBeginA[0].ns, 1200);
    EXPECT_EQ(l.txBeginA[0].type, MrcPfcFrame::ETHER_TYPE);
    EXPECT_EQ(l.txBeginA[0].size, 60u);
    // The resume of class 2 reached a at 3024 + 84 + 1000 = 4108 ns: frame 1 left then.
    EXPECT_EQ(l.txBeginA[1].ns, 4108);
    EXPECT_EQ(l.txBeginA[1].id, 1u);
    EXPECT_EQ(l.a->GetQueuePackets(7), 1u);
    EXPECT_EQ(Times(l.txBeginB), (std::vector<int64_t>{0, 2000, 3024, 3108}));
    std::vector<uint16_t> types;
    for (const Seen& s : l.txBeginB)
    {
        types.push_back(s.type);
    }
    EXPECT_EQ(types,
              (std::vector<uint16_t>{MrcPfcFrame::ETHER_TYPE,
                                     TEST_ETHER_TYPE,
                                     MrcPfcFrame::ETHER_TYPE,
                                     TEST_ETHER_TYPE}));
    EXPECT_EQ(Ids(l.rxB), (std::vector<uint32_t>{1}));
    EXPECT_EQ(l.rxB[0].ns, 4108 + 1024 + 1000);
    Simulator::Destroy();
}

TEST(MrcLink, LinkDownLosesQueuedAndInFlightFramesAndNotifiesAfterDetection)
{
    MrcLinkHelper h = Helper("8Gbps", "1000ns");
    Link l(h);
    l.a->SetAttribute("LinkDownDetectDelay", StringValue("700ns"));
    l.a->SetAttribute("LinkUpDetectDelay", StringValue("50ns"));
    l.b->SetAttribute("LinkDownDetectDelay", StringValue("100ns"));
    l.b->SetAttribute("LinkUpDetectDelay", StringValue("200ns"));
    std::vector<int64_t> notifiedA;
    std::vector<int64_t> notifiedB;
    l.a->AddLinkChangeCallback(
        Callback<void>([&]() { notifiedA.push_back(Simulator::Now().GetNanoSeconds()); }));
    l.b->AddLinkChangeCallback(
        Callback<void>([&]() { notifiedB.push_back(Simulator::Now().GetNanoSeconds()); }));
    std::vector<MrcDropReason> reasons;
    l.a->TraceConnectWithoutContext(
        "Drop",
        Callback<void, Ptr<const Packet>, MrcDropReason>(
            [&](Ptr<const Packet>, MrcDropReason r) { reasons.push_back(r); }));
    uint64_t offered = 0;
    // Five 1000-byte frames start at 0, 1024, 2048, 3072, 4096 ns.
    for (uint32_t id = 1; id <= 5; ++id)
    {
        Link::SendAt(0, l.a, 1000, id, 1);
        offered += 1000;
    }
    // Down at 1500: frame 1 (arriving at 2024) and frame 2 (being sent) are lost on
    // the wire. a notices at 2200, so frame 3, started at 2048, is lost too; frames 4
    // and 5 are still queued and are dropped then. b notices at 1600.
    Simulator::Schedule(NanoSeconds(1500), [&]() { l.ch->SetLinkUp(false); });
    Simulator::Schedule(NanoSeconds(1501), [&]() {
        EXPECT_EQ(l.ch->GetLostPackets(0), 2u);
        EXPECT_TRUE(l.a->IsLinkUp());
        EXPECT_FALSE(l.ch->IsLinkUp());
    });
    Simulator::Schedule(NanoSeconds(2199), [&]() { EXPECT_EQ(l.a->GetQueuePackets(1), 2u); });
    Simulator::Schedule(NanoSeconds(2201), [&]() {
        EXPECT_FALSE(l.a->IsLinkUp());
        EXPECT_EQ(l.a->GetQueuePackets(1), 0u);
    });
    // Sending while a knows the link is down fails.
    Simulator::Schedule(NanoSeconds(2300), [&]() {
        EXPECT_FALSE(l.a->SendToClass(Data(1000, 6), TEST_ETHER_TYPE, 1));
    });
    offered += 1000;
    // Up at 5000: a notices at 5050, b at 5200; a frame sent at 5100 arrives.
    Simulator::Schedule(NanoSeconds(5000), [&]() { l.ch->SetLinkUp(true); });
    Link::SendAt(5100, l.a, 1000, 7, 1);
    offered += 1000;
    Simulator::Run();

    EXPECT_EQ(notifiedA, (std::vector<int64_t>{2200, 5050}));
    EXPECT_EQ(notifiedB, (std::vector<int64_t>{1600, 5200}));
    EXPECT_TRUE(l.a->IsLinkUp());
    EXPECT_TRUE(l.b->IsLinkUp());
    EXPECT_EQ(l.ch->GetLostPackets(0), 3u);
    EXPECT_EQ(l.ch->GetLostBytes(0), 3000u);
    EXPECT_EQ(l.ch->GetLostPackets(1), 0u);
    EXPECT_EQ(l.a->GetDropPackets(MrcDropReason::LINK_DOWN), 6u); // 3 wire, 2 queued, 1 sent
    EXPECT_EQ(l.a->GetDropBytes(MrcDropReason::LINK_DOWN), 6000u);
    EXPECT_EQ(reasons.size(), 6u);
    EXPECT_EQ(Ids(l.rxB), (std::vector<uint32_t>{7}));
    EXPECT_EQ(l.rxB[0].ns, 5100 + 1024 + 1000);
    EXPECT_EQ(Times(l.txBeginA), (std::vector<int64_t>{0, 1024, 2048, 5100}));
    // Conservation: bytes offered = received + dropped; bytes sent = received + lost.
    uint64_t dropped = 0;
    for (auto r : {MrcDropReason::QUEUE_FULL,
                   MrcDropReason::LINK_DOWN,
                   MrcDropReason::ERROR_MODEL,
                   MrcDropReason::NO_ROUTE})
    {
        dropped += l.a->GetDropBytes(r) + l.b->GetDropBytes(r);
    }
    EXPECT_EQ(offered, l.b->GetRxBytes(0) + dropped);
    EXPECT_EQ(l.a->GetTxBytes(1), l.b->GetRxBytes(0) + l.ch->GetLostBytes(0));
    Simulator::Destroy();
}

TEST(MrcLink, LinkDownDropsPendingPfcFramesAndEndsPauses)
{
    MrcLinkHelper h = Helper("8Gbps", "1000ns");
    Link l(h);
    std::vector<std::pair<int64_t, uint32_t>> drops;
    l.a->TraceConnectWithoutContext(
        "Drop",
        Callback<void, Ptr<const Packet>, MrcDropReason>([&](Ptr<const Packet> p, MrcDropReason r) {
            EXPECT_EQ(r, MrcDropReason::LINK_DOWN);
            drops.emplace_back(Simulator::Now().GetNanoSeconds(), p->GetSize());
        }));
    std::vector<std::pair<int64_t, bool>> pauseState;
    l.a->TraceConnectWithoutContext("PauseState",
                                    Callback<void, uint8_t, bool>([&](uint8_t c, bool paused) {
                                        EXPECT_EQ(c, 2);
                                        pauseState.emplace_back(Simulator::Now().GetNanoSeconds(),
                                                                paused);
                                    }));
    // b pauses a's class 2 for long (at a from 1084 ns); a then queues a class-2 frame
    // (paused), sends a class-0 frame (1100..1624 ns) and queues a PFC frame behind it.
    Simulator::Schedule(NanoSeconds(0), [&]() { l.b->SendPause(2, 0xffff); });
    Link::SendAt(1100, l.a, 1000, 1, 2);
    Link::SendAt(1100, l.a, 500, 2, 0);
    Simulator::Schedule(NanoSeconds(1200), [&]() { l.a->SendPause(5, 10); });
    // Down at 1300 (noticed at once): the channel loses the frame on the wire, then the
    // device drops its queued data frame and then its PFC frame, and ends the pause.
    Simulator::Schedule(NanoSeconds(1300), [&]() { l.ch->SetLinkUp(false); });
    Simulator::Schedule(NanoSeconds(1301), [&]() {
        EXPECT_FALSE(l.a->IsClassPaused(2));
        EXPECT_EQ(l.a->GetClassScheduler()->GetPausedMask(), 0);
        EXPECT_FALSE(l.a->GetPfcPort()->HasPending());
        EXPECT_EQ(l.a->GetTotalQueueBytes(), 0u);
    });
    // Up again at 3000: class 2 is not paused any more.
    Simulator::Schedule(NanoSeconds(3000), [&]() { l.ch->SetLinkUp(true); });
    Link::SendAt(3100, l.a, 1000, 3, 2);
    Simulator::Run();
    std::vector<uint32_t> at1300;
    for (const auto& d : drops)
    {
        if (d.first == 1300)
        {
            at1300.push_back(d.second);
        }
    }
    EXPECT_EQ(at1300, (std::vector<uint32_t>{500, 1000, 60}));
    EXPECT_EQ(drops.size(), 3u);
    EXPECT_EQ(l.a->GetDropPackets(MrcDropReason::LINK_DOWN), 3u);
    EXPECT_EQ(l.a->GetDropBytes(MrcDropReason::LINK_DOWN), 500u + 1000 + 60);
    EXPECT_EQ(pauseState, (std::vector<std::pair<int64_t, bool>>{{1084, true}, {1300, false}}));
    EXPECT_EQ(l.a->GetPausedTime(2), NanoSeconds(1300 - 1084));
    EXPECT_EQ(l.a->GetPfcTxFrames(), 0u);
    EXPECT_EQ(Times(l.txBeginA), (std::vector<int64_t>{1100, 3100}));
    EXPECT_EQ(Ids(l.rxB), (std::vector<uint32_t>{3}));
    Simulator::Destroy();
}

TEST(MrcLink, SchedulerAttributesOfTheDeviceReachItsScheduler)
{
    // --ns3::MrcNetDevice::X options are defaults of the device's attributes, which the
    // device forwards to its scheduler.
    CommandLine cmd;
    const char* argv[] = {"test",
                          "--ns3::MrcNetDevice::Scheduler=Dwrr",
                          "--ns3::MrcNetDevice::DwrrWeights=1,2,3,4,5,6,7,0",
                          "--ns3::MrcNetDevice::DwrrQuantum=1500",
                          "--ns3::MrcNetDevice::QueueLimit=5000"};
    cmd.Parse(5, const_cast<char**>(argv));
    Ptr<MrcNetDevice> d = CreateObject<MrcNetDevice>();
    Config::SetDefault("ns3::MrcNetDevice::Scheduler", StringValue("StrictPriority"));
    Config::SetDefault("ns3::MrcNetDevice::DwrrWeights", StringValue("1,1,1,1,1,1,1,1"));
    Config::SetDefault("ns3::MrcNetDevice::DwrrQuantum", UintegerValue(9216));
    Config::SetDefault("ns3::MrcNetDevice::QueueLimit", UintegerValue(32 * 1024 * 1024));
    Ptr<MrcClassScheduler> s = d->GetClassScheduler();
    ASSERT_TRUE(s);
    EXPECT_TRUE(s->IsDwrr());
    EXPECT_EQ(s->GetDwrrWeights(), "1,2,3,4,5,6,7,0");
    EXPECT_EQ(s->GetDwrrQuantum(), 1500u);
    EXPECT_EQ(s->GetQueueLimit(), 5000u);
    // Read back through the device's attributes.
    StringValue sched;
    d->GetAttribute("Scheduler", sched);
    EXPECT_EQ(sched.Get(), "Dwrr");
    UintegerValue limit;
    d->GetAttribute("QueueLimit", limit);
    EXPECT_EQ(limit.Get(), 5000u);
    // Set on the device at run time, seen by the scheduler; and the other way.
    d->SetAttribute("DwrrQuantum", UintegerValue(777));
    EXPECT_EQ(s->GetDwrrQuantum(), 777u);
    s->SetAttribute("Scheduler", StringValue("StrictPriority"));
    d->GetAttribute("Scheduler", sched);
    EXPECT_EQ(sched.Get(), "StrictPriority");
    // The parts are reachable as read-only pointer attributes (Config paths).
    PointerValue part;
    d->GetAttribute("ClassScheduler", part);
    EXPECT_EQ(part.Get<MrcClassScheduler>(), s);
    d->GetAttribute("PfcPort", part);
    EXPECT_EQ(part.Get<MrcPfcPort>(), d->GetPfcPort());
    // A device made now has the defaults back.
    Ptr<MrcNetDevice> fresh = CreateObject<MrcNetDevice>();
    EXPECT_FALSE(fresh->GetClassScheduler()->IsDwrr());
    EXPECT_EQ(fresh->GetClassScheduler()->GetQueueLimit(), 32u * 1024 * 1024);
    d->Dispose();
    fresh->Dispose();
}

TEST(MrcLink, ConfigPathsReachTheSchedulerAndThePfcPort)
{
    MrcLinkHelper h = Helper("8Gbps", "1000ns");
    Link l(h);
    const std::string dev =
        "/NodeList/" + std::to_string(l.na->GetId()) + "/DeviceList/*/$ns3::MrcNetDevice/";
    Config::Set(dev + "ClassScheduler/DwrrQuantum", UintegerValue(4321));
    EXPECT_EQ(l.a->GetClassScheduler()->GetDwrrQuantum(), 4321u);
    EXPECT_EQ(l.b->GetClassScheduler()->GetDwrrQuantum(), 9216u);
    // The PFC traces connect on the device or on its port alike.
    uint32_t onDevice = 0;
    uint32_t onPort = 0;
    Config::ConnectWithoutContext(
        dev + "PfcRx",
        Callback<void, uint8_t, uint16_t>([&](uint8_t, uint16_t) { ++onDevice; }));
    Config::ConnectWithoutContext(
        dev + "PfcPort/PfcRx",
        Callback<void, uint8_t, uint16_t>([&](uint8_t, uint16_t) { ++onPort; }));
    Simulator::Schedule(NanoSeconds(0), [&]() { l.b->SendPause(1, 5); });
    Simulator::Run();
    EXPECT_EQ(onDevice, 1u);
    EXPECT_EQ(onPort, 1u);
    Simulator::Destroy();
}

TEST(MrcLink, FlapShorterThanDetectionGoesUnnoticed)
{
    MrcLinkHelper h = Helper("8Gbps", "1000ns");
    h.SetDeviceAttribute("LinkDownDetectDelay", StringValue("100ns"));
    Link l(h);
    uint32_t changes = 0;
    l.a->AddLinkChangeCallback(Callback<void>([&]() { ++changes; }));
    l.b->AddLinkChangeCallback(Callback<void>([&]() { ++changes; }));
    Link::SendAt(0, l.a, 1000, 1, 0); // on the wire 0..1024, lost
    Simulator::Schedule(NanoSeconds(500), [&]() { l.ch->SetLinkUp(false); });
    Simulator::Schedule(NanoSeconds(550), [&]() { l.ch->SetLinkUp(true); });
    Link::SendAt(3000, l.a, 1000, 2, 0);
    Simulator::Run();
    EXPECT_EQ(changes, 0u);
    EXPECT_EQ(l.ch->GetLostPackets(), 1u);
    EXPECT_EQ(Ids(l.rxB), (std::vector<uint32_t>{2}));
    Simulator::Destroy();
}

TEST(MrcLink, ReceiveErrorModelDropsAreCounted)
{
    MrcLinkHelper h = Helper("8Gbps", "1000ns");
    Link l(h);
    std::vector<Ptr<Packet>> packets;
    for (uint32_t id = 1; id <= 5; ++id)
    {
        packets.push_back(Data(1000, id));
    }
    Ptr<ListErrorModel> em = CreateObject<ListErrorModel>();
    em->SetList(
        {static_cast<uint32_t>(packets[1]->GetUid()), static_cast<uint32_t>(packets[3]->GetUid())});
    l.b->SetAttribute("ReceiveErrorModel", PointerValue(em));
    uint32_t phyRxDrops = 0;
    l.b->TraceConnectWithoutContext(
        "PhyRxDrop",
        Callback<void, Ptr<const Packet>>([&](Ptr<const Packet>) { ++phyRxDrops; }));
    Simulator::Schedule(NanoSeconds(0), [&]() {
        for (auto& p : packets)
        {
            l.a->SendToClass(p, TEST_ETHER_TYPE, 2);
        }
    });
    Simulator::Run();
    EXPECT_EQ(Ids(l.rxB), (std::vector<uint32_t>{1, 3, 5}));
    EXPECT_EQ(phyRxDrops, 2u);
    EXPECT_EQ(l.b->GetDropPackets(MrcDropReason::ERROR_MODEL), 2u);
    EXPECT_EQ(l.b->GetDropBytes(MrcDropReason::ERROR_MODEL), 2000u);
    EXPECT_EQ(l.a->GetTxBytes(2), 5000u);
    // Conservation on the wire: sent = received + dropped by the error model.
    EXPECT_EQ(l.a->GetTxBytes(2),
              l.b->GetRxBytes(0) + l.b->GetDropBytes(MrcDropReason::ERROR_MODEL));
    EXPECT_EQ(l.b->GetRxPackets(0), 3u);
    Simulator::Destroy();
}

TEST(MrcLink, QueueLimitDropsAreCounted)
{
    MrcLinkHelper h = Helper("8Gbps", "1000ns");
    h.SetDeviceAttribute("QueueLimit", UintegerValue(2500));
    Link l(h);
    uint32_t macTxDrops = 0;
    l.a->TraceConnectWithoutContext(
        "MacTxDrop",
        Callback<void, Ptr<const Packet>>([&](Ptr<const Packet>) { ++macTxDrops; }));
    // The first frame goes on the wire at once; two more fit the 2500-byte queue.
    for (uint32_t id = 1; id <= 5; ++id)
    {
        Link::SendAt(0, l.a, 1000, id, 4);
    }
    Simulator::Run();
    EXPECT_EQ(Ids(l.rxB), (std::vector<uint32_t>{1, 2, 3}));
    EXPECT_EQ(l.a->GetDropPackets(MrcDropReason::QUEUE_FULL), 2u);
    EXPECT_EQ(l.a->GetDropBytes(MrcDropReason::QUEUE_FULL), 2000u);
    EXPECT_EQ(macTxDrops, 2u);
    Simulator::Destroy();
}

TEST(MrcLink, DscpMapClassifiesAsConfigured)
{
    MrcLinkHelper h = Helper("8Gbps", "1000ns");
    h.SetDeviceAttribute("NonIpClass", UintegerValue(5));
    Link l(h);
    // The default map.
    const std::vector<std::pair<uint8_t, uint8_t>> defaults =
        {{46, 7}, {11, 7}, {21, 7}, {4, 1}, {8, 1}, {0, 0}, {26, 3}, {48, 6}, {10, 0}, {63, 0}};
    for (auto [dscp, cls] : defaults)
    {
        EXPECT_EQ(l.a->ClassifyDscp(dscp), cls) << "DSCP " << unsigned(dscp);
    }
    EXPECT_EQ(l.a->GetDscpToClass(), "0:0,4:1,8:1,11:7,21:7,26:3,46:7,48:6");
    l.a->SetAttribute("UnmappedDscpClass", UintegerValue(2));
    EXPECT_EQ(l.a->ClassifyDscp(10), 2);
    l.a->SetDscpToClass(" 5:4 , 63:2 ");
    EXPECT_EQ(l.a->ClassifyDscp(5), 4);
    EXPECT_EQ(l.a->ClassifyDscp(63), 2);
    EXPECT_EQ(l.a->ClassifyDscp(46), 2); // no longer mapped
    EXPECT_EQ(l.a->GetDscpToClass(), "5:4,63:2");
    // b's map is its own: devices share a table only while they map alike
    EXPECT_EQ(l.b->GetDscpToClass(), "0:0,4:1,8:1,11:7,21:7,26:3,46:7,48:6");
    EXPECT_EQ(l.b->ClassifyDscp(46), 7);
    l.a->SetAttribute("DscpToClass", StringValue("46:7,26:3"));

    // Send() classifies IPv6 by DSCP and other EtherTypes as NonIpClass.
    std::vector<uint8_t> classes;
    l.a->TraceConnectWithoutContext(
        "Enqueue",
        Callback<void, Ptr<const Packet>, uint8_t>(
            [&](Ptr<const Packet>, uint8_t cls) { classes.push_back(cls); }));
    Address dest = l.b->GetAddress();
    Simulator::Schedule(NanoSeconds(0), [&]() {
        EXPECT_TRUE(l.a->Send(Ipv6Packet(46, 200), dest, 0x86DD));
        EXPECT_TRUE(l.a->Send(Ipv6Packet(26, 300), dest, 0x86DD));
        EXPECT_TRUE(l.a->Send(Ipv6Packet(9, 400), dest, 0x86DD)); // unmapped: 2
        EXPECT_TRUE(l.a->Send(Create<Packet>(100), dest, 0x0800));
    });
    Simulator::Run();
    EXPECT_EQ(classes, (std::vector<uint8_t>{7, 3, 2, 5}));
    // b classifies with its own (default) map: 46 -> 7, 26 -> 3, 9 -> 0, IPv4 -> 5.
    EXPECT_EQ(l.b->GetRxBytes(7), 214u);
    EXPECT_EQ(l.b->GetRxBytes(3), 314u);
    EXPECT_EQ(l.b->GetRxBytes(0), 414u);
    EXPECT_EQ(l.b->GetRxBytes(5), 114u);
    Simulator::Destroy();
}

TEST(MrcLink, ReceiveCountsAreExactWhateverTheOrderOfClasses)
{
    // A device counts a received frame on its first cache line, in one of two pending
    // counts (one per class, 63 frames at most each), and adds a pending count to the
    // class's counters when it is full or a third class arrives: the getters include what
    // is pending, at any time.
    MrcLinkHelper h = Helper("8Gbps", "1000ns");
    Link l(h);
    Address dest = l.b->GetAddress();
    // b's default map: DSCP 26 -> class 3, 46 -> 7, 0 -> 0. One frame per microsecond.
    std::vector<uint8_t> dscps(300, 26); // 300 in one class: four flushes at 63
    for (int i = 0; i < 50; ++i)
    {
        dscps.push_back(46); // then three classes in turn: every frame finds its class
        dscps.push_back(0);  // pending or flushes another's
        dscps.push_back(26);
    }
    for (int i = 0; i < 40; ++i)
    {
        dscps.push_back(i % 2 ? 46 : 0); // two classes in turn: both stay pending
    }
    dscps.insert(dscps.end(), 10, 26);
    for (std::size_t i = 0; i < dscps.size(); ++i)
    {
        const uint8_t dscp = dscps[i];
        const uint32_t bytes = dscp == 26 ? 300 : 200;
        Simulator::Schedule(MicroSeconds(i), [&l, dest, dscp, bytes]() {
            EXPECT_TRUE(l.a->Send(Ipv6Packet(dscp, bytes), dest, 0x86DD));
        });
    }
    // frames and bytes of classes 3 (314-byte frames), 7 and 0 (214-byte frames), exact
    auto expectCounts = [&l](uint64_t c3, uint64_t c7, uint64_t c0) {
        EXPECT_EQ(l.b->GetRxPackets(3), c3);
        EXPECT_EQ(l.b->GetRxBytes(3), c3 * 314);
        EXPECT_EQ(l.b->GetRxPackets(7), c7);
        EXPECT_EQ(l.b->GetRxBytes(7), c7 * 214);
        EXPECT_EQ(l.b->GetRxPackets(0), c0);
        EXPECT_EQ(l.b->GetRxBytes(0), c0 * 214);
    };
    // After the first 300 frames (the 300th arrives at 299 us + 338 ns + 1 us): 252 of
    // them added to class 3's counters and 48 pending.
    Simulator::Schedule(NanoSeconds(300500), [&]() { expectCounts(300, 0, 0); });
    // after 20 turns of the three classes
    Simulator::Schedule(NanoSeconds(360500), [&]() { expectCounts(320, 20, 20); });
    // in the middle of the two classes' turns (30 of the 40 frames)
    Simulator::Schedule(NanoSeconds(480500), [&]() { expectCounts(350, 65, 65); });
    Simulator::Run();
    expectCounts(360, 70, 70);
    for (uint8_t cls : {1, 2, 4, 5, 6})
    {
        EXPECT_EQ(l.b->GetRxPackets(cls), 0u) << "class " << unsigned(cls);
        EXPECT_EQ(l.b->GetRxBytes(cls), 0u) << "class " << unsigned(cls);
    }
    Simulator::Destroy();
}

TEST(MrcLink, ChannelCarriesFramesBySenderOrByDirectionAlike)
{
    MrcLinkHelper h = Helper("8Gbps", "1000ns");
    Link l(h);
    // Each direction keeps its own copy of the Delay: a change after both ends attached
    // reaches frames in both directions.
    l.ch->SetAttribute("Delay", StringValue("3000ns"));
    // A frame put on the wire by the sender's pointer (Transmit) and one by its direction
    // (TransmitOn, the devices' path) arrive after txTime + Delay, in both directions.
    const Time txTime = NanoSeconds(500);
    Simulator::Schedule(NanoSeconds(100), [&]() {
        Ptr<Packet> f = Data(1000, 7);
        EthernetHeader eth;
        eth.SetLengthType(TEST_ETHER_TYPE);
        f->AddHeader(eth);
        l.ch->Transmit(l.a, f, txTime);
    });
    Simulator::Schedule(NanoSeconds(200), [&]() {
        Ptr<Packet> f = Data(1000, 8);
        EthernetHeader eth;
        eth.SetLengthType(TEST_ETHER_TYPE);
        f->AddHeader(eth);
        l.ch->TransmitOn(l.ch->GetDirection(1), f, txTime, true);
    });
    // and a device's own frame: 1000 bytes + 24 of wire overhead at 8 Gb/s = 1024 ns
    Link::SendAt(300, l.a, 1000, 9, 0);
    Simulator::Run();
    ASSERT_EQ(l.rxB.size(), 2u);
    EXPECT_EQ(l.rxB[0].id, 7u);
    EXPECT_EQ(l.rxB[0].ns, 100 + 500 + 3000);
    EXPECT_EQ(l.rxB[0].size, 986u);
    EXPECT_EQ(l.rxB[1].id, 9u);
    EXPECT_EQ(l.rxB[1].ns, 300 + 1024 + 3000);
    ASSERT_EQ(l.rxA.size(), 1u);
    EXPECT_EQ(l.rxA[0].id, 8u);
    EXPECT_EQ(l.rxA[0].ns, 200 + 500 + 3000);
    EXPECT_EQ(l.ch->GetDirection(0), l.ch->GetDirection(0));
    EXPECT_NE(l.ch->GetDirection(0), l.ch->GetDirection(1));
    Simulator::Destroy();
}

TEST(MrcLink, ReceiverGetsAPacketNoOneElseHolds)
{
    MrcLinkHelper h = Helper("8Gbps", "1000ns");
    Link l(h);
    // b takes 10 bytes off every packet it gets, as a receiver may.
    std::vector<const Packet*> got;
    l.b->SetClassReceiveCallback(MrcNetDevice::ClassReceiveCallback(
        [&got](Ptr<MrcNetDevice>, Ptr<Packet> p, uint16_t, uint8_t) {
            got.push_back(PeekPointer(p));
            p->RemoveAtStart(10);
        }));
    auto frame = [](uint32_t id) {
        Ptr<Packet> f = Data(1000, id);
        EthernetHeader eth;
        eth.SetLengthType(TEST_ETHER_TYPE);
        f->AddHeader(eth);
        return f;
    };
    const Time txTime = NanoSeconds(500);
    // 1: the sender keeps its reference past the arrival (as a trace sink may): b gets a
    // copy, and its change leaves the sender's packet as it was.
    Ptr<Packet> kept = frame(1);
    // 2: the sender still holds the frame when it puts it on the wire (a switch forwarding
    // within the event that received it) but not at its arrival: b gets that very packet.
    const Packet* sent = nullptr;
    Simulator::Schedule(NanoSeconds(100), [&]() { l.ch->Transmit(l.a, kept, txTime); });
    Simulator::Schedule(NanoSeconds(2000), [&]() {
        Ptr<Packet> f = frame(2);
        Ptr<Packet> alsoHeld = f;
        sent = PeekPointer(f);
        l.ch->TransmitOn(l.ch->GetDirection(0), f, txTime, false);
    });
    Simulator::Run();
    ASSERT_EQ(got.size(), 2u);
    EXPECT_NE(got[0], PeekPointer(kept));
    EXPECT_EQ(kept->GetSize(), 1000u); // the Ethernet header included
    EXPECT_EQ(IdOf(kept, 14), 1u);
    EXPECT_EQ(kept->GetReferenceCount(), 1u);
    EXPECT_EQ(got[1], sent);
    Simulator::Destroy();
}

/// The deliveries on one direction, and events scheduled at each frame's arrival time just
/// before and just after its send, run with the given scheduler: ten frames back to back
/// (seven on the wire at once), twenty sent from one event, four lost at a link-down (one
/// delivery scheduled, three waiting for it) and a Delay made shorter while frames travel
/// (a frame then arrives before the frames ahead of it: each delivery gives the oldest).
std::vector<std::string>
WireLog(const std::string& scheduler, uint64_t& lost)
{
    ObjectFactory factory;
    factory.SetTypeId(scheduler);
    Simulator::SetScheduler(factory);
    MrcLinkHelper h = Helper("8Gbps", "3000ns");
    Link l(h);
    std::vector<std::string> log;
    auto note = [&log](const std::string& what) {
        log.push_back(std::to_string(Simulator::Now().GetNanoSeconds()) + " " + what);
    };
    l.b->SetClassReceiveCallback(MrcNetDevice::ClassReceiveCallback(
        [&note](Ptr<MrcNetDevice>, Ptr<Packet> p, uint16_t, uint8_t) {
            note("frame " + std::to_string(IdOf(p, 0)));
        }));
    auto send = [&](uint32_t id, int64_t txNs) {
        const Time arrival = NanoSeconds(txNs) + l.ch->GetDelay();
        const std::string before = "before " + std::to_string(id);
        const std::string after = "after " + std::to_string(id);
        Simulator::Schedule(arrival, [note, before]() { note(before); });
        Ptr<Packet> f = Data(1000, id);
        EthernetHeader eth;
        eth.SetLengthType(TEST_ETHER_TYPE);
        f->AddHeader(eth);
        l.ch->TransmitOn(l.ch->GetDirection(0), f, NanoSeconds(txNs), true);
        Simulator::Schedule(arrival, [note, after]() { note(after); });
    };
    for (uint32_t k = 0; k < 10; ++k)
    {
        Simulator::Schedule(NanoSeconds(100 + 500 * k), [=]() { send(1 + k, 500); });
    }
    Simulator::Schedule(NanoSeconds(20000), [=]() {
        for (uint32_t k = 0; k < 20; ++k)
        {
            send(100 + k, 100 * (k + 1)); // one event, arrivals 100 ns apart
        }
    });
    for (uint32_t k = 0; k < 4; ++k)
    {
        Simulator::Schedule(NanoSeconds(40000 + 500 * k), [=]() { send(200 + k, 500); });
    }
    Simulator::Schedule(NanoSeconds(42000), [&]() { l.ch->SetLinkUp(false); });
    Simulator::Schedule(NanoSeconds(42100), [&]() { l.ch->SetLinkUp(true); });
    Simulator::Schedule(NanoSeconds(42200), [=]() { send(204, 500); });
    Simulator::Schedule(NanoSeconds(42700), [=]() { send(205, 500); });
    for (uint32_t k = 0; k < 3; ++k)
    {
        Simulator::Schedule(NanoSeconds(60000 + 500 * k), [=]() { send(300 + k, 500); });
    }
    Simulator::Schedule(NanoSeconds(61200),
                        [&]() { l.ch->SetAttribute("Delay", StringValue("1000ns")); });
    Simulator::Schedule(NanoSeconds(61500), [=]() { send(303, 500); });
    Simulator::Schedule(NanoSeconds(62000), [=]() { send(304, 500); });
    Simulator::Run();
    lost = l.ch->GetLostPackets();
    Simulator::Destroy();
    return log;
}

TEST(MrcLink, OnePendingDeliveryPerDirectionKeepsTheOrderOfOnePerFrame)
{
    // MapScheduler has no slots: every frame's delivery is scheduled at its send. With
    // MrcHeapScheduler a frame behind another waits with a slot: the same log.
    uint64_t lostMap = 0;
    uint64_t lostHeap = 0;
    const std::vector<std::string> map = WireLog("ns3::MapScheduler", lostMap);
    const std::vector<std::string> heap = WireLog("ns3::MrcHeapScheduler", lostHeap);
    EXPECT_EQ(heap, map);
    EXPECT_EQ(lostMap, 4u);
    EXPECT_EQ(lostHeap, 4u);
    // frames 1-10 arrive 500 + 3000 ns after their sends, between their two events
    ASSERT_GE(heap.size(), 30u);
    for (uint32_t k = 0; k < 10; ++k)
    {
        const std::string at = std::to_string(100 + 500 * k + 3500) + " ";
        EXPECT_EQ(heap[3 * k], at + "before " + std::to_string(1 + k));
        EXPECT_EQ(heap[3 * k + 1], at + "frame " + std::to_string(1 + k));
        EXPECT_EQ(heap[3 * k + 2], at + "after " + std::to_string(1 + k));
    }
    auto count = [&heap](const std::string& what) {
        return std::count_if(heap.begin(), heap.end(), [&](const std::string& e) {
            return e.find(what) != std::string::npos;
        });
    };
    EXPECT_EQ(count(" frame "), 10 + 20 + 2 + 5); // 200-203 lost at the link-down
    EXPECT_EQ(count("25000 frame 119"), 1);       // the last of the burst: 20000 + 2000 + 3000
    EXPECT_EQ(count("45700 frame 204"), 1);       // after the stale delivery of 200 (43500)
    // the shorter Delay: events at 63000 (303's), 63500 (300's, then 304's), 64000, 64500
    // each deliver the oldest frame
    std::vector<std::string> frames;
    for (const std::string& e : heap)
    {
        if (e.find(" frame 30") != std::string::npos)
        {
            frames.push_back(e);
        }
    }
    EXPECT_EQ(frames,
              (std::vector<std::string>{"63000 frame 300",
                                        "63500 frame 301",
                                        "63500 frame 302",
                                        "64000 frame 303",
                                        "64500 frame 304"}));
}

TEST(MrcLink, StandardCallbacksGetThePacketWithoutEthernetHeader)
{
    MrcLinkHelper h = Helper("8Gbps", "1000ns");
    Link l(h);
    l.b->SetClassReceiveCallback(MrcNetDevice::ClassReceiveCallback());
    EXPECT_EQ(l.a->GetPeer(), l.b);
    EXPECT_EQ(l.b->GetPeer(), l.a);
    EXPECT_EQ(l.ch->GetNDevices(), 2u);
    EXPECT_EQ(l.ch->GetDevice(1), l.b);
    EXPECT_NE(l.a->GetMacAddress(), l.b->GetMacAddress());
    std::vector<uint32_t> sizes;
    Address from;
    uint16_t protocol = 0;
    l.b->SetReceiveCallback(NetDevice::ReceiveCallback(
        [&](Ptr<NetDevice>, Ptr<const Packet> p, uint16_t proto, const Address& src) {
            sizes.push_back(p->GetSize());
            protocol = proto;
            from = src;
            return true;
        }));
    uint32_t promisc = 0;
    NetDevice::PacketType kind = NetDevice::PACKET_OTHERHOST;
    l.b->SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback([&](Ptr<NetDevice>,
                                                                         Ptr<const Packet>,
                                                                         uint16_t,
                                                                         const Address&,
                                                                         const Address&,
                                                                         NetDevice::PacketType t) {
        ++promisc;
        kind = t;
        return true;
    }));
    Simulator::Schedule(NanoSeconds(0), [&]() {
        l.a->Send(Ipv6Packet(46, 200), l.b->GetAddress(), 0x86DD);
        l.a->SendToClass(Ipv6Packet(4, 300), 0x86DD, 1); // to the peer's MAC
    });
    Simulator::Run();
    EXPECT_EQ(sizes, (std::vector<uint32_t>{200, 300}));
    EXPECT_EQ(protocol, 0x86DD);
    EXPECT_EQ(Mac48Address::ConvertFrom(from), l.a->GetMacAddress());
    EXPECT_EQ(promisc, 2u);
    EXPECT_EQ(kind, NetDevice::PACKET_HOST);
    Simulator::Destroy();
}

/// A port owner that keeps what the device hands it on receive.
class HeadRecorder : public MrcPortOwner
{
  public:
    struct Got
    {
        std::vector<uint8_t> head;   ///< the bytes the device read (MrcRxHead)
        std::vector<uint8_t> packet; ///< the packet's own first bytes, read here
        uint32_t size;               ///< the packet's size
        uint16_t type;               ///< EtherType
        uint32_t port;               ///< port number
    };

    std::vector<Got> got; ///< one entry per packet, in arrival order

    void PortReceive(uint32_t port,
                     const Ptr<Packet>& packet,
                     uint16_t etherType,
                     uint8_t /* cls */,
                     const MrcRxHead& head) override
    {
        Got g;
        g.head.assign(head.bytes, head.bytes + head.count);
        g.packet.resize(std::min<uint32_t>(packet->GetSize(), 400));
        packet->CopyData(g.packet.data(), g.packet.size());
        g.size = packet->GetSize();
        g.type = etherType;
        g.port = port;
        got.push_back(g);
    }

    void PortDequeued(uint32_t, const Ptr<Packet>&, uint8_t, uint64_t, uint8_t&) override
    {
    }
};

TEST(MrcLink, PortOwnerGetsThePacketsFirstBytesAsReadWithTheEthernetHeader)
{
    MrcLinkHelper h = Helper("8Gbps", "1000ns");
    Link l(h);
    HeadRecorder owner;
    l.b->SetPortOwner(&owner, 7);
    Simulator::Schedule(NanoSeconds(0), [&]() {
        l.a->SendToClass(Ipv6Packet(4, 300), 0x86DD, 1);                 // longer than the head
        l.a->SendToClass(Data(14 + 10, 0x01020304), TEST_ETHER_TYPE, 1); // shorter
        l.a->SendToClass(Ipv6Packet(4, 14 + MrcNetDevice::RX_HEAD_BYTES), 0x86DD, 1);
    });
    Simulator::Run();
    l.b->SetPortOwner(nullptr, 0);
    ASSERT_EQ(owner.got.size(), 3u);
    const std::vector<uint32_t> sizes = {300, 10, 14 + MrcNetDevice::RX_HEAD_BYTES};
    for (std::size_t i = 0; i < owner.got.size(); ++i)
    {
        const HeadRecorder::Got& g = owner.got[i];
        EXPECT_EQ(g.size, sizes[i]) << "packet " << i;
        EXPECT_EQ(g.port, 7u);
        // min(size, RX_HEAD_BYTES) bytes, the packet's own (after the Ethernet header)
        ASSERT_EQ(g.head.size(), std::min(g.size, MrcNetDevice::RX_HEAD_BYTES)) << "packet " << i;
        EXPECT_TRUE(std::equal(g.head.begin(), g.head.end(), g.packet.begin())) << "packet " << i;
    }
    EXPECT_EQ(owner.got[0].type, 0x86DD);
    EXPECT_EQ(owner.got[1].type, TEST_ETHER_TYPE);
    EXPECT_EQ(owner.got[1].head[0], 0x01);
    EXPECT_EQ(owner.got[1].head[3], 0x04);
    Simulator::Destroy();
}

/// A port owner that keeps each packet's arrival time, size and first bytes.
class ArrivalRecorder : public MrcPortOwner
{
  public:
    std::vector<int64_t> ns;              ///< arrival times
    std::vector<uint32_t> sizes;          ///< packet sizes (no Ethernet header)
    std::vector<std::vector<uint8_t>> ip; ///< each packet's first 40 bytes

    void PortReceive(uint32_t,
                     const Ptr<Packet>& packet,
                     uint16_t etherType,
                     uint8_t,
                     const MrcRxHead& head) override
    {
        EXPECT_EQ(etherType, 0x86DD);
        ns.push_back(Simulator::Now().GetNanoSeconds());
        sizes.push_back(packet->GetSize());
        ip.emplace_back(head.bytes, head.bytes + std::min<uint32_t>(head.count, 40));
    }

    void PortDequeued(uint32_t, const Ptr<Packet>&, uint8_t, uint64_t, uint8_t&) override
    {
    }
};

/// The frames one run of UnwrittenHeaders sees: bytes by a trace, and counts.
struct UnwrittenRun
{
    std::vector<std::vector<uint8_t>> traced; ///< frames a trace saw (with header)
    std::vector<int64_t> arrivals;            ///< arrival times at b's owner
    std::vector<uint32_t> sizes;              ///< packet sizes at b's owner
    uint32_t queuedAt1ns;                     ///< a's class-1 queue bytes at 1 ns
    uint64_t txBytes;                         ///< a's class-1 sent bytes
    uint64_t rxBytes;                         ///< b's received bytes, all classes
    uint64_t lostBytes;                       ///< bytes lost on the wire from a
    uint64_t linkDownBytes;                   ///< a's LINK_DOWN drop bytes
    std::vector<uint32_t> droppedSizes;       ///< sizes a's Drop trace saw
    Mac48Address macA;                        ///< a's address
    Mac48Address macB;                        ///< b's address
};

/// Three IPv6 packets from a (two by SendToClass, one by SendToClassReplacing with a new
/// 40-byte IPv6 header), then, if linkDown, a fourth lost on the wire and a fifth queued
/// when the link goes down. trace: "" (no trace: headers stay unwritten on the way), "a"
/// (a's PhyTxBegin: a writes them) or "b" (b's Sniffer: b writes them at arrival).
UnwrittenRun
RunUnwritten(const std::string& trace, bool linkDown)
{
    UnwrittenRun r;
    MrcLinkHelper h = Helper("8Gbps", "1000ns"); // 1 ns a byte, 24 bytes of wire overhead
    NodeContainer n(2);
    NetDeviceContainer d = h.Install(n.Get(0), n.Get(1));
    Ptr<MrcNetDevice> a = DynamicCast<MrcNetDevice>(d.Get(0));
    Ptr<MrcNetDevice> b = DynamicCast<MrcNetDevice>(d.Get(1));
    r.macA = a->GetMacAddress();
    r.macB = b->GetMacAddress();
    ArrivalRecorder owner;
    b->SetPortOwner(&owner, 0);
    auto keep = Callback<void, Ptr<const Packet>>([&r](Ptr<const Packet> p) {
        std::vector<uint8_t> bytes(p->GetSize());
        p->CopyData(bytes.data(), bytes.size());
        r.traced.push_back(bytes);
    });
    if (trace == "a")
    {
        a->TraceConnectWithoutContext("PhyTxBegin", keep);
    }
    else if (trace == "b")
    {
        b->TraceConnectWithoutContext("Sniffer", keep);
    }
    a->TraceConnectWithoutContext(
        "Drop",
        Callback<void, Ptr<const Packet>, MrcDropReason>(
            [&r](Ptr<const Packet> p, MrcDropReason) { r.droppedSizes.push_back(p->GetSize()); }));
    Simulator::Schedule(NanoSeconds(0), [&]() {
        EXPECT_TRUE(a->SendToClass(Ipv6Packet(4, 300), 0x86DD, 1));
        EXPECT_TRUE(a->SendToClass(Ipv6Packet(4, 1000), 0x86DD, 1));
        Ptr<Packet> p = Ipv6Packet(4, 500);
        uint8_t ip[40];
        p->CopyData(ip, 40);
        ip[39] = 0x77; // the last byte of the destination address
        EXPECT_TRUE(a->SendToClassReplacing(p, 0x86DD, 1, ip, 40));
    });
    Simulator::Schedule(NanoSeconds(1), [&]() { r.queuedAt1ns = a->GetQueueBytes(1); });
    if (linkDown)
    {
        // the three have arrived by 2914 ns; at 5100 the fourth is on the wire and the
        // fifth, sent behind it, waits in the queue until a notices the link down (5200)
        a->SetAttribute("LinkDownDetectDelay", StringValue("100ns"));
        Simulator::Schedule(NanoSeconds(5000), [&]() {
            EXPECT_TRUE(a->SendToClass(Ipv6Packet(4, 700), 0x86DD, 1));
            EXPECT_TRUE(a->SendToClass(Ipv6Packet(4, 800), 0x86DD, 1));
        });
        Simulator::Schedule(NanoSeconds(5100), [&]() { a->GetMrcChannel()->SetLinkUp(false); });
    }
    Simulator::Run();
    b->SetPortOwner(nullptr, 0);
    r.arrivals = owner.ns;
    r.sizes = owner.sizes;
    EXPECT_EQ(owner.ip.size(), 3u);
    if (owner.ip.size() == 3u)
    {
        EXPECT_EQ(owner.ip[2][39], 0x77); // the replaced bytes arrived
        EXPECT_EQ(owner.ip[2][0] >> 4, 6);
    }
    r.txBytes = a->GetTxBytes(1);
    r.rxBytes = 0;
    for (uint8_t c = 0; c < 8; ++c)
    {
        r.rxBytes += b->GetRxBytes(c);
    }
    r.lostBytes = a->GetMrcChannel()->GetLostBytes(0);
    r.linkDownBytes = a->GetDropBytes(MrcDropReason::LINK_DOWN);
    Simulator::Destroy();
    return r;
}

TEST(MrcLink, UnwrittenHeadersCountEverywhereAndAreWrittenWhereSeen)
{
    // Untraced: the frames travel without their Ethernet header; every count has it.
    const UnwrittenRun bare = RunUnwritten("", false);
    EXPECT_EQ(bare.sizes, (std::vector<uint32_t>{300, 1000, 500}));
    // each frame: packet + 14 + 24 ns, then 1000 ns on the wire
    EXPECT_EQ(bare.arrivals, (std::vector<int64_t>{338 + 1000, 1376 + 1000, 1914 + 1000}));
    EXPECT_EQ(bare.queuedAt1ns, (1000u + 14) + (500 + 14)); // the first one is on the wire
    EXPECT_EQ(bare.txBytes, 300u + 1000 + 500 + 3 * 14);
    EXPECT_EQ(bare.rxBytes, 300u + 1000 + 500 + 3 * 14);
    EXPECT_TRUE(bare.traced.empty());

    // Traced at either end: the same frames, byte for byte, the same times and counts.
    const UnwrittenRun atA = RunUnwritten("a", false);
    const UnwrittenRun atB = RunUnwritten("b", false);
    ASSERT_EQ(atA.traced.size(), 3u);
    EXPECT_EQ(atA.traced, atB.traced);
    const std::vector<uint32_t> sizes = {300, 1000, 500};
    for (std::size_t i = 0; i < atA.traced.size(); ++i)
    {
        const std::vector<uint8_t>& f = atA.traced[i];
        ASSERT_EQ(f.size(), sizes[i] + 14) << "frame " << i;
        uint8_t dst[6];
        uint8_t src[6];
        atA.macB.CopyTo(dst);
        atA.macA.CopyTo(src);
        EXPECT_TRUE(std::equal(dst, dst + 6, f.begin())) << "frame " << i;
        EXPECT_TRUE(std::equal(src, src + 6, f.begin() + 6)) << "frame " << i;
        EXPECT_EQ((f[12] << 8) | f[13], 0x86DD) << "frame " << i;
    }
    for (const UnwrittenRun* run : {&atA, &atB})
    {
        EXPECT_EQ(run->arrivals, bare.arrivals);
        EXPECT_EQ(run->queuedAt1ns, bare.queuedAt1ns);
        EXPECT_EQ(run->txBytes, bare.txBytes);
        EXPECT_EQ(run->rxBytes, bare.rxBytes);
    }

    // Lost on the wire and flushed from the queue at a link-down: counted with the header,
    // and the Drop trace sees it.
    for (const std::string& trace : {std::string(), std::string("a")})
    {
        const UnwrittenRun down = RunUnwritten(trace, true);
        EXPECT_EQ(down.arrivals, bare.arrivals) << "trace '" << trace << "'";
        EXPECT_EQ(down.lostBytes, 700u + 14) << "trace '" << trace << "'";
        EXPECT_EQ(down.linkDownBytes, (700u + 14) + (800 + 14)) << "trace '" << trace << "'";
        EXPECT_EQ(down.droppedSizes, (std::vector<uint32_t>{700 + 14, 800 + 14}))
            << "trace '" << trace << "'";
    }
}

/// A port owner that keeps what each arrival's head says of the destination and ECN,
/// and what the packet's own bytes say.
class EditRecorder : public MrcPortOwner
{
  public:
    std::vector<Ipv6Address> headDst;   ///< destination in the head bytes
    std::vector<Ipv6Address> packetDst; ///< destination in the packet's bytes
    std::vector<uint32_t> headEcn;      ///< ECN field in the head bytes
    std::vector<uint32_t> packetEcn;    ///< ECN field in the packet's bytes
    std::vector<uint32_t> edits;        ///< MrcRxHead::edits
    std::vector<uint32_t> sizes;        ///< packet sizes

    void PortReceive(uint32_t,
                     const Ptr<Packet>& packet,
                     uint16_t,
                     uint8_t,
                     const MrcRxHead& head) override
    {
        EXPECT_GE(head.count, 40u);
        headDst.push_back(Ipv6Address(const_cast<uint8_t*>(head.bytes + 24)));
        uint8_t ip[40];
        packet->CopyData(ip, 40);
        packetDst.push_back(Ipv6Address(ip + 24));
        headEcn.push_back((head.bytes[1] >> 4) & 3);
        packetEcn.push_back((ip[1] >> 4) & 3);
        edits.push_back(head.edits);
        sizes.push_back(packet->GetSize());
    }

    void PortDequeued(uint32_t, const Ptr<Packet>&, uint8_t, uint64_t, uint8_t&) override
    {
    }
};

/// An IPv6 packet of `size` bytes whose destination is fcbb:bb00:1:2:3:4:5:6 (six uSIDs).
Ptr<Packet>
CarrierPacket(uint32_t size)
{
    return Ipv6Packet(4, size, Ipv6Address("fcbb:bb00:1:2:3:4:5:6"));
}

/// The destination of an IPv6 frame's bytes (Ethernet header first), and its ECN field.
std::pair<Ipv6Address, uint32_t>
FrameDst(Ptr<const Packet> f)
{
    uint8_t b[54];
    EXPECT_EQ(f->CopyData(b, 54), 54u);
    return {Ipv6Address(b + 14 + 24), (b[15] >> 4) & 3u};
}

TEST(MrcLink, CarriedEditsReachTheHeadAndAreWrittenWhereSeen)
{
    // A switch's edits of the IPv6 header (uN shifts of the destination, a CE mark) travel
    // beside an untraced frame: the receiving owner's head has them (and says which the
    // packet lacks), the packet's bytes do not, and no size changes. A trace at either
    // end, the Drop trace and the Lost trace see the frame as if the edits had been written
    // at the send.
    const Ipv6Address orig("fcbb:bb00:1:2:3:4:5:6");
    const Ipv6Address two("fcbb:bb00:3:4:5:6::");
    const Ipv6Address one("fcbb:bb00:2:3:4:5:6:0");
    const uint32_t ect0 = 2;
    const uint32_t ce = 3;
    using Seen = std::pair<Ipv6Address, uint32_t>;
    for (const std::string trace : {"", "a", "b"})
    {
        MrcLinkHelper h = Helper("8Gbps", "1000ns");
        NodeContainer n(2);
        NetDeviceContainer d = h.Install(n.Get(0), n.Get(1));
        Ptr<MrcNetDevice> a = DynamicCast<MrcNetDevice>(d.Get(0));
        Ptr<MrcNetDevice> b = DynamicCast<MrcNetDevice>(d.Get(1));
        a->SetAttribute("LinkDownDetectDelay", StringValue("100ns"));
        EditRecorder owner;
        b->SetPortOwner(&owner, 0);
        std::vector<Seen> traced;
        std::vector<Seen> dropped;
        std::vector<Seen> lost;
        auto keep = Callback<void, Ptr<const Packet>>(
            [&traced](Ptr<const Packet> p) { traced.push_back(FrameDst(p)); });
        if (trace == "a")
        {
            a->TraceConnectWithoutContext("PhyTxBegin", keep);
        }
        else if (trace == "b")
        {
            b->TraceConnectWithoutContext("Sniffer", keep);
        }
        a->TraceConnectWithoutContext("Drop",
                                      Callback<void, Ptr<const Packet>, MrcDropReason>(
                                          [&dropped](Ptr<const Packet> p, MrcDropReason) {
                                              dropped.push_back(FrameDst(p));
                                          }));
        a->GetMrcChannel()->TraceConnectWithoutContext(
            "Lost",
            Callback<void, Ptr<const Packet>>(
                [&lost](Ptr<const Packet> p) { lost.push_back(FrameDst(p)); }));
        Simulator::Schedule(NanoSeconds(0), [&]() {
            EXPECT_TRUE(a->SendToClass(CarrierPacket(300), 0x86DD, 1, 0, 2));
            EXPECT_TRUE(a->SendToClass(CarrierPacket(500), 0x86DD, 1, 0, 1 | MRC_IPV6_EDIT_CE));
            EXPECT_TRUE(a->SendToClass(CarrierPacket(400), 0x86DD, 1, 0, 0));
        });
        // the three have arrived by 2,314 ns; at 5100 the fourth is on the wire and the
        // fifth waits in the queue until a notices the link down (5200)
        Simulator::Schedule(NanoSeconds(5000), [&]() {
            EXPECT_TRUE(a->SendToClass(CarrierPacket(700), 0x86DD, 1, 0, 1 | MRC_IPV6_EDIT_CE));
            EXPECT_TRUE(a->SendToClass(CarrierPacket(800), 0x86DD, 1, 0, 2));
        });
        Simulator::Schedule(NanoSeconds(5100), [&]() { a->GetMrcChannel()->SetLinkUp(false); });
        Simulator::Run();
        b->SetPortOwner(nullptr, 0);
        const std::string at = "trace '" + trace + "'";
        EXPECT_EQ(owner.headDst, (std::vector<Ipv6Address>{two, one, orig})) << at;
        EXPECT_EQ(owner.headEcn, (std::vector<uint32_t>{ect0, ce, ect0})) << at;
        EXPECT_EQ(owner.sizes, (std::vector<uint32_t>{300, 500, 400})) << at;
        if (trace.empty())
        {
            EXPECT_EQ(owner.packetDst, (std::vector<Ipv6Address>{orig, orig, orig})) << at;
            EXPECT_EQ(owner.packetEcn, (std::vector<uint32_t>{ect0, ect0, ect0})) << at;
            EXPECT_EQ(owner.edits, (std::vector<uint32_t>{2, 9, 0})) << at;
            EXPECT_TRUE(traced.empty()) << at;
        }
        else
        {
            // written at the traced end: the owner's packet has them, and lacks nothing
            EXPECT_EQ(owner.packetDst, owner.headDst) << at;
            EXPECT_EQ(owner.packetEcn, owner.headEcn) << at;
            EXPECT_EQ(owner.edits, (std::vector<uint32_t>{0, 0, 0})) << at;
            EXPECT_EQ(traced,
                      trace == "a"
                          ? (std::vector<Seen>{{two, ect0}, {one, ce}, {orig, ect0}, {one, ce}})
                          : (std::vector<Seen>{{two, ect0}, {one, ce}, {orig, ect0}}))
                << at;
        }
        // one frame on the wire when the link went down, one in the queue
        EXPECT_EQ(lost, (std::vector<Seen>{{one, ce}})) << at;
        EXPECT_EQ(dropped, (std::vector<Seen>{{one, ce}, {two, ect0}})) << at;
        EXPECT_EQ(a->GetTxBytes(1), 300u + 500 + 400 + 700 + 4 * 14) << at;
        Simulator::Destroy();
    }
}

/// What a receiver with a receive error model saw of 16 frames (LossRun).
struct LossSeen
{
    std::vector<uint32_t> arrived;     ///< sizes of the packets its owner received
    std::vector<uint32_t> edits;       ///< their MrcRxHead::edits
    std::vector<Ipv6Address> headDst;  ///< their destinations in the head bytes
    std::vector<Ipv6Address> bytesDst; ///< their destinations in the packets' bytes
    std::vector<uint32_t> dropped;     ///< sizes of the frames the PhyRxDrop trace saw
    std::vector<Ipv6Address> dropDst;  ///< their destinations (Ethernet header first)
    std::vector<uint32_t> dropType;    ///< their EtherType
};

/**
 * Send 16 IPv6 frames of 300, 310, ... bytes from a to b, the even ones with a uN shift of
 * 2 carried beside them, b's ReceiveErrorModel set to `model`.
 */
LossSeen
LossRun(Ptr<ErrorModel> model)
{
    MrcLinkHelper h = Helper("8Gbps", "1000ns");
    NodeContainer n(2);
    NetDeviceContainer d = h.Install(n.Get(0), n.Get(1));
    Ptr<MrcNetDevice> a = DynamicCast<MrcNetDevice>(d.Get(0));
    Ptr<MrcNetDevice> b = DynamicCast<MrcNetDevice>(d.Get(1));
    b->SetAttribute("ReceiveErrorModel", PointerValue(model));
    EditRecorder owner;
    b->SetPortOwner(&owner, 0);
    LossSeen seen;
    b->TraceConnectWithoutContext("PhyRxDrop",
                                  Callback<void, Ptr<const Packet>>([&seen](Ptr<const Packet> p) {
                                      seen.dropped.push_back(p->GetSize());
                                      seen.dropDst.push_back(FrameDst(p).first);
                                      uint8_t eth[14];
                                      p->CopyData(eth, 14);
                                      seen.dropType.push_back((eth[12] << 8) | eth[13]);
                                  }));
    Simulator::Schedule(NanoSeconds(0), [&]() {
        for (uint32_t i = 0; i < 16; ++i)
        {
            EXPECT_TRUE(a->SendToClass(CarrierPacket(300 + 10 * i), 0x86DD, 1, 0, i % 2 ? 0 : 2));
        }
    });
    Simulator::Run();
    b->SetPortOwner(nullptr, 0);
    seen.arrived = owner.sizes;
    seen.edits = owner.edits;
    seen.headDst = owner.headDst;
    seen.bytesDst = owner.packetDst;
    Simulator::Destroy();
    return seen;
}

TEST(MrcLink, ReceiveLossDrawsWithoutWritingWhatItNeedsNot)
{
    // An MrcIngressLossModel, and a RateErrorModel in packet units, decide a frame without
    // its bytes: a frame that passes reaches the owner as unwritten as it came (its carried
    // uN shift still beside it), a dropped one is written whole for the PhyRxDrop trace. A
    // RateErrorModel in byte units reads the frame's size: every frame is written first.
    const Ipv6Address orig("fcbb:bb00:1:2:3:4:5:6");
    const Ipv6Address two("fcbb:bb00:3:4:5:6::");
    auto ingress = [](double rate) {
        Ptr<MrcIngressLossModel> m = CreateObject<MrcIngressLossModel>();
        m->SetRate(rate);
        m->AssignStreams(7);
        return m;
    };
    auto rateModel = [](RateErrorModel::ErrorUnit unit) {
        Ptr<RateErrorModel> m = CreateObject<RateErrorModel>();
        m->SetUnit(unit);
        m->SetRate(unit == RateErrorModel::ERROR_UNIT_PACKET ? 0.5 : 0.5 / 8000);
        m->AssignStreams(7);
        return m;
    };
    Ptr<MrcIngressLossModel> in = ingress(0.5);
    const LossSeen byIngress = LossRun(in);
    EXPECT_EQ(in->GetDraws(), 16u);
    EXPECT_EQ(in->GetSkipped(), 0u);
    ASSERT_EQ(byIngress.arrived.size() + byIngress.dropped.size(), 16u);
    ASSERT_GE(byIngress.arrived.size(), 1u);
    ASSERT_GE(byIngress.dropped.size(), 1u);
    for (std::size_t i = 0; i < byIngress.arrived.size(); ++i)
    {
        const bool shifted = (byIngress.arrived[i] - 300) / 10 % 2 == 0;
        EXPECT_EQ(byIngress.edits[i], shifted ? 2u : 0u) << byIngress.arrived[i];
        EXPECT_EQ(byIngress.bytesDst[i], orig) << byIngress.arrived[i];
        EXPECT_EQ(byIngress.headDst[i], shifted ? two : orig) << byIngress.arrived[i];
    }
    for (std::size_t i = 0; i < byIngress.dropped.size(); ++i)
    {
        const uint32_t packet = byIngress.dropped[i] - 14; // seen with its Ethernet header
        ASSERT_EQ((packet - 300) % 10, 0u) << byIngress.dropped[i];
        EXPECT_EQ(byIngress.dropType[i], 0x86DDu) << byIngress.dropped[i];
        EXPECT_EQ(byIngress.dropDst[i], (packet - 300) / 10 % 2 == 0 ? two : orig) << packet;
    }

    // The same draws on the same stream: the same frames pass, as unwritten.
    const LossSeen byPacket = LossRun(rateModel(RateErrorModel::ERROR_UNIT_PACKET));
    EXPECT_EQ(byPacket.arrived, byIngress.arrived);
    EXPECT_EQ(byPacket.edits, byIngress.edits);
    EXPECT_EQ(byPacket.bytesDst, byIngress.bytesDst);
    EXPECT_EQ(byPacket.dropped, byIngress.dropped);
    EXPECT_EQ(byPacket.dropDst, byIngress.dropDst);

    // Byte units: written before the draw, so the owner's packets lack nothing.
    const LossSeen byByte = LossRun(rateModel(RateErrorModel::ERROR_UNIT_BYTE));
    ASSERT_GE(byByte.arrived.size(), 1u);
    EXPECT_EQ(byByte.edits, std::vector<uint32_t>(byByte.arrived.size(), 0));
    EXPECT_EQ(byByte.bytesDst, byByte.headDst);

    // A disabled MrcIngressLossModel draws for nothing and drops nothing, as RateErrorModel.
    Ptr<MrcIngressLossModel> off = ingress(1.0);
    off->Disable();
    const LossSeen none = LossRun(off);
    EXPECT_EQ(none.arrived.size(), 16u);
    EXPECT_TRUE(none.dropped.empty());
    EXPECT_EQ(off->GetDraws(), 0u);
}

TEST(MrcLinkDeathTest, EditsAreForIpv6AndFourBits)
{
    MrcLinkHelper h = Helper("8Gbps", "1000ns");
    NodeContainer n(2);
    NetDeviceContainer d = h.Install(n.Get(0), n.Get(1));
    Ptr<MrcNetDevice> a = DynamicCast<MrcNetDevice>(d.Get(0));
    EXPECT_DEATH(a->SendToClass(CarrierPacket(300), 0x86DD, 1, 0, 16),
                 "IPv6 edits 16 for a frame of EtherType 0x86dd; allowed 0..15, and only for IPv6");
    EXPECT_DEATH(a->SendToClass(CarrierPacket(300), 0x0800, 1, 0, 1),
                 "IPv6 edits 1 for a frame of EtherType 0x800; allowed 0..15");
    Simulator::Destroy();
}

TEST(MrcLink, PcapFileIsEthernetWithOneRecordPerFrame)
{
    const MrcTest::ScopedTempDir tmp("mrc-link-pcap");
    ASSERT_FALSE(tmp.Path().empty());
    const std::string fileA = tmp.Path() + "/a.pcap";
    const std::string fileB = tmp.Path() + "/b.pcap";
    {
        MrcLinkHelper h = Helper("8Gbps", "1000ns");
        Link l(h);
        h.EnablePcap(fileA, l.a, false, true);
        h.EnablePcap(fileB, l.b, true, true);
        for (uint32_t id = 1; id <= 3; ++id)
        {
            Link::SendAt(0, l.a, 1000, id, 0);
        }
        Link::SendAt(0, l.b, 500, 4, 0);
        Link::SendAt(0, l.b, 500, 5, 0);
        Simulator::Schedule(NanoSeconds(10), [&]() { l.b->SendPause(3, 1); });
        Simulator::Run();
        Simulator::Destroy();
    }
    // a wrote 3 sent + 2 received + 1 PFC received; b 2 sent + 1 PFC sent + 3 received.
    for (const std::string& file : {fileA, fileB})
    {
        PcapFile pcap;
        pcap.Open(file, std::ios::in);
        ASSERT_FALSE(pcap.Fail()) << file;
        EXPECT_EQ(pcap.GetDataLinkType(), 1u) << file; // DLT_EN10MB
        uint32_t records = 0;
        uint32_t pfcRecords = 0;
        uint32_t bytes = 0;
        while (true)
        {
            uint8_t data[2000];
            uint32_t sec = 0;
            uint32_t usec = 0;
            uint32_t incl = 0;
            uint32_t orig = 0;
            uint32_t read = 0;
            pcap.Read(data, sizeof(data), sec, usec, incl, orig, read);
            if (pcap.Fail() || pcap.Eof())
            {
                break;
            }
            ++records;
            bytes += orig;
            if (data[12] == 0x88 && data[13] == 0x08)
            {
                ++pfcRecords;
                EXPECT_EQ(orig, 60u);
                const uint8_t dst[6] = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x01};
                EXPECT_TRUE(std::equal(dst, dst + 6, data));
                EXPECT_EQ(data[14], 0x01); // opcode 0x0101
                EXPECT_EQ(data[15], 0x01);
                EXPECT_EQ(data[17], 0x08); // class 3 enabled
            }
        }
        pcap.Close();
        EXPECT_EQ(records, 6u) << file;
        EXPECT_EQ(pfcRecords, 1u) << file;
        EXPECT_EQ(bytes, 3u * 1000 + 2 * 500 + 60) << file;
    }
}

TEST(MrcLinkDeathTest, BadConfigurationAborts)
{
    Ptr<MrcNetDevice> d = CreateObject<MrcNetDevice>();
    EXPECT_DEATH(d->SetDscpToClass("46:7,64:1"), "DSCP 64 is out of range: allowed 0..63");
    EXPECT_DEATH(d->SetDscpToClass("46:8"), "class 8 is out of range: allowed 0..7");
    EXPECT_DEATH(d->SetDscpToClass("46-7"), "is not dscp:class");
    EXPECT_DEATH(d->SetAttribute("DscpToClass", StringValue("3:9")), "class 9 is out of range");
    EXPECT_DEATH(d->SetAttribute("UnmappedDscpClass", UintegerValue(8)), "class 8 is out of range");
    EXPECT_DEATH(d->SetAttribute("NonIpClass", UintegerValue(9)), "class 9 is out of range");
    EXPECT_DEATH(d->SetAttribute("Scheduler", StringValue("Fifo")),
                 "Scheduler \"Fifo\" is unknown");
    EXPECT_DEATH(d->SetDwrrWeights("1,1,1"), "has 3 entries: exactly 8");
    EXPECT_DEATH(d->SetDwrrWeights("1,1,1,1,1,1,1,x"), "weight \"x\" of class 7");
    EXPECT_DEATH(d->ClassifyDscp(64), "DSCP 64 is out of range");
    EXPECT_DEATH(d->SendPause(8, 1), "class 8 is out of range");
    d->Dispose();
}

TEST(MrcLinkDeathTest, OversizedPacketAborts)
{
    MrcLinkHelper h = Helper("8Gbps", "1000ns");
    h.SetDeviceAttribute("Mtu", UintegerValue(1500));
    Link l(h);
    EXPECT_DEATH(l.a->SendToClass(Create<Packet>(1501), TEST_ETHER_TYPE, 0),
                 "a 1501-byte packet exceeds the Mtu of 1500 bytes");
    Simulator::Destroy();
}

TEST(MrcLink, LazyTxEndKeepsTheOrderOfAScheduledEnd)
{
    // An end of serialization with nothing waiting is not scheduled (LazyTxEnd, with
    // MrcHeapScheduler); frames queued at exactly its time must still go in the order a
    // scheduled end gives. At 8 Gb/s a 1000-byte frame takes 1024 ns.
    // A: frames 2 (class 1) and 3 (class 7) are queued at 1024 ns, the end of frame 1, by
    //    events scheduled before frame 1 started: they run before the end, which then
    //    takes the higher class first: 1, 3, 2.
    // B: frames 5 (class 1) and 6 (class 7) are queued at 6024 ns, the end of frame 4, by
    //    events scheduled after frame 4 started: the end runs first and frees the wire,
    //    so 5 starts at once and 6 waits: 4, 5, 6.
    // C: frame 8 long after frame 7's end starts at once.
    struct Result
    {
        std::vector<uint32_t> ids;
        std::vector<int64_t> times;
        std::vector<uint32_t> rx;
        uint64_t events;
    };

    auto runWith = [](const std::string& scheduler, bool lazy) {
        Simulator::Destroy();
        ObjectFactory f;
        f.SetTypeId(scheduler);
        Simulator::SetScheduler(f);
        MrcLinkHelper h = Helper("8Gbps", "1us");
        h.SetDeviceAttribute("LazyTxEnd", BooleanValue(lazy));
        Link l(h);
        Link::SendAt(1024, l.a, 1000, 2, 1);
        Link::SendAt(1024, l.a, 1000, 3, 7);
        Link::SendAt(0, l.a, 1000, 1, 1);
        Simulator::Schedule(NanoSeconds(5000), [&l]() {
            l.a->SendToClass(Data(1000, 4), TEST_ETHER_TYPE, 1);
            Link::SendAt(1024, l.a, 1000, 5, 1);
            Link::SendAt(1024, l.a, 1000, 6, 7);
        });
        Link::SendAt(10000, l.a, 1000, 7, 1);
        Link::SendAt(20000, l.a, 1000, 8, 1);
        Simulator::Run();
        Result r{Ids(l.txBeginA), Times(l.txBeginA), Ids(l.rxB), Simulator::GetEventCount()};
        Simulator::Destroy();
        return r;
    };
    const Result lazy = runWith("ns3::MrcHeapScheduler", true);
    const Result eager = runWith("ns3::MrcHeapScheduler", false);
    const Result map = runWith("ns3::MapScheduler", true); // no slots: always scheduled
    ObjectFactory f;
    f.SetTypeId("ns3::MapScheduler");
    Simulator::SetScheduler(f);
    Simulator::Destroy();

    const std::vector<uint32_t> ids{1, 3, 2, 4, 5, 6, 7, 8};
    const std::vector<int64_t> times{0, 1024, 2048, 5000, 6024, 7048, 10000, 20000};
    for (const Result* r : {&lazy, &eager, &map})
    {
        EXPECT_EQ(r->ids, ids);
        EXPECT_EQ(r->times, times);
        EXPECT_EQ(r->rx, ids);
    }
    // Ends not scheduled: those of frames 2, 4, 6, 7 and 8 (1 and 5 were asked for by
    // frames queued during their serialization, 3 had frame 2 waiting).
    EXPECT_EQ(eager.events, map.events);
    EXPECT_EQ(lazy.events + 5, eager.events);
}
