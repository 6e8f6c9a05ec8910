/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SCENARIO_WORKLOAD_H
#define MRC_SCENARIO_WORKLOAD_H

#include "mrc-scenario-config.h"
#include "mrc-scenario-streams.h"

#include "ns3/mrc-htsim-input.h"
#include "ns3/mrc-workload.h"
#include "ns3/random-variable-stream.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * The messages of a scenario's traffic pattern, and the triggers of an htsim connection
 * matrix that start messages during a run.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * The messages a scenario starts with, from its pattern (permutation, incast,
 * incast-victim, alltoall, flows, file).
 */
class MrcScenarioWorkload
{
  public:
    /// The ns-3 random stream of the pattern draws (permutation, incast senders).
    static constexpr int64_t PATTERN_STREAM = MrcScenarioStreams::PATTERN;

    /**
     * A random permutation without fixed points: Fisher-Yates with
     * UniformRandomVariable::GetInteger(0, i) drawn from stream PATTERN_STREAM of run
     * `seed` (RNG seed 1), redrawn until no host maps to itself. The stock ns-3 reference
     * benchmark (examples/mrc-bench-reference.cc) calls it too, so both run the same flows.
     * The global seed and run are left as they were.
     * \param hosts number of hosts (>= 2)
     * \param seed the seed
     * \return dst[i] for every host i
     */
    static std::vector<uint32_t> Derangement(uint32_t hosts, uint64_t seed);

    /**
     * The messages of a scenario: "permutation" (host i writes `bytes` to
     * Derangement(hosts, seed)[i]) or "incast" (the last host receives from `senders`
     * hosts: the first ones of a Fisher-Yates shuffle of the others, as above, in
     * ascending order), "incast-victim", "alltoall", "flows" (Poisson arrivals) or
     * "file"; every flow split into qpsPerPair messages of nearly equal size (the
     * remainder to the first ones), each flow's parts consecutive.
     * \param c the settings
     * \param hosts number of hosts
     * \return the messages, in flow-id order
     */
    static std::vector<MrcFlowSpec> MakeMessages(const MrcScenarioConfig& c, uint32_t hosts);

    /**
     * \param seed the run number
     * \return a uniform random variable on stream PATTERN_STREAM of run `seed` (RNG seed
     *         1), taking no automatic stream number
     */
    static Ptr<UniformRandomVariable> PatternRandom(uint64_t seed);

    /**
     * Fisher-Yates shuffle: for i from the last index down to 1, swap v[i] with
     * v[GetInteger(0, i)].
     * \param v the values
     * \param u the random variable
     */
    static void Shuffle(std::vector<uint32_t>& v, Ptr<UniformRandomVariable> u);

  private:
    /// \return host i -> Derangement(hosts, seed)[i], `bytes` each
    static std::vector<MrcFlowSpec> Permutation(const MrcScenarioConfig& c, uint32_t hosts);
    /// \return the incast (and, for incast-victim, the victim flow last)
    static std::vector<MrcFlowSpec> Incast(const MrcScenarioConfig& c, uint32_t hosts);
    /// \return every flow split into `parts` messages, each flow's parts consecutive
    static std::vector<MrcFlowSpec> Split(const std::vector<MrcFlowSpec>& flows, uint32_t parts);
};

/**
 * \ingroup mrc
 * The triggers of an htsim connection matrix (htsim's SingleShot, MultiShot and Barrier
 * triggers): which connections an activation starts.
 */
class MrcHtsimTriggers
{
  public:
    /// \param matrix the connection matrix (its triggers, and the connections that wait
    ///        for one)
    void Load(const MrcHtsimConnectionMatrix& matrix);

    /**
     * Activate a trigger (a connection's send_done/recv_done trigger).
     * \param id the trigger id
     * \return the connections (indices into the matrix) to start now, in file order
     */
    std::vector<std::size_t> Activate(uint32_t id);

  private:
    /// A trigger's state.
    struct State
    {
        MrcHtsimTrigger::Type type{MrcHtsimTrigger::ONESHOT}; //!< its type
        uint32_t remaining{0};                                //!< barrier: activations still needed
        std::size_t next{0};                                  //!< multishot: next target
        bool fired{false};                                    //!< oneshot/barrier: fired already
        std::vector<std::size_t> targets; //!< connections it starts, in file order
    };

    std::map<uint32_t, State> m_triggers; //!< by id
};

} // namespace ns3

#endif /* MRC_SCENARIO_WORKLOAD_H */
