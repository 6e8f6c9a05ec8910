/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The failure options of mrc-sim (MrcFailureOptions, issue 21): every failure kind of
// MrcFailureInjector from the command line, the checks made before the run, the
// events.csv rows each failure writes, and each failure's effect on a small fabric.

#include "mrc-test-support.h"

#include "ns3/config.h"
#include "ns3/mrc-failure-options.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-scenario-options.h"
#include "ns3/mrc-scenario-presets.h"
#include "ns3/mrc-scenario-runner.h"
#include "ns3/mrc-sim-main.h"
#include "ns3/names.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <gtest/gtest.h>
#include <memory>

using namespace ns3;
using namespace ns3::MrcTest;

namespace
{

/// Options of a small 2-plane MRC run (8 hosts, 100 kB each) without sampling.
MrcScenarioOptions
SmallOptions()
{
    MrcScenarioOptions o;
    o.transport = "mrc";
    o.topo.planes = "2";
    o.topo.hosts = "8";
    o.bytes = "100000";
    o.sampleInterval = "0s";
    o.simTime = "10ms";
    return o;
}

/// \return TryToConfig's message for the options (expected to be an error)
std::string
Error(const MrcScenarioOptions& o)
{
    MrcScenarioConfig c;
    return o.TryToConfig(c);
}

/// \return the specs of the options (expected to be accepted)
std::vector<MrcFailureSpec>
Specs(const MrcScenarioOptions& o)
{
    MrcScenarioConfig c;
    const std::string e = o.TryToConfig(c);
    EXPECT_EQ(e, "");
    return c.failures;
}

/// Run mrc-sim in this process with args (an --out folder is added); \return exit code
int
RunSim(std::vector<std::string> args, const std::string& dir)
{
    args.insert(args.begin(), "mrc-sim");
    args.push_back("--ns3::MrcProgressReporter::Enabled=false");
    args.push_back("--out=" + dir);
    std::vector<char*> argv;
    for (auto& a : args)
    {
        argv.push_back(a.data());
    }
    testing::internal::CaptureStdout();
    const int rc = MrcSimMain(static_cast<int>(argv.size()), argv.data());
    testing::internal::GetCapturedStdout();
    return rc;
}

/// \return an events.csv row without its first column, the transport, which must be mrc (the
/// transport of these runs)
std::string
WithoutTransport(const std::string& row)
{
    EXPECT_EQ(row.substr(0, 4), "mrc,") << row;
    return row.substr(row.find(',') + 1);
}

/// \return the rows of events.csv of a kind, header excluded, without the transport column
std::vector<std::string>
Rows(const std::string& dir, const std::string& kind)
{
    std::vector<std::string> rows;
    for (const auto& l : Lines(ReadFile(dir + "/events.csv")))
    {
        if (l.find("," + kind + ",") != std::string::npos)
        {
            rows.push_back(WithoutTransport(l));
        }
    }
    return rows;
}

/// \return the number of completed flows of flows.csv
std::size_t
CompletedFlows(const std::string& dir)
{
    const auto lines = Lines(ReadFile(dir + "/flows.csv"));
    std::size_t n = 0;
    for (std::size_t i = 1; i < lines.size(); ++i)
    {
        n += lines[i].find(",,") == std::string::npos ? 1 : 0; // no empty end / FCT
    }
    return n;
}

void
Done(const std::string& dir)
{
    std::filesystem::remove_all(dir);
    Simulator::Destroy();
    Names::Clear();
    Config::Reset();
}

/// Every message completed and every byte arrived exactly once.
void
ExpectAllExactlyOnce(const MrcScenarioRunner& r)
{
    uint64_t total = 0;
    for (const auto& m : r.GetMessages())
    {
        total += m.bytes;
    }
    const std::vector<MrcTransportSummary> s = r.GetResults().Summarize();
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s[0].completed, s[0].messages);
    EXPECT_EQ(s[0].messages, r.GetMessages().size());
    EXPECT_EQ(s[0].completedBytes, total);
    EXPECT_EQ(s[0].counters.bytesExactlyOnce, total);
}

} // namespace

// ---------------------------------------------------------------------------------------
// The options and their checks (no run)

TEST(MrcFailureOptions, NodeNamesOfClosAndFatTree)
{
    MrcTopologyConfig clos;
    clos.planes = 2;
    clos.hosts = 8;
    ASSERT_EQ(clos.Validate(), "");
    bool sw = false;
    uint32_t p = 9;
    uint32_t tier = 9;
    uint32_t i = 9;
    EXPECT_TRUE(MrcFailureOptions::ParseNodeName(clos, "host7", sw, p, tier, i));
    EXPECT_FALSE(sw);
    EXPECT_EQ(i, 7u);
    EXPECT_FALSE(MrcFailureOptions::ParseNodeName(clos, "host8", sw, p, tier, i));
    EXPECT_TRUE(MrcFailureOptions::ParseNodeName(clos, "p1-t1-3", sw, p, tier, i));
    EXPECT_TRUE(sw);
    EXPECT_EQ(p, 1u);
    EXPECT_EQ(tier, 1u);
    EXPECT_EQ(i, 3u);
    EXPECT_FALSE(MrcFailureOptions::ParseNodeName(clos, "p2-t1-0", sw, p, tier, i)); // plane
    EXPECT_FALSE(MrcFailureOptions::ParseNodeName(clos, "p0-t0-2", sw, p, tier, i)); // 2 T0s
    EXPECT_FALSE(MrcFailureOptions::ParseNodeName(clos, "p0-t2-0", sw, p, tier, i)); // no T2
    EXPECT_FALSE(MrcFailureOptions::ParseNodeName(clos, "switch1", sw, p, tier, i));
    MrcTopologyConfig fat;
    fat.kind = MrcTopologyKind::FAT_TREE;
    fat.hosts = 0;
    fat.hostsPerT0 = 0;
    ASSERT_EQ(fat.Validate(), "");
    EXPECT_TRUE(MrcFailureOptions::ParseNodeName(fat, "p0-t2-3", sw, p, tier, i));
    EXPECT_FALSE(MrcFailureOptions::ParseNodeName(fat, "p0-t2-4", sw, p, tier, i));
    EXPECT_TRUE(MrcFailureOptions::ParseNodeName(fat, "host15", sw, p, tier, i));
}

TEST(MrcFailureOptions, EachKindGivesItsSpecsWithSharedOrOwnTimes)
{
    MrcScenarioOptions o = SmallOptions();
    o.failAt = "50us";
    o.repairAt = "80us";
    o.fail.failSwitch = "p0-t1-0,p1-t0-1";
    o.fail.flapLink = "p0-t0-0:p0-t1-1";
    o.fail.flapAt = "10us";
    o.fail.flapPeriod = "4us";
    o.fail.flapCount = "5";
    o.fail.grayLink = "p0-t1-0:p0-t0-1";
    o.fail.grayLoss = "0.25";
    o.fail.grayUntil = "none";
    o.fail.failPlane = "1";
    o.fail.failPlaneAt = "60us";
    o.fail.repairPlaneAt = "90us";
    o.fail.failPort = "host3:0";
    o.fail.repairPortAt = "none";
    const std::vector<MrcFailureSpec> s = Specs(o);
    ASSERT_EQ(s.size(), 6u);
    using Kind = MrcFailureSpec::Kind;
    EXPECT_EQ(s[0].kind, Kind::SWITCH);
    EXPECT_EQ(s[0].nodeA, "p0-t1-0");
    EXPECT_EQ(s[0].at, MicroSeconds(50));     // --failAt
    EXPECT_EQ(s[0].repair, MicroSeconds(80)); // --repairAt
    EXPECT_EQ(s[1].nodeA, "p1-t0-1");
    EXPECT_EQ(s[2].kind, Kind::FLAP);
    EXPECT_EQ(s[2].nodeA, "p0-t0-0");
    EXPECT_EQ(s[2].nodeB, "p0-t1-1");
    EXPECT_EQ(s[2].at, MicroSeconds(10));
    EXPECT_EQ(s[2].period, MicroSeconds(4));
    EXPECT_EQ(s[2].count, 5u);
    EXPECT_EQ(s[2].downTime, MicroSeconds(2)); // half the period
    EXPECT_EQ(s[2].repair, Time(0));
    EXPECT_EQ(s[3].kind, Kind::GRAY);
    EXPECT_EQ(s[3].nodeA, "p0-t1-0"); // the sender
    EXPECT_DOUBLE_EQ(s[3].loss, 0.25);
    EXPECT_EQ(s[3].at, MicroSeconds(50));
    EXPECT_EQ(s[3].repair, Time(0)); // none
    EXPECT_EQ(s[4].kind, Kind::PLANE);
    EXPECT_EQ(s[4].plane, 1u);
    EXPECT_EQ(s[4].at, MicroSeconds(60));
    EXPECT_EQ(s[4].repair, MicroSeconds(90));
    EXPECT_EQ(s[5].kind, Kind::PORT);
    EXPECT_EQ(s[5].nodeA, "host3");
    EXPECT_EQ(s[5].plane, 0u);
    EXPECT_EQ(s[5].repair, Time(0));
    EXPECT_EQ(s[5].option, "failPort");
    EXPECT_EQ(s[5].item, "host3:0");
    EXPECT_EQ(MrcFailureSpec::PlaneLabel(1), "p1");
    EXPECT_STREQ(MrcFailureSpec::KindName(Kind::GRAY), "gray");
}

TEST(MrcFailureOptions, NewOptionsAreRecordedOnlyWhenGiven)
{
    MrcScenarioOptions o = SmallOptions();
    MrcScenarioConfig c;
    ASSERT_EQ(o.TryToConfig(c), "");
    EXPECT_TRUE(c.failures.empty());
    EXPECT_EQ(c.options.count("failSwitch"), 0u);
    EXPECT_EQ(c.options.count("flapPeriod"), 0u);
    EXPECT_EQ(c.options.count("grayLoss"), 0u);
    o.fail.failSwitch = "p0-t1-0";
    o.fail.flapPeriod = "8us";
    ASSERT_EQ(o.TryToConfig(c), "");
    EXPECT_EQ(c.options.at("failSwitch"), "p0-t1-0");
    EXPECT_EQ(c.options.at("flapPeriod"), "8us");
    EXPECT_EQ(c.options.count("grayLoss"), 0u);
    EXPECT_EQ(o.fail.ToMap().size(), 2u);
}

TEST(MrcFailureOptions, EveryOptionIsRegisteredWithHelp)
{
    MrcCommandLine cmd;
    MrcScenarioOptions o;
    o.Register(cmd);
    const std::vector<std::string>& names = cmd.GetNames();
    for (const char* n : {"failSwitch",
                          "failSwitchAt",
                          "repairSwitchAt",
                          "flapLink",
                          "flapAt",
                          "flapPeriod",
                          "flapCount",
                          "flapDown",
                          "grayLink",
                          "grayLoss",
                          "grayAt",
                          "grayUntil",
                          "failPlane",
                          "failPlaneAt",
                          "repairPlaneAt",
                          "failPort",
                          "failPortAt",
                          "repairPortAt"})
    {
        EXPECT_EQ(std::count(names.begin(), names.end(), n), 1) << n;
    }
}

/// One bad value: which option to set, and the text the message must hold.
struct BadCase
{
    const char* name;                             //!< case name
    std::function<void(MrcScenarioOptions&)> set; //!< sets the bad values
    const char* expected;                         //!< text of the message
};

TEST(MrcFailureOptions, BadValuesAreNamedWithWhatIsAllowed)
{
    using O = MrcScenarioOptions;
    const std::vector<BadCase> cases = {
        {"unknown switch",
         [](O& o) { o.fail.failSwitch = "p0-t1-9"; },
         "--failSwitch='p0-t1-9' names 'p0-t1-9', which is not a node of this fabric (allowed: "
         "hosts host0..host7"},
        {"switch is a host", [](O& o) { o.fail.failSwitch = "host1"; }, "names 'host1', a host"},
        {"switch twice",
         [](O& o) { o.fail.failSwitch = "p0-t1-0,p0-t1-0"; },
         "names 'p0-t1-0' twice"},
        {"switch empty item",
         [](O& o) { o.fail.failSwitch = "p0-t1-0,"; },
         "--failSwitch='p0-t1-0,'"},
        {"own time past end",
         [](O& o) {
             o.fail.failSwitch = "p0-t1-0";
             o.fail.failSwitchAt = "20ms";
         },
         "--failSwitchAt='20ms' is not before --simTime (0.01 s)"},
        {"shared time past end",
         [](O& o) {
             o.fail.failPlane = "0";
             o.failAt = "20ms";
         },
         "--failAt='20ms' is not before --simTime (0.01 s): the --failPlane failures would never "
         "happen (the time of --failPlane: --failPlaneAt is not given)"},
        {"bad time",
         [](O& o) {
             o.fail.failPort = "host0:0";
             o.fail.failPortAt = "5";
         },
         "--failPortAt='5' must be a time with a unit"},
        {"repair before failure",
         [](O& o) {
             o.fail.failSwitch = "p0-t1-0";
             o.fail.failSwitchAt = "200us";
             o.fail.repairSwitchAt = "150us";
         },
         "--repairSwitchAt='150us' is not after the failure time --failSwitchAt='200us'"},
        {"shared repair before own failure",
         [](O& o) {
             o.fail.failSwitch = "p0-t1-0";
             o.fail.failSwitchAt = "200us";
             o.repairAt = "150us";
         },
         "--repairAt='150us' is not after the failure time --failSwitchAt='200us'; allowed: a "
         "later time, or --repairSwitchAt=none"},
        {"repair past end",
         [](O& o) {
             o.fail.failPlane = "1";
             o.fail.repairPlaneAt = "1s";
         },
         "--repairPlaneAt='1s' is not before --simTime (0.01 s): the repair would never happen"},
        {"failLink repair past end",
         [](O& o) {
             o.failLink = "p0-t0-0:p0-t1-0";
             o.repairAt = "1s";
         },
         "--repairAt='1s' is not before --simTime"},
        {"failLink time without a unit",
         [](O& o) { o.failLink = "p0-t0-0:p0-t1-0@5"; },
         "--failLink='p0-t0-0:p0-t1-0@5' gives 'p0-t0-0:p0-t1-0' the time '5'; allowed: a time "
         "with a unit after @, e.g. p0-t0-0:p0-t1-0@300us"},
        {"failLink own time past end",
         [](O& o) { o.failLink = "p0-t0-0:p0-t1-1,p0-t0-0:p0-t1-0@20ms"; },
         "cuts 'p0-t0-0:p0-t1-0' at 20ms, not before --simTime='10ms': the link would never fail"},
        {"failLink item without a link",
         [](O& o) { o.failLink = "p0-t0-0:p0-t1-0@100us,p0-t0-0@200us"; },
         "has the item 'p0-t0-0@200us'; allowed: nodeA:nodeB[@TIME][,nodeC:nodeD[@TIME]...]"},
        {"failLink empty item",
         [](O& o) { o.failLink = "p0-t0-0:p0-t1-0,,p0-t0-0:p0-t1-1"; },
         "has the item ''"},
        {"failLink trailing comma",
         [](O& o) { o.failLink = "p0-t0-0:p0-t1-0@100us,"; },
         "--failLink='p0-t0-0:p0-t1-0@100us,' must be nodeA:nodeB[@TIME]"},
        {"failLink repair before a later own cut",
         [](O& o) {
             o.failLink = "p0-t0-0:p0-t1-1,p0-t0-0:p0-t1-0@300us";
             o.repairAt = "200us";
         },
         "--repairAt='200us' is not after the last --failLink cut ('p0-t0-0:p0-t1-0@300us')"},
        {"flap while a link's own cut holds it",
         [](O& o) {
             o.failLink = "p0-t0-0:p0-t1-0@50us"; // --failAt (100us) would be after the flap
             o.fail.flapLink = "p0-t1-0:p0-t0-0";
             o.fail.flapAt = "10us"; // last repair at 60us
         },
         "while --failLink holds it down (from '50us')"},
        {"flap of no link",
         [](O& o) { o.fail.flapLink = "host0:p0-t0-1"; },
         "'host0' and 'p0-t0-1' are joined by 0 links"},
        {"flap of a malformed item",
         [](O& o) { o.fail.flapLink = "host0"; },
         "--flapLink='host0' has the item 'host0'; allowed: nodeA:nodeB"},
        {"flap count 0",
         [](O& o) {
             o.fail.flapLink = "host0:p0-t0-0";
             o.fail.flapCount = "0";
         },
         "--flapCount='0' must be an integer 1..10000"},
        {"flap down too long",
         [](O& o) {
             o.fail.flapLink = "host0:p0-t0-0";
             o.fail.flapDown = "30us";
         },
         "--flapDown='30us' must be a positive time with a unit below --flapPeriod='20us'"},
        {"flap period 0",
         [](O& o) {
             o.fail.flapLink = "host0:p0-t0-0";
             o.fail.flapPeriod = "0us";
         },
         "--flapPeriod='0us'"},
        {"flap past end",
         [](O& o) {
             o.fail.flapLink = "host0:p0-t0-0";
             o.fail.flapCount = "1000";
         },
         "--flapCount='1000' makes the last cut"},
        {"flap twice",
         [](O& o) { o.fail.flapLink = "host0:p0-t0-0,p0-t0-0:host0"; },
         "names 'p0-t0-0:host0' twice"},
        {"flap of a cut link",
         [](O& o) {
             o.failLink = "p0-t0-0:p0-t1-0";
             o.fail.flapLink = "p0-t1-0:p0-t0-0";
             o.fail.flapAt = "150us";
         },
         "--flapLink='p0-t1-0:p0-t0-0' flaps 'p0-t1-0:p0-t0-0' while --failLink holds it down"},
        {"flap own period without a unit",
         [](O& o) { o.fail.flapLink = "host0:p0-t0-0@10us/5"; },
         "--flapLink='host0:p0-t0-0@10us/5' gives 'host0:p0-t0-0' the period '5'; allowed: "
         "host0:p0-t0-0@FIRST[/PERIOD[/DOWN[/COUNT]]], times with a unit"},
        {"flap own first cut without a unit",
         [](O& o) { o.fail.flapLink = "host0:p0-t0-0@,p0-t0-0:p0-t1-0"; },
         "gives 'host0:p0-t0-0' the first cut ''"},
        {"flap own down not below its period",
         [](O& o) { o.fail.flapLink = "p0-t0-0:p0-t1-0,host0:p0-t0-0@10us/8us/8us"; },
         "keeps 'host0:p0-t0-0' down 8e-06 s in each period of 8e-06 s"},
        {"flap shared down not below an own period",
         [](O& o) {
             o.fail.flapLink = "host0:p0-t0-0@10us/8us";
             o.fail.flapDown = "9us";
             o.fail.flapPeriod = "20us";
         },
         "keeps 'host0:p0-t0-0' down 9e-06 s in each period of 8e-06 s"},
        {"flap own count 0",
         [](O& o) { o.fail.flapLink = "host0:p0-t0-0@10us/8us/2us/0"; },
         "gives 'host0:p0-t0-0' the count '0'"},
        {"flap own schedule with five fields",
         [](O& o) { o.fail.flapLink = "host0:p0-t0-0@10us/8us/2us/3/1"; },
         "gives 'host0:p0-t0-0' the schedule '10us/8us/2us/3/1'"},
        {"flap own first cut past the end",
         [](O& o) { o.fail.flapLink = "host0:p0-t0-0@20ms"; },
         "--flapLink='host0:p0-t0-0@20ms' cuts 'host0:p0-t0-0' first at 0.02 s, not before "
         "--simTime (0.01 s)"},
        {"flap own last cut past the end",
         [](O& o) { o.fail.flapLink = "host0:p0-t0-0@9ms/1ms/1us/3"; },
         "--flapLink='host0:p0-t0-0@9ms/1ms/1us/3' makes the last cut of 'host0:p0-t0-0' (3 of "
         "them"},
        {"flap own schedule of a link named twice",
         [](O& o) { o.fail.flapLink = "host0:p0-t0-0@10us,p0-t0-0:host0@50us"; },
         "names 'p0-t0-0:host0@50us' twice"},
        {"gray loss 0",
         [](O& o) {
             o.fail.grayLink = "host0:p0-t0-0";
             o.fail.grayLoss = "0";
         },
         "--grayLoss='0' must be a probability in (0, 1]"},
        {"gray loss above 1",
         [](O& o) {
             o.fail.grayLink = "host0:p0-t0-0";
             o.fail.grayLoss = "1.5";
         },
         "--grayLoss='1.5'"},
        {"gray twice",
         [](O& o) { o.fail.grayLink = "host0:p0-t0-0,host0:p0-t0-0"; },
         "names 'host0:p0-t0-0' twice"},
        {"gray until before",
         [](O& o) {
             o.fail.grayLink = "host0:p0-t0-0";
             o.fail.grayAt = "50us";
             o.fail.grayUntil = "40us";
         },
         "--grayUntil='40us' is not after the failure time --grayAt='50us'"},
        {"plane out of range",
         [](O& o) { o.fail.failPlane = "2"; },
         "--failPlane='2' has the item '2'; allowed: plane numbers 0..1"},
        {"plane twice", [](O& o) { o.fail.failPlane = "1,1"; }, "names '1' twice"},
        {"port of a switch",
         [](O& o) { o.fail.failPort = "p0-t0-0:0"; },
         "names 'p0-t0-0', a switch"},
        {"port of an unknown host",
         [](O& o) { o.fail.failPort = "host99:0"; },
         "names 'host99', which is not a node"},
        {"port plane out of range",
         [](O& o) { o.fail.failPort = "host1:2"; },
         "allowed: host:plane with plane 0..1"},
        {"plane 1 in a one-plane run",
         [](O& o) {
             o.transports = "roce,mrc";
             o.sameFabric = "0";
             o.fail.failPlane = "1";
         },
         "--failPlane='1' names plane 1 (the plane on it), but with --sameFabric=0 the roce run "
         "has one plane"},
        {"switch of plane 1 in a one-plane run",
         [](O& o) {
             o.transports = "mrc,uec";
             o.sameFabric = "0";
             o.fail.failSwitch = "p1-t1-0";
         },
         "the uec run has one plane"},
        {"port of plane 1 in a one-plane run",
         [](O& o) {
             o.transports = "roce,mrc";
             o.sameFabric = "0";
             o.fail.failPort = "host0:1";
         },
         "--failPort='host0:1' names plane 1"},
        {"parallel links",
         [](O& o) {
             o.topo.uplinksPerT0 = "8";
             o.fail.flapLink = "p0-t0-0:p0-t1-0";
         },
         "are joined by 2 links"},
    };
    for (const BadCase& bc : cases)
    {
        MrcScenarioOptions o = SmallOptions();
        bc.set(o);
        const std::string e = Error(o);
        EXPECT_NE(e.find(bc.expected), std::string::npos) << bc.name << ": " << e;
    }
}

TEST(MrcFailureOptions, AcceptedCombinations)
{
    // Causes of different kinds may overlap (the injector holds a link down until the last
    // is repaired); a flap of a --failLink link is fine when it ends before the cut.
    MrcScenarioOptions o = SmallOptions();
    o.failLink = "p0-t0-0:p0-t1-0";
    o.failAt = "200us";
    o.fail.flapLink = "p0-t1-0:p0-t0-0";
    o.fail.flapAt = "10us";
    o.fail.flapCount = "3"; // last repair at 10 + 2 x 20 + 10 = 60 us
    o.fail.failSwitch = "p0-t1-0";
    o.fail.failPort = "host0:0,host0:1";
    EXPECT_EQ(Specs(o).size(), 4u);
    // A fat tree: an aggregation switch joins the cores of its group only.
    MrcScenarioOptions f = SmallOptions();
    f.topo.topology = "fattree";
    f.topo.hosts = "";
    f.topo.planes = "1";
    f.fail.flapLink = "p0-t1-1:p0-t2-2,p0-t0-2:p0-t1-3";
    EXPECT_EQ(Specs(f).size(), 2u);
    f.fail.flapLink = "p0-t1-1:p0-t2-0";
    EXPECT_NE(Error(f).find("are joined by 0 links"), std::string::npos) << Error(f);
    f.fail.flapLink = "p0-t0-0:p0-t1-2"; // another pod
    EXPECT_NE(Error(f).find("are joined by 0 links"), std::string::npos) << Error(f);
}

TEST(MrcFailureOptions, FailLinkTakesOwnTimesPerLinkAndKeepsTheSharedForm)
{
    // The shared form: every link at --failAt.
    MrcScenarioOptions o = SmallOptions();
    o.failLink = "p0-t0-0:p0-t1-0,p1-t0-1:p1-t1-0";
    o.failAt = "150us";
    MrcScenarioConfig c;
    ASSERT_EQ(o.TryToConfig(c), "");
    using L = std::vector<std::pair<std::string, Time>>;
    EXPECT_EQ(c.GetFailLinkTimes(),
              (L{{"p0-t0-0:p0-t1-0", MicroSeconds(150)}, {"p1-t0-1:p1-t1-0", MicroSeconds(150)}}));
    // Own times (out of order too) mixed with --failAt; a repair after the last cut.
    o.failLink = "p0-t0-0:p0-t1-0@200us,p0-t0-0:p0-t1-1,p0-t0-1:p0-t1-0@1.5ms,host3:p1-t0-0@50us";
    o.repairAt = "2ms";
    MrcScenarioConfig d;
    ASSERT_EQ(o.TryToConfig(d), "");
    EXPECT_EQ(d.GetFailLinkTimes(),
              (L{{"p0-t0-0:p0-t1-0", MicroSeconds(200)},
                 {"p0-t0-0:p0-t1-1", MicroSeconds(150)},
                 {"p0-t0-1:p0-t1-0", MicroSeconds(1500)},
                 {"host3:p1-t0-0", MicroSeconds(50)}}));
    EXPECT_EQ(d.repairAt, MilliSeconds(2));
    // Every link with its own time: --failAt past --simTime is then not used, so not an error.
    o.failLink = "p0-t0-0:p0-t1-0@1ms";
    o.failAt = "20ms";
    o.repairAt = "";
    MrcScenarioConfig e;
    EXPECT_EQ(o.TryToConfig(e), "");
}

TEST(MrcFailureOptions, FlapLinkTakesOwnSchedulePerLinkAndKeepsTheSharedForm)
{
    MrcScenarioOptions o = SmallOptions();
    o.fail.flapAt = "10us";
    o.fail.flapPeriod = "4us";
    o.fail.flapCount = "5";
    // a link with the shared schedule, one with its own first cut, one with its own first cut
    // and period (down: half of it), one with all four fields
    o.fail.flapLink = "p0-t0-0:p0-t1-0,p0-t0-0:p0-t1-1@15us,p1-t0-0:p1-t1-0@7us/10us,"
                      "p1-t0-1:p1-t1-1@1ms/40us/30us/2";
    const std::vector<MrcFailureSpec> s = Specs(o);
    ASSERT_EQ(s.size(), 4u);
    using Kind = MrcFailureSpec::Kind;
    for (const auto& x : s)
    {
        EXPECT_EQ(x.kind, Kind::FLAP);
        EXPECT_EQ(x.repair, Time(0));
    }
    EXPECT_EQ(s[0].nodeA, "p0-t0-0");
    EXPECT_EQ(s[0].nodeB, "p0-t1-0");
    EXPECT_EQ(s[0].at, MicroSeconds(10));
    EXPECT_EQ(s[0].period, MicroSeconds(4));
    EXPECT_EQ(s[0].downTime, MicroSeconds(2));
    EXPECT_EQ(s[0].count, 5u);
    EXPECT_EQ(s[1].nodeB, "p0-t1-1");
    EXPECT_EQ(s[1].at, MicroSeconds(15));
    EXPECT_EQ(s[1].period, MicroSeconds(4));
    EXPECT_EQ(s[1].downTime, MicroSeconds(2));
    EXPECT_EQ(s[1].count, 5u);
    EXPECT_EQ(s[2].nodeA, "p1-t0-0");
    EXPECT_EQ(s[2].at, MicroSeconds(7));
    EXPECT_EQ(s[2].period, MicroSeconds(10));
    EXPECT_EQ(s[2].downTime, MicroSeconds(5)); // half its own period
    EXPECT_EQ(s[2].count, 5u);
    EXPECT_EQ(s[3].nodeA, "p1-t0-1");
    EXPECT_EQ(s[3].nodeB, "p1-t1-1");
    EXPECT_EQ(s[3].at, MilliSeconds(1));
    EXPECT_EQ(s[3].period, MicroSeconds(40));
    EXPECT_EQ(s[3].downTime, MicroSeconds(30));
    EXPECT_EQ(s[3].count, 2u);
    // a given --flapDown stays the down time of an item with its own period
    o.fail.flapDown = "1us";
    const std::vector<MrcFailureSpec> d = Specs(o);
    ASSERT_EQ(d.size(), 4u);
    EXPECT_EQ(d[2].downTime, MicroSeconds(1));
    EXPECT_EQ(d[3].downTime, MicroSeconds(30));
    // every item with its own first cut: --failAt past --simTime is then not used
    o.fail.flapAt = "";
    o.failAt = "20ms";
    o.fail.flapLink = "p0-t0-0:p0-t1-0@10us";
    MrcScenarioConfig c;
    EXPECT_EQ(o.TryToConfig(c), "");
}

// ---------------------------------------------------------------------------------------
// Runs from the command line: events.csv rows at the given times, and each one's effect

TEST(MrcFailureOptionsRun, LinksCutOneAtATimeAtTheirOwnTimes)
{
    const std::string dir = TempDir("mrc-failopt");
    const int rc = RunSim({"--transport=mrc",
                           "--planes=2",
                           "--hosts=8",
                           "--bytes=100000",
                           "--sampleInterval=0s",
                           "--failLink=p1-t0-0:p1-t1-1@9us,p1-t0-0:p1-t1-0,p0-t0-1:p0-t1-0@14us",
                           "--failAt=4us",
                           "--repairAt=30us"},
                          dir);
    EXPECT_EQ(rc, 0);
    const std::vector<std::string> expected = {
        "4000,link_down,p1-t0-0:4-p1-t1-0:0,",
        "9000,link_down,p1-t0-0:5-p1-t1-1:0,",
        "14000,link_down,p0-t0-1:4-p0-t1-0:1,",
        "30000,link_up,p1-t0-0:5-p1-t1-1:0,",
        "30000,link_up,p1-t0-0:4-p1-t1-0:0,",
        "30000,link_up,p0-t0-1:4-p0-t1-0:1,",
    };
    std::vector<std::string> rows;
    for (const auto& l : Lines(ReadFile(dir + "/events.csv")))
    {
        if (l.find(",link_") != std::string::npos)
        {
            rows.push_back(WithoutTransport(l));
        }
    }
    EXPECT_EQ(rows, expected);
    EXPECT_EQ(CompletedFlows(dir), 8u);
    Done(dir);
}

TEST(MrcFailureOptionsRun, SwitchDownAndUpRowsAndEveryByteOnce)
{
    const std::string dir = TempDir("mrc-failopt");
    const int rc = RunSim({"--transport=mrc",
                           "--planes=2",
                           "--hosts=8",
                           "--bytes=100000",
                           "--sampleInterval=0s",
                           "--failSwitch=p0-t1-0",
                           "--failAt=5us",
                           "--repairAt=20us"},
                          dir);
    EXPECT_EQ(rc, 0);
    const auto down = Rows(dir, "switch_down");
    const auto up = Rows(dir, "switch_up");
    ASSERT_EQ(down.size(), 1u);
    ASSERT_EQ(up.size(), 1u);
    EXPECT_EQ(down[0], "5000,switch_down,p0-t1-0,links=2"); // one uplink from each of 2 T0s
    EXPECT_EQ(up[0], "20000,switch_up,p0-t1-0,links=2");
    EXPECT_EQ(CompletedFlows(dir), 8u);
    EXPECT_NE(ReadFile(dir + "/summary.json").find("\"failSwitch\": \"p0-t1-0\""),
              std::string::npos);
    Done(dir);
}

TEST(MrcFailureOptionsRun, FlapRowsAtEachCutAndRepair)
{
    const std::string dir = TempDir("mrc-failopt");
    const int rc = RunSim({"--transport=mrc",
                           "--planes=2",
                           "--hosts=8",
                           "--bytes=100000",
                           "--sampleInterval=0s",
                           "--flapLink=p0-t0-0:p0-t1-0",
                           "--flapAt=5us",
                           "--flapPeriod=4us",
                           "--flapCount=3",
                           "--flapDown=1us"},
                          dir);
    EXPECT_EQ(rc, 0);
    const auto down = Rows(dir, "link_down");
    const auto up = Rows(dir, "link_up");
    ASSERT_EQ(down.size(), 3u);
    ASSERT_EQ(up.size(), 3u);
    for (uint32_t i = 0; i < 3; ++i)
    {
        const std::string n = std::to_string(i + 1) + "/3";
        EXPECT_EQ(down[i],
                  std::to_string(5000 + 4000 * i) + ",link_down,p0-t0-0:4-p0-t1-0:0,flap " + n);
        EXPECT_EQ(up[i],
                  std::to_string(6000 + 4000 * i) + ",link_up,p0-t0-0:4-p0-t1-0:0,flap " + n);
    }
    EXPECT_EQ(CompletedFlows(dir), 8u);
    Done(dir);
}

TEST(MrcFailureOptionsRun, LinksFlapAtTheirOwnTimes)
{
    const std::string dir = TempDir("mrc-failopt");
    const int rc = RunSim({"--transport=mrc",
                           "--planes=2",
                           "--hosts=8",
                           "--bytes=100000",
                           "--sampleInterval=0s",
                           "--flapLink=p0-t0-0:p0-t1-0@5us/4us/1us/2,p1-t0-1:p1-t1-1@6us/7us",
                           "--flapCount=2"},
                          dir);
    EXPECT_EQ(rc, 0);
    std::vector<std::string> rows;
    for (const auto& l : Lines(ReadFile(dir + "/events.csv")))
    {
        if (l.find(",link_") != std::string::npos)
        {
            rows.push_back(WithoutTransport(l));
        }
    }
    // link A: cuts at 5 and 9 us, 1 us down; link B: cuts at 6 and 13 us, 3.5 us down
    const std::vector<std::string> expected = {
        "5000,link_down,p0-t0-0:4-p0-t1-0:0,flap 1/2",
        "6000,link_up,p0-t0-0:4-p0-t1-0:0,flap 1/2",
        "6000,link_down,p1-t0-1:5-p1-t1-1:1,flap 1/2",
        "9000,link_down,p0-t0-0:4-p0-t1-0:0,flap 2/2",
        "9500,link_up,p1-t0-1:5-p1-t1-1:1,flap 1/2",
        "10000,link_up,p0-t0-0:4-p0-t1-0:0,flap 2/2",
        "13000,link_down,p1-t0-1:5-p1-t1-1:1,flap 2/2",
        "16500,link_up,p1-t0-1:5-p1-t1-1:1,flap 2/2",
    };
    EXPECT_EQ(rows, expected);
    EXPECT_EQ(CompletedFlows(dir), 8u);
    Done(dir);
}

/// Parse options given as arguments (as mrc-sim does), build the run, return it.
std::unique_ptr<MrcScenarioRunner>
BuildFromArgs(std::vector<std::string> args)
{
    args.insert(args.begin(), "mrc-sim");
    std::vector<char*> argv;
    for (auto& a : args)
    {
        argv.push_back(a.data());
    }
    MrcScenarioOptions o;
    MrcCommandLine cmd;
    o.Register(cmd);
    cmd.Parse(static_cast<int>(argv.size()), argv.data());
    MrcScenarioConfig c = o.ToConfig();
    c.progress = false;
    auto r = std::make_unique<MrcScenarioRunner>(c);
    r->Build();
    return r;
}

TEST(MrcFailureOptionsRun, GrayLossDropsOnItsDirectionOnly)
{
    auto r = BuildFromArgs({"--transport=mrc",
                            "--planes=2",
                            "--hosts=8",
                            "--bytes=200000",
                            "--sampleInterval=0s",
                            "--grayLink=p0-t1-0:p0-t0-1",
                            "--grayLoss=0.5",
                            "--grayAt=2us",
                            "--grayUntil=30us"});
    Ptr<MrcTopology> t = r->GetTopology();
    const MrcTopologyLink& l =
        t->GetLink(Names::Find<Node>("p0-t0-1"), Names::Find<Node>("p0-t1-0"));
    uint64_t dropsAtT0 = 0; // frames from the T1, lost at the T0
    uint64_t dropsAtT1 = 0;
    l.devA->TraceConnectWithoutContext("PhyRxDrop",
                                       MakeBoundCallback(
                                           +[](uint64_t* n, Ptr<const Packet>) { ++*n; },
                                           &dropsAtT0));
    l.devB->TraceConnectWithoutContext("PhyRxDrop",
                                       MakeBoundCallback(
                                           +[](uint64_t* n, Ptr<const Packet>) { ++*n; },
                                           &dropsAtT1));
    r->Run();
    EXPECT_GT(dropsAtT0, 5u);
    EXPECT_EQ(dropsAtT1, 0u);
    const std::string ev = r->GetEventLog()->ToCsv();
    EXPECT_NE(ev.find("2000,gray_failure_start,p0-t1-0:1->p0-t0-1:4,loss=0.5\n"), std::string::npos)
        << ev;
    EXPECT_NE(ev.find("30000,gray_failure_stop,p0-t1-0:1->p0-t0-1:4,\n"), std::string::npos) << ev;
    ExpectAllExactlyOnce(*r);
    r.reset();
    Done("");
}

TEST(MrcFailureOptionsRun, PlaneDownNoFrameCrossesItAfterwards)
{
    auto r = BuildFromArgs({"--transport=mrc",
                            "--planes=2",
                            "--hosts=8",
                            "--bytes=200000",
                            "--sampleInterval=0s",
                            "--failPlane=1",
                            "--failAt=5us"});
    Ptr<MrcTopology> t = r->GetTopology();

    struct Seen
    {
        uint64_t before{0};
        uint64_t after{0};
    } seen;

    for (uint32_t id = 0; id < t->GetNLinks(); ++id)
    {
        const MrcTopologyLink& l = t->GetLink(id);
        if (l.plane != 1)
        {
            continue;
        }
        for (Ptr<MrcNetDevice> d : {l.devA, l.devB})
        {
            d->TraceConnectWithoutContext(
                "PhyRxEnd",
                MakeBoundCallback(
                    +[](Seen* s, Ptr<const Packet>) {
                        ++(Simulator::Now() > MicroSeconds(5) ? s->after : s->before);
                    },
                    &seen));
        }
    }
    r->Run();
    EXPECT_GT(seen.before, 0u); // plane 1 carried traffic until the failure
    EXPECT_EQ(seen.after, 0u);
    const std::string ev = r->GetEventLog()->ToCsv();
    // 8 host links and 2 T0s x 4 T1 links in the plane
    EXPECT_NE(ev.find("5000,plane_down,p1,links=16\n"), std::string::npos) << ev;
    ExpectAllExactlyOnce(*r);
    r.reset();
    Done("");
}

TEST(MrcFailureOptionsRun, NicPortDownMovesMrcToTheOtherPlane)
{
    auto r = BuildFromArgs({"--transport=mrc",
                            "--planes=2",
                            "--hosts=8",
                            "--bytes=200000",
                            "--sampleInterval=0s",
                            "--failPort=host0:0,host5:0", // hosts 0 and 5 keep plane 1 in common
                            "--failPortAt=3us",
                            "--repairPortAt=none",
                            "--failAt=2us",
                            "--repairAt=50us"});
    Ptr<MrcTopology> t = r->GetTopology();
    uint64_t after = 0;
    for (auto [h, p] : {std::pair<uint32_t, uint32_t>{0, 0}, {5, 0}})
    {
        const MrcTopologyLink& l = t->GetLink(t->GetHostLink(h, p));
        for (Ptr<MrcNetDevice> d : {l.devA, l.devB})
        {
            d->TraceConnectWithoutContext("PhyRxEnd",
                                          MakeBoundCallback(
                                              +[](uint64_t* n, Ptr<const Packet>) {
                                                  *n += Simulator::Now() > MicroSeconds(3) ? 1 : 0;
                                              },
                                              &after));
        }
    }
    r->Run();
    EXPECT_EQ(after, 0u); // never repaired: --repairPortAt=none overrides --repairAt
    const std::string ev = r->GetEventLog()->ToCsv();
    EXPECT_NE(ev.find("3000,port_down,host0:0,\n"), std::string::npos) << ev;
    EXPECT_NE(ev.find("3000,port_down,host5:0,\n"), std::string::npos) << ev;
    EXPECT_EQ(ev.find("port_up"), std::string::npos) << ev;
    ExpectAllExactlyOnce(*r);
    r.reset();
    Done("");
}

TEST(MrcFailureOptionsRun, SeveralFailuresInOneRunInTimeOrder)
{
    const std::string dir = TempDir("mrc-failopt");
    const int rc = RunSim({"--transport=mrc",
                           "--planes=2",
                           "--hosts=8",
                           "--bytes=100000",
                           "--sampleInterval=0s",
                           "--failLink=p1-t0-0:p1-t1-0",
                           "--failAt=4us",
                           "--repairAt=30us",
                           "--failSwitch=p0-t1-1",
                           "--failSwitchAt=6us",
                           "--failPort=host2:1",
                           "--failPortAt=8us",
                           "--repairPortAt=12us",
                           "--failPlane=1",
                           "--failPlaneAt=10us",
                           "--repairPlaneAt=20us"},
                          dir);
    EXPECT_EQ(rc, 0);
    std::vector<std::string> failures;
    for (const auto& l : Lines(ReadFile(dir + "/events.csv")))
    {
        for (const char* k : {",link_", ",switch_", ",port_", ",plane_"})
        {
            if (l.find(k) != std::string::npos)
            {
                failures.push_back(WithoutTransport(l));
            }
        }
    }
    const std::vector<std::string> expected = {
        "4000,link_down,p1-t0-0:4-p1-t1-0:0,",
        "6000,switch_down,p0-t1-1,links=2",
        "8000,port_down,host2:1,",
        "10000,plane_down,p1,links=16",
        // the port's repair leaves the host link down under the plane
        "12000,port_up,host2:1,still down: p1-t0-0:2-host2:1 (plane p1)",
        "20000,plane_up,p1,links=16; still down: p1-t0-0:4-p1-t1-0:0 (link)",
        // the link's own cut holds it after the plane came back, until --repairAt
        "30000,link_up,p1-t0-0:4-p1-t1-0:0,",
        "30000,switch_up,p0-t1-1,links=2", // --repairAt is the switch's repair time too
    };
    EXPECT_EQ(failures, expected);
    EXPECT_EQ(CompletedFlows(dir), 8u);
    Done(dir);
}
