/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the workload file readers: flow-size CDFs (and the shipped
// data/cdf files), HPCC/ConWeave topology and flow files, htsim .cm and .topo.

#include "mrc-test-support.h"

#include "ns3/mrc-flow-size-cdf.h"
#include "ns3/mrc-hpcc-input.h"
#include "ns3/mrc-htsim-input.h"
#include "ns3/mrc-input-error.h"

#include <cstdio>
#include <cstdlib>
#include <gtest/gtest.h>
#include <sstream>
#include <string>

using namespace ns3;

namespace
{

/// The message of the MrcInputError that f throws ("" if none).
template <typename F>
std::string
ErrorOf(F f)
{
    try
    {
        f();
    }
    catch (const MrcInputError& e)
    {
        return e.what();
    }
    return "";
}

std::string
CdfError(const std::string& text)
{
    return ErrorOf([&]() {
        std::istringstream in(text);
        MrcFlowSizeCdf::Parse(in, "a.cdf");
    });
}

std::string
TopoError(const std::string& text)
{
    return ErrorOf([&]() {
        std::istringstream in(text);
        MrcHpccInput::ParseTopology(in, "t.txt");
    });
}

std::string
FlowError(const std::string& text, MrcHpccFlowOptions o = {})
{
    return ErrorOf([&]() {
        std::istringstream in(text);
        MrcHpccInput::ParseFlows(in, "f.txt", o);
    });
}

std::string
CmError(const std::string& text)
{
    return ErrorOf([&]() {
        std::istringstream in(text);
        MrcHtsimInput::ParseConnectionMatrix(in, "c.cm");
    });
}

std::string
HtTopoError(const std::string& text)
{
    return ErrorOf([&]() {
        std::istringstream in(text);
        MrcHtsimInput::ParseTopology(in, "x.topo");
    });
}

} // namespace

// ---- CDF --------------------------------------------------------------------------------

TEST(MrcInputFiles, CdfParses)
{
    std::istringstream in("# comment\n0 0\n\n100 50\n1100 100\n");
    auto cdf = MrcFlowSizeCdf::Parse(in, "a.cdf");
    ASSERT_EQ(cdf.GetPoints().size(), 3U);
    EXPECT_DOUBLE_EQ(cdf.GetPoints()[1].bytes, 100.0);
    EXPECT_DOUBLE_EQ(cdf.GetPoints()[1].percent, 50.0);
    EXPECT_DOUBLE_EQ(cdf.GetMean(), 325.0);
}

TEST(MrcInputFiles, CdfMalformed)
{
    EXPECT_EQ(CdfError("0 0\n100 x\n"),
              "a.cdf:2: expected 'size_bytes cdf_percent' (size >= 0, 0 <= cdf <= 100), got "
              "'100 x'");
    EXPECT_EQ(CdfError("0 0\n100 50 7\n"),
              "a.cdf:2: expected 'size_bytes cdf_percent' (size >= 0, 0 <= cdf <= 100), got "
              "'100 50 7'");
    EXPECT_EQ(CdfError("0 0\n100 101\n"),
              "a.cdf:2: expected 'size_bytes cdf_percent' (size >= 0, 0 <= cdf <= 100), got "
              "'100 101'");
    EXPECT_EQ(CdfError("5 10\n10 100\n"), "a.cdf:1: expected a first point with cdf 0, got '5 10'");
    EXPECT_EQ(CdfError("0 0\n100 50\n90 60\n200 100\n"),
              "a.cdf:3: expected size and cdf both larger than on the previous point, got '90 60'");
    EXPECT_EQ(
        CdfError("0 0\n100 50\n100 60\n200 100\n"),
        "a.cdf:3: expected size and cdf both larger than on the previous point, got '100 60'");
    EXPECT_EQ(CdfError("0 0\n100 50\n"),
              "a.cdf:2: expected a last point with cdf 100, got '100 50'");
    EXPECT_EQ(CdfError(""), "a.cdf:1: expected a 'size_bytes cdf_percent' line, got end of file");
    EXPECT_EQ(ErrorOf([]() { MrcFlowSizeCdf::LoadFile("/nonexistent/x.txt"); }),
              "/nonexistent/x.txt:0: expected a readable file, got 'cannot open'");
}

TEST(MrcInputFiles, ShippedCdfFiles)
{
    // Means: the piecewise-linear mean, sum (x0+x1)/2 (y1-y0) / 100. WebSearch by
    // hand (data/cdf/README.md): 171125000 / 100 = 1711250. The other three were
    // computed once with the same formula by a separate script, and are listed in
    // data/cdf/README.md.
    const std::string dir = std::string(MRC_SOURCE_DIR) + "/data/cdf/";

    struct Expect
    {
        const char* file;
        size_t points;
        double mean;
        double lastBytes;
    };

    const Expect files[] = {
        {"websearch.txt", 12, 1711250.0, 30000000},
        {"fb-hadoop.txt", 20, 120420.75, 10000000},
        {"alistorage2019.txt", 9, 40869.8, 2000000},
        {"google-rpc2008.txt", 120, 2967.8910155, 15158197},
    };
    for (const auto& e : files)
    {
        auto cdf = MrcFlowSizeCdf::LoadFile(dir + e.file);
        EXPECT_EQ(cdf.GetPoints().size(), e.points) << e.file;
        EXPECT_NEAR(cdf.GetMean(), e.mean, 1e-6) << e.file;
        EXPECT_DOUBLE_EQ(cdf.GetPoints().back().bytes, e.lastBytes) << e.file;
        EXPECT_DOUBLE_EQ(cdf.GetPoints().back().percent, 100.0) << e.file;
    }
    // FB Hadoop: y = 50 is the point (700, 50) itself.
    EXPECT_EQ(MrcFlowSizeCdf::LoadFile(dir + "fb-hadoop.txt").SampleFromUniform(0.5), 700U);
}

// ---- HPCC / ConWeave topology -----------------------------------------------------------

TEST(MrcInputFiles, HpccTopologyParses)
{
    std::istringstream in("5 2 4\n"
                          "3 4\n"
                          "0 3 100Gbps 0.001ms 0\n"
                          "1 3 100Gbps 1000ns 0.001\n"
                          "\n"
                          "2 4 25Gbps 1us 0\n"
                          "3 4 400Gb/s 0.000001s 0\n"
                          "First line: total node #, switch node #, link #\n");
    auto t = MrcHpccInput::ParseTopology(in, "t.txt");
    EXPECT_EQ(t.numNodes, 5U);
    EXPECT_EQ(t.switchIds, (std::vector<uint32_t>{3, 4}));
    EXPECT_EQ(t.hosts, (std::vector<uint32_t>{0, 1, 2}));
    EXPECT_EQ(t.isSwitch, (std::vector<bool>{false, false, false, true, true}));
    ASSERT_EQ(t.links.size(), 4U);
    EXPECT_EQ(t.links[0].a, 0U);
    EXPECT_EQ(t.links[0].b, 3U);
    EXPECT_EQ(t.links[0].rateBps, 100000000000ULL);
    EXPECT_EQ(t.links[2].rateBps, 25000000000ULL);
    EXPECT_EQ(t.links[3].rateBps, 400000000000ULL);
    for (const auto& l : t.links)
    {
        EXPECT_EQ(l.delay, MicroSeconds(1));
    }
    EXPECT_DOUBLE_EQ(t.links[1].errorRate, 0.001);
    EXPECT_EQ(t.links[2].line, 6U);
}

TEST(MrcInputFiles, HpccTopologyMalformed)
{
    EXPECT_EQ(TopoError("5 2\n"),
              "t.txt:1: expected 'N S L' (node, switch and link counts, S <= N), got '5 2'");
    EXPECT_EQ(TopoError("5 6 1\n"),
              "t.txt:1: expected 'N S L' (node, switch and link counts, S <= N), got '5 6 1'");
    EXPECT_EQ(TopoError("5 2 1\n3\n"), "t.txt:2: expected 2 distinct switch ids below 5, got '3'");
    EXPECT_EQ(TopoError("5 2 1\n3 5\n"),
              "t.txt:2: expected 2 distinct switch ids below 5, got '5'");
    EXPECT_EQ(TopoError("5 2 1\n3 3\n"),
              "t.txt:2: expected 2 distinct switch ids below 5, got '3'");
    EXPECT_EQ(TopoError("5 1 1\n4\n0 4 100Gbs 1us 0\n"),
              "t.txt:3: expected a positive rate such as '100Gbps', got '100Gbs'");
    EXPECT_EQ(TopoError("5 1 1\n4\n0 4 100Gbps 1 us 0\n"),
              "t.txt:3: expected link 1 of 1 as 'src dst rate delay err', got '0 4 100Gbps 1 us "
              "0'");
    EXPECT_EQ(TopoError("5 1 1\n4\n0 4 100Gbps 1xs 0\n"),
              "t.txt:3: expected a delay such as '0.001ms' or '1000ns', got '1xs'");
    EXPECT_EQ(TopoError("5 1 1\n4\n0 5 100Gbps 1us 0\n"),
              "t.txt:3: expected a node id below 5, got '5'");
    EXPECT_EQ(TopoError("5 1 1\n4\n4 4 100Gbps 1us 0\n"),
              "t.txt:3: expected a link between two different nodes, got '4 4 100Gbps 1us 0'");
    EXPECT_EQ(TopoError("5 1 1\n4\n0 4 100Gbps 1us 1.5\n"),
              "t.txt:3: expected an error rate in [0, 1], got '1.5'");
    EXPECT_EQ(TopoError("5 1 2\n4\n0 4 100Gbps 1us 0\n"),
              "t.txt:4: expected link 2 of 2 as 'src dst rate delay err', got end of file");
    EXPECT_EQ(TopoError(""),
              "t.txt:1: expected 'N S L' (node, switch and link counts, S <= N), got end of file");
}

// ---- HPCC / ConWeave flows --------------------------------------------------------------

TEST(MrcInputFiles, HpccFlowsParse)
{
    std::istringstream in("3 \n"
                          "0 1 3 100 1000 2.000000100\n"
                          "2 1 3 100 20000 2.5\n"
                          "1 0 3 64 10\n");
    auto f = MrcHpccInput::ParseFlows(in, "f.txt", {3, false, {}, 0});
    ASSERT_EQ(f.size(), 3U);
    EXPECT_EQ(f[0].src, 0U);
    EXPECT_EQ(f[0].dst, 1U);
    EXPECT_EQ(f[0].priorityGroup, 3);
    EXPECT_EQ(f[0].dstPort, 100);
    EXPECT_EQ(f[0].bytes, 1000U);
    EXPECT_EQ(f[0].start, NanoSeconds(2000000100)); // exact, no binary rounding
    EXPECT_EQ(f[1].start, MilliSeconds(2500));
    // ConWeave's five fields: no dport.
    EXPECT_EQ(f[2].src, 1U);
    EXPECT_EQ(f[2].bytes, 64U);
    EXPECT_EQ(f[2].dstPort, -1);
    EXPECT_EQ(f[2].start, Seconds(10));
    EXPECT_EQ(f[2].kind, MrcFlowKind::PLAIN);
}

TEST(MrcInputFiles, HpccFlowsMalformed)
{
    const std::string form =
        "'src dst pg dport bytes start_s' (HPCC) or 'src dst pg bytes start_s' (ConWeave)";
    EXPECT_EQ(FlowError("abc\n"), "f.txt:1: expected the number of flows, got 'abc'");
    EXPECT_EQ(FlowError("2\n0 1 3 100 1000 0\n"),
              "f.txt:3: expected flow 2 of 2 as " + form + ", got end of file");
    EXPECT_EQ(FlowError("1\n0 1 3 100 1000 0\n1 0 3 100 1000 0\n"),
              "f.txt:3: expected end of file after 1 flows (the count on line 1), got '1 0 3 100 "
              "1000 0'");
    EXPECT_EQ(FlowError("1\n0 1 3 1000\n"), "f.txt:2: expected " + form + ", got '0 1 3 1000'");
    EXPECT_EQ(FlowError("1\n1 1 3 100 1000 0\n"),
              "f.txt:2: expected a flow between two different nodes, got '1 1 3 100 1000 0'");
    EXPECT_EQ(FlowError("1\n0 4 3 100 1000 0\n", {4, false, {}, 0}),
              "f.txt:2: expected dst: a node id below 4, got '4'");
    EXPECT_EQ(FlowError("1\nx 1 3 100 1000 0\n"), "f.txt:2: expected src: a node id, got 'x'");
    EXPECT_EQ(FlowError("1\n0 1 9 100 1000 0\n"),
              "f.txt:2: expected pg: a priority group 0..7, got '9'");
    EXPECT_EQ(FlowError("1\n0 1 3 70000 1000 0\n"),
              "f.txt:2: expected dport: a port number 0..65535, got '70000'");
    EXPECT_EQ(FlowError("1\n0 1 3 100 0 0\n"),
              "f.txt:2: expected bytes: a positive integer, got '0'");
    EXPECT_EQ(FlowError("1\n0 1 3 100 10 -1\n"),
              "f.txt:2: expected start_s: a non-negative time in seconds, got '-1'");
    // A wrong count is accepted when asked to ignore it.
    std::istringstream in("9994 \n0 1 3 100 1000 0\n1 0 3 100 1000 0\n");
    MrcHpccFlowOptions ignoreCount;
    ignoreCount.ignoreCount = true;
    EXPECT_EQ(MrcHpccInput::ParseFlows(in, "f.txt", ignoreCount).size(), 2U);
}

TEST(MrcInputFiles, HpccFlowsFromFile)
{
    const MrcTest::ScopedTempDir dir("mrc-input");
    ASSERT_FALSE(dir.Path().empty());
    const std::string path = dir.Path() + "/flow.txt";
    MrcTest::WriteFile(path, "1\n0 1 3 100 1000 0.000001\n");
    auto f = MrcHpccInput::LoadFlows(path);
    ASSERT_EQ(f.size(), 1U);
    EXPECT_EQ(f[0].start, MicroSeconds(1));
    std::remove(path.c_str());
    EXPECT_EQ(ErrorOf([&]() { MrcHpccInput::LoadFlows(path); }),
              path + ":0: expected a readable file, got 'cannot open'");
}

// ---- htsim connection matrix ------------------------------------------------------------

TEST(MrcInputFiles, HtsimConnectionMatrixParses)
{
    std::istringstream in("# two steps\n"
                          "Nodes 4\n"
                          "Connections 3\n"
                          "Triggers 1\n"
                          "\n"
                          "0->1 id 1 start 0 size 4096 send_done_trigger 1\n"
                          "1->2 id 2 trigger 1 size 4096 prio 5\n"
                          "2->3 start 12.7 size 100 msg 9\n"
                          "trigger id 1 oneshot\n");
    auto cm = MrcHtsimInput::ParseConnectionMatrix(in, "c.cm");
    EXPECT_EQ(cm.nodes, 4U);
    ASSERT_EQ(cm.connections.size(), 3U);
    const auto& c0 = cm.connections[0];
    EXPECT_EQ(c0.src, 0U);
    EXPECT_EQ(c0.dst, 1U);
    EXPECT_TRUE(c0.hasStart);
    EXPECT_DOUBLE_EQ(c0.startUs, 0.0);
    EXPECT_EQ(c0.size, 4096U);
    EXPECT_EQ(c0.flowId, 1U);
    EXPECT_EQ(c0.sendDoneTrigger, 1U);
    EXPECT_EQ(c0.priority, 2000000);
    const auto& c1 = cm.connections[1];
    EXPECT_FALSE(c1.hasStart);
    EXPECT_EQ(c1.trigger, 1U);
    EXPECT_EQ(c1.priority, 5);
    EXPECT_EQ(c1.line, 7U);
    const auto& c2 = cm.connections[2];
    EXPECT_DOUBLE_EQ(c2.startUs, 12.7);
    EXPECT_TRUE(c2.hasMsg);
    EXPECT_EQ(c2.msgId, 9U);
    ASSERT_EQ(cm.triggers.size(), 1U);
    EXPECT_EQ(cm.triggers[0].id, 1U);
    EXPECT_EQ(cm.triggers[0].type, MrcHtsimTrigger::ONESHOT);
    auto timed = cm.TimedFlows();
    ASSERT_EQ(timed.size(), 2U); // the triggered connection is left to the scenario
    EXPECT_EQ(timed[1].src, 2U);
    EXPECT_EQ(timed[1].bytes, 100U);
    EXPECT_EQ(timed[1].start, MicroSeconds(12)); // whole microseconds, as htsim
}

TEST(MrcInputFiles, HtsimConnectionMatrixMalformed)
{
    EXPECT_EQ(CmError("Nodes 4\nConnections 1\n0->4 start 0 size 1\n"),
              "c.cm:3: expected SRC->DST with DST a node id below 4, got '0->4'");
    EXPECT_EQ(CmError("Nodes 4\nConnections 1\n0->1 start 0 size 1 colour red\n"),
              "c.cm:3: expected one of start, size, id, msg, trigger, send_done_trigger, "
              "recv_done_trigger, prio, got 'colour'");
    EXPECT_EQ(CmError("Nodes 4\nConnections 1\n0->1 size 1 start\n"),
              "c.cm:3: expected a start time in microseconds after 'start', got 'start'");
    EXPECT_EQ(CmError("Nodes 4\nConnections 2\n0->1 start 0 size 1\n"),
              "c.cm:2: expected 2 connection lines as declared, got '1'");
    EXPECT_EQ(CmError("Nodes 2\n0->1 start 0\n"),
              "c.cm:3: expected a 'Connections' header line for the connection lines, got '1'");
    EXPECT_EQ(CmError("Nodes 4\nConnections 1\n0->1 id 1 trigger 5 size 1\n"),
              "c.cm:3: expected a 'trigger id 5 ...' line for trigger 5, got '0->1 id 1 trigger 5 "
              "size 1'");
    EXPECT_EQ(CmError("Nodes 4\nConnections 1\n0->1 size 1\n"),
              "c.cm:3: expected 'start US' or 'trigger T' on the connection, got '0->1 size 1'");
    EXPECT_EQ(CmError("Nodes 4\nConnections 1\n0->1 trigger 1 size 1\nTriggers 1\n"),
              "c.cm:3: expected an 'id' on a connection started by a trigger, got '0->1 trigger 1 "
              "size 1'");
    EXPECT_EQ(CmError("Connections 1\n0->1 start 0\n"),
              "c.cm:2: expected a positive 'Nodes N' line before the first connection, got '0->1 "
              "start 0'");
    EXPECT_EQ(CmError("Nodez 4\n"),
              "c.cm:1: expected 'Nodes N', 'Connections C', 'Triggers T', 'Failures F', "
              "'SRC->DST ...', 'trigger ...' or 'failure ...', got 'Nodez'");
    EXPECT_EQ(CmError("Nodes 4\nTriggers 1\ntrigger id 1\n"),
              "c.cm:3: expected a trigger type (oneshot, multishot or barrier), got 'trigger id "
              "1'");
    EXPECT_EQ(CmError("Nodes 4\nConnections 1\n0->1 start 0 id 0\n"),
              "c.cm:3: expected a positive integer after 'id', got '0'");
}

// ---- htsim topology ---------------------------------------------------------------------

TEST(MrcInputFiles, HtsimTopologyParses)
{
    std::istringstream in("Nodes 16\n"
                          "Tiers 2\n"
                          "Podsize 16\n"
                          "\n"
                          "Tier 0\n"
                          "Downlink_speed_Gbps 400\n"
                          "Radix_Down 4\n"
                          "Radix_Up 2\n"
                          "Downlink_Latency_ns 500\n"
                          "Switch_Latency_ns 0\n"
                          "Oversubscribed 2\n"
                          "# the spine\n"
                          "tier 1\n"
                          "downlink_speed_gbps 400\n"
                          "Radix_Down 4\n"
                          "Queue_Down 1000000\n"
                          "Downlink_Latency_ns 500\n");
    auto t = MrcHtsimInput::ParseTopology(in, "x.topo");
    EXPECT_EQ(t.nodes, 16U);
    EXPECT_EQ(t.tiers, 2U);
    EXPECT_EQ(t.podSize, 16U);
    EXPECT_TRUE(t.tier[0].present);
    EXPECT_EQ(t.tier[0].downlinkGbps, 400U);
    EXPECT_EQ(t.tier[0].radixDown, 4U);
    EXPECT_EQ(t.tier[0].radixUp, 2U);
    EXPECT_EQ(t.tier[0].downlinkLatencyNs, 500U);
    EXPECT_EQ(t.tier[0].oversubscribed, 2U);
    EXPECT_EQ(t.tier[0].bundle, 1U);
    EXPECT_TRUE(t.tier[1].present);
    EXPECT_EQ(t.tier[1].radixDown, 4U);
    EXPECT_EQ(t.tier[1].line, 13U);
    // 1 pod; 16/4 = 4 ToRs; 16 x 400 / (400 x 2) = 8 ToR uplinks; 8 / (1 x 4) = 2 Aggs.
    auto s = MrcHtsimInput::Shape(t);
    EXPECT_EQ(s.pods, 1U);
    EXPECT_EQ(s.torsPerPod, 4U);
    EXPECT_EQ(s.torUplinks, 8U);
    EXPECT_EQ(s.aggsPerPod, 2U);
    EXPECT_EQ(s.cores, 0U);
    EXPECT_EQ(t.tier[1].queueDown, 1000000U);
    EXPECT_FALSE(t.tier[2].present);
}

TEST(MrcInputFiles, HtsimTopologyMalformed)
{
    const std::string head = "Nodes 16\nTiers 2\nPodsize 16\n";
    EXPECT_EQ(HtTopoError("Nodes 16\nTiers 4\n"), "x.topo:2: expected Tiers 2 or 3, got '4'");
    EXPECT_EQ(HtTopoError("Nodes 16\nTiers 2\nTier 0\n"),
              "x.topo:3: expected a 'Podsize P' line before the first Tier, got 'Tier 0'");
    EXPECT_EQ(HtTopoError("Nodes 16\nRadix_Down 4\n"),
              "x.topo:2: expected 'Nodes N', 'Tiers T', 'Podsize P' or 'Tier k', got 'Radix_Down'");
    EXPECT_EQ(HtTopoError(head + "Tier 0\nRadix_Sideways 3\n"),
              "x.topo:5: expected one of Tier, Downlink_speed_Gbps, Radix_Up, Radix_Down, "
              "Queue_Up, Queue_Down, Oversubscribed, Bundle, Switch_Latency_ns, "
              "Downlink_Latency_ns, got 'Radix_Sideways'");
    EXPECT_EQ(HtTopoError(head + "Tier 0\nRadix_Down 4\nRadix_Down 4\n"),
              "x.topo:6: expected one 'Radix_Down' in tier 0, got 'Radix_Down'");
    EXPECT_EQ(HtTopoError(head + "Tier 0\nRadix_Down four\n"),
              "x.topo:5: expected a non-negative integer after 'Radix_Down', got 'four'");
    EXPECT_EQ(HtTopoError(head + "Tier 2\n"),
              "x.topo:4: expected a tier index below Tiers = 2, got '2'");
    EXPECT_EQ(HtTopoError("Nodes 16\nTiers 3\nPodsize 8\nTier 2\nRadix_Up 4\n"),
              "x.topo:5: expected no Radix_Up in tier 2 (the top tier has no uplinks), got "
              "'Radix_Up'");
    EXPECT_EQ(HtTopoError(head + "Tier 0\nRadix_Down 4\n"),
              "x.topo:6: expected a 'Tier 1' block, got end of file");
    EXPECT_EQ(HtTopoError("Nodes 16\n"), "x.topo:2: expected a 'Tiers T' line, got end of file");
}

TEST(MrcInputFiles, HtsimFatTreeShape)
{
    // The k = 4 fat tree: 4 pods of 2 ToRs and 2 Aggs, 4 cores.
    std::string k4 = "Nodes 16\nTiers 3\nPodsize 4\n"
                     "Tier 0\nDownlink_speed_Gbps 100\nRadix_Down 2\nRadix_Up 2\n"
                     "Tier 1\nDownlink_speed_Gbps 100\nRadix_Down 2\nRadix_Up 2\n"
                     "Tier 2\nDownlink_speed_Gbps 100\nRadix_Down 4\n";
    std::istringstream in(k4);
    auto s = MrcHtsimInput::Shape(MrcHtsimInput::ParseTopology(in, "k4.topo"));
    EXPECT_EQ(s.pods, 4U);
    EXPECT_EQ(s.torsPerPod, 2U);
    EXPECT_EQ(s.aggsPerPod, 2U);
    EXPECT_EQ(s.torUplinks, 16U);
    EXPECT_EQ(s.aggUplinks, 16U);
    EXPECT_EQ(s.cores, 4U);
    // Tier 1 down radix 8 leaves one Agg per pod for two ToR uplinks each (line 8 is "Tier 1").
    std::string bad = k4;
    bad.replace(bad.find("Tier 1\nDownlink_speed_Gbps 100\nRadix_Down 2"),
                std::string("Tier 1\nDownlink_speed_Gbps 100\nRadix_Down 2").size(),
                "Tier 1\nDownlink_speed_Gbps 100\nRadix_Down 4");
    EXPECT_EQ(ErrorOf([&]() {
                  std::istringstream b(bad);
                  MrcHtsimInput::Shape(MrcHtsimInput::ParseTopology(b, "k4.topo"));
              }),
              "k4.topo:8: expected Aggs per pod x Bundle(1) equal to Radix_Up(0) = 2, got '1'");
    std::istringstream pod("Nodes 16\nTiers 2\nPodsize 6\nTier 0\nDownlink_speed_Gbps 100\n"
                           "Radix_Down 2\nRadix_Up 2\nTier 1\nDownlink_speed_Gbps 100\n"
                           "Radix_Down 8\n");
    EXPECT_EQ(ErrorOf([&]() { MrcHtsimInput::Shape(MrcHtsimInput::ParseTopology(pod, "p.topo")); }),
              "p.topo:3: expected a Podsize that divides Nodes = 16, got '6'");
}
