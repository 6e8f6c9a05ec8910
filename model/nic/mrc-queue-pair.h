/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_QUEUE_PAIR_H
#define MRC_QUEUE_PAIR_H

#include "mrc-work-request.h"

#include "ns3/callback.h"
#include "ns3/ipv6-address.h"
#include "ns3/mrc-congestion-ops.h"
#include "ns3/mrc-packet-info.h"
#include "ns3/mrc-path-selector.h"
#include "ns3/mrc-wire-header.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <deque>
#include <initializer_list>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * The queue-pair base class shared by RoCE RC, UEC RUD and MRC.
 */

namespace ns3
{

class MrcRdmaNic;
class MrcUsidCarrier;

/**
 * \ingroup mrc
 * One received transport packet, parsed once by the NIC and handed to the queue pair
 * named by its BTH destination QP. `headers` holds the packet's first
 * `info->headerBytes` bytes (IPv6 .. last extension header), so a transport reads its
 * extension headers from there without parsing the packet again.
 */
struct MrcRxPacket
{
    Ptr<Packet> packet;        //!< the packet from its outer IPv6 header, ICRC included
    const MrcPacketInfo* info; //!< the NIC's parse of it
    const uint8_t* headers;    //!< its first info->headerBytes bytes
    uint32_t port{0};          //!< NIC port it arrived on
    uint8_t opcode{0};         //!< BTH opcode
    uint8_t bthByte1{0};       //!< BTH byte 1 (SE, M, PadCnt, TVer)
    uint8_t bthByte4{0};       //!< BTH byte 4 (FECN, BECN)
    uint8_t bthByte8{0};       //!< BTH byte 8 (A, and MRC's RTX, TS)
    uint32_t destQp{0};        //!< BTH destination QP
    uint32_t psn{0};           //!< BTH PSN (24 bits)
    uint32_t payloadBytes{0};  //!< bytes after the headers without the 4-byte ICRC (0 when
                               //!< fewer than 4 follow: a packet trimmed to its headers)
    uint32_t extOffset{0};     //!< offset of the first extension header after the BTH
    /// edits of the outer IPv6 header that `packet` lacks and `headers` and `info` have
    /// (MrcRxHead::edits): written (MrcWriteIpv6Edits) before a trace sees the packet
    uint8_t edits{0};

    /// \return the ECN codepoint of the outer IPv6 header
    MrcEcn GetEcn() const
    {
        return info->GetEcn();
    }
};

/**
 * \ingroup mrc
 * A packet a queue pair built for the NIC, with the DSCP the NIC classifies it by.
 */
struct MrcTxPacket
{
    Ptr<Packet> packet;         //!< from the Ethernet header to the ICRC (AddFrameHeaders)
    uint8_t dscp{0};            //!< the packet's DSCP (selects the device class)
    bool retransmission{false}; //!< the transport sends this payload again
    uint32_t payloadBytes{0};   //!< its payload bytes (the base counts them)
};

/**
 * \ingroup mrc
 * Counters of one queue pair (both roles: requester and responder).
 */
struct MrcQpCounters
{
    uint64_t dataPacketsSent{0};      //!< data packets built (first sends and retransmissions)
    uint64_t dataBytesSent{0};        //!< their payload bytes
    uint64_t retransmittedPackets{0}; //!< data packets sent again
    uint64_t retransmittedBytes{0};   //!< their payload bytes
    uint64_t timeouts{0};             //!< retransmission timer expiries
    uint64_t acksSent{0};             //!< ACKs (and SACKs) sent
    uint64_t acksReceived{0};         //!< ACKs (and SACKs) received
    uint64_t naksSent{0};             //!< NAKs sent
    uint64_t naksReceived{0};         //!< NAKs received
    uint64_t cnpsSent{0};             //!< CNPs sent (or CNP flags set on ACKs)
    uint64_t cnpsReceived{0};         //!< CNPs received (or ACKs with the CNP flag)
    uint64_t ecnMarkedReceived{0};    //!< data packets that arrived with CE
    uint64_t dataPacketsReceived{0};  //!< data packets that arrived (all)
    uint64_t duplicatePackets{0};     //!< data packets that arrived again (already placed)
    uint64_t outOfOrderPackets{0};    //!< data packets that arrived ahead of a gap
    uint64_t bytesPlaced{0};          //!< payload bytes written to memory (first time)
    uint64_t messagesCompleted{0};    //!< send work requests completed successfully
    uint64_t messagesReceived{0};     //!< messages fully received (responder)
};

/**
 * \ingroup mrc
 * A queue pair: a connection endpoint of an RDMA transport, created by MrcRdmaNic.
 *
 * **User API.** Connect() names the peer; PostSend() queues a Write or
 * Write-with-Immediate; the completion callback and the Completion trace report each
 * work request with its start and end time and bytes. Errors never abort: the QP enters
 * MrcQpState::ERROR with a reason (GetError, GetErrorReason, the Error trace) and
 * completes every outstanding request with an error status.
 *
 * **Strategies.** The CongestionControl attribute (a TypeId, default
 * ns3::MrcNoCongestionControl) and, for a transport that takes its path from a path
 * selector (RoCE, UEC), the PathSelector attribute (default
 * ns3::MrcFixedEntropyPathSelector) create one strategy object per QP at Connect().
 * MRC chooses its paths from its EV table and has no PathSelector attribute.
 * The QP owns the MrcCcState the controller acts on.
 *
 * **Transport hooks.** A transport subclass implements:
 * - DoConnect(): set up its sequence state once the peer is known (optional);
 * - DoPostSend(wqe): a request was queued (m_sendQueue.back()); the default asks the
 *   NIC to schedule the QP;
 * - GetNextSendTime(port): when it could send its next packet on the port
 *   (Time::Max() for "nothing to send"; a past or present time for "now");
 * - GetNextDscp(port): the DSCP of that packet (the NIC checks its class has room);
 * - DoBuildNextPacket(port): build that packet (the NIC calls BuildNextPacket only when
 *   the device has room and GetNextSendTime(port) <= now);
 * - DoReceive(rx): a packet for this QP arrived while the QP processes arrivals;
 * - DoEnterError(): stop timers (optional).
 *
 * **Counting and tracing once.** As ns-3's QueueDisc wraps DoEnqueue in Enqueue, the
 * public BuildNextPacket and Receive are not virtual: they check the state, fire the Tx
 * and Rx traces and update the counters every transport keeps the same way (data
 * packets and bytes sent, retransmissions) around the hooks; SendControl counts ACKs,
 * NAKs and CNPs by the kind its caller names.
 * Helpers for subclasses: NotifyReady(), SendControl(), CompleteFront(), EnterError(),
 * the counters, the CC state and ops, the path selector.
 */
class MrcQueuePair : public Object
{
  public:
    /// Completion callback: one call per finished send work request.
    typedef Callback<void, const MrcWorkCompletion&> CompletionCallback;
    /// Receive callback: one call per message that arrived completely (responder).
    typedef Callback<void, const MrcRecvCompletion&> ReceiveCallback;

    /// Signature of the Completion trace.
    typedef void (*CompletionTracedCallback)(const MrcWorkCompletion& wc);
    /// Signature of the MessageReceived trace.
    typedef void (*ReceiveTracedCallback)(const MrcRecvCompletion& rc);
    /// Signature of the Error trace: QPN, error, human-readable reason.
    typedef void (*ErrorTracedCallback)(uint32_t qpn, MrcQpError error, const std::string& reason);
    /// Signature of the Rate trace: QPN, new pacing rate in bit/s, new window in bytes.
    typedef void (*CcTracedCallback)(uint32_t qpn, uint64_t rateBps, uint64_t cwnd);
    /// Signature of the StateChanged trace: QPN, old state, new state.
    typedef void (*StateTracedCallback)(uint32_t qpn, MrcQpState from, MrcQpState to);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcQueuePair();
    ~MrcQueuePair() override;

    // ---- user API ----

    /**
     * Connect to the peer queue pair and enter RTS: ModifyToInit (when in RESET),
     * ModifyToRtr, ModifyToRts in one call. Creates the congestion controller and path
     * selector. Aborts if already past INIT or not attached to a NIC.
     * \param remoteAddresses the peer NIC's address on each plane (port index order); a
     *        single address is used for every port
     * \param remoteQpn the peer's queue pair number
     * \param remoteInitialPsn the PSN of the peer's first packet (its InitialPsn)
     */
    void Connect(const std::vector<Ipv6Address>& remoteAddresses,
                 uint32_t remoteQpn,
                 uint32_t remoteInitialPsn = 0);

    /**
     * Connect with one peer address (single-plane NICs).
     * \param remoteAddress the peer's address
     * \param remoteQpn the peer's queue pair number
     * \param remoteInitialPsn the PSN of the peer's first packet (its InitialPsn)
     */
    void Connect(Ipv6Address remoteAddress, uint32_t remoteQpn, uint32_t remoteInitialPsn = 0);

    /**
     * Lifecycle step RESET -> INIT: the QP is configured (strategies, profiles) but has no
     * peer; it neither sends nor receives. Aborts in any other state.
     */
    void ModifyToInit();

    /**
     * Lifecycle step INIT -> RTR: the peer becomes known, the congestion controller and
     * path selector are created and the transport sets up its sequence state
     * (DoConnect). Arriving packets are processed from now on; PostSend still refuses.
     * Aborts in any other state or on a bad argument (see Connect).
     * \param remoteAddresses the peer NIC's address per plane (one for all ports allowed)
     * \param remoteQpn the peer's queue pair number
     * \param remoteInitialPsn the PSN of the peer's first packet
     */
    void ModifyToRtr(const std::vector<Ipv6Address>& remoteAddresses,
                     uint32_t remoteQpn,
                     uint32_t remoteInitialPsn = 0);

    /**
     * Lifecycle step RTR -> RTS: the QP may send (DoModifyToRts, then PostSend accepts
     * requests). Aborts in any other state.
     */
    void ModifyToRts();

    /**
     * Queue a send work request.
     * \param wr the request
     * \return false (nothing queued) if the QP is not in RTS; GetPostSendError() says why
     */
    bool PostSend(const MrcWorkRequest& wr);

    /// \return why the last refused PostSend was refused (empty after an accepted one)
    const std::string& GetPostSendError() const;

    /// \param cb called for every finished send work request (may be null)
    void SetCompletionCallback(CompletionCallback cb);
    /// \param cb called for every message fully received by this QP (may be null)
    void SetReceiveCallback(ReceiveCallback cb);

    /// \return the local queue pair number
    uint32_t GetQpn() const;
    /// \return the peer's queue pair number
    uint32_t GetRemoteQpn() const;
    /// \return the PSN of this QP's first packet (InitialPsn attribute)
    uint32_t GetInitialPsn() const;
    /// \return the PSN of the peer's first packet (given to Connect)
    uint32_t GetRemoteInitialPsn() const;
    /// \return the NIC
    Ptr<MrcRdmaNic> GetNic() const;
    /// \param port a port index \return the peer's address used on that port
    Ipv6Address GetRemoteAddress(uint32_t port) const;
    /// \param port a port index \return GetRemoteAddress(port) as bytes
    const MrcIpv6Bytes& GetRemoteAddressBytes(uint32_t port) const;

    /// \return the state
    MrcQpState GetState() const;
    /// \return why the QP is in error (NONE otherwise)
    MrcQpError GetError() const;
    /// \return the error's human-readable reason (empty if none)
    std::string GetErrorReason() const;

    /// \return the counters
    const MrcQpCounters& GetCounters() const;
    /// \return send work requests not completed yet
    std::size_t GetOutstandingRequests() const;

    /// \return the congestion-control state (rate, cwnd, inflight, ...)
    const MrcCcState& GetCcState() const;
    /// \return the congestion controller (null before Connect)
    Ptr<MrcCongestionOps> GetCongestionOps() const;
    /// \return the path selector (null before Connect)
    Ptr<MrcPathSelector> GetPathSelector() const;

    /**
     * Use a clone (Fork) of this controller instead of creating one from the
     * CongestionControl TypeId. Call before Connect.
     * \param prototype the configured controller
     */
    void SetCongestionOpsPrototype(Ptr<MrcCongestionOps> prototype);

    /**
     * Use this path selector (configured by the caller, e.g. with a fixed Port or an EV
     * profile) instead of creating one from the PathSelector TypeId. Call before Connect;
     * the object belongs to this QP afterwards (not shared).
     * \param selector the path selector
     */
    void SetPathSelector(Ptr<MrcPathSelector> selector);

    /**
     * Bind the connection to a NIC port (plane), as a verbs application names the port of
     * a queue pair: handed to the path selector at Connect (MrcPathSelector::AssignPort),
     * which a transport bound to one port follows (RoCE's and UEC's
     * MrcFixedEntropyPathSelector under its PortRule); MRC sprays over every port and does
     * not look at it. Call before Connect; give both ends the same port.
     * \param port the port
     */
    void AssignPort(uint32_t port);

    // ---- called by the NIC ----

    /**
     * Attach to a NIC (MrcRdmaNic::CreateQueuePair does this).
     * \param nic the NIC
     * \param qpn the queue pair number the NIC assigned
     */
    void SetNic(Ptr<MrcRdmaNic> nic, uint32_t qpn);

    /**
     * \param port a NIC port
     * \return true if this QP may send on the port (the NIC keeps the QP in that port's
     *         scheduling ring). Default: the path selector's UsesPort.
     */
    virtual bool UsesPort(uint32_t port) const;

    /**
     * \param port a NIC port this QP uses
     * \return earliest time the next packet may leave on the port (Time::Max(): none)
     */
    virtual Time GetNextSendTime(uint32_t port) const = 0;

    /**
     * \param port a NIC port this QP uses
     * \return the DSCP of the next data packet for the port (the NIC checks that the
     *         device queue of its class has room before asking for the packet)
     */
    virtual uint8_t GetNextDscp(uint32_t port) const = 0;

    /**
     * Build the next packet for a port. Called only when GetNextSendTime(port) <= now.
     * Outside RTS nothing is built; otherwise DoBuildNextPacket builds it and this
     * counts it (dataPacketsSent, dataBytesSent, and the retransmission counters) and
     * fires the Tx trace.
     * \param port the port
     * \return the packet and its DSCP (a null packet if there is nothing after all)
     */
    MrcTxPacket BuildNextPacket(uint32_t port);

    /**
     * A packet addressed to this QP arrived: fires the Rx trace, then hands it to
     * DoReceive if the QP processes arrivals in its state (RTS; also RTR when the
     * transport set m_receiveInRtr).
     * \param rx the parsed packet
     */
    void Receive(const MrcRxPacket& rx);

    /**
     * Signed distance from b to a in 24-bit PSN space, in [-2^23, 2^23).
     * \param a a PSN \param b a PSN \return a - b
     */
    static int32_t PsnDiff(uint32_t a, uint32_t b);

    /**
     * Unwrap a 24-bit PSN to the 64-bit sequence closest to a reference.
     * \param psn wire PSN \param reference an unwrapped sequence number
     * \return the unwrapped sequence number
     */
    static uint64_t Unwrap(uint32_t psn, uint64_t reference);

  protected:
    /// What a control packet counts as (SendControl); ACK and CNP may be combined.
    enum ControlKind : uint8_t
    {
        CONTROL_UNCOUNTED = 0, //!< counted by no MrcQpCounters field (probes, endpoint ops)
        CONTROL_ACK = 1,       //!< acksSent (ACK or SACK)
        CONTROL_NAK = 2,       //!< naksSent
        CONTROL_CNP = 4,       //!< cnpsSent (a CNP, or the CNP flag on an ACK)
    };

    void DoDispose() override;

    /**
     * Transport hook of BuildNextPacket (called in RTS only): build the next packet for
     * the port and say whether it is a retransmission and how many payload bytes it
     * carries; the caller counts and traces it.
     * \param port the port
     * \return the packet (null if there is nothing after all)
     */
    virtual MrcTxPacket DoBuildNextPacket(uint32_t port) = 0;

    /**
     * Transport hook of Receive: a packet arrived while the QP processes arrivals (the
     * Rx trace has fired).
     * \param rx the parsed packet
     */
    virtual void DoReceive(const MrcRxPacket& rx) = 0;

    /// \return true if the QP processes arrivals now (RTS, or RTR with m_receiveInRtr)
    bool IsReceiving() const
    {
        return m_state == MrcQpState::RTS || (m_receiveInRtr && m_state == MrcQpState::RTR);
    }

    /// Transport hook: the peer is known and the strategies exist. Default: nothing.
    virtual void DoConnect();
    /// Transport hook: a request was appended to m_sendQueue. Default: NotifyReady().
    virtual void DoPostSend(MrcSendWqe& wqe);
    /// Transport hook: the QP just entered the error state. Default: nothing.
    virtual void DoEnterError();
    /// Transport hook: the QP is about to enter RTS (RTR -> RTS). Default: nothing.
    virtual void DoModifyToRts();
    /**
     * Change m_state and fire the StateChanged trace (no-op if unchanged).
     * \param to the new state
     */
    void SetState(MrcQpState to);
    /// \param wr a request \return packets it takes on this transport (default: by Mtu)
    virtual uint32_t PacketsFor(const MrcWorkRequest& wr) const;

    /// Ask the NIC to (re)consider this QP for sending on its ports.
    void NotifyReady();

    /**
     * Send a control packet (ACK, NAK, CNP, SACK, probe) at once, in its DSCP's class:
     * counts it by kind and fires the Tx trace.
     * \param port the NIC port
     * \param p the frame from its Ethernet header to the ICRC (AddFrameHeaders); the
     *        Tx trace sees it from the IPv6 header
     * \param dscp its DSCP
     * \param kind what it counts as (ControlKind bits)
     */
    void SendControl(uint32_t port, Ptr<Packet> p, uint8_t dscp, uint8_t kind);

    /**
     * Complete the oldest send work request.
     * \param status the status
     */
    void CompleteFront(MrcWcStatus status);

    /**
     * Report a fully received message (MessageReceived trace and receive callback).
     * \param rc the completion
     */
    void ReportReceived(const MrcRecvCompletion& rc);

    /**
     * Enter the error state: fire the Error trace, complete the oldest request with
     * `firstStatus` and the rest with FLUSHED, call DoEnterError. Idempotent.
     * \param error why
     * \param reason human-readable detail
     * \param firstStatus status of the oldest outstanding request
     */
    void EnterError(MrcQpError error, const std::string& reason, MrcWcStatus firstStatus);

    /// Fire the Cc trace if rate or cwnd changed since it last fired (call after the
    /// controller acted).
    void TraceCc();

    /**
     * Add the attributes every transport has, each under the transport's own TypeId
     * (so a profile can set RoCE's without touching MRC's): Mtu, CongestionControl,
     * PathSelector (only for a transport that takes its paths from an MrcPathSelector),
     * BaseRtt, InitialPsn.
     * \param tid the transport's TypeId under construction
     * \param defaultMtu default payload bytes per packet
     * \param defaultCc default congestion controller (its GetTypeId(), which registers it:
     *        a name looked up here could be one whose file's static initialisers have not
     *        run yet, since the order of those across files is unspecified)
     * \param defaultPath default path selector, likewise; TypeId() (uid 0): the transport
     *        chooses its paths itself (no PathSelector attribute, no selector is created at
     *        RTR unless SetPathSelector installed one)
     * \param mtuSource where the default MTU comes from (for the help text)
     * \return tid
     */
    static TypeId AddCommonAttributes(TypeId tid,
                                      uint32_t defaultMtu,
                                      TypeId defaultCc,
                                      TypeId defaultPath,
                                      const std::string& mtuSource);

    /**
     * The payload of one Write packet, with the ImmDt header in front when it is the last
     * packet of a Write with Immediate (shared by every transport's packet builder).
     * \param len payload bytes
     * \param withImm put an ImmDt header in front
     * \param immediate its value
     * \return the packet
     */
    static Ptr<Packet> MakeWritePayload(uint32_t len, bool withImm, uint32_t immediate);

    /**
     * A packet for AddFrameHeaders: `payloadBytes` zero bytes, then four zero bytes where
     * the ICRC goes, all in ns-3's zero area (nothing written, nothing allocated for them).
     * An ICRC of 0 is what a NIC that does not compute it sends, so the frame needs no
     * trailer operation; a NIC that computes it replaces those four bytes.
     * \param payloadBytes the payload (0 for a control packet: headers only)
     * \return the packet
     */
    static Ptr<Packet> NewPacket(uint32_t payloadBytes = 0);

    /**
     * Add the outer IPv6 and UDP headers and the ICRC trailer to a transport packet
     * that starts with its BTH, or, given `transport`, add that BTH and its extension
     * headers too: then the IPv6, UDP and transport headers take one Packet::AddHeader
     * (the same bytes as adding the transport headers first; one buffer operation and,
     * on ns-3.37, one re-allocation fewer per packet), whose bytes, laid out by each
     * header's MrcWireHeader::WriteTo, reach the buffer with one write.
     * \param p the packet (BTH, extension headers, payload; or only what follows
     *        `transport`)
     * \param src source address
     * \param dst destination address
     * \param dscp DSCP
     * \param ecn ECN codepoint
     * \param flowLabel flow label
     * \param udpSrcPort UDP source port
     * \param transport headers to add after UDP, in wire order (null entries skipped); the
     *        module's header classes (MrcWireHeader), such as MrcBthHeader
     * \param srv6 if not null, then encapsulate in an outer IPv6 header to this uSID
     *        carrier (MrcSrv6Encapsulate: same traffic class and flow label, no SRH);
     *        written with the same single AddHeader unless the ICRC or the UDP checksum
     *        is computed (they cover the inner packet only)
     */
    void AddIpUdpIcrc(Ptr<Packet> p,
                      const MrcIpv6Bytes& src,
                      const MrcIpv6Bytes& dst,
                      uint8_t dscp,
                      MrcEcn ecn,
                      uint32_t flowLabel,
                      uint16_t udpSrcPort,
                      std::initializer_list<const MrcWireHeader*> transport = {},
                      const MrcUsidCarrier* srv6 = nullptr) const;

    /**
     * As AddIpUdpIcrc, with the Ethernet header of `port`'s device in front: the frame
     * the NIC queues as it is (MrcNetDevice::SendFramed), what BuildNextPacket returns and
     * SendControl takes. Where AddIpUdpIcrc writes its headers with one AddHeader (no
     * computed ICRC or UDP checksum, the default), the Ethernet header goes in with them,
     * so a packet built by a queue pair costs no header operation at the device.
     * \param p the packet, as for AddIpUdpIcrc, but made by NewPacket (or MakeWritePayload):
     *        it ends with the four bytes of room for the ICRC
     * \param port the NIC port whose device sends the frame
     * \param src source address
     * \param dst destination address
     * \param dscp DSCP
     * \param ecn ECN codepoint
     * \param flowLabel flow label
     * \param udpSrcPort UDP source port
     * \param transport headers to add after UDP, as for AddIpUdpIcrc
     * \param srv6 the uSID carrier of an outer IPv6 header, as for AddIpUdpIcrc
     */
    void AddFrameHeaders(Ptr<Packet> p,
                         uint32_t port,
                         const MrcIpv6Bytes& src,
                         const MrcIpv6Bytes& dst,
                         uint8_t dscp,
                         MrcEcn ecn,
                         uint32_t flowLabel,
                         uint16_t udpSrcPort,
                         std::initializer_list<const MrcWireHeader*> transport = {},
                         const MrcUsidCarrier* srv6 = nullptr) const;

    /**
     * AddIpUdpIcrc's work, with an Ethernet header in front when the headers go in with
     * one AddHeader.
     * \param icrcInPayload the packet ends with four zero bytes of room for the ICRC
     *        (NewPacket): no trailer is added, or the room is replaced by the computed ICRC
     * \return true if `ethernet` was written (it is not when null, or when the ICRC or
     *         the UDP checksum is computed over the packet first)
     */
    bool PutIpUdpIcrc(Ptr<Packet> p,
                      const MrcIpv6Bytes& src,
                      const MrcIpv6Bytes& dst,
                      uint8_t dscp,
                      MrcEcn ecn,
                      uint32_t flowLabel,
                      uint16_t udpSrcPort,
                      std::initializer_list<const MrcWireHeader*> transport,
                      const MrcUsidCarrier* srv6,
                      const uint8_t* ethernet,
                      bool icrcInPayload) const;

    // configuration (attributes)
    uint32_t m_mtu;              //!< payload bytes per full packet (Mtu attribute)
    TypeId m_ccTypeId;           //!< CongestionControl attribute
    TypeId m_pathTypeId;         //!< PathSelector attribute
    Time m_baseRtt;              //!< BaseRtt attribute (given to the controller)
    uint32_t m_initialPsn;       //!< InitialPsn attribute: wire PSN of sequence 0
    uint32_t m_remoteInitialPsn; //!< the peer's InitialPsn
    uint32_t m_assignedPort;     //!< AssignPort's port, or 0xffffffff

    // connection
    Ptr<MrcRdmaNic> m_nic;                          //!< the NIC
    uint32_t m_qpn;                                 //!< local QPN
    uint32_t m_remoteQpn;                           //!< peer QPN
    std::vector<Ipv6Address> m_remoteAddress;       //!< peer address per port
    std::vector<MrcIpv6Bytes> m_remoteAddressBytes; //!< the same, as bytes
    MrcQpState m_state;                             //!< state
    bool m_receiveInRtr;                            //!< arrivals are processed in RTR too
    // checked by every packet: beside the state rather than with the other trace sources
    TracedCallback<Ptr<const Packet>> m_rxTrace; //!< Rx
    TracedCallback<Ptr<const Packet>> m_txTrace; //!< Tx
    MrcQpError m_error;                          //!< error
    std::string m_errorReason;                   //!< error detail
    std::string m_postSendError;                 //!< why the last PostSend was refused

    // strategies and state
    MrcCcState m_cc;                     //!< CC state (owned here)
    Ptr<MrcCongestionOps> m_ccOps;       //!< CC algorithm
    Ptr<MrcCongestionOps> m_ccPrototype; //!< optional prototype to Fork
    Ptr<MrcPathSelector> m_pathSelector; //!< path selection

    std::deque<MrcSendWqe> m_sendQueue; //!< posted, not completed send requests, oldest first
    uint64_t m_nextWqeSeq;    //!< sequence number of the next posted request's first packet
    uint64_t m_nextWqeByte;   //!< stream offset of the next posted request
    MrcQpCounters m_counters; //!< counters
    uint64_t m_tracedRate;    //!< rate the Cc trace last reported
    uint64_t m_tracedCwnd;    //!< cwnd the Cc trace last reported

    CompletionCallback m_completionCb; //!< user completion callback
    ReceiveCallback m_receiveCb;       //!< user receive callback

    TracedCallback<const MrcWorkCompletion&> m_completionTrace;            //!< Completion
    TracedCallback<const MrcRecvCompletion&> m_receivedTrace;              //!< MessageReceived
    TracedCallback<uint32_t, MrcQpError, const std::string&> m_errorTrace; //!< Error
    TracedCallback<uint32_t, uint64_t, uint64_t> m_ccTrace;                //!< Cc
    TracedCallback<uint32_t, MrcQpState, MrcQpState> m_stateTrace;         //!< StateChanged

  private:
    /// Fire the Tx trace with a frame's packet from its IPv6 header (a copy, only if
    /// the trace is connected). \param frame the frame, from its Ethernet header
    void TraceTx(const Ptr<Packet>& frame) const;

    /// The controller changed rate or cwnd outside an event (timer).
    void CcChanged();
};

} // namespace ns3

#endif /* MRC_QUEUE_PAIR_H */
