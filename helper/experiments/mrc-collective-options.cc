/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-collective-options.h"

#include "ns3/mrc-input-error.h"

#include <map>
#include <regex>

namespace ns3
{

namespace
{

std::string
Bad(const std::string& name, const std::string& value, const std::string& what)
{
    return "--" + name + "='" + MrcParse::Printable(value) + "' " + what;
}

bool
Count(const std::string& s, uint32_t lo, uint32_t hi, uint32_t& out)
{
    return MrcParse::U32(s, out) && out >= lo && out <= hi;
}

bool
ParseTime(const std::string& s, Time& out)
{
    static const std::regex re("^[0-9]+(\\.[0-9]+)?(s|ms|us|ns|ps)$");
    if (s.size() > 40 || !std::regex_match(s, re))
    {
        return false;
    }
    out = Time(s);
    return true;
}

} // namespace

void
MrcCollectiveOptions::Register(MrcCommandLine& cmd)
{
    cmd.AddValue("trace",
                 "replay a communication trace: one line per collective or flow with "
                 "dependencies ('ID OP RANKS BYTES [key=value]' or 'ID flow SRC DST BYTES "
                 "[key=value]'; see the model chapter)",
                 trace);
    cmd.AddValue("collective",
                 "run jobs of a collective: allreduce, reducescatter, allgather or alltoall "
                 "(--bytes per rank; empty: none)",
                 collective);
    cmd.AddValue("algorithm", "--collective: ring or tree (tree: allreduce only)", algorithm);
    cmd.AddValue("channels",
                 "--collective: parallel rings (trees) over different peer orders, 1..64",
                 channels);
    cmd.AddValue("iterations", "--collective: times each job runs it", iterations);
    cmd.AddValue("computeGap",
                 "--collective: compute time between an iteration's end and the next start",
                 computeGap);
    cmd.AddValue("jobs", "--collective: jobs running it at once", jobs);
    cmd.AddValue("jobHosts",
                 "--collective: hosts per job (empty: all hosts / jobs); job j uses hosts "
                 "j*jobHosts .. (j+1)*jobHosts-1",
                 jobHosts);
    cmd.AddValue("exclusive",
                 "true: no two jobs may share a host (--jobs, a trace's job=J); false: jobs "
                 "are placed modulo the hosts",
                 exclusive);
    cmd.AddValue("background",
                 "--trace, --collective: also the Poisson flows of --cdf, --load, --duration "
                 "on all hosts",
                 background);
}

std::string
MrcCollectiveOptions::MakeJobs(const MrcScenarioConfig& c, std::vector<MrcTraceEntry>& out) const
{
    const uint32_t hosts = c.topology.GetHosts();
    MrcTraceEntry e;
    e.collective = true;
    if (!MrcParseCollectiveOp(collective, e.spec.op))
    {
        return Bad("collective",
                   collective,
                   "is not a collective (allowed: allreduce, reducescatter, allgather, alltoall)");
    }
    if (!MrcParseCollectiveAlgorithm(algorithm, e.spec.algorithm))
    {
        return Bad("algorithm", algorithm, "must be ring or tree");
    }
    if (!Count(channels, 1, 64, e.spec.channels))
    {
        return Bad("channels", channels, "must be an integer 1..64");
    }
    if (!Count(iterations, 1, 1000000, e.spec.iterations))
    {
        return Bad("iterations", iterations, "must be an integer 1..1000000");
    }
    if (!ParseTime(computeGap, e.spec.computeGap))
    {
        return Bad("computeGap", computeGap, "must be a time with its unit (e.g. 10us)");
    }
    uint32_t nJobs = 0;
    if (!Count(jobs, 1, 1000000, nJobs))
    {
        return Bad("jobs", jobs, "must be an integer 1..1000000");
    }
    uint32_t per = hosts / nJobs;
    if (!jobHosts.empty() && !Count(jobHosts, 2, UINT32_MAX, per))
    {
        return Bad("jobHosts", jobHosts, "must be an integer of at least 2");
    }
    const bool excl = exclusive == "true";
    if (per > hosts)
    {
        return Bad("jobHosts",
                   jobHosts,
                   "is more hosts than the fabric has (" + std::to_string(hosts) + ")");
    }
    if (per < 2)
    {
        return Bad("jobs",
                   jobs,
                   "leaves fewer than 2 hosts per job on " + std::to_string(hosts) + " hosts");
    }
    if (excl && uint64_t{nJobs} * per > hosts)
    {
        return Bad("jobs",
                   jobs,
                   "x --jobHosts=" + std::to_string(per) + " needs " +
                       std::to_string(uint64_t{nJobs} * per) + " hosts, the fabric has " +
                       std::to_string(hosts) +
                       " (jobs are exclusive; --exclusive=false lets them share hosts)");
    }
    e.spec.bytes = c.bytes;
    e.spec.chunks = c.chunks;
    for (uint32_t j = 0; j < nJobs; ++j)
    {
        MrcTraceEntry job = e;
        job.id = j;
        job.spec.job = j;
        job.spec.ranks.resize(per);
        for (uint32_t r = 0; r < per; ++r)
        {
            job.spec.ranks[r] = static_cast<uint32_t>((uint64_t{j} * per + r) % hosts);
        }
        const std::string err = MrcCollective::Check(job.spec);
        if (!err.empty())
        {
            return Bad("collective", collective, "cannot run: " + err);
        }
        out.push_back(std::move(job));
    }
    return "";
}

std::string
MrcCollectiveOptions::TryToConfig(MrcScenarioConfig& c) const
{
    if (exclusive != "true" && exclusive != "false")
    {
        return Bad("exclusive", exclusive, "must be true or false");
    }
    if (background != "true" && background != "false")
    {
        return Bad("background", background, "must be true or false");
    }
    if (!trace.empty() && !collective.empty())
    {
        return "--trace and --collective cannot be combined (a trace names its collectives)";
    }
    if (trace.empty() && collective.empty())
    {
        if (background == "true")
        {
            return Bad("background", background, "needs --trace or --collective");
        }
        return "";
    }
    if (!c.flowFile.empty())
    {
        return "--flowFile cannot be combined with --" +
               std::string(trace.empty() ? "collective" : "trace") +
               " (use --background=true for flows of a size distribution)";
    }
    const uint32_t hosts = c.topology.GetHosts();
    auto entries = std::make_shared<std::vector<MrcTraceEntry>>();
    if (!trace.empty())
    {
        try
        {
            *entries = MrcTraceReader::Load(trace);
        }
        catch (const MrcInputError& e)
        {
            return std::string("--trace: ") + e.what();
        }
        if (exclusive == "true")
        {
            std::map<uint32_t, const MrcTraceEntry*> owner; // host -> first collective on it
            for (const MrcTraceEntry& e : *entries)
            {
                for (uint32_t h : e.collective ? e.spec.ranks : std::vector<uint32_t>{})
                {
                    auto [it, fresh] = owner.emplace(h, &e);
                    if (!fresh && it->second->spec.job != e.spec.job)
                    {
                        return "--trace: " + trace + ":" + std::to_string(e.line) + ": host " +
                               std::to_string(h) + " of job " + std::to_string(e.spec.job) +
                               " is used by job " + std::to_string(it->second->spec.job) +
                               " (line " + std::to_string(it->second->line) +
                               "); jobs are exclusive (--exclusive=false lets them share)";
                    }
                }
            }
        }
        const std::string err = MrcTraceReader::CheckHosts(*entries, hosts, trace);
        if (!err.empty())
        {
            return "--trace: " + err;
        }
        c.options["trace"] = trace;
    }
    else
    {
        const std::string err = MakeJobs(c, *entries);
        if (!err.empty())
        {
            return err;
        }
        for (const auto& [k, v] : std::map<std::string, std::string>{{"collective", collective},
                                                                     {"algorithm", algorithm},
                                                                     {"channels", channels},
                                                                     {"iterations", iterations},
                                                                     {"computeGap", computeGap},
                                                                     {"jobs", jobs},
                                                                     {"jobHosts", jobHosts}})
        {
            c.options[k] = v;
        }
    }
    c.options["exclusive"] = exclusive;
    c.options["background"] = background;
    c.background = background == "true";
    c.trace = entries;
    c.pattern = "trace";
    return "";
}

} // namespace ns3
