/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-scenario-inputs.h"

#include "ns3/abort.h"
#include "ns3/mrc-hpcc-input.h"
#include "ns3/mrc-input-error.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace ns3
{

namespace
{

/// \return rel found from the current folder or the executable's folder, looking up to
/// five folders upwards from each, then in the module's folder (MRC_MODULE_DIR, where the
/// build defines it); "" if it is nowhere
std::string
SearchUpwards(const std::filesystem::path& rel)
{
    namespace fs = std::filesystem;
    std::vector<fs::path> starts{fs::current_path()};
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec)
    {
        starts.push_back(exe.parent_path());
    }
    for (fs::path d : starts)
    {
        for (int up = 0; up < 6 && !d.empty(); ++up, d = d.parent_path())
        {
            if (fs::exists(d / rel))
            {
                return (d / rel).string();
            }
            if (d == d.parent_path())
            {
                break;
            }
        }
    }
#ifdef MRC_MODULE_DIR
    // Last, the module's own folder as it was at build time: in an ns-3 tree the programs live
    // in build/ and test.py runs them from the tree's root, neither of which is above
    // contrib/mrc/data.
    if (fs::exists(fs::path(MRC_MODULE_DIR) / rel))
    {
        return (fs::path(MRC_MODULE_DIR) / rel).string();
    }
#endif
    return "";
}

/// \return true if path ends with ext
bool
EndsWith(const std::string& path, const std::string& ext)
{
    return path.size() >= ext.size() &&
           path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
}

/// \return true if the second non-empty line of a flow file has 5 fields (ConWeave's
/// format, whose count on line 1 may be wrong: its traffic_gen.py overwrites the start
/// of an estimate in place, so the flow lines are counted instead)
bool
HasFiveFields(const std::string& file)
{
    std::ifstream in(file);
    std::string line;
    int seen = 0;
    while (seen < 2 && std::getline(in, line))
    {
        std::istringstream ls(line);
        std::string w;
        int n = 0;
        while (ls >> w)
        {
            ++n;
        }
        if (n > 0 && ++seen == 2)
        {
            return n == 5;
        }
    }
    return false;
}

/// \return "" if every host of g reaches every other over its links, else which do not
std::string
CheckConnected(const MrcTopologyGraph& g)
{
    const std::size_t n = g.isSwitch.size();
    std::vector<std::vector<uint32_t>> adj(n);
    for (const MrcGraphLink& l : g.links)
    {
        adj[l.a].push_back(l.b);
        adj[l.b].push_back(l.a);
    }
    int64_t first = -1;
    for (uint32_t v = 0; v < n && first < 0; ++v)
    {
        first = g.isSwitch[v] ? -1 : v;
    }
    if (first < 0)
    {
        return "";
    }
    std::vector<bool> seen(n, false);
    std::vector<uint32_t> todo{static_cast<uint32_t>(first)};
    seen[first] = true;
    while (!todo.empty())
    {
        const uint32_t v = todo.back();
        todo.pop_back();
        for (uint32_t w : adj[v])
        {
            if (!seen[w])
            {
                seen[w] = true;
                todo.push_back(w);
            }
        }
    }
    for (uint32_t v = 0; v < n; ++v)
    {
        if (!g.isSwitch[v] && !seen[v])
        {
            return "node " + std::to_string(v) + " (a host) has no path to node " +
                   std::to_string(first) + " (a host): the fabric is not connected";
        }
    }
    return "";
}

} // namespace

std::string
MrcScenarioInputs::FindDataFile(const std::string& rel)
{
    if (std::filesystem::exists(rel) || rel.empty() || rel[0] == '/')
    {
        return rel;
    }
    const std::string found = SearchUpwards(rel);
    return found.empty() ? rel : found;
}

std::string
MrcScenarioInputs::TryFindCdfFile(const std::string& name, std::string& path)
{
    if (name.find('/') != std::string::npos || std::filesystem::exists(name))
    {
        path = name;
        return "";
    }
    path = SearchUpwards(std::filesystem::path("data") / "cdf" / (name + ".txt"));
    if (path.empty())
    {
        return "--cdf='" + MrcParse::Printable(name) + "': no data/cdf/" +
               MrcParse::Printable(name) +
               ".txt found (allowed: websearch, fb-hadoop, alistorage2019, google-rpc2008, or a "
               "file path)";
    }
    return "";
}

std::string
MrcScenarioInputs::FindCdfFile(const std::string& name)
{
    std::string path;
    const std::string e = TryFindCdfFile(name, path);
    NS_ABORT_MSG_IF(!e.empty(), e);
    return path;
}

MrcTopologyGraph
MrcScenarioInputs::HtsimGraph(const MrcHtsimTopology& t, const MrcHtsimFatTreeShape& s)
{
    if (t.tiers == 2 && s.pods != 1)
    {
        throw MrcInputError(t.file,
                            t.podSizeLine,
                            "Podsize equal to Nodes = " + std::to_string(t.nodes) +
                                " in a 2-tier fabric (one pod)",
                            std::to_string(t.podSize));
    }
    const uint32_t nTor = s.pods * s.torsPerPod;
    const uint32_t nAgg = s.pods * s.aggsPerPod;
    const uint32_t tor0 = t.nodes;
    const uint32_t agg0 = tor0 + nTor;
    const uint32_t core0 = agg0 + nAgg;
    MrcTopologyGraph g;
    g.isSwitch.assign(core0 + s.cores, true);
    auto link = [&g, &t](uint32_t a, uint32_t b, uint32_t tier) {
        MrcGraphLink l;
        l.a = a;
        l.b = b;
        l.rate = DataRate(t.tier[tier].downlinkGbps * 1000000000ULL);
        l.delay = NanoSeconds(t.tier[tier].downlinkLatencyNs);
        g.links.push_back(l);
    };
    for (uint32_t h = 0; h < t.nodes; ++h)
    {
        g.isSwitch[h] = false;
        link(h, tor0 + h / t.tier[0].radixDown, 0);
    }
    for (uint32_t r = 0; r < nTor; ++r)
    {
        const uint32_t pod = r / s.torsPerPod;
        for (uint32_t k = 0; k < s.aggsPerPod; ++k)
        {
            for (uint32_t b = 0; b < t.tier[1].bundle; ++b)
            {
                link(tor0 + r, agg0 + pod * s.aggsPerPod + k, 1);
            }
        }
    }
    if (t.tiers == 3)
    {
        const uint32_t c = s.cores / s.aggsPerPod;
        for (uint32_t a = 0; a < nAgg; ++a)
        {
            const uint32_t k = a % s.aggsPerPod;
            for (uint32_t m = 0; m < c; ++m)
            {
                for (uint32_t b = 0; b < t.tier[2].bundle; ++b)
                {
                    link(agg0 + a, core0 + k * c + m, 2);
                }
            }
        }
    }
    return g;
}

std::string
MrcScenarioInputs::Load(MrcScenarioConfig& c,
                        const std::string& topoFile,
                        const std::string& flowFile)
{
    // "none": no file (a preset's default file can be dropped: empty values are not options)
    c.topoFile = topoFile == "none" ? "" : FindDataFile(topoFile);
    c.flowFile = flowFile == "none" ? "" : FindDataFile(flowFile);
    try
    {
        if (!c.topoFile.empty())
        {
            const std::string e = LoadTopologyFile(c);
            if (!e.empty())
            {
                return e;
            }
        }
        c.fileFlows.clear();
        if (c.flowFile.empty())
        {
            return "";
        }
        if (EndsWith(c.flowFile, ".cm"))
        {
            return LoadConnectionMatrix(c);
        }
        LoadHpccFlows(c);
    }
    catch (const MrcInputError& e)
    {
        return e.what();
    }
    return "";
}

std::string
MrcScenarioInputs::LoadTopologyFile(MrcScenarioConfig& c)
{
    auto g = std::make_shared<MrcTopologyGraph>();
    std::vector<uint32_t> lines; // per graph link: its line (0: derived)
    if (EndsWith(c.topoFile, ".topo"))
    {
        const MrcHtsimTopology t = MrcHtsimInput::LoadTopology(c.topoFile);
        *g = HtsimGraph(t, MrcHtsimInput::Shape(t));
        lines.assign(g->links.size(), 0);
        c.graphLinkError.assign(g->links.size(), 0.0);
    }
    else
    {
        const MrcHpccTopology t = MrcHpccInput::LoadTopology(c.topoFile);
        g->isSwitch = t.isSwitch;
        for (const MrcHpccLink& l : t.links)
        {
            MrcGraphLink gl;
            gl.a = l.a;
            gl.b = l.b;
            gl.rate = DataRate(l.rateBps);
            gl.delay = l.delay;
            g->links.push_back(gl);
            lines.push_back(l.line);
            c.graphLinkError.push_back(l.errorRate);
        }
    }
    int64_t bad = -1;
    const std::string e = g->Validate(bad);
    if (!e.empty())
    {
        if (bad >= 0 && lines[bad] > 0)
        {
            throw MrcInputError(c.topoFile, lines[bad], "one link per host, each to a switch", e);
        }
        return "--topoFile='" + c.topoFile + "': " + e;
    }
    const std::string cut = CheckConnected(*g);
    if (!cut.empty())
    {
        return "--topoFile='" + MrcParse::Printable(c.topoFile) + "': " + cut;
    }
    c.graphNodeOfHost.clear();
    for (uint32_t v = 0; v < g->isSwitch.size(); ++v)
    {
        if (!g->isSwitch[v])
        {
            c.graphNodeOfHost.push_back(v);
        }
    }
    // The shape the profiles and checks read: hosts, first host link's rate and delay.
    c.topology.kind = MrcTopologyKind::GRAPH;
    c.topology.hosts = static_cast<uint32_t>(c.graphNodeOfHost.size());
    for (const MrcGraphLink& l : g->links)
    {
        if (!g->isSwitch[l.a] || !g->isSwitch[l.b])
        {
            c.topology.hostRate = l.rate;
            c.topology.hostDelay = l.delay;
            break;
        }
    }
    c.graph = g;
    return "";
}

std::string
MrcScenarioInputs::LoadConnectionMatrix(MrcScenarioConfig& c)
{
    // htsim numbers hosts 0..Nodes-1: they are host indices.
    const uint32_t hosts = c.topology.GetHosts();
    const MrcHtsimConnectionMatrix cm = MrcHtsimInput::LoadConnectionMatrix(c.flowFile);
    if (cm.nodes > hosts)
    {
        return "--flowFile='" + c.flowFile + "': 'Nodes " + std::to_string(cm.nodes) +
               "' is more than the fabric's " + std::to_string(hosts) +
               " hosts (give --hosts or --topoFile)";
    }
    for (const MrcHtsimConnection& k : cm.connections)
    {
        if (k.size == 0 || k.size > 0xffffffffULL)
        {
            throw MrcInputError(c.flowFile,
                                k.line,
                                "'size B' with 1..4294967295 bytes (one RDMA Write)",
                                std::to_string(k.size));
        }
    }
    if (!cm.failures.empty())
    {
        std::cerr << "warning: " << c.flowFile << ": " << cm.failures.size()
                  << " failure line(s) not run (use --failLink and --failAt)\n";
    }
    c.fileFlows = cm.TimedFlows();
    c.htsimMatrix = std::make_shared<const MrcHtsimConnectionMatrix>(cm);
    return "";
}

void
MrcScenarioInputs::LoadHpccFlows(MrcScenarioConfig& c)
{
    // node ids of the topology file that are switches (none without a file)
    const std::vector<bool> fileSwitch =
        c.topoFile.empty() ? std::vector<bool>{} : c.graph->isSwitch;
    MrcHpccFlowOptions fo;
    fo.numNodes = c.graph ? static_cast<uint32_t>(fileSwitch.size()) : c.topology.GetHosts();
    fo.isSwitch = fileSwitch;
    fo.maxBytes = 0xffffffffULL;
    fo.ignoreCount = HasFiveFields(c.flowFile);
    std::vector<MrcFlowSpec> flows = MrcHpccInput::LoadFlows(c.flowFile, fo);
    if (c.graph)
    {
        // node id -> host index
        std::vector<uint32_t> hostOf(fileSwitch.size(), 0);
        for (uint32_t h = 0; h < c.graphNodeOfHost.size(); ++h)
        {
            hostOf[c.graphNodeOfHost[h]] = h;
        }
        for (MrcFlowSpec& f : flows)
        {
            f.src = hostOf[f.src];
            f.dst = hostOf[f.dst];
        }
    }
    c.fileFlows = std::move(flows);
}

} // namespace ns3
