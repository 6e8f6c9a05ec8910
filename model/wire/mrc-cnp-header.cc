/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-cnp-header.h"

#include "mrc-opcodes.h"

#include "ns3/log.h"

#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcCnpHeader");

NS_OBJECT_ENSURE_REGISTERED(MrcCnpHeader);

MrcCnpHeader::MrcCnpHeader() = default;

TypeId
MrcCnpHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcCnpHeader")
                            .SetParent<MrcWireHeader>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcCnpHeader>();
    return tid;
}

TypeId
MrcCnpHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
MrcCnpHeader::GetSerializedSize() const
{
    return SERIALIZED_SIZE;
}

void
MrcCnpHeader::WriteTo(uint8_t* out) const
{
    std::memset(out, 0, SERIALIZED_SIZE);
}

uint32_t
MrcCnpHeader::Deserialize(Buffer::Iterator start)
{
    start.Next(SERIALIZED_SIZE);
    return SERIALIZED_SIZE;
}

void
MrcCnpHeader::Print(std::ostream& os) const
{
    os << "cnp reserved=" << SERIALIZED_SIZE << "B";
}

MrcBthHeader
MrcCnpHeader::MakeBth(uint32_t congestedFlowSourceQp, uint16_t pKey)
{
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::ROCE_CNP);
    bth.SetPartitionKey(pKey);
    bth.SetBecn(true);
    bth.SetDestQp(congestedFlowSourceQp);
    bth.SetPsn(0);
    return bth;
}

} // namespace ns3
