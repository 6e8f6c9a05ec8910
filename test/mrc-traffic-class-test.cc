/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-traffic-class.h"

#include <gtest/gtest.h>

using namespace ns3;

TEST(TrafficClass, SplitsDscpAndEcn)
{
    // DSCP 46 (EF) with ECT(0): 101110 10 = 0xba
    EXPECT_EQ(MrcMakeTrafficClass(46, MrcEcn::ECT0), 0xba);
    EXPECT_EQ(MrcDscpOf(0xba), 46);
    EXPECT_EQ(MrcEcnOf(0xba), MrcEcn::ECT0);
    // DSCP 11 (MRC TRIMMED default) with CE: 001011 11 = 0x2f
    EXPECT_EQ(MrcMakeTrafficClass(MrcDscp::TRIMMED, MrcEcn::CE), 0x2f);
}

TEST(TrafficClass, SettersKeepTheOtherHalf)
{
    Ipv6Header ip;
    ip.SetTrafficClass(0);
    MrcSetEcn(ip, MrcEcn::ECT1);
    MrcSetDscp(ip, MrcDscp::TRIMMED_LASTHOP);
    EXPECT_EQ(ip.GetTrafficClass(), (21 << 2) | 1);
    MrcSetDscp(ip, MrcDscp::CONTROL);
    EXPECT_EQ(MrcGetEcn(ip), MrcEcn::ECT1);
    EXPECT_EQ(MrcGetDscp(ip), 46);
}

TEST(TrafficClass, CeMarkingOnlyOnEcnCapable)
{
    Ipv6Header ip;
    MrcSetDscp(ip, MrcDscp::TRIMMABLE);
    MrcSetEcn(ip, MrcEcn::NOT_ECT);
    EXPECT_FALSE(MrcMarkCe(ip));
    EXPECT_EQ(MrcGetEcn(ip), MrcEcn::NOT_ECT);
    MrcSetEcn(ip, MrcEcn::ECT0);
    EXPECT_TRUE(MrcMarkCe(ip));
    EXPECT_EQ(MrcGetEcn(ip), MrcEcn::CE);
    EXPECT_EQ(MrcGetDscp(ip), MrcDscp::TRIMMABLE);
}

TEST(TrafficClass, FlowLabelIsTwentyBitsOnTheWire)
{
    Ipv6Header ip;
    ip.SetSource(Ipv6Address("fd00::1"));
    ip.SetDestination(Ipv6Address("fd00::2"));
    ip.SetNextHeader(17);
    ip.SetPayloadLength(0);
    ip.SetHopLimit(64);
    ip.SetTrafficClass(MrcMakeTrafficClass(MrcDscp::TRIMMABLE, MrcEcn::ECT0));
    MrcSetFlowLabel(ip, 0xabcde);
    Buffer b;
    b.AddAtStart(ip.GetSerializedSize());
    ip.Serialize(b.Begin());
    uint8_t bytes[4];
    b.CopyData(bytes, 4);
    // version 6 | traffic class 0x12 | flow label 0xabcde
    EXPECT_EQ(bytes[0], 0x61);
    EXPECT_EQ(bytes[1], 0x2a);
    EXPECT_EQ(bytes[2], 0xbc);
    EXPECT_EQ(bytes[3], 0xde);
}

TEST(TrafficClassDeathTest, RejectsOutOfRangeValues)
{
    Ipv6Header ip;
    EXPECT_DEATH(MrcSetDscp(ip, 64), "DSCP 64 is out of range");
    EXPECT_DEATH(MrcSetFlowLabel(ip, 0x100000), "does not fit in 20 bits");
}
