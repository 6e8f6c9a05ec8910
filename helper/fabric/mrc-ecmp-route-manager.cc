/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-ecmp-route-manager.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/mrc-channel.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <limits>
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
            .AddTraceSource("RoutesRecomputed",
                            "Routes were computed and installed on the switches.",
                            MakeTraceSourceAccessor(&MrcEcmpRouteManager::m_recomputedTrace),
                            "ns3::MrcEcmpRouteManager::RoutesRecomputedTracedCallback");
    return tid;
}

MrcEcmpRouteManager::MrcEcmpRouteManager()
    : m_enabled(true),
      m_delay(MilliSeconds(10))
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
    Object::DoDispose();
}

uint32_t
MrcEcmpRouteManager::AddSwitch(Ptr<Node> node,
                               Ptr<MrcEcmpForwarding> engine,
                               const std::vector<Ptr<MrcNetDevice>>& ports)
{
    NS_LOG_FUNCTION(this << node << engine << ports.size());
    NS_ABORT_MSG_IF(m_installed, "MrcEcmpRouteManager::AddSwitch: called after ComputeAndInstall");
    NS_ABORT_MSG_IF(!engine, "MrcEcmpRouteManager::AddSwitch: null forwarding engine");
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

void
MrcEcmpRouteManager::AddHost(Ipv6Address address, Ptr<MrcNetDevice> switchSidePort)
{
    NS_LOG_FUNCTION(this << address << switchSidePort);
    NS_ABORT_MSG_IF(m_installed, "MrcEcmpRouteManager::AddHost: called after ComputeAndInstall");
    NS_ABORT_MSG_IF(!switchSidePort,
                    "MrcEcmpRouteManager::AddHost " << address << ": null switch port");
    auto it = m_hostIndex.find(address);
    uint32_t h;
    if (it == m_hostIndex.end())
    {
        h = static_cast<uint32_t>(m_hostAddrs.size());
        m_hostIndex.emplace(address, h);
        m_hostAddrs.push_back(address);
        m_hostAt.emplace_back();
    }
    else
    {
        h = it->second;
    }
    m_hostAt[h].push_back(switchSidePort);
}

void
MrcEcmpRouteManager::DiscoverLinks()
{
    // Host links first (in host registration order), then switch links (by switch, port).
    m_hostLinks.assign(m_hostAddrs.size(), {});
    std::map<const MrcChannel*, uint32_t> linkOf;
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
    }
    for (uint32_t s = 0; s < m_switches.size(); ++s)
    {
        const Switch& sw = m_switches[s];
        for (uint32_t p = 0; p < sw.ports.size(); ++p)
        {
            const Ptr<MrcNetDevice>& dev = sw.ports[p];
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

void
MrcEcmpRouteManager::Recompute()
{
    NS_LOG_FUNCTION(this);
    const uint32_t nSw = static_cast<uint32_t>(m_switches.size());
    // Adjacency of the up switch links: per switch, (port, neighbour), by port.
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> adj(nSw);
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

    // Hosts with the same set of up attachments share one BFS.
    std::map<std::vector<std::pair<uint32_t, uint32_t>>, std::vector<uint32_t>> groups;
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> order; // first-seen order
    for (uint32_t h = 0; h < m_hostAddrs.size(); ++h)
    {
        std::vector<std::pair<uint32_t, uint32_t>> att;
        for (uint32_t l : m_hostLinks[h])
        {
            if (m_links[l].viewUp)
            {
                att.emplace_back(m_links[l].swA, m_links[l].portA);
            }
        }
        std::sort(att.begin(), att.end());
        auto ins = groups.emplace(att, std::vector<uint32_t>{});
        if (ins.second)
        {
            order.push_back(att);
        }
        ins.first->second.push_back(h);
    }

    constexpr uint32_t INF = std::numeric_limits<uint32_t>::max();
    std::vector<uint32_t> dist(nSw);
    std::vector<uint32_t> queue;
    queue.reserve(nSw);
    std::vector<std::vector<uint32_t>> ports(nSw);
    for (const auto& att : order)
    {
        std::fill(dist.begin(), dist.end(), INF);
        queue.clear();
        for (auto& pv : ports)
        {
            pv.clear();
        }
        for (const auto& sp : att)
        {
            ports[sp.first].push_back(sp.second); // already sorted by (switch, port)
            if (dist[sp.first] == INF)
            {
                dist[sp.first] = 0;
                queue.push_back(sp.first);
            }
        }
        for (std::size_t head = 0; head < queue.size(); ++head)
        {
            uint32_t s = queue[head];
            for (const auto& pn : adj[s])
            {
                if (dist[pn.second] == INF)
                {
                    dist[pn.second] = dist[s] + 1;
                    queue.push_back(pn.second);
                }
            }
        }
        for (uint32_t s = 0; s < nSw; ++s)
        {
            if (dist[s] == INF || dist[s] == 0)
            {
                continue;
            }
            for (const auto& pn : adj[s])
            {
                if (dist[pn.second] + 1 == dist[s])
                {
                    ports[s].push_back(pn.first);
                }
            }
        }
        for (uint32_t h : groups[att])
        {
            const Ipv6Address& addr = m_hostAddrs[h];
            for (uint32_t s = 0; s < nSw; ++s)
            {
                Ptr<MrcEcmpForwarding> engine = m_switches[s].engine;
                if (ports[s].empty())
                {
                    if (engine->RemoveRoute(addr, 128))
                    {
                        ++m_routeChanges;
                    }
                }
                else if (engine->GetRoute(addr, 128) != ports[s])
                {
                    engine->ReplaceRoute(addr, 128, ports[s]);
                    ++m_routeChanges;
                }
            }
        }
    }
    ++m_recomputations;
    NS_LOG_INFO("routes recomputed on " << nSw << " switches at " << Simulator::Now().As(Time::US));
    m_recomputedTrace(Simulator::Now(), nSw);
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
