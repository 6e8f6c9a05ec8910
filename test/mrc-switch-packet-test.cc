/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the switch's packet parse (MrcParsePacket) and of trimming (MrcTrimmer).
// Packets are built with ns-3's Ipv6Header/UdpHeader and raw bytes for BTH and the
// transport extension headers; expected sizes are computed by hand in each test.

#include "mrc-test-support.h"

#include "ns3/ipv6-header.h"
#include "ns3/mrc-packet-info.h"
#include "ns3/mrc-raw-header.h"
#include "ns3/mrc-trimmer.h"
#include "ns3/socket.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <functional>
#include <gtest/gtest.h>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

/// What to put in a test packet.
struct Spec
{
    bool encap{true};        //!< IPv6-in-IPv6
    uint32_t srhSegments{0}; //!< SRH with this many segments (0: none)
    uint8_t opcode{MrcOpcode::MRC_WRITE_FIRST};
    uint8_t bthFlags{0};        //!< BTH byte 8
    uint32_t extBytes{20};      //!< extension header bytes after BTH (hand-computed)
    uint32_t payload{4096 + 4}; //!< payload and ICRC
    uint8_t dscp{MrcDscp::TRIMMABLE};
    MrcEcn ecn{MrcEcn::ECT0};
    uint16_t sport{0x1234};
    uint16_t dport{4791};
    uint32_t flowLabel{0xabcde};
};

/// The BTH and extension-header bytes (a recognizable pattern).
std::vector<uint8_t>
TransportBytes(const Spec& s)
{
    std::vector<uint8_t> b =
        {s.opcode, 0x00, 0xff, 0xff, 0x00, 0x00, 0x12, 0x34, s.bthFlags, 0x00, 0x10, 0x00};
    for (uint32_t i = 0; i < s.extBytes; ++i)
    {
        b.push_back(static_cast<uint8_t>(i * 7 + 1));
    }
    return b;
}

Ipv6Header
MakeIp(Ipv6Address src, Ipv6Address dst, uint8_t nh, uint32_t payload, const Spec& s)
{
    Ipv6Header ip;
    ip.SetSource(src);
    ip.SetDestination(dst);
    ip.SetNextHeader(nh);
    ip.SetPayloadLength(payload);
    ip.SetHopLimit(64);
    ip.SetTrafficClass(MrcMakeTrafficClass(s.dscp, s.ecn));
    ip.SetFlowLabel(s.flowLabel);
    return ip;
}

const Ipv6Address OUTER_SRC("fd00::1");
const Ipv6Address OUTER_DST("fcbb:bb00:100:200:300::");
const Ipv6Address INNER_SRC("fd00:1::1");
const Ipv6Address INNER_DST("fd00:2::2");

Ptr<Packet>
MakePacket(const Spec& s)
{
    std::vector<uint8_t> t = TransportBytes(s);
    Ptr<Packet> p = Create<Packet>(t.data(), t.size());
    p->AddAtEnd(Create<Packet>(s.payload));
    UdpHeader udp;
    udp.SetSourcePort(s.sport);
    udp.SetDestinationPort(s.dport);
    p->AddHeader(udp);
    if (!s.encap)
    {
        p->AddHeader(MakeIp(OUTER_SRC, INNER_DST, MrcIpProto::UDP, p->GetSize(), s));
        return p;
    }
    p->AddHeader(MakeIp(INNER_SRC, INNER_DST, MrcIpProto::UDP, p->GetSize(), s));
    uint8_t outerNh = MrcIpProto::IPV6;
    if (s.srhSegments > 0)
    {
        std::vector<uint8_t> srh = {MrcIpProto::IPV6,
                                    static_cast<uint8_t>(2 * s.srhSegments),
                                    MRC_SRH_ROUTING_TYPE,
                                    static_cast<uint8_t>(s.srhSegments - 1),
                                    static_cast<uint8_t>(s.srhSegments - 1),
                                    0,
                                    0,
                                    0};
        for (uint32_t i = 0; i < s.srhSegments * 16; ++i)
        {
            srh.push_back(static_cast<uint8_t>(0xa0 + i));
        }
        Ptr<Packet> q = Create<Packet>(srh.data(), srh.size());
        q->AddAtEnd(p);
        p = q;
        outerNh = MrcIpProto::ROUTING;
    }
    p->AddHeader(MakeIp(OUTER_SRC, OUTER_DST, outerNh, p->GetSize(), s));
    return p;
}

uint16_t
U16At(const std::vector<uint8_t>& b, uint32_t off)
{
    return static_cast<uint16_t>((b[off] << 8) | b[off + 1]);
}

} // namespace

TEST(PacketInfo, AddressBytesRoundTripAndOrderAsIpv6Address)
{
    const Ipv6Address a("fcbb:bb00:100:200:300::");
    const Ipv6Address b("fd00:1::1");
    const MrcIpv6Bytes ab(a);
    const MrcIpv6Bytes bb(b);
    uint8_t raw[16];
    a.GetBytes(raw);
    EXPECT_TRUE(std::equal(raw, raw + 16, ab.bytes));
    EXPECT_EQ(ab.ToAddress(), a);
    EXPECT_EQ(MrcIpv6Bytes::FromBytes(raw), ab);
    EXPECT_NE(ab, bb);
    EXPECT_EQ(ab < bb, a < b);
    EXPECT_EQ(bb < ab, b < a);
    EXPECT_EQ(MrcIpv6Bytes().ToAddress(), Ipv6Address("::"));
    std::ostringstream os;
    os << ab;
    EXPECT_EQ(os.str(), "fcbb:bb00:100:200:300::");
}

TEST(PacketInfo, MrcWriteInSrv6Encapsulation)
{
    Spec s; // MRC Write First, IPv6-in-IPv6, no TS: METH 4 + RETH 16
    Ptr<Packet> p = MakePacket(s);
    ASSERT_EQ(p->GetSize(), 40u + 40 + 8 + 12 + 20 + 4100);
    MrcPacketInfo info;
    ASSERT_TRUE(MrcParsePacket(p, info));
    EXPECT_EQ(info.packetBytes, p->GetSize());
    EXPECT_EQ(info.src, OUTER_SRC);
    EXPECT_EQ(info.dst, OUTER_DST);
    EXPECT_EQ(info.flowLabel, 0xabcdeu);
    EXPECT_EQ(info.GetDscp(), MrcDscp::TRIMMABLE);
    EXPECT_EQ(info.GetEcn(), MrcEcn::ECT0);
    EXPECT_EQ(info.nextHeader, 41);
    EXPECT_EQ(info.payloadLength, p->GetSize() - 40);
    EXPECT_FALSE(info.hasSrh);
    EXPECT_TRUE(info.encapsulated);
    EXPECT_EQ(info.innerOffset, 40);
    EXPECT_EQ(info.innerSrc, INNER_SRC);
    EXPECT_EQ(info.innerDst, INNER_DST);
    EXPECT_EQ(info.innerPayloadLength, p->GetSize() - 80);
    EXPECT_EQ(info.innerFlowLabel, 0xabcdeu);
    EXPECT_TRUE(info.hasUdp);
    EXPECT_EQ(info.udpOffset, 80);
    EXPECT_EQ(info.udpSrcPort, 0x1234);
    EXPECT_EQ(info.udpDstPort, 4791);
    EXPECT_TRUE(info.hasBth);
    EXPECT_EQ(info.bthOffset, 88);
    EXPECT_EQ(info.opcode, 0xc6);
    EXPECT_EQ(info.headerBytes, 40 + 40 + 8 + 12 + 4 + 16);
    EXPECT_FALSE(info.rewriteDst);
}

TEST(PacketInfo, HeaderBytesPerOpcode)
{
    struct Case
    {
        bool encap;
        uint8_t opcode;
        uint8_t flags;
        uint32_t ext; // hand-computed extension header bytes
    };

    const Case cases[] = {
        {false, MrcOpcode::RC_WRITE_FIRST, 0, 16},       // RETH
        {false, MrcOpcode::RC_WRITE_MIDDLE, 0, 0},       // BTH only
        {false, MrcOpcode::RC_WRITE_LAST, 0, 0},         //
        {false, MrcOpcode::RC_WRITE_LAST_IMM, 0, 4},     // ImmDt
        {false, MrcOpcode::RC_WRITE_ONLY, 0, 16},        // RETH
        {false, MrcOpcode::RC_WRITE_ONLY_IMM, 0, 20},    // RETH + ImmDt
        {false, MrcOpcode::RC_ACK, 0, 4},                // AETH
        {false, MrcOpcode::ROCE_CNP, 0, 16},             // reserved
        {true, MrcOpcode::MRC_WRITE_MIDDLE, 0, 20},      // METH + RETH
        {true, MrcOpcode::MRC_WRITE_MIDDLE, 0x10, 24},   // METH + TSETH + RETH
        {true, MrcOpcode::MRC_WRITE_MIDDLE, 0xe0, 20},   // A, R, RTX do not add headers
        {true, MrcOpcode::MRC_WRITE_LAST_IMM, 0, 24},    // METH + RETH + ImmDt
        {true, MrcOpcode::MRC_WRITE_ONLY, 0x10, 24},     // METH + TSETH + RETH
        {true, MrcOpcode::MRC_WRITE_ONLY_IMM, 0x10, 28}, // METH + TSETH + RETH + ImmDt
        {true, MrcOpcode::MRC_SACK, 0, 36},              // SETH + CC_STATE
        {true, MrcOpcode::MRC_NACK, 0, 20},              // NETH
        {true, MrcOpcode::MRC_PROBE, 0, 16},             // PETH
    };
    for (const Case& c : cases)
    {
        Spec s;
        s.encap = c.encap;
        s.opcode = c.opcode;
        s.bthFlags = c.flags;
        s.extBytes = c.ext;
        s.payload = 100;
        Ptr<Packet> p = MakePacket(s);
        MrcPacketInfo info;
        ASSERT_TRUE(MrcParsePacket(p, info)) << "opcode 0x" << std::hex << unsigned(c.opcode);
        const uint32_t ip = c.encap ? 80 : 40;
        EXPECT_EQ(info.headerBytes, ip + 8 + 12 + c.ext)
            << "opcode 0x" << std::hex << unsigned(c.opcode) << " flags 0x" << unsigned(c.flags);
        EXPECT_EQ(info.bthFlags, c.flags);
        EXPECT_EQ(info.encapsulated, c.encap);
    }
}

TEST(PacketInfo, SegmentRoutingHeaderIsRecorded)
{
    Spec s;
    s.srhSegments = 2; // 8 + 2 x 16 = 40 bytes
    s.bthFlags = MRC_BTH_FLAG_TS;
    s.extBytes = 24;
    Ptr<Packet> p = MakePacket(s);
    MrcPacketInfo info;
    ASSERT_TRUE(MrcParsePacket(p, info));
    EXPECT_EQ(info.nextHeader, 43);
    EXPECT_TRUE(info.hasSrh);
    EXPECT_EQ(info.srhOffset, 40);
    EXPECT_EQ(info.srhLength, 40);
    EXPECT_EQ(info.srhSegmentsLeft, 1);
    EXPECT_TRUE(info.encapsulated);
    EXPECT_EQ(info.innerOffset, 80);
    EXPECT_EQ(info.innerDst, INNER_DST);
    EXPECT_EQ(info.udpOffset, 120);
    EXPECT_EQ(info.bthOffset, 128);
    EXPECT_EQ(info.headerBytes, 40 + 40 + 40 + 8 + 12 + 24);
}

TEST(PacketInfo, BthOnlyOnTheConfiguredPort)
{
    Spec s;
    s.encap = false;
    s.dport = 4971;
    Ptr<Packet> p = MakePacket(s);
    MrcPacketInfo info;
    ASSERT_TRUE(MrcParsePacket(p, info));
    EXPECT_TRUE(info.hasUdp);
    EXPECT_FALSE(info.hasBth);
    EXPECT_EQ(info.headerBytes, 48); // through UDP
    ASSERT_TRUE(MrcParsePacket(p, info, 4971));
    EXPECT_TRUE(info.hasBth);
    EXPECT_EQ(info.headerBytes, 40 + 8 + 12 + 4 + 16);
}

TEST(PacketInfo, RejectsTruncatedAndNonIpv6)
{
    Spec s; // headers 120 bytes
    Ptr<Packet> p = MakePacket(s);
    MrcPacketInfo info;
    EXPECT_FALSE(MrcParsePacket(p->CreateFragment(0, 110), info));
    EXPECT_EQ(info.headerBytes, 120); // what the opcode announced
    EXPECT_TRUE(MrcParsePacket(p->CreateFragment(0, 120), info));
    EXPECT_FALSE(MrcParsePacket(p->CreateFragment(0, 39), info));
    std::vector<uint8_t> v4(60, 0);
    v4[0] = 0x45;
    EXPECT_FALSE(MrcParsePacket(Create<Packet>(v4.data(), v4.size()), info));
}

/// Every field of a parse result, as text (for comparing two parses).
std::string
Fields(const MrcPacketInfo& i)
{
    std::ostringstream os;
    os << i.src << ' ' << i.dst << ' ' << i.flowLabel << ' ' << i.packetBytes << ' '
       << i.payloadLength << ' ' << unsigned(i.trafficClass) << ' ' << unsigned(i.nextHeader) << ' '
       << unsigned(i.hopLimit) << " srh " << i.hasSrh << ' ' << unsigned(i.srhSegmentsLeft) << ' '
       << i.srhOffset << ' ' << i.srhLength << " inner " << i.encapsulated << ' '
       << unsigned(i.innerTrafficClass) << ' ' << i.innerOffset << ' ' << i.innerPayloadLength
       << ' ' << i.innerFlowLabel << ' ' << i.innerSrc << ' ' << i.innerDst << " udp " << i.hasUdp
       << ' ' << i.udpOffset << ' ' << i.udpSrcPort << ' ' << i.udpDstPort << " bth " << i.hasBth
       << ' ' << unsigned(i.opcode) << ' ' << unsigned(i.bthFlags) << ' ' << i.bthOffset << ' '
       << i.headerBytes << ' ' << i.rewriteDst << ' ' << unsigned(i.dstShifts);
    return os.str();
}

TEST(PacketInfo, EqualityComparesEveryField)
{
    // one change per field of MrcPacketInfo: each makes a copy unequal to the original
    const std::vector<std::function<void(MrcPacketInfo&)>> changes = {
        [](MrcPacketInfo& i) { i.src.bytes[15] ^= 1; },
        [](MrcPacketInfo& i) { i.dst.bytes[0] ^= 1; },
        [](MrcPacketInfo& i) { i.flowLabel ^= 1; },
        [](MrcPacketInfo& i) { i.packetBytes ^= 1; },
        [](MrcPacketInfo& i) { i.payloadLength ^= 1; },
        [](MrcPacketInfo& i) { i.trafficClass ^= 1; },
        [](MrcPacketInfo& i) { i.nextHeader ^= 1; },
        [](MrcPacketInfo& i) { i.hopLimit ^= 1; },
        [](MrcPacketInfo& i) { i.hasSrh = !i.hasSrh; },
        [](MrcPacketInfo& i) { i.srhSegmentsLeft ^= 1; },
        [](MrcPacketInfo& i) { i.srhOffset ^= 1; },
        [](MrcPacketInfo& i) { i.srhLength ^= 1; },
        [](MrcPacketInfo& i) { i.encapsulated = !i.encapsulated; },
        [](MrcPacketInfo& i) { i.innerTrafficClass ^= 1; },
        [](MrcPacketInfo& i) { i.innerOffset ^= 1; },
        [](MrcPacketInfo& i) { i.innerPayloadLength ^= 1; },
        [](MrcPacketInfo& i) { i.innerFlowLabel ^= 1; },
        [](MrcPacketInfo& i) { i.innerSrc.bytes[7] ^= 1; },
        [](MrcPacketInfo& i) { i.innerDst.bytes[8] ^= 1; },
        [](MrcPacketInfo& i) { i.hasUdp = !i.hasUdp; },
        [](MrcPacketInfo& i) { i.udpOffset ^= 1; },
        [](MrcPacketInfo& i) { i.udpSrcPort ^= 1; },
        [](MrcPacketInfo& i) { i.udpDstPort ^= 1; },
        [](MrcPacketInfo& i) { i.hasBth = !i.hasBth; },
        [](MrcPacketInfo& i) { i.opcode ^= 1; },
        [](MrcPacketInfo& i) { i.bthFlags ^= 1; },
        [](MrcPacketInfo& i) { i.bthOffset ^= 1; },
        [](MrcPacketInfo& i) { i.headerBytes ^= 1; },
        [](MrcPacketInfo& i) { i.rewriteDst = !i.rewriteDst; },
        [](MrcPacketInfo& i) { i.dstShifts ^= 1; },
    };
    MrcPacketInfo base;
    ASSERT_TRUE(MrcParsePacket(MakePacket(Spec()), base));
    EXPECT_TRUE(base == base);
    for (std::size_t k = 0; k < changes.size(); ++k)
    {
        MrcPacketInfo changed = base;
        changes[k](changed);
        EXPECT_FALSE(changed == base) << "change " << k;
        EXPECT_FALSE(base == changed) << "change " << k;
    }
}

TEST(PacketInfo, ParseOfBytesReadBeforeEqualsTheParseOfThePacket)
{
    // A device hands its owner the packet's first bytes (MrcRxHead); the parse of those
    // must be the parse of the packet, whether the headers fit in them or not. Bytes past
    // the ones handed over are junk here: the parse must not read them.
    std::vector<Ptr<Packet>> packets;
    Spec s;
    packets.push_back(MakePacket(s)); // 120 header bytes
    s.srhSegments = 2;
    s.bthFlags = MRC_BTH_FLAG_TS;
    s.extBytes = 24;
    packets.push_back(MakePacket(s)); // 164
    s.srhSegments = 8;
    packets.push_back(MakePacket(s)); // 8 + 128 SRH: 260 header bytes, past 192
    Spec plain;
    plain.encap = false;
    plain.dport = 4971; // no BTH on the default port
    packets.push_back(MakePacket(plain));
    packets.push_back(MakePacket(Spec())->CreateFragment(0, 110)); // shorter than its headers
    packets.push_back(MakePacket(Spec())->CreateFragment(0, 39));  // shorter than IPv6
    std::vector<uint8_t> v4(60, 0);
    v4[0] = 0x45;
    packets.push_back(Create<Packet>(v4.data(), v4.size())); // not IPv6
    int parsedWhole = 0;
    for (std::size_t k = 0; k < packets.size(); ++k)
    {
        const Ptr<Packet>& p = packets[k];
        for (uint16_t port : {uint16_t(MRC_ROCEV2_UDP_PORT), uint16_t(4971)})
        {
            MrcPacketInfo whole;
            const bool okWhole = MrcParsePacket(p, whole, port);
            parsedWhole += okWhole;
            for (uint32_t n : {0u, 1u, 40u, 41u, 64u, 110u, 120u, 150u, 192u, 300u, 400u})
            {
                n = std::min(n, p->GetSize());
                std::vector<uint8_t> head(512, 0xee);
                p->CopyData(head.data(), n);
                MrcPacketInfo fromHead;
                fromHead.rewriteDst = true; // reset by the parse
                const bool ok = MrcParsePacket(*p, head.data(), n, fromHead, port);
                EXPECT_EQ(ok, okWhole)
                    << "packet " << k << ", port " << port << ", " << n << " bytes read before";
                EXPECT_EQ(Fields(fromHead), Fields(whole))
                    << "packet " << k << ", port " << port << ", " << n << " bytes read before";
                EXPECT_TRUE(fromHead == whole);
            }
        }
    }
    EXPECT_EQ(parsedWhole, 9); // packets 0-3 on both ports, packet 4 without its BTH
}

TEST(PacketInfo, Ipv6WithDestinationRebuildsTheParsedHeader)
{
    Spec s; // traffic class, flow label and hop limit all non-zero
    Ptr<Packet> p = MakePacket(s);
    MrcPacketInfo info;
    ASSERT_TRUE(MrcParsePacket(p, info));
    EXPECT_EQ(info.hopLimit, 64);
    info.dst = Ipv6Address("fcbb:bb00:200:300::");
    uint8_t rebuilt[MRC_IPV6_HEADER_BYTES];
    MrcIpv6WithDestination(info, rebuilt);
    // the same bytes as the packet's header with its destination rewritten in place
    MrcWriteDestination(p, info);
    const std::vector<uint8_t> written = MrcTest::PacketBytes(p);
    ASSERT_GE(written.size(), MRC_IPV6_HEADER_BYTES);
    EXPECT_TRUE(std::equal(rebuilt, rebuilt + MRC_IPV6_HEADER_BYTES, written.begin()));
}

TEST(PacketInfo, WriteDestinationRewritesOnlyTheOuterDa)
{
    Spec s;
    Ptr<Packet> p = MakePacket(s);
    std::vector<uint8_t> before = MrcTest::PacketBytes(p);
    MrcPacketInfo info;
    ASSERT_TRUE(MrcParsePacket(p, info));
    info.dst = Ipv6Address("fcbb:bb00:200:300::");
    MrcWriteDestination(p, info);
    std::vector<uint8_t> after = MrcTest::PacketBytes(p);
    ASSERT_EQ(after.size(), before.size());
    const uint8_t expected[16] = {0xfc, 0xbb, 0xbb, 0x00, 0x02, 0x00, 0x03, 0x00};
    for (uint32_t i = 0; i < after.size(); ++i)
    {
        if (i >= 24 && i < 40)
        {
            EXPECT_EQ(after[i], expected[i - 24]) << "byte " << i;
        }
        else
        {
            EXPECT_EQ(after[i], before[i]) << "byte " << i;
        }
    }
}

TEST(PacketInfo, AddIpv6HeaderMatchesIpv6AndUdpHeaders)
{
    // Reference: ns-3's own headers, added one by one.
    Ptr<Packet> ref = Create<Packet>(10);
    UdpHeader udp;
    udp.SetSourcePort(0xc123);
    udp.SetDestinationPort(4791);
    udp.ForcePayloadSize(22);
    ref->AddHeader(udp);
    Ipv6Header ip;
    ip.SetTrafficClass(0x6a);
    ip.SetFlowLabel(0xabcde);
    ip.SetPayloadLength(22);
    ip.SetNextHeader(17);
    ip.SetHopLimit(64);
    ip.SetSource(Ipv6Address("2001:db8::1"));
    ip.SetDestination(Ipv6Address("fcbb:bb00:100:200::"));
    ref->AddHeader(ip);

    Ptr<Packet> p = Create<Packet>(10);
    const uint8_t udpBytes[8] = {0xc1, 0x23, 0x12, 0xb7, 0x00, 22, 0x00, 0x00};
    MrcIpv6Fields f;
    f.trafficClass = 0x6a;
    f.flowLabel = 0xabcde;
    f.payloadLength = 22;
    f.nextHeader = 17;
    f.src = Ipv6Address("2001:db8::1");
    f.dst = Ipv6Address("fcbb:bb00:100:200::");
    MrcAddIpv6Header(p, f, udpBytes, sizeof(udpBytes));
    ASSERT_EQ(p->GetSize(), 58u);
    EXPECT_EQ(MrcTest::PacketBytes(p), MrcTest::PacketBytes(ref));
    const std::vector<uint8_t> b = MrcTest::PacketBytes(p);
    EXPECT_EQ(b[0], 0x66); // version 6, upper traffic-class nibble
    EXPECT_EQ(b[1], 0xaa); // lower traffic-class nibble, flow label bits 19..16
}

TEST(PacketInfo, AddHeadersMatchesOneByOne)
{
    UdpHeader inner;
    inner.SetSourcePort(1);
    inner.SetDestinationPort(2);
    inner.ForcePayloadSize(8);
    Ipv6Header outer;
    outer.SetPayloadLength(8);
    outer.SetNextHeader(17);
    outer.SetSource(Ipv6Address("2001:db8::2"));
    outer.SetDestination(Ipv6Address("2001:db8::3"));

    Ptr<Packet> ref = Create<Packet>();
    ref->AddHeader(inner);
    ref->AddHeader(outer);
    // MrcAddHeaders takes the module's headers (MrcWireHeader): the ns-3 headers' bytes
    // go in as raw headers.
    Ptr<Packet> innerOnly = Create<Packet>();
    innerOnly->AddHeader(inner);
    MrcRawHeader innerRaw;
    ASSERT_TRUE(innerRaw.CopyFrom(*innerOnly, 8));
    Ptr<Packet> outerOnly = Create<Packet>();
    outerOnly->AddHeader(outer);
    MrcRawHeader outerRaw;
    ASSERT_TRUE(outerRaw.CopyFrom(*outerOnly, 40));
    Ptr<Packet> p = Create<Packet>();
    MrcAddHeaders(p, {&outerRaw, nullptr, &innerRaw});
    ASSERT_EQ(p->GetSize(), 48u);
    EXPECT_EQ(MrcTest::PacketBytes(p), MrcTest::PacketBytes(ref));
}

namespace
{

Ptr<MrcTrimmer>
HeaderOnlyTrimmer()
{
    Ptr<MrcTrimmer> t = CreateObject<MrcTrimmer>();
    t->SetAttribute("TrimSize", UintegerValue(0));
    return t;
}

} // namespace

TEST(Trimmer, MrcWriteKeepsExactlyItsHeaders)
{
    Spec s;
    s.opcode = MrcOpcode::MRC_WRITE_ONLY_IMM;
    s.bthFlags = MRC_BTH_FLAG_TS;
    s.extBytes = 4 + 4 + 16 + 4; // METH TSETH RETH ImmDt
    s.ecn = MrcEcn::ECT1;
    Ptr<Packet> p = MakePacket(s);
    SocketPriorityTag tag;
    tag.SetPriority(5);
    p->AddPacketTag(tag);
    const std::vector<uint8_t> original = MrcTest::PacketBytes(p);
    MrcPacketInfo info;
    ASSERT_TRUE(MrcParsePacket(p, info));

    Ptr<MrcTrimmer> trimmer = HeaderOnlyTrimmer();
    Ptr<Packet> t = trimmer->Trim(p, info, false);
    const uint32_t headers = 40 + 40 + 8 + 12 + 28; // 128
    ASSERT_EQ(t->GetSize(), headers);
    EXPECT_EQ(p->GetSize(), original.size()); // the original is untouched
    EXPECT_EQ(MrcTest::PacketBytes(p), original);

    // Lengths: outer payload 88, inner payload 48, UDP 48; DSCP 11 on both headers.
    Ipv6Header outer;
    t->RemoveHeader(outer);
    EXPECT_EQ(outer.GetPayloadLength(), headers - 40);
    EXPECT_EQ(MrcGetDscp(outer), MrcDscp::TRIMMED);
    EXPECT_EQ(MrcGetEcn(outer), MrcEcn::ECT1);
    EXPECT_EQ(outer.GetFlowLabel(), 0xabcdeu);
    EXPECT_EQ(outer.GetDestination(), OUTER_DST);
    Ipv6Header inner;
    t->RemoveHeader(inner);
    EXPECT_EQ(inner.GetPayloadLength(), headers - 80);
    EXPECT_EQ(MrcGetDscp(inner), MrcDscp::TRIMMED);
    EXPECT_EQ(inner.GetDestination(), INNER_DST);
    std::vector<uint8_t> rest = MrcTest::PacketBytes(t);
    EXPECT_EQ(U16At(rest, 4), headers - 80); // UDP length
    EXPECT_EQ(U16At(rest, 6), 0);            // checksum kept (0)
    // BTH and extension headers byte for byte
    for (uint32_t i = 8; i < rest.size(); ++i)
    {
        EXPECT_EQ(rest[i], original[80 + i]) << "byte " << 80 + i;
    }

    Ptr<Packet> again = trimmer->Trim(p, info, false);
    SocketPriorityTag kept;
    ASSERT_TRUE(again->PeekPacketTag(kept));
    EXPECT_EQ(kept.GetPriority(), 5);
    MrcPacketInfo back;
    ASSERT_TRUE(MrcParsePacket(again, back));
    EXPECT_EQ(back.headerBytes, headers);
    EXPECT_EQ(back.packetBytes, headers);
    EXPECT_EQ(back.opcode, MrcOpcode::MRC_WRITE_ONLY_IMM);
    EXPECT_EQ(back.GetDscp(), MrcDscp::TRIMMED);
    EXPECT_EQ(MrcDscpOf(back.innerTrafficClass), MrcDscp::TRIMMED);
    EXPECT_EQ(back.payloadLength, headers - 40);
    EXPECT_EQ(back.innerPayloadLength, headers - 80);
    EXPECT_EQ(trimmer->GetTrimCount(), 2u);
    EXPECT_EQ(trimmer->GetLastHopTrimCount(), 0u);
}

TEST(Trimmer, RoceWriteTowardAHostIsRemarkedLastHop)
{
    Spec s;
    s.encap = false;
    s.opcode = MrcOpcode::RC_WRITE_FIRST;
    s.extBytes = 16; // RETH
    s.payload = 1000 + 4;
    Ptr<Packet> p = MakePacket(s);
    MrcPacketInfo info;
    ASSERT_TRUE(MrcParsePacket(p, info));
    Ptr<MrcTrimmer> trimmer = HeaderOnlyTrimmer();
    Ptr<Packet> t = trimmer->Trim(p, info, true);
    const uint32_t headers = 40 + 8 + 12 + 16; // 76
    ASSERT_EQ(t->GetSize(), headers);
    std::vector<uint8_t> b = MrcTest::PacketBytes(t);
    EXPECT_EQ(U16At(b, 4), headers - 40);  // IPv6 payload length
    EXPECT_EQ(U16At(b, 44), headers - 40); // UDP length
    Ipv6Header ip;
    t->PeekHeader(ip);
    EXPECT_EQ(MrcGetDscp(ip), MrcDscp::TRIMMED_LASTHOP);
    EXPECT_EQ(MrcGetEcn(ip), MrcEcn::ECT0);
    EXPECT_EQ(trimmer->GetLastHopTrimCount(), 1u);
    MrcPacketInfo back;
    ASSERT_TRUE(MrcParsePacket(t, back));
    EXPECT_EQ(back.headerBytes, headers);
    EXPECT_EQ(back.GetDscp(), 21);
}

TEST(Trimmer, FixedTrimSizeKeepsPayloadBytes)
{
    Spec s;
    s.srhSegments = 1; // 24-byte SRH
    Ptr<Packet> p = MakePacket(s);
    MrcPacketInfo info;
    ASSERT_TRUE(MrcParsePacket(p, info));
    ASSERT_EQ(info.headerBytes, 40 + 24 + 40 + 8 + 12 + 20);
    Ptr<MrcTrimmer> trimmer = CreateObject<MrcTrimmer>(); // TrimSize 256 by default
    Ptr<Packet> t = trimmer->Trim(p, info, false);
    ASSERT_EQ(t->GetSize(), 256u);
    std::vector<uint8_t> b = MrcTest::PacketBytes(t);
    std::vector<uint8_t> o = MrcTest::PacketBytes(p);
    EXPECT_EQ(U16At(b, 4), 256 - 40);
    EXPECT_EQ(U16At(b, 64 + 4), 256 - 64 - 40); // inner payload length
    EXPECT_EQ(U16At(b, 104 + 4), 256 - 104);    // UDP length
    EXPECT_EQ(b[6], 43);                        // outer next header still SRH
    for (uint32_t i = 40; i < 64; ++i)          // SRH unchanged
    {
        EXPECT_EQ(b[i], o[i]) << "byte " << i;
    }
    MrcPacketInfo back;
    ASSERT_TRUE(MrcParsePacket(t, back));
    EXPECT_TRUE(back.hasSrh);
    EXPECT_EQ(back.GetDscp(), MrcDscp::TRIMMED);

    // A packet shorter than TrimSize is kept whole, but re-marked.
    Spec small;
    small.payload = 40; // 120 + 40 = 160 bytes
    Ptr<Packet> q = MakePacket(small);
    ASSERT_TRUE(MrcParsePacket(q, info));
    Ptr<Packet> tq = trimmer->Trim(q, info, false);
    ASSERT_EQ(tq->GetSize(), 160u);
    b = MrcTest::PacketBytes(tq);
    EXPECT_EQ(U16At(b, 4), 120);
    EXPECT_EQ(MrcDscpOf(static_cast<uint8_t>(((b[0] & 0xf) << 4) | (b[1] >> 4))), MrcDscp::TRIMMED);
}

TEST(Trimmer, DecisionsAndHeaderQueueBound)
{
    Ptr<MrcTrimmer> trimmer = CreateObject<MrcTrimmer>();
    trimmer->SetAttribute("TrimThreshold", UintegerValue(10000));
    trimmer->SetAttribute("HeaderQueueLimit", UintegerValue(1000));
    Spec s;
    Ptr<Packet> p = MakePacket(s); // 4220 bytes
    MrcPacketInfo info;
    ASSERT_TRUE(MrcParsePacket(p, info));
    EXPECT_TRUE(trimmer->IsTrimmable(info));
    EXPECT_FALSE(trimmer->ShouldTrim(info, 5780)); // 5780 + 4220 = 10000, not above
    EXPECT_TRUE(trimmer->ShouldTrim(info, 5781));

    s.dscp = MrcDscp::TRIMMABLE_RETX;
    ASSERT_TRUE(MrcParsePacket(MakePacket(s), info));
    EXPECT_TRUE(trimmer->ShouldTrim(info, 9000));
    s.dscp = MrcDscp::CONTROL;
    ASSERT_TRUE(MrcParsePacket(MakePacket(s), info));
    EXPECT_FALSE(trimmer->ShouldTrim(info, 9000));
    trimmer->SetTrimmable(MrcDscp::CONTROL, true);
    EXPECT_TRUE(trimmer->ShouldTrim(info, 9000));
    trimmer->SetTrimmable(MrcDscp::TRIMMABLE, false);
    s.dscp = MrcDscp::TRIMMABLE;
    ASSERT_TRUE(MrcParsePacket(MakePacket(s), info));
    EXPECT_FALSE(trimmer->IsTrimmable(info));

    EXPECT_TRUE(trimmer->AdmitHeader(876, 124)); // 1000: fits exactly
    EXPECT_FALSE(trimmer->AdmitHeader(877, 124));
    EXPECT_EQ(trimmer->GetHeaderDropCount(), 1u);
    EXPECT_EQ(trimmer->GetTrimmedDscp(false), 11);
    EXPECT_EQ(trimmer->GetTrimmedDscp(true), 21);
}

TEST(TrimmerDeathTest, TrimSizeBelowTheHeadersAborts)
{
    Spec s;
    s.bthFlags = MRC_BTH_FLAG_TS;
    s.extBytes = 24; // headers: 124 bytes
    Ptr<Packet> p = MakePacket(s);
    MrcPacketInfo info;
    ASSERT_TRUE(MrcParsePacket(p, info));
    Ptr<MrcTrimmer> trimmer = CreateObject<MrcTrimmer>();
    trimmer->SetAttribute("TrimSize", UintegerValue(100));
    EXPECT_DEATH(trimmer->Trim(p, info, false), "TrimSize 100 B cuts into the headers.*124 B");
}
