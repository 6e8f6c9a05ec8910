/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-ingress-loss-model.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/mrc-byte-io.h"
#include "ns3/mrc-pfc-frame.h"
#include "ns3/mrc-raw-header.h"
#include "ns3/packet.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcIngressLossModel");

NS_OBJECT_ENSURE_REGISTERED(MrcIngressLossModel);

TypeId
MrcIngressLossModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcIngressLossModel")
            .SetParent<ErrorModel>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcIngressLossModel>()
            .AddAttribute(
                "Rate",
                "Probability that a received frame is dropped (one draw per frame).",
                DoubleValue(0.0),
                MakeDoubleAccessor(&MrcIngressLossModel::SetRate, &MrcIngressLossModel::GetRate),
                MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("SkipMacControl",
                          "Frames of the MAC Control EtherType (PFC) pass without a draw: "
                          "the MAC consumes them before a NIC's packet pipeline sees them.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MrcIngressLossModel::m_skipMacControl),
                          MakeBooleanChecker());
    return tid;
}

MrcIngressLossModel::MrcIngressLossModel()
    : m_rate(0.0),
      m_skipMacControl(true),
      m_uniform(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

MrcIngressLossModel::~MrcIngressLossModel()
{
    NS_LOG_FUNCTION(this);
}

void
MrcIngressLossModel::SetRate(double rate)
{
    NS_LOG_FUNCTION(this << rate);
    m_rate = rate;
}

double
MrcIngressLossModel::GetRate() const
{
    return m_rate;
}

int64_t
MrcIngressLossModel::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_uniform->SetStream(stream);
    return 1;
}

uint64_t
MrcIngressLossModel::GetDraws() const
{
    return m_draws;
}

uint64_t
MrcIngressLossModel::GetSkipped() const
{
    return m_skipped;
}

bool
MrcIngressLossModel::IsMacControl(Ptr<const Packet> frame)
{
    uint8_t head[MrcRawHeader::ETHERNET_BYTES];
    if (frame->CopyData(head, sizeof(head)) < sizeof(head))
    {
        return false;
    }
    return MrcByteIo::ReadU16(head + 12) == MrcPfcFrame::ETHER_TYPE;
}

bool
MrcIngressLossModel::DoCorrupt(Ptr<Packet> p)
{
    NS_LOG_FUNCTION(this << p);
    if (!IsEnabled())
    {
        return false;
    }
    if (m_skipMacControl && IsMacControl(p))
    {
        ++m_skipped;
        return false;
    }
    ++m_draws;
    return m_uniform->GetValue() < m_rate;
}

bool
MrcIngressLossModel::IsCorruptNotMacControl()
{
    if (!IsEnabled())
    {
        return false;
    }
    ++m_draws;
    return m_uniform->GetValue() < m_rate;
}

void
MrcIngressLossModel::DoReset()
{
    NS_LOG_FUNCTION(this);
}

} // namespace ns3
