/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_WIRE_HEADER_H
#define MRC_WIRE_HEADER_H

#include "ns3/header.h"

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * The base class of the module's headers that lay out their bytes in plain memory.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * A header that writes its bytes into a plain byte array (WriteTo) rather than through
 * an ns3::Buffer::Iterator.
 *
 * Serialize is implemented once, here: the header's bytes are built in a stack array
 * and handed to the buffer with a single Buffer::Iterator::Write (or written from where
 * they are, for a header that keeps them ready: GetWireBytes). More useful still,
 * several such headers put into a packet with one AddHeader (MrcAddHeaders,
 * MrcAddIpv6Header) are all written into one array and reach the buffer with one Write,
 * instead of one Write, one iterator copy and one virtual Serialize per header (in
 * Debian's ns-3.37 build each Write checks logging and asserts its bounds).
 *
 * A subclass implements WriteTo, GetSerializedSize (at most MAX_SERIALIZED_SIZE
 * bytes), Deserialize, Print and its TypeId; it does not override Serialize.
 */
class MrcWireHeader : public Header
{
  public:
    /// Most bytes a single header may serialize to (the room Serialize keeps on the stack).
    static constexpr uint32_t MAX_SERIALIZED_SIZE = 128;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * Write the header's wire bytes, exactly GetSerializedSize() of them, the same
     * bytes Serialize puts into a packet.
     * \param out where the bytes go (room for GetSerializedSize() bytes; no alignment
     *        needed)
     */
    virtual void WriteTo(uint8_t* out) const = 0;

    /**
     * Write the header at start: WriteTo into a stack array, then one Write (or one Write
     * of GetWireBytes, if not null). Aborts if the header is larger than
     * MAX_SERIALIZED_SIZE.
     * \param start where the header's bytes go
     */
    void Serialize(Buffer::Iterator start) const final;

  protected:
    /**
     * For a header that keeps its wire bytes in memory as they are (MrcRawHeader): on its
     * own, Serialize then writes them as they are, without laying them out again (in a
     * sequence, WriteTo still copies them next to the other headers).
     * \return the header's GetSerializedSize() bytes as they go on the wire, or null (the
     *         default: the bytes are laid out by WriteTo)
     */
    virtual const uint8_t* GetWireBytes() const
    {
        return nullptr;
    }
};

/**
 * \ingroup mrc
 * A call site's reusable header, made equal to a new one. The per-packet paths of the
 * transports keep one header object per call site (a function-local static) instead of
 * a new one per packet: an ns-3 Header's destructor logs twice (Header and ObjectBase),
 * about 60 instructions a header in Debian's ns-3.37 build, more than setting its fields
 * and writing its bytes. Copying a blank header's fields calls no constructor and no
 * destructor, so nothing a packet before set is left over.
 *
 * A site's object is in use from this call until the packet has its bytes (AddHeader
 * copies them) or the site has read its fields. The simulator runs one event at a time
 * and no site calls back into itself in that span, so a site's object is never taken
 * again while it is in use. Two sites never share an object.
 * 	param H the header class (copy-assignable, default-constructible)
 * \param scratch the site's header (a function-local static)
 * eturn scratch, with the fields of a default-constructed H
 */
template <class H>
H&
MrcFreshHeader(H& scratch)
{
    static const H blank;
    scratch = blank;
    return scratch;
}

} // namespace ns3

#endif /* MRC_WIRE_HEADER_H */
