/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-packet-info.h"

#include "mrc-byte-io.h"
#include "mrc-raw-header.h"
#include "mrc-usid.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/header.h"
#include "ns3/ipv6-header.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcPacketInfo");

namespace
{

/// Bytes copied out of the packet first; enough for two IPv6 headers, a small SRH,
/// UDP, BTH and the largest extension headers of a data packet.
constexpr uint32_t FIRST_WINDOW = 192;
/// Largest header stack the parser reads (longer stacks make the parse fail).
constexpr uint32_t MAX_WINDOW = 1024;

/// Largest IPv6 offset + 2 that MrcMarkCeInPlace rewrites.
constexpr uint32_t MAX_MARK_BYTES = 64;

/// Fields of a fixed IPv6 header at b (40 bytes).
void
ReadIpv6(const uint8_t* b,
         uint8_t& trafficClass,
         uint32_t& flowLabel,
         uint16_t& payloadLength,
         uint8_t& nextHeader,
         MrcIpv6Bytes& src,
         MrcIpv6Bytes& dst)
{
    trafficClass = static_cast<uint8_t>(((b[0] & 0x0f) << 4) | (b[1] >> 4));
    flowLabel = MrcByteIo::ReadU24(b + 1) & MRC_FLOW_LABEL_MASK;
    payloadLength = MrcByteIo::ReadU16(b + 4);
    nextHeader = b[6];
    src = MrcIpv6Bytes::FromBytes(b + 8);
    dst = MrcIpv6Bytes::FromBytes(b + 24);
}

/// Several headers serialized back to back as one (write-only: MrcAddHeaders). Each
/// header writes its bytes into one stack array (MrcWireHeader::WriteTo), which goes into
/// the buffer with a single Write. One object serves every packet (Sequence): it only
/// points at the headers of the AddHeader call in progress.
class MrcHeaderSequence : public Header
{
  public:
    /// Most bytes a sequence may serialize to (the room Serialize keeps on the stack).
    static constexpr uint32_t MAX_BYTES = 512;

    /// Make this the sequence of other headers.
    /// \param headers the headers in wire order (null entries skipped)
    /// \param first a header before them (may be null)
    /// \param outer a header before `first` (may be null)
    /// \return this sequence
    MrcHeaderSequence& Set(std::initializer_list<const MrcWireHeader*> headers,
                           const MrcWireHeader* first = nullptr,
                           const MrcWireHeader* outer = nullptr)
    {
        m_lead[0] = outer;
        m_lead[1] = first;
        m_headers = headers;
        m_size = 0;
        for (const MrcWireHeader* h : m_lead)
        {
            m_size += h ? h->GetSerializedSize() : 0;
        }
        for (const MrcWireHeader* h : m_headers)
        {
            m_size += h ? h->GetSerializedSize() : 0;
        }
        NS_ABORT_MSG_IF(m_size > MAX_BYTES,
                        "MrcHeaderSequence: " << m_size << " bytes of headers; at most "
                                              << MAX_BYTES);
        return *this;
    }

    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::MrcHeaderSequence").SetParent<Header>().SetGroupName("Mrc");
        return tid;
    }

    TypeId GetInstanceTypeId() const override
    {
        return GetTypeId();
    }

    uint32_t GetSerializedSize() const override
    {
        return m_size;
    }

    void Serialize(Buffer::Iterator start) const override
    {
        uint8_t b[MAX_BYTES];
        uint8_t* out = b;
        for (const MrcWireHeader* h : m_lead)
        {
            if (h)
            {
                h->WriteTo(out);
                out += h->GetSerializedSize();
            }
        }
        for (const MrcWireHeader* h : m_headers)
        {
            if (h)
            {
                h->WriteTo(out);
                out += h->GetSerializedSize();
            }
        }
        NS_ASSERT_MSG(static_cast<uint32_t>(out - b) == m_size,
                      "MrcHeaderSequence: a header's size changed after the sequence was made");
        start.Write(b, m_size);
    }

    uint32_t Deserialize(Buffer::Iterator /* start */) override
    {
        NS_FATAL_ERROR("MrcHeaderSequence is write-only: deserialize its headers one by one");
        return 0;
    }

    void Print(std::ostream& os) const override
    {
        for (const MrcWireHeader* h : m_lead)
        {
            if (h)
            {
                h->Print(os);
                os << " ";
            }
        }
        for (const MrcWireHeader* h : m_headers)
        {
            if (h)
            {
                h->Print(os);
                os << " ";
            }
        }
    }

  private:
    const MrcWireHeader* m_lead[2]{};                      //!< outer and first (null: none)
    std::initializer_list<const MrcWireHeader*> m_headers; //!< the headers, wire order
    uint32_t m_size{0};                                    //!< their total size
};

/// The sequence of the AddHeader call in progress: one object for every packet, since a
/// header's destructor logs (see MrcFreshHeader); AddHeader copies the bytes at once.
/// \param headers as MrcHeaderSequence::Set \param first as Set \param outer as Set
/// \return the sequence
MrcHeaderSequence&
Sequence(std::initializer_list<const MrcWireHeader*> headers,
         const MrcWireHeader* first = nullptr,
         const MrcWireHeader* outer = nullptr)
{
    static MrcHeaderSequence sequence;
    return sequence.Set(headers, first, outer);
}

bool
IsSkippableExtension(uint8_t nh)
{
    return nh == MrcIpProto::HOP_BY_HOP || nh == MrcIpProto::ROUTING ||
           nh == MrcIpProto::DEST_OPTIONS;
}

/// The first bytes of a packet as the parser reads them: copied once (or handed over
/// already read), more on demand.
class HeaderWindow
{
  public:
    /// \param p the packet \param size its size
    HeaderWindow(const Packet& p, uint32_t size)
        : m_packet(p),
          m_size(size),
          m_bytes(m_buf)
    {
        m_have = p.CopyData(m_buf, std::min(size, FIRST_WINDOW));
    }

    /// \param p the packet \param size its size
    /// \param head its first `have` bytes, already read \param have how many
    /// \param edits edits of the outer IPv6 header the packet lacks and head has
    HeaderWindow(const Packet& p, uint32_t size, const uint8_t* head, uint32_t have, uint8_t edits)
        : m_packet(p),
          m_size(size),
          m_have(have),
          m_bytes(head),
          m_edits(edits)
    {
    }

    /// Make sure the first `need` bytes are in the window.
    /// \param need bytes \return false if the packet (or the window) is shorter
    bool Ensure(uint32_t need)
    {
        return need <= m_have || Reread(need);
    }

    /// \return the bytes
    const uint8_t* Bytes() const
    {
        return m_bytes;
    }

    /// \return the packet's size
    uint32_t Size() const
    {
        return m_size;
    }

  private:
    /// Ensure's rare path: read the packet again, as far as the window goes.
    /// \param need bytes \return false if the packet (or the window) is shorter
    [[gnu::noinline]] bool Reread(uint32_t need)
    {
        if (need > m_size || need > MAX_WINDOW)
        {
            return false;
        }
        m_have = m_packet.CopyData(m_buf, std::min(m_size, MAX_WINDOW));
        m_bytes = m_buf;
        if (m_edits != 0 && m_have >= MRC_IPV6_HEADER_BYTES)
        {
            MrcApplyIpv6Edits(m_buf, m_edits); // as the head has them
        }
        return true;
    }

    const Packet& m_packet;    //!< the packet
    uint32_t m_size;           //!< its size
    uint32_t m_have{0};        //!< bytes in the window
    const uint8_t* m_bytes;    //!< the window: m_buf or bytes read before
    uint8_t m_edits{0};        //!< IPv6 edits a read of the packet applies (the constructor)
    uint8_t m_buf[MAX_WINDOW]; //!< the copy
};

/**
 * Skip the extension headers from `off` on (one length encoding: 8-byte units, not
 * counting the first 8 bytes), recording an SRH (routing type 4) if asked.
 * \param w the bytes \param[in,out] off where the next header starts
 * \param[in,out] nh its type \param[in,out] out the parse result (SRH fields)
 * \param recordSrh record the first SRH
 * \return false if an extension header runs past the packet or the window
 */
inline bool
SkipExtensions(HeaderWindow& w, uint32_t& off, uint8_t& nh, MrcPacketInfo& out, bool recordSrh)
{
    while (IsSkippableExtension(nh))
    {
        if (!w.Ensure(off + 8))
        {
            return false;
        }
        const uint8_t* buf = w.Bytes();
        const uint32_t len = (buf[off + 1] + 1u) * 8u;
        if (recordSrh && nh == MrcIpProto::ROUTING && buf[off + 2] == MRC_SRH_ROUTING_TYPE &&
            !out.hasSrh)
        {
            out.hasSrh = true;
            out.srhOffset = static_cast<uint16_t>(off);
            out.srhLength = static_cast<uint16_t>(len);
            out.srhSegmentsLeft = buf[off + 3];
        }
        nh = buf[off];
        off += len;
    }
    return off <= w.Size();
}

/**
 * Read the inner IPv6 header of an encapsulated packet and skip its extension headers.
 * \param w the bytes \param[in,out] off where the inner header starts; then what follows
 * \param[out] nh the inner next header \param[in,out] out the parse result
 * \return false if it is not an IPv6 header or does not fit
 */
inline bool
ReadInnerIpv6(HeaderWindow& w, uint32_t& off, uint8_t& nh, MrcPacketInfo& out)
{
    if (!w.Ensure(off + MRC_IPV6_HEADER_BYTES) || (w.Bytes()[off] >> 4) != 6)
    {
        return false;
    }
    out.encapsulated = true;
    out.innerOffset = static_cast<uint16_t>(off);
    ReadIpv6(w.Bytes() + off,
             out.innerTrafficClass,
             out.innerFlowLabel,
             out.innerPayloadLength,
             nh,
             out.innerSrc,
             out.innerDst);
    off += MRC_IPV6_HEADER_BYTES;
    return SkipExtensions(w, off, nh, out, false);
}

/**
 * Read the UDP header and, on the BTH port, the BTH and the size of its extensions.
 * \param w the bytes \param[in,out] off where UDP starts; then past the transport headers
 * \param[in,out] out the parse result \param bthUdpPort UDP port of the BTH
 * \return false if UDP or the BTH does not fit
 */
inline bool
ReadUdpAndBth(HeaderWindow& w, uint32_t& off, MrcPacketInfo& out, uint16_t bthUdpPort)
{
    if (!w.Ensure(off + MRC_UDP_HEADER_BYTES))
    {
        return false;
    }
    out.hasUdp = true;
    out.udpOffset = static_cast<uint16_t>(off);
    out.udpSrcPort = MrcByteIo::ReadU16(w.Bytes() + off);
    out.udpDstPort = MrcByteIo::ReadU16(w.Bytes() + off + 2);
    off += MRC_UDP_HEADER_BYTES;
    if (out.udpDstPort != bthUdpPort)
    {
        return true;
    }
    if (!w.Ensure(off + MRC_BTH_BYTES))
    {
        return false;
    }
    out.hasBth = true;
    out.bthOffset = static_cast<uint16_t>(off);
    out.opcode = w.Bytes()[off];
    out.bthFlags = w.Bytes()[off + MRC_BTH_FLAGS_OFFSET];
    off += MRC_BTH_BYTES + MrcTransportExtensionBytes(out.opcode, out.bthFlags);
    return true;
}

} // namespace

MrcIpv6Bytes::MrcIpv6Bytes(const Ipv6Address& address)
{
    address.GetBytes(bytes);
}

Ipv6Address
MrcIpv6Bytes::ToAddress() const
{
    return Ipv6Address(const_cast<uint8_t*>(bytes));
}

std::ostream&
operator<<(std::ostream& os, const MrcIpv6Bytes& a)
{
    return os << a.ToAddress();
}

uint32_t
MrcTransportExtensionBytes(uint8_t opcode, uint8_t bthFlags)
{
    constexpr uint32_t RETH = 16;
    constexpr uint32_t IMM = 4;
    constexpr uint32_t AETH = 4;
    constexpr uint32_t METH = 4;
    constexpr uint32_t TSETH = 4;
    switch (opcode)
    {
    case MrcOpcode::RC_WRITE_FIRST:
    case MrcOpcode::RC_WRITE_ONLY:
        return RETH;
    case MrcOpcode::RC_WRITE_ONLY_IMM:
        return RETH + IMM;
    case MrcOpcode::RC_WRITE_LAST_IMM:
        return IMM;
    case MrcOpcode::RC_ACK:
    case MrcOpcode::MRC_TRANSPORT_ACK:
        return AETH;
    case MrcOpcode::ROCE_CNP:
        return 16;
    case MrcOpcode::MRC_WRITE_FIRST:
    case MrcOpcode::MRC_WRITE_MIDDLE:
    case MrcOpcode::MRC_WRITE_LAST:
    case MrcOpcode::MRC_WRITE_LAST_IMM:
    case MrcOpcode::MRC_WRITE_ONLY:
    case MrcOpcode::MRC_WRITE_ONLY_IMM:
        return METH + ((bthFlags & MRC_BTH_FLAG_TS) ? TSETH : 0) + RETH +
               (MrcOpcode::HasImmediate(opcode) ? IMM : 0);
    case MrcOpcode::MRC_SACK:
        return 28 + 8; // SETH + CC_STATE
    case MrcOpcode::MRC_NACK:
        return 20; // NETH
    case MrcOpcode::MRC_PROBE:
        return 16; // PETH
    default:
        return 0;
    }
}

namespace
{

/// The parse of MrcParsePacket on a window of the packet's bytes.
/// \param w the window \param[out] out the result \param bthUdpPort UDP port of the BTH
/// \return as MrcParsePacket
bool
ParseWindow(HeaderWindow& w, MrcPacketInfo& out, uint16_t bthUdpPort)
{
    if ((w.Bytes()[0] >> 4) != 6)
    {
        return false;
    }
    ReadIpv6(w.Bytes(),
             out.trafficClass,
             out.flowLabel,
             out.payloadLength,
             out.nextHeader,
             out.src,
             out.dst);
    out.hopLimit = w.Bytes()[7];
    uint32_t off = MRC_IPV6_HEADER_BYTES;
    uint8_t nh = out.nextHeader;
    if (!SkipExtensions(w, off, nh, out, true))
    {
        return false;
    }
    if (nh == MrcIpProto::IPV6 && !ReadInnerIpv6(w, off, nh, out))
    {
        return false;
    }
    if (nh == MrcIpProto::UDP && !ReadUdpAndBth(w, off, out, bthUdpPort))
    {
        return false;
    }
    out.headerBytes = static_cast<uint16_t>(off);
    if (off > w.Size())
    {
        NS_LOG_LOGIC("packet of " << w.Size() << " bytes is shorter than its headers (" << off
                                  << " bytes)");
        return false;
    }
    return true;
}

} // namespace

bool
MrcPacketInfo::operator==(const MrcPacketInfo& o) const
{
    return src == o.src && dst == o.dst && flowLabel == o.flowLabel &&
           packetBytes == o.packetBytes && payloadLength == o.payloadLength &&
           trafficClass == o.trafficClass && nextHeader == o.nextHeader && hopLimit == o.hopLimit &&
           hasSrh == o.hasSrh && srhSegmentsLeft == o.srhSegmentsLeft && srhOffset == o.srhOffset &&
           srhLength == o.srhLength && encapsulated == o.encapsulated &&
           innerTrafficClass == o.innerTrafficClass && innerOffset == o.innerOffset &&
           innerPayloadLength == o.innerPayloadLength && innerFlowLabel == o.innerFlowLabel &&
           innerSrc == o.innerSrc && innerDst == o.innerDst && hasUdp == o.hasUdp &&
           udpOffset == o.udpOffset && udpSrcPort == o.udpSrcPort && udpDstPort == o.udpDstPort &&
           hasBth == o.hasBth && opcode == o.opcode && bthFlags == o.bthFlags &&
           bthOffset == o.bthOffset && headerBytes == o.headerBytes && rewriteDst == o.rewriteDst &&
           dstShifts == o.dstShifts;
}

bool
MrcParsePacket(Ptr<const Packet> p, MrcPacketInfo& out, uint16_t bthUdpPort)
{
    out = MrcPacketInfo();
    const uint32_t size = p->GetSize();
    out.packetBytes = size;
    if (size < MRC_IPV6_HEADER_BYTES)
    {
        return false;
    }
    HeaderWindow w(*p, size);
    return ParseWindow(w, out, bthUdpPort);
}

bool
MrcParsePacket(const Packet& p,
               const uint8_t* head,
               uint32_t headBytes,
               MrcPacketInfo& out,
               uint16_t bthUdpPort,
               uint8_t edits)
{
    out = MrcPacketInfo();
    const uint32_t size = p.GetSize();
    out.packetBytes = size;
    if (size < MRC_IPV6_HEADER_BYTES)
    {
        return false;
    }
    NS_ASSERT_MSG(headBytes <= size,
                  "MrcParsePacket: " << headBytes << " bytes read of a " << size << "-byte packet");
    HeaderWindow w(p, size, head, headBytes, edits);
    if (!w.Ensure(MRC_IPV6_HEADER_BYTES))
    {
        return false;
    }
    return ParseWindow(w, out, bthUdpPort);
}

void
MrcIpv6WithDestination(const MrcPacketInfo& info, uint8_t* out)
{
    // Version 6 | traffic class | flow label, payload length, next header, hop limit.
    MrcByteIo::WriteU32(out,
                        (0x6u << 28) | (static_cast<uint32_t>(info.trafficClass) << 20) |
                            (info.flowLabel & MRC_FLOW_LABEL_MASK));
    MrcByteIo::WriteU16(out + 4, info.payloadLength);
    out[6] = info.nextHeader;
    out[7] = info.hopLimit;
    std::copy(info.src.bytes, info.src.bytes + 16, out + 8);
    std::copy(info.dst.bytes, info.dst.bytes + 16, out + 24);
}

void
MrcWriteDestination(Ptr<Packet> p, const MrcPacketInfo& info)
{
    // Rewrite the 16 address bytes in place (same bytes as remove / SetDestination /
    // add of an Ipv6Header).
    MrcRawHeader raw(MRC_IPV6_HEADER_BYTES);
    const uint32_t got = p->CopyData(raw.Bytes(), MRC_IPV6_HEADER_BYTES);
    NS_ABORT_MSG_IF(got < MRC_IPV6_HEADER_BYTES,
                    "MrcWriteDestination: a " << got << "-byte packet has no IPv6 header");
    std::copy(info.dst.bytes, info.dst.bytes + 16, raw.Bytes() + 24);
    raw.ReplaceStartOf(p);
}

void
MrcApplyIpv6Edits(uint8_t* ip, uint8_t edits)
{
    MrcUsidCarrier::ShiftAddress(ip + 24, edits & MRC_IPV6_EDIT_SHIFTS);
    // Byte 1: TC[3:0] | flow label[19:16]; ECN = TC[1:0], bits 4-5 of the byte. CE is 11:
    // an ECN-capable field (01 or 10) becomes CE, a Not-ECT one stays (MrcMarkCeInPlace).
    if ((edits & MRC_IPV6_EDIT_CE) && (ip[1] & 0x30) != 0)
    {
        ip[1] |= 0x30;
    }
}

void
MrcWriteIpv6Edits(const Ptr<Packet>& p, uint8_t edits)
{
    if (edits == 0)
    {
        return;
    }
    MrcRawHeader raw(MRC_IPV6_HEADER_BYTES);
    const uint32_t got = p->CopyData(raw.Bytes(), MRC_IPV6_HEADER_BYTES);
    NS_ABORT_MSG_IF(got < MRC_IPV6_HEADER_BYTES,
                    "MrcWriteIpv6Edits: a " << got << "-byte packet has no IPv6 header");
    MrcApplyIpv6Edits(raw.Bytes(), edits);
    raw.ReplaceStartOf(p);
}

bool
MrcMarkCeInPlace(Ptr<Packet> p, uint32_t ipOffset)
{
    NS_ABORT_MSG_IF(ipOffset + 2 > MAX_MARK_BYTES,
                    "MrcMarkCeInPlace: IPv6 offset " << ipOffset << " is out of range: allowed 0.."
                                                     << MAX_MARK_BYTES - 2);
    MrcRawHeader raw;
    if (!raw.CopyFrom(*p, ipOffset + 2))
    {
        return false;
    }
    // Byte 0: version | TC[7:4]; byte 1: TC[3:0] | flow label[19:16]; ECN = TC[1:0].
    uint8_t& second = raw.Bytes()[ipOffset + 1];
    const auto ecn = static_cast<MrcEcn>((second >> 4) & 0x3);
    if (!MrcIsEcnCapable(ecn))
    {
        return false;
    }
    if (ecn != MrcEcn::CE)
    {
        second = static_cast<uint8_t>(second | 0x30);
        raw.ReplaceStartOf(p);
    }
    return true;
}

void
MrcAddHeaders(Ptr<Packet> p, std::initializer_list<const MrcWireHeader*> outermostFirst)
{
    p->AddHeader(Sequence(outermostFirst));
}

namespace
{

/// Write the bytes of an IPv6 header and what follows it (MrcAddIpv6Header's arguments)
/// into a call site's reusable raw header (see MrcRawHeader). \return raw
MrcRawHeader&
MakeIpv6Bytes(MrcRawHeader& raw,
              const MrcIpv6Fields& ip,
              const uint8_t* following,
              uint32_t followingBytes,
              const uint8_t* ethernet = nullptr)
{
    NS_ABORT_MSG_IF(followingBytes > MRC_MAX_FOLLOWING_BYTES,
                    "MrcAddIpv6Header: " << followingBytes << " following bytes: allowed 0.."
                                         << MRC_MAX_FOLLOWING_BYTES);
    NS_ABORT_MSG_IF(ip.flowLabel > MRC_FLOW_LABEL_MASK,
                    "MrcAddIpv6Header: flow label 0x" << std::hex << ip.flowLabel << std::dec
                                                      << " does not fit in 20 bits");
    const uint32_t ethBytes = ethernet ? MrcRawHeader::ETHERNET_BYTES : 0;
    static_assert(MrcRawHeader::ETHERNET_BYTES + MRC_IPV6_HEADER_BYTES + MRC_MAX_FOLLOWING_BYTES <=
                      MrcRawHeader::MAX_BYTES,
                  "an Ethernet header, an IPv6 header and its following bytes fit a raw header");
    MrcScratchHeader(raw,
                     ethBytes + MRC_IPV6_HEADER_BYTES + followingBytes,
                     ethernet ? MrcRawHeader::ETHERNET : MrcRawHeader::OPAQUE);
    if (ethernet)
    {
        std::memcpy(raw.Bytes(), ethernet, ethBytes);
    }
    uint8_t* b = raw.Bytes() + ethBytes;
    // Version 6 | traffic class | flow label, then payload length, next header, hop limit.
    MrcByteIo::WriteU32(b,
                        (0x6u << 28) | (static_cast<uint32_t>(ip.trafficClass) << 20) |
                            ip.flowLabel);
    MrcByteIo::WriteU16(b + 4, ip.payloadLength);
    b[6] = ip.nextHeader;
    b[7] = ip.hopLimit;
    std::memcpy(b + 8, ip.src.bytes, sizeof(ip.src.bytes));
    std::memcpy(b + 24, ip.dst.bytes, sizeof(ip.dst.bytes));
    if (followingBytes > 0)
    {
        std::copy(following, following + followingBytes, b + MRC_IPV6_HEADER_BYTES);
    }
    return raw;
}

} // namespace

void
MrcAddIpv6Header(Ptr<Packet> p,
                 const MrcIpv6Fields& ip,
                 const uint8_t* following,
                 uint32_t followingBytes,
                 const uint8_t* ethernet)
{
    static MrcRawHeader scratch;
    p->AddHeader(MakeIpv6Bytes(scratch, ip, following, followingBytes, ethernet));
}

void
MrcAddIpv6Header(Ptr<Packet> p,
                 const MrcIpv6Fields& ip,
                 const uint8_t* following,
                 uint32_t followingBytes,
                 std::initializer_list<const MrcWireHeader*> after,
                 const uint8_t* ethernet)
{
    static MrcRawHeader scratch;
    const MrcRawHeader& raw = MakeIpv6Bytes(scratch, ip, following, followingBytes, ethernet);
    p->AddHeader(Sequence(after, &raw));
}

void
MrcAddIpv6InIpv6Header(Ptr<Packet> p,
                       const MrcIpv6Fields& outer,
                       const MrcIpv6Fields& inner,
                       const uint8_t* following,
                       uint32_t followingBytes,
                       std::initializer_list<const MrcWireHeader*> after,
                       const uint8_t* ethernet)
{
    static MrcRawHeader outerScratch;
    static MrcRawHeader innerScratch;
    const MrcRawHeader& outerRaw = MakeIpv6Bytes(outerScratch, outer, nullptr, 0, ethernet);
    const MrcRawHeader& innerRaw = MakeIpv6Bytes(innerScratch, inner, following, followingBytes);
    p->AddHeader(Sequence(after, &innerRaw, &outerRaw));
}

} // namespace ns3
