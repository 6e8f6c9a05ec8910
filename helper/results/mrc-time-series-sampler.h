/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TIME_SERIES_SAMPLER_H
#define MRC_TIME_SERIES_SAMPLER_H

#include "mrc-run-results.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <functional>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * Periodic sampling of model quantities into MrcRunResults (timeseries.csv).
 */

namespace ns3
{

/**
 * \ingroup mrc
 * Reads registered probes every Interval of simulated time and adds one
 * sample per probe to an MrcRunResults. A probe is either a level (queue
 * bytes, cwnd, rate: the value read is written) or a byte counter turned into
 * a rate in Gb/s over the last interval (throughput of a host or a flow).
 *
 * Samples are taken at Interval, 2 x Interval, ... strictly before the stop
 * time given to Start(), in probe registration order. The sampler's events are
 * part of the run (they are deterministic and counted in the event total);
 * probes must only read.
 */
class MrcTimeSeriesSampler : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    MrcTimeSeriesSampler();
    ~MrcTimeSeriesSampler() override;

    /// \param results where the samples go (must outlive the run)
    void SetResults(MrcRunResults* results);

    /**
     * Sample a level: the value read is written as is.
     * \param transport transport name or "" (fabric-wide)
     * \param entity what is measured, e.g. "t0-1:5"
     * \param metric the quantity and unit, e.g. "queue_bytes"
     * \param read returns the current value
     */
    void AddLevel(const std::string& transport,
                  const std::string& entity,
                  const std::string& metric,
                  std::function<double()> read);

    /**
     * Sample a byte counter as a rate: (counter now - counter at the previous
     * sample) x 8 / Interval, in Gb/s (bits per ns).
     * \param transport transport name or ""
     * \param entity what is measured, e.g. "h3"
     * \param metric the quantity, e.g. "tx_gbps"
     * \param read returns the counter (monotonic, bytes)
     */
    void AddRate(const std::string& transport,
                 const std::string& entity,
                 const std::string& metric,
                 std::function<uint64_t()> read);

    /**
     * Start sampling; the counters of rate probes are read now as the base.
     * \param stopTime no sample at or after this time
     */
    void Start(Time stopTime);

    /// Cancel the pending sample.
    void Stop();

  protected:
    void DoDispose() override;

  private:
    /// Take one sample of every probe and schedule the next.
    void Sample();

    /// One registered probe.
    struct Probe
    {
        uint32_t series;                   //!< series id in the results
        std::function<double()> level;     //!< level probe (or empty)
        std::function<uint64_t()> counter; //!< rate probe (or empty)
        uint64_t last;                     //!< counter at the previous sample
    };

    Time m_interval;             //!< Interval attribute
    Time m_stopTime;             //!< no sample at or after it
    MrcRunResults* m_results;    //!< destination
    std::vector<Probe> m_probes; //!< probes in registration order
    EventId m_event;             //!< pending sample
};

} // namespace ns3

#endif /* MRC_TIME_SERIES_SAMPLER_H */
