/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TRACE_INPUT_H
#define MRC_TRACE_INPUT_H

#include "mrc-collective.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * The communication trace of a job, as text: one line per collective or point-to-point
 * flow, with dependencies (read by mrc-sim --trace=FILE).
 */

namespace ns3
{

/**
 * \ingroup mrc
 * One entry of a trace: a flow or a collective, and when it may start.
 */
struct MrcTraceEntry
{
    uint32_t id{0};              //!< its id (unique in the file)
    bool collective{false};      //!< a collective (else a flow)
    MrcCollectiveSpec spec;      //!< collective: what it does (ranks are hosts)
    uint32_t src{0};             //!< flow: source host
    uint32_t dst{0};             //!< flow: destination host
    uint64_t bytes{0};           //!< flow: bytes
    std::vector<uint32_t> after; //!< ids (earlier in the file) that must complete first
    Time gap{0};                 //!< delay after the last of `after` completes
    Time start{0};               //!< earliest start (absolute)
    uint32_t line{0};            //!< its line in the file
};

/**
 * \ingroup mrc
 * A trace file:
 *
 *     # comment (and blank lines)
 *     ID flow SRC DST BYTES [after=ID,...] [gap=TIME] [start=TIME]
 *     ID OP RANKS BYTES [algo=ring|tree] [channels=N] [chunks=N] [iterations=N]
 *                       [computeGap=TIME] [job=J] [after=ID,...] [gap=TIME] [start=TIME]
 *
 * OP is allreduce, reducescatter, allgather or alltoall; RANKS a comma list of host
 * indices and ranges (0-7,16,20-23), in rank order; BYTES the size S per rank (see
 * MrcCollectiveSpec); TIME an ns-3 time (10us, 2ms; a bare number is seconds). An entry
 * starts at max(start, end of the last of `after` + gap); `after` names entries of
 * earlier lines, so a trace has no cycles. Every error is an MrcInputError
 * "FILE:LINE: expected ..., got '...'".
 */
class MrcTraceReader
{
  public:
    /**
     * \param in the text \param file its name for messages
     * \return the entries in file order
     */
    static std::vector<MrcTraceEntry> Read(std::istream& in, const std::string& file);
    /// \param path a file \return its entries (MrcInputError if it cannot be read)
    static std::vector<MrcTraceEntry> Load(const std::string& path);

    /**
     * Hosts named by an entry outside 0..hosts-1.
     * \param entries the trace \param hosts hosts of the fabric \param file its name
     * \return "" or "FILE:LINE: host H is not in the fabric (N hosts)"
     */
    static std::string CheckHosts(const std::vector<MrcTraceEntry>& entries,
                                  uint32_t hosts,
                                  const std::string& file);

    /**
     * Parse a rank list.
     * \param text e.g. "0-3,8" \param out the hosts \return success (no repeats)
     */
    static bool ParseRanks(const std::string& text, std::vector<uint32_t>& out);
};

} // namespace ns3

#endif /* MRC_TRACE_INPUT_H */
