/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CANONICAL_SCHEDULER_H
#define MRC_CANONICAL_SCHEDULER_H

#include "mrc-quaternary-heap.h"

#include "ns3/scheduler.h"

#include <cstdint>
#include <functional>
#include <unordered_set>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * An event scheduler whose order of same-time events does not depend on how the nodes are
 * split over MPI ranks.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * ns-3's schedulers run events of the same time stamp in the order they were scheduled (the
 * event uid). In a run split over ranks, a frame from another rank is scheduled when its
 * MPI message is received, not when it was sent, so its order among the events of its time
 * stamp could differ from one process. This scheduler orders events by
 * (time, time they were scheduled, node that scheduled them, that node's count of
 * schedulings): every term is the same whatever the split, because a node's events all run
 * on its own rank. A frame on a link is scheduled in the name of its sending node
 * (MrcChannel: SetNextInsertion with TakeSequence); a frame from another rank carries those
 * terms and is scheduled with them on its arrival rank. Events scheduled outside any node's
 * event (set-up, failures) use the context Simulator::NO_CONTEXT, which sorts last.
 *
 * mrc-sim uses it for every run with --ranks (1 included: the reference of the splits).
 * A 4-ary min-heap with a bottom-up pop (as MrcHeapScheduler). Remove (EventId::Remove,
 * Simulator::Remove) is lazy and O(log n) amortized, as in MrcHeapScheduler: the removed event's
 * key (time stamp, uid) goes into a hash set and the entry stays in the heap until it reaches the
 * top, where it is dropped. After every Remove and RemoveNext the top is checked, so the top is
 * never a removed event and PeekNext, IsEmpty and the pop order are those of the heap without it.
 * The removed event's EventImpl (cancelled and released by the simulator) is never read again.
 */
class MrcCanonicalScheduler : public Scheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcCanonicalScheduler();
    ~MrcCanonicalScheduler() override;

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

    /// \return the entries in the heap, removed ones not yet dropped included (for tests)
    std::size_t GetHeapSize() const;

    /// \return true while an MrcCanonicalScheduler is the simulator's scheduler
    static bool IsActive();

    /**
     * Count one scheduling by a node, as Insert does (for a frame sent to another rank,
     * where the scheduling itself happens on the arrival rank).
     * \param node the scheduling node's id
     * \return the node's count of schedulings, this one included
     */
    static uint64_t TakeSequence(uint32_t node);

    /**
     * The order terms of the next Insert, instead of the current time, context and count
     * (used once).
     * \param insertTs the time it counts as scheduled at (time steps)
     * \param node the node it counts as scheduled by
     * \param seq that node's count (TakeSequence)
     */
    static void SetNextInsertion(int64_t insertTs, uint32_t node, uint64_t seq);

  private:
    /// An event with its order terms.
    struct Entry
    {
        uint64_t ts;      //!< time stamp
        int64_t insertTs; //!< time it was scheduled at
        uint32_t node;    //!< node that scheduled it (NO_CONTEXT last)
        uint64_t seq;     //!< that node's count of schedulings
        Event ev;         //!< the event
    };

    /// \return true if a runs after b
    static bool After(const Entry& a, const Entry& b);
    /// \param node a node id or NO_CONTEXT \return its count, incremented
    uint64_t NextSequence(uint32_t node);

    /// The order of entries: a before b if b runs after a.
    struct EntryBefore
    {
        /// \param a an entry \param b another \return true if a runs before b
        bool operator()(const Entry& a, const Entry& b) const
        {
            return After(b, a);
        }
    };

    /// Drop the top entries while they are removed events.
    void DropRemoved();

    /// The key of a removed event: its time stamp and uid (a uid alone is reused once
    /// ns-3's 32-bit counter wraps).
    struct RemovedKey
    {
        uint64_t ts;  //!< time stamp
        uint32_t uid; //!< event uid

        /// \param o another key \return true if both fields are equal
        bool operator==(const RemovedKey& o) const
        {
            return ts == o.ts && uid == o.uid;
        }
    };

    /// Hash of a RemovedKey.
    struct RemovedKeyHash
    {
        /// \param k a key \return its hash
        std::size_t operator()(const RemovedKey& k) const
        {
            return std::hash<uint64_t>()(k.ts * 0x9e3779b97f4a7c15ULL ^ k.uid);
        }
    };

    MrcQuaternaryHeap<Entry, EntryBefore> m_heap; //!< the queued events by order terms
    std::vector<uint64_t> m_seq;                  //!< per node id: schedulings so far
    uint64_t m_noContextSeq{0};                   //!< schedulings outside a node's events
    std::unordered_set<RemovedKey, RemovedKeyHash> m_removed; //!< removed, still in m_heap
};

} // namespace ns3

#endif /* MRC_CANONICAL_SCHEDULER_H */
