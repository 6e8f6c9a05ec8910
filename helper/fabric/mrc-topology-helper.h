/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TOPOLOGY_HELPER_H
#define MRC_TOPOLOGY_HELPER_H

#include "ns3/mrc-channel.h"
#include "ns3/mrc-link-helper.h"
#include "ns3/mrc-switch-helper.h"
#include "ns3/mrc-topology.h"
#include "ns3/object-factory.h"

#include <array>
#include <string>
#include <tuple>
#include <unordered_set>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * Builds multi-plane 2-tier Clos and k-ary fat-tree fabrics (MrcTopology) and fabrics
 * given as an edge list.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * One link of an MrcTopologyGraph (an edge between two node ids).
 */
struct MrcGraphLink
{
    uint32_t a{0}; //!< one end (node id)
    uint32_t b{0}; //!< the other end (node id)
    DataRate rate; //!< rate of both directions
    Time delay;    //!< propagation delay
};

/**
 * \ingroup mrc
 * A fabric given as an edge list (an HPCC/ConWeave topology file, an htsim fat tree):
 * nodes 0 .. isSwitch.size() - 1, each a host or a switch. Every host has exactly one
 * link, to a switch; switches may be joined in any way (parallel links too).
 */
struct MrcTopologyGraph
{
    std::vector<bool> isSwitch;      //!< per node id: a switch (else a host)
    std::vector<MrcGraphLink> links; //!< the links

    /**
     * Check the graph.
     * \param badLink set to the index of the offending link, or -1 when the problem is
     *        not one link's
     * \return "" or what is wrong (a host link to a host, a host with no or several
     *         links, a switch tier with more switches than the uSID index holds, ...)
     */
    std::string Validate(int64_t& badLink) const;

    /**
     * The default split over ranks (MrcTopologyHelper::SetGraphRanks): the switches of each
     * tier (tier as in MrcTopologyHelper::BuildGraph: 0 the switches with hosts, 1 one hop
     * from them, 2 the rest) in consecutive blocks of node id order, switch i of a tier of
     * n switches on rank i * ranks / n; a host on the rank of its switch (host links never
     * cross ranks). The graph must be valid (Validate).
     * \param ranks the number of ranks (1: every node on rank 0)
     *
eturn the rank of every node id
     */
    std::vector<uint32_t> DefaultRanks(uint32_t ranks) const;

    /**
     * Check a split over ranks.
     * \param ranks the number of ranks
     * \param nodeRank the rank of every node id (a host's must be its switch's)
     *
eturn "" or why the split cannot run: a rank out of range, a host on another rank
     *         than its switch, a rank without a host, a link between ranks with zero delay
     *         (ns-3's engines need a positive lookahead), two ranks without a link between
     *         them (notices of message ends travel on such links, MrcMpi::SendNotice)
     */
    std::string CheckRanks(uint32_t ranks, const std::vector<uint32_t>& nodeRank) const;

    /**
     * Read a rank map of this graph: one `NAME RANK` a line, NAME a switch's node id as the
     * topology file numbers it (an HPCC/ConWeave file's switch ids; an htsim .topo's hosts
     * are 0..Nodes-1, then ToRs, aggregation switches and cores in htsim's order), RANK
     * 0..ranks-1; `#` starts a comment, blank lines are skipped. Switches the file does not
     * name keep DefaultRanks'; every host goes with its switch. Refused, naming FILE:LINE:
     * a name that is not a node id of the graph, a host, a name given twice, a rank out of
     * range, a line that is not `NAME RANK`; and, naming the file, a split CheckRanks refuses.
     * \param path the file
     * \param ranks the number of ranks
     * \param nodeRank set to the rank of every node id
     *
eturn "" or what is wrong
     */
    std::string ReadRankMap(const std::string& path,
                            uint32_t ranks,
                            std::vector<uint32_t>& nodeRank) const;

    /**
     *
eturn the delay after which a split run applies a message's end on every rank
     *         (MrcScenarioRunner): the largest delay of a link between two switches, at
     *         least the lookahead of any split of the graph (the smallest delay of a link
     *         between ranks, and of the links between any two ranks), and the same for
     *         every split; a graph without such links: its first host link's delay
     */
    Time GetNoticeDelay() const;
};

/**
 * \ingroup mrc
 * Builds a fabric from an MrcTopologyConfig.
 *
 * \code
 *   MrcTopologyConfig c;
 *   c.planes = 8; c.hosts = 1024; c.hostsPerT0 = 32; c.t1PerPlane = 16;
 *   MrcTopologyHelper th(c);
 *   th.GetSwitchHelper(MrcTier::T0).SetSwitchAttribute("TrimmingEnabled", BooleanValue(true));
 *   th.SetRouteManagerAttribute("ConvergenceDelay", TimeValue(MilliSeconds(1)));
 *   Ptr<MrcTopology> topo = th.Build();
 *   Ptr<MrcNetDevice> nic = topo->GetNicPort(12, 3);
 *   std::vector<MrcPath> paths = topo->GetAllPaths(0, 12);
 * \endcode
 *
 * Build() creates, plane by plane: the switches of each tier with that tier's
 * MrcSwitchHelper (whose forwarding is replaced by an MrcDualForwarding: SRv6 static
 * table + ECMP with a per-switch Seed), the links of each tier with that tier's
 * MrcLinkHelper (DataRate and Delay from the configuration), the hosts' NIC ports
 * (host h's device p is its port on plane p), the SRv6 static tables (design of the
 * protocol reference, Q7), and one MrcEcmpRouteManager per plane that installs ECMP
 * routes to every NIC port of the plane (range routes per block of hosts by default:
 * state per switch in proportion to its ports). Nodes get ns-3 Names.
 */
class MrcTopologyHelper
{
  public:
    MrcTopologyHelper();
    /// \param config the shape
    explicit MrcTopologyHelper(const MrcTopologyConfig& config);

    /// \return the shape, to change before Build
    MrcTopologyConfig& GetConfig();
    /// \param config the shape
    void SetConfig(const MrcTopologyConfig& config);

    /**
     * \param tier a tier
     * \return the helper that creates that tier's switches (MMU, ECN, trimming, PFC
     *         attributes); its forwarding choice is ignored
     */
    MrcSwitchHelper& GetSwitchHelper(MrcTier tier);
    /**
     * \param tier a link tier
     * \return the helper that creates that tier's links (device and channel
     *         attributes; DataRate and Delay are overridden by the configuration)
     */
    MrcLinkHelper& GetLinkHelper(MrcLinkTier tier);
    /**
     * \param name attribute of ns3::MrcEcmpRouteManager (e.g. ConvergenceDelay)
     * \param value its value
     */
    void SetRouteManagerAttribute(std::string name, const AttributeValue& value);
    /// \param block the uSID locator block (default MrcUsidCarrier::DEFAULT_LOCATOR_BLOCK)
    void SetLocatorBlock(uint32_t block);
    /// \param seed added to every switch's ECMP Seed (switch id + seed; default 0)
    void SetEcmpSeed(uint64_t seed);
    /// \param names false: do not register ns-3 Names (default true)
    void SetNames(bool names);

    /**
     * Build the fabric. Aborts (NS_FATAL_ERROR) with MrcTopologyConfig::Validate's
     * message if the shape is invalid.
     * \return the fabric
     */
    Ptr<MrcTopology> Build();

    /**
     * Build a fabric from an edge list (MrcTopologyKind::GRAPH), replicated on
     * GetConfig().planes planes. Host i is the i-th host node id in ascending order;
     * every host has one NIC port per plane. A switch's tier is its hop distance from
     * the nearest switch with a host (0: T0; 1: T1; 2 or more, or no host reachable:
     * T2); within a plane and tier, switches are numbered in node id order (names
     * p<plane>-t<tier>-<index>, uSIDs as in Build). Link i of the graph in plane p is
     * topology link p * links.size() + i, with its own rate and delay (the tier's
     * MrcLinkHelper gives the other attributes). Every switch gets the SRv6 static
     * entries of its neighbours and host downlinks and ECMP routes over all shortest
     * paths (MrcEcmpRouteManager: range routes when each switch's hosts are numbered
     * consecutively, else /128 routes). The configuration's hostRate/hostDelay are
     * set to the first host link's, fabricRate/fabricDelay and coreRate/coreDelay to
     * the first switch-switch link's (profiles read them). Aborts with
     * MrcTopologyGraph::Validate's message on a bad graph.
     * \param graph the edge list
     * \return the fabric
     */
    Ptr<MrcTopology> BuildGraph(const MrcTopologyGraph& graph);

    /**
     * Split the fabric over ranks for a distributed run (MrcMpi): each node of Build gets
     * the system id of the rank that simulates it. Clos: T0 groups (a T0 of every plane
     * with its hosts) in consecutive blocks, T1s in blocks per plane; fat-tree: pods (T0s
     * and aggregation switches with their hosts) in consecutive blocks, cores in blocks
     * per plane. Host-T0 links never cross ranks; the T0-T1 (or T1-T2) delay is the
     * lookahead. 1 (the default): one rank. Graph fabrics (BuildGraph): MrcTopologyGraph's
     * DefaultRanks, or SetGraphRanks' split.
     * \param ranks the number of ranks
     */
    void SetRanks(uint32_t ranks);

    /**
     * Build only what lives on one rank of SetRanks' split (a distributed run: the rank of
     * this process, MrcMpi::GetRank). A host of another rank is an empty node (its system
     * id, its ns-3 Name, so that node ids stay those of every rank) with no NIC port, no
     * device and no channel: its host links are data (MrcTopologyLink::IsBuilt false, with
     * their ports, rate, delay and WireOverhead), the ECMP route manager knows its
     * attachment as data (MrcEcmpRouteManager::AddHost with a port number), and the
     * switch-side ports such a link would have had are counted but not made, so that every
     * device keeps the interface index and MAC address it has on its own rank. A link
     * between two switches of other ranks is data too (MrcEcmpRouteManager::AddSwitchLink).
     * A switch of another rank is a bare ns3::Node (its system id, its Name, its node id;
     * no forwarding, MMU, trimmer or port: MrcTopology::GetSwitchById is null, GetSwitchNode
     * the node), and a link between a switch here and one of another rank has its device
     * here and, at the far end, an MrcRemotePort that names the far device's node,
     * interface index and MAC address (what ns-3's MPI layer and the engines' lookahead
     * read; MrcLinkHelper::InstallToRank); the route manager knows the link by the far
     * end's (switch, port) and follows its channel. Paths, path RTTs, base RTTs and the tables of
     * this rank's switches are those of a one-process build. Default: every node is built
     * (MrcMpi::IsLocal decides what is simulated).
     * \param rank the rank whose nodes are built
     */
    void SetBuildRank(uint32_t rank);

    /**
     * Give BuildGraph a split of the graph's nodes over SetRanks' ranks (a user's rank map,
     * MrcTopologyGraph::ReadRankMap). Empty (the default): MrcTopologyGraph::DefaultRanks.
     * BuildGraph aborts on a split MrcTopologyGraph::CheckRanks refuses.
     * \param nodeRank the rank of every node id of the graph
     */
    void SetGraphRanks(const std::vector<uint32_t>& nodeRank);

    /**
     * \param config a fabric shape
     * \param ranks the number of ranks
     * \return an empty string if Build can split the shape over that many ranks, else why not
     */
    static std::string CheckRanks(const MrcTopologyConfig& config, uint32_t ranks);

    /**
     * \param t0 a T0 index (the same in every plane)
     * \return the rank of that T0's group (its T0s and their hosts)
     */
    uint32_t GetRankOfT0(uint32_t t0) const;

    /**
     * Replace SetRanks' partition by a given one (a user's rank map, ReadRankMap).
     * \param groups the rank of each T0 group (Clos: T0 index, its T0 in every plane with
     *        its hosts) or pod (fat-tree: its T0s and aggregation switches with their hosts)
     * \param tops the rank of each switch of the top tier (Clos: T1 index, fat-tree: core
     *        index), the same in every plane
     * Empty vectors: SetRanks' consecutive blocks. Check with CheckRankMap first.
     */
    void SetRankMap(const std::vector<uint32_t>& groups, const std::vector<uint32_t>& tops);

    /**
     * \param config a fabric shape (Clos or fat-tree)
     * \param ranks the number of ranks
     * \param groups the rank of each T0 group (pod) \param tops the rank of each top switch
     * \return an empty string if Build can split the shape so, else why not (a rank out of
     *         range, a rank without a T0 group or without a top switch)
     */
    static std::string CheckRankMap(const MrcTopologyConfig& config,
                                    uint32_t ranks,
                                    const std::vector<uint32_t>& groups,
                                    const std::vector<uint32_t>& tops);

    /**
     * Read a rank map file. One entry a line, `NAME RANK`: NAME is `t0-I` (the T0 group I:
     * T0 I of every plane with its hosts) or `t1-I` (T1 I of every plane) in a Clos fabric,
     * `pod-I` or `core-I` in a fat-tree; RANK is 0..ranks-1. `#` starts a comment; blank
     * lines are skipped. A group or switch the file does not name keeps the rank of
     * SetRanks' consecutive blocks. Refused, naming FILE:LINE: an unknown name (a host, a
     * switch of one plane, an index out of range), a name given twice, a rank out of
     * range, a line that is not `NAME RANK`; and, naming no line, a rank left without a
     * T0 group (pod) or a top switch (CheckRankMap).
     * \param path the file
     * \param config the fabric shape
     * \param ranks the number of ranks
     * \param groups set to the rank of each T0 group (pod)
     * \param tops set to the rank of each top switch
     * \return an empty string, or what is wrong
     */
    static std::string ReadRankMap(const std::string& path,
                                   const MrcTopologyConfig& config,
                                   uint32_t ranks,
                                   std::vector<uint32_t>& groups,
                                   std::vector<uint32_t>& tops);

  private:
    /// \param tier a switch tier \param i its index \return the rank of that switch
    uint32_t RankOfSwitch(uint32_t tier, uint32_t i) const;
    /// \return true if SetBuildRank leaves other ranks' hosts unbuilt in this build
    bool Lean() const;
    /// \param node a node \return true if its rank is the one built here (or it is local)
    bool IsHere(Ptr<Node> node) const;
    /**
     * Lean build: take the next port number of a switch as its own rank numbers it.
     * \param t the fabric \param sw the switch \return the port number
     */
    uint32_t NextPort(Ptr<MrcTopology> t, Ptr<Node> sw);
    /**
     * Join a host's NIC port on plane p to its T0, or record the link as data when the
     * host lives on another rank (Lean).
     * \param t the fabric \param p the plane \param h the host \param t0 its switch
     * \param lh the link helper (rate and delay set) \param rate the link's rate
     * \param delay its delay \return the T0's port number of the link
     */
    uint32_t ConnectHostLink(Ptr<MrcTopology> t,
                             uint32_t p,
                             uint32_t h,
                             Ptr<Node> t0,
                             MrcLinkHelper& lh,
                             DataRate rate,
                             Time delay);
    /**
     * Join two switches (MrcSwitchHelper::ConnectSwitches), with the interface indices of
     * their own ranks in a lean build, and add the topology link. In a lean build a link
     * whose two switches live on other ranks is not made: it is data (ports, rate, delay)
     * in the topology and in the route manager (MrcEcmpRouteManager::AddSwitchLink).
     * \param t the fabric \param p the plane \param lt the link tier \param lh the link
     * helper \param a end A \param b end B \param rate the link's rate \param delay its
     * delay
     * \return the port numbers on a and on b
     */
    std::pair<uint32_t, uint32_t> ConnectSwitchLink(Ptr<MrcTopology> t,
                                                    uint32_t p,
                                                    MrcLinkTier lt,
                                                    MrcLinkHelper& lh,
                                                    Ptr<Node> a,
                                                    Ptr<Node> b,
                                                    DataRate rate,
                                                    Time delay);
    /// \param t the fabric being built \param p a plane \param tier a tier \param i an index
    /// \return the switch's node at (p, tier, i) (a bare node: another rank's, lean build)
    static Ptr<Node> SwitchAt(Ptr<MrcTopology> t, uint32_t p, MrcTier tier, uint32_t i);
    /// Create the hosts (and their Names). \param t the fabric being built
    void CreateHosts(Ptr<MrcTopology> t);
    /// Create plane p's switches, tier by tier. \param t the fabric \param p the plane
    void CreatePlaneSwitches(Ptr<MrcTopology> t, uint32_t p);
    /**
     * Create one switch of plane p with its forwarding (SRv6 uSID + ECMP) and Names.
     * \param t the fabric \param p the plane \param tier its tier \param i its index in
     * the tier \return its switch id in the fabric
     */
    uint32_t AddSwitch(Ptr<MrcTopology> t, uint32_t p, uint32_t tier, uint32_t i);
    /// How a graph's vertices map to hosts and switches (defined in the .cc file).
    struct GraphIndex;
    /**
     * Create plane p of a graph fabric: its switches, then its links in graph order.
     * \param t the fabric \param p the plane \param graph the edge list
     * \param g the vertex index \return the largest number of host downlinks of a switch
     */
    uint32_t BuildGraphPlane(Ptr<MrcTopology> t,
                             uint32_t p,
                             const MrcTopologyGraph& graph,
                             GraphIndex& g);
    /// Join plane p's hosts to their T0s. \param t the fabric \param p the plane
    void ConnectPlaneHosts(Ptr<MrcTopology> t, uint32_t p);
    /// Join plane p's switches (Clos or fat-tree wiring). \param t the fabric \param p the plane
    void ConnectPlaneSwitches(Ptr<MrcTopology> t, uint32_t p);
    /**
     * Join two switches of plane p; installs the static SRv6 entries when it is the first
     * link between them.
     * \param t the fabric \param p the plane \param lt the link tier
     * \param ta tier of a \param ia index of a \param tb tier of b \param ib index of b
     */
    void JoinSwitches(Ptr<MrcTopology> t,
                      uint32_t p,
                      MrcLinkTier lt,
                      MrcTier ta,
                      uint32_t ia,
                      MrcTier tb,
                      uint32_t ib);
    /// Create plane p's ECMP route manager and install its routes. \param t the fabric \param p
    void InstallPlaneEcmp(Ptr<MrcTopology> t, uint32_t p);
    /**
     * \param a a switch \param b another switch
     * \return true the first time it is asked for the pair (in either order) in a build
     */
    bool FirstLinkBetween(Ptr<Node> a, Ptr<Node> b);

    MrcTopologyConfig m_config;                                //!< the shape
    std::array<MrcSwitchHelper, MRC_N_TIERS> m_switch;         //!< per tier
    std::array<MrcLinkHelper, MRC_N_LINK_TIERS> m_link;        //!< per link tier
    ObjectFactory m_manager;                                   //!< route managers
    uint32_t m_locator{MrcUsidCarrier::DEFAULT_LOCATOR_BLOCK}; //!< locator block
    uint64_t m_seed{0};                                        //!< ECMP seed offset
    bool m_names{true};                                        //!< register Names
    uint32_t m_ranks{1};                                       //!< ranks (SetRanks)
    int64_t m_buildRank{-1};                                   //!< SetBuildRank (-1: all)
    std::vector<uint32_t> m_portCount; //!< lean build: per switch id, its ports on its rank
    /// lean build: per switch id, the port number (on its rank) of each port made here
    std::vector<std::vector<uint32_t>> m_portNumber;
    std::vector<uint32_t> m_groupRank;     //!< rank of each T0 group or pod (empty: blocks)
    std::vector<uint32_t> m_topRank;       //!< rank of each top-tier switch (empty: blocks)
    std::unordered_set<uint64_t> m_joined; //!< switch pairs (node ids) joined in this build
    /// lean build: the current plane's switch links with an end not built here (A, portA,
    /// B, portB, the channel of a link to another rank or null for one of two other ranks)
    std::vector<std::tuple<Ptr<Node>, uint32_t, Ptr<Node>, uint32_t, Ptr<MrcChannel>>>
        m_unbuiltSwitchLinks;

    std::vector<uint32_t> m_graphRank; //!< graph fabric: rank of each node id (SetGraphRanks)
    /// graph fabric being built: rank of each switch by (tier, index in tier); empty otherwise
    std::array<std::vector<uint32_t>, MRC_N_TIERS> m_graphTierRank;
    std::vector<uint32_t> m_graphHostRank; //!< graph fabric being built: rank of each host
};

} // namespace ns3

#endif /* MRC_TOPOLOGY_HELPER_H */
