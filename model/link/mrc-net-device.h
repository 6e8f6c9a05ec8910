/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_NET_DEVICE_H
#define MRC_NET_DEVICE_H

#include "mrc-channel.h"
#include "mrc-class-scheduler.h"
#include "mrc-pfc-port.h"
#include "mrc-unwritten.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/mac48-address.h"
#include "ns3/mrc-prefetch.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <ostream>
#include <string>

/**
 * \file
 * \ingroup mrc
 * An Ethernet port with eight priority classes, a scheduler, 802.1Qbb PFC and
 * link state: the device, with its class scheduler (mrc-class-scheduler.h) and PFC
 * port (mrc-pfc-port.h).
 */

namespace ns3
{

class MrcChannel;
class ErrorModel;
class MrcIngressLossModel;
class RateErrorModel;
class Node;

/**
 * \ingroup mrc
 * Why a frame was dropped. Reported by MrcNetDevice's Drop trace; NO_ROUTE is
 * never produced by the device itself, it is there for switches built on it.
 */
enum class MrcDropReason : uint8_t
{
    QUEUE_FULL = 0,  ///< the class queue had no room (device QueueLimit)
    LINK_DOWN = 1,   ///< queued when the link went down, sent while down, or lost on the wire
    ERROR_MODEL = 2, ///< the receive error model corrupted the frame (gray failure)
    NO_ROUTE = 3,    ///< a switch had no route for it (not used by the device)
};

/// Number of MrcDropReason values.
constexpr std::size_t MRC_DROP_REASON_COUNT = 4;

/**
 * \param reason a drop reason
 * \return its name: "queue-full", "link-down", "error-model" or "no-route"
 */
std::string MrcDropReasonName(MrcDropReason reason);

/**
 * \param os the stream
 * \param reason a drop reason
 * \return the stream, after writing MrcDropReasonName(reason)
 */
std::ostream& operator<<(std::ostream& os, MrcDropReason reason);

class MrcNetDevice;

/**
 * \ingroup mrc
 * The first bytes of a received packet (after its Ethernet header), read by the device
 * together with the Ethernet header: the frame's one read per hop. A port owner parses
 * these bytes instead of copying them out of the packet again. They are valid only
 * during the MrcPortOwner::PortReceive call that hands them over.
 */
struct MrcRxHead
{
    const uint8_t* bytes; //!< the packet's first `count` bytes
    uint32_t count;       //!< min(the packet's size, MrcNetDevice::RX_HEAD_BYTES)
    /// Edits of the outer IPv6 header (MRC_IPV6_EDIT_CE: uN shifts of the destination, a CE
    /// mark) that `bytes` has and the packet does not (switches carried them unwritten:
    /// MrcNetDevice::SendToClass). An owner that passes the packet on gives them to
    /// SendToClass again, or writes them (MrcWriteIpv6Edits) before anything else reads the
    /// packet's bytes.
    uint8_t edits{0};
};

/**
 * \ingroup mrc
 * Direct owner of a device's class receive path and dequeue hook (a switch): the
 * device calls these virtual functions instead of going through ns-3 Callbacks,
 * which saves their argument copies on every frame. Set with
 * MrcNetDevice::SetPortOwner; SetClassReceiveCallback and SetDequeueHook take the
 * respective role back.
 */
class MrcPortOwner
{
  public:
    virtual ~MrcPortOwner() = default;
    /**
     * A data frame arrived (as the class receive callback).
     * \param port the port number given to SetPortOwner
     * \param packet the packet without Ethernet header
     * \param etherType its EtherType
     * \param cls its class by the device's map
     * \param head the packet's first bytes as the device read them (parse these rather
     *        than reading the packet again)
     */
    virtual void PortReceive(uint32_t port,
                             const Ptr<Packet>& packet,
                             uint16_t etherType,
                             uint8_t cls,
                             const MrcRxHead& head) = 0;
    /**
     * A frame leaves its class queue for the wire (as the dequeue hook).
     * \param port the port number given to SetPortOwner
     * \param frame the frame (may be changed in place): its Ethernet header is in it
     *        unless `unwritten` says otherwise
     * \param cls its class
     * \param tag the owner's tag given with the frame to SendToClass or
     *        SendToClassReplacing (0 for other frames)
     * \param[in,out] unwritten what the frame does not hold yet (mrc-unwritten.h; see
     *        MrcNetDevice::WriteUnwritten, which an owner calls, and then sets this to
     *        MRC_UNWRITTEN_NONE, before it reads or changes the frame)
     */
    virtual void PortDequeued(uint32_t port,
                              const Ptr<Packet>& frame,
                              uint8_t cls,
                              uint64_t tag,
                              uint8_t& unwritten) = 0;
    /**
     * A queued frame was discarded because the link went down (before the link change
     * callbacks run): class 0 first, head first. The default does nothing.
     * \param port the port number given to SetPortOwner
     * \param frame the frame, Ethernet header included
     * \param cls its class
     * \param tag its owner's tag (see PortDequeued)
     */
    virtual void PortFlushed(uint32_t port, const Ptr<Packet>& frame, uint8_t cls, uint64_t tag);
};

/**
 * \ingroup mrc
 * One end of a full-duplex Ethernet link (MrcChannel) with eight priority
 * classes and IEEE 802.1Qbb priority flow control.
 *
 * Frames wait in one FIFO per class (0..7, 7 highest) with their Ethernet
 * header and without FCS. A scheduler (strict priority or DWRR) picks the next
 * class that is neither empty nor paused by PFC. A frame occupies the wire for
 * (max(size, 60) + WireOverhead) * 8 bits at DataRate; WireOverhead (24 bytes:
 * preamble, SFD, inter-frame gap, FCS) is timed but not carried in the packet.
 * PFC frames bypass the class queues and pauses: they go out right after the
 * frame on the wire.
 *
 * Owners such as switches and NICs use SendToClass (the packet without its
 * Ethernet header, its EtherType and class), SendPfc / SendPause / SendResume,
 * the dequeue hook (called as a frame leaves its class queue for the wire), the
 * class receive callback or the standard receive callbacks, and the queue and
 * counter getters. Send() is the standard NetDevice entry: it classifies IPv6
 * packets by DSCP through the DscpToClass map.
 *
 * The device is made of three objects. It keeps the NetDevice interface, the link
 * state, the transmitter (serialization, the end-of-transmission event), receive
 * and classification, and the traces. It owns an MrcClassScheduler (the class
 * queues and the choice of the next frame; its attributes are forwarded by the
 * device's Scheduler, DwrrWeights, DwrrQuantum and QueueLimit) and an MrcPfcPort
 * (pauses received from the peer, PFC frames waiting to be sent, PFC counters and
 * the PfcTx, PfcRx and PauseState traces, also offered by the device). Both are
 * called directly, without virtual calls, on the frame path; the port tells the
 * device of a pause change, and the device gates the scheduler's class.
 */
class alignas(64) MrcNetDevice : public NetDevice
{
  public:
    static constexpr uint8_t N_CLASSES = 8;             //!< priority classes
    static constexpr uint16_t ETHER_TYPE_IPV6 = 0x86DD; //!< IPv6 EtherType
    static constexpr uint32_t MIN_FRAME_BYTES = 60;     //!< minimum frame without FCS
    static constexpr uint8_t NO_CLASS = 0xff;           //!< "no class is ready"
    /// Bytes after the Ethernet header that Receive reads with it and hands to a port
    /// owner (MrcRxHead): a data packet's headers, as far as a switch or NIC parses them.
    static constexpr uint32_t RX_HEAD_BYTES = 192;

    /**
     * Owner hook called when a frame leaves its class queue for the wire, before
     * its serialization time is computed: the owner may change the frame in place
     * (for example ECN-mark it). The packet starts with the Ethernet header.
     * Arguments: the frame, its class.
     */
    typedef Callback<void, Ptr<Packet>, uint8_t> DequeueHook;

    /**
     * Fast receive path for owners: the device, the packet without its Ethernet
     * header, the EtherType, and the class this device's map gives it. When set,
     * it replaces the receive and promiscuous receive callbacks.
     */
    typedef Callback<void, Ptr<MrcNetDevice>, Ptr<Packet>, uint16_t, uint8_t> ClassReceiveCallback;

    /// Signature of the Enqueue and Dequeue traces: the frame and its class.
    typedef void (*ClassPacketTracedCallback)(Ptr<const Packet> frame, uint8_t cls);
    /// Signature of the Drop trace: the packet and why it was dropped.
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, MrcDropReason reason);
    /// Signature of the PfcTx and PfcRx traces: one enabled class and its quanta.
    typedef void (*PfcTracedCallback)(uint8_t cls, uint16_t quanta);
    /// Signature of the PauseState trace: a class and whether it is now paused.
    typedef void (*PauseStateTracedCallback)(uint8_t cls, bool paused);
    /// Signature of the LinkStateChange trace: the state this device now believes.
    typedef void (*LinkStateTracedCallback)(bool up);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcNetDevice();
    ~MrcNetDevice() override;

    /**
     * Attach the device to a channel (one of its two ends).
     * \param channel the channel
     * \return true
     */
    bool Attach(Ptr<MrcChannel> channel);

    /// \return the attached channel, or null
    Ptr<MrcChannel> GetMrcChannel() const;

    /// \return the device at the other end of the link, or null
    Ptr<MrcNetDevice> GetPeer() const;

    /// \param rate the line rate
    void SetDataRate(DataRate rate);
    /// \return the line rate
    DataRate GetDataRate() const;

    /// \return the class queues and scheduler this device owns
    Ptr<MrcClassScheduler> GetClassScheduler() const;

    /// \return the PFC state of this port
    Ptr<MrcPfcPort> GetPfcPort() const;

    /// \return this device's MAC address
    Mac48Address GetMacAddress() const;

    // ---- owner-side sending ----

    /**
     * Queue a packet on a class without classifying it. The device adds an
     * Ethernet header (source: this device, destination: the peer device's MAC).
     * The packet object itself is changed (header added): keep a Copy() if needed.
     * \param packet the packet without Ethernet header, at most Mtu bytes
     *        (aborts otherwise)
     * \param etherType the EtherType to write
     * \param cls the class, 0..7 (aborts otherwise)
     * \param tag the owner's word for this frame, kept in the frame's queue slot and
     *        handed to MrcPortOwner::PortDequeued (or PortFlushed) when it leaves (59
     *        bits: MrcClassScheduler::Enqueue aborts otherwise)
     * \param edits edits to make in the IPv6 packet's outer header (MRC_IPV6_EDIT_CE: uN
     *        shifts of the destination, a switch's SRv6 rewrite, and a CE mark), 0..15
     *        (aborts otherwise). Carried beside the frame while only frame paths read it
     *        (see WriteUnwritten): the next device applies them to the bytes it hands its
     *        owner (MrcRxHead::edits); a traced device or a link to another rank writes
     *        them now. 0 for every other sender.
     * \return false if the frame was dropped (queue full or link down)
     */
    bool SendToClass(const Ptr<Packet>& packet,
                     uint16_t etherType,
                     uint8_t cls,
                     uint64_t tag = 0,
                     uint8_t edits = 0);

    /**
     * As SendToClass, and first replace the packet's leading bytes: the first
     * `prefixBytes` bytes of the packet are removed and `prefix` takes their place,
     * written with the Ethernet header in one step (a switch's SRv6 destination rewrite
     * costs no extra header operation).
     * \param packet the packet without Ethernet header
     * \param etherType the EtherType to write
     * \param cls the class, 0..7
     * \param prefix the new leading bytes
     * \param prefixBytes their number, 1..MAX_PREFIX_BYTES, at most the packet's size
     * \param tag the owner's word for this frame (see SendToClass)
     * \return false if the frame was dropped (queue full or link down)
     */
    bool SendToClassReplacing(const Ptr<Packet>& packet,
                              uint16_t etherType,
                              uint8_t cls,
                              const uint8_t* prefix,
                              uint32_t prefixBytes,
                              uint64_t tag = 0);

    static constexpr uint32_t MAX_PREFIX_BYTES = 64; //!< SendToClassReplacing's limit

    /**
     * Write the Ethernet header SendToClass would add (destination: the peer's MAC,
     * source: this device's, then the EtherType), for a sender that prepends it with its
     * own headers in one step and then calls SendFramed.
     * \param out MrcRawHeader::ETHERNET_BYTES (14) bytes
     * \param etherType the EtherType to write
     */
    void WriteEthernetHeader(uint8_t* out, uint16_t etherType);

    /**
     * Write what a frame that travels without some of its bytes lacks (mrc-unwritten.h).
     * A frame queued by SendToClass or SendToClassReplacing holds no Ethernet header while
     * only the frame path handles it (a switch then neither removes nor adds 14 bytes per
     * hop); its size still counts the header everywhere (queues, serialization, counters).
     * A switch's edits of the outer IPv6 header, the uN shifts of the destination and a
     * dequeue-time CE mark, travel beside it the same way (SendToClass's edits, and
     * MrcPortOwner::PortDequeued: a switch hop then neither removes nor adds the 40-byte
     * IPv6 header). The device writes them, the bytes SendToClass would have written,
     * wherever something else sees the frame: a trace, a hook, an error model, a drop, a
     * loss on the wire, a link to another rank.
     * \param frame the frame, without its Ethernet header
     * \param unwritten what it lacks (mrc-unwritten.h); MRC_UNWRITTEN_NONE: nothing to do
     * \param received false for a frame this device sends (destination: the peer's MAC,
     *        source: this device's), true for one it received (the other way round)
     */
    void WriteUnwritten(const Ptr<Packet>& frame, uint8_t unwritten, bool received);

    /**
     * Queue a frame that already starts with this device's Ethernet header
     * (WriteEthernetHeader): as SendToClass, without the header operation. The MacTx
     * trace sees the packet without its Ethernet header, as with SendToClass.
     * \param frame the frame, at most Mtu + 14 bytes (aborts otherwise)
     * \param cls the class, 0..7 (aborts otherwise)
     * \return false if the frame was dropped (queue full or link down)
     */
    bool SendFramed(Ptr<Packet> frame, uint8_t cls);

    /**
     * Take the newest frame of a class queue back before it is sent (a switch trimming
     * a queued packet): it leaves the queue without a trace or counter.
     * \param cls the class, 0..7 (aborts otherwise)
     * \return the packet without its Ethernet header, as given to SendToClass (with the
     *         bytes SendToClassReplacing put in), or null if the class queue is empty
     */
    Ptr<Packet> RemoveLastFromClass(uint8_t cls);

    /**
     * \param cls the class, 0..7 (aborts otherwise)
     * \param[out] tag the owner's tag of the newest frame of the class
     * \return false if the class queue is empty
     */
    bool PeekLastTag(uint8_t cls, uint64_t& tag) const;

    /**
     * Send a PFC frame ahead of all queued data (right after the frame on the
     * wire). A class whose bit is set in classVector gets quanta[cls] (0 resumes).
     * Dropped and counted as LINK_DOWN while the link is down.
     * \param classVector the class-enable vector, 0x00..0xff (aborts otherwise)
     * \param quanta the eight quanta fields, class 0 first
     */
    void SendPfc(uint8_t classVector, const std::array<uint16_t, 8>& quanta);

    /**
     * Send a PFC frame pausing one class.
     * \param cls the class, 0..7 (aborts otherwise)
     * \param quanta pause time in units of 512 bit times at the peer's rate
     */
    void SendPause(uint8_t cls, uint16_t quanta);

    /**
     * Send a PFC frame resuming one class (quanta 0).
     * \param cls the class, 0..7 (aborts otherwise)
     */
    void SendResume(uint8_t cls);

    // ---- owner hooks ----

    /// \param hook called for every data frame as it leaves its class queue
    void SetDequeueHook(DequeueHook hook);

    /// \param cb the class receive callback (a null callback switches it off); takes
    ///        the receive role from a port owner
    void SetClassReceiveCallback(ClassReceiveCallback cb);

    /**
     * Hand the class receive path and the dequeue hook to an owner (fast path of
     * SetClassReceiveCallback + SetDequeueHook). The owner must outlive its use
     * (clear it with a null owner or the two setters).
     * \param owner the owner, or null
     * \param port the number passed back to the owner (0..65535; aborts above)
     */
    void SetPortOwner(MrcPortOwner* owner, uint32_t port);

    // ---- classification ----

    /**
     * \param dscp a DSCP value, 0..63 (aborts otherwise)
     * \return its class: DscpToClass, or UnmappedDscpClass if not listed
     */
    uint8_t ClassifyDscp(uint8_t dscp) const;

    /**
     * Classify a packet as Send() does.
     * \param packet the packet without Ethernet header
     * \param etherType its EtherType
     * \return the DSCP's class for IPv6, NonIpClass for other EtherTypes
     */
    uint8_t ClassOf(Ptr<const Packet> packet, uint16_t etherType) const;

    /**
     * Set the DSCP-to-class map, e.g. "46:7,11:7,4:1". Aborts naming the
     * offending entry on a DSCP above 63, a class above 7 or a malformed entry.
     * \param map comma-separated dscp:class pairs (may be empty)
     */
    void SetDscpToClass(const std::string& map);
    /// \return the DSCP-to-class map in the attribute's syntax, ascending DSCP
    std::string GetDscpToClass() const;

    /**
     * Set the DWRR weights, class 0 first, e.g. "1,1,1,1,1,1,1,1". A weight of 0
     * puts the class in strict priority above all weighted classes. Aborts unless
     * there are exactly eight non-negative integers.
     * \param weights the comma-separated weights
     */
    void SetDwrrWeights(const std::string& weights);
    /// \return the DWRR weights in the attribute's syntax
    std::string GetDwrrWeights() const;

    /**
     * \param name "StrictPriority" or "Dwrr" (aborts otherwise)
     */
    void SetScheduler(const std::string& name);
    /// \return "StrictPriority" or "Dwrr"
    std::string GetScheduler() const;

    // ---- queues and state ----

    /**
     * \param cls the class, 0..7
     * \return bytes queued on the class (frames with Ethernet header)
     */
    uint32_t GetQueueBytes(uint8_t cls) const;
    /**
     * \param cls the class, 0..7
     * \return frames queued on the class
     */
    uint32_t GetQueuePackets(uint8_t cls) const;
    /// \return bytes queued on all classes
    uint64_t GetTotalQueueBytes() const;
    /**
     * \param cls the class, 0..7
     * \return true if the peer's PFC currently pauses the class
     */
    bool IsClassPaused(uint8_t cls) const;
    /**
     * \param cls the class, 0..7
     * \return total time the class has been paused, including a pause in progress
     */
    Time GetPausedTime(uint8_t cls) const;

    /**
     * \param frameBytes a frame's size without FCS
     * \return its time on the wire from an idle link, rounded down to the
     *         simulator's resolution
     */
    Time GetSerializationTime(uint32_t frameBytes) const;

    /**
     * GetSerializationTime of a device with the given rate and WireOverhead (for a link
     * this rank does not build, MrcTopology::GetPathRtt).
     * \param rate the data rate
     * \param wireOverhead the WireOverhead attribute's bytes
     * \param frameBytes a frame's size without FCS
     * \return its time on the wire from an idle link
     */
    static Time GetSerializationTime(DataRate rate, uint32_t wireOverhead, uint32_t frameBytes);

    /**
     * \param quanta PFC pause quanta
     * \return quanta * 512 bit times at this device's rate, rounded up to the
     *         simulator's resolution
     */
    Time GetPauseDuration(uint16_t quanta) const;

    // ---- counters ----

    /// \param cls class \return data frames of the class put on the wire
    uint64_t GetTxPackets(uint8_t cls) const;
    /// \param cls class \return bytes of data frames of the class put on the wire
    uint64_t GetTxBytes(uint8_t cls) const;
    /// \param cls class \return data frames of the class received intact
    uint64_t GetRxPackets(uint8_t cls) const;
    /// \param cls class \return bytes of data frames of the class received intact
    uint64_t GetRxBytes(uint8_t cls) const;
    /// \param reason reason \return packets dropped for the reason
    uint64_t GetDropPackets(MrcDropReason reason) const;
    /// \param reason reason \return bytes dropped for the reason
    uint64_t GetDropBytes(MrcDropReason reason) const;
    /// \return PFC frames put on the wire
    uint64_t GetPfcTxFrames() const;
    /// \return PFC frames received intact
    uint64_t GetPfcRxFrames() const;

    // ---- called by MrcChannel ----

    /**
     * A frame's last bit arrived from the channel.
     * \param frame the frame, Ethernet header included
     */
    void Receive(const Ptr<Packet>& frame);

    /**
     * A frame's last bit arrived from the channel.
     * \param frame the frame
     * \param unwritten what the frame does not hold (mrc-unwritten.h; its sender left it
     *        unwritten: see WriteUnwritten)
     */
    void Receive(const Ptr<Packet>& frame, uint8_t unwritten);

    /**
     * Ask for the cache lines Receive reads (the per-frame members and the receive
     * counters) ahead of it: a delivery does so before it takes its frame off the wire.
     * A hint only (MrcPrefetch).
     */
    void PrefetchForReceive() const;

    /**
     * Ask for the cache lines a send reads first (the per-frame members) ahead of it: a
     * switch does so as soon as it knows a packet's egress port. A hint only (MrcPrefetch).
     */
    void PrefetchForSend() const;

    /**
     * The channel's physical state changed; the device reacts after its
     * detection delay. A change that is reverted before it is detected is never
     * seen (frames lost meanwhile are still lost).
     * \param up the new physical state
     */
    void NotifyChannelLinkState(bool up);

    /**
     * A frame this device sent was lost on the wire (link down).
     * \param frame the frame
     */
    void NotifyLostOnWire(Ptr<const Packet> frame);

    // ---- NetDevice ----
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsBridge() const override;
    bool IsPointToPoint() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;

  private:
    /// \param tid the TypeId under construction \return it, with the configuration attributes
    static TypeId AddConfigurationAttributes(TypeId tid);
    /// \param tid the TypeId under construction \return it, with the trace sources
    static TypeId AddTraceSources(TypeId tid);

    /// Add the Ethernet header and queue the frame (common to all send paths).
    bool Enqueue(Ptr<Packet> packet,
                 Mac48Address src,
                 Mac48Address dst,
                 uint16_t type,
                 uint8_t cls);
    /// Queue a frame (Ethernet header added) on a class, or drop it.
    /// \param unwritten what the packet, an IPv6 frame then, does not hold (mrc-unwritten.h)
    bool EnqueueFrame(const Ptr<Packet>& packet,
                      uint8_t cls,
                      uint64_t tag = 0,
                      uint8_t unwritten = MRC_UNWRITTEN_NONE);
    /// \return true if SendToClass may queue a frame without its Ethernet header
    bool CanLeaveHeaderUnwritten() const;
    /// Start the next frame if the wire is free.
    void TryTransmit();
    /// Put a frame on the wire.
    /// \param frame the frame; the caller's reference may be the only one
    /// \param unwritten what it does not hold (mrc-unwritten.h)
    void StartTransmission(const Ptr<Packet>& frame, uint8_t unwritten = MRC_UNWRITTEN_NONE);
    /// The frame on the wire has been serialized (m_txFrame: the frame, if kept).
    void TransmitComplete();
    /**
     * A deferred end of serialization (m_txEndDeferred) is asked for: schedule it at its
     * place, or, if that place is already behind the running event, count the wire free
     * as TransmitComplete would have (nothing waited: nothing else to do).
     * \return true if the wire is still busy
     */
    bool ResolveDeferredTxEnd();
    /// Add the 14-byte Ethernet header to a packet.
    static void AddEthernetHeader(const Ptr<Packet>& packet,
                                  const Mac48Address& src,
                                  const Mac48Address& dst,
                                  uint16_t type);
    /// Fire the per-frame traces of a frame that arrived intact.
    void TraceReceivedFrame(const Ptr<Packet>& frame);
    /**
     * \param type a received frame's EtherType
     * \param ip the first two bytes after its Ethernet header
     * \param haveIp false if the frame has fewer than two bytes there
     * \return its class by this device's map
     */
    uint8_t ClassOfFrame(uint16_t type, const uint8_t* ip, bool haveIp) const;
    /// The PFC port paused or resumed a class: gate the scheduler, restart on resume.
    void PauseChanged(uint8_t cls, bool paused);
    /// The detection delay has passed: adopt the state unless it changed again.
    void DetectLinkState(bool up, uint64_t generation);
    /// Adopt a new link state (flush on down, restart on up, notify the owner).
    void ApplyLinkState(bool up);
    /// The link went down: drop the queued data and PFC frames, end the pauses.
    void FlushOnLinkDown();
    /// Count a drop and fire the Drop trace.
    void CountDrop(Ptr<const Packet> packet, MrcDropReason reason);
    /// Deliver a received non-control packet to the owner.
    void Deliver(Ptr<Packet> packet,
                 const Mac48Address& src,
                 const Mac48Address& dst,
                 uint16_t type,
                 uint8_t cls);
    /// A class for each DSCP (NO_CLASS: unmapped).
    using DscpTable = std::array<uint8_t, 64>;
    /**
     * The one shared copy of a table: devices that map DSCPs alike (every device of a
     * fabric, as a rule) read the same 64 bytes, which stay in cache, instead of their
     * own. Copies live as long as the process (one per distinct table).
     * \param table the table
     * \return its shared copy
     */
    static const DscpTable* InternDscpTable(const DscpTable& table);
    /// \return the number of simulator time steps in one second
    static uint64_t StepsPerSecond();
    /// Set the class of non-IP frames (attribute setter, aborts on >= 8).
    void SetNonIpClass(uint8_t cls);
    /// \return the class of non-IP frames
    uint8_t GetNonIpClass() const;
    /// Set the class of unmapped DSCPs (attribute setter, aborts on >= 8).
    void SetUnmappedDscpClass(uint8_t cls);
    /// \return the class of unmapped DSCPs
    uint8_t GetUnmappedDscpClass() const;
    /// Set the per-class queue limit in bytes (forwarded to the scheduler).
    void SetQueueLimit(uint32_t bytes);
    /// \return the per-class queue limit in bytes
    uint32_t GetQueueLimit() const;
    /// Set the DWRR quantum in bytes (forwarded to the scheduler).
    void SetDwrrQuantum(uint32_t bytes);
    /// \return the DWRR quantum in bytes
    uint32_t GetDwrrQuantum() const;
    /// Set the ReceiveErrorModel attribute. \param model the model, or null
    void SetReceiveErrorModel(Ptr<ErrorModel> model);
    /// \return true if the receive error model must see every byte of a frame, its
    ///         Ethernet header included (all but the two models IsReceiveCorrupt draws
    ///         for without them)
    bool ReceiveErrorModelReadsBytes() const;
    /**
     * The receive error model's decision. A frame whose Ethernet header is not written
     * (mrc-unwritten.h) is an IPv6 frame; it reaches here only when
     * ReceiveErrorModelReadsBytes is false: an MrcIngressLossModel then draws knowing that
     * the frame is not MAC Control, a RateErrorModel in packet units draws as always (it
     * reads neither the bytes nor the size).
     * \param frame the received frame \param unwritten what its bytes lack
     * \return true if the frame is corrupted (dropped)
     */
    bool IsReceiveCorrupt(const Ptr<Packet>& frame, uint8_t unwritten) const;
    /// \return the ReceiveErrorModel attribute
    Ptr<ErrorModel> GetReceiveErrorModel() const;
    /// Add a pending receive count (m_rxPending) to m_rx and empty it.
    /// \param slot 0 or 1 \param cls the class it is to count from now on
    void FlushReceived(uint32_t slot, uint8_t cls);
    /// \param cls a class \return what m_rxPending holds of it: its frames in the high 32
    ///         bits, their bytes in the low 32 bits
    uint64_t PendingReceived(uint8_t cls) const;
    /// Fill m_ethMacs from the peer's and this device's address.
    void RefreshEthMacs();
    /// This device's address or attachment changed: drop its and its peer's MAC cache.
    void InvalidateEthMacs();

    // The members touched by every frame come first and together, so that a hop costs a
    // few cache lines of this object (in a large fabric most devices are cold in cache);
    // the scheduler's per-frame state sits at the start of its own object. The object
    // starts on a cache line (alignas(64)), and the members a received frame reads
    // (m_owner to m_hasReceiveErrorModel) fill the rest of the first line after Object's
    // own members (32 bytes in ns-3.37); the send path's members follow on the next two.

    // Frames received and not yet added to m_rx, for up to two classes (a port that takes
    // data and acknowledgements alternately keeps both here): per slot, the bytes in bits
    // 0-22, the frames in bits 23-28 (at most RX_PENDING_MAX_FRAMES) and the class in bits
    // 29-31. Slot 0 holds the class of the latest frame.
    static constexpr uint32_t RX_PENDING_BYTES = (1u << 23) - 1; //!< bytes field
    static constexpr uint32_t RX_PENDING_FRAMES_SHIFT = 23;      //!< frames field
    static constexpr uint32_t RX_PENDING_FRAME = 1u << 23;       //!< one frame
    static constexpr uint32_t RX_PENDING_MAX_FRAMES = 63;        //!< frames field's largest
    static constexpr uint32_t RX_PENDING_CLASS_SHIFT = 29;       //!< class field

    // hot state: every frame
    MrcPortOwner* m_owner;                         //!< fast-path owner, or null
    const DscpTable* m_dscpClass;                  //!< class per DSCP (NO_CLASS: unmapped), shared
    uint32_t m_rxPending[2]{};                     //!< pending receive counts (see above)
    uint16_t m_ownerPort;                          //!< port number for the owner
    bool m_ownerRx;                                //!< owner has the receive role
    uint8_t m_unmappedDscpClass;                   //!< class of unmapped DSCPs
    uint8_t m_nonIpClass;                          //!< class of non-IPv6 frames
    bool m_frameTraces{false};                     //!< a per-frame trace source was ever connected
    bool m_hasReceiveErrorModel{false};            //!< m_receiveErrorModel is set
    bool m_ownerDequeue;                           //!< owner has the dequeue role
    bool m_txBusy;                                 //!< a frame is being serialized
    bool m_linkUp;                                 //!< link state as this device knows it
    bool m_pfcPending;                             //!< m_pfc has frames for the wire (its copy)
    bool m_ethMacsValid{false};                    //!< m_ethMacs is up to date
    bool m_txEndDeferred{false};                   //!< the serialization's end is not scheduled
    uint16_t m_mtu;                                //!< largest packet without Ethernet header
    uint8_t m_ethMacs[12];                         //!< destination (peer) and source MAC, as sent
    uint32_t m_wireOverhead;                       //!< timed bytes not in the packet
    uint64_t m_bps;                                //!< line rate in bit/s
    Time m_second{Time::FromInteger(1, Time::S)};  //!< one second (ns-3 converts it with the
                                                   //!< resolution, so no per-frame conversion)
    uint64_t m_txCarry;                            //!< sub-step remainder of back-to-back frames
    Time m_lastTxEnd;                              //!< end of the latest serialization
    uint64_t m_txEndSlot{0};                       //!< its place in the order, if deferred
    uint32_t m_txEndContext{0};                    //!< its context, if deferred
    bool m_lazyTxEnd;                              //!< LazyTxEnd attribute
    Ptr<MrcClassScheduler> m_scheduler;            //!< class queues and scheduler
    Ptr<MrcChannel> m_channel;                     //!< attached channel
    MrcChannel::Direction* m_txDirection{nullptr}; //!< this device's direction of m_channel
    Ptr<Packet> m_txFrame;                         //!< the frame being serialized, if kept
    Ptr<EventImpl> m_txCompleteEvent;              //!< reusable end-of-serialization event
    DequeueHook m_dequeueHook;                     //!< dequeue hook
    ClassReceiveCallback m_classRxCallback;        //!< fast receive path

    // trace sources checked by every frame
    TracedCallback<Ptr<const Packet>, uint8_t> m_enqueueTrace; //!< Enqueue
    TracedCallback<Ptr<const Packet>, uint8_t> m_dequeueTrace; //!< Dequeue
    TracedCallback<Ptr<const Packet>> m_macTxTrace;            //!< MacTx
    TracedCallback<Ptr<const Packet>> m_macRxTrace;            //!< MacRx
    TracedCallback<Ptr<const Packet>> m_phyTxBeginTrace;       //!< PhyTxBegin
    TracedCallback<Ptr<const Packet>> m_phyTxEndTrace;         //!< PhyTxEnd
    TracedCallback<Ptr<const Packet>> m_phyRxEndTrace;         //!< PhyRxEnd
    TracedCallback<Ptr<const Packet>> m_snifferTrace;          //!< Sniffer
    TracedCallback<Ptr<const Packet>> m_promiscSnifferTrace;   //!< PromiscSniffer

    /// Receive counters of one class.
    struct ClassRx
    {
        uint64_t packets{0}; //!< frames received in this class
        uint64_t bytes{0};   //!< their bytes
    };

    std::array<ClassRx, 8> m_rx;         //!< receive counters per class, less the pending ones
    Ptr<ErrorModel> m_receiveErrorModel; //!< gray failure on receive
    /// m_receiveErrorModel if it is exactly an MrcIngressLossModel, else null
    MrcIngressLossModel* m_ingressLoss{nullptr};
    /// m_receiveErrorModel if it is exactly a RateErrorModel, else null
    RateErrorModel* m_rateLoss{nullptr};

    Ptr<MrcPfcPort> m_pfc; //!< PFC state

    // configuration
    Ptr<Node> m_node;           //!< owning node
    Mac48Address m_address;     //!< MAC address
    uint8_t m_macBytes[6];      //!< m_address as bytes
    uint32_t m_ifIndex;         //!< interface index
    DataRate m_rate;            //!< line rate
    Time m_linkDownDetectDelay; //!< delay to notice a down link
    Time m_linkUpDetectDelay;   //!< delay to notice an up link

    // state
    uint64_t m_detectGeneration; //!< channel state changes seen

    // counters
    std::array<uint64_t, MRC_DROP_REASON_COUNT> m_dropPackets; //!< per reason
    std::array<uint64_t, MRC_DROP_REASON_COUNT> m_dropBytes;   //!< per reason

    // other callbacks
    NetDevice::ReceiveCallback m_rxCallback;             //!< standard receive
    NetDevice::PromiscReceiveCallback m_promiscCallback; //!< promiscuous receive
    TracedCallback<> m_linkChangeCallbacks;              //!< link-change callbacks

    // other traces
    TracedCallback<Ptr<const Packet>, MrcDropReason> m_dropTrace; //!< Drop
    TracedCallback<bool> m_linkStateTrace;                        //!< LinkStateChange
    TracedCallback<Ptr<const Packet>> m_macTxDropTrace;           //!< MacTxDrop
    TracedCallback<Ptr<const Packet>> m_phyRxDropTrace;           //!< PhyRxDrop
};

inline void
MrcNetDevice::PrefetchForSend() const
{
    // the per-frame members: from m_owner up to the trace sources
    const char* first = reinterpret_cast<const char*>(&m_owner);
    MrcPrefetch(first, reinterpret_cast<const char*>(&m_enqueueTrace) - first);
}

inline void
MrcNetDevice::PrefetchForReceive() const
{
    // the members a received frame reads: m_owner up to the send path's (one line)
    const char* first = reinterpret_cast<const char*>(&m_owner);
    MrcPrefetch(first, reinterpret_cast<const char*>(&m_ownerDequeue) - first);
}

} // namespace ns3

#endif /* MRC_NET_DEVICE_H */
