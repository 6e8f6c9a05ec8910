/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SETH_HEADER_H
#define MRC_SETH_HEADER_H

#include "mrc-wire-header.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mrc
 * Path feedback of a SACK: the 2-bit SETH field "m". The responder asks the
 * requestor to skip the EV of the triggering packet once (it arrived ECN-CE)
 * or always. Value 3 is reserved.
 */
enum class MrcPathFeedback : uint8_t
{
    NONE = 0,        ///< no feedback; the EV stays usable
    SKIP_ONCE = 1,   ///< skip the EV once (forward path ECN-marked)
    ALWAYS_SKIP = 2, ///< stop using the EV (ASSUMED_BAD)
};

/// \param m a path-feedback value \return its name, "RESERVED(3)" for 3
std::string MrcPathFeedbackToString(MrcPathFeedback m);

/**
 * \ingroup mrc
 * MRC Reliability SACK Extended Header (SETH), 28 bytes, after the BTH of a
 * SACK (opcode 0xDC). A CC_STATE (MrcCcStateHeader, 8 bytes) follows it on the
 * wire; the two are separate ns-3 headers.
 *
 * \verbatim
   0                   1                   2                   3
   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  | type  |   nxt   | m |rsv|P|r|   ack_psn_offset (or probe_id)  |  0
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  |                     entropy (reflected EV)                    |  4
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  |            spdcid             |            dpdcid             |  8
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  |   reserved    |                   cack_psn                    | 12
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  |cc_type| cc_fl |      mpr      |          sack_offset          | 16
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  |                     sack_bitmap (64 bits)                     | 20
  +                                                               +
  |                                                               | 24
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  P = pr (probe response)
 \endverbatim
 *
 * ack_psn = cack_psn + ack_psn_offset and the bitmap base = cack_psn +
 * sack_offset, in 24-bit PSN arithmetic; the offsets are signed. Bit i of the
 * bitmap (value 1 << i when SACK_BITMAP_BASE_AT_LSB) stands for PSN base + i.
 * When pr is set, the offset field carries the probe_id of the Reliability
 * Probe being answered (pcap-view). type and nxt are reserved in MRC 1.0
 * (MRC-Client calls them res_type, res_nxt); they are carried for round trips.
 * Layout: MRC-Client and pcap-view agree (see doc/mrc.rst).
 */
class MrcSethHeader : public MrcWireHeader
{
  public:
    static constexpr uint32_t SIZE = 28;                  ///< serialized size in bytes
    static constexpr uint32_t PSN_MASK = 0xffffff;        ///< PSNs are 24 bits
    static constexpr uint32_t SACK_BITMAP_BITS = 64;      ///< bits in sack_bitmap
    static constexpr bool SACK_BITMAP_BASE_AT_LSB = true; ///< bit 0 (LSB) = base PSN (our choice)
    static constexpr uint32_t MPR_UNIT_PSNS = 128;        ///< PSNs per unit of mpr
    static constexpr uint8_t CC_TYPE_NSCC = 0;            ///< cc_type whose CC_STATE is NSCC's

    /// \return the TypeId of this class
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void WriteTo(uint8_t* out) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    /**
     * Read the header from SIZE bytes in memory (what Deserialize reads from a buffer).
     * \param bytes the header's first byte
     */
    void ReadBytes(const uint8_t* bytes);
    void Print(std::ostream& os) const override;

    /// \param type the 4-bit type field (reserved; aborts above 15)
    void SetType(uint8_t type);
    /// \return the 4-bit type field
    uint8_t GetType() const;
    /// \param nxt the 5-bit next-header field (reserved; aborts above 31)
    void SetNextHeader(uint8_t nxt);
    /// \return the 5-bit next-header field
    uint8_t GetNextHeader() const;
    /// \param m the path feedback for the EV of the triggering packet
    void SetPathFeedback(MrcPathFeedback m);
    /// \return the path feedback (may be the reserved value 3 after Deserialize)
    MrcPathFeedback GetPathFeedback() const;
    /// \param pr true when this SACK answers a Reliability Probe
    void SetProbeResponse(bool pr);
    /// \return the probe-response flag
    bool IsProbeResponse() const;
    /// \param offset ack_psn - cack_psn (signed)
    void SetAckPsnOffset(int16_t offset);
    /// \return ack_psn - cack_psn (signed)
    int16_t GetAckPsnOffset() const;
    /// \param probeId the probe_id echoed when pr is set (same bits as ack_psn_offset)
    void SetProbeId(uint16_t probeId);
    /// \return the ack_psn_offset bits read as a probe_id (meaningful when pr is set)
    uint16_t GetProbeId() const;
    /// \param ev the 32-bit EV of the packet that triggered this SACK
    void SetEntropy(uint32_t ev);
    /// \return the reflected EV
    uint32_t GetEntropy() const;
    /// \param id the source PDC id (low 16 bits of the sender's QPN)
    void SetSpdcid(uint16_t id);
    /// \return the source PDC id
    uint16_t GetSpdcid() const;
    /// \param id the destination PDC id
    void SetDpdcid(uint16_t id);
    /// \return the destination PDC id
    uint16_t GetDpdcid() const;
    /// \param psn the cumulative ACK PSN: every PSN up to it arrived (aborts above 24 bits)
    void SetCackPsn(uint32_t psn);
    /// \return the cumulative ACK PSN
    uint32_t GetCackPsn() const;
    /// \param ccType the 4-bit congestion-control type (aborts above 15)
    void SetCcType(uint8_t ccType);
    /// \return the 4-bit congestion-control type
    uint8_t GetCcType() const;
    /// \param ccFlags the 4-bit congestion-control flags (aborts above 15)
    void SetCcFlags(uint8_t ccFlags);
    /// \return the 4-bit congestion-control flags
    uint8_t GetCcFlags() const;
    /// \param mpr the maximum PSN range, in units of 128 PSNs
    void SetMpr(uint8_t mpr);
    /// \return the raw mpr field
    uint8_t GetMpr() const;
    /// \return the maximum PSN range in PSNs: mpr x 128
    uint32_t GetMprPsns() const;
    /// \param offset bitmap base - cack_psn (signed)
    void SetSackOffset(int16_t offset);
    /// \return bitmap base - cack_psn (signed)
    int16_t GetSackOffset() const;
    /// \param bitmap the raw 64-bit SACK bitmap
    void SetSackBitmap(uint64_t bitmap);
    /// \return the raw 64-bit SACK bitmap
    uint64_t GetSackBitmap() const;

    /// \return the PSN of the packet that triggered the SACK: cack_psn + ack_psn_offset mod 2^24
    uint32_t GetAckPsn() const;
    /**
     * Set ack_psn_offset so that GetAckPsn() returns psn. Call after SetCackPsn.
     * Aborts if psn is not within [cack - 32768, cack + 32767] (mod 2^24).
     * \param psn the PSN of the triggering packet
     */
    void SetAckPsn(uint32_t psn);
    /// \return the PSN of bitmap bit 0: cack_psn + sack_offset mod 2^24
    uint32_t GetSackBasePsn() const;
    /**
     * Set sack_offset so that GetSackBasePsn() returns psn. Call after SetCackPsn.
     * Aborts if psn is not within [cack - 32768, cack + 32767] (mod 2^24).
     * \param psn the PSN the bitmap starts at
     */
    void SetSackBasePsn(uint32_t psn);
    /**
     * \param psn a PSN
     * \return true if psn lies in [base, base + 64) and its bitmap bit is set
     */
    bool IsPsnSacked(uint32_t psn) const;
    /**
     * Set the bitmap bit of a PSN.
     * \param psn a PSN
     * \return false (and no change) if psn lies outside [base, base + 64)
     */
    bool SetPsnSacked(uint32_t psn);

    /**
     * \param from a PSN
     * \param to a PSN
     * \return the signed distance to - from in 24-bit PSN arithmetic, in [-2^23, 2^23)
     */
    static int32_t PsnDistance(uint32_t from, uint32_t to);

  private:
    /// \param index a bitmap index 0..63 \return its bit in the 64-bit field
    static uint64_t BitOf(uint32_t index);

    uint8_t m_type{0};              ///< type (reserved)
    uint8_t m_nextHeader{0};        ///< nxt (reserved)
    uint8_t m_m{0};                 ///< m, raw 2 bits
    bool m_pr{false};               ///< pr
    int16_t m_ackPsnOffset{0};      ///< ack_psn_offset / probe_id
    uint32_t m_entropy{0};          ///< entropy
    uint16_t m_spdcid{0};           ///< spdcid
    uint16_t m_dpdcid{0};           ///< dpdcid
    uint32_t m_cackPsn{0};          ///< cack_psn
    uint8_t m_ccType{CC_TYPE_NSCC}; ///< cc_type
    uint8_t m_ccFlags{0};           ///< cc_fl
    uint8_t m_mpr{0};               ///< mpr
    int16_t m_sackOffset{0};        ///< sack_offset
    uint64_t m_sackBitmap{0};       ///< sack_bitmap
};

} // namespace ns3

#endif /* MRC_SETH_HEADER_H */
