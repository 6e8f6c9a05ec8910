/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_NETH_HEADER_H
#define MRC_NETH_HEADER_H

#include "mrc-wire-header.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * NACK reason codes of the NETH nack_reason field (MRC-Client, pcap-view and
 * ManiAm's reading of OCP MRC 1.0 agree on these values).
 */
enum class MrcNackReason : uint8_t
{
    TRIMMED = 0x01,         ///< the packet was trimmed inside the fabric
    TRIMMED_LASTHOP = 0x02, ///< the packet was trimmed on the last hop (incast)
    NO_BITMAP = 0x06,       ///< no PSN tracking resource at the responder
    NO_PKT_BUFFER = 0x07,   ///< no packet buffer at the responder
    NO_RESOURCE = 0x0a,     ///< another responder resource is exhausted
    PSN_OOR_WINDOW = 0x0b,  ///< PSN outside the responder window [ePSN, ePSN + MPR)
    UNEXP_EVENT = 0x19,     ///< unexpected event: fatal, the QP goes to error
};

/// \param reason a NACK reason \return its name, or "UNKNOWN(0x..)" for other values
std::string MrcNackReasonToString(MrcNackReason reason);

/// \param reason a NACK reason \return true for the one reason that counts against the EV (TRIMMED)
constexpr bool
MrcNackReasonPenalizesEv(MrcNackReason reason)
{
    return reason == MrcNackReason::TRIMMED;
}

/// \param reason a NACK reason \return true for the fatal reason (UNEXP_EVENT)
constexpr bool
MrcNackReasonIsFatal(MrcNackReason reason)
{
    return reason == MrcNackReason::UNEXP_EVENT;
}

/**
 * \ingroup mrc
 * MRC Reliability NACK Extended Header (NETH), 20 bytes, after the BTH of a
 * NACK (opcode 0xDD).
 *
 * \verbatim
   0                   1                   2                   3
   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  | type  |   nxt   |  reserved   |  nack_reason  |  vendor_info  |  0
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  |                     entropy (reflected EV)                    |  4
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  |            spdcid             |            dpdcid             |  8
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  |   reserved    |                   nack_psn                    | 12
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  |cc_type| cc_fl |   reserved    |   tx_timestamp (reflected)    | 16
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 \endverbatim
 *
 * Layout: MRC-Client and pcap-view agree (see doc/mrc.rst). The default
 * cc_type is 2, the value both MRC-Client and NS3X write in NACKs; no source
 * says what it means.
 */
class MrcNethHeader : public MrcWireHeader
{
  public:
    static constexpr uint32_t SIZE = 20;          ///< serialized size in bytes
    static constexpr uint8_t DEFAULT_CC_TYPE = 2; ///< cc_type written by MRC-Client and NS3X

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
    /// \param reason the NACK reason
    void SetNackReason(MrcNackReason reason);
    /// \return the NACK reason (any 8-bit value after Deserialize)
    MrcNackReason GetNackReason() const;
    /// \param info the vendor-specific byte
    void SetVendorInfo(uint8_t info);
    /// \return the vendor-specific byte
    uint8_t GetVendorInfo() const;
    /// \param ev the 32-bit EV of the NACKed packet
    void SetEntropy(uint32_t ev);
    /// \return the reflected EV
    uint32_t GetEntropy() const;
    /// \param id the source PDC id
    void SetSpdcid(uint16_t id);
    /// \return the source PDC id
    uint16_t GetSpdcid() const;
    /// \param id the destination PDC id
    void SetDpdcid(uint16_t id);
    /// \return the destination PDC id
    uint16_t GetDpdcid() const;
    /// \param psn the NACKed PSN (aborts above 24 bits)
    void SetNackPsn(uint32_t psn);
    /// \return the NACKed PSN
    uint32_t GetNackPsn() const;
    /// \param ccType the 4-bit congestion-control type (aborts above 15)
    void SetCcType(uint8_t ccType);
    /// \return the 4-bit congestion-control type
    uint8_t GetCcType() const;
    /// \param ccFlags the 4-bit congestion-control flags (aborts above 15)
    void SetCcFlags(uint8_t ccFlags);
    /// \return the 4-bit congestion-control flags
    uint8_t GetCcFlags() const;
    /// \param ticks the tx_timestamp reflected from the NACKed packet's TSETH
    void SetTxTimestamp(uint16_t ticks);
    /// \return the reflected tx_timestamp
    uint16_t GetTxTimestamp() const;

  private:
    uint8_t m_type{0};                 ///< type (reserved)
    uint8_t m_nextHeader{0};           ///< nxt (reserved)
    uint8_t m_reason{0};               ///< nack_reason, raw
    uint8_t m_vendorInfo{0};           ///< vendor_info
    uint32_t m_entropy{0};             ///< entropy
    uint16_t m_spdcid{0};              ///< spdcid
    uint16_t m_dpdcid{0};              ///< dpdcid
    uint32_t m_nackPsn{0};             ///< nack_psn
    uint8_t m_ccType{DEFAULT_CC_TYPE}; ///< cc_type
    uint8_t m_ccFlags{0};              ///< cc_fl
    uint16_t m_txTimestamp{0};         ///< tx_timestamp
};

} // namespace ns3

#endif /* MRC_NETH_HEADER_H */
