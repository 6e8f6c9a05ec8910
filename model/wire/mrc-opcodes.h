/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_OPCODES_H
#define MRC_OPCODES_H

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * Base Transport Header opcodes of InfiniBand RC (as carried by RoCEv2) and of MRC.
 *
 * RC opcodes: InfiniBand Architecture Specification vol. 1, Table 38 (transport
 * RC = 000b in the three high bits). CNP: RoCEv2 Annex A17.9.2. MRC opcodes sit in
 * the manufacturer-specific range 0xC0-0xFF; values as transcribed from OCP MRC
 * 1.0 by third parties (see doc/mrc.rst, "Wire formats").
 */

namespace ns3
{

/// BTH opcodes used by the module.
namespace MrcOpcode
{
// InfiniBand Reliable Connection (RoCEv2 RC)
constexpr uint8_t RC_SEND_FIRST = 0x00;
constexpr uint8_t RC_SEND_MIDDLE = 0x01;
constexpr uint8_t RC_SEND_LAST = 0x02;
constexpr uint8_t RC_SEND_ONLY = 0x04;
constexpr uint8_t RC_WRITE_FIRST = 0x06;
constexpr uint8_t RC_WRITE_MIDDLE = 0x07;
constexpr uint8_t RC_WRITE_LAST = 0x08;
constexpr uint8_t RC_WRITE_LAST_IMM = 0x09;
constexpr uint8_t RC_WRITE_ONLY = 0x0a;
constexpr uint8_t RC_WRITE_ONLY_IMM = 0x0b;
constexpr uint8_t RC_ACK = 0x11;
constexpr uint8_t ROCE_CNP = 0x81; ///< RoCEv2 congestion notification packet

// MRC (manufacturer-specific range)
constexpr uint8_t MRC_WRITE_FIRST = 0xc6;
constexpr uint8_t MRC_WRITE_MIDDLE = 0xc7;
constexpr uint8_t MRC_WRITE_LAST = 0xc8;
constexpr uint8_t MRC_WRITE_LAST_IMM = 0xc9;
constexpr uint8_t MRC_WRITE_ONLY = 0xca;
constexpr uint8_t MRC_WRITE_ONLY_IMM = 0xcb;
constexpr uint8_t MRC_TRANSPORT_ACK = 0xd1;
constexpr uint8_t MRC_ENDPOINT_REQUEST = 0xd8;
constexpr uint8_t MRC_ENDPOINT_RESPONSE = 0xd9;
constexpr uint8_t MRC_SACK = 0xdc;
constexpr uint8_t MRC_NACK = 0xdd;
constexpr uint8_t MRC_PROBE = 0xde;

/**
 * The Write opcode of one packet of a message, in the RoCEv2 RC family (mrc = false) or the
 * MRC family (mrc = true): FIRST, MIDDLE, LAST or LAST_IMM, ONLY or ONLY_IMM. Both families
 * lay these six opcodes out consecutively in that order.
 * \param mrc the MRC family instead of RC
 * \param first the packet is the message's first
 * \param last the packet is the message's last
 * \param imm the message is a Write with Immediate
 * \return the opcode
 */
constexpr uint8_t
WriteOpcode(bool mrc, bool first, bool last, bool imm)
{
    const uint8_t base = mrc ? MRC_WRITE_FIRST : RC_WRITE_FIRST;
    if (first && last)
    {
        return base + (imm ? 5 : 4);
    }
    if (last)
    {
        return base + (imm ? 3 : 2);
    }
    return first ? base : base + 1;
}

static_assert(WriteOpcode(false, true, true, true) == RC_WRITE_ONLY_IMM &&
                  WriteOpcode(false, false, true, false) == RC_WRITE_LAST &&
                  WriteOpcode(false, false, false, false) == RC_WRITE_MIDDLE &&
                  WriteOpcode(true, true, false, false) == MRC_WRITE_FIRST &&
                  WriteOpcode(true, false, true, true) == MRC_WRITE_LAST_IMM &&
                  WriteOpcode(true, true, true, false) == MRC_WRITE_ONLY,
              "Write opcodes must be consecutive in both families");

/// \return true for the MRC opcode range 0xC6-0xDE
constexpr bool
IsMrc(uint8_t op)
{
    return op >= MRC_WRITE_FIRST && op <= MRC_PROBE;
}

/// \return true for an RC or MRC Write opcode (first, middle, last, only, with or without imm)
constexpr bool
IsWrite(uint8_t op)
{
    return (op >= RC_WRITE_FIRST && op <= RC_WRITE_ONLY_IMM) ||
           (op >= MRC_WRITE_FIRST && op <= MRC_WRITE_ONLY_IMM);
}

/// \return true for a Write opcode that carries Immediate Data
constexpr bool
HasImmediate(uint8_t op)
{
    return op == RC_WRITE_LAST_IMM || op == RC_WRITE_ONLY_IMM || op == MRC_WRITE_LAST_IMM ||
           op == MRC_WRITE_ONLY_IMM;
}

/// \return true for a Write opcode that begins a message (first or only)
constexpr bool
StartsMessage(uint8_t op)
{
    return op == RC_WRITE_FIRST || op == RC_WRITE_ONLY || op == RC_WRITE_ONLY_IMM ||
           op == MRC_WRITE_FIRST || op == MRC_WRITE_ONLY || op == MRC_WRITE_ONLY_IMM;
}

/// \return true for a Write opcode that ends a message (last or only)
constexpr bool
EndsMessage(uint8_t op)
{
    return op == RC_WRITE_LAST || op == RC_WRITE_LAST_IMM || op == RC_WRITE_ONLY ||
           op == RC_WRITE_ONLY_IMM || op == MRC_WRITE_LAST || op == MRC_WRITE_LAST_IMM ||
           op == MRC_WRITE_ONLY || op == MRC_WRITE_ONLY_IMM;
}
} // namespace MrcOpcode

/// UDP destination port of RoCEv2 (IANA). MRC uses it too by default (see doc/mrc.rst).
constexpr uint16_t MRC_ROCEV2_UDP_PORT = 4791;

} // namespace ns3

#endif /* MRC_OPCODES_H */
