/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_ERTH_HEADER_H
#define MRC_ERTH_HEADER_H

#include "mrc-tseth-header.h"
#include "mrc-wire-header.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * Endpoint operation of an Endpoint Request or Response (2-bit op field).
 */
enum class MrcEndpointOp : uint8_t
{
    PORT_STATUS_UPDATE = 0, ///< carry (or query) the sender's reachable-port mask
    EV_PROBE = 1,           ///< probe the path of one EV; the response measures its RTT
};

/// \param op an endpoint operation \return its name, or "UNKNOWN(n)" for 2 and 3
std::string MrcEndpointOpToString(MrcEndpointOp op);

/// Destination QPN reserved for the connectionless endpoint operations (0xD8/0xD9).
constexpr uint32_t MRC_ENDPOINT_QPN = 0x2;

/// \param psn the BTH PSN of an endpoint request or response \return its request id, PSN[15:0]
constexpr uint16_t
MrcEndpointRequestIdOfPsn(uint32_t psn)
{
    return static_cast<uint16_t>(psn & 0xffff);
}

/**
 * \ingroup mrc
 * MRC Endpoint Request Extended Header (ERTH), 16 bytes, after the BTH of an
 * Endpoint Request (opcode 0xD8). The BTH addresses QPN MRC_ENDPOINT_QPN and
 * carries the request id in PSN[15:0]; no QP PSN is consumed.
 *
 * \verbatim
   0                   1                   2                   3
   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  | type  |   nxt   | reserved| op|   reserved    |  vendor_info  |  0
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  |                       port_status_mask                        |  4
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  |                           reserved                            |  8
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  |         tx_timestamp          |T|      reserved       | ftype | 12
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 \endverbatim
 *
 * port_status_mask: bit N (value 1 << N) set = the sender's port N is
 * reachable; ports are 1-based. The model reads this literally, so bit 0 is
 * unused (PORT1_BIT). Layout: MRC-Client and pcap-view agree (see doc/mrc.rst).
 */
class MrcErthHeader : public MrcWireHeader
{
  public:
    static constexpr uint32_t SIZE = 16; ///< serialized size in bytes
    /// Bit index of port 1 in port_status_mask: 1 reads "bit N = port N" literally
    /// (bit 0 unused); 0 would mean bit N-1 = port N (our choice, see doc/mrc.rst).
    static constexpr uint32_t PORT1_BIT = 1;
    static constexpr uint32_t MAX_PORT = 32 - PORT1_BIT; ///< highest port a mask can name
    static constexpr uint16_t OP_MASK = 0x3;             ///< op is 2 bits
    static constexpr unsigned OP_SHIFT = 0;              ///< op is bits 1..0 of the leading word

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
    /// \param op the endpoint operation
    void SetOp(MrcEndpointOp op);
    /// \return the endpoint operation (may be 2 or 3 after Deserialize)
    MrcEndpointOp GetOp() const;
    /// \param info the vendor-specific byte
    void SetVendorInfo(uint8_t info);
    /// \return the vendor-specific byte
    uint8_t GetVendorInfo() const;
    /// \param mask the reachable-port mask (bit N = port N)
    void SetPortStatusMask(uint32_t mask);
    /// \return the reachable-port mask
    uint32_t GetPortStatusMask() const;
    /// \param port a port number 1..MAX_PORT (aborts otherwise) \return true if its bit is set
    bool IsPortReachable(uint32_t port) const;
    /// \param port a port number 1..MAX_PORT (aborts otherwise) \return its bit in the mask
    static uint32_t PortBit(uint32_t port);
    /// \param port a port number 1..MAX_PORT (aborts otherwise) \param reachable the new bit value
    void SetPortReachable(uint32_t port, bool reachable);
    /// \param ticks the transmit timestamp
    void SetTxTimestamp(uint16_t ticks);
    /// \return the transmit timestamp
    uint16_t GetTxTimestamp() const;
    /// \param tsr the timestamp resolution flag
    void SetTsr(bool tsr);
    /// \return the timestamp resolution flag
    bool GetTsr() const;
    /// \param ftype the 4-bit format type (aborts above 15)
    void SetFtype(uint8_t ftype);
    /// \return the 4-bit format type
    uint8_t GetFtype() const;

  private:
    uint8_t m_type{0};                              ///< type (reserved)
    uint8_t m_nextHeader{0};                        ///< nxt (reserved)
    uint8_t m_op{0};                                ///< op, raw 2 bits
    uint8_t m_vendorInfo{0};                        ///< vendor_info
    uint32_t m_portStatusMask{0};                   ///< port_status_mask
    uint16_t m_txTimestamp{0};                      ///< tx_timestamp
    bool m_tsr{false};                              ///< tsr
    uint8_t m_ftype{MrcTsethHeader::DEFAULT_FTYPE}; ///< ftype
};

} // namespace ns3

#endif /* MRC_ERTH_HEADER_H */
