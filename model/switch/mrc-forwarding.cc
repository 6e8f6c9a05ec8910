/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-forwarding.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcForwarding");

NS_OBJECT_ENSURE_REGISTERED(MrcForwarding);

TypeId
MrcForwarding::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcForwarding").SetParent<Object>().SetGroupName("Mrc");
    return tid;
}

MrcForwarding::MrcForwarding()
{
    NS_LOG_FUNCTION(this);
}

MrcForwarding::~MrcForwarding()
{
    NS_LOG_FUNCTION(this);
}

int32_t
MrcForwarding::Route(MrcPacketInfo& info, uint32_t inPort)
{
    const int32_t port = DoRoute(info, inPort);
    if (port < 0)
    {
        m_noRoute++;
        NS_LOG_LOGIC("no route to " << info.dst << " (arrived on port " << inPort << ")");
        return NO_ROUTE;
    }
    return port;
}

void
MrcForwarding::SetPortState(uint32_t port, bool up)
{
    NS_LOG_FUNCTION(this << port << up);
}

uint64_t
MrcForwarding::GetNoRouteCount() const
{
    return m_noRoute;
}

void
MrcForwarding::SetPortLoadCallback(PortLoadCallback cb)
{
    m_portLoad = cb;
}

uint64_t
MrcForwarding::GetPortLoad(uint32_t port) const
{
    return m_portLoad.IsNull() ? 0 : m_portLoad(port);
}

} // namespace ns3
