/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RETH_HEADER_H
#define MRC_RETH_HEADER_H

#include "mrc-wire-header.h"

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * The InfiniBand RDMA Extended Transport Header (RETH).
 */

namespace ns3
{

/**
 * \ingroup mrc
 * The 16-byte RDMA Extended Transport Header (IBTA vol. 1, section 9.3.3):
 * virtual address (64 bits), R_Key (32 bits), DMA length (32 bits), all in
 * network byte order.
 *
 * RoCE RC carries it in the first (or only) packet of an RDMA Write; MRC
 * carries it in every Write packet, with the virtual address of that packet's
 * payload, so the receiver can place packets that arrive out of order.
 */
class MrcRethHeader : public MrcWireHeader
{
  public:
    static constexpr uint32_t SERIALIZED_SIZE = 16; //!< bytes on the wire

    MrcRethHeader();

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

    /// \param va the remote virtual address
    void SetVirtualAddress(uint64_t va);
    /// \return the remote virtual address
    uint64_t GetVirtualAddress() const;

    /// \param rkey the remote memory key
    void SetRkey(uint32_t rkey);
    /// \return the remote memory key
    uint32_t GetRkey() const;

    /// \param length the DMA length in bytes (the whole Write's length)
    void SetDmaLength(uint32_t length);
    /// \return the DMA length in bytes
    uint32_t GetDmaLength() const;

  private:
    uint64_t m_va;        //!< virtual address
    uint32_t m_rkey;      //!< R_Key
    uint32_t m_dmaLength; //!< DMA length
};

} // namespace ns3

#endif /* MRC_RETH_HEADER_H */
