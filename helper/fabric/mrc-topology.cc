/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-topology.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mrc-channel.h"
#include "ns3/mrc-dual-forwarding.h"
#include "ns3/names.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/filtered_graph.hpp>
#include <boost/graph/visitors.hpp>
#include <functional>
#include <iomanip>
#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcTopology");

NS_OBJECT_ENSURE_REGISTERED(MrcTopology);

const char*
MrcTopologyKindName(MrcTopologyKind kind)
{
    switch (kind)
    {
    case MrcTopologyKind::CLOS:
        return "clos";
    case MrcTopologyKind::FAT_TREE:
        return "fattree";
    case MrcTopologyKind::GRAPH:
        return "graph";
    }
    return "?";
}

const char*
MrcLinkTierName(MrcLinkTier tier)
{
    switch (tier)
    {
    case MrcLinkTier::HOST:
        return "host";
    case MrcLinkTier::T0_T1:
        return "t0-t1";
    case MrcLinkTier::T1_T2:
        return "t1-t2";
    }
    return "?";
}

// ---------------------------------------------------------------------------
// MrcTopologyConfig

uint32_t
MrcTopologyConfig::GetHostsPerT0() const
{
    if (kind == MrcTopologyKind::FAT_TREE && hostsPerT0 == 0)
    {
        return k / 2;
    }
    return hostsPerT0;
}

uint32_t
MrcTopologyConfig::GetHosts() const
{
    if (kind == MrcTopologyKind::FAT_TREE && hosts == 0)
    {
        return k * (k / 2) * GetHostsPerT0();
    }
    return hosts;
}

uint32_t
MrcTopologyConfig::GetT0PerPlane() const
{
    if (kind == MrcTopologyKind::FAT_TREE)
    {
        return k * (k / 2);
    }
    return hostsPerT0 == 0 ? 0 : hosts / hostsPerT0;
}

uint32_t
MrcTopologyConfig::GetT1PerPlane() const
{
    return kind == MrcTopologyKind::FAT_TREE ? k * (k / 2) : t1PerPlane;
}

uint32_t
MrcTopologyConfig::GetT2PerPlane() const
{
    return kind == MrcTopologyKind::FAT_TREE ? (k / 2) * (k / 2) : 0;
}

uint32_t
MrcTopologyConfig::GetUplinksPerT0() const
{
    if (kind == MrcTopologyKind::FAT_TREE)
    {
        return k / 2;
    }
    return uplinksPerT0 == 0 ? t1PerPlane : uplinksPerT0;
}

double
MrcTopologyConfig::GetOversubscription() const
{
    const double up = double(GetUplinksPerT0()) * double(fabricRate.GetBitRate());
    return up == 0 ? 0.0 : double(GetHostsPerT0()) * double(hostRate.GetBitRate()) / up;
}

namespace
{

/// The problems found in a fabric's shape, joined by "; ".
class ShapeProblems
{
  public:
    /// \param s one problem
    void Add(const std::string& s)
    {
        m_text << (m_text.tellp() > 0 ? "; " : "") << s;
    }

    /// \return all problems ("" for none)
    std::string Text() const
    {
        return m_text.str();
    }

  private:
    std::ostringstream m_text; //!< the problems so far
};

/// The checks of a 2-tier Clos shape. \param c the shape \param problems where to add
void
ValidateClos(const MrcTopologyConfig& c, ShapeProblems& problems)
{
    if (c.hostsPerT0 == 0)
    {
        problems.Add("hostsPerT0=0: at least 1 host per T0 is needed");
    }
    else if (c.hostsPerT0 > MRC_USID_MAX_INDEX)
    {
        problems.Add("hostsPerT0=" + std::to_string(c.hostsPerT0) +
                     ": more downlinks than the 10-bit " + "uSID index holds (at most " +
                     std::to_string(MRC_USID_MAX_INDEX) + ")");
    }
    if (c.hosts == 0)
    {
        problems.Add("hosts=0: at least 1 host is needed");
    }
    else if (c.hostsPerT0 != 0 && c.hosts % c.hostsPerT0 != 0)
    {
        problems.Add("hosts=" + std::to_string(c.hosts) +
                     " is not a multiple of hostsPerT0=" + std::to_string(c.hostsPerT0));
    }
    else if (c.hostsPerT0 != 0 && c.hosts / c.hostsPerT0 > MRC_USID_MAX_INDEX)
    {
        problems.Add("hosts=" + std::to_string(c.hosts) +
                     " / hostsPerT0=" + std::to_string(c.hostsPerT0) + " gives " +
                     std::to_string(c.hosts / c.hostsPerT0) +
                     " T0 per plane, more than the 10-bit uSID index holds (" +
                     std::to_string(MRC_USID_MAX_INDEX) + ")");
    }
    if (c.t1PerPlane == 0)
    {
        problems.Add("t1PerPlane=0: at least 1 T1 per plane is needed");
    }
    else if (c.t1PerPlane > MRC_USID_MAX_INDEX)
    {
        problems.Add("t1PerPlane=" + std::to_string(c.t1PerPlane) +
                     ": more T1 than the 10-bit uSID index holds (at most " +
                     std::to_string(MRC_USID_MAX_INDEX) + ")");
    }
    else if (c.uplinksPerT0 % c.t1PerPlane != 0)
    {
        problems.Add("uplinksPerT0=" + std::to_string(c.uplinksPerT0) +
                     " is not a multiple of t1PerPlane=" + std::to_string(c.t1PerPlane) +
                     " (every T0 has the same number of links to every T1; 0 = t1PerPlane)");
    }
}

/// The checks of a fat-tree shape. \param c the shape \param problems where to add
void
ValidateFatTree(const MrcTopologyConfig& c, ShapeProblems& problems)
{
    if (c.k < 2 || c.k % 2 != 0)
    {
        problems.Add("k=" + std::to_string(c.k) +
                     ": the fat-tree arity must be even and at least 2");
    }
    else if (c.k * (c.k / 2) > MRC_USID_MAX_INDEX)
    {
        problems.Add("k=" + std::to_string(c.k) + " gives " + std::to_string(c.k * (c.k / 2)) +
                     " T0 per plane, more than the 10-bit uSID index holds (" +
                     std::to_string(MRC_USID_MAX_INDEX) + "): k <= 44");
    }
    else
    {
        const uint32_t hpt = c.GetHostsPerT0();
        if (hpt == 0 || hpt > MRC_USID_MAX_INDEX)
        {
            problems.Add("hostsPerT0=" + std::to_string(c.hostsPerT0) + ": must be 1.." +
                         std::to_string(MRC_USID_MAX_INDEX) + " (0 = k/2)");
        }
        else if (c.hosts != 0 && c.hosts != c.k * (c.k / 2) * hpt)
        {
            problems.Add(
                "hosts=" + std::to_string(c.hosts) + " does not fill a k=" + std::to_string(c.k) +
                " fat-tree with hostsPerT0=" + std::to_string(hpt) + ": it has k*k/2*" +
                "hostsPerT0 = " + std::to_string(c.k * (c.k / 2) * hpt) + " hosts (0 = that)");
        }
    }
    if (c.uplinksPerT0 != 0 && c.uplinksPerT0 != c.k / 2)
    {
        problems.Add("uplinksPerT0=" + std::to_string(c.uplinksPerT0) +
                     ": a fat-tree ToR has k/2 uplinks (leave it 0)");
    }
}

/// The checks of rates, delays and the MTU. \param c the shape \param problems where to add
void
ValidateLinks(const MrcTopologyConfig& c, ShapeProblems& problems)
{
    if (c.hostRate.GetBitRate() == 0)
    {
        problems.Add("hostRate=0: a link rate must be positive");
    }
    if (c.fabricRate.GetBitRate() == 0)
    {
        problems.Add("fabricRate=0: a link rate must be positive");
    }
    if (c.kind == MrcTopologyKind::FAT_TREE && c.coreRate.GetBitRate() == 0)
    {
        problems.Add("coreRate=0: a link rate must be positive");
    }
    for (const auto& [name, t] : {std::pair<const char*, Time>{"hostLinkDelay", c.hostDelay},
                                  {"linkDelay", c.fabricDelay},
                                  {"coreLinkDelay", c.coreDelay}})
    {
        if (t.IsStrictlyNegative())
        {
            problems.Add(std::string(name) + "=" + std::to_string(t.GetNanoSeconds()) +
                         "ns: a delay cannot be negative");
        }
    }
    if (c.mtu == 0)
    {
        problems.Add("mtu=0: the MTU must be positive");
    }
}

} // namespace

std::string
MrcTopologyConfig::Validate() const
{
    ShapeProblems problems;
    if (planes == 0)
    {
        problems.Add("planes=0: at least 1 plane is needed");
    }
    else if (planes > MRC_USID_MAX_PLANES)
    {
        problems.Add("planes=" + std::to_string(planes) + ": the uSID plane field holds at most " +
                     std::to_string(MRC_USID_MAX_PLANES) + " planes");
    }
    if (kind == MrcTopologyKind::CLOS)
    {
        ValidateClos(*this, problems);
    }
    else
    {
        ValidateFatTree(*this, problems);
    }
    ValidateLinks(*this, problems);
    return problems.Text();
}

// ---------------------------------------------------------------------------
// Graph

/// Edge property: the link id.
struct MrcTopologyEdge
{
    uint32_t link{0}; //!< link id
};

/// The fabric as an undirected Boost graph: vertex per switch, then per NIC port.
struct MrcTopology::Graph
{
    /// The Boost graph type.
    using G = boost::adjacency_list<boost::vecS,
                                    boost::vecS,
                                    boost::undirectedS,
                                    boost::no_property,
                                    MrcTopologyEdge>;
    G g;                                                        //!< the graph
    std::unordered_map<uint32_t, std::vector<uint32_t>> distTo; //!< BFS hops to a switch
};

namespace
{

/// Edge filter of the Boost graph: links whose channel is up.
struct LinkUpFilter
{
    const std::vector<MrcTopologyLink>* links{nullptr}; //!< the links

    /// \return true if the edge's link is up
    template <typename E>
    bool operator()(const E& e) const
    {
        const MrcTopologyLink& l = (*links)[(*g)[e].link];
        return l.IsUp(); // (another rank's link: its state here)
    }

    const boost::adjacency_list<boost::vecS,
                                boost::vecS,
                                boost::undirectedS,
                                boost::no_property,
                                MrcTopologyEdge>* g{nullptr}; //!< the graph
};

/// BFS hop distances from a vertex.
template <typename Graph>
std::vector<uint32_t>
Distances(const Graph& g, std::size_t nVertices, std::size_t from)
{
    std::vector<uint32_t> dist(nVertices, std::numeric_limits<uint32_t>::max());
    dist[from] = 0;
    boost::breadth_first_search(
        g,
        static_cast<typename boost::graph_traits<Graph>::vertex_descriptor>(from),
        boost::visitor(boost::make_bfs_visitor(boost::record_distances(
            boost::make_iterator_property_map(dist.begin(), boost::get(boost::vertex_index, g)),
            boost::on_tree_edge()))));
    return dist;
}

} // namespace

// ---------------------------------------------------------------------------
// MrcTopology

TypeId
MrcTopology::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcTopology")
                            .SetParent<Object>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcTopology>();
    return tid;
}

MrcTopology::MrcTopology()
{
    NS_LOG_FUNCTION(this);
}

MrcTopology::~MrcTopology()
{
    NS_LOG_FUNCTION(this);
}

void
MrcTopology::DoDispose()
{
    m_hosts = NodeContainer();
    m_switches.clear();
    m_switchNodes.clear();
    for (auto& l : m_links)
    {
        if (l.state)
        {
            l.state->Dispose();
        }
    }
    m_links.clear();
    m_linksOfNode.clear();
    m_managers.clear();
    m_graph.reset();
    Object::DoDispose();
}

const MrcTopologyConfig&
MrcTopology::GetConfig() const
{
    return m_config;
}

MrcTopologyKind
MrcTopology::GetKind() const
{
    return m_config.kind;
}

uint32_t
MrcTopology::GetNPlanes() const
{
    return m_config.planes;
}

uint32_t
MrcTopology::GetNHosts() const
{
    return m_hosts.GetN();
}

uint32_t
MrcTopology::GetNSwitchesPerPlane(MrcTier tier) const
{
    if (m_config.kind == MrcTopologyKind::GRAPH)
    {
        return m_tierCount.at(static_cast<uint32_t>(tier));
    }
    switch (tier)
    {
    case MrcTier::T0:
        return m_config.GetT0PerPlane();
    case MrcTier::T1:
        return m_config.GetT1PerPlane();
    case MrcTier::T2:
        return m_config.GetT2PerPlane();
    }
    return 0;
}

uint32_t
MrcTopology::GetNSwitches() const
{
    return static_cast<uint32_t>(m_switches.size());
}

uint32_t
MrcTopology::GetNLinks() const
{
    return static_cast<uint32_t>(m_links.size());
}

uint32_t
MrcTopology::GetNLinks(MrcLinkTier tier) const
{
    return static_cast<uint32_t>(
        std::count_if(m_links.begin(), m_links.end(), [tier](const MrcTopologyLink& l) {
            return l.tier == tier;
        }));
}

uint32_t
MrcTopology::GetLocatorBlock() const
{
    return m_locator;
}

void
MrcTopology::CheckHost(uint32_t host, const char* what) const
{
    NS_ABORT_MSG_IF(host >= m_hosts.GetN(),
                    "MrcTopology::" << what << ": host " << host << " does not exist (0.."
                                    << m_hosts.GetN() - 1 << ")");
}

void
MrcTopology::CheckPlane(uint32_t plane, const char* what) const
{
    NS_ABORT_MSG_IF(plane >= m_config.planes,
                    "MrcTopology::" << what << ": plane " << plane << " does not exist (0.."
                                    << m_config.planes - 1 << ")");
}

Ptr<Node>
MrcTopology::GetHost(uint32_t host) const
{
    CheckHost(host, "GetHost");
    return m_hosts.Get(host);
}

NodeContainer
MrcTopology::GetHosts() const
{
    return m_hosts;
}

Ptr<MrcNetDevice>
MrcTopology::GetNicPort(uint32_t host, uint32_t plane) const
{
    CheckHost(host, "GetNicPort");
    CheckPlane(plane, "GetNicPort");
    return m_links[m_hostLink[host * m_config.planes + plane]].devA;
}

Ipv6Address
MrcTopology::GetAddress(uint32_t host, uint32_t plane) const
{
    CheckHost(host, "GetAddress");
    CheckPlane(plane, "GetAddress");
    uint8_t b[16] = {0xfd, 0x00};
    b[6] = static_cast<uint8_t>((plane + 1) >> 8);
    b[7] = static_cast<uint8_t>(plane + 1);
    const uint64_t iid = uint64_t(host) + 1;
    for (int i = 0; i < 8; ++i)
    {
        b[15 - i] = static_cast<uint8_t>(iid >> (8 * i));
    }
    return Ipv6Address(b);
}

bool
MrcTopology::FindNicPort(const Ipv6Address& address, uint32_t& host, uint32_t& plane) const
{
    uint8_t b[16];
    address.GetBytes(b);
    if (b[0] != 0xfd || b[1] != 0 || b[2] != 0 || b[3] != 0 || b[4] != 0 || b[5] != 0)
    {
        return false;
    }
    const uint32_t p = (uint32_t(b[6]) << 8 | b[7]);
    uint64_t iid = 0;
    for (int i = 8; i < 16; ++i)
    {
        iid = (iid << 8) | b[i];
    }
    if (p == 0 || p > m_config.planes || iid == 0 || iid > m_hosts.GetN())
    {
        return false;
    }
    host = static_cast<uint32_t>(iid - 1);
    plane = p - 1;
    return true;
}

int32_t
MrcTopology::FindHost(Ptr<const Node> node) const
{
    if (!node)
    {
        return -1;
    }
    auto it = m_hostOfNode.find(node->GetId());
    return it == m_hostOfNode.end() ? -1 : static_cast<int32_t>(it->second);
}

uint32_t
MrcTopology::GetT0Of(uint32_t host) const
{
    CheckHost(host, "GetT0Of");
    if (m_config.kind == MrcTopologyKind::GRAPH)
    {
        return m_hostT0[host];
    }
    return host / m_config.GetHostsPerT0();
}

uint32_t
MrcTopology::GetDownlinkOf(uint32_t host) const
{
    CheckHost(host, "GetDownlinkOf");
    if (m_config.kind == MrcTopologyKind::GRAPH)
    {
        return m_hostDownlink[host];
    }
    return host % m_config.GetHostsPerT0();
}

uint16_t
MrcTopology::GetDownlinkUsid(uint32_t plane, uint32_t downlink) const
{
    CheckPlane(plane, "GetDownlinkUsid");
    return MrcMakeUsid(plane, MrcUsidType::HOST_DOWNLINK, downlink);
}

uint32_t
MrcTopology::GetSwitchId(uint32_t plane, MrcTier tier, uint32_t index) const
{
    CheckPlane(plane, "GetSwitch");
    const uint32_t n = GetNSwitchesPerPlane(tier);
    NS_ABORT_MSG_IF(index >= n,
                    "MrcTopology::GetSwitch: index "
                        << index << " of tier T" << static_cast<int>(tier) << " is not below " << n
                        << " (switches of that tier per plane)");
    return m_firstSwitch[plane * MRC_N_TIERS + static_cast<uint32_t>(tier)] + index;
}

Ptr<MrcSwitchNode>
MrcTopology::GetSwitch(uint32_t plane, MrcTier tier, uint32_t index) const
{
    return m_switches[GetSwitchId(plane, tier, index)];
}

Ptr<MrcSwitchNode>
MrcTopology::GetSwitchById(uint32_t id) const
{
    NS_ABORT_MSG_IF(id >= m_switches.size(),
                    "MrcTopology::GetSwitchById: id " << id << " is not below "
                                                      << m_switches.size());
    return m_switches[id];
}

bool
MrcTopologyLink::IsUp() const
{
    if (channel)
    {
        return channel->IsLinkUp();
    }
    return !state || state->IsLinkUp();
}

DataRate
MrcTopologyLink::GetRate() const
{
    if (devA)
    {
        return devA->GetDataRate();
    }
    return devB ? devB->GetDataRate() : rate;
}

Ptr<MrcChannel>
MrcTopology::GetLinkState(uint32_t id)
{
    NS_ABORT_MSG_IF(id >= m_links.size(),
                    "MrcTopology::GetLinkState: link " << id << " is not below " << m_links.size());
    MrcTopologyLink& l = m_links[id];
    if (l.channel)
    {
        return l.channel;
    }
    if (!l.state)
    {
        l.state = CreateObject<MrcChannel>();
        l.state->SetDelay(l.delay);
        if (l.plane < m_managers.size())
        {
            // (a host link's switch is end B; a switch link is known by its end A)
            const bool host = l.tier == MrcLinkTier::HOST;
            m_managers[l.plane]->FollowDataLink(host ? l.nodeB : l.nodeA,
                                                host ? l.portB : l.portA,
                                                l.state);
        }
    }
    return l.state;
}

std::string
MrcTopology::GetPortName(uint32_t id, bool endA) const
{
    const MrcTopologyLink& l = GetLink(id);
    Ptr<Node> n = endA ? l.nodeA : l.nodeB;
    std::string name = Names::FindName(n);
    if (name.empty())
    {
        name = "node" + std::to_string(n->GetId());
    }
    return name + ":" + std::to_string(endA ? l.portA : l.portB);
}

std::string
MrcTopology::GetLinkName(uint32_t id) const
{
    const MrcTopologyLink& l = GetLink(id);
    const std::string a = GetPortName(id, true);
    const std::string b = GetPortName(id, false);
    // the channel's device order: a switch link from its lower end, a host link from its
    // switch (MrcSwitchHelper::ConnectHost installs the switch's device first)
    return l.tier == MrcLinkTier::HOST ? b + "-" + a : a + "-" + b;
}

Ptr<Node>
MrcTopology::GetSwitchNode(uint32_t id) const
{
    NS_ABORT_MSG_IF(id >= m_switchNodes.size(),
                    "MrcTopology::GetSwitchNode: id " << id << " is not below "
                                                      << m_switchNodes.size());
    return m_switchNodes[id];
}

uint16_t
MrcTopology::GetUsid(uint32_t id) const
{
    NS_ABORT_MSG_IF(id >= m_usids.size(),
                    "MrcTopology::GetUsid: id " << id << " is not below " << m_usids.size());
    return m_usids[id];
}

uint16_t
MrcTopology::GetUsid(uint32_t plane, MrcTier tier, uint32_t index) const
{
    return m_usids[GetSwitchId(plane, tier, index)];
}

void
MrcTopology::DescribeSwitch(uint32_t id, uint32_t& plane, MrcTier& tier, uint32_t& index) const
{
    GetSwitchById(id);
    plane = m_switchPlane[id];
    tier = m_switchTier[id];
    index = m_switchIndex[id];
}

int32_t
MrcTopology::FindSwitchId(Ptr<const Node> node) const
{
    if (!node)
    {
        return -1;
    }
    auto it = m_switchOfNode.find(node->GetId());
    return it == m_switchOfNode.end() ? -1 : static_cast<int32_t>(it->second);
}

Ptr<MrcEcmpRouteManager>
MrcTopology::GetRouteManager(uint32_t plane) const
{
    CheckPlane(plane, "GetRouteManager");
    return m_managers[plane];
}

const MrcTopologyLink&
MrcTopology::GetLink(uint32_t id) const
{
    NS_ABORT_MSG_IF(id >= m_links.size(),
                    "MrcTopology::GetLink: link " << id << " is not below " << m_links.size());
    return m_links[id];
}

std::vector<uint32_t>
MrcTopology::GetLinksOf(Ptr<const Node> node) const
{
    if (!node)
    {
        return {};
    }
    auto it = m_linksOfNode.find(node->GetId());
    return it == m_linksOfNode.end() ? std::vector<uint32_t>{} : it->second;
}

std::vector<uint32_t>
MrcTopology::GetLinksBetween(Ptr<const Node> a, Ptr<const Node> b) const
{
    std::vector<uint32_t> out;
    if (!a || !b)
    {
        return out;
    }
    for (uint32_t l : GetLinksOf(a))
    {
        const MrcTopologyLink& link = m_links[l];
        if ((link.nodeA == a && link.nodeB == b) || (link.nodeA == b && link.nodeB == a))
        {
            out.push_back(l);
        }
    }
    return out;
}

const MrcTopologyLink&
MrcTopology::GetLink(Ptr<const Node> a, Ptr<const Node> b) const
{
    std::vector<uint32_t> ls = GetLinksBetween(a, b);
    NS_ABORT_MSG_IF(ls.empty(),
                    "MrcTopology::GetLink: no link between node "
                        << (a ? a->GetId() : 0) << " and node " << (b ? b->GetId() : 0));
    return m_links[ls.front()];
}

uint32_t
MrcTopology::GetHostLink(uint32_t host, uint32_t plane) const
{
    CheckHost(host, "GetHostLink");
    CheckPlane(plane, "GetHostLink");
    return m_hostLink[host * m_config.planes + plane];
}

uint32_t
MrcTopology::AddLink(uint32_t plane,
                     MrcLinkTier tier,
                     Ptr<Node> a,
                     Ptr<Node> b,
                     Ptr<MrcNetDevice> devA,
                     Ptr<MrcNetDevice> devB,
                     uint32_t portA,
                     uint32_t portB)
{
    // (a link to another rank has one device here: the far end is an MrcRemotePort)
    Ptr<MrcNetDevice> here = devA ? devA : devB;
    NS_ABORT_MSG_IF(!here, "MrcTopology::AddLink: a built link needs a device here");
    Ptr<MrcChannel> channel = here->GetMrcChannel();
    uint32_t wireOverhead = 0; // both devices here: read from them
    if (!devA || !devB)
    {
        UintegerValue overhead; // for the far end (built alike on its rank)
        here->GetAttribute("WireOverhead", overhead);
        wireOverhead = static_cast<uint32_t>(overhead.Get());
    }
    const uint32_t id = AddUnbuiltLink(plane,
                                       tier,
                                       a,
                                       b,
                                       portA,
                                       portB,
                                       here->GetDataRate(),
                                       channel->GetDelay(),
                                       wireOverhead);
    MrcTopologyLink& l = m_links[id];
    l.devA = devA;
    l.devB = devB;
    l.channel = channel;
    return id;
}

uint32_t
MrcTopology::AddUnbuiltLink(uint32_t plane,
                            MrcLinkTier tier,
                            Ptr<Node> a,
                            Ptr<Node> b,
                            uint32_t portA,
                            uint32_t portB,
                            DataRate rate,
                            Time delay,
                            uint32_t wireOverhead)
{
    MrcTopologyLink l;
    l.id = static_cast<uint32_t>(m_links.size());
    l.plane = plane;
    l.tier = tier;
    l.nodeA = a;
    l.nodeB = b;
    l.portA = portA;
    l.portB = portB;
    l.rate = rate;
    l.delay = delay;
    l.wireOverhead = wireOverhead;
    m_links.push_back(l);
    m_linksOfNode[a->GetId()].push_back(l.id);
    m_linksOfNode[b->GetId()].push_back(l.id);
    return l.id;
}

uint32_t
MrcTopology::NicVertex(uint32_t host, uint32_t plane) const
{
    return static_cast<uint32_t>(m_switches.size()) + host * m_config.planes + plane;
}

void
MrcTopology::BuildGraph()
{
    if (m_graph)
    {
        return;
    }
    auto graph = std::make_shared<Graph>();
    const std::size_t nV = m_switches.size() + std::size_t(m_hosts.GetN()) * m_config.planes;
    graph->g = Graph::G(nV);
    for (const MrcTopologyLink& l : m_links)
    {
        uint32_t va;
        if (l.tier == MrcLinkTier::HOST)
        {
            va = NicVertex(static_cast<uint32_t>(m_hostOfNode.at(l.nodeA->GetId())), l.plane);
        }
        else
        {
            va = m_switchOfNode.at(l.nodeA->GetId());
        }
        const uint32_t vb = m_switchOfNode.at(l.nodeB->GetId());
        boost::add_edge(va, vb, MrcTopologyEdge{l.id}, graph->g);
    }
    m_graph = graph;
}

std::vector<MrcPath>
MrcTopology::GetPaths(uint32_t srcHost, uint32_t dstHost, uint32_t plane) const
{
    CheckHost(srcHost, "GetPaths");
    CheckHost(dstHost, "GetPaths");
    CheckPlane(plane, "GetPaths");
    std::vector<MrcPath> paths;
    if (srcHost == dstHost)
    {
        return paths;
    }
    const_cast<MrcTopology*>(this)->BuildGraph();
    const Graph::G& g = m_graph->g;
    // A NIC port is a leaf of the graph: every path runs from the source's T0 to the
    // destination's T0. BFS distances to a T0 are computed once and cached, so that a
    // pair costs only its own paths.
    const uint32_t srcLink = GetHostLink(srcHost, plane);
    const uint32_t dstLink = GetHostLink(dstHost, plane);
    const uint32_t srcT0 = m_switchOfNode.at(m_links[srcLink].nodeB->GetId());
    const uint32_t dstT0 = m_switchOfNode.at(m_links[dstLink].nodeB->GetId());
    auto cached = m_graph->distTo.find(dstT0);
    if (cached == m_graph->distTo.end())
    {
        cached = m_graph->distTo.emplace(dstT0, Distances(g, boost::num_vertices(g), dstT0)).first;
    }
    const std::vector<uint32_t>& dist = cached->second;
    if (dist[srcT0] == std::numeric_limits<uint32_t>::max())
    {
        return paths;
    }
    const uint16_t downlink = GetDownlinkUsid(plane, GetDownlinkOf(dstHost));
    const uint32_t nSwitches = static_cast<uint32_t>(m_switches.size());

    // Depth-first walk down the BFS distances: every shortest switch sequence once
    // (parallel links collapse to the lowest link id, the one the static tables use).
    std::vector<uint32_t> switches{srcT0};
    std::vector<uint32_t> links{srcLink};
    std::function<void(uint32_t)> walk = [&](uint32_t v) {
        if (v == dstT0)
        {
            MrcPath p;
            p.plane = plane;
            p.srcHost = srcHost;
            p.dstHost = dstHost;
            p.switches = switches;
            for (uint32_t sw : switches)
            {
                p.usids.push_back(m_usids[sw]);
            }
            p.usids.push_back(downlink);
            // A graph may have longer paths than a carrier holds: such a path keeps its
            // switches and links but no carrier (an all-zero one), so ECMP users still see it.
            const bool fits = p.usids.size() <= MrcUsidCarrier::MAX_USIDS;
            NS_ABORT_MSG_IF(!fits && m_config.kind != MrcTopologyKind::GRAPH,
                            "MrcTopology::GetPaths: a path of " << p.usids.size()
                                                                << " uSIDs does not fit a carrier");
            if (fits)
            {
                p.carrier = MrcUsidCarrier(m_locator,
                                           p.usids.data(),
                                           static_cast<uint32_t>(p.usids.size()));
            }
            p.links = links;
            p.links.push_back(dstLink);
            paths.push_back(std::move(p));
            return;
        }
        // next switches one hop closer, lowest link per neighbour, by switch id
        std::vector<std::pair<uint32_t, uint32_t>> next; // (switch, link)
        for (auto [ei, eend] = boost::out_edges(v, g); ei != eend; ++ei)
        {
            const uint32_t u = static_cast<uint32_t>(boost::target(*ei, g));
            if (u >= nSwitches || dist[u] + 1 != dist[v])
            {
                continue; // a NIC port never forwards
            }
            const uint32_t l = g[*ei].link;
            auto it =
                std::find_if(next.begin(), next.end(), [u](const auto& x) { return x.first == u; });
            if (it == next.end())
            {
                next.emplace_back(u, l);
            }
            else
            {
                it->second = std::min(it->second, l);
            }
        }
        std::sort(next.begin(), next.end());
        for (const auto& [u, l] : next)
        {
            switches.push_back(u);
            links.push_back(l);
            walk(u);
            switches.pop_back();
            links.pop_back();
        }
    };
    walk(srcT0);
    return paths;
}

std::vector<MrcPath>
MrcTopology::GetAllPaths(uint32_t srcHost, uint32_t dstHost) const
{
    std::vector<MrcPath> all;
    for (uint32_t p = 0; p < m_config.planes; ++p)
    {
        std::vector<MrcPath> ps = GetPaths(srcHost, dstHost, p);
        all.insert(all.end(), ps.begin(), ps.end());
    }
    return all;
}

bool
MrcTopology::IsPathUp(const MrcPath& path) const
{
    for (uint32_t l : path.links)
    {
        const MrcTopologyLink& link = GetLink(l);
        if (!link.IsUp())
        {
            return false;
        }
    }
    return true;
}

bool
MrcTopology::IsReachable(uint32_t srcHost, uint32_t dstHost, uint32_t plane) const
{
    CheckHost(srcHost, "IsReachable");
    CheckHost(dstHost, "IsReachable");
    CheckPlane(plane, "IsReachable");
    if (srcHost == dstHost)
    {
        return true;
    }
    const_cast<MrcTopology*>(this)->BuildGraph();
    const Graph::G& g = m_graph->g;
    LinkUpFilter filter;
    filter.links = &m_links;
    filter.g = &g;
    boost::filtered_graph<Graph::G, LinkUpFilter> up(g, filter);
    const std::vector<uint32_t> dist =
        Distances(up, boost::num_vertices(g), NicVertex(srcHost, plane));
    return dist[NicVertex(dstHost, plane)] != std::numeric_limits<uint32_t>::max();
}

Time
MrcTopology::GetPathRtt(const MrcPath& path,
                        uint32_t mtu,
                        uint32_t dataOverhead,
                        uint32_t ackBytes) const
{
    Time rtt;
    Ptr<Node> from = m_hosts.Get(path.srcHost);
    for (std::size_t i = 0; i < path.links.size(); ++i)
    {
        const MrcTopologyLink& l = GetLink(path.links[i]);
        const bool forwardIsA = (l.nodeA == from);
        if (l.IsBuilt())
        {
            Ptr<MrcNetDevice> tx = forwardIsA ? l.devA : l.devB;
            Ptr<MrcNetDevice> rx = forwardIsA ? l.devB : l.devA;
            const Time prop = l.channel->GetDelay();
            // (the far end of a link to another rank: as built there, like this end)
            auto serialization = [&l](const Ptr<MrcNetDevice>& d, uint32_t bytes) {
                return d ? d->GetSerializationTime(bytes)
                         : MrcNetDevice::GetSerializationTime(l.rate, l.wireOverhead, bytes);
            };
            rtt += serialization(tx, mtu + dataOverhead) + prop;
            rtt += serialization(rx, ackBytes) + prop;
        }
        else
        {
            // another rank's link: its figures as built there (both ends alike)
            rtt += MrcNetDevice::GetSerializationTime(l.rate, l.wireOverhead, mtu + dataOverhead) +
                   l.delay;
            rtt += MrcNetDevice::GetSerializationTime(l.rate, l.wireOverhead, ackBytes) + l.delay;
        }
        from = forwardIsA ? l.nodeB : l.nodeA;
    }
    return rtt;
}

Time
MrcTopology::GetBaseRtt(uint32_t mtu, uint32_t dataOverhead, uint32_t ackBytes) const
{
    Time best;
    if (m_hosts.GetN() < 2)
    {
        return best;
    }
    // A Clos or fat-tree is symmetric: host 0 to the last host is a longest path. In a
    // graph any host may be farthest from host 0: every destination is tried.
    const uint32_t firstDst = m_config.kind == MrcTopologyKind::GRAPH ? 1 : m_hosts.GetN() - 1;
    for (uint32_t p = 0; p < m_config.planes; ++p)
    {
        for (uint32_t dst = firstDst; dst < m_hosts.GetN(); ++dst)
        {
            for (const MrcPath& path : GetPaths(0, dst, p))
            {
                best = std::max(best, GetPathRtt(path, mtu, dataOverhead, ackBytes));
            }
        }
    }
    return best;
}

uint64_t
MrcTopology::GetBisectionBandwidth() const
{
    const MrcTopologyConfig& c = m_config;
    if (c.kind == MrcTopologyKind::GRAPH)
    {
        // Any graph: half the hosts' link capacity, an upper bound of every bisection.
        uint64_t sum = 0;
        for (uint32_t l : m_hostLink)
        {
            const MrcTopologyLink& link = m_links[l];
            sum += link.GetRate().GetBitRate();
        }
        return sum / 2;
    }
    uint64_t narrowest = uint64_t(c.GetHosts()) * c.hostRate.GetBitRate();
    if (c.GetT0PerPlane() > 1)
    {
        narrowest =
            std::min(narrowest,
                     uint64_t(c.GetT0PerPlane()) * c.GetUplinksPerT0() * c.fabricRate.GetBitRate());
    }
    if (c.kind == MrcTopologyKind::FAT_TREE)
    {
        narrowest =
            std::min(narrowest, uint64_t(c.GetT1PerPlane()) * (c.k / 2) * c.coreRate.GetBitRate());
    }
    return narrowest / 2 * c.planes;
}

std::string
MrcTopology::ToJson(uint32_t srcHost, uint32_t dstHost) const
{
    const MrcTopologyConfig& c = m_config;
    std::ostringstream js;
    js << "{\n  \"schema\": 1,\n"
       << "  \"topology\": \"" << MrcTopologyKindName(c.kind) << "\",\n"
       << "  \"planes\": " << c.planes << ",\n"
       << "  \"hosts\": " << GetNHosts() << ",\n"
       << "  \"hostsPerT0\": " << c.GetHostsPerT0() << ",\n"
       << "  \"uplinksPerT0\": " << c.GetUplinksPerT0() << ",\n";
    if (c.kind == MrcTopologyKind::FAT_TREE)
    {
        js << "  \"k\": " << c.k << ",\n";
    }
    js << "  \"oversubscription\": " << c.GetOversubscription() << ",\n"
       << "  \"switchesPerPlane\": {\"t0\": " << GetNSwitchesPerPlane(MrcTier::T0)
       << ", \"t1\": " << GetNSwitchesPerPlane(MrcTier::T1)
       << ", \"t2\": " << GetNSwitchesPerPlane(MrcTier::T2) << "},\n"
       << "  \"switches\": " << GetNSwitches() << ",\n"
       << "  \"links\": {\"total\": " << GetNLinks()
       << ", \"host\": " << GetNLinks(MrcLinkTier::HOST)
       << ", \"t0t1\": " << GetNLinks(MrcLinkTier::T0_T1)
       << ", \"t1t2\": " << GetNLinks(MrcLinkTier::T1_T2) << "},\n"
       << "  \"rates\": {\"host\": " << c.hostRate.GetBitRate()
       << ", \"fabric\": " << c.fabricRate.GetBitRate() << ", \"core\": " << c.coreRate.GetBitRate()
       << "},\n"
       << "  \"delaysNs\": {\"host\": " << c.hostDelay.GetNanoSeconds()
       << ", \"fabric\": " << c.fabricDelay.GetNanoSeconds()
       << ", \"core\": " << c.coreDelay.GetNanoSeconds() << "},\n"
       << "  \"mtu\": " << c.mtu << ",\n"
       << "  \"baseRttNs\": " << GetBaseRtt(c.mtu).GetNanoSeconds() << ",\n"
       << "  \"bisectionBps\": " << GetBisectionBandwidth();
    if (srcHost != dstHost && srcHost < GetNHosts() && dstHost < GetNHosts())
    {
        js << ",\n  \"paths\": {\"src\": " << srcHost << ", \"dst\": " << dstHost
           << ", \"perPlane\": [";
        for (uint32_t p = 0; p < c.planes; ++p)
        {
            std::vector<MrcPath> ps = GetPaths(srcHost, dstHost, p);
            js << (p ? ", " : "") << "\n    {\"plane\": " << p << ", \"count\": " << ps.size()
               << ", \"carriers\": [";
            for (std::size_t i = 0; i < ps.size(); ++i)
            {
                js << (i ? ", " : "") << "\"" << ps[i].carrier << "\"";
            }
            js << "]}";
        }
        js << "\n  ]}";
    }
    js << "\n}\n";
    return js.str();
}

} // namespace ns3
