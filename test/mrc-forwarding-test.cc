/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the switch forwarding strategies: ECMP (longest prefix, seeded hash, local
// failures) and static SRv6 uN.

#include "ns3/ipv6-header.h"
#include "ns3/mrc-ecmp-forwarding.h"
#include "ns3/mrc-packet-info.h"
#include "ns3/mrc-srv6-forwarding.h"
#include "ns3/string.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <array>
#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

/// The parsed info of flow i: distinct source address, UDP source port and flow label.
MrcPacketInfo
Flow(uint32_t i)
{
    MrcPacketInfo info;
    uint8_t src[16] = {0xfd, 0x00, 0x00, 0x01};
    src[12] = static_cast<uint8_t>(i >> 24);
    src[13] = static_cast<uint8_t>(i >> 16);
    src[14] = static_cast<uint8_t>(i >> 8);
    src[15] = static_cast<uint8_t>(i);
    info.src = Ipv6Address(src);
    info.dst = Ipv6Address("fd00:2::2");
    info.flowLabel = (i * 2654435761u) & 0xfffff;
    info.hasUdp = true;
    info.udpSrcPort = static_cast<uint16_t>(49152 + (i % 16384));
    info.udpDstPort = 4791;
    return info;
}

Ptr<MrcEcmpForwarding>
EightWay(uint64_t seed)
{
    Ptr<MrcEcmpForwarding> f = CreateObject<MrcEcmpForwarding>();
    f->SetAttribute("Seed", UintegerValue(seed));
    for (uint32_t port = 0; port < 8; ++port)
    {
        f->AddRoute(Ipv6Address("fd00:2::"), 64, port);
    }
    return f;
}

std::vector<int32_t>
RouteAll(Ptr<MrcEcmpForwarding> f, uint32_t n)
{
    std::vector<int32_t> ports;
    for (uint32_t i = 0; i < n; ++i)
    {
        MrcPacketInfo info = Flow(i);
        ports.push_back(f->Route(info, 99));
    }
    return ports;
}

} // namespace

TEST(EcmpForwarding, TenThousandFlowsSpreadEvenly)
{
    for (uint64_t seed : {1u, 2u})
    {
        Ptr<MrcEcmpForwarding> f = EightWay(seed);
        std::array<int, 8> count{};
        for (int32_t port : RouteAll(f, 10000))
        {
            ASSERT_GE(port, 0);
            ASSERT_LT(port, 8);
            count[port]++;
        }
        for (int port = 0; port < 8; ++port)
        {
            EXPECT_NEAR(count[port], 1250, 62.5) << "seed " << seed << " port " << port;
        }
    }
}

TEST(EcmpForwarding, Crc32HashIsTheCrcOfTheFiveTupleRotatedBySeed)
{
    // Hand value: zlib.crc32 over fd00:0:0:1::1, fd00:0:0:1::2 (16 bytes each), the flow
    // label 0x12345 as 4 bytes, UDP ports 0xc000 and 4791 (2 bytes each) = 0x83bfd392;
    // rotated right by 5 bits (Seed 37 mod 32) = 0x941dfe9c.
    MrcPacketInfo info;
    info.src = Ipv6Address("fd00:0:0:1::1");
    info.dst = Ipv6Address("fd00:0:0:1::2");
    info.flowLabel = 0x12345;
    info.hasUdp = true;
    info.udpSrcPort = 0xc000;
    info.udpDstPort = 4791;
    Ptr<MrcEcmpForwarding> f = CreateObject<MrcEcmpForwarding>();
    f->SetAttribute("HashFunction", StringValue("Crc32"));
    EXPECT_EQ(f->Hash(info), 0x83bfd392u);
    f->SetAttribute("Seed", UintegerValue(37));
    EXPECT_EQ(f->Hash(info), 0x941dfe9cu);

    // Linear: 64 source ports differing in their low 6 bits fill 4 ports exactly evenly.
    f->SetAttribute("Seed", UintegerValue(0));
    for (uint32_t port = 0; port < 4; ++port)
    {
        f->AddRoute(Ipv6Address("fd00:0:0:1::"), 64, port);
    }
    std::array<int, 4> count{};
    for (uint16_t ev = 0; ev < 64; ++ev)
    {
        info.udpSrcPort = static_cast<uint16_t>(0xd5c0 | ev);
        const int32_t port = f->Route(info, 99);
        ASSERT_GE(port, 0);
        ASSERT_LT(port, 4);
        count[port]++;
    }
    EXPECT_EQ(count, (std::array<int, 4>{16, 16, 16, 16}));
}

TEST(EcmpForwarding, AFlowKeepsItsPortAndSeedsDiffer)
{
    Ptr<MrcEcmpForwarding> a = EightWay(1);
    Ptr<MrcEcmpForwarding> b = EightWay(2);
    const std::vector<int32_t> first = RouteAll(a, 10000);
    for (int rep = 0; rep < 3; ++rep)
    {
        EXPECT_EQ(RouteAll(a, 10000), first);
    }
    const std::vector<int32_t> other = RouteAll(b, 10000);
    int same = 0;
    for (std::size_t i = 0; i < first.size(); ++i)
    {
        same += first[i] == other[i];
    }
    // Independent choices agree for about 1/8 of the flows.
    EXPECT_GT(same, 1000);
    EXPECT_LT(same, 1500);
    // The hash covers every field: changing any one moves some flows.
    for (int field = 0; field < 5; ++field)
    {
        int moved = 0;
        for (uint32_t i = 0; i < 1000; ++i)
        {
            MrcPacketInfo info = Flow(i);
            const uint64_t h = a->Hash(info);
            switch (field)
            {
            case 0:
                info.src = Ipv6Address("fd00:9::1");
                break;
            case 1:
                info.dst = Ipv6Address("fd00:2::3");
                break;
            case 2:
                info.flowLabel ^= 1;
                break;
            case 3:
                info.udpSrcPort ^= 1;
                break;
            default:
                info.udpDstPort ^= 1;
            }
            moved += a->Hash(info) != h;
        }
        EXPECT_EQ(moved, 1000) << "field " << field;
    }
}

TEST(EcmpForwarding, FailedPortIsAvoidedAndOthersKeepTheirPort)
{
    Ptr<MrcEcmpForwarding> f = EightWay(7);
    const std::vector<int32_t> before = RouteAll(f, 10000);
    f->SetPortState(3, false);
    EXPECT_FALSE(f->IsPortUp(3));
    const std::vector<int32_t> after = RouteAll(f, 10000);
    std::array<int, 8> movedTo{};
    int moved = 0;
    for (std::size_t i = 0; i < before.size(); ++i)
    {
        ASSERT_NE(after[i], 3);
        if (before[i] == 3)
        {
            moved++;
            movedTo[after[i]]++;
        }
        else
        {
            ASSERT_EQ(after[i], before[i]) << "flow " << i;
        }
    }
    EXPECT_GT(moved, 1100);
    for (int port = 0; port < 8; ++port)
    {
        if (port != 3)
        {
            EXPECT_GT(movedTo[port], moved / 7 / 2) << "port " << port; // spread, not piled
        }
    }
    f->SetPortState(3, true);
    EXPECT_EQ(RouteAll(f, 10000), before);

    // All ports down: no route, counted.
    for (uint32_t port = 0; port < 8; ++port)
    {
        f->SetPortState(port, false);
    }
    MrcPacketInfo info = Flow(1);
    EXPECT_EQ(f->Route(info, 0), MrcForwarding::NO_ROUTE);
    EXPECT_EQ(f->GetNoRouteCount(), 1u);
    f->SetPortState(5, true);
    EXPECT_EQ(f->Route(info, 0), 5);
}

TEST(EcmpForwarding, LongestPrefixWinsAndRoutesCanChange)
{
    Ptr<MrcEcmpForwarding> f = EightWay(1);
    f->AddRoute(Ipv6Address("fd00:2::5"), 128, 9);
    f->AddRoute(Ipv6Address("::"), 0, 10);
    f->AddRoute(Ipv6Address("fd00:2::ffff"), 64, 1); // host bits ignored: same group
    EXPECT_EQ(f->GetNRoutes(), 3u);
    EXPECT_EQ(f->GetRoute(Ipv6Address("fd00:2::"), 64).size(), 8u);

    auto route = [&f](const char* dst) {
        MrcPacketInfo info = Flow(42);
        info.dst = Ipv6Address(dst);
        return f->Route(info, 0);
    };
    EXPECT_EQ(route("fd00:2::5"), 9);
    EXPECT_LT(route("fd00:2::6"), 8);
    EXPECT_EQ(route("fd00:3::1"), 10);
    EXPECT_EQ(route("fd00:2:0:1::5"), 10); // outside the /64

    f->ReplaceRoute(Ipv6Address("fd00:2::"), 64, {4, 5});
    for (uint32_t i = 0; i < 200; ++i)
    {
        MrcPacketInfo info = Flow(i);
        const int32_t port = f->Route(info, 0);
        ASSERT_TRUE(port == 4 || port == 5) << port;
    }
    EXPECT_TRUE(f->RemoveRoute(Ipv6Address("::"), 0));
    EXPECT_FALSE(f->RemoveRoute(Ipv6Address("::"), 0));
    EXPECT_EQ(route("fd00:3::1"), MrcForwarding::NO_ROUTE);
    EXPECT_TRUE(f->RemoveRoute(Ipv6Address("fd00:2::5"), 128));
    EXPECT_TRUE(route("fd00:2::5") == 4 || route("fd00:2::5") == 5);
    EXPECT_EQ(f->GetNRoutes(), 1u);
}

namespace
{

/// A 32-bit locator fcbb:bb00 followed by uSIDs.
Ipv6Address
Carrier(std::vector<uint16_t> usids)
{
    uint8_t a[16] = {0xfc, 0xbb, 0xbb, 0x00};
    for (std::size_t i = 0; i < usids.size(); ++i)
    {
        a[4 + 2 * i] = static_cast<uint8_t>(usids[i] >> 8);
        a[5 + 2 * i] = static_cast<uint8_t>(usids[i]);
    }
    return Ipv6Address(a);
}

Ptr<MrcSrv6Forwarding>
Switch(uint16_t usid)
{
    Ptr<MrcSrv6Forwarding> f = CreateObject<MrcSrv6Forwarding>();
    f->SetAttribute("Usid", UintegerValue(usid));
    return f;
}

/// An encapsulated packet with the given outer destination.
Ptr<Packet>
Srv6Packet(Ipv6Address outerDst)
{
    Ptr<Packet> p = Create<Packet>(100);
    UdpHeader udp;
    udp.SetSourcePort(1000);
    udp.SetDestinationPort(4791);
    p->AddHeader(udp);
    Ipv6Header inner;
    inner.SetSource(Ipv6Address("fd00:1::1"));
    inner.SetDestination(Ipv6Address("fd00:2::2"));
    inner.SetNextHeader(17);
    inner.SetPayloadLength(p->GetSize());
    p->AddHeader(inner);
    Ipv6Header outer;
    outer.SetSource(Ipv6Address("fd00:1::1"));
    outer.SetDestination(outerDst);
    outer.SetNextHeader(41);
    outer.SetPayloadLength(p->GetSize());
    p->AddHeader(outer);
    return p;
}

} // namespace

TEST(Srv6Forwarding, ThreeHopCarrierEndsExhausted)
{
    // T0(src) 0x0101 -> T1 0x1201 -> T0(dst) 0x0102 -> host downlink 0x2007 (port 7).
    Ptr<MrcSrv6Forwarding> t0a = Switch(0x0101);
    t0a->AddUsidRoute(0x1201, 4);
    t0a->AddUsidRoute(0x1202, 5);
    t0a->AddLocalAdjacency(0x2001, 1);
    Ptr<MrcSrv6Forwarding> t1 = Switch(0x1201);
    t1->AddUsidRoute(0x0101, 1);
    t1->AddUsidRoute(0x0102, 2);
    Ptr<MrcSrv6Forwarding> t0b = Switch(0x0102);
    t0b->AddUsidRoute(0x1201, 4);
    t0b->AddLocalAdjacency(0x2007, 7);

    Ptr<Packet> p = Srv6Packet(Carrier({0x0101, 0x1201, 0x0102, 0x2007}));
    const std::vector<Ptr<MrcSrv6Forwarding>> path = {t0a, t1, t0b};
    const std::vector<int32_t> expectedPorts = {4, 2, 7};
    const std::vector<Ipv6Address> expectedDa = {Carrier({0x1201, 0x0102, 0x2007}),
                                                 Carrier({0x0102, 0x2007}),
                                                 Ipv6Address("fcbb:bb00::")};
    for (std::size_t hop = 0; hop < path.size(); ++hop)
    {
        MrcPacketInfo info;
        ASSERT_TRUE(MrcParsePacket(p, info));
        EXPECT_EQ(path[hop]->Route(info, 0), expectedPorts[hop]) << "hop " << hop;
        EXPECT_TRUE(info.rewriteDst);
        EXPECT_EQ(info.dst, expectedDa[hop]) << "hop " << hop;
        MrcWriteDestination(p, info);
    }
    MrcPacketInfo last;
    ASSERT_TRUE(MrcParsePacket(p, last));
    EXPECT_EQ(last.dst, Ipv6Address("fcbb:bb00::"));
    EXPECT_EQ(last.innerDst, Ipv6Address("fd00:2::2"));
    EXPECT_EQ(last.packetBytes, 40u + 40 + 8 + 100);
}

TEST(Srv6Forwarding, ForeignOrUnknownAddressesHaveNoRoute)
{
    Ptr<MrcSrv6Forwarding> f = Switch(0x0101);
    f->AddUsidRoute(0x1201, 4);
    auto route = [&f](Ipv6Address dst) {
        MrcPacketInfo info;
        info.dst = dst;
        const int32_t port = f->Route(info, 0);
        if (port == MrcForwarding::NO_ROUTE)
        {
            EXPECT_EQ(info.dst, dst); // unchanged without a route
            EXPECT_FALSE(info.rewriteDst);
        }
        return port;
    };
    EXPECT_EQ(route(Carrier({0x0999, 0x1201})), MrcForwarding::NO_ROUTE); // not this switch
    EXPECT_EQ(route(Ipv6Address("fcbb:bc00:101:1201::")), MrcForwarding::NO_ROUTE); // locator
    EXPECT_EQ(route(Carrier({0x0101, 0x1299})), MrcForwarding::NO_ROUTE);           // unknown next
    EXPECT_EQ(route(Carrier({0x0101})), MrcForwarding::NO_ROUTE);                   // ends here
    EXPECT_EQ(f->GetNoRouteCount(), 4u);
    // Static: a port failure changes nothing.
    f->SetPortState(4, false);
    EXPECT_EQ(route(Carrier({0x0101, 0x1201})), 4);
    // Another locator block.
    Ptr<MrcSrv6Forwarding> g = Switch(0x0101);
    g->SetAttribute("LocatorBlock", UintegerValue(0xfcbbbc00));
    g->AddUsidRoute(0x1201, 3);
    MrcPacketInfo info;
    info.dst = Ipv6Address("fcbb:bc00:101:1201::");
    EXPECT_EQ(g->Route(info, 0), 3);
    EXPECT_EQ(info.dst, Ipv6Address("fcbb:bc00:1201::"));
}

TEST(ForwardingDeathTest, BadConfigurationsAbort)
{
    Ptr<MrcSrv6Forwarding> f = Switch(0x0101);
    f->AddUsidRoute(0x1201, 4);
    EXPECT_DEATH(f->AddUsidRoute(0x1201, 5), "uSID 0x1201 \\(port 5\\) is already in the table");
    EXPECT_DEATH(f->AddLocalAdjacency(0x1201, 6), "uSID 0x1201 \\(port 6\\) is already");
    EXPECT_DEATH(f->AddUsidRoute(0, 6), "uSID 0 ends a carrier");
    Ptr<MrcSrv6Forwarding> unset = CreateObject<MrcSrv6Forwarding>();
    MrcPacketInfo info;
    info.dst = Carrier({0x0101});
    EXPECT_DEATH(unset->Route(info, 0), "Usid attribute is not set");
    Ptr<MrcEcmpForwarding> e = CreateObject<MrcEcmpForwarding>();
    EXPECT_DEATH(e->AddRoute(Ipv6Address("fd00::"), 129, 1), "prefix length 129 is out of range");
    EXPECT_DEATH(e->ReplaceRoute(Ipv6Address("fd00::"), 64, {}), "empty port set");
}
