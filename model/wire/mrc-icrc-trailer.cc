/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-icrc-trailer.h"

#include "mrc-byte-io.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <array>
#include <cstring>
#include <iomanip>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcIcrcTrailer");

NS_OBJECT_ENSURE_REGISTERED(MrcIcrcTrailer);

namespace
{

/// The bit-reflected form of the CRC-32 polynomial 0x04C11DB7.
constexpr uint32_t CRC32_REFLECTED_POLY = 0xedb88320;

/// Lookup tables for slicing-by-8: table k advances the register by k + 1 zero bytes.
struct Crc32Tables
{
    uint32_t t[8][256]; //!< the eight tables
};

/// \return the tables, computed at compile time
constexpr Crc32Tables
MakeCrc32Tables()
{
    Crc32Tables tables{};
    for (uint32_t n = 0; n < 256; ++n)
    {
        uint32_t c = n;
        for (int bit = 0; bit < 8; ++bit)
        {
            c = (c & 1) ? (c >> 1) ^ CRC32_REFLECTED_POLY : (c >> 1);
        }
        tables.t[0][n] = c;
    }
    for (uint32_t n = 0; n < 256; ++n)
    {
        for (int k = 1; k < 8; ++k)
        {
            uint32_t prev = tables.t[k - 1][n];
            tables.t[k][n] = (prev >> 8) ^ tables.t[0][prev & 0xff];
        }
    }
    return tables;
}

constexpr Crc32Tables g_crc32 = MakeCrc32Tables(); //!< the CRC-32 tables

// Offsets of the masked fields.
constexpr uint32_t IPV6_HEADER_SIZE = 40;     //!< fixed IPv6 header
constexpr uint32_t IPV4_MIN_HEADER_SIZE = 20; //!< IPv4 header without options
constexpr uint32_t IPV4_MAX_HEADER_SIZE = 60; //!< IPv4 header with the most options
constexpr uint32_t UDP_HEADER_SIZE = 8;       //!< UDP header
constexpr uint32_t BTH_SIZE = 12;             //!< Base Transport Header
constexpr uint8_t UDP_PROTOCOL = 17;          //!< IP protocol / next header of UDP

/// \return the scratch buffer used to flatten packets (grows, never shrinks)
std::vector<uint8_t>&
Scratch()
{
    static thread_local std::vector<uint8_t> buffer;
    return buffer;
}

} // namespace

MrcIcrcTrailer::MrcIcrcTrailer()
    : m_icrc(0)
{
}

MrcIcrcTrailer::MrcIcrcTrailer(uint32_t icrc)
    : m_icrc(icrc)
{
}

TypeId
MrcIcrcTrailer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcIcrcTrailer")
                            .SetParent<Trailer>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcIcrcTrailer>();
    return tid;
}

TypeId
MrcIcrcTrailer::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
MrcIcrcTrailer::GetSerializedSize() const
{
    return SERIALIZED_SIZE;
}

void
MrcIcrcTrailer::Serialize(Buffer::Iterator end) const
{
    end.Prev(SERIALIZED_SIZE);
    // Least significant byte first, built here and written at once (Buffer's little-endian
    // helpers are deprecated in ns-3.48 and their replacements do not exist in 3.37).
    uint8_t b[SERIALIZED_SIZE];
    MrcByteIo::WriteLeU32(b, m_icrc);
    end.Write(b, SERIALIZED_SIZE);
}

uint32_t
MrcIcrcTrailer::Deserialize(Buffer::Iterator end)
{
    end.Prev(SERIALIZED_SIZE);
    m_icrc = 0;
    for (uint32_t i = 0; i < SERIALIZED_SIZE; ++i)
    {
        m_icrc |= static_cast<uint32_t>(end.ReadU8()) << (8 * i);
    }
    return SERIALIZED_SIZE;
}

void
MrcIcrcTrailer::Print(std::ostream& os) const
{
    std::ios_base::fmtflags flags = os.flags();
    os << "icrc=0x" << std::hex << std::setfill('0') << std::setw(8) << m_icrc;
    os.flags(flags);
}

void
MrcIcrcTrailer::SetIcrc(uint32_t icrc)
{
    m_icrc = icrc;
}

uint32_t
MrcIcrcTrailer::GetIcrc() const
{
    return m_icrc;
}

uint32_t
MrcIcrcTrailer::Crc32Update(uint32_t state, const uint8_t* data, std::size_t size)
{
    const auto& t = g_crc32.t;
    uint32_t crc = state;
    // Eight bytes per step (slicing-by-8); byte order is explicit, so the
    // result does not depend on the host's endianness.
    while (size >= 8)
    {
        uint32_t lo = crc ^ MrcByteIo::ReadLeU32(data);
        uint32_t hi = MrcByteIo::ReadLeU32(data + 4);
        crc = t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^ t[5][(lo >> 16) & 0xff] ^ t[4][lo >> 24] ^
              t[3][hi & 0xff] ^ t[2][(hi >> 8) & 0xff] ^ t[1][(hi >> 16) & 0xff] ^ t[0][hi >> 24];
        data += 8;
        size -= 8;
    }
    while (size-- > 0)
    {
        crc = t[0][(crc ^ *data++) & 0xff] ^ (crc >> 8);
    }
    return crc;
}

uint32_t
MrcIcrcTrailer::Crc32(const uint8_t* data, std::size_t size)
{
    return ~Crc32Update(0xffffffff, data, size);
}

uint32_t
MrcIcrcTrailer::Compute(const uint8_t* ipPacket, uint32_t size)
{
    NS_ABORT_MSG_IF(size < 1, "ICRC: empty packet");
    const uint8_t version = ipPacket[0] >> 4;
    uint32_t ipSize = 0;
    uint8_t protocol = 0;
    if (version == 6)
    {
        ipSize = IPV6_HEADER_SIZE;
        protocol = size > 6 ? ipPacket[6] : 0;
    }
    else if (version == 4)
    {
        ipSize = (ipPacket[0] & 0x0f) * 4u;
        NS_ABORT_MSG_IF(ipSize < IPV4_MIN_HEADER_SIZE,
                        "ICRC: IPv4 header length " << ipSize << " bytes is below 20");
        protocol = size > 9 ? ipPacket[9] : 0;
    }
    else
    {
        NS_ABORT_MSG("ICRC: IP version " << unsigned(version)
                                         << " is not supported (the packet must start with an "
                                            "IPv6 or IPv4 header)");
    }
    const uint32_t headerSize = ipSize + UDP_HEADER_SIZE + BTH_SIZE;
    NS_ABORT_MSG_IF(size < headerSize,
                    "ICRC: packet of " << size << " bytes is shorter than IP + UDP + BTH ("
                                       << headerSize << " bytes)");
    NS_ABORT_MSG_IF(protocol != UDP_PROTOCOL,
                    "ICRC: IP next header " << unsigned(protocol)
                                            << " is not UDP (17); compute the ICRC over the "
                                               "innermost IP packet");

    // Copy the headers, mask the variant fields, and CRC the copy; the rest
    // of the packet is read in place.
    std::array<uint8_t, IPV4_MAX_HEADER_SIZE + UDP_HEADER_SIZE + BTH_SIZE> masked;
    std::memcpy(masked.data(), ipPacket, headerSize);
    if (version == 6)
    {
        masked[0] |= 0x0f; // traffic class, high nibble
        masked[1] = 0xff;  // traffic class, low nibble; flow label
        masked[2] = 0xff;  // flow label
        masked[3] = 0xff;  // flow label
        masked[7] = 0xff;  // hop limit
    }
    else
    {
        masked[1] = 0xff;  // type of service (DSCP and ECN)
        masked[8] = 0xff;  // TTL
        masked[10] = 0xff; // header checksum
        masked[11] = 0xff;
    }
    masked[ipSize + 6] = 0xff; // UDP checksum
    masked[ipSize + 7] = 0xff;
    masked[ipSize + UDP_HEADER_SIZE + 4] = 0xff; // BTH FECN, BECN, resv6

    uint32_t crc = Crc32Update(MASKED_LRH_STATE, masked.data(), headerSize);
    crc = Crc32Update(crc, ipPacket + headerSize, size - headerSize);
    return ~crc;
}

uint32_t
MrcIcrcTrailer::Compute(Ptr<const Packet> ipPacket)
{
    const uint32_t size = ipPacket->GetSize();
    std::vector<uint8_t>& buffer = Scratch();
    if (buffer.size() < size)
    {
        buffer.resize(size);
    }
    ipPacket->CopyData(buffer.data(), size);
    return Compute(buffer.data(), size);
}

bool
MrcIcrcTrailer::Verify(Ptr<const Packet> ipPacketWithIcrc)
{
    const uint32_t size = ipPacketWithIcrc->GetSize();
    if (size < SERIALIZED_SIZE)
    {
        return false;
    }
    std::vector<uint8_t>& buffer = Scratch();
    if (buffer.size() < size)
    {
        buffer.resize(size);
    }
    ipPacketWithIcrc->CopyData(buffer.data(), size);
    const uint8_t* tail = buffer.data() + size - SERIALIZED_SIZE;
    const uint32_t carried = MrcByteIo::ReadLeU32(tail);
    return Compute(buffer.data(), size - SERIALIZED_SIZE) == carried;
}

void
MrcIcrcTrailer::Append(Ptr<Packet> ipPacket)
{
    ipPacket->AddTrailer(MrcIcrcTrailer(Compute(ipPacket)));
}

} // namespace ns3
