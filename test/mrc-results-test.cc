/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the results library: exact bytes of every output file for a small
// hand-made set of records, percentile / ideal-FCT / slowdown arithmetic,
// JSON validity (parsed back by python3), determinism, and that the progress
// reporter leaves a simulation's events untouched.

#include "mrc-test-support.h"

#include "ns3/boolean.h"
#include "ns3/mrc-progress-reporter.h"
#include "ns3/mrc-results-writer.h"
#include "ns3/mrc-run-results.h"
#include "ns3/mrc-time-series-sampler.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;
namespace fs = std::filesystem;
using ns3::MrcTest::ReadFile;

namespace
{

MrcFlowRecord
Flow(const std::string& transport,
     uint64_t id,
     uint32_t src,
     uint32_t dst,
     uint16_t sport,
     uint64_t bytes,
     int64_t start,
     int64_t ideal)
{
    MrcFlowRecord f;
    f.transport = transport;
    f.flowId = id;
    f.src = src;
    f.dst = dst;
    f.sport = sport;
    f.dport = 4791;
    f.bytes = bytes;
    f.startNs = start;
    f.idealFctNs = ideal;
    return f;
}

/// The hand-made run every file test uses.
MrcRunResults
Sample(double wallClock = 1.25)
{
    MrcRunResults r;
    r.AddTransport("roce");
    std::size_t a = r.AddFlow(Flow("roce", 2, 0, 1, 49152, 1000, 1000, 2000));
    std::size_t b = r.AddFlow(Flow("roce", 1, 1, 300, 49153, 2500, 0, 3000));
    r.AddFlow(Flow("roce", 3, 2, 0, 49154, 500, 2000, 1500)); // never completes
    std::size_t c = r.AddFlow(Flow("mrc", 1, 0, 2, 50000, 4096, 0, 2000));
    r.CompleteFlow(b, 9000);
    r.CompleteFlow(a, 5000);
    r.CompleteFlow(c, 3000);

    MrcTransportCounters& roce = r.GetCounters("roce");
    roce.retransmissions = 5;
    roce.timeouts = 1;
    roce.nacks = 2;
    roce.drops = 3;
    roce.ecnMarks = 7;
    roce.cnps = 4;
    roce.pfcPauseFrames = 6;
    roce.pfcPausedNs = 12345;
    roce.bytesExactlyOnce = 3500;
    roce.simulatedTimeNs = 10000;
    roce.eventsExecuted = 40;
    MrcTransportCounters& mrc = r.GetCounters("mrc");
    mrc.trims = 9;
    mrc.nacks = 9;
    mrc.bytesExactlyOnce = 4096;
    mrc.simulatedTimeNs = 5000;
    mrc.eventsExecuted = 2;

    MrcLinkRecord l1;
    l1.transport = "roce";
    l1.from = "h0";
    l1.fromPort = 1;
    l1.to = "t0-0";
    l1.toPort = 1;
    l1.rateBps = 100000000000ULL;
    l1.packets = 10;
    l1.bytes = 10480;
    r.AddLink(l1);
    MrcLinkRecord l2;
    l2.transport = "mrc";
    l2.from = "t0-0";
    l2.fromPort = 1;
    l2.to = "h0";
    l2.toPort = 1;
    l2.rateBps = 100000000000ULL;
    l2.packets = 3;
    l2.bytes = 3144;
    l2.drops = 1;
    l2.trims = 2;
    l2.ecnMarks = 3;
    l2.pausesSent = 4;
    l2.pausesRecv = 5;
    l2.pausedNs = 600;
    r.AddLink(l2);

    const uint32_t tx = r.RegisterSeries("roce", "h0", "tx_gbps");
    r.AddSample(2000, tx, 12.5);
    r.AddSample(1000, "", "t0-0:1", "queue_bytes", 3000);
    r.AddSample(1000, tx, 100);
    EXPECT_EQ(r.RegisterSeries("roce", "h0", "tx_gbps"), tx);

    r.AddPfc({3000, 5, 1, 2, 0, "roce"});
    r.AddPfc({1500, 5, 1, 2, 1, "roce"});
    r.AddPfc({2000, 7, 0, 1, 1, "mrc"});

    MrcRunInfo& info = r.GetInfo();
    info.scenario = "unit";
    info.seed = 7;
    info.options["transports"] = "roce,mrc";
    info.options["bytes"] = "1000";
    info.profile = "roce-hpcc";
    info.profileSettings["ns3::MrcX::Y"] = "1";
    info.attributeOverrides["ns3::MrcX::Y"] = "2";
    info.ns3Version = "3.37";
    info.simulatedTimeNs = 10000;
    info.wallClockSeconds = wallClock;
    info.peakRssKb = 2048;
    return r;
}

const char* const SUMMARY_JSON = R"({
  "schema": 2,
  "run": {
    "scenario": "unit",
    "seed": 7,
    "ns3Version": "3.37",
    "profile": "roce-hpcc",
    "profileSettings": {
      "ns3::MrcX::Y": "1"
    },
    "attributeOverrides": {
      "ns3::MrcX::Y": "2"
    },
    "options": {
      "bytes": "1000",
      "transports": "roce,mrc"
    },
    "simulatedTimeNs": 10000,
    "host": {"wallClockSeconds": 1.250, "peakRssKb": 2048}
  },
  "transports": {
    "roce": {
      "simulatedTimeNs": 10000,
      "eventsExecuted": 40,
      "messages": 3,
      "completed": 2,
      "bytes": 4000,
      "completedBytes": 3500,
      "goodputGbps": 3.111111,
      "fctNs": {"p50": 4000, "p90": 9000, "p99": 9000, "max": 9000},
      "slowdown": {"p50": 2.000000, "p99": 3.000000},
      "retransmissions": 5,
      "timeouts": 1,
      "nacks": 2,
      "trims": 0,
      "drops": 3,
      "ecnMarks": 7,
      "cnps": 4,
      "pfcPauseFrames": 6,
      "pfcPausedNs": 12345,
      "bytesExactlyOnce": 3500
    },
    "mrc": {
      "simulatedTimeNs": 5000,
      "eventsExecuted": 2,
      "messages": 1,
      "completed": 1,
      "bytes": 4096,
      "completedBytes": 4096,
      "goodputGbps": 10.922667,
      "fctNs": {"p50": 3000, "p90": 3000, "p99": 3000, "max": 3000},
      "slowdown": {"p50": 1.500000, "p99": 1.500000},
      "retransmissions": 0,
      "timeouts": 0,
      "nacks": 9,
      "trims": 9,
      "drops": 0,
      "ecnMarks": 0,
      "cnps": 0,
      "pfcPauseFrames": 0,
      "pfcPausedNs": 0,
      "bytesExactlyOnce": 4096
    }
  }
}
)";

const char* const FLOWS_CSV =
    "transport,flow_id,src,dst,bytes,start_ns,end_ns,fct_ns,ideal_fct_ns,slowdown\n"
    "roce,1,1,300,2500,0,9000,9000,3000,3.000000\n"
    "roce,2,0,1,1000,1000,5000,4000,2000,2.000000\n"
    "roce,3,2,0,500,2000,,,1500,\n"
    "mrc,1,0,2,4096,0,3000,3000,2000,1.500000\n";

const char* const TIMESERIES_CSV = "time_ns,transport,entity,metric,value\n"
                                   "1000,,t0-0:1,queue_bytes,3000\n"
                                   "1000,roce,h0,tx_gbps,100\n"
                                   "2000,roce,h0,tx_gbps,12.500000\n";

// Each link's utilization over its own transport's simulated time (roce 10 us, mrc 5 us).
const char* const LINKS_CSV =
    "transport,from,from_port,to,to_port,rate_bps,packets,bytes,utilization,drops,trims,ecn_marks,"
    "pauses_sent,pauses_received,paused_ns\n"
    "roce,h0,1,t0-0,1,100000000000,10,10480,0.083840,0,0,0,0,0,0\n"
    "mrc,t0-0,1,h0,1,100000000000,3,3144,0.050304,1,2,3,4,5,600\n";

// sip dip sport dport size start_ns fct_ns ideal_fct_ns, in completion order;
// host 300 is 11.1.44.1 = 0x0b012c01 in HPCC's numbering.
const char* const FCT_TXT = "0b000001 0b000201 50000 4791 4096 0 3000 2000\n"
                            "0b000001 0b000101 49152 4791 1000 1000 4000 2000\n"
                            "0b000101 0b012c01 49153 4791 2500 0 9000 3000\n";

const char* const PFC_TXT = "1500 5 1 2 1\n"
                            "2000 7 0 1 1\n"
                            "3000 5 1 2 0\n";

// The per-transport files of a run with several transports.
const char* const ROCE_FCT_TXT = "0b000001 0b000101 49152 4791 1000 1000 4000 2000\n"
                                 "0b000101 0b012c01 49153 4791 2500 0 9000 3000\n";
const char* const MRC_FCT_TXT = "0b000001 0b000201 50000 4791 4096 0 3000 2000\n";
const char* const ROCE_PFC_TXT = "1500 5 1 2 1\n"
                                 "3000 5 1 2 0\n";
const char* const MRC_PFC_TXT = "2000 7 0 1 1\n";

template <typename Fn>
std::string
Text(Fn fn, const MrcRunResults& r)
{
    std::ostringstream os;
    fn(r, os);
    return os.str();
}

/// The text of a writer that can select one transport ("" for all).
std::string
Text(void (*fn)(const MrcRunResults&, std::ostream&, const std::string&),
     const MrcRunResults& r,
     const std::string& transport = "")
{
    std::ostringstream os;
    fn(r, os, transport);
    return os.str();
}

} // namespace

TEST(MrcResultsMath, NearestRankHandComputed)
{
    // rank = ceil(p * n / 100), index = rank - 1
    EXPECT_EQ(MrcNearestRank(1, 50), 0U);
    EXPECT_EQ(MrcNearestRank(2, 50), 0U);
    EXPECT_EQ(MrcNearestRank(2, 51), 1U);
    EXPECT_EQ(MrcNearestRank(10, 90), 8U);
    EXPECT_EQ(MrcNearestRank(10, 91), 9U);
    EXPECT_EQ(MrcNearestRank(100, 99), 98U);
    EXPECT_EQ(MrcNearestRank(101, 99), 99U); // ceil(99.99) = 100
    EXPECT_EQ(MrcNearestRank(5, 0), 0U);
    EXPECT_EQ(MrcNearestRank(5, 100), 4U);
    // The classic example: {15, 20, 35, 40, 50}: p30 = 20, p40 = 20, p50 = 35, p100 = 50.
    const std::vector<int64_t> v{50, 15, 40, 35, 20};
    EXPECT_EQ(MrcPercentile(v, 30), 20);
    EXPECT_EQ(MrcPercentile(v, 40), 20);
    EXPECT_EQ(MrcPercentile(v, 50), 35);
    EXPECT_EQ(MrcPercentile(v, 100), 50);
    EXPECT_EQ(MrcPercentile(v, 0), 15);
    const std::vector<double> d{3.5, 1.25, 2.0, 9.0};
    EXPECT_DOUBLE_EQ(MrcPercentile(d, 50), 2.0);
    EXPECT_DOUBLE_EQ(MrcPercentile(d, 75), 3.5);
    EXPECT_DOUBLE_EQ(MrcPercentile(d, 99), 9.0);
}

TEST(MrcResultsMath, WireBytesAndIdealFct)
{
    EXPECT_EQ(MrcWireBytes(2500, 1000, 48), 2500U + 3 * 48);
    EXPECT_EQ(MrcWireBytes(3000, 1000, 48), 3000U + 3 * 48);
    EXPECT_EQ(MrcWireBytes(3001, 1000, 48), 3001U + 4 * 48);
    EXPECT_EQ(MrcWireBytes(0, 1000, 48), 48U); // an empty message is still one packet
    // 2644 B * 8 = 21152 bit at 100 Gb/s = 211.52 ns, rounded down, + 8 us RTT
    EXPECT_EQ(MrcIdealFctNs(2500, 1000, 48, 8000, 100000000000ULL), 8211);
    // 2 MB at 100 Gb/s with 1000 B payload and 62 B overhead: 2000 packets,
    // 2124000 B = 16992000 bit = 169920 ns
    EXPECT_EQ(MrcIdealFctNs(2000000, 1000, 62, 0, 100000000000ULL), 169920);
    // no overflow for large messages: 10 GB at 1 Gb/s = 80 s
    EXPECT_EQ(MrcIdealFctNs(10000000000ULL, 1000000, 0, 0, 1000000000ULL), 80000000000LL);
}

TEST(MrcResultsMath, SlowdownAndHpccAddresses)
{
    MrcFlowRecord f = Flow("roce", 1, 0, 1, 1, 1000, 100, 400);
    EXPECT_FALSE(f.IsCompleted());
    EXPECT_EQ(f.FctNs(), -1);
    EXPECT_EQ(f.Slowdown(), -1);
    f.endNs = 1100;
    EXPECT_EQ(f.FctNs(), 1000);
    EXPECT_DOUBLE_EQ(f.Slowdown(), 2.5);
    f.idealFctNs = 0;
    EXPECT_EQ(f.Slowdown(), -1);
    EXPECT_EQ(MrcHpccAddress(0), 0x0b000001U);
    EXPECT_EQ(MrcHpccAddress(255), 0x0b00ff01U);
    EXPECT_EQ(MrcHpccAddress(256), 0x0b010001U);
    EXPECT_EQ(MrcHpccAddress(300), 0x0b012c01U);
    EXPECT_GT(MrcPeakRssKb(), 0U);
    EXPECT_EQ(MrcNs3VersionString(),
              MRC_NS3_VERSION_MINOR == 99 ? std::string("3-dev")
                                          : "3." + std::to_string(MRC_NS3_VERSION_MINOR));
}

TEST(MrcResultsMath, Summarize)
{
    const auto s = Sample().Summarize();
    ASSERT_EQ(s.size(), 2U);
    EXPECT_EQ(s[0].transport, "roce");
    EXPECT_EQ(s[0].messages, 3U);
    EXPECT_EQ(s[0].completed, 2U);
    EXPECT_EQ(s[0].fctP50Ns, 4000);
    EXPECT_EQ(s[0].fctP90Ns, 9000);
    EXPECT_DOUBLE_EQ(s[0].goodputGbps, 3500.0 * 8 / 9000);
    EXPECT_DOUBLE_EQ(s[0].slowdownP50, 2.0);
    EXPECT_DOUBLE_EQ(s[0].slowdownP99, 3.0);
    EXPECT_EQ(s[1].transport, "mrc");
    EXPECT_DOUBLE_EQ(s[1].slowdownP50, 1.5);
    EXPECT_EQ(s[1].counters.trims, 9U);
}

TEST(MrcResultsFormat, Numbers)
{
    EXPECT_EQ(MrcResultsWriter::FormatFixed(3.1111111, 6), "3.111111");
    EXPECT_EQ(MrcResultsWriter::FormatFixed(0.5, 0), "0"); // round half to even
    EXPECT_EQ(MrcResultsWriter::FormatFixed(-0.0000001, 3), "0.000");
    EXPECT_EQ(MrcResultsWriter::FormatFixed(1234567.5, 1), "1234567.5");
    EXPECT_EQ(MrcResultsWriter::FormatValue(3000), "3000");
    EXPECT_EQ(MrcResultsWriter::FormatValue(-2), "-2");
    EXPECT_EQ(MrcResultsWriter::FormatValue(0.1), "0.100000");
    EXPECT_EQ(MrcResultsWriter::FormatValue(1e16), "10000000000000000.000000");
    EXPECT_EQ(MrcResultsWriter::JsonString("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\u0001\"");
}

TEST(MrcResultsFiles, ExactBytesOfEveryFile)
{
    const MrcRunResults r = Sample();
    EXPECT_EQ(Text(&MrcResultsWriter::WriteSummaryJson, r), SUMMARY_JSON);
    EXPECT_EQ(Text(&MrcResultsWriter::WriteFlowsCsv, r), FLOWS_CSV);
    EXPECT_EQ(Text(&MrcResultsWriter::WriteTimeseriesCsv, r), TIMESERIES_CSV);
    EXPECT_EQ(Text(&MrcResultsWriter::WriteLinksCsv, r), LINKS_CSV);
    EXPECT_EQ(Text(&MrcResultsWriter::WriteFctTxt, r), FCT_TXT);
    EXPECT_EQ(Text(&MrcResultsWriter::WritePfcTxt, r), PFC_TXT);
    EXPECT_EQ(Text(&MrcResultsWriter::WriteFctTxt, r, "roce"), ROCE_FCT_TXT);
    EXPECT_EQ(Text(&MrcResultsWriter::WriteFctTxt, r, "mrc"), MRC_FCT_TXT);
    EXPECT_EQ(Text(&MrcResultsWriter::WritePfcTxt, r, "roce"), ROCE_PFC_TXT);
    EXPECT_EQ(Text(&MrcResultsWriter::WritePfcTxt, r, "mrc"), MRC_PFC_TXT);

    // WriteAll writes the same bytes into the folder and calls the hook last.
    const fs::path dir = fs::path(MrcTest::TempDir("mrc-results")) / "out" / "sub";
    std::vector<std::string> seen;
    const auto names = MrcResultsWriter::WriteAll(r, dir.string(), [&](const std::string& d) {
        seen.push_back(d);
        std::ofstream(d + "/events.csv") << "time_ns,kind,where,detail\n";
    });
    EXPECT_EQ(names,
              (std::vector<std::string>{"summary.json",
                                        "flows.csv",
                                        "timeseries.csv",
                                        "links.csv",
                                        "roce/fct.txt",
                                        "roce/pfc.txt",
                                        "mrc/fct.txt",
                                        "mrc/pfc.txt"}));
    EXPECT_EQ(seen, std::vector<std::string>{dir.string()});
    EXPECT_EQ(ReadFile(dir / "summary.json"), SUMMARY_JSON);
    EXPECT_EQ(ReadFile(dir / "flows.csv"), FLOWS_CSV);
    EXPECT_EQ(ReadFile(dir / "timeseries.csv"), TIMESERIES_CSV);
    EXPECT_EQ(ReadFile(dir / "links.csv"), LINKS_CSV);
    // Two transports: HPCC's files per transport, none mixing them at the top.
    EXPECT_EQ(ReadFile(dir / "roce" / "fct.txt"), ROCE_FCT_TXT);
    EXPECT_EQ(ReadFile(dir / "mrc" / "fct.txt"), MRC_FCT_TXT);
    EXPECT_EQ(ReadFile(dir / "roce" / "pfc.txt"), ROCE_PFC_TXT);
    EXPECT_EQ(ReadFile(dir / "mrc" / "pfc.txt"), MRC_PFC_TXT);
    EXPECT_FALSE(fs::exists(dir / "fct.txt"));
    EXPECT_FALSE(fs::exists(dir / "pfc.txt"));
    EXPECT_TRUE(fs::exists(dir / "events.csv"));
    fs::remove_all(dir.parent_path().parent_path());
}

TEST(MrcResultsFiles, OneTransportWritesHpccFilesAtTheTop)
{
    MrcRunResults r;
    r.AddFlow(Flow("roce", 2, 0, 1, 49152, 1000, 1000, 2000));
    r.CompleteFlow(0, 5000);
    r.AddPfc({1500, 5, 1, 2, 1, "roce"});
    const fs::path dir = fs::path(MrcTest::TempDir("mrc-results"));
    const auto names = MrcResultsWriter::WriteAll(r, dir.string());
    EXPECT_EQ(names,
              (std::vector<std::string>{"summary.json",
                                        "flows.csv",
                                        "timeseries.csv",
                                        "links.csv",
                                        "fct.txt",
                                        "pfc.txt"}));
    EXPECT_EQ(ReadFile(dir / "fct.txt"), "0b000001 0b000101 49152 4791 1000 1000 4000 2000\n");
    EXPECT_EQ(ReadFile(dir / "pfc.txt"), "1500 5 1 2 1\n");
    EXPECT_FALSE(fs::exists(dir / "roce"));
    fs::remove_all(dir);
}

TEST(MrcResultsFiles, EmptyRunIsValid)
{
    MrcRunResults r;
    r.AddTransport("uec"); // a transport without messages: no statistics (null)
    std::ostringstream js;
    MrcResultsWriter::WriteSummaryJson(r, js);
    EXPECT_NE(js.str().find("\"goodputGbps\": null"), std::string::npos);
    EXPECT_NE(js.str().find("\"fctNs\": {\"p50\": null, \"p90\": null, \"p99\": null, "
                            "\"max\": null}"),
              std::string::npos);
    EXPECT_EQ(Text(&MrcResultsWriter::WriteFlowsCsv, r),
              "transport,flow_id,src,dst,bytes,start_ns,end_ns,fct_ns,ideal_fct_ns,slowdown\n");
    EXPECT_EQ(Text(&MrcResultsWriter::WriteFctTxt, r), "");
    MrcRunResults none;
    std::ostringstream js2;
    MrcResultsWriter::WriteSummaryJson(none, js2);
    EXPECT_NE(js2.str().find("\"transports\": {}\n}\n"), std::string::npos);
}

TEST(MrcResultsFiles, SplitRunsWriteTheirSynchronizationInHost)
{
    MrcRunResults r = Sample();
    MrcRunInfo& info = r.GetInfo();
    info.mpiRanks = 1; // --ranks=1: one process, no synchronization: nothing added
    EXPECT_EQ(Text(&MrcResultsWriter::WriteSummaryJson, r), SUMMARY_JSON);
    info.mpiRanks = 2;
    info.mpiSync = "granted";
    info.syncRounds = 79;
    info.syncRoundsInFlight = 38;
    info.nullMessages = 0;
    info.framesBetweenRanks = 1293;
    const std::string js = Text(&MrcResultsWriter::WriteSummaryJson, r);
    const std::string host = "\"host\": {\"wallClockSeconds\": 1.250, \"peakRssKb\": 2048, "
                             "\"mpi\": {\"ranks\": 2, \"sync\": \"granted\", \"syncRounds\": 79, "
                             "\"syncRoundsInFlight\": 38, \"nullMessages\": 0, "
                             "\"framesBetweenRanks\": 1293}}\n";
    EXPECT_NE(js.find(host), std::string::npos) << js.substr(0, 600);
    // only the host object differs from the one-process file
    std::string back = js;
    back.replace(back.find(host),
                 host.size(),
                 "\"host\": {\"wallClockSeconds\": 1.250, \"peakRssKb\": 2048}\n");
    EXPECT_EQ(back, SUMMARY_JSON);
}

TEST(MrcResultsFiles, JsonParsesBackWithPython)
{
    MrcRunResults r = Sample();
    r.GetInfo().options["weird"] = "quote\" backslash\\ tab\t";
    MrcRunResults empty;
    empty.AddTransport("uec");
    const fs::path dir = fs::path(MrcTest::TempDir("mrc-results"));
    int i = 0;
    for (const MrcRunResults* res : {&r, &empty})
    {
        const fs::path out = dir / std::to_string(i++);
        MrcResultsWriter::WriteAll(*res, out.string());
        const std::string cmd =
            "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); "
            "assert d[\"schema\"]==2; assert \"run\" in d and \"transports\" in d' " +
            (out / "summary.json").string();
        EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    }
    const std::string check =
        "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); "
        "assert d[\"run\"][\"options\"][\"weird\"]==\"quote\\\" backslash\\\\ tab\\t\"; "
        "assert d[\"transports\"][\"roce\"][\"fctNs\"][\"p99\"]==9000' " +
        (dir / "0" / "summary.json").string();
    EXPECT_EQ(std::system(check.c_str()), 0) << check;
    fs::remove_all(dir);
}

TEST(MrcResultsFiles, Deterministic)
{
    // Same records, different wall clock: all files equal except the host line.
    const fs::path dir = fs::path(MrcTest::TempDir("mrc-results"));
    MrcResultsWriter::WriteAll(Sample(1.0), (dir / "a").string());
    MrcResultsWriter::WriteAll(Sample(99.5), (dir / "b").string());
    for (const char* f : {"flows.csv",
                          "timeseries.csv",
                          "links.csv",
                          "roce/fct.txt",
                          "roce/pfc.txt",
                          "mrc/fct.txt",
                          "mrc/pfc.txt"})
    {
        EXPECT_FALSE(ReadFile(dir / "a" / f).empty()) << f;
        EXPECT_EQ(ReadFile(dir / "a" / f), ReadFile(dir / "b" / f)) << f;
    }
    std::string a = ReadFile(dir / "a" / "summary.json");
    std::string b = ReadFile(dir / "b" / "summary.json");
    EXPECT_NE(a, b);
    const std::string hostA = "\"wallClockSeconds\": 1.000";
    const std::string hostB = "\"wallClockSeconds\": 99.500";
    ASSERT_NE(a.find(hostA), std::string::npos);
    ASSERT_NE(b.find(hostB), std::string::npos);
    a.replace(a.find(hostA), hostA.size(), hostB);
    EXPECT_EQ(a, b);
    // Insertion order of equal-time samples is kept; flows are sorted by id.
    MrcRunResults shuffled;
    shuffled.AddTransport("roce");
    for (uint64_t id : {5, 3, 4})
    {
        shuffled.AddFlow(Flow("roce", id, 0, 1, 1, 10, 0, 10));
    }
    EXPECT_EQ(Text(&MrcResultsWriter::WriteFlowsCsv, shuffled),
              "transport,flow_id,src,dst,bytes,start_ns,end_ns,fct_ns,ideal_fct_ns,slowdown\n"
              "roce,3,0,1,10,0,,,10,\n"
              "roce,4,0,1,10,0,,,10,\n"
              "roce,5,0,1,10,0,,,10,\n");
    fs::remove_all(dir);
}

TEST(MrcResultsFiles, SummaryTable)
{
    std::ostringstream os;
    MrcResultsWriter::PrintTable(Sample(), os);
    const std::string expected =
        "transport      done/msgs   goodput    fct p50    fct p99    fct max   sd p50   sd p99 "
        "     retx  timeouts     drops       ecn      cnps       pfc\n"
        "                              Gb/s         us         us         us\n"
        "roce                 2/3      3.11        4.0        9.0        9.0     2.00     3.00 "
        "        5         1         3         7         4         6\n"
        "mrc                  1/1     10.92        3.0        3.0        3.0     1.50     1.50 "
        "        0         0         0         0         0         0\n";
    EXPECT_EQ(os.str(), expected);
}

namespace
{

/// A little event cascade with equal-time ties; records the order events ran in.
struct Cascade
{
    std::vector<std::pair<int64_t, int>> log;

    void Fire(int id, int depth)
    {
        log.emplace_back(Simulator::Now().GetNanoSeconds(), id);
        if (depth > 0)
        {
            // two children at the same time, one later: ties resolved by insertion
            Simulator::Schedule(NanoSeconds(700), &Cascade::Fire, this, id * 3 + 1, depth - 1);
            Simulator::Schedule(NanoSeconds(700), &Cascade::Fire, this, id * 3 + 2, depth - 1);
            Simulator::Schedule(NanoSeconds(1300), &Cascade::Fire, this, id * 3 + 3, depth - 1);
        }
    }
};

/// Run the cascade; returns (log, event count excluding the reporter's, checks).
std::tuple<std::vector<std::pair<int64_t, int>>, uint64_t, uint64_t>
RunCascade(bool withReporter, std::ostream* os)
{
    Cascade c;
    Simulator::Schedule(NanoSeconds(0), &Cascade::Fire, &c, 0, 7);
    const Time stop = MicroSeconds(20);
    Simulator::Stop(stop);
    Ptr<MrcProgressReporter> rep = CreateObject<MrcProgressReporter>();
    rep->SetAttribute("MinWallInterval", TimeValue(Seconds(0))); // a line at every check
    rep->SetAttribute("FirstInterval", TimeValue(NanoSeconds(100)));
    if (withReporter)
    {
        rep->Start(stop, os);
    }
    Simulator::Run();
    rep->Stop();
    const uint64_t events = Simulator::GetEventCount() - rep->GetChecks();
    const uint64_t checks = rep->GetChecks();
    EXPECT_EQ(rep->GetLines(), checks);
    Simulator::Destroy();
    return {c.log, events, checks};
}

} // namespace

TEST(MrcProgressReporter, DoesNotChangeTheSimulation)
{
    std::ostringstream lines;
    const auto [logA, eventsA, checksA] = RunCascade(false, nullptr);
    const auto [logB, eventsB, checksB] = RunCascade(true, &lines);
    EXPECT_EQ(checksA, 0U);
    EXPECT_GT(checksB, 0U);
    EXPECT_EQ(logA, logB);
    EXPECT_EQ(eventsA, eventsB);
    EXPECT_EQ(logA.size(), (std::size_t{1} << 0) + 3 + 9 + 27 + 81 + 243 + 729 + 2187);
    // No message counters: simulated time, wall time and the stop-time bound.
    EXPECT_EQ(lines.str().rfind("progress: simulated ", 0), 0U) << lines.str();
    EXPECT_NE(lines.str().find(" ms, wall "), std::string::npos);
    EXPECT_NE(lines.str().find(" s, ETA <= "), std::string::npos) << lines.str();
}

TEST(MrcProgressReporter, EstimateRemainingOnHandComputedInputs)
{
    bool bound = false;
    // 8 of 32 messages in 2 s: 24 more at 4 per second = 6 s; the stop-time bound
    // (1 ms reached of 1000 ms in 2 s: 1998 s) is larger.
    EXPECT_DOUBLE_EQ(
        MrcProgressReporter::EstimateRemaining(8, 32, 1000000, 1000000000, 2.0, &bound),
        6.0);
    EXPECT_FALSE(bound);
    // The stop time is closer than the messages' estimate: 0.75 ms of 1 ms in 3 s = 1 s left.
    EXPECT_DOUBLE_EQ(MrcProgressReporter::EstimateRemaining(1, 10, 750000, 1000000, 3.0, &bound),
                     1.0);
    EXPECT_FALSE(bound);
    // No message done yet: only the stop-time bound, 0.5 ms of 2 ms in 1 s = 3 s.
    EXPECT_DOUBLE_EQ(MrcProgressReporter::EstimateRemaining(0, 10, 500000, 2000000, 1.0, &bound),
                     3.0);
    EXPECT_TRUE(bound);
    // All done: nothing left.
    EXPECT_DOUBLE_EQ(MrcProgressReporter::EstimateRemaining(10, 10, 500000, 2000000, 1.0, &bound),
                     0.0);
    EXPECT_FALSE(bound);
    // Nothing known at time 0 without messages.
    EXPECT_DOUBLE_EQ(MrcProgressReporter::EstimateRemaining(0, 0, 0, 2000000, 1.0, &bound), -1.0);
    EXPECT_FALSE(bound);
}

TEST(MrcProgressReporter, FormatLine)
{
    EXPECT_EQ(MrcProgressReporter::FormatLine(8, 32, 1000000, 1000000000, 2.0),
              "progress: 8/32 messages, simulated 1.000000 ms, wall 2.0 s, ETA 6.0 s");
    EXPECT_EQ(MrcProgressReporter::FormatLine(0, 10, 500000, 2000000, 1.0),
              "progress: 0/10 messages, simulated 0.500000 ms, wall 1.0 s, ETA <= 3.0 s");
    EXPECT_EQ(MrcProgressReporter::FormatLine(0, 0, 0, 2000000, 0.5),
              "progress: simulated 0.000000 ms, wall 0.5 s, ETA unknown");
}

TEST(MrcProgressReporter, PrintsTheMessageCounters)
{
    std::ostringstream os;
    Ptr<MrcProgressReporter> rep = CreateObject<MrcProgressReporter>();
    rep->SetAttribute("MinWallInterval", TimeValue(Seconds(0)));
    rep->SetAttribute("FirstInterval", TimeValue(MicroSeconds(1)));
    uint64_t done = 3;
    rep->SetMessageCounters(Callback<uint64_t>([&done]() -> uint64_t { return done; }),
                            Callback<uint64_t>([]() -> uint64_t { return 7; }));
    rep->Start(MicroSeconds(5), &os);
    Simulator::Stop(MicroSeconds(5));
    Simulator::Run();
    rep->Stop();
    EXPECT_GT(rep->GetLines(), 0U);
    EXPECT_EQ(os.str().rfind("progress: 3/7 messages, simulated 0.001000 ms, wall ", 0), 0U)
        << os.str();
    Simulator::Destroy();
}

TEST(MrcProgressReporter, DisabledDoesNothing)
{
    Ptr<MrcProgressReporter> rep = CreateObject<MrcProgressReporter>();
    rep->SetAttribute("Enabled", BooleanValue(false));
    std::ostringstream os;
    rep->Start(MicroSeconds(5), &os);
    Simulator::Stop(MicroSeconds(5));
    Simulator::Run();
    EXPECT_EQ(rep->GetChecks(), 0U);
    EXPECT_EQ(os.str(), "");
    Simulator::Destroy();
}

TEST(MrcTimeSeriesSampler, LevelsAndRatesAtEveryInterval)
{
    MrcRunResults r;
    uint64_t txBytes = 0;
    double queue = 0;
    Simulator::Schedule(NanoSeconds(500), [&]() {
        txBytes += 1000;
        queue = 7;
    });
    Simulator::Schedule(NanoSeconds(1500), [&]() { txBytes += 2500; });
    Simulator::Schedule(NanoSeconds(2500), [&]() { queue = 3; });
    Ptr<MrcTimeSeriesSampler> sampler = CreateObject<MrcTimeSeriesSampler>();
    sampler->SetAttribute("Interval", TimeValue(MicroSeconds(1)));
    sampler->SetResults(&r);
    sampler->AddRate("roce", "h0", "tx_gbps", [&]() { return txBytes; });
    sampler->AddLevel("", "t0-0:1", "queue_bytes", [&]() { return queue; });
    sampler->Start(NanoSeconds(3500));
    Simulator::Stop(MicroSeconds(10));
    Simulator::Run();
    sampler->Dispose();
    Simulator::Destroy();
    // 1000 B in the first microsecond = 8 Gb/s, 2500 B in the second = 20 Gb/s.
    EXPECT_EQ(Text(&MrcResultsWriter::WriteTimeseriesCsv, r),
              "time_ns,transport,entity,metric,value\n"
              "1000,roce,h0,tx_gbps,8\n"
              "1000,,t0-0:1,queue_bytes,7\n"
              "2000,roce,h0,tx_gbps,20\n"
              "2000,,t0-0:1,queue_bytes,7\n"
              "3000,roce,h0,tx_gbps,0\n"
              "3000,,t0-0:1,queue_bytes,3\n");
}
