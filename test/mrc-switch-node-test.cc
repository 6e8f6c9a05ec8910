/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the switch node: MrcSwitchNode, MrcSwitchHelper, MrcRawSource/MrcRawSink.
// Small topologies, short simulated times; every check is an exact count or an
// invariant (bytes sent = bytes received + bytes dropped, paths, DSCPs, order).

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/mrc-channel.h"
#include "ns3/mrc-ecmp-forwarding.h"
#include "ns3/mrc-link-helper.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-raw-traffic.h"
#include "ns3/mrc-srv6-forwarding.h"
#include "ns3/mrc-switch-helper.h"
#include "ns3/mrc-switch-node.h"
#include "ns3/mrc-traffic-class.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Address of host i: fd00::i+1.
Ipv6Address
HostAddress(uint32_t i)
{
    uint8_t b[16] = {0xfd, 0};
    b[14] = static_cast<uint8_t>((i + 1) >> 8);
    b[15] = static_cast<uint8_t>(i + 1);
    return Ipv6Address(b);
}

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
