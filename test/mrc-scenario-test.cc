/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The scenario runner (mrc-sim): incast and permutation on a 16-host Clos write every
// output file with the right header lines and row counts, deliver every byte exactly
// once without drops under PFC, give byte-identical files for identical seeds; a bad
// option value exits with code 2 naming it; two DCQCN flows into one bottleneck
// converge to their fair share with the queue held near the ECN thresholds.

#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/mrc-ecn-marker.h"
#include "ns3/mrc-scenario.h"
#include "ns3/names.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const char* const FILES[] = {"summary.json",
                             "flows.csv",
                             "timeseries.csv",
                             "links.csv",
                             "events.csv",
                             "fct.txt",
                             "pfc.txt"};

/// A fresh temporary folder.
std::string
TempDir()
{
    std::string t = (std::filesystem::temp_directory_path() / "mrc-scenario-XXXXXX").string();
    char* d = mkdtemp(t.data());
    EXPECT_NE(d, nullptr);
    return t;
}

std::string
ReadFile(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

std::vector<std::string>
Lines(const std::string& text)
{
    std::vector<std::string> out;
    std::stringstream ss(text);
    std::string l;
    while (std::getline(ss, l))
    {
        out.push_back(l);
    }
    return out;
}

/// Settings of a small scenario (16-host Clos, 4 hosts per T0, 4 T1) from the options.
MrcScenarioConfig
Small(const std::string& scenario, const std::string& bytes, const std::string& senders = "8")
{
    MrcScenarioOptions o;
    o.scenario = scenario;
    MrcScenarios::Find(scenario)->preset(o);
    o.bytes = bytes;
    o.senders = senders;
    o.sampleInterval = "5us";
    MrcScenarioConfig c = o.ToConfig();
    c.progress = false;
    return c;
}

/// Run and write into a fresh folder; returns the folder.
std::string
RunAndWrite(const MrcScenarioConfig& c, MrcScenarioRunner& r)
{
    r.Run();
    const std::string dir = TempDir();
    r.Write(dir);
    return dir;
}

void
Cleanup(const std::string& dir)
{
    std::filesystem::remove_all(dir);
    Simulator::Destroy();
    Names::Clear();
    Config::Reset();
}

/// Check the common invariants of a finished reliable run without failures.
void
CheckLossless(const MrcScenarioRunner& r, uint64_t totalBytes)
{
    const std::vector<MrcTransportSummary> s = r.GetResults().Summarize();
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s[0].transport, "roce");
    EXPECT_EQ(s[0].completed, s[0].messages);
    EXPECT_EQ(s[0].completedBytes, totalBytes);
    EXPECT_EQ(s[0].counters.bytesExactlyOnce, totalBytes);
    EXPECT_EQ(s[0].counters.drops, 0u);
    EXPECT_EQ(s[0].counters.timeouts, 0u);
}

} // namespace

TEST(MrcScenario, IncastWritesEveryFileLosslessly)
{
    MrcScenarioConfig c = Small("incast", "200000", "8");
    MrcScenarioRunner r(c);
    const std::string dir = RunAndWrite(c, r);
    for (const char* f : FILES)
    {
        EXPECT_TRUE(std::filesystem::exists(dir + "/" + f)) << f;
    }
    CheckLossless(r, 8 * 200000);
    // Every message goes to the last host, from 8 distinct senders.
    ASSERT_EQ(r.GetMessages().size(), 8u);
    for (const auto& m : r.GetMessages())
    {
        EXPECT_EQ(m.dst, 15u);
        EXPECT_LT(m.src, 15u);
    }
    const auto flows = Lines(ReadFile(dir + "/flows.csv"));
    ASSERT_EQ(flows.size(), 9u);
    EXPECT_EQ(flows[0],
              "transport,flow_id,src,dst,bytes,start_ns,end_ns,fct_ns,ideal_fct_ns,slowdown");
    EXPECT_EQ(flows[1].rfind("roce,0,", 0), 0u) << flows[1];
    EXPECT_EQ(Lines(ReadFile(dir + "/fct.txt")).size(), 8u);
    const auto links = Lines(ReadFile(dir + "/links.csv"));
    // 16 host links + 4 T0 x 4 T1 links, two directions each, plus the header.
    EXPECT_EQ(links.size(), 1u + 2 * (16 + 16));
    const auto ts = Lines(ReadFile(dir + "/timeseries.csv"));
    ASSERT_GT(ts.size(), 1u);
    EXPECT_EQ(ts[0], "time_ns,transport,entity,metric,value");
    const auto ev = Lines(ReadFile(dir + "/events.csv"));
    ASSERT_EQ(ev.size(), 1u); // no failure, no QP error
    EXPECT_EQ(ev[0], "time_ns,kind,where,detail");
    // 8:1 into 100 Gb/s with 1.6 MB in flight: the receiver's T0 port queues.
    const std::string summary = ReadFile(dir + "/summary.json");
    EXPECT_NE(summary.find("\"schema\": 1"), std::string::npos);
    EXPECT_NE(summary.find("\"scenario\": \"incast\""), std::string::npos);
    EXPECT_NE(summary.find("\"profile\": \"roce-hpcc\""), std::string::npos);
    Cleanup(dir);
}

TEST(MrcScenario, PermutationRowCountsAndExactlyOnce)
{
    MrcScenarioConfig c = Small("permutation", "100000");
    c.qpsPerPair = 2;
    MrcScenarioRunner r(c);
    const std::string dir = RunAndWrite(c, r);
    CheckLossless(r, 16 * 100000);
    // A permutation: every host sends once and receives once, never to itself.
    std::vector<int> rx(16, 0);
    ASSERT_EQ(r.GetMessages().size(), 32u); // 2 QPs per pair, 50 kB each
    for (const auto& m : r.GetMessages())
    {
        EXPECT_NE(m.src, m.dst);
        EXPECT_EQ(m.bytes, 50000u);
        ++rx[m.dst];
    }
    for (int n : rx)
    {
        EXPECT_EQ(n, 2);
    }
    EXPECT_EQ(Lines(ReadFile(dir + "/flows.csv")).size(), 33u);
    EXPECT_EQ(Lines(ReadFile(dir + "/fct.txt")).size(), 32u);
    Cleanup(dir);
}

TEST(MrcScenario, SameSeedGivesIdenticalFiles)
{
    std::vector<std::string> dirs;
    for (int run = 0; run < 2; ++run)
    {
        MrcScenarioConfig c = Small("incast", "150000", "6");
        c.seed = 7;
        // A small switch buffer, so that PFC acts and pfc.txt has lines to compare.
        c.attributeOverrides.emplace_back("ns3::MrcSharedBufferMmu::BufferSize", "1500000");
        MrcScenarioRunner r(c);
        dirs.push_back(RunAndWrite(c, r));
        Simulator::Destroy();
        Names::Clear();
        Config::Reset();
    }
    for (const char* f : FILES)
    {
        std::string a = ReadFile(dirs[0] + "/" + f);
        std::string b = ReadFile(dirs[1] + "/" + f);
        if (std::string(f) == "summary.json")
        {
            // Only the host object (wall clock, peak RSS) may differ.
            auto strip = [](const std::string& s) {
                std::string out;
                for (const auto& l : Lines(s))
                {
                    if (l.find("\"host\":") == std::string::npos)
                    {
                        out += l + "\n";
                    }
                }
                return out;
            };
            a = strip(a);
            b = strip(b);
        }
        EXPECT_FALSE(a.empty()) << f;
        EXPECT_TRUE(a == b) << f << " differs between identical runs";
    }
    EXPECT_GT(Lines(ReadFile(dirs[0] + "/pfc.txt")).size(), 4u);
    for (const auto& d : dirs)
    {
        std::filesystem::remove_all(d);
    }
}

namespace
{

/// Run mrc-sim's main with the given arguments (in a death-test child).
void
Main(std::vector<std::string> args)
{
    std::vector<char*> argv;
    for (auto& a : args)
    {
        argv.push_back(a.data());
    }
    std::exit(MrcSimMain(static_cast<int>(argv.size()), argv.data()));
}

} // namespace

TEST(MrcScenarioDeathTest, BadOptionValuesExitWith2NamingThem)
{
    EXPECT_EXIT(Main({"mrc-sim", "incast", "--senders=abc"}),
                ::testing::ExitedWithCode(2),
                "--senders='abc'");
    EXPECT_EXIT(Main({"mrc-sim", "incast", "--senders=16"}),
                ::testing::ExitedWithCode(2),
                "--senders='16' must be an integer 1..15");
    EXPECT_EXIT(Main({"mrc-sim", "--transport=uec"}),
                ::testing::ExitedWithCode(2),
                "uec.*transport.*roce");
    EXPECT_EXIT(Main({"mrc-sim", "--transports=roce,mrc"}),
                ::testing::ExitedWithCode(2),
                "mrc.*transports.*roce");
    EXPECT_EXIT(Main({"mrc-sim", "nosuch"}), ::testing::ExitedWithCode(2), "nosuch.*permutation");
    EXPECT_EXIT(Main({"mrc-sim", "--simTime=10"}), ::testing::ExitedWithCode(2), "--simTime='10'");
    EXPECT_EXIT(Main({"mrc-sim", "--hostRate=fast"}), ::testing::ExitedWithCode(2), "hostRate");
    EXPECT_EXIT(Main({"mrc-sim", "--bogus=1"}), ::testing::ExitedWithCode(2), "bogus");
}

TEST(MrcScenario, TwoDcqcnFlowsShareOneBottleneckFairly)
{
    // Two 10 MB Writes into host 15 (16-host Clos, 100 Gb/s everywhere, roce-hpcc:
    // Kmin/Kmax 400/1600 KB at 100 Gb/s). Time series every 10 us.
    MrcScenarioConfig c = Small("incast", "10000000", "2");
    c.sampleInterval = MicroSeconds(10);
    MrcScenarioRunner r(c);
    r.Run();
    CheckLossless(r, 2 * 10000000);
    const MrcRunResults& res = r.GetResults();
    int64_t firstEnd = INT64_MAX;
    for (const auto& f : res.GetFlows())
    {
        firstEnd = std::min(firstEnd, f.endNs);
    }
    // Bytes each flow sent per 10 us sample, and the largest switch queue per sample.
    std::map<int64_t, std::array<double, 2>> tx;
    std::map<int64_t, double> queue;
    const auto& series = res.GetSeries();
    for (const auto& s : res.GetSamples())
    {
        const auto& se = series[s.series];
        if (se.metric == "tx_gbps" && (se.entity == "flow0" || se.entity == "flow1"))
        {
            tx[s.timeNs][se.entity == "flow0" ? 0 : 1] = s.value * 10e3 / 8; // Gb/s x 10 us
        }
        if (se.metric == "queue_bytes")
        {
            queue[s.timeNs] = std::max(queue[s.timeNs], s.value);
        }
    }
    // Convergence: the first rate cut (both flows start at line rate) is over by 400 us.
    // From then on, the bytes each flow has sent since 400 us stay within 10% of the
    // fair share (half of what both sent), checked every 100 us until the first flow ends.
    const int64_t converged = 400000;
    std::array<double, 2> sum{0, 0};
    uint32_t checks = 0;
    for (const auto& [t, b] : tx)
    {
        if (t <= converged || t > firstEnd)
        {
            continue;
        }
        sum[0] += b[0];
        sum[1] += b[1];
        if ((t - converged) % 100000 == 0 && t - converged >= 200000)
        {
            const double fair = (sum[0] + sum[1]) / 2;
            EXPECT_NEAR(sum[0], fair, 0.10 * fair) << "at " << t << " ns";
            EXPECT_NEAR(sum[1], fair, 0.10 * fair) << "at " << t << " ns";
            ++checks;
        }
    }
    EXPECT_GE(checks, 10u); // the flows overlap for at least 1.2 ms after convergence
    // Together they keep the bottleneck busy at least half the time after convergence.
    const double seconds = (firstEnd - converged) * 1e-9;
    EXPECT_GT((sum[0] + sum[1]) * 8 / seconds, 0.5 * 100e9);
    // The bottleneck queue crosses Kmin (marks start there) and stays below Kmax
    // (where every packet would be marked).
    uint64_t kmin = 0;
    uint64_t kmax = 0;
    MrcEcnMarker::HpccThresholds(DataRate("100Gbps"), kmin, kmax);
    double peak = 0;
    for (const auto& [t, q] : queue)
    {
        if (t > converged && t <= firstEnd)
        {
            peak = std::max(peak, q);
        }
    }
    EXPECT_GT(peak, kmin);
    EXPECT_LT(peak, kmax);
    Simulator::Destroy();
    Names::Clear();
    Config::Reset();
}

TEST(MrcScenario, PcapWritesOneFilePerPort)
{
    MrcScenarioConfig c = Small("incast", "5000", "1");
    const std::string dir = TempDir();
    c.pcap = true;
    c.pcapDir = dir;
    uint32_t sender = 0;
    {
        MrcScenarioRunner r(c);
        r.Run();
        sender = r.GetMessages()[0].src;
    }
    Simulator::Destroy(); // with the runner gone, the last references close the files
    uint32_t files = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir))
    {
        files += e.path().extension() == ".pcap" ? 1 : 0;
    }
    EXPECT_EQ(files, 2u * (16 + 16)); // both ends of every link
    // The sender's port saw 5 data packets and sent them: 24-byte file header plus
    // at least 5 x (16-byte record header + 1078-byte frame).
    EXPECT_GT(std::filesystem::file_size(dir + "/mrc-host" + std::to_string(sender) + "-0.pcap"),
              24u + 5 * (16 + 1078));
    std::filesystem::remove_all(dir);
    Names::Clear();
    Config::Reset();
}

TEST(MrcScenario, CutHostLinkEndsInQpErrorEvent)
{
    // One sender whose host link is cut at 2 us for good: the RoCE requester retries
    // RetryCount (7) times and enters the error state; events.csv records both.
    MrcScenarioConfig c = Small("incast", "100000", "1");
    const uint32_t s = MrcScenarioRunner::MakeMessages(c, 16)[0].src;
    c.failLink = "host" + std::to_string(s) + ":p0-t0-" + std::to_string(s / 4);
    c.failAt = MicroSeconds(2);
    MrcScenarioRunner r(c);
    const std::string dir = RunAndWrite(c, r);
    const auto ev = Lines(ReadFile(dir + "/events.csv"));
    ASSERT_EQ(ev.size(), 3u);
    EXPECT_EQ(ev[1].rfind("2000,link_down,", 0), 0u) << ev[1];
    EXPECT_NE(ev[2].find(",qp_error,host" + std::to_string(s) + ":qp256,\"retry-exceeded: "),
              std::string::npos)
        << ev[2];
    const std::vector<MrcTransportSummary> sum = r.GetResults().Summarize();
    EXPECT_EQ(sum[0].messages, 1u);
    EXPECT_EQ(sum[0].completed, 0u);
    EXPECT_EQ(sum[0].counters.timeouts, 8u); // RetryCount 7 retries + the final expiry
    const auto flows = Lines(ReadFile(dir + "/flows.csv"));
    ASSERT_EQ(flows.size(), 2u);
    EXPECT_NE(flows[1].find(",100000,0,,,"), std::string::npos) << flows[1]; // no end, no FCT
    Cleanup(dir);
}
