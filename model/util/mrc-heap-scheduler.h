/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_HEAP_SCHEDULER_H
#define MRC_HEAP_SCHEDULER_H

#include "mrc-quaternary-heap.h"

#include "ns3/scheduler.h"

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
 * A 4-ary min-heap of events ordered by their key (time stamp, then uid), the order every
 * ns-3 scheduler follows: the key is unique, so this scheduler hands out exactly the events
 * ns-3's PriorityQueueScheduler or MapScheduler would, in the same sequence.
 *
 * What differs is Remove (EventId::Remove, Simulator::Remove). ns-3's
 * PriorityQueueScheduler searches its whole heap for the event. This scheduler deletes
 * lazily instead: a removed event's key goes into a second min-heap, and the event stays
 * in the first until it reaches the top, where both copies are dropped together. Since
 * both heaps use the same order and the removed events are a subset of the queued ones,
 * the smallest removed key is always the first removed event to reach the top, so one
 * comparison of the two tops after each RemoveNext and Remove keeps the invariant that the
 * top is never a removed event. Remove and RemoveNext are O(log n).
 *
 * The event's EventImpl is not touched by the scheduler: the simulator cancels it and
 * releases its reference when it calls Remove, and a removed event's pointer, still in the
 * heap until it is dropped, is never read again.
 *
 * mrc-sim uses it for every run without --ranks (SchedulerType ns3::MrcHeapScheduler).
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

  private:
    /// \param a an event key \param b another \return true if a runs before b
    static bool Before(const EventKey& a, const EventKey& b);

    /// The order of events: Before on their keys.
    struct EventBefore
    {
        /// \param a an event \param b another \return true if a runs before b
        bool operator()(const Event& a, const Event& b) const
        {
            return Before(a.key, b.key);
        }
    };

    /// Drop the top entries while they are removed events.
    void DropRemoved();
    /// Put a removed event's key into m_removed (a binary min-heap). \param k its key
    void PushRemoved(const EventKey& k);
    /// Take the smallest key out of m_removed.
    void PopRemoved();

    MrcQuaternaryHeap<Event, EventBefore> m_heap; //!< the queued events by key
    std::vector<EventKey> m_removed; //!< min-heap of the keys of removed, still queued events
};

} // namespace ns3

#endif /* MRC_HEAP_SCHEDULER_H */
