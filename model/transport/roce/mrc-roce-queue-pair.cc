/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-roce-queue-pair.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/mrc-aeth-header.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-byte-io.h"
#include "ns3/mrc-cnp-header.h"
#include "ns3/mrc-heap-scheduler.h"
#include "ns3/mrc-imm-dt-header.h"
#include "ns3/mrc-opcodes.h"
#include "ns3/mrc-packet-info.h"
#include "ns3/mrc-rdma-nic.h"
#include "ns3/mrc-reth-header.h"
#include "ns3/mrc-traffic-class.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcRoceQueuePair");

NS_OBJECT_ENSURE_REGISTERED(MrcRoceQueuePair);

namespace
{

/// Preamble/SFD, FCS and inter-frame gap: what a frame costs on the wire beyond its bytes
/// (the packet built here starts with its Ethernet header: AddFrameHeaders).
constexpr uint32_t WIRE_EXTRA_BYTES = 24;

using MrcByteIo::ReadU32;
using MrcByteIo::ReadU64;

} // namespace

TypeId
MrcRoceQueuePair::GetTypeId()
{
    static TypeId tid =
        AddCommonAttributes(TypeId("ns3::MrcRoceQueuePair")
                                .SetParent<MrcQueuePair>()
                                .SetGroupName("Mrc")
                                .AddConstructor<MrcRoceQueuePair>(),
                            4096,
                            MrcNoCongestionControl::GetTypeId(),
                            MrcFixedEntropyPathSelector::GetTypeId(),
                            "4096 B, the largest InfiniBand path MTU (our choice; the "
                            "roce-hpcc profile sets 1000 B as the HPCC simulator).")
            .AddAttribute("AckInterval",
                          "The responder ACKs after this many in-order packets, and always "
                          "at a message's end. Default 1: every packet (HPCC simulator, "
                          "L2_ACK_INTERVAL 1).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&MrcRoceQueuePair::m_ackInterval),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("NakInterval",
                          "The responder NAKs a sequence error at most once per this "
                          "interval while the expected PSN stays the same. Default 500 us "
                          "(HPCC simulator attribute default).",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&MrcRoceQueuePair::m_nakInterval),
                          MakeTimeChecker())
            .AddAttribute("AckTimeout",
                          "Local ACK timeout: go back to the oldest unacknowledged PSN when "
                          "no ACK advanced it for this long. Default 1.048576 ms = 4.096 us "
                          "x 2^8 (InfiniBand encoding, exponent 8: our choice).",
                          TimeValue(NanoSeconds(1048576)),
                          MakeTimeAccessor(&MrcRoceQueuePair::m_ackTimeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RetryCount",
                          "Timeouts in a row (without progress) that are retried; one more "
                          "puts the QP in the error state (retry-exceeded). Default 7 (the "
                          "InfiniBand maximum of the 3-bit retry_cnt).",
                          UintegerValue(7),
                          MakeUintegerAccessor(&MrcRoceQueuePair::m_retryCount),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("DataDscp",
                          "DSCP of data packets. Default 26 (MrcDscp::ROCE_DATA, a common "
                          "vendor default for RoCE; class 3 with the default device map).",
                          UintegerValue(MrcDscp::ROCE_DATA),
                          MakeUintegerAccessor(&MrcRoceQueuePair::m_dataDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("AckDscp",
                          "DSCP of ACKs and NAKs. Default 46 (MrcDscp::CONTROL, highest "
                          "class: the HPCC simulator sends ACKs at high priority).",
                          UintegerValue(MrcDscp::CONTROL),
                          MakeUintegerAccessor(&MrcRoceQueuePair::m_ackDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("CnpDscp",
                          "DSCP of CNPs. Default 48 (MrcDscp::ROCE_CNP, common vendor "
                          "default).",
                          UintegerValue(MrcDscp::ROCE_CNP),
                          MakeUintegerAccessor(&MrcRoceQueuePair::m_cnpDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("EcnCapable",
                          "Send data as ECT(0) (true, default: DCQCN needs marks) or "
                          "Not-ECT.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcRoceQueuePair::m_ecnCapable),
                          MakeBooleanChecker())
            .AddAttribute(
                "Recovery",
                "Loss recovery (set the same on both ends). GoBackN (default; RoCE RC, the "
                "HPCC simulator): the responder drops out-of-order packets and NAKs the "
                "expected PSN, the requester resends everything from it. SelectiveRepeat "
                "(IRN, Mittal et al., SIGCOMM 2018): the responder keeps out-of-order "
                "packets and NAKs each missing PSN once, the requester resends only the "
                "NAKed PSNs (and every unacknowledged one on a local ACK timeout).",
#if MRC_NS3_VERSION_MINOR >= 41
                EnumValue<Recovery>(GO_BACK_N),
                MakeEnumAccessor<Recovery>(&MrcRoceQueuePair::m_recovery),
#else
                EnumValue(GO_BACK_N),
                MakeEnumAccessor(&MrcRoceQueuePair::m_recovery),
#endif
                MakeEnumChecker(GO_BACK_N, "GoBackN", SELECTIVE_REPEAT, "SelectiveRepeat"))
            .AddAttribute("MaxOutstandingPsns",
                          "At most this many PSNs between the oldest unacknowledged one and "
                          "the next new one (IRN's BDP-FC: ceil(BDP / Mtu)); 0 (default) "
                          "= no cap, the window of the congestion controller only.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcRoceQueuePair::m_maxOutstanding),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ReorderPsns",
                          "SelectiveRepeat responder: a missing PSN is NAKed once this many "
                          "later PSNs have arrived beyond it (0, default: at the first later "
                          "PSN, IRN). Raise it when the fabric reorders (adaptive routing, "
                          "several paths) so that late packets are not resent (our choice; "
                          "TCP's duplicate-ACK threshold is 3).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcRoceQueuePair::m_reorderPsns),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "PacingGap",
                "When the gap after a data packet (wire bytes / pacing rate) is computed. "
                "AtSend (default): once, when the packet leaves, from the rate then; a later "
                "rate change does not move the next send time (the HPCC simulator's DCQCN sets "
                "the QP rate without rescheduling its next send). RateNow: the next send time "
                "is the last send time plus the gap at the current rate, so that a rate "
                "increase shortens a pending gap and a decrease lengthens it, as a NIC rate "
                "limiter applies a new rate at once (model change of session 16; with a "
                "1 Mb/s floor one 4096 B packet's gap is 33.7 ms).",
#if MRC_NS3_VERSION_MINOR >= 41
                EnumValue<PacingGap>(GAP_AT_SEND),
                MakeEnumAccessor<PacingGap>(&MrcRoceQueuePair::m_pacingGap),
#else
                EnumValue(GAP_AT_SEND),
                MakeEnumAccessor(&MrcRoceQueuePair::m_pacingGap),
#endif
                MakeEnumChecker(GAP_AT_SEND, "AtSend", GAP_RATE_NOW, "RateNow"));
    return tid;
}

MrcRoceQueuePair::MrcRoceQueuePair()
    : m_ackInterval(1),
      m_nakInterval(MicroSeconds(500)),
      m_ackTimeout(NanoSeconds(1048576)),
      m_retryCount(7),
      m_dataDscp(MrcDscp::ROCE_DATA),
      m_ackDscp(MrcDscp::CONTROL),
      m_cnpDscp(MrcDscp::ROCE_CNP),
      m_ecnCapable(true),
      m_recovery(GO_BACK_N),
      m_maxOutstanding(0),
      m_reorderPsns(0),
      m_pacingGap(GAP_AT_SEND),
      m_sndUna(0),
      m_sndNxt(0),
      m_maxSent(0),
      m_txIdx(0),
      m_lastWireBytes(0),
      m_timerDeadline(Time::Max()),
      m_retries(0),
      m_rtxBytes(0),
      m_ePsn(0),
      m_msn(0),
      m_inMessage(false),
      m_rxNextAddr(0),
      m_sinceAck(0),
      m_lastNakPsn(0),
      m_nakSent(false),
      m_pendingCnpFlag(false),
      m_cnpPort(0),
      m_rcvHigh(0),
      m_nakNext(0)
{
    // Created here so that it takes the ns3::MrcDcqcnNotificationPoint defaults in force
    // when this QP is created.
    m_np = CreateObject<MrcDcqcnNotificationPoint>();
    m_np->SetSendCnpCallback(MakeCallback(&MrcRoceQueuePair::SendDeferredCnp, this));
}

MrcRoceQueuePair::~MrcRoceQueuePair() = default;

void
MrcRoceQueuePair::DoDispose()
{
    m_timer.Cancel();
    if (m_np)
    {
        m_np->Dispose();
        m_np = nullptr;
    }
    m_rxRegion = nullptr;
    m_held.clear();
    m_rtx.clear();
    MrcQueuePair::DoDispose();
}

void
MrcRoceQueuePair::DoConnect()
{
    m_path = m_pathSelector->Select(MrcPathSelector::NO_PORT, false);
    NS_ABORT_MSG_IF(m_path.port >= m_nic->GetNPorts(),
                    "MrcRoceQueuePair: path selector chose port " << m_path.port << " of "
                                                                  << m_nic->GetNPorts());
}

void
MrcRoceQueuePair::DoPostSend(MrcSendWqe& /* wqe */)
{
    NotifyReady();
}

void
MrcRoceQueuePair::DoEnterError()
{
    StopTimer();
    m_np->CancelDeferred();
}

uint32_t
MrcRoceQueuePair::GetPort() const
{
    return m_path.port;
}

const MrcPathChoice&
MrcRoceQueuePair::GetPath() const
{
    return m_path;
}

Ptr<MrcDcqcnNotificationPoint>
MrcRoceQueuePair::GetNotificationPoint() const
{
    return m_np;
}

MrcRoceQueuePair::Recovery
MrcRoceQueuePair::GetRecovery() const
{
    return m_recovery;
}

std::size_t
MrcRoceQueuePair::GetHeldPackets() const
{
    return m_held.size();
}

MrcRoceQueuePair::PacingGap
MrcRoceQueuePair::GetPacingGap() const
{
    return m_pacingGap;
}

uint64_t
MrcRoceQueuePair::GetSendNext() const
{
    return m_sndNxt;
}

uint64_t
MrcRoceQueuePair::GetSendUnacked() const
{
    return m_sndUna;
}

uint64_t
MrcRoceQueuePair::GetExpectedPsn() const
{
    return m_ePsn;
}

// ---------------------------------------------------------------------------
// Requester
// ---------------------------------------------------------------------------

std::size_t
MrcRoceQueuePair::FindWqe(uint64_t seq) const
{
    // The request whose firstSeq is the largest one <= seq.
    auto it = std::upper_bound(m_sendQueue.begin(),
                               m_sendQueue.end(),
                               seq,
                               [](uint64_t s, const MrcSendWqe& w) { return s < w.firstSeq; });
    NS_ASSERT(it != m_sendQueue.begin());
    return static_cast<std::size_t>(std::distance(m_sendQueue.begin(), it)) - 1;
}

uint64_t
MrcRoceQueuePair::BytePosition(uint64_t seq) const
{
    if (seq >= m_nextWqeSeq || m_sendQueue.empty())
    {
        return m_nextWqeByte;
    }
    const MrcSendWqe& w = m_sendQueue[FindWqe(seq)];
    return w.firstByte + std::min<uint64_t>((seq - w.firstSeq) * m_mtu, w.wr.length);
}

uint32_t
MrcRoceQueuePair::PacketBytes(uint64_t seq) const
{
    const MrcSendWqe& w = m_sendQueue[FindWqe(seq)];
    const uint64_t offset = (seq - w.firstSeq) * m_mtu;
    return static_cast<uint32_t>(std::min<uint64_t>(m_mtu, w.wr.length - offset));
}

bool
MrcRoceQueuePair::MayStartNew() const
{
    return m_sndNxt < m_nextWqeSeq &&
           (m_maxOutstanding == 0 || m_sndNxt - m_sndUna < m_maxOutstanding);
}

uint64_t
MrcRoceQueuePair::NextSendSeq() const
{
    if (!m_rtx.empty())
    {
        return *m_rtx.begin(); // holes before new data
    }
    return MayStartNew() ? m_sndNxt : m_nextWqeSeq;
}

Time
MrcRoceQueuePair::GetNextSendTime(uint32_t port) const
{
    if (m_state != MrcQpState::RTS || port != m_path.port)
    {
        return Time::Max();
    }
    if (m_recovery == SELECTIVE_REPEAT)
    {
        const uint64_t seq = NextSendSeq();
        if (seq >= m_nextWqeSeq)
        {
            return Time::Max();
        }
        if (m_cc.cwnd != std::numeric_limits<uint64_t>::max() && m_cc.inflight > 0 &&
            uint64_t(m_cc.inflight) + PacketBytes(seq) > m_cc.cwnd)
        {
            return Time::Max(); // window full: an ACK calls NotifyReady
        }
        return PacedTime();
    }
    if (!MayStartNew())
    {
        return Time::Max();
    }
    if (m_cc.cwnd != std::numeric_limits<uint64_t>::max())
    {
        std::size_t i = m_txIdx;
        while (m_sendQueue[i].EndSeq() <= m_sndNxt)
        {
            ++i; // m_sndNxt < m_nextWqeSeq: some request holds it
        }
        const MrcSendWqe& w = m_sendQueue[i];
        const uint64_t offset = (m_sndNxt - w.firstSeq) * m_mtu;
        const uint64_t len = std::min<uint64_t>(m_mtu, w.wr.length - offset);
        if (m_cc.inflight > 0 && uint64_t(m_cc.inflight) + len > m_cc.cwnd)
        {
            return Time::Max(); // window full: an ACK calls NotifyReady
        }
    }
    return PacedTime();
}

Time
MrcRoceQueuePair::PacedTime() const
{
    if (m_pacingGap == GAP_AT_SEND)
    {
        return m_nextAvail;
    }
    // The gap of the last packet at the rate in force now: a rate change since it left
    // moves the next send time (the controller's rate change kicks the NIC).
    const DataRate rate = m_cc.rate.GetBitRate() > 0 ? m_cc.rate : m_cc.lineRate;
    return m_lastSend + m_txTime.Get(rate, m_lastWireBytes);
}

uint8_t
MrcRoceQueuePair::GetNextDscp(uint32_t /* port */) const
{
    return m_dataDscp;
}

Ptr<Packet>
MrcRoceQueuePair::MakeDataPacket(const MrcSendWqe& w, uint64_t seq, uint32_t port)
{
    const uint64_t idx = seq - w.firstSeq;
    const uint64_t offset = idx * m_mtu;
    const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(m_mtu, w.wr.length - offset));
    const bool first = idx == 0;
    const bool last = idx + 1 == w.nPackets;
    const bool imm = w.wr.opcode == MrcWrOpcode::WRITE_WITH_IMM;
    const uint8_t opcode = MrcOpcode::WriteOpcode(false, first, last, imm);

    Ptr<Packet> p = MakeWritePayload(len, imm && last, w.wr.immediate);
    // reused (MrcFreshHeader): AddFrameHeaders adds their bytes at once
    static MrcRethHeader rethScratch;
    static MrcBthHeader bthScratch;
    MrcRethHeader& reth = MrcFreshHeader(rethScratch);
    if (first)
    {
        reth.SetVirtualAddress(w.wr.remoteAddress);
        reth.SetRkey(w.wr.rkey);
        reth.SetDmaLength(w.wr.length);
    }
    MrcBthHeader& bth = MrcFreshHeader(bthScratch);
    bth.SetOpcode(opcode);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(static_cast<uint32_t>((seq + m_initialPsn) & MrcBthHeader::PSN_MASK));
    bth.SetAckReq(last);
    // IPv6, UDP, BTH and RETH with one AddHeader (the same bytes as three)
    AddFrameHeaders(p,
                    port,
                    m_nic->GetAddress(port),
                    GetRemoteAddress(port),
                    m_dataDscp,
                    m_ecnCapable ? MrcEcn::ECT0 : MrcEcn::NOT_ECT,
                    m_path.flowLabel,
                    m_path.udpSrcPort,
                    {&bth, first ? &reth : nullptr});
    return p;
}

MrcTxPacket
MrcRoceQueuePair::DoBuildNextPacket(uint32_t port)
{
    MrcTxPacket tx;
    Ptr<Packet> p;
    uint32_t len = 0;
    if (m_recovery == SELECTIVE_REPEAT)
    {
        const uint64_t seq = NextSendSeq();
        if (seq >= m_nextWqeSeq)
        {
            return tx;
        }
        len = PacketBytes(seq);
        p = MakeDataPacket(m_sendQueue[FindWqe(seq)], seq, port);
        if (!m_rtx.empty() && seq == *m_rtx.begin())
        {
            m_rtx.erase(m_rtx.begin());
            m_rtxBytes -= len;
            tx.retransmission = true;
        }
        else
        {
            ++m_sndNxt;
            m_maxSent = std::max(m_maxSent, m_sndNxt);
        }
    }
    else
    {
        if (m_sndNxt >= m_nextWqeSeq)
        {
            return tx;
        }
        while (m_sendQueue[m_txIdx].EndSeq() <= m_sndNxt)
        {
            ++m_txIdx;
        }
        const MrcSendWqe& w = m_sendQueue[m_txIdx];
        len = static_cast<uint32_t>(
            std::min<uint64_t>(m_mtu, w.wr.length - (m_sndNxt - w.firstSeq) * m_mtu));
        p = MakeDataPacket(w, m_sndNxt, port);
        tx.retransmission = m_sndNxt < m_maxSent;
        ++m_sndNxt;
        m_maxSent = std::max(m_maxSent, m_sndNxt);
    }
    tx.payloadBytes = len;
    m_cc.inflight += len;
    m_ccOps->OnSent(m_cc, len);
    const uint32_t wireBytes = p->GetSize() + WIRE_EXTRA_BYTES;
    if (m_pacingGap == GAP_AT_SEND)
    {
        const DataRate rate = m_cc.rate.GetBitRate() > 0 ? m_cc.rate : m_cc.lineRate;
        m_nextAvail = Simulator::Now() + m_txTime.Get(rate, wireBytes);
    }
    else
    {
        m_lastSend = Simulator::Now();
        m_lastWireBytes = wireBytes;
    }
    if (m_timerDeadline == Time::Max())
    {
        RestartTimer();
    }
    tx.packet = p;
    tx.dscp = m_dataDscp;
    return tx;
}

void
MrcRoceQueuePair::RestartTimer()
{
    // called at every ACK that leaves data outstanding: the timer's own record of whether it
    // is pending, not EventId::IsExpired (some 250 instructions through the simulator)
    m_timerDeadline = MrcNow() + m_ackTimeout;
    if (!m_timer.IsPending())
    {
        m_timer.Set(Simulator::Schedule(m_ackTimeout, &MrcRoceQueuePair::Timeout, this));
    }
}

void
MrcRoceQueuePair::StopTimer()
{
    // Nothing outstanding: drop the pending event so that an idle QP keeps no event
    // (a lazily restarted timer otherwise fires once more for nothing).
    // (Remove, not Cancel: a cancelled event still advances the clock when it is reached.)
    m_timerDeadline = Time::Max();
    m_timer.Remove();
}

void
MrcRoceQueuePair::Timeout()
{
    m_timer.Fired();
    if (m_state != MrcQpState::RTS || m_timerDeadline == Time::Max())
    {
        return;
    }
    const Time now = Simulator::Now();
    if (m_timerDeadline > now)
    {
        m_timer.Set(Simulator::Schedule(m_timerDeadline - now, &MrcRoceQueuePair::Timeout, this));
        return;
    }
    m_timerDeadline = Time::Max();
    if (m_sndUna >= m_maxSent)
    {
        return; // nothing outstanding
    }
    ++m_counters.timeouts;
    ++m_retries;
    NS_LOG_LOGIC("QP " << m_qpn << " timeout " << m_retries << " at PSN " << m_sndUna);
    if (m_retries > m_retryCount)
    {
        std::ostringstream why;
        why << "local ACK timeout: " << m_retries << " expiries without progress at PSN "
            << ((m_sndUna + m_initialPsn) & MrcBthHeader::PSN_MASK) << " (RetryCount "
            << m_retryCount << ", AckTimeout " << m_ackTimeout.As(Time::US) << ")";
        EnterError(MrcQpError::RETRY_EXCEEDED, why.str(), MrcWcStatus::RETRY_EXCEEDED);
        return;
    }
    const uint64_t outstanding = BytePosition(m_sndNxt) - BytePosition(m_sndUna);
    if (m_recovery == SELECTIVE_REPEAT)
    {
        // Every unacknowledged PSN goes on the list (without SACKs the requester cannot
        // tell which arrived; the responder drops duplicates).
        for (uint64_t seq = m_sndUna; seq < m_sndNxt; ++seq)
        {
            if (m_rtx.insert(seq).second)
            {
                m_rtxBytes += PacketBytes(seq);
            }
        }
    }
    else
    {
        m_sndNxt = m_sndUna;
        m_txIdx = 0;
    }
    m_cc.inflight = 0;
    m_ccOps->OnLoss(m_cc, static_cast<uint32_t>(std::min<uint64_t>(outstanding, UINT32_MAX)));
    m_pathSelector->Feedback(m_path.ev, MrcPathSignal::TIMEOUT);
    TraceCc();
    RestartTimer();
    NotifyReady();
}

uint64_t
MrcRoceQueuePair::AdvanceUna(uint64_t una)
{
    if (una <= m_sndUna)
    {
        return 0;
    }
    const uint64_t bytes = BytePosition(una) - BytePosition(m_sndUna);
    m_sndUna = una;
    while (!m_rtx.empty() && *m_rtx.begin() < m_sndUna)
    {
        m_rtxBytes -= PacketBytes(*m_rtx.begin()); // acknowledged after all
        m_rtx.erase(m_rtx.begin());
    }
    if (m_sndNxt < m_sndUna)
    {
        m_sndNxt = m_sndUna;
    }
    m_retries = 0;
    while (!m_sendQueue.empty() && m_sendQueue.front().EndSeq() <= m_sndUna)
    {
        m_txIdx = m_txIdx > 0 ? m_txIdx - 1 : 0;
        CompleteFront(MrcWcStatus::SUCCESS);
        if (m_state != MrcQpState::RTS)
        {
            return bytes;
        }
    }
    m_cc.inflight = static_cast<int64_t>(BytePosition(m_sndNxt) - BytePosition(m_sndUna)) -
                    static_cast<int64_t>(m_rtxBytes);
    if (m_sndUna < m_sndNxt)
    {
        RestartTimer();
    }
    else
    {
        StopTimer();
    }
    return bytes;
}

void
MrcRoceQueuePair::ReceiveAck(const MrcRxPacket& rx)
{
    const uint8_t* aeth = rx.headers + rx.extOffset;
    static MrcAethHeader aScratch; // reused: see MrcFreshHeader
    MrcAethHeader& a = MrcFreshHeader(aScratch);
    a.SetSyndrome(aeth[0]);
    const uint64_t seq = Unwrap((rx.psn - m_initialPsn) & MrcBthHeader::PSN_MASK, m_sndUna);
    if (a.IsAck())
    {
        ++m_counters.acksReceived;
        const bool becn = (rx.bthByte4 & MrcBthHeader::BECN_BIT) != 0;
        if (becn)
        {
            // The CNP flag reaches the controller once, through OnAck (cnpFlag).
            ++m_counters.cnpsReceived;
            m_pathSelector->Feedback(m_path.ev, MrcPathSignal::ECN);
        }
        if (seq + 1 > m_maxSent)
        {
            NS_LOG_LOGIC("QP " << m_qpn << ": ACK for PSN " << rx.psn << " beyond what was sent");
            return;
        }
        MrcCcAck ack;
        ack.newlyAckedBytes = AdvanceUna(seq + 1);
        ack.ecnEcho = becn;
        ack.cnpFlag = becn;
        if (m_state != MrcQpState::RTS)
        {
            return;
        }
        if (ack.newlyAckedBytes > 0 && !becn)
        {
            m_pathSelector->Feedback(m_path.ev, MrcPathSignal::GOOD);
        }
        m_ccOps->OnAck(m_cc, ack);
        TraceCc();
        if (m_sndNxt < m_nextWqeSeq || !m_rtx.empty())
        {
            NotifyReady();
        }
        return;
    }
    if (a.IsNak())
    {
        ++m_counters.naksReceived;
        const MrcAethHeader::NakCode code = a.GetNakCode();
        if (code == MrcAethHeader::NakCode::PSN_SEQUENCE_ERROR)
        {
            if (m_recovery == SELECTIVE_REPEAT)
            {
                ReceiveSelectiveNak(seq);
                return;
            }
            if (seq > m_maxSent)
            {
                return;
            }
            AdvanceUna(seq); // a sequence NAK acknowledges everything before its PSN
            if (m_state != MrcQpState::RTS)
            {
                return;
            }
            if (seq < m_sndNxt)
            {
                m_sndNxt = seq;
                m_txIdx = 0;
                m_cc.inflight = 0;
            }
            m_ccOps->OnNack(m_cc, m_mtu, MrcCcNackKind::OTHER);
            m_pathSelector->Feedback(m_path.ev, MrcPathSignal::NACK);
            TraceCc();
            RestartTimer();
            NotifyReady();
            return;
        }
        std::ostringstream why;
        why << "NAK code " << unsigned(aeth[0] & MrcAethHeader::VALUE_MASK) << " for PSN "
            << rx.psn;
        if (code == MrcAethHeader::NakCode::REMOTE_ACCESS_ERROR)
        {
            EnterError(MrcQpError::REMOTE_ACCESS_ERROR,
                       "remote access error (rkey or range rejected): " + why.str(),
                       MrcWcStatus::REMOTE_ACCESS_ERROR);
        }
        else
        {
            EnterError(MrcQpError::REMOTE_OP_ERROR,
                       "remote error: " + why.str(),
                       MrcWcStatus::REMOTE_OP_ERROR);
        }
    }
    // RNR NAKs are not produced by this model and are ignored.
}

void
MrcRoceQueuePair::ReceiveSelectiveNak(uint64_t seq)
{
    // The NAK names one missing PSN and acknowledges nothing.
    if (seq < m_sndUna || seq >= m_sndNxt)
    {
        return; // acknowledged since, or never sent
    }
    if (m_rtx.insert(seq).second)
    {
        const uint32_t len = PacketBytes(seq);
        m_rtxBytes += len;
        m_cc.inflight = std::max<int64_t>(0, m_cc.inflight - len);
    }
    NS_LOG_LOGIC("QP " << m_qpn << ": selective NAK for " << seq << ", " << m_rtx.size()
                       << " to resend");
    m_ccOps->OnNack(m_cc, m_mtu, MrcCcNackKind::OTHER);
    m_pathSelector->Feedback(m_path.ev, MrcPathSignal::NACK);
    TraceCc();
    RestartTimer();
    NotifyReady();
}

void
MrcRoceQueuePair::HandleCnp()
{
    ++m_counters.cnpsReceived;
    m_ccOps->OnCnp(m_cc);
    m_pathSelector->Feedback(m_path.ev, MrcPathSignal::ECN);
    TraceCc();
}

// ---------------------------------------------------------------------------
// Responder
// ---------------------------------------------------------------------------

void
MrcRoceQueuePair::DoReceive(const MrcRxPacket& rx)
{
    if (rx.opcode == MrcOpcode::RC_ACK)
    {
        ReceiveAck(rx);
    }
    else if (rx.opcode == MrcOpcode::ROCE_CNP)
    {
        HandleCnp();
        if (m_sndNxt < m_nextWqeSeq)
        {
            NotifyReady();
        }
    }
    else if (MrcOpcode::IsWrite(rx.opcode) && !MrcOpcode::IsMrc(rx.opcode))
    {
        ReceiveData(rx);
    }
    else
    {
        NS_LOG_LOGIC("QP " << m_qpn << ": opcode " << unsigned(rx.opcode) << " ignored");
    }
}

void
MrcRoceQueuePair::ReceiveData(const MrcRxPacket& rx)
{
    ++m_counters.dataPacketsReceived;
    const bool ce = rx.GetEcn() == MrcEcn::CE;
    if (ce)
    {
        ++m_counters.ecnMarkedReceived;
        m_cnpPort = rx.port;
    }
    MrcCnpPortClock* clock = ce && m_np->GetStyle() == MrcDcqcnNotificationPoint::PORT_INTERVAL
                                 ? &m_nic->GetCnpPortClock(rx.port)
                                 : nullptr;
    if (m_np->OnDataArrival(ce, clock))
    {
        if (m_np->GetStyle() == MrcDcqcnNotificationPoint::ACK_FLAG)
        {
            m_pendingCnpFlag = true; // carried by the next ACK
        }
        else
        {
            SendCnp(rx.port);
        }
    }
    const bool ackReq = (rx.bthByte8 & MrcBthHeader::ACK_REQ_BIT) != 0;
    const uint64_t seq = Unwrap((rx.psn - m_remoteInitialPsn) & MrcBthHeader::PSN_MASK, m_ePsn);

    // The fields placement needs (RETH on a first packet, ImmDt on a last one).
    DataFields d;
    d.opcode = rx.opcode;
    d.ackReq = ackReq;
    d.port = rx.port;
    d.payloadBytes = rx.payloadBytes;
    if (seq == m_ePsn || (seq > m_ePsn && m_recovery == SELECTIVE_REPEAT))
    {
        uint32_t ext = rx.extOffset;
        if (MrcOpcode::StartsMessage(rx.opcode))
        {
            const uint8_t* reth = rx.headers + ext;
            d.va = ReadU64(reth);
            d.rkey = ReadU32(reth + 8);
            d.dmaLen = ReadU32(reth + 12);
            ext += MrcRethHeader::SERIALIZED_SIZE;
        }
        if (MrcOpcode::EndsMessage(rx.opcode) && MrcOpcode::HasImmediate(rx.opcode))
        {
            d.immediate = ReadU32(rx.headers + ext);
        }
    }

    if (seq > m_ePsn && m_recovery == SELECTIVE_REPEAT)
    {
        ++m_counters.outOfOrderPackets;
        if (!m_held.emplace(seq, d).second)
        {
            ++m_counters.duplicatePackets;
            return;
        }
        // A PSN still missing once ReorderPsns later PSNs (or the highest one seen) are
        // beyond it is NAKed, once.
        m_rcvHigh = std::max(m_rcvHigh, seq + 1);
        const uint64_t limit = m_rcvHigh - 1 > m_reorderPsns ? m_rcvHigh - 1 - m_reorderPsns : 0;
        for (uint64_t miss = std::max(m_nakNext, m_ePsn); miss < limit; ++miss)
        {
            if (m_held.find(miss) == m_held.end())
            {
                SendNakFor(rx.port, MrcAethHeader::NakCode::PSN_SEQUENCE_ERROR, miss);
            }
        }
        m_nakNext = std::max(m_nakNext, limit);
        return;
    }
    if (seq > m_ePsn)
    {
        ++m_counters.outOfOrderPackets;
        const Time now = Simulator::Now();
        if (!m_nakSent || m_lastNakPsn != m_ePsn || now - m_lastNakTime >= m_nakInterval)
        {
            m_nakSent = true;
            m_lastNakPsn = m_ePsn;
            m_lastNakTime = now;
            SendNak(rx.port, MrcAethHeader::NakCode::PSN_SEQUENCE_ERROR);
        }
        return;
    }
    if (seq < m_ePsn)
    {
        ++m_counters.duplicatePackets;
        if (ackReq || ++m_sinceAck >= m_ackInterval)
        {
            SendAck(rx.port);
        }
        return;
    }

    if (!PlaceInOrder(d))
    {
        return;
    }
    bool ack = MrcOpcode::EndsMessage(d.opcode) || d.ackReq || m_sinceAck >= m_ackInterval;
    // Selective repeat: the packets held behind a filled hole follow in order.
    bool drained = false;
    for (auto it = m_held.begin(); it != m_held.end() && it->first <= m_ePsn; it = m_held.erase(it))
    {
        if (it->first < m_ePsn)
        {
            continue; // (cannot happen: held PSNs are above the expected one)
        }
        const DataFields held = it->second;
        if (!PlaceInOrder(held))
        {
            m_held.clear();
            return;
        }
        drained = true;
    }
    m_rcvHigh = std::max(m_rcvHigh, m_ePsn);
    m_nakNext = std::max(m_nakNext, m_ePsn);
    if (ack || drained)
    {
        SendAck(rx.port);
    }
}

bool
MrcRoceQueuePair::PlaceInOrder(const DataFields& d)
{
    const uint8_t op = d.opcode;
    if (MrcOpcode::StartsMessage(op))
    {
        if (!StartMessage(d))
        {
            return false;
        }
    }
    else if (!m_inMessage)
    {
        SendNak(d.port, MrcAethHeader::NakCode::INVALID_REQUEST);
        return false;
    }
    if (d.payloadBytes > m_rxMsg.address + m_rxMsg.bytes - m_rxNextAddr)
    {
        SendNak(d.port, MrcAethHeader::NakCode::REMOTE_ACCESS_ERROR);
        return false;
    }
    m_rxRegion->Place(m_rxNextAddr, d.payloadBytes);
    m_rxNextAddr += d.payloadBytes;
    m_counters.bytesPlaced += d.payloadBytes;
    ++m_ePsn;
    ++m_sinceAck;
    if (MrcOpcode::EndsMessage(op))
    {
        if (MrcOpcode::HasImmediate(op))
        {
            m_rxMsg.hasImmediate = true;
            m_rxMsg.immediate = d.immediate;
        }
        m_rxMsg.end = Simulator::Now();
        m_msn = (m_msn + 1) & MrcAethHeader::MSN_MASK;
        m_inMessage = false;
        m_rxRegion = nullptr;
        ReportReceived(m_rxMsg);
    }
    return true;
}

bool
MrcRoceQueuePair::StartMessage(const DataFields& d)
{
    const uint64_t va = d.va;
    const uint32_t rkey = d.rkey;
    const uint32_t dmaLen = d.dmaLen;
    Ptr<MrcMemoryRegion> mr = m_nic->GetMemoryRegion(rkey);
    if (!mr || !mr->Contains(va, dmaLen))
    {
        NS_LOG_LOGIC("QP " << m_qpn << ": rkey " << rkey << " [" << va << ", +" << dmaLen
                           << ") rejected");
        SendNak(d.port, MrcAethHeader::NakCode::REMOTE_ACCESS_ERROR);
        return false;
    }
    m_inMessage = true;
    m_rxRegion = mr;
    m_rxMsg = MrcRecvCompletion();
    m_rxMsg.qpn = m_qpn;
    m_rxMsg.rkey = rkey;
    m_rxMsg.address = va;
    m_rxMsg.bytes = dmaLen;
    m_rxMsg.firstPacket = Simulator::Now();
    m_rxNextAddr = va;
    return true;
}

void
MrcRoceQueuePair::SendAck(uint32_t port)
{
    if (m_ePsn == 0)
    {
        return; // nothing received yet
    }
    Ptr<Packet> p = NewPacket();
    // reused (MrcFreshHeader): SendControlToPeer adds their bytes at once
    static MrcAethHeader aethScratch;
    static MrcBthHeader bthScratch;
    MrcAethHeader& aeth = MrcFreshHeader(aethScratch);
    aeth.SetAck();
    aeth.SetMsn(m_msn);
    MrcBthHeader& bth = MrcFreshHeader(bthScratch);
    bth.SetOpcode(MrcOpcode::RC_ACK);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(static_cast<uint32_t>((m_ePsn - 1 + m_remoteInitialPsn) & MrcBthHeader::PSN_MASK));
    uint8_t kind = CONTROL_ACK;
    if (m_pendingCnpFlag)
    {
        bth.SetBecn(true);
        m_pendingCnpFlag = false;
        kind |= CONTROL_CNP; // the flag counts as a CNP sent
    }
    m_sinceAck = 0;
    // one AddHeader, the bytes of IPv6, UDP, BTH and AETH
    SendControlToPeer(port, p, m_ackDscp, kind, {&bth, &aeth});
}

void
MrcRoceQueuePair::SendNak(uint32_t port, MrcAethHeader::NakCode code)
{
    SendNakFor(port, code, m_ePsn);
}

void
MrcRoceQueuePair::SendNakFor(uint32_t port, MrcAethHeader::NakCode code, uint64_t seq)
{
    Ptr<Packet> p = NewPacket();
    MrcAethHeader aeth;
    aeth.SetNak(code);
    aeth.SetMsn(m_msn);
    p->AddHeader(aeth);
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::RC_ACK);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(static_cast<uint32_t>((seq + m_remoteInitialPsn) & MrcBthHeader::PSN_MASK));
    p->AddHeader(bth);
    SendControlToPeer(port, p, m_ackDscp, CONTROL_NAK);
}

void
MrcRoceQueuePair::SendDeferredCnp()
{
    if (m_state == MrcQpState::RTS)
    {
        SendCnp(m_cnpPort);
    }
}

void
MrcRoceQueuePair::SendCnp(uint32_t port)
{
    Ptr<Packet> p = NewPacket();
    p->AddHeader(MrcCnpHeader());
    p->AddHeader(MrcCnpHeader::MakeBth(m_remoteQpn));
    SendControlToPeer(port, p, m_cnpDscp, CONTROL_CNP);
}

void
MrcRoceQueuePair::SendControlToPeer(uint32_t port,
                                    Ptr<Packet> p,
                                    uint8_t dscp,
                                    uint8_t kind,
                                    std::initializer_list<const MrcWireHeader*> transport)
{
    AddFrameHeaders(p,
                    port,
                    m_nic->GetAddress(port),
                    GetRemoteAddress(port),
                    dscp,
                    MrcEcn::NOT_ECT,
                    m_path.flowLabel,
                    m_path.udpSrcPort,
                    transport);
    SendControl(port, p, dscp, kind);
}

} // namespace ns3
