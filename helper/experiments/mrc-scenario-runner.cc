/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-scenario-runner.h"

#include "mrc-command-line.h"
#include "mrc-scenario-report.h"
#include "mrc-scenario-series.h"
#include "mrc-scenario-streams.h"
#include "mrc-scenario-workload.h"
#include "mrc-stall-tracker.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/log.h"
#include "ns3/mrc-channel.h"
#include "ns3/mrc-ev-profile.h"
#include "ns3/mrc-fabric-streams.h"
#include "ns3/mrc-failure-injector.h"
#include "ns3/mrc-hpcc-input.h"
#include "ns3/mrc-link-helper.h"
#include "ns3/mrc-multipath-helper.h"
#include "ns3/mrc-multipath-queue-pair.h"
#include "ns3/mrc-profiles.h"
#include "ns3/mrc-progress-reporter.h"
#include "ns3/mrc-rdma-helper.h"
#include "ns3/mrc-rdma-nic.h"
#include "ns3/mrc-results-writer.h"
#include "ns3/mrc-shared-buffer-mmu.h"
#include "ns3/mrc-switch-node.h"
#include "ns3/mrc-topology-helper.h"
#include "ns3/mrc-uec-path-selector.h"
#include "ns3/mrc-uec-queue-pair.h"
#include "ns3/names.h"
#include "ns3/object-factory.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <sstream>
#include <sys/resource.h>

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
    std::vector<MrcFlowSpec> msgs;
    std::vector<MrcRdmaHelper::Connection> conns;
    std::vector<Ptr<MrcQueuePair>> requesters;
    std::vector<std::size_t> handles;
    std::vector<bool> ended;
    std::size_t nEnded{0};
    MrcRunResults results;
    MrcRunResults* res{&results}; //!< where results go (own, or shared by several runs)

    MrcScenarioSeries series; //!< the time series (with --sampleInterval > 0)
    EventId sampleEvent;

    // figures
    uint64_t hops{0};
    uint64_t events{0};
    double buildWall{0};
    double runWall{0};
    double runCpu{0};

    // transport
    MrcRdmaHelper rdma;
    ObjectFactory evQpFactory; //!< makes queue pairs with entropy values (MRC)
    Time evBaseRtt;            //!< the fabric's base RTT for the MTU (MRC queue pairs)
    uint32_t evPerQp{0};       //!< EvCount + BackupCount of the EV profile
    std::map<std::pair<uint32_t, uint32_t>, std::pair<int64_t, uint64_t>> pathCache;
    Ptr<MrcEventLog> sharedLog; //!< events of several runs (tagged with the transport)
    uint64_t evRecorded{0};     //!< ev_state records written
    uint64_t evChanges{0};      //!< EV health changes seen
    std::vector<MrcRingCollective> collectives;
    std::vector<int> pgDscps; //!< roce: data DSCP per priority group of a flow file (-1: none)

    MrcHtsimTriggers triggers;    //!< htsim triggers of a .cm flow file
    std::vector<int64_t> msgConn; //!< per message: its .cm connection (-1: none)
    uint64_t connsStarted{0};     //!< .cm connections started

    // Per-message stalls (runs with --failLink).
    bool trackStalls{false};
    MrcStallTracker stalls;

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
    /// Switch queue series and the first sampling event (with sampling).
    void StartSampling();
    /// One pcap file per device (--pcap).
    void EnablePcap();

    // -- messages

    /// Connect a queue-pair pair for a message, post its Write at its start time.
    void AddMessage(const MrcFlowSpec& f);
    /// \param stream the message's first stream (MrcScenarioStreams::MESSAGE + ...)
    /// \return a connected pair with MRC entropy values (EV profiles with fixed streams)
    MrcRdmaHelper::Connection ConnectWithEvs(const MrcFlowSpec& f,
                                             uint64_t regionBytes,
                                             int64_t stream);
    /// \param stream the message's first stream (MrcScenarioStreams::MESSAGE + ...)
    /// \return a pair connected by MrcRdmaHelper (RoCE DSCP of a priority group, UEC
    ///         entropy selector streams)
    MrcRdmaHelper::Connection ConnectWithHelper(const MrcFlowSpec& f,
                                                uint64_t regionBytes,
                                                int64_t stream);
    /// Abort if a topology file's path is longer than a uSID carrier holds (SRv6 EVs).
    void CheckSrv6PathLengths(const MrcFlowSpec& f) const;
    /// SRv6 EV candidates of a host pair: the topology's paths, replicated up to evPerQp
    std::vector<MrcEvCandidate> Srv6Candidates(uint32_t src, uint32_t dst) const;
    /// Record the ev_state events of a requester's EV table.
    void TraceEvStates(uint32_t src, Ptr<MrcQueuePair> requester);
    /// Add message i's flow record (with its ideal FCT) to the results.
    void RecordFlow(std::size_t i, const MrcFlowSpec& f, const MrcRdmaHelper::Connection& conn);
    /// \return the base RTT (ns) and bottleneck (b/s) of the first path from src to dst
    std::pair<int64_t, uint64_t> PathFigures(uint32_t src, uint32_t dst, uint32_t overhead);
    /// Completion, error and stall traces of message i.
    void ConnectTraces(std::size_t i, const MrcFlowSpec& f, const MrcRdmaHelper::Connection& conn);

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
    /// A completed collective step: its next messages, its completion time.
    void OnCollectiveStep(std::size_t i);
    /// htsim's send_done and recv_done triggers of message i's connection.
    void OnConnectionDone(std::size_t i);

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
    m.transport = &MrcTransportTable::Get(c.transport);
    if (c.mtuAuto)
    {
        c.topology.mtu = m.transport->defaultMtu;
    }
    c.options["mtu"] = std::to_string(c.topology.mtu);

    m.series.SetResults(m.res);
    m.ApplyAttributeDefaults();
    m.BuildFabric();
    m.InstallTransport();
    m.res->AddTransport(c.transport);
    m.RegisterHostSeries();
    m.InstallLosses();
    m.trackStalls = !c.failLink.empty();
    m.stalls.SetEventLog(m.log);
    m.CreateWorkload();
    m.ScheduleFailures();
    MrcScenarioReport::ConnectPfcLog(m.topo, m.res);
    m.StartSampling();
    m.EnablePcap();
    m.buildWall = std::chrono::duration<double>(Impl::Clock::now() - t0).count();
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
        // Captures are for Wireshark, which checks the ICRC.
        Config::SetDefault("ns3::MrcRdmaNic::ComputeIcrc", BooleanValue(true));
    }
    if (transport->priorityGroups)
    {
        pgDscps = ConfigurePriorityGroups(c.fileFlows);
    }
    for (const auto& o : c.attributeOverrides)
    {
        Config::SetDefault(o.first, StringValue(o.second));
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
    topo = cfg.graph ? th.BuildGraph(*cfg.graph) : th.Build();
    MrcFabricStreams::AssignStreams(topo, MrcScenarioStreams::FABRIC);
}

void
MrcScenarioRunner::Impl::InstallTransport()
{
    MrcMultipathHelper::InstallNics(rdma, topo); // one port per plane on every host
    const uint32_t mtu = cfg.topology.mtu;
    if (transport->entropyValues)
    {
        evQpFactory.SetTypeId(transport->queuePairType);
        evBaseRtt = topo->GetBaseRtt(mtu);
        // The EV profile's current defaults, read without creating one (a new object's
        // random variable would shift the automatic stream numbers of everything after it).
        evPerQp = std::stoul(CurrentDefault(MrcEvProfile::GetTypeId(), "EvCount")) +
                  std::stoul(CurrentDefault(MrcEvProfile::GetTypeId(), "BackupCount"));
    }
    if (transport->entropySelector)
    {
        // One NIC port per QP: the path selector's (ns3::MrcFixedEntropyPathSelector: the
        // RoCEv2 flow label of the QPN pair modulo the planes); per-packet spraying over
        // ECMP within that plane by the EV in the UDP source port. BaseRtt: the fabric's
        // unloaded RTT for the MTU, unless --ns3::<queue pair>::BaseRtt is given.
        rdma.SetQueuePairType(transport->queuePairType);
        bool rttGiven = false;
        for (const auto& o : cfg.attributeOverrides)
        {
            rttGiven = rttGiven || o.first == transport->queuePairType + "::BaseRtt";
        }
        if (!rttGiven)
        {
            rdma.SetQueuePairAttribute("BaseRtt", TimeValue(topo->GetBaseRtt(mtu)));
        }
    }
}

void
MrcScenarioRunner::Impl::RegisterHostSeries()
{
    if (cfg.sampleInterval > Time(0))
    {
        series.AddHosts(topo, cfg.tagFabricSeries ? cfg.transport : "");
    }
}

void
MrcScenarioRunner::Impl::InstallLosses()
{
    const MrcScenarioConfig& c = cfg;
    if (c.lossRate > 0)
    {
        NetDeviceContainer devs;
        if (c.lossAt == "path")
        {
            // Every packet enters exactly one host NIC port on its way: drop there.
            for (uint32_t h = 0; h < topo->GetNHosts(); ++h)
            {
                for (uint32_t p = 0; p < topo->GetNPlanes(); ++p)
                {
                    devs.Add(topo->GetNicPort(h, p));
                }
            }
        }
        else
        {
            for (uint32_t l = 0; l < topo->GetNLinks(); ++l)
            {
                devs.Add(topo->GetLink(l).devA);
                devs.Add(topo->GetLink(l).devB);
            }
        }
        MrcInstallRandomLoss(devs, c.lossRate, MrcScenarioStreams::LOSS);
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
        // One ring all-reduce (or all-gather) over all hosts in index order, started at 0.
        std::vector<uint32_t> ring(nHosts);
        for (uint32_t h = 0; h < nHosts; ++h)
        {
            ring[h] = h;
        }
        NS_ABORT_MSG_IF(c.bytes < uint64_t{nHosts} * c.chunks,
                        c.pattern << ": --bytes=" << c.bytes
                                  << " must be at least hosts x chunks = "
                                  << uint64_t{nHosts} * c.chunks);
        collectives.emplace_back(0,
                                 c.pattern == "allreduce" ? MrcRingCollective::ALL_REDUCE
                                                          : MrcRingCollective::ALL_GATHER,
                                 ring,
                                 c.bytes,
                                 c.chunks);
        for (const MrcFlowSpec& f : collectives[0].Start(Time(0)))
        {
            AddMessage(f);
        }
    }
    else if (c.htsimMatrix)
    {
        // An htsim connection matrix: timed connections now, the others when a trigger
        // starts them.
        triggers.Load(*c.htsimMatrix);
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
    for (std::size_t i = 0; i < msgs.size(); ++i)
    {
        if (msgs[i].kind == MrcFlowKind::VICTIM)
        {
            c.options["victimFlow"] = std::to_string(i);
        }
    }
}

void
MrcScenarioRunner::Impl::ScheduleFailures()
{
    const MrcScenarioConfig& c = cfg;
    if (c.failLink.empty())
    {
        return;
    }
    std::stringstream ss(c.failLink);
    std::string item;
    while (std::getline(ss, item, ','))
    {
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
    if (c.repairAt > Time(0))
    {
        injector->FailLinks(c.failLink, c.failAt, c.repairAt);
    }
    else
    {
        injector->FailLinks(c.failLink, c.failAt);
    }
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
    Time first = Time::Max();
    for (const MrcFlowSpec& f : msgs)
    {
        first = std::min(first, f.start);
    }
    first = msgs.empty() || c.pattern != "file" ? Time(0) : first;
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
        pcap.EnablePcap(dir + "mrc", topo->GetLink(l).devA);
        pcap.EnablePcap(dir + "mrc", topo->GetLink(l).devB);
    }
}

// ---------------------------------------------------------------------------
// messages

void
MrcScenarioRunner::Impl::AddMessage(const MrcFlowSpec& f)
{
    const std::size_t i = msgs.size();
    msgs.push_back(f);
    const uint64_t regionBytes = std::max<uint64_t>(f.bytes, 1);
    const int64_t stream = MrcScenarioStreams::MESSAGE +
                           MrcScenarioStreams::STREAMS_PER_MESSAGE * static_cast<int64_t>(i);
    const MrcRdmaHelper::Connection conn = transport->entropyValues
                                               ? ConnectWithEvs(f, regionBytes, stream)
                                               : ConnectWithHelper(f, regionBytes, stream);
    conns.push_back(conn);
    requesters.push_back(conn.requester);
    RecordFlow(i, f, conn);
    ConnectTraces(i, f, conn);
    MrcWorkRequest wr;
    wr.id = i;
    wr.remoteAddress = conn.region->GetBase();
    wr.rkey = conn.region->GetRkey();
    wr.length = static_cast<uint32_t>(f.bytes);
    Ptr<MrcQueuePair> qp = conn.requester;
    const Time delay = f.start > Simulator::Now() ? f.start - Simulator::Now() : Time(0);
    Simulator::Schedule(delay, [qp, wr]() { qp->PostSend(wr); });
}

MrcRdmaHelper::Connection
MrcScenarioRunner::Impl::ConnectWithEvs(const MrcFlowSpec& f, uint64_t regionBytes, int64_t stream)
{
    // As MrcMultipathHelper::Connect, on this message's streams (MrcScenarioStreams::
    // MESSAGE): the EV profiles' streams are fixed before the EV sets are drawn.
    MrcRdmaHelper::Connection conn;
    std::vector<MrcEvCandidate> ab;
    std::vector<MrcEvCandidate> ba;
    const bool srv6 = cfg.evFormat == "srv6";
    if (srv6)
    {
        CheckSrv6PathLengths(f);
        ab = Srv6Candidates(f.src, f.dst);
        ba = Srv6Candidates(f.dst, f.src);
    }
    Ptr<MrcRdmaNic> na = MrcRdmaNic::GetNic(topo->GetHost(f.src));
    Ptr<MrcRdmaNic> nb = MrcRdmaNic::GetNic(topo->GetHost(f.dst));
    conn.requester = na->CreateQueuePair(evQpFactory);
    conn.responder = nb->CreateQueuePair(evQpFactory);
    for (auto [q, cands] :
         {std::make_pair(conn.requester, &ab), std::make_pair(conn.responder, &ba)})
    {
        Ptr<MrcMultipathQueuePair> mq = DynamicCast<MrcMultipathQueuePair>(q);
        Ptr<MrcEvProfile> profile = CreateObject<MrcEvProfile>();
        profile->SetFormat(srv6 ? MrcEvProfile::SRV6 : MrcEvProfile::STRUCTURED);
        stream += profile->AssignStreams(stream);
        mq->SetEvProfile(profile);
        mq->SetEvCandidates(*cands);
        mq->SetAttribute("BaseRtt", TimeValue(evBaseRtt));
    }
    MrcRdmaHelper::ConnectPair(conn.requester, conn.responder);
    conn.region = nb->RegisterMemoryRegion(0x100000000ULL, regionBytes);
    for (Ptr<MrcQueuePair> q : {conn.requester, conn.responder})
    {
        stream += DynamicCast<MrcMultipathQueuePair>(q)->AssignStreams(stream);
    }
    if (cfg.maxEvEvents > 0)
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

MrcRdmaHelper::Connection
MrcScenarioRunner::Impl::ConnectWithHelper(const MrcFlowSpec& f,
                                           uint64_t regionBytes,
                                           int64_t stream)
{
    MrcRdmaHelper::Connection conn =
        rdma.Connect(topo->GetHost(f.src), topo->GetHost(f.dst), regionBytes);
    if (transport->priorityGroups && f.priorityGroup >= 0 &&
        f.priorityGroup < static_cast<int>(pgDscps.size()) && pgDscps[f.priorityGroup] >= 0)
    {
        conn.requester->SetAttribute("DataDscp", UintegerValue(pgDscps[f.priorityGroup]));
    }
    if (transport->entropySelector)
    {
        // Fixed streams for the per-packet EV choice (as the MRC EV profiles).
        for (Ptr<MrcQueuePair> q : {conn.requester, conn.responder})
        {
            stream += DynamicCast<MrcUecQueuePair>(q)->GetEntropySelector()->AssignStreams(stream);
        }
    }
    return conn;
}

std::pair<int64_t, uint64_t>
MrcScenarioRunner::Impl::PathFigures(uint32_t src, uint32_t dst, uint32_t overhead)
{
    auto key = std::make_pair(src, dst);
    auto it = pathCache.find(key);
    if (it != pathCache.end())
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
        bottleneck = std::min(bottleneck, topo->GetLink(l).devA->GetDataRate().GetBitRate());
    }
    if (transport->usesAllPlanes)
    {
        bottleneck *= topo->GetNPlanes(); // sprays over every plane
    }
    return pathCache.emplace(key, std::make_pair(rtt, bottleneck)).first->second;
}

void
MrcScenarioRunner::Impl::RecordFlow(std::size_t i,
                                    const MrcFlowSpec& f,
                                    const MrcRdmaHelper::Connection& conn)
{
    const MrcScenarioConfig& c = cfg;
    const uint32_t overhead =
        transport->dataFrameOverhead + (c.evFormat == "srv6" ? transport->srv6EncapBytes : 0);
    const auto [rtt, bottleneck] = PathFigures(f.src, f.dst, overhead);
    MrcFlowRecord rec;
    rec.transport = c.transport;
    rec.flowId = i;
    rec.src = f.src;
    rec.dst = f.dst;
    rec.sport = static_cast<uint16_t>(conn.requester->GetQpn());
    rec.dport = static_cast<uint16_t>(conn.responder->GetQpn());
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
    handles.push_back(res->AddFlow(rec));
    ended.push_back(false);
    if (c.sampleInterval > Time(0))
    {
        series.AddFlow(c.transport, conn.requester);
    }
}

void
MrcScenarioRunner::Impl::ConnectTraces(std::size_t i,
                                       const MrcFlowSpec& f,
                                       const MrcRdmaHelper::Connection& conn)
{
    Impl* self = this;
    if (trackStalls)
    {
        stalls.Add(conn.responder, f.start);
        conn.responder->TraceConnectWithoutContext(
            "Rx",
            Callback<void, Ptr<const Packet>>([self, i](Ptr<const Packet>) {
                if (!self->ended[i])
                {
                    self->stalls.OnRx(i);
                }
            }));
    }
    conn.requester->SetCompletionCallback(Callback<void, const MrcWorkCompletion&>(
        [self, i](const MrcWorkCompletion& wc) { self->OnComplete(i, wc); }));
    auto onError = [self](const std::string& where) {
        return Callback<void, uint32_t, MrcQpError, const std::string&>(
            [self, where](uint32_t qpn, MrcQpError e, const std::string& reason) {
                self->log->RecordNow(MrcEventKind::QP_ERROR,
                                     where + ":qp" + std::to_string(qpn),
                                     MrcQpErrorName(e) + ": " + reason);
            });
    };
    conn.requester->TraceConnectWithoutContext("Error", onError("host" + std::to_string(f.src)));
    conn.responder->TraceConnectWithoutContext("Error", onError("host" + std::to_string(f.dst)));
}

std::vector<MrcEvCandidate>
MrcScenarioRunner::Impl::Srv6Candidates(uint32_t src, uint32_t dst) const
{
    std::vector<MrcEvCandidate> paths = MrcMultipathHelper::GetSrv6Candidates(topo, src, dst);
    const uint32_t planes = topo->GetNPlanes();
    const uint32_t want =
        std::min((evPerQp + planes - 1) / planes, std::max<uint32_t>(cfg.evMinPerPlane, 1));
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
    AddMessage(f);
    msgConn.resize(msgs.size(), -1);
    msgConn.back() = static_cast<int64_t>(k);
    ++connsStarted;
    cfg.options["htsimConnectionsStarted"] = std::to_string(connsStarted);
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
    ++evChanges;
    if (evRecorded >= cfg.maxEvEvents)
    {
        return;
    }
    ++evRecorded;
    std::ostringstream d;
    d << "ev " << evId << " value 0x" << std::hex << value << std::dec << " plane " << plane << " "
      << MrcEvStateName(from) << "->" << MrcEvStateName(to) << " " << MrcEvReasonName(reason);
    log->RecordNow(MrcEventKind::EV_STATE, where, d.str());
}

void
MrcScenarioRunner::Impl::OnComplete(std::size_t i, const MrcWorkCompletion& wc)
{
    if (ended[i])
    {
        return;
    }
    ended[i] = true;
    ++nEnded;
    if (trackStalls && wc.status == MrcWcStatus::SUCCESS)
    {
        stalls.Close(i, -1); // a failed message stays stalled: Collect closes it at the end
    }
    if (wc.status == MrcWcStatus::SUCCESS)
    {
        res->CompleteFlow(handles[i], wc.end.GetNanoSeconds());
        if (msgs[i].kind == MrcFlowKind::COLLECTIVE)
        {
            OnCollectiveStep(i);
        }
        if (cfg.htsimMatrix && msgConn.size() > i && msgConn[i] >= 0)
        {
            OnConnectionDone(i);
        }
    }
    if (nEnded == msgs.size())
    {
        Simulator::Stop();
        sampleEvent.Cancel();
        if (progress)
        {
            progress->Stop();
        }
    }
}

void
MrcScenarioRunner::Impl::OnCollectiveStep(std::size_t i)
{
    MrcRingCollective& rc = collectives.at(msgs[i].collective);
    const MrcFlowSpec done = msgs[i]; // AddMessage may reallocate msgs
    for (const MrcFlowSpec& f : rc.OnFlowComplete(done, Simulator::Now()))
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
MrcScenarioRunner::Impl::OnConnectionDone(std::size_t i)
{
    // htsim's send_done and recv_done triggers, both at the sender's completion
    const MrcHtsimConnection& k = cfg.htsimMatrix->connections[msgConn[i]];
    for (uint32_t t : {k.sendDoneTrigger, k.recvDoneTrigger})
    {
        if (t != 0)
        {
            for (std::size_t next : triggers.Activate(t))
            {
                StartConnection(next);
            }
        }
    }
}

void
MrcScenarioRunner::Impl::Sample()
{
    series.Sample(cfg.sampleInterval, ended);
    if (nEnded < msgs.size() && Simulator::Now() + cfg.sampleInterval < cfg.simTime)
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
        m.progress->Start(m.cfg.simTime);
    }
    Simulator::Stop(m.cfg.simTime);
    const double cpu0 = CpuSeconds();
    const auto t0 = Impl::Clock::now();
    if (m.msgs.empty())
    {
        Simulator::Stop();
    }
    Simulator::Run();
    m.runWall = std::chrono::duration<double>(Impl::Clock::now() - t0).count();
    m.runCpu = CpuSeconds() - cpu0;
    if (m.progress)
    {
        m.progress->Stop();
    }
    m.events = Simulator::GetEventCount() - (m.progress ? m.progress->GetChecks() : 0);
    m.Collect();
    if (m.sharedLog)
    {
        // Several transports: say which run each record belongs to.
        const bool tag = m.cfg.transports.size() > 1;
        for (const MrcEventRecord& e : m.log->GetRecords())
        {
            const std::string t = "transport=" + m.cfg.transport;
            m.sharedLog->Record(e.time,
                                e.kind,
                                e.where,
                                tag ? (e.detail.empty() ? t : e.detail + " " + t) : e.detail);
        }
        m.log = m.sharedLog;
    }
}

// ---------------------------------------------------------------------------
// results

void
MrcScenarioRunner::Impl::Collect()
{
    if (trackStalls)
    {
        stalls.CloseOpen();
    }
    MrcTransportCounters& tc = res->GetCounters(cfg.transport);
    // Several transports in one results: per-transport figures under "<transport>." names.
    const std::string pre = cfg.transports.size() > 1 ? cfg.transport + "." : "";
    const std::map<std::string, std::string> figures =
        MrcScenarioReport::CollectQueuePairs(*transport, conns, msgs, evChanges, tc);
    hops = MrcScenarioReport::CollectLinks(topo, *res, tc);
    FillRunInfo(pre, figures);
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
    info.eventsExecuted += events;
    info.wallClockSeconds += buildWall + runWall;
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
    return m_impl->msgs;
}

const std::vector<Ptr<MrcQueuePair>>&
MrcScenarioRunner::GetRequesters() const
{
    return m_impl->requesters;
}

std::vector<std::string>
MrcScenarioRunner::Write(const std::string& dir) const
{
    Ptr<MrcEventLog> log = m_impl->log;
    std::vector<std::string> files =
        MrcResultsWriter::WriteAll(*m_impl->res, dir, [log](const std::string& d) {
            log->WriteCsv(d + "/events.csv");
        });
    files.push_back("events.csv");
    return files;
}

uint64_t
MrcScenarioRunner::GetPacketHops() const
{
    return m_impl->hops;
}

uint64_t
MrcScenarioRunner::GetEvents() const
{
    return m_impl->events;
}

double
MrcScenarioRunner::GetBuildWallSeconds() const
{
    return m_impl->buildWall;
}

double
MrcScenarioRunner::GetRunWallSeconds() const
{
    return m_impl->runWall;
}

double
MrcScenarioRunner::GetRunCpuSeconds() const
{
    return m_impl->runCpu;
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
