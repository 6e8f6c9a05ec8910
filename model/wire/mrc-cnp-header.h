/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CNP_HEADER_H
#define MRC_CNP_HEADER_H

#include "mrc-bth-header.h"
#include "mrc-wire-header.h"

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * The body of a RoCEv2 Congestion Notification Packet (CNP).
 */

namespace ns3
{

/**
 * \ingroup mrc
 * The 16 reserved bytes that follow the BTH of a RoCEv2 Congestion
 * Notification Packet (IBTA Annex A17.9.2).
 *
 * A CNP is IP | UDP | BTH | these 16 bytes | ICRC. Its BTH has opcode 0x81
 * (MrcOpcode::ROCE_CNP), BECN set, PSN 0, and a DestQP that names the queue
 * pair the CNP is sent to: the *source* QP of the congested flow, at its
 * sender (the DCQCN reaction point). MakeBth() builds that BTH.
 *
 * The bytes are written as zeros and ignored when read.
 */
class MrcCnpHeader : public MrcWireHeader
{
  public:
    static constexpr uint32_t SERIALIZED_SIZE = 16; //!< bytes on the wire

    MrcCnpHeader();

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void WriteTo(uint8_t* out) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /**
     * The BTH of a CNP: opcode 0x81, BECN 1, FECN 0, A 0, PSN 0, SE/M/PadCnt/TVer 0.
     * \param congestedFlowSourceQp the QP at the sender of the congested flow (24 bits)
     * \param pKey the partition key (the flow's; 0xffff by default)
     * \return the BTH
     */
    static MrcBthHeader MakeBth(uint32_t congestedFlowSourceQp,
                                uint16_t pKey = MrcBthHeader::DEFAULT_P_KEY);
};

} // namespace ns3

#endif /* MRC_CNP_HEADER_H */
