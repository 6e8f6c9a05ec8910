/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the UEC NSCC sender window controller (MrcNscc) against hand-computed values.
// Unless a test says otherwise: 100 Gb/s line rate, MTU 4096 B, config base RTT 12 us,
// trimming on. Then BDP = 100e9 b/s * 12e-6 s / 8 = 150000 B = ref_BDP, scaling_a = 1,
// target = 0.75 * 12 us = 9 us, scaling_b = 9/12 = 0.75, max_wnd = 1.5 * 150000 = 225000 B,
// fi = 5 * 4096 = 20480 B, eta = 0.15 * 4096 = 614.4 B, fi_scale = 0.25,
// alpha = 4 * 1 * 0.75 * 4096 / 9e-6 s = 1365333333.33 B/s, qa_threshold = 4 * 9 = 36 us,
// adjust_bytes_threshold = 8 * 4096 = 32768 B, adjust period = 12 us.
// Time is driven by the simulator: At(t, f) runs f at absolute time t.

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/mrc-nscc.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <gtest/gtest.h>
#include <iostream>
#include <vector>

using namespace ns3;

namespace
{

/// Run \p f at absolute simulation time \p t.
void
At(Time t, std::function<void()> f)
{
    Simulator::Schedule(t - Simulator::Now(), f);
    Simulator::Run();
}

MrcCcState
MakeState(Time baseRtt = MicroSeconds(12))
{
    MrcCcState s;
    s.lineRate = DataRate("100Gbps");
    s.mtu = 4096;
    s.baseRtt = baseRtt;
    return s;
}

Ptr<MrcNscc>
MakeNscc(bool quickAdapt = false)
{
    Ptr<MrcNscc> n = CreateObject<MrcNscc>();
    n->SetAttribute("DisableQuickAdapt", BooleanValue(!quickAdapt));
    return n;
}

/// Append the window of every quick adapt of \p n to \p qa (trace QuickAdapt).
void
RecordQuickAdapts(Ptr<MrcNscc> n, std::vector<uint64_t>* qa)
{
    n->TraceConnectWithoutContext(
        "QuickAdapt",
        MakeBoundCallback(
            +[](std::vector<uint64_t>* v, uint64_t c) { v->push_back(c); },
            qa));
}

/// An ACK of \p bytes with a valid RTT sample of base 12 us + \p delay.
MrcCcAck
Ack(uint64_t bytes, Time delay, bool ecn = false, Time base = MicroSeconds(12))
{
    MrcCcAck a;
    a.newlyAckedBytes = bytes;
    a.ecnEcho = ecn;
    a.rttValid = true;
    a.rttSample = base + delay;
    return a;
}

/// One window cut as the trace source WindowCut reports it.
struct Cut
{
    MrcNsccCut cause;
    uint64_t before;
    uint64_t after;

    bool operator==(const Cut& o) const
    {
        return cause == o.cause && before == o.before && after == o.after;
    }
};

std::ostream&
operator<<(std::ostream& os, const Cut& c)
{
    return os << MrcNsccCutName(c.cause) << " " << c.before << "->" << c.after;
}

} // namespace

TEST(MrcNscc, DerivedParameters12us)
{
    MrcCcState s = MakeState();
    Ptr<MrcNscc> n = MakeNscc();
    n->Init(s);
    EXPECT_EQ(n->GetName(), "nscc");
    EXPECT_EQ(n->GetConfigBaseRtt(), MicroSeconds(12));
    EXPECT_EQ(n->GetBaseRtt(), MicroSeconds(12));
    EXPECT_EQ(n->GetBdp(), 150000u);
    EXPECT_DOUBLE_EQ(n->GetScalingA(), 1.0);
    EXPECT_EQ(n->GetTargetDelay(), MicroSeconds(9));
    EXPECT_DOUBLE_EQ(n->GetScalingB(), 0.75);
    // alpha = 4 * 1 * 0.75 * 4096 / 9e-6 = 12288 / 9e-6
    EXPECT_NEAR(n->GetAlpha(), 12288.0 / 9e-6, 1e-3);
    EXPECT_DOUBLE_EQ(n->GetFi(), 20480.0);
    EXPECT_DOUBLE_EQ(n->GetFiScale(), 0.25);
    EXPECT_NEAR(n->GetEta(), 614.4, 1e-9);
    EXPECT_EQ(n->GetMaxWnd(), 225000u);
    EXPECT_EQ(n->GetQaThreshold(), MicroSeconds(36));
    EXPECT_EQ(n->GetAdjustBytesThreshold(), 32768u);
    EXPECT_EQ(n->GetAdjustPeriod(), MicroSeconds(12));
    // initial state: cwnd = max_wnd, rate = line rate, timers at "now"
    EXPECT_EQ(s.cwnd, 225000u);
    EXPECT_EQ(s.rate, DataRate("100Gbps"));
    EXPECT_EQ(n->GetQaEndTime(), Time(0));
    EXPECT_EQ(n->GetSavedCwnd(), 0u);
    EXPECT_DOUBLE_EQ(n->GetAvgDelay(), 0.0);
    Simulator::Destroy();
}

TEST(MrcNscc, DerivedParameters8us)
{
    // BDP = 100e9 * 8e-6 / 8 = 100000 B; a = 100000/150000 = 2/3; target = 6 us;
    // b = 6/12 = 0.5; alpha = 4 * (2/3) * 0.5 * 4096 / 6e-6 = (16384/3) / 6e-6;
    // fi = 5 * 4096 * 2/3 = 13653.33; fi_scale = 0.25 * 2/3 = 1/6; eta = 0.15 * 4096 * 2/3
    // = 409.6; max_wnd = 150000; qa_threshold = 24 us; adjust period 8 us.
    MrcCcState s = MakeState(MicroSeconds(8));
    Ptr<MrcNscc> n = MakeNscc();
    n->Init(s);
    EXPECT_EQ(n->GetBdp(), 100000u);
    EXPECT_NEAR(n->GetScalingA(), 2.0 / 3.0, 1e-12);
    EXPECT_EQ(n->GetTargetDelay(), MicroSeconds(6));
    EXPECT_DOUBLE_EQ(n->GetScalingB(), 0.5);
    EXPECT_NEAR(n->GetAlpha(), (16384.0 / 3.0) / 6e-6, 1e-3);
    EXPECT_NEAR(n->GetFi(), 40960.0 / 3.0, 1e-9);
    EXPECT_NEAR(n->GetFiScale(), 1.0 / 6.0, 1e-12);
    EXPECT_NEAR(n->GetEta(), 409.6, 1e-9);
    EXPECT_EQ(n->GetMaxWnd(), 150000u);
    EXPECT_EQ(s.cwnd, 150000u);
    EXPECT_EQ(n->GetQaThreshold(), MicroSeconds(24));
    EXPECT_EQ(n->GetAdjustPeriod(), MicroSeconds(8));
    Simulator::Destroy();
}

TEST(MrcNscc, DerivedParametersOptions)
{
    // Trimming off: target = base RTT = 12 us, b = 1, alpha = 4 * 4096 / 12e-6.
    {
        MrcCcState s = MakeState();
        Ptr<MrcNscc> n = MakeNscc();
        n->SetAttribute("Trimming", BooleanValue(false));
        n->Init(s);
        EXPECT_EQ(n->GetTargetDelay(), MicroSeconds(12));
        EXPECT_DOUBLE_EQ(n->GetScalingB(), 1.0);
        EXPECT_NEAR(n->GetAlpha(), 16384.0 / 12e-6, 1e-3);
        EXPECT_EQ(n->GetQaThreshold(), MicroSeconds(48));
    }
    // BaseRtt attribute overrides the state; PeerLinkRate 50 Gb/s halves the BDP:
    // 50e9 * 24e-6 / 8 = 150000 B, so a = 1 and max_wnd = 225000 again.
    {
        MrcCcState s = MakeState();
        Ptr<MrcNscc> n = MakeNscc();
        n->SetAttribute("BaseRtt", TimeValue(MicroSeconds(24)));
        n->SetAttribute("PeerLinkRate", DataRateValue(DataRate("50Gbps")));
        n->Init(s);
        EXPECT_EQ(n->GetBdp(), 150000u);
        EXPECT_EQ(n->GetMaxWnd(), 225000u);
        EXPECT_EQ(n->GetTargetDelay(), MicroSeconds(18));
        EXPECT_DOUBLE_EQ(n->GetScalingB(), 1.5);
    }
    // 400 Gb/s: BDP 600000, a = 4, fi = 81920, eta = 2457.6, fi_scale = 1; explicit
    // TargetDelay 3 us (b = 0.25) and explicit max_cwnd / adjust thresholds.
    {
        MrcCcState s = MakeState();
        s.lineRate = DataRate("400Gbps");
        Ptr<MrcNscc> n = MakeNscc();
        n->SetAttribute("TargetDelay", TimeValue(MicroSeconds(3)));
        n->SetAttribute("MaxCwnd", UintegerValue(500000));
        n->SetAttribute("AdjustBytesThreshold", UintegerValue(10000));
        n->SetAttribute("AdjustPeriod", TimeValue(MicroSeconds(5)));
        n->SetAttribute("QaThreshold", TimeValue(MicroSeconds(7)));
        n->Init(s);
        EXPECT_EQ(n->GetBdp(), 600000u);
        EXPECT_DOUBLE_EQ(n->GetScalingA(), 4.0);
        EXPECT_DOUBLE_EQ(n->GetScalingB(), 0.25);
        EXPECT_DOUBLE_EQ(n->GetFi(), 81920.0);
        EXPECT_NEAR(n->GetEta(), 2457.6, 1e-9);
        EXPECT_DOUBLE_EQ(n->GetFiScale(), 1.0);
        // alpha = 4 * 4 * 0.25 * 4096 / 3e-6
        EXPECT_NEAR(n->GetAlpha(), 16384.0 / 3e-6, 1e-3);
        EXPECT_EQ(n->GetMaxWnd(), 500000u);
        EXPECT_EQ(s.cwnd, 500000u);
        EXPECT_EQ(n->GetAdjustBytesThreshold(), 10000u);
        EXPECT_EQ(n->GetAdjustPeriod(), MicroSeconds(5));
        EXPECT_EQ(n->GetQaThreshold(), MicroSeconds(7));
    }
    Simulator::Destroy();
}

TEST(MrcNscc, FairIncreaseAndAdjustByBytes)
{
    MrcCcState s = MakeState();
    Ptr<MrcNscc> n = MakeNscc();
    n->Init(s);
    s.cwnd = 100000;
    At(MicroSeconds(1), [&] {
        // delay 10 us >= target 9 us, no ECN: inc_bytes += fi * newly = 20480 * 4096
        n->OnAck(s, Ack(4096, MicroSeconds(10)));
        EXPECT_DOUBLE_EQ(n->GetIncBytes(), 83886080.0);
        EXPECT_EQ(s.cwnd, 100000u);
        EXPECT_EQ(n->GetReceivedBytes(), 4096u);
        // no ECN and delay > target: the average takes 0.25 * base = 3 us:
        // 0.0125 * 3e-6 = 3.75e-8 s
        EXPECT_NEAR(n->GetAvgDelay(), 3.75e-8, 1e-15);
        for (int i = 0; i < 7; ++i)
        {
            n->OnAck(s, Ack(4096, MicroSeconds(10)));
        }
        // 8 ACKs: received = 32768, not > 32768: still no adjustment
        EXPECT_EQ(s.cwnd, 100000u);
        EXPECT_DOUBLE_EQ(n->GetIncBytes(), 8 * 83886080.0);
        // 9th: received 36864 > 32768: cwnd += 9 * 83886080 / 100000 = 7549.7472, no eta
        // (1 us since the last adjustment < 12 us)
        n->OnAck(s, Ack(4096, MicroSeconds(10)));
        EXPECT_EQ(s.cwnd, 107549u);
        EXPECT_DOUBLE_EQ(n->GetIncBytes(), 0.0);
        EXPECT_EQ(n->GetReceivedBytes(), 0u);
        EXPECT_EQ(n->GetLastAdjustTime(), Time(0));
    });
    Simulator::Destroy();
}

TEST(MrcNscc, ProportionalIncreaseAndAdjustByPeriod)
{
    MrcCcState s = MakeState();
    Ptr<MrcNscc> n = MakeNscc();
    n->Init(s);
    s.cwnd = 100000;
    At(MicroSeconds(1), [&] {
        // delay 3 us < 9 us: inc = alpha * 4096 * 6e-6 = 4 * 0.75 * 4096 * (6/9) * 4096
        // = 8192 * 4096 = 33554432
        n->OnAck(s, Ack(4096, MicroSeconds(3)));
        EXPECT_NEAR(n->GetIncBytes(), 33554432.0, 1e-3);
        EXPECT_EQ(n->GetFiCount(), 0u);
        EXPECT_FALSE(n->IsIncreaseMode());
        EXPECT_EQ(s.cwnd, 100000u);
        // the raw 3 us sample enters the average: 0.0125 * 3e-6
        EXPECT_NEAR(n->GetAvgDelay(), 3.75e-8, 1e-15);
    });
    At(MicroSeconds(12), [&] {
        // period due (12 - 0 >= 12): cwnd = 100000 + 2 * 33554432 / 100000 + 614.4
        // = 100000 + 671.08864 + 614.4 = 101285.48864
        n->OnAck(s, Ack(4096, MicroSeconds(3)));
        EXPECT_EQ(s.cwnd, 101285u);
        EXPECT_EQ(n->GetLastAdjustTime(), MicroSeconds(12));
        EXPECT_DOUBLE_EQ(n->GetIncBytes(), 0.0);
    });
    At(MicroSeconds(23), [&] {
        // 11 us after the last adjustment: nothing applied yet
        n->OnAck(s, Ack(4096, MicroSeconds(3)));
        EXPECT_EQ(s.cwnd, 101285u);
    });
    At(MicroSeconds(24), [&] {
        // due again: 101285 + 2 * 33554432 / 101285 + 614.4 = 101285 + 662.5758 + 614.4
        n->OnAck(s, Ack(4096, MicroSeconds(3)));
        EXPECT_EQ(s.cwnd, 102561u);
    });
    Simulator::Destroy();
}

TEST(MrcNscc, FastIncreaseAfterCleanWindow)
{
    MrcCcState s = MakeState();
    Ptr<MrcNscc> n = MakeNscc();
    n->Init(s);
    s.cwnd = 20000;
    At(MicroSeconds(1), [&] {
        // delay 0.5 us < 1 us: fi_count grows; 4 ACKs = 16384 <= 20000: proportional,
        // inc = 4 * alpha * 4096 * 8.5e-6 = 4 * 12288 * (8.5/9) * 4096 = 190141781.33
        for (int i = 0; i < 4; ++i)
        {
            n->OnAck(s, Ack(4096, NanoSeconds(500)));
        }
        EXPECT_EQ(n->GetFiCount(), 16384u);
        EXPECT_FALSE(n->IsIncreaseMode());
        EXPECT_NEAR(n->GetIncBytes(), 4 * 12288.0 * 8.5 / 9.0 * 4096.0, 1e-2);
        EXPECT_EQ(s.cwnd, 20000u);
        // 5th: fi_count 20480 > cwnd 20000: cwnd += 4096 * 0.25 = 1024, increase mode
        n->OnAck(s, Ack(4096, NanoSeconds(500)));
        EXPECT_EQ(n->GetFiCount(), 20480u);
        EXPECT_TRUE(n->IsIncreaseMode());
        EXPECT_EQ(s.cwnd, 21024u);
        // in increase mode every zero-delay ACK adds newly * fi_scale
        n->OnAck(s, Ack(2048, NanoSeconds(0)));
        EXPECT_EQ(s.cwnd, 21536u);
        // a 3 us delay ends increase mode and resets fi_count; proportional again:
        // inc += 4 * 0.75 * 4096 * (6/9) * 4096 = 33554432
        const double before = n->GetIncBytes();
        n->OnAck(s, Ack(4096, MicroSeconds(3)));
        EXPECT_FALSE(n->IsIncreaseMode());
        EXPECT_EQ(n->GetFiCount(), 0u);
        EXPECT_NEAR(n->GetIncBytes() - before, 33554432.0, 1e-2);
        EXPECT_EQ(s.cwnd, 21536u);
    });
    Simulator::Destroy();
}

TEST(MrcNscc, FastIncreaseClampedToMaxWnd)
{
    MrcCcState s = MakeState();
    Ptr<MrcNscc> n = MakeNscc();
    n->Init(s);
    s.cwnd = 4096;
    At(MicroSeconds(1), [&] {
        n->OnAck(s, Ack(4096, Time(0))); // fi_count 4096, not > 4096
        EXPECT_FALSE(n->IsIncreaseMode());
        n->OnAck(s, Ack(4096, Time(0))); // 8192 > 4096: + 1024
        EXPECT_EQ(s.cwnd, 5120u);
        s.cwnd = 224500;
        n->OnAck(s, Ack(4096, Time(0))); // 224500 + 1024 > 225000: clamped
        EXPECT_EQ(s.cwnd, 225000u);
    });
    Simulator::Destroy();
}

TEST(MrcNscc, MultiplicativeDecreaseWithGuard)
{
    MrcCcState s = MakeState();
    Ptr<MrcNscc> n = MakeNscc();
    n->Init(s);
    // ECN with delay 20 us >= 9 us: the raw 20 us enters the average each time:
    // avg_k = 20 us * (1 - 0.9875^k). avg_60 = 20 * (1 - 0.46999) = 10.600 us > 9 us.
    At(MicroSeconds(5), [&] {
        for (int i = 0; i < 60; ++i)
        {
            n->OnAck(s, Ack(64, MicroSeconds(20), true));
        }
        EXPECT_NEAR(n->GetAvgDelay(), 20e-6 * (1 - std::pow(0.9875, 60)), 1e-12);
        EXPECT_GT(n->GetAvgDelay(), 9e-6);
        // guard: now - last_dec_time = 5 us, not > base RTT 12 us: no cut
        EXPECT_EQ(s.cwnd, 225000u);
        EXPECT_EQ(n->GetLastDecTime(), Time(0));
    });
    At(MicroSeconds(20), [&] {
        // avg_61 = 20 us * (1 - 0.9875^61) = 10.7148 us;
        // factor = 1 - 0.8 * (10.7148 - 9) / 10.7148 = 0.87197; 225000 * 0.87197 = 196193.6
        // then the period is due (20 us): + eta 614.4 -> 196807.6 -> 196807
        n->OnAck(s, Ack(64, MicroSeconds(20), true));
        const double avg = 20e-6 * (1 - std::pow(0.9875, 61));
        const double factor = 1 - 0.8 * (avg - 9e-6) / avg;
        EXPECT_NEAR(factor, 0.87197, 1e-5);
        const double expected = std::floor(std::floor(225000 * factor) + 614.4);
        EXPECT_NEAR(static_cast<double>(s.cwnd), expected, 1.0);
        EXPECT_EQ(s.cwnd, 196807u);
        EXPECT_EQ(n->GetLastDecTime(), MicroSeconds(20));
        EXPECT_FALSE(n->IsIncreaseMode());
    });
    const uint64_t afterFirst = s.cwnd;
    At(MicroSeconds(25), [&] {
        // 5 us after the cut: guarded
        n->OnAck(s, Ack(64, MicroSeconds(20), true));
        EXPECT_EQ(s.cwnd, afterFirst);
    });
    At(MicroSeconds(33), [&] {
        // 13 us > 12 us: cut again (period due too: eta added)
        n->OnAck(s, Ack(64, MicroSeconds(20), true));
        EXPECT_LT(s.cwnd, afterFirst);
        EXPECT_EQ(n->GetLastDecTime(), MicroSeconds(33));
    });
    Simulator::Destroy();
}

TEST(MrcNscc, MultiplicativeDecreaseMaxMdJumpAndNoCutBelowTarget)
{
    MrcCcState s2 = MakeState();
    Ptr<MrcNscc> n2 = MakeNscc();
    n2->SetAttribute("Gamma", DoubleValue(10.0));
    n2->SetAttribute("TargetDelay", TimeValue(MicroSeconds(1)));
    n2->Init(s2);
    At(MicroSeconds(1), [&] {
        // target 1 us; 5 ECN ACKs of delay 20 us: avg_5 = 20 * (1 - 0.9875^5) = 1.2195 us
        // still guarded (1 us since Init)
        for (int i = 0; i < 5; ++i)
        {
            n2->OnAck(s2, Ack(64, MicroSeconds(20), true));
        }
        EXPECT_EQ(s2.cwnd, 225000u);
    });
    At(MicroSeconds(14), [&] {
        // avg_6 = 20 * (1 - 0.9875^6) = 1.4538 us; factor 1 - 10 * 0.4432/1.4432 < 0 -> 0.5:
        // 225000 * 0.5 = 112500, then the period (12 us) is due: + 614.4 = 113114
        n2->OnAck(s2, Ack(64, MicroSeconds(20), true));
        EXPECT_EQ(s2.cwnd, 113114u);
    });
    At(MicroSeconds(30), [&] {
        // ECN with delay 0.5 us < target: the no-change quadrant. The adjust period is
        // due (30 - 14 >= 12), so only eta is added: 113114 + 614.4 -> 113728.
        n2->OnAck(s2, Ack(64, NanoSeconds(500), true));
        EXPECT_EQ(s2.cwnd, 113728u);
        EXPECT_EQ(n2->GetLastDecTime(), MicroSeconds(14));
        EXPECT_DOUBLE_EQ(n2->GetIncBytes(), 0.0);
    });
    Simulator::Destroy();
}

TEST(MrcNscc, NoChangeQuadrant)
{
    MrcCcState s = MakeState();
    Ptr<MrcNscc> n = MakeNscc();
    n->Init(s);
    s.cwnd = 100000;
    At(MicroSeconds(1), [&] {
        n->OnAck(s, Ack(4096, MicroSeconds(3)));
        const double inc = n->GetIncBytes();
        EXPECT_NEAR(inc, 33554432.0, 1e-3);
        // ECN, delay 3 us < 9 us: nothing but the counters
        n->OnAck(s, Ack(4096, MicroSeconds(3), true));
        EXPECT_DOUBLE_EQ(n->GetIncBytes(), inc);
        EXPECT_EQ(s.cwnd, 100000u);
        EXPECT_EQ(n->GetReceivedBytes(), 8192u);
        EXPECT_EQ(n->GetLastDecTime(), Time(0));
    });
    Simulator::Destroy();
}

TEST(MrcNscc, QuickAdaptOnTrimNack)
{
    MrcCcState s = MakeState();
    Ptr<MrcNscc> n = MakeNscc(true);
    n->Init(s);
    std::vector<uint64_t> qa;
    RecordQuickAdapts(n, &qa);
    At(MicroSeconds(1), [&] {
        // first ACK: qa_endtime was 0: no quick adapt, the window starts:
        // achieved = 0, qa_endtime = 1 + 12 + 9 = 22 us
        n->OnAck(s, Ack(4096, MicroSeconds(3)));
        EXPECT_EQ(n->GetQaEndTime(), MicroSeconds(22));
        EXPECT_EQ(n->GetAchievedBytes(), 0u);
    });
    At(MicroSeconds(5), [&] {
        // trim NACK before qa_endtime: trigger_qa, quick adapt not due -> cwnd -= 4096
        s.inflight = 50000;
        n->OnNack(s, 4096, MrcCcNackKind::TRIMMED);
        EXPECT_TRUE(n->IsTriggerQa());
        EXPECT_EQ(s.cwnd, 225000u - 4096u);
        EXPECT_EQ(n->GetBytesIgnored(), 4096 + 4096);
        // the trim feeds config_base_rtt (12 us) into the average
        EXPECT_NEAR(n->GetAvgDelay(), 0.9875 * 0.0125 * 3e-6 + 0.0125 * 12e-6, 1e-15);
    });
    At(MicroSeconds(10), [&] {
        n->OnAck(s, Ack(4096, MicroSeconds(3)));
        n->OnAck(s, Ack(4096, MicroSeconds(3)));
        EXPECT_EQ(n->GetAchievedBytes(), 8192u);
        EXPECT_EQ(s.cwnd, 225000u - 4096u);
    });
    At(MicroSeconds(23), [&] {
        // now >= 22 us, trigger_qa, achieved 12288 < 225000 >> 3 = 28125:
        // cwnd = max(12288, 4096) = 12288; bytes_to_ignore = inflight = 40000
        s.inflight = 40000;
        n->OnAck(s, Ack(4096, MicroSeconds(3)));
        EXPECT_EQ(s.cwnd, 12288u);
        EXPECT_EQ(n->GetBytesToIgnore(), 40000);
        EXPECT_EQ(n->GetBytesIgnored(), 0);
        EXPECT_FALSE(n->IsTriggerQa());
        EXPECT_EQ(n->GetAchievedBytes(), 0u);
        EXPECT_EQ(n->GetQaEndTime(), MicroSeconds(23 + 12 + 9));
        EXPECT_DOUBLE_EQ(n->GetIncBytes(), 0.0);
        EXPECT_EQ(n->GetReceivedBytes(), 0u);
        ASSERT_EQ(qa.size(), 1u);
        EXPECT_EQ(qa[0], 12288u);
    });
    At(MicroSeconds(40), [&] {
        // ignoring: ECN ACKs while bytes_ignored < 40000 change nothing (no MD although
        // 40 - 0 > 12 us)
        n->OnAck(s, Ack(4096, MicroSeconds(20), true));
        EXPECT_EQ(s.cwnd, 12288u);
        EXPECT_EQ(n->GetBytesIgnored(), 4096);
        EXPECT_EQ(n->GetLastDecTime(), Time(0));
        // a trim NACK while ignoring: no cut (quick adapt "ignores"), trigger set again
        n->OnNack(s, 4096, MrcCcNackKind::TRIMMED);
        EXPECT_EQ(s.cwnd, 12288u);
        EXPECT_TRUE(n->IsTriggerQa());
        EXPECT_EQ(n->GetBytesIgnored(), 8192);
        // a non-ECN ACK is processed normally: proportional increase 33554432, and the
        // adjust period is due (40 - 0 >= 12 us; the earlier ACKs returned before step 7):
        // 12288 + 33554432 / 12288 + 614.4 = 12288 + 2730.67 + 614.4 = 15633.07
        n->OnAck(s, Ack(4096, MicroSeconds(3)));
        EXPECT_EQ(s.cwnd, 15633u);
        EXPECT_EQ(n->GetLastAdjustTime(), MicroSeconds(40));
    });
    Simulator::Destroy();
}

TEST(MrcNscc, QuickAdaptOnLargeDelay)
{
    MrcCcState s = MakeState();
    Ptr<MrcNscc> n = MakeNscc(true);
    n->Init(s);
    At(MicroSeconds(1), [&] { n->OnAck(s, Ack(4096, MicroSeconds(3))); }); // qa_end 22 us
    At(MicroSeconds(30), [&] {
        // delay 40 us > qa_threshold 36 us; achieved 4096 < 28125: cwnd = 4096 (1 MTU)
        s.inflight = 1000;
        n->OnAck(s, Ack(4096, MicroSeconds(40)));
        EXPECT_EQ(s.cwnd, 4096u);
        EXPECT_EQ(n->GetBytesToIgnore(), 1000);
        EXPECT_EQ(n->GetQaEndTime(), MicroSeconds(30 + 21));
    });
    Simulator::Destroy();
}

TEST(MrcNscc, QuickAdaptGateClosed)
{
    MrcCcState s = MakeState();
    Ptr<MrcNscc> n = MakeNscc(true);
    n->Init(s);
    At(MicroSeconds(1), [&] { n->OnAck(s, Ack(4096, MicroSeconds(3))); }); // qa_end 22 us
    At(MicroSeconds(10), [&] {
        for (int i = 0; i < 6; ++i)
        {
            n->OnAck(s, Ack(4096, MicroSeconds(3)));
        }
        EXPECT_EQ(n->GetAchievedBytes(), 24576u);
    });
    At(MicroSeconds(30), [&] {
        // achieved 24576 + 4096 = 28672 >= 28125: no quick adapt despite delay 40 us
        const uint64_t before = s.cwnd;
        n->OnAck(s, Ack(4096, MicroSeconds(40)));
        EXPECT_GE(s.cwnd, before);
        EXPECT_EQ(n->GetAchievedBytes(), 0u);
        EXPECT_EQ(n->GetQaEndTime(), MicroSeconds(51));
        EXPECT_EQ(n->GetBytesToIgnore(), 0);
    });
    Simulator::Destroy();
}

TEST(MrcNscc, QuickAdaptFirstWindowStartsAtFirstNack)
{
    // [U] (and the UEC simulator): qa_endtime starts at 0, so the first quick_adapt call
    // only opens a window, whether an ACK or a trim NACK makes it. A sender whose first
    // feedback is a trim NACK (a far incast sender, whose untrimmed packets still wait in
    // the last-hop queue) measures its first window before any of its data can be
    // acknowledged: achieved_bytes = 0, and the window drops to 1 MTU (issue 19).
    MrcCcState s = MakeState();
    Ptr<MrcNscc> n = MakeNscc(true);
    n->Init(s);
    std::vector<uint64_t> qa;
    RecordQuickAdapts(n, &qa);
    At(MicroSeconds(17), [&] {
        // first call: no quick adapt; window 17 + 12 (base_rtt, still config) + 9 = 38 us;
        // trigger_qa set; the trim cuts 4096
        s.inflight = 200000;
        n->OnNack(s, 4096, MrcCcNackKind::TRIMMED);
        EXPECT_EQ(n->GetQaEndTime(), MicroSeconds(38));
        EXPECT_TRUE(n->IsTriggerQa());
        EXPECT_EQ(s.cwnd, 225000u - 4096u);
        EXPECT_TRUE(qa.empty());
    });
    At(MicroSeconds(38), [&] {
        // now >= 38 us, trigger_qa, achieved 0 < 225000 >> 3: cwnd = max(0, MTU) = 4096;
        // bytes_to_ignore = inflight; the NACK itself cuts nothing more
        s.inflight = 180000;
        n->OnNack(s, 4096, MrcCcNackKind::TRIMMED);
        EXPECT_EQ(s.cwnd, 4096u);
        EXPECT_EQ(n->GetBytesToIgnore(), 180000);
        EXPECT_EQ(n->GetQaEndTime(), MicroSeconds(38 + 21));
        ASSERT_EQ(qa.size(), 1u);
        EXPECT_EQ(qa[0], 4096u);
    });
    At(MicroSeconds(50), [&] {
        // a trim of a packet sent before the cut: ignored (no cut), but trigger_qa is set
        // again before quick_adapt looks ([U] OnNACK order); an ECN ACK is ignored too, its
        // bytes still count as achieved
        n->OnNack(s, 4096, MrcCcNackKind::TRIMMED);
        EXPECT_EQ(s.cwnd, 4096u);
        EXPECT_TRUE(n->IsTriggerQa());
        n->OnAck(s, Ack(4096, MicroSeconds(10), true));
        EXPECT_EQ(s.cwnd, 4096u);
        EXPECT_EQ(n->GetAchievedBytes(), 4096u);
        EXPECT_EQ(qa.size(), 1u);
    });
    At(MicroSeconds(60), [&] {
        // an ACK without ECN is not subject to bytes_to_ignore: the next window is due
        // (60 >= 59 us) and the re-armed trigger fires quick adapt again, before the
        // 180000 bytes in flight at the first cut have come back: cwnd = achieved 8192
        s.inflight = 100000;
        n->OnAck(s, Ack(4096, MicroSeconds(10)));
        ASSERT_EQ(qa.size(), 2u);
        EXPECT_EQ(s.cwnd, 8192u);
        EXPECT_EQ(n->GetBytesToIgnore(), 100000);
        EXPECT_EQ(n->GetBytesIgnored(), 0);
        EXPECT_EQ(n->GetQaEndTime(), MicroSeconds(60 + 21));
    });
    Simulator::Destroy();
}

TEST(MrcNscc, QuickAdaptWindowAndGateFollowOwnBaseRtt)
{
    // [U] update_base_rtt and quick_adapt: the window is base_rtt + target_qdelay and the
    // gate max_wnd >> qa_gate, where base_rtt (and so max_wnd) is the sender's own
    // measured minimum and the target is the network-wide 0.75 x config_base_rtt. A
    // sender on a 4 us path (config 12 us) gets a 13 us window and a 9375 B gate.
    MrcCcState s = MakeState();
    Ptr<MrcNscc> n = MakeNscc(true);
    n->Init(s);
    std::vector<uint64_t> qa;
    RecordQuickAdapts(n, &qa);
    At(MicroSeconds(1), [&] {
        // sample 4 us: base_rtt 4 us, max_wnd 1.5 x 50000 = 75000, target still 9 us;
        // the first call opens the window: 1 + 4 + 9 = 14 us
        n->OnAck(s, Ack(4096, Time(0), false, MicroSeconds(4)));
        EXPECT_EQ(n->GetBaseRtt(), MicroSeconds(4));
        EXPECT_EQ(n->GetMaxWnd(), 75000u);
        EXPECT_EQ(n->GetTargetDelay(), MicroSeconds(9));
        EXPECT_EQ(n->GetQaEndTime(), MicroSeconds(14));
    });
    At(MicroSeconds(5), [&] {
        for (int i = 0; i < 3; ++i)
        {
            n->OnAck(s, Ack(4096, MicroSeconds(3), false, MicroSeconds(4)));
        }
        EXPECT_EQ(n->GetAchievedBytes(), 12288u);
    });
    At(MicroSeconds(8), [&] {
        s.inflight = 40000;
        n->OnNack(s, 4096, MrcCcNackKind::TRIMMED);
        EXPECT_TRUE(n->IsTriggerQa());
        EXPECT_EQ(s.cwnd, 75000u - 4096u);
    });
    At(MicroSeconds(14), [&] {
        // achieved 16384 >= 75000 >> 3 = 9375: no quick adapt (with the config max_wnd,
        // 225000 >> 3 = 28125, it would have fired); the next window ends at 14 + 13 us
        n->OnAck(s, Ack(4096, MicroSeconds(3), false, MicroSeconds(4)));
        EXPECT_TRUE(qa.empty());
        EXPECT_TRUE(n->IsTriggerQa());
        EXPECT_EQ(n->GetAchievedBytes(), 0u);
        EXPECT_EQ(n->GetQaEndTime(), MicroSeconds(27));
        EXPECT_GE(s.cwnd, 75000u - 4096u);
    });
    Simulator::Destroy();
}

TEST(MrcNscc, NackCutsWindow)
{
    MrcCcState s = MakeState();
    Ptr<MrcNscc> n = MakeNscc();
    n->Init(s);
    std::vector<uint64_t> news;
    n->TraceConnectWithoutContext(
        "Cwnd",
        MakeBoundCallback(
            +[](std::vector<uint64_t>* v, uint64_t, uint64_t nw) { v->push_back(nw); },
            &news));
    At(MicroSeconds(1), [&] {
        n->OnNack(s, 4096, MrcCcNackKind::TRIMMED);
        EXPECT_EQ(s.cwnd, 220904u);
        EXPECT_TRUE(n->IsTriggerQa());
        // other NACKs: no cut
        n->OnNack(s, 4096, MrcCcNackKind::OTHER);
        EXPECT_EQ(s.cwnd, 220904u);
        // last-hop trim without RCCC: cut
        n->OnNack(s, 1000, MrcCcNackKind::TRIMMED_LAST_HOP);
        EXPECT_EQ(s.cwnd, 219904u);
        // the NACK's RTT sample 10 us lowers base_rtt: max_wnd = 1.5 * 100e9 * 10e-6 / 8
        // = 187500, cwnd clamped to it, then - 4096 = 183404
        n->OnNackWithRtt(s, 4096, MrcCcNackKind::TRIMMED, MicroSeconds(10));
        EXPECT_EQ(n->GetBaseRtt(), MicroSeconds(10));
        EXPECT_EQ(n->GetMaxWnd(), 187500u);
        EXPECT_EQ(s.cwnd, 183404u);
        // floor at one MTU
        s.cwnd = 5000;
        n->OnNack(s, 4096, MrcCcNackKind::TRIMMED);
        EXPECT_EQ(s.cwnd, 4096u);
    });
    ASSERT_EQ(news.size(), 5u);
    EXPECT_EQ(news[0], 220904u);
    EXPECT_EQ(news[1], 219904u);
    EXPECT_EQ(news[2], 187500u);
    EXPECT_EQ(news[3], 183404u);
    EXPECT_EQ(news[4], 4096u);
    Simulator::Destroy();

    // with RCCC a last-hop trim cuts nothing and sets no trigger
    MrcCcState s2 = MakeState();
    Ptr<MrcNscc> n2 = MakeNscc();
    n2->SetAttribute("Rccc", BooleanValue(true));
    n2->Init(s2);
    n2->OnNack(s2, 4096, MrcCcNackKind::TRIMMED_LAST_HOP);
    EXPECT_EQ(s2.cwnd, 225000u);
    EXPECT_FALSE(n2->IsTriggerQa());
    EXPECT_EQ(n2->GetBytesIgnored(), 4096);
    Simulator::Destroy();
}

TEST(MrcNscc, InferredLossAndInflightAccounting)
{
    MrcCcState s = MakeState();
    Ptr<MrcNscc> n = MakeNscc();
    n->SetAttribute("AccountInflight", BooleanValue(true));
    n->Init(s);
    s.inflight = 20000;
    n->OnLoss(s, 4096);
    EXPECT_EQ(s.cwnd, 220904u);
    EXPECT_EQ(s.inflight, 15904);
    EXPECT_EQ(n->GetBytesIgnored(), 4096);
    n->OnNack(s, 4096, MrcCcNackKind::OTHER);
    EXPECT_EQ(s.inflight, 11808);
    n->OnAck(s, Ack(4096, MicroSeconds(3)));
    EXPECT_EQ(s.inflight, 7712);
    s.cwnd = 6000;
    n->OnLoss(s, 4096); // 6000 - 4096 < MTU -> 4096
    EXPECT_EQ(s.cwnd, 4096u);
    Simulator::Destroy();

    // default: the queue pair owns inflight, the controller leaves it alone
    MrcCcState s2 = MakeState();
    Ptr<MrcNscc> n2 = MakeNscc();
    n2->Init(s2);
    s2.inflight = 20000;
    n2->OnLoss(s2, 4096);
    n2->OnNack(s2, 4096, MrcCcNackKind::TRIMMED);
    n2->OnAck(s2, Ack(4096, MicroSeconds(3)));
    EXPECT_EQ(s2.inflight, 20000);
    Simulator::Destroy();
}

TEST(MrcNscc, ReceiverPenaltyAndRestore)
{
    MrcCcState s = MakeState();
    Ptr<MrcNscc> n = MakeNscc();
    n->Init(s);
    At(MicroSeconds(1), [&] {
        s.inflight = 100000;
        MrcCcAck a = Ack(4096, MicroSeconds(3));
        a.rcvCwndPend = 64;
        // saved = 225000; cwnd = min(225000, 100000) = 100000; - (64 * 4096 >> 7) = 2048
        n->OnAck(s, a);
        EXPECT_EQ(n->GetSavedCwnd(), 225000u);
        EXPECT_EQ(s.cwnd, 97952u);
        // rcv_limit_mode: no proportional increase
        EXPECT_DOUBLE_EQ(n->GetIncBytes(), 0.0);
        a.rcvCwndPend = 127;
        // cwnd = min(97952, 100000) - (127 * 4096 >> 7 = 4064) = 93888; saved kept
        n->OnAck(s, a);
        EXPECT_EQ(s.cwnd, 93888u);
        EXPECT_EQ(n->GetSavedCwnd(), 225000u);
        // inflight below cwnd: cwnd = min(93888, 10000) - 4064 = 5936
        s.inflight = 10000;
        n->OnAck(s, a);
        EXPECT_EQ(s.cwnd, 5936u);
        // floor at one MTU
        n->OnAck(s, a);
        EXPECT_EQ(s.cwnd, 4096u);
        // pend 0 without restore: nothing restored, increases allowed again
        MrcCcAck b = Ack(4096, MicroSeconds(3));
        n->OnAck(s, b);
        EXPECT_EQ(s.cwnd, 4096u);
        EXPECT_GT(n->GetIncBytes(), 0.0);
        // restore
        b.restoreCwnd = true;
        n->OnAck(s, b);
        EXPECT_EQ(s.cwnd, 225000u);
        EXPECT_EQ(n->GetSavedCwnd(), 0u);
    });
    Simulator::Destroy();
}

TEST(MrcNscc, BaseRttDropRecomputesMaxWnd)
{
    MrcCcState s = MakeState();
    Ptr<MrcNscc> n = MakeNscc();
    n->Init(s);
    std::vector<Time> drops;
    n->TraceConnectWithoutContext(
        "BaseRtt",
        MakeBoundCallback(
            +[](std::vector<Time>* v, Time, Time nw) { v->push_back(nw); },
            &drops));
    At(MicroSeconds(1), [&] {
        // sample 8 us < 12 us: base_rtt = 8 us; max_wnd = 1.5 * 100000 = 150000; cwnd
        // clamped; the rest stays on config_base_rtt (scaling_a 1, fi 20480, target 9 us)
        n->OnAck(s, Ack(4096, Time(0), false, MicroSeconds(8)));
        EXPECT_EQ(n->GetBaseRtt(), MicroSeconds(8));
        EXPECT_EQ(n->GetMaxWnd(), 150000u);
        EXPECT_EQ(s.cwnd, 150000u);
        EXPECT_DOUBLE_EQ(n->GetFi(), 20480.0);
        EXPECT_EQ(n->GetTargetDelay(), MicroSeconds(9));
        // a larger sample does not raise it; delay is measured against 8 us
        n->OnAck(s, Ack(4096, MicroSeconds(4), false, MicroSeconds(8)));
        EXPECT_EQ(n->GetBaseRtt(), MicroSeconds(8));
    });
    ASSERT_EQ(drops.size(), 1u);
    EXPECT_EQ(drops[0], MicroSeconds(8));
    Simulator::Destroy();

    // RescaleOnBaseRttDrop: everything follows the 8 us values of DerivedParameters8us
    MrcCcState s2 = MakeState();
    Ptr<MrcNscc> n2 = MakeNscc();
    n2->SetAttribute("RescaleOnBaseRttDrop", BooleanValue(true));
    n2->Init(s2);
    n2->OnAck(s2, Ack(4096, Time(0), false, MicroSeconds(8)));
    EXPECT_EQ(n2->GetMaxWnd(), 150000u);
    EXPECT_EQ(n2->GetTargetDelay(), MicroSeconds(6));
    EXPECT_NEAR(n2->GetFi(), 40960.0 / 3.0, 1e-9);
    EXPECT_NEAR(n2->GetEta(), 409.6, 1e-9);
    EXPECT_EQ(n2->GetAdjustPeriod(), MicroSeconds(8));
    EXPECT_EQ(s2.cwnd, 150000u);
    Simulator::Destroy();
}

TEST(MrcNscc, MaxWndFollowsBaseRttDecidesTheQuickAdaptGate)
{
    // A sender 4 us from its receiver on a fabric configured at 12 us: max_wnd is 1.5 x
    // 100 Gb/s x 12 us = 225,000 B at Init. With the default ([U] update_base_rtt) its
    // first 4 us sample makes it 75,000 B, and the quick-adapt gate max_wnd >> 3 falls from
    // 28,125 to 9,375 B; with MaxWndFollowsBaseRtt false (an MRC CC profile's max_cwnd)
    // both stay. Then a trim arms quick adapt and 16,384 B come back in the window of
    // 4 + 9 us: under the configured gate, over the per-path one.
    for (const bool follows : {true, false})
    {
        MrcCcState s = MakeState();
        Ptr<MrcNscc> n = MakeNscc(true);
        n->SetAttribute("MaxWndFollowsBaseRtt", BooleanValue(follows));
        n->Init(s);
        std::vector<uint64_t> qa;
        RecordQuickAdapts(n, &qa);
        const Time base = MicroSeconds(4);
        At(MicroSeconds(1), [&] {
            // sample 4 us: base_rtt 4 us; the first quick-adapt window opens,
            // qa_endtime = 1 + 4 + 9 = 14 us
            n->OnAck(s, Ack(4096, Time(0), false, base));
            EXPECT_EQ(n->GetBaseRtt(), base);
            EXPECT_EQ(n->GetMaxWnd(), follows ? 75000u : 225000u);
            EXPECT_EQ(s.cwnd, follows ? 75000u : 225000u);
            EXPECT_EQ(n->GetQaEndTime(), MicroSeconds(14));
        });
        At(MicroSeconds(5), [&] {
            s.inflight = 40000;
            n->OnNack(s, 4096, MrcCcNackKind::TRIMMED);
            EXPECT_TRUE(n->IsTriggerQa());
        });
        At(MicroSeconds(10), [&] {
            for (int i = 0; i < 3; ++i)
            {
                n->OnAck(s, Ack(4096, MicroSeconds(6), false, base));
            }
        });
        At(MicroSeconds(15), [&] {
            // achieved 4 x 4,096 = 16,384 B
            n->OnAck(s, Ack(4096, MicroSeconds(6), false, base));
        });
        if (follows)
        {
            EXPECT_TRUE(qa.empty()) << "16,384 B is not below the gate of 9,375 B";
            EXPECT_GT(s.cwnd, 60000u);
        }
        else
        {
            ASSERT_EQ(qa.size(), 1u) << "16,384 B is below the gate of 28,125 B";
            EXPECT_EQ(qa[0], 16384u);
            EXPECT_EQ(s.cwnd, 16384u);
        }
        EXPECT_EQ(n->GetMaxWnd(), follows ? 75000u : 225000u);
        Simulator::Destroy();
    }
    // an explicit MaxCwnd stays whatever the flag
    MrcCcState s = MakeState();
    Ptr<MrcNscc> n = MakeNscc();
    n->SetAttribute("MaxCwnd", UintegerValue(100000));
    n->Init(s);
    n->OnAck(s, Ack(4096, Time(0), false, MicroSeconds(4)));
    EXPECT_EQ(n->GetMaxWnd(), 100000u);
    Simulator::Destroy();
}

TEST(MrcNscc, IncreaseRttScaling)
{
    // Default: no scaling, whatever the base RTT.
    MrcCcState s0 = MakeState();
    Ptr<MrcNscc> n0 = MakeNscc();
    n0->Init(s0);
    n0->OnBaseRttSample(s0, MicroSeconds(3));
    EXPECT_DOUBLE_EQ(n0->GetIncreaseScale(), 1.0);
    Simulator::Destroy();

    // IncreaseRttScaling = 2: rho = (base_rtt + target) / (config_base_rtt + target). At
    // config_base_rtt 12 us rho = 1; a base RTT sample of 3 us (target 9 us) gives rho =
    // 12 / 21, factor (12/21)^2 = 0.326530...
    MrcCcState s = MakeState();
    Ptr<MrcNscc> n = MakeNscc();
    n->SetAttribute("IncreaseRttScaling", DoubleValue(2.0));
    n->Init(s);
    EXPECT_DOUBLE_EQ(n->GetIncreaseScale(), 1.0);
    n->OnBaseRttSample(s, MicroSeconds(3));
    const double f = (12.0 / 21.0) * (12.0 / 21.0);
    EXPECT_NEAR(n->GetIncreaseScale(), f, 1e-12);
    // (max_wnd is now 1.5 x 100 Gb/s x 3 us = 56250 B)
    s.cwnd = 40000;
    At(MicroSeconds(1), [&] {
        // fair increase (delay 10 us >= 9 us, no ECN): inc_bytes += fi x factor x newly
        n->OnAck(s, Ack(4096, MicroSeconds(10), false, MicroSeconds(3)));
        EXPECT_NEAR(n->GetIncBytes(), 20480.0 * f * 4096, 1e-3);
    });
    At(MicroSeconds(2), [&] {
        // proportional increase (delay 4 us < 9 us): + alpha x factor x newly x 5 us
        n->OnAck(s, Ack(4096, MicroSeconds(4), false, MicroSeconds(3)));
        EXPECT_NEAR(n->GetIncBytes(),
                    20480.0 * f * 4096 + (12288.0 / 9e-6) * f * 4096 * 5e-6,
                    1e-3);
    });
    // the adjust period (12 us) is due: cwnd += inc / cwnd + eta x factor (614.4 x f)
    EXPECT_EQ(n->GetMaxWnd(), 56250u);
    const double inc = 20480.0 * f * 4096 + (12288.0 / 9e-6) * f * 4096 * 5e-6;
    At(MicroSeconds(13), [&] {
        n->OnAck(s, Ack(4096, MicroSeconds(4), false, MicroSeconds(3)));
        const double inc3 = inc + (12288.0 / 9e-6) * f * 4096 * 5e-6;
        EXPECT_EQ(s.cwnd, static_cast<uint64_t>(std::floor(40000 + inc3 / 40000 + 614.4 * f)));
    });
    Simulator::Destroy();
}

TEST(MrcNscc, CwndClamps)
{
    MrcCcState s = MakeState();
    Ptr<MrcNscc> n = MakeNscc();
    n->Init(s);
    At(MicroSeconds(12), [&] {
        // below one MTU: clamped to 4096 first, then + 0 / 4096 + 614.4 = 4710
        s.cwnd = 1000;
        n->OnAck(s, Ack(64, MicroSeconds(10), true)); // ECN, no MD (avg small)
        EXPECT_EQ(s.cwnd, 4710u);
    });
    At(MicroSeconds(24), [&] {
        // fair increase pushing beyond max_wnd: 224900 + 20480 * 64 / 224900 + 614.4
        // > 225000 -> 225000
        s.cwnd = 224900;
        n->OnAck(s, Ack(64, MicroSeconds(10)));
        EXPECT_EQ(s.cwnd, 225000u);
    });
    Simulator::Destroy();
}

TEST(MrcNscc, InvalidRttSample)
{
    MrcCcState s = MakeState();
    Ptr<MrcNscc> n = MakeNscc(true);
    n->Init(s);
    s.cwnd = 100000;
    MrcCcAck a = Ack(4096, MicroSeconds(3));
    a.rttValid = false;
    At(MicroSeconds(20), [&] {
        // spec default: counters only
        n->OnAck(s, a);
        EXPECT_EQ(n->GetReceivedBytes(), 4096u);
        EXPECT_EQ(n->GetAchievedBytes(), 4096u);
        EXPECT_EQ(n->GetBytesIgnored(), 4096);
        EXPECT_EQ(n->GetQaEndTime(), Time(0));
        EXPECT_EQ(s.cwnd, 100000u);
        EXPECT_DOUBLE_EQ(n->GetIncBytes(), 0.0);
    });
    Simulator::Destroy();

    MrcCcState s2 = MakeState();
    Ptr<MrcNscc> n2 = MakeNscc();
    n2->SetAttribute("InvalidRttUsesAvgDelay", BooleanValue(true));
    n2->Init(s2);
    s2.cwnd = 100000;
    // avg_delay 0 stands in for the delay: < 1 us, so fi_count grows
    n2->OnAck(s2, a);
    EXPECT_EQ(n2->GetFiCount(), 4096u);
    EXPECT_NEAR(n2->GetIncBytes(), 4 * 0.75 * 4096.0 * 4096.0, 1e-3);
    Simulator::Destroy();
}

TEST(MrcNscc, InvalidSampleTakesEachQuadrantWithAvgDelay)
{
    // htsim (uec.cpp processAck, updateCwndOnAck_NSCC): an ACK without a valid RTT sample
    // still runs quick adapt and the quadrants, with delay = avg_delay, and leaves
    // avg_delay as it is. One such ACK of 4096 B in each quadrant, hand-computed with
    // htsim's formulas (defaults of this file: target 9 us, fi 20480 B, alpha
    // 4 x 0.75 x 4096 / 9 us, gamma 0.8, max_md_jump 0.5, eta 614.4 B).
    MrcCcAck invalid = Ack(4096, MicroSeconds(3));
    invalid.rttValid = false;
    // avg_delay after k ECN ACKs of delay 20 us: 20 us x (1 - 0.9875^k)
    const auto prime = [](Ptr<MrcNscc> n, MrcCcState& s, int k) {
        for (int i = 0; i < k; ++i)
        {
            n->OnAck(s, Ack(64, MicroSeconds(20), true));
        }
    };
    const double avg60 = 20e-6 * (1 - std::pow(0.9875, 60)); // 10.59997 us >= 9 us
    const double avg1 = 20e-6 * 0.0125;                      // 0.25 us < 9 us
    {
        // no ECN, avg_delay >= target: fair increase, inc_bytes = fi x 4096
        MrcCcState s = MakeState();
        Ptr<MrcNscc> n = MakeNscc();
        n->SetAttribute("InvalidRttUsesAvgDelay", BooleanValue(true));
        n->Init(s);
        At(MicroSeconds(5), [&] {
            prime(n, s, 60);
            EXPECT_NEAR(n->GetAvgDelay(), avg60, 1e-12);
            EXPECT_DOUBLE_EQ(n->GetIncBytes(), 0.0);
            n->OnAck(s, invalid);
            EXPECT_DOUBLE_EQ(n->GetIncBytes(), 20480.0 * 4096);
            EXPECT_NEAR(n->GetAvgDelay(), avg60, 1e-12); // unchanged
            EXPECT_EQ(s.cwnd, 225000u);                  // applied at the next adjustment
        });
        Simulator::Destroy();
    }
    {
        // no ECN, avg_delay 0.25 us < target: fast increase is not due (fi_count 4096 <=
        // cwnd), so proportional: inc_bytes = alpha x 4096 x (9 - 0.25) us
        MrcCcState s = MakeState();
        Ptr<MrcNscc> n = MakeNscc();
        n->SetAttribute("InvalidRttUsesAvgDelay", BooleanValue(true));
        n->Init(s);
        At(MicroSeconds(5), [&] {
            prime(n, s, 1);
            EXPECT_NEAR(n->GetAvgDelay(), avg1, 1e-15);
            n->OnAck(s, invalid);
            EXPECT_EQ(n->GetFiCount(), 4096u);
            const double alpha = 4 * 0.75 * 4096 / 9e-6;
            EXPECT_NEAR(n->GetIncBytes(), alpha * 4096 * (9e-6 - avg1), 1e-3);
            EXPECT_NEAR(n->GetIncBytes(), 3.0 * 4096 * 4096 * 8.75 / 9, 1e-3);
        });
        Simulator::Destroy();
    }
    {
        // ECN, avg_delay >= target, 20 us after the last cut (> base RTT 12 us): MD,
        // cwnd = 225000 x max(1 - 0.8 x (avg - 9 us) / avg, 0.5), then eta (period due)
        MrcCcState s = MakeState();
        Ptr<MrcNscc> n = MakeNscc();
        n->SetAttribute("InvalidRttUsesAvgDelay", BooleanValue(true));
        n->Init(s);
        At(MicroSeconds(5), [&] { prime(n, s, 60); });
        At(MicroSeconds(20), [&] {
            EXPECT_EQ(s.cwnd, 225000u);
            MrcCcAck ecn = invalid;
            ecn.ecnEcho = true;
            n->OnAck(s, ecn);
            const double factor = 1 - 0.8 * (avg60 - 9e-6) / avg60;
            EXPECT_NEAR(factor, 0.879423, 1e-6);
            EXPECT_EQ(s.cwnd,
                      static_cast<uint64_t>(std::floor(std::floor(225000 * factor) + 614.4)));
            EXPECT_EQ(s.cwnd, 198484u);
            EXPECT_EQ(n->GetLastDecTime(), MicroSeconds(20));
        });
        Simulator::Destroy();
    }
    {
        // ECN, avg_delay < target: no change
        MrcCcState s = MakeState();
        Ptr<MrcNscc> n = MakeNscc();
        n->SetAttribute("InvalidRttUsesAvgDelay", BooleanValue(true));
        n->Init(s);
        s.cwnd = 100000;
        At(MicroSeconds(5), [&] {
            prime(n, s, 1);
            MrcCcAck ecn = invalid;
            ecn.ecnEcho = true;
            n->OnAck(s, ecn);
            EXPECT_EQ(s.cwnd, 100000u);
            EXPECT_DOUBLE_EQ(n->GetIncBytes(), 0.0);
            EXPECT_EQ(n->GetLastDecTime(), Time(0));
        });
        Simulator::Destroy();
    }
}

TEST(MrcNscc, DelayAverageOverBaseRtt)
{
    // DelayAverageOverBaseRtt: each sample weighs 1 - exp(-dt / base_rtt), dt the time since
    // the previous one (from Init at 0). Base RTT 12 us, target 9 us, cwnd 225000 B.
    const double w6 = 1 - std::exp(-6.0 / 12.0);   // 0.393469
    const double w24 = 1 - std::exp(-24.0 / 12.0); // 0.864665
    {
        MrcCcState s = MakeState();
        Ptr<MrcNscc> n = MakeNscc();
        n->SetAttribute("DelayAverageOverBaseRtt", BooleanValue(true));
        n->Init(s);
        At(MicroSeconds(6), [&] {
            n->OnAck(s, Ack(4096, MicroSeconds(20), true));
            EXPECT_NEAR(n->GetAvgDelay(), w6 * 20e-6, 1e-15); // 7.87 us < 9 us: no cut
            EXPECT_EQ(s.cwnd, 225000u);
        });
        At(MicroSeconds(30), [&] {
            n->OnAck(s, Ack(4096, MicroSeconds(10), true));
            const double avg = (1 - w24) * w6 * 20e-6 + w24 * 10e-6; // 9.7116 us
            EXPECT_NEAR(n->GetAvgDelay(), avg, 1e-15);
            EXPECT_NEAR(avg, 9.7116e-6, 1e-10);
            // MD (30 us since the last cut > 12 us) on this average, then eta (period due)
            const double factor = 1 - 0.8 * (avg - 9e-6) / avg;
            EXPECT_EQ(s.cwnd,
                      static_cast<uint64_t>(std::floor(std::floor(225000 * factor) + 614.4)));
        });
        At(MicroSeconds(30) + MicroSeconds(12), [&] {
            // a trim NACK feeds one config base RTT (12 us) of queuing, weighted the same way
            const double before = n->GetAvgDelay();
            n->OnNack(s, 4096, MrcCcNackKind::TRIMMED);
            const double w12 = 1 - std::exp(-1.0);
            EXPECT_NEAR(n->GetAvgDelay(), (1 - w12) * before + w12 * 12e-6, 1e-15);
        });
        Simulator::Destroy();
    }
    {
        // default (htsim): a fixed gain of 0.0125 per sample, whatever the time between
        MrcCcState s = MakeState();
        Ptr<MrcNscc> n = MakeNscc();
        n->Init(s);
        At(MicroSeconds(6), [&] { n->OnAck(s, Ack(4096, MicroSeconds(20), true)); });
        At(MicroSeconds(30), [&] {
            n->OnAck(s, Ack(4096, MicroSeconds(10), true));
            EXPECT_NEAR(n->GetAvgDelay(), 0.9875 * 0.0125 * 20e-6 + 0.0125 * 10e-6, 1e-15);
            EXPECT_EQ(s.cwnd, 225000u); // avg 0.37 us < target: no cut; eta, clamped to max_wnd
        });
        Simulator::Destroy();
    }
}

TEST(MrcNscc, PerSampleAverageKeepsTheTransientAtOneAckPerRtt)
{
    // The trapped sender of the 15 -> 1 incast (doc/mrc.rst "NSCC fairness by position",
    // session 20), in numbers. htsim's average gives each sample the weight 0.0125, so it
    // forgets by ACKs, not by time. Two controllers see the same start, 40 ECN samples of
    // 30 us delay (the incast's first queues): avg = 30 us x (1 - 0.9875^40) = 11.8613 us.
    // Then both see the same queue, 10 us of delay, ECN on every packet, for 480 us: A at
    // one ACK per microsecond, B at one ACK per 24 us, its window cut to 2 MTU (as quick
    // adapt leaves a far sender).
    const double a0 = 30e-6 * (1 - std::pow(0.9875, 40));
    EXPECT_NEAR(a0, 11.8613e-6, 1e-10);
    const auto pump = [](Ptr<MrcNscc> n, MrcCcState& s) {
        At(MicroSeconds(1), [&] {
            // 1 us after Init: the decrease is guarded (not > 12 us since the last), so the
            // window stays; only the average moves
            for (int i = 0; i < 40; ++i)
            {
                n->OnAck(s, Ack(64, MicroSeconds(30), true));
            }
        });
    };
    {
        MrcCcState s = MakeState();
        Ptr<MrcNscc> a = MakeNscc();
        a->Init(s);
        pump(a, s);
        EXPECT_NEAR(a->GetAvgDelay(), a0, 1e-15);
        for (int k = 2; k <= 481; ++k)
        {
            At(MicroSeconds(k), [&] { a->OnAck(s, Ack(64, MicroSeconds(10), true)); });
        }
        // 480 samples: 10 + 1.8613 x 0.9875^480 = 10.0044 us; the cut factor is then
        // 1 - 0.8 x 1.0044 / 10.0044 = 0.9197
        const double avg = 10e-6 + (a0 - 10e-6) * std::pow(0.9875, 480);
        EXPECT_NEAR(a->GetAvgDelay(), avg, 1e-15);
        EXPECT_NEAR(avg, 10.0044e-6, 1e-10);
        Simulator::Destroy();
    }
    {
        MrcCcState s = MakeState();
        Ptr<MrcNscc> b = MakeNscc();
        b->Init(s);
        pump(b, s);
        s.cwnd = 8192;
        double avg = a0;
        uint64_t w = 8192;
        for (int k = 1; k <= 20; ++k)
        {
            At(MicroSeconds(24 * k), [&] {
                b->OnAck(s, Ack(4096, MicroSeconds(10), true));
                // every ACK: the average moves by one sample, the decrease is due (24 us >
                // 12 us) with the factor of that average, then eta (the period is due)
                avg = 0.0125 * 10e-6 + 0.9875 * avg;
                const double f = std::max(1 - 0.8 * (avg - 9e-6) / avg, 0.5);
                w = std::max<uint64_t>(static_cast<uint64_t>(std::floor(w * f)), 4096);
                w = static_cast<uint64_t>(std::floor(w + 614.4));
                EXPECT_NEAR(b->GetAvgDelay(), avg, 1e-15) << k;
                EXPECT_EQ(s.cwnd, w) << k;
            });
        }
        // after the same 480 us B's average still holds 78 % of the start's excess:
        // 10 + 1.8613 x 0.9875^20 = 11.4473 us (A: 0.24 %), its cut factor is 0.829, and
        // its window sits at the floor: 1 MTU + eta = 4710 B, since 4096 x 0.829 < 1 MTU
        // (the window's fixed point eta / (1 - f) = 3,592 B is below it). One packet per
        // RTT: a second one does not fit.
        EXPECT_NEAR(avg, 11.4473e-6, 1e-10);
        EXPECT_EQ(s.cwnd, 4710u);
        s.inflight = 4096;
        EXPECT_FALSE(MrcNscc::CanSend(s, 4096));
        Simulator::Destroy();
    }
}

TEST(MrcNscc, FairIncreaseRightAfterQuickAdaptScalesByNewlyOverCwnd)
{
    // [U] and htsim: fair increase adds fi x newly to inc_bytes and the adjustment adds
    // inc_bytes / cwnd, i.e. fi per window of acknowledged bytes. Right after a quick
    // adapt the window is small while the ACKs still cover bytes sent under the old one,
    // so one ACK adds fi x newly / cwnd: in the incast (session 20) one ACK of 8,192 B
    // took UEC seed 16's fastest sender from 4,096 to 53,029 B at 80.1 us.
    MrcCcState s = MakeState();
    Ptr<MrcNscc> n = MakeNscc(true);
    n->Init(s);
    At(MicroSeconds(1), [&] {
        // the first trim NACK opens the quick-adapt window (ends 1 + 12 + 9 = 22 us) and
        // cuts one MTU
        s.inflight = 150000;
        n->OnNack(s, 4096, MrcCcNackKind::TRIMMED);
        EXPECT_EQ(s.cwnd, 225000u - 4096u);
    });
    At(MicroSeconds(23), [&] {
        // the next one fires quick adapt: nothing achieved, so cwnd = 1 MTU
        s.inflight = 140000;
        n->OnNack(s, 4096, MrcCcNackKind::TRIMMED);
        EXPECT_EQ(s.cwnd, 4096u);
        EXPECT_EQ(n->GetBytesToIgnore(), 140000);
    });
    At(MicroSeconds(25), [&] {
        // an ACK without ECN is not ignored; delay 15 us >= target 9 us: fair increase
        // 20480 x 8192, and the adjust period is due (25 us since Init):
        // 4096 + 20480 x 8192 / 4096 + 614.4 = 45670.4
        n->OnAck(s, Ack(8192, MicroSeconds(15)));
        EXPECT_EQ(s.cwnd, 45670u);
    });
    At(MicroSeconds(38), [&] {
        // the same ACK at the new window (the period due again, 13 us later) adds 11 x
        // less: 45670 + 20480 x 8192 / 45670 + 614.4 = 45670 + 3673.57 + 614.4 = 49957.97
        n->OnAck(s, Ack(8192, MicroSeconds(15)));
        EXPECT_EQ(s.cwnd, 49957u);
    });
    Simulator::Destroy();
}

TEST(MrcNscc, SendGatingAckRequestAndFork)
{
    MrcCcState s = MakeState();
    Ptr<MrcNscc> n = MakeNscc();
    n->SetAttribute("Gamma", DoubleValue(0.5));
    Ptr<MrcCongestionOps> f = n->Fork();
    n->Init(s);
    s.inflight = 220904;
    EXPECT_TRUE(MrcNscc::CanSend(s, 4096)); // 225000 <= 225000
    s.inflight = 220905;
    EXPECT_FALSE(MrcNscc::CanSend(s, 4096));
    // AR: cwnd - inflight < MTU
    s.inflight = 221000; // 4000 left
    EXPECT_TRUE(n->AckRequest(s));
    s.inflight = 220000; // 5000 left
    EXPECT_FALSE(n->AckRequest(s));
    // or cwnd below ACK_GEN_TRIGGER (16384)
    s.cwnd = 12288;
    s.inflight = 0;
    EXPECT_TRUE(n->AckRequest(s));
    // the fork has the attributes, not the state
    DoubleValue g;
    f->GetAttribute("Gamma", g);
    EXPECT_DOUBLE_EQ(g.Get(), 0.5);
    EXPECT_EQ(f->GetName(), "nscc");
    Ptr<MrcNscc> fn = DynamicCast<MrcNscc>(f);
    ASSERT_NE(fn, nullptr);
    EXPECT_EQ(fn->GetMaxWnd(), 0u);
    // created by TypeId name, as a QP helper would
    ObjectFactory fac;
    fac.SetTypeId("ns3::MrcNscc");
    EXPECT_EQ(fac.Create<MrcCongestionOps>()->GetName(), "nscc");
    Simulator::Destroy();
}

TEST(MrcNsccDeathTest, RejectsBadConfiguration)
{
    {
        MrcCcState s = MakeState(Time(0));
        Ptr<MrcNscc> n = MakeNscc();
        EXPECT_DEATH(n->Init(s), "base RTT is .*0");
    }
    {
        MrcCcState s = MakeState();
        s.lineRate = DataRate(0);
        Ptr<MrcNscc> n = MakeNscc();
        EXPECT_DEATH(n->Init(s), "lineRate is 0 bps");
    }
    {
        MrcCcState s = MakeState();
        Ptr<MrcNscc> n = MakeNscc();
        n->SetAttribute("ReferenceRtt", TimeValue(Time(0)));
        EXPECT_DEATH(n->Init(s), "ReferenceRtt");
    }
    Simulator::Destroy();
}

namespace
{

/// A tiny closed loop: senders with a 100 Gb/s NIC each, one 100 Gb/s bottleneck queue with
/// a step ECN mark at KBytes, per-packet ACKs, base RTT 12 us. The queue pair part (inflight,
/// gating) is done here as a real queue pair would.
class NsccLoop
{
  public:
    static constexpr uint32_t kPkt = 4096;
    const Time ser = NanoSeconds(328); // 4096 B at 100 Gb/s
    const Time base = MicroSeconds(12);
    uint64_t kBytes = 30000;

    struct Flow
    {
        MrcCcState s;
        Ptr<MrcNscc> cc;
        Time nicFree{0};
        bool pending{false};
        uint64_t ackedInWindow{0};
        uint64_t minCwnd{UINT64_MAX};
        uint64_t maxCwnd{0};
    };

    std::vector<Flow> flows;
    Time lastDeparture{0};
    Time windowStart{0};
    Time maxQueueDelay{0};

    void Start(size_t i, Time at)
    {
        Simulator::Schedule(at - Simulator::Now(), &NsccLoop::TrySend, this, i);
    }

    void TrySend(size_t i)
    {
        Flow& f = flows[i];
        f.pending = false;
        const Time now = Simulator::Now();
        if (now < f.nicFree)
        {
            f.pending = true;
            Simulator::Schedule(f.nicFree - now, &NsccLoop::TrySend, this, i);
            return;
        }
        if (!MrcNscc::CanSend(f.s, kPkt))
        {
            return; // an ACK will call again
        }
        f.s.inflight += kPkt;
        f.nicFree = now + ser;
        const Time arrival = now + ser;
        const Time qdelay = lastDeparture > arrival ? lastDeparture - arrival : Time(0);
        const uint64_t backlog = qdelay.GetNanoSeconds() * 100 / 8; // bytes at 100 Gb/s
        const bool ce = backlog > kBytes;
        lastDeparture = std::max(arrival, lastDeparture) + ser;
        if (now >= windowStart)
        {
            maxQueueDelay = std::max(maxQueueDelay, qdelay);
        }
        const Time ackAt = lastDeparture + (base - ser - ser);
        Simulator::Schedule(ackAt - now, &NsccLoop::Acked, this, i, now, ce);
        f.pending = true;
        Simulator::Schedule(ser, &NsccLoop::TrySend, this, i);
    }

    void Acked(size_t i, Time sent, bool ce)
    {
        Flow& f = flows[i];
        f.s.inflight -= kPkt;
        MrcCcAck a;
        a.newlyAckedBytes = kPkt;
        a.ecnEcho = ce;
        a.rttValid = true;
        a.rttSample = Simulator::Now() - sent;
        f.cc->OnAck(f.s, a);
        if (Simulator::Now() >= windowStart)
        {
            f.ackedInWindow += kPkt;
            f.minCwnd = std::min(f.minCwnd, f.s.cwnd);
            f.maxCwnd = std::max(f.maxCwnd, f.s.cwnd);
        }
        if (!f.pending)
        {
            TrySend(i);
        }
    }
};

} // namespace

TEST(MrcNscc, ClosedLoopTwoToOneIncast)
{
    // Two 100 Gb/s senders into one 100 Gb/s port: both start with cwnd = max_wnd =
    // 225000 B, so 450000 B against a 150000 B BDP (about 24 us of queue). NSCC must bring
    // the queue down and keep the port busy.
    NsccLoop loop;
    loop.windowStart = MicroSeconds(1000);
    for (int i = 0; i < 2; ++i)
    {
        NsccLoop::Flow f;
        f.s = MakeState();
        f.cc = CreateObject<MrcNscc>();
        f.cc->Init(f.s);
        loop.flows.push_back(f);
    }
    loop.Start(0, Time(0));
    loop.Start(1, MicroSeconds(100));
    Simulator::Stop(MicroSeconds(2000));
    Simulator::Run();
    const uint64_t total = loop.flows[0].ackedInWindow + loop.flows[1].ackedInWindow;
    // Measured over 1..2 ms (deterministic): 6238208 + 6250496 B acked, i.e. the port's
    // full 4096 B per 328 ns = 12.488 MB; cwnd about 129-138 kB each (sum about BDP + 9 us of
    // queue: ECN marks above 30 kB but only a delay above the 9 us target cuts, and eta
    // probes upwards); worst queuing delay 9.65 us.
    // Asserted with margins: >= 88 % utilisation, each flow 40-60 %, queue < 15 us, cwnd in
    // [MTU, max_wnd].
    EXPECT_GT(total, 11000000u);
    EXPECT_GT(loop.flows[0].ackedInWindow, total * 4 / 10);
    EXPECT_GT(loop.flows[1].ackedInWindow, total * 4 / 10);
    EXPECT_LT(loop.maxQueueDelay, MicroSeconds(15));
    for (const auto& f : loop.flows)
    {
        EXPECT_GE(f.minCwnd, 4096u);
        EXPECT_LE(f.maxCwnd, 225000u);
    }
    Simulator::Destroy();
}

TEST(MrcNscc, WindowCutTraceNamesEveryCause)
{
    // Every window cut reports its cause and the window before and after.
    auto record = [](Ptr<MrcNscc> n, std::vector<Cut>* cuts) {
        n->TraceConnectWithoutContext(
            "WindowCut",
            MakeBoundCallback(
                +[](std::vector<Cut>* v, MrcNsccCut c, uint64_t b, uint64_t a) {
                    v->push_back(Cut{c, b, a});
                },
                cuts));
    };
    std::vector<Cut> cuts;
    MrcCcState s = MakeState();
    Ptr<MrcNscc> n = MakeNscc();
    n->Init(s);
    record(n, &cuts);
    At(MicroSeconds(1), [&] {
        n->OnNack(s, 4096, MrcCcNackKind::TRIMMED);          // 225000 -> 220904
        n->OnNack(s, 4096, MrcCcNackKind::OTHER);            // no cut
        n->OnNack(s, 1000, MrcCcNackKind::TRIMMED_LAST_HOP); // no RCCC: 220904 -> 219904
        n->OnLoss(s, 4096);                                  // 219904 -> 215808
        s.inflight = 100000;
        MrcCcAck a = Ack(4096, MicroSeconds(3));
        a.rcvCwndPend = 64; // min(215808, 100000) - (64 x 4096 >> 7 = 2048) = 97952
        n->OnAck(s, a);
        s.cwnd = 5000;
        n->OnLoss(s, 4096); // floor: 5000 -> 4096
        n->OnLoss(s, 4096); // at the floor: reported, 4096 -> 4096
    });
    EXPECT_EQ(cuts,
              (std::vector<Cut>{{MrcNsccCut::TRIM_NACK, 225000, 220904},
                                {MrcNsccCut::TRIM_NACK, 220904, 219904},
                                {MrcNsccCut::LOSS, 219904, 215808},
                                {MrcNsccCut::RECEIVER_PENALTY, 215808, 97952},
                                {MrcNsccCut::LOSS, 5000, 4096},
                                {MrcNsccCut::LOSS, 4096, 4096}}));
    Simulator::Destroy();

    // Multiplicative decrease (the numbers of MultiplicativeDecreaseWithGuard): the cut is
    // reported before the adjustment step adds eta.
    cuts.clear();
    MrcCcState s2 = MakeState();
    Ptr<MrcNscc> n2 = MakeNscc();
    n2->Init(s2);
    record(n2, &cuts);
    At(MicroSeconds(5), [&] {
        for (int i = 0; i < 60; ++i)
        {
            n2->OnAck(s2, Ack(64, MicroSeconds(20), true));
        }
    });
    EXPECT_TRUE(cuts.empty()); // the once-per-base-RTT guard held
    At(MicroSeconds(20), [&] { n2->OnAck(s2, Ack(64, MicroSeconds(20), true)); });
    // floor(225000 x 0.87197) = 196193; + eta 614.4 = 196807
    EXPECT_EQ(cuts, (std::vector<Cut>{{MrcNsccCut::MULTIPLICATIVE_DECREASE, 225000, 196193}}));
    EXPECT_EQ(s2.cwnd, 196807u);
    Simulator::Destroy();

    // Quick adapt (the numbers of QuickAdaptOnTrimNack): the trim NACK's cut, then quick
    // adapt to the 12,288 B achieved.
    cuts.clear();
    MrcCcState s3 = MakeState();
    Ptr<MrcNscc> n3 = MakeNscc(true);
    n3->Init(s3);
    record(n3, &cuts);
    At(MicroSeconds(1), [&] { n3->OnAck(s3, Ack(4096, MicroSeconds(3))); });
    At(MicroSeconds(5), [&] {
        s3.inflight = 50000;
        n3->OnNack(s3, 4096, MrcCcNackKind::TRIMMED);
    });
    At(MicroSeconds(10), [&] {
        n3->OnAck(s3, Ack(4096, MicroSeconds(3)));
        n3->OnAck(s3, Ack(4096, MicroSeconds(3)));
    });
    At(MicroSeconds(23), [&] {
        s3.inflight = 40000;
        n3->OnAck(s3, Ack(4096, MicroSeconds(3)));
    });
    EXPECT_EQ(cuts,
              (std::vector<Cut>{{MrcNsccCut::TRIM_NACK, 225000, 220904},
                                {MrcNsccCut::QUICK_ADAPT, 220904, 12288}}));
    Simulator::Destroy();
    EXPECT_STREQ(MrcNsccCutName(MrcNsccCut::TRIM_NACK), "TRIM_NACK");
    EXPECT_STREQ(MrcNsccCutName(MrcNsccCut::LOSS), "LOSS");
    EXPECT_STREQ(MrcNsccCutName(MrcNsccCut::MULTIPLICATIVE_DECREASE), "MULTIPLICATIVE_DECREASE");
    EXPECT_STREQ(MrcNsccCutName(MrcNsccCut::QUICK_ADAPT), "QUICK_ADAPT");
    EXPECT_STREQ(MrcNsccCutName(MrcNsccCut::RECEIVER_PENALTY), "RECEIVER_PENALTY");
}

TEST(MrcNscc, AckDecisionTraceNamesEveryQuadrant)
{
    MrcCcState s = MakeState();
    Ptr<MrcNscc> n = MakeNscc();
    n->Init(s);
    s.cwnd = 100000;
    std::vector<MrcNsccAckRecord> recs;
    n->TraceConnectWithoutContext(
        "AckDecision",
        MakeCallback(+[](std::vector<MrcNsccAckRecord>* v, const MrcNsccAckRecord& r) {
            v->push_back(r);
        }).Bind(&recs));
    At(MicroSeconds(1), [&] {
        n->OnAck(s, Ack(4096, MicroSeconds(10)));       // no ECN, 10 >= 9 us: fair
        n->OnAck(s, Ack(4096, MicroSeconds(3)));        // no ECN, 3 < 9 us: proportional
        n->OnAck(s, Ack(4096, MicroSeconds(3), true));  // ECN, 3 < 9 us: no change
        n->OnAck(s, Ack(4096, MicroSeconds(20), true)); // ECN, 20 us: MD, avg too small
        MrcCcAck invalid = Ack(4096, MicroSeconds(3));
        invalid.rttValid = false;
        n->OnAck(s, invalid); // no sample: counters only
    });
    ASSERT_EQ(recs.size(), 5u);
    EXPECT_EQ(recs[0].decision, MrcNsccDecision::FAIR_INCREASE);
    EXPECT_EQ(recs[0].delay, MicroSeconds(10));
    EXPECT_EQ(recs[0].rttSample, MicroSeconds(22));
    EXPECT_EQ(recs[0].baseRtt, MicroSeconds(12));
    EXPECT_EQ(recs[0].target, MicroSeconds(9));
    EXPECT_EQ(recs[0].newly, 4096u);
    EXPECT_FALSE(recs[0].ecn);
    EXPECT_EQ(recs[1].decision, MrcNsccDecision::PROPORTIONAL_INCREASE);
    EXPECT_EQ(recs[1].delay, MicroSeconds(3));
    EXPECT_EQ(recs[2].decision, MrcNsccDecision::NO_CHANGE);
    EXPECT_TRUE(recs[2].ecn);
    // avg_delay is far below the target (and 1 us since Init < base RTT): held
    EXPECT_EQ(recs[3].decision, MrcNsccDecision::DECREASE_HELD);
    EXPECT_EQ(recs[4].decision, MrcNsccDecision::NO_RTT_SAMPLE);
    EXPECT_EQ(recs[4].rttSample, Time(0));
    Simulator::Destroy();
}
