/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_QUATERNARY_HEAP_H
#define MRC_QUATERNARY_HEAP_H

#include "ns3/assert.h"

#include <cstddef>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * A 4-ary min-heap in one vector, shared by the event schedulers (MrcHeapScheduler,
 * MrcCanonicalScheduler). Four children a node halve the depth of a binary heap and keep
 * the children of a node in one cache line for small entries. Pop is bottom-up: the hole
 * left by the top goes down to a leaf along the smallest children without comparing them
 * with the last entry (which mostly belongs near the leaves), and that entry then moves up
 * from there; this takes fewer comparisons than stopping where the entry fits.
 *
 * \tparam T the entry (copied by value)
 * \tparam Less a strict total order: Less()(a, b) is true if a leaves the heap before b.
 *         The order of entries that are equal under Less is not defined, so the schedulers'
 *         keys must be unique.
 */
template <typename T, typename Less>
class MrcQuaternaryHeap
{
  public:
    /// \return true if the heap holds no entry
    bool Empty() const
    {
        return m_heap.empty();
    }

    /// \return the number of entries
    std::size_t Size() const
    {
        return m_heap.size();
    }

    /// \return the smallest entry (the heap must not be empty)
    const T& Top() const
    {
        NS_ASSERT_MSG(!m_heap.empty(), "MrcQuaternaryHeap::Top: empty heap");
        return m_heap.front();
    }

    /// Add an entry. \param e the entry
    void Push(const T& e)
    {
        m_heap.emplace_back();
        SiftUp(m_heap.size() - 1, e);
    }

    /// Remove the smallest entry (the heap must not be empty).
    void Pop()
    {
        NS_ASSERT_MSG(!m_heap.empty(), "MrcQuaternaryHeap::Pop: empty heap");
        const T last = m_heap.back();
        m_heap.pop_back();
        if (!m_heap.empty())
        {
            SiftDown(0, last);
        }
    }

  private:
    static constexpr std::size_t ARITY = 4; //!< children a node

    /// Move e up from hole to its place. \param hole an index \param e the entry
    void SiftUp(std::size_t hole, const T& e)
    {
        while (hole > 0)
        {
            const std::size_t parent = (hole - 1) / ARITY;
            if (!m_less(e, m_heap[parent]))
            {
                break;
            }
            m_heap[hole] = m_heap[parent];
            hole = parent;
        }
        m_heap[hole] = e;
    }

    /// Fill hole with e, bottom-up (see the class text). \param hole an index \param e the entry
    void SiftDown(std::size_t hole, const T& e)
    {
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
                    m_less(m_heap[first + 1], m_heap[first]) ? first + 1 : first;
                const std::size_t b23 =
                    m_less(m_heap[first + 3], m_heap[first + 2]) ? first + 3 : first + 2;
                best = m_less(m_heap[b23], m_heap[b01]) ? b23 : b01;
            }
            else
            {
                for (std::size_t c = first + 1; c < n; ++c)
                {
                    if (m_less(m_heap[c], m_heap[best]))
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

    std::vector<T> m_heap; //!< the entries, heap-ordered
    Less m_less;           //!< the order
};

} // namespace ns3

#endif /* MRC_QUATERNARY_HEAP_H */
