/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The tutorial's example program (examples/mrc-tutorial.cc, doc/mrc-tutorial.rst): its
// printed output, with exact byte counts, and its rejection of bad options.

#include "mrc-test-support.h"

#include <gtest/gtest.h>
#include <string>

using namespace ns3;
using namespace ns3::MrcTest;

TEST(MrcTutorialExample, PrintsEveryCompletionAndTheBytesDelivered)
{
    const std::string bin = ExampleBinary("mrc-tutorial");
    if (bin.empty())
    {
        GTEST_SKIP() << "mrc-tutorial not found (MRC_EXAMPLES_DIR unset, no examples/ beside "
                        "the test binary)";
    }
    auto [rc, text] = RunCommand(bin + " --writes=2 --bytes=8192");
    ASSERT_EQ(rc, 0) << text;
    // Two Writes and the Write with Immediate, 8192 bytes each, each into its own slice.
    for (const char* line : {"received: 8192 bytes at offset 0x0\n",
                             "received: 8192 bytes at offset 0x2000\n",
                             "received: 8192 bytes at offset 0x4000 with immediate 42\n",
                             "completion: wr 1 success, 8192 bytes, posted at 0 us, done at ",
                             "completion: wr 2 success, 8192 bytes, posted at 2 us, done at ",
                             "completion: wr 3 success, 8192 bytes, posted at 4 us, done at ",
                             "delivered: 24576 of 24576 bytes, exactly once: yes\n",
                             // 8192 B = 2 packets of the 4096-byte MTU, 3 messages
                             "data packets sent: 6, retransmitted: 0\n"})
    {
        EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
    }
    std::size_t lines = 0;
    for (char c : text)
    {
        lines += c == '\n' ? 1 : 0;
    }
    EXPECT_EQ(lines, 8u) << text; // 3 received, 3 completions, delivered, packets

    // The default run: 3 Writes and the Write with Immediate of 64 KiB.
    auto [rc2, text2] = RunCommand(bin);
    ASSERT_EQ(rc2, 0) << text2;
    EXPECT_NE(text2.find("delivered: 262144 of 262144 bytes, exactly once: yes\n"),
              std::string::npos)
        << text2;
    EXPECT_NE(text2.find("data packets sent: 64, retransmitted: 0\n"), std::string::npos) << text2;

    auto [rc3, text3] = RunCommand(bin + " --writes=0");
    EXPECT_EQ(rc3, 2) << text3;
    EXPECT_NE(text3.find("--writes must be 1..16"), std::string::npos) << text3;
}
