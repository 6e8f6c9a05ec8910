/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RESULTS_WRITER_H
#define MRC_RESULTS_WRITER_H

#include "mrc-run-results.h"

#include <functional>
#include <ostream>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * The output files of a run (summary.json, flows.csv, timeseries.csv,
 * links.csv, fct.txt, pfc.txt) and the summary table printed on stdout.
 *
 * Every file names the transport of each of its figures: the CSV files have a
 * "transport" column, summary.json one object per transport; HPCC's fct.txt
 * and pfc.txt, whose format has no room for it, are written per transport in
 * DIR/TRANSPORT/ when the run has several transports (like the pcap files), in
 * DIR/ when it has one. Nothing adds up figures of transports that ran
 * separately.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * Writes an MrcRunResults as the files of the output contract (design.md
 * section 4). All numbers are formatted without the C++ or C locale
 * (std::to_chars / std::to_string) with a fixed number of decimals, and rows
 * come in a fixed order, so the same results give the same bytes. Only the
 * "host" object of summary.json (wall-clock time, peak RSS) differs between
 * identical runs.
 *
 * events.csv belongs to the event log of the failures helper; WriteAll takes
 * a callback that writes it (or anything else) into the same folder.
 */
class MrcResultsWriter
{
  public:
    /// Schema version written as "schema" in summary.json.
    /// 2: links.csv and events.csv have a transport column, the transports'
    /// objects have simulatedTimeNs and eventsExecuted (run.eventsExecuted, a
    /// sum over separate runs, is gone), fct.txt and pfc.txt are per transport.
    static constexpr int SCHEMA = 2;

    /// \param r the results \param os where to write summary.json's text
    static void WriteSummaryJson(const MrcRunResults& r, std::ostream& os);
    /// \param r the results \param os where to write flows.csv's text
    static void WriteFlowsCsv(const MrcRunResults& r, std::ostream& os);
    /// \param r the results \param os where to write timeseries.csv's text
    static void WriteTimeseriesCsv(const MrcRunResults& r, std::ostream& os);
    /// \param r the results \param os where to write links.csv's text
    static void WriteLinksCsv(const MrcRunResults& r, std::ostream& os);
    /// \param r the results \param os where to write fct.txt's text (HPCC format)
    /// \param transport only this transport's flows ("" for all)
    static void WriteFctTxt(const MrcRunResults& r,
                            std::ostream& os,
                            const std::string& transport = "");
    /// \param r the results \param os where to write pfc.txt's text (HPCC format)
    /// \param transport only this transport's records ("" for all)
    static void WritePfcTxt(const MrcRunResults& r,
                            std::ostream& os,
                            const std::string& transport = "");

    /// \param os where to write flows.csv's header line
    static void WriteFlowsCsvHeader(std::ostream& os);
    /// \param f a flow \param os where to write its row of flows.csv
    static void WriteFlowRow(const MrcFlowRecord& f, std::ostream& os);
    /// \param f a completed flow \param os where to write its line of fct.txt
    static void WriteFctLine(const MrcFlowRecord& f, std::ostream& os);

    /**
     * Print the per-transport table (fixed-width columns) for a human.
     * \param r the results
     * \param os the stream (stdout in mrc-sim)
     */
    static void PrintTable(const MrcRunResults& r, std::ostream& os);

    /**
     * Create \p dir (and parents) and write every file into it (fct.txt and
     * pfc.txt into \p dir/TRANSPORT/ when there are several transports). Aborts with
     * NS_FATAL_ERROR naming the path when a file cannot be written.
     * \param r the results
     * \param dir the output folder
     * \param extra called with \p dir after the files are written, e.g. to
     *        write events.csv from the event log; may be empty
     * \return the names of the files written by this class, in writing order
     *         (relative to \p dir, e.g. "roce/fct.txt")
     */
    static std::vector<std::string> WriteAll(
        const MrcRunResults& r,
        const std::string& dir,
        const std::function<void(const std::string&)>& extra = {});

    /**
     * \param v the value
     * \param decimals digits after the point
     * \return v in fixed notation, locale-independent ("-1" stays "-1.000...")
     */
    static std::string FormatFixed(double v, int decimals);

    /**
     * Time-series value format: an integral value below 1e15 in magnitude is
     * written as an integer, any other with 6 decimals.
     * \param v the value
     * \return the text
     */
    static std::string FormatValue(double v);

    /// \param s text \return s as a JSON string literal, quotes included
    static std::string JsonString(const std::string& s);
};

} // namespace ns3

#endif /* MRC_RESULTS_WRITER_H */
