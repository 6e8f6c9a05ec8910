/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TX_TIME_CACHE_H
#define MRC_TX_TIME_CACHE_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * The serialization time of the last (rate, size) pair, kept for the next packet.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * DataRate::CalculateBytesTxTime divides in ns-3's 128-bit fixed point (several hundred
 * instructions). A sender paces packets of mostly one size at a rate that changes far less
 * often than it sends, so this keeps the last result with the bit rate and byte count it
 * was computed for and computes again only when either differs. A DataRate is nothing but
 * its bit rate, so the time returned is always the one CalculateBytesTxTime gives.
 */
class MrcTxTimeCache
{
  public:
    /**
     * \param rate the sending rate
     * \param bytes the bytes to send
     * \return rate.CalculateBytesTxTime(bytes)
     */
    Time Get(const DataRate& rate, uint32_t bytes)
    {
        const uint64_t bps = rate.GetBitRate();
        if (!m_valid || bps != m_bps || bytes != m_bytes)
        {
            m_time = rate.CalculateBytesTxTime(bytes);
            m_bps = bps;
            m_bytes = bytes;
            m_valid = true;
        }
        return m_time;
    }

  private:
    bool m_valid{false}; //!< m_time was computed
    uint64_t m_bps{0};   //!< the bit rate it was computed for
    uint32_t m_bytes{0}; //!< the byte count it was computed for
    Time m_time;         //!< the serialization time
};

} // namespace ns3

#endif /* MRC_TX_TIME_CACHE_H */
