/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of MrcPfcPort on its own (no device, no channel): pause quanta to time at a
// given rate, the pause timer, resume, the pause-change callback, counters and the
// queue of PFC frames waiting for the wire.

#include "ns3/ethernet-header.h"
#include "ns3/mrc-pfc-frame.h"
#include "ns3/mrc-pfc-port.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/// A pause change seen by the owner callback or the PauseState trace.
using Change = std::tuple<int64_t, unsigned, bool>; // ns, class, paused

/// A port at the given rate that records its pause changes (callback and trace).
struct Recorded
{
    Ptr<MrcPfcPort> port;         ///< the port
    std::vector<Change> owner;    ///< pause-change callback calls
    std::vector<Change> trace;    ///< PauseState trace calls
    std::vector<Change> combined; ///< both, in order ("trace" entries have paused + 2)

    /// \param rate the port's rate
    explicit Recorded(const std::string& rate)
    {
        port = CreateObject<MrcPfcPort>();
        port->SetDataRate(DataRate(rate));
        port->SetPauseChangeCallback(
            MrcPfcPort::PauseChangeCallback([this](uint8_t cls, bool paused) {
                owner.emplace_back(Simulator::Now().GetNanoSeconds(), cls, paused);
                combined.emplace_back(Simulator::Now().GetNanoSeconds(), cls, paused);
            }));
        port->TraceConnectWithoutContext(
            "PauseState",
            Callback<void, uint8_t, bool>([this](uint8_t cls, bool paused) {
                trace.emplace_back(Simulator::Now().GetNanoSeconds(), cls, paused);
                combined.emplace_back(Simulator::Now().GetNanoSeconds(), cls + 100, paused);
            }));
    }
};

/// A PFC frame as received: MakeFrame's frame without its Ethernet header.
Ptr<Packet>
Received(uint8_t vector, const std::array<uint16_t, 8>& quanta)
{
    Ptr<Packet> frame = MrcPfcPort::MakeFrame(Mac48Address("00:00:00:00:00:01"), vector, quanta);
    EthernetHeader eth;
    frame->RemoveHeader(eth);
    return frame;
}

} // namespace

TEST(MrcPfcPort, PauseDurationIsQuantaTimes512BitTimesRoundedUp)
{
    Ptr<MrcPfcPort> port = CreateObject<MrcPfcPort>();
    // Default 100 Gb/s: a quantum is 5.12 ns; 0xffff quanta = 335539.2 ns -> 335540.
    EXPECT_EQ(port->GetDataRate(), DataRate("100Gbps"));
    EXPECT_EQ(port->GetPauseDuration(0), NanoSeconds(0));
    EXPECT_EQ(port->GetPauseDuration(1), NanoSeconds(6));
    EXPECT_EQ(port->GetPauseDuration(25), NanoSeconds(128));
    EXPECT_EQ(port->GetPauseDuration(0xffff), NanoSeconds(335540));
    // 8 Gb/s: 64 ns exactly.
    port->SetDataRate(DataRate("8Gbps"));
    EXPECT_EQ(port->GetPauseDuration(10), NanoSeconds(640));
    EXPECT_EQ(port->GetPauseDuration(0xffff), NanoSeconds(0xffffll * 64));
    // 25 Gb/s: 20.48 ns; 3 quanta = 61.44 ns -> 62.
    port->SetDataRate(DataRate("25Gbps"));
    EXPECT_EQ(port->GetPauseDuration(3), NanoSeconds(62));
    EXPECT_EQ(port->GetPauseDuration(100), NanoSeconds(2048));
    // 400 Gb/s: 1.28 ns -> 2; 0xffff quanta = 83884.8 ns -> 83885.
    port->SetDataRate(DataRate("400Gbps"));
    EXPECT_EQ(port->GetPauseDuration(1), NanoSeconds(2));
    EXPECT_EQ(port->GetPauseDuration(0xffff), NanoSeconds(83885));
}

TEST(MrcPfcPort, PauseExpiresAfterItsDurationAndIsTimed)
{
    Recorded r("8Gbps");
    Simulator::Schedule(NanoSeconds(100), [&]() { r.port->ApplyPause(3, 10); }); // 100..740
    Simulator::Schedule(NanoSeconds(739), [&]() {
        EXPECT_TRUE(r.port->IsPaused(3));
        EXPECT_FALSE(r.port->IsPaused(2));
        EXPECT_EQ(r.port->GetPausedMask(), 0x08);
        EXPECT_EQ(r.port->GetPausedTime(3), NanoSeconds(639));
    });
    Simulator::Schedule(NanoSeconds(741), [&]() { EXPECT_FALSE(r.port->IsPaused(3)); });
    Simulator::Run();
    EXPECT_EQ(r.owner, (std::vector<Change>{{100, 3, true}, {740, 3, false}}));
    EXPECT_EQ(r.trace, r.owner);
    // The trace fires first, then the owner hears of it.
    EXPECT_EQ(r.combined,
              (std::vector<Change>{{100, 103, true},
                                   {100, 3, true},
                                   {740, 103, false},
                                   {740, 3, false}}));
    EXPECT_EQ(r.port->GetPausedTime(3), NanoSeconds(640));
    EXPECT_EQ(r.port->GetPausedTime(2), NanoSeconds(0));
    EXPECT_EQ(r.port->GetPausedMask(), 0);
    Simulator::Destroy();
}

TEST(MrcPfcPort, ANewPauseRestartsTheTimer)
{
    Recorded r("8Gbps");
    Simulator::Schedule(NanoSeconds(0), [&]() { r.port->ApplyPause(5, 10); });   // until 640
    Simulator::Schedule(NanoSeconds(300), [&]() { r.port->ApplyPause(5, 20); }); // until 1580
    Simulator::Schedule(NanoSeconds(1000), [&]() { r.port->ApplyPause(5, 1); }); // until 1064
    Simulator::Run();
    // One pause from 0 to 1064: a refresh is not a new pause.
    EXPECT_EQ(r.owner, (std::vector<Change>{{0, 5, true}, {1064, 5, false}}));
    EXPECT_EQ(r.port->GetPausedTime(5), NanoSeconds(1064));
    Simulator::Destroy();
}

TEST(MrcPfcPort, ZeroQuantaResumesAtOnce)
{
    Recorded r("8Gbps");
    Simulator::Schedule(NanoSeconds(0), [&]() { r.port->ApplyPause(1, 0); }); // not paused: no-op
    Simulator::Schedule(NanoSeconds(10), [&]() { r.port->ApplyPause(1, 1000); });
    Simulator::Schedule(NanoSeconds(310), [&]() { r.port->ApplyPause(1, 0); });
    Simulator::Schedule(NanoSeconds(400), [&]() { r.port->ApplyPause(1, 0); }); // no-op again
    Simulator::Run();
    // The expiry due at 64010 ns was cancelled: no further change.
    EXPECT_EQ(r.owner, (std::vector<Change>{{10, 1, true}, {310, 1, false}}));
    EXPECT_EQ(r.port->GetPausedTime(1), NanoSeconds(300));
    Simulator::Destroy();
}

TEST(MrcPfcPort, ReceivedFramesPauseTheirEnabledClassesAndAreCounted)
{
    Recorded r("8Gbps");
    std::vector<std::pair<unsigned, uint16_t>> rx;
    r.port->TraceConnectWithoutContext(
        "PfcRx",
        Callback<void, uint8_t, uint16_t>([&](uint8_t c, uint16_t q) { rx.emplace_back(c, q); }));
    // Classes 1 and 3 enabled; class 2's quanta field is set but not enabled.
    std::array<uint16_t, 8> quanta{};
    quanta[1] = 10;
    quanta[2] = 99;
    quanta[3] = 20;
    Simulator::Schedule(NanoSeconds(0), [&]() { r.port->Receive(Received(0b1010, quanta)); });
    // Another MAC Control opcode (PAUSE, 0x0001) is counted and ignored.
    Simulator::Schedule(NanoSeconds(5), [&]() {
        MrcPfcFrame other;
        other.SetOpcode(0x0001);
        other.SetPause(4, 100);
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(other);
        r.port->Receive(p);
    });
    Simulator::Schedule(NanoSeconds(1), [&]() { EXPECT_EQ(r.port->GetPausedMask(), 0b1010); });
    Simulator::Run();
    EXPECT_EQ(rx, (std::vector<std::pair<unsigned, uint16_t>>{{1, 10}, {3, 20}}));
    EXPECT_EQ(r.owner,
              (std::vector<Change>{{0, 1, true}, {0, 3, true}, {640, 1, false}, {1280, 3, false}}));
    EXPECT_EQ(r.port->GetRxFrames(), 2u);
    EXPECT_EQ(r.port->GetTxFrames(), 0u);
    EXPECT_EQ(r.port->GetPausedTime(4), NanoSeconds(0));
    Simulator::Destroy();
}

TEST(MrcPfcPort, FramesWaitInOrderAndCountWhenSent)
{
    Ptr<MrcPfcPort> port = CreateObject<MrcPfcPort>();
    std::vector<std::pair<unsigned, uint16_t>> tx;
    port->TraceConnectWithoutContext(
        "PfcTx",
        Callback<void, uint8_t, uint16_t>([&](uint8_t c, uint16_t q) { tx.emplace_back(c, q); }));
    const Mac48Address src("00:00:00:00:00:07");
    std::array<uint16_t, 8> pause{};
    pause[2] = 300;
    pause[6] = 7;
    const std::array<uint16_t, 8> resume{};
    Ptr<Packet> first = MrcPfcPort::MakeFrame(src, 0b01000100, pause);
    Ptr<Packet> second = MrcPfcPort::MakeFrame(src, 0b00000100, resume);
    Ptr<Packet> third = MrcPfcPort::MakeFrame(src, 0b10000000, resume);
    // 14-byte Ethernet header + 46-byte body: a minimum-size frame, to the PFC address.
    EXPECT_EQ(first->GetSize(), 60u);
    EthernetHeader eth;
    first->PeekHeader(eth);
    EXPECT_EQ(eth.GetLengthType(), MrcPfcFrame::ETHER_TYPE);
    EXPECT_EQ(eth.GetSource(), src);
    EXPECT_EQ(eth.GetDestination(), MrcPfcFrame::GetDestination());
    EXPECT_FALSE(port->HasPending());
    EXPECT_FALSE(port->DequeueFrame());
    port->EnqueueFrame(first, 0b01000100, pause);
    port->EnqueueFrame(second, 0b00000100, resume);
    port->EnqueueFrame(third, 0b10000000, resume);
    EXPECT_TRUE(port->HasPending());
    EXPECT_EQ(port->DequeueFrame(), first);
    EXPECT_EQ(tx, (std::vector<std::pair<unsigned, uint16_t>>{{2, 300}, {6, 7}}));
    EXPECT_EQ(port->DequeueFrame(), second);
    EXPECT_EQ(port->GetTxFrames(), 2u);
    // A discarded frame (link down) is not sent: no count, no trace.
    EXPECT_EQ(port->DiscardFrame(), third);
    EXPECT_FALSE(port->HasPending());
    EXPECT_FALSE(port->DiscardFrame());
    EXPECT_EQ(port->GetTxFrames(), 2u);
    EXPECT_EQ(tx.size(), 3u);
    EXPECT_EQ(tx.back(), (std::pair<unsigned, uint16_t>{2, 0}));
    port->Dispose();
}

TEST(MrcPfcPort, ResumeAllEndsEveryPauseAndCancelsTheTimers)
{
    Recorded r("8Gbps");
    Simulator::Schedule(NanoSeconds(0), [&]() {
        r.port->ApplyPause(0, 100);
        r.port->ApplyPause(6, 100);
    });
    Simulator::Schedule(NanoSeconds(200), [&]() { r.port->ResumeAll(); });
    Simulator::Run();
    // Their expiries, due at 6400 ns, were cancelled: no further change.
    EXPECT_EQ(r.owner,
              (std::vector<Change>{{0, 0, true}, {0, 6, true}, {200, 0, false}, {200, 6, false}}));
    EXPECT_EQ(r.port->GetPausedTime(0), NanoSeconds(200));
    EXPECT_EQ(r.port->GetPausedTime(6), NanoSeconds(200));
    EXPECT_EQ(r.port->GetPausedMask(), 0);
    Simulator::Destroy();
}

TEST(MrcPfcPortDeathTest, BadArgumentsAbort)
{
    Ptr<MrcPfcPort> port = CreateObject<MrcPfcPort>();
    EXPECT_DEATH(port->ApplyPause(8, 1), "class 8 is out of range");
    EXPECT_DEATH(port->GetPausedTime(9), "class 9 is out of range");
    EXPECT_DEATH(port->SetDataRate(DataRate(0)), "DataRate must be above 0");
    port->Dispose();
}
