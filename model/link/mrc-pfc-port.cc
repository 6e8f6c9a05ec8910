/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-pfc-port.h"

#include "ns3/abort.h"
#include "ns3/ethernet-header.h"
#include "ns3/log.h"
#include "ns3/mrc-pfc-frame.h"
#include "ns3/mrc-uint128.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcPfcPort");

NS_OBJECT_ENSURE_REGISTERED(MrcPfcPort);

namespace
{

/// Abort unless cls names one of the eight classes; what says who asked.
void
CheckPfcClass(uint32_t cls, const char* what)
{
    NS_ABORT_MSG_IF(cls >= MrcPfcPort::N_CLASSES,
                    what << ": class " << cls << " is out of range: allowed 0..7");
}

} // namespace

TypeId
MrcPfcPort::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcPfcPort")
                            .SetParent<Object>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcPfcPort>()
                            .AddTraceSource("PfcTx",
                                            "A PFC frame went on the wire; once per enabled class.",
                                            MakeTraceSourceAccessor(&MrcPfcPort::m_pfcTxTrace),
                                            "ns3::MrcPfcPort::PfcTracedCallback")
                            .AddTraceSource("PfcRx",
                                            "A PFC frame arrived; once per enabled class.",
                                            MakeTraceSourceAccessor(&MrcPfcPort::m_pfcRxTrace),
                                            "ns3::MrcPfcPort::PfcTracedCallback")
                            .AddTraceSource("PauseState",
                                            "A class became paused or resumed.",
                                            MakeTraceSourceAccessor(&MrcPfcPort::m_pauseStateTrace),
                                            "ns3::MrcPfcPort::PauseStateTracedCallback");
    return tid;
}

MrcPfcPort::MrcPfcPort()
    : m_bps(100000000000ULL),
      m_rate(DataRate("100Gbps")),
      m_paused(0),
      m_txFrames(0),
      m_rxFrames(0)
{
    NS_LOG_FUNCTION(this);
}

MrcPfcPort::~MrcPfcPort()
{
    NS_LOG_FUNCTION(this);
}

void
MrcPfcPort::DoDispose()
{
    NS_LOG_FUNCTION(this);
    if (m_pause)
    {
        for (auto& e : m_pause->resumeEvent)
        {
            e.Cancel();
        }
    }
    m_pending.clear();
    m_pauseChange.Nullify();
    Object::DoDispose();
}

void
MrcPfcPort::SetDataRate(DataRate rate)
{
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, "MrcPfcPort DataRate must be above 0 bps");
    m_rate = rate;
    m_bps = rate.GetBitRate();
}

DataRate
MrcPfcPort::GetDataRate() const
{
    return m_rate;
}

Time
MrcPfcPort::GetPauseDuration(uint16_t quanta) const
{
    const uint64_t bits = static_cast<uint64_t>(quanta) * MrcPfcFrame::BITS_PER_QUANTUM;
    const uint64_t steps = static_cast<uint64_t>(Time::FromInteger(1, Time::S).GetTimeStep());
    const MrcUint128 scaled = static_cast<MrcUint128>(bits) * steps;
    return TimeStep(static_cast<uint64_t>((scaled + m_bps - 1) / m_bps));
}

MrcPfcPort::PauseRecord&
MrcPfcPort::Pauses()
{
    if (!m_pause)
    {
        m_pause = std::make_unique<PauseRecord>();
    }
    return *m_pause;
}

void
MrcPfcPort::SetPauseChangeCallback(PauseChangeCallback cb)
{
    m_pauseChange = cb;
}

// ---------------------------------------------------------------- receive side

void
MrcPfcPort::Receive(const Ptr<Packet>& frame)
{
    MrcPfcFrame pfc;
    frame->RemoveHeader(pfc);
    ++m_rxFrames;
    if (pfc.GetOpcode() != MrcPfcFrame::OPCODE)
    {
        NS_LOG_LOGIC("ignoring MAC Control opcode " << pfc.GetOpcode());
        return;
    }
    for (uint8_t c = 0; c < N_CLASSES; ++c)
    {
        if (pfc.IsEnabled(c))
        {
            m_pfcRxTrace(c, pfc.GetQuanta(c));
            ApplyPause(c, pfc.GetQuanta(c));
        }
    }
}

void
MrcPfcPort::ApplyPause(uint8_t cls, uint16_t quanta)
{
    NS_LOG_FUNCTION(this << unsigned(cls) << quanta);
    CheckPfcClass(cls, "MrcPfcPort::ApplyPause");
    const uint8_t bit = static_cast<uint8_t>(1u << cls);
    if (quanta == 0)
    {
        if (m_paused & bit)
        {
            m_pause->resumeEvent[cls].Cancel();
            Resume(cls);
        }
        return;
    }
    PauseRecord& rec = Pauses();
    if (!(m_paused & bit))
    {
        m_paused |= bit;
        rec.pauseStart[cls] = Simulator::Now();
        m_pauseStateTrace(cls, true);
        if (!m_pauseChange.IsNull())
        {
            m_pauseChange(cls, true);
        }
    }
    rec.resumeEvent[cls].Cancel();
    rec.resumeEvent[cls] =
        Simulator::Schedule(GetPauseDuration(quanta), &MrcPfcPort::Resume, this, cls);
}

void
MrcPfcPort::EndPause(uint8_t cls)
{
    // a class is paused only after its first pause allocated the record
    m_paused &= static_cast<uint8_t>(~(1u << cls));
    m_pause->pausedTotal[cls] += Simulator::Now() - m_pause->pauseStart[cls];
    m_pauseStateTrace(cls, false);
    if (!m_pauseChange.IsNull())
    {
        m_pauseChange(cls, false);
    }
}

void
MrcPfcPort::Resume(uint8_t cls)
{
    NS_LOG_FUNCTION(this << unsigned(cls));
    EndPause(cls);
}

void
MrcPfcPort::ResumeAll()
{
    NS_LOG_FUNCTION(this);
    for (uint8_t c = 0; c < N_CLASSES; ++c)
    {
        if ((m_paused >> c) & 1)
        {
            m_pause->resumeEvent[c].Cancel();
            EndPause(c);
        }
    }
}

bool
MrcPfcPort::IsPaused(uint8_t cls) const
{
    CheckPfcClass(cls, "MrcPfcPort::IsPaused");
    return (m_paused >> cls) & 1;
}

uint8_t
MrcPfcPort::GetPausedMask() const
{
    return m_paused;
}

Time
MrcPfcPort::GetPausedTime(uint8_t cls) const
{
    CheckPfcClass(cls, "MrcPfcPort::GetPausedTime");
    if (!m_pause)
    {
        return Seconds(0); // never paused
    }
    return m_pause->pausedTotal[cls] +
           (IsPaused(cls) ? Simulator::Now() - m_pause->pauseStart[cls] : Seconds(0));
}

// ---------------------------------------------------------------- send side

Ptr<Packet>
MrcPfcPort::MakeFrame(const Mac48Address& source,
                      uint8_t classVector,
                      const std::array<uint16_t, 8>& quanta)
{
    MrcPfcFrame pfc;
    pfc.SetClassEnableVector(classVector);
    for (uint8_t c = 0; c < N_CLASSES; ++c)
    {
        pfc.SetQuanta(c, quanta[c]);
    }
    Ptr<Packet> frame = Create<Packet>();
    frame->AddHeader(pfc);
    EthernetHeader eth;
    eth.SetSource(source);
    eth.SetDestination(MrcPfcFrame::GetDestination());
    eth.SetLengthType(MrcPfcFrame::ETHER_TYPE);
    frame->AddHeader(eth);
    return frame;
}

void
MrcPfcPort::EnqueueFrame(const Ptr<Packet>& frame,
                         uint8_t classVector,
                         const std::array<uint16_t, 8>& quanta)
{
    m_pending.push_back(Pending{frame, classVector, quanta});
}

bool
MrcPfcPort::HasPending() const
{
    return !m_pending.empty();
}

Ptr<Packet>
MrcPfcPort::DequeueFrame()
{
    if (m_pending.empty())
    {
        return nullptr;
    }
    Pending next = m_pending.front();
    m_pending.pop_front();
    ++m_txFrames;
    for (uint8_t c = 0; c < N_CLASSES; ++c)
    {
        if ((next.vector >> c) & 1)
        {
            m_pfcTxTrace(c, next.quanta[c]);
        }
    }
    return next.frame;
}

Ptr<Packet>
MrcPfcPort::DiscardFrame()
{
    if (m_pending.empty())
    {
        return nullptr;
    }
    Ptr<Packet> frame = m_pending.front().frame;
    m_pending.pop_front();
    return frame;
}

uint64_t
MrcPfcPort::GetTxFrames() const
{
    return m_txFrames;
}

uint64_t
MrcPfcPort::GetRxFrames() const
{
    return m_rxFrames;
}

} // namespace ns3
