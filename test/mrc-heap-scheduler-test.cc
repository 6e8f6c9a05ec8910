/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of MrcEventWheel (every pop the smallest of a sorted reference, through the heap
// beyond the span, wraps and rewinds; a bucket sorted whatever its entries' order), of
// MrcSimulatorImpl (the same run as ns-3's DefaultSimulatorImpl) and of MrcHeapScheduler: the same
// pop sequence as ns-3's MapScheduler for random insert / remove / pop sequences, read-ahead hints
// that stay with their events, Remove of the head, the last and a middle event, and the simulator's
// Remove, Cancel and IsExpired on top of it.

#include "ns3/event-impl.h"
#include "ns3/global-value.h"
#include "ns3/make-event.h"
#include "ns3/map-scheduler.h"
#include "ns3/mrc-canonical-scheduler.h"
#include "ns3/mrc-event-wheel.h"
#include "ns3/mrc-heap-scheduler.h"
#include "ns3/mrc-simulator-impl.h"
#include "ns3/mrc-tracked-event.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <gtest/gtest.h>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/// An entry of the wheel tests: a time stamp and a uid.
struct Key
{
    uint64_t ts;  //!< time stamp
    uint32_t uid; //!< unique id
};

/// The order of Keys: time stamp, then uid.
struct KeyLess
{
    /// \param a a key \param b another \return true if a comes first
    bool operator()(const Key& a, const Key& b) const
    {
        return a.ts < b.ts || (a.ts == b.ts && a.uid < b.uid);
    }
};

/// A Key's time stamp, for the wheel's buckets.
struct KeyStamp
{
    /// \param k a key \return its time stamp
    uint64_t operator()(const Key& k) const
    {
        return k.ts;
    }
};

/// Events for the scheduler-level tests: real EventImpls, never invoked, released at the end.
class EventPool
{
  public:
    ~EventPool()
    {
        for (EventImpl* e : m_impls)
        {
            e->Unref();
        }
    }

    /// \param ts time stamp \param uid unique id \return a new event with that key
    Scheduler::Event Make(uint64_t ts, uint32_t uid)
    {
        Scheduler::Event ev;
        ev.impl = MakeEvent([]() {});
        m_impls.push_back(ev.impl);
        ev.key.m_ts = ts;
        ev.key.m_uid = uid;
        ev.key.m_context = 0;
        return ev;
    }

  private:
    std::vector<EventImpl*> m_impls; //!< every event made
};

/// \return the uids of everything left in s, in pop order
std::vector<uint32_t>
Drain(Scheduler& s)
{
    std::vector<uint32_t> out;
    while (!s.IsEmpty())
    {
        const uint32_t peek = s.PeekNext().key.m_uid;
        const Scheduler::Event ev = s.RemoveNext();
        EXPECT_EQ(ev.key.m_uid, peek);
        out.push_back(ev.key.m_uid);
    }
    return out;
}

} // namespace

TEST(MrcEventWheel, SortsABucketWhateverTheOrderItsEntriesCameIn)
{
    // Many entries for one time step (one bucket): in key order, in key order with some
    // smaller keys pushed late (as events inserted at a slot), in reverse order and shuffled.
    // Each pops in key order, every entry once (the bucket's sort keeps the entries that
    // came in order and merges the others in).
    const uint32_t n = 2000;
    std::vector<uint32_t> inOrder(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        inOrder[i] = i;
    }
    std::vector<uint32_t> lateSmall; // every tenth key held back, pushed at the end
    std::vector<uint32_t> held;
    for (uint32_t i = 0; i < n; ++i)
    {
        (i % 10 == 3 ? held : lateSmall).push_back(i);
    }
    lateSmall.insert(lateSmall.end(), held.rbegin(), held.rend());
    std::vector<uint32_t> reversed(inOrder.rbegin(), inOrder.rend());
    std::vector<uint32_t> shuffled = inOrder;
    std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(7));
    std::vector<uint32_t> oneLargeFirst = inOrder; // the largest key first, then the rest
    std::rotate(oneLargeFirst.rbegin(), oneLargeFirst.rbegin() + 1, oneLargeFirst.rend());
    for (const auto* order : {&inOrder, &lateSmall, &reversed, &shuffled, &oneLargeFirst})
    {
        MrcEventWheel<Key, KeyLess, KeyStamp> wheel(0, 4);
        for (uint32_t uid : *order)
        {
            wheel.Push(Key{5, uid});
        }
        wheel.Push(Key{6, n}); // the next bucket: after all of them
        for (uint32_t want = 0; want <= n; ++want)
        {
            ASSERT_FALSE(wheel.Empty());
            const Key k = wheel.PopTop();
            ASSERT_EQ(k.uid, want) << "order " << (order - &inOrder);
            ASSERT_EQ(k.ts, want < n ? 5u : 6u);
        }
        EXPECT_TRUE(wheel.Empty());
    }
}

TEST(MrcEventWheel, EntriesPushedIntoTheCurrentBucketInAnyOrderPopInKeyOrder)
{
    // One wide bucket (1,024 steps) holding 3,000 entries, as a large fabric's bucket holds
    // thousands (every link's frames ending together). Once it is the current bucket, each
    // pop is followed by a push into it at a random time stamp from the clock on: most land
    // before the bucket's last entry (the wheel keeps them in its heap of late entries),
    // some after it (at the array's end). Every Peek, PeekReady and PopTop equals the
    // smallest of a sorted reference, every entry comes out once.
    std::mt19937_64 rng(48);
    MrcEventWheel<Key, KeyLess, KeyStamp> wheel(10, 4);
    std::map<std::pair<uint64_t, uint32_t>, bool> ref;
    uint32_t uid = 0;
    auto push = [&](uint64_t ts) {
        wheel.Push(Key{ts, uid});
        ref.emplace(std::make_pair(ts, uid++), true);
    };
    for (int i = 0; i < 3000; ++i)
    {
        push(rng() % 1024);
    }
    push(1024 + 5); // the next bucket
    uint64_t clock = 0;
    for (int step = 0; step < 6001; ++step)
    {
        const auto want = ref.begin()->first;
        ASSERT_EQ(wheel.Peek().uid, want.second) << step;
        const Key* ready = wheel.PeekReady();
        if (step > 0 && want.first < 1024)
        {
            ASSERT_NE(ready, nullptr) << step; // the bucket stays current while it has entries
            ASSERT_EQ(ready->uid, want.second) << step;
        }
        const Key got = wheel.PopTop();
        ASSERT_EQ(got.ts, want.first) << step;
        ASSERT_EQ(got.uid, want.second) << step;
        ref.erase(ref.begin());
        clock = got.ts;
        if (step < 3000)
        {
            push(clock + rng() % (1024 - clock)); // into the current bucket, from the clock on
        }
        ASSERT_EQ(wheel.Size(), ref.size());
        if (ref.empty())
        {
            break;
        }
    }
    EXPECT_EQ(ref.size(), 0u);
    EXPECT_TRUE(wheel.Empty());
    EXPECT_EQ(wheel.GetRewinds(), 0u);
}

TEST(MrcEventWheel, PopsInKeyOrderThroughFarEntriesWrapsAndRewinds)
{
    // A small wheel (buckets of 2 steps, 8 buckets: a span of 16 steps) under random pushes
    // from the clock (the last time stamp taken out) up to 40 steps ahead, so that entries
    // go to the heap beyond the span and the wheel wraps; now and then an entry is taken out
    // without moving the clock (an event removed at the top), after which earlier pushes make
    // the wheel rewind. Every PopTop and Peek equals the smallest of a sorted reference, and
    // the pool of bucket blocks never holds more blocks than the most entries pending at once
    // fill, plus one partly filled block a bucket.
    for (uint32_t seed = 1; seed <= 3; ++seed)
    {
        std::mt19937_64 rng(seed);
        MrcEventWheel<Key, KeyLess, KeyStamp> wheel(1, 3);
        std::map<std::pair<uint64_t, uint32_t>, bool> ref;
        uint64_t clock = 0;
        uint32_t uid = 0;
        uint64_t pops = 0;
        std::size_t largest = 0;
        for (int step = 0; step < 100000; ++step)
        {
            if (rng() % 100 < 52 || ref.empty())
            {
                const Key k{clock + (rng() % 2 == 0 ? rng() % 4 : rng() % 40), uid++};
                wheel.Push(k);
                ref.emplace(std::make_pair(k.ts, k.uid), true);
            }
            else
            {
                const auto want = ref.begin()->first;
                ASSERT_EQ(wheel.Peek().ts, want.first) << "seed " << seed << " step " << step;
                ASSERT_EQ(wheel.Peek().uid, want.second);
                const Key* ready = wheel.PeekReady();
                if (ready != nullptr)
                {
                    ASSERT_EQ(ready->uid, want.second);
                }
                const Key got = wheel.PopTop();
                ASSERT_EQ(got.ts, want.first) << "seed " << seed << " step " << step;
                ASSERT_EQ(got.uid, want.second);
                ref.erase(ref.begin());
                if (rng() % 3 != 0)
                {
                    clock = got.ts; // an event that runs; else one dropped unrun
                }
                ++pops;
            }
            ASSERT_EQ(wheel.Size(), ref.size());
            largest = std::max(largest, ref.size());
        }
        while (!ref.empty())
        {
            ASSERT_EQ(wheel.PopTop().uid, ref.begin()->first.second);
            ref.erase(ref.begin());
        }
        EXPECT_TRUE(wheel.Empty());
        EXPECT_GT(pops, 40000u);
        EXPECT_GT(largest, 100u); // more entries than the span has steps: many per bucket
        EXPECT_GT(wheel.GetRewinds(), 20u);
        // freed blocks serve later pushes: never more than the most pending entries fill,
        // plus one partly filled block for each of the 8 buckets
        using Wheel = MrcEventWheel<Key, KeyLess, KeyStamp>;
        EXPECT_EQ(Wheel::BLOCK_ENTRIES, 15u); // (256 - 8) / 16 bytes
        EXPECT_GT(wheel.GetPoolBlocks(), 0u);
        EXPECT_LE(wheel.GetPoolBlocks(), largest / Wheel::BLOCK_ENTRIES + 8);
    }
}

namespace
{

/// A random program of events run by one simulator core: what every event saw.
class SimulatorProgram
{
  public:
    /// \param seed the program's random numbers
    explicit SimulatorProgram(uint64_t seed)
        : m_rng(seed)
    {
    }

    /**
     * Run the program on a core.
     * \param impl the SimulatorImplementationType
     * \return one line per observation, in order
     */
    std::vector<std::string> RunOn(const std::string& impl)
    {
        GlobalValue::Bind("SimulatorImplementationType", StringValue(impl));
        ObjectFactory scheduler("ns3::MrcHeapScheduler");
        Simulator::SetScheduler(scheduler);
        m_activeDirect = MrcSimulatorImpl::GetActive() != nullptr;
        for (uint32_t i = 0; i < 40; ++i)
        {
            const uint32_t context = static_cast<uint32_t>(m_rng() % 4);
            Simulator::ScheduleWithContext(context,
                                           NanoSeconds(m_rng() % 50),
                                           &SimulatorProgram::Step,
                                           this,
                                           i);
        }
        Simulator::ScheduleDestroy(&SimulatorProgram::Note, this, std::string("destroy 1"));
        const EventId gone =
            Simulator::ScheduleDestroy(&SimulatorProgram::Note, this, std::string("destroy 2"));
        Simulator::ScheduleDestroy(&SimulatorProgram::Note, this, std::string("destroy 3"));
        Note("destroy 2 expired " + std::to_string(Simulator::IsExpired(gone)));
        Simulator::Remove(gone);
        Note("destroy 2 removed, expired " + std::to_string(Simulator::IsExpired(gone)));
        Simulator::Stop(MicroSeconds(3));
        Simulator::Run();
        Note("end " + std::to_string(Simulator::Now().GetTimeStep()) + " events " +
             std::to_string(Simulator::GetEventCount()));
        Simulator::Destroy();
        GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
        return m_log;
    }

    /// \return true if the run had an MrcSimulatorImpl as its core
    bool ActiveDirect() const
    {
        return m_activeDirect;
    }

  private:
    /// \param line what to record
    void Note(std::string line)
    {
        m_log.push_back(std::move(line));
    }

    /// An event: record what it sees, then schedule, cancel, remove and ask at random.
    /// \param label the event's name
    void Step(uint32_t label)
    {
        Note("run " + std::to_string(label) + " at " +
             std::to_string(Simulator::Now().GetTimeStep()) + " context " +
             std::to_string(Simulator::GetContext()));
        if (label > 400)
        {
            return;
        }
        for (const EventId& id : m_ids)
        {
            if (m_rng() % 8 == 0)
            {
                Note("ask " + std::to_string(id.GetUid()) + " expired " +
                     std::to_string(Simulator::IsExpired(id)) + " left " +
                     std::to_string(Simulator::GetDelayLeft(id).GetTimeStep()));
            }
        }
        const uint64_t r = m_rng() % 6;
        const uint32_t next = label + 40;
        if (r == 0)
        {
            m_ids.push_back(Simulator::ScheduleNow(&SimulatorProgram::Step, this, next));
        }
        else if (r == 1)
        {
            MrcScheduleWithContext(static_cast<uint32_t>(m_rng() % 4),
                                   NanoSeconds(m_rng() % 20),
                                   MakeEvent(&SimulatorProgram::Step, this, next));
        }
        else if (r == 2 && !m_ids.empty())
        {
            const std::size_t i = m_rng() % m_ids.size();
            if (m_rng() % 2 == 0)
            {
                Simulator::Cancel(m_ids[i]);
            }
            else
            {
                Simulator::Remove(m_ids[i]);
            }
            Note("dropped " + std::to_string(m_ids[i].GetUid()));
        }
        else
        {
            m_ids.push_back(Simulator::Schedule(NanoSeconds(m_rng() % 30),
                                                &SimulatorProgram::Step,
                                                this,
                                                next));
        }
    }

    std::mt19937_64 m_rng;          //!< the program's random numbers
    std::vector<EventId> m_ids;     //!< events scheduled with an id
    std::vector<std::string> m_log; //!< the observations
    bool m_activeDirect{false};     //!< the core was an MrcSimulatorImpl
};

} // namespace

TEST(MrcSimulatorImpl, RunsEveryEventAsDefaultSimulatorImplDoes)
{
    // Random programs of Schedule, ScheduleNow, ScheduleWithContext (direct through
    // MrcScheduleWithContext), Cancel, Remove, IsExpired and GetDelayLeft, destroy events
    // (one removed) and a Stop after a delay: every observation, in order, equals the
    // default core's, and so do the end time and the count of events run.
    for (uint64_t seed = 1; seed <= 5; ++seed)
    {
        SimulatorProgram mrc(seed);
        SimulatorProgram reference(seed);
        const std::vector<std::string> a = mrc.RunOn("ns3::MrcSimulatorImpl");
        const std::vector<std::string> b = reference.RunOn("ns3::DefaultSimulatorImpl");
        EXPECT_TRUE(mrc.ActiveDirect());
        EXPECT_FALSE(reference.ActiveDirect());
        EXPECT_GT(a.size(), 400u) << "seed " << seed;
        EXPECT_EQ(a, b) << "seed " << seed;
        // stopped at 3 us; then the destroy events ran, the removed one not
        const std::string end = "end " + std::to_string(MicroSeconds(3).GetTimeStep()) + " ";
        EXPECT_EQ(std::count_if(a.begin(),
                                a.end(),
                                [&end](const std::string& l) { return l.rfind(end, 0) == 0; }),
                  1);
        ASSERT_GE(a.size(), 2u);
        EXPECT_EQ(a[a.size() - 2], "destroy 1");
        EXPECT_EQ(a.back(), "destroy 3");
    }
}

TEST(MrcHeapScheduler, RandomSequencesPopInMapSchedulerOrder)
{
    // Insert with few distinct time stamps (many ties broken by uid), remove random queued
    // events, pop: every pop and every PeekNext equals ns-3's MapScheduler's. Every third
    // seed on a wheel of 8 buckets (time stamps up to 1,000 steps ahead then mostly wait in
    // the heap beyond it, and removed events dropped at the top make the wheel rewind).
    for (uint32_t seed = 1; seed <= 20; ++seed)
    {
        std::mt19937_64 rng(seed);
        EventPool pool;
        Ptr<MrcHeapScheduler> heap = CreateObjectWithAttributes<MrcHeapScheduler>(
            "BucketsLog2",
            UintegerValue(seed % 3 == 0 ? 3 : 12),
            "BucketWidth",
            TimeValue(TimeStep(seed % 3 == 0 ? 2 : 1)));
        Ptr<MapScheduler> map = CreateObject<MapScheduler>();
        std::vector<Scheduler::Event> queued; // what map holds, for picking removals
        uint32_t uid = 4;                     // ns-3's first ordinary uid
        uint64_t now = 0;
        uint64_t pops = 0;
        uint64_t removes = 0;
        for (int step = 0; step < 5000; ++step)
        {
            const uint64_t r = rng() % 100;
            if (r < 50 || queued.empty())
            {
                const Scheduler::Event ev = pool.Make(now + rng() % (seed % 2 ? 8 : 1000), uid++);
                heap->Insert(ev);
                map->Insert(ev);
                queued.push_back(ev);
            }
            else if (r < 65)
            {
                const std::size_t i = rng() % queued.size();
                heap->Remove(queued[i]);
                map->Remove(queued[i]);
                queued.erase(queued.begin() + i);
                ++removes;
            }
            else
            {
                ASSERT_EQ(heap->PeekNext().key.m_uid, map->PeekNext().key.m_uid);
                const Scheduler::Event a = heap->RemoveNext();
                const Scheduler::Event b = map->RemoveNext();
                ASSERT_EQ(a.key.m_uid, b.key.m_uid) << "seed " << seed << " step " << step;
                EXPECT_EQ(a.key.m_ts, b.key.m_ts);
                EXPECT_EQ(a.impl, b.impl);
                now = a.key.m_ts;
                for (std::size_t i = 0; i < queued.size(); ++i)
                {
                    if (queued[i].key.m_uid == a.key.m_uid)
                    {
                        queued.erase(queued.begin() + i);
                        break;
                    }
                }
                ++pops;
            }
            ASSERT_EQ(heap->IsEmpty(), map->IsEmpty());
        }
        EXPECT_GT(pops, 1000u);
        EXPECT_GT(removes, 500u);
        EXPECT_EQ(Drain(*heap), Drain(*map)) << "seed " << seed;
    }
}

TEST(MrcHeapScheduler, LargeRandomSetsWithSlotsPopInTheOrderOfTheirKeys)
{
    // Heaps that grow through many doublings of the array and shrink again, with ties of
    // time stamps (a narrow and a wide range), removals and events inserted at slots. The
    // reference is a sorted set of (time stamp, place: uid << 16 or the slot) and, for the events
    // without a slot, ns-3's MapScheduler: every pop equals both.
    for (uint32_t seed = 1; seed <= 4; ++seed)
    {
        std::mt19937_64 rng(seed);
        EventPool pool;
        Ptr<MrcHeapScheduler> heap = CreateObject<MrcHeapScheduler>();
        Ptr<MapScheduler> mapScheduler = CreateObject<MapScheduler>();
        // (ts, place: uid << 16, or the slot) -> the event as the heap hands it out
        std::map<std::pair<uint64_t, uint64_t>, Scheduler::Event> ref;
        std::vector<Scheduler::Event> removable; // events without a slot, maybe still queued
        uint32_t uid = 4;
        uint64_t now = 0;
        uint64_t pops = 0;
        uint64_t slotted = 0;
        std::size_t largest = 0;
        const uint64_t span = seed % 2 ? 16 : 100000;
        for (int step = 0; step < 400000; ++step)
        {
            // grow for the first half, then mostly pop
            const uint64_t r = rng() % 100;
            const uint64_t insertShare = step < 200000 ? 70 : 30;
            if (r < insertShare || ref.empty())
            {
                // sometimes one to nine slots in a row, each then used by an event
                // inserted at it: runs after the event of the
                // slot's uid and the slots taken before it at its time stamp, before
                // every later uid there
                std::vector<uint64_t> slots;
                if (rng() % 8 == 0)
                {
                    const uint32_t want = 1 + rng() % 9;
                    uint64_t slot = 0;
                    for (uint32_t k = 0; k < want; ++k)
                    {
                        if (MrcHeapScheduler::TakeSlot(slot))
                        {
                            slots.push_back(slot);
                        }
                    }
                    ASSERT_EQ(slots.size(), want);
                }
                for (const uint64_t slot : slots)
                {
                    Scheduler::Event ev = pool.Make(now + rng() % span, uid++);
                    MrcHeapScheduler::InsertNextAtSlot(slot);
                    heap->Insert(ev);
                    Scheduler::Event out = ev;
                    out.key.m_uid = static_cast<uint32_t>(slot >> 16);
                    ASSERT_TRUE(ref.emplace(std::make_pair(ev.key.m_ts, slot), out).second);
                    ++slotted;
                }
                if (slots.empty())
                {
                    Scheduler::Event ev = pool.Make(now + rng() % span, uid++);
                    heap->Insert(ev);
                    mapScheduler->Insert(ev);
                    ref.emplace(std::make_pair(ev.key.m_ts, uint64_t(ev.key.m_uid) << 16), ev);
                    removable.push_back(ev);
                }
            }
            else if (r < insertShare + 5 && !removable.empty())
            {
                const std::size_t i = rng() % removable.size();
                const Scheduler::Event ev = removable[i];
                removable[i] = removable.back();
                removable.pop_back();
                auto it = ref.find(std::make_pair(ev.key.m_ts, uint64_t(ev.key.m_uid) << 16));
                if (it != ref.end()) // not popped yet
                {
                    heap->Remove(ev);
                    mapScheduler->Remove(ev);
                    ref.erase(it);
                }
            }
            else
            {
                const Scheduler::Event want = ref.begin()->second;
                const bool wantSlotted = (ref.begin()->first.second & 0xFFFF) != 0;
                ref.erase(ref.begin());
                ASSERT_EQ(heap->PeekNext().impl, want.impl);
                const Scheduler::Event got = heap->RemoveNext();
                ASSERT_EQ(got.impl, want.impl) << "seed " << seed << " step " << step;
                ASSERT_EQ(got.key.m_uid, want.key.m_uid);
                ASSERT_EQ(got.key.m_ts, want.key.m_ts);
                if (!wantSlotted)
                {
                    const Scheduler::Event p = mapScheduler->RemoveNext();
                    ASSERT_EQ(p.impl, got.impl) << "seed " << seed << " step " << step;
                }
                now = got.key.m_ts;
                ++pops;
            }
            largest = std::max(largest, ref.size());
        }
        while (!ref.empty())
        {
            ASSERT_EQ(heap->RemoveNext().impl, ref.begin()->second.impl);
            if ((ref.begin()->first.second & 0xFFFF) == 0)
            {
                mapScheduler->RemoveNext();
            }
            ref.erase(ref.begin());
        }
        EXPECT_TRUE(heap->IsEmpty());
        EXPECT_TRUE(mapScheduler->IsEmpty());
        EXPECT_GT(largest, 50000u); // many doublings of the heap's array
        EXPECT_GT(slotted, 10000u);
        EXPECT_GT(pops, 100000u);
    }
}

TEST(MrcHeapScheduler, AHintTravelsWithItsEventAndServesOneInsert)
{
    // Random inserts (half of them hinted, some at slots) and pops: the hint PeekNextHint
    // names is always the one given just before the top event's Insert, through every sift
    // of the heap; an Insert without a hint right after a hinted one gets none, and the pop
    // order is the order of the keys (the sorted reference), as without hints.
    std::mt19937_64 rng(7);
    EventPool pool;
    Ptr<MrcHeapScheduler> heap = CreateObject<MrcHeapScheduler>();
    std::map<std::pair<uint64_t, uint64_t>, std::pair<EventImpl*, const void*>> ref;
    std::vector<char> targets(64);
    uint32_t uid = 4;
    uint64_t now = 0;
    uint64_t hinted = 0;
    uint64_t checked = 0;
    uint64_t slotted = 0;
    for (int step = 0; step < 200000; ++step)
    {
        if (rng() % 100 < (step < 100000 ? 60u : 40u) || ref.empty())
        {
            Scheduler::Event ev = pool.Make(now + rng() % 64, uid++);
            const void* hint = nullptr;
            if (rng() % 2 == 0)
            {
                hint = &targets[rng() % targets.size()];
                MrcHeapScheduler::HintNextInsert(hint);
                ++hinted;
            }
            uint64_t slot = 0;
            if (rng() % 8 == 0 && MrcHeapScheduler::TakeSlot(slot))
            {
                MrcHeapScheduler::InsertNextAtSlot(slot);
                heap->Insert(ev);
                ref.emplace(std::make_pair(ev.key.m_ts, slot), std::make_pair(ev.impl, hint));
                ++slotted;
            }
            else
            {
                heap->Insert(ev);
                ref.emplace(std::make_pair(ev.key.m_ts, uint64_t(ev.key.m_uid) << 16),
                            std::make_pair(ev.impl, hint));
            }
        }
        else
        {
            const auto want = ref.begin()->second;
            ref.erase(ref.begin());
            ASSERT_EQ(heap->PeekNextHint(), want.second) << "step " << step;
            checked += want.second != nullptr;
            const Scheduler::Event got = heap->RemoveNext();
            ASSERT_EQ(got.impl, want.first) << "step " << step;
            now = got.key.m_ts;
        }
    }
    EXPECT_GT(hinted, 40000u);
    EXPECT_GT(checked, 30000u);
    EXPECT_GT(slotted, 10000u);
}

TEST(MrcHeapScheduler, RemoveTheHeadTheLastAndAMiddleEvent)
{
    EventPool pool;
    Ptr<MrcHeapScheduler> s = CreateObject<MrcHeapScheduler>();
    std::vector<Scheduler::Event> ev;
    for (uint32_t i = 0; i < 9; ++i)
    {
        ev.push_back(pool.Make(10 * (i / 2), 100 + i)); // pairs of equal time stamps
        s->Insert(ev.back());
    }
    // the head: dropped at once, the next event is the new head
    s->Remove(ev[0]);
    EXPECT_EQ(s->GetHeapSize(), 8u);
    EXPECT_EQ(s->PeekNext().key.m_uid, 101u);
    // the last (largest key): kept until it reaches the top
    s->Remove(ev[8]);
    EXPECT_EQ(s->GetHeapSize(), 8u);
    // a middle one, the twin of a time stamp that stays
    s->Remove(ev[4]);
    EXPECT_EQ(Drain(*s), (std::vector<uint32_t>{101, 102, 103, 105, 106, 107}));
    // none handed out; the last one's entry stays until a pop or PeekNext reaches it
    EXPECT_TRUE(s->IsEmpty());
    EXPECT_EQ(s->GetHeapSize(), 1u);
    // removing everything empties the scheduler
    for (uint32_t i = 0; i < 3; ++i)
    {
        ev.push_back(pool.Make(5, 200 + i));
        s->Insert(ev.back());
    }
    s->Remove(ev[11]);
    s->Remove(ev[10]);
    EXPECT_FALSE(s->IsEmpty());
    s->Remove(ev[9]);
    EXPECT_TRUE(s->IsEmpty());
    EXPECT_EQ(s->GetHeapSize(), 0u); // the removed entries at the top went with that Remove
    // RemoveNext: a removed entry that reaches the top stays until the next pop reaches it
    for (uint32_t uid : {301u, 302u, 303u, 304u})
    {
        ev.push_back(pool.Make(uid == 301 ? 60 : 70, uid));
        s->Insert(ev.back());
    }
    s->Remove(ev[ev.size() - 3]); // 302: not the top, kept
    s->Remove(ev[ev.size() - 1]); // 304: the last
    EXPECT_EQ(s->GetHeapSize(), 4u);
    EXPECT_EQ(s->RemoveNext().key.m_uid, 301u);
    EXPECT_FALSE(s->IsEmpty());
    EXPECT_EQ(s->GetHeapSize(), 3u); // 302's entry is the top now
    EXPECT_EQ(s->RemoveNext().key.m_uid, 303u);
    EXPECT_EQ(s->GetHeapSize(), 1u); // 302's entry went with the pop, 304's is left
    EXPECT_TRUE(s->IsEmpty());
    // PeekNext drops the removed entries at the top
    ev.push_back(pool.Make(80, 305));
    s->Insert(ev.back());
    EXPECT_FALSE(s->IsEmpty());
    EXPECT_EQ(s->GetHeapSize(), 2u);
    EXPECT_EQ(s->PeekNext().key.m_uid, 305u);
    EXPECT_EQ(s->GetHeapSize(), 1u);
    EXPECT_EQ(s->RemoveNext().key.m_uid, 305u);
    EXPECT_EQ(s->GetHeapSize(), 0u);
    EXPECT_TRUE(s->IsEmpty());
}

TEST(MrcHeapScheduler, SimulatorRemoveCancelAndIsExpiredAsWithMapScheduler)
{
    // The same random schedule / Remove / Cancel program under both schedulers: the same
    // events run in the same order, the same event count, and IsExpired agrees (EventId::IsRunning
    // is IsPending from ns-3.41 on, and is !IsExpired in both).
    auto runWith = [](const std::string& type, std::vector<std::string>& log) {
        Simulator::Destroy();
        ObjectFactory f;
        f.SetTypeId(type);
        Simulator::SetScheduler(f);
        std::mt19937_64 rng(7);
        std::vector<EventId> ids;
        int made = 0;
        std::function<void(int)> fire = [&](int n) {
            log.push_back("run " + std::to_string(n) + " at " +
                          std::to_string(Simulator::Now().GetNanoSeconds()));
            for (int k = 0; k < 2 && made < 3000; ++k)
            {
                const int m = made++;
                ids.push_back(
                    Simulator::Schedule(NanoSeconds(rng() % 50), [&fire, m]() { fire(m); }));
            }
            const std::size_t i = rng() % ids.size();
            const bool expired = ids[i].IsExpired();
            log.push_back("expired " + std::to_string(i) + " " + std::to_string(expired));
            switch (rng() % 4)
            {
            case 0:
                Simulator::Remove(ids[i]);
                break;
            case 1:
                ids[i].Cancel();
                break;
            default:
                break;
            }
            log.push_back("after " + std::to_string(ids[i].IsExpired()));
        };
        for (int k = 0; k < 4; ++k)
        {
            const int m = made++;
            ids.push_back(Simulator::Schedule(NanoSeconds(k), [&fire, m]() { fire(m); }));
        }
        Simulator::Run();
        log.push_back("events " + std::to_string(Simulator::GetEventCount()));
        Simulator::Destroy();
    };
    std::vector<std::string> heapLog;
    std::vector<std::string> mapLog;
    std::vector<std::string> canonicalLog;
    runWith("ns3::MrcHeapScheduler", heapLog);
    runWith("ns3::MapScheduler", mapLog);
    // one context: the canonical order (time, time scheduled, node, count) is the uid order
    runWith("ns3::MrcCanonicalScheduler", canonicalLog);
    EXPECT_GT(heapLog.size(), 3000u);
    EXPECT_EQ(heapLog, mapLog);
    EXPECT_EQ(canonicalLog, mapLog);
    ObjectFactory f;
    f.SetTypeId("ns3::MapScheduler");
    Simulator::SetScheduler(f);
    Simulator::Destroy();
}

TEST(MrcCanonicalScheduler, LazyRemovePopsAsTheLinearScan)
{
    // Random insert / remove / pop sequences with order terms given by SetNextInsertion (many
    // equal time stamps, several nodes, terms as a frame from another rank carries them):
    // after every step the scheduler's next event and emptiness are those of a reference
    // that keeps every live entry in a list, takes the smallest by (time, time scheduled,
    // node, count) and removes by a linear search (what Remove did before it became lazy).
    struct Ref
    {
        uint64_t ts;
        int64_t insertTs;
        uint32_t node;
        uint64_t seq;
        uint32_t uid;
    };

    auto order = [](const Ref& a, const Ref& b) {
        return std::tie(a.ts, a.insertTs, a.node, a.seq) <
               std::tie(b.ts, b.insertTs, b.node, b.seq);
    };
    EventPool pool;
    Ptr<MrcCanonicalScheduler> s = CreateObject<MrcCanonicalScheduler>();
    std::vector<Ref> ref;
    std::vector<uint64_t> counts(5, 0);
    std::mt19937_64 rng(11);
    uint32_t uid = 0;
    uint64_t now = 0;
    std::size_t removed = 0;
    std::size_t popped = 0;
    std::size_t lazyKept = 0;
    for (int step = 0; step < 20000; ++step)
    {
        const unsigned op = rng() % 10;
        if (op < 5 || ref.empty())
        {
            Ref r;
            r.ts = now + rng() % 8;
            r.insertTs = static_cast<int64_t>(now) - static_cast<int64_t>(rng() % 3);
            r.node = static_cast<uint32_t>(rng() % counts.size());
            r.seq = ++counts[r.node];
            r.uid = ++uid;
            MrcCanonicalScheduler::SetNextInsertion(r.insertTs, r.node, r.seq);
            s->Insert(pool.Make(r.ts, r.uid));
            ref.push_back(r);
        }
        else if (op < 7)
        {
            // remove the next event, the last inserted one or one at random
            std::size_t i = rng() % ref.size();
            if (op == 5)
            {
                i = std::min_element(ref.begin(), ref.end(), order) - ref.begin();
            }
            Scheduler::Event ev;
            ev.impl = nullptr;
            ev.key.m_ts = ref[i].ts;
            ev.key.m_uid = ref[i].uid;
            ev.key.m_context = ref[i].node;
            const std::size_t before = s->GetHeapSize();
            s->Remove(ev);
            if (s->GetHeapSize() == before)
            {
                ++lazyKept;
            }
            ref.erase(ref.begin() + static_cast<std::ptrdiff_t>(i));
            ++removed;
        }
        else
        {
            auto it = std::min_element(ref.begin(), ref.end(), order);
            const Scheduler::Event ev = s->RemoveNext();
            ASSERT_EQ(ev.key.m_uid, it->uid) << "step " << step;
            now = it->ts;
            ref.erase(it);
            ++popped;
        }
        ASSERT_EQ(s->IsEmpty(), ref.empty()) << "step " << step;
        if (!ref.empty())
        {
            ASSERT_EQ(s->PeekNext().key.m_uid, std::min_element(ref.begin(), ref.end(), order)->uid)
                << "step " << step;
        }
        ASSERT_GE(s->GetHeapSize(), ref.size());
    }
    while (!ref.empty())
    {
        auto it = std::min_element(ref.begin(), ref.end(), order);
        ASSERT_EQ(s->RemoveNext().key.m_uid, it->uid);
        ref.erase(it);
    }
    EXPECT_TRUE(s->IsEmpty());
    EXPECT_EQ(s->GetHeapSize(), 0u); // every removed entry was dropped on its way out
    EXPECT_GT(removed, 3000u);
    EXPECT_GT(popped, 5000u);
    EXPECT_GT(lazyKept, 1000u); // most removals left their entry in place (no search)
}

TEST(MrcHeapScheduler, ASlottedEventRunsWhereItWouldHaveRunIfScheduledAtTheSlot)
{
    // Events 10 and 11 at ts 5, two slots taken (after 11), event 12 at ts 5, then events 13
    // and 14 inserted at the second and the first slot: they pop after 11 and before 12, in
    // the order the slots were taken, handed out with the slot's uid as their uid and their
    // own EventImpl; 65,535 slots at most before the next Insert.
    EventPool pool;
    Ptr<MrcHeapScheduler> s = CreateObject<MrcHeapScheduler>();
    EXPECT_TRUE(MrcHeapScheduler::IsActive());
    s->Insert(pool.Make(5, 10));
    s->Insert(pool.Make(5, 11));
    uint64_t first = 0;
    ASSERT_TRUE(MrcHeapScheduler::TakeSlot(first));
    EXPECT_EQ(first, (uint64_t(11) << 16) + 1);
    uint64_t second = 0;
    ASSERT_TRUE(MrcHeapScheduler::TakeSlot(second));
    EXPECT_EQ(second, (uint64_t(11) << 16) + 2);
    uint64_t more = 0;
    for (uint64_t rank = 3; rank <= 65535; ++rank)
    {
        ASSERT_TRUE(MrcHeapScheduler::TakeSlot(more));
        ASSERT_EQ(more, (uint64_t(11) << 16) + rank);
    }
    EXPECT_FALSE(MrcHeapScheduler::TakeSlot(more)); // one more: schedule at once instead
    s->Insert(pool.Make(5, 12));
    ASSERT_TRUE(MrcHeapScheduler::TakeSlot(more)); // an Insert gives seven more
    EXPECT_EQ(more, (uint64_t(12) << 16) + 1);
    s->Insert(pool.Make(4, 9));
    const Scheduler::Event atSecond = pool.Make(5, 13);
    MrcHeapScheduler::InsertNextAtSlot(second);
    s->Insert(atSecond);
    const Scheduler::Event atFirst = pool.Make(5, 14);
    MrcHeapScheduler::InsertNextAtSlot(first);
    s->Insert(atFirst);
    s->Insert(pool.Make(5, 15)); // used once: an ordinary event
    EXPECT_EQ(s->RemoveNext().key.m_uid, 9u);
    EXPECT_FALSE(MrcHeapScheduler::HasSlotPassed(first));
    EXPECT_EQ(s->RemoveNext().key.m_uid, 10u);
    EXPECT_EQ(s->RemoveNext().key.m_uid, 11u);
    EXPECT_FALSE(MrcHeapScheduler::HasSlotPassed(first)); // the event of its uid runs
    EXPECT_EQ(s->PeekNext().impl, atFirst.impl);
    Scheduler::Event got = s->RemoveNext();
    EXPECT_EQ(got.impl, atFirst.impl); // the rank is not visible outside
    EXPECT_EQ(got.key.m_uid, 11u);
    EXPECT_EQ(got.key.m_ts, 5u);
    EXPECT_FALSE(MrcHeapScheduler::HasSlotPassed(first)); // the event at the slot runs
    EXPECT_FALSE(MrcHeapScheduler::HasSlotPassed(second));
    got = s->RemoveNext();
    EXPECT_EQ(got.impl, atSecond.impl);
    EXPECT_EQ(got.key.m_uid, 11u);
    EXPECT_TRUE(MrcHeapScheduler::HasSlotPassed(first));
    EXPECT_FALSE(MrcHeapScheduler::HasSlotPassed(second));
    EXPECT_EQ(s->RemoveNext().key.m_uid, 12u);
    EXPECT_TRUE(MrcHeapScheduler::HasSlotPassed(second));
    EXPECT_FALSE(MrcHeapScheduler::HasSlotPassed(more)); // the slot after 12, never used
    EXPECT_EQ(s->RemoveNext().key.m_uid, 15u);
    EXPECT_TRUE(MrcHeapScheduler::HasSlotPassed(more));
    EXPECT_TRUE(s->IsEmpty());
    s = nullptr;
    EXPECT_FALSE(MrcHeapScheduler::IsActive());
    EXPECT_FALSE(MrcHeapScheduler::TakeSlot(more)); // no MrcHeapScheduler: no slot
}

TEST(MrcHeapScheduler, RunningEventIsTheSimulatorsTimeAndContext)
{
    // In every event (several contexts, same-time events, a scheduler swapped in before the
    // run) the running event the scheduler keeps is Simulator::Now and GetContext; before the
    // run and with another scheduler it is not known.
    Simulator::Destroy();
    ObjectFactory f;
    f.SetTypeId("ns3::MrcHeapScheduler");
    Simulator::SetScheduler(f);
    Simulator::SetScheduler(f); // the second one takes over the first one's events
    EXPECT_FALSE(MrcHeapScheduler::GetRunningEvent().known);
    int checked = 0;
    std::mt19937 rng(3);
    std::function<void(int)> fire = [&](int left) {
        const MrcHeapScheduler::RunningEvent& r = MrcHeapScheduler::GetRunningEvent();
        EXPECT_TRUE(r.known);
        EXPECT_EQ(r.ts, static_cast<uint64_t>(Simulator::Now().GetTimeStep()));
        EXPECT_EQ(r.context, Simulator::GetContext());
        ++checked;
        if (left > 0)
        {
            Simulator::ScheduleWithContext(rng() % 5, NanoSeconds(rng() % 3), [&fire, left]() {
                fire(left - 1);
            });
            Simulator::Schedule(NanoSeconds(rng() % 3), [&fire]() { fire(0); });
        }
    };
    Simulator::ScheduleWithContext(7, NanoSeconds(1), [&fire]() { fire(200); });
    Simulator::Run();
    EXPECT_EQ(checked, 401);
    Simulator::Destroy();
    f.SetTypeId("ns3::MapScheduler");
    Simulator::SetScheduler(f);
    Simulator::Schedule(NanoSeconds(1), []() {
        EXPECT_FALSE(MrcHeapScheduler::GetRunningEvent().known); // no MrcHeapScheduler
    });
    Simulator::Run();
    Simulator::Destroy();
}

TEST(MrcTrackedEvent, IsPendingAgreesWithIsExpiredAndMrcNowWithSimulatorNow)
{
    // A random program of timers kept as MrcTrackedEvent (Set, Fired first in the handler,
    // Remove, Cancel, rescheduling from inside the handler): after every step each timer's
    // IsPending is !IsExpired of its EventId, and MrcNow() is Simulator::Now(), before the
    // run and in every event, under MrcHeapScheduler and under schedulers where MrcNow asks
    // the simulator.
    for (const std::string type :
         {"ns3::MrcHeapScheduler", "ns3::MapScheduler", "ns3::MrcCanonicalScheduler"})
    {
        SCOPED_TRACE(type);
        Simulator::Destroy();
        ObjectFactory f;
        f.SetTypeId(type);
        Simulator::SetScheduler(f);
        constexpr int TIMERS = 6;
        std::vector<MrcTrackedEvent> timers(TIMERS);
        std::mt19937_64 rng(11);
        int steps = 0;
        int fired = 0;
        std::function<void(int)> handler;
        auto check = [&timers]() {
            EXPECT_EQ(MrcNow(), Simulator::Now());
            for (const MrcTrackedEvent& t : timers)
            {
                EXPECT_EQ(t.IsPending(), !t.GetId().IsExpired());
            }
        };
        auto arm = [&timers, &rng, &handler](int i) {
            timers[i].Remove();
            timers[i].Set(
                Simulator::Schedule(NanoSeconds(rng() % 20), [&handler, i]() { handler(i); }));
        };
        handler = [&](int i) {
            timers[i].Fired();
            ++fired;
            check();
            for (int k = 0; k < 3 && steps < 4000; ++k, ++steps)
            {
                const int j = static_cast<int>(rng() % TIMERS);
                switch (rng() % 5)
                {
                case 0:
                    timers[j].Remove();
                    break;
                case 1:
                    timers[j].Cancel();
                    break;
                default:
                    arm(j);
                    break;
                }
                check();
            }
            if (steps < 4000 && !timers[i].IsPending())
            {
                arm(i); // keep the program going until its steps are done
                check();
            }
        };
        check();
        for (int i = 0; i < TIMERS; ++i)
        {
            arm(i);
        }
        check();
        Simulator::Run();
        check();
        EXPECT_GT(fired, 500);
        for (const MrcTrackedEvent& t : timers)
        {
            EXPECT_FALSE(t.IsPending());
        }
        Simulator::Destroy();
    }
    ObjectFactory f;
    f.SetTypeId("ns3::MapScheduler");
    Simulator::SetScheduler(f);
    Simulator::Destroy();
}
