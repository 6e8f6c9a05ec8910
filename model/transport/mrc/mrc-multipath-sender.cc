/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MrcMultipathQueuePair, part of its implementation (see mrc-multipath-queue-pair.h):
// Requester, sending: the send gates (window, peer MPR, cwnd), the path of each data packet from
// the path selector, the data packet and its encapsulation.

#include "mrc-multipath-queue-pair.h"

#include "ns3/mrc-entropy.h"
#include "ns3/mrc-heap-scheduler.h"
#include "ns3/mrc-meth-header.h"
#include "ns3/mrc-rdma-nic.h"
#include "ns3/mrc-traffic-class.h"
#include "ns3/mrc-tseth-header.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <optional>

namespace ns3
{

uint64_t
MrcMultipathQueuePair::GetSendWindow() const
{
    return std::min<uint64_t>(uint64_t(m_peerMpr) * MrcSethHeader::MPR_UNIT_PSNS,
                              m_sb->GetCapacity());
}

bool
MrcMultipathQueuePair::CanRetransmit() const
{
    const uint64_t inflight = m_cc.inflight > 0 ? static_cast<uint64_t>(m_cc.inflight) : 0;
    if (m_sb->GetRetransmitQueueSize() == 0 || inflight >= m_cc.cwnd)
    {
        return false;
    }
    // a retransmission obeys the peer's window too (else it is NACKed out of window again)
    uint32_t psn;
    m_sb->NextRetransmit(psn);
    return SeqOf(psn) < m_una + GetSendWindow();
}

bool
MrcMultipathQueuePair::CanSendNew() const
{
    if (m_sndNxt >= m_nextWqeSeq || m_sendQueue.empty())
    {
        return false;
    }
    if (m_sndNxt >= m_una + GetSendWindow() || !m_sb->HasRoom())
    {
        return false;
    }
    // the request holding m_sndNxt, nearly always the newest: taken as back(), without the
    // deque's size and index arithmetic of FindWqe's index
    const MrcSendWqe& newest = m_sendQueue.back();
    const MrcSendWqe& w =
        m_sndNxt >= newest.firstSeq ? newest : m_sendQueue[FindOlderWqe(m_sndNxt)];
    if (w.wr.opcode == MrcWrOpcode::WRITE_WITH_IMM && m_sndNxt == w.firstSeq && m_maxWimm > 0 &&
        m_wimmOutstanding >= m_maxWimm)
    {
        return false;
    }
    const uint32_t len = PayloadOf(w, m_sndNxt - w.firstSeq);
    const uint64_t inflight = m_cc.inflight > 0 ? static_cast<uint64_t>(m_cc.inflight) : 0;
    return inflight + len <= m_cc.cwnd; // unsigned: an unlimited window is UINT64_MAX
}

Time
MrcMultipathQueuePair::GetNextSendTime(uint32_t port) const
{
    // The QP's own window first: after a SACK the NIC asks on every port, and the ports
    // after the one that sent find the window full; the path table's lines of the port
    // (CanUsePort) are then not read. (The same answer in either order: the tests read
    // nothing they change.)
    if (m_state != MrcQpState::RTS || !m_paths || !(CanRetransmit() || CanSendNew()) ||
        !m_paths->CanUsePort(port))
    {
        return Time::Max();
    }
    return MrcNow();
}

bool
MrcMultipathQueuePair::ChooseNext(uint32_t port, Time now, TxChoice& c)
{
    MrcPathRequest r;
    r.port = port;
    if (CanRetransmit() && m_sb->NextRetransmit(c.psn))
    {
        r.retransmission = true;
        r.lostEv = m_sb->GetRecord(c.psn)->ev;
        MrcPathChoice path = m_paths->Select(r);
        if (path.port == MrcPathSelector::NO_PORT && !OtherPlaneUsable(port))
        {
            // only fall back to the failed EV when no other plane could carry it: ask as
            // for new data
            r.retransmission = false;
            r.lostEv = MrcPathSelector::NO_EV;
            path = m_paths->Select(r);
        }
        if (!TakePath(path, c))
        {
            return false;
        }
        c.seq = SeqOf(c.psn);
        c.retx = true;
        if (m_sb->GetRecord(c.psn)->state == MrcPsnState::RETX_PENDING)
        {
            ++m_mpCounters.nackRetransmits;
        }
        m_sb->OnRetransmit(c.psn, c.ev, now, static_cast<uint8_t>(port), path.path);
        return true;
    }
    if (!CanSendNew() || !TakePath(m_paths->Select(r), c))
    {
        return false;
    }
    c.seq = m_sndNxt;
    c.group = static_cast<uint8_t>(port);
    return true;
}

bool
MrcMultipathQueuePair::TakePath(const MrcPathChoice& path, TxChoice& c)
{
    if (path.port == MrcPathSelector::NO_PORT)
    {
        ++m_mpCounters.noEvStalls;
        ScheduleRetry();
        return false;
    }
    c.ev = path.ev;
    c.path = path.path;
    c.carrier = path.carrier;
    return true;
}

bool
MrcMultipathQueuePair::OtherPlaneUsable(uint32_t port) const
{
    for (uint32_t p = 0; p < m_nic->GetNPorts(); ++p)
    {
        if (p != port && m_paths->CanUsePort(p) && m_nic->GetDevice(p)->IsLinkUp())
        {
            return true;
        }
    }
    return false;
}

Ptr<Packet>
MrcMultipathQueuePair::BuildDataPacket(uint32_t port,
                                       std::size_t idx,
                                       uint64_t pktIdx,
                                       uint32_t len,
                                       const TxChoice& c,
                                       bool ar,
                                       uint8_t dscp)
{
    // headers, innermost first
    DataParts d = MakeDataParts(idx, pktIdx, len, c, ar);
    Ptr<Packet> p = d.packet;
    // the TSETH only when timestamps are on (off by default): no header object otherwise
    std::optional<MrcTsethHeader> ts;
    if (m_timestamps)
    {
        ts.emplace();
        ts->SetTxTimestamp(MrcTsethHeader::TimeToTicks(MrcNow()));
    }
    static MrcMethHeader methScratch; // reused: see MrcFreshHeader
    MrcMethHeader& meth = MrcFreshHeader(methScratch);
    meth.SetMsn(m_wqeMsn[idx].first);
    meth.SetRqMsn(m_wqeMsn[idx].second);
    d.bth.SetTimestampPresent(m_timestamps);
    Encapsulate(p,
                port,
                c.ev,
                c.carrier,
                dscp,
                m_ecnCapable ? MrcEcn::ECT0 : MrcEcn::NOT_ECT,
                {&d.bth, &meth, ts ? &*ts : nullptr, &d.reth});
    return p;
}

void
MrcMultipathQueuePair::AfterDataSent(Ptr<const Packet> /* p */, Time /* now */)
{
    ArmTimer();
    ArmTailProbe();
}

void
MrcMultipathQueuePair::Encapsulate(Ptr<Packet> p,
                                   uint32_t port,
                                   uint32_t evValue,
                                   const MrcUsidCarrier* carrier,
                                   uint8_t dscp,
                                   MrcEcn ecn,
                                   std::initializer_list<const MrcWireHeader*> transport) const
{
    const MrcEvWire wire =
        MrcEvEncode(evValue, m_srcPortHigh ? MrcEvSplit::SRC_PORT_HIGH : MrcEvSplit::SRC_PORT_LOW);
    AddFrameHeaders(p,
                    port,
                    m_nic->GetAddressBytes(port),
                    GetRemoteAddressBytes(port),
                    dscp,
                    ecn,
                    wire.flowLabel,
                    wire.udpSrcPort,
                    transport,
                    carrier);
}

void
MrcMultipathQueuePair::ScheduleRetry()
{
    if (m_retry.IsExpired())
    {
        m_retry = Simulator::Schedule(MicroSeconds(1), &MrcMultipathQueuePair::NotifyReady, this);
    }
}

} // namespace ns3
