/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-scenario-connections.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

void
MrcScenarioConnections::SetQpsPerConnection(uint32_t qpsPerConnection)
{
    m_qpsPerConnection = qpsPerConnection;
}

uint32_t
MrcScenarioConnections::GetQpsPerConnection() const
{
    return m_qpsPerConnection;
}

void
MrcScenarioConnections::SetOpener(Opener open)
{
    m_open = open;
}

MrcScenarioConnections::Key
MrcScenarioConnections::KeyOf(const MrcFlowSpec& f)
{
    // Plain messages are job 0, collective c is job c + 1.
    const uint32_t job = f.kind == MrcFlowKind::COLLECTIVE ? f.collective + 1 : 0;
    return Key{job, f.src, f.dst, f.priorityGroup};
}

std::size_t
MrcScenarioConnections::OpenLane(uint32_t conn, const MrcFlowSpec& f)
{
    NS_ABORT_MSG_IF(m_open.IsNull(), "MrcScenarioConnections: no opener set");
    MrcConnectionLane lane;
    lane.qps = m_open(f);
    lane.connection = conn;
    m_lanes.push_back(std::move(lane));
    return m_lanes.size() - 1;
}

MrcScenarioConnections::Placement
MrcScenarioConnections::Place(std::size_t id, const MrcFlowSpec& f)
{
    Placement p;
    if (m_qpsPerConnection == 0)
    {
        // One lane per message (a connection of its own).
        m_conns.emplace_back();
        p.lane = OpenLane(static_cast<uint32_t>(m_conns.size() - 1), f);
        m_conns.back().lanes.push_back(p.lane);
        p.opened = true;
    }
    else
    {
        auto [it, isNew] = m_index.emplace(KeyOf(f), static_cast<uint32_t>(m_conns.size()));
        if (isNew)
        {
            m_conns.emplace_back();
        }
        Connection& c = m_conns[it->second];
        const uint32_t slot = c.next;
        c.next = (c.next + 1) % m_qpsPerConnection;
        if (slot >= c.lanes.size())
        {
            // Lanes open in slot order: slot == c.lanes.size() here.
            c.lanes.push_back(OpenLane(it->second, f));
            p.opened = true;
        }
        p.lane = m_conns[it->second].lanes[slot];
    }
    MrcConnectionLane& lane = m_lanes[p.lane];
    p.offset = lane.nextOffset;
    lane.nextOffset += f.bytes;
    NS_ABORT_MSG_IF(lane.nextOffset > REGION_BYTES,
                    "a connection lane carried more than " << REGION_BYTES << " bytes");
    ++lane.messages;
    lane.open.push_back(id);
    return p;
}

void
MrcScenarioConnections::Close(std::size_t lane, std::size_t id)
{
    std::vector<std::size_t>& open = m_lanes.at(lane).open;
    auto it = std::find(open.begin(), open.end(), id);
    if (it != open.end())
    {
        open.erase(it);
    }
    if (open.empty())
    {
        open.shrink_to_fit();
    }
}

const std::vector<MrcConnectionLane>&
MrcScenarioConnections::GetLanes() const
{
    return m_lanes;
}

const MrcConnectionLane&
MrcScenarioConnections::GetLane(std::size_t lane) const
{
    return m_lanes.at(lane);
}

std::size_t
MrcScenarioConnections::GetNConnections() const
{
    return m_conns.size();
}

} // namespace ns3
