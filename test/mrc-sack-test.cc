/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the shared selective-acknowledgement machinery: the receiver's PSN bitmap, the
// sender's scoreboard, and the SACK generation policy.

#include "mrc-test-support.h"

#include "ns3/boolean.h"
#include "ns3/buffer.h"
#include "ns3/mrc-cc-state-header.h"
#include "ns3/mrc-receive-bitmap.h"
#include "ns3/mrc-sack-policy.h"
#include "ns3/mrc-sack-scoreboard.h"
#include "ns3/mrc-seth-header.h"
#include "ns3/mrc-time-records.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <memory>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

/// \return the PSNs of a list of events
std::vector<uint32_t>
Psns(const std::vector<MrcPsnEvent>& v)
{
    std::vector<uint32_t> out;
    for (const auto& e : v)
    {
        out.push_back(e.psn);
    }
    return out;
}

/// Send n packets of 1000 bytes, EV = PSN offset, at 1 us spacing from t0.
void
SendN(MrcSackScoreboard& sb, uint32_t n, Time t0 = MicroSeconds(0))
{
    for (uint32_t i = 0; i < n; ++i)
    {
        sb.OnSent(1000, 100 + i, t0 + MicroSeconds(i));
    }
}

} // namespace

// ---------------------------------------------------------------- receive bitmap

TEST(MrcReceiveBitmap, InOrderAdvancesCumulativePoint)
{
    MrcReceiveBitmap rb(64, 100);
    EXPECT_EQ(rb.GetExpectedPsn(), 100u);
    EXPECT_EQ(rb.GetCumulativePsn(), 99u);
    for (uint32_t psn = 100; psn < 105; ++psn)
    {
        MrcRxResult r = rb.OnArrival(psn);
        EXPECT_EQ(r.kind, MrcRxArrival::NEW);
        EXPECT_FALSE(r.outOfOrder);
        EXPECT_EQ(r.advanced, 1u);
        EXPECT_FALSE(r.firstOutOfOrder);
        EXPECT_FALSE(r.oooDrained);
    }
    EXPECT_EQ(rb.GetExpectedPsn(), 105u);
    EXPECT_EQ(rb.GetCumulativePsn(), 104u);
    EXPECT_EQ(rb.GetOooCount(), 0u);
    EXPECT_EQ(rb.GetBitmap(105), 0u);
    EXPECT_TRUE(rb.HasArrived(104));
    EXPECT_FALSE(rb.HasArrived(105));
}

TEST(MrcReceiveBitmap, ReorderingFillsHoles)
{
    MrcReceiveBitmap rb(128, 0);
    MrcRxResult r = rb.OnArrival(1);
    EXPECT_EQ(r.kind, MrcRxArrival::NEW);
    EXPECT_TRUE(r.outOfOrder);
    EXPECT_TRUE(r.firstOutOfOrder);
    EXPECT_EQ(r.advanced, 0u);
    EXPECT_EQ(r.oooCount, 1u);
    r = rb.OnArrival(3);
    EXPECT_TRUE(r.outOfOrder);
    EXPECT_FALSE(r.firstOutOfOrder);
    EXPECT_EQ(r.oooCount, 2u);
    EXPECT_EQ(rb.GetExpectedPsn(), 0u);
    EXPECT_EQ(rb.GetBitmap(0), 0xAu); // PSNs 1 and 3
    r = rb.OnArrival(0);              // closes the first hole: 0, 1 in order
    EXPECT_FALSE(r.outOfOrder);
    EXPECT_EQ(r.advanced, 2u);
    EXPECT_FALSE(r.oooDrained);
    EXPECT_EQ(r.oooCount, 1u);
    EXPECT_EQ(rb.GetExpectedPsn(), 2u);
    EXPECT_EQ(rb.GetBitmap(2), 0x2u); // PSN 3 = base + 1
    r = rb.OnArrival(2);
    EXPECT_EQ(r.advanced, 2u);
    EXPECT_TRUE(r.oooDrained);
    EXPECT_EQ(r.oooCount, 0u);
    EXPECT_EQ(rb.GetExpectedPsn(), 4u);
    EXPECT_EQ(rb.GetCumulativePsn(), 3u);
}

TEST(MrcReceiveBitmap, DuplicatesAndOutOfWindow)
{
    MrcReceiveBitmap rb(64, 0);
    EXPECT_EQ(rb.OnArrival(5).kind, MrcRxArrival::NEW);
    EXPECT_EQ(rb.OnArrival(5).kind, MrcRxArrival::DUPLICATE); // bit already set
    EXPECT_EQ(rb.OnArrival(63).kind, MrcRxArrival::NEW);      // last PSN of the window
    EXPECT_EQ(rb.OnArrival(64).kind, MrcRxArrival::OUT_OF_WINDOW);
    EXPECT_EQ(rb.OnArrival(0x7fffff).kind, MrcRxArrival::OUT_OF_WINDOW); // 2^23 - 1 ahead
    EXPECT_EQ(rb.OnArrival(0x800000).kind, MrcRxArrival::DUPLICATE);     // 2^23 behind
    EXPECT_EQ(rb.GetOooCount(), 2u);
    EXPECT_EQ(rb.OnArrival(0).advanced, 1u);
    EXPECT_EQ(rb.OnArrival(0).kind, MrcRxArrival::DUPLICATE); // below ePSN
    EXPECT_EQ(rb.OnArrival(0xffffff).kind, MrcRxArrival::DUPLICATE);
    // the window slid by one: PSN 64 now fits
    EXPECT_EQ(rb.OnArrival(64).kind, MrcRxArrival::NEW);
    EXPECT_EQ(rb.GetOooCount(), 3u);
    MrcCcStateHeader cc;
    rb.FillCcState(cc);
    EXPECT_EQ(cc.GetOooCount(), 3u);
}

TEST(MrcReceiveBitmap, WindowFromMpr)
{
    EXPECT_EQ(MrcReceiveBitmap().GetWindowPsns(), 1024u);
    EXPECT_EQ(MrcReceiveBitmap::FromMpr(8).GetWindowPsns(), 1024u);
    EXPECT_EQ(MrcReceiveBitmap::FromMpr(8).GetMprField(), 8u);
    EXPECT_EQ(MrcReceiveBitmap::FromMpr(255).GetWindowPsns(), 32640u);
    EXPECT_EQ(MrcReceiveBitmap::FromMpr(1).GetWindowPsns(), 128u);
    MrcReceiveBitmap rb = MrcReceiveBitmap::FromMpr(1, 10);
    EXPECT_EQ(rb.OnArrival(137).kind, MrcRxArrival::NEW);
    EXPECT_EQ(rb.OnArrival(138).kind, MrcRxArrival::OUT_OF_WINDOW);
}

TEST(MrcReceiveBitmap, SackBlockRule)
{
    MrcReceiveBitmap rb(256, 0);
    for (uint32_t psn = 1; psn <= 100; ++psn)
    {
        rb.OnArrival(psn);
    }
    EXPECT_EQ(rb.GetOooCount(), 100u);
    // trigger within 64 of ePSN: block starts at ePSN
    EXPECT_EQ(rb.GetSackBase(63), 0u);
    EXPECT_EQ(rb.GetBitmap(0), 0xfffffffffffffffeULL); // 1..63
    // trigger further: the 64 PSNs ending at it
    EXPECT_EQ(rb.GetSackBase(100), 37u);
    EXPECT_EQ(rb.GetBitmap(37), 0xffffffffffffffffULL);
    rb.OnArrival(150);
    EXPECT_EQ(rb.GetSackBase(150), 87u);
    EXPECT_EQ(rb.GetBitmap(87), 0x8000000000003fffULL); // 87..100 and 150
    // a duplicate or out-of-window trigger: block at ePSN
    EXPECT_EQ(rb.GetSackBase(0xfffff0), 0u);
    EXPECT_EQ(rb.GetSackBase(300), 0u);
}

TEST(MrcReceiveBitmap, BitmapAcrossWordsAndRingEnd)
{
    MrcReceiveBitmap rb(128, 0);
    for (uint32_t psn = 0; psn < 10; ++psn)
    {
        rb.OnArrival(psn);
    }
    rb.OnArrival(70); // ring position 70: the block from ePSN 10 straddles words 0 and 1
    EXPECT_EQ(rb.GetBitmap(10), uint64_t{1} << 60);
    for (uint32_t psn = 10; psn < 100; ++psn)
    {
        rb.OnArrival(psn);
    }
    EXPECT_EQ(rb.GetExpectedPsn(), 100u);
    EXPECT_EQ(rb.GetOooCount(), 0u);
    rb.OnArrival(150); // ring position 22: the block from 100 wraps the ring end
    rb.OnArrival(160);
    EXPECT_EQ(rb.GetBitmap(100), (uint64_t{1} << 50) | (uint64_t{1} << 60));
    EXPECT_TRUE(rb.HasArrived(160));
    EXPECT_FALSE(rb.HasArrived(161));
}

TEST(MrcReceiveBitmap, PsnWrapAt2To24)
{
    MrcReceiveBitmap rb(128, 0xfffffe);
    EXPECT_EQ(rb.GetCumulativePsn(), 0xfffffdu);
    EXPECT_TRUE(rb.OnArrival(0x000000).outOfOrder);
    EXPECT_TRUE(rb.OnArrival(0x000002).outOfOrder);
    EXPECT_EQ(rb.GetSackBase(2), 0xfffffeu);
    EXPECT_EQ(rb.GetBitmap(0xfffffe), 0x14u); // offsets 2 and 4

    // SETH as the receiver would send it, byte for byte
    MrcSethHeader seth;
    rb.FillSeth(seth, 2);
    EXPECT_EQ(seth.GetCackPsn(), 0xfffffdu);
    EXPECT_EQ(seth.GetAckPsn(), 2u);
    EXPECT_EQ(seth.GetSackBasePsn(), 0xfffffeu);
    EXPECT_TRUE(seth.IsPsnSacked(0));
    EXPECT_TRUE(seth.IsPsnSacked(2));
    EXPECT_FALSE(seth.IsPsnSacked(1));
    std::vector<uint8_t> expect = {
        0x00, 0x00, 0x00, 0x05,                         // lead; ack_psn_offset 5
        0x00, 0x00, 0x00, 0x00,                         // entropy
        0x00, 0x00, 0x00, 0x00,                         // spdcid, dpdcid
        0x00, 0xff, 0xff, 0xfd,                         // reserved, cack_psn
        0x00, 0x01, 0x00, 0x01,                         // cc_type/fl, mpr 1, sack_offset 1
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x14, // bitmap
    };
    EXPECT_EQ(MrcTest::HeaderBytes(seth), expect);

    EXPECT_EQ(rb.OnArrival(0xfffffe).advanced, 1u);
    EXPECT_EQ(rb.OnArrival(0xffffff).advanced, 2u); // 0xffffff and 0x000000
    EXPECT_EQ(rb.GetExpectedPsn(), 1u);
    EXPECT_EQ(rb.GetCumulativePsn(), 0u);
    EXPECT_EQ(rb.OnArrival(1).advanced, 2u);
    EXPECT_EQ(rb.GetExpectedPsn(), 3u);
    EXPECT_EQ(rb.OnArrival(0xffffff).kind, MrcRxArrival::DUPLICATE);
}

// ---------------------------------------------------------------- scoreboard

TEST(MrcSackScoreboard, CumulativeAdvanceFreesRecords)
{
    MrcSackScoreboard sb;
    uint32_t psn;
    EXPECT_FALSE(sb.GetHighestSentPsn(psn));
    SendN(sb, 5);
    EXPECT_TRUE(sb.GetHighestSentPsn(psn));
    EXPECT_EQ(psn, 4u);
    EXPECT_EQ(sb.GetBytesInFlight(), 5000u);
    EXPECT_EQ(sb.GetOutstandingPsns(), 5u);
    const MrcSackUpdate& u = sb.OnSack(2, 3, 0);
    EXPECT_EQ(Psns(u.acked), (std::vector<uint32_t>{0, 1, 2}));
    EXPECT_EQ(u.ackedBytes, 3000u);
    EXPECT_EQ(u.ackedInflightBytes, 3000u);
    EXPECT_EQ(u.cumAdvanced, 3u);
    EXPECT_EQ(u.acked[1].record.ev, 101u);
    EXPECT_EQ(u.acked[1].record.sendTime, MicroSeconds(1));
    EXPECT_EQ(u.acked[1].record.state, MrcPsnState::SENT);
    EXPECT_TRUE(u.lost.empty());
    EXPECT_EQ(sb.GetUna(), 3u);
    EXPECT_EQ(sb.GetOutstandingPsns(), 2u);
    EXPECT_EQ(sb.GetBytesInFlight(), 2000u);
    EXPECT_EQ(sb.GetRecord(2), nullptr);
    ASSERT_NE(sb.GetRecord(3), nullptr);
    EXPECT_EQ(sb.GetRecord(3)->ev, 103u);
    // a stale SACK changes nothing; one beyond the highest PSN sent is ignored
    EXPECT_TRUE(sb.OnSack(1, 0, 0x7).acked.empty());
    EXPECT_TRUE(sb.OnSack(9, 0, 0).acked.empty());
    EXPECT_EQ(sb.GetUna(), 3u);
    // a SACKed record is reported once, then freed silently by the cumulative point
    EXPECT_EQ(Psns(sb.OnSack(2, 4, 1).acked), std::vector<uint32_t>{4});
    EXPECT_EQ(sb.GetBytesInFlight(), 1000u);
    const MrcSackUpdate& u2 = sb.OnSack(4, 5, 0);
    EXPECT_EQ(Psns(u2.acked), std::vector<uint32_t>{3});
    EXPECT_EQ(u2.cumAdvanced, 2u);
    EXPECT_EQ(sb.GetOutstandingPsns(), 0u);
    EXPECT_EQ(sb.GetBytesInFlight(), 0u);
}

TEST(MrcSackScoreboard, CapacityBoundsOutstanding)
{
    MrcSackScoreboard::Config c;
    c.capacityPsns = 5; // ring of 8
    MrcSackScoreboard sb(c, 0);
    for (uint32_t i = 0; i < 5; ++i)
    {
        EXPECT_TRUE(sb.HasRoom());
        EXPECT_EQ(sb.OnSent(100, 0, Seconds(0)), i);
    }
    EXPECT_FALSE(sb.HasRoom());
    sb.OnSack(1, 2, 0);
    EXPECT_TRUE(sb.HasRoom());
    for (uint32_t i = 5; i < 7; ++i)
    {
        EXPECT_EQ(sb.OnSent(100 + i, i, Seconds(0)), i);
    }
    EXPECT_FALSE(sb.HasRoom());
    // free up to PSN 5 (una 6 sits in ring slot 6); four more sends wrap the ring end
    sb.OnSack(5, 6, 0);
    for (uint32_t i = 7; i < 11; ++i)
    {
        EXPECT_EQ(sb.OnSent(100 + i, i, Seconds(0)), i);
    }
    EXPECT_FALSE(sb.HasRoom());
    for (uint32_t i = 6; i < 11; ++i)
    {
        ASSERT_NE(sb.GetRecord(i), nullptr);
        EXPECT_EQ(sb.GetRecord(i)->bytes, 100 + i);
        EXPECT_EQ(sb.GetRecord(i)->ev, i);
    }
    EXPECT_EQ(sb.GetRecord(5), nullptr);
    EXPECT_EQ(sb.GetBytesInFlight(), 106u + 107 + 108 + 109 + 110);
}

TEST(MrcSackScoreboard, RingGrowsWithWrappedHeadKeepsRecords)
{
    // The ring starts at 64 records and doubles when full: grow it while una sits in the
    // middle of the ring (the live records wrap its end), then check every record.
    MrcSackScoreboard::Config c;
    c.capacityPsns = 1000; // ring limit 1024
    MrcSackScoreboard sb(c, 0);
    for (uint32_t i = 0; i < 60; ++i)
    {
        EXPECT_EQ(sb.OnSent(1000 + i, i, MicroSeconds(i)), i);
    }
    sb.OnSack(39, 40, 0);               // PSNs 0..39 acknowledged: una 40, ring index 40
    for (uint32_t i = 60; i < 300; ++i) // 260 outstanding: grows 64 -> 128 -> 256 -> 512
    {
        EXPECT_EQ(sb.OnSent(1000 + i, i, MicroSeconds(i)), i);
    }
    EXPECT_EQ(sb.GetOutstandingPsns(), 260u);
    uint64_t bytes = 0;
    for (uint32_t i = 40; i < 300; ++i)
    {
        const MrcPsnRecord* r = sb.GetRecord(i);
        ASSERT_NE(r, nullptr) << i;
        EXPECT_EQ(r->bytes, 1000 + i);
        EXPECT_EQ(r->ev, i);
        EXPECT_EQ(r->sendTime, MicroSeconds(i));
        bytes += 1000 + i;
    }
    EXPECT_EQ(sb.GetRecord(39), nullptr);
    EXPECT_EQ(sb.GetRecord(300), nullptr);
    EXPECT_EQ(sb.GetBytesInFlight(), bytes);
    // a SACK over the grown ring: PSN 100 selectively, then cumulative to 99
    const MrcSackUpdate& u = sb.OnSack(99, 100, 1);
    EXPECT_EQ(u.acked.size(), 61u); // 40..99 cumulatively, 100 selectively
    EXPECT_EQ(sb.GetUna(), 100u);
    EXPECT_EQ(sb.GetRecord(100)->state, MrcPsnState::SACKED);
    // up to the capacity, not beyond
    for (uint32_t i = 300; i < 1100; ++i)
    {
        EXPECT_EQ(sb.OnSent(1000 + i, i, MicroSeconds(i)), i);
    }
    EXPECT_FALSE(sb.HasRoom());
    EXPECT_EQ(sb.GetOutstandingPsns(), 1000u);
    EXPECT_EQ(sb.GetRecord(1099)->bytes, 2099u);
    EXPECT_EQ(sb.GetRecord(101)->bytes, 1101u);
}

TEST(MrcSackScoreboard, LossExactlyAtReorderThreshold)
{
    MrcSackScoreboard sb; // N = 3
    SendN(sb, 10);
    // holes 0 and 1; 2 and 3 SACKed: 2 PSNs above each hole, not lost
    const MrcSackUpdate& u1 = sb.OnSack(0xffffff, 0, 0b1100);
    EXPECT_EQ(Psns(u1.acked), (std::vector<uint32_t>{2, 3}));
    EXPECT_TRUE(u1.lost.empty());
    EXPECT_EQ(sb.GetBytesInFlight(), 8000u);
    // 4 SACKed: now 3 PSNs above 1 (and above 0): both lost
    const MrcSackUpdate& u2 = sb.OnSack(0xffffff, 0, 0b11100);
    EXPECT_EQ(Psns(u2.acked), std::vector<uint32_t>{4});
    EXPECT_EQ(Psns(u2.lost), (std::vector<uint32_t>{0, 1}));
    EXPECT_EQ(u2.lostBytes, 2000u);
    EXPECT_EQ(u2.lost[1].record.ev, 101u);
    EXPECT_EQ(sb.GetRecord(0)->state, MrcPsnState::LOST);
    EXPECT_EQ(sb.GetBytesInFlight(), 5000u); // 5..9
    EXPECT_EQ(sb.GetRetransmitQueueSize(), 2u);
    // hole 5: 6 and 7 SACKed (not lost), then 8 (lost)
    EXPECT_TRUE(sb.OnSack(0xffffff, 6, 0b11).lost.empty());
    EXPECT_EQ(Psns(sb.OnSack(0xffffff, 8, 1).lost), std::vector<uint32_t>{5});
    EXPECT_EQ(sb.GetBytesInFlight(), 1000u); // only 9
    // the SACK with the N-th PSN below the highest counts only SACKed records
    EXPECT_EQ(sb.GetRecord(9)->state, MrcPsnState::SENT);
}

TEST(MrcSackScoreboard, ReorderThresholdCountsSackedNotDistance)
{
    MrcSackScoreboard::Config c;
    c.reorderPsns = 2;
    MrcSackScoreboard sb(c, 0);
    SendN(sb, 8);
    // hole 0; 5 SACKed: 5 PSNs away but only one SACKed above: not lost
    EXPECT_TRUE(sb.OnSack(0xffffff, 5, 1).lost.empty());
    // 7 SACKed: two above 0..4 and 6: all never-retransmitted holes below 5 are lost
    EXPECT_EQ(Psns(sb.OnSack(0xffffff, 7, 1).lost), (std::vector<uint32_t>{0, 1, 2, 3, 4}));
    EXPECT_EQ(sb.GetRecord(6)->state, MrcPsnState::SENT);
}

TEST(MrcSackScoreboard, GroupedCountRuleCountsOnlyTheSameGroup)
{
    MrcSackScoreboard::Config c;
    c.reorderPsns = 2;
    c.groupedCount = true;
    MrcSackScoreboard sb(c, 0);
    for (uint32_t i = 0; i < 10; ++i) // even PSNs in group 0, odd ones in group 1
    {
        sb.OnSent(1000, i, MicroSeconds(i), static_cast<uint8_t>(i % 2));
    }
    EXPECT_EQ(sb.GetRecord(3)->group, 1u);
    // 1, 3, 5 SACKed (group 1): 0, 2, 4 have three SACKed PSNs above them, but none of
    // their own group: not lost (the plain rule with N = 2 would declare 0 and 2 lost)
    EXPECT_TRUE(sb.OnSack(0xffffff, 1, 0b10101).lost.empty());
    // 6 SACKed: one PSN of group 0 above 0, 2, 4: not yet
    EXPECT_TRUE(sb.OnSack(0xffffff, 6, 1).lost.empty());
    // 8 SACKed: two of group 0 (6, 8) above 0, 2, 4: all three lost; 7 and 9 (group 1,
    // nothing of group 1 SACKed above them) stay in flight
    const MrcSackUpdate& u = sb.OnSack(0xffffff, 8, 1);
    EXPECT_EQ(Psns(u.lost), (std::vector<uint32_t>{0, 2, 4}));
    EXPECT_EQ(u.lostBytes, 3000u);
    EXPECT_EQ(sb.GetRecord(7)->state, MrcPsnState::SENT);
    EXPECT_EQ(sb.GetRecord(9)->state, MrcPsnState::SENT);
    EXPECT_EQ(sb.GetBytesInFlight(), 2000u);
    // 9 SACKed: only one PSN of group 1 above 7: still in flight
    EXPECT_TRUE(sb.OnSack(0xffffff, 9, 1).lost.empty());
    EXPECT_EQ(sb.GetRecord(7)->state, MrcPsnState::SENT);
}

TEST(MrcSackScoreboard, NackRetransmitOldestFirst)
{
    MrcSackScoreboard sb;
    SendN(sb, 6);
    const MrcPsnRecord* r = sb.OnNack(4);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->state, MrcPsnState::RETX_PENDING);
    EXPECT_EQ(r->ev, 104u);
    EXPECT_NE(sb.OnNack(1), nullptr);
    EXPECT_EQ(sb.OnNack(1), nullptr);  // already queued
    EXPECT_EQ(sb.OnNack(40), nullptr); // never sent
    EXPECT_EQ(sb.GetBytesInFlight(), 4000u);
    EXPECT_EQ(sb.GetRetransmitQueueSize(), 2u);
    uint32_t psn = 99;
    ASSERT_TRUE(sb.NextRetransmit(psn));
    EXPECT_EQ(psn, 1u);
    sb.OnRetransmit(1, 777, MicroSeconds(50));
    EXPECT_EQ(sb.GetBytesInFlight(), 5000u);
    EXPECT_EQ(sb.GetRecord(1)->retxCount, 1u);
    EXPECT_EQ(sb.GetRecord(1)->ev, 777u);
    EXPECT_EQ(sb.GetRecord(1)->sendTime, MicroSeconds(50));
    // a NACK older than the queued one goes ahead of it
    EXPECT_NE(sb.OnNack(0), nullptr);
    ASSERT_TRUE(sb.NextRetransmit(psn));
    EXPECT_EQ(psn, 0u);
    sb.OnRetransmit(0, 778, MicroSeconds(51));
    ASSERT_TRUE(sb.NextRetransmit(psn));
    EXPECT_EQ(psn, 4u);
    // the retransmission of 1 can be NACKed again
    r = sb.OnNack(1);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->retxCount, 1u);
    ASSERT_TRUE(sb.NextRetransmit(psn));
    EXPECT_EQ(psn, 1u);
    // a SACK for a queued PSN takes it off the queue (spurious)
    const MrcSackUpdate& u = sb.OnSack(0xffffff, 4, 1);
    ASSERT_EQ(u.acked.size(), 1u);
    EXPECT_EQ(u.acked[0].record.state, MrcPsnState::RETX_PENDING);
    EXPECT_EQ(u.ackedBytes, 1000u);
    EXPECT_EQ(u.ackedInflightBytes, 0u);
    EXPECT_EQ(sb.GetRetransmitQueueSize(), 1u);
    sb.OnRetransmit(1, 779, MicroSeconds(52));
    EXPECT_FALSE(sb.NextRetransmit(psn));
    EXPECT_EQ(sb.GetBytesInFlight(), 5000u); // 0, 1, 2, 3, 5
}

TEST(MrcSackScoreboard, RetransmissionsNeedTimeRuleOrTimeout)
{
    MrcSackScoreboard::Config c;
    c.timeRule = true;
    c.reorderTime = MicroSeconds(5);
    MrcSackScoreboard sb(c, 0);
    SendN(sb, 4); // sent at 0..3 us
    sb.OnNack(0);
    sb.OnRetransmit(0, 9, MicroSeconds(10));
    for (uint32_t i = 4; i < 12; ++i)
    {
        sb.OnSent(1000, i, MicroSeconds(i + 7)); // 11..18 us
    }
    // SACK 1, 2, 3 (sent 1..3 us): the retransmission (10 us) is not older than them
    EXPECT_TRUE(sb.OnSack(0xffffff, 1, 0b111).lost.empty());
    // SACK 9 (sent 16 us): 16 - 10 = 6 us > 5 us, so the retransmission of 0 is lost;
    // 4 (sent 11 us) is only 5 us older: not lost
    const MrcSackUpdate& u = sb.OnSack(0xffffff, 9, 1);
    EXPECT_EQ(Psns(u.lost), std::vector<uint32_t>{0});
    EXPECT_EQ(u.lost[0].record.retxCount, 1u);
    EXPECT_EQ(u.lost[0].record.ev, 9u);
    // count rule (N = 3: 1, 2, 3, 9 SACKed; the 3rd highest is 2) found nothing new:
    // 0 is exempt as a retransmission; 4..8 lie above 2
    EXPECT_EQ(sb.GetRecord(4)->state, MrcPsnState::SENT);
    EXPECT_EQ(sb.GetRecord(8)->state, MrcPsnState::SENT);
}

TEST(MrcSackScoreboard, TimeoutDeadlineAndExpiry)
{
    MrcSackScoreboard sb;
    sb.OnSent(1000, 1, MicroSeconds(0));
    sb.OnSent(1000, 2, MicroSeconds(10));
    sb.OnSent(1000, 3, MicroSeconds(20));
    Time deadline;
    uint32_t psn;
    ASSERT_TRUE(sb.GetOldestDeadline(MicroSeconds(100), deadline, psn));
    EXPECT_EQ(deadline, MicroSeconds(100));
    EXPECT_EQ(psn, 0u);
    sb.OnSack(0, 1, 0);
    ASSERT_TRUE(sb.GetOldestDeadline(MicroSeconds(100), deadline, psn));
    EXPECT_EQ(deadline, MicroSeconds(110));
    EXPECT_EQ(psn, 1u);
    const MrcSackUpdate& u = sb.OnTimeout(MicroSeconds(115), MicroSeconds(100));
    EXPECT_EQ(Psns(u.lost), std::vector<uint32_t>{1});
    EXPECT_EQ(u.lostBytes, 1000u);
    EXPECT_TRUE(u.acked.empty());
    ASSERT_TRUE(sb.GetOldestDeadline(MicroSeconds(100), deadline, psn));
    EXPECT_EQ(psn, 2u);
    EXPECT_EQ(deadline, MicroSeconds(120));
    // exactly at the deadline counts as expired
    EXPECT_EQ(Psns(sb.OnTimeout(MicroSeconds(120), MicroSeconds(100)).lost),
              std::vector<uint32_t>{2});
    EXPECT_FALSE(sb.GetOldestDeadline(MicroSeconds(100), deadline, psn));
    EXPECT_EQ(sb.GetBytesInFlight(), 0u);
    EXPECT_EQ(sb.GetRetransmitQueueSize(), 2u);
}

TEST(MrcSackScoreboard, TimeoutsCountOnlyExpiriesNotNacks)
{
    // a PSN NACKed (trimmed) three times and retransmitted each time has 3 retransmissions
    // but no timeout; then its deadline expires twice: the events carry the expiries
    // before each one (0, then 1), the record counts 2
    MrcSackScoreboard sb;
    sb.OnSent(1000, 1, MicroSeconds(0));
    for (uint32_t i = 0; i < 3; ++i)
    {
        ASSERT_NE(sb.OnNack(0), nullptr);
        sb.OnRetransmit(0, 2 + i, MicroSeconds(1 + i));
    }
    EXPECT_EQ(sb.GetRecord(0)->retxCount, 3u);
    EXPECT_EQ(sb.GetRecord(0)->timeouts, 0u);
    const MrcSackUpdate& u = sb.OnTimeout(MicroSeconds(103), MicroSeconds(100));
    ASSERT_EQ(u.lost.size(), 1u);
    EXPECT_EQ(u.lost[0].record.timeouts, 0u);
    EXPECT_EQ(u.lost[0].record.retxCount, 3u);
    EXPECT_EQ(sb.GetRecord(0)->timeouts, 1u);
    sb.OnRetransmit(0, 9, MicroSeconds(103));
    EXPECT_EQ(sb.GetRecord(0)->timeouts, 1u);
    const MrcSackUpdate& v = sb.OnTimeoutBelow(MicroSeconds(203), MicroSeconds(100), 1);
    ASSERT_EQ(v.lost.size(), 1u);
    EXPECT_EQ(v.lost[0].record.timeouts, 1u);
    EXPECT_EQ(sb.GetRecord(0)->timeouts, 2u);
    // a new PSN starts at 0
    sb.OnSent(1000, 1, MicroSeconds(204));
    EXPECT_EQ(sb.GetRecord(1)->timeouts, 0u);
}

TEST(MrcSackScoreboard, PsnWrapAt2To24)
{
    MrcSackScoreboard sb(MrcSackScoreboard::Config{}, 0xfffffd);
    SendN(sb, 6); // 0xfffffd .. 0x000002
    EXPECT_EQ(sb.GetNextPsn(), 3u);
    uint32_t psn;
    ASSERT_TRUE(sb.GetHighestSentPsn(psn));
    EXPECT_EQ(psn, 2u);
    // cumulative up to 0xfffffe; 0x000000, 0x000001, 0x000002 SACKed: hole 0xffffff lost
    const MrcSackUpdate& u = sb.OnSack(0xfffffe, 0, 0b111);
    EXPECT_EQ(Psns(u.acked), (std::vector<uint32_t>{0xfffffd, 0xfffffe, 0, 1, 2}));
    EXPECT_EQ(Psns(u.lost), std::vector<uint32_t>{0xffffff});
    EXPECT_EQ(sb.GetUna(), 0xffffffu);
    ASSERT_TRUE(sb.NextRetransmit(psn));
    EXPECT_EQ(psn, 0xffffffu);
    sb.OnRetransmit(psn, 5, MicroSeconds(30));
    EXPECT_EQ(sb.OnSack(2, 3, 0).cumAdvanced, 4u);
    EXPECT_EQ(sb.GetUna(), 3u);
    EXPECT_EQ(sb.GetOutstandingPsns(), 0u);
}

TEST(MrcSackScoreboard, EndToEndThroughSeth)
{
    // sender PSNs 0xfffff0 .. 0x00000f (32); the receiver misses 0xfffff4 and 0x000003
    const uint32_t first = 0xfffff0;
    MrcSackScoreboard sb(MrcSackScoreboard::Config{}, first);
    MrcReceiveBitmap rb(1024, first);
    SendN(sb, 32);
    const MrcSackUpdate* last = nullptr;
    std::vector<uint32_t> lost;
    for (uint32_t i = 0; i < 32; ++i)
    {
        uint32_t p = (first + i) & 0xffffff;
        if (p == 0xfffff4 || p == 0x000003)
        {
            continue;
        }
        rb.OnArrival(p);
        MrcSethHeader seth;
        rb.FillSeth(seth, p);
        MrcSethHeader rx;
        Buffer b;
        b.AddAtStart(MrcSethHeader::SIZE);
        seth.Serialize(b.Begin());
        rx.Deserialize(b.Begin());
        last = &sb.OnSack(rx);
        for (const auto& e : last->lost)
        {
            lost.push_back(e.psn);
        }
    }
    EXPECT_EQ(lost, (std::vector<uint32_t>{0xfffff4, 0x000003}));
    EXPECT_EQ(sb.GetUna(), 0xfffff4u);
    EXPECT_EQ(rb.GetExpectedPsn(), 0xfffff4u);
    EXPECT_EQ(sb.GetBytesInFlight(), 0u);
    EXPECT_EQ(rb.GetOooCount(), 26u); // 0xfffff5 .. 0x00000f minus 0x000003
    // the retransmissions close both holes; one SACK then acknowledges everything
    uint32_t psn;
    ASSERT_TRUE(sb.NextRetransmit(psn));
    EXPECT_EQ(psn, 0xfffff4u);
    sb.OnRetransmit(psn, 1, MicroSeconds(100));
    ASSERT_TRUE(sb.NextRetransmit(psn));
    EXPECT_EQ(psn, 3u);
    sb.OnRetransmit(psn, 2, MicroSeconds(100));
    rb.OnArrival(0xfffff4);
    EXPECT_EQ(rb.OnArrival(3).advanced, 13u); // 3 .. 0xf
    MrcSethHeader seth;
    rb.FillSeth(seth, 3);
    EXPECT_EQ(seth.GetCackPsn(), 0xfu);
    const MrcSackUpdate& u = sb.OnSack(seth);
    EXPECT_EQ(Psns(u.acked), (std::vector<uint32_t>{0xfffff4, 3}));
    EXPECT_EQ(u.acked[0].record.retxCount, 1u);
    EXPECT_EQ(sb.GetOutstandingPsns(), 0u);
}

// ---------------------------------------------------------------- SACK policy

namespace
{
/// An in-order NEW arrival.
MrcRxResult
InOrder()
{
    MrcRxResult r;
    r.kind = MrcRxArrival::NEW;
    r.advanced = 1;
    return r;
}
} // namespace

TEST(MrcSackPolicy, ByteCoalescingDefaults)
{
    Ptr<MrcSackPolicy> p = CreateObject<MrcSackPolicy>();
    MrcSackPolicy::Data d;
    d.bytes = 4096;
    EXPECT_EQ(p->OnData(d, InOrder()), uint32_t{SACK_FIRST_PACKET});
    EXPECT_EQ(p->GetPendingBytes(), 0u);
    EXPECT_EQ(p->OnData(d, InOrder()), uint32_t{SACK_HOLD});
    EXPECT_EQ(p->OnData(d, InOrder()), uint32_t{SACK_HOLD});
    EXPECT_EQ(p->OnData(d, InOrder()), uint32_t{SACK_HOLD});
    EXPECT_EQ(p->GetPendingBytes(), 12288u);
    EXPECT_EQ(p->OnData(d, InOrder()), uint32_t{SACK_BYTES}); // 16384
    EXPECT_EQ(p->GetPendingBytes(), 0u);
    // small packets count 1024 each: the 16th triggers
    d.bytes = 100;
    for (int i = 0; i < 15; ++i)
    {
        EXPECT_EQ(p->OnData(d, InOrder()), uint32_t{SACK_HOLD});
    }
    EXPECT_EQ(p->OnData(d, InOrder()), uint32_t{SACK_BYTES});
}

TEST(MrcSackPolicy, ImmediateTriggers)
{
    Ptr<MrcSackPolicy> p = CreateObject<MrcSackPolicy>();
    MrcSackPolicy::Data d;
    d.bytes = 1000;
    p->OnData(d, InOrder()); // first packet
    MrcSackPolicy::Data ce = d;
    ce.ce = true;
    EXPECT_EQ(p->OnData(ce, InOrder()), uint32_t{SACK_ECN});
    MrcSackPolicy::Data retx = d;
    retx.retx = true;
    EXPECT_EQ(p->OnData(retx, InOrder()), uint32_t{SACK_RETX});
    MrcSackPolicy::Data lastOfMsg = d;
    lastOfMsg.lastOfMessage = true;
    EXPECT_EQ(p->OnData(lastOfMsg, InOrder()), uint32_t{SACK_LAST_OF_MESSAGE});
    MrcRxResult dup;
    dup.kind = MrcRxArrival::DUPLICATE;
    EXPECT_EQ(p->OnData(d, dup), uint32_t{SACK_DUPLICATE});
    // out-of-window: NACKed by the caller, no SACK, counter untouched
    p->OnData(d, InOrder());
    EXPECT_EQ(p->GetPendingBytes(), 1024u);
    MrcRxResult oow;
    oow.kind = MrcRxArrival::OUT_OF_WINDOW;
    ce.ar = true;
    EXPECT_EQ(p->OnData(ce, oow), uint32_t{SACK_HOLD});
    EXPECT_EQ(p->GetPendingBytes(), 1024u);
    p->OnSackSent();
    EXPECT_EQ(p->GetPendingBytes(), 0u);
}

TEST(MrcSackPolicy, OutOfOrderAndArDrain)
{
    Ptr<MrcSackPolicy> p = CreateObject<MrcSackPolicy>();
    MrcReceiveBitmap rb(64, 0);
    MrcSackPolicy::Data d;
    d.bytes = 1000;
    EXPECT_EQ(p->OnData(d, rb.OnArrival(0)), uint32_t{SACK_FIRST_PACKET});
    EXPECT_EQ(p->OnData(d, rb.OnArrival(2)), uint32_t{SACK_FIRST_OOO}); // hole at 1
    EXPECT_EQ(p->OnData(d, rb.OnArrival(3)), uint32_t{SACK_HOLD});      // coalesced
    MrcSackPolicy::Data ar = d;
    ar.ar = true;
    EXPECT_EQ(p->OnData(ar, rb.OnArrival(4)), uint32_t{SACK_AR}); // hole still open
    EXPECT_EQ(p->OnData(d, rb.OnArrival(1)), uint32_t{SACK_AR_DRAINED});
    EXPECT_EQ(p->OnData(d, rb.OnArrival(5)), uint32_t{SACK_HOLD});
    // several reasons at once
    MrcSackPolicy::Data all = d;
    all.ce = true;
    all.retx = true;
    EXPECT_EQ(p->OnData(all, rb.OnArrival(7)), uint32_t{SACK_ECN | SACK_RETX | SACK_FIRST_OOO});
}

TEST(MrcSackPolicy, AttributesSwitchTriggersOff)
{
    Ptr<MrcSackPolicy> p = CreateObject<MrcSackPolicy>();
    p->SetAttribute("TriggerBytes", UintegerValue(4096));
    p->SetAttribute("MinPktAddBytes", UintegerValue(0));
    p->SetAttribute("SackOnEcn", BooleanValue(false));
    p->SetAttribute("SackOnFirstPacket", BooleanValue(false));
    MrcSackPolicy::Data d;
    d.bytes = 2000;
    d.ce = true;
    EXPECT_EQ(p->OnData(d, InOrder()), uint32_t{SACK_HOLD});
    EXPECT_EQ(p->OnData(d, InOrder()), uint32_t{SACK_HOLD}); // 4000 < 4096
    EXPECT_EQ(p->OnData(d, InOrder()), uint32_t{SACK_BYTES});
}

TEST(MrcSackScoreboard, AckPsnOutsideTheBlockCounts)
{
    MrcSackScoreboard sb;
    SendN(sb, 100);
    MrcSethHeader seth;
    seth.SetCackPsn(0xffffff); // nothing in order yet
    seth.SetSackBasePsn(0);
    seth.SetSackBitmap(0b110); // 1, 2
    seth.SetAckPsn(90);        // the trigger, outside [0, 64)
    const MrcSackUpdate& u = sb.OnSack(seth);
    EXPECT_EQ(Psns(u.acked), (std::vector<uint32_t>{1, 2, 90}));
    EXPECT_EQ(Psns(u.lost), std::vector<uint32_t>{0}); // 1, 2, 90 above 0
    EXPECT_EQ(sb.GetRecord(3)->state, MrcPsnState::SENT);
    EXPECT_EQ(sb.GetBytesInFlight(), 96000u);
}

TEST(MrcSackScoreboard, SackedPsnsRepeatedAcrossGrowthAndSlotReuseCountOnce)
{
    // The scoreboard keeps a bit per ring slot for SACKED records, so that a SACK's bitmap
    // does not read the records of PSNs SACKed before. The bits must follow the records
    // through the ring's growth (una mid-ring) and be cleared when a slot is reused.
    MrcSackScoreboard::Config c;
    c.capacityPsns = 1000;
    c.reorderPsns = 0; // no loss inference: every record stays SENT until acknowledged
    MrcSackScoreboard sb(c, 0);
    for (uint32_t i = 0; i < 64; ++i) // a full first ring of 64
    {
        sb.OnSent(1000 + i, i, MicroSeconds(i));
    }
    sb.OnSack(19, 20, 0); // una 20 (ring index 20)
    // PSNs 30, 31, 33 SACKed (bitmap from 30: bits 0, 1, 3)
    EXPECT_EQ(Psns(sb.OnSack(19, 30, 0xb).acked), (std::vector<uint32_t>{30, 31, 33}));
    // 84 finds the ring full while its live records wrap its end: it grows to 128
    for (uint32_t i = 64; i < 100; ++i)
    {
        sb.OnSent(1000 + i, i, MicroSeconds(i));
    }
    EXPECT_EQ(sb.GetOutstandingPsns(), 80u);
    uint64_t inflight = 0;
    for (uint32_t i = 20; i < 100; ++i)
    {
        inflight += (i == 30 || i == 31 || i == 33) ? 0 : 1000 + i;
    }
    EXPECT_EQ(sb.GetBytesInFlight(), inflight);
    // the same three again with two new ones (32, 34): only the new are reported
    const MrcSackUpdate& u = sb.OnSack(19, 30, 0x1f);
    EXPECT_EQ(Psns(u.acked), (std::vector<uint32_t>{32, 34}));
    EXPECT_EQ(u.ackedBytes, 1032u + 1034u);
    inflight -= 1032 + 1034;
    EXPECT_EQ(sb.GetBytesInFlight(), inflight);
    // una to 35: 20..29 reported, 30..34 freed silently
    const MrcSackUpdate& v = sb.OnSack(34, 35, 0);
    EXPECT_EQ(v.acked.size(), 10u);
    EXPECT_EQ(v.ackedBytes, 10u * 1000 + (20 + 29) * 10 / 2);
    EXPECT_EQ(v.cumAdvanced, 15u);
    // Sends until the ring's slots of 30..34 are used again (ring of 128 from PSN 20 at
    // index 0: PSNs 158..162; the ring grows again at 163), then SACK those new PSNs: each
    // is reported, none is taken for SACKED by a stale bit.
    for (uint32_t i = 100; i < 170; ++i)
    {
        sb.OnSent(2000 + i, i, MicroSeconds(i));
    }
    EXPECT_EQ(Psns(sb.OnSack(34, 158, 0x1f).acked),
              (std::vector<uint32_t>{158, 159, 160, 161, 162}));
    // and the cumulative point walks over SACKED and not-SACKED records alike
    const MrcSackUpdate& w = sb.OnSack(169, 170, 0);
    EXPECT_EQ(w.cumAdvanced, 135u);
    EXPECT_EQ(w.acked.size(), 130u); // 135 less the 5 SACKed before
    EXPECT_EQ(sb.GetOutstandingPsns(), 0u);
    EXPECT_EQ(sb.GetBytesInFlight(), 0u);
}

TEST(MrcSackScoreboard, SprayedDeliveryMatchesReferenceModel)
{
    // Deterministic pseudo-random spraying: every round the sender sends up to 40 new
    // PSNs (crossing the 2^24 wrap), the network delivers a random subset in random
    // order (dropping ~5 %), the receiver SACKs every arrival, and the sender
    // retransmits what it finds lost. Checked against a plain reference after each step.
    std::mt19937 rng(12345);
    const uint32_t first = 0xfffe00;
    MrcSackScoreboard sb(MrcSackScoreboard::Config{}, first);
    MrcReceiveBitmap rb(1024, first);
    std::vector<uint8_t> delivered(4096, 0); // by PSN offset from first
    std::vector<uint32_t> wire;              // PSN offsets in the network
    uint32_t sent = 0;
    for (int round = 0; round < 300; ++round)
    {
        uint32_t psn;
        while (sb.NextRetransmit(psn))
        {
            sb.OnRetransmit(psn, 0, MicroSeconds(round));
            wire.push_back((psn - first) & 0xffffff);
        }
        for (int k = 0; k < 40 && sb.HasRoom() && sent < 3000; ++k, ++sent)
        {
            sb.OnSent(1000, 0, MicroSeconds(round));
            wire.push_back(sent);
        }
        // deliver in random order
        for (size_t i = wire.size(); i > 1; --i)
        {
            std::swap(wire[i - 1], wire[rng() % i]);
        }
        for (uint32_t off : wire)
        {
            if (rng() % 100 < 5)
            {
                continue; // dropped silently
            }
            uint32_t p = (first + off) & 0xffffff;
            MrcRxResult r = rb.OnArrival(p);
            EXPECT_EQ(r.kind == MrcRxArrival::NEW, delivered[off] == 0);
            delivered[off] = 1;
            MrcSethHeader seth;
            rb.FillSeth(seth, p);
            sb.OnSack(seth);
        }
        wire.clear();
        // reference: ePSN = first undelivered offset; ooo = delivered above it
        uint32_t e = 0;
        while (delivered[e])
        {
            ++e;
        }
        uint32_t ooo = 0;
        for (uint32_t o = e; o < sent; ++o)
        {
            ooo += delivered[o];
        }
        ASSERT_EQ(rb.GetExpectedPsn(), (first + e) & 0xffffff);
        ASSERT_EQ(rb.GetOooCount(), ooo);
        ASSERT_EQ(sb.GetUna(), rb.GetExpectedPsn());
        // scoreboard: bytes in flight = records SENT; SACKED only for delivered PSNs
        uint64_t inflight = 0;
        for (uint32_t o = e; o < sent; ++o)
        {
            const MrcPsnRecord* rec = sb.GetRecord((first + o) & 0xffffff);
            ASSERT_NE(rec, nullptr);
            if (rec->state == MrcPsnState::SENT)
            {
                inflight += rec->bytes;
            }
            if (rec->state == MrcPsnState::SACKED)
            {
                ASSERT_EQ(delivered[o], 1);
            }
        }
        ASSERT_EQ(sb.GetBytesInFlight(), inflight);
        // nothing is in the network between rounds: a PSN neither delivered nor queued
        // stays SENT only until the timeout declares it lost
        sb.OnTimeout(MicroSeconds(round + 1000), MicroSeconds(1));
    }
    EXPECT_EQ(sent, 3000u);
    EXPECT_EQ(sb.GetOutstandingPsns(), 0u);
    EXPECT_EQ(rb.GetExpectedPsn(), (first + 3000) & 0xffffff);
}

TEST(MrcSackScoreboard, PathRuleMatchesItsDefinitionAsUnaAdvances)
{
    // The path rule's frontiers are kept as absolute positions (una's advance does not
    // shift them). Whatever una did, after every SACK a first transmission still in flight
    // must be LOST exactly when at least N first transmissions of its own path above it are
    // SACKed, and SENT otherwise. Random spraying over 6 paths (one slow), ~5 % silent
    // drops, lost PSNs retransmitted at once on another path, across the 2^24 wrap.
    std::mt19937 rng(2026);
    const uint32_t first = 0xfffc00;
    const uint32_t n = 3;
    MrcSackScoreboard::Config cfg;
    cfg.reorderPsns = 0; // the plain count rule off: only the path rule
    cfg.pathCount = true;
    cfg.pathReorderPsns = n;
    MrcSackScoreboard sb(cfg, first);
    MrcReceiveBitmap rb(1024, first);
    std::vector<uint8_t> pathOf; // by PSN offset from first: the path of its first send
    std::vector<uint32_t> wire;  // PSN offsets in the network
    uint32_t sent = 0;
    uint64_t lossesSeen = 0;
    uint64_t unaMoves = 0;
    for (int round = 0; round < 400; ++round)
    {
        uint32_t psn;
        while (sb.NextRetransmit(psn))
        {
            sb.OnRetransmit(psn, 0, MicroSeconds(round), 0, 7);
            wire.push_back((psn - first) & 0xffffff);
        }
        for (int k = 0; k < 24 && sb.HasRoom() && sent < 6000; ++k, ++sent)
        {
            const auto path = static_cast<uint8_t>(rng() % 6);
            pathOf.push_back(path);
            sb.OnSent(1000, 0, MicroSeconds(round), 0, path);
            wire.push_back(sent);
        }
        // path 5 is slow: its packets arrive last; the others in random order
        std::shuffle(wire.begin(), wire.end(), rng);
        std::stable_partition(wire.begin(), wire.end(), [&](uint32_t off) {
            return pathOf[off] != 5;
        });
        for (uint32_t off : wire)
        {
            if (rng() % 100 < 5)
            {
                continue; // dropped silently
            }
            const uint32_t p = (first + off) & 0xffffff;
            rb.OnArrival(p);
            MrcSethHeader seth;
            rb.FillSeth(seth, p);
            const uint32_t unaBefore = sb.GetUna();
            lossesSeen += sb.OnSack(seth).lost.size();
            unaMoves += sb.GetUna() != unaBefore ? 1 : 0;
            // the definition, for every PSN in flight (first transmissions only)
            const uint32_t una = (sb.GetUna() - first) & 0xffffff;
            std::vector<uint32_t> above(6, 0); // SACKed first transmissions above, per path
            for (uint32_t o = sent; o-- > una;)
            {
                const MrcPsnRecord* r = sb.GetRecord((first + o) & 0xffffff);
                ASSERT_NE(r, nullptr);
                if (r->retxCount != 0)
                {
                    continue;
                }
                if (r->state == MrcPsnState::SACKED)
                {
                    ++above[pathOf[o]];
                    continue;
                }
                ASSERT_EQ(r->path, pathOf[o]);
                ASSERT_EQ(r->state, above[pathOf[o]] >= n ? MrcPsnState::LOST : MrcPsnState::SENT)
                    << "offset " << o << " path " << unsigned(pathOf[o]) << " una " << una;
            }
        }
        wire.clear();
        // what is still in flight after the round was dropped: the timeout finds it
        sb.OnTimeout(MicroSeconds(round + 1000), MicroSeconds(1));
    }
    EXPECT_EQ(sent, 6000u);
    EXPECT_GT(lossesSeen, 100u); // the rule fired often
    EXPECT_GT(unaMoves, 500u);   // and una moved under it often
}

TEST(MrcSackScoreboard, SleekRecoveryOncePerEpisode)
{
    MrcSackScoreboard sb; // count rule N = 3 stays quiet below
    SendN(sb, 10);
    EXPECT_TRUE(sb.OnSack(0xffffff, 3, 0b11).lost.empty()); // 3, 4: holes 0, 1, 2
    EXPECT_FALSE(sb.InRecovery());
    const MrcSackUpdate& u = sb.StartRecovery(6); // [0, 6): SENT ones are 0, 1, 2, 5
    EXPECT_EQ(Psns(u.lost), (std::vector<uint32_t>{0, 1, 2, 5}));
    EXPECT_EQ(u.lostBytes, 4000u);
    EXPECT_TRUE(sb.InRecovery());
    EXPECT_EQ(sb.GetBytesInFlight(), 4000u);        // 6..9
    EXPECT_TRUE(sb.StartRecovery(10).lost.empty()); // same episode
    uint32_t psn;
    while (sb.NextRetransmit(psn))
    {
        sb.OnRetransmit(psn, 1, MicroSeconds(20));
    }
    sb.OnSack(5, 6, 0);
    EXPECT_TRUE(sb.InRecovery()); // una 6 < recovery point 10
    sb.OnSack(9, 10, 0);
    EXPECT_FALSE(sb.InRecovery());
    EXPECT_TRUE(sb.StartRecovery(10).lost.empty()); // nothing outstanding: no episode
    EXPECT_FALSE(sb.InRecovery());
}

TEST(MrcSackScoreboard, ProbeResponseOffsetIsNotAPsn)
{
    MrcSackScoreboard sb;
    SendN(sb, 8);
    MrcSethHeader seth;
    seth.SetCackPsn(0xffffff);
    seth.SetProbeResponse(true);
    seth.SetProbeId(5); // same bits as ack_psn_offset: would read as ack_psn 4
    seth.SetSackBasePsn(0);
    seth.SetSackBitmap(0b10); // 1
    EXPECT_EQ(Psns(sb.OnSack(seth).acked), std::vector<uint32_t>{1});
    EXPECT_EQ(sb.GetRecord(4)->state, MrcPsnState::SENT);
}

namespace
{

/// Send 1,000-byte PSNs 0.. 1 us apart, PSN i on paths[i], then time out at 100 us with a
/// 99.5 us timeout (only PSN 0, sent at 0, has expired). \return the timeout's update
const MrcSackUpdate&
SendOnPathsAndTimeOut(MrcSackScoreboard& sb, const std::vector<uint32_t>& paths)
{
    for (uint32_t i = 0; i < paths.size(); ++i)
    {
        sb.OnSent(1000, 100 + i, MicroSeconds(i), 0, paths[i]);
    }
    return sb.OnTimeout(MicroSeconds(100), NanoSeconds(99500));
}

} // namespace

TEST(MrcSackScoreboard, TimeoutLosesThePathOfTheTimedOutPsn)
{
    // PSNs 0..5 sent 1 us apart on paths 7, 8, 7, 8, 7, 9. At 100 us with a 99.5 us timeout
    // only PSN 0 (sent at 0) has expired. Without timeoutLosesPath that one PSN is lost;
    // with it, everything still in flight on path 7 (PSNs 2 and 4) goes with it.
    for (bool losePath : {false, true})
    {
        MrcSackScoreboard::Config cfg;
        cfg.timeoutLosesPath = losePath;
        MrcSackScoreboard sb(cfg, 0);
        const MrcSackUpdate& u = SendOnPathsAndTimeOut(sb, {7, 8, 7, 8, 7, 9});
        EXPECT_EQ(Psns(u.lost),
                  losePath ? (std::vector<uint32_t>{0, 2, 4}) : (std::vector<uint32_t>{0}));
        EXPECT_EQ(u.lostBytes, losePath ? 3000u : 1000u);
        EXPECT_EQ(sb.GetBytesInFlight(), losePath ? 3000u : 5000u);
    }
}

TEST(MrcSackScoreboard, TimeoutLosesOnlyItsOwnPathAboveSixtyFour)
{
    // PSN 0 on path 104 times out; PSNs on paths 40 (104 - 64), 168 and 232 (the labels a
    // 64-bit set folds onto the same bit) stay in flight, and the later PSN on path 104 is
    // lost with it. Before the fix the set was one 64-bit word shifted by the label: path
    // 104 shifted by 104, undefined, and on x86 the same bit as path 40.
    MrcSackScoreboard::Config cfg;
    cfg.timeoutLosesPath = true;
    MrcSackScoreboard sb(cfg, 0);
    const MrcSackUpdate& u = SendOnPathsAndTimeOut(sb, {104, 40, 168, 232, 104, 5});
    EXPECT_EQ(Psns(u.lost), (std::vector<uint32_t>{0, 4}));
    EXPECT_EQ(u.lostBytes, 2000u);
    EXPECT_EQ(sb.GetBytesInFlight(), 4000u);
    for (uint32_t psn : {1u, 2u, 3u, 5u})
    {
        EXPECT_EQ(sb.GetRecord(psn)->state, MrcPsnState::SENT) << "PSN " << psn;
    }
}

TEST(MrcSackScoreboard, PathLabelsAboveSixtyFourAreNotFolded)
{
    // 8 planes x 16 T0 uplinks give a QP 128 paths. With 64 labels (before 2026-12-02)
    // path 64 shared label 0, so three SACKed PSNs of path 0 declared a PSN of path 64
    // lost: the path rule read the reordering between two paths as loss.
    MrcSackScoreboard::Config cfg;
    cfg.reorderPsns = 0; // the plain count rule off: only the path rule
    cfg.pathCount = true;
    cfg.pathReorderPsns = 3;
    MrcSackScoreboard sb(cfg, 0);
    sb.OnSent(1000, 1, MicroSeconds(0), 0, 64); // PSN 0 on path 64 (slower)
    for (uint32_t i = 1; i <= 3; ++i)
    {
        sb.OnSent(1000, 1 + i, MicroSeconds(i), 0, 0); // PSNs 1..3 on path 0
    }
    EXPECT_EQ(sb.GetRecord(0)->path, 64u);
    EXPECT_TRUE(sb.OnSack(0xffffff, 1, 0b111).lost.empty());
    EXPECT_EQ(sb.GetRecord(0)->state, MrcPsnState::SENT);
    // three later PSNs of path 64 itself SACKed: now PSN 0 is lost
    for (uint32_t i = 4; i <= 6; ++i)
    {
        sb.OnSent(1000, 1 + i, MicroSeconds(i), 0, 64);
    }
    EXPECT_EQ(Psns(sb.OnSack(0xffffff, 4, 0b111).lost), (std::vector<uint32_t>{0}));
    // the labels fold only beyond MAX_PATHS
    sb.OnSent(1000, 9, MicroSeconds(7), 0, MrcSackScoreboard::MAX_PATHS + 5);
    EXPECT_EQ(sb.GetRecord(7)->path, 5u);
}

TEST(MrcSackScoreboard, BackstopGuardTellsASlowPathFromADeadOne)
{
    // LossRule Path's scoreboard: path rule (3), plane backstop (16), global backstop (96).
    // PSN 0 goes on path 1, then PSNs 1..40 on paths 2..9 of the same plane, 0.1 us apart;
    // these are SACKed at 5 us (largest delay 4.9 us). Without the guard the plane
    // backstop declares PSN 0 lost at once (16 later PSNs of its plane SACKed): the
    // mechanism that retired healthy EVs at full load (validation case 16b). With it PSN
    // 0, out for 5 us, is held back (guard 4.9 us + 2 us margin); when it is SACKed at
    // 6 us it was merely slow. A PSN on a dead path is still found, once older than the
    // guard.
    for (bool guard : {false, true})
    {
        SCOPED_TRACE(guard ? "guard on" : "guard off");
        MrcSackScoreboard::Config cfg;
        cfg.pathCount = true;
        cfg.pathReorderPsns = 3;
        cfg.groupedCount = true;
        cfg.reorderPsns = 16;
        cfg.globalReorderPsns = 96;
        cfg.backstopGuard = guard;
        cfg.guardMargin = MicroSeconds(2);
        MrcSackScoreboard sb(cfg, 0);
        sb.OnSent(1000, 100, MicroSeconds(0), 0, 1);
        for (uint32_t i = 1; i <= 40; ++i)
        {
            sb.OnSent(1000, 100 + i, NanoSeconds(100 * i), 0, 2 + i % 8);
        }
        const uint64_t bits40 = (uint64_t(1) << 40) - 1;
        const MrcSackUpdate& u = sb.OnSack(0xffffff, 1, bits40, MicroSeconds(5));
        if (!guard)
        {
            EXPECT_EQ(Psns(u.lost), (std::vector<uint32_t>{0}));
            continue;
        }
        EXPECT_TRUE(u.lost.empty());
        EXPECT_EQ(sb.GetBackstopGuard(), NanoSeconds(4900) + MicroSeconds(2));
        // slow, not dead: PSN 0 arrives (cumulative point 40)
        const MrcSackUpdate& late = sb.OnSack(40, 41, 0, MicroSeconds(6));
        EXPECT_TRUE(late.lost.empty());
        EXPECT_EQ(late.cumAdvanced, 41u);
        EXPECT_EQ(sb.GetBackstopGuard(), MicroSeconds(6) + MicroSeconds(2));

        // dead path: PSN 41 (path 1, sent at 6 us) never arrives. PSNs 42..61 of other paths,
        // sent from 6.1 us, are SACKed at 10 us: PSN 41 out 4 us < guard 8 us, held. PSNs
        // 62..81, sent from 12 us, are SACKed at 15 us: out 9 us > 8 us, lost.
        sb.OnSent(1000, 200, MicroSeconds(6), 0, 1);
        for (uint32_t i = 42; i <= 81; ++i)
        {
            const Time at = i <= 61 ? MicroSeconds(6) + NanoSeconds(100 * (i - 41))
                                    : MicroSeconds(12) + NanoSeconds(100 * (i - 62));
            sb.OnSent(1000, 200 + i, at, 0, 2 + i % 8);
        }
        const uint64_t bits20 = (uint64_t(1) << 20) - 1;
        EXPECT_TRUE(sb.OnSack(40, 42, bits20, MicroSeconds(10)).lost.empty());
        EXPECT_EQ(sb.GetRecord(41)->state, MrcPsnState::SENT);
        EXPECT_EQ(Psns(sb.OnSack(40, 62, bits20, MicroSeconds(15)).lost),
                  (std::vector<uint32_t>{41}));
        EXPECT_EQ(sb.GetBackstopGuard(), MicroSeconds(8));
    }
}

TEST(MrcSackScoreboard, BackstopGuardHoldsTheGlobalRuleToo)
{
    // the only PSN of plane 1 (PSN 0) and 100 PSNs of plane 0 SACKed 3 us later: the
    // global backstop (96) would declare PSN 0 lost; with the guard it waits until PSN 0
    // has been out longer than the largest delay seen plus the margin
    MrcSackScoreboard::Config cfg;
    cfg.pathCount = true;
    cfg.pathReorderPsns = 3;
    cfg.groupedCount = true;
    cfg.reorderPsns = 16;
    cfg.globalReorderPsns = 96;
    cfg.backstopGuard = true;
    cfg.guardMargin = MicroSeconds(1);
    MrcSackScoreboard sb(cfg, 0);
    sb.OnSent(1000, 1, MicroSeconds(0), 1, 50); // plane 1
    for (uint32_t i = 1; i <= 100; ++i)
    {
        sb.OnSent(1000, 1 + i, NanoSeconds(10 * i), 0, i % 8);
    }
    // PSNs 1..64, then 65..100, SACKed at 3 us: largest delay 2.99 us, guard 3.99 us
    EXPECT_TRUE(sb.OnSack(0xffffff, 1, ~uint64_t(0), MicroSeconds(3)).lost.empty());
    EXPECT_TRUE(sb.OnSack(0xffffff, 65, (uint64_t(1) << 36) - 1, MicroSeconds(3)).lost.empty());
    EXPECT_EQ(sb.GetRecord(0)->state, MrcPsnState::SENT);
    // a SACK at 4 us with nothing new: PSN 0 out 4 us > 3.99 us, 100 later PSNs SACKed
    EXPECT_EQ(Psns(sb.OnSack(0xffffff, 1, 1, MicroSeconds(4)).lost), (std::vector<uint32_t>{0}));
    // without the time of the SACK the guarded rules stay idle
    MrcSackScoreboard sb2(cfg, 0);
    sb2.OnSent(1000, 1, MicroSeconds(0), 1, 50);
    for (uint32_t i = 1; i <= 100; ++i)
    {
        sb2.OnSent(1000, 1 + i, NanoSeconds(10 * i), 0, i % 8);
    }
    sb2.OnSack(0xffffff, 1, ~uint64_t(0));
    EXPECT_TRUE(sb2.OnSack(0xffffff, 65, (uint64_t(1) << 36) - 1).lost.empty());
}

namespace
{
/// LossRule Path's scoreboard with the guard (margin 1 us), PSN 0 on plane 1 at 0 and
/// PSNs 1..100 on plane 0 at 10 ns x PSN, all of plane 0 SACKed at 3 us: largest delay
/// 3 us - 10 ns = 2.99 us, guard 3.99 us; the global backstop (96) holds PSN 0 back.
void
HoldPsnZero(MrcSackScoreboard& sb)
{
    sb.OnSent(1000, 1, MicroSeconds(0), 1, 50); // plane 1
    for (uint32_t i = 1; i <= 100; ++i)
    {
        sb.OnSent(1000, 1 + i, NanoSeconds(10 * i), 0, i % 8);
    }
    EXPECT_TRUE(sb.OnSack(0xffffff, 1, ~uint64_t(0), MicroSeconds(3)).lost.empty());
    EXPECT_TRUE(sb.OnSack(0xffffff, 65, (uint64_t(1) << 36) - 1, MicroSeconds(3)).lost.empty());
}

MrcSackScoreboard::Config
GuardedPathConfig()
{
    MrcSackScoreboard::Config cfg;
    cfg.pathCount = true;
    cfg.pathReorderPsns = 3;
    cfg.groupedCount = true;
    cfg.reorderPsns = 16;
    cfg.globalReorderPsns = 96;
    cfg.backstopGuard = true;
    cfg.guardMargin = MicroSeconds(1);
    return cfg;
}
} // namespace

TEST(MrcSackScoreboard, GuardExpiryFindsATailLossWithoutAnotherSack)
{
    // No SACK comes after 3 us (PSN 0 was the message's tail on a dead path). The held
    // PSN's guard expires at 0 + 3.99 us: the re-check there declares it lost, 258 us
    // before a 262 us timeout would have.
    MrcSackScoreboard sb(GuardedPathConfig(), 0);
    HoldPsnZero(sb);
    EXPECT_EQ(sb.GetBackstopGuard(), NanoSeconds(3990));
    Time at;
    ASSERT_TRUE(sb.GetGuardExpiry(at));
    EXPECT_EQ(at, NanoSeconds(3990));
    // one nanosecond early: still held, same expiry
    EXPECT_TRUE(sb.OnGuardExpiry(NanoSeconds(3989)).lost.empty());
    EXPECT_EQ(sb.GetRecord(0)->state, MrcPsnState::SENT);
    ASSERT_TRUE(sb.GetGuardExpiry(at));
    EXPECT_EQ(at, NanoSeconds(3990));
    // at the expiry: lost, and nothing is held any more
    const MrcSackUpdate& u = sb.OnGuardExpiry(NanoSeconds(3990));
    EXPECT_EQ(Psns(u.lost), (std::vector<uint32_t>{0}));
    EXPECT_EQ(u.lostBytes, 1000u);
    EXPECT_TRUE(u.acked.empty());
    EXPECT_EQ(sb.GetRecord(0)->state, MrcPsnState::LOST);
    EXPECT_FALSE(sb.GetGuardExpiry(at));
    // the timeout (262 us) no longer has anything to find
    EXPECT_TRUE(sb.OnTimeout(MicroSeconds(262), MicroSeconds(262)).lost.empty());
}

TEST(MrcSackScoreboard, GuardExpiryLeavesAPsnSackedInTimeAlone)
{
    // PSN 0 was merely slow: its SACK at 3.5 us (before the 3.99 us expiry) ends the hold,
    // and a re-check at the old expiry (a timer that was not cancelled) finds nothing
    MrcSackScoreboard sb(GuardedPathConfig(), 0);
    HoldPsnZero(sb);
    const MrcSackUpdate& late = sb.OnSack(100, 101, 0, NanoSeconds(3500));
    EXPECT_TRUE(late.lost.empty());
    EXPECT_EQ(late.cumAdvanced, 101u);
    Time at;
    EXPECT_FALSE(sb.GetGuardExpiry(at));
    EXPECT_TRUE(sb.OnGuardExpiry(NanoSeconds(3990)).lost.empty());
    EXPECT_EQ(sb.GetOutstandingPsns(), 0u);
}

TEST(MrcSackScoreboard, GuardExpiryOnlyWhenSomethingIsHeld)
{
    // in-order delivery holds nothing back: no re-check is asked for
    MrcSackScoreboard sb(GuardedPathConfig(), 0);
    for (uint32_t i = 0; i < 200; ++i)
    {
        sb.OnSent(1000, i, NanoSeconds(10 * i), i % 2, i % 8);
    }
    Time at;
    EXPECT_FALSE(sb.GetGuardExpiry(at));
    EXPECT_TRUE(sb.OnSack(99, 100, 0, MicroSeconds(3)).lost.empty());
    EXPECT_FALSE(sb.GetGuardExpiry(at));
    // the guard off: the rules never hold anything, whatever the reordering
    MrcSackScoreboard::Config off = GuardedPathConfig();
    off.backstopGuard = false;
    MrcSackScoreboard sb2(off, 0);
    sb2.OnSent(1000, 1, MicroSeconds(0), 1, 50);
    for (uint32_t i = 1; i <= 100; ++i)
    {
        sb2.OnSent(1000, 1 + i, NanoSeconds(10 * i), 0, i % 8);
    }
    sb2.OnSack(0xffffff, 1, ~uint64_t(0), MicroSeconds(3));
    EXPECT_EQ(Psns(sb2.OnSack(0xffffff, 65, (uint64_t(1) << 36) - 1, MicroSeconds(3)).lost),
              (std::vector<uint32_t>{0})); // at once, without the guard
    EXPECT_FALSE(sb2.GetGuardExpiry(at));
    EXPECT_TRUE(sb2.OnGuardExpiry(MicroSeconds(4)).lost.empty());
    // a plane backstop hold: PSN 0 (plane 0, path 7) and 20 later PSNs of plane 0 on other
    // paths, SACKed 2 us after PSN 0 left: guard = largest delay + 1 us, expiry at
    // 0 + guard
    MrcSackScoreboard sb3(GuardedPathConfig(), 0);
    sb3.OnSent(1000, 0, Time(0), 0, 7);
    for (uint32_t i = 1; i <= 20; ++i)
    {
        sb3.OnSent(1000, i, NanoSeconds(50 * i), 0, i % 7);
    }
    EXPECT_TRUE(sb3.OnSack(0xffffff, 1, (uint64_t(1) << 20) - 1, MicroSeconds(2)).lost.empty());
    // largest delay: PSN 1, 2 us - 50 ns = 1.95 us; guard 2.95 us
    ASSERT_TRUE(sb3.GetGuardExpiry(at));
    EXPECT_EQ(at, NanoSeconds(2950));
    EXPECT_EQ(Psns(sb3.OnGuardExpiry(NanoSeconds(2950)).lost), (std::vector<uint32_t>{0}));
    EXPECT_FALSE(sb3.GetGuardExpiry(at));
}

TEST(MrcSackScoreboard, PathDeliveredAboveTellsALivePathFromADeadOne)
{
    // The dead-carrier rule's evidence: PSN 0 and PSN 3 go on path 1, PSNs 1 and 2 on path 2.
    // While only path 2's PSNs are SACKed, nothing says path 1 delivered after PSN 0; once
    // PSN 3 (path 1, sent later) is SACKed, it did. PSN 3 itself has nothing above it; a PSN
    // outside the window or a retransmitted one gives no evidence; without the path count
    // rule the scoreboard keeps no per-path record and answers false.
    for (bool pathRule : {true, false})
    {
        SCOPED_TRACE(pathRule ? "path rule" : "no path rule");
        MrcSackScoreboard::Config cfg;
        cfg.pathCount = pathRule;
        cfg.pathReorderPsns = 3;
        cfg.groupedCount = true;
        cfg.reorderPsns = 16;
        MrcSackScoreboard sb(cfg, 0);
        sb.OnSent(1000, 1, MicroSeconds(0), 0, 1);
        sb.OnSent(1000, 2, MicroSeconds(1), 0, 2);
        sb.OnSent(1000, 3, MicroSeconds(2), 0, 2);
        sb.OnSent(1000, 4, MicroSeconds(3), 0, 1);
        sb.OnSent(1000, 5, MicroSeconds(4), 0, 1);
        EXPECT_TRUE(sb.OnSack(0xffffff, 1, 0b11).lost.empty()); // PSNs 1, 2 (path 2)
        EXPECT_FALSE(sb.PathDeliveredAbove(0));
        EXPECT_FALSE(sb.PathDeliveredAbove(3));
        EXPECT_TRUE(sb.OnSack(0xffffff, 1, 0b111).lost.empty()); // PSN 3 (path 1) too
        EXPECT_EQ(sb.PathDeliveredAbove(0), pathRule);
        EXPECT_FALSE(sb.PathDeliveredAbove(4)); // nothing of path 1 above PSN 4
        EXPECT_FALSE(sb.PathDeliveredAbove(9)); // not outstanding
        // PSN 0 retransmitted on path 1: its send order is no longer its PSN order
        EXPECT_EQ(sb.OnTimeout(MicroSeconds(300), MicroSeconds(100)).lost.size(), 2u);
        uint32_t psn;
        ASSERT_TRUE(sb.NextRetransmit(psn));
        EXPECT_EQ(psn, 0u);
        sb.OnRetransmit(0, 6, MicroSeconds(301), 0, 1);
        EXPECT_FALSE(sb.PathDeliveredAbove(0));
    }
}

TEST(MrcSackScoreboard, RetxPathRuleFindsALostRetransmission)
{
    // PSNs 0..5 on paths 1 and 2 alternately; PSN 0 is trimmed (NACK) and retransmitted on
    // path 2 at 10 us. Then PSNs 6..8 go on path 2 and are SACKed (with PSNs 1..5): three
    // PSNs sent after the retransmission on its own path arrived, so it is lost. The path
    // rule by position cannot see it (no PSN above 0 counts for a retransmission); without
    // retxPathCount it stays in flight (the timeout or a tail probe finds it).
    for (bool rule : {false, true})
    {
        MrcSackScoreboard::Config cfg;
        cfg.reorderPsns = 0;
        cfg.pathCount = true;
        cfg.pathReorderPsns = 3;
        cfg.retxPathCount = rule;
        MrcSackScoreboard sb(cfg, 0);
        for (uint32_t i = 0; i < 6; ++i)
        {
            sb.OnSent(1000, 100 + i, MicroSeconds(i), 0, 1 + i % 2);
        }
        ASSERT_NE(sb.OnNack(0), nullptr);
        uint32_t psn = 99;
        ASSERT_TRUE(sb.NextRetransmit(psn));
        EXPECT_EQ(psn, 0u);
        sb.OnRetransmit(0, 200, MicroSeconds(10), 0, 2);
        // PSNs 1..5 SACKed (sent before the retransmission): nothing lost
        EXPECT_TRUE(sb.OnSack(0xffffff, 1, 0b11111).lost.empty());
        for (uint32_t i = 6; i < 9; ++i)
        {
            sb.OnSent(1000, 100 + i, MicroSeconds(5 + i), 0, 2); // 11, 12, 13 us
        }
        // two of them SACKed: not yet
        EXPECT_TRUE(sb.OnSack(0xffffff, 6, 0b11).lost.empty());
        const MrcSackUpdate& u = sb.OnSack(0xffffff, 8, 0b1);
        EXPECT_EQ(Psns(u.lost), rule ? (std::vector<uint32_t>{0}) : (std::vector<uint32_t>{}));
        EXPECT_EQ(sb.GetRecord(0)->state, rule ? MrcPsnState::LOST : MrcPsnState::SENT);
    }
}

namespace
{
/// LossRule Path without the guard (path N 3, plane N 4, global N 10), with the
/// retransmission path rule and, if \p backstop, the retransmission backstops. PSNs 0..5 go
/// on plane \p plane0 (paths 1 and 2) at 0..5 us; PSN 0 is NACKed and retransmitted at
/// 10 us on plane \p retxPlane, path 3, a dead path (nothing on it arrives); PSNs 1..5 are
/// SACKed at 12 us.
MrcSackScoreboard
RetxOnADeadPath(bool backstop, bool guard, uint8_t plane0, uint8_t retxPlane)
{
    MrcSackScoreboard::Config cfg;
    cfg.pathCount = true;
    cfg.pathReorderPsns = 3;
    cfg.groupedCount = true;
    cfg.reorderPsns = 4;
    cfg.globalReorderPsns = 10;
    cfg.retxPathCount = true;
    cfg.retxBackstop = backstop;
    cfg.backstopGuard = guard;
    cfg.guardMargin = MicroSeconds(1);
    MrcSackScoreboard sb(cfg, 0);
    for (uint32_t i = 0; i < 6; ++i)
    {
        sb.OnSent(1000, 100 + i, MicroSeconds(i), plane0, 1 + i % 2);
    }
    EXPECT_NE(sb.OnNack(0), nullptr);
    uint32_t psn = 99;
    EXPECT_TRUE(sb.NextRetransmit(psn));
    EXPECT_EQ(psn, 0u);
    sb.OnRetransmit(0, 200, MicroSeconds(10), retxPlane, 3);
    EXPECT_TRUE(sb.OnSack(0xffffff, 1, 0b11111, MicroSeconds(12)).lost.empty());
    return sb;
}
} // namespace

TEST(MrcSackScoreboard, RetxBackstopFindsARetransmissionOnADeadPath)
{
    // PSNs 6..9 sent after the retransmission on its plane (path 1, live) are SACKed one
    // by one at 16 us: the 4th (the plane N) declares it lost; the path rule never does
    // (nothing on path 3 arrives), so without the backstops it stays in flight
    for (bool backstop : {false, true})
    {
        MrcSackScoreboard sb = RetxOnADeadPath(backstop, false, 0, 0);
        for (uint32_t i = 6; i < 10; ++i)
        {
            sb.OnSent(1000, 100 + i, MicroSeconds(5 + i), 0, 1); // 11..14 us
        }
        for (uint32_t psn = 6; psn < 9; ++psn)
        {
            EXPECT_TRUE(sb.OnSack(0xffffff, psn, 0b1, MicroSeconds(16)).lost.empty()) << psn;
        }
        const MrcSackUpdate& u = sb.OnSack(0xffffff, 9, 0b1, MicroSeconds(16));
        EXPECT_EQ(Psns(u.lost), backstop ? (std::vector<uint32_t>{0}) : (std::vector<uint32_t>{}));
        EXPECT_EQ(sb.GetRecord(0)->state, backstop ? MrcPsnState::LOST : MrcPsnState::SENT);
    }
}

TEST(MrcSackScoreboard, RetxWatchEndsWhenItsCopyIsNackedAndANewCopyIsWatched)
{
    // The retransmission of PSN 0 (10 us) is NACKed again before the plane count is
    // reached: the count then reaches 4 without declaring the RETX_PENDING PSN lost (the
    // watch ended with its copy, which the inference knows without reading the record).
    // The next copy (20 us) gets a watch of its own, and 4 later PSNs SACKed on its plane
    // declare it lost.
    MrcSackScoreboard sb = RetxOnADeadPath(true, false, 0, 0);
    for (uint32_t i = 6; i < 10; ++i)
    {
        sb.OnSent(1000, 100 + i, MicroSeconds(5 + i), 0, 1); // 11..14 us
    }
    ASSERT_NE(sb.OnNack(0), nullptr);
    for (uint32_t psn = 6; psn < 10; ++psn)
    {
        EXPECT_TRUE(sb.OnSack(0xffffff, psn, 0b1, MicroSeconds(16)).lost.empty()) << psn;
    }
    EXPECT_EQ(sb.GetRecord(0)->state, MrcPsnState::RETX_PENDING);
    uint32_t psn = 99;
    ASSERT_TRUE(sb.NextRetransmit(psn));
    EXPECT_EQ(psn, 0u);
    sb.OnRetransmit(0, 201, MicroSeconds(20), 0, 3);
    for (uint32_t i = 10; i < 14; ++i)
    {
        sb.OnSent(1000, 100 + i, MicroSeconds(11 + i), 0, 1); // 21..24 us
    }
    for (uint32_t p = 10; p < 13; ++p)
    {
        EXPECT_TRUE(sb.OnSack(0xffffff, p, 0b1, MicroSeconds(26)).lost.empty()) << p;
    }
    EXPECT_EQ(Psns(sb.OnSack(0xffffff, 13, 0b1, MicroSeconds(26)).lost),
              (std::vector<uint32_t>{0}));
    EXPECT_EQ(sb.GetRecord(0)->state, MrcPsnState::LOST);
}

TEST(MrcSackScoreboard, RetxBackstopCountsAllPlanesWithTheGlobalN)
{
    // the retransmission on plane 1, the 10 PSNs after it on plane 0: not its plane, so
    // only the global count (10) finds it, at the 10th and not the 9th
    MrcSackScoreboard sb = RetxOnADeadPath(true, false, 0, 1);
    for (uint32_t i = 6; i < 16; ++i)
    {
        sb.OnSent(1000, 100 + i, MicroSeconds(5 + i), 0, 1); // 11..20 us
    }
    EXPECT_TRUE(sb.OnSack(0xffffff, 6, 0x1ff, MicroSeconds(22)).lost.empty()); // 6..14
    EXPECT_EQ(sb.GetRecord(0)->state, MrcPsnState::SENT);
    EXPECT_EQ(Psns(sb.OnSack(0xffffff, 15, 0b1, MicroSeconds(22)).lost),
              (std::vector<uint32_t>{0}));
}

TEST(MrcSackScoreboard, RetxBackstopWaitsForTheGuardAndIsRecheckedAtItsExpiry)
{
    // with the guard: PSNs 1..5 took 7-11 us, so the guard is 11 + 1 = 12 us; the plane
    // count is reached at 16 us, when the retransmission (sent at 10 us) has been out 6 us:
    // held, re-checked at 10 + 12 = 22 us, lost there and not 1 ns before
    MrcSackScoreboard sb = RetxOnADeadPath(true, true, 0, 0);
    EXPECT_EQ(sb.GetBackstopGuard(), MicroSeconds(12));
    for (uint32_t i = 6; i < 10; ++i)
    {
        sb.OnSent(1000, 100 + i, MicroSeconds(5 + i), 0, 1);
    }
    EXPECT_TRUE(sb.OnSack(0xffffff, 6, 0b1111, MicroSeconds(16)).lost.empty());
    EXPECT_EQ(sb.GetRecord(0)->state, MrcPsnState::SENT);
    Time at;
    ASSERT_TRUE(sb.GetGuardExpiry(at));
    EXPECT_EQ(at, MicroSeconds(22));
    EXPECT_TRUE(sb.OnGuardExpiry(MicroSeconds(22) - NanoSeconds(1)).lost.empty());
    EXPECT_EQ(Psns(sb.OnGuardExpiry(MicroSeconds(22)).lost), (std::vector<uint32_t>{0}));
    EXPECT_EQ(sb.GetRecord(0)->state, MrcPsnState::LOST);
}

TEST(MrcSackScoreboard, RetxPathRuleCountsOnlyTheRetransmissionsPath)
{
    // the same, but PSNs 6..8 go on path 1: the retransmission on path 2 is not overtaken on
    // its own path, so it is not lost
    MrcSackScoreboard::Config cfg;
    cfg.reorderPsns = 0;
    cfg.pathCount = true;
    cfg.pathReorderPsns = 3;
    cfg.retxPathCount = true;
    MrcSackScoreboard sb(cfg, 0);
    for (uint32_t i = 0; i < 6; ++i)
    {
        sb.OnSent(1000, 100 + i, MicroSeconds(i), 0, 1 + i % 2);
    }
    ASSERT_NE(sb.OnNack(0), nullptr);
    sb.OnRetransmit(0, 200, MicroSeconds(10), 0, 2);
    for (uint32_t i = 6; i < 9; ++i)
    {
        sb.OnSent(1000, 100 + i, MicroSeconds(5 + i), 0, 1);
    }
    EXPECT_TRUE(sb.OnSack(0xffffff, 1, 0xff).lost.empty());
    EXPECT_EQ(sb.GetRecord(0)->state, MrcPsnState::SENT);
    // the retransmission itself is SACKed: the watch ends without a loss
    EXPECT_TRUE(sb.OnSack(0xffffff, 0, 0b1).lost.empty());
    EXPECT_EQ(sb.GetRecord(0)->state, MrcPsnState::SACKED);
    EXPECT_TRUE(sb.OnSack(8, 9, 0).lost.empty());
    EXPECT_EQ(sb.GetUna(), 9u);
}

TEST(MrcSackScoreboard, PerPathArraysOnlyWithThePathCountRule)
{
    // The path count rule (MRC's) keeps a frontier and a threshold for each of MAX_PATHS
    // paths, 256 x (8 + 4) = 3,072 bytes; a scoreboard without it (UEC's) holds none: in
    // a 128-host UEC all-to-all that is 32,512 queue pair ends (session 48: 496 -> 400 MB).
    MrcEndTimeRecords(); // ns-3 records every Time made before the first run
    // per scoreboard, of 256 kept at once (malloc's per-thread cache keeps a few freed
    // blocks counted as in use, which would blur the figure of one)
    auto heapOf = [](const MrcSackScoreboard::Config& c) {
        std::vector<std::unique_ptr<MrcSackScoreboard>> v;
        v.reserve(256);
        const double before = MrcTest::HeapBytesInUse();
        for (int i = 0; i < 256; ++i)
        {
            v.push_back(std::make_unique<MrcSackScoreboard>(c, 5));
        }
        return (MrcTest::HeapBytesInUse() - before) / 256;
    };
    MrcSackScoreboard::Config plain;
    MrcSackScoreboard::Config path = plain;
    path.pathCount = true;
    const double withoutRule = heapOf(plain);
    const double withRule = heapOf(path);
    if (withoutRule > 0)
    {
        std::cout << "heap bytes of a scoreboard: " << withoutRule << " without the path rule, "
                  << withRule << " with it (sizeof " << sizeof(MrcSackScoreboard) << ")"
                  << std::endl;
        EXPECT_GE(withRule - withoutRule, 256.0 * 12 - 64); // within a few freed blocks
        EXPECT_LT(withoutRule, sizeof(MrcSackScoreboard) + 1024.0);
        EXPECT_LT(sizeof(MrcSackScoreboard), 1024u);
    }
    // (the rule itself, with its arrays: PathRuleMatchesItsDefinitionAsUnaAdvances and the
    // path tests after it)
}
