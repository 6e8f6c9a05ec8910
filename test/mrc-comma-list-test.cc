/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The comma-list utilities (model/util): trimming, small unsigned integers, splitting.

#include "ns3/mrc-comma-list.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

TEST(MrcCommaList, TrimDropsBlanksAtBothEndsOnly)
{
    EXPECT_EQ(MrcTrim("  a b\t\r\n"), "a b");
    EXPECT_EQ(MrcTrim("x"), "x");
    EXPECT_EQ(MrcTrim(" \t\n\r"), "");
    EXPECT_EQ(MrcTrim(""), "");
}

TEST(MrcCommaList, ParseUnsignedTakesUpToNineDigits)
{
    uint32_t v = 7;
    EXPECT_TRUE(MrcParseUnsigned("0", v));
    EXPECT_EQ(v, 0u);
    EXPECT_TRUE(MrcParseUnsigned("999999999", v));
    EXPECT_EQ(v, 999999999u);
    v = 7;
    EXPECT_FALSE(MrcParseUnsigned("1000000000", v)); // ten digits
    EXPECT_FALSE(MrcParseUnsigned("", v));
    EXPECT_FALSE(MrcParseUnsigned("-1", v));
    EXPECT_FALSE(MrcParseUnsigned("+1", v));
    EXPECT_FALSE(MrcParseUnsigned(" 1", v)); // blanks are the caller's to trim
    EXPECT_FALSE(MrcParseUnsigned("1x", v));
    EXPECT_EQ(v, 7u); // left alone when refused
}

TEST(MrcCommaList, SplitKeepsEmptyItemsAndTrimsEach)
{
    EXPECT_EQ(MrcSplitCommas("1, 2 ,3"), (std::vector<std::string>{"1", "2", "3"}));
    EXPECT_EQ(MrcSplitCommas("a,,b,"), (std::vector<std::string>{"a", "", "b", ""}));
    EXPECT_EQ(MrcSplitCommas(" one "), (std::vector<std::string>{"one"}));
    EXPECT_TRUE(MrcSplitCommas("").empty());
    EXPECT_TRUE(MrcSplitCommas("  \t").empty());
    EXPECT_EQ(MrcSplitCommas(","), (std::vector<std::string>{"", ""}));
}
