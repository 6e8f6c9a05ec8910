/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-results-writer.h"

#include "ns3/abort.h"
#include "ns3/fatal-error.h"
#include "ns3/log.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcResultsWriter");

namespace
{

/// Decimals of doubles in the files (slowdown, utilization, goodput, values).
constexpr int DECIMALS = 6;

std::string
U(uint64_t v)
{
    return std::to_string(v);
}

std::string
I(int64_t v)
{
    return std::to_string(v);
}

/// Lower-case hex, zero-padded to 8 digits (printf's "%08x").
std::string
Hex8(uint32_t v)
{
    char buf[16];
    auto res = std::to_chars(buf, buf + sizeof(buf), v, 16);
    std::string digits(buf, res.ptr);
    return std::string(8 - std::min<std::size_t>(8, digits.size()), '0') + digits;
}

/// A CSV field: refuse what would need quoting, so every field is plain.
const std::string&
CsvField(const std::string& s, const char* what)
{
    NS_ABORT_MSG_IF(s.find_first_of(",\"\n\r") != std::string::npos,
                    "MrcResultsWriter: " << what << " '" << s
                                         << "' contains a comma, quote or line break");
    return s;
}

/// JSON number for an int64 that is -1 when there is no data.
std::string
JsonInt(int64_t v)
{
    return v < 0 ? "null" : I(v);
}

std::string
JsonDouble(double v)
{
    return v < 0 || !std::isfinite(v) ? "null" : MrcResultsWriter::FormatFixed(v, DECIMALS);
}

void
WriteStringMap(std::ostream& os, const std::map<std::string, std::string>& m, const char* indent)
{
    if (m.empty())
    {
        os << "{}";
        return;
    }
    os << "{";
    bool first = true;
    for (const auto& [k, v] : m)
    {
        os << (first ? "\n" : ",\n") << indent << "  " << MrcResultsWriter::JsonString(k) << ": "
           << MrcResultsWriter::JsonString(v);
        first = false;
    }
    os << "\n" << indent << "}";
}

/// Indices of v sorted stably by key(i).
template <typename Less>
std::vector<std::size_t>
StableOrder(std::size_t n, Less less)
{
    std::vector<std::size_t> idx(n);
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), less);
    return idx;
}

/// Text of a table cell: "-" for no data.
std::string
CellFixed(double v, int decimals)
{
    return v < 0 ? "-" : MrcResultsWriter::FormatFixed(v, decimals);
}

std::string
CellUs(int64_t ns)
{
    return ns < 0 ? "-" : MrcResultsWriter::FormatFixed(static_cast<double>(ns) / 1000.0, 1);
}

std::string
Pad(const std::string& s, std::size_t width, bool left)
{
    if (s.size() >= width)
    {
        return s;
    }
    const std::string fill(width - s.size(), ' ');
    return left ? s + fill : fill + s;
}

} // namespace

std::string
MrcResultsWriter::FormatFixed(double v, int decimals)
{
    if (!std::isfinite(v))
    {
        return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
    }
    char buf[400];
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
    auto res = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::fixed, decimals);
    NS_ABORT_MSG_IF(res.ec != std::errc(), "MrcResultsWriter::FormatFixed: cannot format " << v);
    std::string s(buf, res.ptr);
#else
    // Compilers without floating-point to_chars (GCC < 11): printf, which
    // follows LC_NUMERIC; ns-3 programs never change it from "C".
    const int n = std::snprintf(buf, sizeof(buf), "%.*f", decimals, v);
    NS_ABORT_MSG_IF(n < 0 || n >= static_cast<int>(sizeof(buf)),
                    "MrcResultsWriter::FormatFixed: cannot format " << v);
    std::string s(buf, static_cast<std::size_t>(n));
#endif
    if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos)
    {
        s.erase(0, 1); // no "-0.000000"
    }
    return s;
}

std::string
MrcResultsWriter::FormatValue(double v)
{
    if (std::isfinite(v) && std::fabs(v) < 1e15 && v == std::floor(v))
    {
        return I(static_cast<int64_t>(v));
    }
    return FormatFixed(v, DECIMALS);
}

std::string
MrcResultsWriter::JsonString(const std::string& s)
{
    std::string out = "\"";
    for (unsigned char c : s)
    {
        switch (c)
        {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (c < 0x20)
            {
                static const char* hex = "0123456789abcdef";
                out += "\\u00";
                out += hex[c >> 4];
                out += hex[c & 0xf];
            }
            else
            {
                out += static_cast<char>(c);
            }
        }
    }
    return out + "\"";
}

void
MrcResultsWriter::WriteSummaryJson(const MrcRunResults& r, std::ostream& os)
{
    const MrcRunInfo& info = r.GetInfo();
    os << "{\n  \"schema\": " << I(SCHEMA) << ",\n";
    os << "  \"run\": {\n"
       << "    \"scenario\": " << JsonString(info.scenario) << ",\n"
       << "    \"seed\": " << U(info.seed) << ",\n"
       << "    \"ns3Version\": " << JsonString(info.ns3Version) << ",\n"
       << "    \"profile\": " << JsonString(info.profile) << ",\n"
       << "    \"profileSettings\": ";
    WriteStringMap(os, info.profileSettings, "    ");
    os << ",\n    \"attributeOverrides\": ";
    WriteStringMap(os, info.attributeOverrides, "    ");
    os << ",\n    \"options\": ";
    WriteStringMap(os, info.options, "    ");
    os << ",\n    \"simulatedTimeNs\": " << I(info.simulatedTimeNs) << ",\n"
       << "    \"host\": {\"wallClockSeconds\": " << FormatFixed(info.wallClockSeconds, 3)
       << ", \"peakRssKb\": " << U(info.peakRssKb);
    if (info.mpiRanks > 1)
    {
        os << ", \"mpi\": {\"ranks\": " << U(info.mpiRanks)
           << ", \"sync\": " << JsonString(info.mpiSync)
           << ", \"syncRounds\": " << U(info.syncRounds)
           << ", \"syncRoundsInFlight\": " << U(info.syncRoundsInFlight)
           << ", \"nullMessages\": " << U(info.nullMessages)
           << ", \"framesBetweenRanks\": " << U(info.framesBetweenRanks) << "}";
    }
    os << "}\n"
       << "  },\n";
    os << "  \"transports\": {";
    bool first = true;
    for (const MrcTransportSummary& s : r.Summarize())
    {
        const MrcTransportCounters& c = s.counters;
        os << (first ? "\n" : ",\n") << "    " << JsonString(s.transport) << ": {\n"
           << "      \"simulatedTimeNs\": " << I(c.simulatedTimeNs) << ",\n"
           << "      \"eventsExecuted\": " << U(c.eventsExecuted) << ",\n"
           << "      \"messages\": " << U(s.messages) << ",\n"
           << "      \"completed\": " << U(s.completed) << ",\n"
           << "      \"bytes\": " << U(s.bytes) << ",\n"
           << "      \"completedBytes\": " << U(s.completedBytes) << ",\n"
           << "      \"goodputGbps\": " << JsonDouble(s.goodputGbps) << ",\n"
           << "      \"fctNs\": {\"p50\": " << JsonInt(s.fctP50Ns)
           << ", \"p90\": " << JsonInt(s.fctP90Ns) << ", \"p99\": " << JsonInt(s.fctP99Ns)
           << ", \"max\": " << JsonInt(s.fctMaxNs) << "},\n"
           << "      \"slowdown\": {\"p50\": " << JsonDouble(s.slowdownP50)
           << ", \"p99\": " << JsonDouble(s.slowdownP99) << "},\n"
           << "      \"retransmissions\": " << U(c.retransmissions) << ",\n"
           << "      \"timeouts\": " << U(c.timeouts) << ",\n"
           << "      \"nacks\": " << U(c.nacks) << ",\n"
           << "      \"trims\": " << U(c.trims) << ",\n"
           << "      \"drops\": " << U(c.drops) << ",\n"
           << "      \"ecnMarks\": " << U(c.ecnMarks) << ",\n"
           << "      \"cnps\": " << U(c.cnps) << ",\n"
           << "      \"pfcPauseFrames\": " << U(c.pfcPauseFrames) << ",\n"
           << "      \"pfcPausedNs\": " << I(c.pfcPausedNs) << ",\n"
           << "      \"bytesExactlyOnce\": " << U(c.bytesExactlyOnce) << "\n"
           << "    }";
        first = false;
    }
    os << (first ? "}\n" : "\n  }\n") << "}\n";
}

void
MrcResultsWriter::WriteFlowsCsv(const MrcRunResults& r, std::ostream& os)
{
    const auto& flows = r.GetFlows();
    std::vector<std::size_t> tIdx(flows.size());
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        tIdx[i] = r.FindTransport(flows[i].transport);
    }
    auto order = StableOrder(flows.size(), [&](std::size_t a, std::size_t b) {
        return tIdx[a] != tIdx[b] ? tIdx[a] < tIdx[b] : flows[a].flowId < flows[b].flowId;
    });
    WriteFlowsCsvHeader(os);
    for (std::size_t i : order)
    {
        WriteFlowRow(flows[i], os);
    }
}

void
MrcResultsWriter::WriteFlowsCsvHeader(std::ostream& os)
{
    os << "transport,flow_id,src,dst,bytes,start_ns,end_ns,fct_ns,ideal_fct_ns,slowdown\n";
}

void
MrcResultsWriter::WriteFlowRow(const MrcFlowRecord& f, std::ostream& os)
{
    const bool done = f.IsCompleted();
    const double sd = f.Slowdown();
    os << f.transport << ',' << U(f.flowId) << ',' << U(f.src) << ',' << U(f.dst) << ','
       << U(f.bytes) << ',' << I(f.startNs) << ',' << (done ? I(f.endNs) : "") << ','
       << (done ? I(f.FctNs()) : "") << ',' << I(f.idealFctNs) << ','
       << (sd >= 0 ? FormatFixed(sd, DECIMALS) : "") << '\n';
}

void
MrcResultsWriter::WriteFctLine(const MrcFlowRecord& f, std::ostream& os)
{
    os << Hex8(f.sip) << ' ' << Hex8(f.dip) << ' ' << U(f.sport) << ' ' << U(f.dport) << ' '
       << U(f.bytes) << ' ' << I(f.startNs) << ' ' << I(f.FctNs()) << ' ' << I(f.idealFctNs)
       << '\n';
}

void
MrcResultsWriter::WriteTimeseriesCsv(const MrcRunResults& r, std::ostream& os)
{
    const auto& samples = r.GetSamples();
    const auto& series = r.GetSeries();
    for (const auto& s : series)
    {
        CsvField(s.entity, "time-series entity");
        CsvField(s.metric, "time-series metric");
    }
    auto order = StableOrder(samples.size(), [&](std::size_t a, std::size_t b) {
        return samples[a].timeNs < samples[b].timeNs;
    });
    os << "time_ns,transport,entity,metric,value\n";
    for (std::size_t i : order)
    {
        const auto& smp = samples[i];
        const auto& s = series[smp.series];
        os << I(smp.timeNs) << ',' << s.transport << ',' << s.entity << ',' << s.metric << ','
           << FormatValue(smp.value) << '\n';
    }
}

void
MrcResultsWriter::WriteLinksCsv(const MrcRunResults& r, std::ostream& os)
{
    const int64_t duration = r.GetInfo().simulatedTimeNs;
    // Each transport's links over its own run's simulated time.
    std::vector<int64_t> durations;
    for (const MrcTransportSummary& s : r.Summarize())
    {
        durations.push_back(s.counters.simulatedTimeNs > 0 ? s.counters.simulatedTimeNs : duration);
    }
    os << "transport,from,from_port,to,to_port,rate_bps,packets,bytes,utilization,drops,trims,"
          "ecn_marks,pauses_sent,pauses_received,paused_ns\n";
    for (const MrcLinkRecord& l : r.GetLinks())
    {
        const std::size_t t = r.FindTransport(l.transport);
        const int64_t d = t < durations.size() ? durations[t] : duration;
        std::string util;
        if (d > 0 && l.rateBps > 0)
        {
            // bits sent / bits the link could have sent in the transport's simulated time
            util = FormatFixed(static_cast<double>(l.bytes) * 8.0 * 1e9 /
                                   (static_cast<double>(l.rateBps) * static_cast<double>(d)),
                               DECIMALS);
        }
        os << CsvField(l.transport, "link transport") << ',' << CsvField(l.from, "link node") << ','
           << U(l.fromPort) << ',' << CsvField(l.to, "link node") << ',' << U(l.toPort) << ','
           << U(l.rateBps) << ',' << U(l.packets) << ',' << U(l.bytes) << ',' << util << ','
           << U(l.drops) << ',' << U(l.trims) << ',' << U(l.ecnMarks) << ',' << U(l.pausesSent)
           << ',' << U(l.pausesRecv) << ',' << I(l.pausedNs) << '\n';
    }
}

void
MrcResultsWriter::WriteFctTxt(const MrcRunResults& r,
                              std::ostream& os,
                              const std::string& transport)
{
    const auto& flows = r.GetFlows();
    std::vector<std::size_t> done;
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        if (flows[i].IsCompleted() && (transport.empty() || flows[i].transport == transport))
        {
            done.push_back(i);
        }
    }
    // HPCC appends a line when a QP finishes: completion order, ties by
    // transport order then flow id.
    std::stable_sort(done.begin(), done.end(), [&](std::size_t a, std::size_t b) {
        const MrcFlowRecord& x = flows[a];
        const MrcFlowRecord& y = flows[b];
        if (x.endNs != y.endNs)
        {
            return x.endNs < y.endNs;
        }
        const std::size_t tx = r.FindTransport(x.transport);
        const std::size_t ty = r.FindTransport(y.transport);
        return tx != ty ? tx < ty : x.flowId < y.flowId;
    });
    for (std::size_t i : done)
    {
        WriteFctLine(flows[i], os);
    }
}

void
MrcResultsWriter::WritePfcTxt(const MrcRunResults& r,
                              std::ostream& os,
                              const std::string& transport)
{
    const auto& log = r.GetPfcLog();
    auto order = StableOrder(log.size(), [&](std::size_t a, std::size_t b) {
        return log[a].timeNs < log[b].timeNs;
    });
    for (std::size_t i : order)
    {
        const MrcPfcRecord& e = log[i];
        if (!transport.empty() && e.transport != transport)
        {
            continue;
        }
        os << I(e.timeNs) << ' ' << U(e.node) << ' ' << U(e.nodeType) << ' ' << U(e.ifIndex) << ' '
           << U(e.type) << '\n';
    }
}

void
MrcResultsWriter::PrintTable(const MrcRunResults& r, std::ostream& os)
{
    struct Col
    {
        const char* head;
        std::size_t width;
    };

    static const Col cols[] = {{"transport", 10},
                               {"done/msgs", 13},
                               {"goodput", 9},
                               {"fct p50", 10},
                               {"fct p99", 10},
                               {"fct max", 10},
                               {"sd p50", 8},
                               {"sd p99", 8},
                               {"retx", 9},
                               {"timeouts", 9},
                               {"drops", 9},
                               {"ecn", 9},
                               {"cnps", 9},
                               {"pfc", 9}};
    static const char* units[] = {"", "", "Gb/s", "us", "us", "us", "", "", "", "", "", "", "", ""};
    std::string head;
    std::string unit;
    for (std::size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); ++i)
    {
        head += (i ? " " : "") + Pad(cols[i].head, cols[i].width, i == 0);
        unit += (i ? " " : "") + Pad(units[i], cols[i].width, i == 0);
    }
    // no trailing blanks
    while (!unit.empty() && unit.back() == ' ')
    {
        unit.pop_back();
    }
    os << head << '\n' << unit << '\n';
    for (const MrcTransportSummary& s : r.Summarize())
    {
        const MrcTransportCounters& c = s.counters;
        const std::string cells[] = {s.transport,
                                     U(s.completed) + "/" + U(s.messages),
                                     CellFixed(s.goodputGbps, 2),
                                     CellUs(s.fctP50Ns),
                                     CellUs(s.fctP99Ns),
                                     CellUs(s.fctMaxNs),
                                     CellFixed(s.slowdownP50, 2),
                                     CellFixed(s.slowdownP99, 2),
                                     U(c.retransmissions),
                                     U(c.timeouts),
                                     U(c.drops),
                                     U(c.ecnMarks),
                                     U(c.cnps),
                                     U(c.pfcPauseFrames)};
        std::string line;
        for (std::size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); ++i)
        {
            line += (i ? " " : "") + Pad(cells[i], cols[i].width, i == 0);
        }
        os << line << '\n';
    }
}

std::vector<std::string>
MrcResultsWriter::WriteAll(const MrcRunResults& r,
                           const std::string& dir,
                           const std::function<void(const std::string&)>& extra)
{
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir))
    {
        NS_FATAL_ERROR("MrcResultsWriter: cannot create the output folder '"
                       << dir << "': " << ec.message());
    }
    using Fn = std::function<void(std::ostream&)>;
    std::vector<std::pair<std::string, Fn>> files = {
        {"summary.json", [&r](std::ostream& os) { WriteSummaryJson(r, os); }},
        {"flows.csv", [&r](std::ostream& os) { WriteFlowsCsv(r, os); }},
        {"timeseries.csv", [&r](std::ostream& os) { WriteTimeseriesCsv(r, os); }},
        {"links.csv", [&r](std::ostream& os) { WriteLinksCsv(r, os); }}};
    // HPCC's formats cannot name the transport: one file per transport when there are
    // several (in DIR/TRANSPORT/, where the pcap files of such a run go too).
    const std::vector<std::string>& transports = r.GetTransports();
    if (transports.size() <= 1)
    {
        files.emplace_back("fct.txt", [&r](std::ostream& os) { WriteFctTxt(r, os); });
        files.emplace_back("pfc.txt", [&r](std::ostream& os) { WritePfcTxt(r, os); });
    }
    else
    {
        for (const std::string& t : transports)
        {
            std::filesystem::create_directories(dir + "/" + t, ec);
            if (ec)
            {
                NS_FATAL_ERROR("MrcResultsWriter: cannot create the folder '"
                               << dir << "/" << t << "': " << ec.message());
            }
            files.emplace_back(t + "/fct.txt",
                               [&r, t](std::ostream& os) { WriteFctTxt(r, os, t); });
            files.emplace_back(t + "/pfc.txt",
                               [&r, t](std::ostream& os) { WritePfcTxt(r, os, t); });
        }
    }
    std::vector<std::string> written;
    for (const auto& [name, fn] : files)
    {
        const std::string path = dir + "/" + name;
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.imbue(std::locale::classic());
        if (!out)
        {
            NS_FATAL_ERROR("MrcResultsWriter: cannot write '" << path << "'");
        }
        fn(out);
        out.close();
        if (!out)
        {
            NS_FATAL_ERROR("MrcResultsWriter: error while writing '" << path << "'");
        }
        written.emplace_back(name);
    }
    if (extra)
    {
        extra(dir);
    }
    return written;
}

} // namespace ns3
