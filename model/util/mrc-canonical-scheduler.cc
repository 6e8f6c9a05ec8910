/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-canonical-scheduler.h"

#include "ns3/abort.h"
#include "ns3/event-impl.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcCanonicalScheduler");

NS_OBJECT_ENSURE_REGISTERED(MrcCanonicalScheduler);

namespace
{
MrcCanonicalScheduler* g_active = nullptr; //!< the scheduler in use, if one of these
bool g_override = false;                   //!< SetNextInsertion is pending
int64_t g_insertTs = 0;                    //!< its time
uint32_t g_node = 0;                       //!< its node
uint64_t g_seq = 0;                        //!< its count
} // namespace

TypeId
MrcCanonicalScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcCanonicalScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcCanonicalScheduler>();
    return tid;
}

MrcCanonicalScheduler::MrcCanonicalScheduler()
{
    NS_LOG_FUNCTION(this);
    g_active = this;
}

MrcCanonicalScheduler::~MrcCanonicalScheduler()
{
    NS_LOG_FUNCTION(this);
    if (g_active == this)
    {
        g_active = nullptr;
    }
}

bool
MrcCanonicalScheduler::IsActive()
{
    return g_active != nullptr;
}

uint64_t
MrcCanonicalScheduler::NextSequence(uint32_t node)
{
    if (node == Simulator::NO_CONTEXT)
    {
        return ++m_noContextSeq;
    }
    if (node >= m_seq.size())
    {
        m_seq.resize(std::size_t(node) + 1, 0);
    }
    return ++m_seq[node];
}

uint64_t
MrcCanonicalScheduler::TakeSequence(uint32_t node)
{
    NS_ABORT_MSG_IF(!g_active, "MrcCanonicalScheduler::TakeSequence: not the scheduler in use");
    return g_active->NextSequence(node);
}

void
MrcCanonicalScheduler::SetNextInsertion(int64_t insertTs, uint32_t node, uint64_t seq)
{
    g_override = true;
    g_insertTs = insertTs;
    g_node = node;
    g_seq = seq;
}

bool
MrcCanonicalScheduler::After(const Entry& a, const Entry& b)
{
    return std::tie(a.ts, a.insertTs, a.node, a.seq) > std::tie(b.ts, b.insertTs, b.node, b.seq);
}

void
MrcCanonicalScheduler::Insert(const Event& ev)
{
    Entry e;
    e.ts = ev.key.m_ts;
    e.ev = ev;
    if (g_override)
    {
        g_override = false;
        e.insertTs = g_insertTs;
        e.node = g_node;
        e.seq = g_seq;
    }
    else
    {
        e.insertTs = Simulator::Now().GetTimeStep();
        e.node = Simulator::GetContext();
        e.seq = NextSequence(e.node);
    }
    m_heap.Push(e);
}

bool
MrcCanonicalScheduler::IsEmpty() const
{
    return m_heap.Empty();
}

Scheduler::Event
MrcCanonicalScheduler::PeekNext() const
{
    NS_ASSERT(!m_heap.Empty());
    return m_heap.Top().ev;
}

void
MrcCanonicalScheduler::DropRemoved()
{
    while (!m_removed.empty() && !m_heap.Empty())
    {
        const Event& top = m_heap.Top().ev;
        auto it = m_removed.find(RemovedKey{top.key.m_ts, top.key.m_uid});
        if (it == m_removed.end())
        {
            return;
        }
        NS_LOG_LOGIC("dropping removed event " << top.key.m_uid);
        m_removed.erase(it);
        m_heap.Pop();
    }
}

Scheduler::Event
MrcCanonicalScheduler::RemoveNext()
{
    NS_ASSERT(!m_heap.Empty());
    const Event ev = m_heap.Top().ev;
    m_heap.Pop();
    if (!m_removed.empty())
    {
        DropRemoved();
    }
    return ev;
}

void
MrcCanonicalScheduler::Remove(const Event& ev)
{
    NS_ASSERT_MSG(!m_heap.Empty() && ev.key.m_ts >= m_heap.Top().ev.key.m_ts,
                  "MrcCanonicalScheduler::Remove: event " << ev.key.m_uid << " is not queued");
    const bool added = m_removed.insert(RemovedKey{ev.key.m_ts, ev.key.m_uid}).second;
    NS_ASSERT_MSG(added, "MrcCanonicalScheduler::Remove: event " << ev.key.m_uid << " twice");
    (void)added;
    DropRemoved();
}

std::size_t
MrcCanonicalScheduler::GetHeapSize() const
{
    return m_heap.Size();
}

} // namespace ns3
