/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Big-endian byte reads and writes (MrcByteIo), the raw-bytes header (MrcRawHeader) and
// the bytes the module's headers lay out (MrcWireHeader::WriteTo).

#include "ns3/buffer.h"
#include "ns3/ethernet-header.h"
#include "ns3/ipv6-header.h"
#include "ns3/mac48-address.h"
#include "ns3/mrc-aeth-header.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-byte-io.h"
#include "ns3/mrc-cc-state-header.h"
#include "ns3/mrc-cnp-header.h"
#include "ns3/mrc-eeth-header.h"
#include "ns3/mrc-erth-header.h"
#include "ns3/mrc-imm-dt-header.h"
#include "ns3/mrc-meth-header.h"
#include "ns3/mrc-neth-header.h"
#include "ns3/mrc-opcodes.h"
#include "ns3/mrc-packet-info.h"
#include "ns3/mrc-peth-header.h"
#include "ns3/mrc-raw-header.h"
#include "ns3/mrc-reth-header.h"
#include "ns3/mrc-seth-header.h"
#include "ns3/mrc-tseth-header.h"
#include "ns3/mrc-wire-header.h"
#include "ns3/packet.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <gtest/gtest.h>
#include <sstream>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/// Guard bytes around a field, to catch writes outside it.
constexpr uint8_t GUARD = 0xA5;

/// A field of `width` bytes written by `write` at offset 1 of a guarded array.
template <typename W>
std::array<uint8_t, 10>
Written(W write)
{
    std::array<uint8_t, 10> a;
    a.fill(GUARD);
    write(a.data() + 1);
    return a;
}

/// Every byte of a packet.
std::vector<uint8_t>
PacketBytes(Ptr<const Packet> p)
{
    std::vector<uint8_t> v(p->GetSize());
    p->CopyData(v.data(), v.size());
    return v;
}

} // namespace

TEST(ByteIo, ReadsKnownValuesMostSignificantByteFirst)
{
    const uint8_t b[8] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef};
    EXPECT_EQ(MrcByteIo::ReadU8(b), 0x01u);
    EXPECT_EQ(MrcByteIo::ReadU16(b), 0x0123u);
    EXPECT_EQ(MrcByteIo::ReadU24(b), 0x012345u);
    EXPECT_EQ(MrcByteIo::ReadU32(b), 0x01234567u);
    EXPECT_EQ(MrcByteIo::ReadU48(b), 0x0123456789abULL);
    EXPECT_EQ(MrcByteIo::ReadU64(b), 0x0123456789abcdefULL);
    EXPECT_EQ(MrcByteIo::ReadLeU32(b), 0x67452301u);
    // at an odd (unaligned) offset
    EXPECT_EQ(MrcByteIo::ReadU16(b + 1), 0x2345u);
    EXPECT_EQ(MrcByteIo::ReadU24(b + 5), 0xabcdefu);
    EXPECT_EQ(MrcByteIo::ReadU32(b + 3), 0x6789abcdu);
    EXPECT_EQ(MrcByteIo::ReadU48(b + 1), 0x23456789abcdULL);
}

TEST(ByteIo, WritesExactBytesAndNothingAround)
{
    using A = std::array<uint8_t, 10>;
    const uint8_t G = GUARD;
    EXPECT_EQ(Written([](uint8_t* b) { MrcByteIo::WriteU8(b, 0x5a); }),
              (A{G, 0x5a, G, G, G, G, G, G, G, G}));
    EXPECT_EQ(Written([](uint8_t* b) { MrcByteIo::WriteU16(b, 0x1234); }),
              (A{G, 0x12, 0x34, G, G, G, G, G, G, G}));
    // 24 and 48 bits: the bits above the field are dropped
    EXPECT_EQ(Written([](uint8_t* b) { MrcByteIo::WriteU24(b, 0xff123456u); }),
              (A{G, 0x12, 0x34, 0x56, G, G, G, G, G, G}));
    EXPECT_EQ(Written([](uint8_t* b) { MrcByteIo::WriteU32(b, 0xdeadbeefu); }),
              (A{G, 0xde, 0xad, 0xbe, 0xef, G, G, G, G, G}));
    EXPECT_EQ(Written([](uint8_t* b) { MrcByteIo::WriteU48(b, 0xffff0a0b0c0d0e0fULL); }),
              (A{G, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, G, G, G}));
    EXPECT_EQ(Written([](uint8_t* b) { MrcByteIo::WriteU64(b, 0x0102030405060708ULL); }),
              (A{G, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, G}));
    EXPECT_EQ(Written([](uint8_t* b) { MrcByteIo::WriteLeU32(b, 0xdeadbeefu); }),
              (A{G, 0xef, 0xbe, 0xad, 0xde, G, G, G, G, G}));
}

TEST(ByteIo, RoundTripsEdgeValuesOfEveryWidth)
{
    uint8_t b[8];
    for (uint64_t v : {0ULL,
                       1ULL,
                       0x80ULL,
                       0xffULL,
                       0x100ULL,
                       0x8000ULL,
                       0xffffULL,
                       0x800000ULL,
                       0xffffffULL,
                       0x80000000ULL,
                       0xffffffffULL,
                       0x800000000000ULL,
                       0xffffffffffffULL,
                       0x8000000000000000ULL,
                       0xffffffffffffffffULL,
                       0x0123456789abcdefULL})
    {
        MrcByteIo::WriteU8(b, static_cast<uint8_t>(v));
        EXPECT_EQ(MrcByteIo::ReadU8(b), v & 0xff) << std::hex << v;
        MrcByteIo::WriteU16(b, static_cast<uint16_t>(v));
        EXPECT_EQ(MrcByteIo::ReadU16(b), v & 0xffff) << std::hex << v;
        MrcByteIo::WriteU24(b, static_cast<uint32_t>(v));
        EXPECT_EQ(MrcByteIo::ReadU24(b), v & 0xffffff) << std::hex << v;
        MrcByteIo::WriteU32(b, static_cast<uint32_t>(v));
        EXPECT_EQ(MrcByteIo::ReadU32(b), v & 0xffffffff) << std::hex << v;
        MrcByteIo::WriteU48(b, v);
        EXPECT_EQ(MrcByteIo::ReadU48(b), v & 0xffffffffffffULL) << std::hex << v;
        MrcByteIo::WriteU64(b, v);
        EXPECT_EQ(MrcByteIo::ReadU64(b), v) << std::hex << v;
        MrcByteIo::WriteLeU32(b, static_cast<uint32_t>(v));
        EXPECT_EQ(MrcByteIo::ReadLeU32(b), v & 0xffffffff) << std::hex << v;
    }
}

TEST(ByteIo, AgreesWithBufferIterator)
{
    // The array functions give the bytes ns-3's own network-order writes give.
    Buffer buf;
    buf.AddAtStart(14);
    Buffer::Iterator i = buf.Begin();
    i.WriteHtonU16(0xbeef);
    i.WriteHtonU32(0x01020304u);
    i.WriteHtonU64(0xa1a2a3a4a5a6a7a8ULL);
    uint8_t got[14];
    buf.CopyData(got, 14);
    uint8_t mine[14];
    MrcByteIo::WriteU16(mine, 0xbeef);
    MrcByteIo::WriteU32(mine + 2, 0x01020304u);
    MrcByteIo::WriteU64(mine + 6, 0xa1a2a3a4a5a6a7a8ULL);
    EXPECT_EQ(std::vector<uint8_t>(got, got + 14), std::vector<uint8_t>(mine, mine + 14));
    EXPECT_EQ(MrcByteIo::ReadU16(got), 0xbeefu);
    EXPECT_EQ(MrcByteIo::ReadU32(got + 2), 0x01020304u);
    EXPECT_EQ(MrcByteIo::ReadU64(got + 6), 0xa1a2a3a4a5a6a7a8ULL);
}

TEST(ByteIo, IteratorFieldsOf24And48Bits)
{
    Buffer buf;
    buf.AddAtStart(9);
    Buffer::Iterator w = buf.Begin();
    MrcByteIo::WriteU24(w, 0xaa123456u);
    MrcByteIo::WriteU48(w, 0xbbbb010203040506ULL);
    EXPECT_EQ(w.GetDistanceFrom(buf.Begin()), 9u);
    uint8_t got[9];
    buf.CopyData(got, 9);
    const uint8_t want[9] = {0x12, 0x34, 0x56, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06};
    EXPECT_EQ(std::vector<uint8_t>(got, got + 9), std::vector<uint8_t>(want, want + 9));
    Buffer::Iterator r = buf.Begin();
    EXPECT_EQ(MrcByteIo::ReadU24(r), 0x123456u);
    EXPECT_EQ(MrcByteIo::ReadU48(r), 0x010203040506ULL);
    EXPECT_EQ(r.GetDistanceFrom(buf.Begin()), 9u);
}

TEST(RawHeader, WritesItsBytesAndReadsThemBack)
{
    Ptr<Packet> p = Create<Packet>(100);
    MrcRawHeader h(5);
    EXPECT_EQ(h.GetSerializedSize(), 5u);
    const uint8_t bytes[5] = {1, 2, 3, 4, 5};
    std::copy(bytes, bytes + 5, h.Bytes());
    p->AddHeader(h);
    EXPECT_EQ(p->GetSize(), 105u);
    const std::vector<uint8_t> v = PacketBytes(p);
    EXPECT_EQ(std::vector<uint8_t>(v.begin(), v.begin() + 5),
              std::vector<uint8_t>(bytes, bytes + 5));
    EXPECT_EQ(v[5], 0u); // the payload behind it

    MrcRawHeader back(3);
    EXPECT_EQ(p->RemoveHeader(back), 3u);
    EXPECT_EQ(p->GetSize(), 102u);
    EXPECT_EQ(std::vector<uint8_t>(back.Bytes(), back.Bytes() + 3),
              std::vector<uint8_t>(bytes, bytes + 3));
    EXPECT_EQ(MrcRawHeader::MAX_BYTES, 78u);
}

TEST(RawHeader, CopyFromAndReplaceStartOfRewriteInPlace)
{
    Ipv6Header ip;
    ip.SetSource(Ipv6Address("fd00::1"));
    ip.SetDestination(Ipv6Address("fd00::2"));
    ip.SetNextHeader(17);
    ip.SetPayloadLength(60);
    ip.SetHopLimit(64);
    Ptr<Packet> p = Create<Packet>(60);
    p->AddHeader(ip);

    MrcRawHeader raw;
    ASSERT_TRUE(raw.CopyFrom(*p, 40));
    EXPECT_EQ(raw.GetSize(), 40u);
    Ipv6Address("fd00::99").GetBytes(raw.Bytes() + 24);
    raw.ReplaceStartOf(p);

    // the same bytes as remove, change, add of an Ipv6Header
    Ptr<Packet> q = Create<Packet>(60);
    ip.SetDestination(Ipv6Address("fd00::99"));
    q->AddHeader(ip);
    EXPECT_EQ(p->GetSize(), 100u);
    EXPECT_EQ(PacketBytes(p), PacketBytes(q));

    // a packet shorter than asked for
    Ptr<Packet> small = Create<Packet>(10);
    EXPECT_FALSE(raw.CopyFrom(*small, 40));
    EXPECT_TRUE(raw.CopyFrom(*small, 10));
}

TEST(RawHeader, EthernetBytesMatchEthernetHeader)
{
    const Mac48Address src("02:00:00:00:00:01");
    const Mac48Address dst("02:00:00:00:00:02");
    EthernetHeader eth(false);
    eth.SetSource(src);
    eth.SetDestination(dst);
    eth.SetLengthType(0x86dd);
    Ptr<Packet> ref = Create<Packet>(50);
    ref->AddHeader(eth);

    MrcRawHeader raw(MrcRawHeader::ETHERNET_BYTES, MrcRawHeader::ETHERNET);
    dst.CopyTo(raw.Bytes());
    src.CopyTo(raw.Bytes() + 6);
    MrcByteIo::WriteU16(raw.Bytes() + 12, 0x86dd);
    Ptr<Packet> mine = Create<Packet>(50);
    mine->AddHeader(raw);
    EXPECT_EQ(PacketBytes(mine), PacketBytes(ref));

    std::ostringstream os;
    raw.Print(os);
    EXPECT_EQ(os.str(),
              "length/type=0x86dd, source=02:00:00:00:00:01, destination=02:00:00:00:00:02");
    raw.SetSize(16);
    raw.Bytes()[14] = 0x60;
    raw.Bytes()[15] = 0x0f;
    os.str("");
    raw.Print(os);
    EXPECT_EQ(os.str(),
              "length/type=0x86dd, source=02:00:00:00:00:01, destination=02:00:00:00:00:02, "
              "then 2 raw bytes: 60 0f");
    raw.SetLayout(MrcRawHeader::OPAQUE);
    EXPECT_EQ(raw.GetLayout(), MrcRawHeader::OPAQUE);
    os.str("");
    raw.Print(os);
    EXPECT_EQ(os.str().substr(0, 24), "16 raw bytes: 02 00 00 0");
    // Print leaves the stream's format as it was
    os.str("");
    os << 255;
    EXPECT_EQ(os.str(), "255");
}

TEST(RawHeader, IsRegisteredAndBuildsEmpty)
{
    TypeId tid;
    ASSERT_TRUE(TypeId::LookupByNameFailSafe("ns3::MrcRawHeader", &tid));
    EXPECT_EQ(tid.GetParent(), MrcWireHeader::GetTypeId());
    EXPECT_TRUE(tid.IsChildOf(Header::GetTypeId()));
    MrcRawHeader h;
    EXPECT_EQ(h.GetSerializedSize(), 0u);
    EXPECT_EQ(h.GetInstanceTypeId(), tid);
}

TEST(RawHeader, AddIpv6HeaderGivesIpv6HeaderBytes)
{
    // MrcAddIpv6Header builds its header with MrcRawHeader and MrcByteIo.
    MrcIpv6Fields f;
    f.trafficClass = 0xb9;
    f.flowLabel = 0xfedcb;
    f.payloadLength = 0x1234;
    f.nextHeader = 17;
    f.hopLimit = 63;
    f.src = Ipv6Address("2001:db8::1");
    f.dst = Ipv6Address("2001:db8::2");
    const uint8_t udp[8] = {0xc0, 0x01, 0x30, 0x39, 0, 8, 0, 0}; // not the RoCEv2 port
    Ptr<Packet> mine = Create<Packet>(0);
    MrcAddIpv6Header(mine, f, udp, 8);

    Ipv6Header ip;
    ip.SetTrafficClass(f.trafficClass);
    ip.SetFlowLabel(f.flowLabel);
    ip.SetPayloadLength(f.payloadLength);
    ip.SetNextHeader(f.nextHeader);
    ip.SetHopLimit(f.hopLimit);
    ip.SetSource(f.src.ToAddress());
    ip.SetDestination(f.dst.ToAddress());
    Ptr<Packet> ref = Create<Packet>(udp, 8);
    ref->AddHeader(ip);
    EXPECT_EQ(PacketBytes(mine), PacketBytes(ref));

    MrcPacketInfo info;
    ASSERT_TRUE(MrcParsePacket(mine, info));
    EXPECT_EQ(info.trafficClass, 0xb9);
    EXPECT_EQ(info.flowLabel, 0xfedcbu);
    EXPECT_EQ(info.payloadLength, 0x1234u);
    EXPECT_EQ(info.udpSrcPort, 0xc001u);
    EXPECT_EQ(info.udpDstPort, 12345u);
}

TEST(RawHeader, AddIpv6HeaderWithHeadersAfterGivesTheBytesOfSeparateAdds)
{
    // One AddHeader for IPv6, UDP and a transport's headers (AddIpUdpIcrc's fast path)
    // must give the bytes of adding the transport headers first, then IPv6 and UDP.
    MrcIpv6Fields f;
    f.trafficClass = 0x02;
    f.flowLabel = 0x54321;
    f.payloadLength = 144;
    f.nextHeader = 17;
    f.src = Ipv6Address("2001:db8::7");
    f.dst = Ipv6Address("2001:db8::9");
    const uint8_t udp[8] = {0xc1, 0x02, 0x12, 0xb7, 0, 144, 0, 0};
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::RC_WRITE_FIRST);
    bth.SetDestQp(0x123456);
    bth.SetPsn(0xabcdef);
    bth.SetAckReq(true);
    MrcRethHeader reth;
    reth.SetVirtualAddress(0x1122334455667788ULL);
    reth.SetRkey(0x99aabbcc);
    reth.SetDmaLength(100000);

    Ptr<Packet> separate = Create<Packet>(100);
    separate->AddHeader(reth);
    separate->AddHeader(bth);
    MrcAddIpv6Header(separate, f, udp, 8);
    Ptr<Packet> once = Create<Packet>(100);
    MrcAddIpv6Header(once, f, udp, 8, {&bth, nullptr, &reth});
    EXPECT_EQ(once->GetSize(), 100u + 40 + 8 + 12 + 16);
    EXPECT_EQ(PacketBytes(once), PacketBytes(separate));

    // with no headers after it, the bytes of MrcAddIpv6Header alone
    Ptr<Packet> plain = Create<Packet>(4);
    MrcAddIpv6Header(plain, f, udp, 8);
    Ptr<Packet> empty = Create<Packet>(4);
    MrcAddIpv6Header(empty, f, udp, 8, {});
    EXPECT_EQ(PacketBytes(empty), PacketBytes(plain));
}

TEST(RawHeader, AddIpv6InIpv6HeaderGivesTheBytesOfSeparateAdds)
{
    // MRC's SRv6 path: headers, inner IPv6 + UDP and the outer IPv6 header with one
    // AddHeader must give the bytes of adding them one by one, innermost first.
    MrcIpv6Fields inner;
    inner.trafficClass = 0x68;
    inner.flowLabel = 0xabcde;
    inner.payloadLength = 8 + 12 + 16 + 100 + 4;
    inner.nextHeader = 17;
    inner.src = Ipv6Address("2001:db8::7");
    inner.dst = Ipv6Address("2001:db8::9");
    MrcIpv6Fields outer = inner;
    outer.payloadLength = 40 + inner.payloadLength;
    outer.nextHeader = 41;
    outer.hopLimit = 63;
    outer.dst = Ipv6Address("fcbb:bb00:1405:2406::");
    const uint8_t udp[8] = {0xc1, 0x02, 0x12, 0xb7, 0, 140, 0, 0};
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::MRC_WRITE_ONLY);
    bth.SetDestQp(0x123456);
    bth.SetPsn(0xabcdef);
    MrcRethHeader reth;
    reth.SetVirtualAddress(0x1122334455667788ULL);
    reth.SetRkey(0x99aabbcc);
    reth.SetDmaLength(100);

    Ptr<Packet> separate = Create<Packet>(100);
    separate->AddHeader(reth);
    separate->AddHeader(bth);
    MrcAddIpv6Header(separate, inner, udp, 8);
    MrcAddIpv6Header(separate, outer);
    Ptr<Packet> once = Create<Packet>(100);
    MrcAddIpv6InIpv6Header(once, outer, inner, udp, 8, {&bth, nullptr, &reth});
    EXPECT_EQ(once->GetSize(), 100u + 40 + 40 + 8 + 12 + 16);
    EXPECT_EQ(PacketBytes(once), PacketBytes(separate));
    // the outer header comes first
    const std::vector<uint8_t> b = PacketBytes(once);
    EXPECT_EQ(b[6], 41u);
    EXPECT_EQ(b[7], 63u);
    EXPECT_EQ(b[46], 17u);
}

namespace
{

/// Check that a module header's WriteTo lays out `expected` and nothing beyond it, and
/// that AddHeader (Serialize) puts the same bytes in front of a packet.
void
ExpectWireBytes(const MrcWireHeader& h, const std::vector<uint8_t>& expected)
{
    SCOPED_TRACE(h.GetInstanceTypeId().GetName());
    ASSERT_EQ(h.GetSerializedSize(), expected.size());
    constexpr uint8_t GUARD = 0x5a;
    std::vector<uint8_t> out(expected.size() + 8, GUARD);
    h.WriteTo(out.data());
    EXPECT_EQ(std::vector<uint8_t>(out.begin(), out.begin() + expected.size()), expected);
    EXPECT_EQ(std::vector<uint8_t>(out.begin() + expected.size(), out.end()),
              std::vector<uint8_t>(8, GUARD))
        << "WriteTo wrote past GetSerializedSize()";

    Ptr<Packet> p = Create<Packet>(3);
    p->AddHeader(h);
    std::vector<uint8_t> inPacket = PacketBytes(p);
    ASSERT_EQ(inPacket.size(), expected.size() + 3);
    inPacket.resize(expected.size());
    EXPECT_EQ(inPacket, expected);
}

} // namespace

TEST(RawHeader, WireHeadersWriteToGivesTheSerializedBytesAndSequencesConcatenate)
{
    // Every header class that goes into a header sequence, with fields that differ
    // from their defaults and from each other, against bytes laid out by hand from the
    // headers' documented layouts.
    MrcBthHeader bth;
    bth.SetOpcode(0xc7);
    bth.SetSolicitedEvent(true);
    bth.SetPadCount(2);
    bth.SetTransportVersion(5);
    bth.SetPartitionKey(0x1234);
    bth.SetFecn(true);
    bth.SetDestQp(0xabcdef);
    bth.SetAckReq(true);
    bth.SetRetransmission(true);
    bth.SetPsn(0x123456);
    const std::vector<uint8_t> bthBytes =
        {0xc7, 0xa5, 0x12, 0x34, 0x80, 0xab, 0xcd, 0xef, 0xa0, 0x12, 0x34, 0x56};

    MrcRethHeader reth;
    reth.SetVirtualAddress(0x0102030405060708ULL);
    reth.SetRkey(0x90a0b0c0);
    reth.SetDmaLength(0x00123456);
    const std::vector<uint8_t> rethBytes = {0x01,
                                            0x02,
                                            0x03,
                                            0x04,
                                            0x05,
                                            0x06,
                                            0x07,
                                            0x08,
                                            0x90,
                                            0xa0,
                                            0xb0,
                                            0xc0,
                                            0x00,
                                            0x12,
                                            0x34,
                                            0x56};

    MrcMethHeader meth;
    meth.SetRqMsn(0x1357);
    meth.SetMsn(0x2468);
    const std::vector<uint8_t> methBytes = {0x13, 0x57, 0x24, 0x68};

    MrcSethHeader seth;
    seth.SetType(0x3);
    seth.SetNextHeader(0x11);
    seth.SetPathFeedback(MrcPathFeedback::ALWAYS_SKIP);
    seth.SetProbeResponse(true);
    seth.SetAckPsnOffset(-3);
    seth.SetEntropy(0xdeadbeef);
    seth.SetSpdcid(0x0102);
    seth.SetDpdcid(0x0304);
    seth.SetCackPsn(0x654321);
    seth.SetCcType(0x5);
    seth.SetCcFlags(0xa);
    seth.SetMpr(0x7e);
    seth.SetSackOffset(0x0102);
    seth.SetSackBitmap(0x8000000000000001ULL);
    // type 3, nxt 0x11, m 2, pr: 0x3000 | 0x0880 | 0x0040 | 0x0002
    const std::vector<uint8_t> sethBytes = {
        0x38, 0xc2, 0xff, 0xfd, 0xde, 0xad, 0xbe, 0xef, 0x01, 0x02, 0x03, 0x04, 0x00, 0x65,
        0x43, 0x21, 0x5a, 0x7e, 0x01, 0x02, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01};

    MrcCcStateHeader cc;
    cc.SetTxTimestamp(0xbeef);
    cc.SetOooCount(0x1234);
    cc.SetRestoreCwnd(true);
    cc.SetRcvCwndPen(0x55);
    cc.SetRcvdBytesUnits(0xabcdef);
    const std::vector<uint8_t> ccBytes = {0xbe, 0xef, 0x12, 0x34, 0xd5, 0xab, 0xcd, 0xef};

    MrcPethHeader peth;
    peth.SetType(0x2);
    peth.SetNextHeader(0x0c);
    peth.SetVendorInfo(0x9a);
    peth.SetProbeId(0x4321);
    peth.SetSpdcid(0x1111);
    peth.SetDpdcid(0x2222);
    peth.SetTxTimestamp(0x3333);
    peth.SetTsr(true);
    peth.SetFtype(0x7);
    const std::vector<uint8_t> pethBytes = {0x26,
                                            0x00,
                                            0x00,
                                            0x9a,
                                            0x43,
                                            0x21,
                                            0x00,
                                            0x00,
                                            0x11,
                                            0x11,
                                            0x22,
                                            0x22,
                                            0x33,
                                            0x33,
                                            0x80,
                                            0x07};

    MrcAethHeader aeth;
    aeth.SetSyndrome(0x65);
    aeth.SetMsn(0x0a0b0c);
    const std::vector<uint8_t> aethBytes = {0x65, 0x0a, 0x0b, 0x0c};

    MrcNethHeader neth;
    neth.SetType(0x4);
    neth.SetNextHeader(0x1f);
    neth.SetNackReason(MrcNackReason::NO_BITMAP);
    neth.SetVendorInfo(0x77);
    neth.SetEntropy(0x89abcdef);
    neth.SetSpdcid(0x0506);
    neth.SetDpdcid(0x0708);
    neth.SetNackPsn(0xfedcba);
    neth.SetCcType(0x3);
    neth.SetCcFlags(0xc);
    neth.SetTxTimestamp(0x4455);
    const std::vector<uint8_t> nethBytes = {0x4f, 0x80, 0x06, 0x77, 0x89, 0xab, 0xcd,
                                            0xef, 0x05, 0x06, 0x07, 0x08, 0x00, 0xfe,
                                            0xdc, 0xba, 0x3c, 0x00, 0x44, 0x55};

    MrcImmDtHeader imm;
    imm.SetImmediate(0xcafef00d);
    const std::vector<uint8_t> immBytes = {0xca, 0xfe, 0xf0, 0x0d};

    MrcTsethHeader tseth;
    tseth.SetTxTimestamp(0x1234);
    tseth.SetTsr(true);
    tseth.SetFtype(0x9);
    const std::vector<uint8_t> tsethBytes = {0x12, 0x34, 0x80, 0x09};

    MrcErthHeader erth;
    erth.SetType(0x6);
    erth.SetNextHeader(0x03);
    erth.SetOp(MrcEndpointOp::EV_PROBE);
    erth.SetVendorInfo(0x42);
    erth.SetPortStatusMask(0x80000005);
    erth.SetTxTimestamp(0x9876);
    erth.SetTsr(false);
    erth.SetFtype(0xf);
    const std::vector<uint8_t> erthBytes = {0x61,
                                            0x81,
                                            0x00,
                                            0x42,
                                            0x80,
                                            0x00,
                                            0x00,
                                            0x05,
                                            0x00,
                                            0x00,
                                            0x00,
                                            0x00,
                                            0x98,
                                            0x76,
                                            0x00,
                                            0x0f};

    MrcEethHeader eeth;
    eeth.SetType(0x7);
    eeth.SetNextHeader(0x02);
    eeth.SetOp(MrcEndpointOp::EV_PROBE);
    eeth.SetTxTimestamp(0xabcd);
    std::vector<uint8_t> eethBytes(MrcEethHeader::SIZE, 0);
    eethBytes[0] = 0x71; // type 7, nxt 2, op 1 (bits 3..2): 0x7000 | 0x0100 | 0x0004
    eethBytes[1] = 0x04;
    eethBytes[MrcEethHeader::TX_TIMESTAMP_OFFSET] = 0xab;
    eethBytes[MrcEethHeader::TX_TIMESTAMP_OFFSET + 1] = 0xcd;

    MrcCnpHeader cnp;
    const std::vector<uint8_t> cnpBytes(MrcCnpHeader::SERIALIZED_SIZE, 0);

    MrcRawHeader raw;
    raw.SetSize(21);
    std::vector<uint8_t> rawBytes(21);
    for (uint32_t k = 0; k < rawBytes.size(); ++k)
    {
        rawBytes[k] = static_cast<uint8_t>(0xf0 - 7 * k);
        raw.Bytes()[k] = rawBytes[k];
    }

    const std::vector<std::pair<const MrcWireHeader*, const std::vector<uint8_t>*>> all = {
        {&raw, &rawBytes},
        {&bth, &bthBytes},
        {&seth, &sethBytes},
        {&cc, &ccBytes},
        {&meth, &methBytes},
        {&tseth, &tsethBytes},
        {&reth, &rethBytes},
        {&peth, &pethBytes},
        {&aeth, &aethBytes},
        {&neth, &nethBytes},
        {&imm, &immBytes},
        {&erth, &erthBytes},
        {&eeth, &eethBytes},
        {&cnp, &cnpBytes},
    };
    std::vector<uint8_t> concatenated;
    for (const auto& [h, bytes] : all)
    {
        ExpectWireBytes(*h, *bytes);
        concatenated.insert(concatenated.end(), bytes->begin(), bytes->end());
    }

    // One AddHeader of all of them (null entries skipped): their bytes back to back,
    // in front of the payload, as adding them one by one, innermost first.
    const uint8_t payload[5] = {1, 2, 3, 4, 5};
    Ptr<Packet> once = Create<Packet>(payload, sizeof(payload));
    MrcAddHeaders(once,
                  {&raw,
                   &bth,
                   nullptr,
                   &seth,
                   &cc,
                   &meth,
                   &tseth,
                   &reth,
                   &peth,
                   &aeth,
                   &neth,
                   &imm,
                   &erth,
                   &eeth,
                   &cnp});
    std::vector<uint8_t> expected = concatenated;
    expected.insert(expected.end(), payload, payload + sizeof(payload));
    EXPECT_EQ(PacketBytes(once), expected);
    Ptr<Packet> separate = Create<Packet>(payload, sizeof(payload));
    for (auto it = all.rbegin(); it != all.rend(); ++it)
    {
        separate->AddHeader(*it->first);
    }
    EXPECT_EQ(PacketBytes(separate), expected);
}

namespace
{
/// A wire header larger than MrcWireHeader::MAX_SERIALIZED_SIZE (for the abort below).
class OversizedWireHeader : public MrcWireHeader
{
  public:
    TypeId GetInstanceTypeId() const override
    {
        return MrcWireHeader::GetTypeId();
    }

    uint32_t GetSerializedSize() const override
    {
        return MrcWireHeader::MAX_SERIALIZED_SIZE + 1;
    }

    void WriteTo(uint8_t* out) const override
    {
        std::fill(out, out + GetSerializedSize(), 0);
    }

    uint32_t Deserialize(Buffer::Iterator /* start */) override
    {
        return GetSerializedSize();
    }

    void Print(std::ostream& os) const override
    {
        os << "oversized";
    }
};
} // namespace

TEST(RawHeader, WireHeaderLimitsAbortNamingTheSize)
{
    // a header sequence holds at most 512 bytes: seven 78-byte raw headers are 546
    MrcRawHeader raw;
    raw.SetSize(MrcRawHeader::MAX_BYTES);
    std::fill(raw.Bytes(), raw.Bytes() + MrcRawHeader::MAX_BYTES, 0x11);
    Ptr<Packet> p = Create<Packet>(4);
    MrcAddHeaders(p, {&raw, &raw, &raw, &raw, &raw, &raw});
    EXPECT_EQ(p->GetSize(), 6 * MrcRawHeader::MAX_BYTES + 4); // 468 bytes: within the limit
    EXPECT_DEATH(MrcAddHeaders(p, {&raw, &raw, &raw, &raw, &raw, &raw, &raw}),
                 "546 bytes of headers; at most 512");
    // a single wire header holds at most 128 bytes when it lays its bytes out on the stack
    OversizedWireHeader big;
    EXPECT_DEATH(Create<Packet>(4)->AddHeader(big), "129 bytes; an MrcWireHeader has at most 128");
}
