/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Connections of the scenario layer: a workload's messages between two hosts share the
// queue pairs of their connection (one per direction by default, N striped round-robin
// with --qpsPerConnection), every byte arrives exactly once, and the memory of a run
// does not grow with its number of messages beyond their flow records.

#include "mrc-test-support.h"

#include "ns3/config.h"
#include "ns3/mrc-rdma-nic.h"
#include "ns3/mrc-scenario.h"
#include "ns3/names.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstdint>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Settings of a 2-host run (one T0, one plane) whose messages come from a flow list.
MrcScenarioConfig
TwoHosts(const std::string& transport, const std::vector<MrcFlowSpec>& flows)
{
    MrcScenarioOptions o;
    o.scenario = "permutation";
    MrcScenarios::Find("permutation")->preset(o);
    o.topo.hosts = "2";
    o.topo.hostsPerT0 = "2";
    o.topo.t1PerPlane = "1";
    o.topo.planes = "1";
    o.transport = transport;
    o.profile = "";
    o.sampleInterval = "0s";
    MrcScenarioConfig c = o.ToConfig();
    c.pattern = "file";
    c.fileFlows = flows;
    c.progress = false;
    c.simTime = Seconds(10);
    c.qpsPerConnection = 1;
    return c;
}

void
Reset()
{
    Simulator::Destroy();
    Names::Clear();
    Config::Reset();
}

/// Peak of AllocatedBytes over a run (sampled every `every` of simulated time and at the
/// end), less what was allocated before the run was made.
struct MemoryRun
{
    uint64_t peak{0};                //!< peak allocated bytes above the start
    uint64_t lanes{0};               //!< queue-pair lanes opened
    uint64_t connections{0};         //!< connections opened
    uint64_t completed{0};           //!< messages completed
    uint64_t exactlyOnce{0};         //!< bytes placed exactly once
    std::vector<uint64_t> qpsPerNic; //!< queue pairs on each host's NIC
};

MemoryRun
RunMeasured(const std::string& transport, uint32_t n, Time every)
{
    MemoryRun m;
    {
        // The messages are added during the run, one every 2 us, each starting 10 us after
        // it is added (so that some are always open): the workload itself holds nothing.
        const MrcScenarioConfig c = TwoHosts(transport, {});
        MrcScenarioRunner r(c);
        r.SetKeepMessages(false);
        r.Build();
        uint32_t added = 0;
        std::function<void()> add;
        add = [&]() {
            MrcFlowSpec f;
            f.src = added % 2;
            f.dst = 1 - added % 2;
            f.bytes = 1000;
            f.start = Simulator::Now() + MicroSeconds(10);
            r.AddMessage(f);
            if (++added < n)
            {
                Simulator::Schedule(MicroSeconds(2), add);
            }
        };
        add();
        const uint64_t base = MrcTest::HeapBytesInUse();
        uint64_t peak = 0;
        std::function<void()> sample;
        sample = [&]() {
            peak = std::max(peak, MrcTest::HeapBytesInUse());
            Simulator::Schedule(every, sample);
        };
        Simulator::Schedule(Time(0), sample);
        r.Run();
        peak = std::max(peak, MrcTest::HeapBytesInUse());
        m.peak = peak > base ? peak - base : 0;
        m.lanes = r.GetConnections().GetLanes().size();
        m.connections = r.GetConnections().GetNConnections();
        const auto s = r.GetResults().Summarize();
        m.completed = s.at(0).completed;
        m.exactlyOnce = s.at(0).counters.bytesExactlyOnce;
        for (uint32_t h = 0; h < 2; ++h)
        {
            m.qpsPerNic.push_back(
                MrcRdmaNic::GetNic(r.GetTopology()->GetHost(h))->GetQueuePairs().size());
        }
    }
    Reset();
    return m;
}

} // namespace

TEST(MrcConnections, PlaceStripesRoundRobinAndOpensLanesOnce)
{
    MrcScenarioConnections conns;
    conns.SetQpsPerConnection(3);
    uint32_t opened = 0;
    conns.SetOpener(MrcScenarioConnections::Opener([&opened](const MrcFlowSpec&) {
        ++opened;
        return MrcRdmaHelper::Connection();
    }));
    MrcFlowSpec ab;
    ab.src = 0;
    ab.dst = 1;
    ab.bytes = 100;
    MrcFlowSpec ba = ab;
    ba.src = 1;
    ba.dst = 0;
    MrcFlowSpec job = ab; // same hosts, another job (a collective): another connection
    job.kind = MrcFlowKind::COLLECTIVE;
    job.collective = 0;
    std::vector<std::size_t> lanes;
    std::vector<uint64_t> offsets;
    for (std::size_t i = 0; i < 7; ++i)
    {
        const auto p = conns.Place(i, ab);
        lanes.push_back(p.lane);
        offsets.push_back(p.offset);
        EXPECT_EQ(p.opened, i < 3);
    }
    EXPECT_EQ(lanes, (std::vector<std::size_t>{0, 1, 2, 0, 1, 2, 0}));
    // each lane's messages take consecutive ranges of its region
    EXPECT_EQ(offsets, (std::vector<uint64_t>{0, 0, 0, 100, 100, 100, 200}));
    EXPECT_EQ(conns.Place(7, ba).lane, 3u);
    EXPECT_EQ(conns.Place(8, job).lane, 4u);
    EXPECT_EQ(conns.Place(9, ba).lane, 5u);
    EXPECT_EQ(opened, 6u);
    EXPECT_EQ(conns.GetNConnections(), 3u);
    EXPECT_EQ(conns.GetLane(0).open, (std::vector<std::size_t>{0, 3, 6}));
    conns.Close(0, 3);
    EXPECT_EQ(conns.GetLane(0).open, (std::vector<std::size_t>{0, 6}));
    EXPECT_EQ(conns.GetLane(0).messages, 3u);
    EXPECT_EQ(conns.GetLane(0).nextOffset, 300u);
}

TEST(MrcConnections, ZeroQpsPerConnectionOpensALanePerMessage)
{
    MrcScenarioConnections conns;
    conns.SetQpsPerConnection(0);
    conns.SetOpener(MrcScenarioConnections::Opener(
        [](const MrcFlowSpec&) { return MrcRdmaHelper::Connection(); }));
    MrcFlowSpec f;
    f.bytes = 10;
    for (std::size_t i = 0; i < 4; ++i)
    {
        const auto p = conns.Place(i, f);
        EXPECT_EQ(p.lane, i);
        EXPECT_EQ(p.offset, 0u);
        EXPECT_TRUE(p.opened);
    }
    EXPECT_EQ(conns.GetNConnections(), 4u);
}

TEST(MrcConnections, TenThousandMessagesUseOneQueuePairPerDirectionInFlatMemory)
{
    for (const std::string transport : {"roce", "uec", "mrc"})
    {
        const MemoryRun small = RunMeasured(transport, 100, MicroSeconds(20));
        const MemoryRun big = RunMeasured(transport, 10000, MicroSeconds(20));
        for (const MemoryRun* m : {&small, &big})
        {
            EXPECT_EQ(m->connections, 2u) << transport; // 0 -> 1 and 1 -> 0
            EXPECT_EQ(m->lanes, 2u) << transport;
            // each NIC: the requester of its direction and the responder of the other
            EXPECT_EQ(m->qpsPerNic, (std::vector<uint64_t>{2, 2})) << transport;
        }
        EXPECT_EQ(small.completed, 100u) << transport;
        EXPECT_EQ(big.completed, 10000u) << transport;
        EXPECT_EQ(small.exactlyOnce, 100u * 1000) << transport;
        EXPECT_EQ(big.exactlyOnce, 10000u * 1000) << transport;
        // 100 times the messages: the peak during the run grows by their flow records only
        // (MrcFlowRecord, in a vector that may double: at most 2 records' room per message),
        // not by any queue-pair, region, work-request or event state per message (a queue-pair
        // pair per message cost about 120 KB).
        const uint64_t records = 2 * sizeof(MrcFlowRecord) * (10000 - 100);
        std::cout << transport << ": peak allocated during the run above the start: 100 messages "
                  << small.peak << " B, 10000 messages " << big.peak << " B; flow records' budget "
                  << records << " B\n";
        EXPECT_LE(big.peak, small.peak + records + 64 * 1024) << transport;
    }
}

TEST(MrcConnections, ExactlyOnceWithSeveralQueuePairsPerConnection)
{
    for (const std::string transport : {"roce", "uec", "mrc"})
    {
        // 40 messages of different sizes each way, all posted at once on 3 lanes per
        // connection.
        std::vector<MrcFlowSpec> flows;
        uint64_t total = 0;
        for (uint32_t i = 0; i < 80; ++i)
        {
            MrcFlowSpec f;
            f.src = i % 2;
            f.dst = 1 - i % 2;
            f.bytes = 1000 + 777 * i;
            total += f.bytes;
            flows.push_back(f);
        }
        MrcScenarioConfig c = TwoHosts(transport, flows);
        c.qpsPerConnection = 3;
        MrcScenarioRunner r(c);
        r.Run();
        EXPECT_EQ(r.GetConnections().GetNConnections(), 2u) << transport;
        EXPECT_EQ(r.GetConnections().GetLanes().size(), 6u) << transport;
        uint64_t messages = 0;
        for (const MrcConnectionLane& lane : r.GetConnections().GetLanes())
        {
            // 40 messages per direction over 3 lanes: 14, 13, 13
            EXPECT_EQ(lane.messages,
                      lane.qps.requester == r.GetRequesters()[0] ||
                              lane.qps.requester == r.GetRequesters()[1]
                          ? 14u
                          : 13u)
                << transport;
            messages += lane.messages;
            EXPECT_TRUE(lane.open.empty()) << transport;
            // the lane's messages tile its region: every byte placed exactly once
            const Ptr<MrcMemoryRegion> region = lane.qps.region;
            EXPECT_TRUE(region->IsExactlyOnce(region->GetBase(), lane.nextOffset)) << transport;
            EXPECT_EQ(region->GetBytesPlaced(), lane.nextOffset) << transport;
            EXPECT_EQ(region->GetIntervalCount(), 1u) << transport;
        }
        EXPECT_EQ(messages, 80u) << transport;
        const auto s = r.GetResults().Summarize();
        EXPECT_EQ(s.at(0).completed, 80u) << transport;
        EXPECT_EQ(s.at(0).completedBytes, total) << transport;
        EXPECT_EQ(s.at(0).counters.bytesExactlyOnce, total) << transport;
        Reset();
    }
}
