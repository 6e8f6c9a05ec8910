/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-heap-scheduler.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>
#include <functional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcHeapScheduler");

NS_OBJECT_ENSURE_REGISTERED(MrcHeapScheduler);

TypeId
MrcHeapScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcHeapScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcHeapScheduler>();
    return tid;
}

MrcHeapScheduler::MrcHeapScheduler()
{
    NS_LOG_FUNCTION(this);
}

MrcHeapScheduler::~MrcHeapScheduler()
{
    NS_LOG_FUNCTION(this);
}

bool
MrcHeapScheduler::Before(const EventKey& a, const EventKey& b)
{
    return a.m_ts < b.m_ts || (a.m_ts == b.m_ts && a.m_uid < b.m_uid);
}

void
MrcHeapScheduler::Insert(const Event& ev)
{
    NS_LOG_FUNCTION(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    m_heap.Push(ev);
}

bool
MrcHeapScheduler::IsEmpty() const
{
    return m_heap.Empty();
}

Scheduler::Event
MrcHeapScheduler::PeekNext() const
{
    NS_ASSERT_MSG(!m_heap.Empty(), "MrcHeapScheduler::PeekNext: no event");
    return m_heap.Top();
}

void
MrcHeapScheduler::PushRemoved(const EventKey& k)
{
    m_removed.push_back(k);
    std::push_heap(m_removed.begin(), m_removed.end(), [](const EventKey& a, const EventKey& b) {
        return Before(b, a);
    });
}

void
MrcHeapScheduler::PopRemoved()
{
    std::pop_heap(m_removed.begin(), m_removed.end(), [](const EventKey& a, const EventKey& b) {
        return Before(b, a);
    });
    m_removed.pop_back();
}

void
MrcHeapScheduler::DropRemoved()
{
    // The smallest removed key is the first removed event to reach the top (same order).
    // Both fields are compared: a uid alone is reused once ns-3's 32-bit counter wraps.
    while (!m_removed.empty() && !m_heap.Empty() &&
           m_heap.Top().key.m_uid == m_removed.front().m_uid &&
           m_heap.Top().key.m_ts == m_removed.front().m_ts)
    {
        NS_LOG_LOGIC("dropping removed event " << m_removed.front().m_uid);
        m_heap.Pop();
        PopRemoved();
    }
}

Scheduler::Event
MrcHeapScheduler::RemoveNext()
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT_MSG(!m_heap.Empty(), "MrcHeapScheduler::RemoveNext: no event");
    const Event top = m_heap.Top();
    m_heap.Pop();
    if (!m_removed.empty())
    {
        DropRemoved();
    }
    return top;
}

void
MrcHeapScheduler::Remove(const Event& ev)
{
    NS_LOG_FUNCTION(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    NS_ASSERT_MSG(!m_heap.Empty() && !Before(ev.key, m_heap.Top().key),
                  "MrcHeapScheduler::Remove: event " << ev.key.m_uid << " is not queued");
    PushRemoved(ev.key);
    DropRemoved();
}

std::size_t
MrcHeapScheduler::GetHeapSize() const
{
    return m_heap.Size();
}

} // namespace ns3
