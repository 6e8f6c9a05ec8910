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
    uint32_t slot;
    if (m_free.empty())
    {
        slot = static_cast<uint32_t>(m_payload.size());
        m_payload.push_back(Payload{ev.impl, ev.key.m_context});
    }
    else
    {
        slot = m_free.back();
        m_free.pop_back();
        m_payload[slot] = Payload{ev.impl, ev.key.m_context};
    }
    if ((m_size + 3) / 4 >= m_lines.size())
    {
        // Lines are contiguous 64-byte arrays of four keys (no padding), so the storage is
        // one array of keys that starts on a line boundary.
        static_assert(sizeof(Line) == 4 * sizeof(Key), "a line is four keys");
        m_lines.emplace_back();
        m_base = &m_lines.front().k[0] + 3;
    }
    ++m_size;
    SiftUp(m_size - 1, Key{ev.key.m_ts, ev.key.m_uid, slot});
}

void
MrcHeapScheduler::SiftUp(std::size_t hole, const Key& e)
{
    while (hole > 0)
    {
        const std::size_t parent = (hole - 1) / 4;
        if (!KeyBefore(e, At(parent)))
        {
            break;
        }
        At(hole) = At(parent);
        hole = parent;
    }
    At(hole) = e;
}

void
MrcHeapScheduler::PopTop()
{
    NS_ASSERT_MSG(m_size > 0, "MrcHeapScheduler: empty heap");
    --m_size;
    if (m_size == 0)
    {
        return;
    }
    const Key last = At(m_size);
    const std::size_t n = m_size;
    // the hole goes down to a leaf along the smallest children, then last moves up
    std::size_t hole = 0;
    for (;;)
    {
        const std::size_t first = hole * 4 + 1;
        if (first >= n)
        {
            break;
        }
        std::size_t best = first;
        if (first + 4 <= n)
        {
            // the four children share one line
            const Key* c = &At(first);
            const std::size_t b01 = KeyBefore(c[1], c[0]) ? 1 : 0;
            const std::size_t b23 = KeyBefore(c[3], c[2]) ? 3 : 2;
            best = first + (KeyBefore(c[b23], c[b01]) ? b23 : b01);
        }
        else
        {
            for (std::size_t i = first + 1; i < n; ++i)
            {
                if (KeyBefore(At(i), At(best)))
                {
                    best = i;
                }
            }
        }
        At(hole) = At(best);
        hole = best;
    }
    SiftUp(hole, last);
}

Scheduler::Event
MrcHeapScheduler::Release(const Key& k)
{
    const Payload& p = m_payload[k.slot];
    Event ev;
    ev.impl = p.impl;
    ev.key.m_ts = k.ts;
    ev.key.m_uid = k.uid;
    ev.key.m_context = p.context;
    m_free.push_back(k.slot);
    return ev;
}

bool
MrcHeapScheduler::IsEmpty() const
{
    return m_size == 0;
}

Scheduler::Event
MrcHeapScheduler::PeekNext() const
{
    NS_ASSERT_MSG(m_size > 0, "MrcHeapScheduler::PeekNext: no event");
    const Key& k = At(0);
    Event ev;
    ev.impl = m_payload[k.slot].impl;
    ev.key.m_ts = k.ts;
    ev.key.m_uid = k.uid;
    ev.key.m_context = m_payload[k.slot].context;
    return ev;
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
    while (!m_removed.empty() && m_size > 0 && At(0).uid == m_removed.front().m_uid &&
           At(0).ts == m_removed.front().m_ts)
    {
        NS_LOG_LOGIC("dropping removed event " << m_removed.front().m_uid);
        m_free.push_back(At(0).slot);
        PopTop();
        PopRemoved();
    }
}

Scheduler::Event
MrcHeapScheduler::RemoveNext()
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT_MSG(m_size > 0, "MrcHeapScheduler::RemoveNext: no event");
    const Event top = Release(At(0));
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
    NS_ASSERT_MSG(m_size > 0 && !(ev.key.m_ts < At(0).ts ||
                                  (ev.key.m_ts == At(0).ts && ev.key.m_uid < At(0).uid)),
                  "MrcHeapScheduler::Remove: event " << ev.key.m_uid << " is not queued");
    PushRemoved(ev.key);
    DropRemoved();
}

std::size_t
MrcHeapScheduler::GetHeapSize() const
{
    return m_size;
}

} // namespace ns3
