/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MrcMultipathQueuePair, part of its implementation (see mrc-multipath-queue-pair.h):
// Lifecycle and set-up: construction, Connect (the path selector, scoreboard and responder), the
// state transitions, the loss-rule configuration and the accessors.

#include "mrc-multipath-queue-pair.h"

#include "mrc-port-status-agent.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-rdma-nic.h"
#include "ns3/mrc-reusable-event.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcMultipathQueuePair");

NS_OBJECT_ENSURE_REGISTERED(MrcMultipathQueuePair);

MrcMultipathQueuePair::MrcMultipathQueuePair()
    : MrcSprayedQueuePair(0),
      m_timestamps(false),
      m_mpr(8),
      m_maxWimm(64),
      m_timeoutExp(8),
      m_linearCount(7),
      m_expCount(7),
      m_planeReorderPsns(16),
      m_globalReorderPsns(96),
      m_timeoutLosesPath(true),
      m_backstopGuard(true),
      m_backstopGuardMargin(0),
      m_retxPathRule(false),
      m_retxBackstop(true),
      m_reorderTimeRtts(0.0),
      m_retxRttSamples(true),
      m_lossRule(LOSS_PATH),
      m_sleek(true),
      m_lossOooCwndFactor(1.5),
      m_lossOooMinPkts(5),
      m_lossMarksBad(true),
      m_timeoutMarksBad(true),
      m_alwaysSkipCeRun(8),
      m_srcPortHigh(false),
      m_portStatusUpdates(true),
      m_cfgPeerMpr(0),
      m_dynamicMpr(true),
      m_maxWimmDest(0),
      m_tackMessages(1),
      m_completeOnTack(false),
      m_portStatusTimeout(MilliSeconds(2)),
      m_portStatusTries(3),
      m_portRemapDelay(0),
      m_reversePath(REVERSE_PROBED),
      m_revProbeInterval(0),
      m_alwaysSkipRule(ALWAYS_SKIP_RELATIVE),
      m_planeMarkedShare(0.5),
      m_peerMpr(8),
      m_wimmOutstanding(0),
      m_nextMsn(0),
      m_nextRqMsn(0),
      m_retries(0),
      m_guardFireAt(Time::Max()),
      m_guardWant(Time::Max()),
      m_nextProbeId(0),
      m_tailProbeId(0),
      m_tailProbeOutstanding(false),
      m_tackedMessages(0),
      m_completedRequests(0),
      m_pathsDisposed(false),
      m_tackOwed(0),
      m_revNextPlane(0),
      m_revRxSeen(false)
{
    m_reorderPsns = 3;
    m_receiveInRtr = true; // arrivals are processed from RTR on
}

MrcMultipathQueuePair::~MrcMultipathQueuePair() = default;

void
MrcMultipathQueuePair::DoDispose()
{
    m_timer.Remove();
    m_tailProbe.Remove();
    Simulator::Remove(m_retry);
    m_revProbeTimer.Remove();
    if (m_guardEvent)
    {
        m_guardEvent->Cancel(); // its pending firings do nothing now
        m_guardEvent = nullptr;
    }
    if (m_portStatus)
    {
        m_portStatus->StopQp(m_qpn);
        m_portStatus = nullptr;
    }
    StopPathSelector();
    m_paths = nullptr;
    m_profile = nullptr;
    MrcSprayedQueuePair::DoDispose();
}

Time
MrcMultipathQueuePair::TimeoutFromExponent(uint32_t exponent)
{
    return NanoSeconds(int64_t(1024) << std::min<uint32_t>(exponent, 40));
}

void
MrcMultipathQueuePair::SetEvCandidates(const std::vector<MrcEvCandidate>& candidates)
{
    NS_ABORT_MSG_IF(m_state != MrcQpState::RESET && m_state != MrcQpState::INIT,
                    "MrcMultipathQueuePair::SetEvCandidates: QP " << m_qpn
                                                                  << " is already connected");
    m_candidates = candidates;
}

void
MrcMultipathQueuePair::SetEvProfile(Ptr<MrcEvProfile> profile)
{
    NS_ABORT_MSG_IF(m_state != MrcQpState::RESET && m_state != MrcQpState::INIT,
                    "MrcMultipathQueuePair::SetEvProfile: QP " << m_qpn << " is already connected");
    m_profile = profile;
}

int64_t
MrcMultipathQueuePair::AssignStreams(int64_t stream)
{
    NS_ABORT_MSG_IF(!m_paths || !m_profile,
                    "MrcMultipathQueuePair::AssignStreams: QP " << m_qpn << " is not connected");
    m_profile->AssignStreams(stream);
    m_paths->AssignStreams(stream + 1);
    return 2;
}

Ptr<MrcEvTable>
MrcMultipathQueuePair::GetEvTable() const
{
    return DynamicCast<MrcEvTable>(m_paths);
}

Ptr<MrcPathSelector>
MrcMultipathQueuePair::GetEntropySelector() const
{
    return m_paths;
}

const MrcMultipathCounters&
MrcMultipathQueuePair::GetMultipathCounters() const
{
    return m_mpCounters;
}

uint8_t
MrcMultipathQueuePair::GetPeerMpr() const
{
    return m_peerMpr;
}

MrcPathChoice
MrcMultipathQueuePair::GetReverseEv(uint32_t port) const
{
    if (port < m_revEv.size())
    {
        return m_revEv[port];
    }
    MrcPathChoice none;
    none.port = MrcPathSelector::NO_PORT;
    return none;
}

uint32_t
MrcMultipathQueuePair::GetMaxWimmDest() const
{
    return m_maxWimmDest;
}

uint64_t
MrcMultipathQueuePair::GetTransportAckedMessages() const
{
    return m_tackedMessages;
}

bool
MrcMultipathQueuePair::UsesTimeRule() const
{
    if (m_lossRule == LOSS_PLANE || m_lossRule == LOSS_PATH)
    {
        return m_reorderTime.IsStrictlyPositive() ||
               (m_reorderTimeRtts > 0.0 && m_baseRtt.IsStrictlyPositive());
    }
    return m_lossRule == LOSS_TIME &&
           (m_reorderTime.IsStrictlyPositive() || m_baseRtt.IsStrictlyPositive());
}

void
MrcMultipathQueuePair::ConfigureLossRule(MrcSackScoreboard::Config& cfg) const
{
    cfg.timeoutLosesPath = m_timeoutLosesPath;
    if (m_lossRule == LOSS_PATH)
    {
        cfg.pathCount = m_reorderPsns > 0;
        cfg.pathReorderPsns = std::max<uint32_t>(m_reorderPsns, 1);
        cfg.groupedCount = true;
        cfg.reorderPsns = m_planeReorderPsns;
        cfg.globalReorderPsns = m_globalReorderPsns;
        cfg.backstopGuard = m_backstopGuard;
        cfg.retxPathCount = m_retxPathRule;
        cfg.retxBackstop = m_retxBackstop;
        cfg.guardMargin =
            m_backstopGuardMargin.IsStrictlyPositive() ? m_backstopGuardMargin : m_baseRtt;
    }
    else if (m_lossRule == LOSS_PLANE)
    {
        cfg.reorderPsns = m_reorderPsns;
        cfg.groupedCount = true;
    }
    if (UsesTimeRule())
    {
        if (m_lossRule == LOSS_TIME)
        {
            cfg.reorderPsns = 0;
        }
        cfg.timeRule = true;
        if (m_reorderTime.IsStrictlyPositive())
        {
            cfg.reorderTime = m_reorderTime;
        }
        else if (m_lossRule == LOSS_TIME)
        {
            cfg.reorderTime = m_baseRtt;
        }
        else
        {
            // Path or Plane: the window follows the fabric's base RTT (ReorderTimeRtts)
            cfg.reorderTime = Time(std::llround(m_baseRtt.GetDouble() * m_reorderTimeRtts));
        }
    }
    else if (m_lossRule == LOSS_COUNT || m_lossRule == LOSS_TIME)
    {
        cfg.reorderPsns = m_reorderPsns;
    }
}

void
MrcMultipathQueuePair::DoModifyToRts()
{
    // RTS attributes: the sender's initial PSN and the peer window it assumes. Nothing
    // has been sent yet, so the scoreboard is simply rebuilt.
    m_peerMpr = m_cfgPeerMpr > 0 ? m_cfgPeerMpr : m_mpr;
    MrcSackScoreboard::Config cfg;
    cfg.capacityPsns = uint32_t(std::max(m_mpr, m_peerMpr)) * MrcReceiveBitmap::MPR_UNIT_PSNS;
    ConfigureLossRule(cfg);
    m_sb = std::make_unique<MrcSackScoreboard>(cfg, m_initialPsn & MrcBthHeader::PSN_MASK);
}

Time
MrcMultipathQueuePair::GetCurrentTimeout() const
{
    const Time base = TimeoutFromExponent(m_timeoutExp);
    if (m_retries < m_linearCount)
    {
        return base;
    }
    const uint32_t shift = std::min<uint32_t>(m_retries - m_linearCount + 1, 24);
    return base * int64_t(1ULL << shift);
}

bool
MrcMultipathQueuePair::UsesPort(uint32_t port) const
{
    return m_nic && port < m_nic->GetNPorts();
}

void
MrcMultipathQueuePair::DoConnect()
{
    const uint32_t nPorts = m_nic->GetNPorts();
    if (!m_profile)
    {
        m_profile = CreateObject<MrcEvProfile>();
        const bool anyCarrier = std::any_of(m_candidates.begin(),
                                            m_candidates.end(),
                                            [](const MrcEvCandidate& c) { return c.hasCarrier; });
        m_profile->SetFormat(anyCarrier ? MrcEvProfile::SRV6 : MrcEvProfile::STRUCTURED);
    }
    m_paths = CreateEntropySelector(m_pathsTypeId);
    if (Ptr<MrcEvTable> table = DynamicCast<MrcEvTable>(m_paths))
    {
        // set-up only: the EV table generates its EVs from the QP's profile and candidates
        table->SetProfile(m_profile);
        table->SetCandidates(m_candidates);
    }
    m_paths->Init(m_qpn, m_remoteQpn, nPorts);
    // The selector made its EVs: the candidates are not read again (a QP connects once), and
    // at 128 and more EVs they are several KB a queue pair (all-to-all: one per host pair)
    std::vector<MrcEvCandidate>().swap(m_candidates);
    m_paths->SetBaseRtt(m_baseRtt);
    m_paths->SetProbeSender(MakeCallback(&MrcMultipathQueuePair::SendEvProbe, this));

    MrcSackScoreboard::Config cfg;
    cfg.capacityPsns = uint32_t(m_mpr) * MrcReceiveBitmap::MPR_UNIT_PSNS;
    ConfigureLossRule(cfg);
    m_sb = std::make_unique<MrcSackScoreboard>(cfg, m_initialPsn & MrcBthHeader::PSN_MASK);
    m_peerMpr = m_mpr;
    SetUpResponder(uint32_t(m_mpr) * MrcReceiveBitmap::MPR_UNIT_PSNS);
    if (m_tailProbeDelay.IsZero())
    {
        m_tailProbeDelay = m_baseRtt * 2;
    }
    if (m_revProbeInterval.IsZero())
    {
        m_revProbeInterval = m_baseRtt; // P1 sec. 2.4: one reverse-EV probe per RTT
    }
    MrcPathChoice none;
    none.port = MrcPathSelector::NO_PORT;
    m_revEv.assign(nPorts, none);
    for (uint32_t p = 0; p < nPorts; ++p)
    {
        Ptr<MrcNetDevice> dev = m_nic->GetDevice(p);
        dev->AddLinkChangeCallback(
            MakeCallback(&MrcMultipathQueuePair::LocalLinkChanged, this).Bind(p));
        if (!dev->IsLinkUp())
        {
            m_paths->SetLocalPortUp(p, false);
        }
    }
    // The NIC's Port Status agent sends and applies this QP's Port Status Updates. (A
    // controller learns of this QP through the NIC's QueuePairConnected trace.)
    m_portStatus = MrcPortStatusAgent::Install(m_nic);
}

void
MrcMultipathQueuePair::DoEnterError()
{
    m_timer.Remove();
    m_tailProbe.Remove();
    Simulator::Remove(m_retry);
    m_revProbeTimer.Remove();
    m_guardWant = Time::Max(); // a pending guard re-check does nothing
    if (m_portStatus)
    {
        m_portStatus->StopQp(m_qpn);
    }
    m_wqeMsn.clear();
    StopPathSelector(); // the EV states stay readable
}

void
MrcMultipathQueuePair::StopPathSelector()
{
    if (m_paths && !m_pathsDisposed)
    {
        // stop probing: no event keeps the simulation alive
        m_paths->SetProbeSender(Callback<void, const MrcPathChoice&>());
        m_paths->Dispose();
        m_pathsDisposed = true;
    }
}

} // namespace ns3
