/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-meth-header.h"

#include "mrc-byte-io.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcMethHeader");

NS_OBJECT_ENSURE_REGISTERED(MrcMethHeader);

TypeId
MrcMethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcMethHeader")
                            .SetParent<MrcWireHeader>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcMethHeader>();
    return tid;
}

TypeId
MrcMethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
MrcMethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
MrcMethHeader::WriteTo(uint8_t* out) const
{
    MrcByteIo::WriteU16(out, m_rqMsn);
    MrcByteIo::WriteU16(out + 2, m_msn);
}

uint32_t
MrcMethHeader::Deserialize(Buffer::Iterator start)
{
    m_rqMsn = start.ReadNtohU16();
    m_msn = start.ReadNtohU16();
    return SIZE;
}

void
MrcMethHeader::Print(std::ostream& os) const
{
    os << "METH rqmsn=" << m_rqMsn << " msn=" << m_msn;
}

void
MrcMethHeader::SetRqMsn(uint16_t rqmsn)
{
    m_rqMsn = rqmsn;
}

uint16_t
MrcMethHeader::GetRqMsn() const
{
    return m_rqMsn;
}

void
MrcMethHeader::SetMsn(uint16_t msn)
{
    m_msn = msn;
}

uint16_t
MrcMethHeader::GetMsn() const
{
    return m_msn;
}

} // namespace ns3
