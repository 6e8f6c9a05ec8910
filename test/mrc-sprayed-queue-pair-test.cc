/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The skeleton shared by the sprayed transports (MrcSprayedQueuePair): message reassembly
// in MSN order, the shared attributes registered once under each transport's own TypeId
// (own defaults, Config::SetDefault by class name touches one transport only), MRC
// without a PathSelector attribute, and the queue-pair base counting and tracing once
// (every traced packet is counted in exactly one counter, on UEC and on MRC).

#include "mrc-test-support.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/mrc-memory-region.h"
#include "ns3/mrc-message-reassembly.h"
#include "ns3/mrc-multipath-helper.h"
#include "ns3/mrc-multipath-queue-pair.h"
#include "ns3/mrc-rdma-helper.h"
#include "ns3/mrc-roce-queue-pair.h"
#include "ns3/mrc-sprayed-queue-pair.h"
#include "ns3/mrc-topology-helper.h"
#include "ns3/mrc-uec-queue-pair.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// \param tid a TypeId \param name an attribute \return true if tid itself declares it
bool
OwnAttribute(TypeId tid, const std::string& name)
{
    for (uint32_t i = 0; i < tid.GetAttributeN(); ++i)
    {
        if (tid.GetAttribute(i).name == name)
        {
            return true;
        }
    }
    return false;
}

/// The attributes MrcSprayedQueuePair::AddSprayedAttributes registers.
const std::vector<std::string> SHARED = {"ServiceTime",
                                         "RcvDrainRate",
                                         "RcvBusyBytes",
                                         "RcvRestoreSacks",
                                         "ReorderPsns",
                                         "ReorderTime",
                                         "DataDscp",
                                         "RetxDscp",
                                         "ControlDscp",
                                         "TrimmedDscp",
                                         "TrimmedLastHopDscp",
                                         "EcnCapable"};

/// Counts the packets a QP traces.
struct TraceCount
{
    uint64_t tx{0}; //!< Tx trace calls
    uint64_t rx{0}; //!< Rx trace calls

    void Tx(Ptr<const Packet>)
    {
        ++tx;
    }

    void Rx(Ptr<const Packet>)
    {
        ++rx;
    }

    void Attach(Ptr<MrcQueuePair> qp)
    {
        qp->TraceConnectWithoutContext("Tx", MakeCallback(&TraceCount::Tx, this));
        qp->TraceConnectWithoutContext("Rx", MakeCallback(&TraceCount::Rx, this));
    }
};

} // namespace

TEST(MrcMessageReassembly, ReportsInMsnOrderOnceEveryByteArrived)
{
    MrcMessageReassembly r;
    MrcRecvCompletion rc;
    EXPECT_FALSE(r.HasPending());
    EXPECT_FALSE(r.PopComplete(rc));
    // message 1 (8 KB) completes before message 0 (8 KB): nothing is reported yet
    EXPECT_FALSE(r.OnPlaced(1, 8192, 7, 0x3000, 4096, MicroSeconds(1), false, 0));
    EXPECT_FALSE(r.OnPlaced(1, 8192, 7, 0x2000, 4096, MicroSeconds(2), true, 0xabc));
    EXPECT_TRUE(r.HasPending());
    EXPECT_FALSE(r.PopComplete(rc));
    EXPECT_FALSE(r.OnPlaced(0, 8192, 7, 0x1000, 4096, MicroSeconds(3), false, 0));
    EXPECT_FALSE(r.PopComplete(rc));
    EXPECT_TRUE(r.OnPlaced(0, 8192, 7, 0x0000, 4096, MicroSeconds(4), false, 0));
    ASSERT_TRUE(r.PopComplete(rc));
    EXPECT_EQ(rc.address, 0x0000u);
    EXPECT_EQ(rc.bytes, 8192u);
    EXPECT_EQ(rc.rkey, 7u);
    EXPECT_FALSE(rc.hasImmediate);
    EXPECT_EQ(rc.firstPacket, MicroSeconds(3));
    EXPECT_EQ(rc.end, MicroSeconds(4));
    ASSERT_TRUE(r.PopComplete(rc));
    EXPECT_EQ(rc.address, 0x2000u); // the lowest address of the message
    EXPECT_TRUE(rc.hasImmediate);
    EXPECT_EQ(rc.immediate, 0xabcu);
    EXPECT_EQ(rc.firstPacket, MicroSeconds(1));
    EXPECT_EQ(rc.end, MicroSeconds(2));
    EXPECT_FALSE(r.PopComplete(rc));
    EXPECT_FALSE(r.HasPending());
    EXPECT_EQ(r.GetNextMsn(), 2u);
    EXPECT_EQ(r.GetImmediateCount(), 1u);
}

TEST(MrcMessageReassembly, MsnWrapsAtSixteenBits)
{
    MrcMessageReassembly r;
    MrcRecvCompletion rc;
    // 65537 zero-length messages: the 16-bit MSN wraps, the count does not
    for (uint32_t i = 0; i < 65537; ++i)
    {
        ASSERT_TRUE(r.OnPlaced(static_cast<uint16_t>(i), 0, 1, i, 0, Seconds(0), false, 0));
        ASSERT_TRUE(r.PopComplete(rc));
    }
    EXPECT_EQ(r.GetNextMsn(), 65537u);
    // MSN 1 after the wrap is the next one; MSN 3 waits for 2
    EXPECT_FALSE(r.OnPlaced(3, 10, 1, 0, 10, Seconds(0), false, 0));
    EXPECT_TRUE(r.OnPlaced(1, 10, 1, 0, 10, Seconds(0), false, 0));
    ASSERT_TRUE(r.PopComplete(rc));
    EXPECT_FALSE(r.PopComplete(rc));
    EXPECT_TRUE(r.HasPending());
    EXPECT_EQ(r.GetNextMsn(), 65538u);
}

TEST(MrcSprayedQueuePair, SharedAttributesAreOwnedByEachTransport)
{
    const TypeId uec = MrcUecQueuePair::GetTypeId();
    const TypeId mrc = MrcMultipathQueuePair::GetTypeId();
    EXPECT_EQ(uec.GetParent(), MrcSprayedQueuePair::GetTypeId());
    EXPECT_EQ(mrc.GetParent(), MrcSprayedQueuePair::GetTypeId());
    EXPECT_EQ(MrcSprayedQueuePair::GetTypeId().GetAttributeN(), 0u);
    for (const std::string& name : SHARED)
    {
        // own attributes: ns-3.37's Config::SetDefaultFailSafe and the profile checks
        // look at the named class only
        EXPECT_TRUE(OwnAttribute(uec, name)) << name;
        EXPECT_TRUE(OwnAttribute(mrc, name)) << name;
    }
    TypeId::AttributeInformation info;
    ASSERT_TRUE(uec.LookupAttributeByName("ReorderPsns", &info));
    EXPECT_EQ(info.initialValue->SerializeToString(info.checker), "0");
    ASSERT_TRUE(mrc.LookupAttributeByName("ReorderPsns", &info));
    EXPECT_EQ(info.initialValue->SerializeToString(info.checker), "3");
    // MRC takes its paths from the EV table: no PathSelector; the others keep theirs
    EXPECT_FALSE(mrc.LookupAttributeByName("PathSelector", &info));
    EXPECT_TRUE(OwnAttribute(uec, "PathSelector"));
    EXPECT_TRUE(OwnAttribute(MrcRoceQueuePair::GetTypeId(), "PathSelector"));
}

TEST(MrcSprayedQueuePair, SetDefaultByClassNameTouchesOneTransport)
{
    Config::SetDefault("ns3::MrcUecQueuePair::ReorderPsns", UintegerValue(9));
    Config::SetDefault("ns3::MrcMultipathQueuePair::DataDscp", UintegerValue(5));
    Ptr<MrcUecQueuePair> u = CreateObject<MrcUecQueuePair>();
    Ptr<MrcMultipathQueuePair> m = CreateObject<MrcMultipathQueuePair>();
    UintegerValue v;
    u->GetAttribute("ReorderPsns", v);
    EXPECT_EQ(v.Get(), 9u);
    m->GetAttribute("ReorderPsns", v);
    EXPECT_EQ(v.Get(), 3u);
    u->GetAttribute("DataDscp", v);
    EXPECT_EQ(v.Get(), 4u);
    m->GetAttribute("DataDscp", v);
    EXPECT_EQ(v.Get(), 5u);
    Config::SetDefault("ns3::MrcUecQueuePair::ReorderPsns", UintegerValue(0));
    Config::SetDefault("ns3::MrcMultipathQueuePair::DataDscp", UintegerValue(4));
}

TEST(MrcSprayedQueuePair, UecCountsEveryTracedPacketOnce)
{
    Ptr<MrcTopology> t = MrcTest::OnePlaneClos(4);
    MrcRdmaHelper rdma;
    rdma.SetQueuePairType("ns3::MrcUecQueuePair");
    rdma.SetQueuePairAttribute("BaseRtt", TimeValue(MicroSeconds(8)));
    MrcTest::InstallNicsOnPlane0(rdma, t);
    const uint32_t bytes = 100 * 4096 + 100;
    MrcRdmaHelper::Connection c = rdma.Connect(t->GetHost(0), t->GetHost(3), bytes);
    TraceCount req;
    TraceCount rsp;
    req.Attach(c.requester);
    rsp.Attach(c.responder);
    ASSERT_TRUE(c.requester->PostSend(MrcTest::WriteRequest(c, 1, bytes)));
    Simulator::Run();
    const MrcQpCounters& tx = c.requester->GetCounters();
    const MrcQpCounters& rx = c.responder->GetCounters();
    Ptr<MrcUecQueuePair> u = DynamicCast<MrcUecQueuePair>(c.requester);
    Ptr<MrcUecQueuePair> v = DynamicCast<MrcUecQueuePair>(c.responder);
    EXPECT_EQ(tx.messagesCompleted, 1u);
    EXPECT_EQ(rx.messagesReceived, 1u);
    EXPECT_EQ(tx.dataPacketsSent, 101u); // 100 full packets and one of 100 bytes
    EXPECT_EQ(tx.dataBytesSent, bytes);
    EXPECT_EQ(tx.retransmittedPackets, 0u);
    EXPECT_EQ(rx.dataPacketsReceived, 101u);
    EXPECT_EQ(rx.bytesPlaced, bytes);
    // every packet traced once and counted in one counter
    EXPECT_EQ(req.tx, tx.dataPacketsSent + u->GetUecCounters().baseRttProbesSent);
    EXPECT_EQ(rsp.tx, rx.acksSent + rx.naksSent);
    EXPECT_EQ(rsp.rx, rx.dataPacketsReceived + u->GetUecCounters().baseRttProbesSent);
    EXPECT_EQ(req.rx, tx.acksReceived + tx.naksReceived);
    EXPECT_EQ(tx.acksReceived, rx.acksSent); // nothing lost
    EXPECT_EQ(v->GetUecCounters().probesAnswered, u->GetUecCounters().baseRttProbesSent);
    EXPECT_GT(rx.acksSent, 0u);
    EXPECT_EQ(u->GetOutstandingPsns(), 0u);
    Simulator::Destroy();
}

TEST(MrcSprayedQueuePair, MrcCountsEveryTracedPacketOnce)
{
    Ptr<MrcTopology> t = MrcTest::TwoPlaneClos(4);
    MrcMultipathHelper mrc;
    const uint32_t bytes = 64 * 4096;
    MrcRdmaHelper::Connection c = mrc.Connect(t, 0, 3, bytes);
    Ptr<MrcMultipathQueuePair> m = MrcTest::Mp(c.requester);
    Ptr<MrcMultipathQueuePair> n = MrcTest::Mp(c.responder);
    ASSERT_TRUE(m && n);
    EXPECT_EQ(m->GetPathSelector(), nullptr); // no selector it would never read
    TraceCount req;
    TraceCount rsp;
    req.Attach(c.requester);
    rsp.Attach(c.responder);
    ASSERT_TRUE(c.requester->PostSend(MrcTest::WriteRequest(c, 1, bytes)));
    Simulator::Run();
    const MrcQpCounters& tx = c.requester->GetCounters();
    const MrcQpCounters& rx = c.responder->GetCounters();
    const MrcMultipathCounters& mtx = m->GetMultipathCounters();
    const MrcMultipathCounters& mrx = n->GetMultipathCounters();
    EXPECT_EQ(tx.messagesCompleted, 1u);
    EXPECT_EQ(rx.messagesReceived, 1u);
    EXPECT_EQ(tx.dataPacketsSent, 64u);
    EXPECT_EQ(tx.dataBytesSent, bytes);
    EXPECT_EQ(rx.dataPacketsReceived, 64u);
    EXPECT_EQ(rx.bytesPlaced, bytes);
    EXPECT_EQ(mrx.transportAcksSent, 1u); // TransportAckMessages 1: one per message
    // The responder's reverse-EV probes (ReversePath Probed) and the requester's answers
    // (SACKs with pr = 1) are counted too: probesSent and acksSent on the side that sends.
    EXPECT_EQ(mrx.probesSent, mrx.revProbesSent);
    EXPECT_GT(mrx.revProbesSent, 0u); // the default reverse path probes ([P1] 2.4, Probed)
    EXPECT_EQ(req.tx, tx.dataPacketsSent + mtx.probesSent + mtx.portStatusSent + tx.acksSent);
    EXPECT_EQ(rsp.tx, rx.acksSent + rx.naksSent + mrx.transportAcksSent + mrx.probesSent);
    EXPECT_EQ(req.rx, tx.acksReceived + tx.naksReceived + mtx.transportAcksRcvd + mrx.probesSent);
    EXPECT_EQ(tx.acksReceived, rx.acksSent);
    EXPECT_EQ(rx.acksReceived, tx.acksSent); // nothing lost: every probe answered
    EXPECT_EQ(mrx.revProbesAnswered, mrx.revProbesSent);
    EXPECT_EQ(mtx.transportAcksRcvd, 1u);
    EXPECT_GT(rx.acksSent, 0u);
    EXPECT_EQ(m->GetOutstandingPsns(), 0u);
    Simulator::Destroy();
}
