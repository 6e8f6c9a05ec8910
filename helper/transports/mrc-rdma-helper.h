/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RDMA_HELPER_H
#define MRC_RDMA_HELPER_H

#include "ns3/mrc-memory-region.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-queue-pair.h"
#include "ns3/mrc-rdma-nic.h"
#include "ns3/node-container.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * Installs RDMA NICs on hosts and connects queue pairs between them.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * Installs MrcRdmaNic on host nodes and connects queue-pair pairs.
 *
 * \code
 *   MrcRdmaHelper rdma;                          // RoCE RC by default
 *   rdma.SetQueuePairAttribute("Mtu", UintegerValue(1000));
 *   rdma.Install(hostA, devA, addrA);            // one port per plane
 *   rdma.Install(hostB, devB, addrB);
 *   MrcRdmaHelper::Connection c = rdma.Connect(hostA, hostB, 1 << 20);
 *   MrcWorkRequest wr;
 *   wr.id = 1; wr.remoteAddress = c.region->GetBase(); wr.rkey = c.region->GetRkey();
 *   wr.length = 1 << 20;
 *   c.requester->SetCompletionCallback(MakeCallback(&OnDone));
 *   c.requester->PostSend(wr);
 * \endcode
 */
class MrcRdmaHelper
{
  public:
    /// Both ends of a connection and the region registered at the responder.
    struct Connection
    {
        Ptr<MrcQueuePair> requester; //!< QP on the first host
        Ptr<MrcQueuePair> responder; //!< QP on the second host
        Ptr<MrcMemoryRegion> region; //!< region registered at the second host
        uint32_t requesterQpn{0};    //!< the requester's QP number (ConnectOneEnd: made or not)
        uint32_t responderQpn{0};    //!< the responder's QP number
        uint32_t rkey{0};            //!< the region's rkey
        uint64_t regionBase{0};      //!< the region's base address
    };

    MrcRdmaHelper();

    /**
     * Choose the transport of the queue pairs Connect creates.
     * \param type a subclass of ns3::MrcQueuePair (default ns3::MrcRoceQueuePair)
     */
    void SetQueuePairType(const std::string& type);
    /**
     * Set an attribute of every queue pair created afterwards.
     * \param name attribute of the transport
     * \param value its value
     */
    void SetQueuePairAttribute(const std::string& name, const AttributeValue& value);
    /**
     * Set an attribute of every NIC installed afterwards.
     * \param name attribute of ns3::MrcRdmaNic
     * \param value its value
     */
    void SetNicAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Install a NIC with one port per plane on a host (aggregated to the node). Aborts
     * if the node already has a NIC.
     * \param host the host node
     * \param ports (device, address) per plane, plane order
     * \return the NIC
     */
    Ptr<MrcRdmaNic> Install(Ptr<Node> host,
                            const std::vector<std::pair<Ptr<MrcNetDevice>, Ipv6Address>>& ports);
    /**
     * Install a single-port NIC.
     * \param host the host node
     * \param device its device
     * \param address the port's address
     * \return the NIC
     */
    Ptr<MrcRdmaNic> Install(Ptr<Node> host, Ptr<MrcNetDevice> device, Ipv6Address address);

    /**
     * Create one queue pair on each host, connect them to each other, and register a
     * memory region of `regionBytes` at the second host (base address `regionBase`).
     * Both hosts must have a NIC.
     * \param a the requester's host
     * \param b the responder's host
     * \param regionBytes size of the region registered at b (0: none)
     * \param regionBase its base virtual address
     * \return the two QPs and the region
     */
    Connection Connect(Ptr<Node> a,
                       Ptr<Node> b,
                       uint64_t regionBytes,
                       uint64_t regionBase = 0x100000000ULL);

    /**
     * As Connect, but make only one end: the queue pair (and, at b, the region) of the
     * host this process simulates in a run split over ranks. The other end's QP number
     * (and rkey) is taken on its NIC without making it (MrcRdmaNic::SkipQueuePair,
     * SkipMemoryRegion), so numbers stay those of Connect; the end made is connected to
     * the other end's addresses, number and initial PSN (the same factory makes both, so
     * the same InitialPsn). The Connection's numbers, rkey and base are set either way.
     * \param a the requester's host
     * \param b the responder's host
     * \param requesterHere true: make the requester, false: the responder and region
     * \param regionBytes size of the region at b
     * \param regionBase its base virtual address
     * \return the connection, with the end not made null
     */
    Connection ConnectOneEnd(Ptr<Node> a,
                             Ptr<Node> b,
                             bool requesterHere,
                             uint64_t regionBytes,
                             uint64_t regionBase = 0x100000000ULL);

    /**
     * As ConnectOneEnd, when the other end's host may have no NIC on this rank (a host of
     * another rank that a lean build leaves unbuilt, MrcTopologyHelper::SetBuildRank): its
     * numbers come from SkipQueuePair / SkipMemoryRegion below, its addresses are given.
     * \param a the requester's host \param b the responder's host
     * \param requesterHere true: make the requester, false: the responder and region
     * \param farAddresses the other end's NIC addresses (one per plane), used when its
     *        host has no NIC here
     * \param regionBytes size of the region at b \param regionBase its base address
     * \return the connection, with the end not made null
     */
    Connection ConnectOneEnd(Ptr<Node> a,
                             Ptr<Node> b,
                             bool requesterHere,
                             const std::vector<Ipv6Address>& farAddresses,
                             uint64_t regionBytes,
                             uint64_t regionBase = 0x100000000ULL);

    /**
     * Take the next QP number of a host's NIC without making a queue pair: the NIC's
     * (MrcRdmaNic::SkipQueuePair), or, for a host without a NIC on this rank, a counter
     * kept here that starts where a NIC of this helper starts (attribute FirstQpn).
     * \param host the host
     * \return the QP number
     */
    uint32_t SkipQueuePair(Ptr<Node> host);

    /**
     * Take the next rkey of a host's NIC without a region (MrcRdmaNic::SkipMemoryRegion),
     * or of the counter kept here for a host without a NIC on this rank.
     * \param host the host
     * \return the rkey
     */
    uint32_t SkipMemoryRegion(Ptr<Node> host);

    /**
     * Bind the queue pairs of the connections made from now on (Connect, ConnectOneEnd)
     * to a NIC port, a plane (MrcQueuePair::AssignPort: both ends the same port), as an
     * application names the port of a queue pair. A transport bound to one port follows it
     * (RoCE and UEC, under MrcFixedEntropyPathSelector's PortRule); MRC sprays over every
     * port. 0xffffffff (the default): none, the path selector's own rule.
     * \param port the port
     */
    void SetPort(uint32_t port);

    /**
     * Connect two existing, unconnected queue pairs to each other.
     * \param qa one QP
     * \param qb the other QP
     */
    static void ConnectPair(Ptr<MrcQueuePair> qa, Ptr<MrcQueuePair> qb);

    /**
     * Sum the counters of every queue pair of the NICs on some nodes (nodes without a NIC
     * are skipped), e.g. for summary.json.
     * \param nodes the nodes
     * \return the field-by-field sum
     */
    static MrcQpCounters SumCounters(const NodeContainer& nodes);

  private:
    /// \param host a host without a NIC \return its counters: next QP number, next rkey
    std::pair<uint32_t, uint32_t>& Unbuilt(Ptr<Node> host);

    ObjectFactory m_nic;         //!< makes NICs
    ObjectFactory m_qp;          //!< makes queue pairs
    int64_t m_firstQpn{-1};      //!< FirstQpn set on the NICs (-1: the attribute's default)
    uint32_t m_port{0xffffffff}; //!< SetPort's port for the queue pairs made

    std::unordered_map<uint32_t, std::pair<uint32_t, uint32_t>>
        m_unbuilt; //!< per node id of a host without a NIC: next QP number, next rkey
};

} // namespace ns3

#endif /* MRC_RDMA_HELPER_H */
