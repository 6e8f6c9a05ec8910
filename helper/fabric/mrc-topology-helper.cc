/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-topology-helper.h"

#include "ns3/abort.h"
#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/mrc-channel.h"
#include "ns3/mrc-dual-forwarding.h"
#include "ns3/mrc-mpi.h"
#include "ns3/names.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <deque>
#include <fstream>
#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcTopologyHelper");

MrcTopologyHelper::MrcTopologyHelper()
{
    m_manager.SetTypeId("ns3::MrcEcmpRouteManager");
}

MrcTopologyHelper::MrcTopologyHelper(const MrcTopologyConfig& config)
    : MrcTopologyHelper()
{
    m_config = config;
}

MrcTopologyConfig&
MrcTopologyHelper::GetConfig()
{
    return m_config;
}

void
MrcTopologyHelper::SetConfig(const MrcTopologyConfig& config)
{
    m_config = config;
}

MrcSwitchHelper&
MrcTopologyHelper::GetSwitchHelper(MrcTier tier)
{
    return m_switch[static_cast<uint32_t>(tier)];
}

MrcLinkHelper&
MrcTopologyHelper::GetLinkHelper(MrcLinkTier tier)
{
    return m_link[static_cast<uint32_t>(tier)];
}

void
MrcTopologyHelper::SetRouteManagerAttribute(std::string name, const AttributeValue& value)
{
    m_manager.Set(name, value);
}

void
MrcTopologyHelper::SetLocatorBlock(uint32_t block)
{
    m_locator = block;
}

void
MrcTopologyHelper::SetEcmpSeed(uint64_t seed)
{
    m_seed = seed;
}

void
MrcTopologyHelper::SetNames(bool names)
{
    m_names = names;
}

namespace
{

/**
 * Register \p name for \p node with ns-3's Names, or stop with a message that says why it
 * cannot be: the names live for the whole process (Simulator::Destroy keeps them), so a
 * second topology built in one program finds the first one's names taken.
 */
void
AddNodeName(const std::string& name, Ptr<Node> node)
{
    if (Names::Find<Object>(name))
    {
        NS_FATAL_ERROR("MrcTopologyHelper: the ns-3 name \""
                       << name
                       << "\" is taken (a topology built earlier in this process keeps its "
                          "names after Simulator::Destroy); allowed: call Names::Clear() before "
                          "building another topology, or SetNames(false) on this helper");
    }
    Names::Add(name, node);
}

/// The dual forwarding of a switch built by the helper (an MrcSwitchNode made here).
Ptr<MrcDualForwarding>
Dual(Ptr<Node> sw)
{
    return StaticCast<MrcDualForwarding>(StaticCast<MrcSwitchNode>(sw)->GetForwarding());
}

} // namespace

Ptr<MrcTopology>
MrcTopologyHelper::Build()
{
    NS_LOG_FUNCTION(this);
    const std::string err = m_config.Validate();
    if (!err.empty())
    {
        NS_FATAL_ERROR("MrcTopologyHelper: invalid fabric: " << err);
    }
    const MrcTopologyConfig& c = m_config;
    const std::string why = CheckRanks(c, m_ranks);
    if (!why.empty())
    {
        NS_FATAL_ERROR("MrcTopologyHelper: cannot split the fabric over " << m_ranks
                                                                          << " ranks: " << why);
    }
    Ptr<MrcTopology> t = CreateObject<MrcTopology>();
    t->m_config = c;
    if (c.kind == MrcTopologyKind::FAT_TREE)
    {
        t->m_config.hosts = c.GetHosts();
        t->m_config.hostsPerT0 = c.GetHostsPerT0();
    }
    t->m_locator = m_locator;

    // link rates and delays per tier
    const DataRate rates[MRC_N_LINK_TIERS] = {c.hostRate, c.fabricRate, c.coreRate};
    const Time delays[MRC_N_LINK_TIERS] = {c.hostDelay, c.fabricDelay, c.coreDelay};
    for (uint32_t i = 0; i < MRC_N_LINK_TIERS; ++i)
    {
        m_link[i].SetDeviceAttribute("DataRate", DataRateValue(rates[i]));
        m_link[i].SetChannelAttribute("Delay", TimeValue(delays[i]));
    }

    m_joined.clear();
    m_portCount.clear();
    m_portNumber.clear();
    CreateHosts(t);
    for (uint32_t p = 0; p < c.planes; ++p)
    {
        CreatePlaneSwitches(t, p);
        ConnectPlaneHosts(t, p);
        ConnectPlaneSwitches(t, p);
        InstallPlaneEcmp(t, p);
    }
    std::vector<uint32_t>().swap(m_portCount);
    std::vector<std::vector<uint32_t>>().swap(m_portNumber);
    NS_LOG_INFO("built " << MrcTopologyKindName(c.kind) << ": " << c.planes << " planes, "
                         << c.GetHosts() << " hosts, " << t->m_switches.size() << " switches, "
                         << t->m_links.size() << " links");
    return t;
}

bool
MrcTopologyHelper::FirstLinkBetween(Ptr<Node> a, Ptr<Node> b)
{
    const uint64_t lo = std::min(a->GetId(), b->GetId());
    const uint64_t hi = std::max(a->GetId(), b->GetId());
    return m_joined.insert(lo << 32 | hi).second;
}

Ptr<Node>
MrcTopologyHelper::SwitchAt(Ptr<MrcTopology> t, uint32_t p, MrcTier tier, uint32_t i)
{
    return t->m_switchNodes[t->m_firstSwitch[p * MRC_N_TIERS + uint32_t(tier)] + i];
}

void
MrcTopologyHelper::SetRanks(uint32_t ranks)
{
    m_ranks = ranks;
}

void
MrcTopologyHelper::SetBuildRank(uint32_t rank)
{
    m_buildRank = rank;
}

bool
MrcTopologyHelper::Lean() const
{
    return m_ranks > 1 && m_buildRank >= 0;
}

bool
MrcTopologyHelper::IsHere(Ptr<Node> node) const
{
    if (m_buildRank >= 0)
    {
        return m_ranks <= 1 || node->GetSystemId() == static_cast<uint32_t>(m_buildRank);
    }
    return MrcMpi::IsLocal(PeekPointer(node));
}

uint32_t
MrcTopologyHelper::NextPort(Ptr<MrcTopology> t, Ptr<Node> sw)
{
    const uint32_t id = t->m_switchOfNode.at(sw->GetId());
    if (m_portCount.size() <= id)
    {
        m_portCount.resize(id + 1, 0);
        m_portNumber.resize(id + 1);
    }
    return m_portCount[id]++;
}

uint32_t
MrcTopologyHelper::ConnectHostLink(Ptr<MrcTopology> t,
                                   uint32_t p,
                                   uint32_t h,
                                   Ptr<Node> t0,
                                   MrcLinkHelper& lh,
                                   DataRate rate,
                                   Time delay)
{
    const uint32_t planes = t->m_config.planes;
    Ptr<Node> host = t->m_hosts.Get(h);
    if (Lean() && !IsHere(host))
    {
        // Another rank's host (and so its T0's): the link as data, its port counted.
        lh.Skip();
        const uint32_t port = NextPort(t, t0);
        t->m_hostLink[std::size_t(h) * planes + p] = t->AddUnbuiltLink(p,
                                                                       MrcLinkTier::HOST,
                                                                       host,
                                                                       t0,
                                                                       p,
                                                                       port,
                                                                       rate,
                                                                       delay,
                                                                       lh.GetDeviceWireOverhead());
        return port;
    }
    const uint32_t port = MrcSwitchHelper::ConnectHost(lh, t0, host);
    if (Lean())
    {
        const uint32_t number = NextPort(t, t0);
        NS_ASSERT_MSG(number == port, "a switch with hosts here has all its ports here");
        m_portNumber[t->m_switchOfNode.at(t0->GetId())].push_back(number);
    }
    Ptr<MrcNetDevice> nic = DynamicCast<MrcNetDevice>(host->GetDevice(host->GetNDevices() - 1));
    NS_ASSERT(host->GetNDevices() == p + 1);
    Ptr<MrcNetDevice> swPort = StaticCast<MrcSwitchNode>(t0)->GetPort(port);
    t->m_hostLink[std::size_t(h) * planes + p] =
        t->AddLink(p, MrcLinkTier::HOST, host, t0, nic, swPort, p, port);
    return port;
}

std::pair<uint32_t, uint32_t>
MrcTopologyHelper::ConnectSwitchLink(Ptr<MrcTopology> t,
                                     uint32_t p,
                                     MrcLinkTier lt,
                                     MrcLinkHelper& lh,
                                     Ptr<Node> a,
                                     Ptr<Node> b,
                                     DataRate rate,
                                     Time delay)
{
    if (!Lean())
    {
        auto [pa, pb] = MrcSwitchHelper::ConnectSwitches(lh, a, b);
        t->AddLink(p,
                   lt,
                   a,
                   b,
                   StaticCast<MrcSwitchNode>(a)->GetPort(pa),
                   StaticCast<MrcSwitchNode>(b)->GetPort(pb),
                   pa,
                   pb);
        return {pa, pb};
    }
    // the interface indices (= port numbers) the devices have on their own ranks
    const uint32_t na = NextPort(t, a);
    const uint32_t nb = NextPort(t, b);
    if (!IsHere(a) && !IsHere(b))
    {
        // Both ends on other ranks: the link as data (its MAC addresses counted).
        lh.Skip();
        t->AddUnbuiltLink(p, lt, a, b, na, nb, rate, delay, lh.GetDeviceWireOverhead());
        m_unbuiltSwitchLinks.emplace_back(a, na, b, nb, nullptr);
        return {na, nb};
    }
    if (!IsHere(a) || !IsHere(b))
    {
        // A link to another rank: the device here, the far end an MrcRemotePort on the
        // far switch's bare node (its interface index and MAC address those of its rank).
        const bool farIsA = !IsHere(a);
        Ptr<MrcNetDevice> dev = lh.InstallToRank(a, b, na, nb, farIsA ? 0 : 1);
        Ptr<Node> here = farIsA ? b : a;
        const uint32_t number = farIsA ? nb : na;
        [[maybe_unused]] const uint32_t port = StaticCast<MrcSwitchNode>(here)->AddPort(dev, false);
        NS_ASSERT_MSG(port == m_portNumber[t->m_switchOfNode.at(here->GetId())].size(),
                      "the ports of a switch here are made in its own order");
        m_portNumber[t->m_switchOfNode.at(here->GetId())].push_back(number);
        t->AddLink(p, lt, a, b, farIsA ? nullptr : dev, farIsA ? dev : nullptr, na, nb);
        m_unbuiltSwitchLinks.emplace_back(a, na, b, nb, dev->GetMrcChannel());
        return {na, nb};
    }
    auto [pa, pb] = MrcSwitchHelper::ConnectSwitches(lh, a, b, na, nb);
    m_portNumber[t->m_switchOfNode.at(a->GetId())].push_back(na);
    m_portNumber[t->m_switchOfNode.at(b->GetId())].push_back(nb);
    t->AddLink(p,
               lt,
               a,
               b,
               StaticCast<MrcSwitchNode>(a)->GetPort(pa),
               StaticCast<MrcSwitchNode>(b)->GetPort(pb),
               na,
               nb);
    return {na, nb};
}

std::string
MrcTopologyHelper::CheckRanks(const MrcTopologyConfig& c, uint32_t ranks)
{
    if (ranks == 0)
    {
        return "0 ranks";
    }
    if (ranks == 1)
    {
        return "";
    }
    if (c.kind == MrcTopologyKind::GRAPH)
    {
        return ""; // the split is the graph's: MrcTopologyGraph::CheckRanks
    }
    // Each rank needs a T0 group (or pod) and a switch of the top tier, so that every two
    // ranks share a link (notices between ranks travel on them).
    const bool fat = c.kind == MrcTopologyKind::FAT_TREE;
    const uint32_t groups = fat ? c.k : c.GetT0PerPlane();
    const uint32_t tops = fat ? c.GetT2PerPlane() : c.GetT1PerPlane();
    if (ranks > groups || ranks > tops)
    {
        const uint32_t most = std::min(groups, tops);
        return "the fabric has " + std::to_string(groups) + (fat ? " pods" : " T0s per plane") +
               " and " + std::to_string(tops) + (fat ? " core" : " T1") +
               " switches per plane; each rank needs at least one of each (allowed: 1.." +
               std::to_string(most) + " ranks)";
    }
    return "";
}

uint32_t
MrcTopologyHelper::GetRankOfT0(uint32_t t0) const
{
    const MrcTopologyConfig& c = m_config;
    if (m_ranks <= 1)
    {
        return 0;
    }
    const uint32_t group = c.kind == MrcTopologyKind::FAT_TREE ? t0 / (c.k / 2) : t0;
    if (!m_groupRank.empty())
    {
        return m_groupRank.at(group);
    }
    const uint32_t groups = c.kind == MrcTopologyKind::FAT_TREE ? c.k : c.GetT0PerPlane();
    return static_cast<uint32_t>(uint64_t{group} * m_ranks / groups);
}

void
MrcTopologyHelper::SetGraphRanks(const std::vector<uint32_t>& nodeRank)
{
    m_graphRank = nodeRank;
}

void
MrcTopologyHelper::SetRankMap(const std::vector<uint32_t>& groups,
                              const std::vector<uint32_t>& tops)
{
    m_groupRank = groups;
    m_topRank = tops;
}

namespace
{

/// \return the number of T0 groups (pods) and of top-tier switches per plane of a shape
std::pair<uint32_t, uint32_t>
RankUnits(const MrcTopologyConfig& c)
{
    const bool fat = c.kind == MrcTopologyKind::FAT_TREE;
    return {fat ? c.k : c.GetT0PerPlane(), fat ? c.GetT2PerPlane() : c.GetT1PerPlane()};
}

} // namespace

std::string
MrcTopologyHelper::CheckRankMap(const MrcTopologyConfig& c,
                                uint32_t ranks,
                                const std::vector<uint32_t>& groups,
                                const std::vector<uint32_t>& tops)
{
    if (c.kind == MrcTopologyKind::GRAPH)
    {
        return "a fabric from a topology file has no T0 groups to map (allowed: clos, "
               "fat-tree)";
    }
    const bool fat = c.kind == MrcTopologyKind::FAT_TREE;
    const auto [nGroups, nTops] = RankUnits(c);
    if (groups.size() != nGroups || tops.size() != nTops)
    {
        return "the map has " + std::to_string(groups.size()) + (fat ? " pods" : " T0 groups") +
               " and " + std::to_string(tops.size()) + " top switches; the fabric has " +
               std::to_string(nGroups) + " and " + std::to_string(nTops);
    }
    std::vector<uint32_t> nG(ranks, 0);
    std::vector<uint32_t> nT(ranks, 0);
    for (const auto& [v, n] : {std::make_pair(&groups, &nG), std::make_pair(&tops, &nT)})
    {
        for (uint32_t r : *v)
        {
            if (r >= ranks)
            {
                return "rank " + std::to_string(r) + " is out of range (allowed: 0.." +
                       std::to_string(ranks - 1) + ")";
            }
            ++(*n)[r];
        }
    }
    for (uint32_t r = 0; r < ranks; ++r)
    {
        if (nG[r] == 0 || nT[r] == 0)
        {
            return "rank " + std::to_string(r) + " has no " +
                   (nG[r] == 0 ? (fat ? "pod" : "T0 group") : (fat ? "core switch" : "T1")) +
                   "; each rank needs at least one " + (fat ? "pod" : "T0 group") + " and one " +
                   (fat ? "core switch" : "T1") + " (notices between ranks travel on their links)";
        }
    }
    return "";
}

std::string
MrcTopologyHelper::ReadRankMap(const std::string& path,
                               const MrcTopologyConfig& c,
                               uint32_t ranks,
                               std::vector<uint32_t>& groups,
                               std::vector<uint32_t>& tops)
{
    std::ifstream in(path);
    if (!in)
    {
        return path + ": cannot be read";
    }
    if (c.kind == MrcTopologyKind::GRAPH)
    {
        return path + ": " + CheckRankMap(c, ranks, groups, tops);
    }
    const bool fat = c.kind == MrcTopologyKind::FAT_TREE;
    const auto [nGroups, nTops] = RankUnits(c);
    groups.resize(nGroups);
    tops.resize(nTops);
    for (uint32_t i = 0; i < nGroups; ++i)
    {
        groups[i] = static_cast<uint32_t>(uint64_t{i} * ranks / nGroups);
    }
    for (uint32_t i = 0; i < nTops; ++i)
    {
        tops[i] = static_cast<uint32_t>(uint64_t{i} * ranks / nTops);
    }
    const std::string groupWord = fat ? "pod-" : "t0-";
    const std::string topWord = fat ? "core-" : "t1-";
    const std::string allowed = " (allowed: " + groupWord + "0.." + groupWord +
                                std::to_string(nGroups - 1) + ", " + topWord + "0.." + topWord +
                                std::to_string(nTops - 1) + ")";
    std::unordered_set<const uint32_t*> seen; // entries given (t0-1 and t0-01 are one)
    std::string line;
    for (uint32_t n = 1; std::getline(in, line); ++n)
    {
        const std::string at = path + ":" + std::to_string(n) + ": ";
        const std::size_t hash = line.find('#');
        std::istringstream words(line.substr(0, hash));
        std::string name;
        std::string rank;
        std::string extra;
        if (!(words >> name))
        {
            continue;
        }
        if (!(words >> rank) || (words >> extra))
        {
            return at + "expected 'NAME RANK'";
        }
        uint32_t* slot = nullptr;
        for (const auto& [word, v] :
             {std::make_pair(&groupWord, &groups), std::make_pair(&topWord, &tops)})
        {
            const std::string& w = *word;
            if (name.compare(0, w.size(), w) != 0 || name.size() == w.size() ||
                name.size() > w.size() + 9 ||
                name.find_first_not_of("0123456789", w.size()) != std::string::npos)
            {
                continue;
            }
            const uint64_t i = std::stoull(name.substr(w.size()));
            if (i < v->size())
            {
                slot = &(*v)[i];
            }
        }
        if (!slot)
        {
            const bool host = name.compare(0, 4, "host") == 0;
            return at + "'" + name + "' is not a " +
                   (fat ? "pod or core switch" : "T0 group or T1") + " of this fabric" +
                   (host ? " (a host goes with its T0 group: host links do not cross ranks)" : "") +
                   allowed;
        }
        if (!seen.insert(slot).second)
        {
            return at + "'" + name + "' is given twice";
        }
        if (rank.empty() || rank.size() > 9 ||
            rank.find_first_not_of("0123456789") != std::string::npos || std::stoull(rank) >= ranks)
        {
            return at + "rank '" + rank + "' of '" + name + "' is out of range (allowed: 0.." +
                   std::to_string(ranks - 1) + ")";
        }
        *slot = static_cast<uint32_t>(std::stoull(rank));
    }
    const std::string why = CheckRankMap(c, ranks, groups, tops);
    return why.empty() ? "" : path + ": " + why;
}

uint32_t
MrcTopologyHelper::RankOfSwitch(uint32_t tier, uint32_t i) const
{
    const MrcTopologyConfig& c = m_config;
    if (m_ranks <= 1)
    {
        return 0;
    }
    if (!m_graphTierRank[tier].empty())
    {
        return m_graphTierRank[tier].at(i); // a graph fabric's split (BuildGraph)
    }
    if (tier == 0 || (tier == 1 && c.kind == MrcTopologyKind::FAT_TREE))
    {
        return GetRankOfT0(i); // a fat-tree's aggregation switch i is in the pod of T0 i
    }
    if (!m_topRank.empty())
    {
        return m_topRank.at(i);
    }
    const uint32_t n = tier == 1 ? c.GetT1PerPlane() : c.GetT2PerPlane();
    return static_cast<uint32_t>(uint64_t{i} * m_ranks / n);
}

void
MrcTopologyHelper::CreateHosts(Ptr<MrcTopology> t)
{
    const uint32_t nHosts = t->m_config.GetHosts();
    if (m_ranks <= 1)
    {
        t->m_hosts.Create(nHosts);
    }
    else
    {
        const uint32_t perT0 = t->m_config.GetHostsPerT0();
        for (uint32_t h = 0; h < nHosts; ++h)
        {
            // a graph fabric's host is on the rank of its switch (BuildGraph)
            t->m_hosts.Add(CreateObject<Node>(m_graphHostRank.empty() ? GetRankOfT0(h / perT0)
                                                                      : m_graphHostRank.at(h)));
        }
    }
    for (uint32_t h = 0; h < nHosts; ++h)
    {
        t->m_hostOfNode[t->m_hosts.Get(h)->GetId()] = h;
        if (m_names)
        {
            AddNodeName("host" + std::to_string(h), t->m_hosts.Get(h));
        }
    }
    t->m_hostLink.assign(std::size_t(nHosts) * t->m_config.planes, 0);
}

void
MrcTopologyHelper::CreatePlaneSwitches(Ptr<MrcTopology> t, uint32_t p)
{
    const MrcTopologyConfig& c = m_config;
    const uint32_t nT[MRC_N_TIERS] = {c.GetT0PerPlane(), c.GetT1PerPlane(), c.GetT2PerPlane()};
    for (uint32_t tier = 0; tier < MRC_N_TIERS; ++tier)
    {
        t->m_firstSwitch.push_back(static_cast<uint32_t>(t->m_switches.size()));
        for (uint32_t i = 0; i < nT[tier]; ++i)
        {
            AddSwitch(t, p, tier, i);
        }
    }
}

uint32_t
MrcTopologyHelper::AddSwitch(Ptr<MrcTopology> t, uint32_t p, uint32_t tier, uint32_t i)
{
    const MrcUsidType types[MRC_N_TIERS] = {MrcUsidType::T0, MrcUsidType::T1, MrcUsidType::T2};
    const uint32_t id = static_cast<uint32_t>(t->m_switches.size());
    const uint32_t rank = RankOfSwitch(tier, i);
    const uint16_t usid = MrcMakeUsid(p, types[tier], i);
    Ptr<Node> node;
    if (Lean() && rank != static_cast<uint32_t>(m_buildRank))
    {
        // another rank's switch: a bare node with its rank and node id, nothing else
        node = CreateObject<Node>(rank);
        t->m_switches.push_back(nullptr);
    }
    else
    {
        MrcSwitchNode::SystemIdScope scope(rank);
        Ptr<MrcSwitchNode> sw = m_switch[tier].CreateSwitch();
        Ptr<MrcDualForwarding> fwd = CreateObject<MrcDualForwarding>();
        fwd->SetLocatorBlock(m_locator);
        fwd->GetSrv6()->SetAttribute("Usid", UintegerValue(usid));
        fwd->GetEcmp()->SetAttribute("Seed", UintegerValue(m_seed + id));
        sw->SetForwarding(fwd);
        t->m_switches.push_back(sw);
        node = sw;
    }
    Ptr<Node> sw = node;
    t->m_switchNodes.push_back(sw);
    t->m_usids.push_back(usid);
    t->m_switchPlane.push_back(p);
    t->m_switchTier.push_back(static_cast<MrcTier>(tier));
    t->m_switchIndex.push_back(i);
    t->m_switchOfNode[sw->GetId()] = id;
    if (m_names)
    {
        AddNodeName("p" + std::to_string(p) + "-t" + std::to_string(tier) + "-" + std::to_string(i),
                    sw);
    }
    return id;
}

void
MrcTopologyHelper::ConnectPlaneHosts(Ptr<MrcTopology> t, uint32_t p)
{
    // host h hangs off T0 h / hpt on downlink h % hpt, in every plane
    const uint32_t hpt = m_config.GetHostsPerT0();
    for (uint32_t h = 0; h < m_config.GetHosts(); ++h)
    {
        Ptr<Node> t0 = SwitchAt(t, p, MrcTier::T0, h / hpt);
        const uint32_t port = ConnectHostLink(t,
                                              p,
                                              h,
                                              t0,
                                              m_link[uint32_t(MrcLinkTier::HOST)],
                                              m_config.hostRate,
                                              m_config.hostDelay);
        if (IsHere(t0)) // (another rank's switch: no SRv6 table)
        {
            Dual(t0)->GetSrv6()->AddLocalAdjacency(
                MrcMakeUsid(p, MrcUsidType::HOST_DOWNLINK, h % hpt),
                port);
        }
    }
}

void
MrcTopologyHelper::JoinSwitches(Ptr<MrcTopology> t,
                                uint32_t p,
                                MrcLinkTier lt,
                                MrcTier ta,
                                uint32_t ia,
                                MrcTier tb,
                                uint32_t ib)
{
    const MrcUsidType types[MRC_N_TIERS] = {MrcUsidType::T0, MrcUsidType::T1, MrcUsidType::T2};
    Ptr<Node> a = SwitchAt(t, p, ta, ia);
    Ptr<Node> b = SwitchAt(t, p, tb, ib);
    const bool first = FirstLinkBetween(a, b);
    const bool core = lt == MrcLinkTier::T1_T2;
    auto [pa, pb] = ConnectSwitchLink(t,
                                      p,
                                      lt,
                                      m_link[uint32_t(lt)],
                                      a,
                                      b,
                                      core ? m_config.coreRate : m_config.fabricRate,
                                      core ? m_config.coreDelay : m_config.fabricDelay);
    // SRv6 uSID routes only on this rank's switches (MrcMpi::IsLocal; all in one process)
    if (first && IsHere(a))
    {
        Dual(a)->GetSrv6()->AddUsidRoute(MrcMakeUsid(p, types[uint32_t(tb)], ib), pa);
    }
    if (first && IsHere(b))
    {
        Dual(b)->GetSrv6()->AddUsidRoute(MrcMakeUsid(p, types[uint32_t(ta)], ia), pb);
    }
}

void
MrcTopologyHelper::ConnectPlaneSwitches(Ptr<MrcTopology> t, uint32_t p)
{
    const MrcTopologyConfig& c = m_config;
    if (c.kind != MrcTopologyKind::FAT_TREE)
    {
        // T0 uplink u goes to T1 u mod t1PerPlane
        const uint32_t up = c.GetUplinksPerT0();
        for (uint32_t j = 0; j < c.GetT0PerPlane(); ++j)
        {
            for (uint32_t u = 0; u < up; ++u)
            {
                JoinSwitches(t,
                             p,
                             MrcLinkTier::T0_T1,
                             MrcTier::T0,
                             j,
                             MrcTier::T1,
                             u % c.GetT1PerPlane());
            }
        }
        return;
    }
    // pod q: ToR q*half+i, aggregation q*half+j; core j*half+m joins aggregation j of
    // every pod
    const uint32_t half = c.k / 2;
    for (uint32_t q = 0; q < c.k; ++q)
    {
        for (uint32_t i = 0; i < half; ++i)
        {
            for (uint32_t j = 0; j < half; ++j)
            {
                JoinSwitches(t,
                             p,
                             MrcLinkTier::T0_T1,
                             MrcTier::T0,
                             q * half + i,
                             MrcTier::T1,
                             q * half + j);
            }
        }
    }
    for (uint32_t q = 0; q < c.k; ++q)
    {
        for (uint32_t j = 0; j < half; ++j)
        {
            for (uint32_t m = 0; m < half; ++m)
            {
                JoinSwitches(t,
                             p,
                             MrcLinkTier::T1_T2,
                             MrcTier::T1,
                             q * half + j,
                             MrcTier::T2,
                             j * half + m);
            }
        }
    }
}

void
MrcTopologyHelper::InstallPlaneEcmp(Ptr<MrcTopology> t, uint32_t p)
{
    // The plane's switches are the last ones created, tier by tier.
    Ptr<MrcEcmpRouteManager> mgr = m_manager.Create<MrcEcmpRouteManager>();
    if (Lean())
    {
        mgr->SetBuildRank(static_cast<uint32_t>(m_buildRank));
    }
    for (uint32_t id = t->m_firstSwitch[p * MRC_N_TIERS]; id < t->m_switches.size(); ++id)
    {
        Ptr<MrcSwitchNode> sw = t->m_switches[id];
        if (!sw)
        {
            // another rank's switch (lean build): its ports by number, none made here
            mgr->AddSwitch(
                t->m_switchNodes[id],
                nullptr,
                std::vector<Ptr<MrcNetDevice>>(id < m_portCount.size() ? m_portCount[id] : 0));
            continue;
        }
        std::vector<Ptr<MrcNetDevice>> ports(sw->GetNPorts());
        for (uint32_t k = 0; k < sw->GetNPorts(); ++k)
        {
            ports[k] = sw->GetPort(k);
        }
        if (Lean() && id < m_portCount.size())
        {
            // by the port numbers of the switch's own rank (ports not made here: null)
            ports.assign(m_portCount[id], nullptr);
            for (uint32_t k = 0; k < sw->GetNPorts(); ++k)
            {
                ports[m_portNumber[id][k]] = sw->GetPort(k);
            }
        }
        mgr->AddSwitch(sw, Dual(sw)->GetEcmp(), ports);
    }
    for (const auto& [a, pa, b, pb, channel] : m_unbuiltSwitchLinks)
    {
        // a link of two other ranks' switches (no channel), or to another rank's switch
        mgr->AddSwitchLink(a, pa, b, pb, channel);
    }
    m_unbuiltSwitchLinks.clear();
    const uint32_t planes = t->m_config.planes;
    for (uint32_t h = 0; h < t->m_hosts.GetN(); ++h)
    {
        const MrcTopologyLink& l = t->m_links[t->m_hostLink[std::size_t(h) * planes + p]];
        if (l.IsBuilt())
        {
            mgr->AddHost(t->GetAddress(h, p), l.devB);
        }
        else
        {
            mgr->AddHost(t->GetAddress(h, p), l.nodeB, l.portB); // another rank's host
        }
    }
    mgr->ComputeAndInstall();
    t->m_managers.push_back(mgr);
    if (p + 1 == t->m_config.planes)
    {
        std::unordered_set<uint64_t>().swap(m_joined);
    }
}

// ---------------------------------------------------------------------------
// graph fabrics

namespace
{

/// Switch tiers of a graph: hop distance from the nearest switch with a host, capped at 2.
std::vector<uint32_t>
GraphTiers(const MrcTopologyGraph& g)
{
    const std::size_t n = g.isSwitch.size();
    std::vector<std::vector<uint32_t>> adj(n);
    std::vector<uint32_t> dist(n, std::numeric_limits<uint32_t>::max());
    std::deque<uint32_t> queue;
    for (const auto& l : g.links)
    {
        if (l.a >= n || l.b >= n)
        {
            continue;
        }
        if (g.isSwitch[l.a] && g.isSwitch[l.b])
        {
            adj[l.a].push_back(l.b);
            adj[l.b].push_back(l.a);
        }
        else
        {
            const uint32_t sw = g.isSwitch[l.a] ? l.a : l.b;
            if (g.isSwitch[sw] && dist[sw] != 0)
            {
                dist[sw] = 0;
                queue.push_back(sw);
            }
        }
    }
    while (!queue.empty())
    {
        const uint32_t v = queue.front();
        queue.pop_front();
        for (uint32_t u : adj[v])
        {
            if (dist[u] == std::numeric_limits<uint32_t>::max())
            {
                dist[u] = dist[v] + 1;
                queue.push_back(u);
            }
        }
    }
    std::vector<uint32_t> tier(n, 0);
    for (std::size_t v = 0; v < n; ++v)
    {
        tier[v] = std::min<uint32_t>(dist[v], 2);
    }
    return tier;
}

} // namespace

std::string
MrcTopologyGraph::Validate(int64_t& badLink) const
{
    badLink = -1;
    const std::size_t n = isSwitch.size();
    std::vector<uint32_t> hostLinks(n, 0);
    std::vector<int64_t> firstLink(n, -1);
    for (std::size_t i = 0; i < links.size(); ++i)
    {
        const MrcGraphLink& l = links[i];
        badLink = static_cast<int64_t>(i);
        if (l.a >= n || l.b >= n)
        {
            return "link " + std::to_string(l.a) + "-" + std::to_string(l.b) +
                   " names a node that does not exist (node ids 0.." + std::to_string(n - 1) + ")";
        }
        if (l.a == l.b)
        {
            return "link " + std::to_string(l.a) + "-" + std::to_string(l.b) +
                   " joins a node to itself";
        }
        if (l.rate.GetBitRate() == 0 || l.delay.IsStrictlyNegative())
        {
            return "link " + std::to_string(l.a) + "-" + std::to_string(l.b) +
                   " needs a positive rate and a non-negative delay";
        }
        if (!isSwitch[l.a] && !isSwitch[l.b])
        {
            return "link " + std::to_string(l.a) + "-" + std::to_string(l.b) +
                   " joins two hosts (a host must be cabled to a switch)";
        }
        for (uint32_t h : {l.a, l.b})
        {
            if (!isSwitch[h] && hostLinks[h]++ > 0)
            {
                return "host " + std::to_string(h) + " has a second link (the first is link " +
                       std::to_string(firstLink[h] + 1) + "); a host has one NIC port per plane";
            }
            if (!isSwitch[h])
            {
                firstLink[h] = static_cast<int64_t>(i);
            }
        }
    }
    badLink = -1;
    uint32_t hosts = 0;
    for (std::size_t v = 0; v < n; ++v)
    {
        if (!isSwitch[v])
        {
            ++hosts;
            if (hostLinks[v] == 0)
            {
                return "host " + std::to_string(v) + " has no link";
            }
        }
    }
    if (hosts == 0)
    {
        return "the graph has no host";
    }
    const std::vector<uint32_t> tier = GraphTiers(*this);
    std::vector<uint32_t> count(MRC_N_TIERS, 0);
    std::vector<uint32_t> downlinks(n, 0);
    for (std::size_t v = 0; v < n; ++v)
    {
        if (isSwitch[v] && ++count[tier[v]] > MRC_USID_MAX_INDEX)
        {
            return "more than " + std::to_string(MRC_USID_MAX_INDEX) + " switches in tier T" +
                   std::to_string(tier[v]) + " (the uSID index field holds no more)";
        }
    }
    for (const auto& l : links)
    {
        const uint32_t sw = isSwitch[l.a] ? l.a : l.b;
        if (!(isSwitch[l.a] && isSwitch[l.b]) && ++downlinks[sw] > MRC_USID_MAX_INDEX)
        {
            return "switch " + std::to_string(sw) + " has more than " +
                   std::to_string(MRC_USID_MAX_INDEX) +
                   " hosts (the uSID index field holds no more)";
        }
    }
    return "";
}

std::vector<uint32_t>
MrcTopologyGraph::DefaultRanks(uint32_t ranks) const
{
    const std::size_t n = isSwitch.size();
    std::vector<uint32_t> rank(n, 0);
    if (ranks <= 1)
    {
        return rank;
    }
    const std::vector<uint32_t> tier = GraphTiers(*this);
    std::vector<uint64_t> count(MRC_N_TIERS, 0);
    for (std::size_t v = 0; v < n; ++v)
    {
        count[tier[v]] += isSwitch[v] ? 1 : 0;
    }
    std::vector<uint64_t> next(MRC_N_TIERS, 0);
    for (std::size_t v = 0; v < n; ++v)
    {
        if (isSwitch[v])
        {
            rank[v] = static_cast<uint32_t>(next[tier[v]]++ * ranks / count[tier[v]]);
        }
    }
    for (const MrcGraphLink& l : links)
    {
        if (isSwitch[l.a] != isSwitch[l.b])
        {
            const uint32_t sw = isSwitch[l.a] ? l.a : l.b;
            rank[sw == l.a ? l.b : l.a] = rank[sw]; // a host goes with its switch
        }
    }
    return rank;
}

std::string
MrcTopologyGraph::CheckRanks(uint32_t ranks, const std::vector<uint32_t>& nodeRank) const
{
    const std::size_t n = isSwitch.size();
    if (ranks == 0)
    {
        return "0 ranks";
    }
    if (nodeRank.size() != n)
    {
        return "the split gives " + std::to_string(nodeRank.size()) +
               " nodes a rank; the graph has " + std::to_string(n);
    }
    for (std::size_t v = 0; v < n; ++v)
    {
        if (nodeRank[v] >= ranks)
        {
            return "node " + std::to_string(v) + " is on rank " + std::to_string(nodeRank[v]) +
                   ", out of range (allowed: 0.." + std::to_string(ranks - 1) + ")";
        }
    }
    std::vector<uint32_t> hosts(ranks, 0);
    uint32_t hostSwitches = 0;
    std::vector<bool> hasHost(n, false);
    for (const MrcGraphLink& l : links)
    {
        if (isSwitch[l.a] == isSwitch[l.b])
        {
            continue;
        }
        const uint32_t sw = isSwitch[l.a] ? l.a : l.b;
        const uint32_t host = sw == l.a ? l.b : l.a;
        if (nodeRank[host] != nodeRank[sw])
        {
            return "host " + std::to_string(host) + " is on rank " +
                   std::to_string(nodeRank[host]) + " and its switch " + std::to_string(sw) +
                   " on rank " + std::to_string(nodeRank[sw]) +
                   " (a host goes with its switch: host links do not cross ranks)";
        }
        ++hosts[nodeRank[host]];
        hostSwitches += hasHost[sw] ? 0 : 1;
        hasHost[sw] = true;
    }
    for (uint32_t r = 0; r < ranks; ++r)
    {
        if (hosts[r] == 0)
        {
            return "rank " + std::to_string(r) +
                   " has no host; each rank needs at least one switch with hosts (the fabric has " +
                   std::to_string(hostSwitches) + ")";
        }
    }
    std::vector<bool> joined(std::size_t(ranks) * ranks, false);
    for (const MrcGraphLink& l : links)
    {
        const uint32_t ra = nodeRank[l.a];
        const uint32_t rb = nodeRank[l.b];
        if (ra == rb)
        {
            continue;
        }
        if (!l.delay.IsStrictlyPositive())
        {
            return "the link " + std::to_string(l.a) + "-" + std::to_string(l.b) + " joins rank " +
                   std::to_string(ra) + " and rank " + std::to_string(rb) +
                   " with a zero delay; a link between ranks needs a positive delay (the "
                   "lookahead of ns-3's engine is the smallest delay of such a link): put both "
                   "ends on one rank with --rankMap";
        }
        joined[std::size_t(ra) * ranks + rb] = joined[std::size_t(rb) * ranks + ra] = true;
    }
    for (uint32_t a = 0; a < ranks; ++a)
    {
        for (uint32_t b = a + 1; b < ranks; ++b)
        {
            if (!joined[std::size_t(a) * ranks + b])
            {
                return "rank " + std::to_string(a) + " and rank " + std::to_string(b) +
                       " share no link; every two ranks need one (notices of message ends "
                       "between ranks travel on their links)";
            }
        }
    }
    return "";
}

std::string
MrcTopologyGraph::ReadRankMap(const std::string& path,
                              uint32_t ranks,
                              std::vector<uint32_t>& nodeRank) const
{
    std::ifstream in(path);
    if (!in)
    {
        return path + ": cannot be read";
    }
    const std::size_t n = isSwitch.size();
    nodeRank = DefaultRanks(ranks);
    std::vector<uint32_t> switches;
    for (std::size_t v = 0; v < n; ++v)
    {
        if (isSwitch[v])
        {
            switches.push_back(static_cast<uint32_t>(v));
        }
    }
    std::string allowed = " (allowed: the switches' node ids ";
    for (std::size_t i = 0; i < switches.size(); ++i)
    {
        if (switches.size() > 8 && i == 4)
        {
            allowed += ", ...";
            i = switches.size() - 2;
            continue;
        }
        allowed += (i == 0 ? "" : ", ") + std::to_string(switches[i]);
    }
    allowed += ")";
    std::vector<bool> given(n, false);
    std::string line;
    for (uint32_t ln = 1; std::getline(in, line); ++ln)
    {
        const std::string at = path + ":" + std::to_string(ln) + ": ";
        std::istringstream words(line.substr(0, line.find('#')));
        std::string name;
        std::string rank;
        std::string extra;
        if (!(words >> name))
        {
            continue;
        }
        if (!(words >> rank) || (words >> extra))
        {
            return at + "expected 'NAME RANK'";
        }
        if (name.size() > 9 || name.find_first_not_of("0123456789") != std::string::npos ||
            std::stoull(name) >= n)
        {
            return at + "'" + name + "' is not a switch of this topology file" + allowed;
        }
        const auto v = static_cast<std::size_t>(std::stoull(name));
        if (!isSwitch[v])
        {
            return at + "'" + name +
                   "' is a host (a host goes with its switch: host links do not cross ranks)" +
                   allowed;
        }
        if (given[v])
        {
            return at + "'" + name + "' is given twice";
        }
        given[v] = true;
        if (rank.size() > 9 || rank.find_first_not_of("0123456789") != std::string::npos ||
            std::stoull(rank) >= ranks)
        {
            return at + "rank '" + rank + "' of '" + name + "' is out of range (allowed: 0.." +
                   std::to_string(ranks - 1) + ")";
        }
        nodeRank[v] = static_cast<uint32_t>(std::stoull(rank));
    }
    for (const MrcGraphLink& l : links)
    {
        if (isSwitch[l.a] != isSwitch[l.b])
        {
            const uint32_t sw = isSwitch[l.a] ? l.a : l.b;
            nodeRank[sw == l.a ? l.b : l.a] = nodeRank[sw];
        }
    }
    const std::string why = CheckRanks(ranks, nodeRank);
    return why.empty() ? "" : path + ": " + why;
}

Time
MrcTopologyGraph::GetNoticeDelay() const
{
    Time largest;
    bool fabric = false;
    for (const MrcGraphLink& l : links)
    {
        if (isSwitch[l.a] && isSwitch[l.b])
        {
            largest = fabric ? Max(largest, l.delay) : l.delay;
            fabric = true;
        }
    }
    if (fabric)
    {
        return largest;
    }
    return links.empty() ? Time(0) : links.front().delay; // every link is a host link
}

struct MrcTopologyHelper::GraphIndex
{
    std::vector<uint32_t> tierOf;    //!< tier of every vertex (GraphTiers)
    std::vector<uint32_t> hostIndex; //!< host index of a host vertex
    std::vector<uint32_t> tierIndex; //!< index within its tier of a switch vertex
    std::vector<uint32_t> switchId;  //!< switch id in the current plane of a switch vertex
};

Ptr<MrcTopology>
MrcTopologyHelper::BuildGraph(const MrcTopologyGraph& graph)
{
    NS_LOG_FUNCTION(this);
    int64_t bad = -1;
    const std::string err = graph.Validate(bad);
    NS_ABORT_MSG_IF(!err.empty(), "MrcTopologyHelper::BuildGraph: " << err);
    NS_ABORT_MSG_IF(m_config.planes == 0 || m_config.planes > MRC_USID_MAX_PLANES,
                    "MrcTopologyHelper::BuildGraph: planes=" << m_config.planes << " (allowed: 1.."
                                                             << MRC_USID_MAX_PLANES << ")");
    const std::size_t n = graph.isSwitch.size();
    GraphIndex g;
    g.tierOf = GraphTiers(graph);
    g.hostIndex.assign(n, 0);
    g.tierIndex.assign(n, 0);
    g.switchId.assign(n, 0);
    std::vector<uint32_t> tierCount(MRC_N_TIERS, 0);
    uint32_t nHosts = 0;
    for (std::size_t v = 0; v < n; ++v)
    {
        if (graph.isSwitch[v])
        {
            g.tierIndex[v] = tierCount[g.tierOf[v]]++;
        }
        else
        {
            g.hostIndex[v] = nHosts++;
        }
    }
    // The split over ranks: the node ids' ranks, by switch (tier, index) and by host.
    for (auto& r : m_graphTierRank)
    {
        r.clear();
    }
    m_graphHostRank.clear();
    if (m_ranks > 1)
    {
        const std::vector<uint32_t> rank =
            m_graphRank.empty() ? graph.DefaultRanks(m_ranks) : m_graphRank;
        NS_ABORT_MSG_IF(rank.size() != n,
                        "MrcTopologyHelper::BuildGraph: SetGraphRanks gave "
                            << rank.size() << " ranks for a graph of " << n << " nodes");
        const std::string why = graph.CheckRanks(m_ranks, rank);
        NS_ABORT_MSG_IF(!why.empty(),
                        "MrcTopologyHelper::BuildGraph: cannot split the graph over "
                            << m_ranks << " ranks: " << why);
        for (std::size_t v = 0; v < n; ++v)
        {
            if (graph.isSwitch[v])
            {
                m_graphTierRank[g.tierOf[v]].push_back(rank[v]); // node id order in a tier
            }
            else
            {
                m_graphHostRank.push_back(rank[v]);
            }
        }
    }

    Ptr<MrcTopology> t = CreateObject<MrcTopology>();
    MrcTopologyConfig& c = t->m_config;
    c = m_config;
    c.kind = MrcTopologyKind::GRAPH;
    c.hosts = nHosts;
    bool hostSeen = false;
    bool fabricSeen = false;
    for (const auto& l : graph.links)
    {
        const bool hostLink = !(graph.isSwitch[l.a] && graph.isSwitch[l.b]);
        if (hostLink && !hostSeen)
        {
            hostSeen = true;
            c.hostRate = l.rate;
            c.hostDelay = l.delay;
        }
        if (!hostLink && !fabricSeen)
        {
            fabricSeen = true;
            c.fabricRate = c.coreRate = l.rate;
            c.fabricDelay = c.coreDelay = l.delay;
        }
    }
    if (!fabricSeen)
    {
        c.fabricRate = c.coreRate = c.hostRate;
        c.fabricDelay = c.coreDelay = c.hostDelay;
    }
    c.t1PerPlane = tierCount[1];
    t->m_locator = m_locator;
    t->m_tierCount = tierCount;
    t->m_hostT0.assign(nHosts, 0);
    t->m_hostDownlink.assign(nHosts, 0);
    m_joined.clear();
    m_portCount.clear();
    m_portNumber.clear();
    CreateHosts(t);

    uint32_t maxDownlinks = 0;
    for (uint32_t p = 0; p < c.planes; ++p)
    {
        maxDownlinks = std::max(maxDownlinks, BuildGraphPlane(t, p, graph, g));
        InstallPlaneEcmp(t, p);
    }
    c.hostsPerT0 = maxDownlinks;
    std::vector<uint32_t>().swap(m_portCount);
    std::vector<std::vector<uint32_t>>().swap(m_portNumber);
    for (auto& r : m_graphTierRank)
    {
        r.clear();
    }
    m_graphHostRank.clear();
    NS_LOG_INFO("built graph: " << c.planes << " planes, " << nHosts << " hosts, "
                                << t->m_switches.size() << " switches, " << t->m_links.size()
                                << " links");
    return t;
}

uint32_t
MrcTopologyHelper::BuildGraphPlane(Ptr<MrcTopology> t,
                                   uint32_t p,
                                   const MrcTopologyGraph& graph,
                                   GraphIndex& g)
{
    const std::size_t n = graph.isSwitch.size();
    // switches, tier by tier, node id order within a tier
    for (uint32_t tier = 0; tier < MRC_N_TIERS; ++tier)
    {
        t->m_firstSwitch.push_back(static_cast<uint32_t>(t->m_switches.size()));
        for (std::size_t v = 0; v < n; ++v)
        {
            if (graph.isSwitch[v] && g.tierOf[v] == tier)
            {
                g.switchId[v] = AddSwitch(t, p, tier, g.tierIndex[v]);
            }
        }
    }
    // links in graph order
    uint32_t maxDownlinks = 0;
    std::vector<uint32_t> downlinks(n, 0);
    for (const MrcGraphLink& l : graph.links)
    {
        const bool hostLink = !(graph.isSwitch[l.a] && graph.isSwitch[l.b]);
        if (hostLink)
        {
            const uint32_t hv = graph.isSwitch[l.a] ? l.b : l.a;
            const uint32_t sv = graph.isSwitch[l.a] ? l.a : l.b;
            const uint32_t h = g.hostIndex[hv];
            MrcLinkHelper lh = m_link[uint32_t(MrcLinkTier::HOST)];
            lh.SetDeviceAttribute("DataRate", DataRateValue(l.rate));
            lh.SetChannelAttribute("Delay", TimeValue(l.delay));
            Ptr<Node> t0 = t->m_switchNodes[g.switchId[sv]];
            const uint32_t port = ConnectHostLink(t, p, h, t0, lh, l.rate, l.delay);
            const uint32_t down = downlinks[sv]++;
            maxDownlinks = std::max(maxDownlinks, down + 1);
            t->m_hostT0[h] = g.tierIndex[sv];
            t->m_hostDownlink[h] = down;
            if (!Lean() || IsHere(t0)) // (a lean build: another rank's switch, no table)
            {
                Dual(t0)->GetSrv6()->AddLocalAdjacency(
                    MrcMakeUsid(p, MrcUsidType::HOST_DOWNLINK, down),
                    port);
            }
            continue;
        }
        // the lower tier is end A
        const bool swap = g.tierOf[l.a] > g.tierOf[l.b];
        const uint32_t va = swap ? l.b : l.a;
        const uint32_t vb = swap ? l.a : l.b;
        const MrcLinkTier lt = g.tierOf[va] == 0 ? MrcLinkTier::T0_T1 : MrcLinkTier::T1_T2;
        MrcLinkHelper lh = m_link[uint32_t(lt)];
        lh.SetDeviceAttribute("DataRate", DataRateValue(l.rate));
        lh.SetChannelAttribute("Delay", TimeValue(l.delay));
        Ptr<Node> a = t->m_switchNodes[g.switchId[va]];
        Ptr<Node> b = t->m_switchNodes[g.switchId[vb]];
        const bool first = FirstLinkBetween(a, b);
        auto [pa, pb] = ConnectSwitchLink(t, p, lt, lh, a, b, l.rate, l.delay);
        // (uSID routes only on the switches made here: another rank's is a bare node)
        if (first && t->m_switches[g.switchId[va]])
        {
            Dual(t->m_switches[g.switchId[va]])
                ->GetSrv6()
                ->AddUsidRoute(t->m_usids[g.switchId[vb]], pa);
        }
        if (first && t->m_switches[g.switchId[vb]])
        {
            Dual(t->m_switches[g.switchId[vb]])
                ->GetSrv6()
                ->AddUsidRoute(t->m_usids[g.switchId[va]], pb);
        }
    }
    return maxDownlinks;
}

} // namespace ns3
