/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_LINK_HELPER_H
#define MRC_LINK_HELPER_H

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

  private:
    void EnablePcapInternal(std::string prefix,
                            Ptr<NetDevice> nd,
                            bool promiscuous,
                            bool explicitFilename) override;

    ObjectFactory m_deviceFactory;  //!< makes MrcNetDevices
    ObjectFactory m_channelFactory; //!< makes MrcChannels
};

} // namespace ns3

#endif /* MRC_LINK_HELPER_H */
