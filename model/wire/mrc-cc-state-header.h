/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CC_STATE_HEADER_H
#define MRC_CC_STATE_HEADER_H

#include "mrc-wire-header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mrc
 * MRC congestion-control state (CC_STATE), 8 bytes, carried right after the
 * SETH of every Reliability SACK (SETH cc_type 0, NSCC).
 *
 * \verbatim
   0                   1                   2                   3
   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  |   tx_timestamp (reflected)    |R|          ooo_count          |
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  |C| rcv_cwnd_pen|               rcvd_bytes (256 B units)        |
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  R = reserved, C = restore_cwnd
 \endverbatim
 *
 * rcvd_bytes is a wrapping 24-bit counter of bytes received, in units of
 * RCVD_BYTES_UNIT = 256 bytes (pcap-view and NS3X read it so; MRC-Client gives
 * no unit). Layout: MRC-Client and pcap-view agree (see doc/mrc.rst).
 */
class MrcCcStateHeader : public MrcWireHeader
{
  public:
    static constexpr uint32_t SIZE = 8;                   ///< serialized size in bytes
    static constexpr uint32_t RCVD_BYTES_UNIT = 256;      ///< bytes per rcvd_bytes unit
    static constexpr uint32_t RCVD_BYTES_MASK = 0xffffff; ///< rcvd_bytes is 24 bits
    static constexpr uint16_t OOO_COUNT_MAX = 0x7fff;     ///< ooo_count is 15 bits
    static constexpr uint8_t RCV_CWND_PEN_MAX = 0x7f;     ///< rcv_cwnd_pen is 7 bits

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

    /// \param ticks the tx_timestamp reflected from the triggering packet's TSETH
    void SetTxTimestamp(uint16_t ticks);
    /// \return the reflected tx_timestamp
    uint16_t GetTxTimestamp() const;
    /// \param count the responder's out-of-order packet count (aborts above 0x7fff)
    void SetOooCount(uint16_t count);
    /// \return the out-of-order packet count
    uint16_t GetOooCount() const;
    /// \param restore the restore_cwnd flag
    void SetRestoreCwnd(bool restore);
    /// \return the restore_cwnd flag
    bool GetRestoreCwnd() const;
    /// \param pen the responder window penalty 0..127 (64 for one RTT halves cwnd)
    void SetRcvCwndPen(uint8_t pen);
    /// \return the responder window penalty
    uint8_t GetRcvCwndPen() const;
    /// \param units the raw 24-bit rcvd_bytes field (aborts above 0xffffff)
    void SetRcvdBytesUnits(uint32_t units);
    /// \return the raw 24-bit rcvd_bytes field, in RCVD_BYTES_UNIT units
    uint32_t GetRcvdBytesUnits() const;

    /**
     * \param bytes a running count of received bytes
     * \return the rcvd_bytes field for it: floor(bytes / 256) mod 2^24
     */
    static uint32_t BytesToRcvdUnits(uint64_t bytes);
    /**
     * Bytes between two rcvd_bytes samples, across at most one wrap of the
     * 24-bit counter (4 GiB).
     * \param older the earlier field value
     * \param newer the later field value
     * \return ((newer - older) mod 2^24) x 256
     */
    static uint64_t RcvdUnitsDeltaBytes(uint32_t older, uint32_t newer);

  private:
    uint16_t m_txTimestamp{0}; ///< tx_timestamp
    uint16_t m_oooCount{0};    ///< ooo_count
    bool m_restoreCwnd{false}; ///< restore_cwnd
    uint8_t m_rcvCwndPen{0};   ///< rcv_cwnd_pen
    uint32_t m_rcvdBytes{0};   ///< rcvd_bytes, raw units
};

} // namespace ns3

#endif /* MRC_CC_STATE_HEADER_H */
