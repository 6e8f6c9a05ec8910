/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-trace-input.h"

#include "mrc-input-error.h"

#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace ns3
{

namespace
{

/// Largest number of ranks of one collective.
constexpr uint64_t MAX_RANKS = 1000000;

Time
ParseTimeField(const MrcLineReader& r, const std::string& key, const std::string& value)
{
    int64_t ps = 0;
    if (!MrcParse::Delay(value, ps))
    {
        r.Fail(key + "=TIME (e.g. 10us)", value);
    }
    return PicoSeconds(ps);
}

uint32_t
ParseCount(const MrcLineReader& r, const std::string& key, const std::string& value)
{
    uint32_t v = 0;
    if (!MrcParse::U32(value, v) || v == 0)
    {
        r.Fail(key + "=N with N >= 1", value);
    }
    return v;
}

} // namespace

bool
MrcTraceReader::ParseRanks(const std::string& text, std::vector<uint32_t>& out)
{
    out.clear();
    std::set<uint32_t> seen;
    std::stringstream ss(text);
    std::string item;
    if (text.empty() || text.back() == ',')
    {
        return false;
    }
    while (std::getline(ss, item, ','))
    {
        const std::size_t dash = item.find('-');
        uint32_t a = 0;
        uint32_t b = 0;
        if (dash == std::string::npos)
        {
            if (!MrcParse::U32(item, a))
            {
                return false;
            }
            b = a;
        }
        else if (!MrcParse::U32(item.substr(0, dash), a) ||
                 !MrcParse::U32(item.substr(dash + 1), b) || b < a)
        {
            return false;
        }
        if (out.size() + (uint64_t{b} - a + 1) > MAX_RANKS)
        {
            return false;
        }
        for (uint64_t h = a; h <= b; ++h)
        {
            if (!seen.insert(static_cast<uint32_t>(h)).second)
            {
                return false;
            }
            out.push_back(static_cast<uint32_t>(h));
        }
    }
    return !out.empty();
}

std::vector<MrcTraceEntry>
MrcTraceReader::Read(std::istream& in, const std::string& file)
{
    MrcLineReader r(in, file);
    std::vector<MrcTraceEntry> out;
    std::map<uint32_t, std::size_t> index; // id -> entry
    while (r.Next(true))
    {
        const std::vector<std::string>& f = r.Fields();
        MrcTraceEntry e;
        e.line = r.Line();
        if (!MrcParse::U32(f[0], e.id))
        {
            r.Fail("an entry id (a non-negative integer)", f[0]);
        }
        if (index.count(e.id))
        {
            r.Fail("an id not used before (line " + std::to_string(out[index[e.id]].line) + ")",
                   f[0]);
        }
        if (f.size() < 2)
        {
            r.Fail("ID KIND ... (KIND: flow, allreduce, reducescatter, allgather, alltoall)");
        }
        std::size_t next = 0;
        const std::string& kind = f[1];
        if (kind == "flow")
        {
            if (f.size() < 5)
            {
                r.Fail("ID flow SRC DST BYTES [key=value ...]");
            }
            if (!MrcParse::U32(f[2], e.src))
            {
                r.Fail("a source host index", f[2]);
            }
            if (!MrcParse::U32(f[3], e.dst) || e.dst == e.src)
            {
                r.Fail("a destination host index other than the source", f[3]);
            }
            if (!MrcParse::U64(f[4], e.bytes) || e.bytes == 0 ||
                e.bytes > MrcInputLimits::MAX_MESSAGE_BYTES)
            {
                r.Fail("BYTES in 1.." + std::to_string(MrcInputLimits::MAX_MESSAGE_BYTES), f[4]);
            }
            next = 5;
        }
        else
        {
            e.collective = true;
            if (!MrcParseCollectiveOp(kind, e.spec.op))
            {
                r.Fail("KIND flow, allreduce, reducescatter, allgather or alltoall", kind);
            }
            if (f.size() < 4)
            {
                r.Fail("ID " + kind + " RANKS BYTES [key=value ...]");
            }
            if (!ParseRanks(f[2], e.spec.ranks) || e.spec.ranks.size() < 2)
            {
                r.Fail("RANKS: at least 2 distinct hosts as a list of indices and ranges "
                       "(e.g. 0-7,16)",
                       f[2]);
            }
            if (!MrcParse::U64(f[3], e.spec.bytes) || e.spec.bytes == 0 ||
                e.spec.bytes > (uint64_t{1} << 50))
            {
                r.Fail("BYTES in 1..2^50", f[3]);
            }
            next = 4;
        }
        for (std::size_t k = next; k < f.size(); ++k)
        {
            const std::size_t eq = f[k].find('=');
            if (eq == std::string::npos || eq == 0)
            {
                r.Fail("key=value", f[k]);
            }
            const std::string key = f[k].substr(0, eq);
            const std::string value = f[k].substr(eq + 1);
            if (key == "after")
            {
                std::stringstream ss(value);
                std::string id;
                while (std::getline(ss, id, ','))
                {
                    uint32_t a = 0;
                    if (!MrcParse::U32(id, a) || !index.count(a))
                    {
                        r.Fail("after=IDs of entries on earlier lines", value);
                    }
                    e.after.push_back(a);
                }
                if (e.after.empty() || value.back() == ',')
                {
                    r.Fail("after=IDs of entries on earlier lines", value);
                }
            }
            else if (key == "gap")
            {
                e.gap = ParseTimeField(r, key, value);
            }
            else if (key == "start")
            {
                e.start = ParseTimeField(r, key, value);
            }
            else if (e.collective && key == "algo")
            {
                if (!MrcParseCollectiveAlgorithm(value, e.spec.algorithm))
                {
                    r.Fail("algo=ring or algo=tree", value);
                }
            }
            else if (e.collective && key == "channels")
            {
                e.spec.channels = ParseCount(r, key, value);
            }
            else if (e.collective && key == "chunks")
            {
                e.spec.chunks = ParseCount(r, key, value);
            }
            else if (e.collective && key == "iterations")
            {
                e.spec.iterations = ParseCount(r, key, value);
            }
            else if (e.collective && key == "job")
            {
                if (!MrcParse::U32(value, e.spec.job))
                {
                    r.Fail("job=J (a non-negative integer)", value);
                }
            }
            else if (e.collective && key == "computeGap")
            {
                e.spec.computeGap = ParseTimeField(r, key, value);
            }
            else
            {
                r.Fail(e.collective ? "a key of after, gap, start, algo, channels, chunks, "
                                      "iterations, computeGap, job"
                                    : "a key of after, gap, start",
                       key);
            }
        }
        if (e.collective)
        {
            const std::string err = MrcCollective::Check(e.spec);
            if (!err.empty())
            {
                r.Fail("a collective that can run (" + err + ")");
            }
        }
        if (out.size() >= MrcInputLimits::MAX_FLOWS)
        {
            r.Fail("at most " + std::to_string(MrcInputLimits::MAX_FLOWS) + " entries");
        }
        index[e.id] = out.size();
        out.push_back(std::move(e));
    }
    if (out.empty())
    {
        r.FailEof("at least one entry");
    }
    return out;
}

std::vector<MrcTraceEntry>
MrcTraceReader::Load(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw MrcInputError(path, 1, "a readable trace file", "", true);
    }
    return Read(in, path);
}

std::string
MrcTraceReader::CheckHosts(const std::vector<MrcTraceEntry>& entries,
                           uint32_t hosts,
                           const std::string& file)
{
    for (const MrcTraceEntry& e : entries)
    {
        std::vector<uint32_t> named =
            e.collective ? e.spec.ranks : std::vector<uint32_t>{e.src, e.dst};
        for (uint32_t h : named)
        {
            if (h >= hosts)
            {
                return file + ":" + std::to_string(e.line) + ": host " + std::to_string(h) +
                       " is not in the fabric (" + std::to_string(hosts) + " hosts: 0.." +
                       std::to_string(hosts - 1) + ")";
            }
        }
    }
    return "";
}

} // namespace ns3
