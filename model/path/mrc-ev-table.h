/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_EV_TABLE_H
#define MRC_EV_TABLE_H

#include "mrc-ev-profile.h"
#include "mrc-path-selector.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/mrc-neth-header.h"
#include "ns3/mrc-seth-header.h"
#include "ns3/mrc-usid.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * The per-QP EV table of an MRC requestor: EV health states, the active and backup sets and
 * the per-packet EV choice. Implemented in mrc-ev-table.cc (set-up, rotation, planes, the
 * path-selector family's interface, queries) and mrc-ev-table-health.cc (the health state
 * machine: feedback, retirement and refill, probes, the controller's Deny/Allow/Replace).
 */

namespace ns3
{

/**
 * \ingroup mrc
 * Health state of an EV. GOOD, ASSUMED_BAD, DENIED and UNKNOWN are the controller API's
 * states [OCP MRC `mrc_ctl.h`]; SKIP is the transient congestion state [P2 sec. II-A].
 */
enum class MrcEvState : uint8_t
{
    UNKNOWN,     //!< never used yet (backup EVs from the profile)
    GOOD,        //!< may carry traffic
    SKIP,        //!< congested: passed over for a while, then GOOD again
    ASSUMED_BAD, //!< silent loss: out of the active set, probed until revived
    DENIED,      //!< taken out by the controller; only the controller brings it back
};

/// \param s a state \return its name, e.g. "ASSUMED_BAD"
const char* MrcEvStateName(MrcEvState s);

/**
 * \ingroup mrc
 * Why an EV changed state (the reason column of an "ev_state" event).
 */
enum class MrcEvReason : uint8_t
{
    ECN_ECHO,         //!< SACK with m = SKIP_ONCE
    TRIM_NACK,        //!< NACK with reason TRIMMED
    SKIP_EXPIRED,     //!< the SKIP turns or time ran out
    ALWAYS_SKIP,      //!< SACK with m = ALWAYS_SKIP
    TIMEOUT,          //!< a packet on the EV timed out with no trim and no SACK
    LOSS_INFERRED,    //!< the QP inferred a silent loss from SACK holes
    MIN_ACTIVE_FLOOR, //!< a retirement was refused by ev_min_active; the EV skips instead
    PROBE_REVIVED,    //!< enough probe answers arrived
    PROMOTED,         //!< taken from the backup set into the active set
    CONTROLLER_DENY,  //!< controller MODIFY_EV_STATE to DENIED
    CONTROLLER_ALLOW, //!< controller MODIFY_EV_STATE from DENIED
    CARRIER_LOSS,     //!< its SRv6 carrier was found dead (CarrierLossEvs)
};

/// \param r a reason \return its name, e.g. "ECN_ECHO"
const char* MrcEvReasonName(MrcEvReason r);

/**
 * \param m the path feedback (m field) of an MRC SACK
 * \return the family's signal: NONE -> GOOD, SKIP_ONCE -> ECN, ALWAYS_SKIP -> BAD
 */
MrcPathSignal MrcPathSignalOfSack(MrcPathFeedback m);

/**
 * \ingroup mrc
 * What the EV table keeps of one EV beside what a selection reads: the time-mode skip end,
 * the carrier count, the probe state and the counters (the table makes them for all its EVs
 * when one is first written; MrcEvEntry carries a copy).
 */
struct MrcEvHistory
{
    Time skipUntil;               //!< time mode: SKIP ends at this time
    uint32_t carrierEpoch{0};     //!< the carrier count it was last counted in (CarrierLossEvs)
    uint32_t probeSuccesses{0};   //!< consecutive answered probes (ASSUMED_BAD)
    uint32_t ecnEchoes{0};        //!< SACKs with m = SKIP_ONCE
    uint32_t trims{0};            //!< TRIMMED NACKs
    uint32_t timeouts{0};         //!< timeouts and inferred losses
    uint32_t retirements{0};      //!< times it went ASSUMED_BAD
    uint32_t probesSent{0};       //!< probes sent on it
    uint32_t probeAnswers{0};     //!< probe answers received
    uint32_t probeTimeouts{0};    //!< probes that timed out
    bool probeOutstanding{false}; //!< a probe is in flight (ASSUMED_BAD)
};

/**
 * \ingroup mrc
 * One EV of a QP with its state and counters: a copy, made by MrcEvTable::GetEntry (the table
 * keeps its EVs in compact parts, see "Memory per connection" in the model chapter).
 */
struct MrcEvEntry : MrcEvHistory
{
    /// Which set the EV is in.
    enum Set : uint8_t
    {
        ACTIVE,  //!< in the rotation
        BACKUP,  //!< spare of its plane
        RETIRED, //!< ASSUMED_BAD, being probed
        DENIED,  //!< denied by the controller
    };

    MrcEvCandidate ev;                     //!< value, plane, carrier
    MrcEvState state{MrcEvState::UNKNOWN}; //!< health state
    Set set{BACKUP};                       //!< set membership
    uint32_t path{0}; //!< path group: EVs with the same SRv6 carrier share one (Init)
    uint64_t sent{0}; //!< packets the selection put on this EV
};

/**
 * \ingroup mrc
 * The EV table of one MRC queue pair (requestor side).
 *
 * Holds every EV of the QP (active, backup, retired, denied), runs the health state machine
 * of the protocol reference (sec. 4 and resolution Q6) and picks the EV of each packet.
 * EVs are named by a dense id 0..GetEvCount()-1; FindByValue() maps an echoed EV to its id.
 *
 * State machine (feedback for EVs outside the active set is ignored, except probe answers
 * for ASSUMED_BAD EVs):
 * - SACK m = SKIP_ONCE, NACK TRIMMED: GOOD -> SKIP (a SKIP EV's skip is extended).
 * - SKIP runs out: SKIP -> GOOD (rotation mode: after EcnSkipTurns / TrimSkipTurns passes of
 *   the rotation over it; time mode: after SkipTime, noticed when the rotation reaches it).
 * - SACK m = ALWAYS_SKIP, timeout, inferred loss: GOOD/SKIP -> ASSUMED_BAD; the EV leaves
 *   the active set and the oldest backup EV of the same plane takes its place. If the plane
 *   has no backup and the active set would drop below ev_min_active, the EV goes SKIP
 *   instead (MIN_ACTIVE_FLOOR). A timeout on a plane that is down is ignored (Q3).
 * - ASSUMED_BAD: probed every ProbeInterval (+-ProbeJitter), one probe at a time, each
 *   timing out after ProbeTimeout. ReviveSuccesses consecutive answers revive it: GOOD if
 *   the last answer had m = NONE, SKIP if m = SKIP_ONCE; m = ALWAYS_SKIP or a timeout resets
 *   the count. The revived EV refills its plane's active set if that is short, else it
 *   joins the end of the plane's backup set (it never displaces the replacement).
 * - Dead carrier (CarrierLossEvs = N, default 3; 0 = off): the EVs of one path group (one
 *   SRv6 carrier; replicas of one path) share its fate. Losses and timeouts without a sign
 *   that the carrier still delivers are counted per carrier, one per distinct EV; a sign of
 *   life (a SACK echoing one of its EVs, a TRIMMED NACK, a probe answer, or a loss reported
 *   through LossOnLivePath: a later packet of the path was delivered) starts the count
 *   again, and so do CarrierLossWindow without a new loss. N distinct EVs lost: the carrier
 *   is suspect, one reliability probe goes on an EV of it, and if no sign of life arrives
 *   within CarrierConfirmTime it is down; every active EV of it is retired (CARRIER_LOSS,
 *   each down to ev_min_active),
 *   and no backup of it is promoted while it is down (the plane's active set stays short
 *   when only such backups are left). It is up again when a probe revives one of its EVs.
 * - Deny(): any state -> DENIED (replaced like a retirement); Allow(): DENIED -> GOOD,
 *   placed like a revived EV. Nothing else leaves DENIED.
 * - A plane whose local or remote port is down keeps its EVs and states, but Select() passes
 *   over them and they are not probed (Q3).
 *
 * As a member of the path-selection family (MrcPathSelector): Init(localQpn, remoteQpn,
 * nPorts) loads the EVs the Profile attribute generates for nPorts planes without candidate
 * paths (no profile: a structured one with default attributes); UsesPort() is true for the
 * planes that have EVs; Select(port, retransmission) is Select(bit of port, or every plane for
 * NO_PORT) and, for a retransmission, passes over the path of the EV with the latest loss or
 * trim feedback; its choice carries the EV value (MrcPathChoice::ev) encoded SRC_PORT_LOW, or
 * port NO_PORT when no EV can be used. Feedback(value, signal) finds the EV by value and maps
 * GOOD/ECN/BAD onto OnSack (m = NONE/SKIP_ONCE/ALWAYS_SKIP), NACK onto a TRIMMED OnNack,
 * TIMEOUT onto OnTimeout and LOSS onto OnInferredLoss. GetPathCount() counts path groups.
 * A request naming the EV a retransmission was lost on (MrcPathRequest::lostEv) passes over
 * that EV's path instead of the latest one. The optional parts of the family interface map
 * onto the table: SetLocalPortUp / SetRemotePortUp take planes out of use, CanUsePort is "plane
 * up and active EVs left", SetProbeSender receives the probes of ASSUMED_BAD EVs (as paths),
 * ProbeAnswered is OnProbeAnswer by value (GOOD/ECN/BAD = m NONE/SKIP_ONCE/ALWAYS_SKIP), and
 * SelectReverse rotates over a plane's GOOD active EVs for the control packets the QP sends
 * back. The MRC queue pair uses only that interface (so another selector can replace the
 * table); the id-based methods serve the controller and the tests, and count into the same
 * statistics.
 */
class MrcEvTable : public MrcPathSelector
{
  public:
    // NO_EV (MrcPathSelector::NO_EV): Select found none, FindByValue found none, or
    // "exclude nothing".

    /// Order of the active set within a rotation round (attribute Order).
    enum Order : uint8_t
    {
        ORDER_STRATIFIED, //!< paths interleaved: one EV of every path per sub-round
        ORDER_SHUFFLE,    //!< a uniform shuffle of all active EVs
    };

    /// How SKIP ends.
    enum SkipMode : uint8_t
    {
        SKIP_ROTATION, //!< after a number of passes of the rotation (Q6 model default)
        SKIP_TIME,     //!< after SkipTime
    };

    /**
     * Trace signature of EV state changes.
     * \param evId the EV id
     * \param value the 32-bit EV value
     * \param plane its plane
     * \param from the old state
     * \param to the new state (equal to from only for PROMOTED of a revived EV)
     * \param reason why
     */
    typedef void (*StateTracedCallback)(uint32_t evId,
                                        uint32_t value,
                                        uint32_t plane,
                                        MrcEvState from,
                                        MrcEvState to,
                                        MrcEvReason reason);

    /**
     * Trace signature of plane usability changes.
     * \param plane the plane
     * \param up true when both its local and remote port are up again
     */
    typedef void (*PlaneTracedCallback)(uint32_t plane, bool up);

    /**
     * Trace signature of carrier changes (CarrierLossEvs).
     * \param path the path group (GetPath of its EVs)
     * \param plane its plane
     * \param up false when the carrier was found dead, true when a probe revived one of its EVs
     */
    typedef void (*CarrierTracedCallback)(uint32_t path, uint32_t plane, bool up);

    /// \return the TypeId
    static TypeId GetTypeId();

    MrcEvTable();
    ~MrcEvTable() override;

    /**
     * Load the EVs. Active EVs start GOOD, backup EVs UNKNOWN; no trace fires. May be called
     * once. Aborts on an empty active set, duplicate values or a plane >= 32.
     * \param set the EV set (from MrcEvProfile::Generate)
     */
    void Init(const MrcEvSet& set);

    /**
     * The family's entry: Init(profile, nPorts, candidates) with the Profile attribute (or a
     * structured profile with default attributes when it is null) and the candidates of
     * SetCandidates (none by default).
     * \param localQpn the local queue pair number (not used)
     * \param remoteQpn the peer's queue pair number (not used)
     * \param nPorts number of planes
     */
    void Init(uint32_t localQpn, uint32_t remoteQpn, uint32_t nPorts) override;

    /// \param port a NIC port (plane) \return true if the plane has EVs (in any set)
    bool UsesPort(uint32_t port) const override;

    /**
     * Convenience: Init(profile->Generate(numPlanes, candidates)).
     * \param profile the profile
     * \param numPlanes number of planes
     * \param candidates candidate paths
     */
    void Init(Ptr<MrcEvProfile> profile,
              uint32_t numPlanes,
              const std::vector<MrcEvCandidate>& candidates);

    /**
     * Set the probe sender. Called with the EV id whenever an ASSUMED_BAD EV is due for a
     * reliability probe; the QP sends a PETH on that EV and later calls OnProbeAnswer. Without
     * it, ASSUMED_BAD EVs are never probed.
     * \param cb the callback
     */
    void SetProbeCallback(Callback<void, uint32_t> cb);

    /**
     * The family's probe sender: like SetProbeCallback, with the EV's path (value, plane,
     * carrier) instead of its id. Used when no id callback is set.
     * \param cb the callback
     */
    void SetProbeSender(Callback<void, const MrcPathChoice&> cb) override;

    /**
     * \param profile the profile the family's Init generates the EVs with (the Profile
     *        attribute)
     */
    void SetProfile(Ptr<MrcEvProfile> profile);

    /**
     * \param candidates candidate paths for the family's Init (call before it; Init
     *        generates the EVs from them and releases the copy)
     */
    void SetCandidates(const std::vector<MrcEvCandidate>& candidates);

    /**
     * \param rtt the base RTT, used as the SKIP time when the SkipTime attribute is 0
     */
    void SetBaseRtt(Time rtt) override;

    /**
     * Pick the EV of the next packet. Walks the active set in a pseudo-random order that is
     * reshuffled at the start of every round, then served round-robin: each active EV gets
     * one turn per round. With Order = Stratified (default) the round's order interleaves the
     * paths: the paths (EVs sharing an SRv6 carrier form one path; an EV without a carrier
     * is its own path) are put in a random order once per round, and the round is a
     * sequence of sub-rounds that visit the paths in that order, each with a random unvisited
     * EV of the path. The first round is drawn at the first call, so AssignStreams may come
     * any time before it. An EV is passed over (its turn is spent) if it is not GOOD, its
     * plane is down or not in `sendablePlanes`, or it is `excludeEv`. Returns NO_EV if a
     * whole round finds none; it never falls back to a SKIP, bad or excluded EV (only GOOD
     * EVs carry traffic [P2 sec. II-A]). In rotation mode that failed round has still spent
     * one skip turn of every SKIP EV. O(1) amortized; no allocation. Counted in the family's
     * statistics (GetSelectCount, or GetNoPathCount for NO_EV).
     * \param sendablePlanes bit p set = the port of plane p can send now (the free_ports of
     *        the spec's GetSendParams)
     * \param excludeEv the EV a retransmitted packet was lost on, or NO_EV; every EV of its
     *        path (GetPath) is passed over too
     * \return the EV id, or NO_EV
     */
    uint32_t Select(uint32_t sendablePlanes, uint32_t excludeEv = NO_EV)
    {
        const uint32_t id = SelectId(sendablePlanes, excludeEv);
        CountSelect(id != NO_EV);
        return id;
    }

    /**
     * A SACK (not a probe answer) echoed this EV with path feedback m.
     * \param evId the EV id (FindByValue of the echoed EV)
     * \param m the SETH m field
     */
    void OnSack(uint32_t evId, MrcPathFeedback m);

    /**
     * A NACK echoed this EV. Only TRIMMED counts against the EV.
     * \param evId the EV id
     * \param reason the NACK reason
     */
    void OnNack(uint32_t evId, MrcNackReason reason);

    /**
     * A packet sent on this EV timed out with no trim and no SACK.
     * \param evId the EV id
     */
    void OnTimeout(uint32_t evId);

    /**
     * The QP inferred that a packet on this EV was lost silently (SACK holes), and its
     * InferredLossMarksEvBad policy says to treat it as a path failure.
     * \param evId the EV id
     */
    void OnInferredLoss(uint32_t evId);

    /**
     * A probe on this EV was answered (SACK with pr = 1).
     * \param evId the EV id
     * \param m the answer's m field
     * \return true if the answer was expected (EV ASSUMED_BAD with a probe outstanding)
     */
    bool OnProbeAnswer(uint32_t evId, MrcPathFeedback m);

    /**
     * The family's probe answer: OnProbeAnswer for the EV with this value, m = NONE for
     * GOOD, SKIP_ONCE for ECN, ALWAYS_SKIP otherwise.
     * \param ev the EV value \param kind the answer
     * \return false if no EV has the value or the answer was not expected
     */
    bool ProbeAnswered(uint32_t ev, MrcPathSignal kind) override;

    /**
     * Controller: MODIFY_EV_STATE to DENIED.
     * \param evId the EV id
     */
    void Deny(uint32_t evId);

    /**
     * Controller: MODIFY_EV_STATE from DENIED back to GOOD. No effect on other states.
     * \param evId the EV id
     */
    void Allow(uint32_t evId);

    /**
     * REPLACE_EV: give an EV id a new path (value and, in SRv6 format, carrier) on the same
     * plane. The id keeps its set; a SKIP EV becomes GOOD; an ASSUMED_BAD EV stops being
     * probed, becomes GOOD and is placed like a revived EV; a DENIED EV stays DENIED. Skip and
     * probe bookkeeping restart; the counters stay. The old value is no longer found by
     * FindByValue (late feedback for it is ignored).
     * \param evId an EV id (aborts if out of range)
     * \param ev the new EV
     * \return false (nothing changed) if the plane differs or another id has the value
     */
    bool Replace(uint32_t evId, const MrcEvCandidate& ev);

    /**
     * Local NIC port of a plane went down or came up.
     * \param plane the plane
     * \param up true if up
     */
    void SetLocalPortUp(uint32_t plane, bool up) override;

    /**
     * The peer's port of a plane went down or came up (Port Status Update, Q3).
     * \param plane the plane
     * \param up true if up
     */
    void SetRemotePortUp(uint32_t plane, bool up) override;

    /// \param plane a plane \return true if both its ports are up
    bool IsPlaneUp(uint32_t plane) const;

    /// \param port a plane \return true if it is up and has active EVs
    bool CanUsePort(uint32_t port) const override;

    /**
     * The EV of a control packet sent back on a plane: the next GOOD active EV of the plane
     * after the one used last, in id order (a reverse path that died silently then loses
     * only some control packets). Not counted as a selection.
     * \param port the plane
     * \return its path, or port NO_PORT when the plane has no GOOD active EV
     */
    MrcPathChoice SelectReverse(uint32_t port) override;

    /// \param value an echoed 32-bit EV \return its id, or NO_EV
    uint32_t FindByValue(uint32_t value) const;

    /// \param evId an EV id \return the entry (state, counters, carrier)
    MrcEvEntry GetEntry(uint32_t evId) const;

    /// \param evId an EV id \return its state
    MrcEvState GetState(uint32_t evId) const;

    /// \param evId an EV id \return its 32-bit value
    uint32_t GetValue(uint32_t evId) const;

    /// \param evId an EV id \return its plane
    uint32_t GetPlane(uint32_t evId) const;

    /// \return the number of EVs of all sets
    uint32_t GetEvCount() const;
    /// \param plane a plane
    /// \return the ids of the plane's EVs (all sets), ascending; empty for an unknown plane
    const std::vector<uint32_t>& GetPlaneIds(uint32_t plane) const;
    /// \param evId an EV id \return true if it is in the active set and GOOD (read from
    /// the compact per-EV array, without touching its entry)
    bool IsActiveAndGood(uint32_t evId) const;

    /// \return the number of planes (highest plane + 1)
    uint32_t GetPlaneCount() const;

    /// \return the size of the active set
    uint32_t GetActiveCount() const;

    /// \param plane a plane \return active EVs of that plane
    uint32_t GetActiveCount(uint32_t plane) const;

    /// \param plane a plane \return backup EVs of that plane
    uint32_t GetBackupCount(uint32_t plane) const;

    /// \param s a state \return number of EVs in it
    uint32_t CountInState(MrcEvState s) const;

    /// \return the ev_min_active floor
    uint32_t GetEvMinActive() const;

    /// \return number of rotation rounds started (shuffles; the first is drawn by the first
    /// Select, not by Init)
    uint64_t GetRounds() const;

    /// \return the number of distinct paths (path groups) of all EVs
    uint32_t GetPathCount() const override;

    /**
     * A loss or timeout on an EV whose path still delivers (see MrcPathSelector): the EV's
     * health changes as for Feedback(ev, kind); with CarrierLossEvs the loss does not count
     * against the carrier, whose count starts again.
     * \param ev the entropy value \param kind LOSS or TIMEOUT
     */
    void LossOnLivePath(uint32_t ev, MrcPathSignal kind) override;

    /// \param path a path group (GetPath) \return true if its carrier is down (CarrierLossEvs)
    bool IsCarrierDown(uint32_t path) const;

    /// \return the number of times a carrier was found dead (CarrierLossEvs)
    uint32_t GetCarrierFailures() const;

    /// \param evId an EV id \return its path group (EVs with one SRv6 carrier share it)
    uint32_t GetPath(uint32_t evId) const;

    /**
     * \param stream first stream index
     * \return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream) override;

  protected:
    void DoDispose() override;
    MrcPathChoice DoSelect(const MrcPathRequest& r) override;
    void DoFeedback(uint32_t ev, MrcPathSignal kind) override;

  private:
    /// Select without counting (see Select).
    /// \param sendablePlanes planes that may send
    /// \param excludeEv EV to pass over with its path (or NO_EV)
    /// \return the EV id, or NO_EV
    uint32_t SelectId(uint32_t sendablePlanes, uint32_t excludeEv);
    /// Draw the first round of every plane (see Init).
    void DrawFirstRounds();
    /// OnSack without counting. \param id the EV id \param m the m field
    void ApplySack(uint32_t id, MrcPathFeedback m);
    /// A TRIMMED NACK without counting. \param id the EV id
    void ApplyTrim(uint32_t id);
    /// OnTimeout / OnInferredLoss without counting.
    /// \param id the EV id \param reason TIMEOUT or LOSS_INFERRED
    /// \param carrierCounts the loss counts against the EV's carrier (CarrierLossEvs)
    void ApplyLoss(uint32_t id, MrcEvReason reason, bool carrierCounts = true);
    /// Count a loss on an EV against its carrier; N distinct EVs: RetireCarrier.
    /// \param id the EV id
    void CountCarrierLoss(uint32_t id);
    /// A sign that a carrier delivers: its loss count starts again. \param path the path group
    void NoteCarrierAlive(uint32_t path);
    /// N losses: the carrier is suspect; probe it and confirm after CarrierConfirmTime.
    /// \param path the path group \param id the EV whose loss made it suspect
    void SuspectCarrier(uint32_t path, uint32_t id);
    /// The confirmation time of a suspect carrier ran out with no sign of life.
    /// \param path the path group \param plane its plane
    void ConfirmCarrier(uint32_t path, uint32_t plane);
    /// The carrier is dead: retire its active EVs, keep its backups out.
    /// \param path the path group \param plane its plane
    void RetireCarrier(uint32_t path, uint32_t plane);

    /// \param path a path group \return true if it may not supply backups (carrier down)
    bool IsPathDown(uint32_t path) const
    {
        return !m_pathState.empty() && m_pathState[path].down != 0;
    }

    /// Size the per-plane vectors for an EV set (Init).
    /// \param set the EV set
    void SizePlanes(const MrcEvSet& set);
    /// Add one EV to m_hot, m_byValue and its plane, with its path group (Init).
    /// \param c the EV
    /// \param carrierPaths ids of the first EV of each SRv6 carrier seen so far
    /// \return its id
    uint32_t AddEv(const MrcEvCandidate& c, std::vector<uint32_t>& carrierPaths);
    /// Fisher-Yates shuffle of ids with the table's stream. \param ids the ids
    /// \param n how many
    void ShuffleIds(uint32_t* ids, std::size_t n);
    /// Stratified order of a plane (Reshuffle): buckets shuffled, paths shuffled, dealt.
    /// \param plane the plane \param longest the largest bucket
    void DealStratified(uint32_t plane, uint32_t longest);

    /// Reshuffle's scratch, one for all tables (Reshuffle does not re-enter): the plane's
    /// active ids grouped by path, without memory per table.
    struct ReshuffleScratch
    {
        std::vector<uint32_t> count;     //!< per path: active ids (zero between calls)
        std::vector<uint32_t> start;     //!< per path: its group's first index in `grouped`
        std::vector<uint32_t> pathOrder; //!< the paths met, then their dealing order
        std::vector<uint32_t> grouped;   //!< the ids by path, in active order in a path
    };

    /// \return the shared scratch, with room for this table's paths
    ReshuffleScratch& Scratch() const;
    /// Change state, fire the trace.
    void SetState(uint32_t id, MrcEvState to, MrcEvReason reason);
    /// GOOD/SKIP -> SKIP for `turns` passes (rotation) or SkipTime (time).
    void EnterSkip(uint32_t id, uint32_t turns, MrcEvReason reason);
    /// Silent-loss retirement with floor check.
    void Retire(uint32_t id, MrcEvReason reason);
    /// Remove from the active vector keeping the unvisited part of the round intact.
    void RemoveFromActive(uint32_t id);
    /// Append to the active vector (gets a turn in the current round).
    void AddToActive(uint32_t id);
    /// Refill the plane's active set from its backup while it is below target.
    /// \param plane the plane
    /// \param avoidPath take backups off this path first (NO_EV: the oldest first)
    void Refill(uint32_t plane, uint32_t avoidPath = NO_EV);
    /// The backup that Refill promotes next: the oldest one not on avoidPath (else the
    /// oldest); with RefillAvoidsFailedPaths only one on a path none of whose EVs is
    /// ASSUMED_BAD (none: end()).
    /// \param plane the plane \param avoidPath the path the retired EV failed on (or NO_EV)
    /// \return an iterator into m_backup[plane], or its end() when none may be promoted
    std::vector<uint32_t>::iterator PickBackup(uint32_t plane, uint32_t avoidPath);
    /// Put a revived or allowed EV into the active set (plane short) or backup.
    void Place(uint32_t id);
    /// Draw the next round's order of one plane's active vector (Order attribute).
    /// \param plane the plane
    void Reshuffle(uint32_t plane);
    /// Select's walk of one plane's rotation.
    /// \param plane the plane
    /// \param excludeEv EV to pass over (or NO_EV)
    /// \param excludePath path to pass over (or NO_EV)
    /// \return the EV id, or NO_EV
    uint32_t SelectInPlane(uint32_t plane, uint32_t excludeEv, uint32_t excludePath);
    /// Schedule the next probe of an ASSUMED_BAD EV.
    void ScheduleProbe(uint32_t id);
    /// Probe timer fired.
    void SendProbe(uint32_t id);
    /// Probe response timer fired.
    void ProbeTimedOut(uint32_t id);
    /// \return the SKIP time in use
    Time GetSkipTime() const;
    /// Abort on a bad id.
    void CheckId(uint32_t id) const;
    /// \param id an EV id \return its path (value encoded SRC_PORT_LOW, plane, group, carrier)
    MrcPathChoice ChoiceOf(uint32_t id) const;

    /// m_hot's carrier of an EV without one (structured or ECMP format).
    static constexpr uint32_t NO_CARRIER = 0xffffffffu;

    /// One EV as the per-packet calls read it: what Select passes over, the value, plane and
    /// carrier a packet takes, and its packet count. 32 bytes: two EVs a cache line.
    struct EvHot
    {
        uint32_t value{0};                       //!< the 32-bit EV carried on the wire
        uint32_t path{0};                        //!< path group (Init)
        uint32_t pos{0};                         //!< index in its plane's active vector (ACTIVE)
        uint32_t skipTurns{0};                   //!< rotation mode: turns still to skip
        uint32_t carrier{NO_CARRIER};            //!< index in m_carriers (SRv6 format)
        MrcEvState state{MrcEvState::UNKNOWN};   //!< health state
        MrcEvEntry::Set set{MrcEvEntry::BACKUP}; //!< set membership
        uint8_t plane{0};                        //!< 0-based plane (below 32)
        uint64_t sent{0};                        //!< packets the selection put on this EV
    };

    /// What feedback, probes and the carrier count keep of one EV. m_cold is made for the
    /// whole table when one of these is first written: most connections never need it.
    using EvCold = MrcEvHistory;

    /// One path group's dead-carrier count (CarrierLossEvs). m_pathState is made for the
    /// whole table at its first counted loss.
    struct PathState
    {
        Time firstLoss;     //!< time of the count's first loss
        EventId confirm;    //!< the pending confirmation (suspect)
        uint32_t losses{0}; //!< distinct EVs lost in the current count
        uint32_t epoch{1};  //!< number of the current count (from 1)
        uint8_t down{0};    //!< 1 while its carrier is down
    };

    /// \param id an EV id \return its cold part, m_cold made if it was not
    EvCold& Cold(uint32_t id);
    /// \param id an EV id \return its cold part (a blank one while m_cold is not made)
    const EvCold& ColdOf(uint32_t id) const;
    /// \param path a path group \return its state, m_pathState made if it was not
    PathState& PathRef(uint32_t path);

    /// \param path a path group \return distinct EVs lost in its current count
    uint32_t PathLosses(uint32_t path) const
    {
        return m_pathState.empty() ? 0 : m_pathState[path].losses;
    }

    /// \param id an EV id \return its probe timer (one is made at its first probe)
    EventId& ProbeTimer(uint32_t id);
    /// Cancel the EV's probe timer, if it has one. \param id an EV id
    void CancelProbe(uint32_t id);

    /// \param value an EV value \return its home slot in m_byValue
    std::size_t HomeOf(uint32_t value) const
    {
        return static_cast<std::size_t>((uint64_t{value} * 0x9E3779B97F4A7C15ULL) >> 32) &
               (m_byValue.size() - 1);
    }

    /// Put an EV into m_byValue (its value not there yet). \param id the EV id
    void IndexValue(uint32_t id);
    /// \param c an SRv6 carrier \return its index in m_carriers (added if new)
    uint32_t CarrierIndex(const MrcUsidCarrier& c);

    std::vector<EvHot> m_hot;           //!< all EVs, by id
    std::vector<EvCold> m_cold;         //!< by id; empty until first written (Cold)
    std::vector<PathState> m_pathState; //!< by path; empty until a loss is counted (PathRef)
    std::vector<std::pair<uint32_t, EventId>> m_probeTimers; //!< EV id, its probe timer
    std::vector<MrcUsidCarrier> m_carriers; //!< the SRv6 carriers of the EVs, each once

    /// What Select, SelectReverse and the refill read of one plane, side by side.
    struct Plane
    {
        std::vector<uint32_t> active; //!< active ids, round order
        uint32_t cursor{0};           //!< next position in active
        uint32_t activeCount{0};      //!< active EVs now
        uint32_t target{0};           //!< active EVs at Init
        uint32_t reverseEv{NO_EV};    //!< last reverse EV id (SelectReverse)
        uint32_t reversePos{0};       //!< its index in GetPlaneIds
        uint64_t rounds{0};           //!< rounds drawn
    };

    std::vector<Plane> m_plane;   //!< by plane
    uint32_t m_planes{0};         //!< number of planes
    uint32_t m_localDownMask{0};  //!< bit p: local port of plane p down
    uint32_t m_remoteDownMask{0}; //!< bit p: remote port of plane p down
    uint32_t m_nActive{0};        //!< active EVs over all planes
    uint32_t m_lastLost{NO_EV};   //!< EV with the latest loss or trim feedback (DoSelect)
    bool m_drawn{false};          //!< the first round has been drawn
    bool m_retiringPath{false};   //!< inside Retire's walk over one path's EVs
    SkipMode m_skipMode;          //!< SkipMode
    Order m_order;                //!< Order
    uint32_t m_ecnSkipTurns;      //!< EcnSkipTurns
    uint32_t m_trimSkipTurns;     //!< TrimSkipTurns
    uint32_t m_carrierLossEvs;    //!< CarrierLossEvs (0: off)
    // (the fields above are read by the per-packet calls: kept in a few cache lines)

    /// FindByValue's index: open addressing on the EV value, a slot holding id + 1 (0: free)
    /// and the value read from m_hot; at most half full. 4 bytes a slot where a map of value
    /// and id would take 12.
    std::vector<uint32_t> m_byValue;
    std::vector<std::vector<uint32_t>> m_planeIds;      //!< per plane: all its ids, ascending
    uint64_t m_rounds{0};                               //!< most rounds drawn by one plane
    uint32_t m_nextPlane{0};                            //!< plane whose turn is next
    uint32_t m_paths{0};                                //!< number of path groups
    std::vector<std::vector<uint32_t>> m_backup;        //!< per-plane backup ids, oldest first
    uint32_t m_evMinActive{0};                          //!< ev_min_active
    Time m_baseRtt;                                     //!< SetBaseRtt
    Callback<void, uint32_t> m_probeCb;                 //!< probe sender (by id)
    Callback<void, const MrcPathChoice&> m_probeSender; //!< probe sender (by path)
    std::vector<MrcEvCandidate> m_candidates;           //!< SetCandidates (family Init)
    Ptr<UniformRandomVariable> m_rng;                   //!< shuffle and probe jitter
    Ptr<MrcEvProfile> m_profile;                        //!< Profile attribute (family Init)

    // attributes (the per-packet ones are above)
    Time m_skipTime;                //!< SkipTime (0 = base RTT)
    Time m_probeInterval;           //!< ProbeInterval
    double m_probeJitter;           //!< ProbeJitter
    Time m_probeTimeout;            //!< ProbeTimeout
    uint32_t m_reviveSuccesses;     //!< ReviveSuccesses
    bool m_refillAvoidsFailedPaths; //!< RefillAvoidsFailedPaths
    bool m_retireWholePath;         //!< RetireWholePath

    // the dead-carrier rule (CarrierLossEvs and the loss counts are above)
    Time m_carrierLossWindow;      //!< CarrierLossWindow (0: no limit)
    Time m_carrierConfirmTime;     //!< CarrierConfirmTime (0: 4 base RTTs)
    uint32_t m_carrierFailures{0}; //!< carriers found dead

    TracedCallback<uint32_t, uint32_t, uint32_t, MrcEvState, MrcEvState, MrcEvReason>
        m_stateTrace;                            //!< EvState trace
    TracedCallback<uint32_t, bool> m_planeTrace; //!< PlaneState trace

    TracedCallback<uint32_t, uint32_t, bool> m_carrierTrace; //!< CarrierState trace
};

} // namespace ns3

#endif /* MRC_EV_TABLE_H */
