/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_LINE_ALIGNED_H
#define MRC_LINE_ALIGNED_H

#include <cstddef>
#include <new>

/**
 * \file
 * \ingroup mrc
 * Allocation of objects that start at a cache-line boundary, without aligned malloc.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * A base class whose allocation functions place every object of the derived class at
 * the start of a 64-byte cache line, so that members grouped by cache line (alignas(64)
 * or by offset) stay in the lines they were grouped for.
 *
 * The memory comes from plain malloc, LINE_BYTES + one pointer more than the object
 * needs; the pointer malloc returned is stored just before the object. glibc's aligned
 * allocation (memalign, behind the aligned global operator new) splits a larger chunk
 * and frees its remnants, which its per-thread cache then keeps; this way nothing is
 * split off, and the heap behaves as for any other allocation of that size.
 *
 * For an Object: CreateObject and Create call `new T`, and the last Unref deletes through
 * the virtual destructor, which uses the derived class's operator delete: both end here.
 */
class MrcLineAligned
{
  public:
    static constexpr std::size_t LINE_BYTES = 64; //!< the cache line size assumed

    /// \param bytes size of the object \return memory starting at a line boundary
    static void* operator new(std::size_t bytes);
    /// \param bytes size of the object \param align its alignment (at most LINE_BYTES)
    /// \return memory starting at a line boundary
    static void* operator new(std::size_t bytes, std::align_val_t align);
    /// \param p memory from operator new
    static void operator delete(void* p) noexcept;
    /// \param p memory from operator new \param align the alignment it was allocated with
    static void operator delete(void* p, std::align_val_t align) noexcept;
};

} // namespace ns3

#endif /* MRC_LINE_ALIGNED_H */
