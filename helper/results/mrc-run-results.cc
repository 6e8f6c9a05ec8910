/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-run-results.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/log.h"
#include "ns3/mrc-uint128.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <sys/resource.h>
#include <tuple>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcRunResults");

bool
MrcFlowRecord::IsCompleted() const
{
    return endNs >= 0;
}

int64_t
MrcFlowRecord::FctNs() const
{
    return IsCompleted() ? endNs - startNs : -1;
}

double
MrcFlowRecord::Slowdown() const
{
    if (!IsCompleted() || idealFctNs <= 0)
    {
        return -1;
    }
    return static_cast<double>(FctNs()) / static_cast<double>(idealFctNs);
}

std::size_t
MrcNearestRank(std::size_t n, uint32_t pct)
{
    NS_ABORT_MSG_IF(n == 0, "MrcNearestRank: no samples");
    NS_ABORT_MSG_IF(pct > 100, "MrcNearestRank: percentile " << pct << " is not in 0..100");
    // rank = ceil(pct * n / 100), in integers so that e.g. p99 of 100 samples is exact.
    const uint64_t rank = (static_cast<uint64_t>(pct) * n + 99) / 100;
    return rank == 0 ? 0 : static_cast<std::size_t>(rank - 1);
}

int64_t
MrcPercentile(std::vector<int64_t> samples, uint32_t pct)
{
    const std::size_t k = MrcNearestRank(samples.size(), pct);
    std::nth_element(samples.begin(), samples.begin() + k, samples.end());
    return samples[k];
}

double
MrcPercentile(std::vector<double> samples, uint32_t pct)
{
    const std::size_t k = MrcNearestRank(samples.size(), pct);
    std::nth_element(samples.begin(), samples.begin() + k, samples.end());
    return samples[k];
}

uint64_t
MrcWireBytes(uint64_t bytes, uint32_t payloadPerPacket, uint32_t overheadPerPacket)
{
    NS_ABORT_MSG_IF(payloadPerPacket == 0, "MrcWireBytes: payload per packet must be > 0");
    const uint64_t packets = bytes == 0 ? 1 : (bytes - 1) / payloadPerPacket + 1;
    return bytes + packets * overheadPerPacket;
}

int64_t
MrcIdealFctNs(uint64_t bytes,
              uint32_t payloadPerPacket,
              uint32_t overheadPerPacket,
              int64_t baseRttNs,
              uint64_t bottleneckBps)
{
    NS_ABORT_MSG_IF(bottleneckBps == 0, "MrcIdealFctNs: bottleneck rate must be > 0 bit/s");
    NS_ABORT_MSG_IF(baseRttNs < 0, "MrcIdealFctNs: base RTT " << baseRttNs << " ns is negative");
    const MrcUint128 bits =
        static_cast<MrcUint128>(MrcWireBytes(bytes, payloadPerPacket, overheadPerPacket)) * 8U *
        1000000000U;
    return baseRttNs + static_cast<int64_t>(bits / bottleneckBps);
}

uint32_t
MrcHpccAddress(uint32_t hostIndex)
{
    return 0x0b000001U + (hostIndex / 256) * 0x00010000U + (hostIndex % 256) * 0x00000100U;
}

uint64_t
MrcPeakRssKb()
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
    {
        return 0;
    }
    return static_cast<uint64_t>(ru.ru_maxrss); // KiB on Linux
}

std::string
MrcNs3VersionString()
{
#if defined(MRC_NS3_VERSION_MINOR) && MRC_NS3_VERSION_MINOR != 99
    return "3." + std::to_string(MRC_NS3_VERSION_MINOR);
#else
    return "3-dev";
#endif
}

std::size_t
MrcRunResults::FindTransport(const std::string& transport) const
{
    return std::find(m_transports.begin(), m_transports.end(), transport) - m_transports.begin();
}

std::size_t
MrcRunResults::TransportIndex(const std::string& transport)
{
    const std::size_t i = FindTransport(transport);
    if (i == m_transports.size())
    {
        NS_ABORT_MSG_IF(transport.empty(), "MrcRunResults: empty transport name");
        for (char c : transport)
        {
            const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                            (c >= '0' && c <= '9') || c == '-' || c == '_';
            NS_ABORT_MSG_IF(!ok,
                            "MrcRunResults: transport name '"
                                << transport << "' may use only letters, digits, '-' and '_'");
        }
        m_transports.push_back(transport);
        m_counters.emplace_back();
    }
    return i;
}

void
MrcRunResults::AddTransport(const std::string& transport)
{
    TransportIndex(transport);
}

const std::vector<std::string>&
MrcRunResults::GetTransports() const
{
    return m_transports;
}

std::size_t
MrcRunResults::AddFlow(MrcFlowRecord flow)
{
    TransportIndex(flow.transport);
    if (flow.sip == 0)
    {
        flow.sip = MrcHpccAddress(flow.src);
    }
    if (flow.dip == 0)
    {
        flow.dip = MrcHpccAddress(flow.dst);
    }
    m_flows.push_back(std::move(flow));
    return m_flows.size() - 1;
}

void
MrcRunResults::CompleteFlow(std::size_t handle, int64_t endNs)
{
    NS_ABORT_MSG_IF(handle >= m_flows.size(),
                    "MrcRunResults::CompleteFlow: no flow with handle " << handle);
    MrcFlowRecord& f = m_flows[handle];
    NS_ABORT_MSG_IF(endNs < f.startNs,
                    "MrcRunResults::CompleteFlow: end " << endNs << " ns before start " << f.startNs
                                                        << " ns");
    f.endNs = endNs;
}

const std::vector<MrcFlowRecord>&
MrcRunResults::GetFlows() const
{
    return m_flows;
}

MrcFlowRecord
MrcRunResults::AddStreamedFlow(MrcFlowRecord flow)
{
    const std::size_t t = TransportIndex(flow.transport);
    if (flow.sip == 0)
    {
        flow.sip = MrcHpccAddress(flow.src);
    }
    if (flow.dip == 0)
    {
        flow.dip = MrcHpccAddress(flow.dst);
    }
    if (m_streamed.size() <= t)
    {
        m_streamed.resize(t + 1);
    }
    StreamedTally& s = m_streamed[t];
    ++m_nStreamed;
    ++s.messages;
    s.bytes += flow.bytes;
    if (flow.IsCompleted())
    {
        NS_ABORT_MSG_IF(flow.endNs < flow.startNs,
                        "MrcRunResults::AddStreamedFlow: end " << flow.endNs << " ns before start "
                                                               << flow.startNs << " ns");
        ++s.completed;
        s.completedBytes += flow.bytes;
        if (!m_sampleSource)
        {
            s.fcts.push_back(flow.FctNs());
            if (flow.idealFctNs > 0)
            {
                s.slowdowns.push_back(flow.Slowdown());
            }
        }
        s.firstStart = std::min(s.firstStart, flow.startNs);
        s.lastEnd = std::max(s.lastEnd, flow.endNs);
    }
    return flow;
}

uint64_t
MrcRunResults::GetNStreamedFlows() const
{
    return m_nStreamed;
}

void
MrcRunResults::SetStreamedSamples(StreamedSamples source)
{
    m_sampleSource = std::move(source);
}

void
MrcRunResults::AddLink(const MrcLinkRecord& link)
{
    m_links.push_back(link);
}

const std::vector<MrcLinkRecord>&
MrcRunResults::GetLinks() const
{
    return m_links;
}

uint32_t
MrcRunResults::RegisterSeries(const std::string& transport,
                              const std::string& entity,
                              const std::string& metric)
{
    std::string key = transport;
    key.push_back('\0');
    key += entity;
    key.push_back('\0');
    key += metric;
    auto it = m_seriesIndex.find(key);
    if (it != m_seriesIndex.end())
    {
        return it->second;
    }
    if (!transport.empty())
    {
        TransportIndex(transport);
    }
    const auto id = static_cast<uint32_t>(m_series.size());
    m_series.push_back({transport, entity, metric, id});
    m_seriesIndex.emplace(std::move(key), id);
    return id;
}

void
MrcRunResults::AddSample(int64_t timeNs, uint32_t series, double value)
{
    NS_ASSERT_MSG(series < m_series.size(), "MrcRunResults::AddSample: unknown series " << series);
    m_samples.push_back({timeNs, series, value});
}

void
MrcRunResults::AddSample(int64_t timeNs,
                         const std::string& transport,
                         const std::string& entity,
                         const std::string& metric,
                         double value)
{
    AddSample(timeNs, RegisterSeries(transport, entity, metric), value);
}

void
MrcRunResults::SetSeriesOrder(uint32_t series, uint64_t order)
{
    NS_ABORT_MSG_IF(series >= m_series.size(), "MrcRunResults: unknown series " << series);
    m_series[series].order = order;
}

std::string
MrcRunResults::PackRankSamples() const
{
    // The series that have samples, then the samples: tab-separated (a transport may be "").
    std::vector<bool> used(m_series.size(), false);
    for (const Sample& s : m_samples)
    {
        used[s.series] = true;
    }
    std::ostringstream os;
    os << std::hexfloat;
    for (std::size_t i = 0; i < m_series.size(); ++i)
    {
        if (used[i])
        {
            const Series& s = m_series[i];
            os << "S\t" << i << '\t' << s.order << '\t' << s.transport << '\t' << s.entity << '\t'
               << s.metric << '\n';
        }
    }
    for (const Sample& s : m_samples)
    {
        os << "V\t" << s.timeNs << '\t' << s.series << '\t' << s.value << '\n';
    }
    return os.str();
}

void
MrcRunResults::AddRankSamples(const std::string& packed)
{
    std::istringstream is(packed);
    std::unordered_map<uint64_t, uint32_t> ids; // the other rank's series id -> ours
    for (std::string line; std::getline(is, line);)
    {
        std::vector<std::string> f;
        std::size_t at = 0;
        for (std::size_t tab; (tab = line.find('\t', at)) != std::string::npos; at = tab + 1)
        {
            f.push_back(line.substr(at, tab - at));
        }
        f.push_back(line.substr(at));
        if (f.size() == 6 && f[0] == "S")
        {
            const uint32_t id = RegisterSeries(f[3], f[4], f[5]);
            SetSeriesOrder(id, std::stoull(f[2]));
            ids[std::stoull(f[1])] = id;
        }
        else if (f.size() == 4 && f[0] == "V" && ids.count(std::stoull(f[2])))
        {
            AddSample(std::stoll(f[1]),
                      ids.at(std::stoull(f[2])),
                      std::strtod(f[3].c_str(), nullptr));
        }
        else
        {
            NS_FATAL_ERROR("MrcRunResults::AddRankSamples: a malformed line '" << line << "'");
        }
    }
}

void
MrcRunResults::SortSamplesByOrder()
{
    std::stable_sort(m_samples.begin(), m_samples.end(), [this](const Sample& a, const Sample& b) {
        return a.timeNs != b.timeNs ? a.timeNs < b.timeNs
                                    : m_series[a.series].order < m_series[b.series].order;
    });
}

void
MrcRunResults::AddPfc(const MrcPfcRecord& entry)
{
    m_pfc.push_back(entry);
}

const std::vector<MrcPfcRecord>&
MrcRunResults::GetPfcLog() const
{
    return m_pfc;
}

void
MrcRunResults::SortPfcLog()
{
    std::stable_sort(m_pfc.begin(), m_pfc.end(), [](const MrcPfcRecord& a, const MrcPfcRecord& b) {
        return std::tie(a.timeNs, a.node, a.ifIndex) < std::tie(b.timeNs, b.node, b.ifIndex);
    });
}

bool
MrcRunResults::SummedFigure(const std::string& key)
{
    // "<transport>." prefixes of runs of several transports
    const std::string name = key.substr(key.find('.') == std::string::npos ? 0 : key.find('.') + 1);
    for (const char* k : {"mrcTrimNacksReceived",
                          "mrcInferredLosses",
                          "mrcProbesSent",
                          "mrcEvHealthChanges",
                          "uecTrimNacksReceived",
                          "uecLastHopNacksSent",
                          "uecInferredLosses",
                          "uecTimedOutPsns",
                          "uecOutOfWindowDrops"})
    {
        if (name == k)
        {
            return true;
        }
    }
    return false;
}

std::string
MrcRunResults::PackRankFigures() const
{
    std::ostringstream os;
    os << m_transports.size() << '\n';
    for (std::size_t t = 0; t < m_transports.size(); ++t)
    {
        const MrcTransportCounters& c = m_counters[t];
        os << m_transports[t] << ' ' << c.retransmissions << ' ' << c.timeouts << ' ' << c.nacks
           << ' ' << c.trims << ' ' << c.drops << ' ' << c.ecnMarks << ' ' << c.cnps << ' '
           << c.pfcPauseFrames << ' ' << c.pfcPausedNs << ' ' << c.bytesExactlyOnce << ' '
           << c.simulatedTimeNs << ' ' << c.eventsExecuted << '\n';
        const StreamedTally z;
        const StreamedTally& st = t < m_streamed.size() ? m_streamed[t] : z;
        os << st.messages << ' ' << st.bytes << ' ' << st.completed << ' ' << st.completedBytes
           << ' ' << st.firstStart << ' ' << st.lastEnd << '\n';
    }
    os << m_nStreamed << ' ' << m_links.size() << '\n';
    for (const MrcLinkRecord& l : m_links)
    {
        os << l.packets << ' ' << l.bytes << ' ' << l.drops << ' ' << l.trims << ' ' << l.ecnMarks
           << ' ' << l.pausesSent << ' ' << l.pausesRecv << ' ' << l.pausedNs << '\n';
    }
    os << m_pfc.size() << '\n';
    for (const MrcPfcRecord& p : m_pfc)
    {
        os << p.timeNs << ' ' << p.node << ' ' << p.nodeType << ' ' << p.ifIndex << ' ' << p.type
           << ' ' << (p.transport.empty() ? "-" : p.transport) << '\n';
    }
    std::size_t n = 0;
    for (const auto& [k, v] : m_info.options)
    {
        n += SummedFigure(k) ? 1 : 0;
    }
    os << n << '\n';
    for (const auto& [k, v] : m_info.options)
    {
        if (SummedFigure(k))
        {
            os << k << ' ' << v << '\n';
        }
    }
    os << m_info.simulatedTimeNs << '\n';
    return os.str();
}

void
MrcRunResults::AddRankFigures(const std::string& pack)
{
    std::istringstream is(pack);
    std::size_t nt = 0;
    is >> nt;
    NS_ABORT_MSG_IF(nt != m_transports.size(),
                    "MrcRunResults::AddRankFigures: a rank ran " << nt << " transports, this one "
                                                                 << m_transports.size());
    for (std::size_t t = 0; t < nt; ++t)
    {
        std::string name;
        MrcTransportCounters o;
        is >> name >> o.retransmissions >> o.timeouts >> o.nacks >> o.trims >> o.drops >>
            o.ecnMarks >> o.cnps >> o.pfcPauseFrames >> o.pfcPausedNs >> o.bytesExactlyOnce >>
            o.simulatedTimeNs >> o.eventsExecuted;
        NS_ABORT_MSG_IF(name != m_transports[t],
                        "MrcRunResults::AddRankFigures: transport "
                            << name << " where this rank has " << m_transports[t]);
        MrcTransportCounters& c = m_counters[t];
        c.retransmissions += o.retransmissions;
        c.timeouts += o.timeouts;
        c.nacks += o.nacks;
        c.trims += o.trims;
        c.drops += o.drops;
        c.ecnMarks += o.ecnMarks;
        c.cnps += o.cnps;
        c.pfcPauseFrames += o.pfcPauseFrames;
        c.pfcPausedNs += o.pfcPausedNs;
        c.bytesExactlyOnce += o.bytesExactlyOnce;
        c.simulatedTimeNs = std::max(c.simulatedTimeNs, o.simulatedTimeNs);
        c.eventsExecuted += o.eventsExecuted;
        StreamedTally st;
        is >> st.messages >> st.bytes >> st.completed >> st.completedBytes >> st.firstStart >>
            st.lastEnd;
        if (m_streamed.size() <= t)
        {
            m_streamed.resize(t + 1);
        }
        StreamedTally& m = m_streamed[t];
        m.messages += st.messages;
        m.bytes += st.bytes;
        m.completed += st.completed;
        m.completedBytes += st.completedBytes;
        m.firstStart = std::min(m.firstStart, st.firstStart);
        m.lastEnd = std::max(m.lastEnd, st.lastEnd);
    }
    uint64_t streamed = 0;
    std::size_t nl = 0;
    is >> streamed >> nl;
    m_nStreamed += streamed;
    NS_ABORT_MSG_IF(nl != m_links.size(),
                    "MrcRunResults::AddRankFigures: a rank has " << nl << " link records, this one "
                                                                 << m_links.size());
    for (MrcLinkRecord& l : m_links)
    {
        MrcLinkRecord o;
        is >> o.packets >> o.bytes >> o.drops >> o.trims >> o.ecnMarks >> o.pausesSent >>
            o.pausesRecv >> o.pausedNs;
        l.packets += o.packets;
        l.bytes += o.bytes;
        l.drops += o.drops;
        l.trims += o.trims;
        l.ecnMarks += o.ecnMarks;
        l.pausesSent += o.pausesSent;
        l.pausesRecv += o.pausesRecv;
        l.pausedNs += o.pausedNs;
    }
    std::size_t np = 0;
    is >> np;
    for (std::size_t k = 0; k < np; ++k)
    {
        MrcPfcRecord p;
        is >> p.timeNs >> p.node >> p.nodeType >> p.ifIndex >> p.type >> p.transport;
        if (p.transport == "-")
        {
            p.transport.clear();
        }
        m_pfc.push_back(p);
    }
    std::size_t nf = 0;
    is >> nf;
    for (std::size_t k = 0; k < nf; ++k)
    {
        std::string key;
        uint64_t v = 0;
        is >> key >> v;
        auto it = m_info.options.find(key);
        const uint64_t mine = it == m_info.options.end() ? 0 : std::stoull(it->second);
        m_info.options[key] = std::to_string(mine + v);
    }
    int64_t sim = 0;
    is >> sim;
    m_info.simulatedTimeNs = std::max(m_info.simulatedTimeNs, sim);
    NS_ABORT_MSG_IF(!is, "MrcRunResults::AddRankFigures: a rank's figures are cut short");
}

MrcTransportCounters&
MrcRunResults::GetCounters(const std::string& transport)
{
    return m_counters[TransportIndex(transport)];
}

MrcRunInfo&
MrcRunResults::GetInfo()
{
    return m_info;
}

const MrcRunInfo&
MrcRunResults::GetInfo() const
{
    return m_info;
}

const std::vector<MrcRunResults::Sample>&
MrcRunResults::GetSamples() const
{
    return m_samples;
}

const std::vector<MrcRunResults::Series>&
MrcRunResults::GetSeries() const
{
    return m_series;
}

std::vector<MrcTransportSummary>
MrcRunResults::Summarize() const
{
    std::vector<MrcTransportSummary> out(m_transports.size());
    std::vector<std::vector<int64_t>> fcts(m_transports.size());
    std::vector<std::vector<double>> slowdowns(m_transports.size());
    std::vector<int64_t> firstStart(m_transports.size(), INT64_MAX);
    std::vector<int64_t> lastEnd(m_transports.size(), INT64_MIN);
    for (std::size_t t = 0; t < m_transports.size(); ++t)
    {
        out[t].transport = m_transports[t];
        out[t].counters = m_counters[t];
    }
    for (const auto& f : m_flows)
    {
        const std::size_t t = FindTransport(f.transport);
        MrcTransportSummary& s = out[t];
        ++s.messages;
        s.bytes += f.bytes;
        if (!f.IsCompleted())
        {
            continue;
        }
        ++s.completed;
        s.completedBytes += f.bytes;
        fcts[t].push_back(f.FctNs());
        if (f.idealFctNs > 0)
        {
            slowdowns[t].push_back(f.Slowdown());
        }
        firstStart[t] = std::min(firstStart[t], f.startNs);
        lastEnd[t] = std::max(lastEnd[t], f.endNs);
    }
    for (std::size_t t = 0; t < m_streamed.size() && t < out.size(); ++t)
    {
        const StreamedTally& st = m_streamed[t];
        MrcTransportSummary& s = out[t];
        s.messages += st.messages;
        s.bytes += st.bytes;
        s.completed += st.completed;
        s.completedBytes += st.completedBytes;
        fcts[t].insert(fcts[t].end(), st.fcts.begin(), st.fcts.end());
        slowdowns[t].insert(slowdowns[t].end(), st.slowdowns.begin(), st.slowdowns.end());
        if (m_sampleSource && st.messages > 0)
        {
            m_sampleSource(m_transports[t], fcts[t], slowdowns[t]);
        }
        firstStart[t] = std::min(firstStart[t], st.firstStart);
        lastEnd[t] = std::max(lastEnd[t], st.lastEnd);
    }
    for (std::size_t t = 0; t < out.size(); ++t)
    {
        MrcTransportSummary& s = out[t];
        if (!fcts[t].empty())
        {
            std::sort(fcts[t].begin(), fcts[t].end());
            const std::size_t n = fcts[t].size();
            s.fctP50Ns = fcts[t][MrcNearestRank(n, 50)];
            s.fctP90Ns = fcts[t][MrcNearestRank(n, 90)];
            s.fctP99Ns = fcts[t][MrcNearestRank(n, 99)];
            s.fctMaxNs = fcts[t].back();
            if (lastEnd[t] > firstStart[t])
            {
                s.goodputGbps = static_cast<double>(s.completedBytes) * 8.0 /
                                static_cast<double>(lastEnd[t] - firstStart[t]);
            }
        }
        if (!slowdowns[t].empty())
        {
            std::sort(slowdowns[t].begin(), slowdowns[t].end());
            const std::size_t n = slowdowns[t].size();
            s.slowdownP50 = slowdowns[t][MrcNearestRank(n, 50)];
            s.slowdownP99 = slowdowns[t][MrcNearestRank(n, 99)];
        }
    }
    return out;
}

} // namespace ns3
