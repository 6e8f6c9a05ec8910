/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-failure-options.h"

#include "ns3/mrc-input-error.h"

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

namespace ns3
{

namespace
{

/// A time with an explicit unit ("10us", "1.5ms"); false (instead of ns-3's abort) otherwise.
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

bool
ParseU32(const std::string& s, uint32_t& out)
{
    if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
    {
        return false;
    }
    out = static_cast<uint32_t>(std::stoul(s));
    return true;
}

std::string
Bad(const std::string& name, const std::string& value, const std::string& what)
{
    return "--" + name + "='" + MrcParse::Printable(value) + "' " + what;
}

/// The items of a comma-separated list (an empty item stays, to be rejected).
std::vector<std::string>
Split(const std::string& s)
{
    std::vector<std::string> items;
    std::size_t begin = 0;
    while (true)
    {
        const std::size_t end = s.find(',', begin);
        items.push_back(s.substr(begin, end == std::string::npos ? end : end - begin));
        if (end == std::string::npos)
        {
            return items;
        }
        begin = end + 1;
    }
}

/// "a:b" into its two parts; false unless exactly one colon joins two non-empty names.
bool
SplitPair(const std::string& item, std::string& a, std::string& b)
{
    static const std::regex re("^[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+$");
    if (item.size() > 200 || !std::regex_match(item, re))
    {
        return false;
    }
    const std::size_t colon = item.find(':');
    a = item.substr(0, colon);
    b = item.substr(colon + 1);
    return true;
}

/// The failure and repair times of one kind, and where each came from (for messages).
struct KindTimes
{
    Time at;                //!< failure
    Time repair;            //!< repair (zero: never)
    std::string atName;     //!< the option the failure time came from
    std::string atText;     //!< its value
    std::string repairName; //!< the option the repair time came from ("" : none)
    std::string repairText; //!< its value
};

} // namespace

void
MrcFailureOptions::Register(MrcCommandLine& cmd)
{
    const std::string rep = " (empty: --repairAt; none: never)";
    cmd.AddValue("failSwitch",
                 "switches to fail (every link of each goes down), comma-separated names as "
                 "p0-t1-0",
                 failSwitch);
    cmd.AddValue("failSwitchAt",
                 "when the --failSwitch switches fail (empty: --failAt)",
                 failSwitchAt);
    cmd.AddValue("repairSwitchAt",
                 "when the --failSwitch switches come back" + rep,
                 repairSwitchAt);
    cmd.AddValue("flapLink",
                 "links to flap (cut and repaired --flapCount times), comma-separated "
                 "nodeA:nodeB; an item may carry its own schedule, "
                 "nodeA:nodeB@FIRST[/PERIOD[/DOWN[/COUNT]]] (fields not given: --flapAt, "
                 "--flapPeriod, --flapDown or half its PERIOD, --flapCount)",
                 flapLink);
    cmd.AddValue("flapAt", "first cut of the --flapLink links (empty: --failAt)", flapAt);
    cmd.AddValue("flapPeriod", "time from one cut of a flapping link to the next", flapPeriod);
    cmd.AddValue("flapCount", "cuts of each flapping link, 1..10000", flapCount);
    cmd.AddValue("flapDown",
                 "time a flapping link stays down in each period (empty: half of --flapPeriod)",
                 flapDown);
    cmd.AddValue("grayLink",
                 "gray failures: random loss on one direction of a link, comma-separated "
                 "sender:receiver node names (the link stays up)",
                 grayLink);
    cmd.AddValue("grayLoss", "loss probability of the --grayLink directions, in (0, 1]", grayLoss);
    cmd.AddValue("grayAt", "when the --grayLink loss begins (empty: --failAt)", grayAt);
    cmd.AddValue("grayUntil", "when the --grayLink loss ends" + rep, grayUntil);
    cmd.AddValue("failPlane",
                 "planes to fail (every link of the plane, host links included), "
                 "comma-separated plane numbers from 0",
                 failPlane);
    cmd.AddValue("failPlaneAt", "when the --failPlane planes fail (empty: --failAt)", failPlaneAt);
    cmd.AddValue("repairPlaneAt", "when the --failPlane planes come back" + rep, repairPlaneAt);
    cmd.AddValue("failPort",
                 "NIC ports to take down (the host-T0 link of the port), comma-separated "
                 "host:plane as host3:1",
                 failPort);
    cmd.AddValue("failPortAt", "when the --failPort ports go down (empty: --failAt)", failPortAt);
    cmd.AddValue("repairPortAt", "when the --failPort ports come back" + rep, repairPortAt);
}

std::map<std::string, std::string>
MrcFailureOptions::ToMap() const
{
    const MrcFailureOptions d;
    std::map<std::string, std::string> m;
    for (const auto& [name, value, def] :
         {std::make_tuple("failSwitch", &failSwitch, &d.failSwitch),
          std::make_tuple("failSwitchAt", &failSwitchAt, &d.failSwitchAt),
          std::make_tuple("repairSwitchAt", &repairSwitchAt, &d.repairSwitchAt),
          std::make_tuple("flapLink", &flapLink, &d.flapLink),
          std::make_tuple("flapAt", &flapAt, &d.flapAt),
          std::make_tuple("flapPeriod", &flapPeriod, &d.flapPeriod),
          std::make_tuple("flapCount", &flapCount, &d.flapCount),
          std::make_tuple("flapDown", &flapDown, &d.flapDown),
          std::make_tuple("grayLink", &grayLink, &d.grayLink),
          std::make_tuple("grayLoss", &grayLoss, &d.grayLoss),
          std::make_tuple("grayAt", &grayAt, &d.grayAt),
          std::make_tuple("grayUntil", &grayUntil, &d.grayUntil),
          std::make_tuple("failPlane", &failPlane, &d.failPlane),
          std::make_tuple("failPlaneAt", &failPlaneAt, &d.failPlaneAt),
          std::make_tuple("repairPlaneAt", &repairPlaneAt, &d.repairPlaneAt),
          std::make_tuple("failPort", &failPort, &d.failPort),
          std::make_tuple("failPortAt", &failPortAt, &d.failPortAt),
          std::make_tuple("repairPortAt", &repairPortAt, &d.repairPortAt)})
    {
        if (*value != *def)
        {
            m[name] = *value; // recorded only when given: older runs' summaries stay as they were
        }
    }
    return m;
}

bool
MrcFailureOptions::ParseNodeName(const MrcTopologyConfig& t,
                                 const std::string& name,
                                 bool& isSwitch,
                                 uint32_t& plane,
                                 uint32_t& tier,
                                 uint32_t& index)
{
    static const std::regex host("^host([0-9]{1,9})$");
    static const std::regex sw("^p([0-9]{1,9})-t([0-9])-([0-9]{1,9})$");
    std::smatch m;
    if (std::regex_match(name, m, host))
    {
        isSwitch = false;
        plane = tier = 0;
        index = static_cast<uint32_t>(std::stoul(m[1]));
        return index < t.GetHosts();
    }
    if (!std::regex_match(name, m, sw))
    {
        return false;
    }
    isSwitch = true;
    plane = static_cast<uint32_t>(std::stoul(m[1]));
    tier = static_cast<uint32_t>(std::stoul(m[2]));
    index = static_cast<uint32_t>(std::stoul(m[3]));
    const uint32_t perTier[3] = {t.GetT0PerPlane(), t.GetT1PerPlane(), t.GetT2PerPlane()};
    return plane < t.planes && tier < 3 && index < perTier[tier];
}

namespace
{

/// What a node name of a clos or fattree fabric stands for.
struct NodeRef
{
    bool known{false};    //!< a name of the fabric's shape (else: node<id>, or a graph fabric)
    bool isSwitch{false}; //!< a switch
    uint32_t plane{0};    //!< switch: plane
    uint32_t tier{0};     //!< switch: tier
    uint32_t index{0};    //!< host index, or switch index in plane and tier
};

/// \return the text naming the fabric's nodes, for messages
std::string
NamesAllowed(const MrcTopologyConfig& t)
{
    std::ostringstream os;
    os << "hosts host0..host" << t.GetHosts() - 1 << ", switches p<plane>-t<tier>-<index> with "
       << "plane 0.." << t.planes - 1 << ", t0 0.." << t.GetT0PerPlane() - 1 << ", t1 0.."
       << t.GetT1PerPlane() - 1;
    if (t.GetT2PerPlane() > 0)
    {
        os << ", t2 0.." << t.GetT2PerPlane() - 1;
    }
    return os.str();
}

/// "" unless plane > 0 and a run has one plane only (--sameFabric=0).
std::string
OnePlane(const MrcFailureOptions::Context& ctx,
         const std::string& option,
         const std::string& value,
         const std::string& what,
         uint32_t plane)
{
    if (plane == 0 || ctx.onePlaneRun.empty())
    {
        return "";
    }
    return Bad(option,
               value,
               "names plane " + std::to_string(plane) + " (" + what +
                   " on it), but with --sameFabric=0 the " + ctx.onePlaneRun +
                   " run has one plane at planes x the link rates; allowed: plane 0 only, or "
                   "--sameFabric=1");
}

/// Look a name up in the fabric's shape; "" or a message naming the option.
std::string
Resolve(const MrcFailureOptions::Context& ctx,
        const std::string& option,
        const std::string& value,
        const std::string& name,
        NodeRef& ref)
{
    static const std::regex nodeId("^node[0-9]{1,9}$");
    ref = NodeRef();
    if (ctx.graph || std::regex_match(name, nodeId))
    {
        return ""; // checked against the fabric once it is built
    }
    if (!MrcFailureOptions::ParseNodeName(ctx.topology,
                                          name,
                                          ref.isSwitch,
                                          ref.plane,
                                          ref.tier,
                                          ref.index))
    {
        return Bad(option,
                   value,
                   "names '" + MrcParse::Printable(name) +
                       "', which is not a node of this fabric (allowed: " +
                       NamesAllowed(ctx.topology) + ")");
    }
    ref.known = true;
    return ref.isSwitch ? OnePlane(ctx, option, value, "'" + name + "' is", ref.plane) : "";
}

/// \return the number of links between two nodes of a clos or fattree fabric
uint32_t
LinksBetween(const MrcTopologyConfig& t, NodeRef a, NodeRef b)
{
    if (a.isSwitch && b.isSwitch && a.tier > b.tier)
    {
        std::swap(a, b);
    }
    if (!a.isSwitch && b.isSwitch)
    {
        return b.tier == 0 && b.index == a.index / t.GetHostsPerT0() ? 1 : 0;
    }
    if (a.isSwitch && !b.isSwitch)
    {
        return LinksBetween(t, b, a);
    }
    if (!a.isSwitch || a.plane != b.plane || b.tier != a.tier + 1)
    {
        return 0;
    }
    if (t.kind != MrcTopologyKind::FAT_TREE)
    {
        return t.GetUplinksPerT0() / t.GetT1PerPlane(); // every T0 to every T1
    }
    const uint32_t half = t.k / 2;
    if (a.tier == 0)
    {
        return a.index / half == b.index / half ? 1 : 0; // same pod
    }
    return b.index / half == a.index % half ? 1 : 0; // core group of the aggregation switch
}

/// Check a link item "a:b" of an option; "" or the message.
std::string
CheckLinkItem(const MrcFailureOptions::Context& ctx,
              const std::string& option,
              const std::string& value,
              const std::string& item,
              std::string& a,
              std::string& b)
{
    if (!SplitPair(item, a, b))
    {
        return Bad(option,
                   value,
                   "has the item '" + MrcParse::Printable(item) +
                       "'; allowed: nodeA:nodeB[,nodeC:nodeD...] with node names as host3, "
                       "p0-t1-2");
    }
    NodeRef ra;
    NodeRef rb;
    std::string e = Resolve(ctx, option, value, a, ra);
    if (e.empty())
    {
        e = Resolve(ctx, option, value, b, rb);
    }
    if (!e.empty() || !ra.known || !rb.known)
    {
        return e;
    }
    const uint32_t n = LinksBetween(ctx.topology, ra, rb);
    if (n != 1)
    {
        return Bad(option,
                   value,
                   "has the item '" + item + "': '" + a + "' and '" + b + "' are joined by " +
                       std::to_string(n) +
                       " links; allowed: two nodes joined by exactly one link (a host and its "
                       "T0 on one plane, a T0 and a T1 above it, ...)");
    }
    return "";
}

/// The times of one kind: its own options, else --failAt and --repairAt.
std::string
ResolveTimes(const MrcFailureOptions::Context& ctx,
             const std::string& listOption,
             const std::string& atOption,
             const std::string& atText,
             const std::string& repairOption,
             const std::string& repairText,
             KindTimes& t)
{
    if (atText.empty())
    {
        t.atName = "failAt";
        t.atText = ctx.failAtText;
        t.at = ctx.failAt;
    }
    else
    {
        t.atName = atOption;
        t.atText = atText;
        if (!ParseTime(atText, t.at))
        {
            return Bad(atOption, atText, "must be a time with a unit, e.g. 100us");
        }
    }
    std::ostringstream sim;
    sim << ctx.simTime.GetSeconds() << " s";
    const std::string inherited =
        atText.empty() ? " (the time of --" + listOption + ": --" + atOption + " is not given)"
                       : "";
    if (t.at >= ctx.simTime)
    {
        return Bad(t.atName,
                   t.atText,
                   "is not before --simTime (" + sim.str() + "): the --" + listOption +
                       " failures would never happen" + inherited);
    }
    t.repair = Time(0);
    t.repairName.clear();
    t.repairText.clear();
    if (repairText == "none")
    {
        return "";
    }
    if (repairText.empty())
    {
        if (ctx.repairAtText.empty())
        {
            return "";
        }
        t.repairName = "repairAt";
        t.repairText = ctx.repairAtText;
        t.repair = ctx.repairAt;
    }
    else
    {
        t.repairName = repairOption;
        t.repairText = repairText;
        if (!ParseTime(repairText, t.repair) || t.repair.IsZero())
        {
            return Bad(repairOption,
                       repairText,
                       "must be a time with a unit, e.g. 300us, or none (never)");
        }
    }
    const std::string rInherited = repairText.empty() ? " (the repair time of --" + listOption +
                                                            ": --" + repairOption + " is not given)"
                                                      : "";
    if (t.repair <= t.at)
    {
        return Bad(t.repairName,
                   t.repairText,
                   "is not after the failure time --" + t.atName + "='" + t.atText +
                       "'; allowed: a later time, or --" + repairOption + "=none" + rInherited);
    }
    if (t.repair >= ctx.simTime)
    {
        return Bad(t.repairName,
                   t.repairText,
                   "is not before --simTime (" + sim.str() +
                       "): the repair would never happen; allowed: an earlier time, or --" +
                       repairOption + "=none" + rInherited);
    }
    return "";
}

/// \return "a:b" with the two names in order (a link is the same either way round)
std::string
LinkKey(const std::string& a, const std::string& b)
{
    return a < b ? a + ":" + b : b + ":" + a;
}

/// "" or a message if the list names an item twice.
std::string
CheckTwice(const std::string& option,
           const std::string& value,
           std::set<std::string>& seen,
           const std::string& key,
           const std::string& item)
{
    if (!seen.insert(key).second)
    {
        return Bad(option,
                   value,
                   "names '" + item +
                       "' twice; allowed: each once (two failures of one element at the same "
                       "times contradict each other)");
    }
    return "";
}

/**
 * A --flapLink item's own schedule, the text after '@': FIRST[/PERIOD[/DOWN[/COUNT]]]. The
 * fields not given keep the values passed in (the shared options), except DOWN, which is
 * half the item's own PERIOD when --flapDown is not given.
 * \return "" or the message (without the option's name)
 */
std::string
ParseOwnFlap(const std::string& text,
             const std::string& link,
             bool sharedDownGiven,
             Time& first,
             Time& period,
             Time& down,
             uint32_t& count)
{
    std::vector<std::string> f;
    std::size_t begin = 0;
    while (true)
    {
        const std::size_t slash = text.find('/', begin);
        f.push_back(text.substr(begin, slash == std::string::npos ? slash : slash - begin));
        if (slash == std::string::npos)
        {
            break;
        }
        begin = slash + 1;
    }
    const std::string allowed = "; allowed: " + link +
                                "@FIRST[/PERIOD[/DOWN[/COUNT]]], times with a unit, DOWN below "
                                "PERIOD, COUNT 1..10000, e.g. " +
                                link + "@150us/80us/20us/4";
    auto bad = [&](const std::string& what, const std::string& v) {
        return "gives '" + link + "' the " + what + " '" + MrcParse::Printable(v) + "'" + allowed;
    };
    if (f.size() > 4)
    {
        return "gives '" + link + "' the schedule '" + MrcParse::Printable(text) + "'" + allowed;
    }
    if (!ParseTime(f[0], first))
    {
        return bad("first cut", f[0]);
    }
    if (f.size() > 1)
    {
        if (!ParseTime(f[1], period) || period.IsZero())
        {
            return bad("period", f[1]);
        }
        if (!sharedDownGiven)
        {
            down = period / 2;
        }
    }
    if (f.size() > 2 && (!ParseTime(f[2], down) || down.IsZero()))
    {
        return bad("time down", f[2]);
    }
    if (down.IsZero() || down >= period)
    {
        std::ostringstream os;
        os << "keeps '" << link << "' down " << down.GetSeconds() << " s in each period of "
           << period.GetSeconds() << " s" << allowed;
        return os.str();
    }
    if (f.size() > 3 && (!ParseU32(f[3], count) || count == 0 || count > 10000))
    {
        return bad("count", f[3]);
    }
    return "";
}

} // namespace

std::string
MrcFailureOptions::Check(const Context& ctx, std::vector<MrcFailureSpec>& specs) const
{
    using Kind = MrcFailureSpec::Kind;
    specs.clear();
    KindTimes t;
    std::string e;
    auto add = [&specs, &t](Kind kind, const std::string& option, const std::string& item) {
        MrcFailureSpec s;
        s.kind = kind;
        s.option = option;
        s.item = item;
        s.at = t.at;
        s.repair = t.repair;
        specs.push_back(s);
        return &specs.back();
    };

    // -- switches
    if (!failSwitch.empty())
    {
        e = ResolveTimes(ctx,
                         "failSwitch",
                         "failSwitchAt",
                         failSwitchAt,
                         "repairSwitchAt",
                         repairSwitchAt,
                         t);
        if (!e.empty())
        {
            return e;
        }
        std::set<std::string> seen;
        for (const std::string& item : Split(failSwitch))
        {
            NodeRef r;
            e = Resolve(ctx, "failSwitch", failSwitch, item, r);
            if (e.empty() && item.empty())
            {
                e = Bad("failSwitch", failSwitch, "has an empty item; allowed: SW[,SW...]");
            }
            if (e.empty() && r.known && !r.isSwitch)
            {
                e = Bad("failSwitch",
                        failSwitch,
                        "names '" + item +
                            "', a host; allowed: switches (p<plane>-t<tier>-<index>)");
            }
            if (e.empty())
            {
                e = CheckTwice("failSwitch", failSwitch, seen, item, item);
            }
            if (!e.empty())
            {
                return e;
            }
            add(Kind::SWITCH, "failSwitch", item)->nodeA = item;
        }
    }

    // -- flapping links
    if (!flapLink.empty())
    {
        // the shared schedule (--flapAt, --flapPeriod, --flapDown, --flapCount), which an item
        // may override with its own LINK@FIRST[/PERIOD[/DOWN[/COUNT]]]
        Time period;
        uint32_t count = 0;
        Time down;
        if (!ParseTime(flapPeriod, period) || period.IsZero())
        {
            return Bad("flapPeriod", flapPeriod, "must be a positive time with a unit, e.g. 20us");
        }
        if (!ParseU32(flapCount, count) || count == 0 || count > 10000)
        {
            return Bad("flapCount", flapCount, "must be an integer 1..10000");
        }
        if (flapDown.empty())
        {
            down = period / 2;
        }
        else if (!ParseTime(flapDown, down) || down.IsZero() || down >= period)
        {
            return Bad("flapDown",
                       flapDown,
                       "must be a positive time with a unit below --flapPeriod='" + flapPeriod +
                           "'");
        }
        if (down.IsZero())
        {
            return Bad("flapPeriod", flapPeriod, "is too short to halve (give --flapDown)");
        }
        const std::vector<std::string> items = Split(flapLink);
        KindTimes shared;
        if (std::any_of(items.begin(), items.end(), [](const std::string& i) {
                return i.find('@') == std::string::npos;
            }))
        {
            e = ResolveTimes(ctx, "flapLink", "flapAt", flapAt, "", "none", shared);
            if (!e.empty())
            {
                return e;
            }
        }
        std::set<std::string> seen;
        // the --failLink links -> (cut time, as given: its own @TIME or --failAt)
        std::map<std::string, std::pair<Time, std::string>> cut;
        if (!ctx.failLinkText.empty())
        {
            for (const std::string& item : Split(ctx.failLinkText))
            {
                const std::size_t at = item.find('@');
                Time when = ctx.failAt;
                std::string whenText = "--failAt='" + ctx.failAtText + "'";
                if (at != std::string::npos && ParseTime(item.substr(at + 1), when))
                {
                    whenText = "'" + item.substr(at + 1) + "'";
                }
                std::string a;
                std::string b;
                if (SplitPair(item.substr(0, at), a, b))
                {
                    cut[LinkKey(a, b)] = {when, whenText};
                }
            }
        }
        for (const std::string& item : items)
        {
            const std::size_t atPos = item.find('@');
            const std::string link = item.substr(0, atPos);
            std::string a;
            std::string b;
            e = CheckLinkItem(ctx, "flapLink", flapLink, link, a, b);
            Time first = shared.at;
            Time itemPeriod = period;
            Time itemDown = down;
            uint32_t itemCount = count;
            std::string countText = "--flapCount='" + flapCount + "'";
            if (e.empty() && atPos != std::string::npos)
            {
                e = ParseOwnFlap(item.substr(atPos + 1),
                                 link,
                                 !flapDown.empty(),
                                 first,
                                 itemPeriod,
                                 itemDown,
                                 itemCount);
                if (!e.empty())
                {
                    e = Bad("flapLink", flapLink, e);
                }
                else if (first >= ctx.simTime)
                {
                    std::ostringstream os;
                    os << "cuts '" << link << "' first at " << first.GetSeconds()
                       << " s, not before --simTime (" << ctx.simTime.GetSeconds()
                       << " s): the link would never flap";
                    e = Bad("flapLink", flapLink, os.str());
                }
                countText = "'" + item + "'";
            }
            const Time lastCut = first + itemPeriod * static_cast<int64_t>(itemCount - 1);
            if (e.empty() && lastCut >= ctx.simTime)
            {
                std::ostringstream os;
                os << "makes the last cut of '" << link << "' (" << itemCount
                   << " of them, one every " << itemPeriod.GetSeconds() << " s from "
                   << first.GetSeconds() << " s) at " << lastCut.GetSeconds()
                   << " s, not before --simTime (" << ctx.simTime.GetSeconds()
                   << " s); allowed: fewer cuts, a shorter period or a later --simTime";
                e = atPos == std::string::npos ? Bad("flapCount", flapCount, os.str())
                                               : Bad("flapLink", flapLink, os.str());
            }
            if (e.empty())
            {
                e = CheckTwice("flapLink", flapLink, seen, LinkKey(a, b), item);
            }
            // Both act on the link's own state: a flap's repair would end the cut early.
            const Time flapEnd = lastCut + itemDown;
            const Time cutEnd = ctx.repairAt.IsStrictlyPositive() ? ctx.repairAt : Time::Max();
            const auto c = cut.find(LinkKey(a, b));
            if (e.empty() && c != cut.end() && c->second.first < flapEnd && first < cutEnd)
            {
                e = Bad("flapLink",
                        flapLink,
                        "flaps '" + link + "' while --failLink holds it down (from " +
                            c->second.second +
                            (ctx.repairAtText.empty()
                                 ? ""
                                 : " to --repairAt='" + ctx.repairAtText + "'") +
                            "); allowed: a link --failLink does not name, or a flap that ends "
                            "before the cut or begins after the repair");
            }
            if (!e.empty())
            {
                return e;
            }
            t.at = first;
            t.repair = Time(0);
            MrcFailureSpec* s = add(Kind::FLAP, "flapLink", link);
            s->nodeA = a;
            s->nodeB = b;
            s->period = itemPeriod;
            s->count = itemCount;
            s->downTime = itemDown;
        }
    }

    // -- gray failures
    if (!grayLink.empty())
    {
        char* end = nullptr;
        const double loss = std::strtod(grayLoss.c_str(), &end);
        if (grayLoss.empty() || *end != '\0' || !(loss > 0 && loss <= 1))
        {
            return Bad("grayLoss", grayLoss, "must be a probability in (0, 1]");
        }
        e = ResolveTimes(ctx, "grayLink", "grayAt", grayAt, "grayUntil", grayUntil, t);
        if (!e.empty())
        {
            return e;
        }
        std::set<std::string> seen;
        for (const std::string& item : Split(grayLink))
        {
            std::string a;
            std::string b;
            e = CheckLinkItem(ctx, "grayLink", grayLink, item, a, b);
            if (e.empty())
            {
                e = CheckTwice("grayLink", grayLink, seen, a + ":" + b, item);
            }
            if (!e.empty())
            {
                return e;
            }
            MrcFailureSpec* s = add(Kind::GRAY, "grayLink", item);
            s->nodeA = a;
            s->nodeB = b;
            s->loss = loss;
        }
    }

    // -- planes
    if (!failPlane.empty())
    {
        e = ResolveTimes(ctx,
                         "failPlane",
                         "failPlaneAt",
                         failPlaneAt,
                         "repairPlaneAt",
                         repairPlaneAt,
                         t);
        if (!e.empty())
        {
            return e;
        }
        std::set<std::string> seen;
        for (const std::string& item : Split(failPlane))
        {
            uint32_t p = 0;
            if (!ParseU32(item, p) || (!ctx.graph && p >= ctx.topology.planes))
            {
                return Bad("failPlane",
                           failPlane,
                           "has the item '" + MrcParse::Printable(item) +
                               "'; allowed: plane numbers 0.." +
                               std::to_string(ctx.topology.planes - 1) + ", comma-separated");
            }
            e = OnePlane(ctx, "failPlane", failPlane, "the plane", p);
            if (e.empty())
            {
                e = CheckTwice("failPlane", failPlane, seen, std::to_string(p), item);
            }
            if (!e.empty())
            {
                return e;
            }
            add(Kind::PLANE, "failPlane", item)->plane = p;
        }
    }

    // -- NIC ports
    if (!failPort.empty())
    {
        e = ResolveTimes(ctx,
                         "failPort",
                         "failPortAt",
                         failPortAt,
                         "repairPortAt",
                         repairPortAt,
                         t);
        if (!e.empty())
        {
            return e;
        }
        std::set<std::string> seen;
        for (const std::string& item : Split(failPort))
        {
            std::string host;
            std::string planeText;
            uint32_t p = 0;
            NodeRef r;
            if (!SplitPair(item, host, planeText) || !ParseU32(planeText, p) ||
                (!ctx.graph && p >= ctx.topology.planes))
            {
                return Bad("failPort",
                           failPort,
                           "has the item '" + MrcParse::Printable(item) +
                               "'; allowed: host:plane with plane 0.." +
                               std::to_string(ctx.topology.planes - 1) + ", as host3:0");
            }
            e = OnePlane(ctx, "failPort", failPort, "the port", p);
            if (e.empty())
            {
                e = Resolve(ctx, "failPort", failPort, host, r);
            }
            if (e.empty() && r.known && r.isSwitch)
            {
                e = Bad("failPort",
                        failPort,
                        "names '" + host + "', a switch; allowed: hosts (host<i>), as host3:0");
            }
            if (e.empty())
            {
                e = CheckTwice("failPort", failPort, seen, host + ":" + std::to_string(p), item);
            }
            if (!e.empty())
            {
                return e;
            }
            MrcFailureSpec* s = add(Kind::PORT, "failPort", item);
            s->nodeA = host;
            s->plane = p;
        }
    }
    return "";
}

} // namespace ns3
