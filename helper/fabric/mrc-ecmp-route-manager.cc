/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-ecmp-route-manager.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/mrc-channel.h"
#include "ns3/mrc-mpi.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <functional>
#include <iostream>
#include <limits>
#include <unordered_map>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcEcmpRouteManager");

NS_OBJECT_ENSURE_REGISTERED(MrcEcmpRouteManager);

TypeId
MrcEcmpRouteManager::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcEcmpRouteManager")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcEcmpRouteManager>()
            .AddAttribute("Enabled",
                          "Recompute routes after link changes. False: static routes (the "
                          "routes of ComputeAndInstall stay; only the switches' local port "
                          "reaction remains).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcEcmpRouteManager::m_enabled),
                          MakeBooleanChecker())
            .AddAttribute("ConvergenceDelay",
                          "Time from a link change to the recomputed routes on every "
                          "switch (0: instant; Time::Max: static routes). Our choice: "
                          "10 ms, the fast end of eBGP with BFD in a datacenter.",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&MrcEcmpRouteManager::m_delay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Tables",
                          "Route tables. Aggregated: range routes, one per host on the switch "
                          "it is cabled to and one per block of hosts (a T0's, a pod's) "
                          "elsewhere: state per switch grows with its ports. PerHost: one "
                          "/128 route per host on every switch. Auto: Aggregated when each "
                          "switch's hosts have consecutive addresses (every fabric of "
                          "MrcTopologyHelper), else PerHost (with a notice). Both route "
                          "every packet the same way.",
#if MRC_NS3_VERSION_MINOR >= 41
                          EnumValue<Tables>(TABLES_AUTO),
                          MakeEnumAccessor<Tables>(&MrcEcmpRouteManager::m_tables),
#else
                          EnumValue(TABLES_AUTO),
                          MakeEnumAccessor(&MrcEcmpRouteManager::m_tables),
#endif
                          MakeEnumChecker(TABLES_AUTO,
                                          "Auto",
                                          TABLES_AGGREGATED,
                                          "Aggregated",
                                          TABLES_PER_HOST,
                                          "PerHost"))
            .AddTraceSource("RoutesRecomputed",
                            "Routes were computed and installed on the switches.",
                            MakeTraceSourceAccessor(&MrcEcmpRouteManager::m_recomputedTrace),
                            "ns3::MrcEcmpRouteManager::RoutesRecomputedTracedCallback");
    return tid;
}

MrcEcmpRouteManager::MrcEcmpRouteManager()
    : m_enabled(true),
      m_delay(MilliSeconds(10)),
      m_tables(TABLES_AUTO)
{
    NS_LOG_FUNCTION(this);
}

MrcEcmpRouteManager::~MrcEcmpRouteManager()
{
    NS_LOG_FUNCTION(this);
}

void
MrcEcmpRouteManager::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_switches.clear();
    m_portOf.clear();
    m_hostAt.clear();
    m_links.clear();
    m_byAddress.clear();
    Object::DoDispose();
}

uint32_t
MrcEcmpRouteManager::AddSwitch(Ptr<Node> node,
                               Ptr<MrcEcmpForwarding> engine,
                               const std::vector<Ptr<MrcNetDevice>>& ports)
{
    NS_LOG_FUNCTION(this << node << engine << ports.size());
    NS_ABORT_MSG_IF(m_installed, "MrcEcmpRouteManager::AddSwitch: called after ComputeAndInstall");
    const uint32_t index = static_cast<uint32_t>(m_switches.size());
    for (uint32_t p = 0; p < ports.size(); ++p)
    {
        if (!ports[p])
        {
            continue;
        }
        bool fresh = m_portOf.emplace(PeekPointer(ports[p]), PortRef{index, p}).second;
        NS_ABORT_MSG_IF(!fresh,
                        "MrcEcmpRouteManager::AddSwitch: port " << p << " of switch " << index
                                                                << " is already registered");
    }
    m_switches.push_back(Switch{node, engine, ports});
    return index;
}

uint32_t
MrcEcmpRouteManager::AddSwitch(Ptr<MrcSwitchNode> sw)
{
    NS_LOG_FUNCTION(this << sw);
    NS_ABORT_MSG_IF(!sw, "MrcEcmpRouteManager::AddSwitch: null switch");
    Ptr<MrcEcmpForwarding> engine = DynamicCast<MrcEcmpForwarding>(sw->GetForwarding());
    NS_ABORT_MSG_IF(!engine,
                    "MrcEcmpRouteManager::AddSwitch: switch " << sw->GetId()
                                                              << " does not forward with "
                                                                 "ns3::MrcEcmpForwarding");
    std::vector<Ptr<MrcNetDevice>> ports;
    for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
    {
        ports.push_back(sw->GetPort(p));
    }
    return AddSwitch(sw, engine, ports);
}

uint32_t
MrcEcmpRouteManager::HostIndex(Ipv6Address address)
{
    auto it = m_hostIndex.find(address);
    if (it != m_hostIndex.end())
    {
        return it->second;
    }
    const uint32_t h = static_cast<uint32_t>(m_hostAddrs.size());
    m_hostIndex.emplace(address, h);
    m_hostAddrs.push_back(address);
    m_hostAt.emplace_back();
    return h;
}

void
MrcEcmpRouteManager::AddHost(Ipv6Address address, Ptr<MrcNetDevice> switchSidePort)
{
    NS_LOG_FUNCTION(this << address << switchSidePort);
    NS_ABORT_MSG_IF(m_installed, "MrcEcmpRouteManager::AddHost: called after ComputeAndInstall");
    NS_ABORT_MSG_IF(!switchSidePort,
                    "MrcEcmpRouteManager::AddHost " << address << ": null switch port");
    const uint32_t h = HostIndex(address);
    m_hostAt[h].push_back(switchSidePort);
}

void
MrcEcmpRouteManager::AddHost(Ipv6Address address, Ptr<Node> sw, uint32_t port)
{
    NS_LOG_FUNCTION(this << address << sw << port);
    NS_ABORT_MSG_IF(m_installed, "MrcEcmpRouteManager::AddHost: called after ComputeAndInstall");
    NS_ABORT_MSG_IF(!sw, "MrcEcmpRouteManager::AddHost " << address << ": null switch");
    const uint32_t h = HostIndex(address);
    if (m_hostAtData.size() <= h)
    {
        m_hostAtData.resize(h + 1);
    }
    m_hostAtData[h].emplace_back(sw, port);
}

void
MrcEcmpRouteManager::AddSwitchLink(Ptr<Node> a,
                                   uint32_t portA,
                                   Ptr<Node> b,
                                   uint32_t portB,
                                   Ptr<MrcChannel> channel)
{
    NS_LOG_FUNCTION(this << a << portA << b << portB << channel);
    NS_ABORT_MSG_IF(m_installed,
                    "MrcEcmpRouteManager::AddSwitchLink: called after ComputeAndInstall");
    NS_ABORT_MSG_IF(!a || !b, "MrcEcmpRouteManager::AddSwitchLink: null switch");
    m_switchLinkData.emplace_back(a, portA, b, portB, channel);
}

void
MrcEcmpRouteManager::FollowDataLink(Ptr<Node> sw, uint32_t port, Ptr<MrcChannel> channel)
{
    NS_LOG_FUNCTION(this << sw << port << channel);
    NS_ABORT_MSG_IF(!m_installed,
                    "MrcEcmpRouteManager::FollowDataLink: called before ComputeAndInstall");
    NS_ABORT_MSG_IF(!channel, "MrcEcmpRouteManager::FollowDataLink: null channel");
    uint32_t s = 0;
    while (s < m_switches.size() && m_switches[s].node != sw)
    {
        ++s;
    }
    for (uint32_t l = 0; l < m_links.size() && s < m_switches.size(); ++l)
    {
        Link& k = m_links[l];
        const bool atA = k.swA == s && k.portA == port;
        const bool atB = !k.toHost && k.swB == s && k.portB == port;
        if (k.channel || !(atA || atB))
        {
            continue;
        }
        k.channel = channel;
        channel->TraceConnectWithoutContext("LinkStateChange",
                                            MakeBoundCallback(&MrcEcmpRouteManager::LinkStateTrace,
                                                              Ptr<MrcEcmpRouteManager>(this),
                                                              l));
        if (k.viewUp != channel->IsLinkUp())
        {
            LinkStateTrace(this, l, channel->IsLinkUp());
        }
        return;
    }
    NS_FATAL_ERROR("MrcEcmpRouteManager::FollowDataLink: no link given as data at port "
                   << port << " of node " << (sw ? sw->GetId() : 0));
}

void
MrcEcmpRouteManager::SetBuildRank(uint32_t rank)
{
    m_buildRank = rank;
}

void
MrcEcmpRouteManager::DiscoverLinks()
{
    // Host links first (in host registration order), then switch links (by switch, port).
    m_hostLinks.assign(m_hostAddrs.size(), {});
    std::map<const MrcChannel*, uint32_t> linkOf;
    std::unordered_map<const Node*, uint32_t> switchOf; // for attachments without a device
    for (uint32_t h = 0; h < m_hostAddrs.size(); ++h)
    {
        for (const Ptr<MrcNetDevice>& dev : m_hostAt[h])
        {
            auto pit = m_portOf.find(PeekPointer(dev));
            NS_ABORT_MSG_IF(pit == m_portOf.end(),
                            "MrcEcmpRouteManager: host " << m_hostAddrs[h]
                                                         << " is cabled to a device that is "
                                                            "no port of a registered switch");
            Ptr<MrcChannel> ch = dev->GetMrcChannel();
            NS_ABORT_MSG_IF(!ch,
                            "MrcEcmpRouteManager: the switch port of host " << m_hostAddrs[h]
                                                                            << " has no channel");
            auto lit = linkOf.find(PeekPointer(ch));
            uint32_t l;
            if (lit == linkOf.end())
            {
                l = static_cast<uint32_t>(m_links.size());
                linkOf.emplace(PeekPointer(ch), l);
                m_links.push_back(
                    Link{ch, pit->second.sw, pit->second.port, true, 0, 0, ch->IsLinkUp()});
            }
            else
            {
                l = lit->second;
                NS_ABORT_MSG_IF(!m_links[l].toHost || m_links[l].swA != pit->second.sw ||
                                    m_links[l].portA != pit->second.port,
                                "MrcEcmpRouteManager: host " << m_hostAddrs[h]
                                                             << " shares its link with another "
                                                                "switch port");
            }
            if (std::find(m_hostLinks[h].begin(), m_hostLinks[h].end(), l) == m_hostLinks[h].end())
            {
                m_hostLinks[h].push_back(l);
            }
        }
        if (h < m_hostAtData.size() && !m_hostAtData[h].empty())
        {
            if (switchOf.empty())
            {
                for (uint32_t s = 0; s < m_switches.size(); ++s)
                {
                    switchOf.emplace(PeekPointer(m_switches[s].node), s);
                }
            }
            for (const auto& [sw, port] : m_hostAtData[h])
            {
                auto sit = switchOf.find(PeekPointer(sw));
                NS_ABORT_MSG_IF(sit == switchOf.end(),
                                "MrcEcmpRouteManager: host " << m_hostAddrs[h]
                                                             << " is cabled to a switch that is "
                                                                "not registered");
                // another rank's host link: no channel, seen up
                const uint32_t l = static_cast<uint32_t>(m_links.size());
                m_links.push_back(Link{nullptr, sit->second, port, true, 0, 0, true});
                m_hostLinks[h].push_back(l);
            }
        }
    }
    std::vector<std::vector<std::pair<Ptr<Node>, uint32_t>>>().swap(m_hostAtData);

    // Switch links not built here, by the (switch, port) of each end: found where a
    // built link would be, at the end met first.
    struct DataEnd
    {
        std::pair<uint32_t, uint32_t> peer; //!< (switch, port) of the other end
        Ptr<MrcChannel> channel;            //!< a link to another rank: its channel
    };

    std::map<std::pair<uint32_t, uint32_t>, DataEnd> dataPeer;
    if (!m_switchLinkData.empty())
    {
        if (switchOf.empty())
        {
            for (uint32_t s = 0; s < m_switches.size(); ++s)
            {
                switchOf.emplace(PeekPointer(m_switches[s].node), s);
            }
        }
        for (const auto& [a, pa, b, pb, ch] : m_switchLinkData)
        {
            auto ait = switchOf.find(PeekPointer(a));
            auto bit = switchOf.find(PeekPointer(b));
            NS_ABORT_MSG_IF(ait == switchOf.end() || bit == switchOf.end(),
                            "MrcEcmpRouteManager: a switch link given as data joins a switch "
                            "that is not registered");
            const std::pair<uint32_t, uint32_t> endA{ait->second, pa};
            const std::pair<uint32_t, uint32_t> endB{bit->second, pb};
            const bool fresh = dataPeer.emplace(endA, DataEnd{endB, ch}).second &&
                               dataPeer.emplace(endB, DataEnd{endA, ch}).second;
            NS_ABORT_MSG_IF(!fresh,
                            "MrcEcmpRouteManager: port " << pa << " or " << pb
                                                         << " of a switch link given as data "
                                                            "is given twice");
        }
    }
    std::vector<std::tuple<Ptr<Node>, uint32_t, Ptr<Node>, uint32_t, Ptr<MrcChannel>>>().swap(
        m_switchLinkData);
    for (uint32_t s = 0; s < m_switches.size(); ++s)
    {
        const Switch& sw = m_switches[s];
        for (uint32_t p = 0; p < sw.ports.size(); ++p)
        {
            const Ptr<MrcNetDevice>& dev = sw.ports[p];
            auto dit = dataPeer.find({s, p});
            if (dit != dataPeer.end())
            {
                // a link given as data, at the end met first: of two other ranks' switches
                // (no channel, seen up), or to another rank (its channel followed); its
                // other end is not found again
                const Ptr<MrcChannel> ch = dit->second.channel;
                const uint32_t l = static_cast<uint32_t>(m_links.size());
                m_links.push_back(Link{ch,
                                       s,
                                       p,
                                       false,
                                       dit->second.peer.first,
                                       dit->second.peer.second,
                                       !ch || ch->IsLinkUp()});
                if (ch)
                {
                    linkOf.emplace(PeekPointer(ch), l);
                }
                dataPeer.erase(dit->second.peer);
                dataPeer.erase(dit);
                continue;
            }
            if (!dev || !dev->GetMrcChannel())
            {
                continue;
            }
            Ptr<MrcChannel> ch = dev->GetMrcChannel();
            if (linkOf.count(PeekPointer(ch)) != 0)
            {
                continue; // a host link, or the far end of a switch link already seen
            }
            Ptr<MrcNetDevice> peer = ch->GetPeer(dev);
            auto qit = peer ? m_portOf.find(PeekPointer(peer)) : m_portOf.end();
            if (qit == m_portOf.end())
            {
                continue; // a device the manager does not know (e.g. an unregistered host)
            }
            uint32_t l = static_cast<uint32_t>(m_links.size());
            linkOf.emplace(PeekPointer(ch), l);
            m_links.push_back(
                Link{ch, s, p, false, qit->second.sw, qit->second.port, ch->IsLinkUp()});
        }
    }
    for (uint32_t l = 0; l < m_links.size(); ++l)
    {
        if (!m_links[l].channel)
        {
            continue; // a link of other ranks
        }
        m_links[l].channel->TraceConnectWithoutContext(
            "LinkStateChange",
            MakeBoundCallback(&MrcEcmpRouteManager::LinkStateTrace,
                              Ptr<MrcEcmpRouteManager>(this),
                              l));
    }
    NS_LOG_INFO("found " << m_links.size() << " links");
}

void
MrcEcmpRouteManager::ComputeAndInstall()
{
    NS_LOG_FUNCTION(this);
    if (!m_installed)
    {
        m_installed = true;
        DiscoverLinks();
        ChooseTables();
        // In a distributed run a rank installs only its own switches' tables; the search
        // still spans the whole fabric, so they are those of a one-process run.
        m_local.assign(m_switches.size(), true);
        for (uint32_t x = 0; x < m_switches.size(); ++x)
        {
            m_local[x] = m_buildRank >= 0
                             ? m_switches[x].node->GetSystemId() == uint64_t(m_buildRank)
                             : MrcMpi::IsLocal(PeekPointer(m_switches[x].node));
        }
    }
    Recompute();
}

bool
MrcEcmpRouteManager::IsStatic() const
{
    return !m_enabled || m_delay == Time::Max();
}

void
MrcEcmpRouteManager::LinkStateTrace(Ptr<MrcEcmpRouteManager> self, uint32_t link, bool up)
{
    NS_LOG_FUNCTION(self << link << up);
    if (self->IsStatic())
    {
        return;
    }
    if (self->m_delay.IsZero())
    {
        self->ApplyLinkState(link, up);
    }
    else
    {
        Simulator::Schedule(self->m_delay, &MrcEcmpRouteManager::ApplyLinkState, self, link, up);
    }
}

void
MrcEcmpRouteManager::ApplyLinkState(uint32_t link, bool up)
{
    NS_LOG_FUNCTION(this << link << up);
    if (link >= m_links.size() || m_links[link].viewUp == up)
    {
        return;
    }
    m_links[link].viewUp = up;
    Recompute();
}

namespace
{

/// \return the address as two 64-bit words, high first
std::pair<uint64_t, uint64_t>
Words(const Ipv6Address& a)
{
    uint8_t b[16];
    a.GetBytes(b);
    uint64_t hi = 0;
    uint64_t lo = 0;
    for (int i = 0; i < 8; ++i)
    {
        hi = (hi << 8) | b[i];
        lo = (lo << 8) | b[8 + i];
    }
    return {hi, lo};
}

/// \return true if address b directly follows address a (same upper 64 bits)
bool
Follows(const Ipv6Address& a, const Ipv6Address& b)
{
    const auto wa = Words(a);
    const auto wb = Words(b);
    return wa.first == wb.first && wa.second != UINT64_MAX && wa.second + 1 == wb.second;
}

/// \return the distinct switches of sorted attachments
std::vector<uint32_t>
SwitchesOf(const std::vector<std::pair<uint32_t, uint32_t>>& att)
{
    std::vector<uint32_t> sw;
    for (const auto& sp : att)
    {
        if (sw.empty() || sw.back() != sp.first)
        {
            sw.push_back(sp.first);
        }
    }
    return sw;
}

} // namespace

void
MrcEcmpRouteManager::ChooseTables()
{
    m_byAddress.resize(m_hostAddrs.size());
    for (uint32_t h = 0; h < m_byAddress.size(); ++h)
    {
        m_byAddress[h] = h;
    }
    std::vector<std::pair<uint64_t, uint64_t>> words(m_hostAddrs.size());
    for (uint32_t h = 0; h < words.size(); ++h)
    {
        words[h] = Words(m_hostAddrs[h]);
    }
    std::sort(m_byAddress.begin(), m_byAddress.end(), [&words](uint32_t a, uint32_t b) {
        return words[a] < words[b];
    });
    switch (m_tables)
    {
    case TABLES_AGGREGATED:
        m_aggregated = true;
        break;
    case TABLES_PER_HOST:
        m_aggregated = false;
        break;
    default:
        m_aggregated = HostsAggregate();
        if (!m_aggregated)
        {
            static bool told = false;
            if (!told)
            {
                told = true;
                std::clog << "MrcEcmpRouteManager: the hosts of a switch do not have consecutive "
                             "addresses; routes are one /128 per host (Tables=PerHost)"
                          << std::endl;
            }
            NS_LOG_WARN("host addresses do not aggregate: per-host routes");
        }
    }
}

bool
MrcEcmpRouteManager::HostsAggregate() const
{
    // Walk the hosts in address order: a block (same switch set) may not come back
    // after another block, nor have a gap in its addresses.
    std::map<std::vector<uint32_t>, uint32_t> blockOf;
    std::vector<uint32_t> previous;
    const Ipv6Address* last = nullptr;
    for (uint32_t h : m_byAddress)
    {
        std::vector<uint32_t> sw = SwitchesOf(AttachmentsOf(h, false));
        const bool same = last && sw == previous;
        if (same && !Follows(*last, m_hostAddrs[h]))
        {
            return false; // a gap inside a block
        }
        if (!same && !blockOf.emplace(sw, h).second)
        {
            return false; // the block comes back
        }
        previous = std::move(sw);
        last = &m_hostAddrs[h];
    }
    return true;
}

bool
MrcEcmpRouteManager::IsAggregated() const
{
    return m_aggregated;
}

MrcEcmpRouteManager::Attachments
MrcEcmpRouteManager::AttachmentsOf(uint32_t h, bool upOnly) const
{
    Attachments att;
    for (uint32_t l : m_hostLinks[h])
    {
        if (!upOnly || m_links[l].viewUp)
        {
            att.emplace_back(m_links[l].swA, m_links[l].portA);
        }
    }
    std::sort(att.begin(), att.end());
    return att;
}

MrcEcmpRouteManager::Adjacency
MrcEcmpRouteManager::UpAdjacency() const
{
    Adjacency adj(m_switches.size());
    for (const Link& l : m_links)
    {
        if (l.toHost || !l.viewUp)
        {
            continue;
        }
        adj[l.swA].emplace_back(l.portA, l.swB);
        adj[l.swB].emplace_back(l.portB, l.swA);
    }
    for (auto& a : adj)
    {
        std::sort(a.begin(), a.end());
    }
    return adj;
}

void
MrcEcmpRouteManager::ShortestPathPorts(const Attachments& att,
                                       const Adjacency& adj,
                                       Search& s) const
{
    constexpr uint32_t INF = std::numeric_limits<uint32_t>::max();
    const uint32_t nSw = static_cast<uint32_t>(m_switches.size());
    s.dist.assign(nSw, INF);
    s.queue.clear();
    s.queue.reserve(nSw);
    s.ports.resize(nSw);
    for (auto& pv : s.ports)
    {
        pv.clear();
    }
    for (const auto& sp : att)
    {
        s.ports[sp.first].push_back(sp.second); // already sorted by (switch, port)
        if (s.dist[sp.first] == INF)
        {
            s.dist[sp.first] = 0;
            s.queue.push_back(sp.first);
        }
    }
    for (std::size_t head = 0; head < s.queue.size(); ++head)
    {
        const uint32_t x = s.queue[head];
        for (const auto& pn : adj[x])
        {
            if (s.dist[pn.second] == INF)
            {
                s.dist[pn.second] = s.dist[x] + 1;
                s.queue.push_back(pn.second);
            }
        }
    }
    for (uint32_t x = 0; x < nSw; ++x)
    {
        if (s.dist[x] == INF || s.dist[x] == 0)
        {
            continue;
        }
        for (const auto& pn : adj[x])
        {
            if (s.dist[pn.second] + 1 == s.dist[x])
            {
                s.ports[x].push_back(pn.first);
            }
        }
    }
}

void
MrcEcmpRouteManager::InstallPerHostRoutes(const Adjacency& adj)
{
    // Hosts with the same set of up attachments share one search.
    std::map<Attachments, std::vector<uint32_t>> groups;
    std::vector<Attachments> order; // first-seen order
    for (uint32_t h = 0; h < m_hostAddrs.size(); ++h)
    {
        Attachments att = AttachmentsOf(h, true);
        auto ins = groups.emplace(att, std::vector<uint32_t>{});
        if (ins.second)
        {
            order.push_back(std::move(att));
        }
        ins.first->second.push_back(h);
    }
    Search s;
    const uint32_t nSw = static_cast<uint32_t>(m_switches.size());
    for (const auto& att : order)
    {
        ShortestPathPorts(att, adj, s);
        for (uint32_t h : groups[att])
        {
            const Ipv6Address& addr = m_hostAddrs[h];
            for (uint32_t x = 0; x < nSw; ++x)
            {
                if (!m_local[x])
                {
                    continue; // another rank's switch: its rank installs its table
                }
                const Ptr<MrcEcmpForwarding>& engine = m_switches[x].engine;
                NS_ABORT_MSG_IF(!engine,
                                "MrcEcmpRouteManager: switch " << x << " of this rank has no "
                                                               << "forwarding engine");
                if (s.ports[x].empty())
                {
                    if (engine->RemoveRoute(addr, 128))
                    {
                        ++m_routeChanges;
                    }
                }
                else if (engine->GetRoute(addr, 128) != s.ports[x])
                {
                    engine->ReplaceRoute(addr, 128, s.ports[x]);
                    ++m_routeChanges;
                }
            }
        }
    }
}

namespace
{

/// Host positions [begin, end) in address order.
struct PositionRun
{
    uint32_t begin; //!< first position
    uint32_t end;   //!< one past the last
};

/// Hosts cabled to the same set of switches (over links seen up).
struct Block
{
    std::vector<uint32_t> switches; //!< the switches, sorted
    std::vector<uint32_t> hosts;    //!< host positions in address order
    std::vector<PositionRun> runs;  //!< maximal runs of consecutive addresses
};

/**
 * Group hosts into blocks, in address order; a host cabled to no switch is in none.
 * \param addrs host addresses by position (address order)
 * \param switchesOf the switches of the host at a position
 * \return the blocks, in order of their first host
 */
std::vector<Block>
FindBlocks(const std::vector<Ipv6Address>& addrs,
           const std::function<std::vector<uint32_t>(uint32_t)>& switchesOf)
{
    constexpr uint32_t NONE = std::numeric_limits<uint32_t>::max();
    std::vector<Block> blocks;
    std::map<std::vector<uint32_t>, uint32_t> index;
    uint32_t previous = NONE;
    for (uint32_t i = 0; i < addrs.size(); ++i)
    {
        std::vector<uint32_t> sw = switchesOf(i);
        if (sw.empty())
        {
            previous = NONE; // unreachable: no route anywhere
            continue;
        }
        auto ins = index.emplace(sw, static_cast<uint32_t>(blocks.size()));
        const uint32_t b = ins.first->second;
        if (ins.second)
        {
            blocks.push_back(Block{std::move(sw), {}, {}});
        }
        blocks[b].hosts.push_back(i);
        if (previous == b && Follows(addrs[i - 1], addrs[i]))
        {
            blocks[b].runs.back().end = i + 1;
        }
        else
        {
            blocks[b].runs.push_back(PositionRun{i, i + 1});
        }
        previous = b;
    }
    return blocks;
}

/// The range routes of one switch while they are computed.
class SwitchRuns
{
  public:
    /**
     * Route host positions [begin, end) over a port set.
     * \param begin first position \param end one past the last \param ports the group
     */
    void Add(uint32_t begin, uint32_t end, const std::vector<uint32_t>& ports)
    {
        auto ins = m_index.emplace(ports, static_cast<uint32_t>(m_groups.size()));
        if (ins.second)
        {
            m_groups.push_back(ports);
        }
        m_pending.push_back(Pending{begin, end, ins.first->second});
    }

    /**
     * Install the runs, sorted by address, neighbours with the same group merged when
     * their addresses follow each other.
     * \param engine the switch's engine \param addrs host addresses by position
     * \return the runs the engine counted as changed
     */
    uint32_t Install(MrcEcmpForwarding& engine, const std::vector<Ipv6Address>& addrs)
    {
        std::sort(m_pending.begin(), m_pending.end(), [](const Pending& a, const Pending& b) {
            return a.begin < b.begin;
        });
        std::vector<MrcEcmpForwarding::RangeRoute> runs;
        uint32_t runEnd = 0;
        for (const Pending& e : m_pending)
        {
            if (!runs.empty() && runs.back().group == e.group && runEnd == e.begin &&
                Follows(addrs[e.begin - 1], addrs[e.begin]))
            {
                runs.back().count += e.end - e.begin;
            }
            else
            {
                runs.push_back(
                    MrcEcmpForwarding::RangeRoute{addrs[e.begin], e.end - e.begin, e.group});
            }
            runEnd = e.end;
        }
        return engine.SetRangeRoutes(m_groups, runs);
    }

  private:
    /// Positions [begin, end) and their group.
    struct Pending
    {
        uint32_t begin; //!< first position
        uint32_t end;   //!< one past the last
        uint32_t group; //!< index in m_groups
    };

    std::vector<Pending> m_pending;                    //!< runs, in any order
    std::vector<std::vector<uint32_t>> m_groups;       //!< each port set once
    std::map<std::vector<uint32_t>, uint32_t> m_index; //!< port set -> group
};

} // namespace

void
MrcEcmpRouteManager::InstallRangeRoutes(const Adjacency& adj)
{
    const uint32_t nSw = static_cast<uint32_t>(m_switches.size());
    std::vector<Ipv6Address> addrs;
    addrs.reserve(m_byAddress.size());
    for (uint32_t h : m_byAddress)
    {
        addrs.push_back(m_hostAddrs[h]);
    }
    const std::vector<Block> blocks = FindBlocks(addrs, [this](uint32_t i) {
        return SwitchesOf(AttachmentsOf(m_byAddress[i], true));
    });
    std::vector<SwitchRuns> tables(nSw);
    Search s;
    for (const Block& b : blocks)
    {
        // Every switch not cabled to the block: its shortest-path ports, for all its hosts.
        Attachments sources;
        for (uint32_t x : b.switches)
        {
            sources.emplace_back(x, 0); // the ports of a source switch are per host (below)
        }
        ShortestPathPorts(sources, adj, s);
        for (uint32_t x = 0; x < nSw; ++x)
        {
            if (s.dist[x] == 0 || s.ports[x].empty() || !m_local[x])
            {
                continue;
            }
            for (const PositionRun& r : b.runs)
            {
                tables[x].Add(r.begin, r.end, s.ports[x]);
            }
        }
        // A switch the block is cabled to: every host its own ports there.
        for (uint32_t i : b.hosts)
        {
            const Attachments att = AttachmentsOf(m_byAddress[i], true);
            for (std::size_t k = 0; k < att.size();)
            {
                const uint32_t x = att[k].first;
                std::vector<uint32_t> ports;
                for (; k < att.size() && att[k].first == x; ++k)
                {
                    ports.push_back(att[k].second);
                }
                if (m_local[x])
                {
                    tables[x].Add(i, i + 1, ports);
                }
            }
        }
    }
    for (uint32_t x = 0; x < nSw; ++x)
    {
        if (!m_local[x])
        {
            continue; // another rank's switch (no runs were added for it)
        }
        NS_ABORT_MSG_IF(!m_switches[x].engine,
                        "MrcEcmpRouteManager: switch " << x << " of this rank has no forwarding "
                                                       << "engine");
        m_routeChanges += tables[x].Install(*m_switches[x].engine, addrs);
        tables[x] = SwitchRuns(); // give the memory back as we go
    }
}

void
MrcEcmpRouteManager::Recompute()
{
    NS_LOG_FUNCTION(this);
    const Adjacency adj = UpAdjacency();
    if (m_aggregated)
    {
        InstallRangeRoutes(adj);
    }
    else
    {
        InstallPerHostRoutes(adj);
    }
    ++m_recomputations;
    NS_LOG_INFO("routes recomputed on " << m_switches.size() << " switches at "
                                        << Simulator::Now().As(Time::US));
    m_recomputedTrace(Simulator::Now(), static_cast<uint32_t>(m_switches.size()));
}

uint32_t
MrcEcmpRouteManager::GetNSwitches() const
{
    return static_cast<uint32_t>(m_switches.size());
}

uint32_t
MrcEcmpRouteManager::GetNLinks() const
{
    return static_cast<uint32_t>(m_links.size());
}

uint64_t
MrcEcmpRouteManager::GetNRecomputations() const
{
    return m_recomputations;
}

uint64_t
MrcEcmpRouteManager::GetNRouteChanges() const
{
    return m_routeChanges;
}

} // namespace ns3
