/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_ENTROPY_H
#define MRC_ENTROPY_H

#include "ns3/ipv6-header.h"
#include "ns3/udp-header.h"

#include <cstdint>
#include <string>

/**
 * \file
 * \ingroup mrc
 * The MRC entropy value (EV) on the wire.
 *
 * A 32-bit EV is striped over the UDP source port (16 bits) and the low 16 bits
 * of the IPv6 flow label; flow label bits 19..16 stay 0 [P1 2.1]. Which half
 * goes where is not settled by the public sources (ManiAm: source port = low
 * half; MRC-Client: source port = high half). The model default is
 * SRC_PORT_LOW; SRC_PORT_HIGH gives the other mapping. In SRv6 mode the EV
 * rides in the inner IPv6 header and UDP header; whoever builds the outer
 * header copies the flow label into it.
 *
 * In SRv6 mode the model gives the EV a fixed layout (not published; model
 * default after the paper's "copy the plane number from the EV into all uSIDs
 * and the T0 uplink number into the T1 uSID"): plane in EV[15:12], T0 uplink
 * in EV[7:0], all other bits 0. The plane sits at the same bits as in a uSID,
 * so copying it into a uSID is a mask and an OR. See doc/mrc.rst.
 */

namespace ns3
{

/// Which half of the 32-bit EV the UDP source port carries.
enum class MrcEvSplit : uint8_t
{
    SRC_PORT_LOW,  ///< UDP src port = EV[15:0], flow label[15:0] = EV[31:16] (model default)
    SRC_PORT_HIGH, ///< UDP src port = EV[31:16], flow label[15:0] = EV[15:0] (MRC-Client)
};

/// The model's default EV split (our choice, after ManiAm's reading).
constexpr MrcEvSplit MRC_EV_SPLIT_DEFAULT = MrcEvSplit::SRC_PORT_LOW;

/// \param split an EV split \return "SRC_PORT_LOW" or "SRC_PORT_HIGH"
std::string MrcEvSplitToString(MrcEvSplit split);

/// The two header fields that carry an EV.
struct MrcEvWire
{
    uint16_t udpSrcPort; ///< UDP source port
    uint32_t flowLabel;  ///< IPv6 flow label (20 bits; bits 19..16 are 0)
};

/**
 * \param ev a 32-bit EV
 * \param split which half goes to the UDP source port
 * \return the source port and flow label that carry it
 */
constexpr MrcEvWire
MrcEvEncode(uint32_t ev, MrcEvSplit split)
{
    return split == MrcEvSplit::SRC_PORT_LOW
               ? MrcEvWire{static_cast<uint16_t>(ev & 0xffff), ev >> 16}
               : MrcEvWire{static_cast<uint16_t>(ev >> 16), ev & 0xffff};
}

/**
 * \param udpSrcPort the UDP source port
 * \param flowLabel the IPv6 flow label (bits 19..16 are ignored)
 * \param split which half the UDP source port carries
 * \return the 32-bit EV. With flowLabel 0 (UDP-only mode) the bits the packet
 *         did not carry read as 0.
 */
constexpr uint32_t
MrcEvDecode(uint16_t udpSrcPort, uint32_t flowLabel, MrcEvSplit split)
{
    return split == MrcEvSplit::SRC_PORT_LOW
               ? ((flowLabel & 0xffff) << 16) | udpSrcPort
               : (static_cast<uint32_t>(udpSrcPort) << 16) | (flowLabel & 0xffff);
}

/**
 * Write an EV into a UDP header's source port and an IPv6 header's flow label.
 * \param ev the EV
 * \param split the EV split
 * \param udp the UDP header (source port overwritten)
 * \param ip the IPv6 header (flow label overwritten)
 */
void MrcEvWrite(uint32_t ev, MrcEvSplit split, UdpHeader& udp, Ipv6Header& ip);

/**
 * \param udp the UDP header
 * \param ip the IPv6 header that precedes it
 * \param split the EV split
 * \return the EV the two headers carry
 */
uint32_t MrcEvRead(const UdpHeader& udp, const Ipv6Header& ip, MrcEvSplit split);

/// SRv6-mode EV: plane field position (EV[15:12]; the same bits and the same value, plane + 1,
/// as in a model uSID, see mrc-usid.h: a field of 0 would make T0 0 of plane 0 the uSID 0).
constexpr uint32_t MRC_SRV6_EV_PLANE_SHIFT = 12;
/// SRv6-mode EV: plane field mask.
constexpr uint32_t MRC_SRV6_EV_PLANE_MASK = 0xf000;
/// SRv6-mode EV: T0 uplink field mask (EV[7:0]).
constexpr uint32_t MRC_SRV6_EV_UPLINK_MASK = 0x00ff;
/// SRv6-mode EV: number of planes the layout can name (field values 1..15 hold planes 0..14).
constexpr uint32_t MRC_SRV6_EV_MAX_PLANES = 15;
/// SRv6-mode EV: number of T0 uplinks the layout can name.
constexpr uint32_t MRC_SRV6_EV_MAX_UPLINKS = 256;

/**
 * \param plane the plane index, 0..14 (aborts otherwise)
 * \param uplink the T0 uplink index, which is also the T1 index, 0..255 (aborts otherwise)
 * \return the SRv6-mode EV (plane + 1) << 12 | uplink
 */
uint32_t MrcSrv6EvMake(uint32_t plane, uint32_t uplink);

/// \param ev a valid SRv6-mode EV \return its plane, EV[15:12] - 1
constexpr uint32_t
MrcSrv6EvPlane(uint32_t ev)
{
    return ((ev & MRC_SRV6_EV_PLANE_MASK) >> MRC_SRV6_EV_PLANE_SHIFT) - 1;
}

/// \param ev an SRv6-mode EV \return its T0 uplink, EV[7:0]
constexpr uint32_t
MrcSrv6EvUplink(uint32_t ev)
{
    return ev & MRC_SRV6_EV_UPLINK_MASK;
}

/// \param ev a 32-bit value \return true if only the plane and uplink bits are set and the plane
/// field is not 0
constexpr bool
MrcSrv6EvIsValid(uint32_t ev)
{
    return (ev & ~(MRC_SRV6_EV_PLANE_MASK | MRC_SRV6_EV_UPLINK_MASK)) == 0 &&
           (ev & MRC_SRV6_EV_PLANE_MASK) != 0;
}

/**
 * Copy the plane of an SRv6-mode EV into a 16-bit uSID.
 * \param usid a uSID whose bits 15..12 are the plane
 * \param ev an SRv6-mode EV
 * \return usid with bits 15..12 replaced by EV[15:12] (both hold plane + 1, so this equals
 *         MrcUsidWithPlane(usid, MrcSrv6EvPlane(ev)))
 */
constexpr uint16_t
MrcSrv6UsidWithPlane(uint16_t usid, uint32_t ev)
{
    return static_cast<uint16_t>((usid & ~MRC_SRV6_EV_PLANE_MASK) | (ev & MRC_SRV6_EV_PLANE_MASK));
}

} // namespace ns3

#endif /* MRC_ENTROPY_H */
