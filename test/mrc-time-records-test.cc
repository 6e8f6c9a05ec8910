/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of MrcEndTimeRecords: it runs the simulator only when nothing is scheduled and nothing
// has run, executes no event and leaves the clock at 0; a pending event stays pending and runs at
// its time in the real run.

#include "ns3/mrc-time-records.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

/// the times at which the scheduled events ran
std::vector<Time> g_ranAt;

void
Record()
{
    g_ranAt.push_back(Simulator::Now());
}

} // namespace

TEST(MrcEndTimeRecords, RunsAnEmptySimulatorWithoutMovingItsClock)
{
    Simulator::Destroy();
    g_ranAt.clear();
    EXPECT_TRUE(MrcEndTimeRecords());
    EXPECT_EQ(Simulator::Now(), Time(0));
    EXPECT_EQ(Simulator::GetEventCount(), 0u);
    // the simulation that follows runs as it would have
    Simulator::Schedule(NanoSeconds(5), &Record);
    Simulator::Run();
    ASSERT_EQ(g_ranAt.size(), 1u);
    EXPECT_EQ(g_ranAt[0], NanoSeconds(5));
    EXPECT_EQ(Simulator::GetEventCount(), 1u);
    Simulator::Destroy();
}

TEST(MrcEndTimeRecords, LeavesAPendingEventAlone)
{
    Simulator::Destroy();
    g_ranAt.clear();
    Simulator::Schedule(NanoSeconds(3), &Record);
    EXPECT_FALSE(MrcEndTimeRecords());
    EXPECT_TRUE(g_ranAt.empty());
    EXPECT_EQ(Simulator::Now(), Time(0));
    Simulator::Run();
    ASSERT_EQ(g_ranAt.size(), 1u);
    EXPECT_EQ(g_ranAt[0], NanoSeconds(3));
    Simulator::Destroy();
}

TEST(MrcEndTimeRecords, DoesNothingAfterARun)
{
    Simulator::Destroy();
    g_ranAt.clear();
    Simulator::Schedule(NanoSeconds(2), &Record);
    Simulator::Run();
    // the clock has moved and an event has run: not a simulator to start again
    EXPECT_FALSE(MrcEndTimeRecords());
    EXPECT_EQ(Simulator::Now(), NanoSeconds(2));
    EXPECT_EQ(Simulator::GetEventCount(), 1u);
    Simulator::Destroy();
}
