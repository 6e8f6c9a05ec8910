/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-raw-traffic.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/ipv6-address.h"
#include "ns3/ipv6-header.h"
#include "ns3/log.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-opcodes.h"
#include "ns3/mrc-reth-header.h"
#include "ns3/mrc-traffic-class.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcRawTraffic");

NS_OBJECT_ENSURE_REGISTERED(MrcRawSource);
NS_OBJECT_ENSURE_REGISTERED(MrcRawSink);

TypeId
MrcRawSource::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcRawSource")
            .SetParent<Application>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcRawSource>()
            .AddAttribute("DeviceIndex",
                          "Index (on the node) of the MrcNetDevice to send on.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcRawSource::m_deviceIndex),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Local",
                          "Outer IPv6 source address.",
                          Ipv6AddressValue(Ipv6Address("fd00::1")),
                          MakeIpv6AddressAccessor(&MrcRawSource::m_local),
                          MakeIpv6AddressChecker())
            .AddAttribute("Remote",
                          "Outer IPv6 destination address (a uSID carrier in SRv6 mode).",
                          Ipv6AddressValue(Ipv6Address("fd00::2")),
                          MakeIpv6AddressAccessor(&MrcRawSource::m_remote),
                          MakeIpv6AddressChecker())
            .AddAttribute("DataRate",
                          "Sending rate (frames on the wire, Ethernet overhead included).",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&MrcRawSource::m_rate),
                          MakeDataRateChecker())
            .AddAttribute("PacketSize",
                          "Payload bytes per packet (after the 76 bytes of headers).",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&MrcRawSource::m_packetSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MaxBytes",
                          "Payload bytes to send in all; the last packet may be shorter.",
                          UintegerValue(1000000),
                          MakeUintegerAccessor(&MrcRawSource::m_maxBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("Dscp",
                          "Outer DSCP.",
                          UintegerValue(MrcDscp::TRIMMABLE),
                          MakeUintegerAccessor(&MrcRawSource::m_dscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("EcnCapable",
                          "Send ECT(0) (true) or Not-ECT.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcRawSource::m_ecnCapable),
                          MakeBooleanChecker())
            .AddAttribute("FlowLabel",
                          "Outer IPv6 flow label (20 bits).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcRawSource::m_flowLabel),
                          MakeUintegerChecker<uint32_t>(0, 0xfffff))
            .AddAttribute("UdpSourcePort",
                          "UDP source port (an ECMP hash input).",
                          UintegerValue(49152),
                          MakeUintegerAccessor(&MrcRawSource::m_srcPort),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("DestQp",
                          "BTH destination QP.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&MrcRawSource::m_destQp),
                          MakeUintegerChecker<uint32_t>(0, 0xffffff))
            .AddTraceSource("Tx",
                            "A packet was handed to the device.",
                            MakeTraceSourceAccessor(&MrcRawSource::m_txTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

MrcRawSource::MrcRawSource()
    : m_deviceIndex(0),
      m_packetSize(1024),
      m_maxBytes(1000000),
      m_dscp(MrcDscp::TRIMMABLE),
      m_ecnCapable(true),
      m_flowLabel(0),
      m_srcPort(49152),
      m_destQp(1)
{
}

MrcRawSource::~MrcRawSource() = default;

void
MrcRawSource::DoDispose()
{
    m_event.Cancel();
    m_dev = nullptr;
    Application::DoDispose();
}

void
MrcRawSource::StartApplication()
{
    NS_ABORT_MSG_IF(m_deviceIndex >= GetNode()->GetNDevices(),
                    "MrcRawSource: DeviceIndex " << m_deviceIndex << " but node "
                                                 << GetNode()->GetId() << " has "
                                                 << GetNode()->GetNDevices() << " devices");
    m_dev = DynamicCast<MrcNetDevice>(GetNode()->GetDevice(m_deviceIndex));
    NS_ABORT_MSG_IF(!m_dev, "MrcRawSource: device " << m_deviceIndex << " is not an MrcNetDevice");
    if (!IsDone())
    {
        m_event = Simulator::ScheduleNow(&MrcRawSource::SendOne, this);
    }
}

void
MrcRawSource::StopApplication()
{
    m_event.Cancel();
}

bool
MrcRawSource::IsDone() const
{
    return m_sentPayload >= m_maxBytes;
}

void
MrcRawSource::SendOne()
{
    const uint32_t payload =
        static_cast<uint32_t>(std::min<uint64_t>(m_packetSize, m_maxBytes - m_sentPayload));
    Ptr<Packet> p = Create<Packet>(payload);
    MrcRethHeader reth;
    reth.SetVirtualAddress(m_sentPayload);
    reth.SetRkey(0);
    reth.SetDmaLength(payload);
    p->AddHeader(reth);
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::RC_WRITE_ONLY);
    bth.SetDestQp(m_destQp);
    bth.SetPsn(m_psn++ & 0xffffff);
    p->AddHeader(bth);
    UdpHeader udp;
    udp.SetSourcePort(m_srcPort);
    udp.SetDestinationPort(MRC_ROCEV2_UDP_PORT);
    p->AddHeader(udp);
    Ipv6Header ip;
    ip.SetSource(m_local);
    ip.SetDestination(m_remote);
    ip.SetNextHeader(17);
    ip.SetHopLimit(64);
    ip.SetPayloadLength(static_cast<uint16_t>(p->GetSize()));
    ip.SetTrafficClass(MrcMakeTrafficClass(m_dscp, m_ecnCapable ? MrcEcn::ECT0 : MrcEcn::NOT_ECT));
    ip.SetFlowLabel(m_flowLabel);
    p->AddHeader(ip);

    ++m_sentPackets;
    m_sentBytes += p->GetSize();
    m_sentPayload += payload;
    const uint32_t wireBytes = p->GetSize() + 14 + 24;
    m_txTrace(p);
    m_dev->SendToClass(p, MrcNetDevice::ETHER_TYPE_IPV6, m_dev->ClassifyDscp(m_dscp));
    if (!IsDone())
    {
        m_event = Simulator::Schedule(m_rate.CalculateBytesTxTime(wireBytes),
                                      &MrcRawSource::SendOne,
                                      this);
    }
}

uint64_t
MrcRawSource::GetSentPackets() const
{
    return m_sentPackets;
}

uint64_t
MrcRawSource::GetSentBytes() const
{
    return m_sentBytes;
}

uint64_t
MrcRawSource::GetSentPayloadBytes() const
{
    return m_sentPayload;
}

// ---------------------------------------------------------------- sink

TypeId
MrcRawSink::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcRawSink")
                            .SetParent<Application>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcRawSink>()
                            .AddAttribute("DeviceIndex",
                                          "Index (on the node) of the MrcNetDevice to receive on.",
                                          UintegerValue(0),
                                          MakeUintegerAccessor(&MrcRawSink::m_deviceIndex),
                                          MakeUintegerChecker<uint32_t>())
                            .AddTraceSource("Rx",
                                            "A packet was received (with its parse).",
                                            MakeTraceSourceAccessor(&MrcRawSink::m_rxTrace),
                                            "ns3::MrcRawSink::RxTracedCallback");
    return tid;
}

MrcRawSink::MrcRawSink()
    : m_deviceIndex(0)
{
}

MrcRawSink::~MrcRawSink() = default;

void
MrcRawSink::DoDispose()
{
    if (m_dev)
    {
        m_dev->SetClassReceiveCallback(MrcNetDevice::ClassReceiveCallback());
    }
    m_dev = nullptr;
    Application::DoDispose();
}

void
MrcRawSink::StartApplication()
{
    NS_ABORT_MSG_IF(m_deviceIndex >= GetNode()->GetNDevices(),
                    "MrcRawSink: DeviceIndex " << m_deviceIndex << " but node "
                                               << GetNode()->GetId() << " has "
                                               << GetNode()->GetNDevices() << " devices");
    m_dev = DynamicCast<MrcNetDevice>(GetNode()->GetDevice(m_deviceIndex));
    NS_ABORT_MSG_IF(!m_dev, "MrcRawSink: device " << m_deviceIndex << " is not an MrcNetDevice");
    m_dev->SetClassReceiveCallback(MakeCallback(&MrcRawSink::Receive, this));
}

void
MrcRawSink::StopApplication()
{
    if (m_dev)
    {
        m_dev->SetClassReceiveCallback(MrcNetDevice::ClassReceiveCallback());
    }
}

void
MrcRawSink::Receive(Ptr<MrcNetDevice>, Ptr<Packet> p, uint16_t type, uint8_t)
{
    MrcPacketInfo info;
    if (type != MrcNetDevice::ETHER_TYPE_IPV6 || !MrcParsePacket(p, info))
    {
        ++m_bad;
        return;
    }
    Stats& s = m_stats[info.src.ToAddress()];
    const uint8_t dscp = info.GetDscp();
    const bool trimmed = dscp == MrcDscp::TRIMMED || dscp == MrcDscp::TRIMMED_LASTHOP;
    for (Stats* t : {&s, &m_total})
    {
        ++t->packets;
        t->bytes += p->GetSize();
        if (trimmed)
        {
            ++t->trimmed;
            if (dscp == MrcDscp::TRIMMED_LASTHOP)
            {
                ++t->trimmedLastHop;
            }
        }
        else
        {
            t->payloadBytes += p->GetSize() - info.headerBytes;
        }
        if (info.GetEcn() == MrcEcn::CE)
        {
            ++t->ceMarked;
        }
    }
    m_rxTrace(p, info);
}

MrcRawSink::Stats
MrcRawSink::GetTotal() const
{
    return m_total;
}

MrcRawSink::Stats
MrcRawSink::GetStats(Ipv6Address src) const
{
    auto it = m_stats.find(src);
    return it == m_stats.end() ? Stats{} : it->second;
}

const std::map<Ipv6Address, MrcRawSink::Stats>&
MrcRawSink::GetAllStats() const
{
    return m_stats;
}

uint64_t
MrcRawSink::GetBadPackets() const
{
    return m_bad;
}

uint32_t
MrcRawSink::ReadPsn(Ptr<const Packet> p, const MrcPacketInfo& info)
{
    if (!info.hasBth)
    {
        return 0;
    }
    uint8_t buf[1024];
    const uint32_t need = info.bthOffset + MRC_BTH_BYTES;
    if (need > sizeof(buf) || p->CopyData(buf, need) < need)
    {
        return 0;
    }
    const uint8_t* b = buf + info.bthOffset + 9;
    return (uint32_t(b[0]) << 16) | (uint32_t(b[1]) << 8) | b[2];
}

} // namespace ns3
