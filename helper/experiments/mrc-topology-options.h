/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TOPOLOGY_OPTIONS_H
#define MRC_TOPOLOGY_OPTIONS_H

#include "mrc-command-line.h"

#include "ns3/mrc-topology.h"

#include <string>

/**
 * \file
 * \ingroup mrc
 * The command-line options that describe a fabric (MrcTopologyConfig), shared by mrc-sim
 * and the example programs. They live in the experiments layer: the fabric helpers below
 * know nothing of command lines.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * The topology options shared by mrc-sim and the examples (design.md section 4):
 * --topology=clos|fattree, --planes, --hosts, --hostsPerT0, --t1PerPlane,
 * --uplinksPerT0, --k, --hostRate, --fabricRate, --coreRate, --linkDelay,
 * --hostLinkDelay, --coreLinkDelay, --mtu.
 *
 * \code
 *   MrcCommandLine cmd;
 *   MrcTopologyOptions topo;
 *   topo.Register(cmd);
 *   cmd.Parse(argc, argv);
 *   MrcTopologyConfig config = topo.ToConfig(); // exits 2 naming a bad option
 * \endcode
 */
class MrcTopologyOptions
{
  public:
    /**
     * Register the options on a command line; current member values are the defaults.
     * \param cmd the command line
     */
    void Register(MrcCommandLine& cmd);

    /**
     * Convert and check the option values.
     * \param config receives the shape
     * \return "" or an "--option='value' ..." message naming what is wrong
     */
    std::string TryToConfig(MrcTopologyConfig& config) const;

    /**
     * As TryToConfig; on a problem prints the message and exits with
     * MrcCommandLine::EXIT_USAGE (2).
     * \return the shape
     */
    MrcTopologyConfig ToConfig() const;

    std::string topology{"clos"};      //!< --topology: clos or fattree
    std::string planes{"1"};           //!< --planes
    std::string hosts{""};             //!< --hosts (empty: 16 for clos, derived for fattree)
    std::string hostsPerT0{""};        //!< --hostsPerT0 (empty: 4 for clos, k/2 for fattree)
    std::string t1PerPlane{"4"};       //!< --t1PerPlane
    std::string uplinksPerT0{"0"};     //!< --uplinksPerT0 (0 = t1PerPlane)
    std::string k{"4"};                //!< --k
    std::string hostRate{"100Gbps"};   //!< --hostRate
    std::string fabricRate{"100Gbps"}; //!< --fabricRate (T0-T1)
    std::string coreRate{""};          //!< --coreRate (T1-T2; empty = fabricRate)
    std::string linkDelay{"1us"};      //!< --linkDelay (every tier unless overridden)
    std::string hostLinkDelay{""};     //!< --hostLinkDelay (empty = linkDelay)
    std::string coreLinkDelay{""};     //!< --coreLinkDelay (empty = linkDelay)
    std::string mtu{"4096"};           //!< --mtu
};

} // namespace ns3

#endif /* MRC_TOPOLOGY_OPTIONS_H */
