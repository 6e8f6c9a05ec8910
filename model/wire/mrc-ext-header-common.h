/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_EXT_HEADER_COMMON_H
#define MRC_EXT_HEADER_COMMON_H

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * Small wire helpers shared by the MRC extension headers (SETH, NETH, PETH,
 * ERTH, EETH): the leading 16-bit word whose top nine bits are the reserved type
 * (4 bits) and next-header (5 bits) fields. (24-bit fields: mrc-byte-io.h.)
 */

namespace ns3
{

/// Wire helpers of the MRC extension headers.
namespace MrcWire
{
constexpr uint32_t U24_MASK = 0xffffff; ///< mask of a 24-bit field
constexpr uint8_t TYPE_MAX = 0xf;       ///< type is 4 bits
constexpr uint8_t NXT_MAX = 0x1f;       ///< nxt is 5 bits
constexpr unsigned TYPE_SHIFT = 12;     ///< type is bits 15..12 of the leading word
constexpr unsigned NXT_SHIFT = 7;       ///< nxt is bits 11..7 of the leading word

/// \return the type and nxt bits of the leading word
constexpr uint16_t
LeadBits(uint8_t type, uint8_t nxt)
{
    return static_cast<uint16_t>((type << TYPE_SHIFT) | (nxt << NXT_SHIFT));
}

/// \return the type field of a leading word
constexpr uint8_t
TypeOf(uint16_t lead)
{
    return (lead >> TYPE_SHIFT) & TYPE_MAX;
}

/// \return the nxt field of a leading word
constexpr uint8_t
NxtOf(uint16_t lead)
{
    return (lead >> NXT_SHIFT) & NXT_MAX;
}
} // namespace MrcWire

} // namespace ns3

#endif /* MRC_EXT_HEADER_COMMON_H */
