/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-channel.h"

#include "mrc-net-device.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mrc-reusable-event.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

#include <functional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcChannel");

NS_OBJECT_ENSURE_REGISTERED(MrcChannel);

TypeId
MrcChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcChannel")
            .SetParent<Channel>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcChannel>()
            .AddAttribute("Delay",
                          "One-way propagation delay of the link.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&MrcChannel::SetDelay, &MrcChannel::GetDelay),
                          MakeTimeChecker(Seconds(0)))
            .AddTraceSource("LinkStateChange",
                            "The physical link state changed (both directions).",
                            MakeTraceSourceAccessor(&MrcChannel::m_linkStateTrace),
                            "ns3::MrcChannel::LinkStateTracedCallback")
            .AddTraceSource("Lost",
                            "A frame was lost on the wire because the link was down.",
                            MakeTraceSourceAccessor(&MrcChannel::m_lostTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

MrcChannel::MrcChannel()
    : m_nDevices(0),
      m_delay(MicroSeconds(1)),
      m_up(true),
      m_stale{0, 0},
      m_context{0, 0},
      m_contextKnown{false, false},
      m_lostPackets{0, 0},
      m_lostBytes{0, 0}
{
    NS_LOG_FUNCTION(this);
    for (std::size_t from = 0; from < 2; ++from)
    {
        m_deliverEvent[from] = Create<MrcReusableEvent>([this, from]() { Deliver(from); });
    }
}

MrcChannel::~MrcChannel()
{
    NS_LOG_FUNCTION(this);
}

void
MrcChannel::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& dir : m_wire)
    {
        dir.clear();
    }
    m_devices[0] = nullptr;
    m_devices[1] = nullptr;
    // Trace sinks may hold objects that hold this channel (a route manager's link-state
    // sink is bound to the manager, which lists the channel): emptied, so both are freed.
    m_linkStateTrace = TracedCallback<bool>();
    m_lostTrace = TracedCallback<Ptr<const Packet>>();
    Channel::DoDispose();
}

void
MrcChannel::Attach(Ptr<MrcNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(m_nDevices >= 2, "MrcChannel: a third device cannot be attached");
    m_devices[m_nDevices] = device;
    m_contextKnown[1 - m_nDevices] = false; // frames towards it: its node is looked up again
    ++m_nDevices;
}

std::size_t
MrcChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
MrcChannel::GetDevice(std::size_t i) const
{
    return GetMrcDevice(i);
}

Ptr<MrcNetDevice>
MrcChannel::GetMrcDevice(std::size_t i) const
{
    NS_ABORT_MSG_IF(i >= m_nDevices,
                    "MrcChannel: device " << i << " requested, " << m_nDevices << " attached");
    return m_devices[i];
}

Ptr<MrcNetDevice>
MrcChannel::GetPeer(Ptr<const MrcNetDevice> device) const
{
    if (m_nDevices < 2)
    {
        return nullptr;
    }
    return m_devices[1 - IndexOf(device)];
}

std::size_t
MrcChannel::IndexOf(Ptr<const MrcNetDevice> device) const
{
    if (m_devices[0] == device)
    {
        return 0;
    }
    NS_ABORT_MSG_IF(m_devices[1] != device, "MrcChannel: the device is not attached here");
    return 1;
}

void
MrcChannel::SetDelay(Time delay)
{
    m_delay = delay;
}

Time
MrcChannel::GetDelay() const
{
    return m_delay;
}

bool
MrcChannel::IsLinkUp() const
{
    return m_up;
}

void
MrcChannel::SetLinkUp(bool up)
{
    NS_LOG_FUNCTION(this << up);
    if (up == m_up)
    {
        return;
    }
    m_up = up;
    if (!up)
    {
        for (std::size_t from = 0; from < 2; ++from)
        {
            // Arrival events already scheduled for these frames find a newer
            // epoch and do nothing.
            // Every frame on the wire has one pending delivery event: those events
            // fire before any of a frame sent later (a device starts its next frame
            // only after the current one's serialization), and are ignored.
            m_stale[from] += m_wire[from].size();
            MrcRing<Ptr<Packet>> lost;
            lost.swap(m_wire[from]);
            while (!lost.empty())
            {
                Ptr<Packet> f = lost.front();
                lost.pop_front();
                Lose(from, f);
            }
        }
    }
    m_linkStateTrace(up);
    for (std::size_t i = 0; i < m_nDevices; ++i)
    {
        m_devices[i]->NotifyChannelLinkState(up);
    }
}

void
MrcChannel::Transmit(Ptr<MrcNetDevice> src, Ptr<Packet> frame, Time txTime, bool exclusive)
{
    NS_LOG_FUNCTION(this << src << frame << txTime);
    std::size_t from = IndexOf(src);
    // The receiver gets its own copy (the sender's traces may still hold the frame),
    // unless the sender handed over the only reference.
    Ptr<Packet> copy = exclusive ? std::move(frame) : frame->Copy();
    if (!m_up || m_nDevices < 2)
    {
        Lose(from, copy);
        return;
    }
    // The receiver's node id, looked up once (a frame then does not visit the peer device
    // and its node, which in a large fabric are rarely in cache).
    if (!m_contextKnown[from])
    {
        const Node* node = PeekPointer(m_devices[1 - from]->GetNode());
        m_contextKnown[from] = node != nullptr;
        m_context[from] = node ? node->GetId() : 0;
    }
    const uint32_t context = m_contextKnown[from] ? m_context[from] : Simulator::GetContext();
    // The simulator takes one reference per pending event and drops it after the run.
    MrcScheduleAgain(m_deliverEvent[from], context, txTime + m_delay);
    m_wire[from].push_back(copy);
}

void
MrcChannel::Deliver(std::size_t from)
{
    if (m_stale[from] > 0)
    {
        --m_stale[from];
        return; // lost when the link went down
    }
    NS_ASSERT(!m_wire[from].empty());
    Ptr<Packet> frame = m_wire[from].front();
    m_wire[from].pop_front();
    m_devices[1 - from]->Receive(frame);
}

void
MrcChannel::Lose(std::size_t from, Ptr<Packet> frame)
{
    NS_LOG_LOGIC("frame of " << frame->GetSize() << " bytes from device " << from
                             << " lost on the wire");
    ++m_lostPackets[from];
    m_lostBytes[from] += frame->GetSize();
    m_lostTrace(frame);
    m_devices[from]->NotifyLostOnWire(frame);
}

uint64_t
MrcChannel::GetLostPackets() const
{
    return m_lostPackets[0] + m_lostPackets[1];
}

uint64_t
MrcChannel::GetLostBytes() const
{
    return m_lostBytes[0] + m_lostBytes[1];
}

uint64_t
MrcChannel::GetLostPackets(std::size_t from) const
{
    NS_ABORT_MSG_IF(from > 1, "MrcChannel: device index " << from << ": allowed 0, 1");
    return m_lostPackets[from];
}

uint64_t
MrcChannel::GetLostBytes(std::size_t from) const
{
    NS_ABORT_MSG_IF(from > 1, "MrcChannel: device index " << from << ": allowed 0, 1");
    return m_lostBytes[from];
}

} // namespace ns3
