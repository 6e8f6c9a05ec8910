/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-port-status-agent.h"

#include "mrc-multipath-queue-pair.h"

#include "ns3/abort.h"
#include "ns3/buffer.h"
#include "ns3/log.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-eeth-header.h"
#include "ns3/mrc-erth-header.h"
#include "ns3/mrc-icrc-trailer.h"
#include "ns3/mrc-opcodes.h"
#include "ns3/mrc-rdma-nic.h"
#include "ns3/mrc-tseth-header.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcPortStatusAgent");

NS_OBJECT_ENSURE_REGISTERED(MrcPortStatusAgent);

namespace
{

/// Read the fixed-size extension header H that follows the BTH of an arrival.
/// \return false if the packet is too short
template <typename H>
bool
ReadExtHeader(const MrcRxPacket& rx, H& h)
{
    if (rx.packet->GetSize() < rx.extOffset + H::SIZE)
    {
        return false;
    }
    uint8_t bytes[H::SIZE];
    rx.packet->CreateFragment(rx.extOffset, H::SIZE)->CopyData(bytes, H::SIZE);
    Buffer b;
    b.AddAtStart(H::SIZE);
    b.Begin().Write(bytes, H::SIZE);
    h.Deserialize(b.Begin());
    return true;
}

/// Read the ERTH of a Port Status Update request. \return false if it is none
bool
ReadUpdate(const MrcRxPacket& rx, MrcErthHeader& erth)
{
    return ReadExtHeader(rx, erth) && erth.GetOp() == MrcEndpointOp::PORT_STATUS_UPDATE;
}

/// Read the EETH of a Port Status Update response. \return false if it is none
bool
ReadAnswer(const MrcRxPacket& rx, MrcEethHeader& eeth)
{
    return ReadExtHeader(rx, eeth) && eeth.GetOp() == MrcEndpointOp::PORT_STATUS_UPDATE;
}

/// \param qp a queue pair \return it as an MRC QP if it is one and connected, else null
Ptr<MrcMultipathQueuePair>
LiveMrcQp(const Ptr<MrcQueuePair>& qp)
{
    const MrcQpState st = qp->GetState();
    if (st != MrcQpState::RTS && st != MrcQpState::RTR)
    {
        return nullptr;
    }
    return DynamicCast<MrcMultipathQueuePair>(qp);
}

/// \param rx an arrival \return its sender's address (inner source when encapsulated)
Ipv6Address
SourceOf(const MrcRxPacket& rx)
{
    return (rx.info->encapsulated ? rx.info->innerSrc : rx.info->src).ToAddress();
}

} // namespace

TypeId
MrcPortStatusAgent::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcPortStatusAgent")
            .SetParent<MrcEndpointOps>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcPortStatusAgent>()
            .AddTraceSource("PortStatusTx",
                            "A NIC-scope Port Status Update left (first attempt or resend): "
                            "the peer NIC's port-0 address, the request id, the mask.",
                            MakeTraceSourceAccessor(&MrcPortStatusAgent::m_txTrace),
                            "ns3::MrcPortStatusAgent::PortStatusTracedCallback");
    return tid;
}

MrcPortStatusAgent::MrcPortStatusAgent() = default;

MrcPortStatusAgent::~MrcPortStatusAgent() = default;

void
MrcPortStatusAgent::DoDispose()
{
    m_flush.Cancel();
    for (auto& s : m_sessions)
    {
        StopTimer(s);
        s.qp = nullptr;
        s.counters = nullptr;
    }
    m_sessions.clear();
    m_qpSession.clear();
    m_nic = nullptr;
    MrcEndpointOps::DoDispose();
}

Ptr<MrcPortStatusAgent>
MrcPortStatusAgent::Install(Ptr<MrcRdmaNic> nic)
{
    NS_ABORT_MSG_IF(!nic, "MrcPortStatusAgent::Install: null NIC");
    Ptr<MrcPortStatusAgent> agent =
        DynamicCast<MrcPortStatusAgent>(nic->GetEndpointHandler(MRC_ENDPOINT_QPN));
    if (agent)
    {
        return agent;
    }
    agent = CreateObject<MrcPortStatusAgent>();
    agent->m_nic = nic;
    nic->RegisterEndpointHandler(MRC_ENDPOINT_QPN, agent);
    return agent;
}

Ptr<MrcRdmaNic>
MrcPortStatusAgent::GetNic() const
{
    return m_nic;
}

// ---------------------------------------------------------------------------
// Packets
// ---------------------------------------------------------------------------

uint32_t
MrcPortStatusAgent::LocalPortMask(Ptr<const MrcRdmaNic> nic)
{
    uint32_t mask = 0;
    for (uint32_t p = 0; p < nic->GetNPorts() && p < MrcErthHeader::MAX_PORT; ++p)
    {
        if (nic->GetDevice(p)->IsLinkUp())
        {
            mask |= MrcErthHeader::PortBit(p + 1);
        }
    }
    return mask;
}

Ptr<Packet>
MrcPortStatusAgent::MakeRequest(uint32_t destQpn,
                                uint16_t id,
                                uint32_t mask,
                                Time now,
                                bool icrcRoom)
{
    MrcErthHeader erth;
    erth.SetOp(MrcEndpointOp::PORT_STATUS_UPDATE);
    erth.SetPortStatusMask(mask);
    erth.SetTxTimestamp(MrcTsethHeader::TimeToTicks(now));
    Ptr<Packet> p = Create<Packet>(icrcRoom ? MrcIcrcTrailer::SERIALIZED_SIZE : 0);
    p->AddHeader(erth);
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::MRC_ENDPOINT_REQUEST);
    bth.SetDestQp(destQpn);
    bth.SetPsn(id); // request id in PSN[15:0]; consumes no PSN
    p->AddHeader(bth);
    return p;
}

Ptr<Packet>
MrcPortStatusAgent::MakeResponse(uint32_t destQpn, uint16_t id, uint16_t txTimestamp, bool icrcRoom)
{
    MrcEethHeader eeth;
    eeth.SetOp(MrcEndpointOp::PORT_STATUS_UPDATE);
    eeth.SetTxTimestamp(txTimestamp);
    Ptr<Packet> p = Create<Packet>(icrcRoom ? MrcIcrcTrailer::SERIALIZED_SIZE : 0);
    p->AddHeader(eeth);
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::MRC_ENDPOINT_RESPONSE);
    bth.SetDestQp(destQpn);
    bth.SetPsn(id);
    p->AddHeader(bth);
    return p;
}

// ---------------------------------------------------------------------------
// Sending: one state machine for both scopes
// ---------------------------------------------------------------------------

void
MrcPortStatusAgent::LocalPortsChanged(Ptr<MrcMultipathQueuePair> qp, MrcMultipathCounters* counters)
{
    NS_ASSERT(m_nic);
    if (m_nic->GetPortStatusScope() == MrcRdmaNic::PORT_STATUS_NIC)
    {
        if (m_flush.IsExpired())
        {
            // after every QP that sees the same change at this instant has remapped
            m_flush = Simulator::ScheduleNow(&MrcPortStatusAgent::Flush, this);
        }
        return;
    }
    auto it = m_qpSession.find(qp->GetQpn());
    if (it == m_qpSession.end())
    {
        Session s;
        s.perQp = true;
        s.qp = qp;
        s.counters = counters;
        it = m_qpSession.emplace(qp->GetQpn(), m_sessions.size()).first;
        m_sessions.push_back(s);
    }
    Start(it->second, LocalPortMask(m_nic), qp->GetPortStatusAttempts());
}

std::size_t
MrcPortStatusAgent::FindPeer(Ipv6Address peer) const
{
    std::size_t i = 0;
    while (i < m_sessions.size() && (m_sessions[i].perQp || m_sessions[i].addresses[0] != peer))
    {
        ++i;
    }
    return i;
}

void
MrcPortStatusAgent::Flush()
{
    const uint32_t mask = LocalPortMask(m_nic);
    // the peers: one per distinct peer address on port 0 among the live MRC QPs
    std::vector<bool> due(m_sessions.size(), false);
    for (const auto& qp : m_nic->GetQueuePairs())
    {
        Ptr<MrcMultipathQueuePair> mp = LiveMrcQp(qp);
        if (!mp || !mp->GetPortStatusUpdates() || m_nic->GetNPorts() == 0)
        {
            continue;
        }
        const std::size_t i = FindPeer(mp->GetRemoteAddress(0));
        if (i == m_sessions.size())
        {
            Session s;
            for (uint32_t p = 0; p < m_nic->GetNPorts(); ++p)
            {
                s.addresses.push_back(mp->GetRemoteAddress(p));
            }
            m_sessions.push_back(s);
            due.push_back(false);
        }
        due[i] = true;
    }
    for (std::size_t i = 0; i < m_sessions.size(); ++i)
    {
        const Session& s = m_sessions[i];
        if (!due[i] || (s.sent && s.mask == mask))
        {
            continue; // no live QP to it, or it has (or is being sent) this mask already
        }
        Start(i, mask, Route(s)->GetPortStatusAttempts());
    }
}

Ptr<MrcMultipathQueuePair>
MrcPortStatusAgent::Route(const Session& s) const
{
    if (s.perQp)
    {
        return s.qp;
    }
    // scope Nic: the first live MRC QP with PortStatusUpdates connected to the peer
    for (const auto& qp : m_nic->GetQueuePairs())
    {
        Ptr<MrcMultipathQueuePair> mp = LiveMrcQp(qp);
        if (mp && mp->GetPortStatusUpdates() && !s.addresses.empty() &&
            mp->GetRemoteAddress(0) == s.addresses[0])
        {
            return mp;
        }
    }
    return nullptr;
}

void
MrcPortStatusAgent::Start(std::size_t index, uint32_t mask, uint32_t attempts)
{
    Session& s = m_sessions[index];
    StopTimer(s); // a new local state replaces an update still waiting for its response
    s.mask = mask;
    s.left = attempts;
    s.sent = true;
    s.pending = true;
    ++s.id;
    Transmit(index);
}

void
MrcPortStatusAgent::Transmit(std::size_t index)
{
    Session& s = m_sessions[index];
    Ptr<MrcMultipathQueuePair> qp = Route(s);
    uint32_t via = 0;
    while (via < m_nic->GetNPorts() && !m_nic->GetDevice(via)->IsLinkUp())
    {
        ++via;
    }
    if (!qp || via == m_nic->GetNPorts() || s.left == 0)
    {
        s.pending = false; // no QP or port left to tell the peer through, or no attempt left
        return;
    }
    Ptr<Packet> p = MakeRequest(s.perQp ? qp->GetRemoteQpn() : MRC_ENDPOINT_QPN,
                                s.id,
                                s.mask,
                                Simulator::Now(),
                                true);
    --s.left;
    if (s.perQp)
    {
        ++s.counters->portStatusSent;
        NS_LOG_LOGIC("QP " << qp->GetQpn() << ": Port Status Update " << s.id << " mask 0x"
                           << std::hex << s.mask << std::dec << " via port " << via);
    }
    else
    {
        ++m_stats.requestsSent;
        NS_LOG_LOGIC("Port Status Update " << s.id << " mask 0x" << std::hex << s.mask << std::dec
                                           << " to " << s.addresses[0] << " via port " << via);
        m_txTrace(s.addresses[0], s.id, s.mask);
    }
    qp->SendEndpointPacket(via, p);
    const Time timeout = qp->GetPortStatusTimeout();
    if (timeout.IsStrictlyPositive())
    {
        s.timer = Simulator::Schedule(timeout, &MrcPortStatusAgent::TimedOut, this, index);
    }
}

void
MrcPortStatusAgent::TimedOut(std::size_t index)
{
    Session& s = m_sessions[index];
    if (!s.pending || (s.perQp && !LiveMrcQp(s.qp)))
    {
        return;
    }
    if (s.left == 0)
    {
        NS_LOG_LOGIC("Port Status Update " << s.id << " unanswered after all attempts");
        s.pending = false;
        return;
    }
    if (s.perQp)
    {
        ++s.counters->portStatusResent;
    }
    else
    {
        ++m_stats.requestsResent;
    }
    Transmit(index);
}

bool
MrcPortStatusAgent::Answer(Session& s, uint16_t id)
{
    if (!s.pending || s.id != id)
    {
        return false; // an answer to an older attempt of a replaced update
    }
    if (s.perQp)
    {
        ++s.counters->portStatusAnswered;
    }
    else
    {
        ++m_stats.responsesMatched;
    }
    s.pending = false;
    StopTimer(s);
    return true;
}

void
MrcPortStatusAgent::StopTimer(Session& s)
{
    // Scope Qp removes the timer from the event list, scope Nic leaves it cancelled in
    // place (it still counts as executed when its time comes): each keeps the event count
    // of the exchange it replaces (mrc-sim's summary.json reports each transport's eventsExecuted).
    if (s.perQp)
    {
        Simulator::Remove(s.timer);
    }
    else
    {
        s.timer.Cancel();
    }
}

void
MrcPortStatusAgent::StopQp(uint32_t qpn)
{
    auto it = m_qpSession.find(qpn);
    if (it == m_qpSession.end())
    {
        return;
    }
    Session& s = m_sessions[it->second];
    StopTimer(s);
    s.pending = false;
    s.qp = nullptr;
    s.counters = nullptr;
    m_qpSession.erase(it);
}

// ---------------------------------------------------------------------------
// Receiving
// ---------------------------------------------------------------------------

bool
MrcPortStatusAgent::ReceiveRequestAtQp(Ptr<MrcMultipathQueuePair> qp, const MrcRxPacket& rx)
{
    MrcErthHeader erth;
    if (!ReadUpdate(rx, erth))
    {
        return false;
    }
    qp->ApplyPeerPortMask(erth.GetPortStatusMask());
    // answer on the port it came in on (a port the peer reaches): EETH, same request id
    qp->SendEndpointPacket(rx.port,
                           MakeResponse(qp->GetRemoteQpn(),
                                        MrcEndpointRequestIdOfPsn(rx.psn),
                                        erth.GetTxTimestamp(),
                                        true));
    return true;
}

void
MrcPortStatusAgent::ReceiveResponseAtQp(Ptr<MrcMultipathQueuePair> qp, const MrcRxPacket& rx)
{
    MrcEethHeader eeth;
    if (!ReadAnswer(rx, eeth))
    {
        return;
    }
    auto it = m_qpSession.find(qp->GetQpn());
    if (it != m_qpSession.end())
    {
        Answer(m_sessions[it->second], MrcEndpointRequestIdOfPsn(rx.psn));
    }
}

bool
MrcPortStatusAgent::ReceiveEndpoint(const MrcRxPacket& rx)
{
    if (!m_nic)
    {
        return false;
    }
    if (rx.opcode == MrcOpcode::MRC_ENDPOINT_REQUEST)
    {
        MrcErthHeader erth;
        if (!ReadUpdate(rx, erth))
        {
            return false;
        }
        const Ipv6Address src = SourceOf(rx);
        Ptr<MrcMultipathQueuePair> answerVia;
        for (const auto& qp : m_nic->GetQueuePairs())
        {
            Ptr<MrcMultipathQueuePair> mp = LiveMrcQp(qp);
            if (!mp || qp->GetRemoteAddress(rx.port) != src)
            {
                continue;
            }
            mp->ApplyPeerPortStatus(erth.GetPortStatusMask());
            if (!answerVia)
            {
                answerVia = mp;
            }
        }
        if (!answerVia)
        {
            return false; // no QP connected to the sender: nothing to apply or answer through
        }
        ++m_stats.requestsApplied;
        // one answer, on the port the request came in on (a port the peer reaches)
        Ptr<Packet> resp = MakeResponse(MRC_ENDPOINT_QPN,
                                        MrcEndpointRequestIdOfPsn(rx.psn),
                                        erth.GetTxTimestamp(),
                                        true);
        ++m_stats.responsesSent;
        answerVia->SendEndpointPacket(rx.port, resp);
        return true;
    }
    if (rx.opcode == MrcOpcode::MRC_ENDPOINT_RESPONSE)
    {
        MrcEethHeader eeth;
        if (!ReadAnswer(rx, eeth))
        {
            return false;
        }
        const Ipv6Address src = SourceOf(rx);
        for (auto& s : m_sessions)
        {
            if (!s.perQp && rx.port < s.addresses.size() && s.addresses[rx.port] == src)
            {
                Answer(s, MrcEndpointRequestIdOfPsn(rx.psn));
                return true; // answers to replaced updates are ignored
            }
        }
        return false;
    }
    return false;
}

MrcEndpointStats
MrcPortStatusAgent::GetEndpointStats() const
{
    return m_stats;
}

uint16_t
MrcPortStatusAgent::GetRequestId(Ipv6Address peer) const
{
    for (const auto& s : m_sessions)
    {
        if (!s.perQp &&
            std::find(s.addresses.begin(), s.addresses.end(), peer) != s.addresses.end())
        {
            return s.id;
        }
    }
    return 0;
}

} // namespace ns3
