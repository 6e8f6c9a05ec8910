/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_METH_HEADER_H
#define MRC_METH_HEADER_H

#include "mrc-wire-header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mrc
 * MRC Message Extended Transport Header (METH), 4 bytes.
 *
 * Follows the BTH of every MRC Write packet (opcodes 0xC6-0xCB).
 *
 * \verbatim
   0                   1                   2                   3
   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  |             RQMSN             |              MSN              |
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 \endverbatim
 *
 * MSN numbers the messages of a QP; RQMSN numbers its Write-with-Immediate
 * messages (the receive-queue message sequence). Layout: OCP MRC 1.0 as
 * transcribed by MRC-Client and pcap-view (see doc/mrc.rst).
 */
class MrcMethHeader : public MrcWireHeader
{
  public:
    static constexpr uint32_t SIZE = 4; ///< serialized size in bytes

    /// \return the TypeId of this class
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void WriteTo(uint8_t* out) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /// \param rqmsn the receive-queue message sequence number (Write-with-Immediate count)
    void SetRqMsn(uint16_t rqmsn);
    /// \return the receive-queue message sequence number
    uint16_t GetRqMsn() const;
    /// \param msn the message sequence number
    void SetMsn(uint16_t msn);
    /// \return the message sequence number
    uint16_t GetMsn() const;

  private:
    uint16_t m_rqMsn{0}; ///< RQMSN
    uint16_t m_msn{0};   ///< MSN
};

} // namespace ns3

#endif /* MRC_METH_HEADER_H */
