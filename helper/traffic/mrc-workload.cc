/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-workload.h"

#include "mrc-input-error.h"

#include "ns3/abort.h"
#include "ns3/error-model.h"
#include "ns3/log.h"
#include "ns3/mrc-ingress-loss-model.h"
#include "ns3/mrc-net-device.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/random-variable-stream.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcWorkload");

NS_OBJECT_ENSURE_REGISTERED(MrcWorkloadGenerator);

namespace
{

/// The share of `total` that part `index` of `parts` gets (remainder to the first parts).
uint64_t
Share(uint64_t total, uint32_t parts, uint32_t index)
{
    return total / parts + (index < total % parts ? 1 : 0);
}

void
CheckDistinct(const std::vector<uint32_t>& hosts, const char* what)
{
    std::set<uint32_t> seen(hosts.begin(), hosts.end());
    NS_ABORT_MSG_IF(seen.size() != hosts.size(), what << ": a host is listed twice");
}

} // namespace

TypeId
MrcWorkloadGenerator::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcWorkloadGenerator")
                            .SetParent<Object>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcWorkloadGenerator>();
    return tid;
}

MrcWorkloadGenerator::MrcWorkloadGenerator()
    : m_rng(CreateObject<UniformRandomVariable>())
{
}

MrcWorkloadGenerator::~MrcWorkloadGenerator() = default;

void
MrcWorkloadGenerator::DoDispose()
{
    m_rng = nullptr;
    Object::DoDispose();
}

int64_t
MrcWorkloadGenerator::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

std::vector<MrcFlowSpec>
MrcWorkloadGenerator::Permutation(const std::vector<uint32_t>& hosts, uint64_t bytes, Time start)
{
    const uint32_t n = static_cast<uint32_t>(hosts.size());
    NS_ABORT_MSG_IF(n < 2, "MrcWorkloadGenerator::Permutation: need at least 2 hosts, got " << n);
    CheckDistinct(hosts, "MrcWorkloadGenerator::Permutation");
    std::vector<uint32_t> pi(n);
    bool fixedPoint = true;
    while (fixedPoint)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            pi[i] = i;
        }
        for (uint32_t i = n - 1; i > 0; --i)
        {
            uint32_t j = m_rng->GetInteger(0, i);
            std::swap(pi[i], pi[j]);
        }
        fixedPoint = false;
        for (uint32_t i = 0; i < n; ++i)
        {
            fixedPoint = fixedPoint || pi[i] == i;
        }
    }
    std::vector<MrcFlowSpec> flows;
    flows.reserve(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        MrcFlowSpec f;
        f.src = hosts[i];
        f.dst = hosts[pi[i]];
        f.bytes = bytes;
        f.start = start;
        flows.push_back(f);
    }
    return flows;
}

std::vector<MrcFlowSpec>
MrcWorkloadGenerator::ShiftPermutation(const std::vector<uint32_t>& hosts,
                                       uint32_t shift,
                                       uint64_t bytes,
                                       Time start)
{
    const uint32_t n = static_cast<uint32_t>(hosts.size());
    NS_ABORT_MSG_IF(n < 2, "MrcWorkloadGenerator::ShiftPermutation: need at least 2 hosts");
    NS_ABORT_MSG_IF(shift % n == 0,
                    "MrcWorkloadGenerator::ShiftPermutation: shift " << shift << " is 0 mod " << n
                                                                     << " hosts");
    CheckDistinct(hosts, "MrcWorkloadGenerator::ShiftPermutation");
    std::vector<MrcFlowSpec> flows;
    flows.reserve(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        MrcFlowSpec f;
        f.src = hosts[i];
        f.dst = hosts[(i + shift) % n];
        f.bytes = bytes;
        f.start = start;
        flows.push_back(f);
    }
    return flows;
}

std::vector<MrcFlowSpec>
MrcWorkloadGenerator::Incast(const std::vector<uint32_t>& senders,
                             uint32_t receiver,
                             uint64_t bytes,
                             Time start)
{
    NS_ABORT_MSG_IF(senders.empty(), "MrcWorkloadGenerator::Incast: no senders");
    CheckDistinct(senders, "MrcWorkloadGenerator::Incast");
    NS_ABORT_MSG_IF(std::find(senders.begin(), senders.end(), receiver) != senders.end(),
                    "MrcWorkloadGenerator::Incast: receiver " << receiver << " is also a sender");
    std::vector<MrcFlowSpec> flows;
    for (uint32_t s : senders)
    {
        MrcFlowSpec f;
        f.src = s;
        f.dst = receiver;
        f.bytes = bytes;
        f.start = start;
        f.kind = MrcFlowKind::INCAST;
        flows.push_back(f);
    }
    return flows;
}

MrcFlowSpec
MrcWorkloadGenerator::ChooseVictim(const std::vector<uint32_t>& senders,
                                   uint32_t receiver,
                                   const std::vector<uint32_t>& receiverRack,
                                   const std::vector<uint32_t>& allHosts,
                                   uint64_t bytes,
                                   Time start)
{
    std::set<uint32_t> send(senders.begin(), senders.end());
    std::set<uint32_t> rack(receiverRack.begin(), receiverRack.end());
    NS_ABORT_MSG_IF(!rack.count(receiver),
                    "MrcWorkloadGenerator::ChooseVictim: receiver " << receiver
                                                                    << " is not in its rack list");
    bool haveDst = false;
    uint32_t dst = 0;
    for (uint32_t h : rack) // ascending
    {
        if (h != receiver && !send.count(h))
        {
            dst = h;
            haveDst = true;
            break;
        }
    }
    NS_ABORT_MSG_IF(!haveDst,
                    "MrcWorkloadGenerator::ChooseVictim: no host under the receiver's ToR is "
                    "free for the victim (all are the receiver or senders)");
    std::set<uint32_t> all(allHosts.begin(), allHosts.end());
    bool haveSrc = false;
    uint32_t src = 0;
    for (uint32_t h : all)
    {
        if (!rack.count(h) && !send.count(h))
        {
            src = h;
            haveSrc = true;
            break;
        }
    }
    NS_ABORT_MSG_IF(!haveSrc,
                    "MrcWorkloadGenerator::ChooseVictim: no host outside the receiver's rack "
                    "is free to send the victim flow");
    MrcFlowSpec f;
    f.src = src;
    f.dst = dst;
    f.bytes = bytes;
    f.start = start;
    f.kind = MrcFlowKind::VICTIM;
    return f;
}

std::vector<MrcFlowSpec>
MrcWorkloadGenerator::AllToAll(const std::vector<uint32_t>& hosts,
                               uint64_t bytes,
                               Time start,
                               Time stagger)
{
    const uint32_t n = static_cast<uint32_t>(hosts.size());
    NS_ABORT_MSG_IF(n < 2, "MrcWorkloadGenerator::AllToAll: need at least 2 hosts");
    NS_ABORT_MSG_IF(stagger.IsStrictlyNegative(),
                    "MrcWorkloadGenerator::AllToAll: negative stagger");
    CheckDistinct(hosts, "MrcWorkloadGenerator::AllToAll");
    std::vector<MrcFlowSpec> flows;
    flows.reserve(static_cast<size_t>(n) * (n - 1));
    for (uint32_t k = 1; k < n; ++k)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            MrcFlowSpec f;
            f.src = hosts[i];
            f.dst = hosts[(i + k) % n];
            f.bytes = bytes;
            f.start = start + stagger * static_cast<int64_t>(k - 1);
            flows.push_back(f);
        }
    }
    return flows;
}

Time
MrcWorkloadGenerator::PoissonMeanGap(double load, uint64_t hostRateBps, double meanBytes)
{
    NS_ABORT_MSG_IF(!(load > 0 && load <= 1),
                    "MrcWorkloadGenerator: load " << load << " not in (0, 1]");
    NS_ABORT_MSG_IF(hostRateBps == 0, "MrcWorkloadGenerator: host rate 0");
    NS_ABORT_MSG_IF(!(meanBytes > 0), "MrcWorkloadGenerator: mean flow size " << meanBytes);
    return Seconds(8.0 * meanBytes / (load * static_cast<double>(hostRateBps)));
}

double
MrcWorkloadGenerator::ExpectedPoissonFlows(uint32_t hosts,
                                           double load,
                                           uint64_t hostRateBps,
                                           double meanBytes,
                                           Time duration)
{
    if (!(load > 0) || hostRateBps == 0 || !(meanBytes > 0))
    {
        return 0;
    }
    const double gapS = 8.0 * meanBytes / (load * static_cast<double>(hostRateBps));
    return hosts * duration.GetSeconds() / gapS;
}

std::vector<MrcFlowSpec>
MrcWorkloadGenerator::Poisson(const std::vector<uint32_t>& hosts,
                              const MrcFlowSizeCdf& cdf,
                              double load,
                              uint64_t hostRateBps,
                              Time start,
                              Time duration)
{
    const uint32_t n = static_cast<uint32_t>(hosts.size());
    NS_ABORT_MSG_IF(n < 2, "MrcWorkloadGenerator::Poisson: need at least 2 hosts");
    CheckDistinct(hosts, "MrcWorkloadGenerator::Poisson");
    // A mean gap beyond Time's range (a huge mean flow size) stays a double.
    const double rawGapS = 8.0 * cdf.GetMean() / (load * static_cast<double>(hostRateBps));
    const double meanGapS =
        rawGapS < 1e6 ? PoissonMeanGap(load, hostRateBps, cdf.GetMean()).GetSeconds() : rawGapS;
    const Time end = start + duration;
    std::vector<MrcFlowSpec> flows;
    for (uint32_t i = 0; i < n; ++i)
    {
        Time t = start;
        while (true)
        {
            double u = m_rng->GetValue(0, 1);
            const double gapS = -meanGapS * std::log(1 - u);
            // A gap far past the end stops before Time's int64 could wrap (a huge mean
            // flow size); the margin of 1 s leaves every nearer gap to the exact test below.
            if (!(gapS <= (end - t).GetSeconds() + 1))
            {
                break;
            }
            t += Seconds(gapS);
            if (t > end)
            {
                break;
            }
            NS_ABORT_MSG_IF(flows.size() >= MrcInputLimits::MAX_FLOWS,
                            "MrcWorkloadGenerator::Poisson: more than "
                                << MrcInputLimits::MAX_FLOWS
                                << " flows (see ExpectedPoissonFlows)");
            uint32_t j = m_rng->GetInteger(0, n - 2);
            if (j >= i)
            {
                ++j; // uniform among the other n-1 hosts
            }
            MrcFlowSpec f;
            f.src = hosts[i];
            f.dst = hosts[j];
            f.bytes = cdf.Sample(m_rng);
            f.start = t;
            flows.push_back(f);
        }
    }
    std::stable_sort(flows.begin(), flows.end(), [](const MrcFlowSpec& a, const MrcFlowSpec& b) {
        return a.start < b.start;
    });
    return flows;
}

// ---- MrcRingCollective -----------------------------------------------------------------

MrcRingCollective::MrcRingCollective(uint32_t id,
                                     Kind kind,
                                     std::vector<uint32_t> ring,
                                     uint64_t messageBytes,
                                     uint32_t chunks)
    : m_id(id),
      m_kind(kind),
      m_ring(std::move(ring)),
      m_bytes(messageBytes),
      m_chunks(chunks)
{
    const uint32_t n = static_cast<uint32_t>(m_ring.size());
    NS_ABORT_MSG_IF(n < 2, "MrcRingCollective: need at least 2 hosts in the ring, got " << n);
    NS_ABORT_MSG_IF(chunks == 0, "MrcRingCollective: chunks must be at least 1");
    NS_ABORT_MSG_IF(messageBytes < static_cast<uint64_t>(n) * chunks,
                    "MrcRingCollective: message of " << messageBytes << " bytes is smaller than "
                                                     << n << " segments x " << chunks << " chunks");
    for (uint32_t r = 0; r < n; ++r)
    {
        NS_ABORT_MSG_IF(!m_rank.emplace(m_ring[r], r).second,
                        "MrcRingCollective: host " << m_ring[r] << " appears twice in the ring");
    }
    m_steps = kind == ALL_REDUCE ? 2 * (n - 1) : n - 1;
    m_state.assign(static_cast<size_t>(m_steps) * n * m_chunks, FlowState::WAITING);
}

uint32_t
MrcRingCollective::GetNumSteps() const
{
    return m_steps;
}

uint32_t
MrcRingCollective::GetId() const
{
    return m_id;
}

size_t
MrcRingCollective::Index(uint32_t step, uint32_t rank, uint32_t chunk) const
{
    return (static_cast<size_t>(step) * m_ring.size() + rank) * m_chunks + chunk;
}

uint32_t
MrcRingCollective::SegmentOf(uint32_t step, uint32_t rank) const
{
    const int64_t n = static_cast<int64_t>(m_ring.size());
    int64_t seg;
    if (m_kind == ALL_GATHER)
    {
        seg = rank - static_cast<int64_t>(step);
    }
    else if (step < n - 1)
    {
        seg = rank - static_cast<int64_t>(step);
    }
    else
    {
        seg = rank + 1 - (static_cast<int64_t>(step) - (n - 1));
    }
    return static_cast<uint32_t>(((seg % n) + n) % n);
}

MrcFlowSpec
MrcRingCollective::MakeFlow(uint32_t step, uint32_t rank, uint32_t chunk) const
{
    const uint32_t n = static_cast<uint32_t>(m_ring.size());
    MrcFlowSpec f;
    f.src = m_ring[rank];
    f.dst = m_ring[(rank + 1) % n];
    f.segment = SegmentOf(step, rank);
    f.bytes = Share(Share(m_bytes, n, f.segment), m_chunks, chunk);
    f.kind = MrcFlowKind::COLLECTIVE;
    f.collective = m_id;
    f.step = step;
    f.chunk = chunk;
    return f;
}

std::vector<MrcFlowSpec>
MrcRingCollective::GetStepFlows(uint32_t step) const
{
    NS_ABORT_MSG_IF(step >= m_steps,
                    "MrcRingCollective: step " << step << " of " << m_steps << " steps");
    std::vector<MrcFlowSpec> flows;
    for (uint32_t r = 0; r < m_ring.size(); ++r)
    {
        for (uint32_t c = 0; c < m_chunks; ++c)
        {
            flows.push_back(MakeFlow(step, r, c));
        }
    }
    return flows;
}

std::vector<MrcFlowSpec>
MrcRingCollective::Start(Time now)
{
    NS_ABORT_MSG_IF(m_started, "MrcRingCollective " << m_id << ": started twice");
    m_started = true;
    m_startTime = now;
    m_lastStepLeft = static_cast<uint64_t>(m_ring.size()) * m_chunks;
    std::vector<MrcFlowSpec> flows = GetStepFlows(0);
    for (auto& f : flows)
    {
        f.start = now;
        m_state[Index(0, m_rank[f.src], f.chunk)] = FlowState::RUNNING;
    }
    return flows;
}

std::vector<MrcFlowSpec>
MrcRingCollective::OnFlowComplete(const MrcFlowSpec& done, Time now)
{
    auto it = m_rank.find(done.src);
    NS_ABORT_MSG_IF(done.kind != MrcFlowKind::COLLECTIVE || done.collective != m_id ||
                        it == m_rank.end() || done.step >= m_steps || done.chunk >= m_chunks,
                    "MrcRingCollective " << m_id << ": flow " << done.src << "->" << done.dst
                                         << " (step " << done.step << ", chunk " << done.chunk
                                         << ") is not one of its flows");
    const uint32_t n = static_cast<uint32_t>(m_ring.size());
    const uint32_t rank = it->second;
    FlowState& st = m_state[Index(done.step, rank, done.chunk)];
    NS_ABORT_MSG_IF(st != FlowState::RUNNING,
                    "MrcRingCollective " << m_id << ": flow of step " << done.step << " from host "
                                         << done.src << " chunk " << done.chunk
                                         << " completed but was not running");
    st = FlowState::DONE;
    std::vector<MrcFlowSpec> released;
    if (done.step + 1 < m_steps)
    {
        // The receiver forwards this chunk in the next step.
        const uint32_t next = (rank + 1) % n;
        FlowState& ns = m_state[Index(done.step + 1, next, done.chunk)];
        ns = FlowState::RUNNING;
        MrcFlowSpec f = MakeFlow(done.step + 1, next, done.chunk);
        f.start = now;
        released.push_back(f);
    }
    else if (--m_lastStepLeft == 0)
    {
        m_endTime = now;
    }
    return released;
}

bool
MrcRingCollective::IsComplete() const
{
    return m_started && m_lastStepLeft == 0;
}

Time
MrcRingCollective::GetStartTime() const
{
    return m_startTime;
}

Time
MrcRingCollective::GetCompletionTime() const
{
    NS_ABORT_MSG_IF(!IsComplete(), "MrcRingCollective " << m_id << ": not complete");
    return m_endTime;
}

Time
MrcRingCollective::GetDuration() const
{
    return GetCompletionTime() - m_startTime;
}

// ---- loss injection ------------------------------------------------------------------------

namespace
{

/// One receive-loss model of type \p Model on every MrcNetDevice of \p devices, each with
/// its own random stream (the streams are numbered from \p stream in device order; a device
/// not made here, in a lean build, keeps its number). \p who names the caller in the error.
template <typename Model, typename Configure>
int64_t
InstallReceiveLoss(const NetDeviceContainer& devices,
                   double p,
                   int64_t stream,
                   std::vector<Ptr<Model>>* models,
                   const char* who,
                   Configure configure)
{
    NS_ABORT_MSG_IF(!(p >= 0 && p <= 1), who << ": loss probability " << p << " not in [0, 1]");
    int64_t used = 0;
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        if (!devices.Get(i))
        {
            ++used; // a device not made here (a lean build): its stream stays its own
            continue;
        }
        Ptr<MrcNetDevice> dev = DynamicCast<MrcNetDevice>(devices.Get(i));
        if (!dev)
        {
            continue;
        }
        Ptr<Model> em = CreateObject<Model>();
        configure(em);
        em->SetRate(p);
        used += em->AssignStreams(stream + used);
        dev->SetAttribute("ReceiveErrorModel", PointerValue(em));
        if (models)
        {
            models->push_back(em);
        }
    }
    return used;
}

} // namespace

int64_t
MrcInstallRandomLoss(const NetDeviceContainer& devices,
                     double p,
                     int64_t stream,
                     std::vector<Ptr<RateErrorModel>>* models)
{
    return InstallReceiveLoss(
        devices,
        p,
        stream,
        models,
        "MrcInstallRandomLoss",
        [](Ptr<RateErrorModel> em) { em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET); });
}

int64_t
MrcInstallIngressLoss(const NetDeviceContainer& devices,
                      double p,
                      int64_t stream,
                      std::vector<Ptr<MrcIngressLossModel>>* models)
{
    return InstallReceiveLoss(devices,
                              p,
                              stream,
                              models,
                              "MrcInstallIngressLoss",
                              [](Ptr<MrcIngressLossModel>) {});
}

int64_t
MrcInstallRandomLoss(const NodeContainer& nodes,
                     double p,
                     int64_t stream,
                     std::vector<Ptr<RateErrorModel>>* models)
{
    NetDeviceContainer devices;
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        Ptr<Node> node = nodes.Get(i);
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            devices.Add(node->GetDevice(d));
        }
    }
    return MrcInstallRandomLoss(devices, p, stream, models);
}

} // namespace ns3
