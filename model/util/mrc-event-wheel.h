/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_EVENT_WHEEL_H
#define MRC_EVENT_WHEEL_H

#include "mrc-prefetch.h"
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
 * \brief A priority queue for events that are mostly scheduled a little ahead of the
 * current time (a calendar queue): a wheel of buckets for the near future, a 4-ary heap
 * (MrcQuaternaryHeap) beyond it.
 *
 * Each bucket covers 2^widthLog2 time steps; the wheel has 2^bucketsLog2 of them. An entry
 * goes unsorted into its bucket; when the clock reaches a bucket, its entries are copied
 * into one array (the current bucket), sorted (in about linear time when they came mostly
 * in order: SortCurrent), and handed out from its front. An entry pushed into the current
 * bucket then goes to the array's end when it is not smaller than the array's last entry,
 * else into a small 4-ary heap of such late entries (m_late), and a pop takes the smaller of
 * the array's front and the heap's top. (Until session 48 it was inserted into the array in
 * order, which moved every later entry: at 16,384 hosts, where a bucket holds thousands of
 * entries, 7 % of a hop's instructions.) A bitmap of non-empty buckets finds the next one. A
 * pop thus costs a share of a small sort and a step along the bitmap, where a heap of every
 * pending event walks from its root to a leaf.
 *
 * Memory. The buckets' entries live in one pool of blocks of 256 bytes (a bucket is a singly
 * linked list of blocks, newest first, each holding up to BLOCK_ENTRIES entries in the order
 * they came; only the newest can be partly filled, and the bucket's word in m_first holds
 * how many it has, so that a push writes the block's line without reading it first): a
 * block freed by one bucket serves the next push into any other. Advance reads
 * a bucket's entries a block at a time and asks for the next block while it copies one, so
 * a bucket of n entries costs about n / BLOCK_ENTRIES dependent loads. (Until session 52 a
 * node held one entry: at 16,384 hosts, where a bucket holds thousands of entries scattered
 * over a pool of megabytes, that walk waited on memory once per entry, 87 % of Advance's
 * time and about 6 % of the run's.) The pool holds at most as many blocks as the pending
 * entries fill plus one partly filled block per non-empty bucket, the wheel 4 bytes a
 * bucket, the current bucket's array (and SortCurrent's scratch array) at most as many
 * entries as the fullest bucket ever held. (A first wheel, in 2026-12-04's session 22, gave
 * every bucket its own array, which kept the most that bucket ever held: 16 % more peak
 * memory in perm128-mrc.)
 *
 * The order is exactly Less's: the current bucket holds the smallest entries (every entry
 * of a later bucket and of the heap has a later time stamp), sorted by Less. It relies on
 * the event queue's rule that nothing is inserted before the time stamp of the last entry
 * taken out (the simulator's clock): the wheel's start moves only to the bucket of an entry
 * taken out (PopTop), so an insert lands behind it only when the entry taken out was later
 * than the clock (an event removed before it ran, dropped when it reached the top); then
 * the wheel rewinds (Rewind), at the cost of a pass over its non-empty buckets.
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
    explicit MrcEventWheel(unsigned widthLog2 = 0, unsigned bucketsLog2 = 12)
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
        m_first.assign(std::size_t{1} << bucketsLog2, NIL);
        m_bits.assign(((std::size_t{1} << bucketsLog2) + 63) / 64, 0);
        m_cur = 0;
        m_head = 0;
        m_ready = false;
        m_current.clear();
        NS_ASSERT(m_late.Empty());
    }

    /// \return true if the queue holds no entry
    bool Empty() const
    {
        return m_size == 0;
    }

    /// \return the number of entries
    std::size_t Size() const
    {
        return m_size;
    }

    /**
     * \return the smallest entry (the queue must not be empty), without changing the queue:
     *         the current bucket's first if it is sorted, else found by a scan of the next
     *         bucket with entries (or the heap's top if the wheel is empty)
     */
    const T& Peek() const
    {
        NS_ASSERT_MSG(m_size != 0, "MrcEventWheel::Peek: empty");
        if (m_ready)
        {
            return *Front();
        }
        const std::size_t slot = m_cur & m_mask;
        const std::size_t next = m_first[slot] == NIL ? NextSet(slot) : slot;
        if (next == NONE)
        {
            return m_far.Top();
        }
        const T* best = &m_pool[m_first[next] >> COUNT_BITS].entries[0];
        ForEachEntry(m_first[next], [this, &best](const T& e) {
            if (m_less(e, *best))
            {
                best = &e;
            }
        });
        return *best;
    }

    /// \return the smallest entry if the current bucket is sorted and not empty, else null
    ///         (then finding it would move the wheel's start: PopTop does that)
    const T* PeekReady() const
    {
        return m_ready ? Front() : nullptr;
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
        const bool late = !m_late.Empty() &&
                          (m_head == m_current.size() || m_less(m_late.Top(), m_current[m_head]));
        const T top = late ? m_late.Top() : m_current[m_head];
        if (late)
        {
            m_late.Pop();
        }
        else
        {
            ++m_head;
        }
        --m_size;
        if (m_head == m_current.size())
        {
            m_current.clear();
            m_head = 0;
            m_ready = !m_late.Empty();
        }
        return top;
    }

    /// \param e an entry to add
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
        if (bucket == m_cur && m_ready)
        {
            // at the array's end if that keeps it sorted (an event for now, after the
            // others), else with the late entries
            if (m_head == m_current.size() || !m_less(e, m_current.back()))
            {
                m_current.push_back(e);
            }
            else
            {
                m_late.Push(e);
            }
            return;
        }
        Link(bucket & m_mask, e);
    }

    /// \return the times a push before the wheel's start made it rewind
    uint64_t GetRewinds() const
    {
        return m_rewinds;
    }

    /// \return the blocks the pool holds (free ones included), each of BLOCK_ENTRIES entries
    std::size_t GetPoolBlocks() const
    {
        return m_pool.size();
    }

    /// Entries a block of the pool holds: as many as fit in four cache lines after the
    /// block's link (7 of the scheduler's 32-byte entries), at most 15.
    static constexpr uint32_t BLOCK_ENTRIES =
        static_cast<uint32_t>(std::min<std::size_t>(15, (4 * 64 - 8) / sizeof(T)));
    static_assert(BLOCK_ENTRIES >= 2, "MrcEventWheel: an entry of more than 124 bytes");

  private:
    static constexpr uint32_t NIL = ~uint32_t{0}; //!< no block, an empty bucket
    /// A bucket's word (m_first): its newest block << COUNT_BITS | the entries that block
    /// holds (the bucket's older blocks are full), or NIL.
    static constexpr unsigned COUNT_BITS = 4;
    static constexpr uint32_t COUNT_MASK = (1u << COUNT_BITS) - 1; //!< a word's count
    static constexpr std::size_t NONE = ~std::size_t{0};           //!< no bucket
    /// Buckets up to this many entries are sorted by std::sort alone (SortCurrent).
    static constexpr std::size_t SMALL_BUCKET = 16;

    /// Entries of one bucket, in the order they came, and the bucket's next (older) block.
    /// How many it holds is its bucket's word's count if it is the newest, else all.
    struct alignas(64) Block
    {
        uint32_t next;            //!< the bucket's next block (or the free list's), NIL: none
        T entries[BLOCK_ENTRIES]; //!< the entries, oldest first
    };

    /**
     * Call a function on each entry of a bucket, newest block first.
     * \param word the bucket's word (not NIL) \param f called with each entry
     */
    template <typename F>
    void ForEachEntry(uint32_t word, F f) const
    {
        uint32_t count = word & COUNT_MASK;
        for (uint32_t b = word >> COUNT_BITS; b != NIL; b = m_pool[b].next)
        {
            for (uint32_t i = 0; i < count; ++i)
            {
                f(m_pool[b].entries[i]);
            }
            count = BLOCK_ENTRIES;
        }
    }

    /// \return the current bucket's smallest entry (m_ready): the array's front or the late
    ///         entries' top
    const T* Front() const
    {
        if (m_late.Empty())
        {
            return &m_current[m_head];
        }
        if (m_head == m_current.size() || m_less(m_late.Top(), m_current[m_head]))
        {
            return &m_late.Top();
        }
        return &m_current[m_head];
    }

    /// Put an entry in a bucket: into its newest block if that has room, else into a new
    /// block at the front of its list (LinkNewBlock). \param slot the bucket \param e the entry
    void Link(std::size_t slot, const T& e)
    {
        const uint32_t word = m_first[slot];
        if (word != NIL && (word & COUNT_MASK) < BLOCK_ENTRIES)
        {
            // (the count is in the word: the block's line is written, not read first)
            m_pool[word >> COUNT_BITS].entries[word & COUNT_MASK] = e;
            m_first[slot] = word + 1;
            return;
        }
        LinkNewBlock(slot, e);
    }

    /// Put an entry in a new block at the front of a bucket's list (its newest block is
    /// full, or it has none). \param slot the bucket \param e the entry
    void LinkNewBlock(std::size_t slot, const T& e)
    {
        const uint32_t word = m_first[slot];
        uint32_t n = m_free;
        if (n != NIL)
        {
            m_free = m_pool[n].next;
        }
        else
        {
            n = static_cast<uint32_t>(m_pool.size());
            NS_ASSERT_MSG(n < (NIL >> COUNT_BITS), "MrcEventWheel: too many entries");
            m_pool.emplace_back();
        }
        Block& block = m_pool[n];
        block.next = word == NIL ? NIL : word >> COUNT_BITS;
        block.entries[0] = e;
        if (word == NIL)
        {
            SetBit(slot);
        }
        m_first[slot] = (n << COUNT_BITS) | 1;
    }

    /// Move a bucket's entries to the end of m_current, newest first, and free its blocks.
    /// \param slot the bucket
    void Unlink(std::size_t slot)
    {
        uint32_t count = m_first[slot] & COUNT_MASK;
        for (uint32_t n = m_first[slot] >> COUNT_BITS; n != NIL; count = BLOCK_ENTRIES)
        {
            Block& block = m_pool[n];
            const uint32_t next = block.next;
            if (next != NIL)
            {
                MrcPrefetch(&m_pool[next], sizeof(Block)); // while this one is copied
            }
            for (uint32_t i = count; i > 0; --i)
            {
                m_current.push_back(block.entries[i - 1]);
            }
            block.next = m_free;
            m_free = n;
            n = next;
        }
        m_first[slot] = NIL;
        ClearBit(slot);
    }

    /// Free a bucket's blocks (their entries are dropped). \param slot the bucket
    void FreeBucket(std::size_t slot)
    {
        uint32_t n = m_first[slot] >> COUNT_BITS;
        while (n != NIL)
        {
            const uint32_t next = m_pool[n].next;
            m_pool[n].next = m_free;
            m_free = n;
            n = next;
        }
        m_first[slot] = NIL;
        ClearBit(slot);
    }

    /// Make the next bucket with entries the current one, sorted (the wheel's start moves
    /// there; the heap's entries that the new span covers come into the wheel).
    void Advance()
    {
        std::size_t slot = m_cur & m_mask;
        if (m_first[slot] == NIL)
        {
            const std::size_t next = NextSet(slot);
            if (next != NONE)
            {
                m_cur += (next - slot) & m_mask;
            }
            else
            {
                NS_ASSERT(!m_far.Empty());
                m_cur = m_stamp(m_far.Top()) >> m_shift;
            }
            while (!m_far.Empty() && (m_stamp(m_far.Top()) >> m_shift) - m_cur <= m_mask)
            {
                const T e = m_far.Top();
                m_far.Pop();
                Link((m_stamp(e) >> m_shift) & m_mask, e);
            }
            slot = m_cur & m_mask;
        }
        NS_ASSERT(m_first[slot] != NIL && m_current.empty() && m_late.Empty());
        Unlink(slot);
        SortCurrent();
        m_head = 0;
        m_ready = true;
    }

    /**
     * Sort m_current, which Unlink filled newest entry first. Entries mostly arrive in their
     * order (a later event has a larger uid), so taken oldest first most of them are at
     * least the largest kept before them: those stay in order as they come, and the others
     * (e.g. an event inserted at a slot, whose place is among earlier ones) are sorted apart
     * and merged in from the back, in place: O(n + k log k) for k entries out of order (and
     * one scratch array of them) instead of std::sort's O(n log n). The result is the same
     * (Less is a strict total order). It matters where many events share a time step, as in
     * a large fabric where every link's frames end together (about 2,500 entries a bucket at
     * 16,384 hosts); buckets of at most SMALL_BUCKET entries go to std::sort alone.
     */
    void SortCurrent()
    {
        if (m_current.size() <= SMALL_BUCKET)
        {
            // (std::sort is an insertion sort at this size; a pass more would not pay)
            std::sort(m_current.begin(), m_current.end(), m_less);
            return;
        }
        std::reverse(m_current.begin(), m_current.end()); // oldest first
        m_apart.clear();
        std::size_t kept = 0; // the entries kept in order: m_current[0, kept)
        for (std::size_t i = 0; i < m_current.size(); ++i)
        {
            if (kept == 0 || !m_less(m_current[i], m_current[kept - 1]))
            {
                m_current[kept++] = m_current[i];
            }
            else
            {
                m_apart.push_back(m_current[i]);
            }
        }
        if (m_apart.empty())
        {
            return; // already in order
        }
        std::sort(m_apart.begin(), m_apart.end(), m_less);
        // merged from the back, in place: the largest of both goes last
        std::size_t out = m_current.size();
        std::size_t apart = m_apart.size();
        while (apart > 0)
        {
            if (kept > 0 && m_less(m_apart[apart - 1], m_current[kept - 1]))
            {
                m_current[--out] = m_current[--kept];
            }
            else
            {
                m_current[--out] = m_apart[--apart];
            }
        }
    }

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
            // the current bucket's entries not taken out go back to its list
            const std::size_t slot = m_cur & m_mask;
            for (std::size_t i = m_head; i < m_current.size(); ++i)
            {
                Link(slot, m_current[i]);
            }
            for (; !m_late.Empty(); m_late.Pop())
            {
                Link(slot, m_late.Top());
            }
            m_current.clear();
            m_head = 0;
            m_ready = false;
        }
        const uint64_t end = bucket + m_mask + 1; // the new span is [bucket, end)
        for (std::size_t w = 0; w < m_bits.size(); ++w)
        {
            for (uint64_t bits = m_bits[w]; bits != 0; bits &= bits - 1)
            {
                const std::size_t slot = (w << 6) + Ctz(bits);
                // (a bucket's entries share their bucket number: any of them tells)
                if ((m_stamp(m_pool[m_first[slot] >> COUNT_BITS].entries[0]) >> m_shift) >= end)
                {
                    ForEachEntry(m_first[slot], [this](const T& e) { m_far.Push(e); });
                    FreeBucket(slot);
                }
            }
        }
        m_cur = bucket;
    }

    /// \param x a non-zero word \return its trailing zero bits
    static std::size_t Ctz(uint64_t x)
    {
#if defined(__GNUC__) || defined(__clang__)
        return static_cast<std::size_t>(__builtin_ctzll(x));
#else
        std::size_t n = 0;
        for (; (x & 1) == 0; x >>= 1)
        {
            ++n;
        }
        return n;
#endif
    }

    /// \param from a bucket \return the first bucket after it (round the wheel, before it
    ///         again) that has entries, or NONE
    std::size_t NextSet(std::size_t from) const
    {
        const std::size_t words = m_bits.size();
        const std::size_t n = m_mask + 1;
        std::size_t i = (from + 1) & m_mask;
        for (std::size_t step = 0; step <= words; ++step)
        {
            const std::size_t w = i >> 6;
            const uint64_t bits = m_bits[w] & (~uint64_t{0} << (i & 63));
            if (bits != 0)
            {
                const std::size_t found = (w << 6) + Ctz(bits);
                return found < n ? found : NONE;
            }
            i = ((w + 1) << 6) & m_mask;
        }
        return NONE;
    }

    /// \param slot a bucket that has entries now
    void SetBit(std::size_t slot)
    {
        m_bits[slot >> 6] |= uint64_t{1} << (slot & 63);
    }

    /// \param slot a bucket that has none now
    void ClearBit(std::size_t slot)
    {
        m_bits[slot >> 6] &= ~(uint64_t{1} << (slot & 63));
    }

    unsigned m_shift{0};               //!< log2 of a bucket's width in time steps
    std::size_t m_mask{0};             //!< buckets - 1
    std::vector<uint32_t> m_first;     //!< each bucket's word (COUNT_BITS), NIL if empty
    std::vector<uint64_t> m_bits;      //!< which buckets hold entries
    std::vector<Block> m_pool;         //!< the buckets' blocks
    uint32_t m_free{NIL};              //!< the first free block of the pool
    std::vector<T> m_current;          //!< the current bucket, sorted from m_head on if m_ready
    std::vector<T> m_apart;            //!< SortCurrent's entries out of order
    MrcQuaternaryHeap<T, Less> m_late; //!< the current bucket's entries pushed out of order
    MrcQuaternaryHeap<T, Less> m_far;  //!< entries beyond the wheel's span
    uint64_t m_cur{0};                 //!< the current bucket's number (time stamp >> shift)
    uint64_t m_rewinds{0};             //!< pushes before the start
    std::size_t m_head{0};             //!< the current bucket's first entry not taken out
    bool m_ready{false};   //!< the current bucket is ready: m_current sorted from m_head, m_late
    std::size_t m_size{0}; //!< entries in all
    Less m_less;           //!< the order
    Stamp m_stamp;         //!< an entry's time stamp
};

} // namespace ns3

#endif /* MRC_EVENT_WHEEL_H */
