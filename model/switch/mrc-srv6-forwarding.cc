/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-srv6-forwarding.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mrc-usid.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcSrv6Forwarding");

NS_OBJECT_ENSURE_REGISTERED(MrcSrv6Forwarding);

TypeId
MrcSrv6Forwarding::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcSrv6Forwarding")
            .SetParent<MrcForwarding>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcSrv6Forwarding>()
            .AddAttribute("LocatorBlock",
                          "32-bit uSID locator block shared by the fabric. Default "
                          "0xfcbbbb00 (fcbb:bb00::/32, the block of RFC 9800's examples).",
                          UintegerValue(MrcUsidCarrier::DEFAULT_LOCATOR_BLOCK),
                          MakeUintegerAccessor(&MrcSrv6Forwarding::m_locator),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Usid",
                          "This switch's own 16-bit uSID (0 = not set: Route aborts).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcSrv6Forwarding::m_usid),
                          MakeUintegerChecker<uint16_t>());
    return tid;
}

MrcSrv6Forwarding::MrcSrv6Forwarding()
    : m_locator(MrcUsidCarrier::DEFAULT_LOCATOR_BLOCK),
      m_usid(0)
{
    NS_LOG_FUNCTION(this);
}

MrcSrv6Forwarding::~MrcSrv6Forwarding()
{
    NS_LOG_FUNCTION(this);
}

void
MrcSrv6Forwarding::Add(uint16_t usid, uint32_t port, bool local, const char* what)
{
    NS_ABORT_MSG_IF(usid == 0,
                    "MrcSrv6Forwarding::" << what << ": uSID 0 ends a carrier and cannot be "
                                          << "routed (allowed 1..0xffff)");
    const Entry* it = m_table.Find(usid);
    NS_ABORT_MSG_IF(it,
                    "MrcSrv6Forwarding::" << what << ": uSID 0x" << std::hex << usid << std::dec
                                          << " (port " << port << ") is already in the table of "
                                          << "switch uSID 0x" << std::hex << m_usid << std::dec
                                          << " (port " << it->port << ")");
    m_table.Insert(usid, Entry{port, local});
}

void
MrcSrv6Forwarding::AddUsidRoute(uint16_t usid, uint32_t port)
{
    NS_LOG_FUNCTION(this << usid << port);
    Add(usid, port, false, "AddUsidRoute");
}

void
MrcSrv6Forwarding::AddLocalAdjacency(uint16_t usid, uint32_t port)
{
    NS_LOG_FUNCTION(this << usid << port);
    Add(usid, port, true, "AddLocalAdjacency");
}

uint32_t
MrcSrv6Forwarding::GetNEntries() const
{
    return static_cast<uint32_t>(m_table.size());
}

int32_t
MrcSrv6Forwarding::DoRoute(MrcPacketInfo& info, uint32_t /* inPort */)
{
    NS_ABORT_MSG_IF(m_usid == 0, "MrcSrv6Forwarding: the switch's Usid attribute is not set");
    MrcUsidCarrier carrier = MrcUsidCarrier::FromBytes(info.dst.bytes);
    if (!carrier.Matches(m_locator, m_usid))
    {
        return NO_ROUTE;
    }
    carrier.Shift();
    const Entry* it = m_table.Find(carrier.GetActiveUsid());
    if (!it)
    {
        return NO_ROUTE;
    }
    if (it->local)
    {
        carrier.Shift();
    }
    carrier.GetBytes(info.dst.bytes);
    // uN shifts only: the switch may carry them beside the packet (MrcPacketInfo::dstShifts)
    const uint32_t before = info.rewriteDst ? info.dstShifts : 0;
    info.dstShifts = before == MrcPacketInfo::DST_REWRITTEN
                         ? MrcPacketInfo::DST_REWRITTEN
                         : static_cast<uint8_t>(before + (it->local ? 2 : 1));
    info.rewriteDst = true;
    return static_cast<int32_t>(it->port);
}

} // namespace ns3
