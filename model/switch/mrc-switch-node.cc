/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-switch-node.h"

#include "mrc-ecmp-forwarding.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/ethernet-header.h"
#include "ns3/ipv6-header.h"
#include "ns3/log.h"
#include "ns3/mrc-channel.h"
#include "ns3/mrc-traffic-class.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcSwitchNode");

NS_OBJECT_ENSURE_REGISTERED(MrcSwitchNode);

std::string
MrcSwitchDropReasonName(MrcSwitchDropReason reason)
{
    switch (reason)
    {
    case MrcSwitchDropReason::NO_ROUTE:
        return "no-route";
    case MrcSwitchDropReason::PARSE_ERROR:
        return "parse-error";
    case MrcSwitchDropReason::MMU_SHARED_FULL:
        return "mmu-shared-full";
    case MrcSwitchDropReason::MMU_HEADROOM_FULL:
        return "mmu-headroom-full";
    case MrcSwitchDropReason::MMU_EGRESS_LIMIT:
        return "mmu-egress-limit";
    case MrcSwitchDropReason::HEADER_QUEUE_FULL:
        return "header-queue-full";
    case MrcSwitchDropReason::EGRESS_QUEUE_FULL:
        return "egress-queue-full";
    case MrcSwitchDropReason::LINK_DOWN:
        return "link-down";
    }
    return "unknown";
}

TypeId
MrcSwitchNode::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcSwitchNode")
            .SetParent<Node>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcSwitchNode>()
            .AddAttribute("Forwarding",
                          "TypeId of the forwarding strategy (a subclass of ns3::MrcForwarding) "
                          "created when none was set with SetForwarding.",
                          TypeIdValue(MrcEcmpForwarding::GetTypeId()),
                          MakeTypeIdAccessor(&MrcSwitchNode::m_forwardingType),
                          MakeTypeIdChecker())
            .AddAttribute("EcnEnabled",
                          "Mark ECN-capable packets with the per-port ECN markers.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcSwitchNode::m_ecnEnabled),
                          MakeBooleanChecker())
            .AddAttribute("TrimmingEnabled",
                          "Trim trimmable packets (MrcTrimmer) instead of queueing or "
                          "dropping them.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MrcSwitchNode::m_trimmingEnabled),
                          MakeBooleanChecker())
            .AddAttribute("NoEcnToHost",
                          "Do not ECN-mark on ports that face a host (MRC's rule); given to "
                          "every port's ECN marker.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MrcSwitchNode::m_noEcnToHost),
                          MakeBooleanChecker())
            .AddAttribute("ControlClass",
                          "Class of control traffic and trimmed headers (never ECN-marked); "
                          "the device's default DSCP map puts DSCP 46, 11 and 21 in class 7.",
                          UintegerValue(7),
                          MakeUintegerAccessor(&MrcSwitchNode::SetControlClass,
                                               &MrcSwitchNode::GetControlClass),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddAttribute("AutoHeadroom",
                          "At FinishSetup, set each port's PFC headroom to 3 x rate x link "
                          "delay + 2 maximum frames on the wire; false keeps the MMU's "
                          "Headroom attribute.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcSwitchNode::m_autoHeadroom),
                          MakeBooleanChecker())
            .AddAttribute("BthUdpPort",
                          "UDP destination port that announces a BTH (for the parser).",
                          UintegerValue(MRC_ROCEV2_UDP_PORT),
                          MakeUintegerAccessor(&MrcSwitchNode::m_bthUdpPort),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("Mmu",
                          "The shared-buffer MMU.",
                          PointerValue(),
                          MakePointerAccessor(&MrcSwitchNode::SetMmu, &MrcSwitchNode::GetMmu),
                          MakePointerChecker<MrcSharedBufferMmu>())
            .AddAttribute(
                "Trimmer",
                "The packet trimmer.",
                PointerValue(),
                MakePointerAccessor(&MrcSwitchNode::SetTrimmer, &MrcSwitchNode::GetTrimmer),
                MakePointerChecker<MrcTrimmer>())
            .AddTraceSource("Drop",
                            "A packet was dropped by the switch.",
                            MakeTraceSourceAccessor(&MrcSwitchNode::m_dropTrace),
                            "ns3::MrcSwitchNode::DropTracedCallback")
            .AddTraceSource("Trim",
                            "A packet was trimmed.",
                            MakeTraceSourceAccessor(&MrcSwitchNode::m_trimTrace),
                            "ns3::MrcSwitchNode::TrimTracedCallback")
            .AddTraceSource("EcnMark",
                            "A packet was ECN-marked CE.",
                            MakeTraceSourceAccessor(&MrcSwitchNode::m_markTrace),
                            "ns3::MrcSwitchNode::MarkTracedCallback")
            .AddTraceSource("Forward",
                            "A packet is handed to its egress port.",
                            MakeTraceSourceAccessor(&MrcSwitchNode::m_forwardTrace),
                            "ns3::MrcSwitchNode::ForwardTracedCallback");
    return tid;
}

namespace
{
uint32_t g_systemIdOfNewSwitches = 0; //!< see MrcSwitchNode::SystemIdScope

/// \param d an MMU refusal \return the drop reason that counts it
MrcSwitchDropReason
MmuDropReason(MrcSharedBufferMmu::Decision d)
{
    if (d == MrcSharedBufferMmu::DROP_HEADROOM_FULL)
    {
        return MrcSwitchDropReason::MMU_HEADROOM_FULL;
    }
    if (d == MrcSharedBufferMmu::DROP_EGRESS_LIMIT)
    {
        return MrcSwitchDropReason::MMU_EGRESS_LIMIT;
    }
    return MrcSwitchDropReason::MMU_SHARED_FULL;
}
} // namespace

MrcSwitchNode::SystemIdScope::SystemIdScope(uint32_t systemId)
    : m_saved(g_systemIdOfNewSwitches)
{
    g_systemIdOfNewSwitches = systemId;
}

MrcSwitchNode::SystemIdScope::~SystemIdScope()
{
    g_systemIdOfNewSwitches = m_saved;
}

MrcSwitchNode::MrcSwitchNode()
    : Node(g_systemIdOfNewSwitches),
      m_forwardingType(MrcEcmpForwarding::GetTypeId()),
      m_ecnEnabled(true),
      m_trimmingEnabled(false),
      m_noEcnToHost(false),
      m_controlClass(7),
      m_autoHeadroom(true),
      m_bthUdpPort(MRC_ROCEV2_UDP_PORT)
{
    NS_LOG_FUNCTION(this);
    m_markerFactory.SetTypeId(MrcEcnMarker::GetTypeId());
}

MrcSwitchNode::~MrcSwitchNode()
{
    NS_LOG_FUNCTION(this);
}

void
MrcSwitchNode::NotifyConstructionCompleted()
{
    Node::NotifyConstructionCompleted();
    if (!m_mmu)
    {
        m_mmu = CreateObject<MrcSharedBufferMmu>();
    }
    if (!m_trimmer)
    {
        m_trimmer = CreateObject<MrcTrimmer>();
    }
}

void
MrcSwitchNode::DoDispose()
{
    for (auto& cold : m_portCold)
    {
        if (cold.refresh)
        {
            for (auto& ev : *cold.refresh)
            {
                ev.Cancel();
            }
        }
    }
    for (auto& port : m_ports)
    {
        if (port.dev)
        {
            port.dev->SetPortOwner(nullptr, 0);
            port.dev->SetClassReceiveCallback(MrcNetDevice::ClassReceiveCallback());
            port.dev->SetDequeueHook(MrcNetDevice::DequeueHook());
        }
        port.dev = nullptr;
        port.marker = nullptr;
    }
    m_ports.clear();
    m_portCold.clear();
    m_forwarding = nullptr;
    m_mmu = nullptr;
    m_trimmer = nullptr;
    Node::DoDispose();
}

void
MrcSwitchNode::SetControlClass(uint8_t cls)
{
    m_controlClass = cls;
    for (auto& port : m_ports)
    {
        port.marker->SetAttribute("ControlClass", UintegerValue(cls));
    }
}

uint8_t
MrcSwitchNode::GetControlClass() const
{
    return m_controlClass;
}

Ptr<MrcEcnMarker>
MrcSwitchNode::MakeMarker() const
{
    Ptr<MrcEcnMarker> m = m_markerFactory.Create<MrcEcnMarker>();
    m->SetAttribute("ControlClass", UintegerValue(m_controlClass));
    m->SetAttribute("NoEcnToHost", BooleanValue(m_noEcnToHost));
    return m;
}

uint32_t
MrcSwitchNode::AddPort(Ptr<MrcNetDevice> dev, bool facesHost)
{
    NS_LOG_FUNCTION(this << dev << facesHost);
    NS_ABORT_MSG_IF(!dev, "MrcSwitchNode::AddPort: null device");
    NS_ABORT_MSG_IF(m_setupDone,
                    "MrcSwitchNode::AddPort: switch " << GetId()
                                                      << " is set up already (ports are fixed "
                                                         "at FinishSetup or the first packet)");
    NS_ABORT_MSG_IF(GetPortIndex(dev) >= 0,
                    "MrcSwitchNode::AddPort: the device is already port " << GetPortIndex(dev));
    if (dev->GetNode() != this)
    {
        NS_ABORT_MSG_IF(dev->GetNode(),
                        "MrcSwitchNode::AddPort: the device belongs to node "
                            << dev->GetNode()->GetId() << ", not switch " << GetId());
        AddDevice(dev);
    }
    const uint32_t index = static_cast<uint32_t>(m_ports.size());
    m_ports.emplace_back();
    m_portCold.emplace_back();
    Port& port = m_ports.back();
    port.dev = dev;
    port.facesHost = facesHost;
    port.marker = MakeMarker();
    // Class receive path and dequeue hook, through the device's direct owner interface.
    dev->SetClassReceiveCallback(MrcNetDevice::ClassReceiveCallback());
    dev->SetDequeueHook(MrcNetDevice::DequeueHook());
    dev->SetPortOwner(this, index);
    dev->AddLinkChangeCallback(Callback<void>([this, index]() { LinkChanged(index); }));
    return index;
}

void
MrcSwitchNode::FinishSetup()
{
    if (m_setupDone)
    {
        return;
    }
    NS_LOG_FUNCTION(this);
    m_setupDone = true;
    GetForwarding();
    m_mmu->ConfigurePorts(static_cast<uint32_t>(m_ports.size()));
    if (m_autoHeadroom)
    {
        for (uint32_t i = 0; i < m_ports.size(); ++i)
        {
            Ptr<MrcNetDevice> dev = m_ports[i].dev;
            Ptr<MrcChannel> ch = dev->GetMrcChannel();
            Time delay = ch ? ch->GetDelay() : Time(0);
            // Bytes that arrive after the PAUSE is decided: the frame the switch is
            // sending when it decides, the PAUSE's own trip, the frame the sender is
            // in the middle of, and the wire in both directions.
            const uint64_t maxFrame = dev->GetMtu() + 14 + 24;
            m_mmu->SetHeadroom(i,
                               MrcSharedBufferMmu::ComputeHeadroom(dev->GetDataRate(), delay) +
                                   2 * maxFrame);
        }
    }
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        if (!m_ports[i].dev->IsLinkUp())
        {
            m_forwarding->SetPortState(i, false);
        }
    }
}

uint32_t
MrcSwitchNode::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<MrcNetDevice>
MrcSwitchNode::GetPort(uint32_t port) const
{
    NS_ABORT_MSG_IF(port >= m_ports.size(),
                    "MrcSwitchNode::GetPort: port " << port << " of " << m_ports.size());
    return m_ports[port].dev;
}

bool
MrcSwitchNode::IsHostFacing(uint32_t port) const
{
    NS_ABORT_MSG_IF(port >= m_ports.size(),
                    "MrcSwitchNode::IsHostFacing: port " << port << " of " << m_ports.size());
    return m_ports[port].facesHost;
}

int32_t
MrcSwitchNode::GetPortIndex(Ptr<const NetDevice> dev) const
{
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        if (PeekPointer(m_ports[i].dev) == PeekPointer(dev))
        {
            return static_cast<int32_t>(i);
        }
    }
    return -1;
}

Ptr<MrcForwarding>
MrcSwitchNode::GetForwarding()
{
    if (!m_forwarding)
    {
        ObjectFactory f;
        f.SetTypeId(m_forwardingType);
        m_forwarding = f.Create<MrcForwarding>();
        NS_ABORT_MSG_IF(!m_forwarding,
                        "MrcSwitchNode: Forwarding " << m_forwardingType.GetName()
                                                     << " is not an ns3::MrcForwarding");
        m_forwarding->SetPortLoadCallback(MakeCallback(&MrcSwitchNode::GetQueueBytes, this));
    }
    return m_forwarding;
}

void
MrcSwitchNode::SetForwarding(Ptr<MrcForwarding> fwd)
{
    m_forwarding = fwd;
    if (m_forwarding)
    {
        m_forwarding->SetPortLoadCallback(MakeCallback(&MrcSwitchNode::GetQueueBytes, this));
    }
}

uint64_t
MrcSwitchNode::GetQueueBytes(uint32_t port) const
{
    return port < m_ports.size() ? m_ports[port].dev->GetTotalQueueBytes() : 0;
}

Ptr<MrcSharedBufferMmu>
MrcSwitchNode::GetMmu() const
{
    return m_mmu;
}

void
MrcSwitchNode::SetMmu(Ptr<MrcSharedBufferMmu> mmu)
{
    NS_ABORT_MSG_IF(m_setupDone, "MrcSwitchNode::SetMmu after FinishSetup");
    m_mmu = mmu;
}

Ptr<MrcTrimmer>
MrcSwitchNode::GetTrimmer() const
{
    return m_trimmer;
}

void
MrcSwitchNode::SetTrimmer(Ptr<MrcTrimmer> trimmer)
{
    m_trimmer = trimmer;
}

Ptr<MrcEcnMarker>
MrcSwitchNode::GetEcnMarker(uint32_t port) const
{
    NS_ABORT_MSG_IF(port >= m_ports.size(),
                    "MrcSwitchNode::GetEcnMarker: port " << port << " of " << m_ports.size());
    return m_ports[port].marker;
}

void
MrcSwitchNode::SetEcnMarkerFactory(const ObjectFactory& factory)
{
    m_markerFactory = factory;
}

// ---------------------------------------------------------------- per-packet path

namespace
{

/// The per-frame checks' messages, out of line: the frame path keeps only a test and a call.
[[noreturn]] void
AbortRecordBytes(uint32_t bytes, uint32_t inPort)
{
    NS_FATAL_ERROR("MrcSwitchNode: a " << bytes << "-byte packet from port " << inPort
                                       << "; at most " << ((1u << 24) - 1)
                                       << " bytes are accounted per packet, on ports 0.."
                                       << ((1u << 24) - 1));
}

[[noreturn]] void
AbortUnrecorded(uint32_t node, uint32_t port, uint8_t cls, const char* what)
{
    NS_FATAL_ERROR("MrcSwitchNode " << node << ": port " << port << " class " << unsigned(cls)
                                    << " " << what << " a frame it did not enqueue");
}

} // namespace

uint64_t
MrcSwitchNode::Record::Pack() const
{
    if ((bytes | inPort) >= (1u << 24))
    {
        AbortRecordBytes(bytes, inPort);
    }
    // bits 0-23 ingress port, 24-47 bytes, 48-50 ingress class, 51 ECN-capable, 52
    // trimmable (bits 59-63 belong to the queue slot: MrcClassScheduler::Enqueue)
    return uint64_t{inPort} | (uint64_t{bytes} << 24) | (uint64_t{inPrio & 7u} << 48) |
           (uint64_t{ecnCapable} << 51) | (uint64_t{trimmable} << 52);
}

MrcSwitchNode::Record
MrcSwitchNode::Record::Unpack(uint64_t tag)
{
    return Record{static_cast<uint32_t>(tag & 0xffffffu),
                  static_cast<uint32_t>((tag >> 24) & 0xffffffu),
                  static_cast<uint8_t>((tag >> 48) & 7u),
                  ((tag >> 51) & 1u) != 0,
                  ((tag >> 52) & 1u) != 0};
}

void
MrcSwitchNode::Drop(Ptr<const Packet> p, uint32_t inPort, uint32_t countPort, MrcSwitchDropReason r)
{
    const std::size_t i = static_cast<std::size_t>(r);
    ++m_portCold[countPort].drops[i];
    m_dropBytes[i] += p->GetSize();
    NS_LOG_LOGIC("switch " << GetId() << " drops " << p->GetSize() << " bytes from port " << inPort
                           << ": " << MrcSwitchDropReasonName(r));
    m_dropTrace(p, inPort, r);
}

void
MrcSwitchNode::PortReceive(uint32_t inPort,
                           const Ptr<Packet>& p,
                           uint16_t etherType,
                           uint8_t inPrio,
                           const MrcRxHead& head)
{
    if (!m_setupDone)
    {
        FinishSetup();
    }
    // (the port's received frames are its device's count: GetRxPackets)

    // One parse result reused for every packet (its Ipv6Address members make a fresh
    // one cost constructor and destructor calls). Frames arrive through simulator
    // events only, so this function is never re-entered while it uses it.
    MrcPacketInfo& info = m_info;
    // the headers as the device read them with the Ethernet header (no second read)
    // (head.edits: edits of the IPv6 header, uN shifts and a CE mark, that the packet's
    // bytes lack and the head's have, carried from the switches before:
    // MrcNetDevice::SendToClass, PortDequeued)
    const uint8_t inEdits = head.edits;
    if (etherType != MrcNetDevice::ETHER_TYPE_IPV6 ||
        !MrcParsePacket(*p, head.bytes, head.count, info, m_bthUdpPort, inEdits))
    {
        MrcWriteIpv6Edits(p, inEdits); // the drop trace sees the bytes sent
        Drop(p, inPort, inPort, MrcSwitchDropReason::PARSE_ERROR);
        return;
    }
    const int32_t route = m_forwarding->Route(info, inPort);
    if (route == MrcForwarding::NO_ROUTE || static_cast<uint32_t>(route) >= m_ports.size())
    {
        MrcWriteIpv6Edits(p, inEdits);
        Drop(p, inPort, inPort, MrcSwitchDropReason::NO_ROUTE);
        return;
    }
    const uint32_t outPort = static_cast<uint32_t>(route);
    // What the packet's bytes lack: the edits carried in and the forwarding's rewrite of
    // the destination. uN shifts only (SRv6), and no more than a frame carries: they go on
    // beside the packet, unwritten (a switch hop writes no bytes). Another rewrite goes out
    // with the egress Ethernet header (one header operation instead of two). Either way, a
    // trim, an enqueue-time ECN mark, the Forward trace or a drop write it first.
    bool rewritePending = info.rewriteDst || inEdits != 0;
    const uint32_t inShifts = inEdits & MRC_IPV6_EDIT_SHIFTS;
    const uint32_t pendingShifts = !info.rewriteDst ? inShifts
                                   : info.dstShifts == MrcPacketInfo::DST_REWRITTEN
                                       ? MRC_IPV6_EDIT_SHIFTS + 1
                                       : inShifts + info.dstShifts;
    auto writeDestination = [&rewritePending, &p, &info, inEdits]() {
        if (rewritePending)
        {
            MrcWriteDestination(p, info);
            MrcWriteIpv6Edits(p, inEdits & MRC_IPV6_EDIT_CE);
            rewritePending = false;
        }
    };
    Port& out = m_ports[outPort];
    // raw pointers for the per-frame calls (a Ptr's checked dereference is a call with
    // asserts on); the objects live as long as the switch
    MrcNetDevice* const outDev = PeekPointer(out.dev);
    outDev->PrefetchForSend(); // its lines load while the buffer admits the packet
    MrcSharedBufferMmu* const mmu = PeekPointer(m_mmu);
    uint8_t outPrio = outDev->ClassifyDscp(info.GetDscp());
    Ptr<Packet> trimmedPacket; // the arrival's trimmed form, if it is trimmed
    bool admitted = false;
    bool trimmed = false;

    const bool trimmable =
        m_trimmingEnabled && outPrio != m_controlClass && m_trimmer->IsTrimmable(info);
    if (trimmable)
    {
        bool trim = m_trimmer->ShouldTrim(info, outDev->GetQueueBytes(outPrio));
        if (trim && m_trimmer->TrimQueuedVictim() && TrimLastQueued(outPort, outPrio))
        {
            // The queued packet paid for the crossing: the arrival takes its place.
            trim = false;
        }
        if (!trim)
        {
            // Trim what the buffer would otherwise drop (the MMU counts that drop).
            MrcSharedBufferMmu::Decision d =
                mmu->Admit(inPort, inPrio, outPort, outPrio, p->GetSize());
            admitted = (d == MrcSharedBufferMmu::ADMIT);
            trim = !admitted;
        }
        if (trim)
        {
            writeDestination();
            trimmedPacket = m_trimmer->Trim(p, info, out.facesHost);
            if (!m_trimmer->AdmitHeader(outDev->GetQueueBytes(m_controlClass),
                                        trimmedPacket->GetSize()))
            {
                Drop(p, inPort, outPort, MrcSwitchDropReason::HEADER_QUEUE_FULL);
                return;
            }
            outPrio = m_controlClass;
            trimmed = true;
            ++out.trimmed;
            m_trimTrace(p, trimmedPacket, outPort);
        }
    }

    // what is queued: the arrival itself (no copy of its pointer) or its trimmed form
    const Ptr<Packet>& send = trimmed ? trimmedPacket : p;
    const uint32_t bytes = send->GetSize();
    if (!admitted)
    {
        MrcSharedBufferMmu::Decision d = mmu->Admit(inPort, inPrio, outPort, outPrio, bytes);
        if (d != MrcSharedBufferMmu::ADMIT)
        {
            writeDestination();
            Drop(send, inPort, outPort, MmuDropReason(d));
            return;
        }
    }
    CheckPause(inPort, inPrio);

    bool ecnCapable = !trimmed && outPrio != m_controlClass && m_ecnEnabled &&
                      MrcIsEcnCapable(info.GetEcn()) && info.GetEcn() != MrcEcn::CE &&
                      out.marker->IsActiveOn(out.facesHost);
    if (ecnCapable && out.marker->GetMarkPoint() == MrcEcnMarker::ENQUEUE)
    {
        writeDestination();
        if (out.marker->MaybeMark(send, outDev->GetQueueBytes(outPrio), outPrio))
        {
            ++out.marked;
            m_markTrace(send, outPort);
        }
        ecnCapable = false;
    }

    const uint64_t tag = Record{inPort, bytes, inPrio, ecnCapable, trimmable && !trimmed}.Pack();
    if (!m_forwardTrace.IsEmpty())
    {
        writeDestination();
        m_forwardTrace(send, inPort, outPort, outPrio);
    }
    const bool linkUp = outDev->IsLinkUp();
    bool queued;
    if (rewritePending && pendingShifts <= MRC_IPV6_EDIT_SHIFTS)
    {
        queued =
            outDev->SendToClass(send,
                                MrcNetDevice::ETHER_TYPE_IPV6,
                                outPrio,
                                tag,
                                static_cast<uint8_t>(pendingShifts | (inEdits & MRC_IPV6_EDIT_CE)));
    }
    else if (rewritePending)
    {
        uint8_t ip[MRC_IPV6_HEADER_BYTES];
        MrcIpv6WithDestination(info, ip);
        queued = outDev->SendToClassReplacing(send,
                                              MrcNetDevice::ETHER_TYPE_IPV6,
                                              outPrio,
                                              ip,
                                              MRC_IPV6_HEADER_BYTES,
                                              tag);
    }
    else
    {
        queued = outDev->SendToClass(send, MrcNetDevice::ETHER_TYPE_IPV6, outPrio, tag);
    }
    if (!queued)
    {
        // Refused at enqueue: the dequeue hook did not run for it.
        mmu->Release(inPort, inPrio, outPort, outPrio, bytes);
        Drop(send,
             inPort,
             outPort,
             linkUp ? MrcSwitchDropReason::EGRESS_QUEUE_FULL : MrcSwitchDropReason::LINK_DOWN);
        CheckResume(inPort, inPrio);
    }
}

bool
MrcSwitchNode::TrimLastQueued(uint32_t outPort, uint8_t cls)
{
    Port& out = m_ports[outPort];
    uint64_t tag;
    if (!out.dev->PeekLastTag(cls, tag) || !Record::Unpack(tag).trimmable)
    {
        return false;
    }
    const Record rec = Record::Unpack(tag);
    Ptr<Packet> p = out.dev->RemoveLastFromClass(cls);
    NS_ABORT_MSG_IF(!p || p->GetSize() != rec.bytes,
                    "MrcSwitchNode " << GetId() << ": port " << outPort << " class "
                                     << unsigned(cls) << " has no queued " << rec.bytes
                                     << "-byte packet to trim");
    m_mmu->Release(rec.inPort, rec.inPrio, outPort, cls, rec.bytes);
    MrcPacketInfo& info = m_victimInfo;
    const bool parsed = MrcParsePacket(p, info, m_bthUdpPort);
    NS_ABORT_MSG_UNLESS(parsed, "MrcSwitchNode " << GetId() << ": a queued packet does not parse");
    Ptr<Packet> send = m_trimmer->Trim(p, info, out.facesHost);
    const uint32_t bytes = send->GetSize();
    if (!m_trimmer->AdmitHeader(out.dev->GetQueueBytes(m_controlClass), bytes))
    {
        Drop(p, rec.inPort, outPort, MrcSwitchDropReason::HEADER_QUEUE_FULL);
        CheckResume(rec.inPort, rec.inPrio);
        return true;
    }
    ++out.trimmed;
    m_trimTrace(p, send, outPort);
    const MrcSharedBufferMmu::Decision d =
        m_mmu->Admit(rec.inPort, rec.inPrio, outPort, m_controlClass, bytes);
    if (d != MrcSharedBufferMmu::ADMIT)
    {
        Drop(send, rec.inPort, outPort, MmuDropReason(d));
        CheckResume(rec.inPort, rec.inPrio);
        return true;
    }
    if (!m_forwardTrace.IsEmpty())
    {
        m_forwardTrace(send, rec.inPort, outPort, m_controlClass);
    }
    const bool linkUp = out.dev->IsLinkUp();
    if (!out.dev->SendToClass(send,
                              MrcNetDevice::ETHER_TYPE_IPV6,
                              m_controlClass,
                              Record{rec.inPort, bytes, rec.inPrio, false, false}.Pack()))
    {
        m_mmu->Release(rec.inPort, rec.inPrio, outPort, m_controlClass, bytes);
        Drop(send,
             rec.inPort,
             outPort,
             linkUp ? MrcSwitchDropReason::EGRESS_QUEUE_FULL : MrcSwitchDropReason::LINK_DOWN);
    }
    CheckResume(rec.inPort, rec.inPrio);
    return true;
}

void
MrcSwitchNode::PortDequeued(uint32_t port,
                            const Ptr<Packet>& frame,
                            uint8_t cls,
                            uint64_t tag,
                            uint8_t& unwritten)
{
    Port& out = m_ports[port];
    // every frame a switch queues carries its record (PortReceive, TrimLastQueued), whose
    // bytes are never 0; a frame queued by someone else has the tag 0
    const Record rec = Record::Unpack(tag);
    if (rec.bytes == 0)
    {
        AbortUnrecorded(GetId(), port, cls, "dequeued");
    }
    ++out.txPackets;
    m_mmu->Release(rec.inPort, rec.inPrio, port, cls, rec.bytes);
    if (rec.ecnCapable && out.marker->GetMarkPoint() == MrcEcnMarker::DEQUEUE &&
        out.marker->ShouldMark(out.dev->GetQueueBytes(cls)))
    {
        if ((unwritten & MRC_UNWRITTEN_HEADER) && m_markTrace.IsEmpty())
        {
            // nothing reads the frame here: the mark travels beside it, as its other edits
            // (the next device applies it to the bytes its owner reads)
            unwritten |= MrcUnwrittenWithEdits(MRC_IPV6_EDIT_CE);
        }
        else
        {
            if (unwritten)
            {
                out.dev->WriteUnwritten(frame, unwritten, false); // the mark and trace see it
                unwritten = MRC_UNWRITTEN_NONE;
            }
            MarkFrame(frame);
        }
        ++out.marked;
        m_markTrace(frame, port);
    }
    if (rec.inPort == port)
    {
        // A RESUME sent from inside this device's own dequeue would re-enter its
        // transmitter before it has started the frame: send it a moment later.
        Simulator::ScheduleNow(&MrcSwitchNode::CheckResume, this, rec.inPort, rec.inPrio);
    }
    else
    {
        CheckResume(rec.inPort, rec.inPrio);
    }
}

void
MrcSwitchNode::PortFlushed(uint32_t /* port */,
                           const Ptr<Packet>& /* frame */,
                           uint8_t cls,
                           uint64_t tag)
{
    // kept until the port's LinkChanged, which the device calls right after its flush
    m_flushed.emplace_back(cls, Record::Unpack(tag));
}

void
MrcSwitchNode::MarkFrame(Ptr<Packet> frame)
{
    // The IPv6 header follows the 14-byte Ethernet header; rewrite its ECN in place.
    MrcMarkCeInPlace(frame, 14);
}

void
MrcSwitchNode::LinkChanged(uint32_t port)
{
    Port& p = m_ports[port];
    const bool up = p.dev->IsLinkUp();
    NS_LOG_FUNCTION(this << port << up);
    GetForwarding()->SetPortState(port, up);
    if (up || !m_setupDone)
    {
        m_flushed.clear();
        return;
    }
    // The device flushed its class queues before calling us, class 0 first and head
    // first, and handed us each frame's record (PortFlushed): release what they held.
    std::vector<std::pair<uint32_t, uint8_t>> touched;
    for (const auto& [cls, rec] : m_flushed)
    {
        if (rec.bytes == 0)
        {
            AbortUnrecorded(GetId(), port, cls, "flushed");
        }
        m_mmu->Release(rec.inPort, rec.inPrio, port, cls, rec.bytes);
        ++m_portCold[port].drops[static_cast<std::size_t>(MrcSwitchDropReason::LINK_DOWN)];
        m_dropBytes[static_cast<std::size_t>(MrcSwitchDropReason::LINK_DOWN)] += rec.bytes;
        touched.emplace_back(rec.inPort, rec.inPrio);
    }
    m_flushed.clear();
    for (const auto& t : touched)
    {
        CheckResume(t.first, t.second);
    }
}

// ---------------------------------------------------------------- PFC

void
MrcSwitchNode::CheckPause(uint32_t inPort, uint8_t prio)
{
    if (m_mmu->ShouldPause(inPort, prio))
    {
        RefreshPause(inPort, prio);
    }
}

void
MrcSwitchNode::RefreshPause(uint32_t inPort, uint8_t prio)
{
    if (!m_mmu->IsPaused(inPort, prio))
    {
        return;
    }
    Port& p = m_ports[inPort];
    PortCold& cold = m_portCold[inPort];
    p.dev->SendPause(prio, PAUSE_QUANTA);
    ++cold.pauses;
    // Renew at half the pause time, so the peer never resumes on its own while the
    // queue is still above its threshold.
    Time half = p.dev->GetPauseDuration(PAUSE_QUANTA) / 2;
    if (!cold.refresh)
    {
        cold.refresh = std::make_unique<std::array<EventId, MrcNetDevice::N_CLASSES>>();
    }
    EventId& refresh = (*cold.refresh)[prio];
    refresh.Cancel();
    refresh = Simulator::Schedule(half, &MrcSwitchNode::RefreshPause, this, inPort, prio);
}

void
MrcSwitchNode::CheckResume(uint32_t inPort, uint8_t prio)
{
    if (m_mmu->ShouldResume(inPort, prio))
    {
        PortCold& cold = m_portCold[inPort];
        if (cold.refresh)
        {
            (*cold.refresh)[prio].Cancel();
        }
        m_ports[inPort].dev->SendResume(prio);
        ++cold.resumes;
    }
}

// ---------------------------------------------------------------- counters

uint64_t
MrcSwitchNode::GetRxPackets() const
{
    uint64_t n = 0;
    for (uint32_t port = 0; port < m_ports.size(); ++port)
    {
        n += GetRxPackets(port);
    }
    return n;
}

uint64_t
MrcSwitchNode::GetRxPackets(uint32_t port) const
{
    // Every frame the device counts as received (all but PFC frames and receive-error
    // drops) reaches PortReceive: the device's count is the port's, and PortReceive does
    // not touch the ingress port's state for it (one cache line a hop less).
    const Ptr<MrcNetDevice>& dev = m_ports.at(port).dev;
    uint64_t n = 0;
    for (uint8_t cls = 0; cls < MrcNetDevice::N_CLASSES; ++cls)
    {
        n += dev->GetRxPackets(cls);
    }
    return n;
}

uint64_t
MrcSwitchNode::GetTxPackets() const
{
    return Sum(&Port::txPackets);
}

uint64_t
MrcSwitchNode::GetTxPackets(uint32_t port) const
{
    return m_ports.at(port).txPackets;
}

uint64_t
MrcSwitchNode::GetDropPackets(MrcSwitchDropReason reason) const
{
    uint64_t n = 0;
    for (const auto& cold : m_portCold)
    {
        n += cold.drops[static_cast<std::size_t>(reason)];
    }
    return n;
}

uint64_t
MrcSwitchNode::GetDropBytes(MrcSwitchDropReason reason) const
{
    return m_dropBytes[static_cast<std::size_t>(reason)];
}

uint64_t
MrcSwitchNode::GetDropPackets(uint32_t port, MrcSwitchDropReason reason) const
{
    return m_portCold.at(port).drops[static_cast<std::size_t>(reason)];
}

uint64_t
MrcSwitchNode::GetTotalDropPackets() const
{
    uint64_t n = 0;
    for (std::size_t r = 0; r < MRC_SWITCH_DROP_REASON_COUNT; ++r)
    {
        n += GetDropPackets(static_cast<MrcSwitchDropReason>(r));
    }
    return n;
}

uint64_t
MrcSwitchNode::GetTrimmedPackets() const
{
    return Sum(&Port::trimmed);
}

uint64_t
MrcSwitchNode::GetTrimmedPackets(uint32_t port) const
{
    return m_ports.at(port).trimmed;
}

uint64_t
MrcSwitchNode::GetMarkedPackets() const
{
    return Sum(&Port::marked);
}

uint64_t
MrcSwitchNode::GetMarkedPackets(uint32_t port) const
{
    return m_ports.at(port).marked;
}

uint64_t
MrcSwitchNode::GetPausesSent() const
{
    return Sum(&PortCold::pauses);
}

uint64_t
MrcSwitchNode::GetPausesSent(uint32_t port) const
{
    return m_portCold.at(port).pauses;
}

uint64_t
MrcSwitchNode::GetResumesSent() const
{
    return Sum(&PortCold::resumes);
}

namespace
{

/// \param items per-port records \param counter one of their counters \return its sum
template <typename T>
uint64_t
SumOver(const std::vector<T>& items, uint64_t T::*counter)
{
    uint64_t n = 0;
    for (const auto& item : items)
    {
        n += item.*counter;
    }
    return n;
}

} // namespace

uint64_t
MrcSwitchNode::Sum(uint64_t Port::*counter) const
{
    return SumOver(m_ports, counter);
}

uint64_t
MrcSwitchNode::Sum(uint64_t PortCold::*counter) const
{
    return SumOver(m_portCold, counter);
}

} // namespace ns3
