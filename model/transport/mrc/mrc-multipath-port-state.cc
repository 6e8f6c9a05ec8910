/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MrcMultipathQueuePair, part of its implementation (see mrc-multipath-queue-pair.h):
// Port state: a local link going down or up, Port Status Updates (run by the NIC's
// MrcPortStatusAgent in both scopes) and the peer's reachable ports.

#include "mrc-multipath-queue-pair.h"
#include "mrc-port-status-agent.h"

#include "ns3/log.h"
#include "ns3/mrc-erth-header.h"
#include "ns3/mrc-rdma-nic.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcMultipathPortState");

void
MrcMultipathQueuePair::LocalLinkChanged(uint32_t port)
{
    if (!m_paths || (m_state != MrcQpState::RTS && m_state != MrcQpState::RTR))
    {
        return;
    }
    if (m_portRemapDelay.IsStrictlyPositive())
    {
        // the NIC notices late (CX8: seconds); the state is read again when the delay ends
        Ptr<MrcMultipathQueuePair> self(this);
        Simulator::Schedule(m_portRemapDelay, [self, port]() { self->ApplyLocalPortState(port); });
        return;
    }
    ApplyLocalPortState(port);
}

void
MrcMultipathQueuePair::ApplyLocalPortState(uint32_t port)
{
    if (!m_paths || (m_state != MrcQpState::RTS && m_state != MrcQpState::RTR))
    {
        return;
    }
    const bool up = m_nic->GetDevice(port)->IsLinkUp();
    NS_LOG_LOGIC("QP " << m_qpn << ": local port " << port << (up ? " up" : " down"));
    m_paths->SetLocalPortUp(port, up);
    if (m_portStatusUpdates)
    {
        SendPortStatus();
    }
    NotifyReady();
}

bool
MrcMultipathQueuePair::GetPortStatusUpdates() const
{
    return m_portStatusUpdates;
}

Time
MrcMultipathQueuePair::GetPortStatusTimeout() const
{
    return m_portStatusTimeout;
}

uint32_t
MrcMultipathQueuePair::GetPortStatusAttempts() const
{
    return m_portStatusTries;
}

bool
MrcMultipathQueuePair::ApplyPeerPortMask(uint32_t mask)
{
    if (!m_paths || (m_state != MrcQpState::RTS && m_state != MrcQpState::RTR))
    {
        return false;
    }
    ++m_mpCounters.portStatusReceived;
    for (uint32_t p = 0; p < m_nic->GetNPorts() && p < MrcErthHeader::MAX_PORT; ++p)
    {
        if (m_paths->UsesPort(p))
        {
            m_paths->SetRemotePortUp(p, (mask & MrcErthHeader::PortBit(p + 1)) != 0);
        }
    }
    return true;
}

void
MrcMultipathQueuePair::ApplyPeerPortStatus(uint32_t mask)
{
    if (ApplyPeerPortMask(mask))
    {
        NotifyReady();
    }
}

bool
MrcMultipathQueuePair::SendEndpointPacket(uint32_t port, Ptr<Packet> p)
{
    if (!m_paths || (m_state != MrcQpState::RTS && m_state != MrcQpState::RTR))
    {
        return false;
    }
    SendReverse(port, p, 0);
    return true;
}

void
MrcMultipathQueuePair::SendPortStatus()
{
    // scope Nic: one update per peer NIC at the end of this instant; Qp: this QP's own now
    m_portStatus->LocalPortsChanged(this, &m_mpCounters);
}

void
MrcMultipathQueuePair::ReceivePortStatusResponse(const MrcRxPacket& rx)
{
    m_portStatus->ReceiveResponseAtQp(this, rx);
}

void
MrcMultipathQueuePair::ReceivePortStatus(const MrcRxPacket& rx)
{
    if (m_portStatus->ReceiveRequestAtQp(this, rx))
    {
        NotifyReady();
    }
}

void
MrcMultipathQueuePair::SetRemotePortUp(uint32_t plane, bool up)
{
    if (m_paths)
    {
        m_paths->SetRemotePortUp(plane, up);
        NotifyReady();
    }
}

} // namespace ns3
