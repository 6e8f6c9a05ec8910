/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PATH_SELECTOR_H
#define MRC_PATH_SELECTOR_H

#include "ns3/object.h"

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * Path-selection strategies: which NIC port (plane) and which entropy (UDP source
 * port, flow label) a queue pair's next packet uses.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * One packet's path: the NIC port it leaves on and the header fields that steer it
 * through ECMP (or, in SRv6 mode, the entropy value a transport maps to a uSID path).
 */
struct MrcPathChoice
{
    uint32_t port{0};       //!< NIC port index (plane)
    uint16_t udpSrcPort{0}; //!< UDP source port
    uint32_t flowLabel{0};  //!< IPv6 flow label (20 bits)
    uint32_t ev{0};         //!< entropy value (transports without EVs: the hash used)
};

/// Feedback a transport gives a path selector about one path (entropy value).
enum class MrcPathSignal : uint8_t
{
    GOOD = 0,    ///< acknowledged without congestion
    ECN = 1,     ///< acknowledged with CE (or CNP)
    NACK = 2,    ///< NACKed (trimmed, out of window)
    TIMEOUT = 3, ///< retransmission timeout (path unknown or the one last used)
};

/**
 * \ingroup mrc
 * Path-selection strategy of a queue pair. One object per queue pair; it keeps only its
 * own variables. The transport calls Init once when the QP is connected, then Select for
 * every packet it builds for a port (RoCE: one fixed path), and Feedback as ACKs, NACKs
 * and timeouts come back (spraying policies such as REPS use it).
 */
class MrcPathSelector : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * Start selecting paths for a connection.
     * \param localQpn the local queue pair number
     * \param remoteQpn the peer's queue pair number
     * \param nPorts number of ports of the local NIC
     */
    virtual void Init(uint32_t localQpn, uint32_t remoteQpn, uint32_t nPorts) = 0;

    /**
     * \param port a NIC port
     * \return true if this selector ever sends on it
     */
    virtual bool UsesPort(uint32_t port) const = 0;

    /**
     * Choose the path of the next packet.
     * \param port the NIC port that has room now (the scheduler's port), or
     *        NO_PORT when the transport asks for the connection's default path
     * \param retransmission the packet is a retransmission
     * \return the path (its port is `port` unless port is NO_PORT)
     */
    virtual MrcPathChoice Select(uint32_t port, bool retransmission) = 0;

    /**
     * Feedback about one path. Default: ignored.
     * \param ev the entropy value the feedback is about
     * \param kind what happened
     */
    virtual void Feedback(uint32_t ev, MrcPathSignal kind);

    /// "no particular port"
    static constexpr uint32_t NO_PORT = 0xffffffff;
};

/**
 * \ingroup mrc
 * RoCEv2's fixed ECMP entropy: one NIC port and one (UDP source port, flow label) pair
 * for the whole life of the queue pair, derived from the two QP numbers.
 *
 * Flow label: the Linux RDMA stack's rule for RoCEv2 (rdma_calc_flow_label): v = local
 * QPN x remote QPN (64 bit), v ^= v >> 20, v ^= v >> 40, label = v & 0xFFFFF; XORed with
 * the Salt attribute (20 bits). UDP source port: the Linux rule that folds the label
 * into 14 bits (rdma_flow_label_to_udp_sport): (label & 0x3FFF) ^ ((label & 0xFC000) >>
 * 14), OR 0xC000. Port: the Port attribute, or (label mod nPorts) when Port is NO_PORT.
 */
class MrcFixedEntropyPathSelector : public MrcPathSelector
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcFixedEntropyPathSelector();

    void Init(uint32_t localQpn, uint32_t remoteQpn, uint32_t nPorts) override;
    bool UsesPort(uint32_t port) const override;
    MrcPathChoice Select(uint32_t port, bool retransmission) override;

    /**
     * \param localQpn local QPN
     * \param remoteQpn remote QPN
     * \return the 20-bit flow label of the Linux rule (without salt)
     */
    static uint32_t FlowLabelOf(uint32_t localQpn, uint32_t remoteQpn);

    /**
     * \param flowLabel a 20-bit flow label
     * \return the RoCEv2 UDP source port the Linux rule derives from it (0xC000..0xFFFF)
     */
    static uint16_t UdpSourcePortOf(uint32_t flowLabel);

  private:
    uint32_t m_portAttr;  //!< Port attribute
    uint32_t m_salt;      //!< Salt attribute
    MrcPathChoice m_path; //!< the fixed path
};

} // namespace ns3

#endif /* MRC_PATH_SELECTOR_H */
