/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PFC_FRAME_H
#define MRC_PFC_FRAME_H

#include "ns3/header.h"
#include "ns3/mac48-address.h"

#include <array>
#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * The body of an IEEE 802.1Qbb priority flow control (PFC) frame.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * The MAC Control body of an IEEE 802.1Qbb PFC frame.
 *
 * The frame is an Ethernet frame with EtherType 0x8808 (MAC Control), sent to
 * the reserved multicast address 01:80:C2:00:00:01. Its 46-byte body, which this
 * header serializes, is:
 *
 * | bytes | field                                                        |
 * |-------|--------------------------------------------------------------|
 * | 0-1   | opcode 0x0101 (class-based flow control)                     |
 * | 2-3   | class-enable vector; bit i enables the quanta of class i      |
 * | 4-19  | eight 16-bit pause quanta, class 0 first                     |
 * | 20-45 | zero padding up to the 64-byte minimum Ethernet frame        |
 *
 * Ethernet header (14) + body (46) + FCS (4) = 64 bytes. One quantum is the time
 * to transmit 512 bits at the receiving port's rate; a quantum of 0 for an
 * enabled class means "resume now". Quanta of classes whose enable bit is clear
 * carry no meaning; the receiver ignores them.
 */
class MrcPfcFrame : public Header
{
  public:
    static constexpr uint16_t ETHER_TYPE = 0x8808;    //!< MAC Control EtherType
    static constexpr uint16_t OPCODE = 0x0101;        //!< PFC opcode (802.1Qbb)
    static constexpr uint32_t SIZE = 46;              //!< serialized body size in bytes
    static constexpr uint8_t N_CLASSES = 8;           //!< number of priority classes
    static constexpr uint32_t BITS_PER_QUANTUM = 512; //!< one pause quantum in bit times

    /// \return the destination MAC address of PFC frames, 01:80:C2:00:00:01
    static Mac48Address GetDestination();

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// A frame with opcode 0x0101, no class enabled and all quanta 0.
    MrcPfcFrame();

    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /// \param opcode the MAC Control opcode (0x0101 for PFC)
    void SetOpcode(uint16_t opcode);
    /// \return the MAC Control opcode
    uint16_t GetOpcode() const;

    /// \param vector the class-enable vector (bits 8-15 must be zero)
    void SetClassEnableVector(uint16_t vector);
    /// \return the class-enable vector
    uint16_t GetClassEnableVector() const;

    /**
     * Enable a class and set its pause quanta (0 = resume).
     * \param cls the class, 0..7 (aborts otherwise)
     * \param quanta the pause time in units of 512 bit times
     */
    void SetPause(uint8_t cls, uint16_t quanta);

    /**
     * Set the quanta field of a class without touching its enable bit.
     * \param cls the class, 0..7 (aborts otherwise)
     * \param quanta the pause time in units of 512 bit times
     */
    void SetQuanta(uint8_t cls, uint16_t quanta);

    /**
     * \param cls the class, 0..7 (aborts otherwise)
     * \return the quanta field of the class
     */
    uint16_t GetQuanta(uint8_t cls) const;

    /**
     * \param cls the class, 0..7 (aborts otherwise)
     * \return true if the class-enable bit of the class is set
     */
    bool IsEnabled(uint8_t cls) const;

    /// \return all eight quanta fields, class 0 first
    const std::array<uint16_t, 8>& GetAllQuanta() const;

  private:
    uint16_t m_opcode;                //!< MAC Control opcode
    uint16_t m_classEnableVector;     //!< bit i: class i's quanta are valid
    std::array<uint16_t, 8> m_quanta; //!< pause quanta, class 0 first
};

} // namespace ns3

#endif /* MRC_PFC_FRAME_H */
