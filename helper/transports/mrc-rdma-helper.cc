/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-rdma-helper.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

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
    if (name == "FirstQpn")
    {
        const auto* u = dynamic_cast<const UintegerValue*>(&value);
        NS_ABORT_MSG_IF(!u, "MrcRdmaHelper: FirstQpn needs an UintegerValue");
        m_firstQpn = static_cast<int64_t>(u->Get());
    }
}

std::pair<uint32_t, uint32_t>&
MrcRdmaHelper::Unbuilt(Ptr<Node> host)
{
    auto it = m_unbuilt.find(host->GetId());
    if (it != m_unbuilt.end())
    {
        return it->second;
    }
    uint32_t first = static_cast<uint32_t>(m_firstQpn);
    if (m_firstQpn < 0)
    {
        TypeId::AttributeInformation info;
        const bool found = MrcRdmaNic::GetTypeId().LookupAttributeByName("FirstQpn", &info);
        NS_ABORT_MSG_IF(!found, "MrcRdmaHelper: MrcRdmaNic has no FirstQpn");
        const auto* u = dynamic_cast<const UintegerValue*>(PeekPointer(info.initialValue));
        NS_ABORT_MSG_IF(!u, "MrcRdmaHelper: FirstQpn is not an UintegerValue");
        first = static_cast<uint32_t>(u->Get());
    }
    // a NIC's first rkey is 1 (MrcRdmaNic)
    return m_unbuilt.emplace(host->GetId(), std::make_pair(first, 1U)).first->second;
}

uint32_t
MrcRdmaHelper::SkipQueuePair(Ptr<Node> host)
{
    if (Ptr<MrcRdmaNic> nic = MrcRdmaNic::GetNic(host))
    {
        return nic->SkipQueuePair();
    }
    uint32_t& next = Unbuilt(host).first;
    NS_ABORT_MSG_IF(next > 0xffffff, "MrcRdmaHelper: QP numbers exhausted (24 bits)");
    return next++;
}

uint32_t
MrcRdmaHelper::SkipMemoryRegion(Ptr<Node> host)
{
    if (Ptr<MrcRdmaNic> nic = MrcRdmaNic::GetNic(host))
    {
        return nic->SkipMemoryRegion();
    }
    return Unbuilt(host).second++;
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
MrcRdmaHelper::SetPort(uint32_t port)
{
    m_port = port;
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
    c.requester->AssignPort(m_port);
    c.responder->AssignPort(m_port);
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
    NS_ABORT_MSG_IF(!MrcRdmaNic::GetNic(a),
                    "MrcRdmaHelper::ConnectOneEnd: node " << a->GetId() << " has no NIC");
    NS_ABORT_MSG_IF(!MrcRdmaNic::GetNic(b),
                    "MrcRdmaHelper::ConnectOneEnd: node " << b->GetId() << " has no NIC");
    return ConnectOneEnd(a, b, requesterHere, {}, regionBytes, regionBase);
}

MrcRdmaHelper::Connection
MrcRdmaHelper::ConnectOneEnd(Ptr<Node> a,
                             Ptr<Node> b,
                             bool requesterHere,
                             const std::vector<Ipv6Address>& farAddresses,
                             uint64_t regionBytes,
                             uint64_t regionBase)
{
    Ptr<MrcRdmaNic> na = MrcRdmaNic::GetNic(a);
    Ptr<MrcRdmaNic> nb = MrcRdmaNic::GetNic(b);
    NS_ABORT_MSG_IF(requesterHere ? !na : !nb,
                    "MrcRdmaHelper::ConnectOneEnd: node " << (requesterHere ? a : b)->GetId()
                                                          << " (the end to make) has no NIC");
    NS_ABORT_MSG_IF(a == b, "MrcRdmaHelper::ConnectOneEnd: both ends on one host");
    Ptr<MrcRdmaNic> far = requesterHere ? nb : na;
    NS_ABORT_MSG_IF(!far && farAddresses.empty(),
                    "MrcRdmaHelper::ConnectOneEnd: node " << (requesterHere ? b : a)->GetId()
                                                          << " has no NIC and no addresses");
    const std::vector<Ipv6Address> farAddrs = far ? far->GetAddresses() : farAddresses;
    Connection c;
    if (requesterHere)
    {
        c.requester = na->CreateQueuePair(m_qp);
        c.requester->AssignPort(m_port);
        c.requesterQpn = c.requester->GetQpn();
        c.responderQpn = SkipQueuePair(b);
        c.requester->Connect(farAddrs, c.responderQpn, c.requester->GetInitialPsn());
    }
    else
    {
        c.requesterQpn = SkipQueuePair(a);
        c.responder = nb->CreateQueuePair(m_qp);
        c.responder->AssignPort(m_port);
        c.responderQpn = c.responder->GetQpn();
        c.responder->Connect(farAddrs, c.requesterQpn, c.responder->GetInitialPsn());
    }
    if (regionBytes > 0)
    {
        c.regionBase = regionBase;
        if (requesterHere)
        {
            c.rkey = SkipMemoryRegion(b);
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
