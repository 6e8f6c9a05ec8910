/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the workload generators, the ring collectives, the flow-size CDF
// sampling and the loss injection (helper/traffic/mrc-workload.h, mrc-flow-size-cdf.h).

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/mac48-address.h"
#include "ns3/mrc-flow-size-cdf.h"
#include "ns3/mrc-ingress-loss-model.h"
#include "ns3/mrc-link-helper.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-pfc-port.h"
#include "ns3/mrc-workload.h"
#include "ns3/node-container.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"

#include <deque>
#include <gtest/gtest.h>
#include <set>
#include <tuple>

using namespace ns3;

namespace
{

std::vector<uint32_t>
Range(uint32_t first, uint32_t n)
{
    std::vector<uint32_t> v;
    for (uint32_t i = 0; i < n; ++i)
    {
        v.push_back(first + i);
    }
    return v;
}

Ptr<MrcWorkloadGenerator>
Generator(int64_t stream)
{
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
    Ptr<MrcWorkloadGenerator> g = CreateObject<MrcWorkloadGenerator>();
    EXPECT_EQ(g->AssignStreams(stream), 1);
    return g;
}

std::vector<std::pair<uint32_t, uint32_t>>
Pairs(const std::vector<MrcFlowSpec>& flows)
{
    std::vector<std::pair<uint32_t, uint32_t>> p;
    for (const auto& f : flows)
    {
        p.emplace_back(f.src, f.dst);
    }
    return p;
}

} // namespace

TEST(MrcWorkload, PermutationIsADerangement)
{
    for (uint32_t n : {2U, 3U, 5U, 16U, 64U})
    {
        for (int64_t stream : {1, 2, 3, 40})
        {
            auto g = Generator(stream);
            auto hosts = Range(100, n);
            auto flows = g->Permutation(hosts, 1000, MicroSeconds(3));
            ASSERT_EQ(flows.size(), n);
            std::set<uint32_t> dsts;
            for (uint32_t i = 0; i < n; ++i)
            {
                EXPECT_EQ(flows[i].src, hosts[i]);
                EXPECT_NE(flows[i].src, flows[i].dst);
                EXPECT_GE(flows[i].dst, 100U);
                EXPECT_LT(flows[i].dst, 100 + n);
                EXPECT_EQ(flows[i].bytes, 1000U);
                EXPECT_EQ(flows[i].start, MicroSeconds(3));
                dsts.insert(flows[i].dst);
            }
            EXPECT_EQ(dsts.size(), n); // every host receives exactly once
            g->Dispose();
        }
    }
    // n = 2 has a single derangement.
    auto g = Generator(5);
    auto f = g->Permutation({7, 9}, 1, Time(0));
    EXPECT_EQ(Pairs(f), (std::vector<std::pair<uint32_t, uint32_t>>{{7, 9}, {9, 7}}));
}

TEST(MrcWorkload, PermutationIsDeterministicPerStream)
{
    auto hosts = Range(0, 32);
    auto a = Pairs(Generator(11)->Permutation(hosts, 1, Time(0)));
    auto b = Pairs(Generator(11)->Permutation(hosts, 1, Time(0)));
    auto c = Pairs(Generator(12)->Permutation(hosts, 1, Time(0)));
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
}

TEST(MrcWorkload, ShiftPermutation)
{
    auto f = MrcWorkloadGenerator::ShiftPermutation({4, 5, 6, 7}, 1, 10, Time(0));
    EXPECT_EQ(Pairs(f),
              (std::vector<std::pair<uint32_t, uint32_t>>{{4, 5}, {5, 6}, {6, 7}, {7, 4}}));
    f = MrcWorkloadGenerator::ShiftPermutation({4, 5, 6, 7}, 6, 10, Time(0)); // 6 mod 4 = 2
    EXPECT_EQ(Pairs(f),
              (std::vector<std::pair<uint32_t, uint32_t>>{{4, 6}, {5, 7}, {6, 4}, {7, 5}}));
}

TEST(MrcWorkload, IncastAndVictim)
{
    auto f = MrcWorkloadGenerator::Incast({1, 4, 5, 6, 9}, 0, 64000, MicroSeconds(1));
    ASSERT_EQ(f.size(), 5U);
    for (const auto& x : f)
    {
        EXPECT_EQ(x.dst, 0U);
        EXPECT_EQ(x.bytes, 64000U);
        EXPECT_EQ(x.kind, MrcFlowKind::INCAST);
        EXPECT_EQ(x.start, MicroSeconds(1));
    }
    // Rack of the receiver 0 is {0,1,2,3}; senders 1,4,5,6: victim 7 -> 2.
    MrcFlowSpec v = MrcWorkloadGenerator::ChooseVictim({1, 4, 5, 6},
                                                       0,
                                                       {3, 2, 1, 0},
                                                       Range(0, 8),
                                                       1000000,
                                                       MicroSeconds(2));
    EXPECT_EQ(v.src, 7U);
    EXPECT_EQ(v.dst, 2U);
    EXPECT_EQ(v.kind, MrcFlowKind::VICTIM);
    EXPECT_EQ(v.bytes, 1000000U);
    EXPECT_EQ(v.start, MicroSeconds(2));
}

TEST(MrcWorkload, AllToAllCountsAndStagger)
{
    auto hosts = Range(0, 5);
    auto f = MrcWorkloadGenerator::AllToAll(hosts, 777, MicroSeconds(10), MicroSeconds(2));
    ASSERT_EQ(f.size(), 20U); // n(n-1)
    std::set<std::pair<uint32_t, uint32_t>> pairs;
    for (size_t i = 0; i < f.size(); ++i)
    {
        EXPECT_NE(f[i].src, f[i].dst);
        EXPECT_EQ(f[i].bytes, 777U);
        pairs.emplace(f[i].src, f[i].dst);
        uint32_t k = (f[i].dst + 5 - f[i].src) % 5; // the destination offset
        EXPECT_EQ(f[i].start, MicroSeconds(10 + 2 * (k - 1)));
    }
    EXPECT_EQ(pairs.size(), 20U); // every ordered pair exactly once
    // Listed by offset then source: flow 7 is offset 2, source 2 -> 4.
    EXPECT_EQ(f[7].src, 2U);
    EXPECT_EQ(f[7].dst, 4U);
    auto g = MrcWorkloadGenerator::AllToAll(hosts, 1, Time(0));
    for (const auto& x : g)
    {
        EXPECT_EQ(x.start, Time(0));
    }
}

TEST(MrcWorkload, CdfSamplingHandComputed)
{
    // (0,0) (100,50) (1100,100): mean = 50*50/100 + 600*50/100 = 25 + 300 = 325.
    auto cdf = MrcFlowSizeCdf::FromPoints({{0, 0}, {100, 50}, {1100, 100}});
    EXPECT_DOUBLE_EQ(cdf.GetMean(), 325.0);
    EXPECT_DOUBLE_EQ(cdf.Quantile(0.25), 50.0);
    EXPECT_DOUBLE_EQ(cdf.Quantile(0.5), 100.0);
    EXPECT_DOUBLE_EQ(cdf.Quantile(0.75), 600.0); // 100 + 1000 * 25/50
    EXPECT_DOUBLE_EQ(cdf.Quantile(0.51), 120.0); // 100 + 1000 * 1/50
    EXPECT_DOUBLE_EQ(cdf.Quantile(1.0), 1100.0);
    EXPECT_EQ(cdf.SampleFromUniform(0.0), 1U);      // 0 bytes -> at least 1
    EXPECT_EQ(cdf.SampleFromUniform(0.003), 1U);    // 0.6 -> 0 -> 1
    EXPECT_EQ(cdf.SampleFromUniform(0.7777), 655U); // 100 + 1000*27.77/50 = 655.4
    // WebSearch points around the median: (50000,40) (80000,53):
    // y = 50 -> 50000 + 30000 * 10/13 = 73076.92...
    auto ws = MrcFlowSizeCdf::FromPoints({{0, 0},
                                          {10000, 15},
                                          {20000, 20},
                                          {30000, 30},
                                          {50000, 40},
                                          {80000, 53},
                                          {200000, 60},
                                          {1000000, 70},
                                          {2000000, 80},
                                          {5000000, 90},
                                          {10000000, 97},
                                          {30000000, 100}});
    EXPECT_EQ(ws.SampleFromUniform(0.5), 73076U);
    EXPECT_EQ(ws.SampleFromUniform(0.15), 10000U);
    EXPECT_EQ(ws.SampleFromUniform(0.985), 20000000U); // 10e6 + 20e6 * 1.5/3
    EXPECT_DOUBLE_EQ(ws.GetMean(), 1711250.0);
}

TEST(MrcWorkload, PoissonMeanInterArrival)
{
    // Sizes uniform on [0, 2000] (mean 1000 B); load 0.5 of 100 Gb/s:
    // mean gap = 8 * 1000 / (0.5 * 1e11) s = 160 ns.
    auto cdf = MrcFlowSizeCdf::FromPoints({{0, 0}, {2000, 100}});
    EXPECT_EQ(MrcWorkloadGenerator::PoissonMeanGap(0.5, 100000000000ULL, cdf.GetMean()),
              NanoSeconds(160));
    auto g = Generator(21);
    auto hosts = Range(0, 4);
    const Time start = MicroSeconds(5);
    const Time duration = MicroSeconds(1600); // 10000 mean gaps per host
    auto flows = g->Poisson(hosts, cdf, 0.5, 100000000000ULL, start, duration);
    std::vector<uint64_t> count(4, 0);
    std::vector<Time> last(4, start);
    double bytes = 0;
    for (size_t i = 0; i < flows.size(); ++i)
    {
        const auto& f = flows[i];
        ASSERT_LT(f.src, 4U);
        ASSERT_LT(f.dst, 4U);
        EXPECT_NE(f.src, f.dst);
        EXPECT_GE(f.bytes, 1U);
        EXPECT_LE(f.bytes, 2000U);
        EXPECT_GT(f.start, start);
        EXPECT_LE(f.start, start + duration);
        if (i > 0)
        {
            EXPECT_LE(flows[i - 1].start, f.start); // sorted
        }
        ++count[f.src];
        last[f.src] = f.start;
        bytes += f.bytes;
    }
    // Statistical tolerance: with N ~ 10000 exponential gaps the sample mean gap
    // has a relative standard deviation 1/sqrt(N) = 1%, the count a standard
    // deviation of 100; we allow 5% (5 sigma). The seed and stream are fixed, so
    // the outcome is deterministic; the tolerance only guards the expectation.
    for (uint32_t h = 0; h < 4; ++h)
    {
        EXPECT_NEAR(static_cast<double>(count[h]), 10000.0, 500.0) << "host " << h;
        double meanGapNs = (last[h] - start).GetNanoSeconds() / static_cast<double>(count[h]);
        EXPECT_NEAR(meanGapNs, 160.0, 8.0) << "host " << h;
    }
    EXPECT_NEAR(bytes / flows.size(), 1000.0, 50.0);
    // Same stream, same list.
    auto again = Generator(21)->Poisson(hosts, cdf, 0.5, 100000000000ULL, start, duration);
    ASSERT_EQ(again.size(), flows.size());
    for (size_t i = 0; i < flows.size(); ++i)
    {
        EXPECT_EQ(std::make_tuple(again[i].src, again[i].dst, again[i].bytes, again[i].start),
                  std::make_tuple(flows[i].src, flows[i].dst, flows[i].bytes, flows[i].start));
    }
}

namespace
{

/// (src, dst, segment) of each flow
std::vector<std::tuple<uint32_t, uint32_t, uint32_t>>
Triples(const std::vector<MrcFlowSpec>& flows)
{
    std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> t;
    for (const auto& f : flows)
    {
        t.emplace_back(f.src, f.dst, f.segment);
    }
    return t;
}

} // namespace

TEST(MrcWorkload, RingAllReduceStepsN4)
{
    // Hosts 10..13 in ring order, one chunk: rank r sends to rank r+1.
    MrcRingCollective ar(7, MrcRingCollective::ALL_REDUCE, {10, 11, 12, 13}, 4000, 1);
    ASSERT_EQ(ar.GetNumSteps(), 6U); // 2(n-1)
    using T = std::vector<std::tuple<uint32_t, uint32_t, uint32_t>>;
    // Reduce-scatter: step s sends segment (r - s) mod 4.
    EXPECT_EQ(Triples(ar.GetStepFlows(0)), (T{{10, 11, 0}, {11, 12, 1}, {12, 13, 2}, {13, 10, 3}}));
    EXPECT_EQ(Triples(ar.GetStepFlows(1)), (T{{10, 11, 3}, {11, 12, 0}, {12, 13, 1}, {13, 10, 2}}));
    EXPECT_EQ(Triples(ar.GetStepFlows(2)), (T{{10, 11, 2}, {11, 12, 3}, {12, 13, 0}, {13, 10, 1}}));
    // All-gather: step 3 + t sends segment (r + 1 - t) mod 4.
    EXPECT_EQ(Triples(ar.GetStepFlows(3)), (T{{10, 11, 1}, {11, 12, 2}, {12, 13, 3}, {13, 10, 0}}));
    EXPECT_EQ(Triples(ar.GetStepFlows(4)), (T{{10, 11, 0}, {11, 12, 1}, {12, 13, 2}, {13, 10, 3}}));
    EXPECT_EQ(Triples(ar.GetStepFlows(5)), (T{{10, 11, 3}, {11, 12, 0}, {12, 13, 1}, {13, 10, 2}}));
    for (uint32_t s = 0; s < 6; ++s)
    {
        for (const auto& f : ar.GetStepFlows(s))
        {
            EXPECT_EQ(f.bytes, 1000U);
            EXPECT_EQ(f.step, s);
            EXPECT_EQ(f.collective, 7U);
            EXPECT_EQ(f.kind, MrcFlowKind::COLLECTIVE);
        }
    }
    MrcRingCollective ag(8, MrcRingCollective::ALL_GATHER, {10, 11, 12, 13}, 4000, 1);
    ASSERT_EQ(ag.GetNumSteps(), 3U); // n-1
    EXPECT_EQ(Triples(ag.GetStepFlows(1)), (T{{10, 11, 3}, {11, 12, 0}, {12, 13, 1}, {13, 10, 2}}));
}

TEST(MrcWorkload, RingChunkSizesSplitTheRemainder)
{
    // 4003 bytes / 4 segments: 1001 1001 1001 1000; 2 chunks: 501+500 / 500+500.
    MrcRingCollective ar(1, MrcRingCollective::ALL_REDUCE, {0, 1, 2, 3}, 4003, 2);
    auto f = ar.GetStepFlows(0);
    ASSERT_EQ(f.size(), 8U); // by rank, then chunk
    std::vector<uint64_t> bytes;
    for (const auto& x : f)
    {
        bytes.push_back(x.bytes);
    }
    EXPECT_EQ(bytes, (std::vector<uint64_t>{501, 500, 501, 500, 501, 500, 500, 500}));
    uint64_t total = 0;
    for (const auto& x : ar.GetStepFlows(3))
    {
        total += x.bytes;
    }
    EXPECT_EQ(total, 4003U);
}

TEST(MrcWorkload, RingReleaseOrder)
{
    MrcRingCollective ar(3, MrcRingCollective::ALL_REDUCE, {10, 11, 12, 13}, 8000, 2);
    auto first = ar.Start(MicroSeconds(1));
    ASSERT_EQ(first.size(), 8U);
    for (const auto& f : first)
    {
        EXPECT_EQ(f.step, 0U);
        EXPECT_EQ(f.start, MicroSeconds(1));
    }
    EXPECT_FALSE(ar.IsComplete());
    // Chunk 0 of step 0 from 10 (into 11) releases chunk 0 of step 1 from 11 only.
    auto rel = ar.OnFlowComplete(first[0], MicroSeconds(2));
    ASSERT_EQ(rel.size(), 1U);
    EXPECT_EQ(rel[0].src, 11U);
    EXPECT_EQ(rel[0].dst, 12U);
    EXPECT_EQ(rel[0].step, 1U);
    EXPECT_EQ(rel[0].chunk, 0U);
    EXPECT_EQ(rel[0].segment, 0U); // 11 forwards segment 0 (reduced) in step 1
    EXPECT_EQ(rel[0].start, MicroSeconds(2));
    // Chunk 1 of step 0 from 13 (into 10) releases chunk 1 of step 1 from 10.
    rel = ar.OnFlowComplete(first[7], MicroSeconds(3));
    ASSERT_EQ(rel.size(), 1U);
    EXPECT_EQ(std::make_tuple(rel[0].src, rel[0].dst, rel[0].step, rel[0].chunk, rel[0].segment),
              std::make_tuple(10U, 11U, 1U, 1U, 3U));

    // Drive the rest first-in first-out, one completion per microsecond.
    std::deque<MrcFlowSpec> running(first.begin() + 1, first.end() - 1);
    running.push_back(ar.GetStepFlows(1)[2]); // 11's chunk 0 (released above)
    running.push_back(ar.GetStepFlows(1)[1]); // 10's chunk 1
    uint32_t completions = 2;
    int64_t now = 3;
    while (!running.empty())
    {
        MrcFlowSpec f = running.front();
        running.pop_front();
        EXPECT_FALSE(ar.IsComplete());
        auto next = ar.OnFlowComplete(f, MicroSeconds(++now));
        ++completions;
        if (f.step + 1 < 6)
        {
            ASSERT_EQ(next.size(), 1U);
            EXPECT_EQ(next[0].src, f.dst);
            EXPECT_EQ(next[0].step, f.step + 1);
            EXPECT_EQ(next[0].chunk, f.chunk);
            running.push_back(next[0]);
        }
        else
        {
            EXPECT_TRUE(next.empty());
        }
    }
    EXPECT_EQ(completions, 48U); // 6 steps x 4 ranks x 2 chunks
    ASSERT_TRUE(ar.IsComplete());
    EXPECT_EQ(ar.GetCompletionTime(), MicroSeconds(now));
    EXPECT_EQ(ar.GetDuration(), MicroSeconds(now - 1));
}

TEST(MrcWorkload, RandomLossOnEveryDevice)
{
    NodeContainer nodes;
    nodes.Create(3);
    MrcLinkHelper link;
    link.Install(nodes.Get(0), nodes.Get(1));
    link.Install(nodes.Get(1), nodes.Get(2));
    std::vector<Ptr<RateErrorModel>> models;
    EXPECT_EQ(MrcInstallRandomLoss(nodes, 0.01, 50, &models), 4); // 4 devices, both directions
    ASSERT_EQ(models.size(), 4U);
    uint32_t seen = 0;
    for (uint32_t n = 0; n < 3; ++n)
    {
        for (uint32_t d = 0; d < nodes.Get(n)->GetNDevices(); ++d)
        {
            Ptr<MrcNetDevice> dev = DynamicCast<MrcNetDevice>(nodes.Get(n)->GetDevice(d));
            ASSERT_TRUE(dev);
            PointerValue pv;
            dev->GetAttribute("ReceiveErrorModel", pv);
            Ptr<RateErrorModel> em = pv.Get<RateErrorModel>();
            ASSERT_TRUE(em);
            EXPECT_DOUBLE_EQ(em->GetRate(), 0.01);
            EXPECT_EQ(em->GetUnit(), RateErrorModel::ERROR_UNIT_PACKET);
            EXPECT_EQ(em, models[seen]);
            ++seen;
        }
    }
    EXPECT_EQ(seen, 4U);
    EXPECT_NE(models[0], models[1]); // one model (and stream) per device
    Simulator::Destroy();
}

namespace
{

/// An IPv6 frame of `bytes` bytes (Ethernet header with the IPv6 EtherType, zeros after).
Ptr<Packet>
Ipv6Frame(uint32_t bytes)
{
    std::vector<uint8_t> b(bytes, 0);
    b[12] = 0x86;
    b[13] = 0xdd;
    return Create<Packet>(b.data(), bytes);
}

} // namespace

TEST(MrcWorkload, IngressLossDrawsAsRateErrorModelAndSparesPfcFrames)
{
    // The same stream and rate: MrcIngressLossModel decides every IPv6 frame as a packet-unit
    // RateErrorModel does (so --lossAt=path keeps its draws in runs without PFC frames), and a
    // PFC frame between two of them passes without a draw (SkipMacControl), so it shifts none
    // of the later decisions.
    Ptr<RateErrorModel> rate = CreateObject<RateErrorModel>();
    rate->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
    rate->SetRate(0.3);
    rate->AssignStreams(77);
    Ptr<MrcIngressLossModel> ingress = CreateObject<MrcIngressLossModel>();
    ingress->SetRate(0.3);
    EXPECT_EQ(ingress->AssignStreams(77), 1);
    const Ptr<Packet> pfc = MrcPfcPort::MakeFrame(Mac48Address("00:00:00:00:00:01"),
                                                  0x08,
                                                  {0, 0, 0, 65535, 0, 0, 0, 0});
    uint32_t dropped = 0;
    for (uint32_t i = 0; i < 1000; ++i)
    {
        const Ptr<Packet> f = Ipv6Frame(1000);
        const bool expected = rate->IsCorrupt(f);
        EXPECT_EQ(ingress->IsCorrupt(f), expected) << "frame " << i;
        dropped += expected;
        if (i % 10 == 0)
        {
            EXPECT_FALSE(ingress->IsCorrupt(pfc->Copy())) << "pfc frame after " << i;
        }
    }
    EXPECT_EQ(ingress->GetDraws(), 1000U);
    EXPECT_EQ(ingress->GetSkipped(), 100U);
    EXPECT_GT(dropped, 250U); // about 300 of 1000
    EXPECT_LT(dropped, 350U);

    // With SkipMacControl off (or a rate of 1) a PFC frame is one more frame to draw for.
    Ptr<MrcIngressLossModel> all = CreateObject<MrcIngressLossModel>();
    all->SetAttribute("Rate", DoubleValue(1.0));
    all->SetAttribute("SkipMacControl", BooleanValue(false));
    EXPECT_TRUE(all->IsCorrupt(pfc->Copy()));
    EXPECT_TRUE(all->IsCorrupt(Ipv6Frame(100)));
    EXPECT_EQ(all->GetDraws(), 2U);
    EXPECT_EQ(all->GetSkipped(), 0U);
    Ptr<MrcIngressLossModel> spare = CreateObject<MrcIngressLossModel>();
    spare->SetRate(1.0);
    EXPECT_FALSE(spare->IsCorrupt(pfc->Copy()));
    EXPECT_TRUE(spare->IsCorrupt(Ipv6Frame(100)));
    EXPECT_EQ(spare->GetSkipped(), 1U);
}

TEST(MrcWorkload, IngressLossOnTheGivenDevicesOnly)
{
    NodeContainer nodes;
    nodes.Create(2);
    MrcLinkHelper link;
    NetDeviceContainer devs = link.Install(nodes.Get(0), nodes.Get(1));
    NetDeviceContainer one;
    one.Add(devs.Get(1));
    std::vector<Ptr<MrcIngressLossModel>> models;
    EXPECT_EQ(MrcInstallIngressLoss(one, 0.25, 9, &models), 1);
    ASSERT_EQ(models.size(), 1U);
    PointerValue pv;
    devs.Get(1)->GetAttribute("ReceiveErrorModel", pv);
    EXPECT_EQ(pv.Get<MrcIngressLossModel>(), models[0]);
    EXPECT_DOUBLE_EQ(models[0]->GetRate(), 0.25);
    devs.Get(0)->GetAttribute("ReceiveErrorModel", pv);
    EXPECT_FALSE(pv.Get<ErrorModel>()); // the other end of the link keeps no model
    Simulator::Destroy();
}

TEST(MrcWorkloadDeathTest, LossProbabilityOutsideUnitIntervalIsRejected)
{
    ::testing::FLAGS_gtest_death_test_style = "threadsafe";
    NodeContainer nodes;
    nodes.Create(1);
    EXPECT_DEATH(MrcInstallRandomLoss(nodes, 1.5, 0), "loss probability 1.5 not in \\[0, 1\\]");
    EXPECT_DEATH(MrcInstallRandomLoss(nodes, -0.1, 0), "not in \\[0, 1\\]");
    EXPECT_DEATH(MrcInstallIngressLoss(NetDeviceContainer(), 1.5, 0),
                 "MrcInstallIngressLoss: loss probability 1.5 not in \\[0, 1\\]");
    Simulator::Destroy();
}
