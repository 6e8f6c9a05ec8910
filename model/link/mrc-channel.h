/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CHANNEL_H
#define MRC_CHANNEL_H

#include "mrc-remote-port.h"
#include "mrc-ring.h"
#include "mrc-unwritten.h"

#include "ns3/channel.h"
#include "ns3/event-impl.h"
#include "ns3/mac48-address.h"
#include "ns3/mrc-owned-ptr.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

/**
 * \file
 * \ingroup mrc
 * A full-duplex point-to-point Ethernet link with a shared up/down state.
 */

namespace ns3
{

class MrcNetDevice;
class MrcRemotePort;
class MrcChannel;

/**
 * \ingroup mrc
 * A full-duplex point-to-point link between two MrcNetDevices.
 *
 * Each direction carries one frame after another: a frame handed over at the
 * start of its transmission arrives at the peer after its serialization time
 * plus the propagation Delay. Both directions share one link state
 * (SetLinkUp). When the link goes down, every frame on the wire in either
 * direction is lost, and so is every frame whose transmission starts while it
 * is down; each loss is counted here and reported to the sending device, which
 * counts it as a link-down drop. Each device learns of a state change after its
 * own detection delay (MrcNetDevice::LinkDownDetectDelay / LinkUpDetectDelay).
 *
 * In a distributed run (MrcMpi) the two ends may belong to different ranks. Every rank
 * then holds the channel and both devices, but simulates only its own end: a frame
 * towards the other rank leaves as an MPI message at the start of its transmission and
 * arrives at the far device at the same time as in one process (its serialization time
 * plus Delay later; Delay is the lookahead ns-3's engine reads). Link state changes are
 * applied on both ranks at the same simulated time: the sending rank counts the frames
 * a link-down loses exactly as in one process, and the receiving rank discards a frame
 * whose link went down (at or after its start) while it travelled, which it tells from
 * the link's down count carried with the frame (MrcLinkEpochTag).
 */
class MrcChannel : public Channel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcChannel();
    ~MrcChannel() override;

    /**
     * Attach a device; a channel takes exactly two. Called by
     * MrcNetDevice::Attach.
     * \param device the device
     */
    void Attach(Ptr<MrcNetDevice> device);

    /**
     * Attach the far end of a link whose other device lives on another rank (a lean
     * distributed build): the end that names that device's node, interface index and MAC
     * address. Takes the next index (A first, then B), as Attach. Called by
     * MrcRemotePort::Attach.
     * \param end the far end
     */
    void AttachRemote(Ptr<MrcRemotePort> end);

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

    /**
     * \param i 0 or 1
     * \return the i-th attached device (null for a far end on another rank,
     *         AttachRemote)
     */
    Ptr<MrcNetDevice> GetMrcDevice(std::size_t i) const;

    /**
     * \param i 0 or 1
     * \return the far end attached at i (AttachRemote), or null
     */
    Ptr<MrcRemotePort> GetRemotePort(std::size_t i) const;

    /**
     * \param device one end of the link
     * \return the other end (null while only one device is attached, or if the other end
     *         is a far end on another rank)
     */
    Ptr<MrcNetDevice> GetPeer(Ptr<const MrcNetDevice> device) const;

    /**
     * \param device one end of the link
     * \param mac set to the other end's MAC address (device or far end)
     * \return false while only one end is attached
     */
    bool GetPeerMac(Ptr<const MrcNetDevice> device, uint8_t mac[6]) const;

    /// \param delay the one-way propagation delay
    void SetDelay(Time delay);
    /// \return the one-way propagation delay
    Time GetDelay() const;

    /**
     * Change the physical state of the link (both directions), at any time.
     * Going down loses every frame on the wire. Each attached device is told and
     * reacts after its own detection delay. Setting the current state again does
     * nothing.
     * \param up the new state
     */
    void SetLinkUp(bool up);

    /// \return the physical state of the link
    bool IsLinkUp() const;

    /**
     * Put a frame on the wire. Called by the sending device at the start of the
     * frame's transmission.
     * \param src the sending device
     * \param frame the frame (Ethernet header included, no FCS)
     * \param txTime the frame's serialization time
     * \param exclusive true if the caller holds the only reference to the frame
     *        and gives it up. The peer receives a packet that nobody else holds:
     *        this packet object if no other reference is left at the frame's
     *        arrival or its loss at a link-down (or, sent on a link that is down or
     *        towards another rank, if `exclusive`), else a copy made then (nobody
     *        else can tell the difference)
     */
    void Transmit(Ptr<MrcNetDevice> src, Ptr<Packet> frame, Time txTime, bool exclusive = false);

    /// One direction of the link (opaque outside the channel).
    class Direction;

    /**
     * \param from index (0 or 1) of a sending device
     * \return its direction of the link, for TransmitOn (valid while the channel lives)
     */
    Direction* GetDirection(std::size_t from) const;

    /**
     * Transmit for a device that kept its direction (GetDirection): the same as
     * Transmit(src, ...) without the search for the sender and without reading the
     * channel object itself (the attached device's path for every frame).
     * \param dir the sending device's direction
     * \param frame the frame (Ethernet header included, no FCS)
     * \param txTime the frame's serialization time
     * \param exclusive true if the caller holds the only reference to the frame
     * \param unwritten what the frame does not hold yet (mrc-unwritten.h; the receiving
     *        device gets it with the frame)
     */
    void TransmitOn(Direction* dir,
                    const Ptr<Packet>& frame,
                    Time txTime,
                    bool exclusive,
                    uint8_t unwritten = MRC_UNWRITTEN_NONE);

    /// \return the number of frames lost on the wire (both directions)
    uint64_t GetLostPackets() const;
    /// \return the bytes of frames lost on the wire (both directions)
    uint64_t GetLostBytes() const;
    /**
     * \param from index (0 or 1) of the sending device
     * \return the number of frames sent by that device and lost on the wire
     */
    uint64_t GetLostPackets(std::size_t from) const;
    /**
     * \param from index (0 or 1) of the sending device
     * \return the bytes of frames sent by that device and lost on the wire
     */
    uint64_t GetLostBytes(std::size_t from) const;

    /// Signature of the LinkStateChange trace: the new physical state.
    typedef void (*LinkStateTracedCallback)(bool up);

  protected:
    void DoDispose() override;

  private:
    /// Count a lost frame and tell its sender.
    /// \param from the sender's index
    /// \param frame the frame (no one else holds it)
    /// \param unwritten what it does not hold yet (mrc-unwritten.h; the sender writes it)
    void Lose(std::size_t from, Ptr<Packet> frame, uint8_t unwritten = MRC_UNWRITTEN_NONE);

    /// Find whether each direction leads to another rank; make the local end of a
    /// cross-rank link the arrival point of the far rank's frames (both devices attached).
    void SetUpRanks();

    /**
     * A frame from the device `from` on another rank arrives at the local end.
     * \param from index of the sending device
     * \param frame the frame, with its MrcLinkEpochTag
     */
    void ReceiveFromRank(std::size_t from, Ptr<Packet> frame);

    /// Forget the frames towards another rank that have arrived by now (their
    /// arrival time has passed): only the ones still travelling can be lost.
    void DropArrived(std::size_t from);

    /// Set each direction's receiver, open flag and delay from the channel's state.
    void RefreshDirections();

    /// \return the index (0 or 1) of an attached device
    std::size_t IndexOf(Ptr<const MrcNetDevice> device) const;

    Ptr<Direction> m_dir[2];        //!< the two directions, by sender index
    Ptr<MrcNetDevice> m_devices[2]; //!< the two ends (null: a far end on another rank)
    Ptr<MrcRemotePort> m_remote[2]; //!< far ends on another rank (AttachRemote)
    std::size_t m_nDevices;         //!< number attached so far
    Time m_delay;                   //!< propagation delay
    bool m_up;                      //!< physical link state
    uint64_t m_lostPackets[2];      //!< frames lost, by sender index
    uint64_t m_lostBytes[2];        //!< bytes lost, by sender index
    uint32_t m_downs;               //!< times the link went down (the frames' epoch)
    MrcRing<Time> m_arrival[2];     //!< towards another rank: arrival time of each
                                    //!< frame on the wire (no delivery event is scheduled)

    TracedCallback<bool> m_linkStateTrace;         //!< physical state changes
    TracedCallback<Ptr<const Packet>> m_lostTrace; //!< frames lost on the wire
};

/**
 * \ingroup mrc
 * One direction of the link (the frames sent by one device): everything a frame
 * touches when it is sent and when it arrives, in one cache line, and itself the
 * reusable event that delivers the oldest frame on the wire (MrcScheduleAgain). With
 * hundreds of thousands of links a hop's channel is rarely in cache: one line instead
 * of the channel's four and an event object.
 *
 * One pending delivery per direction, not one per frame. The oldest frame on the wire
 * always has its delivery scheduled. A frame sent behind it takes a slot of the
 * MrcHeapScheduler instead (the place its delivery would have had in the order of
 * same-time events, had it been scheduled at the send) and is scheduled at that slot
 * when the frame ahead of it is delivered: the events run in exactly the order of one
 * delivery per frame, while the event queue holds one entry per busy direction instead
 * of one per frame in flight (a third as many in perm128-mrc). Without an
 * MrcHeapScheduler, when no slot is left, or behind a frame that arrives later (a Delay
 * made shorter while frames travel: until the wire is empty again), a frame's delivery is
 * scheduled at its send (slot 0). Each delivery gives the wire's oldest frame to the
 * receiver, as before.
 */
class alignas(64) MrcChannel::Direction : public EventImpl
{
  public:
    /// A frame on the wire.
    struct Frame
    {
        MrcOwnedPtr<Packet> packet; //!< the frame (one reference, moved with the entry)
        int64_t arrival;            //!< its arrival time (time steps)
        /// bits 0-58: its delivery's slot while not scheduled yet (0: scheduled); bits 59-63:
        /// what it does not hold yet (mrc-unwritten.h, MrcNetDevice::WriteUnwritten)
        uint64_t word;

        /// \return its delivery's slot, or 0 if its delivery is scheduled
        uint64_t Slot() const
        {
            return word & MRC_UNWRITTEN_WORD_MASK;
        }

        /// \return what it does not hold yet (mrc-unwritten.h)
        uint8_t Unwritten() const
        {
            return static_cast<uint8_t>(word >> MRC_UNWRITTEN_SHIFT);
        }

        /**
         * \param packet the frame
         * \param arrival its arrival time (time steps)
         * \param slot its delivery's slot (0: scheduled)
         * \param unwritten what it does not hold yet (mrc-unwritten.h)
         * \return the entry
         */
        static Frame Make(const Ptr<Packet>& packet,
                          int64_t arrival,
                          uint64_t slot,
                          uint8_t unwritten)
        {
            return Frame{MrcOwnedPtr<Packet>(packet),
                         arrival,
                         slot | (uint64_t{unwritten} << MRC_UNWRITTEN_SHIFT)};
        }
    };

    Direction()
        : contextKnown(false),
          open(false),
          toRank(false),
          ordered(true)
    {
    }

    // (the flags first: they fill the event's tail padding, and the whole is 64 bytes)
    bool contextKnown : 1;     //!< context holds the receiver's node id
    bool open : 1;             //!< both ends attached and the link up
    bool toRank : 1;           //!< frames go to another rank (no delivery event)
    bool ordered : 1;          //!< the wire's arrival times never decrease (slots allowed)
    MrcNetDevice* to{nullptr}; //!< the receiving device (null: a far end, or none yet)
    MrcRing<Frame> wire;       //!< frames on the wire, oldest first
    Time delay;                //!< the channel's Delay (a copy)
    uint32_t stale{0};         //!< pending deliveries of frames lost at a link-down
    uint32_t context{0};       //!< the receiver's node id, if contextKnown

    /// Schedule the delivery of the frame at wire position i, which has a slot.
    /// \param i its position (0: the oldest)
    void ScheduleAtSlot(uint32_t i);

  protected:
    /// Deliver the oldest frame, unless the event belongs to a frame lost when the
    /// link went down (stale); then schedule the next frame's delivery if it has a slot.
    void Notify() override;
};

} // namespace ns3

#endif /* MRC_CHANNEL_H */
