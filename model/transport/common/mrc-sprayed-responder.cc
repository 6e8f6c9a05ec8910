/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MrcSprayedQueuePair, the arrivals: dispatch by opcode and the responder's data path
// (placement, message reassembly, the SACK policy tail). Declared in
// mrc-sprayed-queue-pair.h; the requester side is in mrc-sprayed-queue-pair.cc.

#include "mrc-sprayed-queue-pair.h"

#include "ns3/log.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-byte-io.h"
#include "ns3/mrc-heap-scheduler.h"
#include "ns3/mrc-memory-region.h"
#include "ns3/mrc-meth-header.h"
#include "ns3/mrc-opcodes.h"
#include "ns3/mrc-rdma-nic.h"
#include "ns3/mrc-reth-header.h"
#include "ns3/mrc-tseth-header.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcSprayedResponder");

namespace
{

// Wire fields of the data headers, big endian.
using MrcByteIo::ReadU16;
using MrcByteIo::ReadU32;
using MrcByteIo::ReadU64;

} // namespace

// ---------------------------------------------------------------------------
// Arrivals
// ---------------------------------------------------------------------------

void
MrcSprayedQueuePair::DoReceive(const MrcRxPacket& rx)
{
    const uint8_t op = rx.opcode;
    if (MrcOpcode::IsMrc(op) && MrcOpcode::IsWrite(op))
    {
        ReceiveData(rx);
    }
    else if (op == MrcOpcode::MRC_SACK)
    {
        ++m_counters.acksReceived;
        ReceiveSack(rx);
    }
    else if (op == MrcOpcode::MRC_NACK)
    {
        ++m_counters.naksReceived;
        ReceiveNack(rx);
    }
    else if (op == MrcOpcode::MRC_PROBE)
    {
        ReceiveProbe(rx);
    }
    else
    {
        ReceiveOther(rx);
    }
}

void
MrcSprayedQueuePair::ReceiveOther(const MrcRxPacket& rx)
{
    NS_LOG_LOGIC("QP " << m_qpn << ": opcode " << unsigned(rx.opcode) << " ignored");
}

void
MrcSprayedQueuePair::ReceiveData(const MrcRxPacket& rx)
{
    ++m_counters.dataPacketsReceived;
    Arrival a;
    a.ev = EvOf(rx);
    a.ce = rx.GetEcn() == MrcEcn::CE;
    a.port = rx.port;
    if (rx.bthByte8 & MrcBthHeader::TS_BIT)
    {
        a.tsEcho = ReadU16(rx.headers + rx.extOffset + MrcMethHeader::SIZE); // TSETH
    }
    const uint8_t dscp = rx.info->GetDscp();
    if (dscp == m_trimmedDscp || dscp == m_trimmedLhDscp)
    {
        OnTrimmedArrival(rx, a, dscp == m_trimmedLhDscp);
        return;
    }
    if (a.ce)
    {
        ++m_counters.ecnMarkedReceived;
    }
    if (!AdmitData(rx, a))
    {
        return;
    }
    const MrcRxResult res = m_rxWin->OnArrival(rx.psn);
    if (res.kind == MrcRxArrival::OUT_OF_WINDOW)
    {
        OnOutOfWindow(rx, a);
        return;
    }
    uint32_t delivered = 0;
    if (res.kind == MrcRxArrival::NEW)
    {
        if (res.outOfOrder)
        {
            ++m_counters.outOfOrderPackets;
        }
        if (!PlaceNew(rx, a, delivered))
        {
            return;
        }
    }
    else
    {
        ++m_counters.duplicatePackets;
    }
    SetFeedback(a);
    AcknowledgeData(rx, res, a);
    if (delivered > 0)
    {
        AfterDataAck(rx, a, delivered);
    }
}

bool
MrcSprayedQueuePair::PlaceNew(const MrcRxPacket& rx, const Arrival& a, uint32_t& delivered)
{
    // METH (MSN in bytes 2-3), TSETH when present, RETH, then ImmDt on the last packet of
    // a Write with Immediate
    const uint8_t* h = rx.headers + rx.extOffset;
    const uint16_t msn = ReadU16(h + 2);
    h += MrcMethHeader::SIZE;
    if (rx.bthByte8 & MrcBthHeader::TS_BIT)
    {
        h += MrcTsethHeader::SIZE;
    }
    const uint64_t va = ReadU64(h);
    const uint32_t rkey = ReadU32(h + 8);
    const uint32_t dmaLen = ReadU32(h + 12);
    h += MrcRethHeader::SERIALIZED_SIZE;
    Ptr<MrcMemoryRegion> mr = m_nic->GetMemoryRegion(rkey);
    if (!mr || !mr->Contains(va, rx.payloadBytes))
    {
        OnAccessError(rx, a, rkey, va);
        return false;
    }
    mr->Place(va, rx.payloadBytes);
    m_counters.bytesPlaced += rx.payloadBytes;
    m_rcvdBytes += rx.payloadBytes + m_nominalHeaderBytes;
    const Time now = MrcNow();
    m_rcvBp.OnData(now, rx.payloadBytes);
    const bool imm = MrcOpcode::HasImmediate(rx.opcode);
    if (m_rxMessages
            .OnPlaced(msn, dmaLen, rkey, va, rx.payloadBytes, now, imm, imm ? ReadU32(h) : 0))
    {
        delivered = DeliverMessages();
    }
    return true;
}

void
MrcSprayedQueuePair::AcknowledgeData(const MrcRxPacket& rx,
                                     const MrcRxResult& res,
                                     const Arrival& a)
{
    MrcSackPolicy::Data d;
    d.bytes = rx.payloadBytes;
    d.ce = a.ce;
    d.ar = (rx.bthByte8 & MrcBthHeader::ACK_REQ_BIT) != 0;
    d.retx = (rx.bthByte8 & MrcBthHeader::RTX_BIT) != 0;
    d.lastOfMessage = MrcOpcode::EndsMessage(rx.opcode);
    if (m_sackPolicy->OnData(d, res) == SACK_HOLD)
    {
        return;
    }
    if (m_serviceTime.IsStrictlyPositive())
    {
        // local processing: the acknowledgement (built then, so it is up to date) leaves
        // later
        Ptr<MrcSprayedQueuePair> self(this);
        const uint32_t port = rx.port;
        const uint32_t psn = rx.psn;
        Simulator::Schedule(m_serviceTime, [self, port, psn, a]() {
            if (self->IsReceiving())
            {
                self->SendDataAck(port, psn, a);
            }
        });
    }
    else
    {
        SendDataAck(rx.port, rx.psn, a);
    }
}

uint32_t
MrcSprayedQueuePair::DeliverMessages()
{
    uint32_t n = 0;
    MrcRecvCompletion rc;
    while (m_rxMessages.PopComplete(rc))
    {
        rc.qpn = m_qpn;
        ++n;
        ReportReceived(rc);
    }
    return n;
}

bool
MrcSprayedQueuePair::AdmitData(const MrcRxPacket& /* rx */, const Arrival& /* a */)
{
    return true;
}

void
MrcSprayedQueuePair::SetFeedback(Arrival& /* a */)
{
}

void
MrcSprayedQueuePair::AfterDataAck(const MrcRxPacket& /* rx */,
                                  const Arrival& /* a */,
                                  uint32_t /* delivered */)
{
}

} // namespace ns3
