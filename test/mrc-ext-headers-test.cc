/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MRC extension headers (METH, TSETH, SETH + CC_STATE, NETH, PETH, ERTH, EETH)
// and the EV wire helpers: exact sizes, hand-written byte vectors compared byte
// for byte, round trips, signed offsets, 24-bit PSN wrap and the EV splits.

#include "mrc-test-support.h"

#include "ns3/buffer.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-cc-state-header.h"
#include "ns3/mrc-eeth-header.h"
#include "ns3/mrc-entropy.h"
#include "ns3/mrc-erth-header.h"
#include "ns3/mrc-meth-header.h"
#include "ns3/mrc-neth-header.h"
#include "ns3/mrc-peth-header.h"
#include "ns3/mrc-seth-header.h"
#include "ns3/mrc-tseth-header.h"
#include "ns3/mrc-usid.h"
#include "ns3/packet.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <random>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

using Bytes = std::vector<uint8_t>;

/// Deserialize a header from bytes; checks that it consumed all of them.
template <class H>
H
Parse(const Bytes& v)
{
    Buffer b;
    b.AddAtStart(v.size());
    b.Begin().Write(v.data(), v.size());
    H h;
    EXPECT_EQ(h.Deserialize(b.Begin()), v.size());
    return h;
}

/// A header's wire bytes (MrcWireHeader::WriteTo).
template <class H>
Bytes
WireBytes(const H& h)
{
    Bytes v(h.GetSerializedSize());
    h.WriteTo(v.data());
    return v;
}

template <class H>
std::string
Printed(const H& h)
{
    std::ostringstream os;
    h.Print(os);
    return os.str();
}

} // namespace

TEST(MrcExtHeaders, SizesAreExact)
{
    EXPECT_EQ(MrcMethHeader().GetSerializedSize(), 4u);
    EXPECT_EQ(MrcTsethHeader().GetSerializedSize(), 4u);
    EXPECT_EQ(MrcSethHeader().GetSerializedSize(), 28u);
    EXPECT_EQ(MrcCcStateHeader().GetSerializedSize(), 8u);
    EXPECT_EQ(MrcNethHeader().GetSerializedSize(), 20u);
    EXPECT_EQ(MrcPethHeader().GetSerializedSize(), 16u);
    EXPECT_EQ(MrcErthHeader().GetSerializedSize(), 16u);
    EXPECT_EQ(MrcEethHeader().GetSerializedSize(), 36u);
    // the serialized byte count equals the announced size
    EXPECT_EQ(MrcTest::HeaderBytes(MrcSethHeader()).size(), 28u);
    EXPECT_EQ(MrcTest::HeaderBytes(MrcEethHeader()).size(), 36u);
}

// The per-packet paths reuse one header object per call site (MrcFreshHeader): every
// field a packet before set must be gone, and the object must be the site's own.
TEST(MrcExtHeaders, FreshHeaderIsTheSameObjectWithANewHeadersFields)
{
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::MRC_SACK);
    bth.SetDestQp(0xabcdef);
    bth.SetPsn(0x123456);
    bth.SetAckReq(true);
    bth.SetFecn(true);
    bth.SetBecn(true);
    bth.SetRetransmission(true);
    bth.SetTimestampPresent(true);
    MrcSethHeader seth;
    seth.SetPathFeedback(MrcPathFeedback::SKIP_ONCE);
    seth.SetProbeResponse(true);
    seth.SetProbeId(77);
    seth.SetEntropy(0x1234);
    seth.SetCackPsn(99);
    seth.SetCcType(MrcSethHeader::CC_TYPE_NSCC);
    seth.SetMpr(5);
    seth.SetSackBitmap(~0ULL);
    MrcCcStateHeader ccs;
    ccs.SetRcvdBytesUnits(1000);
    ccs.SetRcvCwndPen(3);
    ccs.SetRestoreCwnd(true);
    ASSERT_NE(WireBytes(bth), WireBytes(MrcBthHeader()));
    ASSERT_NE(WireBytes(seth), WireBytes(MrcSethHeader()));
    ASSERT_NE(WireBytes(ccs), WireBytes(MrcCcStateHeader()));

    EXPECT_EQ(&MrcFreshHeader(bth), &bth);
    EXPECT_EQ(WireBytes(bth), WireBytes(MrcBthHeader()));
    EXPECT_EQ(&MrcFreshHeader(seth), &seth);
    EXPECT_EQ(WireBytes(seth), WireBytes(MrcSethHeader()));
    EXPECT_EQ(&MrcFreshHeader(ccs), &ccs);
    EXPECT_EQ(WireBytes(ccs), WireBytes(MrcCcStateHeader()));
    EXPECT_FALSE(seth.IsProbeResponse());
    EXPECT_EQ(seth.GetPathFeedback(), MrcPathFeedback::NONE);
}

TEST(MrcExtHeaders, TypeIdsAreRegistered)
{
    for (const char* name : {"ns3::MrcMethHeader",
                             "ns3::MrcTsethHeader",
                             "ns3::MrcSethHeader",
                             "ns3::MrcCcStateHeader",
                             "ns3::MrcNethHeader",
                             "ns3::MrcPethHeader",
                             "ns3::MrcErthHeader",
                             "ns3::MrcEethHeader"})
    {
        TypeId tid;
        EXPECT_TRUE(TypeId::LookupByNameFailSafe(name, &tid)) << name;
    }
}

TEST(MrcMeth, BytesAndRoundTrip)
{
    MrcMethHeader h;
    h.SetRqMsn(0x1234);
    h.SetMsn(0xabcd);
    EXPECT_EQ(MrcTest::HeaderBytes(h), (Bytes{0x12, 0x34, 0xab, 0xcd}));
    auto r = Parse<MrcMethHeader>({0x12, 0x34, 0xab, 0xcd});
    EXPECT_EQ(r.GetRqMsn(), 0x1234);
    EXPECT_EQ(r.GetMsn(), 0xabcd);
}

TEST(MrcTseth, BytesAndRoundTrip)
{
    MrcTsethHeader d;
    // default: timestamp 0, tsr 0, ftype 1 (as MRC-Client and NS3X write)
    EXPECT_EQ(MrcTest::HeaderBytes(d), (Bytes{0x00, 0x00, 0x00, 0x01}));

    MrcTsethHeader h;
    h.SetTxTimestamp(0xbeef);
    h.SetTsr(true);
    h.SetFtype(0x1);
    EXPECT_EQ(MrcTest::HeaderBytes(h), (Bytes{0xbe, 0xef, 0x80, 0x01}));

    // reserved bits set on the wire are ignored
    auto r = Parse<MrcTsethHeader>({0xbe, 0xef, 0xff, 0xf5});
    EXPECT_EQ(r.GetTxTimestamp(), 0xbeef);
    EXPECT_TRUE(r.GetTsr());
    EXPECT_EQ(r.GetFtype(), 5);
    EXPECT_EQ(MrcTest::HeaderBytes(r), (Bytes{0xbe, 0xef, 0x80, 0x05}));
}

TEST(MrcTseth, TicksOf128NsWrapEvery8388608Ns)
{
    EXPECT_EQ(MrcTsethHeader::TICK_NS, 128u);
    EXPECT_EQ(MrcTsethHeader::TimeToTicks(NanoSeconds(127)), 0);
    EXPECT_EQ(MrcTsethHeader::TimeToTicks(NanoSeconds(1280)), 10);
    EXPECT_EQ(MrcTsethHeader::GetWrapPeriod(), NanoSeconds(8388608));
    // 2^16 ticks wrap to 0; two more ticks read 2
    EXPECT_EQ(MrcTsethHeader::TimeToTicks(NanoSeconds(8388608)), 0);
    EXPECT_EQ(MrcTsethHeader::TimeToTicks(NanoSeconds(8388608 + 256)), 2);
    EXPECT_EQ(MrcTsethHeader::TicksToTime(10), NanoSeconds(1280));
    // elapsed across the wrap: 0xfffe -> 0x0003 is 5 ticks
    EXPECT_EQ(MrcTsethHeader::ElapsedBetween(0xfffe, 0x0003), NanoSeconds(640));
    EXPECT_EQ(MrcTsethHeader::ElapsedBetween(100, 100), Time(0));
    // a sample taken at 8.3 ms + 5 us against a stamp from 8.3 ms - 3 us
    uint16_t sent = MrcTsethHeader::TimeToTicks(NanoSeconds(8388608 - 3072));
    uint16_t now = MrcTsethHeader::TimeToTicks(NanoSeconds(8388608 + 5120));
    EXPECT_EQ(MrcTsethHeader::ElapsedBetween(sent, now), NanoSeconds(8192));
    // another tick length
    EXPECT_EQ(MrcTsethHeader::TimeToTicks(MicroSeconds(5), 1000), 5);
}

TEST(MrcCcState, BytesAndRoundTrip)
{
    MrcCcStateHeader h;
    h.SetTxTimestamp(0x1234);
    h.SetOooCount(0x7fff);
    h.SetRestoreCwnd(true);
    h.SetRcvCwndPen(64);
    h.SetRcvdBytesUnits(0xabcdef);
    EXPECT_EQ(MrcTest::HeaderBytes(h), (Bytes{0x12, 0x34, 0x7f, 0xff, 0xc0, 0xab, 0xcd, 0xef}));

    MrcCcStateHeader g;
    g.SetTxTimestamp(0x1234);
    g.SetOooCount(5);
    g.SetRcvCwndPen(127);
    g.SetRcvdBytesUnits(1);
    EXPECT_EQ(MrcTest::HeaderBytes(g), (Bytes{0x12, 0x34, 0x00, 0x05, 0x7f, 0x00, 0x00, 0x01}));

    // the reserved bit above ooo_count is ignored on input
    auto r = Parse<MrcCcStateHeader>({0x12, 0x34, 0x80, 0x05, 0xc0, 0xab, 0xcd, 0xef});
    EXPECT_EQ(r.GetTxTimestamp(), 0x1234);
    EXPECT_EQ(r.GetOooCount(), 5);
    EXPECT_TRUE(r.GetRestoreCwnd());
    EXPECT_EQ(r.GetRcvCwndPen(), 64);
    EXPECT_EQ(r.GetRcvdBytesUnits(), 0xabcdefu);
}

TEST(MrcCcState, ReceivedBytesIn256ByteUnitsWrapAt24Bits)
{
    EXPECT_EQ(MrcCcStateHeader::RCVD_BYTES_UNIT, 256u);
    EXPECT_EQ(MrcCcStateHeader::BytesToRcvdUnits(255), 0u);
    EXPECT_EQ(MrcCcStateHeader::BytesToRcvdUnits(4096), 16u);
    EXPECT_EQ(MrcCcStateHeader::BytesToRcvdUnits(256ull * 0x1000000 + 512), 2u);
    EXPECT_EQ(MrcCcStateHeader::RcvdUnitsDeltaBytes(16, 20), 1024u);
    EXPECT_EQ(MrcCcStateHeader::RcvdUnitsDeltaBytes(0xfffffe, 0x000001), 768u);
}

TEST(MrcSeth, BytesAndRoundTrip)
{
    MrcSethHeader h;
    h.SetPathFeedback(MrcPathFeedback::SKIP_ONCE);
    h.SetAckPsnOffset(-3);
    h.SetEntropy(0xdeadbeef);
    h.SetSpdcid(0x0102);
    h.SetDpdcid(0x0304);
    h.SetCackPsn(0x123456);
    h.SetCcFlags(0x5);
    h.SetMpr(8);
    h.SetSackOffset(-1);
    h.SetSackBitmap(0x8000000000000001ull);
    const Bytes expected{0x00, 0x20, 0xff, 0xfd, 0xde, 0xad, 0xbe, 0xef, 0x01, 0x02,
                         0x03, 0x04, 0x00, 0x12, 0x34, 0x56, 0x05, 0x08, 0xff, 0xff,
                         0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01};
    EXPECT_EQ(MrcTest::HeaderBytes(h), expected);

    auto r = Parse<MrcSethHeader>(expected);
    EXPECT_EQ(r.GetType(), 0);
    EXPECT_EQ(r.GetNextHeader(), 0);
    EXPECT_EQ(r.GetPathFeedback(), MrcPathFeedback::SKIP_ONCE);
    EXPECT_FALSE(r.IsProbeResponse());
    EXPECT_EQ(r.GetAckPsnOffset(), -3);
    EXPECT_EQ(r.GetEntropy(), 0xdeadbeefu);
    EXPECT_EQ(r.GetSpdcid(), 0x0102);
    EXPECT_EQ(r.GetDpdcid(), 0x0304);
    EXPECT_EQ(r.GetCackPsn(), 0x123456u);
    EXPECT_EQ(r.GetCcType(), MrcSethHeader::CC_TYPE_NSCC);
    EXPECT_EQ(r.GetCcFlags(), 0x5);
    EXPECT_EQ(r.GetMpr(), 8);
    EXPECT_EQ(r.GetMprPsns(), 1024u);
    EXPECT_EQ(r.GetSackOffset(), -1);
    EXPECT_EQ(r.GetSackBitmap(), 0x8000000000000001ull);
    // derived PSNs
    EXPECT_EQ(r.GetAckPsn(), 0x123453u);
    EXPECT_EQ(r.GetSackBasePsn(), 0x123455u);
    EXPECT_EQ(MrcTest::HeaderBytes(r), expected);
}

TEST(MrcSeth, LeadingWordBitsAndProbeResponse)
{
    MrcSethHeader h;
    h.SetType(0xa);
    h.SetNextHeader(0x15);
    h.SetPathFeedback(MrcPathFeedback::ALWAYS_SKIP);
    h.SetProbeResponse(true);
    h.SetProbeId(0xbeef);
    h.SetCcType(0xf);
    Bytes b = MrcTest::HeaderBytes(h);
    // type 1010 | nxt 10101 | m 10 | rsv 000 | pr 1 | rsv 0 = 0xaac2
    EXPECT_EQ(b[0], 0xaa);
    EXPECT_EQ(b[1], 0xc2);
    // the probe id occupies the ack_psn_offset bytes
    EXPECT_EQ(b[2], 0xbe);
    EXPECT_EQ(b[3], 0xef);
    EXPECT_EQ(b[16], 0xf0);
    auto r = Parse<MrcSethHeader>(b);
    EXPECT_EQ(r.GetType(), 0xa);
    EXPECT_EQ(r.GetNextHeader(), 0x15);
    EXPECT_EQ(r.GetPathFeedback(), MrcPathFeedback::ALWAYS_SKIP);
    EXPECT_TRUE(r.IsProbeResponse());
    EXPECT_EQ(r.GetProbeId(), 0xbeef);
    EXPECT_EQ(r.GetCcType(), 0xf);
    EXPECT_NE(Printed(r).find("ALWAYS_SKIP"), std::string::npos);
    EXPECT_NE(Printed(r).find("probe_id=48879"), std::string::npos);
    // the reserved m value 3 survives a round trip and prints as reserved
    b[1] = 0x60;
    auto m3 = Parse<MrcSethHeader>(b);
    EXPECT_EQ(static_cast<unsigned>(m3.GetPathFeedback()), 3u);
    EXPECT_EQ(MrcPathFeedbackToString(m3.GetPathFeedback()), "RESERVED(3)");
}

TEST(MrcSeth, SignedOffsetsAnd24BitWrap)
{
    MrcSethHeader h;
    // cack near the top of the PSN space, triggering packet after the wrap
    h.SetCackPsn(0xfffffe);
    h.SetAckPsnOffset(3);
    EXPECT_EQ(h.GetAckPsn(), 0x000001u);
    h.SetAckPsn(0x000002);
    EXPECT_EQ(h.GetAckPsnOffset(), 4);
    // cack just after the wrap, triggering packet before it
    h.SetCackPsn(0x000001);
    h.SetAckPsnOffset(-2);
    EXPECT_EQ(h.GetAckPsn(), 0xffffffu);
    h.SetAckPsn(0xfffff0);
    EXPECT_EQ(h.GetAckPsnOffset(), -17);
    // extreme offsets
    h.SetCackPsn(0x100000);
    h.SetAckPsnOffset(-32768);
    EXPECT_EQ(h.GetAckPsn(), 0x0f8000u);
    h.SetAckPsnOffset(32767);
    EXPECT_EQ(h.GetAckPsn(), 0x107fffu);
    Bytes b = MrcTest::HeaderBytes(h);
    EXPECT_EQ(b[2], 0x7f);
    EXPECT_EQ(b[3], 0xff);
    h.SetSackOffset(-32768);
    b = MrcTest::HeaderBytes(h);
    EXPECT_EQ(b[18], 0x80);
    EXPECT_EQ(b[19], 0x00);
    EXPECT_EQ(Parse<MrcSethHeader>(b).GetSackOffset(), -32768);

    EXPECT_EQ(MrcSethHeader::PsnDistance(0xffffff, 0), 1);
    EXPECT_EQ(MrcSethHeader::PsnDistance(0, 0xffffff), -1);
    EXPECT_EQ(MrcSethHeader::PsnDistance(0, 0x7fffff), 0x7fffff);
    EXPECT_EQ(MrcSethHeader::PsnDistance(0, 0x800000), -0x800000);
}

TEST(MrcSeth, BitmapRelativeToSackBase)
{
    MrcSethHeader h;
    h.SetCackPsn(0x123456);
    h.SetSackOffset(-1);
    h.SetSackBitmap(0x8000000000000001ull);
    // bit 0 (LSB) = base 0x123455, bit 63 = base + 63
    EXPECT_TRUE(h.IsPsnSacked(0x123455));
    EXPECT_TRUE(h.IsPsnSacked(0x123455 + 63));
    EXPECT_FALSE(h.IsPsnSacked(0x123456));
    EXPECT_FALSE(h.IsPsnSacked(0x123454));      // before the base
    EXPECT_FALSE(h.IsPsnSacked(0x123455 + 64)); // past the end

    // a bitmap that straddles the 24-bit wrap
    MrcSethHeader w;
    w.SetCackPsn(0x000005);
    w.SetSackBasePsn(0xfffff0);
    EXPECT_EQ(w.GetSackOffset(), -21);
    EXPECT_TRUE(w.SetPsnSacked(0x000005));  // index 21
    EXPECT_TRUE(w.SetPsnSacked(0xfffff0));  // index 0
    EXPECT_TRUE(w.SetPsnSacked(0x00002f));  // index 63
    EXPECT_FALSE(w.SetPsnSacked(0x000030)); // index 64: outside, no change
    EXPECT_FALSE(w.SetPsnSacked(0xffffef)); // before the base
    EXPECT_EQ(w.GetSackBitmap(), (1ull << 21) | 1ull | (1ull << 63));
    EXPECT_TRUE(w.IsPsnSacked(0x000005));
    EXPECT_FALSE(w.IsPsnSacked(0x000004));
    Bytes b = MrcTest::HeaderBytes(w);
    const Bytes bitmap(b.begin() + 20, b.end());
    EXPECT_EQ(bitmap, (Bytes{0x80, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x01}));
}

TEST(MrcSeth, SackStackInAPacket)
{
    MrcSethHeader seth;
    seth.SetCackPsn(77);
    seth.SetAckPsn(80);
    seth.SetEntropy(0x00c0ffee);
    MrcCcStateHeader cc;
    cc.SetTxTimestamp(0x0102);
    cc.SetRcvCwndPen(3);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(cc);
    p->AddHeader(seth);
    EXPECT_EQ(p->GetSize(), 36u);
    uint8_t raw[36];
    p->CopyData(raw, sizeof(raw));
    EXPECT_EQ(raw[15], 77);   // cack_psn low byte
    EXPECT_EQ(raw[28], 0x01); // CC_STATE starts at byte 28
    EXPECT_EQ(raw[29], 0x02);
    EXPECT_EQ(raw[32], 0x03);
    MrcSethHeader s2;
    MrcCcStateHeader c2;
    EXPECT_EQ(p->RemoveHeader(s2), 28u);
    EXPECT_EQ(p->RemoveHeader(c2), 8u);
    EXPECT_EQ(s2.GetAckPsn(), 80u);
    EXPECT_EQ(s2.GetEntropy(), 0x00c0ffeeu);
    EXPECT_EQ(c2.GetTxTimestamp(), 0x0102);
    EXPECT_EQ(c2.GetRcvCwndPen(), 3);
    EXPECT_EQ(p->GetSize(), 0u);
}

TEST(MrcNeth, BytesAndRoundTrip)
{
    MrcNethHeader h;
    EXPECT_EQ(h.GetCcType(), 2); // default, as MRC-Client and NS3X write
    h.SetNackReason(MrcNackReason::TRIMMED_LASTHOP);
    h.SetVendorInfo(0x7e);
    h.SetEntropy(0x00010002);
    h.SetSpdcid(0x1111);
    h.SetDpdcid(0x2222);
    h.SetNackPsn(0xabcdef);
    h.SetCcFlags(1);
    h.SetTxTimestamp(0x0102);
    const Bytes expected{0x00, 0x00, 0x02, 0x7e, 0x00, 0x01, 0x00, 0x02, 0x11, 0x11,
                         0x22, 0x22, 0x00, 0xab, 0xcd, 0xef, 0x21, 0x00, 0x01, 0x02};
    EXPECT_EQ(MrcTest::HeaderBytes(h), expected);
    auto r = Parse<MrcNethHeader>(expected);
    EXPECT_EQ(r.GetNackReason(), MrcNackReason::TRIMMED_LASTHOP);
    EXPECT_EQ(r.GetVendorInfo(), 0x7e);
    EXPECT_EQ(r.GetEntropy(), 0x00010002u);
    EXPECT_EQ(r.GetSpdcid(), 0x1111);
    EXPECT_EQ(r.GetDpdcid(), 0x2222);
    EXPECT_EQ(r.GetNackPsn(), 0xabcdefu);
    EXPECT_EQ(r.GetCcType(), 2);
    EXPECT_EQ(r.GetCcFlags(), 1);
    EXPECT_EQ(r.GetTxTimestamp(), 0x0102);
    EXPECT_NE(Printed(r).find("TRIMMED_LASTHOP"), std::string::npos);
    // type and nxt in the leading word
    h.SetType(0x3);
    h.SetNextHeader(0x1f);
    Bytes b = MrcTest::HeaderBytes(h);
    EXPECT_EQ(b[0], 0x3f); // 0011 | 1111
    EXPECT_EQ(b[1], 0x80); // nxt[0] = 1
    EXPECT_EQ(Parse<MrcNethHeader>(b).GetNextHeader(), 0x1f);
}

TEST(MrcNeth, ReasonCodesAndNames)
{
    struct Row
    {
        MrcNackReason reason;
        uint8_t code;
        const char* name;
    };

    for (const Row& row : {Row{MrcNackReason::TRIMMED, 0x01, "TRIMMED"},
                           Row{MrcNackReason::TRIMMED_LASTHOP, 0x02, "TRIMMED_LASTHOP"},
                           Row{MrcNackReason::NO_BITMAP, 0x06, "NO_BITMAP"},
                           Row{MrcNackReason::NO_PKT_BUFFER, 0x07, "NO_PKT_BUFFER"},
                           Row{MrcNackReason::NO_RESOURCE, 0x0a, "NO_RESOURCE"},
                           Row{MrcNackReason::PSN_OOR_WINDOW, 0x0b, "PSN_OOR_WINDOW"},
                           Row{MrcNackReason::UNEXP_EVENT, 0x19, "UNEXP_EVENT"}})
    {
        EXPECT_EQ(static_cast<uint8_t>(row.reason), row.code);
        EXPECT_EQ(MrcNackReasonToString(row.reason), row.name);
        MrcNethHeader h;
        h.SetNackReason(row.reason);
        EXPECT_EQ(MrcTest::HeaderBytes(h)[2], row.code);
    }
    EXPECT_EQ(MrcNackReasonToString(static_cast<MrcNackReason>(0x03)), "UNKNOWN(0x03)");
    EXPECT_TRUE(MrcNackReasonPenalizesEv(MrcNackReason::TRIMMED));
    EXPECT_FALSE(MrcNackReasonPenalizesEv(MrcNackReason::TRIMMED_LASTHOP));
    EXPECT_TRUE(MrcNackReasonIsFatal(MrcNackReason::UNEXP_EVENT));
    EXPECT_FALSE(MrcNackReasonIsFatal(MrcNackReason::PSN_OOR_WINDOW));
}

TEST(MrcPeth, BytesAndRoundTrip)
{
    MrcPethHeader h;
    h.SetVendorInfo(0x09);
    h.SetProbeId(0x4242);
    h.SetSpdcid(0x0a0b);
    h.SetDpdcid(0x0c0d);
    h.SetTxTimestamp(0xfedc);
    const Bytes expected{0x00,
                         0x00,
                         0x00,
                         0x09,
                         0x42,
                         0x42,
                         0x00,
                         0x00,
                         0x0a,
                         0x0b,
                         0x0c,
                         0x0d,
                         0xfe,
                         0xdc,
                         0x00,
                         0x01};
    EXPECT_EQ(MrcTest::HeaderBytes(h), expected);
    auto r = Parse<MrcPethHeader>(expected);
    EXPECT_EQ(r.GetVendorInfo(), 0x09);
    EXPECT_EQ(r.GetProbeId(), 0x4242);
    EXPECT_EQ(r.GetSpdcid(), 0x0a0b);
    EXPECT_EQ(r.GetDpdcid(), 0x0c0d);
    EXPECT_EQ(r.GetTxTimestamp(), 0xfedc);
    EXPECT_FALSE(r.GetTsr());
    EXPECT_EQ(r.GetFtype(), 1);
    h.SetTsr(true);
    h.SetFtype(0xf);
    Bytes b = MrcTest::HeaderBytes(h);
    EXPECT_EQ(b[14], 0x80);
    EXPECT_EQ(b[15], 0x0f);
    auto r2 = Parse<MrcPethHeader>(b);
    EXPECT_TRUE(r2.GetTsr());
    EXPECT_EQ(r2.GetFtype(), 0xf);
}

TEST(MrcErth, PortStatusUpdateBytes)
{
    EXPECT_EQ(MRC_ENDPOINT_QPN, 0x2u);
    EXPECT_EQ(MrcEndpointRequestIdOfPsn(0xab1234), 0x1234);

    MrcErthHeader h;
    h.SetOp(MrcEndpointOp::PORT_STATUS_UPDATE);
    for (uint32_t port : {1u, 2u, 3u, 5u})
    {
        h.SetPortReachable(port, true);
    }
    EXPECT_EQ(h.GetPortStatusMask(), 0x2eu); // bits 1, 2, 3, 5: bit N = port N
    h.SetTxTimestamp(0x0010);
    h.SetTsr(true);
    const Bytes expected{0x00,
                         0x00,
                         0x00,
                         0x00,
                         0x00,
                         0x00,
                         0x00,
                         0x2e,
                         0x00,
                         0x00,
                         0x00,
                         0x00,
                         0x00,
                         0x10,
                         0x80,
                         0x01};
    EXPECT_EQ(MrcTest::HeaderBytes(h), expected);
    auto r = Parse<MrcErthHeader>(expected);
    EXPECT_EQ(r.GetOp(), MrcEndpointOp::PORT_STATUS_UPDATE);
    EXPECT_EQ(r.GetPortStatusMask(), 0x2eu);
    EXPECT_TRUE(r.IsPortReachable(5));
    EXPECT_FALSE(r.IsPortReachable(4));
    EXPECT_EQ(r.GetTxTimestamp(), 0x0010);
    EXPECT_TRUE(r.GetTsr());
    EXPECT_EQ(r.GetFtype(), 1);

    h.SetPortReachable(4, true);
    h.SetPortReachable(1, false);
    EXPECT_EQ(h.GetPortStatusMask(), 0x3cu);
    EXPECT_EQ(MrcErthHeader::MAX_PORT, 31u);
    EXPECT_EQ(MrcErthHeader::PortBit(31), 0x80000000u);
}

TEST(MrcErth, EvProbeBytes)
{
    MrcErthHeader h;
    h.SetOp(MrcEndpointOp::EV_PROBE);
    h.SetVendorInfo(0xa5);
    Bytes b = MrcTest::HeaderBytes(h);
    EXPECT_EQ(b,
              (Bytes{0x00,
                     0x01,
                     0x00,
                     0xa5,
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
                     0x01}));
    auto r = Parse<MrcErthHeader>(b);
    EXPECT_EQ(r.GetOp(), MrcEndpointOp::EV_PROBE);
    EXPECT_EQ(r.GetVendorInfo(), 0xa5);
    EXPECT_EQ(MrcEndpointOpToString(r.GetOp()), "EV_PROBE");
    EXPECT_EQ(MrcEndpointOpToString(static_cast<MrcEndpointOp>(3)), "UNKNOWN(3)");
}

TEST(MrcEeth, BytesAndRoundTrip)
{
    MrcEethHeader h;
    h.SetOp(MrcEndpointOp::EV_PROBE);
    h.SetTxTimestamp(0x1234);
    Bytes expected(36, 0);
    expected[1] = 0x04; // op = 1 in bits 3..2 (pcap-view's position)
    expected[28] = 0x12;
    expected[29] = 0x34;
    EXPECT_EQ(MrcTest::HeaderBytes(h), expected);
    // reserved bytes set on the wire do not disturb the fields
    Bytes noisy(36, 0x00);
    noisy[1] = 0x04 | 0x03;
    for (int i = 4; i < 28; ++i)
    {
        noisy[i] = 0xff;
    }
    noisy[28] = 0x12;
    noisy[29] = 0x34;
    noisy[30] = 0xff;
    noisy[35] = 0xff;
    auto r = Parse<MrcEethHeader>(noisy);
    EXPECT_EQ(r.GetOp(), MrcEndpointOp::EV_PROBE);
    EXPECT_EQ(r.GetTxTimestamp(), 0x1234);
    EXPECT_EQ(MrcTest::HeaderBytes(r), expected);

    MrcEethHeader p;
    p.SetOp(MrcEndpointOp::PORT_STATUS_UPDATE);
    EXPECT_EQ(MrcTest::HeaderBytes(p)[1], 0x00);
}

TEST(MrcEntropy, SplitsWithHandComputedValues)
{
    const uint32_t ev = 0x12345678;
    MrcEvWire low = MrcEvEncode(ev, MrcEvSplit::SRC_PORT_LOW);
    EXPECT_EQ(low.udpSrcPort, 0x5678);
    EXPECT_EQ(low.flowLabel, 0x01234u);
    MrcEvWire high = MrcEvEncode(ev, MrcEvSplit::SRC_PORT_HIGH);
    EXPECT_EQ(high.udpSrcPort, 0x1234);
    EXPECT_EQ(high.flowLabel, 0x05678u);
    EXPECT_EQ(MrcEvDecode(0x5678, 0x01234, MrcEvSplit::SRC_PORT_LOW), ev);
    EXPECT_EQ(MrcEvDecode(0x1234, 0x05678, MrcEvSplit::SRC_PORT_HIGH), ev);
    // flow label bits 19..16 are not part of the EV
    EXPECT_EQ(MrcEvDecode(0x5678, 0xf1234, MrcEvSplit::SRC_PORT_LOW), ev);
    EXPECT_EQ(MrcEvDecode(0x1234, 0xf5678, MrcEvSplit::SRC_PORT_HIGH), ev);
    // a 16-bit EV in UDP-only mode (no flow label): same source port under the default
    EXPECT_EQ(MrcEvDecode(0xabcd, 0, MrcEvSplit::SRC_PORT_LOW), 0x0000abcdu);
    EXPECT_EQ(MrcEvEncode(0xabcd, MrcEvSplit::SRC_PORT_LOW).udpSrcPort, 0xabcd);
    EXPECT_EQ(MRC_EV_SPLIT_DEFAULT, MrcEvSplit::SRC_PORT_LOW);
    EXPECT_EQ(MrcEvSplitToString(MrcEvSplit::SRC_PORT_HIGH), "SRC_PORT_HIGH");
    // round trip of extremes
    for (uint32_t v : {0u, 0xffffffffu, 0x0000ffffu, 0xffff0000u, 0x80000001u})
    {
        for (MrcEvSplit s : {MrcEvSplit::SRC_PORT_LOW, MrcEvSplit::SRC_PORT_HIGH})
        {
            MrcEvWire w = MrcEvEncode(v, s);
            EXPECT_LE(w.flowLabel, 0xffffu);
            EXPECT_EQ(MrcEvDecode(w.udpSrcPort, w.flowLabel, s), v);
        }
    }
}

TEST(MrcEntropy, WrittenIntoUdpAndIpv6Headers)
{
    UdpHeader udp;
    Ipv6Header ip;
    ip.SetSource(Ipv6Address("fd00::1"));
    ip.SetDestination(Ipv6Address("fd00::2"));
    ip.SetNextHeader(17);
    ip.SetPayloadLength(0);
    ip.SetHopLimit(64);
    ip.SetTrafficClass(0);
    MrcEvWrite(0x12345678, MrcEvSplit::SRC_PORT_LOW, udp, ip);
    EXPECT_EQ(udp.GetSourcePort(), 0x5678);
    EXPECT_EQ(ip.GetFlowLabel(), 0x01234u);
    EXPECT_EQ(MrcEvRead(udp, ip, MrcEvSplit::SRC_PORT_LOW), 0x12345678u);
    // the flow label on the wire: version 6, traffic class 0, label 0x01234
    Bytes b = MrcTest::HeaderBytes(ip);
    EXPECT_EQ(b[0], 0x60);
    EXPECT_EQ(b[1], 0x00); // traffic class low nibble 0, label[19:16] = 0
    EXPECT_EQ(b[2], 0x12);
    EXPECT_EQ(b[3], 0x34);
    MrcEvWrite(0x12345678, MrcEvSplit::SRC_PORT_HIGH, udp, ip);
    EXPECT_EQ(udp.GetSourcePort(), 0x1234);
    EXPECT_EQ(ip.GetFlowLabel(), 0x05678u);
    EXPECT_EQ(MrcEvRead(udp, ip, MrcEvSplit::SRC_PORT_HIGH), 0x12345678u);
    // reading with the wrong split swaps the halves
    EXPECT_EQ(MrcEvRead(udp, ip, MrcEvSplit::SRC_PORT_LOW), 0x56781234u);
}

TEST(MrcEntropy, Srv6EvLayout)
{
    // the plane field holds plane + 1, as in a model uSID (mrc-usid.h)
    uint32_t ev = MrcSrv6EvMake(2, 42);
    EXPECT_EQ(ev, 0x302au);
    EXPECT_EQ(MrcSrv6EvPlane(ev), 2u);
    EXPECT_EQ(MrcSrv6EvUplink(ev), 42u);
    EXPECT_TRUE(MrcSrv6EvIsValid(ev));
    EXPECT_FALSE(MrcSrv6EvIsValid(0x0100302a));
    EXPECT_FALSE(MrcSrv6EvIsValid(0x0f2a)); // bits 11..8 are not used
    EXPECT_FALSE(MrcSrv6EvIsValid(0x002a)); // plane field 0 is not a plane
    EXPECT_EQ(MrcSrv6EvMake(14, 255), 0xf0ffu);
    EXPECT_EQ(MrcSrv6EvMake(0, 0), 0x1000u);
    // copying the plane into a uSID is a mask and an OR, and agrees with mrc-usid.h
    EXPECT_EQ(MrcSrv6UsidWithPlane(0x0405, ev), 0x3405);
    EXPECT_EQ(MrcSrv6UsidWithPlane(0xf405, ev), 0x3405);
    EXPECT_EQ(MrcSrv6UsidWithPlane(0xf405, ev), MrcUsidWithPlane(0xf405, 2));
    // under the default split the SRv6 EV rides in the UDP source port
    EXPECT_EQ(MrcEvEncode(ev, MRC_EV_SPLIT_DEFAULT).udpSrcPort, 0x302a);
    EXPECT_EQ(MrcEvEncode(ev, MRC_EV_SPLIT_DEFAULT).flowLabel, 0u);
}

TEST(MrcExtHeadersDeathTest, OutOfRangeValuesAbort)
{
    EXPECT_DEATH(MrcSethHeader().SetCackPsn(0x1000000), "cack_psn");
    EXPECT_DEATH(
        {
            MrcSethHeader h;
            h.SetCackPsn(0);
            h.SetAckPsn(0x8000); // +32768 does not fit in int16
        },
        "ack_psn_offset");
    EXPECT_DEATH(MrcNethHeader().SetNackPsn(0x1000000), "nack_psn");
    EXPECT_DEATH(MrcCcStateHeader().SetOooCount(0x8000), "ooo_count");
    EXPECT_DEATH(MrcCcStateHeader().SetRcvCwndPen(128), "rcv_cwnd_pen");
    EXPECT_DEATH(MrcErthHeader().SetPortReachable(0, true), "ports are 1");
    EXPECT_DEATH(MrcSrv6EvMake(15, 0), "plane");
    EXPECT_DEATH(MrcTsethHeader().SetFtype(16), "ftype");
}

TEST(MrcSackHeaders, ReadBytesTakesEveryFieldFromItsBytes)
{
    // ReadBytes (the SACK path's reader, also behind Deserialize) on random bytes: each field
    // is the one at its offset, and the header writes the same bytes back (but the reserved
    // ones: SETH's byte 12 and the reserved bits of its leading word, CC_STATE's bit above
    // ooo_count).
    std::mt19937 rng(5);
    for (int n = 0; n < 2000; ++n)
    {
        Bytes b(MrcSethHeader::SIZE + MrcCcStateHeader::SIZE);
        for (uint8_t& x : b)
        {
            x = static_cast<uint8_t>(rng());
        }
        auto u16 = [&b](std::size_t i) { return static_cast<uint16_t>((b[i] << 8) | b[i + 1]); };
        auto u32 = [&u16](std::size_t i) { return (uint32_t(u16(i)) << 16) | u16(i + 2); };
        MrcSethHeader seth;
        seth.ReadBytes(b.data());
        EXPECT_EQ(seth.GetAckPsnOffset(), static_cast<int16_t>(u16(2)));
        EXPECT_EQ(seth.GetEntropy(), u32(4));
        EXPECT_EQ(seth.GetSpdcid(), u16(8));
        EXPECT_EQ(seth.GetDpdcid(), u16(10));
        EXPECT_EQ(seth.GetCackPsn(), (uint32_t(b[13]) << 16) | u16(14));
        EXPECT_EQ(seth.GetCcType(), b[16] >> 4);
        EXPECT_EQ(seth.GetCcFlags(), b[16] & 0xf);
        EXPECT_EQ(seth.GetMpr(), b[17]);
        EXPECT_EQ(seth.GetSackOffset(), static_cast<int16_t>(u16(18)));
        EXPECT_EQ(seth.GetSackBitmap(), (uint64_t(u32(20)) << 32) | u32(24));
        const Bytes sethOut = MrcTest::HeaderBytes(seth);
        EXPECT_TRUE(
            std::equal(b.begin() + 13, b.begin() + MrcSethHeader::SIZE, sethOut.begin() + 13));
        EXPECT_TRUE(std::equal(b.begin() + 2, b.begin() + 12, sethOut.begin() + 2));
        EXPECT_EQ(Printed(Parse<MrcSethHeader>(Bytes(b.begin(), b.begin() + MrcSethHeader::SIZE))),
                  Printed(seth));

        MrcCcStateHeader ccs;
        const uint8_t* c = b.data() + MrcSethHeader::SIZE;
        ccs.ReadBytes(c);
        EXPECT_EQ(ccs.GetTxTimestamp(), u16(MrcSethHeader::SIZE));
        EXPECT_EQ(ccs.GetOooCount(), u16(MrcSethHeader::SIZE + 2) & 0x7fff);
        EXPECT_EQ(ccs.GetRestoreCwnd(), (c[4] & 0x80) != 0);
        EXPECT_EQ(ccs.GetRcvCwndPen(), c[4] & 0x7f);
        EXPECT_EQ(ccs.GetRcvdBytesUnits(), u32(MrcSethHeader::SIZE + 4) & 0xffffff);
        Bytes expected(c, c + MrcCcStateHeader::SIZE);
        expected[2] &= 0x7f;
        EXPECT_EQ(MrcTest::HeaderBytes(ccs), expected);
    }
}
