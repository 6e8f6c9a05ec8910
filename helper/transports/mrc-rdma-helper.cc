/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-rdma-helper.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcRdmaHelper");

MrcRdmaHelper::MrcRdmaHelper()
{
    m_nic.SetTypeId("ns3::MrcRdmaNic");
    m_qp.SetTypeId("ns3::MrcRoceQueuePair");
}

void
MrcRdmaHelper::SetQueuePairType(const std::string& type)
{
    TypeId tid;
    NS_ABORT_MSG_UNLESS(TypeId::LookupByNameFailSafe(type, &tid) &&
                            tid.IsChildOf(MrcQueuePair::GetTypeId()),
                        "MrcRdmaHelper: queue-pair type '"
                            << type << "' is not a registered subclass of ns3::MrcQueuePair");
    m_qp.SetTypeId(tid);
}

void
MrcRdmaHelper::SetQueuePairAttribute(const std::string& name, const AttributeValue& value)
{
    m_qp.Set(name, value);
}

void
MrcRdmaHelper::SetNicAttribute(const std::string& name, const AttributeValue& value)
{
    m_nic.Set(name, value);
}

Ptr<MrcRdmaNic>
MrcRdmaHelper::Install(Ptr<Node> host,
                       const std::vector<std::pair<Ptr<MrcNetDevice>, Ipv6Address>>& ports)
{
    NS_ABORT_MSG_IF(!host, "MrcRdmaHelper::Install: null node");
    NS_ABORT_MSG_IF(host->GetObject<MrcRdmaNic>(),
                    "MrcRdmaHelper::Install: node " << host->GetId() << " already has a NIC");
    NS_ABORT_MSG_IF(ports.empty(), "MrcRdmaHelper::Install: no ports for node " << host->GetId());
    Ptr<MrcRdmaNic> nic = m_nic.Create<MrcRdmaNic>();
    for (const auto& [dev, addr] : ports)
    {
        NS_ABORT_MSG_IF(dev->GetNode() != host,
                        "MrcRdmaHelper::Install: a device of node "
                            << (dev->GetNode() ? int(dev->GetNode()->GetId()) : -1)
                            << " given for node " << host->GetId());
        nic->AddPort(dev, addr);
    }
    host->AggregateObject(nic);
    return nic;
}

Ptr<MrcRdmaNic>
MrcRdmaHelper::Install(Ptr<Node> host, Ptr<MrcNetDevice> device, Ipv6Address address)
{
    return Install(host, {{device, address}});
}

void
MrcRdmaHelper::ConnectPair(Ptr<MrcQueuePair> qa, Ptr<MrcQueuePair> qb)
{
    qa->Connect(qb->GetNic()->GetAddresses(), qb->GetQpn(), qb->GetInitialPsn());
    qb->Connect(qa->GetNic()->GetAddresses(), qa->GetQpn(), qa->GetInitialPsn());
}

MrcRdmaHelper::Connection
MrcRdmaHelper::Connect(Ptr<Node> a, Ptr<Node> b, uint64_t regionBytes, uint64_t regionBase)
{
    Ptr<MrcRdmaNic> na = MrcRdmaNic::GetNic(a);
    Ptr<MrcRdmaNic> nb = MrcRdmaNic::GetNic(b);
    NS_ABORT_MSG_IF(!na, "MrcRdmaHelper::Connect: node " << a->GetId() << " has no NIC");
    NS_ABORT_MSG_IF(!nb, "MrcRdmaHelper::Connect: node " << b->GetId() << " has no NIC");
    Connection c;
    c.requester = na->CreateQueuePair(m_qp);
    c.responder = nb->CreateQueuePair(m_qp);
    ConnectPair(c.requester, c.responder);
    if (regionBytes > 0)
    {
        c.region = nb->RegisterMemoryRegion(regionBase, regionBytes);
        c.rkey = c.region->GetRkey();
        c.regionBase = regionBase;
    }
    c.requesterQpn = c.requester->GetQpn();
    c.responderQpn = c.responder->GetQpn();
    return c;
}

MrcRdmaHelper::Connection
MrcRdmaHelper::ConnectOneEnd(Ptr<Node> a,
                             Ptr<Node> b,
                             bool requesterHere,
                             uint64_t regionBytes,
                             uint64_t regionBase)
{
    Ptr<MrcRdmaNic> na = MrcRdmaNic::GetNic(a);
    Ptr<MrcRdmaNic> nb = MrcRdmaNic::GetNic(b);
    NS_ABORT_MSG_IF(!na, "MrcRdmaHelper::ConnectOneEnd: node " << a->GetId() << " has no NIC");
    NS_ABORT_MSG_IF(!nb, "MrcRdmaHelper::ConnectOneEnd: node " << b->GetId() << " has no NIC");
    NS_ABORT_MSG_IF(a == b, "MrcRdmaHelper::ConnectOneEnd: both ends on one host");
    Connection c;
    if (requesterHere)
    {
        c.requester = na->CreateQueuePair(m_qp);
        c.requesterQpn = c.requester->GetQpn();
        c.responderQpn = nb->SkipQueuePair();
        c.requester->Connect(nb->GetAddresses(), c.responderQpn, c.requester->GetInitialPsn());
    }
    else
    {
        c.requesterQpn = na->SkipQueuePair();
        c.responder = nb->CreateQueuePair(m_qp);
        c.responderQpn = c.responder->GetQpn();
        c.responder->Connect(na->GetAddresses(), c.requesterQpn, c.responder->GetInitialPsn());
    }
    if (regionBytes > 0)
    {
        c.regionBase = regionBase;
        if (requesterHere)
        {
            c.rkey = nb->SkipMemoryRegion();
        }
        else
        {
            c.region = nb->RegisterMemoryRegion(regionBase, regionBytes);
            c.rkey = c.region->GetRkey();
        }
    }
    return c;
}

MrcQpCounters
MrcRdmaHelper::SumCounters(const NodeContainer& nodes)
{
    MrcQpCounters sum;
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        Ptr<MrcRdmaNic> nic = MrcRdmaNic::GetNic(nodes.Get(i));
        if (!nic)
        {
            continue;
        }
        for (const auto& qp : nic->GetQueuePairs())
        {
            const MrcQpCounters& c = qp->GetCounters();
            sum.dataPacketsSent += c.dataPacketsSent;
            sum.dataBytesSent += c.dataBytesSent;
            sum.retransmittedPackets += c.retransmittedPackets;
            sum.retransmittedBytes += c.retransmittedBytes;
            sum.timeouts += c.timeouts;
            sum.acksSent += c.acksSent;
            sum.acksReceived += c.acksReceived;
            sum.naksSent += c.naksSent;
            sum.naksReceived += c.naksReceived;
            sum.cnpsSent += c.cnpsSent;
            sum.cnpsReceived += c.cnpsReceived;
            sum.ecnMarkedReceived += c.ecnMarkedReceived;
            sum.dataPacketsReceived += c.dataPacketsReceived;
            sum.duplicatePackets += c.duplicatePackets;
            sum.outOfOrderPackets += c.outOfOrderPackets;
            sum.bytesPlaced += c.bytesPlaced;
            sum.messagesCompleted += c.messagesCompleted;
            sum.messagesReceived += c.messagesReceived;
        }
    }
    return sum;
}

} // namespace ns3
