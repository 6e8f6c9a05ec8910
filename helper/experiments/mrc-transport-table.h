/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TRANSPORT_TABLE_H
#define MRC_TRANSPORT_TABLE_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * The transports mrc-sim runs, as one table: what differs between RoCE, UEC and MRC
 * when a scenario builds a fabric and connects queue pairs.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * One transport of mrc-sim: its queue-pair class, its default parameter profile and
 * every other difference the scenario runner needs to know, as plain values.
 */
struct MrcTransportInfo
{
    std::string name;           //!< the --transport name ("roce", "uec", "mrc")
    std::string queuePairType;  //!< TypeId name of its queue pairs
    std::string defaultProfile; //!< MrcProfiles name used when --profile is empty
    uint32_t defaultMtu{0};     //!< payload bytes per packet when --mtu is empty
    /// Attribute defaults of the fabric this transport runs on (path, value), set
    /// before the profile (which may override them)
    std::vector<std::pair<std::string, std::string>> fabricDefaults;
    /// Frame bytes of a data packet besides its payload, SRv6 encapsulation excluded
    uint32_t dataFrameOverhead{0};
    /// Bytes a data packet's SRv6 encapsulation adds with --evFormat=srv6 (0: none)
    uint32_t srv6EncapBytes{0};
    /// Extra bytes of the first packet of a message counted in the ideal FCT
    uint32_t idealFctExtraBytes{0};
    uint32_t ackFrameBytes{0}; //!< bytes of an acknowledgement frame (ACK or SACK)
    /// One queue pair sprays over every plane (ideal FCT on planes x the bottleneck;
    /// --sameFabric=0 keeps the planes for it)
    bool usesAllPlanes{false};
    /// Queue pairs carry MRC entropy values drawn from the topology's paths (EV
    /// profiles, SRv6 or structured EVs, ev_state events, MRC counters)
    bool entropyValues{false};
    /// Queue pairs spray by a per-packet entropy selector with its own random stream
    /// (fixed streams, BaseRtt from the fabric, UEC counters)
    bool entropySelector{false};
    /// Data of a flow file's priority groups is sent with per-group DSCPs (RoCE)
    bool priorityGroups{false};
};

/**
 * \ingroup mrc
 * The table of transports (name -> MrcTransportInfo), in the order mrc-sim lists them.
 */
class MrcTransportTable
{
  public:
    /// Data frame bytes of a RoCE Write packet besides its payload (Ethernet 14, IPv6 40,
    /// UDP 8, BTH 12, ICRC 4), without RETH (carried once per message).
    static constexpr uint32_t ROCE_DATA_OVERHEAD = 78;
    /// A RoCE ACK frame: Ethernet 14, IPv6 40, UDP 8, BTH 12, AETH 4, ICRC 4.
    static constexpr uint32_t ROCE_ACK_BYTES = 82;
    /// The outer IPv6 header of an SRv6-encapsulated MRC data packet.
    static constexpr uint32_t SRV6_ENCAP_BYTES = 40;

    /// \return every transport, in listing order
    static const std::vector<MrcTransportInfo>& GetAll();
    /// \param name a transport name \return its entry, or null
    static const MrcTransportInfo* Find(const std::string& name);
    /// \param name a transport name (aborts naming the allowed ones otherwise)
    /// \return its entry
    static const MrcTransportInfo& Get(const std::string& name);
    /// \return the names, in listing order
    static std::vector<std::string> GetNames();
};

} // namespace ns3

#endif /* MRC_TRANSPORT_TABLE_H */
