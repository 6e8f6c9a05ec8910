/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-channel.h"

#include "mrc-net-device.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/mrc-canonical-scheduler.h"
#include "ns3/mrc-heap-scheduler.h"
#include "ns3/mrc-mpi.h"
#include "ns3/mrc-reusable-event.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/tag.h"
#include "ns3/trace-source-accessor.h"

#include <functional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcChannel");

NS_OBJECT_ENSURE_REGISTERED(MrcChannel);

/**
 * \ingroup mrc
 * The down count of a link when a frame started on it towards another rank: the
 * receiving rank discards the frame if the link went down since (MrcChannel).
 */
class MrcLinkEpochTag : public Tag
{
  public:
    /// \return the type ID
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::MrcLinkEpochTag")
                                .SetParent<Tag>()
                                .SetGroupName("Mrc")
                                .AddConstructor<MrcLinkEpochTag>();
        return tid;
    }

    TypeId GetInstanceTypeId() const override
    {
        return GetTypeId();
    }

    uint32_t GetSerializedSize() const override
    {
        return 4 + 8 + 4 + 8 + 8;
    }

    void Serialize(TagBuffer i) const override
    {
        i.WriteU32(epoch);
        i.WriteU64(static_cast<uint64_t>(sendTs));
        i.WriteU32(sender);
        i.WriteU64(seq);
        i.WriteU64(static_cast<uint64_t>(arrivalTs));
    }

    void Deserialize(TagBuffer i) override
    {
        epoch = i.ReadU32();
        sendTs = static_cast<int64_t>(i.ReadU64());
        sender = i.ReadU32();
        seq = i.ReadU64();
        arrivalTs = static_cast<int64_t>(i.ReadU64());
    }

    void Print(std::ostream& os) const override
    {
        os << "epoch=" << epoch << " sent=" << sendTs << " by=" << sender << " seq=" << seq
           << " arrival=" << arrivalTs;
    }

    uint32_t epoch{0};    //!< the link's down count at the frame's start
    int64_t sendTs{0};    //!< time the frame started (time steps)
    uint32_t sender{0};   //!< sending node's id
    uint64_t seq{0};      //!< the sending node's scheduling count (MrcCanonicalScheduler)
    int64_t arrivalTs{0}; //!< arrival time at the far device (time steps)
};

NS_OBJECT_ENSURE_REGISTERED(MrcLinkEpochTag);

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
      m_lostPackets{0, 0},
      m_lostBytes{0, 0},
      m_downs(0)
{
    NS_LOG_FUNCTION(this);
    for (auto& dir : m_dir)
    {
        dir = Create<Direction>();
    }
    RefreshDirections();
}

MrcChannel::~MrcChannel()
{
    NS_LOG_FUNCTION(this);
}

void
MrcChannel::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& dir : m_dir)
    {
        dir->wire.clear();
        dir->to = nullptr;
        dir->open = false;
    }
    for (auto& dir : m_arrival)
    {
        dir.clear();
    }
    m_devices[0] = nullptr;
    m_devices[1] = nullptr;
    m_remote[0] = nullptr;
    m_remote[1] = nullptr;
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
    m_dir[1 - m_nDevices]->contextKnown = false; // frames towards it: its node is looked up
    ++m_nDevices;
    RefreshDirections();
    if (m_nDevices == 2)
    {
        SetUpRanks();
    }
}

void
MrcChannel::AttachRemote(Ptr<MrcRemotePort> end)
{
    NS_LOG_FUNCTION(this << end);
    NS_ABORT_MSG_IF(m_nDevices >= 2, "MrcChannel: a third device cannot be attached");
    NS_ABORT_MSG_IF(m_nDevices == 1 && !m_devices[0],
                    "MrcChannel: both ends of a link cannot be far ends");
    m_remote[m_nDevices] = end;
    m_dir[1 - m_nDevices]->contextKnown = false;
    ++m_nDevices;
    RefreshDirections();
    if (m_nDevices == 2)
    {
        SetUpRanks();
    }
}

void
MrcChannel::SetUpRanks()
{
    m_dir[0]->toRank = m_dir[1]->toRank = false;
    if (!MrcMpi::IsActive())
    {
        return;
    }
    for (std::size_t i = 0; i < 2; ++i)
    {
        const Node* here = PeekPointer(GetDevice(i)->GetNode());
        const Node* there = PeekPointer(GetDevice(1 - i)->GetNode());
        NS_ABORT_MSG_IF(!here || !there,
                        "MrcChannel: in a distributed run, a device must be on a node before "
                        "it is attached");
        NS_ABORT_MSG_IF(m_remote[i] && MrcMpi::IsLocal(here),
                        "MrcChannel: a far end (MrcRemotePort) on node "
                            << here->GetId() << ", which lives on this rank");
        if (MrcMpi::IsLocal(here) && !MrcMpi::IsLocal(there))
        {
            m_dir[i]->toRank = true;
            MrcMpi::AddRankRoute(there->GetSystemId(),
                                 there->GetId(),
                                 GetDevice(1 - i)->GetIfIndex());
            const std::size_t from = 1 - i; // frames from the far end arrive here
            MrcMpi::InstallReceiver(m_devices[i],
                                    Callback<void, Ptr<Packet>>(
                                        [this, from](Ptr<Packet> f) { ReceiveFromRank(from, f); }));
        }
    }
}

std::size_t
MrcChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
MrcChannel::GetDevice(std::size_t i) const
{
    NS_ABORT_MSG_IF(i >= m_nDevices,
                    "MrcChannel: device " << i << " requested, " << m_nDevices << " attached");
    if (m_remote[i])
    {
        return m_remote[i];
    }
    return m_devices[i];
}

Ptr<MrcRemotePort>
MrcChannel::GetRemotePort(std::size_t i) const
{
    NS_ABORT_MSG_IF(i > 1, "MrcChannel: device index " << i << ": allowed 0, 1");
    return m_remote[i];
}

bool
MrcChannel::GetPeerMac(Ptr<const MrcNetDevice> device, uint8_t mac[6]) const
{
    if (m_nDevices < 2)
    {
        return false;
    }
    const std::size_t peer = 1 - IndexOf(device);
    if (m_remote[peer])
    {
        m_remote[peer]->GetMacAddress().CopyTo(mac);
    }
    else
    {
        Mac48Address::ConvertFrom(m_devices[peer]->GetAddress()).CopyTo(mac);
    }
    return true;
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
    RefreshDirections();
}

void
MrcChannel::RefreshDirections()
{
    static_assert(sizeof(Direction) == 64, "a direction is one cache line");
    for (std::size_t from = 0; from < 2; ++from)
    {
        Direction& dir = *m_dir[from];
        dir.to = m_nDevices == 2 ? PeekPointer(m_devices[1 - from]) : nullptr;
        dir.open = m_up && m_nDevices == 2;
        dir.delay = m_delay;
    }
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
    RefreshDirections();
    if (!up)
    {
        ++m_downs;
        for (std::size_t from = 0; from < 2; ++from)
        {
            Direction& dir = *m_dir[from];
            if (dir.toRank)
            {
                DropArrived(from); // the rest is still travelling: lost
                m_arrival[from].clear();
            }
            else
            {
                // The frames on the wire whose delivery is scheduled (those without a
                // slot, the oldest among them) have one pending event each: those events
                // fire before any of a frame sent later (a device starts its next frame
                // only after the current one's serialization), and are ignored. A frame
                // with a slot has no event yet.
                for (const Direction::Frame& f : dir.wire)
                {
                    dir.stale += f.Slot() == 0 ? 1 : 0;
                }
            }
            MrcRing<Direction::Frame> lost;
            lost.swap(dir.wire);
            while (!lost.empty())
            {
                Ptr<Packet> f = lost.front().packet.Release();
                const uint8_t unwritten = lost.front().Unwritten();
                lost.pop_front();
                if (f->GetReferenceCount() != 1)
                {
                    f = f->Copy(); // still held elsewhere, as at an arrival (Notify)
                }
                Lose(from, f, unwritten);
            }
        }
    }
    m_linkStateTrace(up);
    for (std::size_t i = 0; i < m_nDevices; ++i)
    {
        // In a distributed run the far rank tells its own device.
        if (m_devices[i] && MrcMpi::IsLocal(PeekPointer(m_devices[i]->GetNode())))
        {
            m_devices[i]->NotifyChannelLinkState(up);
        }
    }
}

void
MrcChannel::Transmit(Ptr<MrcNetDevice> src, Ptr<Packet> frame, Time txTime, bool exclusive)
{
    TransmitOn(PeekPointer(m_dir[IndexOf(src)]), frame, txTime, exclusive);
}

MrcChannel::Direction*
MrcChannel::GetDirection(std::size_t from) const
{
    NS_ABORT_MSG_IF(from > 1, "MrcChannel: device index " << from << ": allowed 0, 1");
    return PeekPointer(m_dir[from]);
}

void
MrcChannel::TransmitOn(Direction* sending,
                       const Ptr<Packet>& frame,
                       Time txTime,
                       bool exclusive,
                       uint8_t unwritten)
{
    NS_LOG_FUNCTION(this << sending << frame << txTime << unsigned(unwritten));
    Direction& dir = *sending;
    // the sender's index, read from the channel only on the paths that need it
    auto senderIndex = [this, sending]() -> std::size_t {
        return sending == PeekPointer(m_dir[0]) ? 0 : 1;
    };
    // The receiver gets a packet that no one else holds. Towards another rank and when the
    // link is down now, that is a copy made now unless the sender handed over the only
    // reference; on the wire here, the frame itself, copied at its arrival (or its loss at a
    // link-down) only if another reference is left then (Direction::Notify): a switch that
    // forwards a frame within the event that received it still holds it on its stack now,
    // but not at the arrival.
    if (!dir.open)
    {
        Lose(senderIndex(), exclusive ? frame : frame->Copy(), unwritten);
        return;
    }
    // The receiver's node id, looked up once (a frame then does not visit the peer device
    // and its node, which in a large fabric are rarely in cache).
    if (!dir.contextKnown)
    {
        const Node* node = PeekPointer(GetDevice(1 - senderIndex())->GetNode());
        dir.contextKnown = node != nullptr;
        dir.context = node ? node->GetId() : 0;
    }
    if (dir.toRank)
    {
        NS_ABORT_MSG_IF(unwritten != MRC_UNWRITTEN_NONE,
                        "MrcChannel: a frame with unwritten bytes towards another rank");
        const std::size_t from = senderIndex();
        const uint32_t sender = m_devices[from]->GetNode()->GetId();
        // Towards another rank: the message arrives one Delay (the lookahead, at most) from
        // now; the far rank schedules the frame's arrival then, in the sending node's name
        // (MrcCanonicalScheduler). This rank keeps the frame (without an event) until its
        // arrival time, in case the link goes down before.
        DropArrived(from);
        const Time arrival = Simulator::Now() + txTime + m_delay;
        MrcLinkEpochTag tag;
        tag.epoch = m_downs;
        tag.sendTs = Simulator::Now().GetTimeStep();
        tag.sender = sender;
        tag.seq =
            MrcCanonicalScheduler::IsActive() ? MrcCanonicalScheduler::TakeSequence(sender) : 0;
        tag.arrivalTs = arrival.GetTimeStep();
        Ptr<Packet> copy = exclusive ? frame : frame->Copy();
        Ptr<Packet> travelling = copy->Copy();
        travelling->AddPacketTag(tag);
        // Sent from an event of its own, as the notices are: ns-3's null-message engine
        // sends with each message the promise of nothing before (this rank's next event +
        // lookahead), read at the send, and the device schedules the end of this frame's
        // serialization (before its next frame) only after this call returns.
        const Time rx = Simulator::Now() + m_delay;
        const uint32_t node = dir.context;
        const uint32_t ifIndex = GetDevice(1 - from)->GetIfIndex();
        Simulator::ScheduleNow(
            [travelling, rx, node, ifIndex]() { MrcMpi::Send(travelling, rx, node, ifIndex); });
        dir.wire.push_back(Direction::Frame::Make(copy, arrival.GetTimeStep(), 0, false));
        m_arrival[from].push_back(arrival);
        return;
    }
    if (MrcCanonicalScheduler::IsActive())
    {
        // the arrival counts as scheduled by the sending node, as on another rank
        const uint32_t sender = m_devices[senderIndex()]->GetNode()->GetId();
        MrcCanonicalScheduler::SetNextInsertion(Simulator::Now().GetTimeStep(),
                                                sender,
                                                MrcCanonicalScheduler::TakeSequence(sender));
    }
    const MrcHeapScheduler::RunningEvent& running = MrcHeapScheduler::GetRunningEvent();
    const Time now = running.known ? TimeStep(running.ts) : Simulator::Now();
    const int64_t arrival = (now + txTime + dir.delay).GetTimeStep();
    // Behind another frame (whose delivery is pending), the delivery waits for that one's
    // with a slot: the place it takes in the order now (class text of Direction).
    // (A slotted frame is scheduled when the frame ahead is delivered, which must not be
    // after its own arrival: slots only while the arrival times on the wire never decrease.)
    uint64_t slot = 0;
    if (dir.wire.empty())
    {
        dir.ordered = true;
    }
    else if (arrival < dir.wire.back().arrival)
    {
        dir.ordered = false;
    }
    else if (dir.ordered && dir.contextKnown && MrcHeapScheduler::TakeSlot(slot))
    {
        dir.wire.push_back(Direction::Frame::Make(frame, arrival, slot, unwritten));
        return;
    }
    const uint32_t context = dir.contextKnown ? dir.context : Simulator::GetContext();
    // The simulator takes one reference per pending event and drops it after the run.
    MrcHeapScheduler::HintNextInsert(PeekPointer(frame));
    dir.Ref(); // the simulator's reference, dropped after the delivery ran (MrcScheduleAgain)
    MrcScheduleWithContext(context, txTime + dir.delay, sending);
    dir.wire.push_back(Direction::Frame::Make(frame, arrival, 0, unwritten));
}

void
MrcChannel::DropArrived(std::size_t from)
{
    // A link-down at a frame's arrival time loses it, as in one process (where the
    // failure, scheduled before the frame was sent, runs before its delivery).
    const Time now = Simulator::Now();
    while (!m_arrival[from].empty() && m_arrival[from].front() < now)
    {
        m_arrival[from].pop_front();
        m_dir[from]->wire.pop_front();
    }
}

void
MrcChannel::ReceiveFromRank(std::size_t from, Ptr<Packet> frame)
{
    MrcLinkEpochTag tag;
    const bool tagged = frame->RemovePacketTag(tag);
    NS_ABORT_MSG_IF(!tagged, "MrcChannel: a frame from another rank without its MrcLinkEpochTag");
    // Now is one Delay after the frame started; it arrives after its serialization too.
    if (MrcCanonicalScheduler::IsActive())
    {
        MrcCanonicalScheduler::SetNextInsertion(tag.sendTs, tag.sender, tag.seq);
    }
    const uint32_t epoch = tag.epoch;
    Simulator::ScheduleWithContext(m_devices[1 - from]->GetNode()->GetId(),
                                   TimeStep(tag.arrivalTs) - Simulator::Now(),
                                   [this, from, frame, epoch]() {
                                       if (!m_up || epoch != m_downs)
                                       {
                                           // the link went down while it travelled: the
                                           // sending rank counts the loss
                                           return;
                                       }
                                       m_devices[1 - from]->Receive(frame);
                                   });
}

void
MrcChannel::Direction::Notify()
{
    if (stale > 0)
    {
        --stale;
        return; // lost when the link went down
    }
    // the receiving device's lines load while the frame is taken off the wire
    to->PrefetchForReceive();
    NS_ASSERT(!wire.empty());
    Ptr<Packet> frame = wire.front().packet.Release(); // the wire's reference, handed over
    const uint8_t unwritten = wire.front().Unwritten();
    wire.pop_front();
    if (!wire.empty() && wire.front().Slot() != 0)
    {
        ScheduleAtSlot(0);
    }
    if (frame->GetReferenceCount() != 1)
    {
        frame = frame->Copy(); // still held elsewhere (a trace sink, the sender): see TransmitOn
    }
    to->Receive(frame, unwritten);
}

void
MrcChannel::Direction::ScheduleAtSlot(uint32_t i)
{
    Frame& f = wire[i];
    const MrcHeapScheduler::RunningEvent& running = MrcHeapScheduler::GetRunningEvent();
    const int64_t now = running.known ? running.ts : Simulator::Now().GetTimeStep();
    NS_ASSERT_MSG(f.Slot() != 0 && f.arrival >= now, "MrcChannel: a frame without a slot");
    MrcHeapScheduler::InsertNextAtSlot(f.Slot());
    MrcHeapScheduler::HintNextInsert(f.packet.Get());
    f.word &= ~MRC_UNWRITTEN_WORD_MASK; // scheduled now (the flags kept)
    Ref(); // the simulator's reference, dropped after the delivery ran (MrcScheduleAgain)
    MrcScheduleWithContext(context, TimeStep(f.arrival - now), this);
}

void
MrcChannel::Lose(std::size_t from, Ptr<Packet> frame, uint8_t unwritten)
{
    if (unwritten != MRC_UNWRITTEN_NONE)
    {
        m_devices[from]->WriteUnwritten(frame, unwritten, false); // as it would have been sent
    }
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
