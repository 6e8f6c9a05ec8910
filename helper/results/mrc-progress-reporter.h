/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PROGRESS_REPORTER_H
#define MRC_PROGRESS_REPORTER_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

/**
 * \file
 * \ingroup mrc
 * Progress lines (messages done / total, simulated time, wall time, estimated time
 * left) while Simulator::Run works.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * Prints, on stderr, at most once per MinWallInterval of wall-clock time while the
 * simulation runs, a line such as
 *
 *     progress: 12/32 messages, simulated 0.585 ms, wall 4.2 s, ETA 7.0 s
 *
 * The message counts come from SetMessageCounters (without it the line has no
 * message part). The estimate of the time left is EstimateRemaining().
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

    /**
     * Where the progress lines read the run's message counts (call before Start).
     * \param done returns the messages ended so far (completed or failed)
     * \param total returns the messages of the run
     */
    void SetMessageCounters(Callback<uint64_t> done, Callback<uint64_t> total);

    /**
     * The estimate of the wall-clock time left. Two rates are extrapolated from
     * the wall time spent so far:
     * - messages: wallS * (total - done) / done, when 0 < done (0 when done ==
     *   total);
     * - simulated time: wallS * (stopNs - simNs) / simNs, when simNs > 0: the
     *   run ends at the stop time at the latest, so this is an upper bound.
     * The estimate is the smaller of the two that are known; -1 when neither is.
     * \param done messages ended
     * \param total messages of the run (0: unknown)
     * \param simNs simulated time reached, ns
     * \param stopNs the run's stop time, ns
     * \param wallS wall-clock seconds spent since Start
     * \param upperBoundOnly set to true when only the stop-time bound was known
     *        (may be null)
     * \return seconds left, or -1
     */
    static double EstimateRemaining(uint64_t done,
                                    uint64_t total,
                                    int64_t simNs,
                                    int64_t stopNs,
                                    double wallS,
                                    bool* upperBoundOnly = nullptr);

    /**
     * One progress line (without the line break): "progress: D/T messages,
     * simulated X ms, wall W s, ETA E s". The message part is left out when
     * total is 0; the ETA reads "ETA <= E s" when only the stop-time bound is
     * known and "ETA unknown" when nothing is.
     * \param done messages ended
     * \param total messages of the run (0: no message part)
     * \param simNs simulated time reached, ns
     * \param stopNs the run's stop time, ns
     * \param wallS wall-clock seconds spent since Start
     * \return the line
     */
    static std::string FormatLine(uint64_t done,
                                  uint64_t total,
                                  int64_t simNs,
                                  int64_t stopNs,
                                  double wallS);

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
    Callback<uint64_t> m_done;     //!< messages ended (null: no counts)
    Callback<uint64_t> m_total;    //!< messages of the run (null: no counts)
    uint64_t m_checks;             //!< checks run
    uint64_t m_lines;              //!< lines printed
};

} // namespace ns3

#endif /* MRC_PROGRESS_REPORTER_H */
