/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// mrc-wire-gallery: one Ethernet frame of every kind the module puts on the
// wire, written to <out>/wire-gallery.pcap so that Wireshark or tshark can
// show them (tshark -r wire-gallery.pcap -V).
//
// Every frame is complete: Ethernet with unicast MACs, IPv6 with the right
// payload length, DSCP and ECN, UDP to port 4791 with the right length and
// checksum, the InfiniBand BTH and the extension headers of the frame's kind,
// a payload, and a computed ICRC. The values are fixed, so the file is the
// same on every run; test/mrc-wire-gallery-test.cc checks it with tshark.

#include "ns3/core-module.h"
#include "ns3/ethernet-header.h"
#include "ns3/mrc-aeth-header.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-cc-state-header.h"
#include "ns3/mrc-cnp-header.h"
#include "ns3/mrc-command-line.h"
#include "ns3/mrc-entropy.h"
#include "ns3/mrc-icrc-trailer.h"
#include "ns3/mrc-imm-dt-header.h"
#include "ns3/mrc-meth-header.h"
#include "ns3/mrc-neth-header.h"
#include "ns3/mrc-opcodes.h"
#include "ns3/mrc-peth-header.h"
#include "ns3/mrc-pfc-frame.h"
#include "ns3/mrc-reth-header.h"
#include "ns3/mrc-seth-header.h"
#include "ns3/mrc-srh-header.h"
#include "ns3/mrc-srv6-encap.h"
#include "ns3/mrc-traffic-class.h"
#include "ns3/mrc-tseth-header.h"
#include "ns3/mrc-usid.h"
#include "ns3/network-module.h"
#include "ns3/udp-header.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("MrcWireGallery");

namespace
{

// ---------------------------------------------------------------------------
// The fixed values of the gallery. test/mrc-wire-gallery-test.cc repeats them
// on its own, so a change on one side shows.

constexpr uint16_t ETHERTYPE_IPV6 = 0x86dd; ///< EtherType of IPv6
constexpr uint8_t IP_PROTO_UDP = 17;        ///< IPv6 next header of UDP
constexpr uint8_t HOP_LIMIT = 64;           ///< hop limit of the frames as sent

constexpr uint32_t REQUESTER_QP = 0x000123; ///< QP at the requester (the writer)
constexpr uint32_t RESPONDER_QP = 0x000456; ///< QP at the responder
constexpr uint32_t ROCE_PSN = 0x001000;     ///< first PSN of the RoCE Writes
constexpr uint32_t MRC_PSN = 0x002000;      ///< first PSN of the MRC Writes
constexpr uint32_t RKEY = 0x1234abcd;       ///< remote key of every Write
constexpr uint64_t VA = 0x00007f0000100000; ///< remote address of the first Write

constexpr uint16_t ROCE_REQ_SPORT = 0xc123; ///< RoCE UDP source port, requester to responder
constexpr uint16_t ROCE_RSP_SPORT = 0xc456; ///< RoCE UDP source port, responder to requester

/// MRC EVs. SRv6 mode (plane + 1 in EV[15:12], T0 uplink in EV[7:0]) for the
/// encapsulated Writes; any 32-bit value in ECMP mode, where it rides in the UDP
/// source port (EV[15:0]) and the flow label (EV[31:16], MRC_EV_SPLIT_DEFAULT).
constexpr uint32_t EV_WRITE_PLANE0 = 0x1005; ///< plane 0, uplink 5 (= MrcSrv6EvMake(0, 5))
constexpr uint32_t EV_WRITE_PLANE1 = 0x2009; ///< plane 1, uplink 9 (= MrcSrv6EvMake(1, 9))
constexpr uint32_t EV_NACK = 0x4e41434b;     ///< "NACK" in ASCII
constexpr uint32_t EV_SACK = 0x5341434b;     ///< "SACK" in ASCII
constexpr uint32_t EV_PROBE = 0x50524f42;    ///< "PROB" in ASCII

/// One end of the frames: a NIC port and the switch port it is cabled to.
struct End
{
    Mac48Address nicMac;    ///< the NIC port's MAC address
    Mac48Address switchMac; ///< the T0 switch port's MAC address
    Ipv6Address ip;         ///< the NIC port's IPv6 address
};

/// \return the requester's end (host A)
End
Requester()
{
    return End{Mac48Address("02:00:00:00:0a:01"),
               Mac48Address("02:00:00:00:f0:01"),
               Ipv6Address("2001:db8:a::1")};
}

/// \return the responder's end (host B)
End
Responder()
{
    return End{Mac48Address("02:00:00:00:0b:01"),
               Mac48Address("02:00:00:00:f0:02"),
               Ipv6Address("2001:db8:b::1")};
}

/// The IPv6 and UDP fields of a RoCEv2 or MRC packet.
struct Flow
{
    End from;           ///< sender
    End to;             ///< receiver
    uint8_t dscp;       ///< DSCP
    MrcEcn ecn;         ///< ECN codepoint
    uint16_t srcPort;   ///< UDP source port
    uint32_t flowLabel; ///< IPv6 flow label
};

/// \return a RoCE flow from the requester (data, DSCP 26, ECT(0))
Flow
RoceData()
{
    return Flow{Requester(), Responder(), MrcDscp::ROCE_DATA, MrcEcn::ECT0, ROCE_REQ_SPORT, 0};
}

/// \return the reverse RoCE flow (ACK and NAK)
Flow
RoceAck()
{
    return Flow{Responder(), Requester(), MrcDscp::ROCE_DATA, MrcEcn::ECT0, ROCE_RSP_SPORT, 0};
}

/// \param from sender \param to receiver \param dscp DSCP \param ecn ECN \param ev the EV
/// \return an MRC flow whose UDP source port and flow label carry ev
Flow
MrcFlow(const End& from, const End& to, uint8_t dscp, MrcEcn ecn, uint32_t ev)
{
    MrcEvWire wire = MrcEvEncode(ev, MRC_EV_SPLIT_DEFAULT);
    return Flow{from, to, dscp, ecn, wire.udpSrcPort, wire.flowLabel};
}

/// \param size bytes \param seed first byte \return a payload of counting bytes
Ptr<Packet>
Payload(uint32_t size, uint8_t seed)
{
    std::vector<uint8_t> bytes(size);
    for (uint32_t i = 0; i < size; ++i)
    {
        bytes[i] = static_cast<uint8_t>(seed + i);
    }
    return Create<Packet>(bytes.data(), size);
}

/// \return a BTH with the given opcode, destination QP and PSN, P_Key 0xFFFF
MrcBthHeader
Bth(uint8_t opcode, uint32_t destQp, uint32_t psn, bool ackReq = false)
{
    MrcBthHeader bth;
    bth.SetOpcode(opcode);
    bth.SetDestQp(destQp);
    bth.SetPsn(psn);
    bth.SetAckReq(ackReq);
    return bth;
}

/// \return a RETH
MrcRethHeader
Reth(uint64_t va, uint32_t dmaLength)
{
    MrcRethHeader reth;
    reth.SetVirtualAddress(va);
    reth.SetRkey(RKEY);
    reth.SetDmaLength(dmaLength);
    return reth;
}

/// \return the IPv6 header of a flow for a UDP datagram of udpLength bytes
Ipv6Header
Ip(const Flow& f, uint32_t udpLength)
{
    Ipv6Header ip;
    ip.SetTrafficClass(MrcMakeTrafficClass(f.dscp, f.ecn));
    MrcSetFlowLabel(ip, f.flowLabel);
    ip.SetPayloadLength(static_cast<uint16_t>(udpLength));
    ip.SetNextHeader(IP_PROTO_UDP);
    ip.SetHopLimit(HOP_LIMIT);
    ip.SetSource(f.from.ip);
    ip.SetDestination(f.to.ip);
    return ip;
}

/**
 * Wrap the transport part of a packet (BTH onward) in UDP and IPv6.
 * \param transport BTH, extension headers and payload
 * \param f the flow
 * \param withIcrc append the ICRC (false for a trimmed packet)
 * \param inner receives the IPv6 header
 * \return the packet from its IPv6 header on
 */
Ptr<Packet>
Ipv6Udp(Ptr<const Packet> transport, const Flow& f, bool withIcrc, Ipv6Header& inner)
{
    uint32_t udpLength = UdpHeader().GetSerializedSize() + transport->GetSize() +
                         (withIcrc ? MrcIcrcTrailer::SERIALIZED_SIZE : 0);
    inner = Ip(f, udpLength);
    Ptr<Packet> p = transport->Copy();
    if (withIcrc)
    {
        // The ICRC masks the UDP checksum, and the UDP checksum covers the
        // ICRC: compute the ICRC on a copy without checksum first.
        Ptr<Packet> scratch = transport->Copy();
        UdpHeader udp;
        udp.SetSourcePort(f.srcPort);
        udp.SetDestinationPort(MRC_ROCEV2_UDP_PORT);
        udp.ForcePayloadSize(static_cast<uint16_t>(udpLength));
        scratch->AddHeader(udp);
        scratch->AddHeader(inner);
        p->AddTrailer(MrcIcrcTrailer(MrcIcrcTrailer::Compute(scratch)));
    }
    UdpHeader udp;
    udp.SetSourcePort(f.srcPort);
    udp.SetDestinationPort(MRC_ROCEV2_UDP_PORT);
    udp.EnableChecksums();
    udp.InitializeChecksum(f.from.ip, f.to.ip, IP_PROTO_UDP);
    p->AddHeader(udp); // length = bytes from here to the end, ICRC included
    p->AddHeader(inner);
    NS_ABORT_MSG_IF(withIcrc && !MrcIcrcTrailer::Verify(p), "ICRC does not verify");
    return p;
}

/// \return p with an Ethernet header for IPv6 from the flow's sender to its T0 switch
Ptr<Packet>
Ethernet(Ptr<Packet> p, const Flow& f)
{
    EthernetHeader eth(false);
    eth.SetSource(f.from.nicMac);
    eth.SetDestination(f.from.switchMac);
    eth.SetLengthType(ETHERTYPE_IPV6);
    p->AddHeader(eth);
    return p;
}

/// \return the complete frame of a RoCEv2 or MRC packet sent without SRv6
Ptr<Packet>
PlainFrame(Ptr<const Packet> transport, const Flow& f)
{
    Ipv6Header inner;
    return Ethernet(Ipv6Udp(transport, f, true, inner), f);
}

/// One frame of the gallery.
struct Frame
{
    std::string name;   ///< what it is
    Ptr<Packet> packet; ///< the whole frame, from the Ethernet header on
    std::string detail; ///< the one-line summary of its headers
};

/// \return a short text for a BTH
std::string
Describe(const MrcBthHeader& bth)
{
    std::ostringstream os;
    os << "BTH opcode 0x" << std::hex << std::setw(2) << std::setfill('0')
       << unsigned(bth.GetOpcode()) << " DestQP 0x" << std::setw(6) << bth.GetDestQp() << " PSN 0x"
       << std::setw(6) << bth.GetPsn() << std::dec;
    if (bth.GetAckReq())
    {
        os << " A";
    }
    if (bth.GetBecn())
    {
        os << " BECN";
    }
    if (bth.GetTimestampPresent())
    {
        os << " TS";
    }
    return os.str();
}

/// \return a short text for the IPv6/UDP part of a flow
std::string
Describe(const Flow& f)
{
    std::ostringstream os;
    os << f.from.ip << " > " << f.to.ip << " DSCP " << unsigned(f.dscp) << " ECN "
       << unsigned(static_cast<uint8_t>(f.ecn)) << " flow label 0x" << std::hex << f.flowLabel
       << std::dec << ", UDP " << f.srcPort << " > " << MRC_ROCEV2_UDP_PORT;
    return os.str();
}

// ---------------------------------------------------------------------------
// RoCEv2 RC

/// \return the five RoCE RC Write frames
std::vector<Frame>
RoceWrites()
{
    std::vector<Frame> frames;
    Flow f = RoceData();
    // A three-packet Write of 768 bytes: First, Middle, Last.
    {
        MrcBthHeader bth = Bth(MrcOpcode::RC_WRITE_FIRST, RESPONDER_QP, ROCE_PSN);
        Ptr<Packet> t = Payload(256, 0x00);
        t->AddHeader(Reth(VA, 768));
        t->AddHeader(bth);
        frames.push_back({"RoCE RC Write First",
                          PlainFrame(t, f),
                          Describe(f) + ", " + Describe(bth) + ", RETH len 768, payload 256"});
    }
    {
        MrcBthHeader bth = Bth(MrcOpcode::RC_WRITE_MIDDLE, RESPONDER_QP, ROCE_PSN + 1);
        Ptr<Packet> t = Payload(256, 0x01);
        t->AddHeader(bth);
        frames.push_back({"RoCE RC Write Middle",
                          PlainFrame(t, f),
                          Describe(f) + ", " + Describe(bth) + ", payload 256"});
    }
    {
        MrcBthHeader bth = Bth(MrcOpcode::RC_WRITE_LAST, RESPONDER_QP, ROCE_PSN + 2, true);
        Ptr<Packet> t = Payload(256, 0x02);
        t->AddHeader(bth);
        frames.push_back({"RoCE RC Write Last",
                          PlainFrame(t, f),
                          Describe(f) + ", " + Describe(bth) + ", payload 256"});
    }
    {
        MrcBthHeader bth = Bth(MrcOpcode::RC_WRITE_ONLY, RESPONDER_QP, ROCE_PSN + 3, true);
        Ptr<Packet> t = Payload(128, 0x03);
        t->AddHeader(Reth(VA + 0x1000, 128));
        t->AddHeader(bth);
        frames.push_back({"RoCE RC Write Only",
                          PlainFrame(t, f),
                          Describe(f) + ", " + Describe(bth) + ", RETH len 128, payload 128"});
    }
    {
        MrcBthHeader bth = Bth(MrcOpcode::RC_WRITE_ONLY_IMM, RESPONDER_QP, ROCE_PSN + 4, true);
        bth.SetSolicitedEvent(true);
        Ptr<Packet> t = Payload(64, 0x04);
        MrcImmDtHeader imm;
        imm.SetImmediate(0xdeadbeef);
        t->AddHeader(imm);
        t->AddHeader(Reth(VA + 0x2000, 64));
        t->AddHeader(bth);
        frames.push_back({"RoCE RC Write Only with Immediate",
                          PlainFrame(t, f),
                          Describe(f) + ", " + Describe(bth) +
                              " SE, RETH len 64, ImmDt 0xdeadbeef, payload 64"});
    }
    return frames;
}

/// \return the RC ACK, RC NAK and CNP frames
std::vector<Frame>
RoceControl()
{
    std::vector<Frame> frames;
    Flow f = RoceAck();
    {
        // Acknowledges everything up to the Write Only with Immediate (MSN 3:
        // three messages completed).
        MrcBthHeader bth = Bth(MrcOpcode::RC_ACK, REQUESTER_QP, ROCE_PSN + 4);
        MrcAethHeader aeth;
        aeth.SetAck(MrcAethHeader::CREDIT_INVALID);
        aeth.SetMsn(3);
        Ptr<Packet> t = Create<Packet>();
        t->AddHeader(aeth);
        t->AddHeader(bth);
        frames.push_back({"RoCE RC ACK",
                          PlainFrame(t, f),
                          Describe(f) + ", " + Describe(bth) + ", AETH ACK credit 0x1f MSN 3"});
    }
    {
        // The responder missed the Write Middle: NAK with the expected PSN.
        MrcBthHeader bth = Bth(MrcOpcode::RC_ACK, REQUESTER_QP, ROCE_PSN + 1);
        MrcAethHeader aeth;
        aeth.SetNak(MrcAethHeader::NakCode::PSN_SEQUENCE_ERROR);
        aeth.SetMsn(0);
        Ptr<Packet> t = Create<Packet>();
        t->AddHeader(aeth);
        t->AddHeader(bth);
        frames.push_back(
            {"RoCE RC NAK (PSN sequence error)",
             PlainFrame(t, f),
             Describe(f) + ", " + Describe(bth) + ", AETH NAK PSN sequence error MSN 0"});
    }
    {
        // A CNP goes from the notification point (the responder) to the QP
        // that sent the marked packets.
        Flow cnp{Responder(), Requester(), MrcDscp::ROCE_CNP, MrcEcn::NOT_ECT, ROCE_RSP_SPORT, 0};
        MrcBthHeader bth = MrcCnpHeader::MakeBth(REQUESTER_QP);
        Ptr<Packet> t = Create<Packet>();
        t->AddHeader(MrcCnpHeader());
        t->AddHeader(bth);
        frames.push_back({"RoCEv2 CNP",
                          PlainFrame(t, cnp),
                          Describe(cnp) + ", " + Describe(bth) + ", 16 reserved bytes"});
    }
    return frames;
}

// ---------------------------------------------------------------------------
// MRC

/// \return the uSID carrier of the plane-0 path: T1 5, then T0 2, then host downlink 5
MrcUsidCarrier
Plane0Carrier()
{
    return MrcUsidCarrier(MrcUsidCarrier::DEFAULT_LOCATOR_BLOCK,
                          {MrcMakeUsid(0, MrcUsidType::T1, 5),
                           MrcMakeUsid(0, MrcUsidType::T0, 2),
                           MrcMakeUsid(0, MrcUsidType::HOST_DOWNLINK, 5)});
}

/// \return the transport part of an MRC Write: BTH, METH, [TSETH], RETH, payload
Ptr<Packet>
MrcWriteTransport(const MrcBthHeader& bth,
                  uint16_t msn,
                  uint64_t va,
                  uint32_t dmaLength,
                  uint32_t payload,
                  uint8_t seed,
                  uint16_t txTimestamp = 0)
{
    Ptr<Packet> t = Payload(payload, seed);
    t->AddHeader(Reth(va, dmaLength));
    if (bth.GetTimestampPresent())
    {
        MrcTsethHeader tseth;
        tseth.SetTxTimestamp(txTimestamp);
        t->AddHeader(tseth);
    }
    MrcMethHeader meth;
    meth.SetRqMsn(0);
    meth.SetMsn(msn);
    t->AddHeader(meth);
    t->AddHeader(bth);
    return t;
}

/// \return the MRC Write frames: three-uSID carrier, SRH path, trimmed
std::vector<Frame>
MrcWrites()
{
    std::vector<Frame> frames;
    // MRC Write First: outer IPv6 to a three-uSID carrier, next header 41.
    {
        Flow f =
            MrcFlow(Requester(), Responder(), MrcDscp::TRIMMABLE, MrcEcn::ECT0, EV_WRITE_PLANE0);
        MrcBthHeader bth = Bth(MrcOpcode::MRC_WRITE_FIRST, RESPONDER_QP, MRC_PSN);
        Ptr<Packet> t = MrcWriteTransport(bth, 7, VA + 0x10000, 512, 256, 0x10);
        Ipv6Header inner;
        Ptr<Packet> p = Ipv6Udp(t, f, true, inner);
        MrcUsidCarrier carrier = Plane0Carrier();
        MrcSrv6Encapsulate(p, inner, f.from.ip, carrier);
        std::ostringstream os;
        os << "outer IPv6 > " << carrier << " (next header 41), inner " << Describe(f) << ", "
           << Describe(bth) << ", METH MSN 7, RETH len 512, payload 256";
        frames.push_back({"MRC Write First, SRv6 (three uSIDs)", Ethernet(p, f), os.str()});
    }
    // MRC Write Last with a TSETH, over a two-carrier path: outer IPv6 (next
    // header 43) and an SRH that holds the second carrier.
    {
        Flow f =
            MrcFlow(Requester(), Responder(), MrcDscp::TRIMMABLE, MrcEcn::ECT0, EV_WRITE_PLANE1);
        MrcBthHeader bth = Bth(MrcOpcode::MRC_WRITE_LAST, RESPONDER_QP, MRC_PSN + 1, true);
        bth.SetTimestampPresent(true);
        Ptr<Packet> t = MrcWriteTransport(bth, 7, VA + 0x10100, 512, 256, 0x11, 0x0abc);
        Ipv6Header inner;
        Ptr<Packet> p = Ipv6Udp(t, f, true, inner);
        MrcUsidCarrier path[2] = {MrcUsidCarrier(MrcUsidCarrier::DEFAULT_LOCATOR_BLOCK,
                                                 {MrcMakeUsid(1, MrcUsidType::T1, 9),
                                                  MrcMakeUsid(1, MrcUsidType::T2, 3),
                                                  MrcMakeUsid(1, MrcUsidType::T1, 12)}),
                                  MrcUsidCarrier(MrcUsidCarrier::DEFAULT_LOCATOR_BLOCK,
                                                 {MrcMakeUsid(1, MrcUsidType::T0, 2),
                                                  MrcMakeUsid(1, MrcUsidType::HOST_DOWNLINK, 5)})};
        MrcSrv6EncapsulatePath(p, inner, f.from.ip, path, 2);
        std::ostringstream os;
        os << "outer IPv6 > " << path[0] << " (next header 43), SRH [" << path[1]
           << "] segments left 1, inner " << Describe(f) << ", " << Describe(bth)
           << ", METH MSN 7, TSETH 0x0abc, RETH len 512, payload 256";
        frames.push_back({"MRC Write Last with TSETH, SRv6 with SRH", Ethernet(p, f), os.str()});
    }
    // MRC Write Only, trimmed by T1 5 of plane 0 (which shifted the carrier
    // and decremented the hop limit first): headers through the RETH remain,
    // the outer DSCP says TRIMMED, the lengths count what is left, no ICRC.
    {
        Flow f =
            MrcFlow(Requester(), Responder(), MrcDscp::TRIMMABLE, MrcEcn::ECT0, EV_WRITE_PLANE0);
        MrcBthHeader bth = Bth(MrcOpcode::MRC_WRITE_ONLY, RESPONDER_QP, MRC_PSN + 2, true);
        Ptr<Packet> t = MrcWriteTransport(bth, 8, VA + 0x20000, 256, 0, 0);
        Ipv6Header inner;
        Ptr<Packet> p = Ipv6Udp(t, f, false, inner);
        MrcUsidCarrier carrier = Plane0Carrier();
        carrier.Shift();
        MrcSrv6Encapsulate(p,
                           MrcMakeTrafficClass(MrcDscp::TRIMMED, f.ecn),
                           f.flowLabel,
                           f.from.ip,
                           carrier,
                           nullptr,
                           HOP_LIMIT - 1);
        std::ostringstream os;
        os << "outer IPv6 > " << carrier << " DSCP " << unsigned(MrcDscp::TRIMMED)
           << " hop limit 63, inner " << Describe(f) << ", " << Describe(bth)
           << ", METH MSN 8, RETH len 256; payload and ICRC cut";
        frames.push_back({"MRC Write Only, trimmed", Ethernet(p, f), os.str()});
    }
    return frames;
}

/// \return the MRC NACK, SACK and probe frames (ECMP mode: no SRv6)
std::vector<Frame>
MrcControl()
{
    std::vector<Frame> frames;
    // NACK of the trimmed Write Only.
    {
        Flow f = MrcFlow(Responder(), Requester(), MrcDscp::CONTROL, MrcEcn::NOT_ECT, EV_NACK);
        MrcBthHeader bth = Bth(MrcOpcode::MRC_NACK, REQUESTER_QP, MRC_PSN + 2);
        MrcNethHeader neth;
        neth.SetNackReason(MrcNackReason::TRIMMED);
        neth.SetEntropy(EV_WRITE_PLANE0);
        neth.SetSpdcid(RESPONDER_QP & 0xffff);
        neth.SetDpdcid(REQUESTER_QP & 0xffff);
        neth.SetNackPsn(MRC_PSN + 2);
        neth.SetTxTimestamp(0);
        Ptr<Packet> t = Create<Packet>();
        t->AddHeader(neth);
        t->AddHeader(bth);
        frames.push_back({"MRC NACK (trimmed)",
                          PlainFrame(t, f),
                          Describe(f) + ", " + Describe(bth) +
                              ", NETH reason TRIMMED nack_psn 0x002002 entropy 0x1005"});
    }
    // SACK triggered by the Write Last: everything up to it arrived, the
    // trimmed Write Only (PSN + 2) has not.
    {
        Flow f = MrcFlow(Responder(), Requester(), MrcDscp::CONTROL, MrcEcn::NOT_ECT, EV_SACK);
        MrcBthHeader bth = Bth(MrcOpcode::MRC_SACK, REQUESTER_QP, MRC_PSN + 1);
        MrcSethHeader seth;
        seth.SetPathFeedback(MrcPathFeedback::NONE);
        seth.SetEntropy(EV_WRITE_PLANE1);
        seth.SetSpdcid(RESPONDER_QP & 0xffff);
        seth.SetDpdcid(REQUESTER_QP & 0xffff);
        seth.SetCackPsn(MRC_PSN + 1);
        seth.SetAckPsn(MRC_PSN + 1);
        seth.SetCcType(MrcSethHeader::CC_TYPE_NSCC);
        seth.SetMpr(8);
        seth.SetSackBasePsn(MRC_PSN + 2);
        seth.SetSackBitmap(0);
        MrcCcStateHeader cc;
        cc.SetTxTimestamp(0x0abc);
        cc.SetRcvdBytesUnits(MrcCcStateHeader::BytesToRcvdUnits(512));
        Ptr<Packet> t = Create<Packet>();
        t->AddHeader(cc);
        t->AddHeader(seth);
        t->AddHeader(bth);
        frames.push_back({"MRC SACK",
                          PlainFrame(t, f),
                          Describe(f) + ", " + Describe(bth) +
                              ", SETH cack_psn 0x002001 entropy 0x2009 mpr 8, CC_STATE "
                              "tx_timestamp 0x0abc rcvd_bytes 2"});
    }
    // Reliability probe: consumes no PSN; the gallery writes PSN 0.
    {
        Flow f = MrcFlow(Requester(), Responder(), MrcDscp::CONTROL, MrcEcn::NOT_ECT, EV_PROBE);
        MrcBthHeader bth = Bth(MrcOpcode::MRC_PROBE, RESPONDER_QP, 0);
        MrcPethHeader peth;
        peth.SetProbeId(0x0042);
        peth.SetSpdcid(REQUESTER_QP & 0xffff);
        peth.SetDpdcid(RESPONDER_QP & 0xffff);
        peth.SetTxTimestamp(0x0def);
        Ptr<Packet> t = Create<Packet>();
        t->AddHeader(peth);
        t->AddHeader(bth);
        frames.push_back(
            {"MRC Reliability Probe",
             PlainFrame(t, f),
             Describe(f) + ", " + Describe(bth) + ", PETH probe_id 0x0042 tx_timestamp 0x0def"});
    }
    return frames;
}

// ---------------------------------------------------------------------------
// 802.1Qbb PFC

/// \return a PFC frame from the requester's T0 switch port to the NIC
Frame
PfcFrame(const std::string& name, const MrcPfcFrame& body)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(body);
    EthernetHeader eth(false);
    eth.SetSource(Requester().switchMac);
    eth.SetDestination(MrcPfcFrame::GetDestination());
    eth.SetLengthType(MrcPfcFrame::ETHER_TYPE);
    p->AddHeader(eth);
    std::ostringstream os;
    os << "MAC Control opcode 0x" << std::hex << std::setw(4) << std::setfill('0')
       << body.GetOpcode() << " class-enable 0x" << std::setw(4) << body.GetClassEnableVector()
       << std::dec;
    for (uint8_t c = 0; c < MrcPfcFrame::N_CLASSES; ++c)
    {
        if (body.IsEnabled(c))
        {
            os << ", class " << unsigned(c) << " quanta " << body.GetQuanta(c);
        }
    }
    return {name, p, os.str()};
}

/// \return a PFC pause (class 3 for 0xffff quanta, class 5 for 100) and a resume of class 3
std::vector<Frame>
Pfc()
{
    MrcPfcFrame pause;
    pause.SetPause(3, 0xffff);
    pause.SetPause(5, 100);
    MrcPfcFrame resume;
    resume.SetPause(3, 0);
    return {PfcFrame("PFC pause", pause), PfcFrame("PFC resume", resume)};
}

/// \return every frame of the gallery, in the order they are written
std::vector<Frame>
AllFrames()
{
    std::vector<Frame> frames;
    for (auto part : {RoceWrites(), RoceControl(), MrcWrites(), MrcControl(), Pfc()})
    {
        frames.insert(frames.end(), part.begin(), part.end());
    }
    return frames;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string out = ".";
    MrcCommandLine cmd(__FILE__);
    cmd.Usage("Write one Ethernet frame of every kind the mrc module sends (RoCEv2 RC, MRC, "
              "SRv6, trimmed, PFC) to <out>/wire-gallery.pcap.");
    cmd.AddValue("out", "folder for wire-gallery.pcap (created if missing)", out);
    cmd.Parse(argc, argv);

    std::error_code ec;
    std::filesystem::create_directories(out, ec);
    std::string path = (std::filesystem::path(out) / "wire-gallery.pcap").string();
    {
        // PcapFileWrapper would abort with less to say; try the file first.
        std::ofstream probe(path, std::ios::binary | std::ios::trunc);
        if (ec || !probe)
        {
            std::cerr << "error: cannot write " << path << ": "
                      << (ec ? ec.message() : std::strerror(errno)) << std::endl;
            return 1;
        }
    }

    PcapHelper pcap;
    Ptr<PcapFileWrapper> file = pcap.CreateFile(path, std::ios::out, PcapHelper::DLT_EN10MB, 65535);
    std::vector<Frame> frames = AllFrames();
    for (std::size_t i = 0; i < frames.size(); ++i)
    {
        file->Write(MicroSeconds(i + 1), frames[i].packet);
        std::cout << std::setw(2) << i + 1 << "  " << frames[i].name << " ("
                  << frames[i].packet->GetSize() << " bytes): " << frames[i].detail << std::endl;
    }
    if (file->Fail())
    {
        std::cerr << "error: writing " << path << " failed" << std::endl;
        return 1;
    }
    std::cout << "wrote " << frames.size() << " frames to " << path << std::endl;
    return 0;
}
