/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_HEAP_SCHEDULER_H
#define MRC_HEAP_SCHEDULER_H

#include "mrc-event-wheel.h"

#include "ns3/nstime.h"
#include "ns3/scheduler.h"
#include "ns3/simulator.h"

#include <cstdint>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * An event scheduler with the event order of ns-3's own schedulers and a Remove that does
 * not scan the queue.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * An event queue ordered by the events' key (time stamp, then uid), the order every ns-3
 * scheduler follows: the key is unique, so this scheduler hands out exactly the events
 * ns-3's PriorityQueueScheduler or MapScheduler would, in the same sequence.
 *
 * The queue (MrcEventWheel) is a calendar for the near future and a 4-ary heap
 * (MrcQuaternaryHeap) for the rest: a fabric's events lie a serialization or a link's delay
 * ahead (tens of nanoseconds to microseconds), so they go unsorted into buckets of
 * BucketWidth (default 1 ns) on a wheel of 2^BucketsLog2 (default 4,096) buckets, whose
 * entries share one pool of nodes; a bucket is sorted when the clock reaches it and handed
 * out in order; timers further ahead wait in the heap. Until 2026-12-05 the heap held every
 * event (hence the class's name), and a pop walked from the root to a leaf of a heap of
 * thousands of events (issue 22, doc/mrc-performance.rst, twenty-third part).
 *
 * What differs is Remove (EventId::Remove, Simulator::Remove). ns-3's
 * PriorityQueueScheduler searches its whole heap for the event. This scheduler deletes
 * lazily instead: a removed event's key goes into a min-heap, and the event stays in the
 * queue until it reaches the top, where both copies are dropped together. Since both use
 * the same order and the removed events are a subset of the queued ones, the smallest
 * removed key is always the first removed event to reach the top. RemoveNext compares each
 * entry it pops with that key's time stamp (and the key when they match) and pops again
 * while the entry is that removed event; IsEmpty compares the queue's size with the number
 * of removed keys (removed entries left after the last pending event stay until the
 * scheduler goes or a later pop reaches them); PeekNext, and Remove when the removed event
 * is the top, drop the removed entries at the top first. So no
 * look at the new top is needed after every pop while a removed event is queued (a RoCE QP's
 * stopped ACK timer stays queued for its whole timeout: 37 instructions an event in perm128-roce),
 * and the events handed out, their order and the event count are those of an eager removal.
 *
 * The event's EventImpl is not touched by the scheduler: the simulator cancels it and
 * releases its reference when it calls Remove, and a removed event's pointer, still in the
 * queue until it is dropped, is never read again (at most read ahead, as the next pop's
 * candidate: a hint, never a load).
 *
 * mrc-sim uses it for every run without --ranks (SchedulerType ns3::MrcHeapScheduler).
 *
 * Slots (an event scheduled later with the place it would have had). A caller that would
 * schedule an event now but may find out later that it is not needed, or that would rather
 * schedule it later (MrcNetDevice's end of serialization when nothing waits; MrcChannel's
 * delivery of a frame behind another on the wire) takes a slot instead (TakeSlot): a place
 * just after the newest event inserted so far, and after the slots taken since that insert.
 * If it schedules the event after all, InsertNextAtSlot makes the next Insert order it at
 * that place among the events of its time stamp: exactly where the event would have run had
 * it been scheduled when the slot was taken, since the simulator hands out uids in increasing
 * order. HasSlotPassed tells whether the event that runs now comes after that place. A slot
 * is the newest uid times 2^16 plus its rank (1 to 65,535) among the slots taken since that
 * uid's insert; one more TakeSlot before the next Insert is refused (the caller schedules at
 * once, which gives the same order). A slotted event carries its rank in its queued entry
 * (between the uid and the context's low half in the word its order is read from) and is
 * handed to the simulator with the
 * slot's uid as its uid, so the simulator's current uid never decreases. It must not be
 * passed to Simulator::Remove (it has no EventId; the callers schedule reusable events).
 * The static functions use the MrcHeapScheduler made last and still alive (the simulator's:
 * SetScheduler makes the new one before it drops the old); a second one made by hand while a
 * simulation runs would take that role. Events moved by SetScheduler during a run lose
 * their slot.
 *
 * Reading ahead. The pop makes the next event known while the one just popped has still to
 * run (for a frame hop, about a microsecond of CPU), so RemoveNext asks the processor to load
 * the next event's lines into the cache: its EventImpl and the three lines from an address
 * its Notify reads first (the object's first 192 bytes: a Packet spans two lines, a device's
 * send path is its second and third), named by whoever scheduled it (HintNextInsert, just
 * before the Schedule call; the entry carries it, 32 bytes an entry). Not when the pop emptied the
 * wheel's current bucket (finding the next bucket then would move the wheel's start past the
 * clock). MrcChannel names the frame of a delivery (its Packet object), MrcNetDevice itself for the
 * end of a serialization. A hint changes no order and no outcome (a prefetch neither faults nor
 * writes; a wrong or stale address costs one wasted load); it hides part of the memory latency of
 * large fabrics, whose events touch state that has long left the cache (issue 22,
 * doc/mrc-performance.rst, seventeenth part).
 */
class MrcHeapScheduler : public Scheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcHeapScheduler();
    ~MrcHeapScheduler() override;

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

    /// \return the events in the queue, removed ones not yet dropped included (for tests)
    std::size_t GetHeapSize() const;

    /// \return true while an MrcHeapScheduler is the simulator's scheduler
    static bool IsActive();

    /**
     * Take a slot: the place in the order an event scheduled now would get (class text).
     * \param[out] slot the slot, if taken
     * \return false if no MrcHeapScheduler is in use or 65,535 slots were taken since the last
     *         Insert (then schedule the event now)
     */
    static bool TakeSlot(uint64_t& slot)
    {
        MrcHeapScheduler* s = s_active;
        if (s == nullptr || s->m_slotsTaken == MAX_RANK)
        {
            return false;
        }
        ++s->m_slotsTaken;
        slot = (static_cast<uint64_t>(s->m_lastUid) << RANK_SHIFT) | s->m_slotsTaken;
        return true;
    }

    /**
     * \param slot a slot whose time stamp is the current time
     * \return true if the event running now comes after the slot's place
     */
    static bool HasSlotPassed(uint64_t slot);

    /**
     * Order the next Insert at a slot taken before (used once).
     * \param slot the slot (TakeSlot)
     */
    static void InsertNextAtSlot(uint64_t slot);

    /**
     * Name the memory the next inserted event reads first (used once, by the next Insert).
     * When that event comes to the top of the queue, the scheduler asks the processor to
     * load the event's own line and this one while the event before it runs. A hint only:
     * the order and the outcome of the events do not depend on it, and a wrong one costs a
     * wasted load.
     * \param p an address the event reads first (an object, a packet)
     */
    static void HintNextInsert(const void* p);

    /// \return the address hinted for the event PeekNext gives (null if none)
    const void* PeekNextHint() const;

    /// The event the simulator runs now, as the scheduler in use handed it out.
    struct RunningEvent
    {
        uint64_t ts{0};      //!< its time stamp: Simulator::Now()
        uint32_t context{0}; //!< its context: Simulator::GetContext()
        bool known{false};   //!< false until the scheduler in use handed out an event
    };

    /**
     * The simulator sets its time and context from the event it takes from its scheduler,
     * and from nothing else, so the frame path can read them here without the calls
     * through the simulator (about 50 and 30 instructions each).
     * \return the running event; not known if no MrcHeapScheduler is in use or it has not
     *         handed out an event yet (before Simulator::Run): then ask the Simulator
     */
    static const RunningEvent& GetRunningEvent()
    {
        return s_running;
    }

  private:
    /// \param a an event key \param b another \return true if a runs before b
    static bool Before(const EventKey& a, const EventKey& b);

    /// A slot's rank: the low bits of a slot.
    static constexpr unsigned RANK_SHIFT = 16;
    /// The most slots given out between two inserts.
    static constexpr uint64_t MAX_RANK = (uint64_t(1) << RANK_SHIFT) - 1;
    /// The bits of an entry's hint word that hold the hinted address (user-space addresses
    /// fit; the top 16 bits hold the high half of the context).
    static constexpr uint64_t ADDRESS_MASK = (uint64_t(1) << 48) - 1;

    /// A queued event, kept in the order its comparison reads: the time stamp, then one
    /// word with the uid (bits 32-63), the slot's rank (bits 16-31, 0 for an event that was
    /// not slotted) and the low half of the context (bits 0-15), which leaves the order of
    /// (uid, rank) as it is since no two queued entries share both; the EventImpl as the
    /// simulator gave it; and one word with the high half of the context (bits 48-63) and
    /// the address the event reads first (HintNextInsert; a stand-in if none), which only a
    /// read-ahead uses (an address that does not fit in 48 bits costs at worst a wasted
    /// load). 32 bytes (two a cache line in the wheel's current bucket; four children of a
    /// node of the heap beyond the wheel in two lines).
    struct Entry
    {
        uint64_t ts;      //!< time stamp
        uint64_t tie;     //!< uid << 32 | rank << 16 | context & 0xffff
        EventImpl* impl;  //!< the event
        uint64_t hintCtx; //!< (context >> 16) << 48 | hinted address
    };

    /// \param ev an event \param rank its slot's rank (0: none) \param hint its hint
    /// \return the entry
    static Entry MakeEntry(const Event& ev, uint64_t rank, const void* hint)
    {
        return Entry{ev.key.m_ts,
                     (static_cast<uint64_t>(ev.key.m_uid) << 32) | (rank << RANK_SHIFT) |
                         (ev.key.m_context & 0xffffu),
                     ev.impl,
                     (static_cast<uint64_t>(ev.key.m_context >> 16) << 48) |
                         (reinterpret_cast<uintptr_t>(hint) & ADDRESS_MASK)};
    }

    /// \param e a queued entry \return the event as the simulator sees it
    static Event EventOf(const Entry& e)
    {
        Event ev;
        ev.impl = e.impl;
        ev.key.m_ts = e.ts;
        ev.key.m_uid = static_cast<uint32_t>(e.tie >> 32);
        ev.key.m_context = static_cast<uint32_t>(((e.hintCtx >> 48) << 16) | (e.tie & 0xffffu));
        return ev;
    }

    /// \param e a queued entry \return its place: its uid, then its slot's rank, as one
    ///         number (a slot's value)
    static uint64_t PlaceOf(const Entry& e)
    {
        return e.tie >> RANK_SHIFT;
    }

    /// \param e a queued entry \return true if it was inserted at a slot
    static bool IsSlotted(const Entry& e)
    {
        return (PlaceOf(e) & MAX_RANK) != 0;
    }

    /// \param e a queued entry \return the address its event reads first
    static const void* HintOf(const Entry& e)
    {
        return reinterpret_cast<const void*>(static_cast<uintptr_t>(e.hintCtx & ADDRESS_MASK));
    }

    /// The order of queued events: Before on their keys; of the same key (a uid and the
    /// slots named after it), the event that has the uid first, then the slots by rank.
    /// Written without branches, as MrcQuaternaryHeap's pop wants: one 128-bit comparison
    /// of (time stamp, tie word) where the compiler has 128-bit integers (a compare and a
    /// subtract with borrow on x86-64), else bitwise operations on the outcomes.
    struct EventBefore
    {
        /// \param x an entry \param y another \return true if x's event runs before y's
        bool operator()(const Entry& x, const Entry& y) const
        {
#ifdef __SIZEOF_INT128__
            return ((static_cast<__uint128_t>(x.ts) << 64) | x.tie) <
                   ((static_cast<__uint128_t>(y.ts) << 64) | y.tie);
#else
            return (x.ts < y.ts) | ((x.ts == y.ts) & (x.tie < y.tie));
#endif
        }
    };

    /// \param top the queue's top entry (m_removed not empty) \return true if it is the
    /// entry of the removed event with the smallest key
    bool IsRemovedTop(const Entry& top) const;
    /// Drop the top entries while they are removed events.
    void DropRemoved();
    /// \param entry the entry just popped \return it, or the first entry after it that is
    /// not a removed event's (the removed ones popped and dropped)
    Entry PopPastRemoved(Entry entry);
    /// Put a removed event's key into m_removed (a binary min-heap). \param k its key
    void PushRemoved(const EventKey& k);
    /// Take the smallest key out of m_removed.
    void PopRemoved();

    /// An entry's time stamp, for the wheel's buckets.
    struct EntryStamp
    {
        /// \param e an entry \return its time stamp
        uint64_t operator()(const Entry& e) const
        {
            return e.ts;
        }
    };

    /// Give the wheel the shape of the attributes (at the first Insert).
    void Shape();

    MrcEventWheel<Entry, EventBefore, EntryStamp> m_queue; //!< the queued events by key
    std::vector<EventKey> m_removed;   //!< min-heap of the keys of removed, still queued events
    uint64_t m_removedTs{UINT64_MAX};  //!< m_removed's smallest time stamp (none: the maximum)
    static RunningEvent s_running;     //!< the running event, if the scheduler in use knows it
    static MrcHeapScheduler* s_active; //!< the scheduler in use, if one of these
    uint32_t m_lastUid{0};             //!< uid of the newest inserted event
    uint64_t m_currentPlace{0};        //!< place (PlaceOf) of the event handed out last
    uint32_t m_slotsTaken{0};          //!< slots TakeSlot gave out since the last Insert
    Time m_bucketWidth;                //!< attribute BucketWidth
    uint32_t m_bucketsLog2{12};        //!< attribute BucketsLog2
    bool m_shaped{false};              //!< the wheel has the attributes' shape
};

/**
 * \ingroup mrc
 * The current simulation time, as Simulator::Now() gives it: read from the running event
 * when MrcHeapScheduler handed it out (MrcHeapScheduler::GetRunningEvent), else asked of the
 * simulator. Saves the call through the simulator (about 50 instructions) on the
 * transport's per-packet paths.
 * \return the current simulation time
 */
inline Time
MrcNow()
{
    const MrcHeapScheduler::RunningEvent& running = MrcHeapScheduler::GetRunningEvent();
    return running.known ? TimeStep(running.ts) : Simulator::Now();
}

} // namespace ns3

#endif /* MRC_HEAP_SCHEDULER_H */
