/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SRH_HEADER_H
#define MRC_SRH_HEADER_H

#include "mrc-usid.h"

#include "ns3/header.h"
#include "ns3/ipv6-address.h"

#include <array>
#include <cstdint>
#include <string>

/**
 * \file
 * \ingroup mrc
 * The IPv6 Segment Routing Header (RFC 8754), carrying uSID carriers.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * IPv6 Segment Routing Header (RFC 8754, routing type 4), without TLVs.
 *
 *     0               1               2               3
 *     | Next Header   | Hdr Ext Len   | Routing Type=4| Segments Left |
 *     | Last Entry    | Flags         | Tag                           |
 *     | Segment List[0] (128 bits) ... Segment List[n-1]              |
 *
 * Hdr Ext Len counts 8-octet units after the first 8 octets, so it is 2 n for
 * n segments and the header is 8 + 16 n bytes. The list is stored in reverse
 * path order: Segment List[0] is the last segment of the path. Segments Left
 * indexes the next segment to visit.
 *
 * The module uses the reduced form (RFC 8754 sec. 4.1.1): the first carrier of
 * a path is only in the IPv6 destination address, the SRH holds the others, so
 * for a path of n carriers Last Entry is n - 2 and Segments Left starts at
 * n - 1. The list is a fixed array (MAX_SEGMENTS), so copying the header does
 * not allocate.
 */
class MrcSrhHeader : public Header
{
  public:
    /// The SRH's routing type (RFC 8754).
    static constexpr uint8_t ROUTING_TYPE = 4;
    /// IPv6 next-header value of a routing header.
    static constexpr uint8_t PROTOCOL_NUMBER = 43;
    /// Largest segment list the model holds (our choice; 8 carriers name up to 48 switches).
    static constexpr uint32_t MAX_SEGMENTS = 8;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// An SRH with no segments, next header 41 (IPv6), flags and tag 0.
    MrcSrhHeader();

    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /**
     * Read an SRH the model made itself; aborts (with Check's message) on one it cannot
     * hold. Bytes of unknown origin go through TryDeserialize.
     * \param start where the SRH starts
     * \return bytes read
     */
    uint32_t Deserialize(Buffer::Iterator start) override;

    /**
     * Whether the bytes at `start` hold an SRH this class can read: 8 fixed bytes,
     * routing type 4, Hdr Ext Len = 2 x (Last Entry + 1) (no TLVs), at most
     * MAX_SEGMENTS segments, Segments Left <= the segment count, and every segment
     * present in the buffer.
     * \param start where the SRH starts
     * \return "" if so, else what is wrong
     */
    static std::string Check(Buffer::Iterator start);

    /**
     * Read an SRH of unknown origin: nothing is read past the buffer and nothing aborts.
     * \param start where the SRH starts
     * \return bytes read, or 0 (header unchanged) if Check rejects the bytes
     */
    uint32_t TryDeserialize(Buffer::Iterator start);

    /// \param nextHeader protocol number of the header after the SRH (41 for IPv6-in-IPv6)
    void SetNextHeader(uint8_t nextHeader);
    /// \return protocol number of the header after the SRH
    uint8_t GetNextHeader() const;

    /// \return Hdr Ext Len: 2 per segment (8-octet units after the first 8 octets)
    uint8_t GetHdrExtLen() const;

    /// \return the routing type, always 4
    uint8_t GetRoutingType() const;

    /**
     * \param segmentsLeft index of the next segment to visit; aborts if it exceeds
     *        the number of segments (the reduced form allows Last Entry + 1)
     */
    void SetSegmentsLeft(uint8_t segmentsLeft);
    /// \return Segments Left
    uint8_t GetSegmentsLeft() const;

    /// \return Last Entry: index of the last element of the segment list (aborts if empty)
    uint8_t GetLastEntry() const;

    /// \param flags the 8-bit flags field (no flag is defined by RFC 8754)
    void SetFlags(uint8_t flags);
    /// \return the flags field
    uint8_t GetFlags() const;

    /// \param tag the 16-bit tag field
    void SetTag(uint16_t tag);
    /// \return the tag field
    uint16_t GetTag() const;

    /// \return the number of segments in the list
    uint32_t GetNSegments() const;

    /**
     * Set the segment list in wire order (Segment List[0] first) and Segments
     * Left to the number of segments (reduced form, nothing visited yet).
     * Aborts if count is 0 or above MAX_SEGMENTS.
     * \param segments pointer to count carriers, Segment List[0] first
     * \param count number of segments
     */
    void SetSegmentList(const MrcUsidCarrier* segments, uint32_t count);

    /**
     * \param index a list index, 0 .. GetNSegments() - 1 (aborts otherwise)
     * \return Segment List[index]
     */
    const MrcUsidCarrier& GetSegment(uint32_t index) const;

    /**
     * \param index a list index, 0 .. GetNSegments() - 1 (aborts otherwise)
     * \return Segment List[index] as an IPv6 address
     */
    Ipv6Address GetSegmentAddress(uint32_t index) const;

    /**
     * Fill this SRH from a path of carriers in visiting order. path[0] is the
     * outer destination address (returned) and is not stored; path[1..count-1]
     * go into the list in reverse order, Segments Left = count - 1, next header 41.
     * Aborts if count < 2 (a one-carrier path needs no SRH) or count - 1 > MAX_SEGMENTS.
     * \param path the carriers in visiting order
     * \param count number of carriers
     * \return path[0], the carrier for the outer IPv6 destination address
     */
    MrcUsidCarrier SetPath(const MrcUsidCarrier* path, uint32_t count);

    /**
     * Act as an SRv6 endpoint whose carrier is exhausted: decrement Segments
     * Left and return the segment it now indexes, the new destination address.
     * Aborts if Segments Left is already 0.
     * \return Segment List[Segments Left - 1]
     */
    const MrcUsidCarrier& Advance();

  private:
    uint8_t m_nextHeader;                                //!< next header after the SRH
    uint8_t m_segmentsLeft;                              //!< Segments Left
    uint8_t m_flags;                                     //!< flags
    uint16_t m_tag;                                      //!< tag
    uint8_t m_nSegments;                                 //!< number of list entries
    std::array<MrcUsidCarrier, MAX_SEGMENTS> m_segments; //!< Segment List[0..n-1]
};

} // namespace ns3

#endif /* MRC_SRH_HEADER_H */
