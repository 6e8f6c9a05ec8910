/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The benchmark programs compare like with like (issue 22): mrc-bench-uec runs the same
// flows from its own permutation or from the connection-matrix file it wrote (what the
// reference simulator reads), and mrc-bench-floor runs exactly the events it is asked to
// on every scheduler and its memory chains go through every line of their blocks, and the
// perm128 bench's RoCE runs beside MRC have MRC's fabric and packets. Small sizes: counts
// only, never times.

#include "mrc-test-support.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using ns3::MrcTest::ExampleBinary;
using ns3::MrcTest::RunCommand;

namespace
{

/// \return the integer value of "key" in the printed JSON (the first one)
long long
Value(const std::string& json, const std::string& key)
{
    std::smatch m;
    EXPECT_TRUE(std::regex_search(json, m, std::regex("\"" + key + "\": ([0-9]+)")))
        << key << " not in " << json;
    return m.empty() ? -1 : std::stoll(m[1].str());
}

/// \return a fresh scratch folder for \p name
fs::path
Scratch(const std::string& name)
{
    const fs::path d = fs::temp_directory_path() / ("mrc-bench-programs-" + name);
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

} // namespace

TEST(MrcBenchUec, FlowFileRunsTheIdenticalWorkload)
{
    const std::string bin = ExampleBinary("mrc-bench-uec");
    if (bin.empty())
    {
        GTEST_SKIP() << "mrc-bench-uec not built";
    }
    const fs::path d = Scratch("uec");
    const std::string cm = (d / "perm.cm").string();
    // k = 4: 16 hosts, 16 flows of 100,000 B
    auto [rc, out] = RunCommand(bin + " --k=4 --bytes=100000 --writeFlowFile=" + cm);
    ASSERT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("\"allCompleted\": true"), std::string::npos) << out;
    EXPECT_NE(out.find("\"scheduler\": \"ns3::MrcHeapScheduler\""), std::string::npos);

    // the file: htsim's header and one line per flow, each host sending once
    std::ifstream f(cm);
    std::string line;
    std::getline(f, line);
    EXPECT_EQ(line, "Nodes 16");
    std::getline(f, line);
    EXPECT_EQ(line, "Connections 16");
    int flows = 0;
    const std::regex flow("([0-9]+)->([0-9]+) id ([0-9]+) start 0 size 100000");
    std::vector<int> sends(16, 0);
    while (std::getline(f, line))
    {
        std::smatch m;
        ASSERT_TRUE(std::regex_match(line, m, flow)) << line;
        EXPECT_NE(m[1].str(), m[2].str());
        EXPECT_EQ(std::stoi(m[3].str()), ++flows);
        ++sends.at(std::stoi(m[1].str()));
    }
    EXPECT_EQ(flows, 16);
    EXPECT_EQ(std::count(sends.begin(), sends.end(), 1), 16);

    // the same flows read back from the file: the same run, event for event
    auto [rc2, out2] = RunCommand(bin + " --k=4 --flowFile=" + cm);
    ASSERT_EQ(rc2, 0) << out2;
    for (const char* key : {"messages",
                            "eventsExecuted",
                            "packetHops",
                            "simulatedNs",
                            "fctP50Ns",
                            "fctMaxNs",
                            "trims",
                            "retransmissions"})
    {
        EXPECT_EQ(Value(out2, key), Value(out, key)) << key;
    }
    fs::remove_all(d);
}

TEST(MrcBenchUec, BadFlowFileAndSchedulerAreUsageErrors)
{
    const std::string bin = ExampleBinary("mrc-bench-uec");
    if (bin.empty())
    {
        GTEST_SKIP() << "mrc-bench-uec not built";
    }
    const fs::path d = Scratch("uec-bad");
    const std::string cm = (d / "four.cm").string();
    std::ofstream(cm) << "Nodes 4\nConnections 1\n0->1 id 1 start 0 size 1000\n";
    auto [rc, out] = RunCommand(bin + " --k=4 --flowFile=" + cm);
    EXPECT_EQ(rc, 2) << out;
    EXPECT_NE(out.find("has Nodes 4, the k = 4 fat-tree has 16 hosts"), std::string::npos) << out;
    auto [rc2, out2] = RunCommand(bin + " --k=4 --scheduler=ns3::Nope");
    EXPECT_EQ(rc2, 2) << out2;
    EXPECT_NE(out2.find("--scheduler='ns3::Nope'"), std::string::npos) << out2;
    fs::remove_all(d);
}

/// \return the text of a file
std::string
Slurp(const fs::path& p)
{
    std::ifstream f(p);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

/// \return the lines of a file
std::vector<std::string>
LinesOf(const fs::path& p)
{
    std::ifstream f(p);
    std::vector<std::string> lines;
    std::string line;
    while (std::getline(f, line))
    {
        lines.push_back(line);
    }
    return lines;
}

TEST(MrcBenchPerm128, LikeWithLikeRoceRunsOnMrcsFabricWithMrcsPackets)
{
    // ./ns3-mrc bench compares MRC with RoCE's default profile on MRC's own fabric and
    // packets (perm128-roce --profile=roce-deployed [--planes=4]): the same hosts, planes,
    // links and MTU as perm128-mrc [--planes=1], every message exactly once, and the load
    // figure (packet hops per simulated us) from the JSON the bench reads; and RoCE on
    // switches with adaptive routing (--profile=roce-ar), which loads every link direction
    // as MRC does. 100,000 B a flow.
    const std::string bin = ExampleBinary("mrc-sim");
    if (bin.empty())
    {
        GTEST_SKIP() << "mrc-sim not built";
    }
    const fs::path d = Scratch("perm128");

    struct Case
    {
        std::string name; //!< folder
        std::string args; //!< mrc-sim arguments
    };

    const std::vector<Case> cases{
        {"mrc", "perm128-mrc"},
        {"roce4k4", "perm128-roce --profile=roce-deployed --planes=4"},
        {"mrc1", "perm128-mrc --planes=1"},
        {"roce4k", "perm128-roce --profile=roce-deployed"},
        {"rocear", "perm128-roce --profile=roce-ar --planes=4 --qpsPerPair=4"}};
    std::vector<std::string> summaries;
    std::vector<std::vector<std::string>> links;
    for (const Case& c : cases)
    {
        const fs::path out = d / c.name;
        auto [rc, text] = RunCommand(bin + " " + c.args + " --bytes=100000 --out=" + out.string() +
                                     " --benchJson=" + (d / (c.name + ".json")).string() +
                                     " --ns3::MrcProgressReporter::Enabled=false");
        ASSERT_EQ(rc, 0) << c.args << "\n" << text;
        const std::string bench = Slurp(d / (c.name + ".json"));
        EXPECT_NE(bench.find("\"allCompleted\": true"), std::string::npos) << c.args << bench;
        EXPECT_GT(Value(bench, "packetHops"), 0) << c.args;
        EXPECT_GT(Value(bench, "simulatedNs"), 0) << c.args;
        summaries.push_back(Slurp(out / "summary.json"));
        links.push_back(LinesOf(out / "links.csv"));
        // every byte of every message delivered exactly once
        const std::string& s = summaries.back();
        EXPECT_EQ(Value(s, "bytesExactlyOnce"), 128LL * 100000) << c.args;
    }
    // the link directions that carried frames (links.csv: the packets column)
    auto used = [](const std::vector<std::string>& rows) {
        std::size_t n = 0;
        for (std::size_t i = 1; i < rows.size(); ++i)
        {
            std::stringstream ss(rows[i]);
            std::string field;
            for (int k = 0; k < 7 && std::getline(ss, field, ','); ++k)
            {
            }
            n += field != "0" ? 1 : 0;
        }
        return n;
    };
    auto option = [](const std::string& summary, const std::string& key) {
        std::smatch m;
        EXPECT_TRUE(std::regex_search(summary, m, std::regex("\"" + key + "\": \"([^\"]*)\"")))
            << key;
        return m.empty() ? std::string() : m[1].str();
    };
    for (size_t pair = 0; pair < 2; ++pair)
    {
        const std::string& mrc = summaries[2 * pair];
        const std::string& roce = summaries[2 * pair + 1];
        EXPECT_EQ(option(roce, "profile"), "roce-deployed");
        for (const char* key : {"hosts", "hostsPerT0", "t1PerPlane", "planes", "mtu", "bytes"})
        {
            EXPECT_EQ(option(roce, key), option(mrc, key))
                << key << " of " << cases[2 * pair + 1].args;
        }
        EXPECT_EQ(option(roce, "mtu"), "4096");
        EXPECT_EQ(option(roce, "planes"), pair == 0 ? "4" : "1");
        // the same link directions, named alike (the transport column apart)
        ASSERT_EQ(links[2 * pair].size(), links[2 * pair + 1].size());
        EXPECT_EQ(links[2 * pair].size(), pair == 0 ? 1537u : 385u); // header + directions
        for (size_t i = 1; i < links[2 * pair].size(); ++i)
        {
            auto where = [](const std::string& row) {
                std::stringstream ss(row);
                std::string field;
                std::string out;
                for (int k = 0; k < 6 && std::getline(ss, field, ','); ++k)
                {
                    out += k == 0 ? "" : field + ","; // from, from_port, to, to_port, rate
                }
                return out;
            };
            EXPECT_EQ(where(links[2 * pair][i]), where(links[2 * pair + 1][i])) << i;
        }
    }
    // RoCE on switches with adaptive routing, one QP a pair on each plane (lanes take the
    // planes in turn): MRC's fabric, and like MRC's sprayed frames its frames cross every
    // link direction, where hashed ECMP leaves some idle.
    const std::string& ar = summaries[4];
    EXPECT_EQ(option(ar, "profile"), "roce-ar");
    EXPECT_EQ(option(ar, "qpsPerPair"), "4");
    EXPECT_NE(ar.find("\"ns3::MrcDualForwarding::EcmpForwarding\": \"ns3::MrcAdaptiveForwarding\""),
              std::string::npos);
    for (const char* key : {"hosts", "hostsPerT0", "t1PerPlane", "planes", "mtu", "bytes"})
    {
        EXPECT_EQ(option(ar, key), option(summaries[0], key)) << key;
    }
    ASSERT_EQ(links[4].size(), links[0].size());
    EXPECT_EQ(used(links[0]), 1536u);
    EXPECT_EQ(used(links[4]), 1536u);
    EXPECT_LT(used(links[1]), 1536u); // roce-deployed, hashed ECMP
    fs::remove_all(d);
}

TEST(MrcBenchFloor, EverySchedulerRunsExactlyTheEventsAskedFor)
{
    const std::string bin = ExampleBinary("mrc-bench-floor");
    if (bin.empty())
    {
        GTEST_SKIP() << "mrc-bench-floor not built";
    }
    auto [rc, out] = RunCommand(bin + " --pending=100 --events=20000 --memorySizes=none");
    ASSERT_EQ(rc, 0) << out;
    for (const char* s : {"ns3::MrcHeapScheduler",
                          "ns3::PriorityQueueScheduler",
                          "ns3::MapScheduler",
                          "ns3::HeapScheduler",
                          "ns3::CalendarScheduler"})
    {
        std::smatch m;
        ASSERT_TRUE(std::regex_search(
            out,
            m,
            std::regex(std::string("\"") + s + "\": \\{\"eventsExecuted\": ([0-9]+)")))
            << s << " in " << out;
        EXPECT_EQ(m[1].str(), "20000") << s;
    }
    auto [rc2, out2] = RunCommand(bin + " --schedulers=ns3::MrcNetDevice");
    EXPECT_EQ(rc2, 2) << out2;
    EXPECT_NE(out2.find("'ns3::MrcNetDevice' is not an ns-3 scheduler"), std::string::npos);
    auto [rc3, out3] = RunCommand(bin + " --pending=10 --events=5");
    EXPECT_EQ(rc3, 2) << out3;
    // on mrc-sim's core by default, on ns-3's when asked: the same events run
    EXPECT_NE(out.find("\"core\": \"ns3::MrcSimulatorImpl\""), std::string::npos) << out;
    auto [rc4, out4] =
        RunCommand(bin + " --pending=100 --events=20000 --schedulers=ns3::MrcHeapScheduler "
                         "--core=ns3::DefaultSimulatorImpl");
    ASSERT_EQ(rc4, 0) << out4;
    EXPECT_NE(out4.find("\"ns3::MrcHeapScheduler\": {\"eventsExecuted\": 20000"), std::string::npos)
        << out4;
    auto [rc5, out5] = RunCommand(bin + " --core=ns3::MapScheduler");
    EXPECT_EQ(rc5, 2) << out5;
    EXPECT_NE(out5.find("'ns3::MapScheduler' is not a simulator core"), std::string::npos) << out5;
}

TEST(MrcBenchFloor, EveryMemoryChainGoesThroughEveryLineOfItsBlock)
{
    const std::string bin = ExampleBinary("mrc-bench-floor");
    if (bin.empty())
    {
        GTEST_SKIP() << "mrc-bench-floor not built";
    }
    // one cycle through all 16,384 and 32,768 lines of 1 and 2 MiB: a chain that came back
    // early would leave the other lines unread and measure a block smaller than asked for
    auto [rc, out] = RunCommand(bin + " --schedulers=none --memorySizes=1,2 --memoryLoads=1000");
    ASSERT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("\"schedulers\": {}"), std::string::npos) << out;
    EXPECT_NE(out.find("\"memoryLoads\": 1000"), std::string::npos) << out;
    EXPECT_NE(out.find("\"1\": {\"lines\": 16384, \"cycleLines\": 16384, \"cpuNsPerLoad\": "),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("\"2\": {\"lines\": 32768, \"cycleLines\": 32768, \"cpuNsPerLoad\": "),
              std::string::npos)
        << out;
    for (const char* bad : {"0", "1x", "65537", ",", "1,,2", "1,"})
    {
        auto [rcBad, outBad] =
            RunCommand(bin + " --schedulers=none --memorySizes=" + std::string(bad));
        EXPECT_EQ(rcBad, 2) << bad << ": " << outBad;
        EXPECT_NE(outBad.find("--memorySizes"), std::string::npos) << outBad;
    }
    auto [rc2, out2] = RunCommand(bin + " --schedulers=none --memorySizes=none");
    EXPECT_EQ(rc2, 2) << out2;
    EXPECT_NE(out2.find("nothing to measure"), std::string::npos) << out2;
    auto [rc3, out3] = RunCommand(bin + " --schedulers=none --memorySizes=1 --memoryLoads=999");
    EXPECT_EQ(rc3, 2) << out3;
    EXPECT_NE(out3.find("--memoryLoads='999'"), std::string::npos) << out3;
}
