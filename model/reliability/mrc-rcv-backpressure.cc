/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-rcv-backpressure.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mrc-uint128.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcRcvBackpressure");

namespace
{
/// Bit-nanoseconds in one byte: 8 bits x 1e9 ns/s (the drain credit's unit).
constexpr uint64_t BIT_NS_PER_BYTE = 8000000000ULL;
} // namespace

void
MrcRcvBackpressure::Configure(DataRate drainRate, uint64_t busyBytes, uint32_t restoreSacks)
{
    m_bitRate = drainRate.GetBitRate();
    NS_ABORT_MSG_IF(m_bitRate > 0 && busyBytes == 0,
                    "MrcRcvBackpressure: RcvBusyBytes is 0 with RcvDrainRate "
                        << drainRate << "; it must be at least 1 byte");
    NS_ABORT_MSG_IF(restoreSacks == 0,
                    "MrcRcvBackpressure: RcvRestoreSacks is 0; it must be at least 1");
    m_busy = busyBytes;
    m_restoreSacks = restoreSacks;
    m_backlog = 0;
    m_credit = 0;
    m_last = Time(0);
    m_episode = false;
    m_restoreLeft = 0;
}

bool
MrcRcvBackpressure::IsEnabled() const
{
    return m_bitRate > 0;
}

void
MrcRcvBackpressure::Drain(Time now)
{
    if (now <= m_last)
    {
        return;
    }
    const uint64_t dtNs = static_cast<uint64_t>((now - m_last).GetNanoSeconds());
    m_last = now;
    if (m_backlog == 0)
    {
        m_credit = 0; // an idle receiver banks no drain
        return;
    }
    m_credit += static_cast<MrcUint128>(m_bitRate) * dtNs;
    const MrcUint128 bytes = m_credit / BIT_NS_PER_BYTE;
    if (bytes >= m_backlog)
    {
        m_backlog = 0;
        m_credit = 0;
        return;
    }
    m_backlog -= static_cast<uint64_t>(bytes);
    m_credit -= bytes * BIT_NS_PER_BYTE;
}

void
MrcRcvBackpressure::OnData(Time now, uint64_t bytes)
{
    if (m_bitRate == 0)
    {
        return;
    }
    Drain(now);
    m_backlog += bytes;
}

uint64_t
MrcRcvBackpressure::GetBacklog(Time now)
{
    Drain(now);
    return m_backlog;
}

uint8_t
MrcRcvBackpressure::PenaltyFor(uint64_t backlog, uint64_t busyBytes)
{
    if (backlog <= busyBytes)
    {
        return 0;
    }
    const MrcUint128 excess = static_cast<MrcUint128>(backlog - busyBytes) * 128;
    const MrcUint128 pen = (excess + backlog - 1) / backlog; // ceil
    return static_cast<uint8_t>(std::min<MrcUint128>(pen, PEN_MAX));
}

MrcRcvBackpressure::Fields
MrcRcvBackpressure::OnSack(Time now)
{
    Fields f;
    if (m_bitRate == 0)
    {
        return f;
    }
    Drain(now);
    f.pen = PenaltyFor(m_backlog, m_busy);
    if (f.pen > 0)
    {
        m_episode = true;
        m_restoreLeft = m_restoreSacks;
        return f;
    }
    if (m_episode && m_backlog <= m_busy / 2)
    {
        f.restore = true;
        if (--m_restoreLeft == 0)
        {
            m_episode = false;
        }
    }
    return f;
}

} // namespace ns3
