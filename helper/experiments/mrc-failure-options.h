/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FAILURE_OPTIONS_H
#define MRC_FAILURE_OPTIONS_H

#include "mrc-command-line.h"

#include "ns3/mrc-failure-injector.h"
#include "ns3/mrc-topology.h"
#include "ns3/nstime.h"

#include <map>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * The failure options of mrc-sim beyond --failLink: switch, flap, gray loss, plane and
 * NIC port failures, checked into MrcFailureSpec lists.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * The failure options of mrc-sim other than --failLink / --failAt / --repairAt (which
 * MrcScenarioOptions keeps): one list option per failure kind of MrcFailureInjector, each
 * with its own times. A kind's times default to the shared --failAt and --repairAt, so
 * `--failSwitch=p0-t1-0 --failAt=100us --repairAt=300us` reads as --failLink does.
 *
 *  - --failSwitch=SW[,SW...], --failSwitchAt, --repairSwitchAt
 *  - --flapLink=A:B[@FIRST[/PERIOD[/DOWN[/COUNT]]]][,...], --flapAt, --flapPeriod,
 *    --flapCount, --flapDown (an item's own schedule overrides the shared options)
 *  - --grayLink=TX:RX[,...], --grayLoss, --grayAt, --grayUntil
 *  - --failPlane=P[,P...], --failPlaneAt, --repairPlaneAt
 *  - --failPort=HOST:PLANE[,...], --failPortAt, --repairPortAt
 *
 * A repair time "none" means never; empty means the shared --repairAt (itself empty:
 * never). Check() verifies every value before the run: names against the fabric's shape
 * (clos and fattree; a --topoFile fabric's names are checked when it is built), times
 * before --simTime and repairs after their failures, no item named twice, and no flap of
 * a link that --failLink holds down at the same time (both act on the link's own state).
 */
class MrcFailureOptions
{
  public:
    /// \param cmd the command line to register the options on (members are the defaults)
    void Register(MrcCommandLine& cmd);

    /// What Check needs to know of the other options.
    struct Context
    {
        MrcTopologyConfig topology; //!< the fabric's shape
        bool graph{false};          //!< the fabric comes from --topoFile (names unchecked)
        Time simTime;               //!< --simTime
        std::string failAtText;     //!< --failAt as given
        Time failAt;                //!< --failAt
        std::string repairAtText;   //!< --repairAt as given ("" : never)
        Time repairAt;              //!< --repairAt (zero: never)
        std::string failLinkText;   //!< --failLink as given
        /// a transport that runs on one plane of the fabric (--sameFabric=0: roce, uec), whose
        /// fabric has plane 0 only; "" if every run has all the planes
        std::string onePlaneRun;
    };

    /**
     * Check every failure option and make the failures.
     * \param ctx the other options
     * \param specs receives the failures, kind by kind in option order, items in order
     * \return "" or a message naming the offending option, its value and what is allowed
     */
    std::string Check(const Context& ctx, std::vector<MrcFailureSpec>& specs) const;

    /// \return the options given a value other than their default, name -> value
    std::map<std::string, std::string> ToMap() const;

    std::string failSwitch{""};     //!< --failSwitch
    std::string failSwitchAt{""};   //!< --failSwitchAt (empty: --failAt)
    std::string repairSwitchAt{""}; //!< --repairSwitchAt (empty: --repairAt; none: never)
    std::string flapLink{""};       //!< --flapLink
    std::string flapAt{""};         //!< --flapAt (empty: --failAt)
    std::string flapPeriod{"20us"}; //!< --flapPeriod
    std::string flapCount{"3"};     //!< --flapCount
    std::string flapDown{""};       //!< --flapDown (empty: half of --flapPeriod)
    std::string grayLink{""};       //!< --grayLink
    std::string grayLoss{"0.01"};   //!< --grayLoss
    std::string grayAt{""};         //!< --grayAt (empty: --failAt)
    std::string grayUntil{""};      //!< --grayUntil (empty: --repairAt; none: never)
    std::string failPlane{""};      //!< --failPlane
    std::string failPlaneAt{""};    //!< --failPlaneAt (empty: --failAt)
    std::string repairPlaneAt{""};  //!< --repairPlaneAt (empty: --repairAt; none: never)
    std::string failPort{""};       //!< --failPort
    std::string failPortAt{""};     //!< --failPortAt (empty: --failAt)
    std::string repairPortAt{""};   //!< --repairPortAt (empty: --repairAt; none: never)

    /**
     * Whether a node name is one of a clos or fattree fabric's names.
     * \param t the shape (validated)
     * \param name e.g. host3, p1-t0-2
     * \param isSwitch set to true for a switch name
     * \param plane set to a switch's plane
     * \param tier set to a switch's tier (0, 1, 2)
     * \param index set to the host index or the switch's index in its plane and tier
     * \return true if the fabric has a node of that name
     */
    static bool ParseNodeName(const MrcTopologyConfig& t,
                              const std::string& name,
                              bool& isSwitch,
                              uint32_t& plane,
                              uint32_t& tier,
                              uint32_t& index);
};

} // namespace ns3

#endif /* MRC_FAILURE_OPTIONS_H */
