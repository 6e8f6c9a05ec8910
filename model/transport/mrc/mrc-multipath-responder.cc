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
#include "ns3/mrc-opcodes.h"
#include "ns3/mrc-peth-header.h"
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
    if (a.ce)
    {
        const uint32_t run = ++m_ceRun[a.ev];
        a.feedback = (m_alwaysSkipCeRun > 0 && run >= m_alwaysSkipCeRun)
                         ? MrcPathFeedback::ALWAYS_SKIP
                         : MrcPathFeedback::SKIP_ONCE;
    }
    else if (!m_ceRun.empty())
    {
        m_ceRun.Erase(a.ev);
    }
}

void
MrcMultipathQueuePair::SendDataAck(uint32_t port, uint32_t psn, const Arrival& a)
{
    SendSack(port, psn, a.ev, a.feedback, false, 0, a.tsEcho);
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
    MrcSethHeader seth;
    m_rxWin->FillSeth(seth, triggerPsn);
    if (probe)
    {
        seth.SetProbeResponse(true);
        seth.SetProbeId(probeId);
    }
    seth.SetEntropy(ev);
    seth.SetPathFeedback(m);
    seth.SetCcType(MrcSethHeader::CC_TYPE_NSCC);
    MrcCcStateHeader ccs;
    m_rxWin->FillCcState(ccs);
    ccs.SetRcvdBytesUnits(MrcCcStateHeader::BytesToRcvdUnits(m_rcvdBytes));
    const MrcRcvBackpressure::Fields bp = m_rcvBp.OnSack(Simulator::Now());
    ccs.SetRcvCwndPen(bp.pen);
    ccs.SetRestoreCwnd(bp.restore);
    m_mpCounters.penaltySacks += bp.pen > 0 ? 1 : 0;
    m_mpCounters.restoreSacks += bp.restore ? 1 : 0;
    ccs.SetTxTimestamp(tsEcho);
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::MRC_SACK);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(m_rxWin->GetCumulativePsn());
    Ptr<Packet> p = Create<Packet>();
    MrcAddHeaders(p, {&bth, &seth, &ccs});
    SendReverse(port, p, ev, CONTROL_ACK);
}

void
MrcMultipathQueuePair::SendNack(uint32_t port,
                                uint32_t psn,
                                uint32_t ev,
                                MrcNackReason reason,
                                uint16_t tsEcho)
{
    MrcNethHeader neth;
    neth.SetNackReason(reason);
    neth.SetEntropy(ev);
    neth.SetNackPsn(psn & MrcBthHeader::PSN_MASK);
    neth.SetTxTimestamp(tsEcho);
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::MRC_NACK);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(psn & MrcBthHeader::PSN_MASK);
    Ptr<Packet> p = Create<Packet>();
    MrcAddHeaders(p, {&bth, &neth});
    SendReverse(port, p, ev, CONTROL_NAK);
}

void
MrcMultipathQueuePair::SendReverse(uint32_t port, Ptr<Packet> p, uint32_t echoedEv, uint8_t kind)
{
    // The selector's reverse path (the EV table rotates over the GOOD active EVs of the
    // plane: a reverse path that died silently then loses only some control packets, and
    // the cumulative SACK covers them); else the EV this packet answers.
    const MrcPathChoice path = m_paths->SelectReverse(port);
    if (path.port != MrcPathSelector::NO_PORT)
    {
        Encapsulate(p, port, path.ev, path.carrier, m_controlDscp, MrcEcn::NOT_ECT);
    }
    else
    {
        Encapsulate(p, port, echoedEv, nullptr, m_controlDscp, MrcEcn::NOT_ECT);
    }
    SendControl(port, p, m_controlDscp, kind);
}

} // namespace ns3
