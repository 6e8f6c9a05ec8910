/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-cc-state-header.h"

#include "mrc-byte-io.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcCcStateHeader");

NS_OBJECT_ENSURE_REGISTERED(MrcCcStateHeader);

TypeId
MrcCcStateHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcCcStateHeader")
                            .SetParent<MrcWireHeader>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcCcStateHeader>();
    return tid;
}

TypeId
MrcCcStateHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
MrcCcStateHeader::GetSerializedSize() const
{
    return SIZE;
}

void
MrcCcStateHeader::WriteTo(uint8_t* out) const
{
    static_assert(SIZE == 8, "the CC state layout below is 8 bytes");
    MrcByteIo::WriteU16(out, m_txTimestamp);
    MrcByteIo::WriteU16(out + 2, m_oooCount); // the reserved top bit stays 0
    MrcByteIo::WriteU32(out + 4,
                        (m_restoreCwnd ? 0x80000000u : 0u) |
                            (static_cast<uint32_t>(m_rcvCwndPen) << 24) | m_rcvdBytes);
}

uint32_t
MrcCcStateHeader::Deserialize(Buffer::Iterator start)
{
    uint8_t bytes[SIZE];
    start.Read(bytes, SIZE);
    ReadBytes(bytes);
    return SIZE;
}

void
MrcCcStateHeader::ReadBytes(const uint8_t* b)
{
    // byte offsets: 0 tx_timestamp, 2 ooo_count, 4 restore_cwnd/rcv_cwnd_pen/rcvd_bytes
    m_txTimestamp = MrcByteIo::ReadU16(b);
    m_oooCount = MrcByteIo::ReadU16(b + 2) & OOO_COUNT_MAX;
    const uint32_t word = MrcByteIo::ReadU32(b + 4);
    m_restoreCwnd = (word & 0x80000000u) != 0;
    m_rcvCwndPen = (word >> 24) & RCV_CWND_PEN_MAX;
    m_rcvdBytes = word & RCVD_BYTES_MASK;
}

void
MrcCcStateHeader::Print(std::ostream& os) const
{
    os << "CC_STATE tx_timestamp=" << m_txTimestamp << " ooo_count=" << m_oooCount
       << " restore_cwnd=" << m_restoreCwnd << " rcv_cwnd_pen=" << unsigned(m_rcvCwndPen)
       << " rcvd_bytes=" << m_rcvdBytes << "x" << RCVD_BYTES_UNIT;
}

void
MrcCcStateHeader::SetTxTimestamp(uint16_t ticks)
{
    m_txTimestamp = ticks;
}

uint16_t
MrcCcStateHeader::GetTxTimestamp() const
{
    return m_txTimestamp;
}

void
MrcCcStateHeader::SetOooCount(uint16_t count)
{
    NS_ABORT_MSG_IF(count > OOO_COUNT_MAX,
                    "CC_STATE ooo_count " << count << " does not fit in 15 bits (0..32767)");
    m_oooCount = count;
}

uint16_t
MrcCcStateHeader::GetOooCount() const
{
    return m_oooCount;
}

void
MrcCcStateHeader::SetRestoreCwnd(bool restore)
{
    m_restoreCwnd = restore;
}

bool
MrcCcStateHeader::GetRestoreCwnd() const
{
    return m_restoreCwnd;
}

void
MrcCcStateHeader::SetRcvCwndPen(uint8_t pen)
{
    NS_ABORT_MSG_IF(pen > RCV_CWND_PEN_MAX,
                    "CC_STATE rcv_cwnd_pen " << unsigned(pen)
                                             << " does not fit in 7 bits (0..127)");
    m_rcvCwndPen = pen;
}

uint8_t
MrcCcStateHeader::GetRcvCwndPen() const
{
    return m_rcvCwndPen;
}

void
MrcCcStateHeader::SetRcvdBytesUnits(uint32_t units)
{
    NS_ABORT_MSG_IF(units > RCVD_BYTES_MASK,
                    "CC_STATE rcvd_bytes " << units << " does not fit in 24 bits");
    m_rcvdBytes = units;
}

uint32_t
MrcCcStateHeader::GetRcvdBytesUnits() const
{
    return m_rcvdBytes;
}

uint32_t
MrcCcStateHeader::BytesToRcvdUnits(uint64_t bytes)
{
    return static_cast<uint32_t>(bytes / RCVD_BYTES_UNIT) & RCVD_BYTES_MASK;
}

uint64_t
MrcCcStateHeader::RcvdUnitsDeltaBytes(uint32_t older, uint32_t newer)
{
    return static_cast<uint64_t>((newer - older) & RCVD_BYTES_MASK) * RCVD_BYTES_UNIT;
}

} // namespace ns3
