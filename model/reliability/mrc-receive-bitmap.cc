/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-receive-bitmap.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mrc-cc-state-header.h"
#include "ns3/mrc-seth-header.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcReceiveBitmap");

namespace
{
/// \param from a PSN \param to a PSN \return to - from as a signed 24-bit serial distance
int32_t
Dist(uint32_t from, uint32_t to)
{
    return MrcSethHeader::PsnDistance(from, to);
}
} // namespace

MrcReceiveBitmap::MrcReceiveBitmap(uint32_t windowPsns, uint32_t initialPsn)
    : m_window(windowPsns),
      m_epsn(initialPsn & PSN_MASK)
{
    NS_ABORT_MSG_IF(
        windowPsns < BLOCK_PSNS || windowPsns > MAX_WINDOW || windowPsns % BLOCK_PSNS != 0,
        "MrcReceiveBitmap window " << windowPsns << " PSNs; allowed: a multiple of 64 in [64, "
                                   << MAX_WINDOW << "]");
    m_words.assign(windowPsns / BLOCK_PSNS, 0);
}

MrcReceiveBitmap
MrcReceiveBitmap::FromMpr(uint8_t mpr, uint32_t initialPsn)
{
    NS_ABORT_MSG_IF(mpr == 0, "MrcReceiveBitmap mpr 0; allowed: 1..255 (units of 128 PSNs)");
    return MrcReceiveBitmap(uint32_t{mpr} * MPR_UNIT_PSNS, initialPsn);
}

bool
MrcReceiveBitmap::TestBit(uint32_t offset) const
{
    uint32_t pos = m_head + offset;
    if (pos >= m_window)
    {
        pos -= m_window;
    }
    return (m_words[pos / BLOCK_PSNS] >> (pos % BLOCK_PSNS)) & 1;
}

void
MrcReceiveBitmap::SetBit(uint32_t offset)
{
    uint32_t pos = m_head + offset;
    if (pos >= m_window)
    {
        pos -= m_window;
    }
    m_words[pos / BLOCK_PSNS] |= uint64_t{1} << (pos % BLOCK_PSNS);
}

void
MrcReceiveBitmap::ClearBit(uint32_t offset)
{
    uint32_t pos = m_head + offset;
    if (pos >= m_window)
    {
        pos -= m_window;
    }
    m_words[pos / BLOCK_PSNS] &= ~(uint64_t{1} << (pos % BLOCK_PSNS));
}

MrcRxResult
MrcReceiveBitmap::OnArrival(uint32_t psn)
{
    MrcRxResult r;
    int32_t d = Dist(m_epsn, psn & PSN_MASK);
    if (d < 0)
    {
        r.kind = MrcRxArrival::DUPLICATE;
        r.oooCount = m_ooo;
        return r;
    }
    auto off = static_cast<uint32_t>(d);
    if (off >= m_window)
    {
        r.kind = MrcRxArrival::OUT_OF_WINDOW;
        r.oooCount = m_ooo;
        NS_LOG_LOGIC("PSN " << psn << " beyond window [" << m_epsn << ", +" << m_window << ")");
        return r;
    }
    if (TestBit(off))
    {
        r.kind = MrcRxArrival::DUPLICATE;
        r.oooCount = m_ooo;
        return r;
    }
    r.kind = MrcRxArrival::NEW;
    uint32_t oooBefore = m_ooo;
    if (off > 0)
    {
        SetBit(off);
        ++m_ooo;
        r.outOfOrder = true;
    }
    else
    {
        // in order: step over it, then over every contiguous PSN already held
        do
        {
            if (r.advanced > 0)
            {
                ClearBit(0);
                --m_ooo;
            }
            ++r.advanced;
            m_epsn = (m_epsn + 1) & PSN_MASK;
            if (++m_head == m_window)
            {
                m_head = 0;
            }
        } while (m_ooo > 0 && TestBit(0));
    }
    r.firstOutOfOrder = (oooBefore == 0 && m_ooo == 1 && r.outOfOrder);
    r.oooDrained = (oooBefore > 0 && m_ooo == 0);
    r.oooCount = m_ooo;
    return r;
}

uint32_t
MrcReceiveBitmap::GetExpectedPsn() const
{
    return m_epsn;
}

uint32_t
MrcReceiveBitmap::GetCumulativePsn() const
{
    return (m_epsn - 1) & PSN_MASK;
}

uint32_t
MrcReceiveBitmap::GetWindowPsns() const
{
    return m_window;
}

uint8_t
MrcReceiveBitmap::GetMprField() const
{
    return static_cast<uint8_t>(m_window / MPR_UNIT_PSNS);
}

uint32_t
MrcReceiveBitmap::GetOooCount() const
{
    return m_ooo;
}

uint16_t
MrcReceiveBitmap::GetOooCountField() const
{
    return static_cast<uint16_t>(std::min<uint32_t>(m_ooo, MrcCcStateHeader::OOO_COUNT_MAX));
}

bool
MrcReceiveBitmap::HasArrived(uint32_t psn) const
{
    int32_t d = Dist(m_epsn, psn & PSN_MASK);
    if (d < 0)
    {
        return true;
    }
    return static_cast<uint32_t>(d) < m_window && TestBit(static_cast<uint32_t>(d));
}

uint32_t
MrcReceiveBitmap::GetSackBase(uint32_t triggerPsn) const
{
    int32_t d = Dist(m_epsn, triggerPsn & PSN_MASK);
    if (d < static_cast<int32_t>(BLOCK_PSNS) || static_cast<uint32_t>(d) >= m_window)
    {
        return m_epsn;
    }
    return (triggerPsn - (BLOCK_PSNS - 1)) & PSN_MASK;
}

uint64_t
MrcReceiveBitmap::GetBitmap(uint32_t basePsn) const
{
    int32_t d = Dist(m_epsn, basePsn & PSN_MASK);
    NS_ABORT_MSG_IF(d < 0 || static_cast<uint32_t>(d) > m_window - BLOCK_PSNS,
                    "MrcReceiveBitmap::GetBitmap base " << basePsn << " is " << d << " from ePSN "
                                                        << m_epsn << "; allowed 0.."
                                                        << m_window - BLOCK_PSNS);
    uint32_t pos = m_head + static_cast<uint32_t>(d);
    if (pos >= m_window)
    {
        pos -= m_window;
    }
    uint32_t w = pos / BLOCK_PSNS;
    uint32_t s = pos % BLOCK_PSNS;
    uint64_t bits = m_words[w] >> s;
    if (s != 0)
    {
        uint32_t next = (w + 1 == m_words.size()) ? 0 : w + 1;
        bits |= m_words[next] << (BLOCK_PSNS - s);
    }
    static_assert(MrcSethHeader::SACK_BITMAP_BASE_AT_LSB, "GetBitmap assumes bit 0 = base PSN");
    return bits;
}

void
MrcReceiveBitmap::FillSeth(MrcSethHeader& seth, uint32_t triggerPsn) const
{
    uint32_t cack = GetCumulativePsn();
    seth.SetCackPsn(cack);
    int32_t d = Dist(cack, triggerPsn & PSN_MASK);
    if (d >= -32768 && d <= 32767)
    {
        seth.SetAckPsn(triggerPsn & PSN_MASK);
    }
    else
    {
        seth.SetAckPsnOffset(0);
    }
    uint32_t base = GetSackBase(triggerPsn);
    seth.SetSackBasePsn(base);
    seth.SetSackBitmap(GetBitmap(base));
    seth.SetMpr(GetMprField());
}

void
MrcReceiveBitmap::FillCcState(MrcCcStateHeader& cc) const
{
    cc.SetOooCount(GetOooCountField());
}

} // namespace ns3
