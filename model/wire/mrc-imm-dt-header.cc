/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-imm-dt-header.h"

#include "mrc-byte-io.h"

#include "ns3/log.h"

#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcImmDtHeader");

NS_OBJECT_ENSURE_REGISTERED(MrcImmDtHeader);

MrcImmDtHeader::MrcImmDtHeader()
    : m_imm(0)
{
}

TypeId
MrcImmDtHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcImmDtHeader")
                            .SetParent<MrcWireHeader>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcImmDtHeader>();
    return tid;
}

TypeId
MrcImmDtHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
MrcImmDtHeader::GetSerializedSize() const
{
    return SERIALIZED_SIZE;
}

void
MrcImmDtHeader::WriteTo(uint8_t* out) const
{
    MrcByteIo::WriteU32(out, m_imm);
}

uint32_t
MrcImmDtHeader::Deserialize(Buffer::Iterator start)
{
    m_imm = start.ReadNtohU32();
    return SERIALIZED_SIZE;
}

void
MrcImmDtHeader::Print(std::ostream& os) const
{
    std::ios_base::fmtflags flags = os.flags();
    os << "imm=0x" << std::hex << std::setfill('0') << std::setw(8) << m_imm;
    os.flags(flags);
}

void
MrcImmDtHeader::SetImmediate(uint32_t imm)
{
    m_imm = imm;
}

uint32_t
MrcImmDtHeader::GetImmediate() const
{
    return m_imm;
}

} // namespace ns3
