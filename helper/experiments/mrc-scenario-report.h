/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SCENARIO_REPORT_H
#define MRC_SCENARIO_REPORT_H

#include "mrc-scenario-connections.h"
#include "mrc-transport-table.h"

#include "ns3/mrc-net-device.h"
#include "ns3/mrc-rdma-helper.h"
#include "ns3/mrc-run-results.h"
#include "ns3/mrc-topology.h"
#include "ns3/mrc-workload.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * What a scenario run reports besides its flows: pfc.txt records, per-link records and
 * the transport counters of summary.json.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * Reads a finished (or running) scenario's fabric and queue pairs into MrcRunResults.
 */
class MrcScenarioReport
{
  public:
    /**
     * Add a pfc.txt record (HPCC's format: the paused port's node and interface) for
     * every PauseState change of every device of the fabric.
     * \param topo the fabric
     * \param results where the records go (must outlive the run)
     * \param transport the transport of the run (named in each record)
     */
    static void ConnectPfcLog(Ptr<MrcTopology> topo,
                              MrcRunResults* results,
                              const std::string& transport);

    /**
     * Add one MrcLinkRecord per device of every link (both directions) and count the
     * switches' trims, drops, ECN marks and pauses and the hosts' drops and pauses.
     * \param topo the fabric
     * \param results where the link records go
     * \param transport the transport of the run (named in each link record; its
     *        counters in results are added to)
     * \return frames put on a wire by any device (data and ACKs, PFC excluded)
     */
    static uint64_t CollectLinks(Ptr<MrcTopology> topo,
                                 MrcRunResults& results,
                                 const std::string& transport);

    /**
     * Add the requesters' retransmissions, timeouts, NACKs and CNPs and the bytes placed
     * exactly once to tc; return the transport's own counters (MRC's mrc..., UEC's
     * uec...) for summary.json's options.
     * \param transport the transport's table entry
     * \param lanes the queue-pair pairs of the workload's connections (each lane's
     *        nextOffset: the bytes its messages wrote, one range after another)
     * \param evChanges EV health changes seen (MRC)
     * \param tc the transport's counters to add to
     * \return name -> value
     */
    static std::map<std::string, std::string> CollectQueuePairs(
        const MrcTransportInfo& transport,
        const std::vector<MrcConnectionLane>& lanes,
        uint64_t evChanges,
        MrcTransportCounters& tc);

    /// \param d a device \return bytes it sent, every class
    static uint64_t TxBytes(Ptr<MrcNetDevice> d);
    /// \param d a device \return bytes it received, every class
    static uint64_t RxBytes(Ptr<MrcNetDevice> d);
    /// \return the process's peak resident set (kB)
    static uint64_t PeakRssKb();
};

} // namespace ns3

#endif /* MRC_SCENARIO_REPORT_H */
