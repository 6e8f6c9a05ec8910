/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-cnp-header.h"

#include "mrc-opcodes.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcCnpHeader");

NS_OBJECT_ENSURE_REGISTERED(MrcCnpHeader);

MrcCnpHeader::MrcCnpHeader() = default;

TypeId
MrcCnpHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcCnpHeader")
                            .SetParent<Header>()
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
MrcCnpHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(0, SERIALIZED_SIZE);
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
