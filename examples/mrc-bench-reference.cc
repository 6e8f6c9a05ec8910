/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Reference benchmark built only from stock ns-3 parts: how fast does plain
// ns-3 (PointToPoint links, IPv6 forwarding with static routes, UDP sockets)
// move packets through the topology of the perm128-roce benchmark?
//
// Topology: hosts in groups of --hostsPerT0 under T0 switches, every T0 linked
// to every one of --t1 T1 switches; all links --rate and --linkDelay.
// Traffic: a permutation (every host sends --bytes to a distinct other host,
// drawn with --seed), --payload bytes per UDP datagram, paced at line rate with
// no congestion control, and one small UDP ACK (--ackPayload bytes) back from
// the receiver for every data packet. A flow to host d crosses T1 number
// d mod --t1 (ACKs to host s cross T1 s mod --t1): fixed "ECMP-like" paths with
// the same hop counts as ECMP (host-T0-T1-T0-host across T0s, host-T0-host
// under one T0). Device queues are DropTail with room for every packet, so
// nothing is dropped. Prints one JSON object: packets delivered, packet hops
// (link transmissions, from the device queues' counters), events executed,
// wall time of Simulator::Run, peak RSS and the rates per wall second.

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mrc-command-line.h"
#include "ns3/mrc-scenario-workload.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <sys/resource.h>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("MrcBenchReference");

namespace
{

const uint16_t DATA_PORT = 9;

/// "fd00:0:a:b:c::last" with hex groups (a unique-local prefix: ns-3 refuses to forward
/// 2001:db8::/32, the documentation prefix).
Ipv6Address
Addr(uint32_t a, uint32_t b, uint32_t c, uint32_t last)
{
    std::ostringstream s;
    s << std::hex << "fd00:0:" << a << ":" << b << ":" << c << "::" << last;
    return Ipv6Address(s.str().c_str());
}

/// Per-flow sender: paces fixed-size datagrams at line rate, counts ACKs.
struct Sender
{
    Ptr<Socket> socket;
    uint32_t remaining{0};
    uint32_t payload{0};
    Time interval;
    uint64_t acks{0};
    Time lastAck;

    void Send()
    {
        socket->Send(Create<Packet>(payload));
        if (--remaining > 0)
        {
            Simulator::Schedule(interval, &Sender::Send, this);
        }
    }

    void ReceiveAck(Ptr<Socket> s)
    {
        Address from;
        while (s->RecvFrom(from))
        {
            ++acks;
        }
        lastAck = Simulator::Now();
    }
};

/// Per-host receiver: counts data packets and answers each with an ACK.
struct Receiver
{
    uint32_t ackPayload{0};
    uint64_t packets{0};

    void Receive(Ptr<Socket> s)
    {
        Address from;
        while (s->RecvFrom(from))
        {
            ++packets;
            s->SendTo(Create<Packet>(ackPayload), 0, from);
        }
    }
};

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t hosts = 128;
    uint32_t hostsPerT0 = 16;
    uint32_t t1 = 8;
    uint64_t bytes = 2000000;
    uint32_t payload = 1000;
    uint32_t ackPayload = 14;
    std::string rate = "100Gbps";
    std::string linkDelay = "1us";
    uint32_t seed = 1;

    MrcCommandLine cmd(__FILE__);
    cmd.Usage("Stock ns-3 reference benchmark (PointToPoint + IPv6 static routes + UDP) with "
              "the packet and hop counts of perm128-roce; prints one JSON object.");
    cmd.AddValue("hosts", "number of hosts", hosts);
    cmd.AddValue("hostsPerT0", "hosts under each T0 switch", hostsPerT0);
    cmd.AddValue("t1PerPlane", "number of T1 switches", t1);
    cmd.AddValue("bytes", "bytes each host sends to its permutation partner", bytes);
    cmd.AddValue("payload", "UDP payload bytes per data packet", payload);
    cmd.AddValue("ackPayload", "UDP payload bytes per ACK", ackPayload);
    cmd.AddValue("rate", "rate of every link", rate);
    cmd.AddValue("linkDelay", "propagation delay of every link", linkDelay);
    cmd.AddValue("seed", "seed of the permutation", seed);
    cmd.Parse(argc, argv);
    if (hosts < 2 || hostsPerT0 == 0 || hosts % hostsPerT0 != 0 || t1 == 0 || payload == 0 ||
        bytes == 0)
    {
        MrcCommandLine::Fail("need hosts >= 2, a multiple of hostsPerT0 > 0, t1PerPlane > 0, "
                             "payload > 0 and bytes > 0");
    }
    const uint32_t t0 = hosts / hostsPerT0;
    const DataRate dataRate(rate);

    const auto setupStart = std::chrono::steady_clock::now();
    // No duplicate address detection: addresses are usable at once.
    Config::SetDefault("ns3::Icmpv6L4Protocol::DAD", BooleanValue(false));

    NodeContainer hostNodes;
    NodeContainer t0Nodes;
    NodeContainer t1Nodes;
    hostNodes.Create(hosts);
    t0Nodes.Create(t0);
    t1Nodes.Create(t1);
    InternetStackHelper stack;
    stack.SetIpv4StackInstall(false);
    stack.Install(hostNodes);
    stack.Install(t0Nodes);
    stack.Install(t1Nodes);

    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(dataRate));
    p2p.SetChannelAttribute("Delay", StringValue(linkDelay));
    // Room for every packet of the run: DropTail never drops.
    const uint64_t packetsPerFlow = (bytes + payload - 1) / payload;
    p2p.SetQueue("ns3::DropTailQueue<Packet>",
                 "MaxSize",
                 QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS,
                                          static_cast<uint32_t>(2 * packetsPerFlow * hosts))));

    Ipv6StaticRoutingHelper routingHelper;
    NetDeviceContainer allDevices;

    // Adds one interface with one global address and brings it up; returns its index.
    auto addIf = [](Ptr<Node> node, Ptr<NetDevice> dev, Ipv6Address addr) {
        Ptr<Ipv6> ipv6 = node->GetObject<Ipv6>();
        const uint32_t i = ipv6->AddInterface(dev);
        ipv6->AddAddress(i, Ipv6InterfaceAddress(addr, Ipv6Prefix(80)));
        // Forwarding on before SetUp, also on hosts: an interface that is not
        // forwarding sends router solicitations, which would add packets.
        ipv6->SetForwarding(i, true);
        ipv6->SetUp(i);
        return i;
    };

    // Host h lives in fd00:0:(h mod t1):(T0 index):(h)::/80 — host ::1, T0 ::2.
    // The first group selects the T1 its traffic crosses, so every T0 needs
    // only one /48 route per T1 and every T1 one /64 route per T0.
    std::vector<Ipv6Address> hostAddr(hosts);
    for (uint32_t h = 0; h < hosts; ++h)
    {
        const uint32_t k = h % t1;
        const uint32_t j = h / hostsPerT0;
        NetDeviceContainer d = p2p.Install(hostNodes.Get(h), t0Nodes.Get(j));
        allDevices.Add(d);
        hostAddr[h] = Addr(k, j, h, 1);
        const uint32_t hi = addIf(hostNodes.Get(h), d.Get(0), hostAddr[h]);
        addIf(t0Nodes.Get(j), d.Get(1), Addr(k, j, h, 2));
        routingHelper.GetStaticRouting(hostNodes.Get(h)->GetObject<Ipv6>())
            ->SetDefaultRoute(Addr(k, j, h, 2), hi);
    }
    // T0 j <-> T1 m links in fd00:0:100:(j):(m)::/80 — T0 ::1, T1 ::2.
    for (uint32_t j = 0; j < t0; ++j)
    {
        for (uint32_t m = 0; m < t1; ++m)
        {
            NetDeviceContainer d = p2p.Install(t0Nodes.Get(j), t1Nodes.Get(m));
            allDevices.Add(d);
            const uint32_t up = addIf(t0Nodes.Get(j), d.Get(0), Addr(0x100, j, m, 1));
            const uint32_t down = addIf(t1Nodes.Get(m), d.Get(1), Addr(0x100, j, m, 2));
            routingHelper.GetStaticRouting(t0Nodes.Get(j)->GetObject<Ipv6>())
                ->AddNetworkRouteTo(Addr(m, 0, 0, 0), Ipv6Prefix(48), Addr(0x100, j, m, 2), up);
            routingHelper.GetStaticRouting(t1Nodes.Get(m)->GetObject<Ipv6>())
                ->AddNetworkRouteTo(Addr(m, j, 0, 0), Ipv6Prefix(64), Addr(0x100, j, m, 1), down);
        }
    }
    for (uint32_t n = 0; n < t0; ++n)
    {
        t0Nodes.Get(n)->GetObject<Ipv6>()->SetAttribute("IpForward", BooleanValue(true));
    }
    for (uint32_t n = 0; n < t1; ++n)
    {
        t1Nodes.Get(n)->GetObject<Ipv6>()->SetAttribute("IpForward", BooleanValue(true));
    }

    // Permutation without fixed points, drawn from an ns-3 random stream by the same
    // function as mrc-sim's permutation scenarios, so both run the same flows.
    const std::vector<uint32_t> dst = MrcScenarioWorkload::Derangement(hosts, seed);

    // Wire bytes of a data packet: payload + UDP 8 + IPv6 40 + PPP 2.
    const Time interval = dataRate.CalculateBytesTxTime(payload + 8 + 40 + 2);
    std::vector<Receiver> receivers(hosts);
    std::vector<Sender> senders(hosts);
    uint64_t expectedHops = 0;
    const TypeId udp = UdpSocketFactory::GetTypeId();
    for (uint32_t h = 0; h < hosts; ++h)
    {
        receivers[h].ackPayload = ackPayload;
        Ptr<Socket> rx = Socket::CreateSocket(hostNodes.Get(h), udp);
        rx->Bind(Inet6SocketAddress(Ipv6Address::GetAny(), DATA_PORT));
        rx->SetRecvCallback(MakeCallback(&Receiver::Receive, &receivers[h]));
    }
    for (uint32_t h = 0; h < hosts; ++h)
    {
        Sender& s = senders[h];
        s.socket = Socket::CreateSocket(hostNodes.Get(h), udp);
        s.socket->Bind6();
        s.socket->Connect(Inet6SocketAddress(hostAddr[dst[h]], DATA_PORT));
        s.socket->SetRecvCallback(MakeCallback(&Sender::ReceiveAck, &s));
        s.remaining = static_cast<uint32_t>(packetsPerFlow);
        s.payload = payload;
        s.interval = interval;
        Simulator::Schedule(Seconds(0), &Sender::Send, &s);
        const uint64_t hops = (h / hostsPerT0 == dst[h] / hostsPerT0) ? 2 : 4;
        expectedHops += 2 * packetsPerFlow * hops; // data and ACKs
    }
    const double setupSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - setupStart).count();

    // IPv6 drops (no route, TTL, ...) are counted; none are expected.
    static uint64_t ipDrops = 0;
    Config::ConnectWithoutContext("/NodeList/*/$ns3::Ipv6L3Protocol/Drop",
                                  MakeCallback(+[](const Ipv6Header&,
                                                   Ptr<const Packet>,
                                                   Ipv6L3Protocol::DropReason,
                                                   Ptr<Ipv6>,
                                                   uint32_t) { ++ipDrops; }));
    // CPU time as well as wall time: on a shared machine the CPU time of the
    // run is the steadier measure.
    auto cpuSeconds = []() {
        struct rusage u;
        getrusage(RUSAGE_SELF, &u);
        return u.ru_utime.tv_sec + u.ru_stime.tv_sec +
               (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
    };
    const double cpuStart = cpuSeconds();
    const auto runStart = std::chrono::steady_clock::now();
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    const double runSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - runStart).count();
    const double runCpu = cpuSeconds() - cpuStart;
    const uint64_t events = Simulator::GetEventCount();

    uint64_t delivered = 0;
    uint64_t acks = 0;
    int64_t simNs = 0; // the last ACK's arrival: when the traffic was done
    for (uint32_t h = 0; h < hosts; ++h)
    {
        simNs = std::max(simNs, senders[h].lastAck.GetNanoSeconds());
        delivered += receivers[h].packets;
        acks += senders[h].acks;
    }
    uint64_t hops = 0;
    uint64_t drops = ipDrops;
    for (uint32_t i = 0; i < allDevices.GetN(); ++i)
    {
        Ptr<Queue<Packet>> q = DynamicCast<PointToPointNetDevice>(allDevices.Get(i))->GetQueue();
        hops += q->GetTotalReceivedPackets();
        drops += q->GetTotalDroppedPackets();
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);

    const uint64_t sent = packetsPerFlow * hosts;
    std::printf("{\n"
                "  \"hosts\": %u, \"t0\": %u, \"t1\": %u, \"bytesPerFlow\": %llu, "
                "\"payload\": %u, \"seed\": %u,\n"
                "  \"dataPacketsSent\": %llu, \"dataPacketsDelivered\": %llu, "
                "\"acksDelivered\": %llu, \"drops\": %llu,\n"
                "  \"packetHops\": %llu, \"expectedPacketHops\": %llu,\n"
                "  \"simulatedNs\": %lld, \"eventsExecuted\": %llu,\n"
                "  \"setupWallSeconds\": %.3f, \"runWallSeconds\": %.3f, \"peakRssKb\": %ld,\n"
                "  \"runCpuSeconds\": %.3f,\n"
                "  \"hopsPerWallSecond\": %.0f, \"eventsPerWallSecond\": %.0f,\n"
                "  \"hopsPerCpuSecond\": %.0f, \"eventsPerCpuSecond\": %.0f\n"
                "}\n",
                hosts,
                t0,
                t1,
                static_cast<unsigned long long>(bytes),
                payload,
                seed,
                static_cast<unsigned long long>(sent),
                static_cast<unsigned long long>(delivered),
                static_cast<unsigned long long>(acks),
                static_cast<unsigned long long>(drops),
                static_cast<unsigned long long>(hops),
                static_cast<unsigned long long>(expectedHops),
                static_cast<long long>(simNs),
                static_cast<unsigned long long>(events),
                setupSeconds,
                runSeconds,
                ru.ru_maxrss,
                runCpu,
                hops / runSeconds,
                events / runSeconds,
                hops / runCpu,
                events / runCpu);
    Simulator::Destroy();
    const bool ok = delivered == sent && acks == sent && drops == 0 && hops == expectedHops;
    if (!ok)
    {
        std::cerr << "mrc-bench-reference: not every packet arrived exactly as expected"
                  << std::endl;
    }
    return ok ? 0 : 1;
}
