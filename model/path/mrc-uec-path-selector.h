/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_UEC_PATH_SELECTOR_H
#define MRC_UEC_PATH_SELECTOR_H

#include "mrc-path-selector.h"

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * UEC RUD entropy (EV) load balancing at the sender: which 16-bit entropy value the next
 * data packet (new or retransmitted) carries, and how ACK/NACK/timeout feedback about an EV
 * changes later choices.
 *
 * The algorithms follow the UEC reference simulator (uet-htsim `uec_mp.cpp`,
 * `buffer_reps.cpp`), as summarised in congestion-control.md §3.4; the UEC 1.0
 * specification (§3.6.16) leaves the policy to the implementer. The classes are network-free:
 * the transport calls NextEv() for every data packet and writes the EV into the UDP source
 * port with MrcEvEncode(ev, MrcEvSplit::SRC_PORT_LOW) (mrc-entropy.h), and reports feedback
 * with OnAck/OnNack/OnTimeout/OnLoss. They are members of the path-selection family
 * (MrcPathSelector): through its interface, Select() returns NextEv() encoded the same way,
 * and Feedback() takes the common signals.
 */

namespace ns3
{

/**
 * Feedback about one EV: the family's common signal. UEC reads GOOD as acknowledged without
 * CE (also a last-hop trim NACK without CE), ECN as acknowledged with CE (also a last-hop
 * trim NACK with CE), NACK as a trim NACK from a non-last hop; TIMEOUT, LOSS (inferred from
 * SACKs) and BAD all count as uet-htsim's timeout.
 */
using MrcUecEvFeedback = MrcPathSignal;

/**
 * \ingroup mrc
 * Abstract UEC path (EV) selector. One object per connection (PDC); it keeps only its own
 * state. Random draws come from one RandomVariableStream (by default a
 * UniformRandomVariable over [0, 65535]); each draw of a value below n (n a power of two up to
 * 65536) is rng->GetInteger() mod n. Per-connection random state (XOR offsets, upper EV bits)
 * is drawn at the first NextEv(), so AssignStreams() and SetRandomVariable() may be called any
 * time before that.
 *
 * As a member of the path-selection family: Init() fixes the connection's port by the RoCEv2
 * rule (MrcFixedEntropyPathSelector::FlowLabelOf(localQpn, remoteQpn) mod nPorts; the UEC
 * queue pair takes its port from its own PathSelector instead), UsesPort() is true for that
 * port only, Select() draws NextEv() for any packet (new or retransmitted alike) and encodes it
 * with MrcEvSplit::SRC_PORT_LOW, and GetPathCount() is P. Strategies implement DoNextEv() and
 * DoFeedback().
 */
class MrcUecPathSelector : public MrcPathSelector
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// TypeId name of the default strategy (the uet-htsim default, "mixed").
    static constexpr const char* DEFAULT_TYPE = "ns3::MrcUecMixedSelector";

    MrcUecPathSelector();
    ~MrcUecPathSelector() override;

    /**
     * Choose the EV of the next data packet (new or retransmitted). No allocation; O(1)
     * except the bitmap strategy's skip over penalised EVs (at most PathCount + 1 steps).
     * Counted as a selection (GetSelectCount).
     * \return the 16-bit EV
     */
    uint16_t NextEv()
    {
        CountSelect(true);
        return DoNextEv();
    }

    // Feedback(ev, kind) is the base class's: the four On* methods funnel into it.

    void Init(uint32_t localQpn, uint32_t remoteQpn, uint32_t nPorts) override;
    bool UsesPort(uint32_t port) const override;

    /**
     * An ACK (or SACK) covered a packet sent on ev.
     * \param ev the packet's EV
     * \param ecn the acknowledged packet carried CE
     */
    void OnAck(uint16_t ev, bool ecn);
    /// \param ev EV of a packet trimmed before the last hop (NACK)
    void OnNack(uint16_t ev);
    /// \param ev EV of the packet whose retransmission timer expired (TIMEOUT)
    void OnTimeout(uint16_t ev);
    /// \param ev EV of a packet inferred lost from SACKs (LOSS, which the strategies treat as
    /// TIMEOUT, as uet-htsim's inferred loss)
    void OnLoss(uint16_t ev);

    /// \return the number of paths per connection P (a power of two); the single-path
    /// strategy returns 1 (the PathCount attribute still reads P)
    uint32_t GetPathCount() const override;
    /**
     * \param paths the number of paths per connection; a power of two in [1, 65536]
     *        (aborts otherwise). Resets the strategy's per-path state.
     */
    void SetPathCount(uint32_t paths);

    /**
     * Use fixed random-number streams.
     * \param stream first stream index
     * \return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream) override;

    /**
     * Replace the random source (tests: a DeterministicRandomVariable gives hand-computable
     * sequences). Draws are rv->GetInteger() mod n.
     * \param rv the random variable
     */
    void SetRandomVariable(Ptr<RandomVariableStream> rv);

  protected:
    void DoDispose() override;

    /**
     * The strategy's EV choice (see NextEv).
     * \return the 16-bit EV
     */
    virtual uint16_t DoNextEv() = 0;

    /// The EV of NextEv() on the asked port (or the connection's), encoded SRC_PORT_LOW.
    MrcPathChoice DoSelect(const MrcPathRequest& r) override;

    /// Called when the path count changes (also once from the constructor with the default).
    virtual void PathCountChanged();

    /**
     * \param n a power of two in [1, 65536]
     * \return a random value in [0, n)
     */
    uint32_t Draw(uint32_t n);

    uint32_t m_pathCount; //!< P, paths per connection
    uint32_t m_mask;      //!< P - 1

  private:
    /// \return P, the PathCount attribute (whatever GetPathCount says)
    uint32_t GetPathCountAttribute() const;

    Ptr<RandomVariableStream> m_rng; //!< random source
    uint32_t m_port;                 //!< the connection's port (Init)
};

/**
 * \ingroup mrc
 * Oblivious spraying (uet-htsim UecMpOblivious): EV = ((i XOR r) & (P - 1)) | U, where i
 * cycles 0..P-1, r is a random value in [0, P) redrawn after every full cycle, and U is the
 * connection's random upper EV bits (a 16-bit draw with the low log2(P) bits cleared).
 * Feedback is ignored. First NextEv() draws U, then r.
 */
class MrcUecObliviousSpray : public MrcUecPathSelector
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    MrcUecObliviousSpray();

  protected:
    uint16_t DoNextEv() override;
    void DoFeedback(uint32_t ev, MrcPathSignal kind) override;
    void PathCountChanged() override;
    /// Draw U and r if not done yet.
    void Start();
    /// \return the current candidate path index (i XOR r) & (P - 1)
    uint32_t Candidate() const;
    /// Move i on; on wrap to 0 redraw r.
    void Advance();

    bool m_started;   //!< U and r drawn
    uint32_t m_index; //!< i
    uint32_t m_xor;   //!< r
    uint16_t m_upper; //!< U (low log2(P) bits 0)
};

/**
 * \ingroup mrc
 * Bitmap spraying (uet-htsim UecMpBitmap): oblivious spraying plus a penalty per path index
 * (EV & (P - 1)): ECN +1, NACK +4, TIMEOUT (and LOSS, BAD) +15, GOOD +0, capped at 15. NextEv()
 * walks the oblivious order; while the candidate has a penalty > 0 it skips it (decrementing only
 * the first candidate skipped) and moves on, giving up after PathCount + 1 candidates (it then uses
 * the last one). Attributes EcnPenalty, NackPenalty, TimeoutPenalty, MaxPenalty.
 */
class MrcUecBitmapSelector : public MrcUecObliviousSpray
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    MrcUecBitmapSelector();

    /// \param ev an EV \return the penalty of its path index (EV & (P - 1))
    uint8_t GetPenalty(uint16_t ev) const;
    /// \return the number of path indices with a penalty > 0
    uint32_t GetPenalisedCount() const;

  protected:
    uint16_t DoNextEv() override;
    void DoFeedback(uint32_t ev, MrcPathSignal kind) override;
    void PathCountChanged() override;

  private:
    std::vector<uint8_t> m_penalty; //!< per path index
    uint32_t m_penalised;           //!< entries of m_penalty > 0
    uint8_t m_ecnPenalty;           //!< EcnPenalty attribute
    uint8_t m_nackPenalty;          //!< NackPenalty attribute
    uint8_t m_timeoutPenalty;       //!< TimeoutPenalty attribute
    uint8_t m_maxPenalty;           //!< MaxPenalty attribute
};

/**
 * \ingroup mrc
 * REPS, recycled entropy packet spraying (uet-htsim UecMpReps with CircularBufferREPS).
 *
 * A ring of BufferSize (8) slots. GOOD feedback writes the EV at the head and marks it fresh
 * (overwriting the oldest slot when full). Not frozen: send on the oldest fresh EV and consume
 * it; with no fresh EV, send on a random EV in [0, P). A TIMEOUT (or LOSS, BAD) while not
 * frozen and with no exploration pending freezes for FreezeDuration (10 ms) if Freezing is on:
 * while frozen, NextEv() cycles round-robin over the buffered EVs (fresh or not) starting at
 * slot 0 (random if the buffer is empty). The end of a freeze is noticed at the first feedback
 * strictly after it: the buffer is cleared and the next ExploreCount (16) packets use random
 * EVs. An EV may be reused UsableLifetime (1) times before it stops being fresh.
 */
class MrcUecReps : public MrcUecPathSelector
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    MrcUecReps();

    /// \return true while frozen
    bool IsFrozen() const;
    /// \return the number of fresh EVs in the buffer
    uint32_t GetFreshCount() const;
    /// \return the number of occupied buffer slots
    uint32_t GetBufferedCount() const;
    /// \return the number of exploration packets still to send
    uint32_t GetExploreRemaining() const;

  protected:
    uint16_t DoNextEv() override;
    void DoFeedback(uint32_t ev, MrcPathSignal kind) override;

  private:
    /// Clear all slots (end of a freeze, buffer size change).
    void ResetBuffer();
    /// \param size the BufferSize attribute (1..65535, aborts otherwise)
    void SetBufferSize(uint32_t size);
    /// \return the BufferSize attribute
    uint32_t GetBufferSize() const;

    /// One ring slot.
    struct Slot
    {
        uint16_t ev{0};      //!< the EV
        bool fresh{false};   //!< not yet consumed
        int32_t lifetime{0}; //!< remaining uses
    };

    std::vector<Slot> m_slots; //!< the ring
    uint32_t m_head;           //!< next slot to write
    uint32_t m_count;          //!< occupied slots (saturates at the ring size)
    uint32_t m_fresh;          //!< fresh slots (the m_fresh slots before m_head when not frozen)
    uint32_t m_frozenHead;     //!< next slot of the frozen round-robin
    bool m_frozen;             //!< frozen
    Time m_exitAt;             //!< a feedback after this time ends the freeze
    uint32_t m_explore;        //!< exploration packets to send
    bool m_freezing;           //!< Freezing attribute
    Time m_freezeDuration;     //!< FreezeDuration attribute
    uint32_t m_exploreCount;   //!< ExploreCount attribute
    uint32_t m_lifetime;       //!< UsableLifetime attribute
};

/**
 * \ingroup mrc
 * The uet-htsim default (UecMpMixed): a recycled GOOD EV if there is one, else the bitmap
 * choice. Every feedback goes to the bitmap penalties; GOOD feedback also appends the EV to a
 * FIFO of recycled EVs (unbounded in uet-htsim; here a preallocated ring of RecycleCapacity
 * entries that drops its oldest entry when full, our choice). A recycled EV is used as is,
 * whatever its penalty, and does not move the bitmap's position.
 */
class MrcUecMixedSelector : public MrcUecBitmapSelector
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    MrcUecMixedSelector();

    /// \return the number of EVs waiting to be recycled
    uint32_t GetRecycleQueueSize() const;

  protected:
    uint16_t DoNextEv() override;
    void DoFeedback(uint32_t ev, MrcPathSignal kind) override;

  private:
    /// \param capacity the RecycleCapacity attribute (>= 1, aborts otherwise)
    void SetRecycleCapacity(uint32_t capacity);
    /// \return the RecycleCapacity attribute
    uint32_t GetRecycleCapacity() const;

    std::vector<uint16_t> m_fifo; //!< ring of recycled EVs
    uint32_t m_fifoHead;          //!< oldest entry
    uint32_t m_fifoSize;          //!< entries
};

/**
 * \ingroup mrc
 * One EV for the whole connection (for ROD-like, non-sprayed comparisons). The Ev attribute
 * fixes it; its default 65536 means "draw a random 16-bit EV at the first NextEv()" (our
 * choice). Feedback is ignored; PathCount is not used.
 */
class MrcUecSinglePath : public MrcUecPathSelector
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    MrcUecSinglePath();

    /// Ev attribute value meaning "draw at random".
    static constexpr uint32_t RANDOM_EV = 65536;

    /// \return 1
    uint32_t GetPathCount() const override;

  protected:
    uint16_t DoNextEv() override;
    void DoFeedback(uint32_t ev, MrcPathSignal kind) override;

  private:
    uint32_t m_evAttr; //!< Ev attribute
    bool m_started;    //!< m_ev chosen
    uint16_t m_ev;     //!< the EV
};

} // namespace ns3

#endif /* MRC_UEC_PATH_SELECTOR_H */
