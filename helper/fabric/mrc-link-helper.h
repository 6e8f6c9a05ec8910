/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_LINK_HELPER_H
#define MRC_LINK_HELPER_H

#include "ns3/mrc-net-device.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/trace-helper.h"

#include <string>

/**
 * \file
 * \ingroup mrc
 * Builds MrcNetDevice / MrcChannel links between pairs of nodes.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * Creates full-duplex Ethernet links with priority classes and PFC: one
 * MrcNetDevice on each of two nodes, joined by an MrcChannel.
 *
 * Like PointToPointHelper: device and channel attributes are set once on the
 * helper and apply to every link it installs afterwards; each device gets a
 * fresh Mac48Address. EnablePcap (from PcapHelperForDevice) writes Ethernet
 * captures (link type DLT_EN10MB) with the Ethernet header and without FCS.
 */
class MrcLinkHelper : public PcapHelperForDevice
{
  public:
    MrcLinkHelper();
    ~MrcLinkHelper() override;

    /**
     * Set an attribute of every MrcNetDevice created afterwards.
     * \param name the attribute name
     * \param value its value
     */
    void SetDeviceAttribute(std::string name, const AttributeValue& value);

    /**
     * Set an attribute of every MrcChannel created afterwards.
     * \param name the attribute name
     * \param value its value
     */
    void SetChannelAttribute(std::string name, const AttributeValue& value);

    /**
     * Join two nodes with a new link.
     * \param a the first node (its device is container element 0)
     * \param b the second node (its device is container element 1)
     * \return the two new devices
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b);

    /**
     * Join the two nodes of a container (aborts unless it holds exactly two).
     * \param c the nodes
     * \return the two new devices
     */
    NetDeviceContainer Install(NodeContainer c);

    /// Install's interface index: the one the node gives (its number of devices)
    static constexpr uint32_t NODE_IF_INDEX = 0xffffffff;

    /**
     * Join two nodes with a new link whose devices get given interface indices (a switch
     * of another rank that this rank builds without its host ports: the indices its own
     * rank gives, by which frames and notices between ranks name the device).
     * \param a the first node \param b the second node
     * \param ifIndexA a's device's index (NODE_IF_INDEX: the node's)
     * \param ifIndexB b's device's index (NODE_IF_INDEX: the node's)
     * \return the two new devices
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b, uint32_t ifIndexA, uint32_t ifIndexB);

    /**
     * Install a link whose one end lives on another rank (a lean distributed build): a
     * device on the node here and, at the far end, an MrcRemotePort on the far node (not
     * added to it) that names the far device's interface index and MAC address. MAC
     * addresses are allocated A first, then B, as by Install, so every device keeps its
     * one-process address.
     * \param a the first node \param b the second node
     * \param ifIndexA a's device's index on its own rank
     * \param ifIndexB b's device's index on its own rank
     * \param farEnd 0 if a lives on another rank, 1 if b does
     * \return the device made here
     */
    Ptr<MrcNetDevice> InstallToRank(Ptr<Node> a,
                                    Ptr<Node> b,
                                    uint32_t ifIndexA,
                                    uint32_t ifIndexB,
                                    uint32_t farEnd);

    /**
     * Account for a link this rank does not build (its hosts live on another rank): take
     * the two MAC addresses its devices would have had, so that every later device gets
     * the address it has in a one-process build.
     */
    void Skip();

    /**
     * \return the WireOverhead of the devices this helper makes (a SetDeviceAttribute
     *         value, else the attribute's current default)
     */
    uint32_t GetDeviceWireOverhead() const;

  private:
    void EnablePcapInternal(std::string prefix,
                            Ptr<NetDevice> nd,
                            bool promiscuous,
                            bool explicitFilename) override;

    ObjectFactory m_deviceFactory;  //!< makes MrcNetDevices
    ObjectFactory m_channelFactory; //!< makes MrcChannels
    int64_t m_wireOverhead{-1};     //!< WireOverhead set on the devices (-1: the default)
};

} // namespace ns3

#endif /* MRC_LINK_HELPER_H */
