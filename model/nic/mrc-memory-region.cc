/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-memory-region.h"

#include "ns3/log.h"

#include <algorithm>
#include <iterator>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcMemoryRegion");

NS_OBJECT_ENSURE_REGISTERED(MrcMemoryRegion);

TypeId
MrcMemoryRegion::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcMemoryRegion")
                            .SetParent<Object>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcMemoryRegion>();
    return tid;
}

MrcMemoryRegion::MrcMemoryRegion()
    : m_rkey(0),
      m_base(0),
      m_length(0),
      m_placed(0),
      m_duplicate(0),
      m_placements(0)
{
}

void
MrcMemoryRegion::Configure(uint32_t rkey, uint64_t base, uint64_t length)
{
    m_rkey = rkey;
    m_base = base;
    m_length = length;
    Clear();
}

uint32_t
MrcMemoryRegion::GetRkey() const
{
    return m_rkey;
}

uint64_t
MrcMemoryRegion::GetBase() const
{
    return m_base;
}

uint64_t
MrcMemoryRegion::GetLength() const
{
    return m_length;
}

bool
MrcMemoryRegion::Contains(uint64_t address, uint64_t length) const
{
    return address >= m_base && length <= m_length && address - m_base <= m_length - length;
}

bool
MrcMemoryRegion::Place(uint64_t address, uint64_t length)
{
    if (!Contains(address, length))
    {
        NS_LOG_LOGIC("rkey " << m_rkey << ": [" << address << ", +" << length
                             << ") outside the region");
        return false;
    }
    if (length == 0)
    {
        return true;
    }
    ++m_placements;
    uint64_t start = address;
    uint64_t end = address + length;
    // Spans are disjoint, do not touch each other, and ascend: the first one that could
    // touch [start, end] is the one before start, if it reaches it.
    auto byStart = [](uint64_t a, const Span& s) { return a < s.first; };
    auto first = std::upper_bound(m_spans.begin(), m_spans.end(), start, byStart);
    if (first != m_spans.begin() && std::prev(first)->second >= start)
    {
        --first;
    }
    uint64_t overlap = 0;
    auto last = first;
    for (; last != m_spans.end() && last->first <= end; ++last)
    {
        const uint64_t lo = std::max(start, last->first);
        const uint64_t hi = std::min(end, last->second);
        if (hi > lo)
        {
            overlap += hi - lo;
        }
        start = std::min(start, last->first);
        end = std::max(end, last->second);
    }
    // [first, last) merge into one span (in place: in-order writes only extend a span)
    if (first == last)
    {
        m_spans.insert(first, Span{start, end});
    }
    else
    {
        *first = Span{start, end};
        m_spans.erase(std::next(first), last);
    }
    m_duplicate += overlap;
    m_placed += length - overlap;
    return true;
}

uint64_t
MrcMemoryRegion::GetBytesPlaced() const
{
    return m_placed;
}

uint64_t
MrcMemoryRegion::GetDuplicateBytes() const
{
    return m_duplicate;
}

uint64_t
MrcMemoryRegion::GetPlacements() const
{
    return m_placements;
}

std::size_t
MrcMemoryRegion::GetIntervalCount() const
{
    return m_spans.size();
}

bool
MrcMemoryRegion::IsCovered(uint64_t address, uint64_t length) const
{
    if (length == 0)
    {
        return true;
    }
    auto it =
        std::upper_bound(m_spans.begin(), m_spans.end(), address, [](uint64_t a, const Span& s) {
            return a < s.first;
        });
    if (it == m_spans.begin())
    {
        return false;
    }
    --it;
    return it->first <= address && it->second >= address + length;
}

bool
MrcMemoryRegion::IsExactlyOnce(uint64_t address, uint64_t length) const
{
    if (m_duplicate != 0)
    {
        return false;
    }
    if (length == 0)
    {
        return m_spans.empty();
    }
    return m_spans.size() == 1 && m_spans.begin()->first == address &&
           m_spans.begin()->second == address + length;
}

void
MrcMemoryRegion::Clear()
{
    m_spans.clear();
    m_placed = 0;
    m_duplicate = 0;
    m_placements = 0;
}

} // namespace ns3
