/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-sim-main.h"

#include "mrc-command-line.h"
#include "mrc-flow-stream.h"
#include "mrc-scenario-options.h"
#include "mrc-scenario-presets.h"
#include "mrc-scenario-report.h"
#include "mrc-scenario-runner.h"

#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/mrc-event-log.h"
#include "ns3/mrc-fabric-streams.h"
#include "ns3/mrc-input-error.h"
#include "ns3/mrc-mpi.h"
#include "ns3/mrc-results-writer.h"
#include "ns3/mrc-time-records.h"
#include "ns3/scheduler.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <tuple>

namespace ns3
{

namespace
{

/// --ranks given: MrcCanonicalScheduler instead of MrcHeapScheduler.
bool g_canonicalOrder = false;

/// MrcHeapScheduler runs the events in exactly the order of ns-3's schedulers (time stamp,
/// then uid), so the results are those of ns-3's default MapScheduler; its heap is cheaper
/// than MapScheduler's tree and, unlike ns-3's PriorityQueueScheduler, it removes an event
/// (EventId::Remove) without scanning the queue. --SchedulerType=... still chooses another
/// one.
void
BindScheduler()
{
    // --ranks: an order of same-time events that does not depend on the split
    GlobalValue::Bind(
        "SchedulerType",
        StringValue(g_canonicalOrder ? "ns3::MrcCanonicalScheduler" : "ns3::MrcHeapScheduler"));
    // the sequential core without ns-3's per-event extras (same events, same order); --ranks
    // keeps ns-3's own (MrcMpi chooses the distributed one)
    GlobalValue::Bind(
        "SimulatorImplementationType",
        StringValue(g_canonicalOrder ? "ns3::DefaultSimulatorImpl" : "ns3::MrcSimulatorImpl"));
}

/**
 * --SimulatorImplementationType and --SchedulerType (ns-3's global values) must name a
 * simulator core and an event scheduler: ns-3 itself would crash on another name when the
 * simulator starts. Exits with 2 and a message naming the value otherwise.
 */
void
CheckCoreAndScheduler()
{
    const struct
    {
        const char* global;  //!< the global value
        TypeId base;         //!< what its TypeId must derive from
        const char* allowed; //!< the usual choices
    } checks[] = {
        {"SimulatorImplementationType",
         SimulatorImpl::GetTypeId(),
         "ns3::MrcSimulatorImpl (the default), ns3::DefaultSimulatorImpl"},
        {"SchedulerType",
         Scheduler::GetTypeId(),
         "ns3::MrcHeapScheduler (the default), ns3::MapScheduler, ns3::PriorityQueueScheduler, "
         "ns3::HeapScheduler, ns3::CalendarScheduler, ns3::ListScheduler"},
    };

    for (const auto& c : checks)
    {
        StringValue v;
        GlobalValue::GetValueByName(c.global, v);
        TypeId tid;
        if (!TypeId::LookupByNameFailSafe(v.Get(), &tid) || !tid.IsChildOf(c.base) ||
            !tid.HasConstructor())
        {
            MrcCommandLine::Fail(
                std::string("--") + c.global + "='" + MrcParse::Printable(v.Get()) + "' is not " +
                (c.base == SimulatorImpl::GetTypeId() ? "a simulator core" : "an event scheduler") +
                " (allowed: " + c.allowed + ")");
        }
    }
}

/// \return true if an argument starts with prefix
bool
Given(const std::vector<char*>& args, const std::string& prefix)
{
    for (std::size_t i = 1; i < args.size(); ++i)
    {
        if (std::string(args[i]).rfind(prefix, 0) == 0)
        {
            return true;
        }
    }
    return false;
}

/// The signal (SIGINT or SIGTERM) that interrupted the run, 0 if none.
volatile std::sig_atomic_t g_interrupt = 0;
/// 1 while Simulator::Run works (the handler may then stop it).
volatile std::sig_atomic_t g_running = 0;

/// SIGINT/SIGTERM: stop the simulation at the next event; the results of the simulated
/// time reached are then written as usual. A second signal ends the program at once.
void
OnInterrupt(int sig)
{
    g_interrupt = sig;
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    if (g_running)
    {
        // Sets the simulator's stop flag, which its event loop reads before each event.
        Simulator::Stop();
    }
}

/**
 * Make a folder if missing and write and remove a probe file in it.
 * \param folder the folder
 * \param name what to call it in the message, e.g. "output folder"
 * \return "" or why files cannot be written into it
 */
std::string
TryWriteInto(const std::string& folder, const std::string& name)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec || !fs::is_directory(folder))
    {
        return "cannot create the " + name +
               (ec ? " (" + ec.message() + ")" : std::string(" (not a folder)"));
    }
    const fs::path probe = fs::path(folder) / ".mrc-sim-write-test";
    {
        std::ofstream f(probe);
        f << "x";
        f.flush();
        if (!f)
        {
            return "cannot write files into the " + name;
        }
    }
    fs::remove(probe, ec);
    return "";
}

/**
 * --out must be a folder mrc-sim can write: created if missing, and a probe file written
 * and removed in it, before any simulation starts (exit 2 otherwise). With --pcap, so must
 * the folders of the pcap files: --out itself, or with several transports one subfolder per
 * transport (OUT/roce/, ...; see TransportConfig), which a run would otherwise meet only
 * when that transport's fabric is built, after the transports before it had run.
 * \param out the folder
 * \param c the run's settings
 */
void
CheckOutputFolder(const std::string& out, const MrcScenarioConfig& c)
{
    std::string e = TryWriteInto(out, "output folder");
    if (!e.empty())
    {
        MrcCommandLine::Fail("--out='" + MrcParse::Printable(out) + "': " + e);
    }
    if (!c.pcap || c.transports.size() < 2)
    {
        return; // the pcap files go into --out
    }
    for (const std::string& t : c.transports)
    {
        const std::string folder = (std::filesystem::path(out) / t).string() + "/";
        e = TryWriteInto(folder, "pcap folder '" + MrcParse::Printable(folder) + "'");
        if (!e.empty())
        {
            MrcCommandLine::Fail("--pcap: " + e + " (" + t + "'s captures when several " +
                                 "transports run; --out='" + MrcParse::Printable(out) + "')");
        }
    }
}

/// ns-3 knows --help and --PrintHelp; -h is the usual short form.
void
MapShortHelp(std::vector<char*>& args)
{
    static char help[] = "--PrintHelp";
    for (std::size_t i = 1; i < args.size(); ++i)
    {
        if (std::string(args[i]) == "-h")
        {
            args[i] = help;
        }
    }
}

/// The figures summed over the transports of one mrc-sim run (--benchJson).
struct BenchFigures
{
    double buildWall{0};
    double runWall{0};
    double runCpu{0};
    uint64_t hops{0};
    uint64_t events{0};
    uint64_t messages{0};
    uint32_t hosts{0};
};

/**
 * Take the scenario name out of the arguments (a first argument without '-', or
 * --scenario=NAME).
 * \param args the arguments (the name argument is removed)
 * \param scenario receives the scenario name
 * \return true if --list is given (before any unknown scenario is reported)
 */
bool
TakeScenario(std::vector<char*>& args, std::string& scenario)
{
    scenario = "permutation";
    if (args.size() > 1 && args[1][0] != '-')
    {
        scenario = args[1];
        args.erase(args.begin() + 1);
    }
    for (std::size_t i = 1; i < args.size(); ++i)
    {
        const std::string a = args[i];
        if (a.rfind("--scenario=", 0) == 0)
        {
            scenario = a.substr(11);
        }
        if (a == "--list" || a == "--list=1" || a == "--list=true")
        {
            return true;
        }
    }
    return false;
}

/**
 * The scenario's preset, then the command line (exit 2 on a bad option).
 * \param scenario the scenario name
 * \param args the arguments
 * \param o receives the options
 */
void
ParseOptions(const std::string& scenario, std::vector<char*>& args, MrcScenarioOptions& o)
{
    const MrcScenarioInfo* info = MrcScenarios::Find(scenario);
    if (!info)
    {
        MrcCommandLine::Fail("--scenario='" + scenario + "' is not a scenario (allowed: " +
                             MrcCommandLine::Join(MrcScenarios::GetNames()) + ")");
    }
    BindScheduler();
    o.scenario = scenario;
    info->preset(o);
    MrcCommandLine cmd;
    cmd.Usage("mrc-sim: run a named scenario (" + MrcCommandLine::Join(MrcScenarios::GetNames()) +
              "), print the summary table and write the result files.\n\nLimits: a topology "
              "file at most " +
              std::to_string(MrcInputLimits::MAX_NODES) + " nodes and " +
              std::to_string(MrcInputLimits::MAX_LINKS) + " links; at most " +
              std::to_string(MrcInputLimits::MAX_FLOWS) +
              " flows (a flow file, a connection matrix, --scenario=flows); one message "
              "(--bytes, a CDF size) at most " +
              std::to_string(MrcInputLimits::MAX_MESSAGE_BYTES) +
              " bytes; a flow's start at most 9.2e6 s; at most " +
              std::to_string(MrcFabricStreams::STREAMS_PER_SWITCH) +
              " ports per switch. Every option, input file and --out is checked before the "
              "simulation (--checkOnly: only that). Exit code 0: every message completed; 1: "
              "some did not by --simTime (the result files are written); 2: a usage error; "
              "128 + N: signal N.");
    o.Register(cmd);
    cmd.Parse(static_cast<int>(args.size()), args.data());
    CheckCoreAndScheduler();
    if (Given(args, "--transport=") && !Given(args, "--transports="))
    {
        o.transports = ""; // --transport=X replaces the scenario's transport list
    }
}

/// \return the attribute defaults given as --ns3::Class::Attribute=value, in order
std::vector<std::pair<std::string, std::string>>
AttributeOverrides(const std::vector<char*>& args)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (std::size_t i = 1; i < args.size(); ++i)
    {
        std::string a = args[i];
        while (!a.empty() && a[0] == '-')
        {
            a.erase(0, 1);
        }
        const std::size_t eq = a.find('=');
        if (a.rfind("ns3::", 0) == 0 && eq != std::string::npos)
        {
            out.emplace_back(a.substr(0, eq), a.substr(eq + 1));
        }
    }
    return out;
}

/**
 * The settings of transport k of the run.
 * \param c the scenario's settings
 * \param o the options (an empty --profile: each transport's own)
 * \param list the transports run
 * \param k which one
 * \return its settings
 */
MrcScenarioConfig
TransportConfig(const MrcScenarioConfig& c,
                const MrcScenarioOptions& o,
                const std::vector<std::string>& list,
                std::size_t k)
{
    MrcScenarioConfig ct = c;
    ct.transport = list[k];
    ct.transports = list;
    ct.options["transport"] = list[k];
    ct.profile = o.profile.empty() ? MrcScenarios::DefaultProfile(list[k]) : o.profile;
    ct.tagFabricSeries = true; // every row of timeseries.csv names its transport
    if (list.size() > 1 && c.pcap)
    {
        // --pcap: each transport's captures in its own subfolder (OUT/roce/mrc-host0-0.pcap),
        // created now, as the files are opened while the fabric is built.
        ct.pcapDir = (std::filesystem::path(c.pcapDir) / list[k]).string() + "/";
        std::error_code ec;
        std::filesystem::create_directories(ct.pcapDir, ec);
        if (ec)
        {
            MrcCommandLine::Fail("--out='" + MrcParse::Printable(c.pcapDir) +
                                 "': cannot create the pcap folder " + ct.pcapDir);
        }
    }
    if (!c.sameFabric && !MrcTransportTable::Get(list[k]).usesAllPlanes && c.topology.planes > 1 &&
        !c.graph)
    {
        // The same NIC bandwidth on one plane.
        const uint64_t p = c.topology.planes;
        ct.topology.planes = 1;
        ct.topology.hostRate = DataRate(c.topology.hostRate.GetBitRate() * p);
        ct.topology.fabricRate = DataRate(c.topology.fabricRate.GetBitRate() * p);
        ct.topology.coreRate = DataRate(c.topology.coreRate.GetBitRate() * p);
    }
    return ct;
}

/// Print the MRC/UEC figures, completion times and the victim flow of summary.json.
void
PrintNamedFigures(const MrcRunResults& shared)
{
    for (const auto& [key, value] : shared.GetInfo().options)
    {
        if (key.find("mrc") != std::string::npos || key.find("uec") != std::string::npos ||
            key.find("CompletionNs") != std::string::npos ||
            key.find("victimFlow") != std::string::npos)
        {
            std::cout << key << " " << value << "\n";
        }
    }
}

/// Write the benchmark figures of the run as one JSON object.
void
WriteBenchJson(const std::string& file,
               const std::string& scenario,
               const BenchFigures& b,
               bool allDone,
               double wall)
{
    std::ofstream js(file);
    if (!js)
    {
        MrcCommandLine::Fail("--benchJson='" + file + "': cannot write the file");
    }
    const double run = b.runWall;
    const double cpu = b.runCpu;
    js << "{\"scenario\": " << MrcResultsWriter::JsonString(scenario) << ", \"hosts\": " << b.hosts
       << ", \"messages\": " << b.messages << ", \"allCompleted\": " << (allDone ? "true" : "false")
       << ", \"simulatedNs\": " << Simulator::Now().GetNanoSeconds()
       << ", \"eventsExecuted\": " << b.events << ", \"packetHops\": " << b.hops
       << ", \"setupWallSeconds\": " << MrcResultsWriter::FormatFixed(b.buildWall, 3)
       << ", \"runWallSeconds\": " << MrcResultsWriter::FormatFixed(run, 3)
       << ", \"runCpuSeconds\": " << MrcResultsWriter::FormatFixed(cpu, 3)
       << ", \"totalWallSeconds\": " << MrcResultsWriter::FormatFixed(wall, 3)
       << ", \"peakRssKb\": " << MrcScenarioReport::PeakRssKb()
       << ", \"hopsPerWallSecond\": " << MrcResultsWriter::FormatFixed(b.hops / run, 0)
       << ", \"eventsPerWallSecond\": " << MrcResultsWriter::FormatFixed(b.events / run, 0)
       << ", \"hopsPerCpuSecond\": " << MrcResultsWriter::FormatFixed(b.hops / cpu, 0)
       << ", \"eventsPerCpuSecond\": " << MrcResultsWriter::FormatFixed(b.events / cpu, 0) << "}\n";
}

/// Add one transport's run to the figures of the whole mrc-sim run.
void
AddRunFigures(BenchFigures& bench, const MrcScenarioRunner& runner)
{
    bench.buildWall += runner.GetBuildWallSeconds();
    bench.runWall += runner.GetRunWallSeconds();
    bench.runCpu += runner.GetRunCpuSeconds();
    bench.hops += runner.GetPacketHops();
    bench.events += runner.GetEvents();
    bench.messages += runner.GetNMessages();
    bench.hosts = runner.GetTopology()->GetNHosts();
}

/**
 * Build and run each transport of the list in turn, each on a fresh fabric, into the shared
 * results; a signal stops after the transport it interrupted.
 * \param scenario the scenario's name (for the progress line)
 * \param c the scenario's settings
 * \param o the options
 * \param shared the results all transports add to
 * \param log the event log all transports add to
 * \param bench the figures summed over the transports
 * \return the runner of the last transport run (it writes the result files)
 */
std::unique_ptr<MrcScenarioRunner>
RunTransports(const std::string& scenario,
              const MrcScenarioConfig& c,
              const MrcScenarioOptions& o,
              MrcRunResults& shared,
              Ptr<MrcEventLog> log,
              BenchFigures& bench,
              MrcFlowStream* stream)
{
    const std::vector<std::string> list =
        c.transports.empty() ? std::vector<std::string>{c.transport} : c.transports;
    std::unique_ptr<MrcScenarioRunner> runner;
    for (std::size_t k = 0; k < list.size(); ++k)
    {
        if (k > 0)
        {
            // A fresh fabric: no object, attribute default or name of the previous run.
            runner.reset();
            Simulator::Destroy();
            MrcMpi::EndRun();
            Config::Reset();
            BindScheduler();
        }
        else if (c.ranks > 0)
        {
            // ns-3 records every Time made before the first run; MrcScenarioRunner::Build
            // ends that itself, but not with --ranks, whose core synchronizes the ranks at
            // every Run: each rank ends it here, alone, before the distributed core is bound.
            MrcEndTimeRecordsBeforeCoreChange();
        }
        MrcMpi::BeginRun(c.nullMessages); // a distributed run: ns-3's MPI engine
        const MrcScenarioConfig ct = TransportConfig(c, o, list, k);
        runner = std::make_unique<MrcScenarioRunner>(ct);
        runner->SetSharedResults(&shared, log);
        runner->SetKeepMessages(false); // a finished message keeps only its flow record
        runner->SetFlowStream(stream);  // which is written out when the message ends
        runner->Build();
        if (g_interrupt)
        {
            Simulator::Stop(Time(0)); // interrupted while building: run nothing
        }
        g_running = 1;
        runner->Run();
        g_running = 0;
        AddRunFigures(bench, *runner);
        if (MrcMpi::GetRank() > 0)
        {
            continue; // rank 0 speaks for the run
        }
        std::cout << "scenario " << scenario << " (" << ct.transport << ", profile " << ct.profile
                  << ", " << bench.hosts << " hosts, " << ct.topology.planes << " plane(s), seed "
                  << c.seed << "): simulated " << Simulator::Now().GetMicroSeconds() << " us in "
                  << MrcResultsWriter::FormatFixed(runner->GetBuildWallSeconds() +
                                                       runner->GetRunWallSeconds(),
                                                   2)
                  << " s\n";
        if (g_interrupt)
        {
            break; // the transports after it do not run
        }
    }
    return runner;
}

/**
 * Say on stderr why the run ends with a non-zero exit code (a signal, or messages that did
 * not complete), if it does.
 * \param shared the results of the run
 * \param o the options
 * \param out the result folder
 * \return true if every message completed
 */
bool
ReportCompletion(const MrcRunResults& shared, const MrcScenarioOptions& o, const std::string& out)
{
    uint64_t messages = 0;
    uint64_t notDone = 0;
    for (const MrcTransportSummary& s : shared.Summarize())
    {
        messages += s.messages;
        notDone += s.messages - s.completed;
    }
    const bool allDone = notDone == 0;
    if (g_interrupt)
    {
        std::cerr << "mrc-sim: interrupted by signal " << g_interrupt << " at "
                  << Simulator::Now().GetMicroSeconds() << " us simulated; the result files in "
                  << out << " hold the simulated time reached (exit code " << 128 + g_interrupt
                  << ")\n";
    }
    else if (!allDone)
    {
        std::cerr << "mrc-sim: " << notDone << " of " << messages
                  << " messages did not complete within --simTime=" << o.simTime
                  << "; the result files are written (exit code 1)\n";
    }
    return allDone;
}

/**
 * A run split over ranks: the ranks' results, flow parts and event records to rank 0,
 * which adds them to its own. Every rank calls it.
 * \param shared this rank's results
 * \param stream this rank's flow stream
 * \param log this rank's event log
 * \param transports the transports, in the order they ran (--transports)
 */
void
MergeRanks(MrcRunResults& shared,
           MrcFlowStream& stream,
           Ptr<MrcEventLog> log,
           const std::vector<std::string>& transports)
{
    const std::vector<std::string> figures = MrcMpi::GatherToRoot(shared.PackRankFigures());
    const std::vector<std::string> parts = MrcMpi::GatherToRoot(stream.PackParts());
    const std::vector<std::string> samples = MrcMpi::GatherToRoot(shared.PackRankSamples());
    // Event records only a node's own rank makes (failures are recorded by every rank).
    std::ostringstream mine;
    for (const MrcEventRecord& e : log->GetRecords())
    {
        if (MrcMpi::GetRank() > 0 && (e.kind == MrcEventKind::EV_STATE ||
                                      e.kind == MrcEventKind::QP_ERROR || e.kind == "flow_stall"))
        {
            mine << e.time.GetTimeStep() << '\t' << e.kind << '\t' << e.where << '\t' << e.detail
                 << '\t' << e.transport << '\n';
        }
    }
    const std::vector<std::string> events = MrcMpi::GatherToRoot(mine.str());
    if (MrcMpi::GetRank() > 0)
    {
        return;
    }
    for (std::size_t r = 1; r < figures.size(); ++r)
    {
        shared.AddRankFigures(figures[r]);
        shared.AddRankSamples(samples[r]);
    }
    shared.SortSamplesByOrder(); // the order of one process (MrcScenarioSeries::SetSplit)
    stream.MergeParts(std::vector<std::string>(parts.begin() + 1, parts.end()));
    std::vector<MrcEventRecord> all = log->GetRecords();
    for (std::size_t r = 1; r < events.size(); ++r)
    {
        std::istringstream is(events[r]);
        for (std::string line; std::getline(is, line);)
        {
            std::vector<std::string> f;
            std::size_t at = 0;
            for (int k = 0; k < 4; ++k)
            {
                const std::size_t tab = line.find('\t', at);
                f.push_back(line.substr(at, tab - at));
                at = tab + 1;
            }
            f.push_back(line.substr(at));
            all.push_back({TimeStep(std::stoll(f[0])), f[1], f[2], f[3], f[4]});
        }
    }
    // The order of one process: by time, then transport (the order they ran in), then the
    // flow_stall records after the others (written at the end of each transport's run, in
    // the order time, message: MrcStallTracker::CloseOpen); records of other kinds of the
    // same time and transport keep their order (rank 0's, then the other ranks').
    auto key = [&transports](const MrcEventRecord& e) {
        const auto t = std::find(transports.begin(), transports.end(), e.transport);
        const bool stall = e.kind == "flow_stall";
        const uint64_t flow =
            stall && e.where.size() > 4 ? std::stoull(e.where.substr(4)) : uint64_t{0};
        return std::make_tuple(e.time,
                               t == transports.end() ? 0 : t - transports.begin(),
                               stall,
                               flow);
    };
    std::stable_sort(
        all.begin(),
        all.end(),
        [&key](const MrcEventRecord& a, const MrcEventRecord& b) { return key(a) < key(b); });
    log->Clear();
    for (const MrcEventRecord& e : all)
    {
        log->Record(e.time, e.kind, e.where, e.detail, e.transport);
    }
    shared.SortPfcLog();
}

/**
 * Under mpirun without --ranks: the split over the ranks mpirun started.
 * \param c the settings
 */
void
TakeRanksFromLaunch(MrcScenarioConfig& c)
{
    if (MrcMpi::IsDistributed() && c.ranks == 0)
    {
        c.ranks = MrcMpi::GetSize();
    }
}

/**
 * Check --ranks against the ranks mpirun started (after the option checks, which name a
 * --ranks the fabric or the pattern cannot take).
 * \param c the settings
 */
void
CheckRanksAgainstLaunch(const MrcScenarioConfig& c)
{
    const uint32_t size = MrcMpi::GetSize();
    if (c.ranks > 1 && c.ranks != size)
    {
        MrcCommandLine::Fail(
            "invalid value for --ranks=" + std::to_string(c.ranks) + ": " +
            (MrcMpi::IsDistributed() ? "mpirun started " + std::to_string(size) + " ranks"
                                     : std::string("this process is not one of an MPI run")) +
            " (run it as mpirun -np " + std::to_string(c.ranks) +
            " mrc-sim ..., or ./ns3-mrc run --ranks=" + std::to_string(c.ranks) + " ...)");
    }
}

} // namespace

int
MrcSimMain(int argc, char* argv[])
{
    const auto start = std::chrono::steady_clock::now();
    const std::string noMpi = MrcMpi::Initialize(&argc, &argv);
    if (!noMpi.empty())
    {
        MrcCommandLine::Fail(noMpi);
    }
    std::vector<char*> args(argv, argv + argc);
    MapShortHelp(args);
    std::string scenario;
    if (TakeScenario(args, scenario))
    {
        MrcScenarios::PrintList(std::cout);
        return 0;
    }
    MrcScenarioOptions o;
    ParseOptions(scenario, args, o);
    MrcScenarioConfig c = o.ToConfig();
    c.attributeOverrides = AttributeOverrides(args);
    TakeRanksFromLaunch(c);
    if (c.ranks > 0)
    {
        g_canonicalOrder = true;
        BindScheduler();
    }
    if (MrcMpi::GetRank() > 0)
    {
        c.progress = false; // rank 0 reports progress
    }
    for (const std::string& e :
         {MrcScenarioOptions::CheckFrameSizes(c), MrcScenarioOptions::CheckRunSettings(c)})
    {
        if (!e.empty())
        {
            MrcCommandLine::Fail(e);
        }
    }
    CheckRanksAgainstLaunch(c);
    const std::string out = o.out.empty() ? "results/" + scenario + "/" : o.out;
    c.pcapDir = out;
    // Every check is done before the first fabric is built: a bad --out ends the run here,
    // not after the simulation (the pcap files are opened at build time, in it too).
    CheckOutputFolder(out, c);
    if (o.checkOnly)
    {
        std::cout << "mrc-sim: options, input files and --out checked\n";
        return 0;
    }
    std::signal(SIGINT, OnInterrupt);
    std::signal(SIGTERM, OnInterrupt);

    MrcRunResults shared;
    Ptr<MrcEventLog> log = CreateObject<MrcEventLog>();
    BenchFigures bench;
    MrcFlowStream stream(out); // flows.csv and fct.txt, written as messages end
    stream.SetSplit(c.ranks > 1);
    std::unique_ptr<MrcScenarioRunner> runner =
        RunTransports(scenario, c, o, shared, log, bench, &stream);
    if (MrcMpi::IsDistributed())
    {
        // each rank's own figures (the engine's cost of the split), on stderr
        std::ostringstream line; // one write: the ranks share stderr
        line << "mrc-sim: rank " << MrcMpi::GetRank() << " of " << MrcMpi::GetSize() << ": run "
             << MrcResultsWriter::FormatFixed(bench.runWall, 2) << " s wall, "
             << MrcResultsWriter::FormatFixed(bench.runCpu, 2) << " s CPU, " << bench.events
             << " events, " << MrcMpi::GetFramesSent() << " frames sent to other ranks, "
             << MrcMpi::GetFramesReceived() << " received, " << MrcMpi::GetSyncRounds()
             << " synchronization rounds (" << MrcMpi::GetSyncRoundsInFlight()
             << " with frames in flight), " << MrcMpi::GetNullMessagesSent()
             << " null messages sent, peak RSS " << MrcScenarioReport::PeakRssKb() << " KiB\n";
        std::cerr << line.str() << std::flush;
        // the run's figures (collective calls: every rank), in summary.json's "host"
        MrcRunInfo& info = shared.GetInfo();
        info.mpiRanks = MrcMpi::GetSize();
        info.mpiSync = c.nullMessages ? "null" : "granted";
        info.syncRounds = MrcMpi::GetSyncRounds();
        info.syncRoundsInFlight = MrcMpi::GetSyncRoundsInFlight();
        info.nullMessages = MrcMpi::SumOverRanks(MrcMpi::GetNullMessagesSent());
        info.framesBetweenRanks = MrcMpi::SumOverRanks(MrcMpi::GetFramesSent());
        if (MrcMpi::GetRank() == 0)
        {
            std::cout << "mpi: " << info.mpiRanks << " ranks, "
                      << (c.nullMessages ? "null messages: " : "granted time windows: ")
                      << info.syncRounds << " synchronization rounds (" << info.syncRoundsInFlight
                      << " with frames in flight), " << info.nullMessages << " null messages, "
                      << info.framesBetweenRanks << " frames between ranks\n";
        }
    }
    if (c.ranks > 0)
    {
        MergeRanks(shared, stream, runner->GetEventLog(), c.transports);
    }
    if (MrcMpi::GetRank() > 0)
    {
        Simulator::Destroy();
        MrcMpi::Finalize();
        return g_interrupt ? 128 + g_interrupt : 0; // rank 0 writes the files and the exit code
    }
    runner->Write(out);
    MrcResultsWriter::PrintTable(shared, std::cout);
    PrintNamedFigures(shared);
    std::cout << "files: " << out << "\n";

    const bool allDone = ReportCompletion(shared, o, out);
    if (!o.benchJson.empty())
    {
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        WriteBenchJson(o.benchJson, scenario, bench, allDone, wall);
    }
    Simulator::Destroy();
    MrcMpi::Finalize();
    if (g_interrupt)
    {
        return 128 + g_interrupt;
    }
    return allDone ? 0 : 1;
}

} // namespace ns3
