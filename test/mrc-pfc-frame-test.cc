/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-test-support.h"

#include "ns3/ethernet-header.h"
#include "ns3/mrc-pfc-frame.h"
#include "ns3/packet.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;
using ns3::MrcTest::HeaderBytes;

TEST(PfcFrame, DefaultsAndConstants)
{
    MrcPfcFrame f;
    EXPECT_EQ(f.GetSerializedSize(), 46u);
    EXPECT_EQ(MrcPfcFrame::ETHER_TYPE, 0x8808);
    EXPECT_EQ(f.GetOpcode(), 0x0101);
    EXPECT_EQ(f.GetClassEnableVector(), 0);
    EXPECT_EQ(MrcPfcFrame::GetDestination(), Mac48Address("01:80:C2:00:00:01"));
    // Ethernet header + body + FCS is the 64-byte minimum frame.
    EXPECT_EQ(EthernetHeader().GetSerializedSize() + f.GetSerializedSize() + 4, 64u);
    for (uint8_t c = 0; c < 8; ++c)
    {
        EXPECT_FALSE(f.IsEnabled(c));
        EXPECT_EQ(f.GetQuanta(c), 0);
    }
}

TEST(PfcFrame, HandWrittenBytes)
{
    MrcPfcFrame f;
    f.SetPause(3, 0xffff);  // pause class 3 for the longest time
    f.SetPause(7, 0);       // resume class 7
    f.SetQuanta(1, 0x1234); // a quanta field whose class is not enabled
    const std::vector<uint8_t> expected = {
        0x01, 0x01,                                        // opcode
        0x00, 0x88,                                        // classes 3 and 7 enabled
        0x00, 0x00, 0x12, 0x34,                            // class 0, class 1 (not enabled)
        0x00, 0x00, 0xff, 0xff,                            // class 2, class 3
        0x00, 0x00, 0x00, 0x00,                            // class 4, class 5
        0x00, 0x00, 0x00, 0x00,                            // class 6, class 7 (resume)
        0,    0,    0,    0,    0, 0, 0, 0, 0, 0, 0, 0, 0, // 26 bytes of padding
        0,    0,    0,    0,    0, 0, 0, 0, 0, 0, 0, 0, 0,
    };
    ASSERT_EQ(expected.size(), 46u);
    EXPECT_EQ(HeaderBytes(f), expected);
}

TEST(PfcFrame, RoundTripThroughAPacket)
{
    MrcPfcFrame f;
    for (uint8_t c = 0; c < 8; ++c)
    {
        f.SetPause(c, static_cast<uint16_t>(0x1000 * c + c));
    }
    f.SetClassEnableVector(0xa5);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(f);
    ASSERT_EQ(p->GetSize(), 46u);

    MrcPfcFrame g;
    EXPECT_EQ(p->RemoveHeader(g), 46u);
    EXPECT_EQ(p->GetSize(), 0u);
    EXPECT_EQ(g.GetOpcode(), MrcPfcFrame::OPCODE);
    EXPECT_EQ(g.GetClassEnableVector(), 0xa5);
    for (uint8_t c = 0; c < 8; ++c)
    {
        EXPECT_EQ(g.IsEnabled(c), ((0xa5 >> c) & 1) == 1) << "class " << unsigned(c);
        EXPECT_EQ(g.GetQuanta(c), 0x1000 * c + c) << "class " << unsigned(c);
    }
    EXPECT_EQ(HeaderBytes(g), HeaderBytes(f));
}

TEST(PfcFrameDeathTest, RejectsBadClasses)
{
    MrcPfcFrame f;
    EXPECT_DEATH(f.SetPause(8, 1), "PFC class 8 is out of range");
    EXPECT_DEATH(f.SetClassEnableVector(0x100), "uses bits above 7");
}
