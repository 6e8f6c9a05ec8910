/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CONGESTION_OPS_H
#define MRC_CONGESTION_OPS_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <limits>
#include <string>

/**
 * \file
 * \ingroup mrc
 * The congestion-control strategy interface shared by every transport (RoCE RC, UEC RUD,
 * MRC), in the style of ns-3's TcpCongestionOps: the queue pair owns the connection state
 * (MrcCcState); an algorithm object, chosen by TypeId, reads and writes it on events.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * Connection state that a queue pair owns and hands to its congestion controller.
 *
 * The controller writes its decisions here: a pacing rate (rate-based control such as
 * DCQCN) and a window (window-based control such as NSCC). A queue pair sends the next
 * packet only when inflight + packet bytes <= cwnd, and no earlier than the pacing gap of
 * the previous packet at `rate`. A rate-based controller leaves cwnd unlimited; a
 * window-based one leaves the rate at the line rate.
 */
struct MrcCcState
{
    DataRate lineRate{0}; //!< sum of the rates of the NIC ports the QP may use
    uint32_t mtu{4096};   //!< payload bytes of a full packet (path MTU)
    Time baseRtt{0};      //!< unloaded RTT of an MTU packet over the longest path
    DataRate rate{0};     //!< pacing rate the controller allows now
    uint64_t cwnd{std::numeric_limits<uint64_t>::max()}; //!< window in bytes
    int64_t inflight{0}; //!< bytes sent and not yet acknowledged, NACKed or lost (signed)
    /// Called by a controller when it changed rate or cwnd outside an event call (timer).
    /// May be null.
    Callback<void> notifyChanged;
};

/**
 * \ingroup mrc
 * One acknowledgement as a congestion controller sees it.
 */
struct MrcCcAck
{
    uint64_t newlyAckedBytes{0}; //!< bytes newly acknowledged (NSCC: from rcvd_bytes)
    bool ecnEcho{false};         //!< the acknowledged packet arrived with CE
    bool cnpFlag{false};         //!< HPCC-style CNP flag carried on the ACK
    bool rttValid{false};        //!< rttSample is usable (not a retransmission ambiguity)
    Time rttSample{0};           //!< ack arrival - (send time + service time)
    bool retransmitted{false};   //!< the acknowledged packet was a retransmission
    uint8_t rcvCwndPend{0};      //!< receiver flow-control penalty (0-127)
    bool restoreCwnd{false};     //!< receiver asks to restore the saved window
    Time serviceTime{0};         //!< responder service time, already subtracted from rttSample
                                 //!< (NSCC updates its base RTT only when it is 0)
};

/**
 * \ingroup mrc
 * Why a NACK arrived, as far as congestion control cares.
 */
enum class MrcCcNackKind : uint8_t
{
    TRIMMED,          //!< trimmed in the fabric (not at the last hop)
    TRIMMED_LAST_HOP, //!< trimmed at the last hop (host-facing port)
    OTHER,            //!< any other NACK (sequence error, out of window, ...)
};

/**
 * \ingroup mrc
 * Congestion-control algorithm. One object per queue pair (Fork() clones the configured
 * prototype). The object keeps only its own algorithm variables (DCQCN's alpha and target
 * rate, NSCC's accumulators); everything the queue pair also needs lives in MrcCcState.
 */
class MrcCongestionOps : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \return the algorithm's short name ("dcqcn", "nscc", "none")
    virtual std::string GetName() const = 0;

    /**
     * Start controlling a connection. Sets the initial rate and cwnd in \p s. The state
     * outlives the algorithm object; timers may keep a pointer to it.
     * \param s the queue pair's state
     */
    virtual void Init(MrcCcState& s) = 0;

    /**
     * A data packet left the NIC.
     * \param s the state
     * \param bytes payload bytes of the packet
     */
    virtual void OnSent(MrcCcState& s, uint32_t bytes);

    /**
     * An acknowledgement arrived (after the queue pair updated inflight).
     * \param s the state
     * \param ack what the acknowledgement says
     */
    virtual void OnAck(MrcCcState& s, const MrcCcAck& ack);

    /**
     * A congestion notification packet (RoCEv2 CNP) arrived.
     * \param s the state
     */
    virtual void OnCnp(MrcCcState& s);

    /**
     * A NACK for one packet arrived.
     * \param s the state
     * \param bytes payload bytes of the NACKed packet
     * \param kind why
     */
    virtual void OnNack(MrcCcState& s, uint32_t bytes, MrcCcNackKind kind);

    /**
     * A NACK for one packet arrived, with the RTT it measured (NACK arrival minus the
     * packet's send time; no service time). The default ignores the sample and calls
     * OnNack(s, bytes, kind); NSCC uses the sample to lower its base RTT.
     * \param s the state
     * \param bytes payload bytes of the NACKed packet
     * \param kind why
     * \param rttSample the measured RTT; zero when unknown
     */
    virtual void OnNackWithRtt(MrcCcState& s, uint32_t bytes, MrcCcNackKind kind, Time rttSample);

    /**
     * A packet is deemed lost (retransmission timeout or loss inferred from SACKs).
     * \param s the state
     * \param bytes payload bytes of the lost packet
     */
    virtual void OnLoss(MrcCcState& s, uint32_t bytes);

    /**
     * A clean RTT sample that may only lower the base RTT (the answer to a UEC base-RTT
     * probe, or a base RTT cached from an earlier connection to the same peer). No other
     * state changes. The default ignores it; NSCC lowers base_rtt (and max_wnd) to it.
     * \param s the state
     * \param rtt the sample
     */
    virtual void OnBaseRttSample(MrcCcState& s, Time rtt);

    /**
     * Whether the packet just sent should carry the ack-request (AR / BTH A) flag. Called
     * after the queue pair added the packet to s.inflight. The default never asks.
     * \param s the state
     * \return true to set the flag
     */
    virtual bool AckRequest(const MrcCcState& s) const;

    /// \return a fresh copy of this algorithm with the same attributes, for another QP
    virtual Ptr<MrcCongestionOps> Fork() const = 0;
};

/**
 * \ingroup mrc
 * The do-nothing controller: line rate, unlimited window, every event ignored.
 */
class MrcNoCongestionControl : public MrcCongestionOps
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    std::string GetName() const override;
    void Init(MrcCcState& s) override;
    Ptr<MrcCongestionOps> Fork() const override;
};

} // namespace ns3

#endif // MRC_CONGESTION_OPS_H
