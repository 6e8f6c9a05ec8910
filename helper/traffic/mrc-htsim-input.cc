/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-htsim-input.h"

#include "mrc-input-error.h"

#include "ns3/log.h"
#include "ns3/mrc-uint128.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcHtsimInput");

namespace
{

std::string
Lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    return s;
}

/// Read the value after key fields[i]; fails naming the key when it is missing.
const std::string&
ValueAfter(const MrcLineReader& r, size_t& i, const std::string& what)
{
    const auto& f = r.Fields();
    if (i + 1 >= f.size())
    {
        r.Fail(what + " after '" + f[i] + "'", f[i]);
    }
    return f[++i];
}

uint32_t
NonZeroU32(const MrcLineReader& r, size_t& i)
{
    const std::string& v = ValueAfter(r, i, "a positive integer");
    uint32_t x;
    if (!MrcParse::U32(v, x) || x == 0)
    {
        r.Fail("a positive integer after '" + r.Fields()[i - 1] + "'", v);
    }
    return x;
}

/// A count given in a connection matrix's header ('Nodes N', 'Connections C', ...).
struct HeaderCount
{
    uint32_t value{0}; //!< the count
    uint32_t line{0};  //!< the line it is on
    std::string text;  //!< the value as written
};

/**
 * Read one 'key value' pair of a connection line into \p c.
 * \param r the reader, on the connection line
 * \param[in,out] i the key's field; left on the last field the pair used
 * \param[in,out] c the connection
 */
void
ParseConnectionKey(const MrcLineReader& r, size_t& i, MrcHtsimConnection& c)
{
    const auto& f = r.Fields();
    const std::string& key = f[i];
    if (key == "start")
    {
        const std::string& v = ValueAfter(r, i, "a start time in microseconds");
        if (!MrcParse::Double(v, c.startUs) || c.startUs < 0)
        {
            r.Fail("a non-negative start time in microseconds after 'start'", v);
        }
        if (c.startUs > MrcInputLimits::MAX_START_SECONDS * 1e6)
        {
            std::ostringstream os;
            os << "a start time of at most " << MrcInputLimits::MAX_START_SECONDS * 1e6
               << " microseconds after 'start'";
            r.Fail(os.str(), v);
        }
        c.hasStart = true;
    }
    else if (key == "size")
    {
        const std::string& v = ValueAfter(r, i, "a size in bytes");
        if (!MrcParse::U64(v, c.size))
        {
            r.Fail("a size in bytes after 'size'", v);
        }
    }
    else if (key == "id")
    {
        c.flowId = NonZeroU32(r, i);
    }
    else if (key == "msg")
    {
        c.hasMsg = true;
        uint32_t m;
        if (i + 1 < f.size() && MrcParse::U32(f[i + 1], m))
        {
            if (m == 0)
            {
                r.Fail("a positive message id after 'msg'", f[i + 1]);
            }
            c.msgId = m;
            ++i;
        }
    }
    else if (key == "trigger")
    {
        c.trigger = NonZeroU32(r, i);
    }
    else if (key == "send_done_trigger")
    {
        c.sendDoneTrigger = NonZeroU32(r, i);
    }
    else if (key == "recv_done_trigger")
    {
        c.recvDoneTrigger = NonZeroU32(r, i);
    }
    else if (key == "prio")
    {
        const std::string& v = ValueAfter(r, i, "a priority");
        double p;
        if (!MrcParse::Double(v, p) || p != std::floor(p))
        {
            r.Fail("an integer priority after 'prio'", v);
        }
        if (p < INT32_MIN || p > INT32_MAX)
        {
            r.Fail("a priority of 32 bits after 'prio'", v);
        }
        c.priority = static_cast<int64_t>(p);
    }
    else
    {
        r.Fail("one of start, size, id, msg, trigger, send_done_trigger, "
               "recv_done_trigger, prio",
               key);
    }
}

/// One 'SRC->DST key value ...' line of a connection matrix (the reader's current line).
MrcHtsimConnection
ParseConnection(const MrcLineReader& r, uint32_t nodes, const std::string& nodesWhat)
{
    const auto& f = r.Fields();
    MrcHtsimConnection c;
    c.line = r.Line();
    size_t arrow = f[0].find("->");
    std::string a = f[0].substr(0, arrow);
    std::string b = f[0].substr(arrow + 2);
    if (!MrcParse::U32(a, c.src) || c.src >= nodes)
    {
        r.Fail("SRC->DST with SRC " + nodesWhat, f[0]);
    }
    if (!MrcParse::U32(b, c.dst) || c.dst >= nodes)
    {
        r.Fail("SRC->DST with DST " + nodesWhat, f[0]);
    }
    for (size_t i = 1; i < f.size(); ++i)
    {
        ParseConnectionKey(r, i, c);
    }
    if (!c.hasStart && c.trigger == 0)
    {
        r.Fail("'start US' or 'trigger T' on the connection");
    }
    if (c.hasStart && c.trigger != 0)
    {
        r.Fail("only one of 'start' and 'trigger' on the connection");
    }
    if (c.trigger != 0 && c.flowId == 0)
    {
        r.Fail("an 'id' on a connection started by a trigger");
    }
    return c;
}

/// One 'trigger id I TYPE [count N]' line (the reader's current line).
MrcHtsimTrigger
ParseTrigger(const MrcLineReader& r)
{
    const auto& f = r.Fields();
    MrcHtsimTrigger t;
    t.line = r.Line();
    bool typed = false;
    for (size_t i = 1; i < f.size(); ++i)
    {
        const std::string& key = f[i];
        if (key == "id")
        {
            t.id = NonZeroU32(r, i);
        }
        else if (key == "count")
        {
            const std::string& v = ValueAfter(r, i, "a count");
            if (!MrcParse::U32(v, t.count))
            {
                r.Fail("a count after 'count'", v);
            }
        }
        else if (key == "oneshot" || key == "multishot" || key == "barrier")
        {
            if (typed)
            {
                r.Fail("one trigger type", key);
            }
            typed = true;
            t.type = key == "oneshot"     ? MrcHtsimTrigger::ONESHOT
                     : key == "multishot" ? MrcHtsimTrigger::MULTISHOT
                                          : MrcHtsimTrigger::BARRIER;
        }
        else
        {
            r.Fail("one of id, count, oneshot, multishot, barrier", key);
        }
    }
    if (t.id == 0)
    {
        r.Fail("'id I' on the trigger");
    }
    if (!typed)
    {
        r.Fail("a trigger type (oneshot, multishot or barrier)");
    }
    return t;
}

/// One 'failure switch_type T switch_id S [link_id L]' line (the reader's current line).
MrcHtsimFailure
ParseFailure(const MrcLineReader& r)
{
    const auto& f = r.Fields();
    MrcHtsimFailure fl;
    fl.line = r.Line();
    for (size_t i = 1; i < f.size(); ++i)
    {
        const std::string& key = f[i];
        if (key == "switch_type")
        {
            const std::string& v = ValueAfter(r, i, "TOR, AGG or CORE");
            if (v != "TOR" && v != "AGG" && v != "CORE")
            {
                r.Fail("TOR, AGG or CORE after 'switch_type'", v);
            }
            fl.switchType = v;
        }
        else if (key == "switch_id" || key == "link_id")
        {
            const std::string& v = ValueAfter(r, i, "an index");
            uint32_t x;
            if (!MrcParse::U32(v, x))
            {
                r.Fail("an index after '" + key + "'", v);
            }
            (key == "switch_id" ? fl.switchId : fl.linkId) = x;
        }
        else
        {
            r.Fail("one of switch_type, switch_id, link_id", key);
        }
    }
    return fl;
}

/// The Connections / Triggers / Failures header lines must give the numbers of lines that
/// follow (an absent header line means 0).
void
CheckDeclaredCounts(const MrcLineReader& r,
                    const std::string& name,
                    const std::map<std::string, HeaderCount>& header,
                    const MrcHtsimConnectionMatrix& cm)
{
    const std::pair<const char*, size_t> counts[] = {
        {"Connections", cm.connections.size()},
        {"Triggers", cm.triggers.size()},
        {"Failures", cm.failures.size()},
    };
    for (const auto& c : counts)
    {
        auto it = header.find(c.first);
        uint32_t declared = it == header.end() ? 0 : it->second.value;
        if (declared != c.second)
        {
            std::string word = Lower(c.first);
            word.pop_back(); // "connections" -> "connection"
            std::ostringstream got;
            got << c.second;
            if (it == header.end())
            {
                throw MrcInputError(name,
                                    r.Line() + 1,
                                    "a '" + std::string(c.first) + "' header line for the " + word +
                                        " lines",
                                    got.str());
            }
            std::ostringstream what;
            what << declared << " " << word << " lines as declared";
            throw MrcInputError(name, it->second.line, what.str(), got.str());
        }
    }
}

/// Every trigger a connection names must be defined by a 'trigger' line.
void
CheckTriggersDefined(const std::string& name,
                     const MrcHtsimConnectionMatrix& cm,
                     const std::map<uint32_t, size_t>& triggerIndex,
                     const std::vector<std::string>& connText)
{
    for (size_t k = 0; k < cm.connections.size(); ++k)
    {
        const auto& c = cm.connections[k];
        for (uint32_t t : {c.trigger, c.sendDoneTrigger, c.recvDoneTrigger})
        {
            if (t != 0 && !triggerIndex.count(t))
            {
                std::ostringstream os;
                os << "a 'trigger id " << t << " ...' line for trigger " << t;
                throw MrcInputError(name, c.line, os.str(), connText[k]);
            }
        }
    }
}

/// Which of the header lines of an htsim topology file were read.
struct TopologyHeaderSeen
{
    bool nodes{false}; //!< 'Nodes N'
    bool tiers{false}; //!< 'Tiers T'
    bool pod{false};   //!< 'Podsize P'
};

/// One header line of an htsim topology file ('Nodes N', 'Tiers T' or 'Podsize P').
void
ParseTopologyHeaderLine(const MrcLineReader& r,
                        const std::string& key,
                        MrcHtsimTopology& topo,
                        TopologyHeaderSeen& seen)
{
    const auto& f = r.Fields();
    uint32_t* dst = key == "nodes"     ? &topo.nodes
                    : key == "tiers"   ? &topo.tiers
                    : key == "podsize" ? &topo.podSize
                                       : nullptr;
    if (!dst)
    {
        r.Fail("'Nodes N', 'Tiers T', 'Podsize P' or 'Tier k'", f[0]);
    }
    bool& have = key == "nodes" ? seen.nodes : key == "tiers" ? seen.tiers : seen.pod;
    if (have)
    {
        r.Fail("one '" + f[0] + "' line", f[0]);
    }
    if (f.size() != 2 || !MrcParse::U32(f[1], *dst) || *dst == 0)
    {
        r.Fail("'" + f[0] + " <positive integer>'");
    }
    if (key == "tiers" && (topo.tiers < 2 || topo.tiers > 3))
    {
        r.Fail("Tiers 2 or 3", f[1]);
    }
    have = true;
    if (key == "podsize")
    {
        topo.podSizeLine = r.Line();
    }
}

/// One '<attribute> <value>' line inside the block of tier `current`.
void
ParseTierAttribute(const MrcLineReader& r,
                   const std::string& key,
                   int current,
                   MrcHtsimTopology& topo,
                   bool (&setKey)[3][10])
{
    const auto& f = r.Fields();
    static const char* keys[] = {"downlink_speed_gbps",
                                 "radix_up",
                                 "radix_down",
                                 "queue_up",
                                 "queue_down",
                                 "oversubscribed",
                                 "bundle",
                                 "switch_latency_ns",
                                 "downlink_latency_ns"};
    const std::string attrs = "one of Tier, Downlink_speed_Gbps, Radix_Up, Radix_Down, Queue_Up, "
                              "Queue_Down, Oversubscribed, Bundle, Switch_Latency_ns, "
                              "Downlink_Latency_ns";
    int idx = -1;
    for (int i = 0; i < 9; ++i)
    {
        if (key == keys[i])
        {
            idx = i;
        }
    }
    if (idx < 0)
    {
        r.Fail(attrs, f[0]);
    }
    if (setKey[current][idx])
    {
        std::ostringstream os;
        os << "one '" << f[0] << "' in tier " << current;
        r.Fail(os.str(), f[0]);
    }
    setKey[current][idx] = true;
    if ((idx == 1 || idx == 3) && current == 2)
    {
        r.Fail("no " + f[0] + " in tier 2 (the top tier has no uplinks)", f[0]);
    }
    uint64_t v;
    if (!MrcParse::U64(f[1], v))
    {
        r.Fail("a non-negative integer after '" + f[0] + "'", f[1]);
    }
    MrcHtsimTier& t = topo.tier[current];
    const bool small = v <= UINT32_MAX;
    switch (idx)
    {
    case 0:
        t.downlinkGbps = v;
        break;
    case 1:
    case 2:
    case 5:
    case 6:
        if (!small || ((idx == 5 || idx == 6) && v == 0))
        {
            r.Fail("a 32-bit positive integer after '" + f[0] + "'", f[1]);
        }
        (idx == 1   ? t.radixUp
         : idx == 2 ? t.radixDown
         : idx == 5 ? t.oversubscribed
                    : t.bundle) = static_cast<uint32_t>(v);
        break;
    case 3:
        t.queueUp = v;
        break;
    case 4:
        t.queueDown = v;
        break;
    case 7:
        t.switchLatencyNs = v;
        break;
    default:
        t.downlinkLatencyNs = v;
        break;
    }
}

} // namespace

std::vector<MrcFlowSpec>
MrcHtsimConnectionMatrix::TimedFlows() const
{
    std::vector<MrcFlowSpec> flows;
    for (const auto& c : connections)
    {
        if (!c.hasStart)
        {
            continue;
        }
        MrcFlowSpec f;
        f.src = c.src;
        f.dst = c.dst;
        f.bytes = c.size;
        f.start = MicroSeconds(static_cast<int64_t>(std::floor(c.startUs)));
        flows.push_back(f);
    }
    return flows;
}

MrcHtsimConnectionMatrix
MrcHtsimInput::LoadConnectionMatrix(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
    {
        throw MrcInputError(path, 0, "a readable file", "cannot open");
    }
    return ParseConnectionMatrix(in, path);
}

MrcHtsimConnectionMatrix
MrcHtsimInput::ParseConnectionMatrix(std::istream& in, const std::string& name)
{
    MrcLineReader r(in, name);
    MrcHtsimConnectionMatrix cm;
    std::map<std::string, HeaderCount> header;
    const std::string headerForm = "'Nodes N', 'Connections C', 'Triggers T', 'Failures F', "
                                   "'SRC->DST ...', 'trigger ...' or 'failure ...'";
    bool body = false;
    std::vector<std::string> connText;
    std::map<uint32_t, size_t> triggerIndex;
    std::string nodesWhat;
    while (r.Next(true))
    {
        const auto& f = r.Fields();
        const bool isConn = f[0].find("->") != std::string::npos;
        const bool isTrigger = f[0] == "trigger";
        const bool isFailure = f[0] == "failure";
        if (!isConn && !isTrigger && !isFailure)
        {
            if (body)
            {
                r.Fail("'SRC->DST ...', 'trigger ...' or 'failure ...'", f[0]);
            }
            if ((f[0] != "Nodes" && f[0] != "Connections" && f[0] != "Triggers" &&
                 f[0] != "Failures"))
            {
                r.Fail(headerForm, f[0]);
            }
            HeaderCount h;
            if (f.size() != 2 || !MrcParse::U32(f[1], h.value))
            {
                r.Fail("'" + f[0] + " <count>'");
            }
            if (header.count(f[0]))
            {
                r.Fail("one '" + f[0] + "' line", f[0]);
            }
            h.line = r.Line();
            h.text = r.Text();
            header[f[0]] = h;
            continue;
        }
        if (!body)
        {
            body = true;
            if (!header.count("Nodes") || header["Nodes"].value == 0)
            {
                r.Fail("a positive 'Nodes N' line before the first connection");
            }
            cm.nodes = header["Nodes"].value;
            std::ostringstream os;
            os << "a node id below " << cm.nodes;
            nodesWhat = os.str();
        }
        if (cm.connections.size() + cm.triggers.size() + cm.failures.size() >=
            MrcInputLimits::MAX_FLOWS)
        {
            r.Fail("at most " + std::to_string(MrcInputLimits::MAX_FLOWS) +
                   " connection, trigger and failure lines");
        }
        if (isConn)
        {
            cm.connections.push_back(ParseConnection(r, cm.nodes, nodesWhat));
            connText.push_back(r.Text());
        }
        else if (isTrigger)
        {
            MrcHtsimTrigger t = ParseTrigger(r);
            if (triggerIndex.count(t.id))
            {
                std::ostringstream os;
                os << "one definition of trigger " << t.id;
                r.Fail(os.str());
            }
            triggerIndex[t.id] = cm.triggers.size();
            cm.triggers.push_back(t);
        }
        else
        {
            cm.failures.push_back(ParseFailure(r));
        }
    }
    if (!body)
    {
        if (!header.count("Nodes"))
        {
            r.FailEof("a 'Nodes N' line");
        }
        cm.nodes = header["Nodes"].value;
    }
    CheckDeclaredCounts(r, name, header, cm);
    CheckTriggersDefined(name, cm, triggerIndex, connText);
    return cm;
}

MrcHtsimTopology
MrcHtsimInput::LoadTopology(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
    {
        throw MrcInputError(path, 0, "a readable file", "cannot open");
    }
    return ParseTopology(in, path);
}

MrcHtsimTopology
MrcHtsimInput::ParseTopology(std::istream& in, const std::string& name)
{
    MrcLineReader r(in, name);
    MrcHtsimTopology topo;
    topo.file = name;
    int current = -1;
    bool seen[3] = {false, false, false};
    bool setKey[3][10] = {};
    TopologyHeaderSeen header;
    while (r.Next(true))
    {
        const auto& f = r.Fields();
        const std::string key = Lower(f[0]);
        if (current < 0 && key != "tier")
        {
            ParseTopologyHeaderLine(r, key, topo, header);
            continue;
        }
        if (current < 0)
        {
            // First "Tier" line: the header must be complete.
            if (!header.nodes)
            {
                r.Fail("a 'Nodes N' line before the first Tier");
            }
            if (!header.tiers)
            {
                r.Fail("a 'Tiers T' line before the first Tier");
            }
            if (!header.pod)
            {
                r.Fail("a 'Podsize P' line before the first Tier");
            }
        }
        if (f.size() != 2)
        {
            r.Fail("'<attribute> <value>'");
        }
        if (key == "tier")
        {
            uint32_t k;
            std::ostringstream what;
            what << "a tier index below Tiers = " << topo.tiers;
            if (!MrcParse::U32(f[1], k) || k >= topo.tiers)
            {
                r.Fail(what.str(), f[1]);
            }
            if (seen[k])
            {
                r.Fail("one 'Tier " + f[1] + "' block");
            }
            seen[k] = true;
            topo.tier[k].present = true;
            topo.tier[k].line = r.Line();
            current = static_cast<int>(k);
            continue;
        }
        ParseTierAttribute(r, key, current, topo, setKey);
    }
    if (current < 0)
    {
        if (!header.nodes)
        {
            r.FailEof("a 'Nodes N' line");
        }
        if (!header.tiers)
        {
            r.FailEof("a 'Tiers T' line");
        }
        if (!header.pod)
        {
            r.FailEof("a 'Podsize P' line");
        }
    }
    for (uint32_t k = 0; k < topo.tiers; ++k)
    {
        if (!seen[k])
        {
            std::ostringstream os;
            os << "a 'Tier " << k << "' block";
            r.FailEof(os.str());
        }
    }
    return topo;
}

MrcHtsimFatTreeShape
MrcHtsimInput::Shape(const MrcHtsimTopology& topo)
{
    CheckTierValues(topo);
    MrcHtsimFatTreeShape s;
    ShapeTorLevel(topo, s);
    ShapeAggLevel(topo, s);
    if (topo.tiers == 3)
    {
        ShapeCoreLevel(topo, s);
    }
    CheckShapeSize(topo, s);
    return s;
}

void
MrcHtsimInput::CheckTierValues(const MrcHtsimTopology& topo)
{
    const auto& t = topo.tier;
    for (uint32_t k = 0; k < topo.tiers; ++k)
    {
        const std::string tier = "in tier " + std::to_string(k);
        if (t[k].downlinkGbps == 0)
        {
            ShapeFail(topo, t[k].line, "a positive Downlink_speed_Gbps " + tier, 0);
        }
        if (t[k].downlinkGbps > MAX_LINK_GBPS)
        {
            ShapeFail(topo,
                      t[k].line,
                      "a Downlink_speed_Gbps of at most " + std::to_string(MAX_LINK_GBPS) + " " +
                          tier,
                      t[k].downlinkGbps);
        }
        if (t[k].radixDown == 0)
        {
            ShapeFail(topo, t[k].line, "a positive Radix_Down " + tier, 0);
        }
        if (k + 1 < topo.tiers && t[k].radixUp == 0)
        {
            ShapeFail(topo, t[k].line, "a positive Radix_Up " + tier, 0);
        }
        if (t[k].oversubscribed == 0 || t[k].bundle == 0)
        {
            ShapeFail(topo, t[k].line, "a positive Oversubscribed and Bundle " + tier, 0);
        }
    }
}

void
MrcHtsimInput::ShapeTorLevel(const MrcHtsimTopology& topo, MrcHtsimFatTreeShape& s)
{
    const auto& t = topo.tier;
    if (topo.nodes % topo.podSize != 0)
    {
        ShapeFail(topo,
                  topo.podSizeLine,
                  "a Podsize that divides Nodes = " + std::to_string(topo.nodes),
                  topo.podSize);
    }
    s.pods = topo.nodes / topo.podSize;
    if (t[0].bundle != 1)
    {
        ShapeFail(topo, t[0].line, "Bundle 1 in tier 0 (hosts have one port)", t[0].bundle);
    }
    if (topo.podSize % t[0].radixDown != 0)
    {
        ShapeFail(topo,
                  t[0].line,
                  "a Radix_Down in tier 0 that divides Podsize = " + std::to_string(topo.podSize),
                  t[0].radixDown);
    }
    s.torsPerPod = topo.podSize / t[0].radixDown;
    // Rates are at most MAX_LINK_GBPS and counts 32-bit: these products fit 64 bits.
    const uint64_t torNum = static_cast<uint64_t>(topo.nodes) * t[0].downlinkGbps;
    const uint64_t torDen = t[1].downlinkGbps * t[0].oversubscribed;
    if (torNum % torDen != 0)
    {
        ShapeFail(topo,
                  t[0].line,
                  "Nodes x Downlink_speed_Gbps(0) divisible by Downlink_speed_Gbps(1) x "
                  "Oversubscribed(0) = " +
                      std::to_string(torDen),
                  torNum);
    }
    s.torUplinks = torNum / torDen;
    if (t[0].radixDown / t[0].radixUp != t[0].oversubscribed)
    {
        ShapeFail(topo,
                  t[0].line,
                  "Radix_Down / Radix_Up in tier 0 equal to Oversubscribed = " +
                      std::to_string(t[0].oversubscribed),
                  t[0].radixDown / t[0].radixUp);
    }
}

void
MrcHtsimInput::ShapeAggLevel(const MrcHtsimTopology& topo, MrcHtsimFatTreeShape& s)
{
    const auto& t = topo.tier;
    const uint64_t aggDen = static_cast<uint64_t>(s.pods) * t[1].radixDown;
    if (s.torUplinks % aggDen != 0)
    {
        ShapeFail(topo,
                  t[1].line,
                  "ToR uplinks divisible by pods x Radix_Down(1) = " + std::to_string(aggDen),
                  s.torUplinks);
    }
    const uint64_t aggs = s.torUplinks / aggDen;
    // Bundle >= 1: aggs above Radix_Up(0) fails without the product (which could wrap).
    if (aggs > t[0].radixUp || aggs * t[1].bundle != t[0].radixUp)
    {
        ShapeFail(topo,
                  t[1].line,
                  "Aggs per pod x Bundle(1) equal to Radix_Up(0) = " + std::to_string(t[0].radixUp),
                  aggs > t[0].radixUp ? aggs : aggs * t[1].bundle);
    }
    s.aggsPerPod = static_cast<uint32_t>(aggs); // <= Radix_Up(0), a 32-bit value
}

void
MrcHtsimInput::ShapeCoreLevel(const MrcHtsimTopology& topo, MrcHtsimFatTreeShape& s)
{
    const auto& t = topo.tier;
    // torUplinks <= Nodes x MAX_LINK_GBPS: the product can pass 64 bits.
    const uint64_t num = MulOrFail(topo, t[1].line, s.torUplinks, t[1].downlinkGbps);
    const uint64_t den = t[2].downlinkGbps * t[1].oversubscribed;
    if (num % den != 0)
    {
        ShapeFail(topo,
                  t[1].line,
                  "ToR uplinks x Downlink_speed_Gbps(1) divisible by Downlink_speed_Gbps(2) x "
                  "Oversubscribed(1) = " +
                      std::to_string(den),
                  num);
    }
    s.aggUplinks = num / den;
    if (s.aggUplinks % t[2].radixDown != 0)
    {
        ShapeFail(topo,
                  t[2].line,
                  "Agg uplinks divisible by Radix_Down(2) = " + std::to_string(t[2].radixDown),
                  s.aggUplinks);
    }
    const uint64_t cores = s.aggUplinks / t[2].radixDown;
    if (cores > MrcInputLimits::MAX_NODES)
    {
        ShapeFail(topo,
                  t[2].line,
                  "at most " + std::to_string(MrcInputLimits::MAX_NODES) + " core switches",
                  cores);
    }
    s.cores = static_cast<uint32_t>(cores);
    if (s.cores % s.aggsPerPod != 0)
    {
        ShapeFail(topo,
                  t[2].line,
                  "a core count that is a multiple of Aggs per pod = " +
                      std::to_string(s.aggsPerPod),
                  s.cores);
    }
    const uint64_t up = static_cast<uint64_t>(s.cores) * t[2].bundle / s.aggsPerPod;
    if (up != t[1].radixUp)
    {
        ShapeFail(topo,
                  t[2].line,
                  "cores x Bundle(2) / Aggs per pod equal to Radix_Up(1) = " +
                      std::to_string(t[1].radixUp),
                  up);
    }
}

void
MrcHtsimInput::CheckShapeSize(const MrcHtsimTopology& topo, const MrcHtsimFatTreeShape& s)
{
    // Every factor is at most 2^32 and the sums are checked term by term, so nothing wraps.
    const uint64_t tors = static_cast<uint64_t>(s.pods) * s.torsPerPod;
    const uint64_t aggs = static_cast<uint64_t>(s.pods) * s.aggsPerPod;
    const uint64_t nodes = static_cast<uint64_t>(topo.nodes) + tors + aggs + s.cores;
    if (nodes > MrcInputLimits::MAX_NODES)
    {
        ShapeFail(topo,
                  topo.podSizeLine,
                  "at most " + std::to_string(MrcInputLimits::MAX_NODES) +
                      " nodes (hosts, ToRs, aggregation and core switches)",
                  nodes);
    }
    // Links: one per host, Bundle(1) per ToR and aggregation switch of its pod, Bundle(2)
    // per aggregation switch and each of its cores.
    const uint32_t line = topo.podSizeLine;
    const uint64_t torLinks =
        MulOrFail(topo, line, MulOrFail(topo, line, tors, s.aggsPerPod), topo.tier[1].bundle);
    const uint64_t coreLinks =
        topo.tiers == 3
            ? MulOrFail(topo, line, MulOrFail(topo, line, s.cores, topo.tier[2].bundle), s.pods)
            : 0;
    const uint64_t links = static_cast<uint64_t>(topo.nodes) + torLinks + coreLinks;
    if (links > MrcInputLimits::MAX_LINKS)
    {
        ShapeFail(topo,
                  topo.podSizeLine,
                  "at most " + std::to_string(MrcInputLimits::MAX_LINKS) + " links",
                  links);
    }
}

uint64_t
MrcHtsimInput::MulOrFail(const MrcHtsimTopology& topo, uint32_t line, uint64_t a, uint64_t b)
{
    const MrcUint128 p = static_cast<MrcUint128>(a) * b;
    if (p > MrcInputLimits::MAX_LINKS * static_cast<MrcUint128>(MAX_LINK_GBPS))
    {
        ShapeFail(topo, line, "counts and rates whose products stay below 10^13", UINT64_MAX);
    }
    return static_cast<uint64_t>(p);
}

void
MrcHtsimInput::ShapeFail(const MrcHtsimTopology& topo,
                         uint32_t line,
                         const std::string& what,
                         uint64_t got)
{
    throw MrcInputError(topo.file, line, what, std::to_string(got));
}

} // namespace ns3
