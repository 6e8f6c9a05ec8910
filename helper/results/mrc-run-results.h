/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RUN_RESULTS_H
#define MRC_RUN_RESULTS_H

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * Records of one simulation run (flows, links, time series, PFC log,
 * per-transport counters, metadata) and the statistics computed from them.
 * Network-independent: the scenario program fills the records from traces
 * and counters; MrcResultsWriter turns them into the output files.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * One message (flow) of a transport: a row of flows.csv and, once completed,
 * of fct.txt.
 */
struct MrcFlowRecord
{
    std::string transport; //!< transport name ("roce", "uec", "mrc", ...)
    uint64_t flowId{0};    //!< flow/message id, unique within the transport
    uint32_t src{0};       //!< source host index
    uint32_t dst{0};       //!< destination host index
    uint32_t sip{0};       //!< IPv4-style source for fct.txt (0: MrcHpccAddress(src))
    uint32_t dip{0};       //!< IPv4-style destination for fct.txt (0: MrcHpccAddress(dst))
    uint16_t sport{0};     //!< UDP source port for fct.txt
    uint16_t dport{0};     //!< UDP destination port for fct.txt
    uint64_t bytes{0};     //!< message size, payload bytes
    int64_t startNs{0};    //!< time the message was posted, ns
    int64_t endNs{-1};     //!< time it completed at the sender, ns; -1 while incomplete
    int64_t idealFctNs{0}; //!< completion time on an empty network, ns (MrcIdealFctNs)

    /// \return true once the message has completed (endNs >= 0)
    bool IsCompleted() const;
    /// \return endNs - startNs, or -1 while incomplete
    int64_t FctNs() const;
    /// \return FctNs() / idealFctNs, or -1 while incomplete or when idealFctNs is 0
    double Slowdown() const;
};

/**
 * \ingroup mrc
 * Counters of one directed link (the transmitting port's view): a row of
 * links.csv.
 */
struct MrcLinkRecord
{
    std::string transport;  //!< transport of the run the counts belong to
    std::string from;       //!< name of the transmitting node
    uint32_t fromPort{0};   //!< port (interface index) on the transmitting node
    std::string to;         //!< name of the receiving node
    uint32_t toPort{0};     //!< port on the receiving node
    uint64_t rateBps{0};    //!< line rate, bit/s
    uint64_t packets{0};    //!< packets put on the wire in this direction
    uint64_t bytes{0};      //!< bytes put on the wire in this direction (frames)
    uint64_t drops{0};      //!< packets dropped at the transmitter's egress
    uint64_t trims{0};      //!< packets trimmed at the transmitter's egress
    uint64_t ecnMarks{0};   //!< packets CE-marked at the transmitter's egress
    uint64_t pausesSent{0}; //!< PFC pause frames the transmitter sent on this link
    uint64_t pausesRecv{0}; //!< PFC pause frames the transmitter received (pausing it)
    int64_t pausedNs{0};    //!< total time this direction was paused, ns
};

/**
 * \ingroup mrc
 * One line of HPCC's PFC log (pfc.txt).
 */
struct MrcPfcRecord
{
    int64_t timeNs{0};     //!< time of the pause/resume, ns
    uint32_t node{0};      //!< ns-3 node id of the node whose port was paused/resumed
    uint32_t nodeType{0};  //!< 0 host, 1 switch (HPCC's node types)
    uint32_t ifIndex{0};   //!< interface index of the port on that node
    uint32_t type{0};      //!< 1 pause, 0 resume
    std::string transport; //!< transport of the run ("" when not given)
};

/**
 * \ingroup mrc
 * Per-transport counters summed over all queue pairs, NICs and switches.
 */
struct MrcTransportCounters
{
    uint64_t retransmissions{0};  //!< data packets sent again
    uint64_t timeouts{0};         //!< retransmission timer expiries
    uint64_t nacks{0};            //!< NACKs received by senders
    uint64_t trims{0};            //!< data packets trimmed in the fabric
    uint64_t drops{0};            //!< data packets dropped in the fabric
    uint64_t ecnMarks{0};         //!< data packets CE-marked in the fabric
    uint64_t cnps{0};             //!< CNPs received by senders
    uint64_t pfcPauseFrames{0};   //!< PFC pause frames sent
    int64_t pfcPausedNs{0};       //!< total paused time over all paused ports, ns
    uint64_t bytesExactlyOnce{0}; //!< payload bytes delivered to the application exactly once
    int64_t simulatedTimeNs{0};   //!< simulated time at the end of this transport's run, ns
    uint64_t eventsExecuted{0};   //!< simulator events of this transport's run
};

/**
 * \ingroup mrc
 * Metadata of a run (the "run" object of summary.json).
 */
struct MrcRunInfo
{
    std::string scenario;                               //!< scenario name
    uint64_t seed{1};                                   //!< --seed
    std::map<std::string, std::string> options;         //!< every option: name -> value as text
    std::string profile;                                //!< --profile name ("" for none)
    std::map<std::string, std::string> profileSettings; //!< attribute -> value set by the profile
    /// attribute -> value given as --ns3::Class::Attribute=value (the last of each), applied
    /// after the profile's settings
    std::map<std::string, std::string> attributeOverrides;
    std::string ns3Version;     //!< e.g. "3.37" (MrcNs3VersionString())
    int64_t simulatedTimeNs{0}; //!< the latest end of any transport's run, ns (not a sum)
    // Host fields: the only ones that may differ between identical runs.
    double wallClockSeconds{0}; //!< wall-clock time of the run, s
    uint64_t peakRssKb{0};      //!< peak resident set size, KiB
    // A run split over MPI ranks (written in "host" only when mpiRanks > 1): the cost of
    // ns-3's synchronization, which depends on the split (and its repeats on the machine).
    uint32_t mpiRanks{0};           //!< ranks of the run (0 or 1: not split)
    std::string mpiSync;            //!< "granted" (time windows) or "null" (messages)
    uint64_t syncRounds{0};         //!< granted-time-window rounds (each rank takes part)
    uint64_t syncRoundsInFlight{0}; //!< of them, rounds repeated for frames in flight
    uint64_t nullMessages{0};       //!< null messages sent, summed over the ranks
    uint64_t framesBetweenRanks{0}; //!< frames sent to another rank, summed over the ranks
};

/**
 * \ingroup mrc
 * The statistics of one transport, computed by MrcRunResults::Summarize().
 * Percentiles are nearest-rank (MrcNearestRank) over completed messages;
 * a field with no data is -1.
 */
struct MrcTransportSummary
{
    std::string transport;         //!< transport name
    uint64_t messages{0};          //!< messages started
    uint64_t completed{0};         //!< messages completed
    uint64_t bytes{0};             //!< bytes of all messages
    uint64_t completedBytes{0};    //!< bytes of completed messages
    double goodputGbps{-1};        //!< completedBytes*8 / (last end - first start), Gb/s
    int64_t fctP50Ns{-1};          //!< FCT median, ns
    int64_t fctP90Ns{-1};          //!< FCT 90th percentile, ns
    int64_t fctP99Ns{-1};          //!< FCT 99th percentile, ns
    int64_t fctMaxNs{-1};          //!< largest FCT, ns
    double slowdownP50{-1};        //!< slowdown median
    double slowdownP99{-1};        //!< slowdown 99th percentile
    MrcTransportCounters counters; //!< the transport's counters
};

/**
 * \ingroup mrc
 * Nearest-rank percentile: the smallest sample such that at least pct percent
 * of the samples are less than or equal to it, i.e. sorted[ceil(pct*N/100)-1]
 * (sorted[0] for pct 0).
 * \param n number of samples (> 0)
 * \param pct the percentile, 0..100
 * \return the 0-based index into the ascending sorted samples
 */
std::size_t MrcNearestRank(std::size_t n, uint32_t pct);

/**
 * \ingroup mrc
 * Nearest-rank percentile of unsorted samples (copied and sorted).
 * \param samples the samples (not empty)
 * \param pct the percentile, 0..100
 * \return the sample at MrcNearestRank
 */
int64_t MrcPercentile(std::vector<int64_t> samples, uint32_t pct);

/// \copydoc MrcPercentile(std::vector<int64_t>,uint32_t)
double MrcPercentile(std::vector<double> samples, uint32_t pct);

/**
 * \ingroup mrc
 * Bytes a message occupies on the wire: payload plus a fixed per-packet
 * overhead for each of its ceil(bytes/payloadPerPacket) packets (at least one).
 * \param bytes message payload bytes
 * \param payloadPerPacket payload bytes per full packet (> 0)
 * \param overheadPerPacket header bytes added to every packet (e.g. Ethernet,
 *        IP, UDP, BTH, RETH, ICRC, FCS; add 20 for preamble and gap)
 * \return wire bytes
 */
uint64_t MrcWireBytes(uint64_t bytes, uint32_t payloadPerPacket, uint32_t overheadPerPacket);

/**
 * \ingroup mrc
 * Ideal (standalone) completion time in HPCC's sense: base RTT plus the
 * message's wire bytes serialised at the bottleneck rate, rounded down to ns.
 * \param bytes message payload bytes
 * \param payloadPerPacket payload bytes per packet (> 0)
 * \param overheadPerPacket header bytes per packet
 * \param baseRttNs base round-trip time of the path, ns
 * \param bottleneckBps the smallest line rate on the path, bit/s (> 0)
 * \return ideal FCT, ns
 */
int64_t MrcIdealFctNs(uint64_t bytes,
                      uint32_t payloadPerPacket,
                      uint32_t overheadPerPacket,
                      int64_t baseRttNs,
                      uint64_t bottleneckBps);

/**
 * \ingroup mrc
 * The IPv4 address HPCC's simulator gives host \p hostIndex
 * (11.x.y.1: 0x0b000001 + (i / 256) * 0x10000 + (i % 256) * 0x100), so that
 * scripts which map fct.txt addresses back to node ids work unchanged.
 * \param hostIndex the host index
 * \return the address as a host-order 32-bit number
 */
uint32_t MrcHpccAddress(uint32_t hostIndex);

/// \return the peak resident set size of this process so far, KiB (getrusage), for MrcRunInfo
uint64_t MrcPeakRssKb();

/// \return "3.<minor>" of the ns-3 the module was built against ("3-dev" in a development tree)
std::string MrcNs3VersionString();

/**
 * \ingroup mrc
 * Everything one run reports. The scenario program fills it (AddFlow /
 * CompleteFlow from the transports' traces, AddLink at the end, AddSample
 * periodically, AddPfc from the PFC traces, GetCounters for the totals,
 * GetInfo for the metadata) and hands it to MrcResultsWriter.
 *
 * Row order in the files does not depend on the order of equal-time events:
 * flows are written by (transport order, flowId), samples and PFC entries by
 * time then insertion, links in insertion order. Transports are ordered as
 * first named (AddTransport, AddFlow or GetCounters).
 */
class MrcRunResults
{
  public:
    /**
     * Name a transport (fixes its position in the files; no-op when known).
     * \param transport the transport name (letters, digits, '-', '_')
     */
    void AddTransport(const std::string& transport);

    /// \return the transports in order of first mention
    const std::vector<std::string>& GetTransports() const;

    /**
     * Record a started message. sip/dip of 0 become MrcHpccAddress(src/dst).
     * \param flow the record (endNs -1 unless already complete)
     * \return a handle for CompleteFlow
     */
    std::size_t AddFlow(MrcFlowRecord flow);

    /**
     * Mark a message complete.
     * \param handle the value AddFlow returned
     * \param endNs completion time, ns (>= the start)
     */
    void CompleteFlow(std::size_t handle, int64_t endNs);

    /// \return the flows in insertion order
    const std::vector<MrcFlowRecord>& GetFlows() const;

    /**
     * Count a flow whose record is not kept here (it was streamed to flows.csv as it
     * ended): only what Summarize needs stays, its counts and bytes, and for a completed
     * flow its FCT and slowdown (16 bytes). sip/dip of 0 become MrcHpccAddress(src/dst)
     * in the returned copy (what fct.txt prints).
     * \param flow the record (complete or not)
     * \return the record as AddFlow would store it
     */
    MrcFlowRecord AddStreamedFlow(MrcFlowRecord flow);

    /// \return the number of flows counted by AddStreamedFlow
    uint64_t GetNStreamedFlows() const;

    /// Appends the FCTs and slowdowns of a transport's streamed flows to the vectors.
    using StreamedSamples = std::function<
        void(const std::string& transport, std::vector<int64_t>& fcts, std::vector<double>& sd)>;

    /**
     * Let the streamed flows' FCTs and slowdowns live outside (a stream's file): after
     * this, AddStreamedFlow keeps only counts, and Summarize asks `source` for the samples.
     * \param source where they are (null: AddStreamedFlow keeps them in memory)
     */
    void SetStreamedSamples(StreamedSamples source);

    /// \param link one directed link's counters
    void AddLink(const MrcLinkRecord& link);

    /// \return the links in insertion order
    const std::vector<MrcLinkRecord>& GetLinks() const;

    /**
     * Register a time series once; returns its id for the fast AddSample.
     * \param transport transport name, or "" for fabric-wide series
     * \param entity what is measured, e.g. "h3", "qp:h3-h7.0", "t0-1:5"
     * \param metric the quantity with its unit, e.g. "tx_gbps", "queue_bytes"
     * \return series id (the same for the same triple)
     */
    uint32_t RegisterSeries(const std::string& transport,
                            const std::string& entity,
                            const std::string& metric);

    /**
     * Add a time-series sample.
     * \param timeNs sample time, ns
     * \param series id from RegisterSeries
     * \param value the value
     */
    void AddSample(int64_t timeNs, uint32_t series, double value);

    /// Add a sample, registering its series if needed (slower).
    /// \param timeNs sample time, ns
    /// \param transport transport name or ""
    /// \param entity the entity
    /// \param metric the metric
    /// \param value the value
    void AddSample(int64_t timeNs,
                   const std::string& transport,
                   const std::string& entity,
                   const std::string& metric,
                   double value);

    /// \param entry one pause/resume event
    void AddPfc(const MrcPfcRecord& entry);

    /// \return the PFC log in insertion order
    const std::vector<MrcPfcRecord>& GetPfcLog() const;

    /**
     * \param transport the transport name (added if new)
     * \return the transport's counters, to add to
     */
    MrcTransportCounters& GetCounters(const std::string& transport);

    /// \return the run metadata, to fill
    MrcRunInfo& GetInfo();
    /// \return the run metadata
    const MrcRunInfo& GetInfo() const;

    /// \return per-transport statistics, in transport order
    std::vector<MrcTransportSummary> Summarize() const;

    /// One time-series sample as stored.
    struct Sample
    {
        int64_t timeNs;  //!< time, ns
        uint32_t series; //!< series id
        double value;    //!< value
    };

    /// A registered series.
    struct Series
    {
        std::string transport; //!< transport or ""
        std::string entity;    //!< entity
        std::string metric;    //!< metric
        uint64_t order{0};     //!< its place among the samples of one time (SetSeriesOrder)
    };

    /**
     * Give a series its place among the samples of one time stamp, for a run split over
     * ranks, whose samples rank 0 puts in the order of one process (SortSamplesByOrder).
     * A series' order is its id until this is called.
     * \param series the series id \param order its place (smaller first)
     */
    void SetSeriesOrder(uint32_t series, uint64_t order);

    /// \return this rank's series and samples as text for rank 0 (AddRankSamples); values
    /// travel exactly (hexadecimal floating point)
    std::string PackRankSamples() const;

    /**
     * Add another rank's samples (PackRankSamples), registering their series.
     * \param packed the text (aborts on a malformed one)
     */
    void AddRankSamples(const std::string& packed);

    /// Order the samples by (time, series order), stable.
    void SortSamplesByOrder();

    /// \return the samples in insertion order
    const std::vector<Sample>& GetSamples() const;
    /// \return the registered series, indexed by id
    const std::vector<Series>& GetSeries() const;

    /**
     * The figures a rank of a split run adds to rank 0's results (MrcMpi), as text:
     * per transport its counters and streamed-flow tallies, per link direction its
     * counters, the PFC log, and the run-info figures that are counts (SummedFigure).
     * Every rank holds the same transports and links in the same order; a rank counts
     * only what its own nodes did, so the sums are the one-process figures.
     * \return the text
     */
    std::string PackRankFigures() const;

    /**
     * Add another rank's PackRankFigures: counts summed, simulated times the latest,
     * earliest starts and latest ends kept, PFC entries appended (SortPfcLog orders them).
     * \param pack the other rank's text
     */
    void AddRankFigures(const std::string& pack);

    /// Order the PFC log by (time, node, interface), keeping the order of equal entries:
    /// the same order whichever rank recorded an entry.
    void SortPfcLog();

    /**
     * \param key a run-info option name
     * \return true for the figures that count events of the run (summed over ranks)
     */
    static bool SummedFigure(const std::string& key);

    /// \return the position of \p transport in GetTransports() (added if new)
    /// \param transport the transport name
    std::size_t TransportIndex(const std::string& transport);

    /// \return the position of \p transport, or GetTransports().size() if unknown
    /// \param transport the transport name
    std::size_t FindTransport(const std::string& transport) const;

  private:
    std::vector<std::string> m_transports;
    std::deque<MrcTransportCounters> m_counters; //!< parallel to m_transports (stable references)
    std::vector<MrcFlowRecord> m_flows;

    /// Statistics of the streamed flows of one transport (AddStreamedFlow).
    struct StreamedTally
    {
        uint64_t messages{0};          //!< flows
        uint64_t bytes{0};             //!< their bytes
        uint64_t completed{0};         //!< completed flows
        uint64_t completedBytes{0};    //!< their bytes
        int64_t firstStart{INT64_MAX}; //!< earliest start of a completed flow
        int64_t lastEnd{INT64_MIN};    //!< latest end
        std::vector<int64_t> fcts;     //!< FCT of every completed flow
        std::vector<double> slowdowns; //!< slowdown of every completed flow with an ideal FCT
    };

    std::vector<StreamedTally> m_streamed; //!< by transport index (grown on demand)
    uint64_t m_nStreamed{0};               //!< flows counted by AddStreamedFlow
    StreamedSamples m_sampleSource;        //!< where streamed FCTs are (null: m_streamed)
    std::vector<MrcLinkRecord> m_links;
    std::vector<MrcPfcRecord> m_pfc;
    std::vector<Series> m_series;
    std::map<std::string, uint32_t> m_seriesIndex; //!< "transport\0entity\0metric" -> id
    std::vector<Sample> m_samples;
    MrcRunInfo m_info;
};

} // namespace ns3

#endif /* MRC_RUN_RESULTS_H */
