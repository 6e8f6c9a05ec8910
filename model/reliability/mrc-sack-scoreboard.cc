/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-sack-scoreboard.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mrc-seth-header.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcSackScoreboard");

namespace
{
/// \param x a positive number \return the smallest power of two >= x
uint32_t
RoundUpPow2(uint32_t x)
{
    uint32_t p = 1;
    while (p < x)
    {
        p <<= 1;
    }
    return p;
}

/// \param s a state \return true if it is in the retransmit queue
bool
IsQueued(MrcPsnState s)
{
    return s == MrcPsnState::LOST || s == MrcPsnState::RETX_PENDING;
}

/// Shift an offset hint down by count, floored at 0.
void
ShiftDown(uint32_t& h, uint32_t count)
{
    h = (h > count) ? h - count : 0;
}

/// \param bits a non-zero mask \return the index of its lowest set bit
uint32_t
LowestBit(uint64_t bits)
{
    return static_cast<uint32_t>(__builtin_ctzll(bits));
}
} // namespace

MrcSackScoreboard::MrcSackScoreboard(const Config& config, uint32_t initialPsn)
    : m_config(config),
      m_una(initialPsn & PSN_MASK)
{
    NS_ABORT_MSG_IF(config.capacityPsns == 0 || config.capacityPsns > (1u << 23),
                    "MrcSackScoreboard capacity " << config.capacityPsns
                                                  << " PSNs; allowed 1..8388608 (2^23)");
    NS_ABORT_MSG_IF(config.timeRule && config.reorderTime.IsStrictlyNegative(),
                    "MrcSackScoreboard reorder time " << config.reorderTime
                                                      << " is negative; allowed >= 0");
    NS_ABORT_MSG_IF(config.guardMargin.IsStrictlyNegative(),
                    "MrcSackScoreboard guard margin " << config.guardMargin
                                                      << " is negative; allowed >= 0");
    // The ring starts empty and grows by doubling as PSNs go out (Grow), up to the capacity
    // rounded up to a power of two: a connection pays for the PSNs it really has in flight,
    // and a responder-only QP for none (records hold a Time, which ns-3 also tracks in a
    // set until Simulator::Run, so preallocating a full window per QP was expensive).
    m_mask = 0;
    // A count threshold of capacity PSNs or more never fires (fewer PSNs than the capacity
    // are ever outstanding above an unacknowledged one): the capacity stands for any
    // larger one, so the positions kept stay within the window (not 2^32 of them).
    for (uint32_t* n :
         {&m_config.reorderPsns, &m_config.globalReorderPsns, &m_config.pathReorderPsns})
    {
        *n = std::min(*n, m_config.capacityPsns);
    }
    const Config& c = m_config;
    m_countTop.Init(1, c.groupedCount ? c.globalReorderPsns : c.reorderPsns);
    m_groupTop.Init(MAX_GROUPS, c.groupedCount ? c.reorderPsns : 0);
    m_pathTop.Init(MAX_PATHS, c.pathCount ? std::max<uint32_t>(c.pathReorderPsns, 1) : 0);
    if (c.pathCount)
    {
        m_pathFrontierAbs.assign(MAX_PATHS, 0);
        m_pathThr.assign(MAX_PATHS, 0);
    }
}

MrcSackScoreboard::MrcSackScoreboard()
    : MrcSackScoreboard(Config{})
{
}

void
MrcSackScoreboard::Grow()
{
    const uint32_t limit = RoundUpPow2(m_config.capacityPsns);
    const uint32_t old = static_cast<uint32_t>(m_ring.size());
    const uint32_t size = old == 0 ? std::min(limit, INITIAL_RING) : std::min(limit, 2 * old);
    // (the update's vectors are reused for every SACK and keep the capacity they grew to: a
    // connection of short messages never makes room for 64 PSNs in them)
    std::vector<MrcPsnRecord> ring(size);
    std::vector<uint64_t> bits((size + 63) / 64, 0);
    for (uint32_t off = 0; off < old; ++off)
    {
        ring[off] = At(off); // live records keep their order, una at index 0
        if (off < m_outstanding && IsSackedAt(off))
        {
            bits[off / 64] |= uint64_t{1} << (off % 64);
        }
    }
    m_ring.swap(ring);
    m_sackedBits.swap(bits);
    m_head = 0;
    m_mask = size - 1;
}

MrcPsnRecord&
MrcSackScoreboard::At(uint32_t off)
{
    return m_ring[(m_head + off) & m_mask];
}

const MrcPsnRecord&
MrcSackScoreboard::At(uint32_t off) const
{
    return m_ring[(m_head + off) & m_mask];
}

bool
MrcSackScoreboard::OffsetOf(uint32_t psn, uint32_t& off) const
{
    off = (psn - m_una) & PSN_MASK;
    return off < m_outstanding;
}

bool
MrcSackScoreboard::HasRoom() const
{
    return m_outstanding < m_config.capacityPsns;
}

uint32_t
MrcSackScoreboard::OnSent(uint32_t bytes, uint32_t ev, Time now, uint8_t group, uint32_t path)
{
    NS_ABORT_MSG_IF(!HasRoom(),
                    "MrcSackScoreboard full: " << m_outstanding << " PSNs outstanding, capacity "
                                               << m_config.capacityPsns);
    if (m_outstanding == m_ring.size())
    {
        Grow();
    }
    const uint32_t slot = (m_head + m_outstanding) & m_mask;
    m_sackedBits[slot / 64] &= ~(uint64_t{1} << (slot % 64));
    MrcPsnRecord& r = m_ring[slot];
    r.sendTime = now;
    r.bytes = bytes;
    r.ev = ev;
    NS_ABORT_MSG_IF(group >= MAX_GROUPS,
                    "MrcSackScoreboard group " << unsigned(group) << " not below " << MAX_GROUPS);
    r.group = group;
    m_groupsUsed |= 1u << group;
    r.path = static_cast<uint8_t>(path % MAX_PATHS);
    m_pathsUsed[r.path / 64] |= uint64_t(1) << (r.path % 64);
    r.retxCount = 0;
    r.timeouts = 0;
    r.state = MrcPsnState::SENT;
    uint32_t psn = (m_una + m_outstanding) & PSN_MASK;
    ++m_outstanding;
    m_inflightBytes += bytes;
    m_anySent = true;
    return psn;
}

void
MrcSackScoreboard::OnRetransmit(uint32_t psn, uint32_t ev, Time now, uint8_t group, uint32_t path)
{
    uint32_t off;
    NS_ABORT_MSG_IF(!OffsetOf(psn, off),
                    "MrcSackScoreboard::OnRetransmit PSN " << psn << " not outstanding");
    MrcPsnRecord& r = At(off);
    NS_ABORT_MSG_IF(!IsQueued(r.state),
                    "MrcSackScoreboard::OnRetransmit PSN " << psn << " is not queued (state "
                                                           << static_cast<int>(r.state) << ")");
    r.state = MrcPsnState::SENT;
    r.sendTime = now;
    r.ev = ev;
    NS_ABORT_MSG_IF(group >= MAX_GROUPS,
                    "MrcSackScoreboard group " << unsigned(group) << " not below " << MAX_GROUPS);
    r.group = group;
    m_groupsUsed |= 1u << group;
    r.path = static_cast<uint8_t>(path % MAX_PATHS);
    m_pathsUsed[r.path / 64] |= uint64_t(1) << (r.path % 64);
    if (r.retxCount < std::numeric_limits<uint16_t>::max())
    {
        ++r.retxCount;
    }
    --m_retxQueued;
    m_inflightBytes += r.bytes;
    m_retxTop = std::max(m_retxTop, off + 1);
    if (m_config.pathCount && (m_config.retxPathCount || m_config.retxBackstop))
    {
        const uint64_t pos = m_unaAbs + off;
        for (RetxWatch& w : m_retxWatch)
        {
            if (w.pos == pos)
            {
                w = m_retxWatch.back(); // an earlier copy's watch ends
                m_retxWatch.pop_back();
                break;
            }
        }
        RetxWatch w;
        w.pos = pos;
        w.sent = now;
        w.path = r.path;
        w.group = r.group;
        m_retxWatch.push_back(w);
    }
}

void
MrcSackScoreboard::ClearUpdate()
{
    m_update.acked.clear();
    m_update.lost.clear();
    m_update.ackedBytes = 0;
    m_update.ackedInflightBytes = 0;
    m_update.lostBytes = 0;
    m_update.cumAdvanced = 0;
}

void
MrcSackScoreboard::AdvanceUna(uint32_t count)
{
    for (uint32_t k = 0; k < count; ++k)
    {
        if (IsSackedAt(0))
        {
            --m_sackedCount; // (its record is not read)
        }
        else
        {
            MrcPsnRecord& r = At(0);
            if (!m_retxWatch.empty())
            {
                CountForRetxWatch(r);
            }
            if (m_hasNow && r.retxCount == 0 && r.state != MrcPsnState::RETX_PENDING)
            {
                RecordDelay(m_now - r.sendTime); // delivered, acknowledged cumulatively
            }
            if (r.state == MrcPsnState::SENT)
            {
                m_inflightBytes -= r.bytes;
                m_update.ackedInflightBytes += r.bytes;
            }
            else
            {
                --m_retxQueued;
            }
            m_update.acked.push_back({m_una, r});
            m_update.ackedBytes += r.bytes;
            if (!m_anySackedSendTime || r.sendTime > m_latestSackedSendTime)
            {
                m_latestSackedSendTime = r.sendTime;
                m_anySackedSendTime = true;
            }
        }
        m_head = (m_head + 1) & m_mask;
        m_una = (m_una + 1) & PSN_MASK;
        --m_outstanding;
    }
    m_update.cumAdvanced += count;
    m_unaAbs += count;
    ShiftDown(m_retxHint, count);
    ShiftDown(m_countFrontier, count);
    ShiftDown(m_highestSacked, count);
    ShiftDown(m_retxTop, count);
    for (uint32_t& f : m_groupFrontier)
    {
        ShiftDown(f, count);
    }
    // the path frontiers are absolute positions: they follow una without a walk
}

void
MrcSackScoreboard::SackOffset(uint32_t off)
{
    MrcPsnRecord& r = At(off);
    if (r.state == MrcPsnState::SACKED)
    {
        return;
    }
    if (!m_retxWatch.empty())
    {
        CountForRetxWatch(r);
        NoteWatchedGone(m_unaAbs + off);
    }
    if (m_hasNow && r.retxCount == 0 && r.state != MrcPsnState::RETX_PENDING)
    {
        RecordDelay(m_now - r.sendTime); // a first transmission delivered (LOST: spuriously)
    }
    if (r.state == MrcPsnState::SENT)
    {
        m_inflightBytes -= r.bytes;
        m_update.ackedInflightBytes += r.bytes;
    }
    else
    {
        --m_retxQueued;
    }
    m_update.acked.push_back({(m_una + off) & PSN_MASK, r});
    m_update.ackedBytes += r.bytes;
    r.state = MrcPsnState::SACKED;
    const uint32_t slot = (m_head + off) & m_mask;
    m_sackedBits[slot / 64] |= uint64_t{1} << (slot % 64);
    ++m_sackedCount;
    m_highestSacked = std::max(m_highestSacked, off + 1);
    const uint64_t pos = m_unaAbs + off;
    m_countTop.Add(0, pos);
    if (m_groupTop.Add(r.group, pos))
    {
        m_groupsDirty |= 1u << r.group;
    }
    if (r.retxCount == 0 && m_pathTop.Add(r.path, pos))
    {
        m_pathsDirty[r.path / 64] |= uint64_t(1) << (r.path % 64);
    }
    if (!m_anySackedSendTime || r.sendTime > m_latestSackedSendTime)
    {
        m_latestSackedSendTime = r.sendTime;
        m_anySackedSendTime = true;
    }
}

void
MrcSackScoreboard::CountForRetxWatch(const MrcPsnRecord& r)
{
    for (RetxWatch& w : m_retxWatch)
    {
        if (r.sendTime > w.sent)
        {
            ++w.laterAll;
            w.laterGroup += r.group == w.group ? 1 : 0;
            w.later += r.path == w.path ? 1 : 0;
        }
    }
}

void
MrcSackScoreboard::NoteWatchedGone(uint64_t pos)
{
    // at most one watch per position (OnRetransmit ends an earlier copy's)
    for (RetxWatch& w : m_retxWatch)
    {
        if (w.pos == pos)
        {
            w.gone = true;
            return;
        }
    }
}

void
MrcSackScoreboard::InferRetxLosses()
{
    const uint32_t n = std::max<uint32_t>(m_config.pathReorderPsns, 1);
    const bool guarded = m_config.backstopGuard && m_config.groupedCount;
    std::size_t i = 0;
    while (i < m_retxWatch.size())
    {
        const RetxWatch& w = m_retxWatch[i];
        // Still the watched copy in flight? Its record stays SENT with the watch's send time
        // until SackOffset, MarkLost or OnNack moves it (each sets w.gone; a new copy is sent
        // only from LOST or RETX_PENDING, and OnRetransmit then ends this watch), so the
        // flag answers without reading the record.
        bool done = w.gone || w.pos < m_unaAbs || w.pos - m_unaAbs >= m_outstanding;
        if (!done)
        {
            const auto off = static_cast<uint32_t>(w.pos - m_unaAbs);
            if (m_config.retxPathCount && w.later >= n)
            {
                MarkLost(off);
                done = true;
            }
            else if (m_config.retxBackstop && RetxBackstopReached(w))
            {
                const MrcPsnRecord& r = At(off);
                if (guarded && !GuardAllows(r))
                {
                    Hold(r); // re-checked at the guard's expiry
                }
                else
                {
                    MarkLost(off);
                    done = true;
                }
            }
        }
        if (done)
        {
            m_retxWatch[i] = m_retxWatch.back();
            m_retxWatch.pop_back();
        }
        else
        {
            ++i;
        }
    }
}

bool
MrcSackScoreboard::RetxBackstopReached(const RetxWatch& w) const
{
    const bool group =
        m_config.groupedCount && m_config.reorderPsns > 0 && w.laterGroup >= m_config.reorderPsns;
    const bool all = m_config.globalReorderPsns > 0 && w.laterAll >= m_config.globalReorderPsns;
    return group || all;
}

void
MrcSackScoreboard::CountTimeout(MrcPsnRecord& r)
{
    // after MarkLost: the event keeps the count of the expiries before this one
    if (r.timeouts < std::numeric_limits<uint8_t>::max())
    {
        ++r.timeouts;
    }
}

void
MrcSackScoreboard::MarkLost(uint32_t off)
{
    MrcPsnRecord& r = At(off);
    if (!m_retxWatch.empty())
    {
        NoteWatchedGone(m_unaAbs + off);
    }
    m_update.lost.push_back({(m_una + off) & PSN_MASK, r});
    m_update.lostBytes += r.bytes;
    m_inflightBytes -= r.bytes;
    r.state = MrcPsnState::LOST;
    ++m_retxQueued;
    m_retxHint = std::min(m_retxHint, off);
}

void
MrcSackScoreboard::TopSacked::Init(uint32_t sets, uint32_t n)
{
    // the storage is made at the first Add: a QP that only responds never pays for it
    m_n = n;
    m_sets = sets;
    m_blocks.clear();
}

bool
MrcSackScoreboard::TopSacked::Add(uint32_t set, uint64_t p)
{
    if (m_n == 0)
    {
        return false;
    }
    if (m_blocks.empty())
    {
        m_blocks.assign(static_cast<std::size_t>(m_sets) * (m_n + 1), 0);
    }
    // A set's positions form a ring of N slots, lowest at the head: a new highest position
    // (the usual case) replaces the lowest without moving the others.
    uint64_t* blk = Block(set);
    uint64_t* b = blk + 1;
    auto c = static_cast<uint32_t>(blk[0]);
    auto h = static_cast<uint32_t>(blk[0] >> 32);
    const uint32_t n = m_n;
    auto at = [b, &h, n](uint32_t k) -> uint64_t& {
        const uint32_t i = h + k;
        return b[i >= n ? i - n : i];
    };
    bool full = c == n;
    if (full)
    {
        if (p <= at(0))
        {
            return false;
        }
        h = h + 1 == n ? 0 : h + 1; // the lowest leaves
        --c;
    }
    uint32_t k = c;
    while (k > 0 && at(k - 1) > p)
    {
        at(k) = at(k - 1);
        --k;
    }
    at(k) = p;
    ++c;
    blk[0] = (uint64_t{h} << 32) | c;
    return full || c == n;
}

bool
MrcSackScoreboard::TopSacked::Highest(uint32_t set, uint64_t& p) const
{
    if (m_n == 0 || m_blocks.empty())
    {
        return false;
    }
    const uint64_t* blk = Block(set);
    const auto c = static_cast<uint32_t>(blk[0]);
    if (c == 0)
    {
        return false;
    }
    // the ring ascends from the head: the highest is the last slot used
    const uint32_t i = static_cast<uint32_t>(blk[0] >> 32) + c - 1;
    p = blk[1 + (i >= m_n ? i - m_n : i)];
    return true;
}

bool
MrcSackScoreboard::TopSacked::NthOffset(uint32_t set, uint64_t unaAbs, uint32_t& off) const
{
    // Positions below una were cumulatively acknowledged: with one of the N there, fewer
    // than N SACKed PSNs of the set are still in the window.
    if (m_n == 0 || m_blocks.empty())
    {
        return false;
    }
    const uint64_t* blk = Block(set);
    if (static_cast<uint32_t>(blk[0]) < m_n)
    {
        return false;
    }
    const uint64_t nth = blk[1 + static_cast<uint32_t>(blk[0] >> 32)];
    if (nth < unaAbs)
    {
        return false;
    }
    off = static_cast<uint32_t>(nth - unaAbs);
    return true;
}

void
MrcSackScoreboard::InferLosses()
{
    uint32_t n = m_config.reorderPsns;
    m_guardHeld = false; // the guarded rules below say again what they hold back
    if (!m_retxWatch.empty())
    {
        InferRetxLosses();
    }
    if (m_config.pathCount)
    {
        InferPathLosses();
    }
    if (m_config.groupedCount)
    {
        InferGroupedLosses();
        n = m_config.globalReorderPsns; // the plain count rule as well, with its own N
    }
    InferCountLosses(n);
    // Time rule: lost if a PSN sent more than reorderTime later has been acknowledged.
    if (m_config.timeRule && m_anySackedSendTime)
    {
        // First transmissions are sent in PSN order, so above the highest retransmitted
        // record the send times only grow: the scan stops at the first one too recent.
        const Time cut = m_latestSackedSendTime - m_config.reorderTime;
        for (uint32_t off = 0; off < m_outstanding; ++off)
        {
            MrcPsnRecord& r = At(off);
            if (r.sendTime < cut)
            {
                if (r.state == MrcPsnState::SENT)
                {
                    MarkLost(off);
                }
            }
            else if (off >= m_retxTop)
            {
                break;
            }
        }
    }
    if (m_update.lost.size() > 1 &&
        (m_config.timeRule || m_config.groupedCount || m_config.pathCount))
    {
        SortAscending(m_update.lost);
    }
}

void
MrcSackScoreboard::InferCountLosses(uint32_t n)
{
    // Count rule: T = offset of the N-th highest SACKed PSN; every never-retransmitted
    // PSN still in flight below T has at least N SACKed PSNs above it.
    uint32_t t;
    if (n == 0 || m_sackedCount < n || !m_countTop.NthOffset(0, m_unaAbs, t))
    {
        return;
    }
    // with the backstop guard (global rule of LossRule Path) first transmissions go in PSN
    // order, so the first one held back is followed only by younger ones: stop there
    const bool guarded = m_config.backstopGuard && m_config.pathCount && m_config.groupedCount;
    uint32_t off = m_countFrontier;
    for (; off < t; ++off)
    {
        MrcPsnRecord& r = At(off);
        if (r.state != MrcPsnState::SENT || r.retxCount != 0)
        {
            continue;
        }
        if (guarded && !GuardAllows(r))
        {
            Hold(r);
            break;
        }
        MarkLost(off);
    }
    m_countFrontier = std::max(m_countFrontier, off);
}

void
MrcSackScoreboard::InferGroupedLosses()
{
    // Per group g: T_g = offset of the N-th highest SACKed PSN of g; every never-
    // retransmitted PSN of g still in flight below T_g has N SACKed PSNs of g above it.
    const uint32_t n = m_config.reorderPsns;
    if (n == 0 || m_sackedCount < n || m_groupsUsed == 0)
    {
        return;
    }
    // Only a group whose N-th highest SACKed PSN moved can have a new threshold: for the
    // others it is still at or below their frontier (both shift down as una advances).
    // A group the backstop guard stopped early is looked at again at every SACK.
    const bool guarded = m_config.backstopGuard && m_config.pathCount;
    const uint32_t groups = m_groupsDirty | m_groupsPending;
    m_groupsDirty = 0;
    m_groupsPending = 0;
    for (uint32_t bits = groups; bits != 0; bits &= bits - 1)
    {
        const uint32_t g = LowestBit(bits);
        uint32_t thr;
        if (!m_groupTop.NthOffset(g, m_unaAbs, thr) || thr <= m_groupFrontier[g])
        {
            continue;
        }
        uint32_t off = m_groupFrontier[g];
        for (; off < thr; ++off)
        {
            MrcPsnRecord& r = At(off);
            if (r.group != g || r.retxCount != 0 || r.state != MrcPsnState::SENT)
            {
                continue;
            }
            if (guarded && !GuardAllows(r))
            {
                m_groupsPending |= 1u << g; // younger ones follow (PSN order): stop here
                Hold(r);
                break;
            }
            MarkLost(off);
        }
        m_groupFrontier[g] = off;
    }
}

void
MrcSackScoreboard::InferPathLosses()
{
    // As the grouped rule, keyed by the path label: T_p = offset of the N-th highest
    // SACKed PSN sent on path p; every never-retransmitted PSN of p still in flight below
    // T_p has N SACKed PSNs of its own path above it. First transmissions are sent in PSN
    // order, and one path delivers in order, so these were sent after it and overtook it.
    const uint32_t n = std::max<uint32_t>(m_config.pathReorderPsns, 1);
    bool anyUsed = false;
    for (uint64_t w : m_pathsUsed)
    {
        anyUsed = anyUsed || w != 0;
    }
    if (m_sackedCount < n || !anyUsed)
    {
        return;
    }
    // T_p comes from the path's highest SACKed positions, kept as SACKs arrive; only a
    // path whose N-th highest SACKed PSN moved can have a new one (for the others T_p is
    // still at or below the frontier: both shift down as una advances). thr = 0: nothing.
    // m_pathThr[p] = T_p for the paths looked at here, 0 for the others (reset below)
    constexpr uint32_t WORDS = MAX_PATHS / 64;
    uint64_t dirty[WORDS];
    for (uint32_t w = 0; w < WORDS; ++w)
    {
        dirty[w] = m_pathsDirty[w];
        m_pathsDirty[w] = 0;
    }
    // one pass over the union of the new ranges [frontier, T_p)
    uint32_t from = m_highestSacked;
    uint32_t to = 0;
    for (uint32_t w = 0; w < WORDS; ++w)
    {
        for (uint64_t bits = dirty[w]; bits != 0; bits &= bits - 1)
        {
            const uint32_t p = 64 * w + LowestBit(bits);
            uint32_t t;
            if (m_pathTop.NthOffset(p, m_unaAbs, t) && t > PathFrontier(p))
            {
                m_pathThr[p] = t;
                from = std::min(from, PathFrontier(p));
                to = std::max(to, t);
            }
        }
    }
    for (uint32_t off = from; off < to; ++off)
    {
        if (IsSackedAt(off))
        {
            continue; // not SENT (its record is not read)
        }
        MrcPsnRecord& r = At(off);
        if (off >= PathFrontier(r.path) && off < m_pathThr[r.path] &&
            r.state == MrcPsnState::SENT && r.retxCount == 0)
        {
            MarkLost(off);
        }
    }
    for (uint32_t w = 0; w < WORDS; ++w)
    {
        for (uint64_t bits = dirty[w]; bits != 0; bits &= bits - 1)
        {
            const uint32_t p = 64 * w + LowestBit(bits);
            if (m_pathThr[p] > PathFrontier(p))
            {
                m_pathFrontierAbs[p] = m_unaAbs + m_pathThr[p];
            }
            m_pathThr[p] = 0;
        }
    }
}

const MrcSackUpdate&
MrcSackScoreboard::OnSack(uint32_t cackPsn, uint32_t basePsn, uint64_t bitmap)
{
    return Apply(cackPsn, basePsn, bitmap, false, 0, false, Time(0));
}

const MrcSackUpdate&
MrcSackScoreboard::OnSack(const MrcSethHeader& seth)
{
    return Apply(seth.GetCackPsn(),
                 seth.GetSackBasePsn(),
                 seth.GetSackBitmap(),
                 !seth.IsProbeResponse(),
                 seth.GetAckPsn(),
                 false,
                 Time(0));
}

const MrcSackUpdate&
MrcSackScoreboard::OnSack(uint32_t cackPsn, uint32_t basePsn, uint64_t bitmap, Time now)
{
    return Apply(cackPsn, basePsn, bitmap, false, 0, true, now);
}

const MrcSackUpdate&
MrcSackScoreboard::OnSack(const MrcSethHeader& seth, Time now)
{
    return Apply(seth.GetCackPsn(),
                 seth.GetSackBasePsn(),
                 seth.GetSackBitmap(),
                 !seth.IsProbeResponse(),
                 seth.GetAckPsn(),
                 true,
                 now);
}

Time
MrcSackScoreboard::GetBackstopGuard() const
{
    return std::max(m_delayMax[0], m_delayMax[1]) + m_config.guardMargin;
}

bool
MrcSackScoreboard::GuardAllows(const MrcPsnRecord& r) const
{
    // out as long as any PSN delivered lately took (plus the margin): not merely slow
    return m_hasNow && m_now - r.sendTime >= GetBackstopGuard();
}

void
MrcSackScoreboard::Hold(const MrcPsnRecord& r)
{
    // the guard of r expires at its send time + the guard (later than now: GuardAllows
    // refused it); the caller re-checks at the earliest such time (GetGuardExpiry)
    const Time at = r.sendTime + GetBackstopGuard();
    if (m_hasNow && (!m_guardHeld || at < m_guardExpiry))
    {
        m_guardExpiry = at;
        m_guardHeld = true;
    }
}

bool
MrcSackScoreboard::GetGuardExpiry(Time& at) const
{
    at = m_guardExpiry;
    return m_guardHeld;
}

const MrcSackUpdate&
MrcSackScoreboard::OnGuardExpiry(Time now)
{
    ClearUpdate();
    m_hasNow = true;
    m_now = now;
    m_guardHeld = false;
    if (!m_config.backstopGuard || !m_config.pathCount || !m_config.groupedCount)
    {
        return m_update;
    }
    // only the guarded rules: nothing else changed since the last SACK
    if (m_config.retxBackstop && !m_retxWatch.empty())
    {
        InferRetxLosses();
    }
    InferGroupedLosses();
    InferCountLosses(m_config.globalReorderPsns);
    if (m_update.lost.size() > 1)
    {
        SortAscending(m_update.lost);
    }
    return m_update;
}

void
MrcSackScoreboard::RecordDelay(Time delay)
{
    // windowed maximum over two windows of 8 guards each: a queue that drained is
    // forgotten after at most two windows; a window without samples changes nothing
    const Time window = 8 * GetBackstopGuard();
    if (m_now - m_delayWindowStart >= window && m_delayMax[0].IsStrictlyPositive())
    {
        m_delayMax[1] = m_delayMax[0];
        m_delayMax[0] = Time(0);
        m_delayWindowStart = m_now;
    }
    m_delayMax[0] = std::max(m_delayMax[0], delay);
}

const MrcSackUpdate&
MrcSackScoreboard::Apply(uint32_t cackPsn,
                         uint32_t basePsn,
                         uint64_t bitmap,
                         bool hasAckPsn,
                         uint32_t ackPsn,
                         bool hasNow,
                         Time now)
{
    ClearUpdate();
    m_hasNow = hasNow;
    m_now = now;
    // cumulative part: PSNs una .. cack
    int32_t d = MrcSethHeader::PsnDistance(m_una, (cackPsn + 1) & PSN_MASK);
    if (d > 0)
    {
        if (static_cast<uint32_t>(d) > m_outstanding)
        {
            NS_LOG_WARN("SACK cack_psn " << cackPsn << " beyond the highest PSN sent; ignored");
            return m_update;
        }
        AdvanceUna(static_cast<uint32_t>(d));
        if (m_inRecovery && MrcSethHeader::PsnDistance(m_recoveryPsn, m_una) >= 0)
        {
            m_inRecovery = false;
        }
    }
    // selective part
    uint32_t off;
    while (bitmap != 0)
    {
        auto i = static_cast<uint32_t>(__builtin_ctzll(bitmap));
        bitmap &= bitmap - 1;
        // a PSN SACKed before: SackOffset would read its record only to return
        if (OffsetOf((basePsn + i) & PSN_MASK, off) && !IsSackedAt(off))
        {
            SackOffset(off);
        }
    }
    if (hasAckPsn && OffsetOf(ackPsn & PSN_MASK, off))
    {
        SackOffset(off);
    }
    if (m_update.acked.size() > 1 && hasAckPsn)
    {
        // the trigger may lie below the bitmap: keep acked ascending
        SortAscending(m_update.acked);
    }
    InferLosses();
    return m_update;
}

void
MrcSackScoreboard::SortAscending(std::vector<MrcPsnEvent>& v) const
{
    uint32_t una = m_una;
    auto key = [una](const MrcPsnEvent& e) {
        // cumulatively acked PSNs are below una: they sort first (offset >= 2^23 wraps high,
        // so shift by half the PSN space)
        return (e.psn - una + (1u << 23)) & PSN_MASK;
    };
    if (!std::is_sorted(v.begin(), v.end(), [&key](const auto& a, const auto& b) {
            return key(a) < key(b);
        }))
    {
        std::sort(v.begin(), v.end(), [&key](const auto& a, const auto& b) {
            return key(a) < key(b);
        });
    }
}

const MrcPsnRecord*
MrcSackScoreboard::OnNack(uint32_t psn)
{
    uint32_t off;
    if (!OffsetOf(psn & PSN_MASK, off))
    {
        return nullptr;
    }
    MrcPsnRecord& r = At(off);
    if (r.state != MrcPsnState::SENT)
    {
        return nullptr;
    }
    r.state = MrcPsnState::RETX_PENDING;
    if (!m_retxWatch.empty())
    {
        NoteWatchedGone(m_unaAbs + off);
    }
    m_inflightBytes -= r.bytes;
    ++m_retxQueued;
    m_retxHint = std::min(m_retxHint, off);
    return &r;
}

const MrcSackUpdate&
MrcSackScoreboard::OnTimeout(Time now, Time rto)
{
    ClearUpdate();
    // one bit per path label (MAX_PATHS of them: a single 64-bit word folded labels 64
    // apart onto one bit, and shifting by 64 or more is undefined)
    uint64_t deadPaths[MAX_PATHS / 64] = {};
    bool anyDead = false;
    for (uint32_t off = 0; off < m_outstanding; ++off)
    {
        MrcPsnRecord& r = At(off);
        if (r.state == MrcPsnState::SENT && r.sendTime + rto <= now)
        {
            const uint32_t path = r.path % MAX_PATHS;
            deadPaths[path / 64] |= uint64_t(1) << (path % 64);
            anyDead = true;
            MarkLost(off);
            CountTimeout(r);
        }
    }
    if (m_config.timeoutLosesPath && anyDead)
    {
        // the path of a timed-out PSN is presumed dead: what is still in flight on it is
        // lost too, instead of waiting for one (backed-off) timeout per PSN
        for (uint32_t off = 0; off < m_outstanding; ++off)
        {
            MrcPsnRecord& r = At(off);
            const uint32_t path = r.path % MAX_PATHS;
            if (r.state == MrcPsnState::SENT && ((deadPaths[path / 64] >> (path % 64)) & 1) != 0)
            {
                MarkLost(off);
            }
        }
    }
    return m_update;
}

const MrcSackUpdate&
MrcSackScoreboard::OnTimeoutBelow(Time now, Time rto, uint32_t endPsn)
{
    ClearUpdate();
    const uint32_t end = std::min<uint32_t>((endPsn - m_una) & PSN_MASK, m_outstanding);
    for (uint32_t off = 0; off < end; ++off)
    {
        MrcPsnRecord& r = At(off);
        if (r.state == MrcPsnState::SENT && r.sendTime + rto <= now)
        {
            MarkLost(off);
            CountTimeout(r);
        }
    }
    return m_update;
}

const MrcSackUpdate&
MrcSackScoreboard::StartRecovery(uint32_t limitPsns)
{
    ClearUpdate();
    if (m_inRecovery || m_outstanding == 0)
    {
        return m_update;
    }
    m_inRecovery = true;
    m_recoveryPsn = GetNextPsn();
    uint32_t end = std::min(limitPsns, m_outstanding);
    for (uint32_t off = 0; off < end; ++off)
    {
        if (At(off).state == MrcPsnState::SENT)
        {
            MarkLost(off);
        }
    }
    return m_update;
}

bool
MrcSackScoreboard::InRecovery() const
{
    return m_inRecovery;
}

bool
MrcSackScoreboard::NextRetransmit(uint32_t& psn)
{
    if (m_retxQueued == 0)
    {
        return false;
    }
    while (m_retxHint < m_outstanding && !IsQueued(At(m_retxHint).state))
    {
        ++m_retxHint;
    }
    NS_ASSERT(m_retxHint < m_outstanding);
    psn = (m_una + m_retxHint) & PSN_MASK;
    return true;
}

uint32_t
MrcSackScoreboard::GetRetransmitQueueSize() const
{
    return m_retxQueued;
}

bool
MrcSackScoreboard::GetOldestDeadline(Time rto, Time& deadline, uint32_t& psn) const
{
    for (uint32_t off = 0; off < m_outstanding; ++off)
    {
        if (IsSackedAt(off))
        {
            continue; // (its record is not read)
        }
        const MrcPsnRecord& r = At(off);
        if (r.state == MrcPsnState::SENT)
        {
            deadline = r.sendTime + rto;
            psn = (m_una + off) & PSN_MASK;
            return true;
        }
    }
    return false;
}

uint32_t
MrcSackScoreboard::GetUna() const
{
    return m_una;
}

uint32_t
MrcSackScoreboard::GetNextPsn() const
{
    return (m_una + m_outstanding) & PSN_MASK;
}

bool
MrcSackScoreboard::GetHighestSentPsn(uint32_t& psn) const
{
    psn = (GetNextPsn() - 1) & PSN_MASK;
    return m_anySent;
}

uint32_t
MrcSackScoreboard::GetOutstandingPsns() const
{
    return m_outstanding;
}

uint64_t
MrcSackScoreboard::GetBytesInFlight() const
{
    return m_inflightBytes;
}

uint32_t
MrcSackScoreboard::GetCapacity() const
{
    return m_config.capacityPsns;
}

bool
MrcSackScoreboard::PathDeliveredAbove(uint32_t psn) const
{
    uint32_t off;
    if (!OffsetOf(psn & PSN_MASK, off))
    {
        return false;
    }
    const MrcPsnRecord& r = At(off);
    uint64_t top;
    return r.retxCount == 0 && m_pathTop.Highest(r.path, top) && top > m_unaAbs + off;
}

const MrcPsnRecord*
MrcSackScoreboard::GetRecord(uint32_t psn) const
{
    uint32_t off;
    if (!OffsetOf(psn & PSN_MASK, off))
    {
        return nullptr;
    }
    return &At(off);
}

} // namespace ns3
