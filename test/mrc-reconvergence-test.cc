/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MRC over reconverging ECMP (issue 19): with structured EVs the switches hash each EV onto
// a path, so when the control plane recomputes the routes after a link failure, EVs that
// never crossed the failed link move to other spines and what MRC learnt about them no
// longer describes their path. With SRv6 EVs the path is written in the packet and the
// recomputation moves nothing. Both runs use mrc-sim's scenario runner on the same fabric:
// one plane, 2 T0 x 4 hosts, 4 T1, link p0-t0-0:p0-t1-0 cut at 50 us, routes recomputed
// 200 us later.

#include "mrc-test-support.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/mrc-ecmp-route-manager.h"
#include "ns3/mrc-packet-info.h"
#include "ns3/mrc-scenario-options.h"
#include "ns3/mrc-scenario-presets.h"
#include "ns3/mrc-scenario-runner.h"
#include "ns3/mrc-switch-node.h"
#include "ns3/mrc-topology.h"
#include "ns3/names.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <tuple>

using namespace ns3;

namespace
{

const Time FAIL_AT = MicroSeconds(50);
const Time CONVERGENCE = MicroSeconds(200);
/// Packets after this time see the recomputed routes (in flight at the recomputation: done).
const Time SETTLED = FAIL_AT + CONVERGENCE + MicroSeconds(50);

/// The fields of a packet that an EV sets and a switch hashes (or, in SRv6 form, follows).
using EvKey = std::tuple<Ipv6Address, Ipv6Address, uint32_t, uint16_t>;

/// Which spine (T1 index) carried each EV, before the failure and once routes converged.
struct SpineLog
{
    std::map<EvKey, std::set<uint32_t>> before; //!< EV -> T1 indices, before FAIL_AT
    std::map<EvKey, std::set<uint32_t>> after;  //!< EV -> T1 indices, from SETTLED on
};

SpineLog* g_spines = nullptr;

void
OnT1Forward(uint32_t t1, Ptr<const Packet> p, uint32_t, uint32_t, uint8_t)
{
    MrcPacketInfo info;
    ASSERT_TRUE(MrcParsePacket(p, info));
    if (!info.hasUdp)
    {
        return;
    }
    const EvKey key{info.src.ToAddress(), info.dst.ToAddress(), info.flowLabel, info.udpSrcPort};
    const Time now = Simulator::Now();
    if (now < FAIL_AT)
    {
        g_spines->before[key].insert(t1);
    }
    else if (now >= SETTLED)
    {
        g_spines->after[key].insert(t1);
    }
}

/// What one run showed.
struct Moves
{
    uint32_t seenTwice{0};    //!< EVs seen at a T1 both before the failure and after SETTLED
    uint32_t movedHealthy{0}; //!< of those, EVs that changed spine though they never used T1 0
    uint32_t recomputations{0};
    uint64_t exactlyOnce{0};
    uint64_t total{0};
};

/// 8 hosts x `bytes` permutation of MRC with `evFormat`; routes converge when `dynamic`.
Moves
RunFailure(const std::string& evFormat, bool dynamic)
{
    Config::SetDefault("ns3::MrcEcmpRouteManager::ConvergenceDelay", TimeValue(CONVERGENCE));
    Config::SetDefault("ns3::MrcEcmpRouteManager::Enabled", BooleanValue(dynamic));
    MrcScenarioOptions o;
    o.scenario = "permutation";
    MrcScenarios::Find("permutation")->preset(o);
    o.transports = "";
    o.transport = "mrc";
    o.evFormat = evFormat;
    o.topo.planes = "1";
    o.topo.hosts = "8";
    o.topo.hostsPerT0 = "4";
    o.topo.t1PerPlane = "4";
    o.topo.hostRate = "100Gbps";
    o.topo.fabricRate = "100Gbps";
    o.bytes = "8000000";
    o.failLink = "p0-t0-0:p0-t1-0";
    o.failAt = "50us";
    o.sampleInterval = "0s";
    o.simTime = "50ms";
    MrcScenarioConfig c = o.ToConfig();
    c.progress = false;
    MrcScenarioRunner r(c);
    r.Build();
    SpineLog log;
    g_spines = &log;
    Ptr<MrcTopology> t = r.GetTopology();
    for (uint32_t i = 0; i < t->GetNSwitchesPerPlane(MrcTier::T1); ++i)
    {
        t->GetSwitch(0, MrcTier::T1, i)
            ->TraceConnectWithoutContext("Forward", MakeBoundCallback(&OnT1Forward, i));
    }
    r.Run();
    Moves m;
    for (const auto& [key, spines] : log.before)
    {
        auto it = log.after.find(key);
        if (it == log.after.end())
        {
            continue;
        }
        ++m.seenTwice;
        if (spines.count(0) == 0 && it->second != spines)
        {
            ++m.movedHealthy;
        }
    }
    m.recomputations = t->GetRouteManager(0)->GetNRecomputations();
    const auto s = r.GetResults().Summarize();
    m.exactlyOnce = s.at(0).counters.bytesExactlyOnce;
    m.total = 8 * 8000000ULL;
    g_spines = nullptr;
    Simulator::Destroy();
    Names::Clear();
    Config::Reset();
    return m;
}

} // namespace

TEST(MrcReconvergence, HashedEvsMoveWhenRoutesConvergeSoTheirHealthIsStale)
{
    const Moves m = RunFailure("structured", true);
    EXPECT_EQ(m.recomputations, 2u); // the initial routes and the one after the cut
    ASSERT_GE(m.seenTwice, 50u);
    // T0 0 and the other T0 go from 4 to 3 spines: a hash modulo 3 instead of 4 moves
    // most EVs, also those that never touched the failed link.
    EXPECT_GE(m.movedHealthy, m.seenTwice / 4);
    EXPECT_EQ(m.exactlyOnce, m.total);
}

TEST(MrcReconvergence, WithStaticRoutesOnlyTheEvsOfTheFailedLinkMove)
{
    // Same run, control plane off: only the switch at each end of the link reacts (the
    // flows hashed onto its dead port rehash), so an EV that did not use T1 0 keeps its
    // spine. The moves of the first test come from the recomputation.
    const Moves m = RunFailure("structured", false);
    EXPECT_EQ(m.recomputations, 1u);
    ASSERT_GE(m.seenTwice, 50u);
    EXPECT_EQ(m.movedHealthy, 0u);
    EXPECT_EQ(m.exactlyOnce, m.total);
}

TEST(MrcReconvergence, Srv6EvsKeepTheirPathsThroughTheRecomputation)
{
    const Moves m = RunFailure("srv6", true);
    EXPECT_EQ(m.recomputations, 2u);
    ASSERT_GE(m.seenTwice, 50u);
    EXPECT_EQ(m.movedHealthy, 0u);
    EXPECT_EQ(m.exactlyOnce, m.total);
}
