/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Packets cut by the switch's MrcTrimmer keep well-formed headers: tshark decodes
// them (Ethernet, outer IPv6, inner IPv6, UDP 4791, InfiniBand) without
// malformed-packet or expert warnings, with the trimmed DSCP and exact lengths.

#include "mrc-test-support.h"

#include "ns3/ethernet-header.h"
#include "ns3/ipv6-header.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-icrc-trailer.h"
#include "ns3/mrc-meth-header.h"
#include "ns3/mrc-opcodes.h"
#include "ns3/mrc-packet-info.h"
#include "ns3/mrc-reth-header.h"
#include "ns3/mrc-srv6-encap.h"
#include "ns3/mrc-traffic-class.h"
#include "ns3/mrc-trimmer.h"
#include "ns3/mrc-usid.h"
#include "ns3/packet.h"
#include "ns3/pcap-file.h"
#include "ns3/simulator.h"
#include "ns3/trace-helper.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <sys/wait.h>

using namespace ns3;
using ns3::MrcTest::Shell;

namespace
{

/// \return an SRv6-encapsulated MRC Write Only with a 4096-byte payload, from the outer IPv6 on
Ptr<Packet>
MrcWrite()
{
    Ptr<Packet> p = Create<Packet>(4096);
    MrcRethHeader reth;
    reth.SetVirtualAddress(0x10000);
    reth.SetRkey(0x1234);
    reth.SetDmaLength(4096);
    p->AddHeader(reth);
    MrcMethHeader meth;
    meth.SetMsn(7);
    p->AddHeader(meth);
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::MRC_WRITE_ONLY);
    bth.SetDestQp(0x000321);
    bth.SetPsn(0x000100);
    p->AddHeader(bth);
    p->AddTrailer(MrcIcrcTrailer(0)); // the trimmer must cut it away
    UdpHeader udp; // with a checksum, as Wireshark calls a zero UDP checksum over IPv6 illegal
    udp.SetSourcePort(0x1005);
    udp.SetDestinationPort(MRC_ROCEV2_UDP_PORT);
    udp.EnableChecksums();
    udp.InitializeChecksum(Ipv6Address("fd00::1"), Ipv6Address("fd00::2"), 17);
    p->AddHeader(udp);
    Ipv6Header inner;
    inner.SetSource(Ipv6Address("fd00::1"));
    inner.SetDestination(Ipv6Address("fd00::2"));
    inner.SetNextHeader(17);
    inner.SetHopLimit(64);
    inner.SetPayloadLength(p->GetSize());
    inner.SetTrafficClass(MrcMakeTrafficClass(MrcDscp::TRIMMABLE, MrcEcn::ECT0));
    MrcSetFlowLabel(inner, 0x2);
    p->AddHeader(inner);
    MrcUsidCarrier carrier(MrcUsidCarrier::DEFAULT_LOCATOR_BLOCK, {0x1405, 0x1002, 0x1805});
    MrcSrv6Encapsulate(p, inner, Ipv6Address("fd00::1"), carrier);
    return p;
}

} // namespace

TEST(TrimTshark, TrimmedPacketsDecodeCleanly)
{
    ASSERT_EQ(Shell("command -v tshark >/dev/null").first, 0)
        << "tshark is not installed (Debian package tshark; ./ns3-mrc test installs it)";
    // Kept when the test fails, for a look at the pcap.
    const std::string dir = MrcTest::TempDir("mrc-trim");
    ASSERT_FALSE(dir.empty());
    std::string pcap = dir + "/trimmed.pcap";

    // Three cuts: headers only toward a switch, headers only toward a host, and 256 bytes.
    struct Cut
    {
        uint32_t trimSize;
        bool facesHost;
        uint32_t ipBytes; ///< expected size from the outer IPv6 header on
        uint8_t dscp;
    };

    // headers: outer IPv6 40 + inner IPv6 40 + UDP 8 + BTH 12 + METH 4 + RETH 16 = 120
    const std::array<Cut, 3> cuts{{{0, false, 120, MrcDscp::TRIMMED},
                                   {0, true, 120, MrcDscp::TRIMMED_LASTHOP},
                                   {256, false, 256, MrcDscp::TRIMMED}}};
    PcapFile file;
    file.Open(pcap, std::ios::out);
    file.Init(PcapHelper::DLT_EN10MB);
    for (const Cut& c : cuts)
    {
        Ptr<MrcTrimmer> trimmer = CreateObject<MrcTrimmer>();
        trimmer->SetAttribute("TrimSize", UintegerValue(c.trimSize));
        Ptr<Packet> original = MrcWrite();
        MrcPacketInfo info;
        ASSERT_TRUE(MrcParsePacket(original, info));
        Ptr<Packet> trimmed = trimmer->Trim(original, info, c.facesHost);
        ASSERT_EQ(trimmed->GetSize(), c.ipBytes);
        EthernetHeader eth(false);
        eth.SetSource(Mac48Address("02:00:00:00:00:01"));
        eth.SetDestination(Mac48Address("02:00:00:00:00:02"));
        eth.SetLengthType(0x86dd);
        trimmed->AddHeader(eth);
        file.Write(0, 0, trimmed);
    }
    file.Close();
    ASSERT_EQ(std::filesystem::file_size(pcap), 24 + 3 * 16 + (134 + 134 + 270));

    auto bad = Shell("tshark -r " + pcap +
                     " -Y '_ws.malformed || _ws.expert.severity >= warning' -T fields"
                     " -e frame.number 2>/dev/null");
    ASSERT_EQ(bad.first, 0);
    EXPECT_EQ(bad.second, "") << "frames with malformed or warning expert info";

    auto fields = Shell("tshark -r " + pcap +
                        " -T fields -E separator=, -E occurrence=f -e frame.len -e "
                        "frame.protocols -e ipv6.tclass.dscp -e ipv6.plen -e udp.length -e "
                        "infiniband.bth.opcode -e infiniband.bth.psn -e ipv6.dst 2>/dev/null");
    ASSERT_EQ(fields.first, 0);
    std::istringstream lines(fields.second);
    std::string line;
    for (const Cut& c : cuts)
    {
        ASSERT_TRUE(std::getline(lines, line));
        std::ostringstream want;
        want << (c.ipBytes + 14) << ",eth:ethertype:ipv6:ipv6:udp:infiniband," << unsigned(c.dscp)
             << "," << (c.ipBytes - 40) << "," << (c.ipBytes - 80) << ",202,256,"
             << "fcbb:bb00:1405:1002:1805::";
        EXPECT_EQ(line, want.str());
    }
    if (!::testing::Test::HasFailure())
    {
        std::filesystem::remove_all(dir);
    }
    Simulator::Destroy();
}
