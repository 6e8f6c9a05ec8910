/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-workload.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <random>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcWorkload");

std::vector<uint32_t>
MrcWorkload::Derangement(uint32_t hosts, uint64_t seed)
{
    NS_ABORT_MSG_IF(hosts < 2, "a permutation needs at least 2 hosts, got " << hosts);
    std::mt19937_64 rng(seed);
    std::vector<uint32_t> dst(hosts);
    for (bool ok = false; !ok;)
    {
        for (uint32_t i = 0; i < hosts; ++i)
        {
            dst[i] = i;
        }
        for (uint32_t i = hosts - 1; i > 0; --i)
        {
            std::swap(dst[i], dst[rng() % (i + 1)]);
        }
        ok = true;
        for (uint32_t i = 0; i < hosts; ++i)
        {
            ok = ok && dst[i] != i;
        }
    }
    return dst;
}

std::vector<MrcFlowSpec>
MrcWorkload::Permutation(uint32_t hosts, uint64_t bytes, uint64_t seed)
{
    const std::vector<uint32_t> dst = Derangement(hosts, seed);
    std::vector<MrcFlowSpec> flows;
    flows.reserve(hosts);
    for (uint32_t i = 0; i < hosts; ++i)
    {
        flows.push_back(MrcFlowSpec{i, dst[i], bytes, 0});
    }
    return flows;
}

std::vector<MrcFlowSpec>
MrcWorkload::Incast(uint32_t hosts, uint32_t senders, uint64_t bytes, uint64_t seed)
{
    NS_ABORT_MSG_IF(hosts < 2, "an incast needs at least 2 hosts, got " << hosts);
    NS_ABORT_MSG_IF(senders == 0 || senders >= hosts,
                    "incast senders " << senders << " must be 1.." << hosts - 1);
    const uint32_t receiver = hosts - 1;
    std::mt19937_64 rng(seed);
    std::vector<uint32_t> others(receiver);
    for (uint32_t i = 0; i < receiver; ++i)
    {
        others[i] = i;
    }
    for (uint32_t i = receiver - 1; i > 0; --i)
    {
        std::swap(others[i], others[rng() % (i + 1)]);
    }
    others.resize(senders);
    std::sort(others.begin(), others.end());
    std::vector<MrcFlowSpec> flows;
    for (uint32_t s : others)
    {
        flows.push_back(MrcFlowSpec{s, receiver, bytes, 0});
    }
    return flows;
}

std::vector<MrcFlowSpec>
MrcWorkload::Split(const std::vector<MrcFlowSpec>& flows, uint32_t parts)
{
    NS_ABORT_MSG_IF(parts == 0, "a flow must be split into at least 1 part");
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

} // namespace ns3
