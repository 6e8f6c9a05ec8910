/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MrcScenarioOptions::CheckRunSettings (issue 20): settings that pass every option's own
// check but abort a run when the fabric is built or the first packets move are refused
// before any simulation, naming the option and what is allowed. Each case below aborted
// mrc-sim before the check (exit 134); the bad-inputs corpus has them as command lines.

#include "mrc-test-support.h"

#include "ns3/config.h"
#include "ns3/mrc-attribute-check.h"
#include "ns3/mrc-sack-scoreboard.h"
#include "ns3/mrc-scenario-options.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// A small run of the given transports (8 hosts, 4 per T0, 2 T1).
MrcScenarioOptions
Small(const std::string& transports = "roce,uec,mrc")
{
    MrcScenarioOptions o;
    o.transports = transports;
    o.topo.hosts = "8";
    o.topo.hostsPerT0 = "4";
    o.topo.t1PerPlane = "2";
    o.bytes = "100000";
    o.simTime = "10ms";
    return o;
}

/// \return CheckRunSettings' message for the options and attribute defaults
std::string
Check(const MrcScenarioOptions& o,
      const std::vector<std::pair<std::string, std::string>>& attributes = {})
{
    MrcScenarioConfig c;
    const std::string e = o.TryToConfig(c);
    EXPECT_EQ(e, "");
    c.attributeOverrides = attributes;
    return MrcScenarioOptions::CheckRunSettings(c);
}

bool
Has(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

TEST(MrcRunSettingsCheck, DefaultsAndEveryScenarioPresetPass)
{
    EXPECT_EQ(Check(Small()), "");
    EXPECT_EQ(Check(Small("roce")), "");
    MrcScenarioOptions two = Small();
    two.topo.planes = "2";
    two.sameFabric = "0";
    EXPECT_EQ(Check(two), "");
    MrcScenarioOptions fat = Small();
    fat.topo.topology = "fattree";
    fat.topo.hosts = "0";
    fat.topo.hostsPerT0 = "0";
    EXPECT_EQ(Check(fat), "");
    // validation case 02b's run (mrc, 2.58 MB buffer, PFC off)
    MrcScenarioOptions v = Small("mrc");
    v.topo.hosts = "16";
    v.topo.t1PerPlane = "4";
    EXPECT_EQ(Check(v, {{"ns3::MrcSharedBufferMmu::BufferSize", "2580000"}}), "");
}

TEST(MrcRunSettingsCheck, HeadroomLargerThanTheBuffer)
{
    // validation case 02b with PFC on every priority: 8 lossless queues x 8 ports of
    // (37,500 + 2 x 9,038) B headroom = 3,556,864 B + 262,144 B reserves > 2,580,000 B
    MrcScenarioOptions v = Small("mrc");
    v.topo.hosts = "16";
    v.topo.t1PerPlane = "4";
    const std::string e = Check(v,
                                {{"ns3::MrcSharedBufferMmu::BufferSize", "2580000"},
                                 {"ns3::MrcSharedBufferMmu::PfcPriorityMask", "255"}});
    EXPECT_TRUE(Has(e, "--ns3::MrcSharedBufferMmu::BufferSize='2580000' is too small for mrc"))
        << e;
    EXPECT_TRUE(Has(e, "8 lossless priorities")) << e;
    EXPECT_TRUE(Has(e, "allowed: BufferSize >= 3819008 B")) << e;
    // exactly that buffer is enough, one byte less is not
    EXPECT_EQ(Check(v,
                    {{"ns3::MrcSharedBufferMmu::BufferSize", "3819008"},
                     {"ns3::MrcSharedBufferMmu::PfcPriorityMask", "255"}}),
              "");
    EXPECT_NE(Check(v,
                    {{"ns3::MrcSharedBufferMmu::BufferSize", "3819007"},
                     {"ns3::MrcSharedBufferMmu::PfcPriorityMask", "255"}}),
              "");
}

TEST(MrcRunSettingsCheck, HeadroomOfLongLinksAndReserves)
{
    // RoCE's lossless class (default profile roce-deployed) over 1 ms links:
    // 3 x 100 Gb/s x 1 ms = 37.5 MB a port
    MrcScenarioOptions o = Small("roce");
    o.topo.linkDelay = "1ms";
    const std::string e = Check(o);
    EXPECT_TRUE(Has(e, "ns3::MrcSharedBufferMmu::BufferSize='")) << e;
    EXPECT_TRUE(Has(e, "(from profile roce-deployed) is too small for roce")) << e;
    // the reserves alone
    const std::string r =
        Check(Small("mrc"), {{"ns3::MrcSharedBufferMmu::ReservePerQueue", "10000000"}});
    // a T0 of 4 host ports and 2 uplinks: 6 ports x 8 priorities
    EXPECT_TRUE(Has(r, "a T0 switch (6 ports) reserves 480000000 B")) << r;
    EXPECT_TRUE(Has(r, "--ns3::MrcSharedBufferMmu::ReservePerQueue='10000000' x 48 queues)")) << r;
    EXPECT_TRUE(Has(r, "allowed: BufferSize >= 480000000 B")) << r;
    // a fixed headroom (no AutoHeadroom) is the one counted
    const std::string h = Check(Small("roce"),
                                {{"ns3::MrcSwitchNode::AutoHeadroom", "false"},
                                 {"ns3::MrcSharedBufferMmu::Headroom", "100000000"}});
    EXPECT_TRUE(Has(h, "--ns3::MrcSharedBufferMmu::Headroom='100000000' a port")) << h;
    // mrc runs lossy: its headroom does not count, its reserves do
    EXPECT_EQ(Check(Small("mrc"), {{"ns3::MrcSharedBufferMmu::Headroom", "100000000"}}), "");
}

TEST(MrcRunSettingsCheck, EcnThresholdsInOrder)
{
    const std::string e = Check(Small(), {{"ns3::MrcEcnMarker::Kmax", "0"}});
    EXPECT_TRUE(Has(e, "is larger than --ns3::MrcEcnMarker::Kmax='0' for roce")) << e;
    EXPECT_TRUE(Has(e, "(allowed: Kmin <= Kmax)")) << e;
    EXPECT_EQ(
        Check(Small(), {{"ns3::MrcEcnMarker::Kmin", "5000"}, {"ns3::MrcEcnMarker::Kmax", "5000"}}),
        "");
}

TEST(MrcRunSettingsCheck, ValuesTheClassesRefuse)
{
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"ns3::MrcDcqcn::G", "0"},
        {"ns3::MrcDcqcn::RateOnFirstCnp", "2"},
        {"ns3::MrcDcqcn::AlphaUpdateInterval", "0ns"},
        {"ns3::MrcDcqcn::RateDecreaseInterval", "0ns"},
        {"ns3::MrcDcqcn::RateIncreaseInterval", "0ns"},
        {"ns3::MrcClassScheduler::DwrrWeights", "1,2"},
        {"ns3::MrcClassScheduler::DwrrWeights", "1,1,1,1,1,1,1,x"},
        {"ns3::MrcNetDevice::DscpToClass", "x"},
        {"ns3::MrcNetDevice::DscpToClass", "64:1"},
        {"ns3::MrcNetDevice::DscpToClass", "26:8"},
        {"ns3::MrcUecQueuePair::WindowPsns", "100"},
        {"ns3::MrcUecQueuePair::BaseRtt", "0ns"},
    };
    for (const auto& [path, value] : bad)
    {
        const std::string e = Check(Small(), {{path, value}});
        EXPECT_TRUE(Has(e, "--" + path + "='" + value + "' is not allowed for ")) << e;
        EXPECT_TRUE(Has(e, "(allowed: ")) << e;
    }
    const std::vector<std::pair<std::string, std::string>> good = {
        {"ns3::MrcDcqcn::G", "1"},
        {"ns3::MrcClassScheduler::DwrrWeights", "1,2,3,4,5,6,7,8"},
        {"ns3::MrcNetDevice::DscpToClass", "26:3, 63:7"},
        {"ns3::MrcUecQueuePair::WindowPsns", "128"},
    };
    for (const auto& [path, value] : good)
    {
        EXPECT_EQ(Check(Small(), {{path, value}}), "") << path;
    }
}

TEST(MrcRunSettingsCheck, PortsPerSwitch)
{
    MrcScenarioOptions o = Small("mrc");
    o.topo.t1PerPlane = "1";
    o.topo.uplinksPerT0 = "70000";
    const std::string e = Check(o);
    EXPECT_TRUE(Has(e, "--uplinksPerT0='70000'")) << e;
    EXPECT_TRUE(Has(e, "a T0 switch gets 70004 ports; allowed: at most 65536")) << e;
}

TEST(MrcSackScoreboard, HugeReorderThresholdsAreBoundedByTheCapacity)
{
    // A threshold of 2^32 - 1 PSNs asked for 64 x 2^32 positions (bad_alloc at the first
    // queue pair); now it stands for the capacity and, as before, never fires. The same
    // SACK with a threshold of 3 loses the first PSN.
    for (const uint32_t n : {0xffffffffU, 3U})
    {
        MrcSackScoreboard::Config c;
        c.capacityPsns = 64;
        c.reorderPsns = n;
        c.pathCount = true;
        c.pathReorderPsns = n;
        MrcSackScoreboard sb(c, 100);
        for (uint32_t i = 0; i < 64; ++i)
        {
            sb.OnSent(1000, 1, MicroSeconds(i));
        }
        sb.OnSack(99, 101, ~uint64_t{0} >> 1); // PSNs 101..163, not 100
        EXPECT_EQ(sb.GetRetransmitQueueSize(), n == 3 ? 1u : 0u) << n;
        EXPECT_EQ(sb.GetRecord(100)->state, n == 3 ? MrcPsnState::LOST : MrcPsnState::SENT) << n;
    }
}

TEST(MrcAttributeCheck, PointerValueNamesAClassThatCanBeCreated)
{
    // --ns3::MrcNetDevice::ClassScheduler=0 crashed mrc-sim (SIGSEGV in ns-3's
    // PointerValue::DeserializeFromString) while checking the options
    const std::string path = "ns3::MrcNetDevice::ClassScheduler";
    for (const std::string bad : {"0", "", "x[Scheduler=Dwrr]", "ns3::Object"})
    {
        const std::string e = MrcAttributeCheck::CheckDefault(path, bad);
        EXPECT_TRUE(Has(e, "value '" + bad + "'")) << e;
    }
    EXPECT_EQ(MrcAttributeCheck::CheckDefault(path, "ns3::MrcClassScheduler"), "");
    EXPECT_EQ(MrcAttributeCheck::CheckDefault(path, "ns3::MrcClassScheduler[Scheduler=Dwrr]"), "");
}

// The "limits on counts and sizes, stated in --PrintHelp".
TEST(MrcRunSettingsCheck, HelpStatesTheLimits)
{
    const std::string sim = MrcTest::ExampleBinary("mrc-sim");
    if (sim.empty())
    {
        GTEST_SKIP() << "mrc-sim not found";
    }
    const auto [rc, text] = MrcTest::RunCommand(sim + " --PrintHelp");
    EXPECT_EQ(rc, 0) << text;
    for (const char* part : {"1000000 nodes and 10000000 links",
                             "at most 10000000 flows",
                             "at most 4294967295 bytes",
                             "at most 65536 ports per switch",
                             "2: a usage error"})
    {
        EXPECT_NE(text.find(part), std::string::npos) << part;
    }
}

// Issue 20: MRC with SRv6 EVs over a topology file whose path is longer than one uSID
// carrier aborted when the first connection was made (exit 134, after --checkOnly had
// passed). The chain of 6 switches of the bad-inputs corpus needs 7 uSIDs.
TEST(MrcRunSettingsCheck, Srv6PathLongerThanOneUsidCarrier)
{
    MrcScenarioOptions o;
    o.transports = "mrc";
    o.topoFile =
        std::string(MRC_SOURCE_DIR) + "/test/data/bad-inputs/issue20-srv6-long-path.topology";
    o.flowFile = "none";
    const std::string e = Check(o);
    EXPECT_TRUE(Has(e, "issue20-srv6-long-path.topology': with --evFormat=srv6")) << e;
    EXPECT_TRUE(Has(e, "path from host 0 to host 1 crosses 6 switches (7 uSIDs")) << e;
    EXPECT_TRUE(Has(e, "a uSID carrier holds 6 uSIDs (allowed: paths of at most 5 switches")) << e;
    // MRC over ECMP, and the transports without SRv6, have no such limit
    MrcScenarioOptions structured = o;
    structured.evFormat = "structured";
    EXPECT_EQ(Check(structured), "");
    MrcScenarioOptions others = o;
    others.transports = "roce,uec";
    EXPECT_EQ(Check(others), "");
    // one switch less (5 switches + the downlink = 6 uSIDs) fits exactly
    const std::string fit = testing::TempDir() + "mrc-srv6-5-switches.topology";
    {
        std::ofstream f(fit);
        f << "7 5 6\n2 3 4 5 6\n0 2 100Gbps 0.001ms 0\n";
        for (int s = 2; s < 6; ++s)
        {
            f << s << " " << s + 1 << " 100Gbps 0.001ms 0\n";
        }
        f << "6 1 100Gbps 0.001ms 0\n";
    }
    MrcScenarioOptions five = o;
    five.topoFile = fit;
    EXPECT_EQ(Check(five), "");
    std::remove(fit.c_str());
}
