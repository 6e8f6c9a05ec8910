/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-class-scheduler.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mrc-comma-list.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcClassScheduler");

NS_OBJECT_ENSURE_REGISTERED(MrcClassScheduler);

namespace
{

/// Abort unless cls names one of the eight classes; what says who asked.
void
CheckSchedulerClass(uint32_t cls, const char* what)
{
    NS_ABORT_MSG_IF(cls >= MrcClassScheduler::N_CLASSES,
                    what << ": class " << cls << " is out of range: allowed 0..7");
}

} // namespace

TypeId
MrcClassScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcClassScheduler")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcClassScheduler>()
            .AddAttribute("Scheduler",
                          "Class scheduler: StrictPriority (class 7 first) or Dwrr.",
                          StringValue("StrictPriority"),
                          MakeStringAccessor(&MrcClassScheduler::SetScheduler,
                                             &MrcClassScheduler::GetScheduler),
                          MakeStringChecker())
            .AddAttribute("DwrrWeights",
                          "DWRR weights, class 0 first; weight 0 = strict priority above "
                          "the weighted classes.",
                          StringValue(DEFAULT_WEIGHTS),
                          MakeStringAccessor(&MrcClassScheduler::SetDwrrWeights,
                                             &MrcClassScheduler::GetDwrrWeights),
                          MakeStringChecker())
            .AddAttribute("DwrrQuantum",
                          "DWRR credit in bytes per unit of weight and round.",
                          UintegerValue(DEFAULT_QUANTUM),
                          MakeUintegerAccessor(&MrcClassScheduler::SetDwrrQuantum,
                                               &MrcClassScheduler::GetDwrrQuantum),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("QueueLimit",
                          "Bytes each class queue may hold; a frame that does not fit is "
                          "refused.",
                          UintegerValue(DEFAULT_QUEUE_LIMIT),
                          MakeUintegerAccessor(&MrcClassScheduler::SetQueueLimit,
                                               &MrcClassScheduler::GetQueueLimit),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

MrcClassScheduler::MrcClassScheduler()
    : m_queueLimit(DEFAULT_QUEUE_LIMIT),
      m_quantum(DEFAULT_QUANTUM)
{
    NS_LOG_FUNCTION(this);
}

MrcClassScheduler::~MrcClassScheduler()
{
    NS_LOG_FUNCTION(this);
}

void
MrcClassScheduler::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& q : m_queues)
    {
        q.frames.clear();
        q.bytes = 0;
    }
    m_backlogMask = 0;
    Object::DoDispose();
}

// ---------------------------------------------------------------- configuration

void
MrcClassScheduler::SetScheduler(const std::string& name)
{
    if (name == "StrictPriority")
    {
        m_dwrr = false;
    }
    else if (name == "Dwrr")
    {
        m_dwrr = true;
    }
    else
    {
        NS_ABORT_MSG("MrcClassScheduler Scheduler \""
                     << name << "\" is unknown: allowed StrictPriority, Dwrr");
    }
}

std::string
MrcClassScheduler::GetScheduler() const
{
    return m_dwrr ? "Dwrr" : "StrictPriority";
}

bool
MrcClassScheduler::IsDwrr() const
{
    return m_dwrr;
}

void
MrcClassScheduler::SetDwrrWeights(const std::string& weights)
{
    std::vector<std::string> items = MrcSplitCommas(weights);
    NS_ABORT_MSG_IF(items.size() != N_CLASSES,
                    "DwrrWeights \"" << weights << "\" has " << items.size()
                                     << " entries: exactly 8 are needed, class 0 first");
    std::array<uint32_t, 8> w;
    for (std::size_t c = 0; c < N_CLASSES; ++c)
    {
        NS_ABORT_MSG_IF(!MrcParseUnsigned(items[c], w[c]),
                        "DwrrWeights \"" << weights << "\": weight \"" << items[c] << "\" of class "
                                         << c << " is not a non-negative integer");
    }
    for (std::size_t c = 0; c < N_CLASSES; ++c)
    {
        m_queues[c].weight = w[c];
    }
}

std::string
MrcClassScheduler::GetDwrrWeights() const
{
    std::ostringstream os;
    for (std::size_t c = 0; c < N_CLASSES; ++c)
    {
        os << (c ? "," : "") << m_queues[c].weight;
    }
    return os.str();
}

uint32_t
MrcClassScheduler::GetDwrrWeight(uint8_t cls) const
{
    CheckSchedulerClass(cls, "MrcClassScheduler::GetDwrrWeight");
    return m_queues[cls].weight;
}

void
MrcClassScheduler::SetDwrrQuantum(uint32_t bytes)
{
    NS_ABORT_MSG_IF(bytes == 0, "MrcClassScheduler DwrrQuantum must be at least 1 byte");
    m_quantum = bytes;
}

uint32_t
MrcClassScheduler::GetDwrrQuantum() const
{
    return m_quantum;
}

void
MrcClassScheduler::SetQueueLimit(uint32_t bytes)
{
    for (std::size_t c = 0; c < N_CLASSES; ++c)
    {
        NS_ABORT_MSG_IF(m_queues[c].bytes > bytes,
                        "MrcClassScheduler QueueLimit " << bytes << " is below the "
                                                        << m_queues[c].bytes
                                                        << " bytes now queued on class " << c);
    }
    m_queueLimit = bytes;
}

uint32_t
MrcClassScheduler::GetQueueLimit() const
{
    return m_queueLimit;
}

void
MrcClassScheduler::AbortBadClass(const char* what, uint32_t cls)
{
    CheckSchedulerClass(cls, what);
    NS_FATAL_ERROR(what << ": class " << cls << " is out of range");
}

void
MrcClassScheduler::AbortBadTag(uint64_t tag)
{
    NS_FATAL_ERROR("MrcClassScheduler::Enqueue: tag " << tag << " uses bits 59-63; allowed 0.."
                                                      << MRC_UNWRITTEN_WORD_MASK);
}

// ---------------------------------------------------------------- selection

bool
MrcClassScheduler::IsEligible(uint8_t cls) const
{
    return ((m_backlogMask & ~m_pausedMask) >> cls) & 1;
}

uint8_t
MrcClassScheduler::SelectDwrr()
{
    // Weight-0 classes are served first, in strict priority.
    bool anyWeighted = false;
    for (int c = N_CLASSES - 1; c >= 0; --c)
    {
        if (IsEligible(c))
        {
            if (m_queues[c].weight == 0)
            {
                return static_cast<uint8_t>(c);
            }
            anyWeighted = true;
        }
    }
    if (!anyWeighted)
    {
        return NO_CLASS;
    }
    // Deficit round robin: a class gets weight * quantum bytes of credit when the
    // pointer reaches it and keeps sending while its head frame fits the credit.
    // An empty class loses its credit; a paused one keeps it and is skipped.
    while (true)
    {
        uint8_t c = m_drrCurrent;
        if (m_queues[c].weight > 0 && IsEligible(c))
        {
            if (!m_drrCharged)
            {
                m_queues[c].deficit += static_cast<uint64_t>(m_queues[c].weight) * m_quantum;
                m_drrCharged = true;
            }
            const Slot& front = m_queues[c].frames.front();
            const uint32_t head = front.frame->GetSize() + MrcUnwrittenBytes(front.Unwritten());
            if (head <= m_queues[c].deficit)
            {
                m_queues[c].deficit -= head;
                return c;
            }
        }
        else if (m_queues[c].frames.empty())
        {
            m_queues[c].deficit = 0;
        }
        m_drrCurrent = static_cast<uint8_t>((c + 1) % N_CLASSES);
        m_drrCharged = false;
    }
}

// ---------------------------------------------------------------- state and counters

bool
MrcClassScheduler::IsClassPaused(uint8_t cls) const
{
    CheckSchedulerClass(cls, "MrcClassScheduler::IsClassPaused");
    return (m_pausedMask >> cls) & 1;
}

uint8_t
MrcClassScheduler::GetPausedMask() const
{
    return m_pausedMask;
}

Ptr<Packet>
MrcClassScheduler::RemoveLast(uint8_t cls)
{
    uint8_t unwritten;
    return RemoveLast(cls, unwritten);
}

Ptr<Packet>
MrcClassScheduler::RemoveLast(uint8_t cls, uint8_t& unwritten)
{
    CheckSchedulerClass(cls, "MrcClassScheduler::RemoveLast");
    ClassQueue& q = m_queues[cls];
    if (q.frames.empty())
    {
        return nullptr;
    }
    Ptr<Packet> frame = q.frames.back().frame.Release();
    unwritten = q.frames.back().Unwritten();
    q.frames.pop_back();
    q.bytes -= frame->GetSize() + MrcUnwrittenBytes(unwritten);
    if (q.frames.empty())
    {
        // as Dequeue leaves an emptied class
        m_backlogMask &= static_cast<uint8_t>(~(1u << cls));
        if (m_dwrr)
        {
            q.deficit = 0;
        }
    }
    return frame;
}

bool
MrcClassScheduler::PeekLastTag(uint8_t cls, uint64_t& tag) const
{
    CheckSchedulerClass(cls, "MrcClassScheduler::PeekLastTag");
    const ClassQueue& q = m_queues[cls];
    if (q.frames.empty())
    {
        return false;
    }
    tag = q.frames.back().Tag();
    return true;
}

uint32_t
MrcClassScheduler::GetQueuePackets(uint8_t cls) const
{
    CheckSchedulerClass(cls, "MrcClassScheduler::GetQueuePackets");
    return static_cast<uint32_t>(m_queues[cls].frames.size());
}

uint64_t
MrcClassScheduler::GetTotalQueueBytes() const
{
    uint64_t total = 0;
    for (const auto& q : m_queues)
    {
        total += q.bytes;
    }
    return total;
}

uint64_t
MrcClassScheduler::GetDeficit(uint8_t cls) const
{
    CheckSchedulerClass(cls, "MrcClassScheduler::GetDeficit");
    return m_queues[cls].deficit;
}

uint64_t
MrcClassScheduler::GetSentPackets(uint8_t cls) const
{
    CheckSchedulerClass(cls, "MrcClassScheduler::GetSentPackets");
    return m_queues[cls].sentPackets;
}

uint64_t
MrcClassScheduler::GetSentBytes(uint8_t cls) const
{
    CheckSchedulerClass(cls, "MrcClassScheduler::GetSentBytes");
    return m_queues[cls].sentBytes;
}

} // namespace ns3
