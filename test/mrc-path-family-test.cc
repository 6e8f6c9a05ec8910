/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the path-selection family: every member (RoCE's fixed entropy, the UEC spraying
// strategies, the MRC EV table) created by TypeId name with an ObjectFactory and driven only
// through the MrcPathSelector interface (Init, UsesPort, Select, Feedback, statistics).

#include "ns3/boolean.h"
#include "ns3/mrc-entropy.h"
#include "ns3/mrc-ev-profile.h"
#include "ns3/mrc-ev-table.h"
#include "ns3/mrc-path-selector.h"
#include "ns3/mrc-uec-path-selector.h"
#include "ns3/object-factory.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Every concrete member of the family.
const std::vector<std::string> FAMILY = {
    "ns3::MrcFixedEntropyPathSelector",
    "ns3::MrcUecObliviousSpray",
    "ns3::MrcUecBitmapSelector",
    "ns3::MrcUecReps",
    "ns3::MrcUecMixedSelector",
    "ns3::MrcUecSinglePath",
    "ns3::MrcEvTable",
};

/// A member created by TypeId name, as a queue pair does from its PathSelector attribute.
Ptr<MrcPathSelector>
Make(const std::string& type)
{
    ObjectFactory f(type);
    return f.Create<MrcPathSelector>();
}

/// A structured profile of `evCount` active and `backup` backup EVs on a fixed stream.
Ptr<MrcEvProfile>
StructuredProfile(uint32_t evCount, uint32_t backup)
{
    Ptr<MrcEvProfile> prof = CreateObject<MrcEvProfile>();
    prof->SetFormat(MrcEvProfile::STRUCTURED);
    prof->SetAttribute("EvCount", UintegerValue(evCount));
    prof->SetAttribute("BackupCount", UintegerValue(backup));
    prof->AssignStreams(21);
    return prof;
}

/// \return the EV of n selections on the connection's default path, counted per EV
std::map<uint32_t, uint32_t>
SelectN(Ptr<MrcPathSelector> s, uint32_t n, uint32_t mask = 0xffffffff)
{
    std::map<uint32_t, uint32_t> count;
    for (uint32_t i = 0; i < n; ++i)
    {
        MrcPathChoice c = s->Select(MrcPathSelector::NO_PORT, false);
        EXPECT_NE(c.port, MrcPathSelector::NO_PORT);
        ++count[c.ev & mask];
    }
    return count;
}

} // namespace

// ------------------------------------------------------------------ the common contract

TEST(MrcPathFamily, EveryMemberIsAPathSelector)
{
    for (const auto& name : FAMILY)
    {
        SCOPED_TRACE(name);
        TypeId tid = TypeId::LookupByName(name);
        EXPECT_TRUE(tid.IsChildOf(MrcPathSelector::GetTypeId()));
        Ptr<MrcPathSelector> s = Make(name);
        ASSERT_NE(s, nullptr);
        EXPECT_EQ(s->GetSelectCount(), 0u);
        EXPECT_EQ(s->GetFeedbackCount(), 0u);
    }
    // the UEC strategies keep their own base, which is now a member of the family
    EXPECT_TRUE(MrcUecPathSelector::GetTypeId().IsChildOf(MrcPathSelector::GetTypeId()));
    EXPECT_EQ(MrcUecPathSelector::GetTypeId().GetParent(), MrcPathSelector::GetTypeId());
    EXPECT_EQ(MrcEvTable::GetTypeId().GetParent(), MrcPathSelector::GetTypeId());
}

TEST(MrcPathFamily, ContractHoldsForEveryMember)
{
    // Init, then 200 packets on the default path: each choice has a port the selector says
    // it uses, and the statistics count every selection and every feedback by signal.
    for (const auto& name : FAMILY)
    {
        SCOPED_TRACE(name);
        Ptr<MrcPathSelector> s = Make(name);
        if (name == "ns3::MrcEvTable")
        {
            s->SetAttribute("Profile", PointerValue(StructuredProfile(16, 4)));
        }
        s->Init(7, 9, 2);
        EXPECT_GE(s->GetPathCount(), 1u);
        std::set<uint32_t> ports;
        for (uint32_t i = 0; i < 200; ++i)
        {
            MrcPathChoice c = s->Select(MrcPathSelector::NO_PORT, i % 10 == 9);
            ASSERT_LT(c.port, 2u);
            EXPECT_TRUE(s->UsesPort(c.port));
            ports.insert(c.port);
        }
        EXPECT_FALSE(s->UsesPort(2));
        EXPECT_EQ(s->GetSelectCount(), 200u);
        EXPECT_EQ(s->GetNoPathCount(), 0u);
        // one feedback of every kind about a value the selector never handed out: counted,
        // and harmless
        for (uint32_t k = 0; k < MRC_PATH_SIGNAL_COUNT; ++k)
        {
            s->Feedback(0xfedcba, static_cast<MrcPathSignal>(k));
        }
        for (uint32_t k = 0; k < MRC_PATH_SIGNAL_COUNT; ++k)
        {
            EXPECT_EQ(s->GetFeedbackCount(static_cast<MrcPathSignal>(k)), 1u);
        }
        EXPECT_EQ(s->GetFeedbackCount(), MRC_PATH_SIGNAL_COUNT);
        // every member still selects after the feedback
        EXPECT_LT(s->Select(MrcPathSelector::NO_PORT, false).port, 2u);
        s->Dispose();
    }
    Simulator::Destroy();
}

TEST(MrcPathFamily, SignalsAndAliases)
{
    // UEC's feedback enum is the family's signal; MRC's SACK m field maps onto it
    EXPECT_EQ(MrcUecEvFeedback::GOOD, MrcPathSignal::GOOD);
    EXPECT_EQ(static_cast<int>(MrcUecEvFeedback::TIMEOUT), 3);
    EXPECT_EQ(MrcPathSignalOfSack(MrcPathFeedback::NONE), MrcPathSignal::GOOD);
    EXPECT_EQ(MrcPathSignalOfSack(MrcPathFeedback::SKIP_ONCE), MrcPathSignal::ECN);
    EXPECT_EQ(MrcPathSignalOfSack(MrcPathFeedback::ALWAYS_SKIP), MrcPathSignal::BAD);
    EXPECT_STREQ(MrcPathSignalName(MrcPathSignal::LOSS), "LOSS");
    EXPECT_STREQ(MrcPathSignalName(MrcPathSignal::BAD), "BAD");
    EXPECT_FALSE(MrcPathSignalIsLoss(MrcPathSignal::GOOD));
    EXPECT_FALSE(MrcPathSignalIsLoss(MrcPathSignal::ECN));
    EXPECT_FALSE(MrcPathSignalIsLoss(MrcPathSignal::NACK));
    EXPECT_TRUE(MrcPathSignalIsLoss(MrcPathSignal::TIMEOUT));
    EXPECT_TRUE(MrcPathSignalIsLoss(MrcPathSignal::LOSS));
    EXPECT_TRUE(MrcPathSignalIsLoss(MrcPathSignal::BAD));
}

// ------------------------------------------------------------------ RoCE: fixed entropy

TEST(MrcPathFamily, FixedEntropyAlwaysTheSamePath)
{
    Ptr<MrcPathSelector> s = Make("ns3::MrcFixedEntropyPathSelector");
    s->Init(0x11, 0x22, 4);
    const MrcPathChoice first = s->Select(MrcPathSelector::NO_PORT, false);
    const uint32_t label = MrcFixedEntropyPathSelector::FlowLabelOf(0x11, 0x22);
    EXPECT_EQ(first.ev, label);
    EXPECT_EQ(first.flowLabel, label);
    EXPECT_EQ(first.port, label % 4);
    EXPECT_EQ(first.udpSrcPort, MrcFixedEntropyPathSelector::UdpSourcePortOf(label));
    s->Feedback(first.ev, MrcPathSignal::TIMEOUT); // ignored
    auto count = SelectN(s, 999);
    ASSERT_EQ(count.size(), 1u);
    EXPECT_EQ(count.begin()->first, first.ev);
    EXPECT_EQ(count.begin()->second, 999u);
    // the asked port does not move it, retransmissions neither
    EXPECT_EQ(s->Select((first.port + 1) % 4, true).port, first.port);
    uint32_t used = 0;
    for (uint32_t p = 0; p < 4; ++p)
    {
        used += s->UsesPort(p) ? 1 : 0;
    }
    EXPECT_EQ(used, 1u);
    EXPECT_EQ(s->GetPathCount(), 1u);
    EXPECT_EQ(s->GetSelectCount(), 1001u);
    EXPECT_EQ(s->GetFeedbackCount(MrcPathSignal::TIMEOUT), 1u);
}

// ------------------------------------------------------------------ UEC spraying

TEST(MrcPathFamily, ObliviousSprayCoversEveryEv)
{
    // P = 64: every aligned block of 64 packets uses each of the 64 EVs exactly once
    Ptr<MrcPathSelector> s = Make("ns3::MrcUecObliviousSpray");
    s->Init(1, 2, 1);
    EXPECT_EQ(s->GetPathCount(), 64u);
    std::set<uint32_t> upper;
    for (int block = 0; block < 10; ++block)
    {
        std::map<uint32_t, uint32_t> count;
        for (int i = 0; i < 64; ++i)
        {
            MrcPathChoice c = s->Select(MrcPathSelector::NO_PORT, false);
            EXPECT_EQ(c.port, 0u);
            // the EV rides in the UDP source port (16-bit EVs: flow label bits 0)
            EXPECT_EQ(c.udpSrcPort, c.ev);
            EXPECT_EQ(c.flowLabel, 0u);
            ++count[c.ev & 63];
            upper.insert(c.ev & ~63u);
        }
        ASSERT_EQ(count.size(), 64u);
        for (const auto& [ev, n] : count)
        {
            EXPECT_EQ(n, 1u) << "EV " << ev;
        }
    }
    EXPECT_EQ(upper.size(), 1u); // one connection: one set of upper EV bits
    // an asked port is kept
    EXPECT_EQ(s->Select(3, false).port, 3u);
}

TEST(MrcPathFamily, BitmapAvoidsAPenalisedEv)
{
    Ptr<MrcPathSelector> s = Make("ns3::MrcUecBitmapSelector");
    s->Init(1, 2, 1);
    const uint32_t bad = s->Select(MrcPathSelector::NO_PORT, false).ev;
    // TIMEOUT: penalty 15, paid back by one per pass of the oblivious order over it, so the
    // next 10 cycles skip it; the other 63 EVs take one packet each per cycle
    s->Feedback(bad, MrcPathSignal::TIMEOUT);
    auto count = SelectN(s, 640, 63);
    EXPECT_EQ(count.count(bad & 63), 0u);
    EXPECT_EQ(count.size(), 63u);
    for (const auto& [ev, n] : count)
    {
        EXPECT_GE(n, 10u) << "EV " << ev;
        EXPECT_LE(n, 11u) << "EV " << ev;
    }
    // LOSS and BAD weigh like TIMEOUT, ECN less
    Ptr<MrcUecBitmapSelector> b = DynamicCast<MrcUecBitmapSelector>(s);
    ASSERT_NE(b, nullptr);
    const uint16_t other = static_cast<uint16_t>((bad + 1) & 63);
    const uint8_t before = b->GetPenalty(other);
    s->Feedback(other, MrcPathSignal::ECN);
    EXPECT_EQ(b->GetPenalty(other), before + 1);
    s->Feedback(other, MrcPathSignal::LOSS);
    EXPECT_EQ(b->GetPenalty(other), 15);
}

TEST(MrcPathFamily, RepsRecyclesAckedEvs)
{
    Ptr<MrcPathSelector> s = Make("ns3::MrcUecReps");
    s->Init(1, 2, 1);
    SelectN(s, 4); // nothing recycled yet: random EVs
    for (uint32_t ev : {5u, 9u, 13u})
    {
        s->Feedback(ev, MrcPathSignal::GOOD);
    }
    // the ACKed EVs come back, oldest first, once each
    EXPECT_EQ(s->Select(MrcPathSelector::NO_PORT, false).ev, 5u);
    EXPECT_EQ(s->Select(MrcPathSelector::NO_PORT, true).ev, 9u);
    EXPECT_EQ(s->Select(MrcPathSelector::NO_PORT, false).ev, 13u);
    Ptr<MrcUecReps> r = DynamicCast<MrcUecReps>(s);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->GetFreshCount(), 0u);
    // a loss freezes the buffer: the buffered EVs are used round-robin
    s->Feedback(21, MrcPathSignal::GOOD);
    s->Feedback(9, MrcPathSignal::LOSS);
    EXPECT_TRUE(r->IsFrozen());
    std::vector<uint32_t> got;
    for (int i = 0; i < 8; ++i)
    {
        got.push_back(s->Select(MrcPathSelector::NO_PORT, false).ev);
    }
    EXPECT_EQ(got, (std::vector<uint32_t>{5, 9, 13, 21, 5, 9, 13, 21}));
    EXPECT_EQ(s->GetSelectCount(), 4u + 3u + 8u);
    EXPECT_EQ(s->GetFeedbackCount(MrcPathSignal::GOOD), 4u);
    EXPECT_EQ(s->GetFeedbackCount(MrcPathSignal::LOSS), 1u);
}

TEST(MrcPathFamily, MixedRecyclesThenSprays)
{
    Ptr<MrcPathSelector> s = Make(MrcUecPathSelector::DEFAULT_TYPE);
    s->Init(1, 2, 1);
    const uint32_t first = s->Select(MrcPathSelector::NO_PORT, false).ev;
    const uint32_t upper = first & ~63u;
    s->Feedback(upper | 7, MrcPathSignal::GOOD);
    s->Feedback(upper | 3, MrcPathSignal::GOOD);
    EXPECT_EQ(s->Select(MrcPathSelector::NO_PORT, false).ev, upper | 7);
    EXPECT_EQ(s->Select(MrcPathSelector::NO_PORT, false).ev, upper | 3);
    // FIFO empty: back to the bitmap's oblivious order, which finishes its first cycle with
    // the 63 EVs it has not used yet
    auto count = SelectN(s, 63, 63);
    EXPECT_EQ(count.size(), 63u);
    EXPECT_EQ(count.count(first & 63), 0u);
}

TEST(MrcPathFamily, SinglePathKeepsItsEv)
{
    ObjectFactory f("ns3::MrcUecSinglePath");
    f.Set("Ev", UintegerValue(77));
    Ptr<MrcPathSelector> s = f.Create<MrcPathSelector>();
    s->Init(3, 4, 2);
    s->Feedback(77, MrcPathSignal::TIMEOUT);
    auto count = SelectN(s, 500);
    ASSERT_EQ(count.size(), 1u);
    EXPECT_EQ(count.at(77), 500u);
    EXPECT_EQ(s->GetPathCount(), 1u);
    // the PathCount attribute still reads P
    UintegerValue p;
    s->GetAttribute("PathCount", p);
    EXPECT_EQ(p.Get(), 64u);
}

TEST(MrcPathFamily, UecEntryPointsShareTheStatistics)
{
    // the UEC queue pair calls NextEv and On*: they count like Select and Feedback
    Ptr<MrcUecPathSelector> u = CreateObject<MrcUecBitmapSelector>();
    for (int i = 0; i < 5; ++i)
    {
        u->NextEv();
    }
    u->Select(MrcPathSelector::NO_PORT, false);
    u->OnAck(1, false);
    u->OnAck(2, true);
    u->OnNack(3);
    u->OnTimeout(4);
    u->OnLoss(5);
    EXPECT_EQ(u->GetSelectCount(), 6u);
    EXPECT_EQ(u->GetFeedbackCount(MrcPathSignal::GOOD), 1u);
    EXPECT_EQ(u->GetFeedbackCount(MrcPathSignal::ECN), 1u);
    EXPECT_EQ(u->GetFeedbackCount(MrcPathSignal::NACK), 1u);
    EXPECT_EQ(u->GetFeedbackCount(MrcPathSignal::TIMEOUT), 1u);
    EXPECT_EQ(u->GetFeedbackCount(MrcPathSignal::LOSS), 1u);
    EXPECT_EQ(u->GetFeedbackCount(), 5u);
}

// ------------------------------------------------------------------ MRC: the EV table

TEST(MrcPathFamily, EvTableRotatesAndSkipsAFailedEv)
{
    Ptr<MrcPathSelector> s = Make("ns3::MrcEvTable");
    s->SetAttribute("Profile", PointerValue(StructuredProfile(16, 4)));
    s->Init(1, 2, 2); // 8 active and 2 backup EVs per plane
    EXPECT_TRUE(s->UsesPort(0));
    EXPECT_TRUE(s->UsesPort(1));
    EXPECT_FALSE(s->UsesPort(2));
    EXPECT_EQ(s->GetPathCount(), 20u); // structured: every EV is a path of its own
    // one round: every active EV once, the planes taking turns
    std::map<uint32_t, uint32_t> plane;
    std::map<uint32_t, uint32_t> round;
    for (uint32_t i = 0; i < 16; ++i)
    {
        MrcPathChoice c = s->Select(MrcPathSelector::NO_PORT, false);
        EXPECT_EQ(c.port, i % 2);
        EXPECT_EQ(c.udpSrcPort, c.ev & 0xffff);
        ++round[c.ev];
        plane[c.ev] = c.port;
    }
    ASSERT_EQ(round.size(), 16u);
    for (const auto& [ev, n] : round)
    {
        EXPECT_EQ(n, 1u) << "EV " << ev;
    }
    // a timeout fails an EV of plane 0: it leaves the rotation for good (ASSUMED_BAD, no
    // probe answers here) and a backup EV of plane 0 takes its turn at once
    const uint32_t failed = std::find_if(plane.begin(), plane.end(), [](const auto& kv) {
                                return kv.second == 0;
                            })->first;
    s->Feedback(failed, MrcPathSignal::TIMEOUT);
    Ptr<MrcEvTable> t = DynamicCast<MrcEvTable>(s);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->GetState(t->FindByValue(failed)), MrcEvState::ASSUMED_BAD);
    auto count = SelectN(s, 161);
    EXPECT_EQ(count.count(failed), 0u);
    ASSERT_EQ(count.size(), 16u);
    uint32_t promoted = 0;
    for (const auto& [ev, n] : count)
    {
        if (round.count(ev) == 0)
        {
            ++promoted;
            EXPECT_EQ(n, 11u); // the leftover turn of the round, then 10 rounds
            EXPECT_EQ(t->GetPlane(t->FindByValue(ev)), 0u);
        }
        else
        {
            EXPECT_EQ(n, 10u) << "EV " << ev;
        }
    }
    EXPECT_EQ(promoted, 1u);
    // a port without EVs: no path
    EXPECT_EQ(s->Select(5, false).port, MrcPathSelector::NO_PORT);
    EXPECT_EQ(s->GetNoPathCount(), 1u);
    EXPECT_EQ(s->GetSelectCount(), 16u + 161u);
    EXPECT_EQ(s->GetFeedbackCount(MrcPathSignal::TIMEOUT), 1u);
    s->Dispose();
    Simulator::Destroy();
}

TEST(MrcPathFamily, EvTableSignalsMapOntoItsStates)
{
    Ptr<MrcPathSelector> s = Make("ns3::MrcEvTable");
    s->SetAttribute("Profile", PointerValue(StructuredProfile(8, 8)));
    s->Init(1, 2, 1);
    Ptr<MrcEvTable> t = DynamicCast<MrcEvTable>(s);
    ASSERT_NE(t, nullptr);
    auto value = [t](uint32_t id) { return t->GetValue(id); };
    // ids 0..7 active, 8..15 backup (Init order)
    s->Feedback(value(0), MrcPathSignal::GOOD);
    EXPECT_EQ(t->GetState(0), MrcEvState::GOOD);
    s->Feedback(value(1), MrcPathSignal::ECN);
    EXPECT_EQ(t->GetState(1), MrcEvState::SKIP);
    EXPECT_EQ(t->GetEntry(1).ecnEchoes, 1u);
    s->Feedback(value(2), MrcPathSignal::NACK);
    EXPECT_EQ(t->GetState(2), MrcEvState::SKIP);
    EXPECT_EQ(t->GetEntry(2).trims, 1u);
    s->Feedback(value(3), MrcPathSignal::BAD);
    EXPECT_EQ(t->GetState(3), MrcEvState::ASSUMED_BAD);
    s->Feedback(value(4), MrcPathSignal::TIMEOUT);
    EXPECT_EQ(t->GetState(4), MrcEvState::ASSUMED_BAD);
    EXPECT_EQ(t->GetEntry(4).timeouts, 1u);
    s->Feedback(value(5), MrcPathSignal::LOSS);
    EXPECT_EQ(t->GetState(5), MrcEvState::ASSUMED_BAD);
    EXPECT_EQ(t->GetEntry(5).timeouts, 1u);
    EXPECT_EQ(t->CountInState(MrcEvState::ASSUMED_BAD), 3u);
    EXPECT_EQ(t->GetActiveCount(), 8u); // three backups promoted
    // the id-based entry points of the MRC queue pair count into the same statistics
    t->OnSack(6, MrcPathFeedback::NONE);
    t->OnNack(6, MrcNackReason::TRIMMED);
    t->OnInferredLoss(7);
    EXPECT_EQ(s->GetFeedbackCount(MrcPathSignal::GOOD), 2u);
    EXPECT_EQ(s->GetFeedbackCount(MrcPathSignal::NACK), 2u);
    EXPECT_EQ(s->GetFeedbackCount(MrcPathSignal::LOSS), 2u);
    t->Select(1);
    EXPECT_EQ(s->GetSelectCount(), 1u);
    s->Dispose();
    Simulator::Destroy();
}

TEST(MrcPathFamily, EvTableRetransmissionAvoidsTheLastLostEv)
{
    // one plane, two active EVs: after a trim NACK on one (SKIP for one pass), a
    // retransmission never takes it
    Ptr<MrcPathSelector> s = Make("ns3::MrcEvTable");
    s->SetAttribute("Profile", PointerValue(StructuredProfile(2, 0)));
    s->Init(1, 2, 1);
    Ptr<MrcEvTable> t = DynamicCast<MrcEvTable>(s);
    ASSERT_NE(t, nullptr);
    const uint32_t lost = t->GetValue(0);
    s->Feedback(lost, MrcPathSignal::NACK);
    for (int i = 0; i < 20; ++i)
    {
        MrcPathChoice c = s->Select(MrcPathSelector::NO_PORT, true);
        if (c.port != MrcPathSelector::NO_PORT)
        {
            EXPECT_NE(c.ev, lost);
        }
    }
    EXPECT_GT(s->GetSelectCount(), 0u);
    EXPECT_EQ(s->GetSelectCount() + s->GetNoPathCount(), 20u);
    // new packets use it again once its skip is over
    std::set<uint32_t> evs;
    for (int i = 0; i < 4; ++i)
    {
        evs.insert(s->Select(MrcPathSelector::NO_PORT, false).ev);
    }
    EXPECT_EQ(evs.count(lost), 1u);
    s->Dispose();
    Simulator::Destroy();
}

// ------------------------------------------------------------------ the optional parts

TEST(MrcPathFamily, OptionalPartsDefaultToNothing)
{
    // members without per-path health: no reverse path, no probes, every port they use is
    // usable, port state changes nothing
    for (const auto& name : FAMILY)
    {
        if (name == "ns3::MrcEvTable")
        {
            continue;
        }
        SCOPED_TRACE(name);
        Ptr<MrcPathSelector> s = Make(name);
        s->Init(7, 9, 2);
        uint32_t probes = 0;
        s->SetProbeSender(
            Callback<void, const MrcPathChoice&>([&probes](const MrcPathChoice&) { ++probes; }));
        s->SetBaseRtt(MicroSeconds(10));
        const uint32_t port = s->Select(MrcPathSelector::NO_PORT, false).port;
        ASSERT_LT(port, 2u);
        EXPECT_EQ(s->SelectReverse(port).port, MrcPathSelector::NO_PORT);
        EXPECT_FALSE(s->ProbeAnswered(0, MrcPathSignal::GOOD));
        for (uint32_t p = 0; p < 3; ++p)
        {
            EXPECT_EQ(s->CanUsePort(p), s->UsesPort(p)) << p;
        }
        s->SetLocalPortUp(port, false);
        s->SetRemotePortUp(port, false);
        EXPECT_TRUE(s->CanUsePort(port));
        EXPECT_EQ(s->Select(port, false).port, port);
        const bool uec = TypeId::LookupByName(name).IsChildOf(MrcUecPathSelector::GetTypeId());
        EXPECT_EQ(s->AssignStreams(5), uec ? 1 : 0);
        EXPECT_EQ(probes, 0u);
        EXPECT_EQ(s->GetSelectCount(), 2u); // SelectReverse is not a selection
        s->Dispose();
    }
    Simulator::Destroy();
}

TEST(MrcPathFamily, RequestNamesTheLostEvAndThePorts)
{
    Ptr<MrcPathSelector> s = Make("ns3::MrcEvTable");
    s->SetAttribute("Profile", PointerValue(StructuredProfile(8, 0)));
    s->Init(1, 2, 2); // 4 active EVs per plane
    Ptr<MrcEvTable> t = DynamicCast<MrcEvTable>(s);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(s->AssignStreams(3), 1);
    const uint32_t lost = t->GetValue(t->GetPlaneIds(1)[2]);
    // a retransmission that names its lost EV never gets it back, nor a path of plane 0
    MrcPathRequest r;
    r.port = MrcPathSelector::NO_PORT;
    r.ports = 0x2;
    r.retransmission = true;
    r.lostEv = lost;
    std::set<uint32_t> seen;
    for (int i = 0; i < 12; ++i)
    {
        const MrcPathChoice c = s->Select(r);
        ASSERT_EQ(c.port, 1u);
        EXPECT_NE(c.ev, lost);
        EXPECT_EQ(t->GetPlane(t->FindByValue(c.ev)), 1u);
        EXPECT_EQ(c.path, t->GetPath(t->FindByValue(c.ev)));
        EXPECT_EQ(c.carrier, nullptr); // structured: ECMP, no source route
        seen.insert(c.ev);
    }
    EXPECT_EQ(seen.size(), 3u);
    // as new data (or naming an EV the table does not have) it is used again
    r.retransmission = false;
    seen.clear();
    for (int i = 0; i < 8; ++i)
    {
        seen.insert(s->Select(r).ev);
    }
    EXPECT_EQ(seen.size(), 4u);
    EXPECT_EQ(seen.count(lost), 1u);
    r.retransmission = true;
    r.lostEv = 0xfedcba;
    seen.clear();
    for (int i = 0; i < 8; ++i)
    {
        seen.insert(s->Select(r).ev);
    }
    EXPECT_EQ(seen.count(lost), 1u);
    // no port in the mask: no path
    r.ports = 0;
    EXPECT_EQ(s->Select(r).port, MrcPathSelector::NO_PORT);
    EXPECT_EQ(s->GetSelectCount(), 28u);
    EXPECT_EQ(s->GetNoPathCount(), 1u);
    s->Dispose();
    Simulator::Destroy();
}

TEST(MrcPathFamily, EvTableReversePathRotatesOverGoodActiveEvs)
{
    Ptr<MrcPathSelector> s = Make("ns3::MrcEvTable");
    s->SetAttribute("Profile", PointerValue(StructuredProfile(8, 2)));
    s->Init(1, 2, 2); // 4 active and 1 backup EV per plane
    Ptr<MrcEvTable> t = DynamicCast<MrcEvTable>(s);
    ASSERT_NE(t, nullptr);
    const std::vector<uint32_t>& ids = t->GetPlaneIds(1);
    std::vector<uint32_t> active;
    for (uint32_t id : ids)
    {
        if (t->IsActiveAndGood(id))
        {
            active.push_back(id);
        }
    }
    ASSERT_EQ(active.size(), 4u);
    // in id order, wrapping, the backup EV passed over
    for (uint32_t i = 0; i < 9; ++i)
    {
        const MrcPathChoice c = s->SelectReverse(1);
        ASSERT_EQ(c.port, 1u);
        EXPECT_EQ(c.ev, t->GetValue(active[i % 4])) << i;
    }
    // ECN on active[2]: SKIP, passed over (the last one used is active[0])
    s->Feedback(t->GetValue(active[2]), MrcPathSignal::ECN);
    EXPECT_EQ(s->SelectReverse(1).ev, t->GetValue(active[1]));
    EXPECT_EQ(s->SelectReverse(1).ev, t->GetValue(active[3]));
    // a plane without EVs, or every EV of a plane down to SKIP: none
    EXPECT_EQ(s->SelectReverse(2).port, MrcPathSelector::NO_PORT);
    for (uint32_t id : t->GetPlaneIds(0))
    {
        s->Feedback(t->GetValue(id), MrcPathSignal::ECN);
    }
    EXPECT_EQ(s->SelectReverse(0).port, MrcPathSelector::NO_PORT);
    EXPECT_EQ(s->GetSelectCount(), 0u);
    EXPECT_EQ(s->GetNoPathCount(), 0u);
    s->Dispose();
    Simulator::Destroy();
}

TEST(MrcPathFamily, EvTablePortStateThroughTheFamily)
{
    Ptr<MrcPathSelector> s = Make("ns3::MrcEvTable");
    s->SetAttribute("Profile", PointerValue(StructuredProfile(4, 0)));
    s->Init(1, 2, 2);
    EXPECT_TRUE(s->CanUsePort(0));
    EXPECT_TRUE(s->CanUsePort(1));
    EXPECT_FALSE(s->CanUsePort(2));
    EXPECT_FALSE(s->CanUsePort(40));
    s->SetLocalPortUp(0, false);
    EXPECT_FALSE(s->CanUsePort(0));
    EXPECT_EQ(s->Select(0, false).port, MrcPathSelector::NO_PORT);
    for (int i = 0; i < 4; ++i)
    {
        EXPECT_EQ(s->Select(MrcPathSelector::NO_PORT, false).port, 1u);
    }
    s->SetRemotePortUp(1, false);
    EXPECT_FALSE(s->CanUsePort(1));
    EXPECT_EQ(s->Select(MrcPathSelector::NO_PORT, false).port, MrcPathSelector::NO_PORT);
    s->SetLocalPortUp(0, true);
    s->SetRemotePortUp(1, true);
    EXPECT_TRUE(s->CanUsePort(0));
    EXPECT_TRUE(s->CanUsePort(1));
    EXPECT_EQ(s->GetNoPathCount(), 2u);
    s->Dispose();
    Simulator::Destroy();
}

TEST(MrcPathFamily, EvTableProbesThroughTheFamily)
{
    Ptr<MrcPathSelector> s = Make("ns3::MrcEvTable");
    s->SetAttribute("Profile", PointerValue(StructuredProfile(4, 2)));
    s->Init(1, 2, 1);
    Ptr<MrcEvTable> t = DynamicCast<MrcEvTable>(s);
    ASSERT_NE(t, nullptr);
    const uint32_t bad = t->GetValue(0);
    // every probe the table asks for is answered GOOD at once
    std::vector<MrcPathChoice> probes;
    std::vector<bool> expected;
    s->SetProbeSender(Callback<void, const MrcPathChoice&>([&](const MrcPathChoice& c) {
        probes.push_back(c);
        expected.push_back(s->ProbeAnswered(c.ev, MrcPathSignal::GOOD));
    }));
    s->Feedback(bad, MrcPathSignal::TIMEOUT);
    EXPECT_EQ(t->GetState(0), MrcEvState::ASSUMED_BAD);
    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();
    // ReviveSuccesses (3) answered probes on that EV revive it; then no more probes
    ASSERT_EQ(probes.size(), 3u);
    for (uint32_t i = 0; i < probes.size(); ++i)
    {
        EXPECT_EQ(probes[i].ev, bad);
        EXPECT_EQ(probes[i].port, 0u);
        EXPECT_TRUE(expected[i]);
    }
    EXPECT_EQ(t->GetState(0), MrcEvState::GOOD);
    EXPECT_EQ(t->GetEntry(0).probeAnswers, 3u);
    // an answer nobody waits for, or for a value the table does not have
    EXPECT_FALSE(s->ProbeAnswered(bad, MrcPathSignal::GOOD));
    EXPECT_FALSE(s->ProbeAnswered(0xfedcba, MrcPathSignal::GOOD));
    s->Dispose();
    Simulator::Destroy();
}
