/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-net-device.h"

#include "mrc-channel.h"
#include "mrc-ingress-loss-model.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/error-model.h"
#include "ns3/log.h"
#include "ns3/mrc-byte-io.h"
#include "ns3/mrc-comma-list.h"
#include "ns3/mrc-heap-scheduler.h"
#include "ns3/mrc-packet-info.h"
#include "ns3/mrc-pfc-frame.h"
#include "ns3/mrc-raw-header.h"
#include "ns3/mrc-reusable-event.h"
#include "ns3/mrc-uint128.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <functional>
#include <set>
#include <sstream>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcNetDevice");

NS_OBJECT_ENSURE_REGISTERED(MrcNetDevice);

std::string
MrcDropReasonName(MrcDropReason reason)
{
    switch (reason)
    {
    case MrcDropReason::QUEUE_FULL:
        return "queue-full";
    case MrcDropReason::LINK_DOWN:
        return "link-down";
    case MrcDropReason::ERROR_MODEL:
        return "error-model";
    case MrcDropReason::NO_ROUTE:
        return "no-route";
    }
    return "unknown";
}

std::ostream&
operator<<(std::ostream& os, MrcDropReason reason)
{
    return os << MrcDropReasonName(reason);
}

namespace
{

/// The default DSCP map: MRC's codepoints and RoCEv2's (see doc/mrc.rst).
const char* const DEFAULT_DSCP_MAP = "46:7,11:7,21:7,4:1,8:1,0:0,26:3,48:6";

/// Abort unless cls names one of the eight classes; what says where it came from.
void
CheckClass(uint32_t cls, const char* what)
{
    NS_ABORT_MSG_IF(cls >= MrcNetDevice::N_CLASSES,
                    what << ": class " << cls << " is out of range: allowed 0..7");
}

/// Bytes of an Ethernet header without preamble and FCS: destination, source, type.
constexpr uint32_t ETH_HEADER_BYTES = MrcRawHeader::ETHERNET_BYTES;
static_assert(MRC_UNWRITTEN_HEADER_BYTES == ETH_HEADER_BYTES,
              "an unwritten header counts the bytes WriteUnwritten adds");
static_assert((MRC_IPV6_EDIT_SHIFTS | MRC_IPV6_EDIT_CE) == MRC_UNWRITTEN_MAX_EDITS,
              "the flags carry exactly the IPv6 edits MrcApplyIpv6Edits knows");
static_assert(ETH_HEADER_BYTES + MrcNetDevice::MAX_PREFIX_BYTES <= MrcRawHeader::MAX_BYTES,
              "an Ethernet header and the bytes SendToClassReplacing replaces fit in one "
              "MrcRawHeader");

} // namespace

namespace
{

/**
 * The accessor of a per-frame trace source. Connecting also sets the device's flag that
 * makes the frame path look at its per-frame trace sources at all: without a connection
 * a frame touches none of them (they would cost a few cache lines per hop).
 */
template <typename T>
class MrcFrameTraceAccessor : public TraceSourceAccessor
{
  public:
    /**
     * \param source the trace source member
     * \param flag the device's "a per-frame trace is connected" member
     */
    MrcFrameTraceAccessor(T MrcNetDevice::*source, bool MrcNetDevice::*flag)
        : m_source(source),
          m_flag(flag)
    {
    }

    bool ConnectWithoutContext(ObjectBase* obj, const CallbackBase& cb) const override
    {
        auto* dev = dynamic_cast<MrcNetDevice*>(obj);
        if (!dev)
        {
            return false;
        }
        (dev->*m_source).ConnectWithoutContext(cb);
        dev->*m_flag = true;
        return true;
    }

    bool Connect(ObjectBase* obj, std::string context, const CallbackBase& cb) const override
    {
        auto* dev = dynamic_cast<MrcNetDevice*>(obj);
        if (!dev)
        {
            return false;
        }
        (dev->*m_source).Connect(cb, context);
        dev->*m_flag = true;
        return true;
    }

    bool DisconnectWithoutContext(ObjectBase* obj, const CallbackBase& cb) const override
    {
        auto* dev = dynamic_cast<MrcNetDevice*>(obj);
        if (!dev)
        {
            return false;
        }
        (dev->*m_source).DisconnectWithoutContext(cb);
        return true;
    }

    bool Disconnect(ObjectBase* obj, std::string context, const CallbackBase& cb) const override
    {
        auto* dev = dynamic_cast<MrcNetDevice*>(obj);
        if (!dev)
        {
            return false;
        }
        (dev->*m_source).Disconnect(cb, context);
        return true;
    }

  private:
    T MrcNetDevice::*m_source;  //!< the trace source
    bool MrcNetDevice::*m_flag; //!< the device's flag
};

/**
 * \param source a per-frame trace source of MrcNetDevice
 * \param flag MrcNetDevice's flag of connected per-frame traces
 * \return its accessor
 */
template <typename T>
Ptr<const TraceSourceAccessor>
MakeFrameTraceAccessor(T MrcNetDevice::*source, bool MrcNetDevice::*flag)
{
    return Ptr<const TraceSourceAccessor>(new MrcFrameTraceAccessor<T>(source, flag), false);
}

/**
 * The accessor of a trace source the device offers on behalf of its PFC port: it
 * connects to the port's trace source of the same name, so that "PfcTx", "PfcRx" and
 * "PauseState" keep working on the device (and its Config paths).
 */
class MrcPfcTraceAccessor : public TraceSourceAccessor
{
  public:
    /// \param name the trace source's name in MrcPfcPort
    explicit MrcPfcTraceAccessor(std::string name)
        : m_name(std::move(name))
    {
    }

    bool ConnectWithoutContext(ObjectBase* obj, const CallbackBase& cb) const override
    {
        auto* dev = dynamic_cast<MrcNetDevice*>(obj);
        return dev && dev->GetPfcPort()->TraceConnectWithoutContext(m_name, cb);
    }

    bool Connect(ObjectBase* obj, std::string context, const CallbackBase& cb) const override
    {
        auto* dev = dynamic_cast<MrcNetDevice*>(obj);
        return dev && dev->GetPfcPort()->TraceConnect(m_name, context, cb);
    }

    bool DisconnectWithoutContext(ObjectBase* obj, const CallbackBase& cb) const override
    {
        auto* dev = dynamic_cast<MrcNetDevice*>(obj);
        return dev && dev->GetPfcPort()->TraceDisconnectWithoutContext(m_name, cb);
    }

    bool Disconnect(ObjectBase* obj, std::string context, const CallbackBase& cb) const override
    {
        auto* dev = dynamic_cast<MrcNetDevice*>(obj);
        return dev && dev->GetPfcPort()->TraceDisconnect(m_name, context, cb);
    }

  private:
    std::string m_name; //!< the port's trace source
};

/**
 * \param name a trace source of MrcPfcPort
 * \return the accessor that reaches it through an MrcNetDevice
 */
Ptr<const TraceSourceAccessor>
MakePfcTraceAccessor(const std::string& name)
{
    return Ptr<const TraceSourceAccessor>(new MrcPfcTraceAccessor(name), false);
}

} // namespace

TypeId
MrcNetDevice::GetTypeId()
{
    static TypeId tid =
        AddTraceSources(AddConfigurationAttributes(TypeId("ns3::MrcNetDevice")
                                                       .SetParent<NetDevice>()
                                                       .SetGroupName("Mrc")
                                                       .AddConstructor<MrcNetDevice>()));
    return tid;
}

TypeId
MrcNetDevice::AddConfigurationAttributes(TypeId tid)
{
    return tid
        .AddAttribute("DataRate",
                      "Line rate of the port.",
                      DataRateValue(DataRate("100Gbps")),
                      MakeDataRateAccessor(&MrcNetDevice::SetDataRate, &MrcNetDevice::GetDataRate),
                      MakeDataRateChecker())
        .AddAttribute("Mtu",
                      "Largest packet in bytes without the 14-byte Ethernet header "
                      "(a larger one aborts the simulation).",
                      UintegerValue(9000),
                      MakeUintegerAccessor(&MrcNetDevice::SetMtu, &MrcNetDevice::GetMtu),
                      MakeUintegerChecker<uint16_t>(1280))
        .AddAttribute("LazyTxEnd",
                      "Schedule the end of a serialization only when something waits for "
                      "it (a frame or PFC frame queued while the wire is busy), at the place "
                      "among same-time events it would have had if scheduled when the "
                      "serialization began (MrcHeapScheduler slots); with any other "
                      "scheduler it is always scheduled. Same results, fewer events.",
                      BooleanValue(true),
                      MakeBooleanAccessor(&MrcNetDevice::m_lazyTxEnd),
                      MakeBooleanChecker())
        .AddAttribute("WireOverhead",
                      "Bytes per frame that take wire time but are not in the packet: "
                      "preamble + SFD (8), inter-frame gap (12), FCS (4).",
                      UintegerValue(24),
                      MakeUintegerAccessor(&MrcNetDevice::m_wireOverhead),
                      MakeUintegerChecker<uint32_t>())
        .AddAttribute(
            "DscpToClass",
            "Class of IPv6 packets by DSCP: comma-separated dscp:class pairs, "
            "dscp 0..63, class 0..7.",
            StringValue(DEFAULT_DSCP_MAP),
            MakeStringAccessor(&MrcNetDevice::SetDscpToClass, &MrcNetDevice::GetDscpToClass),
            MakeStringChecker())
        .AddAttribute("UnmappedDscpClass",
                      "Class of IPv6 packets whose DSCP is not in DscpToClass.",
                      UintegerValue(0),
                      MakeUintegerAccessor(&MrcNetDevice::SetUnmappedDscpClass,
                                           &MrcNetDevice::GetUnmappedDscpClass),
                      MakeUintegerChecker<uint8_t>())
        .AddAttribute(
            "NonIpClass",
            "Class of frames sent with Send() whose EtherType is not IPv6.",
            UintegerValue(0),
            MakeUintegerAccessor(&MrcNetDevice::SetNonIpClass, &MrcNetDevice::GetNonIpClass),
            MakeUintegerChecker<uint8_t>())
        // The scheduler's attributes, forwarded to the device's MrcClassScheduler.
        .AddAttribute("Scheduler",
                      "Class scheduler: StrictPriority (class 7 first) or Dwrr.",
                      StringValue("StrictPriority"),
                      MakeStringAccessor(&MrcNetDevice::SetScheduler, &MrcNetDevice::GetScheduler),
                      MakeStringChecker())
        .AddAttribute(
            "DwrrWeights",
            "DWRR weights, class 0 first; weight 0 = strict priority above "
            "the weighted classes.",
            StringValue(MrcClassScheduler::DEFAULT_WEIGHTS),
            MakeStringAccessor(&MrcNetDevice::SetDwrrWeights, &MrcNetDevice::GetDwrrWeights),
            MakeStringChecker())
        .AddAttribute(
            "DwrrQuantum",
            "DWRR credit in bytes per unit of weight and round.",
            UintegerValue(MrcClassScheduler::DEFAULT_QUANTUM),
            MakeUintegerAccessor(&MrcNetDevice::SetDwrrQuantum, &MrcNetDevice::GetDwrrQuantum),
            MakeUintegerChecker<uint32_t>(1))
        .AddAttribute(
            "QueueLimit",
            "Bytes (frames with Ethernet header) each class queue may hold; "
            "a frame that does not fit is dropped (queue-full).",
            UintegerValue(MrcClassScheduler::DEFAULT_QUEUE_LIMIT),
            MakeUintegerAccessor(&MrcNetDevice::SetQueueLimit, &MrcNetDevice::GetQueueLimit),
            MakeUintegerChecker<uint32_t>(1))
        .AddAttribute("ReceiveErrorModel",
                      "Error model deciding which received frames are corrupted "
                      "(gray failure); none by default.",
                      PointerValue(),
                      MakePointerAccessor(&MrcNetDevice::SetReceiveErrorModel,
                                          &MrcNetDevice::GetReceiveErrorModel),
                      MakePointerChecker<ErrorModel>())
        .AddAttribute("LinkDownDetectDelay",
                      "Time this end takes to notice that the link went down.",
                      TimeValue(Seconds(0)),
                      MakeTimeAccessor(&MrcNetDevice::m_linkDownDetectDelay),
                      MakeTimeChecker(Seconds(0)))
        .AddAttribute("LinkUpDetectDelay",
                      "Time this end takes to notice that the link came up.",
                      TimeValue(Seconds(0)),
                      MakeTimeAccessor(&MrcNetDevice::m_linkUpDetectDelay),
                      MakeTimeChecker(Seconds(0)))
        // The parts, read-only (for Config paths such as .../ClassScheduler/DwrrQuantum).
        .AddAttribute("ClassScheduler",
                      "The device's class queues and scheduler.",
                      TypeId::ATTR_GET,
                      PointerValue(),
                      MakePointerAccessor(&MrcNetDevice::GetClassScheduler),
                      MakePointerChecker<MrcClassScheduler>())
        .AddAttribute("PfcPort",
                      "The device's PFC state.",
                      TypeId::ATTR_GET,
                      PointerValue(),
                      MakePointerAccessor(&MrcNetDevice::GetPfcPort),
                      MakePointerChecker<MrcPfcPort>());
}

TypeId
MrcNetDevice::AddTraceSources(TypeId tid)
{
    return tid
        .AddTraceSource(
            "Enqueue",
            "A frame entered a class queue.",
            MakeFrameTraceAccessor(&MrcNetDevice::m_enqueueTrace, &MrcNetDevice::m_frameTraces),
            "ns3::MrcNetDevice::ClassPacketTracedCallback")
        .AddTraceSource(
            "Dequeue",
            "A frame left a class queue for the wire (before the dequeue hook).",
            MakeFrameTraceAccessor(&MrcNetDevice::m_dequeueTrace, &MrcNetDevice::m_frameTraces),
            "ns3::MrcNetDevice::ClassPacketTracedCallback")
        .AddTraceSource("Drop",
                        "A packet was dropped, with the reason.",
                        MakeTraceSourceAccessor(&MrcNetDevice::m_dropTrace),
                        "ns3::MrcNetDevice::DropTracedCallback")
        .AddTraceSource("PfcTx",
                        "A PFC frame went on the wire; once per enabled class "
                        "(the PFC port's PfcTx).",
                        MakePfcTraceAccessor("PfcTx"),
                        "ns3::MrcNetDevice::PfcTracedCallback")
        .AddTraceSource("PfcRx",
                        "A PFC frame arrived; once per enabled class (the PFC port's PfcRx).",
                        MakePfcTraceAccessor("PfcRx"),
                        "ns3::MrcNetDevice::PfcTracedCallback")
        .AddTraceSource("PauseState",
                        "A class became paused or resumed (the PFC port's PauseState).",
                        MakePfcTraceAccessor("PauseState"),
                        "ns3::MrcNetDevice::PauseStateTracedCallback")
        .AddTraceSource("LinkStateChange",
                        "This end noticed a link state change (after its detection delay).",
                        MakeTraceSourceAccessor(&MrcNetDevice::m_linkStateTrace),
                        "ns3::MrcNetDevice::LinkStateTracedCallback")
        .AddTraceSource(
            "MacTx",
            "A packet was handed to Send/SendFrom/SendToClass.",
            MakeFrameTraceAccessor(&MrcNetDevice::m_macTxTrace, &MrcNetDevice::m_frameTraces),
            "ns3::Packet::TracedCallback")
        .AddTraceSource("MacTxDrop",
                        "A packet handed to the device was dropped before queueing.",
                        MakeTraceSourceAccessor(&MrcNetDevice::m_macTxDropTrace),
                        "ns3::Packet::TracedCallback")
        .AddTraceSource(
            "MacRx",
            "A data packet was received and is passed up (header stripped).",
            MakeFrameTraceAccessor(&MrcNetDevice::m_macRxTrace, &MrcNetDevice::m_frameTraces),
            "ns3::Packet::TracedCallback")
        .AddTraceSource(
            "PhyTxBegin",
            "A frame started its serialization.",
            MakeFrameTraceAccessor(&MrcNetDevice::m_phyTxBeginTrace, &MrcNetDevice::m_frameTraces),
            "ns3::Packet::TracedCallback")
        .AddTraceSource(
            "PhyTxEnd",
            "A frame finished its serialization.",
            MakeFrameTraceAccessor(&MrcNetDevice::m_phyTxEndTrace, &MrcNetDevice::m_frameTraces),
            "ns3::Packet::TracedCallback")
        .AddTraceSource(
            "PhyRxEnd",
            "A frame arrived intact.",
            MakeFrameTraceAccessor(&MrcNetDevice::m_phyRxEndTrace, &MrcNetDevice::m_frameTraces),
            "ns3::Packet::TracedCallback")
        .AddTraceSource("PhyRxDrop",
                        "A frame arrived corrupted (receive error model).",
                        MakeTraceSourceAccessor(&MrcNetDevice::m_phyRxDropTrace),
                        "ns3::Packet::TracedCallback")
        .AddTraceSource(
            "Sniffer",
            "Every frame sent or received intact, with its Ethernet header.",
            MakeFrameTraceAccessor(&MrcNetDevice::m_snifferTrace, &MrcNetDevice::m_frameTraces),
            "ns3::Packet::TracedCallback")
        .AddTraceSource("PromiscSniffer",
                        "Every frame sent or received intact, with its Ethernet header.",
                        MakeFrameTraceAccessor(&MrcNetDevice::m_promiscSnifferTrace,
                                               &MrcNetDevice::m_frameTraces),
                        "ns3::Packet::TracedCallback");
}

MrcNetDevice::MrcNetDevice()
    : m_owner(nullptr),
      m_ownerPort(0),
      m_ownerRx(false),
      m_unmappedDscpClass(0),
      m_nonIpClass(0),
      m_ownerDequeue(false),
      m_txBusy(false),
      m_linkUp(false),
      m_pfcPending(false),
      m_mtu(9000),
      m_wireOverhead(24),
      m_bps(100000000000ULL),
      m_txCarry(0),
      m_lastTxEnd(Seconds(-1)),
      m_lazyTxEnd(true),
      m_ifIndex(0),
      m_detectGeneration(0)
{
    NS_LOG_FUNCTION(this);
    DscpTable unmapped;
    unmapped.fill(NO_CLASS);
    m_dscpClass = InternDscpTable(unmapped);
    m_dropPackets.fill(0);
    m_dropBytes.fill(0);
    std::fill(std::begin(m_macBytes), std::end(m_macBytes), 0);
    std::fill(std::begin(m_ethMacs), std::end(m_ethMacs), 0);
    m_txCompleteEvent = Create<MrcReusableEvent>([this]() { TransmitComplete(); });
    m_scheduler = CreateObject<MrcClassScheduler>();
    m_pfc = CreateObject<MrcPfcPort>();
    m_pfc->SetPauseChangeCallback(MakeCallback(&MrcNetDevice::PauseChanged, this));
}

MrcNetDevice::~MrcNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
MrcNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_scheduler->Dispose();
    m_pfc->Dispose();
    m_pfcPending = false;
    m_txFrame = nullptr;
    m_owner = nullptr;
    m_ownerRx = false;
    m_ownerDequeue = false;
    m_node = nullptr;
    m_channel = nullptr;
    m_txDirection = nullptr;
    m_receiveErrorModel = nullptr;
    m_hasReceiveErrorModel = false;
    m_ingressLoss = nullptr;
    m_rateLoss = nullptr;
    m_dequeueHook.Nullify();
    m_classRxCallback.Nullify();
    m_rxCallback.Nullify();
    m_promiscCallback.Nullify();
    // Trace sinks may hold this device (a callback bound to it, as a results recorder's
    // per-port sink is): emptied here, or the device and its queues would never be freed.
    for (auto* t : {&m_enqueueTrace, &m_dequeueTrace})
    {
        *t = TracedCallback<Ptr<const Packet>, uint8_t>();
    }
    for (auto* t : {&m_macTxTrace,
                    &m_macRxTrace,
                    &m_phyTxBeginTrace,
                    &m_phyTxEndTrace,
                    &m_phyRxEndTrace,
                    &m_snifferTrace,
                    &m_promiscSnifferTrace,
                    &m_macTxDropTrace,
                    &m_phyRxDropTrace})
    {
        *t = TracedCallback<Ptr<const Packet>>();
    }
    m_linkChangeCallbacks = TracedCallback<>();
    m_dropTrace = TracedCallback<Ptr<const Packet>, MrcDropReason>();
    m_linkStateTrace = TracedCallback<bool>();
    NetDevice::DoDispose();
}

// ---------------------------------------------------------------- configuration

bool
MrcNetDevice::Attach(Ptr<MrcChannel> channel)
{
    NS_LOG_FUNCTION(this << channel);
    NS_ABORT_MSG_IF(m_channel, "MrcNetDevice::Attach: the device is already attached");
    m_channel = channel;
    m_channel->Attach(this);
    m_txDirection = m_channel->GetDirection(m_channel->GetNDevices() - 1);
    InvalidateEthMacs();
    m_linkUp = m_channel->IsLinkUp();
    if (m_linkUp)
    {
        m_linkChangeCallbacks();
    }
    return true;
}

Ptr<MrcChannel>
MrcNetDevice::GetMrcChannel() const
{
    return m_channel;
}

Ptr<MrcNetDevice>
MrcNetDevice::GetPeer() const
{
    return m_channel ? m_channel->GetPeer(this) : nullptr;
}

void
MrcNetDevice::SetDataRate(DataRate rate)
{
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, "MrcNetDevice DataRate must be above 0 bps");
    m_rate = rate;
    m_bps = rate.GetBitRate();
    m_txCarry = 0;
    m_pfc->SetDataRate(rate);
}

DataRate
MrcNetDevice::GetDataRate() const
{
    return m_rate;
}

Mac48Address
MrcNetDevice::GetMacAddress() const
{
    return m_address;
}

Ptr<MrcClassScheduler>
MrcNetDevice::GetClassScheduler() const
{
    return m_scheduler;
}

Ptr<MrcPfcPort>
MrcNetDevice::GetPfcPort() const
{
    return m_pfc;
}

void
MrcNetDevice::SetDscpToClass(const std::string& map)
{
    std::array<uint8_t, 64> table;
    table.fill(NO_CLASS);
    for (const std::string& item : MrcSplitCommas(map))
    {
        std::size_t colon = item.find(':');
        uint32_t dscp = 0;
        uint32_t cls = 0;
        NS_ABORT_MSG_IF(colon == std::string::npos ||
                            !MrcParseUnsigned(MrcTrim(item.substr(0, colon)), dscp) ||
                            !MrcParseUnsigned(MrcTrim(item.substr(colon + 1)), cls),
                        "DscpToClass entry \"" << item << "\" in \"" << map
                                               << "\" is not dscp:class (two decimal numbers)");
        NS_ABORT_MSG_IF(dscp > 63,
                        "DscpToClass entry \"" << item << "\": DSCP " << dscp
                                               << " is out of range: allowed 0..63");
        NS_ABORT_MSG_IF(cls >= N_CLASSES,
                        "DscpToClass entry \"" << item << "\": class " << cls
                                               << " is out of range: allowed 0..7");
        table[dscp] = static_cast<uint8_t>(cls);
    }
    m_dscpClass = InternDscpTable(table);
}

const MrcNetDevice::DscpTable*
MrcNetDevice::InternDscpTable(const DscpTable& table)
{
    static std::set<DscpTable> tables; // set nodes never move: the pointers stay valid
    return &*tables.insert(table).first;
}

std::string
MrcNetDevice::GetDscpToClass() const
{
    std::ostringstream os;
    bool first = true;
    for (uint32_t d = 0; d < 64; ++d)
    {
        if ((*m_dscpClass)[d] != NO_CLASS)
        {
            os << (first ? "" : ",") << d << ":" << unsigned((*m_dscpClass)[d]);
            first = false;
        }
    }
    return os.str();
}

void
MrcNetDevice::SetDwrrWeights(const std::string& weights)
{
    m_scheduler->SetDwrrWeights(weights);
}

std::string
MrcNetDevice::GetDwrrWeights() const
{
    return m_scheduler->GetDwrrWeights();
}

void
MrcNetDevice::SetScheduler(const std::string& name)
{
    m_scheduler->SetScheduler(name);
}

std::string
MrcNetDevice::GetScheduler() const
{
    return m_scheduler->GetScheduler();
}

void
MrcNetDevice::SetDwrrQuantum(uint32_t bytes)
{
    m_scheduler->SetDwrrQuantum(bytes);
}

uint32_t
MrcNetDevice::GetDwrrQuantum() const
{
    return m_scheduler->GetDwrrQuantum();
}

void
MrcNetDevice::SetNonIpClass(uint8_t cls)
{
    CheckClass(cls, "MrcNetDevice NonIpClass");
    m_nonIpClass = cls;
}

uint8_t
MrcNetDevice::GetNonIpClass() const
{
    return m_nonIpClass;
}

void
MrcNetDevice::SetUnmappedDscpClass(uint8_t cls)
{
    CheckClass(cls, "MrcNetDevice UnmappedDscpClass");
    m_unmappedDscpClass = cls;
}

uint8_t
MrcNetDevice::GetUnmappedDscpClass() const
{
    return m_unmappedDscpClass;
}

void
MrcNetDevice::SetQueueLimit(uint32_t bytes)
{
    m_scheduler->SetQueueLimit(bytes);
}

uint32_t
MrcNetDevice::GetQueueLimit() const
{
    return m_scheduler->GetQueueLimit();
}

// ---------------------------------------------------------------- classification

uint8_t
MrcNetDevice::ClassifyDscp(uint8_t dscp) const
{
    NS_ABORT_MSG_IF(dscp > 63, "DSCP " << unsigned(dscp) << " is out of range: allowed 0..63");
    uint8_t cls = (*m_dscpClass)[dscp];
    return cls == NO_CLASS ? m_unmappedDscpClass : cls;
}

uint8_t
MrcNetDevice::ClassOf(Ptr<const Packet> packet, uint16_t etherType) const
{
    if (etherType != ETHER_TYPE_IPV6)
    {
        return m_nonIpClass;
    }
    // IPv6: version (4 bits) | traffic class (8 bits) | flow label (20 bits).
    uint8_t first[2];
    if (packet->CopyData(first, 2) < 2)
    {
        return m_unmappedDscpClass;
    }
    uint8_t trafficClass = static_cast<uint8_t>(((first[0] & 0x0f) << 4) | (first[1] >> 4));
    return ClassifyDscp(trafficClass >> 2);
}

// ---------------------------------------------------------------- sending

bool
MrcNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << dest << protocolNumber);
    if (m_frameTraces && !m_macTxTrace.IsEmpty())
    {
        m_macTxTrace(packet);
    }
    return Enqueue(packet,
                   m_address,
                   Mac48Address::ConvertFrom(dest),
                   protocolNumber,
                   ClassOf(packet, protocolNumber));
}

bool
MrcNetDevice::SendFrom(Ptr<Packet> packet,
                       const Address& source,
                       const Address& dest,
                       uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << source << dest << protocolNumber);
    if (m_frameTraces && !m_macTxTrace.IsEmpty())
    {
        m_macTxTrace(packet);
    }
    return Enqueue(packet,
                   Mac48Address::ConvertFrom(source),
                   Mac48Address::ConvertFrom(dest),
                   protocolNumber,
                   ClassOf(packet, protocolNumber));
}

bool
MrcNetDevice::SendToClass(const Ptr<Packet>& packet,
                          uint16_t etherType,
                          uint8_t cls,
                          uint64_t tag,
                          uint8_t edits)
{
    NS_LOG_FUNCTION(this << packet << etherType << unsigned(cls) << unsigned(edits));
    CheckClass(cls, "MrcNetDevice::SendToClass");
    if (edits != 0)
    {
        NS_ABORT_MSG_IF(edits > MRC_UNWRITTEN_MAX_EDITS || etherType != ETHER_TYPE_IPV6,
                        "MrcNetDevice::SendToClass: IPv6 edits "
                            << unsigned(edits) << " for a frame of EtherType 0x" << std::hex
                            << etherType << std::dec << "; allowed 0.."
                            << unsigned(MRC_UNWRITTEN_MAX_EDITS) << ", and only for IPv6 (0x86dd)");
        if (!CanLeaveHeaderUnwritten())
        {
            MrcWriteIpv6Edits(packet, edits); // traced, or towards another rank
            edits = 0;
        }
    }
    if (m_frameTraces && !m_macTxTrace.IsEmpty())
    {
        m_macTxTrace(packet);
    }
    NS_ABORT_MSG_IF(packet->GetSize() > m_mtu,
                    "MrcNetDevice: a " << packet->GetSize() << "-byte packet exceeds the Mtu of "
                                       << m_mtu << " bytes");
    // Both MACs come from bytes cached in this device: no Mac48Address conversions and no
    // visit to the peer device per packet.
    if (!m_ethMacsValid)
    {
        RefreshEthMacs();
    }
    if (etherType == ETHER_TYPE_IPV6 && CanLeaveHeaderUnwritten())
    {
        return EnqueueFrame(packet, cls, tag, MrcUnwrittenWithEdits(edits));
    }
    static MrcRawHeader scratch; // reused: see MrcRawHeader
    MrcRawHeader& eth = MrcScratchHeader(scratch, ETH_HEADER_BYTES, MrcRawHeader::ETHERNET);
    std::copy(m_ethMacs, m_ethMacs + 12, eth.Bytes());
    MrcByteIo::WriteU16(eth.Bytes() + 12, etherType);
    packet->AddHeader(eth);
    return EnqueueFrame(packet, cls, tag);
}

bool
MrcNetDevice::CanLeaveHeaderUnwritten() const
{
    // Not when traced (every frame trace sees the header), nor towards another rank
    // (the far rank receives the bytes), nor before the link is attached.
    return !m_frameTraces && m_txDirection != nullptr && !m_txDirection->toRank;
}

void
MrcNetDevice::WriteUnwritten(const Ptr<Packet>& frame, uint8_t unwritten, bool received)
{
    MrcWriteIpv6Edits(frame, MrcUnwrittenEdits(unwritten)); // (none: nothing)
    if (!(unwritten & MRC_UNWRITTEN_HEADER))
    {
        return;
    }
    if (!m_ethMacsValid)
    {
        RefreshEthMacs();
    }
    static MrcRawHeader scratch; // reused: see MrcRawHeader
    MrcRawHeader& eth = MrcScratchHeader(scratch, ETH_HEADER_BYTES, MrcRawHeader::ETHERNET);
    uint8_t* b = eth.Bytes();
    if (received)
    {
        // m_ethMacs: the peer's address, then this device's (the sender wrote them so)
        std::copy(m_ethMacs + 6, m_ethMacs + 12, b);
        std::copy(m_ethMacs, m_ethMacs + 6, b + 6);
    }
    else
    {
        std::copy(m_ethMacs, m_ethMacs + 12, b);
    }
    MrcByteIo::WriteU16(b + 12, ETHER_TYPE_IPV6);
    frame->AddHeader(eth);
}

void
MrcNetDevice::WriteEthernetHeader(uint8_t* out, uint16_t etherType)
{
    if (!m_ethMacsValid)
    {
        RefreshEthMacs();
    }
    std::copy(m_ethMacs, m_ethMacs + 12, out);
    MrcByteIo::WriteU16(out + 12, etherType);
}

bool
MrcNetDevice::SendFramed(Ptr<Packet> frame, uint8_t cls)
{
    NS_LOG_FUNCTION(this << frame << unsigned(cls));
    CheckClass(cls, "MrcNetDevice::SendFramed");
    NS_ABORT_MSG_IF(
        frame->GetSize() < ETH_HEADER_BYTES || frame->GetSize() - ETH_HEADER_BYTES > m_mtu,
        "MrcNetDevice: a " << frame->GetSize() << "-byte frame does not fit the Mtu of " << m_mtu
                           << " bytes and the " << ETH_HEADER_BYTES << "-byte Ethernet header");
    if (m_frameTraces && !m_macTxTrace.IsEmpty())
    {
        // the trace sees what SendToClass's does: the packet without the Ethernet header
        Ptr<Packet> packet = frame->Copy();
        packet->RemoveAtStart(ETH_HEADER_BYTES);
        m_macTxTrace(packet);
    }
    return EnqueueFrame(frame, cls);
}

bool
MrcNetDevice::SendToClassReplacing(const Ptr<Packet>& packet,
                                   uint16_t etherType,
                                   uint8_t cls,
                                   const uint8_t* prefix,
                                   uint32_t prefixBytes,
                                   uint64_t tag)
{
    NS_LOG_FUNCTION(this << packet << etherType << unsigned(cls) << prefixBytes);
    CheckClass(cls, "MrcNetDevice::SendToClassReplacing");
    NS_ABORT_MSG_IF(
        prefixBytes == 0 || prefixBytes > MAX_PREFIX_BYTES || prefixBytes > packet->GetSize(),
        "MrcNetDevice::SendToClassReplacing: " << prefixBytes << " bytes to replace "
                                               << "in a " << packet->GetSize()
                                               << "-byte packet; allowed 1.." << MAX_PREFIX_BYTES);
    packet->RemoveAtStart(prefixBytes);
    if (m_frameTraces && !m_macTxTrace.IsEmpty())
    {
        // the trace sees the packet with its new bytes and without the Ethernet header
        MrcRawHeader bytes(prefixBytes);
        std::copy(prefix, prefix + prefixBytes, bytes.Bytes());
        packet->AddHeader(bytes);
        return SendToClass(packet, etherType, cls, tag);
    }
    NS_ABORT_MSG_IF(packet->GetSize() + prefixBytes > m_mtu,
                    "MrcNetDevice: a " << packet->GetSize() + prefixBytes
                                       << "-byte packet exceeds the Mtu of " << m_mtu << " bytes");
    if (etherType == ETHER_TYPE_IPV6 && CanLeaveHeaderUnwritten())
    {
        static MrcRawHeader bare; // reused: see MrcRawHeader
        MrcRawHeader& bytes = MrcScratchHeader(bare, prefixBytes, MrcRawHeader::OPAQUE);
        std::copy(prefix, prefix + prefixBytes, bytes.Bytes());
        packet->AddHeader(bytes);
        return EnqueueFrame(packet, cls, tag, MRC_UNWRITTEN_HEADER);
    }
    if (!m_ethMacsValid)
    {
        RefreshEthMacs();
    }
    static MrcRawHeader scratch; // reused: see MrcRawHeader
    MrcRawHeader& eth =
        MrcScratchHeader(scratch, ETH_HEADER_BYTES + prefixBytes, MrcRawHeader::ETHERNET);
    std::copy(m_ethMacs, m_ethMacs + 12, eth.Bytes());
    MrcByteIo::WriteU16(eth.Bytes() + 12, etherType);
    std::copy(prefix, prefix + prefixBytes, eth.Bytes() + ETH_HEADER_BYTES);
    packet->AddHeader(eth);
    return EnqueueFrame(packet, cls, tag);
}

Ptr<Packet>
MrcNetDevice::RemoveLastFromClass(uint8_t cls)
{
    NS_LOG_FUNCTION(this << unsigned(cls));
    CheckClass(cls, "MrcNetDevice::RemoveLastFromClass");
    uint8_t unwritten = MRC_UNWRITTEN_NONE;
    Ptr<Packet> frame = PeekPointer(m_scheduler)->RemoveLast(cls, unwritten);
    if (frame && !(unwritten & MRC_UNWRITTEN_HEADER))
    {
        frame->RemoveAtStart(ETH_HEADER_BYTES);
    }
    if (frame)
    {
        MrcWriteIpv6Edits(frame, MrcUnwrittenEdits(unwritten)); // its owner reads it
    }
    return frame;
}

bool
MrcNetDevice::PeekLastTag(uint8_t cls, uint64_t& tag) const
{
    CheckClass(cls, "MrcNetDevice::PeekLastTag");
    return PeekPointer(m_scheduler)->PeekLastTag(cls, tag);
}

void
MrcNetDevice::RefreshEthMacs()
{
    static const uint8_t BROADCAST[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    // the peer's address (a device here, or the far end of a link to another rank)
    uint8_t peer[6];
    const bool known = m_channel && m_channel->GetPeerMac(this, peer);
    const uint8_t* dst = known ? peer : BROADCAST;
    std::copy(dst, dst + 6, m_ethMacs);
    std::copy(m_macBytes, m_macBytes + 6, m_ethMacs + 6);
    m_ethMacsValid = true;
}

void
MrcNetDevice::InvalidateEthMacs()
{
    m_ethMacsValid = false;
    Ptr<MrcNetDevice> peer = m_channel ? m_channel->GetPeer(this) : nullptr;
    if (peer)
    {
        peer->m_ethMacsValid = false; // it caches this device's address
    }
}

bool
MrcNetDevice::Enqueue(Ptr<Packet> packet,
                      Mac48Address src,
                      Mac48Address dst,
                      uint16_t type,
                      uint8_t cls)
{
    NS_ABORT_MSG_IF(packet->GetSize() > m_mtu,
                    "MrcNetDevice: a " << packet->GetSize() << "-byte packet exceeds the Mtu of "
                                       << m_mtu << " bytes");
    AddEthernetHeader(packet, src, dst, type);
    return EnqueueFrame(packet, cls);
}

bool
MrcNetDevice::EnqueueFrame(const Ptr<Packet>& packet, uint8_t cls, uint64_t tag, uint8_t unwritten)
{
    if (!m_linkUp)
    {
        WriteUnwritten(packet, unwritten, false);
        m_macTxDropTrace(packet);
        CountDrop(packet, MrcDropReason::LINK_DOWN);
        return false;
    }
    // PeekPointer: the scheduler is never null, and Ptr's checked dereference is a call
    if (!PeekPointer(m_scheduler)->Enqueue(packet, cls, tag, unwritten))
    {
        WriteUnwritten(packet, unwritten, false); // the dropped frame, as it would have been
        m_macTxDropTrace(packet);
        CountDrop(packet, MrcDropReason::QUEUE_FULL);
        return false;
    }
    if (m_frameTraces && !m_enqueueTrace.IsEmpty())
    {
        // (a traced device writes every header: CanLeaveHeaderUnwritten)
        m_enqueueTrace(packet, cls);
    }
    TryTransmit();
    return true;
}

void
MrcNetDevice::AddEthernetHeader(const Ptr<Packet>& packet,
                                const Mac48Address& src,
                                const Mac48Address& dst,
                                uint16_t type)
{
    MrcRawHeader eth(ETH_HEADER_BYTES, MrcRawHeader::ETHERNET);
    dst.CopyTo(eth.Bytes());
    src.CopyTo(eth.Bytes() + 6);
    MrcByteIo::WriteU16(eth.Bytes() + 12, type);
    packet->AddHeader(eth);
}

void
MrcNetDevice::SendPfc(uint8_t classVector, const std::array<uint16_t, 8>& quanta)
{
    NS_LOG_FUNCTION(this << unsigned(classVector));
    Ptr<Packet> frame = MrcPfcPort::MakeFrame(m_address, classVector, quanta);
    if (!m_linkUp)
    {
        CountDrop(frame, MrcDropReason::LINK_DOWN);
        return;
    }
    m_pfc->EnqueueFrame(frame, classVector, quanta);
    m_pfcPending = true;
    TryTransmit();
}

void
MrcNetDevice::SendPause(uint8_t cls, uint16_t quanta)
{
    CheckClass(cls, "MrcNetDevice::SendPause");
    std::array<uint16_t, 8> q{};
    q[cls] = quanta;
    SendPfc(static_cast<uint8_t>(1u << cls), q);
}

void
MrcNetDevice::SendResume(uint8_t cls)
{
    SendPause(cls, 0);
}

void
MrcNetDevice::TryTransmit()
{
    if (m_txBusy && (!m_txEndDeferred || ResolveDeferredTxEnd()))
    {
        return;
    }
    if (!m_linkUp)
    {
        return;
    }
    if (m_pfcPending)
    {
        // PFC frames go ahead of all data, whatever the pauses.
        Ptr<Packet> pfc = m_pfc->DequeueFrame();
        m_pfcPending = m_pfc->HasPending();
        StartTransmission(pfc);
        return;
    }
    MrcClassScheduler* const scheduler = PeekPointer(m_scheduler); // never null
    uint8_t cls;
    uint64_t tag;
    uint8_t unwritten = MRC_UNWRITTEN_NONE;
    // After the dequeue this local is the queue's only reference to the frame.
    Ptr<Packet> frame = scheduler->Dequeue(cls, tag, unwritten);
    if (!frame)
    {
        return;
    }
    if (unwritten && (m_frameTraces || (!m_ownerDequeue && !m_dequeueHook.IsNull())))
    {
        // traced or hooked since it was queued
        WriteUnwritten(frame, unwritten, false);
        unwritten = MRC_UNWRITTEN_NONE;
    }
    if (m_frameTraces && !m_dequeueTrace.IsEmpty())
    {
        m_dequeueTrace(frame, cls);
    }
    if (m_ownerDequeue)
    {
        m_owner->PortDequeued(m_ownerPort, frame, cls, tag, unwritten);
    }
    else if (!m_dequeueHook.IsNull())
    {
        m_dequeueHook(frame, cls);
    }
    scheduler->CountSent(cls, frame->GetSize() + MrcUnwrittenBytes(unwritten));
    StartTransmission(frame, unwritten);
}

uint64_t
MrcNetDevice::StepsPerSecond()
{
    return static_cast<uint64_t>(Time::FromInteger(1, Time::S).GetTimeStep());
}

Time
MrcNetDevice::GetSerializationTime(uint32_t frameBytes) const
{
    return GetSerializationTime(m_rate, m_wireOverhead, frameBytes);
}

Time
MrcNetDevice::GetSerializationTime(DataRate rate, uint32_t wireOverhead, uint32_t frameBytes)
{
    uint64_t bits = 8ULL * (std::max(frameBytes, MIN_FRAME_BYTES) + wireOverhead);
    MrcUint128 scaled = static_cast<MrcUint128>(bits) * StepsPerSecond();
    return TimeStep(static_cast<uint64_t>(scaled / rate.GetBitRate()));
}

Time
MrcNetDevice::GetPauseDuration(uint16_t quanta) const
{
    return m_pfc->GetPauseDuration(quanta);
}

void
MrcNetDevice::StartTransmission(const Ptr<Packet>& frame, uint8_t unwritten)
{
    NS_LOG_FUNCTION(this << frame << unsigned(unwritten));
    if (unwritten && !CanLeaveHeaderUnwritten())
    {
        WriteUnwritten(frame, unwritten, false); // traced, or the link leads to another rank now
        unwritten = MRC_UNWRITTEN_NONE;
    }
    // Back-to-back frames keep the sub-step remainder so that a busy period ends
    // exactly when its total bit count says (rounded down); an idle link drops it.
    const MrcHeapScheduler::RunningEvent& running = MrcHeapScheduler::GetRunningEvent();
    const Time now = running.known ? TimeStep(running.ts) : Simulator::Now();
    if (now != m_lastTxEnd)
    {
        m_txCarry = 0;
    }
    const uint64_t bits =
        8ULL * (std::max(frame->GetSize() + MrcUnwrittenBytes(unwritten), MIN_FRAME_BYTES) +
                m_wireOverhead);
    const uint64_t bps = m_bps;
    const uint64_t steps = static_cast<uint64_t>(m_second.GetTimeStep());
    Time txTime;
    if (bits <= (UINT64_MAX - m_txCarry) / steps)
    {
        // The common case fits in 64 bits: same quotient and remainder, no 128-bit division.
        const uint64_t scaled = bits * steps + m_txCarry;
        txTime = TimeStep(scaled / bps);
        m_txCarry = scaled % bps;
    }
    else
    {
        MrcUint128 scaled = static_cast<MrcUint128>(bits) * steps + m_txCarry;
        txTime = TimeStep(static_cast<uint64_t>(scaled / bps));
        m_txCarry = static_cast<uint64_t>(scaled % bps);
    }
    m_lastTxEnd = now + txTime;
    m_txBusy = true;
    if (m_frameTraces && !m_phyTxBeginTrace.IsEmpty())
    {
        m_phyTxBeginTrace(frame);
    }
    if (m_frameTraces && !m_snifferTrace.IsEmpty())
    {
        m_snifferTrace(frame);
    }
    if (m_frameTraces && !m_promiscSnifferTrace.IsEmpty())
    {
        m_promiscSnifferTrace(frame);
    }
    // Keep the frame for the PhyTxEnd trace only if that trace is connected. The
    // caller's reference (TryTransmit's local, taken off the queue) is the only one
    // unless a trace sink or hook kept the frame: then the peer may receive this
    // packet object itself instead of a copy, since no one else can see it.
    if (m_frameTraces && !m_phyTxEndTrace.IsEmpty())
    {
        m_txFrame = frame;
        m_channel->TransmitOn(m_txDirection, frame, txTime, false);
    }
    else
    {
        m_channel->TransmitOn(m_txDirection,
                              frame,
                              txTime,
                              frame->GetReferenceCount() == 1,
                              unwritten);
    }
    // The end of the serialization starts the next frame. When nothing waits (no frame
    // queued, no PFC frame, no PhyTxEnd frame kept) it would only mark the wire free: it is
    // then scheduled only if something is queued before it (ResolveDeferredTxEnd), at the
    // place in the same-time order it takes now (a slot of MrcHeapScheduler).
    if (m_lazyTxEnd && !m_pfcPending && !m_txFrame &&
        PeekPointer(m_scheduler)->GetBacklogMask() == 0 && MrcHeapScheduler::TakeSlot(m_txEndSlot))
    {
        m_txEndDeferred = true;
        m_txEndContext = running.known ? running.context : Simulator::GetContext();
        return;
    }
    // the next frame's packet object, read when this one ends (its queue's ring is in
    // cache now: this frame just left it)
    PeekPointer(m_scheduler)->PrefetchNext();
    // as Simulator::Schedule, without the EventId nobody needs
    MrcHeapScheduler::HintNextInsert(this);
    MrcScheduleAgain(m_txCompleteEvent,
                     running.known ? running.context : Simulator::GetContext(),
                     txTime);
}

bool
MrcNetDevice::ResolveDeferredTxEnd()
{
    // a slot was taken: an MrcHeapScheduler is in use (running.known unless before Run)
    const MrcHeapScheduler::RunningEvent& running = MrcHeapScheduler::GetRunningEvent();
    const Time now = running.known ? TimeStep(running.ts) : Simulator::Now();
    if (now < m_lastTxEnd || (now == m_lastTxEnd && !MrcHeapScheduler::HasSlotPassed(m_txEndSlot)))
    {
        m_txEndDeferred = false;
        MrcHeapScheduler::InsertNextAtSlot(m_txEndSlot);
        MrcHeapScheduler::HintNextInsert(this);
        MrcScheduleAgain(m_txCompleteEvent, m_txEndContext, m_lastTxEnd - now);
        return true;
    }
    // The end has passed with nothing waiting: TransmitComplete would have found nothing
    // to send (every change that makes a frame sendable calls TryTransmit).
    m_txEndDeferred = false;
    m_txBusy = false;
    return false;
}

void
MrcNetDevice::TransmitComplete()
{
    NS_LOG_FUNCTION(this);
    m_txBusy = false;
    if (m_txFrame)
    {
        Ptr<Packet> frame = m_txFrame;
        m_txFrame = nullptr;
        m_phyTxEndTrace(frame);
    }
    TryTransmit();
}

// ---------------------------------------------------------------- receiving

void
MrcNetDevice::Receive(const Ptr<Packet>& frame)
{
    Receive(frame, false);
}

void
MrcNetDevice::Receive(const Ptr<Packet>& frame, uint8_t unwritten)
{
    NS_LOG_FUNCTION(this << frame << unsigned(unwritten));
    if (unwritten &&
        (m_frameTraces || !m_ownerRx || (m_hasReceiveErrorModel && ReceiveErrorModelReadsBytes())))
    {
        // something other than the owner's frame path sees the frame: all its bytes
        WriteUnwritten(frame, unwritten, true);
        unwritten = MRC_UNWRITTEN_NONE;
    }
    if (m_hasReceiveErrorModel && IsReceiveCorrupt(frame, unwritten))
    {
        if (unwritten)
        {
            WriteUnwritten(frame, unwritten, true); // the drop trace sees the frame sent
        }
        m_phyRxDropTrace(frame);
        CountDrop(frame, MrcDropReason::ERROR_MODEL);
        return;
    }
    if (m_frameTraces)
    {
        TraceReceivedFrame(frame);
    }
    const uint32_t frameBytes = frame->GetSize() + MrcUnwrittenBytes(unwritten);
    // The Ethernet header and the packet's first bytes (the IPv6 traffic class for the
    // class, the headers for the owner's parse), read at once: the frame's one read here.
    uint8_t head[ETH_HEADER_BYTES + RX_HEAD_BYTES];
    uint32_t got;
    uint16_t type;
    const uint8_t edits = MrcUnwrittenEdits(unwritten); // (bits 1-4; 0 if none)
    if (unwritten)
    {
        // an IPv6 frame without its header (WriteUnwritten): only the rest is read, with
        // the edits the switches before made (the owner reads these bytes)
        got = ETH_HEADER_BYTES + frame->CopyData(head + ETH_HEADER_BYTES, RX_HEAD_BYTES);
        type = ETHER_TYPE_IPV6;
        if (unwritten != MRC_UNWRITTEN_HEADER && got >= ETH_HEADER_BYTES + MRC_IPV6_HEADER_BYTES)
        {
            MrcApplyIpv6Edits(head + ETH_HEADER_BYTES, edits);
        }
    }
    else
    {
        got = frame->CopyData(head, sizeof(head));
        NS_ABORT_MSG_IF(got < ETH_HEADER_BYTES,
                        "MrcNetDevice: a " << frameBytes << "-byte frame has no Ethernet header");
        frame->RemoveAtStart(ETH_HEADER_BYTES);
        type = MrcByteIo::ReadU16(head + 12);
        if (type == MrcPfcFrame::ETHER_TYPE)
        {
            m_pfc->Receive(frame);
            return;
        }
    }
    const uint8_t cls = ClassOfFrame(type, head + ETH_HEADER_BYTES, got >= ETH_HEADER_BYTES + 2);
    // Counted on this object's first line, in the pending slot of its class; m_rx's line
    // is written only when a third class arrives or a slot is full.
    if ((m_rxPending[0] >> RX_PENDING_CLASS_SHIFT) != cls)
    {
        std::swap(m_rxPending[0], m_rxPending[1]);
        if ((m_rxPending[0] >> RX_PENDING_CLASS_SHIFT) != cls)
        {
            FlushReceived(0, cls);
        }
    }
    NS_ASSERT_MSG(frameBytes <= RX_PENDING_BYTES, "a " << frameBytes << "-byte frame");
    if (((m_rxPending[0] >> RX_PENDING_FRAMES_SHIFT) & RX_PENDING_MAX_FRAMES) ==
            RX_PENDING_MAX_FRAMES ||
        (m_rxPending[0] & RX_PENDING_BYTES) + frameBytes > RX_PENDING_BYTES)
    {
        FlushReceived(0, cls);
    }
    m_rxPending[0] += RX_PENDING_FRAME + frameBytes;
    if (m_frameTraces && !m_macRxTrace.IsEmpty())
    {
        m_macRxTrace(frame);
    }
    if (m_ownerRx)
    {
        m_owner->PortReceive(m_ownerPort,
                             frame,
                             type,
                             cls,
                             MrcRxHead{head + ETH_HEADER_BYTES, got - ETH_HEADER_BYTES, edits});
        return;
    }
    if (!m_classRxCallback.IsNull())
    {
        m_classRxCallback(this, frame, type, cls);
        return;
    }
    Mac48Address dst;
    Mac48Address src;
    dst.CopyFrom(head);
    src.CopyFrom(head + 6);
    Deliver(frame, src, dst, type, cls);
}

void
MrcNetDevice::TraceReceivedFrame(const Ptr<Packet>& frame)
{
    if (!m_phyRxEndTrace.IsEmpty())
    {
        m_phyRxEndTrace(frame);
    }
    if (!m_snifferTrace.IsEmpty())
    {
        m_snifferTrace(frame);
    }
    if (!m_promiscSnifferTrace.IsEmpty())
    {
        m_promiscSnifferTrace(frame);
    }
}

uint8_t
MrcNetDevice::ClassOfFrame(uint16_t type, const uint8_t* ip, bool haveIp) const
{
    if (type != ETHER_TYPE_IPV6)
    {
        return m_nonIpClass;
    }
    if (!haveIp)
    {
        return m_unmappedDscpClass;
    }
    // IPv6: version (4 bits) | traffic class (8 bits) | flow label (20 bits).
    const uint8_t dscp = static_cast<uint8_t>((((ip[0] & 0x0f) << 4) | (ip[1] >> 4)) >> 2);
    const uint8_t mapped = (*m_dscpClass)[dscp];
    return mapped == NO_CLASS ? m_unmappedDscpClass : mapped;
}

void
MrcNetDevice::Deliver(Ptr<Packet> packet,
                      const Mac48Address& src,
                      const Mac48Address& dst,
                      uint16_t type,
                      uint8_t cls)
{
    if (!m_classRxCallback.IsNull())
    {
        m_classRxCallback(this, packet, type, cls);
        return;
    }
    PacketType kind;
    if (dst == m_address)
    {
        kind = PACKET_HOST;
    }
    else if (dst.IsBroadcast())
    {
        kind = PACKET_BROADCAST;
    }
    else if (dst.IsGroup())
    {
        kind = PACKET_MULTICAST;
    }
    else
    {
        kind = PACKET_OTHERHOST;
    }
    if (!m_promiscCallback.IsNull())
    {
        m_promiscCallback(this, packet, type, src, dst, kind);
    }
    if (kind != PACKET_OTHERHOST && !m_rxCallback.IsNull())
    {
        m_rxCallback(this, packet, type, src);
    }
}

// ---------------------------------------------------------------- PFC

void
MrcNetDevice::PauseChanged(uint8_t cls, bool paused)
{
    m_scheduler->SetClassPaused(cls, paused);
    if (!paused)
    {
        TryTransmit();
    }
}

bool
MrcNetDevice::IsClassPaused(uint8_t cls) const
{
    CheckClass(cls, "MrcNetDevice::IsClassPaused");
    return m_pfc->IsPaused(cls);
}

Time
MrcNetDevice::GetPausedTime(uint8_t cls) const
{
    CheckClass(cls, "MrcNetDevice::GetPausedTime");
    return m_pfc->GetPausedTime(cls);
}

// ---------------------------------------------------------------- link state

void
MrcNetDevice::NotifyChannelLinkState(bool up)
{
    NS_LOG_FUNCTION(this << up);
    ++m_detectGeneration; // a pending detection of the previous change is void
    if (up == m_linkUp)
    {
        return; // a flap shorter than the detection delay goes unnoticed
    }
    Time delay = up ? m_linkUpDetectDelay : m_linkDownDetectDelay;
    if (delay.IsZero())
    {
        ApplyLinkState(up);
        return;
    }
    uint32_t context = m_node ? m_node->GetId() : Simulator::GetContext();
    Simulator::ScheduleWithContext(context,
                                   delay,
                                   &MrcNetDevice::DetectLinkState,
                                   this,
                                   up,
                                   m_detectGeneration);
}

void
MrcNetDevice::DetectLinkState(bool up, uint64_t generation)
{
    if (generation == m_detectGeneration)
    {
        ApplyLinkState(up);
    }
}

void
MrcNetDevice::ApplyLinkState(bool up)
{
    NS_LOG_FUNCTION(this << up);
    m_linkUp = up;
    if (!up)
    {
        FlushOnLinkDown();
    }
    m_linkStateTrace(up);
    m_linkChangeCallbacks();
    if (up)
    {
        TryTransmit();
    }
}

void
MrcNetDevice::FlushOnLinkDown()
{
    m_scheduler->Flush(
        [this](const Ptr<Packet>& frame, uint8_t cls, uint64_t tag, uint8_t unwritten) {
            WriteUnwritten(frame, unwritten, false);
            CountDrop(frame, MrcDropReason::LINK_DOWN);
            if (m_ownerDequeue)
            {
                m_owner->PortFlushed(m_ownerPort, frame, cls, tag);
            }
        });
    while (Ptr<Packet> frame = m_pfc->DiscardFrame())
    {
        CountDrop(frame, MrcDropReason::LINK_DOWN);
    }
    m_pfcPending = false;
    m_pfc->ResumeAll(); // the port's callback ungates the scheduler's classes
}

void
MrcNetDevice::NotifyLostOnWire(Ptr<const Packet> frame)
{
    CountDrop(frame, MrcDropReason::LINK_DOWN);
}

void
MrcNetDevice::CountDrop(Ptr<const Packet> packet, MrcDropReason reason)
{
    NS_LOG_LOGIC("drop " << packet->GetSize() << " bytes: " << reason);
    std::size_t r = static_cast<std::size_t>(reason);
    ++m_dropPackets[r];
    m_dropBytes[r] += packet->GetSize();
    m_dropTrace(packet, reason);
}

// ---------------------------------------------------------------- owner hooks and getters

void
MrcNetDevice::SetDequeueHook(DequeueHook hook)
{
    m_dequeueHook = hook;
    m_ownerDequeue = false;
}

void
MrcNetDevice::SetClassReceiveCallback(ClassReceiveCallback cb)
{
    m_classRxCallback = cb;
    m_ownerRx = false;
}

void
MrcPortOwner::PortFlushed(uint32_t /* port */,
                          const Ptr<Packet>& /* frame */,
                          uint8_t /* cls */,
                          uint64_t /* tag */)
{
}

void
MrcNetDevice::SetPortOwner(MrcPortOwner* owner, uint32_t port)
{
    NS_ABORT_MSG_IF(port > UINT16_MAX,
                    "MrcNetDevice::SetPortOwner: port " << port << "; allowed 0.." << UINT16_MAX);
    m_owner = owner;
    m_ownerPort = static_cast<uint16_t>(port);
    m_ownerRx = owner != nullptr;
    m_ownerDequeue = owner != nullptr;
}

uint32_t
MrcNetDevice::GetQueueBytes(uint8_t cls) const
{
    CheckClass(cls, "MrcNetDevice::GetQueueBytes");
    return PeekPointer(m_scheduler)->GetQueueBytes(cls); // per frame at a marking switch
}

uint32_t
MrcNetDevice::GetQueuePackets(uint8_t cls) const
{
    CheckClass(cls, "MrcNetDevice::GetQueuePackets");
    return m_scheduler->GetQueuePackets(cls);
}

uint64_t
MrcNetDevice::GetTotalQueueBytes() const
{
    return m_scheduler->GetTotalQueueBytes();
}

uint64_t
MrcNetDevice::GetTxPackets(uint8_t cls) const
{
    CheckClass(cls, "MrcNetDevice::GetTxPackets");
    return m_scheduler->GetSentPackets(cls);
}

uint64_t
MrcNetDevice::GetTxBytes(uint8_t cls) const
{
    CheckClass(cls, "MrcNetDevice::GetTxBytes");
    return m_scheduler->GetSentBytes(cls);
}

uint64_t
MrcNetDevice::GetRxPackets(uint8_t cls) const
{
    CheckClass(cls, "MrcNetDevice::GetRxPackets");
    return m_rx[cls].packets + (PendingReceived(cls) >> 32);
}

uint64_t
MrcNetDevice::GetRxBytes(uint8_t cls) const
{
    CheckClass(cls, "MrcNetDevice::GetRxBytes");
    return m_rx[cls].bytes + (PendingReceived(cls) & UINT32_MAX);
}

uint64_t
MrcNetDevice::PendingReceived(uint8_t cls) const
{
    uint64_t frames = 0;
    uint64_t bytes = 0;
    for (uint32_t w : m_rxPending)
    {
        if ((w >> RX_PENDING_CLASS_SHIFT) == cls) // (an empty slot adds nothing)
        {
            frames += (w >> RX_PENDING_FRAMES_SHIFT) & RX_PENDING_MAX_FRAMES;
            bytes += w & RX_PENDING_BYTES;
        }
    }
    return (frames << 32) | bytes;
}

void
MrcNetDevice::FlushReceived(uint32_t slot, uint8_t cls)
{
    const uint32_t w = m_rxPending[slot];
    ClassRx& rx = m_rx[w >> RX_PENDING_CLASS_SHIFT];
    rx.packets += (w >> RX_PENDING_FRAMES_SHIFT) & RX_PENDING_MAX_FRAMES;
    rx.bytes += w & RX_PENDING_BYTES;
    m_rxPending[slot] = static_cast<uint32_t>(cls) << RX_PENDING_CLASS_SHIFT;
}

void
MrcNetDevice::SetReceiveErrorModel(Ptr<ErrorModel> model)
{
    m_receiveErrorModel = model;
    m_hasReceiveErrorModel = model != nullptr;
    // Exactly these types, not subclasses: a subclass may read the frame.
    const bool ingress = model && model->GetInstanceTypeId() == MrcIngressLossModel::GetTypeId();
    const bool rate = model && model->GetInstanceTypeId() == RateErrorModel::GetTypeId();
    m_ingressLoss = ingress ? static_cast<MrcIngressLossModel*>(PeekPointer(model)) : nullptr;
    m_rateLoss = rate ? static_cast<RateErrorModel*>(PeekPointer(model)) : nullptr;
}

bool
MrcNetDevice::ReceiveErrorModelReadsBytes() const
{
    // (a RateErrorModel's unit is read per frame: it may be set after the model)
    return !m_ingressLoss &&
           !(m_rateLoss && m_rateLoss->GetUnit() == RateErrorModel::ERROR_UNIT_PACKET);
}

bool
MrcNetDevice::IsReceiveCorrupt(const Ptr<Packet>& frame, uint8_t unwritten) const
{
    if (unwritten && m_ingressLoss)
    {
        return m_ingressLoss->IsCorruptNotMacControl();
    }
    return m_receiveErrorModel->IsCorrupt(frame);
}

Ptr<ErrorModel>
MrcNetDevice::GetReceiveErrorModel() const
{
    return m_receiveErrorModel;
}

uint64_t
MrcNetDevice::GetDropPackets(MrcDropReason reason) const
{
    return m_dropPackets[static_cast<std::size_t>(reason)];
}

uint64_t
MrcNetDevice::GetDropBytes(MrcDropReason reason) const
{
    return m_dropBytes[static_cast<std::size_t>(reason)];
}

uint64_t
MrcNetDevice::GetPfcTxFrames() const
{
    return m_pfc->GetTxFrames();
}

uint64_t
MrcNetDevice::GetPfcRxFrames() const
{
    return m_pfc->GetRxFrames();
}

// ---------------------------------------------------------------- NetDevice

void
MrcNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
MrcNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
MrcNetDevice::GetChannel() const
{
    return m_channel;
}

void
MrcNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
    m_address.CopyTo(m_macBytes);
    InvalidateEthMacs();
}

Address
MrcNetDevice::GetAddress() const
{
    return m_address;
}

bool
MrcNetDevice::SetMtu(const uint16_t mtu)
{
    NS_ABORT_MSG_IF(mtu < 1280,
                    "MrcNetDevice Mtu " << mtu << " is below IPv6's minimum: allowed 1280..65535");
    m_mtu = mtu;
    return true;
}

uint16_t
MrcNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
MrcNetDevice::IsLinkUp() const
{
    return m_linkUp;
}

void
MrcNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChangeCallbacks.ConnectWithoutContext(callback);
}

bool
MrcNetDevice::IsBroadcast() const
{
    return true;
}

Address
MrcNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
MrcNetDevice::IsMulticast() const
{
    return true;
}

Address
MrcNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
MrcNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
MrcNetDevice::IsBridge() const
{
    return false;
}

bool
MrcNetDevice::IsPointToPoint() const
{
    return true; // one full-duplex link to one peer (ns-3's MPI engine reads it)
}

Ptr<Node>
MrcNetDevice::GetNode() const
{
    return m_node;
}

void
MrcNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
MrcNetDevice::NeedsArp() const
{
    return true;
}

void
MrcNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
MrcNetDevice::SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb)
{
    m_promiscCallback = cb;
}

bool
MrcNetDevice::SupportsSendFrom() const
{
    return true;
}

} // namespace ns3
