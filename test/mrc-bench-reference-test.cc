/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Runs the stock ns-3 reference benchmark (examples/mrc-bench-reference) on a
// small topology and checks its counts: every data packet and ACK delivered,
// no drops, and exactly the packet hops the fixed paths imply.

#include "mrc-test-support.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <regex>
#include <string>
#include <sys/wait.h>

namespace fs = std::filesystem;
using ns3::MrcTest::ExampleBinary;
using ns3::MrcTest::RunCommand;

namespace
{

/// \return the integer value of "key" in the printed JSON
long long
Value(const std::string& json, const std::string& key)
{
    std::smatch m;
    EXPECT_TRUE(std::regex_search(json, m, std::regex("\"" + key + "\": ([0-9]+)")))
        << key << " not in " << json;
    return m.empty() ? -1 : std::stoll(m[1].str());
}

} // namespace

TEST(MrcBenchReference, SmallPermutationIsExact)
{
    const std::string bin = ExampleBinary("mrc-bench-reference");
    if (bin.empty())
    {
        GTEST_SKIP() << "mrc-bench-reference not built";
    }
    // 8 hosts under 2 T0s, 2 T1s, 10 packets per flow.
    auto [rc, out] = RunCommand(bin + " --hosts=8 --hostsPerT0=4 --t1PerPlane=2 --bytes=10000");
    ASSERT_EQ(rc, 0) << out;
    EXPECT_EQ(Value(out, "dataPacketsSent"), 80);
    EXPECT_EQ(Value(out, "dataPacketsDelivered"), 80);
    EXPECT_EQ(Value(out, "acksDelivered"), 80);
    EXPECT_EQ(Value(out, "drops"), 0);
    // Each flow: 10 data packets + 10 ACKs, 2 hops under one T0, 4 across:
    // 40 or 80 hops per flow, and the program computes the sum from the permutation.
    const long long hops = Value(out, "packetHops");
    EXPECT_EQ(hops, Value(out, "expectedPacketHops"));
    EXPECT_EQ(hops % 40, 0);
    EXPECT_GE(hops, 8 * 40);
    EXPECT_LE(hops, 8 * 80);
    EXPECT_GT(Value(out, "eventsExecuted"), 2 * hops); // transmit end + receive per hop
    // The same seed draws the same permutation.
    auto [rc2, out2] = RunCommand(bin + " --hosts=8 --hostsPerT0=4 --t1PerPlane=2 --bytes=10000");
    EXPECT_EQ(rc2, 0);
    EXPECT_EQ(Value(out2, "packetHops"), hops);
    EXPECT_EQ(Value(out2, "simulatedNs"), Value(out, "simulatedNs"));
}

TEST(MrcBenchReference, BadTopologyIsAUsageError)
{
    const std::string bin = ExampleBinary("mrc-bench-reference");
    if (bin.empty())
    {
        GTEST_SKIP() << "mrc-bench-reference not built";
    }
    auto [rc, out] = RunCommand(bin + " --hosts=10 --hostsPerT0=4");
    EXPECT_EQ(rc, 2) << out;
    EXPECT_NE(out.find("multiple of hostsPerT0"), std::string::npos) << out;
    auto [rc2, out2] = RunCommand(bin + " --noSuchOption=1");
    EXPECT_EQ(rc2, 2) << out2;
}
