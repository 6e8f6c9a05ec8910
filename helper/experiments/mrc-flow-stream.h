/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FLOW_STREAM_H
#define MRC_FLOW_STREAM_H

#include "ns3/mrc-run-results.h"

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * MrcFlowStream: the flow records of a run written out as their messages end, so that a
 * finished message holds no memory besides the few bytes the summary's percentiles need.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * Writes flows.csv and fct.txt while a run goes on.
 *
 * Each transport of a run (one runner after another, in the results' transport order)
 * writes two part files into the output folder: the rows of flows.csv in flow-id order
 * and the lines of fct.txt in completion order. A record that ends before a lower flow id
 * has ended waits in a reorder buffer (its formatted row) until the rows before it are
 * written; completions of the same nanosecond wait until time moves on and are written
 * by flow id. Finish joins the parts: flows.csv is the header and the transports' rows in
 * transport order; fct.txt merges the transports' lines by completion time (ties: the
 * transport order), which is the order MrcResultsWriter writes from records in memory,
 * so both files are byte-identical to what it would write.
 *
 * Every record also goes to MrcRunResults::AddStreamedFlow, which keeps only counts; the
 * FCT and slowdown of a completed flow (16 bytes) go to a third part file, which the
 * results read back when they compute the percentiles of summary.json (Summarize, at the
 * end): nothing is held in memory per finished message during the run.
 */
class MrcFlowStream
{
  public:
    /// \param dir the folder for the part files (the run's output folder)
    explicit MrcFlowStream(std::string dir);
    /// Removes the part files that Finish did not join.
    ~MrcFlowStream();

    MrcFlowStream(const MrcFlowStream&) = delete;
    MrcFlowStream& operator=(const MrcFlowStream&) = delete;

    /**
     * Start the flows of one transport (flow ids from 0). Aborts while another transport
     * is open.
     * \param results where the statistics go
     * \param transport the transport's name
     */
    void BeginTransport(MrcRunResults* results, const std::string& transport);

    /**
     * A message ended (completed: endNs set; failed or still open at the end: endNs -1).
     * Every flow id of the transport must come exactly once.
     * \param rec its record
     */
    void Add(const MrcFlowRecord& rec);

    /// End the open transport: every flow id below the highest seen must have come.
    void EndTransport();

    /**
     * Write flows.csv and fct.txt into a folder from the part files (and remove them).
     * \param dir the folder
     * \param results the results (their transport order)
     */
    void Finish(const std::string& dir, const MrcRunResults& results);

    /**
     * A run split over ranks: this rank adds only the flows it posted, so flow ids come
     * with gaps; the rows wait until EndTransport and are written in id order.
     * \param split true for a run split over ranks
     */
    void SetSplit(bool split);

    /// \return the part files of every transport so far, packed in one text (for rank 0)
    std::string PackParts() const;

    /**
     * On rank 0: merge the other ranks' parts (PackParts) into this rank's part files:
     * flows by flow id, fct lines by (end time, flow id), the FCT samples one after another.
     * \param packs the packed parts of ranks 1..N-1
     */
    void MergeParts(const std::vector<std::string>& packs);

    /// \return rows waiting in the reorder buffer (for tests)
    std::size_t GetBuffered() const;
    /// \return the largest number of rows that waited at once
    std::size_t GetMaxBuffered() const;
    /// \return records added so far
    uint64_t GetNAdded() const;
    /// \return the rows of collective-steps.csv of every transport so far (the runners
    ///         add theirs at the end of their run)
    std::string& CollectiveStepRows();

  private:
    /// Write the fct.txt lines of the completions of the current nanosecond.
    void FlushFctGroup();
    /// Append a transport's FCTs and slowdowns (MrcRunResults::StreamedSamples).
    void ReadSamples(const std::string& transport,
                     std::vector<int64_t>& fcts,
                     std::vector<double>& slowdowns);

    /// The part files of one transport.
    struct Part
    {
        std::string transport; //!< its name
        std::string flows;     //!< path of its flows.csv rows
        std::string fct;       //!< path of its fct.txt lines (each prefixed by its end time)
        std::string samples;   //!< path of its FCTs and slowdowns (binary, for the summary)
    };

    std::string m_dir;                         //!< folder of the part files
    std::vector<Part> m_parts;                 //!< in the order begun
    bool m_open{false};                        //!< a transport is open
    MrcRunResults* m_results{nullptr};         //!< statistics
    std::ofstream m_flows;                     //!< rows of the open transport
    std::ofstream m_fct;                       //!< fct lines of the open transport
    std::ofstream m_samples;                   //!< FCT and slowdown of each completed flow
    uint64_t m_next{0};                        //!< next flow id to write
    std::map<uint64_t, std::string> m_pending; //!< rows that wait for a lower flow id
    std::size_t m_maxPending{0};               //!< most rows waiting at once
    int64_t m_groupEnd{-1};                    //!< end time of the completions in m_group
    std::vector<std::pair<uint64_t, std::string>> m_group; //!< (flow id, fct line) at m_groupEnd
    uint64_t m_added{0};                                   //!< records added
    bool m_split{false};                                   //!< SetSplit
    std::string m_stepRows;                                //!< collective-steps.csv rows
};

} // namespace ns3

#endif /* MRC_FLOW_STREAM_H */
