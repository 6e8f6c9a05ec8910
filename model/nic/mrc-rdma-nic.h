/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RDMA_NIC_H
#define MRC_RDMA_NIC_H

#include "mrc-endpoint-ops.h"
#include "mrc-memory-region.h"
#include "mrc-queue-pair.h"

#include "ns3/event-id.h"
#include "ns3/ipv6-address.h"
#include "ns3/mrc-dcqcn-np.h"
#include "ns3/mrc-net-device.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <map>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * The RDMA NIC of a host: ports (one per plane), queue-pair table, per-port scheduler,
 * memory regions.
 */

namespace ns3
{

class Node;

/**
 * \ingroup mrc
 * An RDMA NIC, one per host, aggregated to the host's Node.
 *
 * - **Ports.** AddPort(device, address) attaches one MrcNetDevice per plane; the NIC
 *   becomes the device's port owner (MrcPortOwner: the device calls the NIC directly
 *   with the port number for each arrival and each frame leaving its class queue,
 *   without ns-3 Callbacks and without a search for the port).
 * - **Queue pairs.** CreateQueuePair(TypeId) makes a QP of any transport
 *   (ns3::MrcRoceQueuePair, ...) and gives it the next QP number. Arriving packets
 *   (IPv6, UDP to BthUdpPort, BTH) are parsed once and handed to the QP named by the BTH
 *   destination QP; others are counted and dropped.
 * - **Scheduler.** Per port, a ring of QPs that may send on it. Whenever the device's
 *   queue of a QP's data class holds fewer than TxQueueThreshold bytes, the scheduler
 *   serves the ring round robin: the first QP whose GetNextSendTime(port) has come
 *   builds one packet. QPs with nothing to send leave the ring (NotifyReady puts them
 *   back); when every QP is paced into the future, a timer wakes the port at the
 *   earliest time. Because only a small amount is queued in the device, a PFC pause of
 *   the data class stops the scheduler (back-pressure) instead of filling the device.
 *   Refills are triggered by the device's dequeue hook.
 * - **Control packets** (ACK, NAK, CNP, SACK) go straight to the device in the class of
 *   their DSCP (high priority with the default DSCP map).
 * - **Memory regions.** RegisterMemoryRegion gives a region an rkey; responders look it
 *   up by the RETH's rkey.
 * - **Endpoint operations.** A transport registers an MrcEndpointOps handler for a
 *   reserved QP number (RegisterEndpointHandler; MRC's Port Status agent takes the
 *   endpoint QPN 0x2). An arrival for a QP number that no queue pair owns goes to the
 *   handler of that number, if any; what it does not take is dropped as "unknown-qp".
 *   The NIC includes no transport: the Port Status accessors and the PortStatusTx trace
 *   below forward to the handler of QPN 0x2 (MrcPortStatusAgent with MRC), and the
 *   PortStatusScope attribute (Nic: one update per peer NIC to its QPN 0x2; Qp: each MRC
 *   QP updates its peer QP) is read by that agent.
 * - **Listeners.** QueuePairCreated and QueuePairConnected report each queue pair when
 *   the NIC makes it and when it reaches RTR (after its transport set up its state), so
 *   a control plane (MrcController) follows the QPs without them calling it;
 *   PortState reports a port's link as its device detects it, PortAdminState the
 *   changes of SetPortEnabled.
 * - **Port admin.** SetPortEnabled(port, false) takes the port's link down (as a
 *   failure would; the device and the QPs notice it after the device's detection
 *   delay), SetPortEnabled(port, true) brings it back.
 */
class MrcRdmaNic : public Object, public MrcPortOwner
{
  public:
    /// Who sends Port Status Updates (attribute PortStatusScope).
    enum PortStatusScope : uint8_t
    {
        PORT_STATUS_NIC, ///< one update per peer NIC, to its QPN 0x2 (default)
        PORT_STATUS_QP,  ///< each MRC QP updates its own peer QP
    };

    /// In which order one scheduling pass serves the ports kicked together (attribute
    /// PortOrder).
    enum PortOrder : uint8_t
    {
        PORT_ORDER_ASCENDING,  ///< port 0 first, then 1, 2, ...
        PORT_ORDER_ROUND_ROBIN ///< after the port of the last data packet (default)
    };

    /// Signature of the RxDrop trace: the packet and why ("not-bth", "unknown-qp", ...).
    typedef void (*RxDropTracedCallback)(Ptr<const Packet> packet, const std::string& why);
    /// Signature of the PortStatusTx trace: peer (its port-0 address), request id, mask.
    typedef void (*PortStatusTracedCallback)(Ipv6Address peer, uint16_t id, uint32_t mask);
    /// Signature of the QueuePairCreated and QueuePairConnected traces.
    typedef void (*QueuePairTracedCallback)(Ptr<MrcQueuePair> qp);
    /// Signature of the PortState and PortAdminState traces: the port and its new state.
    typedef void (*PortStateTracedCallback)(uint32_t port, bool up);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcRdmaNic();
    ~MrcRdmaNic() override;

    /**
     * \param node a host node
     * \return the NIC aggregated to it, or null
     */
    static Ptr<MrcRdmaNic> GetNic(Ptr<Node> node);

    // ---- ports ----

    /**
     * Attach a port (the host side of a link). Port indices count from 0 in call order;
     * port p is meant to attach to plane p.
     * \param device the host's device
     * \param address this port's IPv6 address
     * \return the port index
     */
    uint32_t AddPort(Ptr<MrcNetDevice> device, Ipv6Address address);
    /// \return number of ports
    uint32_t GetNPorts() const;
    /// \param port index \return the port's device
    Ptr<MrcNetDevice> GetDevice(uint32_t port) const;
    /// \param port index \return when the port last sent a CNP (DCQCN PortInterval style)
    MrcCnpPortClock& GetCnpPortClock(uint32_t port);
    /// \param port index \return the port's address
    Ipv6Address GetAddress(uint32_t port) const;

    /// \param port index (below GetNPorts()) \return the port's address as bytes
    const MrcIpv6Bytes& GetAddressBytes(uint32_t port) const
    {
        return m_ports[port].addressBytes;
    }

    /// \return every port's address, port order
    std::vector<Ipv6Address> GetAddresses() const;
    /**
     * Port admin (OCP mrc_ctl_modify_port): disabling a port takes its link down, enabling
     * brings it back up; the devices and QPs see the change after the device's detection
     * delay, as for a failure. Fires PortAdminState. Aborts if the port does not exist or
     * its device has no MrcChannel.
     * \param port a port \param enable true to enable
     */
    void SetPortEnabled(uint32_t port, bool enable);
    /// \param port a port \return false if SetPortEnabled disabled it
    bool IsPortEnabled(uint32_t port) const;

    // ---- queue pairs ----

    /**
     * Create a queue pair.
     * \param transport a subclass of ns3::MrcQueuePair (aborts otherwise)
     * \return the new QP, in RESET until Connect
     */
    Ptr<MrcQueuePair> CreateQueuePair(TypeId transport);
    /**
     * Create a queue pair from a configured factory.
     * \param factory makes a subclass of ns3::MrcQueuePair
     * \return the new QP
     */
    Ptr<MrcQueuePair> CreateQueuePair(const ObjectFactory& factory);
    /**
     * Give the next QP number to a queue pair this NIC does not hold: in a run split over
     * ranks (MrcMpi), the queue pairs of a host simulated by another rank are not made
     * here, but the numbers of the ones that are made must be those of a one-process run.
     * \return the QP number skipped
     */
    uint32_t SkipQueuePair();
    /// \param qpn a QP number \return the QP, or null
    Ptr<MrcQueuePair> GetQueuePair(uint32_t qpn) const;
    /// \return number of queue pairs
    uint32_t GetNQueuePairs() const;
    /// \return every queue pair, in creation order
    std::vector<Ptr<MrcQueuePair>> GetQueuePairs() const;

    // ---- endpoint operations ----

    /**
     * Register the handler of a reserved QP number (one that no queue pair gets: below
     * FirstQpn). Replaces an earlier handler of the number.
     * \param qpn the QP number (24 bits)
     * \param handler the handler (not null)
     */
    void RegisterEndpointHandler(uint32_t qpn, Ptr<MrcEndpointOps> handler);
    /// \param qpn a QP number \return its handler, or null
    Ptr<MrcEndpointOps> GetEndpointHandler(uint32_t qpn) const;

    // ---- memory regions ----

    /**
     * Register a memory region; rkeys are given out from 1 upwards.
     * \param base first virtual address
     * \param length bytes
     * \return the region
     */
    Ptr<MrcMemoryRegion> RegisterMemoryRegion(uint64_t base, uint64_t length);
    /**
     * Give the next rkey to a memory region this NIC does not hold (as SkipQueuePair).
     * \return the rkey skipped
     */
    uint32_t SkipMemoryRegion();
    /// \param rkey a remote key \return its region, or null
    Ptr<MrcMemoryRegion> GetMemoryRegion(uint32_t rkey) const;

    // ---- called by queue pairs ----

    /**
     * The QP may have packets to send (new work, window opened, rate raised, rewind).
     * Puts it in the rings of the ports it uses and kicks those ports.
     * \param qp the queue pair
     */
    void NotifyReady(Ptr<MrcQueuePair> qp);

    /**
     * Send a control packet at once in its DSCP's class.
     * \param port the port
     * \param p the packet from its IPv6 header
     * \param dscp its DSCP
     * \return false if the device dropped it
     */
    bool SendControl(uint32_t port, Ptr<Packet> p, uint8_t dscp);

    /**
     * As SendControl, for a frame that already has the port device's Ethernet header
     * (MrcQueuePair::AddFrameHeaders): queued with MrcNetDevice::SendFramed.
     * \param port the port
     * \param frame the frame from its Ethernet header
     * \param dscp its DSCP
     * \return false if the device dropped it
     */
    bool SendControlFrame(uint32_t port, Ptr<Packet> frame, uint8_t dscp);

    /**
     * Write the Ethernet header a port's device puts on an IPv6 frame
     * (MrcNetDevice::WriteEthernetHeader).
     * \param port the port
     * \param out MrcRawHeader::ETHERNET_BYTES (14) bytes
     */
    void WriteEthernetHeader(uint32_t port, uint8_t* out) const;

    /**
     * The QP reached RTR and its transport set up its connected state: fires
     * QueuePairConnected.
     * \param qp the queue pair
     */
    void NotifyConnected(Ptr<MrcQueuePair> qp);

    /// \return the BthUdpPort attribute
    uint16_t GetBthUdpPort() const;
    /// \return the ComputeIcrc attribute
    bool GetComputeIcrc() const;
    /// \return the ComputeUdpChecksum attribute
    bool GetComputeUdpChecksum() const;
    /// \return the PortStatusScope attribute (read by the MRC Port Status agent)
    PortStatusScope GetPortStatusScope() const;

    // ---- counters ----

    /// \return packets received that were not IPv6/UDP/BTH or too short
    uint64_t GetRxNotBth() const;
    /// \return packets received for a QP number that does not exist
    uint64_t GetRxUnknownQp() const;
    /// \param port a port \return data packets the scheduler put into the device
    uint64_t GetTxDataPackets(uint32_t port) const;
    /// \param port a port \return data packets the device refused (queue full, link down)
    uint64_t GetTxDataDrops(uint32_t port) const;
    // Port Status Update counts: forwarded to the handler of the endpoint QPN 0x2 (its
    // MrcEndpointStats); 0 without one.

    /// \return NIC-scope Port Status Update requests sent (first attempts and resends)
    uint64_t GetPortStatusSent() const;
    /// \return of those, resends after a timeout
    uint64_t GetPortStatusResent() const;
    /// \return responses received that matched a pending request
    uint64_t GetPortStatusAnswered() const;
    /// \return Port Status Update requests received at QPN 0x2 and applied
    uint64_t GetPortStatusReceived() const;
    /// \return responses sent to them
    uint64_t GetPortStatusResponses() const;
    /// \param peer any address of a peer NIC \return request id of the last update to it, 0 if none
    uint16_t GetPortStatusRequestId(Ipv6Address peer) const;

  protected:
    void DoDispose() override;

  private:
    /// One port's scheduling state.
    struct Port
    {
        Ptr<MrcNetDevice> dev;               //!< the device
        Ipv6Address address;                 //!< its address
        MrcIpv6Bytes addressBytes;           //!< the same, as bytes (packets' source)
        std::vector<Ptr<MrcQueuePair>> ring; //!< QPs that may have packets for it
        std::size_t next{0};                 //!< round-robin position
        /// the pacing wake-up (WakeUp), scheduled again at each arming (ArmWake)
        Ptr<EventImpl> wakeEvent;
        Time wakeAt;               //!< when `wakeEvent` fires, if pending
        bool wakePending{false};   //!< `wakeEvent` is scheduled and not cancelled
        bool kickPending{false};   //!< a Serve is scheduled now
        uint8_t blockedClasses{0}; //!< classes a ready QP found full in Serve
        uint64_t txData{0};        //!< data packets handed to the device
        uint64_t txDrops{0};       //!< refused by the device
        MrcCnpPortClock cnpClock;  //!< last CNP sent (PortInterval style)
    };

    /**
     * A frame arrived on a port (MrcPortOwner: the device calls it directly).
     * \param port the port
     * \param p the packet without Ethernet header
     * \param etherType its EtherType
     * \param cls its class
     */
    void PortReceive(uint32_t port,
                     const Ptr<Packet>& p,
                     uint16_t etherType,
                     uint8_t cls,
                     const MrcRxHead& head) override;
    /**
     * A frame left a class queue of a port (MrcPortOwner: the device's dequeue hook).
     * \param port the port
     * \param frame the frame
     * \param cls its class
     * \param tag its owner's tag (unused: the NIC queues frames with SendFramed)
     */
    void PortDequeued(uint32_t port,
                      const Ptr<Packet>& frame,
                      uint8_t cls,
                      uint64_t tag,
                      uint8_t& unwritten) override;
    /// Schedule Serve(port) now unless one is pending.
    void Kick(uint32_t port);
    /// Schedule one event that serves the ports of `mask` (bit p: port p) that have no
    /// Serve pending.
    void KickPorts(uint32_t mask);
    /// The event of KickPorts: Serve the ports of the oldest pending mask.
    void ServeKicked();
    /// Schedule the pacing timer of a port (cancelling a pending one).
    /// \param port the port \param delay from now
    void ArmWake(uint32_t port, const Time& delay);
    /// The pacing timer of a port fired.
    void WakeUp(uint32_t port);
    /// Fill the port's device from the ring.
    void Serve(uint32_t port);

    /// The link of a port changed (device callback): fires PortState.
    void PortLinkChanged(uint32_t port);
    /// \return the stats of the endpoint QPN 0x2's handler (zero without one)
    MrcEndpointStats EndpointStats() const;

    /// Register a created QP.
    Ptr<MrcQueuePair> Adopt(Ptr<MrcQueuePair> qp);

    std::vector<Port> m_ports;         //!< ports
    Ptr<EventImpl> m_serveEvent;       //!< the reusable event of KickPorts
    std::deque<uint32_t> m_serveMasks; //!< ports of each pending KickPorts event, oldest first
    /// QPs by QPN - m_qpBase (null: a number skipped or not a QP's): one load per arrival
    std::vector<Ptr<MrcQueuePair>> m_qps;
    uint32_t m_qpBase{0};                                //!< the QPN of m_qps[0]
    std::vector<Ptr<MrcQueuePair>> m_qpList;             //!< QPs, creation order
    std::vector<Ptr<MrcMemoryRegion>> m_regions;         //!< regions by rkey (null: none): one load
    uint32_t m_nextQpn;                                  //!< next QPN to give
    uint32_t m_nextRkey;                                 //!< next rkey to give
    uint32_t m_txThreshold;                              //!< TxQueueThreshold
    uint16_t m_bthUdpPort;                               //!< BthUdpPort
    bool m_computeIcrc;                                  //!< ComputeIcrc
    bool m_computeUdpChecksum;                           //!< ComputeUdpChecksum
    uint64_t m_rxNotBth;                                 //!< counter
    uint64_t m_rxUnknownQp;                              //!< counter
    PortStatusScope m_portStatusScope;                   //!< PortStatusScope
    PortOrder m_portOrder;                               //!< PortOrder
    uint32_t m_lastDataPort;                             //!< last data port
    std::map<uint32_t, Ptr<MrcEndpointOps>> m_endpoints; //!< handlers by QPN
    std::vector<bool> m_portDisabled;                    //!< SetPortEnabled
    TracedCallback<Ptr<const Packet>, const std::string&> m_rxDropTrace; //!< RxDrop
    TracedCallback<Ptr<MrcQueuePair>> m_qpCreatedTrace;                  //!< QueuePairCreated
    TracedCallback<Ptr<MrcQueuePair>> m_qpConnectedTrace;                //!< QueuePairConnected
    TracedCallback<uint32_t, bool> m_portStateTrace;                     //!< PortState
    TracedCallback<uint32_t, bool> m_portAdminTrace;                     //!< PortAdminState
};

} // namespace ns3

#endif /* MRC_RDMA_NIC_H */
