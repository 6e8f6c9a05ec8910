/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_ROCE_QUEUE_PAIR_H
#define MRC_ROCE_QUEUE_PAIR_H

#include "ns3/event-id.h"
#include "ns3/mrc-aeth-header.h"
#include "ns3/mrc-dcqcn-np.h"
#include "ns3/mrc-memory-region.h"
#include "ns3/mrc-queue-pair.h"
#include "ns3/mrc-tracked-event.h"
#include "ns3/mrc-tx-time-cache.h"

#include <cstdint>
#include <map>
#include <set>

/**
 * \file
 * \ingroup mrc
 * RoCEv2 Reliable Connection queue pair: go-back-N, ACK coalescing, local ACK timeout,
 * CNPs (through a DCQCN notification point).
 */

namespace ns3
{

/**
 * \ingroup mrc
 * A RoCEv2 RC queue pair (both roles: requester and responder).
 *
 * **Requester.** A Write of L bytes becomes max(1, ceil(L / Mtu)) packets with
 * consecutive PSNs: RDMA WRITE First/Middle/Last, or Only; RETH on the first (or only)
 * packet, ImmDt on the last (or only) packet of a Write with Immediate; the A bit on the
 * last packet. Data packets carry DSCP DataDscp and ECT(0) (EcnCapable), the fixed UDP
 * source port and flow label of the path selector, and leave no faster than the pacing
 * rate of the congestion controller (gap = wire bytes / rate; PacingGap: the rate when the
 * previous packet left, or the rate now) and only while
 * inflight + payload <= cwnd. A cumulative ACK completes every request whose last PSN it
 * covers. A NAK (PSN sequence error) acknowledges everything before its PSN and rewinds
 * the next PSN to it (go-back-N). The local ACK timer (AckTimeout) runs while packets are
 * unacknowledged and restarts whenever the ACKed PSN advances; on expiry the requester
 * goes back to the oldest unacknowledged PSN; after RetryCount expiries without progress
 * the QP enters the error state (retry-exceeded), never aborting.
 *
 * **Responder.** Accepts only the expected PSN: it places the payload in the memory
 * region named by the message's RETH (RETH address + offset), and ACKs every AckInterval
 * packets, at the end of every message and when the A bit asks. A packet beyond the
 * expected PSN is dropped and answered with a NAK (sequence error, PSN = expected) at most
 * once per NakInterval for the same expected PSN. A duplicate is dropped and re-ACKed
 * (if it asks for an ACK). A Write naming an unknown rkey or a range outside the region
 * is answered with a remote-access-error NAK.
 *
 * **DCQCN notification point.** Each QP owns one MrcDcqcnNotificationPoint, created with
 * the attribute defaults of ns3::MrcDcqcnNotificationPoint (set its CnpStyle and CnpInterval
 * with Config::SetDefault before the QP is created, or per QP through
 * GetNotificationPoint()). Every data packet is handed to it; when it answers true for a
 * CE packet the QP sends a CNP at once (opcode 0x81, to the sender's QP; Interval style),
 * or sets the BECN bit on the next ACK (AckFlag style, the HPCC simulator's form, which
 * ACKs every packet with the roce-hpcc profile). A deferred CNP (Interval style) leaves on
 * the port of the last CE packet. The sender hands a CNP to its controller's OnCnp, and
 * an ACK with BECN to OnAck with cnpFlag (and ecnEcho) set, once: the controller treats
 * the flag as a CNP (MrcDcqcn does).
 *
 * **Selective repeat** (Recovery = SelectiveRepeat, IRN style; both ends of a connection
 * take the same attribute). The responder keeps out-of-order packets (their fields, not
 * their payload) until the missing PSNs arrive, then places the run in order, so each byte
 * is placed once and a message completes when its last hole fills, as with IRN's direct
 * placement. It answers the first sight of each missing PSN with a sequence NAK naming
 * that PSN (one NAK per hole, not per out-of-order packet). The requester puts a NAKed PSN
 * on its retransmission list and resends only the listed PSNs, before new data; a NAK
 * acknowledges nothing. The local ACK timer puts every unacknowledged PSN on the list (the
 * responder drops the duplicates). MaxOutstandingPsns caps the PSNs between the oldest
 * unacknowledged and the next new one (IRN's BDP-FC), in both recovery modes.
 */
class MrcRoceQueuePair : public MrcQueuePair
{
  public:
    /// Loss recovery of the requester and responder.
    enum Recovery
    {
        GO_BACK_N,        //!< drop out-of-order packets, NAK the expected PSN, resend from it
        SELECTIVE_REPEAT, //!< keep out-of-order packets, NAK each hole, resend only holes
    };

    /// When the pacing gap after a data packet is computed.
    enum PacingGap
    {
        GAP_AT_SEND,  //!< at send time, from the rate then (HPCC simulator's DCQCN)
        GAP_RATE_NOW, //!< from the last send time and the rate now (a NIC rate limiter)
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcRoceQueuePair();
    ~MrcRoceQueuePair() override;

    Time GetNextSendTime(uint32_t port) const override;
    uint8_t GetNextDscp(uint32_t port) const override;

    /// \return the next PSN the requester will send (unwrapped)
    uint64_t GetSendNext() const;
    /// \return the oldest unacknowledged PSN (unwrapped)
    uint64_t GetSendUnacked() const;
    /// \return the PSN the responder expects next (unwrapped)
    uint64_t GetExpectedPsn() const;
    /// \return the port this QP sends on
    uint32_t GetPort() const;
    /// \return the fixed path this QP sends on (port, flow label, UDP source port)
    const MrcPathChoice& GetPath() const;
    /// \return this QP's DCQCN notification point (never null before Dispose)
    Ptr<MrcDcqcnNotificationPoint> GetNotificationPoint() const;
    /// \return the recovery mode (Recovery attribute)
    Recovery GetRecovery() const;
    /// \return out-of-order packets the responder holds (selective repeat)
    std::size_t GetHeldPackets() const;
    /// \return the pacing-gap rule (PacingGap attribute)
    PacingGap GetPacingGap() const;

  protected:
    MrcTxPacket DoBuildNextPacket(uint32_t port) override;
    void DoReceive(const MrcRxPacket& rx) override;
    void DoDispose() override;
    void DoConnect() override;
    void DoPostSend(MrcSendWqe& wqe) override;
    void DoEnterError() override;

  private:
    /// The fields of a data packet the responder needs to place it (kept while out of order).
    struct DataFields
    {
        uint8_t opcode{0};        //!< BTH opcode
        bool ackReq{false};       //!< the A bit
        uint32_t port{0};         //!< NIC port it arrived on
        uint32_t payloadBytes{0}; //!< payload bytes
        uint64_t va{0};           //!< RETH virtual address (first packet)
        uint32_t rkey{0};         //!< RETH rkey (first packet)
        uint32_t dmaLen{0};       //!< RETH DMA length (first packet)
        uint32_t immediate{0};    //!< ImmDt (last packet of a Write with Immediate)
    };

    // requester
    /// \return the index in m_sendQueue of the request holding sequence seq
    std::size_t FindWqe(uint64_t seq) const;
    /// \return offset in the send byte stream of packet seq's first byte
    uint64_t BytePosition(uint64_t seq) const;
    /// Handle an ACK or NAK (AETH after the BTH).
    void ReceiveAck(const MrcRxPacket& rx);
    /// Everything below `una` is acknowledged. \return bytes newly acknowledged
    uint64_t AdvanceUna(uint64_t una);
    /// (Re)start the local ACK timer (one pending event; restarts only move a deadline).
    void RestartTimer();
    /// Stop the local ACK timer.
    void StopTimer();
    /// The local ACK timer expired.
    void Timeout();
    /// A CNP (or CNP flag) arrived.
    void HandleCnp();
    /// \return payload bytes of packet seq
    uint32_t PacketBytes(uint64_t seq) const;
    /**
     * Build the data packet of sequence seq of request w.
     * \param w the request holding seq
     * \param seq the sequence number
     * \param port the NIC port
     * \return the packet (IPv6 to ICRC)
     */
    Ptr<Packet> MakeDataPacket(const MrcSendWqe& w, uint64_t seq, uint32_t port);
    /// \return the sequence the requester sends next, or m_nextWqeSeq if none may leave now
    uint64_t NextSendSeq() const;
    /// \return true if a new (never sent) packet may leave (MaxOutstandingPsns)
    bool MayStartNew() const;
    /// Selective repeat: a sequence NAK names PSN seq as missing.
    void ReceiveSelectiveNak(uint64_t seq);
    /// \return the earliest time the next data packet may leave (pacing only)
    Time PacedTime() const;

    // responder
    /// Handle a data packet.
    void ReceiveData(const MrcRxPacket& rx);
    /**
     * The first packet of a message: check its RETH against the memory regions and
     * start the message (NAK REMOTE_ACCESS_ERROR if rejected).
     * \param rx the packet
     * \return false if it was rejected
     */
    bool StartMessage(const DataFields& d);
    /**
     * Place the packet with the expected PSN and advance it.
     * \param d its fields
     * \return false if it was rejected (NAKed)
     */
    bool PlaceInOrder(const DataFields& d);
    /// Send an ACK for everything below the expected PSN.
    void SendAck(uint32_t port);
    /// Send a NAK naming the expected PSN.
    void SendNak(uint32_t port, MrcAethHeader::NakCode code);
    /// Send a sequence NAK naming PSN seq (selective repeat: seq is missing).
    void SendNakFor(uint32_t port, MrcAethHeader::NakCode code, uint64_t seq);
    /// Send a CNP now.
    void SendCnp(uint32_t port);
    /**
     * Put the frame headers on a control packet to the peer (this QP's path, not
     * ECN-capable; `transport` after UDP in the same AddHeader) and send it at once.
     * \param port the NIC port
     * \param p the packet, made by NewPacket, with any transport headers not in `transport`
     * \param dscp its DSCP
     * \param kind what it counts as (ControlKind bits)
     * \param transport headers to add after UDP, outermost first
     */
    void SendControlToPeer(uint32_t port,
                           Ptr<Packet> p,
                           uint8_t dscp,
                           uint8_t kind,
                           std::initializer_list<const MrcWireHeader*> transport = {});
    /// The notification point asks for its deferred CNP.
    void SendDeferredCnp();

    // attributes
    uint32_t m_ackInterval;    //!< AckInterval
    Time m_nakInterval;        //!< NakInterval
    Time m_ackTimeout;         //!< AckTimeout
    uint32_t m_retryCount;     //!< RetryCount
    uint8_t m_dataDscp;        //!< DataDscp
    uint8_t m_ackDscp;         //!< AckDscp
    uint8_t m_cnpDscp;         //!< CnpDscp
    bool m_ecnCapable;         //!< EcnCapable
    Recovery m_recovery;       //!< Recovery
    uint32_t m_maxOutstanding; //!< MaxOutstandingPsns (0: no cap)
    uint32_t m_reorderPsns;    //!< ReorderPsns
    PacingGap m_pacingGap;     //!< PacingGap

    // requester state
    MrcPathChoice m_path;            //!< the fixed path
    uint64_t m_sndUna;               //!< oldest unacknowledged sequence
    uint64_t m_sndNxt;               //!< next sequence to send
    uint64_t m_maxSent;              //!< one past the highest sequence ever sent
    std::size_t m_txIdx;             //!< index of the request holding m_sndNxt
    Time m_nextAvail;                //!< pacing (GAP_AT_SEND): earliest next send
    Time m_lastSend;                 //!< pacing (GAP_RATE_NOW): when the last packet left
    uint32_t m_lastWireBytes;        //!< pacing (GAP_RATE_NOW): its bytes on the wire
    mutable MrcTxTimeCache m_txTime; //!< pacing: the last serialization time computed
    MrcTrackedEvent m_timer;         //!< local ACK timer event
    Time m_timerDeadline;            //!< when the timer expires (Time::Max(): stopped)
    uint32_t m_retries;              //!< timer expiries since the last progress
    std::set<uint64_t> m_rtx;        //!< selective repeat: PSNs to send again
    uint64_t m_rtxBytes;             //!< their payload bytes

    // responder state
    uint64_t m_ePsn;                       //!< expected sequence
    uint32_t m_msn;                        //!< messages completed (24 bits on the wire)
    bool m_inMessage;                      //!< a message is being received
    Ptr<MrcMemoryRegion> m_rxRegion;       //!< its region
    MrcRecvCompletion m_rxMsg;             //!< its description so far
    uint64_t m_rxNextAddr;                 //!< where its next byte goes
    uint32_t m_sinceAck;                   //!< packets accepted since the last ACK
    Time m_lastNakTime;                    //!< last sequence NAK
    uint64_t m_lastNakPsn;                 //!< expected PSN the last NAK named
    bool m_nakSent;                        //!< a NAK was ever sent
    bool m_pendingCnpFlag;                 //!< CE to report on the next ACK (AckFlag style)
    uint32_t m_cnpPort;                    //!< port for a deferred CNP (last CE packet's)
    Ptr<MrcDcqcnNotificationPoint> m_np;   //!< DCQCN notification point
    std::map<uint64_t, DataFields> m_held; //!< selective repeat: out-of-order packets
    uint64_t m_rcvHigh;                    //!< one past the highest PSN seen
    uint64_t m_nakNext;                    //!< PSNs below it were NAKed if missing
};

} // namespace ns3

#endif /* MRC_ROCE_QUEUE_PAIR_H */
