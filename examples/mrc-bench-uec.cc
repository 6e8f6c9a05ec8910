/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// perm1024-uec: the size UEC simulators are compared at. 1024 hosts on a k = 16 3-tier
// fat-tree (100 Gb/s links, 1 us per link), every host writes one message (default 2 MiB)
// to a distinct host (a random derangement with a fixed seed), UEC RUD queue pairs with the
// uec-htsim profile (MTU 4096, trimming, NSCC, mixed spraying). Checks that every byte is
// placed exactly once and every Write completes, then prints wall time, CPU time, peak RSS,
// packet hops, events and FCT percentiles as text and one JSON line (--json=FILE also writes
// the JSON there). Exit code 1 if a check fails.

#include "ns3/core-module.h"
#include "ns3/mrc-command-line.h"
#include "ns3/mrc-memory-region.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-profiles.h"
#include "ns3/mrc-rdma-helper.h"
#include "ns3/mrc-switch-node.h"
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

double
Since(std::chrono::steady_clock::time_point a)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count();
}

/// Completion bookkeeping for all requesters.
struct Completions
{
    std::vector<int64_t> fctNs; //!< per flow, -1 until completed
    uint32_t done{0};           //!< completions seen
    uint32_t failed{0};         //!< completions with a status other than SUCCESS
    uint32_t repeated{0};       //!< a flow completing more than once

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
        fctNs[c.wrId] = Simulator::Now().GetNanoSeconds();
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

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t k = 16;
    uint64_t bytes = 2 * 1024 * 1024;
    uint32_t seed = 1;
    std::string json = "";
    MrcCommandLine cmd(__FILE__);
    cmd.Usage("perm1024-uec: a UEC permutation on a 3-tier fat-tree (k = 16: 1024 hosts), "
              "wall time, CPU time and peak memory.");
    cmd.AddValue("k", "fat-tree arity (even, >= 4): k^3/4 hosts", k);
    cmd.AddValue("bytes", "bytes each host writes", bytes);
    cmd.AddValue("seed", "RNG seed (permutation, spraying, ECMP)", seed);
    cmd.AddValue("json", "also write the JSON line to this file", json);
    cmd.Parse(argc, argv);
    if (k < 4 || k % 2 != 0 || k > 64)
    {
        MrcCommandLine::Fail("--k='" + std::to_string(k) + "' must be even and in [4, 64]");
    }
    if (bytes == 0 || bytes > (uint64_t{1} << 32))
    {
        MrcCommandLine::Fail("--bytes='" + std::to_string(bytes) + "' must be in [1, 2^32]");
    }
    if (seed == 0)
    {
        MrcCommandLine::Fail("--seed='0' must be at least 1");
    }
    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(1);

    const auto wall0 = std::chrono::steady_clock::now();
    const double cpu0 = CpuSeconds();

    MrcProfiles::Apply("uec-htsim");
    MrcTopologyConfig c;
    c.kind = MrcTopologyKind::FAT_TREE;
    c.k = k;
    c.hosts = 0;      // k^3/4
    c.hostsPerT0 = 0; // k/2: not oversubscribed
    MrcTopologyHelper th(c);
    th.SetNames(false);
    Ptr<MrcTopology> topo = th.Build();
    const uint32_t n = topo->GetNHosts();
    const uint64_t topoRss = PeakRssKib();

    MrcRdmaHelper rdma;
    rdma.SetQueuePairType("ns3::MrcUecQueuePair");
    for (uint32_t h = 0; h < n; ++h)
    {
        rdma.Install(topo->GetHost(h), topo->GetNicPort(h, 0), topo->GetAddress(h, 0));
    }
    const uint64_t nicRss = PeakRssKib();

    std::vector<uint32_t> hosts(n);
    for (uint32_t h = 0; h < n; ++h)
    {
        hosts[h] = h;
    }
    Ptr<MrcWorkloadGenerator> gen = CreateObject<MrcWorkloadGenerator>();
    gen->AssignStreams(1);
    const std::vector<MrcFlowSpec> flows = gen->Permutation(hosts, bytes, Seconds(0));

    Completions done;
    done.fctNs.assign(flows.size(), -1);
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
        if (!conn.requester->PostSend(wr))
        {
            MrcCommandLine::Fail("PostSend refused flow " + std::to_string(i));
        }
        // fixed EV stream per flow
        DynamicCast<MrcUecQueuePair>(conn.requester)
            ->GetEntropySelector()
            ->AssignStreams(1000 + 2 * static_cast<int64_t>(i));
        conns.push_back(conn);
    }
    const double setupWall = Since(wall0);
    const double setupCpu = CpuSeconds() - cpu0;
    const uint64_t setupRss = PeakRssKib();

    const auto run0 = std::chrono::steady_clock::now();
    const double runCpu0 = CpuSeconds();
    const uint64_t events0 = Simulator::GetEventCount();
    Simulator::Run();
    const double runWall = Since(run0);
    const double runCpu = CpuSeconds() - runCpu0;
    const uint64_t events = Simulator::GetEventCount() - events0;
    const int64_t simNs = Simulator::Now().GetNanoSeconds();

    // checks: every byte exactly once, every Write completed once and successfully
    uint32_t badRegions = 0;
    uint64_t timeouts = 0;
    uint64_t retransmits = 0;
    for (const auto& conn : conns)
    {
        if (!conn.region->IsExactlyOnce(conn.region->GetBase(), bytes) ||
            conn.region->GetBytesPlaced() != bytes || conn.region->GetDuplicateBytes() != 0)
        {
            ++badRegions;
        }
        timeouts += conn.requester->GetCounters().timeouts;
        retransmits += conn.requester->GetCounters().retransmittedPackets;
    }
    uint64_t hops = 0;
    for (uint32_t id = 0; id < topo->GetNLinks(); ++id)
    {
        const MrcTopologyLink& l = topo->GetLink(id);
        for (uint8_t cls = 0; cls < MrcNetDevice::N_CLASSES; ++cls)
        {
            hops += l.devA->GetTxPackets(cls) + l.devB->GetTxPackets(cls);
        }
    }
    uint64_t trims = 0;
    uint64_t drops = 0;
    for (uint32_t id = 0; id < topo->GetNSwitches(); ++id)
    {
        trims += topo->GetSwitchById(id)->GetTrimmedPackets();
        drops += topo->GetSwitchById(id)->GetTotalDropPackets();
    }
    std::vector<int64_t> fct;
    for (int64_t t : done.fctNs)
    {
        if (t >= 0)
        {
            fct.push_back(t);
        }
    }
    std::sort(fct.begin(), fct.end());
    const bool ok =
        badRegions == 0 && done.done == flows.size() && done.failed == 0 && done.repeated == 0;
    const double totalWall = Since(wall0);
    const double totalCpu = CpuSeconds() - cpu0;
    const uint64_t rss = PeakRssKib();

    std::cout << "perm1024-uec: k = " << k << " fat-tree, " << n << " hosts, "
              << topo->GetNSwitches() << " switches, " << topo->GetNLinks() << " links; "
              << flows.size() << " Writes of " << bytes << " B\n"
              << "setup: " << setupWall << " s wall, " << setupCpu << " s CPU, peak RSS "
              << setupRss / 1024.0 << " MiB (after the topology " << topoRss / 1024.0
              << ", after the NICs " << nicRss / 1024.0 << ")\n"
              << "run:   " << runWall << " s wall, " << runCpu << " s CPU, " << simNs / 1e3
              << " us simulated\n"
              << "total: " << totalWall << " s wall, " << totalCpu << " s CPU, peak RSS "
              << rss / 1024.0 << " MiB\n"
              << "packet hops " << hops << " (" << hops / runWall << " per wall s, "
              << hops / runCpu << " per CPU s), events " << events << " (" << events / runWall
              << " per wall s)\n"
              << "FCT p50 " << Quantile(fct, 0.5) / 1e3 << " us, p99 " << Quantile(fct, 0.99) / 1e3
              << " us, max " << (fct.empty() ? 0 : fct.back()) / 1e3 << " us\n"
              << "trims " << trims << ", drops " << drops << ", retransmissions " << retransmits
              << ", timeouts " << timeouts << "\n"
              << "exactly once: " << (flows.size() - badRegions) << "/" << flows.size()
              << " regions, completed " << done.done << "/" << flows.size() << " (" << done.failed
              << " failed, " << done.repeated << " repeated): " << (ok ? "OK" : "FAILED") << "\n";

    std::ostringstream js;
    js << "{\"scenario\": \"perm1024-uec\", \"k\": " << k << ", \"hosts\": " << n
       << ", \"messages\": " << flows.size() << ", \"bytesPerMessage\": " << bytes
       << ", \"seed\": " << seed << ", \"allCompleted\": " << (ok ? "true" : "false")
       << ", \"simulatedNs\": " << simNs << ", \"eventsExecuted\": " << events
       << ", \"packetHops\": " << hops << ", \"setupWallSeconds\": " << setupWall
       << ", \"runWallSeconds\": " << runWall << ", \"runCpuSeconds\": " << runCpu
       << ", \"totalWallSeconds\": " << totalWall << ", \"totalCpuSeconds\": " << totalCpu
       << ", \"topologyRssKb\": " << topoRss << ", \"setupRssKb\": " << setupRss
       << ", \"peakRssKb\": " << rss << ", \"hopsPerWallSecond\": " << hops / runWall
       << ", \"eventsPerWallSecond\": " << events / runWall
       << ", \"hopsPerCpuSecond\": " << hops / runCpu
       << ", \"eventsPerCpuSecond\": " << events / runCpu
       << ", \"fctP50Ns\": " << Quantile(fct, 0.5) << ", \"fctP99Ns\": " << Quantile(fct, 0.99)
       << ", \"fctMaxNs\": " << (fct.empty() ? 0 : fct.back()) << ", \"trims\": " << trims
       << ", \"drops\": " << drops << ", \"retransmissions\": " << retransmits
       << ", \"timeouts\": " << timeouts << "}";
    std::cout << js.str() << std::endl;
    if (!json.empty())
    {
        std::ofstream f(json);
        if (!f)
        {
            MrcCommandLine::Fail("--json='" + json + "': cannot write there");
        }
        f << js.str() << "\n";
    }
    Simulator::Destroy();
    return ok ? 0 : 1;
}
