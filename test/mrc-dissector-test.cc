/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The Wireshark dissector wireshark/mrc.lua, run by tshark on the wire gallery
// (examples/mrc-wire-gallery) and on frames written here: nothing is left as
// unknown or vendor data, nothing is malformed or draws a warning, and the
// decoded fields hold the values that were written. Also the UDP checksum of
// model/wire/mrc-udp-checksum.h, against ns-3's own UdpHeader.

#include "mrc-test-support.h"

#include "ns3/ethernet-header.h"
#include "ns3/ipv6-header.h"
#include "ns3/mrc-aeth-header.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-cc-state-header.h"
#include "ns3/mrc-eeth-header.h"
#include "ns3/mrc-erth-header.h"
#include "ns3/mrc-icrc-trailer.h"
#include "ns3/mrc-imm-dt-header.h"
#include "ns3/mrc-meth-header.h"
#include "ns3/mrc-opcodes.h"
#include "ns3/mrc-packet-info.h"
#include "ns3/mrc-reth-header.h"
#include "ns3/mrc-seth-header.h"
#include "ns3/mrc-traffic-class.h"
#include "ns3/mrc-tseth-header.h"
#include "ns3/mrc-udp-checksum.h"
#include "ns3/packet.h"
#include "ns3/pcap-file.h"
#include "ns3/trace-helper.h"
#include "ns3/udp-header.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using ns3::MrcTest::ScopedTempDir;
using ns3::MrcTest::Shell;

namespace
{

namespace fs = std::filesystem;

/// \return the dissector in the source tree
std::string
Script()
{
    return std::string(MRC_SOURCE_DIR) + "/wireshark/mrc.lua";
}

/// \return the start of a tshark command that loads the dissector and checks UDP checksums
std::string
Tshark(const std::string& pcap)
{
    return "tshark -X lua_script:'" + Script() + "' -o udp.check_checksum:TRUE -r '" + pcap + "'";
}

/// One decoded frame: field name -> value (every occurrence, comma-separated).
using Row = std::map<std::string, std::string>;

/// \return the listed fields of every frame of a capture, decoded with the dissector
std::vector<Row>
Fields(const std::string& pcap, const std::vector<std::string>& fields)
{
    std::string cmd = Tshark(pcap) + " -T fields -E separator=/t -E occurrence=a -E aggregator=,";
    for (const auto& f : fields)
    {
        cmd += " -e " + f;
    }
    auto r = Shell(cmd + " 2>/dev/null");
    EXPECT_EQ(r.first, 0) << cmd;
    std::vector<Row> rows;
    for (const auto& line : ns3::MrcTest::Lines(r.second))
    {
        std::vector<std::string> cols;
        std::string cur;
        std::istringstream is(line);
        while (std::getline(is, cur, '\t'))
        {
            cols.push_back(cur);
        }
        Row row;
        for (std::size_t i = 0; i < fields.size(); ++i)
        {
            row[fields[i]] = i < cols.size() ? cols[i] : "";
        }
        rows.push_back(row);
    }
    return rows;
}

/**
 * \param pcap a capture
 * \return the lines of tshark -V output (dissector loaded) that show undecoded data: vendor
 *         or unknown header bytes, unknown opcodes, malformed packets, Lua errors. IPv6 DSCP
 *         names ("DSCP: Unknown (4)": Wireshark names only the standard code points) are
 *         not about undecoded bytes and are left out.
 */
std::string
UndecodedLines(const std::string& pcap)
{
    auto r = Shell(Tshark(pcap) + " -V 2>&1");
    EXPECT_EQ(r.first, 0);
    std::string bad;
    for (const auto& line : ns3::MrcTest::Lines(r.second))
    {
        bool dscp = line.find("Differentiated Services Codepoint") != std::string::npos ||
                    line.find("Traffic Class:") != std::string::npos;
        bool unknown = line.find("Unknown") != std::string::npos ||
                       line.find("Vendor Specific") != std::string::npos ||
                       line.find("Malformed") != std::string::npos ||
                       line.find("Lua Error") != std::string::npos ||
                       line.find("Expert Info (Error") != std::string::npos ||
                       line.find("Expert Info (Warning") != std::string::npos;
        if (unknown && !dscp)
        {
            bad += line + "\n";
        }
    }
    return bad;
}

/// \return the frames that are malformed, draw a warning or an error, or hold vendor data
std::string
ProblemFrames(const std::string& pcap)
{
    auto r = Shell(Tshark(pcap) +
                   " -Y '_ws.malformed || _ws.expert.severity >= warning || infiniband.vendor'"
                   " -T fields -e frame.number -e _ws.expert.message 2>&1");
    EXPECT_EQ(r.first, 0);
    // Standard error is kept (a capture cut short is reported there), but not the
    // warning tshark gives when it runs as root.
    std::string out;
    for (const auto& line : ns3::MrcTest::Lines(r.second))
    {
        if (line.rfind("Running as user", 0) != 0)
        {
            out += line + "\n";
        }
    }
    return out;
}

// ---------------------------------------------------------------------------
// Frames written here: the headers the gallery does not show.

const Ipv6Address SRC("2001:db8:a::1"); ///< sender
const Ipv6Address DST("2001:db8:b::1"); ///< receiver

/// How the ICRC of a frame is written.
enum class Icrc
{
    REAL, ///< computed
    ZERO, ///< zero, as with ComputeIcrc = false
    BAD,  ///< computed, then spoiled
};

/**
 * Wrap the transport part (BTH onward) as a NIC does: IPv6 and UDP (raw bytes), ICRC,
 * then the UDP checksum; then an Ethernet header.
 */
Ptr<Packet>
Wrap(Ptr<Packet> t, uint16_t srcPort, uint32_t flowLabel, Icrc icrc, bool checksum = true)
{
    Ptr<Packet> p = t->Copy();
    const uint32_t udpLength = p->GetSize() + MRC_UDP_HEADER_BYTES + 4;
    const uint8_t udp[MRC_UDP_HEADER_BYTES] = {uint8_t(srcPort >> 8),
                                               uint8_t(srcPort),
                                               uint8_t(MRC_ROCEV2_UDP_PORT >> 8),
                                               uint8_t(MRC_ROCEV2_UDP_PORT & 0xff),
                                               uint8_t(udpLength >> 8),
                                               uint8_t(udpLength),
                                               0,
                                               0};
    MrcIpv6Fields ip;
    ip.trafficClass = MrcMakeTrafficClass(MrcDscp::CONTROL, MrcEcn::NOT_ECT);
    ip.flowLabel = flowLabel;
    ip.payloadLength = static_cast<uint16_t>(udpLength);
    ip.nextHeader = MrcIpProto::UDP;
    ip.hopLimit = 64;
    ip.src = SRC;
    ip.dst = DST;
    MrcAddIpv6Header(p, ip, udp, MRC_UDP_HEADER_BYTES);
    uint32_t value = icrc == Icrc::ZERO ? 0 : MrcIcrcTrailer::Compute(p);
    if (icrc == Icrc::BAD)
    {
        value ^= 0x00010000;
    }
    p->AddTrailer(MrcIcrcTrailer(value));
    if (checksum)
    {
        MrcUdpChecksum::Fill(p);
    }
    EthernetHeader eth(false);
    eth.SetSource(Mac48Address("02:00:00:00:0a:01"));
    eth.SetDestination(Mac48Address("02:00:00:00:f0:01"));
    eth.SetLengthType(0x86dd);
    p->AddHeader(eth);
    return p;
}

/// \return a BTH
MrcBthHeader
Bth(uint8_t opcode, uint32_t qp, uint32_t psn)
{
    MrcBthHeader bth;
    bth.SetOpcode(opcode);
    bth.SetDestQp(qp);
    bth.SetPsn(psn);
    return bth;
}

/// The extra frames, in file order.
std::vector<Ptr<Packet>>
ExtraFrames()
{
    std::vector<Ptr<Packet>> frames;
    // 1: MRC Write Only with Immediate, retransmitted, with a TSETH: METH, TSETH, RETH, ImmDt,
    // 64 payload bytes.
    {
        Ptr<Packet> t = Create<Packet>(64);
        MrcImmDtHeader imm;
        imm.SetImmediate(0xcafef00d);
        t->AddHeader(imm);
        MrcRethHeader reth;
        reth.SetVirtualAddress(0x1122334455667788ULL);
        reth.SetRkey(0xa5a5a5a5);
        reth.SetDmaLength(64);
        t->AddHeader(reth);
        MrcTsethHeader tseth;
        tseth.SetTxTimestamp(0x1234);
        t->AddHeader(tseth);
        MrcMethHeader meth;
        meth.SetRqMsn(3);
        meth.SetMsn(41);
        t->AddHeader(meth);
        MrcBthHeader bth = Bth(MrcOpcode::MRC_WRITE_ONLY_IMM, 0x000456, 0x00abcd);
        bth.SetRetransmission(true);
        bth.SetTimestampPresent(true);
        bth.SetAckReq(true);
        t->AddHeader(bth);
        frames.push_back(Wrap(t, 0x1005, 0, Icrc::REAL));
    }
    // 2: MRC SACK answering a probe (pr = 1, probe id in the offset field), path feedback
    // SKIP_ONCE, three PSNs marked in the bitmap; CC_STATE with every field set.
    {
        MrcSethHeader seth;
        seth.SetPathFeedback(MrcPathFeedback::SKIP_ONCE);
        seth.SetProbeResponse(true);
        seth.SetProbeId(0x0077);
        seth.SetEntropy(0xdeadbeef);
        seth.SetSpdcid(0x0456);
        seth.SetDpdcid(0x0123);
        seth.SetCackPsn(0x000100);
        seth.SetCcType(MrcSethHeader::CC_TYPE_NSCC);
        seth.SetMpr(16);
        seth.SetSackOffset(2);
        seth.SetSackBitmap(0x8000000000000005ULL);
        MrcCcStateHeader cc;
        cc.SetTxTimestamp(0x0101);
        cc.SetOooCount(9);
        cc.SetRestoreCwnd(true);
        cc.SetRcvCwndPen(5);
        cc.SetRcvdBytesUnits(0x000300);
        Ptr<Packet> t = Create<Packet>();
        t->AddHeader(cc);
        t->AddHeader(seth);
        t->AddHeader(Bth(MrcOpcode::MRC_SACK, 0x000123, 0x000100));
        frames.push_back(Wrap(t, 0x434b, 0x5341, Icrc::REAL));
    }
    // 3: MRC Transport ACK (AETH).
    {
        MrcAethHeader aeth;
        aeth.SetAck();
        aeth.SetMsn(12);
        Ptr<Packet> t = Create<Packet>();
        t->AddHeader(aeth);
        t->AddHeader(Bth(MrcOpcode::MRC_TRANSPORT_ACK, 0x000123, 0x000200));
        frames.push_back(Wrap(t, 0x0001, 0, Icrc::REAL));
    }
    // 4: Endpoint Request (ERTH): ports 1 and 3 up.
    {
        MrcErthHeader erth;
        erth.SetOp(MrcEndpointOp::PORT_STATUS_UPDATE);
        erth.SetPortStatusMask(0x0000000a);
        erth.SetTxTimestamp(0x0222);
        Ptr<Packet> t = Create<Packet>();
        t->AddHeader(erth);
        t->AddHeader(Bth(MrcOpcode::MRC_ENDPOINT_REQUEST, MRC_ENDPOINT_QPN, 0x000005));
        frames.push_back(Wrap(t, 0x0002, 0, Icrc::REAL));
    }
    // 5: Endpoint Response (EETH), an EV probe answer, ICRC left zero (ComputeIcrc false).
    {
        MrcEethHeader eeth;
        eeth.SetOp(MrcEndpointOp::EV_PROBE);
        eeth.SetTxTimestamp(0x0222);
        Ptr<Packet> t = Create<Packet>();
        t->AddHeader(eeth);
        t->AddHeader(Bth(MrcOpcode::MRC_ENDPOINT_RESPONSE, MRC_ENDPOINT_QPN, 0x000005));
        frames.push_back(Wrap(t, 0x0003, 0, Icrc::ZERO));
    }
    return frames;
}

/// Write frames to a pcap file.
void
WritePcap(const std::string& path, const std::vector<Ptr<Packet>>& frames)
{
    PcapFile file;
    file.Open(path, std::ios::out);
    file.Init(PcapHelper::DLT_EN10MB);
    uint32_t us = 1;
    for (const auto& f : frames)
    {
        file.Write(0, us++, f);
    }
    file.Close();
}

/// Shared state: the gallery and the extra frames, written once.
class Dissector : public ::testing::Test
{
  protected:
    static void SetUpTestSuite()
    {
        s_dir = new ScopedTempDir("mrc-dissector");
        s_extra = (fs::path(s_dir->Path()) / "extra.pcap").string();
        WritePcap(s_extra, ExtraFrames());
        std::string gallery = ns3::MrcTest::ExampleBinary("mrc-wire-gallery");
        if (!gallery.empty())
        {
            Shell("'" + gallery + "' --out='" + s_dir->Path() + "' >/dev/null 2>&1");
            s_gallery = (fs::path(s_dir->Path()) / "wire-gallery.pcap").string();
        }
    }

    static void TearDownTestSuite()
    {
        delete s_dir;
        s_dir = nullptr;
    }

    void SetUp() override
    {
        ASSERT_EQ(Shell("command -v tshark >/dev/null").first, 0)
            << "tshark is not installed (Debian package tshark; ./ns3-mrc test installs it)";
        ASSERT_TRUE(fs::exists(Script())) << Script();
    }

    static ScopedTempDir* s_dir;  ///< the folder of the captures
    static std::string s_gallery; ///< the gallery's capture ("" without the example)
    static std::string s_extra;   ///< the capture of ExtraFrames()
};

ScopedTempDir* Dissector::s_dir = nullptr;
std::string Dissector::s_gallery;
std::string Dissector::s_extra;

} // namespace

TEST_F(Dissector, GalleryHasNoUnknownBytesAndNoProblems)
{
    if (s_gallery.empty())
    {
        GTEST_SKIP() << "examples/mrc-wire-gallery is not built here";
    }
    ASSERT_TRUE(fs::exists(s_gallery));
    EXPECT_EQ(UndecodedLines(s_gallery), "");
    EXPECT_EQ(ProblemFrames(s_gallery), "");
    // Without the dissector the same capture does show vendor data (the check can fail).
    auto plain = Shell("tshark -r '" + s_gallery + "' -Y infiniband.vendor -T fields -e " +
                       "frame.number 2>/dev/null");
    EXPECT_EQ(plain.second, "8\n9\n10\n11\n12\n13\n14\n");
}

TEST_F(Dissector, GalleryFieldsHoldWhatTheGalleryWrote)
{
    if (s_gallery.empty())
    {
        GTEST_SKIP() << "examples/mrc-wire-gallery is not built here";
    }
    const std::vector<std::string> fields = {"frame.number",
                                             "frame.protocols",
                                             "udp.checksum.status",
                                             "infiniband.bth.opcode",
                                             "mrc.bth.opcode",
                                             "mrc.bth.psn",
                                             "mrc.bth.destqp",
                                             "mrc.bth.becn",
                                             "mrc.bth.ts",
                                             "mrc.ev",
                                             "mrc.meth.msn",
                                             "mrc.tseth.tx_timestamp",
                                             "mrc.reth.dma_length",
                                             "mrc.reth.rkey",
                                             "mrc.payload.length",
                                             "mrc.trimmed",
                                             "mrc.icrc",
                                             "mrc.icrc.status",
                                             "mrc.neth.nack_reason",
                                             "mrc.neth.nack_psn",
                                             "mrc.neth.entropy",
                                             "mrc.seth.cack_psn",
                                             "mrc.seth.ack_psn",
                                             "mrc.seth.sack_base_psn",
                                             "mrc.seth.entropy",
                                             "mrc.seth.mpr",
                                             "mrc.cc_state.tx_timestamp",
                                             "mrc.cc_state.rcvd_bytes",
                                             "mrc.peth.probe_id",
                                             "mrc.cnp.reserved"};
    std::vector<Row> rows = Fields(s_gallery, fields);
    ASSERT_EQ(rows.size(), 16u);
    for (std::size_t i = 0; i < 14; ++i)
    {
        SCOPED_TRACE("frame " + std::to_string(i + 1));
        EXPECT_EQ(rows[i]["udp.checksum.status"], "1"); // Good
        if (i < 7)
        {
            // RoCE RC frames: Wireshark's InfiniBand dissector, untouched.
            EXPECT_NE(rows[i]["infiniband.bth.opcode"], "");
            EXPECT_EQ(rows[i]["mrc.bth.opcode"], "");
            continue;
        }
        EXPECT_EQ(rows[i]["infiniband.bth.opcode"], "");
        EXPECT_EQ(rows[i]["frame.protocols"].substr(rows[i]["frame.protocols"].size() - 8),
                  ":udp:mrc");
        // Every frame with an ICRC checks good; only the trimmed one (11) has none.
        EXPECT_EQ(rows[i]["mrc.icrc.status"], i == 10 ? "" : "1");
        EXPECT_EQ(rows[i]["mrc.trimmed"], i == 10 ? "1" : "");
    }
    // 8: CNP, BECN set, 16 zero bytes.
    EXPECT_EQ(rows[7]["mrc.bth.opcode"], "0x81");
    EXPECT_EQ(rows[7]["mrc.bth.becn"], "1");
    EXPECT_EQ(rows[7]["mrc.bth.destqp"], "0x000123");
    EXPECT_EQ(rows[7]["mrc.cnp.reserved"], std::string(32, '0'));
    // 9: MRC Write First, SRv6 EV 0x1005: METH MSN 7, RETH 512 B, 256 payload bytes.
    EXPECT_EQ(rows[8]["mrc.bth.opcode"], "0xc6");
    EXPECT_EQ(rows[8]["mrc.bth.psn"], "8192");
    EXPECT_EQ(rows[8]["mrc.ev"], "0x00001005");
    EXPECT_EQ(rows[8]["mrc.meth.msn"], "7");
    EXPECT_EQ(rows[8]["mrc.reth.dma_length"], "512");
    EXPECT_EQ(rows[8]["mrc.reth.rkey"], "0x1234abcd");
    EXPECT_EQ(rows[8]["mrc.payload.length"], "256");
    EXPECT_EQ(rows[8]["mrc.tseth.tx_timestamp"], "");
    // 10: MRC Write Last with TS: TSETH 0x0abc.
    EXPECT_EQ(rows[9]["mrc.bth.ts"], "1");
    EXPECT_EQ(rows[9]["mrc.tseth.tx_timestamp"], "2748");
    EXPECT_EQ(rows[9]["mrc.ev"], "0x00002009");
    EXPECT_EQ(rows[9]["mrc.payload.length"], "256");
    // 11: trimmed Write Only: headers only, no ICRC.
    EXPECT_EQ(rows[10]["mrc.bth.opcode"], "0xca");
    EXPECT_EQ(rows[10]["mrc.meth.msn"], "8");
    EXPECT_EQ(rows[10]["mrc.reth.dma_length"], "256");
    EXPECT_EQ(rows[10]["mrc.payload.length"], "0");
    EXPECT_EQ(rows[10]["mrc.icrc"], "");
    // 12: NACK, reason TRIMMED, of PSN 0x2002; reflects EV 0x1005; its own EV is "NACK".
    EXPECT_EQ(rows[11]["mrc.neth.nack_reason"], "0x01");
    EXPECT_EQ(rows[11]["mrc.neth.nack_psn"], "8194");
    EXPECT_EQ(rows[11]["mrc.neth.entropy"], "0x00001005");
    EXPECT_EQ(rows[11]["mrc.ev"], "0x4e41434b");
    // 13: SACK: cack_psn 0x2001 (= ack_psn), bitmap base 0x2002, mpr 8, reflected EV 0x2009;
    // CC_STATE tx_timestamp 0x0abc, 2 units of received bytes.
    EXPECT_EQ(rows[12]["mrc.seth.cack_psn"], "8193");
    EXPECT_EQ(rows[12]["mrc.seth.ack_psn"], "8193");
    EXPECT_EQ(rows[12]["mrc.seth.sack_base_psn"], "8194");
    EXPECT_EQ(rows[12]["mrc.seth.mpr"], "8");
    EXPECT_EQ(rows[12]["mrc.seth.entropy"], "0x00002009");
    EXPECT_EQ(rows[12]["mrc.cc_state.tx_timestamp"], "2748");
    EXPECT_EQ(rows[12]["mrc.cc_state.rcvd_bytes"], "2");
    EXPECT_EQ(rows[12]["mrc.ev"], "0x5341434b");
    // 14: probe: PETH probe id 0x42, PSN 0; its timestamp block 0x0def.
    EXPECT_EQ(rows[13]["mrc.bth.opcode"], "0xde");
    EXPECT_EQ(rows[13]["mrc.bth.psn"], "0");
    EXPECT_EQ(rows[13]["mrc.peth.probe_id"], "0x0042");
    EXPECT_EQ(rows[13]["mrc.tseth.tx_timestamp"], "3567");
    EXPECT_EQ(rows[13]["mrc.ev"], "0x50524f42");
}

TEST_F(Dissector, ExtraHeadersDecodeAndChecksumsCheck)
{
    EXPECT_EQ(UndecodedLines(s_extra), "");
    EXPECT_EQ(ProblemFrames(s_extra), "");
    const std::vector<std::string> fields = {"udp.checksum.status",
                                             "mrc.bth.opcode",
                                             "mrc.bth.rtx",
                                             "mrc.bth.a",
                                             "mrc.meth.rqmsn",
                                             "mrc.meth.msn",
                                             "mrc.tseth.tx_timestamp",
                                             "mrc.reth.va",
                                             "mrc.immdt",
                                             "mrc.payload.length",
                                             "mrc.icrc.status",
                                             "mrc.seth.m",
                                             "mrc.seth.pr",
                                             "mrc.seth.probe_id",
                                             "mrc.seth.ack_psn",
                                             "mrc.seth.sack_base_psn",
                                             "mrc.seth.sacked",
                                             "mrc.cc_state.ooo_count",
                                             "mrc.cc_state.restore_cwnd",
                                             "mrc.cc_state.rcv_cwnd_pen",
                                             "mrc.cc_state.rcvd_bytes_total",
                                             "mrc.aeth.type",
                                             "mrc.aeth.msn",
                                             "mrc.erth.op",
                                             "mrc.erth.port_status_mask",
                                             "mrc.eeth.op",
                                             "mrc.eeth.tx_timestamp",
                                             "mrc.ev"};
    std::vector<Row> rows = Fields(s_extra, fields);
    ASSERT_EQ(rows.size(), 5u);
    for (const auto& row : rows)
    {
        EXPECT_EQ(row.at("udp.checksum.status"), "1");
    }
    // 1: Write Only with Immediate.
    EXPECT_EQ(rows[0]["mrc.bth.opcode"], "0xcb");
    EXPECT_EQ(rows[0]["mrc.bth.rtx"], "1");
    EXPECT_EQ(rows[0]["mrc.bth.a"], "1");
    EXPECT_EQ(rows[0]["mrc.meth.rqmsn"], "3");
    EXPECT_EQ(rows[0]["mrc.meth.msn"], "41");
    EXPECT_EQ(rows[0]["mrc.tseth.tx_timestamp"], "4660");
    EXPECT_EQ(rows[0]["mrc.reth.va"], "0x1122334455667788");
    EXPECT_EQ(rows[0]["mrc.immdt"], "0xcafef00d");
    EXPECT_EQ(rows[0]["mrc.payload.length"], "64");
    EXPECT_EQ(rows[0]["mrc.icrc.status"], "1");
    EXPECT_EQ(rows[0]["mrc.ev"], "0x00001005");
    // 2: SACK answering probe 0x77: no ACK PSN offset; base = 0x100 + 2; bits 0, 2, 63.
    EXPECT_EQ(rows[1]["mrc.seth.m"], "1");
    EXPECT_EQ(rows[1]["mrc.seth.pr"], "1");
    EXPECT_EQ(rows[1]["mrc.seth.probe_id"], "0x0077");
    EXPECT_EQ(rows[1]["mrc.seth.ack_psn"], "");
    EXPECT_EQ(rows[1]["mrc.seth.sack_base_psn"], "258");
    EXPECT_EQ(rows[1]["mrc.seth.sacked"], "3");
    EXPECT_EQ(rows[1]["mrc.cc_state.ooo_count"], "9");
    EXPECT_EQ(rows[1]["mrc.cc_state.restore_cwnd"], "1");
    EXPECT_EQ(rows[1]["mrc.cc_state.rcv_cwnd_pen"], "5");
    EXPECT_EQ(rows[1]["mrc.cc_state.rcvd_bytes_total"], std::to_string(0x300 * 256));
    EXPECT_EQ(rows[1]["mrc.ev"], "0x5341434b");
    // 3: Transport ACK: AETH ACK, MSN 12.
    EXPECT_EQ(rows[2]["mrc.bth.opcode"], "0xd1");
    EXPECT_EQ(rows[2]["mrc.aeth.type"], "0");
    EXPECT_EQ(rows[2]["mrc.aeth.msn"], "12");
    // 4: Endpoint Request: port status update, ports 1 and 3.
    EXPECT_EQ(rows[3]["mrc.erth.op"], "0");
    EXPECT_EQ(rows[3]["mrc.erth.port_status_mask"], "0x0000000a");
    EXPECT_EQ(rows[3]["mrc.tseth.tx_timestamp"], "546");
    // 5: Endpoint Response: EV probe, timestamp reflected; its ICRC was left zero.
    EXPECT_EQ(rows[4]["mrc.eeth.op"], "1");
    EXPECT_EQ(rows[4]["mrc.eeth.tx_timestamp"], "546");
    EXPECT_EQ(rows[4]["mrc.icrc.status"], "2");
}

TEST_F(Dissector, FlagsABadIcrcAndAZeroUdpChecksum)
{
    // An MRC Write Middle (METH, RETH, 8 bytes) with a spoiled ICRC, and the same with a
    // zero UDP checksum: the first draws the dissector's error, the second Wireshark's.
    MrcMethHeader meth;
    MrcRethHeader reth;
    reth.SetDmaLength(8);
    Ptr<Packet> w = Create<Packet>(8);
    w->AddHeader(reth);
    w->AddHeader(meth);
    w->AddHeader(Bth(MrcOpcode::MRC_WRITE_MIDDLE, 0x000456, 1));
    std::vector<Ptr<Packet>> bad = {Wrap(w->Copy(), 0x1005, 0, Icrc::BAD),
                                    Wrap(w->Copy(), 0x1005, 0, Icrc::REAL, false)};
    std::string pcap = (fs::path(s_dir->Path()) / "bad.pcap").string();
    WritePcap(pcap, bad);
    std::vector<Row> rows = Fields(pcap, {"mrc.icrc.status", "udp.checksum.status"});
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0]["mrc.icrc.status"], "0"); // Bad
    EXPECT_EQ(rows[0]["udp.checksum.status"], "1");
    EXPECT_EQ(rows[1]["mrc.icrc.status"], "1");
    EXPECT_EQ(rows[1]["udp.checksum.status"], "4"); // Illegal (zero over IPv6)
    std::string problems = ProblemFrames(pcap);
    EXPECT_NE(problems.find("1\tBad ICRC"), std::string::npos) << problems;
    EXPECT_NE(problems.find("2\tIllegal checksum value (0)"), std::string::npos) << problems;
}

TEST(UdpChecksum, MatchesNs3UdpHeader)
{
    // A datagram with ns-3's UdpHeader and checksums on, then the same bytes with the field
    // cleared and filled in by MrcUdpChecksum: the packets must be equal byte for byte.
    std::vector<uint8_t> payload(333);
    for (std::size_t i = 0; i < payload.size(); ++i)
    {
        payload[i] = static_cast<uint8_t>(i * 7 + 1);
    }
    Ptr<Packet> p = Create<Packet>(payload.data(), payload.size());
    UdpHeader udp;
    udp.SetSourcePort(0xc123);
    udp.SetDestinationPort(MRC_ROCEV2_UDP_PORT);
    udp.EnableChecksums();
    udp.InitializeChecksum(SRC, DST, MrcIpProto::UDP);
    p->AddHeader(udp);
    Ipv6Header ip;
    ip.SetSource(SRC);
    ip.SetDestination(DST);
    ip.SetNextHeader(MrcIpProto::UDP);
    ip.SetHopLimit(64);
    ip.SetPayloadLength(p->GetSize());
    p->AddHeader(ip);
    const uint32_t size = p->GetSize();
    std::vector<uint8_t> want(size);
    p->CopyData(want.data(), size);
    const uint16_t ns3Sum = uint16_t(want[46] << 8 | want[47]);
    ASSERT_NE(ns3Sum, 0);
    EXPECT_EQ(MrcUdpChecksum::Read(p, MRC_IPV6_HEADER_BYTES), ns3Sum);
    EXPECT_TRUE(MrcUdpChecksum::Verify(p, 0, MRC_IPV6_HEADER_BYTES));
    EXPECT_EQ(MrcUdpChecksum::Compute(want.data(), size, 0, MRC_IPV6_HEADER_BYTES), ns3Sum);

    std::vector<uint8_t> cleared = want;
    cleared[46] = cleared[47] = 0;
    Ptr<Packet> q = Create<Packet>(cleared.data(), size);
    EXPECT_FALSE(MrcUdpChecksum::Verify(q, 0, MRC_IPV6_HEADER_BYTES));
    MrcUdpChecksum::Fill(q);
    ASSERT_EQ(q->GetSize(), size);
    std::vector<uint8_t> got(size);
    q->CopyData(got.data(), size);
    EXPECT_EQ(got, want);

    // One payload bit flipped: the carried checksum no longer verifies.
    got[100] ^= 0x04;
    EXPECT_FALSE(MrcUdpChecksum::Verify(Create<Packet>(got.data(), size), 0, 40));
}

TEST(UdpChecksum, ZeroSumIsSentAsAllOnes)
{
    // Choose the last two payload bytes so that the sum folds to 0xffff: the complement is
    // then 0, which UDP over IPv6 must send as 0xffff.
    std::vector<uint8_t> b(40 + 8 + 10, 0);
    b[0] = 0x60;
    b[6] = MrcIpProto::UDP;
    b[7] = 64;
    for (int i = 0; i < 32; ++i)
    {
        b[8 + i] = static_cast<uint8_t>(0x20 + i);
    }
    b[40] = 0x12; // source port
    b[41] = 0x34;
    b[42] = 0x12; // destination port 4791
    b[43] = 0xb7;
    b[45] = 18; // UDP length
    b[48] = 0xab;
    const uint16_t c0 = MrcUdpChecksum::Compute(b.data(), b.size(), 0, 40);
    ASSERT_NE(c0, 0xffff);
    b[56] = uint8_t(c0 >> 8);
    b[57] = uint8_t(c0);
    EXPECT_EQ(MrcUdpChecksum::Compute(b.data(), b.size(), 0, 40), 0xffff);
    // Reading past the packet is not done: a UDP length beyond the bytes counts what is there.
    b[45] = 200;
    EXPECT_NE(MrcUdpChecksum::Compute(b.data(), b.size(), 0, 40), 0);
}

TEST_F(Dissector, SimulatorCapturesAreCompleteAndCheckClean)
{
    // An MRC incast with --pcap=1: the victim's NIC port and the T0 port toward it see
    // trimmed packets, NACKs, SACKs and probes. With --pcap the NIC fills in ICRCs and UDP
    // checksums, and the trimmer recomputes the checksum of what it keeps.
    std::string sim = ns3::MrcTest::ExampleBinary("mrc-sim");
    if (sim.empty())
    {
        GTEST_SKIP() << "examples/mrc-sim is not built here";
    }
    std::string out = (fs::path(s_dir->Path()) / "incast").string();
    auto run = Shell("'" + sim + "' --scenario=incast --transport=mrc --pcap=1 --out='" + out +
                     "' >/dev/null 2>&1");
    ASSERT_EQ(run.first, 0);
    // Every capture ends on a whole frame (switch ports too: their files are closed when
    // the simulator is destroyed).
    std::size_t files = 0;
    for (const auto& entry : fs::directory_iterator(out))
    {
        if (entry.path().extension() != ".pcap")
        {
            continue;
        }
        ++files;
        std::string d = ns3::MrcTest::ReadFile(entry.path().string());
        ASSERT_GE(d.size(), 24u) << entry.path();
        std::size_t off = 24;
        while (off + 16 <= d.size())
        {
            uint32_t incl = uint32_t(uint8_t(d[off + 8])) | uint32_t(uint8_t(d[off + 9])) << 8 |
                            uint32_t(uint8_t(d[off + 10])) << 16 |
                            uint32_t(uint8_t(d[off + 11])) << 24;
            off += 16 + incl;
        }
        EXPECT_EQ(off, d.size()) << entry.path() << " ends inside a frame";
    }
    EXPECT_EQ(files, 64u);
    for (const std::string name : {"mrc-host15-0.pcap", "mrc-p0-t0-3-3.pcap"})
    {
        SCOPED_TRACE(name);
        std::string pcap = out + "/" + name;
        EXPECT_EQ(ProblemFrames(pcap), "");
        std::vector<Row> rows =
            Fields(pcap,
                   {"mrc.bth.opcode", "mrc.trimmed", "mrc.icrc.status", "udp.checksum.status"});
        std::map<std::string, std::size_t> count;
        for (auto& row : rows)
        {
            ASSERT_NE(row["mrc.bth.opcode"], "") << "a frame the dissector did not take";
            EXPECT_EQ(row["udp.checksum.status"], "1");
            if (row["mrc.trimmed"] == "1")
            {
                EXPECT_EQ(row["mrc.icrc.status"], "");
                ++count["trimmed"];
                ++count["trimmed " + row["mrc.bth.opcode"]];
            }
            else
            {
                EXPECT_EQ(row["mrc.icrc.status"], "1");
            }
            ++count[row["mrc.bth.opcode"]];
        }
        // The victim's port carries Writes (some trimmed) and the NACKs and SACKs it sends.
        // Each trimmed Write gets a NACK. A probe (0xde) may be trimmed too: the mrc profile
        // trims the newest queued packet at half of the crossings (htsim's rule), whatever
        // it is; the trimmed probe keeps all its bytes and is answered as a probe.
        // Any Write opcode may be trimmed (0xc6-0xcb: first, middle, last, last and only
        // with and without immediate); most are middles (0xc7).
        std::size_t trimmedWrites = 0;
        for (const std::string op : {"0xc6", "0xc7", "0xc8", "0xc9", "0xca", "0xcb"})
        {
            trimmedWrites += count["trimmed " + op];
        }
        EXPECT_GT(count["trimmed 0xc7"], 0u);
        EXPECT_EQ(count["trimmed"], trimmedWrites + count["trimmed 0xde"]);
        EXPECT_EQ(count["0xdd"], trimmedWrites) << "one NACK per trimmed Write";
        EXPECT_GT(count["0xdc"], 0u);
        EXPECT_GT(count["0xc7"], count["trimmed"]);
    }
}
