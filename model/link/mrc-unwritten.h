/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_UNWRITTEN_H
#define MRC_UNWRITTEN_H

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * What a frame's bytes still lack: four bits carried beside the frame in its queue slot
 * (MrcClassScheduler) and on the wire (MrcChannel), so that a hop does not write bytes that
 * nothing reads. MrcNetDevice::WriteUnwritten writes them wherever something else sees the
 * frame (traces, drops, a receiver without an owner, another rank).
 *
 * - bit 0 (MRC_UNWRITTEN_HEADER): the 14-byte Ethernet header of an IPv6 frame; every size
 *   (queue bytes, serialization, counters) includes it.
 * - bits 1-3: uN shifts (MrcUsidCarrier::Shift) that the frame's outer IPv6 destination
 *   lacks, 0-7, only with bit 0 set: the SRv6 rewrite of the switches it crossed
 *   (MrcNetDevice::SendToClass). The receiving device applies them to the bytes it hands
 *   its owner (MrcRxHead::dstShifts).
 */

namespace ns3
{

/// A frame whose bytes lack nothing.
constexpr uint8_t MRC_UNWRITTEN_NONE = 0;
/// The frame's Ethernet header is not in it.
constexpr uint8_t MRC_UNWRITTEN_HEADER = 1;
/// The largest number of uN shifts a frame can carry unwritten.
constexpr uint8_t MRC_UNWRITTEN_MAX_SHIFTS = 7;
/// Bits of a 64-bit word (a slot's tag, a wire entry's slot) that hold the flags: 60-63.
constexpr uint32_t MRC_UNWRITTEN_SHIFT = 60;
/// The part of such a word that is not the flags.
constexpr uint64_t MRC_UNWRITTEN_WORD_MASK = (uint64_t{1} << MRC_UNWRITTEN_SHIFT) - 1;

/// \param shifts uN shifts, 0..MRC_UNWRITTEN_MAX_SHIFTS
/// \return the flags of an IPv6 frame without its Ethernet header and those shifts
constexpr uint8_t
MrcUnwrittenWithShifts(uint32_t shifts)
{
    return static_cast<uint8_t>(MRC_UNWRITTEN_HEADER | (shifts << 1));
}

/// \param unwritten the flags \return the uN shifts the destination lacks
constexpr uint8_t
MrcUnwrittenShifts(uint8_t unwritten)
{
    return static_cast<uint8_t>((unwritten >> 1) & MRC_UNWRITTEN_MAX_SHIFTS);
}

/// \param unwritten the flags \return the bytes a frame counts beyond its packet's
constexpr uint32_t
MrcUnwrittenBytes(uint8_t unwritten)
{
    return (unwritten & MRC_UNWRITTEN_HEADER) ? 14 : 0;
}

} // namespace ns3

#endif /* MRC_UNWRITTEN_H */
