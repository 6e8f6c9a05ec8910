/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SPRAYED_QUEUE_PAIR_H
#define MRC_SPRAYED_QUEUE_PAIR_H

#include "mrc-message-reassembly.h"

#include "ns3/buffer.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-cc-state-header.h"
#include "ns3/mrc-queue-pair.h"
#include "ns3/mrc-rcv-backpressure.h"
#include "ns3/mrc-receive-bitmap.h"
#include "ns3/mrc-reth-header.h"
#include "ns3/mrc-sack-policy.h"
#include "ns3/mrc-sack-scoreboard.h"
#include "ns3/mrc-seth-header.h"
#include "ns3/mrc-tracked-event.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

/**
 * \file
 * \ingroup mrc
 * The skeleton shared by the sprayed SACK transports (UEC RUD and MRC): per-packet
 * entropy, a SACK scoreboard on the requester, placement on arrival and SACK coalescing
 * on the responder. Implemented in mrc-sprayed-queue-pair.cc (attributes, requester) and
 * mrc-sprayed-responder.cc (arrivals, the responder's data path).
 */

namespace ns3
{

class MrcUsidCarrier;

/**
 * \ingroup mrc
 * The defaults and help texts in which the sprayed transports' shared attributes differ
 * (MrcSprayedQueuePair::AddSprayedAttributes).
 */
struct MrcSprayedAttributeDefaults
{
    uint32_t reorderPsns{0};     //!< default of ReorderPsns
    std::string reorderPsnsHelp; //!< help text of ReorderPsns (the rule differs)
    std::string reorderTimeHelp; //!< help text of ReorderTime (the rule differs)
    std::string ackName;         //!< what the transport calls its ACK ("ACK", "SACK")
};

/**
 * \ingroup mrc
 * The common base of the queue pairs that spray the packets of a connection over many
 * paths and acknowledge them selectively: UEC RUD (MrcUecQueuePair) and MRC
 * (MrcMultipathQueuePair). Both use MRC's wire opcodes (Write 0xC6-0xCB with METH and a
 * RETH on every packet, SACK 0xDC, NACK 0xDD, Probe 0xDE); they differ in how a packet
 * picks its path, in their timers and in what the responder answers in special cases.
 *
 * **Requester skeleton.** DoBuildNextPacket asks ChooseNext for the next PSN
 * (a queued retransmission or new data) and its EV, records a new PSN in the scoreboard
 * (MrcSackScoreboard), tells the congestion controller, sets the AR bit (retransmission,
 * last PSN posted, or the controller asks), and has BuildDataPacket write the headers;
 * AfterDataSent (re)arms the transport's timers. A SACK and a NACK go to ReceiveSack and
 * ReceiveNack, which use HandleLosses (losses to the controller and, per PSN, OnLostPsn)
 * and AdvanceUna (completes the requests the cumulative point covers, asking
 * MayComplete and telling OnRequestCompleted).
 *
 * **Responder skeleton.** ReceiveData: a trimmed arrival (outer DSCP TrimmedDscp or
 * TrimmedLastHopDscp) goes to OnTrimmedArrival; else CE is counted, AdmitData may refuse
 * the packet, the receive window (MrcReceiveBitmap) classifies it (out of window:
 * OnOutOfWindow); a NEW PSN is placed at its RETH address (a rejected address:
 * OnAccessError) and its message advanced (MrcMessageReassembly, reported in MSN order);
 * the SACK policy (MrcSackPolicy) decides whether SendDataAck answers now or after
 * ServiceTime; AfterDataAck follows (MRC's Transport ACK).
 *
 * **Shared attributes.** AddSprayedAttributes registers ServiceTime, RcvDrainRate,
 * RcvBusyBytes, RcvRestoreSacks, ReorderPsns, ReorderTime, DataDscp, RetxDscp,
 * ControlDscp, TrimmedDscp, TrimmedLastHopDscp and EcnCapable under the concrete
 * transport's TypeId, with its defaults (MrcSprayedAttributeDefaults): the members live
 * here once, while Config::SetDefault("ns3::MrcUecQueuePair::ReorderPsns", ...) still
 * changes UEC's default without touching MRC's (an attribute of this TypeId would have
 * one initial value for both).
 */
class MrcSprayedQueuePair : public MrcQueuePair
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \param nominalHeaderBytes header bytes the transport adds to each payload in its
     *        window and rcvd_bytes accounting (UEC 40, MRC 0)
     */
    explicit MrcSprayedQueuePair(uint32_t nominalHeaderBytes);
    ~MrcSprayedQueuePair() override;

    uint8_t GetNextDscp(uint32_t port) const override;

    /// \return PSNs sent and not yet cumulatively acknowledged
    uint32_t GetOutstandingPsns() const;

  protected:
    /// The next data packet a transport chose to send (ChooseNext).
    struct TxChoice
    {
        uint64_t seq{0};  //!< its unwrapped sequence number
        uint32_t psn{0};  //!< its PSN (set by ChooseNext for a retransmission)
        uint32_t ev{0};   //!< the EV it leaves on
        bool retx{false}; //!< a retransmission (already recorded in the scoreboard)
        uint8_t group{0}; //!< scoreboard group of a new PSN (its plane)
        uint32_t path{0}; //!< scoreboard path of a new PSN
        const MrcUsidCarrier* carrier{nullptr}; //!< SRv6 route of the EV (MRC), or nullptr
    };

    /// One data arrival as the responder hooks see it.
    struct Arrival
    {
        uint32_t ev{0};                                  //!< the EV it carried
        bool ce{false};                                  //!< it arrived CE
        uint32_t port{0};                                //!< NIC port (plane) it arrived on
        uint16_t tsEcho{0};                              //!< its TSETH timestamp (or 0)
        MrcPathFeedback feedback{MrcPathFeedback::NONE}; //!< path feedback to echo
    };

    /**
     * Register the shared attributes (see the class description) under a transport's
     * TypeId.
     * \param tid the transport's TypeId under construction
     * \param d the transport's defaults
     * \return tid
     */
    static TypeId AddSprayedAttributes(TypeId tid, const MrcSprayedAttributeDefaults& d);

    /**
     * Deserialize fixed-size headers that follow each other in a received packet's bytes
     * (control packets: SETH and CC_STATE, NETH, PETH), through one Buffer.
     * \param bytes the first header's bytes
     * \param h [out] the headers, in wire order
     */
    template <typename... H>
    static void ReadHeaders(const uint8_t* bytes, H&... h)
    {
        const uint32_t n = (H::SIZE + ...);
        Buffer b;
        b.AddAtStart(n);
        b.Begin().Write(bytes, n);
        Buffer::Iterator it = b.Begin();
        (it.Next(h.Deserialize(it)), ...);
    }

    /**
     * A SACK's SETH and CC_STATE, read from the bytes directly (every SACK: no Buffer).
     * \param bytes the SETH's first byte
     * \param seth [out] the SETH
     * \param ccs [out] the CC_STATE that follows it
     */
    static void ReadHeaders(const uint8_t* bytes, MrcSethHeader& seth, MrcCcStateHeader& ccs)
    {
        seth.ReadBytes(bytes);
        ccs.ReadBytes(bytes + MrcSethHeader::SIZE);
    }

    void DoDispose() override;
    void DoReceive(const MrcRxPacket& rx) override;
    MrcTxPacket DoBuildNextPacket(uint32_t port) override;

    /**
     * Create the per-packet path selector an EntropySelector attribute names.
     * \param tid its TypeId (aborts unless a subclass of ns3::MrcPathSelector)
     * \return the selector (not initialised)
     */
    Ptr<MrcPathSelector> CreateEntropySelector(TypeId tid) const;

    /**
     * Build the responder side (receive window, SACK policy, backpressure).
     * \param windowPsns PSNs the receive window tracks
     */
    void SetUpResponder(uint32_t windowPsns);

    // ---- requester helpers ----
    /// \param seq an unwrapped sequence number \return index of its request in m_sendQueue
    std::size_t FindWqe(uint64_t seq) const
    {
        // Common case first, inline (asked at every send check): the sequence number is in
        // the newest request.
        if (!m_sendQueue.empty() && seq >= m_sendQueue.back().firstSeq)
        {
            return m_sendQueue.size() - 1;
        }
        return FindOlderWqe(seq);
    }

    /// \param seq an unwrapped sequence number below the newest request's first
    /// \return index of its request in m_sendQueue
    std::size_t FindOlderWqe(uint64_t seq) const;

    /// \param w a request \param idx packet index in it \return that packet's payload bytes
    uint32_t PayloadOf(const MrcSendWqe& w, uint64_t idx) const
    {
        const uint64_t offset = idx * m_mtu;
        return w.wr.length <= offset
                   ? 0
                   : static_cast<uint32_t>(std::min<uint64_t>(m_mtu, w.wr.length - offset));
    }

    /// \param psn a wire PSN this QP sent \return its unwrapped sequence number
    uint64_t SeqOf(uint32_t psn) const;
    /**
     * Report the losses of a scoreboard update: OnLostPsn per PSN, then the congestion
     * controller (OnLoss with the lost bytes).
     * \param upd the update \param timeout declared lost by the timer
     */
    void HandleLosses(const MrcSackUpdate& upd, bool timeout);
    /**
     * Move the cumulative point to the scoreboard's and complete the requests it covers.
     * \return true if the cumulative point advanced
     */
    bool AdvanceUna();

    // ---- requester hooks ----
    /// \return true if a queued retransmission could go now
    virtual bool CanRetransmit() const = 0;
    /// \return true if a new PSN could go now
    virtual bool CanSendNew() const = 0;
    /**
     * Choose the next data packet for a port: a queued retransmission (recorded with
     * MrcSackScoreboard::OnRetransmit) or new data (seq = m_sndNxt), and its EV.
     * \param port the port \param now the time \param c [out] the choice
     * \return false if nothing can go on the port now
     */
    virtual bool ChooseNext(uint32_t port, Time now, TxChoice& c) = 0;
    /**
     * A new PSN was recorded (m_sndNxt not advanced yet). Default: nothing.
     * \param w its request \param pktIdx its index in the request
     */
    virtual void OnNewDataSent(const MrcSendWqe& w, uint64_t pktIdx);

    /// What every sprayed data packet carries whatever the transport (MakeDataParts).
    struct DataParts
    {
        Ptr<Packet> packet;  //!< the payload (and ImmDt on the last packet of a Write-with-Imm)
        MrcRethHeader& reth; //!< the request's remote address at this packet, rkey, length
        MrcBthHeader& bth;   //!< opcode, destination QP, PSN, AckReq and RTX bits
    };

    /**
     * The parts of a data packet the transports share: the payload, its RETH and its BTH;
     * the transport adds its own headers (METH, TSETH) and the outer encapsulation. The two
     * headers are this function's reused objects (MrcFreshHeader), valid until the next
     * call: the caller adds them to the packet before it builds another.
     * \param idx index of its request in m_sendQueue \param pktIdx packet index in the request
     * \param len payload bytes \param c the choice (psn set) \param ar AckReq bit
     * \return the parts
     */
    DataParts MakeDataParts(std::size_t idx,
                            uint64_t pktIdx,
                            uint32_t len,
                            const TxChoice& c,
                            bool ar) const;
    /**
     * Write a data packet: payload, transport headers from the BTH on, outer headers.
     * \param port the port \param idx index of its request in m_sendQueue
     * \param pktIdx packet index in the request \param len payload bytes
     * \param c the choice (psn set) \param ar AckReq bit \param dscp its DSCP
     * \return the packet
     */
    virtual Ptr<Packet> BuildDataPacket(uint32_t port,
                                        std::size_t idx,
                                        uint64_t pktIdx,
                                        uint32_t len,
                                        const TxChoice& c,
                                        bool ar,
                                        uint8_t dscp) = 0;
    /**
     * A data packet was built: pacing and timers.
     * \param p the packet \param now the time
     */
    virtual void AfterDataSent(Ptr<const Packet> p, Time now) = 0;
    /**
     * One PSN was declared lost (before the controller hears of the update).
     * \param e the PSN and its record \param timeout declared by the timer
     */
    virtual void OnLostPsn(const MrcPsnEvent& e, bool timeout) = 0;
    /// \param w the oldest request, all its PSNs acknowledged \return true if it may
    /// complete now (default true)
    virtual bool MayComplete(const MrcSendWqe& w) const;
    /// \param w the request about to complete successfully (still m_sendQueue.front())
    virtual void OnRequestCompleted(const MrcSendWqe& w);
    /// A SACK (ACK) arrived; acksReceived is counted. \param rx the packet
    virtual void ReceiveSack(const MrcRxPacket& rx) = 0;
    /// A NACK arrived; naksReceived is counted. \param rx the packet
    virtual void ReceiveNack(const MrcRxPacket& rx) = 0;
    /// A probe arrived (responder). \param rx the packet
    virtual void ReceiveProbe(const MrcRxPacket& rx) = 0;
    /// Any other opcode arrived. Default: ignored. \param rx the packet
    virtual void ReceiveOther(const MrcRxPacket& rx);

    // ---- responder ----
    /// A data packet arrived. \param rx the packet
    void ReceiveData(const MrcRxPacket& rx);
    /// Report the messages complete in MSN order. \return how many were reported
    uint32_t DeliverMessages();
    /**
     * Place a NEW PSN at its RETH address and advance its message (reporting the messages
     * it completes).
     * \param rx the packet \param a its arrival
     * \param delivered [out] messages reported by this packet
     * \return false if the address was rejected (OnAccessError was called)
     */
    bool PlaceNew(const MrcRxPacket& rx, const Arrival& a, uint32_t& delivered);
    /**
     * Apply the SACK policy to an accepted data packet: SendDataAck now, after
     * ServiceTime, or not yet.
     * \param rx the packet \param res the receive window's verdict \param a its arrival
     */
    void AcknowledgeData(const MrcRxPacket& rx, const MrcRxResult& res, const Arrival& a);

    // ---- responder hooks ----
    /// \param rx a data packet \return the EV it carries
    virtual uint32_t EvOf(const MrcRxPacket& rx) const = 0;
    /**
     * A trimmed header arrived (outer DSCP TrimmedDscp or TrimmedLastHopDscp).
     * \param rx the packet \param a its arrival \param lastHop trimmed toward the host
     */
    virtual void OnTrimmedArrival(const MrcRxPacket& rx, const Arrival& a, bool lastHop) = 0;
    /**
     * Check a data packet before the receive window sees it. Default: accept.
     * \param rx the packet \param a its arrival \return false to drop it (answered)
     */
    virtual bool AdmitData(const MrcRxPacket& rx, const Arrival& a);
    /// A PSN beyond the receive window arrived. \param rx the packet \param a its arrival
    virtual void OnOutOfWindow(const MrcRxPacket& rx, const Arrival& a) = 0;
    /**
     * A NEW PSN names memory outside every registered region.
     * \param rx the packet \param a its arrival \param rkey the key \param va the address
     */
    virtual void OnAccessError(const MrcRxPacket& rx,
                               const Arrival& a,
                               uint32_t rkey,
                               uint64_t va) = 0;
    /**
     * Set the path feedback the acknowledgement echoes (called for every accepted data
     * packet, placed or duplicate). Default: none.
     * \param a [in,out] the arrival
     */
    virtual void SetFeedback(Arrival& a);
    /**
     * Send the acknowledgement of a data packet (now, or after ServiceTime).
     * \param port the port \param psn the PSN it answers \param a the arrival
     */
    virtual void SendDataAck(uint32_t port, uint32_t psn, const Arrival& a) = 0;
    /**
     * A data packet completed messages (reported already); called after the SACK policy
     * acknowledged it. Default: nothing.
     * \param rx the packet \param a its arrival
     * \param delivered messages the packet completed (at least one)
     */
    virtual void AfterDataAck(const MrcRxPacket& rx, const Arrival& a, uint32_t delivered);

    // shared attributes
    uint32_t m_reorderPsns;     //!< ReorderPsns
    Time m_reorderTime;         //!< ReorderTime
    uint8_t m_dataDscp;         //!< DataDscp
    uint8_t m_retxDscp;         //!< RetxDscp
    uint8_t m_controlDscp;      //!< ControlDscp
    uint8_t m_trimmedDscp;      //!< TrimmedDscp
    uint8_t m_trimmedLhDscp;    //!< TrimmedLastHopDscp
    bool m_ecnCapable;          //!< EcnCapable
    Time m_serviceTime;         //!< ServiceTime
    DataRate m_rcvDrainRate;    //!< RcvDrainRate
    uint32_t m_rcvBusyBytes;    //!< RcvBusyBytes
    uint32_t m_rcvRestoreSacks; //!< RcvRestoreSacks

    const uint32_t m_nominalHeaderBytes; //!< added to each payload in window accounting

    // requester state
    std::unique_ptr<MrcSackScoreboard> m_sb; //!< sent PSNs
    uint64_t m_una;                          //!< oldest unacknowledged sequence (unwrapped)
    uint64_t m_sndNxt;                       //!< next new sequence
    MrcTrackedEvent m_timer;                 //!< retransmission timer
    Time m_timerAt;                          //!< when it fires

    // responder state
    std::unique_ptr<MrcReceiveBitmap> m_rxWin; //!< receive window
    Ptr<MrcSackPolicy> m_sackPolicy;           //!< acknowledgement policy
    MrcRcvBackpressure m_rcvBp;                //!< rcv_cwnd_pen / restore_cwnd rule
    uint64_t m_rcvdBytes;                      //!< rcvd_bytes (payload + nominal headers)
    MrcMessageReassembly m_rxMessages;         //!< messages being received
};

} // namespace ns3

#endif /* MRC_SPRAYED_QUEUE_PAIR_H */
