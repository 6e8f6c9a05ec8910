/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The output files of a run with two transports name their transport everywhere and
// never add up figures of the transports' separate runs (issue 21): mrc-sim runs roce
// and mrc one after the other on a small fabric, and the files are checked against
// each other.

#include "mrc-test-support.h"

#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <unistd.h>
#include <vector>

using namespace ns3;
using ns3::MrcTest::Lines;
using ns3::MrcTest::ReadFile;

namespace
{

/// The cells of a CSV line without quoted fields.
std::vector<std::string>
Cells(const std::string& line)
{
    std::vector<std::string> out;
    std::string cell;
    std::istringstream in(line);
    while (std::getline(in, cell, ','))
    {
        out.push_back(cell);
    }
    if (!line.empty() && line.back() == ',')
    {
        out.emplace_back();
    }
    return out;
}

/// A CSV file as rows of column name -> cell.
std::vector<std::map<std::string, std::string>>
Table(const std::string& path)
{
    const std::vector<std::string> lines = Lines(ReadFile(path));
    std::vector<std::map<std::string, std::string>> rows;
    if (lines.empty())
    {
        return rows;
    }
    const std::vector<std::string> head = Cells(lines[0]);
    for (std::size_t i = 1; i < lines.size(); ++i)
    {
        const std::vector<std::string> c = Cells(lines[i]);
        EXPECT_EQ(c.size(), head.size()) << path << ": " << lines[i];
        std::map<std::string, std::string> row;
        for (std::size_t k = 0; k < head.size() && k < c.size(); ++k)
        {
            row[head[k]] = c[k];
        }
        rows.push_back(row);
    }
    return rows;
}

/// One mrc-sim run with roce then mrc, shared by the tests (run once).
class TwoTransportRun : public ::testing::Test
{
  protected:
    static void SetUpTestSuite()
    {
        const std::string sim = MrcTest::ExampleBinary("mrc-sim");
        if (sim.empty())
        {
            return;
        }
        s_out =
            (std::filesystem::temp_directory_path() / ("mrc-outputs-" + std::to_string(getpid())))
                .string();
        std::filesystem::remove_all(s_out);
        std::tie(s_rc, s_text) = MrcTest::RunCommand(
            "cd " MRC_SOURCE_DIR " && " + sim +
            " compare --transports=roce,mrc --hosts=8 --bytes=200000 --sampleInterval=5us "
            "--ns3::MrcProgressReporter::Enabled=false --out=" +
            s_out);
    }

    static void TearDownTestSuite()
    {
        if (!s_out.empty())
        {
            std::filesystem::remove_all(s_out);
        }
    }

    void SetUp() override
    {
        if (s_out.empty())
        {
            GTEST_SKIP() << "mrc-sim not found";
        }
        ASSERT_EQ(s_rc, 0) << s_text;
    }

    static std::string s_out;  //!< the result folder
    static int s_rc;           //!< mrc-sim's exit code
    static std::string s_text; //!< its output
};

std::string TwoTransportRun::s_out;
int TwoTransportRun::s_rc = -1;
std::string TwoTransportRun::s_text;

} // namespace

TEST_F(TwoTransportRun, LinksAreOncePerTransportAndCarryTheirOwnFlows)
{
    const auto links = Table(s_out + "/links.csv");
    const auto flows = Table(s_out + "/flows.csv");
    ASSERT_FALSE(links.empty());
    std::set<std::tuple<std::string, std::string, std::string, std::string, std::string>> keys;
    std::map<std::string, uint64_t> hostTx;   // bytes hosts put on their links, per transport
    std::map<std::string, uint64_t> linksPer; // links per transport
    for (const auto& l : links)
    {
        const auto key = std::make_tuple(l.at("transport"),
                                         l.at("from"),
                                         l.at("from_port"),
                                         l.at("to"),
                                         l.at("to_port"));
        EXPECT_TRUE(keys.insert(key).second)
            << "duplicate link " << l.at("transport") << " " << l.at("from") << ":"
            << l.at("from_port") << " -> " << l.at("to");
        ++linksPer[l.at("transport")];
        if (l.at("from").rfind("host", 0) == 0)
        {
            hostTx[l.at("transport")] += std::stoull(l.at("bytes"));
        }
        const double u = std::stod(l.at("utilization"));
        EXPECT_GE(u, 0.0);
        EXPECT_LE(u, 1.0) << "a link busier than its line rate in its own run";
    }
    EXPECT_EQ(linksPer.size(), 2u);
    EXPECT_GT(linksPer["roce"], 0u);
    EXPECT_GT(linksPer["mrc"], 0u);
    std::map<std::string, uint64_t> payload;
    for (const auto& f : flows)
    {
        payload[f.at("transport")] += std::stoull(f.at("bytes"));
    }
    for (const char* t : {"roce", "mrc"})
    {
        // Each transport's hosts sent its own messages' payload plus headers and ACKs:
        // not less, and not the other transport's bytes on top.
        EXPECT_EQ(payload[t], 8u * 200000u) << t;
        EXPECT_GE(hostTx[t], payload[t]) << t;
        EXPECT_LE(hostTx[t], payload[t] * 3 / 2) << t;
    }
}

TEST_F(TwoTransportRun, SummaryIsPerTransportAndMatchesTheFlows)
{
    // Per transport: messages, completed and bytes equal the sums over its rows of
    // flows.csv; its own simulated time and events; no run-wide event sum.
    const std::string script = R"PY(
import csv, json, sys
out = sys.argv[1]
s = json.load(open(out + "/summary.json"))
assert s["schema"] == 2, s["schema"]
assert "eventsExecuted" not in s["run"], "a sum over separate runs"
flows = list(csv.DictReader(open(out + "/flows.csv")))
assert list(s["transports"]) == ["roce", "mrc"], list(s["transports"])
ends = []
for t, v in s["transports"].items():
    mine = [f for f in flows if f["transport"] == t]
    done = [f for f in mine if f["end_ns"]]
    assert v["messages"] == len(mine) == 8, (t, v["messages"], len(mine))
    assert v["completed"] == len(done), t
    assert v["bytes"] == sum(int(f["bytes"]) for f in mine), t
    assert v["completedBytes"] == sum(int(f["bytes"]) for f in done), t
    assert v["eventsExecuted"] > 0, t
    last = max(int(f["end_ns"]) for f in done)
    assert last <= v["simulatedTimeNs"], (t, last, v["simulatedTimeNs"])
    ends.append(v["simulatedTimeNs"])
assert s["run"]["simulatedTimeNs"] == max(ends), "the latest end, not a sum"
)PY";
    const std::string file = s_out + "/check.py";
    MrcTest::WriteFile(file, script);
    const auto [rc, text] = MrcTest::RunCommand("python3 " + file + " " + s_out);
    EXPECT_EQ(rc, 0) << text;
}

TEST_F(TwoTransportRun, HpccFilesAndEventsPerTransport)
{
    EXPECT_FALSE(std::filesystem::exists(s_out + "/fct.txt"));
    EXPECT_FALSE(std::filesystem::exists(s_out + "/pfc.txt"));
    const auto flows = Table(s_out + "/flows.csv");
    for (const char* t : {"roce", "mrc"})
    {
        std::size_t done = 0;
        for (const auto& f : flows)
        {
            done += f.at("transport") == t && !f.at("end_ns").empty() ? 1 : 0;
        }
        EXPECT_EQ(Lines(ReadFile(s_out + "/" + t + "/fct.txt")).size(), done) << t;
        EXPECT_TRUE(std::filesystem::exists(s_out + "/" + t + "/pfc.txt")) << t;
    }
    const auto ev = Lines(ReadFile(s_out + "/events.csv"));
    ASSERT_FALSE(ev.empty());
    EXPECT_EQ(ev[0], "transport,time_ns,kind,where,detail");
    for (std::size_t i = 1; i < ev.size(); ++i)
    {
        const std::string t = Cells(ev[i])[0];
        EXPECT_TRUE(t == "roce" || t == "mrc") << ev[i];
    }
    // timeseries.csv: every host series names its transport.
    for (const auto& row : Table(s_out + "/timeseries.csv"))
    {
        if (row.at("entity").rfind("host", 0) == 0)
        {
            EXPECT_TRUE(row.at("transport") == "roce" || row.at("transport") == "mrc")
                << row.at("entity");
        }
    }
    // The table on stdout: one row per transport.
    EXPECT_NE(s_text.find("\nroce "), std::string::npos) << s_text;
    EXPECT_NE(s_text.find("\nmrc "), std::string::npos) << s_text;
}
