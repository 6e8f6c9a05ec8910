/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The parts of mrc-sim's experiments layer on their own: the transport table, the
// scenario presets (text read by the command-line parser), the topology options on a
// command line, the messages of a pattern, htsim triggers, the data-file lookup, the stall
// tracker and the link records of the report.

#include "ns3/config.h"
#include "ns3/mrc-roce-queue-pair.h"
#include "ns3/mrc-scenario.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <algorithm>
#include <filesystem>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

TEST(MrcTransportTable, NamesTypeIdsAndProfiles)
{
    EXPECT_EQ(MrcTransportTable::GetNames(), (std::vector<std::string>{"roce", "uec", "mrc"}));
    EXPECT_EQ(MrcScenarios::GetTransports(), MrcTransportTable::GetNames());
    const MrcTransportInfo& roce = MrcTransportTable::Get("roce");
    const MrcTransportInfo& uec = MrcTransportTable::Get("uec");
    const MrcTransportInfo& mrc = MrcTransportTable::Get("mrc");
    EXPECT_EQ(roce.queuePairType, "ns3::MrcRoceQueuePair");
    EXPECT_EQ(uec.queuePairType, "ns3::MrcUecQueuePair");
    EXPECT_EQ(mrc.queuePairType, "ns3::MrcMultipathQueuePair");
    EXPECT_EQ(MrcScenarios::DefaultProfile("roce"), "roce-deployed");
    EXPECT_EQ(MrcScenarios::DefaultProfile("uec"), "uec-htsim");
    EXPECT_EQ(MrcScenarios::DefaultProfile("mrc"), "mrc");
    EXPECT_EQ(roce.defaultMtu, 4096u);
    EXPECT_EQ(uec.defaultMtu, 4096u);
    EXPECT_EQ(mrc.defaultMtu, 4096u);
    EXPECT_EQ(MrcTransportTable::Find("tcp"), nullptr);
    // Frame sizes of the ideal FCT: RoCE 78 + RETH 16 (+ 8 on the first packet), UEC and
    // MRC 138 - 40 (MRC adds the 40 of SRv6 with srv6 EVs); ACK 82, SACK 154.
    EXPECT_EQ(roce.dataFrameOverhead, 94u);
    EXPECT_EQ(roce.idealFctExtraBytes, 8u);
    EXPECT_EQ(roce.ackFrameBytes, 82u);
    EXPECT_EQ(uec.dataFrameOverhead + uec.srv6EncapBytes, 98u);
    EXPECT_EQ(mrc.dataFrameOverhead + mrc.srv6EncapBytes, 138u);
    EXPECT_EQ(mrc.ackFrameBytes, 154u);
    // Exactly one transport per behaviour.
    EXPECT_TRUE(mrc.usesAllPlanes && mrc.entropyValues);
    EXPECT_FALSE(roce.usesAllPlanes || uec.usesAllPlanes || roce.entropyValues ||
                 uec.entropyValues);
    EXPECT_TRUE(uec.entropySelector && roce.priorityGroups);
    EXPECT_FALSE(roce.entropySelector || mrc.entropySelector || uec.priorityGroups ||
                 mrc.priorityGroups);
    // The lossy fabrics switch PFC off and trim; RoCE keeps the attribute defaults.
    EXPECT_TRUE(roce.fabricDefaults.empty());
    for (const MrcTransportInfo* t : {&uec, &mrc})
    {
        std::map<std::string, std::string> d(t->fabricDefaults.begin(), t->fabricDefaults.end());
        EXPECT_EQ(d.size(), 3u);
        EXPECT_EQ(d["ns3::MrcSwitchNode::TrimmingEnabled"], "true");
        EXPECT_EQ(d["ns3::MrcSharedBufferMmu::PfcPriorityMask"], "0");
    }
    // Every path names an attribute that exists (Config::SetDefault would abort otherwise).
    for (const MrcTransportInfo& t : MrcTransportTable::GetAll())
    {
        for (const auto& [path, value] : t.fabricDefaults)
        {
            EXPECT_TRUE(Config::SetDefaultFailSafe(path, StringValue(value))) << path;
        }
        TypeId tid;
        EXPECT_TRUE(TypeId::LookupByNameFailSafe(t.queuePairType, &tid)) << t.queuePairType;
    }
    Config::Reset();
}

TEST(MrcTransportTableDeathTest, UnknownTransportAbortsNamingTheAllowedOnes)
{
    EXPECT_DEATH(MrcTransportTable::Get("tcp"), "transport 'tcp'.*roce, uec, mrc");
}

TEST(MrcScenarioPresets, EveryPresetParsesAndListsInOrder)
{
    const std::vector<std::string> names = MrcScenarios::GetNames();
    ASSERT_EQ(names.size(), 16u);
    EXPECT_EQ(names.front(), "permutation");
    EXPECT_EQ(names.back(), "htsim");
    std::set<std::string> unique(names.begin(), names.end());
    EXPECT_EQ(unique.size(), names.size());
    for (const MrcScenarioInfo& s : MrcScenarios::GetAll())
    {
        MrcScenarioOptions o;
        EXPECT_EQ(MrcScenarios::ApplyPreset(s.options, o), "") << s.name;
        EXPECT_FALSE(s.description.empty());
        EXPECT_NE(s.options.find("--pattern="), std::string::npos) << s.name;
    }
    std::ostringstream list;
    MrcScenarios::PrintList(list);
    std::string line;
    std::istringstream in(list.str());
    std::size_t n = 0;
    while (std::getline(in, line))
    {
        ASSERT_LT(n, names.size());
        EXPECT_EQ(line.rfind(names[n], 0), 0u);
        // names padded to 14 columns, descriptions after
        EXPECT_EQ(line.find_first_not_of(' ', names[n].size()),
                  std::max<std::size_t>(14, names[n].size() + 1));
        ++n;
    }
    EXPECT_EQ(n, names.size());
}

TEST(MrcScenarioPresets, PresetSetsExactlyTheNamedOptions)
{
    MrcScenarioOptions o;
    MrcScenarios::Find("failover")->preset(o);
    EXPECT_EQ(o.pattern, "permutation");
    EXPECT_EQ(o.transports, "roce,uec,mrc");
    EXPECT_EQ(o.topo.planes, "4");
    EXPECT_EQ(o.topo.hosts, "8");
    EXPECT_EQ(o.topo.t1PerPlane, "2");
    EXPECT_EQ(o.bytes, "20000000");
    EXPECT_EQ(o.failLink, "p0-t0-0:p0-t1-0");
    EXPECT_EQ(o.failAt, "150us");
    EXPECT_EQ(o.simTime, "50ms");
    // everything else keeps its default
    const MrcScenarioOptions d;
    std::map<std::string, std::string> a = o.ToMap();
    std::map<std::string, std::string> b = d.ToMap();
    std::size_t differ = 0;
    for (const auto& [k, v] : a)
    {
        differ += b.at(k) != v ? 1 : 0;
    }
    EXPECT_EQ(differ,
              8u); // transports, planes, hosts, t1PerPlane, bytes, failLink, failAt, simTime

    MrcScenarioOptions h;
    MrcScenarios::Find("htsim")->preset(h);
    EXPECT_EQ(h.pattern, "file");
    EXPECT_EQ(h.transport, "uec");
    EXPECT_EQ(h.topoFile, "data/htsim/fattree-16.topo");
    EXPECT_EQ(h.flowFile, "data/htsim/sample.cm");
    MrcScenarioOptions p;
    MrcScenarios::Find("perm128-mrc")->preset(p);
    EXPECT_EQ(p.sampleInterval, "0");
    EXPECT_EQ(p.topo.hostsPerT0, "16");
    // perm128-uec: the same shape on one plane, UEC with its default profile
    MrcScenarioOptions u;
    MrcScenarios::Find("perm128-uec")->preset(u);
    EXPECT_EQ(u.transport, "uec");
    EXPECT_EQ(u.topo.hosts, "128");
    EXPECT_EQ(u.topo.hostsPerT0, "16");
    EXPECT_EQ(u.topo.t1PerPlane, "8");
    EXPECT_EQ(u.topo.planes, d.topo.planes);
    EXPECT_EQ(u.topo.mtu, d.topo.mtu);
    EXPECT_EQ(u.profile, d.profile);
    EXPECT_EQ(u.bytes, "2000000");
}

TEST(MrcScenarioPresets, BadPresetTextIsReported)
{
    MrcScenarioOptions o;
    EXPECT_NE(MrcScenarios::ApplyPreset("--nosuch=1", o).find("nosuch"), std::string::npos);
    EXPECT_NE(MrcScenarios::ApplyPreset("stray", o).find("stray"), std::string::npos);
    EXPECT_EQ(MrcScenarios::ApplyPreset("--senders=3 --pattern=incast", o), "");
    EXPECT_EQ(o.senders, "3");
    EXPECT_EQ(o.pattern, "incast");
}

TEST(MrcTopologyOptions, RegistersTheFabricOptionsInOrder)
{
    MrcCommandLine cmd;
    MrcTopologyOptions topo;
    topo.Register(cmd);
    EXPECT_EQ(cmd.GetNames(),
              (std::vector<std::string>{"topology",
                                        "planes",
                                        "hosts",
                                        "hostsPerT0",
                                        "t1PerPlane",
                                        "uplinksPerT0",
                                        "k",
                                        "hostRate",
                                        "fabricRate",
                                        "coreRate",
                                        "linkDelay",
                                        "hostLinkDelay",
                                        "coreLinkDelay",
                                        "mtu"}));
    EXPECT_EQ(cmd.Check({"--planes=2", "--topology=fattree"}), "");
    std::vector<std::string> args{"prog", "--planes=3", "--hostRate=400Gbps"};
    std::vector<char*> argv;
    for (auto& a : args)
    {
        argv.push_back(a.data());
    }
    cmd.Parse(static_cast<int>(argv.size()), argv.data());
    const MrcTopologyConfig c = topo.ToConfig();
    EXPECT_EQ(c.planes, 3u);
    EXPECT_EQ(c.hostRate, DataRate("400Gbps"));
}

TEST(MrcScenarioWorkload, PatternsGiveExactMessageCounts)
{
    MrcScenarioConfig c;
    c.topology.hosts = 16;
    c.topology.hostsPerT0 = 4;
    c.bytes = 1001;
    c.qpsPerPair = 3;
    c.pattern = "permutation";
    std::vector<MrcFlowSpec> m = MrcScenarioWorkload::MakeMessages(c, 16);
    ASSERT_EQ(m.size(), 48u);
    // 1001 = 334 + 334 + 333, each flow's parts consecutive
    EXPECT_EQ(m[0].bytes, 334u);
    EXPECT_EQ(m[1].bytes, 334u);
    EXPECT_EQ(m[2].bytes, 333u);
    EXPECT_EQ(m[0].dst, m[2].dst);
    const std::vector<uint32_t> d = MrcScenarioWorkload::Derangement(16, c.seed);
    EXPECT_EQ(MrcScenarioRunner::Derangement(16, c.seed), d);
    std::set<uint32_t> dsts(d.begin(), d.end());
    EXPECT_EQ(dsts.size(), 16u);
    for (uint32_t i = 0; i < 16; ++i)
    {
        EXPECT_NE(d[i], i);
        EXPECT_EQ(m[3 * i].src, i);
        EXPECT_EQ(m[3 * i].dst, d[i]);
    }
    c.qpsPerPair = 1;
    c.pattern = "incast";
    c.senders = 5;
    m = MrcScenarioWorkload::MakeMessages(c, 16);
    ASSERT_EQ(m.size(), 5u);
    for (std::size_t i = 0; i < m.size(); ++i)
    {
        EXPECT_EQ(m[i].dst, 15u);
        EXPECT_LT(m[i].src, 15u);
        EXPECT_TRUE(i == 0 || m[i - 1].src < m[i].src); // ascending
    }
    c.pattern = "incast-victim";
    m = MrcScenarioWorkload::MakeMessages(c, 16);
    ASSERT_EQ(m.size(), 6u);
    for (std::size_t i = 0; i < 5; ++i)
    {
        EXPECT_LT(m[i].src, 12u); // outside the receiver's rack (hosts 12..15)
    }
    EXPECT_EQ(m[5].kind, MrcFlowKind::VICTIM);
    EXPECT_GE(m[5].dst, 12u);
    c.pattern = "alltoall";
    EXPECT_EQ(MrcScenarioWorkload::MakeMessages(c, 16).size(), 16u * 15u);
}

TEST(MrcHtsimTriggers, OneshotMultishotAndBarrier)
{
    MrcHtsimConnectionMatrix cm;
    cm.triggers = {{1, MrcHtsimTrigger::ONESHOT, 0, 0},
                   {2, MrcHtsimTrigger::MULTISHOT, 0, 0},
                   {3, MrcHtsimTrigger::BARRIER, 2, 0}};
    for (uint32_t t : {1, 2, 2, 3, 1, 2})
    {
        MrcHtsimConnection k;
        k.trigger = t;
        cm.connections.push_back(k);
    }
    MrcHtsimConnection timed;
    timed.hasStart = true;
    cm.connections.push_back(timed);
    MrcHtsimTriggers tr;
    tr.Load(cm);
    EXPECT_EQ(tr.Activate(1), (std::vector<std::size_t>{0, 4}));
    EXPECT_TRUE(tr.Activate(1).empty()); // once only
    EXPECT_EQ(tr.Activate(2), (std::vector<std::size_t>{1}));
    EXPECT_EQ(tr.Activate(2), (std::vector<std::size_t>{2}));
    EXPECT_EQ(tr.Activate(2), (std::vector<std::size_t>{5}));
    EXPECT_TRUE(tr.Activate(2).empty());
    EXPECT_TRUE(tr.Activate(3).empty()); // 1 of 2
    EXPECT_EQ(tr.Activate(3), (std::vector<std::size_t>{3}));
    EXPECT_TRUE(tr.Activate(3).empty());
    EXPECT_TRUE(tr.Activate(9).empty()); // no such trigger
}

TEST(MrcScenarioInputs, FindsDataFilesFromAnyFolder)
{
    namespace fs = std::filesystem;
    const fs::path here = fs::current_path();
    // From the root folder: found through the executable's folder upwards.
    fs::current_path("/");
    const std::string f = MrcScenarioInputs::FindDataFile("data/hpcc/topology.txt");
    const std::string cdf = MrcScenarioInputs::FindCdfFile("websearch");
    fs::current_path(here);
    EXPECT_TRUE(fs::exists(f)) << f;
    EXPECT_NE(f, "data/hpcc/topology.txt");
    EXPECT_TRUE(fs::exists(cdf)) << cdf;
    EXPECT_EQ(MrcScenarioInputs::FindDataFile("/no/such/file"), "/no/such/file");
    EXPECT_EQ(MrcScenarioInputs::FindDataFile("data/no-such"), "data/no-such");
    EXPECT_EQ(MrcScenarioInputs::FindCdfFile("a/path.txt"), "a/path.txt");
}

TEST(MrcStallTracker, LongestGapWithoutProgressPerMessage)
{
    // Responders that never place a byte: the gap runs from the start to the end given.
    Ptr<MrcEventLog> log = CreateObject<MrcEventLog>();
    MrcStallTracker t;
    t.SetEventLog(log);
    t.Add(CreateObject<MrcRoceQueuePair>(), MicroSeconds(10));
    t.Add(CreateObject<MrcRoceQueuePair>(), MicroSeconds(20));
    t.Add(CreateObject<MrcRoceQueuePair>(), MicroSeconds(0));
    EXPECT_EQ(t.GetN(), 3u);
    Simulator::Schedule(MicroSeconds(50), [&t]() { t.OnRx(0); });
    Simulator::Schedule(MicroSeconds(80), [&t]() { t.Close(0, -1); });
    Simulator::Schedule(MicroSeconds(100), [&t]() { t.CloseOpen(); });
    Simulator::Run();
    Simulator::Destroy();
    const std::vector<MrcEventRecord>& r = log->GetRecords();
    ASSERT_EQ(r.size(), 3u); // one per message, message 0 not closed twice
    EXPECT_EQ(r[0].kind, "flow_stall");
    EXPECT_EQ(r[0].where, "flow0");
    EXPECT_EQ(r[0].detail, "max_stall_ns=0 from_ns=10000"); // closed at completion
    EXPECT_EQ(r[0].time, MicroSeconds(80));
    EXPECT_EQ(r[1].where, "flow1");
    EXPECT_EQ(r[1].detail, "max_stall_ns=80000 from_ns=20000"); // open at the end
    EXPECT_EQ(r[2].detail, "max_stall_ns=100000 from_ns=0");
}

TEST(MrcScenarioReport, LinkRecordsOfAnIdleFabric)
{
    MrcTopologyConfig c;
    c.planes = 2;
    c.hosts = 8;
    c.hostsPerT0 = 4;
    c.t1PerPlane = 2;
    MrcTopologyHelper th(c);
    th.SetNames(false);
    Ptr<MrcTopology> topo = th.Build();
    MrcRunResults results;
    MrcScenarioReport::ConnectPfcLog(topo, &results, "roce");
    EXPECT_EQ(MrcScenarioReport::CollectLinks(topo, results, "roce"), 0u); // no frame sent
    const MrcTransportCounters& tc = results.GetCounters("roce");
    // per plane: 8 host links + 2 T0 x 2 T1; a record per direction
    EXPECT_EQ(topo->GetNLinks(), 2u * (8u + 4u));
    EXPECT_EQ(results.GetLinks().size(), 2u * topo->GetNLinks());
    for (const MrcLinkRecord& r : results.GetLinks())
    {
        EXPECT_EQ(r.packets, 0u);
        EXPECT_EQ(r.bytes, 0u);
        EXPECT_EQ(r.rateBps, 100000000000ULL);
        EXPECT_EQ(r.transport, "roce");
    }
    EXPECT_EQ(tc.drops, 0u);
    EXPECT_EQ(tc.pfcPauseFrames, 0u);
    EXPECT_EQ(MrcScenarioReport::TxBytes(topo->GetNicPort(0, 1)), 0u);
    EXPECT_GT(MrcScenarioReport::PeakRssKb(), 0u);
    Simulator::Destroy();
}

TEST(MrcScenarioSeries, HostSeriesAndNoQueueSeriesOnAnIdleFabric)
{
    MrcTopologyConfig c;
    c.planes = 2;
    c.hosts = 8;
    c.hostsPerT0 = 4;
    c.t1PerPlane = 2;
    MrcTopologyHelper th(c);
    th.SetNames(false);
    Ptr<MrcTopology> topo = th.Build();
    MrcRunResults results;
    MrcScenarioSeries s;
    s.SetResults(&results);
    s.AddHosts(topo, "");
    s.AddSwitchQueues(topo, "roce");
    // two series per host, in host order; queues only once non-empty
    ASSERT_EQ(results.GetSeries().size(), 16u);
    EXPECT_EQ(results.GetSeries()[0].entity, "host0");
    EXPECT_EQ(results.GetSeries()[0].metric, "tx_gbps");
    EXPECT_EQ(results.GetSeries()[1].metric, "rx_gbps");
    EXPECT_EQ(results.GetSeries()[15].entity, "host7");
    Simulator::Schedule(MicroSeconds(10), [&s]() { s.Sample(MicroSeconds(10), {}); });
    Simulator::Schedule(MicroSeconds(20), [&s]() { s.Sample(MicroSeconds(10), {}); });
    Simulator::Run();
    EXPECT_EQ(results.GetSeries().size(), 16u); // no queue ever non-empty
    ASSERT_EQ(results.GetSamples().size(), 32u);
    for (const auto& sample : results.GetSamples())
    {
        EXPECT_EQ(sample.value, 0.0);
        EXPECT_TRUE(sample.timeNs == 10000 || sample.timeNs == 20000);
    }
    Simulator::Destroy();
}
