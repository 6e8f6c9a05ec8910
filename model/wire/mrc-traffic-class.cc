/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-traffic-class.h"

#include "ns3/abort.h"

namespace ns3
{

uint8_t
MrcGetDscp(const Ipv6Header& ip)
{
    return MrcDscpOf(ip.GetTrafficClass());
}

void
MrcSetDscp(Ipv6Header& ip, uint8_t dscp)
{
    NS_ABORT_MSG_IF(dscp > MrcDscp::MAX,
                    "DSCP " << unsigned(dscp) << " is out of range: allowed 0.." << 63);
    ip.SetTrafficClass(MrcMakeTrafficClass(dscp, MrcGetEcn(ip)));
}

MrcEcn
MrcGetEcn(const Ipv6Header& ip)
{
    return MrcEcnOf(ip.GetTrafficClass());
}

void
MrcSetEcn(Ipv6Header& ip, MrcEcn ecn)
{
    ip.SetTrafficClass(MrcMakeTrafficClass(MrcGetDscp(ip), ecn));
}

bool
MrcMarkCe(Ipv6Header& ip)
{
    if (!MrcIsEcnCapable(MrcGetEcn(ip)))
    {
        return false;
    }
    MrcSetEcn(ip, MrcEcn::CE);
    return true;
}

void
MrcSetFlowLabel(Ipv6Header& ip, uint32_t flowLabel)
{
    NS_ABORT_MSG_IF(flowLabel > MRC_FLOW_LABEL_MASK,
                    "flow label 0x" << std::hex << flowLabel
                                    << " does not fit in 20 bits (allowed 0..0xfffff)");
    ip.SetFlowLabel(flowLabel);
}

} // namespace ns3
