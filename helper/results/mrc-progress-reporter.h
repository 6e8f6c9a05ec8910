/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PROGRESS_REPORTER_H
#define MRC_PROGRESS_REPORTER_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <chrono>
#include <ostream>

/**
 * \file
 * \ingroup mrc
 * Progress lines ("simulated time reached, wall time") while Simulator::Run works.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * Prints the simulated time reached and the wall-clock time spent, on stderr,
 * at most once per MinWallInterval of wall-clock time while the simulation runs.
 *
 * It works with its own events in simulated time that only look at the wall
 * clock and print: they touch no model state and no random stream, and ns-3
 * orders events of equal time by insertion, which extra events do not change
 * for the others. So the simulation's results are the same with and without
 * the reporter. The spacing of its checks adapts to the simulation's speed
 * (aiming at about ten checks per wall second), so their number depends on the
 * machine: GetChecks() says how many ran, and
 * Simulator::GetEventCount() - GetChecks() is the run's own event count.
 *
 * It never schedules a check at or after the stop time given to Start(), so
 * it cannot keep an otherwise finished simulation alive past that time; use
 * it only in runs that have a Simulator::Stop time.
 */
class MrcProgressReporter : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    MrcProgressReporter();
    ~MrcProgressReporter() override;

    /**
     * Start checking (does nothing when the Enabled attribute is false).
     * Call before Simulator::Run().
     * \param stopTime the simulation's stop time (> 0)
     * \param os where to print (std::cerr by default)
     */
    void Start(Time stopTime, std::ostream* os = nullptr);

    /// Cancel the pending check (e.g. after Simulator::Run returned).
    void Stop();

    /// \return the number of the reporter's events that have run
    uint64_t GetChecks() const;

    /// \return the number of progress lines printed
    uint64_t GetLines() const;

  protected:
    void DoDispose() override;

  private:
    /// One check: print if MinWallInterval has passed, adapt the spacing, reschedule.
    void Check();
    /// Schedule the next check unless it would fall at or after the stop time.
    void ScheduleNext();

    using Clock = std::chrono::steady_clock;

    bool m_enabled;                //!< Enabled attribute
    Time m_minWallInterval;        //!< MinWallInterval attribute (wall-clock time)
    Time m_firstInterval;          //!< FirstInterval attribute (simulated time)
    Time m_interval;               //!< current spacing of checks, simulated time
    Time m_stopTime;               //!< the run's stop time
    std::ostream* m_os;            //!< output stream
    EventId m_event;               //!< pending check
    Clock::time_point m_start;     //!< wall clock at Start
    Clock::time_point m_lastCheck; //!< wall clock at the previous check
    Clock::time_point m_lastLine;  //!< wall clock at the previous line
    uint64_t m_checks;             //!< checks run
    uint64_t m_lines;              //!< lines printed
};

} // namespace ns3

#endif /* MRC_PROGRESS_REPORTER_H */
