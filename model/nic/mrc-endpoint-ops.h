/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_ENDPOINT_OPS_H
#define MRC_ENDPOINT_OPS_H

#include "mrc-queue-pair.h"

#include "ns3/ipv6-address.h"
#include "ns3/object.h"

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * The interface through which the NIC hands endpoint operations (packets to a reserved QP
 * number that no queue pair owns) to whatever a transport registered for them.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * Counts of the request/response exchange an endpoint-operation handler runs with its
 * peers (for the MRC Port Status Update: requests to a peer NIC's QPN 0x2 and their
 * Endpoint Responses).
 */
struct MrcEndpointStats
{
    uint64_t requestsSent{0};     //!< requests sent (first attempts and resends)
    uint64_t requestsResent{0};   //!< of those, resends after a timeout
    uint64_t responsesMatched{0}; //!< responses received that matched a pending request
    uint64_t requestsApplied{0};  //!< requests received and applied
    uint64_t responsesSent{0};    //!< responses sent to them
};

/**
 * \ingroup mrc
 * Handler of endpoint operations (ns3::MrcEndpointOps).
 *
 * A transport registers one with MrcRdmaNic::RegisterEndpointHandler for a reserved QP
 * number (MRC: the endpoint QPN 0x2). An arriving packet whose BTH names that QPN, and
 * which no queue pair owns, goes to ReceiveEndpoint; the NIC counts and drops it as an
 * unknown QP when the handler does not take it. The NIC thereby dispatches operations of
 * any transport without knowing one.
 *
 * This base class is the do-nothing handler: it takes no packet and counts nothing.
 * Subclasses override ReceiveEndpoint and, when they run a request/response exchange,
 * GetEndpointStats and GetRequestId (which the NIC's Port Status accessors forward to).
 */
class MrcEndpointOps : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcEndpointOps();
    ~MrcEndpointOps() override;

    /**
     * A packet for the QP number this handler is registered for arrived.
     * \param rx the arrival, parsed by the NIC
     * \return true if the handler took it; false makes the NIC drop it as "unknown-qp"
     */
    virtual bool ReceiveEndpoint(const MrcRxPacket& rx);

    /// \return the handler's counts (zero in this base class)
    virtual MrcEndpointStats GetEndpointStats() const;

    /**
     * \param peer any address of a peer NIC
     * \return request id of the last request sent to it, 0 if none (0 in this base class)
     */
    virtual uint16_t GetRequestId(Ipv6Address peer) const;
};

} // namespace ns3

#endif /* MRC_ENDPOINT_OPS_H */
