/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// InfiniBand / RoCEv2 wire formats: BTH, RETH, AETH, ImmDt, CNP and the ICRC.
// Expected bytes are written out by hand from the field layouts; the ICRC is
// checked against packets captured on NVIDIA ConnectX NICs.

#include "mrc-test-support.h"

#include "ns3/ipv6-header.h"
#include "ns3/mrc-aeth-header.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-cnp-header.h"
#include "ns3/mrc-icrc-trailer.h"
#include "ns3/mrc-imm-dt-header.h"
#include "ns3/mrc-opcodes.h"
#include "ns3/mrc-reth-header.h"
#include "ns3/mrc-traffic-class.h"
#include "ns3/packet.h"
#include "ns3/udp-header.h"

#include <gtest/gtest.h>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

using Bytes = std::vector<uint8_t>;
using MrcTest::PacketBytes;

/// \return the bytes a header serializes to
template <class H>
Bytes
ToBytes(const H& h)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    return PacketBytes(p);
}

/// Parse a header from bytes; checks that it consumed exactly its size.
template <class H>
H
FromBytes(const Bytes& b)
{
    Ptr<Packet> p = Create<Packet>(b.data(), b.size());
    H h;
    uint32_t read = p->RemoveHeader(h);
    EXPECT_EQ(read, h.GetSerializedSize());
    EXPECT_EQ(p->GetSize(), b.size() - read);
    return h;
}

/// A bit-at-a-time CRC-32 register update, the textbook definition, to check the tables.
uint32_t
SlowCrc32Update(uint32_t crc, const uint8_t* data, size_t size)
{
    for (size_t i = 0; i < size; ++i)
    {
        crc ^= data[i];
        for (int bit = 0; bit < 8; ++bit)
        {
            crc = (crc & 1) ? (crc >> 1) ^ 0xedb88320 : crc >> 1;
        }
    }
    return crc;
}

} // namespace

// ---------------------------------------------------------------- BTH

TEST(RoceBth, DefaultsAndSize)
{
    MrcBthHeader bth;
    EXPECT_EQ(bth.GetSerializedSize(), 12u);
    EXPECT_EQ(MrcBthHeader::SERIALIZED_SIZE, 12u);
    EXPECT_EQ(bth.GetPartitionKey(), 0xffff);
    EXPECT_EQ(bth.GetTransportVersion(), 0);
    EXPECT_EQ(bth.GetPadCount(), 0);
    EXPECT_FALSE(bth.GetAckReq());
    EXPECT_FALSE(bth.GetRetransmission());
    EXPECT_FALSE(bth.GetTimestampPresent());
    EXPECT_EQ(ToBytes(bth).size(), 12u);
}

TEST(RoceBth, HandWrittenBytes)
{
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::RC_WRITE_ONLY);
    bth.SetSolicitedEvent(false);
    bth.SetMigReq(true);
    bth.SetPadCount(0);
    bth.SetTransportVersion(0);
    bth.SetPartitionKey(0xffff);
    bth.SetFecn(false);
    bth.SetBecn(true);
    bth.SetDestQp(0x000123);
    bth.SetAckReq(true);
    bth.SetPsn(0x00abcd);
    // opcode | SE0 M1 Pad00 TVer0000 | P_Key | FECN0 BECN1 resv6 | DestQP | A1 resv7 | PSN
    const Bytes expected{0x0a, 0x40, 0xff, 0xff, 0x40, 0x00, 0x01, 0x23, 0x80, 0x00, 0xab, 0xcd};
    EXPECT_EQ(ToBytes(bth), expected);
}

TEST(RoceBth, EveryFieldRoundTrips)
{
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::MRC_WRITE_LAST_IMM);
    bth.SetSolicitedEvent(true);
    bth.SetMigReq(false);
    bth.SetPadCount(3);
    bth.SetTransportVersion(0xf);
    bth.SetPartitionKey(0x8001);
    bth.SetFecn(true);
    bth.SetBecn(false);
    bth.SetDestQp(0xfedcba);
    bth.SetAckReq(false);
    bth.SetRetransmission(true);
    bth.SetTimestampPresent(true);
    bth.SetPsn(0xffffff);
    const Bytes bytes = ToBytes(bth);
    // 0xc9 | SE1 M0 Pad11 TVer1111 | 0x8001 | FECN1 | 0xfedcba | A0 r0 RTX1 TS1 0000 | 0xffffff
    const Bytes expected{0xc9, 0xbf, 0x80, 0x01, 0x80, 0xfe, 0xdc, 0xba, 0x30, 0xff, 0xff, 0xff};
    EXPECT_EQ(bytes, expected);

    MrcBthHeader back = FromBytes<MrcBthHeader>(bytes);
    EXPECT_EQ(back.GetOpcode(), 0xc9);
    EXPECT_TRUE(back.GetSolicitedEvent());
    EXPECT_FALSE(back.GetMigReq());
    EXPECT_EQ(back.GetPadCount(), 3);
    EXPECT_EQ(back.GetTransportVersion(), 0xf);
    EXPECT_EQ(back.GetPartitionKey(), 0x8001);
    EXPECT_TRUE(back.GetFecn());
    EXPECT_FALSE(back.GetBecn());
    EXPECT_EQ(back.GetDestQp(), 0xfedcbau);
    EXPECT_FALSE(back.GetAckReq());
    EXPECT_TRUE(back.GetRetransmission());
    EXPECT_TRUE(back.GetTimestampPresent());
    EXPECT_EQ(back.GetPsn(), 0xffffffu);
}

TEST(RoceBth, MrcFlagsUseTheirOwnBits)
{
    MrcBthHeader bth;
    bth.SetRetransmission(true);
    EXPECT_EQ(ToBytes(bth)[8], 0x20);
    bth.SetRetransmission(false);
    bth.SetTimestampPresent(true);
    EXPECT_EQ(ToBytes(bth)[8], 0x10);
    bth.SetAckReq(true);
    bth.SetRetransmission(true);
    EXPECT_EQ(ToBytes(bth)[8], 0xb0);
    // Clearing one flag leaves the others alone.
    bth.SetAckReq(false);
    EXPECT_EQ(ToBytes(bth)[8], 0x30);
    EXPECT_TRUE(bth.GetRetransmission());
    EXPECT_TRUE(bth.GetTimestampPresent());
}

TEST(RoceBth, SettersDoNotDisturbNeighbours)
{
    MrcBthHeader bth;
    bth.SetSolicitedEvent(true);
    bth.SetMigReq(true);
    bth.SetTransportVersion(5);
    bth.SetPadCount(2);
    EXPECT_EQ(ToBytes(bth)[1], 0xe5); // 1 1 10 0101
    bth.SetPadCount(1);
    EXPECT_EQ(ToBytes(bth)[1], 0xd5); // 1 1 01 0101
    bth.SetTransportVersion(0);
    EXPECT_EQ(ToBytes(bth)[1], 0xd0);
    EXPECT_TRUE(bth.GetSolicitedEvent());
    EXPECT_TRUE(bth.GetMigReq());
}

TEST(RoceBth, ReservedBitsSurviveAParse)
{
    // Byte 4 = BECN + all six reserved bits; byte 8 = the five unnamed reserved bits.
    const Bytes wire{0x11, 0x00, 0x12, 0x34, 0x7f, 0x00, 0x00, 0x07, 0x4f, 0x00, 0x00, 0x09};
    MrcBthHeader bth = FromBytes<MrcBthHeader>(wire);
    EXPECT_EQ(bth.GetOpcode(), MrcOpcode::RC_ACK);
    EXPECT_FALSE(bth.GetFecn());
    EXPECT_TRUE(bth.GetBecn());
    EXPECT_FALSE(bth.GetAckReq());
    EXPECT_FALSE(bth.GetRetransmission());
    EXPECT_FALSE(bth.GetTimestampPresent());
    EXPECT_EQ(bth.GetDestQp(), 7u);
    EXPECT_EQ(bth.GetPsn(), 9u);
    EXPECT_EQ(ToBytes(bth), wire);
}

TEST(RoceBth, PrintNamesTheFields)
{
    MrcBthHeader bth;
    bth.SetDestQp(0x123);
    bth.SetPsn(0xabcd);
    bth.SetRetransmission(true);
    std::ostringstream os;
    bth.Print(os);
    EXPECT_EQ(os.str(),
              "opcode=0x0a se=0 m=0 pad=0 tver=0 pkey=0xffff fecn=0 becn=0 dqp=0x000123 a=0 "
              "rtx=1 ts=0 psn=0x00abcd");
}

TEST(RoceBthDeathTest, RejectsOutOfRangeValues)
{
    MrcBthHeader bth;
    EXPECT_DEATH(bth.SetPsn(0x1000000), "BTH PSN 0x1000000 does not fit in 24 bits");
    EXPECT_DEATH(bth.SetDestQp(0x1abcdef), "BTH destination QP 0x1abcdef does not fit in 24 bits");
    EXPECT_DEATH(bth.SetPadCount(4), "BTH pad count 4 is out of range");
    EXPECT_DEATH(bth.SetTransportVersion(16), "BTH transport version 16 is out of range");
}

// ---------------------------------------------------------------- RETH

TEST(RoceReth, HandWrittenBytesAndRoundTrip)
{
    MrcRethHeader reth;
    EXPECT_EQ(reth.GetSerializedSize(), 16u);
    reth.SetVirtualAddress(0x0000000100002000);
    reth.SetRkey(0x11223344);
    reth.SetDmaLength(4096);
    const Bytes expected{0x00,
                         0x00,
                         0x00,
                         0x01,
                         0x00,
                         0x00,
                         0x20,
                         0x00,
                         0x11,
                         0x22,
                         0x33,
                         0x44,
                         0x00,
                         0x00,
                         0x10,
                         0x00};
    EXPECT_EQ(ToBytes(reth), expected);

    MrcRethHeader back = FromBytes<MrcRethHeader>(expected);
    EXPECT_EQ(back.GetVirtualAddress(), 0x0000000100002000u);
    EXPECT_EQ(back.GetRkey(), 0x11223344u);
    EXPECT_EQ(back.GetDmaLength(), 4096u);
}

TEST(RoceReth, ExtremeValuesRoundTrip)
{
    MrcRethHeader reth;
    reth.SetVirtualAddress(0xfedcba9876543210);
    reth.SetRkey(0xffffffff);
    reth.SetDmaLength(0x80000001);
    const Bytes bytes = ToBytes(reth);
    EXPECT_EQ(bytes[0], 0xfe);
    EXPECT_EQ(bytes[7], 0x10);
    MrcRethHeader back = FromBytes<MrcRethHeader>(bytes);
    EXPECT_EQ(back.GetVirtualAddress(), 0xfedcba9876543210u);
    EXPECT_EQ(back.GetRkey(), 0xffffffffu);
    EXPECT_EQ(back.GetDmaLength(), 0x80000001u);
}

// ---------------------------------------------------------------- AETH

TEST(RoceAeth, DefaultIsAckWithoutCredit)
{
    MrcAethHeader aeth;
    EXPECT_EQ(aeth.GetSerializedSize(), 4u);
    EXPECT_TRUE(aeth.IsAck());
    EXPECT_EQ(aeth.GetCreditCode(), MrcAethHeader::CREDIT_INVALID);
    EXPECT_EQ(ToBytes(aeth), (Bytes{0x1f, 0x00, 0x00, 0x00}));
}

TEST(RoceAeth, SyndromeEncodings)
{
    MrcAethHeader aeth;
    aeth.SetAck(0);
    EXPECT_EQ(aeth.GetSyndrome(), 0x00);
    aeth.SetAck(MrcAethHeader::CREDIT_INVALID);
    EXPECT_EQ(aeth.GetSyndrome(), 0x1f);
    aeth.SetRnrNak(0x0e);
    EXPECT_EQ(aeth.GetSyndrome(), 0x2e); // 0 01 01110
    EXPECT_TRUE(aeth.IsRnrNak());
    EXPECT_EQ(aeth.GetRnrTimer(), 0x0e);
    const std::pair<MrcAethHeader::NakCode, uint8_t> naks[] = {
        {MrcAethHeader::NakCode::PSN_SEQUENCE_ERROR, 0x60},
        {MrcAethHeader::NakCode::INVALID_REQUEST, 0x61},
        {MrcAethHeader::NakCode::REMOTE_ACCESS_ERROR, 0x62},
        {MrcAethHeader::NakCode::REMOTE_OPERATIONAL_ERROR, 0x63},
        {MrcAethHeader::NakCode::INVALID_RD_REQUEST, 0x64},
    };
    for (const auto& [code, syndrome] : naks)
    {
        aeth.SetNak(code);
        EXPECT_EQ(aeth.GetSyndrome(), syndrome);
        EXPECT_TRUE(aeth.IsNak());
        EXPECT_FALSE(aeth.IsAck());
        EXPECT_FALSE(aeth.IsRnrNak());
        EXPECT_EQ(aeth.GetType(), MrcAethHeader::SyndromeType::NAK);
        EXPECT_EQ(aeth.GetNakCode(), code);
    }
    aeth.SetSyndrome(0x45); // 0 10 00101: the reserved type
    EXPECT_EQ(aeth.GetType(), MrcAethHeader::SyndromeType::RESERVED);
    EXPECT_FALSE(aeth.IsAck() || aeth.IsNak() || aeth.IsRnrNak());
}

TEST(RoceAeth, HandWrittenBytesAndRoundTrip)
{
    MrcAethHeader aeth;
    aeth.SetNak(MrcAethHeader::NakCode::REMOTE_ACCESS_ERROR);
    aeth.SetMsn(0x123456);
    const Bytes expected{0x62, 0x12, 0x34, 0x56};
    EXPECT_EQ(ToBytes(aeth), expected);
    MrcAethHeader back = FromBytes<MrcAethHeader>(expected);
    EXPECT_TRUE(back.IsNak());
    EXPECT_EQ(back.GetNakCode(), MrcAethHeader::NakCode::REMOTE_ACCESS_ERROR);
    EXPECT_EQ(back.GetMsn(), 0x123456u);

    // The AETH of an RC Acknowledge captured on a ConnectX NIC: ACK, credit code 0, MSN 5.
    MrcAethHeader captured = FromBytes<MrcAethHeader>(Bytes{0x00, 0x00, 0x00, 0x05});
    EXPECT_TRUE(captured.IsAck());
    EXPECT_EQ(captured.GetCreditCode(), 0);
    EXPECT_EQ(captured.GetMsn(), 5u);

    aeth.SetAck(7);
    aeth.SetMsn(0xffffff);
    EXPECT_EQ(ToBytes(aeth), (Bytes{0x07, 0xff, 0xff, 0xff}));
}

TEST(RoceAethDeathTest, RejectsOutOfRangeValuesAndWrongQuestions)
{
    MrcAethHeader aeth;
    EXPECT_DEATH(aeth.SetMsn(0x1000000), "AETH MSN 0x1000000 does not fit in 24 bits");
    EXPECT_DEATH(aeth.SetAck(32), "AETH credit code 32 is out of range");
    EXPECT_DEATH(aeth.SetRnrNak(40), "AETH RNR timer code 40 is out of range");
    EXPECT_DEATH(aeth.GetNakCode(), "AETH syndrome 0x1f is not a NAK");
    aeth.SetNak(MrcAethHeader::NakCode::PSN_SEQUENCE_ERROR);
    EXPECT_DEATH(aeth.GetCreditCode(), "AETH syndrome 0x60 is not an ACK");
    EXPECT_DEATH(aeth.GetRnrTimer(), "AETH syndrome 0x60 is not an RNR NAK");
}

// ---------------------------------------------------------------- ImmDt

TEST(RoceImmDt, HandWrittenBytesAndRoundTrip)
{
    MrcImmDtHeader imm;
    EXPECT_EQ(imm.GetSerializedSize(), 4u);
    imm.SetImmediate(0xdeadbeef);
    const Bytes expected{0xde, 0xad, 0xbe, 0xef};
    EXPECT_EQ(ToBytes(imm), expected);
    EXPECT_EQ(FromBytes<MrcImmDtHeader>(expected).GetImmediate(), 0xdeadbeefu);
    EXPECT_EQ(FromBytes<MrcImmDtHeader>(Bytes{0, 0, 0, 1}).GetImmediate(), 1u);
}

// ---------------------------------------------------------------- CNP

namespace
{

/// A RoCEv2 CNP captured on a ConnectX-4 Lx (IPv4), from the IP header to the ICRC.
/// (Published with Scapy's RoCE tests, test/contrib/roce.uts.)
const Bytes g_connectXCnp{
    // IPv4: tos 0xc2, total length 60, id 0x718c, DF, TTL 64, UDP, checksum 0x9161
    0x45,
    0xc2,
    0x00,
    0x3c,
    0x71,
    0x8c,
    0x40,
    0x00,
    0x40,
    0x11,
    0x91,
    0x61,
    0x0a,
    0x00,
    0x11,
    0x01,
    0x0a,
    0x00,
    0x12,
    0x01,
    // UDP: source port 0, destination 4791, length 40, checksum 0
    0x00,
    0x00,
    0x12,
    0xb7,
    0x00,
    0x28,
    0x00,
    0x00,
    // BTH: opcode 0x81, P_Key 0xffff, BECN, DestQP 0x000118, PSN 0
    0x81,
    0x00,
    0xff,
    0xff,
    0x40,
    0x00,
    0x01,
    0x18,
    0x00,
    0x00,
    0x00,
    0x00,
    // CNP: 16 reserved bytes
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    // ICRC
    0x82,
    0xfd,
    0x00,
    0x2a};

} // namespace

TEST(RoceCnp, MatchesACapturedCnp)
{
    MrcCnpHeader cnp;
    EXPECT_EQ(cnp.GetSerializedSize(), 16u);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(cnp);
    p->AddHeader(MrcCnpHeader::MakeBth(0x118));
    const Bytes wire = PacketBytes(p);
    const Bytes captured(g_connectXCnp.begin() + 28, g_connectXCnp.end() - 4);
    EXPECT_EQ(wire, captured);

    Ptr<Packet> q = Create<Packet>(captured.data(), captured.size());
    MrcBthHeader bth;
    q->RemoveHeader(bth);
    EXPECT_EQ(bth.GetOpcode(), MrcOpcode::ROCE_CNP);
    EXPECT_TRUE(bth.GetBecn());
    EXPECT_FALSE(bth.GetFecn());
    EXPECT_EQ(bth.GetDestQp(), 0x118u);
    EXPECT_EQ(bth.GetPsn(), 0u);
    MrcCnpHeader body;
    EXPECT_EQ(q->RemoveHeader(body), 16u);
    EXPECT_EQ(q->GetSize(), 0u);
}

TEST(RoceCnp, MakeBthKeepsThePartitionKey)
{
    MrcBthHeader bth = MrcCnpHeader::MakeBth(0xabcdef, 0x8001);
    EXPECT_EQ(ToBytes(bth),
              (Bytes{0x81, 0x00, 0x80, 0x01, 0x40, 0xab, 0xcd, 0xef, 0x00, 0x00, 0x00, 0x00}));
}

// ---------------------------------------------------------------- ICRC

TEST(RoceIcrc, Crc32CheckValue)
{
    const uint8_t check[] = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
    EXPECT_EQ(MrcIcrcTrailer::Crc32(check, sizeof(check)), 0xcbf43926u);
    EXPECT_EQ(MrcIcrcTrailer::Crc32(nullptr, 0), 0u);
}

TEST(RoceIcrc, SlicedTablesAgreeWithTheBitwiseDefinition)
{
    Bytes data(300);
    for (size_t i = 0; i < data.size(); ++i)
    {
        data[i] = static_cast<uint8_t>(i * 37 + (i >> 3));
    }
    for (size_t offset = 0; offset < 9; ++offset)
    {
        for (size_t len = 0; len + offset <= data.size(); len += 13)
        {
            EXPECT_EQ(MrcIcrcTrailer::Crc32Update(0x12345678, data.data() + offset, len),
                      SlowCrc32Update(0x12345678, data.data() + offset, len))
                << "offset " << offset << " length " << len;
        }
    }
}

TEST(RoceIcrc, MaskedLrhState)
{
    const uint8_t lrh[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    EXPECT_EQ(MrcIcrcTrailer::Crc32Update(0xffffffff, lrh, 8), MrcIcrcTrailer::MASKED_LRH_STATE);
    EXPECT_EQ(MrcIcrcTrailer::MASKED_LRH_STATE, 0xdebb20e3u);
}

TEST(RoceIcrc, MatchesAConnectXCapture)
{
    const uint32_t size = g_connectXCnp.size() - 4;
    const uint32_t icrc = MrcIcrcTrailer::Compute(g_connectXCnp.data(), size);
    EXPECT_EQ(icrc, 0x2a00fd82u);
    // Sent least significant byte first, like the Ethernet FCS.
    MrcIcrcTrailer trailer(icrc);
    Ptr<Packet> p = Create<Packet>(g_connectXCnp.data(), size);
    p->AddTrailer(trailer);
    EXPECT_EQ(PacketBytes(p), g_connectXCnp);
    EXPECT_TRUE(MrcIcrcTrailer::Verify(p));
    EXPECT_EQ(MrcIcrcTrailer::Compute(Create<Packet>(g_connectXCnp.data(), size)), icrc);
}

namespace
{

/// An IPv6 RoCEv2 RDMA Write Only (8-byte payload), from the IP header to the ICRC, by hand.
const Bytes g_ipv6Write{
    // IPv6: version 6, traffic class 0x6a (DSCP 26, ECT(0)), flow label 0x12345,
    // payload length 48, next header UDP, hop limit 64, fd00::1 -> fd00::2
    0x66,
    0xa1,
    0x23,
    0x45,
    0x00,
    0x30,
    0x11,
    0x40,
    0xfd,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x01,
    0xfd,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x02,
    // UDP: 0xc000 -> 4791, length 48, checksum 0
    0xc0,
    0x00,
    0x12,
    0xb7,
    0x00,
    0x30,
    0x00,
    0x00,
    // BTH: Write Only, M, P_Key 0xffff, BECN, DestQP 0x123, A, PSN 0xabcd
    0x0a,
    0x40,
    0xff,
    0xff,
    0x40,
    0x00,
    0x01,
    0x23,
    0x80,
    0x00,
    0xab,
    0xcd,
    // RETH: VA 0x100002000, R_Key 0x11223344, length 8
    0x00,
    0x00,
    0x00,
    0x01,
    0x00,
    0x00,
    0x20,
    0x00,
    0x11,
    0x22,
    0x33,
    0x44,
    0x00,
    0x00,
    0x00,
    0x08,
    // payload
    0x01,
    0x02,
    0x03,
    0x04,
    0x05,
    0x06,
    0x07,
    0x08,
    // ICRC 0x606c2b89, least significant byte first (computed independently with zlib's crc32
    // over 8 x 0xff and the masked bytes above)
    0x89,
    0x2b,
    0x6c,
    0x60};

/// The same packet built with ns-3's IPv6 and UDP headers and the module's headers, ICRC excluded.
Ptr<Packet>
BuildIpv6Write()
{
    const uint8_t payload[] = {1, 2, 3, 4, 5, 6, 7, 8};
    Ptr<Packet> p = Create<Packet>(payload, sizeof(payload));
    MrcRethHeader reth;
    reth.SetVirtualAddress(0x100002000);
    reth.SetRkey(0x11223344);
    reth.SetDmaLength(8);
    p->AddHeader(reth);
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::RC_WRITE_ONLY);
    bth.SetMigReq(true);
    bth.SetBecn(true);
    bth.SetDestQp(0x123);
    bth.SetAckReq(true);
    bth.SetPsn(0xabcd);
    p->AddHeader(bth);
    UdpHeader udp;
    udp.SetSourcePort(0xc000);
    udp.SetDestinationPort(MRC_ROCEV2_UDP_PORT);
    udp.ForcePayloadSize(p->GetSize() + 8 + MrcIcrcTrailer::SERIALIZED_SIZE); // the length field
    p->AddHeader(udp);
    Ipv6Header ip;
    ip.SetTrafficClass(MrcMakeTrafficClass(26, MrcEcn::ECT0));
    ip.SetFlowLabel(0x12345);
    ip.SetPayloadLength(p->GetSize() + MrcIcrcTrailer::SERIALIZED_SIZE);
    ip.SetNextHeader(17);
    ip.SetHopLimit(64);
    ip.SetSource(Ipv6Address("fd00::1"));
    ip.SetDestination(Ipv6Address("fd00::2"));
    p->AddHeader(ip);
    return p;
}

/// \return the ICRC of g_ipv6Write after edit changed its bytes (ICRC excluded)
template <class F>
uint32_t
IcrcAfter(F edit)
{
    Bytes b(g_ipv6Write.begin(), g_ipv6Write.end() - 4);
    edit(b);
    return MrcIcrcTrailer::Compute(b.data(), b.size());
}

} // namespace

TEST(RoceIcrc, Ipv6PacketByHandAndFromHeaders)
{
    Ptr<Packet> p = BuildIpv6Write();
    const Bytes withoutIcrc(g_ipv6Write.begin(), g_ipv6Write.end() - 4);
    ASSERT_EQ(PacketBytes(p), withoutIcrc);
    EXPECT_EQ(MrcIcrcTrailer::Compute(p), 0x606c2b89u);
    MrcIcrcTrailer::Append(p);
    EXPECT_EQ(PacketBytes(p), g_ipv6Write);
    EXPECT_TRUE(MrcIcrcTrailer::Verify(p));

    MrcIcrcTrailer trailer;
    EXPECT_EQ(p->RemoveTrailer(trailer), 4u);
    EXPECT_EQ(trailer.GetIcrc(), 0x606c2b89u);
    EXPECT_EQ(trailer.GetSerializedSize(), 4u);
    EXPECT_EQ(p->GetSize(), withoutIcrc.size());
}

TEST(RoceIcrc, VariantFieldsAreMasked)
{
    const uint32_t reference = IcrcAfter([](Bytes&) {});
    EXPECT_EQ(reference, 0x606c2b89u);
    // Routers change these: the ICRC must not.
    EXPECT_EQ(IcrcAfter([](Bytes& b) { b[7] = 3; }), reference);                   // hop limit
    EXPECT_EQ(IcrcAfter([](Bytes& b) { b[1] |= 0x30; }), reference);               // ECN -> CE
    EXPECT_EQ(IcrcAfter([](Bytes& b) { b[0] = 0x60; }), reference);                // DSCP high bits
    EXPECT_EQ(IcrcAfter([](Bytes& b) { b[3] = 0x00; }), reference);                // flow label
    EXPECT_EQ(IcrcAfter([](Bytes& b) { b[1] ^= 0x0f; }), reference);               // flow label
    EXPECT_EQ(IcrcAfter([](Bytes& b) { b[46] = 0x12, b[47] = 0x34; }), reference); // UDP checksum
    EXPECT_EQ(IcrcAfter([](Bytes& b) { b[52] = 0x80; }), reference);               // FECN, not BECN
    EXPECT_EQ(IcrcAfter([](Bytes& b) { b[52] = 0x3f; }), reference);               // resv6
    // Everything else is covered.
    EXPECT_NE(IcrcAfter([](Bytes& b) { b[5] = 0x31; }), reference);      // payload length
    EXPECT_NE(IcrcAfter([](Bytes& b) { b[39] = 3; }), reference);        // destination
    EXPECT_NE(IcrcAfter([](Bytes& b) { b[41] = 1; }), reference);        // UDP source port
    EXPECT_NE(IcrcAfter([](Bytes& b) { b[48] = 0x06; }), reference);     // opcode
    EXPECT_NE(IcrcAfter([](Bytes& b) { b[51] = 0xfe; }), reference);     // P_Key
    EXPECT_NE(IcrcAfter([](Bytes& b) { b[55] = 0x24; }), reference);     // DestQP
    EXPECT_NE(IcrcAfter([](Bytes& b) { b[56] = 0xa0; }), reference);     // RTX flag
    EXPECT_NE(IcrcAfter([](Bytes& b) { b[59] = 0xce; }), reference);     // PSN
    EXPECT_NE(IcrcAfter([](Bytes& b) { b[70] = 0x00; }), reference);     // RETH
    EXPECT_NE(IcrcAfter([](Bytes& b) { b.back() ^= 0x01; }), reference); // payload
}

TEST(RoceIcrc, VerifyRejectsACorruptedPacket)
{
    Bytes b = g_ipv6Write;
    b[80] ^= 0x40; // a payload bit
    EXPECT_FALSE(MrcIcrcTrailer::Verify(Create<Packet>(b.data(), b.size())));
    b = g_ipv6Write;
    b[7] = 1; // hop limit: still valid
    EXPECT_TRUE(MrcIcrcTrailer::Verify(Create<Packet>(b.data(), b.size())));
    b.back() ^= 0x80; // the ICRC itself
    EXPECT_FALSE(MrcIcrcTrailer::Verify(Create<Packet>(b.data(), b.size())));
    EXPECT_FALSE(MrcIcrcTrailer::Verify(Create<Packet>(b.data(), 3)));
}

TEST(RoceIcrc, TrailerPrints)
{
    std::ostringstream os;
    MrcIcrcTrailer(0x606c2b89).Print(os);
    EXPECT_EQ(os.str(), "icrc=0x606c2b89");
}

TEST(RoceIcrcDeathTest, RejectsPacketsItCannotCover)
{
    Bytes b(g_ipv6Write.begin(), g_ipv6Write.end() - 4);
    b[6] = 41; // IPv6-in-IPv6: the outer header of an SRv6 packet
    EXPECT_DEATH(MrcIcrcTrailer::Compute(b.data(), b.size()), "IP next header 41 is not UDP");
    EXPECT_DEATH(MrcIcrcTrailer::Compute(g_ipv6Write.data(), 50),
                 "packet of 50 bytes is shorter than IP \\+ UDP \\+ BTH");
    b[0] = 0x50;
    EXPECT_DEATH(MrcIcrcTrailer::Compute(b.data(), b.size()), "IP version 5 is not supported");
}
