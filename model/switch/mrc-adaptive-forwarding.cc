/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-adaptive-forwarding.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcAdaptiveForwarding");

NS_OBJECT_ENSURE_REGISTERED(MrcAdaptiveForwarding);
NS_OBJECT_ENSURE_REGISTERED(MrcFlowletForwarding);

TypeId
MrcAdaptiveForwarding::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcAdaptiveForwarding")
                            .SetParent<MrcEcmpForwarding>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcAdaptiveForwarding>();
    return tid;
}

MrcAdaptiveForwarding::MrcAdaptiveForwarding() = default;

MrcAdaptiveForwarding::~MrcAdaptiveForwarding() = default;

uint64_t
MrcAdaptiveForwarding::GetMovedPackets() const
{
    return m_moved;
}

uint32_t
MrcAdaptiveForwarding::LeastLoaded(const uint32_t* live, uint32_t nLive)
{
    // Ties go round-robin: the search starts one port further at every choice.
    const uint32_t start = m_next++ % nLive;
    uint32_t best = live[start];
    uint64_t bestLoad = GetPortLoad(best);
    for (uint32_t i = 1; i < nLive && bestLoad > 0; ++i)
    {
        const uint32_t port = live[(start + i) % nLive];
        const uint64_t load = GetPortLoad(port);
        if (load < bestLoad)
        {
            best = port;
            bestLoad = load;
        }
    }
    return best;
}

uint32_t
MrcAdaptiveForwarding::ChoosePort(const MrcPacketInfo& /* info */,
                                  uint64_t /* hash */,
                                  uint32_t ecmpPort,
                                  const uint32_t* live,
                                  uint32_t nLive)
{
    const uint32_t port = LeastLoaded(live, nLive);
    m_moved += port != ecmpPort ? 1 : 0;
    return port;
}

TypeId
MrcFlowletForwarding::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcFlowletForwarding")
            .SetParent<MrcAdaptiveForwarding>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcFlowletForwarding>()
            .AddAttribute("FlowletGap",
                          "A flow idle for longer than this starts a new flowlet, which "
                          "may take another port. Default 50 us (our choice: several round "
                          "trips of a 100 Gb/s three-tier fabric, above its path-delay "
                          "differences under load; CONGA and LetFlow used 500 us at "
                          "10 Gb/s).",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&MrcFlowletForwarding::m_gap),
                          MakeTimeChecker(Time(0)));
    return tid;
}

MrcFlowletForwarding::MrcFlowletForwarding()
    : m_gap(MicroSeconds(50))
{
}

MrcFlowletForwarding::~MrcFlowletForwarding() = default;

uint64_t
MrcFlowletForwarding::GetFlowlets() const
{
    return m_flowlets;
}

std::size_t
MrcFlowletForwarding::GetNFlows() const
{
    return m_table.size();
}

uint32_t
MrcFlowletForwarding::ChoosePort(const MrcPacketInfo& /* info */,
                                 uint64_t hash,
                                 uint32_t ecmpPort,
                                 const uint32_t* live,
                                 uint32_t nLive)
{
    const Time now = Simulator::Now();
    auto [it, isNew] = m_table.try_emplace(hash);
    Flowlet& f = it->second;
    bool keep = !isNew && now - f.last <= m_gap;
    if (keep)
    {
        keep = false;
        for (uint32_t i = 0; i < nLive; ++i)
        {
            keep = keep || live[i] == f.port; // still up
        }
    }
    if (!keep)
    {
        f.port = LeastLoaded(live, nLive);
        ++m_flowlets;
        NS_LOG_LOGIC("flow " << hash << ": flowlet " << m_flowlets << " on port " << f.port);
    }
    f.last = now;
    m_moved += f.port != ecmpPort ? 1 : 0;
    return f.port;
}

} // namespace ns3
