/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-endpoint-ops.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcEndpointOps");

NS_OBJECT_ENSURE_REGISTERED(MrcEndpointOps);

TypeId
MrcEndpointOps::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcEndpointOps")
                            .SetParent<Object>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcEndpointOps>();
    return tid;
}

MrcEndpointOps::MrcEndpointOps() = default;

MrcEndpointOps::~MrcEndpointOps() = default;

bool
MrcEndpointOps::ReceiveEndpoint(const MrcRxPacket& rx)
{
    NS_LOG_FUNCTION(this << rx.destQp);
    return false;
}

MrcEndpointStats
MrcEndpointOps::GetEndpointStats() const
{
    return MrcEndpointStats();
}

uint16_t
MrcEndpointOps::GetRequestId(Ipv6Address /* peer */) const
{
    return 0;
}

} // namespace ns3
