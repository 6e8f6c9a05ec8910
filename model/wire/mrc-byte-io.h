/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_BYTE_IO_H
#define MRC_BYTE_IO_H

#include "ns3/buffer.h"

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * Big-endian (network order) reads and writes of 8-, 16-, 24-, 32-, 48- and 64-bit
 * fields, from and to plain byte arrays, plus the widths ns3::Buffer::Iterator does
 * not offer (24 and 48 bits). One set of functions for every place that handles
 * wire bytes by hand: header classes, the packet parser, the switch, the transports.
 *
 * The functions are inline and allocate nothing. They are written as shifts and ORs
 * of single bytes, which does not depend on the host's byte order or alignment;
 * GCC and Clang turn a whole 16-, 32- or 64-bit read or write into one load or store
 * plus a byte swap at -O2 (a loop over the bytes is not: GCC 12 keeps it a loop). A
 * field that ends a 32-bit word, such as IPv6's 20-bit flow label, is read as
 * ReadU24 of its last three bytes and a mask: where the word's first byte has been
 * read already (the traffic class), GCC then keeps one 16-bit load instead of
 * rebuilding the word from single bytes.
 */

namespace ns3
{

/// Byte-order-explicit reads and writes of wire fields.
namespace MrcByteIo
{

/// \return the byte at b
inline uint8_t
ReadU8(const uint8_t* b)
{
    return b[0];
}

/// \return the 16-bit big-endian field at b
inline uint16_t
ReadU16(const uint8_t* b)
{
    return static_cast<uint16_t>((static_cast<uint32_t>(b[0]) << 8) | b[1]);
}

/// \return the 24-bit big-endian field at b (in the low 24 bits)
inline uint32_t
ReadU24(const uint8_t* b)
{
    // one byte and one 16-bit load (three single bytes would stay three loads)
    return (static_cast<uint32_t>(b[0]) << 16) | ReadU16(b + 1);
}

/// \return the 32-bit big-endian field at b
inline uint32_t
ReadU32(const uint8_t* b)
{
    return (static_cast<uint32_t>(b[0]) << 24) | (static_cast<uint32_t>(b[1]) << 16) |
           (static_cast<uint32_t>(b[2]) << 8) | b[3];
}

/// \return the 48-bit big-endian field at b (in the low 48 bits)
inline uint64_t
ReadU48(const uint8_t* b)
{
    return (static_cast<uint64_t>(ReadU16(b)) << 32) | ReadU32(b + 2);
}

/// \return the 64-bit big-endian field at b
inline uint64_t
ReadU64(const uint8_t* b)
{
    return (static_cast<uint64_t>(ReadU32(b)) << 32) | ReadU32(b + 4);
}

/// \return the 32-bit little-endian field at b (the ICRC is carried least significant
/// byte first)
inline uint32_t
ReadLeU32(const uint8_t* b)
{
    return static_cast<uint32_t>(b[0]) | (static_cast<uint32_t>(b[1]) << 8) |
           (static_cast<uint32_t>(b[2]) << 16) | (static_cast<uint32_t>(b[3]) << 24);
}

/// Write v at b.
inline void
WriteU8(uint8_t* b, uint8_t v)
{
    b[0] = v;
}

/// Write v at b, most significant byte first.
inline void
WriteU16(uint8_t* b, uint16_t v)
{
    b[0] = static_cast<uint8_t>(v >> 8);
    b[1] = static_cast<uint8_t>(v);
}

/// Write the low 24 bits of v at b, most significant byte first.
inline void
WriteU24(uint8_t* b, uint32_t v)
{
    b[0] = static_cast<uint8_t>(v >> 16);
    b[1] = static_cast<uint8_t>(v >> 8);
    b[2] = static_cast<uint8_t>(v);
}

/// Write v at b, most significant byte first.
inline void
WriteU32(uint8_t* b, uint32_t v)
{
    b[0] = static_cast<uint8_t>(v >> 24);
    b[1] = static_cast<uint8_t>(v >> 16);
    b[2] = static_cast<uint8_t>(v >> 8);
    b[3] = static_cast<uint8_t>(v);
}

/// Write the low 48 bits of v at b, most significant byte first.
inline void
WriteU48(uint8_t* b, uint64_t v)
{
    WriteU16(b, static_cast<uint16_t>(v >> 32));
    WriteU32(b + 2, static_cast<uint32_t>(v));
}

/// Write v at b, most significant byte first.
inline void
WriteU64(uint8_t* b, uint64_t v)
{
    WriteU32(b, static_cast<uint32_t>(v >> 32));
    WriteU32(b + 4, static_cast<uint32_t>(v));
}

/// Write v at b, least significant byte first.
inline void
WriteLeU32(uint8_t* b, uint32_t v)
{
    b[0] = static_cast<uint8_t>(v);
    b[1] = static_cast<uint8_t>(v >> 8);
    b[2] = static_cast<uint8_t>(v >> 16);
    b[3] = static_cast<uint8_t>(v >> 24);
}

/// \return a 24-bit big-endian field read at i (i moves on by 3 bytes)
inline uint32_t
ReadU24(Buffer::Iterator& i)
{
    uint32_t v = static_cast<uint32_t>(i.ReadU8()) << 16;
    v |= static_cast<uint32_t>(i.ReadU8()) << 8;
    return v | i.ReadU8();
}

/// Write the low 24 bits of v at i, most significant byte first (i moves on by 3 bytes).
inline void
WriteU24(Buffer::Iterator& i, uint32_t v)
{
    i.WriteU8(static_cast<uint8_t>(v >> 16));
    i.WriteU8(static_cast<uint8_t>(v >> 8));
    i.WriteU8(static_cast<uint8_t>(v));
}

/// \return a 48-bit big-endian field read at i (i moves on by 6 bytes)
inline uint64_t
ReadU48(Buffer::Iterator& i)
{
    const uint64_t high = i.ReadNtohU16();
    return (high << 32) | i.ReadNtohU32();
}

/// Write the low 48 bits of v at i, most significant byte first (i moves on by 6 bytes).
inline void
WriteU48(Buffer::Iterator& i, uint64_t v)
{
    i.WriteHtonU16(static_cast<uint16_t>(v >> 32));
    i.WriteHtonU32(static_cast<uint32_t>(v));
}

} // namespace MrcByteIo

} // namespace ns3

#endif /* MRC_BYTE_IO_H */
