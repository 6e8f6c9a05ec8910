/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Runs the example mrc-fabric-incast and checks its summary.json: conservation of
// packets, zero drops with PFC, drops = sent - received without it, determinism, and
// the exit code of bad options.

#include "mrc-test-support.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <regex>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace fs = std::filesystem;
using ns3::MrcTest::ExampleBinary;
using ns3::MrcTest::ReadFile;
using ns3::MrcTest::RunCommand;

namespace
{

/// \return the integer after "key": inside the object that follows "section":
uint64_t
Field(const std::string& json, const std::string& section, const std::string& key)
{
    std::smatch m;
    std::regex re("\"" + section + "\": \\{[^}]*\"" + key + "\": ([0-9]+)");
    EXPECT_TRUE(std::regex_search(json, m, re)) << section << "." << key << " not in " << json;
    return m.empty() ? 0 : std::stoull(m[1].str());
}

/// Fixture: a fresh output folder and the binary.
class FabricIncast : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        m_bin = ExampleBinary("mrc-fabric-incast");
        if (m_bin.empty())
        {
            GTEST_SKIP() << "mrc-fabric-incast not found (MRC_EXAMPLES_DIR unset and no "
                            "examples/ beside the test binary)";
        }
        m_dir =
            ns3::MrcTest::TempDir(std::string("mrc-incast-") +
                                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
        ASSERT_FALSE(m_dir.empty());
    }

    void TearDown() override
    {
        if (!m_dir.empty() && !HasFailure())
        {
            fs::remove_all(m_dir);
        }
    }

    /// Run the example with options into subfolder sub; \return summary.json's text
    std::string Summary(const std::string& options, const std::string& sub)
    {
        fs::path out = m_dir / sub;
        auto [rc, text] = RunCommand(m_bin + " " + options + " --out=" + out.string());
        EXPECT_EQ(rc, 0) << text;
        return ReadFile((out / "summary.json").string());
    }

    std::string m_bin; //!< example binary
    fs::path m_dir;    //!< output folder of this test
};

} // namespace

TEST_F(FabricIncast, PfcDeliversEveryPacketWithoutDrops)
{
    std::string s = Summary("--senders=8 --pfc=1 --bytes=200000", "pfc");
    EXPECT_EQ(Field(s, "options", "senders"), 8u);
    // 200000 payload bytes per sender in 1024-byte Write payloads: 196 packets each
    EXPECT_EQ(Field(s, "received", "payloadBytes"), 8u * 200000u);
    EXPECT_EQ(Field(s, "sent", "packets"), 8u * 196u);
    EXPECT_EQ(Field(s, "sent", "packets"), Field(s, "received", "packets"));
    EXPECT_EQ(Field(s, "sent", "bytes"), Field(s, "received", "bytes"));
    EXPECT_EQ(Field(s, "dropped", "packets"), 0u);
    EXPECT_GT(Field(s, "pauses", "sent"), 0u);
    EXPECT_EQ(Field(s, "pauses", "sent"), Field(s, "pauses", "resumesSent"));
}

TEST_F(FabricIncast, WithoutPfcDropsAreWhatIsMissing)
{
    std::string s = Summary("--senders=4 --pfc=0 --bufferKb=64 --bytes=200000", "lossy");
    uint64_t sent = Field(s, "sent", "packets");
    uint64_t received = Field(s, "received", "packets");
    EXPECT_GT(Field(s, "dropped", "packets"), 0u);
    EXPECT_EQ(Field(s, "dropped", "packets"), sent - received);
    EXPECT_EQ(Field(s, "pauses", "sent"), 0u);
}

TEST_F(FabricIncast, SameSeedSameSummary)
{
    std::string a = Summary("--senders=4 --trimming=1 --pfc=0 --bufferKb=256", "a");
    std::string b = Summary("--senders=4 --trimming=1 --pfc=0 --bufferKb=256", "b");
    EXPECT_FALSE(a.empty());
    EXPECT_EQ(a, b);
}

TEST_F(FabricIncast, BadOptionsExitWithCode2NamingThem)
{
    auto [rc1, out1] = RunCommand(m_bin + " --bogus=1");
    EXPECT_EQ(rc1, 2);
    EXPECT_NE(out1.find("--bogus"), std::string::npos) << out1;
    auto [rc2, out2] = RunCommand(m_bin + " --senders=0");
    EXPECT_EQ(rc2, 2);
    EXPECT_NE(out2.find("--senders='0'"), std::string::npos) << out2;
    auto [rc3, out3] = RunCommand(m_bin + " --rate=fast");
    EXPECT_EQ(rc3, 2);
    EXPECT_NE(out3.find("--rate='fast'"), std::string::npos) << out3;
}
