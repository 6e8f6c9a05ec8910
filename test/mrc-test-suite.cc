/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The ns-3 face of the module's tests. Every test is a GoogleTest case; this
// file wraps them all in one ns-3 TestSuite named "mrc", so that an ns-3 source
// tree runs them with `./test.py -s mrc` (or `./ns3 run "test-runner --suite=mrc"`).
// GTEST_FILTER in the environment selects a subset, as with any GoogleTest binary.

#include "ns3/mrc-ns3-compat.h"
#include "ns3/test.h"

#include <gtest/gtest.h>
#include <sstream>

namespace
{

/// Runs every registered GoogleTest case and fails if any of them failed.
class MrcGoogleTestCase : public ns3::TestCase
{
  public:
    MrcGoogleTestCase()
        : ns3::TestCase("all GoogleTest cases of the mrc module")
    {
    }

  private:
    void DoRun() override
    {
        int argc = 1;
        char name[] = "mrc";
        char* argv[] = {name, nullptr};
        testing::InitGoogleTest(&argc, argv);
        int rc = RUN_ALL_TESTS();
        const testing::UnitTest& unit = *testing::UnitTest::GetInstance();
        std::ostringstream why;
        why << unit.failed_test_count() << " of " << unit.test_to_run_count()
            << " GoogleTest cases failed (their output is above)";
        NS_TEST_ASSERT_MSG_EQ(rc, 0, why.str());
        NS_TEST_ASSERT_MSG_GT(unit.test_to_run_count(), 0, "no GoogleTest case ran");
    }
};

/// The single ns-3 test suite of the module.
class MrcTestSuite : public ns3::TestSuite
{
  public:
    MrcTestSuite()
        : ns3::TestSuite("mrc", ns3::MrcTestSuiteUnit())
    {
        AddTestCase(new MrcGoogleTestCase, ns3::MrcTestQuick());
    }
};

MrcTestSuite g_mrcTestSuite; ///< registers the suite with ns-3's TestRunner

} // namespace
