/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TRAFFIC_CLASS_H
#define MRC_TRAFFIC_CLASS_H

#include "ns3/ipv6-header.h"

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * DSCP and ECN helpers for the IPv6 traffic class, and the flow label.
 *
 * The IPv6 traffic class octet is DSCP (six high bits) followed by ECN (two low
 * bits), as in RFC 2474 and RFC 3168. ns-3's Ipv6Header stores the octet whole;
 * these helpers read and write the two parts with any DSCP value (MRC's
 * codepoints such as 11 and 21 are not named in Ipv6Header::DscpType).
 */

namespace ns3
{

/// ECN codepoints of RFC 3168 (the two low bits of the traffic class).
enum class MrcEcn : uint8_t
{
    NOT_ECT = 0x0, ///< not ECN-capable transport
    ECT1 = 0x1,    ///< ECN-capable transport, ECT(1)
    ECT0 = 0x2,    ///< ECN-capable transport, ECT(0)
    CE = 0x3,      ///< congestion experienced
};

/**
 * \ingroup mrc
 * Default DSCP codepoints used by the module.
 *
 * MRC's six codepoints are configuration, not fixed by the specification. The
 * defaults follow NVIDIA Spectrum's lossy-multi-tc profile where it names one
 * (TRIMMED 11, TRIMMED_LASTHOP 21) and the MRC-Client emulator otherwise
 * (CONTROL 46, TRIMMABLE 4, TRIMMABLE_RETX 8, NO_TRIM 0); see doc/mrc.rst.
 * The RoCEv2 values (data 26, CNP 48) are the common vendor defaults.
 * Every user of these values exposes them as attributes.
 */
struct MrcDscp
{
    static constexpr uint8_t CONTROL = 46;         ///< SACK, NACK, ACK, probes' answers
    static constexpr uint8_t TRIMMED = 11;         ///< trimmed header, trimmed inside the fabric
    static constexpr uint8_t TRIMMED_LASTHOP = 21; ///< trimmed header, trimmed toward a host
    static constexpr uint8_t TRIMMABLE = 4;        ///< first transmission of data
    static constexpr uint8_t TRIMMABLE_RETX = 8;   ///< retransmitted data
    static constexpr uint8_t NO_TRIM = 0;          ///< data that must not be trimmed
    static constexpr uint8_t ROCE_DATA = 26;       ///< RoCEv2 data (lossless class)
    static constexpr uint8_t ROCE_CNP = 48;        ///< RoCEv2 congestion notification packet
    static constexpr uint8_t MAX = 63;             ///< largest DSCP value
};

/// \return the DSCP (six high bits) of a traffic-class octet
constexpr uint8_t
MrcDscpOf(uint8_t trafficClass)
{
    return trafficClass >> 2;
}

/// \return the ECN codepoint (two low bits) of a traffic-class octet
constexpr MrcEcn
MrcEcnOf(uint8_t trafficClass)
{
    return static_cast<MrcEcn>(trafficClass & 0x3);
}

/// \return the traffic-class octet made of a DSCP (0..63, higher bits ignored) and an ECN codepoint
constexpr uint8_t
MrcMakeTrafficClass(uint8_t dscp, MrcEcn ecn)
{
    return static_cast<uint8_t>(((dscp & 0x3f) << 2) | static_cast<uint8_t>(ecn));
}

/// \return true when the codepoint says the transport is ECN-capable (ECT(0), ECT(1) or CE)
constexpr bool
MrcIsEcnCapable(MrcEcn ecn)
{
    return ecn != MrcEcn::NOT_ECT;
}

/// \return the DSCP of an IPv6 header
uint8_t MrcGetDscp(const Ipv6Header& ip);

/// Set the DSCP of an IPv6 header, keeping its ECN bits. Aborts if dscp > 63.
void MrcSetDscp(Ipv6Header& ip, uint8_t dscp);

/// \return the ECN codepoint of an IPv6 header
MrcEcn MrcGetEcn(const Ipv6Header& ip);

/// Set the ECN codepoint of an IPv6 header, keeping its DSCP.
void MrcSetEcn(Ipv6Header& ip, MrcEcn ecn);

/**
 * Mark an IPv6 header Congestion Experienced if it is ECN-capable.
 * \return true if the header was marked (it was ECT(0), ECT(1) or already CE)
 */
bool MrcMarkCe(Ipv6Header& ip);

/// The flow label is 20 bits wide.
constexpr uint32_t MRC_FLOW_LABEL_MASK = 0xfffff;

/// Set the flow label; aborts if the value does not fit in 20 bits.
void MrcSetFlowLabel(Ipv6Header& ip, uint32_t flowLabel);

} // namespace ns3

#endif /* MRC_TRAFFIC_CLASS_H */
