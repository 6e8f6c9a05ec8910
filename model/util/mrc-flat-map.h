/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FLAT_MAP_H
#define MRC_FLAT_MAP_H

#include <cstdint>
#include <type_traits>
#include <vector>

namespace ns3
{

/**
 * \ingroup mrc
 * \brief A small hash map from an unsigned integer key to a value, in one flat array.
 *
 * Open addressing with linear probing, a power-of-two capacity kept at most half full,
 * and backward-shift deletion (no tombstones). It serves the per-packet lookups of the
 * packet path (uSID tables, EV values, per-EV counters), where a node-based
 * std::unordered_map costs an allocation per insert and a cache miss per node.
 *
 * Iteration (ForEach) visits slots in array order, which depends only on the keys
 * inserted and erased: runs stay deterministic.
 *
 * \tparam K an unsigned integer key type
 * \tparam V a default-constructible, copyable value type
 */
template <typename K, typename V>
class MrcFlatMap
{
    static_assert(std::is_unsigned<K>::value, "MrcFlatMap keys are unsigned integers");

  public:
    /// \return the number of keys stored
    std::size_t size() const
    {
        return m_size;
    }

    /// \return true if no key is stored
    bool empty() const
    {
        return m_size == 0;
    }

    /// Remove every key (keeps the capacity).
    void clear()
    {
        for (auto& s : m_slots)
        {
            s = Slot();
        }
        m_size = 0;
    }

    /// Make room for n keys without growing later.
    /// \param n the number of keys
    void Reserve(std::size_t n)
    {
        std::size_t cap = 8;
        while (cap < 2 * n)
        {
            cap <<= 1;
        }
        if (cap > m_slots.size())
        {
            Rehash(cap);
        }
    }

    /// \param key the key \return its value, or nullptr
    V* Find(K key)
    {
        const std::size_t i = Locate(key);
        return i == NPOS ? nullptr : &m_slots[i].value;
    }

    /// \param key the key \return its value, or nullptr
    const V* Find(K key) const
    {
        const std::size_t i = Locate(key);
        return i == NPOS ? nullptr : &m_slots[i].value;
    }

    /// Insert key -> value unless the key is present.
    /// \param key the key \param value the value
    /// \return true if inserted, false if the key was already present (left unchanged)
    bool Insert(K key, const V& value)
    {
        if (Locate(key) != NPOS)
        {
            return false;
        }
        Slot& s = m_slots[FreeSlotFor(key)];
        s.key = key;
        s.value = value;
        s.used = true;
        ++m_size;
        return true;
    }

    /// \param key the key \return its value, inserted value-initialised if absent
    V& operator[](K key)
    {
        const std::size_t i = Locate(key);
        if (i != NPOS)
        {
            return m_slots[i].value;
        }
        Slot& s = m_slots[FreeSlotFor(key)];
        s.key = key;
        s.value = V();
        s.used = true;
        ++m_size;
        return s.value;
    }

    /// \param key the key \return true if it was present and is now removed
    bool Erase(K key)
    {
        std::size_t i = Locate(key);
        if (i == NPOS)
        {
            return false;
        }
        // backward-shift: move later members of the probe run into the hole
        const std::size_t mask = m_slots.size() - 1;
        std::size_t j = i;
        for (;;)
        {
            j = (j + 1) & mask;
            if (!m_slots[j].used)
            {
                break;
            }
            const std::size_t home = Home(m_slots[j].key);
            // the slot at j may move to i if its home is not cyclically in (i, j]
            const bool stays = (i <= j) ? (i < home && home <= j) : (i < home || home <= j);
            if (!stays)
            {
                m_slots[i] = m_slots[j];
                i = j;
            }
        }
        m_slots[i] = Slot();
        --m_size;
        return true;
    }

    /// Call f(key, value) for every key, in slot order.
    /// \param f the function
    template <typename F>
    void ForEach(F&& f) const
    {
        for (const auto& s : m_slots)
        {
            if (s.used)
            {
                f(s.key, s.value);
            }
        }
    }

  private:
    /// One slot of the array.
    struct Slot
    {
        K key{0};         //!< the key
        bool used{false}; //!< the slot holds a key
        V value{};        //!< the value
    };

    static constexpr std::size_t NPOS = ~std::size_t(0); //!< no slot

    /// \param key a key \return its home slot
    std::size_t Home(K key) const
    {
        return static_cast<std::size_t>((uint64_t(key) * 0x9E3779B97F4A7C15ULL) >> 32) &
               (m_slots.size() - 1);
    }

    /// \param key a key \return its slot, or NPOS
    std::size_t Locate(K key) const
    {
        if (m_slots.empty())
        {
            return NPOS;
        }
        const std::size_t mask = m_slots.size() - 1;
        for (std::size_t i = Home(key);; i = (i + 1) & mask)
        {
            if (!m_slots[i].used)
            {
                return NPOS;
            }
            if (m_slots[i].key == key)
            {
                return i;
            }
        }
    }

    /// Grow if needed, then find the free slot of an absent key.
    /// \param key the key \return the slot
    std::size_t FreeSlotFor(K key)
    {
        if (2 * (m_size + 1) > m_slots.size())
        {
            Rehash(m_slots.empty() ? 8 : 2 * m_slots.size());
        }
        const std::size_t mask = m_slots.size() - 1;
        std::size_t i = Home(key);
        while (m_slots[i].used)
        {
            i = (i + 1) & mask;
        }
        return i;
    }

    /// Move every key into a table of cap slots.
    /// \param cap the new capacity (a power of two)
    void Rehash(std::size_t cap)
    {
        std::vector<Slot> old;
        old.swap(m_slots);
        m_slots.assign(cap, Slot());
        const std::size_t mask = cap - 1;
        for (const auto& s : old)
        {
            if (s.used)
            {
                std::size_t i = Home(s.key);
                while (m_slots[i].used)
                {
                    i = (i + 1) & mask;
                }
                m_slots[i] = s;
            }
        }
    }

    std::vector<Slot> m_slots; //!< the table (size 0 or a power of two)
    std::size_t m_size{0};     //!< keys stored
};

} // namespace ns3

#endif /* MRC_FLAT_MAP_H */
