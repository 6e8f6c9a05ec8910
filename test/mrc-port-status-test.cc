/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// NIC-scope Port Status Update (MrcRdmaNic::PortStatusScope Nic, the default): one
// endpoint request per peer NIC to its QPN 0x2, applied by the peer NIC to every QP
// connected to the sender, answered once, resent on timeout.

#include "mrc-test-support.h"

#include "ns3/config.h"
#include "ns3/error-model.h"
#include "ns3/mrc-channel.h"
#include "ns3/mrc-erth-header.h"
#include "ns3/mrc-ev-table.h"
#include "ns3/mrc-multipath-helper.h"
#include "ns3/mrc-multipath-queue-pair.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-opcodes.h"
#include "ns3/mrc-packet-info.h"
#include "ns3/mrc-rdma-helper.h"
#include "ns3/mrc-rdma-nic.h"
#include "ns3/mrc-topology-helper.h"
#include "ns3/mrc-topology.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;
using ns3::MrcTest::TwoPlaneClos;

namespace
{

/// Receive "error model" on a device: counts the endpoint requests (0xD8) and responses
/// (0xD9) arriving on the wire, and drops the responses when asked to.
class EndpointCounter : public ErrorModel
{
  public:
    uint32_t requests{0};      //!< 0xD8 frames seen
    uint32_t responses{0};     //!< 0xD9 frames seen
    bool dropResponses{false}; //!< corrupt the 0xD9 frames

  private:
    bool DoCorrupt(Ptr<Packet> frame) override
    {
        constexpr uint32_t ETH = 14; // MrcNetDevice's Ethernet header
        if (frame->GetSize() <= ETH)
        {
            return false;
        }
        MrcPacketInfo info;
        if (!MrcParsePacket(frame->CreateFragment(ETH, frame->GetSize() - ETH),
                            info,
                            MRC_ROCEV2_UDP_PORT) ||
            !info.hasBth)
        {
            return false;
        }
        if (info.opcode == MrcOpcode::MRC_ENDPOINT_REQUEST)
        {
            ++requests;
        }
        else if (info.opcode == MrcOpcode::MRC_ENDPOINT_RESPONSE)
        {
            ++responses;
            return dropResponses;
        }
        return false;
    }

    void DoReset() override
    {
    }
};

/// Put a counter on every port of a host's NIC. \return them, port order
std::vector<Ptr<EndpointCounter>>
Watch(Ptr<MrcTopology> t, uint32_t host)
{
    std::vector<Ptr<EndpointCounter>> out;
    Ptr<MrcRdmaNic> nic = MrcRdmaNic::GetNic(t->GetHost(host));
    for (uint32_t p = 0; p < nic->GetNPorts(); ++p)
    {
        Ptr<EndpointCounter> em = CreateObject<EndpointCounter>();
        nic->GetDevice(p)->SetAttribute("ReceiveErrorModel", PointerValue(em));
        out.push_back(em);
    }
    return out;
}

uint32_t
Requests(const std::vector<Ptr<EndpointCounter>>& v)
{
    uint32_t n = 0;
    for (const auto& em : v)
    {
        n += em->requests;
    }
    return n;
}

uint32_t
Responses(const std::vector<Ptr<EndpointCounter>>& v)
{
    uint32_t n = 0;
    for (const auto& em : v)
    {
        n += em->responses;
    }
    return n;
}

/// One PortStatusTx call.
struct Tx
{
    Time at;
    Ipv6Address peer;
    uint16_t id;
    uint32_t mask;
};

void
RecordTx(std::vector<Tx>* log, Ipv6Address peer, uint16_t id, uint32_t mask)
{
    log->push_back({Simulator::Now(), peer, id, mask});
}

/// First time (100 ns grid) every watched QP had plane 1 out of use.
struct PlaneWatch
{
    std::vector<Ptr<MrcMultipathQueuePair>> qps;
    Time allDown{Time::Max()};
    bool upBefore{true};

    void Sample(bool beforeFailure)
    {
        bool all = true;
        for (const auto& qp : qps)
        {
            all = all && !qp->GetEvTable()->IsPlaneUp(1);
            if (beforeFailure && !qp->GetEvTable()->IsPlaneUp(1))
            {
                upBefore = false;
            }
        }
        if (!beforeFailure && all && allDown == Time::Max())
        {
            allDown = Simulator::Now();
        }
    }
};

Ptr<MrcMultipathQueuePair>
Mp(Ptr<MrcQueuePair> qp)
{
    return DynamicCast<MrcMultipathQueuePair>(qp);
}

/// Port mask with the given 0-based ports up (bit N = port N, 1-based).
uint32_t
Mask(std::initializer_list<uint32_t> ports)
{
    uint32_t m = 0;
    for (uint32_t p : ports)
    {
        m |= MrcErthHeader::PortBit(p + 1);
    }
    return m;
}

} // namespace

TEST(MrcPortStatus, DefaultScopeIsNic)
{
    Ptr<MrcRdmaNic> nic = CreateObject<MrcRdmaNic>();
    EXPECT_EQ(nic->GetPortStatusScope(), MrcRdmaNic::PORT_STATUS_NIC);
    nic->SetAttribute("PortStatusScope", StringValue("Qp"));
    EXPECT_EQ(nic->GetPortStatusScope(), MrcRdmaNic::PORT_STATUS_QP);
    EXPECT_EQ(Mask({0}), 0x2u);
    EXPECT_EQ(Mask({0, 1}), 0x6u);
}

TEST(MrcPortStatus, OneUpdatePerPeerNicAppliedToEveryQp)
{
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    MrcMultipathHelper mrc;
    // NIC A (host 0): three QPs to NIC B (host 3), one to NIC C (host 2)
    std::vector<MrcRdmaHelper::Connection> toB;
    for (int i = 0; i < 3; ++i)
    {
        toB.push_back(mrc.Connect(t, 0, 3, 1 << 20));
    }
    MrcRdmaHelper::Connection toC = mrc.Connect(t, 0, 2, 1 << 20);
    Ptr<MrcRdmaNic> a = MrcRdmaNic::GetNic(t->GetHost(0));
    Ptr<MrcRdmaNic> b = MrcRdmaNic::GetNic(t->GetHost(3));
    Ptr<MrcRdmaNic> c = MrcRdmaNic::GetNic(t->GetHost(2));
    std::vector<Ptr<EndpointCounter>> wireA = Watch(t, 0);
    std::vector<Ptr<EndpointCounter>> wireB = Watch(t, 3);
    std::vector<Ptr<EndpointCounter>> wireC = Watch(t, 2);
    std::vector<Tx> tx;
    a->TraceConnectWithoutContext("PortStatusTx", MakeBoundCallback(&RecordTx, &tx));
    PlaneWatch w;
    for (const auto& conn : toB)
    {
        w.qps.push_back(Mp(conn.responder));
    }
    w.qps.push_back(Mp(toC.responder));
    // A's plane-1 port goes down at 20 us and comes back at 1 ms
    Ptr<MrcChannel> ch = t->GetLink(t->GetHostLink(0, 1)).channel;
    Simulator::Schedule(MicroSeconds(20), &MrcChannel::SetLinkUp, ch, false);
    Simulator::Schedule(MilliSeconds(1), &MrcChannel::SetLinkUp, ch, true);
    Simulator::Schedule(NanoSeconds(19999), &PlaneWatch::Sample, &w, true);
    for (int64_t ns = 20000; ns <= 40000; ns += 100)
    {
        Simulator::Schedule(NanoSeconds(ns), &PlaneWatch::Sample, &w, false);
    }
    Simulator::Stop(MilliSeconds(12));
    Simulator::Run();

    // exactly one request per peer NIC and per change, each answered once
    ASSERT_EQ(tx.size(), 4u);
    const Ipv6Address bAddr = b->GetAddress(0);
    const Ipv6Address cAddr = c->GetAddress(0);
    const Time down = MicroSeconds(20);
    const Time up = MilliSeconds(1);
    EXPECT_EQ(tx[0].at, down);
    EXPECT_EQ(tx[0].peer, bAddr);
    EXPECT_EQ(tx[0].id, 1u);
    EXPECT_EQ(tx[0].mask, Mask({0}));
    EXPECT_EQ(tx[1].at, down);
    EXPECT_EQ(tx[1].peer, cAddr);
    EXPECT_EQ(tx[1].id, 1u);
    EXPECT_EQ(tx[1].mask, Mask({0}));
    EXPECT_EQ(tx[2].at, up);
    EXPECT_EQ(tx[2].peer, bAddr);
    EXPECT_EQ(tx[2].id, 2u);
    EXPECT_EQ(tx[2].mask, Mask({0, 1}));
    EXPECT_EQ(tx[3].at, up);
    EXPECT_EQ(tx[3].peer, cAddr);
    EXPECT_EQ(tx[3].id, 2u);
    EXPECT_EQ(tx[3].mask, Mask({0, 1}));
    EXPECT_EQ(a->GetPortStatusSent(), 4u);
    EXPECT_EQ(a->GetPortStatusResent(), 0u);
    EXPECT_EQ(a->GetPortStatusAnswered(), 4u);
    EXPECT_EQ(a->GetPortStatusRequestId(bAddr), 2u);
    EXPECT_EQ(a->GetPortStatusRequestId(c->GetAddress(1)), 2u);
    // on the wire: 2 requests reached B, 2 reached C, 4 responses reached A
    EXPECT_EQ(Requests(wireB), 2u);
    EXPECT_EQ(Requests(wireC), 2u);
    EXPECT_EQ(Responses(wireA), 4u);
    EXPECT_EQ(Requests(wireA), 0u);
    EXPECT_EQ(Responses(wireB) + Responses(wireC), 0u);
    EXPECT_EQ(b->GetPortStatusReceived(), 2u);
    EXPECT_EQ(b->GetPortStatusResponses(), 2u);
    EXPECT_EQ(c->GetPortStatusReceived(), 2u);
    EXPECT_EQ(c->GetPortStatusResponses(), 2u);
    EXPECT_EQ(b->GetPortStatusSent() + c->GetPortStatusSent(), 0u);
    EXPECT_EQ(b->GetRxUnknownQp() + c->GetRxUnknownQp(), 0u);
    // each peer QP applied both masks; no QP sent an update of its own
    for (const auto& qp : w.qps)
    {
        EXPECT_EQ(qp->GetMultipathCounters().portStatusReceived, 2u);
        EXPECT_EQ(qp->GetMultipathCounters().portStatusSent, 0u);
        EXPECT_TRUE(qp->GetEvTable()->IsPlaneUp(1)); // restored by the second update
    }
    for (const auto& conn : toB)
    {
        EXPECT_EQ(Mp(conn.requester)->GetMultipathCounters().portStatusSent, 0u);
    }
    // every QP at B and C took plane 1 out of use within one RTT (< 10 us here: 4 links
    // of 1 us each way plus serialization) of the failure
    EXPECT_TRUE(w.upBefore);
    ASSERT_NE(w.allDown, Time::Max());
    EXPECT_LE(w.allDown - down, MicroSeconds(10));
    EXPECT_GT(w.allDown - down, MicroSeconds(4)); // not before one way through the fabric
    Simulator::Destroy();
}

TEST(MrcPortStatus, UnansweredUpdateIsSentThreeTimesTwoMsApart)
{
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    MrcMultipathHelper mrc;
    MrcRdmaHelper::Connection conn = mrc.Connect(t, 0, 3, 1 << 20);
    mrc.Connect(t, 0, 3, 1 << 20);
    Ptr<MrcRdmaNic> a = MrcRdmaNic::GetNic(t->GetHost(0));
    Ptr<MrcRdmaNic> b = MrcRdmaNic::GetNic(t->GetHost(3));
    std::vector<Ptr<EndpointCounter>> wireA = Watch(t, 0);
    std::vector<Ptr<EndpointCounter>> wireB = Watch(t, 3);
    for (const auto& em : wireA)
    {
        em->dropResponses = true; // every response is lost on its way into A
    }
    std::vector<Tx> tx;
    a->TraceConnectWithoutContext("PortStatusTx", MakeBoundCallback(&RecordTx, &tx));
    Ptr<MrcChannel> ch = t->GetLink(t->GetHostLink(0, 1)).channel;
    Simulator::Schedule(MicroSeconds(20), &MrcChannel::SetLinkUp, ch, false);
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    // the first attempt and two more, 2 ms (PortStatusTimeout) apart, same request id
    ASSERT_EQ(tx.size(), 3u);
    for (uint32_t i = 0; i < 3; ++i)
    {
        EXPECT_EQ(tx[i].at, MicroSeconds(20) + MilliSeconds(2) * i) << i;
        EXPECT_EQ(tx[i].id, 1u);
        EXPECT_EQ(tx[i].mask, Mask({0}));
    }
    EXPECT_EQ(a->GetPortStatusSent(), 3u);
    EXPECT_EQ(a->GetPortStatusResent(), 2u);
    EXPECT_EQ(a->GetPortStatusAnswered(), 0u);
    EXPECT_EQ(Requests(wireB), 3u);
    EXPECT_EQ(Responses(wireA), 3u); // answered each time, every answer dropped
    EXPECT_EQ(b->GetPortStatusReceived(), 3u);
    EXPECT_EQ(b->GetPortStatusResponses(), 3u);
    EXPECT_FALSE(Mp(conn.responder)->GetEvTable()->IsPlaneUp(1));
    Simulator::Destroy();
}

TEST(MrcPortStatus, QpScopeSendsOneUpdatePerQp)
{
    Config::SetDefault("ns3::MrcRdmaNic::PortStatusScope", StringValue("Qp"));
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    Config::SetDefault("ns3::MrcRdmaNic::PortStatusScope", StringValue("Nic"));
    MrcMultipathHelper mrc;
    std::vector<MrcRdmaHelper::Connection> conns;
    for (int i = 0; i < 3; ++i)
    {
        conns.push_back(mrc.Connect(t, 0, 3, 1 << 20));
    }
    conns.push_back(mrc.Connect(t, 0, 2, 1 << 20));
    Ptr<MrcRdmaNic> a = MrcRdmaNic::GetNic(t->GetHost(0));
    ASSERT_EQ(a->GetPortStatusScope(), MrcRdmaNic::PORT_STATUS_QP);
    std::vector<Ptr<EndpointCounter>> wireB = Watch(t, 3);
    std::vector<Ptr<EndpointCounter>> wireC = Watch(t, 2);
    Ptr<MrcChannel> ch = t->GetLink(t->GetHostLink(0, 1)).channel;
    Simulator::Schedule(MicroSeconds(20), &MrcChannel::SetLinkUp, ch, false);
    Simulator::Stop(MilliSeconds(10));
    Simulator::Run();
    // one request per QP pair, to the peer QP, each answered
    EXPECT_EQ(Requests(wireB), 3u);
    EXPECT_EQ(Requests(wireC), 1u);
    EXPECT_EQ(a->GetPortStatusSent(), 0u);
    for (const auto& conn : conns)
    {
        EXPECT_EQ(Mp(conn.requester)->GetMultipathCounters().portStatusSent, 1u);
        EXPECT_EQ(Mp(conn.requester)->GetMultipathCounters().portStatusAnswered, 1u);
        EXPECT_EQ(Mp(conn.responder)->GetMultipathCounters().portStatusReceived, 1u);
        EXPECT_FALSE(Mp(conn.responder)->GetEvTable()->IsPlaneUp(1));
    }
    Simulator::Destroy();
}
