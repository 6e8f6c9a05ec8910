/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TSETH_HEADER_H
#define MRC_TSETH_HEADER_H

#include "mrc-wire-header.h"

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mrc
 * MRC Requestor Timestamp Extended Header (TSETH), 4 bytes.
 *
 * Present after METH in a Write packet when the BTH TS flag is set. The
 * responder reflects tx_timestamp in CC_STATE (SACK) or NETH (NACK), and the
 * requestor takes an RTT sample from it.
 *
 * \verbatim
   0                   1                   2                   3
   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  |         tx_timestamp          |T|      reserved       | ftype |
  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
  T = tsr (timestamp resolution flag)
 \endverbatim
 *
 * The same 4-byte timestamp block ends PETH and ERTH. The class also holds the
 * module's timestamp unit: a 16-bit counter of TICK_NS = 128 ns ticks that
 * wraps every 2^16 ticks (8.388608 ms). Neither transcription of the
 * specification gives the unit; 128 ns is the choice of a third-party ns-3 MRC
 * model (see doc/mrc.rst). The model writes tsr = 0.
 */
class MrcTsethHeader : public MrcWireHeader
{
  public:
    static constexpr uint32_t SIZE = 4;                    ///< serialized size in bytes
    static constexpr uint32_t TICK_NS = 128;               ///< model timestamp unit, in ns
    static constexpr uint8_t DEFAULT_FTYPE = 0x1;          ///< ftype written by MRC-Client and NS3X
    static constexpr uint16_t TSR_BIT = 0x8000;            ///< tsr in the second 16-bit word
    static constexpr uint16_t FTYPE_MASK = 0x000f;         ///< ftype in the second 16-bit word
    static constexpr uint32_t TIMESTAMP_MODULO = 1u << 16; ///< ticks before wraparound

    /// \return the TypeId of this class
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void WriteTo(uint8_t* out) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /// \param ticks the 16-bit transmit timestamp, in timestamp ticks
    void SetTxTimestamp(uint16_t ticks);
    /// \return the 16-bit transmit timestamp, in timestamp ticks
    uint16_t GetTxTimestamp() const;
    /// \param tsr the timestamp resolution flag
    void SetTsr(bool tsr);
    /// \return the timestamp resolution flag
    bool GetTsr() const;
    /// \param ftype the 4-bit format type (aborts if above 15)
    void SetFtype(uint8_t ftype);
    /// \return the 4-bit format type
    uint8_t GetFtype() const;

    /**
     * Convert a time to a 16-bit timestamp: floor(t / tick) modulo 2^16.
     * \param t a non-negative time (usually Simulator::Now())
     * \param tickNs the tick length in ns (non-zero)
     * \return the wrapped tick count
     */
    static uint16_t TimeToTicks(Time t, uint32_t tickNs = TICK_NS);
    /**
     * \param ticks a tick count (or a difference of tick counts)
     * \param tickNs the tick length in ns
     * \return ticks x tick
     */
    static Time TicksToTime(uint16_t ticks, uint32_t tickNs = TICK_NS);
    /**
     * Time from an earlier timestamp to a later one, across at most one wrap:
     * ((later - earlier) mod 2^16) x tick. Correct for intervals shorter than
     * GetWrapPeriod().
     * \param earlier the earlier timestamp (e.g. the reflected tx_timestamp)
     * \param later the later timestamp (e.g. TimeToTicks(Simulator::Now()))
     * \param tickNs the tick length in ns
     * \return the elapsed time
     */
    static Time ElapsedBetween(uint16_t earlier, uint16_t later, uint32_t tickNs = TICK_NS);
    /// \param tickNs the tick length in ns \return the wrap period, 2^16 x tick
    static Time GetWrapPeriod(uint32_t tickNs = TICK_NS);

  private:
    uint16_t m_txTimestamp{0};      ///< tx_timestamp
    bool m_tsr{false};              ///< tsr
    uint8_t m_ftype{DEFAULT_FTYPE}; ///< ftype
};

} // namespace ns3

#endif /* MRC_TSETH_HEADER_H */
