/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-remote-port.h"

#include "mrc-channel.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcRemotePort");

NS_OBJECT_ENSURE_REGISTERED(MrcRemotePort);

TypeId
MrcRemotePort::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcRemotePort")
                            .SetParent<NetDevice>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcRemotePort>();
    return tid;
}

MrcRemotePort::MrcRemotePort()
{
    NS_LOG_FUNCTION(this);
}

MrcRemotePort::~MrcRemotePort()
{
    NS_LOG_FUNCTION(this);
}

void
MrcRemotePort::DoDispose()
{
    m_node = nullptr;
    m_channel = nullptr;
    NetDevice::DoDispose();
}

void
MrcRemotePort::Attach(Ptr<MrcChannel> channel)
{
    NS_ABORT_MSG_IF(m_channel, "MrcRemotePort::Attach: the far end is already attached");
    m_channel = channel;
    channel->AttachRemote(this);
}

void
MrcRemotePort::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
MrcRemotePort::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
MrcRemotePort::GetChannel() const
{
    return m_channel;
}

void
MrcRemotePort::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
MrcRemotePort::GetAddress() const
{
    return m_address;
}

Mac48Address
MrcRemotePort::GetMacAddress() const
{
    return m_address;
}

bool
MrcRemotePort::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
MrcRemotePort::GetMtu() const
{
    return m_mtu;
}

bool
MrcRemotePort::IsLinkUp() const
{
    return m_channel && m_channel->IsLinkUp();
}

void
MrcRemotePort::AddLinkChangeCallback(Callback<void> callback)
{
    (void)callback; // the far rank's device tells its own listeners
}

bool
MrcRemotePort::IsBroadcast() const
{
    return true;
}

Address
MrcRemotePort::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
MrcRemotePort::IsMulticast() const
{
    return true;
}

Address
MrcRemotePort::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
MrcRemotePort::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
MrcRemotePort::IsBridge() const
{
    return false;
}

bool
MrcRemotePort::IsPointToPoint() const
{
    return true;
}

bool
MrcRemotePort::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    NS_FATAL_ERROR("MrcRemotePort::Send: the far end of a link to another rank cannot send "
                   "(its device is on rank "
                   << (m_node ? m_node->GetSystemId() : 0) << ")");
    (void)packet;
    (void)dest;
    (void)protocolNumber;
    return false;
}

bool
MrcRemotePort::SendFrom(Ptr<Packet> packet,
                        const Address& source,
                        const Address& dest,
                        uint16_t protocolNumber)
{
    (void)source;
    return Send(packet, dest, protocolNumber);
}

Ptr<Node>
MrcRemotePort::GetNode() const
{
    return m_node;
}

void
MrcRemotePort::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
MrcRemotePort::NeedsArp() const
{
    return false;
}

void
MrcRemotePort::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    (void)cb;
}

void
MrcRemotePort::SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb)
{
    (void)cb;
}

bool
MrcRemotePort::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
