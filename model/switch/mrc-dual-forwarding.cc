/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-dual-forwarding.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mrc-usid.h"
#include "ns3/object-factory.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcDualForwarding");

NS_OBJECT_ENSURE_REGISTERED(MrcDualForwarding);

TypeId
MrcDualForwarding::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcDualForwarding")
            .SetParent<MrcForwarding>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcDualForwarding>()
            .AddAttribute("LocatorBlock",
                          "32-bit uSID locator block: packets whose outer destination starts "
                          "with it follow SRv6, all others ECMP. Also sets the SRv6 engine's "
                          "LocatorBlock. Default fcbb:bb00::/32 (MrcUsidCarrier's default).",
                          UintegerValue(MrcUsidCarrier::DEFAULT_LOCATOR_BLOCK),
                          MakeUintegerAccessor(&MrcDualForwarding::SetLocatorBlock,
                                               &MrcDualForwarding::GetLocatorBlock),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("EcmpForwarding",
                          "TypeId of the engine for non-SRv6 packets: ns3::MrcEcmpForwarding "
                          "(default: hashed ECMP), ns3::MrcAdaptiveForwarding (per-packet "
                          "least-loaded port) or ns3::MrcFlowletForwarding.",
                          TypeIdValue(MrcEcmpForwarding::GetTypeId()),
                          MakeTypeIdAccessor(&MrcDualForwarding::SetEcmpType,
                                             &MrcDualForwarding::GetEcmpType),
                          MakeTypeIdChecker());
    return tid;
}

MrcDualForwarding::MrcDualForwarding()
    : m_srv6(CreateObject<MrcSrv6Forwarding>()),
      m_ecmp(CreateObject<MrcEcmpForwarding>()),
      m_locator(MrcUsidCarrier::DEFAULT_LOCATOR_BLOCK)
{
    NS_LOG_FUNCTION(this);
}

MrcDualForwarding::~MrcDualForwarding()
{
    NS_LOG_FUNCTION(this);
}

void
MrcDualForwarding::DoDispose()
{
    m_srv6 = nullptr;
    m_ecmp = nullptr;
    MrcForwarding::DoDispose();
}

Ptr<MrcSrv6Forwarding>
MrcDualForwarding::GetSrv6() const
{
    return m_srv6;
}

Ptr<MrcEcmpForwarding>
MrcDualForwarding::GetEcmp() const
{
    return m_ecmp;
}

void
MrcDualForwarding::SetLocatorBlock(uint32_t block)
{
    m_locator = block;
    m_srv6->SetAttribute("LocatorBlock", UintegerValue(block));
}

uint32_t
MrcDualForwarding::GetLocatorBlock() const
{
    return m_locator;
}

void
MrcDualForwarding::SetEcmpType(TypeId tid)
{
    if (tid == m_ecmp->GetInstanceTypeId())
    {
        return;
    }
    NS_ABORT_MSG_IF(!tid.IsChildOf(MrcEcmpForwarding::GetTypeId()) &&
                        tid != MrcEcmpForwarding::GetTypeId(),
                    "MrcDualForwarding: EcmpForwarding " << tid.GetName()
                                                         << " is not an ns3::MrcEcmpForwarding");
    ObjectFactory f;
    f.SetTypeId(tid);
    m_ecmp = f.Create<MrcEcmpForwarding>();
    m_ecmp->SetPortLoadCallback(m_portLoad);
}

TypeId
MrcDualForwarding::GetEcmpType() const
{
    return m_ecmp->GetInstanceTypeId();
}

void
MrcDualForwarding::SetPortLoadCallback(PortLoadCallback cb)
{
    m_portLoad = cb;
    MrcForwarding::SetPortLoadCallback(cb);
    m_ecmp->SetPortLoadCallback(cb);
}

void
MrcDualForwarding::SetPortState(uint32_t port, bool up)
{
    m_ecmp->SetPortState(port, up);
}

int32_t
MrcDualForwarding::DoRoute(MrcPacketInfo& info, uint32_t inPort)
{
    if (MrcUsidCarrier::FromBytes(info.dst.bytes).GetLocatorBlock() == m_locator)
    {
        return m_srv6->Route(info, inPort);
    }
    return m_ecmp->Route(info, inPort);
}

} // namespace ns3
