/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_EETH_HEADER_H
#define MRC_EETH_HEADER_H

#include "mrc-erth-header.h"
#include "mrc-wire-header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mrc
 * MRC Endpoint Response Extended Header (EETH), 36 bytes, after the BTH of an
 * Endpoint Response (opcode 0xD9). The BTH addresses QPN MRC_ENDPOINT_QPN and
 * echoes the request id in PSN[15:0]; the response travels in the control
 * class.
 *
 * \verbatim
   0                   1                   2                   3
   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  | type  |   nxt   |rsv| op|rsv|           reserved              |  0
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  |                    reserved (24 bytes)                        |  4..27
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  |         tx_timestamp          |           reserved            | 28
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  |                           reserved                            | 32
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 \endverbatim
 *
 * The two transcriptions disagree on where op sits in the leading word:
 * pcap-view reads bits 3..2, MRC-Client writes bits 5..4. The model follows
 * pcap-view (OP_SHIFT = 2). Neither gives the reserved bytes a meaning, nor
 * says what tx_timestamp holds; the model reflects the request's, as NS3X
 * does. See doc/mrc.rst.
 */
class MrcEethHeader : public MrcWireHeader
{
  public:
    static constexpr uint32_t SIZE = 36;     ///< serialized size in bytes
    static constexpr uint16_t OP_MASK = 0x3; ///< op is 2 bits
    static constexpr unsigned OP_SHIFT = 2;  ///< op is bits 3..2 of the leading word (pcap-view)
    static constexpr uint32_t TX_TIMESTAMP_OFFSET = 28; ///< byte offset of tx_timestamp

    /// \return the TypeId of this class
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void WriteTo(uint8_t* out) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /// \param type the 4-bit type field (reserved; aborts above 15)
    void SetType(uint8_t type);
    /// \return the 4-bit type field
    uint8_t GetType() const;
    /// \param nxt the 5-bit next-header field (reserved; aborts above 31)
    void SetNextHeader(uint8_t nxt);
    /// \return the 5-bit next-header field
    uint8_t GetNextHeader() const;
    /// \param op the endpoint operation being answered
    void SetOp(MrcEndpointOp op);
    /// \return the endpoint operation (may be 2 or 3 after Deserialize)
    MrcEndpointOp GetOp() const;
    /// \param ticks the request's tx_timestamp, reflected
    void SetTxTimestamp(uint16_t ticks);
    /// \return the reflected tx_timestamp
    uint16_t GetTxTimestamp() const;

  private:
    uint8_t m_type{0};         ///< type (reserved)
    uint8_t m_nextHeader{0};   ///< nxt (reserved)
    uint8_t m_op{0};           ///< op, raw 2 bits
    uint16_t m_txTimestamp{0}; ///< tx_timestamp
};

} // namespace ns3

#endif /* MRC_EETH_HEADER_H */
