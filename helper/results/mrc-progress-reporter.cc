/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-progress-reporter.h"

#include "mrc-results-writer.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <iostream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcProgressReporter");
NS_OBJECT_ENSURE_REGISTERED(MrcProgressReporter);

namespace
{
/// Wall-clock spacing of checks the adaptation aims at (about ten per second).
constexpr double TARGET_CHECK_WALL_S = 0.1;
/// Smallest spacing of checks in simulated time.
const int64_t MIN_INTERVAL_NS = 100;
/// Largest spacing of checks in simulated time, so that a simulation that
/// slows down suddenly is not left unreported for long.
const int64_t MAX_INTERVAL_NS = 1000000;
} // namespace

TypeId
MrcProgressReporter::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcProgressReporter")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcProgressReporter>()
            .AddAttribute("Enabled",
                          "Print progress lines (our choice: on; mrc-sim's --progress=0 turns "
                          "it off).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcProgressReporter::m_enabled),
                          MakeBooleanChecker())
            .AddAttribute("MinWallInterval",
                          "Least wall-clock time between two progress lines (our choice: 1 s).",
                          TimeValue(Seconds(1)),
                          MakeTimeAccessor(&MrcProgressReporter::m_minWallInterval),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("FirstInterval",
                          "Simulated time to the first check; later spacing adapts to the "
                          "simulation's speed (our choice: 10 us).",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&MrcProgressReporter::m_firstInterval),
                          MakeTimeChecker(NanoSeconds(MIN_INTERVAL_NS)));
    return tid;
}

MrcProgressReporter::MrcProgressReporter()
    : m_enabled(true),
      m_os(nullptr),
      m_checks(0),
      m_lines(0)
{
}

MrcProgressReporter::~MrcProgressReporter() = default;

void
MrcProgressReporter::DoDispose()
{
    Stop();
    Object::DoDispose();
}

void
MrcProgressReporter::Start(Time stopTime, std::ostream* os)
{
    if (!m_enabled)
    {
        return;
    }
    NS_ABORT_MSG_IF(!stopTime.IsStrictlyPositive(),
                    "MrcProgressReporter::Start: stop time " << stopTime
                                                             << " must be > 0 (the reporter "
                                                                "needs a Simulator::Stop time)");
    m_stopTime = stopTime;
    m_os = os ? os : &std::cerr;
    m_interval = m_firstInterval;
    m_start = Clock::now();
    m_lastCheck = m_start;
    m_lastLine = m_start;
    ScheduleNext();
}

void
MrcProgressReporter::Stop()
{
    m_event.Cancel();
}

void
MrcProgressReporter::SetMessageCounters(Callback<uint64_t> done, Callback<uint64_t> total)
{
    m_done = done;
    m_total = total;
}

double
MrcProgressReporter::EstimateRemaining(uint64_t done,
                                       uint64_t total,
                                       int64_t simNs,
                                       int64_t stopNs,
                                       double wallS,
                                       bool* upperBoundOnly)
{
    double byMessages = -1;
    if (total > 0 && done >= total)
    {
        byMessages = 0;
    }
    else if (total > 0 && done > 0)
    {
        byMessages = wallS * static_cast<double>(total - done) / static_cast<double>(done);
    }
    double bySimTime = -1;
    if (simNs > 0 && stopNs > simNs)
    {
        bySimTime = wallS * static_cast<double>(stopNs - simNs) / static_cast<double>(simNs);
    }
    else if (simNs > 0)
    {
        bySimTime = 0;
    }
    if (upperBoundOnly)
    {
        *upperBoundOnly = byMessages < 0 && bySimTime >= 0;
    }
    if (byMessages >= 0 && bySimTime >= 0)
    {
        return std::min(byMessages, bySimTime);
    }
    return byMessages >= 0 ? byMessages : bySimTime;
}

std::string
MrcProgressReporter::FormatLine(uint64_t done,
                                uint64_t total,
                                int64_t simNs,
                                int64_t stopNs,
                                double wallS)
{
    std::string line = "progress: ";
    if (total > 0)
    {
        line += std::to_string(done) + "/" + std::to_string(total) + " messages, ";
    }
    line += "simulated " + MrcResultsWriter::FormatFixed(static_cast<double>(simNs) / 1e6, 6) +
            " ms, wall " + MrcResultsWriter::FormatFixed(wallS, 1) + " s, ETA ";
    bool bound = false;
    const double left = EstimateRemaining(done, total, simNs, stopNs, wallS, &bound);
    if (left < 0)
    {
        return line + "unknown";
    }
    return line + (bound ? "<= " : "") + MrcResultsWriter::FormatFixed(left, 1) + " s";
}

uint64_t
MrcProgressReporter::GetChecks() const
{
    return m_checks;
}

uint64_t
MrcProgressReporter::GetLines() const
{
    return m_lines;
}

void
MrcProgressReporter::ScheduleNext()
{
    // The last check falls 1 ns before the stop time at the latest.
    const Time delay = std::min(m_interval, m_stopTime - Simulator::Now() - NanoSeconds(1));
    if (delay.IsStrictlyPositive())
    {
        m_event = Simulator::Schedule(delay, &MrcProgressReporter::Check, this);
    }
}

void
MrcProgressReporter::Check()
{
    ++m_checks;
    const Clock::time_point wall = Clock::now();
    const double sinceCheck = std::chrono::duration<double>(wall - m_lastCheck).count();
    m_lastCheck = wall;
    if (std::chrono::duration<double>(wall - m_lastLine).count() >= m_minWallInterval.GetSeconds())
    {
        m_lastLine = wall;
        ++m_lines;
        const double wallS = std::chrono::duration<double>(wall - m_start).count();
        const uint64_t total = m_total.IsNull() ? 0 : m_total();
        const uint64_t done = m_done.IsNull() ? 0 : m_done();
        *m_os << FormatLine(done,
                            total,
                            Simulator::Now().GetNanoSeconds(),
                            m_stopTime.GetNanoSeconds(),
                            wallS)
              << std::endl;
    }
    // Adapt: double the spacing while checks come too often, halve it when
    // they come too rarely.
    if (sinceCheck < TARGET_CHECK_WALL_S / 2 && m_interval.GetNanoSeconds() < MAX_INTERVAL_NS)
    {
        m_interval = m_interval * 2;
    }
    else if (sinceCheck > TARGET_CHECK_WALL_S * 2 && m_interval.GetNanoSeconds() > MIN_INTERVAL_NS)
    {
        m_interval = std::max(m_interval / 2, NanoSeconds(MIN_INTERVAL_NS));
    }
    ScheduleNext();
}

} // namespace ns3
