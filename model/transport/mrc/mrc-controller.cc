/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-controller.h"

#include "mrc-multipath-queue-pair.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/mrc-congestion-ops.h"
#include "ns3/mrc-rdma-nic.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcController");

NS_OBJECT_ENSURE_REGISTERED(MrcController);

TypeId
MrcController::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcController")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcController>()
            .AddAttribute("EventQueueDepth",
                          "Capacity of the EV-event queue (the API's EV-event CQ); events "
                          "beyond it are dropped and counted (drop_count). Default 1024 (our "
                          "choice; the API leaves the CQ size to the user).",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&MrcController::m_queueDepth),
                          MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource("EvEvent",
                            "An EV of an MRC QP of this NIC entered or left ASSUMED_BAD or "
                            "DENIED.",
                            MakeTraceSourceAccessor(&MrcController::m_evEventTrace),
                            "ns3::MrcController::EvEventTracedCallback");
    return tid;
}

MrcController::MrcController()
    : m_queueDepth(1024),
      m_dropCount(0)
{
}

MrcController::~MrcController() = default;

void
MrcController::DoDispose()
{
    if (m_nic)
    {
        m_nic->TraceDisconnectWithoutContext(
            "QueuePairConnected",
            MakeCallback(&MrcController::QueuePairConnected, this));
    }
    m_nic = nullptr;
    m_evProfiles.clear();
    m_ccProfiles.clear();
    m_events.clear();
    Object::DoDispose();
}

Ptr<MrcController>
MrcController::Install(Ptr<MrcRdmaNic> nic)
{
    NS_ABORT_MSG_IF(!nic, "MrcController::Install: null NIC");
    Ptr<MrcController> ctl = nic->GetObject<MrcController>();
    if (ctl)
    {
        return ctl;
    }
    ctl = CreateObject<MrcController>();
    ctl->m_nic = nic;
    nic->AggregateObject(ctl);
    // QPs already past RTR are attached now, later ones when the NIC reports them.
    for (const Ptr<MrcQueuePair>& qp : nic->GetQueuePairs())
    {
        ctl->QueuePairConnected(qp);
    }
    nic->TraceConnectWithoutContext(
        "QueuePairConnected",
        MakeCallback(&MrcController::QueuePairConnected, PeekPointer(ctl)));
    return ctl;
}

Ptr<MrcRdmaNic>
MrcController::GetNic() const
{
    return m_nic;
}

uint32_t
MrcController::AddEvProfile(Ptr<MrcEvProfile> profile)
{
    NS_ABORT_MSG_IF(!profile, "MrcController::AddEvProfile: null profile");
    m_evProfiles.push_back(profile);
    return uint32_t(m_evProfiles.size() - 1);
}

uint32_t
MrcController::AddCcProfile(Ptr<MrcCongestionOps> prototype)
{
    NS_ABORT_MSG_IF(!prototype, "MrcController::AddCcProfile: null prototype");
    m_ccProfiles.push_back(prototype);
    return uint32_t(m_ccProfiles.size() - 1);
}

Ptr<MrcCongestionOps>
MrcController::GetCcProfile(uint32_t ccProfileId) const
{
    NS_ABORT_MSG_IF(ccProfileId >= m_ccProfiles.size(),
                    "MrcController: CC profile " << ccProfileId << " does not exist ("
                                                 << m_ccProfiles.size() << " defined)");
    return m_ccProfiles[ccProfileId];
}

void
MrcController::SetCcProfileParameter(uint32_t ccProfileId,
                                     const std::string& name,
                                     const AttributeValue& value)
{
    Ptr<MrcCongestionOps> p = GetCcProfile(ccProfileId);
    NS_ABORT_MSG_UNLESS(p->SetAttributeFailSafe(name, value),
                        "MrcController::SetCcProfileParameter: " << p->GetInstanceTypeId().GetName()
                                                                 << " has no settable parameter '"
                                                                 << name << "'");
}

Ptr<MrcMultipathQueuePair>
MrcController::CreateQp()
{
    NS_ABORT_MSG_IF(!m_nic, "MrcController::CreateQp: controller is not installed on a NIC");
    return DynamicCast<MrcMultipathQueuePair>(
        m_nic->CreateQueuePair(MrcMultipathQueuePair::GetTypeId()));
}

Ptr<MrcMultipathQueuePair>
MrcController::GetMrcQp(uint32_t qpn) const
{
    NS_ABORT_MSG_IF(!m_nic, "MrcController: not installed on a NIC");
    Ptr<MrcMultipathQueuePair> qp = DynamicCast<MrcMultipathQueuePair>(m_nic->GetQueuePair(qpn));
    NS_ABORT_MSG_IF(!qp, "MrcController: QPN " << qpn << " is not an MRC queue pair of this NIC");
    return qp;
}

Ptr<MrcEvTable>
MrcController::GetTable(uint32_t qpn) const
{
    Ptr<MrcEvTable> t = GetMrcQp(qpn)->GetEvTable();
    NS_ABORT_MSG_IF(!t, "MrcController: QP " << qpn << " has no EV table before RTR");
    return t;
}

bool
MrcController::ModifyQpToInit(uint32_t qpn, const MrcQpInitAttr& attr)
{
    Ptr<MrcMultipathQueuePair> qp = GetMrcQp(qpn);
    if (qp->GetState() != MrcQpState::RESET)
    {
        std::ostringstream why;
        why << "ModifyQpToInit: QP " << qpn << " is in state " << qp->GetState() << ", not RESET";
        m_lastError = why.str();
        return false;
    }
    if (attr.evProfileId != MRC_CTL_NO_PROFILE)
    {
        NS_ABORT_MSG_IF(attr.evProfileId >= m_evProfiles.size(),
                        "MrcController: EV profile " << attr.evProfileId << " does not exist ("
                                                     << m_evProfiles.size() << " defined)");
        qp->SetEvProfile(m_evProfiles[attr.evProfileId]);
    }
    if (attr.ccProfileId != MRC_CTL_NO_PROFILE)
    {
        qp->SetCongestionOpsPrototype(GetCcProfile(attr.ccProfileId));
    }
    if (!attr.evCandidates.empty())
    {
        qp->SetEvCandidates(attr.evCandidates);
    }
    qp->ModifyToInit();
    return true;
}

bool
MrcController::ModifyQpToRtr(uint32_t qpn, const MrcQpRtrAttr& attr)
{
    Ptr<MrcMultipathQueuePair> qp = GetMrcQp(qpn);
    if (qp->GetState() != MrcQpState::INIT)
    {
        std::ostringstream why;
        why << "ModifyQpToRtr: QP " << qpn << " is in state " << qp->GetState() << ", not INIT";
        m_lastError = why.str();
        return false;
    }
    if (attr.mprDest)
    {
        qp->SetAttribute("Mpr", UintegerValue(*attr.mprDest));
    }
    if (attr.maxWimmDest)
    {
        qp->SetAttribute("MaxWimmDest", UintegerValue(*attr.maxWimmDest));
    }
    if (attr.dynamicMpr)
    {
        qp->SetAttribute("DynamicMpr", BooleanValue(*attr.dynamicMpr));
    }
    qp->ModifyToRtr(attr.remoteAddresses, attr.destQpn, attr.rqPsn);
    return true;
}

bool
MrcController::ModifyQpToRts(uint32_t qpn, const MrcQpRtsAttr& attr)
{
    Ptr<MrcMultipathQueuePair> qp = GetMrcQp(qpn);
    if (qp->GetState() != MrcQpState::RTR)
    {
        std::ostringstream why;
        why << "ModifyQpToRts: QP " << qpn << " is in state " << qp->GetState() << ", not RTR";
        m_lastError = why.str();
        return false;
    }
    if (attr.sqPsn)
    {
        qp->SetAttribute("InitialPsn", UintegerValue(*attr.sqPsn));
    }
    if (attr.mpr)
    {
        qp->SetAttribute("PeerMpr", UintegerValue(*attr.mpr));
    }
    if (attr.maxWimm)
    {
        qp->SetAttribute("MaxWimm", UintegerValue(*attr.maxWimm));
    }
    if (attr.timeout)
    {
        qp->SetAttribute("TimeoutExponent", UintegerValue(*attr.timeout));
    }
    if (attr.linearCnt)
    {
        qp->SetAttribute("LinearCount", UintegerValue(*attr.linearCnt));
    }
    if (attr.expCnt)
    {
        qp->SetAttribute("ExpCount", UintegerValue(*attr.expCnt));
    }
    qp->ModifyToRts();
    return true;
}

const std::string&
MrcController::GetLastError() const
{
    return m_lastError;
}

MrcEvState
MrcController::QueryEvState(uint32_t qpn, uint32_t evId) const
{
    Ptr<MrcEvTable> t = GetTable(qpn);
    NS_ABORT_MSG_IF(evId >= t->GetEvCount(),
                    "MrcController::QueryEvState: QP " << qpn << " has no EV " << evId << " ("
                                                       << t->GetEvCount() << " EVs)");
    return t->GetState(evId);
}

bool
MrcController::ModifyEvState(uint32_t qpn, uint32_t evId, MrcEvState to)
{
    Ptr<MrcEvTable> t = GetTable(qpn);
    NS_ABORT_MSG_IF(evId >= t->GetEvCount(),
                    "MrcController::ModifyEvState: QP " << qpn << " has no EV " << evId << " ("
                                                        << t->GetEvCount() << " EVs)");
    std::ostringstream why;
    if (to == MrcEvState::DENIED)
    {
        t->Deny(evId);
        return true;
    }
    if (to == MrcEvState::GOOD)
    {
        if (t->GetState(evId) != MrcEvState::DENIED)
        {
            why << "ModifyEvState: EV " << evId << " of QP " << qpn << " is "
                << MrcEvStateName(t->GetState(evId))
                << "; only a DENIED EV can be set GOOD by the controller";
            m_lastError = why.str();
            return false;
        }
        t->Allow(evId);
        return true;
    }
    why << "ModifyEvState: target state " << MrcEvStateName(to)
        << " is not allowed (DENIED or GOOD only)";
    m_lastError = why.str();
    return false;
}

std::vector<MrcCtlEv>
MrcController::QueryEvArray(uint32_t qpn) const
{
    Ptr<MrcEvTable> t = GetTable(qpn);
    std::vector<MrcCtlEv> out;
    out.reserve(t->GetEvCount());
    for (uint32_t id = 0; id < t->GetEvCount(); ++id)
    {
        const MrcEvEntry& e = t->GetEntry(id);
        MrcCtlEv row;
        row.evId = id;
        row.value = e.ev.value;
        row.port = e.ev.plane + 1;
        row.state = e.state;
        row.active = e.set == MrcEvEntry::ACTIVE;
        out.push_back(row);
    }
    return out;
}

bool
MrcController::ReplaceEv(uint32_t qpn, uint32_t evId, uint32_t value, uint32_t port)
{
    MrcEvCandidate c;
    c.plane = port > 0 ? port - 1 : ~0u;
    c.value = value;
    return ReplaceEv(qpn, evId, c);
}

bool
MrcController::ReplaceEv(uint32_t qpn, uint32_t evId, const MrcEvCandidate& ev)
{
    Ptr<MrcEvTable> t = GetTable(qpn);
    NS_ABORT_MSG_IF(evId >= t->GetEvCount(),
                    "MrcController::ReplaceEv: QP " << qpn << " has no EV " << evId << " ("
                                                    << t->GetEvCount() << " EVs)");
    if (t->Replace(evId, ev))
    {
        return true;
    }
    std::ostringstream why;
    if (ev.plane != t->GetPlane(evId))
    {
        why << "ReplaceEv: EV " << evId << " of QP " << qpn << " is on port "
            << t->GetPlane(evId) + 1 << "; the replacement names port " << ev.plane + 1
            << " (an EV is replaced on its own port, so plane loads stay equal)";
    }
    else
    {
        why << "ReplaceEv: value " << ev.value << " is already EV " << t->FindByValue(ev.value)
            << " of QP " << qpn;
    }
    m_lastError = why.str();
    return false;
}

void
MrcController::ModifyPort(uint32_t port, bool enable)
{
    NS_ABORT_MSG_IF(!m_nic || port >= m_nic->GetNPorts(),
                    "MrcController::ModifyPort: port " << port << " does not exist");
    m_nic->SetPortEnabled(port, enable);
}

bool
MrcController::IsPortEnabled(uint32_t port) const
{
    return !m_nic || m_nic->IsPortEnabled(port);
}

std::vector<MrcCtlEvEvent>
MrcController::PollEvEvents(uint32_t max)
{
    std::vector<MrcCtlEvEvent> out;
    while (!m_events.empty() && out.size() < max)
    {
        out.push_back(m_events.front());
        m_events.pop_front();
    }
    return out;
}

uint64_t
MrcController::GetEvEventDropCount() const
{
    return m_dropCount;
}

void
MrcController::QueuePairConnected(Ptr<MrcQueuePair> qp)
{
    if (Ptr<MrcMultipathQueuePair> mqp = DynamicCast<MrcMultipathQueuePair>(qp))
    {
        AttachQp(mqp);
    }
}

void
MrcController::AttachQp(Ptr<MrcMultipathQueuePair> qp)
{
    const uint32_t qpn = qp->GetQpn();
    if (m_attached[qpn] || !qp->GetEvTable())
    {
        return;
    }
    m_attached[qpn] = true;
    qp->GetEvTable()->TraceConnectWithoutContext(
        "EvState",
        MakeCallback(&MrcController::EvStateChanged, this).Bind(qpn));
}

void
MrcController::EvStateChanged(uint32_t qpn,
                              uint32_t evId,
                              uint32_t value,
                              uint32_t plane,
                              MrcEvState from,
                              MrcEvState to,
                              MrcEvReason reason)
{
    const bool health = from == MrcEvState::ASSUMED_BAD || to == MrcEvState::ASSUMED_BAD ||
                        from == MrcEvState::DENIED || to == MrcEvState::DENIED;
    if (!health || from == to)
    {
        return;
    }
    MrcCtlEvEvent ev;
    ev.qpn = qpn;
    ev.evId = evId;
    ev.value = value;
    ev.port = plane + 1;
    ev.from = from;
    ev.to = to;
    ev.reason = reason;
    ev.when = Simulator::Now();
    m_evEventTrace(ev);
    if (m_events.size() >= m_queueDepth)
    {
        ++m_dropCount;
        return;
    }
    m_events.push_back(ev);
}

} // namespace ns3
