/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-flow-stream.h"

#include "ns3/abort.h"
#include "ns3/fatal-error.h"
#include "ns3/log.h"
#include "ns3/mrc-mpi.h"
#include "ns3/mrc-results-writer.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcFlowStream");

namespace
{

void
OpenOut(std::ofstream& os, const std::string& path)
{
    os.open(path, std::ios::binary | std::ios::trunc);
    os.imbue(std::locale::classic());
    if (!os)
    {
        NS_FATAL_ERROR("MrcFlowStream: cannot write '" << path << "'");
    }
}

/// One transport's fct.txt part while merging: its next line and that line's end time.
struct FctReader
{
    std::ifstream in; //!< the part
    std::string line; //!< the next line (without its time and flow id prefix)
    int64_t endNs{0}; //!< its end time
    uint64_t id{0};   //!< its flow id
    bool more{false}; //!< a line is there

    void Next()
    {
        std::string raw;
        more = static_cast<bool>(std::getline(in, raw));
        if (more)
        {
            const std::size_t sp = raw.find(' ');
            const std::size_t sp2 = raw.find(' ', sp + 1);
            endNs = std::stoll(raw.substr(0, sp));
            id = std::stoull(raw.substr(sp + 1, sp2 - sp - 1));
            line = raw.substr(sp2 + 1);
        }
    }
};

/// \return the whole content of a file ("" if it cannot be read)
std::string
ReadAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

/// Append a length-prefixed blob to a pack.
void
PutBlob(std::string& pack, const std::string& blob)
{
    pack += std::to_string(blob.size());
    pack += '\n';
    pack += blob;
}

/// Read the next length-prefixed blob of a pack from position `at`.
std::string
GetBlob(const std::string& pack, std::size_t& at)
{
    const std::size_t nl = pack.find('\n', at);
    NS_ABORT_MSG_IF(nl == std::string::npos, "MrcFlowStream: a rank's parts are cut short");
    const std::size_t n = std::stoull(pack.substr(at, nl - at));
    NS_ABORT_MSG_IF(nl + 1 + n > pack.size(), "MrcFlowStream: a rank's parts are cut short");
    at = nl + 1 + n;
    return pack.substr(nl + 1, n);
}

/// \return the flow id of a flows.csv row (its second field)
uint64_t
RowFlowId(const std::string& row)
{
    const std::size_t c = row.find(',');
    return std::stoull(row.substr(c + 1, row.find(',', c + 1) - c - 1));
}

} // namespace

MrcFlowStream::MrcFlowStream(std::string dir)
    : m_dir(std::move(dir))
{
    if (m_dir.empty())
    {
        m_dir = ".";
    }
}

MrcFlowStream::~MrcFlowStream()
{
    m_flows.close();
    m_fct.close();
    m_samples.close();
    for (const Part& p : m_parts)
    {
        std::remove(p.flows.c_str());
        std::remove(p.fct.c_str());
        std::remove(p.samples.c_str());
    }
}

void
MrcFlowStream::BeginTransport(MrcRunResults* results, const std::string& transport)
{
    NS_ABORT_MSG_IF(m_open,
                    "MrcFlowStream: transport " << m_parts.back().transport << " is still open");
    NS_ABORT_MSG_IF(!results, "MrcFlowStream: no results");
    m_results = results;
    m_open = true;
    m_next = 0;
    m_pending.clear();
    m_group.clear();
    m_groupEnd = -1;
    Part p;
    p.transport = transport;
    // Each rank of a split run its own part files (they may share the folder).
    const std::string base = m_dir + "/.mrc-stream-" +
                             (m_split ? "r" + std::to_string(MrcMpi::GetRank()) + "-" : "") +
                             std::to_string(m_parts.size());
    p.flows = base + ".flows";
    p.fct = base + ".fct";
    p.samples = base + ".samples";
    OpenOut(m_flows, p.flows);
    OpenOut(m_fct, p.fct);
    OpenOut(m_samples, p.samples);
    m_parts.push_back(p);
    results->SetStreamedSamples([this](const std::string& t,
                                       std::vector<int64_t>& fcts,
                                       std::vector<double>& sd) { ReadSamples(t, fcts, sd); });
}

void
MrcFlowStream::Add(const MrcFlowRecord& rec)
{
    NS_ABORT_MSG_IF(!m_open, "MrcFlowStream::Add: no transport begun");
    NS_ABORT_MSG_IF(rec.transport != m_parts.back().transport,
                    "MrcFlowStream::Add: a flow of " << rec.transport << " while "
                                                     << m_parts.back().transport << " is open");
    NS_ABORT_MSG_IF(rec.flowId < m_next || m_pending.count(rec.flowId),
                    "MrcFlowStream::Add: flow " << rec.flowId << " of " << rec.transport
                                                << " came twice");
    ++m_added;
    const MrcFlowRecord r = m_results->AddStreamedFlow(rec);
    if (r.IsCompleted())
    {
        NS_ABORT_MSG_IF(r.endNs < m_groupEnd,
                        "MrcFlowStream::Add: completions out of time order (" << r.endNs << " < "
                                                                              << m_groupEnd << ")");
        if (r.endNs != m_groupEnd)
        {
            FlushFctGroup();
            m_groupEnd = r.endNs;
        }
        const int64_t fct = r.FctNs();
        const double sd = r.idealFctNs > 0 ? r.Slowdown() : -1.0; // -1: no slowdown
        m_samples.write(reinterpret_cast<const char*>(&fct), sizeof(fct));
        m_samples.write(reinterpret_cast<const char*>(&sd), sizeof(sd));
        std::ostringstream line;
        line.imbue(std::locale::classic());
        MrcResultsWriter::WriteFctLine(r, line);
        m_group.emplace_back(r.flowId, line.str());
    }
    std::ostringstream row;
    row.imbue(std::locale::classic());
    MrcResultsWriter::WriteFlowRow(r, row);
    if (r.flowId != m_next || m_split)
    {
        m_pending.emplace(r.flowId, row.str());
        m_maxPending = std::max(m_maxPending, m_pending.size());
        return;
    }
    m_flows << row.str();
    ++m_next;
    for (auto it = m_pending.begin(); it != m_pending.end() && it->first == m_next;
         it = m_pending.erase(it))
    {
        m_flows << it->second;
        ++m_next;
    }
}

void
MrcFlowStream::FlushFctGroup()
{
    // completions of the same nanosecond: by flow id (MrcResultsWriter::WriteFctTxt's ties)
    std::sort(m_group.begin(), m_group.end(), [](const auto& a, const auto& b) {
        return a.first < b.first;
    });
    for (const auto& [id, line] : m_group)
    {
        m_fct << m_groupEnd << ' ' << id << ' ' << line;
    }
    m_group.clear();
}

void
MrcFlowStream::EndTransport()
{
    NS_ABORT_MSG_IF(!m_open, "MrcFlowStream::EndTransport: no transport begun");
    if (m_split)
    {
        for (const auto& [id, row] : m_pending)
        {
            m_flows << row;
        }
        m_pending.clear();
    }
    NS_ABORT_MSG_IF(!m_pending.empty(),
                    "MrcFlowStream::EndTransport: flow "
                        << m_next << " of " << m_parts.back().transport << " never came ("
                        << m_pending.size() << " rows after it wait)");
    FlushFctGroup();
    m_flows.close();
    m_fct.close();
    m_samples.close();
    if (!m_flows || !m_fct || !m_samples)
    {
        NS_FATAL_ERROR("MrcFlowStream: writing the flows of " << m_parts.back().transport
                                                              << " into " << m_dir << " failed");
    }
    m_open = false;
}

void
MrcFlowStream::Finish(const std::string& dir, const MrcRunResults& results)
{
    if (m_open)
    {
        EndTransport();
    }
    // the parts in the results' transport order
    std::vector<const Part*> parts;
    for (const std::string& t : results.GetTransports())
    {
        for (const Part& p : m_parts)
        {
            if (p.transport == t)
            {
                parts.push_back(&p);
            }
        }
    }
    NS_ABORT_MSG_IF(parts.size() != m_parts.size(),
                    "MrcFlowStream::Finish: a streamed transport is not in the results");
    {
        std::ofstream out;
        OpenOut(out, dir + "/flows.csv");
        MrcResultsWriter::WriteFlowsCsvHeader(out);
        for (const Part* p : parts)
        {
            std::ifstream in(p->flows, std::ios::binary);
            if (in.peek() != std::ifstream::traits_type::eof())
            {
                out << in.rdbuf();
            }
        }
        if (!out)
        {
            NS_FATAL_ERROR("MrcFlowStream: cannot write '" << dir << "/flows.csv'");
        }
    }
    // fct.txt: HPCC's format cannot name the transport, so a run of several transports has one
    // file per transport in DIR/TRANSPORT/ (as MrcResultsWriter::Write does), a run of one has
    // DIR/fct.txt. Each file's lines in completion order; ties keep the part's order.
    std::vector<std::pair<std::string, std::vector<const Part*>>> fctFiles;
    if (parts.size() <= 1)
    {
        fctFiles.emplace_back(dir + "/fct.txt", parts);
    }
    else
    {
        for (const Part* p : parts)
        {
            std::filesystem::create_directories(dir + "/" + p->transport);
            fctFiles.emplace_back(dir + "/" + p->transport + "/fct.txt",
                                  std::vector<const Part*>{p});
        }
    }
    for (const auto& [path, group] : fctFiles)
    {
        std::ofstream out;
        OpenOut(out, path);
        std::vector<FctReader> readers(group.size());
        for (std::size_t k = 0; k < group.size(); ++k)
        {
            readers[k].in.open(group[k]->fct, std::ios::binary);
            readers[k].Next();
        }
        while (true)
        {
            FctReader* best = nullptr;
            for (FctReader& r : readers) // earliest end; ties: the first transport
            {
                if (r.more &&
                    (!best || r.endNs < best->endNs || (r.endNs == best->endNs && r.id < best->id)))
                {
                    best = &r;
                }
            }
            if (!best)
            {
                break;
            }
            out << best->line << '\n';
            best->Next();
        }
        if (!out)
        {
            NS_FATAL_ERROR("MrcFlowStream: cannot write '" << path << "'");
        }
    }
}

void
MrcFlowStream::ReadSamples(const std::string& transport,
                           std::vector<int64_t>& fcts,
                           std::vector<double>& slowdowns)
{
    if (m_open)
    {
        m_samples.flush();
    }
    for (const Part& p : m_parts)
    {
        if (p.transport != transport)
        {
            continue;
        }
        std::ifstream in(p.samples, std::ios::binary);
        int64_t fct = 0;
        double sd = 0;
        while (in.read(reinterpret_cast<char*>(&fct), sizeof(fct)) &&
               in.read(reinterpret_cast<char*>(&sd), sizeof(sd)))
        {
            fcts.push_back(fct);
            if (sd >= 0)
            {
                slowdowns.push_back(sd);
            }
        }
    }
}

std::size_t
MrcFlowStream::GetBuffered() const
{
    return m_pending.size();
}

std::size_t
MrcFlowStream::GetMaxBuffered() const
{
    return m_maxPending;
}

uint64_t
MrcFlowStream::GetNAdded() const
{
    return m_added;
}

std::string&
MrcFlowStream::CollectiveStepRows()
{
    return m_stepRows;
}

void
MrcFlowStream::SetSplit(bool split)
{
    m_split = split;
}

std::string
MrcFlowStream::PackParts() const
{
    NS_ABORT_MSG_IF(m_open, "MrcFlowStream::PackParts: transport still open");
    std::string pack;
    PutBlob(pack, std::to_string(m_parts.size()));
    for (const Part& p : m_parts)
    {
        PutBlob(pack, p.transport);
        PutBlob(pack, ReadAll(p.flows));
        PutBlob(pack, ReadAll(p.fct));
        PutBlob(pack, ReadAll(p.samples));
    }
    return pack;
}

void
MrcFlowStream::MergeParts(const std::vector<std::string>& packs)
{
    NS_ABORT_MSG_IF(m_open, "MrcFlowStream::MergeParts: transport still open");

    struct Rank
    {
        std::string pack;
        std::size_t at{0};
    };

    std::vector<Rank> ranks;
    for (const std::string& p : packs)
    {
        ranks.push_back({p, 0});
        const std::size_t n = std::stoull(GetBlob(ranks.back().pack, ranks.back().at));
        NS_ABORT_MSG_IF(n != m_parts.size(),
                        "MrcFlowStream::MergeParts: a rank ran " << n << " transports, rank 0 "
                                                                 << m_parts.size());
    }
    for (const Part& part : m_parts)
    {
        // every rank's rows and lines of this transport, with this rank's own
        std::vector<std::pair<uint64_t, std::string>> rows;
        std::vector<std::tuple<int64_t, uint64_t, std::string>> lines;
        std::string samples = ReadAll(part.samples);
        auto take = [&rows, &lines](const std::string& flows, const std::string& fct) {
            std::istringstream fin(flows);
            for (std::string row; std::getline(fin, row);)
            {
                rows.emplace_back(RowFlowId(row), row);
            }
            std::istringstream cin(fct);
            for (std::string line; std::getline(cin, line);)
            {
                const std::size_t sp = line.find(' ');
                const std::size_t sp2 = line.find(' ', sp + 1);
                lines.emplace_back(std::stoll(line.substr(0, sp)),
                                   std::stoull(line.substr(sp + 1, sp2 - sp - 1)),
                                   line);
            }
        };
        take(ReadAll(part.flows), ReadAll(part.fct));
        for (Rank& r : ranks)
        {
            const std::string transport = GetBlob(r.pack, r.at);
            NS_ABORT_MSG_IF(transport != part.transport,
                            "MrcFlowStream::MergeParts: transport "
                                << transport << " where rank 0 has " << part.transport);
            const std::string flows = GetBlob(r.pack, r.at);
            const std::string fct = GetBlob(r.pack, r.at);
            samples += GetBlob(r.pack, r.at);
            take(flows, fct);
        }
        std::sort(rows.begin(), rows.end());
        std::sort(lines.begin(), lines.end());
        std::ofstream f;
        OpenOut(f, part.flows);
        for (std::size_t k = 0; k < rows.size(); ++k)
        {
            NS_ABORT_MSG_IF(k > 0 && rows[k].first == rows[k - 1].first,
                            "MrcFlowStream::MergeParts: flow " << rows[k].first << " of "
                                                               << part.transport
                                                               << " came from two ranks");
            f << rows[k].second << '\n';
        }
        std::ofstream c;
        OpenOut(c, part.fct);
        for (const auto& l : lines)
        {
            c << std::get<2>(l) << '\n';
        }
        std::ofstream s;
        OpenOut(s, part.samples);
        s << samples;
        if (!f || !c || !s)
        {
            NS_FATAL_ERROR("MrcFlowStream: merging the ranks' flows into " << m_dir << " failed");
        }
    }
}

} // namespace ns3
