/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Cost of building a multi-plane 2-tier Clos (default: the MRC-style 8-plane, 1024-host
// fabric, 32 hosts per T0, 32 T0 and 16 T1 per plane, with SRv6 tables and ECMP routes):
// wall time, CPU time and peak resident memory (getrusage), heap in use (mallinfo2), route
// entries, and bytes per host port and per switch, printed as text and as one JSON line;
// --json=FILE also writes the JSON there. --hosts, --planes, --hostsPerT0 and --t1PerPlane
// choose another shape (fabric-131k: 131072 hosts, 8 planes, 256, 256); the path and RTT
// timings run only on the default shape unless --paths=true. The simulator is run once (with
// no events) before the build, which stops ns-3's record of every Time object made before
// the first run (--startFirst=false keeps it, as a program that builds before Run pays it).

#include "ns3/core-module.h"
#include "ns3/mrc-command-line.h"
#include "ns3/mrc-dual-forwarding.h"
#include "ns3/mrc-topology-helper.h"

#include <chrono>
#include <fstream>
#include <iostream>
#include <malloc.h>
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

/// \return bytes the heap allocator has handed out and not got back
double
HeapBytes()
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 m = mallinfo2();
    return double(m.uordblks) + double(m.hblkhd);
#else
    return 0;
#endif
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
    std::string name = "topology-build";
    uint32_t hosts = 1024;
    uint32_t planes = 8;
    uint32_t hostsPerT0 = 32;
    uint32_t t1PerPlane = 16;
    std::string paths = "auto";
    bool startFirst = true;
    MrcCommandLine cmd(__FILE__);
    cmd.Usage("Time and memory of building a multi-plane Clos (default: 8 planes, 1024 hosts).");
    cmd.AddValue("json", "also write the JSON line to this file", json);
    cmd.AddValue("name", "benchmark name in the JSON", name);
    cmd.AddValue("hosts", "hosts", hosts);
    cmd.AddValue("planes", "planes", planes);
    cmd.AddValue("hostsPerT0", "hosts per T0", hostsPerT0);
    cmd.AddValue("t1PerPlane", "T1 switches per plane", t1PerPlane);
    cmd.AddValue("paths",
                 "time path sets and the base RTT too: true, false or auto (only on the "
                 "default shape)",
                 paths);
    cmd.AddValue("startFirst",
                 "run the (empty) simulator once before building: ns-3 keeps a record of every "
                 "Time object made before the first Simulator::Run (about 50 bytes each, some "
                 "20 per link end); false measures with those records",
                 startFirst);
    cmd.Parse(argc, argv);
    if (startFirst)
    {
        Simulator::Run(); // no events yet: returns at once, and Times are no longer recorded
    }

    MrcTopologyConfig c;
    c.planes = planes;
    c.hosts = hosts;
    c.hostsPerT0 = hostsPerT0;
    c.t1PerPlane = t1PerPlane;
    const bool defaultShape = hosts == 1024 && planes == 8 && hostsPerT0 == 32 && t1PerPlane == 16;
    const bool timePaths = paths == "true" || (paths == "auto" && defaultShape);
    const long rssBefore = PeakRssKib();
    const double heapBefore = HeapBytes();
    const double cpu0 = CpuSeconds();
    auto t0 = std::chrono::steady_clock::now();
    MrcTopologyHelper helper(c);
    Ptr<MrcTopology> t = helper.Build();
    auto t1 = std::chrono::steady_clock::now();
    const double cpuBuild = CpuSeconds() - cpu0;
    const long rssBuilt = PeakRssKib();
    const double heapBuilt = HeapBytes() - heapBefore;
    uint64_t routes = 0;
    uint32_t maxRoutes = 0;
    uint64_t routeBytes = 0;
    for (uint32_t id = 0; id < t->GetNSwitches(); ++id)
    {
        Ptr<MrcEcmpForwarding> e =
            DynamicCast<MrcDualForwarding>(t->GetSwitchById(id)->GetForwarding())->GetEcmp();
        routes += e->GetNRoutes();
        maxRoutes = std::max(maxRoutes, e->GetNRoutes());
        routeBytes += e->GetRouteBytes();
    }
    const double hostPorts = double(hosts) * planes;
    const double rssBytes = (rssBuilt - rssBefore) * 1024.0;
    std::cout << name << ": " << planes << "-plane " << hosts << "-host Clos (" << hostsPerT0
              << " hosts per T0, " << t1PerPlane << " T1 per plane): " << t->GetNSwitches()
              << " switches, " << t->GetNLinks() << " links, " << routes
              << " route entries (at most " << maxRoutes << " on a switch)\n"
              << "build wall time: " << Seconds(t0, t1) << " s (CPU " << cpuBuild << " s)\n"
              << "peak RSS after build: " << rssBuilt / 1024.0
              << " MiB (before: " << rssBefore / 1024.0 << " MiB); heap in use "
              << heapBuilt / 1048576.0 << " MiB\n"
              << "per host port (RSS growth / hosts x planes): " << rssBytes / hostPorts
              << " B; per switch: " << rssBytes / t->GetNSwitches()
              << " B; per link: " << rssBytes / t->GetNLinks()
              << " B; route tables: " << double(routeBytes) / t->GetNSwitches()
              << " B per switch\n";
    std::ostringstream js;
    js << "{\"schema\": 1, \"benchmark\": \"" << name << "\", \"planes\": " << planes
       << ", \"hosts\": " << hosts << ", \"hostsPerT0\": " << hostsPerT0
       << ", \"t1PerPlane\": " << t1PerPlane
       << ", \"startFirst\": " << (startFirst ? "true" : "false")
       << ", \"switches\": " << t->GetNSwitches() << ", \"links\": " << t->GetNLinks()
       << ", \"routeEntries\": " << routes << ", \"maxRouteEntries\": " << maxRoutes
       << ", \"routeTableBytes\": " << routeBytes << ", \"buildSeconds\": " << Seconds(t0, t1)
       << ", \"buildCpuSeconds\": " << cpuBuild << ", \"peakRssKib\": " << rssBuilt
       << ", \"heapBytes\": " << heapBuilt << ", \"bytesPerHostPort\": " << rssBytes / hostPorts
       << ", \"bytesPerSwitch\": " << rssBytes / t->GetNSwitches()
       << ", \"bytesPerLink\": " << rssBytes / t->GetNLinks();
    if (timePaths)
    {
        const uint32_t last = hosts - 1;
        std::vector<MrcPath> all = t->GetAllPaths(0, last);
        auto t2 = std::chrono::steady_clock::now();
        const Time rtt = t->GetBaseRtt(4096);
        auto t3 = std::chrono::steady_clock::now();
        // path sets from every host to the last host and back, all planes (distances
        // cached per T0)
        std::size_t manyPaths = 0;
        for (uint32_t h = 0; h < last; ++h)
        {
            manyPaths += t->GetAllPaths(h, last).size() + t->GetAllPaths(last, h).size();
        }
        auto t4 = std::chrono::steady_clock::now();
        const double perPair = Seconds(t3, t4) / (2.0 * last * planes) * 1e6;
        std::cout << "paths host0 -> host" << last << " (all planes): " << all.size() << " in "
                  << Seconds(t1, t2) * 1e3 << " ms\n"
                  << "base RTT (mtu 4096): " << rtt.GetNanoSeconds() << " ns in "
                  << Seconds(t2, t3) * 1e3 << " ms\n"
                  << "path sets host h <-> host " << last << ", all h and planes: " << manyPaths
                  << " paths in " << Seconds(t3, t4) * 1e3 << " ms (" << perPair
                  << " us per pair and plane)\n";
        js << ", \"pathsHost0ToLast\": " << all.size() << ", \"pathSeconds\": " << Seconds(t1, t2)
           << ", \"usPerPairAndPlane\": " << perPair << ", \"baseRttNs\": " << rtt.GetNanoSeconds();
    }
    js << "}";
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
