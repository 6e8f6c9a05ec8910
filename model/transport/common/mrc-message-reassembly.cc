/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-message-reassembly.h"

#include <algorithm>

namespace ns3
{

bool
MrcMessageReassembly::OnPlaced(uint16_t msn,
                               uint32_t length,
                               uint32_t rkey,
                               uint64_t va,
                               uint32_t bytes,
                               Time now,
                               bool hasImm,
                               uint32_t imm)
{
    // offset from the next MSN to report, in 16-bit MSN space
    const uint64_t k = static_cast<uint16_t>(msn - static_cast<uint16_t>(m_nextMsn));
    if (k >= m_msgs.size())
    {
        m_msgs.resize(k + 1);
    }
    Message& m = m_msgs[k];
    if (!m.seen)
    {
        m.seen = true;
        m.length = length;
        m.rkey = rkey;
        m.first = now;
    }
    m.received += bytes;
    m.minVa = std::min(m.minVa, va);
    m.last = now;
    if (hasImm)
    {
        m.hasImm = true;
        m.imm = imm;
    }
    return k == 0 && m.received >= m.length;
}

bool
MrcMessageReassembly::PopComplete(MrcRecvCompletion& rc)
{
    if (m_msgs.empty() || !m_msgs.front().seen || m_msgs.front().received < m_msgs.front().length)
    {
        return false;
    }
    const Message& m = m_msgs.front();
    rc.rkey = m.rkey;
    rc.address = m.minVa;
    rc.bytes = m.length;
    rc.hasImmediate = m.hasImm;
    rc.immediate = m.imm;
    rc.firstPacket = m.first;
    rc.end = m.last;
    m_immReported += m.hasImm ? 1 : 0;
    m_msgs.pop_front();
    ++m_nextMsn;
    return true;
}

} // namespace ns3
