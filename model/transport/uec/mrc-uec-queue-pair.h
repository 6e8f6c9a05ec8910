/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_UEC_QUEUE_PAIR_H
#define MRC_UEC_QUEUE_PAIR_H

#include "ns3/event-id.h"
#include "ns3/mrc-queue-pair.h"
#include "ns3/mrc-rcv-backpressure.h"
#include "ns3/mrc-receive-bitmap.h"
#include "ns3/mrc-sack-policy.h"
#include "ns3/mrc-sack-scoreboard.h"
#include "ns3/mrc-uec-path-selector.h"

#include <cstdint>
#include <deque>
#include <memory>

/**
 * \file
 * \ingroup mrc
 * UEC RUD (reliable unordered delivery) queue pair: per-packet entropy spraying, SACK
 * coalescing, trim NACKs, selective retransmission, NSCC.
 */

namespace ns3
{

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
 * Each packet (new or retransmitted) takes its EV from the EntropySelector
 * (MrcUecPathSelector, default ns3::MrcUecMixedSelector). Queued retransmissions go
 * before new data; both are gated by the window (inflight + packet <= cwnd, or nothing
 * in flight), new data also by the scoreboard's capacity (WindowPsns). Window sizes use
 * UEC's nominal packet size, payload + 40 B, the unit the receiver counts in rcvd_bytes.
 * A trim NACK queues its PSN for retransmission at once (NSCC OnNackWithRtt; EV feedback
 * NACK, or for a last-hop trim ECN/GOOD by its CE echo); a SACK frees PSNs, infers losses
 * with the scoreboard's reorder rules when they are on (ReorderPsns, ReorderTime; off by
 * default as in htsim) (NSCC OnLoss, EV feedback TIMEOUT) and feeds NSCC
 * with the rcvd_bytes advance, the ECN echo and an RTT sample of the triggering PSN.
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
 */
class MrcUecQueuePair : public MrcQueuePair
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
    uint8_t GetNextDscp(uint32_t port) const override;
    MrcTxPacket BuildNextPacket(uint32_t port) override;
    void Receive(const MrcRxPacket& rx) override;

    /// \return the UEC counters
    const MrcUecCounters& GetUecCounters() const;
    /// \return the entropy selector (null before Connect)
    Ptr<MrcUecPathSelector> GetEntropySelector() const;
    /**
     * Use this entropy selector instead of one made from the EntropySelector TypeId.
     * Call before Connect.
     * \param selector the selector
     */
    void SetEntropySelector(Ptr<MrcUecPathSelector> selector);
    /// \return PSNs sent and not cumulatively acknowledged
    uint32_t GetOutstandingPsns() const;
    /// \return the RTT the base-RTT probe measured (zero until its answer arrived)
    Time GetBaseRttProbeRtt() const;

  protected:
    void DoDispose() override;
    void DoConnect() override;
    void DoEnterError() override;

  private:
    /// One message being received (indexed by MSN from the next one to report).
    struct RxMessage
    {
        uint32_t length{0};    //!< RETH DMA length
        uint32_t received{0};  //!< new payload bytes so far
        uint32_t rkey{0};      //!< region
        uint64_t minVa{~0ULL}; //!< lowest address seen (the first byte once complete)
        bool seen{false};      //!< at least one packet arrived
        bool hasImm{false};    //!< Write-with-Immediate
        uint32_t imm{0};       //!< immediate data
        Time first;            //!< first arrival
        Time last;             //!< last arrival
    };

    /// \param seq a sequence number \return index in m_sendQueue of its request
    std::size_t FindWqe(uint64_t seq) const;
    /// \param w a request \param idx packet index \return its payload bytes
    uint32_t PayloadOf(const MrcSendWqe& w, uint64_t idx) const;
    /// \return true if a queued retransmission may go now
    bool CanRetransmit() const;
    /// \return true if a new packet may go now
    bool CanSendNew() const;
    /// \param bytes nominal size \return true if the window admits it
    bool WindowAllows(uint32_t bytes) const;
    /// Handle an ACK_CC.
    void ReceiveAck(const MrcRxPacket& rx);
    /// Handle a NACK.
    void ReceiveNack(const MrcRxPacket& rx);
    /// Report losses to NSCC and the entropy selector. \param upd the update \param rto by RTO
    void HandleLosses(const MrcSackUpdate& upd, bool rto);
    /// Complete requests below una. \return true if una advanced
    bool AdvanceUna();
    /// (Re)arm the RTO on the oldest PSN in flight.
    void ArmTimer();
    /// The RTO fired.
    void OnTimer();
    /// Handle a data packet.
    void ReceiveData(const MrcRxPacket& rx);
    /// Report completed messages in order.
    void DeliverMessages();
    /// Send an ACK_CC. \param port port \param psn trigger \param ev its EV \param ce CE
    void SendAck(uint32_t port, uint32_t psn, uint16_t ev, bool ce);
    /// Send a control packet (BTH onward) on an EV. \param port port \param p packet \param ev EV
    void SendOnEv(uint32_t port, Ptr<Packet> p, uint16_t ev);
    /// First ACK or NACK: send the base-RTT probe if due. \param ev the EV it echoed
    void MaybeSendBaseRttProbe(uint16_t ev);
    /// The answer to the base-RTT probe arrived. \param probeId its probe_id
    void OnBaseRttProbeAnswer(uint16_t probeId);
    /// Answer a probe (responder). \param rx the probe
    void ReceiveProbe(const MrcRxPacket& rx);

    // attributes
    TypeId m_evTypeId;        //!< EntropySelector
    Time m_minRto;            //!< MinRto
    uint32_t m_maxRtoRetries; //!< MaxRtoRetries
    uint32_t m_windowPsns;    //!< WindowPsns
    uint32_t m_reorderPsns;   //!< ReorderPsns
    Time m_reorderTime;       //!< ReorderTime
    uint8_t m_dataDscp;       //!< DataDscp
    uint8_t m_retxDscp;       //!< RetxDscp
    uint8_t m_controlDscp;    //!< ControlDscp
    uint8_t m_trimmedDscp;    //!< TrimmedDscp
    uint8_t m_trimmedLhDscp;  //!< TrimmedLastHopDscp
    bool m_ecnCapable;        //!< EcnCapable
    bool m_baseRttProbe;      //!< BaseRttProbe

    Ptr<MrcUecPathSelector> m_ev; //!< entropy selector
    MrcUecCounters m_uec;         //!< counters
    uint32_t m_port;              //!< the NIC port used

    // requester
    std::unique_ptr<MrcSackScoreboard> m_sb; //!< sent PSNs
    uint64_t m_una;                          //!< oldest unacknowledged sequence (unwrapped)
    uint64_t m_sndNxt;                       //!< next new sequence
    std::size_t m_txIdx;                     //!< request holding m_sndNxt
    uint64_t m_msnBase;                      //!< MSN of m_sendQueue.front()
    uint32_t m_lastRcvdUnits;                //!< rcvd_bytes of the newest ACK (256 B units)
    Time m_nextAvail;                        //!< pacing
    EventId m_timer;                         //!< RTO event
    Time m_timerAt;                          //!< when it fires (Time::Max(): stopped)
    bool m_probeDecided;                     //!< first ACK/NACK seen (probe sent or skipped)
    bool m_probePending;                     //!< base-RTT probe sent, answer not yet in
    uint16_t m_probeId;                      //!< probe_id of the base-RTT probe
    Time m_probeSentAt;                      //!< when it was sent
    Time m_probeRtt;                         //!< the RTT it measured (0: none yet)

    // responder
    std::unique_ptr<MrcReceiveBitmap> m_rxWin; //!< receive window
    Ptr<MrcSackPolicy> m_sackPolicy;           //!< ACK generation
    uint64_t m_rcvdBytes;                      //!< rcvd_bytes (nominal sizes of NEW packets)
    uint64_t m_nextMsn;                        //!< next MSN to report (unwrapped)
    std::deque<RxMessage> m_rxMsgs;            //!< messages from m_nextMsn on
    DataRate m_rcvDrainRate;                   //!< RcvDrainRate
    uint32_t m_rcvBusyBytes;                   //!< RcvBusyBytes
    uint32_t m_rcvRestoreSacks;                //!< RcvRestoreSacks
    Time m_serviceTime;                        //!< ServiceTime
    MrcRcvBackpressure m_rcvBp;                //!< rcv_cwnd_pen / restore_cwnd rule
};

} // namespace ns3

#endif /* MRC_UEC_QUEUE_PAIR_H */
