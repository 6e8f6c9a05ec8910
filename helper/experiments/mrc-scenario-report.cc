/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-scenario-report.h"

#include "ns3/mrc-channel.h"
#include "ns3/mrc-failure-injector.h"
#include "ns3/mrc-memory-region.h"
#include "ns3/mrc-multipath-queue-pair.h"
#include "ns3/mrc-switch-node.h"
#include "ns3/mrc-uec-queue-pair.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <sys/resource.h>

namespace ns3
{

namespace
{

uint64_t
DevTxPackets(Ptr<MrcNetDevice> d)
{
    uint64_t n = 0;
    for (uint8_t c = 0; c < MrcNetDevice::N_CLASSES; ++c)
    {
        n += d->GetTxPackets(c);
    }
    return n;
}

int64_t
DevPausedNs(Ptr<MrcNetDevice> d)
{
    int64_t t = 0;
    for (uint8_t c = 0; c < MrcNetDevice::N_CLASSES; ++c)
    {
        t += d->GetPausedTime(c).GetNanoSeconds();
    }
    return t;
}

uint64_t
DevDrops(Ptr<MrcNetDevice> d)
{
    uint64_t n = 0;
    for (std::size_t r = 0; r < MRC_DROP_REASON_COUNT; ++r)
    {
        n += d->GetDropPackets(static_cast<MrcDropReason>(r));
    }
    return n;
}

} // namespace

uint64_t
MrcScenarioReport::PeakRssKb()
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return static_cast<uint64_t>(u.ru_maxrss);
}

uint64_t
MrcScenarioReport::TxBytes(Ptr<MrcNetDevice> d)
{
    uint64_t b = 0;
    for (uint8_t c = 0; c < MrcNetDevice::N_CLASSES; ++c)
    {
        b += d->GetTxBytes(c);
    }
    return b;
}

uint64_t
MrcScenarioReport::RxBytes(Ptr<MrcNetDevice> d)
{
    uint64_t b = 0;
    for (uint8_t c = 0; c < MrcNetDevice::N_CLASSES; ++c)
    {
        b += d->GetRxBytes(c);
    }
    return b;
}

void
MrcScenarioReport::ConnectPfcLog(Ptr<MrcTopology> topo,
                                 MrcRunResults* results,
                                 const std::string& transport)
{
    // HPCC's pfc.txt: the paused port's node and interface.
    for (uint32_t l = 0; l < topo->GetNLinks(); ++l)
    {
        const MrcTopologyLink& link = topo->GetLink(l);
        for (int end = 0; end < 2 && link.IsBuilt(); ++end)
        {
            Ptr<MrcNetDevice> dev = end == 0 ? link.devA : link.devB;
            if (!dev)
            {
                continue; // the far end of a link to another rank: logged there
            }
            Ptr<Node> node = end == 0 ? link.nodeA : link.nodeB;
            const uint32_t nodeId = node->GetId();
            const uint32_t type = topo->FindSwitchId(node) >= 0 ? 1 : 0;
            const uint32_t ifIndex = dev->GetIfIndex();
            dev->TraceConnectWithoutContext(
                "PauseState",
                Callback<void, uint8_t, bool>(
                    [results, nodeId, type, ifIndex, transport](uint8_t, bool p) {
                        MrcPfcRecord r;
                        r.transport = transport;
                        r.timeNs = Simulator::Now().GetNanoSeconds();
                        r.node = nodeId;
                        r.nodeType = type;
                        r.ifIndex = ifIndex;
                        r.type = p ? 1 : 0;
                        results->AddPfc(r);
                    }));
        }
    }
}

std::map<std::string, std::string>
MrcScenarioReport::CollectQueuePairs(const MrcTransportInfo& transport,
                                     const std::vector<MrcConnectionLane>& lanes,
                                     uint64_t evChanges,
                                     MrcTransportCounters& tc)
{
    std::map<std::string, std::string> figures;
    uint64_t mpTrimNacks = 0;
    uint64_t mpProbes = 0;
    uint64_t mpInferred = 0;
    MrcUecCounters uc;
    for (const MrcConnectionLane& lane : lanes)
    {
        const MrcRdmaHelper::Connection& conn = lane.qps;
        // In a split run a lane may have no end here, or one (the other end's counters are
        // its rank's, and added by rank 0).
        if (conn.requester)
        {
            const MrcQpCounters& q = conn.requester->GetCounters();
            tc.retransmissions += q.retransmittedPackets;
            tc.timeouts += q.timeouts;
            tc.nacks += q.naksReceived;
            tc.cnps += q.cnpsReceived;
            if (transport.entropyValues)
            {
                Ptr<MrcMultipathQueuePair> mq = DynamicCast<MrcMultipathQueuePair>(conn.requester);
                mpTrimNacks += mq->GetMultipathCounters().trimNacksReceived;
                mpProbes += mq->GetMultipathCounters().probesSent;
                mpInferred += mq->GetMultipathCounters().inferredLosses;
            }
            if (transport.entropySelector)
            {
                const MrcUecCounters& u =
                    DynamicCast<MrcUecQueuePair>(conn.requester)->GetUecCounters();
                uc.trimNacksReceived += u.trimNacksReceived;
                uc.inferredLosses += u.inferredLosses;
                uc.timedOutPsns += u.timedOutPsns;
            }
        }
        if (conn.responder && transport.entropySelector)
        {
            const MrcUecCounters& r =
                DynamicCast<MrcUecQueuePair>(conn.responder)->GetUecCounters();
            uc.lastHopNacksSent += r.lastHopNacksSent;
            uc.oorDrops += r.oorDrops;
        }
        if (!conn.region)
        {
            continue; // the region is at the responder, on another rank
        }
        // The lane's messages wrote one range after another from the region's base.
        const Ptr<MrcMemoryRegion> r = conn.region;
        const uint64_t bytes = lane.nextOffset;
        if (bytes == 0 || r->IsExactlyOnce(r->GetBase(), bytes))
        {
            tc.bytesExactlyOnce += bytes;
        }
        else if (r->GetBytesPlaced() > r->GetDuplicateBytes())
        {
            tc.bytesExactlyOnce += r->GetBytesPlaced() - r->GetDuplicateBytes();
        }
    }
    if (transport.entropyValues)
    {
        // MRC's own counters (summary.json "options" has room for named figures).
        figures["mrcTrimNacksReceived"] = std::to_string(mpTrimNacks);
        figures["mrcInferredLosses"] = std::to_string(mpInferred);
        figures["mrcProbesSent"] = std::to_string(mpProbes);
        figures["mrcEvHealthChanges"] = std::to_string(evChanges);
        if (!lanes.empty())
        {
            // One MRC timeout, 1.024 us x 2^TimeoutExponent (the stall bound of validation).
            UintegerValue e;
            if (lanes[0].qps.requester)
            {
                lanes[0].qps.requester->GetAttribute("TimeoutExponent", e);
            }
            else
            {
                // lane 0 has no requester on this rank: the type's current default (the
                // runner's factory sets no attribute)
                TypeId::AttributeInformation info;
                const bool found = TypeId::LookupByName(transport.queuePairType)
                                       .LookupAttributeByName("TimeoutExponent", &info);
                NS_ABORT_MSG_IF(!found, transport.queuePairType << " has no TimeoutExponent");
                e.Set(DynamicCast<const UintegerValue>(info.initialValue)->Get());
            }
            figures["mrcTimeoutNs"] = std::to_string(uint64_t{1024} << e.Get());
        }
    }
    if (transport.entropySelector)
    {
        // UEC's own counters (requester side, except the responder's last-hop NACKs and
        // out-of-window drops).
        figures["uecTrimNacksReceived"] = std::to_string(uc.trimNacksReceived);
        figures["uecLastHopNacksSent"] = std::to_string(uc.lastHopNacksSent);
        figures["uecInferredLosses"] = std::to_string(uc.inferredLosses);
        figures["uecTimedOutPsns"] = std::to_string(uc.timedOutPsns);
        figures["uecOutOfWindowDrops"] = std::to_string(uc.oorDrops);
    }
    return figures;
}

uint64_t
MrcScenarioReport::CollectLinks(Ptr<MrcTopology> topo,
                                MrcRunResults& results,
                                const std::string& transport)
{
    MrcTransportCounters& tc = results.GetCounters(transport);
    uint64_t hops = 0;
    for (uint32_t s = 0; s < topo->GetNSwitches(); ++s)
    {
        Ptr<MrcSwitchNode> sw = topo->GetSwitchById(s);
        if (!sw)
        {
            continue; // another rank's switch (a lean build): counted there
        }
        tc.trims += sw->GetTrimmedPackets();
        tc.drops += sw->GetTotalDropPackets();
        tc.ecnMarks += sw->GetMarkedPackets();
        tc.pfcPauseFrames += sw->GetPausesSent();
    }
    for (uint32_t l = 0; l < topo->GetNLinks(); ++l)
    {
        const MrcTopologyLink& link = topo->GetLink(l);
        for (int end = 0; end < 2; ++end)
        {
            Ptr<MrcNetDevice> dev = end == 0 ? link.devA : link.devB;
            Ptr<Node> node = end == 0 ? link.nodeA : link.nodeB;
            Ptr<Node> peerNode = end == 0 ? link.nodeB : link.nodeA;
            MrcLinkRecord r;
            r.transport = transport;
            r.from = MrcFailureInjector::NodeName(node);
            r.fromPort = end == 0 ? link.portA : link.portB;
            r.to = MrcFailureInjector::NodeName(peerNode);
            r.toPort = end == 0 ? link.portB : link.portA;
            if (!link.IsBuilt() || !dev)
            {
                // another rank's link or end: its figures are that rank's (added by rank 0)
                r.rateBps = link.rate.GetBitRate();
                results.AddLink(r);
                continue;
            }
            r.rateBps = dev->GetDataRate().GetBitRate();
            r.packets = DevTxPackets(dev);
            r.bytes = TxBytes(dev);
            r.pausesRecv = dev->GetPfcRxFrames();
            r.pausedNs = DevPausedNs(dev);
            Ptr<MrcSwitchNode> sw = DynamicCast<MrcSwitchNode>(node);
            if (sw)
            {
                // (the port's index here: a lean build numbers ports by their own rank)
                const auto port = static_cast<uint32_t>(sw->GetPortIndex(dev));
                for (std::size_t k = 0; k < MRC_SWITCH_DROP_REASON_COUNT; ++k)
                {
                    r.drops += sw->GetDropPackets(port, static_cast<MrcSwitchDropReason>(k));
                }
                r.trims = sw->GetTrimmedPackets(port);
                r.ecnMarks = sw->GetMarkedPackets(port);
                r.pausesSent = sw->GetPausesSent(port);
            }
            else
            {
                r.drops = DevDrops(dev);
                tc.drops += r.drops;
                r.pausesSent = dev->GetPfcTxFrames();
                tc.pfcPauseFrames += r.pausesSent;
            }
            tc.pfcPausedNs += r.pausedNs;
            hops += r.packets;
            results.AddLink(r);
        }
    }
    return hops;
}

} // namespace ns3
