/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_REUSABLE_EVENT_H
#define MRC_REUSABLE_EVENT_H

#include "mrc-simulator-impl.h"

#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/simulator.h"

#include <cstdint>
#include <functional>
#include <utility>

/**
 * \file
 * \ingroup mrc
 * An event object scheduled again and again (end of serialization, delivery of a frame,
 * a NIC's Serve), which saves allocating and freeing an event per packet.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * An event that runs the same function every time it fires. Several schedules of it may be
 * pending at once; each holds one reference (MrcScheduleAgain).
 */
class MrcReusableEvent : public EventImpl
{
  public:
    /// \param callback what to run when the event fires
    explicit MrcReusableEvent(std::function<void()> callback)
        : m_callback(std::move(callback))
    {
    }

  protected:
    void Notify() override
    {
        m_callback();
    }

  private:
    std::function<void()> m_callback; //!< what to run
};

/**
 * \ingroup mrc
 * Schedule a reusable event once more, as Simulator::ScheduleWithContext does (next event
 * uid), without building an EventId: the simulator takes one reference and drops it after
 * the event ran or at Simulator::Destroy.
 * \param event the event
 * \param context the context to run it in
 * \param delay when, from now
 */
inline void
MrcScheduleAgain(const Ptr<EventImpl>& event, uint32_t context, const Time& delay)
{
    event->Ref();
    MrcScheduleWithContext(context, delay, PeekPointer(event));
}

} // namespace ns3

#endif /* MRC_REUSABLE_EVENT_H */
