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
MrcHeapScheduler* g_active = nullptr; //!< the scheduler in use, if one of these
uint64_t g_generation = 0;            //!< schedulers made so far
uint32_t g_nextStream = 0;            //!< SetNextStream's mark for the next Insert
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
    g_active = this;
    ++g_generation;
    m_streams.emplace_back(); // handle 0: no stream
}

MrcHeapScheduler::~MrcHeapScheduler()
{
    NS_LOG_FUNCTION(this);
    if (g_active == this)
    {
        g_active = nullptr;
        ++g_generation;
    }
}

bool
MrcHeapScheduler::IsActive()
{
    return g_active != nullptr;
}

uint32_t
MrcHeapScheduler::NewStream()
{
    if (g_active == nullptr)
    {
        return 0;
    }
    g_active->m_streams.emplace_back();
    return static_cast<uint32_t>(g_active->m_streams.size() - 1);
}

uint64_t
MrcHeapScheduler::GetGeneration()
{
    return g_generation;
}

void
MrcHeapScheduler::SetNextStream(uint32_t stream)
{
    g_nextStream = stream;
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
    const uint32_t stream = g_nextStream;
    if (stream != 0)
    {
        g_nextStream = 0;
        if (stream < m_streams.size())
        {
            InsertInStream(ev, stream);
            return;
        }
    }
    m_heap.Push(Entry{ev, 0});
}

void
MrcHeapScheduler::InsertInStream(const Event& ev, uint32_t stream)
{
    Stream& s = m_streams[stream];
    if (!s.inHeap)
    {
        // the stream's only event: it goes into the heap
        s.inHeap = true;
        s.last = ev.key;
        m_heap.Push(Entry{ev, stream});
        return;
    }
    if (Before(ev.key, s.last))
    {
        // out of the stream's order: queued on its own
        m_heap.Push(Entry{ev, 0});
        return;
    }
    if (s.size == s.slots.size())
    {
        // grow the ring (to twice its length), oldest event first
        std::vector<Event> grown(s.slots.empty() ? 8 : 2 * s.slots.size());
        const std::size_t mask = s.slots.size() - 1;
        for (uint32_t i = 0; i < s.size; ++i)
        {
            grown[i] = s.slots[(s.head + i) & mask];
        }
        s.slots.swap(grown);
        s.head = 0;
    }
    s.slots[(s.head + s.size) & (s.slots.size() - 1)] = ev;
    ++s.size;
    ++m_waiting;
    s.last = ev.key;
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
    return m_heap.Top().ev;
}

void
MrcHeapScheduler::PopTop()
{
    const uint32_t stream = m_heap.Top().stream;
    if (stream == 0)
    {
        m_heap.Pop();
        return;
    }
    Stream& s = m_streams[stream];
    if (s.size == 0)
    {
        s.inHeap = false;
        m_heap.Pop();
        return;
    }
    // the stream's next event takes the place of the one leaving
    const Event next = s.slots[s.head];
    s.head = (s.head + 1) & static_cast<uint32_t>(s.slots.size() - 1);
    --s.size;
    --m_waiting;
    m_heap.ReplaceTop(Entry{next, stream});
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
           m_heap.Top().ev.key.m_uid == m_removed.front().m_uid &&
           m_heap.Top().ev.key.m_ts == m_removed.front().m_ts)
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
    NS_ASSERT_MSG(!m_heap.Empty(), "MrcHeapScheduler::RemoveNext: no event");
    const Event top = m_heap.Top().ev;
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
    NS_ASSERT_MSG(!m_heap.Empty() && !Before(ev.key, m_heap.Top().ev.key),
                  "MrcHeapScheduler::Remove: event " << ev.key.m_uid << " is not queued");
    PushRemoved(ev.key);
    DropRemoved();
}

std::size_t
MrcHeapScheduler::GetHeapSize() const
{
    return m_heap.Size() + m_waiting;
}

std::size_t
MrcHeapScheduler::GetHeapEntries() const
{
    return m_heap.Size();
}

} // namespace ns3
