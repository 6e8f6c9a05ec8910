/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-test-support.h"

#include "ns3/mrc-packet-info.h"
#include "ns3/mrc-srh-header.h"
#include "ns3/mrc-srv6-encap.h"
#include "ns3/mrc-traffic-class.h"
#include "ns3/mrc-usid.h"
#include "ns3/packet.h"

#include <gtest/gtest.h>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

/// The bytes of a packet.
std::vector<uint8_t>
Bytes(Ptr<const Packet> p)
{
    return MrcTest::PacketBytes(p);
}

/// The bytes of an address.
std::vector<uint8_t>
Bytes(const Ipv6Address& a)
{
    std::vector<uint8_t> b(16);
    a.GetBytes(b.data());
    return b;
}

} // namespace

TEST(Srv6Usid, BuildReadShiftThreeUsids)
{
    MrcUsidCarrier c(0xfc000000, {0x1001, 0x2002, 0x3003});
    EXPECT_EQ(c.ToAddress(), Ipv6Address("fc00:0:1001:2002:3003::"));
    EXPECT_EQ(c.GetLocatorBlock(), 0xfc000000u);
    EXPECT_EQ(c.GetActiveUsid(), 0x1001);
    EXPECT_EQ(c.GetRemainingCount(), 3u);
    EXPECT_FALSE(c.IsEnd());

    c.Shift();
    EXPECT_EQ(c.ToAddress(), Ipv6Address("fc00:0:2002:3003::"));
    EXPECT_EQ(c.GetActiveUsid(), 0x2002);
    EXPECT_EQ(c.GetLocatorBlock(), 0xfc000000u);
    EXPECT_EQ(c.GetRemainingCount(), 2u);

    c.Shift();
    EXPECT_EQ(c.ToAddress(), Ipv6Address("fc00:0:3003::"));
    EXPECT_EQ(c.GetActiveUsid(), 0x3003);
    EXPECT_FALSE(c.IsEnd());

    c.Shift();
    EXPECT_EQ(c.ToAddress(), Ipv6Address("fc00::"));
    EXPECT_TRUE(c.IsEnd());
    EXPECT_EQ(c.GetRemainingCount(), 0u);
    // shifting an exhausted carrier changes nothing
    c.Shift();
    EXPECT_EQ(c.ToAddress(), Ipv6Address("fc00::"));
}

TEST(Srv6Usid, SixUsidsFillTheAddressAndShiftInZero)
{
    const uint16_t u[6] = {0x1, 0x2, 0x3, 0x4, 0x5, 0xffff};
    MrcUsidCarrier c(MrcUsidCarrier::DEFAULT_LOCATOR_BLOCK, u, 6);
    EXPECT_EQ(c.ToAddress(), Ipv6Address("fcbb:bb00:1:2:3:4:5:ffff"));
    EXPECT_EQ(c.GetUsid(5), 0xffff);
    EXPECT_EQ(c.GetRemainingCount(), 6u);
    c.Shift();
    EXPECT_EQ(c.ToAddress(), Ipv6Address("fcbb:bb00:2:3:4:5:ffff:0"));
    std::array<uint16_t, MrcUsidCarrier::MAX_USIDS> rest;
    ASSERT_EQ(c.GetRemaining(rest), 5u);
    EXPECT_EQ(rest, (std::array<uint16_t, 6>{0x2, 0x3, 0x4, 0x5, 0xffff, 0}));
}

TEST(Srv6Usid, ShiftAddressIsShiftOnTheBytes)
{
    // A destination's shifts carried beside its packet are applied to its bytes later:
    // the same bytes as Shift on the carrier, for every count (6 and more empty it).
    const uint16_t u[6] = {0x1001, 0x2002, 0x3003, 0x4004, 0x5005, 0x6006};
    const MrcUsidCarrier start(MrcUsidCarrier::DEFAULT_LOCATOR_BLOCK, u, 6);
    for (uint32_t count = 0; count <= 8; ++count)
    {
        uint8_t b[16];
        start.GetBytes(b);
        MrcUsidCarrier::ShiftAddress(b, count);
        MrcUsidCarrier c = start;
        for (uint32_t i = 0; i < count; ++i)
        {
            c.Shift();
        }
        uint8_t want[16];
        c.GetBytes(want);
        EXPECT_EQ(std::vector<uint8_t>(b, b + 16), std::vector<uint8_t>(want, want + 16))
            << count << " shifts";
    }
    uint8_t b[16];
    start.GetBytes(b);
    MrcUsidCarrier::ShiftAddress(b, 2); // by hand: two slots out, two zeros in
    EXPECT_EQ(Ipv6Address(b), Ipv6Address("fcbb:bb00:3003:4004:5005:6006::"));
    MrcUsidCarrier::ShiftAddress(b, 7);
    EXPECT_EQ(Ipv6Address(b), Ipv6Address("fcbb:bb00::"));
}

TEST(Srv6Usid, CarriedEditsMarkOnlyEcnCapableHeaders)
{
    // MrcApplyIpv6Edits: bits 0-2 shift the destination, bit 3 sets an ECN-capable field
    // to CE (11) and leaves a Not-ECT one (00), as a mark written in place would.
    const MrcUsidCarrier c(MrcUsidCarrier::DEFAULT_LOCATOR_BLOCK, {0x1001, 0x2002});
    for (uint8_t ecn = 0; ecn < 4; ++ecn)
    {
        uint8_t ip[40] = {};
        ip[0] = 0x60;
        ip[1] = static_cast<uint8_t>((ecn << 4) | 0x0a); // flow label bits kept
        c.GetBytes(ip + 24);
        MrcApplyIpv6Edits(ip, 1 | MRC_IPV6_EDIT_CE);
        EXPECT_EQ(ip[1], (ecn == 0 ? 0x0a : 0x3a)) << "ECN " << unsigned(ecn);
        EXPECT_EQ(ip[0], 0x60);
        EXPECT_EQ(Ipv6Address(ip + 24), Ipv6Address("fcbb:bb00:2002::"));
    }
}

TEST(Srv6Usid, AddressRoundTripAndBytes)
{
    Ipv6Address a("fcbb:bb00:1405:2406:8807::");
    MrcUsidCarrier c(a);
    EXPECT_EQ(c, MrcUsidCarrier(0xfcbbbb00, {0x1405, 0x2406, 0x8807}));
    EXPECT_EQ(c.ToAddress(), a);
    uint8_t b[16];
    c.GetBytes(b);
    const std::vector<uint8_t> expected =
        {0xfc, 0xbb, 0xbb, 0x00, 0x14, 0x05, 0x24, 0x06, 0x88, 0x07, 0, 0, 0, 0, 0, 0};
    EXPECT_EQ(std::vector<uint8_t>(b, b + 16), expected);
    EXPECT_EQ(MrcUsidCarrier::FromBytes(b), c);
    std::ostringstream os;
    os << c;
    EXPECT_EQ(os.str(), "fcbb:bb00:1405:2406:8807::");
    // a zero uSID in the middle ends the list of remaining uSIDs
    MrcUsidCarrier gap(Ipv6Address("fcbb:bb00:1001:0:3003::"));
    EXPECT_EQ(gap.GetRemainingCount(), 1u);
}

TEST(Srv6Usid, MatchesFirst48Bits)
{
    MrcUsidCarrier c(0xfc000000, {0x1001, 0x2002});
    EXPECT_TRUE(c.Matches(0xfc000000, 0x1001));
    EXPECT_FALSE(c.Matches(0xfc000000, 0x2002)); // not active yet
    EXPECT_FALSE(c.Matches(0xfc000001, 0x1001)); // other locator block
    EXPECT_FALSE(c.Matches(0xfd000000, 0x1001));
    EXPECT_EQ(c.GetKey48(), 0xfc0000001001ULL);
    EXPECT_EQ(MrcUsidCarrier::MakeKey48(0xfc000000, 0x1001), 0xfc0000001001ULL);
    c.Shift();
    EXPECT_TRUE(c.Matches(0xfc000000, 0x2002));
    EXPECT_EQ(c.GetKey48(), 0xfc0000002002ULL);
}

TEST(Srv6UsidDeathTest, CarrierLimits)
{
    const uint16_t seven[7] = {1, 2, 3, 4, 5, 6, 7};
    EXPECT_DEATH(MrcUsidCarrier(0xfc000000, seven, 7), "at most 6 uSIDs");
    EXPECT_DEATH(MrcUsidCarrier(0xfc000000, {0x1001, 0, 0x3003}), "end-of-carrier");
    MrcUsidCarrier c;
    EXPECT_DEATH(c.GetUsid(6), "slot 6");
}

TEST(Srv6Usid, LayoutEncodeDecode)
{
    // plane field = plane + 1 | type | index
    EXPECT_EQ(MrcMakeUsid(0, MrcUsidType::T0, 0), 0x1000);
    EXPECT_EQ(MrcMakeUsid(0, MrcUsidType::T1, 5), 0x1405);
    EXPECT_EQ(MrcMakeUsid(7, MrcUsidType::HOST_DOWNLINK, 255), 0x88ff);
    EXPECT_EQ(MrcMakeUsid(14, MrcUsidType::T2, 1023), 0xffff);
    EXPECT_EQ(MrcMakeUsid(3, MrcUsidType::T0, 42), 0x402a);

    EXPECT_EQ(MrcUsidPlane(0x88ff), 7u);
    EXPECT_EQ(MrcUsidTypeOf(0x88ff), MrcUsidType::HOST_DOWNLINK);
    EXPECT_EQ(MrcUsidIndex(0x88ff), 255);
    EXPECT_EQ(MrcUsidPlane(0x1405), 0u);
    EXPECT_EQ(MrcUsidTypeOf(0x1405), MrcUsidType::T1);
    EXPECT_EQ(MrcUsidIndex(0x1405), 5);
    EXPECT_EQ(MrcUsidTypeOf(0xffff), MrcUsidType::T2);

    // copying a plane in is a mask-and-OR that keeps type and index
    EXPECT_EQ(MrcUsidWithPlane(0x1405, 3), 0x4405);
    EXPECT_EQ(MrcUsidWithPlane(0x88ff, 0), 0x18ff);

    // every uSID of every plane, type and index round-trips and is non-zero
    for (uint32_t plane = 0; plane < MRC_USID_MAX_PLANES; ++plane)
    {
        for (uint32_t type = 0; type < 4; ++type)
        {
            for (uint32_t index = 0; index < MRC_USID_MAX_INDEX; index += 31)
            {
                uint16_t u = MrcMakeUsid(plane, static_cast<MrcUsidType>(type), index);
                ASSERT_NE(u, 0);
                ASSERT_EQ(MrcUsidPlane(u), plane);
                ASSERT_EQ(static_cast<uint32_t>(MrcUsidTypeOf(u)), type);
                ASSERT_EQ(MrcUsidIndex(u), index);
            }
        }
    }
    EXPECT_STREQ(MrcUsidTypeName(MrcUsidType::HOST_DOWNLINK), "DOWNLINK");
}

TEST(Srv6UsidDeathTest, LayoutRanges)
{
    EXPECT_DEATH(MrcMakeUsid(15, MrcUsidType::T0, 0), "plane 15");
    EXPECT_DEATH(MrcMakeUsid(0, MrcUsidType::T1, 1024), "index 1024");
    EXPECT_DEATH(MrcUsidPlane(0x0405), "plane field 0");
    EXPECT_DEATH(MrcUsidWithPlane(0x1405, 16), "plane 16");
}

TEST(Srv6Srh, HandWrittenBytesAndRoundTrip)
{
    MrcUsidCarrier a(0xfcbbbb00, {0x1001});
    MrcUsidCarrier b(0xfcbbbb00, {0x2002, 0x2003});
    MrcUsidCarrier c(0xfcbbbb00, {0x3001});
    const MrcUsidCarrier path[3] = {a, b, c};
    MrcSrhHeader srh;
    EXPECT_EQ(srh.SetPath(path, 3), a);
    srh.SetTag(0xbeef);
    EXPECT_EQ(srh.GetNSegments(), 2u);
    EXPECT_EQ(srh.GetLastEntry(), 1);
    EXPECT_EQ(srh.GetSegmentsLeft(), 2);
    EXPECT_EQ(srh.GetHdrExtLen(), 4);
    EXPECT_EQ(srh.GetSerializedSize(), 8u + 16 * 2);
    EXPECT_EQ(srh.GetSegment(0), c); // Segment List[0] is the last segment
    EXPECT_EQ(srh.GetSegmentAddress(1), Ipv6Address("fcbb:bb00:2002:2003::"));

    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(srh);
    const std::vector<uint8_t> expected = {
        0x29, 0x04, 0x04, 0x02, 0x01, 0x00, 0xbe, 0xef, // NH 41, len 4, type 4, SL 2, LE 1, tag
        0xfc, 0xbb, 0xbb, 0x00, 0x30, 0x01, 0x00, 0x00, // Segment List[0] = c
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, //
        0xfc, 0xbb, 0xbb, 0x00, 0x20, 0x02, 0x20, 0x03, // Segment List[1] = b
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, //
    };
    EXPECT_EQ(Bytes(p), expected);

    MrcSrhHeader back;
    EXPECT_EQ(p->RemoveHeader(back), 40u);
    EXPECT_EQ(p->GetSize(), 0u);
    EXPECT_EQ(back.GetNextHeader(), 41);
    EXPECT_EQ(back.GetRoutingType(), 4);
    EXPECT_EQ(back.GetSegmentsLeft(), 2);
    EXPECT_EQ(back.GetLastEntry(), 1);
    EXPECT_EQ(back.GetFlags(), 0);
    EXPECT_EQ(back.GetTag(), 0xbeef);
    EXPECT_EQ(back.GetSegment(0), c);
    EXPECT_EQ(back.GetSegment(1), b);
}

TEST(Srv6Srh, EndpointWalkVisitsEveryUsidInOrder)
{
    const MrcUsidCarrier path[3] = {MrcUsidCarrier(0xfcbbbb00, {0x1001, 0x1002}),
                                    MrcUsidCarrier(0xfcbbbb00, {0x2001}),
                                    MrcUsidCarrier(0xfcbbbb00, {0x3001, 0x3002, 0x3003})};
    MrcSrhHeader srh;
    MrcUsidCarrier da = srh.SetPath(path, 3);
    std::vector<uint16_t> visited;
    // each node: its uSID is active; it shifts; on end of carrier it takes the next SRH segment
    while (true)
    {
        visited.push_back(da.GetActiveUsid());
        da.Shift();
        if (da.IsEnd())
        {
            if (srh.GetSegmentsLeft() == 0)
            {
                break;
            }
            da = srh.Advance();
        }
    }
    EXPECT_EQ(visited, (std::vector<uint16_t>{0x1001, 0x1002, 0x2001, 0x3001, 0x3002, 0x3003}));
    EXPECT_EQ(srh.GetSegmentsLeft(), 0);
    EXPECT_DEATH(srh.Advance(), "Segments Left is 0");
}

TEST(Srv6SrhDeathTest, Ranges)
{
    MrcUsidCarrier one(0xfcbbbb00, {0x1001});
    MrcSrhHeader srh;
    EXPECT_DEATH(srh.SetPath(&one, 1), "needs no SRH");
    std::vector<MrcUsidCarrier> ten(10, one);
    EXPECT_DEATH(srh.SetPath(ten.data(), 10), "at most 8");
    srh.SetPath(ten.data(), 3);
    EXPECT_DEATH(srh.SetSegmentsLeft(3), "Segments Left 3");
    EXPECT_DEATH(srh.GetSegment(2), "index 2");

    // a routing header of another type is rejected on the wire
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(srh);
    std::vector<uint8_t> b = Bytes(p);
    b[2] = 0; // type 0
    Ptr<Packet> bad = Create<Packet>(b.data(), b.size());
    MrcSrhHeader back;
    EXPECT_DEATH(bad->RemoveHeader(back), "type 0");
}

namespace
{

/// An inner IPv6 header with DSCP 4, ECT(0), flow label 0xabcde and a 100-byte payload.
Ipv6Header
MakeInner()
{
    Ipv6Header inner;
    inner.SetTrafficClass(MrcMakeTrafficClass(MrcDscp::TRIMMABLE, MrcEcn::ECT0)); // 0x12
    inner.SetFlowLabel(0xabcde);
    inner.SetPayloadLength(100);
    inner.SetNextHeader(17);
    inner.SetHopLimit(64);
    inner.SetSource(Ipv6Address("fd00::1"));
    inner.SetDestination(Ipv6Address("fd00::2"));
    return inner;
}

} // namespace

TEST(Srv6Encap, OuterHeaderBytesWithoutSrh)
{
    Ipv6Header inner = MakeInner();
    Ptr<Packet> p = Create<Packet>(100);
    p->AddHeader(inner);
    const std::vector<uint8_t> innerBytes = Bytes(p);
    ASSERT_EQ(innerBytes.size(), 140u);

    MrcUsidCarrier da(0xfcbbbb00, {0x1000, 0x1401, 0x1002, 0x1805});
    MrcSrv6Encapsulate(p, inner, Ipv6Address("fd00::1"), da);
    ASSERT_EQ(p->GetSize(), 180u);
    std::vector<uint8_t> b = Bytes(p);
    // version 6, traffic class 0x12, flow label 0xabcde: 0x612abcde; payload 140; NH 41; hop 64
    const std::vector<uint8_t> first8 = {0x61, 0x2a, 0xbc, 0xde, 0x00, 0x8c, 0x29, 0x40};
    EXPECT_EQ(std::vector<uint8_t>(b.begin(), b.begin() + 8), first8);
    EXPECT_EQ(std::vector<uint8_t>(b.begin() + 8, b.begin() + 24), Bytes(Ipv6Address("fd00::1")));
    EXPECT_EQ(std::vector<uint8_t>(b.begin() + 24, b.begin() + 40),
              Bytes(Ipv6Address("fcbb:bb00:1000:1401:1002:1805::")));
    EXPECT_EQ(std::vector<uint8_t>(b.begin() + 40, b.end()), innerBytes);

    // the form that reads traffic class and flow label from the packet gives the same bytes
    Ptr<Packet> q = Create<Packet>(100);
    q->AddHeader(inner);
    MrcSrv6Encapsulate(q, Ipv6Address("fd00::1"), da);
    EXPECT_EQ(Bytes(q), b);

    Ipv6Header outer;
    MrcSrhHeader srh;
    EXPECT_FALSE(MrcSrv6Decapsulate(p, &outer, &srh));
    EXPECT_EQ(p->GetSize(), 140u);
    EXPECT_EQ(Bytes(p), innerBytes);
    EXPECT_EQ(outer.GetNextHeader(), 41);
    EXPECT_EQ(outer.GetPayloadLength(), 140);
    EXPECT_EQ(outer.GetFlowLabel(), 0xabcdeu);
    EXPECT_EQ(MrcUsidCarrier(outer.GetDestination()), da);
}

TEST(Srv6Encap, OuterHeaderBytesWithSrh)
{
    Ipv6Header inner = MakeInner();
    Ptr<Packet> p = Create<Packet>(100);
    p->AddHeader(inner);
    const std::vector<uint8_t> innerBytes = Bytes(p);

    const MrcUsidCarrier path[3] = {MrcUsidCarrier(0xfcbbbb00, {0x1001}),
                                    MrcUsidCarrier(0xfcbbbb00, {0x2002, 0x2003}),
                                    MrcUsidCarrier(0xfcbbbb00, {0x3001})};
    MrcSrv6EncapsulatePath(p, inner, Ipv6Address("fd00::1"), path, 3, 17);
    // 40 outer + 40 SRH (2 segments) + 140 inner
    ASSERT_EQ(p->GetSize(), 220u);
    std::vector<uint8_t> b = Bytes(p);
    // payload 180 = 0xb4, next header 43 (routing), hop limit 17
    const std::vector<uint8_t> first8 = {0x61, 0x2a, 0xbc, 0xde, 0x00, 0xb4, 0x2b, 0x11};
    EXPECT_EQ(std::vector<uint8_t>(b.begin(), b.begin() + 8), first8);
    EXPECT_EQ(std::vector<uint8_t>(b.begin() + 24, b.begin() + 40),
              Bytes(Ipv6Address("fcbb:bb00:1001::")));
    // SRH: next header 41, Hdr Ext Len 4, type 4, Segments Left 2, Last Entry 1
    const std::vector<uint8_t> srh8 = {0x29, 0x04, 0x04, 0x02, 0x01, 0x00, 0x00, 0x00};
    EXPECT_EQ(std::vector<uint8_t>(b.begin() + 40, b.begin() + 48), srh8);
    EXPECT_EQ(std::vector<uint8_t>(b.begin() + 48, b.begin() + 64),
              Bytes(Ipv6Address("fcbb:bb00:3001::")));
    EXPECT_EQ(std::vector<uint8_t>(b.begin() + 80, b.end()), innerBytes);

    Ipv6Header outer;
    MrcSrhHeader srh;
    EXPECT_TRUE(MrcSrv6Decapsulate(p, &outer, &srh));
    EXPECT_EQ(Bytes(p), innerBytes);
    EXPECT_EQ(outer.GetHopLimit(), 17);
    EXPECT_EQ(outer.GetNextHeader(), 43);
    EXPECT_EQ(srh.GetNSegments(), 2u);
    EXPECT_EQ(srh.GetSegment(1), path[1]);

    // a one-carrier path has no SRH
    Ptr<Packet> q = Create<Packet>(100);
    q->AddHeader(inner);
    MrcSrv6EncapsulatePath(q, inner, Ipv6Address("fd00::1"), path, 1);
    EXPECT_EQ(q->GetSize(), 180u);
    EXPECT_FALSE(MrcSrv6Decapsulate(q));
}

TEST(Srv6Encap, CongestionMarkReachesTheInnerHeader)
{
    Ipv6Header outer;
    Ipv6Header inner = MakeInner();
    MrcSetEcn(outer, MrcEcn::ECT0);
    EXPECT_FALSE(MrcSrv6CopyCeToInner(outer, inner));
    EXPECT_EQ(MrcGetEcn(inner), MrcEcn::ECT0);
    MrcSetEcn(outer, MrcEcn::CE);
    EXPECT_TRUE(MrcSrv6CopyCeToInner(outer, inner));
    EXPECT_EQ(MrcGetEcn(inner), MrcEcn::CE);
    EXPECT_EQ(MrcGetDscp(inner), MrcDscp::TRIMMABLE);
    MrcSetEcn(inner, MrcEcn::NOT_ECT);
    EXPECT_FALSE(MrcSrv6CopyCeToInner(outer, inner));
    EXPECT_EQ(MrcGetEcn(inner), MrcEcn::NOT_ECT);
}

TEST(Srv6EncapDeathTest, RejectsOtherPackets)
{
    // an outer header announcing UDP is not IPv6-in-IPv6
    Ipv6Header inner = MakeInner();
    Ptr<Packet> p = Create<Packet>(100);
    p->AddHeader(inner);
    EXPECT_DEATH(MrcSrv6Decapsulate(p), "next header 17");
    // a packet that does not start with IPv6
    Ptr<Packet> q = Create<Packet>(64);
    EXPECT_DEATH(MrcSrv6Encapsulate(q, Ipv6Address("fd00::1"), MrcUsidCarrier()), "version 0");
}
