/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The exactly-once campaign (issue 20): many randomized trials of RoCE, UEC and MRC
// under random loss (on the path or on every link), trimming (incasts on the trimming
// fabrics of UEC and MRC), reordering (spraying over paths, rerouting around a cut
// link) and link flaps (a fabric link cut and repaired during the run). Every trial
// must complete every message with every byte placed exactly once: each lane's region
// written exactly over [base, base + bytes posted), no duplicate byte, every message
// completed, the run's exactly-once count equal to the bytes posted.
//
// The quick suite runs a slice (ExactlyOnceCampaign.QuickSlice, two trials per
// transport and one regression trial); the whole campaign (ExactlyOnceCampaignFull/*) runs only
// with MRC_FULL=1
// (./ns3-mrc test --full) and prints its trial, packet and byte counts.

#include "ns3/config.h"
#include "ns3/mrc-memory-region.h"
#include "ns3/mrc-queue-pair.h"
#include "ns3/mrc-scenario.h"
#include "ns3/names.h"
#include "ns3/simulator.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <tuple>

using namespace ns3;

namespace
{

/// One trial's randomized settings.
struct Trial
{
    std::string transport;      //!< roce, uec or mrc
    uint64_t seed{1};           //!< run seed (and the draw of the settings)
    std::string pattern;        //!< permutation or incast
    uint32_t hosts{8};          //!< hosts (4 per T0)
    uint32_t t1{2};             //!< T1 switches per plane
    uint32_t planes{1};         //!< planes (mrc: 1 or 2)
    uint32_t senders{0};        //!< incast senders
    uint64_t bytes{0};          //!< bytes per sender
    uint32_t messages{1};       //!< messages each flow is split into
    std::string lossRate{"0"};  //!< random loss probability
    std::string lossAt{"path"}; //!< where loss applies
    std::string failLink;       //!< link cut and repaired (empty: none)
    uint32_t failAtUs{0};       //!< when it is cut
    uint32_t repairAtUs{0};     //!< when it is repaired

    /// \return the settings, one line
    std::string Describe() const
    {
        std::ostringstream os;
        os << transport << " seed=" << seed << " " << pattern << " hosts=" << hosts << " t1=" << t1
           << " planes=" << planes << " bytes=" << bytes << " messages=" << messages
           << " loss=" << lossRate << "@" << lossAt;
        if (pattern == "incast")
        {
            os << " senders=" << senders;
        }
        if (!failLink.empty())
        {
            os << " flap=" << failLink << "@" << failAtUs << "-" << repairAtUs << "us";
        }
        return os.str();
    }
};

/// Draw a trial's settings from its seed (test-side randomness: the simulation's own
/// streams come from --seed).
Trial
Draw(const std::string& transport, uint64_t seed)
{
    std::mt19937_64 g(seed * 7919 + transport.size());
    auto pick = [&g](uint32_t n) { return static_cast<uint32_t>(g() % n); };
    Trial t;
    t.transport = transport;
    t.seed = seed;
    t.hosts = pick(2) == 0 ? 8 : 16;
    t.t1 = pick(2) == 0 ? 2 : 4;
    t.planes = transport == "mrc" ? 1 + pick(2) : 1;
    t.pattern = pick(10) < 7 ? "permutation" : "incast";
    t.senders = 2 + pick(t.hosts - 2);
    t.bytes = 50000 + 10000 * static_cast<uint64_t>(pick(150));
    t.messages = 1 + pick(4);
    static const char* const RATES[] = {"0", "0.001", "0.003", "0.01"};
    t.lossRate = RATES[pick(4)];
    t.lossAt = pick(3) == 0 ? "links" : "path";
    if (pick(10) < 4)
    {
        // a T0-T1 link of plane 0 goes down for a while
        std::ostringstream l;
        l << "p0-t0-" << pick(t.hosts / 4) << ":p0-t1-" << pick(t.t1);
        t.failLink = l.str();
        t.failAtUs = 5 + pick(60);
        t.repairAtUs = t.failAtUs + 20 + pick(200);
    }
    return t;
}

/// What a trial delivered.
struct Tally
{
    uint64_t trials{0};          //!< trials run
    uint64_t messages{0};        //!< messages posted
    uint64_t bytes{0};           //!< bytes posted
    uint64_t packetsSent{0};     //!< data packets sent (first sends and retransmissions)
    uint64_t packetsReceived{0}; //!< data packets that reached a responder
    uint64_t retransmissions{0}; //!< data packets sent again
    uint64_t trims{0};           //!< data packets trimmed in the fabric
    uint64_t drops{0};           //!< data packets dropped in the fabric
    uint64_t flaps{0};           //!< trials with a link cut and repaired
    uint64_t lostBytes{0};       //!< bytes posted but not placed
    uint64_t duplicateBytes{0};  //!< bytes placed more than once

    /// Add another tally. \param o the other
    void Add(const Tally& o)
    {
        trials += o.trials;
        messages += o.messages;
        bytes += o.bytes;
        packetsSent += o.packetsSent;
        packetsReceived += o.packetsReceived;
        retransmissions += o.retransmissions;
        trims += o.trims;
        drops += o.drops;
        flaps += o.flaps;
        lostBytes += o.lostBytes;
        duplicateBytes += o.duplicateBytes;
    }
};

/// Run one trial and check exactly-once delivery. \param t the trial \return its tally
Tally
RunTrial(const Trial& t)
{
    MrcScenarioOptions o;
    o.scenario = t.pattern;
    MrcScenarios::Find(t.pattern)->preset(o);
    o.transports = "";
    o.transport = t.transport;
    o.topo.hosts = std::to_string(t.hosts);
    o.topo.hostsPerT0 = "4";
    o.topo.t1PerPlane = std::to_string(t.t1);
    o.topo.planes = std::to_string(t.planes);
    o.bytes = std::to_string(t.bytes);
    o.senders = std::to_string(t.senders);
    o.qpsPerPair = std::to_string(t.messages);
    o.lossRate = t.lossRate;
    o.lossAt = t.lossAt;
    o.seed = std::to_string(t.seed);
    o.simTime = "2s";
    o.sampleInterval = "0s";
    if (!t.failLink.empty())
    {
        o.failLink = t.failLink;
        o.failAt = std::to_string(t.failAtUs) + "us";
        o.repairAt = std::to_string(t.repairAtUs) + "us";
    }
    MrcScenarioConfig c;
    const std::string problem = o.TryToConfig(c);
    EXPECT_EQ(problem, "") << t.Describe();
    Tally tally;
    if (!problem.empty())
    {
        return tally;
    }
    c.progress = false;
    {
        MrcScenarioRunner r(c);
        r.Run();
        tally.trials = 1;
        tally.flaps = t.failLink.empty() ? 0 : 1;
        for (const MrcConnectionLane& lane : r.GetConnections().GetLanes())
        {
            const MrcQpCounters& req = lane.qps.requester->GetCounters();
            const MrcQpCounters& resp = lane.qps.responder->GetCounters();
            const Ptr<MrcMemoryRegion> region = lane.qps.region;
            tally.messages += lane.messages;
            tally.bytes += lane.nextOffset;
            tally.packetsSent += req.dataPacketsSent;
            tally.packetsReceived += resp.dataPacketsReceived;
            tally.retransmissions += req.retransmittedPackets;
            tally.duplicateBytes += region->GetDuplicateBytes();
            tally.lostBytes +=
                lane.nextOffset - std::min(lane.nextOffset, region->GetBytesPlaced());
            EXPECT_TRUE(region->IsExactlyOnce(region->GetBase(), lane.nextOffset))
                << t.Describe() << ": lane of " << lane.nextOffset << " bytes, "
                << region->GetBytesPlaced() << " placed, " << region->GetDuplicateBytes()
                << " duplicate";
            EXPECT_EQ(req.messagesCompleted, lane.messages) << t.Describe();
        }
        const std::vector<MrcTransportSummary> s = r.GetResults().Summarize();
        EXPECT_EQ(s.size(), 1u) << t.Describe();
        if (s.size() == 1)
        {
            EXPECT_EQ(s[0].completed, s[0].messages) << t.Describe();
            EXPECT_EQ(s[0].messages, tally.messages) << t.Describe();
            EXPECT_EQ(s[0].bytes, tally.bytes) << t.Describe();
            EXPECT_EQ(s[0].counters.bytesExactlyOnce, tally.bytes) << t.Describe();
            tally.trims = s[0].counters.trims;
            tally.drops = s[0].counters.drops;
        }
        EXPECT_GT(tally.bytes, 0u) << t.Describe();
        // every posted byte crossed the fabric at least once
        EXPECT_GE(tally.packetsReceived, tally.bytes / 4096) << t.Describe();
    }
    Simulator::Destroy();
    Names::Clear();
    Config::Reset();
    return tally;
}

/// Run trials [first, first + count) of a transport. \return their tally
Tally
RunTrials(const std::string& transport, uint64_t first, uint64_t count)
{
    Tally total;
    for (uint64_t seed = first; seed < first + count; ++seed)
    {
        total.Add(RunTrial(Draw(transport, seed)));
        if (::testing::Test::HasFailure())
        {
            break; // the first failing trial says enough
        }
    }
    return total;
}

/// Print a tally (the campaign's record in the test log).
void
Report(const std::string& what, const Tally& t)
{
    std::cout << "exactly-once campaign " << what << ": " << t.trials << " trials (" << t.flaps
              << " with a link flap), " << t.messages << " messages, " << t.bytes << " bytes, "
              << t.packetsSent << " data packets sent, " << t.packetsReceived << " received, "
              << t.retransmissions << " retransmitted, " << t.trims << " trimmed, " << t.drops
              << " dropped; lost bytes " << t.lostBytes << ", duplicate bytes " << t.duplicateBytes
              << std::endl;
}

/// Trials per chunk of the full campaign, and chunks per transport.
constexpr uint64_t FULL_TRIALS_PER_CHUNK = 40;
constexpr uint64_t FULL_CHUNKS = 4;

} // namespace

TEST(ExactlyOnceCampaign, DrawsCoverEveryKindOfTrial)
{
    // the draws of the full campaign include loss on the path and on links, incasts and
    // permutations, flaps, both planes' counts for mrc, and several messages per flow
    uint64_t lossPath = 0, lossLinks = 0, incast = 0, flaps = 0, twoPlanes = 0, split = 0;
    for (uint64_t seed = 1; seed <= FULL_TRIALS_PER_CHUNK * FULL_CHUNKS; ++seed)
    {
        const Trial t = Draw("mrc", seed);
        lossPath += t.lossRate != "0" && t.lossAt == "path";
        lossLinks += t.lossRate != "0" && t.lossAt == "links";
        incast += t.pattern == "incast";
        flaps += !t.failLink.empty();
        twoPlanes += t.planes == 2;
        split += t.messages > 1;
        EXPECT_LT(t.senders, t.hosts);
        EXPECT_GT(t.repairAtUs + (t.failLink.empty() ? 1 : 0), t.failAtUs);
    }
    EXPECT_GT(lossPath, 10u);
    EXPECT_GT(lossLinks, 10u);
    EXPECT_GT(incast, 10u);
    EXPECT_GT(flaps, 10u);
    EXPECT_GT(twoPlanes, 10u);
    EXPECT_GT(split, 10u);
    EXPECT_EQ(Draw("roce", 5).planes, 1u);
    EXPECT_EQ(Draw("uec", 9).Describe(), Draw("uec", 9).Describe());
}

TEST(ExactlyOnceCampaign, QuickSlice)
{
    // two trials per transport (seeds with loss, an incast or a flap among them)
    Tally all;
    for (const char* transport : {"roce", "uec", "mrc"})
    {
        const Tally t = RunTrials(transport, 1, 2);
        EXPECT_EQ(t.trials, 2u) << transport;
        EXPECT_EQ(t.lostBytes, 0u) << transport;
        EXPECT_EQ(t.duplicateBytes, 0u) << transport;
        all.Add(t);
    }
    // the trial of the full campaign that found UEC giving up on a PSN trimmed again and
    // again (MaxRtoRetries counted NACK retransmissions: retry-exceeded, a message lost)
    const Tally u = RunTrial(Draw("uec", 1144));
    EXPECT_EQ(u.lostBytes, 0u);
    EXPECT_GT(u.trims, 0u);
    all.Add(u);
    Report("quick slice", all);
    EXPECT_GT(all.packetsSent, 1000u);
}

/// The full campaign: (transport, chunk).
class ExactlyOnceCampaignFull : public ::testing::TestWithParam<std::tuple<std::string, int>>
{
};

TEST_P(ExactlyOnceCampaignFull, EveryByteExactlyOnce)
{
    if (!std::getenv("MRC_FULL"))
    {
        GTEST_SKIP() << "the full campaign runs with MRC_FULL=1 (./ns3-mrc test --full)";
    }
    const std::string transport = std::get<0>(GetParam());
    const uint64_t chunk = std::get<1>(GetParam());
    const Tally t =
        RunTrials(transport, 1000 + chunk * FULL_TRIALS_PER_CHUNK, FULL_TRIALS_PER_CHUNK);
    Report(transport + " chunk " + std::to_string(chunk), t);
    EXPECT_EQ(t.trials, FULL_TRIALS_PER_CHUNK);
    EXPECT_EQ(t.lostBytes, 0u);
    EXPECT_EQ(t.duplicateBytes, 0u);
    EXPECT_GT(t.retransmissions, 0u); // the losses and flaps made it recover
    EXPECT_GT(t.flaps, 0u);
    if (transport != "roce")
    {
        EXPECT_GT(t.trims, 0u); // the incasts on a trimming fabric trimmed
    }
}

INSTANTIATE_TEST_SUITE_P(Campaign,
                         ExactlyOnceCampaignFull,
                         ::testing::Combine(::testing::Values(std::string("roce"),
                                                              std::string("uec"),
                                                              std::string("mrc")),
                                            ::testing::Range(0, static_cast<int>(FULL_CHUNKS))),
                         // Names from the values, the same in every run.
                         [](const auto& info) {
                             return std::get<0>(info.param) + "_" +
                                    std::to_string(std::get<1>(info.param));
                         });
