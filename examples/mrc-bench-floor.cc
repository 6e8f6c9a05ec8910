/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// floor: the cost of ns-3's bare event loop, the floor under every simulated packet hop.
// A fixed number of events is kept pending (--pending, default 1,000, about what a
// 128-host run holds); each event, when it runs, schedules one successor at now + a
// delay from a fixed pseudo-random sequence (1 to 2 x --meanDelayNs), until --events
// events have run. Nothing else happens in an event, so the CPU time per event is what
// the scheduler and the simulator's dispatch cost (on mrc-sim's core, MrcSimulatorImpl;
// --core=ns3::DefaultSimulatorImpl for ns-3's). Run once per scheduler (--schedulers,
// default mrc-sim's MrcHeapScheduler and the four ns-3 has that scale: PriorityQueue, Map,
// Heap, Calendar); prints
// nanoseconds of CPU per event as text and one JSON line (--json=FILE also writes it).
// A simulated packet hop costs about 2.2 events in mrc-sim (`./ns3-mrc bench` prints the
// events per hop of each run), so its floor is about 2.2 times the figure here.
//
// The other floor under a hop is the memory: a hop reads some tens of cache lines of device,
// queue, wire, packet and transport state that the previous hops have usually pushed out of
// the core's caches. --memorySizes (MiB, default 1,8,256) measures what one such load costs
// on this machine now: a chain of 64-byte lines in a random order through a block of that
// size (huge pages where the kernel gives them, as mrc-sim's heap with
// GLIBC_TUNABLES=glibc.malloc.hugetlb=1), followed for --memoryLoads loads, each waiting for
// the one before (CPU ns per load). Small blocks stay in the caches, large ones are read
// from DRAM; a fabric whose state outgrows the last-level cache pays the difference on each
// cold line of a hop. The chain visits every line of the block once per round (checked:
// "cycleLines").

#include "ns3/core-module.h"
#include "ns3/mrc-command-line.h"

#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <vector>
#ifdef __linux__
#include <sys/mman.h>
#endif

using namespace ns3;

namespace
{

/// \return user + system CPU time of the process so far, in seconds
double
CpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_stime.tv_sec + 1e-6 * (u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

/// The benchmark's options.
struct FloorOptions
{
    uint32_t pending = 1000;     //!< events kept pending
    uint64_t events = 10000000;  //!< events to run per scheduler
    uint32_t meanDelayNs = 1000; //!< mean delay between an event and its successor
    std::string schedulers =
        "ns3::MrcHeapScheduler,ns3::PriorityQueueScheduler,ns3::MapScheduler,ns3::HeapScheduler,"
        "ns3::CalendarScheduler";
    std::string json = "";                      //!< also write the JSON line here
    std::string core = "ns3::MrcSimulatorImpl"; //!< the simulator core, as mrc-sim's
    std::string memorySizes = "1,8,256";        //!< MiB of each memory chain ("none": skip)
    uint64_t memoryLoads = 4000000;             //!< loads timed per chain
};

/// Where the last chain stopped (volatile: what the loads compute is used).
const void* volatile g_chainEnd = nullptr;

/// One memory chain: every 64-byte line of a block holds the address of the next line of a
/// random cyclic order through all of them.
class LoadChain
{
  public:
    /// \param mib the block's size in MiB
    explicit LoadChain(uint64_t mib)
        : m_lines(mib * 1024 * 1024 / sizeof(Line))
    {
        const std::size_t bytes = m_lines * sizeof(Line);
        void* p = nullptr;
        // 2 MiB alignment, so that the kernel can back the block with huge pages
        if (posix_memalign(&p, std::size_t{2} << 20, bytes) != 0 || p == nullptr)
        {
            MrcCommandLine::Fail("--memorySizes: cannot allocate " + std::to_string(mib) + " MiB");
        }
#ifdef __linux__
        madvise(p, bytes, MADV_HUGEPAGE); // a hint; without it the chain also walks pages
#endif
        m_block = static_cast<Line*>(p);
        // a random order of the lines (Fisher-Yates, xorshift64: the same order every run),
        // each line pointing to the next in that order and the last to the first
        std::vector<uint32_t> order(m_lines);
        for (std::size_t i = 0; i < m_lines; ++i)
        {
            order[i] = static_cast<uint32_t>(i);
        }
        uint64_t x = 0x9e3779b97f4a7c15ULL;
        for (std::size_t i = m_lines - 1; i > 0; --i)
        {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            std::swap(order[i], order[x % (i + 1)]);
        }
        for (std::size_t i = 0; i < m_lines; ++i)
        {
            m_block[order[i]].next = &m_block[order[(i + 1) % m_lines]];
        }
        m_at = m_block;
    }

    ~LoadChain()
    {
        std::free(m_block);
    }

    LoadChain(const LoadChain&) = delete;
    LoadChain& operator=(const LoadChain&) = delete;

    /// \return the lines followed from the first until it comes back (all of them)
    uint64_t CycleLines() const
    {
        uint64_t n = 1;
        for (const Line* l = m_block->next; l != m_block; l = l->next)
        {
            ++n;
        }
        return n;
    }

    /// \return the lines in the block
    uint64_t Lines() const
    {
        return m_lines;
    }

    /// Follow the chain: one round through the block (to warm it as far as it fits), then
    /// \p loads timed loads. \return CPU ns per timed load
    double Measure(uint64_t loads)
    {
        Follow(m_lines);
        const std::clock_t c0 = std::clock();
        Follow(loads);
        const std::clock_t c1 = std::clock();
        return 1e9 * static_cast<double>(c1 - c0) / CLOCKS_PER_SEC / static_cast<double>(loads);
    }

  private:
    /// A 64-byte line of the chain.
    struct Line
    {
        Line* next;                   //!< the next line in the chain
        char pad[64 - sizeof(Line*)]; //!< the rest of the line
    };

    /// \param loads loads to follow from where the chain stopped
    void Follow(uint64_t loads)
    {
        Line* l = m_at;
        for (uint64_t i = 0; i < loads; ++i)
        {
            l = l->next; // each load waits for the one before
        }
        m_at = l;
        g_chainEnd = l; // a volatile store: the loads happen, here, between the clock reads
    }

    std::size_t m_lines;    //!< lines in the block
    Line* m_block{nullptr}; //!< the block
    Line* m_at{nullptr};    //!< where the chain stopped
};

/// The chain of events: each one schedules its successor until the budget is spent.
class EventChain
{
  public:
    /// \param budget events to run \param meanDelayNs mean delay to the successor
    EventChain(uint64_t budget, uint32_t meanDelayNs)
        : m_budget(budget),
          m_span(2 * uint64_t{meanDelayNs})
    {
    }

    /// Schedule one more event (if the budget allows).
    void Next()
    {
        if (m_scheduled >= m_budget)
        {
            return;
        }
        ++m_scheduled;
        // xorshift64: a fixed sequence, the same for every scheduler
        m_state ^= m_state << 13;
        m_state ^= m_state >> 7;
        m_state ^= m_state << 17;
        Simulator::Schedule(NanoSeconds(1 + m_state % m_span), &EventChain::Next, this);
    }

  private:
    uint64_t m_budget;                       //!< events to schedule in all
    uint64_t m_span;                         //!< delays are 1 .. m_span ns
    uint64_t m_scheduled{0};                 //!< events scheduled so far
    uint64_t m_state{0x9e3779b97f4a7c15ULL}; //!< generator state
};

/// One scheduler's result.
struct FloorResult
{
    std::string scheduler; //!< its TypeId name
    uint64_t events{0};    //!< events executed
    double cpuSeconds{0};  //!< CPU time of Simulator::Run
};

/// \param o the options \param scheduler TypeId name \return its result
FloorResult
RunOne(const FloorOptions& o, const std::string& scheduler)
{
    ObjectFactory f;
    f.SetTypeId(scheduler);
    Simulator::SetScheduler(f);
    EventChain chain(o.events, o.meanDelayNs);
    for (uint32_t i = 0; i < o.pending; ++i)
    {
        chain.Next();
    }
    const uint64_t events0 = Simulator::GetEventCount();
    const double cpu0 = CpuSeconds();
    Simulator::Run();
    FloorResult r;
    r.scheduler = scheduler;
    r.cpuSeconds = CpuSeconds() - cpu0;
    r.events = Simulator::GetEventCount() - events0;
    Simulator::Destroy();
    return r;
}

} // namespace

int
main(int argc, char* argv[])
{
    FloorOptions o;
    MrcCommandLine cmd(__FILE__);
    cmd.Usage("floor: CPU time per event of ns-3's bare event loop, per scheduler.");
    cmd.AddValue("pending", "events kept pending (1 .. 10^7)", o.pending);
    cmd.AddValue("events", "events to run per scheduler (1 .. 10^10)", o.events);
    cmd.AddValue("meanDelayNs", "mean delay to the successor event, ns (>= 1)", o.meanDelayNs);
    cmd.AddValue("schedulers", "comma-separated scheduler TypeIds", o.schedulers);
    cmd.AddValue("json", "also write the JSON line to this file", o.json);
    cmd.AddValue("core",
                 "simulator core (SimulatorImplementationType): mrc-sim's ns3::MrcSimulatorImpl "
                 "or ns-3's ns3::DefaultSimulatorImpl",
                 o.core);
    cmd.AddValue("memorySizes",
                 "comma-separated block sizes in MiB (1 .. 65536) of the memory chains, or none",
                 o.memorySizes);
    cmd.AddValue("memoryLoads", "loads timed per memory chain (1000 .. 10^10)", o.memoryLoads);
    cmd.Parse(argc, argv);
    TypeId coreTid;
    if (!TypeId::LookupByNameFailSafe(o.core, &coreTid) ||
        !coreTid.IsChildOf(SimulatorImpl::GetTypeId()) || !coreTid.HasConstructor())
    {
        MrcCommandLine::Fail("--core='" + o.core +
                             "' is not a simulator core (allowed: ns3::MrcSimulatorImpl, "
                             "ns3::DefaultSimulatorImpl)");
    }
    GlobalValue::Bind("SimulatorImplementationType", StringValue(o.core));
    if (o.pending == 0 || o.pending > 10000000)
    {
        MrcCommandLine::Fail("--pending='" + std::to_string(o.pending) +
                             "' must be in [1, 10000000]");
    }
    if (o.events == 0 || o.events > 10000000000ULL || o.events < o.pending)
    {
        MrcCommandLine::Fail("--events='" + std::to_string(o.events) +
                             "' must be in [--pending, 10000000000]");
    }
    if (o.meanDelayNs == 0)
    {
        MrcCommandLine::Fail("--meanDelayNs='0' must be at least 1");
    }
    std::vector<std::string> names;
    std::istringstream ss(o.schedulers == "none" ? std::string() : o.schedulers);
    std::string name;
    while (std::getline(ss, name, ','))
    {
        TypeId tid;
        if (!TypeId::LookupByNameFailSafe(name, &tid) || !tid.IsChildOf(Scheduler::GetTypeId()))
        {
            MrcCommandLine::Fail("--schedulers: '" + name +
                                 "' is not an ns-3 scheduler (allowed: ns3::MrcHeapScheduler, "
                                 "ns3::PriorityQueueScheduler, "
                                 "ns3::MapScheduler, ns3::HeapScheduler, ns3::CalendarScheduler, "
                                 "ns3::ListScheduler)");
        }
        names.push_back(name);
    }
    if (names.empty() && o.schedulers != "none")
    {
        MrcCommandLine::Fail("--schedulers='" + o.schedulers +
                             "' names no scheduler (give TypeIds, or none)");
    }
    std::vector<uint64_t> sizes;
    std::istringstream ms(o.memorySizes == "none" ? std::string() : o.memorySizes);
    std::string size;
    while (std::getline(ms, size, ','))
    {
        const bool digits = !size.empty() && size.size() <= 5 &&
                            size.find_first_not_of("0123456789") == std::string::npos;
        const uint64_t mib = digits ? std::stoull(size) : 0;
        if (mib < 1 || mib > 65536)
        {
            MrcCommandLine::Fail("--memorySizes: '" + size +
                                 "' is not a block size (allowed: whole MiB, 1 .. 65536, "
                                 "comma-separated, or none)");
        }
        sizes.push_back(mib);
    }
    if (!o.memorySizes.empty() && o.memorySizes.back() == ',')
    {
        MrcCommandLine::Fail("--memorySizes='" + o.memorySizes +
                             "' ends with a comma (allowed: whole MiB, 1 .. 65536, "
                             "comma-separated, or none)");
    }
    if (sizes.empty() && o.memorySizes != "none")
    {
        MrcCommandLine::Fail("--memorySizes='" + o.memorySizes +
                             "' names no block size (give MiB, or none)");
    }
    if (o.memoryLoads < 1000 || o.memoryLoads > 10000000000ULL)
    {
        MrcCommandLine::Fail("--memoryLoads='" + std::to_string(o.memoryLoads) +
                             "' must be in [1000, 10000000000]");
    }
    if (names.empty() && sizes.empty())
    {
        MrcCommandLine::Fail("--schedulers=none and --memorySizes=none: nothing to measure");
    }

    std::ostringstream js;
    js << "{\"benchmark\": \"floor\", \"pending\": " << o.pending << ", \"events\": " << o.events
       << ", \"meanDelayNs\": " << o.meanDelayNs << ", \"core\": \"" << o.core
       << "\", \"schedulers\": {";
    if (!names.empty())
    {
        std::cout << "floor: " << o.pending << " events pending, " << o.events
                  << " events per scheduler (CPU time of Simulator::Run, core " << o.core << ")\n";
    }
    for (std::size_t i = 0; i < names.size(); ++i)
    {
        const FloorResult r = RunOne(o, names[i]);
        const double ns = 1e9 * r.cpuSeconds / static_cast<double>(r.events);
        std::cout << "  " << r.scheduler << ": " << ns << " ns per event (" << r.events
                  << " events, " << r.cpuSeconds << " s CPU)\n";
        js << (i ? ", " : "") << "\"" << r.scheduler << "\": {\"eventsExecuted\": " << r.events
           << ", \"runCpuSeconds\": " << r.cpuSeconds << ", \"cpuNsPerEvent\": " << ns << "}";
    }
    js << "}";
    if (!sizes.empty())
    {
        std::cout << "memory: CPU ns per load along a random chain of 64-byte lines through a "
                     "block, each load waiting for the one before ("
                  << o.memoryLoads << " loads per block)\n";
        js << ", \"memoryLoads\": " << o.memoryLoads << ", \"memory\": {";
        for (std::size_t i = 0; i < sizes.size(); ++i)
        {
            LoadChain chain(sizes[i]);
            const uint64_t cycle = chain.CycleLines();
            const double ns = chain.Measure(o.memoryLoads);
            std::cout << "  " << sizes[i] << " MiB: " << std::fixed << std::setprecision(1) << ns
                      << std::defaultfloat << " ns per load (" << chain.Lines()
                      << " lines, one cycle through " << cycle << ")\n";
            js << (i ? ", " : "") << "\"" << sizes[i] << "\": {\"lines\": " << chain.Lines()
               << ", \"cycleLines\": " << cycle << ", \"cpuNsPerLoad\": " << ns << "}";
        }
        js << "}";
    }
    js << "}";
    std::cout << js.str() << std::endl;
    if (!o.json.empty())
    {
        std::ofstream f(o.json);
        f << js.str() << "\n";
        if (!f)
        {
            MrcCommandLine::Fail("--json='" + o.json + "': cannot write there");
        }
    }
    return 0;
}
