/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of MrcEndTimeRecords: it runs the simulator only when nothing is scheduled and nothing
// has run, executes no event and leaves the clock at 0; a pending event stays pending and runs at
// its time in the real run. MrcEndTimeRecordsBeforeCoreChange (a run split over MPI ranks)
// also destroys that simulator, so that the core bound afterwards is the one created.

#include "ns3/global-value.h"
#include "ns3/mrc-time-records.h"
#include "ns3/nstime.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

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

TEST(MrcEndTimeRecords, BeforeACoreChangeTheNextUseCreatesTheCoreBoundThen)
{
    Simulator::Destroy();
    StringValue bound;
    GlobalValue::GetValueByName("SimulatorImplementationType", bound);
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::MrcSimulatorImpl"));
    EXPECT_TRUE(MrcEndTimeRecordsBeforeCoreChange());
    // as MrcMpi::BeginRun does: another core is bound after the call
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
    EXPECT_EQ(Simulator::GetImplementation()->GetInstanceTypeId().GetName(),
              "ns3::DefaultSimulatorImpl");
    g_ranAt.clear();
    Simulator::Schedule(NanoSeconds(4), &Record);
    Simulator::Run();
    ASSERT_EQ(g_ranAt.size(), 1u);
    EXPECT_EQ(g_ranAt[0], NanoSeconds(4));
    Simulator::Destroy();
    GlobalValue::Bind("SimulatorImplementationType", bound);
}

TEST(MrcEndTimeRecords, BeforeACoreChangeLeavesAPendingEventAndItsSimulatorAlone)
{
    Simulator::Destroy();
    StringValue bound;
    GlobalValue::GetValueByName("SimulatorImplementationType", bound);
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::MrcSimulatorImpl"));
    g_ranAt.clear();
    Simulator::Schedule(NanoSeconds(6), &Record);
    EXPECT_FALSE(MrcEndTimeRecordsBeforeCoreChange());
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
    // not destroyed: the simulator that holds the event is still the one in use
    EXPECT_EQ(Simulator::GetImplementation()->GetInstanceTypeId().GetName(),
              "ns3::MrcSimulatorImpl");
    Simulator::Run();
    ASSERT_EQ(g_ranAt.size(), 1u);
    EXPECT_EQ(g_ranAt[0], NanoSeconds(6));
    Simulator::Destroy();
    GlobalValue::Bind("SimulatorImplementationType", bound);
}
