/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the UEC entropy (EV) path selectors: hand-computed EV sequences for each strategy
// from a scripted random source, penalty states, REPS recycling and freezing, mixed
// switching, single-path constancy and determinism by stream.

#include "ns3/boolean.h"
#include "ns3/mrc-entropy.h"
#include "ns3/mrc-uec-path-selector.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

/**
 * A random source that returns a fixed script of integers, so that every EV can be computed
 * by hand. Reading past the end throws (a test then fails), which also checks how many draws
 * a strategy makes.
 */
class ScriptRv : public RandomVariableStream
{
  public:
    /// \param v the values GetInteger() returns, in order
    explicit ScriptRv(std::vector<uint32_t> v)
        : m_v(std::move(v))
    {
    }

    double GetValue() override
    {
        return GetInteger();
    }

    uint32_t GetInteger() override
    {
        return m_v.at(m_next++);
    }

    /// \return draws made so far
    size_t Used() const
    {
        return m_next;
    }

  private:
    std::vector<uint32_t> m_v; //!< the script
    size_t m_next{0};          //!< next index
};

/// \return a selector of type T with P paths and the scripted random source rv
template <typename T>
Ptr<T>
Make(uint32_t paths, Ptr<ScriptRv> rv)
{
    Ptr<T> s = CreateObject<T>();
    s->SetAttribute("PathCount", UintegerValue(paths));
    s->SetRandomVariable(rv);
    return s;
}

/// \return the next n EVs of s
std::vector<uint16_t>
Take(Ptr<MrcUecPathSelector> s, size_t n)
{
    std::vector<uint16_t> v;
    for (size_t i = 0; i < n; ++i)
    {
        v.push_back(s->NextEv());
    }
    return v;
}

/// Advance the simulation clock by d (no events besides the stop).
void
AdvanceClock(Time d)
{
    Simulator::Stop(d);
    Simulator::Run();
}

} // namespace

// ------------------------------------------------------------------ oblivious

TEST(MrcUecPath, ObliviousHandSequence)
{
    // P = 8, mask 7. Draws in order: U = 0xABCD -> upper bits 0xABCD & ~7 = 0xABC8;
    // r = 3; after the 8th packet r is redrawn: 13 & 7 = 5; after the 16th: 0.
    // Packets 1..8: (i ^ 3) for i = 0..7 = 3,2,1,0,7,6,5,4 (| 0xABC8).
    // Packets 9..16: (i ^ 5) = 5,4,7,6,1,0,3,2.
    auto rv = CreateObject<ScriptRv>(std::vector<uint32_t>{0xABCD, 3, 13, 0});
    auto s = Make<MrcUecObliviousSpray>(8, rv);
    std::vector<uint16_t> expect{0xABCB,
                                 0xABCA,
                                 0xABC9,
                                 0xABC8,
                                 0xABCF,
                                 0xABCE,
                                 0xABCD,
                                 0xABCC,
                                 0xABCD,
                                 0xABCC,
                                 0xABCF,
                                 0xABCE,
                                 0xABC9,
                                 0xABC8,
                                 0xABCB,
                                 0xABCA};
    // Feedback of every kind is ignored.
    s->OnNack(0xABCB);
    s->OnTimeout(0xABCA);
    s->OnAck(0xABC9, true);
    EXPECT_EQ(Take(s, 16), expect);
    EXPECT_EQ(rv->Used(), 4u); // U, r0, r1 (after packet 8), r2 (after packet 16)
    // The EV goes into the UDP source port unchanged (flow label bits 0).
    MrcEvWire w = MrcEvEncode(expect[0], MrcEvSplit::SRC_PORT_LOW);
    EXPECT_EQ(w.udpSrcPort, 0xABCB);
    EXPECT_EQ(w.flowLabel, 0u);
}

TEST(MrcUecPath, ObliviousCyclesArePermutations)
{
    // With the real uniform source every aligned block of P EVs uses each low value once and
    // keeps the same upper bits.
    Ptr<MrcUecObliviousSpray> s = CreateObject<MrcUecObliviousSpray>();
    s->AssignStreams(11);
    EXPECT_EQ(s->GetPathCount(), 64u);
    uint16_t upper = 0;
    for (int cycle = 0; cycle < 5; ++cycle)
    {
        std::set<uint16_t> low;
        for (int k = 0; k < 64; ++k)
        {
            uint16_t ev = s->NextEv();
            if (cycle == 0 && k == 0)
            {
                upper = ev & ~63;
            }
            EXPECT_EQ(ev & ~63, upper);
            low.insert(ev & 63);
        }
        EXPECT_EQ(low.size(), 64u);
    }
}

// ------------------------------------------------------------------ bitmap

TEST(MrcUecPath, BitmapPenaltyState)
{
    auto rv = CreateObject<ScriptRv>(std::vector<uint32_t>{});
    auto s = Make<MrcUecBitmapSelector>(8, rv);
    // Penalties are kept per path index EV & 7: 0xABC9 and 0x0001 are the same path.
    s->OnAck(0xABC9, true); // ECN +1 -> 1
    EXPECT_EQ(s->GetPenalty(1), 1);
    s->OnAck(0x0001, true); // ECN +1 -> 2
    EXPECT_EQ(s->GetPenalty(0xABC9), 2);
    s->OnNack(0x0009); // NACK +4 -> 6
    EXPECT_EQ(s->GetPenalty(1), 6);
    s->OnAck(1, false); // GOOD +0
    EXPECT_EQ(s->GetPenalty(1), 6);
    s->OnTimeout(1); // TIMEOUT +15 -> 21, capped at 15
    EXPECT_EQ(s->GetPenalty(1), 15);
    s->OnNack(1); // stays at the cap
    EXPECT_EQ(s->GetPenalty(1), 15);
    s->OnLoss(6); // inferred loss counts as TIMEOUT
    EXPECT_EQ(s->GetPenalty(6), 15);
    s->OnNack(3);
    s->OnNack(3);
    s->OnNack(3);
    s->OnNack(3); // 4 * 4 = 16 -> 15
    EXPECT_EQ(s->GetPenalty(3), 15);
    s->OnAck(2, false);
    EXPECT_EQ(s->GetPenalty(2), 0);
    EXPECT_EQ(s->GetPenalisedCount(), 3u); // paths 1, 3, 6
    EXPECT_EQ(rv->Used(), 0u);             // feedback draws nothing
}

TEST(MrcUecPath, BitmapSkipsPenalisedPaths)
{
    // P = 8, U = 0, every r = 0: the unpenalised order is 0,1,...,7,0,1,...
    // Path 2 gets a NACK (penalty 4), path 3 an ECN (penalty 1).
    // Packet 3: candidate 2 is penalised -> it is skipped and pays 1 back (4 -> 3); candidate
    // 3 is penalised too but only the first skipped candidate pays -> stays 1; candidate 4 is
    // clean -> EV 4. Packets 4..6: 5, 6, 7 (r redrawn, 0). Packets 7, 8: 0, 1.
    // Packet 9: again 2 skipped (3 -> 2), 3 skipped (stays 1) -> 4.
    auto rv = CreateObject<ScriptRv>(std::vector<uint32_t>{0, 0, 0, 0});
    auto s = Make<MrcUecBitmapSelector>(8, rv);
    s->OnNack(2);
    s->OnAck(3, true);
    std::vector<uint16_t> expect{0, 1, 4, 5, 6, 7, 0, 1, 4, 5};
    EXPECT_EQ(Take(s, 10), expect);
    EXPECT_EQ(s->GetPenalty(2), 2);
    EXPECT_EQ(s->GetPenalty(3), 1);
    EXPECT_EQ(s->GetPenalisedCount(), 2u);
    EXPECT_EQ(rv->Used(), 3u); // U, r0, r1 (after the 6th packet)
}

TEST(MrcUecPath, BitmapAllPenalised)
{
    // P = 4, all four paths time out (penalty 15). Packet 1: candidate 0 pays 1 (-> 14), then
    // candidates 1, 2, 3, and 0 again (after the wrap, r redrawn = 0) are examined; the 5th
    // candidate exceeds P, so the walk stops and uses it: EV 0. Packet 2 starts at 1: 1 pays
    // (-> 14), 2, 3, 0, 1 examined -> EV 1.
    auto rv = CreateObject<ScriptRv>(std::vector<uint32_t>{0, 0, 0, 0});
    auto s = Make<MrcUecBitmapSelector>(4, rv);
    for (uint16_t p = 0; p < 4; ++p)
    {
        s->OnTimeout(p);
    }
    EXPECT_EQ(s->GetPenalisedCount(), 4u);
    EXPECT_EQ(s->NextEv(), 0);
    EXPECT_EQ(s->GetPenalty(0), 14);
    EXPECT_EQ(s->NextEv(), 1);
    EXPECT_EQ(s->GetPenalty(1), 14);
    EXPECT_EQ(s->GetPenalty(2), 15);
    EXPECT_EQ(rv->Used(), 4u); // U, r0, one redraw per packet at the wrap
}

TEST(MrcUecPath, BitmapPenaltyDrainsToZero)
{
    // One ECN on path 0 (penalty 1), P = 2, U = 0, r = 0 always. Packet 1: candidate 0 pays its
    // last unit (-> 0, no longer penalised) and is skipped -> EV 1. Then plain alternation 0, 1.
    auto rv = CreateObject<ScriptRv>(std::vector<uint32_t>{0, 0, 0, 0, 0});
    auto s = Make<MrcUecBitmapSelector>(2, rv);
    s->OnAck(0, true);
    EXPECT_EQ(s->NextEv(), 1);
    EXPECT_EQ(s->GetPenalisedCount(), 0u);
    EXPECT_EQ(s->NextEv(), 0);
    EXPECT_EQ(s->NextEv(), 1);
}

// ------------------------------------------------------------------ REPS

TEST(MrcUecPath, RepsRecycling)
{
    // P = 8. Random draws (buffer empty): 5, 14 & 7 = 6, then 7.
    auto rv = CreateObject<ScriptRv>(std::vector<uint32_t>{5, 14, 7, 1});
    auto s = Make<MrcUecReps>(8, rv);
    EXPECT_EQ(s->NextEv(), 5);
    EXPECT_EQ(s->NextEv(), 6);
    s->OnAck(10, false); // GOOD: buffered, fresh
    s->OnAck(11, false);
    s->OnAck(12, true); // ECN: not buffered
    s->OnNack(13);      // NACK: not buffered
    EXPECT_EQ(s->GetFreshCount(), 2u);
    EXPECT_EQ(s->NextEv(), 10); // oldest fresh first
    EXPECT_EQ(s->NextEv(), 11);
    EXPECT_EQ(s->GetFreshCount(), 0u);
    EXPECT_EQ(s->GetBufferedCount(), 2u);
    EXPECT_EQ(s->NextEv(), 7); // consumed EVs are not reused: random
    // Ring of 8: slots 0, 1 hold the consumed 10, 11; ten more GOOD EVs 100..109 fill slots
    // 2..7, 0, 1 and overwrite 2, 3 (100, 101). The fresh EVs are the 8 most recent, oldest
    // first: 102..109.
    for (uint16_t e = 100; e < 110; ++e)
    {
        s->OnAck(e, false);
    }
    EXPECT_EQ(s->GetFreshCount(), 8u);
    EXPECT_EQ(s->GetBufferedCount(), 8u);
    std::vector<uint16_t> expect{102, 103, 104, 105, 106, 107, 108, 109, 1};
    EXPECT_EQ(Take(s, 9), expect);
    EXPECT_EQ(rv->Used(), 4u);
    EXPECT_FALSE(s->IsFrozen());
}

TEST(MrcUecPath, RepsUsableLifetime)
{
    auto rv = CreateObject<ScriptRv>(std::vector<uint32_t>{3});
    auto s = Make<MrcUecReps>(8, rv);
    s->SetAttribute("UsableLifetime", UintegerValue(2));
    s->OnAck(10, false);
    s->OnAck(11, false);
    std::vector<uint16_t> expect{10, 10, 11, 11, 3};
    EXPECT_EQ(Take(s, 5), expect);
}

TEST(MrcUecPath, RepsFreezing)
{
    // Random draws: 16 exploration EVs 20..35 (& 7 -> 4,5,6,7,0,...,7,0,1,2,3), then one more.
    std::vector<uint32_t> script;
    for (uint32_t k = 20; k < 36; ++k)
    {
        script.push_back(k);
    }
    script.push_back(6);
    auto rv = CreateObject<ScriptRv>(script);
    auto s = Make<MrcUecReps>(8, rv);
    s->OnAck(1, false);
    s->OnAck(2, false);
    s->OnAck(3, false);
    EXPECT_EQ(s->NextEv(), 1); // consumes 1; 2 and 3 stay fresh

    s->OnTimeout(9); // t = 0: frozen until 10 ms; the timed-out EV is not buffered
    EXPECT_TRUE(s->IsFrozen());
    EXPECT_EQ(s->GetBufferedCount(), 3u);
    // Frozen: round-robin over slots 0, 1, 2 from slot 0, fresh or not.
    std::vector<uint16_t> rr{1, 2, 3, 1, 2, 3};
    EXPECT_EQ(Take(s, 6), rr);
    EXPECT_EQ(s->GetFreshCount(), 0u);
    // GOOD while frozen is still buffered (slot 3) and joins the round-robin.
    s->OnAck(4, false);
    std::vector<uint16_t> rr4{1, 2, 3, 4, 1};
    EXPECT_EQ(Take(s, 5), rr4);

    // A second timeout does not extend the freeze; at exactly 10 ms it has not ended.
    AdvanceClock(MilliSeconds(5));
    s->OnTimeout(4);
    AdvanceClock(MilliSeconds(5));
    s->OnAck(7, true);
    EXPECT_TRUE(s->IsFrozen());
    // The first feedback strictly after 10 ms ends it: buffer cleared, then that GOOD EV is
    // buffered; the next 16 packets explore at random, then the buffered EV is recycled.
    AdvanceClock(NanoSeconds(1));
    s->OnAck(50, false);
    EXPECT_FALSE(s->IsFrozen());
    EXPECT_EQ(s->GetBufferedCount(), 1u);
    EXPECT_EQ(s->GetExploreRemaining(), 16u);
    EXPECT_EQ(s->NextEv(), 4); // 20 & 7
    s->OnTimeout(4);           // exploring: no new freeze
    EXPECT_FALSE(s->IsFrozen());
    std::vector<uint16_t> explore{5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3};
    EXPECT_EQ(Take(s, 15), explore);
    EXPECT_EQ(s->NextEv(), 50);
    EXPECT_EQ(s->NextEv(), 6); // last scripted draw
    EXPECT_EQ(rv->Used(), 17u);
    // Exploration over: a timeout freezes again.
    s->OnTimeout(1);
    EXPECT_TRUE(s->IsFrozen());
    Simulator::Destroy();
}

TEST(MrcUecPath, RepsFrozenEmptyBufferAndFreezingOff)
{
    auto rv = CreateObject<ScriptRv>(std::vector<uint32_t>{2, 9});
    auto s = Make<MrcUecReps>(8, rv);
    s->OnTimeout(0);
    EXPECT_TRUE(s->IsFrozen());
    EXPECT_EQ(s->NextEv(), 2); // frozen with nothing buffered: random
    auto rv2 = CreateObject<ScriptRv>(std::vector<uint32_t>{});
    auto t = Make<MrcUecReps>(8, rv2);
    t->SetAttribute("Freezing", BooleanValue(false));
    t->OnAck(5, false);
    t->OnTimeout(5);
    EXPECT_FALSE(t->IsFrozen());
    EXPECT_EQ(t->NextEv(), 5);
    Simulator::Destroy();
}

// ------------------------------------------------------------------ mixed

TEST(MrcUecPath, MixedSwitching)
{
    // P = 8, U = 0x0105 -> upper 0x0100, r = 0 always: bitmap order 0x100, 0x101, ...
    auto rv = CreateObject<ScriptRv>(std::vector<uint32_t>{0x0105, 0, 0});
    auto s = Make<MrcUecMixedSelector>(8, rv);
    EXPECT_EQ(s->NextEv(), 0x100);
    EXPECT_EQ(s->NextEv(), 0x101);
    s->OnAck(0x105, false); // GOOD -> recycled FIFO
    s->OnAck(0x103, false);
    EXPECT_EQ(s->GetRecycleQueueSize(), 2u);
    EXPECT_EQ(s->NextEv(), 0x105); // recycled, FIFO order
    EXPECT_EQ(s->NextEv(), 0x103);
    // FIFO empty: back to the bitmap, which did not move while recycling (next index 2).
    EXPECT_EQ(s->NextEv(), 0x102);
    s->OnAck(0x104, true); // ECN: penalty on path 4, not recycled
    EXPECT_EQ(s->GetRecycleQueueSize(), 0u);
    EXPECT_EQ(s->GetPenalty(4), 1);
    EXPECT_EQ(s->NextEv(), 0x103);
    EXPECT_EQ(s->NextEv(), 0x105); // path 4 skipped (penalty 1 -> 0)
    EXPECT_EQ(s->GetPenalty(4), 0);
    // A recycled EV is used even if its path is penalised.
    s->OnNack(0x106);
    s->OnAck(0x106, false);
    EXPECT_EQ(s->GetPenalty(6), 4);
    EXPECT_EQ(s->NextEv(), 0x106);
    EXPECT_EQ(s->GetPenalty(6), 4);
    EXPECT_EQ(rv->Used(), 2u);
}

TEST(MrcUecPath, MixedFifoCapacity)
{
    auto rv = CreateObject<ScriptRv>(std::vector<uint32_t>{0, 0});
    auto s = Make<MrcUecMixedSelector>(8, rv);
    s->SetAttribute("RecycleCapacity", UintegerValue(2));
    s->OnAck(30, false);
    s->OnAck(31, false);
    s->OnAck(32, false); // full: 30 dropped
    std::vector<uint16_t> expect{31, 32, 0};
    EXPECT_EQ(Take(s, 3), expect);
}

// ------------------------------------------------------------------ single path

TEST(MrcUecPath, SinglePathConstant)
{
    Ptr<MrcUecSinglePath> fixed = CreateObject<MrcUecSinglePath>();
    fixed->SetAttribute("Ev", UintegerValue(0x1234));
    auto rv = CreateObject<ScriptRv>(std::vector<uint32_t>{0x1BEEF}); // & 0xffff -> 0xBEEF
    auto drawn = Make<MrcUecSinglePath>(64, rv);
    for (int k = 0; k < 1000; ++k)
    {
        fixed->OnTimeout(0x1234);
        drawn->OnNack(0xBEEF);
        ASSERT_EQ(fixed->NextEv(), 0x1234);
        ASSERT_EQ(drawn->NextEv(), 0xBEEF);
    }
    EXPECT_EQ(rv->Used(), 1u);
}

// ------------------------------------------------------------------ factory and streams

TEST(MrcUecPath, DefaultTypeAndAttributes)
{
    ObjectFactory f;
    f.SetTypeId(MrcUecPathSelector::DEFAULT_TYPE);
    Ptr<MrcUecPathSelector> s = f.Create<MrcUecPathSelector>();
    EXPECT_NE(DynamicCast<MrcUecMixedSelector>(s), nullptr);
    EXPECT_EQ(s->GetPathCount(), 64u);
    UintegerValue v;
    s->GetAttribute("MaxPenalty", v);
    EXPECT_EQ(v.Get(), 15u);
    s->GetAttribute("RecycleCapacity", v);
    EXPECT_EQ(v.Get(), 1024u);
    Ptr<MrcUecReps> r = CreateObject<MrcUecReps>();
    r->GetAttribute("BufferSize", v);
    EXPECT_EQ(v.Get(), 8u);
    r->GetAttribute("ExploreCount", v);
    EXPECT_EQ(v.Get(), 16u);
    TimeValue tv;
    r->GetAttribute("FreezeDuration", tv);
    EXPECT_EQ(tv.Get(), MilliSeconds(10));
}

TEST(MrcUecPath, DeterministicByStream)
{
    for (const char* name : {"ns3::MrcUecObliviousSpray",
                             "ns3::MrcUecBitmapSelector",
                             "ns3::MrcUecReps",
                             "ns3::MrcUecMixedSelector",
                             "ns3::MrcUecSinglePath"})
    {
        ObjectFactory f;
        f.SetTypeId(name);
        auto run = [&](int64_t stream) {
            Ptr<MrcUecPathSelector> s = f.Create<MrcUecPathSelector>();
            EXPECT_EQ(s->AssignStreams(stream), 1);
            std::vector<uint16_t> v;
            for (int k = 0; k < 300; ++k)
            {
                uint16_t ev = s->NextEv();
                v.push_back(ev);
                if (k % 3 == 0)
                {
                    s->OnAck(ev, k % 2 == 0); // mixed feedback, same for both runs
                }
            }
            return v;
        };
        std::vector<uint16_t> a = run(42);
        EXPECT_EQ(a, run(42)) << name;
        EXPECT_NE(a, run(43)) << name;
    }
}

TEST(MrcUecPath, PathCountLimits)
{
    // P = 1: every oblivious EV is the connection's upper bits (all 16 bits of the first draw
    // with nothing cleared; with P = 1 every packet ends a cycle, so r is redrawn each time:
    // 2 + 3 draws); P = 65536: no upper bits, EV = i XOR r.
    auto rv1 = CreateObject<ScriptRv>(std::vector<uint32_t>{0x4321, 7, 7, 7, 7});
    auto one = Make<MrcUecObliviousSpray>(1, rv1);
    std::vector<uint16_t> same{0x4321, 0x4321, 0x4321};
    EXPECT_EQ(Take(one, 3), same);
    EXPECT_EQ(rv1->Used(), 5u);
    auto rv2 = CreateObject<ScriptRv>(std::vector<uint32_t>{0xFFFF, 0x8001});
    auto all = Make<MrcUecObliviousSpray>(65536, rv2);
    std::vector<uint16_t> seq{0x8001, 0x8000, 0x8003};
    EXPECT_EQ(Take(all, 3), seq);
    // Not a power of two: the setter aborts naming the value.
    Ptr<MrcUecBitmapSelector> b = CreateObject<MrcUecBitmapSelector>();
    EXPECT_DEATH(b->SetAttribute("PathCount", UintegerValue(48)), "PathCount 48");
    Ptr<MrcUecReps> r = CreateObject<MrcUecReps>();
    EXPECT_DEATH(r->SetAttribute("BufferSize", UintegerValue(0)), "");
}
