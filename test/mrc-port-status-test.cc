/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// NIC-scope Port Status Update (MrcRdmaNic::PortStatusScope Nic, the default): one
// endpoint request per peer NIC to its QPN 0x2, applied by the peer NIC to every QP
// connected to the sender, answered once, resent on timeout. The MrcPortStatusAgent that
// runs it (both scopes) as the NIC's endpoint handler; the controller following the QPs
// and switching ports through the NIC.

#include "mrc-test-support.h"

#include "ns3/config.h"
#include "ns3/error-model.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-channel.h"
#include "ns3/mrc-congestion-ops.h"
#include "ns3/mrc-controller.h"
#include "ns3/mrc-eeth-header.h"
#include "ns3/mrc-erth-header.h"
#include "ns3/mrc-ev-table.h"
#include "ns3/mrc-link-helper.h"
#include "ns3/mrc-multipath-helper.h"
#include "ns3/mrc-multipath-queue-pair.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-opcodes.h"
#include "ns3/mrc-packet-info.h"
#include "ns3/mrc-port-status-agent.h"
#include "ns3/mrc-rdma-helper.h"
#include "ns3/mrc-rdma-nic.h"
#include "ns3/mrc-roce-queue-pair.h"
#include "ns3/mrc-topology-helper.h"
#include "ns3/mrc-topology.h"
#include "ns3/mrc-tseth-header.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;
using ns3::MrcTest::Mp;
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

// ---------------------------------------------------------------------------
// The agent: the NIC's endpoint handler, its packets, the controller beside it
// ---------------------------------------------------------------------------

TEST(MrcPortStatus, AgentIsTheEndpointHandlerOfEveryNic)
{
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    std::vector<Ptr<MrcPortStatusAgent>> agents;
    for (uint32_t h = 0; h < t->GetNHosts(); ++h)
    {
        Ptr<MrcRdmaNic> nic = MrcRdmaNic::GetNic(t->GetHost(h));
        Ptr<MrcPortStatusAgent> agent =
            DynamicCast<MrcPortStatusAgent>(nic->GetEndpointHandler(MRC_ENDPOINT_QPN));
        ASSERT_TRUE(agent) << "host " << h;                 // InstallNics registered it
        EXPECT_EQ(MrcPortStatusAgent::Install(nic), agent); // one per NIC
        EXPECT_EQ(agent->GetNic(), nic);
        for (const auto& other : agents)
        {
            EXPECT_NE(other, agent);
        }
        agents.push_back(agent);
    }
    Simulator::Destroy();
}

TEST(MrcPortStatus, FirstMrcQpRegistersTheAgentOfANicMadeWithoutTheMrcHelper)
{
    Ptr<Node> ha = CreateObject<Node>();
    Ptr<Node> hb = CreateObject<Node>();
    MrcLinkHelper link;
    NetDeviceContainer devs = link.Install(ha, hb);
    MrcRdmaHelper rdma;
    Ptr<MrcRdmaNic> a =
        rdma.Install(ha, DynamicCast<MrcNetDevice>(devs.Get(0)), Ipv6Address("fd00::1"));
    Ptr<MrcRdmaNic> b =
        rdma.Install(hb, DynamicCast<MrcNetDevice>(devs.Get(1)), Ipv6Address("fd00::2"));
    EXPECT_EQ(a->GetEndpointHandler(MRC_ENDPOINT_QPN), nullptr);
    Ptr<MrcQueuePair> roce = a->CreateQueuePair(MrcRoceQueuePair::GetTypeId());
    roce->Connect(b->GetAddresses(), 0x999);
    EXPECT_EQ(a->GetEndpointHandler(MRC_ENDPOINT_QPN), nullptr); // RoCE has no agent
    ObjectFactory f("ns3::MrcMultipathQueuePair");
    f.Set("CongestionControl", TypeIdValue(MrcNoCongestionControl::GetTypeId()));
    Ptr<MrcQueuePair> qp = a->CreateQueuePair(f);
    EXPECT_EQ(a->GetEndpointHandler(MRC_ENDPOINT_QPN), nullptr); // not before RTR
    qp->Connect(b->GetAddresses(), 0x998);
    Ptr<MrcEndpointOps> h = a->GetEndpointHandler(MRC_ENDPOINT_QPN);
    ASSERT_TRUE(DynamicCast<MrcPortStatusAgent>(h));
    EXPECT_EQ(MrcPortStatusAgent::Install(a), h);
    Ptr<MrcQueuePair> qp2 = a->CreateQueuePair(f);
    qp2->Connect(b->GetAddresses(), 0x997);
    EXPECT_EQ(a->GetEndpointHandler(MRC_ENDPOINT_QPN), h); // still the one agent
    EXPECT_EQ(b->GetEndpointHandler(MRC_ENDPOINT_QPN), nullptr);
    Simulator::Destroy();
}

TEST(MrcPortStatus, PortStatusTxOfTheNicIsTheAgentsTrace)
{
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    MrcMultipathHelper mrc;
    mrc.Connect(t, 0, 3, 1 << 20);
    mrc.Connect(t, 0, 2, 1 << 20);
    Ptr<MrcRdmaNic> a = MrcRdmaNic::GetNic(t->GetHost(0));
    Ptr<MrcPortStatusAgent> agent = MrcPortStatusAgent::Install(a);
    std::vector<Tx> viaNic;
    std::vector<Tx> viaAgent;
    ASSERT_TRUE(
        a->TraceConnectWithoutContext("PortStatusTx", MakeBoundCallback(&RecordTx, &viaNic)));
    ASSERT_TRUE(
        agent->TraceConnectWithoutContext("PortStatusTx", MakeBoundCallback(&RecordTx, &viaAgent)));
    Ptr<MrcChannel> ch = t->GetLink(t->GetHostLink(0, 1)).channel;
    Simulator::Schedule(MicroSeconds(20), &MrcChannel::SetLinkUp, ch, false);
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    ASSERT_EQ(viaNic.size(), 2u); // one per peer NIC
    ASSERT_EQ(viaAgent.size(), 2u);
    for (uint32_t i = 0; i < 2; ++i)
    {
        EXPECT_EQ(viaNic[i].peer, viaAgent[i].peer);
        EXPECT_EQ(viaNic[i].id, viaAgent[i].id);
        EXPECT_EQ(viaNic[i].mask, Mask({0}));
    }
    // the NIC's accessors read the agent's counts
    EXPECT_EQ(a->GetPortStatusSent(), agent->GetEndpointStats().requestsSent);
    EXPECT_EQ(agent->GetEndpointStats().requestsSent, 2u);
    EXPECT_EQ(agent->GetEndpointStats().responsesMatched, 2u);
    EXPECT_TRUE(
        a->TraceDisconnectWithoutContext("PortStatusTx", MakeBoundCallback(&RecordTx, &viaNic)));
    Simulator::Destroy();
}

TEST(MrcPortStatus, RequestAndResponseBytes)
{
    const uint32_t mask = Mask({0, 2});
    Ptr<Packet> req = MrcPortStatusAgent::MakeRequest(MRC_ENDPOINT_QPN, 7, mask, MicroSeconds(3));
    EXPECT_EQ(req->GetSize(), MrcBthHeader::SERIALIZED_SIZE + MrcErthHeader::SIZE);
    MrcBthHeader bth;
    req->RemoveHeader(bth);
    EXPECT_EQ(bth.GetOpcode(), MrcOpcode::MRC_ENDPOINT_REQUEST);
    EXPECT_EQ(bth.GetDestQp(), MRC_ENDPOINT_QPN);
    EXPECT_EQ(bth.GetPsn(), 7u);
    MrcErthHeader erth;
    req->RemoveHeader(erth);
    EXPECT_EQ(erth.GetOp(), MrcEndpointOp::PORT_STATUS_UPDATE);
    EXPECT_EQ(erth.GetPortStatusMask(), mask);
    EXPECT_TRUE(erth.IsPortReachable(1));
    EXPECT_FALSE(erth.IsPortReachable(2));
    EXPECT_TRUE(erth.IsPortReachable(3));
    EXPECT_EQ(erth.GetTxTimestamp(), MrcTsethHeader::TimeToTicks(MicroSeconds(3)));

    Ptr<Packet> resp = MrcPortStatusAgent::MakeResponse(300, 7, 0x1234);
    EXPECT_EQ(resp->GetSize(), MrcBthHeader::SERIALIZED_SIZE + MrcEethHeader::SIZE);
    resp->RemoveHeader(bth);
    EXPECT_EQ(bth.GetOpcode(), MrcOpcode::MRC_ENDPOINT_RESPONSE);
    EXPECT_EQ(bth.GetDestQp(), 300u);
    EXPECT_EQ(bth.GetPsn(), 7u);
    MrcEethHeader eeth;
    resp->RemoveHeader(eeth);
    EXPECT_EQ(eeth.GetOp(), MrcEndpointOp::PORT_STATUS_UPDATE);
    EXPECT_EQ(eeth.GetTxTimestamp(), 0x1234u);
}

TEST(MrcPortStatus, LocalPortMaskFollowsTheLinks)
{
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    Ptr<MrcRdmaNic> a = MrcRdmaNic::GetNic(t->GetHost(0));
    EXPECT_EQ(MrcPortStatusAgent::LocalPortMask(a), Mask({0, 1}));
    a->SetPortEnabled(1, false); // detection delay 0: the device sees it at once
    EXPECT_EQ(MrcPortStatusAgent::LocalPortMask(a), Mask({0}));
    a->SetPortEnabled(0, false);
    EXPECT_EQ(MrcPortStatusAgent::LocalPortMask(a), 0u);
    a->SetPortEnabled(1, true);
    EXPECT_EQ(MrcPortStatusAgent::LocalPortMask(a), Mask({1}));
    Simulator::Destroy();
}

TEST(MrcPortStatus, QpScopeUpdateStopsWhenTheQpFails)
{
    Config::SetDefault("ns3::MrcRdmaNic::PortStatusScope", StringValue("Qp"));
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    Config::SetDefault("ns3::MrcRdmaNic::PortStatusScope", StringValue("Nic"));
    MrcMultipathHelper mrc;
    MrcRdmaHelper::Connection conn = mrc.Connect(t, 0, 3, 1 << 20);
    std::vector<Ptr<EndpointCounter>> wireA = Watch(t, 0);
    for (const auto& em : wireA)
    {
        em->dropResponses = true; // never answered: resent every 2 ms until it fails
    }
    std::vector<Ptr<EndpointCounter>> wireB = Watch(t, 3);
    Ptr<MrcChannel> ch = t->GetLink(t->GetHostLink(0, 1)).channel;
    Simulator::Schedule(MicroSeconds(20), &MrcChannel::SetLinkUp, ch, false);
    // the QP fails (a request with an operation MRC does not have) between the first
    // attempt and the first resend
    Simulator::Schedule(MilliSeconds(1), [&]() {
        MrcWorkRequest wr;
        wr.id = 1;
        wr.opcode = static_cast<MrcWrOpcode>(9); // not an operation MRC has
        wr.length = 8;
        conn.requester->PostSend(wr);
    });
    Simulator::Stop(MilliSeconds(10));
    Simulator::Run();
    EXPECT_EQ(conn.requester->GetState(), MrcQpState::ERROR);
    const MrcMultipathCounters& m = Mp(conn.requester)->GetMultipathCounters();
    EXPECT_EQ(m.portStatusSent, 1u);
    EXPECT_EQ(m.portStatusResent, 0u);
    EXPECT_EQ(Requests(wireB), 1u);
    Simulator::Destroy();
}

TEST(MrcPortStatus, ControllerFollowsQpsThroughTheNicTrace)
{
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    Ptr<MrcRdmaNic> a = MrcRdmaNic::GetNic(t->GetHost(0));
    Ptr<MrcRdmaNic> b = MrcRdmaNic::GetNic(t->GetHost(3));
    // installed before any QP exists
    Ptr<MrcController> ctl = MrcController::Install(a);
    MrcMultipathHelper mrc;
    MrcRdmaHelper::Connection c1 = mrc.Connect(t, 0, 3, 1 << 20);
    // a RoCE QP of the same NIC is not an MRC QP: the controller leaves it alone
    Ptr<MrcQueuePair> roce = a->CreateQueuePair(MrcRoceQueuePair::GetTypeId());
    roce->Connect(b->GetAddresses(), 0x999);
    // a QP connected through the controller's explicit steps
    Ptr<MrcMultipathQueuePair> q2 = ctl->CreateQp();
    q2->SetAttribute("CongestionControl", TypeIdValue(MrcNoCongestionControl::GetTypeId()));
    ASSERT_TRUE(ctl->ModifyQpToInit(q2->GetQpn(), MrcQpInitAttr()));
    MrcQpRtrAttr rtr;
    rtr.remoteAddresses = b->GetAddresses();
    rtr.destQpn = 0x777;
    ASSERT_TRUE(ctl->ModifyQpToRtr(q2->GetQpn(), rtr));
    // denying an EV of each MRC QP reports one event each
    EXPECT_TRUE(ctl->ModifyEvState(c1.requester->GetQpn(), 0, MrcEvState::DENIED));
    EXPECT_TRUE(ctl->ModifyEvState(q2->GetQpn(), 1, MrcEvState::DENIED));
    std::vector<MrcCtlEvEvent> ev = ctl->PollEvEvents(10);
    ASSERT_EQ(ev.size(), 2u);
    EXPECT_EQ(ev[0].qpn, c1.requester->GetQpn());
    EXPECT_EQ(ev[0].evId, 0u);
    EXPECT_EQ(ev[0].to, MrcEvState::DENIED);
    EXPECT_EQ(ev[1].qpn, q2->GetQpn());
    EXPECT_EQ(ev[1].evId, 1u);
    // a second Install attaches nothing twice
    EXPECT_EQ(MrcController::Install(a), ctl);
    EXPECT_TRUE(ctl->ModifyEvState(q2->GetQpn(), 2, MrcEvState::DENIED));
    EXPECT_EQ(ctl->PollEvEvents(10).size(), 1u);
    Simulator::Destroy();
}

TEST(MrcPortStatus, ControllerPortAdminGoesThroughTheNic)
{
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    Ptr<MrcRdmaNic> a = MrcRdmaNic::GetNic(t->GetHost(0));
    Ptr<MrcController> ctl = MrcController::Install(a);
    std::vector<std::pair<uint32_t, bool>> admin;
    a->TraceConnectWithoutContext(
        "PortAdminState",
        MakeCallback(+[](std::vector<std::pair<uint32_t, bool>>* v, uint32_t p, bool up) {
            v->emplace_back(p, up);
        }).Bind(&admin));
    ctl->ModifyPort(1, false);
    EXPECT_FALSE(ctl->IsPortEnabled(1));
    EXPECT_FALSE(a->IsPortEnabled(1));
    EXPECT_TRUE(a->IsPortEnabled(0));
    EXPECT_FALSE(t->GetLink(t->GetHostLink(0, 1)).channel->IsLinkUp());
    a->SetPortEnabled(1, true); // the NIC's admin is the controller's
    EXPECT_TRUE(ctl->IsPortEnabled(1));
    EXPECT_TRUE(t->GetLink(t->GetHostLink(0, 1)).channel->IsLinkUp());
    ASSERT_EQ(admin.size(), 2u);
    EXPECT_EQ(admin[0], std::make_pair(1u, false));
    EXPECT_EQ(admin[1], std::make_pair(1u, true));
    Simulator::Destroy();
}
