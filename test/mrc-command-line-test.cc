/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MrcCommandLine: which arguments pass, the exact messages of those that do
// not, and the exit code of Parse() and RequireChoice().

#include "ns3/mrc-command-line.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// A command line with three options: --out (string), --n (int), --flag (bool).
struct Fixture
{
    std::string out = ".";
    int n = 1;
    bool flag = false;
    MrcCommandLine cmd;

    Fixture()
    {
        cmd.AddValue("out", "output folder", out);
        cmd.AddValue("n", "a count", n);
        cmd.AddValue("flag", "a switch", flag);
    }
};

/// The message for an unknown option of the fixture.
std::string
Unknown(const std::string& option)
{
    return "error: unknown option '" + option +
           "' (allowed: --out, --n, --flag, or --ns3::Class::Attribute=value; --PrintHelp "
           "lists them)";
}

} // namespace

TEST(MrcCommandLine, RemembersNamesInOrder)
{
    Fixture f;
    EXPECT_EQ(f.cmd.GetNames(), (std::vector<std::string>{"out", "n", "flag"}));
}

TEST(MrcCommandLine, AcceptsRegisteredOptions)
{
    Fixture f;
    EXPECT_EQ(f.cmd.Check({}), "");
    EXPECT_EQ(f.cmd.Check({"--out=/tmp/x", "--n=3", "--flag"}), "");
    EXPECT_EQ(f.cmd.Check({"--flag=false", "--flag=1", "--flag="}), "");
    EXPECT_EQ(f.cmd.Check({"-n=4"}), "");      // ns-3 takes a single dash too
    EXPECT_EQ(f.cmd.Check({"--out=a=b"}), ""); // the value is everything after the first '='
}

TEST(MrcCommandLine, AcceptsNs3BuiltinsGlobalsAndAttributes)
{
    Fixture f;
    for (const char* arg : {"--PrintHelp",
                            "--help",
                            "--PrintVersion",
                            "--version",
                            "--PrintGlobals",
                            "--PrintGroups",
                            "--PrintGroup=Core",
                            "--PrintTypeIds",
                            "--PrintAttributes=ns3::UniformRandomVariable",
                            "--RngRun=3",
                            "--RngSeed=7",
                            "--ns3::UniformRandomVariable::Max=2.5"})
    {
        EXPECT_EQ(f.cmd.Check({arg}), "") << arg;
    }
}

TEST(MrcCommandLine, RejectsUnknownOptionsNamingThemAndTheAllowedOnes)
{
    Fixture f;
    EXPECT_EQ(f.cmd.Check({"--foo=1"}), Unknown("--foo"));
    EXPECT_EQ(f.cmd.Check({"--foo"}), Unknown("--foo"));
    EXPECT_EQ(f.cmd.Check({"--n=2", "--Out=x"}), Unknown("--Out")); // names are case-sensitive
    EXPECT_EQ(f.cmd.Check({"--"}), Unknown("--"));
    EXPECT_EQ(f.cmd.Check({"---n=2"}), Unknown("---n=2"));

    MrcCommandLine empty;
    EXPECT_EQ(empty.Check({"--x=1"}),
              "error: unknown option '--x' (allowed: --ns3::Class::Attribute=value; --PrintHelp "
              "lists them)");
}

TEST(MrcCommandLine, RejectsStrayArgumentsSuchAsSpaceSeparatedValues)
{
    Fixture f;
    // "--flag 0" sets flag and leaves "0" behind, which ns-3 would ignore.
    EXPECT_EQ(f.cmd.Check({"--flag", "0"}),
              "error: unexpected argument '0' (options are written --name=value; allowed: --out, "
              "--n, --flag, or --ns3::Class::Attribute=value; --PrintHelp lists them)");
    // A non-bool option without '=' has no value.
    EXPECT_EQ(f.cmd.Check({"--n", "5"}), "error: option '--n' needs a value: --n=...");
    EXPECT_EQ(f.cmd.Check({"--out="}), "error: option '--out' needs a value: --out=...");
}

TEST(MrcCommandLine, RejectsValuesCommandLineCannotParse)
{
    Fixture f;
    EXPECT_EQ(f.cmd.Check({"--n=abc"}), "error: invalid value 'abc' for --n");
    EXPECT_EQ(f.cmd.Check({"--flag=maybe"}), "error: invalid value 'maybe' for --flag");
}

TEST(MrcCommandLine, ChecksAttributePathsAndGlobals)
{
    Fixture f;
    EXPECT_EQ(f.cmd.Check({"--ns3::NoSuchClass::X=1"}),
              "error: unknown option '--ns3::NoSuchClass::X': no class ns3::NoSuchClass; "
              "--PrintTypeIds lists the classes");
    EXPECT_EQ(f.cmd.Check({"--UniformRandomVariable::Max=2"}),
              "error: unknown option '--UniformRandomVariable::Max': no class "
              "UniformRandomVariable (class names start with ns3::); --PrintTypeIds lists the "
              "classes");
    EXPECT_EQ(f.cmd.Check({"--ns3::UniformRandomVariable::Nope=1"}),
              "error: unknown option '--ns3::UniformRandomVariable::Nope': "
              "ns3::UniformRandomVariable has no attribute Nope; "
              "--PrintAttributes=ns3::UniformRandomVariable lists them");
    EXPECT_EQ(f.cmd.Check({"--ns3::UniformRandomVariable::Max"}),
              "error: option '--ns3::UniformRandomVariable::Max' needs a value: "
              "--ns3::UniformRandomVariable::Max=...");
    EXPECT_EQ(f.cmd.Check({"--RngRun"}), "error: option '--RngRun' needs a value: --RngRun=...");
}

TEST(MrcCommandLine, ReportsTheFirstProblemOnly)
{
    Fixture f;
    EXPECT_EQ(f.cmd.Check({"--n=2", "--a=1", "--b=2"}), Unknown("--a"));
}

TEST(MrcCommandLine, ParseSetsTheValues)
{
    Fixture f;
    char prog[] = "prog";
    char a1[] = "--out=dir";
    char a2[] = "--n=42";
    char a3[] = "--flag";
    char* argv[] = {prog, a1, a2, a3, nullptr};
    f.cmd.Parse(4, argv);
    EXPECT_EQ(f.out, "dir");
    EXPECT_EQ(f.n, 42);
    EXPECT_TRUE(f.flag);
}

TEST(MrcCommandLine, CheckChoice)
{
    EXPECT_EQ(MrcCommandLine::CheckChoice("mode", "srv6", {"ecmp", "srv6"}), "");
    EXPECT_EQ(MrcCommandLine::CheckChoice("mode", "SRv6", {"ecmp", "srv6"}),
              "error: invalid value 'SRv6' for --mode (allowed: ecmp, srv6)");
}

/// Parse "--n=2 --bogus=1" with the fixture's command line (exits).
void
ParseBogus()
{
    Fixture f;
    char prog[] = "prog";
    char a1[] = "--n=2";
    char a2[] = "--bogus=1";
    char* argv[] = {prog, a1, a2, nullptr};
    f.cmd.Parse(3, argv);
}

TEST(MrcCommandLineDeathTest, ParseExitsWithCode2OnAnUnknownOption)
{
    EXPECT_EXIT(ParseBogus(),
                ::testing::ExitedWithCode(2),
                "unknown option '--bogus' \\(allowed: --out, --n, --flag, or");
}

TEST(MrcCommandLineDeathTest, RequireChoiceExitsWithCode2)
{
    EXPECT_EXIT(MrcCommandLine::RequireChoice("mode", "x", {"ecmp", "srv6"}),
                ::testing::ExitedWithCode(2),
                "invalid value 'x' for --mode \\(allowed: ecmp, srv6\\)");
    EXPECT_EXIT(MrcCommandLine::Fail("no good"), ::testing::ExitedWithCode(2), "error: no good");
}
