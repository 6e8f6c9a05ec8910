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

#include "ns3/core-module.h"
#include "ns3/mrc-command-line.h"

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <vector>

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
    std::istringstream ss(o.schedulers);
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
    if (names.empty())
    {
        MrcCommandLine::Fail("--schedulers='' names no scheduler");
    }

    std::ostringstream js;
    js << "{\"benchmark\": \"floor\", \"pending\": " << o.pending << ", \"events\": " << o.events
       << ", \"meanDelayNs\": " << o.meanDelayNs << ", \"core\": \"" << o.core
       << "\", \"schedulers\": {";
    std::cout << "floor: " << o.pending << " events pending, " << o.events
              << " events per scheduler (CPU time of Simulator::Run, core " << o.core << ")\n";
    for (std::size_t i = 0; i < names.size(); ++i)
    {
        const FloorResult r = RunOne(o, names[i]);
        const double ns = 1e9 * r.cpuSeconds / static_cast<double>(r.events);
        std::cout << "  " << r.scheduler << ": " << ns << " ns per event (" << r.events
                  << " events, " << r.cpuSeconds << " s CPU)\n";
        js << (i ? ", " : "") << "\"" << r.scheduler << "\": {\"eventsExecuted\": " << r.events
           << ", \"runCpuSeconds\": " << r.cpuSeconds << ", \"cpuNsPerEvent\": " << ns << "}";
    }
    js << "}}";
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
