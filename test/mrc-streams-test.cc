/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Random streams: every random variable of the fabric and of a scenario run draws from a
// fixed ns-3 stream of its own, so the draws of one object depend neither on other objects
// nor on the size of the fabric.

#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/mrc-dual-forwarding.h"
#include "ns3/mrc-ecmp-forwarding.h"
#include "ns3/mrc-ecn-marker.h"
#include "ns3/mrc-ev-table.h"
#include "ns3/mrc-fabric-streams.h"
#include "ns3/mrc-multipath-queue-pair.h"
#include "ns3/mrc-scenario-workload.h"
#include "ns3/mrc-scenario.h"
#include "ns3/mrc-switch-node.h"
#include "ns3/mrc-topology-helper.h"
#include "ns3/mrc-topology.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdint>
#include <gtest/gtest.h>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/**
 * 64 marking decisions of an ECN marker at a queue where it marks with probability 1/2
 * (Pmax 1, the queue half-way between Kmin and Kmax): a fingerprint of its stream.
 */
uint64_t
Fingerprint(Ptr<MrcEcnMarker> m)
{
    m->SetAttribute("Kmin", UintegerValue(1000));
    m->SetAttribute("Kmax", UintegerValue(3000));
    m->SetAttribute("Pmax", DoubleValue(1.0));
    uint64_t bits = 0;
    for (int i = 0; i < 64; ++i)
    {
        bits = (bits << 1) | (m->ShouldMark(2000) ? 1 : 0);
    }
    return bits;
}

/// A one-plane Clos: `t0` T0 switches with `hostsPerT0` hosts each, 2 T1 switches.
Ptr<MrcTopology>
Clos(uint32_t t0, uint32_t hostsPerT0, uint32_t planes = 1)
{
    MrcTopologyConfig c;
    c.kind = MrcTopologyKind::CLOS;
    c.planes = planes;
    c.hosts = t0 * hostsPerT0;
    c.hostsPerT0 = hostsPerT0;
    c.t1PerPlane = 2;
    MrcTopologyHelper th(c);
    th.SetNames(false);
    return th.Build();
}

/// An MRC permutation on a 16-host Clos (4 per T0, 4 T1), small messages.
MrcScenarioConfig
MrcPermutation(const std::string& seed, const std::string& lossRate = "0")
{
    MrcScenarioOptions o;
    o.scenario = "permutation";
    MrcScenarios::Find("permutation")->preset(o);
    o.transports = "";
    o.transport = "mrc";
    o.topo.planes = "1";
    o.topo.hosts = "16";
    o.topo.hostsPerT0 = "4";
    o.topo.t1PerPlane = "4";
    o.bytes = "100000";
    o.qpsPerPair = "1";
    o.seed = seed;
    o.lossRate = lossRate;
    o.sampleInterval = "0s";
    MrcScenarioConfig c = o.ToConfig();
    c.progress = false;
    return c;
}

/// Per requester of a built (not run) scenario: its EV values, then its first 32 picks.
std::vector<std::vector<uint32_t>>
EvPrints(const MrcScenarioConfig& c)
{
    MrcScenarioRunner r(c);
    r.Build();
    std::vector<std::vector<uint32_t>> prints;
    for (const Ptr<MrcQueuePair>& q : r.GetRequesters())
    {
        Ptr<MrcEvTable> t = DynamicCast<MrcMultipathQueuePair>(q)->GetEvTable();
        std::vector<uint32_t> v;
        for (uint32_t id = 0; id < t->GetEvCount(); ++id)
        {
            v.push_back(t->GetValue(id));
        }
        for (uint32_t i = 0; i < 32; ++i)
        {
            v.push_back(t->GetValue(t->Select(0xffffffff)));
        }
        prints.push_back(v);
    }
    Simulator::Destroy();
    Config::Reset(); // the MRC fabric defaults the runner set
    return prints;
}

} // namespace

TEST(MrcStreams, SwitchGivesEachPortMarkerItsOwnStream)
{
    Ptr<MrcTopology> topo = Clos(2, 4);
    Ptr<MrcSwitchNode> sw = topo->GetSwitchById(0);
    ASSERT_EQ(sw->GetNPorts(), 6u); // 4 hosts, 2 T1
    EXPECT_EQ(MrcFabricStreams::AssignStreams(sw, 10), 6);
    std::set<uint64_t> prints;
    for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
    {
        prints.insert(Fingerprint(sw->GetEcnMarker(p)));
    }
    EXPECT_EQ(prints.size(), 6u); // no two markers repeat each other's draws
    // Port 2 on stream 12: a marker given that stream by hand draws the same.
    Ptr<MrcEcnMarker> alone = CreateObject<MrcEcnMarker>();
    alone->AssignStreams(12);
    MrcFabricStreams::AssignStreams(sw, 10);
    EXPECT_EQ(Fingerprint(alone), Fingerprint(sw->GetEcnMarker(2)));
    Simulator::Destroy();
}

TEST(MrcStreams, EveryMarkerOfTheFabricDrawsDifferently)
{
    Ptr<MrcTopology> topo = Clos(4, 4, 2);
    EXPECT_EQ(MrcFabricStreams::AssignStreams(topo, 1000),
              static_cast<int64_t>(topo->GetNSwitches()) * MrcFabricStreams::STREAMS_PER_SWITCH);
    std::set<uint64_t> prints;
    uint32_t markers = 0;
    for (uint32_t s = 0; s < topo->GetNSwitches(); ++s)
    {
        Ptr<MrcSwitchNode> sw = topo->GetSwitchById(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            prints.insert(Fingerprint(sw->GetEcnMarker(p)));
            ++markers;
        }
    }
    EXPECT_EQ(markers, 2u * (4 * (4 + 2) + 2 * 4)); // per plane: 4 T0 x 6 ports, 2 T1 x 4
    EXPECT_EQ(prints.size(), markers);
    Simulator::Destroy();
}

TEST(MrcStreams, MoreHostsLeaveTheOtherSwitchesDrawsAsTheyWere)
{
    // The T1 switches (ids 2 and 3 after the two T0s) have the same ports in both
    // fabrics; the T0s of the second one have 4 more host ports each. With one stream
    // range per switch, the T1 markers draw exactly as before (numbering the markers one
    // after the other would shift them by the 8 added ports).
    std::vector<uint64_t> small;
    std::vector<uint64_t> large;
    for (auto [hostsPerT0, out] : {std::make_pair(2u, &small), std::make_pair(6u, &large)})
    {
        Ptr<MrcTopology> topo = Clos(2, hostsPerT0);
        MrcFabricStreams::AssignStreams(topo, 1000);
        for (uint32_t s : {2u, 3u})
        {
            Ptr<MrcSwitchNode> sw = topo->GetSwitchById(s);
            EXPECT_EQ(sw->GetNPorts(), 2u);
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                out->push_back(Fingerprint(sw->GetEcnMarker(p)));
            }
        }
        // The host ports the two share (0 and 1 of each T0) draw the same too.
        for (uint32_t s : {0u, 1u})
        {
            for (uint32_t p : {0u, 1u})
            {
                out->push_back(Fingerprint(topo->GetSwitchById(s)->GetEcnMarker(p)));
            }
        }
        Simulator::Destroy();
    }
    EXPECT_EQ(small, large);
    // A second plane leaves plane 0 as it was.
    Ptr<MrcTopology> two = Clos(2, 2, 2);
    MrcFabricStreams::AssignStreams(two, 1000);
    std::vector<uint64_t> plane0;
    for (uint32_t s : {2u, 3u})
    {
        for (uint32_t p = 0; p < 2; ++p)
        {
            plane0.push_back(Fingerprint(two->GetSwitchById(s)->GetEcnMarker(p)));
        }
    }
    EXPECT_EQ(plane0, std::vector<uint64_t>(small.begin(), small.begin() + 4));
    Simulator::Destroy();
}

namespace
{

/// \return the ECMP Seed of every switch of the fabric, by switch id
std::vector<uint64_t>
EcmpSeeds(Ptr<MrcTopology> topo)
{
    std::vector<uint64_t> seeds;
    for (uint32_t s = 0; s < topo->GetNSwitches(); ++s)
    {
        Ptr<MrcDualForwarding> fwd =
            DynamicCast<MrcDualForwarding>(topo->GetSwitchById(s)->GetForwarding());
        UintegerValue v;
        fwd->GetEcmp()->GetAttribute("Seed", v);
        seeds.push_back(v.Get());
    }
    return seeds;
}

} // namespace

TEST(MrcStreams, EcmpSeedsAreDrawnPerSwitchAndRun)
{
    const uint64_t run = RngSeedManager::GetRun();
    RngSeedManager::SetRun(1);
    Ptr<MrcTopology> small = Clos(2, 2);
    EXPECT_EQ(MrcFabricStreams::DrawEcmpSeeds(small, 50), 4);
    const std::vector<uint64_t> a = EcmpSeeds(small);
    EXPECT_EQ(std::set<uint64_t>(a.begin(), a.end()).size(), 4u); // every switch its own
    EXPECT_EQ(a[3], MrcFabricStreams::DrawSeed(53));
    // More hosts (larger T0s): the same switch ids keep their seeds.
    Ptr<MrcTopology> large = Clos(2, 6);
    MrcFabricStreams::DrawEcmpSeeds(large, 50);
    EXPECT_EQ(EcmpSeeds(large), a);
    // Another run: other seeds, none shared with run 1 (not shifted by one switch).
    RngSeedManager::SetRun(2);
    Ptr<MrcTopology> other = Clos(2, 2);
    MrcFabricStreams::DrawEcmpSeeds(other, 50);
    const std::vector<uint64_t> b = EcmpSeeds(other);
    for (uint64_t x : b)
    {
        EXPECT_EQ(std::count(a.begin(), a.end(), x), 0);
    }
    RngSeedManager::SetRun(run);
    Simulator::Destroy();
}

TEST(MrcStreams, RunNumberChangesTheDrawsOfAFixedStream)
{
    const uint64_t run = RngSeedManager::GetRun();
    std::vector<uint64_t> prints;
    for (uint64_t r : {1u, 2u, 1u})
    {
        RngSeedManager::SetRun(r);
        Ptr<MrcEcnMarker> m = CreateObject<MrcEcnMarker>();
        m->AssignStreams(7);
        prints.push_back(Fingerprint(m));
    }
    RngSeedManager::SetRun(run);
    EXPECT_NE(prints[0], prints[1]);
    EXPECT_EQ(prints[0], prints[2]);
}

TEST(MrcStreams, PermutationDependsOnlyOnTheRunNumber)
{
    const uint32_t seed = RngSeedManager::GetSeed();
    const uint64_t run = RngSeedManager::GetRun();
    const std::vector<uint32_t> ref = MrcScenarioWorkload::Derangement(16, 1);
    ASSERT_EQ(ref.size(), 16u);
    std::vector<uint32_t> sorted = ref;
    std::sort(sorted.begin(), sorted.end());
    for (uint32_t i = 0; i < 16; ++i)
    {
        EXPECT_EQ(sorted[i], i); // a permutation
        EXPECT_NE(ref[i], i);    // without fixed points
    }
    // Random variables created and drawn before (automatic streams) change nothing.
    std::vector<Ptr<UniformRandomVariable>> others;
    for (int i = 0; i < 5; ++i)
    {
        others.push_back(CreateObject<UniformRandomVariable>());
        others.back()->GetValue();
    }
    EXPECT_EQ(MrcScenarioWorkload::Derangement(16, 1), ref);
    EXPECT_NE(MrcScenarioWorkload::Derangement(16, 2), ref); // another run, another one
    EXPECT_EQ(RngSeedManager::GetSeed(), seed);              // global seed and run kept
    EXPECT_EQ(RngSeedManager::GetRun(), run);
    // mrc-sim's permutation scenario sends host i to Derangement(hosts, --seed)[i].
    for (const char* s : {"1", "2"})
    {
        MrcScenarioRunner r(MrcPermutation(s));
        r.Build();
        ASSERT_EQ(r.GetMessages().size(), 16u);
        const std::vector<uint32_t> d = MrcScenarioWorkload::Derangement(16, std::stoul(s));
        for (const MrcFlowSpec& f : r.GetMessages())
        {
            EXPECT_EQ(f.dst, d[f.src]) << "seed " << s << " host " << f.src;
        }
        Simulator::Destroy();
        Config::Reset();
    }
}

TEST(MrcStreams, EveryQueuePairOfARunDrawsItsOwnEvs)
{
    const std::vector<std::vector<uint32_t>> prints = EvPrints(MrcPermutation("1"));
    ASSERT_EQ(prints.size(), 16u);
    EXPECT_EQ(std::set<std::vector<uint32_t>>(prints.begin(), prints.end()).size(), 16u);
    EXPECT_EQ(EvPrints(MrcPermutation("1")), prints); // the same run again: the same draws
}

TEST(MrcStreams, LossModelsLeaveTheQueuePairsDrawsAsTheyWere)
{
    // 16 error models more in the fabric (one per NIC port): the queue pairs draw from
    // their messages' streams, not from the streams after the fabric's.
    EXPECT_EQ(EvPrints(MrcPermutation("1", "0.001")), EvPrints(MrcPermutation("1")));
}

TEST(MrcStreams, TrimmerStreamsArePerSwitchAndDrawOnlyForRandomOfTwo)
{
    // MrcTrimmer::TrimVictim RandomOfTwo: switch s's trimmer draws from stream + s, as a
    // lone trimmer given that stream; the other choices never draw.
    auto decisions = [](Ptr<MrcTrimmer> t) {
        std::vector<bool> v;
        for (int i = 0; i < 64; ++i)
        {
            v.push_back(t->TrimQueuedVictim());
        }
        return v;
    };
    Ptr<MrcTopology> topo = Clos(2, 2);
    EXPECT_EQ(MrcFabricStreams::AssignTrimmerStreams(topo, 70), 4);
    std::set<std::vector<bool>> seen;
    for (uint32_t s = 0; s < topo->GetNSwitches(); ++s)
    {
        Ptr<MrcTrimmer> t = topo->GetSwitchById(s)->GetTrimmer();
        t->SetAttribute("TrimVictim", StringValue("RandomOfTwo"));
        const std::vector<bool> d = decisions(t);
        Ptr<MrcTrimmer> lone = CreateObject<MrcTrimmer>();
        lone->SetAttribute("TrimVictim", StringValue("RandomOfTwo"));
        lone->AssignStreams(70 + s);
        EXPECT_EQ(decisions(lone), d) << "switch " << s;
        const auto queued = std::count(d.begin(), d.end(), true);
        EXPECT_GT(queued, 16) << "switch " << s;
        EXPECT_LT(queued, 48) << "switch " << s;
        seen.insert(d);
    }
    EXPECT_EQ(seen.size(), 4u); // every switch its own draws
    Ptr<MrcTrimmer> t = CreateObject<MrcTrimmer>();
    EXPECT_EQ(decisions(t), std::vector<bool>(64, false)); // Arriving
    t->SetAttribute("TrimVictim", StringValue("LastQueued"));
    EXPECT_EQ(decisions(t), std::vector<bool>(64, true));
    Simulator::Destroy();
}
