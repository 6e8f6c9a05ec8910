/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-erth-header.h"

#include "mrc-byte-io.h"
#include "mrc-ext-header-common.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcErthHeader");

NS_OBJECT_ENSURE_REGISTERED(MrcErthHeader);

std::string
MrcEndpointOpToString(MrcEndpointOp op)
{
    switch (op)
    {
    case MrcEndpointOp::PORT_STATUS_UPDATE:
        return "PORT_STATUS_UPDATE";
    case MrcEndpointOp::EV_PROBE:
        return "EV_PROBE";
    }
    return "UNKNOWN(" + std::to_string(static_cast<unsigned>(op)) + ")";
}

TypeId
MrcErthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcErthHeader")
                            .SetParent<MrcWireHeader>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcErthHeader>();
    return tid;
}

TypeId
MrcErthHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
MrcErthHeader::GetSerializedSize() const
{
    return SIZE;
}

void
MrcErthHeader::WriteTo(uint8_t* out) const
{
    static_assert(SIZE == 16, "the ERTH layout below is 16 bytes");
    MrcByteIo::WriteU16(
        out,
        static_cast<uint16_t>(MrcWire::LeadBits(m_type, m_nextHeader) | (m_op << OP_SHIFT)));
    out[2] = 0;
    out[3] = m_vendorInfo;
    MrcByteIo::WriteU32(out + 4, m_portStatusMask);
    MrcByteIo::WriteU32(out + 8, 0);
    MrcByteIo::WriteU16(out + 12, m_txTimestamp);
    MrcByteIo::WriteU16(out + 14,
                        static_cast<uint16_t>((m_tsr ? MrcTsethHeader::TSR_BIT : 0) | m_ftype));
}

uint32_t
MrcErthHeader::Deserialize(Buffer::Iterator start)
{
    uint16_t lead = start.ReadNtohU16();
    m_type = MrcWire::TypeOf(lead);
    m_nextHeader = MrcWire::NxtOf(lead);
    m_op = (lead >> OP_SHIFT) & OP_MASK;
    start.ReadU8();
    m_vendorInfo = start.ReadU8();
    m_portStatusMask = start.ReadNtohU32();
    start.ReadNtohU32();
    m_txTimestamp = start.ReadNtohU16();
    uint16_t word = start.ReadNtohU16();
    m_tsr = (word & MrcTsethHeader::TSR_BIT) != 0;
    m_ftype = word & MrcTsethHeader::FTYPE_MASK;
    return SIZE;
}

void
MrcErthHeader::Print(std::ostream& os) const
{
    os << "ERTH op=" << MrcEndpointOpToString(GetOp()) << " vendor_info=" << unsigned(m_vendorInfo)
       << " port_status_mask=0x" << std::hex << m_portStatusMask << std::dec
       << " tx_timestamp=" << m_txTimestamp << " tsr=" << m_tsr << " ftype=" << unsigned(m_ftype);
}

void
MrcErthHeader::SetType(uint8_t type)
{
    NS_ABORT_MSG_IF(type > MrcWire::TYPE_MAX,
                    "ERTH type " << unsigned(type) << " does not fit in 4 bits (0..15)");
    m_type = type;
}

uint8_t
MrcErthHeader::GetType() const
{
    return m_type;
}

void
MrcErthHeader::SetNextHeader(uint8_t nxt)
{
    NS_ABORT_MSG_IF(nxt > MrcWire::NXT_MAX,
                    "ERTH nxt " << unsigned(nxt) << " does not fit in 5 bits (0..31)");
    m_nextHeader = nxt;
}

uint8_t
MrcErthHeader::GetNextHeader() const
{
    return m_nextHeader;
}

void
MrcErthHeader::SetOp(MrcEndpointOp op)
{
    NS_ABORT_MSG_IF(static_cast<uint8_t>(op) > OP_MASK,
                    "ERTH op " << unsigned(static_cast<uint8_t>(op)) << " does not fit in 2 bits");
    m_op = static_cast<uint8_t>(op);
}

MrcEndpointOp
MrcErthHeader::GetOp() const
{
    return static_cast<MrcEndpointOp>(m_op);
}

void
MrcErthHeader::SetVendorInfo(uint8_t info)
{
    m_vendorInfo = info;
}

uint8_t
MrcErthHeader::GetVendorInfo() const
{
    return m_vendorInfo;
}

void
MrcErthHeader::SetPortStatusMask(uint32_t mask)
{
    m_portStatusMask = mask;
}

uint32_t
MrcErthHeader::GetPortStatusMask() const
{
    return m_portStatusMask;
}

uint32_t
MrcErthHeader::PortBit(uint32_t port)
{
    NS_ABORT_MSG_IF(port < 1 || port > MAX_PORT,
                    "ERTH port " << port << " is out of range: ports are 1.." << MAX_PORT);
    return uint32_t{1} << (port - 1 + PORT1_BIT);
}

bool
MrcErthHeader::IsPortReachable(uint32_t port) const
{
    return (m_portStatusMask & PortBit(port)) != 0;
}

void
MrcErthHeader::SetPortReachable(uint32_t port, bool reachable)
{
    if (reachable)
    {
        m_portStatusMask |= PortBit(port);
    }
    else
    {
        m_portStatusMask &= ~PortBit(port);
    }
}

void
MrcErthHeader::SetTxTimestamp(uint16_t ticks)
{
    m_txTimestamp = ticks;
}

uint16_t
MrcErthHeader::GetTxTimestamp() const
{
    return m_txTimestamp;
}

void
MrcErthHeader::SetTsr(bool tsr)
{
    m_tsr = tsr;
}

bool
MrcErthHeader::GetTsr() const
{
    return m_tsr;
}

void
MrcErthHeader::SetFtype(uint8_t ftype)
{
    NS_ABORT_MSG_IF(ftype > MrcTsethHeader::FTYPE_MASK,
                    "ERTH ftype " << unsigned(ftype) << " does not fit in 4 bits (0..15)");
    m_ftype = ftype;
}

uint8_t
MrcErthHeader::GetFtype() const
{
    return m_ftype;
}

} // namespace ns3
