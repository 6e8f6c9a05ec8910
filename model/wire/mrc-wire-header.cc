/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-wire-header.h"

#include "ns3/abort.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcWireHeader);

TypeId
MrcWireHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcWireHeader").SetParent<Header>().SetGroupName("Mrc");
    return tid;
}

void
MrcWireHeader::Serialize(Buffer::Iterator start) const
{
    const uint32_t size = GetSerializedSize();
    if (const uint8_t* bytes = GetWireBytes())
    {
        start.Write(bytes, size); // already as they go on the wire: no copy
        return;
    }
    NS_ABORT_MSG_IF(size > MAX_SERIALIZED_SIZE,
                    GetInstanceTypeId().GetName()
                        << ": " << size << " bytes; an MrcWireHeader has at most "
                        << MAX_SERIALIZED_SIZE);
    uint8_t b[MAX_SERIALIZED_SIZE];
    WriteTo(b);
    start.Write(b, size);
}

} // namespace ns3
