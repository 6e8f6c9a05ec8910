/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_MULTIPATH_QUEUE_PAIR_H
#define MRC_MULTIPATH_QUEUE_PAIR_H

#include "ns3/event-id.h"
#include "ns3/mrc-cc-state-header.h"
#include "ns3/mrc-ev-profile.h"
#include "ns3/mrc-ev-table.h"
#include "ns3/mrc-flat-map.h"
#include "ns3/mrc-neth-header.h"
#include "ns3/mrc-seth-header.h"
#include "ns3/mrc-sprayed-queue-pair.h"

#include <cstdint>
#include <deque>
#include <initializer_list>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * The MRC (Multipath Reliable Connection) queue pair: per-packet EV spraying over the
 * planes of a multi-port NIC, out-of-order placement, SACK/NACK selective
 * retransmission, NSCC, per-EV health, linear-then-exponential timeouts, probes.
 */

namespace ns3
{

class MrcMemoryRegion;
class MrcPortStatusAgent;
class MrcReusableEvent;

/**
 * \ingroup mrc
 * Counters specific to MRC (in addition to MrcQpCounters).
 */
struct MrcMultipathCounters
{
    uint64_t trimNacksSent{0};      //!< TRIMMED / TRIMMED_LASTHOP NACKs sent (responder)
    uint64_t oorNacksSent{0};       //!< PSN_OOR_WINDOW NACKs sent (responder)
    uint64_t trimNacksReceived{0};  //!< TRIMMED / TRIMMED_LASTHOP NACKs received (requester)
    uint64_t nackRetransmits{0};    //!< retransmissions of PSNs a NACK queued (fast retransmits)
    uint64_t wimmDestExceeded{0};   //!< Write-with-Imm refused: beyond MaxWimmDest (responder)
    uint64_t inferredLosses{0};     //!< PSNs declared lost from SACK holes
    uint64_t timedOutPsns{0};       //!< PSNs declared lost by the timeout
    uint64_t probesSent{0};         //!< reliability probes sent (tail and EV probes)
    uint64_t probesAnswered{0};     //!< probe answers (SACK pr = 1) received
    uint64_t noEvStalls{0};         //!< BuildNextPacket found no usable EV on its port
    uint64_t portStatusSent{0};     //!< Port Status Updates sent
    uint64_t portStatusReceived{0}; //!< Port Status Updates received
    uint64_t portStatusAnswered{0}; //!< Port Status Update answers received
    uint64_t portStatusResent{0};   //!< Port Status Updates sent again
    uint64_t transportAcksSent{0};  //!< Transport ACKs sent (responder)
    uint64_t transportAcksRcvd{0};  //!< Transport ACKs received
    uint64_t penaltySacks{0};       //!< SACKs sent with rcv_cwnd_pen > 0
    uint64_t restoreSacks{0};       //!< SACKs sent with restore_cwnd
    uint64_t guardRechecks{0};      //!< BackstopGuard re-checks run at a held PSN's expiry
    uint64_t guardLosses{0};        //!< of inferredLosses: PSNs found lost by these re-checks
    uint64_t revProbesSent{0};      //!< of probesSent: reverse-EV probes (ReversePath Probed)
    uint64_t revProbesAnswered{0};  //!< reverse-EV probes answered (any m)
    uint64_t revAnsweredCe{0};      //!< of revProbesAnswered: answers with m != NONE (CE)
    uint64_t reverseEvChanges{0};   //!< times a plane's reverse EV became another EV
    uint64_t alwaysSkipSent{0};     //!< SACKs sent with m = ALWAYS_SKIP (responder)
    uint64_t alwaysSkipWithheld{0}; //!< CE runs answered SKIP_ONCE by AlwaysSkipRule Relative
};

/**
 * \ingroup mrc
 * An MRC queue pair (both roles: requester and responder), after the OCP MRC 1.0
 * transport as described in mrc-protocol.md sec. 3-6 and its resolutions Q1-Q7.
 *
 * **Operations.** RDMA Write and Write-with-Immediate only; a request with any other
 * operation puts the QP in the error state (MrcQpError::UNSUPPORTED_OPERATION, status
 * LOCAL_OP_ERROR, the reason names the operation).
 *
 * **Requester.** A Write of L bytes becomes max(1, ceil(L / Mtu)) packets with
 * consecutive PSNs (MRC opcodes 0xC6-0xCB). Every packet carries METH (MSN = message
 * number, RQMSN = Write-with-Immediate number), TSETH when Timestamps is on, and RETH
 * with the packet's own remote address (VA advances by Mtu) and the message length;
 * the last packet of a Write-with-Immediate carries ImmDt. A packet leaves only while
 * (a) NSCC allows it (inflight + bytes <= cwnd; retransmissions too), (b) its PSN is
 * below una + min(peer MPR x 128, scoreboard capacity), (c) a new Write-with-Immediate
 * finds fewer than MaxWimm of them outstanding. The NIC asks the QP per port; the QP
 * asks its path selector (EntropySelector, default MrcEvTable: a GOOD EV of that port's
 * plane) and encapsulates per the path: SRv6 (EV with a uSID carrier: outer IPv6 to the
 * carrier, inner IPv6 to the peer's address on that plane) or structured/ECMP (no outer
 * header); in both the EV rides in the UDP source port and flow label (MrcEvEncode,
 * EvSplit). First transmissions use DataDscp (trimmable), retransmissions RetxDscp.
 *
 * **Responder.** Every packet is placed at its RETH address on arrival (no reorder
 * buffer) if MrcReceiveBitmap says it is NEW; duplicates are not placed again. A PSN at
 * or beyond ePSN + Mpr x 128 is NACKed PSN_OOR_WINDOW; a trimmed arrival (outer DSCP
 * TrimmedDscp / TrimmedLastHopDscp) is NACKed TRIMMED / TRIMMED_LASTHOP with its EV.
 * SACKs follow MrcSackPolicy; each echoes the EV of its trigger, with m = SKIP_ONCE when
 * the trigger arrived CE and m = ALWAYS_SKIP when the last AlwaysSkipCeRun packets on
 * that EV all arrived CE (our rule; 0 disables it; AlwaysSkipRule Relative, the default,
 * answers SKIP_ONCE instead while the EV's plane is marked as a whole and another plane
 * of the QP is not), and a CC_STATE (rcvd_bytes in 256 B
 * units, ooo_count, reflected timestamp). Control packets go back on the plane the data
 * came in on, on the path selector's reverse path (SelectReverse; the EV table rotates over
 * the GOOD active EVs of that plane, SRv6 carrier back when it has one), else the echoed
 * EV in structured form (ReversePath Rotate). With ReversePath Probed (the default since
 * session 17, [P1] sec. 2.4) a QP that only receives sends a reliability probe per
 * ReverseProbeInterval on a random GOOD EV of the next plane and takes the EV whose probe
 * is answered (any m; any of its last REV_PROBES_KEPT probes) as that plane's reverse EV.
 * Messages are reported (MessageReceived, receive callback) in MSN order once every byte
 * has arrived.
 *
 * **SACK / NACK processing.** MrcSackScoreboard frees PSNs and infers losses
 * (LossRule Count: ReorderPsns count rule, and SLEEK recovery on the SACK's ooo_count when
 * SleekRecovery; LossRule Path, the default: the count rule within the path, the plane and
 * global backstops, and with RetxPathRule the path rule in send order for retransmissions;
 * LossRule Plane: the count rule within the plane; LossRule Time); NSCC
 * gets OnAck with the newly acknowledged bytes, the ECN echo (m != NONE), an RTT sample (the
 * trigger's send time, or the reflected TSETH) and the receiver's window fields; the path
 * selector gets Feedback: the SACK's m as GOOD / ECN / BAD (MrcPathSignalOfSack), a trim
 * NACK as NACK, an inferred loss as LOSS (when InferredLossMarksEvBad). Lost and NACKed
 * PSNs are retransmitted oldest first on a fresh path (the request names the EV they were
 * lost on, which the selector passes over with its path) before new data.
 * NACK UNEXP_EVENT is fatal; a NACK other than TRIMMED / TRIMMED_LASTHOP for a packet that
 * was already retransmitted counts against the retry counter. Retransmissions obey the
 * peer's window as new data does. A Write completes when all its PSNs are acknowledged.
 *
 * **Timeout.** One timer on the oldest PSN in flight: 1.024 us x 2^TimeoutExponent for
 * the first LinearCount expiries without progress, then doubling for ExpCount more;
 * one more expiry puts the QP in the error state ("retry counter exceeded"). Each
 * expiry reports the EVs of the timed-out PSNs (Feedback TIMEOUT).
 *
 * **Probes.** A reliability probe (PETH, no PSN) asks the peer for a SACK when data is
 * outstanding, nothing else can be sent and no SACK came for TailProbeDelay; ASSUMED_BAD
 * EVs are probed when the path selector asks (SetProbeSender), and the SACK with pr = 1
 * that answers goes back to it (ProbeAnswered).
 *
 * **Port state.** A NIC port's link going down or up takes its plane out of (into) use
 * in the path selector (SetLocalPortUp) and, with PortStatusUpdates, sends the peer QP a
 * Port Status Update (ERTH op 0, reachable-port mask) on a working port; the peer applies
 * it with the selector's SetRemotePortUp and answers (EETH, same request id); unanswered
 * updates are sent again (PortStatusTimeout, PortStatusAttempts). With
 * MrcRdmaNic::PortStatusScope Nic (default) the NIC sends one update per peer NIC to its
 * reserved QPN 0x2 instead, and the peer NIC applies it to every QP connected to the
 * sender; with Qp each QP sends its own to the peer QP.
 *
 * **Lifecycle.** Connect() or the steps ModifyToInit / ModifyToRtr / ModifyToRts (see
 * MrcController for the OCP attributes of each step). The path selector, receive window
 * and SACK policy are built at RTR, when arrivals start being processed; RTS applies
 * InitialPsn and PeerMpr to the sender scoreboard. SetEvCandidates and SetEvProfile are
 * allowed in RESET and INIT.
 *
 * **Paths.** The QP talks to its path selector only through the MrcPathSelector
 * interface (Select with an MrcPathRequest, Feedback, and the optional parts: port state,
 * SelectReverse, probes, base RTT, streams), so EntropySelector may name any member of the
 * family. The one EV-table-specific step is set-up: when the selector is an MrcEvTable, the
 * QP hands it its EV profile and candidates before Init (GetEvTable then returns it, for
 * the controller). The scoreboard records each PSN's EV value and the selector's path group.
 *
 * **Structure.** The skeleton shared with UEC (packet building, SACK bookkeeping,
 * placement, message reassembly, the SACK policy) and the attributes both have live in
 * MrcSprayedQueuePair; this class keeps MRC's hooks, implemented in one file per concern:
 * mrc-multipath-queue-pair.cc (lifecycle, set-up, accessors), mrc-multipath-attributes.cc
 * (TypeId and attributes), mrc-multipath-sender.cc (send gates, path choice, data packets,
 * encapsulation), mrc-multipath-recovery.cc (SACK and NACK processing, loss inference, the
 * backed-off timeout and the probes), mrc-multipath-responder.cc (the responder's NACKs,
 * CE-run feedback, SACKs, probe answers, the reverse path), mrc-multipath-messages.cc
 * (MSNs, Write-with-Immediate limits, Transport ACKs) and mrc-multipath-port-state.cc (link
 * changes and Port Status). It has no PathSelector attribute: its selector is the
 * EntropySelector.
 */
class MrcMultipathQueuePair : public MrcSprayedQueuePair
{
  public:
    /// Which rule infers loss from SACK holes (attribute LossRule).
    enum LossRule : uint8_t
    {
        LOSS_COUNT, //!< ReorderPsns count rule, plus SLEEK when SleekRecovery
        LOSS_TIME,  //!< RACK-style time rule with ReorderTime (no count rule, no SLEEK)
        LOSS_PLANE, //!< ReorderPsns counted within the plane (+ time rule if ReorderTime > 0)
        LOSS_PATH,  //!< ReorderPsns counted within the path, PlaneReorderPsns within the plane
    };

    /// When the responder answers m = ALWAYS_SKIP (attribute AlwaysSkipRule).
    enum AlwaysSkipRule : uint8_t
    {
        ALWAYS_SKIP_CE_RUN,   //!< AlwaysSkipCeRun CE arrivals in a row on the EV
        ALWAYS_SKIP_RELATIVE, //!< the same run, withheld while only the EV's plane is marked
    };

    /// How control packets pick their EV (attribute ReversePath).
    enum ReversePath : uint8_t
    {
        REVERSE_ROTATE, //!< every control packet: the next GOOD active EV of the plane
        REVERSE_PROBED, //!< inbound-only: the plane's reverse EV, learned by EV probes
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcMultipathQueuePair();
    ~MrcMultipathQueuePair() override;

    /**
     * Candidate paths from which Connect generates the EV set (MrcEvProfile::Generate).
     * Without candidates a structured set of random 16-bit values per plane is drawn.
     * Call before Connect (in RESET or INIT). The QP keeps them only until RTR, when its EV
     * table is made from them (a QP connects once).
     * \param candidates per-plane candidates (SRv6 ones carry a uSID carrier)
     */
    void SetEvCandidates(const std::vector<MrcEvCandidate>& candidates);

    /**
     * The EV profile to generate the EV set with. Default: a fresh MrcEvProfile with the
     * Structured format when no candidate has a carrier, Srv6 otherwise. Call before
     * Connect.
     * \param profile the profile
     */
    void SetEvProfile(Ptr<MrcEvProfile> profile);

    /**
     * Fix the random streams of the EV profile (EV generation) and the EV table (rotation
     * shuffle, probe jitter). Call after Connect (the table exists then) and before the first
     * packet (the table draws its first order lazily); the profile's
     * stream applies to later generations only.
     * \param stream first stream index
     * \return the number of streams used (2)
     */
    int64_t AssignStreams(int64_t stream);

    /// \return the EV table (null before Connect, or when the EntropySelector is another
    /// member of the path-selection family)
    Ptr<MrcEvTable> GetEvTable() const;
    /// \return the path selector (EntropySelector), whatever its type (null before Connect;
    /// the base class's GetPathSelector, the PathSelector attribute, stays null for MRC)
    Ptr<MrcPathSelector> GetEntropySelector() const;
    /// \return the MRC counters
    const MrcMultipathCounters& GetMultipathCounters() const;
    /// \return the peer's MPR as last advertised (units of 128 PSNs)
    uint8_t GetPeerMpr() const;
    /// \return the current timeout (grows while retries without progress go on)
    Time GetCurrentTimeout() const;
    /**
     * The reverse EV of a plane that ReversePath Probed learned (the EV of the last
     * reverse-EV probe answered on that plane).
     * \param port the plane
     * \return its path, or port NO_PORT when none was learned yet
     */
    MrcPathChoice GetReverseEv(uint32_t port) const;
    /// \return the MaxWimmDest attribute (RTR max_wimm_dest)
    uint32_t GetMaxWimmDest() const;
    /// \return messages the peer acknowledged with Transport ACKs (requester; cumulative)
    uint64_t GetTransportAckedMessages() const;

    /**
     * The peer's port of a plane went down or up (Port Status Update, Q3).
     * \param plane the plane
     * \param up true if up
     */
    void SetRemotePortUp(uint32_t plane, bool up);

    // ---- Port Status Update (run by the NIC's MrcPortStatusAgent, both scopes) ----

    /// \return the PortStatusUpdates attribute
    bool GetPortStatusUpdates() const;
    /// \return the PortStatusTimeout attribute
    Time GetPortStatusTimeout() const;
    /// \return the PortStatusAttempts attribute
    uint32_t GetPortStatusAttempts() const;
    /**
     * Apply a peer's reachable-port mask (ERTH port_status_mask, bit N = port N) to this
     * QP's EV table, as a Port Status Update does; counts portStatusReceived.
     * \param mask the mask
     * \return false if the QP is not connected (nothing applied)
     */
    bool ApplyPeerPortMask(uint32_t mask);
    /**
     * ApplyPeerPortMask, then offer the QP to the NIC's scheduler (the set of usable
     * planes changed).
     * \param mask the mask
     */
    void ApplyPeerPortStatus(uint32_t mask);
    /**
     * Send an endpoint packet (from its BTH on) toward this QP's peer on a port, in the
     * control class on a reverse EV of that plane, as the QP's own control packets.
     * \param port the port
     * \param p the packet, BTH first
     * \return false if the QP cannot send (not connected, or in error)
     */
    bool SendEndpointPacket(uint32_t port, Ptr<Packet> p);

    bool UsesPort(uint32_t port) const override;
    Time GetNextSendTime(uint32_t port) const override;

    /// \param exponent the timeout exponent \return 1.024 us x 2^exponent
    static Time TimeoutFromExponent(uint32_t exponent);

  protected:
    void DoDispose() override;
    void DoConnect() override;
    void DoPostSend(MrcSendWqe& wqe) override;
    void DoEnterError() override;
    void DoModifyToRts() override;
    /// \return true when the time rule is in force (LossRule Time with ReorderTime or
    /// BaseRtt set; Plane or Path with ReorderTime set, or ReorderTimeRtts and BaseRtt)
    bool UsesTimeRule() const;
    /// Set the scoreboard's loss rules from LossRule, ReorderPsns and ReorderTime.
    /// \param cfg [in,out] the scoreboard configuration
    void ConfigureLossRule(MrcSackScoreboard::Config& cfg) const;

    // ---- requester hooks ----
    /// \return true if a retransmission could go now (window permitting)
    bool CanRetransmit() const final;
    /// \return true if a new PSN could go now (every gate)
    bool CanSendNew() const final;
    /// A GOOD EV of the port's plane (a retransmission avoids the EV it was lost on).
    bool ChooseNext(uint32_t port, Time now, TxChoice& c) override;
    /// Counts a started Write-with-Immediate (MaxWimm).
    void OnNewDataSent(const MrcSendWqe& w, uint64_t pktIdx) override;
    /// METH (MSN, RQMSN), TSETH when Timestamps, RETH; encapsulated per the EV.
    Ptr<Packet> BuildDataPacket(uint32_t port,
                                std::size_t idx,
                                uint64_t pktIdx,
                                uint32_t len,
                                const TxChoice& c,
                                bool ar,
                                uint8_t dscp) override;
    /// Arms the timeout and the tail probe.
    void AfterDataSent(Ptr<const Packet> p, Time now) override;
    /// Counts the loss and tells the EV table (OnTimeout, OnInferredLoss).
    void OnLostPsn(const MrcPsnEvent& e, bool timeout) override;
    /// False while CompleteOnTransportAck waits for the peer's Transport ACK.
    bool MayComplete(const MrcSendWqe& w) const override;
    void OnRequestCompleted(const MrcSendWqe& w) override;
    /// Handle a SACK.
    void ReceiveSack(const MrcRxPacket& rx) override;
    /// Handle a NACK.
    void ReceiveNack(const MrcRxPacket& rx) override;
    /// Answer a probe.
    void ReceiveProbe(const MrcRxPacket& rx) override;
    /// Endpoint requests and responses (Port Status) and Transport ACKs.
    void ReceiveOther(const MrcRxPacket& rx) override;

    // ---- responder hooks ----
    /// \param rx a packet \return the EV it carries
    uint32_t EvOf(const MrcRxPacket& rx) const final;
    /// NACK TRIMMED or TRIMMED_LASTHOP with the packet's EV.
    void OnTrimmedArrival(const MrcRxPacket& rx, const Arrival& a, bool lastHop) override;
    /// MaxWimmDest: NACK UNEXP_EVENT for a Write-with-Immediate too far ahead.
    bool AdmitData(const MrcRxPacket& rx, const Arrival& a) override;
    /// NACK PSN_OOR_WINDOW.
    void OnOutOfWindow(const MrcRxPacket& rx, const Arrival& a) override;
    /// NACK UNEXP_EVENT.
    void OnAccessError(const MrcRxPacket& rx,
                       const Arrival& a,
                       uint32_t rkey,
                       uint64_t va) override;
    /// m = SKIP_ONCE for CE, ALWAYS_SKIP after AlwaysSkipCeRun CE arrivals in a row
    /// (AlwaysSkipRule Relative: unless only the EV's plane is marked).
    void SetFeedback(Arrival& a) override;
    /**
     * AlwaysSkipRule Relative: record an arrival in its plane's share of CE arrivals and,
     * for a CE arrival, tell whether its EV's CE run is the plane's: the plane is marked
     * and another plane of the QP that had arrivals since the run began is not.
     * \param a the arrival
     * \param since the start of the EV's CE run (Time::Max() for an arrival not CE)
     * \return true when a CE run must not become ALWAYS_SKIP
     */
    bool PlaneMarkedAlone(const Arrival& a, Time since);
    void SendDataAck(uint32_t port, uint32_t psn, const Arrival& a) override;
    /// A Transport ACK when TransportAckMessages messages completed (or no later one is
    /// in progress).
    void AfterDataAck(const MrcRxPacket& rx, const Arrival& a, uint32_t delivered) override;

  private:
    /// ExpCount at or above this value means "retry forever" (OCP MRC API: 25 = infinite).
    static constexpr uint32_t EXP_COUNT_INFINITE = 25;

    // ---- attribute groups of GetTypeId ----
    /// \return the TypeId, built once by GetTypeId
    static TypeId MakeTypeId();
    /// \param tid the TypeId \return tid with the EntropySelector attribute
    static TypeId AddPathAttributes(TypeId tid);
    /// \param tid the TypeId \return tid with the window, Write-with-Immediate, Transport
    /// ACK, timestamp and EV-split attributes
    static TypeId AddWindowAttributes(TypeId tid);
    /// \param tid the TypeId \return tid with the timeout and tail-probe attributes
    static TypeId AddRecoveryAttributes(TypeId tid);
    /// \param tid the TypeId \return tid with the loss-rule attributes
    static TypeId AddLossRuleAttributes(TypeId tid);
    /// \param tid the TypeId \return tid with the Port Status attributes
    static TypeId AddPortStatusAttributes(TypeId tid);

    // ---- requester ----
    /// \return the PSNs the sender may have outstanding: min(peer MPR x 128, capacity)
    uint64_t GetSendWindow() const;
    /// \param port a port \return true if another plane could carry a packet now
    bool OtherPlaneUsable(uint32_t port) const;
    /**
     * Take the selector's path into a choice, or count a stall and ask again later.
     * \param path the selector's path \param c [out] the choice (ev, path, carrier)
     * \return false if the selector found no path
     */
    bool TakePath(const MrcPathChoice& path, TxChoice& c);
    /**
     * Add UDP, IPv6 (and the outer SRv6 header when the EV has a carrier) and the ICRC;
     * given `transport`, the BTH and extension headers too, all with one AddHeader
     * (MrcQueuePair::AddIpUdpIcrc).
     * \param p packet from its BTH (or from what follows `transport`) \param port NIC port
     * \param evValue EV value \param carrier the EV's uSID carrier or nullptr
     * \param dscp DSCP \param ecn ECN
     * \param transport the BTH and extension headers in wire order (null entries skipped)
     */
    void Encapsulate(Ptr<Packet> p,
                     uint32_t port,
                     uint32_t evValue,
                     const MrcUsidCarrier* carrier,
                     uint8_t dscp,
                     MrcEcn ecn,
                     std::initializer_list<const MrcWireHeader*> transport = {}) const;
    /// Complete requests the cumulative point covers; update timers. \return true if progress
    bool AfterAckProgress();
    /**
     * What a SACK tells the congestion controller (read before the next scoreboard call:
     * `upd` is the scoreboard's reused result).
     * \param seth its SETH \param ccs its CC_STATE \param upd the scoreboard's update
     * \param now the time
     * \return newly acknowledged bytes, ECN echo, window fields and the RTT sample
     */
    MrcCcAck CcAckOf(const MrcSethHeader& seth,
                     const MrcCcStateHeader& ccs,
                     const MrcSackUpdate& upd,
                     Time now) const;
    /// SLEEK: enter recovery when the receiver holds enough packets out of order.
    /// \param oooCount the SACK's ooo_count
    void SleekCheck(uint32_t oooCount);
    /**
     * The answer to the outstanding tail probe arrived: PSNs sent before the probe, in
     * the block its bitmap covers and still not SACKed, are lost.
     * \param seth the answer's SETH \param now the time
     */
    void TailProbeAnswered(const MrcSethHeader& seth, Time now);
    /// (Re)arm the retransmission timer on the oldest PSN in flight.
    void ArmTimer();
    /// The retransmission timer fired.
    void OnTimer();
    /// BackstopGuard: make sure a re-check runs at the scoreboard's earliest guard expiry.
    void ArmGuardTimer();
    /// The guard re-check timer fired: re-run the guarded loss rules.
    void OnGuardTimer();
    /**
     * (Re)arm the tail-probe timer.
     * \param activity true: now is activity (a send, or a SACK of data), which restarts the
     *        tail-probe clock; false: only arm the timer if it is idle (an answer to an EV
     *        probe, which says nothing of the data outstanding)
     */
    void ArmTailProbe(bool activity = true);
    /// The tail-probe timer fired.
    void OnTailProbe();
    /// The path selector asks for a probe (the EV table: on an ASSUMED_BAD EV).
    /// \param path the path to probe
    void SendEvProbe(const MrcPathChoice& path);
    /// Send a PETH on a path. \param path the path \param probeId the probe's id
    void SendProbe(const MrcPathChoice& path, uint16_t probeId);
    /// \return true when the QP has no data of its own outstanding or queued (it only
    /// receives)
    bool IsInboundOnly() const;
    /// A data packet arrived (ReversePath Probed): start the reverse-EV probes if idle.
    void NoteInboundData();
    /// Reverse-EV probe timer: while the QP is active inbound (data arrived in the last
    /// interval, or an inbound message is not complete) and inbound-only, probe a random
    /// GOOD EV of the next plane, once per ReverseProbeInterval.
    void OnReverseProbeTimer();
    /**
     * An answer to a probe arrived: if it answers one of the last REV_PROBES_KEPT
     * reverse-EV probes (also one sent before the latest) with m = NONE, the probed EV
     * becomes its plane's reverse EV.
     * \param seth the answer's SETH
     */
    void ReverseProbeAnswered(const MrcSethHeader& seth);
    /// Ask the NIC again a little later (no EV was usable).
    void ScheduleRetry();
    /// The link of a local port changed.
    void LocalLinkChanged(uint32_t port);
    /// Remap the EVs of a local port to its current link state and tell the peer
    /// (PortRemapDelay after the change).
    void ApplyLocalPortState(uint32_t port);
    /// Tell the peers which local ports are up (Port Status Update, through the agent).
    void SendPortStatus();
    /// A Port Status Update addressed to this QP arrived (scope Qp).
    void ReceivePortStatus(const MrcRxPacket& rx);
    /// A Port Status Update response (EETH, opcode 0xD9) addressed to this QP arrived.
    void ReceivePortStatusResponse(const MrcRxPacket& rx);
    /// A Transport ACK arrived: the peer completed messages.
    void ReceiveTransportAck(const MrcRxPacket& rx);
    /// \return true if every PSN is acknowledged but a request waits for its Transport ACK
    bool AwaitingTransportAck() const;
    /// Stop the path selector (no more probes or timers), once.
    void StopPathSelector();
    /// Enter the error state with RETRY_EXCEEDED.
    void RetryExceeded(const std::string& why);

    // ---- responder ----
    /**
     * Send a SACK.
     * \param port the port \param triggerPsn the PSN it answers \param ev the echoed EV
     * \param m path feedback \param probe answering a probe \param probeId its id
     * \param tsEcho reflected timestamp
     */
    void SendSack(uint32_t port,
                  uint32_t triggerPsn,
                  uint32_t ev,
                  MrcPathFeedback m,
                  bool probe,
                  uint16_t probeId,
                  uint16_t tsEcho);
    /**
     * Send a NACK.
     * \param port the port \param psn NACKed PSN \param ev its EV \param reason why
     * \param tsEcho reflected timestamp
     */
    void SendNack(uint32_t port, uint32_t psn, uint32_t ev, MrcNackReason reason, uint16_t tsEcho);
    /**
     * Send a control packet on the reverse EV of a plane.
     * \param port the port \param p the packet from its BTH \param echoedEv the EV to
     * fall back on \param kind what it counts as (MrcQueuePair::ControlKind)
     * \param transport the BTH and extension headers in wire order, if `p` starts after
     *        them (added with the IPv6 headers in one AddHeader: Encapsulate)
     */
    void SendReverse(uint32_t port,
                     Ptr<Packet> p,
                     uint32_t echoedEv,
                     uint8_t kind = CONTROL_UNCOUNTED,
                     std::initializer_list<const MrcWireHeader*> transport = {});
    /**
     * Send a Transport ACK (opcode 0xD1, AETH: ACK, credit 0x1f, MSN = messages completed).
     * \param port the port \param ev the EV of the packet that completed the message
     */
    void SendTransportAck(uint32_t port, uint32_t ev);

    // attributes
    bool m_timestamps;            //!< Timestamps
    uint8_t m_mpr;                //!< Mpr (own window)
    uint32_t m_maxWimm;           //!< MaxWimm
    uint32_t m_timeoutExp;        //!< TimeoutExponent
    uint32_t m_linearCount;       //!< LinearCount
    uint32_t m_expCount;          //!< ExpCount
    uint32_t m_planeReorderPsns;  //!< PlaneReorderPsns
    uint32_t m_globalReorderPsns; //!< GlobalReorderPsns
    bool m_timeoutLosesPath;      //!< TimeoutLosesPath
    bool m_backstopGuard;         //!< BackstopGuard
    Time m_backstopGuardMargin;   //!< BackstopGuardMargin
    bool m_retxPathRule;          //!< RetxPathRule
    bool m_retxBackstop;          //!< RetxBackstop
    double m_reorderTimeRtts;     //!< ReorderTimeRtts
    bool m_retxRttSamples;        //!< RetxRttSamples
    LossRule m_lossRule;          //!< LossRule
    bool m_sleek;                 //!< SleekRecovery
    double m_lossOooCwndFactor;   //!< LossOooCwndFactor
    uint32_t m_lossOooMinPkts;    //!< LossOooMinPkts
    bool m_lossMarksBad;          //!< InferredLossMarksEvBad
    bool m_timeoutMarksBad;       //!< TimeoutMarksEvBad
    uint32_t m_alwaysSkipCeRun;   //!< AlwaysSkipCeRun
    Time m_tailProbeDelay;        //!< TailProbeDelay
    bool m_srcPortHigh;           //!< EvSrcPortHigh
    bool m_portStatusUpdates;     //!< PortStatusUpdates
    uint8_t m_cfgPeerMpr;         //!< PeerMpr (0: Mpr)
    bool m_dynamicMpr;            //!< DynamicMpr
    uint32_t m_maxWimmDest;       //!< MaxWimmDest
    uint32_t m_tackMessages;      //!< TransportAckMessages (0: no Transport ACKs)
    bool m_completeOnTack;        //!< CompleteOnTransportAck
    Time m_portStatusTimeout;     //!< PortStatusTimeout
    uint32_t m_portStatusTries;   //!< PortStatusAttempts
    Time m_portRemapDelay;        //!< PortRemapDelay
    ReversePath m_reversePath;    //!< ReversePath
    Time m_revProbeInterval;      //!< ReverseProbeInterval (0: BaseRtt)

    // attributes of the responder's ALWAYS_SKIP rule
    AlwaysSkipRule m_alwaysSkipRule; //!< AlwaysSkipRule
    double m_planeMarkedShare;       //!< AlwaysSkipPlaneMarked

    // set-up
    std::vector<MrcEvCandidate> m_candidates; //!< SetEvCandidates
    Ptr<MrcEvProfile> m_profile;              //!< SetEvProfile
    TypeId m_pathsTypeId;                     //!< EntropySelector
    Ptr<MrcPathSelector> m_paths;             //!< the path selector (default: EV table)

    // requester state
    uint8_t m_peerMpr;          //!< peer's MPR
    uint32_t m_wimmOutstanding; //!< Write-with-Imm requests started, not done
    uint16_t m_nextMsn;         //!< next MSN to give a request
    uint16_t m_nextRqMsn;       //!< next RQMSN to give a Write-with-Imm
    std::deque<std::pair<uint16_t, uint16_t>> m_wqeMsn; //!< (MSN, RQMSN) per m_sendQueue entry
    uint32_t m_retries;          //!< timer expiries / NACK retries since progress
    MrcTrackedEvent m_tailProbe; //!< tail-probe timer
    EventId m_retry;             //!< NotifyReady retry
    /// BackstopGuard re-check (made at its first use; scheduled again, never removed:
    /// a firing that is not due does nothing)
    Ptr<MrcReusableEvent> m_guardEvent;
    Time m_guardFireAt;                //!< earliest pending firing (Time::Max(): none known)
    Time m_guardWant;                  //!< when the re-check is due (Time::Max(): none)
    uint16_t m_nextProbeId;            //!< probe ids
    uint16_t m_tailProbeId;            //!< id of the last tail probe
    bool m_tailProbeOutstanding;       //!< its answer has not come
    Time m_tailProbeSentAt;            //!< when it was sent
    Time m_lastActivity;               //!< last send or SACK (tail-probe clock)
    uint64_t m_tackedMessages;         //!< messages the peer's Transport ACKs covered
    uint64_t m_completedRequests;      //!< send requests completed successfully
    MrcMultipathCounters m_mpCounters; //!< counters
    bool m_pathsDisposed;              //!< the path selector was stopped (error state)

    // Port Status Update
    Ptr<MrcPortStatusAgent> m_portStatus; //!< the NIC's agent (set in DoConnect)

    // responder state
    /// A run of CE arrivals on one EV.
    struct CeRun
    {
        uint32_t count{0}; //!< CE arrivals in a row
        Time since;        //!< arrival time of the run's first
    };

    /// The QP's recent data arrivals on one NIC port (plane), for AlwaysSkipRule Relative.
    struct PlaneMarks
    {
        double ceShare{0};      //!< moving average of CE (1) / not CE (0), gain 1/16 per arrival
        Time last{Time::Min()}; //!< time of the latest arrival (Time::Min(): none yet)
    };

    MrcFlatMap<uint32_t, CeRun> m_ceRun;  //!< per echoed EV: the current CE run
    std::vector<PlaneMarks> m_planeMarks; //!< per NIC port (Relative only)

    uint32_t m_tackOwed; //!< messages completed, not yet ACKed

    // reverse path (ReversePath Probed)
    /// A reverse-EV probe whose answer has not come.
    struct RevProbe
    {
        uint16_t id;        //!< probe id
        MrcPathChoice path; //!< the probed path
    };

    /// Reverse-EV probes remembered for their answers (the oldest is forgotten beyond this).
    static constexpr std::size_t REV_PROBES_KEPT = 16;
    std::vector<MrcPathChoice> m_revEv; //!< per plane: the reverse EV (port NO_PORT: none)
    std::deque<RevProbe> m_revProbes;   //!< unanswered reverse-EV probes, oldest first
    MrcTrackedEvent m_revProbeTimer;    //!< next reverse-EV probe
    uint32_t m_revNextPlane;            //!< plane the next reverse-EV probe tries first
    bool m_revRxSeen;                   //!< data arrived since the last probe tick
};

} // namespace ns3

#endif /* MRC_MULTIPATH_QUEUE_PAIR_H */
