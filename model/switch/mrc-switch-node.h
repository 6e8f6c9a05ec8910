/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SWITCH_NODE_H
#define MRC_SWITCH_NODE_H

#include "mrc-ecn-marker.h"
#include "mrc-forwarding.h"
#include "mrc-shared-buffer-mmu.h"
#include "mrc-trimmer.h"

#include "ns3/event-id.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-packet-info.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * A shared-buffer Ethernet switch built from MrcNetDevice ports, a forwarding
 * strategy, an MMU with PFC, per-port ECN markers and a trimmer.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * Why the switch dropped a packet (switch-level counters and Drop trace).
 */
enum class MrcSwitchDropReason : uint8_t
{
    NO_ROUTE = 0,          ///< the forwarding strategy had no route
    PARSE_ERROR = 1,       ///< not IPv6, or shorter than its headers
    MMU_SHARED_FULL = 2,   ///< MMU: lossy packet, shared pool full
    MMU_HEADROOM_FULL = 3, ///< MMU: lossless packet, headroom full
    MMU_EGRESS_LIMIT = 4,  ///< MMU: lossy packet, egress dynamic threshold
    HEADER_QUEUE_FULL = 5, ///< trimmed header refused by the bounded header queue
    EGRESS_QUEUE_FULL = 6, ///< the egress device's class queue was full
    LINK_DOWN = 7,         ///< egress link down: refused, or flushed from the queue
};

/// Number of MrcSwitchDropReason values.
constexpr std::size_t MRC_SWITCH_DROP_REASON_COUNT = 8;

/**
 * \param reason a switch drop reason
 * \return its name: "no-route", "parse-error", "mmu-shared-full", "mmu-headroom-full",
 *         "mmu-egress-limit", "header-queue-full", "egress-queue-full" or "link-down"
 */
std::string MrcSwitchDropReasonName(MrcSwitchDropReason reason);

/**
 * \ingroup mrc
 * An Ethernet switch whose ports are MrcNetDevices.
 *
 * Per packet (parsed once): class receive callback of the ingress port ->
 * MrcParsePacket -> forwarding Route (NO_ROUTE: drop) -> MrcWriteDestination if the
 * strategy rewrote the destination -> trimming decision on the egress queue -> MMU
 * Admit (drop with reason) -> PFC PAUSE check on the ingress queue -> ECN at enqueue
 * (if MarkAt is Enqueue) -> SendToClass on the egress device.
 *
 * Egress accounting keeps, per (egress port, class), a FIFO of small records (ingress
 * port and class, bytes, ECN capability) in step with the device's FIFO class queue:
 * the device's dequeue hook pops one, releases its bytes in the MMU, ECN-marks the
 * frame in place when MarkAt is Dequeue, and checks PFC RESUME. When an egress link
 * goes down, the device flushes its class queues and then calls the link change
 * callback, where the switch releases every record of the port (counted LINK_DOWN).
 *
 * Ports are known once configuration is over: FinishSetup() (called at the first
 * packet at the latest) sizes the MMU and sets each port's PFC headroom. Ports cannot
 * be added afterwards.
 */
class MrcSwitchNode : public Node, public MrcPortOwner
{
  public:
    /// PFC pause quanta the switch sends (the largest the frame can carry).
    static constexpr uint16_t PAUSE_QUANTA = 0xffff;

    /**
     * Signature of the Drop trace.
     * \param packet the packet (starting at its outer IPv6 header)
     * \param inPort ingress port
     * \param reason why it was dropped
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet,
                                       uint32_t inPort,
                                       MrcSwitchDropReason reason);
    /**
     * Signature of the Trim trace.
     * \param original the packet before trimming
     * \param trimmed the trimmed packet
     * \param outPort egress port
     */
    typedef void (*TrimTracedCallback)(Ptr<const Packet> original,
                                       Ptr<const Packet> trimmed,
                                       uint32_t outPort);
    /**
     * Signature of the EcnMark trace.
     * \param packet the marked packet (a frame with Ethernet header when marked at dequeue)
     * \param outPort egress port
     */
    typedef void (*MarkTracedCallback)(Ptr<const Packet> packet, uint32_t outPort);
    /**
     * Signature of the Forward trace (fired just before the packet is handed to the
     * egress device).
     * \param packet the packet as it will be sent (starting at its outer IPv6 header)
     * \param inPort ingress port
     * \param outPort egress port
     * \param cls egress class
     */
    typedef void (*ForwardTracedCallback)(Ptr<const Packet> packet,
                                          uint32_t inPort,
                                          uint32_t outPort,
                                          uint8_t cls);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcSwitchNode();
    ~MrcSwitchNode() override;

    /**
     * The system id (MPI rank, ns-3's Node::GetSystemId) of the switches made while an
     * object of this class lives. ns-3 fixes a node's system id when the node is
     * constructed, and an ObjectFactory (MrcSwitchHelper's) cannot pass it: the
     * constructor takes it from here. Scopes nest; outside any, switches get 0.
     */
    class SystemIdScope
    {
      public:
        /// \param systemId the system id of the switches made in this scope
        explicit SystemIdScope(uint32_t systemId);
        ~SystemIdScope();
        SystemIdScope(const SystemIdScope&) = delete;
        SystemIdScope& operator=(const SystemIdScope&) = delete;

      private:
        uint32_t m_saved; //!< the enclosing scope's system id
    };

    /**
     * Make a device a port of this switch (adding it to the node if it is not yet).
     * Takes over the device's class receive callback and dequeue hook. Aborts after
     * FinishSetup.
     * \param dev the device
     * \param facesHost true if the link leads to a host NIC (last hop)
     * \return the port index (0, 1, ... in the order of the calls)
     */
    uint32_t AddPort(Ptr<MrcNetDevice> dev, bool facesHost);

    /**
     * End of configuration: size the MMU for the ports (ConfigurePorts) and set each
     * port's headroom (AutoHeadroom). Idempotent; called at the first packet at the
     * latest.
     */
    void FinishSetup();

    /// \return the number of ports
    uint32_t GetNPorts() const;
    /// \param port port index \return its device
    Ptr<MrcNetDevice> GetPort(uint32_t port) const;
    /// \param port port index \return true if it faces a host
    bool IsHostFacing(uint32_t port) const;
    /// \param port port index \return bytes queued on its egress (all classes)
    uint64_t GetQueueBytes(uint32_t port) const;
    /**
     * \param dev a device
     * \return its port index, or -1 if it is not a port of this switch
     */
    int32_t GetPortIndex(Ptr<const NetDevice> dev) const;

    /// \return the forwarding strategy (created from the Forwarding TypeId if unset)
    Ptr<MrcForwarding> GetForwarding();
    /**
     * Replace the forwarding strategy (before the first packet).
     * \param fwd the strategy
     */
    void SetForwarding(Ptr<MrcForwarding> fwd);
    /// \return the shared-buffer MMU
    Ptr<MrcSharedBufferMmu> GetMmu() const;
    /// \param mmu replace the MMU (before FinishSetup)
    void SetMmu(Ptr<MrcSharedBufferMmu> mmu);
    /// \return the trimmer
    Ptr<MrcTrimmer> GetTrimmer() const;
    /// \param trimmer replace the trimmer
    void SetTrimmer(Ptr<MrcTrimmer> trimmer);
    /**
     * \param port port index
     * \return the ECN marker of the egress port
     */
    Ptr<MrcEcnMarker> GetEcnMarker(uint32_t port) const;
    /**
     * Factory for the per-port ECN markers of ports added afterwards (its ControlClass
     * and NoEcnToHost are overridden by the switch's attributes).
     * \param factory an ObjectFactory of ns3::MrcEcnMarker
     */
    void SetEcnMarkerFactory(const ObjectFactory& factory);
    /// \return the control class (ControlClass attribute)
    uint8_t GetControlClass() const;

    // ---- counters ----

    /// \return packets received (all ports)
    uint64_t GetRxPackets() const;
    /// \param port port \return packets received on the port
    uint64_t GetRxPackets(uint32_t port) const;
    /// \return packets sent (left an egress queue for the wire, all ports)
    uint64_t GetTxPackets() const;
    /// \param port port \return packets sent on the port
    uint64_t GetTxPackets(uint32_t port) const;
    /// \param reason reason \return packets dropped for it (all ports)
    uint64_t GetDropPackets(MrcSwitchDropReason reason) const;
    /// \param reason reason \return bytes (without Ethernet header) dropped for it
    uint64_t GetDropBytes(MrcSwitchDropReason reason) const;
    /// \param port port \param reason reason \return packets dropped, counted on the
    /// egress port when one was chosen, else on the ingress port
    uint64_t GetDropPackets(uint32_t port, MrcSwitchDropReason reason) const;
    /// \return packets dropped for any reason
    uint64_t GetTotalDropPackets() const;
    /// \return packets trimmed (all egress ports)
    uint64_t GetTrimmedPackets() const;
    /// \param port egress port \return packets trimmed on it
    uint64_t GetTrimmedPackets(uint32_t port) const;
    /// \return packets ECN-marked by the switch
    uint64_t GetMarkedPackets() const;
    /// \param port egress port \return packets marked on it
    uint64_t GetMarkedPackets(uint32_t port) const;
    /// \return PFC PAUSE frames sent (refreshes included, RESUMEs not)
    uint64_t GetPausesSent() const;
    /// \param port ingress port \return PAUSE frames sent on it
    uint64_t GetPausesSent(uint32_t port) const;
    /// \return PFC RESUME frames sent
    uint64_t GetResumesSent() const;

  protected:
    void DoDispose() override;
    void NotifyConstructionCompleted() override;

  private:
    /**
     * One admitted packet waiting in an egress class queue. It travels as the frame's
     * tag in the egress device's queue slot (Pack, MrcNetDevice::SendToClass), so that
     * the switch keeps no queue of its own beside the device's.
     */
    struct Record
    {
        uint32_t inPort; //!< ingress port (below 2^24: Pack checks)
        uint32_t bytes;  //!< bytes given to Admit (below 2^24: Pack checks)
        uint8_t inPrio;  //!< ingress class
        bool ecnCapable; //!< may be marked at dequeue
        bool trimmable;  //!< a whole data packet the trimmer may trim (TrimVictim)

        /// \return the record as a queue slot's tag
        uint64_t Pack() const;
        /// \param tag a tag made by Pack \return the record
        static Record Unpack(uint64_t tag);
    };

    /// Per-port state and counters a frame touches, on one cache line of its own.
    struct alignas(64) Port
    {
        Ptr<MrcNetDevice> dev;    //!< the device
        Ptr<MrcEcnMarker> marker; //!< egress ECN marker
        bool facesHost{false};    //!< last hop
        uint64_t txPackets{0};    //!< sent
        uint64_t trimmed{0};      //!< trimmed (egress)
        uint64_t marked{0};       //!< ECN-marked (egress)
    };

    /// A port's state for drops and PFC, which frames rarely touch (kept apart from Port).
    struct PortCold
    {
        std::unique_ptr<std::array<EventId, MrcNetDevice::N_CLASSES>> refresh; //!< PAUSE
        //!< refresh per class; allocated at the port's first PAUSE (most ports never send one)
        std::array<uint64_t, MRC_SWITCH_DROP_REASON_COUNT> drops{}; //!< drops by reason
        uint64_t pauses{0};                                         //!< PAUSE frames sent
        uint64_t resumes{0};                                        //!< RESUME frames sent
    };

    void PortReceive(uint32_t inPort,
                     const Ptr<Packet>& p,
                     uint16_t etherType,
                     uint8_t inPrio,
                     const MrcRxHead& head) override;
    void PortDequeued(uint32_t port,
                      const Ptr<Packet>& frame,
                      uint8_t cls,
                      uint64_t tag,
                      uint8_t& unwritten) override;
    void PortFlushed(uint32_t port, const Ptr<Packet>& frame, uint8_t cls, uint64_t tag) override;
    void LinkChanged(uint32_t port);
    void Drop(Ptr<const Packet> p, uint32_t inPort, uint32_t countPort, MrcSwitchDropReason r);
    void CheckPause(uint32_t inPort, uint8_t prio);
    void CheckResume(uint32_t inPort, uint8_t prio);
    void RefreshPause(uint32_t inPort, uint8_t prio);
    void MarkFrame(Ptr<Packet> frame);
    /**
     * Trim the packet queued last on an egress class (MrcTrimmer::TrimVictim): its bytes
     * leave the MMU and the class queue, its trimmed copy joins the control class as an
     * arriving trimmed packet would (header-queue bound, MMU, Trim and Forward traces).
     * \param outPort the egress port
     * \param cls the data class
     * \return false (nothing changed) if the class queue is empty or its last packet is
     *         not trimmable
     */
    bool TrimLastQueued(uint32_t outPort, uint8_t cls);
    Ptr<MrcEcnMarker> MakeMarker() const;
    void SetControlClass(uint8_t cls);
    /// \return the sum of one per-port counter over all ports
    uint64_t Sum(uint64_t Port::*counter) const;
    /// \return the sum of one per-port counter of PortCold over all ports
    uint64_t Sum(uint64_t PortCold::*counter) const;

    // attributes
    TypeId m_forwardingType; //!< Forwarding attribute
    bool m_ecnEnabled;       //!< EcnEnabled attribute
    bool m_trimmingEnabled;  //!< TrimmingEnabled attribute
    bool m_noEcnToHost;      //!< NoEcnToHost attribute
    uint8_t m_controlClass;  //!< ControlClass attribute
    bool m_autoHeadroom;     //!< AutoHeadroom attribute
    uint16_t m_bthUdpPort;   //!< BthUdpPort attribute

    // parts
    Ptr<MrcForwarding> m_forwarding;  //!< forwarding strategy
    Ptr<MrcSharedBufferMmu> m_mmu;    //!< MMU
    Ptr<MrcTrimmer> m_trimmer;        //!< trimmer
    ObjectFactory m_markerFactory;    //!< makes per-port ECN markers
    std::vector<Port> m_ports;        //!< ports by index
    std::vector<PortCold> m_portCold; //!< their rarely touched state, by index
    bool m_setupDone{false};          //!< FinishSetup ran
    MrcPacketInfo m_info;             //!< parse result of the packet being switched
    MrcPacketInfo m_victimInfo;       //!< parse result of a queued packet being trimmed
    std::vector<std::pair<uint8_t, Record>> m_flushed; //!< a downed port's records (class,
    //!< record), from PortFlushed until its LinkChanged
    std::array<uint64_t, MRC_SWITCH_DROP_REASON_COUNT> m_dropBytes{}; //!< dropped bytes

    // traces
    TracedCallback<Ptr<const Packet>, uint32_t, MrcSwitchDropReason> m_dropTrace;  //!< Drop
    TracedCallback<Ptr<const Packet>, Ptr<const Packet>, uint32_t> m_trimTrace;    //!< Trim
    TracedCallback<Ptr<const Packet>, uint32_t> m_markTrace;                       //!< EcnMark
    TracedCallback<Ptr<const Packet>, uint32_t, uint32_t, uint8_t> m_forwardTrace; //!< Forward
};

} // namespace ns3

#endif /* MRC_SWITCH_NODE_H */
