/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-dcqcn.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcDcqcn");

NS_OBJECT_ENSURE_REGISTERED(MrcDcqcn);

const char*
MrcDcqcnCutName(MrcDcqcnCut cut)
{
    switch (cut)
    {
    case MrcDcqcnCut::FIRST_CNP:
        return "FIRST_CNP";
    case MrcDcqcnCut::DECREASE:
        return "DECREASE";
    }
    return "UNKNOWN";
}

TypeId
MrcDcqcn::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcDcqcn")
            .SetParent<MrcCongestionOps>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcDcqcn>()
            .AddAttribute("G",
                          "Alpha gain g. Default 1/256 (DCQCN paper; HPCC simulator run.py).",
                          DoubleValue(1.0 / 256),
                          MakeDoubleAccessor(&MrcDcqcn::m_g),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("AlphaUpdateInterval",
                          "Alpha timer period K. Default 1 us (HPCC simulator run.py "
                          "ALPHA_RESUME_INTERVAL; the paper uses 55 us).",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&MrcDcqcn::m_alphaInterval),
                          MakeTimeChecker())
            .AddAttribute("RateDecreaseInterval",
                          "Decrease timer period. Default 4 us (HPCC simulator run.py "
                          "RATE_DECREASE_INTERVAL).",
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&MrcDcqcn::m_decreaseInterval),
                          MakeTimeChecker())
            .AddAttribute("RateIncreaseInterval",
                          "Increase timer period (RP timer). Default 300 us (HPCC simulator "
                          "run.py RP_TIMER; the paper uses 55 us).",
                          TimeValue(MicroSeconds(300)),
                          MakeTimeAccessor(&MrcDcqcn::m_increaseInterval),
                          MakeTimeChecker())
            .AddAttribute("ByteCounter",
                          "Byte counter B in bytes; 0 disables it (HPCC simulator, the "
                          "default). The DCQCN paper uses 10 MB.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcDcqcn::m_byteCounter),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("FastRecoveryTimes",
                          "F: increase events of fast recovery. Default 1 (HPCC simulator "
                          "run.py FAST_RECOVERY_TIMES; the paper uses 5).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&MrcDcqcn::m_fastRecoveryTimes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RateAi",
                          "Additive increase R_AI. Default 5 Mb/s (HPCC simulator run.py at "
                          "25 Gb/s; run.py scales it by rate/25G).",
                          DataRateValue(DataRate("5Mb/s")),
                          MakeDataRateAccessor(&MrcDcqcn::m_rateAi),
                          MakeDataRateChecker())
            .AddAttribute("RateHai",
                          "Hyper increase R_HAI. Default 50 Mb/s (HPCC simulator run.py at "
                          "25 Gb/s; run.py scales it by rate/25G).",
                          DataRateValue(DataRate("50Mb/s")),
                          MakeDataRateAccessor(&MrcDcqcn::m_rateHai),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "Floor of a rate cut. Default 1 Gb/s (HPCC simulator run.py "
                          "MIN_RATE).",
                          DataRateValue(DataRate("1Gb/s")),
                          MakeDataRateAccessor(&MrcDcqcn::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("ClampTargetRate",
                          "Set RT = RC at every cut, also at consecutive cuts. Default false "
                          "(HPCC simulator run.py CLAMP_TARGET_RATE 0).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MrcDcqcn::m_clampTargetRate),
                          MakeBooleanChecker())
            .AddAttribute("RateOnFirstCnp",
                          "RC and RT become this fraction of RC on the first CNP, in (0, 1]. "
                          "Default 1.0 (HPCC simulator attribute default).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&MrcDcqcn::m_rateOnFirstCnp),
                          MakeDoubleChecker<double>())
            .AddAttribute("HyperIncreaseForm",
                          "Once: RT += R_HAI per hyper step (HPCC simulator, default). "
                          "Scaled: RT += i R_HAI with i = min(T, BC) - F (DCQCN paper, htsim).",
#if MRC_NS3_VERSION_MINOR >= 41
                          EnumValue<HyperIncreaseForm>(HAI_ONCE),
                          MakeEnumAccessor<HyperIncreaseForm>(&MrcDcqcn::m_haiForm),
#else
                          EnumValue(HAI_ONCE),
                          MakeEnumAccessor(&MrcDcqcn::m_haiForm),
#endif
                          MakeEnumChecker(HAI_ONCE, "Once", HAI_SCALED, "Scaled"))
            .AddAttribute("ParkIdleTimers",
                          "Stop the alpha and decrease timers after a tick without a CNP and "
                          "the increase timer at line rate, and catch up on the next CNP; the "
                          "rates are the same as with timers that run forever (false, as the "
                          "HPCC simulator). Default true (our choice: fewer events).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcDcqcn::m_parkIdleTimers),
                          MakeBooleanChecker())
            .AddTraceSource("Rate",
                            "The current rate RC changed (old, new).",
                            MakeTraceSourceAccessor(&MrcDcqcn::m_rateTrace),
                            "ns3::MrcDcqcn::RateTracedCallback")
            .AddTraceSource("Alpha",
                            "Alpha changed (old, new). Decay ticks of a parked alpha timer "
                            "are reported together on the next CNP.",
                            MakeTraceSourceAccessor(&MrcDcqcn::m_alphaTrace),
                            "ns3::MrcDcqcn::AlphaTracedCallback")
            .AddTraceSource("TargetRate",
                            "The target rate RT changed (old, new): set on the first CNP, "
                            "renewed at a cut, raised by an additive or hyper increase. "
                            "Init's RT = line rate is not reported.",
                            MakeTraceSourceAccessor(&MrcDcqcn::m_targetTrace),
                            "ns3::MrcDcqcn::RateTracedCallback")
            .AddTraceSource("RateCut",
                            "The rate was cut: the cause (the first CNP with RateOnFirstCnp "
                            "below 1, or a decrease tick after a CNP), RC before and after.",
                            MakeTraceSourceAccessor(&MrcDcqcn::m_rateCutTrace),
                            "ns3::MrcDcqcn::RateCutTracedCallback");
    return tid;
}

MrcDcqcn::MrcDcqcn()
    : m_g(1.0 / 256),
      m_byteCounter(0),
      m_fastRecoveryTimes(1),
      m_clampTargetRate(false),
      m_rateOnFirstCnp(1.0),
      m_haiForm(HAI_ONCE),
      m_parkIdleTimers(true)
{
    NS_LOG_FUNCTION(this);
}

MrcDcqcn::~MrcDcqcn()
{
    NS_LOG_FUNCTION(this);
}

void
MrcDcqcn::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_alphaEvent.Cancel();
    m_decreaseEvent.Cancel();
    m_increaseEvent.Cancel();
    m_state = nullptr;
    MrcCongestionOps::DoDispose();
}

std::string
MrcDcqcn::GetName() const
{
    return "dcqcn";
}

void
MrcDcqcn::CheckConfig() const
{
    NS_ABORT_MSG_IF(!(m_g > 0.0 && m_g <= 1.0), "MrcDcqcn::G = " << m_g << ": allowed (0, 1]");
    NS_ABORT_MSG_IF(!m_alphaInterval.IsStrictlyPositive(),
                    "MrcDcqcn::AlphaUpdateInterval = " << m_alphaInterval << ": must be > 0");
    NS_ABORT_MSG_IF(!m_decreaseInterval.IsStrictlyPositive(),
                    "MrcDcqcn::RateDecreaseInterval = " << m_decreaseInterval << ": must be > 0");
    NS_ABORT_MSG_IF(!m_increaseInterval.IsStrictlyPositive(),
                    "MrcDcqcn::RateIncreaseInterval = " << m_increaseInterval << ": must be > 0");
    NS_ABORT_MSG_IF(!(m_rateOnFirstCnp > 0.0 && m_rateOnFirstCnp <= 1.0),
                    "MrcDcqcn::RateOnFirstCnp = " << m_rateOnFirstCnp << ": allowed (0, 1]");
}

void
MrcDcqcn::Init(MrcCcState& s)
{
    NS_LOG_FUNCTION(this);
    CheckConfig();
    NS_ABORT_MSG_IF(s.lineRate.GetBitRate() == 0, "MrcDcqcn::Init: MrcCcState::lineRate is 0");
    m_alphaEvent.Cancel();
    m_decreaseEvent.Cancel();
    m_increaseEvent.Cancel();
    m_state = &s;
    s.rate = s.lineRate;
    s.cwnd = std::numeric_limits<uint64_t>::max();
    m_targetRate = s.lineRate;
    m_alpha = 1.0;
    m_alphaCnp = false;
    m_decreaseCnp = false;
    m_started = false;
    m_t = 0;
    m_bc = 0;
    m_bytes = 0;
    m_alphaTicks = 0;
    m_alphaParked = false;
    m_decreaseParked = false;
    m_increaseParked = false;
}

Ptr<MrcCongestionOps>
MrcDcqcn::Fork() const
{
    Ptr<MrcDcqcn> c = CopyObject<MrcDcqcn>(this);
    // A fresh controller: no state, no timers (the copied EventIds belong to this object).
    c->m_state = nullptr;
    c->m_alphaEvent = EventId();
    c->m_decreaseEvent = EventId();
    c->m_increaseEvent = EventId();
    c->m_started = false;
    return c;
}

void
MrcDcqcn::SetRate(MrcCcState& s, DataRate r)
{
    if (r != s.rate)
    {
        DataRate old = s.rate;
        s.rate = r;
        m_rateTrace(old, r);
    }
}

void
MrcDcqcn::SetAlpha(double a)
{
    if (a != m_alpha)
    {
        double old = m_alpha;
        m_alpha = a;
        m_alphaTrace(old, a);
    }
}

void
MrcDcqcn::SetTarget(DataRate r)
{
    if (r != m_targetRate)
    {
        DataRate old = m_targetRate;
        m_targetRate = r;
        m_targetTrace(old, r);
    }
}

void
MrcDcqcn::OnSent(MrcCcState& s, uint32_t bytes)
{
    if (m_byteCounter == 0 || !m_started)
    {
        return;
    }
    m_bytes += bytes;
    while (m_bytes >= m_byteCounter)
    {
        m_bytes -= m_byteCounter;
        ByteCounterTick(s);
    }
}

void
MrcDcqcn::OnAck(MrcCcState& s, const MrcCcAck& ack)
{
    if (ack.cnpFlag)
    {
        OnCnp(s);
    }
}

void
MrcDcqcn::OnCnp(MrcCcState& s)
{
    NS_LOG_FUNCTION(this);
    if (!m_started)
    {
        // First CNP: alpha = 1 and the slot flag stays clear (as the HPCC simulator), RT = RC
        // = RateOnFirstCnp RC, timers start; the decrease tick 1 ns later cuts the rate.
        m_started = true;
        m_state = &s;
        SetAlpha(1.0);
        m_alphaCnp = false;
        m_decreaseCnp = true;
        auto r = static_cast<uint64_t>(
            std::llround(static_cast<double>(s.rate.GetBitRate()) * m_rateOnFirstCnp));
        const DataRate before = s.rate;
        SetRate(s, DataRate(r));
        if (s.rate < before)
        {
            m_rateCutTrace(MrcDcqcnCut::FIRST_CNP, before, s.rate);
        }
        SetTarget(s.rate);
        m_origin = Simulator::Now();
        m_lastDecreaseTick = m_origin;
        m_alphaTicks = 0;
        m_alphaParked = false;
        m_decreaseParked = false;
        m_alphaEvent = Simulator::Schedule(m_alphaInterval, &MrcDcqcn::AlphaTimer, this);
        m_decreaseEvent = Simulator::Schedule(NanoSeconds(1), &MrcDcqcn::DecreaseTimer, this);
        return;
    }
    if (m_alphaParked)
    {
        WakeAlphaTimer();
    }
    if (m_decreaseParked)
    {
        WakeDecreaseTimer();
    }
    m_alphaCnp = true;
    m_decreaseCnp = true;
}

void
MrcDcqcn::UpdateAlpha()
{
    double a = m_alphaCnp ? (1.0 - m_g) * m_alpha + m_g : (1.0 - m_g) * m_alpha;
    m_alphaCnp = false;
    SetAlpha(a);
}

void
MrcDcqcn::DecreaseTick(MrcCcState& s)
{
    if (!m_decreaseCnp)
    {
        return;
    }
    m_decreaseCnp = false;
    if (m_increaseParked)
    {
        m_t += ParkedIncreaseFires();
    }
    if (m_t != 0 || m_clampTargetRate)
    {
        SetTarget(s.rate);
    }
    uint64_t floor = std::min(m_minRate.GetBitRate(), s.lineRate.GetBitRate());
    double cut = static_cast<double>(s.rate.GetBitRate()) * (1.0 - Alpha() / 2.0);
    uint64_t r = std::max(floor, static_cast<uint64_t>(std::llround(cut)));
    const DataRate before = s.rate;
    SetRate(s, DataRate(r));
    m_rateCutTrace(MrcDcqcnCut::DECREASE, before, s.rate);
    m_t = 0;
    m_bc = 0;
    m_bytes = 0;
    if (m_started)
    {
        RestartIncreaseTimer();
    }
}

MrcDcqcn::Phase
MrcDcqcn::PhaseFor(uint32_t t, uint32_t bc) const
{
    if (std::max(t, bc) <= m_fastRecoveryTimes)
    {
        return FAST_RECOVERY;
    }
    if (std::min(t, bc) > m_fastRecoveryTimes)
    {
        return HYPER_INCREASE;
    }
    return ADDITIVE_INCREASE;
}

void
MrcDcqcn::ApplyIncrease(MrcCcState& s, Phase p, uint32_t i)
{
    uint64_t line = s.lineRate.GetBitRate();
    uint64_t rt = m_targetRate.GetBitRate();
    if (p != FAST_RECOVERY)
    {
        uint64_t step = p == ADDITIVE_INCREASE ? m_rateAi.GetBitRate() : m_rateHai.GetBitRate();
        uint64_t mult = (p == HYPER_INCREASE && m_haiForm == HAI_SCALED) ? i : 1;
        uint64_t room = rt < line ? line - rt : 0;
        if (step != 0 && mult > room / step)
        {
            rt = line;
        }
        else
        {
            rt = std::min(line, rt + mult * step);
        }
        SetTarget(DataRate(rt));
    }
    uint64_t rc = s.rate.GetBitRate();
    // Average rounded up, so that RC reaches RT instead of stopping 1 bit/s below it.
    uint64_t avg = rc / 2 + rt / 2 + ((rc % 2) + (rt % 2) + 1) / 2;
    SetRate(s, DataRate(std::min(avg, line)));
}

void
MrcDcqcn::IncreaseTick(MrcCcState& s)
{
    if (m_byteCounter == 0)
    {
        Phase p = m_t < m_fastRecoveryTimes    ? FAST_RECOVERY
                  : m_t == m_fastRecoveryTimes ? ADDITIVE_INCREASE
                                               : HYPER_INCREASE;
        uint32_t i = p == HYPER_INCREASE ? m_t - m_fastRecoveryTimes : 0;
        ApplyIncrease(s, p, i);
        ++m_t;
        return;
    }
    ++m_t;
    Phase p = PhaseFor(m_t, m_bc);
    ApplyIncrease(s, p, p == HYPER_INCREASE ? std::min(m_t, m_bc) - m_fastRecoveryTimes : 0);
}

void
MrcDcqcn::ByteCounterTick(MrcCcState& s)
{
    if (m_increaseParked)
    {
        uint32_t fires = ParkedIncreaseFires();
        m_t += fires;
        m_increaseParkedAt += m_increaseInterval * static_cast<int64_t>(fires);
    }
    ++m_bc;
    Phase p = PhaseFor(m_t, m_bc);
    ApplyIncrease(s, p, p == HYPER_INCREASE ? std::min(m_t, m_bc) - m_fastRecoveryTimes : 0);
}

uint64_t
MrcDcqcn::PendingAlphaTicks() const
{
    if (!m_alphaParked)
    {
        return 0;
    }
    int64_t elapsed = (Simulator::Now() - m_origin).GetTimeStep();
    auto k = static_cast<uint64_t>(elapsed / m_alphaInterval.GetTimeStep());
    return k > m_alphaTicks ? k - m_alphaTicks : 0;
}

uint32_t
MrcDcqcn::ParkedIncreaseFires() const
{
    if (!m_increaseParked)
    {
        return 0;
    }
    int64_t elapsed = (Simulator::Now() - m_increaseParkedAt).GetTimeStep();
    return static_cast<uint32_t>(elapsed / m_increaseInterval.GetTimeStep());
}

double
MrcDcqcn::Alpha() const
{
    uint64_t n = PendingAlphaTicks();
    return n == 0 ? m_alpha : m_alpha * std::pow(1.0 - m_g, static_cast<double>(n));
}

DataRate
MrcDcqcn::TargetRate() const
{
    return m_targetRate;
}

uint32_t
MrcDcqcn::Stage() const
{
    return m_t + ParkedIncreaseFires();
}

uint32_t
MrcDcqcn::ByteStage() const
{
    return m_bc;
}

MrcDcqcn::Phase
MrcDcqcn::NextPhase() const
{
    uint32_t t = Stage();
    if (m_byteCounter == 0)
    {
        return t < m_fastRecoveryTimes    ? FAST_RECOVERY
               : t == m_fastRecoveryTimes ? ADDITIVE_INCREASE
                                          : HYPER_INCREASE;
    }
    return PhaseFor(t + 1, m_bc);
}

bool
MrcDcqcn::Started() const
{
    return m_started;
}

bool
MrcDcqcn::DecreasePending() const
{
    return m_decreaseCnp;
}

void
MrcDcqcn::AlphaTimer()
{
    bool hadCnp = m_alphaCnp;
    UpdateAlpha();
    ++m_alphaTicks;
    if (hadCnp || !m_parkIdleTimers)
    {
        m_alphaEvent = Simulator::Schedule(m_alphaInterval, &MrcDcqcn::AlphaTimer, this);
    }
    else
    {
        m_alphaParked = true; // pure decay from here on, applied lazily
    }
}

void
MrcDcqcn::WakeAlphaTimer()
{
    // Apply the ticks strictly before now; a tick due exactly now runs after this CNP.
    int64_t elapsed = (Simulator::Now() - m_origin).GetTimeStep();
    int64_t k = m_alphaInterval.GetTimeStep();
    auto before = static_cast<uint64_t>(elapsed % k == 0 ? elapsed / k - 1 : elapsed / k);
    if (before > m_alphaTicks)
    {
        SetAlpha(m_alpha * std::pow(1.0 - m_g, static_cast<double>(before - m_alphaTicks)));
        m_alphaTicks = before;
    }
    m_alphaParked = false;
    Time next = m_origin + m_alphaInterval * static_cast<int64_t>(m_alphaTicks + 1);
    m_alphaEvent = Simulator::Schedule(next - Simulator::Now(), &MrcDcqcn::AlphaTimer, this);
}

void
MrcDcqcn::DecreaseTimer()
{
    NS_ASSERT(m_state != nullptr);
    bool hadCnp = m_decreaseCnp;
    DataRate before = m_state->rate;
    m_lastDecreaseTick = Simulator::Now();
    DecreaseTick(*m_state);
    if (hadCnp || !m_parkIdleTimers)
    {
        m_decreaseEvent = Simulator::Schedule(m_decreaseInterval, &MrcDcqcn::DecreaseTimer, this);
    }
    else
    {
        m_decreaseParked = true;
    }
    if (m_state->rate != before && !m_state->notifyChanged.IsNull())
    {
        m_state->notifyChanged();
    }
}

void
MrcDcqcn::WakeDecreaseTimer()
{
    // Ticks at origin + 1 ns + k D; restart at the first one at or after now.
    int64_t elapsed = (Simulator::Now() - m_origin - NanoSeconds(1)).GetTimeStep();
    int64_t d = m_decreaseInterval.GetTimeStep();
    int64_t k = elapsed <= 0 ? 0 : (elapsed + d - 1) / d;
    Time next = m_origin + NanoSeconds(1) + m_decreaseInterval * k;
    if (next <= m_lastDecreaseTick)
    {
        next += m_decreaseInterval; // the tick due now already ran before this CNP
    }
    m_decreaseParked = false;
    m_decreaseEvent = Simulator::Schedule(next - Simulator::Now(), &MrcDcqcn::DecreaseTimer, this);
}

void
MrcDcqcn::RestartIncreaseTimer()
{
    m_increaseEvent.Cancel();
    m_increaseParked = false;
    m_increaseEvent = Simulator::Schedule(m_increaseInterval, &MrcDcqcn::IncreaseTimer, this);
}

void
MrcDcqcn::IncreaseTimer()
{
    NS_ASSERT(m_state != nullptr);
    m_increaseEvent = Simulator::Schedule(m_increaseInterval, &MrcDcqcn::IncreaseTimer, this);
    DataRate before = m_state->rate;
    IncreaseTick(*m_state);
    if (m_parkIdleTimers && m_state->rate == m_state->lineRate && m_targetRate == m_state->lineRate)
    {
        // Nothing changes any more until the next cut restarts the timer.
        m_increaseEvent.Cancel();
        m_increaseParked = true;
        m_increaseParkedAt = Simulator::Now();
    }
    if (m_state->rate != before && !m_state->notifyChanged.IsNull())
    {
        m_state->notifyChanged();
    }
}

} // namespace ns3
