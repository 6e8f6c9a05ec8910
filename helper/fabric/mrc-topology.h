/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TOPOLOGY_H
#define MRC_TOPOLOGY_H

#include "ns3/data-rate.h"
#include "ns3/ipv6-address.h"
#include "ns3/mrc-ecmp-route-manager.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-switch-node.h"
#include "ns3/mrc-usid.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * A built fabric: multi-plane 2-tier Clos or k-ary fat-tree, with its hosts, NIC ports,
 * switches, links, addresses, uSIDs, SRv6 path sets, base RTT and bisection bandwidth.
 */

namespace ns3
{

class MrcChannel;

/// The shape family of a fabric.
enum class MrcTopologyKind : uint8_t
{
    CLOS = 0,     ///< 2-tier leaf/spine (T0/T1) per plane
    FAT_TREE = 1, ///< 3-tier k-ary fat-tree (T0 = ToR, T1 = aggregation, T2 = core) per plane
    GRAPH = 2,    ///< any graph of hosts and switches (MrcTopologyHelper::BuildGraph)
};

/// \return "clos", "fattree" or "graph"
const char* MrcTopologyKindName(MrcTopologyKind kind);

/// A switch tier.
enum class MrcTier : uint8_t
{
    T0 = 0, ///< leaf / ToR
    T1 = 1, ///< spine (Clos) or aggregation (fat-tree)
    T2 = 2, ///< core (fat-tree only)
};

/// Number of switch tiers.
constexpr uint32_t MRC_N_TIERS = 3;

/// A link tier.
enum class MrcLinkTier : uint8_t
{
    HOST = 0,  ///< NIC port - T0
    T0_T1 = 1, ///< T0 - T1
    T1_T2 = 2, ///< T1 - T2 (fat-tree only)
};

/// Number of link tiers.
constexpr uint32_t MRC_N_LINK_TIERS = 3;

/// \return "host", "t0-t1" or "t1-t2"
const char* MrcLinkTierName(MrcLinkTier tier);

/**
 * \ingroup mrc
 * The shape of a fabric (plain values; MrcTopologyConfig::Validate checks them).
 *
 * Clos: every plane has Hosts / HostsPerT0 T0 switches and T1PerPlane T1 switches;
 * each T0 has UplinksPerT0 uplinks, UplinksPerT0 / T1PerPlane parallel links to every
 * T1. Fat-tree: every plane is a k-ary fat-tree: k pods of k/2 T0 (ToR) and k/2 T1
 * (aggregation) switches, (k/2)^2 T2 (core) switches; HostsPerT0 hosts per ToR (k/2
 * without oversubscription); Hosts = k * k/2 * HostsPerT0. Hosts have one NIC port per
 * plane.
 */
struct MrcTopologyConfig
{
    MrcTopologyKind kind{MrcTopologyKind::CLOS}; //!< shape family
    uint32_t planes{1};                          //!< planes (NIC ports per host), 1..15
    uint32_t hosts{16};                          //!< hosts; fat-tree: 0 = k * k/2 * HostsPerT0
    uint32_t hostsPerT0{4};                      //!< hosts (downlinks) per T0; fat-tree: 0 = k/2
    uint32_t t1PerPlane{4};                      //!< Clos: T1 switches per plane
    uint32_t uplinksPerT0{0}; //!< Clos: uplinks per T0, a multiple of T1PerPlane (0 = T1PerPlane)
    uint32_t k{4};            //!< fat-tree arity (even, >= 2)
    DataRate hostRate{"100Gbps"};      //!< NIC port - T0 link rate
    DataRate fabricRate{"100Gbps"};    //!< T0 - T1 link rate
    DataRate coreRate{"100Gbps"};      //!< T1 - T2 link rate (fat-tree)
    Time hostDelay{MicroSeconds(1)};   //!< NIC port - T0 propagation delay
    Time fabricDelay{MicroSeconds(1)}; //!< T0 - T1 propagation delay
    Time coreDelay{MicroSeconds(1)};   //!< T1 - T2 propagation delay
    uint32_t mtu{4096};                //!< RoCE MTU (payload bytes per packet), for BaseRtt

    /**
     * Check the shape.
     * \return "" if the parameters form a valid fabric, otherwise a message naming every
     *         offending parameter, its value and what is allowed
     */
    std::string Validate() const;

    /// \return T0 switches per plane (after Validate)
    uint32_t GetT0PerPlane() const;
    /// \return T1 switches per plane
    uint32_t GetT1PerPlane() const;
    /// \return T2 switches per plane (0 for a Clos)
    uint32_t GetT2PerPlane() const;
    /// \return the number of hosts (fat-tree: derived when hosts is 0)
    uint32_t GetHosts() const;
    /// \return hosts per T0 (fat-tree: k/2 when hostsPerT0 is 0)
    uint32_t GetHostsPerT0() const;
    /// \return uplinks per T0 (Clos: UplinksPerT0 or T1PerPlane; fat-tree: k/2)
    uint32_t GetUplinksPerT0() const;
    /// \return hosts' injection capacity of a T0 over its uplink capacity
    double GetOversubscription() const;
};

/**
 * \ingroup mrc
 * One link of the fabric. End A is the lower tier (host NIC port, T0 or T1), end B the
 * upper one.
 *
 * A link this rank does not build (a host link of another rank's host in a distributed
 * build, MrcTopologyHelper::SetBuildRank) has no devices and no channel (devA, devB,
 * channel null); its ports, rate, delay and WireOverhead are kept as data, so that paths,
 * path RTTs and per-link records are those of a one-process build.
 */
struct MrcTopologyLink
{
    uint32_t id{0};                      //!< link id (index in GetLink)
    uint32_t plane{0};                   //!< plane
    MrcLinkTier tier{MrcLinkTier::HOST}; //!< tier
    Ptr<Node> nodeA;                     //!< lower end (host or switch)
    Ptr<Node> nodeB;                     //!< upper end (switch)
    Ptr<MrcNetDevice> devA;              //!< device at A
    Ptr<MrcNetDevice> devB;              //!< device at B
    uint32_t portA{0};                   //!< A's switch port index, or the host's device index
    uint32_t portB{0};                   //!< B's switch port index
    Ptr<MrcChannel> channel;             //!< the channel (SetLinkUp fails / repairs it)
    DataRate rate;                       //!< rate of both devices (as built)
    Time delay;                          //!< propagation delay (as built)
    uint32_t wireOverhead{0};            //!< WireOverhead of both devices (unbuilt links only)
    /// an unbuilt link's state (MrcTopology::GetLinkState): a channel without devices, made
    /// when a failure names the link; null: up
    Ptr<MrcChannel> state;

    /// \return true if this rank built the link's devices and channel
    bool IsBuilt() const
    {
        return channel != nullptr;
    }

    /// \return true if the link is up (its channel's state, or an unbuilt link's state)
    bool IsUp() const;

    /// \return the rate of a device of the link made here (A's, else B's), else `rate`
    DataRate GetRate() const;
};

/**
 * \ingroup mrc
 * One SRv6 path between two NIC ports of a plane.
 *
 * The carrier names every switch on the path (uN, first the sender's own T0) and ends
 * with the destination T0's downlink uSID (consumed by that T0). Switches are topology
 * switch ids (GetSwitchById) in visiting order; links are link ids from the sending NIC
 * port's link to the receiving one's, as the static tables forward (with parallel
 * T0-T1 links, SRv6 uses the first of them).
 */
struct MrcPath
{
    uint32_t plane{0};              //!< plane (NIC port) of both ends
    uint32_t srcHost{0};            //!< sending host
    uint32_t dstHost{0};            //!< receiving host
    std::vector<uint16_t> usids;    //!< the uSIDs in order (switches, then the downlink)
    MrcUsidCarrier carrier;         //!< the outer destination address carrying them
    std::vector<uint32_t> switches; //!< switch ids in visiting order
    std::vector<uint32_t> links;    //!< link ids in visiting order
};

/**
 * \ingroup mrc
 * A fabric built by MrcTopologyHelper.
 *
 * Hosts are plain ns3::Node objects named "host<i>"; host i's NetDevice number p is its
 * NIC port on plane p (an MrcNetDevice cabled to a T0 of plane p). Switches are
 * MrcSwitchNode objects named "p<plane>-t<tier>-<index>" with an MrcDualForwarding
 * strategy (SRv6 static table + ECMP routes). Every NIC port has its own IPv6 address
 * (GetAddress), every switch a uSID (GetUsid).
 *
 * Paths are enumerated lazily per pair of hosts (no all-pairs work at build time) with
 * Boost.Graph breadth-first search on the fabric graph.
 */
class MrcTopology : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcTopology();
    ~MrcTopology() override;

    // ---- shape ----

    /// \return the configuration the fabric was built from
    const MrcTopologyConfig& GetConfig() const;
    /// \return the shape family
    MrcTopologyKind GetKind() const;
    /// \return the number of planes
    uint32_t GetNPlanes() const;
    /// \return the number of hosts
    uint32_t GetNHosts() const;
    /**
     * \param tier a tier
     * \return switches of that tier in one plane
     */
    uint32_t GetNSwitchesPerPlane(MrcTier tier) const;
    /// \return switches of all tiers and planes
    uint32_t GetNSwitches() const;
    /// \return links of all tiers and planes
    uint32_t GetNLinks() const;
    /**
     * \param tier a link tier
     * \return links of that tier over all planes
     */
    uint32_t GetNLinks(MrcLinkTier tier) const;
    /// \return the uSID locator block
    uint32_t GetLocatorBlock() const;

    // ---- hosts and NIC ports ----

    /// \param host host index \return the host node
    Ptr<Node> GetHost(uint32_t host) const;
    /// \return all hosts, host 0 first
    NodeContainer GetHosts() const;
    /**
     * \param host host index
     * \param plane plane
     * \return the host's NIC port on the plane (its NetDevice number plane); null for a
     *         host this rank does not build (MrcTopologyHelper::SetBuildRank)
     */
    Ptr<MrcNetDevice> GetNicPort(uint32_t host, uint32_t plane) const;
    /**
     * \param host host index
     * \param plane plane
     * \return the NIC port's IPv6 address: fd00:0:0:<plane+1>::<host+1>
     */
    Ipv6Address GetAddress(uint32_t host, uint32_t plane) const;
    /**
     * Find the NIC port of an address.
     * \param address an address
     * \param host set to the host index
     * \param plane set to the plane
     * \return false if no NIC port has the address
     */
    bool FindNicPort(const Ipv6Address& address, uint32_t& host, uint32_t& plane) const;
    /**
     * \param node a node
     * \return its host index, or -1 if it is not a host of this fabric
     */
    int32_t FindHost(Ptr<const Node> node) const;
    /// \param host host index \return index (within its plane) of the T0 the host hangs off
    uint32_t GetT0Of(uint32_t host) const;
    /// \param host host index \return its downlink number on that T0 (0-based)
    uint32_t GetDownlinkOf(uint32_t host) const;
    /**
     * \param plane plane
     * \param downlink downlink number on a T0
     * \return the downlink's uSID (the last uSID of a path to a host on that downlink)
     */
    uint16_t GetDownlinkUsid(uint32_t plane, uint32_t downlink) const;

    // ---- switches ----

    /**
     * \param plane plane
     * \param tier tier
     * \param index index within plane and tier
     * \return the switch (aborts naming the bad argument); null for a switch of another
     *         rank in a lean distributed build (GetSwitchById)
     */
    Ptr<MrcSwitchNode> GetSwitch(uint32_t plane, MrcTier tier, uint32_t index) const;
    /**
     * \param id switch id, 0 .. GetNSwitches() - 1 (as in MrcPath::switches)
     * \return the switch; null for a switch of another rank in a lean distributed build
     *         (MrcTopologyHelper::SetBuildRank), which is a bare node (GetSwitchNode)
     */
    Ptr<MrcSwitchNode> GetSwitchById(uint32_t id) const;
    /**
     * \param id switch id, 0 .. GetNSwitches() - 1
     * \return the switch's node: the MrcSwitchNode, or, for a switch of another rank in a
     *         lean distributed build, a bare ns3::Node with that rank's system id and the
     *         node id it has on every rank
     */
    Ptr<Node> GetSwitchNode(uint32_t id) const;
    /// \param plane plane \param tier tier \param index index \return the switch id
    uint32_t GetSwitchId(uint32_t plane, MrcTier tier, uint32_t index) const;
    /// \param id switch id \return its uSID
    uint16_t GetUsid(uint32_t id) const;
    /**
     * \param id switch id
     * \param plane set to its plane
     * \param tier set to its tier
     * \param index set to its index within plane and tier
     */
    void DescribeSwitch(uint32_t id, uint32_t& plane, MrcTier& tier, uint32_t& index) const;
    /// \param plane plane \param tier tier \param index index \return the switch's uSID
    uint16_t GetUsid(uint32_t plane, MrcTier tier, uint32_t index) const;
    /**
     * \param node a node
     * \return its switch id, or -1 if it is not a switch of this fabric
     */
    int32_t FindSwitchId(Ptr<const Node> node) const;
    /// \param plane plane \return the ECMP route manager of the plane
    Ptr<MrcEcmpRouteManager> GetRouteManager(uint32_t plane) const;

    // ---- links ----

    /// \param id link id \return the link
    const MrcTopologyLink& GetLink(uint32_t id) const;
    /**
     * \param a a node
     * \param b another node
     * \return ids of the links between them (parallel links: several), in id order
     */
    std::vector<uint32_t> GetLinksBetween(Ptr<const Node> a, Ptr<const Node> b) const;
    /**
     * \param a a node
     * \param b another node
     * \return the first link between them (aborts if there is none)
     */
    const MrcTopologyLink& GetLink(Ptr<const Node> a, Ptr<const Node> b) const;
    /// \param node a node \return ids of all links of the node, in id order
    std::vector<uint32_t> GetLinksOf(Ptr<const Node> node) const;
    /**
     * The channel whose state is the link's: the link's own channel, or, for a link this
     * rank does not build (a lean distributed build), a channel without devices made on
     * first call. Failing it (MrcChannel::SetLinkUp, e.g. by MrcFailureInjector on every
     * rank at the same simulated time) is followed by the plane's route manager
     * (MrcEcmpRouteManager::FollowDataLink), IsPathUp and IsReachable, as a cut of a built
     * link.
     * \param id link id
     * \return the channel
     */
    Ptr<MrcChannel> GetLinkState(uint32_t id);
    /**
     * \param id link id
     * \return the link's name as MrcFailureInjector::LinkName gives it in a one-process
     *         build, in its channel's device order: "nodeA:portA-nodeB:portB" for a switch
     *         link, "switch:port-host:plane" for a host link
     */
    std::string GetLinkName(uint32_t id) const;
    /**
     * \param id link id
     * \param endA true: end A (the host of a host link, the lower switch of a switch link),
     *        false: end B
     * \return that end's port as MrcFailureInjector::PortName gives it in a one-process
     *         build ("node:port": a switch's port index, a host's device index), whether or
     *         not this rank builds the device
     */
    std::string GetPortName(uint32_t id, bool endA) const;
    /**
     * \param host host index
     * \param plane plane
     * \return the id of the link between the host's NIC port and its T0
     */
    uint32_t GetHostLink(uint32_t host, uint32_t plane) const;

    // ---- paths ----

    /**
     * Enumerate the SRv6 paths between two hosts' NIC ports on one plane: every
     * shortest switch sequence (Boost.Graph BFS), each with its uSID carrier. Paths are
     * in a fixed order (lexicographic by switch ids). Same host: none. In a GRAPH fabric
     * a path of more than MrcUsidCarrier::MAX_USIDS uSIDs (more than 5 switches) has an
     * all-zero carrier (no SRv6 route); other kinds never have one.
     * \param srcHost sending host
     * \param dstHost receiving host
     * \param plane plane
     * \return the paths
     */
    std::vector<MrcPath> GetPaths(uint32_t srcHost, uint32_t dstHost, uint32_t plane) const;
    /**
     * \param srcHost sending host
     * \param dstHost receiving host
     * \return the paths of every plane, plane 0 first: the (plane, path) pairs from which
     *         MRC generates its entropy values
     */
    std::vector<MrcPath> GetAllPaths(uint32_t srcHost, uint32_t dstHost) const;
    /**
     * \param path a path of this fabric
     * \return true if every link of the path is physically up
     */
    bool IsPathUp(const MrcPath& path) const;
    /**
     * Whether any route over physically up links joins the NIC ports of two hosts on a
     * plane (Boost.Graph BFS over the fabric graph filtered by link state).
     * \param srcHost a host
     * \param dstHost another host
     * \param plane plane
     * \return true if reachable
     */
    bool IsReachable(uint32_t srcHost, uint32_t dstHost, uint32_t plane) const;

    // ---- figures ----

    /// Ethernet + outer IPv6 + inner IPv6 + UDP + BTH + METH + RETH + ICRC of an MRC
    /// Write packet: 14 + 40 + 40 + 8 + 12 + 4 + 16 + 4 bytes (without the payload).
    static constexpr uint32_t MRC_DATA_FRAME_OVERHEAD = 138;
    /// An MRC SACK frame: Ethernet 14 + outer IPv6 40 + inner IPv6 40 + UDP 8 + BTH 12 +
    /// SETH 28 + CC_STATE 8 + ICRC 4 bytes.
    static constexpr uint32_t MRC_SACK_FRAME_BYTES = 154;

    /**
     * Base RTT of the longest path: a data frame of mtu payload bytes plus
     * dataOverhead bytes travels from a sender's NIC port to the farthest receiver, store
     * and forward (at each hop: serialization at the sending device's rate, including the
     * device's WireOverhead, plus the link's propagation delay), and an ackBytes frame
     * comes back the same way. No queueing, no processing delay. The longest path is the
     * one of the largest such time among the paths between host 0 and the host farthest
     * from it (the last host; in a GRAPH fabric, every other host).
     * \param mtu payload bytes of the data packet
     * \param dataOverhead frame bytes besides the payload
     * \param ackBytes frame bytes of the acknowledgement
     * \return the base RTT
     */
    Time GetBaseRtt(uint32_t mtu,
                    uint32_t dataOverhead = MRC_DATA_FRAME_OVERHEAD,
                    uint32_t ackBytes = MRC_SACK_FRAME_BYTES) const;
    /**
     * As GetBaseRtt for one given path.
     * \param path a path
     * \param mtu payload bytes
     * \param dataOverhead frame bytes besides the payload
     * \param ackBytes acknowledgement frame bytes
     * \return the path's base RTT
     */
    Time GetPathRtt(const MrcPath& path,
                    uint32_t mtu,
                    uint32_t dataOverhead = MRC_DATA_FRAME_OVERHEAD,
                    uint32_t ackBytes = MRC_SACK_FRAME_BYTES) const;
    /**
     * Bisection bandwidth over all planes: half the total capacity of the narrowest tier
     * (hosts' NIC links, T0 uplinks, T1 uplinks of a fat-tree), summed over planes. A
     * fabric of one T0 per plane counts its host links only. In these symmetric fabrics
     * that is the capacity of the cut between two equal halves.
     * \return bits per second
     */
    uint64_t GetBisectionBandwidth() const;

    /**
     * Summary as a JSON object (schema 1): shape, counts per tier, links, base RTT, and
     * when srcHost != dstHost the paths between them per plane.
     * \param srcHost a host
     * \param dstHost another host
     * \return the JSON text
     */
    std::string ToJson(uint32_t srcHost, uint32_t dstHost) const;

  protected:
    void DoDispose() override;

  private:
    friend class MrcTopologyHelper;
    struct Graph; //!< Boost.Graph view of the fabric (defined in the .cc)

    uint32_t AddLink(uint32_t plane,
                     MrcLinkTier tier,
                     Ptr<Node> a,
                     Ptr<Node> b,
                     Ptr<MrcNetDevice> devA,
                     Ptr<MrcNetDevice> devB,
                     uint32_t portA,
                     uint32_t portB);
    /// A link without devices (another rank's host link). \return its id
    uint32_t AddUnbuiltLink(uint32_t plane,
                            MrcLinkTier tier,
                            Ptr<Node> a,
                            Ptr<Node> b,
                            uint32_t portA,
                            uint32_t portB,
                            DataRate rate,
                            Time delay,
                            uint32_t wireOverhead);
    void BuildGraph();
    uint32_t NicVertex(uint32_t host, uint32_t plane) const;
    void CheckHost(uint32_t host, const char* what) const;
    void CheckPlane(uint32_t plane, const char* what) const;

    MrcTopologyConfig m_config;                                //!< the shape
    uint32_t m_locator{MrcUsidCarrier::DEFAULT_LOCATOR_BLOCK}; //!< locator block
    NodeContainer m_hosts;                                     //!< hosts
    std::vector<Ptr<MrcSwitchNode>> m_switches;                //!< by switch id (null: a
                                                               //!< bare node of another rank)
    std::vector<Ptr<Node>> m_switchNodes;                      //!< by switch id: every node
    std::vector<uint16_t> m_usids;                             //!< by switch id
    std::unordered_map<uint32_t, uint32_t> m_switchOfNode;     //!< node id -> switch id
    std::unordered_map<uint32_t, uint32_t> m_hostOfNode;       //!< node id -> host index
    std::vector<uint32_t> m_switchPlane;                       //!< by switch id
    std::vector<MrcTier> m_switchTier;                         //!< by switch id
    std::vector<uint32_t> m_switchIndex;  //!< by switch id: index in plane+tier
    std::vector<uint32_t> m_firstSwitch;  //!< per plane*3+tier: first id
    std::vector<uint32_t> m_tierCount;    //!< graph: switches per tier in one plane
    std::vector<uint32_t> m_hostT0;       //!< graph: per host, index of its T0
    std::vector<uint32_t> m_hostDownlink; //!< graph: per host, downlink number on its T0
    std::vector<MrcTopologyLink> m_links; //!< by link id
    std::vector<uint32_t> m_hostLink;     //!< per host*planes+plane: link id
    std::unordered_map<uint32_t, std::vector<uint32_t>> m_linksOfNode; //!< node id -> links
    std::vector<Ptr<MrcEcmpRouteManager>> m_managers;                  //!< per plane
    std::shared_ptr<Graph> m_graph;                                    //!< built lazily
};

} // namespace ns3

#endif /* MRC_TOPOLOGY_H */
