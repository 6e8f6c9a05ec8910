/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of MRC EV profiles (generation) and the EV table (states, sets, selection).

#include "mrc-test-support.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/mrc-entropy.h"
#include "ns3/mrc-ev-profile.h"
#include "ns3/mrc-ev-table.h"
#include "ns3/mrc-path-selector.h"
#include "ns3/mrc-time-records.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <functional>
#include <gtest/gtest.h>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

/// An SRv6 cross-T1 path T0(src) | T1(k) | T0(dst) | downlink on a plane.
MrcEvCandidate
Srv6Path(uint32_t plane, uint32_t t1)
{
    MrcUsidCarrier c(MrcUsidCarrier::DEFAULT_LOCATOR_BLOCK,
                     {MrcMakeUsid(plane, MrcUsidType::T0, 0),
                      MrcMakeUsid(plane, MrcUsidType::T1, t1),
                      MrcMakeUsid(plane, MrcUsidType::T0, 1),
                      MrcMakeUsid(plane, MrcUsidType::HOST_DOWNLINK, 3)});
    return MrcEvCandidate::FromCarrier(plane, c);
}

/// All (plane, T1) paths of a small Clos.
std::vector<MrcEvCandidate>
Srv6Paths(uint32_t planes, uint32_t t1PerPlane)
{
    std::vector<MrcEvCandidate> v;
    for (uint32_t p = 0; p < planes; ++p)
    {
        for (uint32_t k = 0; k < t1PerPlane; ++k)
        {
            v.push_back(Srv6Path(p, k));
        }
    }
    return v;
}

Ptr<MrcEvProfile>
MakeProfile(uint32_t evCount, uint32_t backup, int64_t stream = 11)
{
    Ptr<MrcEvProfile> prof = CreateObject<MrcEvProfile>();
    prof->SetAttribute("EvCount", UintegerValue(evCount));
    prof->SetAttribute("BackupCount", UintegerValue(backup));
    EXPECT_EQ(prof->AssignStreams(stream), 1);
    return prof;
}

std::vector<uint32_t>
CountPerPlane(const std::vector<MrcEvCandidate>& v, uint32_t planes)
{
    std::vector<uint32_t> n(planes, 0);
    for (const auto& c : v)
    {
        ++n.at(c.plane);
    }
    return n;
}

/// A structured EV set: `perPlane` active and `backupPerPlane` backup EVs per plane,
/// values plane * 256 + i (active) and plane * 256 + 128 + i (backup).
MrcEvSet
StructuredSet(uint32_t planes, uint32_t perPlane, uint32_t backupPerPlane, uint32_t minActive)
{
    MrcEvSet s;
    for (uint32_t p = 0; p < planes; ++p)
    {
        for (uint32_t i = 0; i < perPlane; ++i)
        {
            s.active.push_back(MrcEvCandidate::Structured(p, p * 256 + i + 1));
        }
        for (uint32_t i = 0; i < backupPerPlane; ++i)
        {
            s.backup.push_back(MrcEvCandidate::Structured(p, p * 256 + 128 + i));
        }
    }
    s.evMinActive = minActive;
    return s;
}

Ptr<MrcEvTable>
MakeTable(const MrcEvSet& s, int64_t stream = 5)
{
    Ptr<MrcEvTable> t = CreateObject<MrcEvTable>();
    EXPECT_EQ(t->AssignStreams(stream), 1);
    t->Init(s);
    return t;
}

/// Records EvState and PlaneState traces.
struct Recorder
{
    struct Change
    {
        uint32_t id;
        uint32_t value;
        uint32_t plane;
        MrcEvState from;
        MrcEvState to;
        MrcEvReason reason;
    };

    std::vector<Change> changes;
    std::vector<std::pair<uint32_t, bool>> planes;

    void OnState(uint32_t id,
                 uint32_t value,
                 uint32_t plane,
                 MrcEvState from,
                 MrcEvState to,
                 MrcEvReason reason)
    {
        changes.push_back({id, value, plane, from, to, reason});
    }

    void OnPlane(uint32_t plane, bool up)
    {
        planes.emplace_back(plane, up);
    }

    void Attach(Ptr<MrcEvTable> t)
    {
        EXPECT_TRUE(
            t->TraceConnectWithoutContext("EvState", MakeCallback(&Recorder::OnState, this)));
        EXPECT_TRUE(
            t->TraceConnectWithoutContext("PlaneState", MakeCallback(&Recorder::OnPlane, this)));
    }
};

constexpr uint32_t ALL = 0xffffffff;

/// Select n times; return the ids (NO_EV included).
std::vector<uint32_t>
SelectN(Ptr<MrcEvTable> t, uint32_t n, uint32_t mask = ALL, uint32_t exclude = MrcEvTable::NO_EV)
{
    std::vector<uint32_t> v;
    for (uint32_t i = 0; i < n; ++i)
    {
        v.push_back(t->Select(mask, exclude));
    }
    return v;
}

} // namespace

// ---------------------------------------------------------------- profiles

TEST(MrcEvProfile, CandidateFromCarrier)
{
    // plane 2, T1 37: EV = (2 + 1) << 12 | 37 = 0x3025
    MrcEvCandidate c = Srv6Path(2, 37);
    EXPECT_EQ(c.value, 0x3025u);
    EXPECT_EQ(c.plane, 2u);
    EXPECT_TRUE(c.hasCarrier);
    EXPECT_EQ(c.carrier.GetUsid(1), MrcMakeUsid(2, MrcUsidType::T1, 37));
    // T0-local path: no T1, the EV names the plane only: (1 + 1) << 12 = 0x2000
    MrcUsidCarrier local(
        MrcUsidCarrier::DEFAULT_LOCATOR_BLOCK,
        {MrcMakeUsid(1, MrcUsidType::T0, 4), MrcMakeUsid(1, MrcUsidType::HOST_DOWNLINK, 9)});
    EXPECT_EQ(MrcEvCandidate::FromCarrier(1, local).value, 0x2000u);
    MrcEvCandidate s = MrcEvCandidate::Structured(3, 0xbeef);
    EXPECT_EQ(s.value, 0xbeefu);
    EXPECT_EQ(s.plane, 3u);
    EXPECT_FALSE(s.hasCarrier);
}

TEST(MrcEvProfile, GenerateEqualPerPlane)
{
    Ptr<MrcEvProfile> prof = MakeProfile(128, 64);
    std::vector<MrcEvCandidate> cands = Srv6Paths(4, 64);
    MrcEvSet s = prof->Generate(4, cands);
    ASSERT_EQ(s.active.size(), 128u);
    ASSERT_EQ(s.backup.size(), 64u);
    EXPECT_EQ(CountPerPlane(s.active, 4), (std::vector<uint32_t>{32, 32, 32, 32}));
    EXPECT_EQ(CountPerPlane(s.backup, 4), (std::vector<uint32_t>{16, 16, 16, 16}));
    EXPECT_EQ(s.evMinActive, 32u); // 128 / 4
    std::set<uint32_t> values;
    for (const auto* list : {&s.active, &s.backup})
    {
        for (const auto& c : *list)
        {
            EXPECT_TRUE(values.insert(c.value).second);
            EXPECT_TRUE(c.hasCarrier);
            EXPECT_EQ(MrcSrv6EvPlane(c.value), c.plane);
            EXPECT_EQ(MrcUsidPlane(c.carrier.GetActiveUsid()), c.plane);
        }
    }
    EXPECT_EQ(values.size(), 192u);
    // random within a plane: not simply the first 32 T1s of plane 0
    uint32_t firstK = 0;
    for (const auto& c : s.active)
    {
        firstK += (c.plane == 0 && MrcSrv6EvUplink(c.value) < 32) ? 1 : 0;
    }
    EXPECT_LT(firstK, 32u);
}

TEST(MrcEvProfile, OddSplitGoesToLowPlanes)
{
    Ptr<MrcEvProfile> prof = MakeProfile(130, 6);
    MrcEvSet s = prof->Generate(4, Srv6Paths(4, 64));
    EXPECT_EQ(CountPerPlane(s.active, 4), (std::vector<uint32_t>{33, 33, 32, 32}));
    EXPECT_EQ(CountPerPlane(s.backup, 4), (std::vector<uint32_t>{2, 2, 1, 1}));
    Ptr<MrcEvProfile> prof3 = MakeProfile(128, 0);
    MrcEvSet s3 = prof3->Generate(3, Srv6Paths(3, 64));
    EXPECT_EQ(CountPerPlane(s3.active, 3), (std::vector<uint32_t>{43, 43, 42}));
}

TEST(MrcEvProfile, ShortPlaneUsesEveryPathOnce)
{
    // 2 planes x 5 T1s, 128 + 64 wanted: 5 active per plane, no backup
    Ptr<MrcEvProfile> prof = MakeProfile(128, 64);
    MrcEvSet s = prof->Generate(2, Srv6Paths(2, 5));
    EXPECT_EQ(CountPerPlane(s.active, 2), (std::vector<uint32_t>{5, 5}));
    EXPECT_TRUE(s.backup.empty());
    // 2 planes x 5 T1s, 6 + 6 wanted: 3 active + 2 backup per plane (5 = all paths)
    Ptr<MrcEvProfile> prof2 = MakeProfile(6, 6);
    MrcEvSet s2 = prof2->Generate(2, Srv6Paths(2, 5));
    EXPECT_EQ(CountPerPlane(s2.active, 2), (std::vector<uint32_t>{3, 3}));
    EXPECT_EQ(CountPerPlane(s2.backup, 2), (std::vector<uint32_t>{2, 2}));
}

TEST(MrcEvProfile, DeterministicBySeed)
{
    auto values = [](int64_t stream) {
        MrcEvSet s = MakeProfile(32, 16, stream)->Generate(4, Srv6Paths(4, 64));
        std::vector<uint32_t> v;
        for (const auto& c : s.active)
        {
            v.push_back(c.value);
        }
        for (const auto& c : s.backup)
        {
            v.push_back(c.value);
        }
        return v;
    };
    EXPECT_EQ(values(3), values(3));
    EXPECT_NE(values(3), values(4));
}

/// SRv6 paths of `planes` x `t1PerPlane` with `replicas` EV values each, in mrc-sim's order:
/// every path once (replica 0), then the replicas 1.. (bits 16-23).
std::vector<MrcEvCandidate>
Srv6PathsWithReplicas(uint32_t planes, uint32_t t1PerPlane, uint32_t replicas)
{
    std::vector<MrcEvCandidate> paths = Srv6Paths(planes, t1PerPlane);
    std::vector<MrcEvCandidate> v = paths;
    for (uint32_t r = 1; r < replicas; ++r)
    {
        for (MrcEvCandidate c : paths)
        {
            c.value |= r << 16;
            v.push_back(c);
        }
    }
    return v;
}

TEST(MrcEvProfile, PinFirstPathPutsEveryActiveEvOnThePlanesFirstPath)
{
    // 2 planes x 4 T1s x 2 replicas; 2 active + 6 backup EVs per plane (case 18a's per-plane
    // counts). Pinned: both active EVs of a plane on T1 0, the backups on T1 1-3 only.
    for (int64_t stream = 1; stream <= 20; ++stream)
    {
        Ptr<MrcEvProfile> prof = MakeProfile(4, 12, stream);
        prof->SetAttribute("PinFirstPath", BooleanValue(true));
        MrcEvSet s = prof->Generate(2, Srv6PathsWithReplicas(2, 4, 2));
        ASSERT_EQ(CountPerPlane(s.active, 2), (std::vector<uint32_t>{2, 2}));
        ASSERT_EQ(CountPerPlane(s.backup, 2), (std::vector<uint32_t>{6, 6}));
        for (const auto& c : s.active)
        {
            EXPECT_EQ(MrcSrv6EvUplink(c.value), 0u) << "stream " << stream;
        }
        std::set<uint32_t> backupPaths;
        for (const auto& c : s.backup)
        {
            EXPECT_NE(MrcSrv6EvUplink(c.value), 0u) << "stream " << stream;
            backupPaths.insert(c.plane * 16 + MrcSrv6EvUplink(c.value));
        }
        EXPECT_EQ(backupPaths.size(), 6u); // T1 1-3 of both planes, two replicas each
    }
    // Without the pin the same profile puts active EVs on other T1s too (at some stream).
    uint32_t offFirst = 0;
    for (int64_t stream = 1; stream <= 20; ++stream)
    {
        MrcEvSet s = MakeProfile(4, 12, stream)->Generate(2, Srv6PathsWithReplicas(2, 4, 2));
        for (const auto& c : s.active)
        {
            offFirst += MrcSrv6EvUplink(c.value) != 0 ? 1 : 0;
        }
    }
    EXPECT_GT(offFirst, 0u);
}

TEST(MrcEvProfile, PinFirstPathFillsFromTheOtherPathsAndKeepsSparesLast)
{
    // 1 plane x 4 T1s x 2 replicas = 8 candidates. 3 active wanted: the first path has only 2,
    // so one more comes from T1 1-3.
    Ptr<MrcEvProfile> prof = MakeProfile(3, 5);
    prof->SetAttribute("PinFirstPath", BooleanValue(true));
    MrcEvSet s = prof->Generate(1, Srv6PathsWithReplicas(1, 4, 2));
    ASSERT_EQ(s.active.size(), 3u);
    ASSERT_EQ(s.backup.size(), 5u);
    EXPECT_EQ(MrcSrv6EvUplink(s.active[0].value), 0u);
    EXPECT_EQ(MrcSrv6EvUplink(s.active[1].value), 0u);
    EXPECT_NE(MrcSrv6EvUplink(s.active[2].value), 0u);
    // 1 active wanted, 7 backups: the other paths give 6, the first path's spare replica is
    // the last backup.
    Ptr<MrcEvProfile> prof2 = MakeProfile(1, 7);
    prof2->SetAttribute("PinFirstPath", BooleanValue(true));
    MrcEvSet s2 = prof2->Generate(1, Srv6PathsWithReplicas(1, 4, 2));
    ASSERT_EQ(s2.active.size(), 1u);
    ASSERT_EQ(s2.backup.size(), 7u);
    EXPECT_EQ(MrcSrv6EvUplink(s2.active[0].value), 0u);
    for (uint32_t i = 0; i < 6; ++i)
    {
        EXPECT_NE(MrcSrv6EvUplink(s2.backup[i].value), 0u);
    }
    EXPECT_EQ(MrcSrv6EvUplink(s2.backup[6].value), 0u);
    // Structured candidates (no carrier): drawn as without the pin, the same values.
    std::vector<MrcEvCandidate> st;
    for (uint32_t i = 1; i <= 40; ++i)
    {
        st.push_back(MrcEvCandidate::Structured(0, i));
    }
    Ptr<MrcEvProfile> a = MakeProfile(4, 4, 7);
    a->SetAttribute("Format", EnumValue(MrcEvProfile::STRUCTURED));
    a->SetAttribute("PinFirstPath", BooleanValue(true));
    Ptr<MrcEvProfile> b = MakeProfile(4, 4, 7);
    b->SetAttribute("Format", EnumValue(MrcEvProfile::STRUCTURED));
    MrcEvSet sa = a->Generate(1, st);
    MrcEvSet sb = b->Generate(1, st);
    ASSERT_EQ(sa.active.size(), sb.active.size());
    for (uint32_t i = 0; i < sa.active.size(); ++i)
    {
        EXPECT_EQ(sa.active[i].value, sb.active[i].value);
    }
}

TEST(MrcEvProfile, EcmpDrawsDistinct16BitValues)
{
    Ptr<MrcEvProfile> prof = MakeProfile(9, 3);
    prof->SetAttribute("Format", EnumValue(MrcEvProfile::STRUCTURED));
    MrcEvSet s = prof->Generate(3, {});
    EXPECT_EQ(CountPerPlane(s.active, 3), (std::vector<uint32_t>{3, 3, 3}));
    EXPECT_EQ(CountPerPlane(s.backup, 3), (std::vector<uint32_t>{1, 1, 1}));
    std::set<uint32_t> values;
    for (const auto* list : {&s.active, &s.backup})
    {
        for (const auto& c : *list)
        {
            EXPECT_FALSE(c.hasCarrier);
            EXPECT_GE(c.value, 1u);
            EXPECT_LE(c.value, 0xffffu);
            values.insert(c.value);
        }
    }
    EXPECT_EQ(values.size(), 12u);
    EXPECT_EQ(s.evMinActive, 2u); // 9 / 4
}

TEST(MrcEvProfile, ExplicitArrays)
{
    Ptr<MrcEvProfile> prof = MakeProfile(128, 64);
    prof->SetAttribute("Format", EnumValue(MrcEvProfile::STRUCTURED));
    prof->SetAttribute("EvMinActive", UintegerValue(2));
    prof->SetExplicit({MrcEvCandidate::Structured(0, 10),
                       MrcEvCandidate::Structured(1, 11),
                       MrcEvCandidate::Structured(1, 12)},
                      {MrcEvCandidate::Structured(0, 20)});
    EXPECT_EQ(prof->GetMode(), MrcEvProfile::EXPLICIT);
    MrcEvSet s = prof->Generate(2, {});
    ASSERT_EQ(s.active.size(), 3u);
    ASSERT_EQ(s.backup.size(), 1u);
    EXPECT_EQ(s.active[2].value, 12u);
    EXPECT_EQ(s.backup[0].value, 20u);
    EXPECT_EQ(s.evMinActive, 2u);
}

// ---------------------------------------------------------------- selection

TEST(MrcEvTable, InitStates)
{
    Ptr<MrcEvTable> t = MakeTable(StructuredSet(4, 8, 2, 8));
    EXPECT_EQ(t->GetEvCount(), 40u);
    EXPECT_EQ(t->GetPlaneCount(), 4u);
    EXPECT_EQ(t->GetActiveCount(), 32u);
    EXPECT_EQ(t->CountInState(MrcEvState::GOOD), 32u);
    EXPECT_EQ(t->CountInState(MrcEvState::UNKNOWN), 8u);
    EXPECT_EQ(t->GetBackupCount(2), 2u);
    EXPECT_EQ(t->FindByValue(2 * 256 + 3), 2u * 8 + 2); // plane 2, i = 2
    EXPECT_EQ(t->FindByValue(0xdead), MrcEvTable::NO_EV);
    EXPECT_EQ(t->GetEvMinActive(), 8u);
}

TEST(MrcEvTable, ShuffleCoversAllOncePerRound)
{
    Ptr<MrcEvTable> t = MakeTable(StructuredSet(4, 8, 0, 0));
    std::vector<uint32_t> r1 = SelectN(t, 32);
    std::vector<uint32_t> r2 = SelectN(t, 32);
    std::vector<uint32_t> all(32);
    for (uint32_t i = 0; i < 32; ++i)
    {
        all[i] = i;
    }
    std::vector<uint32_t> s1 = r1;
    std::vector<uint32_t> s2 = r2;
    std::sort(s1.begin(), s1.end());
    std::sort(s2.begin(), s2.end());
    EXPECT_EQ(s1, all);
    EXPECT_EQ(s2, all);
    EXPECT_NE(r1, r2);  // reshuffled
    EXPECT_NE(r1, all); // not in id order
    EXPECT_EQ(t->GetRounds(), 2u);
    EXPECT_EQ(t->GetEntry(r1[0]).sent, 2u);
}

TEST(MrcEvTable, SelectionDeterministicByStream)
{
    auto run = [](int64_t stream) {
        Ptr<MrcEvTable> t = MakeTable(StructuredSet(4, 8, 0, 0), stream);
        return SelectN(t, 96);
    };
    EXPECT_EQ(run(21), run(21));
    EXPECT_NE(run(21), run(22));
}

TEST(MrcEvTable, NeverExcludedOrBlockedPort)
{
    Ptr<MrcEvTable> t = MakeTable(StructuredSet(4, 8, 0, 0));
    const uint32_t excluded = 13;
    const uint32_t mask = ALL & ~(1u << 2); // plane 2 cannot send
    std::vector<uint32_t> v = SelectN(t, 300, mask, excluded);
    std::set<uint32_t> seen;
    for (uint32_t id : v)
    {
        ASSERT_NE(id, MrcEvTable::NO_EV);
        EXPECT_NE(id, excluded);
        EXPECT_NE(t->GetPlane(id), 2u);
        seen.insert(id);
    }
    EXPECT_EQ(seen.size(), 32u - 8 - 1);
    // nothing sendable: NO_EV
    EXPECT_EQ(t->Select(0), MrcEvTable::NO_EV);
    // only the excluded EV could go: NO_EV, no fallback
    Ptr<MrcEvTable> one = MakeTable(StructuredSet(1, 2, 0, 0));
    one->Deny(1);
    EXPECT_EQ(one->Select(ALL, 0), MrcEvTable::NO_EV);
    EXPECT_EQ(one->Select(ALL), 0u);
}

// ---------------------------------------------------------------- transitions

TEST(MrcEvTable, EcnEchoSkipsOneRotation)
{
    Ptr<MrcEvTable> t = MakeTable(StructuredSet(2, 4, 0, 0));
    Recorder rec;
    rec.Attach(t);
    SelectN(t, 8); // round 1 complete
    const uint32_t x = 5;
    t->OnSack(x, MrcPathFeedback::NONE);
    EXPECT_EQ(t->GetState(x), MrcEvState::GOOD);
    t->OnSack(x, MrcPathFeedback::SKIP_ONCE);
    EXPECT_EQ(t->GetState(x), MrcEvState::SKIP);
    EXPECT_EQ(t->GetEntry(x).ecnEchoes, 1u);
    std::vector<uint32_t> r2 = SelectN(t, 7); // round 2: the 7 others
    EXPECT_EQ(std::count(r2.begin(), r2.end(), x), 0);
    EXPECT_EQ(std::set<uint32_t>(r2.begin(), r2.end()).size(), 7u);
    std::vector<uint32_t> r3 = SelectN(t, 8); // round 3: back
    EXPECT_EQ(std::count(r3.begin(), r3.end(), x), 1);
    EXPECT_EQ(t->GetState(x), MrcEvState::GOOD);
    ASSERT_EQ(rec.changes.size(), 2u);
    EXPECT_EQ(rec.changes[0].reason, MrcEvReason::ECN_ECHO);
    EXPECT_EQ(rec.changes[0].from, MrcEvState::GOOD);
    EXPECT_EQ(rec.changes[0].to, MrcEvState::SKIP);
    EXPECT_EQ(rec.changes[0].value, 256u + 2); // id 5 = plane 1, i = 1
    EXPECT_EQ(rec.changes[0].plane, 1u);
    EXPECT_EQ(rec.changes[1].reason, MrcEvReason::SKIP_EXPIRED);
    EXPECT_EQ(rec.changes[1].to, MrcEvState::GOOD);
}

TEST(MrcEvTable, TrimNackSkipsTrimSkipTurns)
{
    Ptr<MrcEvTable> t = CreateObject<MrcEvTable>();
    t->SetAttribute("TrimSkipTurns", UintegerValue(2));
    t->AssignStreams(1);
    t->Init(StructuredSet(1, 4, 0, 0));
    SelectN(t, 4);
    t->OnNack(2, MrcNackReason::TRIMMED_LASTHOP); // does not count against the EV
    t->OnNack(2, MrcNackReason::PSN_OOR_WINDOW);
    EXPECT_EQ(t->GetState(2), MrcEvState::GOOD);
    t->OnNack(2, MrcNackReason::TRIMMED);
    EXPECT_EQ(t->GetState(2), MrcEvState::SKIP);
    EXPECT_EQ(t->GetEntry(2).trims, 1u);
    std::vector<uint32_t> r = SelectN(t, 6); // two rounds of 3
    EXPECT_EQ(std::count(r.begin(), r.end(), 2u), 0);
    std::vector<uint32_t> r3 = SelectN(t, 4);
    EXPECT_EQ(std::count(r3.begin(), r3.end(), 2u), 1);
}

TEST(MrcEvTable, TimeModeSkipEndsAfterSkipTime)
{
    Ptr<MrcEvTable> t = CreateObject<MrcEvTable>();
    t->SetAttribute("SkipMode", EnumValue(MrcEvTable::SKIP_TIME));
    t->SetBaseRtt(MicroSeconds(10)); // SkipTime 0 = base RTT
    t->AssignStreams(1);
    t->Init(StructuredSet(1, 4, 0, 0));
    t->OnSack(1, MrcPathFeedback::SKIP_ONCE);
    EXPECT_EQ(t->GetState(1), MrcEvState::SKIP);
    std::vector<uint32_t> early;
    std::vector<uint32_t> late;
    Simulator::Schedule(MicroSeconds(9), [&]() { early = SelectN(t, 12); });
    Simulator::Schedule(MicroSeconds(10), [&]() { late = SelectN(t, 4); });
    Simulator::Run();
    EXPECT_EQ(std::count(early.begin(), early.end(), 1u), 0);
    EXPECT_GE(std::count(late.begin(), late.end(), 1u), 1);
    EXPECT_EQ(t->GetState(1), MrcEvState::GOOD);
    Simulator::Destroy();
}

TEST(MrcEvTable, TimeoutRetiresAndReplacesFromSamePlane)
{
    Ptr<MrcEvTable> t = MakeTable(StructuredSet(2, 4, 2, 2));
    Recorder rec;
    rec.Attach(t);
    const uint32_t x = 5; // plane 1
    t->OnTimeout(x);
    EXPECT_EQ(t->GetState(x), MrcEvState::ASSUMED_BAD);
    EXPECT_EQ(t->GetEntry(x).set, MrcEvEntry::RETIRED);
    EXPECT_EQ(t->GetEntry(x).retirements, 1u);
    EXPECT_EQ(t->GetActiveCount(1), 4u);
    EXPECT_EQ(t->GetBackupCount(1), 1u);
    EXPECT_EQ(t->GetBackupCount(0), 2u);
    // the oldest backup of plane 1 (id 8 + 2 = 10, value 256 + 128) took its place
    const uint32_t repl = t->FindByValue(256 + 128);
    EXPECT_EQ(t->GetEntry(repl).set, MrcEvEntry::ACTIVE);
    EXPECT_EQ(t->GetState(repl), MrcEvState::GOOD);
    ASSERT_EQ(rec.changes.size(), 2u);
    EXPECT_EQ(rec.changes[0].reason, MrcEvReason::TIMEOUT);
    EXPECT_EQ(rec.changes[0].to, MrcEvState::ASSUMED_BAD);
    EXPECT_EQ(rec.changes[1].id, repl);
    EXPECT_EQ(rec.changes[1].from, MrcEvState::UNKNOWN);
    EXPECT_EQ(rec.changes[1].reason, MrcEvReason::PROMOTED);
    // selection: the retired EV never, the replacement once per round
    std::vector<uint32_t> r = SelectN(t, 16);
    EXPECT_EQ(std::count(r.begin(), r.end(), x), 0);
    EXPECT_EQ(std::count(r.begin(), r.end(), repl), 2);
    // feedback for a retired EV is ignored
    t->OnSack(x, MrcPathFeedback::SKIP_ONCE);
    t->OnTimeout(x);
    EXPECT_EQ(t->GetState(x), MrcEvState::ASSUMED_BAD);
    EXPECT_EQ(t->GetEntry(x).retirements, 1u);
    Simulator::Destroy();
}

TEST(MrcEvTable, AlwaysSkipAndInferredLossRetire)
{
    Ptr<MrcEvTable> t = MakeTable(StructuredSet(2, 4, 2, 2));
    t->OnSack(1, MrcPathFeedback::SKIP_ONCE);
    t->OnSack(1, MrcPathFeedback::ALWAYS_SKIP); // SKIP -> ASSUMED_BAD
    EXPECT_EQ(t->GetState(1), MrcEvState::ASSUMED_BAD);
    t->OnInferredLoss(2);
    EXPECT_EQ(t->GetState(2), MrcEvState::ASSUMED_BAD);
    EXPECT_EQ(t->GetActiveCount(0), 4u);
    EXPECT_EQ(t->GetBackupCount(0), 0u);
    Simulator::Destroy();
}

TEST(MrcEvTable, MinActiveFloorTurnsRetirementIntoSkip)
{
    // 4 active on one plane, no backup, ev_min_active 3
    Ptr<MrcEvTable> t = MakeTable(StructuredSet(1, 4, 0, 3));
    Recorder rec;
    rec.Attach(t);
    t->OnTimeout(0);
    EXPECT_EQ(t->GetState(0), MrcEvState::ASSUMED_BAD);
    EXPECT_EQ(t->GetActiveCount(), 3u);
    t->OnTimeout(1);
    EXPECT_EQ(t->GetState(1), MrcEvState::SKIP);
    EXPECT_EQ(t->GetEntry(1).set, MrcEvEntry::ACTIVE);
    EXPECT_EQ(t->GetActiveCount(), 3u);
    EXPECT_EQ(rec.changes.back().reason, MrcEvReason::MIN_ACTIVE_FLOOR);
    Simulator::Destroy();
}

TEST(MrcEvTable, ProbesReviveAfterConsecutiveSuccesses)
{
    Ptr<MrcEvTable> t = CreateObject<MrcEvTable>();
    t->SetAttribute("ProbeInterval", TimeValue(MicroSeconds(100)));
    t->SetAttribute("ProbeJitter", DoubleValue(0.5));
    t->SetAttribute("ProbeTimeout", TimeValue(MicroSeconds(200)));
    t->SetAttribute("ReviveSuccesses", UintegerValue(3));
    t->AssignStreams(1);
    t->Init(StructuredSet(2, 4, 2, 0));
    Recorder rec;
    rec.Attach(t);
    std::vector<Time> probeTimes;
    uint32_t answered = 0;
    const uint32_t x = 3;
    // answer 2 probes, let the 3rd time out (count resets), then answer 3 more
    t->SetProbeCallback(Callback<void, uint32_t>([&](uint32_t id) {
        EXPECT_EQ(id, x);
        probeTimes.push_back(Simulator::Now());
        if (probeTimes.size() == 3)
        {
            return;
        }
        Simulator::Schedule(MicroSeconds(10), [&, id]() {
            ++answered;
            EXPECT_TRUE(t->OnProbeAnswer(id, MrcPathFeedback::NONE));
            EXPECT_EQ(t->GetEntry(id).probeSuccesses,
                      t->GetState(id) == MrcEvState::GOOD
                          ? 0u
                          : (answered <= 2 ? answered : answered - 2));
        });
    }));
    t->OnTimeout(x);
    EXPECT_FALSE(t->OnProbeAnswer(x, MrcPathFeedback::NONE)); // nothing outstanding yet
    Simulator::Run();
    ASSERT_EQ(probeTimes.size(), 6u);
    EXPECT_EQ(answered, 5u);
    EXPECT_EQ(t->GetState(x), MrcEvState::GOOD);
    const MrcEvEntry& e = t->GetEntry(x);
    EXPECT_EQ(e.probesSent, 6u);
    EXPECT_EQ(e.probeTimeouts, 1u);
    EXPECT_EQ(e.probeAnswers, 5u);
    // gaps: interval 100 us +-50 %, measured from the answer (10 us) or the timeout (200 us)
    EXPECT_GE(probeTimes[0], MicroSeconds(50));
    EXPECT_LE(probeTimes[0], MicroSeconds(150));
    for (uint32_t i = 1; i < probeTimes.size(); ++i)
    {
        Time base = i == 3 ? MicroSeconds(200) : MicroSeconds(10);
        Time gap = probeTimes[i] - probeTimes[i - 1] - base;
        EXPECT_GE(gap, MicroSeconds(50)) << i;
        EXPECT_LE(gap, MicroSeconds(150)) << i;
    }
    // the plane was refilled from backup, so the revived EV joins the end of the backup set
    EXPECT_EQ(e.set, MrcEvEntry::BACKUP);
    EXPECT_EQ(t->GetActiveCount(0), 4u);
    EXPECT_EQ(t->GetBackupCount(0), 2u);
    EXPECT_EQ(rec.changes.back().reason, MrcEvReason::PROBE_REVIVED);
    EXPECT_EQ(rec.changes.back().from, MrcEvState::ASSUMED_BAD);
    Simulator::Destroy();
}

TEST(MrcEvTable, ProbeAnswerSkipOnceRevivesToSkipAndRefillsShortPlane)
{
    Ptr<MrcEvTable> t = CreateObject<MrcEvTable>();
    t->SetAttribute("ReviveSuccesses", UintegerValue(2));
    t->AssignStreams(2);
    t->Init(StructuredSet(2, 4, 0, 0)); // no backup: the plane stays short
    t->SetProbeCallback(Callback<void, uint32_t>([&](uint32_t id) {
        // first answer ALWAYS_SKIP (a failure), then SKIP_ONCE twice
        MrcPathFeedback m = t->GetEntry(id).probesSent == 1 ? MrcPathFeedback::ALWAYS_SKIP
                                                            : MrcPathFeedback::SKIP_ONCE;
        Simulator::Schedule(MicroSeconds(5), [&, id, m]() { t->OnProbeAnswer(id, m); });
    }));
    t->OnTimeout(6);
    EXPECT_EQ(t->GetActiveCount(1), 3u);
    Simulator::Run();
    EXPECT_EQ(t->GetEntry(6).probesSent, 3u);
    EXPECT_EQ(t->GetState(6), MrcEvState::SKIP);
    EXPECT_EQ(t->GetEntry(6).set, MrcEvEntry::ACTIVE);
    EXPECT_EQ(t->GetActiveCount(1), 4u);
    Simulator::Destroy();
}

TEST(MrcEvTable, DeniedOnlyByController)
{
    Ptr<MrcEvTable> t = MakeTable(StructuredSet(2, 4, 1, 0));
    Recorder rec;
    rec.Attach(t);
    t->SetProbeCallback(Callback<void, uint32_t>([](uint32_t) { FAIL() << "probe of DENIED"; }));
    t->Deny(1);
    EXPECT_EQ(t->GetState(1), MrcEvState::DENIED);
    EXPECT_EQ(t->GetActiveCount(0), 4u); // replaced from backup
    EXPECT_EQ(t->GetBackupCount(0), 0u);
    ASSERT_EQ(rec.changes.size(), 2u);
    EXPECT_EQ(rec.changes[0].reason, MrcEvReason::CONTROLLER_DENY);
    EXPECT_EQ(rec.changes[1].reason, MrcEvReason::PROMOTED);
    // nothing else moves it
    t->OnSack(1, MrcPathFeedback::NONE);
    t->OnSack(1, MrcPathFeedback::ALWAYS_SKIP);
    t->OnTimeout(1);
    EXPECT_FALSE(t->OnProbeAnswer(1, MrcPathFeedback::NONE));
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    EXPECT_EQ(t->GetState(1), MrcEvState::DENIED);
    std::vector<uint32_t> r = SelectN(t, 24);
    EXPECT_EQ(std::count(r.begin(), r.end(), 1u), 0);
    // deny a backup EV, deny an ASSUMED_BAD EV (its probes stop)
    t->Deny(9); // plane 1 backup (value 256 + 128)
    EXPECT_EQ(t->GetBackupCount(1), 0u);
    // controller allows it back: GOOD, into the backup set (plane 0 is full)
    t->Allow(1);
    EXPECT_EQ(t->GetState(1), MrcEvState::GOOD);
    EXPECT_EQ(t->GetEntry(1).set, MrcEvEntry::BACKUP);
    EXPECT_EQ(rec.changes.back().reason, MrcEvReason::CONTROLLER_ALLOW);
    t->Allow(2); // not denied: no effect
    EXPECT_EQ(t->GetState(2), MrcEvState::GOOD);
    Simulator::Destroy();
}

TEST(MrcEvTable, DenyStopsProbing)
{
    Ptr<MrcEvTable> t = MakeTable(StructuredSet(1, 4, 0, 0));
    uint32_t probes = 0;
    t->SetProbeCallback(Callback<void, uint32_t>([&](uint32_t) { ++probes; }));
    t->OnTimeout(0);
    Simulator::Schedule(MicroSeconds(100), [&]() { t->Deny(0); });
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    EXPECT_EQ(probes, 0u); // first probe is due at >= 500 us
    EXPECT_EQ(t->GetState(0), MrcEvState::DENIED);
    Simulator::Destroy();
}

TEST(MrcEvTable, PlaneDownRemovesExactlyThatPlane)
{
    Ptr<MrcEvTable> t = MakeTable(StructuredSet(4, 4, 0, 0));
    Recorder rec;
    rec.Attach(t);
    t->SetRemotePortUp(1, false);
    EXPECT_FALSE(t->IsPlaneUp(1));
    std::vector<uint32_t> r = SelectN(t, 36); // 3 rounds of the 12 others
    std::set<uint32_t> seen(r.begin(), r.end());
    EXPECT_EQ(seen.size(), 12u);
    for (uint32_t id : r)
    {
        ASSERT_NE(id, MrcEvTable::NO_EV);
        EXPECT_NE(t->GetPlane(id), 1u);
    }
    for (uint32_t id = 0; id < 16; ++id)
    {
        EXPECT_EQ(std::count(r.begin(), r.end(), id), t->GetPlane(id) == 1 ? 0 : 3) << id;
    }
    // a loss on the down plane does not retire the EV (Q3)
    t->OnTimeout(4);
    EXPECT_EQ(t->GetState(4), MrcEvState::GOOD);
    // local down too; remote up: still down; local up: back
    t->SetLocalPortUp(1, false);
    t->SetRemotePortUp(1, true);
    EXPECT_FALSE(t->IsPlaneUp(1));
    t->SetLocalPortUp(1, true);
    EXPECT_TRUE(t->IsPlaneUp(1));
    std::vector<uint32_t> r2 = SelectN(t, 16);
    EXPECT_EQ(std::set<uint32_t>(r2.begin(), r2.end()).size(), 16u);
    ASSERT_EQ(rec.planes.size(), 2u);
    EXPECT_EQ(rec.planes[0], std::make_pair(1u, false));
    EXPECT_EQ(rec.planes[1], std::make_pair(1u, true));
    EXPECT_TRUE(rec.changes.empty()); // EV states untouched
    Simulator::Destroy();
}

TEST(MrcEvTable, RetireMidRoundKeepsRoundIntact)
{
    // removing EVs mid-round must not cost the unvisited EVs their turn
    Ptr<MrcEvTable> t = MakeTable(StructuredSet(1, 8, 4, 0));
    std::vector<uint32_t> first = SelectN(t, 3);
    t->OnTimeout(first[1]); // visited
    std::vector<uint32_t> rest = SelectN(t, 6);
    // visited 3 + remaining 5 originals + 1 replacement appended to this round
    std::set<uint32_t> round(first.begin(), first.end());
    round.insert(rest.begin(), rest.end());
    EXPECT_EQ(round.size(), 9u);
    EXPECT_EQ(t->GetRounds(), 1u);
    const uint32_t repl = t->FindByValue(128);
    EXPECT_EQ(std::count(rest.begin(), rest.end(), repl), 1);
    Simulator::Destroy();
}

TEST(MrcEvTable, InitFromSrv6Profile)
{
    Ptr<MrcEvProfile> prof = MakeProfile(16, 8);
    Ptr<MrcEvTable> t = CreateObject<MrcEvTable>();
    t->Init(prof, 4, Srv6Paths(4, 8));
    EXPECT_EQ(t->GetActiveCount(), 16u);
    for (uint32_t p = 0; p < 4; ++p)
    {
        EXPECT_EQ(t->GetActiveCount(p), 4u);
        EXPECT_EQ(t->GetBackupCount(p), 2u);
    }
    uint32_t id = t->Select(ALL);
    ASSERT_NE(id, MrcEvTable::NO_EV);
    EXPECT_TRUE(t->GetEntry(id).ev.hasCarrier);
    EXPECT_EQ(MrcSrv6EvPlane(t->GetValue(id)), t->GetPlane(id));
    EXPECT_EQ(t->GetEvMinActive(), 4u);
}

TEST(MrcEvTable, RandomFeedbackKeepsInvariants)
{
    // 4 planes x 6 active + 3 backup; random feedback, controller actions, port flaps and
    // probe answers for 20 ms of simulated time. After every step: sets and states agree,
    // planes are refilled while they have backup, and Select only returns usable EVs.
    Ptr<MrcEvTable> t = CreateObject<MrcEvTable>();
    t->SetAttribute("ProbeInterval", TimeValue(MicroSeconds(20)));
    t->SetAttribute("ProbeTimeout", TimeValue(MicroSeconds(40)));
    t->SetAttribute("ReviveSuccesses", UintegerValue(2));
    t->AssignStreams(3);
    t->Init(StructuredSet(4, 6, 3, 4));
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    u->SetStream(99);
    t->SetProbeCallback(Callback<void, uint32_t>([&](uint32_t id) {
        if (u->GetValue() < 0.7)
        {
            MrcPathFeedback m =
                u->GetValue() < 0.8 ? MrcPathFeedback::NONE : MrcPathFeedback::SKIP_ONCE;
            Simulator::Schedule(MicroSeconds(5), [&, id, m]() { t->OnProbeAnswer(id, m); });
        }
    }));
    const uint32_t n = t->GetEvCount();
    uint64_t selected = 0;
    uint64_t checks = 0;
    auto check = [&]() {
        std::vector<uint32_t> act(4, 0);
        std::vector<uint32_t> bak(4, 0);
        for (uint32_t id = 0; id < n; ++id)
        {
            const MrcEvEntry& e = t->GetEntry(id);
            switch (e.set)
            {
            case MrcEvEntry::ACTIVE:
                ++act[e.ev.plane];
                ASSERT_TRUE(e.state == MrcEvState::GOOD || e.state == MrcEvState::SKIP);
                break;
            case MrcEvEntry::BACKUP:
                ++bak[e.ev.plane];
                ASSERT_NE(e.state, MrcEvState::ASSUMED_BAD);
                ASSERT_NE(e.state, MrcEvState::DENIED);
                break;
            case MrcEvEntry::RETIRED:
                ASSERT_EQ(e.state, MrcEvState::ASSUMED_BAD);
                break;
            case MrcEvEntry::DENIED:
                ASSERT_EQ(e.state, MrcEvState::DENIED);
                break;
            }
        }
        uint32_t total = 0;
        for (uint32_t p = 0; p < 4; ++p)
        {
            ASSERT_EQ(act[p], t->GetActiveCount(p));
            ASSERT_EQ(bak[p], t->GetBackupCount(p));
            ASSERT_LE(act[p], 6u);
            ASSERT_TRUE(act[p] == 6 || bak[p] == 0) << "plane " << p << " short with backup";
            total += act[p];
        }
        ASSERT_EQ(total, t->GetActiveCount());
        ++checks;
    };
    std::function<void()> step = [&]() {
        const uint32_t id = u->GetInteger(0, n - 1);
        const double r = u->GetValue();
        if (r < 0.25)
        {
            t->OnSack(id, MrcPathFeedback::SKIP_ONCE);
        }
        else if (r < 0.35)
        {
            t->OnNack(id, MrcNackReason::TRIMMED);
        }
        else if (r < 0.40)
        {
            t->OnTimeout(id);
        }
        else if (r < 0.42)
        {
            t->OnSack(id, MrcPathFeedback::ALWAYS_SKIP);
        }
        else if (r < 0.43)
        {
            t->Deny(id);
        }
        else if (r < 0.46)
        {
            t->Allow(id);
        }
        else if (r < 0.47)
        {
            t->SetRemotePortUp(u->GetInteger(0, 3), u->GetValue() < 0.5);
        }
        check();
        for (uint32_t k = 0; k < 4; ++k)
        {
            const uint32_t mask = u->GetInteger(0, 15);
            const uint32_t excl = u->GetValue() < 0.3 ? u->GetInteger(0, n - 1) : MrcEvTable::NO_EV;
            const uint32_t s = t->Select(mask, excl);
            if (s != MrcEvTable::NO_EV)
            {
                const MrcEvEntry& e = t->GetEntry(s);
                ASSERT_EQ(e.state, MrcEvState::GOOD);
                ASSERT_EQ(e.set, MrcEvEntry::ACTIVE);
                ASSERT_NE(s, excl);
                ASSERT_TRUE((mask >> e.ev.plane) & 1);
                ASSERT_TRUE(t->IsPlaneUp(e.ev.plane));
                ++selected;
            }
        }
        check();
        if (Simulator::Now() < MilliSeconds(20))
        {
            Simulator::Schedule(MicroSeconds(1), step);
        }
    };
    Simulator::Schedule(MicroSeconds(1), step);
    Simulator::Stop(MilliSeconds(21));
    Simulator::Run();
    EXPECT_GT(checks, 30000u);
    EXPECT_GT(selected, 10000u);
    // the random walk exercised retirement and revival
    uint32_t retired = 0;
    uint32_t revived = 0;
    for (uint32_t id = 0; id < n; ++id)
    {
        retired += t->GetEntry(id).retirements;
        revived += t->GetEntry(id).probeAnswers;
    }
    EXPECT_GT(retired, 50u);
    EXPECT_GT(revived, 50u);
    Simulator::Destroy();
}

// ---------------------------------------------------------------- path-interleaved order

namespace
{

/// An SRv6 set of `paths` paths on one plane with `replicas` EVs per path (told apart by a
/// replica number in bits 16-23, as mrc-sim numbers them), all active.
MrcEvSet
ReplicaSet(uint32_t paths, uint32_t replicas)
{
    MrcEvSet s;
    for (uint32_t r = 0; r < replicas; ++r)
    {
        for (uint32_t k = 0; k < paths; ++k)
        {
            MrcEvCandidate c = Srv6Path(0, k);
            c.value |= r << 16;
            s.active.push_back(c);
        }
    }
    return s;
}

} // namespace

TEST(MrcEvTable, StratifiedOrderInterleavesPaths)
{
    // 4 paths x 32 EVs each: every window of 4 consecutive picks within a round holds each
    // path exactly once, every EV is used once per round, and the order still changes
    Ptr<MrcEvTable> t = MakeTable(ReplicaSet(4, 32));
    EXPECT_EQ(t->GetPathCount(), 4u);
    std::vector<uint32_t> prevRound;
    for (uint32_t round = 0; round < 5; ++round)
    {
        std::vector<uint32_t> r = SelectN(t, 128);
        std::set<uint32_t> distinct(r.begin(), r.end());
        EXPECT_EQ(distinct.size(), 128u);
        for (uint32_t i = 0; i + 4 <= r.size(); ++i)
        {
            std::set<uint32_t> paths;
            for (uint32_t j = i; j < i + 4; ++j)
            {
                paths.insert(t->GetPath(r[j]));
            }
            EXPECT_EQ(paths.size(), 4u) << "round " << round << " window at " << i;
        }
        EXPECT_NE(r, prevRound);
        prevRound = r;
    }
    EXPECT_EQ(t->GetRounds(), 5u);
}

TEST(MrcEvTable, ShuffleOrderSendsRunsOnOnePath)
{
    // the old order (Order = Shuffle) is still available; over 5 rounds of 128 picks it puts
    // some path twice in a window of 4 (the property the stratified order guarantees)
    Ptr<MrcEvTable> t = CreateObject<MrcEvTable>();
    t->SetAttribute("Order", StringValue("Shuffle"));
    t->AssignStreams(5);
    t->Init(ReplicaSet(4, 32));
    uint32_t repeats = 0;
    std::vector<uint32_t> r = SelectN(t, 640);
    for (uint32_t i = 0; i + 4 <= r.size(); ++i)
    {
        std::set<uint32_t> paths;
        for (uint32_t j = i; j < i + 4; ++j)
        {
            paths.insert(t->GetPath(r[j]));
        }
        repeats += paths.size() < 4 ? 1 : 0;
    }
    EXPECT_GT(repeats, 100u);
}

TEST(MrcEvTable, StratifiedOrderWithUnequalPathsAndRetirement)
{
    // 3 paths with 4, 2 and 1 EVs: sub-round r visits the paths that still have an r-th EV,
    // in the round's path order; a retired EV is replaced and every active EV still gets
    // exactly one turn per round
    MrcEvSet s;
    const uint32_t counts[3] = {4, 2, 1};
    for (uint32_t k = 0; k < 3; ++k)
    {
        for (uint32_t r = 0; r < counts[k]; ++r)
        {
            MrcEvCandidate c = Srv6Path(0, k);
            c.value |= r << 16;
            s.active.push_back(c);
        }
    }
    Ptr<MrcEvTable> t = MakeTable(s);
    EXPECT_EQ(t->GetPathCount(), 3u);
    std::vector<uint32_t> r = SelectN(t, 7);
    EXPECT_EQ(std::set<uint32_t>(r.begin(), r.end()).size(), 7u);
    // first sub-round: the three paths once each
    EXPECT_EQ(std::set<uint32_t>({t->GetPath(r[0]), t->GetPath(r[1]), t->GetPath(r[2])}).size(),
              3u);
    // the last pick of the round is on the path with 4 EVs (sub-rounds 3 and 4 hold only it)
    EXPECT_EQ(std::set<uint32_t>({t->GetPath(r[3]), t->GetPath(r[4])}),
              std::set<uint32_t>({0u, 1u}));
    EXPECT_EQ(t->GetPath(r[5]), 0u);
    EXPECT_EQ(t->GetPath(r[6]), 0u);
    // retire an EV of path 0: its replacement-less plane keeps 6 EVs, each once per round
    t->OnTimeout(r[6]);
    std::vector<uint32_t> r2 = SelectN(t, 6);
    EXPECT_EQ(std::set<uint32_t>(r2.begin(), r2.end()).size(), 6u);
    EXPECT_EQ(std::count(r2.begin(), r2.end(), r[6]), 0);
    Simulator::Destroy();
}

TEST(MrcEvTable, FirstOrderDrawnAfterStreamAssignment)
{
    // Init draws nothing: a stream fixed after Init (and after any number of other random
    // variables were created) gives the same order as one fixed before Init
    auto run = [](bool assignFirst, uint32_t otherVariables) {
        std::vector<Ptr<UniformRandomVariable>> others;
        for (uint32_t i = 0; i < otherVariables; ++i)
        {
            others.push_back(CreateObject<UniformRandomVariable>());
            others.back()->GetValue();
        }
        Ptr<MrcEvTable> t = CreateObject<MrcEvTable>();
        if (assignFirst)
        {
            t->AssignStreams(42);
        }
        t->Init(ReplicaSet(4, 8));
        EXPECT_EQ(t->GetRounds(), 0u);
        others.push_back(CreateObject<UniformRandomVariable>());
        if (!assignFirst)
        {
            t->AssignStreams(42);
        }
        return SelectN(t, 96);
    };
    const std::vector<uint32_t> ref = run(true, 0);
    EXPECT_EQ(run(false, 0), ref);
    EXPECT_EQ(run(false, 7), ref);
    EXPECT_EQ(run(true, 3), ref);
}

namespace
{

/// 2 planes x 2 paths x replicas EVs (active); backup replicas on both paths of plane 0.
MrcEvSet
TwoPlaneReplicaSet(uint32_t replicas, uint32_t backupReplicas)
{
    MrcEvSet s;
    for (uint32_t r = 0; r < replicas + backupReplicas; ++r)
    {
        for (uint32_t p = 0; p < 2; ++p)
        {
            for (uint32_t k = 0; k < 2; ++k)
            {
                if (r >= replicas && p == 1)
                {
                    continue;
                }
                MrcEvCandidate c = Srv6Path(p, k);
                c.value |= (r + 1) << 16;
                (r < replicas ? s.active : s.backup).push_back(c);
            }
        }
    }
    return s;
}

} // namespace

TEST(MrcEvTable, EachPlaneKeepsItsOwnRotationWhateverThePortTiming)
{
    // The NIC asks per port. Plane 0's port asks three times as often as plane 1's, in an
    // irregular pattern; plane 1 asks only now and then. Each plane walks its own stratified
    // rotation, so within a plane every window of 2 consecutive picks holds both of its
    // paths, and each of its EVs is used once per round: a busy port does not cost the
    // paths of another plane their turns (with one shared rotation it did, and the paths of
    // a plane drifted apart).
    Ptr<MrcEvTable> t = MakeTable(TwoPlaneReplicaSet(8, 0));
    std::vector<uint32_t> picks[2];
    const uint32_t pattern[] = {0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1};
    for (uint32_t i = 0; i < 14 * 16; ++i)
    {
        const uint32_t plane = pattern[i % 14];
        const uint32_t ev = t->Select(1u << plane);
        ASSERT_NE(ev, MrcEvTable::NO_EV);
        ASSERT_EQ(t->GetPlane(ev), plane);
        picks[plane].push_back(ev);
    }
    for (uint32_t plane = 0; plane < 2; ++plane)
    {
        const std::vector<uint32_t>& v = picks[plane];
        ASSERT_GE(v.size(), 32u);
        for (std::size_t i = 0; i + 2 <= v.size(); i += 2)
        {
            EXPECT_NE(t->GetPath(v[i]), t->GetPath(v[i + 1])) << "plane " << plane << " at " << i;
        }
        for (std::size_t r = 0; r + 16 <= v.size(); r += 16)
        {
            std::set<uint32_t> round(v.begin() + r, v.begin() + r + 16);
            EXPECT_EQ(round.size(), 16u) << "plane " << plane << " round at " << r;
        }
    }
}

TEST(MrcEvTable, ARetiredEvIsReplacedFromAnotherPath)
{
    // Plane 0 has backups on both of its paths, oldest first alternating. An EV of path A
    // retired by an inferred loss is replaced by a backup of path B, even where the oldest
    // backup is on path A (a replica of the same SRv6 carrier would fail the same way).
    Ptr<MrcEvTable> t = MakeTable(TwoPlaneReplicaSet(2, 3));
    ASSERT_EQ(t->GetBackupCount(0), 6u);
    for (uint32_t k = 0; k < 2; ++k) // both active EVs of path A, one after the other
    {
        // the active plane-0 EV of path 0 with the lowest id
        uint32_t victim = MrcEvTable::NO_EV;
        for (uint32_t id = 0; id < t->GetEvCount() && victim == MrcEvTable::NO_EV; ++id)
        {
            if (t->GetPlane(id) == 0 && t->GetEntry(id).set == MrcEvEntry::ACTIVE &&
                t->GetPath(id) == t->GetPath(0))
            {
                victim = id;
            }
        }
        ASSERT_NE(victim, MrcEvTable::NO_EV);
        std::set<uint32_t> before;
        for (uint32_t id = 0; id < t->GetEvCount(); ++id)
        {
            if (t->GetEntry(id).set == MrcEvEntry::ACTIVE)
            {
                before.insert(id);
            }
        }
        t->OnInferredLoss(victim);
        EXPECT_EQ(t->GetState(victim), MrcEvState::ASSUMED_BAD);
        uint32_t promoted = MrcEvTable::NO_EV;
        for (uint32_t id = 0; id < t->GetEvCount(); ++id)
        {
            if (t->GetEntry(id).set == MrcEvEntry::ACTIVE && before.count(id) == 0)
            {
                promoted = id;
            }
        }
        ASSERT_NE(promoted, MrcEvTable::NO_EV) << "retirement " << k;
        EXPECT_EQ(t->GetPlane(promoted), 0u);
        EXPECT_NE(t->GetPath(promoted), t->GetPath(victim)) << "retirement " << k;
    }
    Simulator::Destroy();
}

namespace
{
/// One plane with 4 paths (T1 0..3), `active` replicas of each path active; backups:
/// `backup0` replicas of path 0 first (the oldest), then `backup2` of path 2. Validation
/// case 15a's shape: path 0 fails first, path 1 later.
MrcEvSet
FourPathSet(uint32_t active, uint32_t backup0, uint32_t backup2, uint32_t minActive = 0)
{
    MrcEvSet s;
    for (uint32_t r = 0; r < active; ++r)
    {
        for (uint32_t k = 0; k < 4; ++k)
        {
            MrcEvCandidate c = Srv6Path(0, k);
            c.value |= (r + 1) << 16;
            s.active.push_back(c);
        }
    }
    for (uint32_t r = 0; r < backup0 + backup2; ++r)
    {
        MrcEvCandidate c = Srv6Path(0, r < backup0 ? 0 : 2);
        c.value |= (active + r + 1) << 16;
        s.backup.push_back(c);
    }
    s.evMinActive = minActive;
    return s;
}

Ptr<MrcEvTable>
MakeTableWith(const MrcEvSet& s, const std::string& attribute, bool on)
{
    Ptr<MrcEvTable> t = CreateObject<MrcEvTable>();
    t->SetAttribute(attribute, BooleanValue(on));
    EXPECT_EQ(t->AssignStreams(5), 1);
    t->Init(s);
    return t;
}

/// The active EVs of the path with T1 k (found by the path of an EV of that carrier).
std::vector<uint32_t>
ActiveOnPath(Ptr<MrcEvTable> t, uint32_t path)
{
    std::vector<uint32_t> v;
    for (uint32_t id = 0; id < t->GetEvCount(); ++id)
    {
        if (t->GetEntry(id).set == MrcEvEntry::ACTIVE && t->GetPath(id) == path)
        {
            v.push_back(id);
        }
    }
    return v;
}
} // namespace

TEST(MrcEvTable, RefillAvoidsFailedPathsSkipsBackupsOfARetiredPath)
{
    // 15a's mechanism: path 0 failed earlier (its EV ASSUMED_BAD); when an EV of path 1
    // is retired, the oldest backup not on path 1 is one of path 0, which would lose its
    // first packet too. With RefillAvoidsFailedPaths the backup of path 2 is promoted; once
    // only backups of path 0 are left, the plane's active set stays one short.
    for (bool avoid : {false, true})
    {
        SCOPED_TRACE(avoid ? "RefillAvoidsFailedPaths" : "default");
        Ptr<MrcEvTable> t = MakeTableWith(FourPathSet(1, 2, 1), "RefillAvoidsFailedPaths", avoid);
        ASSERT_EQ(t->GetActiveCount(), 4u);
        ASSERT_EQ(t->GetBackupCount(0), 3u);
        const uint32_t path0 = t->GetPath(0);
        // actives are ids 0..3 on T1 0..3; backups 4, 5 (T1 0) and 6 (T1 2)
        const uint32_t path1 = t->GetPath(1);
        const uint32_t path2 = t->GetPath(2);
        ASSERT_NE(path1, path0);
        ASSERT_NE(path2, path1);
        ASSERT_EQ(t->GetPath(4), path0);
        ASSERT_EQ(t->GetPath(6), path2);
        // path 0's EV fails: either rule promotes the backup of path 2 (not on path 0)
        t->OnInferredLoss(0);
        EXPECT_EQ(t->GetState(0), MrcEvState::ASSUMED_BAD);
        EXPECT_EQ(t->GetEntry(6).set, MrcEvEntry::ACTIVE);
        // path 1's EV fails: only backups of path 0 are left
        t->OnInferredLoss(1);
        EXPECT_EQ(t->GetState(1), MrcEvState::ASSUMED_BAD);
        if (!avoid)
        {
            // the oldest backup, on the path that failed before, is promoted
            EXPECT_EQ(t->GetEntry(4).set, MrcEvEntry::ACTIVE);
            EXPECT_EQ(t->GetActiveCount(), 4u);
            EXPECT_EQ(ActiveOnPath(t, path0).size(), 1u);
        }
        else
        {
            EXPECT_EQ(t->GetEntry(4).set, MrcEvEntry::BACKUP);
            EXPECT_EQ(t->GetEntry(5).set, MrcEvEntry::BACKUP);
            EXPECT_EQ(t->GetActiveCount(), 3u);
            EXPECT_TRUE(ActiveOnPath(t, path0).empty());
        }
        Simulator::Destroy();
    }
}

TEST(MrcEvTable, RefillAvoidsFailedPathsKeepsTheFloor)
{
    // ev_min_active 3 of 4 actives, only backups of the failed path 0 left: with the rule,
    // a retirement that would go below the floor (no backup may be promoted) turns into a
    // SKIP, as with an empty backup set
    Ptr<MrcEvTable> t = MakeTableWith(FourPathSet(1, 2, 0, 3), "RefillAvoidsFailedPaths", true);
    t->OnTimeout(0); // path 0: no backup off path 0 -> the plane stays at 3 (the floor)
    EXPECT_EQ(t->GetState(0), MrcEvState::ASSUMED_BAD);
    EXPECT_EQ(t->GetActiveCount(), 3u);
    t->OnTimeout(1);
    EXPECT_EQ(t->GetState(1), MrcEvState::SKIP);
    EXPECT_EQ(t->GetEntry(1).set, MrcEvEntry::ACTIVE);
    EXPECT_EQ(t->GetActiveCount(), 3u);
    Simulator::Destroy();
}

TEST(MrcEvTable, RetireWholePathRetiresTheCarriersOtherEvs)
{
    // 3 replicas of each of 4 paths active, no backup. A loss on one EV of path 1: by
    // default only that EV is retired (the other two still lose a packet each before they
    // go); with RetireWholePath all three go at once. ALWAYS_SKIP (an ECN signal, not a
    // loss) retires only its own EV either way.
    for (bool whole : {false, true})
    {
        SCOPED_TRACE(whole ? "RetireWholePath" : "default");
        Ptr<MrcEvTable> t = MakeTableWith(FourPathSet(3, 0, 0), "RetireWholePath", whole);
        ASSERT_EQ(t->GetActiveCount(), 12u);
        const uint32_t path1 = t->GetPath(1);
        ASSERT_EQ(ActiveOnPath(t, path1).size(), 3u);
        t->OnInferredLoss(1);
        EXPECT_EQ(t->GetState(1), MrcEvState::ASSUMED_BAD);
        EXPECT_EQ(ActiveOnPath(t, path1).size(), whole ? 0u : 2u);
        EXPECT_EQ(t->GetActiveCount(), whole ? 9u : 11u);
        // a timeout on path 2 does the same
        const uint32_t path2 = t->GetPath(2);
        t->OnTimeout(2);
        EXPECT_EQ(ActiveOnPath(t, path2).size(), whole ? 0u : 2u);
        // ALWAYS_SKIP on path 3: one EV only
        const uint32_t path3 = t->GetPath(3);
        t->OnSack(3, MrcPathFeedback::ALWAYS_SKIP);
        EXPECT_EQ(t->GetState(3), MrcEvState::ASSUMED_BAD);
        EXPECT_EQ(ActiveOnPath(t, path3).size(), 2u);
        Simulator::Destroy();
    }
}

TEST(MrcEvTable, RetireWholePathStopsAtTheFloor)
{
    // 3 replicas of 4 paths, ev_min_active 10: the loss on path 1 retires its EV (11 left)
    // and one replica (10 left); the third turns into a SKIP at the floor
    Ptr<MrcEvTable> t = MakeTableWith(FourPathSet(3, 0, 0, 10), "RetireWholePath", true);
    const uint32_t path1 = t->GetPath(1);
    t->OnInferredLoss(1);
    EXPECT_EQ(t->GetActiveCount(), 10u);
    const std::vector<uint32_t> left = ActiveOnPath(t, path1);
    ASSERT_EQ(left.size(), 1u);
    EXPECT_EQ(t->GetState(left[0]), MrcEvState::SKIP);
    Simulator::Destroy();
}

namespace
{
/// A table of FourPathSet(active, backup0, backup2) with the dead-carrier rule: N distinct
/// EVs, CarrierConfirmTime `confirm`; probes of the rule counted in `probes`.
Ptr<MrcEvTable>
MakeCarrierTable(const MrcEvSet& s, uint32_t n, Time confirm, std::vector<uint32_t>* probes)
{
    Ptr<MrcEvTable> t = CreateObject<MrcEvTable>();
    t->SetAttribute("CarrierLossEvs", UintegerValue(n));
    t->SetAttribute("CarrierConfirmTime", TimeValue(confirm));
    t->SetAttribute("ReviveSuccesses", UintegerValue(1));
    EXPECT_EQ(t->AssignStreams(5), 1);
    t->Init(s);
    if (probes)
    {
        t->SetProbeCallback(
            Callback<void, uint32_t>([probes](uint32_t id) { probes->push_back(id); }));
    }
    return t;
}
} // namespace

TEST(MrcEvTable, CarrierLossRetiresADeadCarrierAfterItsConfirmation)
{
    // 3 replicas of 4 paths (ids 0..11: id % 4 = T1), backups 12, 13 on T1 0 and 14, 15 on
    // T1 2. Path 0 dies: losses on two distinct EVs of it (0, then 4). By default each
    // retires its own EV and the third replica (8) stays until it loses a packet too. With
    // CarrierLossEvs 2 the carrier is suspect after the second loss, one probe goes on it,
    // and 10 us later, with no sign of life, 8 is retired as well (CARRIER_LOSS) and no
    // backup of path 0 is promoted: the two backups of path 2 refill, then the plane
    // stays one short.
    for (uint32_t n : {0u, 2u})
    {
        SCOPED_TRACE(n == 0 ? "default" : "CarrierLossEvs 2");
        std::vector<uint32_t> probes;
        Ptr<MrcEvTable> t = MakeCarrierTable(FourPathSet(3, 2, 2), n, MicroSeconds(10), &probes);
        Recorder rec;
        t->TraceConnectWithoutContext("EvState", MakeCallback(&Recorder::OnState, &rec));
        const uint32_t path0 = t->GetPath(0);
        ASSERT_EQ(t->GetPath(4), path0);
        ASSERT_EQ(t->GetPath(8), path0);
        ASSERT_EQ(t->GetPath(12), path0);
        ASSERT_EQ(t->GetPath(14), t->GetPath(2));
        t->OnInferredLoss(0);
        t->OnTimeout(4);
        EXPECT_EQ(t->GetState(0), MrcEvState::ASSUMED_BAD);
        EXPECT_EQ(t->GetState(4), MrcEvState::ASSUMED_BAD);
        EXPECT_EQ(t->GetEntry(8).set, MrcEvEntry::ACTIVE); // not yet: suspect only
        EXPECT_EQ(probes.size(), n == 0 ? 0u : 1u);
        if (!probes.empty())
        {
            EXPECT_EQ(t->GetPath(probes[0]), path0); // the probe tests the suspect carrier
        }
        Simulator::Stop(MicroSeconds(11));
        Simulator::Run();
        EXPECT_EQ(t->IsCarrierDown(path0), n != 0);
        EXPECT_EQ(t->GetCarrierFailures(), n == 0 ? 0u : 1u);
        if (n == 0)
        {
            EXPECT_EQ(t->GetEntry(8).set, MrcEvEntry::ACTIVE);
            EXPECT_EQ(t->GetActiveCount(), 12u); // both losses were refilled
        }
        else
        {
            EXPECT_EQ(t->GetState(8), MrcEvState::ASSUMED_BAD);
            bool carrierLoss = false;
            for (const auto& c : rec.changes)
            {
                carrierLoss = carrierLoss || (c.id == 8 && c.reason == MrcEvReason::CARRIER_LOSS);
                EXPECT_FALSE(c.reason == MrcEvReason::PROMOTED && t->GetPath(c.id) == path0)
                    << "backup " << c.id << " of the dead carrier promoted";
            }
            EXPECT_TRUE(carrierLoss);
            EXPECT_TRUE(ActiveOnPath(t, path0).empty());
            EXPECT_EQ(t->GetEntry(12).set, MrcEvEntry::BACKUP);
            EXPECT_EQ(t->GetEntry(13).set, MrcEvEntry::BACKUP);
            EXPECT_EQ(t->GetActiveCount(), 11u); // 9 + the two backups of path 2
        }
        Simulator::Destroy();
    }
}

TEST(MrcEvTable, CarrierLossSignsOfLifeClearTheSuspicion)
{
    // Each sign that the carrier delivers starts its count again: a SACK echoing one of
    // its EVs, a TRIMMED NACK, a probe answer, or a loss reported through LossOnLivePath (a
    // later packet of the path arrived). Losses on the same EV count once; losses spread
    // wider than CarrierLossWindow do not add up.
    // 4 replicas of 4 paths: path 1 is ids 1, 5, 9, 13
    const auto run = [](const std::function<void(Ptr<MrcEvTable>)>& between, bool down) {
        std::vector<uint32_t> probes;
        Ptr<MrcEvTable> t = MakeCarrierTable(FourPathSet(4, 0, 0), 2, MicroSeconds(10), &probes);
        t->OnInferredLoss(1);
        between(t);
        t->OnInferredLoss(5);
        Simulator::Stop(MicroSeconds(30));
        Simulator::Run();
        EXPECT_EQ(t->IsCarrierDown(t->GetPath(1)), down);
        EXPECT_EQ(t->GetEntry(13).set == MrcEvEntry::ACTIVE, !down);
        Simulator::Destroy();
    };
    {
        SCOPED_TRACE("nothing between: down");
        run([](Ptr<MrcEvTable>) {}, true);
    }
    {
        SCOPED_TRACE("a SACK echo of the carrier");
        run([](Ptr<MrcEvTable> t) { t->OnSack(9, MrcPathFeedback::NONE); }, false);
    }
    {
        SCOPED_TRACE("a TRIMMED NACK on the carrier");
        run([](Ptr<MrcEvTable> t) { t->OnNack(9, MrcNackReason::TRIMMED); }, false);
    }
    {
        SCOPED_TRACE("a loss whose path delivered later");
        run(
            [](Ptr<MrcEvTable> t) {
                t->LossOnLivePath(t->GetValue(9), MrcPathSignal::LOSS);
                EXPECT_EQ(t->GetState(9), MrcEvState::ASSUMED_BAD); // the EV itself goes
            },
            false);
    }
    {
        SCOPED_TRACE("a SACK echo of another carrier does not help");
        run([](Ptr<MrcEvTable> t) { t->OnSack(2, MrcPathFeedback::NONE); }, true);
    }
    {
        // after the second loss: the sign of life arrives within the confirmation time
        SCOPED_TRACE("a sign of life while suspect");
        std::vector<uint32_t> probes;
        Ptr<MrcEvTable> t = MakeCarrierTable(FourPathSet(4, 0, 0), 2, MicroSeconds(10), &probes);
        t->OnInferredLoss(1);
        t->OnInferredLoss(5);
        ASSERT_EQ(probes.size(), 1u);
        EXPECT_EQ(probes[0], 9u); // the first GOOD active EV of the carrier
        // its answer (a GOOD EV: not a revival, but the carrier works)
        Simulator::Schedule(MicroSeconds(5),
                            [t]() { EXPECT_FALSE(t->OnProbeAnswer(9, MrcPathFeedback::NONE)); });
        Simulator::Stop(MicroSeconds(30));
        Simulator::Run();
        EXPECT_FALSE(t->IsCarrierDown(t->GetPath(1)));
        EXPECT_EQ(t->GetEntry(9).set, MrcEvEntry::ACTIVE);
        Simulator::Destroy();
    }
    {
        SCOPED_TRACE("two losses of one EV count once");
        Ptr<MrcEvTable> t = MakeCarrierTable(FourPathSet(4, 0, 0), 2, Time(0), nullptr);
        t->OnInferredLoss(1);
        t->OnTimeout(1);
        EXPECT_FALSE(t->IsCarrierDown(t->GetPath(1)));
        t->OnTimeout(5); // no base RTT, no CarrierConfirmTime: no wait
        EXPECT_TRUE(t->IsCarrierDown(t->GetPath(1)));
        Simulator::Destroy();
    }
    {
        SCOPED_TRACE("losses further apart than CarrierLossWindow");
        Ptr<MrcEvTable> t = MakeCarrierTable(FourPathSet(4, 0, 0), 2, Time(0), nullptr);
        t->SetAttribute("CarrierLossWindow", TimeValue(MicroSeconds(100)));
        t->OnInferredLoss(1);
        Simulator::Schedule(MicroSeconds(150), [t]() { t->OnInferredLoss(5); });
        Simulator::Stop(MicroSeconds(200));
        Simulator::Run();
        EXPECT_FALSE(t->IsCarrierDown(t->GetPath(1)));
        Simulator::Destroy();
    }
}

TEST(MrcEvTable, CarrierLossEndsWhenAProbeRevivesOneOfItsEvs)
{
    // 3 replicas of 4 paths, backups 12, 13, 14 all on path 0. Losses on 0 and 4 are
    // refilled by 12 and 13 (the carrier is not down yet); the second loss takes it down at
    // once (no confirmation time, no base RTT): 8, 12 and 13 are retired and 14 stays a
    // backup: the plane keeps 9 of 12. ReviveSuccesses 1: the first answered probe of a
    // retired EV of path 0 revives it, the carrier is up again, the EV fills the gap and
    // the carrier's last backup is promoted at once (until 2026-12-03 only at the plane's
    // next retirement: the plane ran one short with a usable backup in between).
    std::vector<uint32_t> probes;
    Ptr<MrcEvTable> t = MakeCarrierTable(FourPathSet(3, 3, 0), 2, Time(0), &probes);
    std::vector<std::pair<uint32_t, bool>> carrier;
    t->TraceConnectWithoutContext("CarrierState",
                                  MakeCallback(+[](std::vector<std::pair<uint32_t, bool>>* v,
                                                   uint32_t path,
                                                   uint32_t,
                                                   bool up) {
                                      v->emplace_back(path, up);
                                  }).Bind(&carrier));
    const uint32_t path0 = t->GetPath(0);
    ASSERT_EQ(t->GetPath(14), path0);
    t->OnInferredLoss(0);
    EXPECT_EQ(t->GetEntry(12).set, MrcEvEntry::ACTIVE);
    t->OnInferredLoss(4);
    ASSERT_TRUE(t->IsCarrierDown(path0));
    EXPECT_EQ(t->GetState(8), MrcEvState::ASSUMED_BAD);
    EXPECT_EQ(t->GetState(12), MrcEvState::ASSUMED_BAD);
    EXPECT_EQ(t->GetState(13), MrcEvState::ASSUMED_BAD);
    EXPECT_EQ(t->GetActiveCount(), 9u);
    EXPECT_EQ(t->GetEntry(14).set, MrcEvEntry::BACKUP);
    ASSERT_EQ(carrier.size(), 1u);
    EXPECT_EQ(carrier[0], std::make_pair(path0, false));
    // every retired EV is probed once within ProbeInterval (1 ms) +- 50 %, and none of
    // these probes has timed out (2 ms) at 1.6 ms
    Simulator::Stop(MicroSeconds(1600));
    Simulator::Run();
    ASSERT_EQ(probes.size(), 5u);
    EXPECT_TRUE(t->OnProbeAnswer(probes[0], MrcPathFeedback::NONE));
    EXPECT_FALSE(t->IsCarrierDown(path0));
    EXPECT_EQ(t->GetState(probes[0]), MrcEvState::GOOD);
    EXPECT_EQ(t->GetEntry(probes[0]).set, MrcEvEntry::ACTIVE);
    EXPECT_EQ(t->GetEntry(14).set, MrcEvEntry::ACTIVE);
    EXPECT_EQ(t->GetActiveCount(), 11u);
    EXPECT_EQ(t->GetBackupCount(0), 0u);
    ASSERT_EQ(carrier.size(), 2u);
    EXPECT_EQ(carrier[1], std::make_pair(path0, true));
    t->OnInferredLoss(1); // nothing left to promote
    EXPECT_EQ(t->GetActiveCount(), 10u);
    Simulator::Destroy();
}

TEST(MrcEvTable, ARevivedPathRefillsItsShortPlaneAtOnce)
{
    // RefillAvoidsFailedPaths: one active EV per path (ids 0..3), backups 4, 5, 6 all on
    // path 0. Path 0's EV fails: its backups may not be promoted (3 of 4 active); path 1's
    // EV fails: the same (2 of 4). The probe of EV 0 is answered (ReviveSuccesses 1): EV 0
    // returns, path 0 has no ASSUMED_BAD EV left, and its oldest backup fills the last gap
    // at once. Without the refill at revival the plane stays at 3 with two usable backups.
    Ptr<MrcEvTable> t = CreateObject<MrcEvTable>();
    t->SetAttribute("RefillAvoidsFailedPaths", BooleanValue(true));
    t->SetAttribute("ReviveSuccesses", UintegerValue(1));
    EXPECT_EQ(t->AssignStreams(5), 1);
    t->Init(FourPathSet(1, 3, 0));
    std::vector<uint32_t> probes;
    t->SetProbeCallback(Callback<void, uint32_t>([&probes](uint32_t id) { probes.push_back(id); }));
    const uint32_t path0 = t->GetPath(0);
    ASSERT_EQ(t->GetPath(4), path0);
    t->OnInferredLoss(0);
    t->OnInferredLoss(1);
    ASSERT_EQ(t->GetActiveCount(), 2u);
    ASSERT_EQ(t->GetBackupCount(0), 3u);
    Simulator::Stop(MicroSeconds(1600)); // both probed once, neither timed out
    Simulator::Run();
    ASSERT_EQ(probes.size(), 2u);
    EXPECT_TRUE(t->OnProbeAnswer(0, MrcPathFeedback::NONE));
    EXPECT_EQ(t->GetState(0), MrcEvState::GOOD);
    EXPECT_EQ(t->GetEntry(0).set, MrcEvEntry::ACTIVE);
    EXPECT_EQ(t->GetEntry(4).set, MrcEvEntry::ACTIVE);
    EXPECT_EQ(t->GetState(4), MrcEvState::GOOD);
    EXPECT_EQ(t->GetActiveCount(), 4u);
    EXPECT_EQ(t->GetBackupCount(0), 2u);
    EXPECT_EQ(t->GetState(1), MrcEvState::ASSUMED_BAD);
    Simulator::Destroy();
}

// ---------------------------------------------------------------- the table's memory

TEST(MrcEvTable, ReplaceGivesAnEvANewValueAndCarrier)
{
    // FourPathSet(2, 0, 0): ids 0..7 on plane 0, id % 4 = T1. The controller gives EV 1 the
    // carrier of T1 3 and a new value; its replica 5 keeps the carrier of T1 1.
    Ptr<MrcEvTable> t = MakeTableWith(FourPathSet(2, 0, 0), "RetireWholePath", false);
    const uint32_t old = t->GetValue(1);
    MrcEvCandidate next = Srv6Path(0, 3);
    next.value |= 9u << 16;
    MrcEvCandidate taken = next;
    taken.value = t->GetValue(2);
    EXPECT_FALSE(t->Replace(1, taken));          // another EV's value
    EXPECT_FALSE(t->Replace(1, Srv6Path(1, 3))); // another plane
    EXPECT_EQ(t->GetValue(1), old);
    ASSERT_TRUE(t->Replace(1, next));
    EXPECT_EQ(t->GetValue(1), next.value);
    EXPECT_EQ(t->FindByValue(next.value), 1u);
    EXPECT_EQ(t->FindByValue(old), MrcEvTable::NO_EV);
    for (uint32_t id = 0; id < 8; ++id)
    {
        EXPECT_EQ(t->FindByValue(t->GetValue(id)), id);
    }
    const MrcEvEntry e = t->GetEntry(1);
    ASSERT_TRUE(e.ev.hasCarrier);
    EXPECT_TRUE(e.ev.carrier == next.carrier);
    EXPECT_TRUE(t->GetEntry(5).ev.carrier == Srv6Path(0, 1).carrier);
    EXPECT_FALSE(t->GetEntry(5).ev.carrier == next.carrier);
    // the packets on EV 1 carry the new carrier (the family interface's choice)
    Ptr<MrcPathSelector> sel = t;
    uint32_t onEv1 = 0;
    for (uint32_t i = 0; i < 16; ++i)
    {
        const MrcPathChoice c = sel->Select(0, false);
        ASSERT_NE(c.carrier, nullptr);
        if (c.ev == next.value)
        {
            EXPECT_TRUE(*c.carrier == next.carrier);
            ++onEv1;
        }
        else
        {
            const uint32_t id = t->FindByValue(c.ev);
            ASSERT_NE(id, MrcEvTable::NO_EV);
            EXPECT_TRUE(*c.carrier == Srv6Path(0, id % 4).carrier) << id;
        }
    }
    EXPECT_EQ(onEv1, 2u); // once a round of 8
    Simulator::Destroy();
}

TEST(MrcEvTable, EvsTakeThirtyTwoBytesUntilFeedbackNeedsTheirCounters)
{
    // A connection's table of the default profile (128 active + 64 backup EVs, structured:
    // each EV its own path) keeps, until some feedback needs more, 32 bytes an EV and a
    // 4-byte index slot (512 for 192 EVs), and its id lists. The first counter written
    // (here an ECN echo) makes the cold parts of all its EVs, 48 bytes each. Before
    // session 48 the same measure gave 41,472 bytes from the start (128-byte entries, a
    // 20-byte copy of their hot fields, a 12-byte-slot index, 41 bytes per path), and 8,224
    // after it.
    MrcEndTimeRecords(); // ns-3 records every Time made before the first run (48 B each)
    Ptr<MrcEvTable> t = CreateObject<MrcEvTable>();
    EXPECT_EQ(t->AssignStreams(5), 1);
    MrcEvSet set;
    for (uint32_t i = 0; i < 192; ++i)
    {
        (i < 128 ? set.active : set.backup)
            .push_back(MrcEvCandidate::Structured(0, static_cast<uint16_t>(i + 1)));
    }
    const double before = MrcTest::HeapBytesInUse();
    t->Init(set);
    const double made = MrcTest::HeapBytesInUse() - before;
    ASSERT_EQ(t->GetEvCount(), 192u);
    t->OnSack(1, MrcPathFeedback::NONE); // feedback that writes no counter: nothing made
    EXPECT_EQ(MrcTest::HeapBytesInUse() - before, made);
    t->OnSack(0, MrcPathFeedback::SKIP_ONCE);
    const double cold = MrcTest::HeapBytesInUse() - before - made;
    EXPECT_EQ(t->GetEntry(0).ecnEchoes, 1u);
    EXPECT_EQ(t->GetEntry(1).ecnEchoes, 0u);
    if (before > 0)
    {
        std::cout << "heap bytes of a 192-EV table: " << made << ", then " << cold
                  << " for the cold parts" << std::endl;
        EXPECT_GT(made, 192.0 * 32 + 512 * 4);                      // the measure works
        EXPECT_LT(made, 192.0 * 32 + 512 * 4 + 192 * 4 * 2 + 1024); // ids, vectors, malloc
        EXPECT_GE(cold, 192.0 * 48);
        EXPECT_LT(cold, 192.0 * 48 + 64);
    }
    Simulator::Destroy();
}
