/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-scenario-series.h"

#include "mrc-scenario-report.h"

#include "ns3/mrc-failure-injector.h"
#include "ns3/mrc-mpi.h"
#include "ns3/mrc-switch-node.h"
#include "ns3/simulator.h"

#include <limits>

namespace ns3
{

void
MrcScenarioSeries::SetResults(MrcRunResults* results)
{
    m_res = results;
}

void
MrcScenarioSeries::SetSplit(bool split, uint32_t transport)
{
    m_split = split;
    m_transport = transport;
}

uint64_t
MrcScenarioSeries::Order(uint64_t kind, uint64_t index, uint64_t metric) const
{
    // 4 bits of transport, 4 of kind, 54 of index, 2 of metric
    NS_ASSERT(index < (uint64_t{1} << 54));
    return (m_transport << 60) | (kind << 56) | (index << 2) | metric;
}

void
MrcScenarioSeries::AddHosts(Ptr<MrcTopology> topo, const std::string& tag)
{
    NS_ASSERT(!m_split || m_transport < 16);
    const uint32_t nHosts = topo->GetNHosts();
    m_planes = topo->GetNPlanes();
    for (uint32_t h = 0; h < nHosts; ++h)
    {
        for (uint32_t p = 0; p < m_planes; ++p)
        {
            m_hostDevs.push_back(topo->GetNicPort(h, p));
        }
        const std::string name = "host" + std::to_string(h);
        m_hostTxSeries.push_back(m_res->RegisterSeries(tag, name, "tx_gbps"));
        m_hostRxSeries.push_back(m_res->RegisterSeries(tag, name, "rx_gbps"));
        m_hostLocal.push_back(MrcMpi::IsLocal(PeekPointer(topo->GetHost(h))));
        if (m_split)
        {
            m_res->SetSeriesOrder(m_hostTxSeries.back(), Order(0, h, 0));
            m_res->SetSeriesOrder(m_hostRxSeries.back(), Order(0, h, 1));
        }
    }
    m_hostTxPrev.assign(nHosts, 0);
    m_hostRxPrev.assign(nHosts, 0);
}

void
MrcScenarioSeries::AddFlow(const std::string& transport, Ptr<MrcQueuePair> requester)
{
    const std::string name = "flow" + std::to_string(m_flows.size());
    m_flowTag = transport;
    m_flows.push_back(requester);
    m_flowTxSeries.push_back(m_res->RegisterSeries(transport, name, "tx_gbps"));
    m_flowRateSeries.push_back(m_res->RegisterSeries(transport, name, "rate_gbps"));
    m_flowTxPrev.push_back(0);
    m_flowCwndSeries.push_back(-1);
    // (null: a lane of two hosts of other ranks, whose queue pairs this rank does not make)
    m_flowLocal.push_back(requester &&
                          MrcMpi::IsLocal(PeekPointer(requester->GetNic()->GetObject<Node>())));
    if (m_split)
    {
        const uint64_t i = m_flows.size() - 1;
        m_res->SetSeriesOrder(m_flowTxSeries.back(), Order(1, i, 0));
        m_res->SetSeriesOrder(m_flowRateSeries.back(), Order(1, i, 1));
    }
}

void
MrcScenarioSeries::AddSwitchQueues(Ptr<MrcTopology> topo, const std::string& tag)
{
    for (uint32_t s = 0; s < topo->GetNSwitches(); ++s)
    {
        Ptr<MrcSwitchNode> sw = topo->GetSwitchById(s);
        if (!sw)
        {
            continue; // another rank's switch (a lean build): sampled there
        }
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            m_queues.push_back(QueuePort{sw->GetPort(p),
                                         MrcFailureInjector::NodeName(sw) + ":" + std::to_string(p),
                                         tag});
            m_queues.back().local = MrcMpi::IsLocal(PeekPointer(sw));
            // (not the index in m_queues: a rank that does not build other ranks' hosts
            // makes fewer ports on their switches; a local switch's ports are all here)
            m_queues.back().place = uint64_t{s} << 24 | p;
        }
    }
}

void
MrcScenarioSeries::Sample(Time interval, const std::vector<bool>& ended)
{
    const int64_t now = Simulator::Now().GetNanoSeconds();
    const double toGbps = 8.0 / interval.GetNanoSeconds(); // bytes/ns*8 = Gb/s
    for (uint32_t h = 0; h < m_hostTxSeries.size(); ++h)
    {
        if (!m_hostLocal[h])
        {
            continue; // another rank's host (a run split over ranks)
        }
        uint64_t tx = 0;
        uint64_t rx = 0;
        for (uint32_t p = 0; p < m_planes; ++p)
        {
            tx += MrcScenarioReport::TxBytes(m_hostDevs[h * m_planes + p]);
            rx += MrcScenarioReport::RxBytes(m_hostDevs[h * m_planes + p]);
        }
        m_res->AddSample(now, m_hostTxSeries[h], (tx - m_hostTxPrev[h]) * toGbps);
        m_res->AddSample(now, m_hostRxSeries[h], (rx - m_hostRxPrev[h]) * toGbps);
        m_hostTxPrev[h] = tx;
        m_hostRxPrev[h] = rx;
    }
    for (std::size_t i = 0; i < m_flows.size(); ++i)
    {
        if (ended[i] || !m_flowLocal[i])
        {
            continue;
        }
        const uint64_t b = m_flows[i]->GetCounters().dataBytesSent;
        m_res->AddSample(now, m_flowTxSeries[i], (b - m_flowTxPrev[i]) * toGbps);
        m_flowTxPrev[i] = b;
        const MrcCcState& cc = m_flows[i]->GetCcState();
        m_res->AddSample(now, m_flowRateSeries[i], cc.rate.GetBitRate() / 1e9);
        if (cc.cwnd != std::numeric_limits<uint64_t>::max())
        {
            // Window-based controllers only (DCQCN is rate-based: no window).
            if (m_flowCwndSeries[i] < 0)
            {
                m_flowCwndSeries[i] =
                    m_res->RegisterSeries(m_flowTag, "flow" + std::to_string(i), "cwnd_bytes");
                if (m_split)
                {
                    m_res->SetSeriesOrder(static_cast<uint32_t>(m_flowCwndSeries[i]),
                                          Order(1, i, 2));
                }
            }
            m_res->AddSample(now,
                             static_cast<uint32_t>(m_flowCwndSeries[i]),
                             static_cast<double>(cc.cwnd));
        }
    }
    for (std::size_t k = 0; k < m_queues.size(); ++k)
    {
        QueuePort& q = m_queues[k];
        if (!q.local)
        {
            continue;
        }
        const uint64_t bytes = q.dev->GetTotalQueueBytes();
        if (bytes > 0 || q.lastNonZero)
        {
            if (q.series < 0)
            {
                q.series = m_res->RegisterSeries(q.tag, q.name, "queue_bytes");
                if (m_split)
                {
                    m_res->SetSeriesOrder(static_cast<uint32_t>(q.series), Order(2, q.place, 0));
                }
            }
            m_res->AddSample(now, static_cast<uint32_t>(q.series), static_cast<double>(bytes));
        }
        q.lastNonZero = bytes > 0;
    }
}

} // namespace ns3
