/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PETH_HEADER_H
#define MRC_PETH_HEADER_H

#include "mrc-tseth-header.h"
#include "mrc-wire-header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mrc
 * MRC Reliability Probe Extended Header (PETH), 16 bytes, after the BTH of a
 * Reliability Probe (opcode 0xDE). The probe consumes no PSN; the responder
 * answers with a SACK whose pr flag is set and whose ack_psn_offset field
 * carries probe_id.
 *
 * \verbatim
   0                   1                   2                   3
   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  | type  |   nxt   |  reserved   |   reserved    |  vendor_info  |  0
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  |           probe_id            |           reserved            |  4
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  |            spdcid             |            dpdcid             |  8
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  |         tx_timestamp          |T|      reserved       | ftype | 12
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  T = tsr
 \endverbatim
 *
 * Layout: MRC-Client and pcap-view agree (see doc/mrc.rst). Timestamps use the
 * unit of MrcTsethHeader.
 */
class MrcPethHeader : public MrcWireHeader
{
  public:
    static constexpr uint32_t SIZE = 16; ///< serialized size in bytes

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
    /// \param info the vendor-specific byte
    void SetVendorInfo(uint8_t info);
    /// \return the vendor-specific byte
    uint8_t GetVendorInfo() const;
    /// \param id the requestor's probe identifier, echoed in the SACK
    void SetProbeId(uint16_t id);
    /// \return the probe identifier
    uint16_t GetProbeId() const;
    /// \param id the source PDC id
    void SetSpdcid(uint16_t id);
    /// \return the source PDC id
    uint16_t GetSpdcid() const;
    /// \param id the destination PDC id
    void SetDpdcid(uint16_t id);
    /// \return the destination PDC id
    uint16_t GetDpdcid() const;
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
    uint8_t m_vendorInfo{0};                        ///< vendor_info
    uint16_t m_probeId{0};                          ///< probe_id
    uint16_t m_spdcid{0};                           ///< spdcid
    uint16_t m_dpdcid{0};                           ///< dpdcid
    uint16_t m_txTimestamp{0};                      ///< tx_timestamp
    bool m_tsr{false};                              ///< tsr
    uint8_t m_ftype{MrcTsethHeader::DEFAULT_FTYPE}; ///< ftype
};

} // namespace ns3

#endif /* MRC_PETH_HEADER_H */
