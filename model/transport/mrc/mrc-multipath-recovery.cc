/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MrcMultipathQueuePair, part of its implementation (see mrc-multipath-queue-pair.h):
// Requester, loss recovery: SACK and NACK processing (scoreboard, congestion control, path
// feedback), loss inference (SLEEK, tail probes), the backed-off retransmission timer and the
// probes.

#include "mrc-multipath-queue-pair.h"

#include "ns3/log.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-cc-state-header.h"
#include "ns3/mrc-heap-scheduler.h"
#include "ns3/mrc-nscc.h"
#include "ns3/mrc-opcodes.h"
#include "ns3/mrc-peth-header.h"
#include "ns3/mrc-rdma-nic.h"
#include "ns3/mrc-reusable-event.h"
#include "ns3/mrc-traffic-class.h"
#include "ns3/mrc-tseth-header.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcMultipathRecovery");

void
MrcMultipathQueuePair::ReceiveSack(const MrcRxPacket& rx)
{
    const uint8_t* h = rx.headers + rx.extOffset;
    // reused (MrcFreshHeader): nothing below receives another SACK before this one is done
    static MrcSethHeader sethScratch;
    static MrcCcStateHeader ccsScratch;
    MrcSethHeader& seth = MrcFreshHeader(sethScratch);
    MrcCcStateHeader& ccs = MrcFreshHeader(ccsScratch);
    ReadHeaders(h, seth, ccs);
    const Time now = MrcNow();
    const bool pr = seth.IsProbeResponse();
    const MrcPathFeedback m = seth.GetPathFeedback();
    if (pr)
    {
        ++m_mpCounters.probesAnswered;
        m_paths->ProbeAnswered(seth.GetEntropy(), MrcPathSignalOfSack(m));
        ReverseProbeAnswered(seth);
    }
    else
    {
        m_paths->Feedback(seth.GetEntropy(), MrcPathSignalOfSack(m));
    }
    if (m_dynamicMpr && seth.GetMpr() > 0)
    {
        m_peerMpr = seth.GetMpr();
    }

    const MrcSackUpdate& upd =
        pr ? m_sb->OnSack(seth.GetCackPsn(), seth.GetSackBasePsn(), seth.GetSackBitmap(), now)
           : m_sb->OnSack(seth, now);
    // (upd is the scoreboard's reused result: read it before the next scoreboard call)
    const MrcCcAck ack = CcAckOf(seth, ccs, upd, now);
    const bool anyAcked = !upd.acked.empty();
    HandleLosses(upd, false);
    ArmGuardTimer();
    if (m_sleek && !pr && m_lossRule == LOSS_COUNT)
    {
        SleekCheck(ccs.GetOooCount());
    }
    const bool tailProbeAnswer = pr && m_tailProbeOutstanding && seth.GetProbeId() == m_tailProbeId;
    if (tailProbeAnswer)
    {
        TailProbeAnswered(seth, now);
    }
    m_cc.inflight = static_cast<int64_t>(m_sb->GetBytesInFlight());
    if (anyAcked)
    {
        m_retries = 0;
        m_ccOps->OnAck(m_cc, ack);
    }
    TraceCc();
    if (AfterAckProgress())
    {
        m_retries = 0;
    }
    if (m_state != MrcQpState::RTS)
    {
        return;
    }
    // An answer to an EV probe that acknowledges nothing tells of the probed path, not of
    // the data outstanding: it does not restart the tail-probe clock. (If it did, a QP that
    // keeps probing ASSUMED_BAD EVs would postpone its own tail probe, and a loss at a
    // message's tail would wait for the timeout.)
    ArmTailProbe(!pr || tailProbeAnswer || anyAcked);
    NotifyReady();
}

MrcCcAck
MrcMultipathQueuePair::CcAckOf(const MrcSethHeader& seth,
                               const MrcCcStateHeader& ccs,
                               const MrcSackUpdate& upd,
                               Time now) const
{
    const bool pr = seth.IsProbeResponse();
    MrcCcAck ack;
    ack.newlyAckedBytes = upd.ackedBytes;
    ack.ecnEcho = !pr && seth.GetPathFeedback() != MrcPathFeedback::NONE;
    ack.rcvCwndPend = ccs.GetRcvCwndPen();
    ack.restoreCwnd = ccs.GetRestoreCwnd();
    ack.serviceTime = pr ? Time(0) : m_serviceTime;
    if (!pr)
    {
        if (m_timestamps)
        {
            ack.rttValid = true;
            ack.rttSample = MrcTsethHeader::ElapsedBetween(ccs.GetTxTimestamp(),
                                                           MrcTsethHeader::TimeToTicks(now));
        }
        else
        {
            const uint32_t ackPsn = seth.GetAckPsn();
            for (const MrcPsnEvent& e : upd.acked)
            {
                if (e.psn == ackPsn)
                {
                    ack.retransmitted = e.record.retxCount > 0;
                    ack.rttSample = now - e.record.sendTime;
                    // [U]: valid if never retransmitted, or retransmitted once and the ACK
                    // answers that copy (Retx echo). SETH has no Retx echo: a PSN sent
                    // twice counts as answered by its retransmission when the sample is at
                    // least the base RTT (an earlier copy's SACK would come back sooner).
                    ack.rttValid =
                        !ack.retransmitted ||
                        (m_retxRttSamples && e.record.retxCount == 1 && ack.rttSample >= m_baseRtt);
                    break;
                }
            }
        }
    }
    if (ack.rttValid && ack.serviceTime.IsStrictlyPositive())
    {
        ack.rttSample = std::max(ack.rttSample - ack.serviceTime, Time(0)); // RTT - service time
    }
    return ack;
}

void
MrcMultipathQueuePair::SleekCheck(uint32_t oooCount)
{
    // UEC SLEEK (protocol reference Q4): enter recovery when the receiver holds
    // max(min(LossOooCwndFactor x cwnd, maxwnd), LossOooMinPkts x MTU) / MTU packets
    // out of order
    const uint64_t mtu = std::max<uint32_t>(m_mtu, 1);
    uint64_t maxWnd = uint64_t(m_sb->GetCapacity()) * mtu;
    if (Ptr<MrcNscc> nscc = DynamicCast<MrcNscc>(m_ccOps))
    {
        maxWnd = nscc->GetMaxWnd();
    }
    const double cwnd = static_cast<double>(std::min<uint64_t>(m_cc.cwnd, maxWnd));
    const uint64_t bytes = std::max<uint64_t>(
        static_cast<uint64_t>(std::min(m_lossOooCwndFactor * cwnd, double(maxWnd))),
        uint64_t(m_lossOooMinPkts) * mtu);
    if (oooCount >= bytes / mtu)
    {
        const uint32_t limit = static_cast<uint32_t>(
            std::min<uint64_t>(std::max<uint64_t>(m_cc.cwnd / mtu, 1), m_sb->GetCapacity()));
        HandleLosses(m_sb->StartRecovery(limit), false);
    }
}

void
MrcMultipathQueuePair::TailProbeAnswered(const MrcSethHeader& seth, Time now)
{
    // a tail probe's answer: what was sent before the probe and is still not SACKed is lost
    // (only when one SACK block covers every outstanding PSN, so "not SACKed" means "not
    // arrived")
    m_tailProbeOutstanding = false;
    // Only the block the answer's bitmap covers: beyond it "not SACKed" says nothing.
    // (Before: only when at most 64 PSNs were outstanding, so a tail of more than 64
    // PSNs, e.g. after a dead path ate part of a window, waited for the timeout.)
    const uint32_t end =
        (seth.GetSackBasePsn() + MrcSethHeader::SACK_BITMAP_BITS) & MrcSackScoreboard::PSN_MASK;
    const MrcSackUpdate& late = m_sb->OnTimeoutBelow(now, now - m_tailProbeSentAt, end);
    HandleLosses(late, false);
}

void
MrcMultipathQueuePair::ReceiveNack(const MrcRxPacket& rx)
{
    static MrcNethHeader nethScratch; // reused: see MrcFreshHeader
    MrcNethHeader& neth = MrcFreshHeader(nethScratch);
    ReadHeaders(rx.headers + rx.extOffset, neth);
    const MrcNackReason reason = neth.GetNackReason();
    const uint32_t psn = neth.GetNackPsn();
    if (reason == MrcNackReason::UNEXP_EVENT)
    {
        std::ostringstream why;
        why << "NACK UNEXP_EVENT for PSN " << psn << " (fatal)";
        EnterError(MrcQpError::REMOTE_OP_ERROR, why.str(), MrcWcStatus::REMOTE_OP_ERROR);
        return;
    }
    const bool trimmed =
        reason == MrcNackReason::TRIMMED || reason == MrcNackReason::TRIMMED_LASTHOP;
    if (MrcNackReasonPenalizesEv(reason))
    {
        m_paths->Feedback(neth.GetEntropy(), MrcPathSignal::NACK); // only a trim blames the path
    }
    const MrcPsnRecord* r = m_sb->OnNack(psn);
    bool wasRetransmission = false;
    if (r)
    {
        wasRetransmission = r->retxCount > 0;
        const uint32_t bytes = r->bytes;
        // Karn's rule: a NACK for a PSN sent more than once cannot tell which copy it
        // answers, so it carries no RTT sample (a stale copy's NACK just after the
        // retransmission would otherwise set base_rtt far too low).
        const Time rtt = wasRetransmission ? Time(0) : MrcNow() - r->sendTime;
        const MrcCcNackKind kind = reason == MrcNackReason::TRIMMED ? MrcCcNackKind::TRIMMED
                                   : reason == MrcNackReason::TRIMMED_LASTHOP
                                       ? MrcCcNackKind::TRIMMED_LAST_HOP
                                       : MrcCcNackKind::OTHER;
        m_cc.inflight = static_cast<int64_t>(m_sb->GetBytesInFlight());
        m_ccOps->OnNackWithRtt(m_cc, bytes, kind, rtt);
        TraceCc();
    }
    if (trimmed)
    {
        ++m_mpCounters.trimNacksReceived;
    }
    else if (wasRetransmission)
    {
        // another NACK for a packet already retried: it counts against the retry counter
        ++m_retries;
        if (m_expCount < EXP_COUNT_INFINITE && m_retries > m_linearCount + m_expCount)
        {
            std::ostringstream why;
            why << "retry counter exceeded: NACK " << MrcNackReasonToString(reason) << " for PSN "
                << psn << " after " << (m_retries - 1) << " retries";
            RetryExceeded(why.str());
            return;
        }
    }
    ArmTimer();
    NotifyReady();
}

void
MrcMultipathQueuePair::OnLostPsn(const MrcPsnEvent& e, bool timeout)
{
    // a later packet of the same path delivered: the path works (LossOnLivePath)
    const bool live = m_sb->PathDeliveredAbove(e.psn);
    if (timeout)
    {
        ++m_mpCounters.timedOutPsns;
        if (!m_timeoutMarksBad)
        {
            return;
        }
        if (live)
        {
            m_paths->LossOnLivePath(e.record.ev, MrcPathSignal::TIMEOUT);
        }
        else
        {
            m_paths->Feedback(e.record.ev, MrcPathSignal::TIMEOUT);
        }
    }
    else
    {
        ++m_mpCounters.inferredLosses;
        if (m_lossMarksBad)
        {
            if (live)
            {
                m_paths->LossOnLivePath(e.record.ev, MrcPathSignal::LOSS);
            }
            else
            {
                m_paths->Feedback(e.record.ev, MrcPathSignal::LOSS);
            }
        }
    }
}

bool
MrcMultipathQueuePair::AfterAckProgress()
{
    const bool progress = AdvanceUna();
    if (m_state != MrcQpState::RTS && m_state != MrcQpState::RTR)
    {
        return progress; // a completion put the QP in the error state
    }
    ArmTimer();
    return progress;
}

void
MrcMultipathQueuePair::ArmTimer()
{
    Time deadline;
    uint32_t psn;
    if (!m_sb->GetOldestDeadline(GetCurrentTimeout(), deadline, psn))
    {
        m_timer.Remove();
        return;
    }
    if (m_timer.IsPending() && m_timerAt <= deadline)
    {
        return; // fires early and re-arms itself
    }
    m_timer.Remove();
    const Time now = MrcNow();
    m_timerAt = std::max(deadline, now);
    m_timer.Set(Simulator::Schedule(m_timerAt - now, &MrcMultipathQueuePair::OnTimer, this));
}

void
MrcMultipathQueuePair::OnTimer()
{
    m_timer.Fired();
    if (m_state != MrcQpState::RTS)
    {
        return;
    }
    const Time now = MrcNow();
    const Time rto = GetCurrentTimeout();
    Time deadline;
    uint32_t psn;
    if (!m_sb->GetOldestDeadline(rto, deadline, psn))
    {
        return;
    }
    if (deadline > now)
    {
        m_timerAt = deadline;
        m_timer.Set(Simulator::Schedule(deadline - now, &MrcMultipathQueuePair::OnTimer, this));
        return;
    }
    ++m_counters.timeouts;
    ++m_retries;
    NS_LOG_LOGIC("QP " << m_qpn << " timeout " << m_retries << " at PSN " << psn << " (rto "
                       << rto.As(Time::US) << ")");
    if (m_expCount < EXP_COUNT_INFINITE && m_retries > m_linearCount + m_expCount)
    {
        std::ostringstream why;
        why << "retry counter exceeded: " << m_retries << " timeouts without progress at PSN "
            << psn << " (LinearCount " << m_linearCount << ", ExpCount " << m_expCount
            << ", TimeoutExponent " << m_timeoutExp << ")";
        RetryExceeded(why.str());
        return;
    }
    const MrcSackUpdate& upd = m_sb->OnTimeout(now, rto);
    HandleLosses(upd, true);
    TraceCc();
    ArmTimer();
    NotifyReady();
}

void
MrcMultipathQueuePair::ArmGuardTimer()
{
    // RACK's reorder timer, for the guarded backstops: a PSN the guard held back is
    // re-checked at its expiry, not only at the next SACK (at a message's tail there may
    // be none before the timeout). One reusable event per QP, nothing allocated per
    // firing: a firing that is early re-arms, one that is no longer needed does nothing.
    Time at;
    if (!m_sb->GetGuardExpiry(at))
    {
        m_guardWant = Time::Max();
        return;
    }
    m_guardWant = at;
    const Time now = MrcNow();
    if (m_guardFireAt >= now && m_guardFireAt <= at)
    {
        return; // a firing at or before the expiry is pending
    }
    if (!m_guardEvent)
    {
        m_guardEvent = Create<MrcReusableEvent>([this]() { OnGuardTimer(); });
    }
    m_guardFireAt = std::max(at, now);
    MrcScheduleAgain(m_guardEvent, Simulator::GetContext(), m_guardFireAt - now);
}

void
MrcMultipathQueuePair::OnGuardTimer()
{
    const Time now = MrcNow();
    if (now == m_guardFireAt)
    {
        m_guardFireAt = Time::Max(); // the earliest pending firing is this one
    }
    if (m_state != MrcQpState::RTS || m_guardWant == Time::Max())
    {
        return;
    }
    if (now < m_guardWant)
    {
        ArmGuardTimer(); // the held PSN changed: the next expiry is later
        return;
    }
    ++m_mpCounters.guardRechecks;
    const MrcSackUpdate& upd = m_sb->OnGuardExpiry(now);
    NS_LOG_LOGIC("QP " << m_qpn << " guard re-check: " << upd.lost.size() << " PSNs lost");
    const bool anyLost = !upd.lost.empty();
    m_mpCounters.guardLosses += upd.lost.size();
    HandleLosses(upd, false);
    ArmGuardTimer();
    if (anyLost)
    {
        TraceCc();
        ArmTimer();
        NotifyReady();
    }
}

void
MrcMultipathQueuePair::RetryExceeded(const std::string& why)
{
    EnterError(MrcQpError::RETRY_EXCEEDED, why, MrcWcStatus::RETRY_EXCEEDED);
}

void
MrcMultipathQueuePair::ArmTailProbe(bool activity)
{
    if (activity)
    {
        m_lastActivity = MrcNow();
    }
    if (m_tailProbeDelay.IsZero() || m_tailProbe.IsPending())
    {
        return;
    }
    if (m_sb->GetOutstandingPsns() == 0 && !AwaitingTransportAck())
    {
        return;
    }
    m_tailProbe.Set(
        Simulator::Schedule(m_tailProbeDelay, &MrcMultipathQueuePair::OnTailProbe, this));
}

void
MrcMultipathQueuePair::OnTailProbe()
{
    m_tailProbe.Fired();
    if (m_state != MrcQpState::RTS || (m_sb->GetOutstandingPsns() == 0 && !AwaitingTransportAck()))
    {
        return;
    }
    const Time now = MrcNow();
    if (now < m_lastActivity + m_tailProbeDelay)
    {
        m_tailProbe.Set(Simulator::Schedule(m_lastActivity + m_tailProbeDelay - now,
                                            &MrcMultipathQueuePair::OnTailProbe,
                                            this));
        return;
    }
    if (!CanRetransmit() && !CanSendNew())
    {
        uint32_t mask = 0;
        for (uint32_t p = 0; p < m_nic->GetNPorts(); ++p)
        {
            if (m_nic->GetDevice(p)->IsLinkUp())
            {
                mask |= 1u << p;
            }
        }
        MrcPathRequest r;
        r.ports = mask;
        const MrcPathChoice path = m_paths->Select(r);
        if (path.port != MrcPathSelector::NO_PORT)
        {
            m_tailProbeId = ++m_nextProbeId;
            m_tailProbeOutstanding = true;
            m_tailProbeSentAt = now;
            SendProbe(path, m_tailProbeId);
        }
    }
    m_lastActivity = now;
    m_tailProbe.Set(
        Simulator::Schedule(m_tailProbeDelay, &MrcMultipathQueuePair::OnTailProbe, this));
}

void
MrcMultipathQueuePair::SendEvProbe(const MrcPathChoice& path)
{
    if (m_state != MrcQpState::RTS)
    {
        return;
    }
    SendProbe(path, ++m_nextProbeId);
}

void
MrcMultipathQueuePair::SendProbe(const MrcPathChoice& path, uint16_t probeId)
{
    const uint32_t port = path.port;
    if (port >= m_nic->GetNPorts() || !m_nic->GetDevice(port)->IsLinkUp())
    {
        return;
    }
    Ptr<Packet> p = NewPacket();
    MrcPethHeader peth;
    peth.SetProbeId(probeId);
    peth.SetTxTimestamp(MrcTsethHeader::TimeToTicks(MrcNow()));
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::MRC_PROBE);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(0); // probes use no PSN
    Encapsulate(p,
                port,
                path.ev,
                path.carrier,
                m_dataDscp,
                m_ecnCapable ? MrcEcn::ECT0 : MrcEcn::NOT_ECT,
                {&bth, &peth});
    ++m_mpCounters.probesSent;
    SendControl(port, p, m_dataDscp, CONTROL_UNCOUNTED);
}

} // namespace ns3
