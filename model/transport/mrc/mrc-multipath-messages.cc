/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MrcMultipathQueuePair, part of its implementation (see mrc-multipath-queue-pair.h):
// Messages: MSN and RQMSN numbering, the Write-with-Immediate limits (MaxWimm at the requester,
// MaxWimmDest at the responder) and Transport ACKs (sending, receiving, completion on Transport
// ACK).

#include "mrc-multipath-queue-pair.h"

#include "ns3/mrc-aeth-header.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-byte-io.h"
#include "ns3/mrc-opcodes.h"

#include <sstream>

namespace ns3
{

void
MrcMultipathQueuePair::DoPostSend(MrcSendWqe& wqe)
{
    if (wqe.wr.opcode != MrcWrOpcode::WRITE && wqe.wr.opcode != MrcWrOpcode::WRITE_WITH_IMM)
    {
        std::ostringstream why;
        why << "MRC supports only RDMA Write and Write-with-Immediate; work request " << wqe.wr.id
            << " has operation " << unsigned(wqe.wr.opcode);
        EnterError(MrcQpError::UNSUPPORTED_OPERATION, why.str(), MrcWcStatus::LOCAL_OP_ERROR);
        return;
    }
    const bool imm = wqe.wr.opcode == MrcWrOpcode::WRITE_WITH_IMM;
    m_wqeMsn.emplace_back(m_nextMsn, m_nextRqMsn);
    ++m_nextMsn;
    if (imm)
    {
        ++m_nextRqMsn;
    }
    NotifyReady();
}

void
MrcMultipathQueuePair::OnNewDataSent(const MrcSendWqe& w, uint64_t pktIdx)
{
    if (pktIdx == 0 && w.wr.opcode == MrcWrOpcode::WRITE_WITH_IMM)
    {
        ++m_wimmOutstanding;
    }
}

bool
MrcMultipathQueuePair::MayComplete(const MrcSendWqe& /* w */) const
{
    // with CompleteOnTransportAck a SACKed request also waits for the peer's report
    return !m_completeOnTack || m_completedRequests < m_tackedMessages;
}

void
MrcMultipathQueuePair::OnRequestCompleted(const MrcSendWqe& w)
{
    ++m_completedRequests;
    if (w.wr.opcode == MrcWrOpcode::WRITE_WITH_IMM && m_wimmOutstanding > 0)
    {
        --m_wimmOutstanding;
    }
    if (!m_wqeMsn.empty())
    {
        m_wqeMsn.pop_front();
    }
}

bool
MrcMultipathQueuePair::AdmitData(const MrcRxPacket& rx, const Arrival& a)
{
    if (m_maxWimmDest > 0 && MrcOpcode::HasImmediate(rx.opcode))
    {
        // max_wimm_dest: a Write-with-Immediate more than MaxWimmDest ahead of the last one
        // reported is an error (no RNR in MRC); RQMSN is the first METH field
        const auto reported = static_cast<uint16_t>(m_rxMessages.GetImmediateCount());
        const auto ahead =
            static_cast<int16_t>(MrcByteIo::ReadU16(rx.headers + rx.extOffset) - reported);
        if (ahead >= static_cast<int32_t>(m_maxWimmDest))
        {
            ++m_mpCounters.wimmDestExceeded;
            SendNack(rx.port, rx.psn, a.ev, MrcNackReason::UNEXP_EVENT, a.tsEcho);
            return false;
        }
    }
    return true;
}

void
MrcMultipathQueuePair::AfterDataAck(const MrcRxPacket& rx, const Arrival& a, uint32_t delivered)
{
    // a Transport ACK follows the SACK (reliability first)
    m_tackOwed += delivered;
    if (m_tackMessages > 0 && (m_tackOwed >= m_tackMessages || !m_rxMessages.HasPending()))
    {
        SendTransportAck(rx.port, a.ev);
    }
}

void
MrcMultipathQueuePair::SendTransportAck(uint32_t port, uint32_t ev)
{
    MrcAethHeader aeth;
    aeth.SetAck(MrcAethHeader::CREDIT_INVALID);
    aeth.SetMsn(static_cast<uint32_t>(m_rxMessages.GetNextMsn() & MrcAethHeader::MSN_MASK));
    Ptr<Packet> p = NewPacket();
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::MRC_TRANSPORT_ACK);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(m_rxWin->GetCumulativePsn());
    m_tackOwed = 0;
    ++m_mpCounters.transportAcksSent;
    SendReverse(port, p, ev, CONTROL_UNCOUNTED, {&bth, &aeth});
}

void
MrcMultipathQueuePair::ReceiveTransportAck(const MrcRxPacket& rx)
{
    if (rx.info->headerBytes < rx.extOffset + MrcAethHeader::SERIALIZED_SIZE)
    {
        return;
    }
    const uint8_t* h = rx.headers + rx.extOffset;
    MrcAethHeader aeth;
    aeth.SetSyndrome(h[0]);
    if (!aeth.IsAck())
    {
        return;
    }
    ++m_mpCounters.transportAcksRcvd;
    // MSN = messages the peer completed, mod 2^24: advance the unwrapped count
    const uint32_t msn = (uint32_t(h[1]) << 16) | (uint32_t(h[2]) << 8) | h[3];
    const uint32_t ahead =
        (msn - static_cast<uint32_t>(m_tackedMessages)) & MrcAethHeader::MSN_MASK;
    if (ahead == 0 || ahead >= (MrcAethHeader::MSN_MASK + 1) / 2)
    {
        return; // nothing new, or an older ACK overtaken by a newer one
    }
    m_tackedMessages += ahead;
    if (m_completeOnTack && m_state == MrcQpState::RTS)
    {
        AfterAckProgress();
        if (m_state == MrcQpState::RTS)
        {
            NotifyReady();
        }
    }
}

bool
MrcMultipathQueuePair::AwaitingTransportAck() const
{
    return m_completeOnTack && !m_sendQueue.empty() && m_sendQueue.front().EndSeq() <= m_una &&
           m_completedRequests >= m_tackedMessages;
}

} // namespace ns3
