/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SCENARIO_RUNNER_H
#define MRC_SCENARIO_RUNNER_H

#include "mrc-scenario-config.h"
#include "mrc-scenario-connections.h"
#include "mrc-transport-table.h"

#include "ns3/mrc-event-log.h"
#include "ns3/mrc-queue-pair.h"
#include "ns3/mrc-run-results.h"
#include "ns3/mrc-topology.h"
#include "ns3/mrc-workload.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * MrcScenarioRunner: builds the fabric of one scenario, runs its workload with one
 * transport and collects the output files of design.md section 4.
 */

namespace ns3
{

class MrcFlowStream;

/**
 * \ingroup mrc
 * Builds and runs one scenario and collects its results.
 *
 * Build(): clears ns-3 Names, sets the run number to the seed, applies the transport's
 * fabric defaults (MrcTransportTable), the profile (Config::SetDefault, computed for the
 * host rate and link delay), the --mtu value as the transport's payload size, then the
 * explicit attribute overrides; builds the fabric
 * (MrcTopologyHelper, ECMP seed = seed); installs an RDMA NIC on every host with one
 * port per plane (a RoCE QP sends on the port its flow label selects: plane 0 with one
 * plane); makes the flow list (permutation or incast, split over qpsPerPair) and posts
 * every message as one RDMA Write at its start time on its connection
 * (MrcScenarioConnections: queue-pair pairs opened once per job, source and destination
 * and reused by the messages between them; each with one large region at the receiver,
 * every message writing its own range of it); schedules the failures; connects the traces
 * (completions, QP errors -> qp_error events, PFC pause state -> pfc.txt).
 *
 * Memory: a message that ended keeps only its flow record (and, with SetKeepMessages,
 * its spec); the queue pairs free their per-message state as messages complete.
 *
 * Run(): runs until every message completed (or failed) or simTime, sampling the time
 * series every sampleInterval, then fills the per-link records, the transport counters
 * and the run metadata. Nothing depends on wall-clock time except the host fields.
 */
class MrcScenarioRunner
{
  public:
    /// \param config the settings
    explicit MrcScenarioRunner(const MrcScenarioConfig& config);
    ~MrcScenarioRunner();

    /// Build the simulation (called by Run if needed).
    void Build();
    /// Run it and collect the results (once).
    void Run();

    /**
     * Add a message to the workload, after Build (before or during Run): it goes on its
     * connection and is posted at max(now, f.start). A driver that adds messages during
     * the run must keep one added and not ended, or the run stops when all have ended.
     * \param f the message
     * \return its id (flow id)
     */
    std::size_t AddMessage(const MrcFlowSpec& f);

    /**
     * Put the results and events into shared objects (several transports run one after
     * another into the same files). Call before Build.
     * \param results where flows, links, series and counters go (null: this runner's own)
     * \param log the event log (null: keep this runner's own)
     */
    void SetSharedResults(MrcRunResults* results, Ptr<MrcEventLog> log);

    /**
     * Stream the flow records: a message's record goes to the stream when it ends (the
     * messages still open at the end of the run, incomplete, in Run), and Write takes
     * flows.csv and fct.txt from it; the results keep only the summary's figures
     * (MrcRunResults::AddStreamedFlow), GetResults().GetFlows() stays empty. Call before
     * Build; several runners in turn may share one stream (and one results).
     * \param stream the stream (null: the records stay in the results)
     */
    void SetFlowStream(MrcFlowStream* stream);

    /// \return the results (complete after Run)
    const MrcRunResults& GetResults() const;
    /// \return the event log (events.csv)
    Ptr<MrcEventLog> GetEventLog() const;
    /// \return the fabric (after Build)
    Ptr<MrcTopology> GetTopology() const;
    /**
     * Keep every message's spec for GetMessages (the default). A long run that needs no
     * list saves the memory: without it, a message that ended keeps only its flow record.
     * Call before Build.
     * \param keep keep the specs
     */
    void SetKeepMessages(bool keep);

    /// \return the number of messages added so far (all of them after Run)
    std::size_t GetNMessages() const;
    /// \return the messages, in flow-id order (aborts after SetKeepMessages(false))
    const std::vector<MrcFlowSpec>& GetMessages() const;
    /// \return the requester queue pair of each connection lane, in opening order (with
    ///         --qpsPerConnection=0, one per message); null for a lane of a split run
    ///         between two hosts of other ranks (no queue pair of it is made here)
    const std::vector<Ptr<MrcQueuePair>>& GetRequesters() const;
    /// \return the connections of the workload and their queue-pair lanes
    const MrcScenarioConnections& GetConnections() const;

    /**
     * Write every output file into a folder (created): summary.json, flows.csv,
     * timeseries.csv, links.csv, fct.txt, pfc.txt, events.csv.
     * \param dir the folder
     * \return the file names written
     */
    std::vector<std::string> Write(const std::string& dir) const;

    /// \return frames put on a wire by any device (data, ACKs, PFC excluded), after Run
    uint64_t GetPacketHops() const;
    /// \return simulator events of the run (progress checks excluded), after Run
    uint64_t GetEvents() const;
    /// \return wall-clock seconds of Build
    double GetBuildWallSeconds() const;
    /// \return wall-clock seconds of Simulator::Run
    double GetRunWallSeconds() const;
    /// \return CPU seconds of Simulator::Run
    double GetRunCpuSeconds() const;

    /**
     * MrcScenarioWorkload::Derangement: a random permutation without fixed points,
     * drawn as examples/mrc-bench-reference.cc draws it.
     * \param hosts number of hosts (>= 2)
     * \param seed the seed
     * \return dst[i] for every host i
     */
    static std::vector<uint32_t> Derangement(uint32_t hosts, uint64_t seed);

    /**
     * MrcScenarioWorkload::MakeMessages: the messages of a scenario's pattern, all
     * starting at 0 (a flow file's at their times).
     * \param c the settings
     * \param hosts number of hosts
     * \return the messages, in flow-id order
     */
    static std::vector<MrcFlowSpec> MakeMessages(const MrcScenarioConfig& c, uint32_t hosts);

    /**
     * Whether a run split over ranks builds on each rank only what lives there
     * (MrcTopologyHelper::SetBuildRank with MrcMpi's rank, under mpirun): its own nodes,
     * the links that touch them, the others as data: every run with --ranks above 1. Every
     * failure (--failLink, --flapLink, --failSwitch, --failPlane, --failPort, --grayLink)
     * finds its links through the fabric, whose unbuilt links have a state of their own
     * (MrcTopology::GetLinkState); a gray failure's losses are drawn where its receiving
     * device is built, from the stream slot it has in one process.
     * Losses (--lossRate) and a topology file's link errors are built lean: each device
     * keeps its stream (InstallLosses).
     * \param c the settings
     * \return true for a lean build
     */
    static bool BuildsLean(const MrcScenarioConfig& c);

    /**
     * Install --lossRate (at every host NIC port, an MrcIngressLossModel: every frame but
     * a PFC frame meets one draw; or a RateErrorModel on both ends of every link with
     * --lossAt=links; stream MrcScenarioStreams::LOSS on) and a topology file's per-link
     * error rates (on both ends of the link, streams LINK_ERROR + 2 x link id). A device a
     * lean build did not make keeps its stream number, so every device made draws what it
     * draws in one process.
     * \param c the settings
     * \param topo the fabric
     */
    static void InstallLosses(const MrcScenarioConfig& c, Ptr<MrcTopology> topo);

    /// Data frame bytes of a RoCE Write packet besides its payload (Ethernet 14, IPv6 40,
    /// UDP 8, BTH 12, ICRC 4), without RETH (carried once per message).
    static constexpr uint32_t ROCE_DATA_OVERHEAD = MrcTransportTable::ROCE_DATA_OVERHEAD;
    /// A RoCE ACK frame: Ethernet 14, IPv6 40, UDP 8, BTH 12, AETH 4, ICRC 4.
    static constexpr uint32_t ROCE_ACK_BYTES = MrcTransportTable::ROCE_ACK_BYTES;

  private:
    struct Impl;
    std::unique_ptr<Impl> m_impl; //!< the state
};

} // namespace ns3

#endif /* MRC_SCENARIO_RUNNER_H */
