/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-simulator-impl.h"

#include "ns3/assert.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcSimulatorImpl");

NS_OBJECT_ENSURE_REGISTERED(MrcSimulatorImpl);

MrcSimulatorImpl* MrcSimulatorImpl::s_active = nullptr;

namespace
{

/// Stop after a delay, as SimulatorImpl::Stop(const Time&) returns it in this ns-3.
/// \tparam R void (ns-3.37) or EventId
template <typename R>
struct StopAfter
{
    /// \param delay from now \return the stop event's id
    static R Do(const Time& delay)
    {
        return Simulator::Schedule(delay, &Simulator::Stop);
    }
};

/// ns-3.37: no id returned.
template <>
struct StopAfter<void>
{
    /// \param delay from now
    static void Do(const Time& delay)
    {
        Simulator::Schedule(delay, &Simulator::Stop);
    }
};

} // namespace

TypeId
MrcSimulatorImpl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcSimulatorImpl")
                            .SetParent<SimulatorImpl>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcSimulatorImpl>();
    return tid;
}

MrcSimulatorImpl::MrcSimulatorImpl()
    : m_uid(EventId::UID::VALID),
      m_currentUid(EventId::UID::INVALID),
      m_currentContext(Simulator::NO_CONTEXT)
{
    NS_LOG_FUNCTION(this);
    s_active = this;
}

MrcSimulatorImpl::~MrcSimulatorImpl()
{
    NS_LOG_FUNCTION(this);
    if (s_active == this)
    {
        s_active = nullptr;
    }
}

void
MrcSimulatorImpl::DoDispose()
{
    NS_LOG_FUNCTION(this);
    if (s_active == this)
    {
        s_active = nullptr;
    }
    if (m_events)
    {
        while (!m_events->IsEmpty())
        {
            m_events->RemoveNext().impl->Unref();
        }
    }
    m_events = nullptr;
    SimulatorImpl::DoDispose();
}

void
MrcSimulatorImpl::Destroy()
{
    NS_LOG_FUNCTION(this);
    while (!m_destroy.empty())
    {
        Ptr<EventImpl> ev = m_destroy.front().PeekEventImpl();
        m_destroy.pop_front();
        if (!ev->IsCancelled())
        {
            ev->Invoke();
        }
    }
}

void
MrcSimulatorImpl::SetScheduler(ObjectFactory schedulerFactory)
{
    NS_LOG_FUNCTION(this << schedulerFactory);
    Ptr<Scheduler> scheduler = schedulerFactory.Create<Scheduler>();
    if (m_events)
    {
        while (!m_events->IsEmpty())
        {
            scheduler->Insert(m_events->RemoveNext());
        }
    }
    m_events = scheduler;
}

uint32_t
MrcSimulatorImpl::GetSystemId() const
{
    return 0;
}

bool
MrcSimulatorImpl::IsFinished() const
{
    return m_events->IsEmpty() || m_stop;
}

void
MrcSimulatorImpl::Run()
{
    NS_LOG_FUNCTION(this);
    m_stop = false;
    Scheduler* const events = PeekPointer(m_events);
    while (!events->IsEmpty() && !m_stop)
    {
        const Scheduler::Event next = events->RemoveNext();
        NS_ASSERT(next.key.m_ts >= m_currentTs);
        --m_unscheduledEvents;
        ++m_eventCount;
        m_currentTs = next.key.m_ts;
        m_currentContext = next.key.m_context;
        m_currentUid = next.key.m_uid;
        next.impl->Invoke();
        next.impl->Unref();
    }
    // stopped for lack of events: none was lost on the way
    NS_ASSERT(!events->IsEmpty() || m_unscheduledEvents == 0);
}

void
MrcSimulatorImpl::Stop()
{
    NS_LOG_FUNCTION(this);
    m_stop = true;
}

auto
MrcSimulatorImpl::Stop(const Time& delay)
    -> decltype(std::declval<SimulatorImpl&>().Stop(std::declval<const Time&>()))
{
    NS_LOG_FUNCTION(this << delay.GetTimeStep());
    return StopAfter<decltype(std::declval<SimulatorImpl&>().Stop(
        std::declval<const Time&>()))>::Do(delay);
}

EventId
MrcSimulatorImpl::Insert(const Time& delay, EventImpl* event)
{
    NS_ASSERT_MSG(delay.IsPositive(), "MrcSimulatorImpl::Schedule: negative delay " << delay);
    const uint32_t uid = m_uid;
    InsertWithContext(m_currentContext, delay, event);
    return EventId(event,
                   m_currentTs + static_cast<uint64_t>(delay.GetTimeStep()),
                   m_currentContext,
                   uid);
}

EventId
MrcSimulatorImpl::Schedule(const Time& delay, EventImpl* event)
{
    return Insert(delay, event);
}

void
MrcSimulatorImpl::ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event)
{
    NS_ASSERT_MSG(delay.IsPositive(),
                  "MrcSimulatorImpl::ScheduleWithContext: negative delay " << delay);
    InsertWithContext(context, delay, event);
}

EventId
MrcSimulatorImpl::ScheduleNow(EventImpl* event)
{
    return Insert(Time(0), event);
}

EventId
MrcSimulatorImpl::ScheduleDestroy(EventImpl* event)
{
    EventId id(Ptr<EventImpl>(event, false), m_currentTs, 0xffffffff, EventId::UID::DESTROY);
    m_destroy.push_back(id);
    ++m_uid;
    return id;
}

Time
MrcSimulatorImpl::Now() const
{
    return TimeStep(m_currentTs);
}

Time
MrcSimulatorImpl::GetDelayLeft(const EventId& id) const
{
    if (IsExpired(id))
    {
        return TimeStep(0);
    }
    return TimeStep(id.GetTs() - m_currentTs);
}

void
MrcSimulatorImpl::Remove(const EventId& id)
{
    if (id.GetUid() == EventId::UID::DESTROY)
    {
        for (auto i = m_destroy.begin(); i != m_destroy.end(); ++i)
        {
            if (*i == id)
            {
                m_destroy.erase(i);
                break;
            }
        }
        return;
    }
    if (IsExpired(id))
    {
        return;
    }
    Scheduler::Event event;
    event.impl = id.PeekEventImpl();
    event.key.m_ts = id.GetTs();
    event.key.m_context = id.GetContext();
    event.key.m_uid = id.GetUid();
    m_events->Remove(event);
    event.impl->Cancel();
    // the queue's reference
    event.impl->Unref();
    --m_unscheduledEvents;
}

void
MrcSimulatorImpl::Cancel(const EventId& id)
{
    if (!IsExpired(id))
    {
        id.PeekEventImpl()->Cancel();
    }
}

bool
MrcSimulatorImpl::IsExpired(const EventId& id) const
{
    if (id.GetUid() == EventId::UID::DESTROY)
    {
        if (id.PeekEventImpl() == nullptr || id.PeekEventImpl()->IsCancelled())
        {
            return true;
        }
        for (const EventId& d : m_destroy)
        {
            if (d == id)
            {
                return false;
            }
        }
        return true;
    }
    return id.PeekEventImpl() == nullptr || id.GetTs() < m_currentTs ||
           (id.GetTs() == m_currentTs && id.GetUid() <= m_currentUid) ||
           id.PeekEventImpl()->IsCancelled();
}

Time
MrcSimulatorImpl::GetMaximumSimulationTime() const
{
    return TimeStep(0x7fffffffffffffffLL);
}

uint32_t
MrcSimulatorImpl::GetContext() const
{
    return m_currentContext;
}

uint64_t
MrcSimulatorImpl::GetEventCount() const
{
    return m_eventCount;
}

} // namespace ns3
