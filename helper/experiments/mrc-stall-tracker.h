/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_STALL_TRACKER_H
#define MRC_STALL_TRACKER_H

#include "ns3/mrc-event-log.h"
#include "ns3/mrc-queue-pair.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * Per-message stalls of a run with link failures (flow_stall records of events.csv).
 */

namespace ns3
{

/**
 * \ingroup mrc
 * The longest time in which a message's responder placed no new payload byte, from the
 * message's start until its last byte was placed (or the end of the run).
 *
 * The responder's Rx trace fires before the packet is handled, so a packet's progress is
 * seen (and dated) at the next Rx of the same queue pair or when the message ends. Each
 * message gets one "flow_stall" record (max_stall_ns, from_ns) in the event log.
 *
 * In a run split over ranks (SetDeferred) the rank of the message's responder tracks it,
 * while its end happens on the requester's rank and is known here only one notice delay
 * later (End). Each Rx is kept with the responder's count of placed bytes at that time
 * until no end can still come that precedes it; End takes the Rx before the end and the
 * count at the end, so the record is the one of one process. The records are written at
 * the end of the run (CloseOpen) in the order (time, message), after the records of other
 * kinds of the same time, on every split alike.
 */
class MrcStallTracker
{
  public:
    /// \param log where the flow_stall records go
    void SetEventLog(Ptr<MrcEventLog> log);

    /**
     * Split-run mode: message ends come through End, records at CloseOpen.
     * \param lag the longest time from a message's end to its End call
     */
    void SetDeferred(Time lag);

    /**
     * Track the next message (indices count from 0 in the order of Add).
     * \param responder its responder queue pair (its bytesPlaced counter is read); null
     *        where the message is not tracked (in a split run: another rank's responder)
     * \param start when the message starts
     */
    void Add(Ptr<MrcQueuePair> responder, Time start);

    /// A packet reached message i's responder now.
    /// \param i the message
    void OnRx(std::size_t i);

    /**
     * Write message i's flow_stall record.
     * \param i the message
     * \param until with until >= 0 (ns), the gap from the last progress up to it counts too
     */
    void Close(std::size_t i, int64_t until);

    /**
     * In split-run mode: message i ended (on whichever rank), applied later on every rank.
     * \param i the message
     * \param endedAt when it ended
     * \param completed true if it completed (its record is written for endedAt); false if
     *        it failed (its record is written at CloseOpen, as one process does)
     */
    void End(std::size_t i, Time endedAt, bool completed);

    /// Close every message not closed yet, its gap lasting until now (end of the run); in
    /// split-run mode, then write every record.
    void CloseOpen();

    /// \return the number of messages tracked
    std::size_t GetN() const;

  private:
    /// Account the progress (if any) of the packet of message i's previous Rx.
    /// \param i the message
    /// \param placed the responder's count of placed bytes now
    void NoteProgress(std::size_t i, uint64_t placed);
    /// Take message i's kept Rx before a time (split-run mode) as OnRx would have.
    /// \param i the message \param before the time (time steps; exclusive)
    void Commit(std::size_t i, int64_t before);
    /// Write message i's record at a time.
    /// \param i the message \param at the time \param placed its responder's count then
    /// \param until as in Close
    void CloseAt(std::size_t i, Time at, uint64_t placed, int64_t until);

    /// A tracked message.
    struct Message
    {
        Ptr<MrcQueuePair> responder; //!< its responder
        int64_t lastProgressNs{0};   //!< time of the last progress (its start at first)
        int64_t lastRxNs{-1};        //!< time of the previous Rx at the responder
        int64_t maxNs{0};            //!< longest gap so far
        int64_t fromNs{0};           //!< where that gap started
        uint64_t placed{0};          //!< responder bytesPlaced at the last check
        bool closed{false};          //!< its flow_stall record was written
        bool ended{false};           //!< split-run mode: its end was applied
        /// split-run mode: Rx kept (time step, count of placed bytes before the packet)
        std::vector<std::pair<int64_t, uint64_t>> kept;
    };

    /// A record of split-run mode, written at CloseOpen.
    struct Row
    {
        Time at;            //!< its time
        std::size_t i;      //!< the message
        std::string detail; //!< its detail
    };

    Ptr<MrcEventLog> m_log;      //!< the event log
    std::vector<Message> m_msgs; //!< per message
    bool m_deferred{false};      //!< split-run mode
    Time m_lag;                  //!< split-run mode: the longest end-to-End time
    std::vector<Row> m_rows;     //!< split-run mode: records to write
};

} // namespace ns3

#endif /* MRC_STALL_TRACKER_H */
