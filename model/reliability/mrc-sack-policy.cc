/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-sack-policy.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcSackPolicy");

NS_OBJECT_ENSURE_REGISTERED(MrcSackPolicy);

TypeId
MrcSackPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcSackPolicy")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcSackPolicy>()
            .AddAttribute("TriggerBytes",
                          "Coalescing threshold: a SACK goes once the bytes accounted since "
                          "the last SACK reach it. Default 16384: UET PDS ACK_Gen_Trigger "
                          "(Linux ultraeth RFC) and UEC htsim's sack threshold; 4096 "
                          "reproduces the MRC-Client emulator.",
                          UintegerValue(16384),
                          MakeUintegerAccessor(&MrcSackPolicy::m_triggerBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MinPktAddBytes",
                          "Each new packet adds max(payload, this) to the coalescing count. "
                          "Default 1024: UET PDS ACK_Gen_Min_Pkt_Add (Linux ultraeth RFC; "
                          "MRC-Client uses the same).",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&MrcSackPolicy::m_minPktAddBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SackOnEcn",
                          "SACK every ECN-CE packet at once (the SACK echoes only the "
                          "triggering packet's EV). Default true: UEC htsim, UET, MRC-Client.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcSackPolicy::m_onEcn),
                          MakeBooleanChecker())
            .AddAttribute("SackOnAr",
                          "SACK at once when the packet asks for it (BTH A / UEC AR). "
                          "Default true: UEC htsim, UET, MRC-Client.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcSackPolicy::m_onAr),
                          MakeBooleanChecker())
            .AddAttribute("SackOnRetx",
                          "SACK every retransmitted packet (BTH RTX) at once. Default true: "
                          "UET PDS (Linux ultraeth RFC), MRC-Client.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcSackPolicy::m_onRetx),
                          MakeBooleanChecker())
            .AddAttribute("SackOnFirstPacket",
                          "SACK the first data packet of the connection. Default true: UEC "
                          "htsim.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcSackPolicy::m_onFirstPacket),
                          MakeBooleanChecker())
            .AddAttribute("SackOnFirstOutOfOrder",
                          "SACK at once when the first hole appears (out-of-order count 0 -> "
                          "1), so the sender learns of reordering or loss early. Default true: "
                          "our choice (mrc-protocol.md section 5 model default; later "
                          "out-of-order packets are coalesced).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcSackPolicy::m_onFirstOoo),
                          MakeBooleanChecker())
            .AddAttribute("SackOnArDrained",
                          "After an AR arrived while holes were open, SACK again when the "
                          "holes close. Default true: UEC htsim.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcSackPolicy::m_onArDrained),
                          MakeBooleanChecker())
            .AddAttribute("SackOnLastOfMessage",
                          "SACK the last packet of a message at once. Default true: our choice "
                          "(mrc-protocol.md section 5 model default; UEC gets the same effect "
                          "from the AR its sender sets on the last queued packet).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcSackPolicy::m_onLastOfMessage),
                          MakeBooleanChecker())
            .AddAttribute("SackOnDuplicate",
                          "SACK a duplicate at once (the earlier SACK may be lost). Default "
                          "true: UEC htsim.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcSackPolicy::m_onDuplicate),
                          MakeBooleanChecker());
    return tid;
}

MrcSackPolicy::MrcSackPolicy()
    : m_triggerBytes(16384),
      m_minPktAddBytes(1024),
      m_onEcn(true),
      m_onAr(true),
      m_onRetx(true),
      m_onFirstPacket(true),
      m_onFirstOoo(true),
      m_onArDrained(true),
      m_onLastOfMessage(true),
      m_onDuplicate(true)
{
}

MrcSackPolicy::~MrcSackPolicy() = default;

uint32_t
MrcSackPolicy::OnData(const Data& d, const MrcRxResult& rx)
{
    if (rx.kind == MrcRxArrival::OUT_OF_WINDOW)
    {
        return SACK_HOLD;
    }
    uint32_t why = SACK_HOLD;
    if (rx.kind == MrcRxArrival::NEW)
    {
        uint64_t sum = uint64_t{m_pending} + std::max(d.bytes, m_minPktAddBytes);
        m_pending = static_cast<uint32_t>(std::min<uint64_t>(sum, UINT32_MAX));
        if (m_pending >= m_triggerBytes)
        {
            why |= SACK_BYTES;
        }
        if (m_onFirstOoo && rx.firstOutOfOrder)
        {
            why |= SACK_FIRST_OOO;
        }
        if (m_onLastOfMessage && d.lastOfMessage)
        {
            why |= SACK_LAST_OF_MESSAGE;
        }
    }
    else if (m_onDuplicate)
    {
        why |= SACK_DUPLICATE;
    }
    if (m_onFirstPacket && !m_seenFirst)
    {
        why |= SACK_FIRST_PACKET;
    }
    m_seenFirst = true;
    if (m_onEcn && d.ce)
    {
        why |= SACK_ECN;
    }
    if (m_onRetx && d.retx)
    {
        why |= SACK_RETX;
    }
    if (m_onAr && d.ar)
    {
        why |= SACK_AR;
    }
    if (m_onArDrained)
    {
        if (rx.oooDrained && m_arWhileOoo)
        {
            why |= SACK_AR_DRAINED;
            m_arWhileOoo = false;
        }
        else if (d.ar && rx.oooCount > 0)
        {
            m_arWhileOoo = true;
        }
    }
    if (why != SACK_HOLD)
    {
        m_pending = 0;
    }
    return why;
}

void
MrcSackPolicy::OnSackSent()
{
    m_pending = 0;
}

uint32_t
MrcSackPolicy::GetPendingBytes() const
{
    return m_pending;
}

} // namespace ns3
