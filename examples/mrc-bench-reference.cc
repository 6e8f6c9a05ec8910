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
#include "ns3/mrc-time-records.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
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

/// The benchmark's options.
struct BenchOptions
{
    uint32_t hosts = 128;                            //!< number of hosts
    uint32_t hostsPerT0 = 16;                        //!< hosts under each T0
    uint32_t t1 = 8;                                 //!< number of T1 switches
    uint64_t bytes = 2000000;                        //!< bytes per flow
    uint32_t payload = 1000;                         //!< UDP payload per data packet
    uint32_t ackPayload = 14;                        //!< UDP payload per ACK
    std::string rate = "100Gbps";                    //!< rate of every link
    std::string linkDelay = "1us";                   //!< delay of every link
    uint32_t seed = 1;                               //!< seed of the permutation
    std::string scheduler = "ns3::MrcHeapScheduler"; //!< event scheduler, as mrc-sim

    /// \return the number of T0 switches
    uint32_t T0() const
    {
        return hosts / hostsPerT0;
    }

    /// \return data packets per flow
    uint64_t PacketsPerFlow() const
    {
        return (bytes + payload - 1) / payload;
    }
};

/// \param argc argument count \param argv arguments \return the options, checked
BenchOptions
ParseOptions(int argc, char* argv[])
{
    BenchOptions o;
    MrcCommandLine cmd(__FILE__);
    cmd.Usage("Stock ns-3 reference benchmark (PointToPoint + IPv6 static routes + UDP) with "
              "the packet and hop counts of perm128-roce; prints one JSON object.");
    cmd.AddValue("hosts", "number of hosts", o.hosts);
    cmd.AddValue("hostsPerT0", "hosts under each T0 switch", o.hostsPerT0);
    cmd.AddValue("t1PerPlane", "number of T1 switches", o.t1);
    cmd.AddValue("bytes", "bytes each host sends to its permutation partner", o.bytes);
    cmd.AddValue("payload", "UDP payload bytes per data packet", o.payload);
    cmd.AddValue("ackPayload", "UDP payload bytes per ACK", o.ackPayload);
    cmd.AddValue("rate", "rate of every link", o.rate);
    cmd.AddValue("linkDelay", "propagation delay of every link", o.linkDelay);
    cmd.AddValue("seed", "seed of the permutation", o.seed);
    cmd.AddValue("scheduler",
                 "ns-3 event scheduler (TypeId name); default mrc-sim's, so that both run on "
                 "the same one",
                 o.scheduler);
    cmd.Parse(argc, argv);
    TypeId sched;
    if (!TypeId::LookupByNameFailSafe(o.scheduler, &sched) ||
        !sched.IsChildOf(Scheduler::GetTypeId()))
    {
        MrcCommandLine::Fail("--scheduler='" + o.scheduler +
                             "' is not an ns-3 scheduler (allowed: ns3::MrcHeapScheduler, "
                             "ns3::PriorityQueueScheduler, "
                             "ns3::MapScheduler, ns3::HeapScheduler, ns3::CalendarScheduler, "
                             "ns3::ListScheduler)");
    }
    if (o.hosts < 2 || o.hostsPerT0 == 0 || o.hosts % o.hostsPerT0 != 0 || o.t1 == 0 ||
        o.payload == 0 || o.bytes == 0)
    {
        MrcCommandLine::Fail("need hosts >= 2, a multiple of hostsPerT0 > 0, t1PerPlane > 0, "
                             "payload > 0 and bytes > 0");
    }
    return o;
}

/// The two-tier fabric of stock ns-3 nodes, links and static routes.
struct Fabric
{
    NodeContainer hosts;               //!< the hosts
    NodeContainer t0;                  //!< the T0 switches
    NodeContainer t1;                  //!< the T1 switches
    NetDeviceContainer devices;        //!< every link's two devices
    std::vector<Ipv6Address> hostAddr; //!< each host's address
    Ipv6StaticRoutingHelper routing;   //!< gives each node's static routing
    PointToPointHelper p2p;            //!< makes the links

    /// \param o the options: make the nodes and install IPv6 and the link settings
    explicit Fabric(const BenchOptions& o);

    /// Connect host h to its T0 with a default route up (subnet fd00:0:(h mod t1):(T0):(h)).
    void ConnectHost(const BenchOptions& o, uint32_t h);

    /// Connect T0 j to T1 m with the routes of both ends (subnet fd00:0:100:(j):(m)).
    void ConnectT0ToT1(uint32_t j, uint32_t m);
};

/// Add one interface with one global address and bring it up. \return its index
uint32_t
AddInterface(Ptr<Node> node, Ptr<NetDevice> dev, Ipv6Address addr)
{
    Ptr<Ipv6> ipv6 = node->GetObject<Ipv6>();
    const uint32_t i = ipv6->AddInterface(dev);
    ipv6->AddAddress(i, Ipv6InterfaceAddress(addr, Ipv6Prefix(80)));
    // Forwarding on before SetUp, also on hosts: an interface that is not
    // forwarding sends router solicitations, which would add packets.
    ipv6->SetForwarding(i, true);
    ipv6->SetUp(i);
    return i;
}

Fabric::Fabric(const BenchOptions& o)
    : hostAddr(o.hosts)
{
    hosts.Create(o.hosts);
    t0.Create(o.T0());
    t1.Create(o.t1);
    InternetStackHelper stack;
    stack.SetIpv4StackInstall(false);
    stack.Install(hosts);
    stack.Install(t0);
    stack.Install(t1);

    p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(o.rate)));
    p2p.SetChannelAttribute("Delay", StringValue(o.linkDelay));
    // Room for every packet of the run: DropTail never drops.
    p2p.SetQueue(
        "ns3::DropTailQueue<Packet>",
        "MaxSize",
        QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS,
                                 static_cast<uint32_t>(2 * o.PacketsPerFlow() * o.hosts))));
}

void
Fabric::ConnectHost(const BenchOptions& o, uint32_t h)
{
    // Host ::1, T0 ::2. The first group selects the T1 the host's traffic crosses, so
    // every T0 needs only one /48 route per T1 and every T1 one /64 route per T0.
    const uint32_t k = h % o.t1;
    const uint32_t j = h / o.hostsPerT0;
    NetDeviceContainer d = p2p.Install(hosts.Get(h), t0.Get(j));
    devices.Add(d);
    hostAddr[h] = Addr(k, j, h, 1);
    const uint32_t hi = AddInterface(hosts.Get(h), d.Get(0), hostAddr[h]);
    AddInterface(t0.Get(j), d.Get(1), Addr(k, j, h, 2));
    routing.GetStaticRouting(hosts.Get(h)->GetObject<Ipv6>())
        ->SetDefaultRoute(Addr(k, j, h, 2), hi);
}

void
Fabric::ConnectT0ToT1(uint32_t j, uint32_t m)
{
    // T0 ::1, T1 ::2.
    NetDeviceContainer d = p2p.Install(t0.Get(j), t1.Get(m));
    devices.Add(d);
    const uint32_t up = AddInterface(t0.Get(j), d.Get(0), Addr(0x100, j, m, 1));
    const uint32_t down = AddInterface(t1.Get(m), d.Get(1), Addr(0x100, j, m, 2));
    routing.GetStaticRouting(t0.Get(j)->GetObject<Ipv6>())
        ->AddNetworkRouteTo(Addr(m, 0, 0, 0), Ipv6Prefix(48), Addr(0x100, j, m, 2), up);
    routing.GetStaticRouting(t1.Get(m)->GetObject<Ipv6>())
        ->AddNetworkRouteTo(Addr(m, j, 0, 0), Ipv6Prefix(64), Addr(0x100, j, m, 1), down);
}

/// \param o the options \return the fabric, every link up and every route set
std::unique_ptr<Fabric>
BuildFabric(const BenchOptions& o)
{
    auto f = std::make_unique<Fabric>(o);
    for (uint32_t h = 0; h < o.hosts; ++h)
    {
        f->ConnectHost(o, h);
    }
    for (uint32_t j = 0; j < o.T0(); ++j)
    {
        for (uint32_t m = 0; m < o.t1; ++m)
        {
            f->ConnectT0ToT1(j, m);
        }
    }
    for (NodeContainer* c : {&f->t0, &f->t1})
    {
        for (uint32_t n = 0; n < c->GetN(); ++n)
        {
            c->Get(n)->GetObject<Ipv6>()->SetAttribute("IpForward", BooleanValue(true));
        }
    }
    return f;
}

/// The UDP endpoints of the run.
struct Traffic
{
    std::vector<Receiver> receivers; //!< one per host
    std::vector<Sender> senders;     //!< one per host
    uint64_t expectedHops{0};        //!< link transmissions of all data packets and ACKs
};

/**
 * Open a receiver on every host and start every host's flow to its permutation partner.
 * \param o the options \param f the fabric \param dst host -> its partner
 * \param[out] t the endpoints (not moved afterwards: the sockets call into them)
 */
void
StartTraffic(const BenchOptions& o, const Fabric& f, const std::vector<uint32_t>& dst, Traffic& t)
{
    // Wire bytes of a data packet: payload + UDP 8 + IPv6 40 + PPP 2.
    const Time interval = DataRate(o.rate).CalculateBytesTxTime(o.payload + 8 + 40 + 2);
    const uint64_t packetsPerFlow = o.PacketsPerFlow();
    t.receivers.resize(o.hosts);
    t.senders.resize(o.hosts);
    const TypeId udp = UdpSocketFactory::GetTypeId();
    for (uint32_t h = 0; h < o.hosts; ++h)
    {
        t.receivers[h].ackPayload = o.ackPayload;
        Ptr<Socket> rx = Socket::CreateSocket(f.hosts.Get(h), udp);
        rx->Bind(Inet6SocketAddress(Ipv6Address::GetAny(), DATA_PORT));
        rx->SetRecvCallback(MakeCallback(&Receiver::Receive, &t.receivers[h]));
    }
    for (uint32_t h = 0; h < o.hosts; ++h)
    {
        Sender& s = t.senders[h];
        s.socket = Socket::CreateSocket(f.hosts.Get(h), udp);
        s.socket->Bind6();
        s.socket->Connect(Inet6SocketAddress(f.hostAddr[dst[h]], DATA_PORT));
        s.socket->SetRecvCallback(MakeCallback(&Sender::ReceiveAck, &s));
        s.remaining = static_cast<uint32_t>(packetsPerFlow);
        s.payload = o.payload;
        s.interval = interval;
        Simulator::Schedule(Seconds(0), &Sender::Send, &s);
        const uint64_t hops = (h / o.hostsPerT0 == dst[h] / o.hostsPerT0) ? 2 : 4;
        t.expectedHops += 2 * packetsPerFlow * hops; // data and ACKs
    }
}

/// IPv6 drops (no route, TTL, ...) of the run; none are expected.
uint64_t g_ipDrops = 0;

/// Count IPv6 drops on every node.
void
CountIpDrops()
{
    Config::ConnectWithoutContext("/NodeList/*/$ns3::Ipv6L3Protocol/Drop",
                                  MakeCallback(+[](const Ipv6Header&,
                                                   Ptr<const Packet>,
                                                   Ipv6L3Protocol::DropReason,
                                                   Ptr<Ipv6>,
                                                   uint32_t) { ++g_ipDrops; }));
}

/// \return user + system CPU time of the process so far, in seconds
double
CpuSeconds()
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

/// What the run measured.
struct Measured
{
    double setupSeconds{0}; //!< wall time of building the fabric and the traffic
    double runSeconds{0};   //!< wall time of Simulator::Run
    double runCpu{0};       //!< CPU time of Simulator::Run
    uint64_t events{0};     //!< events executed
    uint64_t delivered{0};  //!< data packets the receivers got
    uint64_t acks{0};       //!< ACKs the senders got
    int64_t simNs{0};       //!< the last ACK's arrival: when the traffic was done
    uint64_t hops{0};       //!< packets the device queues took
    uint64_t drops{0};      //!< IPv6 and device-queue drops
    long peakRssKb{0};      //!< peak resident set size
};

/// Run the simulation and time it (CPU time too: on a shared machine the steadier measure).
void
RunAndTime(Measured& m)
{
    const double cpuStart = CpuSeconds();
    const auto runStart = std::chrono::steady_clock::now();
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    m.runSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - runStart).count();
    m.runCpu = CpuSeconds() - cpuStart;
    m.events = Simulator::GetEventCount();
}

/// Add up the endpoints' and the devices' counters into \p m.
void
Count(const Fabric& f, const Traffic& t, Measured& m)
{
    for (std::size_t h = 0; h < t.senders.size(); ++h)
    {
        m.simNs = std::max(m.simNs, t.senders[h].lastAck.GetNanoSeconds());
        m.delivered += t.receivers[h].packets;
        m.acks += t.senders[h].acks;
    }
    m.drops = g_ipDrops;
    for (uint32_t i = 0; i < f.devices.GetN(); ++i)
    {
        Ptr<Queue<Packet>> q = DynamicCast<PointToPointNetDevice>(f.devices.Get(i))->GetQueue();
        m.hops += q->GetTotalReceivedPackets();
        m.drops += q->GetTotalDroppedPackets();
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    m.peakRssKb = ru.ru_maxrss;
}

/// Print the JSON object of the run.
void
PrintJson(const BenchOptions& o, uint64_t sent, uint64_t expectedHops, const Measured& m)
{
    std::printf("{\n"
                "  \"hosts\": %u, \"t0\": %u, \"t1\": %u, \"bytesPerFlow\": %llu, "
                "\"payload\": %u, \"seed\": %u, \"scheduler\": \"%s\",\n"
                "  \"dataPacketsSent\": %llu, \"dataPacketsDelivered\": %llu, "
                "\"acksDelivered\": %llu, \"drops\": %llu,\n"
                "  \"packetHops\": %llu, \"expectedPacketHops\": %llu,\n"
                "  \"simulatedNs\": %lld, \"eventsExecuted\": %llu,\n"
                "  \"setupWallSeconds\": %.3f, \"runWallSeconds\": %.3f, \"peakRssKb\": %ld,\n"
                "  \"runCpuSeconds\": %.3f,\n"
                "  \"hopsPerWallSecond\": %.0f, \"eventsPerWallSecond\": %.0f,\n"
                "  \"hopsPerCpuSecond\": %.0f, \"eventsPerCpuSecond\": %.0f\n"
                "}\n",
                o.hosts,
                o.T0(),
                o.t1,
                static_cast<unsigned long long>(o.bytes),
                o.payload,
                o.seed,
                o.scheduler.c_str(),
                static_cast<unsigned long long>(sent),
                static_cast<unsigned long long>(m.delivered),
                static_cast<unsigned long long>(m.acks),
                static_cast<unsigned long long>(m.drops),
                static_cast<unsigned long long>(m.hops),
                static_cast<unsigned long long>(expectedHops),
                static_cast<long long>(m.simNs),
                static_cast<unsigned long long>(m.events),
                m.setupSeconds,
                m.runSeconds,
                m.peakRssKb,
                m.runCpu,
                m.hops / m.runSeconds,
                m.events / m.runSeconds,
                m.hops / m.runCpu,
                m.events / m.runCpu);
}

} // namespace

int
main(int argc, char* argv[])
{
    const BenchOptions o = ParseOptions(argc, argv);
    GlobalValue::Bind("SchedulerType", StringValue(o.scheduler));
    // and on mrc-sim's simulator core (the same events in the same order as ns-3's default)
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::MrcSimulatorImpl"));
    // as mrc-sim: ns-3 stops recording Time objects before the build (MrcEndTimeRecords)
    MrcEndTimeRecords();

    const auto setupStart = std::chrono::steady_clock::now();
    // No duplicate address detection: addresses are usable at once.
    Config::SetDefault("ns3::Icmpv6L4Protocol::DAD", BooleanValue(false));
    std::unique_ptr<Fabric> fabric = BuildFabric(o);
    // Permutation without fixed points: no host sends to itself.
    const std::vector<uint32_t> dst = MrcScenarioWorkload::Derangement(o.hosts, o.seed);
    Traffic traffic;
    StartTraffic(o, *fabric, dst, traffic);
    Measured m;
    m.setupSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - setupStart).count();

    CountIpDrops();
    RunAndTime(m);
    Count(*fabric, traffic, m);

    const uint64_t sent = o.PacketsPerFlow() * o.hosts;
    PrintJson(o, sent, traffic.expectedHops, m);
    Simulator::Destroy();
    const bool ok =
        m.delivered == sent && m.acks == sent && m.drops == 0 && m.hops == traffic.expectedHops;
    if (!ok)
    {
        std::cerr << "mrc-bench-reference: not every packet arrived exactly as expected"
                  << std::endl;
    }
    return ok ? 0 : 1;
}
