/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RAW_HEADER_H
#define MRC_RAW_HEADER_H

#include "mrc-wire-header.h"

#include "ns3/assert.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * A header made of bytes its user has already laid out.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * A header that is a run of up to MAX_BYTES bytes, prepared by its user and written
 * to (or read from) a packet in one buffer operation.
 *
 * The per-packet paths use it where building a frame from header objects, or
 * parsing a header, changing one field and serializing it again, would cost more
 * than the bytes themselves: the link writes an Ethernet header (the MACs are cached
 * as bytes, so no Mac48Address conversion per frame), possibly followed by new
 * leading bytes of the packet; the switch rewrites an IPv6 destination address or
 * ECN bits in place; a NIC writes an IPv6 header and what follows it at once
 * (MrcAddIpv6Header). The bytes on the wire are those the equivalent ns-3 header
 * objects serialize to.
 *
 * The bytes are not initialized: a user fills the first GetSize() of them. The
 * layout only changes what Print shows (the packet metadata, when printing is on).
 *
 * The per-frame paths keep one object per call site (a function-local static, see
 * MrcScratchHeader) instead of a new one per frame: an ns-3 Header's destructor logs twice
 * (Header and ObjectBase), about 60 instructions a header in Debian's ns-3.37 build, which
 * is more than writing its bytes. AddHeader copies the bytes, so the object can be reused
 * at once; the simulator runs one event at a time, so a site is never re-entered while it
 * fills its object.
 */
class MrcRawHeader : public MrcWireHeader
{
  public:
    /// Bytes of an Ethernet header without preamble and FCS: destination, source, type.
    static constexpr uint32_t ETHERNET_BYTES = 14;
    /// Room for an Ethernet header followed by the first 64 bytes of its packet.
    static constexpr uint32_t MAX_BYTES = ETHERNET_BYTES + 64;
    static_assert(MAX_BYTES <= MrcWireHeader::MAX_SERIALIZED_SIZE,
                  "a raw header fits the room MrcWireHeader::Serialize keeps");

    /// What the bytes are, for Print.
    enum Layout : uint8_t
    {
        OPAQUE,   //!< any bytes: printed as their count and hex
        ETHERNET, //!< an Ethernet header (destination, source, type), possibly more bytes
    };

    /**
     * \param size bytes used (at most MAX_BYTES)
     * \param layout what they are, for Print
     */
    explicit MrcRawHeader(uint32_t size = 0, Layout layout = OPAQUE)
        : m_size(size),
          m_layout(layout)
    {
        NS_ASSERT_MSG(size <= MAX_BYTES,
                      "MrcRawHeader: " << size << " bytes; at most " << MAX_BYTES);
    }

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void WriteTo(uint8_t* out) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /// \return the bytes (MAX_BYTES of room; the first GetSize() are the header)
    uint8_t* Bytes()
    {
        return m_bytes;
    }

    /// \return the bytes (the first GetSize() are the header)
    const uint8_t* Bytes() const
    {
        return m_bytes;
    }

    /// \return how many bytes the header has
    uint32_t GetSize() const
    {
        return m_size;
    }

    /// \param size how many bytes the header has (at most MAX_BYTES)
    void SetSize(uint32_t size)
    {
        NS_ASSERT_MSG(size <= MAX_BYTES,
                      "MrcRawHeader: " << size << " bytes; at most " << MAX_BYTES);
        m_size = size;
    }

    /// \return what the bytes are, for Print
    Layout GetLayout() const
    {
        return m_layout;
    }

    /// \param layout what the bytes are, for Print
    void SetLayout(Layout layout)
    {
        m_layout = layout;
    }

    /**
     * Copy the first `size` bytes of a packet into the header (which then has `size`
     * bytes).
     * \param p the packet
     * \param size bytes to copy (at most MAX_BYTES)
     * \return false if the packet is shorter (the header then holds what it has)
     */
    bool CopyFrom(const Packet& p, uint32_t size)
    {
        SetSize(size);
        return p.CopyData(m_bytes, size) == size;
    }

    /**
     * Replace the first GetSize() bytes of a packet, which must have them, by the
     * header's: the bytes are rewritten in place, as far as the packet is concerned.
     * \param p the packet
     */
    void ReplaceStartOf(const Ptr<Packet>& p) const
    {
        p->RemoveAtStart(m_size);
        p->AddHeader(*this);
    }

  protected:
    /// \return the bytes: on its own the header is written from them, without a copy
    const uint8_t* GetWireBytes() const override
    {
        return m_bytes;
    }

  private:
    uint8_t m_bytes[MAX_BYTES]; //!< the bytes; the first m_size are used
    uint32_t m_size;            //!< bytes used
    Layout m_layout;            //!< what they are, for Print
};

/**
 * \ingroup mrc
 * Make a call site's reusable raw header ready for the next frame (see MrcRawHeader).
 * \param h the site's header (a function-local static)
 * \param size bytes used (at most MrcRawHeader::MAX_BYTES)
 * \param layout what they are, for Print
 * \return h
 */
inline MrcRawHeader&
MrcScratchHeader(MrcRawHeader& h, uint32_t size, MrcRawHeader::Layout layout)
{
    h.SetSize(size);
    h.SetLayout(layout);
    return h;
}

} // namespace ns3

#endif /* MRC_RAW_HEADER_H */
