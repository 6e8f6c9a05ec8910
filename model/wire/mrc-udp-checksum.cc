/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-udp-checksum.h"

#include "mrc-byte-io.h"
#include "mrc-packet-info.h"
#include "mrc-raw-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcUdpChecksum");

namespace
{

/// Offsets inside the IPv6 header.
constexpr uint32_t IPV6_SRC_OFFSET = 8;   //!< source address
constexpr uint32_t IPV6_ADDR_BYTES = 32;  //!< source and destination addresses
constexpr uint32_t UDP_LENGTH_OFFSET = 4; //!< length field in the UDP header

/// \return the scratch buffer used to flatten packets (grows, never shrinks)
std::vector<uint8_t>&
Scratch()
{
    static thread_local std::vector<uint8_t> buffer;
    return buffer;
}

/// \return the one's-complement sum (not folded) of bytes read as big-endian 16-bit words
uint64_t
Sum(const uint8_t* data, uint32_t size)
{
    uint64_t sum = 0;
    uint32_t i = 0;
    for (; i + 4 <= size; i += 4)
    {
        sum += MrcByteIo::ReadU32(data + i);
    }
    for (; i + 2 <= size; i += 2)
    {
        sum += MrcByteIo::ReadU16(data + i);
    }
    if (i < size)
    {
        sum += static_cast<uint32_t>(data[i]) << 8; // odd length: pad with a zero byte
    }
    return sum;
}

/// \return the 16-bit one's-complement fold of a sum
uint16_t
Fold(uint64_t sum)
{
    while (sum >> 16)
    {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return static_cast<uint16_t>(sum);
}

} // namespace

uint16_t
MrcUdpChecksum::Compute(const uint8_t* bytes, uint32_t size, uint32_t ipOffset, uint32_t udpOffset)
{
    NS_ABORT_MSG_IF(
        ipOffset + MRC_IPV6_HEADER_BYTES > size || udpOffset + MRC_UDP_HEADER_BYTES > size,
        "MrcUdpChecksum::Compute: a " << size << "-byte packet has no IPv6 header at " << ipOffset
                                      << " and UDP header at " << udpOffset);
    const uint8_t* udp = bytes + udpOffset;
    const uint32_t udpLength = MrcByteIo::ReadU16(udp + UDP_LENGTH_OFFSET);
    const uint32_t covered = std::min(udpLength, size - udpOffset);
    // Pseudo-header: source and destination addresses, upper-layer length, next header.
    uint64_t sum = Sum(bytes + ipOffset + IPV6_SRC_OFFSET, IPV6_ADDR_BYTES);
    sum += udpLength;
    sum += MrcIpProto::UDP;
    // The datagram, with the checksum field counted as zero.
    sum += Sum(udp, FIELD_OFFSET);
    sum += Sum(udp + MRC_UDP_HEADER_BYTES, covered - MRC_UDP_HEADER_BYTES);
    const uint16_t checksum = static_cast<uint16_t>(~Fold(sum));
    return checksum == 0 ? 0xffff : checksum;
}

void
MrcUdpChecksum::Fill(Ptr<Packet> p, uint32_t ipOffset, uint32_t udpOffset)
{
    const uint32_t head = udpOffset + MRC_UDP_HEADER_BYTES;
    NS_ABORT_MSG_IF(head > MrcRawHeader::MAX_BYTES,
                    "MrcUdpChecksum::Fill: UDP header at " << udpOffset << " is beyond the first "
                                                           << MrcRawHeader::MAX_BYTES << " bytes");
    const uint32_t size = p->GetSize();
    std::vector<uint8_t>& buffer = Scratch();
    if (buffer.size() < size)
    {
        buffer.resize(size);
    }
    p->CopyData(buffer.data(), size);
    const uint16_t checksum = Compute(buffer.data(), size, ipOffset, udpOffset);
    MrcRawHeader raw(head);
    std::copy(buffer.data(), buffer.data() + head, raw.Bytes());
    MrcByteIo::WriteU16(raw.Bytes() + udpOffset + FIELD_OFFSET, checksum);
    raw.ReplaceStartOf(p);
}

void
MrcUdpChecksum::Fill(Ptr<Packet> p)
{
    Fill(p, 0, MRC_IPV6_HEADER_BYTES);
}

uint16_t
MrcUdpChecksum::Read(Ptr<const Packet> p, uint32_t udpOffset)
{
    uint8_t field[2] = {0, 0};
    MrcRawHeader raw;
    if (!raw.CopyFrom(*p, udpOffset + MRC_UDP_HEADER_BYTES))
    {
        return 0;
    }
    std::copy(raw.Bytes() + udpOffset + FIELD_OFFSET,
              raw.Bytes() + udpOffset + FIELD_OFFSET + 2,
              field);
    return MrcByteIo::ReadU16(field);
}

bool
MrcUdpChecksum::Verify(Ptr<const Packet> p, uint32_t ipOffset, uint32_t udpOffset)
{
    const uint32_t size = p->GetSize();
    if (ipOffset + MRC_IPV6_HEADER_BYTES > size || udpOffset + MRC_UDP_HEADER_BYTES > size)
    {
        return false;
    }
    std::vector<uint8_t>& buffer = Scratch();
    if (buffer.size() < size)
    {
        buffer.resize(size);
    }
    p->CopyData(buffer.data(), size);
    const uint16_t carried = MrcByteIo::ReadU16(buffer.data() + udpOffset + FIELD_OFFSET);
    return carried != 0 && carried == Compute(buffer.data(), size, ipOffset, udpOffset);
}

} // namespace ns3
