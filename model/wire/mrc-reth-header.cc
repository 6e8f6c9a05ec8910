/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-reth-header.h"

#include "mrc-byte-io.h"

#include "ns3/log.h"

#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcRethHeader");

NS_OBJECT_ENSURE_REGISTERED(MrcRethHeader);

MrcRethHeader::MrcRethHeader()
    : m_va(0),
      m_rkey(0),
      m_dmaLength(0)
{
}

TypeId
MrcRethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcRethHeader")
                            .SetParent<MrcWireHeader>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcRethHeader>();
    return tid;
}

TypeId
MrcRethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
MrcRethHeader::GetSerializedSize() const
{
    return SERIALIZED_SIZE;
}

void
MrcRethHeader::WriteTo(uint8_t* out) const
{
    MrcByteIo::WriteU64(out, m_va);
    MrcByteIo::WriteU32(out + 8, m_rkey);
    MrcByteIo::WriteU32(out + 12, m_dmaLength);
}

uint32_t
MrcRethHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    m_va = i.ReadNtohU64();
    m_rkey = i.ReadNtohU32();
    m_dmaLength = i.ReadNtohU32();
    return SERIALIZED_SIZE;
}

void
MrcRethHeader::Print(std::ostream& os) const
{
    std::ios_base::fmtflags flags = os.flags();
    os << std::hex << std::setfill('0') << "va=0x" << std::setw(16) << m_va << " rkey=0x"
       << std::setw(8) << m_rkey << std::dec << " len=" << m_dmaLength;
    os.flags(flags);
}

void
MrcRethHeader::SetVirtualAddress(uint64_t va)
{
    m_va = va;
}

uint64_t
MrcRethHeader::GetVirtualAddress() const
{
    return m_va;
}

void
MrcRethHeader::SetRkey(uint32_t rkey)
{
    m_rkey = rkey;
}

uint32_t
MrcRethHeader::GetRkey() const
{
    return m_rkey;
}

void
MrcRethHeader::SetDmaLength(uint32_t length)
{
    m_dmaLength = length;
}

uint32_t
MrcRethHeader::GetDmaLength() const
{
    return m_dmaLength;
}

} // namespace ns3
