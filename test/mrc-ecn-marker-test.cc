/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the RED-style ECN marker.

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/ipv6-header.h"
#include "ns3/mrc-ecn-marker.h"
#include "ns3/mrc-traffic-class.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

/// Kmin 10,000 B, Kmax 50,000 B, Pmax 0.2, stream 7.
Ptr<MrcEcnMarker>
MakeMarker(int64_t stream = 7)
{
    Ptr<MrcEcnMarker> m = CreateObject<MrcEcnMarker>();
    m->SetAttribute("Kmin", UintegerValue(10000));
    m->SetAttribute("Kmax", UintegerValue(50000));
    m->SetAttribute("Pmax", DoubleValue(0.2));
    m->SetAttribute("ControlClass", UintegerValue(7));
    EXPECT_EQ(m->AssignStreams(stream), 1);
    return m;
}

Ptr<Packet>
MakeIpPacket(MrcEcn ecn)
{
    Ptr<Packet> p = Create<Packet>(1000);
    Ipv6Header ip;
    ip.SetSource(Ipv6Address("fd00::1"));
    ip.SetDestination(Ipv6Address("fd00::2"));
    ip.SetNextHeader(17);
    ip.SetPayloadLength(1000);
    ip.SetHopLimit(64);
    ip.SetTrafficClass(MrcMakeTrafficClass(MrcDscp::TRIMMABLE, ecn));
    ip.SetFlowLabel(0x12345);
    p->AddHeader(ip);
    return p;
}

Ipv6Header
HeaderOf(Ptr<Packet> p)
{
    Ipv6Header ip;
    p->PeekHeader(ip);
    return ip;
}

} // namespace

TEST(EcnMarker, MarkingFractionFollowsTheRedLine)
{
    Ptr<MrcEcnMarker> m = MakeMarker();
    const int n = 20000;
    for (uint64_t q : {12000u, 20000u, 30000u, 45000u, 50000u})
    {
        const double expected = 0.2 * (static_cast<double>(q) - 10000) / 40000;
        EXPECT_DOUBLE_EQ(m->GetProbability(q), expected);
        int marks = 0;
        for (int i = 0; i < n; ++i)
        {
            marks += m->ShouldMark(q);
        }
        EXPECT_NEAR(static_cast<double>(marks) / n, expected, 0.03) << "queue " << q;
    }
}

TEST(EcnMarker, NothingBelowKminEverythingAboveKmax)
{
    Ptr<MrcEcnMarker> m = MakeMarker();
    for (uint64_t q : {0u, 5000u, 10000u})
    {
        EXPECT_EQ(m->GetProbability(q), 0.0);
        for (int i = 0; i < 10000; ++i)
        {
            ASSERT_FALSE(m->ShouldMark(q)) << "queue " << q;
        }
    }
    for (uint64_t q : {50001u, 100000u, 10000000u})
    {
        EXPECT_EQ(m->GetProbability(q), 1.0);
        for (int i = 0; i < 10000; ++i)
        {
            ASSERT_TRUE(m->ShouldMark(q)) << "queue " << q;
        }
    }
}

TEST(EcnMarker, StreamsMakeDecisionsReproducible)
{
    Ptr<MrcEcnMarker> a = MakeMarker(3);
    Ptr<MrcEcnMarker> b = MakeMarker(3);
    Ptr<MrcEcnMarker> c = MakeMarker(4);
    std::vector<bool> da;
    std::vector<bool> db;
    std::vector<bool> dc;
    for (int i = 0; i < 2000; ++i)
    {
        da.push_back(a->ShouldMark(30000));
        db.push_back(b->ShouldMark(30000));
        dc.push_back(c->ShouldMark(30000));
    }
    EXPECT_EQ(da, db);
    EXPECT_NE(da, dc);
}

TEST(EcnMarker, MarksOnlyEcnCapableNonControlPackets)
{
    Ptr<MrcEcnMarker> m = MakeMarker();
    Ptr<Packet> ect = MakeIpPacket(MrcEcn::ECT0);
    EXPECT_TRUE(m->MaybeMark(ect, 60000, 3));
    EXPECT_EQ(MrcGetEcn(HeaderOf(ect)), MrcEcn::CE);
    EXPECT_EQ(MrcGetDscp(HeaderOf(ect)), MrcDscp::TRIMMABLE);
    EXPECT_EQ(HeaderOf(ect).GetFlowLabel(), 0x12345u);
    EXPECT_EQ(ect->GetSize(), 1040u);

    Ptr<Packet> ect1 = MakeIpPacket(MrcEcn::ECT1);
    EXPECT_FALSE(m->MaybeMark(ect1, 5000, 3)); // below Kmin
    EXPECT_EQ(MrcGetEcn(HeaderOf(ect1)), MrcEcn::ECT1);

    Ptr<Packet> notEct = MakeIpPacket(MrcEcn::NOT_ECT);
    EXPECT_FALSE(m->MaybeMark(notEct, 60000, 3));
    EXPECT_EQ(MrcGetEcn(HeaderOf(notEct)), MrcEcn::NOT_ECT);

    Ptr<Packet> control = MakeIpPacket(MrcEcn::ECT0);
    EXPECT_FALSE(m->MaybeMark(control, 60000, 7)); // the control class
    EXPECT_FALSE(m->MarkPacket(control, 7));
    EXPECT_EQ(MrcGetEcn(HeaderOf(control)), MrcEcn::ECT0);
    EXPECT_TRUE(m->MarkPacket(control, 2));
    EXPECT_EQ(MrcGetEcn(HeaderOf(control)), MrcEcn::CE);
    EXPECT_EQ(m->GetMarkCount(), 1u);

    // Packets that cannot be marked consume no random draw.
    Ptr<MrcEcnMarker> a = MakeMarker(9);
    Ptr<MrcEcnMarker> b = MakeMarker(9);
    for (int i = 0; i < 100; ++i)
    {
        a->MaybeMark(MakeIpPacket(MrcEcn::NOT_ECT), 30000, 3);
        a->MaybeMark(MakeIpPacket(MrcEcn::ECT0), 30000, 7);
    }
    for (int i = 0; i < 500; ++i)
    {
        ASSERT_EQ(a->ShouldMark(30000), b->ShouldMark(30000)) << i;
    }
}

TEST(EcnMarker, DefaultsAndHelpers)
{
    Ptr<MrcEcnMarker> m = CreateObject<MrcEcnMarker>();
    EXPECT_EQ(m->GetMarkPoint(), MrcEcnMarker::DEQUEUE);
    UintegerValue kmin;
    UintegerValue kmax;
    m->GetAttribute("Kmin", kmin);
    m->GetAttribute("Kmax", kmax);
    EXPECT_EQ(kmin.Get(), 400000u);
    EXPECT_EQ(kmax.Get(), 1600000u);
    m->SetAttribute("MarkAt", StringValue("Enqueue"));
    EXPECT_EQ(m->GetMarkPoint(), MrcEcnMarker::ENQUEUE);

    uint64_t lo = 0;
    uint64_t hi = 0;
    MrcEcnMarker::HpccThresholds(DataRate("25Gbps"), lo, hi);
    EXPECT_EQ(lo, 100000u);
    EXPECT_EQ(hi, 400000u);
    MrcEcnMarker::HpccThresholds(DataRate("100Gbps"), lo, hi);
    EXPECT_EQ(lo, 400000u);
    EXPECT_EQ(hi, 1600000u);

    EXPECT_TRUE(m->IsActiveOn(true));
    EXPECT_TRUE(m->IsActiveOn(false));
    m->SetAttribute("NoEcnToHost", BooleanValue(true));
    EXPECT_FALSE(m->IsActiveOn(true));
    EXPECT_TRUE(m->IsActiveOn(false));

    // Kmin == Kmax: a step at K.
    m->SetAttribute("Kmin", UintegerValue(1000));
    m->SetAttribute("Kmax", UintegerValue(1000));
    EXPECT_FALSE(m->ShouldMark(1000));
    EXPECT_TRUE(m->ShouldMark(1001));
}

TEST(EcnMarkerDeathTest, KminAboveKmaxAborts)
{
    Ptr<MrcEcnMarker> m = CreateObject<MrcEcnMarker>();
    m->SetAttribute("Kmin", UintegerValue(500));
    m->SetAttribute("Kmax", UintegerValue(100));
    EXPECT_DEATH(m->ShouldMark(300), "Kmin 500 B is larger than Kmax 100 B");
}
