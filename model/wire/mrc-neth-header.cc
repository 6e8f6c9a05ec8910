/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-neth-header.h"

#include "mrc-byte-io.h"
#include "mrc-ext-header-common.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <cstdio>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcNethHeader");

NS_OBJECT_ENSURE_REGISTERED(MrcNethHeader);

std::string
MrcNackReasonToString(MrcNackReason reason)
{
    switch (reason)
    {
    case MrcNackReason::TRIMMED:
        return "TRIMMED";
    case MrcNackReason::TRIMMED_LASTHOP:
        return "TRIMMED_LASTHOP";
    case MrcNackReason::NO_BITMAP:
        return "NO_BITMAP";
    case MrcNackReason::NO_PKT_BUFFER:
        return "NO_PKT_BUFFER";
    case MrcNackReason::NO_RESOURCE:
        return "NO_RESOURCE";
    case MrcNackReason::PSN_OOR_WINDOW:
        return "PSN_OOR_WINDOW";
    case MrcNackReason::UNEXP_EVENT:
        return "UNEXP_EVENT";
    }
    char buf[16];
    std::snprintf(buf, sizeof(buf), "UNKNOWN(0x%02x)", static_cast<unsigned>(reason));
    return buf;
}

TypeId
MrcNethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcNethHeader")
                            .SetParent<MrcWireHeader>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcNethHeader>();
    return tid;
}

TypeId
MrcNethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
MrcNethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
MrcNethHeader::WriteTo(uint8_t* out) const
{
    static_assert(SIZE == 20, "the NETH layout below is 20 bytes");
    MrcByteIo::WriteU16(out, static_cast<uint16_t>(MrcWire::LeadBits(m_type, m_nextHeader)));
    out[2] = m_reason;
    out[3] = m_vendorInfo;
    MrcByteIo::WriteU32(out + 4, m_entropy);
    MrcByteIo::WriteU16(out + 8, m_spdcid);
    MrcByteIo::WriteU16(out + 10, m_dpdcid);
    out[12] = 0;
    MrcByteIo::WriteU24(out + 13, m_nackPsn);
    out[16] = static_cast<uint8_t>((m_ccType << 4) | m_ccFlags);
    out[17] = 0;
    MrcByteIo::WriteU16(out + 18, m_txTimestamp);
}

uint32_t
MrcNethHeader::Deserialize(Buffer::Iterator start)
{
    uint16_t lead = start.ReadNtohU16();
    m_type = MrcWire::TypeOf(lead);
    m_nextHeader = MrcWire::NxtOf(lead);
    m_reason = start.ReadU8();
    m_vendorInfo = start.ReadU8();
    m_entropy = start.ReadNtohU32();
    m_spdcid = start.ReadNtohU16();
    m_dpdcid = start.ReadNtohU16();
    start.ReadU8();
    m_nackPsn = MrcByteIo::ReadU24(start);
    uint8_t cc = start.ReadU8();
    m_ccType = cc >> 4;
    m_ccFlags = cc & 0xf;
    start.ReadU8();
    m_txTimestamp = start.ReadNtohU16();
    return SIZE;
}

void
MrcNethHeader::Print(std::ostream& os) const
{
    os << "NETH reason=" << MrcNackReasonToString(GetNackReason())
       << " vendor_info=" << unsigned(m_vendorInfo) << " entropy=0x" << std::hex << m_entropy
       << std::dec << " spdcid=" << m_spdcid << " dpdcid=" << m_dpdcid << " nack_psn=" << m_nackPsn
       << " cc_type=" << unsigned(m_ccType) << " cc_fl=" << unsigned(m_ccFlags)
       << " tx_timestamp=" << m_txTimestamp;
}

void
MrcNethHeader::SetType(uint8_t type)
{
    NS_ABORT_MSG_IF(type > MrcWire::TYPE_MAX,
                    "NETH type " << unsigned(type) << " does not fit in 4 bits (0..15)");
    m_type = type;
}

uint8_t
MrcNethHeader::GetType() const
{
    return m_type;
}

void
MrcNethHeader::SetNextHeader(uint8_t nxt)
{
    NS_ABORT_MSG_IF(nxt > MrcWire::NXT_MAX,
                    "NETH nxt " << unsigned(nxt) << " does not fit in 5 bits (0..31)");
    m_nextHeader = nxt;
}

uint8_t
MrcNethHeader::GetNextHeader() const
{
    return m_nextHeader;
}

void
MrcNethHeader::SetNackReason(MrcNackReason reason)
{
    m_reason = static_cast<uint8_t>(reason);
}

MrcNackReason
MrcNethHeader::GetNackReason() const
{
    return static_cast<MrcNackReason>(m_reason);
}

void
MrcNethHeader::SetVendorInfo(uint8_t info)
{
    m_vendorInfo = info;
}

uint8_t
MrcNethHeader::GetVendorInfo() const
{
    return m_vendorInfo;
}

void
MrcNethHeader::SetEntropy(uint32_t ev)
{
    m_entropy = ev;
}

uint32_t
MrcNethHeader::GetEntropy() const
{
    return m_entropy;
}

void
MrcNethHeader::SetSpdcid(uint16_t id)
{
    m_spdcid = id;
}

uint16_t
MrcNethHeader::GetSpdcid() const
{
    return m_spdcid;
}

void
MrcNethHeader::SetDpdcid(uint16_t id)
{
    m_dpdcid = id;
}

uint16_t
MrcNethHeader::GetDpdcid() const
{
    return m_dpdcid;
}

void
MrcNethHeader::SetNackPsn(uint32_t psn)
{
    NS_ABORT_MSG_IF(psn > MrcWire::U24_MASK, "NETH nack_psn " << psn << " does not fit in 24 bits");
    m_nackPsn = psn;
}

uint32_t
MrcNethHeader::GetNackPsn() const
{
    return m_nackPsn;
}

void
MrcNethHeader::SetCcType(uint8_t ccType)
{
    NS_ABORT_MSG_IF(ccType > 0xf,
                    "NETH cc_type " << unsigned(ccType) << " does not fit in 4 bits (0..15)");
    m_ccType = ccType;
}

uint8_t
MrcNethHeader::GetCcType() const
{
    return m_ccType;
}

void
MrcNethHeader::SetCcFlags(uint8_t ccFlags)
{
    NS_ABORT_MSG_IF(ccFlags > 0xf,
                    "NETH cc_fl " << unsigned(ccFlags) << " does not fit in 4 bits (0..15)");
    m_ccFlags = ccFlags;
}

uint8_t
MrcNethHeader::GetCcFlags() const
{
    return m_ccFlags;
}

void
MrcNethHeader::SetTxTimestamp(uint16_t ticks)
{
    m_txTimestamp = ticks;
}

uint16_t
MrcNethHeader::GetTxTimestamp() const
{
    return m_txTimestamp;
}

} // namespace ns3
