/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-hpcc-input.h"

#include "mrc-input-error.h"

#include "ns3/log.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcHpccInput");

namespace
{

/// The two line forms of a flow file.
const char* const FLOW_FORM =
    "'src dst pg dport bytes start_s' (HPCC) or 'src dst pg bytes start_s' (ConWeave)";

std::string
Ordinal(uint32_t i, uint32_t n, const char* what)
{
    std::ostringstream os;
    os << what << " " << i << " of " << n;
    return os.str();
}

/**
 * Read the header line 'N S L' of a topology file.
 * \param r the reader
 * \param topo the topology (its node count is set)
 * \param numSwitches the switch count S
 * \param numLinks the link count L
 */
void
ReadTopologyHeader(MrcLineReader& r,
                   MrcHpccTopology& topo,
                   uint32_t& numSwitches,
                   uint32_t& numLinks)
{
    const std::string header = "'N S L' (node, switch and link counts, S <= N)";
    if (!r.Next())
    {
        r.FailEof(header);
    }
    const auto& f = r.Fields();
    if (f.size() != 3 || !MrcParse::U32(f[0], topo.numNodes) || !MrcParse::U32(f[1], numSwitches) ||
        !MrcParse::U32(f[2], numLinks) || numSwitches > topo.numNodes)
    {
        r.Fail(header);
    }
    if (topo.numNodes > MrcInputLimits::MAX_NODES)
    {
        r.Fail("N: at most " + std::to_string(MrcInputLimits::MAX_NODES) + " nodes", f[0]);
    }
    if (numLinks > MrcInputLimits::MAX_LINKS)
    {
        r.Fail("L: at most " + std::to_string(MrcInputLimits::MAX_LINKS) + " links", f[2]);
    }
}

/**
 * Read the line of switch ids (present when S > 0) and mark them; every other node is a host.
 * \param r the reader
 * \param numSwitches the switch count S
 * \param topo the topology (its node count set; isSwitch, switchIds and hosts are filled)
 */
void
ReadSwitchIds(MrcLineReader& r, uint32_t numSwitches, MrcHpccTopology& topo)
{
    topo.isSwitch.assign(topo.numNodes, false);
    if (numSwitches > 0)
    {
        std::ostringstream what;
        what << numSwitches << " distinct switch ids below " << topo.numNodes;
        if (!r.Next())
        {
            r.FailEof(what.str());
        }
        const auto& f = r.Fields();
        if (f.size() != numSwitches)
        {
            r.Fail(what.str());
        }
        for (const auto& s : f)
        {
            uint32_t id;
            if (!MrcParse::U32(s, id) || id >= topo.numNodes || topo.isSwitch[id])
            {
                r.Fail(what.str(), s);
            }
            topo.isSwitch[id] = true;
            topo.switchIds.push_back(id);
        }
    }
    for (uint32_t id = 0; id < topo.numNodes; ++id)
    {
        if (!topo.isSwitch[id])
        {
            topo.hosts.push_back(id);
        }
    }
}

/**
 * Parse the current line of the reader as a link 'src dst rate delay err'.
 * \param r the reader, on the link's line
 * \param what the expected form, for the error message of a wrong field count
 * \param numNodes the node count N (ids are below it)
 * \return the link
 */
MrcHpccLink
ParseLinkLine(const MrcLineReader& r, const std::string& what, uint32_t numNodes)
{
    const auto& f = r.Fields();
    if (f.size() != 5)
    {
        r.Fail(what);
    }
    MrcHpccLink l;
    l.line = r.Line();
    std::ostringstream idWhat;
    idWhat << "a node id below " << numNodes;
    if (!MrcParse::U32(f[0], l.a) || l.a >= numNodes)
    {
        r.Fail(idWhat.str(), f[0]);
    }
    if (!MrcParse::U32(f[1], l.b) || l.b >= numNodes)
    {
        r.Fail(idWhat.str(), f[1]);
    }
    if (l.a == l.b)
    {
        r.Fail("a link between two different nodes");
    }
    if (!MrcParse::Rate(f[2], l.rateBps) || l.rateBps == 0)
    {
        r.Fail("a positive rate such as '100Gbps'", f[2]);
    }
    int64_t ps;
    if (!MrcParse::Delay(f[3], ps))
    {
        r.Fail("a delay such as '0.001ms' or '1000ns'", f[3]);
    }
    l.delay = PicoSeconds(ps);
    if (!MrcParse::Double(f[4], l.errorRate) || l.errorRate < 0 || l.errorRate > 1)
    {
        r.Fail("an error rate in [0, 1]", f[4]);
    }
    return l;
}

} // namespace

MrcHpccTopology
MrcHpccInput::LoadTopology(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
    {
        throw MrcInputError(path, 0, "a readable file", "cannot open");
    }
    return ParseTopology(in, path);
}

MrcHpccTopology
MrcHpccInput::ParseTopology(std::istream& in, const std::string& name)
{
    MrcLineReader r(in, name);
    MrcHpccTopology topo;
    uint32_t numSwitches = 0;
    uint32_t numLinks = 0;
    ReadTopologyHeader(r, topo, numSwitches, numLinks);
    ReadSwitchIds(r, numSwitches, topo);
    for (uint32_t i = 1; i <= numLinks; ++i)
    {
        const std::string what = Ordinal(i, numLinks, "link") + " as 'src dst rate delay err'";
        if (!r.Next())
        {
            r.FailEof(what);
        }
        topo.links.push_back(ParseLinkLine(r, what, topo.numNodes));
    }
    return topo;
}

std::vector<MrcFlowSpec>
MrcHpccInput::LoadFlows(const std::string& path, const MrcHpccFlowOptions& options)
{
    std::ifstream in(path);
    if (!in)
    {
        throw MrcInputError(path, 0, "a readable file", "cannot open");
    }
    return ParseFlows(in, path, options);
}

std::vector<MrcFlowSpec>
MrcHpccInput::ParseFlows(std::istream& in,
                         const std::string& name,
                         const MrcHpccFlowOptions& options)
{
    MrcLineReader r(in, name);
    const uint32_t count = ReadFlowCount(r);
    std::vector<MrcFlowSpec> flows;
    // The count is a claim of the file: reserve no more than a modest start.
    flows.reserve(options.ignoreCount ? 0 : std::min<uint32_t>(count, 65536));
    while (true)
    {
        const uint32_t i = static_cast<uint32_t>(flows.size()) + 1;
        bool more = r.Next();
        if (!options.ignoreCount)
        {
            if (!more && i <= count)
            {
                r.FailEof(Ordinal(i, count, "flow") + " as " + FLOW_FORM);
            }
            if (more && i > count)
            {
                std::ostringstream os;
                os << "end of file after " << count << " flows (the count on line 1)";
                r.Fail(os.str());
            }
        }
        if (!more)
        {
            break;
        }
        if (flows.size() >= MrcInputLimits::MAX_FLOWS)
        {
            r.Fail("at most " + std::to_string(MrcInputLimits::MAX_FLOWS) + " flows");
        }
        flows.push_back(ParseFlowLine(r, options));
    }
    return flows;
}

uint32_t
MrcHpccInput::ReadFlowCount(MrcLineReader& r)
{
    const std::string header = "the number of flows";
    if (!r.Next())
    {
        r.FailEof(header);
    }
    uint32_t count = 0;
    if (r.Fields().size() != 1 || !MrcParse::U32(r.Fields()[0], count))
    {
        r.Fail(header);
    }
    if (count > MrcInputLimits::MAX_FLOWS)
    {
        r.Fail("the number of flows, at most " + std::to_string(MrcInputLimits::MAX_FLOWS));
    }
    return count;
}

MrcFlowSpec
MrcHpccInput::ParseFlowLine(const MrcLineReader& r, const MrcHpccFlowOptions& options)
{
    const auto& f = r.Fields();
    if (f.size() != 5 && f.size() != 6)
    {
        r.Fail(FLOW_FORM);
    }
    const bool hpcc = f.size() == 6;
    MrcFlowSpec flow;
    uint32_t pg;
    uint32_t dport = 0;
    const std::string& bytesText = hpcc ? f[4] : f[3];
    const std::string& startText = hpcc ? f[5] : f[4];
    ParseFlowEndpoints(r, options, flow);
    if (!MrcParse::U32(f[2], pg) || pg > 7)
    {
        r.Fail("pg: a priority group 0..7", f[2]);
    }
    if (hpcc && (!MrcParse::U32(f[3], dport) || dport > 65535))
    {
        r.Fail("dport: a port number 0..65535", f[3]);
    }
    if (!MrcParse::U64(bytesText, flow.bytes) || flow.bytes == 0)
    {
        r.Fail("bytes: a positive integer", bytesText);
    }
    if (options.maxBytes > 0 && flow.bytes > options.maxBytes)
    {
        r.Fail("bytes: at most " + std::to_string(options.maxBytes) + " (one RDMA Write)",
               bytesText);
    }
    int64_t ps;
    if (!MrcParse::SecondsToPs(startText, ps))
    {
        r.Fail("start_s: a non-negative time in seconds", startText);
    }
    if (ps > static_cast<int64_t>(MrcInputLimits::MAX_START_SECONDS * 1e12))
    {
        std::ostringstream what;
        what << "start_s: at most " << MrcInputLimits::MAX_START_SECONDS << " seconds";
        r.Fail(what.str(), startText);
    }
    flow.start = PicoSeconds(ps);
    flow.priorityGroup = static_cast<int32_t>(pg);
    flow.dstPort = hpcc ? static_cast<int32_t>(dport) : -1;
    return flow;
}

void
MrcHpccInput::ParseFlowEndpoints(const MrcLineReader& r,
                                 const MrcHpccFlowOptions& options,
                                 MrcFlowSpec& flow)
{
    const auto& f = r.Fields();
    std::ostringstream idWhat;
    idWhat << "a node id";
    if (options.numNodes > 0)
    {
        idWhat << " below " << options.numNodes;
    }
    if (!MrcParse::U32(f[0], flow.src) || (options.numNodes > 0 && flow.src >= options.numNodes))
    {
        r.Fail("src: " + idWhat.str(), f[0]);
    }
    if (!MrcParse::U32(f[1], flow.dst) || (options.numNodes > 0 && flow.dst >= options.numNodes))
    {
        r.Fail("dst: " + idWhat.str(), f[1]);
    }
    if (flow.src == flow.dst)
    {
        r.Fail("a flow between two different nodes");
    }
    for (const auto& [id, field, which] :
         {std::make_tuple(flow.src, &f[0], "src"), std::make_tuple(flow.dst, &f[1], "dst")})
    {
        if (id < options.isSwitch.size() && options.isSwitch[id])
        {
            r.Fail(std::string(which) + ": a host's node id (node " + *field +
                       " is a switch in the topology)",
                   *field);
        }
    }
}

} // namespace ns3
