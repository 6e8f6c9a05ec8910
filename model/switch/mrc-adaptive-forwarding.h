/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_ADAPTIVE_FORWARDING_H
#define MRC_ADAPTIVE_FORWARDING_H

#include "mrc-ecmp-forwarding.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <unordered_map>

/**
 * \file
 * \ingroup mrc
 * Switch adaptive routing: per-packet least-loaded port (MrcAdaptiveForwarding) and
 * flowlet switching (MrcFlowletForwarding) over the ECMP groups of MrcEcmpForwarding.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * Adaptive routing, per packet: among the live ports of the packet's ECMP group, the one
 * with the fewest bytes queued on its egress (read through the switch's port-load
 * callback); equal loads are broken round-robin (a search starts one port further at every
 * choice), so that a lone flow on idle links is still spread over the whole group. Routes, failures
 * and range routes are those of MrcEcmpForwarding (select it with the switch's Forwarding
 * attribute: ns3::MrcAdaptiveForwarding).
 *
 * This is the switch-side alternative to spraying at the endpoints (as in switch ASICs'
 * adaptive routing for RoCE): consecutive packets of one flow take different paths and
 * arrive out of order, so the receiver must tolerate reordering. RoCE go-back-N would
 * NAK and resend at every reordering; pair it with MrcRoceQueuePair's Recovery
 * SelectiveRepeat and a ReorderPsns above the fabric's reordering depth.
 */
class MrcAdaptiveForwarding : public MrcEcmpForwarding
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcAdaptiveForwarding();
    ~MrcAdaptiveForwarding() override;

    /// \return packets sent on another port than the ECMP hash chose
    uint64_t GetMovedPackets() const;

  protected:
    uint32_t ChoosePort(const MrcPacketInfo& info,
                        uint64_t hash,
                        uint32_t ecmpPort,
                        const uint32_t* live,
                        uint32_t nLive) override;

    /**
     * The live port with the fewest queued bytes; equal loads are broken round-robin.
     * \param live the live ports
     * \param nLive their number
     * \return the least-loaded port
     */
    uint32_t LeastLoaded(const uint32_t* live, uint32_t nLive);

    uint64_t m_moved{0}; //!< packets not on their ECMP port
    uint32_t m_next{0};  //!< where the next search starts (round-robin among equal loads)
};

/**
 * \ingroup mrc
 * Flowlet switching: a flow (the ECMP 5-tuple hash) keeps its port while its packets
 * follow each other closer than FlowletGap; the first packet after a longer idle gap
 * starts a new flowlet on the least-loaded live port (as MrcAdaptiveForwarding). A gap
 * longer than the difference of the paths' delays lets the flow move without reordering
 * (CONGA, Alizadeh et al., SIGCOMM 2014; LetFlow, Vanini et al., NSDI 2017). A flowlet's
 * port that goes down starts a new flowlet at once.
 */
class MrcFlowletForwarding : public MrcAdaptiveForwarding
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcFlowletForwarding();
    ~MrcFlowletForwarding() override;

    /// \return flowlets started (first packets of flows included)
    uint64_t GetFlowlets() const;
    /// \return flows in the flowlet table
    std::size_t GetNFlows() const;

  protected:
    uint32_t ChoosePort(const MrcPacketInfo& info,
                        uint64_t hash,
                        uint32_t ecmpPort,
                        const uint32_t* live,
                        uint32_t nLive) override;

  private:
    /// A flow's current flowlet.
    struct Flowlet
    {
        uint32_t port{0}; //!< its port
        Time last;        //!< when its last packet passed
    };

    Time m_gap;                                    //!< FlowletGap
    std::unordered_map<uint64_t, Flowlet> m_table; //!< by flow hash
    uint64_t m_flowlets{0};                        //!< flowlets started
};

} // namespace ns3

#endif /* MRC_ADAPTIVE_FORWARDING_H */
