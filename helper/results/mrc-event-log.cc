/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-event-log.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcEventLog");

NS_OBJECT_ENSURE_REGISTERED(MrcEventLog);

TypeId
MrcEventLog::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcEventLog")
                            .SetParent<Object>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcEventLog>()
                            .AddTraceSource("Record",
                                            "A record was added to the event log.",
                                            MakeTraceSourceAccessor(&MrcEventLog::m_recordTrace),
                                            "ns3::MrcEventLog::RecordTracedCallback");
    return tid;
}

MrcEventLog::MrcEventLog()
{
    NS_LOG_FUNCTION(this);
}

MrcEventLog::~MrcEventLog()
{
    NS_LOG_FUNCTION(this);
}

namespace
{

bool
IsSnakeCase(const std::string& kind)
{
    if (kind.empty())
    {
        return false;
    }
    for (char c : kind)
    {
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
        {
            return false;
        }
    }
    return true;
}

} // namespace

void
MrcEventLog::Record(Time time,
                    const std::string& kind,
                    const std::string& where,
                    const std::string& detail,
                    const std::string& transport)
{
    NS_LOG_FUNCTION(this << time << kind << where << detail << transport);
    NS_ABORT_MSG_IF(time.IsStrictlyNegative(),
                    "MrcEventLog::Record: time " << time.GetNanoSeconds() << " ns is negative");
    NS_ABORT_MSG_IF(!IsSnakeCase(kind),
                    "MrcEventLog::Record: kind \"" << kind
                                                   << "\": allowed a non-empty snake_case word "
                                                      "(a-z, 0-9, _)");
    // After every record of the same or an earlier time: stable by recording order.
    auto pos = std::upper_bound(m_records.begin(),
                                m_records.end(),
                                time,
                                [](const Time& t, const MrcEventRecord& r) { return t < r.time; });
    auto it = m_records.insert(pos, MrcEventRecord{time, kind, where, detail, transport});
    m_recordTrace(*it);
}

void
MrcEventLog::RecordNow(const std::string& kind, const std::string& where, const std::string& detail)
{
    Record(Simulator::Now(), kind, where, detail);
}

const std::vector<MrcEventRecord>&
MrcEventLog::GetRecords() const
{
    return m_records;
}

std::size_t
MrcEventLog::GetN() const
{
    return m_records.size();
}

void
MrcEventLog::Clear()
{
    m_records.clear();
}

std::string
MrcEventLog::CsvField(const std::string& field)
{
    if (field.find_first_of(",\"\r\n") == std::string::npos)
    {
        return field;
    }
    std::string out;
    out.reserve(field.size() + 2);
    out += '"';
    for (char c : field)
    {
        if (c == '"')
        {
            out += '"';
        }
        out += c;
    }
    out += '"';
    return out;
}

void
MrcEventLog::WriteCsv(std::ostream& os) const
{
    os << CSV_HEADER << '\n';
    for (const auto& r : m_records)
    {
        os << r.time.GetNanoSeconds() << ',' << CsvField(r.kind) << ',' << CsvField(r.where) << ','
           << CsvField(r.detail) << '\n';
    }
}

void
MrcEventLog::WriteCsv(const std::string& path) const
{
    std::ofstream f(path, std::ios::out | std::ios::trunc | std::ios::binary);
    NS_ABORT_MSG_IF(!f, "MrcEventLog::WriteCsv: cannot open \"" << path << "\" for writing");
    WriteCsv(f);
    f.close();
    NS_ABORT_MSG_IF(!f, "MrcEventLog::WriteCsv: writing \"" << path << "\" failed");
}

void
MrcEventLog::WriteCsvWithTransport(std::ostream& os, const std::string& fallback) const
{
    os << CSV_HEADER_WITH_TRANSPORT << '\n';
    for (const auto& r : m_records)
    {
        os << CsvField(r.transport.empty() ? fallback : r.transport) << ','
           << r.time.GetNanoSeconds() << ',' << CsvField(r.kind) << ',' << CsvField(r.where) << ','
           << CsvField(r.detail) << '\n';
    }
}

void
MrcEventLog::WriteCsvWithTransport(const std::string& path, const std::string& fallback) const
{
    std::ofstream f(path, std::ios::out | std::ios::trunc | std::ios::binary);
    NS_ABORT_MSG_IF(!f, "MrcEventLog::WriteCsv: cannot open \"" << path << "\" for writing");
    WriteCsvWithTransport(f, fallback);
    f.close();
    NS_ABORT_MSG_IF(!f, "MrcEventLog::WriteCsv: writing \"" << path << "\" failed");
}

std::string
MrcEventLog::ToCsv() const
{
    std::ostringstream os;
    WriteCsv(os);
    return os.str();
}

} // namespace ns3
