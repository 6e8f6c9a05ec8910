/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MrcAttributeCheck: attribute values given as strings are checked by the module, so a
// bad one gives the module's message (and mrc-sim's exit code 2) instead of ns-3's enum
// assert or a parse abort, in every ns-3 build (asserts on or off, 3.37 or later).

#include "mrc-test-support.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/integer.h"
#include "ns3/mrc-attribute-check.h"
#include "ns3/mrc-ns3-compat.h"
#include "ns3/mrc-profiles.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/string.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// An object with one attribute of each value type MrcAttributeCheck parses itself.
class MrcAttributeCheckProbe : public Object
{
  public:
    /// The enum attribute's values.
    enum Mode
    {
        FIRST,  //!< "First"
        SECOND, //!< "Second"
    };

    /// \return the TypeId
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::MrcAttributeCheckProbe")
                .SetParent<Object>()
                .SetGroupName("Mrc")
                .AddConstructor<MrcAttributeCheckProbe>()
                .AddAttribute("Mode",
                              "an enum",
#if MRC_NS3_VERSION_MINOR >= 41
                              EnumValue<Mode>(FIRST),
                              MakeEnumAccessor<Mode>(&MrcAttributeCheckProbe::m_mode),
#else
                              EnumValue(FIRST),
                              MakeEnumAccessor(&MrcAttributeCheckProbe::m_mode),
#endif
                              MakeEnumChecker(FIRST, "First", SECOND, "Second"))
                .AddAttribute("Fraction",
                              "a double in [0, 1]",
                              DoubleValue(0.5),
                              MakeDoubleAccessor(&MrcAttributeCheckProbe::m_fraction),
                              MakeDoubleChecker<double>(0.0, 1.0))
                .AddAttribute("Count",
                              "an unsigned integer up to 1000",
                              UintegerValue(1),
                              MakeUintegerAccessor(&MrcAttributeCheckProbe::m_count),
                              MakeUintegerChecker<uint32_t>(0, 1000))
                .AddAttribute("Offset",
                              "a signed integer",
                              IntegerValue(0),
                              MakeIntegerAccessor(&MrcAttributeCheckProbe::m_offset),
                              MakeIntegerChecker<int32_t>())
                .AddAttribute("Delay",
                              "a time",
                              TimeValue(MicroSeconds(1)),
                              MakeTimeAccessor(&MrcAttributeCheckProbe::m_delay),
                              MakeTimeChecker())
                .AddAttribute("Rate",
                              "a data rate",
                              DataRateValue(DataRate("1Gbps")),
                              MakeDataRateAccessor(&MrcAttributeCheckProbe::m_rate),
                              MakeDataRateChecker())
                .AddAttribute("Type",
                              "a class",
                              TypeIdValue(Object::GetTypeId()),
                              MakeTypeIdAccessor(&MrcAttributeCheckProbe::m_type),
                              MakeTypeIdChecker())
                .AddAttribute("On",
                              "a boolean",
                              BooleanValue(false),
                              MakeBooleanAccessor(&MrcAttributeCheckProbe::m_on),
                              MakeBooleanChecker())
                .AddAttribute("Name",
                              "a string",
                              StringValue("x"),
                              MakeStringAccessor(&MrcAttributeCheckProbe::m_name),
                              MakeStringChecker());
        return tid;
    }

  private:
    Mode m_mode{FIRST};   //!< Mode
    double m_fraction{0}; //!< Fraction
    uint32_t m_count{0};  //!< Count
    int32_t m_offset{0};  //!< Offset
    Time m_delay;         //!< Delay
    DataRate m_rate;      //!< Rate
    TypeId m_type;        //!< Type
    bool m_on{false};     //!< On
    std::string m_name;   //!< Name
};

NS_OBJECT_ENSURE_REGISTERED(MrcAttributeCheckProbe);

/// \return MrcAttributeCheck::CheckDefault on attribute `attr` of the probe
std::string
Probe(const std::string& attr, const std::string& value)
{
    return MrcAttributeCheck::CheckDefault("ns3::MrcAttributeCheckProbe::" + attr, value);
}

/// \return the probe's attribute `attr`
TypeId::AttributeInformation
ProbeInfo(const std::string& attr)
{
    TypeId::AttributeInformation info;
    EXPECT_TRUE(MrcAttributeCheckProbe::GetTypeId().LookupAttributeByName(attr, &info)) << attr;
    return info;
}

} // namespace

TEST(MrcAttributeCheck, EnumNamesComeFromTheChecker)
{
    EXPECT_TRUE(MrcAttributeCheck::IsEnum(ProbeInfo("Mode")));
    EXPECT_FALSE(MrcAttributeCheck::IsEnum(ProbeInfo("Count")));
    EXPECT_EQ(MrcAttributeCheck::GetEnumNames(ProbeInfo("Mode")),
              (std::vector<std::string>{"First", "Second"}));
    EXPECT_TRUE(MrcAttributeCheck::GetEnumNames(ProbeInfo("Name")).empty());
    EXPECT_EQ(Probe("Mode", "Second"), "");
    EXPECT_EQ(Probe("Mode", "Third"), "value 'Third' is not valid (allowed: First, Second)");
    EXPECT_EQ(Probe("Mode", "second"), "value 'second' is not valid (allowed: First, Second)");
    EXPECT_EQ(Probe("Mode", ""), "value '' is not valid (allowed: First, Second)");
    // A module enum: the typo of issue 16 (ns-3's enum assert fired on it in-tree).
    EXPECT_EQ(
        MrcAttributeCheck::CheckDefault("ns3::MrcDcqcnNotificationPoint::CnpStyle", "Sometimes"),
        "value 'Sometimes' is not valid (allowed: Interval, AckFlag, PortInterval)");
    EXPECT_EQ(
        MrcAttributeCheck::CheckDefault("ns3::MrcDcqcnNotificationPoint::CnpStyle", "AckFlag"),
        "");
}

TEST(MrcAttributeCheck, NumbersMustParseWholeAndFitTheRange)
{
    EXPECT_EQ(Probe("Fraction", "0.25"), "");
    EXPECT_EQ(Probe("Fraction", "1e-3"), "");
    EXPECT_EQ(Probe("Fraction", "abc"), "value 'abc' is not valid (not a number)");
    EXPECT_EQ(Probe("Fraction", "0.5x"), "value '0.5x' is not valid (not a number)");
    EXPECT_EQ(Probe("Fraction", "").rfind("value '' is not valid", 0), 0u);
    EXPECT_EQ(Probe("Fraction", "2").rfind("value '2' is not valid (", 0), 0u); // range
    EXPECT_EQ(Probe("Count", "1000"), "");
    EXPECT_EQ(Probe("Count", "1001").rfind("value '1001' is not valid (", 0), 0u);
    EXPECT_EQ(Probe("Count", "-1"), "value '-1' is not valid (not a whole number >= 0)");
    EXPECT_EQ(Probe("Count", "3.5"), "value '3.5' is not valid (not a whole number >= 0)");
    EXPECT_EQ(Probe("Count", "many"), "value 'many' is not valid (not a whole number >= 0)");
    EXPECT_EQ(Probe("Offset", "-7"), "");
    EXPECT_EQ(Probe("Offset", "x7"), "value 'x7' is not valid (not a whole number)");
}

TEST(MrcAttributeCheck, TimesNeedAKnownUnit)
{
    for (const char* ok : {"10us", "1.5ms", "2", "3e-6s", "-1ns", "2min", "1h", "4fs"})
    {
        EXPECT_TRUE(MrcAttributeCheck::IsTime(ok)) << ok;
        EXPECT_EQ(Probe("Delay", ok), "") << ok;
    }
    for (const char* bad : {"10 us", "10usec", "us", "", "1.2.3s", "fast"})
    {
        EXPECT_FALSE(MrcAttributeCheck::IsTime(bad)) << bad;
        EXPECT_EQ(Probe("Delay", bad)
                      .rfind(std::string("value '") + bad +
                                 "' is not valid (not a "
                                 "time",
                             0),
                  0u)
            << bad;
    }
}

TEST(MrcAttributeCheck, RatesClassesBooleansAndStrings)
{
    EXPECT_EQ(Probe("Rate", "100Gbps"), "");
    EXPECT_EQ(Probe("Rate", "25Gb/s"), "");
    EXPECT_EQ(Probe("Rate", "fast"), "value 'fast' is not valid (not a data rate, e.g. 100Gbps)");
    EXPECT_EQ(Probe("Rate", ""), "value '' is not valid (not a data rate, e.g. 100Gbps)");
    EXPECT_EQ(Probe("Type", "ns3::MrcAttributeCheckProbe"), "");
    EXPECT_EQ(Probe("Type", "ns3::NoSuchThing"),
              "value 'ns3::NoSuchThing': class ns3::NoSuchThing is not registered");
    EXPECT_EQ(Probe("On", "true"), "");
    EXPECT_EQ(Probe("On", "0"), "");
    EXPECT_EQ(Probe("On", "perhaps").rfind("value 'perhaps' is not valid (", 0), 0u);
    EXPECT_EQ(Probe("Name", "anything at all"), "");
}

TEST(MrcAttributeCheck, PathsNameTheClassAndAttribute)
{
    EXPECT_EQ(MrcAttributeCheck::CheckDefault("Mode", "First"),
              "'Mode' is not of the form ns3::Class::Attribute");
    EXPECT_EQ(MrcAttributeCheck::CheckDefault("ns3::MrcNoSuchClass::Mode", "First"),
              "class ns3::MrcNoSuchClass is not registered");
    EXPECT_EQ(Probe("NoSuch", "1"), "class ns3::MrcAttributeCheckProbe has no attribute NoSuch");
}

TEST(MrcAttributeCheck, EveryProfileSettingPasses)
{
    for (const auto& name : MrcProfiles::GetNames())
    {
        for (const auto& s : MrcProfiles::GetSettings(name))
        {
            EXPECT_EQ(MrcAttributeCheck::CheckDefault(s.path, s.value), "")
                << name << " " << s.path;
        }
    }
}

// A TypeId attribute's default must name a registered class. A default looked up by name
// while the library's static initialisers run gets uid 0 when the named class's file happens
// to be initialised later (the order across files is unspecified: link-time optimisation
// changed it and the UEC queue pair crashed); GetTypeId() registers the class first.
TEST(MrcAttributeCheck, EveryTypeIdDefaultNamesARegisteredClass)
{
    uint32_t checked = 0;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const TypeId tid = TypeId::GetRegistered(i);
        if (tid.GetName().rfind("ns3::Mrc", 0) != 0)
        {
            continue;
        }
        for (std::size_t a = 0; a < tid.GetAttributeN(); ++a)
        {
            const TypeId::AttributeInformation info = tid.GetAttribute(a);
            const auto* value = dynamic_cast<const TypeIdValue*>(PeekPointer(info.initialValue));
            if (!value)
            {
                continue;
            }
            ++checked;
            const TypeId named = value->Get();
            EXPECT_NE(named.GetUid(), 0) << tid.GetName() << "::" << info.name;
            TypeId found;
            EXPECT_TRUE(named.GetUid() != 0 &&
                        TypeId::LookupByNameFailSafe(named.GetName(), &found) && found == named)
                << tid.GetName() << "::" << info.name;
        }
    }
    // the queue pairs' CongestionControl and PathSelector, the switch's and the EV table's
    EXPECT_GE(checked, 8u);
}

TEST(MrcAttributeCheckDeathTest, SimRejectsABadEnumNameWithExitCode2)
{
    // The module's message and exit code 2, before ns-3 sees the value.
    EXPECT_EXIT(
        MrcTest::RunSimMain({"mrc-sim", "--ns3::MrcDcqcnNotificationPoint::CnpStyle=Sometimes"}),
        ::testing::ExitedWithCode(2),
        "error: invalid value for --ns3::MrcDcqcnNotificationPoint::CnpStyle: value "
        "'Sometimes' is not valid \\(allowed: Interval, AckFlag, PortInterval\\)");
    EXPECT_EXIT(MrcTest::RunSimMain({"mrc-sim", "--ns3::MrcDcqcn::G=abc"}),
                ::testing::ExitedWithCode(2),
                "error: invalid value for --ns3::MrcDcqcn::G: value 'abc' is not valid "
                "\\(not a number\\)");
    EXPECT_EXIT(MrcTest::RunSimMain({"mrc-sim", "--ns3::MrcDcqcn::RateIncreaseInterval=5 us"}),
                ::testing::ExitedWithCode(2),
                "RateIncreaseInterval: value '5 us' is not valid \\(not a time");
}
