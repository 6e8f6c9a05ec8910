/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PREFETCH_H
#define MRC_PREFETCH_H

#include <cstddef>
#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * Asking for cache lines ahead of their use.
 */

namespace ns3
{

/// Cache line size the read-ahead assumes (x86-64 and most 64-bit ARM cores).
constexpr std::size_t MRC_CACHE_LINE = 64;

/**
 * \ingroup mrc
 * Ask for every cache line of [p, p + bytes) ahead of its use, so that the loads of
 * several cold lines overlap instead of waiting one after the other. A hint only: no
 * outcome depends on it, and it compiles to nothing where the compiler has no prefetch
 * built-in.
 *
 * In a large fabric most devices, queues and packets are cold in cache when a frame
 * reaches them; an event that knows early which objects it will touch (a delivery knows
 * its receiving device before it reads the frame) asks for them first.
 *
 * \param p the first byte \param bytes how many (0: nothing)
 */
inline void
MrcPrefetch(const void* p, std::size_t bytes)
{
#if defined(__GNUC__) || defined(__clang__)
    if (bytes == 0)
    {
        return;
    }
    const auto first = reinterpret_cast<uintptr_t>(p) & ~(uintptr_t(MRC_CACHE_LINE) - 1);
    const auto last = reinterpret_cast<uintptr_t>(p) + bytes - 1;
    for (uintptr_t line = first; line <= last; line += MRC_CACHE_LINE)
    {
        __builtin_prefetch(reinterpret_cast<const void*>(line));
    }
#else
    (void)p;
    (void)bytes;
#endif
}

} // namespace ns3

#endif /* MRC_PREFETCH_H */
