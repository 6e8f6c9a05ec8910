/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-flow-stream.h"

#include "ns3/abort.h"
#include "ns3/fatal-error.h"
#include "ns3/log.h"
#include "ns3/mrc-results-writer.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

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
    std::string line; //!< the next line (without its time prefix)
    int64_t endNs{0}; //!< its end time
    bool more{false}; //!< a line is there

    void Next()
    {
        std::string raw;
        more = static_cast<bool>(std::getline(in, raw));
        if (more)
        {
            const std::size_t sp = raw.find(' ');
            endNs = std::stoll(raw.substr(0, sp));
            line = raw.substr(sp + 1);
        }
    }
};

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
    const std::string base = m_dir + "/.mrc-stream-" + std::to_string(m_parts.size());
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
    if (r.flowId != m_next)
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
        m_fct << m_groupEnd << ' ' << line;
    }
    m_group.clear();
}

void
MrcFlowStream::EndTransport()
{
    NS_ABORT_MSG_IF(!m_open, "MrcFlowStream::EndTransport: no transport begun");
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
                if (r.more && (!best || r.endNs < best->endNs))
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

} // namespace ns3
