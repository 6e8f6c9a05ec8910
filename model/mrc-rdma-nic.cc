/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-rdma-nic.h"

#include "mrc-bth-header.h"
#include "mrc-icrc-trailer.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcRdmaNic");

NS_OBJECT_ENSURE_REGISTERED(MrcRdmaNic);

namespace
{
/// Largest header stack the NIC copies out of an arriving packet.
constexpr uint32_t MAX_HEADER_BYTES = 256;
/// Packets one Serve call builds at most before it yields (see Serve).
constexpr uint32_t MAX_PACKETS_PER_SERVE = 64;
} // namespace

TypeId
MrcRdmaNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcRdmaNic")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcRdmaNic>()
            .AddAttribute("TxQueueThreshold",
                          "The scheduler adds a data packet to a port only while the "
                          "device queue of the packet's class holds fewer bytes than this. "
                          "Default 8192 B (our choice: keeps the device queue short so PFC "
                          "back-pressures the scheduler and path choices stay fresh, yet "
                          "never lets the wire idle).",
                          UintegerValue(8192),
                          MakeUintegerAccessor(&MrcRdmaNic::m_txThreshold),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("FirstQpn",
                          "QP number of the first queue pair; later ones count up. "
                          "Default 256 (our choice; InfiniBand reserves QPs 0 and 1).",
                          UintegerValue(256),
                          MakeUintegerAccessor(&MrcRdmaNic::m_nextQpn),
                          MakeUintegerChecker<uint32_t>(2, 0xffffff))
            .AddAttribute("BthUdpPort",
                          "UDP destination port that carries a BTH. Default 4791 (RoCEv2, "
                          "IANA).",
                          UintegerValue(MRC_ROCEV2_UDP_PORT),
                          MakeUintegerAccessor(&MrcRdmaNic::m_bthUdpPort),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("ComputeIcrc",
                          "Compute the real ICRC of every packet sent (true), or write "
                          "zero (false, default: our choice, the ICRC is never checked "
                          "and computing it costs a pass over every packet; set true for "
                          "captures that Wireshark validates).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MrcRdmaNic::m_computeIcrc),
                          MakeBooleanChecker())
            .AddTraceSource("RxDrop",
                            "An arriving packet was dropped by the NIC: the packet and why "
                            "(not-bth, unknown-qp).",
                            MakeTraceSourceAccessor(&MrcRdmaNic::m_rxDropTrace),
                            "ns3::MrcRdmaNic::RxDropTracedCallback");
    return tid;
}

MrcRdmaNic::MrcRdmaNic()
    : m_nextQpn(256),
      m_nextRkey(1),
      m_txThreshold(8192),
      m_bthUdpPort(MRC_ROCEV2_UDP_PORT),
      m_computeIcrc(false),
      m_rxNotBth(0),
      m_rxUnknownQp(0)
{
}

MrcRdmaNic::~MrcRdmaNic() = default;

void
MrcRdmaNic::DoDispose()
{
    for (auto& port : m_ports)
    {
        port.wake.Cancel();
        port.ring.clear();
        if (port.dev)
        {
            port.dev->SetClassReceiveCallback(MrcNetDevice::ClassReceiveCallback());
            port.dev->SetDequeueHook(MrcNetDevice::DequeueHook());
        }
        port.dev = nullptr;
    }
    m_ports.clear();
    for (auto& qp : m_qpList)
    {
        qp->Dispose();
    }
    m_qps.clear();
    m_qpList.clear();
    m_regions.clear();
    Object::DoDispose();
}

Ptr<MrcRdmaNic>
MrcRdmaNic::GetNic(Ptr<Node> node)
{
    return node ? node->GetObject<MrcRdmaNic>() : nullptr;
}

uint32_t
MrcRdmaNic::AddPort(Ptr<MrcNetDevice> device, Ipv6Address address)
{
    NS_ABORT_MSG_IF(!device, "MrcRdmaNic::AddPort: null device");
    for (const auto& p : m_ports)
    {
        NS_ABORT_MSG_IF(p.dev == device, "MrcRdmaNic::AddPort: the device is already a port");
    }
    const uint32_t index = static_cast<uint32_t>(m_ports.size());
    Port port;
    port.dev = device;
    port.address = address;
    m_ports.push_back(port);
    device->SetClassReceiveCallback(MakeCallback(&MrcRdmaNic::ReceiveFromDevice, this));
    device->SetDequeueHook(MrcNetDevice::DequeueHook(
        [this, index](Ptr<Packet> frame, uint8_t cls) { DequeueHook(index, frame, cls); }));
    NS_LOG_FUNCTION(this << index << address);
    return index;
}

uint32_t
MrcRdmaNic::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<MrcNetDevice>
MrcRdmaNic::GetDevice(uint32_t port) const
{
    NS_ABORT_MSG_IF(port >= m_ports.size(),
                    "MrcRdmaNic: port " << port << " but the NIC has " << m_ports.size()
                                        << " ports");
    return m_ports[port].dev;
}

Ipv6Address
MrcRdmaNic::GetAddress(uint32_t port) const
{
    NS_ABORT_MSG_IF(port >= m_ports.size(),
                    "MrcRdmaNic: port " << port << " but the NIC has " << m_ports.size()
                                        << " ports");
    return m_ports[port].address;
}

std::vector<Ipv6Address>
MrcRdmaNic::GetAddresses() const
{
    std::vector<Ipv6Address> out;
    out.reserve(m_ports.size());
    for (const auto& p : m_ports)
    {
        out.push_back(p.address);
    }
    return out;
}

Ptr<MrcQueuePair>
MrcRdmaNic::CreateQueuePair(TypeId transport)
{
    NS_ABORT_MSG_UNLESS(transport.IsChildOf(MrcQueuePair::GetTypeId()),
                        "MrcRdmaNic::CreateQueuePair: " << transport.GetName()
                                                        << " is not a subclass of "
                                                           "ns3::MrcQueuePair");
    ObjectFactory f(transport.GetName());
    return CreateQueuePair(f);
}

Ptr<MrcQueuePair>
MrcRdmaNic::CreateQueuePair(const ObjectFactory& factory)
{
    Ptr<Object> o = factory.Create();
    Ptr<MrcQueuePair> qp = DynamicCast<MrcQueuePair>(o);
    NS_ABORT_MSG_IF(!qp,
                    "MrcRdmaNic::CreateQueuePair: " << factory.GetTypeId().GetName()
                                                    << " is not a subclass of ns3::MrcQueuePair");
    return Adopt(qp);
}

Ptr<MrcQueuePair>
MrcRdmaNic::Adopt(Ptr<MrcQueuePair> qp)
{
    NS_ABORT_MSG_IF(m_nextQpn > 0xffffff, "MrcRdmaNic: QP numbers exhausted (24 bits)");
    const uint32_t qpn = m_nextQpn++;
    qp->SetNic(this, qpn);
    m_qps[qpn] = qp;
    m_qpList.push_back(qp);
    return qp;
}

Ptr<MrcQueuePair>
MrcRdmaNic::GetQueuePair(uint32_t qpn) const
{
    auto it = m_qps.find(qpn);
    return it == m_qps.end() ? nullptr : it->second;
}

uint32_t
MrcRdmaNic::GetNQueuePairs() const
{
    return static_cast<uint32_t>(m_qpList.size());
}

std::vector<Ptr<MrcQueuePair>>
MrcRdmaNic::GetQueuePairs() const
{
    return m_qpList;
}

Ptr<MrcMemoryRegion>
MrcRdmaNic::RegisterMemoryRegion(uint64_t base, uint64_t length)
{
    Ptr<MrcMemoryRegion> mr = CreateObject<MrcMemoryRegion>();
    mr->Configure(m_nextRkey, base, length);
    m_regions[m_nextRkey] = mr;
    ++m_nextRkey;
    return mr;
}

Ptr<MrcMemoryRegion>
MrcRdmaNic::GetMemoryRegion(uint32_t rkey) const
{
    auto it = m_regions.find(rkey);
    return it == m_regions.end() ? nullptr : it->second;
}

uint16_t
MrcRdmaNic::GetBthUdpPort() const
{
    return m_bthUdpPort;
}

bool
MrcRdmaNic::GetComputeIcrc() const
{
    return m_computeIcrc;
}

void
MrcRdmaNic::NotifyReady(Ptr<MrcQueuePair> qp)
{
    for (uint32_t p = 0; p < m_ports.size(); ++p)
    {
        if (!qp->UsesPort(p))
        {
            continue;
        }
        auto& ring = m_ports[p].ring;
        if (std::find(ring.begin(), ring.end(), qp) == ring.end())
        {
            ring.push_back(qp);
        }
        Kick(p);
    }
}

bool
MrcRdmaNic::SendControl(uint32_t port, Ptr<Packet> p, uint8_t dscp)
{
    NS_ASSERT(port < m_ports.size());
    Ptr<MrcNetDevice> dev = m_ports[port].dev;
    return dev->SendToClass(p, MrcNetDevice::ETHER_TYPE_IPV6, dev->ClassifyDscp(dscp));
}

void
MrcRdmaNic::Kick(uint32_t port)
{
    Port& pt = m_ports[port];
    if (pt.kickPending)
    {
        return;
    }
    pt.kickPending = true;
    Simulator::ScheduleNow(&MrcRdmaNic::Serve, this, port);
}

void
MrcRdmaNic::WakeUp(uint32_t port)
{
    if (!m_ports[port].kickPending)
    {
        Serve(port);
    }
}

void
MrcRdmaNic::DequeueHook(uint32_t port, Ptr<Packet> /* frame */, uint8_t cls)
{
    // Only a QP that found this class full waits for a dequeue; paced QPs have the wake
    // timer, QPs with new work call NotifyReady. So other dequeues (e.g. of ACKs) need no
    // Serve event.
    Port& pt = m_ports[port];
    if (!pt.ring.empty() && (pt.blockedClasses & (1u << cls)))
    {
        Kick(port);
    }
}

void
MrcRdmaNic::Serve(uint32_t port)
{
    Port& pt = m_ports[port];
    pt.kickPending = false;
    pt.blockedClasses = 0;
    const Time now = Simulator::Now();
    Time earliest = Time::Max();
    std::size_t checked = 0;
    uint32_t built = 0;
    // Serve the ring round robin; a QP with nothing to send leaves it, a QP whose class
    // queue is full or whose pacing time lies ahead is skipped. Stop after a full pass
    // without a packet.
    while (!pt.ring.empty() && checked < pt.ring.size())
    {
        if (pt.next >= pt.ring.size())
        {
            pt.next = 0;
        }
        Ptr<MrcQueuePair> qp = pt.ring[pt.next];
        const Time t = qp->GetNextSendTime(port);
        if (t == Time::Max())
        {
            pt.ring.erase(pt.ring.begin() + pt.next);
            continue; // `next` now names the following QP
        }
        if (t > now)
        {
            earliest = std::min(earliest, t);
            ++pt.next;
            ++checked;
            continue;
        }
        const uint8_t cls = pt.dev->ClassifyDscp(qp->GetNextDscp(port));
        if (pt.dev->GetQueueBytes(cls) >= m_txThreshold)
        {
            // This QP's class is full (or paused by PFC): the dequeue hook calls again.
            pt.blockedClasses |= static_cast<uint8_t>(1u << cls);
            ++pt.next;
            ++checked;
            continue;
        }
        MrcTxPacket tx = qp->BuildNextPacket(port);
        if (!tx.packet)
        {
            ++pt.next;
            ++checked;
            continue;
        }
        ++pt.txData;
        if (!pt.dev->SendToClass(tx.packet,
                                 MrcNetDevice::ETHER_TYPE_IPV6,
                                 pt.dev->ClassifyDscp(tx.dscp)))
        {
            ++pt.txDrops;
        }
        ++pt.next;
        checked = 0;
        if (++built >= MAX_PACKETS_PER_SERVE)
        {
            // Only possible while the device drops what it gets (link down) and a QP is
            // not paced: yield to other events, continue at the same time.
            Kick(port);
            return;
        }
    }
    if (earliest != Time::Max() && (pt.wake.IsExpired() || pt.wakeAt > earliest))
    {
        pt.wake.Cancel();
        pt.wakeAt = earliest;
        pt.wake = Simulator::Schedule(earliest - now, &MrcRdmaNic::WakeUp, this, port);
    }
}

void
MrcRdmaNic::ReceiveFromDevice(Ptr<MrcNetDevice> dev,
                              Ptr<Packet> p,
                              uint16_t etherType,
                              uint8_t /* cls */)
{
    uint32_t port = 0;
    while (port < m_ports.size() && m_ports[port].dev != dev)
    {
        ++port;
    }
    NS_ASSERT(port < m_ports.size());
    MrcPacketInfo info;
    if (etherType != MrcNetDevice::ETHER_TYPE_IPV6 || !MrcParsePacket(p, info, m_bthUdpPort) ||
        !info.hasBth || info.headerBytes > MAX_HEADER_BYTES || info.packetBytes < info.headerBytes)
    {
        ++m_rxNotBth;
        m_rxDropTrace(p, "not-bth");
        return;
    }
    uint8_t hdr[MAX_HEADER_BYTES];
    p->CopyData(hdr, info.headerBytes);
    const uint8_t* bth = hdr + info.bthOffset;
    MrcRxPacket rx;
    rx.packet = p;
    rx.info = &info;
    rx.headers = hdr;
    rx.port = port;
    rx.opcode = bth[0];
    rx.bthByte1 = bth[1];
    rx.bthByte4 = bth[4];
    rx.destQp = (uint32_t(bth[5]) << 16) | (uint32_t(bth[6]) << 8) | bth[7];
    rx.bthByte8 = bth[8];
    rx.psn = (uint32_t(bth[9]) << 16) | (uint32_t(bth[10]) << 8) | bth[11];
    rx.extOffset = info.bthOffset + MrcBthHeader::SERIALIZED_SIZE;
    // A packet trimmed to its headers carries no ICRC: its payload counts as 0.
    const uint32_t rest = info.packetBytes - info.headerBytes;
    rx.payloadBytes =
        rest >= MrcIcrcTrailer::SERIALIZED_SIZE ? rest - MrcIcrcTrailer::SERIALIZED_SIZE : 0;
    auto it = m_qps.find(rx.destQp);
    if (it == m_qps.end())
    {
        ++m_rxUnknownQp;
        m_rxDropTrace(p, "unknown-qp");
        return;
    }
    it->second->Receive(rx);
}

uint64_t
MrcRdmaNic::GetRxNotBth() const
{
    return m_rxNotBth;
}

uint64_t
MrcRdmaNic::GetRxUnknownQp() const
{
    return m_rxUnknownQp;
}

uint64_t
MrcRdmaNic::GetTxDataPackets(uint32_t port) const
{
    return port < m_ports.size() ? m_ports[port].txData : 0;
}

uint64_t
MrcRdmaNic::GetTxDataDrops(uint32_t port) const
{
    return port < m_ports.size() ? m_ports[port].txDrops : 0;
}

} // namespace ns3
