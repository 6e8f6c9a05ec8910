/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-collective.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcCollective");

namespace
{

/// Part `index` of `total` cut into `parts`: floor(total/parts), one more for the first
/// total mod parts parts.
uint64_t
Share(uint64_t total, uint32_t parts, uint32_t index)
{
    return total / parts + (index < total % parts ? 1 : 0);
}

/// The strides coprime with n, in the order 1, n-1, 2, n-2, ... (distinct mod n).
std::vector<uint32_t>
Strides(uint32_t n)
{
    std::vector<uint32_t> out;
    for (uint32_t k = 1; k <= n / 2; ++k)
    {
        for (uint32_t m : {k, n - k})
        {
            if (std::gcd(m, n) == 1 && std::find(out.begin(), out.end(), m) == out.end())
            {
                out.push_back(m);
            }
        }
    }
    return out;
}

} // namespace

std::string
MrcCollectiveOpName(MrcCollectiveOp op)
{
    switch (op)
    {
    case MrcCollectiveOp::ALL_REDUCE:
        return "allreduce";
    case MrcCollectiveOp::REDUCE_SCATTER:
        return "reducescatter";
    case MrcCollectiveOp::ALL_GATHER:
        return "allgather";
    case MrcCollectiveOp::ALL_TO_ALL:
        return "alltoall";
    }
    return "?";
}

std::string
MrcCollectiveAlgorithmName(MrcCollectiveAlgorithm a)
{
    return a == MrcCollectiveAlgorithm::TREE ? "tree" : "ring";
}

bool
MrcParseCollectiveOp(const std::string& name, MrcCollectiveOp& op)
{
    for (MrcCollectiveOp o : {MrcCollectiveOp::ALL_REDUCE,
                              MrcCollectiveOp::REDUCE_SCATTER,
                              MrcCollectiveOp::ALL_GATHER,
                              MrcCollectiveOp::ALL_TO_ALL})
    {
        if (name == MrcCollectiveOpName(o))
        {
            op = o;
            return true;
        }
    }
    return false;
}

bool
MrcParseCollectiveAlgorithm(const std::string& name, MrcCollectiveAlgorithm& a)
{
    if (name == "ring" || name == "tree")
    {
        a = name == "tree" ? MrcCollectiveAlgorithm::TREE : MrcCollectiveAlgorithm::RING;
        return true;
    }
    return false;
}

std::string
MrcCollective::Check(const MrcCollectiveSpec& spec)
{
    std::ostringstream e;
    const uint64_t n = spec.ranks.size();
    if (n < 2)
    {
        e << "a collective needs at least 2 ranks, got " << n;
        return e.str();
    }
    std::set<uint32_t> seen;
    for (uint32_t h : spec.ranks)
    {
        if (!seen.insert(h).second)
        {
            e << "host " << h << " is twice among the ranks";
            return e.str();
        }
    }
    if (spec.channels < 1 || spec.channels > 64)
    {
        e << "channels " << spec.channels << " not in 1..64";
        return e.str();
    }
    if (spec.chunks < 1 || spec.chunks > 1024)
    {
        e << "chunks " << spec.chunks << " not in 1..1024";
        return e.str();
    }
    if (spec.iterations < 1)
    {
        e << "iterations must be at least 1";
        return e.str();
    }
    if (spec.computeGap.IsStrictlyNegative())
    {
        e << "negative compute gap";
        return e.str();
    }
    const bool tree = spec.algorithm == MrcCollectiveAlgorithm::TREE;
    if (tree && spec.op != MrcCollectiveOp::ALL_REDUCE)
    {
        e << "the tree algorithm is for allreduce only (not " << MrcCollectiveOpName(spec.op)
          << ")";
        return e.str();
    }
    const uint64_t least = uint64_t{spec.channels} * spec.chunks * (tree ? 1 : n);
    if (spec.bytes < least)
    {
        e << "bytes " << spec.bytes << " must be at least " << least << " ("
          << (tree ? "" : "ranks x ") << "channels x chunks: every message carries a byte)";
        return e.str();
    }
    return "";
}

MrcCollective::MrcCollective(uint32_t id, const MrcCollectiveSpec& spec)
    : m_id(id),
      m_spec(spec),
      m_n(static_cast<uint32_t>(spec.ranks.size()))
{
    const std::string err = Check(spec);
    NS_ABORT_MSG_IF(!err.empty(), "MrcCollective " << id << ": " << err);
    for (uint32_t r = 0; r < m_n; ++r)
    {
        m_rankOf.emplace(spec.ranks[r], r);
    }
    switch (spec.op)
    {
    case MrcCollectiveOp::ALL_REDUCE:
        m_steps = spec.algorithm == MrcCollectiveAlgorithm::TREE ? 2 : 2 * (m_n - 1);
        break;
    default:
        m_steps = m_n - 1;
        break;
    }
    const std::vector<uint32_t> strides = Strides(m_n);
    for (uint32_t k = 0; k < spec.channels; ++k)
    {
        const uint32_t m = strides[k % strides.size()];
        m_stride.push_back(m);
        std::vector<uint32_t> p2r(m_n);
        std::vector<uint32_t> r2p(m_n);
        for (uint32_t p = 0; p < m_n; ++p)
        {
            p2r[p] = static_cast<uint32_t>((uint64_t{p} * m) % m_n);
            r2p[p2r[p]] = p;
        }
        m_pos2rank.push_back(std::move(p2r));
        m_rank2pos.push_back(std::move(r2p));
    }
}

uint32_t
MrcCollective::GetId() const
{
    return m_id;
}

const MrcCollectiveSpec&
MrcCollective::GetSpec() const
{
    return m_spec;
}

uint32_t
MrcCollective::GetNumSteps() const
{
    return m_steps;
}

uint32_t
MrcCollective::GetStride(uint32_t k) const
{
    return m_stride.at(k);
}

uint64_t
MrcCollective::GetMessagesPerIteration() const
{
    const uint64_t per = uint64_t{m_spec.channels} * m_spec.chunks;
    if (m_spec.algorithm == MrcCollectiveAlgorithm::TREE)
    {
        return 2 * uint64_t{m_n - 1} * per;
    }
    if (m_spec.op == MrcCollectiveOp::ALL_TO_ALL)
    {
        return uint64_t{m_n - 1} * m_n * per;
    }
    return uint64_t{m_steps} * m_n * per;
}

uint32_t
MrcCollective::Children(uint32_t p) const
{
    return (2 * p + 1 < m_n ? 1 : 0) + (2 * p + 2 < m_n ? 1 : 0);
}

uint32_t
MrcCollective::SegmentOf(uint32_t step, uint32_t pos) const
{
    const int64_t n = m_n;
    const int64_t s = step;
    int64_t seg = 0;
    switch (m_spec.op)
    {
    case MrcCollectiveOp::ALL_REDUCE:
        seg = s < n - 1 ? pos - s : pos + 1 - (s - (n - 1));
        break;
    case MrcCollectiveOp::REDUCE_SCATTER:
        seg = pos - s - 1;
        break;
    default:
        seg = pos - s;
        break;
    }
    return static_cast<uint32_t>(((seg % n) + n) % n);
}

MrcFlowSpec
MrcCollective::Make(uint32_t step,
                    uint32_t ch,
                    uint32_t fromPos,
                    uint32_t toPos,
                    uint64_t bytes,
                    uint32_t chunk,
                    Time start) const
{
    MrcFlowSpec f;
    f.src = m_spec.ranks[m_pos2rank[ch][fromPos]];
    f.dst = m_spec.ranks[m_pos2rank[ch][toPos]];
    f.bytes = bytes;
    f.start = start;
    f.kind = MrcFlowKind::COLLECTIVE;
    f.collective = m_id;
    f.step = step;
    f.chunk = chunk;
    f.channel = ch;
    f.iteration = m_iteration;
    return f;
}

MrcFlowSpec
MrcCollective::RingFlow(uint32_t step, uint32_t ch, uint32_t pos, uint32_t chunk, Time t) const
{
    const uint32_t seg = SegmentOf(step, pos);
    const uint64_t bytes =
        Share(Share(Share(m_spec.bytes, m_spec.channels, ch), m_n, seg), m_spec.chunks, chunk);
    MrcFlowSpec f = Make(step, ch, pos, (pos + 1) % m_n, bytes, chunk, t);
    f.segment = seg;
    return f;
}

void
MrcCollective::TreeUp(uint32_t ch,
                      uint32_t pos,
                      uint32_t chunk,
                      Time t,
                      std::vector<MrcFlowSpec>& out)
{
    const uint64_t bytes = Share(Share(m_spec.bytes, m_spec.channels, ch), m_spec.chunks, chunk);
    out.push_back(Make(0, ch, pos, (pos - 1) / 2, bytes, chunk, t));
}

void
MrcCollective::TreeDown(uint32_t ch,
                        uint32_t pos,
                        uint32_t chunk,
                        Time t,
                        std::vector<MrcFlowSpec>& out)
{
    const uint64_t bytes = Share(Share(m_spec.bytes, m_spec.channels, ch), m_spec.chunks, chunk);
    for (uint32_t child : {2 * pos + 1, 2 * pos + 2})
    {
        if (child < m_n)
        {
            out.push_back(Make(1, ch, pos, child, bytes, chunk, t));
        }
    }
}

void
MrcCollective::Released(const std::vector<MrcFlowSpec>& flows)
{
    for (const MrcFlowSpec& f : flows)
    {
        MrcCollectiveStepRecord& r =
            m_stepRecords[static_cast<std::size_t>(f.iteration) * m_steps + f.step];
        r.startNs = std::min(r.startNs, f.start.GetNanoSeconds());
    }
}

std::vector<MrcFlowSpec>
MrcCollective::StartIteration(Time at)
{
    m_left = GetMessagesPerIteration();
    m_iterations.emplace_back(at.GetNanoSeconds(), -1);
    for (uint32_t s = 0; s < m_steps; ++s)
    {
        MrcCollectiveStepRecord r;
        r.iteration = m_iteration;
        r.step = s;
        m_stepRecords.push_back(r);
    }
    const uint32_t C = m_spec.channels;
    const uint32_t K = m_spec.chunks;
    std::vector<MrcFlowSpec> out;
    if (m_spec.algorithm == MrcCollectiveAlgorithm::TREE)
    {
        m_treeGot.assign(static_cast<std::size_t>(C) * m_n * K, 0);
        for (uint32_t ch = 0; ch < C; ++ch)
        {
            for (uint32_t p = 1; p < m_n; ++p)
            {
                if (Children(p) == 0)
                {
                    for (uint32_t c = 0; c < K; ++c)
                    {
                        TreeUp(ch, p, c, at, out);
                    }
                }
            }
        }
    }
    else if (m_spec.op == MrcCollectiveOp::ALL_TO_ALL)
    {
        for (uint32_t k = 1; k < m_n; ++k)
        {
            for (uint32_t ch = 0; ch < C; ++ch)
            {
                const uint64_t piece = Share(Share(m_spec.bytes, C, ch), m_n, k);
                for (uint32_t p = 0; p < m_n; ++p)
                {
                    for (uint32_t c = 0; c < K; ++c)
                    {
                        out.push_back(Make(k - 1, ch, p, (p + k) % m_n, Share(piece, K, c), c, at));
                    }
                }
            }
        }
    }
    else
    {
        for (uint32_t ch = 0; ch < C; ++ch)
        {
            for (uint32_t p = 0; p < m_n; ++p)
            {
                for (uint32_t c = 0; c < K; ++c)
                {
                    out.push_back(RingFlow(0, ch, p, c, at));
                }
            }
        }
    }
    Released(out);
    return out;
}

std::vector<MrcFlowSpec>
MrcCollective::Start(Time now)
{
    NS_ABORT_MSG_IF(m_started, "MrcCollective " << m_id << ": started twice");
    m_started = true;
    m_startTime = now;
    return StartIteration(now);
}

std::vector<MrcFlowSpec>
MrcCollective::OnFlowComplete(const MrcFlowSpec& done, Time now)
{
    return OnFlowComplete(done, now, now);
}

std::vector<MrcFlowSpec>
MrcCollective::OnFlowComplete(const MrcFlowSpec& done, Time completedAt, Time releaseAt)
{
    NS_ABORT_MSG_IF(releaseAt < completedAt,
                    "MrcCollective " << m_id << ": a release before its completion");
    const Time now = releaseAt;
    auto it = m_rankOf.find(done.src);
    NS_ABORT_MSG_IF(
        !m_started || m_done || done.kind != MrcFlowKind::COLLECTIVE || done.collective != m_id ||
            it == m_rankOf.end() || done.iteration != m_iteration || done.step >= m_steps ||
            done.channel >= m_spec.channels || done.chunk >= m_spec.chunks || m_left == 0,
        "MrcCollective " << m_id << ": message " << done.src << "->" << done.dst << " (iteration "
                         << done.iteration << ", step " << done.step << ", channel " << done.channel
                         << ", chunk " << done.chunk << ") is not one of its running messages");
    MrcCollectiveStepRecord& rec =
        m_stepRecords[static_cast<std::size_t>(m_iteration) * m_steps + done.step];
    rec.endNs = std::max(rec.endNs, completedAt.GetNanoSeconds());
    rec.bytes += done.bytes;
    ++rec.messages;
    const uint32_t ch = done.channel;
    const uint32_t c = done.chunk;
    std::vector<MrcFlowSpec> out;
    if (m_spec.algorithm == MrcCollectiveAlgorithm::TREE)
    {
        if (done.step == 0)
        {
            const uint32_t pos = m_rank2pos[ch][it->second];
            NS_ABORT_MSG_IF(pos == 0, "MrcCollective " << m_id << ": the root sent up");
            const uint32_t q = (pos - 1) / 2;
            uint8_t& got = m_treeGot[(static_cast<std::size_t>(ch) * m_n + q) * m_spec.chunks + c];
            if (++got == Children(q))
            {
                if (q == 0)
                {
                    TreeDown(ch, 0, c, now, out); // reduced at the root: broadcast
                }
                else
                {
                    TreeUp(ch, q, c, now, out);
                }
            }
        }
        else
        {
            auto to = m_rankOf.find(done.dst);
            NS_ABORT_MSG_IF(to == m_rankOf.end(), "MrcCollective " << m_id << ": unknown dst");
            TreeDown(ch, m_rank2pos[ch][to->second], c, now, out);
        }
    }
    else if (m_spec.op != MrcCollectiveOp::ALL_TO_ALL && done.step + 1 < m_steps)
    {
        // the receiver forwards (or reduces and forwards) this chunk in the next step
        const uint32_t pos = m_rank2pos[ch][it->second];
        out.push_back(RingFlow(done.step + 1, ch, (pos + 1) % m_n, c, now));
    }
    Released(out);
    if (--m_left == 0)
    {
        m_iterations.back().second = completedAt.GetNanoSeconds();
        if (m_iteration + 1 < m_spec.iterations)
        {
            ++m_iteration;
            const std::vector<MrcFlowSpec> next =
                StartIteration(std::max(completedAt + m_spec.computeGap, releaseAt));
            out.insert(out.end(), next.begin(), next.end());
        }
        else
        {
            m_done = true;
            m_endTime = completedAt;
        }
    }
    return out;
}

bool
MrcCollective::IsComplete() const
{
    return m_done;
}

Time
MrcCollective::GetStartTime() const
{
    return m_startTime;
}

Time
MrcCollective::GetCompletionTime() const
{
    NS_ABORT_MSG_IF(!m_done, "MrcCollective " << m_id << ": not complete");
    return m_endTime;
}

Time
MrcCollective::GetDuration() const
{
    return GetCompletionTime() - m_startTime;
}

const std::vector<std::pair<int64_t, int64_t>>&
MrcCollective::GetIterations() const
{
    return m_iterations;
}

const std::vector<MrcCollectiveStepRecord>&
MrcCollective::GetSteps() const
{
    return m_stepRecords;
}

} // namespace ns3
