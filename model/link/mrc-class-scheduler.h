/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CLASS_SCHEDULER_H
#define MRC_CLASS_SCHEDULER_H

#include "mrc-ring.h"
#include "mrc-unwritten.h"

#include "ns3/mrc-owned-ptr.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <array>
#include <cstdint>
#include <string>
#include <type_traits>

/**
 * \file
 * \ingroup mrc
 * The eight class queues of a port and the scheduler that picks the next frame:
 * strict priority or deficit weighted round robin, skipping paused classes.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * Eight FIFO class queues (0..7, 7 highest) and the choice of the next frame to
 * send: strict priority (the highest class with frames first) or deficit
 * weighted round robin (DWRR), where a class of weight 0 is served in strict
 * priority above all weighted classes. A class can be paused (802.1Qbb: the
 * owner's PFC port says the peer paused it): a paused class keeps its frames and
 * is skipped until resumed.
 *
 * The object holds frames as its owner gives them (an MrcNetDevice: with their
 * Ethernet header) and counts bytes per class against QueueLimit. A bit mask of
 * the non-empty classes spares a walk over the eight queues per frame. Enqueue,
 * Dequeue and the pause setters are inline: they run for every frame of every
 * hop.
 *
 * Inside an MrcNetDevice the scheduler attributes are set through the device's
 * attributes of the same names (Scheduler, DwrrWeights, DwrrQuantum, QueueLimit),
 * which forward here; the attributes of this TypeId serve a scheduler created on
 * its own.
 */
class MrcClassScheduler : public Object
{
  public:
    static constexpr uint8_t N_CLASSES = 8;                           //!< priority classes
    static constexpr uint8_t NO_CLASS = 0xff;                         //!< "no class is ready"
    static constexpr uint32_t DEFAULT_QUANTUM = 9216;                 //!< DwrrQuantum default
    static constexpr uint32_t DEFAULT_QUEUE_LIMIT = 32u << 20;        //!< QueueLimit default
    static constexpr const char* DEFAULT_WEIGHTS = "1,1,1,1,1,1,1,1"; //!< DwrrWeights default

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcClassScheduler();
    ~MrcClassScheduler() override;

    // ---- configuration ----

    /**
     * \param name "StrictPriority" or "Dwrr" (aborts otherwise)
     */
    void SetScheduler(const std::string& name);
    /// \return "StrictPriority" or "Dwrr"
    std::string GetScheduler() const;
    /// \return true under DWRR, false under strict priority
    bool IsDwrr() const;

    /**
     * Set the DWRR weights, class 0 first, e.g. "1,1,1,1,1,1,1,1". A weight of 0
     * puts the class in strict priority above all weighted classes. Aborts unless
     * there are exactly eight non-negative integers.
     * \param weights the comma-separated weights
     */
    void SetDwrrWeights(const std::string& weights);
    /// \return the DWRR weights in the attribute's syntax
    std::string GetDwrrWeights() const;
    /**
     * \param cls the class, 0..7 (aborts otherwise)
     * \return its DWRR weight
     */
    uint32_t GetDwrrWeight(uint8_t cls) const;

    /// \param bytes DWRR credit per unit of weight and round, at least 1 (aborts otherwise)
    void SetDwrrQuantum(uint32_t bytes);
    /// \return DWRR credit per unit of weight and round
    uint32_t GetDwrrQuantum() const;

    /**
     * \param bytes the most bytes each class queue may hold, at least 1; aborts if a
     *        class now holds more
     */
    void SetQueueLimit(uint32_t bytes);
    /// \return the most bytes each class queue may hold
    uint32_t GetQueueLimit() const;

    // ---- the frame path ----

    /**
     * Append a frame to a class queue if it fits.
     * \param frame the frame
     * \param cls its class, 0..7 (not checked)
     * \param tag the owner's word for this frame, kept beside it in the queue's slot and
     *        handed back when the frame leaves (a switch keeps its buffer accounting
     *        there, so that a frame's queue entry is the one place that describes it)
     *        (59 bits: aborts if one of bits 59-63 is set)
     * \param unwritten what the frame's packet does not hold yet (mrc-unwritten.h: its
     *        device writes it only where something reads it); with MRC_UNWRITTEN_HEADER
     *        the frame's size is the packet's plus MRC_UNWRITTEN_HEADER_BYTES
     * \return false (and the frame not queued) if the class would exceed QueueLimit
     */
    bool Enqueue(const Ptr<Packet>& frame,
                 uint8_t cls,
                 uint64_t tag = 0,
                 uint8_t unwritten = MRC_UNWRITTEN_NONE);

    /**
     * Remove the next frame to send: the head of the class the scheduler picks
     * among the non-empty, non-paused classes.
     * \param[out] cls the frame's class, or NO_CLASS
     * \param[out] tag its tag as given to Enqueue (unchanged if no class is ready)
     * \return the frame, or null if no class is ready
     */
    Ptr<Packet> Dequeue(uint8_t& cls, uint64_t& tag);
    /**
     * Dequeue, with the bytes the frame's packet does not hold.
     * \param[out] cls the frame's class, or NO_CLASS
     * \param[out] tag its tag as given to Enqueue (unchanged if no class is ready)
     * \param[out] unwritten as given to Enqueue (unchanged if no class is ready)
     * \return the frame, or null if no class is ready
     */
    Ptr<Packet> Dequeue(uint8_t& cls, uint64_t& tag, uint8_t& unwritten);
    /// Dequeue without the tag. \param[out] cls the class \return the frame or null
    Ptr<Packet> Dequeue(uint8_t& cls);

    /**
     * Take the newest frame of a class queue out (not sent: e.g. a switch trims it).
     * \param cls the class, 0..7 (aborts otherwise)
     * \return the frame, or null if the class queue is empty
     */
    Ptr<Packet> RemoveLast(uint8_t cls);
    /**
     * RemoveLast, with the bytes the frame's packet does not hold.
     * \param cls the class, 0..7 (aborts otherwise)
     * \param[out] unwritten as given to Enqueue (unchanged if the queue is empty)
     * \return the frame, or null if the class queue is empty
     */
    Ptr<Packet> RemoveLast(uint8_t cls, uint8_t& unwritten);

    /**
     * \param cls the class, 0..7 (aborts otherwise)
     * \param[out] tag the tag of the newest frame of the class, if it has one
     * \return false if the class queue is empty
     */
    bool PeekLastTag(uint8_t cls, uint64_t& tag) const;

    /**
     * Count a frame the owner sent from a class (after its dequeue hook, which may
     * change the frame).
     * \param cls the class, 0..7 (not checked)
     * \param bytes the frame's size
     */
    void CountSent(uint8_t cls, uint32_t bytes);

    /**
     * Pause or resume a class: a paused class keeps its frames and its DWRR
     * credit and is skipped by Dequeue.
     * \param cls the class, 0..7 (not checked)
     * \param paused the new state
     */
    void SetClassPaused(uint8_t cls, bool paused);

    /**
     * Empty every queue, class 0 first and head first, handing each frame to drop
     * (e.g. a link went down); resets the DWRR credits.
     * \param drop called as drop(frame, cls, tag) with each frame after it left its queue,
     *        or as drop(frame, cls, tag, unwritten) if it takes four arguments
     */
    template <typename Drop>
    void Flush(Drop&& drop);

    // ---- state and counters ----

    /**
     * \param cls the class, 0..7 (aborts otherwise)
     * \return true if the class is paused
     */
    bool IsClassPaused(uint8_t cls) const;
    /// \return bit c set: class c is paused
    uint8_t GetPausedMask() const;
    /// \return bit c set: class c holds frames
    uint8_t GetBacklogMask() const;

    /**
     * Ask the processor to load the packet object of the frame a strict-priority dequeue
     * would take next (a hint, nothing changes): a device calls it when it starts a frame,
     * so that the next one is in cache when the serialization ends.
     */
    void PrefetchNext() const;
    /**
     * \param cls the class, 0..7 (aborts otherwise)
     * \return bytes queued on the class
     */
    uint32_t GetQueueBytes(uint8_t cls) const;
    /**
     * \param cls the class, 0..7 (aborts otherwise)
     * \return frames queued on the class
     */
    uint32_t GetQueuePackets(uint8_t cls) const;
    /// \return bytes queued on all classes
    uint64_t GetTotalQueueBytes() const;
    /**
     * \param cls the class, 0..7 (aborts otherwise)
     * \return DWRR credit the class holds now, in bytes
     */
    uint64_t GetDeficit(uint8_t cls) const;
    /**
     * \param cls the class, 0..7 (aborts otherwise)
     * \return frames counted by CountSent on the class
     */
    uint64_t GetSentPackets(uint8_t cls) const;
    /**
     * \param cls the class, 0..7 (aborts otherwise)
     * \return bytes counted by CountSent on the class
     */
    uint64_t GetSentBytes(uint8_t cls) const;

  protected:
    void DoDispose() override;

  private:
    /// \return the highest non-empty, non-paused class, or NO_CLASS
    uint8_t SelectStrict() const;
    /// \return the next class under DWRR (its credit charged for the head frame), or NO_CLASS
    uint8_t SelectDwrr();
    /// \return true if the class has frames and is not paused
    bool IsEligible(uint8_t cls) const;
    /**
     * Abort: a class argument is out of range.
     * \param what who was given it
     * \param cls the class
     */
    [[noreturn]] static void AbortBadClass(const char* what, uint32_t cls);
    /**
     * Abort: a tag uses bits 59-63, which the queue's slot keeps for itself.
     * \param tag the tag
     */
    [[noreturn]] static void AbortBadTag(uint64_t tag);

    /// A queued frame and its owner's tag (Enqueue), in one slot.
    struct Slot
    {
        MrcOwnedPtr<Packet> frame; //!< the frame (the queue's one reference)
        uint64_t word;             //!< bits 0-58: the owner's tag; 59-63: what is unwritten

        /// \return the owner's tag
        uint64_t Tag() const
        {
            return word & MRC_UNWRITTEN_WORD_MASK;
        }

        /// \return what the frame's packet does not hold yet (mrc-unwritten.h)
        uint8_t Unwritten() const
        {
            return static_cast<uint8_t>(word >> MRC_UNWRITTEN_SHIFT);
        }
    };

    /// One class FIFO, its size, its send counters and its DWRR state, on a cache line of its
    /// own: at 48 bytes unaligned, some queues would straddle two lines and a frame would
    /// touch both; the DWRR weight and deficit fill what the alignment would leave empty.
    struct alignas(64) ClassQueue
    {
        MrcRing<Slot> frames;    //!< frames, head first
        uint32_t bytes{0};       //!< bytes of the frames
        uint32_t weight{1};      //!< DWRR weight (0: strict)
        uint64_t sentPackets{0}; //!< frames sent from this class
        uint64_t sentBytes{0};   //!< their bytes
        uint64_t deficit{0};     //!< DWRR deficit counter
    };

    static_assert(alignof(ClassQueue) == 64 && sizeof(ClassQueue) == 64,
                  "a class queue fills one cache line: a frame touches one line for its queue");

    // state read for every frame first, then the queues
    uint8_t m_backlogMask{0};           //!< bit c: class c's FIFO is not empty
    uint8_t m_pausedMask{0};            //!< bit c: class c is paused
    bool m_dwrr{false};                 //!< DWRR (true) or strict priority
    bool m_drrCharged{false};           //!< current class got its quantum this visit
    uint8_t m_drrCurrent{0};            //!< DWRR round-robin pointer
    uint32_t m_queueLimit;              //!< bytes per class queue
    uint32_t m_quantum;                 //!< DWRR bytes per unit of weight
    std::array<ClassQueue, 8> m_queues; //!< one FIFO per class
};

// The frame path, inline: one call per frame and hop, worth no call.

inline bool
MrcClassScheduler::Enqueue(const Ptr<Packet>& frame, uint8_t cls, uint64_t tag, uint8_t unwritten)
{
    if (tag >> MRC_UNWRITTEN_SHIFT)
    {
        AbortBadTag(tag);
    }
    ClassQueue& q = m_queues[cls];
    const uint32_t size = frame->GetSize() + MrcUnwrittenBytes(unwritten);
    if (static_cast<uint64_t>(q.bytes) + size > m_queueLimit)
    {
        return false;
    }
    q.frames.push_back(
        Slot{MrcOwnedPtr<Packet>(frame), tag | (uint64_t{unwritten} << MRC_UNWRITTEN_SHIFT)});
    q.bytes += size;
    m_backlogMask |= static_cast<uint8_t>(1u << cls);
    return true;
}

inline uint8_t
MrcClassScheduler::SelectStrict() const
{
    const uint32_t ready = m_backlogMask & ~static_cast<uint32_t>(m_pausedMask) & 0xffu;
    return ready == 0 ? NO_CLASS : static_cast<uint8_t>(31 - __builtin_clz(ready));
}

inline Ptr<Packet>
MrcClassScheduler::Dequeue(uint8_t& cls, uint64_t& tag)
{
    uint8_t unwritten;
    return Dequeue(cls, tag, unwritten);
}

inline Ptr<Packet>
MrcClassScheduler::Dequeue(uint8_t& cls, uint64_t& tag, uint8_t& unwritten)
{
    cls = m_dwrr ? SelectDwrr() : SelectStrict();
    if (cls == NO_CLASS)
    {
        return Ptr<Packet>();
    }
    ClassQueue& q = m_queues[cls];
    // The queue's reference, handed over: moved out, then returned as a temporary (no
    // reference count changes on the way out).
    Slot& head = q.frames.front();
    MrcOwnedPtr<Packet> frame = std::move(head.frame);
    tag = head.Tag();
    unwritten = head.Unwritten();
    q.frames.pop_front();
    q.bytes -= frame->GetSize() + MrcUnwrittenBytes(unwritten);
    if (q.frames.empty())
    {
        m_backlogMask &= static_cast<uint8_t>(~(1u << cls));
        if (m_dwrr)
        {
            q.deficit = 0;
        }
    }
    return frame.Release();
}

inline Ptr<Packet>
MrcClassScheduler::Dequeue(uint8_t& cls)
{
    uint64_t tag;
    return Dequeue(cls, tag);
}

inline void
MrcClassScheduler::CountSent(uint8_t cls, uint32_t bytes)
{
    ClassQueue& q = m_queues[cls];
    ++q.sentPackets;
    q.sentBytes += bytes;
}

inline void
MrcClassScheduler::PrefetchNext() const
{
#if defined(__GNUC__) || defined(__clang__)
    const uint32_t ready = m_backlogMask & ~static_cast<uint32_t>(m_pausedMask) & 0xffu;
    if (ready != 0)
    {
        __builtin_prefetch(m_queues[31 - __builtin_clz(ready)].frames.front().frame.Get());
    }
#endif
}

inline uint8_t
MrcClassScheduler::GetBacklogMask() const
{
    return m_backlogMask;
}

inline uint32_t
MrcClassScheduler::GetQueueBytes(uint8_t cls) const
{
    if (cls >= N_CLASSES)
    {
        AbortBadClass("MrcClassScheduler::GetQueueBytes", cls);
    }
    return m_queues[cls].bytes;
}

inline void
MrcClassScheduler::SetClassPaused(uint8_t cls, bool paused)
{
    const uint8_t bit = static_cast<uint8_t>(1u << cls);
    m_pausedMask = paused ? (m_pausedMask | bit) : (m_pausedMask & ~bit);
}

template <typename Drop>
void
MrcClassScheduler::Flush(Drop&& drop)
{
    for (auto& q : m_queues)
    {
        const uint8_t cls = static_cast<uint8_t>(&q - m_queues.data());
        while (!q.frames.empty())
        {
            Ptr<Packet> frame = q.frames.front().frame.Release();
            const uint64_t tag = q.frames.front().Tag();
            const uint8_t unwritten = q.frames.front().Unwritten();
            q.frames.pop_front();
            q.bytes -= frame->GetSize() + MrcUnwrittenBytes(unwritten);
            if constexpr (std::is_invocable_v<Drop&, Ptr<Packet>&, uint8_t, uint64_t, uint8_t>)
            {
                drop(frame, cls, tag, unwritten);
            }
            else
            {
                drop(frame, cls, tag);
            }
        }
    }
    m_backlogMask = 0;
    for (ClassQueue& q : m_queues)
    {
        q.deficit = 0;
    }
    m_drrCharged = false;
}

} // namespace ns3

#endif /* MRC_CLASS_SCHEDULER_H */
