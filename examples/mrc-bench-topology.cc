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
#include "ns3/mrc-time-records.h"
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

/// The command-line options of the benchmark.
struct BenchOptions
{
    std::string json = "";
    std::string name = "topology-build";
    uint32_t hosts = 1024;
    uint32_t planes = 8;
    uint32_t hostsPerT0 = 32;
    uint32_t t1PerPlane = 16;
    std::string paths = "auto";
    bool startFirst = true;
};

/// \return the options given on the command line
BenchOptions
ParseOptions(int argc, char* argv[])
{
    BenchOptions o;
    MrcCommandLine cmd(__FILE__);
    cmd.Usage("Time and memory of building a multi-plane Clos (default: 8 planes, 1024 hosts).");
    cmd.AddValue("json", "also write the JSON line to this file", o.json);
    cmd.AddValue("name", "benchmark name in the JSON", o.name);
    cmd.AddValue("hosts", "hosts", o.hosts);
    cmd.AddValue("planes", "planes", o.planes);
    cmd.AddValue("hostsPerT0", "hosts per T0", o.hostsPerT0);
    cmd.AddValue("t1PerPlane", "T1 switches per plane", o.t1PerPlane);
    cmd.AddValue("paths",
                 "time path sets and the base RTT too: true, false or auto (only on the "
                 "default shape)",
                 o.paths);
    cmd.AddValue("startFirst",
                 "run the (empty) simulator once before building: ns-3 keeps a record of every "
                 "Time object made before the first Simulator::Run (about 50 bytes each, some "
                 "20 per link end); false measures with those records",
                 o.startFirst);
    cmd.Parse(argc, argv);
    return o;
}

/// What building the fabric cost.
struct BuildCost
{
    std::chrono::steady_clock::time_point t0; //!< build start
    std::chrono::steady_clock::time_point t1; //!< build end
    double cpu{0};                            //!< CPU seconds of the build
    long rssBefore{0};                        //!< peak RSS before the build, KiB
    long rssBuilt{0};                         //!< peak RSS after the build, KiB
    double heap{0};                           //!< heap growth of the build, bytes
};

/**
 * Build the fabric and measure it.
 * \param c the fabric's shape
 * \param cost the figures measured
 * \return the fabric
 */
Ptr<MrcTopology>
BuildMeasured(const MrcTopologyConfig& c, BuildCost& cost)
{
    cost.rssBefore = PeakRssKib();
    const double heapBefore = HeapBytes();
    const double cpu0 = CpuSeconds();
    cost.t0 = std::chrono::steady_clock::now();
    MrcTopologyHelper helper(c);
    Ptr<MrcTopology> t = helper.Build();
    cost.t1 = std::chrono::steady_clock::now();
    cost.cpu = CpuSeconds() - cpu0;
    cost.rssBuilt = PeakRssKib();
    cost.heap = HeapBytes() - heapBefore;
    return t;
}

/// The ECMP route entries over all switches.
struct RouteTotals
{
    uint64_t routes{0};     //!< entries on all switches
    uint32_t maxRoutes{0};  //!< entries on the switch with the most
    uint64_t routeBytes{0}; //!< bytes of all route tables
};

/// \return the route entries of every switch of t, summed
RouteTotals
CountRoutes(Ptr<MrcTopology> t)
{
    RouteTotals r;
    for (uint32_t id = 0; id < t->GetNSwitches(); ++id)
    {
        Ptr<MrcEcmpForwarding> e =
            DynamicCast<MrcDualForwarding>(t->GetSwitchById(id)->GetForwarding())->GetEcmp();
        r.routes += e->GetNRoutes();
        r.maxRoutes = std::max(r.maxRoutes, e->GetNRoutes());
        r.routeBytes += e->GetRouteBytes();
    }
    return r;
}

/**
 * Print the build figures as text and start the JSON object with them.
 * \param o the options
 * \param t the fabric
 * \param cost what building it cost
 * \param r its route entries
 * \param js the JSON object (left open for the path figures)
 */
void
ReportBuild(const BenchOptions& o,
            Ptr<MrcTopology> t,
            const BuildCost& cost,
            const RouteTotals& r,
            std::ostringstream& js)
{
    const double hostPorts = double(o.hosts) * o.planes;
    const double rssBytes = (cost.rssBuilt - cost.rssBefore) * 1024.0;
    std::cout << o.name << ": " << o.planes << "-plane " << o.hosts << "-host Clos ("
              << o.hostsPerT0 << " hosts per T0, " << o.t1PerPlane
              << " T1 per plane): " << t->GetNSwitches() << " switches, " << t->GetNLinks()
              << " links, " << r.routes << " route entries (at most " << r.maxRoutes
              << " on a switch)\n"
              << "build wall time: " << Seconds(cost.t0, cost.t1) << " s (CPU " << cost.cpu
              << " s)\n"
              << "peak RSS after build: " << cost.rssBuilt / 1024.0
              << " MiB (before: " << cost.rssBefore / 1024.0 << " MiB); heap in use "
              << cost.heap / 1048576.0 << " MiB\n"
              << "per host port (RSS growth / hosts x planes): " << rssBytes / hostPorts
              << " B; per switch: " << rssBytes / t->GetNSwitches()
              << " B; per link: " << rssBytes / t->GetNLinks()
              << " B; route tables: " << double(r.routeBytes) / t->GetNSwitches()
              << " B per switch\n";
    js << "{\"schema\": 1, \"benchmark\": \"" << o.name << "\", \"planes\": " << o.planes
       << ", \"hosts\": " << o.hosts << ", \"hostsPerT0\": " << o.hostsPerT0
       << ", \"t1PerPlane\": " << o.t1PerPlane
       << ", \"startFirst\": " << (o.startFirst ? "true" : "false")
       << ", \"switches\": " << t->GetNSwitches() << ", \"links\": " << t->GetNLinks()
       << ", \"routeEntries\": " << r.routes << ", \"maxRouteEntries\": " << r.maxRoutes
       << ", \"routeTableBytes\": " << r.routeBytes
       << ", \"buildSeconds\": " << Seconds(cost.t0, cost.t1)
       << ", \"buildCpuSeconds\": " << cost.cpu << ", \"peakRssKib\": " << cost.rssBuilt
       << ", \"heapBytes\": " << cost.heap << ", \"bytesPerHostPort\": " << rssBytes / hostPorts
       << ", \"bytesPerSwitch\": " << rssBytes / t->GetNSwitches()
       << ", \"bytesPerLink\": " << rssBytes / t->GetNLinks();
}

/**
 * Time the path sets and the base RTT, print them and add them to the JSON object.
 * \param o the options
 * \param t the fabric
 * \param built when the build ended (the first path set is timed from there)
 * \param js the JSON object
 */
void
TimePaths(const BenchOptions& o,
          Ptr<MrcTopology> t,
          std::chrono::steady_clock::time_point built,
          std::ostringstream& js)
{
    const uint32_t last = o.hosts - 1;
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
    const double perPair = Seconds(t3, t4) / (2.0 * last * o.planes) * 1e6;
    std::cout << "paths host0 -> host" << last << " (all planes): " << all.size() << " in "
              << Seconds(built, t2) * 1e3 << " ms\n"
              << "base RTT (mtu 4096): " << rtt.GetNanoSeconds() << " ns in "
              << Seconds(t2, t3) * 1e3 << " ms\n"
              << "path sets host h <-> host " << last << ", all h and planes: " << manyPaths
              << " paths in " << Seconds(t3, t4) * 1e3 << " ms (" << perPair
              << " us per pair and plane)\n";
    js << ", \"pathsHost0ToLast\": " << all.size() << ", \"pathSeconds\": " << Seconds(built, t2)
       << ", \"usPerPairAndPlane\": " << perPair << ", \"baseRttNs\": " << rtt.GetNanoSeconds();
}

} // namespace

int
main(int argc, char* argv[])
{
    const BenchOptions o = ParseOptions(argc, argv);
    if (o.startFirst)
    {
        MrcEndTimeRecords(); // no events yet: returns at once, and Times are no longer recorded
    }

    MrcTopologyConfig c;
    c.planes = o.planes;
    c.hosts = o.hosts;
    c.hostsPerT0 = o.hostsPerT0;
    c.t1PerPlane = o.t1PerPlane;
    const bool defaultShape =
        o.hosts == 1024 && o.planes == 8 && o.hostsPerT0 == 32 && o.t1PerPlane == 16;
    const bool timePaths = o.paths == "true" || (o.paths == "auto" && defaultShape);
    BuildCost cost;
    Ptr<MrcTopology> t = BuildMeasured(c, cost);
    std::ostringstream js;
    ReportBuild(o, t, cost, CountRoutes(t), js);
    if (timePaths)
    {
        TimePaths(o, t, cost.t1, js);
    }
    js << "}";
    std::cout << js.str() << std::endl;
    if (!o.json.empty())
    {
        std::ofstream f(o.json);
        if (!f)
        {
            MrcCommandLine::Fail("--json='" + o.json + "': cannot write there");
        }
        f << js.str() << "\n";
    }
    Simulator::Destroy();
    return 0;
}
