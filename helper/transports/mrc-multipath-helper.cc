/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-multipath-helper.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mrc-entropy.h"
#include "ns3/mrc-multipath-queue-pair.h"
#include "ns3/mrc-port-status-agent.h"
#include "ns3/mrc-rdma-nic.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcMultipathHelper");

MrcMultipathHelper::MrcMultipathHelper()
    : m_baseRttSet(false),
      m_nextStream(1000)
{
    m_qp.SetTypeId(MrcMultipathQueuePair::GetTypeId());
    m_profile.SetTypeId(MrcEvProfile::GetTypeId());
}

void
MrcMultipathHelper::SetQueuePairAttribute(const std::string& name, const AttributeValue& value)
{
    m_qp.Set(name, value);
    if (name == "BaseRtt")
    {
        m_baseRttSet = true;
    }
}

void
MrcMultipathHelper::SetEvProfileAttribute(const std::string& name, const AttributeValue& value)
{
    m_profile.Set(name, value);
}

void
MrcMultipathHelper::SetFirstStream(int64_t stream)
{
    NS_ABORT_MSG_IF(stream < 0,
                    "MrcMultipathHelper::SetFirstStream: stream " << stream << " must be >= 0");
    m_nextStream = stream;
}

int64_t
MrcMultipathHelper::GetNextStream() const
{
    return m_nextStream;
}

void
MrcMultipathHelper::InstallNics(MrcRdmaHelper& rdma, Ptr<MrcTopology> topo)
{
    NS_ABORT_MSG_IF(!topo, "MrcMultipathHelper::InstallNics: null topology");
    for (uint32_t h = 0; h < topo->GetNHosts(); ++h)
    {
        if (!topo->GetNicPort(h, 0))
        {
            continue; // a host this rank does not build (MrcTopologyHelper::SetBuildRank)
        }
        std::vector<std::pair<Ptr<MrcNetDevice>, Ipv6Address>> ports;
        for (uint32_t p = 0; p < topo->GetNPlanes(); ++p)
        {
            ports.emplace_back(topo->GetNicPort(h, p), topo->GetAddress(h, p));
        }
        // the NIC's Port Status Update (endpoint QPN 0x2) is MRC's agent
        MrcPortStatusAgent::Install(rdma.Install(topo->GetHost(h), ports));
    }
}

std::vector<MrcEvCandidate>
MrcMultipathHelper::GetSrv6Candidates(Ptr<MrcTopology> topo, uint32_t src, uint32_t dst)
{
    // The EV value of an SRv6 path is (plane + 1) << 12 | k, with k the path's number within
    // its plane in the topology's enumeration order. In a Clos that number is the T1 index
    // (path k crosses T1 k), so the value equals MrcEvCandidate::FromCarrier's; in a 3-tier
    // fat-tree several paths share their aggregation switch, and only the path number keeps
    // the values distinct.
    std::vector<MrcEvCandidate> out;
    std::vector<uint32_t> perPlane(topo->GetNPlanes(), 0);
    for (const MrcPath& path : topo->GetAllPaths(src, dst))
    {
        MrcEvCandidate c = MrcEvCandidate::FromCarrier(path.plane, path.carrier);
        c.value = MrcSrv6EvMake(path.plane, perPlane[path.plane]++);
        out.push_back(c);
    }
    return out;
}

MrcRdmaHelper::Connection
MrcMultipathHelper::Connect(Ptr<MrcTopology> topo,
                            uint32_t src,
                            uint32_t dst,
                            uint64_t regionBytes,
                            MrcEvProfile::Format format,
                            uint64_t regionBase)
{
    NS_ABORT_MSG_IF(!topo, "MrcMultipathHelper::Connect: null topology");
    NS_ABORT_MSG_IF(src >= topo->GetNHosts() || dst >= topo->GetNHosts() || src == dst,
                    "MrcMultipathHelper::Connect: hosts " << src << " and " << dst
                                                          << " must differ and be below "
                                                          << topo->GetNHosts());
    Ptr<MrcRdmaNic> na = MrcRdmaNic::GetNic(topo->GetHost(src));
    Ptr<MrcRdmaNic> nb = MrcRdmaNic::GetNic(topo->GetHost(dst));
    NS_ABORT_MSG_IF(!na || !nb,
                    "MrcMultipathHelper::Connect: host " << (na ? dst : src)
                                                         << " has no NIC (InstallNics)");
    std::vector<MrcEvCandidate> ab;
    std::vector<MrcEvCandidate> ba;
    if (format == MrcEvProfile::SRV6)
    {
        ab = GetSrv6Candidates(topo, src, dst);
        ba = GetSrv6Candidates(topo, dst, src);
    }
    UintegerValue mtu;
    Ptr<MrcQueuePair> probe = m_qp.Create<MrcQueuePair>();
    probe->GetAttribute("Mtu", mtu);
    const Time rtt = topo->GetBaseRtt(static_cast<uint32_t>(mtu.Get()));
    return DoConnect(na, nb, ab, ba, format, rtt, regionBytes, regionBase);
}

MrcRdmaHelper::Connection
MrcMultipathHelper::Connect(Ptr<Node> a, Ptr<Node> b, uint64_t regionBytes, uint64_t regionBase)
{
    Ptr<MrcRdmaNic> na = MrcRdmaNic::GetNic(a);
    Ptr<MrcRdmaNic> nb = MrcRdmaNic::GetNic(b);
    NS_ABORT_MSG_IF(!na || !nb, "MrcMultipathHelper::Connect: a host has no NIC");
    return DoConnect(na, nb, {}, {}, MrcEvProfile::STRUCTURED, Time(0), regionBytes, regionBase);
}

MrcRdmaHelper::Connection
MrcMultipathHelper::DoConnect(Ptr<MrcRdmaNic> na,
                              Ptr<MrcRdmaNic> nb,
                              const std::vector<MrcEvCandidate>& ab,
                              const std::vector<MrcEvCandidate>& ba,
                              MrcEvProfile::Format format,
                              Time baseRtt,
                              uint64_t regionBytes,
                              uint64_t regionBase)
{
    MrcRdmaHelper::Connection c;
    c.requester = na->CreateQueuePair(m_qp);
    c.responder = nb->CreateQueuePair(m_qp);
    Ptr<MrcMultipathQueuePair> qa = DynamicCast<MrcMultipathQueuePair>(c.requester);
    Ptr<MrcMultipathQueuePair> qb = DynamicCast<MrcMultipathQueuePair>(c.responder);
    const int64_t first = m_nextStream;
    m_nextStream += STREAMS_PER_CONNECTION;
    int64_t stream = first;
    for (auto [qp, cands] : {std::make_pair(qa, &ab), std::make_pair(qb, &ba)})
    {
        Ptr<MrcEvProfile> profile = m_profile.Create<MrcEvProfile>();
        profile->SetFormat(format);
        profile->AssignStreams(stream); // before Connect draws the EV set
        stream += 2;
        qp->SetEvProfile(profile);
        qp->SetEvCandidates(*cands);
        if (!m_baseRttSet && baseRtt.IsStrictlyPositive())
        {
            qp->SetAttribute("BaseRtt", TimeValue(baseRtt));
        }
    }
    MrcRdmaHelper::ConnectPair(c.requester, c.responder);
    // the path selectors (EV tables) exist now and have not drawn their first rotation order
    qa->GetEntropySelector()->AssignStreams(first + 1);
    qb->GetEntropySelector()->AssignStreams(first + 3);
    if (regionBytes > 0)
    {
        c.region = nb->RegisterMemoryRegion(regionBase, regionBytes);
    }
    return c;
}

} // namespace ns3
