/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SCENARIO_H
#define MRC_SCENARIO_H

#include "ns3/mrc-command-line.h"
#include "ns3/mrc-event-log.h"
#include "ns3/mrc-failure-injector.h"
#include "ns3/mrc-htsim-input.h"
#include "ns3/mrc-progress-reporter.h"
#include "ns3/mrc-rdma-helper.h"
#include "ns3/mrc-run-results.h"
#include "ns3/mrc-topology-helper.h"
#include "ns3/mrc-workload.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * The scenario program mrc-sim: named scenarios, their options, and the runner that
 * builds a fabric, runs a workload and collects the output files of design.md section 4.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * A scenario's validated settings (what MrcScenarioOptions::ToConfig produces; tests
 * fill it directly).
 */
struct MrcScenarioConfig
{
    std::string scenario{"permutation"}; //!< scenario name (recorded in summary.json)
    /// traffic: permutation, incast, incast-victim, alltoall, allreduce, flows
    std::string pattern{"permutation"};
    MrcTopologyConfig topology;       //!< the fabric
    std::string transport{"roce"};    //!< the transport: "roce", "uec" or "mrc"
    std::string profile{"roce-hpcc"}; //!< parameter profile ("none": attribute defaults)
    /// transports run one after another (--transports; empty: just `transport`)
    std::vector<std::string> transports;
    bool sameFabric{true};        //!< false: RoCE on one plane at planes x the rates (compare)
    bool mtuAuto{true};           //!< --mtu not given: 1000 B for roce, 4096 B for uec, mrc
    std::string evFormat{"srv6"}; //!< MRC EVs: "srv6" (topology paths) or "structured"
    uint32_t evMinPerPlane{256};  //!< srv6: a plane with fewer paths gets replica EVs up to this
    double lossRate{0};           //!< random loss probability (--lossRate)
    std::string lossAt{"path"};   //!< "path" (once per path, host NIC ingress) or "links"
    Time duration{MicroSeconds(500)};      //!< flows: arrival window
    double load{0.5};                      //!< flows: offered load per host
    std::string cdf{"websearch"};          //!< flows: flow-size distribution name
    uint32_t chunks{1};                    //!< allreduce: chunks per segment
    uint32_t maxEvEvents{10000};           //!< ev_state records kept in events.csv (per transport)
    bool tagFabricSeries{false};           //!< label host/queue series with the transport (several)
    uint64_t bytes{1000000};               //!< bytes per sender (split over qpsPerPair)
    uint32_t senders{8};                   //!< incast senders
    uint32_t qpsPerPair{1};                //!< queue pairs (messages) per sender-receiver pair
    std::string failLink;                  //!< links to cut ("a:b,c:d"; empty: none)
    Time failAt{MicroSeconds(100)};        //!< when they are cut
    Time repairAt{0};                      //!< when they are repaired (0: never)
    uint64_t seed{1};                      //!< run seed
    Time simTime{Seconds(1)};              //!< simulated-time limit
    bool pcap{false};                      //!< write one pcap file per port into pcapDir
    std::string pcapDir;                   //!< folder of the pcap files (the output folder)
    Time sampleInterval{MicroSeconds(10)}; //!< time-series sampling period (0: no samples)
    bool progress{true};                   //!< progress lines on stderr
    /// Option values recorded in summary.json (name -> value as given)
    std::map<std::string, std::string> options;
    /// Attribute defaults given explicitly (--ns3::Class::Attribute=value), applied after
    /// the profile so that they override it
    std::vector<std::pair<std::string, std::string>> attributeOverrides;

    // -- input files (--topoFile, --flowFile; MrcScenarioOptions::TryToConfig loads them)
    std::string topoFile; //!< HPCC/ConWeave topology file or htsim .topo ("": topology options)
    std::string flowFile; //!< HPCC/ConWeave flow file or htsim .cm ("": the pattern's flows)
    /// The fabric of topoFile (null: MrcTopologyHelper::Build from `topology`)
    std::shared_ptr<const MrcTopologyGraph> graph;
    /// Per graph link: its packet error rate (HPCC's err column; 0 for htsim)
    std::vector<double> graphLinkError;
    /// Per host index: the topology file's node id (HPCC sip/dip in fct.txt)
    std::vector<uint32_t> graphNodeOfHost;
    /// The messages of flowFile, src/dst as host indices (pattern "file"; a .cm: those
    /// with a start time)
    std::vector<MrcFlowSpec> fileFlows;
    /// flowFile as an htsim connection matrix (null otherwise): its triggers start the
    /// connections without a start time
    std::shared_ptr<const MrcHtsimConnectionMatrix> htsimMatrix;
};

/**
 * \ingroup mrc
 * The options of mrc-sim (design.md section 4), as text so every value is checked
 * and a bad one is named: the topology options of MrcTopologyOptions, and --scenario,
 * --transport, --transports, --profile, --bytes, --senders, --qpsPerPair, --failAt,
 * --failLink, --repairAt, --seed, --simTime, --out, --pcap, --sampleInterval,
 * --benchJson, --list. Current member values are the defaults; a scenario's preset
 * changes them before Register, so --PrintHelp shows the scenario's defaults.
 */
class MrcScenarioOptions
{
  public:
    MrcScenarioOptions();

    /// \param cmd the command line to register every option on
    void Register(MrcCommandLine& cmd);

    /**
     * Check and convert the values.
     * \param config receives the settings (scenario, pattern and options filled too)
     * \return "" or a message naming the offending option and its value
     */
    std::string TryToConfig(MrcScenarioConfig& config) const;

    /// As TryToConfig; prints the message and exits with code 2 on a problem.
    /// \return the settings
    MrcScenarioConfig ToConfig() const;

    /// \return every option (except --out, --benchJson and --list) as name -> value
    std::map<std::string, std::string> ToMap() const;

    MrcTopologyOptions topo;             //!< topology options
    std::string scenario{"permutation"}; //!< --scenario
    std::string pattern{"permutation"};  //!< set by the scenario preset (no option)
    std::string transport{"roce"};       //!< --transport
    std::string transports{""};          //!< --transports (comma-separated, run in turn)
    std::string sameFabric{"1"};         //!< --sameFabric
    std::string evFormat{"srv6"};        //!< --evFormat
    std::string evMinPerPlane{"256"};    //!< --evMinPerPlane
    std::string lossRate{"0"};           //!< --lossRate
    std::string lossAt{"path"};          //!< --lossAt
    std::string duration{"500us"};       //!< --duration (flows)
    std::string load{"0.5"};             //!< --load (flows)
    std::string cdf{"websearch"};        //!< --cdf (flows)
    std::string chunks{"1"};             //!< --chunks (allreduce)
    std::string maxEvEvents{"10000"};    //!< --maxEvEvents
    std::string profile{""};             //!< --profile (empty: the transport's default)
    std::string bytes{"1000000"};        //!< --bytes
    std::string senders{"8"};            //!< --senders
    std::string qpsPerPair{"1"};         //!< --qpsPerPair
    std::string failAt{"100us"};         //!< --failAt
    std::string failLink{""};            //!< --failLink
    std::string repairAt{""};            //!< --repairAt
    std::string seed{"1"};               //!< --seed
    std::string simTime{"1s"};           //!< --simTime
    std::string out{""};                 //!< --out (empty: results/<scenario>/)
    bool pcap{false};                    //!< --pcap
    std::string sampleInterval{"10us"};  //!< --sampleInterval
    std::string topoFile{""};            //!< --topoFile (HPCC/ConWeave topology or htsim .topo)
    std::string flowFile{""};            //!< --flowFile (HPCC/ConWeave flows or htsim .cm)
    std::string benchJson{""};           //!< --benchJson
    bool list{false};                    //!< --list
};

/**
 * \ingroup mrc
 * A named scenario: a one-line description and a preset of option defaults.
 */
struct MrcScenarioInfo
{
    std::string name;                                //!< the name
    std::string description;                         //!< one line
    std::function<void(MrcScenarioOptions&)> preset; //!< sets the option defaults
};

/**
 * \ingroup mrc
 * The registry of scenarios (`./ns3-mrc list`).
 */
class MrcScenarios
{
  public:
    /// \return every scenario, in listing order
    static const std::vector<MrcScenarioInfo>& GetAll();
    /// \param name a name \return the scenario, or null
    static const MrcScenarioInfo* Find(const std::string& name);
    /// \return the names, in listing order
    static std::vector<std::string> GetNames();
    /// \return the transports mrc-sim accepts
    static std::vector<std::string> GetTransports();
    /**
     * \param transport a transport of GetTransports()
     * \return its default profile: roce-hpcc (roce), uec-htsim (uec), mrc (mrc)
     */
    static std::string DefaultProfile(const std::string& transport);
    /// \param os where to print "name  description" lines
    static void PrintList(std::ostream& os);
};

/**
 * \ingroup mrc
 * Builds and runs one scenario and collects its results.
 *
 * Build(): clears ns-3 Names, sets the run number to the seed, applies the profile
 * (Config::SetDefault, computed for the host rate and link delay), the --mtu value as the
 * RoCE payload size, then the explicit attribute overrides; builds the fabric
 * (MrcTopologyHelper, ECMP seed = seed); installs an RDMA NIC on every host with one
 * port per plane (a RoCE QP sends on the port its flow label selects: plane 0 with one
 * plane); makes the flow list (permutation or incast, split over qpsPerPair), and for
 * every message connects a queue-pair pair with a region of the message's size at the
 * receiver and posts one RDMA Write at its start time; schedules the failures; connects
 * the traces (completions, QP errors -> qp_error events, PFC pause state -> pfc.txt).
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
     * Put the results and events into shared objects (several transports run one after
     * another into the same files). Call before Build.
     * \param results where flows, links, series and counters go (null: this runner's own)
     * \param log the event log (null: keep this runner's own)
     */
    void SetSharedResults(MrcRunResults* results, Ptr<MrcEventLog> log);

    /// \return the results (complete after Run)
    const MrcRunResults& GetResults() const;
    /// \return the event log (events.csv)
    Ptr<MrcEventLog> GetEventLog() const;
    /// \return the fabric (after Build)
    Ptr<MrcTopology> GetTopology() const;
    /// \return the messages, in flow-id order
    const std::vector<MrcFlowSpec>& GetMessages() const;
    /// \return the requester queue pair of each message
    const std::vector<Ptr<MrcQueuePair>>& GetRequesters() const;

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
     * A random permutation without fixed points, drawn as the stock ns-3 reference
     * benchmark (examples/mrc-bench-reference.cc) draws it, so both run the same flows:
     * std::mt19937_64 seeded with the seed, Fisher-Yates with rng() % (i + 1), redrawn
     * until no host maps to itself (plain modulo draws: the same on every platform).
     * \param hosts number of hosts (>= 2)
     * \param seed the seed
     * \return dst[i] for every host i
     */
    static std::vector<uint32_t> Derangement(uint32_t hosts, uint64_t seed);

    /**
     * The messages of a scenario: "permutation" (host i writes `bytes` to
     * Derangement(hosts, seed)[i]) or "incast" (the last host receives from `senders`
     * hosts: the first ones of a Fisher-Yates shuffle of the others, as above, in
     * ascending order); every flow split into qpsPerPair messages of nearly equal size
     * (the remainder to the first ones), each flow's parts consecutive. All start at 0.
     * \param c the settings
     * \param hosts number of hosts
     * \return the messages, in flow-id order
     */
    static std::vector<MrcFlowSpec> MakeMessages(const MrcScenarioConfig& c, uint32_t hosts);

    /// Data frame bytes of a RoCE Write packet besides its payload (Ethernet 14, IPv6 40,
    /// UDP 8, BTH 12, ICRC 4), without RETH (carried once per message).
    static constexpr uint32_t ROCE_DATA_OVERHEAD = 78;
    /// A RoCE ACK frame: Ethernet 14, IPv6 40, UDP 8, BTH 12, AETH 4, ICRC 4.
    static constexpr uint32_t ROCE_ACK_BYTES = 82;

  private:
    struct Impl;
    std::unique_ptr<Impl> m_impl; //!< the state
};

/**
 * \ingroup mrc
 * The whole mrc-sim program: the scenario is the first argument if it does not start
 * with '-', or --scenario=NAME (default permutation). Parses the options (exit 2 naming
 * a bad one), runs, prints the summary table on stdout, writes the files into --out
 * (default results/<scenario>/) and, with --benchJson=FILE, the benchmark figures.
 * \param argc argument count
 * \param argv arguments
 * \return the exit code: 0, or 1 when a message did not complete
 */
int MrcSimMain(int argc, char* argv[]);

} // namespace ns3

#endif /* MRC_SCENARIO_H */
