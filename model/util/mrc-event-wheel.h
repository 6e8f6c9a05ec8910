/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_EVENT_WHEEL_H
#define MRC_EVENT_WHEEL_H

#include "mrc-quaternary-heap.h"

#include "ns3/assert.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * A priority queue for events that are mostly scheduled a little ahead of the current time
 * (a calendar queue): the near future is a wheel of buckets, each covering 2^widthLog2 time
 * steps, and whatever lies beyond the wheel's span waits in a 4-ary heap (MrcQuaternaryHeap)
 * until the wheel reaches it. Entries go into their bucket unsorted; a bucket is sorted once,
 * when it becomes the current one, and then handed out from its front. A pop therefore costs
 * a comparison sort's share per entry of a bucket and a step along a bitmap of non-empty
 * buckets, instead of a walk from the root to a leaf of a heap of every pending event: the
 * memory it touches is the current bucket, which the pops read in sequence.
 *
 * The order is exactly Less's, the same as MrcQuaternaryHeap's: the current bucket holds the
 * smallest entries (every entry of a later bucket and of the heap has a larger time stamp),
 * sorted by Less. It relies on the event queue's rule that nothing is inserted before the
 * time stamp of the last entry handed out (the simulator's current time): the wheel's start
 * moves only to the bucket of an entry taken out (PopTop), so an insert lands behind it only
 * when the entry taken out was later than the clock (an event removed before it ran, dropped
 * when it reached the top); then the wheel rewinds (Rewind), at the cost of a pass over its
 * non-empty buckets.
 *
 * \tparam T the entry (trivially copyable)
 * \tparam Less a strict total order, as for MrcQuaternaryHeap
 * \tparam Stamp a function object giving an entry's time stamp (uint64_t, the first term of
 *         Less's order)
 */
template <typename T, typename Less, typename Stamp>
class MrcEventWheel
{
  public:
    /**
     * \param widthLog2 a bucket covers 2^widthLog2 time steps
     * \param bucketsLog2 the wheel has 2^bucketsLog2 buckets
     */
    explicit MrcEventWheel(unsigned widthLog2 = 4, unsigned bucketsLog2 = 10)
    {
        Configure(widthLog2, bucketsLog2);
    }

    /**
     * Set the wheel's shape (only while it is empty).
     * \param widthLog2 a bucket covers 2^widthLog2 time steps (at most 40)
     * \param bucketsLog2 the wheel has 2^bucketsLog2 buckets (1 to 20)
     */
    void Configure(unsigned widthLog2, unsigned bucketsLog2)
    {
        NS_ASSERT_MSG(m_size == 0, "MrcEventWheel::Configure: not empty");
        NS_ASSERT_MSG(widthLog2 <= 40 && bucketsLog2 >= 1 && bucketsLog2 <= 20,
                      "MrcEventWheel::Configure: width 2^" << widthLog2 << ", 2^" << bucketsLog2
                                                           << " buckets");
        m_shift = widthLog2;
        m_mask = (std::size_t{1} << bucketsLog2) - 1;
        m_buckets.assign(std::size_t{1} << bucketsLog2, std::vector<T>());
        m_bits.assign(((std::size_t{1} << bucketsLog2) + 63) / 64, 0);
        m_cur = 0;
        m_head = 0;
        m_ready = false;
    }

    bool Empty() const
    {
        return m_size == 0;
    }

    std::size_t Size() const
    {
        return m_size;
    }

    /**
     * \return the smallest entry (the queue must not be empty), without changing the queue:
     *         the current bucket's last if it is sorted, else found by a scan of the next
     *         bucket with entries (or the heap's top if the wheel is empty)
     */
    const T& Peek() const
    {
        NS_ASSERT_MSG(m_size != 0, "MrcEventWheel::Peek: empty");
        if (m_ready)
        {
            return m_buckets[m_cur & m_mask][m_head];
        }
        const std::size_t slot = m_cur & m_mask;
        const std::size_t next = m_buckets[slot].empty() ? NextSet(slot) : slot;
        if (next == NONE)
        {
            return m_far.Top();
        }
        const std::vector<T>& b = m_buckets[next];
        const T* best = &b[0];
        for (std::size_t i = 1; i < b.size(); ++i)
        {
            if (m_less(b[i], *best))
            {
                best = &b[i];
            }
        }
        return *best;
    }

    /// \return the smallest entry if the current bucket is sorted (no search), else null
    const T* PeekReady() const
    {
        return m_ready ? &m_buckets[m_cur & m_mask][m_head] : nullptr;
    }

    /**
     * Take out the smallest entry (the queue must not be empty). The wheel's start moves to
     * its bucket: the caller's clock must then not be before its time stamp, or the next
     * Push before it pays for a rewind.
     * \return the entry
     */
    T PopTop()
    {
        NS_ASSERT_MSG(m_size != 0, "MrcEventWheel::PopTop: empty");
        if (!m_ready)
        {
            Advance();
        }
        std::vector<T>& b = m_buckets[m_cur & m_mask];
        const T top = b[m_head++];
        --m_size;
        if (m_head == b.size())
        {
            b.clear();
            m_head = 0;
            m_ready = false;
            ClearBit(m_cur & m_mask);
        }
        return top;
    }

    /// \param e an entry (normally not before the last one taken out; else the wheel rewinds)
    void Push(const T& e)
    {
        const uint64_t bucket = m_stamp(e) >> m_shift;
        if (bucket < m_cur)
        {
            Rewind(bucket);
        }
        ++m_size;
        if (bucket - m_cur > m_mask)
        {
            m_far.Push(e);
            return;
        }
        const std::size_t slot = bucket & m_mask;
        std::vector<T>& b = m_buckets[slot];
        if (bucket == m_cur && m_ready)
        {
            // The current bucket is sorted from m_head on: keep it so. An event scheduled
            // for now has the largest uid of its time stamp and goes near the end.
            b.insert(std::upper_bound(b.begin() + m_head, b.end(), e, m_less), e);
            return;
        }
        b.push_back(e);
        SetBit(slot);
    }

    /// \return how often a Push came before the wheel's start (a rewind)
    uint64_t GetRewinds() const
    {
        return m_rewinds;
    }

  private:
    /// Make the current bucket the first non-empty one and sort it (m_ready after).
    void Advance()
    {
        // The current bucket may hold unsorted entries (pushed while it was not ready).
        std::size_t slot = m_cur & m_mask;
        if (m_buckets[slot].empty())
        {
            const std::size_t next = NextSet(slot);
            if (next != NONE)
            {
                m_cur += (next - slot) & m_mask;
            }
            else
            {
                // the wheel is empty: start it at the heap's smallest entry
                NS_ASSERT(!m_far.Empty());
                m_cur = m_stamp(m_far.Top()) >> m_shift;
            }
            // what the heap holds within the wheel's new span moves into its buckets (never
            // into the current one unless the wheel was empty: the heap's entries lie beyond
            // the old span)
            while (!m_far.Empty() && (m_stamp(m_far.Top()) >> m_shift) - m_cur <= m_mask)
            {
                const T& e = m_far.Top();
                const std::size_t s = (m_stamp(e) >> m_shift) & m_mask;
                m_buckets[s].push_back(e);
                SetBit(s);
                m_far.Pop();
            }
            slot = m_cur & m_mask;
        }
        std::vector<T>& b = m_buckets[slot];
        NS_ASSERT(!b.empty());
        std::sort(b.begin(), b.end(), m_less);
        m_head = 0;
        m_ready = true;
    }

    static constexpr std::size_t NONE = ~std::size_t{0}; //!< no bucket

    /**
     * Move the wheel's start back to an earlier bucket: a pop took out an entry later than
     * the caller's clock (a removed event, dropped at the top), and an entry before it
     * came. The buckets the new span no longer covers go back to the heap.
     * \param bucket the new start
     */
    void Rewind(uint64_t bucket)
    {
        ++m_rewinds;
        if (m_ready)
        {
            // the current bucket's entries taken out are no longer needed before it
            std::vector<T>& c = m_buckets[m_cur & m_mask];
            c.erase(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(m_head));
            m_head = 0;
            m_ready = false;
        }
        const uint64_t end = bucket + m_mask + 1; // the new span is [bucket, end)
        for (std::size_t w = 0; w < m_bits.size(); ++w)
        {
            for (uint64_t bits = m_bits[w]; bits != 0; bits &= bits - 1)
            {
                const std::size_t slot = (w << 6) + static_cast<std::size_t>(__builtin_ctzll(bits));
                std::vector<T>& b = m_buckets[slot];
                // a bucket holds entries of one bucket number (the old span's)
                if ((m_stamp(b.front()) >> m_shift) >= end)
                {
                    for (const T& e : b)
                    {
                        m_far.Push(e);
                    }
                    b.clear();
                    ClearBit(slot);
                }
            }
        }
        m_cur = bucket;
    }

    /// \param from a slot \return the first slot after it (cyclically) with entries, or NONE
    std::size_t NextSet(std::size_t from) const
    {
        const std::size_t words = m_bits.size();
        const std::size_t n = m_mask + 1;
        std::size_t i = (from + 1) & m_mask;
        // the rest of the word holding i, then whole words around the wheel
        for (std::size_t step = 0; step <= words; ++step)
        {
            const std::size_t w = i >> 6;
            const uint64_t bits = m_bits[w] & (~uint64_t{0} << (i & 63));
            if (bits != 0)
            {
                const std::size_t found =
                    (w << 6) + static_cast<std::size_t>(__builtin_ctzll(bits));
                return found < n ? found : NONE;
            }
            i = ((w + 1) << 6) & m_mask;
        }
        return NONE;
    }

    void SetBit(std::size_t slot)
    {
        m_bits[slot >> 6] |= uint64_t{1} << (slot & 63);
    }

    void ClearBit(std::size_t slot)
    {
        m_bits[slot >> 6] &= ~(uint64_t{1} << (slot & 63));
    }

    unsigned m_shift{0};                   //!< log2 of a bucket's width in time steps
    std::size_t m_mask{0};                 //!< buckets - 1
    std::vector<std::vector<T>> m_buckets; //!< the wheel
    std::vector<uint64_t> m_bits;          //!< which buckets hold entries
    MrcQuaternaryHeap<T, Less> m_far;      //!< entries beyond the wheel's span
    uint64_t m_cur{0};                     //!< the current bucket's number (time stamp >> shift)
    uint64_t m_rewinds{0};                 //!< Pushes before the start
    std::size_t m_head{0};                 //!< the current bucket's first entry not taken out
    bool m_ready{false};                   //!< the current bucket is sorted (from m_head on)
    std::size_t m_size{0};                 //!< entries in all
    Less m_less;                           //!< the order
    Stamp m_stamp;                         //!< an entry's time stamp
};

} // namespace ns3

#endif /* MRC_EVENT_WHEEL_H */
