/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-raw-header.h"

#include "mrc-byte-io.h"

#include "ns3/log.h"
#include "ns3/mac48-address.h"

#include <cstring>
#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcRawHeader");

NS_OBJECT_ENSURE_REGISTERED(MrcRawHeader);

TypeId
MrcRawHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcRawHeader")
                            .SetParent<MrcWireHeader>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcRawHeader>();
    return tid;
}

TypeId
MrcRawHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
MrcRawHeader::GetSerializedSize() const
{
    return m_size;
}

void
MrcRawHeader::WriteTo(uint8_t* out) const
{
    std::memcpy(out, m_bytes, m_size);
}

uint32_t
MrcRawHeader::Deserialize(Buffer::Iterator start)
{
    start.Read(m_bytes, m_size);
    return m_size;
}

void
MrcRawHeader::Print(std::ostream& os) const
{
    uint32_t from = 0;
    if (m_layout == ETHERNET && m_size >= ETHERNET_BYTES)
    {
        Mac48Address dst;
        Mac48Address src;
        dst.CopyFrom(m_bytes);
        src.CopyFrom(m_bytes + 6);
        os << "length/type=0x" << std::hex << MrcByteIo::ReadU16(m_bytes + 12) << std::dec
           << ", source=" << src << ", destination=" << dst;
        from = ETHERNET_BYTES;
        if (m_size == from)
        {
            return;
        }
        os << ", then ";
    }
    const std::ios_base::fmtflags flags = os.flags();
    const char fill = os.fill();
    os << (m_size - from) << " raw bytes";
    for (uint32_t k = from; k < m_size; ++k)
    {
        os << (k == from ? ": " : " ") << std::hex << std::setw(2) << std::setfill('0')
           << unsigned(m_bytes[k]);
    }
    os.flags(flags);
    os.fill(fill);
}

} // namespace ns3
