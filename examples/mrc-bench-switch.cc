/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Google Benchmark of the per-packet cost of one switch hop.
//
//   ./ns3-mrc bench [--filter=REGEX]     (or build/examples/mrc-bench-switch)
//
// Micro benchmarks work on 64 prebuilt 4096-byte MRC-like packets (IPv6 + UDP 4791 +
// BTH MRC_WRITE_MIDDLE + METH + RETH + payload), 64 flows to 1024 host routes of
// 4-port ECMP groups: deterministic input, no simulator. EcmpRangeRoute looks up 64
// destinations in the range routes of a T0 (t1:0) or a T1 (t1:1) of a Clos of 1,024 to
// 131,072 hosts (32 hosts per T0). items_per_second counts
// packets: ns per packet = 1e9 / items_per_second (./ns3-mrc bench prints it).

#include "ns3/core-module.h"
#include "ns3/mrc-ecmp-forwarding.h"
#include "ns3/mrc-ecn-marker.h"
#include "ns3/mrc-link-helper.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-opcodes.h"
#include "ns3/mrc-packet-info.h"
#include "ns3/mrc-shared-buffer-mmu.h"
#include "ns3/mrc-switch-helper.h"
#include "ns3/mrc-switch-node.h"
#include "ns3/mrc-traffic-class.h"
#include "ns3/network-module.h"

#include <benchmark/benchmark.h>
#include <cstdint>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint32_t PACKET_BYTES = 4096;
constexpr uint32_t N_PACKETS = 64; // a power of two
constexpr uint32_t N_HOSTS = 1024;
constexpr uint32_t N_UPLINKS = 4;
constexpr uint8_t DATA_CLASS = 3;

/// Host address i: 2001:db8:0:1::<i>.
Ipv6Address
HostAddress(uint32_t i)
{
    uint8_t b[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0};
    b[14] = static_cast<uint8_t>(i >> 8);
    b[15] = static_cast<uint8_t>(i);
    return Ipv6Address(b);
}

/// A 4096-byte MRC write packet of flow i, starting at its IPv6 header.
Ptr<Packet>
MakePacket(uint32_t i)
{
    const uint32_t headers = MRC_IPV6_HEADER_BYTES + MRC_UDP_HEADER_BYTES + MRC_BTH_BYTES + 4 + 16;
    std::vector<uint8_t> h(headers, 0);
    const uint32_t flowLabel = (i * 2654435761u) & 0xfffff;
    const uint8_t tc = static_cast<uint8_t>((26 << 2) | static_cast<uint8_t>(MrcEcn::ECT0));
    h[0] = static_cast<uint8_t>(0x60 | (tc >> 4));
    h[1] = static_cast<uint8_t>(((tc & 0x0f) << 4) | (flowLabel >> 16));
    h[2] = static_cast<uint8_t>(flowLabel >> 8);
    h[3] = static_cast<uint8_t>(flowLabel);
    const uint16_t payload = PACKET_BYTES - MRC_IPV6_HEADER_BYTES;
    h[4] = static_cast<uint8_t>(payload >> 8);
    h[5] = static_cast<uint8_t>(payload);
    h[6] = 17; // UDP
    h[7] = 64; // hop limit
    uint8_t a[16];
    HostAddress(N_HOSTS - 1 - (i * 7) % N_HOSTS).GetBytes(a);
    std::copy(a, a + 16, h.begin() + 8); // source
    HostAddress((i * 13) % N_HOSTS).GetBytes(a);
    std::copy(a, a + 16, h.begin() + 24); // destination
    const uint16_t sport = static_cast<uint16_t>(49152 + i * 37);
    h[40] = static_cast<uint8_t>(sport >> 8);
    h[41] = static_cast<uint8_t>(sport);
    h[42] = static_cast<uint8_t>(MRC_ROCEV2_UDP_PORT >> 8);
    h[43] = static_cast<uint8_t>(MRC_ROCEV2_UDP_PORT & 0xff);
    h[44] = static_cast<uint8_t>(payload >> 8);
    h[45] = static_cast<uint8_t>(payload);
    h[48] = MrcOpcode::MRC_WRITE_MIDDLE; // BTH opcode; METH and RETH follow
    Ptr<Packet> p = Create<Packet>(h.data(), h.size());
    p->AddAtEnd(Create<Packet>(PACKET_BYTES - headers));
    return p;
}

/// The switch parts of one hop, configured once.
struct Parts
{
    std::vector<Ptr<Packet>> packets;
    Ptr<MrcEcmpForwarding> ecmp;
    Ptr<MrcSharedBufferMmu> mmu;
    Ptr<MrcEcnMarker> ecn;

    Parts()
    {
        for (uint32_t i = 0; i < N_PACKETS; ++i)
        {
            packets.push_back(MakePacket(i));
        }
        ecmp = CreateObject<MrcEcmpForwarding>();
        std::vector<uint32_t> uplinks;
        for (uint32_t p = 0; p < N_UPLINKS; ++p)
        {
            uplinks.push_back(1 + p);
        }
        for (uint32_t h = 0; h < N_HOSTS; ++h)
        {
            ecmp->ReplaceRoute(HostAddress(h), 128, uplinks);
        }
        ecmp->ReplaceRoute(Ipv6Address("2001:db8::"), 32, uplinks); // a covering route
        mmu = CreateObject<MrcSharedBufferMmu>();
        mmu->ConfigurePorts(1 + N_UPLINKS);
        ecn = CreateObject<MrcEcnMarker>();
        ecn->SetAttribute("Kmin", UintegerValue(0)); // every packet takes the random draw
        ecn->SetAttribute("Kmax", UintegerValue(1000000000));
        ecn->AssignStreams(1);
    }
};

Parts&
GetParts()
{
    static Parts parts;
    return parts;
}

void
SetPerPacket(benchmark::State& state)
{
    state.SetItemsProcessed(state.iterations());
}

void
BM_Parse(benchmark::State& state)
{
    Parts& parts = GetParts();
    MrcPacketInfo info;
    uint32_t i = 0;
    for (auto _ : state)
    {
        bool ok = MrcParsePacket(parts.packets[i++ & (N_PACKETS - 1)], info);
        benchmark::DoNotOptimize(ok);
        benchmark::DoNotOptimize(info.headerBytes);
    }
    SetPerPacket(state);
}

void
BM_EcmpRoute(benchmark::State& state)
{
    Parts& parts = GetParts();
    std::vector<MrcPacketInfo> infos(N_PACKETS);
    for (uint32_t i = 0; i < N_PACKETS; ++i)
    {
        MrcParsePacket(parts.packets[i], infos[i]);
    }
    uint32_t i = 0;
    for (auto _ : state)
    {
        int32_t port = parts.ecmp->Route(infos[i++ & (N_PACKETS - 1)], 0);
        benchmark::DoNotOptimize(port);
    }
    SetPerPacket(state);
}

void
BM_MmuAdmitRelease(benchmark::State& state)
{
    Parts& parts = GetParts();
    uint32_t i = 0;
    for (auto _ : state)
    {
        uint32_t out = 1 + (i++ & (N_UPLINKS - 1));
        auto d = parts.mmu->Admit(0, DATA_CLASS, out, DATA_CLASS, PACKET_BYTES);
        benchmark::DoNotOptimize(d);
        parts.mmu->Release(0, DATA_CLASS, out, DATA_CLASS, PACKET_BYTES);
    }
    SetPerPacket(state);
}

void
BM_EcnDecision(benchmark::State& state)
{
    Parts& parts = GetParts();
    uint64_t q = 0;
    for (auto _ : state)
    {
        q = (q + 4096) & 0xfffff;
        bool mark = parts.ecn->IsActiveOn(false) && parts.ecn->ShouldMark(q);
        benchmark::DoNotOptimize(mark);
    }
    SetPerPacket(state);
}

/// (a) parse + ECMP route + MMU admit/release + ECN decision: the switch's per-packet logic.
void
BM_SwitchPipeline(benchmark::State& state)
{
    Parts& parts = GetParts();
    MrcPacketInfo info;
    uint32_t i = 0;
    uint64_t marks = 0;
    for (auto _ : state)
    {
        Ptr<Packet> p = parts.packets[i++ & (N_PACKETS - 1)];
        MrcParsePacket(p, info);
        int32_t out = parts.ecmp->Route(info, 0);
        auto d = parts.mmu->Admit(0, DATA_CLASS, out, DATA_CLASS, info.packetBytes);
        if (d == MrcSharedBufferMmu::ADMIT)
        {
            uint64_t q = parts.mmu->GetEgressBytes(out, DATA_CLASS);
            marks += parts.ecn->IsActiveOn(false) && parts.ecn->ShouldMark(q);
            parts.mmu->Release(0, DATA_CLASS, out, DATA_CLASS, info.packetBytes);
        }
    }
    benchmark::DoNotOptimize(marks);
    SetPerPacket(state);
}

/// Plane-0 address of host h in a Clos of mrc-sim (fd00:0:0:1::/64, interface id h + 1).
Ipv6Address
ClosAddress(uint64_t h)
{
    uint8_t b[16] = {0xfd, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 8; ++i)
    {
        b[15 - i] = static_cast<uint8_t>((h + 1) >> (8 * i));
    }
    return Ipv6Address(b);
}

constexpr uint32_t HOSTS_PER_T0 = 32;
constexpr uint32_t T1_PER_PLANE = 16;

/**
 * The range routes the route manager gives a switch of a Clos of state.range(0) hosts
 * (32 hosts per T0, 16 T1 per plane), plane 0: a T1 (state.range(1) == 1) holds one run
 * of 32 hosts per T0, each on its port to that T0; a T0 in the middle of the fabric
 * (state.range(1) == 0) one run per own host on its port, and the hosts before and after
 * its block on its 16 uplinks. 64 packets to destinations spread over the fabric.
 */
Ptr<MrcEcmpForwarding>
ClosRangeTable(uint64_t hosts, bool t1, std::vector<MrcPacketInfo>& infos)
{
    Ptr<MrcEcmpForwarding> f = CreateObject<MrcEcmpForwarding>();
    std::vector<std::vector<uint32_t>> groups;
    std::vector<MrcEcmpForwarding::RangeRoute> runs;
    const uint64_t t0s = hosts / HOSTS_PER_T0;
    if (t1)
    {
        for (uint64_t t = 0; t < t0s; ++t)
        {
            groups.push_back({static_cast<uint32_t>(t)});
            runs.push_back({ClosAddress(t * HOSTS_PER_T0), HOSTS_PER_T0, static_cast<uint32_t>(t)});
        }
    }
    else
    {
        const uint64_t first = (t0s / 2) * HOSTS_PER_T0;
        std::vector<uint32_t> up;
        for (uint32_t p = 0; p < T1_PER_PLANE; ++p)
        {
            up.push_back(HOSTS_PER_T0 + p);
        }
        groups.push_back(up);
        runs.push_back({ClosAddress(0), first, 0});
        for (uint32_t h = 0; h < HOSTS_PER_T0; ++h)
        {
            groups.push_back({h});
            runs.push_back({ClosAddress(first + h), 1, h + 1});
        }
        runs.push_back({ClosAddress(first + HOSTS_PER_T0), hosts - first - HOSTS_PER_T0, 0});
    }
    f->SetRangeRoutes(groups, runs);
    infos.assign(N_PACKETS, MrcPacketInfo());
    for (uint32_t i = 0; i < N_PACKETS; ++i)
    {
        infos[i].src = ClosAddress((i * 40503u) % hosts);
        infos[i].dst = ClosAddress((i * 2654435761u) % hosts);
        infos[i].udpSrcPort = static_cast<uint16_t>(49152 + i * 37);
        infos[i].udpDstPort = MRC_ROCEV2_UDP_PORT;
    }
    return f;
}

/// ECMP with the range routes of a Clos switch (ClosRangeTable): the lookup against fabric size.
void
BM_EcmpRangeRoute(benchmark::State& state)
{
    std::vector<MrcPacketInfo> infos;
    Ptr<MrcEcmpForwarding> f =
        ClosRangeTable(static_cast<uint64_t>(state.range(0)), state.range(1) == 1, infos);
    uint32_t i = 0;
    for (auto _ : state)
    {
        int32_t port = f->Route(infos[i++ & (N_PACKETS - 1)], 0);
        benchmark::DoNotOptimize(port);
    }
    SetPerPacket(state);
}

/// A host device -> switch -> host device, built once (the simulator is reused).
struct Hop
{
    Ptr<MrcNetDevice> src;
    uint64_t received{0};

    static void Receive(Hop* h, Ptr<MrcNetDevice>, Ptr<Packet>, uint16_t, uint8_t)
    {
        ++h->received;
    }

    Hop()
    {
        MrcSwitchHelper sh;
        sh.SetForwarding("ns3::MrcEcmpForwarding");
        MrcLinkHelper link;
        link.SetDeviceAttribute("DataRate", DataRateValue(DataRate("400Gbps")));
        link.SetChannelAttribute("Delay", TimeValue(NanoSeconds(500)));
        Ptr<MrcSwitchNode> sw = sh.CreateSwitch();
        Ptr<Node> a = CreateObject<Node>();
        Ptr<Node> b = CreateObject<Node>();
        uint32_t pa = MrcSwitchHelper::ConnectHost(link, sw, a);
        uint32_t pb = MrcSwitchHelper::ConnectHost(link, sw, b);
        Ptr<MrcEcmpForwarding> fwd = DynamicCast<MrcEcmpForwarding>(sw->GetForwarding());
        for (uint32_t h = 0; h < N_HOSTS; ++h)
        {
            fwd->ReplaceRoute(HostAddress(h), 128, {pb});
        }
        src = sw->GetPort(pa)->GetPeer();
        sw->GetPort(pb)->GetPeer()->SetClassReceiveCallback(MakeBoundCallback(&Hop::Receive, this));
    }
};

/**
 * (b) One simulated hop: a batch of 64 packets is queued on the sending host's device
 * and the simulator runs until the receiving host has them all (host TX, wire, switch
 * pipeline and egress queue, wire, host RX: ns-3 events included). One item = one packet.
 */
void
BM_SimulatedHop(benchmark::State& state)
{
    Parts& parts = GetParts();
    static Hop hop;
    const uint8_t cls = hop.src->ClassifyDscp(26);
    for (auto _ : state)
    {
        for (uint32_t i = 0; i < N_PACKETS; ++i)
        {
            hop.src->SendToClass(parts.packets[i]->Copy(), MrcNetDevice::ETHER_TYPE_IPV6, cls);
        }
        Simulator::Run();
    }
    state.SetItemsProcessed(state.iterations() * N_PACKETS);
    if (hop.received != static_cast<uint64_t>(state.iterations()) * N_PACKETS)
    {
        state.SkipWithError("packets were lost in the simulated hop");
    }
    hop.received = 0;
}

BENCHMARK(BM_Parse);
BENCHMARK(BM_EcmpRoute);
BENCHMARK(BM_EcmpRangeRoute)
    ->ArgNames({"hosts", "t1"})
    ->ArgsProduct({{1024, 4096, 16384, 131072}, {0, 1}});
BENCHMARK(BM_MmuAdmitRelease);
BENCHMARK(BM_EcnDecision);
BENCHMARK(BM_SwitchPipeline);
BENCHMARK(BM_SimulatedHop);

} // namespace

BENCHMARK_MAIN();
