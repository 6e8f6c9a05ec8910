/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Input files run by mrc-sim: the sample HPCC topology and flow file (data/hpcc/) run with
// roce, uec and mrc and deliver every byte exactly once, with fct.txt naming the file's
// node addresses, dport, sizes and start times; the sample htsim fat tree and connection
// matrix (data/htsim/) build the fabric htsim's rules give and run; MrcTopologyHelper's
// graph builder numbers switches by tier and hosts by node id; a link's error rate drops
// packets; a flow's priority group picks the RoCE data DSCP; malformed files and
// impossible choices exit with code 2 (or abort) naming the file, line and expectation.

#include "mrc-test-support.h"

#include "ns3/config.h"
#include "ns3/mrc-hpcc-input.h"
#include "ns3/mrc-roce-queue-pair.h"
#include "ns3/mrc-scenario.h"
#include "ns3/mrc-topology-helper.h"
#include "ns3/names.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using ns3::MrcTest::Lines;
using ns3::MrcTest::ReadFile;
using ns3::MrcTest::TempDir;
using ns3::MrcTest::WriteFile;

namespace
{

const std::string HPCC_TOPO = std::string(MRC_SOURCE_DIR) + "/data/hpcc/topology.txt";
const std::string HPCC_FLOWS = std::string(MRC_SOURCE_DIR) + "/data/hpcc/flow.txt";
const std::string HTSIM_TOPO = std::string(MRC_SOURCE_DIR) + "/data/htsim/fattree-16.topo";
const std::string HTSIM_CM = std::string(MRC_SOURCE_DIR) + "/data/htsim/sample.cm";

/// The sizes of data/hpcc/flow.txt, in file order.
const std::vector<uint64_t> HPCC_SIZES =
    {100000, 250000, 50000, 1000000, 20000, 500000, 8000, 300000};

/// Settings of a scenario with the given option changes.
MrcScenarioConfig
Settings(const std::string& scenario,
         const std::string& topo,
         const std::string& flows,
         const std::string& transport)
{
    MrcScenarioOptions o;
    o.scenario = scenario;
    MrcScenarios::Find(scenario)->preset(o);
    o.topoFile = topo;
    o.flowFile = flows;
    o.transport = transport;
    o.sampleInterval = "0s";
    MrcScenarioConfig c = o.ToConfig();
    c.progress = false;
    return c;
}

void
Cleanup()
{
    Simulator::Destroy();
    Names::Clear();
    Config::Reset();
}

using MrcTest::RunSimMain;

} // namespace

TEST(MrcInputRuns, HpccSampleRunsExactlyOnceWithEveryTransport)
{
    uint64_t total = 0;
    for (uint64_t b : HPCC_SIZES)
    {
        total += b;
    }
    ASSERT_EQ(total, 2228000u);
    for (const char* transport : {"roce", "uec", "mrc"})
    {
        SCOPED_TRACE(transport);
        MrcScenarioConfig c = Settings("hpcc", HPCC_TOPO, HPCC_FLOWS, transport);
        EXPECT_EQ(c.pattern, "file");
        ASSERT_EQ(c.fileFlows.size(), 8u);
        MrcScenarioRunner r(c);
        r.Run();
        EXPECT_EQ(r.GetTopology()->GetKind(), MrcTopologyKind::GRAPH);
        EXPECT_EQ(r.GetTopology()->GetNHosts(), 8u);
        EXPECT_EQ(r.GetTopology()->GetNSwitches(), 4u);
        EXPECT_EQ(r.GetTopology()->GetNLinks(), 12u);
        const std::vector<MrcTransportSummary> s = r.GetResults().Summarize();
        ASSERT_EQ(s.size(), 1u);
        EXPECT_EQ(s[0].messages, 8u);
        EXPECT_EQ(s[0].completed, 8u);
        EXPECT_EQ(s[0].completedBytes, total);
        EXPECT_EQ(s[0].counters.bytesExactlyOnce, total);
        EXPECT_EQ(s[0].counters.drops, 0u);

        const std::string dir = TempDir("mrc-inputs");
        r.Write(dir);
        const std::vector<std::string> fct = Lines(ReadFile(dir + "/fct.txt"));
        ASSERT_EQ(fct.size(), 8u);
        std::vector<uint64_t> sizes;
        for (const std::string& line : fct)
        {
            std::istringstream in(line);
            std::string sip;
            std::string dip;
            uint32_t sport;
            uint32_t dport;
            uint64_t size;
            int64_t start;
            int64_t fctNs;
            int64_t ideal;
            in >> sip >> dip >> sport >> dport >> size >> start >> fctNs >> ideal;
            ASSERT_FALSE(in.fail()) << line;
            EXPECT_EQ(dport, 100u) << line; // the file's dport
            EXPECT_GE(start, 2000000000) << line;
            EXPECT_GE(fctNs, ideal * 9 / 10) << line;
            sizes.push_back(size);
        }
        // fct.txt is in completion order: compare the sizes as sets.
        std::vector<uint64_t> want = HPCC_SIZES;
        std::sort(want.begin(), want.end());
        std::sort(sizes.begin(), sizes.end());
        EXPECT_EQ(sizes, want);
        // flow 0: node 0 (11.0.0.1) -> node 4 (11.0.4.1), 100000 B at 2.000000000 s
        const std::string text = ReadFile(dir + "/fct.txt");
        EXPECT_NE(text.find("0b000001 0b000401 "), std::string::npos) << text;
        EXPECT_NE(text.find(" 100 100000 2000000000 "), std::string::npos) << text;
        EXPECT_NE(text.find(" 100 1000000 2000005000 "), std::string::npos) << text;
        std::filesystem::remove_all(dir);
        Cleanup();
    }
}

TEST(MrcInputRuns, GraphBuilderNumbersHostsAndSwitches)
{
    const MrcHpccTopology t = MrcHpccInput::LoadTopology(HPCC_TOPO);
    MrcTopologyGraph g;
    g.isSwitch = t.isSwitch;
    for (const MrcHpccLink& l : t.links)
    {
        MrcGraphLink gl;
        gl.a = l.a;
        gl.b = l.b;
        gl.rate = DataRate(l.rateBps);
        gl.delay = l.delay;
        g.links.push_back(gl);
    }
    // the fabric's second link to host 4 (a host has one NIC port per plane)
    MrcTopologyGraph bad = g;
    bad.links.push_back(MrcGraphLink{4, 8, DataRate("1Gbps"), MicroSeconds(1)});
    int64_t badLink = -1;
    EXPECT_EQ(bad.Validate(badLink),
              "host 4 has a second link (the first is link 5); a host has one NIC port per plane");
    EXPECT_EQ(badLink, 12);

    MrcTopologyConfig c;
    c.planes = 2;
    MrcTopologyHelper th(c);
    Ptr<MrcTopology> topo = th.BuildGraph(g);
    EXPECT_EQ(topo->GetNHosts(), 8u);
    EXPECT_EQ(topo->GetNSwitchesPerPlane(MrcTier::T0), 2u); // nodes 8, 9
    EXPECT_EQ(topo->GetNSwitchesPerPlane(MrcTier::T1), 2u); // nodes 10, 11
    EXPECT_EQ(topo->GetNSwitchesPerPlane(MrcTier::T2), 0u);
    EXPECT_EQ(topo->GetNSwitches(), 8u);
    EXPECT_EQ(topo->GetNLinks(), 24u);
    EXPECT_EQ(topo->GetT0Of(5), 1u);
    EXPECT_EQ(topo->GetDownlinkOf(5), 1u);
    // link i of the file in plane p is topology link p * 12 + i: link 4 is host 4 - node 9
    const MrcTopologyLink& l = topo->GetLink(12 + 4);
    EXPECT_EQ(l.plane, 1u);
    EXPECT_EQ(l.nodeA, topo->GetHost(4));
    EXPECT_EQ(l.nodeB, topo->GetSwitch(1, MrcTier::T0, 1));
    EXPECT_EQ(Names::FindName(l.nodeB), "p1-t0-1");
    // two shortest paths between racks (via either spine), 2 switches + ... per plane
    const std::vector<MrcPath> paths = topo->GetPaths(0, 4, 0);
    ASSERT_EQ(paths.size(), 2u);
    EXPECT_EQ(paths[0].switches.size(), 3u);
    EXPECT_EQ(paths[0].usids.size(), 4u);
    EXPECT_EQ(topo->GetAllPaths(0, 4).size(), 4u);
    EXPECT_EQ(topo->GetPaths(0, 1, 1).size(), 1u); // same rack
    // half the hosts' capacity: 16 NIC ports x 100 Gb/s / 2
    EXPECT_EQ(topo->GetBisectionBandwidth(), 800000000000ULL);
    Cleanup();
}

TEST(MrcInputRuns, FatTreeAsAGraphRunsAsTheBuiltInFatTree)
{
    // A k=4 fat-tree written as an HPCC topology (hosts 0-15, ToRs 16-23, aggregation
    // switches 24-31, cores 32-35, wired as MrcTopologyHelper wires --topology=fattree) gives
    // the same switch numbering, hence the same ECMP hashing and byte-identical flow records.
    const std::string dir = TempDir("mrc-inputs");
    std::ostringstream t;
    t << "36 20 48\n";
    for (int s = 16; s < 36; ++s)
    {
        t << s << (s < 35 ? " " : "\n");
    }
    for (int h = 0; h < 16; ++h)
    {
        t << h << " " << 16 + h / 2 << " 100Gbps 1us 0\n";
    }
    for (int q = 0; q < 4; ++q)
    {
        for (int i = 0; i < 2; ++i)
        {
            for (int j = 0; j < 2; ++j)
            {
                t << 16 + q * 2 + i << " " << 24 + q * 2 + j << " 100Gbps 1us 0\n";
            }
        }
    }
    for (int q = 0; q < 4; ++q)
    {
        for (int j = 0; j < 2; ++j)
        {
            for (int m = 0; m < 2; ++m)
            {
                t << 24 + q * 2 + j << " " << 32 + j * 2 + m << " 100Gbps 1us 0\n";
            }
        }
    }
    WriteFile(dir + "/ft4.txt", t.str());
    WriteFile(dir + "/f.txt",
              "6\n0 15 3 100 200000 0\n1 14 3 100 200000 0\n2 9 3 100 100000 0\n"
              "3 8 3 100 300000 0.000002\n4 12 3 100 50000 0.000004\n5 0 3 100 80000 0\n");
    std::vector<std::vector<int64_t>> ends;
    for (const bool graph : {true, false})
    {
        MrcScenarioOptions o;
        o.scenario = "hpcc";
        MrcScenarios::Find("hpcc")->preset(o);
        o.topoFile = graph ? dir + "/ft4.txt" : "none";
        o.topo.topology = "fattree";
        o.topo.k = "4";
        o.flowFile = dir + "/f.txt";
        o.sampleInterval = "0s";
        MrcScenarioConfig c = o.ToConfig();
        c.progress = false;
        MrcScenarioRunner r(c);
        r.Run();
        EXPECT_EQ(r.GetTopology()->GetKind(),
                  graph ? MrcTopologyKind::GRAPH : MrcTopologyKind::FAT_TREE);
        EXPECT_EQ(r.GetTopology()->GetNSwitches(), 20u);
        std::vector<int64_t> e;
        for (const auto& f : r.GetResults().GetFlows())
        {
            EXPECT_TRUE(f.IsCompleted());
            e.push_back(f.endNs);
        }
        ends.push_back(e);
        Cleanup();
    }
    ASSERT_EQ(ends[0].size(), 6u);
    EXPECT_EQ(ends[0], ends[1]);
    std::filesystem::remove_all(dir);
}

TEST(MrcInputRuns, HtsimSampleBuildsHtsimsFatTreeAndRuns)
{
    for (const char* transport : {"uec", "mrc"})
    {
        SCOPED_TRACE(transport);
        MrcScenarioConfig c = Settings("htsim", HTSIM_TOPO, HTSIM_CM, transport);
        ASSERT_EQ(c.fileFlows.size(), 8u);
        EXPECT_EQ(c.fileFlows[3].start, MicroSeconds(5));
        MrcScenarioRunner r(c);
        r.Run();
        Ptr<MrcTopology> t = r.GetTopology();
        // 4 pods x 2 ToRs, 4 pods x 2 aggregation switches, 4 cores; 16 + 16 + 16 links
        EXPECT_EQ(t->GetNHosts(), 16u);
        EXPECT_EQ(t->GetNSwitchesPerPlane(MrcTier::T0), 8u);
        EXPECT_EQ(t->GetNSwitchesPerPlane(MrcTier::T1), 8u);
        EXPECT_EQ(t->GetNSwitchesPerPlane(MrcTier::T2), 4u);
        EXPECT_EQ(t->GetNLinks(), 48u);
        // between pods: 2 aggs x 2 cores = 4 shortest paths of 5 switches
        const std::vector<MrcPath> p = t->GetPaths(0, 8, 0);
        ASSERT_EQ(p.size(), 4u);
        EXPECT_EQ(p[0].switches.size(), 5u);
        const std::vector<MrcTransportSummary> s = r.GetResults().Summarize();
        ASSERT_EQ(s.size(), 1u);
        EXPECT_EQ(s[0].completed, 8u);
        EXPECT_EQ(s[0].completedBytes, 1500000u);
        EXPECT_EQ(s[0].counters.bytesExactlyOnce, 1500000u);
        Cleanup();
    }
}

TEST(MrcInputRuns, LinkErrorRateDropsAndRoceRecovers)
{
    const std::string dir = TempDir("mrc-inputs");
    // 2 hosts on one switch; the receiver's link loses 5 % of the packets.
    WriteFile(dir + "/t.txt", "3 1 2\n2\n0 2 100Gbps 0.001ms 0\n1 2 100Gbps 0.001ms 0.05\n");
    WriteFile(dir + "/f.txt", "1\n0 1 3 100 200000 0\n");
    MrcScenarioConfig c = Settings("hpcc", dir + "/t.txt", dir + "/f.txt", "roce");
    ASSERT_EQ(c.graphLinkError.size(), 2u);
    EXPECT_EQ(c.graphLinkError[1], 0.05);
    MrcScenarioRunner r(c);
    r.Run();
    PointerValue em;
    r.GetTopology()->GetLink(1).devA->GetAttribute("ReceiveErrorModel", em);
    EXPECT_NE(em.Get<Object>(), nullptr);
    r.GetTopology()->GetLink(0).devA->GetAttribute("ReceiveErrorModel", em);
    EXPECT_EQ(em.Get<Object>(), nullptr);
    const std::vector<MrcTransportSummary> s = r.GetResults().Summarize();
    ASSERT_EQ(s.size(), 1u);
    // 200 packets at 5 %: losses are all but certain (0.95^200 < 4e-5); go-back-N resends
    EXPECT_GT(s[0].counters.retransmissions, 0u);
    EXPECT_EQ(s[0].completed, 1u);
    EXPECT_EQ(s[0].counters.bytesExactlyOnce, 200000u);
    std::filesystem::remove_all(dir);
    Cleanup();
}

TEST(MrcInputRuns, PriorityGroupPicksTheRoceDataDscp)
{
    const std::string dir = TempDir("mrc-inputs");
    WriteFile(dir + "/f.txt", "3\n0 4 1 200 10000 0\n1 4 3 201 10000 0\n2 4 0 202 10000 0\n");
    MrcScenarioConfig c = Settings("hpcc", HPCC_TOPO, dir + "/f.txt", "roce");
    MrcScenarioRunner r(c);
    r.Build();
    const std::vector<Ptr<MrcQueuePair>>& qps = r.GetRequesters();
    ASSERT_EQ(qps.size(), 3u);
    const uint32_t want[] = {33, 26, 32}; // 32 + pg, and 26 (the default) for pg 3
    for (std::size_t i = 0; i < 3; ++i)
    {
        UintegerValue d;
        qps[i]->GetAttribute("DataDscp", d);
        EXPECT_EQ(d.Get(), want[i]) << i;
    }
    Ptr<MrcNetDevice> nic = r.GetTopology()->GetNicPort(0, 0);
    EXPECT_EQ(nic->ClassifyDscp(33), 1u);
    EXPECT_EQ(nic->ClassifyDscp(32), 0u);
    EXPECT_EQ(nic->ClassifyDscp(26), 3u);
    r.Run();
    EXPECT_EQ(r.GetResults().Summarize()[0].counters.bytesExactlyOnce, 30000u);
    std::filesystem::remove_all(dir);
    Cleanup();
}

TEST(MrcInputRuns, HtsimTriggersStartConnectionsAsHtsimDoes)
{
    const std::string dir = TempDir("mrc-inputs");
    // 0->1 fires oneshot 1 (starts 1->2 and 2->3); both fire barrier 2 (count 2: starts 3->0);
    // 3->0 and then 4->5 fire multishot 3, which starts one more target each time.
    WriteFile(dir + "/t.cm",
              "Nodes 16\nConnections 6\nTriggers 3\n"
              "0->1 id 1 start 0 size 100000 send_done_trigger 1\n"
              "1->2 id 2 trigger 1 size 50000 send_done_trigger 2\n"
              "2->3 id 3 trigger 1 size 50000 recv_done_trigger 2\n"
              "3->0 id 4 trigger 2 size 20000 send_done_trigger 3\n"
              "4->5 id 5 trigger 3 size 10000 send_done_trigger 3\n"
              "5->6 id 6 trigger 3 size 10000\n"
              "trigger id 1 oneshot\ntrigger id 2 barrier count 2\ntrigger id 3 multishot\n");
    MrcScenarioConfig c = Settings("htsim", HTSIM_TOPO, dir + "/t.cm", "roce");
    ASSERT_NE(c.htsimMatrix, nullptr);
    EXPECT_EQ(c.fileFlows.size(), 1u); // one timed connection
    MrcScenarioRunner r(c);
    r.Run();
    const auto& flows = r.GetResults().GetFlows();
    ASSERT_EQ(flows.size(), 6u);
    const uint32_t src[] = {0, 1, 2, 3, 4, 5};
    for (std::size_t i = 0; i < 6; ++i)
    {
        ASSERT_TRUE(flows[i].IsCompleted()) << i;
        EXPECT_EQ(flows[i].src, src[i]) << i;
    }
    EXPECT_EQ(flows[0].startNs, 0);
    EXPECT_EQ(flows[1].startNs, flows[0].endNs); // oneshot: both targets at once
    EXPECT_EQ(flows[2].startNs, flows[0].endNs);
    EXPECT_EQ(flows[3].startNs, std::max(flows[1].endNs, flows[2].endNs)); // barrier of 2
    EXPECT_EQ(flows[4].startNs, flows[3].endNs); // multishot: first target
    EXPECT_EQ(flows[5].startNs, flows[4].endNs); // multishot: second target
    EXPECT_EQ(r.GetResults().GetInfo().options.at("htsimConnectionsStarted"), "6");
    std::filesystem::remove_all(dir);
    Cleanup();
}

TEST(MrcInputRuns, ConWeaveFlowsIgnoreTheirCount)
{
    const std::string dir = TempDir("mrc-inputs");
    // ConWeave's 5-field form; its generator can leave a wrong count on line 1
    WriteFile(dir + "/f.txt", "92\n0 4 3 30000 0\n1 5 3 20000 0.000001\n");
    MrcScenarioConfig c = Settings("hpcc", HPCC_TOPO, dir + "/f.txt", "roce");
    ASSERT_EQ(c.fileFlows.size(), 2u);
    EXPECT_EQ(c.fileFlows[1].start, MicroSeconds(1));
    EXPECT_EQ(c.fileFlows[1].dstPort, -1);
    MrcScenarioRunner r(c);
    r.Run();
    EXPECT_EQ(r.GetResults().Summarize()[0].counters.bytesExactlyOnce, 50000u);
    std::filesystem::remove_all(dir);
    Cleanup();
}

TEST(MrcInputRunsDeathTest, MalformedFilesExitWith2NamingFileLineAndExpectation)
{
    const std::string dir = TempDir("mrc-inputs");
    WriteFile(dir + "/flow-bad.txt", "3\n0 4 3 100 1000 2.0\n1 5 3 100 x 2.0\n2 6 3 100 1 2\n");
    EXPECT_EXIT(
        RunSimMain(
            {"mrc-sim", "hpcc", "--topoFile=" + HPCC_TOPO, "--flowFile=" + dir + "/flow-bad.txt"}),
        ::testing::ExitedWithCode(2),
        "flow-bad.txt:3: expected bytes: a positive integer, got 'x'");
    // a link to node 12 of a 12-node topology
    std::string topo = ReadFile(HPCC_TOPO);
    topo.replace(topo.find("\n7 9 "), 5, "\n7 12 ");
    WriteFile(dir + "/topo-bad.txt", topo);
    EXPECT_EXIT(RunSimMain({"mrc-sim", "hpcc", "--topoFile=" + dir + "/topo-bad.txt"}),
                ::testing::ExitedWithCode(2),
                "topo-bad.txt:10: expected a node id below 12, got '12'");
    // a link between two hosts
    topo.replace(topo.find("\n7 12 "), 6, "\n7 6 ");
    WriteFile(dir + "/topo-hh.txt", topo);
    EXPECT_EXIT(RunSimMain({"mrc-sim", "hpcc", "--topoFile=" + dir + "/topo-hh.txt"}),
                ::testing::ExitedWithCode(2),
                "topo-hh.txt:10: expected one link per host, each to a switch, got 'link 7-6 "
                "joins two hosts");
    // a flow to a switch
    WriteFile(dir + "/flow-sw.txt", "1\n0 9 3 100 1000 2.0\n");
    EXPECT_EXIT(RunSimMain({"mrc-sim", "hpcc", "--flowFile=" + dir + "/flow-sw.txt"}),
                ::testing::ExitedWithCode(2),
                "flow-sw.txt:2: expected dst: a host's node id \\(node 9 is a switch");
    // flows after the simulated-time limit
    EXPECT_EXIT(RunSimMain({"mrc-sim", "hpcc", "--simTime=1s"}),
                ::testing::ExitedWithCode(2),
                "--simTime='1s' ends before the last flow of --flowFile starts");
    std::filesystem::remove_all(dir);
}

TEST(MrcInputRunsDeathTest, MrcSrv6NeedsPathsThatFitACarrier)
{
    const std::string dir = TempDir("mrc-inputs");
    // hosts 0 and 1 at the two ends of a line of 6 switches
    WriteFile(dir + "/line.txt",
              "8 6 7\n2 3 4 5 6 7\n0 2 100Gbps 1us 0\n1 7 100Gbps 1us 0\n2 3 100Gbps 1us 0\n"
              "3 4 100Gbps 1us 0\n4 5 100Gbps 1us 0\n5 6 100Gbps 1us 0\n6 7 100Gbps 1us 0\n");
    WriteFile(dir + "/f.txt", "1\n0 1 3 100 10000 0\n");
    // refused before the run (exit 2; it aborted when the connection was made)
    EXPECT_EXIT(RunSimMain({"mrc-sim",
                            "hpcc",
                            "--transport=mrc",
                            "--topoFile=" + dir + "/line.txt",
                            "--flowFile=" + dir + "/f.txt",
                            "--out=" + dir + "/out"}),
                ::testing::ExitedWithCode(2),
                "with --evFormat=srv6, the mrc path from host 0 to host 1 crosses 6 switches.*"
                "--evFormat=structured");
    EXPECT_EXIT(RunSimMain({"mrc-sim",
                            "hpcc",
                            "--transport=mrc",
                            "--evFormat=structured",
                            "--sampleInterval=0s",
                            "--ns3::MrcProgressReporter::Enabled=false",
                            "--topoFile=" + dir + "/line.txt",
                            "--flowFile=" + dir + "/f.txt",
                            "--out=" + dir + "/out"}),
                ::testing::ExitedWithCode(0),
                "");
    EXPECT_EQ(Lines(ReadFile(dir + "/out/fct.txt")).size(), 1u);
    std::filesystem::remove_all(dir);
}
