/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-bth-header.h"

#include "mrc-byte-io.h"
#include "mrc-opcodes.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcBthHeader");

NS_OBJECT_ENSURE_REGISTERED(MrcBthHeader);

namespace
{

/// Set or clear the bits of mask in byte.
inline void
SetBits(uint8_t& byte, uint8_t mask, bool on)
{
    byte = on ? static_cast<uint8_t>(byte | mask) : static_cast<uint8_t>(byte & ~mask);
}

} // namespace

MrcBthHeader::MrcBthHeader()
    : m_opcode(MrcOpcode::RC_WRITE_ONLY),
      m_byte1(0),
      m_pKey(DEFAULT_P_KEY),
      m_byte4(0),
      m_destQp(0),
      m_byte8(0),
      m_psn(0)
{
}

TypeId
MrcBthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcBthHeader")
                            .SetParent<MrcWireHeader>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcBthHeader>();
    return tid;
}

TypeId
MrcBthHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
MrcBthHeader::GetSerializedSize() const
{
    return SERIALIZED_SIZE;
}

void
MrcBthHeader::WriteTo(uint8_t* out) const
{
    out[0] = m_opcode;
    out[1] = m_byte1;
    MrcByteIo::WriteU16(out + 2, m_pKey);
    out[4] = m_byte4;
    MrcByteIo::WriteU24(out + 5, m_destQp);
    out[8] = m_byte8;
    MrcByteIo::WriteU24(out + 9, m_psn);
}

uint32_t
MrcBthHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    m_opcode = i.ReadU8();
    m_byte1 = i.ReadU8();
    m_pKey = i.ReadNtohU16();
    m_byte4 = i.ReadU8();
    m_destQp = MrcByteIo::ReadU24(i);
    m_byte8 = i.ReadU8();
    m_psn = MrcByteIo::ReadU24(i);
    return SERIALIZED_SIZE;
}

void
MrcBthHeader::Print(std::ostream& os) const
{
    std::ios_base::fmtflags flags = os.flags();
    os << std::hex << std::setfill('0') << "opcode=0x" << std::setw(2) << unsigned(m_opcode)
       << " se=" << GetSolicitedEvent() << " m=" << GetMigReq()
       << " pad=" << unsigned(GetPadCount()) << " tver=" << unsigned(GetTransportVersion())
       << " pkey=0x" << std::setw(4) << m_pKey << " fecn=" << GetFecn() << " becn=" << GetBecn()
       << " dqp=0x" << std::setw(6) << m_destQp << " a=" << GetAckReq()
       << " rtx=" << GetRetransmission() << " ts=" << GetTimestampPresent() << " psn=0x"
       << std::setw(6) << m_psn;
    os.flags(flags);
}

void
MrcBthHeader::SetOpcode(uint8_t opcode)
{
    m_opcode = opcode;
}

uint8_t
MrcBthHeader::GetOpcode() const
{
    return m_opcode;
}

void
MrcBthHeader::SetSolicitedEvent(bool se)
{
    SetBits(m_byte1, SE_BIT, se);
}

bool
MrcBthHeader::GetSolicitedEvent() const
{
    return (m_byte1 & SE_BIT) != 0;
}

void
MrcBthHeader::SetMigReq(bool m)
{
    SetBits(m_byte1, M_BIT, m);
}

bool
MrcBthHeader::GetMigReq() const
{
    return (m_byte1 & M_BIT) != 0;
}

void
MrcBthHeader::SetPadCount(uint8_t padCount)
{
    NS_ABORT_MSG_IF(padCount > 3,
                    "BTH pad count " << unsigned(padCount) << " is out of range: allowed 0..3");
    m_byte1 = static_cast<uint8_t>((m_byte1 & 0xcf) | (padCount << 4));
}

uint8_t
MrcBthHeader::GetPadCount() const
{
    return (m_byte1 >> 4) & 0x3;
}

void
MrcBthHeader::SetTransportVersion(uint8_t tver)
{
    NS_ABORT_MSG_IF(tver > 15,
                    "BTH transport version " << unsigned(tver)
                                             << " is out of range: allowed 0..15");
    m_byte1 = static_cast<uint8_t>((m_byte1 & 0xf0) | tver);
}

uint8_t
MrcBthHeader::GetTransportVersion() const
{
    return m_byte1 & 0x0f;
}

void
MrcBthHeader::SetPartitionKey(uint16_t pKey)
{
    m_pKey = pKey;
}

uint16_t
MrcBthHeader::GetPartitionKey() const
{
    return m_pKey;
}

void
MrcBthHeader::SetFecn(bool fecn)
{
    SetBits(m_byte4, FECN_BIT, fecn);
}

bool
MrcBthHeader::GetFecn() const
{
    return (m_byte4 & FECN_BIT) != 0;
}

void
MrcBthHeader::SetBecn(bool becn)
{
    SetBits(m_byte4, BECN_BIT, becn);
}

bool
MrcBthHeader::GetBecn() const
{
    return (m_byte4 & BECN_BIT) != 0;
}

void
MrcBthHeader::SetDestQp(uint32_t qpn)
{
    NS_ABORT_MSG_IF(qpn > QPN_MASK,
                    "BTH destination QP 0x" << std::hex << qpn
                                            << " does not fit in 24 bits (allowed 0..0xffffff)");
    m_destQp = qpn;
}

uint32_t
MrcBthHeader::GetDestQp() const
{
    return m_destQp;
}

void
MrcBthHeader::SetAckReq(bool ackReq)
{
    SetBits(m_byte8, ACK_REQ_BIT, ackReq);
}

bool
MrcBthHeader::GetAckReq() const
{
    return (m_byte8 & ACK_REQ_BIT) != 0;
}

void
MrcBthHeader::SetRetransmission(bool rtx)
{
    SetBits(m_byte8, RTX_BIT, rtx);
}

bool
MrcBthHeader::GetRetransmission() const
{
    return (m_byte8 & RTX_BIT) != 0;
}

void
MrcBthHeader::SetTimestampPresent(bool ts)
{
    SetBits(m_byte8, TS_BIT, ts);
}

bool
MrcBthHeader::GetTimestampPresent() const
{
    return (m_byte8 & TS_BIT) != 0;
}

void
MrcBthHeader::SetPsn(uint32_t psn)
{
    NS_ABORT_MSG_IF(psn > PSN_MASK,
                    "BTH PSN 0x" << std::hex << psn
                                 << " does not fit in 24 bits (allowed 0..0xffffff)");
    m_psn = psn;
}

uint32_t
MrcBthHeader::GetPsn() const
{
    return m_psn;
}

} // namespace ns3
