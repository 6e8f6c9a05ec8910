/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Tests of MrcEventLog and MrcFailureInjector on a small named leaf-spine:
//
//        t1-0      t1-1         t0-0: port 0 -> t1-0, port 1 -> t1-1, port 2 -> h0
//        |   \    /   |         t0-1: port 0 -> t1-0, port 1 -> t1-1, port 2 -> h1
//        |    \  /    |         t1-0, t1-1: port 0 -> t0-0, port 1 -> t0-1
//        |     \/     |         h0, h1: interface 0
//        t0-0       t0-1
//         |           |
//         h0          h1
//
// Every device notices a change after LinkDownDetectDelay = 2 us / LinkUpDetectDelay = 5 us.

#include "mrc-test-support.h"

#include "ns3/error-model.h"
#include "ns3/mrc-channel.h"
#include "ns3/mrc-event-log.h"
#include "ns3/mrc-failure-injector.h"
#include "ns3/mrc-link-helper.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-switch-helper.h"
#include "ns3/mrc-switch-node.h"
#include "ns3/names.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;
using ns3::MrcTest::ReadFile;
using ns3::MrcTest::TempDir;

namespace
{

constexpr uint16_t TEST_ETHER_TYPE = 0x88B5; ///< IEEE 802 local experimental EtherType

/// The named leaf-spine of the file comment.
struct Fabric
{
    Ptr<Node> t00, t01, t10, t11, h0, h1;
    Ptr<MrcChannel> t00t10, t00t11, t01t10, t01t11, h0link, h1link;

    /// \return the device of a switch port
    static Ptr<MrcNetDevice> Port(Ptr<Node> sw, uint32_t port)
    {
        return DynamicCast<MrcSwitchNode>(sw)->GetPort(port);
    }

    /// \return the host's NIC
    static Ptr<MrcNetDevice> Nic(Ptr<Node> host)
    {
        return DynamicCast<MrcNetDevice>(host->GetDevice(0));
    }

    /// \return every link
    std::vector<Ptr<MrcChannel>> All() const
    {
        return {t00t10, t00t11, t01t10, t01t11, h0link, h1link};
    }
};

void
Build(Fabric& f)
{
    MrcSwitchHelper sh;
    NodeContainer sw = sh.Create(4);
    f.t00 = sw.Get(0);
    f.t01 = sw.Get(1);
    f.t10 = sw.Get(2);
    f.t11 = sw.Get(3);
    f.h0 = CreateObject<Node>();
    f.h1 = CreateObject<Node>();
    Names::Add("t0-0", f.t00);
    Names::Add("t0-1", f.t01);
    Names::Add("t1-0", f.t10);
    Names::Add("t1-1", f.t11);
    Names::Add("h0", f.h0);
    Names::Add("h1", f.h1);
    MrcLinkHelper link;
    link.SetDeviceAttribute("LinkDownDetectDelay", TimeValue(MicroSeconds(2)));
    link.SetDeviceAttribute("LinkUpDetectDelay", TimeValue(MicroSeconds(5)));
    MrcSwitchHelper::ConnectSwitches(link, f.t00, f.t10);
    MrcSwitchHelper::ConnectSwitches(link, f.t00, f.t11);
    MrcSwitchHelper::ConnectSwitches(link, f.t01, f.t10);
    MrcSwitchHelper::ConnectSwitches(link, f.t01, f.t11);
    MrcSwitchHelper::ConnectHost(link, f.t00, f.h0);
    MrcSwitchHelper::ConnectHost(link, f.t01, f.h1);
    f.t00t10 = Fabric::Port(f.t00, 0)->GetMrcChannel();
    f.t00t11 = Fabric::Port(f.t00, 1)->GetMrcChannel();
    f.t01t10 = Fabric::Port(f.t01, 0)->GetMrcChannel();
    f.t01t11 = Fabric::Port(f.t01, 1)->GetMrcChannel();
    f.h0link = Fabric::Port(f.t00, 2)->GetMrcChannel();
    f.h1link = Fabric::Port(f.t01, 2)->GetMrcChannel();
}

/// Tear down the simulator and the global names.
void
Finish()
{
    Simulator::Destroy();
    Names::Clear();
}

/// The records as "time_ns kind where detail" lines.
std::vector<std::string>
Lines(Ptr<MrcEventLog> log)
{
    std::vector<std::string> out;
    for (const auto& r : log->GetRecords())
    {
        out.push_back(std::to_string(r.time.GetNanoSeconds()) + " " + r.kind + " " + r.where + " " +
                      r.detail);
    }
    return out;
}

/// Link states sampled at chosen times.
struct Sampler
{
    std::vector<bool> channelUp; ///< MrcChannel::IsLinkUp
    std::vector<bool> deviceUp;  ///< the given device's IsLinkUp

    void At(Time t, Ptr<MrcChannel> ch, Ptr<MrcNetDevice> dev)
    {
        Simulator::Schedule(t, [this, ch, dev]() {
            channelUp.push_back(ch->IsLinkUp());
            deviceUp.push_back(dev->IsLinkUp());
        });
    }
};

/// Schedule the mixed scenario of EventsCsvIsExact and return its events.csv.
std::string
RunMixedScenario()
{
    Fabric f;
    Build(f);
    Ptr<MrcFailureInjector> fi = CreateObject<MrcFailureInjector>();
    fi->LinkDown(f.t00t10, MilliSeconds(1));
    fi->LinkUp(Fabric::Port(f.t10, 0), MilliSeconds(3)); // the same link, by its other end
    fi->NicPortDown(Fabric::Nic(f.h1), MilliSeconds(2));
    fi->SwitchDown(f.t11, MilliSeconds(2));
    fi->NicPortUp(Fabric::Nic(f.h1), MilliSeconds(4));
    fi->LinkDown(f.t01t11, MicroSeconds(4500));
    fi->SwitchUp(f.t11, MilliSeconds(5));
    fi->LinkUp(f.t01t11, MilliSeconds(6));
    fi->GrayFailure(Fabric::Port(f.t01, 0), 0.25, MilliSeconds(1), MilliSeconds(7));
    fi->AssignStreams(11);
    Simulator::Run();
    std::string csv = fi->GetEventLog()->ToCsv();
    Finish();
    return csv;
}

const char* const MIXED_CSV = "time_ns,kind,where,detail\n"
                              "1000000,link_down,t0-0:0-t1-0:0,\n"
                              "1000000,gray_failure_start,t0-1:0->t1-0:1,loss=0.25\n"
                              "2000000,port_down,h1:0,\n"
                              "2000000,switch_down,t1-1,links=2\n"
                              "3000000,link_up,t0-0:0-t1-0:0,\n"
                              "4000000,port_up,h1:0,\n"
                              "4500000,link_down,t0-1:1-t1-1:1,\n"
                              "5000000,switch_up,t1-1,links=2; still down: t0-1:1-t1-1:1 (link)\n"
                              "6000000,link_up,t0-1:1-t1-1:1,\n"
                              "7000000,gray_failure_stop,t0-1:0->t1-0:1,\n";

void
SendFrames(Ptr<MrcNetDevice> dev, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i)
    {
        dev->SendToClass(Create<Packet>(100), TEST_ETHER_TYPE, 0);
    }
}

} // namespace

// ---------------------------------------------------------------- event log

TEST(MrcEventLog, OrdersByTimeThenRecordingOrder)
{
    Ptr<MrcEventLog> log = CreateObject<MrcEventLog>();
    std::vector<std::string> traced;
    log->TraceConnectWithoutContext(
        "Record",
        MakeBoundCallback(
            +[](std::vector<std::string>* t, const MrcEventRecord& r) { t->push_back(r.kind); },
            &traced));
    log->Record(MicroSeconds(5), "b_late", "x", "");
    log->Record(MicroSeconds(1), "a_early", "x", "");
    log->Record(MicroSeconds(5), "c_late_second", "x", "");
    log->Record(MicroSeconds(1), "d_early_second", "x", "");
    log->Record(Seconds(0), "e_first", "x", "");
    EXPECT_EQ(log->GetN(), 5u);
    EXPECT_EQ(Lines(log),
              (std::vector<std::string>{"0 e_first x ",
                                        "1000 a_early x ",
                                        "1000 d_early_second x ",
                                        "5000 b_late x ",
                                        "5000 c_late_second x "}));
    // The trace fires once per record, in recording order.
    EXPECT_EQ(traced,
              (std::vector<std::string>{"b_late",
                                        "a_early",
                                        "c_late_second",
                                        "d_early_second",
                                        "e_first"}));
    log->Clear();
    EXPECT_EQ(log->GetN(), 0u);
    EXPECT_EQ(log->ToCsv(), "time_ns,kind,where,detail\n");
}

TEST(MrcEventLog, QuotesFieldsAsRfc4180)
{
    Ptr<MrcEventLog> log = CreateObject<MrcEventLog>();
    log->Record(NanoSeconds(42), MrcEventKind::QP_ERROR, "h0:0,qp 3", "said \"no\"");
    log->Record(NanoSeconds(43), MrcEventKind::EV_STATE, "plain", "line1\nline2");
    log->Record(NanoSeconds(44), "ev_state", "", "cr\rhere");
    EXPECT_EQ(log->ToCsv(),
              "time_ns,kind,where,detail\n"
              "42,qp_error,\"h0:0,qp 3\",\"said \"\"no\"\"\"\n"
              "43,ev_state,plain,\"line1\nline2\"\n"
              "44,ev_state,,\"cr\rhere\"\n");
    EXPECT_EQ(MrcEventLog::CsvField("a\"b"), "\"a\"\"b\"");
    EXPECT_EQ(MrcEventLog::CsvField("p0-t0-1:3-p0-t1-0:1"), "p0-t0-1:3-p0-t1-0:1");
}

TEST(MrcEventLog, WritesTheFileByteForByte)
{
    Ptr<MrcEventLog> log = CreateObject<MrcEventLog>();
    log->Record(MilliSeconds(2), MrcEventKind::LINK_UP, "a:0-b:1", "");
    log->Record(MilliSeconds(1), MrcEventKind::LINK_DOWN, "a:0-b:1", "x,y");
    std::string path = TempDir("mrc-failure") + "/events.csv";
    log->WriteCsv(path);
    EXPECT_EQ(ReadFile(path),
              "time_ns,kind,where,detail\n"
              "1000000,link_down,a:0-b:1,\"x,y\"\n"
              "2000000,link_up,a:0-b:1,\n");
    std::remove(path.c_str());
}

TEST(MrcEventLogDeathTest, RejectsBadRecords)
{
    Ptr<MrcEventLog> log = CreateObject<MrcEventLog>();
    EXPECT_DEATH(log->Record(NanoSeconds(-1), "link_down", "x", ""), "time -1 ns is negative");
    EXPECT_DEATH(log->Record(Seconds(0), "Link-Down", "x", ""), "kind \"Link-Down\"");
    EXPECT_DEATH(log->Record(Seconds(0), "", "x", ""), "snake_case");
    EXPECT_DEATH(log->WriteCsv(std::string("/nonexistent-dir/events.csv")),
                 "cannot open \"/nonexistent-dir/events.csv\"");
}

// ---------------------------------------------------------------- names

TEST(MrcFailureInjector, NamesNodesPortsLinksAndDirections)
{
    Fabric f;
    Build(f);
    EXPECT_EQ(MrcFailureInjector::LinkName(f.t00t10), "t0-0:0-t1-0:0");
    EXPECT_EQ(MrcFailureInjector::LinkName(f.t01t11), "t0-1:1-t1-1:1");
    EXPECT_EQ(MrcFailureInjector::LinkName(f.h1link), "t0-1:2-h1:0");
    EXPECT_EQ(MrcFailureInjector::PortName(Fabric::Nic(f.h0)), "h0:0");
    EXPECT_EQ(MrcFailureInjector::DirectionName(Fabric::Port(f.t11, 1)), "t1-1:1->t0-1:1");
    Ptr<Node> unnamed = CreateObject<Node>();
    EXPECT_EQ(MrcFailureInjector::NodeName(unnamed), "node" + std::to_string(unnamed->GetId()));
    EXPECT_EQ(MrcFailureInjector::FindNode("t1-1"), f.t11);
    EXPECT_EQ(MrcFailureInjector::FindNode("node" + std::to_string(f.h1->GetId())), f.h1);
    EXPECT_EQ(MrcFailureInjector::FindNode("node999"), nullptr);
    EXPECT_EQ(MrcFailureInjector::FindNode("nope"), nullptr);
    EXPECT_EQ(MrcFailureInjector::FindLink("t1-0", "t0-1"), f.t01t10);
    EXPECT_EQ(MrcFailureInjector::FindLink("h0", "t0-0"), f.h0link);
    Finish();
}

// ---------------------------------------------------------------- link state

TEST(MrcFailureInjector, LinkDownAndUpAtExactTimesWithDetectionDelays)
{
    Fabric f;
    Build(f);
    Ptr<MrcFailureInjector> fi = CreateObject<MrcFailureInjector>();
    fi->LinkDown(f.t00t10, MilliSeconds(1));
    fi->LinkUp(f.t00t10, MilliSeconds(2));
    Ptr<MrcNetDevice> end = Fabric::Port(f.t00, 0);
    Sampler s;
    const Time ns = NanoSeconds(1);
    s.At(MilliSeconds(1) - ns, f.t00t10, end);                   // before
    s.At(MilliSeconds(1) + ns, f.t00t10, end);                   // cut, not yet noticed
    s.At(MilliSeconds(1) + MicroSeconds(2) - ns, f.t00t10, end); // just before detection
    s.At(MilliSeconds(1) + MicroSeconds(2) + ns, f.t00t10, end); // noticed
    s.At(MilliSeconds(2) + ns, f.t00t10, end);                   // repaired, not yet noticed
    s.At(MilliSeconds(2) + MicroSeconds(5) - ns, f.t00t10, end); // just before detection
    s.At(MilliSeconds(2) + MicroSeconds(5) + ns, f.t00t10, end); // noticed
    Simulator::Run();
    EXPECT_EQ(s.channelUp, (std::vector<bool>{true, false, false, false, true, true, true}));
    EXPECT_EQ(s.deviceUp, (std::vector<bool>{true, true, true, false, false, false, true}));
    EXPECT_EQ(Lines(fi->GetEventLog()),
              (std::vector<std::string>{"1000000 link_down t0-0:0-t1-0:0 ",
                                        "2000000 link_up t0-0:0-t1-0:0 "}));
    // The other links were never touched.
    EXPECT_TRUE(f.t00t11->IsLinkUp());
    EXPECT_TRUE(f.h0link->IsLinkUp());
    Finish();
}

TEST(MrcFailureInjector, FlapMakesTwoRecordsPerCycle)
{
    Fabric f;
    Build(f);
    Ptr<MrcFailureInjector> fi = CreateObject<MrcFailureInjector>();
    std::vector<std::pair<int64_t, bool>> changes;
    f.t01t10->TraceConnectWithoutContext(
        "LinkStateChange",
        MakeBoundCallback(
            +[](std::vector<std::pair<int64_t, bool>>* c, bool up) {
                c->emplace_back(Simulator::Now().GetNanoSeconds(), up);
            },
            &changes));
    fi->Flap(f.t01t10, MicroSeconds(100), MicroSeconds(50), 3, MicroSeconds(10));
    fi->Flap(f.t00t11, MicroSeconds(500), MicroSeconds(40), 1);
    Simulator::Run();
    EXPECT_EQ(fi->GetEventLog()->GetN(), 2u * 3 + 2u * 1);
    EXPECT_EQ(Lines(fi->GetEventLog()),
              (std::vector<std::string>{"100000 link_down t0-1:0-t1-0:1 flap 1/3",
                                        "110000 link_up t0-1:0-t1-0:1 flap 1/3",
                                        "150000 link_down t0-1:0-t1-0:1 flap 2/3",
                                        "160000 link_up t0-1:0-t1-0:1 flap 2/3",
                                        "200000 link_down t0-1:0-t1-0:1 flap 3/3",
                                        "210000 link_up t0-1:0-t1-0:1 flap 3/3",
                                        "500000 link_down t0-0:1-t1-1:0 flap 1/1",
                                        "520000 link_up t0-0:1-t1-1:0 flap 1/1"}));
    EXPECT_EQ(changes,
              (std::vector<std::pair<int64_t, bool>>{{100000, false},
                                                     {110000, true},
                                                     {150000, false},
                                                     {160000, true},
                                                     {200000, false},
                                                     {210000, true}}));
    EXPECT_TRUE(f.t01t10->IsLinkUp());
    Finish();
}

TEST(MrcFailureInjector, SwitchDownTakesAllItsLinksDown)
{
    Fabric f;
    Build(f);
    Ptr<MrcFailureInjector> fi = CreateObject<MrcFailureInjector>();
    fi->SwitchDown(f.t00, MilliSeconds(1));
    fi->SwitchUp(f.t00, MilliSeconds(2));
    std::vector<std::vector<bool>> states;
    auto sample = [&f, &states]() {
        std::vector<bool> s;
        for (const auto& l : f.All())
        {
            s.push_back(l->IsLinkUp());
        }
        states.push_back(s);
    };
    Simulator::Schedule(MicroSeconds(999), sample);
    Simulator::Schedule(MicroSeconds(1001), sample);
    Simulator::Schedule(MicroSeconds(2001), sample);
    Simulator::Run();
    // t00t10, t00t11, t01t10, t01t11, h0link, h1link
    EXPECT_EQ(states,
              (std::vector<std::vector<bool>>{{true, true, true, true, true, true},
                                              {false, false, true, true, false, true},
                                              {true, true, true, true, true, true}}));
    EXPECT_EQ(Lines(fi->GetEventLog()),
              (std::vector<std::string>{"1000000 switch_down t0-0 links=3",
                                        "2000000 switch_up t0-0 links=3"}));
    Finish();
}

TEST(MrcFailureInjector, OverlappingCausesKeepALinkDownUntilTheLast)
{
    Fabric f;
    Build(f);
    Ptr<MrcFailureInjector> fi = CreateObject<MrcFailureInjector>();
    NodeContainer plane1;
    plane1.Add(f.t11);
    fi->SwitchDown(f.t10, MilliSeconds(1));       // t00t10, t01t10
    fi->PlaneDown("p1", plane1, MilliSeconds(2)); // t00t11, t01t11
    fi->LinkDown(f.t00t10, MilliSeconds(3));      // already down by t1-0
    fi->SwitchUp(f.t10, MilliSeconds(4));         // t00t10 stays down (link)
    fi->PlaneUp("p1", MilliSeconds(5));
    fi->LinkUp(f.t00t10, MilliSeconds(6));
    fi->PlaneUp("p9", MilliSeconds(7));                         // never down
    fi->PlaneDown("p2", {f.h0link, f.h0link}, MilliSeconds(8)); // listed twice, counted once
    std::vector<std::vector<bool>> states;
    auto sample = [&f, &states]() {
        states.push_back({f.t00t10->IsLinkUp(),
                          f.t01t10->IsLinkUp(),
                          f.t00t11->IsLinkUp(),
                          f.t01t11->IsLinkUp()});
    };
    for (int ms = 1; ms <= 7; ++ms)
    {
        Simulator::Schedule(MilliSeconds(ms) + NanoSeconds(1), sample);
    }
    Simulator::Schedule(MilliSeconds(4) + NanoSeconds(1), [&fi, &f]() {
        EXPECT_EQ(fi->GetDownCauses(f.t00t10), (std::vector<std::string>{"link"}));
    });
    Simulator::Schedule(MilliSeconds(3) + NanoSeconds(1), [&fi, &f]() {
        EXPECT_EQ(fi->GetDownCauses(f.t00t10), (std::vector<std::string>{"switch t1-0", "link"}));
        EXPECT_EQ(fi->GetDownCauses(f.t01t11), (std::vector<std::string>{"plane p1"}));
    });
    Simulator::Run();
    EXPECT_EQ(states,
              (std::vector<std::vector<bool>>{{false, false, true, true},
                                              {false, false, false, false},
                                              {false, false, false, false},
                                              {false, true, false, false},
                                              {false, true, true, true},
                                              {true, true, true, true},
                                              {true, true, true, true}}));
    EXPECT_EQ(Lines(fi->GetEventLog()),
              (std::vector<std::string>{
                  "1000000 switch_down t1-0 links=2",
                  "2000000 plane_down p1 links=2",
                  "3000000 link_down t0-0:0-t1-0:0 ",
                  "4000000 switch_up t1-0 links=2; still down: t0-0:0-t1-0:0 (link)",
                  "5000000 plane_up p1 links=2",
                  "6000000 link_up t0-0:0-t1-0:0 ",
                  "7000000 plane_up p9 links=0; the plane was not down",
                  "8000000 plane_down p2 links=1"}));
    EXPECT_FALSE(f.h0link->IsLinkUp());
    EXPECT_EQ(fi->GetDownCauses(f.h0link), (std::vector<std::string>{"plane p2"}));
    Finish();
}

TEST(MrcFailureInjector, NicPortDownCutsTheHostLink)
{
    Fabric f;
    Build(f);
    Ptr<MrcFailureInjector> fi = CreateObject<MrcFailureInjector>();
    Ptr<MrcNetDevice> nic = Fabric::Nic(f.h0);
    fi->NicPortDown(nic, MicroSeconds(10));
    fi->NicPortUp(nic, MicroSeconds(20));
    Sampler s;
    s.At(MicroSeconds(11), f.h0link, nic);
    s.At(MicroSeconds(13), f.h0link, nic);
    s.At(MicroSeconds(21), f.h0link, nic);
    s.At(MicroSeconds(26), f.h0link, nic);
    Simulator::Run();
    EXPECT_EQ(s.channelUp, (std::vector<bool>{false, false, true, true}));
    EXPECT_EQ(s.deviceUp, (std::vector<bool>{true, false, false, true}));
    EXPECT_EQ(Lines(fi->GetEventLog()),
              (std::vector<std::string>{"10000 port_down h0:0 ", "20000 port_up h0:0 "}));
    Finish();
}

// ---------------------------------------------------------------- gray failure

TEST(MrcFailureInjector, GrayFailureDropsOneDirectionOnly)
{
    NodeContainer n;
    n.Create(2);
    Names::Add("a", n.Get(0));
    Names::Add("b", n.Get(1));
    MrcLinkHelper link;
    NetDeviceContainer d = link.Install(n.Get(0), n.Get(1));
    Ptr<MrcNetDevice> a = DynamicCast<MrcNetDevice>(d.Get(0));
    Ptr<MrcNetDevice> b = DynamicCast<MrcNetDevice>(d.Get(1));
    Ptr<MrcFailureInjector> fi = CreateObject<MrcFailureInjector>();
    fi->GrayFailure(a, 1.0, MilliSeconds(1), MilliSeconds(2)); // a -> b loses everything
    fi->GrayFailure(b, 0.0, MilliSeconds(1), MilliSeconds(2)); // b -> a loses nothing
    EXPECT_EQ(fi->AssignStreams(5), 2);
    // 10 frames each way before, 20 during, 5 after the failure window.
    Simulator::Schedule(MicroSeconds(500), &SendFrames, a, 10);
    Simulator::Schedule(MicroSeconds(500), &SendFrames, b, 10);
    Simulator::Schedule(MicroSeconds(1500), &SendFrames, a, 20);
    Simulator::Schedule(MicroSeconds(1500), &SendFrames, b, 20);
    Simulator::Schedule(MicroSeconds(2500), &SendFrames, a, 5);
    Simulator::Schedule(MicroSeconds(2500), &SendFrames, b, 5);
    Simulator::Run();
    EXPECT_EQ(b->GetRxPackets(0), 15u);
    EXPECT_EQ(b->GetDropPackets(MrcDropReason::ERROR_MODEL), 20u);
    EXPECT_EQ(a->GetRxPackets(0), 35u);
    EXPECT_EQ(a->GetDropPackets(MrcDropReason::ERROR_MODEL), 0u);
    // The receivers had no error model before: the injected one is switched off.
    PointerValue em;
    b->GetAttribute("ReceiveErrorModel", em);
    ASSERT_NE(em.Get<ErrorModel>(), nullptr);
    EXPECT_FALSE(em.Get<ErrorModel>()->IsEnabled());
    EXPECT_EQ(Lines(fi->GetEventLog()),
              (std::vector<std::string>{"1000000 gray_failure_start a:0->b:0 loss=1",
                                        "1000000 gray_failure_start b:0->a:0 loss=0",
                                        "2000000 gray_failure_stop a:0->b:0 ",
                                        "2000000 gray_failure_stop b:0->a:0 "}));
    Finish();
}

TEST(MrcFailureInjector, GrayFailurePutsThePreviousErrorModelBack)
{
    NodeContainer n;
    n.Create(2);
    MrcLinkHelper link;
    NetDeviceContainer d = link.Install(n.Get(0), n.Get(1));
    Ptr<MrcNetDevice> a = DynamicCast<MrcNetDevice>(d.Get(0));
    Ptr<MrcNetDevice> b = DynamicCast<MrcNetDevice>(d.Get(1));
    Ptr<ListErrorModel> own = CreateObject<ListErrorModel>();
    b->SetAttribute("ReceiveErrorModel", PointerValue(own));
    Ptr<MrcFailureInjector> fi = CreateObject<MrcFailureInjector>();
    fi->GrayFailure(a, 1.0, MicroSeconds(10), MicroSeconds(20));
    Ptr<ErrorModel> during;
    Simulator::Schedule(MicroSeconds(15), [b, &during]() {
        PointerValue em;
        b->GetAttribute("ReceiveErrorModel", em);
        during = em.Get<ErrorModel>();
    });
    Simulator::Schedule(MicroSeconds(15), &SendFrames, a, 3);
    Simulator::Schedule(MicroSeconds(25), &SendFrames, a, 4);
    Simulator::Run();
    ASSERT_NE(during, nullptr);
    EXPECT_NE(during, own);
    EXPECT_NE(DynamicCast<RateErrorModel>(during), nullptr);
    PointerValue after;
    b->GetAttribute("ReceiveErrorModel", after);
    EXPECT_EQ(after.Get<ErrorModel>(), own);
    EXPECT_EQ(b->GetDropPackets(MrcDropReason::ERROR_MODEL), 3u);
    EXPECT_EQ(b->GetRxPackets(0), 4u);
    Finish();
}

namespace
{

/// Send 200 frames through a 50 % gray failure with fixed streams; \return the lost frames'
/// indices.
std::vector<uint32_t>
LossPattern(int64_t stream)
{
    NodeContainer n;
    n.Create(2);
    MrcLinkHelper link;
    NetDeviceContainer d = link.Install(n.Get(0), n.Get(1));
    Ptr<MrcNetDevice> a = DynamicCast<MrcNetDevice>(d.Get(0));
    Ptr<MrcNetDevice> b = DynamicCast<MrcNetDevice>(d.Get(1));
    Ptr<MrcFailureInjector> fi = CreateObject<MrcFailureInjector>();
    fi->GrayFailure(a, 0.5, Seconds(0));
    EXPECT_EQ(fi->AssignStreams(stream), 1);
    std::vector<uint32_t> lost;
    uint32_t seen = 0;
    b->TraceConnectWithoutContext("PhyRxEnd",
                                  MakeBoundCallback(
                                      +[](uint32_t* k, Ptr<const Packet>) { ++*k; },
                                      &seen));
    b->TraceConnectWithoutContext("PhyRxDrop",
                                  MakeBoundCallback(
                                      +[](std::pair<uint32_t*, std::vector<uint32_t>*> s,
                                          Ptr<const Packet>) { s.second->push_back((*s.first)++); },
                                      std::make_pair(&seen, &lost)));
    Simulator::Schedule(MicroSeconds(1), &SendFrames, a, 200);
    Simulator::Run();
    EXPECT_EQ(seen, 200u);
    EXPECT_EQ(b->GetRxPackets(0) + lost.size(), 200u);
    Finish();
    return lost;
}

} // namespace

TEST(MrcFailureInjector, GrayFailureWithFixedStreamsIsRepeatable)
{
    std::vector<uint32_t> first = LossPattern(7);
    std::vector<uint32_t> again = LossPattern(7);
    std::vector<uint32_t> other = LossPattern(8);
    EXPECT_EQ(first, again);
    EXPECT_NE(first, other);
    // 200 draws at p = 0.5: far from all or nothing.
    EXPECT_GT(first.size(), 50u);
    EXPECT_LT(first.size(), 150u);
}

// ---------------------------------------------------------------- events.csv

TEST(MrcFailureInjector, EventsCsvIsExactAndIdenticalTwice)
{
    std::string first = RunMixedScenario();
    EXPECT_EQ(first, MIXED_CSV);
    std::string second = RunMixedScenario();
    EXPECT_EQ(second, first);
}

TEST(MrcFailureInjector, SharedLogTakesOtherComponentsRecords)
{
    Fabric f;
    Build(f);
    Ptr<MrcEventLog> log = CreateObject<MrcEventLog>();
    Ptr<MrcFailureInjector> fi = CreateObject<MrcFailureInjector>();
    fi->SetEventLog(log);
    fi->LinkDown(f.t01t11, MicroSeconds(3));
    Simulator::Schedule(MicroSeconds(3),
                        [log]() { log->RecordNow(MrcEventKind::EV_STATE, "h0 qp1 ev 7", "bad"); });
    log->Record(MicroSeconds(1), MrcEventKind::QP_ERROR, "h1 qp2", "retry limit");
    Simulator::Run();
    EXPECT_EQ(fi->GetEventLog(), log);
    EXPECT_EQ(log->ToCsv(),
              "time_ns,kind,where,detail\n"
              "1000,qp_error,h1 qp2,retry limit\n"
              "3000,link_down,t0-1:1-t1-1:1,\n"
              "3000,ev_state,h0 qp1 ev 7,bad\n");
    Finish();
}

// ---------------------------------------------------------------- textual spec

TEST(MrcFailureInjector, FailLinksFromSpec)
{
    Fabric f;
    Build(f);
    Ptr<MrcFailureInjector> fi = CreateObject<MrcFailureInjector>();
    auto links = fi->FailLinks("t0-0:t1-1,t1-0:t0-1", MilliSeconds(1), MilliSeconds(2));
    EXPECT_EQ(links, (std::vector<Ptr<MrcChannel>>{f.t00t11, f.t01t10}));
    std::string h1 = "node" + std::to_string(f.h1->GetId());
    EXPECT_EQ(fi->FailLinks(h1 + ":t0-1", MilliSeconds(3)),
              (std::vector<Ptr<MrcChannel>>{f.h1link}));
    EXPECT_TRUE(fi->FailLinks("", MilliSeconds(3)).empty());
    Simulator::Run();
    EXPECT_EQ(Lines(fi->GetEventLog()),
              (std::vector<std::string>{"1000000 link_down t0-0:1-t1-1:0 ",
                                        "1000000 link_down t0-1:0-t1-0:1 ",
                                        "2000000 link_up t0-0:1-t1-1:0 ",
                                        "2000000 link_up t0-1:0-t1-0:1 ",
                                        "3000000 link_down t0-1:2-h1:0 "}));
    EXPECT_FALSE(f.h1link->IsLinkUp());
    EXPECT_TRUE(f.t00t11->IsLinkUp());
    Finish();
}

TEST(MrcFailureInjectorDeathTest, RejectsBadInput)
{
    Fabric f;
    Build(f);
    Ptr<MrcFailureInjector> fi = CreateObject<MrcFailureInjector>();
    Ptr<MrcNetDevice> lonely = CreateObject<MrcNetDevice>();
    Ptr<Node> island = CreateObject<Node>();
    island->AddDevice(lonely);
    EXPECT_DEATH(fi->LinkDown(f.t00t10, NanoSeconds(-5)), "time -5 ns is negative");
    EXPECT_DEATH(fi->LinkDown(lonely, Seconds(1)), "is not on a link");
    EXPECT_DEATH(fi->Flap(f.t00t10, Seconds(0), MicroSeconds(10), 0), "count 0");
    EXPECT_DEATH(fi->Flap(f.t00t10, Seconds(0), Seconds(0), 2), "period");
    EXPECT_DEATH(fi->Flap(f.t00t10, Seconds(0), MicroSeconds(10), 2, MicroSeconds(10)),
                 "down time");
    EXPECT_DEATH(fi->GrayFailure(Fabric::Port(f.t00, 0), 1.5, Seconds(0)),
                 "loss probability 1.5; allowed: 0 to 1");
    EXPECT_DEATH(fi->GrayFailure(Fabric::Port(f.t00, 0), -0.1, Seconds(0)),
                 "loss probability -0.1");
    EXPECT_DEATH(fi->GrayFailure(Fabric::Port(f.t00, 0), 0.5, Seconds(2), Seconds(1)),
                 "is not after start");
    fi->GrayFailure(Fabric::Port(f.t00, 0), 0.5, Seconds(1), Seconds(3));
    EXPECT_DEATH(fi->GrayFailure(Fabric::Port(f.t00, 0), 0.5, Seconds(2), Seconds(4)),
                 "already has a gray failure");
    EXPECT_DEATH(fi->SwitchDown(island, Seconds(1)), "has no MrcNetDevice on a link");
    EXPECT_DEATH(fi->FailLinks("t0-0-t1-1", Seconds(1)),
                 "link spec item \"t0-0-t1-1\" in \"t0-0-t1-1\"; allowed: nodeA:nodeB");
    EXPECT_DEATH(fi->FailLinks("t0-0:t1-1,x:", Seconds(1)), "link spec item \"x:\"");
    EXPECT_DEATH(fi->FailLinks("t0-0:zz", Seconds(1)), "no node named \"zz\"");
    EXPECT_DEATH(fi->FailLinks("t0-0:t0-1", Seconds(1)), "share no link");
    EXPECT_DEATH(fi->FailLinks("t0-0:t1-1", Seconds(2), Seconds(1)), "is not after the failure");
    EXPECT_DEATH(fi->PlaneDown("", std::vector<Ptr<MrcChannel>>{f.t00t10}, Seconds(1)),
                 "empty plane label");
    Finish();
}
