/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CONTROLLER_H
#define MRC_CONTROLLER_H

#include "ns3/attribute.h"
#include "ns3/ipv6-address.h"
#include "ns3/mrc-ev-profile.h"
#include "ns3/mrc-ev-table.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * The MRC control plane of one NIC (after the OCP MRC controller API, mrc_ctl.h):
 * profiles, the QP lifecycle, EV queries and modifications, port admin, EV events.
 */

namespace ns3
{

class MrcRdmaNic;
class MrcQueuePair;
class MrcMultipathQueuePair;
class MrcCongestionOps;

/// "No profile": keep what the QP already has (its attributes or SetEvProfile).
constexpr uint32_t MRC_CTL_NO_PROFILE = 0xffffffff;

/**
 * \ingroup mrc
 * Attributes of the RESET -> INIT step (OCP: EV and CC profile ids, QP hint).
 */
struct MrcQpInitAttr
{
    uint32_t evProfileId{MRC_CTL_NO_PROFILE}; //!< AddEvProfile id (none: QP's own)
    uint32_t ccProfileId{MRC_CTL_NO_PROFILE}; //!< AddCcProfile id (none: QP's attribute)
    std::vector<MrcEvCandidate> evCandidates; //!< paths the EV set is generated from
    uint32_t numQpsPerPeer{1};                //!< hint (accepted, unused)
    uint32_t numSendPeers{1};                 //!< hint (accepted, unused)
    uint32_t numRemoteRecvPeers{1};           //!< hint (accepted, unused)
};

/**
 * \ingroup mrc
 * Attributes of the INIT -> RTR step (OCP: mpr_dest, max_wimm_dest, dynamic MPR), plus the
 * peer exchanged out of band (addresses, QPN, its first PSN). Unset optionals keep the
 * QP's attribute.
 */
struct MrcQpRtrAttr
{
    std::vector<Ipv6Address> remoteAddresses; //!< peer address per plane (or one for all)
    uint32_t destQpn{0};                      //!< the peer's QPN
    uint32_t rqPsn{0};                        //!< the peer's first PSN (its sqPsn)
    std::optional<uint8_t> mprDest;           //!< own receive window (attribute Mpr)
    std::optional<uint32_t> maxWimmDest;      //!< attribute MaxWimmDest
    std::optional<bool> dynamicMpr;           //!< attribute DynamicMpr
};

/**
 * \ingroup mrc
 * Attributes of the RTR -> RTS step (OCP: mpr, max_wimm, timeout, retry). Unset optionals
 * keep the QP's attribute.
 */
struct MrcQpRtsAttr
{
    std::optional<uint32_t> sqPsn;     //!< own first PSN (attribute InitialPsn)
    std::optional<uint8_t> mpr;        //!< peer window assumed (attribute PeerMpr)
    std::optional<uint32_t> maxWimm;   //!< attribute MaxWimm
    std::optional<uint32_t> timeout;   //!< attribute TimeoutExponent
    std::optional<uint32_t> linearCnt; //!< attribute LinearCount
    std::optional<uint32_t> expCnt;    //!< attribute ExpCount
};

/**
 * \ingroup mrc
 * One row of QUERY_EV_ARRAY.
 */
struct MrcCtlEv
{
    uint32_t evId{0};                      //!< dense id in the QP's EV table
    uint32_t value{0};                     //!< 32-bit EV value
    uint32_t port{1};                      //!< 1-based NIC port (plane + 1), as in mrc_ctl_ev
    MrcEvState state{MrcEvState::UNKNOWN}; //!< health state
    bool active{false};                    //!< in the active set
};

/**
 * \ingroup mrc
 * An EV event (OCP: reported on GOOD / ASSUMED_BAD transitions through an EV-event CQ).
 */
struct MrcCtlEvEvent
{
    uint32_t qpn{0};                           //!< the QP
    uint32_t evId{0};                          //!< EV id
    uint32_t value{0};                         //!< EV value
    uint32_t port{1};                          //!< 1-based port
    MrcEvState from{MrcEvState::UNKNOWN};      //!< old state
    MrcEvState to{MrcEvState::UNKNOWN};        //!< new state
    MrcEvReason reason{MrcEvReason::ECN_ECHO}; //!< why
    Time when;                                 //!< simulation time
};

/**
 * \ingroup mrc
 * The MRC controller of one NIC (ns3::MrcController), a model of the OCP MRC control API
 * (mrc_ctl.h; protocol reference sec. 7). Install() aggregates one to the NIC and follows
 * the NIC's QueuePairConnected trace: every MRC QP of that NIC is attached when it reaches
 * RTR, however it got there (Connect or the explicit steps); QPs already past RTR are
 * attached by Install.
 *
 * - Profiles: AddEvProfile / AddCcProfile return ids that MrcQpInitAttr names;
 *   SetCcProfileParameter changes a CC profile (offline: QPs that reach INIT later get it;
 *   online changes of running QPs are not modelled).
 * - QP lifecycle: CreateQp, ModifyQpToInit / ModifyQpToRtr / ModifyQpToRts. Each returns
 *   false (reason in GetLastError) when the QP is not in the state the step starts from.
 * - EVs: QueryEvState, ModifyEvState (DENIED, or GOOD to re-enable a DENIED EV),
 *   QueryEvArray, ReplaceEv (REPLACE_EV).
 * - Ports: ModifyPort(port, enable) is the NIC's port admin (MrcRdmaNic::SetPortEnabled):
 *   it takes the port's link down or up (the QPs see it after the device's detection
 *   delay, as for a failure); a disabled port reports down.
 * - EV events: the EvEvent trace and a bounded queue (PollEvEvents, EventQueueDepth,
 *   GetEvEventDropCount) of every transition into or out of ASSUMED_BAD or DENIED, and of
 *   revivals to GOOD.
 */
class MrcController : public Object
{
  public:
    /// Signature of the EvEvent trace.
    typedef void (*EvEventTracedCallback)(const MrcCtlEvEvent& ev);

    /// \return the TypeId
    static TypeId GetTypeId();

    MrcController();
    ~MrcController() override;

    /**
     * The controller of a NIC, created and aggregated on first use.
     * \param nic the NIC \return its controller
     */
    static Ptr<MrcController> Install(Ptr<MrcRdmaNic> nic);

    /// \return the NIC
    Ptr<MrcRdmaNic> GetNic() const;

    // ---- profiles ----
    /// \param profile an EV profile \return its id
    uint32_t AddEvProfile(Ptr<MrcEvProfile> profile);
    /// \param prototype a configured congestion controller (forked per QP) \return its id
    uint32_t AddCcProfile(Ptr<MrcCongestionOps> prototype);
    /**
     * Set a parameter (an ns-3 attribute of the controller, e.g. NSCC's "TargetDelay") of a
     * CC profile. Applies to QPs that reach INIT afterwards. Aborts on an unknown id or name.
     * \param ccProfileId the profile \param name attribute name \param value its value
     */
    void SetCcProfileParameter(uint32_t ccProfileId,
                               const std::string& name,
                               const AttributeValue& value);
    /// \param ccProfileId a profile id \return the profile's prototype
    Ptr<MrcCongestionOps> GetCcProfile(uint32_t ccProfileId) const;

    // ---- QP lifecycle ----
    /// \return a new MRC QP of this NIC, in RESET
    Ptr<MrcMultipathQueuePair> CreateQp();
    /// \param qpn a QP \param attr INIT attributes \return false if it is not in RESET
    bool ModifyQpToInit(uint32_t qpn, const MrcQpInitAttr& attr);
    /// \param qpn a QP \param attr RTR attributes \return false if it is not in INIT
    bool ModifyQpToRtr(uint32_t qpn, const MrcQpRtrAttr& attr);
    /// \param qpn a QP \param attr RTS attributes \return false if it is not in RTR
    bool ModifyQpToRts(uint32_t qpn, const MrcQpRtsAttr& attr);
    /// \return why the last operation that returned false failed
    const std::string& GetLastError() const;

    // ---- EVs ----
    /// \param qpn a QP (RTR or later) \param evId an EV id \return its state
    MrcEvState QueryEvState(uint32_t qpn, uint32_t evId) const;
    /**
     * MODIFY_EV_STATE. DENIED takes the EV out of use until it is set GOOD again; GOOD
     * re-enables a DENIED EV. Other target states, or GOOD for an EV that is not DENIED,
     * return false (GetLastError says why).
     * \param qpn a QP \param evId an EV id \param to DENIED or GOOD \return success
     */
    bool ModifyEvState(uint32_t qpn, uint32_t evId, MrcEvState to);
    /// \param qpn a QP (RTR or later) \return every EV with its port and state
    std::vector<MrcCtlEv> QueryEvArray(uint32_t qpn) const;
    /**
     * REPLACE_EV: give EV `evId` of a QP a new value on the same 1-based port (structured or
     * ECMP formats; the entry has no uSID carrier afterwards). See MrcEvTable::Replace.
     * Returns false (GetLastError says why) if the port is not the EV's, or another EV of
     * the QP has the value.
     * \param qpn a QP (RTR or later) \param evId an EV id (aborts if out of range)
     * \param value the new 32-bit EV \param port its 1-based port, as in QueryEvArray
     * \return success
     */
    bool ReplaceEv(uint32_t qpn, uint32_t evId, uint32_t value, uint32_t port);
    /**
     * REPLACE_EV with a full candidate (an SRv6 EV brings its uSID carrier).
     * \param qpn a QP \param evId an EV id \param ev the new EV (its plane must be the old one's)
     * \return success
     */
    bool ReplaceEv(uint32_t qpn, uint32_t evId, const MrcEvCandidate& ev);

    // ---- ports ----
    /**
     * mrc_ctl_modify_port: enable or disable a NIC port (its link goes down or up).
     * \param port 0-based NIC port \param enable true to enable
     */
    void ModifyPort(uint32_t port, bool enable);
    /// \param port 0-based NIC port \return false if ModifyPort (or SetPortEnabled) disabled it
    bool IsPortEnabled(uint32_t port) const;

    // ---- EV events ----
    /// \param max most events to return \return the oldest queued EV events (removed)
    std::vector<MrcCtlEvEvent> PollEvEvents(uint32_t max);
    /// \return events lost because the queue was full (drop_count)
    uint64_t GetEvEventDropCount() const;

    /// Follow the EV events of an MRC QP of this NIC (RTR or later; once per QP).
    /// \param qp the QP
    void AttachQp(Ptr<MrcMultipathQueuePair> qp);

  protected:
    void DoDispose() override;

  private:
    /// The NIC's QueuePairConnected trace: attach the QP if it is an MRC QP.
    void QueuePairConnected(Ptr<MrcQueuePair> qp);
    /// \param qpn a QPN \return the MRC QP (aborts if there is none)
    Ptr<MrcMultipathQueuePair> GetMrcQp(uint32_t qpn) const;
    /// \param qpn a QPN \return its EV table (aborts before RTR)
    Ptr<MrcEvTable> GetTable(uint32_t qpn) const;
    /// An EV of a QP changed state.
    void EvStateChanged(uint32_t qpn,
                        uint32_t evId,
                        uint32_t value,
                        uint32_t plane,
                        MrcEvState from,
                        MrcEvState to,
                        MrcEvReason reason);

    Ptr<MrcRdmaNic> m_nic;                               //!< the NIC
    std::vector<Ptr<MrcEvProfile>> m_evProfiles;         //!< EV profiles by id
    std::vector<Ptr<MrcCongestionOps>> m_ccProfiles;     //!< CC profiles by id
    std::map<uint32_t, bool> m_attached;                 //!< QPNs whose EV trace is connected
    std::deque<MrcCtlEvEvent> m_events;                  //!< EV-event queue
    uint32_t m_queueDepth;                               //!< EventQueueDepth
    uint64_t m_dropCount;                                //!< events lost to a full queue
    std::string m_lastError;                             //!< last failure reason
    TracedCallback<const MrcCtlEvEvent&> m_evEventTrace; //!< EvEvent
};

} // namespace ns3

#endif /* MRC_CONTROLLER_H */
