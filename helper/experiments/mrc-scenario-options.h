/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SCENARIO_OPTIONS_H
#define MRC_SCENARIO_OPTIONS_H

#include "mrc-collective-options.h"
#include "mrc-command-line.h"
#include "mrc-failure-options.h"
#include "mrc-scenario-config.h"
#include "mrc-topology-options.h"

#include <map>
#include <string>

/**
 * \file
 * \ingroup mrc
 * The options of mrc-sim, as text, and their conversion into an MrcScenarioConfig.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * The options of mrc-sim (design.md section 4), as text so every value is checked
 * and a bad one is named: the topology options of MrcTopologyOptions, and --scenario,
 * --transport, --transports, --profile, --bytes, --senders, --qpsPerPair, --failAt,
 * --failLink, --repairAt, the other failure options of MrcFailureOptions (--failSwitch,
 * --flapLink, --grayLink, --failPlane, --failPort and their times), --seed, --simTime,
 * --out, --pcap, --sampleInterval, --benchJson, --list. Current member values are the defaults; a
 * scenario's preset changes them before Register, so --PrintHelp shows the scenario's defaults.
 */
class MrcScenarioOptions
{
  public:
    MrcScenarioOptions();

    /// \param cmd the command line to register every option on
    void Register(MrcCommandLine& cmd);

    /**
     * Check and convert the values.
     * \param config receives the settings (scenario, pattern and options filled too)
     * \return "" or a message naming the offending option and its value
     */
    std::string TryToConfig(MrcScenarioConfig& config) const;

    /**
     * Every transport's full data frame (payload --mtu, or its queue pair's Mtu attribute,
     * plus its headers) within the device Mtu (ns3::MrcNetDevice::Mtu, 9000 by default),
     * with the attribute defaults of config.attributeOverrides.
     * \param config the settings (transports, mtu, evFormat, attributeOverrides)
     * \return "" or a message naming --mtu (or the attribute) and the largest allowed value
     */
    static std::string CheckFrameSizes(const MrcScenarioConfig& config);

    /**
     * Settings every option's own check lets through but a run would abort on when it
     * builds its fabric or starts (issue 20): per transport, with the attribute defaults
     * the run applies (the transport's fabric, its profile for the run's rate and delay,
     * a flow file's priority groups, config.attributeOverrides): ports per switch, every
     * switch buffer holding its reserves and PFC headroom at every step of its setup,
     * ECN Kmin <= Kmax, and the attribute values the classes refuse at setup though their
     * checkers accept them (DCQCN fractions and intervals, DWRR weights).
     * \param config the settings (after TryToConfig, with attributeOverrides)
     * \return "" or a message naming the option or attribute, its value and what is allowed
     */
    static std::string CheckRunSettings(const MrcScenarioConfig& config);

    /// As TryToConfig; prints the message and exits with code 2 on a problem.
    /// \return the settings
    MrcScenarioConfig ToConfig() const;

    /// \return every option (except --out, --benchJson, --checkOnly and --list) as name -> value
    std::map<std::string, std::string> ToMap() const;

    MrcTopologyOptions topo;             //!< topology options
    MrcFailureOptions fail;              //!< failure options other than --failLink
    MrcCollectiveOptions coll;           //!< collectives, jobs, traces (their own block)
    std::string scenario{"permutation"}; //!< --scenario
    std::string pattern{"permutation"};  //!< set by the scenario preset (no option)
    std::string transport{"roce"};       //!< --transport
    std::string transports{""};          //!< --transports (comma-separated, run in turn)
    std::string sameFabric{"1"};         //!< --sameFabric
    std::string evFormat{"srv6"};        //!< --evFormat
    std::string evMinPerPlane{"256"};    //!< --evMinPerPlane
    std::string lossRate{"0"};           //!< --lossRate
    std::string lossAt{"path"};          //!< --lossAt
    std::string duration{"500us"};       //!< --duration (flows)
    std::string load{"0.5"};             //!< --load (flows)
    std::string cdf{"websearch"};        //!< --cdf (flows)
    std::string chunks{"1"};             //!< --chunks (allreduce)
    std::string maxEvEvents{"10000"};    //!< --maxEvEvents
    std::string maxCcEvents{"0"};        //!< --maxCcEvents
    std::string profile{""};             //!< --profile (empty: the transport's default)
    std::string bytes{"1000000"};        //!< --bytes
    std::string senders{"8"};            //!< --senders
    std::string qpsPerPair{"1"};         //!< --qpsPerPair
    std::string qpsPerConnection{""};    //!< --qpsPerConnection (empty: qpsPerPair)
    std::string failAt{"100us"};         //!< --failAt
    std::string failLink{""};            //!< --failLink
    std::string repairAt{""};            //!< --repairAt
    std::string seed{"1"};               //!< --seed
    std::string simTime{"1s"};           //!< --simTime
    std::string ranks{""};               //!< --ranks (empty: one process, as before)
    std::string sync{"granted"};         //!< --sync: granted (time windows) or null (messages)
    std::string rankMap{""};             //!< --rankMap: a rank map file (empty: blocks)
    std::string out{""};                 //!< --out (empty: results/<scenario>/)
    bool pcap{false};                    //!< --pcap
    std::string sampleInterval{"10us"};  //!< --sampleInterval
    std::string topoFile{""};            //!< --topoFile (HPCC/ConWeave topology or htsim .topo)
    std::string flowFile{""};            //!< --flowFile (HPCC/ConWeave flows or htsim .cm)
    std::string benchJson{""};           //!< --benchJson
    bool checkOnly{false};               //!< --checkOnly
    bool list{false};                    //!< --list

  private:
    // The parts of TryToConfig, in the order the options are checked; each returns ""
    // or the message of the first bad value.

    /// --scenario, the topology options and the input files (sets the pattern)
    std::string CheckFabricAndInputs(MrcScenarioConfig& c) const;
    /// --transport and --transports
    std::string CheckTransports(MrcScenarioConfig& c) const;
    /// --sameFabric, --evFormat, --evMinPerPlane, --lossRate, --load, --lossAt
    std::string CheckFabricModel(MrcScenarioConfig& c) const;
    /// --duration, --cdf, --chunks, --maxEvEvents, --maxCcEvents, --profile, --bytes, --senders,
    /// --qpsPerPair, --qpsPerConnection
    std::string CheckWorkload(MrcScenarioConfig& c) const;
    /// --seed, --simTime, --failAt, --repairAt, --failLink, --sampleInterval, --pcap
    std::string CheckRun(MrcScenarioConfig& c) const;
    /// The options of MrcFailureOptions (after CheckRun: --simTime, --failAt, --repairAt)
    std::string CheckFailures(MrcScenarioConfig& c) const;
    /// --cdf, --load, --duration of the flows pattern: a readable CDF, at most
    /// MrcInputLimits::MAX_FLOWS flows expected
    std::string CheckFlowsWorkload(const MrcScenarioConfig& c) const;
    /// --simTime long enough for one trip across the fabric and one full frame at the
    /// slowest rate (else no message could complete)
    std::string CheckReachable(const MrcScenarioConfig& c) const;
};

} // namespace ns3

#endif /* MRC_SCENARIO_OPTIONS_H */
