/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the switch node: MrcSwitchNode, MrcSwitchHelper, MrcRawSource/MrcRawSink.
// Small topologies, short simulated times; every check is an exact count or an
// invariant (bytes sent = bytes received + bytes dropped, paths, DSCPs, order).

#include "mrc-test-support.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/mrc-channel.h"
#include "ns3/mrc-ecmp-forwarding.h"
#include "ns3/mrc-link-helper.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-opcodes.h"
#include "ns3/mrc-raw-traffic.h"
#include "ns3/mrc-srv6-forwarding.h"
#include "ns3/mrc-switch-helper.h"
#include "ns3/mrc-switch-node.h"
#include "ns3/mrc-traffic-class.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <iostream>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using MrcTest::HostAddress;

/// A link helper at 100 Gb/s with 1 us of delay.
MrcLinkHelper
Link100G()
{
    MrcLinkHelper link;
    link.SetDeviceAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
    link.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    return link;
}

/// Install a raw source on a host.
Ptr<MrcRawSource>
AddSource(Ptr<Node> host,
          Ipv6Address local,
          Ipv6Address remote,
          uint64_t bytes,
          uint8_t dscp,
          uint16_t srcPort,
          DataRate rate = DataRate("100Gbps"))
{
    Ptr<MrcRawSource> s = CreateObject<MrcRawSource>();
    s->SetAttribute("Local", Ipv6AddressValue(local));
    s->SetAttribute("Remote", Ipv6AddressValue(remote));
    s->SetAttribute("MaxBytes", UintegerValue(bytes));
    s->SetAttribute("Dscp", UintegerValue(dscp));
    s->SetAttribute("UdpSourcePort", UintegerValue(srcPort));
    s->SetAttribute("DataRate", DataRateValue(rate));
    host->AddApplication(s);
    s->SetStartTime(Seconds(0));
    return s;
}

/// Install a raw sink on a host.
Ptr<MrcRawSink>
AddSink(Ptr<Node> host)
{
    Ptr<MrcRawSink> s = CreateObject<MrcRawSink>();
    host->AddApplication(s);
    s->SetStartTime(Seconds(0));
    return s;
}

/// N senders and one receiver (host N) on one switch.
struct Star
{
    Ptr<MrcSwitchNode> sw;
    std::vector<Ptr<Node>> hosts;
    std::vector<uint32_t> ports; ///< switch port of host i
    std::vector<Ptr<MrcRawSource>> sources;
    Ptr<MrcRawSink> sink;

    Star(MrcSwitchHelper& sh, uint32_t nSenders)
    {
        MrcLinkHelper link = Link100G();
        sw = sh.CreateSwitch();
        Ptr<MrcEcmpForwarding> fwd = DynamicCast<MrcEcmpForwarding>(sw->GetForwarding());
        for (uint32_t i = 0; i <= nSenders; ++i)
        {
            hosts.push_back(CreateObject<Node>());
            ports.push_back(MrcSwitchHelper::ConnectHost(link, sw, hosts.back()));
            fwd->AddRoute(HostAddress(i), 128, ports.back());
        }
    }

    Ptr<MrcNetDevice> HostDev(uint32_t i) const
    {
        return sw->GetPort(ports[i])->GetPeer();
    }
};

/// Bytes reserved by an MMU for n ports (reserve of 8 classes) plus lossless headroom.
uint64_t
FixedBytes(uint32_t nPorts, uint64_t reserve, bool headroom)
{
    uint64_t h = MrcSharedBufferMmu::ComputeHeadroom(DataRate("100Gbps"), MicroSeconds(1)) +
                 2 * (9000 + 14 + 24);
    return uint64_t(nPorts) * (8 * reserve + (headroom ? h : 0));
}

void
RunIncastPfc(uint32_t n, uint64_t bytesPerSender)
{
    const uint8_t dscp = MrcDscp::ROCE_DATA; // class 3 in the default DSCP map
    MrcSwitchHelper sh;
    sh.SetSwitchAttribute("EcnEnabled", BooleanValue(false));
    sh.SetMmuAttribute("PfcPriorityMask", UintegerValue(1u << 3));
    sh.SetMmuAttribute("BufferSize", UintegerValue(FixedBytes(n + 1, 4096, true) + 200000));
    Star star(sh, n);
    for (uint32_t i = 0; i < n; ++i)
    {
        star.sources.push_back(AddSource(star.hosts[i],
                                         HostAddress(i),
                                         HostAddress(n),
                                         bytesPerSender,
                                         dscp,
                                         1000 + i));
    }
    star.sink = AddSink(star.hosts[n]);
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();

    uint64_t sentBytes = 0;
    uint64_t pfcRx = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        EXPECT_TRUE(star.sources[i]->IsDone());
        EXPECT_EQ(star.sources[i]->GetSentPayloadBytes(), bytesPerSender);
        sentBytes += star.sources[i]->GetSentBytes();
        pfcRx += star.HostDev(i)->GetPfcRxFrames();
        EXPECT_EQ(star.sink->GetStats(HostAddress(i)).payloadBytes, bytesPerSender) << i;
    }
    EXPECT_EQ(star.sink->GetTotal().payloadBytes, n * bytesPerSender);
    EXPECT_EQ(star.sink->GetTotal().bytes, sentBytes);
    EXPECT_EQ(star.sw->GetTotalDropPackets(), 0u);
    EXPECT_GT(star.sw->GetPausesSent(), 0u);
    EXPECT_GT(pfcRx, 0u);
    EXPECT_GE(pfcRx, star.sw->GetPausesSent());        // every PAUSE arrived (RESUMEs counted too)
    EXPECT_EQ(star.sw->GetMmu()->GetTotalBytes(), 0u); // everything released
    EXPECT_EQ(star.sw->GetRxPackets(), star.sw->GetTxPackets());
    Simulator::Destroy();
}

} // namespace

TEST(MrcSwitchNode, ForwardsAndCountsNoRoute)
{
    MrcSwitchHelper sh;
    Star star(sh, 1);
    EXPECT_EQ(star.sw->GetNPorts(), 2u);
    EXPECT_EQ(star.sw->GetPortIndex(star.sw->GetPort(1)), 1);
    EXPECT_TRUE(star.sw->IsHostFacing(0));
    EXPECT_EQ(star.sw->GetForwarding()->GetInstanceTypeId(), MrcEcmpForwarding::GetTypeId());
    star.sources.push_back(
        AddSource(star.hosts[0], HostAddress(0), HostAddress(1), 10 * 1024, 4, 7));
    // fd00::99 has no route
    star.sources.push_back(
        AddSource(star.hosts[1], HostAddress(1), HostAddress(0x98), 3 * 1024, 4, 8));
    star.sink = AddSink(star.hosts[1]);
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    EXPECT_EQ(star.sink->GetTotal().packets, 10u);
    EXPECT_EQ(star.sink->GetTotal().payloadBytes, 10u * 1024);
    EXPECT_EQ(star.sink->GetTotal().bytes, 10u * (1024 + MrcRawSource::HEADER_BYTES));
    EXPECT_EQ(star.sw->GetDropPackets(MrcSwitchDropReason::NO_ROUTE), 3u);
    EXPECT_EQ(star.sw->GetDropPackets(star.ports[1], MrcSwitchDropReason::NO_ROUTE), 3u);
    EXPECT_EQ(star.sw->GetForwarding()->GetNoRouteCount(), 3u);
    EXPECT_EQ(star.sw->GetRxPackets(), 13u);
    EXPECT_EQ(star.sw->GetTxPackets(), 10u);
    EXPECT_EQ(star.sw->GetTxPackets(star.ports[1]), 10u);
    EXPECT_EQ(star.sw->GetMmu()->GetTotalBytes(), 0u);
    Simulator::Destroy();
}

TEST(MrcSwitchNodeDeathTest, AFrameQueuedWithoutItsRecordAbortsAtDequeue)
{
    // A switch's buffer record travels as the frame's tag in its egress queue slot; a
    // frame someone else queues on a switch port has none, and its dequeue says so
    // instead of releasing buffer the switch never admitted.
    EXPECT_DEATH(
        {
            MrcSwitchHelper sh;
            Star star(sh, 1);
            star.sw->GetPort(star.ports[1])->SendToClass(Create<Packet>(100), 0x86dd, 3);
            Simulator::Run();
        },
        "port 1 class 3 dequeued a frame it did not enqueue");
    Simulator::Destroy();
}

TEST(MrcSwitchNode, PfcIncast2)
{
    RunIncastPfc(2, 500000);
}

TEST(MrcSwitchNode, PfcIncast8)
{
    RunIncastPfc(8, 300000);
}

TEST(MrcSwitchNode, PfcIncast32)
{
    RunIncastPfc(32, 200000);
}

TEST(MrcSwitchNode, NoPfcSmallBufferDropsExactly)
{
    const uint32_t n = 8;
    MrcSwitchHelper sh;
    sh.SetSwitchAttribute("EcnEnabled", BooleanValue(false));
    sh.SetMmuAttribute("BufferSize", UintegerValue(FixedBytes(n + 1, 4096, false) + 100000));
    Star star(sh, n);
    for (uint32_t i = 0; i < n; ++i)
    {
        star.sources.push_back(AddSource(star.hosts[i],
                                         HostAddress(i),
                                         HostAddress(n),
                                         200000,
                                         MrcDscp::ROCE_DATA,
                                         1000 + i));
    }
    star.sink = AddSink(star.hosts[n]);
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    uint64_t sentBytes = 0;
    uint64_t sentPackets = 0;
    for (const auto& s : star.sources)
    {
        sentBytes += s->GetSentBytes();
        sentPackets += s->GetSentPackets();
    }
    const uint64_t dropped = star.sw->GetDropBytes(MrcSwitchDropReason::MMU_SHARED_FULL) +
                             star.sw->GetDropBytes(MrcSwitchDropReason::MMU_EGRESS_LIMIT);
    EXPECT_GT(dropped, 0u);
    EXPECT_EQ(dropped, sentBytes - star.sink->GetTotal().bytes);
    EXPECT_EQ(star.sw->GetTotalDropPackets(), sentPackets - star.sink->GetTotal().packets);
    EXPECT_EQ(star.sw->GetPausesSent(), 0u);
    EXPECT_EQ(star.sw->GetMmu()->GetTotalBytes(), 0u);
    Simulator::Destroy();
}

namespace
{

/// Run 2 (or more) senders into one receiver with the given DSCP and switch settings;
/// returns the star after the run (caller destroys the simulator).
struct EcnRun
{
    uint64_t marked{0};
    uint64_t ce{0};
    uint64_t received{0};
    uint64_t sent{0};
};

EcnRun
RunEcn(bool noEcnToHost, uint8_t dscp, bool ecnCapable)
{
    MrcSwitchHelper sh;
    sh.SetSwitchAttribute("NoEcnToHost", BooleanValue(noEcnToHost));
    sh.SetEcnAttribute("Kmin", UintegerValue(10000));
    sh.SetEcnAttribute("Kmax", UintegerValue(40000));
    sh.SetEcnAttribute("Pmax", DoubleValue(1.0));
    Star star(sh, 2);
    for (uint32_t i = 0; i < 2; ++i)
    {
        Ptr<MrcRawSource> s =
            AddSource(star.hosts[i], HostAddress(i), HostAddress(2), 300000, dscp, 1000 + i);
        s->SetAttribute("EcnCapable", BooleanValue(ecnCapable));
        star.sources.push_back(s);
    }
    star.sink = AddSink(star.hosts[2]);
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    EcnRun r;
    r.marked = star.sw->GetMarkedPackets();
    r.ce = star.sink->GetTotal().ceMarked;
    r.received = star.sink->GetTotal().packets;
    r.sent = star.sources[0]->GetSentPackets() + star.sources[1]->GetSentPackets();
    EXPECT_EQ(star.sw->GetMarkedPackets(star.ports[2]), r.marked);
    EXPECT_EQ(star.sw->GetTotalDropPackets(), 0u);
    Simulator::Destroy();
    return r;
}

/// A uSID carrier in fcbb:bb00::/32 with up to six uSIDs.
Ipv6Address
Carrier(const std::vector<uint16_t>& usids)
{
    uint8_t b[16] = {0xfc, 0xbb, 0xbb, 0x00};
    for (std::size_t i = 0; i < usids.size(); ++i)
    {
        b[4 + 2 * i] = static_cast<uint8_t>(usids[i] >> 8);
        b[5 + 2 * i] = static_cast<uint8_t>(usids[i]);
    }
    return Ipv6Address(b);
}

/// Give a switch built with MrcSrv6Forwarding its own uSID.
/// \return its forwarding table
Ptr<MrcSrv6Forwarding>
Srv6Usid(Ptr<MrcSwitchNode> n, uint16_t usid)
{
    Ptr<MrcSrv6Forwarding> f = DynamicCast<MrcSrv6Forwarding>(n->GetForwarding());
    f->SetAttribute("Usid", UintegerValue(usid));
    return f;
}

/// One forwarding step seen on a Forward trace.
struct Hop
{
    uint32_t sw;
    uint32_t in;
    uint32_t out;
    int64_t ns;
};

void
RecordHops(Ptr<MrcSwitchNode> sw, std::vector<Hop>& hops)
{
    uint32_t id = sw->GetId();
    sw->TraceConnectWithoutContext(
        "Forward",
        Callback<void, Ptr<const Packet>, uint32_t, uint32_t, uint8_t>(
            [&hops, id](Ptr<const Packet>, uint32_t in, uint32_t out, uint8_t) {
                hops.push_back({id, in, out, Simulator::Now().GetNanoSeconds()});
            }));
}

} // namespace

TEST(MrcSwitchNode, EcnMarksCongestedEgress)
{
    EcnRun on = RunEcn(false, MrcDscp::TRIMMABLE, true);
    EXPECT_EQ(on.received, on.sent);
    EXPECT_GT(on.marked, 0u);
    EXPECT_LT(on.marked, on.sent); // the queue starts empty: the first packets are not marked
    EXPECT_EQ(on.ce, on.marked);
    // The same run with NoEcnToHost: the only congested port faces a host.
    EcnRun noHost = RunEcn(true, MrcDscp::TRIMMABLE, true);
    EXPECT_EQ(noHost.received, noHost.sent);
    EXPECT_EQ(noHost.marked, 0u);
    EXPECT_EQ(noHost.ce, 0u);
    // Control class (DSCP 46 -> class 7) is never marked, nor is Not-ECT traffic.
    EcnRun control = RunEcn(false, MrcDscp::CONTROL, true);
    EXPECT_EQ(control.received, control.sent);
    EXPECT_EQ(control.marked, 0u);
    EXPECT_EQ(control.ce, 0u);
    EcnRun notEct = RunEcn(false, MrcDscp::TRIMMABLE, false);
    EXPECT_EQ(notEct.marked, 0u);
    EXPECT_EQ(notEct.ce, 0u);
}

TEST(MrcSwitchNode, TrimmingLastHopJumpsTheQueueAndParses)
{
    const uint32_t n = 4;
    MrcSwitchHelper sh;
    sh.SetSwitchAttribute("TrimmingEnabled", BooleanValue(true));
    sh.SetSwitchAttribute("EcnEnabled", BooleanValue(false));
    sh.SetTrimmerAttribute("TrimThreshold", UintegerValue(20000));
    Star star(sh, n);
    for (uint32_t i = 0; i < n; ++i)
    {
        star.sources.push_back(AddSource(star.hosts[i],
                                         HostAddress(i),
                                         HostAddress(n),
                                         200000,
                                         MrcDscp::TRIMMABLE,
                                         1000 + i));
    }
    star.sink = AddSink(star.hosts[n]);
    // Arrival order per source: (psn, trimmed).
    std::map<Ipv6Address, std::vector<std::pair<uint32_t, bool>>> order;
    uint64_t badTrimmed = 0;
    star.sink->TraceConnectWithoutContext(
        "Rx",
        Callback<void, Ptr<const Packet>, const MrcPacketInfo&>(
            [&](Ptr<const Packet> p, const MrcPacketInfo& info) {
                bool trimmed = info.GetDscp() == MrcDscp::TRIMMED_LASTHOP;
                if (trimmed &&
                    !(info.hasBth && info.opcode == MrcOpcode::RC_WRITE_ONLY &&
                      info.headerBytes == MrcRawSource::HEADER_BYTES && p->GetSize() == 256 &&
                      info.payloadLength == 256 - 40 && info.GetEcn() == MrcEcn::ECT0))
                {
                    ++badTrimmed;
                }
                order[info.src.ToAddress()].emplace_back(MrcRawSink::ReadPsn(p, info), trimmed);
            }));
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    uint64_t sent = 0;
    for (const auto& s : star.sources)
    {
        sent += s->GetSentPackets();
    }
    const MrcRawSink::Stats total = star.sink->GetTotal();
    EXPECT_GT(star.sw->GetTrimmedPackets(), 0u);
    EXPECT_EQ(star.sw->GetTotalDropPackets(), 0u);
    EXPECT_EQ(total.packets, sent); // every packet arrives, whole or trimmed
    EXPECT_EQ(total.trimmed, star.sw->GetTrimmedPackets());
    EXPECT_EQ(total.trimmedLastHop, total.trimmed); // the trimming port faces the host
    EXPECT_EQ(star.sw->GetTrimmer()->GetLastHopTrimCount(), total.trimmed);
    EXPECT_EQ(star.sink->GetBadPackets(), 0u);
    EXPECT_EQ(badTrimmed, 0u);
    // A trimmed header overtakes every full packet of its flow sent after it.
    uint64_t overtakes = 0;
    for (const auto& [src, seq] : order)
    {
        for (std::size_t i = 0; i < seq.size(); ++i)
        {
            if (!seq[i].second)
            {
                continue;
            }
            for (std::size_t j = 0; j < i; ++j)
            {
                EXPECT_FALSE(!seq[j].second && seq[j].first > seq[i].first)
                    << "full psn " << seq[j].first << " before trimmed psn " << seq[i].first;
            }
            // and at least one full packet with a smaller PSN is still behind it
            for (std::size_t j = i + 1; j < seq.size(); ++j)
            {
                if (!seq[j].second && seq[j].first < seq[i].first)
                {
                    ++overtakes;
                    break;
                }
            }
        }
    }
    EXPECT_GT(overtakes, 0u);
    Simulator::Destroy();
}

namespace
{

/// What a 4 -> 1 raw incast on one switch gave under one MrcTrimmer::TrimVictim.
struct VictimRun
{
    uint64_t trims{0};         //!< the switch's trim count
    uint64_t queuedVictims{0}; //!< trims of the packet queued last on that port
    uint64_t sentPackets{0};   //!< packets the sources sent
    uint64_t sentPayload{0};   //!< their payload bytes
    MrcRawSink::Stats total;   //!< what the sink received
    uint64_t duplicates{0};    //!< (source, PSN) received more than once
    uint64_t missing{0};       //!< (source, PSN) sent but never received
    uint64_t drops{0};         //!< switch drops
    uint64_t mmuBytesLeft{0};  //!< MMU bytes still held after the run
    std::vector<std::pair<uint32_t, uint32_t>> trimmed; //!< (source, PSN) trimmed, in order
};

/**
 * 4 senders x 200 packets of 1,024 B at 100 Gb/s into one 100 Gb/s port, trimmed at
 * 20,000 B with the given victim rule.
 * \param victim TrimVictim value
 * \param stream the trimmer's stream (AssignStreams), -1 for none
 */
VictimRun
RunTrimVictim(const std::string& victim, int64_t stream)
{
    const uint32_t n = 4;
    const uint32_t packets = 200;
    MrcSwitchHelper sh;
    sh.SetSwitchAttribute("TrimmingEnabled", BooleanValue(true));
    sh.SetSwitchAttribute("EcnEnabled", BooleanValue(false));
    sh.SetTrimmerAttribute("TrimThreshold", UintegerValue(20000));
    sh.SetTrimmerAttribute("TrimVictim", StringValue(victim));
    Star star(sh, n);
    if (stream >= 0)
    {
        star.sw->GetTrimmer()->AssignStreams(stream);
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        star.sources.push_back(AddSource(star.hosts[i],
                                         HostAddress(i),
                                         HostAddress(n),
                                         packets * 1024,
                                         MrcDscp::TRIMMABLE,
                                         1000 + i));
    }
    star.sink = AddSink(star.hosts[n]);
    VictimRun r;
    // The packet queued last on each egress port (data classes): a LastQueued trim takes
    // it, an Arriving trim never does (the arrival is not queued yet).
    std::map<uint32_t, uint64_t> lastQueued;
    const uint8_t control = 7;
    star.sw->TraceConnectWithoutContext(
        "Forward",
        Callback<void, Ptr<const Packet>, uint32_t, uint32_t, uint8_t>(
            [&](Ptr<const Packet> p, uint32_t, uint32_t out, uint8_t cls) {
                if (cls != control)
                {
                    lastQueued[out] = p->GetUid();
                }
            }));
    star.sw->TraceConnectWithoutContext(
        "Trim",
        Callback<void, Ptr<const Packet>, Ptr<const Packet>, uint32_t>(
            [&](Ptr<const Packet> original, Ptr<const Packet>, uint32_t out) {
                auto it = lastQueued.find(out);
                if (it != lastQueued.end() && it->second == original->GetUid())
                {
                    ++r.queuedVictims;
                }
            }));
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> seen;
    star.sink->TraceConnectWithoutContext("Rx",
                                          Callback<void, Ptr<const Packet>, const MrcPacketInfo&>(
                                              [&](Ptr<const Packet> p, const MrcPacketInfo& info) {
                                                  uint32_t src = n;
                                                  for (uint32_t i = 0; i < n; ++i)
                                                  {
                                                      src = info.src == HostAddress(i) ? i : src;
                                                  }
                                                  const uint32_t psn = MrcRawSink::ReadPsn(p, info);
                                                  ++seen[{src, psn}];
                                                  if (info.GetDscp() == MrcDscp::TRIMMED_LASTHOP)
                                                  {
                                                      r.trimmed.emplace_back(src, psn);
                                                  }
                                              }));
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    for (uint32_t i = 0; i < n; ++i)
    {
        EXPECT_TRUE(star.sources[i]->IsDone());
        r.sentPackets += star.sources[i]->GetSentPackets();
        r.sentPayload += star.sources[i]->GetSentPayloadBytes();
        for (uint32_t psn = 0; psn < star.sources[i]->GetSentPackets(); ++psn)
        {
            auto it = seen.find({i, psn});
            r.missing += it == seen.end() ? 1 : 0;
            r.duplicates += it != seen.end() && it->second > 1 ? 1 : 0;
        }
    }
    r.total = star.sink->GetTotal();
    r.trims = star.sw->GetTrimmedPackets();
    r.drops = star.sw->GetTotalDropPackets();
    r.mmuBytesLeft = star.sw->GetMmu()->GetTotalBytes();
    EXPECT_EQ(star.sw->GetRxPackets(), star.sw->GetTxPackets()) << victim;
    EXPECT_EQ(star.sink->GetBadPackets(), 0u) << victim;
    Simulator::Destroy();
    return r;
}

} // namespace

TEST(MrcSwitchNode, TrimVictimChoicesTrimAsManyAndDeliverEveryPacketOnce)
{
    const VictimRun arriving = RunTrimVictim("Arriving", -1);
    const VictimRun last = RunTrimVictim("LastQueued", -1);
    const VictimRun random = RunTrimVictim("RandomOfTwo", 11);
    const VictimRun again = RunTrimVictim("RandomOfTwo", 11);
    const VictimRun other = RunTrimVictim("RandomOfTwo", 12);
    std::cout << "[ switch   ] 4 -> 1 raw incast, 800 packets: trims Arriving " << arriving.trims
              << ", LastQueued " << last.trims << " (queued victims " << last.queuedVictims
              << "), RandomOfTwo " << random.trims << " (queued victims " << random.queuedVictims
              << ")\n";
    for (const VictimRun* r : {&arriving, &last, &random, &other})
    {
        // every packet arrives once, whole or trimmed; nothing is dropped or left held
        EXPECT_EQ(r->sentPackets, 800u);
        EXPECT_EQ(r->sentPayload, 800u * 1024);
        EXPECT_EQ(r->total.packets, r->sentPackets);
        EXPECT_EQ(r->missing, 0u);
        EXPECT_EQ(r->duplicates, 0u);
        EXPECT_EQ(r->drops, 0u);
        EXPECT_EQ(r->mmuBytesLeft, 0u);
        EXPECT_EQ(r->total.trimmed, r->trims);
        EXPECT_EQ(r->trimmed.size(), r->trims);
        // exact bytes: a trimmed packet keeps 256 B and loses its whole 1,024 B payload
        EXPECT_EQ(r->total.payloadBytes, r->sentPayload - r->trims * 1024);
        EXPECT_EQ(r->total.bytes, (r->sentPackets - r->trims) * (1024 + 76) + r->trims * 256);
        // equal packets: whichever is trimmed, the data queue holds the same bytes, so
        // every rule trims the same number of packets
        EXPECT_EQ(r->trims, arriving.trims);
    }
    EXPECT_GT(arriving.trims, 0u);
    // which packet: never a queued one, always the queued one, some of each
    EXPECT_EQ(arriving.queuedVictims, 0u);
    EXPECT_EQ(last.queuedVictims, last.trims);
    EXPECT_GT(random.queuedVictims, random.trims / 4);
    EXPECT_LT(random.queuedVictims, 3 * random.trims / 4);
    EXPECT_NE(arriving.trimmed, last.trimmed);
    // RandomOfTwo is deterministic for a stream, and the stream matters
    EXPECT_EQ(random.trimmed, again.trimmed);
    EXPECT_EQ(random.queuedVictims, again.queuedVictims);
    EXPECT_NE(random.trimmed, other.trimmed);
}

TEST(MrcSwitchNode, TrimmingInsideTheFabricUsesDscp11)
{
    // Hosts 0 and 1 on switch A, host 2 on switch B; the A->B link is the bottleneck.
    MrcSwitchHelper sh;
    sh.SetSwitchAttribute("TrimmingEnabled", BooleanValue(true));
    sh.SetSwitchAttribute("EcnEnabled", BooleanValue(false));
    sh.SetTrimmerAttribute("TrimThreshold", UintegerValue(20000));
    NodeContainer sw = sh.Create(2);
    Ptr<MrcSwitchNode> a = DynamicCast<MrcSwitchNode>(sw.Get(0));
    Ptr<MrcSwitchNode> b = DynamicCast<MrcSwitchNode>(sw.Get(1));
    MrcLinkHelper link = Link100G();
    std::vector<Ptr<Node>> hosts;
    for (int i = 0; i < 3; ++i)
    {
        hosts.push_back(CreateObject<Node>());
    }
    uint32_t a0 = MrcSwitchHelper::ConnectHost(link, a, hosts[0]);
    uint32_t a1 = MrcSwitchHelper::ConnectHost(link, a, hosts[1]);
    auto ab = MrcSwitchHelper::ConnectSwitches(link, a, b);
    uint32_t b2 = MrcSwitchHelper::ConnectHost(link, b, hosts[2]);
    DynamicCast<MrcEcmpForwarding>(a->GetForwarding())->AddRoute(HostAddress(2), 128, ab.first);
    DynamicCast<MrcEcmpForwarding>(b->GetForwarding())->AddRoute(HostAddress(2), 128, b2);
    EXPECT_EQ(a0, 0u);
    EXPECT_EQ(a1, 1u);
    EXPECT_FALSE(a->IsHostFacing(ab.first));
    std::vector<Ptr<MrcRawSource>> src;
    for (uint32_t i = 0; i < 2; ++i)
    {
        src.push_back(
            AddSource(hosts[i], HostAddress(i), HostAddress(2), 200000, MrcDscp::TRIMMABLE, 5 + i));
    }
    Ptr<MrcRawSink> sink = AddSink(hosts[2]);
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    const MrcRawSink::Stats total = sink->GetTotal();
    EXPECT_GT(total.trimmed, 0u);
    EXPECT_EQ(total.trimmedLastHop, 0u); // trimmed toward a switch: DSCP 11
    EXPECT_EQ(total.trimmed, a->GetTrimmedPackets(ab.first));
    EXPECT_EQ(b->GetTrimmedPackets(), 0u); // class 7 on B, not trimmable again
    EXPECT_EQ(total.packets, src[0]->GetSentPackets() + src[1]->GetSentPackets());
    EXPECT_EQ(a->GetTotalDropPackets() + b->GetTotalDropPackets(), 0u);
    Simulator::Destroy();
}

TEST(MrcSwitchNode, Srv6CarrierFollowsItsPathAndWrongUsidIsDropped)
{
    // T0a (0x0101) - T1 (0x1201) and T1b (0x1202) - T0b (0x0102); H0 on T0a, H1 on T0b
    // behind downlink uSID 0x2007.
    MrcSwitchHelper sh;
    sh.SetForwarding("ns3::MrcSrv6Forwarding");
    NodeContainer sw = sh.Create(4);
    std::vector<Ptr<MrcSwitchNode>> s;
    for (uint32_t i = 0; i < 4; ++i)
    {
        s.push_back(DynamicCast<MrcSwitchNode>(sw.Get(i)));
    }
    Ptr<MrcSwitchNode> t0a = s[0], t1 = s[1], t1b = s[2], t0b = s[3];
    MrcLinkHelper link = Link100G();
    Ptr<Node> h0 = CreateObject<Node>();
    Ptr<Node> h1 = CreateObject<Node>();
    MrcSwitchHelper::ConnectHost(link, t0a, h0);                 // t0a port 0
    MrcSwitchHelper::ConnectSwitches(link, t0a, t1);             // t0a 1, t1 0
    MrcSwitchHelper::ConnectSwitches(link, t0a, t1b);            // t0a 2, t1b 0
    MrcSwitchHelper::ConnectSwitches(link, t1, t0b);             // t1 1, t0b 0
    MrcSwitchHelper::ConnectSwitches(link, t1b, t0b);            // t1b 1, t0b 1
    uint32_t down = MrcSwitchHelper::ConnectHost(link, t0b, h1); // t0b 2
    Ptr<MrcSrv6Forwarding> f0a = Srv6Usid(t0a, 0x0101);
    f0a->AddUsidRoute(0x1201, 1);
    f0a->AddUsidRoute(0x1202, 2);
    Ptr<MrcSrv6Forwarding> f1 = Srv6Usid(t1, 0x1201);
    f1->AddUsidRoute(0x0101, 0);
    f1->AddUsidRoute(0x0102, 1);
    Ptr<MrcSrv6Forwarding> f1b = Srv6Usid(t1b, 0x1202);
    f1b->AddUsidRoute(0x0101, 0);
    f1b->AddUsidRoute(0x0102, 1);
    Ptr<MrcSrv6Forwarding> f0b = Srv6Usid(t0b, 0x0102);
    f0b->AddUsidRoute(0x1201, 0);
    f0b->AddUsidRoute(0x1202, 1);
    f0b->AddLocalAdjacency(0x2007, down);

    std::vector<Hop> hops;
    for (auto& n : s)
    {
        RecordHops(n, hops);
    }
    AddSource(h0, HostAddress(0), Carrier({0x0101, 0x1201, 0x0102, 0x2007}), 1024, 4, 9);
    AddSource(h0, HostAddress(0), Carrier({0x0101, 0x1299, 0x0102, 0x2007}), 2048, 4, 10)
        ->SetStartTime(MicroSeconds(50));
    Ptr<MrcRawSink> sink = AddSink(h1);
    std::vector<Ipv6Address> dsts;
    sink->TraceConnectWithoutContext("Rx",
                                     Callback<void, Ptr<const Packet>, const MrcPacketInfo&>(
                                         [&dsts](Ptr<const Packet>, const MrcPacketInfo& info) {
                                             dsts.push_back(info.dst.ToAddress());
                                         }));
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    ASSERT_EQ(hops.size(), 3u);
    EXPECT_EQ(hops[0].sw, t0a->GetId());
    EXPECT_EQ(hops[0].in, 0u);
    EXPECT_EQ(hops[0].out, 1u);
    EXPECT_EQ(hops[1].sw, t1->GetId());
    EXPECT_EQ(hops[1].in, 0u);
    EXPECT_EQ(hops[1].out, 1u);
    EXPECT_EQ(hops[2].sw, t0b->GetId());
    EXPECT_EQ(hops[2].in, 0u);
    EXPECT_EQ(hops[2].out, down);
    ASSERT_EQ(dsts.size(), 1u);
    EXPECT_EQ(dsts[0], Ipv6Address("fcbb:bb00::"));
    EXPECT_EQ(sink->GetTotal().payloadBytes, 1024u);
    EXPECT_EQ(t0a->GetDropPackets(0, MrcSwitchDropReason::NO_ROUTE), 2u);
    EXPECT_EQ(t0a->GetTotalDropPackets(), 2u);
    EXPECT_EQ(t1b->GetRxPackets(), 0u);
    Simulator::Destroy();
}

/// Frames (with Ethernet header) sent by the T1 of a three-switch SRv6 path
/// (T0a - T1 - T0b, carrier 0101 1201 0102 2007), optionally with every switch's Forward
/// trace connected.
std::vector<std::vector<uint8_t>>
Srv6FramesOutOfT1(bool forwardTraced)
{
    MrcSwitchHelper sh;
    sh.SetForwarding("ns3::MrcSrv6Forwarding");
    NodeContainer sw = sh.Create(3);
    Ptr<MrcSwitchNode> t0a = DynamicCast<MrcSwitchNode>(sw.Get(0));
    Ptr<MrcSwitchNode> t1 = DynamicCast<MrcSwitchNode>(sw.Get(1));
    Ptr<MrcSwitchNode> t0b = DynamicCast<MrcSwitchNode>(sw.Get(2));
    MrcLinkHelper link = Link100G();
    Ptr<Node> h0 = CreateObject<Node>();
    Ptr<Node> h1 = CreateObject<Node>();
    MrcSwitchHelper::ConnectHost(link, t0a, h0);                 // t0a port 0
    MrcSwitchHelper::ConnectSwitches(link, t0a, t1);             // t0a 1, t1 0
    MrcSwitchHelper::ConnectSwitches(link, t1, t0b);             // t1 1, t0b 0
    uint32_t down = MrcSwitchHelper::ConnectHost(link, t0b, h1); // t0b 1
    Srv6Usid(t0a, 0x0101)->AddUsidRoute(0x1201, 1);
    Srv6Usid(t1, 0x1201)->AddUsidRoute(0x0102, 1);
    Srv6Usid(t0b, 0x0102)->AddLocalAdjacency(0x2007, down);
    std::vector<Hop> hops;
    if (forwardTraced)
    {
        for (auto n : {t0a, t1, t0b})
        {
            RecordHops(n, hops);
        }
    }
    std::vector<std::vector<uint8_t>> frames;
    t1->GetPort(1)->TraceConnectWithoutContext(
        "PhyTxBegin",
        Callback<void, Ptr<const Packet>>([&frames](Ptr<const Packet> f) {
            std::vector<uint8_t> b(f->GetSize());
            f->CopyData(b.data(), b.size());
            frames.push_back(b);
        }));
    AddSource(h0, HostAddress(0), Carrier({0x0101, 0x1201, 0x0102, 0x2007}), 3000, 4, 9);
    Ptr<MrcRawSink> sink = AddSink(h1);
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    EXPECT_EQ(sink->GetTotal().payloadBytes, 3000u);
    EXPECT_EQ(hops.size(), forwardTraced ? 3 * frames.size() : 0u);
    Simulator::Destroy();
    return frames;
}

// A switch writes the SRv6 destination rewrite together with the egress Ethernet header
// when nothing reads the packet before it is queued: the frames on the wire are the same
// bytes as when the rewrite is written first (forced here by a connected Forward trace).
TEST(MrcSwitchNode, Srv6RewriteWithTheEthernetHeaderGivesTheSameFrames)
{
    const auto deferred = Srv6FramesOutOfT1(false);
    const auto eager = Srv6FramesOutOfT1(true);
    ASSERT_EQ(deferred.size(), 3u); // 3000 bytes in packets of 1024 payload bytes
    EXPECT_EQ(deferred, eager);
    // out of T1 the carrier has shifted twice: fcbb:bb00:0102:2007::, at byte 14 + 24
    const uint8_t want[16] = {0xfc, 0xbb, 0xbb, 0x00, 0x01, 0x02, 0x20, 0x07};
    for (const auto& f : deferred)
    {
        ASSERT_GE(f.size(), 14u + 40u);
        EXPECT_EQ(f[12], 0x86); // EtherType IPv6
        EXPECT_EQ(f[13], 0xdd);
        EXPECT_TRUE(std::equal(want, want + 16, f.begin() + 14 + 24));
    }
}

TEST(MrcSwitchNode, LinkFailureLossesCountedAndEcmpAvoidsFailedPort)
{
    // H0 - S (ports 1, 2 to U1, U2) - U1/U2 - D - H1
    MrcSwitchHelper sh;
    sh.SetSwitchAttribute("EcnEnabled", BooleanValue(false));
    NodeContainer sw = sh.Create(4);
    Ptr<MrcSwitchNode> s = DynamicCast<MrcSwitchNode>(sw.Get(0));
    Ptr<MrcSwitchNode> u1 = DynamicCast<MrcSwitchNode>(sw.Get(1));
    Ptr<MrcSwitchNode> u2 = DynamicCast<MrcSwitchNode>(sw.Get(2));
    Ptr<MrcSwitchNode> d = DynamicCast<MrcSwitchNode>(sw.Get(3));
    MrcLinkHelper link = Link100G();
    Ptr<Node> h0 = CreateObject<Node>();
    Ptr<Node> h1 = CreateObject<Node>();
    MrcSwitchHelper::ConnectHost(link, s, h0);                // s 0
    auto su1 = MrcSwitchHelper::ConnectSwitches(link, s, u1); // s 1
    auto su2 = MrcSwitchHelper::ConnectSwitches(link, s, u2); // s 2
    auto u1d = MrcSwitchHelper::ConnectSwitches(link, u1, d);
    auto u2d = MrcSwitchHelper::ConnectSwitches(link, u2, d);
    uint32_t dh = MrcSwitchHelper::ConnectHost(link, d, h1);
    auto ecmp = [](Ptr<MrcSwitchNode> n) {
        return DynamicCast<MrcEcmpForwarding>(n->GetForwarding());
    };
    ecmp(s)->ReplaceRoute(HostAddress(1), 128, {su1.first, su2.first});
    ecmp(u1)->AddRoute(HostAddress(1), 128, u1d.first);
    ecmp(u2)->AddRoute(HostAddress(1), 128, u2d.first);
    ecmp(d)->AddRoute(HostAddress(1), 128, dh);
    std::vector<Ptr<MrcRawSource>> src;
    for (uint16_t f = 0; f < 16; ++f)
    {
        src.push_back(AddSource(h0, HostAddress(0), HostAddress(1), 50000, 4, 2000 + f));
    }
    Ptr<MrcRawSink> sink = AddSink(h1);
    std::vector<Hop> hops;
    RecordHops(s, hops);
    const int64_t failNs = 20000;
    Ptr<MrcChannel> ch = s->GetPort(su1.first)->GetMrcChannel();
    Simulator::Schedule(NanoSeconds(failNs), &MrcChannel::SetLinkUp, ch, false);
    Simulator::Stop(MilliSeconds(2));
    Simulator::Run();

    uint64_t sent = 0;
    for (const auto& x : src)
    {
        sent += x->GetSentPackets();
    }
    Ptr<MrcNetDevice> up1 = s->GetPort(su1.first);
    const uint64_t lostWire = ch->GetLostPackets();
    const uint64_t devLinkDown = up1->GetDropPackets(MrcDropReason::LINK_DOWN);
    EXPECT_GT(lostWire, 0u);
    EXPECT_EQ(devLinkDown, lostWire + s->GetDropPackets(su1.first, MrcSwitchDropReason::LINK_DOWN));
    EXPECT_EQ(sent, sink->GetTotal().packets + devLinkDown);
    uint64_t beforeP1 = 0, beforeP2 = 0, afterP1 = 0, afterP2 = 0;
    for (const Hop& h : hops)
    {
        (h.ns < failNs ? (h.out == su1.first ? beforeP1 : beforeP2)
                       : (h.out == su1.first ? afterP1 : afterP2))++;
    }
    EXPECT_GT(beforeP1, 0u);
    EXPECT_GT(beforeP2, 0u);
    EXPECT_EQ(afterP1, 0u); // the local failure is seen at once
    EXPECT_GT(afterP2, 0u);
    EXPECT_FALSE(ecmp(s)->IsPortUp(su1.first));
    EXPECT_EQ(s->GetMmu()->GetTotalBytes(), 0u);
    Simulator::Destroy();
}
