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

namespace
{
constexpr std::size_t ARITY = 4; //!< children per heap node
} // namespace

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
MrcHeapScheduler::SiftUp(std::size_t hole, const Event& e)
{
    while (hole > 0)
    {
        const std::size_t parent = (hole - 1) / ARITY;
        if (!Before(e.key, m_heap[parent].key))
        {
            break;
        }
        m_heap[hole] = m_heap[parent];
        hole = parent;
    }
    m_heap[hole] = e;
}

void
MrcHeapScheduler::SiftDown(std::size_t hole, const Event& e)
{
    // Bottom-up: move the hole down to a leaf along the smallest children, without
    // comparing them with e (the last entry, which mostly belongs near the leaves), then
    // move e up from there: fewer comparisons than stopping where e fits.
    const std::size_t n = m_heap.size();
    for (;;)
    {
        const std::size_t first = hole * ARITY + 1;
        if (first >= n)
        {
            break;
        }
        std::size_t best = first;
        if (first + ARITY <= n)
        {
            // all four children exist: no bound check per child
            const std::size_t b01 =
                Before(m_heap[first + 1].key, m_heap[first].key) ? first + 1 : first;
            const std::size_t b23 =
                Before(m_heap[first + 3].key, m_heap[first + 2].key) ? first + 3 : first + 2;
            best = Before(m_heap[b23].key, m_heap[b01].key) ? b23 : b01;
        }
        else
        {
            for (std::size_t c = first + 1; c < n; ++c)
            {
                if (Before(m_heap[c].key, m_heap[best].key))
                {
                    best = c;
                }
            }
        }
        m_heap[hole] = m_heap[best];
        hole = best;
    }
    SiftUp(hole, e);
}

void
MrcHeapScheduler::Insert(const Event& ev)
{
    NS_LOG_FUNCTION(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    m_heap.emplace_back();
    SiftUp(m_heap.size() - 1, ev);
}

bool
MrcHeapScheduler::IsEmpty() const
{
    return m_heap.empty();
}

Scheduler::Event
MrcHeapScheduler::PeekNext() const
{
    NS_ASSERT_MSG(!m_heap.empty(), "MrcHeapScheduler::PeekNext: no event");
    return m_heap.front();
}

void
MrcHeapScheduler::PopTop()
{
    const Event last = m_heap.back();
    m_heap.pop_back();
    if (!m_heap.empty())
    {
        SiftDown(0, last);
    }
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
    while (!m_removed.empty() && !m_heap.empty() &&
           m_heap.front().key.m_uid == m_removed.front().m_uid &&
           m_heap.front().key.m_ts == m_removed.front().m_ts)
    {
        NS_LOG_LOGIC("dropping removed event " << m_removed.front().m_uid);
        PopTop();
        PopRemoved();
    }
}

Scheduler::Event
MrcHeapScheduler::RemoveNext()
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT_MSG(!m_heap.empty(), "MrcHeapScheduler::RemoveNext: no event");
    const Event top = m_heap.front();
    PopTop();
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
    NS_ASSERT_MSG(!m_heap.empty() && !Before(ev.key, m_heap.front().key),
                  "MrcHeapScheduler::Remove: event " << ev.key.m_uid << " is not queued");
    PushRemoved(ev.key);
    DropRemoved();
}

std::size_t
MrcHeapScheduler::GetHeapSize() const
{
    return m_heap.size();
}

} // namespace ns3
