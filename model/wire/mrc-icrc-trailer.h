/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_ICRC_TRAILER_H
#define MRC_ICRC_TRAILER_H

#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/trailer.h"

#include <cstddef>
#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * The RoCEv2 Invariant CRC (ICRC) trailer and its computation.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * The 4-byte Invariant CRC that ends every RoCEv2 (and MRC) packet, computed
 * as IBTA Annex A17 (RoCEv2) prescribes.
 *
 * The ICRC is the Ethernet CRC-32 (polynomial 0x04C11DB7, bit-reflected,
 * register preset to all ones, result complemented) over:
 *   1. eight bytes of 0xFF, standing for InfiniBand's masked LRH;
 *   2. the IP header, with the fields that routers may change set to all ones:
 *      IPv6 traffic class, flow label and hop limit; IPv4 type of service,
 *      TTL and header checksum;
 *   3. the UDP header, with its checksum set to all ones;
 *   4. the BTH, with its byte 4 (FECN, BECN and six reserved bits; IBA's
 *      "resv8a") set to all ones;
 *   5. every byte after the BTH: extension headers, payload and pad bytes.
 *
 * Like the Ethernet FCS, the result is sent least significant byte first:
 * GetIcrc() returns the CRC as a number and Serialize() writes its low byte
 * first. (Wireshark shows the four bytes as they appear, i.e. byte-swapped.)
 *
 * The computation is checked against ICRCs captured on NVIDIA ConnectX NICs
 * (tests in test/mrc-roce-headers-test.cc).
 */
class MrcIcrcTrailer : public Trailer
{
  public:
    static constexpr uint32_t SERIALIZED_SIZE = 4; //!< bytes on the wire
    /// CRC register after eight bytes of 0xFF (the masked LRH), from the all-ones preset
    static constexpr uint32_t MASKED_LRH_STATE = 0xdebb20e3;

    MrcIcrcTrailer();
    /// \param icrc the ICRC value
    explicit MrcIcrcTrailer(uint32_t icrc);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator end) const override;
    uint32_t Deserialize(Buffer::Iterator end) override;
    void Print(std::ostream& os) const override;

    /// \param icrc the ICRC value (as a number; sent least significant byte first)
    void SetIcrc(uint32_t icrc);
    /// \return the ICRC value
    uint32_t GetIcrc() const;

    /**
     * Compute the ICRC of a packet.
     * \param ipPacket the packet from its IP header (IPv6, or IPv4) up to, not
     *        including, the ICRC. The IP header must be followed directly by
     *        UDP and the BTH; the IP and UDP length fields must already count
     *        the four ICRC bytes. Aborts when the packet is not of that form.
     * \return the ICRC value
     */
    static uint32_t Compute(Ptr<const Packet> ipPacket);

    /**
     * Compute the ICRC over bytes, as Compute(Ptr<const Packet>).
     * \param ipPacket the bytes from the IP header up to, not including, the ICRC
     * \param size the number of bytes
     * \return the ICRC value
     */
    static uint32_t Compute(const uint8_t* ipPacket, uint32_t size);

    /**
     * \param ipPacketWithIcrc a packet from its IP header to its ICRC, inclusive
     * \return true if its last four bytes are the right ICRC for the rest
     */
    static bool Verify(Ptr<const Packet> ipPacketWithIcrc);

    /**
     * Compute the ICRC of a packet and add it as a trailer.
     * \param ipPacket the packet from its IP header, as for Compute()
     */
    static void Append(Ptr<Packet> ipPacket);

    /**
     * Run the reflected CRC-32 register over bytes, without the preset and
     * the final complement (the building block of the ICRC).
     * \param state the register before the bytes
     * \param data the bytes
     * \param size the number of bytes
     * \return the register after the bytes
     */
    static uint32_t Crc32Update(uint32_t state, const uint8_t* data, std::size_t size);

    /**
     * The standard CRC-32 (as the Ethernet FCS and zlib's crc32).
     * \param data the bytes
     * \param size the number of bytes
     * \return the CRC
     */
    static uint32_t Crc32(const uint8_t* data, std::size_t size);

  private:
    uint32_t m_icrc; //!< the ICRC value
};

} // namespace ns3

#endif /* MRC_ICRC_TRAILER_H */
