/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-peth-header.h"

#include "mrc-byte-io.h"
#include "mrc-ext-header-common.h"
#include "mrc-tseth-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcPethHeader");

NS_OBJECT_ENSURE_REGISTERED(MrcPethHeader);

TypeId
MrcPethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcPethHeader")
                            .SetParent<MrcWireHeader>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcPethHeader>();
    return tid;
}

TypeId
MrcPethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
MrcPethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
MrcPethHeader::WriteTo(uint8_t* out) const
{
    static_assert(SIZE == 16, "the PETH layout below is 16 bytes");
    MrcByteIo::WriteU16(out, MrcWire::LeadBits(m_type, m_nextHeader));
    out[2] = 0;
    out[3] = m_vendorInfo;
    MrcByteIo::WriteU16(out + 4, m_probeId);
    MrcByteIo::WriteU16(out + 6, 0);
    MrcByteIo::WriteU16(out + 8, m_spdcid);
    MrcByteIo::WriteU16(out + 10, m_dpdcid);
    MrcByteIo::WriteU16(out + 12, m_txTimestamp);
    MrcByteIo::WriteU16(out + 14,
                        static_cast<uint16_t>((m_tsr ? MrcTsethHeader::TSR_BIT : 0) | m_ftype));
}

uint32_t
MrcPethHeader::Deserialize(Buffer::Iterator start)
{
    uint16_t lead = start.ReadNtohU16();
    m_type = MrcWire::TypeOf(lead);
    m_nextHeader = MrcWire::NxtOf(lead);
    start.ReadU8();
    m_vendorInfo = start.ReadU8();
    m_probeId = start.ReadNtohU16();
    start.ReadNtohU16();
    m_spdcid = start.ReadNtohU16();
    m_dpdcid = start.ReadNtohU16();
    m_txTimestamp = start.ReadNtohU16();
    uint16_t word = start.ReadNtohU16();
    m_tsr = (word & MrcTsethHeader::TSR_BIT) != 0;
    m_ftype = word & MrcTsethHeader::FTYPE_MASK;
    return SIZE;
}

void
MrcPethHeader::Print(std::ostream& os) const
{
    os << "PETH probe_id=" << m_probeId << " vendor_info=" << unsigned(m_vendorInfo)
       << " spdcid=" << m_spdcid << " dpdcid=" << m_dpdcid << " tx_timestamp=" << m_txTimestamp
       << " tsr=" << m_tsr << " ftype=" << unsigned(m_ftype);
}

void
MrcPethHeader::SetType(uint8_t type)
{
    NS_ABORT_MSG_IF(type > MrcWire::TYPE_MAX,
                    "PETH type " << unsigned(type) << " does not fit in 4 bits (0..15)");
    m_type = type;
}

uint8_t
MrcPethHeader::GetType() const
{
    return m_type;
}

void
MrcPethHeader::SetNextHeader(uint8_t nxt)
{
    NS_ABORT_MSG_IF(nxt > MrcWire::NXT_MAX,
                    "PETH nxt " << unsigned(nxt) << " does not fit in 5 bits (0..31)");
    m_nextHeader = nxt;
}

uint8_t
MrcPethHeader::GetNextHeader() const
{
    return m_nextHeader;
}

void
MrcPethHeader::SetVendorInfo(uint8_t info)
{
    m_vendorInfo = info;
}

uint8_t
MrcPethHeader::GetVendorInfo() const
{
    return m_vendorInfo;
}

void
MrcPethHeader::SetProbeId(uint16_t id)
{
    m_probeId = id;
}

uint16_t
MrcPethHeader::GetProbeId() const
{
    return m_probeId;
}

void
MrcPethHeader::SetSpdcid(uint16_t id)
{
    m_spdcid = id;
}

uint16_t
MrcPethHeader::GetSpdcid() const
{
    return m_spdcid;
}

void
MrcPethHeader::SetDpdcid(uint16_t id)
{
    m_dpdcid = id;
}

uint16_t
MrcPethHeader::GetDpdcid() const
{
    return m_dpdcid;
}

void
MrcPethHeader::SetTxTimestamp(uint16_t ticks)
{
    m_txTimestamp = ticks;
}

uint16_t
MrcPethHeader::GetTxTimestamp() const
{
    return m_txTimestamp;
}

void
MrcPethHeader::SetTsr(bool tsr)
{
    m_tsr = tsr;
}

bool
MrcPethHeader::GetTsr() const
{
    return m_tsr;
}

void
MrcPethHeader::SetFtype(uint8_t ftype)
{
    NS_ABORT_MSG_IF(ftype > MrcTsethHeader::FTYPE_MASK,
                    "PETH ftype " << unsigned(ftype) << " does not fit in 4 bits (0..15)");
    m_ftype = ftype;
}

uint8_t
MrcPethHeader::GetFtype() const
{
    return m_ftype;
}

} // namespace ns3
