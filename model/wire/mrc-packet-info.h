/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PACKET_INFO_H
#define MRC_PACKET_INFO_H

#include "mrc-opcodes.h"
#include "mrc-traffic-class.h"
#include "mrc-wire-header.h"

#include "ns3/header.h"
#include "ns3/ipv6-address.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <ostream>

/**
 * \file
 * \ingroup mrc
 * One-pass parse of a packet that starts at its (outer) IPv6 header: what a switch
 * needs to admit, mark, trim and forward it.
 */

namespace ns3
{

/// IPv6 next-header values the parser understands (IANA protocol numbers).
namespace MrcIpProto
{
constexpr uint8_t HOP_BY_HOP = 0;    ///< IPv6 Hop-by-Hop Options
constexpr uint8_t UDP = 17;          ///< UDP
constexpr uint8_t IPV6 = 41;         ///< IPv6 encapsulated in IPv6
constexpr uint8_t ROUTING = 43;      ///< IPv6 Routing header (SRH is routing type 4)
constexpr uint8_t DEST_OPTIONS = 60; ///< IPv6 Destination Options
} // namespace MrcIpProto

/// Routing type of the Segment Routing Header (RFC 8754).
constexpr uint8_t MRC_SRH_ROUTING_TYPE = 4;

/// Size of a (fixed) IPv6 header in bytes.
constexpr uint32_t MRC_IPV6_HEADER_BYTES = 40;
/// Size of a UDP header in bytes.
constexpr uint32_t MRC_UDP_HEADER_BYTES = 8;
/// Size of the InfiniBand Base Transport Header in bytes.
constexpr uint32_t MRC_BTH_BYTES = 12;

/**
 * Offset, inside the BTH, of the byte that carries MRC's per-packet flags: A (ack
 * request, 0x80), RTX (retransmission, 0x20) and TS (TSETH present, 0x10). In
 * InfiniBand RC this byte holds the AckReq bit and reserved bits. Layout as
 * transcribed from OCP MRC 1.0 by MRC-Client (core/mrc_headers.py).
 */
constexpr uint32_t MRC_BTH_FLAGS_OFFSET = 8;

/**
 * TS flag in the BTH flags byte (MRC_BTH_FLAGS_OFFSET): a TSETH follows METH.
 * It MUST match the TS bit used by the BTH header class (wire formats: InfiniBand /
 * RoCEv2); the switch reads the byte directly, without that class.
 */
constexpr uint8_t MRC_BTH_FLAG_TS = 0x10;

/**
 * \ingroup mrc
 * Length of the transport extension headers that follow the BTH, from the opcode.
 *
 * RC Write First/Only: RETH 16; Write Only with Imm: RETH 16 + ImmDt 4; Write Last
 * with Imm: ImmDt 4; RC ACK: AETH 4; RoCEv2 CNP: 16 reserved bytes; MRC data
 * (0xC6-0xCB): METH 4 + [TSETH 4 if MRC_BTH_FLAG_TS] + RETH 16 + [ImmDt 4 for 0xC9 and
 * 0xCB]; MRC Transport ACK 0xD1: AETH 4; SACK 0xDC: SETH 28 + CC_STATE 8; NACK 0xDD:
 * NETH 20; probe 0xDE: PETH 16. Any other opcode: 0 (BTH only).
 *
 * \param opcode BTH opcode
 * \param bthFlags the BTH byte at MRC_BTH_FLAGS_OFFSET
 * \return bytes of extension headers after the 12-byte BTH
 */
uint32_t MrcTransportExtensionBytes(uint8_t opcode, uint8_t bthFlags);

/**
 * \ingroup mrc
 * An IPv6 address as its 16 bytes in network order, as the per-packet path reads,
 * compares, hashes and rewrites it. Unlike ns3::Ipv6Address (whose constructors,
 * destructor and accessors are library calls that also check the log level), it is
 * trivially copyable and costs nothing to create; ToAddress() gives the Ipv6Address.
 */
struct MrcIpv6Bytes
{
    uint8_t bytes[16]{}; //!< the address, network order

    MrcIpv6Bytes() = default;

    /**
     * The bytes of an address (implicit, so that code and tests may assign an
     * Ipv6Address to a parse result's field).
     * \param address the address
     */
    MrcIpv6Bytes(const Ipv6Address& address); // NOLINT(google-explicit-constructor)

    /**
     * \param buf 16 bytes in network order
     * \return the address they hold
     */
    static MrcIpv6Bytes FromBytes(const uint8_t* buf)
    {
        MrcIpv6Bytes a;
        std::memcpy(a.bytes, buf, sizeof(a.bytes));
        return a;
    }

    /// \return the address as an ns3::Ipv6Address
    Ipv6Address ToAddress() const;

    /// \param a an address \param b another \return true if they are the same 16 bytes
    friend bool operator==(const MrcIpv6Bytes& a, const MrcIpv6Bytes& b)
    {
        return std::memcmp(a.bytes, b.bytes, sizeof(a.bytes)) == 0;
    }

    /// \param a an address \param b another \return true if they differ
    friend bool operator!=(const MrcIpv6Bytes& a, const MrcIpv6Bytes& b)
    {
        return !(a == b);
    }

    /// \param a an address \param b another \return true if a sorts first (byte order)
    friend bool operator<(const MrcIpv6Bytes& a, const MrcIpv6Bytes& b)
    {
        return std::memcmp(a.bytes, b.bytes, sizeof(a.bytes)) < 0;
    }
};

/**
 * Print the address as ns3::Ipv6Address prints it.
 * \param os the stream \param a the address \return the stream
 */
std::ostream& operator<<(std::ostream& os, const MrcIpv6Bytes& a);

/**
 * \ingroup mrc
 * What one parse of a packet found, from its outer IPv6 header down to the
 * transport's extension headers. Offsets count bytes from the start of the packet
 * (the outer IPv6 header). A flag says whether each optional part is present; the
 * fields of an absent part are zero.
 */
struct MrcPacketInfo
{
    // Outer IPv6 header
    MrcIpv6Bytes src;          //!< outer source address
    MrcIpv6Bytes dst;          //!< outer destination address (the uSID carrier in SRv6 mode)
    uint32_t flowLabel{0};     //!< outer flow label (20 bits)
    uint32_t packetBytes{0};   //!< size of the whole packet
    uint16_t payloadLength{0}; //!< outer IPv6 payload length field
    uint8_t trafficClass{0};   //!< outer traffic class octet (DSCP << 2 | ECN)
    uint8_t nextHeader{0};     //!< outer next-header field
    uint8_t hopLimit{0};       //!< outer hop limit

    // Segment Routing Header (routing header type 4) after the outer header
    bool hasSrh{false};         //!< an SRH follows the outer header
    uint8_t srhSegmentsLeft{0}; //!< the SRH's Segments Left field
    uint16_t srhOffset{0};      //!< offset of the SRH
    uint16_t srhLength{0};      //!< length of the SRH in bytes

    // Inner IPv6 header (IPv6-in-IPv6, next header 41)
    bool encapsulated{false};       //!< an inner IPv6 header follows
    uint8_t innerTrafficClass{0};   //!< inner traffic class octet
    uint16_t innerOffset{0};        //!< offset of the inner IPv6 header
    uint16_t innerPayloadLength{0}; //!< inner IPv6 payload length field
    uint32_t innerFlowLabel{0};     //!< inner flow label
    MrcIpv6Bytes innerSrc;          //!< inner source address
    MrcIpv6Bytes innerDst;          //!< inner destination address

    // UDP
    bool hasUdp{false};     //!< a UDP header follows the (innermost) IPv6 header
    uint16_t udpOffset{0};  //!< offset of the UDP header
    uint16_t udpSrcPort{0}; //!< UDP source port
    uint16_t udpDstPort{0}; //!< UDP destination port

    // InfiniBand BTH (UDP destination port = the configured RoCEv2/MRC port)
    bool hasBth{false};    //!< a BTH follows the UDP header
    uint8_t opcode{0};     //!< BTH opcode
    uint8_t bthFlags{0};   //!< BTH byte at MRC_BTH_FLAGS_OFFSET (A, RTX, TS flags in MRC)
    uint16_t bthOffset{0}; //!< offset of the BTH

    /**
     * Bytes from the start of the packet through the last header: the transport's
     * extension headers when there is a BTH, else the UDP header, else the last IPv6
     * header or extension header.
     */
    uint16_t headerBytes{0};

    /// Set by a forwarding strategy when it changed `dst`: the switch must write it
    /// into the packet (see MrcWriteDestination).
    bool rewriteDst{false};

    /// With rewriteDst: how many uN shifts (MrcUsidCarrier::Shift) the forwarding applied to
    /// `dst`, and nothing else, so that the switch may carry them beside the packet instead
    /// of writing them (MrcNetDevice::SendToClass); DST_REWRITTEN if it changed `dst`
    /// otherwise.
    uint8_t dstShifts{0};

    /// dstShifts of a destination changed by other means than uN shifts
    static constexpr uint8_t DST_REWRITTEN = 0xff;

    /// \return the outer DSCP
    uint8_t GetDscp() const
    {
        return MrcDscpOf(trafficClass);
    }

    /// \return the outer ECN codepoint
    MrcEcn GetEcn() const
    {
        return MrcEcnOf(trafficClass);
    }

    /// \return the offset of the IPv6 header that carries UDP (the inner one when encapsulated)
    uint16_t GetInnermostIpv6Offset() const
    {
        return encapsulated ? innerOffset : 0;
    }

    /**
     * Every field equal (the tests and the "packet" fuzz target compare two parses of
     * one packet with it). A field added above must be added here too.
     * \param o another parse result \return true if every field holds the same value
     */
    bool operator==(const MrcPacketInfo& o) const;
};

/**
 * \ingroup mrc
 * Parse a packet that starts at its outer IPv6 header, once, without allocating.
 *
 * Reads the outer IPv6 header, skips Hop-by-Hop, Routing and Destination Options
 * extension headers (recording an SRH), an inner IPv6 header (next header 41), UDP,
 * and, when the UDP destination port is `bthUdpPort`, the BTH opcode and flags byte;
 * then computes `headerBytes` from the opcode (MrcTransportExtensionBytes).
 *
 * \param p the packet, starting at the outer IPv6 header
 * \param out filled in (all fields reset first)
 * \param bthUdpPort UDP destination port that announces a BTH (RoCEv2 4791 by default)
 * \return false if the packet is not IPv6, or is shorter than the headers it announces
 *         (out then holds what was read so far)
 */
bool MrcParsePacket(Ptr<const Packet> p,
                    MrcPacketInfo& out,
                    uint16_t bthUdpPort = MRC_ROCEV2_UDP_PORT);

/**
 * \ingroup mrc
 * MrcParsePacket on bytes already read from the packet (a device's MrcRxHead): the
 * packet is read again only if its headers go beyond them. Same result as
 * MrcParsePacket(p, out, bthUdpPort).
 *
 * \param p the packet, starting at the outer IPv6 header
 * \param head its first `headBytes` bytes
 * \param headBytes how many; at most the packet's size
 * \param out filled in (all fields reset first)
 * \param bthUdpPort UDP destination port that announces a BTH
 * \param edits edits of the outer IPv6 header (MRC_IPV6_EDIT_CE) that the packet lacks and
 *        `head` has (MrcRxHead::edits): applied again if the packet is read again
 * \return as MrcParsePacket
 */
bool MrcParsePacket(const Packet& p,
                    const uint8_t* head,
                    uint32_t headBytes,
                    MrcPacketInfo& out,
                    uint16_t bthUdpPort = MRC_ROCEV2_UDP_PORT,
                    uint8_t edits = 0);

/**
 * \ingroup mrc
 * Write `info.dst` into the packet's outer IPv6 destination address, in place.
 * \param p the packet, starting at the outer IPv6 header
 * \param info parsed info whose dst is to be written
 */
void MrcWriteDestination(Ptr<Packet> p, const MrcPacketInfo& info);

/**
 * \ingroup mrc
 * Edits of an outer IPv6 header that switches carry beside a packet instead of writing
 * them (MrcNetDevice::SendToClass), 4 bits: bits 0-2, uN shifts of the destination
 * (MrcUsidCarrier::ShiftAddress, 0-7); bit 3 (MRC_IPV6_EDIT_CE), the ECN field set to CE
 * (Congestion Experienced) if it is ECN-capable (a dequeue-time mark, as MrcMarkCeInPlace).
 */
constexpr uint8_t MRC_IPV6_EDIT_SHIFTS = 0x07; //!< the edits' shift count
constexpr uint8_t MRC_IPV6_EDIT_CE = 0x08;     //!< the edits' CE mark

/**
 * \ingroup mrc
 * Apply carried edits (MRC_IPV6_EDIT_CE) to bytes read from a packet.
 * \param ip the 40 bytes of the outer IPv6 header
 * \param edits the edits (0: nothing)
 */
void MrcApplyIpv6Edits(uint8_t* ip, uint8_t edits);

/**
 * \ingroup mrc
 * Write carried edits (MRC_IPV6_EDIT_CE) into the packet's outer IPv6 header, in place: what
 * switches carried beside the packet, written where something reads the packet's bytes.
 * \param p the packet, starting at the outer IPv6 header
 * \param edits the edits (0: nothing)
 */
void MrcWriteIpv6Edits(const Ptr<Packet>& p, uint8_t edits);

/**
 * \ingroup mrc
 * The packet's outer IPv6 header with `info.dst` as its destination address, for a
 * sender that writes it itself (MrcNetDevice::SendToClassReplacing). The bytes are
 * rebuilt from what MrcParsePacket read (version 6, traffic class, flow label, payload
 * length, next header, hop limit, source), without reading the packet again; they are
 * the packet's own unless a field of `info` other than `dst` was changed since.
 * \param info parsed info whose dst is to be written
 * \param out the 40 header bytes
 */
void MrcIpv6WithDestination(const MrcPacketInfo& info, uint8_t* out);

/**
 * \ingroup mrc
 * Set the ECN field of an IPv6 header inside a packet to CE (RFC 3168) if it is
 * ECN-capable, rewriting only the bytes up to the traffic class in place (the
 * same bytes as removing, marking and re-adding an Ipv6Header).
 * \param p the packet
 * \param ipOffset offset of the IPv6 header (0: the packet starts with it; 14:
 *        after an Ethernet header)
 * \return true if the header is ECN-capable (it is now CE), false if it is
 *         Not-ECT or the packet is too short
 */
bool MrcMarkCeInPlace(Ptr<Packet> p, uint32_t ipOffset);

/// Fields of a fixed IPv6 header (RFC 8200 section 3), for MrcAddIpv6Header.
struct MrcIpv6Fields
{
    uint8_t trafficClass{0};   //!< DSCP and ECN
    uint32_t flowLabel{0};     //!< 20-bit flow label
    uint16_t payloadLength{0}; //!< bytes after the fixed header
    uint8_t nextHeader{0};     //!< protocol of what follows
    uint8_t hopLimit{64};      //!< hop limit
    MrcIpv6Bytes src;          //!< source address
    MrcIpv6Bytes dst;          //!< destination address
};

/// Largest `followingBytes` MrcAddIpv6Header accepts.
constexpr uint32_t MRC_MAX_FOLLOWING_BYTES = 24;

/**
 * \ingroup mrc
 * Prepend a fixed IPv6 header, optionally followed by a few more header bytes (a UDP
 * header, say), with a single Packet::AddHeader. The bytes are those an
 * ns3::Ipv6Header with the same fields serializes to; one buffer write instead of
 * one per header object keeps the per-packet cost of building a frame down.
 * \param p the packet
 * \param ip the IPv6 fields (flow label must fit in 20 bits)
 * \param following bytes to place right after the IPv6 header (may be null)
 * \param followingBytes how many (at most MRC_MAX_FOLLOWING_BYTES)
 * \param ethernet an Ethernet header to place before the IPv6 header
 *        (MrcRawHeader::ETHERNET_BYTES bytes, from MrcNetDevice::WriteEthernetHeader), or
 *        null for none; with it the result is a whole frame for MrcNetDevice::SendFramed,
 *        and the Ethernet header costs no buffer operation of its own
 */
void MrcAddIpv6Header(Ptr<Packet> p,
                      const MrcIpv6Fields& ip,
                      const uint8_t* following = nullptr,
                      uint32_t followingBytes = 0,
                      const uint8_t* ethernet = nullptr);

/**
 * \ingroup mrc
 * As MrcAddIpv6Header, followed by headers (a transport's BTH and extension headers, say),
 * all with a single Packet::AddHeader: the bytes of adding the headers, then the IPv6
 * header and its following bytes, one AddHeader fewer (and on ns-3.37, whose buffer
 * grows to exactly what it holds, one re-allocation fewer). All the bytes are laid out
 * in one array (MrcWireHeader::WriteTo) and written to the buffer at once.
 * \param p the packet
 * \param ip the IPv6 fields (flow label must fit in 20 bits)
 * \param following bytes to place right after the IPv6 header (may be null)
 * \param followingBytes how many (at most MRC_MAX_FOLLOWING_BYTES)
 * \param after the headers that follow, in wire order; null entries are skipped
 * \param ethernet an Ethernet header before the IPv6 header, or null (as above)
 */
void MrcAddIpv6Header(Ptr<Packet> p,
                      const MrcIpv6Fields& ip,
                      const uint8_t* following,
                      uint32_t followingBytes,
                      std::initializer_list<const MrcWireHeader*> after,
                      const uint8_t* ethernet = nullptr);

/**
 * \ingroup mrc
 * As MrcAddIpv6Header with headers after it, behind an outer IPv6 header (an SRv6
 * encapsulation without SRH), all with a single Packet::AddHeader: the bytes of adding
 * the headers, the inner IPv6 header and its following bytes, then the outer IPv6
 * header. The caller fills every outer field (payload length = 40 + the inner payload
 * length; next header 41).
 * \param p the packet
 * \param outer the outer IPv6 fields (flow label must fit in 20 bits)
 * \param inner the inner IPv6 fields (flow label must fit in 20 bits)
 * \param following bytes to place right after the inner IPv6 header (may be null)
 * \param followingBytes how many (at most MRC_MAX_FOLLOWING_BYTES)
 * \param after the headers that follow, in wire order; null entries are skipped
 * \param ethernet an Ethernet header before the outer IPv6 header, or null (as
 *        MrcAddIpv6Header's)
 */
void MrcAddIpv6InIpv6Header(Ptr<Packet> p,
                            const MrcIpv6Fields& outer,
                            const MrcIpv6Fields& inner,
                            const uint8_t* following,
                            uint32_t followingBytes,
                            std::initializer_list<const MrcWireHeader*> after,
                            const uint8_t* ethernet = nullptr);

/**
 * \ingroup mrc
 * Prepend several headers with a single Packet::AddHeader: the packet gets the same
 * bytes as adding them one by one, innermost first, but pays the per-call cost of
 * AddHeader (buffer growth, metadata, logging checks) once, and one buffer write for
 * all of them (each header lays out its bytes with MrcWireHeader::WriteTo).
 * \param p the packet
 * \param outermostFirst the headers in wire order (the first ends up at the start
 *        of the packet); null entries are skipped
 */
void MrcAddHeaders(Ptr<Packet> p, std::initializer_list<const MrcWireHeader*> outermostFirst);

} // namespace ns3

#endif /* MRC_PACKET_INFO_H */
