/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-sprayed-queue-pair.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-heap-scheduler.h"
#include "ns3/mrc-traffic-class.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcSprayedQueuePair");

NS_OBJECT_ENSURE_REGISTERED(MrcSprayedQueuePair);

TypeId
MrcSprayedQueuePair::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcSprayedQueuePair").SetParent<MrcQueuePair>().SetGroupName("Mrc");
    return tid;
}

TypeId
MrcSprayedQueuePair::AddSprayedAttributes(TypeId tid, const MrcSprayedAttributeDefaults& d)
{
    const std::string& ack = d.ackName;
    return tid
        .AddAttribute("ReorderPsns",
                      d.reorderPsnsHelp,
                      UintegerValue(d.reorderPsns),
                      MakeUintegerAccessor(&MrcSprayedQueuePair::m_reorderPsns),
                      MakeUintegerChecker<uint32_t>())
        .AddAttribute("ReorderTime",
                      d.reorderTimeHelp,
                      TimeValue(Time(0)),
                      MakeTimeAccessor(&MrcSprayedQueuePair::m_reorderTime),
                      MakeTimeChecker())
        .AddAttribute("DataDscp",
                      "DSCP of first transmissions (and of MRC's reliability probes). Default "
                      "4 (MrcDscp::TRIMMABLE, DSCP_TRIMMABLE of MRC protocol reference Q5).",
                      UintegerValue(MrcDscp::TRIMMABLE),
                      MakeUintegerAccessor(&MrcSprayedQueuePair::m_dataDscp),
                      MakeUintegerChecker<uint8_t>(0, 63))
        .AddAttribute("RetxDscp",
                      "DSCP of retransmissions. Default 8 (MrcDscp::TRIMMABLE_RETX, Q5).",
                      UintegerValue(MrcDscp::TRIMMABLE_RETX),
                      MakeUintegerAccessor(&MrcSprayedQueuePair::m_retxDscp),
                      MakeUintegerChecker<uint8_t>(0, 63))
        .AddAttribute("ControlDscp",
                      "DSCP of " + ack + "s and NACKs. Default 46 (MrcDscp::CONTROL, Q5).",
                      UintegerValue(MrcDscp::CONTROL),
                      MakeUintegerAccessor(&MrcSprayedQueuePair::m_controlDscp),
                      MakeUintegerChecker<uint8_t>(0, 63))
        .AddAttribute("TrimmedDscp",
                      "Outer DSCP of a header trimmed inside the fabric (NACK reason "
                      "TRIMMED). Default 11 (MrcDscp::TRIMMED, as MrcTrimmer; Q5).",
                      UintegerValue(MrcDscp::TRIMMED),
                      MakeUintegerAccessor(&MrcSprayedQueuePair::m_trimmedDscp),
                      MakeUintegerChecker<uint8_t>(0, 63))
        .AddAttribute("TrimmedLastHopDscp",
                      "Outer DSCP of a header trimmed toward a host (NACK reason "
                      "TRIMMED_LASTHOP). Default 21 (MrcDscp::TRIMMED_LASTHOP; Q5).",
                      UintegerValue(MrcDscp::TRIMMED_LASTHOP),
                      MakeUintegerAccessor(&MrcSprayedQueuePair::m_trimmedLhDscp),
                      MakeUintegerChecker<uint8_t>(0, 63))
        .AddAttribute("EcnCapable",
                      "Send data as ECT(0) (default true: NSCC needs marks) or Not-ECT.",
                      BooleanValue(true),
                      MakeBooleanAccessor(&MrcSprayedQueuePair::m_ecnCapable),
                      MakeBooleanChecker())
        .AddAttribute("ServiceTime",
                      "Responder service time (UET ACK_CC service_time, OCP device "
                      "capability SVC_TIME): this QP sends each data-triggered " +
                          ack +
                          " this long after its trigger (local processing), and as a "
                          "requester subtracts the same value from every " +
                          ack +
                          "'s RTT sample before NSCC, which then leaves its base RTT alone "
                          "(UEC htsim). Set it on both ends (no header field of the model "
                          "carries it). Default 0 = off (our choice).",
                      TimeValue(Time(0)),
                      MakeTimeAccessor(&MrcSprayedQueuePair::m_serviceTime),
                      MakeTimeChecker(Time(0)))
        .AddAttribute("RcvDrainRate",
                      "Responder backpressure (rcv_cwnd_pen and restore_cwnd of the " + ack +
                          "'s CC_STATE; MrcRcvBackpressure, one rule for UEC and MRC): "
                          "received bytes leave a virtual backlog at this rate. 0 (default) "
                          "= off, every " +
                          ack +
                          " carries pen 0 (our rule; the specifications leave it to the "
                          "implementation).",
                      DataRateValue(DataRate(0)),
                      MakeDataRateAccessor(&MrcSprayedQueuePair::m_rcvDrainRate),
                      MakeDataRateChecker())
        .AddAttribute("RcvBusyBytes",
                      "Responder backpressure threshold T: a backlog B > T gives "
                      "pen = min(127, ceil(128 (B - T) / B)). Default 262144 B (our "
                      "choice, about 1.5 BDP at 400 Gb/s and 4 us).",
                      UintegerValue(262144),
                      MakeUintegerAccessor(&MrcSprayedQueuePair::m_rcvBusyBytes),
                      MakeUintegerChecker<uint32_t>(1))
        .AddAttribute("RcvRestoreSacks",
                      "Responder backpressure: " + ack +
                          "s that carry restore_cwnd once the backlog is back at or below "
                          "T / 2 after a penalty. Default 4 (our choice).",
                      UintegerValue(4),
                      MakeUintegerAccessor(&MrcSprayedQueuePair::m_rcvRestoreSacks),
                      MakeUintegerChecker<uint32_t>(1));
}

MrcSprayedQueuePair::MrcSprayedQueuePair(uint32_t nominalHeaderBytes)
    : m_reorderPsns(0),
      m_reorderTime(0),
      m_dataDscp(MrcDscp::TRIMMABLE),
      m_retxDscp(MrcDscp::TRIMMABLE_RETX),
      m_controlDscp(MrcDscp::CONTROL),
      m_trimmedDscp(MrcDscp::TRIMMED),
      m_trimmedLhDscp(MrcDscp::TRIMMED_LASTHOP),
      m_ecnCapable(true),
      m_serviceTime(0),
      m_rcvDrainRate(0),
      m_rcvBusyBytes(262144),
      m_rcvRestoreSacks(4),
      m_nominalHeaderBytes(nominalHeaderBytes),
      m_una(0),
      m_sndNxt(0),
      m_timerAt(Time::Max()),
      m_rcvdBytes(0)
{
}

MrcSprayedQueuePair::~MrcSprayedQueuePair() = default;

void
MrcSprayedQueuePair::DoDispose()
{
    m_sackPolicy = nullptr;
    m_sb.reset();
    m_rxWin.reset();
    m_rxMessages = MrcMessageReassembly();
    MrcQueuePair::DoDispose();
}

Ptr<MrcPathSelector>
MrcSprayedQueuePair::CreateEntropySelector(TypeId tid) const
{
    NS_ABORT_MSG_UNLESS(tid.IsChildOf(MrcPathSelector::GetTypeId()),
                        GetInstanceTypeId().GetName() << ": EntropySelector " << tid.GetName()
                                                      << " is not a subclass of "
                                                         "ns3::MrcPathSelector");
    ObjectFactory f(tid.GetName());
    return f.Create<MrcPathSelector>();
}

void
MrcSprayedQueuePair::SetUpResponder(uint32_t windowPsns)
{
    m_rxWin =
        std::make_unique<MrcReceiveBitmap>(windowPsns, m_remoteInitialPsn & MrcBthHeader::PSN_MASK);
    m_sackPolicy = CreateObject<MrcSackPolicy>();
    m_rcvBp.Configure(m_rcvDrainRate, m_rcvBusyBytes, m_rcvRestoreSacks);
}

uint8_t
MrcSprayedQueuePair::GetNextDscp(uint32_t /* port */) const
{
    return (m_sb && m_sb->GetRetransmitQueueSize() > 0) ? m_retxDscp : m_dataDscp;
}

uint32_t
MrcSprayedQueuePair::GetOutstandingPsns() const
{
    return m_sb ? m_sb->GetOutstandingPsns() : 0;
}

// ---------------------------------------------------------------------------
// Requester
// ---------------------------------------------------------------------------

std::size_t
MrcSprayedQueuePair::FindOlderWqe(uint64_t seq) const
{
    auto it = std::upper_bound(m_sendQueue.begin(),
                               m_sendQueue.end(),
                               seq,
                               [](uint64_t s, const MrcSendWqe& w) { return s < w.firstSeq; });
    NS_ASSERT(it != m_sendQueue.begin());
    return static_cast<std::size_t>(std::distance(m_sendQueue.begin(), it) - 1);
}

uint64_t
MrcSprayedQueuePair::SeqOf(uint32_t psn) const
{
    return Unwrap((psn - m_initialPsn) & MrcBthHeader::PSN_MASK, m_una);
}

MrcTxPacket
MrcSprayedQueuePair::DoBuildNextPacket(uint32_t port)
{
    MrcTxPacket tx;
    const Time now = MrcNow();
    TxChoice c;
    if (!ChooseNext(port, now, c))
    {
        return tx;
    }
    const std::size_t idx = FindWqe(c.seq);
    const MrcSendWqe& w = m_sendQueue[idx];
    const uint64_t pktIdx = c.seq - w.firstSeq;
    const uint32_t len = PayloadOf(w, pktIdx);
    const uint32_t accounted = len + m_nominalHeaderBytes;
    if (!c.retx)
    {
        c.psn = m_sb->OnSent(accounted, c.ev, now, c.group, c.path);
        NS_ASSERT(c.psn == ((c.seq + m_initialPsn) & MrcBthHeader::PSN_MASK));
        OnNewDataSent(w, pktIdx);
        ++m_sndNxt;
    }
    m_cc.inflight = static_cast<int64_t>(m_sb->GetBytesInFlight());
    m_ccOps->OnSent(m_cc, accounted);
    const bool ar = c.retx || m_sndNxt >= m_nextWqeSeq || m_ccOps->AckRequest(m_cc);
    const uint8_t dscp = c.retx ? m_retxDscp : m_dataDscp;
    tx.packet = BuildDataPacket(port, idx, pktIdx, len, c, ar, dscp);
    tx.dscp = dscp;
    tx.retransmission = c.retx;
    tx.payloadBytes = len;
    AfterDataSent(tx.packet, now);
    return tx;
}

void
MrcSprayedQueuePair::OnNewDataSent(const MrcSendWqe& /* w */, uint64_t /* pktIdx */)
{
}

void
MrcSprayedQueuePair::HandleLosses(const MrcSackUpdate& upd, bool timeout)
{
    if (upd.lost.empty())
    {
        return;
    }
    for (const MrcPsnEvent& e : upd.lost)
    {
        OnLostPsn(e, timeout);
    }
    m_cc.inflight = static_cast<int64_t>(m_sb->GetBytesInFlight());
    m_ccOps->OnLoss(m_cc, static_cast<uint32_t>(std::min<uint64_t>(upd.lostBytes, UINT32_MAX)));
}

bool
MrcSprayedQueuePair::AdvanceUna()
{
    const uint64_t una = SeqOf(m_sb->GetUna());
    const bool progress = una > m_una;
    m_una = std::max(m_una, una);
    m_sndNxt = std::max(m_sndNxt, m_una);
    while (!m_sendQueue.empty() && m_sendQueue.front().EndSeq() <= m_una)
    {
        if (!MayComplete(m_sendQueue.front()))
        {
            break;
        }
        OnRequestCompleted(m_sendQueue.front());
        CompleteFront(MrcWcStatus::SUCCESS);
        if (m_state != MrcQpState::RTS)
        {
            break;
        }
    }
    return progress;
}

bool
MrcSprayedQueuePair::MayComplete(const MrcSendWqe& /* w */) const
{
    return true;
}

void
MrcSprayedQueuePair::OnRequestCompleted(const MrcSendWqe& /* w */)
{
}

MrcSprayedQueuePair::DataParts
MrcSprayedQueuePair::MakeDataParts(std::size_t idx,
                                   uint64_t pktIdx,
                                   uint32_t len,
                                   const TxChoice& c,
                                   bool ar) const
{
    const MrcSendWqe& w = m_sendQueue[idx];
    const bool first = pktIdx == 0;
    const bool last = pktIdx + 1 == w.nPackets;
    const bool imm = w.wr.opcode == MrcWrOpcode::WRITE_WITH_IMM;
    static MrcRethHeader reth; // reused: see MrcFreshHeader
    static MrcBthHeader bth;
    DataParts d{MakeWritePayload(len, imm && last, w.wr.immediate),
                MrcFreshHeader(reth),
                MrcFreshHeader(bth)};
    d.reth.SetVirtualAddress(w.wr.remoteAddress + pktIdx * m_mtu);
    d.reth.SetRkey(w.wr.rkey);
    d.reth.SetDmaLength(w.wr.length);
    d.bth.SetOpcode(MrcOpcode::WriteOpcode(true, first, last, imm));
    d.bth.SetDestQp(m_remoteQpn);
    d.bth.SetPsn(c.psn);
    d.bth.SetAckReq(ar);
    d.bth.SetRetransmission(c.retx);
    return d;
}

} // namespace ns3
