/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-seth-header.h"

#include "mrc-byte-io.h"
#include "mrc-ext-header-common.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcSethHeader");

NS_OBJECT_ENSURE_REGISTERED(MrcSethHeader);

namespace
{
constexpr unsigned M_SHIFT = 5;     // m is bits 6..5 of the leading word
constexpr uint16_t M_MASK = 0x3;    // m is 2 bits
constexpr uint16_t PR_BIT = 0x0002; // pr is bit 1 of the leading word
} // namespace

std::string
MrcPathFeedbackToString(MrcPathFeedback m)
{
    switch (m)
    {
    case MrcPathFeedback::NONE:
        return "NONE";
    case MrcPathFeedback::SKIP_ONCE:
        return "SKIP_ONCE";
    case MrcPathFeedback::ALWAYS_SKIP:
        return "ALWAYS_SKIP";
    }
    return "RESERVED(" + std::to_string(static_cast<unsigned>(m)) + ")";
}

TypeId
MrcSethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcSethHeader")
                            .SetParent<MrcWireHeader>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcSethHeader>();
    return tid;
}

TypeId
MrcSethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
MrcSethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
MrcSethHeader::WriteTo(uint8_t* out) const
{
    static_assert(SIZE == 28, "the SETH layout below is 28 bytes");
    MrcByteIo::WriteU16(out,
                        static_cast<uint16_t>(MrcWire::LeadBits(m_type, m_nextHeader) |
                                              (m_m << M_SHIFT) | (m_pr ? PR_BIT : 0)));
    MrcByteIo::WriteU16(out + 2, static_cast<uint16_t>(m_ackPsnOffset));
    MrcByteIo::WriteU32(out + 4, m_entropy);
    MrcByteIo::WriteU16(out + 8, m_spdcid);
    MrcByteIo::WriteU16(out + 10, m_dpdcid);
    out[12] = 0;
    MrcByteIo::WriteU24(out + 13, m_cackPsn);
    out[16] = static_cast<uint8_t>((m_ccType << 4) | m_ccFlags);
    out[17] = m_mpr;
    MrcByteIo::WriteU16(out + 18, static_cast<uint16_t>(m_sackOffset));
    MrcByteIo::WriteU64(out + 20, m_sackBitmap);
}

uint32_t
MrcSethHeader::Deserialize(Buffer::Iterator start)
{
    uint8_t bytes[SIZE];
    start.Read(bytes, SIZE);
    ReadBytes(bytes);
    return SIZE;
}

void
MrcSethHeader::ReadBytes(const uint8_t* b)
{
    // byte offsets: 0 type/nxt/m/pr, 2 ack_psn_offset, 4 entropy, 8 spdcid, 10 dpdcid,
    // 12 reserved, 13 cack_psn (24 bits), 16 cc_type/cc_fl, 17 mpr, 18 sack_offset,
    // 20 sack_bitmap
    const uint16_t lead = MrcByteIo::ReadU16(b);
    m_type = MrcWire::TypeOf(lead);
    m_nextHeader = MrcWire::NxtOf(lead);
    m_m = (lead >> M_SHIFT) & M_MASK;
    m_pr = (lead & PR_BIT) != 0;
    m_ackPsnOffset = static_cast<int16_t>(MrcByteIo::ReadU16(b + 2));
    m_entropy = MrcByteIo::ReadU32(b + 4);
    m_spdcid = MrcByteIo::ReadU16(b + 8);
    m_dpdcid = MrcByteIo::ReadU16(b + 10);
    m_cackPsn = MrcByteIo::ReadU24(b + 13);
    const uint8_t cc = b[16];
    m_ccType = cc >> 4;
    m_ccFlags = cc & 0xf;
    m_mpr = b[17];
    m_sackOffset = static_cast<int16_t>(MrcByteIo::ReadU16(b + 18));
    m_sackBitmap = MrcByteIo::ReadU64(b + 20);
}

void
MrcSethHeader::Print(std::ostream& os) const
{
    os << "SETH m=" << MrcPathFeedbackToString(GetPathFeedback()) << " pr=" << m_pr;
    if (m_pr)
    {
        os << " probe_id=" << GetProbeId();
    }
    else
    {
        os << " ack_psn=" << GetAckPsn() << " (offset " << m_ackPsnOffset << ")";
    }
    os << " entropy=0x" << std::hex << m_entropy << std::dec << " spdcid=" << m_spdcid
       << " dpdcid=" << m_dpdcid << " cack_psn=" << m_cackPsn << " cc_type=" << unsigned(m_ccType)
       << " cc_fl=" << unsigned(m_ccFlags) << " mpr=" << unsigned(m_mpr)
       << " sack_base=" << GetSackBasePsn() << " (offset " << m_sackOffset << ") bitmap=0x"
       << std::hex << m_sackBitmap << std::dec;
}

void
MrcSethHeader::SetType(uint8_t type)
{
    NS_ABORT_MSG_IF(type > MrcWire::TYPE_MAX,
                    "SETH type " << unsigned(type) << " does not fit in 4 bits (0..15)");
    m_type = type;
}

uint8_t
MrcSethHeader::GetType() const
{
    return m_type;
}

void
MrcSethHeader::SetNextHeader(uint8_t nxt)
{
    NS_ABORT_MSG_IF(nxt > MrcWire::NXT_MAX,
                    "SETH nxt " << unsigned(nxt) << " does not fit in 5 bits (0..31)");
    m_nextHeader = nxt;
}

uint8_t
MrcSethHeader::GetNextHeader() const
{
    return m_nextHeader;
}

void
MrcSethHeader::SetPathFeedback(MrcPathFeedback m)
{
    NS_ABORT_MSG_IF(static_cast<uint8_t>(m) > M_MASK,
                    "SETH m " << unsigned(static_cast<uint8_t>(m)) << " does not fit in 2 bits");
    m_m = static_cast<uint8_t>(m);
}

MrcPathFeedback
MrcSethHeader::GetPathFeedback() const
{
    return static_cast<MrcPathFeedback>(m_m);
}

void
MrcSethHeader::SetProbeResponse(bool pr)
{
    m_pr = pr;
}

bool
MrcSethHeader::IsProbeResponse() const
{
    return m_pr;
}

void
MrcSethHeader::SetAckPsnOffset(int16_t offset)
{
    m_ackPsnOffset = offset;
}

int16_t
MrcSethHeader::GetAckPsnOffset() const
{
    return m_ackPsnOffset;
}

void
MrcSethHeader::SetProbeId(uint16_t probeId)
{
    m_ackPsnOffset = static_cast<int16_t>(probeId);
}

uint16_t
MrcSethHeader::GetProbeId() const
{
    return static_cast<uint16_t>(m_ackPsnOffset);
}

void
MrcSethHeader::SetEntropy(uint32_t ev)
{
    m_entropy = ev;
}

uint32_t
MrcSethHeader::GetEntropy() const
{
    return m_entropy;
}

void
MrcSethHeader::SetSpdcid(uint16_t id)
{
    m_spdcid = id;
}

uint16_t
MrcSethHeader::GetSpdcid() const
{
    return m_spdcid;
}

void
MrcSethHeader::SetDpdcid(uint16_t id)
{
    m_dpdcid = id;
}

uint16_t
MrcSethHeader::GetDpdcid() const
{
    return m_dpdcid;
}

void
MrcSethHeader::SetCackPsn(uint32_t psn)
{
    NS_ABORT_MSG_IF(psn > PSN_MASK, "SETH cack_psn " << psn << " does not fit in 24 bits");
    m_cackPsn = psn;
}

uint32_t
MrcSethHeader::GetCackPsn() const
{
    return m_cackPsn;
}

void
MrcSethHeader::SetCcType(uint8_t ccType)
{
    NS_ABORT_MSG_IF(ccType > 0xf,
                    "SETH cc_type " << unsigned(ccType) << " does not fit in 4 bits (0..15)");
    m_ccType = ccType;
}

uint8_t
MrcSethHeader::GetCcType() const
{
    return m_ccType;
}

void
MrcSethHeader::SetCcFlags(uint8_t ccFlags)
{
    NS_ABORT_MSG_IF(ccFlags > 0xf,
                    "SETH cc_fl " << unsigned(ccFlags) << " does not fit in 4 bits (0..15)");
    m_ccFlags = ccFlags;
}

uint8_t
MrcSethHeader::GetCcFlags() const
{
    return m_ccFlags;
}

void
MrcSethHeader::SetMpr(uint8_t mpr)
{
    m_mpr = mpr;
}

uint8_t
MrcSethHeader::GetMpr() const
{
    return m_mpr;
}

uint32_t
MrcSethHeader::GetMprPsns() const
{
    return static_cast<uint32_t>(m_mpr) * MPR_UNIT_PSNS;
}

void
MrcSethHeader::SetSackOffset(int16_t offset)
{
    m_sackOffset = offset;
}

int16_t
MrcSethHeader::GetSackOffset() const
{
    return m_sackOffset;
}

void
MrcSethHeader::SetSackBitmap(uint64_t bitmap)
{
    m_sackBitmap = bitmap;
}

uint64_t
MrcSethHeader::GetSackBitmap() const
{
    return m_sackBitmap;
}

int32_t
MrcSethHeader::PsnDistance(uint32_t from, uint32_t to)
{
    uint32_t d = (to - from) & PSN_MASK;
    // sign-extend the 24-bit difference
    return (d & 0x800000) ? static_cast<int32_t>(d) - (1 << 24) : static_cast<int32_t>(d);
}

uint32_t
MrcSethHeader::GetAckPsn() const
{
    return (m_cackPsn + static_cast<uint32_t>(static_cast<int32_t>(m_ackPsnOffset))) & PSN_MASK;
}

void
MrcSethHeader::SetAckPsn(uint32_t psn)
{
    int32_t d = PsnDistance(m_cackPsn, psn & PSN_MASK);
    NS_ABORT_MSG_IF(d < std::numeric_limits<int16_t>::min() ||
                        d > std::numeric_limits<int16_t>::max(),
                    "SETH ack PSN " << psn << " is " << d << " from cack_psn " << m_cackPsn
                                    << "; ack_psn_offset allows -32768..32767");
    m_ackPsnOffset = static_cast<int16_t>(d);
}

uint32_t
MrcSethHeader::GetSackBasePsn() const
{
    return (m_cackPsn + static_cast<uint32_t>(static_cast<int32_t>(m_sackOffset))) & PSN_MASK;
}

void
MrcSethHeader::SetSackBasePsn(uint32_t psn)
{
    int32_t d = PsnDistance(m_cackPsn, psn & PSN_MASK);
    NS_ABORT_MSG_IF(d < std::numeric_limits<int16_t>::min() ||
                        d > std::numeric_limits<int16_t>::max(),
                    "SETH SACK base PSN " << psn << " is " << d << " from cack_psn " << m_cackPsn
                                          << "; sack_offset allows -32768..32767");
    m_sackOffset = static_cast<int16_t>(d);
}

uint64_t
MrcSethHeader::BitOf(uint32_t index)
{
    return SACK_BITMAP_BASE_AT_LSB ? (uint64_t{1} << index)
                                   : (uint64_t{1} << (SACK_BITMAP_BITS - 1 - index));
}

bool
MrcSethHeader::IsPsnSacked(uint32_t psn) const
{
    uint32_t index = (psn - GetSackBasePsn()) & PSN_MASK;
    return index < SACK_BITMAP_BITS && (m_sackBitmap & BitOf(index)) != 0;
}

bool
MrcSethHeader::SetPsnSacked(uint32_t psn)
{
    uint32_t index = (psn - GetSackBasePsn()) & PSN_MASK;
    if (index >= SACK_BITMAP_BITS)
    {
        return false;
    }
    m_sackBitmap |= BitOf(index);
    return true;
}

} // namespace ns3
