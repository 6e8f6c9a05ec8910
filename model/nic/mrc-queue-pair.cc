/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-queue-pair.h"

#include "mrc-rdma-nic.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mrc-heap-scheduler.h"
#include "ns3/mrc-icrc-trailer.h"
#include "ns3/mrc-imm-dt-header.h"
#include "ns3/mrc-raw-header.h"
#include "ns3/mrc-srv6-encap.h"
#include "ns3/mrc-udp-checksum.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcQueuePair");

NS_OBJECT_ENSURE_REGISTERED(MrcQueuePair);

TypeId
MrcQueuePair::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcQueuePair")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddTraceSource("Completion",
                            "A send work request finished (any status).",
                            MakeTraceSourceAccessor(&MrcQueuePair::m_completionTrace),
                            "ns3::MrcQueuePair::CompletionTracedCallback")
            .AddTraceSource("MessageReceived",
                            "A message arrived completely at this QP (responder).",
                            MakeTraceSourceAccessor(&MrcQueuePair::m_receivedTrace),
                            "ns3::MrcQueuePair::ReceiveTracedCallback")
            .AddTraceSource("Error",
                            "The QP entered the error state: QPN, error, reason.",
                            MakeTraceSourceAccessor(&MrcQueuePair::m_errorTrace),
                            "ns3::MrcQueuePair::ErrorTracedCallback")
            .AddTraceSource("Cc",
                            "The congestion controller set a new rate or window (fired at "
                            "Connect and on every change): QPN, rate (bit/s), cwnd (bytes).",
                            MakeTraceSourceAccessor(&MrcQueuePair::m_ccTrace),
                            "ns3::MrcQueuePair::CcTracedCallback")
            .AddTraceSource("Tx",
                            "A packet (data or control) was handed to the NIC.",
                            MakeTraceSourceAccessor(&MrcQueuePair::m_txTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Rx",
                            "A packet for this QP arrived.",
                            MakeTraceSourceAccessor(&MrcQueuePair::m_rxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("StateChanged",
                            "The lifecycle state changed (RESET, INIT, RTR, RTS, ERROR): QPN, "
                            "old state, new state.",
                            MakeTraceSourceAccessor(&MrcQueuePair::m_stateTrace),
                            "ns3::MrcQueuePair::StateTracedCallback");
    return tid;
}

TypeId
MrcQueuePair::AddCommonAttributes(TypeId tid,
                                  uint32_t defaultMtu,
                                  TypeId defaultCc,
                                  TypeId defaultPath,
                                  const std::string& mtuSource)
{
    tid.AddAttribute("Mtu",
                     "Payload bytes of a full packet (path MTU). Default: " + mtuSource,
                     UintegerValue(defaultMtu),
                     MakeUintegerAccessor(&MrcQueuePair::m_mtu),
                     MakeUintegerChecker<uint32_t>(1, 65000))
        .AddAttribute("CongestionControl",
                      "TypeId of the congestion controller (a subclass of "
                      "ns3::MrcCongestionOps), one per QP. Default " +
                          defaultCc.GetName() + ".",
                      TypeIdValue(defaultCc),
                      MakeTypeIdAccessor(&MrcQueuePair::m_ccTypeId),
                      MakeTypeIdChecker());
    if (defaultPath.GetUid() != 0)
    {
        tid.AddAttribute("PathSelector",
                         "TypeId of the path selector (a subclass of ns3::MrcPathSelector), "
                         "one per QP. Default " +
                             defaultPath.GetName() + ".",
                         TypeIdValue(defaultPath),
                         MakeTypeIdAccessor(&MrcQueuePair::m_pathTypeId),
                         MakeTypeIdChecker());
    }
    return tid
        .AddAttribute("BaseRtt",
                      "Unloaded RTT of an MTU packet over the longest path, given to the "
                      "congestion controller (MrcCcState::baseRtt). Default 0: unknown.",
                      TimeValue(Seconds(0)),
                      MakeTimeAccessor(&MrcQueuePair::m_baseRtt),
                      MakeTimeChecker())
        .AddAttribute("InitialPsn",
                      "PSN of this QP's first packet (24 bits); the peer learns it at "
                      "Connect. Default 0 (our choice; real NICs pick it at random).",
                      UintegerValue(0),
                      MakeUintegerAccessor(&MrcQueuePair::m_initialPsn),
                      MakeUintegerChecker<uint32_t>(0, 0xffffff));
}

MrcQueuePair::MrcQueuePair()
    : m_mtu(4096),
      m_initialPsn(0),
      m_remoteInitialPsn(0),
      m_assignedPort(MrcPathSelector::NO_PORT),
      m_qpn(0),
      m_remoteQpn(0),
      m_state(MrcQpState::RESET),
      m_receiveInRtr(false),
      m_error(MrcQpError::NONE),
      m_nextWqeSeq(0),
      m_nextWqeByte(0),
      m_tracedRate(0),
      m_tracedCwnd(0)
{
}

MrcQueuePair::~MrcQueuePair() = default;

void
MrcQueuePair::DoDispose()
{
    m_nic = nullptr;
    m_ccOps = nullptr;
    m_ccPrototype = nullptr;
    m_pathSelector = nullptr;
    m_cc.notifyChanged = Callback<void>();
    m_completionCb = CompletionCallback();
    m_receiveCb = ReceiveCallback();
    m_sendQueue.clear();
    Object::DoDispose();
}

void
MrcQueuePair::SetNic(Ptr<MrcRdmaNic> nic, uint32_t qpn)
{
    m_nic = nic;
    m_qpn = qpn;
}

void
MrcQueuePair::Connect(Ipv6Address remoteAddress, uint32_t remoteQpn, uint32_t remoteInitialPsn)
{
    Connect(std::vector<Ipv6Address>{remoteAddress}, remoteQpn, remoteInitialPsn);
}

void
MrcQueuePair::Connect(const std::vector<Ipv6Address>& remoteAddresses,
                      uint32_t remoteQpn,
                      uint32_t remoteInitialPsn)
{
    NS_LOG_FUNCTION(this << remoteQpn);
    NS_ABORT_MSG_IF(!m_nic, "MrcQueuePair::Connect: QP is not attached to a NIC");
    NS_ABORT_MSG_IF(m_state != MrcQpState::RESET && m_state != MrcQpState::INIT,
                    "MrcQueuePair::Connect: QP " << m_qpn << " is already connected (state "
                                                 << m_state << ")");
    if (m_state == MrcQpState::RESET)
    {
        ModifyToInit();
    }
    ModifyToRtr(remoteAddresses, remoteQpn, remoteInitialPsn);
    ModifyToRts();
}

void
MrcQueuePair::SetState(MrcQpState to)
{
    if (to == m_state)
    {
        return;
    }
    const MrcQpState from = m_state;
    m_state = to;
    m_stateTrace(m_qpn, from, to);
}

void
MrcQueuePair::ModifyToInit()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_nic, "MrcQueuePair::ModifyToInit: QP is not attached to a NIC");
    NS_ABORT_MSG_IF(m_state != MrcQpState::RESET,
                    "MrcQueuePair::ModifyToInit: QP " << m_qpn << " is in state " << m_state
                                                      << "; INIT is reached only from RESET");
    SetState(MrcQpState::INIT);
}

void
MrcQueuePair::ModifyToRts()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_state != MrcQpState::RTR,
                    "MrcQueuePair::ModifyToRts: QP " << m_qpn << " is in state " << m_state
                                                     << "; RTS is reached only from RTR");
    DoModifyToRts();
    SetState(MrcQpState::RTS);
    NotifyReady();
}

void
MrcQueuePair::DoModifyToRts()
{
}

void
MrcQueuePair::ModifyToRtr(const std::vector<Ipv6Address>& remoteAddresses,
                          uint32_t remoteQpn,
                          uint32_t remoteInitialPsn)
{
    NS_LOG_FUNCTION(this << remoteQpn);
    NS_ABORT_MSG_IF(!m_nic, "MrcQueuePair::ModifyToRtr: QP is not attached to a NIC");
    NS_ABORT_MSG_IF(m_state != MrcQpState::INIT,
                    "MrcQueuePair::ModifyToRtr: QP " << m_qpn << " is in state " << m_state
                                                     << "; RTR is reached only from INIT");
    NS_ABORT_MSG_IF(remoteAddresses.empty(),
                    "MrcQueuePair::Connect: QP " << m_qpn << ": no remote address");
    NS_ABORT_MSG_IF(remoteQpn > 0xffffff,
                    "MrcQueuePair::Connect: remote QPN " << remoteQpn
                                                         << " does not fit in 24 bits");
    NS_ABORT_MSG_IF(m_nic->GetNPorts() == 0,
                    "MrcQueuePair::Connect: the NIC of QP " << m_qpn << " has no ports");
    NS_ABORT_MSG_IF(remoteInitialPsn > 0xffffff,
                    "MrcQueuePair::Connect: remote initial PSN " << remoteInitialPsn
                                                                 << " does not fit in 24 bits");
    m_remoteAddress = remoteAddresses;
    m_remoteAddressBytes.assign(remoteAddresses.begin(), remoteAddresses.end());
    m_remoteQpn = remoteQpn;
    m_remoteInitialPsn = remoteInitialPsn;

    if (m_ccPrototype)
    {
        m_ccOps = m_ccPrototype->Fork();
    }
    else
    {
        NS_ABORT_MSG_UNLESS(m_ccTypeId.IsChildOf(MrcCongestionOps::GetTypeId()),
                            "MrcQueuePair: CongestionControl " << m_ccTypeId.GetName()
                                                               << " is not a subclass of "
                                                                  "ns3::MrcCongestionOps");
        ObjectFactory f(m_ccTypeId.GetName());
        m_ccOps = f.Create<MrcCongestionOps>();
    }
    if (!m_pathSelector && m_pathTypeId.GetUid() != 0)
    {
        // (a transport without the PathSelector attribute chooses its paths itself)
        NS_ABORT_MSG_UNLESS(m_pathTypeId.IsChildOf(MrcPathSelector::GetTypeId()),
                            "MrcQueuePair: PathSelector " << m_pathTypeId.GetName()
                                                          << " is not a subclass of "
                                                             "ns3::MrcPathSelector");
        ObjectFactory pf(m_pathTypeId.GetName());
        m_pathSelector = pf.Create<MrcPathSelector>();
    }
    if (m_pathSelector)
    {
        if (m_assignedPort != MrcPathSelector::NO_PORT)
        {
            m_pathSelector->AssignPort(m_assignedPort);
        }
        m_pathSelector->Init(m_qpn, m_remoteQpn, m_nic->GetNPorts());
    }

    uint64_t bps = 0;
    for (uint32_t p = 0; p < m_nic->GetNPorts(); ++p)
    {
        if (UsesPort(p))
        {
            bps += m_nic->GetDevice(p)->GetDataRate().GetBitRate();
        }
    }
    NS_ABORT_MSG_IF(bps == 0, "MrcQueuePair: QP " << m_qpn << " uses no port with a rate");
    m_cc.lineRate = DataRate(bps);
    m_cc.mtu = m_mtu;
    m_cc.baseRtt = m_baseRtt;
    m_cc.rate = m_cc.lineRate;
    m_cc.notifyChanged = MakeCallback(&MrcQueuePair::CcChanged, this);
    m_ccOps->Init(m_cc);
    SetState(MrcQpState::RTR);
    DoConnect();
    m_nic->NotifyConnected(this); // listeners (a controller) follow the connected QP
    TraceCc();
}

bool
MrcQueuePair::PostSend(const MrcWorkRequest& wr)
{
    NS_LOG_FUNCTION(this << wr.id << wr.length);
    if (m_state != MrcQpState::RTS)
    {
        std::ostringstream why;
        why << "QP " << m_qpn << " is in state " << m_state << ": PostSend needs RTS"
            << (m_state == MrcQpState::ERROR ? " (the QP failed: " + m_errorReason + ")"
                                             : std::string(" (call Connect or ModifyToRts)"))
            << "; work request " << wr.id << " refused";
        m_postSendError = why.str();
        NS_LOG_LOGIC(m_postSendError);
        return false;
    }
    m_postSendError.clear();
    MrcSendWqe wqe;
    wqe.wr = wr;
    wqe.posted = MrcNow();
    wqe.firstSeq = m_nextWqeSeq;
    wqe.nPackets = PacketsFor(wr);
    wqe.firstByte = m_nextWqeByte;
    m_nextWqeSeq += wqe.nPackets;
    m_nextWqeByte += wr.length;
    m_sendQueue.push_back(wqe);
    DoPostSend(m_sendQueue.back());
    return true;
}

uint32_t
MrcQueuePair::PacketsFor(const MrcWorkRequest& wr) const
{
    return wr.length == 0 ? 1 : static_cast<uint32_t>((uint64_t(wr.length) + m_mtu - 1) / m_mtu);
}

void
MrcQueuePair::SetCompletionCallback(CompletionCallback cb)
{
    m_completionCb = cb;
}

void
MrcQueuePair::SetReceiveCallback(ReceiveCallback cb)
{
    m_receiveCb = cb;
}

uint32_t
MrcQueuePair::GetQpn() const
{
    return m_qpn;
}

uint32_t
MrcQueuePair::GetRemoteQpn() const
{
    return m_remoteQpn;
}

uint32_t
MrcQueuePair::GetInitialPsn() const
{
    return m_initialPsn;
}

uint32_t
MrcQueuePair::GetRemoteInitialPsn() const
{
    return m_remoteInitialPsn;
}

Ptr<MrcRdmaNic>
MrcQueuePair::GetNic() const
{
    return m_nic;
}

Ipv6Address
MrcQueuePair::GetRemoteAddress(uint32_t port) const
{
    if (m_remoteAddress.empty())
    {
        return Ipv6Address::GetAny();
    }
    return port < m_remoteAddress.size() ? m_remoteAddress[port] : m_remoteAddress[0];
}

const MrcIpv6Bytes&
MrcQueuePair::GetRemoteAddressBytes(uint32_t port) const
{
    static const MrcIpv6Bytes any; // Ipv6Address::GetAny(), "::"
    if (m_remoteAddressBytes.empty())
    {
        return any;
    }
    return port < m_remoteAddressBytes.size() ? m_remoteAddressBytes[port]
                                              : m_remoteAddressBytes[0];
}

const std::string&
MrcQueuePair::GetPostSendError() const
{
    return m_postSendError;
}

MrcQpState
MrcQueuePair::GetState() const
{
    return m_state;
}

MrcQpError
MrcQueuePair::GetError() const
{
    return m_error;
}

std::string
MrcQueuePair::GetErrorReason() const
{
    return m_errorReason;
}

const MrcQpCounters&
MrcQueuePair::GetCounters() const
{
    return m_counters;
}

std::size_t
MrcQueuePair::GetOutstandingRequests() const
{
    return m_sendQueue.size();
}

const MrcCcState&
MrcQueuePair::GetCcState() const
{
    return m_cc;
}

Ptr<MrcCongestionOps>
MrcQueuePair::GetCongestionOps() const
{
    return m_ccOps;
}

Ptr<MrcPathSelector>
MrcQueuePair::GetPathSelector() const
{
    return m_pathSelector;
}

void
MrcQueuePair::SetCongestionOpsPrototype(Ptr<MrcCongestionOps> prototype)
{
    NS_ABORT_MSG_IF(m_state != MrcQpState::RESET,
                    "MrcQueuePair::SetCongestionOpsPrototype: QP " << m_qpn
                                                                   << " is already connected");
    m_ccPrototype = prototype;
}

void
MrcQueuePair::SetPathSelector(Ptr<MrcPathSelector> selector)
{
    NS_ABORT_MSG_IF(m_state != MrcQpState::RESET,
                    "MrcQueuePair::SetPathSelector: QP " << m_qpn << " is already connected");
    m_pathSelector = selector;
}

void
MrcQueuePair::AssignPort(uint32_t port)
{
    NS_ABORT_MSG_IF(m_state != MrcQpState::RESET,
                    "MrcQueuePair::AssignPort: QP " << m_qpn << " is already connected");
    m_assignedPort = port;
}

bool
MrcQueuePair::UsesPort(uint32_t port) const
{
    return m_pathSelector && m_pathSelector->UsesPort(port);
}

void
MrcQueuePair::DoConnect()
{
}

void
MrcQueuePair::DoPostSend(MrcSendWqe& /* wqe */)
{
    NotifyReady();
}

void
MrcQueuePair::DoEnterError()
{
}

void
MrcQueuePair::NotifyReady()
{
    if (m_nic && m_state == MrcQpState::RTS)
    {
        m_nic->NotifyReady(this);
    }
}

MrcTxPacket
MrcQueuePair::BuildNextPacket(uint32_t port)
{
    if (m_state != MrcQpState::RTS)
    {
        return MrcTxPacket();
    }
    MrcTxPacket tx = DoBuildNextPacket(port);
    if (tx.packet)
    {
        ++m_counters.dataPacketsSent;
        m_counters.dataBytesSent += tx.payloadBytes;
        if (tx.retransmission)
        {
            ++m_counters.retransmittedPackets;
            m_counters.retransmittedBytes += tx.payloadBytes;
        }
        TraceTx(tx.packet);
    }
    return tx;
}

void
MrcQueuePair::Receive(const MrcRxPacket& rx)
{
    if (!m_rxTrace.IsEmpty())
    {
        MrcWriteIpv6Edits(rx.packet, rx.edits); // the trace sees the bytes as sent
        m_rxTrace(rx.packet);
    }
    if (IsReceiving())
    {
        DoReceive(rx);
    }
}

void
MrcQueuePair::SendControl(uint32_t port, Ptr<Packet> p, uint8_t dscp, uint8_t kind)
{
    m_counters.acksSent += (kind & CONTROL_ACK) ? 1 : 0;
    m_counters.naksSent += (kind & CONTROL_NAK) ? 1 : 0;
    m_counters.cnpsSent += (kind & CONTROL_CNP) ? 1 : 0;
    TraceTx(p);
    m_nic->SendControlFrame(port, p, dscp);
}

void
MrcQueuePair::TraceTx(const Ptr<Packet>& frame) const
{
    if (!m_txTrace.IsEmpty())
    {
        // the trace sees the packet from its IPv6 header, as before frames were built here
        Ptr<Packet> packet = frame->Copy();
        packet->RemoveAtStart(MrcRawHeader::ETHERNET_BYTES);
        m_txTrace(packet);
    }
}

void
MrcQueuePair::CompleteFront(MrcWcStatus status)
{
    NS_ASSERT(!m_sendQueue.empty());
    const MrcSendWqe& wqe = m_sendQueue.front();
    MrcWorkCompletion wc;
    wc.wrId = wqe.wr.id;
    wc.qpn = m_qpn;
    wc.status = status;
    wc.opcode = wqe.wr.opcode;
    wc.bytes = wqe.wr.length;
    wc.start = wqe.posted;
    wc.end = MrcNow();
    m_sendQueue.pop_front();
    if (status == MrcWcStatus::SUCCESS)
    {
        ++m_counters.messagesCompleted;
    }
    NS_LOG_LOGIC("QP " << m_qpn << " completes wr " << wc.wrId << " " << status);
    m_completionTrace(wc);
    if (!m_completionCb.IsNull())
    {
        m_completionCb(wc);
    }
}

void
MrcQueuePair::ReportReceived(const MrcRecvCompletion& rc)
{
    ++m_counters.messagesReceived;
    m_receivedTrace(rc);
    if (!m_receiveCb.IsNull())
    {
        m_receiveCb(rc);
    }
}

void
MrcQueuePair::EnterError(MrcQpError error, const std::string& reason, MrcWcStatus firstStatus)
{
    if (m_state == MrcQpState::ERROR)
    {
        return;
    }
    NS_LOG_FUNCTION(this << m_qpn << error << reason);
    m_error = error;
    m_errorReason = reason;
    SetState(MrcQpState::ERROR);
    DoEnterError();
    m_errorTrace(m_qpn, error, reason);
    bool first = true;
    while (!m_sendQueue.empty())
    {
        CompleteFront(first ? firstStatus : MrcWcStatus::FLUSHED);
        first = false;
    }
}

void
MrcQueuePair::TraceCc()
{
    const uint64_t bps = m_cc.rate.GetBitRate();
    if (bps != m_tracedRate || m_cc.cwnd != m_tracedCwnd)
    {
        m_tracedRate = bps;
        m_tracedCwnd = m_cc.cwnd;
        m_ccTrace(m_qpn, bps, m_cc.cwnd);
    }
}

void
MrcQueuePair::CcChanged()
{
    TraceCc();
    NotifyReady();
}

Ptr<Packet>
MrcQueuePair::MakeWritePayload(uint32_t len, bool withImm, uint32_t immediate)
{
    Ptr<Packet> p = NewPacket(len);
    if (withImm)
    {
        MrcImmDtHeader immDt;
        immDt.SetImmediate(immediate);
        p->AddHeader(immDt);
    }
    return p;
}

Ptr<Packet>
MrcQueuePair::NewPacket(uint32_t payloadBytes)
{
    return Create<Packet>(payloadBytes + MrcIcrcTrailer::SERIALIZED_SIZE);
}

void
MrcQueuePair::AddIpUdpIcrc(Ptr<Packet> p,
                           const MrcIpv6Bytes& src,
                           const MrcIpv6Bytes& dst,
                           uint8_t dscp,
                           MrcEcn ecn,
                           uint32_t flowLabel,
                           uint16_t udpSrcPort,
                           std::initializer_list<const MrcWireHeader*> transport,
                           const MrcUsidCarrier* srv6) const
{
    PutIpUdpIcrc(p, src, dst, dscp, ecn, flowLabel, udpSrcPort, transport, srv6, nullptr, false);
}

void
MrcQueuePair::AddFrameHeaders(Ptr<Packet> p,
                              uint32_t port,
                              const MrcIpv6Bytes& src,
                              const MrcIpv6Bytes& dst,
                              uint8_t dscp,
                              MrcEcn ecn,
                              uint32_t flowLabel,
                              uint16_t udpSrcPort,
                              std::initializer_list<const MrcWireHeader*> transport,
                              const MrcUsidCarrier* srv6) const
{
    uint8_t eth[MrcRawHeader::ETHERNET_BYTES];
    m_nic->WriteEthernetHeader(port, eth);
    if (!PutIpUdpIcrc(p, src, dst, dscp, ecn, flowLabel, udpSrcPort, transport, srv6, eth, true))
    {
        // after a computed ICRC or UDP checksum, or an SRv6 encapsulation
        static MrcRawHeader scratch; // reused: see MrcRawHeader
        MrcRawHeader& h =
            MrcScratchHeader(scratch, MrcRawHeader::ETHERNET_BYTES, MrcRawHeader::ETHERNET);
        std::copy(eth, eth + MrcRawHeader::ETHERNET_BYTES, h.Bytes());
        p->AddHeader(h);
    }
}

bool
MrcQueuePair::PutIpUdpIcrc(Ptr<Packet> p,
                           const MrcIpv6Bytes& src,
                           const MrcIpv6Bytes& dst,
                           uint8_t dscp,
                           MrcEcn ecn,
                           uint32_t flowLabel,
                           uint16_t udpSrcPort,
                           std::initializer_list<const MrcWireHeader*> transport,
                           const MrcUsidCarrier* srv6,
                           const uint8_t* ethernet,
                           bool icrcInPayload) const
{
    NS_ASSERT_MSG(!icrcInPayload || p->GetSize() >= MrcIcrcTrailer::SERIALIZED_SIZE,
                  "MrcQueuePair: a " << p->GetSize() << "-byte packet has no room for its ICRC");
    if (icrcInPayload && m_nic->GetComputeIcrc())
    {
        // the computed ICRC is appended below, in place of the room
        p->RemoveAtEnd(MrcIcrcTrailer::SERIALIZED_SIZE);
        icrcInPayload = false;
    }
    uint32_t transportBytes = 0;
    for (const MrcWireHeader* h : transport)
    {
        transportBytes += h ? h->GetSerializedSize() : 0;
    }
    // the ICRC counts once, whether it is still to be added or already the packet's end
    const uint32_t udpLength = p->GetSize() + transportBytes + MRC_UDP_HEADER_BYTES +
                               (icrcInPayload ? 0 : MrcIcrcTrailer::SERIALIZED_SIZE);
    // UDP header (checksum 0 unless ComputeUdpChecksum: RoCEv2 does not use it; the
    // length field counts the ICRC) and IPv6 header (and the transport headers, if
    // given), written with one AddHeader.
    const uint16_t dstPort = m_nic->GetBthUdpPort();
    const uint8_t udp[MRC_UDP_HEADER_BYTES] = {static_cast<uint8_t>(udpSrcPort >> 8),
                                               static_cast<uint8_t>(udpSrcPort),
                                               static_cast<uint8_t>(dstPort >> 8),
                                               static_cast<uint8_t>(dstPort),
                                               static_cast<uint8_t>(udpLength >> 8),
                                               static_cast<uint8_t>(udpLength),
                                               0,
                                               0};
    MrcIpv6Fields ip;
    ip.trafficClass = MrcMakeTrafficClass(dscp, ecn);
    ip.flowLabel = flowLabel & MRC_FLOW_LABEL_MASK;
    ip.payloadLength = static_cast<uint16_t>(udpLength);
    ip.nextHeader = MrcIpProto::UDP;
    ip.hopLimit = 64;
    ip.src = src;
    ip.dst = dst;
    if (srv6 && !m_nic->GetComputeIcrc() && !m_nic->GetComputeUdpChecksum())
    {
        // Neither the ICRC nor the UDP checksum is computed over the inner packet, so
        // the outer IPv6 header can go in with the inner headers: the bytes of
        // MrcSrv6Encapsulate below (same traffic class and flow label, no SRH, the
        // default outer hop limit), one AddHeader.
        NS_ABORT_MSG_IF(flowLabel > MRC_FLOW_LABEL_MASK,
                        "flow label 0x" << std::hex << flowLabel << std::dec
                                        << " does not fit in 20 bits");
        const uint32_t outerPayload = MRC_IPV6_HEADER_BYTES + udpLength;
        NS_ABORT_MSG_IF(outerPayload > 0xffff,
                        "IPv6 payload of " << outerPayload << " bytes does not fit the 16-bit "
                                           << "length field (jumbograms are not modelled)");
        MrcIpv6Fields outer;
        outer.trafficClass = ip.trafficClass;
        outer.flowLabel = flowLabel;
        outer.payloadLength = static_cast<uint16_t>(outerPayload);
        outer.nextHeader = MRC_IPV6_IN_IPV6;
        outer.hopLimit = MRC_SRV6_DEFAULT_HOP_LIMIT;
        outer.src = ip.src;
        srv6->GetBytes(outer.dst.bytes);
        MrcAddIpv6InIpv6Header(p, outer, ip, udp, MRC_UDP_HEADER_BYTES, transport, ethernet);
        if (!icrcInPayload)
        {
            p->AddTrailer(MrcIcrcTrailer(0));
        }
        return ethernet != nullptr;
    }
    // The Ethernet header goes in front now unless something is computed over the IPv6
    // packet first (ICRC, UDP checksum) or an outer header follows (SRv6 then).
    const bool last = !srv6 && !m_nic->GetComputeIcrc() && !m_nic->GetComputeUdpChecksum();
    const uint8_t* eth = last ? ethernet : nullptr;
    if (transport.size() > 0)
    {
        MrcAddIpv6Header(p, ip, udp, MRC_UDP_HEADER_BYTES, transport, eth);
    }
    else
    {
        MrcAddIpv6Header(p, ip, udp, MRC_UDP_HEADER_BYTES, eth);
    }
    if (m_nic->GetComputeIcrc())
    {
        MrcIcrcTrailer::Append(p);
    }
    else if (!icrcInPayload)
    {
        p->AddTrailer(MrcIcrcTrailer(0));
    }
    if (m_nic->GetComputeUdpChecksum())
    {
        // Last: the checksum covers the ICRC, and the ICRC masks the checksum.
        MrcUdpChecksum::Fill(p);
    }
    if (srv6)
    {
        MrcSrv6Encapsulate(p, ip.trafficClass, flowLabel, src.ToAddress(), *srv6);
    }
    return eth != nullptr;
}

int32_t
MrcQueuePair::PsnDiff(uint32_t a, uint32_t b)
{
    const uint32_t d = (a - b) & 0xffffff;
    return d >= 0x800000 ? static_cast<int32_t>(d) - 0x1000000 : static_cast<int32_t>(d);
}

uint64_t
MrcQueuePair::Unwrap(uint32_t psn, uint64_t reference)
{
    const int32_t d = PsnDiff(psn, static_cast<uint32_t>(reference & 0xffffff));
    if (d < 0 && static_cast<uint64_t>(-static_cast<int64_t>(d)) > reference)
    {
        return 0; // before the start of the sequence space
    }
    return static_cast<uint64_t>(static_cast<int64_t>(reference) + d);
}

} // namespace ns3
