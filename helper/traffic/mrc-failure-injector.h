/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FAILURE_INJECTOR_H
#define MRC_FAILURE_INJECTOR_H

#include "ns3/mrc-event-log.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * Schedules link, port, switch and plane failures and gray failures at
 * simulated times, and records each one in the run's event log.
 */

namespace ns3
{

class MrcChannel;
class MrcNetDevice;
class MrcTopology;
class Node;
class RateErrorModel;

/**
 * \ingroup mrc
 * One failure of a fabric built by MrcTopologyHelper, and its repair, with the
 * fabric's elements given by name: what each failure option of mrc-sim asks for
 * (MrcFailureOptions makes them; MrcFailureInjector::TrySchedule schedules them).
 * Node names are the fabric's ns-3 names (host<i>, p<plane>-t<tier>-<index>) or
 * node<id>.
 */
struct MrcFailureSpec
{
    /// The failure kinds.
    enum class Kind
    {
        LINK,   //!< a link cut: nodeA:nodeB (LinkDown / LinkUp)
        SWITCH, //!< a switch down: nodeA (SwitchDown / SwitchUp)
        FLAP,   //!< a link flapping: nodeA:nodeB (Flap)
        GRAY,   //!< random loss on the direction nodeA -> nodeB (GrayFailure)
        PLANE,  //!< every link of a plane (PlaneDown / PlaneUp)
        PORT,   //!< a host's NIC port on a plane: nodeA (NicPortDown / NicPortUp)
    };

    Kind kind{Kind::LINK}; //!< what fails
    std::string option;    //!< the option that asked for it (named in messages), e.g. "failSwitch"
    std::string item;      //!< the item of that option, as given (named in messages)
    std::string nodeA;     //!< LINK, FLAP, GRAY: one end (GRAY: the sender); SWITCH; PORT: the host
    std::string nodeB;     //!< LINK, FLAP, GRAY: the other end (GRAY: the receiver)
    uint32_t plane{0};     //!< PLANE, PORT: the plane
    Time at;               //!< the failure (FLAP: the first cut; GRAY: the start)
    Time repair;           //!< the repair (GRAY: the stop); zero: never
    Time period;           //!< FLAP: cycle length
    uint32_t count{0};     //!< FLAP: cycles
    Time downTime;         //!< FLAP: time down in each cycle
    double loss{0};        //!< GRAY: loss probability

    /// \return the label PlaneDown gets for plane (events.csv's where): "p<plane>"
    static std::string PlaneLabel(uint32_t plane);
    /// \param kind a kind \return its name: link, switch, flap, gray, plane or port
    static const char* KindName(Kind kind);
};

/**
 * \ingroup mrc
 * Schedules failures and repairs of a fabric built from MrcNetDevice /
 * MrcChannel links, and records every one of them (at the simulated time it
 * happens) in an MrcEventLog.
 *
 * All failures act on the physical link state (MrcChannel::SetLinkUp): frames
 * on the wire are lost at once, and each end notices after its own
 * LinkDownDetectDelay / LinkUpDetectDelay (MrcNetDevice attributes). A link
 * can be held down by several causes at once (its own cut, a port, a switch,
 * a plane); it comes back up only when the last of them is repaired. A gray
 * failure leaves the link up and puts a RateErrorModel (packet unit) on the
 * receiving end of one direction.
 *
 * Every scheduling method checks its arguments when called and aborts naming
 * the bad value: a time in the past or negative, a probability outside [0, 1],
 * a count of 0, a device or channel that is not one of the two ends of a link,
 * a node without links.
 *
 * "where" strings name nodes by their ns-3 name (Names::Add) or "node<id>",
 * ports as "node:port" (the switch port index on an MrcSwitchNode, the
 * interface index elsewhere), links as "portA-portB" (the channel's device 0
 * first) and directions as "portTx->portRx".
 *
 * \code
 *   Ptr<MrcFailureInjector> fi = CreateObject<MrcFailureInjector>();
 *   fi->LinkDown(channel, MilliSeconds(1));
 *   fi->LinkUp(channel, MilliSeconds(5));
 *   fi->GrayFailure(dev, 0.01, MilliSeconds(2), MilliSeconds(4));
 *   fi->AssignStreams(100);
 *   Simulator::Run();
 *   fi->GetEventLog()->WriteCsv(outDir + "/events.csv");
 * \endcode
 */
class MrcFailureInjector : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcFailureInjector();
    ~MrcFailureInjector() override;

    /// \param log the log to record into (shared with other components)
    void SetEventLog(Ptr<MrcEventLog> log);
    /// \return the log records go to (a new one is created on first use if none was set)
    Ptr<MrcEventLog> GetEventLog();

    /**
     * Find the links of FailLinks through a fabric (MrcTopology::GetLinksBetween and
     * GetLinkState) rather than through the nodes' devices, and name a link the fabric
     * names but this process has no two devices of (a link of a lean distributed build:
     * another rank's, or to another rank) by MrcTopology::GetLinkName, the name it has in
     * one process. TrySchedule uses the fabric it is given the same way.
     * \param topo the fabric
     */
    void SetTopology(Ptr<MrcTopology> topo);

    // ---- links ----

    /**
     * Cut a link (both directions) at a simulated time. Record: link_down.
     * \param link the link
     * \param at absolute simulated time, not before now
     */
    void LinkDown(Ptr<MrcChannel> link, Time at);
    /**
     * Repair a cut link. Record: link_up (detail "still down: ..." while other
     * causes hold it down).
     * \param link the link
     * \param at absolute simulated time, not before now
     */
    void LinkUp(Ptr<MrcChannel> link, Time at);
    /// \param end either end of the link \param at time \see LinkDown(Ptr<MrcChannel>, Time)
    void LinkDown(Ptr<MrcNetDevice> end, Time at);
    /// \param end either end of the link \param at time \see LinkUp(Ptr<MrcChannel>, Time)
    void LinkUp(Ptr<MrcNetDevice> end, Time at);

    /**
     * Flap a link: count cycles, cycle i (from 0) cuts it at start + i * period
     * and repairs it downTime later. Records: 2 * count, link_down / link_up
     * with detail "flap i/count" (i from 1).
     * \param link the link
     * \param start first cut, not before now
     * \param period cycle length, > 0
     * \param count number of cycles, >= 1
     * \param downTime time down in each cycle, in (0, period)
     */
    void Flap(Ptr<MrcChannel> link, Time start, Time period, uint32_t count, Time downTime);
    /**
     * Flap a link, down for half of each period.
     * \param link the link
     * \param start first cut
     * \param period cycle length
     * \param count number of cycles
     */
    void Flap(Ptr<MrcChannel> link, Time start, Time period, uint32_t count);

    // ---- ports, switches, planes ----

    /**
     * Take one port down (typically a host NIC port; any MrcNetDevice on a
     * link works): its link goes down. Record: port_down.
     * \param port the device
     * \param at time
     */
    void NicPortDown(Ptr<MrcNetDevice> port, Time at);
    /**
     * Bring a port back up. Record: port_up.
     * \param port the device
     * \param at time
     */
    void NicPortUp(Ptr<MrcNetDevice> port, Time at);

    /**
     * Fail a switch: every link of every MrcNetDevice of the node goes down.
     * Record: switch_down, detail "links=N".
     * \param sw the node (aborts if it has no MrcNetDevice on a link)
     * \param at time
     */
    void SwitchDown(Ptr<Node> sw, Time at);
    /**
     * Bring a failed switch back. Record: switch_up, detail "links=N" plus
     * "; still down: ..." naming links other causes hold down.
     * \param sw the node
     * \param at time
     */
    void SwitchUp(Ptr<Node> sw, Time at);

    /**
     * Fail a whole plane: every link of the given nodes (switches of the plane;
     * their host links included). Record: plane_down, where = plane label,
     * detail "links=N".
     * \param plane the plane's label (non-empty)
     * \param nodes the plane's nodes
     * \param at time
     */
    void PlaneDown(const std::string& plane, const NodeContainer& nodes, Time at);
    /**
     * Fail a whole plane given as its links.
     * \param plane the plane's label
     * \param links the plane's links (each must join two devices)
     * \param at time
     */
    void PlaneDown(const std::string& plane, const std::vector<Ptr<MrcChannel>>& links, Time at);
    /**
     * Bring a plane back: releases the links the plane's PlaneDown took down.
     * Record: plane_up.
     * \param plane the plane's label
     * \param at time
     */
    void PlaneUp(const std::string& plane, Time at);

    // ---- gray failure ----

    /**
     * Lose each frame sent by tx (one direction of its link) with a fixed
     * probability, from start until stop, by a RateErrorModel in packet units
     * set as the ReceiveErrorModel of tx's peer (its previous error model is
     * put back at stop; if it had none, the injected model is disabled). Records:
     * gray_failure_start (detail "loss=p"), gray_failure_stop. Two gray failures of one direction
     * must not overlap. \param tx the sending end of the direction \param lossProbability in [0, 1]
     * \param start not before now
     * \param stop after start
     */
    void GrayFailure(Ptr<MrcNetDevice> tx, double lossProbability, Time start, Time stop);
    /**
     * A gray failure that lasts until the end of the run.
     * \param tx the sending end
     * \param lossProbability in [0, 1]
     * \param start not before now
     */
    void GrayFailure(Ptr<MrcNetDevice> tx, double lossProbability, Time start);

    /**
     * Use fixed random streams for the gray failures' error models: the ones
     * scheduled so far get stream, stream + 1, ... in scheduling order; ones
     * scheduled later continue the numbering.
     * \param stream first stream number
     * \return the number of streams used so far
     */
    int64_t AssignStreams(int64_t stream);

    // ---- textual failure spec ----

    /**
     * Schedule link cuts from a textual spec, as given on the command line
     * (--failLink with --failAt). The spec is a comma-separated list of links,
     * each "nodeA:nodeB" naming the two nodes joined by exactly one link; a
     * node is its ns-3 name (Names::Add) or "node<id>". An empty spec schedules
     * nothing. Aborts naming the bad item and what is allowed.
     * \param spec e.g. "p0-t0-0:p0-t1-1,p1-t0-0:p1-t1-1"
     * \param downAt when the links are cut
     * \return the links, in spec order
     */
    std::vector<Ptr<MrcChannel>> FailLinks(const std::string& spec, Time downAt);
    /**
     * As FailLinks(spec, downAt), and repair the links at upAt.
     * \param spec the links
     * \param downAt when they are cut
     * \param upAt when they are repaired (after downAt)
     * \return the links, in spec order
     */
    std::vector<Ptr<MrcChannel>> FailLinks(const std::string& spec, Time downAt, Time upAt);

    /**
     * \param name an ns-3 node name or "node<id>"
     * \return the node, or null if there is none
     */
    static Ptr<Node> FindNode(const std::string& name);
    /**
     * The link joining two named nodes. Aborts if a node is unknown, or the two
     * share no link or more than one.
     * \param nodeA a node name (see FindNode)
     * \param nodeB another
     * \return the link
     */
    static Ptr<MrcChannel> FindLink(const std::string& nodeA, const std::string& nodeB);

    /**
     * Schedule one failure of a fabric (and its repair), named as MrcFailureSpec
     * says. Does not abort: a name that is not in the fabric, two nodes not joined
     * by exactly one link, a node of the wrong kind or a plane out of range give a
     * message instead, and nothing is scheduled.
     * \param spec the failure (times already checked: not in the past, repair after)
     * \param topo the fabric
     * \return "" or "--option='item' ..." saying what is wrong and what is allowed
     */
    std::string TrySchedule(const MrcFailureSpec& spec, Ptr<MrcTopology> topo);

    // ---- names and state ----

    /// \param node a node \return its ns-3 name, or "node<id>"
    static std::string NodeName(Ptr<Node> node);
    /// \param dev a device \return "node:port"
    static std::string PortName(Ptr<MrcNetDevice> dev);
    /// \param link a link with two ends \return "portA-portB"
    static std::string LinkName(Ptr<MrcChannel> link);
    /// \param tx the sending end of a link \return "portTx->portRx"
    static std::string DirectionName(Ptr<MrcNetDevice> tx);

    /**
     * \param link a link
     * \return the causes currently holding it down, in the order they took
     *         hold (e.g. "link", "port host0:0", "switch p0-t1-0", "plane p0")
     */
    std::vector<std::string> GetDownCauses(Ptr<MrcChannel> link) const;

  protected:
    void DoDispose() override;

  private:
    /// Causes holding one link down.
    struct Hold
    {
        Ptr<MrcChannel> link;            //!< the link
        std::vector<std::string> causes; //!< in order of arrival
    };

    /// A scheduled gray failure of one direction.
    struct Gray
    {
        std::string direction;     //!< "portTx->portRx" (DirectionName)
        Time start;                //!< begins
        Time stop;                 //!< ends (Time::Max(): never)
        Ptr<RateErrorModel> model; //!< the error model
    };

    /// Abort unless at is a valid absolute time for `what`.
    static void CheckTime(const char* what, Time at);
    /// Abort unless the link joins two devices.
    static void CheckLink(const char* what, Ptr<MrcChannel> link);
    /// \return the link of a device (aborts if it has none)
    static Ptr<MrcChannel> LinkOf(const char* what, Ptr<MrcNetDevice> dev);
    /// \return the links of a node's MrcNetDevices, in device order
    static std::vector<Ptr<MrcChannel>> LinksOf(Ptr<Node> node);
    /**
     * The links of a fabric's switch or host as LinksOf gives them (in device order: a
     * switch's port order, a host's plane order), found through the fabric: the state
     * channel (GetLinkState) of each link, built here or not.
     * \param topo the fabric
     * \param node the node
     * \return the links
     */
    std::vector<Ptr<MrcChannel>> LinksOfFabric(Ptr<MrcTopology> topo, Ptr<Node> node);
    /// Switch down: links held down by "switch name" at `at`. Record: switch_down.
    void ScheduleSwitchDown(const std::string& name,
                            const std::vector<Ptr<MrcChannel>>& links,
                            Time at);
    /// Switch up: the links released at `at`. Record: switch_up.
    void ScheduleSwitchUp(const std::string& name,
                          const std::vector<Ptr<MrcChannel>>& links,
                          Time at);
    /// Port down: its link held down by "port name" at `at`. Record: port_down.
    void SchedulePortDown(const std::string& name, Ptr<MrcChannel> link, Time at);
    /// Port up: its link released at `at`. Record: port_up.
    void SchedulePortUp(const std::string& name, Ptr<MrcChannel> link, Time at);
    /**
     * A gray failure of one direction (GrayFailure's checks, stream and records); the
     * error model is made (and draws its stream slot) even where rx is not built here.
     * \param direction "portTx->portRx"
     * \param rx the receiving device, or null where another rank builds it
     * \param lossProbability in [0, 1]
     * \param start not before now
     * \param stop after start
     */
    void ScheduleGray(const std::string& direction,
                      Ptr<MrcNetDevice> rx,
                      double lossProbability,
                      Time start,
                      Time stop);
    /// Schedule fn at absolute time at.
    void At(Time at, std::function<void()> fn);

    /// \return the Hold entry of a link (created if new)
    Hold& HoldOf(Ptr<MrcChannel> link);
    /// Add a cause; the link goes down when it is the first.
    void Acquire(Ptr<MrcChannel> link, const std::string& cause);
    /// Remove a cause; the link comes up when it was the last. \return the remaining causes
    std::vector<std::string> Release(Ptr<MrcChannel> link, const std::string& cause);
    /// Release cause from every link; \return " still down: ..." text (may be empty)
    std::string ReleaseAll(const std::vector<Ptr<MrcChannel>>& links, const std::string& cause);
    /// Record at the current time.
    void Log(const char* kind, const std::string& where, const std::string& detail);
    /// \return the state channel of a fabric's link (a name kept if it has no two devices)
    Ptr<MrcChannel> LinkOfFabric(Ptr<MrcTopology> topo, uint32_t id);
    /// \return the link's name (LinkName, or the fabric's name of a link without two devices)
    std::string NameOf(Ptr<MrcChannel> link) const;
    /// Abort unless the link joins two devices or was found through a fabric.
    void CheckLinkHere(const char* what, Ptr<MrcChannel> link) const;

    Ptr<MrcEventLog> m_log;                                         //!< records go here
    std::vector<Hold> m_holds;                                      //!< links ever held, in order
    std::unordered_map<const MrcChannel*, std::size_t> m_holdIndex; //!< link -> m_holds index
    std::vector<std::pair<std::string, std::vector<Ptr<MrcChannel>>>> m_planes; //!< plane links
    std::vector<Gray> m_grays; //!< scheduled gray failures
    int64_t m_stream;          //!< first fixed stream, -1: none
    Ptr<MrcTopology> m_topo;   //!< SetTopology
    /// links found through a fabric without two devices here: their one-process names
    std::unordered_map<const MrcChannel*, std::string> m_fabricNames;
};

} // namespace ns3

#endif /* MRC_FAILURE_INJECTOR_H */
