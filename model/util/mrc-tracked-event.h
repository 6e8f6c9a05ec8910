/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TRACKED_EVENT_H
#define MRC_TRACKED_EVENT_H

#include "ns3/event-id.h"
#include "ns3/simulator.h"

namespace ns3
{

/**
 * \ingroup mrc
 * \brief A timer's EventId with its own record of whether the event is still pending.
 *
 * EventId::IsExpired goes through the simulator and, in Debian's libns3 (built with
 * logging), costs about 250 instructions a call; a queue pair asks it on every data packet
 * and every SACK. The owner keeps the record instead: Set when it schedules the event,
 * Fired first thing in the event's handler, Remove to take it back. IsPending then gives
 * what !IsExpired() would, as long as the event is scheduled, run and removed only through
 * this object (never cancelled through a copy of the EventId).
 */
class MrcTrackedEvent
{
  public:
    /// \param id the event just scheduled (it replaces any earlier one, which must not be
    ///           pending any more: removed, or the one now running)
    void Set(const EventId& id)
    {
        m_id = id;
        m_pending = true;
    }

    /// The event's handler runs: it is no longer pending (call before anything else there).
    void Fired()
    {
        m_pending = false;
    }

    /// Remove the event from the simulator, if pending.
    void Remove()
    {
        if (m_pending)
        {
            Simulator::Remove(m_id);
            m_pending = false;
        }
    }

    /// Cancel the event, if pending (it stays in the queue and does nothing when due).
    void Cancel()
    {
        if (m_pending)
        {
            m_id.Cancel();
            m_pending = false;
        }
    }

    /// \return true if the event is scheduled and has neither run nor been removed
    bool IsPending() const
    {
        return m_pending;
    }

    /// \return the event (for Simulator::GetDelayLeft and the like)
    const EventId& GetId() const
    {
        return m_id;
    }

  private:
    EventId m_id;          //!< the event
    bool m_pending{false}; //!< scheduled, not run, not removed
};

} // namespace ns3

#endif /* MRC_TRACKED_EVENT_H */
