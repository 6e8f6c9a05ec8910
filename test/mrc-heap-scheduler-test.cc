/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of MrcHeapScheduler: the same pop sequence as ns-3's MapScheduler for random
// insert / remove / pop sequences, Remove of the head, the last and a middle event, and the
// simulator's Remove, Cancel and IsExpired on top of it.

#include "ns3/event-impl.h"
#include "ns3/make-event.h"
#include "ns3/map-scheduler.h"
#include "ns3/mrc-heap-scheduler.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"

#include <cstdint>
#include <functional>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

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

TEST(MrcHeapScheduler, RandomSequencesPopInMapSchedulerOrder)
{
    // Insert with few distinct time stamps (many ties broken by uid), remove random queued
    // events, pop: every pop and every PeekNext equals ns-3's MapScheduler's.
    for (uint32_t seed = 1; seed <= 20; ++seed)
    {
        std::mt19937_64 rng(seed);
        EventPool pool;
        Ptr<MrcHeapScheduler> heap = CreateObject<MrcHeapScheduler>();
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
    EXPECT_EQ(s->GetHeapSize(), 0u); // removed events dropped, none handed out
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
    runWith("ns3::MrcHeapScheduler", heapLog);
    runWith("ns3::MapScheduler", mapLog);
    EXPECT_GT(heapLog.size(), 3000u);
    EXPECT_EQ(heapLog, mapLog);
}
