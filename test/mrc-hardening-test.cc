/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Issue 20: each reproducer of the hardening campaign, as a unit test of the code it hit
// (the file reproducers also run through mrc-sim in the CTest case bad-inputs).

#include "mrc-test-support.h"

#include "ns3/mrc-flow-size-cdf.h"
#include "ns3/mrc-hpcc-input.h"
#include "ns3/mrc-htsim-input.h"
#include "ns3/mrc-input-error.h"
#include "ns3/mrc-nscc.h"
#include "ns3/mrc-srh-header.h"
#include "ns3/mrc-srv6-encap.h"
#include "ns3/mrc-topology-helper.h"
#include "ns3/mrc-workload.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <csignal>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace ns3;

namespace
{

/// The message of the MrcInputError f throws ("" if none).
template <typename F>
std::string
InputError(F f)
{
    try
    {
        f();
    }
    catch (const MrcInputError& e)
    {
        return e.what();
    }
    return "";
}

/// An htsim .topo text: 2 tiers, one pod.
std::string
TwoTierTopo(const std::string& nodes,
            const std::string& tier0Extra,
            const std::string& tier1Rate,
            const std::string& tier1RadixDown)
{
    return "Nodes " + nodes + "\nTiers 2\nPodsize " + nodes +
           "\nTier 0\nDownlink_speed_Gbps 1\nRadix_Up 1\nRadix_Down 1\n" + tier0Extra +
           "Tier 1\nDownlink_speed_Gbps " + tier1Rate + "\nRadix_Down " + tier1RadixDown + "\n";
}

MrcHtsimFatTreeShape
ShapeOf(const std::string& text)
{
    std::istringstream in(text);
    return MrcHtsimInput::Shape(MrcHtsimInput::ParseTopology(in, "t.topo"));
}

} // namespace

// Item 1: 2 x 2^31 hosts and ToRs + 1 aggregation switch wrapped the uint32 node count.
TEST(Hardening, Item01HtsimNodeCountCannotWrap)
{
    const std::string e = InputError(
        [] { ShapeOf(TwoTierTopo("2147483648", "Oversubscribed 1\n", "1", "2147483648")); });
    EXPECT_EQ(e,
              "t.topo:3: expected at most 1000000 nodes (hosts, ToRs, aggregation and core "
              "switches), got '4294967297'");
    // the largest fabric accepted: 499999 hosts, 499999 ToRs, 1 aggregation switch
    const MrcHtsimFatTreeShape s =
        ShapeOf(TwoTierTopo("499999", "Oversubscribed 1\n", "1", "499999"));
    EXPECT_EQ(s.torsPerPod, 499999u);
    EXPECT_EQ(s.aggsPerPod, 1u);
}

// Item 2: Downlink_speed_Gbps(1) x Oversubscribed(0) = 2^33 x 2^31 wrapped to 0 (SIGFPE).
TEST(Hardening, Item02HtsimDivisorCannotWrap)
{
    const std::string e = InputError(
        [] { ShapeOf(TwoTierTopo("16", "Oversubscribed 2147483648\n", "8589934592", "8")); });
    EXPECT_EQ(e,
              "t.topo:9: expected a Downlink_speed_Gbps of at most 1000000 in tier 1, got "
              "'8589934592'");
}

// Item 3: a flow count of 2^32 - 1 reserved 240 GB; 4e9 topology nodes allocated for 51 s.
TEST(Hardening, Item03CountsAreBounded)
{
    EXPECT_EQ(InputError([] {
                  std::istringstream in("4294967295");
                  MrcHpccInput::ParseFlows(in, "f.txt");
              }),
              "f.txt:1: expected the number of flows, at most 10000000, got '4294967295'");
    EXPECT_EQ(InputError([] {
                  std::istringstream in("4000000000 0 0\n");
                  MrcHpccInput::ParseTopology(in, "t.txt");
              }),
              "t.txt:1: expected N: at most 1000000 nodes, got '4000000000'");
    EXPECT_EQ(InputError([] {
                  std::istringstream in("4 2 4000000000\n2 3\n");
                  MrcHpccInput::ParseTopology(in, "t.txt");
              }),
              "t.txt:1: expected L: at most 10000000 links, got '4000000000'");
    // a count at the limit is only a claim: the reader fails at the missing line
    EXPECT_EQ(InputError([] {
                  std::istringstream in("10000000\n0 1 3 100 10 0\n");
                  MrcHpccInput::ParseFlows(in, "f.txt");
              }),
              "f.txt:3: expected flow 2 of 10000000 as 'src dst pg dport bytes start_s' (HPCC) "
              "or 'src dst pg bytes start_s' (ConWeave), got end of file");
}

// Item 7: sizes of a CDF are bounded; a huge mean no longer hangs the Poisson generator;
// the expected flow count is known before generating.
TEST(Hardening, Item07CdfAndPoissonBounds)
{
    EXPECT_EQ(InputError([] {
                  std::istringstream in("0 0\n1e300 100\n");
                  MrcFlowSizeCdf::Parse(in, "c.txt");
              }),
              "c.txt:2: expected a size of at most 4294967295 bytes (one RDMA Write), got "
              "'1e300'");
    // FromPoints takes any size: sampling clamps instead of an undefined cast
    const MrcFlowSizeCdf huge = MrcFlowSizeCdf::FromPoints({{0, 0}, {1e300, 100}});
    EXPECT_EQ(huge.SampleFromUniform(0.9), 4294967295u);
    Ptr<MrcWorkloadGenerator> gen = CreateObject<MrcWorkloadGenerator>();
    gen->AssignStreams(1);
    // a mean gap of ~1e290 s: every first gap passes the end at once
    EXPECT_TRUE(
        gen->Poisson({0, 1, 2}, huge, 0.5, 100000000000ULL, Time(0), MilliSeconds(1)).empty());
    // 1-byte maximum: mean 0.5 B at 100 Gb/s, load 0.5, 16 hosts, 500 us: 10^8 flows
    const double n = MrcWorkloadGenerator::ExpectedPoissonFlows(16,
                                                                0.5,
                                                                100000000000ULL,
                                                                0.5,
                                                                MicroSeconds(500));
    EXPECT_NEAR(n, 1e8, 1);
    EXPECT_EQ(MrcWorkloadGenerator::ExpectedPoissonFlows(16, 0.5, 0, 0.5, MicroSeconds(1)), 0);
}

// Item 8: start 1e300 and prio 1e300 became 0 through an undefined float-to-int cast.
TEST(Hardening, Item08ConnectionMatrixRanges)
{
    auto cm = [](const std::string& conn) {
        return InputError([&conn] {
            std::istringstream in("Nodes 4\nConnections 1\n" + conn + "\n");
            MrcHtsimInput::ParseConnectionMatrix(in, "c.cm");
        });
    };
    EXPECT_EQ(cm("0->1 id 1 start 1e300 size 10"),
              "c.cm:3: expected a start time of at most 9.2e+12 microseconds after 'start', got "
              "'1e300'");
    EXPECT_EQ(cm("0->1 id 1 start 0 size 10 prio 1e300"),
              "c.cm:3: expected a priority of 32 bits after 'prio', got '1e300'");
    EXPECT_EQ(cm("0->1 id 1 start 9200000000000 size 10 prio -2147483648"), "");
}

// Item 11: whole seconds at the int64 limit plus a fraction overflowed (signed overflow).
TEST(Hardening, Item11SecondsToPsCannotOverflow)
{
    int64_t ps = -1;
    EXPECT_FALSE(MrcParse::SecondsToPs("9223372.9", ps));
    EXPECT_FALSE(MrcParse::SecondsToPs("9223372", ps));
    EXPECT_TRUE(MrcParse::SecondsToPs("9223371.999999999999", ps));
    EXPECT_EQ(ps, 9223371999999999999LL);
    EXPECT_FALSE(MrcParse::SecondsToPs("1e300", ps));
    EXPECT_FALSE(MrcParse::SecondsToPs("9.3e6", ps));
    uint64_t bps = 0;
    EXPECT_FALSE(MrcParse::Rate("2e19bps", bps)); // beyond 64 bits
    EXPECT_TRUE(MrcParse::Rate("1e19bps", bps));  // beyond what llround could hold
    EXPECT_EQ(bps, 10000000000000000000ULL);
    EXPECT_FALSE(MrcParse::Delay("1e7s", ps));
    EXPECT_EQ(InputError([] {
                  std::istringstream in("1\n0 1 3 100 1000 9223372.9\n");
                  MrcHpccInput::ParseFlows(in, "f.txt");
              }),
              "f.txt:2: expected start_s: a non-negative time in seconds, got '9223372.9'");
    EXPECT_EQ(InputError([] {
                  std::istringstream in("1\n0 1 3 100 1000 9200001\n");
                  MrcHpccInput::ParseFlows(in, "f.txt");
              }),
              "f.txt:2: expected start_s: at most 9.2e+06 seconds, got '9200001'");
}

// Item 13: the SRH's Hdr Ext Len / Last Entry were trusted: 104 bytes read from 8.
TEST(HardeningDeathTest, Item13SrhLengthsAreChecked)
{
    // next header 41, Hdr Ext Len 12, type 4, Segments Left 0, Last Entry 5: 6 segments
    // (96 bytes) announced, none there
    const uint8_t fixed[8] = {41, 12, 4, 0, 5, 0, 0, 0};
    Ptr<Packet> p = Create<Packet>(fixed, 8);
    MrcSrhHeader srh;
    EXPECT_DEATH(p->RemoveHeader(srh), "SRH with 6 segments needs 96 bytes.*0 follow");
    Ptr<Packet> q = Create<Packet>(fixed, 4);
    EXPECT_DEATH(q->RemoveHeader(srh), "SRH: 4 bytes, fewer than its 8-byte fixed part");

    // the same SRH behind an outer IPv6 header (next header 43, payload 8 bytes)
    Ptr<Packet> r = Create<Packet>(fixed, 8);
    Ipv6Header outer;
    outer.SetNextHeader(MrcSrhHeader::PROTOCOL_NUMBER);
    outer.SetPayloadLength(8);
    r->AddHeader(outer);
    EXPECT_DEATH(MrcSrv6Decapsulate(r), "SRH of 104 bytes \\(Hdr Ext Len 12\\) in a packet of 8");
    Ptr<Packet> tiny = Create<Packet>(20);
    EXPECT_DEATH(MrcSrv6Decapsulate(tiny), "a 20-byte packet is too short for an outer IPv6");
}

// Item 14: an RTT sample below the base RTT (service time) made a negative delay sample.
TEST(Hardening, Item14NsccDelaySamplesAreNotNegative)
{
    MrcCcState s;
    s.lineRate = DataRate("100Gbps");
    s.mtu = 4096;
    s.baseRtt = MicroSeconds(12);
    Ptr<MrcNscc> n = CreateObject<MrcNscc>();
    n->Init(s);
    s.cwnd = 100000;
    Simulator::Schedule(MicroSeconds(1), [&] {
        MrcCcAck a;
        a.newlyAckedBytes = 4096;
        a.rttValid = true;
        a.serviceTime = MicroSeconds(1); // keeps the base RTT at 12 us
        a.rttSample = MicroSeconds(7);   // 5 us below it
        for (int i = 0; i < 4; ++i)
        {
            n->OnAck(s, a);
            EXPECT_GE(n->GetAvgDelay(), 0.0);
        }
        EXPECT_EQ(n->GetAvgDelay(), 0.0);
    });
    Simulator::Run();
    Simulator::Destroy();
}

// Item 15: text from a file or the command line is echoed printable and bounded.
TEST(Hardening, Item15EchoIsPrintable)
{
    EXPECT_EQ(MrcParse::Printable(std::string("a\x01\xff\x1b[b\tc", 8)), "a\\x01\\xff\\x1b[b\tc");
    EXPECT_EQ(MrcParse::Printable(std::string(300, 'x')), std::string(200, 'x') + "...");
    EXPECT_EQ(InputError([] {
                  std::istringstream in(std::string("1\n0 1 3 100 10\x01\xff 0\n"));
                  MrcHpccInput::ParseFlows(in, "f.txt");
              }),
              "f.txt:2: expected bytes: a positive integer, got '10\\x01\\xff'");
}

namespace
{

/// Build a 2-plane Clos of 32 hosts, run its simulator briefly, and destroy it.
void
BuildRunDestroy()
{
    Ptr<MrcTopology> t = MrcTest::TwoPlaneClos(32, true, 20000, 10000, MicroSeconds(1));
    Simulator::Stop(MicroSeconds(20));
    Simulator::Run();
    t = nullptr;
    Simulator::Destroy();
}

} // namespace

// Item 5: the objects of a fabric referred to each other (switch nodes, devices, channels,
// queues) and were never freed; four fabrics in one process took 99 MB against 62 MB.
TEST(Hardening, Item05FabricsAreFreed)
{
    BuildRunDestroy(); // first use: ns-3's singletons, TypeId tables, log components
    BuildRunDestroy();
    const std::size_t before = MrcTest::HeapBytesInUse();
    for (int i = 0; i < 8; ++i)
    {
        BuildRunDestroy();
    }
    const std::size_t after = MrcTest::HeapBytesInUse();
    // One such fabric holds several MB; 8 leaked ones would add tens of MB.
    EXPECT_LT(after, before + 512 * 1024) << "heap grew by " << (after - before) << " bytes";
}

namespace
{

/// mrc-sim's path, or "" (the test is then skipped).
std::string
Sim()
{
    return MrcTest::ExampleBinary("mrc-sim");
}

/// A fresh scratch folder.
std::string
Scratch(const std::string& name)
{
    const std::string d = (std::filesystem::temp_directory_path() /
                           ("mrc-hardening-" + name + "-" + std::to_string(getpid())))
                              .string();
    std::filesystem::remove_all(d);
    return d;
}

/// Run mrc-sim from the source tree (the scenarios read data/) with arguments.
std::pair<int, std::string>
RunSim(const std::string& args)
{
    return MrcTest::RunCommand("cd " MRC_SOURCE_DIR " && " + Sim() + " " + args);
}

} // namespace

// Item 9: with several transports and --pcap, every transport wrote the same file names.
TEST(Hardening, Item09PcapPerTransport)
{
    if (Sim().empty())
    {
        GTEST_SKIP() << "mrc-sim not found";
    }
    const std::string out = Scratch("pcap");
    const auto [rc, text] =
        RunSim("--transports=roce,mrc --hosts=4 --bytes=20000 --pcap=1 --out=" + out);
    ASSERT_EQ(rc, 0) << text;
    for (const char* t : {"roce", "mrc"})
    {
        std::size_t n = 0;
        for (const auto& f : std::filesystem::directory_iterator(out + "/" + t))
        {
            n += f.path().extension() == ".pcap" ? 1 : 0;
        }
        // 4 hosts x 2 planes (mrc) or 1 plane (roce): one file per device, both link ends
        EXPECT_GT(n, 4u) << t;
    }
    EXPECT_FALSE(std::filesystem::exists(out + "/mrc-host0-0.pcap"));
    std::filesystem::remove_all(out);
}

// Item 15: -h is the usual short help; it printed "unknown option --h".
TEST(Hardening, Item15ShortHelp)
{
    if (Sim().empty())
    {
        GTEST_SKIP() << "mrc-sim not found";
    }
    const auto [rc, text] = RunSim("-h");
    EXPECT_EQ(rc, 0) << text;
    EXPECT_NE(text.find("--mtu"), std::string::npos) << text;
    EXPECT_EQ(text.find("unknown option"), std::string::npos) << text;
}

// Results are not lost: a run whose messages do not all complete still writes every file
// and says so (exit code 1). 4 hosts, roce, uec and mrc: 12 messages.
TEST(Hardening, IncompleteRunWritesResults)
{
    if (Sim().empty())
    {
        GTEST_SKIP() << "mrc-sim not found";
    }
    const std::string out = Scratch("incomplete");
    const auto [rc, text] = RunSim("--hosts=4 --bytes=100000000 --simTime=20us --out=" + out);
    EXPECT_EQ(rc, 1) << text;
    EXPECT_NE(text.find("12 of 12 messages did not complete within --simTime=20us"),
              std::string::npos)
        << text;
    // compare ran three transports: HPCC's fct.txt per transport, in OUT/TRANSPORT/.
    for (const char* f :
         {"summary.json", "flows.csv", "roce/fct.txt", "uec/fct.txt", "mrc/fct.txt", "events.csv"})
    {
        EXPECT_TRUE(std::filesystem::exists(out + "/" + f)) << f;
    }
    std::filesystem::remove_all(out);
}

// Item 6: an unwritable --out is found before the simulation, not after it.
TEST(Hardening, Item06OutCheckedFirst)
{
    if (Sim().empty())
    {
        GTEST_SKIP() << "mrc-sim not found";
    }
    const auto [rc, text] = RunSim("--out=/proc/self/status/x");
    EXPECT_EQ(rc, 2) << text;
    EXPECT_NE(text.find("--out='/proc/self/status/x': cannot create the output folder"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("scenario permutation"), std::string::npos) << "it simulated first";
}

// --pcap with several transports writes into OUT/TRANSPORT/: a pcap folder that cannot be
// made (here a file of that name) was found only when that transport's fabric was built,
// after the transports before it had run (and --checkOnly passed it). Now it is an
// output check before any simulation, with --checkOnly too.
TEST(Hardening, PcapFolderCheckedFirst)
{
    if (Sim().empty())
    {
        GTEST_SKIP() << "mrc-sim not found";
    }
    const std::string out = Scratch("pcap-folder");
    std::filesystem::create_directories(out);
    std::ofstream(out + "/uec") << "in the way";
    for (const std::string extra : {"", " --checkOnly=1"})
    {
        const auto [rc, text] =
            RunSim("--transports=roce,uec --hosts=4 --bytes=20000 --pcap=1 --out=" + out + extra);
        EXPECT_EQ(rc, 2) << text;
        EXPECT_NE(text.find("--pcap: cannot create the pcap folder '" + out + "/uec/'"),
                  std::string::npos)
            << text;
        EXPECT_EQ(text.find("scenario permutation"), std::string::npos) << "it simulated first";
        EXPECT_EQ(text.find("checked"), std::string::npos) << text;
    }
    // without --pcap the file in the way does not matter
    const auto [rc, text] = RunSim("--transports=roce,uec --hosts=4 --checkOnly=1 --out=" + out);
    EXPECT_EQ(rc, 0) << text;
    std::filesystem::remove_all(out);
}

// --checkOnly=1 (the validation runner's and the sweep's probe): good options exit 0 with
// nothing simulated and no result file; a bad option still exits 2 naming it; a --failAt
// past the run's own --simTime is still caught.
TEST(Hardening, CheckOnlySimulatesNothing)
{
    if (Sim().empty())
    {
        GTEST_SKIP() << "mrc-sim not found";
    }
    const std::string out = Scratch("check-only");
    const auto [rc, text] = RunSim("--hosts=4 --checkOnly=1 --out=" + out);
    EXPECT_EQ(rc, 0) << text;
    EXPECT_NE(text.find("options, input files and --out checked"), std::string::npos) << text;
    EXPECT_FALSE(std::filesystem::exists(out + "/summary.json")) << "it simulated";
    const auto [rc2, text2] = RunSim("--hosts=4 --checkOnly=1 --mtu=abc --out=" + out);
    EXPECT_EQ(rc2, 2) << text2;
    EXPECT_NE(text2.find("mtu"), std::string::npos) << text2;
    const auto [rc3, text3] = RunSim(
        "--hosts=4 --checkOnly=1 --failLink=host0:p0-t0-0 --failAt=2ms --simTime=1ms --out=" + out);
    EXPECT_EQ(rc3, 2) << text3;
    EXPECT_NE(text3.find("--failAt='2ms' is not before --simTime='1ms'"), std::string::npos)
        << text3;
    std::filesystem::remove_all(out);
}

// Results are not lost on SIGTERM: the simulation stops at the next event and the files
// hold the simulated time reached (exit code 128 + 15).
TEST(Hardening, SigtermFlushesResults)
{
    if (Sim().empty())
    {
        GTEST_SKIP() << "mrc-sim not found";
    }
    const std::string out = Scratch("sigterm");
    const std::string err = out + ".stderr";
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0)
    {
        // A run of many simulated seconds: it is still running when the signal comes.
        const std::string sim = Sim();
        const std::string outArg = "--out=" + out;
        if (freopen(err.c_str(), "w", stderr) == nullptr ||
            freopen("/dev/null", "w", stdout) == nullptr)
        {
            _exit(99);
        }
        execl(sim.c_str(),
              sim.c_str(),
              "--hosts=16",
              "--bytes=4000000000",
              "--simTime=100s",
              outArg.c_str(),
              static_cast<char*>(nullptr));
        _exit(98);
    }
    // Wait for the first progress line (the simulation runs), at most 60 s.
    bool running = false;
    for (int i = 0; i < 600 && !running; ++i)
    {
        usleep(100000);
        std::ifstream in(err);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        running = text.find("progress:") != std::string::npos;
    }
    EXPECT_TRUE(running) << "no progress line";
    kill(pid, SIGTERM);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
    for (const char* f : {"summary.json", "flows.csv", "fct.txt", "events.csv"})
    {
        EXPECT_TRUE(std::filesystem::exists(out + "/" + f)) << f;
    }
    std::ifstream in(err);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("interrupted by signal 15"), std::string::npos) << text;
    std::filesystem::remove_all(out);
    std::filesystem::remove(err);
}
