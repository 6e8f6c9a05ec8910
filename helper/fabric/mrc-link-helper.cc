/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-link-helper.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/mrc-channel.h"
#include "ns3/mrc-net-device.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcLinkHelper");

MrcLinkHelper::MrcLinkHelper()
{
    m_deviceFactory.SetTypeId("ns3::MrcNetDevice");
    m_channelFactory.SetTypeId("ns3::MrcChannel");
}

MrcLinkHelper::~MrcLinkHelper()
{
}

void
MrcLinkHelper::SetDeviceAttribute(std::string name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
    if (name == "WireOverhead")
    {
        const auto* u = dynamic_cast<const UintegerValue*>(&value);
        NS_ABORT_MSG_IF(!u, "MrcLinkHelper: WireOverhead needs an UintegerValue");
        m_wireOverhead = static_cast<int64_t>(u->Get());
    }
}

uint32_t
MrcLinkHelper::GetDeviceWireOverhead() const
{
    if (m_wireOverhead >= 0)
    {
        return static_cast<uint32_t>(m_wireOverhead);
    }
    TypeId::AttributeInformation info;
    const bool found = MrcNetDevice::GetTypeId().LookupAttributeByName("WireOverhead", &info);
    NS_ABORT_MSG_IF(!found, "MrcLinkHelper: MrcNetDevice has no WireOverhead");
    const auto* u = dynamic_cast<const UintegerValue*>(PeekPointer(info.initialValue));
    NS_ABORT_MSG_IF(!u, "MrcLinkHelper: WireOverhead is not an UintegerValue");
    return static_cast<uint32_t>(u->Get());
}

void
MrcLinkHelper::Skip()
{
    for (int i = 0; i < 2; ++i)
    {
        Mac48Address::Allocate();
    }
}

void
MrcLinkHelper::SetChannelAttribute(std::string name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

NetDeviceContainer
MrcLinkHelper::Install(NodeContainer c)
{
    NS_ABORT_MSG_IF(c.GetN() != 2,
                    "MrcLinkHelper::Install: a link joins 2 nodes, the container has " << c.GetN());
    return Install(c.Get(0), c.Get(1));
}

NetDeviceContainer
MrcLinkHelper::Install(Ptr<Node> a, Ptr<Node> b)
{
    return Install(a, b, NODE_IF_INDEX, NODE_IF_INDEX);
}

NetDeviceContainer
MrcLinkHelper::Install(Ptr<Node> a, Ptr<Node> b, uint32_t ifIndexA, uint32_t ifIndexB)
{
    NS_LOG_FUNCTION(this << a << b << ifIndexA << ifIndexB);
    Ptr<MrcChannel> channel = m_channelFactory.Create<MrcChannel>();
    NetDeviceContainer devices;
    for (const auto& [node, ifIndex] : {std::make_pair(a, ifIndexA), std::make_pair(b, ifIndexB)})
    {
        Ptr<MrcNetDevice> dev = m_deviceFactory.Create<MrcNetDevice>();
        dev->SetAddress(Mac48Address::Allocate());
        node->AddDevice(dev);
        if (ifIndex != NODE_IF_INDEX)
        {
            dev->SetIfIndex(ifIndex); // before Attach: the channel reads it for other ranks
        }
        dev->Attach(channel);
        devices.Add(dev);
    }
    return devices;
}

Ptr<MrcNetDevice>
MrcLinkHelper::InstallToRank(Ptr<Node> a,
                             Ptr<Node> b,
                             uint32_t ifIndexA,
                             uint32_t ifIndexB,
                             uint32_t farEnd)
{
    NS_LOG_FUNCTION(this << a << b << ifIndexA << ifIndexB << farEnd);
    NS_ABORT_MSG_IF(farEnd > 1,
                    "MrcLinkHelper::InstallToRank: farEnd " << farEnd << " (allowed: 0, 1)");
    Ptr<MrcChannel> channel = m_channelFactory.Create<MrcChannel>();
    Ptr<MrcNetDevice> here;
    uint32_t end = 0;
    for (const auto& [node, ifIndex] : {std::make_pair(a, ifIndexA), std::make_pair(b, ifIndexB)})
    {
        const Mac48Address mac = Mac48Address::Allocate();
        if (end++ == farEnd)
        {
            Ptr<MrcRemotePort> far = CreateObject<MrcRemotePort>();
            far->SetAddress(mac);
            far->SetNode(node);
            far->SetIfIndex(ifIndex);
            far->Attach(channel);
            continue;
        }
        here = m_deviceFactory.Create<MrcNetDevice>();
        here->SetAddress(mac);
        node->AddDevice(here);
        here->SetIfIndex(ifIndex); // before Attach: the channel reads it for other ranks
        here->Attach(channel);
    }
    return here;
}

void
MrcLinkHelper::EnablePcapInternal(std::string prefix,
                                  Ptr<NetDevice> nd,
                                  bool promiscuous,
                                  bool explicitFilename)
{
    Ptr<MrcNetDevice> device = nd->GetObject<MrcNetDevice>();
    if (!device)
    {
        NS_LOG_INFO("MrcLinkHelper::EnablePcapInternal: device " << nd
                                                                 << " is not an MrcNetDevice");
        return;
    }
    PcapHelper pcapHelper;
    std::string filename =
        explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, device);
    Ptr<PcapFileWrapper> file =
        pcapHelper.CreateFile(filename, std::ios::out, PcapHelper::DLT_EN10MB);
    pcapHelper.HookDefaultSink<MrcNetDevice>(device,
                                             promiscuous ? "PromiscSniffer" : "Sniffer",
                                             file);
    // Close (and so flush) the file when the simulator is destroyed: a device that outlives
    // the run (a switch port) would otherwise keep its last frames in the stream buffer.
    Simulator::ScheduleDestroy(&PcapFileWrapper::Close, file);
}

} // namespace ns3
