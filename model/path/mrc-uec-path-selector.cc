/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-uec-path-selector.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcUecPathSelector");

NS_OBJECT_ENSURE_REGISTERED(MrcUecPathSelector);
NS_OBJECT_ENSURE_REGISTERED(MrcUecObliviousSpray);
NS_OBJECT_ENSURE_REGISTERED(MrcUecBitmapSelector);
NS_OBJECT_ENSURE_REGISTERED(MrcUecReps);
NS_OBJECT_ENSURE_REGISTERED(MrcUecMixedSelector);
NS_OBJECT_ENSURE_REGISTERED(MrcUecSinglePath);

namespace
{
/// Default number of paths per connection (uet-htsim `-paths` default).
constexpr uint32_t DEFAULT_PATHS = 64;

/// \param x a value \return true if x is a power of two
constexpr bool
IsPowerOfTwo(uint32_t x)
{
    return x != 0 && (x & (x - 1)) == 0;
}
} // namespace

// ---------------------------------------------------------------- MrcUecPathSelector

TypeId
MrcUecPathSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcUecPathSelector")
            .SetParent<MrcPathSelector>()
            .SetGroupName("Mrc")
            .AddAttribute("PathCount",
                          "Paths (EVs) per connection P, a power of two in [1, 65536]; the "
                          "strategies spray over EV & (P - 1). Default 64 (uet-htsim -paths).",
                          UintegerValue(DEFAULT_PATHS),
                          MakeUintegerAccessor(&MrcUecPathSelector::SetPathCount,
                                               &MrcUecPathSelector::GetPathCountAttribute),
                          MakeUintegerChecker<uint32_t>(1, 65536));
    return tid;
}

MrcUecPathSelector::MrcUecPathSelector()
    : m_pathCount(DEFAULT_PATHS),
      m_mask(DEFAULT_PATHS - 1),
      m_port(0)
{
    NS_LOG_FUNCTION(this);
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    u->SetAttribute("Min", DoubleValue(0));
    u->SetAttribute("Max", DoubleValue(65535));
    m_rng = u;
}

MrcUecPathSelector::~MrcUecPathSelector()
{
    NS_LOG_FUNCTION(this);
}

void
MrcUecPathSelector::DoDispose()
{
    m_rng = nullptr;
    MrcPathSelector::DoDispose();
}

void
MrcUecPathSelector::Init(uint32_t localQpn, uint32_t remoteQpn, uint32_t nPorts)
{
    NS_ABORT_MSG_IF(nPorts == 0, "MrcUecPathSelector: the NIC has no ports");
    m_port = MrcFixedEntropyPathSelector::FlowLabelOf(localQpn, remoteQpn) % nPorts;
    NS_LOG_FUNCTION(this << localQpn << remoteQpn << nPorts << m_port);
}

bool
MrcUecPathSelector::UsesPort(uint32_t port) const
{
    return port == m_port;
}

MrcPathChoice
MrcUecPathSelector::DoSelect(const MrcPathRequest& r)
{
    return EvChoice(r.port == NO_PORT ? m_port : r.port, DoNextEv());
}

void
MrcUecPathSelector::OnAck(uint16_t ev, bool ecn)
{
    Feedback(ev, ecn ? MrcUecEvFeedback::ECN : MrcUecEvFeedback::GOOD);
}

void
MrcUecPathSelector::OnNack(uint16_t ev)
{
    Feedback(ev, MrcUecEvFeedback::NACK);
}

void
MrcUecPathSelector::OnTimeout(uint16_t ev)
{
    Feedback(ev, MrcUecEvFeedback::TIMEOUT);
}

void
MrcUecPathSelector::OnLoss(uint16_t ev)
{
    Feedback(ev, MrcUecEvFeedback::LOSS);
}

uint32_t
MrcUecPathSelector::GetPathCount() const
{
    return m_pathCount;
}

uint32_t
MrcUecPathSelector::GetPathCountAttribute() const
{
    return m_pathCount;
}

void
MrcUecPathSelector::SetPathCount(uint32_t paths)
{
    NS_ABORT_MSG_IF(!IsPowerOfTwo(paths) || paths > 65536,
                    "MrcUecPathSelector: PathCount " << paths
                                                     << " is not a power of two in [1, 65536]");
    m_pathCount = paths;
    m_mask = paths - 1;
    PathCountChanged();
}

void
MrcUecPathSelector::PathCountChanged()
{
}

int64_t
MrcUecPathSelector::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

void
MrcUecPathSelector::SetRandomVariable(Ptr<RandomVariableStream> rv)
{
    NS_ABORT_MSG_IF(!rv, "MrcUecPathSelector: null random variable");
    m_rng = rv;
}

uint32_t
MrcUecPathSelector::Draw(uint32_t n)
{
    NS_ASSERT(IsPowerOfTwo(n) && n <= 65536);
    return m_rng->GetInteger() & (n - 1);
}

// ---------------------------------------------------------------- MrcUecObliviousSpray

TypeId
MrcUecObliviousSpray::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcUecObliviousSpray")
                            .SetParent<MrcUecPathSelector>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcUecObliviousSpray>();
    return tid;
}

MrcUecObliviousSpray::MrcUecObliviousSpray()
    : m_started(false),
      m_index(0),
      m_xor(0),
      m_upper(0)
{
}

void
MrcUecObliviousSpray::PathCountChanged()
{
    m_started = false;
    m_index = 0;
}

void
MrcUecObliviousSpray::Start()
{
    if (!m_started)
    {
        m_upper = static_cast<uint16_t>(Draw(65536) & ~m_mask);
        m_xor = Draw(m_pathCount);
        m_started = true;
    }
}

uint32_t
MrcUecObliviousSpray::Candidate() const
{
    return (m_index ^ m_xor) & m_mask;
}

void
MrcUecObliviousSpray::Advance()
{
    if (++m_index == m_pathCount)
    {
        m_index = 0;
        m_xor = Draw(m_pathCount);
    }
}

uint16_t
MrcUecObliviousSpray::DoNextEv()
{
    Start();
    uint32_t e = Candidate();
    Advance();
    return static_cast<uint16_t>(e | m_upper);
}

void
MrcUecObliviousSpray::DoFeedback(uint32_t /* ev */, MrcPathSignal /* kind */)
{
}

// ---------------------------------------------------------------- MrcUecBitmapSelector

TypeId
MrcUecBitmapSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcUecBitmapSelector")
            .SetParent<MrcUecObliviousSpray>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcUecBitmapSelector>()
            .AddAttribute("EcnPenalty",
                          "Penalty added to a path on an ACK with CE (uet-htsim: 1).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&MrcUecBitmapSelector::m_ecnPenalty),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("NackPenalty",
                          "Penalty added to a path on a trim NACK (uet-htsim: 4).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&MrcUecBitmapSelector::m_nackPenalty),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("TimeoutPenalty",
                          "Penalty added to a path on a timeout or inferred loss (uet-htsim: "
                          "the maximum penalty, 15).",
                          UintegerValue(15),
                          MakeUintegerAccessor(&MrcUecBitmapSelector::m_timeoutPenalty),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("MaxPenalty",
                          "Cap of a path's penalty (uet-htsim: 15).",
                          UintegerValue(15),
                          MakeUintegerAccessor(&MrcUecBitmapSelector::m_maxPenalty),
                          MakeUintegerChecker<uint8_t>());
    return tid;
}

MrcUecBitmapSelector::MrcUecBitmapSelector()
    : m_penalty(m_pathCount, 0),
      m_penalised(0),
      m_ecnPenalty(1),
      m_nackPenalty(4),
      m_timeoutPenalty(15),
      m_maxPenalty(15)
{
}

void
MrcUecBitmapSelector::PathCountChanged()
{
    MrcUecObliviousSpray::PathCountChanged();
    m_penalty.assign(m_pathCount, 0);
    m_penalised = 0;
}

uint16_t
MrcUecBitmapSelector::DoNextEv()
{
    Start();
    uint32_t e = Candidate();
    if (m_penalised > 0)
    {
        bool first = true;
        uint32_t examined = 0;
        while (m_penalty[e] > 0)
        {
            if (first)
            {
                // Only the first skipped candidate pays one unit back.
                if (--m_penalty[e] == 0)
                {
                    --m_penalised;
                }
                first = false;
            }
            if (++examined > m_pathCount)
            {
                break; // every path is penalised: use the last candidate
            }
            Advance();
            e = Candidate();
        }
    }
    Advance();
    return static_cast<uint16_t>(e | m_upper);
}

void
MrcUecBitmapSelector::DoFeedback(uint32_t ev, MrcPathSignal kind)
{
    uint32_t add = 0;
    switch (kind)
    {
    case MrcPathSignal::GOOD:
        return;
    case MrcPathSignal::ECN:
        add = m_ecnPenalty;
        break;
    case MrcPathSignal::NACK:
        add = m_nackPenalty;
        break;
    case MrcPathSignal::TIMEOUT:
    case MrcPathSignal::LOSS:
    case MrcPathSignal::BAD:
        add = m_timeoutPenalty;
        break;
    }
    uint8_t& p = m_penalty[ev & m_mask];
    uint8_t before = p;
    p = static_cast<uint8_t>(std::min<uint32_t>(before + add, m_maxPenalty));
    if (before == 0 && p > 0)
    {
        ++m_penalised;
    }
    else if (before > 0 && p == 0)
    {
        --m_penalised; // only with MaxPenalty lowered below an existing penalty's value
    }
}

uint8_t
MrcUecBitmapSelector::GetPenalty(uint16_t ev) const
{
    return m_penalty[ev & m_mask];
}

uint32_t
MrcUecBitmapSelector::GetPenalisedCount() const
{
    return m_penalised;
}

// ---------------------------------------------------------------- MrcUecReps

TypeId
MrcUecReps::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcUecReps")
            .SetParent<MrcUecPathSelector>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcUecReps>()
            .AddAttribute(
                "BufferSize",
                "Slots of the ring of recycled EVs (uet-htsim repsBufferSize: 8).",
                UintegerValue(8),
                MakeUintegerAccessor(&MrcUecReps::SetBufferSize, &MrcUecReps::GetBufferSize),
                MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("Freezing",
                          "Freeze the buffer on a timeout (uet-htsim repsUseFreezing: true). "
                          "uet-htsim allows freezing only with switch trimming on; turn it off "
                          "when trimming is off.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcUecReps::m_freezing),
                          MakeBooleanChecker())
            .AddAttribute("FreezeDuration",
                          "Minimum time frozen (uet-htsim exit_freeze_after: 10 ms).",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&MrcUecReps::m_freezeDuration),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ExploreCount",
                          "Packets sent on random EVs after a freeze ends (uet-htsim: 16).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&MrcUecReps::m_exploreCount),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("UsableLifetime",
                          "Times a recycled EV may be used before it stops being fresh "
                          "(uet-htsim repsMaxLifetimeEntropy: 1).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&MrcUecReps::m_lifetime),
                          MakeUintegerChecker<uint32_t>(1, 0x7fffffff));
    return tid;
}

MrcUecReps::MrcUecReps()
    : m_slots(8),
      m_head(0),
      m_count(0),
      m_fresh(0),
      m_frozenHead(0),
      m_frozen(false),
      m_exitAt(0),
      m_explore(0),
      m_freezing(true),
      m_freezeDuration(MilliSeconds(10)),
      m_exploreCount(16),
      m_lifetime(1)
{
}

void
MrcUecReps::SetBufferSize(uint32_t size)
{
    NS_ABORT_MSG_IF(size == 0 || size > 65535,
                    "MrcUecReps: BufferSize " << size << " is not in [1, 65535]");
    m_slots.assign(size, Slot{});
    ResetBuffer();
}

uint32_t
MrcUecReps::GetBufferSize() const
{
    return static_cast<uint32_t>(m_slots.size());
}

void
MrcUecReps::ResetBuffer()
{
    std::fill(m_slots.begin(), m_slots.end(), Slot{});
    m_head = 0;
    m_count = 0;
    m_fresh = 0;
    m_frozenHead = 0;
}

uint16_t
MrcUecReps::DoNextEv()
{
    if (m_explore > 0)
    {
        --m_explore;
        return static_cast<uint16_t>(Draw(m_pathCount));
    }
    const uint32_t size = static_cast<uint32_t>(m_slots.size());
    if (m_frozen)
    {
        if (m_count == 0)
        {
            return static_cast<uint16_t>(Draw(m_pathCount));
        }
        Slot& s = m_slots[m_frozenHead];
        bool wasFresh = s.fresh;
        if (m_lifetime > 1)
        {
            if (--s.lifetime < 0)
            {
                s.fresh = false;
                m_fresh -= wasFresh ? 1 : 0;
            }
        }
        else
        {
            s.fresh = false;
            m_fresh -= wasFresh ? 1 : 0;
        }
        m_frozenHead = (m_frozenHead + 1) % m_count;
        return s.ev;
    }
    if (m_fresh == 0)
    {
        return static_cast<uint16_t>(Draw(m_pathCount));
    }
    // Outside a freeze the fresh slots are the m_fresh slots just before the head.
    Slot& s = m_slots[(m_head + size - m_fresh) % size];
    if (m_lifetime <= 1 || --s.lifetime <= 0)
    {
        s.fresh = false;
        --m_fresh;
    }
    return s.ev;
}

void
MrcUecReps::DoFeedback(uint32_t ev, MrcPathSignal kind)
{
    if (MrcPathSignalIsLoss(kind) && m_freezing && !m_frozen && m_explore == 0)
    {
        m_frozen = true;
        m_exitAt = Simulator::Now() + m_freezeDuration;
        NS_LOG_DEBUG("REPS frozen until " << m_exitAt);
    }
    if (m_frozen && Simulator::Now() > m_exitAt)
    {
        m_frozen = false;
        ResetBuffer();
        m_explore = m_exploreCount;
        NS_LOG_DEBUG("REPS unfrozen, exploring " << m_explore << " packets");
    }
    if (kind == MrcPathSignal::GOOD)
    {
        const uint32_t size = static_cast<uint32_t>(m_slots.size());
        Slot& s = m_slots[m_head];
        if (!s.fresh)
        {
            ++m_fresh;
        }
        s.ev = static_cast<uint16_t>(ev);
        s.fresh = true;
        s.lifetime = static_cast<int32_t>(m_lifetime);
        m_head = (m_head + 1) % size;
        m_count = std::min(m_count + 1, size);
    }
}

bool
MrcUecReps::IsFrozen() const
{
    return m_frozen;
}

uint32_t
MrcUecReps::GetFreshCount() const
{
    return m_fresh;
}

uint32_t
MrcUecReps::GetBufferedCount() const
{
    return m_count;
}

uint32_t
MrcUecReps::GetExploreRemaining() const
{
    return m_explore;
}

// ---------------------------------------------------------------- MrcUecMixedSelector

TypeId
MrcUecMixedSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcUecMixedSelector")
            .SetParent<MrcUecBitmapSelector>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcUecMixedSelector>()
            .AddAttribute("RecycleCapacity",
                          "Entries of the FIFO of GOOD EVs awaiting reuse; when full the oldest "
                          "is dropped (our choice: uet-htsim's FIFO is unbounded; 1024 exceeds "
                          "the packets in flight of one connection in the module's scenarios).",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&MrcUecMixedSelector::SetRecycleCapacity,
                                               &MrcUecMixedSelector::GetRecycleCapacity),
                          MakeUintegerChecker<uint32_t>(1, 1u << 24));
    return tid;
}

MrcUecMixedSelector::MrcUecMixedSelector()
    : m_fifo(1024),
      m_fifoHead(0),
      m_fifoSize(0)
{
}

void
MrcUecMixedSelector::SetRecycleCapacity(uint32_t capacity)
{
    NS_ABORT_MSG_IF(capacity == 0, "MrcUecMixedSelector: RecycleCapacity must be at least 1");
    m_fifo.assign(capacity, 0);
    m_fifoHead = 0;
    m_fifoSize = 0;
}

uint32_t
MrcUecMixedSelector::GetRecycleCapacity() const
{
    return static_cast<uint32_t>(m_fifo.size());
}

uint16_t
MrcUecMixedSelector::DoNextEv()
{
    if (m_fifoSize > 0)
    {
        uint16_t ev = m_fifo[m_fifoHead];
        m_fifoHead = (m_fifoHead + 1) % m_fifo.size();
        --m_fifoSize;
        return ev;
    }
    return MrcUecBitmapSelector::DoNextEv();
}

void
MrcUecMixedSelector::DoFeedback(uint32_t ev, MrcPathSignal kind)
{
    MrcUecBitmapSelector::DoFeedback(ev, kind);
    if (kind != MrcPathSignal::GOOD)
    {
        return;
    }
    const uint32_t cap = static_cast<uint32_t>(m_fifo.size());
    if (m_fifoSize == cap)
    {
        m_fifoHead = (m_fifoHead + 1) % cap; // drop the oldest
        --m_fifoSize;
    }
    m_fifo[(m_fifoHead + m_fifoSize) % cap] = static_cast<uint16_t>(ev);
    ++m_fifoSize;
}

uint32_t
MrcUecMixedSelector::GetRecycleQueueSize() const
{
    return m_fifoSize;
}

// ---------------------------------------------------------------- MrcUecSinglePath

TypeId
MrcUecSinglePath::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcUecSinglePath")
            .SetParent<MrcUecPathSelector>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcUecSinglePath>()
            .AddAttribute("Ev",
                          "The connection's only EV, 0..65535; 65536 (default, our choice): a "
                          "random 16-bit EV drawn at the first packet.",
                          UintegerValue(RANDOM_EV),
                          MakeUintegerAccessor(&MrcUecSinglePath::m_evAttr),
                          MakeUintegerChecker<uint32_t>(0, RANDOM_EV));
    return tid;
}

MrcUecSinglePath::MrcUecSinglePath()
    : m_evAttr(RANDOM_EV),
      m_started(false),
      m_ev(0)
{
}

uint16_t
MrcUecSinglePath::DoNextEv()
{
    if (!m_started)
    {
        m_ev = static_cast<uint16_t>(m_evAttr == RANDOM_EV ? Draw(65536) : m_evAttr);
        m_started = true;
    }
    return m_ev;
}

void
MrcUecSinglePath::DoFeedback(uint32_t /* ev */, MrcPathSignal /* kind */)
{
}

uint32_t
MrcUecSinglePath::GetPathCount() const
{
    return 1;
}

} // namespace ns3
