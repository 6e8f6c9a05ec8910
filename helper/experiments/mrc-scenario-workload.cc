/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-scenario-workload.h"

#include "mrc-scenario-inputs.h"

#include "ns3/abort.h"
#include "ns3/integer.h"
#include "ns3/mrc-flow-size-cdf.h"
#include "ns3/rng-seed-manager.h"

#include <algorithm>

namespace ns3
{

Ptr<UniformRandomVariable>
MrcScenarioWorkload::PatternRandom(uint64_t seed)
{
    // Seed 1, run = the scenario seed, a fixed stream given at construction (so that no
    // automatic stream number is taken: those of every later object stay as they were).
    const uint32_t oldSeed = RngSeedManager::GetSeed();
    const uint64_t oldRun = RngSeedManager::GetRun();
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);
    Ptr<UniformRandomVariable> u =
        CreateObjectWithAttributes<UniformRandomVariable>("Stream", IntegerValue(PATTERN_STREAM));
    RngSeedManager::SetSeed(oldSeed);
    RngSeedManager::SetRun(oldRun);
    return u;
}

void
MrcScenarioWorkload::Shuffle(std::vector<uint32_t>& v, Ptr<UniformRandomVariable> u)
{
    for (uint32_t i = static_cast<uint32_t>(v.size()) - 1; i > 0; --i)
    {
        std::swap(v[i], v[u->GetInteger(0, i)]);
    }
}

std::vector<uint32_t>
MrcScenarioWorkload::Derangement(uint32_t hosts, uint64_t seed)
{
    NS_ABORT_MSG_IF(hosts < 2, "a permutation needs at least 2 hosts, got " << hosts);
    Ptr<UniformRandomVariable> u = PatternRandom(seed);
    std::vector<uint32_t> dst(hosts);
    for (bool ok = false; !ok;)
    {
        for (uint32_t i = 0; i < hosts; ++i)
        {
            dst[i] = i;
        }
        Shuffle(dst, u);
        ok = true;
        for (uint32_t i = 0; i < hosts; ++i)
        {
            ok = ok && dst[i] != i;
        }
    }
    return dst;
}

std::vector<MrcFlowSpec>
MrcScenarioWorkload::MakeMessages(const MrcScenarioConfig& c, uint32_t hosts)
{
    std::vector<MrcFlowSpec> flows;
    std::vector<uint32_t> all(hosts);
    for (uint32_t h = 0; h < hosts; ++h)
    {
        all[h] = h;
    }
    if (c.pattern == "file")
    {
        flows = c.fileFlows; // --flowFile
    }
    else if (c.pattern == "alltoall")
    {
        flows = MrcWorkloadGenerator::AllToAll(all, c.bytes, Time(0));
    }
    else if (c.pattern == "flows")
    {
        const MrcFlowSizeCdf cdf = MrcFlowSizeCdf::LoadFile(MrcScenarioInputs::FindCdfFile(c.cdf));
        Ptr<MrcWorkloadGenerator> gen = CreateObject<MrcWorkloadGenerator>();
        gen->AssignStreams(MrcScenarioStreams::FLOWS);
        flows =
            gen->Poisson(all, cdf, c.load, c.topology.hostRate.GetBitRate(), Time(0), c.duration);
    }
    else if (c.pattern == "incast" || c.pattern == "incast-victim")
    {
        flows = Incast(c, hosts);
    }
    else
    {
        NS_ABORT_MSG_IF(c.pattern != "permutation",
                        "unknown traffic pattern '"
                            << c.pattern
                            << "' (allowed: permutation, incast, incast-victim, alltoall, flows)");
        flows = Permutation(c, hosts);
    }
    return Split(flows, std::max<uint32_t>(c.qpsPerPair, 1));
}

std::vector<MrcFlowSpec>
MrcScenarioWorkload::Permutation(const MrcScenarioConfig& c, uint32_t hosts)
{
    std::vector<MrcFlowSpec> flows;
    const std::vector<uint32_t> dst = Derangement(hosts, c.seed);
    for (uint32_t i = 0; i < hosts; ++i)
    {
        MrcFlowSpec f;
        f.src = i;
        f.dst = dst[i];
        f.bytes = c.bytes;
        flows.push_back(f);
    }
    return flows;
}

std::vector<MrcFlowSpec>
MrcScenarioWorkload::Incast(const MrcScenarioConfig& c, uint32_t hosts)
{
    NS_ABORT_MSG_IF(c.senders == 0 || c.senders >= hosts,
                    "incast senders " << c.senders << " must be 1.." << hosts - 1);
    const uint32_t receiver = hosts - 1;
    const bool victim = c.pattern == "incast-victim";
    // incast-victim is a cross-spine incast ([P1] sec. 5.2.8): the senders are drawn
    // from the hosts outside the receiver's rack (the last hostsPerT0 hosts), one of
    // which must stay free to send the victim flow.
    const uint32_t pool =
        victim ? receiver - receiver % std::max<uint32_t>(c.topology.GetHostsPerT0(), 1) : receiver;
    NS_ABORT_MSG_IF(victim && c.senders >= pool,
                    "incast-victim: --senders=" << c.senders << " must be 1.." << pool - 1
                                                << " (hosts outside the receiver's rack, "
                                                   "one left for the victim)");
    std::vector<uint32_t> others(pool);
    for (uint32_t i = 0; i < pool; ++i)
    {
        others[i] = i;
    }
    Shuffle(others, PatternRandom(c.seed));
    others.resize(c.senders);
    std::sort(others.begin(), others.end());
    std::vector<MrcFlowSpec> flows =
        MrcWorkloadGenerator::Incast(others, receiver, c.bytes, Time(0));
    if (victim)
    {
        const uint32_t hpt = c.topology.GetHostsPerT0();
        std::vector<uint32_t> rack;
        for (uint32_t h = receiver - receiver % hpt; h < hosts && rack.size() < hpt; ++h)
        {
            rack.push_back(h);
        }
        std::vector<uint32_t> all(hosts);
        for (uint32_t h = 0; h < hosts; ++h)
        {
            all[h] = h;
        }
        flows.push_back(
            MrcWorkloadGenerator::ChooseVictim(others, receiver, rack, all, c.bytes, Time(0)));
    }
    return flows;
}

std::vector<MrcFlowSpec>
MrcScenarioWorkload::Split(const std::vector<MrcFlowSpec>& flows, uint32_t parts)
{
    std::vector<MrcFlowSpec> out;
    out.reserve(flows.size() * parts);
    for (const auto& f : flows)
    {
        for (uint32_t k = 0; k < parts; ++k)
        {
            MrcFlowSpec m = f;
            m.bytes = f.bytes / parts + (k < f.bytes % parts ? 1 : 0);
            out.push_back(m);
        }
    }
    return out;
}

void
MrcHtsimTriggers::Load(const MrcHtsimConnectionMatrix& matrix)
{
    for (const MrcHtsimTrigger& t : matrix.triggers)
    {
        State& st = m_triggers[t.id];
        st.type = t.type;
        st.remaining = t.count;
    }
    const auto& conns = matrix.connections;
    for (std::size_t k = 0; k < conns.size(); ++k)
    {
        if (!conns[k].hasStart)
        {
            m_triggers[conns[k].trigger].targets.push_back(k);
        }
    }
}

std::vector<std::size_t>
MrcHtsimTriggers::Activate(uint32_t id)
{
    auto it = m_triggers.find(id);
    if (it == m_triggers.end())
    {
        return {}; // a done trigger no connection waits for
    }
    State& t = it->second;
    std::vector<std::size_t> start;
    switch (t.type)
    {
    case MrcHtsimTrigger::ONESHOT:
        // every target, on the first activation only
        if (!t.fired)
        {
            t.fired = true;
            start = t.targets;
        }
        break;
    case MrcHtsimTrigger::MULTISHOT:
        // the next target per activation
        if (t.next < t.targets.size())
        {
            start.push_back(t.targets[t.next++]);
        }
        break;
    case MrcHtsimTrigger::BARRIER:
        // every target after `count` activations
        if (!t.fired && t.remaining > 0 && --t.remaining == 0)
        {
            t.fired = true;
            start = t.targets;
        }
        break;
    }
    return start;
}

} // namespace ns3
