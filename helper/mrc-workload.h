/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_WORKLOAD_H
#define MRC_WORKLOAD_H

#include <cstdint>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * Flow lists of the traffic patterns the scenarios use (permutation, incast).
 */

namespace ns3
{

/**
 * \ingroup mrc
 * One message a scenario posts: bytes written by host src into a region of host dst.
 */
struct MrcFlowSpec
{
    uint32_t src{0};    //!< sending host index
    uint32_t dst{0};    //!< receiving host index
    uint64_t bytes{0};  //!< message size, payload bytes
    int64_t startNs{0}; //!< posting time, ns
};

/**
 * \ingroup mrc
 * Traffic patterns as flow lists. Random choices use std::mt19937_64 seeded with the
 * run's seed and plain modulo draws (no std distributions, whose results differ between
 * standard libraries), so a seed gives the same flows on every platform; the stock ns-3
 * reference benchmark (examples/mrc-bench-reference.cc) draws its permutation the same
 * way, so both run the same flows.
 */
class MrcWorkload
{
  public:
    /**
     * A random permutation without fixed points: host i sends to dst[i], every host
     * receives exactly one message, no host sends to itself (Fisher-Yates with
     * rng() % (i + 1), redrawn until no fixed point remains).
     * \param hosts number of hosts (>= 2)
     * \param seed the seed
     * \return dst[i] for every host i
     */
    static std::vector<uint32_t> Derangement(uint32_t hosts, uint64_t seed);

    /**
     * Permutation traffic: every host writes `bytes` to a distinct random other host.
     * \param hosts number of hosts (>= 2)
     * \param bytes bytes per message
     * \param seed the seed
     * \return one flow per host, in host order
     */
    static std::vector<MrcFlowSpec> Permutation(uint32_t hosts, uint64_t bytes, uint64_t seed);

    /**
     * Incast: `senders` distinct hosts write `bytes` each to one receiver. The receiver
     * is the last host; the senders are the first `senders` entries of a random
     * shuffle (as Derangement draws it) of the other hosts, listed in ascending order.
     * \param hosts number of hosts (>= 2)
     * \param senders number of senders, 1 .. hosts - 1
     * \param bytes bytes per message
     * \param seed the seed
     * \return one flow per sender, ascending sender index
     */
    static std::vector<MrcFlowSpec> Incast(uint32_t hosts,
                                           uint32_t senders,
                                           uint64_t bytes,
                                           uint64_t seed);

    /**
     * Split every flow into `parts` messages of (nearly) equal size, the remainder going
     * to the first ones (each part is sent on its own queue pair: --qpsPerPair).
     * \param flows the flows
     * \param parts messages per flow (>= 1)
     * \return the messages, each flow's parts consecutive
     */
    static std::vector<MrcFlowSpec> Split(const std::vector<MrcFlowSpec>& flows, uint32_t parts);
};

} // namespace ns3

#endif /* MRC_WORKLOAD_H */
