/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-profiles.h"

#include "ns3/abort.h"
#include "ns3/config.h"
#include "ns3/log.h"
#include "ns3/mrc-attribute-check.h"
#include "ns3/mrc-ecn-marker.h"
#include "ns3/mrc-shared-buffer-mmu.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcProfiles");

namespace
{

// ---------------------------------------------------------------------------------------
// Attribute names of the DCQCN classes (reaction point ns3::MrcDcqcn, model/cc/mrc-dcqcn.h;
// notification point below); every profile below refers to these constants only.
// ---------------------------------------------------------------------------------------
const char* const DCQCN_TYPE = "ns3::MrcDcqcn";
const char* const DCQCN_G = "ns3::MrcDcqcn::G";                                 // g
const char* const DCQCN_ALPHA_TIMER = "ns3::MrcDcqcn::AlphaUpdateInterval";     // K
const char* const DCQCN_DECREASE_TIMER = "ns3::MrcDcqcn::RateDecreaseInterval"; // decrease
const char* const DCQCN_INCREASE_TIMER = "ns3::MrcDcqcn::RateIncreaseInterval"; // T
const char* const DCQCN_BYTE_COUNTER = "ns3::MrcDcqcn::ByteCounter";            // B (0: off)
const char* const DCQCN_F = "ns3::MrcDcqcn::FastRecoveryTimes";                 // F
const char* const DCQCN_RAI = "ns3::MrcDcqcn::RateAi";                          // R_AI
const char* const DCQCN_RHAI = "ns3::MrcDcqcn::RateHai";                        // R_HAI
const char* const DCQCN_MIN_RATE = "ns3::MrcDcqcn::MinRate";                    // MinRate
const char* const DCQCN_CLAMP = "ns3::MrcDcqcn::ClampTargetRate";               // clamp
const char* const DCQCN_FIRST_CNP = "ns3::MrcDcqcn::RateOnFirstCnp";            // factor
const char* const DCQCN_HAI_FORM = "ns3::MrcDcqcn::HyperIncreaseForm";          // Once | Scaled
// The notification point (ns3::MrcDcqcnNotificationPoint, model/cc/mrc-dcqcn-np.h), one per
// RoCE queue pair.
const char* const NP_STYLE = "ns3::MrcDcqcnNotificationPoint::CnpStyle";       // AckFlag | Interval
const char* const NP_INTERVAL = "ns3::MrcDcqcnNotificationPoint::CnpInterval"; // N

/// Source tags (see doc/mrc.rst).
const char* const P_RUN = "HPCC simulator run.py --cc dcqcn";
const char* const P_PAPER = "HPCC simulator run.py --cc dcqcn_paper";

std::string
Bps(double bps)
{
    std::ostringstream os;
    os << static_cast<uint64_t>(std::llround(bps)) << "bps";
    return os.str();
}

std::string
Num(uint64_t v)
{
    return std::to_string(v);
}

/// The fabric, transport and DCQCN settings shared by both RoCE profiles (HPCC values).
std::vector<MrcProfileSetting>
RoceHpcc(const MrcProfileContext& ctx)
{
    const double bps = static_cast<double>(ctx.hostRate.GetBitRate());
    const double scale = bps / 25e9; // run.py scales by bw / 25G
    uint64_t kmin = 0;
    uint64_t kmax = 0;
    MrcEcnMarker::HpccThresholds(ctx.hostRate, kmin, kmax);
    const uint64_t buffer = static_cast<uint64_t>(std::llround(16.0 * 1024 * 1024 * bps / 50e9));
    const uint64_t headroom = MrcSharedBufferMmu::ComputeHeadroom(ctx.hostRate, ctx.linkDelay);
    const std::string run = P_RUN;
    return {
        {"ns3::MrcRoceQueuePair::CongestionControl", DCQCN_TYPE, run},
        {"ns3::MrcRoceQueuePair::Mtu", "1000", run + ": 1000 B payload"},
        {"ns3::MrcRoceQueuePair::AckInterval", "1", run + ": L2_ACK_INTERVAL 1 (every packet)"},
        {NP_STYLE, "AckFlag", "HPCC simulator: CNP flag on ACKs"},
        {"ns3::MrcRoceQueuePair::NakInterval", "500us", "HPCC simulator attribute default"},
        {"ns3::MrcRoceQueuePair::DataDscp", "26", "our choice: RoCE data DSCP (class 3)"},
        {"ns3::MrcRoceQueuePair::AckDscp", "46", "HPCC simulator ACK_HIGH_PRIO 1"},
        {"ns3::MrcRoceQueuePair::PacingGap",
         "AtSend",
         "HPCC simulator: a packet's gap is fixed when it leaves (its DCQCN sets the QP rate "
         "without moving the next send)"},
        {DCQCN_G, "0.00390625", run + ": g = 1/256"},
        {DCQCN_ALPHA_TIMER, "1us", run + ": alpha timer 1 us"},
        {DCQCN_DECREASE_TIMER, "4us", run + ": rate decrease interval 4 us"},
        {DCQCN_INCREASE_TIMER, "300us", run + ": rate increase timer 300 us"},
        {DCQCN_BYTE_COUNTER, "0", "HPCC simulator has no byte counter (0 = off)"},
        {DCQCN_F, "1", run + ": F = 1"},
        {DCQCN_RAI, Bps(5e6 * scale), run + ": 5 Mb/s x rate / 25 Gb/s"},
        {DCQCN_RHAI, Bps(50e6 * scale), run + ": 50 Mb/s x rate / 25 Gb/s"},
        {DCQCN_MIN_RATE, "1000000000bps", run + ": min rate 1000 Mb/s"},
        {DCQCN_CLAMP, "false", run + ": CLAMP_TARGET_RATE 0"},
        {DCQCN_FIRST_CNP, "1", "HPCC simulator RateOnFirstCnp default 1.0"},
        {DCQCN_HAI_FORM, "Once", "HPCC simulator: RT += R_HAI once per hyper step"},
        {"ns3::MrcEcnMarker::Kmin", Num(kmin), run + ": 100 KB x rate / 25 Gb/s"},
        {"ns3::MrcEcnMarker::Kmax", Num(kmax), run + ": 400 KB x rate / 25 Gb/s"},
        {"ns3::MrcEcnMarker::Pmax", "0.2", run + ": Pmax 0.2"},
        {"ns3::MrcSwitchNode::EcnEnabled", "true", "DCQCN needs ECN marks"},
        {"ns3::MrcSwitchNode::TrimmingEnabled", "false", "RoCE has no trimming"},
        {"ns3::MrcSwitchNode::AutoHeadroom", "false", "use the MMU Headroom below"},
        {"ns3::MrcSharedBufferMmu::BufferSize", Num(buffer), run + ": 16 MiB x rate / 50 Gb/s"},
        {"ns3::MrcSharedBufferMmu::ReservePerQueue", "4096", "HPCC simulator: reserve 4 KB"},
        {"ns3::MrcSharedBufferMmu::ResumeOffset", "3072", "HPCC simulator: resume offset 3 KB"},
        {"ns3::MrcSharedBufferMmu::PfcAlpha", "0.125", "HPCC simulator: dynamic threshold 1/8"},
        {"ns3::MrcSharedBufferMmu::Headroom",
         Num(headroom),
         "HPCC simulator: 3 x rate x link delay"},
        {"ns3::MrcSharedBufferMmu::PfcPriorityMask", "8", "lossless class 3 (RoCE data)"},
    };
}

/// roce-hpcc with the DCQCN paper's reaction-point and notification-point values.
std::vector<MrcProfileSetting>
RocePaper(const MrcProfileContext& ctx)
{
    std::vector<MrcProfileSetting> s = RoceHpcc(ctx);
    const std::string paper = "DCQCN paper";
    auto set = [&s](const std::string& path, const std::string& value, const std::string& src) {
        for (auto& e : s)
        {
            if (e.path == path)
            {
                e.value = value;
                e.source = src;
                return;
            }
        }
        s.push_back({path, value, src});
    };
    set(NP_STYLE, "Interval", paper + ": separate CNPs");
    set(NP_INTERVAL, "50us", paper + ": CNP interval N = 50 us");
    set(DCQCN_ALPHA_TIMER, "55us", paper + ": alpha timer K = 55 us");
    set(DCQCN_DECREASE_TIMER, "50us", std::string(P_PAPER) + ": decrease interval 50 us");
    set(DCQCN_INCREASE_TIMER, "55us", paper + ": increase timer T = 55 us");
    set(DCQCN_BYTE_COUNTER, "10000000", paper + ": byte counter B = 10 MB");
    set(DCQCN_F, "5", paper + ": F = 5");
    set(DCQCN_RAI, "40000000bps", paper + " [unverified]: R_AI 40 Mb/s");
    set(DCQCN_HAI_FORM, "Scaled", paper + " and htsim: RT += i x R_HAI, i = min(T, BC) - F");
    set(DCQCN_CLAMP,
        "true",
        paper + " (RT = RC at every CNP) and htsim (dcqcn.cpp processCNP); roce-hpcc's false "
                "is the NIC rule clamp_tgt_rate_after_time_inc");
    return s;
}

/// RoCE as operators deploy it: roce-hpcc's DCQCN with the NIC's default alpha gain, the
/// DCQCN paper's rate-increase timer, a 4096 B MTU and the switch vendor's default RoCE ECN
/// thresholds.
std::vector<MrcProfileSetting>
RoceDeployed(const MrcProfileContext& ctx)
{
    std::vector<MrcProfileSetting> s = RoceHpcc(ctx);
    auto set = [&s](const std::string& path, const std::string& value, const std::string& src) {
        for (auto& e : s)
        {
            if (e.path == path)
            {
                e.value = value;
                e.source = src;
                return;
            }
        }
        s.push_back({path, value, src});
    };
    const double scale = static_cast<double>(ctx.hostRate.GetBitRate()) / 100e9;
    const std::string cumulus = "NVIDIA Cumulus Linux RoCE default (nv set qos roce, lossless "
                                "mode), ECN on traffic class 3";
    set("ns3::MrcRoceQueuePair::Mtu",
        "4096",
        "issue 19: 4096 B for every transport (the largest RoCE path MTU)");
    set("ns3::MrcRoceQueuePair::PacingGap",
        "RateNow",
        "model change (session 16): a NIC rate limiter applies a new rate to the pending gap");
    set(DCQCN_INCREASE_TIMER,
        "55us",
        "DCQCN paper: increase timer T = 55 us (the HPCC simulator's 300 us without a byte "
        "counter leaves the link partly idle after each cut; see the note of issue 19)");
    set("ns3::MrcEcnMarker::Kmin",
        Num(static_cast<uint64_t>(std::llround(150000 * scale))),
        cumulus + ": minimum threshold 150 KB (x rate / 100 Gb/s)");
    set("ns3::MrcEcnMarker::Kmax",
        Num(static_cast<uint64_t>(std::llround(1500000 * scale))),
        cumulus + ": maximum threshold 1500 KB (x rate / 100 Gb/s)");
    set("ns3::MrcEcnMarker::Pmax", "1", cumulus + ": marking probability up to 100 %");
    // ConnectX (-4 and later) default dce_tcp_g = 1019: alpha <- (1019/1024) alpha, plus
    // 5/1024 when a CNP came in the period, i.e. g = 5/1024 (the HPCC simulator's 1/256 is
    // not the NIC's value). The alpha period and the decrease interval are the NIC's too.
    const std::string nvidia = "NVIDIA DCQCN CC parameters (DOCA docs; Mellanox DOC-2790)";
    set(DCQCN_G, "0.0048828125", nvidia + ": dce_tcp_g 1019, g = 5/1024");
    set(DCQCN_ALPHA_TIMER, "1us", nvidia + ": dce_tcp_rtt 1 us");
    set(DCQCN_DECREASE_TIMER, "4us", nvidia + ": rate_reduce_monitor_period 4 us");
    set(DCQCN_CLAMP,
        "false",
        "ConnectX defaults clamp_tgt_rate 0, clamp_tgt_rate_after_time_inc 1 (mlxconfig query "
        "of a ConnectX-5; not read on a primary page): RT follows RC after a timer increase");
    return s;
}

/// RoCE on a fabric whose switches spray by adaptive routing, the commercial alternative to
/// endpoint spraying: roce-deployed, with every packet sent on the least-loaded port of its
/// ECMP group and a NIC that places out-of-order packets (selective repeat, IRN style).
std::vector<MrcProfileSetting>
RoceAr(const MrcProfileContext& ctx)
{
    std::vector<MrcProfileSetting> s = RoceDeployed(ctx);
    const std::string ar = "switch adaptive routing per packet, as RoCE fabrics with adaptive "
                           "routing run (e.g. NVIDIA Spectrum-X)";
    s.push_back({"ns3::MrcDualForwarding::EcmpForwarding",
                 "ns3::MrcAdaptiveForwarding",
                 ar + "; our model: the live port with the fewest queued bytes"});
    s.push_back({"ns3::MrcRoceQueuePair::Recovery",
                 "SelectiveRepeat",
                 "a NIC that places packets out of order (IRN, SIGCOMM 2018; Spectrum-X's NICs "
                 "place them directly): go-back-N would resend the window at every reordering"});
    // The reordering depth is a time (the spread of the paths' queueing delays), so the
    // threshold in PSNs follows the rate: 64 at 100 Gb/s is 256 KiB, 21 us of the link.
    const double scale = static_cast<double>(ctx.hostRate.GetBitRate()) / 100e9;
    const uint64_t reorder = std::max<uint64_t>(1, std::llround(64 * scale));
    s.push_back({"ns3::MrcRoceQueuePair::ReorderPsns",
                 Num(reorder),
                 "our choice: a hole is NAKed after 64 later PSNs x rate / 100 Gb/s (21 us of the "
                 "link), above adaptive routing's reordering depth in the module's fabrics "
                 "(measured: compare at 400 Gb/s resent 5,586 packets with 64, none with 256)"});
    return s;
}

/// UEC reference simulator (htsim main_uec.cpp / uec.cpp) defaults: MTU 4096, SACK every
/// 16 KB, min RTO 100 us, trimming on (victim: the newest queued packet or the arrival, 1/2
/// each), queues of about one BDP, ECN 20/80 % of the BDP, NSCC.
std::vector<MrcProfileSetting>
UecHtsim(const MrcProfileContext& ctx)
{
    const std::string h = "UEC reference simulator (htsim)";
    // htsim's network RTT: twice the diameter (3-tier: 6 links each way) of propagation
    // plus the serialization of an MTU packet and an ACK at each of the 6 hops.
    const uint32_t frame = 4096 + 40 + 80; // payload + nominal header + our wire headers
    const Time rtt = ctx.linkDelay * 12 + ctx.hostRate.CalculateBytesTxTime(frame) * 6 +
                     ctx.hostRate.CalculateBytesTxTime(64) * 6;
    const uint64_t bdp = static_cast<uint64_t>(
        std::llround(static_cast<double>(ctx.hostRate.GetBitRate()) * rtt.GetSeconds() / 8));
    std::ostringstream rttStr;
    rttStr << rtt.GetNanoSeconds() << "ns";
    return {
        {"ns3::MrcUecQueuePair::Mtu", "4096", h + ": MTU 4096"},
        {"ns3::MrcUecQueuePair::CongestionControl", "ns3::MrcNscc", h + ": NSCC"},
        {"ns3::MrcUecQueuePair::EntropySelector",
         "ns3::MrcUecMixedSelector",
         h + ": mixed load balancing"},
        {"ns3::MrcUecQueuePair::MinRto", "100us", h + ": min_rto 100 us"},
        {"ns3::MrcUecQueuePair::ReorderPsns",
         "0",
         h + ": no loss inference from SACKs (SLEEK off)"},
        {"ns3::MrcUecQueuePair::BaseRttProbe",
         "false",
         h + ": no base-RTT probe (its probes serve loss recovery and give no RTT sample)"},
        {"ns3::MrcUecQueuePair::BaseRtt",
         rttStr.str(),
         h + ": 2 x 3-tier diameter x link delay + MTU and ACK serialization per hop"},
        {"ns3::MrcNscc::Trimming", "true", h + ": target delay 0.75 x base RTT with trimming"},
        {"ns3::MrcSackPolicy::TriggerBytes", "16384", h + ": -sack_threshold 16384"},
        {"ns3::MrcSwitchNode::TrimmingEnabled", "true", h + ": trimming on"},
        {"ns3::MrcSwitchNode::EcnEnabled", "true", h + ": ECN on"},
        {"ns3::MrcSharedBufferMmu::PfcPriorityMask", "0", h + ": no PFC"},
        {"ns3::MrcTrimmer::TrimThreshold", Num(bdp), h + ": data queue 1 BDP with trimming"},
        {"ns3::MrcTrimmer::HeaderQueueLimit", Num(2 * bdp), h + ": header queue 2 x data queue"},
        {"ns3::MrcTrimmer::TrimSize",
         "0",
         "our choice: exactly the headers (htsim keeps 64 B, less than our headers)"},
        {"ns3::MrcTrimmer::TrimVictim",
         "RandomOfTwo",
         h + ": a full data queue trims its newest packet or the arrival, 1/2 each"},
        {"ns3::MrcEcnMarker::Kmin", Num(bdp / 5), h + ": Kmin 20 % of BDP"},
        {"ns3::MrcEcnMarker::Kmax", Num(bdp * 4 / 5), h + ": Kmax 80 % of BDP"},
        {"ns3::MrcEcnMarker::Pmax", "1", h + ": marking probability up to 1"},
        {"ns3::MrcEcnMarker::MarkAt", "Dequeue", h + ": ECN at dequeue"},
    };
}

/// The uec-htsim profile with receiver credit (RCCC) as htsim runs it with -receiver_cc
/// (nscc = true: NSCC and RCCC both) or -receiver_cc_only (nscc = false): the per-NIC
/// pull pacer, speculative credit, no ECN marking on the ToR downlink.
std::vector<MrcProfileSetting>
UecHtsimRccc(const MrcProfileContext& ctx, bool nscc)
{
    const std::string h = "UEC reference simulator (htsim)";
    std::vector<MrcProfileSetting> s = UecHtsim(ctx);
    if (!nscc)
    {
        for (auto& e : s)
        {
            if (e.path == "ns3::MrcUecQueuePair::CongestionControl")
            {
                e.value = "ns3::MrcNoCongestionControl";
                e.source = h + ": -receiver_cc_only (no sender CC)";
            }
        }
    }
    s.push_back({"ns3::MrcUecQueuePair::ReceiverCredit",
                 "true",
                 h + (nscc ? ": -receiver_cc (RCCC beside NSCC)" : ": -receiver_cc_only")});
    if (nscc)
    {
        s.push_back({"ns3::MrcNscc::Rccc", "true", h + ": with RCCC a last-hop trim keeps cwnd"});
    }
    s.push_back({"ns3::MrcSwitchNode::NoEcnToHost",
                 "true",
                 h + ": receiver-driven mode, no ECN on the ToR downlink"});
    s.push_back({"ns3::MrcUecPullPacer::RateFactor", "0.99", h + ": pull pacer at 0.99 x rate"});
    s.push_back({"ns3::MrcUecPullPacer::CreditPerPull",
                 "16384",
                 h + ": 4 x 4096 B MSS of credit per pull"});
    return s;
}

/// \param ctx rate and delay \return uec-htsim with RCCC alone
std::vector<MrcProfileSetting>
UecHtsimRcccOnly(const MrcProfileContext& ctx)
{
    return UecHtsimRccc(ctx, false);
}

/// \param ctx rate and delay \return uec-htsim with NSCC and RCCC
std::vector<MrcProfileSetting>
UecHtsimNsccRccc(const MrcProfileContext& ctx)
{
    return UecHtsimRccc(ctx, true);
}

/// MRC (mrc-protocol.md; design.md section 5): 4096 B MTU, EVs split over the planes,
/// NSCC, trimming (htsim's victim rule), SACK/NACK, PFC off. Values not published are marked
/// "our choice".
std::vector<MrcProfileSetting>
Mrc(const MrcProfileContext& ctx)
{
    const double bps = static_cast<double>(ctx.hostRate.GetBitRate());
    // Our choice: the BDP of a host pair across the T1 tier, 4 links each way at the
    // profile's link delay (8 x delay of propagation), at the host rate.
    const double bdp = bps / 8.0 * 8.0 * ctx.linkDelay.GetSeconds();
    const uint64_t kmin = static_cast<uint64_t>(std::llround(0.2 * bdp));
    const uint64_t kmax = std::max<uint64_t>(kmin + 1, std::llround(0.8 * bdp));
    const uint64_t buffer = static_cast<uint64_t>(std::llround(16.0 * 1024 * 1024 * bps / 50e9));
    const std::string proto = "mrc-protocol.md";
    return {
        {"ns3::MrcMultipathQueuePair::Mtu", "4096", proto + ": 4096 B path MTU"},
        {"ns3::MrcMultipathQueuePair::CongestionControl", "ns3::MrcNscc", proto + ": NSCC"},
        {"ns3::MrcEvProfile::EvCount",
         "128",
         proto + " sec. 2: 128-256 EVs per QP, split equally over the planes (low end)"},
        {"ns3::MrcNscc::Trimming", "true", "the fabric trims (target delay 0.75 x base RTT)"},
        {"ns3::MrcNscc::MaxWndFollowsBaseRtt",
         "false",
         "OCP MRC mrc_ctl.h: a CC profile configures max_cwnd in bytes "
         "(mrc_ctl_cc_nscc_cfg), one cap (and quick-adapt gate) for every QP of the "
         "profile, not one per path; its value: UEC's 1.5 x BDP at the configured base_rtt"},
        {"ns3::MrcSwitchNode::TrimmingEnabled", "true", proto + ": packet trimming on"},
        {"ns3::MrcSwitchNode::EcnEnabled", "true", proto + ": ECN for NSCC"},
        {"ns3::MrcSwitchNode::NoEcnToHost", "true", proto + ": no ECN on the last hop"},
        {"ns3::MrcTrimmer::TrimVictim",
         "RandomOfTwo",
         "our choice: htsim's victim rule (newest queued packet or the arrival, 1/2 each); "
         "MRC publishes none"},
        {"ns3::MrcEcnMarker::Kmin",
         Num(kmin),
         "our choice: 20 % of the BDP (rate x 8 link delays), as htsim's UEC queues"},
        {"ns3::MrcEcnMarker::Kmax", Num(kmax), "our choice: 80 % of the BDP, as htsim"},
        {"ns3::MrcEcnMarker::Pmax", "1", "htsim: marking probability 0 -> 1"},
        {"ns3::MrcSharedBufferMmu::PfcPriorityMask", "0", proto + ": PFC off (all lossy)"},
        {"ns3::MrcSharedBufferMmu::BufferSize",
         Num(buffer),
         "our choice: the roce-hpcc buffer (16 MiB x rate / 50 Gb/s), same switches"},
    };
}

struct Entry
{
    const char* name;
    std::vector<MrcProfileSetting> (*make)(const MrcProfileContext&);
};

const std::vector<Entry>&
Registry()
{
    static const std::vector<Entry> r = {{"mrc", &Mrc},
                                         {"roce-ar", &RoceAr},
                                         {"roce-deployed", &RoceDeployed},
                                         {"roce-hpcc", &RoceHpcc},
                                         {"roce-paper", &RocePaper},
                                         {"uec-htsim", &UecHtsim},
                                         {"uec-htsim-nscc-rccc", &UecHtsimNsccRccc},
                                         {"uec-htsim-rccc", &UecHtsimRcccOnly}};
    return r;
}

std::string
ValidNames()
{
    std::string out;
    for (const auto& n : MrcProfiles::GetNames())
    {
        out += (out.empty() ? "" : ", ") + n;
    }
    return out;
}

std::string
JsonEscape(const std::string& s)
{
    std::string out;
    for (char c : s)
    {
        if (c == '"' || c == '\\')
        {
            out += '\\';
        }
        out += c;
    }
    return out;
}

} // namespace

std::vector<std::string>
MrcProfiles::GetNames()
{
    std::vector<std::string> names;
    for (const auto& e : Registry())
    {
        names.emplace_back(e.name);
    }
    return names; // the registry is kept sorted
}

bool
MrcProfiles::Exists(const std::string& name)
{
    for (const auto& e : Registry())
    {
        if (name == e.name)
        {
            return true;
        }
    }
    return false;
}

std::vector<MrcProfileSetting>
MrcProfiles::GetSettings(const std::string& name, const MrcProfileContext& ctx)
{
    for (const auto& e : Registry())
    {
        if (name == e.name)
        {
            return e.make(ctx);
        }
    }
    NS_FATAL_ERROR("unknown profile '" << name << "'; valid profiles: " << ValidNames());
}

std::string
MrcProfiles::Check(const MrcProfileSetting& setting)
{
    // The value is parsed by the module first: a bad enum name would otherwise trip
    // ns-3's assert (asserts-on builds) instead of giving this message.
    const std::string why = MrcAttributeCheck::CheckDefault(setting.path, setting.value);
    if (why.empty())
    {
        return "";
    }
    if (why.rfind("'", 0) == 0)
    {
        return "setting " + why;
    }
    return "setting '" + setting.path + "': " + why;
}

void
MrcProfiles::Apply(const std::string& name, const MrcProfileContext& ctx)
{
    const std::vector<MrcProfileSetting> settings = GetSettings(name, ctx);
    for (const auto& s : settings)
    {
        const std::string why = Check(s);
        if (!why.empty())
        {
            NS_FATAL_ERROR("profile '" << name << "': " << why);
        }
    }
    for (const auto& s : settings)
    {
        NS_LOG_INFO("profile " << name << ": " << s.path << " = " << s.value);
        Config::SetDefault(s.path, StringValue(s.value));
    }
}

std::string
MrcProfiles::FindProfileArgument(int argc, char** argv)
{
    std::string name;
    for (int i = 1; i < argc; ++i)
    {
        const std::string a = argv[i];
        if (a.rfind("--profile=", 0) == 0)
        {
            name = a.substr(10);
        }
        else if (a == "--profile" && i + 1 < argc)
        {
            name = argv[++i];
        }
    }
    return name;
}

std::string
MrcProfiles::ToJson(const std::string& name, const MrcProfileContext& ctx)
{
    std::ostringstream os;
    os << "{\"name\": \"" << JsonEscape(name) << "\", \"settings\": [";
    bool first = true;
    for (const auto& s : GetSettings(name, ctx))
    {
        os << (first ? "" : ", ") << "{\"path\": \"" << JsonEscape(s.path) << "\", \"value\": \""
           << JsonEscape(s.value) << "\", \"source\": \"" << JsonEscape(s.source) << "\"}";
        first = false;
    }
    os << "]}";
    return os.str();
}

} // namespace ns3
