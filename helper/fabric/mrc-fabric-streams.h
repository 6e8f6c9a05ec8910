/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FABRIC_STREAMS_H
#define MRC_FABRIC_STREAMS_H

#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

class MrcSwitchNode;
class MrcTopology;

/**
 * \ingroup mrc
 * Fixes the random streams of a fabric (the helper's AssignStreams, in ns-3's manner):
 * the switches' ECN markers, trimmers and ECMP hash seeds draw from streams that depend only on
 * the switch id and port, never from automatic stream numbers, so a larger fabric leaves
 * the draws of the switches it shares with a smaller one as they were.
 */
class MrcFabricStreams
{
  public:
    /// Stream indices reserved for each switch by AssignStreams (an upper bound on ports).
    static constexpr int64_t STREAMS_PER_SWITCH = 65536;

    /**
     * The ECN marker of port p of the switch draws from stream `stream + p` (a switch's
     * only random variables). Call it after the switch's last port is added.
     * \param sw the switch
     * \param stream first stream index to use
     * \return the number of stream indices assigned (the switch's ports)
     */
    static int64_t AssignStreams(Ptr<MrcSwitchNode> sw, int64_t stream);

    /**
     * The switch with id s draws from streams `stream + s * STREAMS_PER_SWITCH` on
     * (AssignStreams of the switch: one per port). Aborts if a switch has more than
     * STREAMS_PER_SWITCH ports.
     * \param topo the fabric
     * \param stream first stream index to use
     * \return the number of stream indices reserved (switches x STREAMS_PER_SWITCH)
     */
    static int64_t AssignStreams(Ptr<MrcTopology> topo, int64_t stream);

    /**
     * The trimmer of the switch with id s draws from stream `stream + s` (its only draws:
     * MrcTrimmer::TrimVictim RandomOfTwo; the other choices never draw).
     * \param topo the fabric
     * \param stream first stream index to use
     * \return the number of stream indices used (the switches)
     */
    static int64_t AssignTrimmerStreams(Ptr<MrcTopology> topo, int64_t stream);

    /**
     * Draw every switch's ECMP hash Seed (MrcEcmpForwarding's attribute): the switch with
     * id s takes 64 bits from a UniformRandomVariable on stream `stream + s`, under the
     * global seed and run of RngSeedManager. Switches and runs get unrelated hash
     * functions (seeds of the form base + id make switch s of one run hash as switch s + 1
     * of the run before). Switches without ECMP forwarding are left alone.
     * \param topo the fabric
     * \param stream first stream index to use
     * \return the number of stream indices used (the switches)
     */
    static int64_t DrawEcmpSeeds(Ptr<MrcTopology> topo, int64_t stream);

    /**
     * \param stream a stream index
     * \return 64 bits drawn from a UniformRandomVariable on that stream (the ECMP Seed
     *         DrawEcmpSeeds gives the switch whose stream it is)
     */
    static uint64_t DrawSeed(int64_t stream);
};

} // namespace ns3

#endif /* MRC_FABRIC_STREAMS_H */
