/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-srh-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcSrhHeader");

NS_OBJECT_ENSURE_REGISTERED(MrcSrhHeader);

TypeId
MrcSrhHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcSrhHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcSrhHeader>();
    return tid;
}

TypeId
MrcSrhHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

MrcSrhHeader::MrcSrhHeader()
    : m_nextHeader(41),
      m_segmentsLeft(0),
      m_flags(0),
      m_tag(0),
      m_nSegments(0)
{
}

void
MrcSrhHeader::Print(std::ostream& os) const
{
    os << "SRH next header " << unsigned(m_nextHeader) << " segments left "
       << unsigned(m_segmentsLeft) << " last entry " << int(m_nSegments) - 1 << " flags 0x"
       << std::hex << unsigned(m_flags) << " tag 0x" << m_tag << std::dec << " list [";
    for (uint32_t i = 0; i < m_nSegments; ++i)
    {
        os << (i ? " " : "") << m_segments[i];
    }
    os << "]";
}

uint32_t
MrcSrhHeader::GetSerializedSize() const
{
    return 8 + 16 * m_nSegments;
}

void
MrcSrhHeader::Serialize(Buffer::Iterator start) const
{
    NS_ABORT_MSG_IF(m_nSegments == 0, "an SRH needs at least one segment");
    Buffer::Iterator i = start;
    i.WriteU8(m_nextHeader);
    i.WriteU8(GetHdrExtLen());
    i.WriteU8(ROUTING_TYPE);
    i.WriteU8(m_segmentsLeft);
    i.WriteU8(m_nSegments - 1);
    i.WriteU8(m_flags);
    i.WriteHtonU16(m_tag);
    uint8_t buf[16];
    for (uint32_t s = 0; s < m_nSegments; ++s)
    {
        m_segments[s].GetBytes(buf);
        i.Write(buf, 16);
    }
}

std::string
MrcSrhHeader::Check(Buffer::Iterator start)
{
    // Hdr Ext Len and Last Entry come from the wire: never read past the buffer.
    std::ostringstream why;
    const uint32_t have = start.GetRemainingSize();
    if (have < 8)
    {
        why << "SRH: " << have << " bytes, fewer than its 8-byte fixed part";
        return why.str();
    }
    uint8_t fixed[8];
    start.Read(fixed, 8);
    const uint8_t hdrExtLen = fixed[1];
    const uint8_t routingType = fixed[2];
    const uint8_t segmentsLeft = fixed[3];
    const uint32_t n = fixed[4] + 1u;
    if (routingType != ROUTING_TYPE)
    {
        why << "routing header of type " << unsigned(routingType) << " is not an SRH (type "
            << unsigned(ROUTING_TYPE) << ")";
    }
    else if (hdrExtLen != 2 * n)
    {
        why << "SRH with Hdr Ext Len " << unsigned(hdrExtLen) << " and " << n
            << " segments: TLVs are not supported (expected " << 2 * n << ")";
    }
    else if (n > MAX_SEGMENTS)
    {
        why << "SRH with " << n << " segments: the model holds at most " << MAX_SEGMENTS;
    }
    else if (segmentsLeft > n)
    {
        why << "SRH Segments Left " << unsigned(segmentsLeft) << " exceeds its " << n
            << " segments";
    }
    else if (have - 8 < 16 * n)
    {
        why << "SRH with " << n << " segments needs " << 16 * n << " bytes after its fixed "
            << "part; " << have - 8 << " follow";
    }
    return why.str();
}

uint32_t
MrcSrhHeader::TryDeserialize(Buffer::Iterator start)
{
    if (!Check(start).empty())
    {
        return 0;
    }
    Buffer::Iterator i = start;
    m_nextHeader = i.ReadU8();
    i.ReadU8(); // Hdr Ext Len: 2 * n (checked)
    i.ReadU8(); // Routing Type: 4 (checked)
    m_segmentsLeft = i.ReadU8();
    const uint32_t n = i.ReadU8() + 1u;
    m_flags = i.ReadU8();
    m_tag = i.ReadNtohU16();
    m_nSegments = static_cast<uint8_t>(n);
    uint8_t buf[16];
    for (uint32_t s = 0; s < n; ++s)
    {
        i.Read(buf, 16);
        m_segments[s] = MrcUsidCarrier::FromBytes(buf);
    }
    return GetSerializedSize();
}

uint32_t
MrcSrhHeader::Deserialize(Buffer::Iterator start)
{
    // Deserialize is for SRHs of the model's own making (a header the model cannot hold
    // is a bug there); bytes of unknown origin go through TryDeserialize.
    const std::string why = Check(start);
    NS_ABORT_MSG_IF(!why.empty(), why);
    return TryDeserialize(start);
}

void
MrcSrhHeader::SetNextHeader(uint8_t nextHeader)
{
    m_nextHeader = nextHeader;
}

uint8_t
MrcSrhHeader::GetNextHeader() const
{
    return m_nextHeader;
}

uint8_t
MrcSrhHeader::GetHdrExtLen() const
{
    return static_cast<uint8_t>(2 * m_nSegments);
}

uint8_t
MrcSrhHeader::GetRoutingType() const
{
    return ROUTING_TYPE;
}

void
MrcSrhHeader::SetSegmentsLeft(uint8_t segmentsLeft)
{
    NS_ABORT_MSG_IF(segmentsLeft > m_nSegments,
                    "Segments Left " << unsigned(segmentsLeft) << " is out of range: allowed 0.."
                                     << unsigned(m_nSegments) << " for " << unsigned(m_nSegments)
                                     << " segments");
    m_segmentsLeft = segmentsLeft;
}

uint8_t
MrcSrhHeader::GetSegmentsLeft() const
{
    return m_segmentsLeft;
}

uint8_t
MrcSrhHeader::GetLastEntry() const
{
    NS_ABORT_MSG_IF(m_nSegments == 0, "an SRH without segments has no Last Entry");
    return m_nSegments - 1;
}

void
MrcSrhHeader::SetFlags(uint8_t flags)
{
    m_flags = flags;
}

uint8_t
MrcSrhHeader::GetFlags() const
{
    return m_flags;
}

void
MrcSrhHeader::SetTag(uint16_t tag)
{
    m_tag = tag;
}

uint16_t
MrcSrhHeader::GetTag() const
{
    return m_tag;
}

uint32_t
MrcSrhHeader::GetNSegments() const
{
    return m_nSegments;
}

void
MrcSrhHeader::SetSegmentList(const MrcUsidCarrier* segments, uint32_t count)
{
    NS_ABORT_MSG_IF(count == 0 || count > MAX_SEGMENTS,
                    "SRH segment count " << count << " is out of range: allowed 1.."
                                         << MAX_SEGMENTS);
    for (uint32_t s = 0; s < count; ++s)
    {
        m_segments[s] = segments[s];
    }
    m_nSegments = static_cast<uint8_t>(count);
    m_segmentsLeft = static_cast<uint8_t>(count);
}

const MrcUsidCarrier&
MrcSrhHeader::GetSegment(uint32_t index) const
{
    NS_ABORT_MSG_IF(index >= m_nSegments,
                    "SRH segment index " << index << " is out of range: the list has "
                                         << unsigned(m_nSegments) << " segments");
    return m_segments[index];
}

Ipv6Address
MrcSrhHeader::GetSegmentAddress(uint32_t index) const
{
    return GetSegment(index).ToAddress();
}

MrcUsidCarrier
MrcSrhHeader::SetPath(const MrcUsidCarrier* path, uint32_t count)
{
    NS_ABORT_MSG_IF(count < 2,
                    "a path of " << count << " carrier(s) needs no SRH: put it in the "
                                 << "destination address alone");
    NS_ABORT_MSG_IF(count - 1 > MAX_SEGMENTS,
                    "a path of " << count << " carriers needs " << count - 1
                                 << " SRH segments; the model holds at most " << MAX_SEGMENTS);
    uint32_t n = count - 1;
    // path[1] is visited first after the DA, so it is Segment List[n-1]; path[count-1] is [0].
    for (uint32_t s = 0; s < n; ++s)
    {
        m_segments[s] = path[count - 1 - s];
    }
    m_nSegments = static_cast<uint8_t>(n);
    m_segmentsLeft = static_cast<uint8_t>(n);
    m_nextHeader = 41;
    return path[0];
}

const MrcUsidCarrier&
MrcSrhHeader::Advance()
{
    NS_ABORT_MSG_IF(m_segmentsLeft == 0,
                    "SRH Segments Left is 0: the path has no segment after this carrier");
    --m_segmentsLeft;
    NS_LOG_LOGIC("SRH advance to segment " << unsigned(m_segmentsLeft) << " "
                                           << m_segments[m_segmentsLeft]);
    return m_segments[m_segmentsLeft];
}

} // namespace ns3
