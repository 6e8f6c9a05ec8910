/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Cost of building the MRC-style 8-plane, 1024-host 2-tier Clos (32 hosts per T0, 32 T0 and
// 16 T1 per plane, with SRv6 tables and ECMP routes): wall time and peak resident memory
// and CPU time (getrusage), printed as text and as one JSON line; --json=FILE also writes the JSON
// there.

#include "ns3/core-module.h"
#include "ns3/mrc-command-line.h"
#include "ns3/mrc-topology-helper.h"

#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>
#include <sys/resource.h>

using namespace ns3;

namespace
{

/// \return peak resident set size of the process in KiB
long
PeakRssKib()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
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
Seconds(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string json = "";
    MrcCommandLine cmd(__FILE__);
    cmd.Usage("Time and memory of building the 8-plane 1024-host Clos.");
    cmd.AddValue("json", "also write the JSON line to this file", json);
    cmd.Parse(argc, argv);

    MrcTopologyConfig c;
    c.planes = 8;
    c.hosts = 1024;
    c.hostsPerT0 = 32;
    c.t1PerPlane = 16;
    const long rssBefore = PeakRssKib();
    const double cpu0 = CpuSeconds();
    auto t0 = std::chrono::steady_clock::now();
    MrcTopologyHelper helper(c);
    Ptr<MrcTopology> t = helper.Build();
    auto t1 = std::chrono::steady_clock::now();
    const double cpuBuild = CpuSeconds() - cpu0;
    const long rssBuilt = PeakRssKib();
    std::vector<MrcPath> paths = t->GetAllPaths(0, 1023);
    auto t2 = std::chrono::steady_clock::now();
    const Time rtt = t->GetBaseRtt(4096);
    auto t3 = std::chrono::steady_clock::now();
    // path sets from every host to host 1023 and back, all planes (distances cached per T0)
    std::size_t manyPaths = 0;
    for (uint32_t h = 0; h < 1023; ++h)
    {
        manyPaths += t->GetAllPaths(h, 1023).size() + t->GetAllPaths(1023, h).size();
    }
    auto t4 = std::chrono::steady_clock::now();

    std::cout << "8-plane 1024-host Clos: " << t->GetNSwitches() << " switches, " << t->GetNLinks()
              << " links\n"
              << "build wall time: " << Seconds(t0, t1) << " s (CPU " << cpuBuild << " s)\n"
              << "peak RSS after build: " << rssBuilt / 1024.0
              << " MiB (before: " << rssBefore / 1024.0 << " MiB)\n"
              << "paths host0 -> host1023 (all planes): " << paths.size() << " in "
              << Seconds(t1, t2) * 1e3 << " ms\n"
              << "base RTT (mtu 4096): " << rtt.GetNanoSeconds() << " ns in "
              << Seconds(t2, t3) * 1e3 << " ms\n"
              << "path sets host h <-> host 1023, all h and planes: " << manyPaths << " paths in "
              << Seconds(t3, t4) * 1e3 << " ms (" << Seconds(t3, t4) / (2 * 1023 * 8) * 1e6
              << " us per pair and plane)\n";
    std::ostringstream js;
    js << "{\"schema\": 1, \"benchmark\": \"topology-build\", \"planes\": 8, \"hosts\": 1024, "
       << "\"switches\": " << t->GetNSwitches() << ", \"links\": " << t->GetNLinks()
       << ", \"buildSeconds\": " << Seconds(t0, t1) << ", \"buildCpuSeconds\": " << cpuBuild
       << ", \"peakRssKib\": " << rssBuilt << ", \"pathsHost0ToLast\": " << paths.size()
       << ", \"pathSeconds\": " << Seconds(t1, t2)
       << ", \"usPerPairAndPlane\": " << Seconds(t3, t4) / (2 * 1023 * 8) * 1e6
       << ", \"baseRttNs\": " << rtt.GetNanoSeconds() << "}";
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
    return 0;
}
