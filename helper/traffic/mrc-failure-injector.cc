/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-failure-injector.h"

#include "ns3/abort.h"
#include "ns3/error-model.h"
#include "ns3/log.h"
#include "ns3/mrc-channel.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-switch-node.h"
#include "ns3/mrc-topology.h"
#include "ns3/names.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <memory>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcFailureInjector");

NS_OBJECT_ENSURE_REGISTERED(MrcFailureInjector);

namespace
{

/// \return a time as an integer number of nanoseconds, e.g. "-5 ns"
std::string
Ns(Time t)
{
    return std::to_string(t.GetNanoSeconds()) + " ns";
}

} // namespace

TypeId
MrcFailureInjector::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcFailureInjector")
                            .SetParent<Object>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcFailureInjector>()
                            .AddAttribute("EventLog",
                                          "The event log failures and repairs are recorded in "
                                          "(one is created on first use if none is set).",
                                          PointerValue(),
                                          MakePointerAccessor(&MrcFailureInjector::m_log),
                                          MakePointerChecker<MrcEventLog>());
    return tid;
}

MrcFailureInjector::MrcFailureInjector()
    : m_stream(-1)
{
    NS_LOG_FUNCTION(this);
}

MrcFailureInjector::~MrcFailureInjector()
{
    NS_LOG_FUNCTION(this);
}

void
MrcFailureInjector::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_log = nullptr;
    m_holds.clear();
    m_holdIndex.clear();
    m_planes.clear();
    m_grays.clear();
    m_topo = nullptr;
    m_fabricNames.clear();
    Object::DoDispose();
}

void
MrcFailureInjector::SetEventLog(Ptr<MrcEventLog> log)
{
    m_log = log;
}

Ptr<MrcEventLog>
MrcFailureInjector::GetEventLog()
{
    if (!m_log)
    {
        m_log = CreateObject<MrcEventLog>();
    }
    return m_log;
}

// ---------------------------------------------------------------- names

std::string
MrcFailureInjector::NodeName(Ptr<Node> node)
{
    NS_ABORT_MSG_IF(!node, "MrcFailureInjector: null node");
    std::string name = Names::FindName(node);
    if (name.empty())
    {
        name = "node" + std::to_string(node->GetId());
    }
    return name;
}

std::string
MrcFailureInjector::PortName(Ptr<MrcNetDevice> dev)
{
    NS_ABORT_MSG_IF(!dev, "MrcFailureInjector: null device");
    Ptr<Node> node = dev->GetNode();
    NS_ABORT_MSG_IF(!node, "MrcFailureInjector: the device is not on a node");
    int64_t index = dev->GetIfIndex();
    if (Ptr<MrcSwitchNode> sw = DynamicCast<MrcSwitchNode>(node))
    {
        int32_t port = sw->GetPortIndex(dev);
        if (port >= 0)
        {
            index = port;
        }
    }
    return NodeName(node) + ":" + std::to_string(index);
}

std::string
MrcFailureInjector::LinkName(Ptr<MrcChannel> link)
{
    CheckLink("LinkName", link);
    return PortName(link->GetMrcDevice(0)) + "-" + PortName(link->GetMrcDevice(1));
}

std::string
MrcFailureInjector::DirectionName(Ptr<MrcNetDevice> tx)
{
    Ptr<MrcChannel> link = LinkOf("DirectionName", tx);
    return PortName(tx) + "->" + PortName(link->GetPeer(tx));
}

// ---------------------------------------------------------------- checks

void
MrcFailureInjector::CheckTime(const char* what, Time at)
{
    NS_ABORT_MSG_IF(at.IsStrictlyNegative(),
                    "MrcFailureInjector::" << what << ": time " << Ns(at)
                                           << " is negative; allowed: absolute times >= 0");
    NS_ABORT_MSG_IF(at < Simulator::Now(),
                    "MrcFailureInjector::" << what << ": time " << Ns(at) << " is before now ("
                                           << Ns(Simulator::Now())
                                           << "); allowed: absolute times not in the past");
}

void
MrcFailureInjector::CheckLink(const char* what, Ptr<MrcChannel> link)
{
    NS_ABORT_MSG_IF(!link, "MrcFailureInjector::" << what << ": null link");
    NS_ABORT_MSG_IF(link->GetNDevices() != 2,
                    "MrcFailureInjector::" << what << ": the channel has " << link->GetNDevices()
                                           << " device(s) attached; allowed: a link with two ends");
}

Ptr<MrcChannel>
MrcFailureInjector::LinkOf(const char* what, Ptr<MrcNetDevice> dev)
{
    NS_ABORT_MSG_IF(!dev, "MrcFailureInjector::" << what << ": null device");
    Ptr<MrcChannel> link = dev->GetMrcChannel();
    NS_ABORT_MSG_IF(!link || link->GetNDevices() != 2,
                    "MrcFailureInjector::" << what << ": device "
                                           << (dev->GetNode() ? PortName(dev) : "(no node)")
                                           << " is not on a link; allowed: a device attached to "
                                              "an MrcChannel with two ends");
    return link;
}

std::vector<Ptr<MrcChannel>>
MrcFailureInjector::LinksOf(Ptr<Node> node)
{
    std::vector<Ptr<MrcChannel>> links;
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
    {
        Ptr<MrcNetDevice> dev = DynamicCast<MrcNetDevice>(node->GetDevice(i));
        if (!dev)
        {
            continue;
        }
        Ptr<MrcChannel> link = dev->GetMrcChannel();
        if (link && link->GetNDevices() == 2 &&
            std::find(links.begin(), links.end(), link) == links.end())
        {
            links.push_back(link);
        }
    }
    return links;
}

void
MrcFailureInjector::At(Time at, std::function<void()> fn)
{
    Simulator::Schedule(at - Simulator::Now(), std::move(fn));
}

// ---------------------------------------------------------------- link state

MrcFailureInjector::Hold&
MrcFailureInjector::HoldOf(Ptr<MrcChannel> link)
{
    auto it = m_holdIndex.find(PeekPointer(link));
    if (it != m_holdIndex.end())
    {
        return m_holds[it->second];
    }
    m_holdIndex.emplace(PeekPointer(link), m_holds.size());
    m_holds.push_back(Hold{link, {}});
    return m_holds.back();
}

void
MrcFailureInjector::Acquire(Ptr<MrcChannel> link, const std::string& cause)
{
    Hold& h = HoldOf(link);
    if (std::find(h.causes.begin(), h.causes.end(), cause) != h.causes.end())
    {
        return; // the same cause again changes nothing
    }
    h.causes.push_back(cause);
    if (h.causes.size() == 1)
    {
        link->SetLinkUp(false);
    }
}

std::vector<std::string>
MrcFailureInjector::Release(Ptr<MrcChannel> link, const std::string& cause)
{
    Hold& h = HoldOf(link);
    auto it = std::find(h.causes.begin(), h.causes.end(), cause);
    if (it != h.causes.end())
    {
        h.causes.erase(it);
        if (h.causes.empty())
        {
            link->SetLinkUp(true);
        }
    }
    return h.causes;
}

std::string
MrcFailureInjector::ReleaseAll(const std::vector<Ptr<MrcChannel>>& links, const std::string& cause)
{
    std::string still;
    for (const auto& link : links)
    {
        std::vector<std::string> rest = Release(link, cause);
        if (!rest.empty())
        {
            still += still.empty() ? "still down: " : "; ";
            still += NameOf(link) + " (";
            for (std::size_t i = 0; i < rest.size(); ++i)
            {
                still += (i ? ", " : "") + rest[i];
            }
            still += ")";
        }
    }
    return still;
}

std::vector<std::string>
MrcFailureInjector::GetDownCauses(Ptr<MrcChannel> link) const
{
    auto it = m_holdIndex.find(PeekPointer(link));
    if (it == m_holdIndex.end())
    {
        return {};
    }
    return m_holds[it->second].causes;
}

void
MrcFailureInjector::Log(const char* kind, const std::string& where, const std::string& detail)
{
    GetEventLog()->RecordNow(kind, where, detail);
}

void
MrcFailureInjector::SetTopology(Ptr<MrcTopology> topo)
{
    m_topo = topo;
}

Ptr<MrcChannel>
MrcFailureInjector::LinkOfFabric(Ptr<MrcTopology> topo, uint32_t id)
{
    Ptr<MrcChannel> link = topo->GetLinkState(id);
    const MrcTopologyLink& l = topo->GetLink(id);
    if (!l.devA || !l.devB)
    {
        m_fabricNames[PeekPointer(link)] = topo->GetLinkName(id);
    }
    return link;
}

std::vector<Ptr<MrcChannel>>
MrcFailureInjector::LinksOfFabric(Ptr<MrcTopology> topo, Ptr<Node> node)
{
    // (node, port) of each link at this node: a switch's devices are its ports in port order,
    // a host's its NIC ports in plane order (its port number is the device index)
    std::vector<std::pair<uint32_t, uint32_t>> byPort;
    for (uint32_t id : topo->GetLinksOf(node))
    {
        const MrcTopologyLink& l = topo->GetLink(id);
        byPort.emplace_back(l.nodeA == node ? l.portA : l.portB, id);
    }
    std::sort(byPort.begin(), byPort.end());
    std::vector<Ptr<MrcChannel>> links;
    for (const auto& p : byPort)
    {
        Ptr<MrcChannel> link = LinkOfFabric(topo, p.second);
        if (std::find(links.begin(), links.end(), link) == links.end())
        {
            links.push_back(link);
        }
    }
    return links;
}

std::string
MrcFailureInjector::NameOf(Ptr<MrcChannel> link) const
{
    auto it = m_fabricNames.find(PeekPointer(link));
    return it != m_fabricNames.end() ? it->second : LinkName(link);
}

void
MrcFailureInjector::CheckLinkHere(const char* what, Ptr<MrcChannel> link) const
{
    if (link && m_fabricNames.count(PeekPointer(link)) != 0)
    {
        return; // a link of a lean build, found through the fabric
    }
    CheckLink(what, link);
}

// ---------------------------------------------------------------- links

void
MrcFailureInjector::LinkDown(Ptr<MrcChannel> link, Time at)
{
    NS_LOG_FUNCTION(this << link << at);
    CheckLinkHere("LinkDown", link);
    CheckTime("LinkDown", at);
    Ptr<MrcFailureInjector> self(this);
    At(at, [self, link]() {
        self->Log(MrcEventKind::LINK_DOWN, self->NameOf(link), "");
        self->Acquire(link, "link");
    });
}

void
MrcFailureInjector::LinkUp(Ptr<MrcChannel> link, Time at)
{
    NS_LOG_FUNCTION(this << link << at);
    CheckLinkHere("LinkUp", link);
    CheckTime("LinkUp", at);
    Ptr<MrcFailureInjector> self(this);
    At(at, [self, link]() {
        std::string still = self->ReleaseAll({link}, "link");
        self->Log(MrcEventKind::LINK_UP, self->NameOf(link), still);
    });
}

void
MrcFailureInjector::LinkDown(Ptr<MrcNetDevice> end, Time at)
{
    LinkDown(LinkOf("LinkDown", end), at);
}

void
MrcFailureInjector::LinkUp(Ptr<MrcNetDevice> end, Time at)
{
    LinkUp(LinkOf("LinkUp", end), at);
}

void
MrcFailureInjector::Flap(Ptr<MrcChannel> link,
                         Time start,
                         Time period,
                         uint32_t count,
                         Time downTime)
{
    NS_LOG_FUNCTION(this << link << start << period << count << downTime);
    CheckLinkHere("Flap", link);
    CheckTime("Flap", start);
    NS_ABORT_MSG_IF(!period.IsStrictlyPositive(),
                    "MrcFailureInjector::Flap: period " << Ns(period) << "; allowed: > 0");
    NS_ABORT_MSG_IF(count == 0, "MrcFailureInjector::Flap: count 0; allowed: >= 1");
    NS_ABORT_MSG_IF(!downTime.IsStrictlyPositive() || downTime >= period,
                    "MrcFailureInjector::Flap: down time "
                        << Ns(downTime) << "; allowed: > 0 and below the period " << Ns(period));
    Ptr<MrcFailureInjector> self(this);
    for (uint32_t i = 0; i < count; ++i)
    {
        std::string detail = "flap " + std::to_string(i + 1) + "/" + std::to_string(count);
        Time down = start + period * static_cast<int64_t>(i);
        At(down, [self, link, detail]() {
            self->Log(MrcEventKind::LINK_DOWN, self->NameOf(link), detail);
            self->Acquire(link, "link");
        });
        At(down + downTime, [self, link, detail]() {
            std::string still = self->ReleaseAll({link}, "link");
            self->Log(MrcEventKind::LINK_UP,
                      self->NameOf(link),
                      still.empty() ? detail : detail + "; " + still);
        });
    }
}

void
MrcFailureInjector::Flap(Ptr<MrcChannel> link, Time start, Time period, uint32_t count)
{
    Flap(link, start, period, count, period / 2);
}

// ---------------------------------------------------------------- ports, switches, planes

void
MrcFailureInjector::NicPortDown(Ptr<MrcNetDevice> port, Time at)
{
    NS_LOG_FUNCTION(this << port << at);
    Ptr<MrcChannel> link = LinkOf("NicPortDown", port);
    SchedulePortDown(PortName(port), link, at);
}

void
MrcFailureInjector::NicPortUp(Ptr<MrcNetDevice> port, Time at)
{
    NS_LOG_FUNCTION(this << port << at);
    Ptr<MrcChannel> link = LinkOf("NicPortUp", port);
    SchedulePortUp(PortName(port), link, at);
}

void
MrcFailureInjector::SchedulePortDown(const std::string& name, Ptr<MrcChannel> link, Time at)
{
    CheckTime("NicPortDown", at);
    Ptr<MrcFailureInjector> self(this);
    At(at, [self, name, link]() {
        self->Log(MrcEventKind::PORT_DOWN, name, "");
        self->Acquire(link, "port " + name);
    });
}

void
MrcFailureInjector::SchedulePortUp(const std::string& name, Ptr<MrcChannel> link, Time at)
{
    CheckTime("NicPortUp", at);
    Ptr<MrcFailureInjector> self(this);
    At(at, [self, name, link]() {
        std::string still = self->ReleaseAll({link}, "port " + name);
        self->Log(MrcEventKind::PORT_UP, name, still);
    });
}

void
MrcFailureInjector::SwitchDown(Ptr<Node> sw, Time at)
{
    NS_LOG_FUNCTION(this << sw << at);
    NS_ABORT_MSG_IF(!sw, "MrcFailureInjector::SwitchDown: null node");
    std::vector<Ptr<MrcChannel>> links = LinksOf(sw);
    NS_ABORT_MSG_IF(links.empty(),
                    "MrcFailureInjector::SwitchDown: node " << NodeName(sw)
                                                            << " has no MrcNetDevice on a link");
    ScheduleSwitchDown(NodeName(sw), links, at);
}

void
MrcFailureInjector::SwitchUp(Ptr<Node> sw, Time at)
{
    NS_LOG_FUNCTION(this << sw << at);
    NS_ABORT_MSG_IF(!sw, "MrcFailureInjector::SwitchUp: null node");
    std::vector<Ptr<MrcChannel>> links = LinksOf(sw);
    NS_ABORT_MSG_IF(links.empty(),
                    "MrcFailureInjector::SwitchUp: node " << NodeName(sw)
                                                          << " has no MrcNetDevice on a link");
    ScheduleSwitchUp(NodeName(sw), links, at);
}

void
MrcFailureInjector::ScheduleSwitchDown(const std::string& name,
                                       const std::vector<Ptr<MrcChannel>>& links,
                                       Time at)
{
    CheckTime("SwitchDown", at);
    Ptr<MrcFailureInjector> self(this);
    At(at, [self, name, links]() {
        self->Log(MrcEventKind::SWITCH_DOWN, name, "links=" + std::to_string(links.size()));
        for (const auto& link : links)
        {
            self->Acquire(link, "switch " + name);
        }
    });
}

void
MrcFailureInjector::ScheduleSwitchUp(const std::string& name,
                                     const std::vector<Ptr<MrcChannel>>& links,
                                     Time at)
{
    CheckTime("SwitchUp", at);
    Ptr<MrcFailureInjector> self(this);
    At(at, [self, name, links]() {
        std::string still = self->ReleaseAll(links, "switch " + name);
        std::string detail = "links=" + std::to_string(links.size());
        self->Log(MrcEventKind::SWITCH_UP, name, still.empty() ? detail : detail + "; " + still);
    });
}

void
MrcFailureInjector::PlaneDown(const std::string& plane, const NodeContainer& nodes, Time at)
{
    std::vector<Ptr<MrcChannel>> links;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        for (const auto& link : LinksOf(*it))
        {
            if (std::find(links.begin(), links.end(), link) == links.end())
            {
                links.push_back(link);
            }
        }
    }
    NS_ABORT_MSG_IF(links.empty(),
                    "MrcFailureInjector::PlaneDown: plane \"" << plane << "\": its " << nodes.GetN()
                                                              << " node(s) have no links");
    PlaneDown(plane, links, at);
}

void
MrcFailureInjector::PlaneDown(const std::string& plane,
                              const std::vector<Ptr<MrcChannel>>& links,
                              Time at)
{
    NS_LOG_FUNCTION(this << plane << at);
    NS_ABORT_MSG_IF(plane.empty(), "MrcFailureInjector::PlaneDown: empty plane label");
    NS_ABORT_MSG_IF(links.empty(),
                    "MrcFailureInjector::PlaneDown: plane \"" << plane << "\" has no links");
    std::vector<Ptr<MrcChannel>> unique;
    for (const auto& link : links)
    {
        CheckLinkHere("PlaneDown", link);
        if (std::find(unique.begin(), unique.end(), link) == unique.end())
        {
            unique.push_back(link);
        }
    }
    CheckTime("PlaneDown", at);
    Ptr<MrcFailureInjector> self(this);
    At(at, [self, plane, links = std::move(unique)]() {
        self->Log(MrcEventKind::PLANE_DOWN, plane, "links=" + std::to_string(links.size()));
        auto it = std::find_if(self->m_planes.begin(),
                               self->m_planes.end(),
                               [&plane](const auto& p) { return p.first == plane; });
        if (it == self->m_planes.end())
        {
            self->m_planes.emplace_back(plane, std::vector<Ptr<MrcChannel>>());
            it = self->m_planes.end() - 1;
        }
        for (const auto& link : links)
        {
            if (std::find(it->second.begin(), it->second.end(), link) == it->second.end())
            {
                it->second.push_back(link);
            }
            self->Acquire(link, "plane " + plane);
        }
    });
}

void
MrcFailureInjector::PlaneUp(const std::string& plane, Time at)
{
    NS_LOG_FUNCTION(this << plane << at);
    NS_ABORT_MSG_IF(plane.empty(), "MrcFailureInjector::PlaneUp: empty plane label");
    CheckTime("PlaneUp", at);
    Ptr<MrcFailureInjector> self(this);
    At(at, [self, plane]() {
        auto it = std::find_if(self->m_planes.begin(),
                               self->m_planes.end(),
                               [&plane](const auto& p) { return p.first == plane; });
        if (it == self->m_planes.end())
        {
            self->Log(MrcEventKind::PLANE_UP, plane, "links=0; the plane was not down");
            return;
        }
        std::vector<Ptr<MrcChannel>> links = std::move(it->second);
        self->m_planes.erase(it);
        std::string still = self->ReleaseAll(links, "plane " + plane);
        std::string detail = "links=" + std::to_string(links.size());
        self->Log(MrcEventKind::PLANE_UP, plane, still.empty() ? detail : detail + "; " + still);
    });
}

// ---------------------------------------------------------------- gray failure

void
MrcFailureInjector::GrayFailure(Ptr<MrcNetDevice> tx, double lossProbability, Time start, Time stop)
{
    NS_LOG_FUNCTION(this << tx << lossProbability << start << stop);
    Ptr<MrcChannel> link = LinkOf("GrayFailure", tx);
    ScheduleGray(DirectionName(tx), link->GetPeer(tx), lossProbability, start, stop);
}

void
MrcFailureInjector::ScheduleGray(const std::string& direction,
                                 Ptr<MrcNetDevice> rx,
                                 double lossProbability,
                                 Time start,
                                 Time stop)
{
    NS_ABORT_MSG_IF(!(lossProbability >= 0.0 && lossProbability <= 1.0),
                    "MrcFailureInjector::GrayFailure: loss probability " << lossProbability
                                                                         << "; allowed: 0 to 1");
    CheckTime("GrayFailure", start);
    NS_ABORT_MSG_IF(stop <= start,
                    "MrcFailureInjector::GrayFailure: stop " << Ns(stop) << " is not after start "
                                                             << Ns(start));
    for (const auto& g : m_grays)
    {
        NS_ABORT_MSG_IF(g.direction == direction && start < g.stop && g.start < stop,
                        "MrcFailureInjector::GrayFailure: direction "
                            << direction << " already has a gray failure from " << Ns(g.start)
                            << " overlapping " << Ns(start)
                            << "; allowed: one at a time per direction");
    }
    // Made on every rank, so that each gray failure keeps its stream slot (m_stream + its
    // index) and the automatic stream numbers after it are those of one process.
    Ptr<RateErrorModel> model = CreateObject<RateErrorModel>();
    model->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
    model->SetRate(lossProbability);
    if (m_stream >= 0)
    {
        model->AssignStreams(m_stream + static_cast<int64_t>(m_grays.size()));
    }
    m_grays.push_back(Gray{direction, start, stop, model});

    std::ostringstream loss;
    loss << "loss=" << lossProbability;
    std::string detail = loss.str();
    // The receiver's error model before the failure, put back at its end.
    auto previous = std::make_shared<PointerValue>();
    Ptr<MrcFailureInjector> self(this);
    At(start, [self, direction, rx, model, detail, previous]() {
        self->Log(MrcEventKind::GRAY_START, direction, detail);
        if (rx) // (null: the receiver is another rank's, which draws the losses)
        {
            rx->GetAttribute("ReceiveErrorModel", *previous);
            rx->SetAttribute("ReceiveErrorModel", PointerValue(model));
        }
    });
    if (stop != Time::Max())
    {
        At(stop, [self, direction, rx, model, previous]() {
            self->Log(MrcEventKind::GRAY_STOP, direction, "");
            if (previous->Get<ErrorModel>())
            {
                rx->SetAttribute("ReceiveErrorModel", *previous);
            }
            else
            {
                // ns-3.37 cannot set a null pointer attribute: switch ours off instead.
                model->Disable();
            }
        });
    }
}

void
MrcFailureInjector::GrayFailure(Ptr<MrcNetDevice> tx, double lossProbability, Time start)
{
    GrayFailure(tx, lossProbability, start, Time::Max());
}

int64_t
MrcFailureInjector::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    NS_ABORT_MSG_IF(stream < 0,
                    "MrcFailureInjector::AssignStreams: stream " << stream << "; allowed: >= 0");
    m_stream = stream;
    for (std::size_t i = 0; i < m_grays.size(); ++i)
    {
        m_grays[i].model->AssignStreams(stream + static_cast<int64_t>(i));
    }
    return static_cast<int64_t>(m_grays.size());
}

// ---------------------------------------------------------------- textual spec

Ptr<Node>
MrcFailureInjector::FindNode(const std::string& name)
{
    if (name.empty())
    {
        return nullptr;
    }
    if (Ptr<Node> n = Names::Find<Node>(name))
    {
        return n;
    }
    if (name.size() > 4 && name.compare(0, 4, "node") == 0 &&
        name.find_first_not_of("0123456789", 4) == std::string::npos && name.size() <= 14)
    {
        uint64_t id = std::stoull(name.substr(4));
        if (id < NodeList::GetNNodes())
        {
            return NodeList::GetNode(static_cast<uint32_t>(id));
        }
    }
    return nullptr;
}

Ptr<MrcChannel>
MrcFailureInjector::FindLink(const std::string& nodeA, const std::string& nodeB)
{
    Ptr<Node> a = FindNode(nodeA);
    Ptr<Node> b = FindNode(nodeB);
    NS_ABORT_MSG_IF(!a,
                    "MrcFailureInjector::FindLink: no node named \""
                        << nodeA << "\"; allowed: a name given with Names::Add or node<id>");
    NS_ABORT_MSG_IF(!b,
                    "MrcFailureInjector::FindLink: no node named \""
                        << nodeB << "\"; allowed: a name given with Names::Add or node<id>");
    std::vector<Ptr<MrcChannel>> found;
    for (const auto& link : LinksOf(a))
    {
        if (link->GetMrcDevice(0)->GetNode() == b || link->GetMrcDevice(1)->GetNode() == b)
        {
            found.push_back(link);
        }
    }
    NS_ABORT_MSG_IF(found.empty(),
                    "MrcFailureInjector::FindLink: nodes \"" << nodeA << "\" and \"" << nodeB
                                                             << "\" share no link");
    NS_ABORT_MSG_IF(found.size() > 1,
                    "MrcFailureInjector::FindLink: nodes \""
                        << nodeA << "\" and \"" << nodeB << "\" share " << found.size()
                        << " links; allowed: a pair joined by exactly one link");
    return found.front();
}

namespace
{

/// Split "a:b,c:d" into node-name pairs, aborting on a malformed item.
std::vector<std::pair<std::string, std::string>>
ParseLinkSpec(const std::string& spec)
{
    std::vector<std::pair<std::string, std::string>> pairs;
    if (spec.empty())
    {
        return pairs;
    }
    std::size_t begin = 0;
    while (true)
    {
        std::size_t end = spec.find(',', begin);
        std::string item = spec.substr(begin, end == std::string::npos ? end : end - begin);
        std::size_t colon = item.find(':');
        NS_ABORT_MSG_IF(colon == std::string::npos || colon == 0 || colon + 1 == item.size() ||
                            item.find(':', colon + 1) != std::string::npos ||
                            item.find_first_of(" \t") != std::string::npos,
                        "MrcFailureInjector: link spec item \""
                            << item << "\" in \"" << spec
                            << "\"; allowed: nodeA:nodeB[,nodeA:nodeB...] with node names "
                               "(Names::Add) or node<id>, no spaces");
        pairs.emplace_back(item.substr(0, colon), item.substr(colon + 1));
        if (end == std::string::npos)
        {
            break;
        }
        begin = end + 1;
    }
    return pairs;
}

} // namespace

std::vector<Ptr<MrcChannel>>
MrcFailureInjector::FailLinks(const std::string& spec, Time downAt)
{
    std::vector<Ptr<MrcChannel>> links;
    for (const auto& p : ParseLinkSpec(spec))
    {
        if (!m_topo)
        {
            links.push_back(FindLink(p.first, p.second));
            continue;
        }
        // through the fabric (SetTopology): a lean build has no devices of some links
        Ptr<Node> a = FindNode(p.first);
        Ptr<Node> b = FindNode(p.second);
        const std::vector<uint32_t> ids =
            a && b ? m_topo->GetLinksBetween(a, b) : std::vector<uint32_t>();
        NS_ABORT_MSG_IF(ids.size() != 1,
                        "MrcFailureInjector::FailLinks: nodes \""
                            << p.first << "\" and \"" << p.second << "\" are "
                            << (a && b ? "joined by " + std::to_string(ids.size()) + " links"
                                       : std::string("not both in the fabric"))
                            << "; allowed: a pair joined by exactly one link");
        links.push_back(LinkOfFabric(m_topo, ids[0]));
    }
    for (const auto& link : links)
    {
        LinkDown(link, downAt);
    }
    return links;
}

std::vector<Ptr<MrcChannel>>
MrcFailureInjector::FailLinks(const std::string& spec, Time downAt, Time upAt)
{
    NS_ABORT_MSG_IF(upAt <= downAt,
                    "MrcFailureInjector::FailLinks: repair time "
                        << Ns(upAt) << " is not after the failure time " << Ns(downAt)
                        << " (spec \"" << spec << "\")");
    std::vector<Ptr<MrcChannel>> links = FailLinks(spec, downAt);
    for (const auto& link : links)
    {
        LinkUp(link, upAt);
    }
    return links;
}

// ---------------------------------------------------------------- failure specs

std::string
MrcFailureSpec::PlaneLabel(uint32_t plane)
{
    return "p" + std::to_string(plane);
}

const char*
MrcFailureSpec::KindName(Kind kind)
{
    switch (kind)
    {
    case Kind::LINK:
        return "link";
    case Kind::SWITCH:
        return "switch";
    case Kind::FLAP:
        return "flap";
    case Kind::GRAY:
        return "gray";
    case Kind::PLANE:
        return "plane";
    case Kind::PORT:
        return "port";
    }
    return "?";
}

std::string
MrcFailureInjector::TrySchedule(const MrcFailureSpec& s, Ptr<MrcTopology> topo)
{
    NS_LOG_FUNCTION(this << s.option << s.item);
    NS_ABORT_MSG_IF(!topo, "MrcFailureInjector::TrySchedule: null fabric");
    const std::string bad = "--" + s.option + "='" + s.item + "': ";
    const std::string names = " (nodes are host<i> and p<plane>-t<tier>-<index>)";
    const bool repaired = s.repair.IsStrictlyPositive();
    using Kind = MrcFailureSpec::Kind;
    switch (s.kind)
    {
    case Kind::LINK:
    case Kind::FLAP:
    case Kind::GRAY: {
        Ptr<Node> a = FindNode(s.nodeA);
        Ptr<Node> b = FindNode(s.nodeB);
        if (!a || !b)
        {
            return bad + "no node named '" + (a ? s.nodeB : s.nodeA) + "' in this fabric" + names;
        }
        const std::vector<uint32_t> ids = topo->GetLinksBetween(a, b);
        if (ids.size() != 1)
        {
            return bad + "'" + s.nodeA + "' and '" + s.nodeB + "' are joined by " +
                   std::to_string(ids.size()) + " links; allowed: two nodes joined by one link";
        }
        const MrcTopologyLink& l = topo->GetLink(ids[0]);
        if (s.kind == Kind::LINK)
        {
            Ptr<MrcChannel> link = LinkOfFabric(topo, ids[0]);
            LinkDown(link, s.at);
            if (repaired)
            {
                LinkUp(link, s.repair);
            }
        }
        else if (s.kind == Kind::FLAP)
        {
            Flap(LinkOfFabric(topo, ids[0]), s.at, s.period, s.count, s.downTime);
        }
        else
        {
            // the receiving device may be another rank's (null here): it draws the losses
            const bool txIsA = l.nodeA == a;
            ScheduleGray(topo->GetPortName(ids[0], txIsA) + "->" +
                             topo->GetPortName(ids[0], !txIsA),
                         txIsA ? l.devB : l.devA,
                         s.loss,
                         s.at,
                         repaired ? s.repair : Time::Max());
        }
        return "";
    }
    case Kind::SWITCH: {
        Ptr<Node> sw = FindNode(s.nodeA);
        if (!sw || topo->FindSwitchId(sw) < 0)
        {
            return bad + "'" + s.nodeA + "' is not a switch of this fabric" + names;
        }
        // through the fabric: a lean build has no devices on another rank's switch
        const std::vector<Ptr<MrcChannel>> links = LinksOfFabric(topo, sw);
        if (links.empty())
        {
            return bad + "'" + s.nodeA + "' has no links";
        }
        ScheduleSwitchDown(NodeName(sw), links, s.at);
        if (repaired)
        {
            ScheduleSwitchUp(NodeName(sw), links, s.repair);
        }
        return "";
    }
    case Kind::PLANE: {
        if (s.plane >= topo->GetNPlanes())
        {
            return bad + "plane " + std::to_string(s.plane) +
                   " is not in this fabric (allowed: 0.." + std::to_string(topo->GetNPlanes() - 1) +
                   ")";
        }
        std::vector<Ptr<MrcChannel>> links;
        for (uint32_t id = 0; id < topo->GetNLinks(); ++id)
        {
            if (topo->GetLink(id).plane == s.plane)
            {
                links.push_back(LinkOfFabric(topo, id)); // (built here or not)
            }
        }
        const std::string label = MrcFailureSpec::PlaneLabel(s.plane);
        PlaneDown(label, links, s.at);
        if (repaired)
        {
            PlaneUp(label, s.repair);
        }
        return "";
    }
    case Kind::PORT: {
        Ptr<Node> host = FindNode(s.nodeA);
        const int32_t h = host ? topo->FindHost(host) : -1;
        if (h < 0)
        {
            return bad + "'" + s.nodeA + "' is not a host of this fabric (hosts are host0..host" +
                   std::to_string(topo->GetNHosts() - 1) + ")";
        }
        if (s.plane >= topo->GetNPlanes())
        {
            return bad + "plane " + std::to_string(s.plane) +
                   " is not in this fabric (allowed: 0.." + std::to_string(topo->GetNPlanes() - 1) +
                   ")";
        }
        // through the fabric: the host may be another rank's
        const uint32_t id = topo->GetHostLink(static_cast<uint32_t>(h), s.plane);
        Ptr<MrcChannel> link = LinkOfFabric(topo, id);
        const std::string name = topo->GetPortName(id, true);
        SchedulePortDown(name, link, s.at);
        if (repaired)
        {
            SchedulePortUp(name, link, s.repair);
        }
        return "";
    }
    }
    return bad + "unknown failure kind";
}

} // namespace ns3
