/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-line-aligned.h"

#include "ns3/abort.h"

#include <cstdint>
#include <cstdlib>

namespace ns3
{

void*
MrcLineAligned::operator new(std::size_t bytes)
{
    // room for the shift up to the next line boundary and for malloc's pointer before it
    void* raw = std::malloc(bytes + LINE_BYTES + sizeof(void*));
    if (raw == nullptr)
    {
        throw std::bad_alloc();
    }
    const auto first = reinterpret_cast<std::uintptr_t>(raw) + sizeof(void*);
    const std::uintptr_t start = (first + LINE_BYTES - 1) & ~std::uintptr_t(LINE_BYTES - 1);
    reinterpret_cast<void**>(start)[-1] = raw;
    return reinterpret_cast<void*>(start);
}

void*
MrcLineAligned::operator new(std::size_t bytes, std::align_val_t align)
{
    NS_ABORT_MSG_IF(static_cast<std::size_t>(align) > LINE_BYTES,
                    "MrcLineAligned: alignment " << static_cast<std::size_t>(align)
                                                 << " is above a cache line");
    return operator new(bytes);
}

void
MrcLineAligned::operator delete(void* p) noexcept
{
    if (p != nullptr)
    {
        std::free(static_cast<void**>(p)[-1]);
    }
}

void
MrcLineAligned::operator delete(void* p, std::align_val_t) noexcept
{
    operator delete(p);
}

} // namespace ns3
