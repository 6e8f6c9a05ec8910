/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_UNWRITTEN_H
#define MRC_UNWRITTEN_H

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * What a frame's bytes still lack: five bits carried beside the frame in its queue slot
 * (MrcClassScheduler) and on the wire (MrcChannel), so that a hop does not write bytes that
 * nothing reads. MrcNetDevice::WriteUnwritten writes them wherever something else sees the
 * frame (traces, drops, a receiver without an owner, another rank).
 *
 * - bit 0 (MRC_UNWRITTEN_HEADER): the 14-byte Ethernet header of an IPv6 frame; every size
 *   (queue bytes, serialization, counters) includes it.
 * - bits 1-4, only with bit 0 set: edits of the outer IPv6 header that switches made
 *   (mrc-packet-info.h, MRC_IPV6_EDIT_CE): uN shifts of the destination, the SRv6 rewrite
 *   of the switches the frame crossed (MrcNetDevice::SendToClass), and a dequeue-time CE
 *   mark (MrcSwitchNode). The receiving device applies them to the bytes it hands its
 *   owner (MrcRxHead::edits).
 */

namespace ns3
{

/// A frame whose bytes lack nothing.
constexpr uint8_t MRC_UNWRITTEN_NONE = 0;
/// The frame's Ethernet header is not in it.
constexpr uint8_t MRC_UNWRITTEN_HEADER = 1;
/// The bytes of that header, which every size of such a frame counts.
constexpr uint32_t MRC_UNWRITTEN_HEADER_BYTES = 14;
/// The largest IPv6 edits value a frame carries (all four edit bits of mrc-packet-info.h).
constexpr uint8_t MRC_UNWRITTEN_MAX_EDITS = 0x0f;
/// Bits of a 64-bit word (a slot's tag, a wire entry's slot) that hold the flags: 59-63.
constexpr uint32_t MRC_UNWRITTEN_SHIFT = 59;
/// The part of such a word that is not the flags.
constexpr uint64_t MRC_UNWRITTEN_WORD_MASK = (uint64_t{1} << MRC_UNWRITTEN_SHIFT) - 1;

/// \param edits IPv6 edits, 0..MRC_UNWRITTEN_MAX_EDITS
/// \return the flags of an IPv6 frame without its Ethernet header and with those edits
constexpr uint8_t
MrcUnwrittenWithEdits(uint32_t edits)
{
    return static_cast<uint8_t>(MRC_UNWRITTEN_HEADER | (edits << 1));
}

/// \param unwritten the flags \return the IPv6 edits the frame lacks
constexpr uint8_t
MrcUnwrittenEdits(uint8_t unwritten)
{
    return static_cast<uint8_t>((unwritten >> 1) & MRC_UNWRITTEN_MAX_EDITS);
}

/// \param unwritten the flags \return the bytes a frame counts beyond its packet's
constexpr uint32_t
MrcUnwrittenBytes(uint8_t unwritten)
{
    return (unwritten & MRC_UNWRITTEN_HEADER) ? MRC_UNWRITTEN_HEADER_BYTES : 0;
}

} // namespace ns3

#endif /* MRC_UNWRITTEN_H */
