/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-switch-helper.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mrc-ecmp-forwarding.h"
#include "ns3/mrc-net-device.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcSwitchHelper");

MrcSwitchHelper::MrcSwitchHelper()
{
    m_switch.SetTypeId(MrcSwitchNode::GetTypeId());
    m_forwarding.SetTypeId(MrcEcmpForwarding::GetTypeId());
    m_mmu.SetTypeId(MrcSharedBufferMmu::GetTypeId());
    m_trimmer.SetTypeId(MrcTrimmer::GetTypeId());
    m_marker.SetTypeId(MrcEcnMarker::GetTypeId());
}

void
MrcSwitchHelper::SetSwitchAttribute(std::string name, const AttributeValue& value)
{
    m_switch.Set(name, value);
}

void
MrcSwitchHelper::SetMmuAttribute(std::string name, const AttributeValue& value)
{
    m_mmu.Set(name, value);
}

void
MrcSwitchHelper::SetTrimmerAttribute(std::string name, const AttributeValue& value)
{
    m_trimmer.Set(name, value);
}

void
MrcSwitchHelper::SetEcnAttribute(std::string name, const AttributeValue& value)
{
    m_marker.Set(name, value);
}

Ptr<MrcSwitchNode>
MrcSwitchHelper::CreateSwitch() const
{
    Ptr<MrcSwitchNode> sw = m_switch.Create<MrcSwitchNode>();
    Ptr<MrcForwarding> fwd = m_forwarding.Create<MrcForwarding>();
    NS_ABORT_MSG_IF(!fwd,
                    "MrcSwitchHelper: forwarding type " << m_forwarding.GetTypeId().GetName()
                                                        << " is not an ns3::MrcForwarding");
    sw->SetForwarding(fwd);
    sw->SetMmu(m_mmu.Create<MrcSharedBufferMmu>());
    sw->SetTrimmer(m_trimmer.Create<MrcTrimmer>());
    sw->SetEcnMarkerFactory(m_marker);
    return sw;
}

NodeContainer
MrcSwitchHelper::Create(uint32_t n) const
{
    NodeContainer c;
    for (uint32_t i = 0; i < n; ++i)
    {
        c.Add(CreateSwitch());
    }
    return c;
}

namespace
{
Ptr<MrcSwitchNode>
AsSwitch(Ptr<Node> n, const char* what)
{
    Ptr<MrcSwitchNode> sw = DynamicCast<MrcSwitchNode>(n);
    NS_ABORT_MSG_IF(!sw,
                    "MrcSwitchHelper::" << what << ": node " << n->GetId()
                                        << " is not an MrcSwitchNode");
    return sw;
}
} // namespace

uint32_t
MrcSwitchHelper::ConnectHost(MrcLinkHelper& link, Ptr<Node> sw, Ptr<Node> host)
{
    Ptr<MrcSwitchNode> s = AsSwitch(sw, "ConnectHost");
    NetDeviceContainer d = link.Install(sw, host);
    return s->AddPort(DynamicCast<MrcNetDevice>(d.Get(0)), true);
}

std::pair<uint32_t, uint32_t>
MrcSwitchHelper::ConnectSwitches(MrcLinkHelper& link, Ptr<Node> a, Ptr<Node> b)
{
    return ConnectSwitches(link, a, b, MrcLinkHelper::NODE_IF_INDEX, MrcLinkHelper::NODE_IF_INDEX);
}

std::pair<uint32_t, uint32_t>
MrcSwitchHelper::ConnectSwitches(MrcLinkHelper& link,
                                 Ptr<Node> a,
                                 Ptr<Node> b,
                                 uint32_t ifIndexA,
                                 uint32_t ifIndexB)
{
    Ptr<MrcSwitchNode> sa = AsSwitch(a, "ConnectSwitches");
    Ptr<MrcSwitchNode> sb = AsSwitch(b, "ConnectSwitches");
    NetDeviceContainer d = link.Install(a, b, ifIndexA, ifIndexB);
    uint32_t pa = sa->AddPort(DynamicCast<MrcNetDevice>(d.Get(0)), false);
    uint32_t pb = sb->AddPort(DynamicCast<MrcNetDevice>(d.Get(1)), false);
    return {pa, pb};
}

} // namespace ns3
