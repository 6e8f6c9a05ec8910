/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SWITCH_HELPER_H
#define MRC_SWITCH_HELPER_H

#include "ns3/mrc-link-helper.h"
#include "ns3/mrc-switch-node.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>
#include <utility>

/**
 * \file
 * \ingroup mrc
 * Creates MrcSwitchNodes and wires their ports with MrcLinkHelper.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * Creates switches (MrcSwitchNode) with a chosen forwarding strategy, MMU, trimmer and
 * ECN marker attributes, and connects them to hosts and to each other.
 *
 * \code
 *   MrcSwitchHelper sh;
 *   sh.SetSwitchAttribute("TrimmingEnabled", BooleanValue(true));
 *   sh.SetForwarding("ns3::MrcEcmpForwarding", "Seed", UintegerValue(7));
 *   sh.SetMmuAttribute("BufferSize", UintegerValue(4 << 20));
 *   NodeContainer sw = sh.Create(2);
 *   MrcLinkHelper link;
 *   uint32_t port = MrcSwitchHelper::ConnectHost(link, sw.Get(0), host);
 *   auto ports = MrcSwitchHelper::ConnectSwitches(link, sw.Get(0), sw.Get(1));
 * \endcode
 */
class MrcSwitchHelper
{
  public:
    MrcSwitchHelper();

    /**
     * Set an attribute of every switch created afterwards.
     * \param name attribute of ns3::MrcSwitchNode
     * \param value its value
     */
    void SetSwitchAttribute(std::string name, const AttributeValue& value);

    /**
     * Choose the forwarding strategy of the switches created afterwards.
     * \param type a subclass of ns3::MrcForwarding, e.g. "ns3::MrcSrv6Forwarding"
     * \param args name/value pairs of its attributes
     */
    template <typename... Ts>
    void SetForwarding(std::string type, Ts&&... args)
    {
        m_forwarding = ObjectFactory(type);
        m_forwarding.Set(std::forward<Ts>(args)...);
    }

    /// \param name attribute of ns3::MrcSharedBufferMmu \param value its value
    void SetMmuAttribute(std::string name, const AttributeValue& value);
    /// \param name attribute of ns3::MrcTrimmer \param value its value
    void SetTrimmerAttribute(std::string name, const AttributeValue& value);
    /// \param name attribute of ns3::MrcEcnMarker (every port's) \param value its value
    void SetEcnAttribute(std::string name, const AttributeValue& value);

    /// \return a new switch, configured as set on the helper
    Ptr<MrcSwitchNode> CreateSwitch() const;
    /**
     * \param n number of switches
     * \return n new switches
     */
    NodeContainer Create(uint32_t n) const;

    /**
     * Link a switch to a host node: the switch's device becomes a host-facing port.
     * \param link the link helper (its device/channel attributes apply)
     * \param sw a switch (aborts if it is not an MrcSwitchNode)
     * \param host the host node (gets one MrcNetDevice)
     * \return the switch's port index (its device: GetPort; the host's: GetPeer)
     */
    static uint32_t ConnectHost(MrcLinkHelper& link, Ptr<Node> sw, Ptr<Node> host);

    /**
     * Link two switches: a new switch-facing port on each.
     * \param link the link helper
     * \param a a switch
     * \param b another switch
     * \return the port index on a and the port index on b
     */
    static std::pair<uint32_t, uint32_t> ConnectSwitches(MrcLinkHelper& link,
                                                         Ptr<Node> a,
                                                         Ptr<Node> b);

    /**
     * ConnectSwitches with given interface indices of the two devices
     * (MrcLinkHelper::Install: NODE_IF_INDEX keeps the node's).
     * \param link the link helper
     * \param a a switch
     * \param b another switch
     * \param ifIndexA the interface index of a's new device
     * \param ifIndexB the interface index of b's new device
     * \return the port index on a and the port index on b
     */
    static std::pair<uint32_t, uint32_t> ConnectSwitches(MrcLinkHelper& link,
                                                         Ptr<Node> a,
                                                         Ptr<Node> b,
                                                         uint32_t ifIndexA,
                                                         uint32_t ifIndexB);

  private:
    ObjectFactory m_switch;     //!< makes the switches
    ObjectFactory m_forwarding; //!< makes their forwarding strategies
    ObjectFactory m_mmu;        //!< makes their MMUs
    ObjectFactory m_trimmer;    //!< makes their trimmers
    ObjectFactory m_marker;     //!< makes their ECN markers
};

} // namespace ns3

#endif /* MRC_SWITCH_HELPER_H */
