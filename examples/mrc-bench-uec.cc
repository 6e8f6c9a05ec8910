/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// perm1024-uec: the size UEC simulators are compared at. 1024 hosts on a k = 16 3-tier
// fat-tree (100 Gb/s links, 1 us per link), every host writes one message (default
// 2,000,000 B, the "2MB" of the reference simulator's connection matrices) to a distinct
// host (a random derangement with a fixed seed, or the flows of an htsim connection matrix
// given with --flowFile, so that both simulators run the same permutation; --writeFlowFile
// writes ours in that format), UEC RUD queue pairs with the uec-htsim profile (MTU 4096,
// trimming, NSCC, mixed spraying), on the event scheduler and simulator core mrc-sim uses
// (ns3::MrcHeapScheduler, --scheduler picks another; ns3::MrcSimulatorImpl). Checks that every byte
// is placed exactly once and every Write completes, then prints wall time, CPU time, peak RSS,
// packet hops, events and FCT percentiles as text and one JSON line (--json=FILE also writes
// the JSON there). Exit code 1 if a check fails.

#include "ns3/core-module.h"
#include "ns3/mrc-command-line.h"
#include "ns3/mrc-htsim-input.h"
#include "ns3/mrc-input-error.h"
#include "ns3/mrc-memory-region.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-profiles.h"
#include "ns3/mrc-rdma-helper.h"
#include "ns3/mrc-switch-node.h"
#include "ns3/mrc-time-records.h"
#include "ns3/mrc-topology-helper.h"
#include "ns3/mrc-uec-path-selector.h"
#include "ns3/mrc-uec-queue-pair.h"
#include "ns3/mrc-workload.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>
#include <sys/resource.h>
#include <vector>

using namespace ns3;

namespace
{

/// \return peak resident set size of the process in KiB
uint64_t
PeakRssKib()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<uint64_t>(u.ru_maxrss);
}

/// \return user + system CPU time of the process so far, in seconds
double
CpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_stime.tv_sec + 1e-6 * (u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

/// \return wall seconds since \p a
double
Since(std::chrono::steady_clock::time_point a)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count();
}

/// Completion bookkeeping for all requesters.
struct Completions
{
    std::vector<int64_t> fctNs;   //!< per flow, -1 until completed
    std::vector<int64_t> startNs; //!< per flow, when it was posted
    uint32_t done{0};             //!< completions seen
    uint32_t failed{0};           //!< completions with a status other than SUCCESS
    uint32_t repeated{0};         //!< a flow completing more than once

    void OnWc(const MrcWorkCompletion& c)
    {
        if (c.status != MrcWcStatus::SUCCESS)
        {
            ++failed;
        }
        if (c.wrId >= fctNs.size() || fctNs[c.wrId] >= 0)
        {
            ++repeated;
            return;
        }
        fctNs[c.wrId] = Simulator::Now().GetNanoSeconds() - startNs[c.wrId];
        ++done;
    }
};

/// \return the q-quantile of sorted v (nearest rank)
int64_t
Quantile(const std::vector<int64_t>& v, double q)
{
    if (v.empty())
    {
        return 0;
    }
    std::size_t i = static_cast<std::size_t>(q * static_cast<double>(v.size()) + 0.999999);
    i = std::min(std::max<std::size_t>(i, 1), v.size());
    return v[i - 1];
}

/// The benchmark's options.
struct UecBenchOptions
{
    uint32_t k = 16;                                 //!< fat-tree arity
    uint64_t bytes = 2000000;                        //!< bytes each host writes
    uint32_t seed = 1;                               //!< RNG seed
    std::string json = "";                           //!< also write the JSON line here
    std::string flowFile = "";                       //!< htsim .cm flows instead
    std::string writeFlowFile = "";                  //!< write the flows as .cm here
    std::string scheduler = "ns3::MrcHeapScheduler"; //!< event scheduler, as mrc-sim
};

/// \param argc argument count \param argv arguments \return the options, checked
UecBenchOptions
ParseOptions(int argc, char* argv[])
{
    UecBenchOptions o;
    MrcCommandLine cmd(__FILE__);
    cmd.Usage("perm1024-uec: a UEC permutation on a 3-tier fat-tree (k = 16: 1024 hosts), "
              "wall time, CPU time and peak memory.");
    cmd.AddValue("k", "fat-tree arity (even, >= 4): k^3/4 hosts", o.k);
    cmd.AddValue("bytes", "bytes each host writes", o.bytes);
    cmd.AddValue("seed", "RNG seed (permutation, spraying, ECMP)", o.seed);
    cmd.AddValue("json", "also write the JSON line to this file", o.json);
    cmd.AddValue("flowFile",
                 "an htsim connection matrix (.cm): its timed flows instead of the random "
                 "permutation (Nodes must be the fat-tree's hosts; --bytes is then ignored)",
                 o.flowFile);
    cmd.AddValue("writeFlowFile",
                 "write the flows of the run as an htsim connection matrix (.cm) to this file",
                 o.writeFlowFile);
    cmd.AddValue("scheduler",
                 "ns-3 event scheduler (TypeId name), as mrc-sim's default",
                 o.scheduler);
    cmd.Parse(argc, argv);
    TypeId sched;
    if (!TypeId::LookupByNameFailSafe(o.scheduler, &sched) ||
        !sched.IsChildOf(Scheduler::GetTypeId()))
    {
        MrcCommandLine::Fail(
            "--scheduler='" + o.scheduler +
            "' is not a TypeId (allowed: ns3::MrcHeapScheduler, ns3::PriorityQueueScheduler, "
            "ns3::MapScheduler, ns3::HeapScheduler, ns3::CalendarScheduler, "
            "ns3::ListScheduler)");
    }
    if (o.k < 4 || o.k % 2 != 0 || o.k > 64)
    {
        MrcCommandLine::Fail("--k='" + std::to_string(o.k) + "' must be even and in [4, 64]");
    }
    if (o.bytes == 0 || o.bytes > (uint64_t{1} << 32))
    {
        MrcCommandLine::Fail("--bytes='" + std::to_string(o.bytes) + "' must be in [1, 2^32]");
    }
    if (o.seed == 0)
    {
        MrcCommandLine::Fail("--seed='0' must be at least 1");
    }
    return o;
}

/// Times, memory and counters of the run.
struct UecBenchResult
{
    uint32_t hosts{0};        //!< hosts of the fat-tree
    std::size_t messages{0};  //!< Writes posted
    uint64_t topoRss{0};      //!< peak RSS after building the topology, KiB
    uint64_t nicRss{0};       //!< peak RSS after installing the NICs, KiB
    uint64_t setupRss{0};     //!< peak RSS after posting the Writes, KiB
    uint64_t rss{0};          //!< peak RSS at the end, KiB
    double setupWall{0};      //!< wall time of the setup
    double setupCpu{0};       //!< CPU time of the setup
    double runWall{0};        //!< wall time of Simulator::Run
    double runCpu{0};         //!< CPU time of Simulator::Run
    double totalWall{0};      //!< wall time in all
    double totalCpu{0};       //!< CPU time in all
    uint64_t events{0};       //!< events executed
    int64_t simNs{0};         //!< simulated time
    uint32_t badRegions{0};   //!< regions not written exactly once in full
    uint64_t timeouts{0};     //!< requesters' retransmission timeouts
    uint64_t retransmits{0};  //!< requesters' retransmitted packets
    uint64_t hops{0};         //!< link transmissions
    uint64_t trims{0};        //!< packets the switches trimmed
    uint64_t drops{0};        //!< packets the switches dropped
    std::vector<int64_t> fct; //!< completion times of the completed flows, sorted
    bool ok{false};           //!< every check passed
};

/// \param k fat-tree arity \param rdma installs the NICs \param[out] r peak RSS after each
/// step \return the fat-tree with a NIC on every host
Ptr<MrcTopology>
BuildFabric(uint32_t k, MrcRdmaHelper& rdma, UecBenchResult& r)
{
    MrcProfiles::Apply("uec-htsim");
    MrcTopologyConfig c;
    c.kind = MrcTopologyKind::FAT_TREE;
    c.k = k;
    c.hosts = 0;      // k^3/4
    c.hostsPerT0 = 0; // k/2: not oversubscribed
    MrcTopologyHelper th(c);
    th.SetNames(false);
    Ptr<MrcTopology> topo = th.Build();
    r.hosts = topo->GetNHosts();
    r.topoRss = PeakRssKib();

    for (uint32_t h = 0; h < r.hosts; ++h)
    {
        rdma.Install(topo->GetHost(h), topo->GetNicPort(h, 0), topo->GetAddress(h, 0));
    }
    r.nicRss = PeakRssKib();
    return topo;
}

/**
 * The flows of the run: the random permutation, or the timed flows of --flowFile.
 * \param o the options \param hosts hosts of the fat-tree \return the flows
 */
std::vector<MrcFlowSpec>
BenchFlows(const UecBenchOptions& o, uint32_t hosts)
{
    if (!o.flowFile.empty())
    {
        try
        {
            const MrcHtsimConnectionMatrix cm = MrcHtsimInput::LoadConnectionMatrix(o.flowFile);
            if (cm.nodes != hosts)
            {
                MrcCommandLine::Fail("--flowFile='" + o.flowFile + "' has Nodes " +
                                     std::to_string(cm.nodes) + ", the k = " + std::to_string(o.k) +
                                     " fat-tree has " + std::to_string(hosts) + " hosts");
            }
            std::vector<MrcFlowSpec> flows = cm.TimedFlows();
            for (const MrcFlowSpec& f : flows)
            {
                if (f.src >= hosts || f.dst >= hosts || f.src == f.dst || f.bytes == 0 ||
                    f.bytes > (uint64_t{1} << 32))
                {
                    MrcCommandLine::Fail("--flowFile='" + o.flowFile + "': flow " +
                                         std::to_string(f.src) + "->" + std::to_string(f.dst) +
                                         " of " + std::to_string(f.bytes) +
                                         " B (allowed: distinct hosts below " +
                                         std::to_string(hosts) + ", 1 B to 2^32 B)");
                }
            }
            if (flows.empty())
            {
                MrcCommandLine::Fail("--flowFile='" + o.flowFile + "' has no timed flow");
            }
            return flows;
        }
        catch (const MrcInputError& e)
        {
            MrcCommandLine::Fail(e.what());
        }
    }
    std::vector<uint32_t> all(hosts);
    for (uint32_t h = 0; h < hosts; ++h)
    {
        all[h] = h;
    }
    Ptr<MrcWorkloadGenerator> gen = CreateObject<MrcWorkloadGenerator>();
    gen->AssignStreams(1);
    return gen->Permutation(all, o.bytes, Seconds(0));
}

/// Write \p flows as an htsim connection matrix to \p path (exit 2 if it cannot).
void
WriteFlowFile(const std::string& path, uint32_t hosts, const std::vector<MrcFlowSpec>& flows)
{
    std::ofstream f(path);
    f << "Nodes " << hosts << "\nConnections " << flows.size() << "\n";
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        f << flows[i].src << "->" << flows[i].dst << " id " << i + 1 << " start "
          << flows[i].start.GetMicroSeconds() << " size " << flows[i].bytes << "\n";
    }
    if (!f)
    {
        MrcCommandLine::Fail("--writeFlowFile='" + path + "': cannot write there");
    }
}

/**
 * Connect every flow's hosts and post one Write on each connection at the flow's start.
 * \param topo the fabric \param rdma makes the connections \param flows the flows
 * \param done logs the completions
 * \return the connections, in flow order
 */
std::vector<MrcRdmaHelper::Connection>
PostFlows(Ptr<MrcTopology> topo,
          MrcRdmaHelper& rdma,
          const std::vector<MrcFlowSpec>& flows,
          Completions& done)
{
    done.fctNs.assign(flows.size(), -1);
    done.startNs.resize(flows.size());
    std::vector<MrcRdmaHelper::Connection> conns;
    conns.reserve(flows.size());
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        const MrcFlowSpec& f = flows[i];
        MrcRdmaHelper::Connection conn =
            rdma.Connect(topo->GetHost(f.src), topo->GetHost(f.dst), f.bytes);
        conn.requester->SetCompletionCallback(MakeCallback(&Completions::OnWc, &done));
        MrcWorkRequest wr;
        wr.id = i;
        wr.opcode = MrcWrOpcode::WRITE;
        wr.remoteAddress = conn.region->GetBase();
        wr.rkey = conn.region->GetRkey();
        wr.length = static_cast<uint32_t>(f.bytes);
        done.startNs[i] = f.start.GetNanoSeconds();
        if (f.start.IsZero())
        {
            if (!conn.requester->PostSend(wr))
            {
                MrcCommandLine::Fail("PostSend refused flow " + std::to_string(i));
            }
        }
        else
        {
            Ptr<MrcQueuePair> qp = conn.requester;
            Simulator::Schedule(f.start, [qp, wr, i]() {
                if (!qp->PostSend(wr))
                {
                    MrcCommandLine::Fail("PostSend refused flow " + std::to_string(i));
                }
            });
        }
        // fixed EV stream per flow
        DynamicCast<MrcUecQueuePair>(conn.requester)
            ->GetEntropySelector()
            ->AssignStreams(1000 + 2 * static_cast<int64_t>(i));
        conns.push_back(conn);
    }
    return conns;
}

/// Run the simulation; time it and count its events into \p r.
void
RunAndTime(UecBenchResult& r)
{
    const auto run0 = std::chrono::steady_clock::now();
    const double runCpu0 = CpuSeconds();
    const uint64_t events0 = Simulator::GetEventCount();
    Simulator::Run();
    r.runWall = Since(run0);
    r.runCpu = CpuSeconds() - runCpu0;
    r.events = Simulator::GetEventCount() - events0;
    r.simNs = Simulator::Now().GetNanoSeconds();
}

/**
 * Check every byte was placed exactly once and every Write completed once and successfully;
 * add up the counters of the queue pairs, links and switches.
 * \param topo the fabric \param conns the connections \param flows the flows, in the
 * same order \param done the completions \param[out] r the result
 */
void
CheckAndCount(Ptr<MrcTopology> topo,
              const std::vector<MrcRdmaHelper::Connection>& conns,
              const std::vector<MrcFlowSpec>& flows,
              const Completions& done,
              UecBenchResult& r)
{
    for (std::size_t i = 0; i < conns.size(); ++i)
    {
        const MrcRdmaHelper::Connection& conn = conns[i];
        const uint64_t bytes = flows[i].bytes;
        if (!conn.region->IsExactlyOnce(conn.region->GetBase(), bytes) ||
            conn.region->GetBytesPlaced() != bytes || conn.region->GetDuplicateBytes() != 0)
        {
            ++r.badRegions;
        }
        r.timeouts += conn.requester->GetCounters().timeouts;
        r.retransmits += conn.requester->GetCounters().retransmittedPackets;
    }
    for (uint32_t id = 0; id < topo->GetNLinks(); ++id)
    {
        const MrcTopologyLink& l = topo->GetLink(id);
        for (uint8_t cls = 0; cls < MrcNetDevice::N_CLASSES; ++cls)
        {
            r.hops += l.devA->GetTxPackets(cls) + l.devB->GetTxPackets(cls);
        }
    }
    for (uint32_t id = 0; id < topo->GetNSwitches(); ++id)
    {
        r.trims += topo->GetSwitchById(id)->GetTrimmedPackets();
        r.drops += topo->GetSwitchById(id)->GetTotalDropPackets();
    }
    for (int64_t t : done.fctNs)
    {
        if (t >= 0)
        {
            r.fct.push_back(t);
        }
    }
    std::sort(r.fct.begin(), r.fct.end());
    r.ok = r.badRegions == 0 && done.done == r.messages && done.failed == 0 && done.repeated == 0;
}

/// Print the run as text.
void
PrintText(const UecBenchOptions& o,
          Ptr<MrcTopology> topo,
          const Completions& done,
          const UecBenchResult& r)
{
    const std::vector<int64_t>& fct = r.fct;
    std::cout << "perm1024-uec: k = " << o.k << " fat-tree, " << r.hosts << " hosts, "
              << topo->GetNSwitches() << " switches, " << topo->GetNLinks() << " links; "
              << r.messages << " Writes "
              << (o.flowFile.empty() ? "of " + std::to_string(o.bytes) + " B"
                                     : "of the connection matrix " + o.flowFile)
              << ", scheduler " << o.scheduler << "\n"
              << "setup: " << r.setupWall << " s wall, " << r.setupCpu << " s CPU, peak RSS "
              << r.setupRss / 1024.0 << " MiB (after the topology " << r.topoRss / 1024.0
              << ", after the NICs " << r.nicRss / 1024.0 << ")\n"
              << "run:   " << r.runWall << " s wall, " << r.runCpu << " s CPU, " << r.simNs / 1e3
              << " us simulated\n"
              << "total: " << r.totalWall << " s wall, " << r.totalCpu << " s CPU, peak RSS "
              << r.rss / 1024.0 << " MiB\n"
              << "packet hops " << r.hops << " (" << r.hops / r.runWall << " per wall s, "
              << r.hops / r.runCpu << " per CPU s), events " << r.events << " ("
              << r.events / r.runWall << " per wall s)\n"
              << "FCT p50 " << Quantile(fct, 0.5) / 1e3 << " us, p99 " << Quantile(fct, 0.99) / 1e3
              << " us, max " << (fct.empty() ? 0 : fct.back()) / 1e3 << " us\n"
              << "trims " << r.trims << ", drops " << r.drops << ", retransmissions "
              << r.retransmits << ", timeouts " << r.timeouts << "\n"
              << "exactly once: " << (r.messages - r.badRegions) << "/" << r.messages
              << " regions, completed " << done.done << "/" << r.messages << " (" << done.failed
              << " failed, " << done.repeated << " repeated): " << (r.ok ? "OK" : "FAILED") << "\n";
}

/// \return the run as one JSON line
std::string
JsonLine(const UecBenchOptions& o, const UecBenchResult& r)
{
    const std::vector<int64_t>& fct = r.fct;
    std::ostringstream js;
    js << "{\"scenario\": \"perm1024-uec\", \"k\": " << o.k << ", \"hosts\": " << r.hosts
       << ", \"messages\": " << r.messages
       << ", \"bytesPerMessage\": " << (o.flowFile.empty() ? o.bytes : 0) << ", \"flowFile\": \""
       << o.flowFile << "\", \"scheduler\": \"" << o.scheduler << "\""
       << ", \"seed\": " << o.seed << ", \"allCompleted\": " << (r.ok ? "true" : "false")
       << ", \"simulatedNs\": " << r.simNs << ", \"eventsExecuted\": " << r.events
       << ", \"packetHops\": " << r.hops << ", \"setupWallSeconds\": " << r.setupWall
       << ", \"runWallSeconds\": " << r.runWall << ", \"runCpuSeconds\": " << r.runCpu
       << ", \"totalWallSeconds\": " << r.totalWall << ", \"totalCpuSeconds\": " << r.totalCpu
       << ", \"topologyRssKb\": " << r.topoRss << ", \"setupRssKb\": " << r.setupRss
       << ", \"peakRssKb\": " << r.rss << ", \"hopsPerWallSecond\": " << r.hops / r.runWall
       << ", \"eventsPerWallSecond\": " << r.events / r.runWall
       << ", \"hopsPerCpuSecond\": " << r.hops / r.runCpu
       << ", \"eventsPerCpuSecond\": " << r.events / r.runCpu
       << ", \"fctP50Ns\": " << Quantile(fct, 0.5) << ", \"fctP99Ns\": " << Quantile(fct, 0.99)
       << ", \"fctMaxNs\": " << (fct.empty() ? 0 : fct.back()) << ", \"trims\": " << r.trims
       << ", \"drops\": " << r.drops << ", \"retransmissions\": " << r.retransmits
       << ", \"timeouts\": " << r.timeouts << "}";
    return js.str();
}

} // namespace

int
main(int argc, char* argv[])
{
    const UecBenchOptions o = ParseOptions(argc, argv);
    // as mrc-sim (helper/experiments/mrc-sim-main.cc): same scheduler, same event order
    GlobalValue::Bind("SchedulerType", StringValue(o.scheduler));
    // and on mrc-sim's simulator core (the same events in the same order as ns-3's default)
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::MrcSimulatorImpl"));
    // as mrc-sim: ns-3 stops recording Time objects before the build (MrcEndTimeRecords)
    MrcEndTimeRecords();
    RngSeedManager::SetSeed(o.seed);
    RngSeedManager::SetRun(1);

    const auto wall0 = std::chrono::steady_clock::now();
    const double cpu0 = CpuSeconds();
    UecBenchResult r;
    MrcRdmaHelper rdma;
    rdma.SetQueuePairType("ns3::MrcUecQueuePair");
    Ptr<MrcTopology> topo = BuildFabric(o.k, rdma, r);
    Completions done;
    const std::vector<MrcFlowSpec> flows = BenchFlows(o, topo->GetNHosts());
    if (!o.writeFlowFile.empty())
    {
        WriteFlowFile(o.writeFlowFile, topo->GetNHosts(), flows);
    }
    const std::vector<MrcRdmaHelper::Connection> conns = PostFlows(topo, rdma, flows, done);
    r.messages = conns.size();
    r.setupWall = Since(wall0);
    r.setupCpu = CpuSeconds() - cpu0;
    r.setupRss = PeakRssKib();

    RunAndTime(r);
    CheckAndCount(topo, conns, flows, done, r);
    r.totalWall = Since(wall0);
    r.totalCpu = CpuSeconds() - cpu0;
    r.rss = PeakRssKib();

    PrintText(o, topo, done, r);
    const std::string js = JsonLine(o, r);
    std::cout << js << std::endl;
    if (!o.json.empty())
    {
        std::ofstream f(o.json);
        if (!f)
        {
            MrcCommandLine::Fail("--json='" + o.json + "': cannot write there");
        }
        f << js << "\n";
    }
    Simulator::Destroy();
    return r.ok ? 0 : 1;
}
