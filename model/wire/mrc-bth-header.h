/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_BTH_HEADER_H
#define MRC_BTH_HEADER_H

#include "mrc-wire-header.h"

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * The InfiniBand Base Transport Header (BTH) as carried by RoCEv2 and MRC.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * The 12-byte InfiniBand Base Transport Header (IBTA vol. 1, section 9.2), with
 * RoCEv2's FECN/BECN bits (Annex A17) and MRC's RTX and TS flags.
 *
 * Layout, most significant bit first (byte offset: bits):
 *
 *     0: OpCode (8)
 *     1: SE (1) | M (1) | PadCnt (2) | TVer (4)
 *     2: P_Key (16)
 *     4: FECN (1) | BECN (1) | reserved (6)
 *     5: DestQP (24)
 *     8: A (1) | reserved (1) | RTX (1) | TS (1) | reserved (4)
 *     9: PSN (24)
 *
 * In plain InfiniBand and RoCEv2 byte 8 is A followed by seven reserved bits.
 * MRC 1.0 uses two of them: RTX marks a retransmission and TS says that a TSETH
 * follows. Their positions (0x20 and 0x10 of byte 8) follow the MRC-Client
 * transcription of the MRC 1.0 tables; see doc/mrc.rst. RoCE RC packets leave
 * them zero. Reserved bits that are not named are kept as read, so a parsed
 * header serializes to the same bytes.
 */
class MrcBthHeader : public MrcWireHeader
{
  public:
    static constexpr uint32_t SERIALIZED_SIZE = 12;   //!< bytes on the wire
    static constexpr uint32_t PSN_MASK = 0xffffff;    //!< PSNs are 24 bits wide
    static constexpr uint32_t QPN_MASK = 0xffffff;    //!< QP numbers are 24 bits wide
    static constexpr uint16_t DEFAULT_P_KEY = 0xffff; //!< the default partition key

    // Byte 1
    static constexpr uint8_t SE_BIT = 0x80; //!< solicited event
    static constexpr uint8_t M_BIT = 0x40;  //!< migration request
    // Byte 4 (RoCEv2: IBA's reserved byte "resv8a")
    static constexpr uint8_t FECN_BIT = 0x80; //!< forward explicit congestion notification
    static constexpr uint8_t BECN_BIT = 0x40; //!< backward explicit congestion notification
    // Byte 8
    static constexpr uint8_t ACK_REQ_BIT = 0x80; //!< A: acknowledge request
    static constexpr uint8_t RTX_BIT = 0x20;     //!< MRC: this packet is a retransmission
    static constexpr uint8_t TS_BIT = 0x10;      //!< MRC: a TSETH follows the METH

    MrcBthHeader();

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

    /// \param opcode the BTH opcode (see MrcOpcode)
    void SetOpcode(uint8_t opcode);
    /// \return the BTH opcode
    uint8_t GetOpcode() const;

    /// \param se the solicited-event bit
    void SetSolicitedEvent(bool se);
    /// \return the solicited-event bit
    bool GetSolicitedEvent() const;

    /// \param m the migration-request bit
    void SetMigReq(bool m);
    /// \return the migration-request bit
    bool GetMigReq() const;

    /// \param padCount pad bytes added to the payload, 0..3 (aborts otherwise)
    void SetPadCount(uint8_t padCount);
    /// \return the pad count
    uint8_t GetPadCount() const;

    /// \param tver the transport header version, 0..15 (aborts otherwise); IBTA uses 0
    void SetTransportVersion(uint8_t tver);
    /// \return the transport header version
    uint8_t GetTransportVersion() const;

    /// \param pKey the partition key
    void SetPartitionKey(uint16_t pKey);
    /// \return the partition key
    uint16_t GetPartitionKey() const;

    /// \param fecn the FECN bit
    void SetFecn(bool fecn);
    /// \return the FECN bit
    bool GetFecn() const;

    /// \param becn the BECN bit (set in a RoCEv2 CNP)
    void SetBecn(bool becn);
    /// \return the BECN bit
    bool GetBecn() const;

    /// \param qpn the destination queue pair, 24 bits (aborts otherwise)
    void SetDestQp(uint32_t qpn);
    /// \return the destination queue pair
    uint32_t GetDestQp() const;

    /// \param ackReq the A (acknowledge request) bit
    void SetAckReq(bool ackReq);
    /// \return the A (acknowledge request) bit
    bool GetAckReq() const;

    /// \param rtx the MRC RTX (retransmission) flag
    void SetRetransmission(bool rtx);
    /// \return the MRC RTX (retransmission) flag
    bool GetRetransmission() const;

    /// \param ts the MRC TS flag (a TSETH is present)
    void SetTimestampPresent(bool ts);
    /// \return the MRC TS flag (a TSETH is present)
    bool GetTimestampPresent() const;

    /// \param psn the packet sequence number, 24 bits (aborts otherwise)
    void SetPsn(uint32_t psn);
    /// \return the packet sequence number
    uint32_t GetPsn() const;

  private:
    uint8_t m_opcode;  //!< OpCode
    uint8_t m_byte1;   //!< SE, M, PadCnt, TVer as on the wire
    uint16_t m_pKey;   //!< P_Key
    uint8_t m_byte4;   //!< FECN, BECN, reserved as on the wire
    uint32_t m_destQp; //!< DestQP (24 bits)
    uint8_t m_byte8;   //!< A, RTX, TS, reserved as on the wire
    uint32_t m_psn;    //!< PSN (24 bits)
};

} // namespace ns3

#endif /* MRC_BTH_HEADER_H */
