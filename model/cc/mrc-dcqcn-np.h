/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_DCQCN_NP_H
#define MRC_DCQCN_NP_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * DCQCN notification point (receiver side): decides when a receiving queue pair reports
 * congestion (CE-marked data) to the sender.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * When a NIC port last sent a CNP (PortInterval style): one per NIC port, shared by the
 * notification points of every queue pair receiving on it.
 */
struct MrcCnpPortClock
{
    bool any{false}; //!< the port sent a CNP already
    Time last;       //!< when
};

/**
 * \ingroup mrc
 * DCQCN notification point, one per receiving queue pair (flow).
 *
 * Two styles:
 * - INTERVAL (DCQCN paper, htsim): a CE data packet causes a CNP if at least CnpInterval has
 *   passed since the flow's last CNP. Otherwise it is counted, and one deferred CNP is sent
 *   (through the callback set with SetSendCnpCallback) when the interval since the last CNP
 *   ends.
 * - ACK_FLAG (HPCC simulator): no separate CNPs; the ACK of a CE data packet carries a CNP
 *   flag, and the sender's decrease timer does the rate limiting.
 * - PORT_INTERVAL (NVIDIA ConnectX, min_time_between_cnps "from the port"): a CE data packet
 *   causes a CNP if at least CnpInterval has passed since the last CNP of the receiving NIC
 *   port, whatever its queue pair; otherwise no CNP (nothing is deferred).
 *
 * The receiving QP calls OnDataArrival for every data packet and acts on the answer.
 */
class MrcDcqcnNotificationPoint : public Object
{
  public:
    /// How congestion is reported.
    enum CnpStyle
    {
        INTERVAL,      //!< separate CNPs, at most one per CnpInterval (paper, htsim)
        ACK_FLAG,      //!< a CNP flag on the ACK of every CE packet (HPCC simulator)
        PORT_INTERVAL, //!< separate CNPs, at most one per CnpInterval per NIC port (NVIDIA)
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcDcqcnNotificationPoint();
    ~MrcDcqcnNotificationPoint() override;

    /**
     * A data packet arrived (uses Simulator::Now()).
     * \param ce the packet carried ECN CE
     * \param portClock the receiving NIC port's CNP clock (PORT_INTERVAL style: required;
     * other styles ignore it)
     * \return INTERVAL style: true if the QP must send a CNP now; ACK_FLAG style: true if the
     * QP must set the CNP flag on this packet's ACK. False otherwise (in INTERVAL style a CE
     * packet inside the interval may lead to a deferred CNP through the callback).
     */
    bool OnDataArrival(bool ce, MrcCnpPortClock* portClock = nullptr);

    /**
     * Set the function that sends a deferred CNP (INTERVAL style). Must be set before a CE
     * packet arrives inside an interval.
     * \param cb called once per deferred CNP
     */
    void SetSendCnpCallback(Callback<void> cb);

    /**
     * Drop a scheduled deferred CNP and the CE packets waiting for it (the receiving QP
     * stopped, e.g. entered the error state). The event is removed, so no event of this
     * object remains.
     */
    void CancelDeferred();

    /// \return the configured style
    CnpStyle GetStyle() const;
    /// \return CE data packets seen
    uint64_t GetCeCount() const;
    /// \return CNPs sent (immediate and deferred; INTERVAL style) or ACKs flagged (ACK_FLAG)
    uint64_t GetCnpCount() const;
    /// \return CE packets waiting for the deferred CNP
    uint32_t GetPendingCe() const;
    /// \return true if a deferred CNP is scheduled
    bool IsCnpDeferred() const;

  protected:
    void DoDispose() override;

  private:
    /// Deferred CNP event.
    void SendDeferred();

    CnpStyle m_style;         //!< attribute CnpStyle
    Time m_interval;          //!< attribute CnpInterval
    bool m_anyCnp{false};     //!< a CNP was sent already
    Time m_lastCnp;           //!< time of the last CNP
    uint32_t m_pending{0};    //!< CE packets since the last CNP (deferred)
    uint64_t m_ceCount{0};    //!< CE data packets seen
    uint64_t m_cnpCount{0};   //!< CNPs sent or ACKs flagged
    EventId m_deferred;       //!< deferred CNP
    Callback<void> m_sendCnp; //!< sends a deferred CNP
};

} // namespace ns3

#endif // MRC_DCQCN_NP_H
