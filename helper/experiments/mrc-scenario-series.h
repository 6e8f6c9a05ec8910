/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SCENARIO_SERIES_H
#define MRC_SCENARIO_SERIES_H

#include "ns3/mrc-net-device.h"
#include "ns3/mrc-queue-pair.h"
#include "ns3/mrc-run-results.h"
#include "ns3/mrc-topology.h"
#include "ns3/nstime.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * The time series of a scenario run (timeseries.csv): per host, per flow and per switch
 * queue.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * Registers a run's time series in MrcRunResults and takes their samples.
 *
 * Per host: tx_gbps and rx_gbps over all its NIC ports. Per flow (its requester queue
 * pair): tx_gbps, rate_gbps and, once its congestion control reports a finite window,
 * cwnd_bytes. Per switch port: queue_bytes, registered at its first non-empty sample and
 * sampled while non-empty and once after. Series are registered in the order of the calls
 * (hosts, then flows as they start, then queues and windows as they appear).
 */
class MrcScenarioSeries
{
  public:
    /// \param results where the series and samples go
    void SetResults(MrcRunResults* results);

    /**
     * A run split over ranks (MrcMpi): sample only this rank's hosts, flows (by their
     * requester's node) and switch ports, and give every series its place among the
     * samples of one time as one process adds them (MrcRunResults::SetSeriesOrder):
     * (transport's place in the run, hosts / flows / queues, host, flow or port index,
     * metric), so that rank 0 can put every rank's samples in that order.
     * \param split true in a run with --ranks
     * \param transport the transport's place among the run's transports (0..15)
     */
    void SetSplit(bool split, uint32_t transport);

    /**
     * Register tx_gbps and rx_gbps of every host.
     * \param topo the fabric
     * \param tag the series' transport label ("" with one transport)
     */
    void AddHosts(Ptr<MrcTopology> topo, const std::string& tag);

    /**
     * Register the series of the next flow (flow ids count from 0 in call order).
     * \param transport the series' transport label
     * \param requester the flow's requester queue pair (null in a split run when this rank
     *        holds no queue pair of the flow: never sampled here)
     */
    void AddFlow(const std::string& transport, Ptr<MrcQueuePair> requester);

    /**
     * Watch the queue of every switch port.
     * \param topo the fabric
     * \param tag the series' transport label ("" with one transport)
     */
    void AddSwitchQueues(Ptr<MrcTopology> topo, const std::string& tag);

    /**
     * Take one sample of every series now.
     * \param interval the time since the previous sample (rates are over it)
     * \param ended per flow: ended already (no more samples)
     */
    void Sample(Time interval, const std::vector<bool>& ended);

  private:
    /// A watched switch port.
    struct QueuePort
    {
        Ptr<MrcNetDevice> dev;   //!< the port
        std::string name;        //!< node:port
        std::string tag;         //!< transport of the series ("" with one transport)
        int64_t series{-1};      //!< its series (-1 until its queue is first non-empty)
        bool lastNonZero{false}; //!< non-empty at the previous sample
        bool local{true};        //!< its switch is on this rank
        uint64_t place{0};       //!< switch id << 24 | port: its order among the queues
    };

    /// \return the order of a series (SetSplit)
    /// \param kind 0 hosts, 1 flows, 2 queues \param index its index \param metric 0..2
    uint64_t Order(uint64_t kind, uint64_t index, uint64_t metric) const;

    MrcRunResults* m_res{nullptr};             //!< where the samples go
    bool m_split{false};                       //!< a run split over ranks (SetSplit)
    uint64_t m_transport{0};                   //!< the transport's place (SetSplit)
    std::vector<bool> m_hostLocal;             //!< per host: on this rank
    std::vector<bool> m_flowLocal;             //!< per flow: its requester on this rank
    std::string m_flowTag;                     //!< transport label of the flow series
    uint32_t m_planes{1};                      //!< NIC ports per host
    std::vector<Ptr<MrcNetDevice>> m_hostDevs; //!< per host, plane order (hosts*planes)
    std::vector<uint64_t> m_hostTxPrev;        //!< bytes sent at the previous sample
    std::vector<uint64_t> m_hostRxPrev;        //!< bytes received at the previous sample
    std::vector<uint32_t> m_hostTxSeries;      //!< tx_gbps per host
    std::vector<uint32_t> m_hostRxSeries;      //!< rx_gbps per host
    std::vector<Ptr<MrcQueuePair>> m_flows;    //!< requester per flow
    std::vector<uint64_t> m_flowTxPrev;        //!< data bytes sent at the previous sample
    std::vector<uint32_t> m_flowTxSeries;      //!< tx_gbps per flow
    std::vector<uint32_t> m_flowRateSeries;    //!< rate_gbps per flow
    std::vector<int64_t> m_flowCwndSeries;     //!< cwnd_bytes per flow (-1: none yet)
    std::vector<QueuePort> m_queues;           //!< watched switch ports
};

} // namespace ns3

#endif /* MRC_SCENARIO_SERIES_H */
