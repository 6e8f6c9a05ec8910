/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_COLLECTIVE_H
#define MRC_COLLECTIVE_H

#include "mrc-workload.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * Collectives as a training job runs them: ring and tree all-reduce, reduce-scatter,
 * all-gather and all-to-all over a set of ranks, with channels, chunks and iterations
 * separated by a compute gap, as a dependency graph that releases messages as earlier
 * ones complete. Pure logic: no simulator events.
 */

namespace ns3
{

/// \ingroup mrc
/// The collective operation.
enum class MrcCollectiveOp : uint8_t
{
    ALL_REDUCE = 0,     ///< every rank ends with the sum of all ranks' vectors
    REDUCE_SCATTER = 1, ///< every rank ends with the sum of one 1/n of the vector
    ALL_GATHER = 2,     ///< every rank ends with every rank's 1/n of the vector
    ALL_TO_ALL = 3      ///< every rank sends a distinct 1/n of its buffer to every rank
};

/// \ingroup mrc
/// How the data moves.
enum class MrcCollectiveAlgorithm : uint8_t
{
    RING = 0, ///< a ring per channel (all-to-all: direct sends)
    TREE = 1  ///< a binary tree per channel, reduce up then broadcast down (all-reduce only)
};

/// \return the operation's name: allreduce, reducescatter, allgather, alltoall
/// \param op the operation
std::string MrcCollectiveOpName(MrcCollectiveOp op);
/// \return the algorithm's name: ring, tree \param a the algorithm
std::string MrcCollectiveAlgorithmName(MrcCollectiveAlgorithm a);
/**
 * \param name allreduce, reducescatter, allgather or alltoall
 * \param op receives the operation
 * \return whether the name is known
 */
bool MrcParseCollectiveOp(const std::string& name, MrcCollectiveOp& op);
/**
 * \param name ring or tree
 * \param a receives the algorithm
 * \return whether the name is known
 */
bool MrcParseCollectiveAlgorithm(const std::string& name, MrcCollectiveAlgorithm& a);

/**
 * \ingroup mrc
 * What a collective does. `bytes` is S, the size of one rank's vector: the input of
 * all-reduce and reduce-scatter, the gathered output of all-gather, the send buffer of
 * all-to-all.
 */
struct MrcCollectiveSpec
{
    MrcCollectiveOp op{MrcCollectiveOp::ALL_REDUCE};                //!< the operation
    MrcCollectiveAlgorithm algorithm{MrcCollectiveAlgorithm::RING}; //!< the algorithm
    std::vector<uint32_t> ranks; //!< the hosts, rank order (at least 2, distinct)
    uint64_t bytes{0};           //!< S per rank
    uint32_t channels{1};        //!< parallel rings (trees), each over a different peer order
    uint32_t chunks{1};          //!< messages each piece of a step is cut into
    uint32_t iterations{1};      //!< times the collective runs
    Time computeGap{0};          //!< time between an iteration's end and the next start
    uint32_t job{0};             //!< the job it belongs to (reports only)
};

/**
 * \ingroup mrc
 * One step of one iteration of a collective: when its first message was released, when
 * its last one completed, the bytes and messages it moved (a row of collective-steps.csv).
 */
struct MrcCollectiveStepRecord
{
    uint32_t iteration{0};      //!< the iteration
    uint32_t step{0};           //!< the step
    int64_t startNs{INT64_MAX}; //!< earliest start of its messages
    int64_t endNs{-1};          //!< latest completion of its messages
    uint64_t bytes{0};          //!< bytes of its completed messages
    uint64_t messages{0};       //!< its completed messages
};

/**
 * \ingroup mrc
 * A collective over n ranks as a dependency graph of messages. The data of a rank (S
 * bytes) is cut into `channels` parts (part k: floor(S/channels), plus one for k < S mod
 * channels; every cut below follows the same rule). Channel k works over its own order of
 * the ranks: position p holds rank (p * m_k) mod n, where m_k is the k-th stride coprime
 * with n in the order 1, n-1, 2, n-2, ... (channel 0: the rank order, channel 1: the
 * reverse ring; with fewer strides than channels they repeat), so parallel rings have
 * different neighbours.
 *
 * - Ring all-reduce (2(n-1) steps), reduce-scatter and all-gather (n-1 steps): a
 *   channel's part is cut into n segments, each segment into `chunks` messages. In step s
 *   the rank at position p sends one segment to position p+1: all-reduce sends segment
 *   (p - s) mod n in steps s < n-1 (reduce-scatter) and (p + 1 - (s - n + 1)) mod n after
 *   (all-gather); reduce-scatter sends (p - s - 1) mod n (rank p ends with segment p);
 *   all-gather sends (p - s) mod n. Chunk c of step s from position p is released when
 *   chunk c of step s-1 into position p (from p-1) completes. Bytes sent per rank and
 *   iteration: 2(n-1)/n S (all-reduce), (n-1)/n S (reduce-scatter, all-gather), exactly
 *   when n x channels x chunks divides S; over all ranks always exactly 2(n-1) S and
 *   (n-1) S.
 * - Tree all-reduce (2 steps): the channel's part is cut into `chunks` messages; position
 *   p's parent is (p-1)/2. Step 0 (reduce): a leaf sends each chunk to its parent at the
 *   start; an inner node sends chunk c up when chunk c has come from all its children.
 *   Step 1 (broadcast): the root sends chunk c to its children when it has it from all
 *   children; a node forwards chunk c to its children when it comes from its parent.
 *   Bytes: every rank but the root sends S up, every rank sends S to each child:
 *   2(n-1) S in all.
 * - All-to-all (n-1 steps, all released at the start of the iteration): the channel's
 *   part is cut into n pieces; in step k (k = 1..n-1, numbered k-1) the rank at position
 *   p sends piece k to position p+k, cut into `chunks` messages. (n-1)/n S per rank.
 *
 * An iteration ends when all its messages have completed; the next one starts
 * computeGap later (its first messages carry that start time). Memory does not grow with
 * the iterations, except for one step record per step and iteration.
 */
class MrcCollective
{
  public:
    /**
     * \param id the collective's id (put in every message: MrcFlowSpec::collective)
     * \param spec what to do (aborts on a spec that Check refuses)
     */
    MrcCollective(uint32_t id, const MrcCollectiveSpec& spec);

    /**
     * \param spec a spec
     * \return "" if it can run, else what is wrong
     */
    static std::string Check(const MrcCollectiveSpec& spec);

    /// \return the id
    uint32_t GetId() const;
    /// \return the spec
    const MrcCollectiveSpec& GetSpec() const;
    /// \return steps per iteration
    uint32_t GetNumSteps() const;
    /// \return messages per iteration
    uint64_t GetMessagesPerIteration() const;
    /// \return the stride of channel k's order
    /// \param k the channel
    uint32_t GetStride(uint32_t k) const;

    /**
     * Start the first iteration.
     * \param now the time (start of its first messages)
     * \return the messages to post
     */
    std::vector<MrcFlowSpec> Start(Time now);

    /**
     * A message of this collective completed. Aborts for a message that is not one of
     * its running iteration's.
     * \param done the message \param now the time
     * \return the messages it releases (start now, or at the next iteration's start)
     */
    std::vector<MrcFlowSpec> OnFlowComplete(const MrcFlowSpec& done, Time now);

    /**
     * As OnFlowComplete(done, now), for a completion the collective learns of later than it
     * happened (a run split over ranks: MrcScenarioRunner applies every message's end one
     * lookahead + one time step after it). The step and iteration records keep the completion time;
     * the released messages start at releaseAt, the next iteration at the later of
     * completedAt + computeGap and releaseAt.
     * \param done the message \param completedAt when it completed
     * \param releaseAt when the messages it releases start (not before completedAt)
     * \return the messages it releases
     */
    std::vector<MrcFlowSpec> OnFlowComplete(const MrcFlowSpec& done,
                                            Time completedAt,
                                            Time releaseAt);

    /// \return whether every iteration has completed
    bool IsComplete() const;
    /// \return the time Start was called
    Time GetStartTime() const;
    /// \return the end of the last iteration (aborts if not complete)
    Time GetCompletionTime() const;
    /// \return completion minus start (aborts if not complete)
    Time GetDuration() const;
    /// \return start and end of every iteration begun (end -1 while running), ns
    const std::vector<std::pair<int64_t, int64_t>>& GetIterations() const;
    /// \return the step records of every iteration begun
    const std::vector<MrcCollectiveStepRecord>& GetSteps() const;

  private:
    /// Start iteration m_iteration at `at`.
    std::vector<MrcFlowSpec> StartIteration(Time at);
    /// \return a message of the running iteration
    MrcFlowSpec Make(uint32_t step,
                     uint32_t ch,
                     uint32_t fromPos,
                     uint32_t toPos,
                     uint64_t bytes,
                     uint32_t chunk,
                     Time start) const;
    /// Ring: message of (step, channel, position, chunk)
    MrcFlowSpec RingFlow(uint32_t step, uint32_t ch, uint32_t pos, uint32_t chunk, Time t) const;
    /// Tree: the chunk messages from a position to its parent / children
    void TreeUp(uint32_t ch, uint32_t pos, uint32_t chunk, Time t, std::vector<MrcFlowSpec>& out);
    void TreeDown(uint32_t ch, uint32_t pos, uint32_t chunk, Time t, std::vector<MrcFlowSpec>& out);
    /// \return the segment position p sends in ring step s
    uint32_t SegmentOf(uint32_t step, uint32_t pos) const;
    /// Record a released message in its step record
    void Released(const std::vector<MrcFlowSpec>& flows);
    /// \return the number of children of position p in a tree of n
    uint32_t Children(uint32_t p) const;

    uint32_t m_id;                                   //!< id
    MrcCollectiveSpec m_spec;                        //!< the spec
    uint32_t m_n;                                    //!< ranks
    uint32_t m_steps;                                //!< steps per iteration
    std::vector<uint32_t> m_stride;                  //!< per channel
    std::vector<std::vector<uint32_t>> m_pos2rank;   //!< per channel: position -> rank
    std::vector<std::vector<uint32_t>> m_rank2pos;   //!< per channel: rank -> position
    std::unordered_map<uint32_t, uint32_t> m_rankOf; //!< host -> rank
    std::vector<uint8_t> m_treeGot; //!< tree: chunks received from children (ch, pos, chunk)
    uint32_t m_iteration{0};        //!< running iteration
    uint64_t m_left{0};             //!< its messages not completed
    bool m_started{false};          //!< Start called
    bool m_done{false};             //!< all iterations complete
    Time m_startTime;               //!< Start's time
    Time m_endTime;                 //!< end of the last iteration
    std::vector<std::pair<int64_t, int64_t>> m_iterations; //!< start, end per iteration
    std::vector<MrcCollectiveStepRecord> m_stepRecords;    //!< per iteration and step
};

} // namespace ns3

#endif /* MRC_COLLECTIVE_H */
