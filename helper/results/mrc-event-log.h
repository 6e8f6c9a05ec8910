/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_EVENT_LOG_H
#define MRC_EVENT_LOG_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <ostream>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * The run's event log (events.csv): failures, repairs, EV state changes, QP errors.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * The record kinds used by the module. A kind is a short snake_case word
 * (lower-case letters, digits and '_'); MrcEventLog::Record accepts any such
 * word, these are the ones its writers agree on.
 */
namespace MrcEventKind
{
constexpr const char* LINK_DOWN = "link_down";           ///< a link was cut (both directions)
constexpr const char* LINK_UP = "link_up";               ///< a cut link was repaired
constexpr const char* SWITCH_DOWN = "switch_down";       ///< a switch failed: all its links down
constexpr const char* SWITCH_UP = "switch_up";           ///< a failed switch came back
constexpr const char* PORT_DOWN = "port_down";           ///< one port (e.g. a NIC port) went down
constexpr const char* PORT_UP = "port_up";               ///< a port came back up
constexpr const char* GRAY_START = "gray_failure_start"; ///< random loss on one direction begins
constexpr const char* GRAY_STOP = "gray_failure_stop";   ///< that loss ends
constexpr const char* PLANE_DOWN = "plane_down";         ///< every link of a plane went down
constexpr const char* PLANE_UP = "plane_up";             ///< a failed plane came back
constexpr const char* EV_STATE = "ev_state"; ///< reserved: an entropy value changed state
constexpr const char* QP_ERROR = "qp_error"; ///< reserved: a queue pair entered the error state
constexpr const char* CC_CUT =
    "cc_cut"; ///< NSCC cut a window or DCQCN a rate (--maxCcEvents): cause, before, after
} // namespace MrcEventKind

/**
 * \ingroup mrc
 * One line of events.csv.
 */
struct MrcEventRecord
{
    Time time;          ///< simulated time of the event
    std::string kind;   ///< what happened (MrcEventKind, snake_case)
    std::string where;  ///< the element, readable (node names, ports, plane label)
    std::string detail; ///< free text (may be empty)
    /// transport of the run that recorded it ("" when not given); the transport column of
    /// the events.csv mrc-sim writes (WriteCsvWithTransport)
    std::string transport;
};

/**
 * \ingroup mrc
 * An in-memory list of the run's notable events, written as events.csv with
 * the columns `time_ns,kind,where,detail`.
 *
 * Records are kept ordered by time and, at equal times, by the order in which
 * they were recorded, so two identical runs write identical files. Fields
 * holding a comma, a double quote, a CR or an LF are quoted as RFC 4180 says
 * (quotes doubled); the time is an integer number of nanoseconds (rounded
 * toward zero when the simulator resolution is finer). Lines end with LF.
 */
class MrcEventLog : public Object
{
  public:
    /// The header line of events.csv (without its line end).
    static constexpr const char* CSV_HEADER = "time_ns,kind,where,detail";
    /// The header line of the events.csv mrc-sim writes (WriteCsvWithTransport).
    static constexpr const char* CSV_HEADER_WITH_TRANSPORT = "transport,time_ns,kind,where,detail";

    /// Signature of the Record trace.
    typedef void (*RecordTracedCallback)(const MrcEventRecord& record);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcEventLog();
    ~MrcEventLog() override;

    /**
     * Add a record. Aborts on a negative time or a kind that is not a non-empty
     * snake_case word ([a-z0-9_]).
     * \param time simulated time of the event (may be earlier or later than now)
     * \param kind what happened, e.g. MrcEventKind::LINK_DOWN
     * \param where the element, readable
     * \param detail free text (may be empty)
     * \param transport the transport of the run it belongs to (may be empty)
     */
    void Record(Time time,
                const std::string& kind,
                const std::string& where,
                const std::string& detail,
                const std::string& transport = "");

    /**
     * Add a record at the current simulated time.
     * \param kind what happened
     * \param where the element
     * \param detail free text
     */
    void RecordNow(const std::string& kind, const std::string& where, const std::string& detail);

    /// \return the records, ordered by time then recording order
    const std::vector<MrcEventRecord>& GetRecords() const;
    /// \return the number of records
    std::size_t GetN() const;
    /// Forget all records.
    void Clear();

    /**
     * Write events.csv (header line, then one line per record).
     * \param os the stream
     */
    void WriteCsv(std::ostream& os) const;
    /**
     * Write events.csv to a file (created or truncated). Aborts naming the path
     * if it cannot be written.
     * \param path the file name
     */
    void WriteCsv(const std::string& path) const;
    /// \return the content WriteCsv writes
    std::string ToCsv() const;

    /**
     * Write events.csv with a first column naming each record's transport (the
     * file mrc-sim writes: every output file names its transport).
     * \param os the stream
     * \param fallback the transport of records recorded without one
     */
    void WriteCsvWithTransport(std::ostream& os, const std::string& fallback) const;
    /**
     * WriteCsvWithTransport to a file (created or truncated); aborts naming the
     * path if it cannot be written.
     * \param path the file name
     * \param fallback the transport of records recorded without one
     */
    void WriteCsvWithTransport(const std::string& path, const std::string& fallback) const;

    /**
     * Quote a CSV field if it needs it (RFC 4180).
     * \param field the text
     * \return the field as written in the file
     */
    static std::string CsvField(const std::string& field);

  private:
    std::vector<MrcEventRecord> m_records;               //!< ordered records
    TracedCallback<const MrcEventRecord&> m_recordTrace; //!< Record
};

} // namespace ns3

#endif /* MRC_EVENT_LOG_H */
