/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FORWARDING_H
#define MRC_FORWARDING_H

#include "ns3/callback.h"
#include "ns3/mrc-packet-info.h"
#include "ns3/object.h"

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * Base class of the switch's forwarding strategies (chosen per switch by TypeId).
 */

namespace ns3
{

/**
 * \ingroup mrc
 * Forwarding decision of a switch: from a parsed packet to an egress port.
 *
 * Route() is the public, non-virtual entry (it counts packets without a route);
 * strategies implement DoRoute(). A strategy may change the parsed info, e.g. the
 * outer destination address of an SRv6 packet; it then sets info.rewriteDst and the
 * switch writes the new address into the packet (MrcWriteDestination). A strategy whose
 * rewrite is only uN shifts also adds their number to info.dstShifts (else it sets
 * MrcPacketInfo::DST_REWRITTEN): the switch then carries them beside the frame instead of
 * writing them (MrcNetDevice::SendToClass).
 */
class MrcForwarding : public Object
{
  public:
    /// Returned by Route() when there is no route: the switch drops and counts it.
    static constexpr int32_t NO_ROUTE = -1;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcForwarding();
    ~MrcForwarding() override;

    /**
     * Choose the egress port of a packet.
     * \param info the parsed packet; may be changed (see class description)
     * \param inPort the port the packet arrived on
     * \return the egress port, or NO_ROUTE
     */
    int32_t Route(MrcPacketInfo& info, uint32_t inPort);

    /**
     * Tell the strategy that a local port went down or came back. The default ignores
     * it (static strategies such as SRv6 uN do not react to failures).
     * \param port port index
     * \param up false when the port failed
     */
    virtual void SetPortState(uint32_t port, bool up);

    /// \return packets for which Route() returned NO_ROUTE
    uint64_t GetNoRouteCount() const;

    /// Load of an egress port: the bytes queued on it.
    using PortLoadCallback = Callback<uint64_t, uint32_t>;

    /**
     * Set how the strategy reads an egress port's load (the switch sets it to the bytes
     * queued on the port; load-aware strategies use it, the others ignore it).
     * \param cb the callback
     */
    virtual void SetPortLoadCallback(PortLoadCallback cb);

  protected:
    /**
     * \param port an egress port
     * \return its load (queued bytes), 0 if no callback was set
     */
    uint64_t GetPortLoad(uint32_t port) const;

    /**
     * The strategy's decision.
     * \param info the parsed packet; may be changed
     * \param inPort the port the packet arrived on
     * \return the egress port, or NO_ROUTE
     */
    virtual int32_t DoRoute(MrcPacketInfo& info, uint32_t inPort) = 0;

  private:
    uint64_t m_noRoute{0};       //!< packets without a route
    PortLoadCallback m_portLoad; //!< reads an egress port's load
};

} // namespace ns3

#endif /* MRC_FORWARDING_H */
