/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-tseth-header.h"

#include "mrc-byte-io.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcTsethHeader");

NS_OBJECT_ENSURE_REGISTERED(MrcTsethHeader);

TypeId
MrcTsethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcTsethHeader")
                            .SetParent<MrcWireHeader>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcTsethHeader>();
    return tid;
}

TypeId
MrcTsethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
MrcTsethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
MrcTsethHeader::WriteTo(uint8_t* out) const
{
    MrcByteIo::WriteU16(out, m_txTimestamp);
    MrcByteIo::WriteU16(out + 2, static_cast<uint16_t>((m_tsr ? TSR_BIT : 0) | m_ftype));
}

uint32_t
MrcTsethHeader::Deserialize(Buffer::Iterator start)
{
    m_txTimestamp = start.ReadNtohU16();
    uint16_t word = start.ReadNtohU16();
    m_tsr = (word & TSR_BIT) != 0;
    m_ftype = word & FTYPE_MASK;
    return SIZE;
}

void
MrcTsethHeader::Print(std::ostream& os) const
{
    os << "TSETH tx_timestamp=" << m_txTimestamp << " tsr=" << m_tsr
       << " ftype=" << unsigned(m_ftype);
}

void
MrcTsethHeader::SetTxTimestamp(uint16_t ticks)
{
    m_txTimestamp = ticks;
}

uint16_t
MrcTsethHeader::GetTxTimestamp() const
{
    return m_txTimestamp;
}

void
MrcTsethHeader::SetTsr(bool tsr)
{
    m_tsr = tsr;
}

bool
MrcTsethHeader::GetTsr() const
{
    return m_tsr;
}

void
MrcTsethHeader::SetFtype(uint8_t ftype)
{
    NS_ABORT_MSG_IF(ftype > FTYPE_MASK,
                    "TSETH ftype " << unsigned(ftype) << " does not fit in 4 bits (0..15)");
    m_ftype = ftype;
}

uint8_t
MrcTsethHeader::GetFtype() const
{
    return m_ftype;
}

uint16_t
MrcTsethHeader::TimeToTicks(Time t, uint32_t tickNs)
{
    NS_ABORT_MSG_IF(tickNs == 0, "MRC timestamp tick must be > 0 ns");
    NS_ABORT_MSG_IF(t.IsStrictlyNegative(), "MRC timestamp of a negative time " << t);
    return static_cast<uint16_t>(static_cast<uint64_t>(t.GetNanoSeconds()) / tickNs);
}

Time
MrcTsethHeader::TicksToTime(uint16_t ticks, uint32_t tickNs)
{
    return NanoSeconds(static_cast<int64_t>(ticks) * tickNs);
}

Time
MrcTsethHeader::ElapsedBetween(uint16_t earlier, uint16_t later, uint32_t tickNs)
{
    return TicksToTime(static_cast<uint16_t>(later - earlier), tickNs);
}

Time
MrcTsethHeader::GetWrapPeriod(uint32_t tickNs)
{
    return NanoSeconds(static_cast<int64_t>(TIMESTAMP_MODULO) * tickNs);
}

} // namespace ns3
