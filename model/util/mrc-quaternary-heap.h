/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_QUATERNARY_HEAP_H
#define MRC_QUATERNARY_HEAP_H

#include "ns3/assert.h"
#include "ns3/mrc-prefetch.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>

namespace ns3
{

/**
 * \ingroup mrc
 * A 4-ary min-heap in one array, shared by the event schedulers (MrcHeapScheduler,
 * MrcCanonicalScheduler). Four children a node halve the depth of a binary heap. Pop is
 * bottom-up: the hole left by the top goes down to a leaf along the smallest children without
 * comparing them with the last entry (which mostly belongs near the leaves), and that entry
 * then moves up from there; this takes fewer comparisons than stopping where the entry fits.
 * The smallest of four children is found by three comparisons whose results are used as
 * numbers (an index is 0 or 1 plus the outcome), not as branches: which child is smallest is
 * as good as random, so a branch on it is mispredicted about every other time, and a
 * mispredicted branch costs more than the few instructions this takes. For this to hold Less
 * should compile without branches too (MrcHeapScheduler's does). Without branches the
 * processor has no predicted path along which to read the next level early, so in a heap
 * larger than the second-level cache the levels' reads would wait for each other; there the
 * pop asks for the grandchildren's lines (sixteen entries) one level ahead.
 *
 * Layout: the array starts on a 64-byte cache line and the root is its fourth entry, so the
 * four children of every node start a multiple of four entries after the line, on a multiple
 * of 32 bytes for the schedulers' entries. A group of four children then spans the fewest
 * lines its size allows: two for MrcHeapScheduler's 32-byte entries (an event and its
 * read-ahead hint), four for MrcCanonicalScheduler's 56-byte ones. From a start on 16 bytes (what
 * malloc gives a vector) three groups in eight span one line more. A pop reads one group a level on
 * its way down.
 *
 * \tparam T the entry (trivially copyable; copied by value)
 * \tparam Less a strict total order: Less()(a, b) is true if a leaves the heap before b.
 *         The order of entries that are equal under Less is not defined, so the schedulers'
 *         keys must be unique.
 */
template <typename T, typename Less>
class MrcQuaternaryHeap
{
    static_assert(std::is_trivially_copyable<T>::value,
                  "MrcQuaternaryHeap moves its entries with memcpy");

  public:
    MrcQuaternaryHeap() = default;

    ~MrcQuaternaryHeap()
    {
        Release();
    }

    MrcQuaternaryHeap(const MrcQuaternaryHeap&) = delete;
    MrcQuaternaryHeap& operator=(const MrcQuaternaryHeap&) = delete;

    /// \return true if the heap holds no entry
    bool Empty() const
    {
        return m_size == 0;
    }

    /// \return the number of entries
    std::size_t Size() const
    {
        return m_size;
    }

    /// \return the smallest entry (the heap must not be empty)
    const T& Top() const
    {
        NS_ASSERT_MSG(m_size != 0, "MrcQuaternaryHeap::Top: empty heap");
        return m_base[0];
    }

    /// Add an entry. \param e the entry
    void Push(const T& e)
    {
        if (m_size == m_capacity)
        {
            Grow();
        }
        SiftUp(m_size++, e);
    }

    /// Remove the smallest entry (the heap must not be empty).
    void Pop()
    {
        NS_ASSERT_MSG(m_size != 0, "MrcQuaternaryHeap::Pop: empty heap");
        --m_size;
        if (m_size != 0)
        {
            SiftDown(m_base[m_size]);
        }
    }

  private:
    static constexpr std::size_t ARITY = 4;  //!< children a node
    static constexpr std::size_t LINE = 64;  //!< cache line the array starts on
    static constexpr std::size_t LEAD = 3;   //!< unused entries before the root
    static constexpr std::size_t FIRST = 64; //!< capacity of the first array

    /// Heaps larger than this (entries, 384 KiB) are read ahead in a pop: beyond the
    /// first-level cache and most of a 1 MiB second level. (The bare event loop on this
    /// machine: reading ahead cost about 7 % at 8,192 pending events of 24 bytes and saved
    /// about 10 % at 32,768.)
    static constexpr std::size_t PREFETCH_FROM = 384 * 1024 / sizeof(T);

    /// Double the capacity (the entries are copied over).
    void Grow()
    {
        const std::size_t capacity = std::max(FIRST, 2 * m_capacity);
        T* block =
            static_cast<T*>(::operator new ((capacity + LEAD) * sizeof(T), std::align_val_t{LINE}));
        if (m_size != 0)
        {
            std::memcpy(static_cast<void*>(block + LEAD), m_base, m_size * sizeof(T));
        }
        Release();
        m_block = block;
        m_base = block + LEAD;
        m_capacity = capacity;
    }

    /// Free the array.
    void Release()
    {
        if (m_block != nullptr)
        {
            ::operator delete (m_block, std::align_val_t{LINE});
            m_block = nullptr;
            m_base = nullptr;
        }
    }

    /// Move e up from hole to its place. \param hole an index \param e the entry
    void SiftUp(std::size_t hole, const T& e)
    {
        while (hole > 0)
        {
            const std::size_t parent = (hole - 1) / ARITY;
            if (!m_less(e, m_base[parent]))
            {
                break;
            }
            m_base[hole] = m_base[parent];
            hole = parent;
        }
        m_base[hole] = e;
    }

    /// Fill the root's hole with the entry at m_base[m_size], bottom-up (see the class text).
    /// \param last that entry (read before the hole reaches its place)
    void SiftDown(const T& last)
    {
        const T e = last;
        const std::size_t n = m_size;
        std::size_t hole = 0;
        for (;;)
        {
            const std::size_t first = hole * ARITY + 1;
            if (first >= n)
            {
                break;
            }
            // The grandchildren's groups (16 entries from 16 hole + 5, whole lines) are
            // asked for now, so that the next level's reads overlap this level's work: the
            // branch-free choice below gives the processor no path to read ahead along.
            const std::size_t grand = first * ARITY + 1;
            if (n > PREFETCH_FROM && grand + ARITY * ARITY <= n)
            {
                MrcPrefetch(m_base + grand, ARITY * ARITY * sizeof(T));
            }
            std::size_t best = first;
            if (first + ARITY <= n)
            {
                // All four children exist: a tournament of three comparisons whose results
                // pick indices by arithmetic, not by jumps (see the class text).
                const T* c = m_base + first;
                const std::size_t i01 = static_cast<std::size_t>(m_less(c[1], c[0]));
                const std::size_t i23 = 2 + static_cast<std::size_t>(m_less(c[3], c[2]));
                const std::size_t take23 = -static_cast<std::size_t>(m_less(c[i23], c[i01]));
                best = first + (i01 ^ ((i01 ^ i23) & take23));
            }
            else
            {
                for (std::size_t c = first + 1; c < n; ++c)
                {
                    if (m_less(m_base[c], m_base[best]))
                    {
                        best = c;
                    }
                }
            }
            m_base[hole] = m_base[best];
            hole = best;
        }
        SiftUp(hole, e);
    }

    T* m_block{nullptr};       //!< the array (LINE-aligned), if allocated
    T* m_base{nullptr};        //!< the root: m_block + LEAD
    std::size_t m_size{0};     //!< entries in the heap
    std::size_t m_capacity{0}; //!< entries the array holds after the lead
    Less m_less;               //!< the order
};

} // namespace ns3

#endif /* MRC_QUATERNARY_HEAP_H */
