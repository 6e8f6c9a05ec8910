/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The fuzz targets (see mrc-fuzz-targets.h). What each header target assumes of its
// caller, and which aborts are by design, is written next to the target.

#include "mrc-fuzz-targets.h"

#include "ns3/buffer.h"
#include "ns3/ipv6-header.h"
#include "ns3/mrc-aeth-header.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-cc-state-header.h"
#include "ns3/mrc-cnp-header.h"
#include "ns3/mrc-eeth-header.h"
#include "ns3/mrc-erth-header.h"
#include "ns3/mrc-flow-size-cdf.h"
#include "ns3/mrc-hpcc-input.h"
#include "ns3/mrc-htsim-input.h"
#include "ns3/mrc-icrc-trailer.h"
#include "ns3/mrc-imm-dt-header.h"
#include "ns3/mrc-input-error.h"
#include "ns3/mrc-meth-header.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-neth-header.h"
#include "ns3/mrc-opcodes.h"
#include "ns3/mrc-packet-info.h"
#include "ns3/mrc-peth-header.h"
#include "ns3/mrc-pfc-frame.h"
#include "ns3/mrc-raw-header.h"
#include "ns3/mrc-reth-header.h"
#include "ns3/mrc-seth-header.h"
#include "ns3/mrc-srh-header.h"
#include "ns3/mrc-trace-input.h"
#include "ns3/mrc-tseth-header.h"
#include "ns3/packet.h"
#include "ns3/udp-header.h"

#include <algorithm>
#include <cstring>
#include <sstream>

namespace ns3
{
namespace MrcFuzz
{
namespace
{

/// Throw a Failure naming the target unless `ok`.
void
Expect(bool ok, const char* target, const std::string& what)
{
    if (!ok)
    {
        throw Failure(std::string(target) + ": " + what);
    }
}

/// \return the bytes as a Buffer of exactly `size` bytes
Buffer
ToBuffer(const uint8_t* data, std::size_t size)
{
    Buffer b;
    b.AddAtStart(static_cast<uint32_t>(size));
    b.Begin().Write(data, static_cast<uint32_t>(size));
    return b;
}

/// \return the header's serialization
template <typename H>
std::string
Bytes(const H& h)
{
    Buffer b;
    b.AddAtStart(h.GetSerializedSize());
    h.Serialize(b.Begin());
    std::string s(h.GetSerializedSize(), '\0');
    b.CopyData(reinterpret_cast<uint8_t*>(&s[0]), h.GetSerializedSize());
    return s;
}

/// How much of the input a header's serialization must reproduce.
enum class RoundTrip
{
    EXACT,     ///< every byte it consumed
    MASKED,    ///< every bit it keeps (see KeptBits); the others are written as 0
    CANONICAL, ///< a canonical form: serializing what re-reading it gives changes nothing
    NONE       ///< no round trip (a class of ns-3 whose length field is not symmetric)
};

/// \return the bits a header keeps: its serialization after reading all ones
template <typename H>
const std::string&
KeptBits()
{
    static const std::string bits = [] {
        H h;
        const std::string ones(h.GetSerializedSize(), '\xff');
        Buffer b = ToBuffer(reinterpret_cast<const uint8_t*>(ones.data()), ones.size());
        h.Deserialize(b.Begin());
        return Bytes(h);
    }();
    return bits;
}

/**
 * A fixed-size header H: its callers hand it at least GetSerializedSize() bytes (the
 * per-hop parser's length table and the NIC check the packet's size first: see
 * MrcParsePacket and MrcRdmaNic::PortReceive), so shorter inputs are not its to
 * reject. Properties: Deserialize consumes exactly its size or rejects the bytes with 0,
 * never aborts, Print works, and the round trip holds as `rt` says.
 */
template <typename H>
void
FixedHeader(const char* name, const uint8_t* data, std::size_t size, RoundTrip rt)
{
    H h;
    const uint32_t n = h.GetSerializedSize();
    if (size < n)
    {
        return;
    }
    Buffer b = ToBuffer(data, size);
    const uint32_t used = h.Deserialize(b.Begin());
    if (used == 0)
    {
        return; // rejected cleanly
    }
    Expect(used == n,
           name,
           "Deserialize consumed " + std::to_string(used) + " of its " + std::to_string(n) +
               " bytes");
    Expect(h.GetSerializedSize() == n, name, "the size changed with the contents");
    std::ostringstream os;
    h.Print(os);
    const std::string out = Bytes(h);
    const std::string in(reinterpret_cast<const char*>(data), n);
    switch (rt)
    {
    case RoundTrip::EXACT:
        Expect(out == in, name, "Serialize(Deserialize(b)) differs from b");
        break;
    case RoundTrip::MASKED: {
        const std::string& kept = KeptBits<H>();
        for (uint32_t k = 0; k < n; ++k)
        {
            const auto m = static_cast<uint8_t>(kept[k]);
            const auto o = static_cast<uint8_t>(out[k]);
            Expect((o & m) == (static_cast<uint8_t>(in[k]) & m) && (o & ~m) == 0,
                   name,
                   "byte " + std::to_string(k) + " does not round-trip its kept bits");
        }
        break;
    }
    case RoundTrip::CANONICAL: {
        H again;
        Buffer c = ToBuffer(reinterpret_cast<const uint8_t*>(out.data()), out.size());
        again.Deserialize(c.Begin());
        Expect(Bytes(again) == out, name, "the serialized form is not stable");
        break;
    }
    case RoundTrip::NONE:
        break;
    }
}

/// A list of byte strings from headers.
template <typename... H>
std::vector<std::string>
SeedsOf(const H&... h)
{
    return {Bytes(h)...};
}

/// \return the default header's bytes and one with every byte 0xff
template <typename H>
std::vector<std::string>
DefaultSeeds()
{
    H h;
    return {Bytes(h), std::string(h.GetSerializedSize(), '\xff')};
}

// ---------------------------------------------------------------- readers

/// Input files rejected only by MrcInputError (anything else is a finding).
template <typename F>
void
Reader(const uint8_t* data, std::size_t size, F read)
{
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    try
    {
        read(in);
    }
    catch (const MrcInputError&)
    {
    }
}

void
HpccTopology(const uint8_t* data, std::size_t size)
{
    Reader(data, size, [](std::istream& in) { MrcHpccInput::ParseTopology(in, "fuzz"); });
}

void
HpccFlows(const uint8_t* data, std::size_t size)
{
    Reader(data, size, [](std::istream& in) {
        MrcHpccFlowOptions o;
        o.numNodes = 64;
        o.maxBytes = 0xffffffffULL;
        MrcHpccInput::ParseFlows(in, "fuzz", o);
    });
}

void
HtsimTopo(const uint8_t* data, std::size_t size)
{
    Reader(data, size, [](std::istream& in) {
        MrcHtsimInput::Shape(MrcHtsimInput::ParseTopology(in, "fuzz"));
    });
}

void
HtsimCm(const uint8_t* data, std::size_t size)
{
    Reader(data, size, [](std::istream& in) {
        MrcHtsimInput::ParseConnectionMatrix(in, "fuzz").TimedFlows();
    });
}

void
Cdf(const uint8_t* data, std::size_t size)
{
    Reader(data, size, [](std::istream& in) {
        const MrcFlowSizeCdf cdf = MrcFlowSizeCdf::Parse(in, "fuzz");
        for (double u : {0.0, 0.25, 0.5, 0.999, 1.0})
        {
            cdf.SampleFromUniform(u);
        }
    });
}

void
Trace(const uint8_t* data, std::size_t size)
{
    Reader(data, size, [](std::istream& in) {
        const std::vector<MrcTraceEntry> entries = MrcTraceReader::Read(in, "fuzz");
        MrcTraceReader::CheckHosts(entries, 64, "fuzz");
    });
}

std::vector<std::string>
NoSeeds()
{
    return {};
}

/// A trace with every kind of line (flow, each collective, dependencies, options).
std::vector<std::string>
TraceSeeds()
{
    return {"# job\n"
            "1 flow 0 1 4096 start=10us\n"
            "2 allreduce 0-3,8 65536 algo=tree channels=2 chunks=2 iterations=2 "
            "computeGap=5us job=1\n"
            "3 alltoall 4-7 1024 after=1,2 gap=1us\n"
            "4 reducescatter 0,2,4 3000 algo=ring\n"
            "5 allgather 1-2 10 after=4\n"};
}

// ---------------------------------------------------------------- header classes

// InfiniBand / RoCEv2 transport headers (and MRC's METH). Every bit pattern is a value
// these classes hold as it came (reserved bits included), so the round trip is exact.
void
Bth(const uint8_t* d, std::size_t n)
{
    FixedHeader<MrcBthHeader>("bth", d, n, RoundTrip::EXACT);
}

void
Reth(const uint8_t* d, std::size_t n)
{
    FixedHeader<MrcRethHeader>("reth", d, n, RoundTrip::EXACT);
}

void
Aeth(const uint8_t* d, std::size_t n)
{
    FixedHeader<MrcAethHeader>("aeth", d, n, RoundTrip::EXACT);
}

void
ImmDt(const uint8_t* d, std::size_t n)
{
    FixedHeader<MrcImmDtHeader>("imm-dt", d, n, RoundTrip::EXACT);
}

void
Cnp(const uint8_t* d, std::size_t n)
{
    FixedHeader<MrcCnpHeader>("cnp", d, n, RoundTrip::MASKED);
}

// MRC extension headers (OCP MRC 1.0), and the CNP body: their reserved bits (and
// padding) are written as 0 whatever was read, so every bit they keep round-trips and
// the others come out 0 (MASKED).
void
Meth(const uint8_t* d, std::size_t n)
{
    FixedHeader<MrcMethHeader>("meth", d, n, RoundTrip::EXACT);
}

void
Tseth(const uint8_t* d, std::size_t n)
{
    FixedHeader<MrcTsethHeader>("tseth", d, n, RoundTrip::MASKED);
}

void
Seth(const uint8_t* d, std::size_t n)
{
    FixedHeader<MrcSethHeader>("seth", d, n, RoundTrip::MASKED);
}

void
CcState(const uint8_t* d, std::size_t n)
{
    FixedHeader<MrcCcStateHeader>("cc-state", d, n, RoundTrip::MASKED);
}

void
Neth(const uint8_t* d, std::size_t n)
{
    FixedHeader<MrcNethHeader>("neth", d, n, RoundTrip::MASKED);
}

void
Peth(const uint8_t* d, std::size_t n)
{
    FixedHeader<MrcPethHeader>("peth", d, n, RoundTrip::MASKED);
}

void
Eeth(const uint8_t* d, std::size_t n)
{
    FixedHeader<MrcEethHeader>("eeth", d, n, RoundTrip::MASKED);
}

void
Erth(const uint8_t* d, std::size_t n)
{
    FixedHeader<MrcErthHeader>("erth", d, n, RoundTrip::MASKED);
}

/// The ICRC trailer, read from the end of the bytes (4 of them at least: the NIC counts
/// a shorter tail as a trimmed packet and never reads it).
void
Icrc(const uint8_t* d, std::size_t n)
{
    if (n < MrcIcrcTrailer::SERIALIZED_SIZE)
    {
        return;
    }
    Buffer b = ToBuffer(d, n);
    MrcIcrcTrailer t;
    const uint32_t used = t.Deserialize(b.End());
    Expect(used == MrcIcrcTrailer::SERIALIZED_SIZE, "icrc", "wrong size consumed");
    Buffer o;
    o.AddAtStart(used);
    t.Serialize(o.End());
    uint8_t out[MrcIcrcTrailer::SERIALIZED_SIZE];
    o.CopyData(out, used);
    Expect(std::memcmp(out, d + n - used, used) == 0, "icrc", "round trip differs");
}

std::vector<std::string>
IcrcSeeds()
{
    return {std::string("\x01\x02\x03\x04", 4)};
}

/// The Ethernet header as the devices write and read it (a raw 14-byte header:
/// destination, source, EtherType; MrcNetDevice reads it without a class).
void
Ethernet(const uint8_t* d, std::size_t n)
{
    if (n < MrcRawHeader::ETHERNET_BYTES)
    {
        return;
    }
    MrcRawHeader h(MrcRawHeader::ETHERNET_BYTES, MrcRawHeader::ETHERNET);
    Buffer b = ToBuffer(d, n);
    Expect(h.Deserialize(b.Begin()) == MrcRawHeader::ETHERNET_BYTES,
           "ethernet",
           "wrong size consumed");
    std::ostringstream os;
    h.Print(os);
    Expect(Bytes(h) == std::string(reinterpret_cast<const char*>(d), h.GetSerializedSize()),
           "ethernet",
           "round trip differs");
}

std::vector<std::string>
EthernetSeeds()
{
    return {std::string("\x02\x00\x00\x00\x00\x01\x02\x00\x00\x00\x00\x02\x86\xdd", 14),
            std::string("\x01\x80\xc2\x00\x00\x01\x02\x00\x00\x00\x00\x02\x88\x08", 14)};
}

/// ns-3's IPv6 and UDP headers, which the SRv6 encapsulation and the queue pairs write
/// (the switches and NICs read IPv6 and UDP through MrcParsePacket, target "packet").
/// Ipv6Header rejects a version other than 6 with 0; its canonical form is stable.
/// UdpHeader reads its length field as a payload size it then writes back unchanged
/// (ns-3's own asymmetry), so it has no round trip here: only no crash and its size.
void
Ipv6(const uint8_t* d, std::size_t n)
{
    FixedHeader<Ipv6Header>("ipv6", d, n, RoundTrip::CANONICAL);
}

void
Udp(const uint8_t* d, std::size_t n)
{
    FixedHeader<UdpHeader>("udp", d, n, RoundTrip::NONE);
}

/**
 * The Segment Routing Header: variable length, so it checks its own bounds.
 * TryDeserialize (bytes of unknown origin) must reject what it cannot hold with 0 and
 * never read past the buffer; Deserialize aborts by design on the same inputs (the
 * model only reads SRHs it wrote), so it is run only on what Check accepts. Round trip
 * exact.
 */
void
Srh(const uint8_t* d, std::size_t n)
{
    Buffer b = ToBuffer(d, n);
    const std::string why = MrcSrhHeader::Check(b.Begin());
    MrcSrhHeader h;
    const uint32_t used = h.TryDeserialize(b.Begin());
    Expect((used == 0) == !why.empty(), "srh", "TryDeserialize and Check disagree: " + why);
    if (used == 0)
    {
        return;
    }
    Expect(used <= n, "srh", "read past the buffer");
    Expect(used == h.GetSerializedSize(), "srh", "consumed size is not its size");
    std::ostringstream os;
    h.Print(os);
    Expect(Bytes(h) == std::string(reinterpret_cast<const char*>(d), used),
           "srh",
           "round trip differs");
    MrcSrhHeader again;
    Expect(again.Deserialize(b.Begin()) == used, "srh", "Deserialize differs");
}

/// \param carriers carriers of the path, 2..MAX_SEGMENTS + 1
/// \return the bytes of the SRH of a path of that many carriers fc00:0:1::1, ::2, ...
std::string
SrhOfPath(uint32_t carriers)
{
    MrcSrhHeader h;
    MrcUsidCarrier path[MrcSrhHeader::MAX_SEGMENTS + 1];
    uint8_t bytes[16] = {0xfc, 0, 0, 1};
    for (uint32_t i = 0; i < carriers; ++i)
    {
        bytes[15] = static_cast<uint8_t>(i + 1);
        path[i] = MrcUsidCarrier::FromBytes(bytes);
    }
    h.SetPath(path, carriers);
    return Bytes(h);
}

std::vector<std::string>
SrhSeeds()
{
    return {SrhOfPath(3)};
}

/// The PFC frame (MAC Control body after the Ethernet header): a frame shorter than
/// its 46 bytes is rejected with 0 bytes consumed and opcode 0, which the PFC port
/// ignores; a full one round-trips its 20 meaningful bytes, the padding reads as 0.
void
Pfc(const uint8_t* d, std::size_t n)
{
    Buffer b = ToBuffer(d, n);
    MrcPfcFrame f;
    const uint32_t used = f.Deserialize(b.Begin());
    if (n < MrcPfcFrame::SIZE)
    {
        Expect(used == 0 && f.GetOpcode() != MrcPfcFrame::OPCODE,
               "pfc",
               "a short frame was not rejected");
        return;
    }
    Expect(used == MrcPfcFrame::SIZE, "pfc", "wrong size consumed");
    std::ostringstream os;
    f.Print(os);
    const std::string out = Bytes(f);
    Expect(out.compare(0, 20, std::string(reinterpret_cast<const char*>(d), 20)) == 0,
           "pfc",
           "round trip differs");
}

std::vector<std::string>
PfcSeeds()
{
    MrcPfcFrame f;
    f.SetClassEnableVector(0x09);
    f.SetQuanta(0, 0xffff);
    f.SetQuanta(3, 100);
    return {Bytes(f)};
}

// ---------------------------------------------------------------- parsers

/// Sizes of the extension headers the transports read after the BTH of `opcode`, from
/// their classes (the parser's length table must agree).
uint32_t
ClassBytesAfterBth(uint8_t opcode, uint8_t bthFlags)
{
    using namespace MrcOpcode;
    const uint32_t reth = MrcRethHeader().GetSerializedSize();
    const uint32_t imm = MrcImmDtHeader().GetSerializedSize();
    const uint32_t aeth = MrcAethHeader().GetSerializedSize();
    switch (opcode)
    {
    case RC_WRITE_FIRST:
    case RC_WRITE_ONLY:
        return reth;
    case RC_WRITE_ONLY_IMM:
        return reth + imm;
    case RC_WRITE_LAST_IMM:
        return imm;
    case RC_ACK:
    case MRC_TRANSPORT_ACK:
        return aeth;
    case ROCE_CNP:
        return MrcCnpHeader().GetSerializedSize();
    case MRC_WRITE_FIRST:
    case MRC_WRITE_MIDDLE:
    case MRC_WRITE_LAST:
    case MRC_WRITE_LAST_IMM:
    case MRC_WRITE_ONLY:
    case MRC_WRITE_ONLY_IMM:
        return MrcMethHeader::SIZE + ((bthFlags & MRC_BTH_FLAG_TS) ? MrcTsethHeader::SIZE : 0) +
               reth + (HasImmediate(opcode) ? imm : 0);
    case MRC_SACK:
        return MrcSethHeader::SIZE + MrcCcStateHeader::SIZE;
    case MRC_NACK:
        return MrcNethHeader::SIZE;
    case MRC_PROBE:
        return MrcPethHeader::SIZE;
    default:
        return 0;
    }
}

/// Read the transport headers of a parsed packet as the queue pairs do.
void
ReadTransportHeaders(const std::string& headers, const MrcPacketInfo& info)
{
    Buffer b = ToBuffer(reinterpret_cast<const uint8_t*>(headers.data()), headers.size());
    Buffer::Iterator i = b.Begin();
    i.Next(info.bthOffset);
    MrcBthHeader bth;
    i.Next(bth.Deserialize(i));
    Expect(bth.GetOpcode() == info.opcode, "packet", "BTH opcode differs from the parse");
    std::ostringstream os;
    bth.Print(os);
    const uint8_t op = info.opcode;
    if (op == MrcOpcode::MRC_SACK)
    {
        MrcSethHeader seth;
        i.Next(seth.Deserialize(i));
        MrcCcStateHeader cc;
        i.Next(cc.Deserialize(i));
    }
    else if (op == MrcOpcode::MRC_NACK)
    {
        MrcNethHeader neth;
        i.Next(neth.Deserialize(i));
    }
    else if (op == MrcOpcode::MRC_PROBE)
    {
        MrcPethHeader peth;
        i.Next(peth.Deserialize(i));
    }
    else if (op == MrcOpcode::RC_ACK || op == MrcOpcode::MRC_TRANSPORT_ACK)
    {
        MrcAethHeader aeth;
        i.Next(aeth.Deserialize(i));
    }
    Expect(i.GetDistanceFrom(b.Begin()) <= info.headerBytes,
           "packet",
           "transport headers read past headerBytes");
}

/**
 * The parse a hop runs on bytes its device already read (MrcParsePacket with a head and
 * carried IPv6 edits, MrcNetDevice::Receive and the owners' PortReceive) gives what the
 * parse of the packet with those edits written gives (MrcWriteIpv6Edits, then
 * MrcParsePacket of the packet), for every edits value (shifts 0-7, with and without CE)
 * and for heads of the device's length, of the IPv6 header only and empty (the last two
 * make the parse read the packet again and apply the edits there).
 * \param p the packet (unchanged) \param n its size
 */
void
ParseWithHeadMatchesWrittenEdits(const Ptr<Packet>& p, std::size_t n)
{
    if (n < MRC_IPV6_HEADER_BYTES)
    {
        return; // no IPv6 header to carry edits for (the device then has none either)
    }
    uint8_t head[MrcNetDevice::RX_HEAD_BYTES];
    const auto full = static_cast<uint32_t>(std::min<std::size_t>(n, sizeof(head)));
    for (uint8_t edits = 0; edits <= MRC_IPV6_EDIT_SHIFTS + MRC_IPV6_EDIT_CE; ++edits)
    {
        Ptr<Packet> written = p->Copy();
        MrcWriteIpv6Edits(written, edits);
        MrcPacketInfo want;
        const bool wantOk = MrcParsePacket(written, want, MRC_ROCEV2_UDP_PORT);
        for (uint32_t have : {full, MRC_IPV6_HEADER_BYTES, 0u})
        {
            // as MrcNetDevice::Receive: the first bytes, with the edits applied to them
            p->CopyData(head, have);
            if (have >= MRC_IPV6_HEADER_BYTES)
            {
                MrcApplyIpv6Edits(head, edits);
            }
            MrcPacketInfo got;
            const bool ok = MrcParsePacket(*p, head, have, got, MRC_ROCEV2_UDP_PORT, edits);
            Expect(ok == wantOk && (!ok || got == want),
                   "packet",
                   "the parse of a " + std::to_string(have) + "-byte head with edits " +
                       std::to_string(edits) + " differs from the parse with them written");
        }
    }
}

/**
 * The per-hop parser (MrcParsePacket, what every switch and NIC runs on an arriving
 * IPv6 packet): never aborts or reads out of bounds, and when it accepts a packet its
 * offsets are consistent, headerBytes fits the packet, the BTH's extension length
 * matches the header classes', and the transport headers read as the NIC reads them
 * stay inside headerBytes. ECN marking in place (outer header) is run too, and the form
 * a hop runs (a head and carried edits) is checked against the plain one
 * (ParseWithHeadMatchesWrittenEdits).
 */
void
ParsePacket(const uint8_t* d, std::size_t n)
{
    Ptr<Packet> p = Create<Packet>(d, static_cast<uint32_t>(n));
    ParseWithHeadMatchesWrittenEdits(p, n);
    MrcPacketInfo info;
    const bool ok = MrcParsePacket(p, info, MRC_ROCEV2_UDP_PORT);
    Expect(info.packetBytes == n, "packet", "packetBytes differs from the size");
    if (!ok)
    {
        return;
    }
    Expect(info.headerBytes <= n, "packet", "headerBytes beyond the packet");
    Expect(!info.hasSrh || info.srhOffset + info.srhLength <= info.headerBytes,
           "packet",
           "SRH beyond the headers");
    Expect(!info.encapsulated || info.innerOffset + 40u <= info.headerBytes,
           "packet",
           "inner IPv6 header beyond the headers");
    Expect(!info.hasUdp || info.udpOffset + 8u <= info.headerBytes,
           "packet",
           "UDP beyond the headers");
    if (info.hasSrh)
    {
        // What a receiver of unknown bytes would do with the SRH the parser found.
        std::string all(info.srhOffset + info.srhLength, '\0');
        p->CopyData(reinterpret_cast<uint8_t*>(&all[0]), all.size());
        Buffer b =
            ToBuffer(reinterpret_cast<const uint8_t*>(all.data()) + info.srhOffset, info.srhLength);
        MrcSrhHeader srh;
        const uint32_t used = srh.TryDeserialize(b.Begin());
        Expect(used <= info.srhLength, "packet", "SRH read past its length");
    }
    if (info.hasBth)
    {
        Expect(info.bthOffset + MrcBthHeader::SERIALIZED_SIZE +
                       ClassBytesAfterBth(info.opcode, info.bthFlags) ==
                   info.headerBytes,
               "packet",
               "the parser's extension length differs from the header classes'");
        std::string headers(info.headerBytes, '\0');
        p->CopyData(reinterpret_cast<uint8_t*>(&headers[0]), info.headerBytes);
        ReadTransportHeaders(headers, info);
    }
    const uint32_t before = p->GetSize();
    MrcMarkCeInPlace(p, 0);
    Expect(p->GetSize() == before, "packet", "marking changed the size");
    MrcPacketInfo again;
    Expect(MrcParsePacket(p, again, MRC_ROCEV2_UDP_PORT) && again.headerBytes == info.headerBytes,
           "packet",
           "marking changed the parse");
}

/// An IPv6 / UDP / BTH / RETH data packet and an SRv6 one (outer, SRH, inner IPv6).
std::vector<std::string>
PacketSeeds()
{
    std::string ip(40, '\0');
    ip[0] = 0x60;
    ip[1] = 0x01; // ECT(1)... traffic class low bits
    ip[6] = 17;
    ip[7] = 64;
    std::string udp("\xc0\x00\x12\xb7\x00\x00\x00\x00", 8);
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::RC_WRITE_ONLY);
    MrcRethHeader reth;
    std::string plain = ip + udp + Bytes(bth) + Bytes(reth) + std::string(64, 'x');
    std::string outer = ip;
    outer[6] = 43;
    std::string srh = SrhSeeds()[0];
    std::string inner = ip;
    MrcBthHeader mb;
    mb.SetOpcode(MrcOpcode::MRC_SACK);
    std::string sack = Bytes(mb) + Bytes(MrcSethHeader()) + Bytes(MrcCcStateHeader());
    // ECN-capable (ECT(0)) with a uSID destination, and an SRH of 8 segments (252 bytes of
    // headers): they run past a device's head, so the parse reads the packet again
    std::string ect = outer;
    ect[1] = 0x20;
    const uint8_t usid[16] = {0xfc, 0xbb, 0xbb, 0x00, 0x01, 0x00, 0x02, 0x00, 0x03};
    ect.replace(24, 16, reinterpret_cast<const char*>(usid), 16);
    std::string longSrh = SrhOfPath(MrcSrhHeader::MAX_SEGMENTS + 1);
    std::string data = Bytes(bth) + Bytes(reth);
    return {plain, outer + srh + inner + udp + sack, ect + longSrh + inner + udp + data};
}

/**
 * A frame as a device receives it: Ethernet header, then by EtherType a PFC frame
 * (read by the PFC port) or an IPv6 packet (the per-hop parser). A frame shorter than
 * its Ethernet header aborts in MrcNetDevice by design (no channel delivers one: every
 * frame on a link was written by a device), so it is not run.
 */
void
Frame(const uint8_t* d, std::size_t n)
{
    if (n < MrcRawHeader::ETHERNET_BYTES)
    {
        return;
    }
    const uint16_t type = static_cast<uint16_t>((d[12] << 8) | d[13]);
    const uint8_t* body = d + MrcRawHeader::ETHERNET_BYTES;
    const std::size_t rest = n - MrcRawHeader::ETHERNET_BYTES;
    if (type == MrcPfcFrame::ETHER_TYPE)
    {
        Ptr<Packet> p = Create<Packet>(body, static_cast<uint32_t>(rest));
        MrcPfcFrame f;
        p->RemoveHeader(f);
        for (uint8_t c = 0; c < MrcPfcFrame::N_CLASSES; ++c)
        {
            f.IsEnabled(c);
            f.GetQuanta(c);
        }
    }
    else if (type == 0x86dd)
    {
        ParsePacket(body, rest);
    }
}

std::vector<std::string>
FrameSeeds()
{
    const std::vector<std::string> eth = EthernetSeeds();
    return {eth[0] + PacketSeeds()[0], eth[1] + PfcSeeds()[0]};
}

} // namespace

const std::vector<Target>&
Targets()
{
    static const std::vector<Target> targets = {
        {"hpcc-topology",
         "HPCC/ConWeave topology file (MrcHpccInput::ParseTopology)",
         HpccTopology,
         NoSeeds},
        {"hpcc-flows", "HPCC/ConWeave flow file (MrcHpccInput::ParseFlows)", HpccFlows, NoSeeds},
        {"htsim-topo", "htsim .topo file and its fat-tree shape", HtsimTopo, NoSeeds},
        {"htsim-cm", "htsim connection matrix and its timed flows", HtsimCm, NoSeeds},
        {"cdf", "flow-size CDF file and sampling", Cdf, NoSeeds},
        {"trace", "communication trace (MrcTraceReader::Read, CheckHosts)", Trace, TraceSeeds},
        {"ethernet", "Ethernet header (MrcRawHeader, Ethernet layout)", Ethernet, EthernetSeeds},
        {"ipv6", "ns-3 Ipv6Header (SRv6 encapsulation)", Ipv6, DefaultSeeds<Ipv6Header>},
        {"udp", "ns-3 UdpHeader", Udp, DefaultSeeds<UdpHeader>},
        {"srh", "Segment Routing Header (MrcSrhHeader::TryDeserialize, Check)", Srh, SrhSeeds},
        {"bth", "InfiniBand BTH", Bth, DefaultSeeds<MrcBthHeader>},
        {"reth", "RETH", Reth, DefaultSeeds<MrcRethHeader>},
        {"aeth", "AETH", Aeth, DefaultSeeds<MrcAethHeader>},
        {"imm-dt", "ImmDt", ImmDt, DefaultSeeds<MrcImmDtHeader>},
        {"cnp", "RoCEv2 CNP body", Cnp, DefaultSeeds<MrcCnpHeader>},
        {"icrc", "ICRC trailer", Icrc, IcrcSeeds},
        {"meth", "MRC METH", Meth, DefaultSeeds<MrcMethHeader>},
        {"tseth", "MRC TSETH", Tseth, DefaultSeeds<MrcTsethHeader>},
        {"seth", "MRC / UEC SETH (SACK)", Seth, DefaultSeeds<MrcSethHeader>},
        {"cc-state", "MRC CC_STATE", CcState, DefaultSeeds<MrcCcStateHeader>},
        {"neth", "MRC NETH (NACK)", Neth, DefaultSeeds<MrcNethHeader>},
        {"peth", "MRC PETH (probe)", Peth, DefaultSeeds<MrcPethHeader>},
        {"eeth", "MRC EETH (endpoint response)", Eeth, DefaultSeeds<MrcEethHeader>},
        {"erth", "MRC ERTH (endpoint request)", Erth, DefaultSeeds<MrcErthHeader>},
        {"pfc", "PFC frame (MrcPfcFrame)", Pfc, PfcSeeds},
        {"packet",
         "per-hop parser MrcParsePacket and the NIC's header reads",
         ParsePacket,
         PacketSeeds},
        {"frame", "a received frame: Ethernet, then PFC or the per-hop parser", Frame, FrameSeeds},
    };
    return targets;
}

const Target*
Find(const std::string& name)
{
    for (const Target& t : Targets())
    {
        if (name == t.name)
        {
            return &t;
        }
    }
    return nullptr;
}

} // namespace MrcFuzz
} // namespace ns3
