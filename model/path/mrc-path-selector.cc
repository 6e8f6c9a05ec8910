/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-path-selector.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/mrc-entropy.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcPathSelector");

NS_OBJECT_ENSURE_REGISTERED(MrcPathSelector);
NS_OBJECT_ENSURE_REGISTERED(MrcFixedEntropyPathSelector);

const char*
MrcPathSignalName(MrcPathSignal s)
{
    switch (s)
    {
    case MrcPathSignal::GOOD:
        return "GOOD";
    case MrcPathSignal::ECN:
        return "ECN";
    case MrcPathSignal::NACK:
        return "NACK";
    case MrcPathSignal::TIMEOUT:
        return "TIMEOUT";
    case MrcPathSignal::LOSS:
        return "LOSS";
    case MrcPathSignal::BAD:
        return "BAD";
    }
    return "?";
}

TypeId
MrcPathSelector::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcPathSelector").SetParent<Object>().SetGroupName("Mrc");
    return tid;
}

MrcPathSelector::MrcPathSelector()
{
    NS_LOG_FUNCTION(this);
}

MrcPathSelector::~MrcPathSelector()
{
    NS_LOG_FUNCTION(this);
}

void
MrcPathSelector::DoFeedback(uint32_t /* ev */, MrcPathSignal /* kind */)
{
}

void
MrcPathSelector::SetLocalPortUp(uint32_t /* port */, bool /* up */)
{
}

void
MrcPathSelector::SetRemotePortUp(uint32_t /* port */, bool /* up */)
{
}

bool
MrcPathSelector::CanUsePort(uint32_t port) const
{
    return UsesPort(port);
}

void
MrcPathSelector::LossOnLivePath(uint32_t ev, MrcPathSignal kind)
{
    Feedback(ev, kind);
}

MrcPathChoice
MrcPathSelector::SelectReverse(uint32_t /* port */)
{
    MrcPathChoice none;
    none.port = NO_PORT;
    return none;
}

void
MrcPathSelector::SetProbeSender(Callback<void, const MrcPathChoice&> /* cb */)
{
}

bool
MrcPathSelector::ProbeAnswered(uint32_t /* ev */, MrcPathSignal /* kind */)
{
    return false;
}

void
MrcPathSelector::SetBaseRtt(Time /* rtt */)
{
}

void
MrcPathSelector::AssignPort(uint32_t /* port */)
{
}

int64_t
MrcPathSelector::AssignStreams(int64_t /* stream */)
{
    return 0;
}

MrcPathChoice
MrcPathSelector::EvChoice(uint32_t port, uint32_t ev)
{
    const MrcEvWire wire = MrcEvEncode(ev, MrcEvSplit::SRC_PORT_LOW);
    MrcPathChoice c;
    c.port = port;
    c.udpSrcPort = wire.udpSrcPort;
    c.flowLabel = wire.flowLabel;
    c.ev = ev;
    return c;
}

uint64_t
MrcPathSelector::GetSelectCount() const
{
    return m_selects;
}

uint64_t
MrcPathSelector::GetNoPathCount() const
{
    return m_noPath;
}

uint64_t
MrcPathSelector::GetFeedbackCount(MrcPathSignal kind) const
{
    return m_feedback[static_cast<uint8_t>(kind)];
}

uint64_t
MrcPathSelector::GetFeedbackCount() const
{
    uint64_t n = 0;
    for (uint64_t c : m_feedback)
    {
        n += c;
    }
    return n;
}

TypeId
MrcFixedEntropyPathSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcFixedEntropyPathSelector")
            .SetParent<MrcPathSelector>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcFixedEntropyPathSelector>()
            .AddAttribute("Port",
                          "NIC port of every connection; 4294967295 (default): as PortRule "
                          "says.",
                          UintegerValue(NO_PORT),
                          MakeUintegerAccessor(&MrcFixedEntropyPathSelector::m_portAttr),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "PortRule",
                "The NIC port (plane) of a connection when Port is not set. Assigned "
                "(default): the port the connection's opener bound it to (mrc-sim gives the "
                "connections it opens the ports in turn, as NCCL gives its channels the NICs: "
                "connection i on port i mod ports, the same at both ends), else as FlowLabel. "
                "FlowLabel: the flow label modulo the number of ports (the rule before "
                "session 44; both ends agree, but the labels of equal QP numbers are squares, "
                "so with 4 ports only ports 0 and 1 are used). Our choice; real NICs bind a "
                "queue pair to the port the application names.",
#if MRC_NS3_VERSION_MINOR >= 41
                EnumValue<PortRule>(ASSIGNED),
                MakeEnumAccessor<PortRule>(&MrcFixedEntropyPathSelector::m_portRule),
#else
                EnumValue(ASSIGNED),
                MakeEnumAccessor(&MrcFixedEntropyPathSelector::m_portRule),
#endif
                MakeEnumChecker(ASSIGNED, "Assigned", FLOW_LABEL, "FlowLabel"))
            .AddAttribute("Salt",
                          "XORed into the 20-bit flow label before the UDP source port is "
                          "derived; 0 (default) gives the Linux RoCEv2 values.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcFixedEntropyPathSelector::m_salt),
                          MakeUintegerChecker<uint32_t>(0, 0xfffff));
    return tid;
}

MrcFixedEntropyPathSelector::MrcFixedEntropyPathSelector()
    : m_portAttr(NO_PORT),
      m_salt(0),
      m_assigned(NO_PORT),
      m_portRule(ASSIGNED)
{
}

void
MrcFixedEntropyPathSelector::AssignPort(uint32_t port)
{
    m_assigned = port;
}

uint32_t
MrcFixedEntropyPathSelector::FlowLabelOf(uint32_t localQpn, uint32_t remoteQpn)
{
    uint64_t v = static_cast<uint64_t>(localQpn) * remoteQpn;
    v ^= v >> 20;
    v ^= v >> 40;
    return static_cast<uint32_t>(v & 0xfffff);
}

uint16_t
MrcFixedEntropyPathSelector::UdpSourcePortOf(uint32_t flowLabel)
{
    uint32_t low = flowLabel & 0x3fff;
    low ^= (flowLabel & 0xfc000) >> 14;
    return static_cast<uint16_t>(low | 0xc000);
}

void
MrcFixedEntropyPathSelector::Init(uint32_t localQpn, uint32_t remoteQpn, uint32_t nPorts)
{
    NS_ABORT_MSG_IF(nPorts == 0, "MrcFixedEntropyPathSelector: the NIC has no ports");
    NS_ABORT_MSG_IF(m_portAttr != NO_PORT && m_portAttr >= nPorts,
                    "MrcFixedEntropyPathSelector: Port " << m_portAttr << " but the NIC has "
                                                         << nPorts << " ports (0.." << nPorts - 1
                                                         << ")");
    const uint32_t label = FlowLabelOf(localQpn, remoteQpn) ^ m_salt;
    m_path.flowLabel = label;
    m_path.udpSrcPort = UdpSourcePortOf(label);
    m_path.ev = label;
    NS_ABORT_MSG_IF(m_portAttr == NO_PORT && m_portRule == ASSIGNED && m_assigned != NO_PORT &&
                        m_assigned >= nPorts,
                    "MrcFixedEntropyPathSelector: assigned port "
                        << m_assigned << " but the NIC has " << nPorts << " ports (0.."
                        << nPorts - 1 << ")");
    if (m_portAttr != NO_PORT)
    {
        m_path.port = m_portAttr;
    }
    else if (m_portRule == ASSIGNED && m_assigned != NO_PORT)
    {
        m_path.port = m_assigned;
    }
    else
    {
        m_path.port = label % nPorts;
    }
    NS_LOG_FUNCTION(this << localQpn << remoteQpn << nPorts << m_path.port << m_path.udpSrcPort);
}

bool
MrcFixedEntropyPathSelector::UsesPort(uint32_t port) const
{
    return port == m_path.port;
}

uint32_t
MrcFixedEntropyPathSelector::GetPathCount() const
{
    return 1;
}

MrcPathChoice
MrcFixedEntropyPathSelector::DoSelect(const MrcPathRequest& /* r */)
{
    return m_path;
}

} // namespace ns3
