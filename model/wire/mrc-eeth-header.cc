/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-eeth-header.h"

#include "mrc-byte-io.h"
#include "mrc-ext-header-common.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcEethHeader");

NS_OBJECT_ENSURE_REGISTERED(MrcEethHeader);

namespace
{
constexpr uint32_t RESERVED_BEFORE_TIMESTAMP = MrcEethHeader::TX_TIMESTAMP_OFFSET - 2;
constexpr uint32_t RESERVED_AFTER_TIMESTAMP =
    MrcEethHeader::SIZE - MrcEethHeader::TX_TIMESTAMP_OFFSET - 2;
} // namespace

TypeId
MrcEethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcEethHeader")
                            .SetParent<MrcWireHeader>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcEethHeader>();
    return tid;
}

TypeId
MrcEethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
MrcEethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
MrcEethHeader::WriteTo(uint8_t* out) const
{
    MrcByteIo::WriteU16(
        out,
        static_cast<uint16_t>(MrcWire::LeadBits(m_type, m_nextHeader) | (m_op << OP_SHIFT)));
    std::memset(out + 2, 0, RESERVED_BEFORE_TIMESTAMP);
    MrcByteIo::WriteU16(out + TX_TIMESTAMP_OFFSET, m_txTimestamp);
    std::memset(out + TX_TIMESTAMP_OFFSET + 2, 0, RESERVED_AFTER_TIMESTAMP);
}

uint32_t
MrcEethHeader::Deserialize(Buffer::Iterator start)
{
    uint16_t lead = start.ReadNtohU16();
    m_type = MrcWire::TypeOf(lead);
    m_nextHeader = MrcWire::NxtOf(lead);
    m_op = (lead >> OP_SHIFT) & OP_MASK;
    start.Next(RESERVED_BEFORE_TIMESTAMP);
    m_txTimestamp = start.ReadNtohU16();
    start.Next(RESERVED_AFTER_TIMESTAMP);
    return SIZE;
}

void
MrcEethHeader::Print(std::ostream& os) const
{
    os << "EETH op=" << MrcEndpointOpToString(GetOp()) << " tx_timestamp=" << m_txTimestamp;
}

void
MrcEethHeader::SetType(uint8_t type)
{
    NS_ABORT_MSG_IF(type > MrcWire::TYPE_MAX,
                    "EETH type " << unsigned(type) << " does not fit in 4 bits (0..15)");
    m_type = type;
}

uint8_t
MrcEethHeader::GetType() const
{
    return m_type;
}

void
MrcEethHeader::SetNextHeader(uint8_t nxt)
{
    NS_ABORT_MSG_IF(nxt > MrcWire::NXT_MAX,
                    "EETH nxt " << unsigned(nxt) << " does not fit in 5 bits (0..31)");
    m_nextHeader = nxt;
}

uint8_t
MrcEethHeader::GetNextHeader() const
{
    return m_nextHeader;
}

void
MrcEethHeader::SetOp(MrcEndpointOp op)
{
    NS_ABORT_MSG_IF(static_cast<uint8_t>(op) > OP_MASK,
                    "EETH op " << unsigned(static_cast<uint8_t>(op)) << " does not fit in 2 bits");
    m_op = static_cast<uint8_t>(op);
}

MrcEndpointOp
MrcEethHeader::GetOp() const
{
    return static_cast<MrcEndpointOp>(m_op);
}

void
MrcEethHeader::SetTxTimestamp(uint16_t ticks)
{
    m_txTimestamp = ticks;
}

uint16_t
MrcEethHeader::GetTxTimestamp() const
{
    return m_txTimestamp;
}

} // namespace ns3
