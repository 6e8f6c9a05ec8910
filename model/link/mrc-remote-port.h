/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_REMOTE_PORT_H
#define MRC_REMOTE_PORT_H

#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/ptr.h"

namespace ns3
{

class MrcChannel;

/**
 * \ingroup mrc
 * The far end of an MrcChannel whose device lives on another rank (a distributed lean
 * build, MrcTopologyHelper::SetBuildRank).
 *
 * It names what this rank needs to reach that device: its node (a bare ns3::Node with
 * the far rank's system id, for ns-3's MPI layer, which addresses a message by node id
 * and interface index, and for the engines' lookahead, which read the far node of each
 * local device's channel), its interface index on its own rank and its MAC address (the
 * Ethernet destination of the frames sent to it). It holds no queue, scheduler or PFC
 * state and is not added to the node's device list (its rank has the real device); it
 * cannot send or receive: frames to it leave through MrcChannel to the far rank.
 */
class MrcRemotePort : public NetDevice
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcRemotePort();
    ~MrcRemotePort() override;

    /**
     * Attach to a channel (as its next end: A first, then B).
     * \param channel the channel
     */
    void Attach(Ptr<MrcChannel> channel);

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsBridge() const override;
    bool IsPointToPoint() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

    /// \return the MAC address
    Mac48Address GetMacAddress() const;

  protected:
    void DoDispose() override;

  private:
    Ptr<Node> m_node;          //!< the far node (a bare node with the far rank's system id)
    Ptr<MrcChannel> m_channel; //!< the channel
    Mac48Address m_address;    //!< the far device's MAC address
    uint32_t m_ifIndex{0};     //!< the far device's interface index on its own rank
    uint16_t m_mtu{9000};      //!< Mtu (as the far device's default)
};

} // namespace ns3

#endif /* MRC_REMOTE_PORT_H */
