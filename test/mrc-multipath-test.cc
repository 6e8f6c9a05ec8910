/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MRC queue pair (MrcMultipathQueuePair) on small 2-plane Clos fabrics built by the
// topology helper: one Write placed exactly once, spraying over both planes (structured
// and SRv6), random loss, a trimming incast without timeouts, Write-with-Immediate
// completions in MSN order, a dead path whose EV is retired, retries exhausted on a dead
// receiver, and a rejected operation.

#include "mrc-test-support.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-channel.h"
#include "ns3/mrc-congestion-ops.h"
#include "ns3/mrc-entropy.h"
#include "ns3/mrc-ev-table.h"
#include "ns3/mrc-multipath-helper.h"
#include "ns3/mrc-multipath-queue-pair.h"
#include "ns3/mrc-nscc.h"
#include "ns3/mrc-packet-info.h"
#include "ns3/mrc-raw-header.h"
#include "ns3/mrc-rdma-helper.h"
#include "ns3/mrc-rdma-nic.h"
#include "ns3/mrc-scenario.h"
#include "ns3/mrc-switch-node.h"
#include "ns3/mrc-topology-helper.h"
#include "ns3/mrc-topology.h"
#include "ns3/names.h"
#include "ns3/object-factory.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <iostream>
#include <map>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using ns3::MrcTest::Mp;
using ns3::MrcTest::TwoPlaneClos;
using ns3::MrcTest::WriteRequest;

namespace
{

/// Collects completions of both kinds.
using Log = MrcTest::CompletionLog;

/// Counts data packets that carry an outer (SRv6) IPv6 header.
struct EncapCounter
{
    uint32_t data{0};
    uint32_t encapsulated{0};
    uint32_t withTs{0};

    void Tx(Ptr<const Packet> p)
    {
        MrcPacketInfo info;
        if (MrcParsePacket(p, info) && info.hasBth && MrcOpcode::IsWrite(info.opcode))
        {
            ++data;
            encapsulated += info.encapsulated ? 1 : 0;
            withTs += (info.bthFlags & MRC_BTH_FLAG_TS) ? 1 : 0;
        }
    }
};

/// Drops the n-th received frame longer than 500 bytes (a data packet).
class DropNthData : public ErrorModel
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::MrcTestMultipathDropNth").SetParent<ErrorModel>().SetGroupName("Mrc");
        return tid;
    }

    uint32_t n{0};    //!< which frame
    uint32_t also{0}; //!< a second frame to drop (0: none)
    uint32_t seen{0}; //!< data frames seen

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        if (p->GetSize() <= 500)
        {
            return false;
        }
        ++seen;
        return seen == n || seen == also;
    }

    void DoReset() override
    {
    }
};

/// Counts EV state changes by reason.
struct EvReasons
{
    std::map<MrcEvReason, uint32_t> count;

    void Change(uint32_t, uint32_t, uint32_t, MrcEvState, MrcEvState, MrcEvReason r)
    {
        ++count[r];
    }
};

} // namespace

TEST(MrcMultipath, OneWriteCompletesExactlyOnce)
{
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    MrcMultipathHelper mrc;
    MrcRdmaHelper::Connection c = mrc.Connect(t, 0, 3, 1 << 20);
    EXPECT_EQ(Mp(c.requester)->AssignStreams(100), 2);
    Log log;
    log.Attach(c);
    const uint32_t bytes = 1 << 20;
    ASSERT_TRUE(c.requester->PostSend(WriteRequest(c, 7, bytes)));
    Simulator::Run();
    ASSERT_EQ(log.wc.size(), 1u);
    EXPECT_EQ(log.wc[0].status, MrcWcStatus::SUCCESS);
    EXPECT_EQ(log.wc[0].wrId, 7u);
    EXPECT_EQ(log.wc[0].bytes, bytes);
    EXPECT_TRUE(c.region->IsExactlyOnce(c.region->GetBase(), bytes));
    EXPECT_EQ(c.region->GetBytesPlaced(), bytes);
    EXPECT_EQ(c.region->GetDuplicateBytes(), 0u);
    const MrcQpCounters& tx = c.requester->GetCounters();
    const MrcQpCounters& rx = c.responder->GetCounters();
    EXPECT_EQ(tx.dataPacketsSent, 256u); // 1 MiB / 4096
    EXPECT_EQ(tx.retransmittedPackets, 0u);
    EXPECT_EQ(tx.timeouts, 0u);
    EXPECT_EQ(rx.bytesPlaced, bytes);
    EXPECT_EQ(rx.dataPacketsReceived, 256u);
    ASSERT_EQ(log.rc.size(), 1u); // MessageReceived of a plain Write
    EXPECT_EQ(log.rc[0].bytes, bytes);
    EXPECT_EQ(log.rc[0].address, c.region->GetBase());
    EXPECT_FALSE(log.rc[0].hasImmediate);
    EXPECT_EQ(Mp(c.requester)->GetOutstandingPsns(), 0u);
    EXPECT_EQ(c.requester->GetState(), MrcQpState::RTS);
    Simulator::Destroy();
}

TEST(MrcMultipath, SprayingUsesBothPlanes)
{
    for (MrcEvProfile::Format format : {MrcEvProfile::STRUCTURED, MrcEvProfile::SRV6})
    {
        Ptr<MrcTopology> t = TwoPlaneClos(4);
        MrcMultipathHelper mrc;
        const bool ts = format == MrcEvProfile::SRV6; // TSETH in one of the two runs
        mrc.SetQueuePairAttribute("Timestamps", BooleanValue(ts));
        MrcRdmaHelper::Connection c = mrc.Connect(t, 0, 3, 1 << 20, format);
        EncapCounter enc;
        c.requester->TraceConnectWithoutContext("Tx", MakeCallback(&EncapCounter::Tx, &enc));
        Log log;
        log.Attach(c);
        ASSERT_TRUE(c.requester->PostSend(WriteRequest(c, 1, 1 << 20)));
        Simulator::Run();
        ASSERT_EQ(log.wc.size(), 1u);
        EXPECT_EQ(log.wc[0].status, MrcWcStatus::SUCCESS);
        EXPECT_TRUE(c.region->IsExactlyOnce(c.region->GetBase(), 1 << 20));
        Ptr<MrcRdmaNic> nic = c.requester->GetNic();
        const uint64_t p0 = nic->GetTxDataPackets(0);
        const uint64_t p1 = nic->GetTxDataPackets(1);
        EXPECT_EQ(p0 + p1, 256u);
        // both 100G ports serve the QP round robin: the split is close to even
        EXPECT_GE(p0, 96u) << p0 << " / " << p1;
        EXPECT_GE(p1, 96u) << p0 << " / " << p1;
        EXPECT_EQ(enc.data, 256u);
        EXPECT_EQ(enc.encapsulated, format == MrcEvProfile::SRV6 ? 256u : 0u);
        EXPECT_EQ(enc.withTs, ts ? 256u : 0u);
        Ptr<MrcEvTable> evs = Mp(c.requester)->GetEvTable();
        // SRv6: one EV per path: 2 planes x 2 T1s
        if (format == MrcEvProfile::SRV6)
        {
            EXPECT_EQ(evs->GetActiveCount(), 4u);
        }
        else
        {
            EXPECT_EQ(evs->GetActiveCount(), 128u);
        }
        EXPECT_EQ(evs->GetActiveCount(0), evs->GetActiveCount(1));
        // both planes at full speed: well under the time of one 100G port (83.9 us)
        EXPECT_LT((log.wc[0].end - log.wc[0].start).GetMicroSeconds(), 75);
        Simulator::Destroy();
    }
}

namespace
{

/// Data packets per port of one 1 MiB Write (256 packets) from host 0 to host 3 of the
/// two-plane Clos by a QP whose NSCC window is held at 4 packets (16 KB, far below the
/// bandwidth-delay product of two 100G ports), with the requester NIC's PortOrder (empty:
/// the default).
std::pair<uint64_t, uint64_t>
WindowLimitedPortShares(const std::string& order)
{
    Config::SetDefault("ns3::MrcNscc::MaxCwnd", UintegerValue(16384));
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    MrcMultipathHelper mrc;
    MrcRdmaHelper::Connection c = mrc.Connect(t, 0, 3, 1 << 20);
    Ptr<MrcRdmaNic> nic = c.requester->GetNic();
    if (!order.empty())
    {
        nic->SetAttribute("PortOrder", StringValue(order));
    }
    Log log;
    log.Attach(c);
    EXPECT_TRUE(c.requester->PostSend(WriteRequest(c, 1, 1 << 20)));
    Simulator::Run();
    EXPECT_EQ(log.wc.size(), 1u);
    EXPECT_TRUE(c.region->IsExactlyOnce(c.region->GetBase(), 1 << 20));
    EXPECT_LE(c.requester->GetCcState().cwnd, 16384u);
    std::pair<uint64_t, uint64_t> shares{nic->GetTxDataPackets(0), nic->GetTxDataPackets(1)};
    Simulator::Destroy();
    Config::Reset();
    return shares;
}

/// Cut plane 0's link between host 0's T0 and T1 1 silently (before any traffic): the
/// dead path of the EV-retirement tests. \param t a TwoPlaneClos \return the cut link
const MrcTopologyLink&
CutPlane0Uplink(Ptr<MrcTopology> t)
{
    const MrcTopologyLink& dead =
        t->GetLink(t->GetSwitch(0, MrcTier::T0, 0), t->GetSwitch(0, MrcTier::T1, 1));
    dead.channel->SetLinkUp(false);
    return dead;
}

} // namespace

TEST(MrcMultipath, RoundRobinPortOrderGivesAWindowLimitedQpEqualPlaneShares)
{
    // Ascending: every SACK that frees window kicks both ports, port 0 is served first and takes
    // the freed packets, so plane 0 carries most of the Write.
    const auto asc = WindowLimitedPortShares("Ascending");
    EXPECT_EQ(asc.first + asc.second, 256u);
    EXPECT_GT(asc.first, 2 * asc.second) << asc.first << " / " << asc.second;
    // RoundRobin: each pass starts at the port after the last one that sent data, so the
    // two planes carry the Write in equal shares (within a few packets).
    const auto rr = WindowLimitedPortShares("RoundRobin");
    EXPECT_EQ(rr.first + rr.second, 256u);
    EXPECT_GE(rr.first, 120u) << rr.first << " / " << rr.second;
    EXPECT_GE(rr.second, 120u) << rr.first << " / " << rr.second;
}

TEST(MrcMultipath, DefaultPortOrderGivesAWindowLimitedQpEqualPlaneShares)
{
    // The default order keeps a window-limited QP's planes equally loaded ([P1] sec. 4: plane
    // loads stay equal). With Ascending as the default (before 2026-12-03) port 0 took most of
    // the Write and this test failed.
    const auto def = WindowLimitedPortShares("");
    EXPECT_EQ(def.first + def.second, 256u);
    EXPECT_GE(def.first, 120u) << def.first << " / " << def.second;
    EXPECT_GE(def.second, 120u) << def.first << " / " << def.second;
}

TEST(MrcMultipath, ExactlyOnceUnderRandomLossAcrossPsnWrap)
{
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    MrcMultipathHelper mrc;
    // PSNs start 256 below the 24-bit wrap: the transfer crosses it
    mrc.SetQueuePairAttribute("InitialPsn", UintegerValue(0xffff00));
    MrcRdmaHelper::Connection c = mrc.Connect(t, 0, 3, 4 << 20);
    // 2 % of the frames arriving at the receiver's two NIC ports are lost
    for (uint32_t p = 0; p < 2; ++p)
    {
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetAttribute("ErrorRate", DoubleValue(0.02));
        em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        em->AssignStreams(10 + p);
        t->GetNicPort(3, p)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }
    Log log;
    log.Attach(c);
    const uint32_t bytes = 4 << 20;
    ASSERT_TRUE(c.requester->PostSend(WriteRequest(c, 1, bytes)));
    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();
    ASSERT_EQ(log.wc.size(), 1u);
    EXPECT_EQ(log.wc[0].status, MrcWcStatus::SUCCESS);
    EXPECT_TRUE(c.region->IsExactlyOnce(c.region->GetBase(), bytes));
    EXPECT_EQ(c.region->GetDuplicateBytes(), 0u);
    EXPECT_EQ(c.responder->GetCounters().bytesPlaced, bytes);
    const MrcQpCounters& tx = c.requester->GetCounters();
    EXPECT_GT(tx.retransmittedPackets, 0u);
    EXPECT_EQ(tx.dataPacketsSent, 1024u + tx.retransmittedPackets);
    EXPECT_EQ(c.responder->GetCounters().duplicatePackets, 0u); // no spurious retransmission
    Simulator::Destroy();
}

TEST(MrcMultipath, TrimmingIncastWithoutTimeouts)
{
    // hosts 0, 1 (T0 0) and 2 (T0 1) write to host 3 (T0 1): 3:1 on host 3's downlinks
    Ptr<MrcTopology> t = TwoPlaneClos(4, true, 40000);
    MrcMultipathHelper mrc;
    std::vector<MrcRdmaHelper::Connection> conns;
    std::vector<Log> logs(3);
    const uint32_t bytes = 2 << 20;
    for (uint32_t s = 0; s < 3; ++s)
    {
        conns.push_back(mrc.Connect(t, s, 3, bytes, MrcEvProfile::STRUCTURED, (s + 1) << 28));
        logs[s].Attach(conns.back());
        ASSERT_TRUE(conns.back().requester->PostSend(WriteRequest(conns.back(), s, bytes)));
    }
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    uint64_t trims = 0;
    uint64_t timeouts = 0;
    for (uint32_t s = 0; s < 3; ++s)
    {
        ASSERT_EQ(logs[s].wc.size(), 1u) << "sender " << s;
        EXPECT_EQ(logs[s].wc[0].status, MrcWcStatus::SUCCESS);
        EXPECT_TRUE(conns[s].region->IsExactlyOnce(conns[s].region->GetBase(), bytes));
        trims += Mp(conns[s].requester)->GetMultipathCounters().trimNacksReceived;
        timeouts += conns[s].requester->GetCounters().timeouts;
        EXPECT_EQ(conns[s].responder->GetCounters().bytesPlaced, bytes);
    }
    EXPECT_GT(trims, 0u);
    EXPECT_EQ(timeouts, 0u);
    uint64_t drops = 0; // switches trimmed instead of dropping
    for (uint32_t i = 0; i < t->GetNSwitches(); ++i)
    {
        drops += t->GetSwitchById(i)->GetTotalDropPackets();
    }
    EXPECT_EQ(drops, 0u);
    Simulator::Destroy();
}

TEST(MrcMultipath, WriteWithImmediateCompletesInMsnOrder)
{
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    MrcMultipathHelper mrc;
    mrc.SetQueuePairAttribute("MaxWimm", UintegerValue(2));
    MrcRdmaHelper::Connection c = mrc.Connect(t, 0, 3, 1 << 20);
    Log log;
    log.Attach(c);
    const std::vector<uint32_t> sizes = {300000, 4096, 1, 65536, 0, 12345};
    uint64_t offset = 0;
    for (uint32_t i = 0; i < sizes.size(); ++i)
    {
        MrcWorkRequest wr = WriteRequest(c, i, sizes[i], offset);
        wr.opcode = MrcWrOpcode::WRITE_WITH_IMM;
        wr.immediate = 1000 + i;
        ASSERT_TRUE(c.requester->PostSend(wr));
        offset += sizes[i];
    }
    Simulator::Run();
    ASSERT_EQ(log.wc.size(), sizes.size());
    ASSERT_EQ(log.rc.size(), sizes.size());
    offset = 0;
    for (uint32_t i = 0; i < sizes.size(); ++i)
    {
        EXPECT_EQ(log.wc[i].wrId, i);
        EXPECT_EQ(log.wc[i].status, MrcWcStatus::SUCCESS);
        EXPECT_TRUE(log.rc[i].hasImmediate);
        EXPECT_EQ(log.rc[i].immediate, 1000 + i);
        EXPECT_EQ(log.rc[i].bytes, sizes[i]);
        if (sizes[i] > 0)
        {
            EXPECT_EQ(log.rc[i].address, c.region->GetBase() + offset);
        }
        if (i > 0)
        {
            EXPECT_GE(log.rc[i].end, log.rc[i - 1].end);
        }
        offset += sizes[i];
    }
    EXPECT_TRUE(c.region->IsExactlyOnce(c.region->GetBase(), offset));
    Simulator::Destroy();
}

TEST(MrcMultipath, DeadPathEvRetiredTrafficContinuesProbesRevive)
{
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    // plane 0: the link between host 0's T0 and T1 1 dies silently before the transfer
    const MrcTopologyLink& dead = CutPlane0Uplink(t);
    MrcMultipathHelper mrc;
    // The per-plane count rule: with the default Count rule the reordering between the two
    // planes retires a live EV as well in some EV orders (this one, since the helper fixes
    // the EV streams: it used to depend on the random variables created before); the test
    // is about the dead EV.
    mrc.SetQueuePairAttribute("LossRule", StringValue("Plane"));
    MrcRdmaHelper::Connection c = mrc.Connect(t, 0, 3, 4 << 20, MrcEvProfile::SRV6);
    Log log;
    log.Attach(c);
    const uint32_t bytes = 4 << 20;
    ASSERT_TRUE(c.requester->PostSend(WriteRequest(c, 1, bytes)));
    EvReasons reasons;
    Mp(c.requester)
        ->GetEvTable()
        ->TraceConnectWithoutContext("EvState", MakeCallback(&EvReasons::Change, &reasons));
    // ASSUMED_BAD EVs are probed forever: stop the clock
    Simulator::Stop(MilliSeconds(2)); // first probe: 0.5-1.5 ms after the retirement
    Simulator::Run();
    ASSERT_EQ(log.wc.size(), 1u);
    EXPECT_EQ(log.wc[0].status, MrcWcStatus::SUCCESS);
    EXPECT_TRUE(c.region->IsExactlyOnce(c.region->GetBase(), bytes));
    Ptr<MrcEvTable> evs = Mp(c.requester)->GetEvTable();
    const uint32_t deadEv = evs->FindByValue(MrcSrv6EvMake(0, 1));
    ASSERT_NE(deadEv, MrcEvTable::NO_EV);
    EXPECT_EQ(evs->GetState(deadEv), MrcEvState::ASSUMED_BAD);
    EXPECT_EQ(evs->CountInState(MrcEvState::ASSUMED_BAD), 1u);
    EXPECT_GT(evs->GetEntry(deadEv).probesSent, 0u);
    EXPECT_EQ(evs->GetEntry(deadEv).probeAnswers, 0u);
    // the three live EVs carried the rest; plane 0's other EV took plane 0's share
    for (uint32_t v : {MrcSrv6EvMake(0, 0), MrcSrv6EvMake(1, 0), MrcSrv6EvMake(1, 1)})
    {
        const uint32_t id = evs->FindByValue(v);
        ASSERT_NE(id, MrcEvTable::NO_EV);
        EXPECT_EQ(evs->GetState(id), MrcEvState::GOOD);
        EXPECT_GT(evs->GetEntry(id).sent, 100u);
    }
    EXPECT_LT(evs->GetEntry(deadEv).sent, 20u);
    EXPECT_EQ(c.requester->GetState(), MrcQpState::RTS);
    EXPECT_EQ(reasons.count[MrcEvReason::PROBE_REVIVED], 0u);
    // the link is repaired: probes on the retired EV are answered and revive it (3 answers)
    dead.channel->SetLinkUp(true);
    Simulator::Stop(MilliSeconds(10));
    Simulator::Run();
    EXPECT_EQ(reasons.count[MrcEvReason::PROBE_REVIVED], 1u);
    EXPECT_EQ(evs->GetState(deadEv), MrcEvState::GOOD);
    EXPECT_GE(evs->GetEntry(deadEv).probeAnswers, 3u);
    EXPECT_EQ(evs->GetActiveCount(0), 2u); // back in plane 0's active set
    Simulator::Destroy();
}

TEST(MrcMultipath, TimeoutMarksEvBadDecidesWhetherATimedOutPsnRetiresItsEv)
{
    // The dead path of DeadPathEvRetiredTrafficContinuesProbesRevive with the other ways
    // out of the active set closed (no loss inferred from SACKs, no retirement on inferred
    // loss, no dead-carrier rule): only the timeout finds the losses and can retire the dead
    // EV, and TimeoutMarksEvBad decides whether it does.
    std::map<bool, uint64_t> deadSent;
    for (bool marks : {true, false})
    {
        SCOPED_TRACE(marks ? "TimeoutMarksEvBad=true" : "TimeoutMarksEvBad=false");
        Ptr<MrcTopology> t = TwoPlaneClos(4);
        CutPlane0Uplink(t);
        MrcMultipathHelper mrc;
        mrc.SetQueuePairAttribute("LossRule", StringValue("Plane"));
        mrc.SetQueuePairAttribute("InferredLossMarksEvBad", BooleanValue(false));
        mrc.SetQueuePairAttribute("SleekRecovery", BooleanValue(false));
        mrc.SetQueuePairAttribute("PlaneReorderPsns", UintegerValue(0));
        mrc.SetQueuePairAttribute("GlobalReorderPsns", UintegerValue(0));
        mrc.SetQueuePairAttribute("ReorderPsns", UintegerValue(0));
        mrc.SetQueuePairAttribute("TimeoutMarksEvBad", BooleanValue(marks));
        MrcRdmaHelper::Connection c = mrc.Connect(t, 0, 3, 4 << 20, MrcEvProfile::SRV6);
        Ptr<MrcEvTable> evs = Mp(c.requester)->GetEvTable();
        evs->SetAttribute("CarrierLossEvs", UintegerValue(0));
        Log log;
        log.Attach(c);
        const uint32_t bytes = 4 << 20;
        ASSERT_TRUE(c.requester->PostSend(WriteRequest(c, 1, bytes)));
        EvReasons reasons;
        evs->TraceConnectWithoutContext("EvState", MakeCallback(&EvReasons::Change, &reasons));
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        ASSERT_EQ(log.wc.size(), 1u);
        EXPECT_EQ(log.wc[0].status, MrcWcStatus::SUCCESS);
        EXPECT_TRUE(c.region->IsExactlyOnce(c.region->GetBase(), bytes));
        const uint32_t deadEv = evs->FindByValue(MrcSrv6EvMake(0, 1));
        ASSERT_NE(deadEv, MrcEvTable::NO_EV);
        EXPECT_GT(Mp(c.requester)->GetMultipathCounters().timedOutPsns, 0u);
        EXPECT_EQ(reasons.count[MrcEvReason::LOSS_INFERRED], 0u);
        if (marks)
        {
            EXPECT_GE(reasons.count[MrcEvReason::TIMEOUT], 1u);
            EXPECT_EQ(evs->GetState(deadEv), MrcEvState::ASSUMED_BAD);
        }
        else
        {
            EXPECT_EQ(reasons.count[MrcEvReason::TIMEOUT], 0u);
            EXPECT_EQ(evs->CountInState(MrcEvState::ASSUMED_BAD), 0u);
            EXPECT_EQ(evs->GetState(deadEv), MrcEvState::GOOD);
        }
        std::cout << "[          ] TimeoutMarksEvBad=" << marks << ": completed at "
                  << log.wc[0].end.GetMicroSeconds() << " us, timed-out PSNs "
                  << Mp(c.requester)->GetMultipathCounters().timedOutPsns << ", dead EV sent "
                  << evs->GetEntry(deadEv).sent << "\n";
        deadSent[marks] = evs->GetEntry(deadEv).sent;
        Simulator::Destroy();
    }
    // kept active, the dead EV goes on taking its share of the packets (seed-fixed run:
    // 98 packets with the marking, 257 without)
    EXPECT_GT(deadSent[false], 2 * deadSent[true]);
}

TEST(MrcMultipath, NicPortDownMovesTrafficToTheOtherPlane)
{
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    MrcMultipathHelper mrc;
    MrcRdmaHelper::Connection c = mrc.Connect(t, 0, 3, 8 << 20);
    Log log;
    log.Attach(c);
    const uint32_t bytes = 8 << 20;
    ASSERT_TRUE(c.requester->PostSend(WriteRequest(c, 1, bytes)));
    // the requester's plane-1 port dies 20 us into the transfer
    Ptr<MrcChannel> ch = t->GetLink(t->GetHostLink(0, 1)).channel;
    Simulator::Schedule(MicroSeconds(20), &MrcChannel::SetLinkUp, ch, false);
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    ASSERT_EQ(log.wc.size(), 1u);
    EXPECT_EQ(log.wc[0].status, MrcWcStatus::SUCCESS);
    EXPECT_TRUE(c.region->IsExactlyOnce(c.region->GetBase(), bytes));
    Ptr<MrcEvTable> mine = Mp(c.requester)->GetEvTable();
    Ptr<MrcEvTable> peer = Mp(c.responder)->GetEvTable();
    EXPECT_FALSE(mine->IsPlaneUp(1));
    EXPECT_TRUE(mine->IsPlaneUp(0));
    // the peer learnt it from the Port Status Update (one per peer NIC, the default scope)
    EXPECT_EQ(c.requester->GetNic()->GetPortStatusSent(), 1u);
    EXPECT_EQ(c.requester->GetNic()->GetPortStatusAnswered(), 1u);
    EXPECT_EQ(Mp(c.responder)->GetMultipathCounters().portStatusReceived, 1u);
    EXPECT_FALSE(peer->IsPlaneUp(1));
    // plane-1 EVs were not blamed for the port: none is ASSUMED_BAD
    EXPECT_EQ(mine->CountInState(MrcEvState::ASSUMED_BAD), 0u);
    Ptr<MrcRdmaNic> nic = c.requester->GetNic();
    const uint64_t p0 = nic->GetTxDataPackets(0);
    const uint64_t p1 = nic->GetTxDataPackets(1);
    EXPECT_GE(p0 + p1, 2048u);
    EXPECT_GT(p0, 3 * p1) << p0 << " / " << p1; // plane 1 carried only the first 20 us
    Simulator::Destroy();
}

TEST(MrcMultipath, OutOfWindowIsNackedAndTheSenderLearnsMpr)
{
    // 10 us links: about 2 MB are in flight before the first SACK tells the window
    Ptr<MrcTopology> t = TwoPlaneClos(4, false, 125000, 0, MicroSeconds(10));
    // the requester assumes a 16 x 128 PSN window and has no congestion control; the
    // responder's window is 128 PSNs (Mpr 1)
    ObjectFactory fa("ns3::MrcMultipathQueuePair");
    fa.Set("CongestionControl", TypeIdValue(MrcNoCongestionControl::GetTypeId()));
    fa.Set("Mpr", UintegerValue(16));
    fa.Set("BaseRtt", TimeValue(MicroSeconds(10)));
    ObjectFactory fb("ns3::MrcMultipathQueuePair");
    fb.Set("Mpr", UintegerValue(1));
    fb.Set("BaseRtt", TimeValue(MicroSeconds(10)));
    Ptr<MrcRdmaNic> na = MrcRdmaNic::GetNic(t->GetHost(0));
    Ptr<MrcRdmaNic> nb = MrcRdmaNic::GetNic(t->GetHost(3));
    MrcRdmaHelper::Connection c;
    c.requester = na->CreateQueuePair(fa);
    c.responder = nb->CreateQueuePair(fb);
    MrcRdmaHelper::ConnectPair(c.requester, c.responder);
    c.region = nb->RegisterMemoryRegion(0x100000000ULL, 4 << 20);
    // one early packet is lost: the packets after it pile up above ePSN until, 128 PSNs
    // above the hole, they fall out of the responder's window
    Ptr<DropNthData> em = CreateObject<DropNthData>();
    em->n = 5;
    t->GetNicPort(3, 0)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    Log log;
    log.Attach(c);
    const uint32_t bytes = 4 << 20;
    ASSERT_TRUE(c.requester->PostSend(WriteRequest(c, 1, bytes)));
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    ASSERT_EQ(log.wc.size(), 1u);
    EXPECT_EQ(log.wc[0].status, MrcWcStatus::SUCCESS);
    EXPECT_TRUE(c.region->IsExactlyOnce(c.region->GetBase(), bytes));
    const uint64_t oor = Mp(c.responder)->GetMultipathCounters().oorNacksSent;
    EXPECT_GT(oor, 0u);
    EXPECT_EQ(c.requester->GetCounters().naksReceived, oor);
    EXPECT_EQ(Mp(c.requester)->GetPeerMpr(), 1u);
    EXPECT_EQ(c.requester->GetCounters().timeouts, 0u);
    // the NACKed packets and the lost one were sent again (and no packet was lost for good)
    EXPECT_GE(c.requester->GetCounters().retransmittedPackets, oor + 1);
    EXPECT_EQ(c.responder->GetCounters().bytesPlaced, bytes);
    Simulator::Destroy();
}

TEST(MrcMultipath, EcnEchoSkipsAndAlwaysSkipRetiresEvs)
{
    // every queued packet is marked, at every hop (the last one too)
    Ptr<MrcTopology> t = TwoPlaneClos(4, false, 125000, 1);
    MrcMultipathHelper mrc;
    mrc.SetQueuePairAttribute("AlwaysSkipCeRun", UintegerValue(2));
    std::vector<MrcRdmaHelper::Connection> conns;
    std::vector<Log> logs(2);
    EvReasons reasons;
    const uint32_t bytes = 4 << 20;
    for (uint32_t s = 0; s < 2; ++s)
    {
        conns.push_back(mrc.Connect(t, s, 3, bytes, MrcEvProfile::STRUCTURED, (s + 1) << 28));
        logs[s].Attach(conns.back());
        Mp(conns.back().requester)
            ->GetEvTable()
            ->TraceConnectWithoutContext("EvState", MakeCallback(&EvReasons::Change, &reasons));
        ASSERT_TRUE(conns.back().requester->PostSend(WriteRequest(conns.back(), s, bytes)));
    }
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    uint64_t marked = 0;
    for (uint32_t s = 0; s < 2; ++s)
    {
        ASSERT_EQ(logs[s].wc.size(), 1u);
        EXPECT_EQ(logs[s].wc[0].status, MrcWcStatus::SUCCESS);
        EXPECT_TRUE(conns[s].region->IsExactlyOnce(conns[s].region->GetBase(), bytes));
        marked += conns[s].responder->GetCounters().ecnMarkedReceived;
    }
    EXPECT_GT(marked, 0u);
    EXPECT_GT(reasons.count[MrcEvReason::ECN_ECHO], 0u);    // m = SKIP_ONCE: GOOD -> SKIP
    EXPECT_GT(reasons.count[MrcEvReason::ALWAYS_SKIP], 0u); // 2 CE in a row: ASSUMED_BAD
    EXPECT_GT(reasons.count[MrcEvReason::SKIP_EXPIRED], 0u);
    Simulator::Destroy();
}

TEST(MrcMultipath, RetriesExhaustedOnDeadReceiverEndInError)
{
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    for (uint32_t p = 0; p < 2; ++p)
    {
        t->GetLink(t->GetHostLink(3, p)).channel->SetLinkUp(false);
    }
    MrcMultipathHelper mrc;
    mrc.SetQueuePairAttribute("TimeoutExponent", UintegerValue(5)); // 32.768 us
    mrc.SetQueuePairAttribute("LinearCount", UintegerValue(2));
    mrc.SetQueuePairAttribute("ExpCount", UintegerValue(3));
    MrcRdmaHelper::Connection c = mrc.Connect(t, 0, 3, 1 << 20);
    Log log;
    log.Attach(c);
    ASSERT_TRUE(c.requester->PostSend(WriteRequest(c, 1, 1 << 20)));
    ASSERT_TRUE(c.requester->PostSend(WriteRequest(c, 2, 4096)));
    Simulator::Run(); // must end by itself: no hang
    ASSERT_EQ(log.wc.size(), 2u);
    EXPECT_EQ(log.wc[0].status, MrcWcStatus::RETRY_EXCEEDED);
    EXPECT_EQ(log.wc[1].status, MrcWcStatus::FLUSHED);
    EXPECT_EQ(c.requester->GetState(), MrcQpState::ERROR);
    EXPECT_EQ(c.requester->GetError(), MrcQpError::RETRY_EXCEEDED);
    EXPECT_NE(c.requester->GetErrorReason().find("retry counter exceeded"), std::string::npos);
    // 2 linear + 3 exponential retries, then the sixth expiry gives up
    EXPECT_EQ(c.requester->GetCounters().timeouts, 6u);
    // 32.768 us x (1 + 1 + 2 + 4 + 8 + 16) after the first send at the earliest
    EXPECT_GE(log.wc[0].end, NanoSeconds(32768 * 32));
    EXPECT_EQ(c.region->GetBytesPlaced(), 0u);
    EXPECT_FALSE(c.requester->PostSend(WriteRequest(c, 3, 10)));
    Simulator::Destroy();
}

TEST(MrcMultipath, UnsupportedOperationIsRejected)
{
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    MrcMultipathHelper mrc;
    MrcRdmaHelper::Connection c = mrc.Connect(t, 0, 3, 1 << 20);
    Log log;
    log.Attach(c);
    MrcWorkRequest wr = WriteRequest(c, 9, 100);
    wr.opcode = static_cast<MrcWrOpcode>(4); // e.g. an RDMA Read: not in MRC
    c.requester->PostSend(wr);
    ASSERT_EQ(log.wc.size(), 1u);
    EXPECT_EQ(log.wc[0].status, MrcWcStatus::LOCAL_OP_ERROR);
    EXPECT_EQ(c.requester->GetError(), MrcQpError::UNSUPPORTED_OPERATION);
    EXPECT_NE(c.requester->GetErrorReason().find("only RDMA Write"), std::string::npos);
    Simulator::Run();
    EXPECT_EQ(c.requester->GetCounters().dataPacketsSent, 0u);
    Simulator::Destroy();
}

TEST(MrcMultipath, AnyFamilyMemberServesAsEntropySelector)
{
    // the MRC queue pair talks to its path selector only through MrcPathSelector: a UEC
    // strategy named by TypeId replaces the EV table (it keeps a connection on one port)
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    MrcMultipathHelper mrc;
    mrc.SetQueuePairAttribute("EntropySelector",
                              TypeIdValue(TypeId::LookupByName("ns3::MrcUecObliviousSpray")));
    MrcRdmaHelper::Connection c = mrc.Connect(t, 0, 3, 1 << 20);
    Log log;
    log.Attach(c);
    const uint32_t bytes = 1 << 20;
    ASSERT_TRUE(c.requester->PostSend(WriteRequest(c, 7, bytes)));
    Simulator::Run();
    ASSERT_EQ(log.wc.size(), 1u);
    EXPECT_EQ(log.wc[0].status, MrcWcStatus::SUCCESS);
    EXPECT_TRUE(c.region->IsExactlyOnce(c.region->GetBase(), bytes));
    EXPECT_EQ(Mp(c.requester)->GetEvTable(), nullptr);
    Ptr<MrcPathSelector> s = Mp(c.requester)->GetEntropySelector();
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->GetInstanceTypeId().GetName(), "ns3::MrcUecObliviousSpray");
    Ptr<MrcRdmaNic> nic = c.requester->GetNic();
    const uint64_t p0 = nic->GetTxDataPackets(0);
    const uint64_t p1 = nic->GetTxDataPackets(1);
    EXPECT_EQ(p0 + p1, 256u);
    EXPECT_TRUE(p0 == 0 || p1 == 0) << p0 << " / " << p1;
    EXPECT_TRUE(s->UsesPort(p0 > 0 ? 0 : 1));
    EXPECT_GE(s->GetSelectCount(), 256u);
    EXPECT_EQ(s->GetNoPathCount(), 0u);
    EXPECT_GT(s->GetFeedbackCount(MrcPathSignal::GOOD), 0u);
    EXPECT_EQ(c.requester->GetCounters().timeouts, 0u);
    Simulator::Destroy();
}

TEST(MrcMultipath, EvTableIsTheDefaultEntropySelector)
{
    TypeId::AttributeInformation info;
    ASSERT_TRUE(MrcMultipathQueuePair::GetTypeId().LookupAttributeByName("EntropySelector", &info));
    EXPECT_EQ(info.initialValue->SerializeToString(info.checker), "ns3::MrcEvTable");
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    MrcMultipathHelper mrc;
    MrcRdmaHelper::Connection c = mrc.Connect(t, 0, 3, 1 << 20);
    Ptr<MrcPathSelector> s = Mp(c.requester)->GetEntropySelector();
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(PeekPointer(s), PeekPointer(Mp(c.requester)->GetEvTable()));
    EXPECT_EQ(Mp(c.requester)->GetEvTable()->GetActiveCount(0),
              Mp(c.requester)->GetEvTable()->GetActiveCount(1));
    Simulator::Destroy();
}

namespace
{
/// One 1 MiB Write (256 packets) from host 0 to host 3 of TwoPlaneClos(4), LossRule Path
/// with BackstopGuard, the n-th data frame host 3's port 0 receives dropped (0: none).
/// What one Write's run left: the requester's counters, its completion time, and whether
/// every byte was placed exactly once.
struct WriteRun
{
    MrcQpCounters tx;
    MrcMultipathCounters mp;
    Time done{0};
    bool exactlyOnce{false};
};

/// Post one Write of \p bytes on \p c, run the simulation to its end, expect one completion
/// and collect the outcome (the caller destroys the simulator).
WriteRun
RunOneWrite(const MrcRdmaHelper::Connection& c, uint32_t bytes)
{
    Log log;
    log.Attach(c);
    EXPECT_TRUE(c.requester->PostSend(WriteRequest(c, 1, bytes)));
    Simulator::Run();
    EXPECT_EQ(log.wc.size(), 1u);
    WriteRun r;
    r.done = log.wc.empty() ? Time(0) : log.wc[0].end;
    r.exactlyOnce = c.region->IsExactlyOnce(c.region->GetBase(), bytes);
    r.tx = c.requester->GetCounters();
    r.mp = Mp(c.requester)->GetMultipathCounters();
    return r;
}

using GuardRun = WriteRun;

GuardRun
RunWithGuard(uint32_t dropNth)
{
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    MrcMultipathHelper mrc;
    mrc.SetQueuePairAttribute("BackstopGuard", BooleanValue(true));
    MrcRdmaHelper::Connection c = mrc.Connect(t, 0, 3, 1 << 20);
    if (dropNth > 0)
    {
        Ptr<DropNthData> em = CreateObject<DropNthData>();
        em->n = dropNth;
        t->GetNicPort(3, 0)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }
    const GuardRun r = RunOneWrite(c, 1 << 20);
    Simulator::Destroy();
    return r;
}
} // namespace

TEST(MrcMultipath, BackstopGuardRecheckFindsATailLossBeforeTheTimeout)
{
    // loss-free: the guard holds nothing back past a SACK, the re-check timer never runs
    const GuardRun clean = RunWithGuard(0);
    EXPECT_TRUE(clean.exactlyOnce);
    EXPECT_EQ(clean.tx.retransmittedPackets, 0u);
    EXPECT_EQ(clean.mp.guardRechecks, 0u);
    // the 100th of the ~128 data packets on plane 0 is lost: fewer than ReorderPsns (3)
    // later PSNs of its path follow, the plane backstop's later PSNs are SACKed while the
    // guard still holds it, and no SACK comes after that. The re-check at its guard's
    // expiry finds it (measured: done at 62.3 us against 52.2 us without the loss; a loss
    // the guarded rules cannot see, 114th..128th packet, waits for the tail probe: 88.6 us).
    const GuardRun tail = RunWithGuard(100);
    EXPECT_TRUE(tail.exactlyOnce);
    EXPECT_EQ(tail.tx.timeouts, 0u);
    EXPECT_EQ(tail.mp.inferredLosses, 1u);
    EXPECT_EQ(tail.mp.guardRechecks, 1u);
    EXPECT_EQ(tail.mp.guardLosses, 1u);
    EXPECT_EQ(tail.tx.retransmittedPackets, 1u);
    EXPECT_LT(tail.done, clean.done + MicroSeconds(15));
}

namespace
{
/// One 1 MiB Write from host 0 to host 3 of TwoPlaneClos(4) (LossRule Path, guard off) with
/// two data frames of host 3's port 0 dropped: an early one, which marks its EV ASSUMED_BAD
/// so that the EV is probed every `probeEvery` (and never revived), and `tailFrame`, one the
/// count rules cannot find.
using TailRun = WriteRun;

TailRun
RunTailLossWhileProbing(uint32_t tailFrame, Time probeEvery)
{
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    MrcMultipathHelper mrc;
    MrcRdmaHelper::Connection c = mrc.Connect(t, 0, 3, 1 << 20);
    Ptr<MrcEvTable> evs = Mp(c.requester)->GetEvTable();
    evs->SetAttribute("ProbeInterval", TimeValue(probeEvery));
    evs->SetAttribute("ProbeJitter", DoubleValue(0));
    evs->SetAttribute("ReviveSuccesses", UintegerValue(1000));
    Ptr<DropNthData> em = CreateObject<DropNthData>();
    em->n = 20;
    em->also = tailFrame;
    t->GetNicPort(3, 0)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    const TailRun r = RunOneWrite(c, 1 << 20);
    Simulator::Destroy();
    return r;
}
} // namespace

TEST(MrcMultipath, EvProbeAnswersDoNotPostponeTheTailProbe)
{
    // EV probes answered every 1 us (shorter than the tail-probe delay) while the last
    // data frame of plane 0 is lost: the tail probe still goes out one delay after the
    // last data activity and finds the loss; the timeout never fires. (When EV-probe
    // answers restarted the tail-probe clock, this loss waited for the timeout: measured
    // done at 311.0 us with 1 timeout, against 88.9 us now; 52.6 us without the tail loss.)
    const TailRun r = RunTailLossWhileProbing(120, MicroSeconds(1));
    EXPECT_TRUE(r.exactlyOnce);
    EXPECT_GT(r.mp.probesAnswered, 10u); // the ASSUMED_BAD EV was probed all along
    EXPECT_EQ(r.tx.timeouts, 0u);
    EXPECT_EQ(r.tx.retransmittedPackets, 2u);
    EXPECT_LT(r.done, MicroSeconds(100));
}

namespace
{
/// Drops every frame and counts the short (control) ones.
class DropAllCounting : public ErrorModel
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::MrcTestMultipathDropAllCounting")
                                .SetParent<ErrorModel>()
                                .SetGroupName("Mrc");
        return tid;
    }

    uint32_t control{0};     //!< frames of at most 500 bytes dropped
    uint32_t controlLate{0}; //!< the same from `late` on
    Time late{MicroSeconds(50)};

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        const bool ctl = p->GetSize() <= 500;
        control += ctl ? 1 : 0;
        controlLate += ctl && Simulator::Now() >= late ? 1 : 0;
        return true;
    }

    void DoReset() override
    {
    }
};

/// Marks every ECN-capable frame CE (outer IPv6 header, and the inner one of IPv6-in-IPv6)
/// and lets it pass; counts the frames it marked.
class MarkEctCe : public ErrorModel
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::MrcTestMultipathMarkEctCe").SetParent<ErrorModel>().SetGroupName("Mrc");
        return tid;
    }

    uint32_t marked{0}; //!< frames marked CE

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        const uint32_t eth = 14;
        const uint32_t ip6 = 40;
        std::vector<uint8_t> b(p->GetSize());
        p->CopyData(b.data(), b.size());
        // ECN: bits 5..4 of the second IPv6 byte (traffic class bits 1..0)
        if (b.size() < eth + ip6 || ((b[eth + 1] >> 4) & 0x3) == 0)
        {
            return false;
        }
        b[eth + 1] |= 0x30;
        if (b[eth + 6] == 41 && b.size() >= eth + 2 * ip6)
        {
            b[eth + ip6 + 1] |= 0x30;
        }
        p->RemoveAtStart(p->GetSize());
        p->AddAtEnd(Create<Packet>(b.data(), b.size()));
        ++marked;
        return false;
    }

    void DoReset() override
    {
    }
};

/// One 4 MiB Write from host 0 to host 3 of TwoPlaneClos(4) (SRv6 EVs, one per T1) while the
/// link from host 3's T0 up to T1 1 of plane 0 drops everything: the data path (down from
/// T1 1) works, the reverse direction of EV (0, 1) is dead. With ceOnLive, the link from
/// host 3's T0 up to T1 0 of plane 0 (the reverse direction of the live EV (0, 0)) marks
/// every ECN-capable frame CE: there the only such frames are the responder's reverse-EV
/// probes (its SACKs are not ECN-capable).
struct ReverseRun
{
    uint32_t controlDropped{0};
    uint32_t controlDroppedLate{0}; //!< from 50 us on (plane 0 has a reverse EV by then)
    bool exactlyOnce{false};
    bool done{false};
    MrcMultipathCounters responder;
    MrcPathChoice reverse0;
    uint32_t reverse0Id{MrcEvTable::NO_EV};
    uint32_t liveId{MrcEvTable::NO_EV};
    uint32_t ceMarked{0}; //!< frames marked CE (ceOnLive)
};

ReverseRun
RunWithDeadReversePath(const std::string& reversePath,
                       Time probeInterval = Seconds(0),
                       bool sackEveryPacket = false,
                       bool ceOnLive = false)
{
    if (sackEveryPacket)
    {
        // one SACK per 4 KB data packet, on the plane the packet came in on
        Config::SetDefault("ns3::MrcSackPolicy::TriggerBytes", UintegerValue(4096));
    }
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    const MrcTopologyLink& up =
        t->GetLink(t->GetSwitch(0, MrcTier::T0, 1), t->GetSwitch(0, MrcTier::T1, 1));
    Ptr<DropAllCounting> em = CreateObject<DropAllCounting>();
    up.devB->SetAttribute("ReceiveErrorModel", PointerValue(em));
    Ptr<MarkEctCe> ce = CreateObject<MarkEctCe>();
    if (ceOnLive)
    {
        const MrcTopologyLink& live =
            t->GetLink(t->GetSwitch(0, MrcTier::T0, 1), t->GetSwitch(0, MrcTier::T1, 0));
        live.devB->SetAttribute("ReceiveErrorModel", PointerValue(ce));
    }
    MrcMultipathHelper mrc;
    mrc.SetQueuePairAttribute("ReversePath", StringValue(reversePath));
    mrc.SetQueuePairAttribute("ReverseProbeInterval", TimeValue(probeInterval));
    MrcRdmaHelper::Connection c = mrc.Connect(t, 0, 3, 4 << 20, MrcEvProfile::SRV6);
    Log log;
    log.Attach(c);
    const uint32_t bytes = 4 << 20;
    EXPECT_TRUE(c.requester->PostSend(WriteRequest(c, 1, bytes)));
    Simulator::Stop(MilliSeconds(2));
    Simulator::Run();
    ReverseRun r;
    r.controlDropped = em->control;
    r.controlDroppedLate = em->controlLate;
    r.ceMarked = ce->marked;
    r.done = log.wc.size() == 1 && log.wc[0].status == MrcWcStatus::SUCCESS;
    r.exactlyOnce = c.region->IsExactlyOnce(c.region->GetBase(), bytes);
    r.responder = Mp(c.responder)->GetMultipathCounters();
    r.reverse0 = Mp(c.responder)->GetReverseEv(0);
    Ptr<MrcEvTable> evs = Mp(c.responder)->GetEvTable();
    if (r.reverse0.port != MrcPathSelector::NO_PORT)
    {
        r.reverse0Id = evs->FindByValue(r.reverse0.ev);
    }
    r.liveId = evs->FindByValue(MrcSrv6EvMake(0, 0));
    Simulator::Destroy();
    Config::Reset();
    return r;
}
} // namespace

TEST(MrcMultipath, ProbedReversePathAvoidsADeadReverseEv)
{
    // One SACK per data packet, so each plane carries the SACKs of its own data. (With the
    // default 16 KB coalescing and two planes served in strict turn, every 4th packet, hence
    // nearly every SACK, falls on the same plane, and which plane that is depends on the
    // NIC's port order: 214 of the responder's control packets went on plane 0 with
    // PortOrder Ascending, 84 with RoundRobin, so the Rotate baseline below measured the
    // phase of the coalescing, not the reverse path.)
    // Rotate: the responder, which sends no data, never learns that EV (0, 1) is dead
    // backwards; about half of its plane-0 SACKs are lost all along (the cumulative SACK
    // covers them)
    const ReverseRun rot = RunWithDeadReversePath("Rotate", Seconds(0), true);
    EXPECT_TRUE(rot.done);
    EXPECT_TRUE(rot.exactlyOnce);
    EXPECT_EQ(rot.responder.revProbesSent, 0u);
    EXPECT_EQ(rot.reverse0.port, MrcPathSelector::NO_PORT);
    // Probed (P1 sec. 2.4): reverse-EV probes on EV (0, 1) are never answered, so plane 0's
    // reverse EV is (0, 0) once a probe on it is answered; only the SACKs before that are
    // lost, and later only the probes sent on the dead EV
    const ReverseRun prb = RunWithDeadReversePath("Probed", Seconds(0), true);
    EXPECT_TRUE(prb.done);
    EXPECT_TRUE(prb.exactlyOnce);
    EXPECT_GT(prb.responder.revProbesSent, 4u);
    EXPECT_GT(prb.responder.revProbesAnswered, 0u);
    EXPECT_LT(prb.responder.revProbesAnswered, prb.responder.revProbesSent);
    ASSERT_EQ(prb.reverse0.port, 0u);
    ASSERT_NE(prb.liveId, MrcEvTable::NO_EV);
    EXPECT_EQ(prb.reverse0Id, prb.liveId);
    std::cout << "control frames dropped: Rotate " << rot.controlDropped << " (from 50 us "
              << rot.controlDroppedLate << "), Probed " << prb.controlDropped << " (from 50 us "
              << prb.controlDroppedLate << "); reverse probes sent " << prb.responder.revProbesSent
              << " answered " << prb.responder.revProbesAnswered << "\n";
    EXPECT_GT(rot.controlDroppedLate, 100u);
    // from 50 us on, every frame Probed loses is an unanswered probe, no SACK
    EXPECT_LE(prb.controlDroppedLate,
              prb.responder.revProbesSent - prb.responder.revProbesAnswered);
    EXPECT_LT(prb.controlDropped * 4, rot.controlDropped);
}

TEST(MrcMultipath, ProbedReversePathTakesAnAnswerThatComesAfterTheNextProbe)
{
    // A reverse-EV probe every 0.5 us, far less than a round trip: every answer arrives after
    // later probes went out. P1 sec. 2.4 sets the reverse EV for any acknowledged probe, so
    // such an answer still counts (with only the latest probe remembered none would, and
    // plane 0 would never get a reverse EV). The dead EV (0, 1) is still never taken.
    const ReverseRun prb = RunWithDeadReversePath("Probed", NanoSeconds(500));
    EXPECT_TRUE(prb.done);
    EXPECT_TRUE(prb.exactlyOnce);
    EXPECT_GT(prb.responder.revProbesSent, 20u);
    EXPECT_GT(prb.responder.revProbesAnswered, 2u);
    ASSERT_EQ(prb.reverse0.port, 0u);
    ASSERT_NE(prb.liveId, MrcEvTable::NO_EV);
    EXPECT_EQ(prb.reverse0Id, prb.liveId);
    std::cout << "reverse probes sent " << prb.responder.revProbesSent << " answered "
              << prb.responder.revProbesAnswered << ", control frames dropped "
              << prb.controlDropped << "\n";
}

TEST(MrcMultipath, ProbedReversePathTakesAnAnsweredProbeThatArrivedCe)
{
    // P1 sec. 2.4: "if answered, it becomes that plane's reverse EV"; the answer P1 names (an
    // EV Probe's EETH response) carries no congestion mark. Here every reverse-EV probe on
    // the live EV (0, 0) arrives CE (so its answer, a SACK with pr = 1, carries m =
    // SKIP_ONCE) and EV (0, 1) is dead backwards: the answered EV (0, 0) must still become
    // plane 0's reverse EV. (Before session 16 a CE answer was ignored: plane 0 never got
    // a reverse EV and kept sending half its SACKs into the dead EV.)
    const ReverseRun prb = RunWithDeadReversePath("Probed", Seconds(0), true, true);
    EXPECT_TRUE(prb.done);
    EXPECT_TRUE(prb.exactlyOnce);
    EXPECT_GT(prb.ceMarked, 0u);
    EXPECT_GT(prb.responder.revAnsweredCe, 0u);
    EXPECT_LE(prb.responder.revAnsweredCe, prb.responder.revProbesAnswered);
    ASSERT_EQ(prb.reverse0.port, 0u);
    ASSERT_NE(prb.liveId, MrcEvTable::NO_EV);
    EXPECT_EQ(prb.reverse0Id, prb.liveId);
    std::cout << "frames marked CE " << prb.ceMarked << "; reverse probes sent "
              << prb.responder.revProbesSent << " answered " << prb.responder.revProbesAnswered
              << " (CE " << prb.responder.revAnsweredCe << "), control frames dropped "
              << prb.controlDropped << "\n";
}

namespace
{

/// Drops the frames longer than 500 bytes (data) until `until`; lets the rest pass.
class DropDataUntil : public ErrorModel
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::MrcTestMultipathDropDataUntil")
                                .SetParent<ErrorModel>()
                                .SetGroupName("Mrc");
        return tid;
    }

    Time until; //!< end of the drops

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        return p->GetSize() > 500 && Simulator::Now() < until;
    }

    void DoReset() override
    {
    }
};

/// One 4 MiB Write from host 0 to host 3 of TwoPlaneClos(4), ReversePath Probed, one SACK per
/// data packet. At `cut` the link from host 3's T0 up to the T1 of each plane's reverse EV
/// (the responder's, learned by then) starts dropping everything, for good: every control
/// packet of the responder goes into a dead link. From `cut` to `cut` + `stall` no data
/// reaches host 3's T0 (its links down from the T1s drop every frame longer than 500 bytes;
/// probes and their answers pass): the requester's data stops arriving, as when it stalls
/// because it hears no SACKs, while the Write is still incomplete. Recorded: the
/// responder's reverse-EV probes and the reverse EVs at `cut` + `look`.
struct ReverseCutRun
{
    bool done{false};
    bool exactlyOnce{false};
    uint32_t planesCut{0};      //!< planes that had a reverse EV at the cut
    uint32_t planesMoved{0};    //!< of those: reverse EV off the dead uplink at cut + look
    uint64_t probesAtCut{0};    //!< responder's reverse-EV probes sent before the cut
    uint64_t answeredAtCut{0};  //!< ... answered before the cut
    uint64_t probesByLook{0};   //!< ... by cut + look
    uint64_t answeredByLook{0}; //!< ... answered by cut + look
    MrcMultipathCounters requester;
    MrcMultipathCounters responder;
};

ReverseCutRun
RunReverseCutWhileStalled(Time cut, Time look, Time stall)
{
    Config::SetDefault("ns3::MrcSackPolicy::TriggerBytes", UintegerValue(4096));
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    MrcMultipathHelper mrc;
    mrc.SetQueuePairAttribute("ReversePath", StringValue("Probed"));
    MrcRdmaHelper::Connection c = mrc.Connect(t, 0, 3, 4 << 20, MrcEvProfile::SRV6);
    Log log;
    log.Attach(c);
    const uint32_t bytes = 4 << 20;
    EXPECT_TRUE(c.requester->PostSend(WriteRequest(c, 1, bytes)));
    Ptr<MrcMultipathQueuePair> rsp = Mp(c.responder);
    ReverseCutRun r;
    std::vector<uint32_t> deadUplink(2, MRC_SRV6_EV_MAX_UPLINKS); // none yet
    Simulator::Schedule(cut, [&]() {
        r.probesAtCut = rsp->GetMultipathCounters().revProbesSent;
        r.answeredAtCut = rsp->GetMultipathCounters().revProbesAnswered;
        for (uint32_t plane = 0; plane < 2; ++plane)
        {
            const MrcPathChoice rev = rsp->GetReverseEv(plane);
            if (rev.port == MrcPathSelector::NO_PORT)
            {
                continue;
            }
            ++r.planesCut;
            deadUplink[plane] = MrcSrv6EvUplink(rev.ev);
            const MrcTopologyLink& up =
                t->GetLink(t->GetSwitch(plane, MrcTier::T0, 1),
                           t->GetSwitch(plane, MrcTier::T1, deadUplink[plane]));
            up.devB->SetAttribute("ReceiveErrorModel",
                                  PointerValue(CreateObject<DropAllCounting>()));
        }
        for (uint32_t plane = 0; plane < 2; ++plane)
        {
            for (uint32_t t1 = 0; t1 < 2; ++t1)
            {
                Ptr<DropDataUntil> em = CreateObject<DropDataUntil>();
                em->until = cut + stall;
                t->GetLink(t->GetSwitch(plane, MrcTier::T0, 1),
                           t->GetSwitch(plane, MrcTier::T1, t1))
                    .devA->SetAttribute("ReceiveErrorModel", PointerValue(em));
            }
        }
    });
    Simulator::Schedule(cut + look, [&]() {
        r.probesByLook = rsp->GetMultipathCounters().revProbesSent;
        r.answeredByLook = rsp->GetMultipathCounters().revProbesAnswered;
        for (uint32_t plane = 0; plane < 2; ++plane)
        {
            const MrcPathChoice rev = rsp->GetReverseEv(plane);
            r.planesMoved +=
                rev.port != MrcPathSelector::NO_PORT && MrcSrv6EvUplink(rev.ev) != deadUplink[plane]
                    ? 1
                    : 0;
        }
    });
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    r.done = log.wc.size() == 1 && log.wc[0].status == MrcWcStatus::SUCCESS;
    r.exactlyOnce = c.region->IsExactlyOnce(c.region->GetBase(), bytes);
    r.requester = Mp(c.requester)->GetMultipathCounters();
    r.responder = rsp->GetMultipathCounters();
    Simulator::Destroy();
    Config::Reset();
    return r;
}

} // namespace

TEST(MrcMultipath, ProbedReversePathKeepsProbingWhileTheInboundMessageIsIncomplete)
{
    // P1 (mrc-protocol.md sec. 5 "Reverse path", sec. 6 "Probe interval"): a QP probes a random
    // EV each RTT that it is active inbound. Here both planes' reverse EVs die at 40 us, in
    // the middle of a 4 MiB Write, and from then on no data arrives for 200 us (as when the
    // requester stalls because every SACK is lost). The responder's message is incomplete,
    // so it keeps probing once per BaseRtt and finds a live EV on each plane within 100 us.
    // (Until session 16 the probes went only in an interval in which data arrived: they
    // stopped with the data, and the reverse EVs stayed dead until data came again.)
    const ReverseCutRun r =
        RunReverseCutWhileStalled(MicroSeconds(40), MicroSeconds(100), MicroSeconds(200));
    std::cout << "planes cut " << r.planesCut << ", moved off the dead uplink by +100 us "
              << r.planesMoved << "; reverse probes before the cut " << r.probesAtCut
              << " (answered " << r.answeredAtCut << "), by +100 us " << r.probesByLook
              << " (answered " << r.answeredByLook << "), in all " << r.responder.revProbesSent
              << "; requester's "
              << "PSNs timed out " << r.requester.timedOutPsns << "\n";
    EXPECT_TRUE(r.done);
    EXPECT_TRUE(r.exactlyOnce);
    EXPECT_EQ(r.planesCut, 2u);
    EXPECT_EQ(r.planesMoved, 2u);
    // about one probe per BaseRtt while no data arrives (11 in the 100 us; 1 when the probes
    // stopped with the data), and answers to probes sent after the cut
    EXPECT_GE(r.probesByLook - r.probesAtCut, 8u);
    EXPECT_GT(r.answeredByLook, r.answeredAtCut);
    // and stops once the Write is complete: the run lasts 5 ms, and probing each BaseRtt all
    // along would take hundreds of probes (90 in all)
    EXPECT_LT(r.responder.revProbesSent, 200u);
}

namespace
{

/// FCTs (ns) of the 15 -> 1 incast of 1 MB per sender on the k = 4 fat-tree (the incast
/// of MrcNsccFairness.MrcIncastWithinTwiceByPosition): the same-T0 sender's and the
/// fastest and slowest of all.
struct IncastFcts
{
    int64_t sameT0{-1};  //!< the sender under the receiver's own T0
    int64_t fastest{-1}; //!< the fastest sender
    int64_t slowest{-1}; //!< the slowest sender
};

IncastFcts
RunFatTreeIncast(const std::string& seed,
                 const std::vector<std::pair<std::string, std::string>>& attributes)
{
    // the per-path cap of sessions 17-18 (max_wnd from the QP's own base RTT), under
    // which the probes' effect was measured; the mrc profile's cap since session 19 is
    // one for every QP (MrcNsccFairness.MrcProfileMaxCwndBringsTheSameT0SenderBackWithinTwice)
    MrcScenarioConfig c = MrcTest::FatTreeIncastConfig("mrc", seed, attributes);
    c.attributeOverrides.emplace_back("ns3::MrcNscc::MaxWndFollowsBaseRtt", "true");
    MrcScenarioRunner r(c);
    r.Run();
    IncastFcts f;
    f.fastest = INT64_MAX;
    for (const MrcFlowRecord& flow : r.GetResults().GetFlows())
    {
        EXPECT_TRUE(flow.IsCompleted()) << "src " << flow.src;
        f.fastest = std::min(f.fastest, flow.FctNs());
        f.slowest = std::max(f.slowest, flow.FctNs());
        if (flow.src / 2 == flow.dst / 2)
        {
            f.sameT0 = flow.FctNs();
        }
    }
    Simulator::Destroy();
    Names::Clear();
    Config::Reset();
    return f;
}

} // namespace

TEST(MrcMultipath, PerRttReverseProbeAnswersMoveTheIncastsSameT0SenderAhead)
{
    // The incast of MrcNsccFairness.MrcIncastWithinTwiceByPosition with P1 sec. 2.4's
    // reverse path (ReversePath Probed) is outside that test's bound at seed 4 (of seeds
    // 1-30: 4, 17, 25, 30): the same-T0 sender finishes before half of the slowest. What moves it
    // is the probe per RTT itself: the receiver's 15 QPs each probe once per BaseRtt while active
    // inbound, and the answers (control class) cross the incast's last hop ahead of the data. A
    // diagnostic build that sends the probes but not their answers is as fair as Rotate; one that
    // uses no reverse EV but answers is as unfair as Probed (session 15). With one reverse probe
    // per QP (ReverseProbeInterval 1 s) the bound holds. How the answers do it:
    // IncastSameT0WindowTurnsWhereItsDelayCrossesTheNsccTarget. Seed 4:
    const std::vector<std::pair<std::string, std::string>> probed = {
        {"ns3::MrcMultipathQueuePair::ReversePath", "Probed"}};
    const IncastFcts rot =
        RunFatTreeIncast("4", {{"ns3::MrcMultipathQueuePair::ReversePath", "Rotate"}});
    const IncastFcts prb = RunFatTreeIncast("4", probed);
    std::vector<std::pair<std::string, std::string>> once = probed;
    once.emplace_back("ns3::MrcMultipathQueuePair::ReverseProbeInterval", "1s");
    const IncastFcts one = RunFatTreeIncast("4", once);
    std::cout << "same-T0 / fastest / slowest FCT (ns): Rotate " << rot.sameT0 << " / "
              << rot.fastest << " / " << rot.slowest << "; Probed " << prb.sameT0 << " / "
              << prb.fastest << " / " << prb.slowest << "; Probed, one probe " << one.sameT0
              << " / " << one.fastest << " / " << one.slowest << "\n";
    // Rotate: within the bound, the same-T0 sender among the last
    EXPECT_GE(2 * rot.fastest, rot.slowest);
    EXPECT_GT(rot.sameT0, rot.fastest);
    // Probed: the same-T0 sender first, before half of the slowest (669 us of 1,344 us)
    EXPECT_EQ(prb.sameT0, prb.fastest);
    EXPECT_LT(2 * prb.sameT0, prb.slowest);
    // Probed with one reverse probe per QP: within the bound again
    EXPECT_GE(2 * one.fastest, one.slowest);
    EXPECT_GT(one.sameT0, one.fastest);
}

namespace
{

/// What the same-T0 sender's NSCC saw in the incast of RunFatTreeIncast (from 100 us on).
struct SameT0Nscc
{
    uint64_t samples{0};     //!< its ACKs with a valid RTT sample
    uint64_t aboveTarget{0}; //!< ... of them with a queuing delay at or above the target
    double cwnd{0};          //!< its time-mean window from 100 us to its FCT (B)
    double othersCwnd{0};    //!< the median of the other 14 senders' (each to its own FCT)
};

/// One sender's trace: ACK decisions and window changes.
struct NsccTrace
{
    uint64_t samples{0};                            //!< ACKs with a sample, from 100 us
    uint64_t aboveTarget{0};                        //!< ... delay >= target
    std::vector<std::pair<int64_t, uint64_t>> cwnd; //!< (time ns, new cwnd)
    int64_t fctNs{0};                               //!< its FCT
};

/// Counts one ACK decision of a sender. \param t its trace \param r the ACK
void
OnNsccDecision(NsccTrace* t, const MrcNsccAckRecord& r)
{
    if (r.rttSample.IsStrictlyPositive() && Simulator::Now() >= MicroSeconds(100))
    {
        ++t->samples;
        t->aboveTarget += r.delay >= r.target ? 1 : 0;
    }
}

/// Records a window change. \param t the sender's trace \param newCwnd the new window (B)
void
OnNsccCwnd(NsccTrace* t, uint64_t /* oldCwnd */, uint64_t newCwnd)
{
    t->cwnd.emplace_back(Simulator::Now().GetNanoSeconds(), newCwnd);
}

/// \return the time-mean window of \p t from 100 us to its FCT
double
MeanCwndFrom100Us(const NsccTrace& t)
{
    const int64_t from = 100000;
    uint64_t cur = 0;
    std::size_t i = 0;
    for (; i < t.cwnd.size() && t.cwnd[i].first <= from; ++i)
    {
        cur = t.cwnd[i].second;
    }
    double area = 0;
    int64_t at = from;
    for (; i < t.cwnd.size() && t.cwnd[i].first <= t.fctNs; ++i)
    {
        area += static_cast<double>(cur) * static_cast<double>(t.cwnd[i].first - at);
        at = t.cwnd[i].first;
        cur = t.cwnd[i].second;
    }
    area += static_cast<double>(cur) * static_cast<double>(t.fctNs - at);
    return area / static_cast<double>(t.fctNs - from);
}

/// Runs that incast with every sender's NSCC traced. \param seed the seed \param
/// attributes overrides \return the same-T0 sender's figures against the others'
SameT0Nscc
RunTracedFatTreeIncast(const std::string& seed,
                       const std::vector<std::pair<std::string, std::string>>& attributes)
{
    MrcScenarioConfig c = MrcTest::FatTreeIncastConfig("mrc", seed, attributes);
    c.attributeOverrides.emplace_back("ns3::MrcNscc::MaxWndFollowsBaseRtt", "true"); // as above
    MrcScenarioRunner r(c);
    r.Build();
    std::map<uint32_t, NsccTrace> traces;
    for (std::size_t i = 0; i < r.GetRequesters().size(); ++i)
    {
        Ptr<MrcNscc> n = DynamicCast<MrcNscc>(r.GetRequesters()[i]->GetCongestionOps());
        EXPECT_TRUE(n) << "sender " << i << " runs no NSCC";
        if (n)
        {
            NsccTrace* t = &traces[r.GetMessages()[i].src];
            n->TraceConnectWithoutContext("AckDecision", MakeBoundCallback(&OnNsccDecision, t));
            n->TraceConnectWithoutContext("Cwnd", MakeBoundCallback(&OnNsccCwnd, t));
        }
    }
    r.Run();
    uint32_t sameT0 = 0;
    for (const MrcFlowRecord& flow : r.GetResults().GetFlows())
    {
        EXPECT_TRUE(flow.IsCompleted()) << "src " << flow.src;
        traces[flow.src].fctNs = flow.FctNs();
        sameT0 = flow.src / 2 == flow.dst / 2 ? flow.src : sameT0;
    }
    EXPECT_EQ(traces.size(), 15u);
    SameT0Nscc s;
    std::vector<double> others;
    for (const auto& [src, t] : traces)
    {
        if (src == sameT0)
        {
            s.samples = t.samples;
            s.aboveTarget = t.aboveTarget;
            s.cwnd = MeanCwndFrom100Us(t);
        }
        else
        {
            others.push_back(MeanCwndFrom100Us(t));
        }
    }
    std::sort(others.begin(), others.end());
    s.othersCwnd = others.empty() ? 0.0 : others[others.size() / 2];
    Simulator::Destroy();
    Names::Clear();
    Config::Reset();
    return s;
}

} // namespace

TEST(MrcMultipath, IncastSameT0WindowTurnsWhereItsDelayCrossesTheNsccTarget)
{
    // The mechanism behind PerRttReverseProbeAnswersMoveTheIncastsSameT0SenderAhead (issue
    // 18, session 17). The incast's last hop holds its data queue at the trim threshold:
    // 125,000 B = 29 frames of 4,234 B, 9.82 us at 100 Gb/s, just under NSCC's target delay
    // (10.59 us). The same-T0 sender's queuing delay (RTT minus its own 4.4 us base) sits
    // at that edge. Below the target NSCC's increase is proportional to (target - delay),
    // near zero there, while each trim NACK takes an MTU: its window stays at a third to
    // a half of the others'. At or above the target the fair increase (a constant per
    // byte) applies and the window rises to the others'; with its shorter RTT (15 against
    // 19-24 us) it then gets up to twice their rate. P1's per-RTT reverse probes put it
    // there: the 15 answers per BaseRtt cross the last hop in the control class, ahead of
    // the data (1.3 % of the port). One frame more of standing queue does the same with
    // no probe at all. Seed 4 (measured: Rotate 6 of 98 samples at or above the target,
    // window 10.7 KB against the others' 26.4 KB; Probed 54 of 105, 27.4 against 25.1 KB;
    // Rotate with TrimThreshold 130,000 B, 30 frames, 59 of 137, 22.0 against 25.6 KB).
    const std::pair<std::string, std::string> rotate = {"ns3::MrcMultipathQueuePair::ReversePath",
                                                        "Rotate"};
    const SameT0Nscc rot = RunTracedFatTreeIncast("4", {rotate});
    const SameT0Nscc prb =
        RunTracedFatTreeIncast("4", {{"ns3::MrcMultipathQueuePair::ReversePath", "Probed"}});
    const SameT0Nscc deeper =
        RunTracedFatTreeIncast("4", {rotate, {"ns3::MrcTrimmer::TrimThreshold", "130000"}});
    for (const SameT0Nscc* s : {&rot, &prb, &deeper})
    {
        std::cout << "same-T0 samples at or above the target " << s->aboveTarget << " of "
                  << s->samples << ", window " << s->cwnd << " B, others' median " << s->othersCwnd
                  << " B\n";
        ASSERT_GT(s->samples, 50u);
        ASSERT_GT(s->othersCwnd, 0.0);
    }
    // Rotate: under the target, the window held at well under the others'
    EXPECT_LT(10 * rot.aboveTarget, rot.samples);
    EXPECT_LT(rot.cwnd, 0.6 * rot.othersCwnd);
    // Probed, and Rotate with one frame more of queue: over the target, about the others'
    for (const SameT0Nscc* s : {&prb, &deeper})
    {
        EXPECT_GT(10 * s->aboveTarget, 3 * s->samples);
        EXPECT_GT(s->cwnd, 0.8 * s->othersCwnd);
    }
}

namespace
{
/// Drops the n-th data frame and then the first retransmitted data frame (BTH RTX set)
/// it sees; one instance serves both NIC ports of the receiver.
class DropDataAndItsRetx : public ErrorModel
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::MrcTestMultipathDropDataAndItsRetx")
                                .SetParent<ErrorModel>()
                                .SetGroupName("Mrc");
        return tid;
    }

    uint32_t n{0};           //!< which data frame
    uint32_t seen{0};        //!< data frames seen
    uint32_t retxDropped{0}; //!< retransmissions dropped (at most 1)

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        // the frame still carries its Ethernet header here (MrcNetDevice::Receive)
        Ptr<Packet> ip = p->Copy();
        ip->RemoveAtStart(MrcRawHeader::ETHERNET_BYTES);
        MrcPacketInfo info;
        if (!MrcParsePacket(ip, info) || !info.hasBth || !MrcOpcode::IsWrite(info.opcode))
        {
            return false;
        }
        if (info.bthFlags & MrcBthHeader::RTX_BIT)
        {
            if (retxDropped == 0 && seen >= n)
            {
                ++retxDropped;
                return true;
            }
            return false;
        }
        ++seen;
        return seen == n;
    }

    void DoReset() override
    {
    }
};

struct RetxLossRun : WriteRun
{
    uint32_t retxDropped{0}; //!< retransmissions the error model dropped
};

/// One 1 MiB Write from host 0 to host 3 of TwoPlaneClos(4) (LossRule Path, the helper's
/// BaseRtt) with the 20th data frame lost and then its retransmission lost too.
RetxLossRun
RunRetxLoss(double reorderTimeRtts, bool retxBackstop = false)
{
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    MrcMultipathHelper mrc;
    mrc.SetQueuePairAttribute("RetxBackstop", BooleanValue(retxBackstop));
    if (reorderTimeRtts > 0)
    {
        mrc.SetQueuePairAttribute("ReorderTimeRtts", DoubleValue(reorderTimeRtts));
    }
    MrcRdmaHelper::Connection c = mrc.Connect(t, 0, 3, 1 << 20);
    Ptr<DropDataAndItsRetx> em = CreateObject<DropDataAndItsRetx>();
    em->n = 20;
    t->GetNicPort(3, 0)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    t->GetNicPort(3, 1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    RetxLossRun r;
    static_cast<WriteRun&>(r) = RunOneWrite(c, 1 << 20);
    r.retxDropped = em->retxDropped;
    Simulator::Destroy();
    return r;
}
} // namespace

TEST(MrcMultipath, ReorderTimeRttsFindsALostRetransmissionFromSacks)
{
    // the default is 0: no time rule under LossRule Path (doc/mrc.rst, measured reason)
    TypeId::AttributeInformation info;
    ASSERT_TRUE(MrcMultipathQueuePair::GetTypeId().LookupAttributeByName("ReorderTimeRtts", &info));
    EXPECT_EQ(info.initialValue->SerializeToString(info.checker), "0");
    // Without RetxBackstop: the first loss is found by the path count, its lost
    // retransmission by no count rule (they look at first transmissions only), so it waits
    // for the tail probe once the message's last PSNs are out (measured: done at 88.9 us).
    const RetxLossRun off = RunRetxLoss(0);
    EXPECT_TRUE(off.exactlyOnce);
    EXPECT_EQ(off.retxDropped, 1u);
    EXPECT_EQ(off.tx.timeouts, 0u);
    // ReorderTimeRtts 1 (window = BaseRtt, protocol reference sec. 9): the PSNs sent a
    // BaseRtt after the lost retransmission are SACKed, so the time rule finds it while
    // the message is still being sent (measured: done at 52.6 us, about the loss-free
    // 52.2 us of BackstopGuardRecheckFindsATailLossBeforeTheTimeout's clean run).
    const RetxLossRun on = RunRetxLoss(1.0);
    EXPECT_TRUE(on.exactlyOnce);
    EXPECT_EQ(on.retxDropped, 1u);
    EXPECT_EQ(on.tx.timeouts, 0u);
    EXPECT_EQ(on.tx.retransmittedPackets, 2u);
    EXPECT_LT(on.done + MicroSeconds(20), off.done);
    // The default RetxBackstop (true since session 19) finds the same lost retransmission
    // by the plane count in send order without the time rule, as early (measured: 52.6 us).
    const RetxLossRun backstop = RunRetxLoss(0, true);
    EXPECT_TRUE(backstop.exactlyOnce);
    EXPECT_EQ(backstop.retxDropped, 1u);
    EXPECT_EQ(backstop.tx.timeouts, 0u);
    EXPECT_EQ(backstop.tx.retransmittedPackets, 2u);
    EXPECT_LT(backstop.done + MicroSeconds(20), off.done);
}

namespace
{

/// One 4 MiB Write from host 0 to host 3 of TwoPlaneClos(4) while the responder's NIC
/// marks CE every data packet that arrives on the planes in `marked` (no switch marks).
struct MarkedPlanesRun
{
    bool exactlyOnce{false};
    bool done{false};
    MrcMultipathCounters responder; //!< the responder's counters
    uint32_t alwaysSkipRetired{0};  //!< the requester's EVs retired by m = ALWAYS_SKIP
    uint32_t ceMarked{0};           //!< data frames marked CE
};

MarkedPlanesRun
RunMarkedPlanes(const std::string& rule, const std::vector<uint32_t>& marked)
{
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    MrcMultipathHelper mrc;
    mrc.SetQueuePairAttribute("AlwaysSkipRule", StringValue(rule));
    const uint32_t bytes = 4 << 20;
    MrcRdmaHelper::Connection c = mrc.Connect(t, 0, 3, bytes);
    std::vector<Ptr<MarkEctCe>> ce;
    for (uint32_t p : marked)
    {
        ce.push_back(CreateObject<MarkEctCe>());
        t->GetNicPort(3, p)->SetAttribute("ReceiveErrorModel", PointerValue(ce.back()));
    }
    EvReasons reasons;
    Mp(c.requester)
        ->GetEvTable()
        ->TraceConnectWithoutContext("EvState", MakeCallback(&EvReasons::Change, &reasons));
    Log log;
    log.Attach(c);
    EXPECT_TRUE(c.requester->PostSend(WriteRequest(c, 1, bytes)));
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    MarkedPlanesRun r;
    r.done = log.wc.size() == 1 && log.wc[0].status == MrcWcStatus::SUCCESS;
    r.exactlyOnce = c.region->IsExactlyOnce(c.region->GetBase(), bytes);
    r.responder = Mp(c.responder)->GetMultipathCounters();
    r.alwaysSkipRetired = reasons.count[MrcEvReason::ALWAYS_SKIP];
    for (const Ptr<MarkEctCe>& m : ce)
    {
        r.ceMarked += m->marked;
    }
    Simulator::Destroy();
    return r;
}

} // namespace

TEST(MrcMultipath, AlwaysSkipRelativeWithholdsItWhenOnlyThePlaneIsMarked)
{
    // every data packet on plane 0 arrives CE, none on plane 1: the CE runs are the
    // plane's, not an EV's. CeRun retires plane-0 EVs; Relative answers SKIP_ONCE.
    const MarkedPlanesRun ceRun = RunMarkedPlanes("CeRun", {0});
    ASSERT_TRUE(ceRun.done);
    EXPECT_TRUE(ceRun.exactlyOnce);
    EXPECT_GT(ceRun.ceMarked, 100u);
    EXPECT_GT(ceRun.responder.alwaysSkipSent, 0u);
    EXPECT_EQ(ceRun.responder.alwaysSkipWithheld, 0u);
    EXPECT_GT(ceRun.alwaysSkipRetired, 0u);

    const MarkedPlanesRun relative = RunMarkedPlanes("Relative", {0});
    ASSERT_TRUE(relative.done);
    EXPECT_TRUE(relative.exactlyOnce);
    EXPECT_GT(relative.ceMarked, 100u);
    EXPECT_EQ(relative.responder.alwaysSkipSent, 0u);
    EXPECT_GT(relative.responder.alwaysSkipWithheld, 0u);
    EXPECT_EQ(relative.alwaysSkipRetired, 0u);
}

TEST(MrcMultipath, AlwaysSkipRelativeAnswersAsCeRunWhenEveryPlaneIsMarked)
{
    // both planes marked: nothing to tell a bad path from a bottleneck by, so Relative
    // answers ALWAYS_SKIP as CeRun does
    const MarkedPlanesRun relative = RunMarkedPlanes("Relative", {0, 1});
    ASSERT_TRUE(relative.done);
    EXPECT_TRUE(relative.exactlyOnce);
    EXPECT_GT(relative.responder.alwaysSkipSent, 0u);
    EXPECT_EQ(relative.responder.alwaysSkipWithheld, 0u);
    EXPECT_GT(relative.alwaysSkipRetired, 0u);
}

TEST(MrcMultipath, ConnectedQpKeepsNoCopyOfItsEvCandidates)
{
    // A QP's EV table is made from its candidates at RTR; the QP and the table then drop
    // their copies (32 B a candidate each, on both ends of every connection: in an
    // all-to-all, one connection per host pair). Two connections with the default
    // profile (128 active + 64 backup EVs) from 256 and from 4,096 candidates hold the same
    // memory: with the copies kept, the second held 2 x 2 x 3,840 x 32 = 491,520 B more.
    Ptr<MrcTopology> t = TwoPlaneClos(4);
    Ptr<MrcRdmaNic> na = MrcRdmaNic::GetNic(t->GetHost(0));
    Ptr<MrcRdmaNic> nb = MrcRdmaNic::GetNic(t->GetHost(3));
    ObjectFactory f("ns3::MrcMultipathQueuePair");
    f.Set("BaseRtt", TimeValue(MicroSeconds(10)));
    auto connectedBytes = [&](uint32_t n) {
        std::vector<MrcEvCandidate> cands;
        for (uint32_t i = 0; i < n; ++i)
        {
            cands.push_back(MrcEvCandidate::Structured(i % 2, static_cast<uint16_t>(i + 1)));
        }
        const double before = MrcTest::HeapBytesInUse();
        MrcRdmaHelper::Connection c;
        c.requester = na->CreateQueuePair(f);
        c.responder = nb->CreateQueuePair(f);
        Mp(c.requester)->SetEvCandidates(cands);
        Mp(c.responder)->SetEvCandidates(cands);
        MrcRdmaHelper::ConnectPair(c.requester, c.responder);
        EXPECT_EQ(Mp(c.requester)->GetEvTable()->GetEvCount(), 192u);
        return MrcTest::HeapBytesInUse() - before;
    };
    const double small = connectedBytes(256);
    const double large = connectedBytes(4096);
    if (small > 0)
    {
        std::cout << "heap bytes of a connected QP pair: " << small << " (256 candidates), "
                  << large << " (4,096)" << std::endl;
        EXPECT_LT(std::abs(large - small), 16384.0);
        EXPECT_GT(small, 10000.0); // the measure works: two EV tables of 192 EVs
    }
    Simulator::Destroy();
}
