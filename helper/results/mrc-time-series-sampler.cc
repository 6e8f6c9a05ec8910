/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-time-series-sampler.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcTimeSeriesSampler");
NS_OBJECT_ENSURE_REGISTERED(MrcTimeSeriesSampler);

TypeId
MrcTimeSeriesSampler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcTimeSeriesSampler")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcTimeSeriesSampler>()
            .AddAttribute("Interval",
                          "Simulated time between two samples (our choice: 10 us; mrc-sim sets "
                          "it from its sampling option).",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&MrcTimeSeriesSampler::m_interval),
                          MakeTimeChecker(NanoSeconds(1)));
    return tid;
}

MrcTimeSeriesSampler::MrcTimeSeriesSampler()
    : m_results(nullptr)
{
}

MrcTimeSeriesSampler::~MrcTimeSeriesSampler() = default;

void
MrcTimeSeriesSampler::DoDispose()
{
    Stop();
    m_probes.clear();
    Object::DoDispose();
}

void
MrcTimeSeriesSampler::SetResults(MrcRunResults* results)
{
    m_results = results;
}

void
MrcTimeSeriesSampler::AddLevel(const std::string& transport,
                               const std::string& entity,
                               const std::string& metric,
                               std::function<double()> read)
{
    NS_ABORT_MSG_IF(m_results == nullptr, "MrcTimeSeriesSampler: SetResults first");
    NS_ABORT_MSG_IF(!read, "MrcTimeSeriesSampler: empty probe for " << entity << " " << metric);
    m_probes.push_back(
        {m_results->RegisterSeries(transport, entity, metric), std::move(read), {}, 0});
}

void
MrcTimeSeriesSampler::AddRate(const std::string& transport,
                              const std::string& entity,
                              const std::string& metric,
                              std::function<uint64_t()> read)
{
    NS_ABORT_MSG_IF(m_results == nullptr, "MrcTimeSeriesSampler: SetResults first");
    NS_ABORT_MSG_IF(!read, "MrcTimeSeriesSampler: empty probe for " << entity << " " << metric);
    m_probes.push_back(
        {m_results->RegisterSeries(transport, entity, metric), {}, std::move(read), 0});
}

void
MrcTimeSeriesSampler::Start(Time stopTime)
{
    NS_ABORT_MSG_IF(m_results == nullptr, "MrcTimeSeriesSampler: SetResults first");
    m_stopTime = stopTime;
    for (Probe& p : m_probes)
    {
        if (p.counter)
        {
            p.last = p.counter();
        }
    }
    if (Simulator::Now() + m_interval < m_stopTime)
    {
        m_event = Simulator::Schedule(m_interval, &MrcTimeSeriesSampler::Sample, this);
    }
}

void
MrcTimeSeriesSampler::Stop()
{
    m_event.Cancel();
}

void
MrcTimeSeriesSampler::Sample()
{
    const int64_t now = Simulator::Now().GetNanoSeconds();
    const double intervalNs = static_cast<double>(m_interval.GetNanoSeconds());
    for (Probe& p : m_probes)
    {
        double value;
        if (p.counter)
        {
            const uint64_t c = p.counter();
            value = static_cast<double>(c - p.last) * 8.0 / intervalNs;
            p.last = c;
        }
        else
        {
            value = p.level();
        }
        m_results->AddSample(now, p.series, value);
    }
    if (Simulator::Now() + m_interval < m_stopTime)
    {
        m_event = Simulator::Schedule(m_interval, &MrcTimeSeriesSampler::Sample, this);
    }
}

} // namespace ns3
