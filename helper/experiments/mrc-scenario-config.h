/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SCENARIO_CONFIG_H
#define MRC_SCENARIO_CONFIG_H

#include "ns3/mrc-failure-injector.h"
#include "ns3/mrc-htsim-input.h"
#include "ns3/mrc-topology-helper.h"
#include "ns3/mrc-trace-input.h"
#include "ns3/mrc-workload.h"
#include "ns3/nstime.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * MrcScenarioConfig: the checked settings of one mrc-sim run.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * A scenario's validated settings (what MrcScenarioOptions::ToConfig produces; tests
 * fill it directly).
 */
struct MrcScenarioConfig
{
    std::string scenario{"permutation"}; //!< scenario name (recorded in summary.json)
    /// traffic: permutation, incast, incast-victim, alltoall, allreduce, flows
    std::string pattern{"permutation"};
    MrcTopologyConfig topology;    //!< the fabric
    std::string transport{"roce"}; //!< the transport: "roce", "uec" or "mrc"
    /// parameter profile ("none": attribute defaults); TryToConfig sets the transport's
    /// default (roce-deployed for roce) when --profile is not given
    std::string profile{"roce-deployed"};
    /// transports run one after another (--transports; empty: just `transport`)
    std::vector<std::string> transports;
    bool sameFabric{true};        //!< false: RoCE on one plane at planes x the rates (compare)
    bool mtuAuto{true};           //!< --mtu not given: the profile's, else 4096 B (all three)
    std::string evFormat{"srv6"}; //!< MRC EVs: "srv6" (topology paths) or "structured"
    uint32_t evMinPerPlane{256};  //!< srv6: a plane with fewer paths gets replica EVs up to this
    double lossRate{0};           //!< random loss probability (--lossRate)
    std::string lossAt{"path"};   //!< "path" (once per packet, host NIC ingress) or "links"
    Time duration{MicroSeconds(500)}; //!< flows: arrival window
    double load{0.5};                 //!< flows: offered load per host
    std::string cdf{"websearch"};     //!< flows: flow-size distribution name
    uint32_t chunks{1};               //!< allreduce: chunks per segment
    uint32_t maxEvEvents{10000};      //!< ev_state records kept in events.csv (per transport)
    uint32_t maxCcEvents{0};          //!< cc_cut records kept in events.csv (per transport)
    bool tagFabricSeries{false};      //!< label host/queue series with the transport (several)
    uint64_t bytes{1000000};          //!< bytes per sender (split over qpsPerPair)
    uint32_t senders{8};              //!< incast senders
    uint32_t qpsPerPair{1};           //!< queue pairs (messages) per sender-receiver pair
    /// queue pairs per connection (job, source, destination), messages striped over them
    /// round-robin (0: as many as qpsPerPair); QP_PER_MESSAGE: a new pair per message
    uint32_t qpsPerConnection{0};
    /// qpsPerConnection value of --qpsPerConnection=message (the older per-message model)
    static constexpr uint32_t QP_PER_MESSAGE = UINT32_MAX;
    std::string failLink;           //!< links to cut ("a:b,c:d@200us"; empty: none), as given
    Time failAt{MicroSeconds(100)}; //!< when they are cut (a link without its own "@TIME")
    Time repairAt{0};               //!< when they are repaired (0: never)
    /// the other failures (--failSwitch, --flapLink, --grayLink, --failPlane, --failPort)
    std::vector<MrcFailureSpec> failures;
    uint64_t seed{1};         //!< run seed
    Time simTime{Seconds(1)}; //!< simulated-time limit
    /// --ranks: 0 (not given): one process, the run ends at the last completion; N >= 1:
    /// the fabric split over N MPI ranks (MrcTopologyHelper::SetRanks), and the run ends
    /// 2 x lookahead after the last completion on any rank (the same for every N)
    uint32_t ranks{0};
    bool nullMessages{false}; //!< --sync=null: null-message synchronization (with --ranks)
    /// --rankMap: a file giving T0 groups (pods) and top switches their ranks
    /// (MrcTopologyHelper::ReadRankMap); empty: consecutive blocks
    std::string rankMap;
    bool pcap{false};                      //!< write one pcap file per port into pcapDir
    std::string pcapDir;                   //!< folder of the pcap files (the output folder)
    Time sampleInterval{MicroSeconds(10)}; //!< time-series sampling period (0: no samples)
    bool progress{true};                   //!< progress lines on stderr
    /// Option values recorded in summary.json (name -> value as given)
    std::map<std::string, std::string> options;
    /// Attribute defaults given explicitly (--ns3::Class::Attribute=value), applied after
    /// the profile so that they override it
    std::vector<std::pair<std::string, std::string>> attributeOverrides;

    // -- input files (--topoFile, --flowFile; MrcScenarioOptions::TryToConfig loads them)
    std::string topoFile; //!< HPCC/ConWeave topology file or htsim .topo ("": topology options)
    std::string flowFile; //!< HPCC/ConWeave flow file or htsim .cm ("": the pattern's flows)
    /// The fabric of topoFile (null: MrcTopologyHelper::Build from `topology`)
    std::shared_ptr<const MrcTopologyGraph> graph;
    /// Per graph link: its packet error rate (HPCC's err column; 0 for htsim)
    std::vector<double> graphLinkError;
    /// Per host index: the topology file's node id (HPCC sip/dip in fct.txt)
    std::vector<uint32_t> graphNodeOfHost;
    /// The messages of flowFile, src/dst as host indices (pattern "file"; a .cm: those
    /// with a start time)
    std::vector<MrcFlowSpec> fileFlows;
    /// flowFile as an htsim connection matrix (null otherwise): its triggers start the
    /// connections without a start time
    std::shared_ptr<const MrcHtsimConnectionMatrix> htsimMatrix;

    // -- collectives and traces (MrcCollectiveOptions: --trace, --collective, --jobs, ...)
    /// Collectives and flows with dependencies, from --trace or --collective (pattern
    /// "trace"; null: none)
    std::shared_ptr<const std::vector<MrcTraceEntry>> trace;
    /// With a trace: the Poisson flows of --cdf, --load, --duration in the same run
    bool background{false};

    /**
     * The --failLink links in order, each "a:b" with its cut time: its own "@TIME", else
     * failAt (read now, so a config changed after the options were checked keeps it).
     * \return (link, cut time) pairs; empty when failLink is
     */
    std::vector<std::pair<std::string, Time>> GetFailLinkTimes() const
    {
        std::vector<std::pair<std::string, Time>> links;
        std::size_t begin = 0;
        while (!failLink.empty() && begin <= failLink.size())
        {
            const std::size_t end = std::min(failLink.find(',', begin), failLink.size());
            const std::string item = failLink.substr(begin, end - begin);
            const std::size_t at = item.find('@');
            links.emplace_back(item.substr(0, at),
                               at == std::string::npos ? failAt : Time(item.substr(at + 1)));
            begin = end + 1;
        }
        return links;
    }
};

} // namespace ns3

#endif /* MRC_SCENARIO_CONFIG_H */
