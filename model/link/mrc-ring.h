/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RING_H
#define MRC_RING_H

#include <cstdint>
#include <memory>
#include <new>
#include <utility>

/**
 * \file
 * \ingroup mrc
 * A FIFO on a power-of-two ring that allocates nothing until its first element.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * First-in first-out queue of T on a ring buffer.
 *
 * Meant for the frame queues of a link (a device's class queues, its PFC frames, a
 * channel's frames in flight): a large fabric has millions of them and most stay
 * empty for the whole run. An empty ring that never held an element owns no heap
 * memory (a pointer and three counters: 24 bytes), where an empty std::deque of
 * libstdc++ allocates a 512-byte node and its map at construction. The ring grows by
 * doubling (from 4 slots) when full and never shrinks; clear() keeps the storage.
 *
 * The slots are raw storage: an element is constructed in its slot by push_back and
 * destroyed by pop (for Ptr<Packet>: the ring drops its reference at once, as pop_front
 * of a deque). A push writes its slot without reading it first, which matters in a
 * large fabric: the slot of a frame queued at a cold port is not in cache, and assigning
 * into a held object (a reference-counting pointer checks what it held) would wait for
 * that read. T must be move-constructible.
 */
template <typename T>
class MrcRing
{
  public:
    MrcRing() = default;
    MrcRing(const MrcRing&) = delete;
    MrcRing& operator=(const MrcRing&) = delete;

    /// \param o a ring whose storage and elements move here (it is left empty)
    MrcRing(MrcRing&& o) noexcept
    {
        swap(o);
    }

    ~MrcRing()
    {
        clear();
        Deallocate(m_slots, capacity());
    }

    /// \param o a ring whose storage and elements move here \return this ring
    MrcRing& operator=(MrcRing&& o) noexcept
    {
        MrcRing gone(std::move(o));
        swap(gone);
        return *this;
    }

    /// \return true if the ring holds no element
    bool empty() const
    {
        return m_size == 0;
    }

    /// \return the number of elements
    uint32_t size() const
    {
        return m_size;
    }

    /// \return slots allocated (0 until the first push)
    uint32_t capacity() const
    {
        return m_slots ? m_mask + 1 : 0;
    }

    /// \return the oldest element (the ring must not be empty)
    T& front()
    {
        return m_slots[m_head];
    }

    /// \return the oldest element (the ring must not be empty)
    const T& front() const
    {
        return m_slots[m_head];
    }

    /// \return the newest element (the ring must not be empty)
    T& back()
    {
        return m_slots[(m_head + m_size - 1) & m_mask];
    }

    /// \return the newest element (the ring must not be empty)
    const T& back() const
    {
        return m_slots[(m_head + m_size - 1) & m_mask];
    }

    /// \param v appended at the back
    void push_back(const T& v)
    {
        if (!m_slots || m_size == m_mask + 1)
        {
            Grow();
        }
        ::new (static_cast<void*>(m_slots + ((m_head + m_size) & m_mask))) T(v);
        ++m_size;
    }

    /// \param v moved to the back
    void push_back(T&& v)
    {
        if (!m_slots || m_size == m_mask + 1)
        {
            Grow();
        }
        ::new (static_cast<void*>(m_slots + ((m_head + m_size) & m_mask))) T(std::move(v));
        ++m_size;
    }

    /// \param i a position from the oldest element (below size()) \return the element there
    T& operator[](uint32_t i)
    {
        return m_slots[(m_head + i) & m_mask];
    }

    /// Remove the oldest element (the ring must not be empty): it is destroyed.
    void pop_front()
    {
        m_slots[m_head].~T();
        m_head = (m_head + 1) & m_mask;
        --m_size;
    }

    /// Remove the newest element (the ring must not be empty): it is destroyed.
    void pop_back()
    {
        m_slots[(m_head + m_size - 1) & m_mask].~T();
        --m_size;
    }

    /// Read-only iterator, oldest element first.
    class ConstIterator
    {
      public:
        /// \param r the ring \param i position from the oldest element
        ConstIterator(const MrcRing* r, uint32_t i)
            : m_ring(r),
              m_i(i)
        {
        }

        /// \return the element
        const T& operator*() const
        {
            return m_ring->m_slots[(m_ring->m_head + m_i) & m_ring->m_mask];
        }

        /// \return this iterator, on the next element
        ConstIterator& operator++()
        {
            ++m_i;
            return *this;
        }

        /// \param o another iterator of the same ring \return true unless at the same place
        bool operator!=(const ConstIterator& o) const
        {
            return m_i != o.m_i;
        }

      private:
        const MrcRing* m_ring; //!< the ring
        uint32_t m_i;          //!< position from the oldest element
    };

    /// \return an iterator on the oldest element
    ConstIterator begin() const
    {
        return ConstIterator(this, 0);
    }

    /// \return an iterator past the newest element
    ConstIterator end() const
    {
        return ConstIterator(this, m_size);
    }

    /// Remove every element, oldest first (storage kept).
    void clear()
    {
        while (m_size != 0)
        {
            pop_front();
        }
        m_head = 0;
    }

    /// \param other exchanged with this ring (storage and elements)
    void swap(MrcRing& other) noexcept
    {
        std::swap(m_slots, other.m_slots);
        std::swap(m_head, other.m_head);
        std::swap(m_size, other.m_size);
        std::swap(m_mask, other.m_mask);
    }

  private:
    static constexpr uint32_t FIRST_CAPACITY = 4; //!< slots of the first allocation

    /// Double the slots (or allocate the first ones), oldest element to slot 0.
    void Grow()
    {
        const uint32_t old = capacity();
        const uint32_t cap = m_slots ? 2 * old : FIRST_CAPACITY;
        T* next = std::allocator<T>().allocate(cap);
        for (uint32_t i = 0; i < m_size; ++i)
        {
            T& from = m_slots[(m_head + i) & m_mask];
            ::new (static_cast<void*>(next + i)) T(std::move(from));
            from.~T();
        }
        Deallocate(m_slots, old);
        m_slots = next;
        m_head = 0;
        m_mask = cap - 1;
    }

    /// \param slots storage of \p n slots, none holding an element (null: nothing)
    /// \param n its slots
    static void Deallocate(T* slots, uint32_t n)
    {
        if (slots != nullptr)
        {
            std::allocator<T>().deallocate(slots, n);
        }
    }

    T* m_slots{nullptr}; //!< raw storage of m_mask + 1 slots (null until the first push)
    uint32_t m_head{0};  //!< slot of the oldest element
    uint32_t m_size{0};  //!< elements held
    uint32_t m_mask{0};  //!< slots - 1 (slots are a power of two)
};

} // namespace ns3

#endif /* MRC_RING_H */
