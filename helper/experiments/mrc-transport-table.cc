/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-transport-table.h"

#include "ns3/abort.h"
#include "ns3/mrc-topology.h"

namespace ns3
{

const std::vector<MrcTransportInfo>&
MrcTransportTable::GetAll()
{
    static const std::vector<MrcTransportInfo> all = [] {
        MrcTransportInfo roce;
        roce.name = "roce";
        roce.queuePairType = "ns3::MrcRoceQueuePair";
        roce.defaultProfile = "roce-deployed"; // DCQCN and ECN as operators deploy them
        roce.defaultMtu = 4096;                // issue 19: the same payload as uec and mrc
        roce.dataFrameOverhead = ROCE_DATA_OVERHEAD + 16; // and the RETH of a Write
        roce.idealFctExtraBytes = 8;
        roce.ackFrameBytes = ROCE_ACK_BYTES;
        roce.priorityGroups = true;

        // A UEC fabric: lossy (no PFC), trimming, ECN marking up to the receiver (NSCC
        // reads the ECN echo); the uec-htsim profile sets the same and its thresholds.
        MrcTransportInfo uec;
        uec.name = "uec";
        uec.queuePairType = "ns3::MrcUecQueuePair";
        uec.defaultProfile = "uec-htsim";
        uec.defaultMtu = 4096; // htsim main_uec.cpp
        uec.fabricDefaults = {{"ns3::MrcSwitchNode::TrimmingEnabled", "true"},
                              {"ns3::MrcSwitchNode::EcnEnabled", "true"},
                              {"ns3::MrcSharedBufferMmu::PfcPriorityMask", "0"}};
        // no SRv6, a RETH on every packet
        uec.dataFrameOverhead = MrcTopology::MRC_DATA_FRAME_OVERHEAD - SRV6_ENCAP_BYTES;
        uec.ackFrameBytes = MrcTopology::MRC_SACK_FRAME_BYTES;
        uec.entropySelector = true;

        // An MRC fabric: lossy, trimming, no ECN mark on the host downlink.
        MrcTransportInfo mrc;
        mrc.name = "mrc";
        mrc.queuePairType = "ns3::MrcMultipathQueuePair";
        mrc.defaultProfile = "mrc";
        mrc.defaultMtu = 4096;
        mrc.fabricDefaults = {{"ns3::MrcSwitchNode::TrimmingEnabled", "true"},
                              {"ns3::MrcSwitchNode::NoEcnToHost", "true"},
                              {"ns3::MrcSharedBufferMmu::PfcPriorityMask", "0"}};
        mrc.dataFrameOverhead = MrcTopology::MRC_DATA_FRAME_OVERHEAD - SRV6_ENCAP_BYTES;
        mrc.srv6EncapBytes = SRV6_ENCAP_BYTES;
        mrc.ackFrameBytes = MrcTopology::MRC_SACK_FRAME_BYTES;
        mrc.usesAllPlanes = true;
        mrc.entropyValues = true;
        return std::vector<MrcTransportInfo>{roce, uec, mrc};
    }();
    return all;
}

const MrcTransportInfo*
MrcTransportTable::Find(const std::string& name)
{
    for (const MrcTransportInfo& t : GetAll())
    {
        if (t.name == name)
        {
            return &t;
        }
    }
    return nullptr;
}

const MrcTransportInfo&
MrcTransportTable::Get(const std::string& name)
{
    const MrcTransportInfo* t = Find(name);
    if (!t)
    {
        std::string allowed;
        for (const std::string& n : GetNames())
        {
            allowed += (allowed.empty() ? "" : ", ") + n;
        }
        NS_FATAL_ERROR("transport '" << name << "' is not available (allowed: " << allowed << ")");
    }
    return *t;
}

std::vector<std::string>
MrcTransportTable::GetNames()
{
    std::vector<std::string> names;
    for (const MrcTransportInfo& t : GetAll())
    {
        names.push_back(t.name);
    }
    return names;
}

} // namespace ns3
