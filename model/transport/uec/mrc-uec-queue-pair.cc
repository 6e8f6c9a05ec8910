/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-uec-queue-pair.h"

#include "mrc-uec-wire.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/mrc-bth-header.h"
#include "ns3/mrc-entropy.h"
#include "ns3/mrc-imm-dt-header.h"
#include "ns3/mrc-memory-region.h"
#include "ns3/mrc-meth-header.h"
#include "ns3/mrc-neth-header.h"
#include "ns3/mrc-opcodes.h"
#include "ns3/mrc-peth-header.h"
#include "ns3/mrc-rdma-nic.h"
#include "ns3/mrc-reth-header.h"
#include "ns3/mrc-seth-header.h"
#include "ns3/mrc-traffic-class.h"
#include "ns3/mrc-tseth-header.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcUecQueuePair");

NS_OBJECT_ENSURE_REGISTERED(MrcUecQueuePair);

namespace
{

/// Ethernet header + preamble/SFD/IFG/FCS: what a frame costs on the wire beyond the packet.
constexpr uint32_t WIRE_EXTRA_BYTES = 14 + 24;
constexpr uint32_t PSN_MASK = MrcBthHeader::PSN_MASK;

uint32_t
ReadU32(const uint8_t* b)
{
    return (uint32_t(b[0]) << 24) | (uint32_t(b[1]) << 16) | (uint32_t(b[2]) << 8) | b[3];
}

uint64_t
ReadU64(const uint8_t* b)
{
    return (uint64_t(ReadU32(b)) << 32) | ReadU32(b + 4);
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
    static TypeId tid =
        AddCommonAttributes(TypeId("ns3::MrcUecQueuePair")
                                .SetParent<MrcQueuePair>()
                                .SetGroupName("Mrc")
                                .AddConstructor<MrcUecQueuePair>(),
                            4096,
                            "ns3::MrcNscc",
                            "ns3::MrcFixedEntropyPathSelector",
                            "4096 B (UEC reference simulator htsim, main_uec.cpp default MTU).")
            .AddAttribute("EntropySelector",
                          "TypeId of the per-packet EV strategy (a subclass of "
                          "ns3::MrcUecPathSelector). Default ns3::MrcUecMixedSelector, the UEC "
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
                          "A PSN that times out after this many retransmissions puts the QP "
                          "in the error state (retry-exceeded). Default 5 (UET PDS "
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
            .AddAttribute("ReorderPsns",
                          "Scoreboard count rule: a PSN is inferred lost once this many later "
                          "PSNs were SACKed; 0 turns it off. Default 0 (off): the UEC reference "
                          "simulator infers no loss from SACKs (SLEEK off) and relies on trim "
                          "NACKs and the RTO; with spraying a small count misreads reordering "
                          "as loss (see doc/mrc.rst).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcUecQueuePair::m_reorderPsns),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ReorderTime",
                          "Scoreboard time rule (RACK style): a PSN is inferred lost once a PSN "
                          "sent more than this after it was SACKed; 0 turns it off. Default 0 "
                          "(off).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&MrcUecQueuePair::m_reorderTime),
                          MakeTimeChecker())
            .AddAttribute("DataDscp",
                          "DSCP of first transmissions. Default 4 (MrcDscp::TRIMMABLE).",
                          UintegerValue(MrcDscp::TRIMMABLE),
                          MakeUintegerAccessor(&MrcUecQueuePair::m_dataDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("RetxDscp",
                          "DSCP of retransmissions. Default 8 (MrcDscp::TRIMMABLE_RETX).",
                          UintegerValue(MrcDscp::TRIMMABLE_RETX),
                          MakeUintegerAccessor(&MrcUecQueuePair::m_retxDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("ControlDscp",
                          "DSCP of ACKs and NACKs. Default 46 (MrcDscp::CONTROL).",
                          UintegerValue(MrcDscp::CONTROL),
                          MakeUintegerAccessor(&MrcUecQueuePair::m_controlDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("TrimmedDscp",
                          "Outer DSCP of a header trimmed inside the fabric (NACK reason "
                          "TRIMMED). Default 11 (MrcDscp::TRIMMED, as MrcTrimmer).",
                          UintegerValue(MrcDscp::TRIMMED),
                          MakeUintegerAccessor(&MrcUecQueuePair::m_trimmedDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("TrimmedLastHopDscp",
                          "Outer DSCP of a header trimmed toward a host (NACK reason "
                          "TRIMMED_LASTHOP). Default 21 (MrcDscp::TRIMMED_LASTHOP).",
                          UintegerValue(MrcDscp::TRIMMED_LASTHOP),
                          MakeUintegerAccessor(&MrcUecQueuePair::m_trimmedLhDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("EcnCapable",
                          "Send data as ECT(0) (default true: NSCC needs marks) or Not-ECT.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcUecQueuePair::m_ecnCapable),
                          MakeBooleanChecker())
            .AddAttribute("ServiceTime",
                          "Responder service time (UET ACK_CC service_time): this QP sends each "
                          "data-triggered ACK this long after its trigger (local processing), "
                          "and as a requester subtracts the same value from every ACK's RTT "
                          "sample before NSCC, which then leaves its base RTT alone (UEC "
                          "htsim). Set it on both ends (the model's ACK_CC packaging in SETH + "
                          "CC_STATE has no field for it). Default 0 = off (our choice).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&MrcUecQueuePair::m_serviceTime),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RcvDrainRate",
                          "Responder backpressure (ACK_CC rcv_cwnd_pend and restore_cwnd; "
                          "MrcRcvBackpressure, the rule shared with MRC): received bytes leave "
                          "a virtual backlog at this rate. 0 (default) = off, pen 0 always "
                          "(our rule; UEC 1.0 leaves it to the implementation).",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&MrcUecQueuePair::m_rcvDrainRate),
                          MakeDataRateChecker())
            .AddAttribute("RcvBusyBytes",
                          "Responder backpressure threshold T: a backlog B > T gives "
                          "pen = min(127, ceil(128 (B - T) / B)). Default 262144 B (our "
                          "choice).",
                          UintegerValue(262144),
                          MakeUintegerAccessor(&MrcUecQueuePair::m_rcvBusyBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("RcvRestoreSacks",
                          "Responder backpressure: ACKs that carry restore_cwnd once the "
                          "backlog is back at or below T / 2 after a penalty. Default 4 (our "
                          "choice).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&MrcUecQueuePair::m_rcvRestoreSacks),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("BaseRttProbe",
                          "After the first ACK or NACK, send one Probe in the control class "
                          "and feed its RTT to the congestion control's base RTT, unless the "
                          "transfer is <= 1 BDP or the NIC has the peer's base RTT cached "
                          "(then use that). Default true (UEC 1.0 section 3.6.13.7).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcUecQueuePair::m_baseRttProbe),
                          MakeBooleanChecker());
    return tid;
}

MrcUecQueuePair::MrcUecQueuePair()
    : m_minRto(MicroSeconds(100)),
      m_maxRtoRetries(5),
      m_windowPsns(MrcReceiveBitmap::DEFAULT_WINDOW),
      m_reorderPsns(0),
      m_dataDscp(MrcDscp::TRIMMABLE),
      m_retxDscp(MrcDscp::TRIMMABLE_RETX),
      m_controlDscp(MrcDscp::CONTROL),
      m_trimmedDscp(MrcDscp::TRIMMED),
      m_trimmedLhDscp(MrcDscp::TRIMMED_LASTHOP),
      m_ecnCapable(true),
      m_baseRttProbe(true),
      m_port(0),
      m_una(0),
      m_sndNxt(0),
      m_txIdx(0),
      m_msnBase(0),
      m_lastRcvdUnits(0),
      m_timerAt(Time::Max()),
      m_probeDecided(false),
      m_probePending(false),
      m_probeId(0),
      m_rcvdBytes(0),
      m_nextMsn(0),
      m_rcvDrainRate(0),
      m_rcvBusyBytes(262144),
      m_rcvRestoreSacks(4),
      m_serviceTime(0)
{
}

MrcUecQueuePair::~MrcUecQueuePair() = default;

void
MrcUecQueuePair::DoDispose()
{
    m_timer.Cancel();
    m_ev = nullptr;
    m_sackPolicy = nullptr;
    MrcQueuePair::DoDispose();
}

const MrcUecCounters&
MrcUecQueuePair::GetUecCounters() const
{
    return m_uec;
}

Ptr<MrcUecPathSelector>
MrcUecQueuePair::GetEntropySelector() const
{
    return m_ev;
}

void
MrcUecQueuePair::SetEntropySelector(Ptr<MrcUecPathSelector> selector)
{
    m_ev = selector;
}

uint32_t
MrcUecQueuePair::GetOutstandingPsns() const
{
    return m_sb ? m_sb->GetOutstandingPsns() : 0;
}

Time
MrcUecQueuePair::GetBaseRttProbeRtt() const
{
    return m_probeRtt;
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
        NS_ABORT_MSG_UNLESS(m_evTypeId.IsChildOf(MrcUecPathSelector::GetTypeId()),
                            "MrcUecQueuePair: EntropySelector "
                                << m_evTypeId.GetName()
                                << " is not a subclass of ns3::MrcUecPathSelector");
        ObjectFactory f(m_evTypeId.GetName());
        m_ev = f.Create<MrcUecPathSelector>();
    }
    MrcSackScoreboard::Config sc;
    sc.capacityPsns = m_windowPsns;
    sc.reorderPsns = m_reorderPsns;
    sc.timeRule = m_reorderTime.IsStrictlyPositive();
    sc.reorderTime = m_reorderTime;
    m_sb = std::make_unique<MrcSackScoreboard>(sc, m_initialPsn & PSN_MASK);
    m_rxWin = std::make_unique<MrcReceiveBitmap>(m_windowPsns, m_remoteInitialPsn & PSN_MASK);
    m_sackPolicy = CreateObject<MrcSackPolicy>();
    m_rcvBp.Configure(m_rcvDrainRate, m_rcvBusyBytes, m_rcvRestoreSacks);
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
    Simulator::Remove(m_timer);
    m_timerAt = Time::Max();
}

// ---------------------------------------------------------------------------
// Requester
// ---------------------------------------------------------------------------

std::size_t
MrcUecQueuePair::FindWqe(uint64_t seq) const
{
    auto it = std::upper_bound(m_sendQueue.begin(),
                               m_sendQueue.end(),
                               seq,
                               [](uint64_t s, const MrcSendWqe& w) { return s < w.firstSeq; });
    NS_ASSERT(it != m_sendQueue.begin());
    return static_cast<std::size_t>(std::distance(m_sendQueue.begin(), it)) - 1;
}

uint32_t
MrcUecQueuePair::PayloadOf(const MrcSendWqe& w, uint64_t idx) const
{
    const uint64_t offset = idx * m_mtu;
    return w.wr.length <= offset
               ? 0
               : static_cast<uint32_t>(std::min<uint64_t>(m_mtu, w.wr.length - offset));
}

bool
MrcUecQueuePair::WindowAllows(uint32_t bytes) const
{
    return m_cc.inflight <= 0 || uint64_t(m_cc.inflight) + bytes <= m_cc.cwnd;
}

bool
MrcUecQueuePair::CanRetransmit() const
{
    if (m_sb->GetRetransmitQueueSize() == 0)
    {
        return false;
    }
    return WindowAllows(m_mtu + NOMINAL_HEADER_BYTES);
}

bool
MrcUecQueuePair::CanSendNew() const
{
    if (m_sndNxt >= m_nextWqeSeq || !m_sb->HasRoom())
    {
        return false;
    }
    std::size_t i = m_txIdx;
    while (m_sendQueue[i].EndSeq() <= m_sndNxt)
    {
        ++i;
    }
    const MrcSendWqe& w = m_sendQueue[i];
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

uint8_t
MrcUecQueuePair::GetNextDscp(uint32_t /* port */) const
{
    return m_sb && m_sb->GetRetransmitQueueSize() > 0 ? m_retxDscp : m_dataDscp;
}

MrcTxPacket
MrcUecQueuePair::BuildNextPacket(uint32_t port)
{
    MrcTxPacket tx;
    if (m_state != MrcQpState::RTS)
    {
        return tx;
    }
    const Time now = Simulator::Now();
    uint32_t psn = 0;
    uint64_t seq = 0;
    std::size_t idx = 0;
    uint16_t ev = 0;
    const bool retx = CanRetransmit() && m_sb->NextRetransmit(psn);
    if (retx)
    {
        ev = m_ev->NextEv();
        m_sb->OnRetransmit(psn, ev, now);
        seq = Unwrap((psn - m_initialPsn) & PSN_MASK, m_una);
        idx = FindWqe(seq);
    }
    else if (CanSendNew())
    {
        while (m_sendQueue[m_txIdx].EndSeq() <= m_sndNxt)
        {
            ++m_txIdx;
        }
        seq = m_sndNxt++;
        idx = m_txIdx;
        ev = m_ev->NextEv();
    }
    else
    {
        return tx;
    }
    const MrcSendWqe& w = m_sendQueue[idx];
    const uint64_t pktIdx = seq - w.firstSeq;
    const uint32_t len = PayloadOf(w, pktIdx);
    if (!retx)
    {
        psn = m_sb->OnSent(len + NOMINAL_HEADER_BYTES, ev, now);
        NS_ASSERT(psn == ((seq + m_initialPsn) & PSN_MASK));
    }
    m_cc.inflight = static_cast<int64_t>(m_sb->GetBytesInFlight());
    m_ccOps->OnSent(m_cc, len + NOMINAL_HEADER_BYTES);
    const bool ar = retx || m_sndNxt >= m_nextWqeSeq || m_ccOps->AckRequest(m_cc);

    const bool first = pktIdx == 0;
    const bool last = pktIdx + 1 == w.nPackets;
    const bool imm = w.wr.opcode == MrcWrOpcode::WRITE_WITH_IMM;
    const uint8_t opcode = MrcOpcode::WriteOpcode(true, first, last, imm);
    Ptr<Packet> p = MakeWritePayload(len, imm && last, w.wr.immediate);
    MrcRethHeader reth;
    reth.SetVirtualAddress(w.wr.remoteAddress + pktIdx * m_mtu);
    reth.SetRkey(w.wr.rkey);
    reth.SetDmaLength(w.wr.length);
    p->AddHeader(reth);
    MrcMethHeader meth;
    meth.SetMsn(static_cast<uint16_t>(m_msnBase + idx));
    p->AddHeader(meth);
    MrcBthHeader bth;
    bth.SetOpcode(opcode);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(psn);
    bth.SetAckReq(ar);
    bth.SetRetransmission(retx);
    p->AddHeader(bth);
    const uint8_t dscp = retx ? m_retxDscp : m_dataDscp;
    const MrcEvWire wire = MrcEvEncode(ev, MrcEvSplit::SRC_PORT_LOW);
    AddIpUdpIcrc(p,
                 m_nic->GetAddress(port),
                 GetRemoteAddress(port),
                 dscp,
                 m_ecnCapable ? MrcEcn::ECT0 : MrcEcn::NOT_ECT,
                 wire.flowLabel,
                 wire.udpSrcPort);

    ++m_counters.dataPacketsSent;
    m_counters.dataBytesSent += len;
    if (retx)
    {
        ++m_counters.retransmittedPackets;
        m_counters.retransmittedBytes += len;
    }
    const DataRate rate = m_cc.rate.GetBitRate() > 0 ? m_cc.rate : m_cc.lineRate;
    m_nextAvail = now + rate.CalculateBytesTxTime(p->GetSize() + WIRE_EXTRA_BYTES);
    if (m_timerAt == Time::Max())
    {
        ArmTimer();
    }
    m_txTrace(p);
    tx.packet = p;
    tx.dscp = dscp;
    return tx;
}

void
MrcUecQueuePair::ArmTimer()
{
    Time deadline;
    uint32_t psn = 0;
    if (!m_sb->GetOldestDeadline(m_minRto, deadline, psn))
    {
        m_timerAt = Time::Max();
        Simulator::Remove(m_timer);
        return;
    }
    const Time now = Simulator::Now();
    m_timerAt = std::max(deadline, now);
    // One pending event; an earlier deadline reschedules it, a later one is checked on expiry.
    if (m_timer.IsExpired() || Simulator::GetDelayLeft(m_timer) > m_timerAt - now)
    {
        Simulator::Remove(m_timer);
        m_timer = Simulator::Schedule(m_timerAt - now, &MrcUecQueuePair::OnTimer, this);
    }
}

void
MrcUecQueuePair::OnTimer()
{
    if (m_state != MrcQpState::RTS || m_timerAt == Time::Max())
    {
        return;
    }
    const Time now = Simulator::Now();
    if (m_timerAt > now)
    {
        m_timer = Simulator::Schedule(m_timerAt - now, &MrcUecQueuePair::OnTimer, this);
        return;
    }
    const MrcSackUpdate& upd = m_sb->OnTimeout(now, m_minRto);
    if (!upd.lost.empty())
    {
        ++m_counters.timeouts;
        for (const MrcPsnEvent& e : upd.lost)
        {
            if (e.record.retxCount >= m_maxRtoRetries)
            {
                std::ostringstream why;
                why << "retransmission timeout: PSN " << e.psn << " timed out after "
                    << e.record.retxCount << " retransmissions (MaxRtoRetries " << m_maxRtoRetries
                    << ", MinRto " << m_minRto.As(Time::US) << ")";
                EnterError(MrcQpError::RETRY_EXCEEDED, why.str(), MrcWcStatus::RETRY_EXCEEDED);
                return;
            }
        }
        HandleLosses(upd, true);
        TraceCc();
    }
    m_timerAt = Time::Max();
    ArmTimer();
    NotifyReady();
}

void
MrcUecQueuePair::HandleLosses(const MrcSackUpdate& upd, bool rto)
{
    if (upd.lost.empty())
    {
        return;
    }
    for (const MrcPsnEvent& e : upd.lost)
    {
        const uint16_t ev = static_cast<uint16_t>(e.record.ev);
        if (rto)
        {
            ++m_uec.timedOutPsns;
            m_ev->OnTimeout(ev);
        }
        else
        {
            ++m_uec.inferredLosses;
            m_ev->OnLoss(ev);
        }
    }
    m_cc.inflight = static_cast<int64_t>(m_sb->GetBytesInFlight());
    m_ccOps->OnLoss(m_cc, static_cast<uint32_t>(std::min<uint64_t>(upd.lostBytes, UINT32_MAX)));
}

bool
MrcUecQueuePair::AdvanceUna()
{
    const uint64_t una = Unwrap((m_sb->GetUna() - m_initialPsn) & PSN_MASK, m_una);
    if (una <= m_una)
    {
        return false;
    }
    m_una = una;
    while (!m_sendQueue.empty() && m_sendQueue.front().EndSeq() <= m_una)
    {
        m_txIdx = m_txIdx > 0 ? m_txIdx - 1 : 0;
        ++m_msnBase;
        CompleteFront(MrcWcStatus::SUCCESS);
        if (m_state != MrcQpState::RTS)
        {
            break;
        }
    }
    return true;
}

void
MrcUecQueuePair::ReceiveAck(const MrcRxPacket& rx)
{
    ++m_counters.acksReceived;
    if (rx.info->headerBytes < rx.extOffset + 36)
    {
        return; // not a full ACK_CC
    }
    MrcUecAckFields a;
    MrcUecReadAck(rx.headers + rx.extOffset, a);
    if (a.probe)
    {
        OnBaseRttProbeAnswer(a.probeId);
    }
    else if (!m_probeDecided)
    {
        MaybeSendBaseRttProbe(a.ev);
    }
    const Time now = Simulator::Now();
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
            ack.rttValid = !ack.retransmitted;
            ack.rttSample = now - e.record.sendTime;
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
        m_ev->OnAck(a.ev, a.ecn);
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
    ++m_counters.naksReceived;
    if (rx.info->headerBytes < rx.extOffset + MrcNethHeader::SIZE)
    {
        return;
    }
    const uint8_t* h = rx.headers + rx.extOffset;
    Buffer b;
    b.AddAtStart(MrcNethHeader::SIZE);
    b.Begin().Write(h, MrcNethHeader::SIZE);
    MrcNethHeader neth;
    neth.Deserialize(b.Begin());
    const MrcNackReason reason = neth.GetNackReason();
    const uint16_t ev = static_cast<uint16_t>(neth.GetEntropy());
    if (reason == MrcNackReason::TRIMMED)
    {
        ++m_uec.trimNacksReceived;
        m_ev->OnNack(ev);
    }
    else if (reason == MrcNackReason::TRIMMED_LASTHOP)
    {
        ++m_uec.trimNacksReceived;
        m_ev->OnAck(ev, (neth.GetCcFlags() & 1) != 0); // last hop: no load-balancing penalty
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
    const MrcPsnRecord* r = m_sb->OnNack(neth.GetNackPsn());
    if (r)
    {
        const uint32_t bytes = r->bytes;
        // Karn's rule: no RTT sample from a NACK of a PSN sent more than once.
        const Time rtt = r->retxCount > 0 ? Time(0) : Simulator::Now() - r->sendTime;
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
    const Time now = Simulator::Now();
    Ptr<Packet> p = Create<Packet>();
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
    SendOnEv(m_port, p, ev);
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
    m_probeRtt = Simulator::Now() - m_probeSentAt;
    m_ccOps->OnBaseRttSample(m_cc, m_probeRtt);
    MrcUecBaseRttCache::Of(m_nic)->Store(GetRemoteAddress(m_port), m_probeRtt);
}

// ---------------------------------------------------------------------------
// Responder
// ---------------------------------------------------------------------------

void
MrcUecQueuePair::Receive(const MrcRxPacket& rx)
{
    m_rxTrace(rx.packet);
    if (m_state != MrcQpState::RTS)
    {
        return;
    }
    const uint8_t op = rx.opcode;
    if (MrcOpcode::IsMrc(op) && MrcOpcode::IsWrite(op))
    {
        ReceiveData(rx);
    }
    else if (op == MrcOpcode::MRC_SACK)
    {
        ReceiveAck(rx);
    }
    else if (op == MrcOpcode::MRC_NACK)
    {
        ReceiveNack(rx);
    }
    else if (op == MrcOpcode::MRC_PROBE)
    {
        ReceiveProbe(rx);
    }
    else
    {
        NS_LOG_LOGIC("QP " << m_qpn << ": opcode " << unsigned(op) << " ignored");
    }
}

void
MrcUecQueuePair::ReceiveData(const MrcRxPacket& rx)
{
    ++m_counters.dataPacketsReceived;
    const uint16_t ev = rx.info->udpSrcPort;
    const bool ce = rx.GetEcn() == MrcEcn::CE;
    const uint8_t dscp = rx.info->GetDscp();
    if (dscp == m_trimmedDscp || dscp == m_trimmedLhDscp)
    {
        if (m_rxWin->HasArrived(rx.psn))
        {
            SendAck(rx.port, rx.psn, ev, ce); // the original (or a copy) arrived already
            m_sackPolicy->OnSackSent();
            return;
        }
        const bool lastHop = dscp == m_trimmedLhDscp;
        ++m_uec.trimNacksSent;
        m_uec.lastHopNacksSent += lastHop ? 1 : 0;
        MrcNethHeader neth;
        neth.SetNackReason(lastHop ? MrcNackReason::TRIMMED_LASTHOP : MrcNackReason::TRIMMED);
        neth.SetEntropy(ev);
        neth.SetNackPsn(rx.psn);
        neth.SetCcFlags(ce ? 1 : 0);
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(neth);
        MrcBthHeader bth;
        bth.SetOpcode(MrcOpcode::MRC_NACK);
        bth.SetDestQp(m_remoteQpn);
        bth.SetPsn(rx.psn);
        p->AddHeader(bth);
        ++m_counters.naksSent;
        SendOnEv(rx.port, p, ev);
        return;
    }
    if (ce)
    {
        ++m_counters.ecnMarkedReceived;
    }
    const MrcRxResult res = m_rxWin->OnArrival(rx.psn);
    if (res.kind == MrcRxArrival::OUT_OF_WINDOW)
    {
        ++m_uec.oorDrops; // the sender never exceeds the window; a stale copy at most
        return;
    }
    if (res.kind == MrcRxArrival::DUPLICATE)
    {
        ++m_counters.duplicatePackets;
    }
    else
    {
        const uint8_t* h = rx.headers + rx.extOffset;
        const uint16_t msn = static_cast<uint16_t>((uint16_t(h[2]) << 8) | h[3]);
        h += MrcMethHeader::SIZE;
        const uint64_t va = ReadU64(h);
        const uint32_t rkey = ReadU32(h + 8);
        const uint32_t dmaLen = ReadU32(h + 12);
        h += MrcRethHeader::SERIALIZED_SIZE;
        if (res.outOfOrder)
        {
            ++m_counters.outOfOrderPackets;
        }
        Ptr<MrcMemoryRegion> mr = m_nic->GetMemoryRegion(rkey);
        if (!mr || !mr->Contains(va, rx.payloadBytes))
        {
            std::ostringstream why;
            why << "Write to rkey " << rkey << " [" << va << ", +" << rx.payloadBytes
                << ") outside every registered region";
            EnterError(MrcQpError::LOCAL_ACCESS_ERROR, why.str(), MrcWcStatus::FLUSHED);
            return;
        }
        mr->Place(va, rx.payloadBytes);
        m_counters.bytesPlaced += rx.payloadBytes;
        m_rcvdBytes += rx.payloadBytes + NOMINAL_HEADER_BYTES;
        m_rcvBp.OnData(Simulator::Now(), rx.payloadBytes);
        const uint64_t k = static_cast<uint16_t>(msn - static_cast<uint16_t>(m_nextMsn));
        if (k >= m_rxMsgs.size())
        {
            m_rxMsgs.resize(k + 1);
        }
        RxMessage& m = m_rxMsgs[k];
        const Time now = Simulator::Now();
        if (!m.seen)
        {
            m.seen = true;
            m.length = dmaLen;
            m.rkey = rkey;
            m.first = now;
        }
        m.received += rx.payloadBytes;
        m.minVa = std::min(m.minVa, va);
        m.last = now;
        if (MrcOpcode::HasImmediate(rx.opcode))
        {
            m.hasImm = true;
            m.imm = ReadU32(h);
        }
        if (k == 0 && m.received >= m.length)
        {
            DeliverMessages();
        }
    }
    MrcSackPolicy::Data d;
    d.bytes = rx.payloadBytes;
    d.ce = ce;
    d.ar = (rx.bthByte8 & MrcBthHeader::ACK_REQ_BIT) != 0;
    d.retx = (rx.bthByte8 & MrcBthHeader::RTX_BIT) != 0;
    d.lastOfMessage = MrcOpcode::EndsMessage(rx.opcode);
    if (m_sackPolicy->OnData(d, res) != SACK_HOLD)
    {
        if (m_serviceTime.IsStrictlyPositive())
        {
            // local processing: the ACK (built then, so it is up to date) leaves later
            Ptr<MrcUecQueuePair> self(this);
            const uint32_t port = rx.port;
            const uint32_t psn = rx.psn;
            Simulator::Schedule(m_serviceTime, [self, port, psn, ev, ce]() {
                if (self->m_state == MrcQpState::RTS)
                {
                    self->SendAck(port, psn, ev, ce);
                }
            });
        }
        else
        {
            SendAck(rx.port, rx.psn, ev, ce);
        }
    }
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
    const uint16_t ev = rx.info->udpSrcPort;
    // An ACK_CC of the current receive state, marked as the probe's answer (pr = 1, the
    // probe_id in the ack_psn_offset field).
    Ptr<Packet> p = MrcUecMakeAck(*m_rxWin,
                                  m_rxWin->GetCumulativePsn(),
                                  m_remoteQpn,
                                  ev,
                                  rx.GetEcn() == MrcEcn::CE,
                                  m_rcvdBytes);
    MrcBthHeader bth;
    p->RemoveHeader(bth);
    MrcSethHeader seth;
    p->RemoveHeader(seth);
    seth.SetProbeResponse(true);
    seth.SetProbeId(probeId);
    p->AddHeader(seth);
    p->AddHeader(bth);
    ++m_counters.acksSent;
    ++m_uec.probesAnswered;
    SendOnEv(rx.port, p, ev);
    m_sackPolicy->OnSackSent();
}

void
MrcUecQueuePair::DeliverMessages()
{
    while (!m_rxMsgs.empty() && m_rxMsgs.front().seen &&
           m_rxMsgs.front().received >= m_rxMsgs.front().length)
    {
        const RxMessage& m = m_rxMsgs.front();
        MrcRecvCompletion rc;
        rc.qpn = m_qpn;
        rc.rkey = m.rkey;
        rc.address = m.minVa;
        rc.bytes = m.length;
        rc.hasImmediate = m.hasImm;
        rc.immediate = m.imm;
        rc.firstPacket = m.first;
        rc.end = m.last;
        m_rxMsgs.pop_front();
        ++m_nextMsn;
        ReportReceived(rc);
    }
}

void
MrcUecQueuePair::SendAck(uint32_t port, uint32_t psn, uint16_t ev, bool ce)
{
    const MrcRcvBackpressure::Fields bp = m_rcvBp.OnSack(Simulator::Now());
    Ptr<Packet> p =
        MrcUecMakeAck(*m_rxWin, psn, m_remoteQpn, ev, ce, m_rcvdBytes, bp.pen, bp.restore);
    ++m_counters.acksSent;
    SendOnEv(port, p, ev);
}

void
MrcUecQueuePair::SendOnEv(uint32_t port, Ptr<Packet> p, uint16_t ev)
{
    const MrcEvWire wire = MrcEvEncode(ev, MrcEvSplit::SRC_PORT_LOW);
    AddIpUdpIcrc(p,
                 m_nic->GetAddress(port),
                 GetRemoteAddress(port),
                 m_controlDscp,
                 MrcEcn::NOT_ECT,
                 wire.flowLabel,
                 wire.udpSrcPort);
    SendControl(port, p, m_controlDscp);
}

} // namespace ns3
