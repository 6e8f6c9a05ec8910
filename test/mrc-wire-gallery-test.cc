/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Runs examples/mrc-wire-gallery and reads its pcap back with tshark (and with
// a small pcap reader of its own). The expected values are written out here,
// from the gallery's table in doc/mrc.rst, not read from the example, so that a
// mistake on either side shows.
//
// The gallery binary is found through MRC_EXAMPLES_DIR, or beside the test
// binary in the standalone build. Elsewhere (an ns-3 source tree) the tests skip.

#include "mrc-test-support.h"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iomanip>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace
{

namespace fs = std::filesystem;
using ns3::MrcTest::ExampleBinary;
using ns3::MrcTest::ScopedTempDir;
using ns3::MrcTest::Shell;
using ns3::MrcTest::ShellQuote;

/// Exit status and output of a shell command.
struct RunResult
{
    int status{-1};     ///< exit code (-1 if it did not exit normally)
    std::string output; ///< what it wrote to stdout (and stderr when redirected)

    RunResult() = default;

    /// \param r what MrcTest::Shell returned
    RunResult(std::pair<int, std::string> r)
        : status(r.first),
          output(std::move(r.second))
    {
    }
};

/// Split a string at a separator (keeps empty fields).
std::vector<std::string>
Split(const std::string& s, char sep)
{
    std::vector<std::string> out;
    std::string cur;
    std::istringstream is(s);
    while (std::getline(is, cur, sep))
    {
        out.push_back(cur);
    }
    if (!s.empty() && s.back() == sep)
    {
        out.emplace_back();
    }
    return out;
}

/// \return true if MRC_EXAMPLES_DIR names the folder of the example programs (CTest sets it)
bool
ExamplesDirSet()
{
    const char* dir = std::getenv("MRC_EXAMPLES_DIR");
    return dir != nullptr && *dir != '\0';
}

/// \return true if tshark can be run
bool
HaveTshark()
{
    return Shell("command -v tshark >/dev/null 2>&1").first == 0;
}

/// The frames of a little-endian pcap file with link type Ethernet.
std::vector<std::vector<uint8_t>>
ReadPcap(const std::string& path, uint32_t* linkType)
{
    const std::string bytes = ns3::MrcTest::ReadFile(path);
    const std::vector<uint8_t> d(bytes.begin(), bytes.end());
    auto u32 = [&d](std::size_t off) {
        return uint32_t(d[off]) | uint32_t(d[off + 1]) << 8 | uint32_t(d[off + 2]) << 16 |
               uint32_t(d[off + 3]) << 24;
    };
    std::vector<std::vector<uint8_t>> frames;
    if (d.size() < 24 || u32(0) != 0xa1b2c3d4)
    {
        return frames;
    }
    *linkType = u32(20);
    std::size_t off = 24;
    while (off + 16 <= d.size())
    {
        uint32_t incl = u32(off + 8);
        uint32_t orig = u32(off + 12);
        off += 16;
        if (incl != orig || off + incl > d.size())
        {
            frames.clear();
            return frames;
        }
        frames.emplace_back(d.begin() + off, d.begin() + off + incl);
        off += incl;
    }
    return frames;
}

/// CRC-32 (reflected 0x04C11DB7), one bit at a time, without preset or final complement.
uint32_t
Crc32Bits(uint32_t crc, const std::vector<uint8_t>& data)
{
    for (uint8_t b : data)
    {
        crc ^= b;
        for (int k = 0; k < 8; ++k)
        {
            crc = (crc >> 1) ^ ((crc & 1) ? 0xedb88320u : 0u);
        }
    }
    return crc;
}

/**
 * The RoCEv2 ICRC of an Ethernet frame, computed here on its own: find the
 * IPv6 header that UDP follows (past IPv6-in-IPv6 and routing headers), mask
 * traffic class, flow label, hop limit, UDP checksum and BTH byte 4, and run
 * the CRC over 8 bytes of 0xFF and everything up to the last four bytes.
 * \return the CRC, or 0 with *ok = false when the frame is not of that form
 */
uint32_t
IndependentIcrc(const std::vector<uint8_t>& f, bool* ok)
{
    *ok = false;
    std::size_t ip = 14;
    for (;;)
    {
        if (ip + 40 > f.size())
        {
            return 0;
        }
        uint8_t nh = f[ip + 6];
        std::size_t after = ip + 40;
        while (nh == 43 && after + 8 <= f.size())
        {
            nh = f[after];
            after += 8 + 8 * std::size_t(f[after + 1]);
        }
        if (nh == 41)
        {
            ip = after;
            continue;
        }
        if (nh != 17 || after != ip + 40 || ip + 40 + 8 + 12 + 4 > f.size())
        {
            return 0;
        }
        break;
    }
    std::vector<uint8_t> m(8, 0xff);
    m.insert(m.end(), f.begin() + ip, f.end() - 4);
    std::size_t i = 8;
    m[i + 0] |= 0x0f;                      // traffic class, high nibble
    m[i + 1] = m[i + 2] = m[i + 3] = 0xff; // traffic class, low nibble, and flow label
    m[i + 7] = 0xff;                       // hop limit
    m[i + 40 + 6] = m[i + 40 + 7] = 0xff;  // UDP checksum
    m[i + 48 + 4] = 0xff;                  // BTH byte 4 (FECN, BECN, reserved)
    *ok = true;
    return ~Crc32Bits(0xffffffffu, m);
}

/// \return the last four bytes of a frame read least significant byte first
uint32_t
TrailingIcrc(const std::vector<uint8_t>& f)
{
    std::size_t n = f.size();
    return uint32_t(f[n - 4]) | uint32_t(f[n - 3]) << 8 | uint32_t(f[n - 2]) << 16 |
           uint32_t(f[n - 1]) << 24;
}

/// \return a value as lower-case hex with at least `width` digits, no prefix
std::string
Hex(uint32_t v, int width)
{
    std::ostringstream os;
    os << std::hex << std::setw(width) << std::setfill('0') << v;
    return os.str();
}

/// What one frame of the gallery must look like (the table of doc/mrc.rst).
struct Expected
{
    uint32_t length;         ///< frame.len, bytes
    std::string protocols;   ///< frame.protocols
    std::string ipv6Dst;     ///< ipv6.dst, every occurrence, comma-separated
    std::string dscp;        ///< ipv6.tclass.dscp, every occurrence
    std::string ecn;         ///< ipv6.tclass.ecn, every occurrence
    std::string flowLabel;   ///< ipv6.flow, every occurrence
    std::string hopLimit;    ///< ipv6.hlim, every occurrence
    std::string udpSrcPort;  ///< udp.srcport
    std::string udpLength;   ///< udp.length
    std::string opcode;      ///< infiniband.bth.opcode (decimal)
    std::string psn;         ///< infiniband.bth.psn (decimal)
    std::string destQp;      ///< infiniband.bth.destqp
    std::string ackReq;      ///< infiniband.bth.a
    bool icrc;               ///< ends with an ICRC
    std::string vendorBytes; ///< for opcodes Wireshark does not know: the bytes after the BTH,
                             ///< without payload and ICRC
};

const std::string ROCE = "eth:ethertype:ipv6:udp:infiniband";
const std::string ROCE_DATA = ROCE + ":data";
const std::string SRV6 = "eth:ethertype:ipv6:ipv6:udp:infiniband";
const std::string SRH = "eth:ethertype:ipv6:ipv6.routing:ipv6:udp:infiniband";
const std::string PFC = "eth:ethertype:macc";

const std::string A = "2001:db8:a::1";
const std::string B = "2001:db8:b::1";

/// The gallery's frames, in file order (the PFC frames are checked on their own).
std::vector<Expected>
Gallery()
{
    const std::string PLANE0 = "fcbb:bb00:1405:1002:1805::,"; // plane 0: T1 5 | T0 2 | downlink 5
    const std::string PLANE1 = "fcbb:bb00:2409:2c03:240c::,"; // plane 1: T1 9 | T2 3 | T1 12
    const std::string SHIFTED = "fcbb:bb00:1002:1805::,";     // T1 5 done: T0 2 | downlink 5
    const std::string Z = "0x000000";
    const std::string ZZ = "0x000000,0x000000";
    // clang-format off
    return {
        // len protocols   ipv6.dst dscp    ecn    flow label  hlim     sport    udp len opcode psn     destqp      A   ICRC  bytes after the BTH (unknown opcodes)
        // 1-5: RoCE RC Writes, requester -> responder, DSCP 26 ECT(0).
        {350, ROCE_DATA, B,       "26",   "2",   Z,          "64",    "49443", "296", "6",   "4096", "0x000456", "0", true, ""},
        {334, ROCE_DATA, B,       "26",   "2",   Z,          "64",    "49443", "280", "7",   "4097", "0x000456", "0", true, ""},
        {334, ROCE_DATA, B,       "26",   "2",   Z,          "64",    "49443", "280", "8",   "4098", "0x000456", "1", true, ""},
        {222, ROCE_DATA, B,       "26",   "2",   Z,          "64",    "49443", "168", "10",  "4099", "0x000456", "1", true, ""},
        {162, ROCE_DATA, B,       "26",   "2",   Z,          "64",    "49443", "108", "11",  "4100", "0x000456", "1", true, ""},
        // 6-7: RC ACK and NAK, responder -> requester.
        {82,  ROCE,      A,       "26",   "2",   Z,          "64",    "50262", "28",  "17",  "4100", "0x000123", "0", true, ""},
        {82,  ROCE,      A,       "26",   "2",   Z,          "64",    "50262", "28",  "17",  "4097", "0x000123", "0", true, ""},
        // 8: CNP, DSCP 48, Not-ECT; Wireshark 4.0 does not know opcode 0x81.
        {94,  ROCE,      A,       "48",   "0",   Z,          "64",    "50262", "40",  "129", "0",    "0x000123", "0", true,
         "00000000000000000000000000000000"},
        // 9: MRC Write First (0xC6) in SRv6, outer DA = three-uSID carrier. METH, RETH.
        {394, SRV6,      PLANE0 + B, "4,4",  "2,2", ZZ,         "64,64", "4101",  "300", "198", "8192", "0x000456", "0", true,
         "00000007" "00007f0000110000" "1234abcd" "00000200"},
        // 10: MRC Write Last (0xC8) with TS: METH, TSETH, RETH; two carriers, the second in an SRH.
        {422, SRH,       PLANE1 + B, "4,4",  "2,2", ZZ,         "64,64", "8201",  "304", "200", "8193", "0x000456", "1", true,
         "00000007" "0abc0001" "00007f0000110100" "1234abcd" "00000200"},
        // 11: MRC Write Only (0xCA) trimmed at T1 5: carrier shifted, outer DSCP 11, hop limit 63.
        {134, SRV6,      SHIFTED + B, "11,4", "2,2", ZZ,         "63,64", "4101",  "40",  "202", "8194", "0x000456", "1", false,
         "00000008" "00007f0000120000" "1234abcd" "00000100"},
        // 12-14: MRC NACK (NETH), SACK (SETH + CC_STATE), probe (PETH); ECMP mode, DSCP 46,
        // EV = flow label << 16 | UDP source port.
        {98,  ROCE,      A,       "46",   "0",   "0x004e41", "64",    "17227", "44",  "221", "8194", "0x000123", "0", true,
         "00000100" "00001005" "04560123" "00002002" "20000000"},
        {114, ROCE,      A,       "46",   "0",   "0x005341", "64",    "17227", "60",  "220", "8193", "0x000123", "0", true,
         "00000000" "00002009" "04560123" "00002001" "00080001" "0000000000000000" "0abc0000" "00000002"},
        {94,  ROCE,      B,       "46",   "0",   "0x005052", "64",    "20290", "40",  "222", "0",    "0x000456", "0", true,
         "00000000" "00420000" "01230456" "0def0001"},
    };
    // clang-format on
}

/// Payload bytes of the gallery's data frames (counting bytes from a seed).
std::string
CountingHex(uint8_t seed, uint32_t n)
{
    std::string s;
    for (uint32_t i = 0; i < n; ++i)
    {
        s += Hex(static_cast<uint8_t>(seed + i), 2);
    }
    return s;
}

/// Fields asked from tshark, in this order.
const std::vector<std::string> FIELDS = {"frame.number",
                                         "frame.len",
                                         "frame.protocols",
                                         "ipv6.dst",
                                         "ipv6.tclass.dscp",
                                         "ipv6.tclass.ecn",
                                         "ipv6.flow",
                                         "ipv6.hlim",
                                         "udp.srcport",
                                         "udp.dstport",
                                         "udp.length",
                                         "udp.checksum.status",
                                         "infiniband.bth.opcode",
                                         "infiniband.bth.psn",
                                         "infiniband.bth.destqp",
                                         "infiniband.bth.a",
                                         "infiniband.bth.reserved7",
                                         "infiniband.reserved",
                                         "infiniband.invariant.crc",
                                         "infiniband.vendor",
                                         "eth.src",
                                         "eth.dst",
                                         "eth.type",
                                         "macc.opcode",
                                         "macc.cbfc.enbv",
                                         "macc.cbfc.pause_time.c3",
                                         "macc.cbfc.pause_time.c5"};

/// Shared state: the gallery run once for all tests of the suite.
class MrcWireGallery : public ::testing::Test
{
  protected:
    static void SetUpTestSuite()
    {
        s_binary = ExampleBinary("mrc-wire-gallery");
        if (s_binary.empty() || !HaveTshark())
        {
            return;
        }
        s_dir = new ScopedTempDir("mrc-gallery");
        s_pcap = (fs::path(s_dir->Path()) / "a" / "b" / "wire-gallery.pcap").string();
        s_run =
            Shell(ShellQuote(s_binary) + " --out=" + ShellQuote(s_dir->Path() + "/a/b") + " 2>&1");
        std::string cmd = "tshark -r " + ShellQuote(s_pcap) +
                          " -o udp.check_checksum:TRUE -T fields -E separator=/t"
                          " -E occurrence=a -E aggregator=,";
        for (const auto& f : FIELDS)
        {
            cmd += " -e " + f;
        }
        RunResult t = Shell(cmd + " 2>/dev/null");
        s_tsharkStatus = t.status;
        for (const auto& line : Split(t.output, '\n'))
        {
            if (line.empty())
            {
                continue;
            }
            std::vector<std::string> cols = Split(line, '\t');
            std::map<std::string, std::string> row;
            for (std::size_t i = 0; i < FIELDS.size(); ++i)
            {
                row[FIELDS[i]] = i < cols.size() ? cols[i] : "";
            }
            s_rows.push_back(row);
        }
    }

    static void TearDownTestSuite()
    {
        delete s_dir;
        s_dir = nullptr;
        s_rows.clear();
    }

    void SetUp() override
    {
        if (s_binary.empty())
        {
            ASSERT_FALSE(ExamplesDirSet())
                << "gallery binary not found in MRC_EXAMPLES_DIR="
                << std::getenv("MRC_EXAMPLES_DIR") << " (build with ENABLE_EXAMPLES=ON)";
            GTEST_SKIP() << "MRC_EXAMPLES_DIR is not set and no examples/mrc-wire-gallery lies "
                            "beside the test binary (in an ns-3 tree run the example by hand)";
        }
        ASSERT_TRUE(HaveTshark())
            << "tshark not found: install Debian's tshark package (./ns3-mrc test does)";
        ASSERT_EQ(s_run.status, 0) << s_run.output;
        ASSERT_EQ(s_tsharkStatus, 0) << "tshark could not read " << s_pcap;
    }

    static std::string s_binary; ///< the gallery binary
    static ScopedTempDir* s_dir; ///< the run's folder
    static std::string s_pcap;   ///< the pcap it wrote
    static RunResult s_run;      ///< the gallery's exit and output
    static int s_tsharkStatus;   ///< tshark's exit code
    static std::vector<std::map<std::string, std::string>> s_rows; ///< tshark's fields per frame
};

std::string MrcWireGallery::s_binary;
ScopedTempDir* MrcWireGallery::s_dir = nullptr;
std::string MrcWireGallery::s_pcap;
RunResult MrcWireGallery::s_run;
int MrcWireGallery::s_tsharkStatus = -1;
std::vector<std::map<std::string, std::string>> MrcWireGallery::s_rows;

/// Number of frames: the 14 IPv6 frames and the two PFC frames.
constexpr std::size_t N_FRAMES = 16;

} // namespace

TEST_F(MrcWireGallery, WritesEveryFrameAndSaysSo)
{
    EXPECT_EQ(s_rows.size(), N_FRAMES);
    std::vector<std::string> lines = Split(s_run.output, '\n');
    ASSERT_GE(lines.size(), N_FRAMES + 1);
    EXPECT_EQ(lines[0].rfind(" 1  RoCE RC Write First (350 bytes)", 0), 0u) << lines[0];
    EXPECT_EQ(lines[N_FRAMES].rfind("wrote 16 frames to ", 0), 0u) << lines[N_FRAMES];
    uint32_t linkType = 0;
    EXPECT_EQ(ReadPcap(s_pcap, &linkType).size(), N_FRAMES);
    EXPECT_EQ(linkType, 1u); // DLT_EN10MB
}

TEST_F(MrcWireGallery, NoFrameIsMalformedOrDrawsAWarning)
{
    RunResult r = Shell("tshark -r " + ShellQuote(s_pcap) +
                        " -o udp.check_checksum:TRUE -Y '_ws.malformed || _ws.expert.severity >= "
                        "warning' -T fields -e frame.number -e _ws.expert.message 2>/dev/null");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.output, "") << "frames with problems (number, message):\n" << r.output;
    // The filter does catch problems: the same run on a frame with a wrong UDP length.
    std::vector<uint8_t> bytes;
    {
        std::ifstream in(s_pcap, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    ASSERT_GT(bytes.size(), 24u + 16 + 14 + 40 + 6);
    bytes[24 + 16 + 14 + 40 + 4] = 0x03; // UDP length of frame 1: 296 -> 0x0328
    std::string broken = (fs::path(s_dir->Path()) / "broken.pcap").string();
    std::ofstream(broken, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    RunResult b = Shell("tshark -r " + ShellQuote(broken) +
                        " -Y '_ws.malformed || _ws.expert.severity >= warning' -T fields -e "
                        "frame.number 2>/dev/null");
    EXPECT_EQ(b.output, "1\n");
}

TEST_F(MrcWireGallery, RoceAndMrcFramesDecodeAsPlanned)
{
    std::vector<Expected> gallery = Gallery();
    ASSERT_GE(s_rows.size(), gallery.size());
    for (std::size_t i = 0; i < gallery.size(); ++i)
    {
        const Expected& e = gallery[i];
        auto& row = s_rows[i];
        SCOPED_TRACE("frame " + std::to_string(i + 1));
        EXPECT_EQ(row["frame.number"], std::to_string(i + 1));
        EXPECT_EQ(row["frame.len"], std::to_string(e.length));
        EXPECT_EQ(row["frame.protocols"], e.protocols);
        EXPECT_EQ(row["eth.type"], "0x86dd");
        // From a NIC to the T0 switch port it is cabled to.
        bool toResponder = e.ipv6Dst.size() >= B.size() &&
                           e.ipv6Dst.compare(e.ipv6Dst.size() - B.size(), B.size(), B) == 0;
        EXPECT_EQ(row["eth.src"], toResponder ? "02:00:00:00:0a:01" : "02:00:00:00:0b:01");
        EXPECT_EQ(row["eth.dst"], toResponder ? "02:00:00:00:f0:01" : "02:00:00:00:f0:02");
        EXPECT_EQ(row["ipv6.dst"], e.ipv6Dst);
        EXPECT_EQ(row["ipv6.tclass.dscp"], e.dscp);
        EXPECT_EQ(row["ipv6.tclass.ecn"], e.ecn);
        EXPECT_EQ(row["ipv6.flow"], e.flowLabel);
        EXPECT_EQ(row["ipv6.hlim"], e.hopLimit);
        EXPECT_EQ(row["udp.srcport"], e.udpSrcPort);
        EXPECT_EQ(row["udp.dstport"], "4791");
        EXPECT_EQ(row["udp.length"], e.udpLength);
        EXPECT_EQ(row["udp.checksum.status"], "1"); // Good
        EXPECT_EQ(row["infiniband.bth.opcode"], e.opcode);
        EXPECT_EQ(row["infiniband.bth.psn"], e.psn);
        EXPECT_EQ(row["infiniband.bth.destqp"], e.destQp);
        EXPECT_EQ(row["infiniband.bth.a"], e.ackReq);
        // Wireshark names neither MRC's TS flag (0x10 of byte 8, set in frame 10) nor
        // RoCEv2's BECN (0x40 of byte 4, set in the CNP): they show as reserved bits.
        EXPECT_EQ(row["infiniband.bth.reserved7"], i == 9 ? "16" : "0");
        EXPECT_EQ(row["infiniband.reserved"], i == 7 ? "40" : "00");
        if (e.vendorBytes.empty())
        {
            // Known opcodes: Wireshark decodes the headers and shows the ICRC.
            EXPECT_EQ(row["infiniband.vendor"], "");
            EXPECT_NE(row["infiniband.invariant.crc"], "");
        }
        else
        {
            // Opcodes Wireshark 4.0 does not know (CNP, MRC): everything after the
            // BTH, ICRC included, is "Vendor Specific or Unknown" data. The field
            // comes twice: a 4-byte summary item, then the whole run of bytes.
            EXPECT_EQ(row["infiniband.invariant.crc"], "");
            std::vector<std::string> v = Split(row["infiniband.vendor"], ',');
            ASSERT_EQ(v.size(), 2u);
            EXPECT_EQ(v[1].rfind(e.vendorBytes, 0), 0u) << v[1];
        }
    }
}

TEST_F(MrcWireGallery, PayloadsAreTheCountingBytes)
{
    std::vector<Expected> gallery = Gallery();
    // MRC Write First (frame 9): METH + RETH, then 256 bytes from 0x10, then the ICRC.
    std::vector<std::string> v = Split(s_rows.at(8)["infiniband.vendor"], ',');
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[1].size(), 2 * (4 + 16 + 256 + 4u));
    EXPECT_EQ(v[1].substr(2 * 20, 2 * 256), CountingHex(0x10, 256));
    // The trimmed Write Only (frame 11) ends right after its RETH.
    v = Split(s_rows.at(10)["infiniband.vendor"], ',');
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[1], gallery[10].vendorBytes);
}

TEST_F(MrcWireGallery, IcrcMatchesAnIndependentComputationAndWireshark)
{
    uint32_t linkType = 0;
    std::vector<std::vector<uint8_t>> frames = ReadPcap(s_pcap, &linkType);
    std::vector<Expected> gallery = Gallery();
    ASSERT_GE(frames.size(), gallery.size());
    for (std::size_t i = 0; i < gallery.size(); ++i)
    {
        SCOPED_TRACE("frame " + std::to_string(i + 1));
        bool ok = false;
        uint32_t icrc = IndependentIcrc(frames[i], &ok);
        ASSERT_TRUE(ok);
        if (!gallery[i].icrc)
        {
            // The trimmed frame has no ICRC: its last four bytes (the RETH's
            // DMA length) are not one.
            EXPECT_NE(TrailingIcrc(frames[i]), icrc);
            continue;
        }
        EXPECT_EQ(TrailingIcrc(frames[i]), icrc);
        // Wireshark reads the four bytes most significant first.
        uint32_t shown = __builtin_bswap32(icrc);
        const std::string& crcField = s_rows.at(i)["infiniband.invariant.crc"];
        if (!crcField.empty())
        {
            EXPECT_EQ(crcField, "0x" + Hex(shown, 8));
        }
        else
        {
            EXPECT_EQ(s_rows.at(i)["infiniband.vendor"].substr(
                          s_rows.at(i)["infiniband.vendor"].size() - 8),
                      Hex(shown, 8));
        }
    }
}

TEST_F(MrcWireGallery, PfcPauseAndResume)
{
    ASSERT_EQ(s_rows.size(), N_FRAMES);
    for (std::size_t i : {14u, 15u})
    {
        SCOPED_TRACE("frame " + std::to_string(i + 1));
        auto& row = s_rows[i];
        EXPECT_EQ(row["frame.len"], "60"); // 14 + 46, no FCS in the capture
        EXPECT_EQ(row["frame.protocols"], PFC);
        EXPECT_EQ(row["eth.dst"], "01:80:c2:00:00:01");
        EXPECT_EQ(row["eth.type"], "0x8808");
        EXPECT_EQ(row["macc.opcode"], "0x0101");
        EXPECT_EQ(row["infiniband.bth.opcode"], "");
    }
    // Pause: class 3 for 0xffff quanta, class 5 for 100.
    EXPECT_EQ(s_rows[14]["macc.cbfc.enbv"], "0x0028");
    EXPECT_EQ(s_rows[14]["macc.cbfc.pause_time.c3"], "65535");
    EXPECT_EQ(s_rows[14]["macc.cbfc.pause_time.c5"], "100");
    // The whole pause frame, byte for byte (Wireshark does not show the padding).
    uint32_t linkType = 0;
    std::vector<std::vector<uint8_t>> frames = ReadPcap(s_pcap, &linkType);
    ASSERT_EQ(frames.size(), N_FRAMES);
    std::vector<uint8_t> pause = {
        0x01, 0x80, 0xc2, 0x00, 0x00, 0x01, // destination: the MAC Control address
        0x02, 0x00, 0x00, 0x00, 0xf0, 0x01, // source: the requester's T0 switch port
        0x88, 0x08,                         // EtherType: MAC Control
        0x01, 0x01,                         // opcode: PFC
        0x00, 0x28,                         // class-enable vector: classes 3 and 5
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // quanta of classes 0, 1, 2
        0xff, 0xff,                         // class 3
        0x00, 0x00,                         // class 4
        0x00, 0x64,                         // class 5: 100
        0x00, 0x00, 0x00, 0x00,             // classes 6, 7
    };
    pause.resize(60, 0x00); // padding to the 60-byte minimum (without FCS)
    EXPECT_EQ(frames[14], pause);
    // Resume: class 3 with 0 quanta.
    EXPECT_EQ(s_rows[15]["macc.cbfc.enbv"], "0x0008");
    EXPECT_EQ(s_rows[15]["macc.cbfc.pause_time.c3"], "0");
    EXPECT_EQ(s_rows[15]["macc.cbfc.pause_time.c5"], "0");
}

TEST_F(MrcWireGallery, RejectsAnUnknownOptionWithExitCode2)
{
    RunResult r = Shell(ShellQuote(s_binary) + " --bogus=1 2>&1");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.output.find("error: unknown option '--bogus' (allowed: --out, or "),
              std::string::npos)
        << r.output;
}

TEST_F(MrcWireGallery, ReportsAFolderItCannotWrite)
{
    // A regular file where the folder should be.
    std::string file = (fs::path(s_dir->Path()) / "not-a-folder").string();
    std::ofstream(file) << "x";
    RunResult r = Shell(ShellQuote(s_binary) + " --out=" + ShellQuote(file) + " 2>&1");
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.output.find("error: cannot write " + file + "/wire-gallery.pcap"),
              std::string::npos)
        << r.output;
}
