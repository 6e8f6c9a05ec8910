/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Builds a fabric with MrcTopologyHelper and prints its shape: planes, hosts, switches per
// tier, links, SRv6 paths between two hosts per plane, base RTT and bisection bandwidth.
// Writes the same as DIR/topology.json with --out=DIR.
//
//   mrc-topology --planes=8 --hosts=1024 --hostsPerT0=32 --t1PerPlane=16 --src=0 --dst=1023
//   mrc-topology --topology=fattree --k=8 --out=/tmp/ft

#include "ns3/core-module.h"
#include "ns3/mrc-command-line.h"
#include "ns3/mrc-topology-helper.h"
#include "ns3/mrc-topology-options.h"

#include <fstream>
#include <iostream>
#include <string>
#include <sys/stat.h>

using namespace ns3;

int
main(int argc, char* argv[])
{
    MrcTopologyOptions topo;
    std::string src = "0";
    std::string dst = "";
    std::string out = "";
    std::string showPaths = "4";
    MrcCommandLine cmd(__FILE__);
    cmd.Usage("Build a multi-plane Clos or fat-tree fabric and print its shape, the SRv6 paths "
              "between two hosts, the base RTT of the longest path and the bisection bandwidth.");
    topo.Register(cmd);
    cmd.AddValue("src", "first host of the path listing", src);
    cmd.AddValue("dst", "second host of the path listing (empty: the last host)", dst);
    cmd.AddValue("showPaths",
                 "paths printed per plane (all are counted and in the JSON)",
                 showPaths);
    cmd.AddValue("out", "directory for topology.json (created; empty: no file)", out);
    cmd.Parse(argc, argv);
    const MrcTopologyConfig config = topo.ToConfig();

    auto parseHost = [&config](const std::string& name, const std::string& v) {
        if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos ||
            std::stoul(v) >= config.GetHosts())
        {
            MrcCommandLine::Fail("--" + name + "='" + v + "' must be a host index 0.." +
                                 std::to_string(config.GetHosts() - 1));
        }
        return static_cast<uint32_t>(std::stoul(v));
    };
    const uint32_t s = parseHost("src", src);
    const uint32_t d = parseHost("dst", dst.empty() ? std::to_string(config.GetHosts() - 1) : dst);
    if (showPaths.empty() || showPaths.size() > 6 ||
        showPaths.find_first_not_of("0123456789") != std::string::npos)
    {
        MrcCommandLine::Fail("--showPaths='" + showPaths + "' must be a non-negative integer");
    }
    const std::size_t show = std::stoul(showPaths);

    MrcTopologyHelper helper(config);
    Ptr<MrcTopology> t = helper.Build();
    std::cout << "topology " << MrcTopologyKindName(config.kind) << ": " << t->GetNPlanes()
              << " planes, " << t->GetNHosts() << " hosts, " << config.GetHostsPerT0()
              << " hosts per T0, " << config.GetUplinksPerT0()
              << " uplinks per T0 (oversubscription " << config.GetOversubscription() << ")\n"
              << "switches per plane: T0 " << t->GetNSwitchesPerPlane(MrcTier::T0) << ", T1 "
              << t->GetNSwitchesPerPlane(MrcTier::T1) << ", T2 "
              << t->GetNSwitchesPerPlane(MrcTier::T2) << "; total " << t->GetNSwitches() << "\n"
              << "links: " << t->GetNLinks() << " (host " << t->GetNLinks(MrcLinkTier::HOST)
              << ", T0-T1 " << t->GetNLinks(MrcLinkTier::T0_T1) << ", T1-T2 "
              << t->GetNLinks(MrcLinkTier::T1_T2) << ")\n"
              << "base RTT (mtu " << config.mtu
              << ", longest path): " << t->GetBaseRtt(config.mtu).GetNanoSeconds() << " ns\n"
              << "bisection bandwidth: " << t->GetBisectionBandwidth() / 1e9 << " Gb/s\n";
    if (s != d)
    {
        std::cout << "paths host" << s << " (" << t->GetAddress(s, 0) << ", ...) -> host" << d
                  << " (" << t->GetAddress(d, 0) << ", ...):\n";
        for (uint32_t p = 0; p < t->GetNPlanes(); ++p)
        {
            std::vector<MrcPath> ps = t->GetPaths(s, d, p);
            std::cout << "  plane " << p << ": " << ps.size() << " paths";
            for (std::size_t i = 0; i < ps.size() && i < show; ++i)
            {
                std::cout << (i ? ", " : " ") << ps[i].carrier;
            }
            std::cout << (ps.size() > show ? ", ..." : "") << "\n";
        }
    }
    if (!out.empty())
    {
        mkdir(out.c_str(), 0755);
        std::ofstream js(out + "/topology.json");
        if (!js)
        {
            MrcCommandLine::Fail("--out='" + out + "': cannot write topology.json there");
        }
        js << t->ToJson(s, d);
    }
    Simulator::Destroy();
    return 0;
}
