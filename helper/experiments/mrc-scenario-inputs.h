/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SCENARIO_INPUTS_H
#define MRC_SCENARIO_INPUTS_H

#include "mrc-scenario-config.h"

#include "ns3/mrc-htsim-input.h"
#include "ns3/mrc-topology-helper.h"

#include <string>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * The input files of mrc-sim (--topoFile, --flowFile, --cdf): where they are found and how
 * they become a scenario's fabric and messages.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * Loads mrc-sim's input files into an MrcScenarioConfig.
 */
class MrcScenarioInputs
{
  public:
    /**
     * Load --topoFile and --flowFile into the settings (c.topology.planes and mtu already
     * set). A name ending in .topo is an htsim fat tree, any other an HPCC/ConWeave
     * topology file; a name ending in .cm is an htsim connection matrix, any other an
     * HPCC/ConWeave flow file. "none" names no file.
     * \param c the settings to fill (topoFile, flowFile, graph, fileFlows, ...)
     * \param topoFile the --topoFile value
     * \param flowFile the --flowFile value
     * \return "" or the problem ("FILE:LINE: expected ..., got '...'" for a malformed file)
     */
    static std::string Load(MrcScenarioConfig& c,
                            const std::string& topoFile,
                            const std::string& flowFile);

    /**
     * The fat tree an htsim .topo describes, as an edge list: hosts 0..Nodes-1, then the
     * ToRs, the aggregation switches and the cores (pod by pod). Host h hangs off ToR
     * h / Radix_Down(0); every ToR has Bundle(1) links to every aggregation switch of its
     * pod; aggregation switch k of a pod has Bundle(2) links to cores k*c .. k*c+c-1,
     * c = cores / aggs per pod (as MrcTopologyHelper's fat-tree joins aggregation j to
     * cores j*k/2..). Throws MrcInputError on a shape it cannot build.
     * \param t the topology file
     * \param s its shape
     * \return the edge list
     */
    static MrcTopologyGraph HtsimGraph(const MrcHtsimTopology& t, const MrcHtsimFatTreeShape& s);

    /**
     * A file named relative to the source tree ("data/..."): as given if it exists,
     * otherwise looked up from the current folder and the executable's folder upwards.
     * \param rel the name
     * \return the path found, or rel
     */
    static std::string FindDataFile(const std::string& rel);

    /**
     * A flow-size CDF: a file path, or NAME of data/cdf/NAME.txt looked up as
     * FindDataFile does. Aborts naming the known ones when there is none.
     * \param name the --cdf value
     * \return the file's path
     */
    static std::string FindCdfFile(const std::string& name);

    /**
     * FindCdfFile without the abort.
     * \param name the --cdf value
     * \param path receives the file's path
     * \return "" or the problem, naming --cdf
     */
    static std::string TryFindCdfFile(const std::string& name, std::string& path);

  private:
    /// --topoFile into c (graph, graphLinkError, graphNodeOfHost, the topology's shape)
    /// \return "" or the problem
    static std::string LoadTopologyFile(MrcScenarioConfig& c);
    /// an htsim connection matrix (--flowFile=X.cm) into c \return "" or the problem
    static std::string LoadConnectionMatrix(MrcScenarioConfig& c);
    /// an HPCC/ConWeave flow file into c, sources and destinations as host indices
    static void LoadHpccFlows(MrcScenarioConfig& c);
};

} // namespace ns3

#endif /* MRC_SCENARIO_INPUTS_H */
