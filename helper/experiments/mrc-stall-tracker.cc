/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-stall-tracker.h"

#include "ns3/simulator.h"

#include <string>

namespace ns3
{

void
MrcStallTracker::SetEventLog(Ptr<MrcEventLog> log)
{
    m_log = log;
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
MrcStallTracker::NoteProgress(std::size_t i)
{
    Message& m = m_msgs[i];
    const uint64_t placed = m.responder->GetCounters().bytesPlaced;
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
    NoteProgress(i);
    m_msgs[i].lastRxNs = Simulator::Now().GetNanoSeconds();
}

void
MrcStallTracker::Close(std::size_t i, int64_t until)
{
    NoteProgress(i);
    Message& m = m_msgs[i];
    if (until >= 0 && until - m.lastProgressNs > m.maxNs)
    {
        m.maxNs = until - m.lastProgressNs;
        m.fromNs = m.lastProgressNs;
    }
    m.closed = true;
    m_log->RecordNow("flow_stall",
                     "flow" + std::to_string(i),
                     "max_stall_ns=" + std::to_string(m.maxNs) +
                         " from_ns=" + std::to_string(m.fromNs));
}

void
MrcStallTracker::CloseOpen()
{
    for (std::size_t i = 0; i < m_msgs.size(); ++i)
    {
        if (!m_msgs[i].closed)
        {
            // Still running, stuck or failed at the end of the run: the gap lasts until now.
            Close(i, Simulator::Now().GetNanoSeconds());
        }
    }
}

} // namespace ns3
