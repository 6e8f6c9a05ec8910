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
 */
class MrcStallTracker
{
  public:
    /// \param log where the flow_stall records go
    void SetEventLog(Ptr<MrcEventLog> log);

    /**
     * Track the next message (indices count from 0 in the order of Add).
     * \param responder its responder queue pair (its bytesPlaced counter is read)
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

    /// Close every message not closed yet, its gap lasting until now (end of the run).
    void CloseOpen();

    /// \return the number of messages tracked
    std::size_t GetN() const;

  private:
    /// Account the progress (if any) of the packet of message i's previous Rx.
    /// \param i the message
    void NoteProgress(std::size_t i);

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
    };

    Ptr<MrcEventLog> m_log;      //!< the event log
    std::vector<Message> m_msgs; //!< per message
};

} // namespace ns3

#endif /* MRC_STALL_TRACKER_H */
