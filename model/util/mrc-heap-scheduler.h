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
 * Streams keep the heap small. A stream is a sequence of events that its owner schedules in
 * their own order (the frames travelling one way on one link: each arrives after the one sent
 * before it). Only a stream's oldest event sits in the heap; the later ones wait in the
 * stream's FIFO and the next one enters the heap when its predecessor leaves it. An event
 * marked for a stream (SetNextStream) that would run before the stream's newest event goes
 * into the heap on its own, so the order stays exactly (time stamp, uid) whatever the marks:
 * a stream changes the size of the heap, never the sequence of events.
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

    /// \return the events in the heap itself (not those waiting in a stream's FIFO)
    std::size_t GetHeapEntries() const;

    /// \return true while an MrcHeapScheduler is the simulator's scheduler
    static bool IsActive();

    /**
     * A new stream of the active scheduler (see the class text).
     * \return its handle, or 0 if no MrcHeapScheduler is active
     */
    static uint32_t NewStream();

    /**
     * \return a count that changes whenever another MrcHeapScheduler becomes active (a
     *         stream handle is valid only for the scheduler that gave it)
     */
    static uint64_t GetGeneration();

    /**
     * Mark the next Insert as an event of a stream (used once; 0: none).
     * \param stream a handle from NewStream
     */
    static void SetNextStream(uint32_t stream);

  private:
    /// A queued event and the stream it belongs to (0: none).
    struct Entry
    {
        Event ev;        //!< the event
        uint32_t stream; //!< its stream, if it is the stream's oldest event
    };

    /// The events of a stream after its oldest one (which is in the heap), oldest first.
    struct Stream
    {
        std::vector<Event> slots; //!< ring storage (a power of two long, or empty)
        uint32_t head{0};         //!< index of the oldest waiting event
        uint32_t size{0};         //!< waiting events
        bool inHeap{false};       //!< the stream's oldest event is in the heap
        EventKey last{};          //!< key of the stream's newest event
    };

    /// \param a an event key \param b another \return true if a runs before b
    static bool Before(const EventKey& a, const EventKey& b);

    /// The order of entries: Before on their events' keys.
    struct EntryBefore
    {
        /// \param a an entry \param b another \return true if a runs before b
        bool operator()(const Entry& a, const Entry& b) const
        {
            return Before(a.ev.key, b.ev.key);
        }
    };

    /// Take the top entry out of the heap; its stream's next event takes its place.
    void PopTop();
    /// Queue an event of a stream. \param ev the event \param stream its stream's handle
    void InsertInStream(const Event& ev, uint32_t stream);

    /// Drop the top entries while they are removed events.
    void DropRemoved();
    /// Put a removed event's key into m_removed (a binary min-heap). \param k its key
    void PushRemoved(const EventKey& k);
    /// Take the smallest key out of m_removed.
    void PopRemoved();

    MrcQuaternaryHeap<Entry, EntryBefore> m_heap; //!< the queued events by key
    std::vector<EventKey> m_removed; //!< min-heap of the keys of removed, still queued events
    std::vector<Stream> m_streams;   //!< by handle (0 unused)
    std::size_t m_waiting{0};        //!< events in the streams' FIFOs
};

} // namespace ns3

#endif /* MRC_HEAP_SCHEDULER_H */
