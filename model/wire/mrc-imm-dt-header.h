/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_IMM_DT_HEADER_H
#define MRC_IMM_DT_HEADER_H

#include "mrc-wire-header.h"

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * The InfiniBand Immediate Data extended header (ImmDt).
 */

namespace ns3
{

/**
 * \ingroup mrc
 * The 4-byte Immediate Data header (IBTA vol. 1, section 9.3.4), carried by
 * the last (or only) packet of an RDMA Write with Immediate.
 *
 * The specification treats the four bytes as opaque; this class presents them
 * as one 32-bit number written in network byte order (most significant byte
 * first), which is how verbs applications usually fill them.
 */
class MrcImmDtHeader : public MrcWireHeader
{
  public:
    static constexpr uint32_t SERIALIZED_SIZE = 4; //!< bytes on the wire

    MrcImmDtHeader();

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

    /// \param imm the immediate data
    void SetImmediate(uint32_t imm);
    /// \return the immediate data
    uint32_t GetImmediate() const;

  private:
    uint32_t m_imm; //!< immediate data
};

} // namespace ns3

#endif /* MRC_IMM_DT_HEADER_H */
