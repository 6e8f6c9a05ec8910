/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_HPCC_INPUT_H
#define MRC_HPCC_INPUT_H

#include "mrc-workload.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * Readers for the topology and flow files of the HPCC and ConWeave ns-3
 * simulators (alibaba-edu/High-Precision-Congestion-Control,
 * conweave-project/conweave-ns3).
 */

namespace ns3
{

/**
 * \ingroup mrc
 * One link of an HPCC topology file.
 */
struct MrcHpccLink
{
    uint32_t a{0};       ///< first node id
    uint32_t b{0};       ///< second node id
    uint64_t rateBps{0}; ///< rate in bit/s ("100Gbps")
    Time delay;          ///< one-way propagation delay ("0.001ms", "1000ns")
    double errorRate{0}; ///< packet error rate in [0, 1]
    uint32_t line{0};    ///< line number in the file
};

/**
 * \ingroup mrc
 * An HPCC/ConWeave topology file:
 *
 *     N S L                       nodes, switches, links
 *     s_1 s_2 ... s_S             the switch node ids (line absent when S = 0)
 *     src dst rate delay err      L lines
 *
 * Node ids are 0 .. N-1; the ids not listed as switches are hosts. Blank
 * lines are skipped; whatever follows the L-th link line is ignored (the
 * HPCC simulator reads exactly L links; its sample file has notes there).
 */
struct MrcHpccTopology
{
    uint32_t numNodes{0};            ///< N
    std::vector<uint32_t> switchIds; ///< the S switch ids, in file order
    std::vector<bool> isSwitch;      ///< per node id
    std::vector<uint32_t> hosts;     ///< the host ids, ascending
    std::vector<MrcHpccLink> links;  ///< the L links, in file order
};

/**
 * \ingroup mrc
 * Options of the flow-file reader.
 */
struct MrcHpccFlowOptions
{
    /// Node count for range checks (0: no check); a topology's numNodes.
    uint32_t numNodes{0};
    /// If true, the count on the first line is not checked against the flow
    /// lines (ConWeave's traffic_gen.py can leave a wrong count: it overwrites
    /// the start of its estimated count in place).
    bool ignoreCount{false};
    /// Per node id: a switch, which may not send or receive a flow (empty: no check).
    std::vector<bool> isSwitch;
    /// Largest flow size in bytes (0: no limit).
    uint64_t maxBytes{0};
};

/**
 * \ingroup mrc
 * Readers for HPCC/ConWeave files. All throw MrcInputError
 * ("FILE:LINE: expected ..., got '...'") on malformed input and never abort.
 */
class MrcLineReader;

class MrcHpccInput
{
  public:
    /**
     * Read a topology file. \param path the file \return the topology
     */
    static MrcHpccTopology LoadTopology(const std::string& path);
    /**
     * Read a topology from a stream. \param in the stream
     * \param name the file name for messages \return the topology
     */
    static MrcHpccTopology ParseTopology(std::istream& in, const std::string& name);

    /**
     * Read a flow file: first line the number of flows F, then F lines
     *
     *     src dst pg dport bytes start_s      (HPCC, 6 fields)
     *     src dst pg bytes start_s            (ConWeave, 5 fields)
     *
     * start_s in seconds, read exactly to the picosecond. Every flow keeps
     * pg (priorityGroup) and, for 6 fields, dport (dstPort); kind PLAIN.
     * Errors: a line with another number of fields, a field that is not a
     * number, src == dst, bytes == 0, a node id >= options.numNodes (when
     * set), a switch's node id (options.isSwitch), bytes > options.maxBytes
     * (when set), fewer or more flow lines than F (unless options.ignoreCount).
     * \param path the file \param options the options \return the flows, in file order
     */
    static std::vector<MrcFlowSpec> LoadFlows(const std::string& path,
                                              const MrcHpccFlowOptions& options = {});
    /**
     * Read flows from a stream (see LoadFlows). \param in the stream
     * \param name the file name for messages \param options the options
     * \return the flows
     */
    static std::vector<MrcFlowSpec> ParseFlows(std::istream& in,
                                               const std::string& name,
                                               const MrcHpccFlowOptions& options = {});

  private:
    /**
     * The count on the first line of a flow file (at most MrcInputLimits::MAX_FLOWS).
     * \param r the reader, before the first line \return the count
     */
    static uint32_t ReadFlowCount(MrcLineReader& r);
    /**
     * One flow line (the reader's current line).
     * \param r the reader \param options the options \return the flow
     */
    static MrcFlowSpec ParseFlowLine(const MrcLineReader& r, const MrcHpccFlowOptions& options);
    /**
     * src and dst of the current flow line: node ids in range, different, not switches.
     * \param r the reader \param options the options \param flow receives src and dst
     */
    static void ParseFlowEndpoints(const MrcLineReader& r,
                                   const MrcHpccFlowOptions& options,
                                   MrcFlowSpec& flow);
};

} // namespace ns3

#endif // MRC_HPCC_INPUT_H
