/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SRV6_ENCAP_H
#define MRC_SRV6_ENCAP_H

#include "mrc-srh-header.h"
#include "mrc-usid.h"

#include "ns3/ipv6-address.h"
#include "ns3/ipv6-header.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * IPv6-in-IPv6 encapsulation for SRv6 uSID paths.
 *
 * An MRC NIC in SRv6 mode wraps the packet (inner IPv6 header to the peer NIC,
 * UDP, BTH, ...) in an outer IPv6 header whose destination address is the uSID
 * carrier of the path [Araujo et al., arXiv:2605.04333, sec. 2.2]; when the
 * path needs more than one carrier, an SRH follows the outer header. The
 * receiving NIC decapsulates because the inner destination is its own address.
 *
 *     outer IPv6 (next header 41)                        | inner IPv6 | ...
 *     outer IPv6 (next header 43) | SRH (next header 41) | inner IPv6 | ...
 *
 * The outer header copies the inner header's traffic class (DSCP and ECN, the
 * uniform model of RFC 2983 and the normal ECN mode of RFC 6040) and flow label
 * (our choice: MRC's EV rides in the inner flow label, and copying it keeps it
 * visible to ECMP-mode switches and in traces of the outer header).
 */

namespace ns3
{

/// Outer hop limit used by default (our choice; the NIC's attribute overrides it).
constexpr uint8_t MRC_SRV6_DEFAULT_HOP_LIMIT = 64;

/// IPv6 next-header value of an encapsulated IPv6 packet.
constexpr uint8_t MRC_IPV6_IN_IPV6 = 41;

/**
 * Prepend the outer IPv6 header (and the SRH if given) to a packet that starts
 * at its inner IPv6 header.
 *
 * Outer fields: version 6, the given traffic class and flow label, payload
 * length = SRH size + packet size, next header 41 without SRH or 43 with one
 * (the SRH's next header must be 41), the given hop limit, source and
 * destination. Aborts if the payload length does not fit in 16 bits or the
 * flow label in 20 bits.
 * \param p the packet, starting at the inner IPv6 header; modified in place
 * \param trafficClass the outer traffic class octet
 * \param flowLabel the outer flow label
 * \param outerSource the outer source address (the sending NIC port)
 * \param outerDestination the uSID carrier of the path's first segment
 * \param srh the SRH for the rest of the path, or nullptr
 * \param hopLimit the outer hop limit
 */
void MrcSrv6Encapsulate(Ptr<Packet> p,
                        uint8_t trafficClass,
                        uint32_t flowLabel,
                        const Ipv6Address& outerSource,
                        const MrcUsidCarrier& outerDestination,
                        const MrcSrhHeader* srh = nullptr,
                        uint8_t hopLimit = MRC_SRV6_DEFAULT_HOP_LIMIT);

/**
 * As above, copying traffic class and flow label from the inner header the
 * caller just built (no parsing of the packet).
 * \param p the packet, starting at the inner IPv6 header; modified in place
 * \param inner the inner IPv6 header (already added to p)
 * \param outerSource the outer source address
 * \param outerDestination the uSID carrier of the path's first segment
 * \param srh the SRH for the rest of the path, or nullptr
 * \param hopLimit the outer hop limit
 */
void MrcSrv6Encapsulate(Ptr<Packet> p,
                        const Ipv6Header& inner,
                        const Ipv6Address& outerSource,
                        const MrcUsidCarrier& outerDestination,
                        const MrcSrhHeader* srh = nullptr,
                        uint8_t hopLimit = MRC_SRV6_DEFAULT_HOP_LIMIT);

/**
 * As above, reading the traffic class and flow label from the first four bytes
 * of the packet (its inner IPv6 header). Aborts if those bytes are not IPv6.
 * \param p the packet, starting at the inner IPv6 header; modified in place
 * \param outerSource the outer source address
 * \param outerDestination the uSID carrier of the path's first segment
 * \param srh the SRH for the rest of the path, or nullptr
 * \param hopLimit the outer hop limit
 */
void MrcSrv6Encapsulate(Ptr<Packet> p,
                        const Ipv6Address& outerSource,
                        const MrcUsidCarrier& outerDestination,
                        const MrcSrhHeader* srh = nullptr,
                        uint8_t hopLimit = MRC_SRV6_DEFAULT_HOP_LIMIT);

/**
 * Encapsulate along a path of carriers in visiting order: path[0] becomes the
 * outer destination, and an SRH carries path[1..count-1] when count > 1.
 * Traffic class and flow label come from the inner header.
 * \param p the packet, starting at the inner IPv6 header; modified in place
 * \param inner the inner IPv6 header (already added to p)
 * \param outerSource the outer source address
 * \param path the carriers in visiting order
 * \param count number of carriers (at least 1)
 * \param hopLimit the outer hop limit
 */
void MrcSrv6EncapsulatePath(Ptr<Packet> p,
                            const Ipv6Header& inner,
                            const Ipv6Address& outerSource,
                            const MrcUsidCarrier* path,
                            uint32_t count,
                            uint8_t hopLimit = MRC_SRV6_DEFAULT_HOP_LIMIT);

/**
 * Remove the outer IPv6 header and, if present, the SRH; afterwards the packet
 * starts at the inner IPv6 header. Aborts if the outer next header is neither
 * 41 nor an SRH followed by 41.
 * \param p the encapsulated packet; modified in place
 * \param outer if not nullptr, receives the outer IPv6 header (its ECN and DSCP
 *        carry the fabric's marks: see MrcSrv6CopyCeToInner)
 * \param srh if not nullptr, receives the SRH when one was present
 * \return true if an SRH was present
 */
bool MrcSrv6Decapsulate(Ptr<Packet> p, Ipv6Header* outer = nullptr, MrcSrhHeader* srh = nullptr);

/**
 * Carry a congestion mark from the outer to the inner header at decapsulation
 * (RFC 6040 normal mode, for the cases MRC meets): if the outer header is CE
 * and the inner one ECN-capable, the inner becomes CE. An outer CE over a
 * Not-ECT inner header (RFC 6040 would drop it) leaves the inner unchanged.
 * \param outer the removed outer header
 * \param inner the inner header, updated in place
 * \return true if the inner header is CE afterwards
 */
bool MrcSrv6CopyCeToInner(const Ipv6Header& outer, Ipv6Header& inner);

} // namespace ns3

#endif /* MRC_SRV6_ENCAP_H */
