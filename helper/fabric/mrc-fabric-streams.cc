/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-fabric-streams.h"

#include "mrc-topology.h"

#include "ns3/abort.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/mrc-dual-forwarding.h"
#include "ns3/mrc-ecmp-forwarding.h"
#include "ns3/mrc-ecn-marker.h"
#include "ns3/mrc-switch-node.h"
#include "ns3/mrc-trimmer.h"
#include "ns3/random-variable-stream.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcFabricStreams");

int64_t
MrcFabricStreams::AssignStreams(Ptr<MrcSwitchNode> sw, int64_t stream)
{
    NS_LOG_FUNCTION(sw << stream);
    for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
    {
        sw->GetEcnMarker(p)->AssignStreams(stream + p);
    }
    return sw->GetNPorts();
}

int64_t
MrcFabricStreams::AssignStreams(Ptr<MrcTopology> topo, int64_t stream)
{
    NS_LOG_FUNCTION(topo << stream);
    for (uint32_t s = 0; s < topo->GetNSwitches(); ++s)
    {
        Ptr<MrcSwitchNode> sw = topo->GetSwitchById(s);
        if (!sw)
        {
            continue; // another rank's switch (a lean build): its rank draws its streams
        }
        NS_ABORT_MSG_IF(sw->GetNPorts() > STREAMS_PER_SWITCH,
                        "MrcFabricStreams::AssignStreams: switch "
                            << s << " has " << sw->GetNPorts() << " ports; allowed: up to "
                            << STREAMS_PER_SWITCH);
        AssignStreams(sw, stream + s * STREAMS_PER_SWITCH);
    }
    return topo->GetNSwitches() * STREAMS_PER_SWITCH;
}

int64_t
MrcFabricStreams::AssignTrimmerStreams(Ptr<MrcTopology> topo, int64_t stream)
{
    NS_LOG_FUNCTION(topo << stream);
    for (uint32_t s = 0; s < topo->GetNSwitches(); ++s)
    {
        if (Ptr<MrcSwitchNode> sw = topo->GetSwitchById(s))
        {
            sw->GetTrimmer()->AssignStreams(stream + s); // (null: another rank's switch)
        }
    }
    return topo->GetNSwitches();
}

uint64_t
MrcFabricStreams::DrawSeed(int64_t stream)
{
    Ptr<UniformRandomVariable> u =
        CreateObjectWithAttributes<UniformRandomVariable>("Stream", IntegerValue(stream));
    uint64_t seed = 0;
    for (int i = 0; i < 4; ++i)
    {
        seed = (seed << 16) | u->GetInteger(0, 0xFFFF);
    }
    return seed;
}

int64_t
MrcFabricStreams::DrawEcmpSeeds(Ptr<MrcTopology> topo, int64_t stream)
{
    NS_LOG_FUNCTION(topo << stream);
    for (uint32_t s = 0; s < topo->GetNSwitches(); ++s)
    {
        Ptr<MrcSwitchNode> sw = topo->GetSwitchById(s);
        if (!sw)
        {
            continue; // another rank's switch (a lean build)
        }
        Ptr<MrcForwarding> fwd = sw->GetForwarding();
        Ptr<MrcEcmpForwarding> ecmp = DynamicCast<MrcEcmpForwarding>(fwd);
        if (Ptr<MrcDualForwarding> dual = DynamicCast<MrcDualForwarding>(fwd))
        {
            ecmp = dual->GetEcmp();
        }
        if (ecmp)
        {
            ecmp->SetAttribute("Seed", UintegerValue(DrawSeed(stream + s)));
        }
    }
    return topo->GetNSwitches();
}

} // namespace ns3
