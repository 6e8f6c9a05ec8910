/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-rdma-nic.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-channel.h"
#include "ns3/mrc-erth-header.h"
#include "ns3/mrc-heap-scheduler.h"
#include "ns3/mrc-icrc-trailer.h"
#include "ns3/mrc-opcodes.h"
#include "ns3/mrc-reusable-event.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <functional>
#include <string>
#include <utility>

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

/**
 * A trace source of the NIC that lives in the endpoint handler of a QP number: connecting
 * to it connects to the handler's trace source of the same name (false without a
 * handler, or when the handler has no such source).
 */
class EndpointTraceAccessor : public TraceSourceAccessor
{
  public:
    /// \param qpn the handler's QP number \param name the trace source's name there
    EndpointTraceAccessor(uint32_t qpn, std::string name)
        : m_qpn(qpn),
          m_name(std::move(name))
    {
    }

    bool ConnectWithoutContext(ObjectBase* obj, const CallbackBase& cb) const override
    {
        Ptr<MrcEndpointOps> h = Handler(obj);
        return h && h->TraceConnectWithoutContext(m_name, cb);
    }

    bool Connect(ObjectBase* obj, std::string context, const CallbackBase& cb) const override
    {
        Ptr<MrcEndpointOps> h = Handler(obj);
        return h && h->TraceConnect(m_name, context, cb);
    }

    bool DisconnectWithoutContext(ObjectBase* obj, const CallbackBase& cb) const override
    {
        Ptr<MrcEndpointOps> h = Handler(obj);
        return h && h->TraceDisconnectWithoutContext(m_name, cb);
    }

    bool Disconnect(ObjectBase* obj, std::string context, const CallbackBase& cb) const override
    {
        Ptr<MrcEndpointOps> h = Handler(obj);
        return h && h->TraceDisconnect(m_name, context, cb);
    }

  private:
    /// \param obj the NIC \return its handler of m_qpn, or null
    Ptr<MrcEndpointOps> Handler(ObjectBase* obj) const
    {
        auto* nic = dynamic_cast<MrcRdmaNic*>(obj);
        return nic ? nic->GetEndpointHandler(m_qpn) : nullptr;
    }

    uint32_t m_qpn;     //!< the handler's QP number
    std::string m_name; //!< the trace source's name in the handler
};

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
            .AddAttribute("ComputeUdpChecksum",
                          "Fill in the UDP checksum of every packet sent, over the IPv6 "
                          "pseudo-header and the whole datagram, ICRC included (true), or "
                          "write zero (false, default: RoCEv2 senders write 0, IBTA Annex "
                          "A17, and the ICRC protects the packet; IPv6 itself asks for a "
                          "checksum, RFC 8200 section 8.1, so Wireshark flags a zero one). "
                          "Computed once per packet at the sender, after the ICRC; mrc-sim "
                          "turns it on with --pcap.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MrcRdmaNic::m_computeUdpChecksum),
                          MakeBooleanChecker())
            .AddAttribute("PortStatusScope",
                          "Who tells peers about a local port going down or up (MRC Port "
                          "Status Update). Nic (default): the NIC sends one update per peer "
                          "NIC to its reserved endpoint QPN 0x2 and the peer NIC applies it "
                          "to every QP connected to the sender (protocol reference Q3: the "
                          "spec's endpoint operation, sent by the NIC to every peer NIC with "
                          "a live QP). Qp: each MRC QP updates its own peer QP (our earlier "
                          "model; more packets, same effect).",
#if MRC_NS3_VERSION_MINOR >= 41
                          EnumValue<PortStatusScope>(MrcRdmaNic::PORT_STATUS_NIC),
                          MakeEnumAccessor<PortStatusScope>(&MrcRdmaNic::m_portStatusScope),
#else
                          EnumValue(MrcRdmaNic::PORT_STATUS_NIC),
                          MakeEnumAccessor(&MrcRdmaNic::m_portStatusScope),
#endif
                          MakeEnumChecker(MrcRdmaNic::PORT_STATUS_NIC,
                                          "Nic",
                                          MrcRdmaNic::PORT_STATUS_QP,
                                          "Qp"))
            .AddAttribute("PortOrder",
                          "The order in which one scheduling pass serves the ports that "
                          "were kicked together (e.g. when a SACK opens a QP's window, "
                          "every port the QP may use is kicked). RoundRobin (default since "
                          "2026-12-03): the pass starts at the port after the one that last "
                          "sent a packet from the scheduler, so freed window goes to the "
                          "ports in turn and no port is favoured by its number. Ascending "
                          "(the model before): port 0 first; a QP limited by its window "
                          "then puts the freed window on the lowest ports, so the planes "
                          "are not equally loaded. How a NIC chooses among free ports is "
                          "not published; [P1] section 4 keeps plane loads equal and the "
                          "spec's send-time choice (GetSendParams) takes a GOOD EV whose "
                          "port is free in a pseudo-random order, which favours no port "
                          "by its number.",
#if MRC_NS3_VERSION_MINOR >= 41
                          EnumValue<PortOrder>(MrcRdmaNic::PORT_ORDER_ROUND_ROBIN),
                          MakeEnumAccessor<PortOrder>(&MrcRdmaNic::m_portOrder),
#else
                          EnumValue(MrcRdmaNic::PORT_ORDER_ROUND_ROBIN),
                          MakeEnumAccessor(&MrcRdmaNic::m_portOrder),
#endif
                          MakeEnumChecker(MrcRdmaNic::PORT_ORDER_ASCENDING,
                                          "Ascending",
                                          MrcRdmaNic::PORT_ORDER_ROUND_ROBIN,
                                          "RoundRobin"))
            .AddTraceSource("RxDrop",
                            "An arriving packet was dropped by the NIC: the packet and why "
                            "(not-bth, unknown-qp).",
                            MakeTraceSourceAccessor(&MrcRdmaNic::m_rxDropTrace),
                            "ns3::MrcRdmaNic::RxDropTracedCallback")
            .AddTraceSource("PortStatusTx",
                            "A NIC-scope Port Status Update left (first attempt or resend): "
                            "the peer NIC's port-0 address, the request id, the mask. The "
                            "source lives in the handler of the endpoint QPN 0x2 (the MRC "
                            "Port Status agent); connecting fails while there is none.",
                            Create<EndpointTraceAccessor>(MRC_ENDPOINT_QPN, "PortStatusTx"),
                            "ns3::MrcRdmaNic::PortStatusTracedCallback")
            .AddTraceSource("QueuePairCreated",
                            "The NIC made a queue pair (CreateQueuePair), after giving it its "
                            "QP number.",
                            MakeTraceSourceAccessor(&MrcRdmaNic::m_qpCreatedTrace),
                            "ns3::MrcRdmaNic::QueuePairTracedCallback")
            .AddTraceSource("QueuePairConnected",
                            "A queue pair of this NIC reached RTR (Connect or ModifyToRtr), "
                            "its transport's connected state set up.",
                            MakeTraceSourceAccessor(&MrcRdmaNic::m_qpConnectedTrace),
                            "ns3::MrcRdmaNic::QueuePairTracedCallback")
            .AddTraceSource("PortState",
                            "The link of a port went down or up, as its device detects it: "
                            "the port and whether it is up.",
                            MakeTraceSourceAccessor(&MrcRdmaNic::m_portStateTrace),
                            "ns3::MrcRdmaNic::PortStateTracedCallback")
            .AddTraceSource("PortAdminState",
                            "SetPortEnabled changed a port's admin state: the port and "
                            "whether it is enabled.",
                            MakeTraceSourceAccessor(&MrcRdmaNic::m_portAdminTrace),
                            "ns3::MrcRdmaNic::PortStateTracedCallback");
    return tid;
}

MrcRdmaNic::MrcRdmaNic()
    : m_nextQpn(256),
      m_nextRkey(1),
      m_txThreshold(8192),
      m_bthUdpPort(MRC_ROCEV2_UDP_PORT),
      m_computeIcrc(false),
      m_computeUdpChecksum(false),
      m_rxNotBth(0),
      m_rxUnknownQp(0),
      m_portStatusScope(PORT_STATUS_NIC),
      m_portOrder(PORT_ORDER_ROUND_ROBIN),
      m_lastDataPort(0)
{
    m_serveEvent = Create<MrcReusableEvent>([this]() { ServeKicked(); });
}

MrcRdmaNic::~MrcRdmaNic() = default;

void
MrcRdmaNic::DoDispose()
{
    for (auto& port : m_ports)
    {
        if (port.wakePending)
        {
            port.wakeEvent->Cancel();
            port.wakePending = false;
        }
        port.wakeEvent = nullptr;
        port.ring.clear();
        if (port.dev)
        {
            port.dev->SetPortOwner(nullptr, 0);
            port.dev->SetClassReceiveCallback(MrcNetDevice::ClassReceiveCallback());
            port.dev->SetDequeueHook(MrcNetDevice::DequeueHook());
        }
        port.dev = nullptr;
    }
    m_ports.clear();
    m_serveMasks.clear();
    for (auto& qp : m_qpList)
    {
        qp->Dispose();
    }
    m_qps.clear();
    m_qpList.clear();
    for (auto& [qpn, handler] : m_endpoints)
    {
        handler->Dispose();
    }
    m_endpoints.clear();
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
    port.addressBytes = address;
    NS_ABORT_MSG_IF(index >= 32, "MrcRdmaNic::AddPort: 32 ports at most (port " << index << ")");
    m_ports.push_back(port);
    m_portDisabled.push_back(false);
    // Receive path and dequeue hook: the device calls PortReceive / PortDequeued with the
    // port number (no Callback objects to visit, no search for the port on each frame).
    device->SetClassReceiveCallback(MrcNetDevice::ClassReceiveCallback());
    device->SetDequeueHook(MrcNetDevice::DequeueHook());
    device->SetPortOwner(this, index);
    device->AddLinkChangeCallback(Callback<void>([this, index]() { PortLinkChanged(index); }));
    NS_LOG_FUNCTION(this << index << address);
    return index;
}

uint32_t
MrcRdmaNic::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

MrcCnpPortClock&
MrcRdmaNic::GetCnpPortClock(uint32_t port)
{
    NS_ABORT_MSG_IF(port >= m_ports.size(),
                    "MrcRdmaNic: port " << port << " but the NIC has " << m_ports.size()
                                        << " ports");
    return m_ports[port].cnpClock;
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

void
MrcRdmaNic::SetPortEnabled(uint32_t port, bool enable)
{
    NS_LOG_FUNCTION(this << port << enable);
    NS_ABORT_MSG_IF(port >= m_ports.size(),
                    "MrcRdmaNic::SetPortEnabled: port " << port << " does not exist");
    Ptr<MrcChannel> ch = DynamicCast<MrcChannel>(m_ports[port].dev->GetChannel());
    NS_ABORT_MSG_IF(!ch, "MrcRdmaNic::SetPortEnabled: port " << port << " has no MrcChannel");
    m_portDisabled[port] = !enable;
    ch->SetLinkUp(enable);
    m_portAdminTrace(port, enable);
}

bool
MrcRdmaNic::IsPortEnabled(uint32_t port) const
{
    return port >= m_portDisabled.size() || !m_portDisabled[port];
}

void
MrcRdmaNic::PortLinkChanged(uint32_t port)
{
    if (port < m_ports.size()) // not after DoDispose
    {
        m_portStateTrace(port, m_ports[port].dev->IsLinkUp());
    }
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
    if (m_qps.empty())
    {
        m_qpBase = qpn;
    }
    else if (qpn < m_qpBase)
    {
        // NextQpn was set lower after the first QP: make room in front
        m_qps.insert(m_qps.begin(), m_qpBase - qpn, nullptr);
        m_qpBase = qpn;
    }
    if (qpn - m_qpBase >= m_qps.size())
    {
        m_qps.resize(qpn - m_qpBase + 1);
    }
    m_qps[qpn - m_qpBase] = qp;
    m_qpList.push_back(qp);
    m_qpCreatedTrace(qp);
    return qp;
}

uint32_t
MrcRdmaNic::SkipQueuePair()
{
    NS_ABORT_MSG_IF(m_nextQpn > 0xffffff, "MrcRdmaNic: QP numbers exhausted (24 bits)");
    return m_nextQpn++;
}

uint32_t
MrcRdmaNic::SkipMemoryRegion()
{
    return m_nextRkey++;
}

void
MrcRdmaNic::NotifyConnected(Ptr<MrcQueuePair> qp)
{
    m_qpConnectedTrace(qp);
}

void
MrcRdmaNic::RegisterEndpointHandler(uint32_t qpn, Ptr<MrcEndpointOps> handler)
{
    NS_ABORT_MSG_IF(!handler, "MrcRdmaNic::RegisterEndpointHandler: null handler");
    NS_ABORT_MSG_IF(qpn > 0xffffff,
                    "MrcRdmaNic::RegisterEndpointHandler: QPN " << qpn
                                                                << " does not fit in 24 bits");
    m_endpoints[qpn] = handler;
}

Ptr<MrcEndpointOps>
MrcRdmaNic::GetEndpointHandler(uint32_t qpn) const
{
    auto it = m_endpoints.find(qpn);
    return it == m_endpoints.end() ? nullptr : it->second;
}

Ptr<MrcQueuePair>
MrcRdmaNic::GetQueuePair(uint32_t qpn) const
{
    const uint32_t i = qpn - m_qpBase; // wraps for a QPN below the base: out of range
    return i < m_qps.size() ? m_qps[i] : nullptr;
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
    if (m_regions.size() <= m_nextRkey)
    {
        m_regions.resize(m_nextRkey + 1); // rkeys ascend: SkipMemoryRegion leaves a null
    }
    m_regions[m_nextRkey] = mr;
    ++m_nextRkey;
    return mr;
}

Ptr<MrcMemoryRegion>
MrcRdmaNic::GetMemoryRegion(uint32_t rkey) const
{
    return rkey < m_regions.size() ? m_regions[rkey] : nullptr;
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

bool
MrcRdmaNic::GetComputeUdpChecksum() const
{
    return m_computeUdpChecksum;
}

void
MrcRdmaNic::NotifyReady(Ptr<MrcQueuePair> qp)
{
    uint32_t mask = 0;
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
        mask |= 1u << p;
    }
    KickPorts(mask);
}

bool
MrcRdmaNic::SendControl(uint32_t port, Ptr<Packet> p, uint8_t dscp)
{
    NS_ASSERT(port < m_ports.size());
    Ptr<MrcNetDevice> dev = m_ports[port].dev;
    return dev->SendToClass(p, MrcNetDevice::ETHER_TYPE_IPV6, dev->ClassifyDscp(dscp));
}

bool
MrcRdmaNic::SendControlFrame(uint32_t port, Ptr<Packet> frame, uint8_t dscp)
{
    NS_ASSERT(port < m_ports.size());
    MrcNetDevice* dev = PeekPointer(m_ports[port].dev);
    return dev->SendFramed(frame, dev->ClassifyDscp(dscp));
}

void
MrcRdmaNic::WriteEthernetHeader(uint32_t port, uint8_t* out) const
{
    NS_ABORT_MSG_IF(port >= m_ports.size() || !m_ports[port].dev,
                    "MrcRdmaNic::WriteEthernetHeader: port " << port << " has no device; ports 0.."
                                                             << m_ports.size());
    m_ports[port].dev->WriteEthernetHeader(out, MrcNetDevice::ETHER_TYPE_IPV6);
}

void
MrcRdmaNic::Kick(uint32_t port)
{
    KickPorts(1u << port);
}

void
MrcRdmaNic::KickPorts(uint32_t mask)
{
    // One event serves every port kicked together, in PortOrder's order (ServeKicked): with
    // Ascending the same order and the same point in the event sequence as one event per
    // port scheduled one after the other (nothing is scheduled between them), at a fraction
    // of the event cost.
    uint32_t toServe = 0;
    for (uint32_t bits = mask; bits != 0; bits &= bits - 1)
    {
        Port& pt = m_ports[static_cast<uint32_t>(__builtin_ctz(bits))];
        if (!pt.kickPending)
        {
            pt.kickPending = true;
            toServe |= bits & (~bits + 1);
        }
    }
    if (toServe == 0)
    {
        return;
    }
    m_serveMasks.push_back(toServe);
    // as ScheduleNow; the context as the running event has it (no call through the simulator)
    const MrcHeapScheduler::RunningEvent& running = MrcHeapScheduler::GetRunningEvent();
    MrcScheduleAgain(m_serveEvent,
                     running.known ? running.context : Simulator::GetContext(),
                     Time(0));
}

void
MrcRdmaNic::ServeKicked()
{
    if (m_serveMasks.empty())
    {
        return; // disposed while the event was pending
    }
    const uint32_t mask = m_serveMasks.front();
    m_serveMasks.pop_front();
    const uint32_t n = static_cast<uint32_t>(m_ports.size());
    if (m_portOrder == PORT_ORDER_ROUND_ROBIN && n > 1)
    {
        // Start after the port that sent the last data packet (fixed for this pass).
        const uint32_t start = (m_lastDataPort + 1) % n;
        for (uint32_t i = 0; i < n; ++i)
        {
            const uint32_t port = (start + i) % n;
            if (mask & (1u << port))
            {
                Serve(port);
            }
        }
        return;
    }
    for (uint32_t bits = mask; bits != 0; bits &= bits - 1)
    {
        Serve(static_cast<uint32_t>(__builtin_ctz(bits)));
    }
}

void
MrcRdmaNic::ArmWake(uint32_t port, const Time& delay)
{
    Port& pt = m_ports[port];
    if (pt.wakePending)
    {
        // A cancelled schedule stays in the queue until its time, as after EventId::Cancel
        // (the event counts run and the order of the others is as before): the new one
        // needs an object of its own.
        pt.wakeEvent->Cancel();
        pt.wakeEvent = nullptr;
    }
    if (!pt.wakeEvent)
    {
        pt.wakeEvent = Create<MrcReusableEvent>([this, port]() { WakeUp(port); });
    }
    pt.wakePending = true;
    // as Simulator::Schedule (the next uid, the running event's context), without an
    // EventId, an event object per packet or the simulator's per-call logging; the wake-up
    // reads the port's record first (its lines are read ahead with the event's)
    const MrcHeapScheduler::RunningEvent& running = MrcHeapScheduler::GetRunningEvent();
    MrcHeapScheduler::HintNextInsert(&pt);
    MrcScheduleAgain(pt.wakeEvent,
                     running.known ? running.context : Simulator::GetContext(),
                     delay);
}

void
MrcRdmaNic::WakeUp(uint32_t port)
{
    m_ports[port].wakePending = false;
    if (!m_ports[port].kickPending)
    {
        Serve(port);
    }
}

void
MrcRdmaNic::PortDequeued(uint32_t port,
                         const Ptr<Packet>& /* frame */,
                         uint8_t cls,
                         uint64_t /* tag */,
                         uint8_t& /* unwritten */)
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
    const Time now = MrcNow();
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
        m_lastDataPort = port;
        if (!pt.dev->SendFramed(tx.packet, pt.dev->ClassifyDscp(tx.dscp)))
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
    if (earliest != Time::Max() && (!pt.wakePending || pt.wakeAt > earliest))
    {
        ArmWake(port, earliest - now);
        pt.wakeAt = earliest;
    }
}

void
MrcRdmaNic::PortReceive(uint32_t port,
                        const Ptr<Packet>& p,
                        uint16_t etherType,
                        uint8_t /* cls */,
                        const MrcRxHead& head)
{
    NS_ASSERT(port < m_ports.size());
    MrcPacketInfo info;
    // the headers as the device read them with the Ethernet header (no second read)
    if (etherType != MrcNetDevice::ETHER_TYPE_IPV6 ||
        !MrcParsePacket(*p, head.bytes, head.count, info, m_bthUdpPort, head.edits) ||
        !info.hasBth || info.headerBytes > MAX_HEADER_BYTES || info.packetBytes < info.headerBytes)
    {
        ++m_rxNotBth;
        MrcWriteIpv6Edits(p, head.edits); // the trace sees the bytes as sent
        m_rxDropTrace(p, "not-bth");
        return;
    }
    uint8_t hdr[MAX_HEADER_BYTES];
    const uint8_t* headers = head.bytes;
    if (info.headerBytes > head.count)
    {
        p->CopyData(hdr, info.headerBytes);
        MrcApplyIpv6Edits(hdr, head.edits); // as the head has them
        headers = hdr;
    }
    const uint8_t* bth = headers + info.bthOffset;
    MrcRxPacket rx;
    rx.packet = p;
    rx.info = &info;
    rx.headers = headers;
    rx.port = port;
    rx.edits = head.edits;
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
    const uint32_t slot = rx.destQp - m_qpBase; // wraps for a QPN below the base
    MrcQueuePair* qp = slot < m_qps.size() ? PeekPointer(m_qps[slot]) : nullptr;
    if (!qp)
    {
        // not the frame path of a queue pair: the packet's bytes as sent
        MrcWriteIpv6Edits(p, head.edits);
        rx.edits = 0;
        auto ep = m_endpoints.find(rx.destQp);
        if (ep != m_endpoints.end() && ep->second->ReceiveEndpoint(rx))
        {
            return;
        }
        ++m_rxUnknownQp;
        m_rxDropTrace(p, "unknown-qp");
        return;
    }
    qp->Receive(rx);
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

MrcRdmaNic::PortStatusScope
MrcRdmaNic::GetPortStatusScope() const
{
    return m_portStatusScope;
}

MrcEndpointStats
MrcRdmaNic::EndpointStats() const
{
    Ptr<MrcEndpointOps> h = GetEndpointHandler(MRC_ENDPOINT_QPN);
    return h ? h->GetEndpointStats() : MrcEndpointStats();
}

uint64_t
MrcRdmaNic::GetPortStatusSent() const
{
    return EndpointStats().requestsSent;
}

uint64_t
MrcRdmaNic::GetPortStatusResent() const
{
    return EndpointStats().requestsResent;
}

uint64_t
MrcRdmaNic::GetPortStatusAnswered() const
{
    return EndpointStats().responsesMatched;
}

uint64_t
MrcRdmaNic::GetPortStatusReceived() const
{
    return EndpointStats().requestsApplied;
}

uint64_t
MrcRdmaNic::GetPortStatusResponses() const
{
    return EndpointStats().responsesSent;
}

uint16_t
MrcRdmaNic::GetPortStatusRequestId(Ipv6Address peer) const
{
    Ptr<MrcEndpointOps> h = GetEndpointHandler(MRC_ENDPOINT_QPN);
    return h ? h->GetRequestId(peer) : 0;
}

} // namespace ns3
