/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of the shared-buffer MMU. Every threshold below is computed by hand from the
// configuration of MakeMmu(): buffer 100,000 B, 2 ports x 8 priorities, reserve
// 1,000 B per queue (16,000 B), priority 3 lossless on both ports with 5,000 B of
// headroom each (10,000 B): shared pool 74,000 B. PFC alpha 1/8, resume offset 1,000 B.
// Threshold T = floor(alpha x (74,000 - shared pool used)).

#include "ns3/double.h"
#include "ns3/mrc-shared-buffer-mmu.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <random>

using namespace ns3;

namespace
{

constexpr uint8_t LOSSLESS = 3;
constexpr uint8_t LOSSY = 1;

Ptr<MrcSharedBufferMmu>
MakeMmu()
{
    Ptr<MrcSharedBufferMmu> mmu = CreateObject<MrcSharedBufferMmu>();
    mmu->SetAttribute("BufferSize", UintegerValue(100000));
    mmu->SetAttribute("ReservePerQueue", UintegerValue(1000));
    mmu->SetAttribute("Headroom", UintegerValue(5000));
    mmu->SetAttribute("ResumeOffset", UintegerValue(1000));
    mmu->SetAttribute("PfcPriorityMask", UintegerValue(1 << LOSSLESS));
    mmu->ConfigurePorts(2);
    return mmu;
}

/// Invariants that hold after every operation.
void
CheckInvariants(Ptr<MrcSharedBufferMmu> mmu)
{
    uint64_t shared = 0;
    uint64_t ingress = 0;
    uint64_t egress = 0;
    for (uint32_t port = 0; port < mmu->GetNPorts(); ++port)
    {
        for (uint8_t prio = 0; prio < MrcSharedBufferMmu::N_PRIO; ++prio)
        {
            shared += mmu->GetSharedBytes(port, prio);
            ingress += mmu->GetIngressBytes(port, prio) + mmu->GetHeadroomBytes(port, prio);
            egress += mmu->GetEgressBytes(port, prio);
            ASSERT_LE(mmu->GetHeadroomBytes(port, prio), mmu->GetHeadroom(port, prio));
            ASSERT_EQ(mmu->GetSharedBytes(port, prio),
                      mmu->GetIngressBytes(port, prio) > 1000
                          ? mmu->GetIngressBytes(port, prio) - 1000
                          : 0);
        }
    }
    ASSERT_EQ(shared, mmu->GetSharedPoolUsed());
    ASSERT_LE(shared, mmu->GetSharedPoolSize());
    ASSERT_EQ(ingress, mmu->GetTotalBytes());
    ASSERT_EQ(egress, mmu->GetTotalBytes());
}

} // namespace

TEST(SharedBufferMmu, PoolAndHeadroomFormula)
{
    Ptr<MrcSharedBufferMmu> mmu = MakeMmu();
    EXPECT_EQ(mmu->GetSharedPoolSize(), 74000u);
    EXPECT_EQ(mmu->GetPfcThreshold(0), 9250u); // 74,000 / 8
    EXPECT_TRUE(mmu->IsPfcEnabled(1, LOSSLESS));
    EXPECT_FALSE(mmu->IsPfcEnabled(1, LOSSY));
    // HPCC: 3 x rate x one-way delay / 8
    EXPECT_EQ(MrcSharedBufferMmu::ComputeHeadroom(DataRate("100Gbps"), MicroSeconds(1)), 37500u);
    EXPECT_EQ(MrcSharedBufferMmu::ComputeHeadroom(DataRate("25Gbps"), MicroSeconds(2)), 18750u);
    EXPECT_EQ(MrcSharedBufferMmu::ComputeHeadroom(DataRate("400Gbps"), NanoSeconds(1500)), 225000u);
    EXPECT_EQ(MrcSharedBufferMmu::ComputeHeadroom(DataRate("1Gbps"), NanoSeconds(1)), 1u); // 0.375
    // Making a queue lossy returns its headroom to the pool.
    mmu->SetPfcEnabled(1, LOSSLESS, false);
    EXPECT_EQ(mmu->GetSharedPoolSize(), 79000u);
    mmu->SetHeadroom(0, 8000);
    EXPECT_EQ(mmu->GetHeadroom(0, LOSSLESS), 8000u);
    EXPECT_EQ(mmu->GetSharedPoolSize(), 76000u);
    // The headroom sum is kept up to date, not summed again: lossless again takes its 5,000 B
    // back, a lossy queue's headroom does not count, and a lossless one's new limit does.
    mmu->SetPfcEnabled(1, LOSSLESS, true);
    EXPECT_EQ(mmu->GetSharedPoolSize(), 71000u);
    mmu->SetHeadroom(1, LOSSY, 9000);
    EXPECT_EQ(mmu->GetSharedPoolSize(), 71000u);
    mmu->SetHeadroom(1, LOSSLESS, 2000);
    EXPECT_EQ(mmu->GetSharedPoolSize(), 74000u);
}

TEST(SharedBufferMmu, PauseAtTheExactByteAndResumeAfterTheOffset)
{
    Ptr<MrcSharedBufferMmu> mmu = MakeMmu();
    // 1,000 B fill the reserve; 8 x 1,000 B go to the shared pool (8,000 <= T).
    for (int i = 0; i < 9; ++i)
    {
        ASSERT_EQ(mmu->Admit(0, LOSSLESS, 1, LOSSLESS, 1000), MrcSharedBufferMmu::ADMIT);
        ASSERT_FALSE(mmu->ShouldPause(0, LOSSLESS)) << "packet " << i;
    }
    EXPECT_EQ(mmu->GetIngressBytes(0, LOSSLESS), 9000u);
    EXPECT_EQ(mmu->GetSharedBytes(0, LOSSLESS), 8000u);
    EXPECT_EQ(mmu->GetPfcThreshold(0), 8250u); // 66,000 / 8
    // Shared s pauses when s >= floor((66,000 - x) / 8) with s = 8,000 + x: x = 222.
    ASSERT_EQ(mmu->Admit(0, LOSSLESS, 1, LOSSLESS, 221), MrcSharedBufferMmu::ADMIT);
    EXPECT_EQ(mmu->GetPfcThreshold(0), 8222u);   // floor(65,779 / 8)
    EXPECT_FALSE(mmu->ShouldPause(0, LOSSLESS)); // 8,221 < 8,222
    ASSERT_EQ(mmu->Admit(0, LOSSLESS, 1, LOSSLESS, 1), MrcSharedBufferMmu::ADMIT);
    EXPECT_EQ(mmu->GetSharedBytes(0, LOSSLESS), 8222u);
    EXPECT_EQ(mmu->GetPfcThreshold(0), 8222u); // floor(65,778 / 8)
    EXPECT_TRUE(mmu->ShouldPause(0, LOSSLESS));
    EXPECT_TRUE(mmu->IsPaused(0, LOSSLESS));
    EXPECT_FALSE(mmu->ShouldPause(0, LOSSLESS)); // already paused: once only
    EXPECT_FALSE(mmu->IsPaused(1, LOSSLESS));

    // Resume when s + 1,000 <= floor((74,000 - s) / 8): s <= 7,333.
    mmu->Release(0, LOSSLESS, 1, LOSSLESS, 888); // s = 7,334, T = 8,333
    EXPECT_EQ(mmu->GetSharedBytes(0, LOSSLESS), 7334u);
    EXPECT_FALSE(mmu->ShouldResume(0, LOSSLESS));
    mmu->Release(0, LOSSLESS, 1, LOSSLESS, 1); // s = 7,333, T = 8,333
    EXPECT_EQ(mmu->GetPfcThreshold(0), 8333u);
    EXPECT_TRUE(mmu->ShouldResume(0, LOSSLESS));
    EXPECT_FALSE(mmu->IsPaused(0, LOSSLESS));
    EXPECT_FALSE(mmu->ShouldResume(0, LOSSLESS));
    CheckInvariants(mmu);
}

TEST(SharedBufferMmu, HeadroomAbsorbsThenDrops)
{
    Ptr<MrcSharedBufferMmu> mmu = MakeMmu();
    std::vector<bool> paused;
    for (int i = 0; i < 9; ++i) // reserve + 8 shared (8,000 <= 8,250 at the 9th)
    {
        ASSERT_EQ(mmu->Admit(0, LOSSLESS, 1, LOSSLESS, 1000), MrcSharedBufferMmu::ADMIT);
    }
    for (int i = 0; i < 5; ++i) // 9,000 > T: headroom, 5 x 1,000 = 5,000
    {
        ASSERT_EQ(mmu->Admit(0, LOSSLESS, 1, LOSSLESS, 1000), MrcSharedBufferMmu::ADMIT);
        paused.push_back(mmu->ShouldPause(0, LOSSLESS));
        CheckInvariants(mmu);
    }
    EXPECT_EQ(paused, std::vector<bool>({true, false, false, false, false}));
    EXPECT_EQ(mmu->GetHeadroomBytes(0, LOSSLESS), 5000u);
    EXPECT_EQ(mmu->GetSharedBytes(0, LOSSLESS), 8000u);
    EXPECT_EQ(mmu->GetSharedPoolUsed(), 8000u);
    EXPECT_EQ(mmu->Admit(0, LOSSLESS, 1, LOSSLESS, 1000), MrcSharedBufferMmu::DROP_HEADROOM_FULL);
    EXPECT_EQ(mmu->GetDropPackets(MrcSharedBufferMmu::DROP_HEADROOM_FULL), 1u);
    EXPECT_EQ(mmu->GetDropBytes(MrcSharedBufferMmu::DROP_HEADROOM_FULL), 1000u);
    EXPECT_EQ(mmu->GetTotalBytes(), 14000u);
    EXPECT_EQ(mmu->GetEgressBytes(1, LOSSLESS), 14000u);
    // Another lossless queue is not affected by this queue's headroom.
    EXPECT_EQ(mmu->Admit(1, LOSSLESS, 0, LOSSLESS, 1000), MrcSharedBufferMmu::ADMIT);
    EXPECT_FALSE(mmu->ShouldPause(1, LOSSLESS));
    mmu->Release(1, LOSSLESS, 0, LOSSLESS, 1000);

    // Release drains headroom first, then shared; XON only once headroom is empty and
    // shared <= 7,333 (see the previous test).
    for (int i = 0; i < 5; ++i)
    {
        mmu->Release(0, LOSSLESS, 1, LOSSLESS, 1000);
        EXPECT_FALSE(mmu->ShouldResume(0, LOSSLESS));
    }
    EXPECT_EQ(mmu->GetHeadroomBytes(0, LOSSLESS), 0u);
    EXPECT_EQ(mmu->GetSharedBytes(0, LOSSLESS), 8000u);
    mmu->Release(0, LOSSLESS, 1, LOSSLESS, 666);
    EXPECT_FALSE(mmu->ShouldResume(0, LOSSLESS)); // 7,334
    mmu->Release(0, LOSSLESS, 1, LOSSLESS, 1);
    EXPECT_TRUE(mmu->ShouldResume(0, LOSSLESS)); // 7,333
    mmu->Release(0, LOSSLESS, 1, LOSSLESS, 8333);
    EXPECT_EQ(mmu->GetTotalBytes(), 0u);
    EXPECT_EQ(mmu->GetSharedPoolUsed(), 0u);
    EXPECT_EQ(mmu->GetIngressBytes(0, LOSSLESS), 0u);
    EXPECT_EQ(mmu->GetEgressBytes(1, LOSSLESS), 0u);
    EXPECT_EQ(mmu->GetPfcThreshold(0), 9250u);
}

TEST(SharedBufferMmu, LossyEgressLimitAndSharedFull)
{
    Ptr<MrcSharedBufferMmu> mmu = MakeMmu();
    mmu->SetAttribute("LossyEgressAlpha", DoubleValue(0.5));
    // Reserve packet, then k shared packets while E + 1,000 <= (74,000 - U) / 2 with
    // E = 1,000 + 1,000 k, U = 1,000 k: k <= 23, so 1 + 24 packets are admitted.
    for (int i = 0; i < 25; ++i)
    {
        ASSERT_EQ(mmu->Admit(0, LOSSY, 1, LOSSY, 1000), MrcSharedBufferMmu::ADMIT) << i;
        EXPECT_FALSE(mmu->ShouldPause(0, LOSSY)); // lossy queues never pause
    }
    EXPECT_EQ(mmu->GetEgressThreshold(), 25000u);
    EXPECT_EQ(mmu->Admit(0, LOSSY, 1, LOSSY, 1000), MrcSharedBufferMmu::DROP_EGRESS_LIMIT);
    // Another egress queue still has room, and a queue's reserve is always admitted.
    EXPECT_EQ(mmu->Admit(0, LOSSY, 0, LOSSY, 1000), MrcSharedBufferMmu::ADMIT);
    EXPECT_EQ(mmu->Admit(1, 5, 1, LOSSY, 1000), MrcSharedBufferMmu::ADMIT);
    EXPECT_EQ(mmu->GetDropPackets(MrcSharedBufferMmu::DROP_EGRESS_LIMIT), 1u);
    CheckInvariants(mmu);

    // Pool exhaustion with a loose egress limit: fill to 500 B free, then 1,000 B.
    Ptr<MrcSharedBufferMmu> full = MakeMmu();
    full->SetAttribute("LossyEgressAlpha", DoubleValue(1000));
    for (int i = 0; i < 74; ++i) // reserve + 73,000 shared
    {
        ASSERT_EQ(full->Admit(0, LOSSY, 1, LOSSY, 1000), MrcSharedBufferMmu::ADMIT);
    }
    ASSERT_EQ(full->Admit(0, LOSSY, 1, LOSSY, 500), MrcSharedBufferMmu::ADMIT);
    EXPECT_EQ(full->GetSharedPoolUsed(), 73500u);
    EXPECT_EQ(full->Admit(0, LOSSY, 1, LOSSY, 1000), MrcSharedBufferMmu::DROP_SHARED_FULL);
    EXPECT_EQ(full->GetDropPackets(MrcSharedBufferMmu::DROP_SHARED_FULL), 1u);
    EXPECT_EQ(full->GetDropBytes(MrcSharedBufferMmu::DROP_SHARED_FULL), 1000u);
    // A lossless queue with nothing in shared: T = 500 / 8 = 62, so its bytes beyond
    // the reserve go to headroom and it pauses.
    ASSERT_EQ(full->Admit(1, LOSSLESS, 0, LOSSLESS, 1000), MrcSharedBufferMmu::ADMIT);
    EXPECT_FALSE(full->ShouldPause(1, LOSSLESS));
    ASSERT_EQ(full->Admit(1, LOSSLESS, 0, LOSSLESS, 100), MrcSharedBufferMmu::ADMIT);
    EXPECT_EQ(full->GetHeadroomBytes(1, LOSSLESS), 100u);
    EXPECT_TRUE(full->ShouldPause(1, LOSSLESS));
    CheckInvariants(full);
}

TEST(SharedBufferMmu, RandomTrafficKeepsInvariantsAndReleaseRestores)
{
    Ptr<MrcSharedBufferMmu> mmu = MakeMmu();

    struct Held
    {
        uint32_t inPort;
        uint8_t inPrio;
        uint32_t outPort;
        uint8_t outPrio;
        uint32_t bytes;
    };

    std::vector<Held> held;
    std::mt19937 rng(12345);
    uint64_t admitted = 0;
    uint64_t dropped = 0;
    for (int step = 0; step < 20000; ++step)
    {
        if (held.empty() || rng() % 100 < 60)
        {
            Held h{static_cast<uint32_t>(rng() % 2),
                   static_cast<uint8_t>(rng() % 2 ? LOSSLESS : LOSSY),
                   static_cast<uint32_t>(rng() % 2),
                   0,
                   static_cast<uint32_t>(64 + rng() % 4000)};
            h.outPrio = h.inPrio;
            if (mmu->Admit(h.inPort, h.inPrio, h.outPort, h.outPrio, h.bytes) ==
                MrcSharedBufferMmu::ADMIT)
            {
                held.push_back(h);
                admitted++;
            }
            else
            {
                dropped++;
            }
            mmu->ShouldPause(h.inPort, h.inPrio);
        }
        else
        {
            std::size_t i = rng() % held.size();
            const Held h = held[i];
            held[i] = held.back();
            held.pop_back();
            mmu->Release(h.inPort, h.inPrio, h.outPort, h.outPrio, h.bytes);
            mmu->ShouldResume(h.inPort, h.inPrio);
        }
        CheckInvariants(mmu);
        if (HasFatalFailure())
        {
            FAIL() << "invariant broken at step " << step;
        }
    }
    EXPECT_GT(admitted, 0u);
    EXPECT_GT(dropped, 0u); // the buffer was driven into its limits
    for (const Held& h : held)
    {
        mmu->Release(h.inPort, h.inPrio, h.outPort, h.outPrio, h.bytes);
    }
    EXPECT_EQ(mmu->GetTotalBytes(), 0u);
    EXPECT_EQ(mmu->GetSharedPoolUsed(), 0u);
    for (uint32_t port = 0; port < 2; ++port)
    {
        for (uint8_t prio = 0; prio < 8; ++prio)
        {
            EXPECT_EQ(mmu->GetIngressBytes(port, prio), 0u);
            EXPECT_EQ(mmu->GetHeadroomBytes(port, prio), 0u);
            EXPECT_EQ(mmu->GetEgressBytes(port, prio), 0u);
        }
    }
}

TEST(SharedBufferMmuDeathTest, ReserveAndHeadroomLargerThanTheBufferAbort)
{
    Ptr<MrcSharedBufferMmu> mmu = CreateObject<MrcSharedBufferMmu>();
    mmu->SetAttribute("BufferSize", UintegerValue(10000));
    mmu->SetAttribute("ReservePerQueue", UintegerValue(1000));
    EXPECT_DEATH(mmu->ConfigurePorts(2),
                 "BufferSize 10000 B is smaller than ReservePerQueue 1000 B x 16 queues "
                 "\\(16000 B\\) \\+ headroom of the lossless queues \\(0 B\\)");

    Ptr<MrcSharedBufferMmu> ok = MakeMmu();
    EXPECT_DEATH(ok->SetHeadroom(0, LOSSLESS, 90000),
                 "BufferSize 100000 B.*headroom of the lossless queues \\(95000 B\\)");
    EXPECT_DEATH(ok->Admit(2, 0, 0, 0, 100), "port 2, priority 0\\) is out of range");
    EXPECT_DEATH(ok->Release(0, 0, 0, 0, 100), "Release of 100 B exceeds");
}
