/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-heap-scheduler.h"

#include "ns3/assert.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <functional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcHeapScheduler");

NS_OBJECT_ENSURE_REGISTERED(MrcHeapScheduler);

namespace
{
bool g_slotPending = false; //!< InsertNextAtSlot is pending
uint64_t g_slot = 0;        //!< its slot
// A hint's stand-in when there is none: read ahead like a hint, so that the pop needs no
// branch (a prefetch of a null pointer is harmless too, but may walk the page tables).
const char g_noHint = 0;
const void* g_hint = &g_noHint; //!< HintNextInsert's address, for the next Insert
} // namespace

MrcHeapScheduler::RunningEvent MrcHeapScheduler::s_running;
MrcHeapScheduler* MrcHeapScheduler::s_active = nullptr;

TypeId
MrcHeapScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcHeapScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcHeapScheduler>()
                            .AddAttribute("BucketWidth",
                                          "Time a bucket of the event wheel covers (rounded "
                                          "down to a power of two time steps, at least one); "
                                          "events within 2^BucketsLog2 x BucketWidth of the "
                                          "wheel's start go into its buckets, later ones into "
                                          "a 4-ary heap",
                                          TimeValue(NanoSeconds(1)),
                                          MakeTimeAccessor(&MrcHeapScheduler::m_bucketWidth),
                                          MakeTimeChecker(TimeStep(1), Seconds(1)))
                            .AddAttribute("BucketsLog2",
                                          "The event wheel has 2^BucketsLog2 buckets",
                                          UintegerValue(12),
                                          MakeUintegerAccessor(&MrcHeapScheduler::m_bucketsLog2),
                                          MakeUintegerChecker<uint32_t>(1, 20));
    return tid;
}

MrcHeapScheduler::MrcHeapScheduler()
{
    static_assert(sizeof(Entry) == 32,
                  "four entries (a node's children) are meant to fill two cache lines");
    NS_LOG_FUNCTION(this);
    // The simulator makes its new scheduler before it drops the old one (SetScheduler).
    s_active = this;
    g_slotPending = false;
    s_running.known = false;
}

MrcHeapScheduler::~MrcHeapScheduler()
{
    NS_LOG_FUNCTION(this);
    if (s_active == this)
    {
        s_active = nullptr;
        g_slotPending = false;
        s_running.known = false;
    }
}

bool
MrcHeapScheduler::IsActive()
{
    return s_active != nullptr;
}

bool
MrcHeapScheduler::HasSlotPassed(uint64_t slot)
{
    // The slot sorts after the event with its uid and the slots of lower rank, and before
    // every later uid; the event running now has m_currentPlace (its own slot if it was
    // slotted: each slot is given out once, so never this one). No scheduler: nothing can
    // be ordered at the slot any more.
    return s_active == nullptr || slot < s_active->m_currentPlace;
}

void
MrcHeapScheduler::InsertNextAtSlot(uint64_t slot)
{
    g_slotPending = true;
    g_slot = slot;
}

void
MrcHeapScheduler::HintNextInsert(const void* p)
{
    g_hint = p != nullptr ? p : &g_noHint;
}

const void*
MrcHeapScheduler::PeekNextHint() const
{
    NS_ASSERT_MSG(!IsEmpty(), "MrcHeapScheduler::PeekNextHint: no event");
    const_cast<MrcHeapScheduler*>(this)->DropRemoved(); // as PeekNext
    const void* hint = HintOf(m_queue.Peek());
    return hint == HintOf(MakeEntry(Event{}, 0, &g_noHint)) ? nullptr : hint;
}

void
MrcHeapScheduler::Shape()
{
    // At the first Insert, when the attributes are set and the time resolution is fixed.
    const int64_t steps = std::max<int64_t>(1, m_bucketWidth.GetTimeStep());
    unsigned widthLog2 = 0;
    while (widthLog2 < 40 && (int64_t{2} << widthLog2) <= steps)
    {
        ++widthLog2;
    }
    m_queue.Configure(widthLog2, m_bucketsLog2);
    m_shaped = true;
    NS_LOG_DEBUG("wheel: 2^" << m_bucketsLog2 << " buckets of 2^" << widthLog2 << " time steps");
}

bool
MrcHeapScheduler::Before(const EventKey& a, const EventKey& b)
{
    return a.m_ts < b.m_ts || (a.m_ts == b.m_ts && a.m_uid < b.m_uid);
}

void
MrcHeapScheduler::Insert(const Event& ev)
{
    NS_LOG_FUNCTION(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    if (!m_shaped)
    {
        Shape();
    }
    m_lastUid = ev.key.m_uid;
    m_slotsTaken = 0;
    const void* hint = g_hint;
    g_hint = &g_noHint;
    if (g_slotPending)
    {
        g_slotPending = false;
        const uint64_t uid = g_slot >> RANK_SHIFT;
        NS_ASSERT_MSG(uid <= ev.key.m_uid,
                      "MrcHeapScheduler: slot " << uid << " after uid " << ev.key.m_uid);
        Event slotted = ev;
        slotted.key.m_uid = static_cast<uint32_t>(uid);
        m_queue.Push(MakeEntry(slotted, g_slot & MAX_RANK, hint));
        return;
    }
    m_queue.Push(MakeEntry(ev, 0, hint));
}

bool
MrcHeapScheduler::IsEmpty() const
{
    // every removed key names an entry still queued: the rest are the pending events
    return m_queue.Size() == m_removed.size();
}

Scheduler::Event
MrcHeapScheduler::PeekNext() const
{
    NS_ASSERT_MSG(!IsEmpty(), "MrcHeapScheduler::PeekNext: no event");
    // the pending events stay the same: only entries of removed events leave the queue
    const_cast<MrcHeapScheduler*>(this)->DropRemoved();
    return EventOf(m_queue.Peek());
}

void
MrcHeapScheduler::PushRemoved(const EventKey& k)
{
    m_removed.push_back(k);
    std::push_heap(m_removed.begin(), m_removed.end(), [](const EventKey& a, const EventKey& b) {
        return Before(b, a);
    });
    m_removedTs = m_removed.front().m_ts;
}

void
MrcHeapScheduler::PopRemoved()
{
    std::pop_heap(m_removed.begin(), m_removed.end(), [](const EventKey& a, const EventKey& b) {
        return Before(b, a);
    });
    m_removed.pop_back();
    m_removedTs = m_removed.empty() ? UINT64_MAX : m_removed.front().m_ts;
}

bool
MrcHeapScheduler::IsRemovedTop(const Entry& top) const
{
    // The smallest removed key is the first removed event to reach the top (same order).
    // Both fields are compared: a uid alone is reused once ns-3's 32-bit counter wraps.
    // A slotted event is never removed (it shares its key with the event of that uid).
    return (top.tie >> 32) == m_removed.front().m_uid && top.ts == m_removed.front().m_ts &&
           !IsSlotted(top);
}

void
MrcHeapScheduler::DropRemoved()
{
    while (!m_removed.empty() && !m_queue.Empty())
    {
        if (!IsRemovedTop(m_queue.Peek()))
        {
            break;
        }
        NS_LOG_LOGIC("dropping removed event " << m_removed.front().m_uid);
        m_queue.PopTop();
        PopRemoved();
    }
}

MrcHeapScheduler::Entry
MrcHeapScheduler::PopPastRemoved(Entry entry)
{
    while (!m_removed.empty() && IsRemovedTop(entry))
    {
        NS_LOG_LOGIC("dropping removed event " << m_removed.front().m_uid);
        PopRemoved();
        entry = m_queue.PopTop(); // there is a pending event (IsEmpty is false)
    }
    return entry;
}

Scheduler::Event
MrcHeapScheduler::RemoveNext()
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT_MSG(!IsEmpty(), "MrcHeapScheduler::RemoveNext: no event");
    Entry entry = m_queue.PopTop();
    // A removed event's entry leaves the queue when it reaches the top (the smallest removed
    // key is the first to get there): here, where the pop is done anyway, rather than by a
    // look at the new top after every pop while any removed event is queued.
    if (entry.ts >= m_removedTs)
    {
        entry = PopPastRemoved(entry);
    }
    const Event top = EventOf(entry);
    m_currentPlace = PlaceOf(entry);
    if (this == s_active) // not an old scheduler handing its events to a new one
    {
        s_running.ts = top.key.m_ts;
        s_running.context = top.key.m_context;
        s_running.known = true;
    }
#if defined(__GNUC__) || defined(__clang__)
    if (const Entry* next = m_queue.PeekReady())
    {
        // The next event (unless this one schedules an earlier one): its own line and the
        // three lines from the address it reads first, loaded while this one runs (class
        // text). Not when the pop emptied the wheel's current bucket: finding the next one
        // now would move the wheel's start past the clock. (The addresses are integers: a
        // prefetch neither faults nor reads, and the lines may lie past the hinted object.)
        __builtin_prefetch(next->impl);
        const uintptr_t hint = reinterpret_cast<uintptr_t>(HintOf(*next));
        __builtin_prefetch(reinterpret_cast<const void*>(hint));
        __builtin_prefetch(reinterpret_cast<const void*>(hint + 64));
        __builtin_prefetch(reinterpret_cast<const void*>(hint + 128));
    }
#endif
    return top;
}

void
MrcHeapScheduler::Remove(const Event& ev)
{
    NS_LOG_FUNCTION(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    NS_ASSERT_MSG(!m_queue.Empty() && !Before(ev.key, EventOf(m_queue.Peek()).key),
                  "MrcHeapScheduler::Remove: event " << ev.key.m_uid << " is not queued");
    PushRemoved(ev.key);
    DropRemoved();
}

std::size_t
MrcHeapScheduler::GetHeapSize() const
{
    return m_queue.Size();
}

} // namespace ns3
