/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SCENARIO_STREAMS_H
#define MRC_SCENARIO_STREAMS_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mrc
 * The random stream numbers of an mrc-sim run (MrcScenarioRunner), one fixed range per
 * owner. Every random variable of a run draws from ns-3's generator with seed 1 and run
 * number = --seed (RngSeedManager), on the stream given here, assigned with AssignStreams
 * before its first draw; no object of a run draws from an automatic stream number. The
 * ranges are far apart, and inside a range an object's stream depends only on its own
 * index (switch id and port, link, queue-pair lane), so a larger fabric or an extra
 * connection leaves the draws of every other object as they were. (The switches' ECMP hash seeds
 * are not drawn: they are --seed + switch id, MrcTopologyHelper::SetEcmpSeed.)
 *
 * | streams                                   | owner                                   |
 * |-------------------------------------------|-----------------------------------------|
 * | PATTERN                                   | permutation, incast sender choice       |
 * | FLOWS                                     | Poisson flow generator (pattern flows)  |
 * | TRIMMER + s                               | trimmer of switch s (TrimVictim draws)  |
 * | FABRIC + s * 65536 + p                    | ECN marker of port p of switch s        |
 * | LOSS + i                                  | --lossRate error model of device i      |
 * | LINK_ERROR + 2 * l + side                 | topology-file error model, link l       |
 * | MESSAGE + STREAMS_PER_MESSAGE * m + k     | queue pairs of lane m (k < 6)           |
 */
struct MrcScenarioStreams
{
    /// Traffic pattern draws: the permutation and the incast senders (MrcScenarioWorkload).
    static constexpr int64_t PATTERN = 400;
    /// The Poisson flow generator of pattern "flows" (MrcWorkloadGenerator).
    static constexpr int64_t FLOWS = 500;
    /// The gray failures of --grayLink (MrcFailureInjector::AssignStreams: one each, in order).
    static constexpr int64_t GRAY_FAILURE = 600;
    /// First stream of the switches' trimmers (MrcFabricStreams::AssignTrimmerStreams).
    static constexpr int64_t TRIMMER = int64_t{1} << 39;
    /// First stream of the switches' ECN markers (MrcFabricStreams::AssignStreams).
    static constexpr int64_t FABRIC = int64_t{1} << 40;
    /**
     * First stream of the --lossRate error models: device i of the devices that drop
     * (with --lossAt=path the NIC ports, host by host and plane by plane; else both
     * devices of every link, link by link) draws from LOSS + i.
     */
    static constexpr int64_t LOSS = int64_t{1} << 44;
    /// First stream of a topology file's per-link error models (link l, side 0 or 1).
    static constexpr int64_t LINK_ERROR = int64_t{1} << 45;
    /**
     * First stream of the queue pairs. Lane m (the m-th queue-pair pair opened, in
     * opening order; MrcScenarioConnections) uses MESSAGE + STREAMS_PER_MESSAGE * m on: MRC the
     * requester's and the responder's EV profile (EV set), then each queue pair's two
     * (MrcMultipathQueuePair::AssignStreams: profile, EV table); UEC the requester's and the
     * responder's entropy selector.
     */
    static constexpr int64_t MESSAGE = int64_t{1} << 46;
    /// Streams reserved for each lane (queue-pair pair).
    static constexpr int64_t STREAMS_PER_MESSAGE = 8;
};

} // namespace ns3

#endif /* MRC_SCENARIO_STREAMS_H */
