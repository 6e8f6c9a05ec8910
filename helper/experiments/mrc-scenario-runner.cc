/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-scenario-runner.h"

#include "mrc-command-line.h"
#include "mrc-flow-stream.h"
#include "mrc-scenario-connections.h"
#include "mrc-scenario-report.h"
#include "mrc-scenario-series.h"
#include "mrc-scenario-streams.h"
#include "mrc-scenario-workload.h"
#include "mrc-stall-tracker.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/fatal-error.h"
#include "ns3/log.h"
#include "ns3/mrc-canonical-scheduler.h"
#include "ns3/mrc-channel.h"
#include "ns3/mrc-collective.h"
#include "ns3/mrc-dcqcn.h"
#include "ns3/mrc-ev-profile.h"
#include "ns3/mrc-fabric-streams.h"
#include "ns3/mrc-failure-injector.h"
#include "ns3/mrc-hpcc-input.h"
#include "ns3/mrc-link-helper.h"
#include "ns3/mrc-mpi.h"
#include "ns3/mrc-multipath-helper.h"
#include "ns3/mrc-multipath-queue-pair.h"
#include "ns3/mrc-nscc.h"
#include "ns3/mrc-profiles.h"
#include "ns3/mrc-progress-reporter.h"
#include "ns3/mrc-rdma-helper.h"
#include "ns3/mrc-rdma-nic.h"
#include "ns3/mrc-results-writer.h"
#include "ns3/mrc-shared-buffer-mmu.h"
#include "ns3/mrc-switch-node.h"
#include "ns3/mrc-time-records.h"
#include "ns3/mrc-topology-helper.h"
#include "ns3/mrc-uec-path-selector.h"
#include "ns3/mrc-uec-queue-pair.h"
#include "ns3/names.h"
#include "ns3/node-list.h"
#include "ns3/object-factory.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <sys/resource.h>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcScenarioRunner");

namespace
{

double
CpuSeconds()
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

/// \return the current default of an attribute (after Config::SetDefault), serialized
std::string
CurrentDefault(TypeId tid, const std::string& name)
{
    TypeId::AttributeInformation info;
    NS_ABORT_UNLESS(tid.LookupAttributeByName(name, &info));
    return info.initialValue->SerializeToString(info.checker);
}

/**
 * RoCE: every priority group (pg) of a flow file gets its own device class. pg 3 is the
 * RoCE data class already (DSCP 26 -> class 3, MrcRoceQueuePair::DataDscp); another pg p
 * sends its data with DSCP 32 + p, mapped to class p in every device's DscpToClass; when
 * the profile makes class 3 lossless (PfcPriorityMask bit 3), the other pgs' classes are
 * made lossless too (the HPCC simulator pauses every data priority).
 * \param flows the file's flows
 * \return per pg 0..7 its data DSCP (-1: no flow uses it)
 */
std::vector<int>
ConfigurePriorityGroups(const std::vector<MrcFlowSpec>& flows)
{
    std::vector<int> dscp(8, -1);
    uint32_t others = 0; // bit p: pg p != 3 used
    for (const MrcFlowSpec& f : flows)
    {
        if (f.priorityGroup >= 0 && f.priorityGroup < 8)
        {
            const int pg = f.priorityGroup;
            dscp[pg] = pg == 3 ? MrcDscp::ROCE_DATA : 32 + pg;
            others |= pg == 3 ? 0 : 1U << pg;
        }
    }
    if (others == 0)
    {
        return dscp;
    }
    std::string map = CurrentDefault(MrcNetDevice::GetTypeId(), "DscpToClass");
    for (int pg = 0; pg < 8; ++pg)
    {
        if (others & (1U << pg))
        {
            map += "," + std::to_string(32 + pg) + ":" + std::to_string(pg);
        }
    }
    Config::SetDefault("ns3::MrcNetDevice::DscpToClass", StringValue(map));
    const uint32_t mask =
        std::stoul(CurrentDefault(MrcSharedBufferMmu::GetTypeId(), "PfcPriorityMask"));
    if (mask & (1U << 3))
    {
        Config::SetDefault("ns3::MrcSharedBufferMmu::PfcPriorityMask",
                           UintegerValue(mask | others));
    }
    return dscp;
}

} // namespace

// ---------------------------------------------------------------------------
// the runner's state and its build phases

struct MrcScenarioRunner::Impl
{
    using Clock = std::chrono::steady_clock;

    MrcScenarioConfig cfg;
    const MrcTransportInfo* transport{nullptr}; //!< the transport's table entry (Build)
    bool built{false};
    bool ran{false};
    Ptr<MrcTopology> topo;
    Ptr<MrcEventLog> log;
    Ptr<MrcFailureInjector> injector;
    Ptr<MrcProgressReporter> progress;
    MrcRunResults results;
    MrcRunResults* res{&results};        //!< where results go (own, or shared by several runs)
    Ptr<MrcEventLog> sharedLog;          //!< events of several runs (tagged with the transport)
    MrcFlowStream* stream{nullptr};      //!< where ended messages' records go (null: the results)
    std::string ownStepRows;             //!< collective-steps.csv rows (without a stream)
    std::string* stepRows{&ownStepRows}; //!< where the rows go (the stream's, with one)

    MrcScenarioSeries series; //!< the time series (with --sampleInterval > 0)
    EventId sampleEvent;      //!< the next sample

    /// The figures of the run (the benchmark's and summary.json's).
    struct Figures
    {
        uint64_t hops{0};    //!< frames put on a wire
        uint64_t events{0};  //!< simulator events (progress checks excluded)
        double buildWall{0}; //!< wall-clock seconds of Build
        double runWall{0};   //!< wall-clock seconds of Simulator::Run
        double runCpu{0};    //!< CPU seconds of Simulator::Run
    };

    /// How queue pairs are made: the transport's helper and factories, their random streams
    /// (MrcScenarioStreams), and the per-pair path figures of the flow records.
    struct TransportSetup
    {
        MrcRdmaHelper rdma;        //!< NICs and (RoCE, UEC) queue pairs
        ObjectFactory evQpFactory; //!< makes queue pairs with entropy values (MRC)
        Time evBaseRtt;            //!< the fabric's base RTT for the MTU (MRC queue pairs)
        uint32_t evPerQp{0};       //!< EvCount + BackupCount of the EV profile
        /// (src, dst) -> base RTT (ns) and bottleneck (b/s) of its first path
        std::map<std::pair<uint32_t, uint32_t>, std::pair<int64_t, uint64_t>> pathCache;
        std::vector<int> pgDscps; //!< roce: data DSCP per priority group of a flow file (-1: none)
    };

    /// A message posted and not ended yet.
    struct OpenMessage
    {
        MrcFlowSpec f;            //!< the message
        std::size_t lane{0};      //!< the lane it is posted on
        int64_t cmConnection{-1}; //!< its .cm connection (-1: none)
        int64_t traceEntry{-1};   //!< the trace flow entry it is (-1: none)
        MrcFlowRecord rec;        //!< its flow record (with a flow stream; else in the results)
    };

    /// The messages: their connections, the open ones, counts. A message that ended
    /// keeps only its flow record (in the results) and its bit in `ended`.
    struct MessageBook
    {
        MrcScenarioConnections connections;        //!< the queue pairs, per connection
        std::vector<Ptr<MrcQueuePair>> requesters; //!< requester of each lane, opening order
        std::unordered_map<std::size_t, OpenMessage> open; //!< open messages by id
        std::size_t nMsgs{0};                              //!< messages added
        std::size_t nEnded{0};                             //!< messages ended (completed or failed)
        std::vector<bool> ended;                           //!< per message: it ended
        std::size_t firstHandle{0};    //!< results handle of message 0 (the others follow)
        Time firstStart{Time::Max()};  //!< earliest start of any message
        bool keepMessages{true};       //!< keep every message's spec (GetMessages)
        std::vector<MrcFlowSpec> kept; //!< every message, with keepMessages
    };

    /// What starts messages during the run: collectives and htsim triggers.
    struct Drivers
    {
        MrcHtsimTriggers triggers; //!< htsim triggers of a .cm flow file
        uint64_t connsStarted{0};  //!< .cm connections started
        // -- the collectives: the one of --pattern=allreduce|allgather, or a trace's
        //    (--trace, --collective), whose entries start as their dependencies end
        std::vector<MrcCollective> jobs;                  //!< the collectives, as started
        std::vector<std::size_t> entryOfJob;              //!< per collective: its trace entry
        std::vector<uint32_t> waiting;                    //!< per entry: dependencies not ended
        std::vector<int64_t> depsEnd;                     //!< per entry: latest end of one, ns
        std::vector<std::vector<std::size_t>> dependents; //!< per entry: entries after it
    };

    /// MRC EV-state records (events.csv).
    struct EvEvents
    {
        uint64_t evRecorded{0}; //!< ev_state records written
        uint64_t evChanges{0};  //!< EV health changes seen
        uint64_t ccRecorded{0}; //!< cc_cut records written
    };

    /// Per-message stalls (runs with a failure: --failLink or any other failure option).
    struct Stalls
    {
        bool trackStalls{false}; //!< track them
        MrcStallTracker stalls;  //!< the tracker
    };

    /// Message ends in a run with --ranks. Every rank learns of every message's end: the
    /// rank of its source host sends a notice to the other ranks (arriving one lookahead
    /// later), and every rank, that one too, applies the end one lookahead + one time step (1 ns at
    /// the default resolution) after it happened, in the order (end time, node, that node's count)
    /// of MrcCanonicalScheduler, which no split changes. Applying an end releases what it starts
    /// (collective steps, trace entries, htsim triggers) on every rank in the same order, so
    /// message ids, lanes and random streams agree; only the source host's rank posts a message.
    /// When every message has ended, the run ends 2 x lookahead after the last end, on every rank
    /// at the same simulated time.
    struct RankEnd
    {
        /// The kinds of MrcRankNotice the runner sends: values = (message id, end time
        /// step, node, that node's count in MrcCanonicalScheduler).
        enum NoticeKind : uint32_t
        {
            MESSAGE_COMPLETED = 1, //!< the message completed
            MESSAGE_FAILED = 2     //!< the message ended without completing
        };

        Time lookahead;         //!< the delay of the links between T0 groups or pods
        uint32_t context{0};    //!< the context ends are applied in (no node's id)
        std::size_t applied{0}; //!< message ends applied (every rank's)
    };

    Figures fig;       //!< figures
    RankEnd rankEnd;   //!< the end of a run split over ranks
    TransportSetup tr; //!< queue-pair making
    MessageBook book;  //!< messages
    Drivers drv;       //!< collectives and triggers
    EvEvents ev;       //!< EV-state records
    Stalls stall;      //!< stalls

    // -- Build, phase by phase (every random variable gets its stream from its own range
    //    of MrcScenarioStreams, whatever the order)

    /// Seed, the transport's fabric defaults, the profile, MTU, ICRC, priority groups,
    /// then the explicit attribute overrides.
    void ApplyAttributeDefaults();
    /// Record the profile's settings and name in the run info.
    void RecordProfile(const MrcProfileContext& ctx);
    /// Build the fabric (ECMP seeds --seed + switch id); fix the ECN markers' streams
    /// (MrcScenarioStreams::FABRIC).
    void BuildFabric();
    /// Install the NICs and prepare the transport's queue-pair factory.
    void InstallTransport();
    /// Register the per-host time series (with sampling).
    void RegisterHostSeries();
    /// Random loss (--lossRate) and a topology file's link error rates (streams
    /// MrcScenarioStreams::LOSS and LINK_ERROR).
    void InstallLosses();
    /// The messages of the pattern (or the first ones of a collective or .cm file).
    void CreateWorkload();
    /// Check the --failLink links and schedule their failure (and repair).
    void ScheduleFailures();
    /// Schedule the failures of the other failure options (MrcScenarioConfig::failures).
    void ScheduleOtherFailures();
    /// Switch queue series and the first sampling event (with sampling).
    void StartSampling();
    /// One pcap file per device (--pcap).
    void EnablePcap();

    // -- messages

    /// Place a message on its connection (opening a lane if needed), record it, post
    /// its Write at its start time. \return its id
    std::size_t AddMessage(const MrcFlowSpec& f);
    /// Open a lane (a connected queue-pair pair) for a message's connection, with its
    /// completion, error and (with stall tracking) Rx traces.
    MrcRdmaHelper::Connection OpenLane(const MrcFlowSpec& f);
    /// \param stream the lane's first stream (MrcScenarioStreams::MESSAGE + ...)
    /// \return a connected pair with MRC entropy values (EV profiles with fixed streams)
    MrcRdmaHelper::Connection ConnectWithEvs(const MrcFlowSpec& f,
                                             uint64_t regionBytes,
                                             int64_t stream,
                                             bool oneEnd = false,
                                             bool requesterHere = true);
    /// \param stream the message's first stream (MrcScenarioStreams::MESSAGE + ...)
    /// \return a pair connected by MrcRdmaHelper (RoCE DSCP of a priority group, UEC
    ///         entropy selector streams)
    MrcRdmaHelper::Connection ConnectWithHelper(const MrcFlowSpec& f,
                                                uint64_t regionBytes,
                                                int64_t stream,
                                                bool oneEnd = false,
                                                bool requesterHere = true);
    /// Abort if a topology file's path is longer than a uSID carrier holds (SRv6 EVs).
    void CheckSrv6PathLengths(const MrcFlowSpec& f) const;
    /// SRv6 EV candidates of a host pair: the topology's paths, replicated up to evPerQp
    std::vector<MrcEvCandidate> Srv6Candidates(uint32_t src, uint32_t dst) const;
    /// \param h a host \return its NIC's addresses, one per plane (as InstallNics gives them)
    std::vector<Ipv6Address> NicAddresses(uint32_t h) const;
    /// Record the ev_state events of a requester's EV table.
    void TraceEvStates(uint32_t src, Ptr<MrcQueuePair> requester);
    /// --maxCcEvents: record the cuts of a requester whose controller is NSCC (window cuts)
    /// or DCQCN (rate cuts).
    void TraceCcCuts(uint32_t src, Ptr<MrcQueuePair> requester);
    /// One cc_cut record, while the cap allows. \param where host and QP \param detail the text
    void RecordCcCut(const std::string& where, const std::string& detail);
    /// Add message i's flow record (with its ideal FCT) to the results.
    void RecordFlow(std::size_t i, const MrcFlowSpec& f, std::size_t lane);
    /**
     * --ranks: a lane between two hosts of other ranks. This rank never simulates either
     * end, so it makes no queue pair and no memory region; it only takes their numbers on
     * the two NICs, so that the QP numbers and rkeys of later lanes stay those of one
     * process. Each lane draws from its own block of streams, so no stream moves.
     * \param f the lane's first message \return a connection with numbers and no object
     */
    MrcRdmaHelper::Connection OpenShellLane(const MrcFlowSpec& f);
    /// A packet reached the responder of a lane: progress of its open messages.
    void OnLaneRx(std::size_t lane);
    /// \return the base RTT (ns) and bottleneck (b/s) of the first path from src to dst
    std::pair<int64_t, uint64_t> PathFigures(uint32_t src, uint32_t dst, uint32_t overhead);
    /// Completion, error and stall traces of a lane.
    void ConnectTraces(std::size_t lane,
                       const MrcFlowSpec& f,
                       const MrcRdmaHelper::Connection& conn);

    /// Start .cm connection k now (or at its start time).
    void StartConnection(std::size_t k);

    // -- run

    void Sample();
    void OnEvState(const std::string& where,
                   uint32_t evId,
                   uint32_t value,
                   uint32_t plane,
                   MrcEvState from,
                   MrcEvState to,
                   MrcEvReason reason);
    void OnComplete(std::size_t i, const MrcWorkCompletion& wc);
    /// What a message's end starts (collective steps, trace entries, htsim triggers).
    /// \param msg the message \param endedAt when it completed
    void Release(const OpenMessage& msg, Time endedAt);
    /// --ranks: a message of this rank ended now; tell the other ranks, apply it later.
    /// \param i the message \param completed whether it completed
    void NoticeEnd(std::size_t i, bool completed);
    /// --ranks: schedule the application of a message's end (this rank's or a notice).
    /// \param n the end
    void ScheduleEnd(const MrcRankNotice& n);
    /// --ranks: apply a message's end on this rank. \param n the end
    void ApplyEnd(const MrcRankNotice& n);
    /// Stop sampling and progress (this rank's messages have all ended).
    void StopSideEvents();
    /// A completed collective step: its next messages, its completion time.
    void OnCollectiveStep(const MrcFlowSpec& done, Time endedAt);
    /// htsim's send_done and recv_done triggers of .cm connection k.
    void OnConnectionDone(int64_t k);
    /// Start trace entry k (its dependencies have ended) at max(its start, now + gap).
    void StartTraceEntry(std::size_t k);
    /// Trace entry k ended (a flow completed, a collective's last iteration ended).
    void OnTraceEntryDone(std::size_t k, Time endedAt);
    /// A message of a trace collective completed: its next messages.
    void OnTraceCollectiveStep(const MrcFlowSpec& done, Time endedAt);
    /// The rows of collective-steps.csv and the summary options of the trace's collectives.
    void CollectCollectives();

    // -- results

    void Collect();
    /// Scenario, options, the transport's figures (named with prefix pre) and the run's
    /// figures into the run info.
    void FillRunInfo(const std::string& pre, const std::map<std::string, std::string>& figures);
};

MrcScenarioRunner::MrcScenarioRunner(const MrcScenarioConfig& config)
    : m_impl(std::make_unique<Impl>())
{
    m_impl->cfg = config;
    m_impl->log = CreateObject<MrcEventLog>();
}

MrcScenarioRunner::~MrcScenarioRunner() = default;

void
MrcScenarioRunner::Build()
{
    Impl& m = *m_impl;
    if (m.built)
    {
        return;
    }
    m.built = true;
    const auto t0 = Impl::Clock::now();
    MrcScenarioConfig& c = m.cfg;
    if (c.ranks == 0)
    {
        // ns-3 records every Time made before the first run (millions in a large fabric)
        // and deletes the records when Run starts: end that before the build.
        MrcEndTimeRecords();
    }
    m.transport = &MrcTransportTable::Get(c.transport);
    if (c.mtuAuto)
    {
        // --mtu not given: the payload size of the profile when it sets one (roce-hpcc
        // keeps the HPCC simulator's 1000 B), else the transport's default.
        c.topology.mtu = m.transport->defaultMtu;
        if (c.profile != "none" && MrcProfiles::Exists(c.profile))
        {
            for (const MrcProfileSetting& s : MrcProfiles::GetSettings(c.profile))
            {
                if (s.path == m.transport->queuePairType + "::Mtu")
                {
                    c.topology.mtu = static_cast<uint32_t>(std::stoul(s.value));
                }
            }
        }
    }
    c.options["mtu"] = std::to_string(c.topology.mtu);

    m.series.SetResults(m.res);
    m.ApplyAttributeDefaults();
    m.BuildFabric();
    m.InstallTransport();
    m.res->AddTransport(c.transport);
    if (m.stream)
    {
        m.stream->BeginTransport(m.res, c.transport);
        m.stepRows = &m.stream->CollectiveStepRows();
    }
    m.RegisterHostSeries();
    m.InstallLosses();
    // A message's stalls are seen at its responder and closed at its requester. With
    // --ranks (even 1) they are tracked on the responder's rank and closed when the end is
    // applied (ApplyEnd: at most one lookahead and a time step after it), on every split alike.
    m.stall.trackStalls = !c.failLink.empty() || !c.failures.empty();
    m.stall.stalls.SetEventLog(m.log);
    if (c.ranks > 0)
    {
        m.stall.stalls.SetDeferred(m.rankEnd.lookahead + TimeStep(1));
    }
    // Queue pairs per connection: --qpsPerConnection; not given: as many as the messages a
    // flow is split into (qpsPerPair). 0 for the table: a new lane per message.
    m.book.connections.SetQpsPerConnection(
        c.qpsPerConnection == MrcScenarioConfig::QP_PER_MESSAGE
            ? 0
            : (c.qpsPerConnection > 0 ? c.qpsPerConnection : std::max<uint32_t>(c.qpsPerPair, 1)));
    Impl* self = &m;
    m.book.connections.SetOpener(
        MrcScenarioConnections::Opener([self](const MrcFlowSpec& f) { return self->OpenLane(f); }));
    m.CreateWorkload();
    m.ScheduleFailures();
    MrcScenarioReport::ConnectPfcLog(m.topo, m.res, m.cfg.transport);
    m.StartSampling();
    m.EnablePcap();
    m.fig.buildWall = std::chrono::duration<double>(Impl::Clock::now() - t0).count();
}

void
MrcScenarioRunner::Impl::ApplyAttributeDefaults()
{
    const MrcScenarioConfig& c = cfg;
    Names::Clear();
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(c.seed);

    // The transport's fabric settings (an MRC fabric is lossy and trims; RoCE's are the
    // attribute defaults plus its profile), then the profile, --mtu and explicit
    // attribute defaults (so they win).
    for (const auto& [path, value] : transport->fabricDefaults)
    {
        Config::SetDefault(path, StringValue(value));
    }
    MrcProfileContext ctx;
    ctx.hostRate = c.topology.hostRate;
    ctx.linkDelay = c.topology.hostDelay;
    if (c.profile != "none")
    {
        MrcProfiles::Apply(c.profile, ctx);
    }
    RecordProfile(ctx);
    Config::SetDefault(transport->queuePairType + "::Mtu", UintegerValue(c.topology.mtu));
    if (c.pcap)
    {
        // Captures are for Wireshark: real ICRCs (wireshark/mrc.lua checks them) and real
        // UDP checksums (Wireshark calls a zero one over IPv6 illegal).
        Config::SetDefault("ns3::MrcRdmaNic::ComputeIcrc", BooleanValue(true));
        Config::SetDefault("ns3::MrcRdmaNic::ComputeUdpChecksum", BooleanValue(true));
    }
    if (transport->priorityGroups)
    {
        tr.pgDscps = ConfigurePriorityGroups(c.fileFlows);
    }
    for (const auto& o : c.attributeOverrides)
    {
        Config::SetDefault(o.first, StringValue(o.second));
        res->GetInfo().attributeOverrides[o.first] = o.second; // (the last given wins, as here)
    }
}

void
MrcScenarioRunner::Impl::RecordProfile(const MrcProfileContext& ctx)
{
    const std::string& profile = cfg.profile;
    if (profile != "none")
    {
        for (const auto& s : MrcProfiles::GetSettings(profile, ctx))
        {
            res->GetInfo().profileSettings[s.path] = s.value;
        }
    }
    std::string& pr = res->GetInfo().profile;
    if (pr.empty())
    {
        pr = profile;
    }
    else if (("," + pr + ",").find("," + profile + ",") == std::string::npos)
    {
        pr += "," + profile;
    }
}

void
MrcScenarioRunner::Impl::BuildFabric()
{
    MrcTopologyHelper th(cfg.topology);
    // ECMP hash seeds stay --seed + switch id: drawing them from ns-3 streams
    // (MrcFabricStreams::DrawEcmpSeeds) changes which spine each flow takes, and validation
    // case 02a's victim then escapes the incast (see doc: randomness and streams).
    th.SetEcmpSeed(cfg.seed);
    th.SetRanks(std::max<uint32_t>(cfg.ranks, 1));
    // A rank builds only its own nodes and the links that touch them (BuildsLean).
    if (MrcMpi::IsActive() && BuildsLean(cfg))
    {
        th.SetBuildRank(MrcMpi::GetRank());
    }
    if (cfg.graph && !cfg.rankMap.empty())
    {
        std::vector<uint32_t> nodeRank;
        const std::string why =
            cfg.graph->ReadRankMap(cfg.rankMap, std::max<uint32_t>(cfg.ranks, 1), nodeRank);
        NS_ABORT_MSG_IF(!why.empty(), "mrc-sim: --rankMap: " << why); // checked before the run
        th.SetGraphRanks(nodeRank);
    }
    else if (!cfg.rankMap.empty())
    {
        std::vector<uint32_t> groups;
        std::vector<uint32_t> tops;
        const std::string why = MrcTopologyHelper::ReadRankMap(cfg.rankMap,
                                                               cfg.topology,
                                                               std::max<uint32_t>(cfg.ranks, 1),
                                                               groups,
                                                               tops);
        NS_ABORT_MSG_IF(!why.empty(), "mrc-sim: --rankMap: " << why); // checked before the run
        th.SetRankMap(groups, tops);
    }
    topo = cfg.graph ? th.BuildGraph(*cfg.graph) : th.Build();
    // A graph's is the largest switch-switch delay: at least the lookahead of any split of
    // it, and the same for every split (--ranks=1 included).
    rankEnd.lookahead = cfg.graph ? cfg.graph->GetNoticeDelay()
                        : cfg.topology.kind == MrcTopologyKind::FAT_TREE ? cfg.topology.coreDelay
                                                                         : cfg.topology.fabricDelay;
    rankEnd.context = NodeList::GetNNodes(); // one above every node's id
    MrcFabricStreams::AssignStreams(topo, MrcScenarioStreams::FABRIC);
    MrcFabricStreams::AssignTrimmerStreams(topo, MrcScenarioStreams::TRIMMER);
}

void
MrcScenarioRunner::Impl::InstallTransport()
{
    MrcMultipathHelper::InstallNics(tr.rdma, topo); // one port per plane on every host
    const uint32_t mtu = cfg.topology.mtu;
    if (transport->entropyValues)
    {
        tr.evQpFactory.SetTypeId(transport->queuePairType);
        tr.evBaseRtt = topo->GetBaseRtt(mtu);
        // The EV profile's current defaults, read without creating one (a new object's
        // random variable would shift the automatic stream numbers of everything after it).
        tr.evPerQp = std::stoul(CurrentDefault(MrcEvProfile::GetTypeId(), "EvCount")) +
                     std::stoul(CurrentDefault(MrcEvProfile::GetTypeId(), "BackupCount"));
    }
    if (transport->entropySelector)
    {
        // One NIC port per QP: the path selector's (ns3::MrcFixedEntropyPathSelector: the
        // RoCEv2 flow label of the QPN pair modulo the planes); per-packet spraying over
        // ECMP within that plane by the EV in the UDP source port. BaseRtt: the fabric's
        // unloaded RTT for the MTU, unless --ns3::<queue pair>::BaseRtt is given.
        tr.rdma.SetQueuePairType(transport->queuePairType);
        bool rttGiven = false;
        for (const auto& o : cfg.attributeOverrides)
        {
            rttGiven = rttGiven || o.first == transport->queuePairType + "::BaseRtt";
        }
        if (!rttGiven)
        {
            tr.rdma.SetQueuePairAttribute("BaseRtt", TimeValue(topo->GetBaseRtt(mtu)));
        }
    }
}

void
MrcScenarioRunner::Impl::RegisterHostSeries()
{
    if (cfg.sampleInterval > Time(0))
    {
        // split over ranks: each rank samples its own nodes, rank 0 orders them all
        const auto at = std::find(cfg.transports.begin(), cfg.transports.end(), cfg.transport);
        const auto place = at == cfg.transports.end() ? 0 : at - cfg.transports.begin();
        series.SetSplit(cfg.ranks > 0, static_cast<uint32_t>(place));
        series.AddHosts(topo, cfg.tagFabricSeries ? cfg.transport : "");
    }
}

bool
MrcScenarioRunner::BuildsLean(const MrcScenarioConfig& c)
{
    // Every failure finds its links through the fabric (MrcFailureInjector::TrySchedule and
    // SetTopology): a link this rank does not build has a state of its own there
    // (MrcTopology::GetLinkState), failed on every rank at the same time and followed by the
    // route manager; a gray failure's losses are drawn on the rank of its receiving device,
    // from the stream slot it has in one process.
    return c.ranks > 1;
}

void
MrcScenarioRunner::Impl::InstallLosses()
{
    MrcScenarioRunner::InstallLosses(cfg, topo);
}

void
MrcScenarioRunner::InstallLosses(const MrcScenarioConfig& c, Ptr<MrcTopology> topo)
{
    if (c.lossRate > 0)
    {
        NetDeviceContainer devs;
        if (c.lossAt == "path")
        {
            // [P1] 5.2.7: a program in every NIC drops incoming packets. Every packet enters
            // exactly one host NIC port on its way: drop there, once per packet (PFC frames,
            // taken by the MAC, pass).
            for (uint32_t h = 0; h < topo->GetNHosts(); ++h)
            {
                for (uint32_t p = 0; p < topo->GetNPlanes(); ++p)
                {
                    devs.Add(topo->GetNicPort(h, p));
                }
            }
            MrcInstallIngressLoss(devs, c.lossRate, MrcScenarioStreams::LOSS);
        }
        else
        {
            for (uint32_t l = 0; l < topo->GetNLinks(); ++l)
            {
                devs.Add(topo->GetLink(l).devA);
                devs.Add(topo->GetLink(l).devB);
            }
            MrcInstallRandomLoss(devs, c.lossRate, MrcScenarioStreams::LOSS);
        }
    }
    if (!c.graph)
    {
        return;
    }
    // Per-link packet error rates of a topology file (HPCC's err column): a receive error
    // model on both devices of the link, in every plane, as the HPCC simulator installs it.
    const uint32_t nl = static_cast<uint32_t>(c.graph->links.size());
    for (uint32_t p = 0; p < topo->GetNPlanes(); ++p)
    {
        for (uint32_t i = 0; i < nl; ++i)
        {
            if (c.graphLinkError[i] > 0)
            {
                const uint32_t link = p * nl + i;
                const MrcTopologyLink& l = topo->GetLink(link);
                NetDeviceContainer devs;
                devs.Add(l.devA);
                devs.Add(l.devB);
                MrcInstallRandomLoss(devs,
                                     c.graphLinkError[i],
                                     MrcScenarioStreams::LINK_ERROR + 2 * int64_t{link});
            }
        }
    }
}

void
MrcScenarioRunner::Impl::CreateWorkload()
{
    MrcScenarioConfig& c = cfg;
    const uint32_t nHosts = topo->GetNHosts();
    if (c.pattern == "allreduce" || c.pattern == "allgather")
    {
        // One ring all-reduce (or all-gather) over all hosts in index order, started at 0:
        // one channel, --chunks messages per segment, on the collectives' own code (its
        // messages between two hosts share that connection's queue pairs).
        MrcCollectiveSpec s;
        s.op = c.pattern == "allreduce" ? MrcCollectiveOp::ALL_REDUCE : MrcCollectiveOp::ALL_GATHER;
        s.algorithm = MrcCollectiveAlgorithm::RING;
        s.ranks.resize(nHosts);
        for (uint32_t h = 0; h < nHosts; ++h)
        {
            s.ranks[h] = h;
        }
        s.bytes = c.bytes;
        s.chunks = c.chunks;
        NS_ABORT_MSG_IF(c.bytes < uint64_t{nHosts} * c.chunks,
                        c.pattern << ": --bytes=" << c.bytes
                                  << " must be at least hosts x chunks = "
                                  << uint64_t{nHosts} * c.chunks);
        const std::string why = MrcCollective::Check(s);
        NS_ABORT_MSG_IF(!why.empty(), c.pattern << ": " << why);
        drv.jobs.emplace_back(0, s);
        for (const MrcFlowSpec& f : drv.jobs[0].Start(Time(0)))
        {
            AddMessage(f);
        }
    }
    else if (c.trace)
    {
        // A trace: entries without dependencies now (at their start), the others when
        // their dependencies end; then the background flows.
        const auto& tr = *c.trace;
        drv.waiting.assign(tr.size(), 0);
        drv.depsEnd.assign(tr.size(), 0);
        drv.dependents.assign(tr.size(), {});
        std::map<uint32_t, std::size_t> index;
        for (std::size_t k = 0; k < tr.size(); ++k)
        {
            index[tr[k].id] = k;
            drv.waiting[k] = static_cast<uint32_t>(tr[k].after.size());
            for (uint32_t a : tr[k].after)
            {
                drv.dependents[index.at(a)].push_back(k);
            }
        }
        for (std::size_t k = 0; k < tr.size(); ++k)
        {
            if (drv.waiting[k] == 0)
            {
                StartTraceEntry(k);
            }
        }
        if (c.background)
        {
            MrcScenarioConfig bg = c;
            bg.pattern = "flows";
            for (const MrcFlowSpec& f : MrcScenarioWorkload::MakeMessages(bg, nHosts))
            {
                AddMessage(f);
            }
        }
    }
    else if (c.htsimMatrix)
    {
        // An htsim connection matrix: timed connections now, the others when a trigger
        // starts them.
        drv.triggers.Load(*c.htsimMatrix);
        const auto& cm = c.htsimMatrix->connections;
        for (std::size_t k = 0; k < cm.size(); ++k)
        {
            if (cm[k].hasStart)
            {
                StartConnection(k);
            }
        }
    }
    else
    {
        for (const MrcFlowSpec& f : MrcScenarioWorkload::MakeMessages(c, nHosts))
        {
            AddMessage(f);
        }
    }
}

void
MrcScenarioRunner::Impl::ScheduleFailures()
{
    const MrcScenarioConfig& c = cfg;
    if (c.failLink.empty())
    {
        ScheduleOtherFailures();
        return;
    }
    // Each link at its own time (--failLink=A:B@TIME), else failAt.
    const std::vector<std::pair<std::string, Time>> links = c.GetFailLinkTimes();
    for (const auto& link : links)
    {
        const std::string& item = link.first;
        const std::size_t colon = item.find(':');
        const std::string a = item.substr(0, colon);
        const std::string b = item.substr(colon + 1);
        if (!MrcFailureInjector::FindNode(a) || !MrcFailureInjector::FindNode(b) ||
            topo->GetLinksBetween(MrcFailureInjector::FindNode(a), MrcFailureInjector::FindNode(b))
                    .size() != 1)
        {
            MrcCommandLine::Fail("--failLink='" + c.failLink + "': '" + item +
                                 "' does not name two nodes joined by one link "
                                 "(nodes are host<i> and p<plane>-t<tier>-<index>)");
        }
    }
    injector = CreateObject<MrcFailureInjector>();
    injector->SetEventLog(log);
    injector->SetTopology(topo);
    // One --repairAt for all.
    for (const auto& [item, at] : links)
    {
        if (c.repairAt > Time(0))
        {
            injector->FailLinks(item, at, c.repairAt);
        }
        else
        {
            injector->FailLinks(item, at);
        }
    }
    ScheduleOtherFailures();
}

void
MrcScenarioRunner::Impl::ScheduleOtherFailures()
{
    if (cfg.failures.empty())
    {
        return;
    }
    if (!injector)
    {
        injector = CreateObject<MrcFailureInjector>();
        injector->SetEventLog(log);
        injector->SetTopology(topo);
    }
    for (const MrcFailureSpec& s : cfg.failures)
    {
        const std::string e = injector->TrySchedule(s, topo);
        if (!e.empty())
        {
            MrcCommandLine::Fail(e);
        }
    }
    injector->AssignStreams(MrcScenarioStreams::GRAY_FAILURE);
}

void
MrcScenarioRunner::Impl::StartSampling()
{
    const MrcScenarioConfig& c = cfg;
    if (c.sampleInterval <= Time(0))
    {
        return;
    }
    series.AddSwitchQueues(topo, c.tagFabricSeries ? c.transport : "");
    // Flow files often start late (HPCC's at 2 s): sample from the first message on.
    const Time first = book.nMsgs == 0 || c.pattern != "file" ? Time(0) : book.firstStart;
    sampleEvent = Simulator::Schedule(first + c.sampleInterval, &Impl::Sample, this);
}

void
MrcScenarioRunner::Impl::EnablePcap()
{
    if (!cfg.pcap)
    {
        return;
    }
    MrcLinkHelper pcap;
    std::string dir = cfg.pcapDir.empty() ? "." : cfg.pcapDir;
    if (dir.back() != '/')
    {
        dir += "/";
    }
    for (uint32_t l = 0; l < topo->GetNLinks(); ++l)
    {
        for (Ptr<MrcNetDevice> d : {topo->GetLink(l).devA, topo->GetLink(l).devB})
        {
            if (d && MrcMpi::IsLocal(PeekPointer(d->GetNode()))) // each rank its own ports
            {
                pcap.EnablePcap(dir + "mrc", d);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// messages

std::size_t
MrcScenarioRunner::Impl::AddMessage(const MrcFlowSpec& f)
{
    const std::size_t i = book.nMsgs++;
    if (book.keepMessages)
    {
        book.kept.push_back(f);
    }
    if (f.kind == MrcFlowKind::VICTIM)
    {
        cfg.options["victimFlow"] = std::to_string(i);
    }
    book.firstStart = std::min(book.firstStart, f.start);
    const MrcScenarioConnections::Placement at = book.connections.Place(i, f);
    const MrcRdmaHelper::Connection& conn = book.connections.GetLane(at.lane).qps;
    book.open.emplace(i, OpenMessage{f, at.lane, -1, -1, {}});
    RecordFlow(i, f, at.lane);
    if (stall.trackStalls)
    {
        // (split: only the rank of the responder's host tracks it)
        const bool here = cfg.ranks == 0 || MrcMpi::IsLocal(PeekPointer(topo->GetHost(f.dst)));
        stall.stalls.Add(here ? conn.responder : nullptr, f.start);
    }
    if (!MrcMpi::IsLocal(PeekPointer(topo->GetHost(f.src))))
    {
        return i; // another rank posts it (this rank may hold no queue pair of the lane)
    }
    MrcWorkRequest wr;
    wr.id = i;
    wr.remoteAddress = conn.regionBase + at.offset; // (the region may be on another rank)
    wr.rkey = conn.rkey;
    wr.length = static_cast<uint32_t>(f.bytes);
    Ptr<MrcQueuePair> qp = conn.requester;
    const Time delay = f.start > Simulator::Now() ? f.start - Simulator::Now() : Time(0);
    if (cfg.ranks > 0)
    {
        // in the source host's context, whatever context releases it (ApplyEnd)
        Simulator::ScheduleWithContext(topo->GetHost(f.src)->GetId(), delay, [qp, wr]() {
            qp->PostSend(wr);
        });
    }
    else
    {
        Simulator::Schedule(delay, [qp, wr]() { qp->PostSend(wr); });
    }
    return i;
}

MrcRdmaHelper::Connection
MrcScenarioRunner::Impl::OpenLane(const MrcFlowSpec& f)
{
    const std::size_t lane = book.connections.GetLanes().size(); // the one being opened
    const uint64_t regionBytes = MrcScenarioConnections::REGION_BYTES;
    // Each lane draws from its own streams, by its index in opening order.
    const int64_t stream = MrcScenarioStreams::MESSAGE +
                           MrcScenarioStreams::STREAMS_PER_MESSAGE * static_cast<int64_t>(lane);
    // Lane 0 is made whole on every rank that has both hosts' NICs (the report reads
    // attributes of its requester; a lean build leaves other ranks' hosts without NICs).
    const bool srcHere = MrcMpi::IsLocal(PeekPointer(topo->GetHost(f.src)));
    const bool dstHere = MrcMpi::IsLocal(PeekPointer(topo->GetHost(f.dst)));
    const bool partial = lane > 0 || !MrcRdmaNic::GetNic(topo->GetHost(f.src)) ||
                         !MrcRdmaNic::GetNic(topo->GetHost(f.dst));
    if (partial && !srcHere && !dstHere)
    {
        return OpenShellLane(f);
    }
    // A lane with one end here: only that end's queue pair (its numbers, rkey and streams
    // those of a whole lane).
    const bool oneEnd = partial && srcHere != dstHere;
    if (!transport->entropyValues)
    {
        // A transport bound to one NIC port (RoCE, UEC): the lanes take the planes in turn,
        // in the order they are opened (the same on every rank), as NCCL gives its
        // channels the NICs; both ends on the lane's plane (MrcFixedEntropyPathSelector's
        // PortRule Assigned).
        uint32_t ports = UINT32_MAX;
        for (uint32_t h : {f.src, f.dst})
        {
            if (Ptr<MrcRdmaNic> nic = MrcRdmaNic::GetNic(topo->GetHost(h)))
            {
                ports = std::min(ports, nic->GetNPorts());
            }
        }
        tr.rdma.SetPort(static_cast<uint32_t>(lane % ports));
    }
    MrcRdmaHelper::Connection conn =
        transport->entropyValues ? ConnectWithEvs(f, regionBytes, stream, oneEnd, srcHere)
                                 : ConnectWithHelper(f, regionBytes, stream, oneEnd, srcHere);
    if (!oneEnd)
    {
        conn.requesterQpn = conn.requester->GetQpn();
        conn.responderQpn = conn.responder->GetQpn();
        conn.rkey = conn.region->GetRkey();
        conn.regionBase = conn.region->GetBase();
    }
    book.requesters.push_back(conn.requester);
    ConnectTraces(lane, f, conn);
    if (cfg.maxCcEvents > 0 && conn.requester)
    {
        TraceCcCuts(f.src, conn.requester);
    }
    return conn;
}

MrcRdmaHelper::Connection
MrcScenarioRunner::Impl::OpenShellLane(const MrcFlowSpec& f)
{
    // (a host without a NIC here: the helper's counters of its numbers)
    MrcRdmaHelper::Connection conn;
    conn.requesterQpn = tr.rdma.SkipQueuePair(topo->GetHost(f.src));
    conn.responderQpn = tr.rdma.SkipQueuePair(topo->GetHost(f.dst));
    // as ConnectWithEvs and MrcRdmaHelper::Connect
    conn.rkey = tr.rdma.SkipMemoryRegion(topo->GetHost(f.dst));
    book.requesters.push_back(nullptr);
    return conn;
}

MrcRdmaHelper::Connection
MrcScenarioRunner::Impl::ConnectWithEvs(const MrcFlowSpec& f,
                                        uint64_t regionBytes,
                                        int64_t stream,
                                        bool oneEnd,
                                        bool requesterHere)
{
    // As MrcMultipathHelper::Connect, on this message's streams (MrcScenarioStreams::
    // MESSAGE): the EV profiles' streams are fixed before the EV sets are drawn. The
    // streams of a whole lane: requester's profile, responder's profile, requester's queue
    // pair, responder's queue pair; a lane with one end here (oneEnd) makes only that end
    // (requesterHere: the requester), on the streams it has in a whole lane.
    const bool makeRequester = !oneEnd || requesterHere;
    const bool makeResponder = !oneEnd || !requesterHere;
    MrcRdmaHelper::Connection conn;
    const bool srv6 = cfg.evFormat == "srv6";
    if (srv6)
    {
        CheckSrv6PathLengths(f);
    }
    Ptr<MrcRdmaNic> na = MrcRdmaNic::GetNic(topo->GetHost(f.src));
    Ptr<MrcRdmaNic> nb = MrcRdmaNic::GetNic(topo->GetHost(f.dst));
    if (makeRequester)
    {
        conn.requester = na->CreateQueuePair(tr.evQpFactory);
    }
    else
    {
        conn.requesterQpn = tr.rdma.SkipQueuePair(topo->GetHost(f.src));
    }
    if (makeResponder)
    {
        conn.responder = nb->CreateQueuePair(tr.evQpFactory);
    }
    else
    {
        conn.responderQpn = tr.rdma.SkipQueuePair(topo->GetHost(f.dst));
    }
    // each end's profile: its EV format, its candidates (SRv6: the paths from its host)
    for (auto [q, from, to] : {std::make_tuple(conn.requester, f.src, f.dst),
                               std::make_tuple(conn.responder, f.dst, f.src)})
    {
        Ptr<MrcEvProfile> profile = CreateObject<MrcEvProfile>();
        profile->SetFormat(srv6 ? MrcEvProfile::SRV6 : MrcEvProfile::STRUCTURED);
        // (an end not made takes as many streams as one made: the same type)
        const int64_t profileStreams = profile->AssignStreams(stream);
        stream += profileStreams;
        if (!q)
        {
            continue;
        }
        Ptr<MrcMultipathQueuePair> mq = DynamicCast<MrcMultipathQueuePair>(q);
        mq->SetEvProfile(profile);
        mq->SetEvCandidates(srv6 ? Srv6Candidates(from, to) : std::vector<MrcEvCandidate>{});
        mq->SetAttribute("BaseRtt", TimeValue(tr.evBaseRtt));
    }
    if (!oneEnd)
    {
        MrcRdmaHelper::ConnectPair(conn.requester, conn.responder);
        conn.region = nb->RegisterMemoryRegion(0x100000000ULL, regionBytes);
    }
    else if (requesterHere)
    {
        conn.requester->Connect(nb ? nb->GetAddresses() : NicAddresses(f.dst),
                                conn.responderQpn,
                                conn.requester->GetInitialPsn());
        conn.requesterQpn = conn.requester->GetQpn();
        conn.rkey = tr.rdma.SkipMemoryRegion(topo->GetHost(f.dst));
        conn.regionBase = 0x100000000ULL;
    }
    else
    {
        conn.responder->Connect(na ? na->GetAddresses() : NicAddresses(f.src),
                                conn.requesterQpn,
                                conn.responder->GetInitialPsn());
        conn.responderQpn = conn.responder->GetQpn();
        conn.region = nb->RegisterMemoryRegion(0x100000000ULL, regionBytes);
        conn.rkey = conn.region->GetRkey();
        conn.regionBase = conn.region->GetBase();
    }
    // the requester's streams, then the responder's (an end not made: as many as the other)
    Ptr<MrcMultipathQueuePair> mreq = DynamicCast<MrcMultipathQueuePair>(conn.requester);
    Ptr<MrcMultipathQueuePair> mresp = DynamicCast<MrcMultipathQueuePair>(conn.responder);
    const int64_t qpStreams = (mreq ? mreq : mresp)->AssignStreams(stream);
    if (mresp)
    {
        mresp->AssignStreams(stream + qpStreams);
    }
    if (cfg.maxEvEvents > 0 && conn.requester)
    {
        TraceEvStates(f.src, conn.requester);
    }
    return conn;
}

void
MrcScenarioRunner::Impl::CheckSrv6PathLengths(const MrcFlowSpec& f) const
{
    if (topo->GetKind() != MrcTopologyKind::GRAPH)
    {
        return;
    }
    // A topology file may have paths longer than a uSID carrier holds.
    for (const MrcPath& p : topo->GetPaths(f.src, f.dst, 0))
    {
        NS_ABORT_MSG_IF(p.usids.size() > MrcUsidCarrier::MAX_USIDS,
                        "--evFormat=srv6: the path from host "
                            << f.src << " to host " << f.dst << " crosses " << p.switches.size()
                            << " switches; a uSID carrier holds " << MrcUsidCarrier::MAX_USIDS - 1
                            << " switches and the host downlink (allowed for this "
                               "topology: --evFormat=structured, MRC over ECMP)");
    }
}

void
MrcScenarioRunner::Impl::TraceEvStates(uint32_t src, Ptr<MrcQueuePair> requester)
{
    const std::string where =
        "host" + std::to_string(src) + ":qp" + std::to_string(requester->GetQpn());
    Impl* self = this;
    DynamicCast<MrcMultipathQueuePair>(requester)->GetEvTable()->TraceConnectWithoutContext(
        "EvState",
        Callback<void, uint32_t, uint32_t, uint32_t, MrcEvState, MrcEvState, MrcEvReason>(
            [self, where](uint32_t id,
                          uint32_t value,
                          uint32_t plane,
                          MrcEvState from,
                          MrcEvState to,
                          MrcEvReason reason) {
                self->OnEvState(where, id, value, plane, from, to, reason);
            }));
}

void
MrcScenarioRunner::Impl::RecordCcCut(const std::string& where, const std::string& detail)
{
    if (ev.ccRecorded >= cfg.maxCcEvents)
    {
        return;
    }
    ++ev.ccRecorded;
    log->RecordNow(MrcEventKind::CC_CUT, where, detail);
}

void
MrcScenarioRunner::Impl::TraceCcCuts(uint32_t src, Ptr<MrcQueuePair> requester)
{
    const std::string where =
        "host" + std::to_string(src) + ":qp" + std::to_string(requester->GetQpn());
    Impl* self = this;
    if (Ptr<MrcNscc> nscc = DynamicCast<MrcNscc>(requester->GetCongestionOps()))
    {
        nscc->TraceConnectWithoutContext(
            "WindowCut",
            Callback<void, MrcNsccCut, uint64_t, uint64_t>(
                [self, where](MrcNsccCut cause, uint64_t before, uint64_t after) {
                    if (self->ev.ccRecorded < self->cfg.maxCcEvents)
                    {
                        std::ostringstream d;
                        d << MrcNsccCutName(cause) << " cwnd " << before << "->" << after;
                        self->RecordCcCut(where, d.str());
                    }
                }));
    }
    else if (Ptr<MrcDcqcn> dcqcn = DynamicCast<MrcDcqcn>(requester->GetCongestionOps()))
    {
        dcqcn->TraceConnectWithoutContext(
            "RateCut",
            Callback<void, MrcDcqcnCut, DataRate, DataRate>(
                [self, where](MrcDcqcnCut cause, DataRate before, DataRate after) {
                    if (self->ev.ccRecorded < self->cfg.maxCcEvents)
                    {
                        std::ostringstream d;
                        d << MrcDcqcnCutName(cause) << " rate " << before.GetBitRate() << "->"
                          << after.GetBitRate();
                        self->RecordCcCut(where, d.str());
                    }
                }));
    }
    // (other controllers have no cut causes to report)
}

MrcRdmaHelper::Connection
MrcScenarioRunner::Impl::ConnectWithHelper(const MrcFlowSpec& f,
                                           uint64_t regionBytes,
                                           int64_t stream,
                                           bool oneEnd,
                                           bool requesterHere)
{
    MrcRdmaHelper::Connection conn =
        oneEnd ? tr.rdma.ConnectOneEnd(topo->GetHost(f.src),
                                       topo->GetHost(f.dst),
                                       requesterHere,
                                       NicAddresses(requesterHere ? f.dst : f.src),
                                       regionBytes)
               : tr.rdma.Connect(topo->GetHost(f.src), topo->GetHost(f.dst), regionBytes);
    if (conn.requester && transport->priorityGroups && f.priorityGroup >= 0 &&
        f.priorityGroup < static_cast<int>(tr.pgDscps.size()) && tr.pgDscps[f.priorityGroup] >= 0)
    {
        conn.requester->SetAttribute("DataDscp", UintegerValue(tr.pgDscps[f.priorityGroup]));
    }
    if (transport->entropySelector)
    {
        // Fixed streams for the per-packet EV choice (as the MRC EV profiles).
        if (conn.requester && conn.responder)
        {
            for (Ptr<MrcQueuePair> q : {conn.requester, conn.responder})
            {
                stream +=
                    DynamicCast<MrcUecQueuePair>(q)->GetEntropySelector()->AssignStreams(stream);
            }
        }
        else if (conn.requester)
        {
            DynamicCast<MrcUecQueuePair>(conn.requester)
                ->GetEntropySelector()
                ->AssignStreams(stream);
        }
        else
        {
            // after the requester's streams: its selector, of the same type, takes as many
            Ptr<MrcPathSelector> sel =
                DynamicCast<MrcUecQueuePair>(conn.responder)->GetEntropySelector();
            sel->AssignStreams(stream + sel->AssignStreams(stream));
        }
    }
    return conn;
}

std::pair<int64_t, uint64_t>
MrcScenarioRunner::Impl::PathFigures(uint32_t src, uint32_t dst, uint32_t overhead)
{
    auto key = std::make_pair(src, dst);
    auto it = tr.pathCache.find(key);
    if (it != tr.pathCache.end())
    {
        return it->second;
    }
    const std::vector<MrcPath> paths = topo->GetPaths(src, dst, 0);
    NS_ABORT_MSG_IF(paths.empty(), "no path from host " << src << " to " << dst);
    const int64_t rtt =
        topo->GetPathRtt(paths[0], cfg.topology.mtu, overhead, transport->ackFrameBytes)
            .GetNanoSeconds();
    uint64_t bottleneck = UINT64_MAX;
    for (uint32_t l : paths[0].links)
    {
        const MrcTopologyLink& link = topo->GetLink(l);
        const DataRate rate = link.GetRate(); // (a device here, or another rank's figure)
        bottleneck = std::min(bottleneck, rate.GetBitRate());
    }
    if (transport->usesAllPlanes)
    {
        bottleneck *= topo->GetNPlanes(); // sprays over every plane
    }
    return tr.pathCache.emplace(key, std::make_pair(rtt, bottleneck)).first->second;
}

void
MrcScenarioRunner::Impl::RecordFlow(std::size_t i, const MrcFlowSpec& f, std::size_t lane)
{
    const MrcRdmaHelper::Connection& conn = book.connections.GetLane(lane).qps;
    const MrcScenarioConfig& c = cfg;
    const uint32_t overhead =
        transport->dataFrameOverhead + (c.evFormat == "srv6" ? transport->srv6EncapBytes : 0);
    const auto [rtt, bottleneck] = PathFigures(f.src, f.dst, overhead);
    MrcFlowRecord rec;
    rec.transport = c.transport;
    rec.flowId = i;
    rec.src = f.src;
    rec.dst = f.dst;
    rec.sport = static_cast<uint16_t>(conn.requesterQpn);
    rec.dport = static_cast<uint16_t>(conn.responderQpn);
    if (f.dstPort >= 0)
    {
        rec.dport = static_cast<uint16_t>(f.dstPort); // the flow file's dport, as HPCC writes it
    }
    if (!c.graphNodeOfHost.empty())
    {
        // fct.txt addresses from the topology file's node ids (HPCC's 11.x.y.1 scheme)
        rec.sip = MrcHpccAddress(c.graphNodeOfHost.at(f.src));
        rec.dip = MrcHpccAddress(c.graphNodeOfHost.at(f.dst));
    }
    rec.bytes = f.bytes;
    rec.startNs = f.start.GetNanoSeconds();
    rec.idealFctNs = MrcIdealFctNs(f.bytes,
                                   c.topology.mtu,
                                   overhead + transport->idealFctExtraBytes,
                                   rtt,
                                   bottleneck);
    if (stream)
    {
        book.open.at(i).rec = std::move(rec); // written out when the message ends
    }
    else
    {
        const std::size_t handle = res->AddFlow(rec);
        if (i == 0)
        {
            book.firstHandle = handle;
        }
        NS_ABORT_MSG_IF(handle != book.firstHandle + i,
                        "flow records of a run must be consecutive");
    }
    book.ended.push_back(false);
    if (c.sampleInterval > Time(0))
    {
        series.AddFlow(c.transport, conn.requester);
    }
}

void
MrcScenarioRunner::Impl::OnLaneRx(std::size_t lane)
{
    for (std::size_t i : book.connections.GetLane(lane).open)
    {
        // (split: the message stays open until its end is applied; the tracker keeps its Rx
        // until then and takes those before the end)
        if (cfg.ranks > 0 || !book.ended[i])
        {
            stall.stalls.OnRx(i);
        }
    }
}

void
MrcScenarioRunner::Impl::ConnectTraces(std::size_t lane,
                                       const MrcFlowSpec& f,
                                       const MrcRdmaHelper::Connection& conn)
{
    Impl* self = this;
    if (stall.trackStalls && conn.responder) // (the responder's rank)
    {
        conn.responder->TraceConnectWithoutContext(
            "Rx",
            Callback<void, Ptr<const Packet>>(
                [self, lane](Ptr<const Packet>) { self->OnLaneRx(lane); }));
    }
    if (conn.requester) // (a lane with one end here: null at the other)
    {
        conn.requester->SetCompletionCallback(Callback<void, const MrcWorkCompletion&>(
            [self](const MrcWorkCompletion& wc) { self->OnComplete(wc.wrId, wc); }));
    }
    auto onError = [self](const std::string& where) {
        return Callback<void, uint32_t, MrcQpError, const std::string&>(
            [self, where](uint32_t qpn, MrcQpError e, const std::string& reason) {
                self->log->RecordNow(MrcEventKind::QP_ERROR,
                                     where + ":qp" + std::to_string(qpn),
                                     MrcQpErrorName(e) + ": " + reason);
            });
    };
    if (conn.requester)
    {
        conn.requester->TraceConnectWithoutContext("Error",
                                                   onError("host" + std::to_string(f.src)));
    }
    if (conn.responder)
    {
        conn.responder->TraceConnectWithoutContext("Error",
                                                   onError("host" + std::to_string(f.dst)));
    }
}

std::vector<Ipv6Address>
MrcScenarioRunner::Impl::NicAddresses(uint32_t h) const
{
    std::vector<Ipv6Address> out;
    for (uint32_t p = 0; p < topo->GetNPlanes(); ++p)
    {
        out.push_back(topo->GetAddress(h, p));
    }
    return out;
}

std::vector<MrcEvCandidate>
MrcScenarioRunner::Impl::Srv6Candidates(uint32_t src, uint32_t dst) const
{
    std::vector<MrcEvCandidate> paths = MrcMultipathHelper::GetSrv6Candidates(topo, src, dst);
    const uint32_t planes = topo->GetNPlanes();
    const uint32_t want =
        std::min((tr.evPerQp + planes - 1) / planes, std::max<uint32_t>(cfg.evMinPerPlane, 1));
    std::vector<uint32_t> perPlane(planes, 0);
    for (const auto& c : paths)
    {
        ++perPlane[c.plane];
    }
    // Our choice: a plane with fewer paths than its share of the EVs (EvCount + BackupCount)
    // gives each path several EVs, told apart by a replica number in bits 16-23 of the EV
    // value (the SRv6 EV's plane and uplink bits stay; switches route by the carrier).
    std::vector<MrcEvCandidate> out = paths;
    for (uint32_t r = 1; r < 256; ++r)
    {
        bool added = false;
        for (const auto& c : paths)
        {
            if (perPlane[c.plane] * r < want)
            {
                MrcEvCandidate copy = c;
                copy.value |= r << 16;
                out.push_back(copy);
                added = true;
            }
        }
        if (!added)
        {
            break;
        }
    }
    return out;
}

void
MrcScenarioRunner::Impl::StartConnection(std::size_t k)
{
    const MrcHtsimConnection& conn = cfg.htsimMatrix->connections[k];
    MrcFlowSpec f;
    f.src = conn.src;
    f.dst = conn.dst;
    f.bytes = conn.size;
    // htsim truncates a start time to whole microseconds; a triggered connection starts now
    f.start = conn.hasStart ? MicroSeconds(static_cast<int64_t>(std::floor(conn.startUs)))
                            : Simulator::Now();
    book.open.at(AddMessage(f)).cmConnection = static_cast<int64_t>(k);
    ++drv.connsStarted;
    cfg.options["htsimConnectionsStarted"] = std::to_string(drv.connsStarted);
}

// ---------------------------------------------------------------------------
// run

void
MrcScenarioRunner::Impl::OnEvState(const std::string& where,
                                   uint32_t evId,
                                   uint32_t value,
                                   uint32_t plane,
                                   MrcEvState from,
                                   MrcEvState to,
                                   MrcEvReason reason)
{
    // Congestion skips (ECN echoes and their expiry) happen all the time under load: only
    // health changes are recorded, at most maxEvEvents of them.
    if (reason == MrcEvReason::ECN_ECHO || reason == MrcEvReason::SKIP_EXPIRED ||
        reason == MrcEvReason::ALWAYS_SKIP)
    {
        return;
    }
    ++ev.evChanges;
    if (ev.evRecorded >= cfg.maxEvEvents)
    {
        return;
    }
    ++ev.evRecorded;
    // snprintf, not an ostringstream: a stream costs thousands of instructions per record,
    // and a lossy fabric records thousands of these (the text is the same)
    char d[160];
    std::snprintf(d,
                  sizeof(d),
                  "ev %u value 0x%x plane %u %s->%s %s",
                  evId,
                  value,
                  plane,
                  MrcEvStateName(from),
                  MrcEvStateName(to),
                  MrcEvReasonName(reason));
    log->RecordNow(MrcEventKind::EV_STATE, where, d);
}

void
MrcScenarioRunner::Impl::OnComplete(std::size_t i, const MrcWorkCompletion& wc)
{
    if (book.ended[i])
    {
        return;
    }
    book.ended[i] = true;
    ++book.nEnded;
    auto it = book.open.find(i);
    const bool split = cfg.ranks > 0;
    // With --ranks, the message stays open until its end is applied (ApplyEnd)
    const OpenMessage msg = split ? it->second : std::move(it->second);
    if (!split)
    {
        book.open.erase(it);
        book.connections.Close(msg.lane, i);
    }
    if (stall.trackStalls && wc.status == MrcWcStatus::SUCCESS && !split)
    {
        stall.stalls.Close(i, -1); // a failed message stays stalled: Collect closes it at the end
    }
    if (stream)
    {
        MrcFlowRecord rec = msg.rec;
        if (wc.status == MrcWcStatus::SUCCESS)
        {
            rec.endNs = wc.end.GetNanoSeconds();
        }
        stream->Add(rec); // a failed message's record stays incomplete
    }
    if (wc.status == MrcWcStatus::SUCCESS && !stream)
    {
        res->CompleteFlow(book.firstHandle + i, wc.end.GetNanoSeconds());
    }
    if (split)
    {
        NoticeEnd(i, wc.status == MrcWcStatus::SUCCESS);
        return;
    }
    if (wc.status == MrcWcStatus::SUCCESS)
    {
        Release(msg, Simulator::Now());
    }
    if (book.nEnded == book.nMsgs)
    {
        Simulator::Stop();
        StopSideEvents();
    }
}

void
MrcScenarioRunner::Impl::Release(const OpenMessage& msg, Time endedAt)
{
    if (msg.f.kind == MrcFlowKind::COLLECTIVE)
    {
        if (cfg.trace)
        {
            OnTraceCollectiveStep(msg.f, endedAt);
        }
        else
        {
            OnCollectiveStep(msg.f, endedAt);
        }
    }
    if (msg.traceEntry >= 0)
    {
        OnTraceEntryDone(static_cast<std::size_t>(msg.traceEntry), endedAt);
    }
    if (cfg.htsimMatrix && msg.cmConnection >= 0)
    {
        OnConnectionDone(msg.cmConnection);
    }
}

void
MrcScenarioRunner::Impl::StopSideEvents()
{
    sampleEvent.Cancel();
    if (progress)
    {
        progress->Stop();
    }
}

void
MrcScenarioRunner::Impl::NoticeEnd(std::size_t i, bool completed)
{
    const Time now = Simulator::Now();
    const uint32_t node = Simulator::GetContext();
    MrcRankNotice n;
    n.kind = completed ? RankEnd::MESSAGE_COMPLETED : RankEnd::MESSAGE_FAILED;
    n.values[0] = static_cast<int64_t>(i);
    n.values[1] = now.GetTimeStep();
    n.values[2] = node;
    n.values[3] = MrcCanonicalScheduler::IsActive()
                      ? static_cast<int64_t>(MrcCanonicalScheduler::TakeSequence(node))
                      : 0;
    if (MrcMpi::IsActive())
    {
        // Sent from an event of its own that schedules nothing: ns-3's null-message engine
        // promises the other ranks, with each message, nothing before (its next event +
        // lookahead); an event that sent and then scheduled an earlier one could break that.
        const Time rx = now + rankEnd.lookahead;
        Simulator::ScheduleNow([n, rx]() { MrcMpi::SendNotice(n, rx); });
    }
    ScheduleEnd(n);
}

void
MrcScenarioRunner::Impl::ScheduleEnd(const MrcRankNotice& n)
{
    NS_ABORT_MSG_IF(n.kind != RankEnd::MESSAGE_COMPLETED && n.kind != RankEnd::MESSAGE_FAILED,
                    "mrc-sim: a notice of unknown kind " << n.kind << " from another rank");
    // One time step after the notice's arrival (one lookahead), so that on the arrival rank
    // no event of that time has run before it that runs after it in one process.
    const Time at = TimeStep(n.values[1]) + rankEnd.lookahead + TimeStep(1);
    if (MrcCanonicalScheduler::IsActive())
    {
        MrcCanonicalScheduler::SetNextInsertion(n.values[1],
                                                static_cast<uint32_t>(n.values[2]),
                                                static_cast<uint64_t>(n.values[3]));
    }
    Simulator::ScheduleWithContext(rankEnd.context,
                                   at - Simulator::Now(),
                                   &Impl::ApplyEnd,
                                   this,
                                   n);
}

void
MrcScenarioRunner::Impl::ApplyEnd(const MrcRankNotice& n)
{
    const std::size_t i = static_cast<std::size_t>(n.values[0]);
    const Time endedAt = TimeStep(n.values[1]);
    auto it = book.open.find(i);
    NS_ABORT_MSG_IF(it == book.open.end(), "mrc-sim: the end of message " << i << " came twice");
    const OpenMessage msg = std::move(it->second);
    book.open.erase(it);
    book.connections.Close(msg.lane, i);
    if (stall.trackStalls)
    {
        stall.stalls.End(i, endedAt, n.kind == RankEnd::MESSAGE_COMPLETED);
    }
    if (n.kind == RankEnd::MESSAGE_COMPLETED)
    {
        Release(msg, endedAt);
    }
    if (++rankEnd.applied == book.nMsgs)
    {
        // Every notice of an end arrives one lookahead after it: the run's end is later
        // than any of them, and the same on every rank.
        StopSideEvents();
        const Time end = endedAt + 2 * rankEnd.lookahead;
        Simulator::Stop(end > Simulator::Now() ? end - Simulator::Now() : Time(0));
    }
}

void
MrcScenarioRunner::Impl::OnCollectiveStep(const MrcFlowSpec& done, Time endedAt)
{
    MrcCollective& rc = drv.jobs.at(done.collective);
    for (const MrcFlowSpec& f : rc.OnFlowComplete(done, endedAt, Simulator::Now()))
    {
        AddMessage(f);
    }
    if (rc.IsComplete())
    {
        cfg.options[cfg.pattern + "CompletionNs"] =
            std::to_string(rc.GetDuration().GetNanoSeconds());
    }
}

void
MrcScenarioRunner::Impl::StartTraceEntry(std::size_t k)
{
    const MrcTraceEntry& e = cfg.trace->at(k);
    Time at = e.after.empty() ? Time(0) : NanoSeconds(drv.depsEnd[k]) + e.gap;
    at = std::max({at, e.start, Simulator::Now()});
    if (!e.collective)
    {
        MrcFlowSpec f;
        f.src = e.src;
        f.dst = e.dst;
        f.bytes = e.bytes;
        f.start = at;
        book.open.at(AddMessage(f)).traceEntry = static_cast<int64_t>(k);
        return;
    }
    const uint32_t id = static_cast<uint32_t>(drv.jobs.size());
    drv.jobs.emplace_back(id, e.spec);
    drv.entryOfJob.push_back(k);
    for (const MrcFlowSpec& f : drv.jobs.back().Start(at))
    {
        AddMessage(f);
    }
}

void
MrcScenarioRunner::Impl::OnTraceCollectiveStep(const MrcFlowSpec& done, Time endedAt)
{
    MrcCollective& job = drv.jobs.at(done.collective);
    for (const MrcFlowSpec& f : job.OnFlowComplete(done, endedAt, Simulator::Now()))
    {
        AddMessage(f);
    }
    if (job.IsComplete())
    {
        OnTraceEntryDone(drv.entryOfJob[done.collective], endedAt);
    }
}

void
MrcScenarioRunner::Impl::OnTraceEntryDone(std::size_t k, Time endedAt)
{
    for (std::size_t d : drv.dependents[k])
    {
        drv.depsEnd[d] = std::max(drv.depsEnd[d], endedAt.GetNanoSeconds());
        if (--drv.waiting[d] == 0)
        {
            StartTraceEntry(d);
        }
    }
}

void
MrcScenarioRunner::Impl::CollectCollectives()
{
    const std::string pre = cfg.transports.size() > 1 ? cfg.transport + "." : "";
    MrcRunInfo& info = res->GetInfo();
    std::ostringstream rows;
    for (const MrcCollective& job : drv.jobs)
    {
        const MrcTraceEntry& e = cfg.trace->at(drv.entryOfJob[job.GetId()]);
        const std::string name = "collective" + std::to_string(e.id);
        const MrcCollectiveSpec& s = job.GetSpec();
        if (job.IsComplete())
        {
            info.options[pre + name + "CompletionNs"] =
                std::to_string(job.GetDuration().GetNanoSeconds());
        }
        std::string its;
        for (const auto& [b, en] : job.GetIterations())
        {
            its += (its.empty() ? "" : ",") + (en >= 0 ? std::to_string(en - b) : "-");
        }
        info.options[pre + name + "IterationNs"] = its;
        info.options[pre + name] =
            MrcCollectiveOpName(s.op) + " " + MrcCollectiveAlgorithmName(s.algorithm) +
            " ranks=" + std::to_string(s.ranks.size()) + " bytes=" + std::to_string(s.bytes) +
            " job=" + std::to_string(s.job);
        for (const MrcCollectiveStepRecord& r : job.GetSteps())
        {
            rows << cfg.transport << ',' << e.id << ',' << s.job << ',' << MrcCollectiveOpName(s.op)
                 << ',' << MrcCollectiveAlgorithmName(s.algorithm) << ',' << r.iteration << ','
                 << r.step << ','
                 << (r.startNs == INT64_MAX ? std::string() : std::to_string(r.startNs)) << ','
                 << (r.endNs < 0 ? std::string() : std::to_string(r.endNs)) << ','
                 << (r.endNs < 0 || r.startNs == INT64_MAX ? std::string()
                                                           : std::to_string(r.endNs - r.startNs))
                 << ',' << r.bytes << ',' << r.messages << '\n';
        }
    }
    *stepRows += rows.str();
}

void
MrcScenarioRunner::Impl::OnConnectionDone(int64_t kc)
{
    // htsim's send_done and recv_done triggers, both at the sender's completion
    const MrcHtsimConnection& k = cfg.htsimMatrix->connections[kc];
    for (uint32_t t : {k.sendDoneTrigger, k.recvDoneTrigger})
    {
        if (t != 0)
        {
            for (std::size_t next : drv.triggers.Activate(t))
            {
                StartConnection(next);
            }
        }
    }
}

void
MrcScenarioRunner::Impl::Sample()
{
    series.Sample(cfg.sampleInterval, book.ended);
    // (--ranks: every rank's ends, as they are applied; the same on every rank)
    const std::size_t ended = cfg.ranks > 0 ? rankEnd.applied : book.nEnded;
    if (ended < book.nMsgs && Simulator::Now() + cfg.sampleInterval < cfg.simTime)
    {
        sampleEvent = Simulator::Schedule(cfg.sampleInterval, &Impl::Sample, this);
    }
}

void
MrcScenarioRunner::Run()
{
    Build();
    Impl& m = *m_impl;
    NS_ABORT_MSG_IF(m.ran, "MrcScenarioRunner::Run called twice");
    m.ran = true;
    if (m.cfg.progress)
    {
        m.progress = CreateObject<MrcProgressReporter>();
        const Impl* pm = &m;
        m.progress->SetMessageCounters(
            Callback<uint64_t>([pm]() -> uint64_t { return pm->book.nEnded; }),
            Callback<uint64_t>([pm]() -> uint64_t { return pm->book.nMsgs; }));
        m.progress->Start(m.cfg.simTime);
    }
    Simulator::Stop(m.cfg.simTime);
    if (m.cfg.ranks > 0)
    {
        Impl* self = &m;
        MrcMpi::SetNoticeCallback(
            Callback<void, MrcRankNotice>([self](MrcRankNotice n) { self->ScheduleEnd(n); }));
    }
    const double cpu0 = CpuSeconds();
    const auto t0 = Impl::Clock::now();
    if (m.book.nMsgs == 0)
    {
        Simulator::Stop();
    }
    Simulator::Run();
    m.fig.runWall = std::chrono::duration<double>(Impl::Clock::now() - t0).count();
    m.fig.runCpu = CpuSeconds() - cpu0;
    if (m.progress)
    {
        m.progress->Stop();
    }
    m.fig.events = Simulator::GetEventCount() - (m.progress ? m.progress->GetChecks() : 0);
    m.Collect();
    if (m.sharedLog)
    {
        // Several transports: each record names the run it belongs to.
        for (const MrcEventRecord& e : m.log->GetRecords())
        {
            m.sharedLog->Record(e.time, e.kind, e.where, e.detail, m.cfg.transport);
        }
        m.log = m.sharedLog;
    }
}

// ---------------------------------------------------------------------------
// results

void
MrcScenarioRunner::Impl::Collect()
{
    if (stall.trackStalls)
    {
        stall.stalls.CloseOpen();
    }
    if (stream)
    {
        // the messages still open: incomplete rows (in a split run, the ones this rank posted)
        for (const auto& [id, msg] : book.open)
        {
            // (with --ranks, an end not yet applied is open but its record was written)
            if (!book.ended[id] && MrcMpi::IsLocal(PeekPointer(topo->GetHost(msg.f.src))))
            {
                stream->Add(msg.rec);
            }
        }
        stream->EndTransport();
    }
    MrcTransportCounters& tc = res->GetCounters(cfg.transport);
    // Several transports in one results: per-transport figures under "<transport>." names.
    const std::string pre = cfg.transports.size() > 1 ? cfg.transport + "." : "";
    const std::map<std::string, std::string> figures =
        MrcScenarioReport::CollectQueuePairs(*transport,
                                             book.connections.GetLanes(),
                                             ev.evChanges,
                                             tc);
    fig.hops = MrcScenarioReport::CollectLinks(topo, *res, cfg.transport);
    tc.simulatedTimeNs = Simulator::Now().GetNanoSeconds();
    tc.eventsExecuted = fig.events;
    FillRunInfo(pre, figures);
    if (cfg.trace)
    {
        CollectCollectives();
    }
}

void
MrcScenarioRunner::Impl::FillRunInfo(const std::string& pre,
                                     const std::map<std::string, std::string>& figures)
{
    MrcRunInfo& info = res->GetInfo();
    info.scenario = cfg.scenario;
    info.seed = cfg.seed;
    // Several transports in one results: keep the first one's options.
    if (info.options.empty())
    {
        info.options = cfg.options;
    }
    for (const char* k : {"victimFlow",
                          "allreduceCompletionNs",
                          "allgatherCompletionNs",
                          "mtu",
                          "htsimConnectionsStarted"})
    {
        auto it = cfg.options.find(k);
        if (it != cfg.options.end())
        {
            info.options[pre + k] = it->second;
        }
    }
    for (const auto& [name, value] : figures)
    {
        info.options[pre + name] = value;
    }
    info.ns3Version = MrcNs3VersionString();
    info.simulatedTimeNs = std::max(info.simulatedTimeNs, Simulator::Now().GetNanoSeconds());
    info.wallClockSeconds += fig.buildWall + fig.runWall;
    info.peakRssKb = MrcScenarioReport::PeakRssKb();
}

// ---------------------------------------------------------------------------
// accessors

void
MrcScenarioRunner::SetSharedResults(MrcRunResults* results, Ptr<MrcEventLog> log)
{
    NS_ABORT_MSG_IF(m_impl->built, "SetSharedResults must come before Build");
    m_impl->res = results ? results : &m_impl->results;
    m_impl->sharedLog = log;
}

void
MrcScenarioRunner::SetFlowStream(MrcFlowStream* stream)
{
    NS_ABORT_MSG_IF(m_impl->built, "SetFlowStream must come before Build");
    m_impl->stream = stream;
}

const MrcRunResults&
MrcScenarioRunner::GetResults() const
{
    return *m_impl->res;
}

Ptr<MrcEventLog>
MrcScenarioRunner::GetEventLog() const
{
    return m_impl->log;
}

Ptr<MrcTopology>
MrcScenarioRunner::GetTopology() const
{
    return m_impl->topo;
}

const std::vector<MrcFlowSpec>&
MrcScenarioRunner::GetMessages() const
{
    NS_ABORT_MSG_IF(!m_impl->book.keepMessages, "GetMessages: SetKeepMessages(false) was called");
    return m_impl->book.kept;
}

const std::vector<Ptr<MrcQueuePair>>&
MrcScenarioRunner::GetRequesters() const
{
    return m_impl->book.requesters;
}

std::size_t
MrcScenarioRunner::AddMessage(const MrcFlowSpec& f)
{
    NS_ABORT_MSG_IF(!m_impl->built, "AddMessage must come after Build");
    return m_impl->AddMessage(f);
}

void
MrcScenarioRunner::SetKeepMessages(bool keep)
{
    NS_ABORT_MSG_IF(m_impl->built, "SetKeepMessages must come before Build");
    m_impl->book.keepMessages = keep;
}

std::size_t
MrcScenarioRunner::GetNMessages() const
{
    return m_impl->book.nMsgs;
}

const MrcScenarioConnections&
MrcScenarioRunner::GetConnections() const
{
    return m_impl->book.connections;
}

std::vector<std::string>
MrcScenarioRunner::Write(const std::string& dir) const
{
    Ptr<MrcEventLog> log = m_impl->log;
    const std::string transport = m_impl->cfg.transport;
    std::vector<std::string> files =
        MrcResultsWriter::WriteAll(*m_impl->res, dir, [log, transport](const std::string& d) {
            log->WriteCsvWithTransport(d + "/events.csv", transport);
        });
    files.push_back("events.csv");
    if (m_impl->stream)
    {
        m_impl->stream->Finish(dir, *m_impl->res); // flows.csv and fct.txt from the stream
    }
    if (!m_impl->stepRows->empty())
    {
        const std::string path = dir + "/collective-steps.csv";
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << "transport,collective,job,op,algorithm,iteration,step,start_ns,end_ns,duration_ns,"
               "bytes,messages\n"
            << *m_impl->stepRows;
        if (!out)
        {
            NS_FATAL_ERROR("cannot write '" << path << "'");
        }
        files.push_back("collective-steps.csv");
    }
    return files;
}

uint64_t
MrcScenarioRunner::GetPacketHops() const
{
    return m_impl->fig.hops;
}

uint64_t
MrcScenarioRunner::GetEvents() const
{
    return m_impl->fig.events;
}

double
MrcScenarioRunner::GetBuildWallSeconds() const
{
    return m_impl->fig.buildWall;
}

double
MrcScenarioRunner::GetRunWallSeconds() const
{
    return m_impl->fig.runWall;
}

double
MrcScenarioRunner::GetRunCpuSeconds() const
{
    return m_impl->fig.runCpu;
}

std::vector<uint32_t>
MrcScenarioRunner::Derangement(uint32_t hosts, uint64_t seed)
{
    return MrcScenarioWorkload::Derangement(hosts, seed);
}

std::vector<MrcFlowSpec>
MrcScenarioRunner::MakeMessages(const MrcScenarioConfig& c, uint32_t hosts)
{
    return MrcScenarioWorkload::MakeMessages(c, hosts);
}

} // namespace ns3
