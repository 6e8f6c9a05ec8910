/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-uec-queue-pair.h"

#include "mrc-uec-pull-pacer.h"
#include "mrc-uec-wire.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-cc-state-header.h"
#include "ns3/mrc-entropy.h"
#include "ns3/mrc-heap-scheduler.h"
#include "ns3/mrc-imm-dt-header.h"
#include "ns3/mrc-memory-region.h"
#include "ns3/mrc-meth-header.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-neth-header.h"
#include "ns3/mrc-nscc.h"
#include "ns3/mrc-opcodes.h"
#include "ns3/mrc-packet-info.h"
#include "ns3/mrc-peth-header.h"
#include "ns3/mrc-rdma-nic.h"
#include "ns3/mrc-reth-header.h"
#include "ns3/mrc-seth-header.h"
#include "ns3/mrc-traffic-class.h"
#include "ns3/mrc-tseth-header.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcUecQueuePair");

NS_OBJECT_ENSURE_REGISTERED(MrcUecQueuePair);

namespace
{

/// Preamble/SFD, FCS and inter-frame gap: what a frame costs on the wire beyond its bytes
/// (the packet built here starts with its Ethernet header: AddFrameHeaders).
constexpr uint32_t WIRE_EXTRA_BYTES = 24;
constexpr uint32_t PSN_MASK = MrcBthHeader::PSN_MASK;

/// \param b two bytes \return them as a big-endian 16-bit value
uint16_t
ReadU16Be(const uint8_t* b)
{
    return static_cast<uint16_t>((uint16_t(b[0]) << 8) | b[1]);
}

} // namespace

/**
 * \ingroup mrc
 * Base RTTs measured by UEC base-RTT probes, by peer address: one per NIC, aggregated to
 * it on first use (so it lives and dies with the simulated node).
 */
class MrcUecBaseRttCache : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::MrcUecBaseRttCache")
                                .SetParent<Object>()
                                .SetGroupName("Mrc")
                                .AddConstructor<MrcUecBaseRttCache>();
        return tid;
    }

    /// \param nic the NIC \return its cache (created and aggregated when missing)
    static Ptr<MrcUecBaseRttCache> Of(Ptr<MrcRdmaNic> nic)
    {
        Ptr<MrcUecBaseRttCache> c = nic->GetObject<MrcUecBaseRttCache>();
        if (!c)
        {
            c = CreateObject<MrcUecBaseRttCache>();
            nic->AggregateObject(c);
        }
        return c;
    }

    /// \param peer address \param rtt out: its base RTT \return true if known
    bool Lookup(const Ipv6Address& peer, Time& rtt) const
    {
        auto it = m_rtt.find(peer);
        if (it == m_rtt.end())
        {
            return false;
        }
        rtt = it->second;
        return true;
    }

    /// Keep the smaller of the known and the new value. \param peer address \param rtt RTT
    void Store(const Ipv6Address& peer, Time rtt)
    {
        auto it = m_rtt.find(peer);
        if (it == m_rtt.end() || rtt < it->second)
        {
            m_rtt[peer] = rtt;
        }
    }

  private:
    std::map<Ipv6Address, Time> m_rtt; //!< peer -> base RTT
};

NS_OBJECT_ENSURE_REGISTERED(MrcUecBaseRttCache);

TypeId
MrcUecQueuePair::GetTypeId()
{
    MrcSprayedAttributeDefaults d;
    d.reorderPsns = 0;
    d.reorderPsnsHelp =
        "Scoreboard count rule: a PSN is inferred lost once this many later PSNs were SACKed; "
        "0 turns it off. Default 0 (off): the UEC reference simulator infers no loss from "
        "SACKs (SLEEK off) and relies on trim NACKs and the RTO; with spraying a small count "
        "misreads reordering as loss (see doc/mrc.rst).";
    d.reorderTimeHelp = "Scoreboard time rule (RACK style): a PSN is inferred lost once a PSN "
                        "sent more than this after it was SACKed; 0 turns it off. Default 0 "
                        "(off).";
    d.ackName = "ACK";
    static TypeId tid =
        AddSprayedAttributes(
            AddCommonAttributes(
                TypeId("ns3::MrcUecQueuePair")
                    .SetParent<MrcSprayedQueuePair>()
                    .SetGroupName("Mrc")
                    .AddConstructor<MrcUecQueuePair>(),
                4096,
                MrcNscc::GetTypeId(),
                MrcFixedEntropyPathSelector::GetTypeId(),
                "4096 B (UEC reference simulator htsim, main_uec.cpp default MTU)."),
            d)
            .AddAttribute("EntropySelector",
                          "TypeId of the per-packet EV strategy (a subclass of "
                          "ns3::MrcPathSelector, e.g. of ns3::MrcUecPathSelector). Default "
                          "ns3::MrcUecMixedSelector, the UEC "
                          "reference simulator's default load balancer.",
                          TypeIdValue(MrcUecMixedSelector::GetTypeId()),
                          MakeTypeIdAccessor(&MrcUecQueuePair::m_evTypeId),
                          MakeTypeIdChecker())
            .AddAttribute("MinRto",
                          "Retransmission timeout, counted from the send time of the oldest "
                          "PSN in flight. Default 100 us (UEC reference simulator min_rto).",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&MrcUecQueuePair::m_minRto),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("MaxRtoRetries",
                          "A PSN that times out after this many retransmissions on timeout "
                          "(those after a NACK or trim do not count) puts the QP in the "
                          "error state (retry-exceeded). Default 5 (UET PDS "
                          "Max_RTO_Retx_Cnt).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&MrcUecQueuePair::m_maxRtoRetries),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("WindowPsns",
                          "PSNs the receiver tracks from its cumulative point and the sender "
                          "may have outstanding (a multiple of 64 in [64, 32640]; both ends "
                          "must agree). Default 1024 (our choice, MrcReceiveBitmap default).",
                          UintegerValue(MrcReceiveBitmap::DEFAULT_WINDOW),
                          MakeUintegerAccessor(&MrcUecQueuePair::m_windowPsns),
                          MakeUintegerChecker<uint32_t>(64, MrcReceiveBitmap::MAX_WINDOW))
            .AddAttribute("BaseRttProbe",
                          "After the first ACK or NACK, send one Probe in the control class "
                          "and feed its RTT to the congestion control's base RTT, unless the "
                          "transfer is <= 1 BDP or the NIC has the peer's base RTT cached "
                          "(then use that). Default true (UEC 1.0 section 3.6.13.7).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcUecQueuePair::m_baseRttProbe),
                          MakeBooleanChecker())
            .AddAttribute("RetxRttSampleBound",
                          "The ACK of a PSN sent twice gives an RTT sample only when the "
                          "sample is at least the configured base RTT. NSCC takes such a "
                          "sample when the ACK echoes Retx, i.e. answers the retransmitted "
                          "copy; the model's ACK has no Retx echo, and the bound stands in "
                          "for it. false: every ACK of a PSN sent twice gives a sample, as "
                          "the UEC reference simulator (htsim) has it after a trim, when the "
                          "first copy is gone and the echo is always set. Default true (our "
                          "choice).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcUecQueuePair::m_retxSampleBound),
                          MakeBooleanChecker())
            .AddAttribute("ReceiverCredit",
                          "Receiver credit congestion control (RCCC) as the UEC reference "
                          "simulator (htsim) implements it: the sender starts with MaxCredit "
                          "of speculative credit, dropped at the first ACK, NACK or PULL; "
                          "then it sends only while it holds credit, which the receiver's "
                          "per-NIC pull pacer (ns3::MrcUecPullPacer) grants up to the pull "
                          "target each data packet carries; a timeout without credit sends "
                          "an RTS. With CongestionControl ns3::MrcNscc both run (set "
                          "ns3::MrcNscc::Rccc too); with ns3::MrcNoCongestionControl RCCC "
                          "runs alone. Default false (htsim's default: sender CC only).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MrcUecQueuePair::m_rccc),
                          MakeBooleanChecker())
            .AddAttribute("MaxCredit",
                          "Receiver credit: the most credit a sender holds, the speculative "
                          "credit it starts with and the speculative credit a receiver "
                          "grants an idle sender, in bytes. 0 (default): 1.5 x line rate x "
                          "BaseRtt (htsim configured_maxwnd = 1.5 BDP).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcUecQueuePair::m_cfgMaxCredit),
                          MakeUintegerChecker<uint64_t>())
            .AddTraceSource("PullSent",
                            "Receiver credit: this responder's pull pacer sent a PULL "
                            "(bytes granted, cumulative bytes granted, speculative).",
                            MakeTraceSourceAccessor(&MrcUecQueuePair::m_pullTrace),
                            "ns3::MrcUecQueuePair::PullTracedCallback");
    return tid;
}

MrcUecQueuePair::MrcUecQueuePair()
    : MrcSprayedQueuePair(NOMINAL_HEADER_BYTES),
      m_minRto(MicroSeconds(100)),
      m_maxRtoRetries(5),
      m_windowPsns(MrcReceiveBitmap::DEFAULT_WINDOW),
      m_baseRttProbe(true),
      m_retxSampleBound(true),
      m_rccc(false),
      m_cfgMaxCredit(0),
      m_port(0),
      m_msnBase(0),
      m_lastRcvdUnits(0),
      m_probeDecided(false),
      m_probePending(false),
      m_probeId(0),
      m_credit(0),
      m_maxCredit(0),
      m_speculating(true),
      m_pullQuanta(0),
      m_pullWire(0),
      m_lastRts(0),
      m_latestPull(0),
      m_highestPt(0),
      m_inPull(false),
      m_inSlowPull(false),
      m_pullEv(0)
{
}

MrcUecQueuePair::~MrcUecQueuePair() = default;

void
MrcUecQueuePair::DoDispose()
{
    m_timer.Cancel();
    m_ev = nullptr;
    MrcSprayedQueuePair::DoDispose();
}

const MrcUecCounters&
MrcUecQueuePair::GetUecCounters() const
{
    return m_uec;
}

Ptr<MrcPathSelector>
MrcUecQueuePair::GetEntropySelector() const
{
    return m_ev;
}

void
MrcUecQueuePair::SetEntropySelector(Ptr<MrcPathSelector> selector)
{
    m_ev = selector;
}

Time
MrcUecQueuePair::GetBaseRttProbeRtt() const
{
    return m_probeRtt;
}

int64_t
MrcUecQueuePair::GetCredit() const
{
    return m_credit;
}

uint64_t
MrcUecQueuePair::GetMaxCredit() const
{
    return m_maxCredit;
}

void
MrcUecQueuePair::DoConnect()
{
    NS_ABORT_MSG_IF(m_windowPsns % 64 != 0,
                    "MrcUecQueuePair: WindowPsns " << m_windowPsns
                                                   << " is not a multiple of 64 in [64, 32640]");
    m_port = m_pathSelector->Select(MrcPathSelector::NO_PORT, false).port;
    NS_ABORT_MSG_IF(m_port >= m_nic->GetNPorts(),
                    "MrcUecQueuePair: path selector chose port " << m_port << " of "
                                                                 << m_nic->GetNPorts());
    if (!m_ev)
    {
        m_ev = CreateEntropySelector(m_evTypeId);
    }
    m_ev->Init(m_qpn, m_remoteQpn, m_nic->GetNPorts());
    MrcSackScoreboard::Config sc;
    sc.capacityPsns = m_windowPsns;
    sc.reorderPsns = m_reorderPsns;
    sc.timeRule = m_reorderTime.IsStrictlyPositive();
    sc.reorderTime = m_reorderTime;
    m_sb = std::make_unique<MrcSackScoreboard>(sc, m_initialPsn & PSN_MASK);
    SetUpResponder(m_windowPsns);
    if (m_rccc)
    {
        m_maxCredit = m_cfgMaxCredit;
        if (m_maxCredit == 0)
        {
            NS_ABORT_MSG_IF(!m_cc.baseRtt.IsStrictlyPositive(),
                            "MrcUecQueuePair: ReceiverCredit needs BaseRtt > 0 (or MaxCredit)");
            m_maxCredit = static_cast<uint64_t>(
                std::llround(1.5 * static_cast<double>(m_cc.lineRate.GetBitRate()) *
                             m_cc.baseRtt.GetSeconds() / 8.0));
        }
        NS_ABORT_MSG_IF(m_maxCredit >= (1u << 23),
                        "MrcUecQueuePair: MaxCredit " << m_maxCredit
                                                      << " B is not below 8388608 (the pull "
                                                         "target's 16 bits of 256 B units)");
        m_credit = static_cast<int64_t>(m_maxCredit); // speculative credit
        m_uec.speculativeCredit = m_maxCredit;
        m_uec.lowestCredit = m_credit;
        Pacer()->AddSource(this);
    }
    if (m_baseRttProbe)
    {
        Time cached;
        if (MrcUecBaseRttCache::Of(m_nic)->Lookup(GetRemoteAddress(m_port), cached))
        {
            m_probeDecided = true; // no probe: start from the cached base RTT
            ++m_uec.baseRttFromCache;
            m_ccOps->OnBaseRttSample(m_cc, cached);
        }
    }
}

void
MrcUecQueuePair::DoEnterError()
{
    m_timer.Remove();
    m_timerAt = Time::Max();
}

// ---------------------------------------------------------------------------
// Requester
// ---------------------------------------------------------------------------

bool
MrcUecQueuePair::WindowAllows(uint32_t bytes) const
{
    return m_cc.inflight <= 0 || uint64_t(m_cc.inflight) + bytes <= m_cc.cwnd;
}

bool
MrcUecQueuePair::CreditAllows() const
{
    return !m_rccc || m_credit > 0; // htsim: any credit lets a whole packet go
}

bool
MrcUecQueuePair::CanRetransmit() const
{
    if (m_sb->GetRetransmitQueueSize() == 0 || !CreditAllows())
    {
        return false;
    }
    return WindowAllows(m_mtu + NOMINAL_HEADER_BYTES);
}

bool
MrcUecQueuePair::CanSendNew() const
{
    if (m_sndNxt >= m_nextWqeSeq || !m_sb->HasRoom() || !CreditAllows())
    {
        return false;
    }
    // the request holding m_sndNxt (there is one: m_sndNxt < m_nextWqeSeq), nearly always
    // the newest: taken as back(), without the deque's index arithmetic
    const MrcSendWqe& newest = m_sendQueue.back();
    const MrcSendWqe& w =
        m_sndNxt >= newest.firstSeq ? newest : m_sendQueue[FindOlderWqe(m_sndNxt)];
    return WindowAllows(PayloadOf(w, m_sndNxt - w.firstSeq) + NOMINAL_HEADER_BYTES);
}

Time
MrcUecQueuePair::GetNextSendTime(uint32_t port) const
{
    if (m_state != MrcQpState::RTS || port != m_port || (!CanRetransmit() && !CanSendNew()))
    {
        return Time::Max(); // an ACK, NACK or the RTO calls NotifyReady
    }
    return m_nextAvail;
}

uint32_t
MrcUecQueuePair::NextEv(bool retransmission)
{
    // 16 bits on the wire (MrcEvEncode SRC_PORT_LOW); the UEC strategies draw 16-bit EVs
    // and always find one (a selector that finds none gives EV 0)
    const MrcPathChoice c = m_ev->Select(m_port, retransmission);
    return c.port == MrcPathSelector::NO_PORT ? 0 : c.ev & 0xffff;
}

bool
MrcUecQueuePair::ChooseNext(uint32_t /* port */, Time now, TxChoice& c)
{
    if (CanRetransmit() && m_sb->NextRetransmit(c.psn))
    {
        c.retx = true;
        c.ev = NextEv(true);
        m_sb->OnRetransmit(c.psn, c.ev, now);
        c.seq = SeqOf(c.psn);
        return true;
    }
    if (CanSendNew())
    {
        c.seq = m_sndNxt;
        c.ev = NextEv(false);
        return true;
    }
    return false;
}

Ptr<Packet>
MrcUecQueuePair::BuildDataPacket(uint32_t port,
                                 std::size_t idx,
                                 uint64_t pktIdx,
                                 uint32_t len,
                                 const TxChoice& c,
                                 bool ar,
                                 uint8_t dscp)
{
    uint16_t pullTarget = 0;
    if (m_rccc)
    {
        // spend the credit, then ask for what is left to send (htsim sendNewPacket /
        // sendRtxPacket: AR also when the credit ran out)
        const int64_t bytes = len + NOMINAL_HEADER_BYTES;
        m_credit -= bytes;
        m_uec.creditSpent += bytes;
        m_uec.lowestCredit = std::min(m_uec.lowestCredit, m_credit);
        ar = ar || m_credit <= 0;
        pullTarget = static_cast<uint16_t>(ComputePullTarget() & 0xffff);
    }
    DataParts d = MakeDataParts(idx, pktIdx, len, c, ar);
    Ptr<Packet> p = d.packet;
    static MrcMethHeader methScratch; // reused: see MrcFreshHeader
    MrcMethHeader& meth = MrcFreshHeader(methScratch);
    meth.SetMsn(static_cast<uint16_t>(m_msnBase + idx));
    // Receiver credit: the pull target rides in RQMSN, which UEC's Writes leave unused
    // (our choice of field; 256 B units, wrapping at 16 bits). 0 with RCCC off.
    meth.SetRqMsn(pullTarget);
    const MrcEvWire wire = MrcEvEncode(static_cast<uint16_t>(c.ev), MrcEvSplit::SRC_PORT_LOW);
    AddFrameHeaders(p,
                    port,
                    m_nic->GetAddressBytes(port),
                    GetRemoteAddressBytes(port),
                    dscp,
                    m_ecnCapable ? MrcEcn::ECT0 : MrcEcn::NOT_ECT,
                    wire.flowLabel,
                    wire.udpSrcPort,
                    {&d.bth, &meth, &d.reth}); // one AddHeader: IPv6, UDP, BTH, METH, RETH
    return p;
}

void
MrcUecQueuePair::AfterDataSent(Ptr<const Packet> p, Time now)
{
    const DataRate rate = m_cc.rate.GetBitRate() > 0 ? m_cc.rate : m_cc.lineRate;
    m_nextAvail = now + m_txTime.Get(rate, p->GetSize() + WIRE_EXTRA_BYTES);
    if (m_timerAt == Time::Max())
    {
        ArmTimer();
    }
}

void
MrcUecQueuePair::OnRequestCompleted(const MrcSendWqe& /* w */)
{
    ++m_msnBase;
}

void
MrcUecQueuePair::ArmTimer()
{
    Time deadline;
    uint32_t psn = 0;
    if (!m_sb->GetOldestDeadline(m_minRto, deadline, psn))
    {
        m_timerAt = Time::Max();
        m_timer.Remove();
        return;
    }
    const Time now = MrcNow();
    m_timerAt = std::max(deadline, now);
    // One pending event; an earlier deadline reschedules it, a later one is checked on expiry.
    // (A pending event's delay left is its time stamp minus now, what GetDelayLeft returns
    // after asking the simulator whether it expired.)
    if (!m_timer.IsPending() || TimeStep(m_timer.GetId().GetTs()) - now > m_timerAt - now)
    {
        m_timer.Remove();
        m_timer.Set(Simulator::Schedule(m_timerAt - now, &MrcUecQueuePair::OnTimer, this));
    }
}

void
MrcUecQueuePair::OnTimer()
{
    m_timer.Fired();
    if (m_state != MrcQpState::RTS || m_timerAt == Time::Max())
    {
        return;
    }
    const Time now = MrcNow();
    if (m_timerAt > now)
    {
        m_timer.Set(Simulator::Schedule(m_timerAt - now, &MrcUecQueuePair::OnTimer, this));
        return;
    }
    const bool rtxQueued = m_sb->GetRetransmitQueueSize() > 0;
    const MrcSackUpdate& upd = m_sb->OnTimeout(now, m_minRto);
    if (!upd.lost.empty())
    {
        ++m_counters.timeouts;
        for (const MrcPsnEvent& e : upd.lost)
        {
            // Only retransmissions a timeout caused count (UET PDS Max_RTO_Retx_Cnt): a
            // PSN trimmed and NACKed again and again in an incast is not given up on.
            if (e.record.timeouts >= m_maxRtoRetries)
            {
                std::ostringstream why;
                why << "retransmission timeout: PSN " << e.psn << " timed out after "
                    << unsigned(e.record.timeouts) << " retransmissions (MaxRtoRetries "
                    << m_maxRtoRetries << ", MinRto " << m_minRto.As(Time::US) << ")";
                EnterError(MrcQpError::RETRY_EXCEEDED, why.str(), MrcWcStatus::RETRY_EXCEEDED);
                return;
            }
        }
        HandleLosses(upd, true);
        TraceCc();
        if (m_rccc)
        {
            // htsim rtxTimerExpired: with retransmissions already queued, or without
            // credit (or, with NSCC, without window), tell the receiver by an RTS
            if (rtxQueued)
            {
                StopSpeculating();
            }
            if (rtxQueued || m_credit <= 0 || !WindowAllows(m_mtu + NOMINAL_HEADER_BYTES))
            {
                SendRts();
            }
        }
    }
    m_timerAt = Time::Max();
    ArmTimer();
    NotifyReady();
}

void
MrcUecQueuePair::OnLostPsn(const MrcPsnEvent& e, bool timeout)
{
    const uint16_t ev = static_cast<uint16_t>(e.record.ev);
    if (timeout)
    {
        ++m_uec.timedOutPsns;
        m_ev->Feedback(ev, MrcPathSignal::TIMEOUT);
    }
    else
    {
        ++m_uec.inferredLosses;
        m_ev->Feedback(ev, MrcPathSignal::LOSS);
    }
}

void
MrcUecQueuePair::ReceiveSack(const MrcRxPacket& rx)
{
    if (rx.info->headerBytes < rx.extOffset + 36)
    {
        return; // not a full ACK_CC
    }
    MrcUecAckFields a;
    MrcUecReadAck(rx.headers + rx.extOffset, a);
    if (a.ccType == MRC_UEC_CC_TYPE_RCCC)
    {
        --m_counters.acksReceived; // a PULL travels as an ACK_CC but acknowledges nothing
        ReceivePull(a.rcvdUnits);
        return;
    }
    StopSpeculating();
    if (a.probe)
    {
        OnBaseRttProbeAnswer(a.probeId);
    }
    else if (!m_probeDecided)
    {
        MaybeSendBaseRttProbe(a.ev);
    }
    const Time now = MrcNow();
    const MrcSackUpdate& upd = m_sb->OnSack(a.cackPsn, a.sackBase, a.sackBitmap);
    MrcCcAck ack;
    ack.ecnEcho = a.ecn;
    ack.rcvCwndPend = a.rcvCwndPend;
    ack.restoreCwnd = a.restoreCwnd;
    // newly_rcvd_bytes: the advance of the receiver's rcvd_bytes (24-bit, 256 B units);
    // an older ACK overtaken by a newer one advances nothing.
    const uint32_t du = (a.rcvdUnits - m_lastRcvdUnits) & 0xffffff;
    if (du > 0 && du < 0x800000)
    {
        m_lastRcvdUnits = a.rcvdUnits;
        ack.newlyAckedBytes = uint64_t(du) * 256;
    }
    for (const MrcPsnEvent& e : upd.acked)
    {
        if (e.psn == a.ackPsn && !a.probe)
        {
            ack.retransmitted = e.record.retxCount > 0;
            ack.rttSample = now - e.record.sendTime;
            // [U] NSCC: also valid when retransmitted once and answering that copy
            ack.rttValid = MrcNscc::IsRttSampleValid(e.record.retxCount,
                                                     ack.rttSample,
                                                     m_retxSampleBound ? m_cc.baseRtt : Time(0));
            break;
        }
    }
    if (ack.rttValid && m_serviceTime.IsStrictlyPositive())
    {
        ack.serviceTime = m_serviceTime;
        ack.rttSample = std::max(ack.rttSample - m_serviceTime, Time(0)); // RTT - service time
    }
    if (!a.probe)
    {
        m_ev->Feedback(a.ev, a.ecn ? MrcPathSignal::ECN : MrcPathSignal::GOOD);
    }
    HandleLosses(upd, false);
    m_cc.inflight = static_cast<int64_t>(m_sb->GetBytesInFlight());
    if (ack.newlyAckedBytes > 0 || !upd.acked.empty())
    {
        m_ccOps->OnAck(m_cc, ack);
    }
    TraceCc();
    AdvanceUna();
    if (m_state != MrcQpState::RTS)
    {
        return;
    }
    ArmTimer();
    NotifyReady();
}

void
MrcUecQueuePair::ReceiveNack(const MrcRxPacket& rx)
{
    if (rx.info->headerBytes < rx.extOffset + MrcNethHeader::SIZE)
    {
        return;
    }
    MrcNethHeader neth;
    ReadHeaders(rx.headers + rx.extOffset, neth);
    const MrcNackReason reason = neth.GetNackReason();
    const uint16_t ev = static_cast<uint16_t>(neth.GetEntropy());
    if (reason == MrcNackReason::TRIMMED)
    {
        ++m_uec.trimNacksReceived;
        m_ev->Feedback(ev, MrcPathSignal::NACK);
    }
    else if (reason == MrcNackReason::TRIMMED_LASTHOP)
    {
        ++m_uec.trimNacksReceived;
        // last hop: no load-balancing penalty
        m_ev->Feedback(ev, (neth.GetCcFlags() & 1) != 0 ? MrcPathSignal::ECN : MrcPathSignal::GOOD);
    }
    else
    {
        NS_LOG_LOGIC("QP " << m_qpn << ": NACK reason " << unsigned(uint8_t(reason)) << " ignored");
        return;
    }
    if (!m_probeDecided)
    {
        MaybeSendBaseRttProbe(ev);
    }
    StopSpeculating();
    const MrcPsnRecord* r = m_sb->OnNack(neth.GetNackPsn());
    if (r)
    {
        const uint32_t bytes = r->bytes;
        // Karn's rule: no RTT sample from a NACK of a PSN sent more than once.
        const Time rtt = r->retxCount > 0 ? Time(0) : MrcNow() - r->sendTime;
        m_cc.inflight = static_cast<int64_t>(m_sb->GetBytesInFlight());
        m_ccOps->OnNackWithRtt(m_cc,
                               bytes,
                               reason == MrcNackReason::TRIMMED ? MrcCcNackKind::TRIMMED
                                                                : MrcCcNackKind::TRIMMED_LAST_HOP,
                               rtt);
        TraceCc();
    }
    ArmTimer();
    NotifyReady();
}

void
MrcUecQueuePair::MaybeSendBaseRttProbe(uint16_t ev)
{
    m_probeDecided = true;
    if (!m_baseRttProbe)
    {
        return;
    }
    // The transfer so far: every request posted (none has completed before the first
    // ACK or NACK).
    uint64_t transfer = 0;
    for (const MrcSendWqe& w : m_sendQueue)
    {
        transfer += w.wr.length;
    }
    const uint64_t bdp =
        static_cast<uint64_t>(m_cc.lineRate.GetBitRate() * m_cc.baseRtt.GetSeconds() / 8.0);
    if (transfer <= bdp)
    {
        ++m_uec.baseRttProbesSkipped;
        return;
    }
    const Time now = MrcNow();
    Ptr<Packet> p = NewPacket();
    MrcPethHeader peth;
    peth.SetProbeId(++m_probeId);
    peth.SetTxTimestamp(MrcTsethHeader::TimeToTicks(now));
    p->AddHeader(peth);
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::MRC_PROBE);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(0); // a probe uses no PSN
    p->AddHeader(bth);
    m_probePending = true;
    m_probeSentAt = now;
    ++m_uec.baseRttProbesSent;
    SendOnEv(m_port, p, ev, CONTROL_UNCOUNTED);
}

void
MrcUecQueuePair::OnBaseRttProbeAnswer(uint16_t probeId)
{
    if (!m_probePending || probeId != m_probeId)
    {
        return; // not ours, or a duplicate answer
    }
    m_probePending = false;
    ++m_uec.baseRttProbesAnswered;
    m_probeRtt = MrcNow() - m_probeSentAt;
    m_ccOps->OnBaseRttSample(m_cc, m_probeRtt);
    MrcUecBaseRttCache::Of(m_nic)->Store(GetRemoteAddress(m_port), m_probeRtt);
}

// ---------------------------------------------------------------------------
// Receiver credit (RCCC)
// ---------------------------------------------------------------------------

Ptr<MrcUecPullPacer>
MrcUecQueuePair::Pacer()
{
    return MrcUecPullPacer::Of(m_nic);
}

void
MrcUecQueuePair::StopSpeculating()
{
    if (!m_rccc || !m_speculating)
    {
        return;
    }
    m_speculating = false;
    if (m_credit > 0)
    {
        m_uec.speculativeDropped += static_cast<uint64_t>(m_credit);
        m_credit = 0;
    }
}

int64_t
MrcUecQueuePair::NewBacklogBytes() const
{
    if (m_sndNxt >= m_nextWqeSeq)
    {
        return 0;
    }
    int64_t bytes = 0;
    for (std::size_t i = FindWqe(m_sndNxt); i < m_sendQueue.size(); ++i)
    {
        const MrcSendWqe& w = m_sendQueue[i];
        const uint64_t first = std::max(m_sndNxt, w.firstSeq);
        const uint64_t packets = w.EndSeq() - first;
        if (packets == 0)
        {
            continue;
        }
        const uint64_t sentBytes = (first - w.firstSeq) * m_mtu;
        bytes += static_cast<int64_t>(w.wr.length > sentBytes ? w.wr.length - sentBytes : 0) +
                 static_cast<int64_t>(packets * NOMINAL_HEADER_BYTES);
    }
    return bytes;
}

int64_t
MrcUecQueuePair::ComputePullTarget() const
{
    // htsim computePullTarget: min(backlog + retransmissions, cwnd + MTU with NSCC,
    // configured_maxwnd) - credit, at least an MTU while speculating with data left,
    // shared by the NIC's active sources, on top of the credit already pulled.
    const int64_t full = m_mtu + NOMINAL_HEADER_BYTES;
    const int64_t backlog = NewBacklogBytes();
    int64_t target =
        backlog + static_cast<int64_t>(m_sb->GetRetransmitQueueSize()) * full; // our choice:
    // a queued retransmission counts as a full packet
    if (m_cc.cwnd < std::numeric_limits<uint64_t>::max())
    {
        target = std::min<int64_t>(target, static_cast<int64_t>(m_cc.cwnd) + full);
    }
    target = std::min<int64_t>(target, static_cast<int64_t>(m_maxCredit));
    target -= m_credit;
    if (m_speculating && target < full && backlog > 0)
    {
        target = full;
    }
    const uint32_t sources = MrcUecPullPacer::Of(m_nic)->ActiveSources();
    if (sources > 1)
    {
        target /= static_cast<int64_t>(sources);
    }
    const int64_t bytes = m_pullQuanta * PULL_QUANTUM + target;
    // ceiling division, also for a negative value
    return bytes >= 0 ? (bytes + PULL_QUANTUM - 1) / PULL_QUANTUM : -((-bytes) / PULL_QUANTUM);
}

void
MrcUecQueuePair::ReceivePull(uint32_t creditUnits)
{
    ++m_uec.pullsReceived;
    StopSpeculating();
    // the cumulative credit wraps at 24 bits; only an advance counts (htsim handlePull)
    const uint32_t du = (creditUnits - m_pullWire) & MrcCcStateHeader::RCVD_BYTES_MASK;
    if (du > 0 && du < 0x800000)
    {
        m_pullWire = creditUnits & MrcCcStateHeader::RCVD_BYTES_MASK;
        m_pullQuanta += du;
        const int64_t before = m_credit;
        m_credit = std::min<int64_t>(m_credit + int64_t(du) * PULL_QUANTUM,
                                     static_cast<int64_t>(m_maxCredit));
        m_uec.creditReceived += static_cast<uint64_t>(std::max<int64_t>(m_credit - before, 0));
    }
    if (m_state == MrcQpState::RTS)
    {
        NotifyReady();
    }
}

void
MrcUecQueuePair::SendRts()
{
    const Time now = MrcNow();
    if (m_lastRts.IsStrictlyPositive() && now - m_lastRts < m_cc.baseRtt)
    {
        return; // at most one RTS per base RTT (htsim: per network RTT)
    }
    m_lastRts = now;
    ++m_uec.rtsSent;
    Ptr<Packet> p = NewPacket();
    MrcPethHeader peth;
    peth.SetType(RTS_PETH_TYPE);
    peth.SetProbeId(static_cast<uint16_t>(ComputePullTarget() & 0xffff)); // the pull target
    peth.SetTxTimestamp(MrcTsethHeader::TimeToTicks(now));
    p->AddHeader(peth);
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::MRC_PROBE);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(0); // an RTS uses no PSN (htsim's takes one; our choice)
    p->AddHeader(bth);
    SendOnEv(m_port, p, static_cast<uint16_t>(NextEv(false)), CONTROL_UNCOUNTED);
}

bool
MrcUecQueuePair::HandlePullTarget(uint16_t wire)
{
    const uint16_t d = static_cast<uint16_t>(wire - static_cast<uint16_t>(m_highestPt & 0xffff));
    if (d == 0 || d >= 0x8000)
    {
        return false;
    }
    m_highestPt += d;
    RequestPull();
    return true;
}

void
MrcUecQueuePair::RequestPull()
{
    if (!m_inPull)
    {
        m_inPull = true;
        Pacer()->RequestPull(this);
    }
}

int64_t
MrcUecQueuePair::Pull(int64_t slowQuanta)
{
    const int64_t prev = m_latestPull;
    if (slowQuanta == 0)
    {
        // only what the sender asked for, never backwards
        m_latestPull += Pacer()->QuantaPerPull();
        if (m_latestPull > m_highestPt)
        {
            m_latestPull = std::max(m_highestPt, prev);
        }
    }
    else
    {
        m_latestPull += slowQuanta; // speculative: regardless of the target
        ++m_uec.slowPullsSent;
    }
    ++m_uec.pullsSent;
    m_pullEv = static_cast<uint16_t>((m_pullEv + 1) & 0x7f); // htsim: pulls cycle 7 EV bits
    Ptr<Packet> p = MrcUecMakePull(*m_rxWin,
                                   m_remoteQpn,
                                   m_pullEv,
                                   static_cast<uint32_t>(m_latestPull & 0xffffff),
                                   true);
    SendOnEv(m_port, p, m_pullEv, CONTROL_UNCOUNTED);
    m_pullTrace(static_cast<uint64_t>(m_latestPull - prev) * PULL_QUANTUM,
                static_cast<uint64_t>(m_latestPull) * PULL_QUANTUM,
                slowQuanta != 0);
    return m_latestPull - prev;
}

int64_t
MrcUecQueuePair::PullBacklog() const
{
    return m_highestPt > m_latestPull ? m_highestPt - m_latestPull : 0;
}

int64_t
MrcUecQueuePair::SlowCredit() const
{
    return m_latestPull > m_highestPt ? m_latestPull - m_highestPt : 0;
}

bool
MrcUecQueuePair::AdmitData(const MrcRxPacket& rx, const Arrival& /* a */)
{
    if (m_rccc && rx.info->headerBytes >= rx.extOffset + MrcMethHeader::SIZE)
    {
        HandlePullTarget(ReadU16Be(rx.headers + rx.extOffset)); // METH RQMSN
    }
    return true;
}

// ---------------------------------------------------------------------------
// Responder
// ---------------------------------------------------------------------------

uint32_t
MrcUecQueuePair::EvOf(const MrcRxPacket& rx) const
{
    return rx.info->udpSrcPort;
}

void
MrcUecQueuePair::OnTrimmedArrival(const MrcRxPacket& rx, const Arrival& a, bool lastHop)
{
    const uint16_t ev = static_cast<uint16_t>(a.ev);
    if (m_rxWin->HasArrived(rx.psn))
    {
        SendAck(rx.port, rx.psn, ev, a.ce); // the original (or a copy) arrived already
        m_sackPolicy->OnSackSent();
        return;
    }
    if (m_rccc && rx.info->headerBytes >= rx.extOffset + MrcMethHeader::SIZE)
    {
        HandlePullTarget(ReadU16Be(rx.headers + rx.extOffset)); // METH RQMSN
    }
    ++m_uec.trimNacksSent;
    m_uec.lastHopNacksSent += lastHop ? 1 : 0;
    MrcNethHeader neth;
    neth.SetNackReason(lastHop ? MrcNackReason::TRIMMED_LASTHOP : MrcNackReason::TRIMMED);
    neth.SetEntropy(ev);
    neth.SetNackPsn(rx.psn);
    neth.SetCcFlags(a.ce ? 1 : 0);
    Ptr<Packet> p = NewPacket();
    p->AddHeader(neth);
    MrcBthHeader bth;
    bth.SetOpcode(MrcOpcode::MRC_NACK);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(rx.psn);
    p->AddHeader(bth);
    SendOnEv(rx.port, p, ev, CONTROL_NAK);
    if (m_rccc)
    {
        RequestPull(); // the sender retransmits: it needs credit (htsim processTrimmed)
    }
}

void
MrcUecQueuePair::OnOutOfWindow(const MrcRxPacket& /* rx */, const Arrival& /* a */)
{
    ++m_uec.oorDrops; // the sender never exceeds the window; a stale copy at most
}

void
MrcUecQueuePair::OnAccessError(const MrcRxPacket& rx,
                               const Arrival& /* a */,
                               uint32_t rkey,
                               uint64_t va)
{
    std::ostringstream why;
    why << "Write to rkey " << rkey << " [" << va << ", +" << rx.payloadBytes
        << ") outside every registered region";
    EnterError(MrcQpError::LOCAL_ACCESS_ERROR, why.str(), MrcWcStatus::FLUSHED);
}

void
MrcUecQueuePair::SendDataAck(uint32_t port, uint32_t psn, const Arrival& a)
{
    SendAck(port, psn, static_cast<uint16_t>(a.ev), a.ce);
}

void
MrcUecQueuePair::ReceiveProbe(const MrcRxPacket& rx)
{
    if (rx.info->headerBytes < rx.extOffset + MrcPethHeader::SIZE)
    {
        return;
    }
    const uint8_t* h = rx.headers + rx.extOffset;
    const uint16_t probeId = static_cast<uint16_t>((uint16_t(h[4]) << 8) | h[5]);
    if ((h[0] >> 4) == RTS_PETH_TYPE)
    {
        // an RTS: the sender waits for credit (htsim processRts); no answer, no PSN
        ++m_uec.rtsReceived;
        if (m_rccc)
        {
            HandlePullTarget(probeId);
            RequestPull();
        }
        return;
    }
    const uint16_t ev = rx.info->udpSrcPort;
    // An ACK_CC of the current receive state, marked as the probe's answer (pr = 1, the
    // probe_id in the ack_psn_offset field).
    Ptr<Packet> p = MrcUecMakeAck(*m_rxWin,
                                  m_rxWin->GetCumulativePsn(),
                                  m_remoteQpn,
                                  ev,
                                  rx.GetEcn() == MrcEcn::CE,
                                  m_rcvdBytes,
                                  0,
                                  false,
                                  true);
    MrcBthHeader bth;
    p->RemoveHeader(bth);
    MrcSethHeader seth;
    p->RemoveHeader(seth);
    seth.SetProbeResponse(true);
    seth.SetProbeId(probeId);
    p->AddHeader(seth);
    p->AddHeader(bth);
    ++m_uec.probesAnswered;
    SendOnEv(rx.port, p, ev, CONTROL_ACK);
    m_sackPolicy->OnSackSent();
}

void
MrcUecQueuePair::SendAck(uint32_t port, uint32_t psn, uint16_t ev, bool ce)
{
    const MrcRcvBackpressure::Fields bp = m_rcvBp.OnSack(MrcNow());
    Ptr<Packet> p =
        MrcUecMakeAck(*m_rxWin, psn, m_remoteQpn, ev, ce, m_rcvdBytes, bp.pen, bp.restore, true);
    SendOnEv(port, p, ev, CONTROL_ACK);
}

void
MrcUecQueuePair::SendOnEv(uint32_t port, Ptr<Packet> p, uint16_t ev, uint8_t kind)
{
    const MrcEvWire wire = MrcEvEncode(ev, MrcEvSplit::SRC_PORT_LOW);
    AddFrameHeaders(p,
                    port,
                    m_nic->GetAddressBytes(port),
                    GetRemoteAddressBytes(port),
                    m_controlDscp,
                    MrcEcn::NOT_ECT,
                    wire.flowLabel,
                    wire.udpSrcPort);
    SendControl(port, p, m_controlDscp, kind);
}

} // namespace ns3
