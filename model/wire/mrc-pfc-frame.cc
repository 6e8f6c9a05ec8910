/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-pfc-frame.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcPfcFrame");

NS_OBJECT_ENSURE_REGISTERED(MrcPfcFrame);

namespace
{

/// Abort unless cls names one of the eight classes.
void
CheckClass(uint8_t cls)
{
    NS_ABORT_MSG_IF(cls >= MrcPfcFrame::N_CLASSES,
                    "PFC class " << unsigned(cls) << " is out of range: allowed 0..7");
}

} // namespace

Mac48Address
MrcPfcFrame::GetDestination()
{
    static const Mac48Address address("01:80:c2:00:00:01");
    return address;
}

TypeId
MrcPfcFrame::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcPfcFrame")
                            .SetParent<Header>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcPfcFrame>();
    return tid;
}

MrcPfcFrame::MrcPfcFrame()
    : m_opcode(OPCODE),
      m_classEnableVector(0),
      m_quanta{}
{
}

TypeId
MrcPfcFrame::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
MrcPfcFrame::GetSerializedSize() const
{
    return SIZE;
}

void
MrcPfcFrame::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteHtonU16(m_opcode);
    i.WriteHtonU16(m_classEnableVector);
    for (uint16_t q : m_quanta)
    {
        i.WriteHtonU16(q);
    }
    i.WriteU8(0, SIZE - 4 - 2 * N_CLASSES);
}

uint32_t
MrcPfcFrame::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    if (i.GetRemainingSize() < SIZE)
    {
        // A frame shorter than the MAC Control body is no PFC frame: opcode 0, which a
        // receiver ignores, and nothing consumed (nor read past the buffer).
        m_opcode = 0;
        m_classEnableVector = 0;
        m_quanta.fill(0);
        return 0;
    }
    m_opcode = i.ReadNtohU16();
    m_classEnableVector = i.ReadNtohU16();
    for (uint16_t& q : m_quanta)
    {
        q = i.ReadNtohU16();
    }
    // The padding carries nothing; the body is SIZE bytes whatever it holds.
    return SIZE;
}

void
MrcPfcFrame::Print(std::ostream& os) const
{
    std::ios_base::fmtflags flags = os.flags();
    os << "PFC opcode=0x" << std::hex << std::setw(4) << std::setfill('0') << m_opcode
       << " enable=0x" << std::setw(2) << m_classEnableVector << std::dec << std::setfill(' ');
    for (uint8_t c = 0; c < N_CLASSES; ++c)
    {
        if (IsEnabled(c))
        {
            os << " c" << unsigned(c) << "=" << m_quanta[c];
        }
    }
    os.flags(flags);
}

void
MrcPfcFrame::SetOpcode(uint16_t opcode)
{
    m_opcode = opcode;
}

uint16_t
MrcPfcFrame::GetOpcode() const
{
    return m_opcode;
}

void
MrcPfcFrame::SetClassEnableVector(uint16_t vector)
{
    NS_ABORT_MSG_IF(vector > 0xff,
                    "PFC class-enable vector 0x" << std::hex << vector
                                                 << " uses bits above 7: allowed 0x00..0xff");
    m_classEnableVector = vector;
}

uint16_t
MrcPfcFrame::GetClassEnableVector() const
{
    return m_classEnableVector;
}

void
MrcPfcFrame::SetPause(uint8_t cls, uint16_t quanta)
{
    CheckClass(cls);
    m_classEnableVector |= static_cast<uint16_t>(1u << cls);
    m_quanta[cls] = quanta;
}

void
MrcPfcFrame::SetQuanta(uint8_t cls, uint16_t quanta)
{
    CheckClass(cls);
    m_quanta[cls] = quanta;
}

uint16_t
MrcPfcFrame::GetQuanta(uint8_t cls) const
{
    CheckClass(cls);
    return m_quanta[cls];
}

bool
MrcPfcFrame::IsEnabled(uint8_t cls) const
{
    CheckClass(cls);
    return (m_classEnableVector >> cls) & 1;
}

const std::array<uint16_t, 8>&
MrcPfcFrame::GetAllQuanta() const
{
    return m_quanta;
}

} // namespace ns3
