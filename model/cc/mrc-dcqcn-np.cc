/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-dcqcn-np.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcDcqcnNotificationPoint");

NS_OBJECT_ENSURE_REGISTERED(MrcDcqcnNotificationPoint);

TypeId
MrcDcqcnNotificationPoint::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcDcqcnNotificationPoint")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcDcqcnNotificationPoint>()
            .AddAttribute("CnpStyle",
                          "Interval: separate CNPs, at most one per CnpInterval per flow, a CE "
                          "packet inside the interval deferring one to its end (DCQCN paper, "
                          "htsim). AckFlag: a CNP flag on the ACK of every CE packet (HPCC "
                          "simulator). PortInterval: at most one CNP per CnpInterval per "
                          "receiving NIC port, shared by its queue pairs, nothing deferred "
                          "(NVIDIA min_time_between_cnps, described as the least time between "
                          "CNPs sent from the port). Default AckFlag (HPCC simulator, the "
                          "roce-hpcc profile).",
#if MRC_NS3_VERSION_MINOR >= 41
                          EnumValue<CnpStyle>(ACK_FLAG),
                          MakeEnumAccessor<CnpStyle>(&MrcDcqcnNotificationPoint::m_style),
#else
                          EnumValue(ACK_FLAG),
                          MakeEnumAccessor(&MrcDcqcnNotificationPoint::m_style),
#endif
                          MakeEnumChecker(INTERVAL,
                                          "Interval",
                                          ACK_FLAG,
                                          "AckFlag",
                                          PORT_INTERVAL,
                                          "PortInterval"))
            .AddAttribute("CnpInterval",
                          "Interval style: least time between two CNPs of a flow; "
                          "PortInterval: of a NIC port. Default 50 us (DCQCN paper, htsim).",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&MrcDcqcnNotificationPoint::m_interval),
                          MakeTimeChecker(Time(0)));
    return tid;
}

MrcDcqcnNotificationPoint::MrcDcqcnNotificationPoint()
    : m_style(ACK_FLAG)
{
    NS_LOG_FUNCTION(this);
}

MrcDcqcnNotificationPoint::~MrcDcqcnNotificationPoint()
{
    NS_LOG_FUNCTION(this);
}

void
MrcDcqcnNotificationPoint::DoDispose()
{
    m_deferred.Cancel();
    m_sendCnp = Callback<void>();
    Object::DoDispose();
}

void
MrcDcqcnNotificationPoint::SetSendCnpCallback(Callback<void> cb)
{
    m_sendCnp = cb;
}

void
MrcDcqcnNotificationPoint::CancelDeferred()
{
    Simulator::Remove(m_deferred);
    m_pending = 0;
}

bool
MrcDcqcnNotificationPoint::OnDataArrival(bool ce, MrcCnpPortClock* portClock)
{
    if (!ce)
    {
        return false;
    }
    ++m_ceCount;
    if (m_style == ACK_FLAG)
    {
        ++m_cnpCount;
        return true;
    }
    Time now = Simulator::Now();
    if (m_style == PORT_INTERVAL)
    {
        NS_ABORT_MSG_IF(portClock == nullptr,
                        "MrcDcqcnNotificationPoint: CnpStyle PortInterval needs the NIC port's "
                        "CNP clock");
        if (portClock->any && now - portClock->last < m_interval)
        {
            return false; // the port sent a CNP too recently: none for this packet
        }
        portClock->any = true;
        portClock->last = now;
        m_anyCnp = true;
        m_lastCnp = now;
        ++m_cnpCount;
        return true;
    }
    if (!m_anyCnp || now - m_lastCnp >= m_interval)
    {
        // The deferred event (if any) is due exactly now and not run yet: this CNP covers it.
        m_deferred.Cancel();
        m_anyCnp = true;
        m_lastCnp = now;
        m_pending = 0;
        ++m_cnpCount;
        return true;
    }
    ++m_pending;
    if (m_deferred.IsExpired())
    {
        NS_ABORT_MSG_IF(m_sendCnp.IsNull(),
                        "MrcDcqcnNotificationPoint: CnpStyle Interval needs "
                        "SetSendCnpCallback before CE packets arrive");
        m_deferred = Simulator::Schedule(m_lastCnp + m_interval - now,
                                         &MrcDcqcnNotificationPoint::SendDeferred,
                                         this);
    }
    return false;
}

void
MrcDcqcnNotificationPoint::SendDeferred()
{
    NS_LOG_FUNCTION(this << m_pending);
    m_lastCnp = Simulator::Now();
    m_pending = 0;
    ++m_cnpCount;
    m_sendCnp();
}

MrcDcqcnNotificationPoint::CnpStyle
MrcDcqcnNotificationPoint::GetStyle() const
{
    return m_style;
}

uint64_t
MrcDcqcnNotificationPoint::GetCeCount() const
{
    return m_ceCount;
}

uint64_t
MrcDcqcnNotificationPoint::GetCnpCount() const
{
    return m_cnpCount;
}

uint32_t
MrcDcqcnNotificationPoint::GetPendingCe() const
{
    return m_pending;
}

bool
MrcDcqcnNotificationPoint::IsCnpDeferred() const
{
    return !m_deferred.IsExpired();
}

} // namespace ns3
