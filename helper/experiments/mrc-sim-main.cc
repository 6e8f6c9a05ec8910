/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-sim-main.h"

#include "mrc-command-line.h"
#include "mrc-scenario-options.h"
#include "mrc-scenario-presets.h"
#include "mrc-scenario-report.h"
#include "mrc-scenario-runner.h"

#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/mrc-results-writer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

namespace ns3
{

namespace
{

/// ns-3's PriorityQueueScheduler (a binary heap over std::priority_queue) runs the
/// perm128-roce benchmark about 17% faster than the default MapScheduler with identical
/// results (events of equal time keep their insertion order); --SchedulerType=... still
/// chooses another one.
void
BindScheduler()
{
    GlobalValue::Bind("SchedulerType", StringValue("ns3::PriorityQueueScheduler"));
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
              "), print the summary table and write the result files.");
    o.Register(cmd);
    cmd.Parse(static_cast<int>(args.size()), args.data());
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
    ct.tagFabricSeries = list.size() > 1;
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

} // namespace

int
MrcSimMain(int argc, char* argv[])
{
    const auto start = std::chrono::steady_clock::now();
    std::vector<char*> args(argv, argv + argc);
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
    const std::string out = o.out.empty() ? "results/" + scenario + "/" : o.out;
    c.pcapDir = out;
    if (c.pcap)
    {
        // The pcap files are opened at build time: create the folder first.
        std::error_code ec;
        std::filesystem::create_directories(out, ec);
    }

    const std::vector<std::string> list =
        c.transports.empty() ? std::vector<std::string>{c.transport} : c.transports;
    MrcRunResults shared;
    Ptr<MrcEventLog> log = CreateObject<MrcEventLog>();
    std::unique_ptr<MrcScenarioRunner> runner;
    BenchFigures bench;
    for (std::size_t k = 0; k < list.size(); ++k)
    {
        if (k > 0)
        {
            // A fresh fabric: no object, attribute default or name of the previous run.
            runner.reset();
            Simulator::Destroy();
            Config::Reset();
            BindScheduler();
        }
        const MrcScenarioConfig ct = TransportConfig(c, o, list, k);
        runner = std::make_unique<MrcScenarioRunner>(ct);
        runner->SetSharedResults(&shared, log);
        runner->SetKeepMessages(false); // a finished message keeps only its flow record
        runner->Run();
        bench.buildWall += runner->GetBuildWallSeconds();
        bench.runWall += runner->GetRunWallSeconds();
        bench.runCpu += runner->GetRunCpuSeconds();
        bench.hops += runner->GetPacketHops();
        bench.events += runner->GetEvents();
        bench.messages += runner->GetNMessages();
        bench.hosts = runner->GetTopology()->GetNHosts();
        std::cout << "scenario " << scenario << " (" << ct.transport << ", profile " << ct.profile
                  << ", " << bench.hosts << " hosts, " << ct.topology.planes << " plane(s), seed "
                  << c.seed << "): simulated " << Simulator::Now().GetMicroSeconds() << " us in "
                  << MrcResultsWriter::FormatFixed(runner->GetBuildWallSeconds() +
                                                       runner->GetRunWallSeconds(),
                                                   2)
                  << " s\n";
    }
    runner->Write(out);
    MrcResultsWriter::PrintTable(shared, std::cout);
    PrintNamedFigures(shared);
    std::cout << "files: " << out << "\n";

    bool allDone = true;
    for (const auto& f : shared.GetFlows())
    {
        allDone = allDone && f.IsCompleted();
    }
    if (!o.benchJson.empty())
    {
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        WriteBenchJson(o.benchJson, scenario, bench, allDone, wall);
    }
    Simulator::Destroy();
    return allDone ? 0 : 1;
}

} // namespace ns3
