/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TIME_RECORDS_H
#define MRC_TIME_RECORDS_H

/**
 * \file
 * \ingroup mrc
 * Ending ns-3's record of Time objects before a large build.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * Until the first Simulator::Run of a process, ns-3 (3.37 to 3.48, time.cc) enters every
 * Time object constructed into a std::set, and removes it when the object is destroyed, so
 * that Time::SetResolution can convert the values already made; Simulator::Run empties the
 * set before the first event. A fabric's devices, channels, switches and queue pairs hold
 * some twenty Time members per link end, so a build of 16,384 hosts enters millions of
 * them (one set node of about 50 bytes each, and an ordered insert per temporary Time),
 * and the first Simulator::Run begins by deleting them all.
 *
 * This function runs the simulator once while nothing is scheduled: no event executes and
 * the simulated clock stays at 0, but the set is emptied and no later Time is entered.
 * Outputs do not change. The price is ns-3's own rule for a started simulator: the time
 * resolution can no longer be changed (Time::SetResolution aborts), as after any run.
 *
 * It does nothing (and returns false) when an event is pending, when an event has already
 * run or the clock has moved: the simulator is then not known to be empty. After the first
 * run of a process the set is gone, and a call only runs an empty simulator again (no
 * event, no cost). Call it after the simulator core
 * and scheduler are chosen (SimulatorImplementationType, SchedulerType), since it creates
 * the simulator; not for a distributed (MPI) run, whose Run synchronizes the ranks.
 *
 * \return true if it ran the empty simulator
 */
bool MrcEndTimeRecords();

/**
 * \ingroup mrc
 * MrcEndTimeRecords for a run whose simulator core is chosen after this call, such as a
 * distributed run (MrcMpi::BeginRun binds ns-3's MPI core, whose Run synchronizes the ranks,
 * so MrcEndTimeRecords cannot run on it without every rank taking part). The record is ended
 * on the core bound now (SimulatorImplementationType), each process alone, and that simulator
 * is then destroyed (Simulator::Destroy), so that the next use of the simulator creates the
 * core bound by then. Nothing else is carried over: the simulator is known to be empty.
 *
 * It does nothing (and returns false) in the cases MrcEndTimeRecords does nothing; the
 * simulator is then left as it is.
 *
 * \return true if it ended the record and destroyed the simulator
 */
bool MrcEndTimeRecordsBeforeCoreChange();

} // namespace ns3

#endif // MRC_TIME_RECORDS_H
