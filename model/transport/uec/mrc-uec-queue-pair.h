/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_UEC_QUEUE_PAIR_H
#define MRC_UEC_QUEUE_PAIR_H

#include "ns3/mrc-sprayed-queue-pair.h"
#include "ns3/mrc-tx-time-cache.h"
#include "ns3/mrc-uec-path-selector.h"
#include "ns3/traced-callback.h"

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * UEC RUD (reliable unordered delivery) queue pair: per-packet entropy spraying, SACK
 * coalescing, trim NACKs, selective retransmission, NSCC.
 */

namespace ns3
{

class MrcUecPullPacer;

/**
 * \ingroup mrc
 * Counters specific to the UEC RUD queue pair (in addition to MrcQpCounters).
 */
struct MrcUecCounters
{
    uint64_t trimNacksSent{0};     //!< NACKs for trimmed arrivals (responder)
    uint64_t lastHopNacksSent{0};  //!< of these, trimmed on the last hop
    uint64_t trimNacksReceived{0}; //!< trim NACKs received (requester)
    uint64_t inferredLosses{0};    //!< PSNs declared lost from SACKs (reorder rule)
    uint64_t timedOutPsns{0};      //!< PSNs declared lost by the RTO
    uint64_t oorDrops{0};          //!< data beyond the receive window, dropped (responder)

    // base-RTT probe
    uint64_t baseRttProbesSent{0};     //!< base-RTT probes sent (requester; 0 or 1)
    uint64_t baseRttProbesAnswered{0}; //!< their answers received (requester)
    uint64_t baseRttProbesSkipped{0};  //!< not sent: the transfer was <= 1 BDP (requester)
    uint64_t baseRttFromCache{0};      //!< base RTT taken from the NIC's cache (requester)
    uint64_t probesAnswered{0};        //!< probes answered (responder)

    // receiver credit (RCCC; attribute ReceiverCredit)
    uint64_t pullsSent{0};          //!< PULLs sent by the pull pacer for this QP (responder)
    uint64_t slowPullsSent{0};      //!< of these, speculative (slow) pulls to an idle sender
    uint64_t rtsReceived{0};        //!< RTS received (responder)
    uint64_t pullsReceived{0};      //!< PULLs received (requester)
    uint64_t creditReceived{0};     //!< credit bytes the PULLs added (after the cap; requester)
    uint64_t speculativeCredit{0};  //!< credit bytes held before the first ACK, NACK or PULL
    uint64_t speculativeDropped{0}; //!< speculative credit left unused when it was dropped
    uint64_t creditSpent{0};        //!< nominal bytes of data packets sent on credit
    int64_t lowestCredit{0};        //!< lowest credit right after a data packet left (bytes)
    uint64_t rtsSent{0};            //!< RTS sent after a timeout without credit (requester)
};

/**
 * \ingroup mrc
 * A UEC RUD queue pair (both roles), after UEC 1.0 PDS RUD and the UEC reference simulator
 * (congestion-control.md sections 2-3). Write and Write-with-Immediate only.
 *
 * **Wire format (modelling choice).** UEC's PDS/SES headers are not modelled. Data
 * packets use MRC's Write opcodes (0xC6-0xCB) with METH (MSN) and a RETH on every
 * packet (its own remote address), so that any packet can be placed on arrival; ACK_CC
 * travels as MRC's SACK (0xDC: SETH with cack_psn, ack_psn, the 64-bit SACK bitmap, the
 * echoed EV and the ECN echo in m; CC_STATE with rcvd_bytes in 256 B units and
 * ooo_count); a NACK as MRC's NACK (0xDD, NETH: PSN, EV, TRIMMED / TRIMMED_LASTHOP,
 * cc_flags bit 0 = the trimmed header arrived CE). UDP destination port: the NIC's
 * BthUdpPort (4791). The EV rides in the UDP source port (MrcEvEncode SRC_PORT_LOW).
 *
 * **Requester.** A Write becomes max(1, ceil(L / Mtu)) packets with consecutive PSNs.
 * Each packet (new or retransmitted) takes its EV from the EntropySelector (any
 * MrcPathSelector; default ns3::MrcUecMixedSelector, one of the UEC strategies), through
 * the family's Select on the connection's port; the EV is carried in 16 bits. Feedback goes
 * back through the family's Feedback with its common signals. Queued retransmissions go
 * before new data; both are gated by the window (inflight + packet <= cwnd, or nothing
 * in flight), new data also by the scoreboard's capacity (WindowPsns). Window sizes use
 * UEC's nominal packet size, payload + 40 B, the unit the receiver counts in rcvd_bytes.
 * A trim NACK queues its PSN for retransmission at once (NSCC OnNackWithRtt; EV feedback
 * NACK, or for a last-hop trim ECN/GOOD by its CE echo); a SACK frees PSNs, infers losses
 * with the scoreboard's reorder rules when they are on (ReorderPsns, ReorderTime; off by
 * default as in htsim) (NSCC OnLoss, EV feedback TIMEOUT) and feeds NSCC
 * with the rcvd_bytes advance, the ECN echo and an RTT sample of the triggering PSN
 * (of a PSN sent twice only while RetxRttSampleBound allows it, see there).
 * One RTO timer runs on the oldest PSN in flight (MinRto after its send); its expiry
 * declares lost every PSN sent MinRto ago or earlier. A PSN that times out after
 * MaxRtoRetries retransmissions puts the QP in the error state.
 *
 * **Responder.** A NEW PSN (MrcReceiveBitmap) is placed once at its RETH address in the
 * memory region; duplicates are not placed; PSNs beyond the window are dropped. A trimmed
 * arrival (outer DSCP TrimmedDscp / TrimmedLastHopDscp) is NACKed (or ACKed when the PSN
 * already arrived). ACKs follow MrcSackPolicy (16 KB coalescing, immediate on CE, AR,
 * first packet, first hole, retransmission, message end, duplicate). Messages are
 * reported in order once every byte arrived.
 *
 * **Base-RTT probe** (UEC 1.0 §3.6.13.7; attribute BaseRttProbe). At the connection's
 * first ACK or NACK the requester sends one Probe (BTH opcode 0xDE + PETH, no PSN) in the
 * control class (ControlDscp) on the EV that ACK/NACK echoed, unless the Write requests
 * posted so far total at most one BDP (line rate x MrcCcState::baseRtt) or the NIC already
 * holds a base RTT for the peer. The responder answers at once with an ACK_CC whose SETH
 * has pr = 1 and the probe_id. The answer's RTT (arrival - probe send time) goes to
 * MrcCongestionOps::OnBaseRttSample (NSCC lowers base_rtt to it) and into a per-NIC cache
 * of base RTTs by peer address; a later connection from that NIC to that peer starts with
 * the cached base RTT and sends no probe. The answer's SACK fields are processed as any
 * ACK's, but it carries no RTT sample of a data PSN and gives no EV feedback.
 *
 * **Structure.** The skeleton (packet building, SACK bookkeeping, placement, message
 * reassembly, the ACK policy) and the attributes shared with MRC live in
 * MrcSprayedQueuePair; this class keeps UEC's hooks: the port from the PathSelector and
 * per-packet EVs from the EntropySelector, the window rule, pacing, the RTO, ACK_CC and
 * NACK handling, the trim NACK, and the base-RTT probe.
 */
class MrcUecQueuePair : public MrcSprayedQueuePair
{
  public:
    /// UEC nominal header bytes added to the payload in rcvd_bytes and window accounting.
    static constexpr uint32_t NOMINAL_HEADER_BYTES = 40;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcUecQueuePair();
    ~MrcUecQueuePair() override;

    Time GetNextSendTime(uint32_t port) const override;

    /// \return the UEC counters
    const MrcUecCounters& GetUecCounters() const;
    /// \return the entropy selector (null before Connect)
    Ptr<MrcPathSelector> GetEntropySelector() const;
    /**
     * Use this entropy selector instead of one made from the EntropySelector TypeId.
     * Call before Connect (Connect calls its Init).
     * \param selector the selector
     */
    void SetEntropySelector(Ptr<MrcPathSelector> selector);
    /// \return the RTT the base-RTT probe measured (zero until its answer arrived)
    Time GetBaseRttProbeRtt() const;
    /// \return the sender's credit now (bytes; may be negative by less than one packet)
    int64_t GetCredit() const;
    /// \return the credit cap (configured_maxwnd: 1.5 x line rate x BaseRtt, or MaxCredit)
    uint64_t GetMaxCredit() const;

    /**
     * TracedCallback signature of the trace source PullSent.
     * \param grantedBytes credit the PULL adds (0 when the target was met already)
     * \param cumulativeBytes credit granted to this sender so far
     * \param speculative a speculative (slow) pull to an idle sender
     */
    typedef void (*PullTracedCallback)(uint64_t grantedBytes,
                                       uint64_t cumulativeBytes,
                                       bool speculative);

  protected:
    void DoDispose() override;
    void DoConnect() override;
    void DoEnterError() override;

    // requester hooks
    bool CanRetransmit() const final;
    bool CanSendNew() const final;
    bool ChooseNext(uint32_t port, Time now, TxChoice& c) override;
    /**
     * The EV of the next data packet: the entropy selector's choice on the connection's
     * port, kept to 16 bits.
     * \param retransmission the packet is a retransmission
     * \return the EV
     */
    uint32_t NextEv(bool retransmission);
    Ptr<Packet> BuildDataPacket(uint32_t port,
                                std::size_t idx,
                                uint64_t pktIdx,
                                uint32_t len,
                                const TxChoice& c,
                                bool ar,
                                uint8_t dscp) override;
    void AfterDataSent(Ptr<const Packet> p, Time now) override;
    void OnLostPsn(const MrcPsnEvent& e, bool timeout) override;
    void OnRequestCompleted(const MrcSendWqe& w) override;
    /// Handle an ACK_CC (SACK opcode).
    void ReceiveSack(const MrcRxPacket& rx) override;
    void ReceiveNack(const MrcRxPacket& rx) override;
    /// Answer a probe (responder); an RTS (PETH type RTS_PETH_TYPE) asks for credit instead.
    void ReceiveProbe(const MrcRxPacket& rx) override;
    /// Receiver credit: read the pull target a data packet carries (then accept it).
    bool AdmitData(const MrcRxPacket& rx, const Arrival& a) override;

    // responder hooks
    uint32_t EvOf(const MrcRxPacket& rx) const override;
    /// A trimmed header: ACK when the PSN arrived already, else a trim NACK.
    void OnTrimmedArrival(const MrcRxPacket& rx, const Arrival& a, bool lastHop) override;
    /// Beyond the window: dropped (oorDrops).
    void OnOutOfWindow(const MrcRxPacket& rx, const Arrival& a) override;
    /// Outside every region: the QP fails (LOCAL_ACCESS_ERROR).
    void OnAccessError(const MrcRxPacket& rx,
                       const Arrival& a,
                       uint32_t rkey,
                       uint64_t va) override;
    void SendDataAck(uint32_t port, uint32_t psn, const Arrival& a) override;

  private:
    friend class MrcUecPullPacer;

    /// PETH type of an RTS (request to send: a sender without credit asks for pulls);
    /// our choice, the PETH type field is reserved in MRC 1.0.
    static constexpr uint8_t RTS_PETH_TYPE = 1;
    /// Bytes per unit of credit and of pull targets (UEC pull quantum).
    static constexpr int64_t PULL_QUANTUM = 256;

    /// \param bytes nominal size \return true if the window admits it
    bool WindowAllows(uint32_t bytes) const;
    /// \return true if receiver credit is off or the sender holds some
    bool CreditAllows() const;
    /// Drop the speculative credit left (first ACK, NACK or PULL, or a timeout).
    void StopSpeculating();
    /// \return nominal bytes of new data not yet sent
    int64_t NewBacklogBytes() const;
    /// \return the pull target to carry now, in pull quanta (unwrapped)
    int64_t ComputePullTarget() const;
    /// A PULL arrived (requester). \param creditUnits its cumulative credit (24 bits)
    void ReceivePull(uint32_t creditUnits);
    /// Send an RTS if none went in the last base RTT (requester).
    void SendRts();
    /// \return the pull pacer of this NIC (made on first use)
    Ptr<MrcUecPullPacer> Pacer();
    /// Responder: a pull target arrived (16 bits, wrapping). \return true if it advanced
    bool HandlePullTarget(uint16_t wire);
    /// Responder: join the pacer's queue unless already in it.
    void RequestPull();
    /**
     * Responder: the pacer grants credit now.
     * \param slowQuanta 0 for a pull within the pull target, else a speculative grant
     * \return quanta granted
     */
    int64_t Pull(int64_t slowQuanta);
    /// \return quanta of pull target not yet granted (responder)
    int64_t PullBacklog() const;
    /// \return quanta granted beyond the pull target (responder)
    int64_t SlowCredit() const;
    /// (Re)arm the RTO on the oldest PSN in flight.
    void ArmTimer();
    /// The RTO fired.
    void OnTimer();
    /// Send an ACK_CC. \param port port \param psn trigger \param ev its EV \param ce CE
    void SendAck(uint32_t port, uint32_t psn, uint16_t ev, bool ce);
    /**
     * Send a control packet (BTH onward) on an EV.
     * \param port port \param p packet \param ev EV \param kind what it counts as
     */
    void SendOnEv(uint32_t port, Ptr<Packet> p, uint16_t ev, uint8_t kind);
    /// First ACK or NACK: send the base-RTT probe if due. \param ev the EV it echoed
    void MaybeSendBaseRttProbe(uint16_t ev);
    /// The answer to the base-RTT probe arrived. \param probeId its probe_id
    void OnBaseRttProbeAnswer(uint16_t probeId);

    // attributes
    TypeId m_evTypeId;        //!< EntropySelector
    Time m_minRto;            //!< MinRto
    uint32_t m_maxRtoRetries; //!< MaxRtoRetries
    uint32_t m_windowPsns;    //!< WindowPsns
    bool m_baseRttProbe;      //!< BaseRttProbe
    bool m_retxSampleBound;   //!< RetxRttSampleBound
    bool m_rccc;              //!< ReceiverCredit
    uint64_t m_cfgMaxCredit;  //!< MaxCredit (0: derived)

    Ptr<MrcPathSelector> m_ev; //!< entropy selector
    MrcUecCounters m_uec;      //!< counters
    uint32_t m_port;           //!< the NIC port used

    // requester
    uint64_t m_msnBase;       //!< MSN of m_sendQueue.front()
    uint32_t m_lastRcvdUnits; //!< rcvd_bytes of the newest ACK (256 B units)
    Time m_nextAvail;         //!< pacing
    MrcTxTimeCache m_txTime;  //!< pacing: the last serialization time computed
    bool m_probeDecided;      //!< first ACK/NACK seen (probe sent or skipped)
    bool m_probePending;      //!< base-RTT probe sent, answer not yet in
    uint16_t m_probeId;       //!< probe_id of the base-RTT probe
    Time m_probeSentAt;       //!< when it was sent
    Time m_probeRtt;          //!< the RTT it measured (0: none yet)

    // receiver credit, requester
    int64_t m_credit;     //!< credit (bytes; spent per packet, may go below 0 by one packet)
    uint64_t m_maxCredit; //!< configured_maxwnd (bytes)
    bool m_speculating;   //!< no ACK, NACK or PULL seen yet
    int64_t m_pullQuanta; //!< cumulative credit received (quanta, unwrapped)
    uint32_t m_pullWire;  //!< the last cumulative credit read (24 bits)
    Time m_lastRts;       //!< when the last RTS left (0: none)
    // receiver credit, responder
    int64_t m_latestPull; //!< cumulative credit granted (quanta)
    int64_t m_highestPt;  //!< highest pull target seen (quanta, unwrapped)
    bool m_inPull;        //!< in the pacer's active queue
    bool m_inSlowPull;    //!< in the pacer's idle (speculative) queue
    uint16_t m_pullEv;    //!< EV counter of PULLs (low 7 bits cycle)

    TracedCallback<uint64_t, uint64_t, bool> m_pullTrace; //!< PullSent
};

} // namespace ns3

#endif /* MRC_UEC_QUEUE_PAIR_H */
