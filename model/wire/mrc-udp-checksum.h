/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_UDP_CHECKSUM_H
#define MRC_UDP_CHECKSUM_H

#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * The UDP checksum of a RoCEv2 / MRC packet over IPv6: the Internet checksum
 * (RFC 768, RFC 1071) over the IPv6 pseudo-header (source, destination, UDP
 * length, next header 17; RFC 8200 section 8.1) and the whole UDP datagram, ICRC
 * included. A sum of zero is sent as 0xFFFF.
 *
 * RoCEv2 senders write 0 (IBTA Annex A17; the ICRC protects the packet and
 * masks the checksum), which is the model's default; a NIC fills it in when
 * ns3::MrcRdmaNic::ComputeUdpChecksum is true, so that packet captures pass
 * the IPv6 rule that a UDP checksum must not be zero. The ICRC masks the UDP
 * checksum, so the order ICRC first, checksum last is the only one that works.
 */

namespace ns3
{

/// The UDP checksum over IPv6.
namespace MrcUdpChecksum
{

/// Byte offset of the checksum field in the UDP header.
constexpr uint32_t FIELD_OFFSET = 6;

/**
 * \param bytes a packet, flattened
 * \param size its size in bytes
 * \param ipOffset offset of the IPv6 header whose payload is the UDP header (the innermost)
 * \param udpOffset offset of the UDP header
 * \return the checksum to write (never 0): over the pseudo-header built from the IPv6
 *         addresses and the UDP length field, and over the UDP length bytes from udpOffset
 *         (at most what the packet has), with the checksum field counted as zero
 */
uint16_t Compute(const uint8_t* bytes, uint32_t size, uint32_t ipOffset, uint32_t udpOffset);

/**
 * Compute the checksum of a packet and write it into its UDP header (one pass over
 * the packet; the bytes before the checksum field are rewritten in place, so
 * udpOffset + 8 must not exceed MrcRawHeader::MAX_BYTES).
 * \param p the packet
 * \param ipOffset offset of the IPv6 header that carries the UDP header
 * \param udpOffset offset of the UDP header (ipOffset + 40 without extension headers)
 */
void Fill(Ptr<Packet> p, uint32_t ipOffset, uint32_t udpOffset);

/**
 * \param p a packet from its IPv6 header on, UDP right after it (as a NIC builds it)
 */
void Fill(Ptr<Packet> p);

/**
 * \param p the packet
 * \param udpOffset offset of the UDP header
 * \return the checksum field as carried (0 when the packet is too short to hold it)
 */
uint16_t Read(Ptr<const Packet> p, uint32_t udpOffset);

/**
 * \param p the packet
 * \param ipOffset offset of the IPv6 header that carries the UDP header
 * \param udpOffset offset of the UDP header
 * \return true if the carried checksum is not zero and matches the computed one
 */
bool Verify(Ptr<const Packet> p, uint32_t ipOffset, uint32_t udpOffset);

} // namespace MrcUdpChecksum

} // namespace ns3

#endif /* MRC_UDP_CHECKSUM_H */
