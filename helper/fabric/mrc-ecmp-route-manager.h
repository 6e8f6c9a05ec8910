/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_ECMP_ROUTE_MANAGER_H
#define MRC_ECMP_ROUTE_MANAGER_H

#include "ns3/ipv6-address.h"
#include "ns3/mrc-ecmp-forwarding.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-switch-node.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * Shortest-path ECMP routes for a fabric of MrcEcmpForwarding switches, recomputed
 * after a convergence delay when links fail or recover (a BGP-like control plane).
 */

namespace ns3
{

class MrcChannel;

/**
 * \ingroup mrc
 * Control plane of an ECMP fabric.
 *
 * The owner registers every switch (its forwarding engine and its port devices, port
 * i = element i) and every host address with the switch port its NIC is cabled to.
 * ComputeAndInstall() then installs, on every switch and for every host address, a
 * /128 route whose ECMP group holds all egress ports that lie on a shortest path
 * (fewest switch hops) to that host: the host ports themselves on the switch the host
 * is cabled to, otherwise the ports towards neighbours one hop closer. Switches that
 * cannot reach a host get no route for it.
 *
 * Convergence: the manager listens to the LinkStateChange trace of every channel
 * between two registered switches and of every host link. The switches at the two
 * ends of a link react to its failure on their own at once (their engine's
 * SetPortState: the switch node's job, not the manager's). The control plane learns
 * of the change ConvergenceDelay later: it then applies the change to its own view of
 * the links and recomputes and installs the routes of every switch from that view.
 * Each change is applied at exactly its own time + ConvergenceDelay, in order, so a
 * flap shorter than the delay yields two recomputations. Enabled=false, or
 * ConvergenceDelay = Time::Max(), gives static routes: the routes installed by
 * ComputeAndInstall never change (only the local SetPortState reaction remains), as
 * in MRC deployments that run without dynamic routing.
 *
 * Distributed runs (MrcMpi): the search spans every registered switch, but a rank installs
 * only the tables of the switches it simulates (MrcMpi::IsLocal); another rank's switch
 * keeps an empty table. A switch's table is the same as in a one-process run.
 *
 * Route tables (attribute Tables). Aggregated: every switch gets range routes
 * (MrcEcmpForwarding::SetRangeRoutes) instead of one /128 route per host. Hosts cabled
 * to the same set of switches form a block; one breadth-first search per block gives
 * every other switch the same port group for the whole block, so a T0 holds one run
 * per host (its host ports) plus the runs of other hosts up (at most two: before and
 * after its own block in address order), a T1 of a Clos one run per T0, a fat-tree
 * core one run per pod (neighbouring blocks with the same group merge, when their
 * addresses follow each other). Route state per switch then grows with its ports and
 * not with the fabric's hosts, and the work of a recomputation with the number of
 * blocks times the links instead of the hosts times the links. PerHost: one /128
 * route per host on every switch (the tables before aggregation). Auto (default):
 * Aggregated when every block's addresses are one run of consecutive addresses (the
 * address plan of MrcTopology, any edge-list fabric whose hosts are numbered switch
 * by switch); otherwise PerHost, with a one-line notice on the standard error. Both
 * give every (switch, destination) the same ports in the same order, so ECMP picks
 * the same next hop.
 *
 * Deterministic: no randomness; ports in a group are in increasing order; hosts and
 * switches are processed in registration order.
 */
class MrcEcmpRouteManager : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcEcmpRouteManager();
    ~MrcEcmpRouteManager() override;

    /**
     * Register a switch. Aborts if called after ComputeAndInstall, or if a device is
     * already registered.
     * \param node the switch node (kept for reference)
     * \param engine its ECMP forwarding engine (null for a switch of another rank, a bare
     *        node in a lean build: ComputeAndInstall aborts if it would install its table)
     * \param ports its port devices: element i is port i (null for an unused index)
     * \return the switch index (registration order, from 0)
     */
    uint32_t AddSwitch(Ptr<Node> node,
                       Ptr<MrcEcmpForwarding> engine,
                       const std::vector<Ptr<MrcNetDevice>>& ports);

    /**
     * Register an MrcSwitchNode with its current ports (add the ports first). Its
     * forwarding strategy must be an MrcEcmpForwarding (aborts otherwise).
     * \param sw the switch
     * \return the switch index
     */
    uint32_t AddSwitch(Ptr<MrcSwitchNode> sw);

    /**
     * Register a host address reached through a switch port. The same address may be
     * given several times (a host cabled to several switches or ports). Aborts if
     * called after ComputeAndInstall.
     * \param address the host NIC's IPv6 address (routed as /128)
     * \param switchSidePort the switch's port device the NIC is cabled to (must belong
     *        to a registered switch by the time ComputeAndInstall runs)
     */
    void AddHost(Ipv6Address address, Ptr<MrcNetDevice> switchSidePort);

    /**
     * Register a host address cabled to a switch port that this rank does not build (a
     * host of another rank, MrcTopologyHelper::SetBuildRank): the attachment as data. The
     * control plane sees such a link up (failures of links of other ranks' hosts are not
     * followed: a run with failures builds every host). Aborts if called after
     * ComputeAndInstall.
     * \param address the host NIC's IPv6 address
     * \param sw the switch (registered by the time ComputeAndInstall runs)
     * \param port the switch's port number the NIC is cabled to
     */
    void AddHost(Ipv6Address address, Ptr<Node> sw, uint32_t port);

    /**
     * Register a link between two switches that this rank does not build (both ends live
     * on other ranks, MrcTopologyHelper::SetBuildRank): the link as data, found in the
     * same (switch, port) order as a built one, so the route search is that of a
     * one-process build. The control plane sees such a link up (a run with failures
     * builds every link). A link between a switch here and one of another rank, whose
     * far end is no registered device (an MrcRemotePort), is given the same way with its
     * channel, whose state the control plane then follows as for a built link. Aborts if
     * called after ComputeAndInstall.
     * \param a the switch at end A (registered by the time ComputeAndInstall runs)
     * \param portA its port number
     * \param b the switch at end B
     * \param portB its port number
     * \param channel the link's channel (a link to another rank), or null (a link of two
     *        other ranks' switches)
     */
    void AddSwitchLink(Ptr<Node> a,
                       uint32_t portA,
                       Ptr<Node> b,
                       uint32_t portB,
                       Ptr<MrcChannel> channel = nullptr);

    /**
     * Follow the state of a link given as data (AddHost with a port number, AddSwitchLink
     * without a channel): from now on the control plane sees the state of `channel` (a
     * channel without devices that stands for the link, MrcTopology::GetLinkState) and
     * reacts to its LinkStateChange as to a built link's. Aborts if ComputeAndInstall has
     * not run or no such link is known.
     * \param sw a switch at one end of the link (for a host link: its switch)
     * \param port that switch's port number of the link
     * \param channel the channel whose state is the link's
     */
    void FollowDataLink(Ptr<Node> sw, uint32_t port, Ptr<MrcChannel> channel);

    /**
     * Install only the tables of the switches of one rank (their system id), instead of
     * those MrcMpi::IsLocal names (a lean build, MrcTopologyHelper::SetBuildRank).
     * \param rank the rank
     */
    void SetBuildRank(uint32_t rank);

    /**
     * First call: discover the links from the port devices' channels, take their
     * current state as the control plane's view, subscribe to their LinkStateChange
     * traces, and install the routes. Later calls recompute and install from the
     * current view (without waiting for pending changes). Fires RoutesRecomputed.
     */
    void ComputeAndInstall();

    /// \return the number of registered switches
    uint32_t GetNSwitches() const;

    /// \return the number of links (switch-switch and host) found by ComputeAndInstall
    uint32_t GetNLinks() const;

    /// \return how many times routes were computed and installed
    uint64_t GetNRecomputations() const;

    /**
     * \return the routes added, changed or removed so far: /128 routes (PerHost) or
     *         range routes (Aggregated)
     */
    uint64_t GetNRouteChanges() const;

    /// Route tables (attribute Tables).
    enum Tables : uint8_t
    {
        TABLES_AUTO,       //!< Aggregated where the addresses allow, else PerHost
        TABLES_AGGREGATED, //!< range routes per block of hosts
        TABLES_PER_HOST    //!< one /128 route per host
    };

    /// \return true if ComputeAndInstall chose (or was told to use) range routes
    bool IsAggregated() const;

    /// \return true if link changes never reach the routes (Enabled=false or delay Time::Max)
    bool IsStatic() const;

    /**
     * Signature of the RoutesRecomputed trace.
     * \param now simulation time of the recomputation
     * \param switchCount number of switches whose routes were recomputed
     */
    typedef void (*RoutesRecomputedTracedCallback)(Time now, uint32_t switchCount);

  protected:
    void DoDispose() override;

  private:
    /// \param address a host address \return its index (a new one on first sight)
    uint32_t HostIndex(Ipv6Address address);

    /// A registered switch.
    struct Switch
    {
        Ptr<Node> node;                       //!< the node
        Ptr<MrcEcmpForwarding> engine;        //!< its forwarding engine
        std::vector<Ptr<MrcNetDevice>> ports; //!< port devices by index
    };

    /// A link the control plane knows about.
    struct Link
    {
        Ptr<MrcChannel> channel; //!< the channel (null: a host link of another rank)
        uint32_t swA;            //!< switch at end A
        uint32_t portA;          //!< its port
        bool toHost;             //!< true: end B is a host NIC
        uint32_t swB;            //!< switch at end B (switch links)
        uint32_t portB;          //!< its port (switch links)
        bool viewUp;             //!< the control plane's view of the state
    };

    /// Where a device sits: switch index and port.
    struct PortRef
    {
        uint32_t sw;   //!< switch index
        uint32_t port; //!< port index
    };

    /// Per switch: (port, neighbour) of its up switch links, by port.
    typedef std::vector<std::vector<std::pair<uint32_t, uint32_t>>> Adjacency;
    /// (switch, port) pairs, sorted.
    typedef std::vector<std::pair<uint32_t, uint32_t>> Attachments;

    /// Scratch of one breadth-first search (kept across searches to spare allocations).
    struct Search
    {
        std::vector<uint32_t> dist;               //!< hops to the nearest source switch
        std::vector<uint32_t> queue;              //!< visiting order
        std::vector<std::vector<uint32_t>> ports; //!< per switch: ports of shortest paths
    };

    void DiscoverLinks();
    /// Sort the hosts by address and choose the tables (Tables attribute, Auto rule).
    void ChooseTables();
    /// \return true if the hosts of each switch set are one run of consecutive addresses
    bool HostsAggregate() const;
    /// \param h a host \param upOnly only the links the view has up \return its attachments
    Attachments AttachmentsOf(uint32_t h, bool upOnly) const;
    /// \return the switch links the control plane sees up, per switch
    Adjacency UpAdjacency() const;
    /**
     * Shortest-path ports towards a set of attachments: s.ports[x] gets, for a switch x
     * at distance 0, its attachment ports, else its ports to neighbours one hop closer.
     * \param att the attachments (sorted) \param adj the up switch links
     * \param s the search scratch (filled)
     */
    void ShortestPathPorts(const Attachments& att, const Adjacency& adj, Search& s) const;
    /// Install one /128 route per host on every switch. \param adj the up switch links
    void InstallPerHostRoutes(const Adjacency& adj);
    /// Install range routes on every switch. \param adj the up switch links
    void InstallRangeRoutes(const Adjacency& adj);
    void Recompute();
    static void LinkStateTrace(Ptr<MrcEcmpRouteManager> self, uint32_t link, bool up);
    void ApplyLinkState(uint32_t link, bool up);

    bool m_enabled;            //!< Enabled attribute
    Time m_delay;              //!< ConvergenceDelay attribute
    Tables m_tables;           //!< Tables attribute
    bool m_installed{false};   //!< ComputeAndInstall ran
    bool m_aggregated{false};  //!< range routes in use
    std::vector<bool> m_local; //!< per switch: simulated by this rank (its table installed)

    std::vector<Switch> m_switches;                       //!< by index
    std::map<const MrcNetDevice*, PortRef> m_portOf;      //!< device -> switch port
    std::vector<Ipv6Address> m_hostAddrs;                 //!< distinct host addresses
    std::vector<std::vector<Ptr<MrcNetDevice>>> m_hostAt; //!< per address: switch ports
    /// per address: attachments without a device (switch node, port)
    std::vector<std::vector<std::pair<Ptr<Node>, uint32_t>>> m_hostAtData;
    /// switch links not built on this rank (AddSwitchLink): (A, portA, B, portB)
    std::vector<std::tuple<Ptr<Node>, uint32_t, Ptr<Node>, uint32_t, Ptr<MrcChannel>>>
        m_switchLinkData;
    int64_t m_buildRank{-1};                          //!< SetBuildRank (-1: MrcMpi::IsLocal)
    std::map<Ipv6Address, uint32_t> m_hostIndex;      //!< address -> index
    std::vector<Link> m_links;                        //!< discovered links
    std::vector<std::vector<uint32_t>> m_hostLinks;   //!< per address: link indices
    std::vector<uint32_t> m_byAddress;                //!< host indices in address order
    uint64_t m_recomputations{0};                     //!< recomputations
    uint64_t m_routeChanges{0};                       //!< routes added/changed/removed
    TracedCallback<Time, uint32_t> m_recomputedTrace; //!< RoutesRecomputed
};

} // namespace ns3

#endif /* MRC_ECMP_ROUTE_MANAGER_H */
