/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the DCQCN reaction point (MrcDcqcn) and notification point
// (MrcDcqcnNotificationPoint). Expected values are worked out by hand in the comments.

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/mrc-dcqcn-np.h"
#include "ns3/mrc-dcqcn.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <memory>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t G1 = 1000000000ULL; // 1 Gb/s in bit/s

/// 100 Gb/s line, g = 1/16 (exact in binary), F = 2, R_AI 1 Gb/s, R_HAI 4 Gb/s, min 1 Gb/s.
Ptr<MrcDcqcn>
MakeDcqcn()
{
    Ptr<MrcDcqcn> d = CreateObject<MrcDcqcn>();
    d->SetAttribute("G", DoubleValue(1.0 / 16));
    d->SetAttribute("FastRecoveryTimes", UintegerValue(2));
    d->SetAttribute("RateAi", DataRateValue(DataRate(G1)));
    d->SetAttribute("RateHai", DataRateValue(DataRate(4 * G1)));
    d->SetAttribute("MinRate", DataRateValue(DataRate(G1)));
    d->SetAttribute("ClampTargetRate", BooleanValue(false));
    d->SetAttribute("RateOnFirstCnp", DoubleValue(1.0));
    d->SetAttribute("ByteCounter", UintegerValue(0));
    return d;
}

MrcCcState
MakeState()
{
    MrcCcState s;
    s.lineRate = DataRate(100 * G1);
    s.mtu = 1000;
    return s;
}

/// Dispose the controller (cancels its timers) and clear the simulator.
void
Finish(Ptr<MrcDcqcn> d)
{
    d->Dispose();
    Simulator::Destroy();
}

} // namespace

TEST(MrcDcqcn, DefaultsAndInit)
{
    Ptr<MrcDcqcn> d = CreateObject<MrcDcqcn>();
    EXPECT_EQ(d->GetName(), "dcqcn");
    DoubleValue g;
    d->GetAttribute("G", g);
    EXPECT_DOUBLE_EQ(g.Get(), 1.0 / 256);
    TimeValue t;
    d->GetAttribute("AlphaUpdateInterval", t);
    EXPECT_EQ(t.Get(), MicroSeconds(1));
    d->GetAttribute("RateDecreaseInterval", t);
    EXPECT_EQ(t.Get(), MicroSeconds(4));
    d->GetAttribute("RateIncreaseInterval", t);
    EXPECT_EQ(t.Get(), MicroSeconds(300));
    UintegerValue u;
    d->GetAttribute("ByteCounter", u);
    EXPECT_EQ(u.Get(), 0u);
    d->GetAttribute("FastRecoveryTimes", u);
    EXPECT_EQ(u.Get(), 1u);
    DataRateValue r;
    d->GetAttribute("RateAi", r);
    EXPECT_EQ(r.Get().GetBitRate(), 5000000u);
    d->GetAttribute("RateHai", r);
    EXPECT_EQ(r.Get().GetBitRate(), 50000000u);
    d->GetAttribute("MinRate", r);
    EXPECT_EQ(r.Get().GetBitRate(), G1);

    MrcCcState s = MakeState();
    s.cwnd = 12345;
    d->Init(s);
    EXPECT_EQ(s.rate.GetBitRate(), 100 * G1);
    EXPECT_EQ(s.cwnd, std::numeric_limits<uint64_t>::max());
    EXPECT_EQ(d->TargetRate().GetBitRate(), 100 * G1);
    EXPECT_DOUBLE_EQ(d->Alpha(), 1.0);
    EXPECT_FALSE(d->Started());

    // Fork keeps attributes, not state.
    d->SetAttribute("FastRecoveryTimes", UintegerValue(7));
    d->OnCnp(s);
    Ptr<MrcCongestionOps> f = d->Fork();
    ASSERT_NE(PeekPointer(f), PeekPointer(d));
    f->GetAttribute("FastRecoveryTimes", u);
    EXPECT_EQ(u.Get(), 7u);
    EXPECT_FALSE(DynamicCast<MrcDcqcn>(f)->Started());
    f->Dispose();
    Finish(d);
}

// The attribute names the profile table uses through Config::SetDefault.
TEST(MrcDcqcn, ConfigSetDefaultNames)
{
    Config::SetDefault("ns3::MrcDcqcn::FastRecoveryTimes", UintegerValue(5));
    Config::SetDefault("ns3::MrcDcqcn::RateIncreaseInterval", TimeValue(MicroSeconds(55)));
    Config::SetDefault("ns3::MrcDcqcn::HyperIncreaseForm", StringValue("Scaled"));
    Config::SetDefault("ns3::MrcDcqcnNotificationPoint::CnpStyle", StringValue("Interval"));
    Ptr<MrcDcqcn> d = CreateObject<MrcDcqcn>();
    Ptr<MrcDcqcnNotificationPoint> np = CreateObject<MrcDcqcnNotificationPoint>();
    // Back to the defaults before checking, so that a failure leaves no trace in other tests.
    Config::SetDefault("ns3::MrcDcqcn::FastRecoveryTimes", UintegerValue(1));
    Config::SetDefault("ns3::MrcDcqcn::RateIncreaseInterval", TimeValue(MicroSeconds(300)));
    Config::SetDefault("ns3::MrcDcqcn::HyperIncreaseForm", StringValue("Once"));
    Config::SetDefault("ns3::MrcDcqcnNotificationPoint::CnpStyle", StringValue("AckFlag"));
    UintegerValue u;
    d->GetAttribute("FastRecoveryTimes", u);
    EXPECT_EQ(u.Get(), 5u);
    TimeValue t;
    d->GetAttribute("RateIncreaseInterval", t);
    EXPECT_EQ(t.Get(), MicroSeconds(55));
    StringValue form;
    d->GetAttribute("HyperIncreaseForm", form);
    EXPECT_EQ(form.Get(), "Scaled");
    EXPECT_EQ(np->GetStyle(), MrcDcqcnNotificationPoint::INTERVAL);
    EXPECT_EQ(CreateObject<MrcDcqcn>()->GetInstanceTypeId().GetName(), "ns3::MrcDcqcn");
}

TEST(MrcDcqcn, AlphaUpdate)
{
    Ptr<MrcDcqcn> d = MakeDcqcn();
    MrcCcState s = MakeState();
    d->Init(s);
    d->OnCnp(s); // first CNP: alpha = 1, slot flag clear
    EXPECT_TRUE(d->Started());
    EXPECT_DOUBLE_EQ(d->Alpha(), 1.0);
    d->UpdateAlpha(); // no CNP in the slot: 15/16
    EXPECT_DOUBLE_EQ(d->Alpha(), 15.0 / 16);
    d->OnCnp(s);
    d->UpdateAlpha(); // CNP: 15/16 * 15/16 + 1/16 = 241/256
    EXPECT_DOUBLE_EQ(d->Alpha(), 241.0 / 256);
    d->UpdateAlpha(); // flag was cleared: 241/256 * 15/16 = 3615/4096
    EXPECT_DOUBLE_EQ(d->Alpha(), 3615.0 / 4096);
    d->OnCnp(s);
    d->OnCnp(s); // two CNPs in one slot count once: 3615/4096 * 15/16 + 1/16
    d->UpdateAlpha();
    EXPECT_DOUBLE_EQ(d->Alpha(), 54225.0 / 65536 + 4096.0 / 65536);
    Finish(d);
}

TEST(MrcDcqcn, RateCutAndMinRate)
{
    Ptr<MrcDcqcn> d = MakeDcqcn();
    d->SetAttribute("MinRate", DataRateValue(DataRate(20 * G1)));
    MrcCcState s = MakeState();
    d->Init(s);
    d->OnCnp(s); // RT = RC = 100G (factor 1)
    EXPECT_EQ(s.rate.GetBitRate(), 100 * G1);
    EXPECT_EQ(d->TargetRate().GetBitRate(), 100 * G1);
    EXPECT_TRUE(d->DecreasePending());
    d->DecreaseTick(s); // alpha 1: RC = 100G * (1 - 1/2) = 50G; T = 0 so RT stays
    EXPECT_EQ(s.rate.GetBitRate(), 50 * G1);
    EXPECT_EQ(d->TargetRate().GetBitRate(), 100 * G1);
    EXPECT_FALSE(d->DecreasePending());
    d->DecreaseTick(s); // no CNP since the last tick: nothing
    EXPECT_EQ(s.rate.GetBitRate(), 50 * G1);
    d->UpdateAlpha(); // alpha = 15/16
    d->OnCnp(s);
    d->DecreaseTick(s); // 50G * (1 - 15/32) = 26.5625G
    EXPECT_EQ(s.rate.GetBitRate(), 26562500000ULL);
    EXPECT_EQ(d->TargetRate().GetBitRate(), 100 * G1); // consecutive cut keeps the target
    d->OnCnp(s);
    d->DecreaseTick(s); // 26.5625G * 17/32 = 14.11...G < 20G: floor
    EXPECT_EQ(s.rate.GetBitRate(), 20 * G1);
    Finish(d);
}

// The RateCut trace reports every cut with its cause and RC before and after: the first CNP
// only when RateOnFirstCnp is below 1, every decrease tick that follows a CNP (also one at
// the floor, where RC stays), and nothing for an increase or a tick without a CNP.
TEST(MrcDcqcn, RateCutTraceNamesEveryCause)
{
    EXPECT_STREQ(MrcDcqcnCutName(MrcDcqcnCut::FIRST_CNP), "FIRST_CNP");
    EXPECT_STREQ(MrcDcqcnCutName(MrcDcqcnCut::DECREASE), "DECREASE");

    struct Cut
    {
        MrcDcqcnCut cause;
        uint64_t before;
        uint64_t after;

        bool operator==(const Cut& o) const
        {
            return cause == o.cause && before == o.before && after == o.after;
        }
    };

    for (double first : {1.0, 0.5})
    {
        SCOPED_TRACE(first);
        Ptr<MrcDcqcn> d = MakeDcqcn(); // g 1/16, F 2
        d->SetAttribute("MinRate", DataRateValue(DataRate(20 * G1)));
        d->SetAttribute("RateOnFirstCnp", DoubleValue(first));
        std::vector<Cut> cuts;
        d->TraceConnectWithoutContext("RateCut",
                                      Callback<void, MrcDcqcnCut, DataRate, DataRate>(
                                          [&cuts](MrcDcqcnCut c, DataRate o, DataRate n) {
                                              cuts.push_back({c, o.GetBitRate(), n.GetBitRate()});
                                          }));
        MrcCcState s = MakeState();
        d->Init(s);
        d->OnCnp(s); // RC = 100G x first
        const uint64_t r0 = first == 1.0 ? 100 * G1 : 50 * G1;
        d->DecreaseTick(s); // alpha 1: RC halves
        d->DecreaseTick(s); // no CNP since: no cut
        d->IncreaseTick(s); // fast recovery: RC = (r0/2 + r0) / 2, no cut
        const uint64_t r1 = r0 / 2 / 2 + r0 / 2;
        EXPECT_EQ(s.rate.GetBitRate(), r1);
        d->OnCnp(s);
        d->DecreaseTick(s);                            // alpha still 1: RC halves again
        const uint64_t r2 = std::max(20 * G1, r1 / 2); // 37.5G, or the floor after 0.5
        d->OnCnp(s);
        d->DecreaseTick(s); // and again, down to the 20G floor
        const uint64_t r3 = std::max(20 * G1, r2 / 2);
        d->OnCnp(s);
        d->DecreaseTick(s); // at the floor: reported, RC stays
        const uint64_t r4 = std::max(20 * G1, r3 / 2);
        std::vector<Cut> expect;
        if (first < 1.0)
        {
            expect.push_back({MrcDcqcnCut::FIRST_CNP, 100 * G1, 50 * G1});
        }
        expect.push_back({MrcDcqcnCut::DECREASE, r0, r0 / 2});
        expect.push_back({MrcDcqcnCut::DECREASE, r1, r2});
        expect.push_back({MrcDcqcnCut::DECREASE, r2, r3});
        expect.push_back({MrcDcqcnCut::DECREASE, r3, r4});
        EXPECT_EQ(cuts, expect);
        EXPECT_EQ(r4, 20 * G1); // the last cut is at the floor: 20G -> 20G
        EXPECT_EQ(r3, 20 * G1);
        EXPECT_EQ(s.rate.GetBitRate(), r4);
        Finish(d);
    }
}

TEST(MrcDcqcn, ClampTargetRate)
{
    // With clamp: every cut sets RT = RC first.
    Ptr<MrcDcqcn> d = MakeDcqcn();
    d->SetAttribute("ClampTargetRate", BooleanValue(true));
    MrcCcState s = MakeState();
    d->Init(s);
    d->OnCnp(s);
    d->DecreaseTick(s); // RT = 100G, RC = 50G
    d->OnCnp(s);
    d->DecreaseTick(s); // RT = 50G, RC = 25G
    EXPECT_EQ(d->TargetRate().GetBitRate(), 50 * G1);
    EXPECT_EQ(s.rate.GetBitRate(), 25 * G1);
    Finish(d);

    // Without clamp, a cut after an increase (T != 0) also sets RT = RC.
    d = MakeDcqcn();
    s = MakeState();
    d->Init(s);
    d->OnCnp(s);
    d->DecreaseTick(s); // RC 50G, RT 100G
    d->IncreaseTick(s); // T 0 < F: RC = (50 + 100) / 2 = 75G, T = 1
    EXPECT_EQ(s.rate.GetBitRate(), 75 * G1);
    EXPECT_EQ(d->Stage(), 1u);
    d->OnCnp(s);
    d->DecreaseTick(s); // T = 1: RT = 75G; RC = 75G / 2
    EXPECT_EQ(d->TargetRate().GetBitRate(), 75 * G1);
    EXPECT_EQ(s.rate.GetBitRate(), 37500000000ULL);
    EXPECT_EQ(d->Stage(), 0u);
    Finish(d);
}

// The target rule without ClampTargetRate is the NIC's clamp_tgt_rate_after_time_inc (and
// the HPCC simulator's): a cut sets RT = RC only if the increase TIMER has fired since the
// previous cut; an increase by the byte counter alone leaves RT as it was.
TEST(MrcDcqcn, TargetFollowsTimerIncreaseNotByteCounter)
{
    for (bool clamp : {false, true})
    {
        SCOPED_TRACE(clamp ? "clamp" : "no clamp");
        Ptr<MrcDcqcn> d = MakeDcqcn();
        d->SetAttribute("ByteCounter", UintegerValue(1000));
        d->SetAttribute("ClampTargetRate", BooleanValue(clamp));
        MrcCcState s = MakeState();
        d->Init(s);
        d->OnCnp(s);
        d->DecreaseTick(s); // alpha 1: RC 50G, RT 100G
        EXPECT_EQ(s.rate.GetBitRate(), 50 * G1);
        d->OnSent(s, 1000); // BC 1, T 0: fast recovery, RC = (50 + 100) / 2 = 75G
        EXPECT_EQ(s.rate.GetBitRate(), 75 * G1);
        EXPECT_EQ(d->ByteStage(), 1u);
        EXPECT_EQ(d->Stage(), 0u);
        d->OnCnp(s);
        d->DecreaseTick(s); // RC 37.5G; RT kept at 100G (byte counter only) or 75G (clamp)
        EXPECT_EQ(s.rate.GetBitRate(), 37500000000ULL);
        EXPECT_EQ(d->TargetRate().GetBitRate(), (clamp ? 75 : 100) * G1);
        const uint64_t rt = d->TargetRate().GetBitRate();
        d->IncreaseTick(s); // T 1, BC 0: fast recovery, RC = (37.5G + RT) / 2
        const uint64_t rc = 37500000000ULL / 2 + rt / 2;
        EXPECT_EQ(s.rate.GetBitRate(), rc);
        EXPECT_EQ(d->Stage(), 1u);
        d->OnCnp(s);
        d->DecreaseTick(s); // the timer has fired: RT = RC in both cases, RC halves
        EXPECT_EQ(d->TargetRate().GetBitRate(), rc);
        EXPECT_EQ(s.rate.GetBitRate(), rc / 2);
        Finish(d);
    }
}

// The TargetRate trace reports every change of RT and nothing else: a cut with no timer
// increase since the previous one keeps RT (no call), a cut after one renews it, additive
// and hyper steps raise it, fast recovery leaves it.
TEST(MrcDcqcn, TargetRateTraceReportsOnlyChanges)
{
    Ptr<MrcDcqcn> d = MakeDcqcn();                // F = 2, R_AI 1G, R_HAI 4G, g 1/16, no clamp
    using Change = std::pair<uint64_t, uint64_t>; // (old, new) in bit/s
    std::vector<Change> calls;
    d->TraceConnectWithoutContext(
        "TargetRate",
        Callback<void, DataRate, DataRate>([&calls](DataRate o, DataRate n) {
            calls.emplace_back(o.GetBitRate(), n.GetBitRate());
        }));
    MrcCcState s = MakeState();
    d->Init(s);
    d->OnCnp(s);        // RT = RC = 100G: unchanged since Init, no call
    d->DecreaseTick(s); // alpha 1: RC 50G, RT kept (T 0)
    d->OnCnp(s);
    d->DecreaseTick(s); // consecutive cut: RC 25G (alpha still 1), RT kept at 100G
    EXPECT_TRUE(calls.empty());
    EXPECT_EQ(s.rate.GetBitRate(), 25 * G1);
    d->IncreaseTick(s); // T 0 < F: fast recovery, RC = 62.5G, RT unchanged
    EXPECT_TRUE(calls.empty());
    d->OnCnp(s);
    d->DecreaseTick(s); // T 1: RT renewed to 62.5G, RC 31.25G
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(calls[0], Change(100 * G1, 62500000000ULL));
    d->IncreaseTick(s); // T 0: fast recovery, RC = (31.25 + 62.5) / 2
    d->IncreaseTick(s); // T 1: fast recovery
    d->IncreaseTick(s); // T 2 = F: additive, RT 63.5G
    ASSERT_EQ(calls.size(), 2u);
    EXPECT_EQ(calls[1], Change(62500000000ULL, 63500000000ULL));
    d->IncreaseTick(s); // T 3 > F: hyper (Once), RT 67.5G
    ASSERT_EQ(calls.size(), 3u);
    EXPECT_EQ(calls[2], Change(63500000000ULL, 67500000000ULL));
    EXPECT_EQ(d->TargetRate().GetBitRate(), 67500000000ULL);
    Finish(d);
}

TEST(MrcDcqcn, IncreaseStagesHaiOnce)
{
    Ptr<MrcDcqcn> d = MakeDcqcn();
    d->SetAttribute("RateOnFirstCnp", DoubleValue(0.5));
    MrcCcState s = MakeState();
    d->Init(s);
    d->OnCnp(s); // RC = RT = 50G
    EXPECT_EQ(s.rate.GetBitRate(), 50 * G1);
    EXPECT_EQ(d->TargetRate().GetBitRate(), 50 * G1);
    d->DecreaseTick(s); // RC = 25G, RT = 50G
    EXPECT_EQ(s.rate.GetBitRate(), 25 * G1);
    // F = 2: T = 0, 1 fast recovery; T = 2 additive; T >= 3 hyper.
    std::vector<MrcDcqcn::Phase> phases{MrcDcqcn::FAST_RECOVERY,
                                        MrcDcqcn::FAST_RECOVERY,
                                        MrcDcqcn::ADDITIVE_INCREASE,
                                        MrcDcqcn::HYPER_INCREASE,
                                        MrcDcqcn::HYPER_INCREASE};
    std::vector<uint64_t> rc{37500000000ULL,  // (25 + 50) / 2
                             43750000000ULL,  // (37.5 + 50) / 2
                             47375000000ULL,  // RT 51: (43.75 + 51) / 2
                             51187500000ULL,  // RT 55: (47.375 + 55) / 2
                             55093750000ULL}; // RT 59: (51.1875 + 59) / 2
    std::vector<uint64_t> rt{50, 50, 51, 55, 59};
    for (size_t k = 0; k < rc.size(); ++k)
    {
        EXPECT_EQ(d->NextPhase(), phases[k]) << k;
        d->IncreaseTick(s);
        EXPECT_EQ(s.rate.GetBitRate(), rc[k]) << k;
        EXPECT_EQ(d->TargetRate().GetBitRate(), rt[k] * G1) << k;
        EXPECT_EQ(d->Stage(), k + 1);
    }
    Finish(d);
}

TEST(MrcDcqcn, HyperIncreaseScaled)
{
    Ptr<MrcDcqcn> d = MakeDcqcn();
    d->SetAttribute("RateOnFirstCnp", DoubleValue(0.5));
    d->SetAttribute("HyperIncreaseForm", EnumValue(MrcDcqcn::HAI_SCALED));
    MrcCcState s = MakeState();
    d->Init(s);
    d->OnCnp(s);
    d->DecreaseTick(s);
    d->IncreaseTick(s); // FR 37.5
    d->IncreaseTick(s); // FR 43.75
    d->IncreaseTick(s); // AI: RT 51, RC 47.375
    d->IncreaseTick(s); // T = 3, i = 1: RT 55, RC 51.1875
    EXPECT_EQ(s.rate.GetBitRate(), 51187500000ULL);
    d->IncreaseTick(s); // i = 2: RT 63, RC (51.1875 + 63) / 2 = 57.09375
    EXPECT_EQ(d->TargetRate().GetBitRate(), 63 * G1);
    EXPECT_EQ(s.rate.GetBitRate(), 57093750000ULL);
    d->IncreaseTick(s); // i = 3: RT 75, RC 66.046875
    EXPECT_EQ(d->TargetRate().GetBitRate(), 75 * G1);
    EXPECT_EQ(s.rate.GetBitRate(), 66046875000ULL);
    Finish(d);
}

TEST(MrcDcqcn, LineRateCap)
{
    Ptr<MrcDcqcn> d = MakeDcqcn();
    d->SetAttribute("RateOnFirstCnp", DoubleValue(0.9));
    d->SetAttribute("FastRecoveryTimes", UintegerValue(0));
    d->SetAttribute("RateAi", DataRateValue(DataRate(20 * G1)));
    d->SetAttribute("RateHai", DataRateValue(DataRate(40 * G1)));
    MrcCcState s = MakeState();
    d->Init(s);
    d->OnCnp(s);        // RC = RT = 90G
    d->DecreaseTick(s); // RC 45G
    d->IncreaseTick(s); // T = 0 = F: RT = min(110, 100) = 100; RC = 72.5
    EXPECT_EQ(d->TargetRate().GetBitRate(), 100 * G1);
    EXPECT_EQ(s.rate.GetBitRate(), 72500000000ULL);
    d->IncreaseTick(s); // hyper, RT capped; RC 86.25
    EXPECT_EQ(d->TargetRate().GetBitRate(), 100 * G1);
    EXPECT_EQ(s.rate.GetBitRate(), 86250000000ULL);
    for (int k = 0; k < 60; ++k)
    {
        d->IncreaseTick(s);
        EXPECT_LE(s.rate.GetBitRate(), 100 * G1);
    }
    EXPECT_EQ(s.rate.GetBitRate(), 100 * G1); // reaches the line rate exactly
    Finish(d);
}

TEST(MrcDcqcn, ByteCounterStages)
{
    Ptr<MrcDcqcn> d = MakeDcqcn();
    d->SetAttribute("RateOnFirstCnp", DoubleValue(0.5));
    d->SetAttribute("ByteCounter", UintegerValue(1000));
    d->SetAttribute("HyperIncreaseForm", EnumValue(MrcDcqcn::HAI_SCALED));
    MrcCcState s = MakeState();
    d->Init(s);
    d->OnSent(s, 5000); // before the first CNP nothing is counted
    EXPECT_EQ(d->ByteStage(), 0u);
    d->OnCnp(s);
    d->DecreaseTick(s); // RC 25, RT 50, T = BC = 0
    d->OnSent(s, 1000); // BC 1: max(0, 1) <= 2: FR, RC 37.5
    EXPECT_EQ(d->ByteStage(), 1u);
    EXPECT_EQ(s.rate.GetBitRate(), 37500000000ULL);
    d->OnSent(s, 1500); // BC 2 (500 left over): FR, RC 43.75
    EXPECT_EQ(d->ByteStage(), 2u);
    EXPECT_EQ(s.rate.GetBitRate(), 43750000000ULL);
    d->OnSent(s, 500); // BC 3: (0, 3) additive: RT 51, RC 47.375
    EXPECT_EQ(d->ByteStage(), 3u);
    EXPECT_EQ(d->TargetRate().GetBitRate(), 51 * G1);
    EXPECT_EQ(s.rate.GetBitRate(), 47375000000ULL);
    EXPECT_EQ(d->NextPhase(), MrcDcqcn::ADDITIVE_INCREASE);
    d->IncreaseTick(s); // T 1: (1, 3) additive: RT 52, RC 49.6875
    EXPECT_EQ(s.rate.GetBitRate(), 49687500000ULL);
    d->IncreaseTick(s); // T 2: (2, 3) additive: RT 53, RC 51.34375
    EXPECT_EQ(s.rate.GetBitRate(), 51343750000ULL);
    EXPECT_EQ(d->NextPhase(), MrcDcqcn::HYPER_INCREASE);
    d->IncreaseTick(s); // T 3: (3, 3) hyper i = 1: RT 57, RC 54.171875
    EXPECT_EQ(d->TargetRate().GetBitRate(), 57 * G1);
    EXPECT_EQ(s.rate.GetBitRate(), 54171875000ULL);
    d->ByteCounterTick(s); // BC 4: (3, 4) hyper i = 1: RT 61, RC 57.5859375
    EXPECT_EQ(d->TargetRate().GetBitRate(), 61 * G1);
    EXPECT_EQ(s.rate.GetBitRate(), 57585937500ULL);
    EXPECT_EQ(d->Stage(), 3u);
    EXPECT_EQ(d->ByteStage(), 4u);
    d->OnSent(s, 400);
    d->OnCnp(s);
    d->DecreaseTick(s); // a cut resets T, BC and the byte count
    EXPECT_EQ(d->Stage(), 0u);
    EXPECT_EQ(d->ByteStage(), 0u);
    d->OnSent(s, 999); // the 400 bytes before the cut are forgotten
    EXPECT_EQ(d->ByteStage(), 0u);
    d->OnSent(s, 1);
    EXPECT_EQ(d->ByteStage(), 1u);
    Finish(d);
}

TEST(MrcDcqcn, AckFlagCountsAsCnp)
{
    Ptr<MrcDcqcn> d = MakeDcqcn();
    MrcCcState s = MakeState();
    d->Init(s);
    MrcCcAck ack;
    ack.newlyAckedBytes = 1000;
    d->OnAck(s, ack);
    EXPECT_FALSE(d->Started());
    ack.cnpFlag = true;
    d->OnAck(s, ack);
    EXPECT_TRUE(d->Started());
    EXPECT_TRUE(d->DecreasePending());
    Finish(d);
}

// Timers in simulated time: K 10 us, decrease 40 us, increase 100 us, F 1, g 1/16.
TEST(MrcDcqcn, TimersInSimulatedTime)
{
    Ptr<MrcDcqcn> d = MakeDcqcn();
    d->SetAttribute("FastRecoveryTimes", UintegerValue(1));
    d->SetAttribute("AlphaUpdateInterval", TimeValue(MicroSeconds(10)));
    d->SetAttribute("RateDecreaseInterval", TimeValue(MicroSeconds(40)));
    d->SetAttribute("RateIncreaseInterval", TimeValue(MicroSeconds(100)));
    MrcCcState s = MakeState();
    int notified = 0;
    s.notifyChanged = Callback<void>([&notified]() { ++notified; });
    d->Init(s);
    std::vector<uint64_t> rateAt;
    std::vector<double> alphaAt;
    auto sample = [&]() {
        rateAt.push_back(s.rate.GetBitRate());
        alphaAt.push_back(d->Alpha());
    };
    const double q = 15.0 / 16;
    // First CNP at 1 us: cut at 1.001 us to 50G; alpha ticks at 11, 21, ... us;
    // increase fires at 101.001 (FR: 75G) and 201.001 us (AI: RT 100 (cap), RC 87.5G).
    Simulator::Schedule(MicroSeconds(1), [&]() { d->OnCnp(s); });
    Simulator::Schedule(MicroSeconds(50), sample);  // 0
    Simulator::Schedule(MicroSeconds(150), sample); // 1
    Simulator::Schedule(MicroSeconds(250), sample); // 2: 24 decay ticks (11 .. 241 us)
    // Second CNP at 260 us: alpha ticks before it (25 so far, the 251 us one included)
    // are applied, the tick at 261 us sees the CNP; decrease grid 1.001 + 40k: next 281.001.
    Simulator::Schedule(MicroSeconds(260), [&]() { d->OnCnp(s); });
    Simulator::Schedule(MicroSeconds(300), sample); // 3: after the cut at 281.001
    Simulator::Schedule(MicroSeconds(390), sample); // 4: after the FR at 381.001
    Simulator::Stop(MicroSeconds(400));
    Simulator::Run();

    ASSERT_EQ(rateAt.size(), 5u);
    EXPECT_EQ(rateAt[0], 50 * G1);
    EXPECT_DOUBLE_EQ(alphaAt[0], std::pow(q, 4)); // ticks 11, 21, 31, 41
    EXPECT_EQ(rateAt[1], 75 * G1);
    EXPECT_EQ(rateAt[2], 87500000000ULL);
    EXPECT_NEAR(alphaAt[2], std::pow(q, 24), 1e-12);
    // Alpha: 25 decay ticks, then 261 us with CNP, then 271 and 281 us without.
    double a261 = std::pow(q, 26) + 1.0 / 16;
    double aCut = a261 * q * q;
    double cut = 87.5e9 * (1 - aCut / 2);
    EXPECT_NEAR(static_cast<double>(rateAt[3]), cut, 1.0);
    EXPECT_EQ(d->TargetRate().GetBitRate(), 87500000000ULL); // T was 2 at the cut: RT = RC
    EXPECT_EQ(rateAt[4], (rateAt[3] + 87500000000ULL + 1) / 2);
    EXPECT_NEAR(alphaAt[4], a261 * std::pow(q, 12), 1e-12); // ticks 271 .. 381 us
    // cut 1.001, FR 101.001, AI 201.001, cut 281.001, FR 381.001
    EXPECT_EQ(notified, 5);
    Finish(d);
}

// A CNP that arrives just after a decrease tick that found none waits a whole period.
TEST(MrcDcqcn, CnpRightAfterParkedDecreaseTick)
{
    Ptr<MrcDcqcn> d = MakeDcqcn();
    d->SetAttribute("AlphaUpdateInterval", TimeValue(MicroSeconds(10)));
    d->SetAttribute("RateDecreaseInterval", TimeValue(MicroSeconds(40)));
    MrcCcState s = MakeState();
    d->Init(s);
    std::vector<uint64_t> rateAt;
    bool pendingAt60 = false;
    Simulator::Schedule(MicroSeconds(1), [&]() { d->OnCnp(s); }); // cut at 1.001 us to 50G
    // Scheduled from inside the run, so it runs after the decrease tick due at 41.001 us
    // (which found no CNP and parked the timer).
    Simulator::Schedule(MicroSeconds(30),
                        [&]() { Simulator::Schedule(NanoSeconds(11001), [&]() { d->OnCnp(s); }); });
    Simulator::Schedule(MicroSeconds(60), [&]() {
        rateAt.push_back(s.rate.GetBitRate());
        pendingAt60 = d->DecreasePending();
    });
    Simulator::Schedule(MicroSeconds(81), [&]() { rateAt.push_back(s.rate.GetBitRate()); });
    Simulator::Schedule(MicroSeconds(82), [&]() { rateAt.push_back(s.rate.GetBitRate()); });
    Simulator::Stop(MicroSeconds(100));
    Simulator::Run();
    ASSERT_EQ(rateAt.size(), 3u);
    EXPECT_EQ(rateAt[0], 50 * G1);
    EXPECT_TRUE(pendingAt60);
    EXPECT_EQ(rateAt[1], 50 * G1); // next tick at 81.001 us, not at 41.001 us again
    EXPECT_LT(rateAt[2], 50 * G1);
    Finish(d);
}

// After recovery to the line rate the increase timer parks; the stage still counts fires.
TEST(MrcDcqcn, RecoveryToLineRate)
{
    Ptr<MrcDcqcn> d = MakeDcqcn();
    d->SetAttribute("FastRecoveryTimes", UintegerValue(1));
    d->SetAttribute("RateIncreaseInterval", TimeValue(MicroSeconds(100)));
    MrcCcState s = MakeState();
    d->Init(s);
    std::vector<double> rateTrace;
    d->TraceConnectWithoutContext(
        "Rate",
        Callback<void, DataRate, DataRate>(
            [&rateTrace](DataRate, DataRate n) { rateTrace.push_back(n.GetBitRate()); }));
    Simulator::Schedule(Seconds(0), [&]() { d->OnCnp(s); });
    Simulator::Stop(MilliSeconds(10));
    Simulator::Run();
    EXPECT_EQ(s.rate.GetBitRate(), 100 * G1);
    EXPECT_EQ(d->TargetRate().GetBitRate(), 100 * G1);
    // Fires at 100.001 us + 100 us k up to 10 ms: 99 of them.
    EXPECT_EQ(d->Stage(), 99u);
    ASSERT_GE(rateTrace.size(), 3u);
    EXPECT_EQ(rateTrace[0], 50e9);
    EXPECT_EQ(rateTrace[1], 75e9);
    EXPECT_EQ(rateTrace[2], 87.5e9);
    EXPECT_EQ(rateTrace.back(), 100e9);
    // Each increase leaves floor(gap / 2) of the 50 Gb/s gap (the average rounds up), so the
    // gap closes after 36 increases (2^35 <= 50e9 < 2^36): 1 cut + 36 changes.
    EXPECT_EQ(rateTrace.size(), 37u);
    Finish(d);
}

TEST(MrcDcqcnNotificationPoint, IntervalStyle)
{
    Ptr<MrcDcqcnNotificationPoint> np = CreateObject<MrcDcqcnNotificationPoint>();
    np->SetAttribute("CnpStyle", EnumValue(MrcDcqcnNotificationPoint::INTERVAL));
    np->SetAttribute("CnpInterval", TimeValue(MicroSeconds(50)));
    std::vector<int64_t> deferredAt;
    np->SetSendCnpCallback(Callback<void>(
        [&deferredAt]() { deferredAt.push_back(Simulator::Now().GetMicroSeconds()); }));
    std::vector<int> answers;
    auto arrive = [&](bool ce) { answers.push_back(np->OnDataArrival(ce) ? 1 : 0); };
    uint32_t pendingAt20 = 0;
    Simulator::Schedule(MicroSeconds(0), [&]() { arrive(true); });  // CNP now
    Simulator::Schedule(MicroSeconds(10), [&]() { arrive(true); }); // counted, deferred to 50
    Simulator::Schedule(MicroSeconds(20), [&]() { arrive(true); }); // counted
    Simulator::Schedule(MicroSeconds(20), [&]() { pendingAt20 = np->GetPendingCe(); });
    Simulator::Schedule(MicroSeconds(30), [&]() { arrive(false); }); // not CE
    Simulator::Schedule(MicroSeconds(60), [&]() { arrive(true); });  // 10 us after the deferred CNP
    Simulator::Schedule(MicroSeconds(200), [&]() { arrive(true); }); // 100 us after the last: now
    Simulator::Schedule(MicroSeconds(230), [&]() { arrive(false); });
    Simulator::Run();
    EXPECT_EQ(answers, (std::vector<int>{1, 0, 0, 0, 0, 1, 0}));
    EXPECT_EQ(pendingAt20, 2u);
    EXPECT_EQ(deferredAt, (std::vector<int64_t>{50, 100}));
    EXPECT_EQ(np->GetCeCount(), 5u);
    EXPECT_EQ(np->GetCnpCount(), 4u); // 0, 50 (deferred), 100 (deferred), 200
    EXPECT_EQ(np->GetPendingCe(), 0u);
    EXPECT_FALSE(np->IsCnpDeferred());
    np->Dispose();
    Simulator::Destroy();
}

// PortInterval (NVIDIA's min_time_between_cnps, "from the port"): the notification points of
// two queue pairs on one NIC port share its clock; a CE packet within CnpInterval of the
// port's last CNP gets none, whichever QP sent it, and nothing is deferred.
TEST(MrcDcqcnNotificationPoint, PortIntervalStyleSharesThePortClock)
{
    MrcCnpPortClock clock;
    std::vector<Ptr<MrcDcqcnNotificationPoint>> np;
    int deferred = 0;
    for (int i = 0; i < 2; ++i)
    {
        np.push_back(CreateObject<MrcDcqcnNotificationPoint>());
        np[i]->SetAttribute("CnpStyle", EnumValue(MrcDcqcnNotificationPoint::PORT_INTERVAL));
        np[i]->SetAttribute("CnpInterval", TimeValue(MicroSeconds(4)));
        np[i]->SetSendCnpCallback(Callback<void>([&deferred]() { ++deferred; }));
    }
    std::vector<int> answers;
    auto arrive = [&](int qp, bool ce) {
        answers.push_back(np[qp]->OnDataArrival(ce, &clock) ? 1 : 0);
    };
    Simulator::Schedule(MicroSeconds(0), [&]() { arrive(0, true); });  // CNP: first of the port
    Simulator::Schedule(MicroSeconds(1), [&]() { arrive(1, true); });  // port's last CNP 1 us ago
    Simulator::Schedule(MicroSeconds(3), [&]() { arrive(0, true); });  // 3 us: none
    Simulator::Schedule(MicroSeconds(4), [&]() { arrive(1, true); });  // 4 us: CNP for QP 1
    Simulator::Schedule(MicroSeconds(5), [&]() { arrive(0, false); }); // not CE
    Simulator::Schedule(MicroSeconds(7), [&]() { arrive(0, true); });  // 3 us after QP 1's: none
    Simulator::Schedule(MicroSeconds(20), [&]() { arrive(0, true); }); // CNP
    Simulator::Run();
    EXPECT_EQ(answers, (std::vector<int>{1, 0, 0, 1, 0, 0, 1}));
    EXPECT_EQ(deferred, 0); // nothing is deferred
    EXPECT_EQ(np[0]->GetCeCount(), 4u);
    EXPECT_EQ(np[0]->GetCnpCount(), 2u);
    EXPECT_EQ(np[1]->GetCeCount(), 2u);
    EXPECT_EQ(np[1]->GetCnpCount(), 1u);
    EXPECT_TRUE(clock.any);
    EXPECT_EQ(clock.last, MicroSeconds(20));
    for (int i = 0; i < 2; ++i)
    {
        EXPECT_FALSE(np[i]->IsCnpDeferred());
        np[i]->Dispose();
    }
    Simulator::Destroy();
}

TEST(MrcDcqcnNotificationPoint, AckFlagStyle)
{
    Ptr<MrcDcqcnNotificationPoint> np = CreateObject<MrcDcqcnNotificationPoint>();
    EXPECT_EQ(np->GetStyle(), MrcDcqcnNotificationPoint::ACK_FLAG); // default
    EXPECT_TRUE(np->OnDataArrival(true));
    EXPECT_TRUE(np->OnDataArrival(true)); // every CE packet, no interval
    EXPECT_FALSE(np->OnDataArrival(false));
    EXPECT_TRUE(np->OnDataArrival(true));
    EXPECT_EQ(np->GetCeCount(), 3u);
    EXPECT_EQ(np->GetCnpCount(), 3u);
    EXPECT_FALSE(np->IsCnpDeferred());
    np->Dispose();
    Simulator::Destroy();
}

namespace
{

/// What one controller did under a fixed CNP schedule.
struct DcqcnRun
{
    std::vector<std::pair<int64_t, uint64_t>> rates; //!< (ns, new RC) from the Rate trace
    std::vector<double> alpha;                       //!< Alpha() at the sample times
    std::vector<uint32_t> stage;                     //!< Stage() at the sample times
    int notified{0};                                 //!< notifyChanged calls
    uint64_t events{0};                              //!< simulator events executed
};

/// Congestion episodes: CNPs every 2..9 us for 200 us, then 1..3 ms without; CNP times are
/// 500 ns off the timer grids (first CNP at 0), so no CNP ties with a tick.
DcqcnRun
RunEpisodes(bool park, MrcDcqcn::HyperIncreaseForm form, uint64_t byteCounter)
{
    Ptr<MrcDcqcn> d = MakeDcqcn();
    d->SetAttribute("ParkIdleTimers", BooleanValue(park));
    d->SetAttribute("FastRecoveryTimes", UintegerValue(2));
    d->SetAttribute("RateIncreaseInterval", TimeValue(MicroSeconds(50)));
    d->SetAttribute("HyperIncreaseForm", EnumValue(form));
    d->SetAttribute("ByteCounter", UintegerValue(byteCounter));
    auto s = std::make_unique<MrcCcState>(MakeState());
    DcqcnRun run;
    s->notifyChanged = Callback<void>([&run]() { ++run.notified; });
    d->Init(*s);
    d->TraceConnectWithoutContext("Rate",
                                  Callback<void, DataRate, DataRate>([&run](DataRate, DataRate n) {
                                      run.rates.emplace_back(Simulator::Now().GetNanoSeconds(),
                                                             n.GetBitRate());
                                  }));
    MrcCcState* sp = s.get();
    uint32_t lcg = 12345;
    auto next = [&lcg](uint32_t n) {
        lcg = lcg * 1103515245u + 12345u;
        return (lcg >> 16) % n;
    };
    Simulator::Schedule(Seconds(0), [d, sp]() { d->OnCnp(*sp); });
    int64_t t = 0;
    for (int episode = 0; episode < 6; ++episode)
    {
        int64_t end = t + 200000;
        while (t < end)
        {
            t += 1000 * (2 + next(8));
            Simulator::Schedule(NanoSeconds(t + 500), [d, sp]() { d->OnCnp(*sp); });
        }
        t += 1000000 * (1 + next(3));
    }
    // Bytes sent every 1.25 us, for the byte counter.
    for (int64_t u = 250; u < t; u += 1250)
    {
        Simulator::Schedule(NanoSeconds(u), [d, sp]() { d->OnSent(*sp, 1000); });
    }
    for (int64_t u = 750; u < t; u += 10000)
    {
        Simulator::Schedule(NanoSeconds(u), [d, &run]() {
            run.alpha.push_back(d->Alpha());
            run.stage.push_back(d->Stage());
        });
    }
    Simulator::Stop(NanoSeconds(t));
    Simulator::Run();
    run.events = Simulator::GetEventCount();
    Finish(d);
    return run;
}

void
ExpectSameRun(const DcqcnRun& a, const DcqcnRun& b)
{
    // The schedule really exercises cuts, recovery to the line rate and alpha decay.
    EXPECT_GT(a.rates.size(), 50u);
    EXPECT_TRUE(std::any_of(a.rates.begin(), a.rates.end(), [](const auto& r) {
        return r.second == 100 * G1;
    }));
    EXPECT_LT(*std::min_element(a.alpha.begin(), a.alpha.end()), 0.01);
    EXPECT_GT(*std::max_element(a.alpha.begin(), a.alpha.end()), 0.5);
    EXPECT_EQ(a.rates, b.rates);
    EXPECT_EQ(a.stage, b.stage);
    EXPECT_EQ(a.notified, b.notified);
    ASSERT_EQ(a.alpha.size(), b.alpha.size());
    for (size_t k = 0; k < a.alpha.size(); ++k)
    {
        EXPECT_NEAR(a.alpha[k], b.alpha[k], 1e-9 * std::max(a.alpha[k], 1e-300)) << k;
    }
}

} // namespace

// Parking idle timers changes nothing but the number of events.
TEST(MrcDcqcn, ParkedTimersMatchFreeRunningTimers)
{
    DcqcnRun parked = RunEpisodes(true, MrcDcqcn::HAI_ONCE, 0);
    DcqcnRun free = RunEpisodes(false, MrcDcqcn::HAI_ONCE, 0);
    ExpectSameRun(parked, free);
    EXPECT_LT(parked.events, free.events / 2);
    ExpectSameRun(RunEpisodes(true, MrcDcqcn::HAI_SCALED, 20000),
                  RunEpisodes(false, MrcDcqcn::HAI_SCALED, 20000));
}
