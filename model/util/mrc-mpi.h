/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_MPI_H
#define MRC_MPI_H

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * The module's one contact with MPI: ranks, frames to another rank, results to rank 0.
 */

namespace ns3
{

class NetDevice;
class Node;
class Packet;

/**
 * \ingroup mrc
 * A notice between ranks (MrcMpi::SendNotice): a kind and four numbers, whose meaning
 * the sender and the receiver agree on.
 */
struct MrcRankNotice
{
    uint32_t kind{0};              //!< what it is about
    int64_t values[4]{0, 0, 0, 0}; //!< its numbers
};

/**
 * \ingroup mrc
 * Distributed runs on ns-3's MPI engine (src/mpi), seen from the module.
 *
 * Every rank builds the same fabric (the same nodes, devices, channels, routes, queue
 * pairs and random streams, so node ids, interface indices and every draw agree), but a
 * node belongs to one rank (ns-3's system id) and only that rank simulates it: frames
 * between two nodes of different ranks travel as MPI messages (MrcChannel), traffic is
 * posted only by the rank of its source host, and rank 0 merges every rank's results.
 *
 * The process calls Initialize once at start (MPI_Init when the program was started by
 * mpirun with more than one rank), BeginRun before each simulation it builds (ns-3's
 * MpiInterface on a duplicate of MPI_COMM_WORLD, which also selects the distributed
 * simulator), EndRun after Simulator::Destroy, and Finalize at exit. Without MPI in the
 * ns-3 build (Debian's libns3 has none), or with one rank, everything runs in one process
 * as before: IsActive is false, GetRank 0, GetSize 1, every node is local.
 */
class MrcMpi
{
  public:
    /// \return true if the module was built against an ns-3 with its mpi module
    static bool IsCompiled();

    /**
     * Start MPI if the program runs under mpirun (or mpiexec) with more than one rank.
     * Call before anything else reads the command line.
     * \param argc main's argc
     * \param argv main's argv
     * \return an empty string, or why a distributed run is impossible (mpirun with more
     *         than one rank, but no MPI in this build)
     */
    static std::string Initialize(int* argc, char*** argv);

    /**
     * Enable ns-3's MPI interface for the next simulation (after its Simulator::Destroy,
     * a simulation is never run again with the same interface).
     * \param nullMessages true: the null-message synchronizer (NullMessageSimulatorImpl);
     *        false: granted time windows (DistributedSimulatorImpl)
     */
    static void BeginRun(bool nullMessages);

    /// Disable ns-3's MPI interface after Simulator::Destroy.
    static void EndRun();

    /// Finish MPI (MPI_Finalize) if Initialize started it.
    static void Finalize();

    /// \return true while a run spans more than one rank
    static bool IsActive();

    /// \return true if Initialize found more than one rank (for the whole process)
    static bool IsDistributed();

    /// \return this process's rank (0 when not distributed)
    static uint32_t GetRank();

    /// \return the number of ranks (1 when not distributed)
    static uint32_t GetSize();

    /**
     * \param node a node
     * \return true if this rank simulates the node (always, when not distributed)
     */
    static bool IsLocal(const Node* node);

    /**
     * Hand a frame to the rank of the node that receives it.
     * \param frame the frame (every header in its bytes; packet tags travel too)
     * \param rxTime the absolute time of its arrival at the receiving device
     * \param node the receiving node's id
     * \param ifIndex the receiving device's interface index on that node
     */
    static void Send(Ptr<Packet> frame, Time rxTime, uint32_t node, uint32_t ifIndex);

    /**
     * Make a device the arrival point of frames sent to it from another rank (ns-3's
     * MpiReceiver, aggregated to the device).
     * \param device the local device of a link whose other end is on another rank
     * \param receive called with each frame at its arrival time
     */
    static void InstallReceiver(Ptr<NetDevice> device, Callback<void, Ptr<Packet>> receive);

    /**
     * Note that frames reach a rank through a device (a local end of a link to it): the
     * route of the notices to that rank (the first one given is kept).
     * \param rank the far rank \param node the far node's id \param ifIndex its device
     */
    static void AddRankRoute(uint32_t rank, uint32_t node, uint32_t ifIndex);

    /**
     * Send a notice to every other rank, arriving at rxTime (at least one lookahead from
     * now), through the routes of AddRankRoute.
     * \param notice the notice
     * \param rxTime its arrival time
     */
    static void SendNotice(const MrcRankNotice& notice, Time rxTime);

    /// \param cb called with each notice that arrives from another rank, at its arrival time
    static void SetNoticeCallback(Callback<void, MrcRankNotice> cb);

    /// \return notices sent to other ranks in this process
    static uint64_t GetNoticesSent();

    /**
     * Collect one text from every rank on rank 0 (a collective call: every rank calls it).
     * \param mine this rank's text
     * \return on rank 0 the texts of ranks 0..size-1; elsewhere an empty vector
     */
    static std::vector<std::string> GatherToRoot(const std::string& mine);

    /**
     * The minimum of a value over all ranks (a collective call).
     * \param value this rank's value
     * \return the smallest value any rank gave
     */
    static int64_t MinOverRanks(int64_t value);

    /**
     * The sum of a value over all ranks (a collective call).
     * \param value this rank's value
     * \return the sum of every rank's value
     */
    static uint64_t SumOverRanks(uint64_t value);

    /**
     * Synchronization rounds of ns-3's granted-time-window engine (DistributedSimulatorImpl)
     * this process took part in: each is one MPI_Allgather of every rank (counted through
     * MPI's profiling interface, so every rank counts the same rounds). 0 without MPI.
     * \return rounds in this process, over all its runs
     */
    static uint64_t GetSyncRounds();

    /**
     * \return of GetSyncRounds, the rounds that found frames sent but not yet received
     *         (the engine grants no new window and repeats the round; they depend on the
     *         machine's timing, not on the simulation)
     */
    static uint64_t GetSyncRoundsInFlight();

    /// \return null messages this process sent (NullMessageSimulatorImpl; 0 under granted
    ///         time windows or without MPI), counted through MPI's profiling interface
    static uint64_t GetNullMessagesSent();

    /// \return frames sent to other ranks in this process
    static uint64_t GetFramesSent();
    /// \return frames received from other ranks in this process
    static uint64_t GetFramesReceived();
};

} // namespace ns3

#endif /* MRC_MPI_H */
