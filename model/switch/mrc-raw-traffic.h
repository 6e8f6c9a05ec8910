/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RAW_TRAFFIC_H
#define MRC_RAW_TRAFFIC_H

#include "ns3/application.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/ipv6-address.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-packet-info.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>

/**
 * \file
 * \ingroup mrc
 * A constant-rate source of raw RoCEv2 Write packets and a counting sink, for tests
 * and examples of the fabric (no transport, no reliability).
 */

namespace ns3
{

/**
 * \ingroup mrc
 * Sends fully formed IPv6 / UDP 4791 / BTH (RC Write Only) / RETH packets at a constant
 * rate on one MrcNetDevice of its node, until MaxBytes of payload are sent.
 *
 * Packet i carries PSN i and a RETH whose virtual address is the payload offset. The
 * gap between packets is the time DataRate needs for the frame on the wire (packet +
 * 14-byte Ethernet header + 24 bytes of wire overhead), so DataRate equal to the link
 * rate sends at line rate. The class is the device's class for Dscp.
 */
class MrcRawSource : public Application
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcRawSource();
    ~MrcRawSource() override;

    /// Bytes of headers in every packet: IPv6 40 + UDP 8 + BTH 12 + RETH 16.
    static constexpr uint32_t HEADER_BYTES = 76;

    /// \return packets sent (handed to the device, including those it refused)
    uint64_t GetSentPackets() const;
    /// \return bytes of those packets, from the IPv6 header on
    uint64_t GetSentBytes() const;
    /// \return payload bytes sent
    uint64_t GetSentPayloadBytes() const;
    /// \return true when MaxBytes have been sent
    bool IsDone() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    void SendOne();

    uint32_t m_deviceIndex;                      //!< DeviceIndex attribute
    Ipv6Address m_local;                         //!< Local attribute
    Ipv6Address m_remote;                        //!< Remote attribute
    DataRate m_rate;                             //!< DataRate attribute
    uint32_t m_packetSize;                       //!< PacketSize attribute (payload)
    uint64_t m_maxBytes;                         //!< MaxBytes attribute
    uint8_t m_dscp;                              //!< Dscp attribute
    bool m_ecnCapable;                           //!< EcnCapable attribute
    uint32_t m_flowLabel;                        //!< FlowLabel attribute
    uint16_t m_srcPort;                          //!< UdpSourcePort attribute
    uint32_t m_destQp;                           //!< DestQp attribute
    Ptr<MrcNetDevice> m_dev;                     //!< the sending device
    EventId m_event;                             //!< next send
    uint32_t m_psn{0};                           //!< next PSN
    uint64_t m_sentPackets{0};                   //!< packets sent
    uint64_t m_sentBytes{0};                     //!< bytes sent
    uint64_t m_sentPayload{0};                   //!< payload bytes sent
    TracedCallback<Ptr<const Packet>> m_txTrace; //!< Tx
};

/**
 * \ingroup mrc
 * Receives every packet of one MrcNetDevice of its node (it takes over the device's
 * class receive callback) and counts them per outer source address: packets, bytes
 * (from the IPv6 header on), payload bytes of full packets, trimmed packets (DSCP 11 or
 * 21) and CE-marked packets.
 */
class MrcRawSink : public Application
{
  public:
    /// Counters of one source.
    struct Stats
    {
        uint64_t packets{0};        //!< packets received (full and trimmed)
        uint64_t bytes{0};          //!< their bytes from the IPv6 header on
        uint64_t payloadBytes{0};   //!< payload bytes of full (not trimmed) packets
        uint64_t trimmed{0};        //!< packets with DSCP 11 or 21
        uint64_t trimmedLastHop{0}; //!< packets with DSCP 21
        uint64_t ceMarked{0};       //!< packets carrying CE
    };

    /**
     * Signature of the Rx trace.
     * \param packet the packet, starting at its IPv6 header
     * \param info what MrcParsePacket found in it
     */
    typedef void (*RxTracedCallback)(Ptr<const Packet> packet, const MrcPacketInfo& info);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcRawSink();
    ~MrcRawSink() override;

    /// \return the totals over all sources
    Stats GetTotal() const;
    /// \param src an outer source address \return its counters (zero if never seen)
    Stats GetStats(Ipv6Address src) const;
    /// \return counters per source
    const std::map<Ipv6Address, Stats>& GetAllStats() const;
    /// \return packets that did not parse as IPv6
    uint64_t GetBadPackets() const;

    /**
     * \param p a packet starting at its IPv6 header
     * \param info its parse
     * \return the BTH PSN (0 if there is no BTH)
     */
    static uint32_t ReadPsn(Ptr<const Packet> p, const MrcPacketInfo& info);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    void Receive(Ptr<MrcNetDevice> dev, Ptr<Packet> p, uint16_t type, uint8_t cls);

    uint32_t m_deviceIndex;                                            //!< DeviceIndex attribute
    Ptr<MrcNetDevice> m_dev;                                           //!< the receiving device
    std::map<Ipv6Address, Stats> m_stats;                              //!< per source
    Stats m_total;                                                     //!< totals
    uint64_t m_bad{0};                                                 //!< unparsable packets
    TracedCallback<Ptr<const Packet>, const MrcPacketInfo&> m_rxTrace; //!< Rx
};

} // namespace ns3

#endif /* MRC_RAW_TRAFFIC_H */
