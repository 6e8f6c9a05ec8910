/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of MrcClassScheduler on its own (no device, no simulator): strict priority
// order, DWRR byte shares against hand-computed rounds, paused classes, the backlog
// mask, the queue limit and the flush.

#include "ns3/mrc-class-scheduler.h"
#include "ns3/packet.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <map>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/// A scheduler with the given discipline, weights and quantum.
Ptr<MrcClassScheduler>
Scheduler(const std::string& name,
          const std::string& weights = MrcClassScheduler::DEFAULT_WEIGHTS,
          uint32_t quantum = MrcClassScheduler::DEFAULT_QUANTUM)
{
    Ptr<MrcClassScheduler> s = CreateObject<MrcClassScheduler>();
    s->SetAttribute("Scheduler", StringValue(name));
    s->SetAttribute("DwrrWeights", StringValue(weights));
    s->SetAttribute("DwrrQuantum", UintegerValue(quantum));
    return s;
}

/// Queue n frames of the given size on a class; all must fit.
void
Fill(Ptr<MrcClassScheduler> s, uint8_t cls, uint32_t n, uint32_t bytes)
{
    for (uint32_t i = 0; i < n; ++i)
    {
        ASSERT_TRUE(s->Enqueue(Create<Packet>(bytes), cls));
    }
}

/// Dequeue up to n frames; return their classes in order (stops at the first null).
std::vector<uint8_t>
Drain(Ptr<MrcClassScheduler> s, uint32_t n)
{
    std::vector<uint8_t> order;
    for (uint32_t i = 0; i < n; ++i)
    {
        uint8_t cls = 0;
        Ptr<Packet> p = s->Dequeue(cls);
        if (!p)
        {
            EXPECT_EQ(cls, MrcClassScheduler::NO_CLASS);
            break;
        }
        s->CountSent(cls, p->GetSize());
        order.push_back(cls);
    }
    return order;
}

} // namespace

TEST(MrcClassScheduler, DefaultsMatchTheDeviceAttributes)
{
    Ptr<MrcClassScheduler> s = CreateObject<MrcClassScheduler>();
    EXPECT_EQ(s->GetScheduler(), "StrictPriority");
    EXPECT_FALSE(s->IsDwrr());
    EXPECT_EQ(s->GetDwrrWeights(), "1,1,1,1,1,1,1,1");
    EXPECT_EQ(s->GetDwrrQuantum(), 9216u);
    EXPECT_EQ(s->GetQueueLimit(), 32u * 1024 * 1024);
    EXPECT_EQ(s->GetBacklogMask(), 0);
    EXPECT_EQ(s->GetPausedMask(), 0);
    s->SetDwrrWeights(" 4, 0 ,1,1,1,1,1, 2 ");
    EXPECT_EQ(s->GetDwrrWeights(), "4,0,1,1,1,1,1,2");
    EXPECT_EQ(s->GetDwrrWeight(0), 4u);
    EXPECT_EQ(s->GetDwrrWeight(1), 0u);
    EXPECT_EQ(s->GetDwrrWeight(7), 2u);
}

TEST(MrcClassScheduler, StrictPriorityServesTheHighestClassFirstAndFifoWithin)
{
    Ptr<MrcClassScheduler> s = Scheduler("StrictPriority");
    std::map<const Packet*, int> id;
    const std::vector<std::pair<uint8_t, int>> input =
        {{1, 1}, {7, 2}, {3, 3}, {1, 4}, {0, 5}, {7, 6}};
    for (const auto& [cls, n] : input)
    {
        Ptr<Packet> p = Create<Packet>(100 * n);
        id[PeekPointer(p)] = n;
        ASSERT_TRUE(s->Enqueue(p, cls));
    }
    EXPECT_EQ(s->GetBacklogMask(), 0b10001011);
    std::vector<int> order;
    std::vector<uint8_t> masks;
    uint8_t cls = 0;
    while (Ptr<Packet> p = s->Dequeue(cls))
    {
        order.push_back(id[PeekPointer(p)]);
        masks.push_back(s->GetBacklogMask());
    }
    EXPECT_EQ(cls, MrcClassScheduler::NO_CLASS);
    EXPECT_EQ(order, (std::vector<int>{2, 6, 3, 1, 4, 5}));
    EXPECT_EQ(
        masks,
        (std::vector<uint8_t>{0b10001011, 0b00001011, 0b00000011, 0b00000011, 0b00000001, 0}));
    EXPECT_EQ(s->GetTotalQueueBytes(), 0u);
}

TEST(MrcClassScheduler, QueueBytesPacketsAndTheLimit)
{
    Ptr<MrcClassScheduler> s = Scheduler("StrictPriority");
    s->SetAttribute("QueueLimit", UintegerValue(2500));
    EXPECT_TRUE(s->Enqueue(Create<Packet>(1000), 2));
    EXPECT_TRUE(s->Enqueue(Create<Packet>(1500), 2)); // exactly the limit: fits
    EXPECT_FALSE(s->Enqueue(Create<Packet>(1), 2));   // one byte over: refused
    EXPECT_TRUE(s->Enqueue(Create<Packet>(2500), 5)); // the limit is per class
    EXPECT_EQ(s->GetQueueBytes(2), 2500u);
    EXPECT_EQ(s->GetQueuePackets(2), 2u);
    EXPECT_EQ(s->GetQueueBytes(5), 2500u);
    EXPECT_EQ(s->GetQueuePackets(5), 1u);
    EXPECT_EQ(s->GetTotalQueueBytes(), 5000u);
    EXPECT_EQ(s->GetBacklogMask(), 0b00100100);
    EXPECT_EQ(Drain(s, 10), (std::vector<uint8_t>{5, 2, 2}));
    EXPECT_EQ(s->GetSentPackets(2), 2u);
    EXPECT_EQ(s->GetSentBytes(2), 2500u);
    EXPECT_EQ(s->GetSentPackets(5), 1u);
    EXPECT_EQ(s->GetSentBytes(5), 2500u);
    EXPECT_EQ(s->GetSentPackets(0), 0u);
}

TEST(MrcClassScheduler, RemoveLastTakesTheNewestFrameOfItsClass)
{
    // A switch trimming the newest queued packet (MrcTrimmer::TrimVictim) takes it back.
    Ptr<MrcClassScheduler> s = Scheduler("Dwrr");
    Ptr<Packet> a = Create<Packet>(100);
    Ptr<Packet> b = Create<Packet>(200);
    Ptr<Packet> c = Create<Packet>(300);
    ASSERT_TRUE(s->Enqueue(a, 1));
    ASSERT_TRUE(s->Enqueue(b, 1));
    ASSERT_TRUE(s->Enqueue(c, 4));
    EXPECT_EQ(s->RemoveLast(2), nullptr); // empty class
    EXPECT_EQ(s->RemoveLast(1), b);       // the newest of class 1, not its head
    EXPECT_EQ(s->GetQueueBytes(1), 100u);
    EXPECT_EQ(s->GetQueuePackets(1), 1u);
    EXPECT_EQ(s->GetBacklogMask(), 0b00010010);
    EXPECT_EQ(s->RemoveLast(4), c);
    EXPECT_EQ(s->GetBacklogMask(), 0b00000010); // emptied class 4 leaves the mask
    EXPECT_EQ(s->GetDeficit(4), 0u);
    uint8_t cls = 0;
    EXPECT_EQ(s->Dequeue(cls), a);
    EXPECT_EQ(cls, 1);
    EXPECT_EQ(s->Dequeue(cls), nullptr);
    EXPECT_EQ(s->GetTotalQueueBytes(), 0u);
    EXPECT_EQ(s->GetSentPackets(1), 0u); // removed frames are not counted as sent
}

TEST(MrcClassScheduler, DwrrSharesBytesByWeightWithCarriedCredit)
{
    // Quantum 1000 B; class 1 weight 1 (700-byte frames), class 3 weight 2 (900-byte
    // frames). By hand, the credit left after each visit carries to the next round:
    //   round 1: c1 1000 -> 700 (300 left);       c3 2000 -> 900, 900 (200 left)
    //   round 2: c1 1300 -> 700 (600);            c3 2200 -> 900, 900 (400)
    //   round 3: c1 1600 -> 700, 700 (200);       c3 2400 -> 900, 900 (600)
    //   round 4: c1 1200 -> 700 (500);            c3 2600 -> 900, 900 (800)
    Ptr<MrcClassScheduler> s = Scheduler("Dwrr", "1,1,1,2,1,1,1,1", 1000);
    Fill(s, 1, 10, 700);
    Fill(s, 3, 10, 900);
    EXPECT_EQ(Drain(s, 13), (std::vector<uint8_t>{1, 3, 3, 1, 3, 3, 1, 1, 3, 3, 1, 3, 3}));
    EXPECT_EQ(s->GetSentBytes(1), 5u * 700);
    EXPECT_EQ(s->GetSentBytes(3), 8u * 900);
    EXPECT_EQ(s->GetDeficit(1), 500u);
    EXPECT_EQ(s->GetDeficit(3), 800u);
    EXPECT_EQ(s->GetQueuePackets(1), 5u);
    EXPECT_EQ(s->GetQueuePackets(3), 2u);
}

TEST(MrcClassScheduler, DwrrLongRunSharesFollowTheWeights)
{
    // Equal 500-byte frames, weights 1 and 3, quantum 1000: each round sends 2 frames of
    // class 2 and 6 of class 5, so 80 dequeues are 10 rounds: 10000 B and 30000 B.
    Ptr<MrcClassScheduler> s = Scheduler("Dwrr", "1,1,1,1,1,3,1,1", 1000);
    Fill(s, 2, 50, 500);
    Fill(s, 5, 100, 500);
    EXPECT_EQ(Drain(s, 80).size(), 80u);
    EXPECT_EQ(s->GetSentBytes(2), 10000u);
    EXPECT_EQ(s->GetSentBytes(5), 30000u);
}

TEST(MrcClassScheduler, DwrrServesZeroWeightClassesFirstInStrictPriority)
{
    Ptr<MrcClassScheduler> s = Scheduler("Dwrr", "1,0,1,1,1,1,0,1", 1000);
    Fill(s, 4, 3, 500);
    Fill(s, 1, 2, 500);
    Fill(s, 6, 1, 500);
    // 6 and 1 (weight 0) in strict priority first, then the weighted class 4.
    EXPECT_EQ(Drain(s, 10), (std::vector<uint8_t>{6, 1, 1, 4, 4, 4}));
}

TEST(MrcClassScheduler, StrictPrioritySkipsAPausedClass)
{
    Ptr<MrcClassScheduler> s = Scheduler("StrictPriority");
    Fill(s, 7, 2, 100);
    Fill(s, 2, 1, 100);
    s->SetClassPaused(7, true);
    EXPECT_TRUE(s->IsClassPaused(7));
    EXPECT_EQ(s->GetPausedMask(), 0x80);
    EXPECT_EQ(Drain(s, 1), (std::vector<uint8_t>{2}));
    // Only the paused class has frames: nothing is ready, and nothing is lost.
    uint8_t cls = 0;
    EXPECT_FALSE(s->Dequeue(cls));
    EXPECT_EQ(cls, MrcClassScheduler::NO_CLASS);
    EXPECT_EQ(s->GetQueuePackets(7), 2u);
    EXPECT_EQ(s->GetBacklogMask(), 0x80);
    s->SetClassPaused(7, false);
    EXPECT_EQ(s->GetPausedMask(), 0);
    EXPECT_EQ(Drain(s, 10), (std::vector<uint8_t>{7, 7}));
}

TEST(MrcClassScheduler, DwrrPausedClassKeepsItsCredit)
{
    // Quantum 1000, 600-byte frames, weights 1 on classes 1 and 2 (by hand):
    //   d1: c1 1000 -> serve (400 left); then c1 is paused
    //   d2: c1 skipped, keeps 400; c2 1000 -> serve (400)
    //   d3: c2 600 > 400: on; c1 skipped; c2 1400 -> serve (800)
    //   d4: c2 -> serve (200); c1 still holds 400; c1 resumes
    //   d5: c2 600 > 200: on; c1 1400 -> serve (800)
    //   d6: c1 -> serve; c1 empty: credit 0
    //   d7: c2 200 + 1000 -> serve its last frame
    Ptr<MrcClassScheduler> s = Scheduler("Dwrr", "1,1,1,1,1,1,1,1", 1000);
    Fill(s, 1, 3, 600);
    Fill(s, 2, 4, 600);
    EXPECT_EQ(Drain(s, 1), (std::vector<uint8_t>{1}));
    EXPECT_EQ(s->GetDeficit(1), 400u);
    s->SetClassPaused(1, true);
    EXPECT_EQ(Drain(s, 3), (std::vector<uint8_t>{2, 2, 2}));
    EXPECT_EQ(s->GetDeficit(1), 400u);
    EXPECT_EQ(s->GetDeficit(2), 200u);
    s->SetClassPaused(1, false);
    EXPECT_EQ(Drain(s, 10), (std::vector<uint8_t>{1, 1, 2}));
    EXPECT_EQ(s->GetDeficit(1), 0u);
    EXPECT_EQ(s->GetDeficit(2), 0u);
    EXPECT_EQ(s->GetBacklogMask(), 0);
}

TEST(MrcClassScheduler, AllClassesPausedGivesNothing)
{
    for (const char* name : {"StrictPriority", "Dwrr"})
    {
        Ptr<MrcClassScheduler> s = Scheduler(name);
        for (uint8_t c = 0; c < 8; ++c)
        {
            Fill(s, c, 1, 64);
            s->SetClassPaused(c, true);
        }
        EXPECT_EQ(s->GetPausedMask(), 0xff) << name;
        EXPECT_TRUE(Drain(s, 1).empty()) << name;
        s->SetClassPaused(4, false);
        EXPECT_EQ(Drain(s, 8), (std::vector<uint8_t>{4})) << name;
    }
}

TEST(MrcClassScheduler, FlushDropsClassZeroFirstAndResetsCredit)
{
    Ptr<MrcClassScheduler> s = Scheduler("Dwrr", "1,1,1,1,1,1,1,1", 1000);
    Fill(s, 6, 2, 300);
    Fill(s, 0, 1, 200);
    EXPECT_EQ(Drain(s, 1), (std::vector<uint8_t>{0})); // pointer at 0: class 0 first
    Fill(s, 0, 1, 100);
    s->SetClassPaused(6, true);
    std::vector<uint32_t> dropped;
    std::vector<uint8_t> classes;
    s->Flush([&](const Ptr<Packet>& p, uint8_t cls, uint64_t tag) {
        dropped.push_back(p->GetSize());
        classes.push_back(cls);
        EXPECT_EQ(tag, 0u); // Fill gives none
    });
    EXPECT_EQ(dropped, (std::vector<uint32_t>{100, 300, 300}));
    EXPECT_EQ(classes, (std::vector<uint8_t>{0, 6, 6}));
    EXPECT_EQ(s->GetBacklogMask(), 0);
    EXPECT_EQ(s->GetTotalQueueBytes(), 0u);
    for (uint8_t c = 0; c < 8; ++c)
    {
        EXPECT_EQ(s->GetDeficit(c), 0u);
    }
    // A flush leaves the pauses to their owner.
    EXPECT_TRUE(s->IsClassPaused(6));
}

TEST(MrcClassScheduler, TagsTravelWithTheirFrames)
{
    // An owner's tag stays with its frame through every way out of the queue: the
    // scheduler's order, RemoveLast, PeekLastTag and Flush (a switch keeps its buffer
    // accounting there).
    Ptr<MrcClassScheduler> s = Scheduler("StrictPriority", "1,1,1,1,1,1,1,1", 1000);
    const uint64_t big = 0x06dcba9876543210ull; // the largest tags use 59 bits
    ASSERT_TRUE(s->Enqueue(Create<Packet>(100), 2, 21));
    ASSERT_TRUE(s->Enqueue(Create<Packet>(200), 2, 22));
    ASSERT_TRUE(s->Enqueue(Create<Packet>(300), 5, big));
    ASSERT_TRUE(s->Enqueue(Create<Packet>(400), 2)); // no tag: 0
    uint64_t tag = 1;
    EXPECT_FALSE(s->PeekLastTag(0, tag));
    EXPECT_EQ(tag, 1u); // untouched
    ASSERT_TRUE(s->PeekLastTag(2, tag));
    EXPECT_EQ(tag, 0u);
    uint8_t cls;
    Ptr<Packet> p = s->Dequeue(cls, tag); // class 5 first (strict priority)
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(cls, 5);
    EXPECT_EQ(p->GetSize(), 300u);
    EXPECT_EQ(tag, big);
    p = s->RemoveLast(2); // the newest of class 2, untagged
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->GetSize(), 400u);
    ASSERT_TRUE(s->PeekLastTag(2, tag));
    EXPECT_EQ(tag, 22u);
    p = s->Dequeue(cls, tag);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->GetSize(), 100u);
    EXPECT_EQ(tag, 21u);
    std::vector<std::pair<uint32_t, uint64_t>> flushed;
    ASSERT_TRUE(s->Enqueue(Create<Packet>(50), 0, 7));
    s->Flush([&](const Ptr<Packet>& f, uint8_t c, uint64_t t) {
        flushed.emplace_back(f->GetSize() * 10 + c, t);
    });
    EXPECT_EQ(flushed, (std::vector<std::pair<uint32_t, uint64_t>>{{500, 7}, {2002, 22}}));
    EXPECT_EQ(s->GetTotalQueueBytes(), 0u);
}

TEST(MrcClassScheduler, UnwrittenHeadersCountAndComeBackWithTheirFramesAndTags)
{
    // A frame whose 14-byte Ethernet header is not written yet counts it in every size
    // (queue bytes, the limit, DWRR credit) and comes back flagged, its tag intact; the IPv6
    // edits a frame carries (mrc-unwritten.h) come back too and count no bytes.
    Ptr<MrcClassScheduler> s = Scheduler("Dwrr", "1,1,1,1,1,1,1,1", 314);
    s->SetQueueLimit(1000);
    const uint64_t top = 0x07ffffffffffffffull;
    const uint8_t shifted = MrcUnwrittenWithEdits(MRC_UNWRITTEN_MAX_EDITS); // 0x1f
    ASSERT_TRUE(s->Enqueue(Create<Packet>(300), 1, top, shifted));
    ASSERT_TRUE(s->Enqueue(Create<Packet>(300), 1, 5, MRC_UNWRITTEN_NONE));
    EXPECT_EQ(s->GetQueueBytes(1), 314u + 300);
    ASSERT_TRUE(s->Enqueue(Create<Packet>(372), 1, 6, MrcUnwrittenWithEdits(2))); // 1000
    EXPECT_EQ(s->GetQueueBytes(1), 1000u);
    EXPECT_FALSE(s->Enqueue(Create<Packet>(1), 1, 0, MRC_UNWRITTEN_NONE)); // one over
    ASSERT_TRUE(s->Enqueue(Create<Packet>(300), 2, 9, MRC_UNWRITTEN_HEADER));
    // DWRR: class 1's 314-byte credit sends the 314-byte frame (packet 300), no more.
    uint8_t cls;
    uint64_t tag;
    uint8_t unwritten = 0xff;
    Ptr<Packet> p = s->Dequeue(cls, tag, unwritten);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(cls, 1);
    EXPECT_EQ(tag, top);
    EXPECT_EQ(unwritten, 0x1f);
    EXPECT_EQ(MrcUnwrittenEdits(unwritten), 15);
    EXPECT_EQ(p->GetSize(), 300u);
    EXPECT_EQ(s->GetDeficit(1), 0u);
    p = s->Dequeue(cls, tag, unwritten); // class 2's turn
    EXPECT_EQ(cls, 2);
    EXPECT_EQ(tag, 9u);
    EXPECT_EQ(unwritten, MRC_UNWRITTEN_HEADER);
    p = s->RemoveLast(1, unwritten);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->GetSize(), 372u);
    EXPECT_EQ(unwritten, 0x05); // the header and 2 shifts
    EXPECT_EQ(s->GetQueueBytes(1), 300u);
    ASSERT_TRUE(s->PeekLastTag(1, tag));
    EXPECT_EQ(tag, 5u);
    ASSERT_TRUE(s->Enqueue(Create<Packet>(40), 0, 3, MrcUnwrittenWithEdits(1)));
    std::vector<std::tuple<uint32_t, uint64_t, int>> flushed;
    s->Flush([&](const Ptr<Packet>& f, uint8_t c, uint64_t t, uint8_t u) {
        flushed.emplace_back(f->GetSize() * 10 + c, t, u);
    });
    EXPECT_EQ(flushed,
              (std::vector<std::tuple<uint32_t, uint64_t, int>>{{400, 3, 3}, {3001, 5, 0}}));
    EXPECT_EQ(s->GetTotalQueueBytes(), 0u);
}

TEST(MrcClassSchedulerDeathTest, BadConfigurationAborts)
{
    Ptr<MrcClassScheduler> s = CreateObject<MrcClassScheduler>();
    EXPECT_DEATH(s->SetAttribute("Scheduler", StringValue("Fifo")),
                 "Scheduler \"Fifo\" is unknown");
    EXPECT_DEATH(s->SetDwrrWeights("1,1,1"), "has 3 entries: exactly 8");
    EXPECT_DEATH(s->SetDwrrWeights("1,1,1,1,1,1,1,-1"), "weight \"-1\" of class 7");
    EXPECT_DEATH(s->GetQueueBytes(8), "class 8 is out of range");
    ASSERT_TRUE(s->Enqueue(Create<Packet>(3000), 4));
    EXPECT_DEATH(s->SetQueueLimit(2999), "QueueLimit 2999 is below the 3000 bytes now queued");
    EXPECT_DEATH(s->Enqueue(Create<Packet>(10), 1, 1ULL << 59),
                 "tag 576460752303423488 uses bits 59-63; allowed 0..576460752303423487");
    s->Dispose();
}
