/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-stall-tracker.h"

#include "ns3/simulator.h"

#include <algorithm>
#include <string>

namespace ns3
{

void
MrcStallTracker::SetEventLog(Ptr<MrcEventLog> log)
{
    m_log = log;
}

void
MrcStallTracker::SetDeferred(Time lag)
{
    m_deferred = true;
    m_lag = lag;
}

void
MrcStallTracker::Add(Ptr<MrcQueuePair> responder, Time start)
{
    Message m;
    m.responder = responder;
    m.lastProgressNs = start.GetNanoSeconds();
    m.fromNs = start.GetNanoSeconds();
    m_msgs.push_back(m);
}

std::size_t
MrcStallTracker::GetN() const
{
    return m_msgs.size();
}

void
MrcStallTracker::NoteProgress(std::size_t i, uint64_t placed)
{
    Message& m = m_msgs[i];
    if (placed > m.placed && m.lastRxNs >= 0)
    {
        // The packet of the previous Rx was placed (new bytes): progress at that time.
        const int64_t gap = m.lastRxNs - m.lastProgressNs;
        if (gap > m.maxNs)
        {
            m.maxNs = gap;
            m.fromNs = m.lastProgressNs;
        }
        m.lastProgressNs = m.lastRxNs;
        m.placed = placed;
    }
}

void
MrcStallTracker::OnRx(std::size_t i)
{
    Message& m = m_msgs[i];
    if (!m.responder)
    {
        return;
    }
    const uint64_t placed = m.responder->GetCounters().bytesPlaced;
    const int64_t now = Simulator::Now().GetTimeStep();
    if (m_deferred)
    {
        // an Rx whose message cannot have ended before it any more counts as it happened
        Commit(i, now - m_lag.GetTimeStep());
        m.kept.emplace_back(now, placed);
        return;
    }
    NoteProgress(i, placed);
    m.lastRxNs = Simulator::Now().GetNanoSeconds();
}

void
MrcStallTracker::Commit(std::size_t i, int64_t before)
{
    Message& m = m_msgs[i];
    std::size_t k = 0;
    for (; k < m.kept.size() && m.kept[k].first < before; ++k)
    {
        NoteProgress(i, m.kept[k].second);
        m.lastRxNs = TimeStep(m.kept[k].first).GetNanoSeconds();
    }
    m.kept.erase(m.kept.begin(), m.kept.begin() + static_cast<std::ptrdiff_t>(k));
}

void
MrcStallTracker::Close(std::size_t i, int64_t until)
{
    CloseAt(i, Simulator::Now(), m_msgs[i].responder->GetCounters().bytesPlaced, until);
}

void
MrcStallTracker::CloseAt(std::size_t i, Time at, uint64_t placed, int64_t until)
{
    NoteProgress(i, placed);
    Message& m = m_msgs[i];
    if (until >= 0 && until - m.lastProgressNs > m.maxNs)
    {
        m.maxNs = until - m.lastProgressNs;
        m.fromNs = m.lastProgressNs;
    }
    m.closed = true;
    const std::string detail =
        "max_stall_ns=" + std::to_string(m.maxNs) + " from_ns=" + std::to_string(m.fromNs);
    if (m_deferred)
    {
        m_rows.push_back(Row{at, i, detail});
        return;
    }
    m_log->Record(at, "flow_stall", "flow" + std::to_string(i), detail);
}

void
MrcStallTracker::End(std::size_t i, Time endedAt, bool completed)
{
    Message& m = m_msgs[i];
    m.ended = true;
    if (!m.responder)
    {
        m.closed = true; // another rank's responder: its rank writes the record
        return;
    }
    // the Rx before the end count; the count of placed bytes at the end is the one seen by
    // the first Rx after it (bytes are placed only by a received packet), else the current
    Commit(i, endedAt.GetTimeStep());
    const uint64_t placed =
        m.kept.empty() ? m.responder->GetCounters().bytesPlaced : m.kept.front().second;
    m.kept.clear();
    if (completed)
    {
        CloseAt(i, endedAt, placed, -1);
    }
    // (a failed message stays stalled: CloseOpen closes it at the end of the run)
}

void
MrcStallTracker::CloseOpen()
{
    for (std::size_t i = 0; i < m_msgs.size(); ++i)
    {
        if (!m_msgs[i].closed && m_msgs[i].responder)
        {
            // Still running, stuck or failed at the end of the run: the gap lasts until now.
            Commit(i, Simulator::Now().GetTimeStep() + 1);
            Close(i, Simulator::Now().GetNanoSeconds());
        }
    }
    if (!m_deferred)
    {
        return;
    }
    std::stable_sort(m_rows.begin(), m_rows.end(), [](const Row& a, const Row& b) {
        return a.at < b.at || (a.at == b.at && a.i < b.i);
    });
    for (const Row& r : m_rows)
    {
        m_log->Record(r.at, "flow_stall", "flow" + std::to_string(r.i), r.detail);
    }
    m_rows.clear();
}

} // namespace ns3
