/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-aeth-header.h"

#include "mrc-byte-io.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcAethHeader");

NS_OBJECT_ENSURE_REGISTERED(MrcAethHeader);

namespace
{

/// \return a syndrome of the given type and value
constexpr uint8_t
MakeSyndrome(MrcAethHeader::SyndromeType type, uint8_t value)
{
    return static_cast<uint8_t>((static_cast<uint8_t>(type) << 5) |
                                (value & MrcAethHeader::VALUE_MASK));
}

/// \return the name of a syndrome type, for Print
const char*
TypeName(MrcAethHeader::SyndromeType type)
{
    switch (type)
    {
    case MrcAethHeader::SyndromeType::ACK:
        return "ACK";
    case MrcAethHeader::SyndromeType::RNR_NAK:
        return "RNR-NAK";
    case MrcAethHeader::SyndromeType::NAK:
        return "NAK";
    default:
        return "reserved";
    }
}

} // namespace

MrcAethHeader::MrcAethHeader()
    : m_syndrome(MakeSyndrome(SyndromeType::ACK, CREDIT_INVALID)),
      m_msn(0)
{
}

TypeId
MrcAethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcAethHeader")
                            .SetParent<MrcWireHeader>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcAethHeader>();
    return tid;
}

TypeId
MrcAethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
MrcAethHeader::GetSerializedSize() const
{
    return SERIALIZED_SIZE;
}

void
MrcAethHeader::WriteTo(uint8_t* out) const
{
    MrcByteIo::WriteU32(out, (static_cast<uint32_t>(m_syndrome) << 24) | m_msn);
}

uint32_t
MrcAethHeader::Deserialize(Buffer::Iterator start)
{
    uint32_t word = start.ReadNtohU32();
    m_syndrome = static_cast<uint8_t>(word >> 24);
    m_msn = word & MSN_MASK;
    return SERIALIZED_SIZE;
}

void
MrcAethHeader::Print(std::ostream& os) const
{
    std::ios_base::fmtflags flags = os.flags();
    os << "syndrome=0x" << std::hex << std::setfill('0') << std::setw(2) << unsigned(m_syndrome)
       << " (" << TypeName(GetType()) << " " << std::dec << unsigned(GetValue())
       << ") msn=" << m_msn;
    os.flags(flags);
}

void
MrcAethHeader::SetSyndrome(uint8_t syndrome)
{
    m_syndrome = syndrome;
}

uint8_t
MrcAethHeader::GetSyndrome() const
{
    return m_syndrome;
}

MrcAethHeader::SyndromeType
MrcAethHeader::GetType() const
{
    return static_cast<SyndromeType>((m_syndrome >> 5) & 0x3);
}

uint8_t
MrcAethHeader::GetValue() const
{
    return m_syndrome & VALUE_MASK;
}

bool
MrcAethHeader::IsAck() const
{
    return GetType() == SyndromeType::ACK;
}

bool
MrcAethHeader::IsRnrNak() const
{
    return GetType() == SyndromeType::RNR_NAK;
}

bool
MrcAethHeader::IsNak() const
{
    return GetType() == SyndromeType::NAK;
}

void
MrcAethHeader::SetAck(uint8_t creditCode)
{
    NS_ABORT_MSG_IF(creditCode > VALUE_MASK,
                    "AETH credit code " << unsigned(creditCode)
                                        << " is out of range: allowed 0..31 (31 = no credit)");
    m_syndrome = MakeSyndrome(SyndromeType::ACK, creditCode);
}

uint8_t
MrcAethHeader::GetCreditCode() const
{
    NS_ABORT_MSG_UNLESS(IsAck(),
                        "AETH syndrome 0x" << std::hex << unsigned(m_syndrome)
                                           << " is not an ACK: it has no credit code");
    return GetValue();
}

void
MrcAethHeader::SetRnrNak(uint8_t timerCode)
{
    NS_ABORT_MSG_IF(timerCode > VALUE_MASK,
                    "AETH RNR timer code " << unsigned(timerCode)
                                           << " is out of range: allowed 0..31");
    m_syndrome = MakeSyndrome(SyndromeType::RNR_NAK, timerCode);
}

uint8_t
MrcAethHeader::GetRnrTimer() const
{
    NS_ABORT_MSG_UNLESS(IsRnrNak(),
                        "AETH syndrome 0x" << std::hex << unsigned(m_syndrome)
                                           << " is not an RNR NAK: it has no RNR timer");
    return GetValue();
}

void
MrcAethHeader::SetNak(NakCode code)
{
    NS_ABORT_MSG_IF(static_cast<uint8_t>(code) > VALUE_MASK,
                    "AETH NAK code " << unsigned(static_cast<uint8_t>(code))
                                     << " is out of range: allowed 0..31");
    m_syndrome = MakeSyndrome(SyndromeType::NAK, static_cast<uint8_t>(code));
}

MrcAethHeader::NakCode
MrcAethHeader::GetNakCode() const
{
    NS_ABORT_MSG_UNLESS(IsNak(),
                        "AETH syndrome 0x" << std::hex << unsigned(m_syndrome)
                                           << " is not a NAK: it has no NAK code");
    return static_cast<NakCode>(GetValue());
}

void
MrcAethHeader::SetMsn(uint32_t msn)
{
    NS_ABORT_MSG_IF(msn > MSN_MASK,
                    "AETH MSN 0x" << std::hex << msn
                                  << " does not fit in 24 bits (allowed 0..0xffffff)");
    m_msn = msn;
}

uint32_t
MrcAethHeader::GetMsn() const
{
    return m_msn;
}

} // namespace ns3
