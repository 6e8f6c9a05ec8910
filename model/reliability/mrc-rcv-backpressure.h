/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RCV_BACKPRESSURE_H
#define MRC_RCV_BACKPRESSURE_H

#include "ns3/data-rate.h"
#include "ns3/mrc-uint128.h"
#include "ns3/nstime.h"

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * The receiver's backpressure rule behind the CC_STATE / ACK_CC fields rcv_cwnd_pen and
 * restore_cwnd (destination flow control), shared by the MRC and UEC RUD responders.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * A receive-side resource limit that decides rcv_cwnd_pen (0-127) and restore_cwnd for
 * every SACK / ACK_CC a responder sends. The rule is our choice (the specs leave it to the
 * implementation):
 *
 * - The responder drains the bytes it receives at DrainRate (a model of the host or PCIe
 *   bandwidth behind the QP): a virtual backlog B grows by every new data packet's bytes
 *   and shrinks at DrainRate; it never goes below 0 (idle time is not banked).
 * - B > BusyBytes (T): pen = min(127, ceil(128 (B - T) / B)). B = 2T gives 64, which
 *   halves the sender's window in about one RTT of SACKs (NSCC: cwnd -= pen x newly >> 7);
 *   the penalty grows toward 127 as B grows.
 * - After a SACK with pen > 0, once B <= T / 2 the next RestoreSacks SACKs carry
 *   restore_cwnd = 1 (more than one, in case some are lost; the sender restores only once).
 * - DrainRate 0 turns the rule off: pen = 0 and restore_cwnd = 0 always.
 */
class MrcRcvBackpressure
{
  public:
    /// The two fields of one SACK.
    struct Fields
    {
        uint8_t pen{0};      //!< rcv_cwnd_pen, 0-127
        bool restore{false}; //!< restore_cwnd
    };

    static constexpr uint8_t PEN_MAX = 127; //!< the 7-bit field's largest value

    /**
     * Set the rule's parameters (and reset its state).
     * \param drainRate bytes leave the backlog at this rate (0: rule off)
     * \param busyBytes T: a backlog above it is penalized (aborts if 0 with a rate set)
     * \param restoreSacks SACKs that carry restore_cwnd after an episode (at least 1)
     */
    void Configure(DataRate drainRate, uint64_t busyBytes, uint32_t restoreSacks);

    /// \return true if the rule is on (DrainRate > 0)
    bool IsEnabled() const;

    /**
     * New data arrived.
     * \param now arrival time \param bytes its bytes
     */
    void OnData(Time now, uint64_t bytes);

    /**
     * A SACK is about to be sent: its two fields.
     * \param now the time
     * \return pen and restore for this SACK
     */
    Fields OnSack(Time now);

    /// \param now the time \return the backlog B at that time
    uint64_t GetBacklog(Time now);

    /**
     * The penalty for a backlog.
     * \param backlog B \param busyBytes T
     * \return 0 when B <= T, else min(127, ceil(128 (B - T) / B))
     */
    static uint8_t PenaltyFor(uint64_t backlog, uint64_t busyBytes);

  private:
    /// Drain the backlog up to `now`.
    void Drain(Time now);

    uint64_t m_bitRate{0};      //!< DrainRate in bit/s
    uint64_t m_busy{0};         //!< T
    uint32_t m_restoreSacks{1}; //!< RestoreSacks
    uint64_t m_backlog{0};      //!< B in bytes
    MrcUint128 m_credit{0};     //!< drained bit-nanoseconds not yet a whole byte
    Time m_last{0};             //!< time of the last Drain
    bool m_episode{false};      //!< a SACK with pen > 0 went out, restore not finished
    uint32_t m_restoreLeft{0};  //!< restore SACKs still to send
};

} // namespace ns3

#endif /* MRC_RCV_BACKPRESSURE_H */
