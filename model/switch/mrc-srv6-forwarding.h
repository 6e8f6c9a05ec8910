/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SRV6_FORWARDING_H
#define MRC_SRV6_FORWARDING_H

#include "mrc-forwarding.h"

#include "ns3/mrc-flat-map.h"

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * SRv6 uN forwarding with a static uSID table (MRC's production mode).
 */

namespace ns3
{

/**
 * \ingroup mrc
 * SRv6 micro-segment (uN) forwarding, static.
 *
 * The outer destination address is a uSID carrier: a 32-bit locator block followed by
 * 16-bit uSIDs. A switch accepts a packet whose first 48 bits are the locator block and
 * its own uSID, shifts the uSIDs left by 16 bits (zero-filling), and looks the new
 * active uSID up in a static table (AddUsidRoute). If the new active uSID is one of
 * the switch's own host downlinks (AddLocalAdjacency), it is consumed as well (a
 * second shift), so the packet reaches the host with the carrier exhausted (locator
 * followed by zeros). A foreign address or an unknown uSID has no route: the packet
 * is dropped, never rerouted. Port failures are ignored (the table is set at install
 * and never changed).
 */
class MrcSrv6Forwarding : public MrcForwarding
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcSrv6Forwarding();
    ~MrcSrv6Forwarding() override;

    /**
     * Static route: packets whose next uSID is `usid` leave on `port`.
     * Aborts on uSID 0 or on a uSID already in the table.
     * \param usid next uSID (another switch)
     * \param port egress port
     */
    void AddUsidRoute(uint16_t usid, uint32_t port);

    /**
     * A host downlink owned by this switch: a packet whose next uSID is `usid` has it
     * consumed and leaves on `port`. Aborts on uSID 0 or on a uSID already in the table.
     * \param usid the downlink's uSID
     * \param port the host-facing port
     */
    void AddLocalAdjacency(uint16_t usid, uint32_t port);

    /// \return the number of table entries (routes and local adjacencies)
    uint32_t GetNEntries() const;

  protected:
    int32_t DoRoute(MrcPacketInfo& info, uint32_t inPort) override;

  private:
    /// A table entry.
    struct Entry
    {
        uint32_t port; //!< egress port
        bool local;    //!< a host downlink of this switch (consumed)
    };

    void Add(uint16_t usid, uint32_t port, bool local, const char* what);

    uint32_t m_locator;                  //!< LocatorBlock attribute
    uint16_t m_usid;                     //!< Usid attribute
    MrcFlatMap<uint16_t, Entry> m_table; //!< next uSID -> entry
};

} // namespace ns3

#endif /* MRC_SRV6_FORWARDING_H */
