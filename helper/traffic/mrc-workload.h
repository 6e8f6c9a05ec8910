/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_WORKLOAD_H
#define MRC_WORKLOAD_H

#include "mrc-flow-size-cdf.h"

#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <map>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * Workload generators (permutation, incast, all-to-all, Poisson arrivals from
 * a flow-size CDF), ring collectives as a dependency graph of chunked steps,
 * and random loss injection on every link.
 */

namespace ns3
{

class MrcIngressLossModel;
class RateErrorModel;
class UniformRandomVariable;

/**
 * \ingroup mrc
 * What a flow belongs to.
 */
enum class MrcFlowKind : uint8_t
{
    PLAIN = 0,     ///< an ordinary flow (permutation, all-to-all, Poisson, file)
    INCAST = 1,    ///< one of the incast senders
    VICTIM = 2,    ///< the victim flow of an incast scenario
    COLLECTIVE = 3 ///< a chunk of one step of a collective
};

/**
 * \ingroup mrc
 * One flow to be started by the scenario program. Hosts are numbered as the
 * scenario numbers them (host index, or the node id of an HPCC/htsim file).
 */
struct MrcFlowSpec
{
    uint32_t src{0};                      ///< sending host
    uint32_t dst{0};                      ///< receiving host
    uint64_t bytes{0};                    ///< message size in bytes
    Time start;                           ///< start time (absolute simulated time)
    MrcFlowKind kind{MrcFlowKind::PLAIN}; ///< what the flow belongs to
    uint32_t collective{0};               ///< COLLECTIVE: the collective's id
    uint32_t step{0};                     ///< COLLECTIVE: the step (0-based)
    uint32_t chunk{0};                    ///< COLLECTIVE: the chunk within the step
    uint32_t segment{0};                  ///< COLLECTIVE: the message segment carried
    uint32_t channel{0};                  ///< COLLECTIVE (MrcCollective): the channel
    uint32_t iteration{0};                ///< COLLECTIVE (MrcCollective): the iteration
    int32_t priorityGroup{-1};            ///< from a flow file (pg), -1 if none
    int32_t dstPort{-1};                  ///< from a flow file (dport), -1 if none
};

/**
 * \ingroup mrc
 * Generates flow lists. The generators that draw random numbers use the
 * object's UniformRandomVariable, whose stream AssignStreams sets: the same
 * stream (and the same global seed and run) gives the same flow list.
 */
class MrcWorkloadGenerator : public Object
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    MrcWorkloadGenerator();
    ~MrcWorkloadGenerator() override;

    /**
     * Fix the random stream. \param stream the first stream index
     * \return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * Random permutation without fixed points (a derangement, uniform over
     * all derangements): host hosts[i] sends to hosts[pi(i)], pi(i) != i.
     * Drawn by shuffling (Fisher-Yates) until no host maps to itself.
     * Aborts with fewer than 2 hosts.
     * \param hosts the hosts \param bytes bytes per flow \param start start time
     * \return one flow per host, in the order of hosts
     */
    std::vector<MrcFlowSpec> Permutation(const std::vector<uint32_t>& hosts,
                                         uint64_t bytes,
                                         Time start);

    /**
     * Fixed shift permutation: hosts[i] sends to hosts[(i + shift) mod n].
     * Aborts when shift mod n is 0.
     * \param hosts the hosts \param shift the shift \param bytes bytes per flow
     * \param start start time \return one flow per host, in the order of hosts
     */
    static std::vector<MrcFlowSpec> ShiftPermutation(const std::vector<uint32_t>& hosts,
                                                     uint32_t shift,
                                                     uint64_t bytes,
                                                     Time start);

    /**
     * Incast: every sender sends bytes to the receiver at start (kind INCAST).
     * Aborts when the receiver is among the senders or a sender repeats.
     * \param senders the senders \param receiver the receiver
     * \param bytes bytes per sender \param start start time \return the flows
     */
    static std::vector<MrcFlowSpec> Incast(const std::vector<uint32_t>& senders,
                                           uint32_t receiver,
                                           uint64_t bytes,
                                           Time start);

    /**
     * Choose the victim flow of an incast: a flow that shares the incast's
     * bottleneck switch (the receiver's ToR) but not its receiver.
     * The destination is the lowest-numbered host of receiverRack (the hosts
     * under the receiver's ToR) that is neither the receiver nor a sender;
     * the source is the lowest-numbered host of allHosts that is neither in
     * receiverRack nor a sender, so the victim, like the incast flows from
     * other racks, enters the receiver's ToR from the fabric and competes
     * with them for the ToR's ingress buffer, its PFC pauses and the
     * fabric-to-ToR links, while its own egress port is not congested.
     * Aborts when no such pair exists.
     * \param senders the incast senders \param receiver the incast receiver
     * \param receiverRack the hosts under the receiver's ToR (with the receiver)
     * \param allHosts all hosts \param bytes victim size \param start its start
     * \return the victim flow (kind VICTIM)
     */
    static MrcFlowSpec ChooseVictim(const std::vector<uint32_t>& senders,
                                    uint32_t receiver,
                                    const std::vector<uint32_t>& receiverRack,
                                    const std::vector<uint32_t>& allHosts,
                                    uint64_t bytes,
                                    Time start);

    /**
     * All-to-all: every ordered pair (a, b), a != b, of hosts, bytes each,
     * n(n-1) flows. Host hosts[i] sends to hosts[(i + k) mod n] for
     * k = 1 .. n-1 and that flow starts at start + (k - 1) * stagger (stagger
     * zero: all at once). Listed by k, then by i.
     * \param hosts the hosts \param bytes bytes per pair \param start start time
     * \param stagger delay between successive destinations of one host
     * \return the flows
     */
    static std::vector<MrcFlowSpec> AllToAll(const std::vector<uint32_t>& hosts,
                                             uint64_t bytes,
                                             Time start,
                                             Time stagger = Time(0));

    /**
     * Mean inter-arrival time of the Poisson generator: the time to send one
     * mean-sized flow at load x hostRate, 8 meanBytes / (load hostRateBps)
     * seconds (the HPCC/ConWeave traffic_gen.py rule), per host.
     * \param load offered load per host in (0, 1]
     * \param hostRateBps host link rate in bit/s
     * \param meanBytes mean flow size
     * \return the mean gap
     */
    static Time PoissonMeanGap(double load, uint64_t hostRateBps, double meanBytes);

    /**
     * The number of flows Poisson is expected to make (hosts x duration / mean gap),
     * in double arithmetic, so a caller can refuse a workload before generating it.
     * \param hosts the hosts \param load offered load \param hostRateBps host rate
     * \param meanBytes mean flow size \param duration the arrival window
     * \return the expected count (0 when an argument is not positive)
     */
    static double ExpectedPoissonFlows(uint32_t hosts,
                                       double load,
                                       uint64_t hostRateBps,
                                       double meanBytes,
                                       Time duration);

    /**
     * Poisson arrivals at a target load: each host starts flows with
     * exponential gaps of mean PoissonMeanGap(load, hostRateBps, cdf mean),
     * the first one gap after start, until start + duration (a flow whose
     * arrival is later than that is not generated). Each flow draws its size
     * from cdf and its destination uniformly among the other hosts. Random
     * draws, per host in the order of hosts: gap (u -> -mean ln(1 - u)),
     * then destination, then size. The result is sorted by start time
     * (ties: order of hosts).
     * \param hosts the hosts (at least 2) \param cdf the size distribution
     * \param load load per host in (0, 1] \param hostRateBps host link rate
     * \param start first possible time \param duration length of the window
     * \return the flows
     */
    std::vector<MrcFlowSpec> Poisson(const std::vector<uint32_t>& hosts,
                                     const MrcFlowSizeCdf& cdf,
                                     double load,
                                     uint64_t hostRateBps,
                                     Time start,
                                     Time duration);

  private:
    void DoDispose() override;

    Ptr<UniformRandomVariable> m_rng; //!< all random draws
};

/**
 * \ingroup mrc
 * A ring all-reduce or all-gather over n hosts (given in ring order) as a
 * dependency graph of chunked steps, for the scenario program to drive from
 * its flow-completion callbacks. Pure logic: no simulator events.
 *
 * The message of messageBytes is cut into n segments (segment i has
 * floor(M/n) bytes, plus one for i < M mod n) and every segment into `chunks`
 * chunks (the same rule). In step s, rank r (host ring[r]) sends to rank
 * r+1 mod n one segment, as `chunks` flows:
 *
 * - all-reduce (2(n-1) steps): reduce-scatter steps s = 0 .. n-2 send segment
 *   (r - s) mod n; all-gather steps s = n-1+t, t = 0 .. n-2, send segment
 *   (r + 1 - t) mod n (after reduce-scatter rank r holds the reduced
 *   segment r+1);
 * - all-gather (n-1 steps): step s sends segment (r - s) mod n (rank r
 *   starts with segment r; M is the gathered size).
 *
 * Dependencies: chunk c of step s >= 1 from rank r is released when chunk c
 * of step s-1 into rank r (from rank r-1) has completed: it forwards (or
 * reduces and forwards) the data it has just received. Step 0 is released by
 * Start. Chunks of one step are independent of each other, so chunk c can
 * run ahead of chunk c+1 (pipelining). The collective completes when every
 * flow of the last step has completed.
 */
class MrcRingCollective
{
  public:
    /// The collective operation.
    enum Kind
    {
        ALL_REDUCE, ///< reduce-scatter then all-gather, 2(n-1) steps
        ALL_GATHER  ///< n-1 steps
    };

    /**
     * \param id the collective id put in every flow
     * \param kind the operation
     * \param ring the hosts in ring order (at least 2, distinct)
     * \param messageBytes the message size M (at least n * chunks bytes)
     * \param chunks chunks per segment (at least 1)
     */
    MrcRingCollective(uint32_t id,
                      Kind kind,
                      std::vector<uint32_t> ring,
                      uint64_t messageBytes,
                      uint32_t chunks);

    /** \return the number of steps: 2(n-1) or n-1 */
    uint32_t GetNumSteps() const;
    /** \return the collective id */
    uint32_t GetId() const;

    /**
     * All flows of one step (start time unset: zero), by rank then chunk.
     * \param step the step \return n * chunks flows
     */
    std::vector<MrcFlowSpec> GetStepFlows(uint32_t step) const;

    /**
     * Start the collective: releases every flow of step 0.
     * \param now the current time (start of every released flow)
     * \return the flows to start now
     */
    std::vector<MrcFlowSpec> Start(Time now);

    /**
     * Report a completed flow of this collective (matched by its step, chunk
     * and source host). Aborts for a flow that is not one of this
     * collective's released, unfinished flows.
     * \param done the completed flow \param now the completion time
     * \return the flows released by it (start = now), possibly none
     */
    std::vector<MrcFlowSpec> OnFlowComplete(const MrcFlowSpec& done, Time now);

    /** \return whether every flow of the last step has completed */
    bool IsComplete() const;
    /** \return the time Start was called */
    Time GetStartTime() const;
    /** \return the completion time (aborts if not complete) */
    Time GetCompletionTime() const;
    /** \return completion time minus start time (aborts if not complete) */
    Time GetDuration() const;

  private:
    /// \return the flow of (step, rank, chunk)
    MrcFlowSpec MakeFlow(uint32_t step, uint32_t rank, uint32_t chunk) const;
    /// \return the segment rank r sends in step s
    uint32_t SegmentOf(uint32_t step, uint32_t rank) const;
    /// \return the index of (step, rank, chunk) in m_state
    size_t Index(uint32_t step, uint32_t rank, uint32_t chunk) const;

    /// State of one flow.
    enum class FlowState : uint8_t
    {
        WAITING,
        RUNNING,
        DONE
    };

    uint32_t m_id;                       //!< collective id
    Kind m_kind;                         //!< operation
    std::vector<uint32_t> m_ring;        //!< hosts in ring order
    std::map<uint32_t, uint32_t> m_rank; //!< host -> rank
    uint64_t m_bytes;                    //!< message size
    uint32_t m_chunks;                   //!< chunks per segment
    uint32_t m_steps;                    //!< number of steps
    std::vector<FlowState> m_state;      //!< per (step, rank, chunk)
    uint64_t m_lastStepLeft{0};          //!< flows of the last step not yet done
    bool m_started{false};               //!< Start called
    Time m_startTime;                    //!< when started
    Time m_endTime;                      //!< when complete
};

/**
 * \ingroup mrc
 * Random loss on every link: put a RateErrorModel (packet unit, error rate p,
 * its own random stream) as the ReceiveErrorModel of every MrcNetDevice of
 * the given nodes. With both ends of a link among the nodes, both directions
 * of the link lose packets independently with probability p. Devices that
 * are not MrcNetDevices are skipped. Aborts unless 0 <= p <= 1.
 * \param nodes the nodes (hosts and switches)
 * \param p the packet loss probability (e.g. 0.001 or 0.01)
 * \param stream the first random stream; device k gets stream + k
 * \param models if not null, receives the models created, in device order
 * \return the number of streams used (one per device)
 */
int64_t MrcInstallRandomLoss(const NodeContainer& nodes,
                             double p,
                             int64_t stream,
                             std::vector<Ptr<RateErrorModel>>* models = nullptr);

/**
 * \ingroup mrc
 * Random loss on the given devices (see the NodeContainer overload). A null entry (a
 * device that a lean build of a distributed run did not make) gets no model but keeps
 * its stream number, so the devices after it draw as in a build that made it.
 * \param devices the devices \param p the loss probability
 * \param stream the first random stream
 * \param models if not null, receives the models created
 * \return the number of streams used
 */
int64_t MrcInstallRandomLoss(const NetDeviceContainer& devices,
                             double p,
                             int64_t stream,
                             std::vector<Ptr<RateErrorModel>>* models = nullptr);

/**
 * \ingroup mrc
 * Random loss where a NIC's packet pipeline receives ([P1] section 5.2.7: a P4 program on
 * every NIC drops incoming packets at a prescribed rate; mrc-sim --lossAt=path): an
 * MrcIngressLossModel (Rate p, its own random stream) as the ReceiveErrorModel of each
 * given device, normally every host NIC port. Every received frame but a PFC frame meets
 * one draw; a PFC frame passes without one (the MAC consumes it). A null entry (a device a
 * lean build did not make) gets no model but keeps its stream number. Aborts unless
 * 0 <= p <= 1.
 * \param devices the devices \param p the loss probability
 * \param stream the first random stream; device k gets stream + k
 * \param models if not null, receives the models created, in device order
 * \return the number of streams used (one per device)
 */
int64_t MrcInstallIngressLoss(const NetDeviceContainer& devices,
                              double p,
                              int64_t stream,
                              std::vector<Ptr<MrcIngressLossModel>>* models = nullptr);

} // namespace ns3

#endif // MRC_WORKLOAD_H
