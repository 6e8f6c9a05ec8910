/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// N senders -> 1 receiver through one MrcSwitchNode, with raw constant-rate sources.
// Prints a summary and writes DIR/summary.json. Deterministic for a given --seed.
//
//   mrc-fabric-incast --senders=8 --pfc=1 --bytes=500000 --out=/tmp/incast

#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/mrc-command-line.h"
#include "ns3/mrc-ecmp-forwarding.h"
#include "ns3/mrc-link-helper.h"
#include "ns3/mrc-raw-traffic.h"
#include "ns3/mrc-switch-helper.h"
#include "ns3/mrc-traffic-class.h"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <sys/stat.h>

using namespace ns3;

namespace
{

[[noreturn]] void
Bad(const std::string& what)
{
    MrcCommandLine::Fail(what); // "error: ..." on stderr, exit code 2
}

Ipv6Address
HostAddress(uint32_t i)
{
    uint8_t b[16] = {0xfd, 0};
    b[13] = static_cast<uint8_t>((i + 1) >> 16);
    b[14] = static_cast<uint8_t>((i + 1) >> 8);
    b[15] = static_cast<uint8_t>(i + 1);
    return Ipv6Address(b);
}

bool
ParseU64(const std::string& s, uint64_t& out)
{
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 18)
    {
        return false;
    }
    out = std::stoull(s);
    return true;
}

/// The options of the example, validated.
struct IncastOptions
{
    std::string pfc;      //!< "0" or "1"
    std::string trimming; //!< "0" or "1"
    std::string ecn;      //!< "0" or "1"
    std::string rate;     //!< as given
    std::string out;      //!< output folder ("" for none)
    uint32_t n{0};        //!< senders
    uint64_t bufKb{0};    //!< shared buffer, KiB
    uint64_t nBytes{0};   //!< payload bytes per sender
    uint64_t run{0};      //!< RNG run
    DataRate dataRate;    //!< link and sending rate
};

IncastOptions
ParseOptions(int argc, char* argv[])
{
    std::string senders = "8";
    std::string pfc = "1";
    std::string trimming = "0";
    std::string ecn = "1";
    std::string bufferKb = "2048";
    std::string bytes = "500000";
    std::string rate = "100Gbps";
    std::string out = "";
    std::string seed = "1";
    MrcCommandLine cmd;
    cmd.Usage("N raw constant-rate senders -> 1 receiver through one switch; prints and writes "
              "summary.json (sent, received, drops by reason, trims, ECN marks, PFC pauses).");
    cmd.AddValue("senders", "number of senders, 1..1000", senders);
    cmd.AddValue("pfc", "PFC on the data class: 0 or 1", pfc);
    cmd.AddValue("trimming", "packet trimming: 0 or 1 (data DSCP 4 trimmable)", trimming);
    cmd.AddValue("ecn", "ECN marking: 0 or 1", ecn);
    cmd.AddValue("bufferKb", "shared buffer beyond reserve and headroom, KiB (> 0)", bufferKb);
    cmd.AddValue("bytes", "payload bytes per sender (> 0)", bytes);
    cmd.AddValue("rate", "link and sending rate, e.g. 100Gbps", rate);
    cmd.AddValue("out", "directory for summary.json (created; empty: no file)", out);
    cmd.AddValue("seed", "RNG run number (>= 1)", seed);
    cmd.Parse(argc, argv);

    uint64_t nSenders = 0, bufKb = 0, nBytes = 0, run = 0;
    if (!ParseU64(senders, nSenders) || nSenders < 1 || nSenders > 1000)
    {
        Bad("--senders='" + senders + "' must be an integer 1..1000");
    }
    for (const auto& [name, v] :
         {std::pair<std::string, std::string>{"pfc", pfc}, {"trimming", trimming}, {"ecn", ecn}})
    {
        if (v != "0" && v != "1")
        {
            Bad("--" + name + "='" + v + "' must be 0 or 1");
        }
    }
    if (!ParseU64(bufferKb, bufKb) || bufKb < 1)
    {
        Bad("--bufferKb='" + bufferKb + "' must be a positive integer");
    }
    if (!ParseU64(bytes, nBytes) || nBytes < 1)
    {
        Bad("--bytes='" + bytes + "' must be a positive integer");
    }
    if (!ParseU64(seed, run) || run < 1)
    {
        Bad("--seed='" + seed + "' must be a positive integer");
    }
    DataRate dataRate;
    {
        DataRateValue v;
        if (!v.DeserializeFromString(rate, MakeDataRateChecker()) || v.Get().GetBitRate() == 0)
        {
            Bad("--rate='" + rate + "' is not a data rate such as 100Gbps");
        }
        dataRate = v.Get();
    }

    IncastOptions o;
    o.pfc = pfc;
    o.trimming = trimming;
    o.ecn = ecn;
    o.rate = rate;
    o.out = out;
    o.n = static_cast<uint32_t>(nSenders);
    o.bufKb = bufKb;
    o.nBytes = nBytes;
    o.run = run;
    o.dataRate = dataRate;
    return o;
}

/// The switch and the n + 1 hosts, each on its own port with a /128 route.
Ptr<MrcSwitchNode>
BuildFabric(const IncastOptions& o, NodeContainer& hosts)
{
    const bool pfcOn = o.pfc == "1";
    const DataRate dataRate = o.dataRate;
    const uint32_t n = o.n;
    const Time delay = MicroSeconds(1);
    const uint32_t mtu = 9000;
    const uint64_t reserve = 4096;
    const uint64_t headroom =
        MrcSharedBufferMmu::ComputeHeadroom(dataRate, delay) + 2 * (mtu + 14 + 24);
    const uint64_t fixed = uint64_t(n + 1) * (8 * reserve + (pfcOn ? headroom : 0));

    MrcSwitchHelper sh;
    sh.SetSwitchAttribute("EcnEnabled", BooleanValue(o.ecn == "1"));
    sh.SetSwitchAttribute("TrimmingEnabled", BooleanValue(o.trimming == "1"));
    sh.SetMmuAttribute("BufferSize", UintegerValue(fixed + o.bufKb * 1024));
    sh.SetMmuAttribute("ReservePerQueue", UintegerValue(reserve));
    sh.SetMmuAttribute("PfcPriorityMask", UintegerValue(pfcOn ? (1u << 1) : 0));
    uint64_t kmin = 0, kmax = 0;
    MrcEcnMarker::HpccThresholds(dataRate, kmin, kmax);
    sh.SetEcnAttribute("Kmin", UintegerValue(kmin));
    sh.SetEcnAttribute("Kmax", UintegerValue(kmax));
    Ptr<MrcSwitchNode> sw = sh.CreateSwitch();

    MrcLinkHelper link;
    link.SetDeviceAttribute("DataRate", DataRateValue(dataRate));
    link.SetDeviceAttribute("Mtu", UintegerValue(mtu));
    link.SetChannelAttribute("Delay", TimeValue(delay));
    hosts.Create(n + 1);
    Ptr<MrcEcmpForwarding> fwd = DynamicCast<MrcEcmpForwarding>(sw->GetForwarding());
    for (uint32_t i = 0; i <= n; ++i)
    {
        uint32_t port = MrcSwitchHelper::ConnectHost(link, sw, hosts.Get(i));
        fwd->AddRoute(HostAddress(i), 128, port);
    }
    int64_t stream = 0;
    for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
    {
        stream += sw->GetEcnMarker(p)->AssignStreams(stream);
    }

    return sw;
}

/// The n raw sources (data in class 1: DSCP 4, trimmable, ECT(0)) and the one sink.
struct IncastTraffic
{
    std::vector<Ptr<MrcRawSource>> sources; //!< on hosts 0 .. n-1
    Ptr<MrcRawSink> sink;                   //!< on host n
};

/// \param o the options \param hosts the hosts \return the applications, started at 0
IncastTraffic
InstallTraffic(const IncastOptions& o, NodeContainer& hosts)
{
    const uint32_t n = o.n;
    IncastTraffic t;
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<MrcRawSource> s = CreateObject<MrcRawSource>();
        s->SetAttribute("Local", Ipv6AddressValue(HostAddress(i)));
        s->SetAttribute("Remote", Ipv6AddressValue(HostAddress(n)));
        s->SetAttribute("MaxBytes", UintegerValue(o.nBytes));
        s->SetAttribute("Dscp", UintegerValue(MrcDscp::TRIMMABLE));
        s->SetAttribute("DataRate", DataRateValue(o.dataRate));
        s->SetAttribute("UdpSourcePort", UintegerValue(49152 + i));
        hosts.Get(i)->AddApplication(s);
        s->SetStartTime(Seconds(0));
        t.sources.push_back(s);
    }
    t.sink = CreateObject<MrcRawSink>();
    hosts.Get(n)->AddApplication(t.sink);
    t.sink->SetStartTime(Seconds(0));
    return t;
}

/// What the senders sent and the receiver got.
struct IncastCounts
{
    uint64_t sentPackets{0}; //!< packets the sources sent
    uint64_t sentBytes{0};   //!< bytes the sources sent
    uint64_t pauseRx{0};     //!< PFC frames the senders' devices received
    MrcRawSink::Stats rx;    //!< what the sink received
    double lastRxUs{0};      //!< when it received the last packet
    std::string drops;       //!< the switch's drops by reason, as a JSON object
};

/// \return the counts of the finished run
IncastCounts
Count(const IncastTraffic& t, Ptr<MrcSwitchNode> sw, Time lastRx)
{
    IncastCounts c;
    for (uint32_t i = 0; i < t.sources.size(); ++i)
    {
        c.sentPackets += t.sources[i]->GetSentPackets();
        c.sentBytes += t.sources[i]->GetSentBytes();
        c.pauseRx += sw->GetPort(i)->GetPeer()->GetPfcRxFrames();
    }
    c.rx = t.sink->GetTotal();
    c.lastRxUs = lastRx.GetMicroSeconds();

    std::ostringstream drops;
    drops << "{";
    for (std::size_t r = 0; r < MRC_SWITCH_DROP_REASON_COUNT; ++r)
    {
        auto reason = static_cast<MrcSwitchDropReason>(r);
        drops << (r ? ", " : "") << "\"" << MrcSwitchDropReasonName(reason)
              << "\": " << sw->GetDropPackets(reason);
    }
    drops << "}";
    c.drops = drops.str();
    return c;
}

/// Print the summary on standard output.
void
PrintSummary(const IncastOptions& o, Ptr<MrcSwitchNode> sw, const IncastCounts& c)
{
    std::cout << "senders " << o.n << " pfc " << o.pfc << " trimming " << o.trimming << " ecn "
              << o.ecn << " bufferKb " << o.bufKb << " bytes " << o.nBytes << " rate " << o.rate
              << "\n"
              << "sent " << c.sentPackets << " packets " << c.sentBytes << " bytes\n"
              << "received " << c.rx.packets << " packets " << c.rx.bytes << " bytes, payload "
              << c.rx.payloadBytes << "\n"
              << "dropped " << sw->GetTotalDropPackets() << " " << c.drops << "\n"
              << "trimmed " << sw->GetTrimmedPackets() << " marked " << sw->GetMarkedPackets()
              << " pauses sent " << sw->GetPausesSent() << " PFC frames received by senders "
              << c.pauseRx << std::endl;
}

/// Write DIR/summary.json (DIR made if missing).
void
WriteSummaryJson(const IncastOptions& o, Ptr<MrcSwitchNode> sw, const IncastCounts& c)
{
    mkdir(o.out.c_str(), 0755);
    std::ofstream js(o.out + "/summary.json");
    if (!js)
    {
        Bad("--out='" + o.out + "': cannot write summary.json there");
    }
    js << "{\n  \"schema\": 1,\n"
       << "  \"options\": {\"senders\": " << o.n << ", \"pfc\": " << o.pfc
       << ", \"trimming\": " << o.trimming << ", \"ecn\": " << o.ecn
       << ", \"bufferKb\": " << o.bufKb << ", \"bytes\": " << o.nBytes << ", \"rate\": \"" << o.rate
       << "\", \"seed\": " << o.run << "},\n"
       << "  \"sent\": {\"packets\": " << c.sentPackets << ", \"bytes\": " << c.sentBytes << "},\n"
       << "  \"received\": {\"packets\": " << c.rx.packets << ", \"bytes\": " << c.rx.bytes
       << ", \"payloadBytes\": " << c.rx.payloadBytes << ", \"trimmed\": " << c.rx.trimmed
       << ", \"ceMarked\": " << c.rx.ceMarked << "},\n"
       << "  \"dropped\": {\"packets\": " << sw->GetTotalDropPackets()
       << ", \"byReason\": " << c.drops << "},\n"
       << "  \"trimmed\": " << sw->GetTrimmedPackets() << ",\n"
       << "  \"marked\": " << sw->GetMarkedPackets() << ",\n"
       << "  \"pauses\": {\"sent\": " << sw->GetPausesSent()
       << ", \"resumesSent\": " << sw->GetResumesSent()
       << ", \"pfcFramesReceivedBySenders\": " << c.pauseRx << "},\n"
       << "  \"lastReceiveUs\": " << c.lastRxUs << "\n}\n";
}

} // namespace

int
main(int argc, char* argv[])
{
    const IncastOptions o = ParseOptions(argc, argv);
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(o.run);
    NodeContainer hosts;
    Ptr<MrcSwitchNode> sw = BuildFabric(o, hosts);
    const IncastTraffic t = InstallTraffic(o, hosts);

    Time lastRx;
    t.sink->TraceConnectWithoutContext(
        "Rx",
        Callback<void, Ptr<const Packet>, const MrcPacketInfo&>(
            [&lastRx](Ptr<const Packet>, const MrcPacketInfo&) { lastRx = Simulator::Now(); }));
    Simulator::Stop(Seconds(1));
    Simulator::Run();

    const IncastCounts c = Count(t, sw, lastRx);
    PrintSummary(o, sw, c);
    if (!o.out.empty())
    {
        WriteSummaryJson(o, sw, c);
    }
    Simulator::Destroy();
    return 0;
}
