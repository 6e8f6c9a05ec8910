/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Entry point of the standalone GoogleTest binary (mrc-gtest) that CTest runs.
//
// CTest and the ns-3 TestSuite adapter run every case in a process of its own. A developer
// may also run the binary directly, many cases in one process (`build/mrc-gtest
// --gtest_filter='MrcDistributed.*'`). ns-3 keeps state across simulations that a case
// does not own: the names of Names::Add (a topology names its hosts "host0", ... and a
// second topology's names would clash), attribute defaults and global values set with
// Config::SetDefault / SetGlobal, and the simulator itself. The listener below ends each
// case as its process's exit would, so that the next case starts as if alone.

#include "ns3/config.h"
#include "ns3/names.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

namespace
{

/// Ends each case's ns-3 state: the simulator, the names and the attribute defaults.
class MrcCaseIsolation : public testing::EmptyTestEventListener
{
    void OnTestEnd(const testing::TestInfo& /* info */) override
    {
        ns3::Simulator::Destroy();
        ns3::Names::Clear();
        ns3::Config::Reset();
    }
};

} // namespace

int
main(int argc, char** argv)
{
    testing::InitGoogleTest(&argc, argv);
    testing::UnitTest::GetInstance()->listeners().Append(new MrcCaseIsolation);
    return RUN_ALL_TESTS();
}
