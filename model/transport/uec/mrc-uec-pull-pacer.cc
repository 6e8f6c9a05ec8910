/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-uec-pull-pacer.h"

#include "mrc-uec-queue-pair.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-rdma-nic.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcUecPullPacer");

NS_OBJECT_ENSURE_REGISTERED(MrcUecPullPacer);

TypeId
MrcUecPullPacer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcUecPullPacer")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcUecPullPacer>()
            .AddAttribute("RateFactor",
                          "Credit is granted at this fraction of the NIC's port rates. "
                          "Default 0.99 (UEC reference simulator, main_uec.cpp).",
                          DoubleValue(0.99),
                          MakeDoubleAccessor(&MrcUecPullPacer::m_rateFactor),
                          MakeDoubleChecker<double>(0.01, 10.0))
            .AddAttribute("CreditPerPull",
                          "Credit bytes one pull grants (a multiple of 256). Default "
                          "16384 = 4 x 4096 B MSS (UEC reference simulator: 4 MTUs of "
                          "credit per pull, 'as per default in UEC spec').",
                          UintegerValue(16384),
                          MakeUintegerAccessor(&MrcUecPullPacer::m_creditPerPull),
                          MakeUintegerChecker<uint32_t>(256, 1 << 20));
    return tid;
}

Ptr<MrcUecPullPacer>
MrcUecPullPacer::Of(Ptr<MrcRdmaNic> nic)
{
    Ptr<MrcUecPullPacer> c = nic->GetObject<MrcUecPullPacer>();
    if (!c)
    {
        c = CreateObject<MrcUecPullPacer>();
        NS_ABORT_MSG_IF(c->m_creditPerPull % 256 != 0,
                        "MrcUecPullPacer: CreditPerPull " << c->m_creditPerPull
                                                          << " is not a multiple of 256");
        uint64_t bps = 0;
        for (uint32_t p = 0; p < nic->GetNPorts(); ++p)
        {
            bps += nic->GetDevice(p)->GetDataRate().GetBitRate();
        }
        c->m_bitRate = static_cast<double>(bps) * c->m_rateFactor;
        nic->AggregateObject(c);
    }
    return c;
}

int64_t
MrcUecPullPacer::QuantaPerPull() const
{
    return m_creditPerPull / MrcUecQueuePair::PULL_QUANTUM;
}

void
MrcUecPullPacer::RequestPull(Ptr<MrcUecQueuePair> sink)
{
    m_active.push_back(sink);
    if (!m_running)
    {
        m_running = true;
        m_event = Simulator::ScheduleNow(&MrcUecPullPacer::Next, this);
    }
}

void
MrcUecPullPacer::AddSource(Ptr<MrcUecQueuePair> qp)
{
    m_sources.push_back(qp);
}

uint32_t
MrcUecPullPacer::ActiveSources() const
{
    uint32_t n = 0;
    for (const auto& q : m_sources)
    {
        n += (q->m_state == MrcQpState::RTS &&
              (q->NewBacklogBytes() > 0 || q->m_sb->GetRetransmitQueueSize() > 0))
                 ? 1
                 : 0;
    }
    return n;
}

void
MrcUecPullPacer::DoDispose()
{
    m_event.Cancel();
    m_active.clear();
    m_idle.clear();
    m_sources.clear();
    Object::DoDispose();
}

void
MrcUecPullPacer::Next()
{
    // sinks whose queue pair failed leave the queues
    auto alive = [](const Ptr<MrcUecQueuePair>& q) { return q->m_state != MrcQpState::ERROR; };
    while (!m_active.empty() && !alive(m_active.front()))
    {
        m_active.front()->m_inPull = false;
        m_active.pop_front();
    }
    while (!m_idle.empty() && !alive(m_idle.front()))
    {
        m_idle.front()->m_inSlowPull = false;
        m_idle.pop_front();
    }
    if (m_active.empty() && m_idle.empty())
    {
        m_running = false;
        return;
    }
    int64_t granted = 0;
    if (!m_active.empty())
    {
        Ptr<MrcUecQueuePair> sink = m_active.front();
        m_active.pop_front();
        granted = sink->Pull(0);
        if (sink->PullBacklog() > 0)
        {
            m_active.push_back(sink);
        }
        else
        {
            // demand met: speculative pulls from now on, while no sink is active
            m_idle.push_back(sink);
            sink->m_inPull = false;
            sink->m_inSlowPull = true;
        }
    }
    else
    {
        Ptr<MrcUecQueuePair> sink = m_idle.front();
        m_idle.pop_front();
        sink->m_inPull = false;
        sink->m_inSlowPull = true;
        granted = sink->Pull(QuantaPerPull());
        const int64_t cap = static_cast<int64_t>(sink->m_maxCredit) / MrcUecQueuePair::PULL_QUANTUM;
        if (sink->PullBacklog() == 0 && sink->SlowCredit() < cap)
        {
            m_idle.push_back(sink);
        }
        else
        {
            sink->m_inSlowPull = false;
        }
    }
    const int64_t quanta = granted > 0 ? granted : 1024 / MrcUecQueuePair::PULL_QUANTUM;
    const double bits = static_cast<double>(quanta * MrcUecQueuePair::PULL_QUANTUM * 8);
    m_event = Simulator::Schedule(Seconds(bits / m_bitRate), &MrcUecPullPacer::Next, this);
}

} // namespace ns3
