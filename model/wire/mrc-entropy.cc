/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-entropy.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcEntropy");

std::string
MrcEvSplitToString(MrcEvSplit split)
{
    return split == MrcEvSplit::SRC_PORT_LOW ? "SRC_PORT_LOW" : "SRC_PORT_HIGH";
}

void
MrcEvWrite(uint32_t ev, MrcEvSplit split, UdpHeader& udp, Ipv6Header& ip)
{
    MrcEvWire w = MrcEvEncode(ev, split);
    udp.SetSourcePort(w.udpSrcPort);
    ip.SetFlowLabel(w.flowLabel);
}

uint32_t
MrcEvRead(const UdpHeader& udp, const Ipv6Header& ip, MrcEvSplit split)
{
    return MrcEvDecode(udp.GetSourcePort(), ip.GetFlowLabel(), split);
}

uint32_t
MrcSrv6EvMake(uint32_t plane, uint32_t uplink)
{
    NS_ABORT_MSG_IF(plane >= MRC_SRV6_EV_MAX_PLANES,
                    "SRv6 EV plane " << plane << " is out of range: allowed 0.."
                                     << MRC_SRV6_EV_MAX_PLANES - 1);
    NS_ABORT_MSG_IF(uplink >= MRC_SRV6_EV_MAX_UPLINKS,
                    "SRv6 EV T0 uplink " << uplink << " is out of range: allowed 0.."
                                         << MRC_SRV6_EV_MAX_UPLINKS - 1);
    return ((plane + 1) << MRC_SRV6_EV_PLANE_SHIFT) | uplink;
}

} // namespace ns3
