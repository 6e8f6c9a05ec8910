/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-nscc.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/mrc-heap-scheduler.h"
#include "ns3/mrc-uint128.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcNscc");

NS_OBJECT_ENSURE_REGISTERED(MrcNscc);

const char*
MrcNsccCutName(MrcNsccCut cut)
{
    switch (cut)
    {
    case MrcNsccCut::TRIM_NACK:
        return "TRIM_NACK";
    case MrcNsccCut::LOSS:
        return "LOSS";
    case MrcNsccCut::MULTIPLICATIVE_DECREASE:
        return "MULTIPLICATIVE_DECREASE";
    case MrcNsccCut::QUICK_ADAPT:
        return "QUICK_ADAPT";
    case MrcNsccCut::RECEIVER_PENALTY:
        return "RECEIVER_PENALTY";
    }
    return "UNKNOWN";
}

namespace
{

/// Bytes of \p rate during \p rtt, exact in integer arithmetic (floor).
uint64_t
BytesIn(DataRate rate, Time rtt)
{
    const MrcUint128 bits = static_cast<MrcUint128>(rate.GetBitRate()) * rtt.GetPicoSeconds();
    return static_cast<uint64_t>(bits / 8000000000000ULL);
}

/// Non-negative double to bytes, rounding down.
uint64_t
FloorBytes(double v)
{
    return v <= 0 ? 0 : static_cast<uint64_t>(std::floor(v));
}

} // namespace

TypeId
MrcNscc::GetTypeId()
{
    static TypeId tid = AddTraceSources(AddVariantAttributes(AddIncreaseAttributes(
        AddQuickAdaptAttributes(AddWindowAttributes(TypeId("ns3::MrcNscc")
                                                        .SetParent<MrcCongestionOps>()
                                                        .SetGroupName("Mrc")
                                                        .AddConstructor<MrcNscc>())))));
    return tid;
}

TypeId
MrcNscc::AddWindowAttributes(TypeId tid)
{
    return tid
        .AddAttribute("BaseRtt",
                      "config_base_rtt: maximum unloaded RTT of an MTU packet over the "
                      "longest path. 0 takes MrcCcState::baseRtt.",
                      TimeValue(Time(0)),
                      MakeTimeAccessor(&MrcNscc::m_cfgBaseRtt),
                      MakeTimeChecker(Time(0)))
        .AddAttribute("PeerLinkRate",
                      "Destination link rate; BDP = min(own line rate, this) x "
                      "config_base_rtt. 0 uses the own line rate.",
                      DataRateValue(DataRate(0)),
                      MakeDataRateAccessor(&MrcNscc::m_peerRate),
                      MakeDataRateChecker())
        .AddAttribute("Trimming",
                      "The fabric trims: target delay 0.75 x base RTT (else 1.0 x) "
                      "unless TargetDelay is set.",
                      BooleanValue(true),
                      MakeBooleanAccessor(&MrcNscc::m_trimming),
                      MakeBooleanChecker())
        .AddAttribute("TargetDelay",
                      "target_qdelay; 0 derives it from the base RTT and Trimming.",
                      TimeValue(Time(0)),
                      MakeTimeAccessor(&MrcNscc::m_cfgTarget),
                      MakeTimeChecker(Time(0)))
        .AddAttribute("MaxWndFactor",
                      "max_wnd = factor x BDP (and x link rate x base_rtt when it drops).",
                      DoubleValue(1.5),
                      MakeDoubleAccessor(&MrcNscc::m_maxWndFactor),
                      MakeDoubleChecker<double>(0.0))
        .AddAttribute("MaxCwnd",
                      "Explicit max_wnd in bytes (MRC max_cwnd); 0 derives it.",
                      UintegerValue(0),
                      MakeUintegerAccessor(&MrcNscc::m_cfgMaxWnd),
                      MakeUintegerChecker<uint64_t>())
        .AddAttribute("MaxWndFollowsBaseRtt",
                      "true (default): when base_rtt drops, max_wnd becomes MaxWndFactor x "
                      "rate x base_rtt ([U] update_base_rtt, htsim), so the cap and the "
                      "quick-adapt gate (max_wnd >> QaGate) follow the sender's own path. "
                      "false: max_wnd stays what Init set (MaxCwnd, else MaxWndFactor x BDP "
                      "at config_base_rtt), one value for every sender, as an MRC CC "
                      "profile configures max_cwnd in bytes (mrc_ctl_cc_nscc_cfg). "
                      "RescaleOnBaseRttDrop recomputes it whatever this says.",
                      BooleanValue(true),
                      MakeBooleanAccessor(&MrcNscc::m_wndFollowsRtt),
                      MakeBooleanChecker())
        .AddAttribute("Gamma",
                      "Multiplicative-decrease gain.",
                      DoubleValue(0.8),
                      MakeDoubleAccessor(&MrcNscc::m_gamma),
                      MakeDoubleChecker<double>(0.0))
        .AddAttribute("MaxMdJump",
                      "Smallest factor one multiplicative decrease may apply.",
                      DoubleValue(0.5),
                      MakeDoubleAccessor(&MrcNscc::m_maxMdJump),
                      MakeDoubleChecker<double>(0.0, 1.0));
}

TypeId
MrcNscc::AddQuickAdaptAttributes(TypeId tid)
{
    return tid
        .AddAttribute("QaGate",
                      "Quick adapt only if achieved_bytes < (max_wnd >> QaGate).",
                      UintegerValue(3),
                      MakeUintegerAccessor(&MrcNscc::m_qaGate),
                      MakeUintegerChecker<uint32_t>(0, 63))
        .AddAttribute("QaThresholdFactor",
                      "qa_threshold = factor x target delay (unless QaThreshold is set).",
                      DoubleValue(4.0),
                      MakeDoubleAccessor(&MrcNscc::m_qaThresholdFactor),
                      MakeDoubleChecker<double>(0.0))
        .AddAttribute("QaThreshold",
                      "Explicit qa_threshold; 0 uses QaThresholdFactor.",
                      TimeValue(Time(0)),
                      MakeTimeAccessor(&MrcNscc::m_cfgQaThreshold),
                      MakeTimeChecker(Time(0)))
        .AddAttribute("AdjustBytesThreshold",
                      "adjust_bytes_threshold in bytes; 0 means 8 x MTU.",
                      UintegerValue(0),
                      MakeUintegerAccessor(&MrcNscc::m_cfgAdjustBytes),
                      MakeUintegerChecker<uint64_t>())
        .AddAttribute("AdjustPeriod",
                      "adjust_period_threshold; 0 means config_base_rtt.",
                      TimeValue(Time(0)),
                      MakeTimeAccessor(&MrcNscc::m_cfgAdjustPeriod),
                      MakeTimeChecker(Time(0)))
        .AddAttribute("DisableQuickAdapt",
                      "Turn quick adapt off.",
                      BooleanValue(false),
                      MakeBooleanAccessor(&MrcNscc::m_disableQa),
                      MakeBooleanChecker());
}

TypeId
MrcNscc::AddIncreaseAttributes(TypeId tid)
{
    return tid
        .AddAttribute("DelayEwmaGain",
                      "Gain of the queuing-delay average avg_delay.",
                      DoubleValue(0.0125),
                      MakeDoubleAccessor(&MrcNscc::m_ewmaGain),
                      MakeDoubleChecker<double>(0.0, 1.0))
        .AddAttribute("DelayAverageOverBaseRtt",
                      "avg_delay as a time average over the sender's own base RTT ([U] "
                      "leaves the average to the implementation, 'over the last base_rtt'): "
                      "each sample weighs 1 - exp(-dt / base_rtt), dt the time since the "
                      "previous one. false (default): a fixed gain DelayEwmaGain per sample, "
                      "as htsim's uec.cpp.",
                      BooleanValue(false),
                      MakeBooleanAccessor(&MrcNscc::m_avgOverBaseRtt),
                      MakeBooleanChecker())
        .AddAttribute("FastIncreaseThreshold",
                      "A queuing delay below this counts as zero for fast increase.",
                      TimeValue(MicroSeconds(1)),
                      MakeTimeAccessor(&MrcNscc::m_fiDelayThreshold),
                      MakeTimeChecker(Time(0)))
        .AddAttribute("ReferenceRate",
                      "Link rate of the scaling reference point.",
                      DataRateValue(DataRate("100Gbps")),
                      MakeDataRateAccessor(&MrcNscc::m_refRate),
                      MakeDataRateChecker())
        .AddAttribute("ReferenceRtt",
                      "RTT of the scaling reference point (scaling_b = target / this).",
                      TimeValue(MicroSeconds(12)),
                      MakeTimeAccessor(&MrcNscc::m_refRtt),
                      MakeTimeChecker(Time(0)))
        .AddAttribute("Fi",
                      "Explicit fair-increase fi in bytes; 0 means 5 x MTU x scaling_a.",
                      DoubleValue(0.0),
                      MakeDoubleAccessor(&MrcNscc::m_cfgFi),
                      MakeDoubleChecker<double>(0.0))
        .AddAttribute("FiScale",
                      "Explicit fast-increase factor fi_scale; 0 means 0.25 x scaling_a.",
                      DoubleValue(0.0),
                      MakeDoubleAccessor(&MrcNscc::m_cfgFiScale),
                      MakeDoubleChecker<double>(0.0))
        .AddAttribute("Eta",
                      "Explicit additive probe eta in bytes; 0 means 0.15 x MTU x "
                      "scaling_a.",
                      DoubleValue(0.0),
                      MakeDoubleAccessor(&MrcNscc::m_cfgEta),
                      MakeDoubleChecker<double>(0.0));
}

TypeId
MrcNscc::AddVariantAttributes(TypeId tid)
{
    return tid
        .AddAttribute("UpdateBaseRttOnNack",
                      "A NACK's RTT sample may lower base_rtt (UEC simulator default).",
                      BooleanValue(true),
                      MakeBooleanAccessor(&MrcNscc::m_updateBaseRttOnNack),
                      MakeBooleanChecker())
        .AddAttribute("InvalidRttUsesAvgDelay",
                      "An ACK without a valid RTT sample is processed with avg_delay as "
                      "its delay (UEC simulator); false ends processing after the byte "
                      "counters (UEC spec pseudocode).",
                      BooleanValue(false),
                      MakeBooleanAccessor(&MrcNscc::m_invalidUsesAvg),
                      MakeBooleanChecker())
        .AddAttribute("RescaleOnBaseRttDrop",
                      "When base_rtt drops, recompute every derived parameter from it; "
                      "false recomputes only max_wnd (UEC spec update_base_rtt).",
                      BooleanValue(false),
                      MakeBooleanAccessor(&MrcNscc::m_rescaleOnDrop),
                      MakeBooleanChecker())
        .AddAttribute("IncreaseRttScaling",
                      "Our modelling choice, not in UEC 1.0: every additive increase (fair "
                      "increase fi, proportional alpha, eta) is multiplied by rho^x with rho = "
                      "(base_rtt + target) / (config_base_rtt + target), x this value; a "
                      "sender on a shorter path grows its window more slowly, towards a "
                      "window in proportion to its RTT. 0 (default): no scaling (UEC 1.0).",
                      DoubleValue(0.0),
                      MakeDoubleAccessor(&MrcNscc::m_rttScalingExp),
                      MakeDoubleChecker<double>(0.0, 4.0))
        .AddAttribute("Rccc",
                      "Receiver credit CC runs too: a last-hop trim does not trigger "
                      "quick adapt or cut cwnd.",
                      BooleanValue(false),
                      MakeBooleanAccessor(&MrcNscc::m_rccc),
                      MakeBooleanChecker())
        .AddAttribute("AccountInflight",
                      "This controller subtracts acked/NACKed/lost bytes from "
                      "MrcCcState::inflight; false leaves that to the queue pair.",
                      BooleanValue(false),
                      MakeBooleanAccessor(&MrcNscc::m_accountInflight),
                      MakeBooleanChecker())
        .AddAttribute("AckGenTrigger",
                      "AckRequest() is also true while cwnd is below this (bytes).",
                      UintegerValue(16384),
                      MakeUintegerAccessor(&MrcNscc::m_ackGenTrigger),
                      MakeUintegerChecker<uint32_t>());
}

TypeId
MrcNscc::AddTraceSources(TypeId tid)
{
    return tid
        .AddTraceSource("Cwnd",
                        "The window changed (old, new bytes).",
                        MakeTraceSourceAccessor(&MrcNscc::m_cwndTrace),
                        "ns3::MrcNscc::CwndTracedCallback")
        .AddTraceSource("BaseRtt",
                        "base_rtt dropped (old, new).",
                        MakeTraceSourceAccessor(&MrcNscc::m_baseRttTrace),
                        "ns3::TracedValueCallback::Time")
        .AddTraceSource("QuickAdapt",
                        "Quick adapt set the window (new bytes).",
                        MakeTraceSourceAccessor(&MrcNscc::m_quickAdaptTrace),
                        "ns3::TracedValueCallback::Uint64")
        .AddTraceSource("AckDecision",
                        "An ACK was processed: its RTT sample, base RTT, delay, target, "
                        "ECN echo and the quadrant taken.",
                        MakeTraceSourceAccessor(&MrcNscc::m_ackDecisionTrace),
                        "ns3::MrcNscc::AckDecisionTracedCallback")
        .AddTraceSource("WindowCut",
                        "The window was cut: the cause (trim NACK, inferred loss, "
                        "multiplicative decrease, quick adapt, receiver penalty), the "
                        "window before and after (bytes).",
                        MakeTraceSourceAccessor(&MrcNscc::m_windowCutTrace),
                        "ns3::MrcNscc::WindowCutTracedCallback");
}

MrcNscc::MrcNscc()
{
    NS_LOG_FUNCTION(this);
}

MrcNscc::MrcNscc(const MrcNscc& other)
    : MrcCongestionOps(other),
      m_cfgBaseRtt(other.m_cfgBaseRtt),
      m_peerRate(other.m_peerRate),
      m_trimming(other.m_trimming),
      m_cfgTarget(other.m_cfgTarget),
      m_maxWndFactor(other.m_maxWndFactor),
      m_cfgMaxWnd(other.m_cfgMaxWnd),
      m_wndFollowsRtt(other.m_wndFollowsRtt),
      m_gamma(other.m_gamma),
      m_maxMdJump(other.m_maxMdJump),
      m_qaGate(other.m_qaGate),
      m_qaThresholdFactor(other.m_qaThresholdFactor),
      m_cfgQaThreshold(other.m_cfgQaThreshold),
      m_cfgAdjustBytes(other.m_cfgAdjustBytes),
      m_cfgAdjustPeriod(other.m_cfgAdjustPeriod),
      m_disableQa(other.m_disableQa),
      m_ewmaGain(other.m_ewmaGain),
      m_avgOverBaseRtt(other.m_avgOverBaseRtt),
      m_fiDelayThreshold(other.m_fiDelayThreshold),
      m_refRate(other.m_refRate),
      m_refRtt(other.m_refRtt),
      m_cfgFi(other.m_cfgFi),
      m_cfgFiScale(other.m_cfgFiScale),
      m_cfgEta(other.m_cfgEta),
      m_updateBaseRttOnNack(other.m_updateBaseRttOnNack),
      m_invalidUsesAvg(other.m_invalidUsesAvg),
      m_rescaleOnDrop(other.m_rescaleOnDrop),
      m_rttScalingExp(other.m_rttScalingExp),
      m_rccc(other.m_rccc),
      m_accountInflight(other.m_accountInflight),
      m_ackGenTrigger(other.m_ackGenTrigger)
{
}

MrcNscc::~MrcNscc()
{
}

std::string
MrcNscc::GetName() const
{
    return "nscc";
}

Ptr<MrcCongestionOps>
MrcNscc::Fork() const
{
    return CopyObject<MrcNscc>(this);
}

DataRate
MrcNscc::BdpRate(const MrcCcState& s) const
{
    return (m_peerRate.GetBitRate() > 0 && m_peerRate < s.lineRate) ? m_peerRate : s.lineRate;
}

void
MrcNscc::ComputeDerived(const MrcCcState& s, Time rtt)
{
    m_bdp = BytesIn(BdpRate(s), rtt);
    const uint64_t refBdp = BytesIn(m_refRate, m_refRtt);
    NS_ABORT_MSG_IF(refBdp == 0,
                    "MrcNscc: ReferenceRate " << m_refRate << " x ReferenceRtt "
                                              << m_refRtt.As(Time::NS)
                                              << " is below one byte; both must be > 0");
    m_scalingA = static_cast<double>(m_bdp) / static_cast<double>(refBdp);
    if (!m_cfgTarget.IsZero())
    {
        m_target = m_cfgTarget;
    }
    else
    {
        m_target = m_trimming ? rtt * 3 / 4 : rtt;
    }
    NS_ABORT_MSG_IF(!m_target.IsStrictlyPositive(),
                    "MrcNscc: target delay is " << m_target.As(Time::NS) << "; it must be > 0");
    m_scalingB =
        static_cast<double>(m_target.GetTimeStep()) / static_cast<double>(m_refRtt.GetTimeStep());
    const double mtu = s.mtu;
    m_alpha = 4.0 * m_scalingA * m_scalingB * mtu / m_target.GetSeconds();
    m_fi = m_cfgFi > 0 ? m_cfgFi : 5.0 * mtu * m_scalingA;
    m_fiScale = m_cfgFiScale > 0 ? m_cfgFiScale : 0.25 * m_scalingA;
    m_eta = m_cfgEta > 0 ? m_cfgEta : 0.15 * mtu * m_scalingA;
    m_maxWnd =
        m_cfgMaxWnd > 0 ? m_cfgMaxWnd : FloorBytes(m_maxWndFactor * static_cast<double>(m_bdp));
    m_maxWnd = std::max<uint64_t>(m_maxWnd, s.mtu);
    m_qaThreshold = !m_cfgQaThreshold.IsZero() ? m_cfgQaThreshold : m_target * m_qaThresholdFactor;
    m_adjustBytes = m_cfgAdjustBytes > 0 ? m_cfgAdjustBytes : 8ULL * s.mtu;
    m_adjustPeriod = !m_cfgAdjustPeriod.IsZero() ? m_cfgAdjustPeriod : rtt;
}

void
MrcNscc::UpdateRttScale()
{
    if (m_rttScalingExp <= 0)
    {
        m_rttScale = 1.0;
        return;
    }
    const double rho =
        (m_baseRtt + m_target).GetSeconds() / (m_configBaseRtt + m_target).GetSeconds();
    m_rttScale = std::pow(rho, m_rttScalingExp);
}

void
MrcNscc::Init(MrcCcState& s)
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(s.lineRate.GetBitRate() == 0,
                    "MrcNscc: MrcCcState::lineRate is 0 bps; it must be > 0");
    NS_ABORT_MSG_IF(s.mtu == 0, "MrcNscc: MrcCcState::mtu is 0; it must be > 0");
    m_configBaseRtt = m_cfgBaseRtt.IsZero() ? s.baseRtt : m_cfgBaseRtt;
    NS_ABORT_MSG_IF(!m_configBaseRtt.IsStrictlyPositive(),
                    "MrcNscc: base RTT is " << m_configBaseRtt.As(Time::NS)
                                            << "; set the attribute BaseRtt or "
                                               "MrcCcState::baseRtt to a value > 0");
    ComputeDerived(s, m_configBaseRtt);
    m_baseRtt = m_configBaseRtt;
    m_savedCwnd = 0;
    m_achievedBytes = 0;
    m_receivedBytes = 0;
    m_fiCount = 0;
    m_bytesToIgnore = 0;
    m_bytesIgnored = 0;
    m_incBytes = 0;
    m_triggerQa = false;
    m_increaseMode = false;
    m_qaEndTime = Time(0);
    m_lastAdjustTime = MrcNow();
    m_lastDecTime = MrcNow();
    m_avgDelay = 0;
    m_lastDelayUpdate = MrcNow();
    UpdateRttScale();
    s.rate = s.lineRate;
    SetCwnd(s, m_maxWnd);
}

void
MrcNscc::SetCwnd(MrcCcState& s, uint64_t cwnd)
{
    if (cwnd != s.cwnd)
    {
        NS_LOG_LOGIC("cwnd " << s.cwnd << " -> " << cwnd);
        m_cwndTrace(s.cwnd, cwnd);
        s.cwnd = cwnd;
    }
}

void
MrcNscc::ClampCwnd(MrcCcState& s)
{
    SetCwnd(s, std::min<uint64_t>(std::max<uint64_t>(s.cwnd, s.mtu), m_maxWnd));
}

void
MrcNscc::UpdateBaseRtt(MrcCcState& s, Time sample)
{
    if (!sample.IsStrictlyPositive() || sample >= m_baseRtt)
    {
        return;
    }
    m_baseRttTrace(m_baseRtt, sample);
    m_baseRtt = sample;
    if (m_rescaleOnDrop)
    {
        ComputeDerived(s, m_baseRtt);
    }
    else if (m_cfgMaxWnd == 0 && m_wndFollowsRtt)
    {
        const uint64_t bdp = BytesIn(BdpRate(s), m_baseRtt);
        m_maxWnd = std::max<uint64_t>(FloorBytes(m_maxWndFactor * static_cast<double>(bdp)), s.mtu);
    }
    UpdateRttScale();
    if (s.cwnd > m_maxWnd)
    {
        SetCwnd(s, m_maxWnd);
    }
}

void
MrcNscc::UpdateDelay(Time delay, bool ecn)
{
    double sample = delay.GetSeconds();
    if (!ecn && delay > m_target)
    {
        // A large delay without ECN is probably stale: pull the average towards a
        // quarter of the base RTT instead.
        sample = 0.25 * m_baseRtt.GetSeconds();
    }
    double gain = m_ewmaGain;
    if (m_avgOverBaseRtt)
    {
        const Time now = MrcNow();
        const double dt = (now - m_lastDelayUpdate).GetSeconds();
        m_lastDelayUpdate = now;
        gain = 1.0 - std::exp(-dt / m_baseRtt.GetSeconds());
    }
    m_avgDelay = gain * sample + (1.0 - gain) * m_avgDelay;
}

bool
MrcNscc::ApplyCwndPenalty(MrcCcState& s, const MrcCcAck& ack)
{
    if (ack.rcvCwndPend > 0)
    {
        if (m_savedCwnd == 0)
        {
            m_savedCwnd = s.cwnd;
        }
        const uint64_t inflight = s.inflight > 0 ? static_cast<uint64_t>(s.inflight) : 0;
        uint64_t cwnd = std::min<uint64_t>(s.cwnd, inflight);
        const uint64_t cut = (static_cast<uint64_t>(ack.rcvCwndPend) * ack.newlyAckedBytes) >> 7;
        cwnd = cwnd > cut ? cwnd - cut : 0;
        const uint64_t before = s.cwnd;
        SetCwnd(s, std::max<uint64_t>(cwnd, s.mtu));
        m_windowCutTrace(MrcNsccCut::RECEIVER_PENALTY, before, s.cwnd);
        return true;
    }
    if (ack.restoreCwnd && m_savedCwnd != 0)
    {
        SetCwnd(s, std::min(m_savedCwnd, m_maxWnd));
        m_savedCwnd = 0;
    }
    return false;
}

bool
MrcNscc::QuickAdapt(MrcCcState& s, bool isLoss, bool ecn, Time qdelay)
{
    if (m_disableQa)
    {
        return false;
    }
    bool done = false;
    m_qaFired = false;
    if (m_bytesIgnored < m_bytesToIgnore && ecn)
    {
        done = true; // ignore this signal: it predates the last quick adapt
    }
    else if (MrcNow() >= m_qaEndTime)
    {
        if (!m_qaEndTime.IsZero() && (m_triggerQa || isLoss || qdelay > m_qaThreshold) &&
            m_achievedBytes < (m_maxWnd >> m_qaGate))
        {
            const uint64_t cwnd = std::max<uint64_t>(m_achievedBytes, s.mtu);
            const uint64_t before = s.cwnd;
            SetCwnd(s, std::min(cwnd, m_maxWnd));
            m_windowCutTrace(MrcNsccCut::QUICK_ADAPT, before, s.cwnd);
            m_bytesToIgnore = s.inflight;
            m_bytesIgnored = 0;
            m_triggerQa = false;
            done = true;
            m_qaFired = true;
            m_quickAdaptTrace(s.cwnd);
        }
        m_achievedBytes = 0;
        m_qaEndTime = MrcNow() + m_baseRtt + m_target;
    }
    if (done)
    {
        m_incBytes = 0;
        m_receivedBytes = 0;
    }
    return done;
}

bool
MrcNscc::FastIncrease(MrcCcState& s, uint64_t newly, Time delay)
{
    if (delay < m_fiDelayThreshold)
    {
        m_fiCount += newly;
        if (m_fiCount > s.cwnd || m_increaseMode)
        {
            const double cwnd =
                static_cast<double>(s.cwnd) + static_cast<double>(newly) * m_fiScale;
            SetCwnd(s, std::min(FloorBytes(cwnd), m_maxWnd));
            m_increaseMode = true;
            return true;
        }
        return false;
    }
    m_fiCount = 0;
    m_increaseMode = false;
    return false;
}

bool
MrcNscc::MultiplicativeDecrease(MrcCcState& s)
{
    m_increaseMode = false;
    m_fiCount = 0;
    const Time now = MrcNow();
    const double target = m_target.GetSeconds();
    if (m_avgDelay > target && now - m_lastDecTime > m_baseRtt)
    {
        const double factor =
            std::max(1.0 - m_gamma * (m_avgDelay - target) / m_avgDelay, m_maxMdJump);
        const uint64_t cwnd = FloorBytes(static_cast<double>(s.cwnd) * factor);
        const uint64_t before = s.cwnd;
        SetCwnd(s, std::max<uint64_t>(cwnd, s.mtu));
        m_windowCutTrace(MrcNsccCut::MULTIPLICATIVE_DECREASE, before, s.cwnd);
        m_lastDecTime = now;
        return true;
    }
    return false;
}

void
MrcNscc::FulfillAdjustment(MrcCcState& s)
{
    const Time now = MrcNow();
    const bool periodDue = now - m_lastAdjustTime >= m_adjustPeriod;
    if (!periodDue && m_receivedBytes <= m_adjustBytes)
    {
        return;
    }
    ClampCwnd(s);
    double cwnd = static_cast<double>(s.cwnd) + m_incBytes / static_cast<double>(s.cwnd);
    if (periodDue)
    {
        cwnd += m_eta * m_rttScale;
        m_lastAdjustTime = now;
    }
    SetCwnd(s, FloorBytes(cwnd));
    ClampCwnd(s);
    m_incBytes = 0;
    m_receivedBytes = 0;
}

void
MrcNscc::OnAck(MrcCcState& s, const MrcCcAck& ack)
{
    NS_LOG_FUNCTION(this << ack.newlyAckedBytes << ack.ecnEcho << ack.rttSample);
    const uint64_t newly = ack.newlyAckedBytes;
    // 1. byte counters
    if (m_accountInflight)
    {
        s.inflight -= static_cast<int64_t>(newly);
    }
    m_bytesIgnored += static_cast<int64_t>(newly);
    m_receivedBytes += newly;
    m_achievedBytes += newly;
    MrcNsccAckRecord rec;
    rec.newly = newly;
    rec.ecn = ack.ecnEcho;
    rec.rttSample = ack.rttValid ? ack.rttSample : Time(0);
    if (ProcessAck(s, ack, rec))
    {
        // 7. apply the accumulated increase when due
        FulfillAdjustment(s);
    }
    rec.baseRtt = m_baseRtt;
    rec.target = m_target;
    m_ackDecisionTrace(rec);
}

bool
MrcNscc::ProcessAck(MrcCcState& s, const MrcCcAck& ack, MrcNsccAckRecord& rec)
{
    const uint64_t newly = ack.newlyAckedBytes;
    // 2. RTT sample
    if (!ack.rttValid && !m_invalidUsesAvg)
    {
        rec.decision = MrcNsccDecision::NO_RTT_SAMPLE;
        return false;
    }
    // 3. destination flow control
    const bool rcvLimit = ApplyCwndPenalty(s, ack);
    // 4. base RTT and delay
    Time delay;
    if (ack.rttValid)
    {
        if (ack.serviceTime.IsZero())
        {
            UpdateBaseRtt(s, ack.rttSample); // only samples without service time (H)
        }
        // A sample below the base RTT (one with service time, which does not lower the
        // base RTT, or a configured BaseRtt above the path's) is no queueing: delay 0.
        delay = std::max(ack.rttSample - m_baseRtt, Time(0));
        UpdateDelay(delay, ack.ecnEcho);
    }
    else
    {
        delay = Seconds(m_avgDelay);
    }
    rec.delay = delay;
    // 5. quick adapt
    if (QuickAdapt(s, false, ack.ecnEcho, delay))
    {
        rec.decision =
            m_qaFired ? MrcNsccDecision::QUICK_ADAPT : MrcNsccDecision::QUICK_ADAPT_IGNORED;
        return false;
    }
    // 6. quadrants
    if (!ack.ecnEcho)
    {
        if (rcvLimit)
        {
            rec.decision = MrcNsccDecision::RECEIVER_LIMITED;
        }
        else if (delay >= m_target)
        {
            m_incBytes += m_fi * m_rttScale * static_cast<double>(newly);
            rec.decision = MrcNsccDecision::FAIR_INCREASE;
        }
        else if (FastIncrease(s, newly, delay))
        {
            rec.decision = MrcNsccDecision::FAST_INCREASE;
        }
        else
        {
            m_incBytes +=
                m_alpha * m_rttScale * static_cast<double>(newly) * (m_target - delay).GetSeconds();
            rec.decision = MrcNsccDecision::PROPORTIONAL_INCREASE;
        }
    }
    else if (delay >= m_target)
    {
        rec.decision = MultiplicativeDecrease(s) ? MrcNsccDecision::MULTIPLICATIVE_DECREASE
                                                 : MrcNsccDecision::DECREASE_HELD;
    }
    else
    {
        rec.decision = MrcNsccDecision::NO_CHANGE;
    }
    return true;
}

void
MrcNscc::OnNack(MrcCcState& s, uint32_t bytes, MrcCcNackKind kind)
{
    OnNackWithRtt(s, bytes, kind, Time(0));
}

void
MrcNscc::OnNackWithRtt(MrcCcState& s, uint32_t bytes, MrcCcNackKind kind, Time rttSample)
{
    NS_LOG_FUNCTION(this << bytes << static_cast<int>(kind) << rttSample);
    if (m_accountInflight)
    {
        s.inflight -= bytes;
    }
    if (m_updateBaseRttOnNack)
    {
        UpdateBaseRtt(s, rttSample);
    }
    if (kind == MrcCcNackKind::OTHER)
    {
        return;
    }
    // A trim: about one base RTT of queuing at the trim point.
    UpdateDelay(m_configBaseRtt, true);
    m_bytesIgnored += bytes;
    if (kind == MrcCcNackKind::TRIMMED || !m_rccc)
    {
        m_triggerQa = true;
        if (!QuickAdapt(s, true, true, Time(0)))
        {
            const uint64_t before = s.cwnd;
            SetCwnd(s, s.cwnd > s.mtu + bytes ? s.cwnd - bytes : s.mtu);
            m_windowCutTrace(MrcNsccCut::TRIM_NACK, before, s.cwnd);
        }
    }
}

void
MrcNscc::OnLoss(MrcCcState& s, uint32_t bytes)
{
    NS_LOG_FUNCTION(this << bytes);
    const uint64_t before = s.cwnd;
    SetCwnd(s, s.cwnd > s.mtu + bytes ? s.cwnd - bytes : s.mtu);
    m_windowCutTrace(MrcNsccCut::LOSS, before, s.cwnd);
    m_bytesIgnored += bytes;
    if (m_accountInflight)
    {
        s.inflight -= bytes;
    }
}

void
MrcNscc::OnBaseRttSample(MrcCcState& s, Time rtt)
{
    NS_LOG_FUNCTION(this << rtt);
    UpdateBaseRtt(s, rtt);
}

bool
MrcNscc::CanSend(const MrcCcState& s, uint32_t bytes)
{
    return s.inflight + static_cast<int64_t>(bytes) <= static_cast<int64_t>(s.cwnd);
}

bool
MrcNscc::IsRttSampleValid(uint32_t retxCount, Time rttSample, Time baseRtt)
{
    return retxCount == 0 || (retxCount == 1 && rttSample >= baseRtt);
}

bool
MrcNscc::AckRequest(const MrcCcState& s) const
{
    return static_cast<int64_t>(s.cwnd) - s.inflight < static_cast<int64_t>(s.mtu) ||
           s.cwnd < m_ackGenTrigger;
}

Time
MrcNscc::GetBaseRtt() const
{
    return m_baseRtt;
}

Time
MrcNscc::GetConfigBaseRtt() const
{
    return m_configBaseRtt;
}

double
MrcNscc::GetAvgDelay() const
{
    return m_avgDelay;
}

double
MrcNscc::GetIncBytes() const
{
    return m_incBytes;
}

uint64_t
MrcNscc::GetAchievedBytes() const
{
    return m_achievedBytes;
}

uint64_t
MrcNscc::GetReceivedBytes() const
{
    return m_receivedBytes;
}

uint64_t
MrcNscc::GetFiCount() const
{
    return m_fiCount;
}

bool
MrcNscc::IsIncreaseMode() const
{
    return m_increaseMode;
}

Time
MrcNscc::GetQaEndTime() const
{
    return m_qaEndTime;
}

bool
MrcNscc::IsTriggerQa() const
{
    return m_triggerQa;
}

int64_t
MrcNscc::GetBytesToIgnore() const
{
    return m_bytesToIgnore;
}

int64_t
MrcNscc::GetBytesIgnored() const
{
    return m_bytesIgnored;
}

uint64_t
MrcNscc::GetSavedCwnd() const
{
    return m_savedCwnd;
}

Time
MrcNscc::GetLastAdjustTime() const
{
    return m_lastAdjustTime;
}

Time
MrcNscc::GetLastDecTime() const
{
    return m_lastDecTime;
}

uint64_t
MrcNscc::GetBdp() const
{
    return m_bdp;
}

double
MrcNscc::GetScalingA() const
{
    return m_scalingA;
}

double
MrcNscc::GetScalingB() const
{
    return m_scalingB;
}

double
MrcNscc::GetAlpha() const
{
    return m_alpha;
}

double
MrcNscc::GetFi() const
{
    return m_fi;
}

double
MrcNscc::GetFiScale() const
{
    return m_fiScale;
}

double
MrcNscc::GetEta() const
{
    return m_eta;
}

double
MrcNscc::GetIncreaseScale() const
{
    return m_rttScale;
}

uint64_t
MrcNscc::GetMaxWnd() const
{
    return m_maxWnd;
}

Time
MrcNscc::GetTargetDelay() const
{
    return m_target;
}

Time
MrcNscc::GetQaThreshold() const
{
    return m_qaThreshold;
}

uint64_t
MrcNscc::GetAdjustBytesThreshold() const
{
    return m_adjustBytes;
}

Time
MrcNscc::GetAdjustPeriod() const
{
    return m_adjustPeriod;
}

} // namespace ns3
