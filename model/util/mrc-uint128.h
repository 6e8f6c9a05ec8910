/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_UINT128_H
#define MRC_UINT128_H

namespace ns3
{

/**
 * \ingroup mrc
 * An unsigned 128-bit integer, for exact products such as bits x picoseconds that overflow 64
 * bits. GCC and Clang provide it as an extension; ns-3's source builds compile with -Wpedantic,
 * which warns at every use of the bare keyword, so the module names it once here, marked as an
 * extension.
 */
__extension__ typedef unsigned __int128 MrcUint128;

} // namespace ns3

#endif /* MRC_UINT128_H */
