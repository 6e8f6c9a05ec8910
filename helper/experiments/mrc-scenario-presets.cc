/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-scenario-presets.h"

#include "mrc-command-line.h"
#include "mrc-scenario-options.h"
#include "mrc-transport-table.h"

#include "ns3/abort.h"

#include <sstream>

namespace ns3
{

namespace
{

/// A row of the scenario table.
struct PresetRow
{
    const char* name;        //!< scenario name
    const char* description; //!< one line for --list
    const char* options;     //!< option defaults, command-line syntax
};

/// The scenarios, in listing order: data only (what --list prints and the defaults each
/// one gives the options). --pattern is the traffic pattern, which no command line sets.
const PresetRow SCENARIOS[] = {
    {"permutation",
     "every host writes --bytes to a distinct random host (default 16-host Clos, 1 MB), "
     "roce, uec, then mrc",
     "--pattern=permutation --transports=roce,uec,mrc"},
    {"incast",
     "--senders hosts (default 8) write --bytes each to the last host",
     "--pattern=incast"},
    {"perm128-roce",
     "the benchmark: 128 hosts (8 T0 x 16, 8 T1, 100 Gb/s, 1 us), 128 x 2 MB permutation, "
     "RoCE DCQCN + PFC (roce-hpcc, 1000 B: the packets of the stock ns-3 reference)",
     "--pattern=permutation --hosts=128 --hostsPerT0=16 --t1PerPlane=8 --bytes=2000000 "
     "--profile=roce-hpcc --sampleInterval=0"},
    {"perm128-mrc",
     "the perm128 shape on 4 planes (128 hosts, 8 T0 x 16 and 8 T1 per plane, 100 Gb/s, "
     "1 us), 128 x 2 MB permutation, MRC (profile mrc)",
     "--pattern=permutation --transport=mrc --planes=4 --hosts=128 --hostsPerT0=16 "
     "--t1PerPlane=8 --bytes=2000000 --sampleInterval=0"},
    {"perm128-uec",
     "the perm128 shape (128 hosts, 8 T0 x 16, 8 T1, 100 Gb/s, 1 us), 128 x 2 MB "
     "permutation, UEC (profile uec-htsim: 4096 B, spraying, trimming, NSCC)",
     "--pattern=permutation --transport=uec --hosts=128 --hostsPerT0=16 --t1PerPlane=8 "
     "--bytes=2000000 --sampleInterval=0"},
    {"compare",
     "roce, uec, then mrc, same seed and permutation of 8 MB per host over 32 hosts, "
     "same NIC bandwidth: mrc on 4 planes x 100 Gb/s, roce and uec on one 400 Gb/s "
     "plane (--sameFabric=1: all on the 4 planes)",
     "--pattern=permutation --transports=roce,uec,mrc --sameFabric=0 --planes=4 --hosts=32 "
     "--bytes=8000000"},
    {"incast-victim",
     "--senders (7) from other racks write --bytes (4 MB) to the last host (cross-spine); "
     "a victim flow from another rack into the receiver's rack shares the spine links "
     "(summary.json options.victimFlow)",
     "--pattern=incast-victim --transports=roce,uec,mrc --senders=7 --bytes=4000000"},
    {"alltoall",
     "every host writes --bytes (1 MB) to every other host, all at once, roce, uec, then "
     "mrc",
     "--pattern=alltoall --transports=roce,uec,mrc"},
    {"loss",
     "permutation of 8 hosts x 8 MB with --lossRate=0.01 random loss, roce, uec, then mrc",
     "--pattern=permutation --transports=roce,uec,mrc --hosts=8 --bytes=8000000 "
     "--lossRate=0.01 --simTime=100ms"},
    {"failover",
     "link p0-t0-0:p0-t1-0 fails at 150 us under a 20 MB permutation (8 hosts, 4 planes, "
     "2 T1 each), roce, uec, then mrc: mrc dips, roce QPs on the link stall",
     "--pattern=permutation --transports=roce,uec,mrc --planes=4 --hosts=8 --t1PerPlane=2 "
     "--bytes=20000000 --failLink=p0-t0-0:p0-t1-0 --failAt=150us --simTime=50ms"},
    {"reconverge",
     "mrc over hashed ECMP (--evFormat=structured): link p0-t0-0:p0-t1-0 fails at 150 us "
     "under a 200 MB permutation (8 hosts, 1 plane, 4 T1), routes reconverge "
     "MrcEcmpRouteManager::ConvergenceDelay (10 ms) later; --evFormat=srv6 for static "
     "source routes",
     "--pattern=permutation --transport=mrc --evFormat=structured --planes=1 --hosts=8 "
     "--hostsPerT0=4 --t1PerPlane=4 --hostRate=100Gbps --fabricRate=100Gbps "
     "--bytes=200000000 --failLink=p0-t0-0:p0-t1-0 --failAt=150us --simTime=100ms"},
    {"allreduce",
     "one ring all-reduce of --bytes (16 MB) over all hosts in --chunks (4) chunks per "
     "segment; completion time in summary.json (options.allreduceCompletionNs)",
     "--pattern=allreduce --transports=roce,uec,mrc --bytes=16000000 --chunks=4"},
    {"allgather",
     "one ring all-gather of --bytes (16 MB) over all hosts in --chunks (4) chunks per "
     "segment, n - 1 steps each waiting on the previous; completion time in summary.json "
     "(options.allgatherCompletionNs), roce, uec, then mrc",
     "--pattern=allgather --transports=roce,uec,mrc --bytes=16000000 --chunks=4"},
    {"flows",
     "Poisson arrivals for --duration (500 us) at --load (0.5) per host, sizes from --cdf "
     "(websearch), roce, uec, then mrc",
     "--pattern=flows --transports=roce,uec,mrc"},
    {"hpcc",
     "an HPCC/ConWeave topology and flow file (--topoFile, --flowFile; default the samples "
     "data/hpcc/topology.txt and flow.txt), roce with the HPCC simulator's settings "
     "(roce-hpcc, 1000 B)",
     "--pattern=file --topoFile=data/hpcc/topology.txt --flowFile=data/hpcc/flow.txt "
     "--profile=roce-hpcc --simTime=10s"},
    {"htsim",
     "an htsim connection matrix on an htsim fat tree (--flowFile=X.cm, --topoFile=X.topo; "
     "default the samples in data/htsim/), uec",
     "--pattern=file --transport=uec --topoFile=data/htsim/fattree-16.topo "
     "--flowFile=data/htsim/sample.cm --simTime=10s"},
};

} // namespace

std::string
MrcScenarios::ApplyPreset(const std::string& text, MrcScenarioOptions& o)
{
    MrcCommandLine cmd;
    o.Register(cmd);
    cmd.AddValue("pattern", "traffic pattern (presets only)", o.pattern);
    std::vector<std::string> args;
    std::istringstream words(text);
    for (std::string w; words >> w;)
    {
        args.push_back(w);
    }
    const std::string e = cmd.Check(args);
    if (!e.empty())
    {
        return e;
    }
    std::vector<char*> argv{const_cast<char*>("preset")};
    for (std::string& a : args)
    {
        argv.push_back(a.data());
    }
    cmd.GetCommandLine().Parse(static_cast<int>(argv.size()), argv.data());
    return "";
}

const std::vector<MrcScenarioInfo>&
MrcScenarios::GetAll()
{
    static const std::vector<MrcScenarioInfo> all = [] {
        std::vector<MrcScenarioInfo> v;
        for (const PresetRow& row : SCENARIOS)
        {
            MrcScenarioInfo info;
            info.name = row.name;
            info.description = row.description;
            info.options = row.options;
            const std::string name = info.name;
            const std::string text = info.options;
            info.preset = [name, text](MrcScenarioOptions& o) {
                const std::string e = ApplyPreset(text, o);
                NS_ABORT_MSG_IF(!e.empty(), "scenario " << name << ": bad preset: " << e);
            };
            v.push_back(info);
        }
        return v;
    }();
    return all;
}

const MrcScenarioInfo*
MrcScenarios::Find(const std::string& name)
{
    for (const auto& s : GetAll())
    {
        if (s.name == name)
        {
            return &s;
        }
    }
    return nullptr;
}

std::vector<std::string>
MrcScenarios::GetNames()
{
    std::vector<std::string> n;
    for (const auto& s : GetAll())
    {
        n.push_back(s.name);
    }
    return n;
}

std::vector<std::string>
MrcScenarios::GetTransports()
{
    return MrcTransportTable::GetNames();
}

std::string
MrcScenarios::DefaultProfile(const std::string& transport)
{
    return MrcTransportTable::Get(transport).defaultProfile;
}

void
MrcScenarios::PrintList(std::ostream& os)
{
    for (const auto& s : GetAll())
    {
        os << s.name << std::string(s.name.size() < 14 ? 14 - s.name.size() : 1, ' ')
           << s.description << "\n";
    }
}

} // namespace ns3
