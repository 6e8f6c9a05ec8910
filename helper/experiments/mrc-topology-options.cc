/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-topology-options.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <regex>
#include <sstream>
#include <tuple>

namespace ns3
{

void
MrcTopologyOptions::Register(MrcCommandLine& cmd)
{
    cmd.AddValue("topology",
                 "fabric shape: clos (2-tier, per plane) or fattree (3-tier k-ary)",
                 topology);
    cmd.AddValue("planes", "planes = NIC ports per host, 1..15", planes);
    cmd.AddValue("hosts",
                 "hosts (clos: a multiple of hostsPerT0, default 16; fattree: default and 0 = "
                 "k*k/2*hostsPerT0)",
                 hosts);
    cmd.AddValue("hostsPerT0",
                 "hosts (downlinks) per T0 (clos default 4; fattree: default and 0 = k/2)",
                 hostsPerT0);
    cmd.AddValue("t1PerPlane", "clos: T1 (spine) switches per plane", t1PerPlane);
    cmd.AddValue("uplinksPerT0",
                 "clos: uplinks per T0, a multiple of t1PerPlane (0 = t1PerPlane)",
                 uplinksPerT0);
    cmd.AddValue("k", "fattree: arity (even, 2..44)", k);
    cmd.AddValue("hostRate", "NIC port - T0 link rate, e.g. 100Gbps", hostRate);
    cmd.AddValue("fabricRate", "T0 - T1 link rate", fabricRate);
    cmd.AddValue("coreRate", "fattree: T1 - T2 link rate (empty = fabricRate)", coreRate);
    cmd.AddValue("linkDelay", "propagation delay of every link, e.g. 1us", linkDelay);
    cmd.AddValue("hostLinkDelay", "NIC port - T0 delay (empty = linkDelay)", hostLinkDelay);
    cmd.AddValue("coreLinkDelay", "fattree: T1 - T2 delay (empty = linkDelay)", coreLinkDelay);
    cmd.AddValue(
        "mtu",
        "MTU: payload bytes per packet of the transport and of the base RTT (mrc-sim: "
        "empty = the profile's payload if it sets one, roce-hpcc 1000 as the HPCC simulator; "
        "else 4096 for roce, uec and mrc)",
        mtu);
}

namespace
{

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

bool
ParseRate(const std::string& s, DataRate& out)
{
    DataRateValue v;
    if (!v.DeserializeFromString(s, MakeDataRateChecker()))
    {
        return false;
    }
    out = v.Get();
    return true;
}

bool
ParseTime(const std::string& s, Time& out)
{
    // checked first: Time's own parser aborts on what it cannot read
    static const std::regex re("[0-9]+(\\.[0-9]+)?(s|ms|us|ns|ps|fs|min|h)");
    if (!std::regex_match(s, re))
    {
        return false;
    }
    out = Time(s);
    return true;
}

} // namespace

std::string
MrcTopologyOptions::TryToConfig(MrcTopologyConfig& c) const
{
    std::ostringstream e;
    auto bad = [&e](const std::string& name, const std::string& value, const std::string& what) {
        e << (e.tellp() > 0 ? "; " : "") << "--" << name << "='" << value << "' " << what;
    };
    if (topology == "clos")
    {
        c.kind = MrcTopologyKind::CLOS;
    }
    else if (topology == "fattree")
    {
        c.kind = MrcTopologyKind::FAT_TREE;
    }
    else
    {
        bad("topology", topology, "is not a topology (allowed: clos, fattree)");
    }
    const bool fat = c.kind == MrcTopologyKind::FAT_TREE;
    const std::string hostsText = hosts.empty() ? (fat ? "0" : "16") : hosts;
    const std::string hptText = hostsPerT0.empty() ? (fat ? "0" : "4") : hostsPerT0;
    for (const auto& [name, text, field] :
         {std::tuple<const char*, const std::string*, uint32_t*>{"planes", &planes, &c.planes},
          {"hosts", &hostsText, &c.hosts},
          {"hostsPerT0", &hptText, &c.hostsPerT0},
          {"t1PerPlane", &t1PerPlane, &c.t1PerPlane},
          {"uplinksPerT0", &uplinksPerT0, &c.uplinksPerT0},
          {"k", &k, &c.k},
          {"mtu", &mtu, &c.mtu}})
    {
        if (!ParseU32(*text, *field))
        {
            bad(name, *text, "is not a non-negative integer");
        }
    }
    if (!ParseRate(hostRate, c.hostRate))
    {
        bad("hostRate", hostRate, "is not a data rate such as 100Gbps");
    }
    if (!ParseRate(fabricRate, c.fabricRate))
    {
        bad("fabricRate", fabricRate, "is not a data rate such as 100Gbps");
    }
    if (!ParseRate(coreRate.empty() ? fabricRate : coreRate, c.coreRate) && !coreRate.empty())
    {
        bad("coreRate", coreRate, "is not a data rate such as 100Gbps");
    }
    Time d;
    if (!ParseTime(linkDelay, d))
    {
        bad("linkDelay", linkDelay, "is not a time such as 1us");
    }
    c.hostDelay = c.fabricDelay = c.coreDelay = d;
    if (!hostLinkDelay.empty() && !ParseTime(hostLinkDelay, c.hostDelay))
    {
        bad("hostLinkDelay", hostLinkDelay, "is not a time such as 1us");
    }
    if (!coreLinkDelay.empty() && !ParseTime(coreLinkDelay, c.coreDelay))
    {
        bad("coreLinkDelay", coreLinkDelay, "is not a time such as 1us");
    }
    if (e.tellp() > 0)
    {
        return e.str();
    }
    const std::string v = c.Validate();
    return v.empty() ? v : "invalid fabric: " + v;
}

MrcTopologyConfig
MrcTopologyOptions::ToConfig() const
{
    MrcTopologyConfig c;
    const std::string err = TryToConfig(c);
    if (!err.empty())
    {
        MrcCommandLine::Fail(err);
    }
    return c;
}

} // namespace ns3
