/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MrcMultipathQueuePair, part of its implementation (see mrc-multipath-queue-pair.h):
// Responder: the hooks of the sprayed responder (trimmed arrivals, out-of-window and access-error
// NACKs, CE-run path feedback), SACKs, NACKs, probe answers and the reverse path of control
// packets.

#include "mrc-multipath-queue-pair.h"

#include "ns3/log.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-cc-state-header.h"
#include "ns3/mrc-entropy.h"
#include "ns3/mrc-heap-scheduler.h"
#include "ns3/mrc-opcodes.h"
#include "ns3/mrc-peth-header.h"
#include "ns3/mrc-rdma-nic.h"
#include "ns3/mrc-traffic-class.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcMultipathResponder");

void
MrcMultipathQueuePair::ReceiveOther(const MrcRxPacket& rx)
{
    const uint8_t op = rx.opcode;
    if (op == MrcOpcode::MRC_ENDPOINT_REQUEST)
    {
        ReceivePortStatus(rx);
    }
    else if (op == MrcOpcode::MRC_ENDPOINT_RESPONSE)
    {
        ReceivePortStatusResponse(rx);
    }
    else if (op == MrcOpcode::MRC_TRANSPORT_ACK)
    {
        ReceiveTransportAck(rx);
    }
    else
    {
        NS_LOG_LOGIC("QP " << m_qpn << ": opcode " << unsigned(op) << " ignored");
    }
}

uint32_t
MrcMultipathQueuePair::EvOf(const MrcRxPacket& rx) const
{
    const MrcPacketInfo& i = *rx.info;
    return MrcEvDecode(i.udpSrcPort,
                       i.encapsulated ? i.innerFlowLabel : i.flowLabel,
                       m_srcPortHigh ? MrcEvSplit::SRC_PORT_HIGH : MrcEvSplit::SRC_PORT_LOW);
}

void
MrcMultipathQueuePair::OnTrimmedArrival(const MrcRxPacket& rx, const Arrival& a, bool lastHop)
{
    ++m_mpCounters.trimNacksSent;
    SendNack(rx.port,
             rx.psn,
             a.ev,
             lastHop ? MrcNackReason::TRIMMED_LASTHOP : MrcNackReason::TRIMMED,
             a.tsEcho);
}

void
MrcMultipathQueuePair::OnOutOfWindow(const MrcRxPacket& rx, const Arrival& a)
{
    ++m_mpCounters.oorNacksSent;
    SendNack(rx.port, rx.psn, a.ev, MrcNackReason::PSN_OOR_WINDOW, a.tsEcho);
}

void
MrcMultipathQueuePair::OnAccessError(const MrcRxPacket& rx,
                                     const Arrival& a,
                                     uint32_t rkey,
                                     uint64_t va)
{
    NS_LOG_LOGIC("QP " << m_qpn << ": rkey " << rkey << " [" << va << ", +" << rx.payloadBytes
                       << ") rejected");
    SendNack(rx.port, rx.psn, a.ev, MrcNackReason::UNEXP_EVENT, a.tsEcho);
}

void
MrcMultipathQueuePair::SetFeedback(Arrival& a)
{
    const bool relative = m_alwaysSkipRule == ALWAYS_SKIP_RELATIVE;
    if (a.ce)
    {
        CeRun& run = m_ceRun[a.ev];
        if (run.count++ == 0)
        {
            run.since = MrcNow();
        }
        const bool withheld = relative && PlaneMarkedAlone(a, run.since);
        if (m_alwaysSkipCeRun > 0 && run.count >= m_alwaysSkipCeRun)
        {
            a.feedback = withheld ? MrcPathFeedback::SKIP_ONCE : MrcPathFeedback::ALWAYS_SKIP;
            ++(withheld ? m_mpCounters.alwaysSkipWithheld : m_mpCounters.alwaysSkipSent);
        }
        else
        {
            a.feedback = MrcPathFeedback::SKIP_ONCE;
        }
        return;
    }
    if (relative)
    {
        PlaneMarkedAlone(a, Time::Max());
    }
    if (!m_ceRun.empty())
    {
        m_ceRun.Erase(a.ev);
    }
}

bool
MrcMultipathQueuePair::PlaneMarkedAlone(const Arrival& a, Time since)
{
    // The responder cannot see paths, only EVs and the port (plane) they arrive on. A
    // run of CE marks on one EV says that EV's path is congested; when at the same time
    // the QP's other arrivals on that plane are mostly marked too and another plane's
    // are not, the congestion is the plane's (a plane short of capacity marks every path
    // through it), and as the sender replaces a retired EV from the same plane, retiring
    // it moves nothing: SKIP_ONCE and the congestion control handle it instead.
    if (a.port >= m_planeMarks.size())
    {
        m_planeMarks.resize(a.port + 1);
    }
    PlaneMarks& own = m_planeMarks[a.port];
    own.ceShare += ((a.ce ? 1.0 : 0.0) - own.ceShare) / 16;
    own.last = MrcNow();
    if (!a.ce || own.ceShare < m_planeMarkedShare)
    {
        return false;
    }
    for (uint32_t q = 0; q < m_planeMarks.size(); ++q)
    {
        const PlaneMarks& other = m_planeMarks[q];
        if (q != a.port && other.last >= since && other.ceShare < m_planeMarkedShare)
        {
            return true;
        }
    }
    return false;
}

void
MrcMultipathQueuePair::SendDataAck(uint32_t port, uint32_t psn, const Arrival& a)
{
    SendSack(port, psn, a.ev, a.feedback, false, 0, a.tsEcho);
    NoteInboundData(); // after the SACK: a probe never delays it
}

void
MrcMultipathQueuePair::ReceiveProbe(const MrcRxPacket& rx)
{
    MrcPethHeader peth;
    ReadHeaders(rx.headers + rx.extOffset, peth);
    const MrcPathFeedback m =
        rx.GetEcn() == MrcEcn::CE ? MrcPathFeedback::SKIP_ONCE : MrcPathFeedback::NONE;
    SendSack(rx.port,
             m_rxWin->GetCumulativePsn(),
             EvOf(rx),
             m,
             true,
             peth.GetProbeId(),
             peth.GetTxTimestamp());
    m_sackPolicy->OnSackSent();
    if (m_tackMessages > 0 && m_rxMessages.GetNextMsn() > 0)
    {
        // repeat the cumulative Transport ACK: a requester that waits for a lost one
        // (CompleteOnTransportAck) probes the tail
        SendTransportAck(rx.port, EvOf(rx));
    }
}

void
MrcMultipathQueuePair::SendSack(uint32_t port,
                                uint32_t triggerPsn,
                                uint32_t ev,
                                MrcPathFeedback m,
                                bool probe,
                                uint16_t probeId,
                                uint16_t tsEcho)
{
    // the headers are reused (MrcFreshHeader): SendReverse adds their bytes at once
    static MrcSethHeader sethScratch;
    static MrcCcStateHeader ccsScratch;
    static MrcBthHeader bthScratch;
    MrcSethHeader& seth = MrcFreshHeader(sethScratch);
    m_rxWin->FillSeth(seth, triggerPsn);
    if (probe)
    {
        seth.SetProbeResponse(true);
        seth.SetProbeId(probeId);
    }
    seth.SetEntropy(ev);
    seth.SetPathFeedback(m);
    seth.SetCcType(MrcSethHeader::CC_TYPE_NSCC);
    MrcCcStateHeader& ccs = MrcFreshHeader(ccsScratch);
    m_rxWin->FillCcState(ccs);
    ccs.SetRcvdBytesUnits(MrcCcStateHeader::BytesToRcvdUnits(m_rcvdBytes));
    const MrcRcvBackpressure::Fields bp = m_rcvBp.OnSack(MrcNow());
    ccs.SetRcvCwndPen(bp.pen);
    ccs.SetRestoreCwnd(bp.restore);
    m_mpCounters.penaltySacks += bp.pen > 0 ? 1 : 0;
    m_mpCounters.restoreSacks += bp.restore ? 1 : 0;
    ccs.SetTxTimestamp(tsEcho);
    MrcBthHeader& bth = MrcFreshHeader(bthScratch);
    bth.SetOpcode(MrcOpcode::MRC_SACK);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(m_rxWin->GetCumulativePsn());
    Ptr<Packet> p = NewPacket();
    SendReverse(port, p, ev, CONTROL_ACK, {&bth, &seth, &ccs});
}

void
MrcMultipathQueuePair::SendNack(uint32_t port,
                                uint32_t psn,
                                uint32_t ev,
                                MrcNackReason reason,
                                uint16_t tsEcho)
{
    static MrcNethHeader nethScratch; // reused: see MrcFreshHeader
    static MrcBthHeader bthScratch;
    MrcNethHeader& neth = MrcFreshHeader(nethScratch);
    neth.SetNackReason(reason);
    neth.SetEntropy(ev);
    neth.SetNackPsn(psn & MrcBthHeader::PSN_MASK);
    neth.SetTxTimestamp(tsEcho);
    MrcBthHeader& bth = MrcFreshHeader(bthScratch);
    bth.SetOpcode(MrcOpcode::MRC_NACK);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(psn & MrcBthHeader::PSN_MASK);
    Ptr<Packet> p = NewPacket();
    SendReverse(port, p, ev, CONTROL_NAK, {&bth, &neth});
}

void
MrcMultipathQueuePair::SendReverse(uint32_t port,
                                   Ptr<Packet> p,
                                   uint32_t echoedEv,
                                   uint8_t kind,
                                   std::initializer_list<const MrcWireHeader*> transport)
{
    // The selector's reverse path (the EV table rotates over the GOOD active EVs of the
    // plane: a reverse path that died silently then loses only some control packets, and
    // the cumulative SACK covers them); else the EV this packet answers.
    // With ReversePath Probed a QP that only receives uses the plane's reverse EV, the
    // last one a reverse-EV probe found working (P1 sec. 2.4); a QP that sends data learns
    // its EVs' health from the SACKs of its data, and rotates.
    const bool probed = m_reversePath == REVERSE_PROBED && port < m_revEv.size() &&
                        m_revEv[port].port != MrcPathSelector::NO_PORT && IsInboundOnly();
    const MrcPathChoice path = probed ? m_revEv[port] : m_paths->SelectReverse(port);
    if (path.port != MrcPathSelector::NO_PORT)
    {
        Encapsulate(p, port, path.ev, path.carrier, m_controlDscp, MrcEcn::NOT_ECT, transport);
    }
    else
    {
        Encapsulate(p, port, echoedEv, nullptr, m_controlDscp, MrcEcn::NOT_ECT, transport);
    }
    SendControl(port, p, m_controlDscp, kind);
}

bool
MrcMultipathQueuePair::IsInboundOnly() const
{
    return m_sendQueue.empty() && (!m_sb || m_sb->GetOutstandingPsns() == 0);
}

void
MrcMultipathQueuePair::NoteInboundData()
{
    if (m_reversePath != REVERSE_PROBED || !m_revProbeInterval.IsStrictlyPositive())
    {
        return;
    }
    m_revRxSeen = true;
    if (!m_revProbeTimer.IsPending())
    {
        OnReverseProbeTimer(); // the first probe goes right after the first SACK
    }
}

void
MrcMultipathQueuePair::OnReverseProbeTimer()
{
    // runs once per interval while the QP is active inbound (P1 sec. 5 "Reverse path", sec. 6
    // "Probe interval"): data arrived in the last interval, or a message has started
    // arriving and is not complete (its sender may be stalled because our control packets
    // die on a dead reverse EV: the probes are what finds a live one). Stops when neither
    // holds, so an idle QP does not probe; the next arrival starts it again.
    m_revProbeTimer.Fired(); // (also when called directly: then it was not pending)
    if ((!m_revRxSeen && !m_rxMessages.HasPending()) ||
        (m_state != MrcQpState::RTS && m_state != MrcQpState::RTR))
    {
        return;
    }
    m_revRxSeen = false;
    if (IsInboundOnly())
    {
        // the planes in turn; on each a random GOOD EV (the EV table's rotation order,
        // reshuffled every round)
        const uint32_t nPorts = m_nic->GetNPorts();
        for (uint32_t k = 0; k < nPorts; ++k)
        {
            const uint32_t port = (m_revNextPlane + k) % nPorts;
            if (!m_nic->GetDevice(port)->IsLinkUp() || !m_paths->CanUsePort(port))
            {
                continue;
            }
            MrcPathRequest r;
            r.port = port;
            const MrcPathChoice path = m_paths->Select(r);
            if (path.port == MrcPathSelector::NO_PORT)
            {
                continue;
            }
            m_revNextPlane = (port + 1) % nPorts;
            // earlier probes stay answerable: under queueing a round trip takes longer
            // than the probe interval, and P1 sets the reverse EV for any acknowledged
            // probe (our choice: the last REV_PROBES_KEPT are remembered)
            if (m_revProbes.size() >= REV_PROBES_KEPT)
            {
                m_revProbes.pop_front();
            }
            m_revProbes.push_back({++m_nextProbeId, path});
            ++m_mpCounters.revProbesSent;
            SendProbe(path, m_revProbes.back().id);
            break;
        }
    }
    m_revProbeTimer.Set(
        Simulator::Schedule(m_revProbeInterval, &MrcMultipathQueuePair::OnReverseProbeTimer, this));
}

void
MrcMultipathQueuePair::ReverseProbeAnswered(const MrcSethHeader& seth)
{
    auto it = m_revProbes.begin();
    while (it != m_revProbes.end() && it->id != seth.GetProbeId())
    {
        ++it;
    }
    if (it == m_revProbes.end())
    {
        return;
    }
    const MrcPathChoice probed = it->path;
    m_revProbes.erase(it);
    // P1 sec. 2.4: an answered probe makes its EV the plane's reverse EV, whatever the answer
    // says of congestion (the answer P1 names, an EV Probe's EETH response, carries no m; a
    // CE-marked probe still found a live path)
    ++m_mpCounters.revProbesAnswered;
    m_mpCounters.revAnsweredCe += seth.GetPathFeedback() != MrcPathFeedback::NONE ? 1 : 0;
    MrcPathChoice& rev = m_revEv[probed.port];
    if (rev.port == MrcPathSelector::NO_PORT || rev.ev != probed.ev)
    {
        ++m_mpCounters.reverseEvChanges;
    }
    rev = probed;
}

} // namespace ns3
