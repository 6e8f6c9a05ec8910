/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_AETH_HEADER_H
#define MRC_AETH_HEADER_H

#include "mrc-wire-header.h"

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * The InfiniBand ACK Extended Transport Header (AETH).
 */

namespace ns3
{

/**
 * \ingroup mrc
 * The 4-byte ACK Extended Transport Header (IBTA vol. 1, section 9.3.5):
 * an 8-bit syndrome followed by the 24-bit message sequence number (MSN).
 *
 * Syndrome, most significant bit first: one reserved bit (0), a two-bit type
 * and a five-bit value whose meaning depends on the type:
 *
 *     0 00 ccccc  ACK, c = encoded credit count (0x1f: no credit information)
 *     0 01 ttttt  RNR NAK, t = encoded RNR timer
 *     0 10 xxxxx  reserved
 *     0 11 nnnnn  NAK, n = NAK code (NakCode)
 *
 * RoCE RC sends it with the RC Acknowledge opcode (0x11); MRC sends it with the
 * Transport ACK opcode (0xD1).
 */
class MrcAethHeader : public MrcWireHeader
{
  public:
    static constexpr uint32_t SERIALIZED_SIZE = 4;  //!< bytes on the wire
    static constexpr uint32_t MSN_MASK = 0xffffff;  //!< MSNs are 24 bits wide
    static constexpr uint8_t CREDIT_INVALID = 0x1f; //!< ACK credit code: no credit information
    static constexpr uint8_t VALUE_MASK = 0x1f;     //!< the five value bits of the syndrome

    /// The syndrome type (bits 6-5 of the syndrome).
    enum class SyndromeType : uint8_t
    {
        ACK = 0,      //!< positive acknowledgement, value = credit count code
        RNR_NAK = 1,  //!< receiver not ready, value = RNR timer code
        RESERVED = 2, //!< reserved by IBTA
        NAK = 3,      //!< negative acknowledgement, value = NAK code
    };

    /// NAK codes (the syndrome's value when the type is NAK); 5..31 are reserved.
    enum class NakCode : uint8_t
    {
        PSN_SEQUENCE_ERROR = 0,       //!< a PSN was skipped: go back to the expected PSN
        INVALID_REQUEST = 1,          //!< the request is not supported or malformed
        REMOTE_ACCESS_ERROR = 2,      //!< R_Key or bounds violation
        REMOTE_OPERATIONAL_ERROR = 3, //!< the responder could not complete the request
        INVALID_RD_REQUEST = 4,       //!< reliable datagram only
    };

    MrcAethHeader();

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

    /// \param syndrome the raw syndrome byte
    void SetSyndrome(uint8_t syndrome);
    /// \return the raw syndrome byte
    uint8_t GetSyndrome() const;

    /// \return the syndrome type
    SyndromeType GetType() const;
    /// \return the five value bits of the syndrome (credit code, RNR timer or NAK code)
    uint8_t GetValue() const;

    /// \return true if the syndrome is an ACK
    bool IsAck() const;
    /// \return true if the syndrome is an RNR NAK
    bool IsRnrNak() const;
    /// \return true if the syndrome is a NAK
    bool IsNak() const;

    /**
     * Make the syndrome an ACK.
     * \param creditCode the encoded credit count 0..31 (aborts otherwise);
     *        CREDIT_INVALID (0x1f) says that no credit information is given
     */
    void SetAck(uint8_t creditCode = CREDIT_INVALID);
    /// \return the ACK's credit code (aborts if the syndrome is not an ACK)
    uint8_t GetCreditCode() const;

    /// Make the syndrome an RNR NAK. \param timerCode the RNR timer code 0..31 (aborts otherwise)
    void SetRnrNak(uint8_t timerCode);
    /// \return the RNR NAK's timer code (aborts if the syndrome is not an RNR NAK)
    uint8_t GetRnrTimer() const;

    /// Make the syndrome a NAK. \param code the NAK code
    void SetNak(NakCode code);
    /// \return the NAK code (aborts if the syndrome is not a NAK)
    NakCode GetNakCode() const;

    /// \param msn the message sequence number, 24 bits (aborts otherwise)
    void SetMsn(uint32_t msn);
    /// \return the message sequence number
    uint32_t GetMsn() const;

  private:
    uint8_t m_syndrome; //!< syndrome as on the wire
    uint32_t m_msn;     //!< MSN (24 bits)
};

} // namespace ns3

#endif /* MRC_AETH_HEADER_H */
