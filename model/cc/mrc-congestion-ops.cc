/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-congestion-ops.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcCongestionOps");

NS_OBJECT_ENSURE_REGISTERED(MrcCongestionOps);
NS_OBJECT_ENSURE_REGISTERED(MrcNoCongestionControl);

TypeId
MrcCongestionOps::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcCongestionOps").SetParent<Object>().SetGroupName("Mrc");
    return tid;
}

void
MrcCongestionOps::OnSent(MrcCcState& /* s */, uint32_t /* bytes */)
{
}

void
MrcCongestionOps::OnAck(MrcCcState& /* s */, const MrcCcAck& /* ack */)
{
}

void
MrcCongestionOps::OnCnp(MrcCcState& /* s */)
{
}

void
MrcCongestionOps::OnNack(MrcCcState& /* s */, uint32_t /* bytes */, MrcCcNackKind /* kind */)
{
}

void
MrcCongestionOps::OnNackWithRtt(MrcCcState& s,
                                uint32_t bytes,
                                MrcCcNackKind kind,
                                Time /* rttSample */)
{
    OnNack(s, bytes, kind);
}

void
MrcCongestionOps::OnBaseRttSample(MrcCcState& /* s */, Time /* rtt */)
{
}

bool
MrcCongestionOps::AckRequest(const MrcCcState& /* s */) const
{
    return false;
}

void
MrcCongestionOps::OnLoss(MrcCcState& /* s */, uint32_t /* bytes */)
{
}

TypeId
MrcNoCongestionControl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcNoCongestionControl")
                            .SetParent<MrcCongestionOps>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcNoCongestionControl>();
    return tid;
}

std::string
MrcNoCongestionControl::GetName() const
{
    return "none";
}

void
MrcNoCongestionControl::Init(MrcCcState& s)
{
    NS_LOG_FUNCTION(this);
    s.rate = s.lineRate;
    s.cwnd = std::numeric_limits<uint64_t>::max();
}

Ptr<MrcCongestionOps>
MrcNoCongestionControl::Fork() const
{
    return CopyObject<MrcNoCongestionControl>(this);
}

} // namespace ns3
