/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SIMULATOR_IMPL_H
#define MRC_SIMULATOR_IMPL_H

#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/scheduler.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"

#include <list>
#include <type_traits>
#include <utility>

/**
 * \file
 * \ingroup mrc
 * A single-threaded simulator core with the event order and event ids of ns-3's
 * DefaultSimulatorImpl and less work per event.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * \brief ns-3's sequential simulator core (DefaultSimulatorImpl) without what a
 * single-threaded simulation does not use.
 *
 * It gives every event the uid, time stamp and context DefaultSimulatorImpl gives it (one
 * counter from EventId::UID::VALID for Schedule, ScheduleNow, ScheduleWithContext and
 * ScheduleDestroy alike), hands the events to the same scheduler (SchedulerType) and runs
 * them in the scheduler's order, so a simulation's results are those of the default core.
 * Remove, Cancel, IsExpired, GetDelayLeft, Stop and the destroy events behave as there.
 *
 * What it leaves out, per event: the EventId that DefaultSimulatorImpl builds for its
 * PreEventHook (a reference taken and dropped, and a logging check), the thread check of
 * every ScheduleWithContext, and the function logging of both (a call each in Debian's
 * build of ns-3). The price: ScheduleWithContext must be called from the simulation's
 * thread, as every other Schedule call (DefaultSimulatorImpl alone queues calls from other
 * threads, which emulation devices make; this module has none). MrcScheduleWithContext
 * calls it without the Simulator's indirection when it is the core in use.
 *
 * mrc-sim uses it for every run without --ranks (SimulatorImplementationType
 * ns3::MrcSimulatorImpl; --SimulatorImplementationType=ns3::DefaultSimulatorImpl gives the
 * same results). Issue 22, doc/mrc-performance.rst, twenty-third part.
 */
class MrcSimulatorImpl : public SimulatorImpl
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcSimulatorImpl();
    ~MrcSimulatorImpl() override;

    void Destroy() override;
    bool IsFinished() const override;
    void Stop() override;
    /// \param delay when, from now \return as SimulatorImpl::Stop (void before ns-3.38)
    auto Stop(const Time& delay)
        -> decltype(std::declval<SimulatorImpl&>().Stop(std::declval<const Time&>())) override;
    EventId Schedule(const Time& delay, EventImpl* event) override;
    void ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event) override;
    EventId ScheduleNow(EventImpl* event) override;
    EventId ScheduleDestroy(EventImpl* event) override;
    void Remove(const EventId& id) override;
    void Cancel(const EventId& id) override;
    bool IsExpired(const EventId& id) const override;
    void Run() override;
    Time Now() const override;
    Time GetDelayLeft(const EventId& id) const override;
    Time GetMaximumSimulationTime() const override;
    void SetScheduler(ObjectFactory schedulerFactory) override;
    uint32_t GetSystemId() const override;
    uint32_t GetContext() const override;
    uint64_t GetEventCount() const override;

    /// \return the MrcSimulatorImpl in use (the simulator's), or null
    static MrcSimulatorImpl* GetActive()
    {
        return s_active;
    }

    /**
     * ScheduleWithContext without the virtual call (MrcScheduleWithContext).
     * \param context the event's context \param delay from now \param event the event
     */
    void InsertWithContext(uint32_t context, const Time& delay, EventImpl* event)
    {
        Scheduler::Event ev;
        ev.impl = event;
        ev.key.m_ts = m_currentTs + static_cast<uint64_t>(delay.GetTimeStep());
        ev.key.m_context = context;
        ev.key.m_uid = m_uid++;
        ++m_unscheduledEvents;
        m_events->Insert(ev);
    }

  protected:
    void DoDispose() override;

  private:
    /// \param delay from now, not negative \param event the event \return its id
    EventId Insert(const Time& delay, EventImpl* event);

    static MrcSimulatorImpl* s_active; //!< the simulator's core, if one of these

    Ptr<Scheduler> m_events;        //!< the pending events
    std::list<EventId> m_destroy;   //!< the destroy events, in order
    uint64_t m_currentTs{0};        //!< the running event's time stamp
    uint64_t m_eventCount{0};       //!< events run
    uint32_t m_uid;                 //!< the next event's uid
    uint32_t m_currentUid;          //!< the running event's uid
    uint32_t m_currentContext;      //!< the running event's context
    int64_t m_unscheduledEvents{0}; //!< pending events (a consistency check)
    bool m_stop{false};             //!< Stop was called
};

/**
 * \ingroup mrc
 * Simulator::ScheduleWithContext, through the MrcSimulatorImpl in use without the virtual
 * call when there is one. The simulator takes over the caller's reference to the event,
 * as with Simulator::ScheduleWithContext.
 * \param context the event's context \param delay from now \param event the event
 */
inline void
MrcScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event)
{
    if (MrcSimulatorImpl* s = MrcSimulatorImpl::GetActive())
    {
        s->InsertWithContext(context, delay, event);
        return;
    }
    Simulator::ScheduleWithContext(context, delay, event);
}

} // namespace ns3

#endif /* MRC_SIMULATOR_IMPL_H */
