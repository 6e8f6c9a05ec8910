/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_HTSIM_INPUT_H
#define MRC_HTSIM_INPUT_H

#include "mrc-workload.h"

#include <array>
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * Readers for htsim's connection matrices (.cm) and fat-tree topology files
 * (.topo), as in ultraethernet/uet-htsim (htsim/sim/datacenter).
 */

namespace ns3
{

/**
 * \ingroup mrc
 * One connection line of a .cm file:
 * "SRC->DST [start US] [size B] [id I] [msg [M]] [trigger T]
 * [send_done_trigger T] [recv_done_trigger T] [prio P]".
 */
struct MrcHtsimConnection
{
    uint32_t src{0};             ///< source node
    uint32_t dst{0};             ///< destination node
    bool hasStart{false};        ///< a start time was given
    double startUs{0};           ///< start time in microseconds (htsim truncates it to whole us)
    uint64_t size{0};            ///< bytes (0 if not given)
    uint32_t flowId{0};          ///< "id" (0: none; 0 is not allowed in the file)
    bool hasMsg{false};          ///< "msg" present
    uint32_t msgId{0};           ///< its number (0 when "msg" has no number)
    uint32_t trigger{0};         ///< start on this trigger (0: none)
    uint32_t sendDoneTrigger{0}; ///< trigger fired when sending is done (0: none)
    uint32_t recvDoneTrigger{0}; ///< trigger fired when receiving is done (0: none)
    int64_t priority{2000000};   ///< "prio" (htsim's default 2000000)
    uint32_t line{0};            ///< line number
};

/**
 * \ingroup mrc
 * A trigger line: "trigger id I (oneshot|multishot|barrier) [count C]".
 */
struct MrcHtsimTrigger
{
    /// Trigger type.
    enum Type
    {
        ONESHOT,   ///< fires once, on its first activation
        MULTISHOT, ///< fires on every activation
        BARRIER    ///< fires after count activations
    };

    uint32_t id{0};     ///< trigger id (> 0)
    Type type{ONESHOT}; ///< its type
    uint32_t count{0};  ///< activations a barrier waits for
    uint32_t line{0};   ///< line number
};

/**
 * \ingroup mrc
 * A failure line: "failure [switch_type TOR|AGG|CORE] [switch_id X] [link_id Y]".
 */
struct MrcHtsimFailure
{
    std::string switchType; ///< TOR, AGG or CORE (empty if not given)
    uint32_t switchId{0};   ///< switch index
    uint32_t linkId{0};     ///< link index
    uint32_t line{0};       ///< line number
};

/**
 * \ingroup mrc
 * A parsed .cm file. Header lines "Nodes N", "Connections C", "Triggers T",
 * "Failures F" (any order, before the first connection, trigger or failure
 * line; Connections/Triggers/Failures default to 0); '#' lines and blank
 * lines are skipped. The number of lines of each kind must match the header.
 */
struct MrcHtsimConnectionMatrix
{
    uint32_t nodes{0};                           ///< Nodes
    std::vector<MrcHtsimConnection> connections; ///< in file order
    std::vector<MrcHtsimTrigger> triggers;       ///< in file order
    std::vector<MrcHtsimFailure> failures;       ///< in file order

    /**
     * The connections with a start time as flows (start = startUs truncated
     * to whole microseconds, as htsim does; kind PLAIN). Connections that
     * start on a trigger are left out: the scenario starts them itself.
     * \return the flows
     */
    std::vector<MrcFlowSpec> TimedFlows() const;
};

/**
 * \ingroup mrc
 * One tier of a .topo file ("Tier k" and the lines after it).
 */
struct MrcHtsimTier
{
    bool present{false};           ///< a "Tier k" line was seen
    uint64_t downlinkGbps{0};      ///< Downlink_speed_Gbps: rate of the links below this tier
    uint32_t radixUp{0};           ///< Radix_Up (not for the top tier)
    uint32_t radixDown{0};         ///< Radix_Down
    uint64_t queueUp{0};           ///< Queue_Up in bytes (0: not given)
    uint64_t queueDown{0};         ///< Queue_Down in bytes (0: not given)
    uint32_t oversubscribed{1};    ///< Oversubscribed ratio
    uint32_t bundle{1};            ///< Bundle: parallel links per switch pair
    uint64_t switchLatencyNs{0};   ///< Switch_Latency_ns
    uint64_t downlinkLatencyNs{0}; ///< Downlink_Latency_ns
    uint32_t line{0};              ///< line of the "Tier k" line
};

/**
 * \ingroup mrc
 * A parsed htsim fat-tree .topo file: header "Nodes N", "Tiers T" (2 or 3),
 * "Podsize P", then per tier "Tier k" (k = 0 ToR, 1 Agg, 2 Core) followed by
 * its attributes. Keys are case-insensitive; '#' and blank lines are skipped.
 */
struct MrcHtsimTopology
{
    uint32_t nodes{0};                ///< Nodes (hosts)
    uint32_t tiers{0};                ///< Tiers
    uint32_t podSize{0};              ///< Podsize (hosts per pod)
    std::array<MrcHtsimTier, 3> tier; ///< tiers 0..2
    std::string file;                 ///< the file name (for messages)
    uint32_t podSizeLine{0};          ///< line of "Podsize"
};

/**
 * \ingroup mrc
 * The switch counts of the fat tree a .topo file describes, derived with
 * htsim's rules (FatTreeTopologyCfg::set_custom_params):
 * pods = Nodes / Podsize; ToRs per pod = Podsize / Radix_Down(0);
 * ToR uplinks = Nodes x speed(0) / (speed(1) x Oversubscribed(0));
 * Aggs per pod = ToR uplinks / (pods x Radix_Down(1)); with 3 tiers,
 * Agg uplinks = ToR uplinks x speed(1) / (speed(2) x Oversubscribed(1)) and
 * cores = Agg uplinks / Radix_Down(2).
 */
struct MrcHtsimFatTreeShape
{
    uint32_t pods{0};       ///< number of pods
    uint32_t torsPerPod{0}; ///< ToR switches per pod
    uint32_t aggsPerPod{0}; ///< aggregation switches per pod
    uint32_t cores{0};      ///< core switches (0 with 2 tiers)
    uint64_t torUplinks{0}; ///< ToR-to-Agg links in total
    uint64_t aggUplinks{0}; ///< Agg-to-Core links in total (0 with 2 tiers)
};

/**
 * \ingroup mrc
 * Readers for htsim files. All throw MrcInputError
 * ("FILE:LINE: expected ..., got '...'") and never abort.
 */
class MrcHtsimInput
{
  public:
    /** \param path the .cm file \return the parsed matrix */
    static MrcHtsimConnectionMatrix LoadConnectionMatrix(const std::string& path);
    /**
     * \param in the stream \param name the file name for messages
     * \return the parsed matrix
     */
    static MrcHtsimConnectionMatrix ParseConnectionMatrix(std::istream& in,
                                                          const std::string& name);
    /** \param path the .topo file \return the parsed topology */
    static MrcHtsimTopology LoadTopology(const std::string& path);
    /**
     * \param in the stream \param name the file name for messages
     * \return the parsed topology
     */
    static MrcHtsimTopology ParseTopology(std::istream& in, const std::string& name);

    /**
     * Derive the switch counts, with htsim's consistency checks (every
     * division exact; Radix_Down(0) / Radix_Up(0) == Oversubscribed(0) in
     * integer division; Aggs per pod x Bundle(1) == Radix_Up(0); with 3
     * tiers, cores a multiple of Aggs per pod and
     * cores x Bundle(2) / Aggs per pod == Radix_Up(1); Bundle(0) == 1; every
     * tier's Downlink_speed_Gbps and Radix_Down set, and Radix_Up below the
     * top tier). Throws MrcInputError naming the "Tier k" (or Podsize) line.
     * \param topo a parsed topology \return the counts
     */
    static MrcHtsimFatTreeShape Shape(const MrcHtsimTopology& topo);

    /// The fastest Downlink_speed_Gbps accepted (1 Pb/s): it keeps the shape's
    /// products within 64 bits.
    static constexpr uint64_t MAX_LINK_GBPS = 1000000;

  private:
    /// Every tier's rate, radixes, Oversubscribed and Bundle in range. \param topo the file
    static void CheckTierValues(const MrcHtsimTopology& topo);
    /// pods, ToRs per pod, ToR uplinks. \param topo the file \param s the shape to fill
    static void ShapeTorLevel(const MrcHtsimTopology& topo, MrcHtsimFatTreeShape& s);
    /// aggregation switches per pod. \param topo the file \param s the shape to fill
    static void ShapeAggLevel(const MrcHtsimTopology& topo, MrcHtsimFatTreeShape& s);
    /// Agg uplinks and cores (3 tiers). \param topo the file \param s the shape to fill
    static void ShapeCoreLevel(const MrcHtsimTopology& topo, MrcHtsimFatTreeShape& s);
    /**
     * The whole fabric within MrcInputLimits::MAX_NODES nodes and MAX_LINKS links.
     * \param topo the file \param s its shape
     */
    static void CheckShapeSize(const MrcHtsimTopology& topo, const MrcHtsimFatTreeShape& s);
    /**
     * a x b, failing when it passes MAX_LINKS x MAX_LINK_GBPS (so it never wraps).
     * \param topo the file \param line the line to name \param a a factor \param b a factor
     * \return the product
     */
    static uint64_t MulOrFail(const MrcHtsimTopology& topo, uint32_t line, uint64_t a, uint64_t b);
    /**
     * Throw MrcInputError. \param topo the file \param line its line
     * \param what what was expected \param got the value found
     */
    [[noreturn]] static void ShapeFail(const MrcHtsimTopology& topo,
                                       uint32_t line,
                                       const std::string& what,
                                       uint64_t got);
};

} // namespace ns3

#endif // MRC_HTSIM_INPUT_H
