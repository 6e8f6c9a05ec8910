/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SACK_SCOREBOARD_H
#define MRC_SACK_SCOREBOARD_H

#include "ns3/nstime.h"

#include <cstdint>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * Sender-side per-PSN state shared by the UEC RUD and MRC transports: what was sent,
 * what SACKs and NACKs say about it, which holes are lost, what to retransmit next.
 */

namespace ns3
{

class MrcSethHeader;

/**
 * \ingroup mrc
 * State of one sent PSN.
 */
enum class MrcPsnState : uint8_t
{
    SENT,         //!< in flight (counts in bytes in flight)
    SACKED,       //!< selectively acknowledged, waiting for the cumulative point
    LOST,         //!< declared lost (reorder guard or timeout); queued for retransmission
    RETX_PENDING, //!< NACKed (trimmed, ...); queued for retransmission
};

/**
 * \ingroup mrc
 * The record of one sent PSN (24 bytes).
 */
struct MrcPsnRecord
{
    Time sendTime{0};                     //!< time of the latest (re)transmission
    uint32_t bytes{0};                    //!< payload bytes
    uint32_t ev{0};                       //!< EV / path id of the latest (re)transmission
    uint16_t retxCount{0};                //!< retransmissions so far
    MrcPsnState state{MrcPsnState::SENT}; //!< state
    uint8_t group{0}; //!< caller's group of the latest transmission (MRC: the plane)
    uint8_t path{0};  //!< caller's path of the latest transmission, modulo MAX_PATHS
    /// times its own retransmission deadline expired (OnTimeout, OnTimeoutBelow; at most
    /// 255): the retransmissions a timeout caused, not those of a NACK or trim
    uint8_t timeouts{0};
};

/**
 * \ingroup mrc
 * One PSN whose state a SACK or timeout changed, with its record as it was before.
 */
struct MrcPsnEvent
{
    uint32_t psn{0};     //!< the PSN
    MrcPsnRecord record; //!< its record (state = the state before the change)
};

/**
 * \ingroup mrc
 * What one SACK (or timeout) changed. Owned by the scoreboard and reused: valid until
 * the next call that returns it.
 */
struct MrcSackUpdate
{
    std::vector<MrcPsnEvent> acked; //!< newly acknowledged PSNs, ascending from the oldest
    std::vector<MrcPsnEvent> lost;  //!< PSNs newly declared lost, ascending
    uint64_t ackedBytes{0};         //!< sum of acked[].record.bytes
    uint64_t ackedInflightBytes{0}; //!< of these, bytes that were in flight (state SENT)
    uint64_t lostBytes{0};          //!< sum of lost[].record.bytes
    uint32_t cumAdvanced{0};        //!< PSNs by which the oldest unacked PSN moved
};

/**
 * \ingroup mrc
 * Sender scoreboard: a ring of MrcPsnRecord indexed by the PSN's offset from the oldest
 * unacknowledged PSN (una = cack_psn + 1). Capacity is fixed at construction (the
 * largest number of PSNs outstanding: the responder window MPR x 128). The ring starts
 * empty and doubles (from 64 records) when the PSNs outstanding fill it, up to the capacity;
 * nothing is allocated per packet after that.
 *
 * Loss inference (reorder guard), two rules, each configurable:
 * - Count rule (RFC 6675 "DupThresh" style, as IRN and [NS3X]'s 3-packet floor): a PSN
 *   still SENT and never retransmitted is LOST once at least reorderPsns PSNs above it
 *   have been SACKed. Default 3 (mrc-protocol.md section 9 model default); 0 disables.
 * - Time rule (RACK style, off by default): a PSN still SENT (retransmissions included)
 *   is LOST once a PSN sent more than reorderTime after it has been SACKed. It is the
 *   only SACK-based rule that can find a lost retransmission; otherwise the timeout does.
 * - Grouped count rule (Config::groupedCount): the count rule, counting only SACKed PSNs
 *   of the same group (the caller's label at send time; MRC: the plane), so that
 *   reordering between groups is not read as loss.
 * - Path count rule (Config::pathCount): the count rule with Config::pathReorderPsns,
 *   counting only SACKed PSNs sent on the same path (the caller's path label, folded
 *   modulo MAX_PATHS). Packets on one path stay in order, so with no loss this rule
 *   never fires; it can run besides the grouped rule, which then acts as the backstop
 *   for a dead path (nothing on it is ever SACKed).
 * - Retransmission path rule (Config::retxPathCount, with the path count rule): the path
 *   count rule counts PSN positions, which says nothing of a retransmission (sent after
 *   PSNs above it). This rule counts in send order instead: a retransmission still in
 *   flight is LOST once pathReorderPsns PSNs sent after it on the same path have been
 *   acknowledged (SACKed, or passed by the cumulative point); one path delivers in order,
 *   and a retransmission goes in a class at least as high as the data after it. Without
 *   it, a lost retransmission waits for the time rule, a tail probe or the timeout.
 * - Retransmission backstops (Config::retxBackstop, with the path count rule): the grouped
 *   and global count rules in send order, for a retransmission on a path that is dead
 *   (where the path rule never fires: nothing on it is SACKed). A retransmission still in
 *   flight is LOST once reorderPsns PSNs sent after it in its group, or globalReorderPsns
 *   PSNs sent after it in any group, have been acknowledged; with the backstop guard only
 *   once it has also been out as long as the guard (held back, it is re-checked at the
 *   guard's expiry, OnGuardExpiry).
 * - Backstop guard (Config::backstopGuard, with the path count rule): a slow path and a
 *   dead one look the same to the grouped and global count rules (PSNs of other paths
 *   overtake both); only time tells them apart. With the guard these two rules declare a
 *   first transmission lost only once it has been out as long as every PSN delivered
 *   lately (the largest send-to-SACK delay of the last two delay windows) plus
 *   Config::guardMargin. It needs the time of each SACK (the OnSack overloads with now);
 *   a SACK without it leaves the guarded rules idle. A PSN held back this way would
 *   otherwise wait for the next SACK, and at a message's tail there is none before the
 *   timeout: GetGuardExpiry() gives the earliest time at which a held PSN's guard
 *   expires (its send time + the guard), and the caller calls OnGuardExpiry(now) then
 *   (the idea of RACK's reorder timer, RFC 8985), which re-runs the guarded rules.
 * Timeout: the caller runs one timer on GetOldestDeadline(rto) (the lowest PSN in
 * flight, H's single timer) and calls OnTimeout(now, rto) when it fires; that declares
 * every PSN in flight sent at or before now - rto LOST.
 *
 * Retransmission: LOST and RETX_PENDING PSNs form the retransmit queue, served lowest
 * PSN first by NextRetransmit(); OnRetransmit() puts the PSN back in flight. A SACK for
 * a queued PSN removes it from the queue (spurious loss).
 */
class MrcSackScoreboard
{
  public:
    static constexpr uint32_t PSN_MASK = 0xffffff;      //!< PSNs are 24 bits
    static constexpr uint32_t DEFAULT_CAPACITY = 1024;  //!< MPR 8 x 128
    static constexpr uint32_t DEFAULT_REORDER_PSNS = 3; //!< count rule threshold
    static constexpr uint32_t MAX_GROUPS = 16;          //!< groups of the grouped count rule
    /// path labels (folded modulo this). 64 before 2026-12-02: 8 planes x 16 T0 uplinks
    /// gave two paths (of two planes) one label, and the path rule read the reordering
    /// between them as loss
    static constexpr uint32_t MAX_PATHS = 256;

    /// Construction parameters.
    struct Config
    {
        uint32_t capacityPsns{DEFAULT_CAPACITY};    //!< most PSNs outstanding (1..2^23)
        uint32_t reorderPsns{DEFAULT_REORDER_PSNS}; //!< count rule N; 0 = off
        bool timeRule{false};                       //!< enable the RACK-style time rule
        bool groupedCount{false};      //!< count rule counts only SACKed PSNs of the same group
        Time reorderTime{0};           //!< its reorder window
        uint32_t globalReorderPsns{0}; //!< with groupedCount: the count rule over all PSNs
                                       //!< with this N as well (0 = off)
        bool pathCount{false};         //!< enable the path count rule
        uint32_t pathReorderPsns{DEFAULT_REORDER_PSNS}; //!< its N (>= 1)
        bool timeoutLosesPath{false}; //!< OnTimeout also declares lost every PSN in flight
                                      //!< on the path of a PSN that timed out
        bool backstopGuard{false};    //!< with pathCount: the grouped and global count rules
                                      //!< wait for the delay guard (see the class)
        Time guardMargin{0};          //!< added to the largest recent delay (>= 0)
        /// with pathCount: a retransmission still in flight is lost once pathReorderPsns
        /// PSNs sent after it on its path have been acknowledged (see the class)
        bool retxPathCount{false};
        /// with pathCount: a retransmission still in flight is lost once reorderPsns PSNs
        /// sent after it in its group, or globalReorderPsns in any group, have been
        /// acknowledged (guarded like the first-transmission backstops; see the class)
        bool retxBackstop{false};
    };

    /**
     * \param config parameters (aborts on capacity 0 or above 2^23)
     * \param initialPsn the first PSN to send (24 bits)
     */
    explicit MrcSackScoreboard(const Config& config, uint32_t initialPsn = 0);
    /// Default configuration, first PSN 0.
    MrcSackScoreboard();

    /// \return true if another new PSN fits (outstanding < capacity)
    bool HasRoom() const;
    /**
     * Record a first transmission. Its PSN is GetNextPsn(), which then advances.
     * Aborts when full (check HasRoom()).
     * \param bytes payload bytes
     * \param ev the EV / path id used
     * \param now the send time
     * \param group the caller's group (MRC: the plane; < MAX_GROUPS) for the grouped
     *        count rule
     * \param path the caller's path (MRC: the EV table's path group) for the path count
     *        rule, folded modulo MAX_PATHS
     * \return the PSN used
     */
    uint32_t OnSent(uint32_t bytes, uint32_t ev, Time now, uint8_t group = 0, uint32_t path = 0);
    /**
     * Record a retransmission of a queued PSN (state LOST or RETX_PENDING; aborts
     * otherwise): back to SENT with the new EV and time, retxCount + 1.
     * \param psn the PSN
     * \param ev the (fresh) EV used
     * \param now the send time
     * \param group the caller's group (< MAX_GROUPS)
     * \param path the caller's path (folded modulo MAX_PATHS)
     */
    void OnRetransmit(uint32_t psn, uint32_t ev, Time now, uint8_t group = 0, uint32_t path = 0);

    /**
     * Apply a SACK: every PSN up to and including cackPsn is acknowledged, and bit i
     * (1 << i) of bitmap acknowledges basePsn + i. PSNs outside [una, next) are ignored
     * (stale SACK or corrupt field). Then the loss rules run.
     * \param cackPsn SETH cack_psn
     * \param basePsn the bitmap base (SETH cack_psn + sack_offset)
     * \param bitmap SETH sack_bitmap
     * \return what changed (reused storage)
     */
    const MrcSackUpdate& OnSack(uint32_t cackPsn, uint32_t basePsn, uint64_t bitmap);
    /**
     * OnSack with the fields of a SETH. The triggering PSN (ack_psn) also counts as
     * SACKed when it lies in [una, next), unless pr is set (the field is a probe_id).
     * \param seth a received SETH
     * \return what changed
     */
    const MrcSackUpdate& OnSack(const MrcSethHeader& seth);
    /**
     * OnSack with the time the SACK arrived: it also measures the send-to-SACK delay of
     * the first transmissions it acknowledges, and the backstop guard can run.
     * \param cackPsn SETH cack_psn \param basePsn the bitmap base \param bitmap the bitmap
     * \param now the arrival time
     * \return what changed
     */
    const MrcSackUpdate& OnSack(uint32_t cackPsn, uint32_t basePsn, uint64_t bitmap, Time now);
    /**
     * OnSack(seth) with the time the SACK arrived (see the overload above).
     * \param seth a received SETH \param now the arrival time \return what changed
     */
    const MrcSackUpdate& OnSack(const MrcSethHeader& seth, Time now);
    /**
     * \return the backstop guard now: the largest send-to-SACK delay of a first
     *         transmission in the last two delay windows plus Config::guardMargin
     */
    Time GetBackstopGuard() const;
    /**
     * When the last SACK (or OnGuardExpiry) left a first transmission held back by the
     * backstop guard: the earliest time at which a held PSN's guard expires.
     * \param at [out] that time (send time + the guard then; later than the SACK's time)
     * \return false when nothing is held back (no re-check needed)
     */
    bool GetGuardExpiry(Time& at) const;
    /**
     * Re-run the guarded rules (grouped and global count rules with the backstop guard)
     * at time now, without a SACK: a PSN held back whose guard has expired is declared
     * lost. Call it at GetGuardExpiry(); a call at another time is harmless.
     * \param now the current time
     * \return what changed (only lost is filled)
     */
    const MrcSackUpdate& OnGuardExpiry(Time now);
    /**
     * A NACK for psn: if it is in flight (SENT) it becomes RETX_PENDING and leaves the
     * bytes in flight.
     * \param psn the NACKed PSN
     * \return its record (state now RETX_PENDING), or nullptr when the PSN is not in
     *         flight (already acked, already queued, or unknown)
     */
    const MrcPsnRecord* OnNack(uint32_t psn);
    /**
     * The timer fired: declare LOST every PSN in flight sent at or before now - rto.
     * \param now the current time
     * \param rto the retransmission timeout
     * \return what changed (only lost is filled)
     */
    const MrcSackUpdate& OnTimeout(Time now, Time rto);

    /**
     * As OnTimeout, but only for the PSNs below `endPsn` (serial order; e.g. the end of
     * the block a probe answer's bitmap covers, beyond which "not SACKed" says nothing).
     * \param now the current time
     * \param rto the timeout
     * \param endPsn first PSN not examined
     * \return the update (lost only)
     */
    const MrcSackUpdate& OnTimeoutBelow(Time now, Time rto, uint32_t endPsn);

    /**
     * UEC SLEEK recovery (htsim runSleek): when the caller decides to enter loss recovery
     * (typically: the SACK's ooo_count reached max(min(1.5 cwnd, maxwnd), 5 MTU) / MTU
     * packets), every PSN still in flight in [una, una + limitPsns) and below the
     * recovery point is declared LOST, once per episode. The episode starts here with
     * recovery point = GetNextPsn() and ends when una passes it; a call during an episode
     * changes nothing.
     * \param limitPsns how many PSNs from una may be queued (htsim: cwnd / MTU)
     * \return what changed (only lost is filled; empty during an episode)
     */
    const MrcSackUpdate& StartRecovery(uint32_t limitPsns);
    /// \return true while a StartRecovery episode is open (una has not passed its point)
    bool InRecovery() const;

    /**
     * \param psn [out] the lowest PSN queued for retransmission
     * \return false when the retransmit queue is empty
     */
    bool NextRetransmit(uint32_t& psn);
    /// \return the number of PSNs queued for retransmission
    uint32_t GetRetransmitQueueSize() const;

    /**
     * \param rto the retransmission timeout
     * \param deadline [out] send time of the lowest PSN in flight + rto
     * \param psn [out] that PSN
     * \return false when nothing is in flight (stop the timer)
     */
    bool GetOldestDeadline(Time rto, Time& deadline, uint32_t& psn) const;

    /// \return the oldest unacknowledged PSN (una = peer's cack_psn + 1)
    uint32_t GetUna() const;
    /// \return the PSN the next OnSent will use
    uint32_t GetNextPsn() const;
    /// \return true and the highest PSN sent so far, false before the first send
    bool GetHighestSentPsn(uint32_t& psn) const;
    /// \return PSNs from una to next (any state)
    uint32_t GetOutstandingPsns() const;
    /// \return bytes of the PSNs in state SENT
    uint64_t GetBytesInFlight() const;
    /// \return the fixed capacity in PSNs
    uint32_t GetCapacity() const;
    /**
     * \param psn a PSN
     * \return its record, or nullptr when psn is not in [una, next)
     */
    const MrcPsnRecord* GetRecord(uint32_t psn) const;

    /**
     * Whether the path of a PSN delivered a later packet: a first transmission above it,
     * sent on the same path label, has been SACKed. One path delivers in order, so a path
     * that did has not died before the PSN was sent (its loss was random or congestion).
     * Only with the path count rule (Config::pathCount), which keeps the highest SACKed
     * PSNs of each path; false without it.
     * \param psn an outstanding PSN, first transmission (false for a retransmitted one:
     *        its send order is not its PSN order)
     * \return true if a higher PSN of its path has been SACKed
     */
    bool PathDeliveredAbove(uint32_t psn) const;

  private:
    /// Double the ring (first: INITIAL_RING records), keeping the live records in order.
    void Grow();
    /// Records of the first ring: a connection of short messages keeps a short ring (a
    /// record is 24 bytes), a long flow doubles it a few times to its window.
    static constexpr uint32_t INITIAL_RING = 8;
    /// \param off offset from una \return the record
    MrcPsnRecord& At(uint32_t off);
    /// \param off offset from una \return the record
    const MrcPsnRecord& At(uint32_t off) const;

    /// \param off an offset from una below m_outstanding \return true if its record is
    /// SACKED (read from m_sackedBits, not from the record)
    bool IsSackedAt(uint32_t off) const
    {
        const uint32_t slot = (m_head + off) & m_mask;
        return (m_sackedBits[slot / 64] >> (slot % 64)) & 1;
    }

    /// \param psn a PSN \param off [out] its offset from una \return true if in [una, next)
    bool OffsetOf(uint32_t psn, uint32_t& off) const;

    /// \param p a path \return its path-rule frontier as an offset from una (0 once una
    /// has passed it)
    uint32_t PathFrontier(uint32_t p) const
    {
        const uint64_t abs = m_pathFrontierAbs[p];
        return abs > m_unaAbs ? static_cast<uint32_t>(abs - m_unaAbs) : 0;
    }

    /// Mark the PSN at offset off SACKed (if not already) and record it in m_update.
    void SackOffset(uint32_t off);
    /// Mark the record at off LOST and record it in m_update.
    void MarkLost(uint32_t off);
    /// Count one expiry of a record's own deadline. \param r the record
    static void CountTimeout(MrcPsnRecord& r);
    /// Free records up to and including offset last; record acks in m_update.
    void AdvanceUna(uint32_t count);
    /// Run the count and time rules after a SACK.
    void InferLosses();
    /// The grouped count rule (Config::groupedCount).
    void InferGroupedLosses();
    /// The path count rule (Config::pathCount).
    void InferPathLosses();
    /**
     * The global count rule (with groupedCount) or the plain count rule.
     * \param n its N (0: off)
     */
    void InferCountLosses(uint32_t n);
    /// Retransmission path rule: a PSN was acknowledged; count it for the watched
    /// retransmissions sent before it on its path. \param r its record (before the change)
    void CountForRetxWatch(const MrcPsnRecord& r);
    /**
     * The record at an absolute position leaves SENT (SACKed, lost or NACKed): a watch on
     * it ends at the next inference.
     * \param pos the record's absolute position
     */
    void NoteWatchedGone(uint64_t pos);
    /// Retransmission path rule: declare lost the watched retransmissions with enough
    /// later PSNs of their path acknowledged; forget those no longer in flight.
    void InferRetxLosses();
    /// \param r a record \return true unless the backstop guard holds it back
    bool GuardAllows(const MrcPsnRecord& r) const;
    /// The guard held r back: keep the earliest expiry. \param r the record
    void Hold(const MrcPsnRecord& r);
    /// Record one send-to-SACK delay of a first transmission (backstop guard).
    void RecordDelay(Time delay);
    /**
     * The body of OnSack.
     * \param cackPsn cack_psn \param basePsn bitmap base \param bitmap the bitmap
     * \param hasAckPsn whether ackPsn is given \param ackPsn the triggering PSN
     * \return m_update
     */
    const MrcSackUpdate& Apply(uint32_t cackPsn,
                               uint32_t basePsn,
                               uint64_t bitmap,
                               bool hasAckPsn,
                               uint32_t ackPsn,
                               bool hasNow,
                               Time now);
    /// Sort events by PSN in serial order around una (cumulatively acked ones first).
    void SortAscending(std::vector<MrcPsnEvent>& v) const;
    /// Reset m_update for a new call.
    void ClearUpdate();

    Config m_config;                  //!< parameters
    std::vector<MrcPsnRecord> m_ring; //!< grows by doubling to the capacity rounded up to 2^n
    /// bit per ring slot: its record is SACKED (set by SackOffset, cleared by OnSent). A
    /// SACK's bitmap names up to 64 PSNs, most of them SACKed by the SACKs before it: their
    /// bits, one or two words, stand in for their records, about a cache line for every 2.7
    /// PSNs, which the SACK and the advance of una would otherwise read only to skip them.
    std::vector<uint64_t> m_sackedBits;
    uint32_t m_mask;                        //!< ring size - 1
    uint32_t m_head{0};                     //!< ring index of una
    uint32_t m_una;                         //!< oldest unacked PSN
    uint32_t m_outstanding{0};              //!< PSNs in [una, next)
    uint64_t m_inflightBytes{0};            //!< bytes in state SENT
    uint32_t m_sackedCount{0};              //!< records in state SACKED
    uint32_t m_retxQueued{0};               //!< records in LOST or RETX_PENDING
    uint32_t m_retxHint{0};                 //!< no queued record below this offset
    uint32_t m_countFrontier{0};            //!< count rule already applied below this offset
    uint32_t m_highestSacked{0};            //!< offset + 1 of the highest SACKed PSN (0 = none)
    uint32_t m_groupFrontier[MAX_GROUPS]{}; //!< grouped count rule applied below, per group
    uint32_t m_groupsUsed{0};               //!< bit g: group g was used by a transmission
    uint64_t m_pathsUsed[MAX_PATHS / 64]{}; //!< bit p: path p was used by a transmission
    uint32_t m_retxTop{0};                  //!< no retransmitted record at or above this offset
    Time m_latestSackedSendTime{0};         //!< newest send time among SACKed PSNs (time rule)
    bool m_anySackedSendTime{false};        //!< m_latestSackedSendTime valid
    bool m_anySent{false};                  //!< OnSent was called at least once
    bool m_inRecovery{false};               //!< a StartRecovery episode is open
    uint32_t m_recoveryPsn{0};              //!< its recovery point (next PSN at the start)
    MrcSackUpdate m_update;                 //!< reused result
    bool m_hasNow{false};                   //!< the SACK being applied came with its time
    Time m_now{0};                          //!< that time
    uint32_t m_groupsPending{0};            //!< bit g: the guard stopped group g's rule early
    Time m_delayMax[2]{};                   //!< largest delay: [0] this window, [1] the last
    Time m_delayWindowStart{0};             //!< start of the current delay window
    bool m_guardHeld{false};                //!< the last inference held a PSN back
    Time m_guardExpiry{0};                  //!< the earliest expiry of a held PSN's guard

    /// A retransmission in flight, watched by the retransmission path rule.
    struct RetxWatch
    {
        uint64_t pos{0};        //!< its absolute position (m_unaAbs + offset)
        Time sent{0};           //!< when it was retransmitted
        uint32_t later{0};      //!< PSNs sent after it on its path acknowledged since
        uint32_t laterGroup{0}; //!< PSNs sent after it in its group acknowledged since
        uint32_t laterAll{0};   //!< PSNs sent after it in any group acknowledged since
        uint8_t path{0};        //!< its path label
        uint8_t group{0};       //!< its group
        /// its record left the state it was retransmitted in (SACKed, lost or NACKed):
        /// kept here so that the inference need not read the record (cold) to know it
        bool gone{false};
    };

    /// Whether a watched retransmission has reached a backstop count (retxBackstop).
    bool RetxBackstopReached(const RetxWatch& w) const;

    std::vector<RetxWatch> m_retxWatch; //!< the watched retransmissions (few)

    /**
     * The highest positions of the SACKed PSNs of each set of one count rule (the rule's
     * N per set; sets: all PSNs, the groups, or the paths), in one flat array: the N-th
     * highest SACKed PSN of a set without a walk over the ring.
     */
    class TopSacked
    {
      public:
        /**
         * \param sets number of sets
         * \param n the rule's N (0: the rule is off, nothing is kept)
         */
        void Init(uint32_t sets, uint32_t n);
        /**
         * Record a newly SACKed PSN.
         * \param set its set
         * \param p its absolute position
         * \return true if the set's N-th highest position changed
         */
        bool Add(uint32_t set, uint64_t p);
        /**
         * \param set a set
         * \param unaAbs the absolute position of una
         * \param[out] off the window offset of the set's N-th highest SACKed PSN
         * \return true if N SACKed PSNs of the set are still in the window
         */
        bool NthOffset(uint32_t set, uint64_t unaAbs, uint32_t& off) const;
        /**
         * \param set a set
         * \param[out] p the highest absolute position recorded for it
         * \return false if none is recorded (or the rule is off)
         */
        bool Highest(uint32_t set, uint64_t& p) const;

      private:
        /// \param set a set \return its block: word 0 holds the slots used (low 32 bits)
        /// and the slot of the lowest position (high 32 bits), words 1..N the slots
        uint64_t* Block(uint32_t set)
        {
            return &m_blocks[static_cast<std::size_t>(set) * (m_n + 1)];
        }

        /// \param set a set \return its block (see the other Block)
        const uint64_t* Block(uint32_t set) const
        {
            return &m_blocks[static_cast<std::size_t>(set) * (m_n + 1)];
        }

        uint32_t m_n{0};    //!< N
        uint32_t m_sets{0}; //!< number of sets (storage made at the first Add)
        /// per set, one block of N + 1 words: the count and the head, then N slots, a ring
        /// ascending from the head (together, so that an Add touches one or two cache
        /// lines, not three separate arrays)
        std::vector<uint64_t> m_blocks;
    };

    uint64_t m_unaAbs{0};      //!< absolute position of una (PSNs acked so far)
    TopSacked m_countTop;      //!< count rule (one set)
    TopSacked m_groupTop;      //!< grouped count rule, per group
    TopSacked m_pathTop;       //!< path count rule, per path (first transmissions)
    uint32_t m_groupsDirty{0}; //!< bit g: group g's N-th highest changed since inference
    uint64_t m_pathsDirty[MAX_PATHS / 64]{}; //!< bit p: path p's N-th highest changed
    // The two per-path arrays (2 KiB and 1 KiB, MAX_PATHS entries) are made only with the
    // path count rule (Config::pathCount, MRC's): a scoreboard without it (UEC's) holds
    // none. The frontiers are absolute positions (like m_unaAbs): an advance of una need
    // not visit the 256 of them (PathFrontier).
    std::vector<uint64_t> m_pathFrontierAbs; //!< path count rule applied below, per path
    std::vector<uint32_t> m_pathThr;         //!< InferPathLosses' thresholds (0 outside it)
};

} // namespace ns3

#endif /* MRC_SACK_SCOREBOARD_H */
