/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_COLLECTIVE_OPTIONS_H
#define MRC_COLLECTIVE_OPTIONS_H

#include "mrc-command-line.h"
#include "mrc-scenario-config.h"

#include <string>

/**
 * \file
 * \ingroup mrc
 * The mrc-sim options of collectives, jobs and traces.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * mrc-sim's options for training-style traffic, as text (checked by TryToConfig):
 *
 * - --trace=FILE: replay a trace (MrcTraceReader: collectives and flows with
 *   dependencies);
 * - --collective=OP (allreduce, reducescatter, allgather, alltoall) with --algorithm,
 *   --channels, --iterations, --computeGap, the shared --chunks and --bytes (S per rank):
 *   --jobs jobs at once, each of --jobHosts hosts (empty: all hosts / jobs), job j on hosts
 *   j x jobHosts .. (j+1) x jobHosts - 1 (with --exclusive=false, placed modulo the hosts,
 *   so jobs may share hosts);
 * - --background=true: the Poisson flows of --cdf, --load and --duration in the same run;
 * - --exclusive (default true): no two jobs on one host (a trace's collectives name their
 *   job with job=J).
 *
 * Either --trace or --collective makes the run's pattern "trace". The options are recorded
 * in summary.json only when given.
 */
class MrcCollectiveOptions
{
  public:
    /// \param cmd the command line
    void Register(MrcCommandLine& cmd);

    /**
     * Check the values and fill the trace of the config (after the fabric options: the
     * host count is known).
     * \param c the config
     * \return "" or what is wrong (naming the option, or FILE:LINE of the trace)
     */
    std::string TryToConfig(MrcScenarioConfig& c) const;

    std::string trace{""};           //!< --trace
    std::string collective{""};      //!< --collective
    std::string algorithm{"ring"};   //!< --algorithm
    std::string channels{"1"};       //!< --channels
    std::string iterations{"1"};     //!< --iterations
    std::string computeGap{"0s"};    //!< --computeGap
    std::string jobs{"1"};           //!< --jobs
    std::string jobHosts{""};        //!< --jobHosts
    std::string exclusive{"true"};   //!< --exclusive
    std::string background{"false"}; //!< --background

  private:
    /// \return the trace entries of --collective (one collective per job)
    std::string MakeJobs(const MrcScenarioConfig& c, std::vector<MrcTraceEntry>& out) const;
};

} // namespace ns3

#endif /* MRC_COLLECTIVE_OPTIONS_H */
