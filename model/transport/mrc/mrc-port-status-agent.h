/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PORT_STATUS_AGENT_H
#define MRC_PORT_STATUS_AGENT_H

#include "ns3/event-id.h"
#include "ns3/ipv6-address.h"
#include "ns3/mrc-endpoint-ops.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * The MRC Port Status Update (protocol reference Q3) of one NIC, in both scopes.
 */

namespace ns3
{

class MrcRdmaNic;
class MrcMultipathQueuePair;
struct MrcMultipathCounters;

/**
 * \ingroup mrc
 * Tells peers which local ports are up (MRC Port Status Update) and applies what peers
 * tell (ns3::MrcPortStatusAgent). One per NIC, registered with the NIC as the handler of
 * the endpoint QPN 0x2 (Install; MrcMultipathHelper::InstallNics and the first MRC QP that
 * connects call it). The NIC's PortStatusScope selects who the updates are exchanged
 * between; packets, timers, retries and counters are the same code in both scopes.
 *
 * **Update.** A request is an Endpoint Request (BTH opcode 0xD8, PSN[15:0] = request id,
 * consuming no PSN) with an ERTH of op 0 (PORT_STATUS_UPDATE) carrying the reachable-port
 * mask (bit N = 1-based port N up) and the send time; it leaves on the lowest-numbered
 * port whose link is up, in the control class on a reverse EV of that plane (through an
 * MRC QP, MrcMultipathQueuePair::SendEndpointPacket). The receiver applies the mask to
 * the EV tables (MrcMultipathQueuePair::ApplyPeerPortStatus: planes whose bit is clear go
 * out of use) and answers with an Endpoint Response (0xD9, EETH op 0, the same request
 * id) on the port the request came in on. A request not answered within the
 * PortStatusTimeout of the sending QP is sent again, up to its PortStatusAttempts
 * transmissions in all; a new local state replaces an update still waiting for its
 * response (next request id); answers to replaced updates are ignored.
 *
 * **Scope Nic (default).** An MRC QP that applied a local port change (after its
 * PortRemapDelay) calls LocalPortsChanged; at the end of that instant the agent sends
 * every peer NIC (one per distinct port-0 address among the live MRC QPs with
 * PortStatusUpdates) whose last update carried another mask one request to its QPN 0x2,
 * through the first such QP. A request arriving at QPN 0x2 is applied to every live MRC QP
 * whose peer address on the arrival port is the request's source, and answered once.
 * Counted in GetEndpointStats (read through the NIC's GetPortStatus* accessors); each
 * request leaving fires PortStatusTx (also reachable as the NIC's PortStatusTx).
 *
 * **Scope Qp.** Each MRC QP exchanges its own updates with its peer QP (BTH destination:
 * the peer QPN): LocalPortsChanged sends at once, the QP hands the requests and responses
 * it receives to ReceiveRequestAtQp / ReceiveResponseAtQp. Counted in the QP's
 * MrcMultipathCounters (portStatusSent, portStatusResent, portStatusAnswered;
 * portStatusReceived by the QP when it applies a mask, in both scopes).
 */
class MrcPortStatusAgent : public MrcEndpointOps
{
  public:
    /// Signature of the PortStatusTx trace: peer (its port-0 address), request id, mask.
    typedef void (*PortStatusTracedCallback)(Ipv6Address peer, uint16_t id, uint32_t mask);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcPortStatusAgent();
    ~MrcPortStatusAgent() override;

    /**
     * The agent of a NIC: the handler of its endpoint QPN 0x2, created and registered on
     * first use.
     * \param nic the NIC
     * \return its agent
     */
    static Ptr<MrcPortStatusAgent> Install(Ptr<MrcRdmaNic> nic);

    /// \return the NIC
    Ptr<MrcRdmaNic> GetNic() const;

    // ---- called by the MRC queue pairs of the NIC ----

    /**
     * A QP applied a local port change and wants its peers told (its PortStatusUpdates is
     * on). Scope Nic: the updates go out at the end of this instant, one per peer NIC
     * however many QPs call. Scope Qp: the QP's own update goes out now.
     * \param qp the QP
     * \param counters where the QP counts its own updates (scope Qp; kept until StopQp)
     */
    void LocalPortsChanged(Ptr<MrcMultipathQueuePair> qp, MrcMultipathCounters* counters);
    /**
     * Scope Qp: a Port Status Update request addressed to the QP arrived; apply it and
     * answer it.
     * \param qp the QP (connected)
     * \param rx the arrival
     * \return true if it was applied (the QP then has new sending chances)
     */
    bool ReceiveRequestAtQp(Ptr<MrcMultipathQueuePair> qp, const MrcRxPacket& rx);
    /**
     * Scope Qp: a response addressed to the QP arrived; it ends the QP's pending update
     * if it carries its request id.
     * \param qp the QP
     * \param rx the arrival
     */
    void ReceiveResponseAtQp(Ptr<MrcMultipathQueuePair> qp, const MrcRxPacket& rx);
    /**
     * The QP failed or is being disposed: its own update (scope Qp) stops and is forgotten.
     * \param qpn its QP number
     */
    void StopQp(uint32_t qpn);

    // ---- MrcEndpointOps (scope Nic, QPN 0x2) ----

    bool ReceiveEndpoint(const MrcRxPacket& rx) override;
    MrcEndpointStats GetEndpointStats() const override;
    uint16_t GetRequestId(Ipv6Address peer) const override;

    // ---- the packets ----

    /**
     * \param nic a NIC
     * \return its reachable-port mask: bit N (MrcErthHeader::PortBit) set for each 1-based
     * port N whose link is up
     */
    static uint32_t LocalPortMask(Ptr<const MrcRdmaNic> nic);
    /**
     * \param destQpn BTH destination QP (0x2, or the peer QP in scope Qp)
     * \param id request id \param mask reachable-port mask \param now send time
     * \param icrcRoom end with four zero bytes of room for the ICRC (a packet for
     *        MrcQueuePair::AddFrameHeaders, as the agent sends it)
     * \return a request from its BTH on (opcode 0xD8, ERTH op PORT_STATUS_UPDATE)
     */
    static Ptr<Packet> MakeRequest(uint32_t destQpn,
                                   uint16_t id,
                                   uint32_t mask,
                                   Time now,
                                   bool icrcRoom = false);
    /**
     * \param destQpn BTH destination QP \param id the request's id
     * \param txTimestamp the request's ERTH timestamp, echoed
     * \param icrcRoom end with four zero bytes of room for the ICRC (as MakeRequest)
     * \return a response from its BTH on (opcode 0xD9, EETH op PORT_STATUS_UPDATE)
     */
    static Ptr<Packet> MakeResponse(uint32_t destQpn,
                                    uint16_t id,
                                    uint16_t txTimestamp,
                                    bool icrcRoom = false);

  protected:
    void DoDispose() override;

  private:
    /// One update exchange: toward a peer NIC (scope Nic) or from one QP (scope Qp).
    struct Session
    {
        bool perQp{false};                       //!< scope Qp
        std::vector<Ipv6Address> addresses;      //!< scope Nic: the peer NIC's port addresses
        Ptr<MrcMultipathQueuePair> qp;           //!< scope Qp: the QP
        MrcMultipathCounters* counters{nullptr}; //!< scope Qp: the QP's counters
        uint16_t id{0};                          //!< request id of the last update
        uint32_t mask{0};                        //!< its mask
        uint32_t left{0};                        //!< transmissions left
        bool sent{false};                        //!< an update was started
        bool pending{false};                     //!< it waits for its response
        EventId timer;                           //!< response timeout
    };

    /// Scope Nic: send the updates LocalPortsChanged asked for.
    void Flush();
    /// \param peer a port-0 address \return index of its scope-Nic session (size if none)
    std::size_t FindPeer(Ipv6Address peer) const;
    /// \param s a session \return the live QP its requests leave through, or null
    Ptr<MrcMultipathQueuePair> Route(const Session& s) const;
    /**
     * Start a new update of a session (replacing a pending one).
     * \param s session index \param mask the mask \param attempts transmissions at most
     */
    void Start(std::size_t s, uint32_t mask, uint32_t attempts);
    /// Send (again) the pending update of a session.
    void Transmit(std::size_t s);
    /// The response timeout of a session fired.
    void TimedOut(std::size_t s);
    /// End a session's pending update if `id` is its request id. \return true if so
    bool Answer(Session& s, uint16_t id);
    /// Stop a session's response timer.
    static void StopTimer(Session& s);

    Ptr<MrcRdmaNic> m_nic;                                     //!< the NIC
    std::vector<Session> m_sessions;                           //!< sessions; indices stay valid
    std::map<uint32_t, std::size_t> m_qpSession;               //!< scope Qp: session index by QPN
    EventId m_flush;                                           //!< pending Flush (scope Nic)
    MrcEndpointStats m_stats;                                  //!< scope-Nic counts
    TracedCallback<Ipv6Address, uint16_t, uint32_t> m_txTrace; //!< PortStatusTx
};

} // namespace ns3

#endif /* MRC_PORT_STATUS_AGENT_H */
