/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_NS3_COMPAT_H
#define MRC_NS3_COMPAT_H

/**
 * @file
 * @ingroup mrc
 * The few places where ns-3's API differs between the releases the module
 * supports (3.37 and later), in one header.
 *
 * Keyed on MRC_NS3_VERSION_MINOR (37 for ns-3.37, 43 for ns-3.43, 99 for a
 * development tree), which cmake/mrc-common.cmake defines from the ns-3 that
 * the module is built against (installed package or source tree).
 */

#ifndef MRC_NS3_VERSION_MINOR
#error "MRC_NS3_VERSION_MINOR is not defined: build the mrc module through its CMakeLists.txt"
#endif

namespace ns3
{

class TestCase;
class TestSuite;

/**
 * @ingroup mrc
 * The TestSuite type "unit test". ns-3.42 turned TestSuite::Type into an enum
 * class (TestSuite::Type::UNIT) and deprecated TestSuite::UNIT.
 *
 * A template, so that this header needs no ns3/test.h: the body is compiled
 * where a test includes it.
 *
 * @tparam Suite ns3::TestSuite (the default; not meant to be given).
 * @return the value to pass as the TestSuite constructor's type.
 */
template <typename Suite = TestSuite>
constexpr auto
MrcTestSuiteUnit()
{
#if MRC_NS3_VERSION_MINOR >= 42
    return Suite::Type::UNIT;
#else
    return Suite::UNIT;
#endif
}

/**
 * @ingroup mrc
 * The TestCase duration "quick". ns-3.42 turned TestCase::TestDuration into
 * the enum class TestCase::Duration and deprecated TestCase::QUICK.
 *
 * @tparam Case ns3::TestCase (the default; not meant to be given).
 * @return the value to pass as AddTestCase's duration.
 */
template <typename Case = TestCase>
constexpr auto
MrcTestQuick()
{
#if MRC_NS3_VERSION_MINOR >= 42
    return Case::Duration::QUICK;
#else
    return Case::QUICK;
#endif
}

/**
 * @ingroup mrc
 * The TestCase duration "extensive" (see MrcTestQuick).
 *
 * @tparam Case ns3::TestCase (the default; not meant to be given).
 * @return the value to pass as AddTestCase's duration.
 */
template <typename Case = TestCase>
constexpr auto
MrcTestExtensive()
{
#if MRC_NS3_VERSION_MINOR >= 42
    return Case::Duration::EXTENSIVE;
#else
    return Case::EXTENSIVE;
#endif
}

} // namespace ns3

#endif // MRC_NS3_COMPAT_H
