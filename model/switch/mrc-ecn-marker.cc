/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-ecn-marker.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/ipv6-header.h"
#include "ns3/log.h"
#include "ns3/mrc-packet-info.h"
#include "ns3/mrc-traffic-class.h"
#include "ns3/mrc-uint128.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcEcnMarker");

NS_OBJECT_ENSURE_REGISTERED(MrcEcnMarker);

namespace
{
/// 128-bit unsigned integer (a GCC/Clang extension) for exact rate products.
} // namespace

TypeId
MrcEcnMarker::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcEcnMarker")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcEcnMarker>()
            .AddAttribute("Kmin",
                          "Egress queue bytes at or below which no packet is marked. Default "
                          "400 KB: the HPCC simulator's run.py for DCQCN at 100 Gb/s "
                          "(100 KB x rate / 25 Gb/s; see HpccThresholds).",
                          UintegerValue(400000),
                          MakeUintegerAccessor(&MrcEcnMarker::SetKmin, &MrcEcnMarker::GetKmin),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Kmax",
                          "Egress queue bytes above which every packet is marked. Default "
                          "1600 KB: HPCC simulator run.py at 100 Gb/s (400 KB x rate / 25 Gb/s).",
                          UintegerValue(1600000),
                          MakeUintegerAccessor(&MrcEcnMarker::SetKmax, &MrcEcnMarker::GetKmax),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Pmax",
                          "Marking probability reached at Kmax. Default 0.2 (HPCC simulator "
                          "run.py for DCQCN).",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&MrcEcnMarker::SetPmax, &MrcEcnMarker::GetPmax),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("MarkAt",
                          "Where the switch decides: Enqueue (queue bytes before the packet "
                          "joins) or Dequeue (bytes left after it leaves). Default Dequeue, as "
                          "the HPCC simulator.",
#if MRC_NS3_VERSION_MINOR >= 41
                          EnumValue<MarkPoint>(DEQUEUE),
                          MakeEnumAccessor<MarkPoint>(&MrcEcnMarker::m_markPoint),
#else
                          EnumValue(DEQUEUE),
                          MakeEnumAccessor(&MrcEcnMarker::m_markPoint),
#endif
                          MakeEnumChecker(DEQUEUE, "Dequeue", ENQUEUE, "Enqueue"))
            .AddAttribute("ControlClass",
                          "Priority class that is never marked (ACK, NACK, CNP, SACK, trimmed "
                          "headers). Default 0, the HPCC simulator's control queue; the switch "
                          "sets the class its link device uses.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcEcnMarker::m_controlClass),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("NoEcnToHost",
                          "Do not mark on egress ports that face a host (MRC: ECN on every hop "
                          "but the last). Applied by the switch through IsActiveOn. Default "
                          "false (RoCE/DCQCN marks on every hop); the MRC profile sets true.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MrcEcnMarker::m_noEcnToHost),
                          MakeBooleanChecker());
    return tid;
}

MrcEcnMarker::MrcEcnMarker()
    : m_kmin(0),
      m_kmax(0),
      m_pmax(0.2),
      m_markPoint(DEQUEUE),
      m_controlClass(0),
      m_noEcnToHost(false),
      m_rngStream(RngSeedManager::GetNextStreamIndex()),
      m_rngRun(RngSeedManager::GetRun()),
      m_rngSeed(RngSeedManager::GetSeed())
{
    NS_LOG_FUNCTION(this);
}

RngStream&
MrcEcnMarker::Rng()
{
    if (!m_rng)
    {
        m_rng = std::make_unique<RngStream>(m_rngSeed, m_rngStream, m_rngRun);
    }
    return *m_rng;
}

MrcEcnMarker::~MrcEcnMarker()
{
    NS_LOG_FUNCTION(this);
}

void
MrcEcnMarker::HpccThresholds(DataRate rate, uint64_t& kmin, uint64_t& kmax)
{
    // bytes = KB x 1000 x bit/s / 25e9, exact in integers for rates in whole bit/s
    const MrcUint128 bps = rate.GetBitRate();
    kmin = static_cast<uint64_t>(bps * 100000u / 25000000000ull);
    kmax = static_cast<uint64_t>(bps * 400000u / 25000000000ull);
}

void
MrcEcnMarker::SetKmin(uint64_t bytes)
{
    m_kmin = bytes;
    m_dirty = true;
}

uint64_t
MrcEcnMarker::GetKmin() const
{
    return m_kmin;
}

void
MrcEcnMarker::SetKmax(uint64_t bytes)
{
    m_kmax = bytes;
    m_dirty = true;
}

uint64_t
MrcEcnMarker::GetKmax() const
{
    return m_kmax;
}

void
MrcEcnMarker::SetPmax(double p)
{
    m_pmax = p;
    m_dirty = true;
}

double
MrcEcnMarker::GetPmax() const
{
    return m_pmax;
}

void
MrcEcnMarker::Update()
{
    NS_ABORT_MSG_IF(m_kmin > m_kmax,
                    "MrcEcnMarker: Kmin " << m_kmin << " B is larger than Kmax " << m_kmax
                                          << " B (allowed: Kmin <= Kmax)");
    m_slope = m_kmax > m_kmin ? m_pmax / static_cast<double>(m_kmax - m_kmin) : 0.0;
    m_dirty = false;
}

double
MrcEcnMarker::GetProbability(uint64_t queueBytes)
{
    if (m_dirty)
    {
        Update();
    }
    if (queueBytes <= m_kmin)
    {
        return 0.0;
    }
    if (queueBytes > m_kmax)
    {
        return 1.0;
    }
    return m_slope * static_cast<double>(queueBytes - m_kmin);
}

bool
MrcEcnMarker::ShouldMark(uint64_t queueBytes)
{
    if (m_dirty)
    {
        Update();
    }
    if (queueBytes <= m_kmin)
    {
        return false;
    }
    if (queueBytes > m_kmax)
    {
        return true;
    }
    // a uniform draw in [0, 1), as UniformRandomVariable::GetValue(0, 1) gives it
    return Rng().RandU01() < m_slope * static_cast<double>(queueBytes - m_kmin);
}

bool
MrcEcnMarker::IsActiveOn(bool egressFacesHost) const
{
    return !(m_noEcnToHost && egressFacesHost);
}

bool
MrcEcnMarker::MarkPacket(Ptr<Packet> p, uint32_t classIndex)
{
    if (classIndex == m_controlClass)
    {
        return false;
    }
    // ECN-capable: set CE by rewriting the traffic class bytes in place.
    return MrcMarkCeInPlace(p, 0);
}

bool
MrcEcnMarker::MaybeMark(Ptr<Packet> p, uint64_t queueBytes, uint32_t classIndex)
{
    if (classIndex == m_controlClass)
    {
        return false;
    }
    uint8_t first[2];
    if (p->CopyData(first, 2) < 2 || !MrcIsEcnCapable(MrcEcnOf((first[1] >> 4) & 0x3)))
    {
        return false;
    }
    if (!ShouldMark(queueBytes))
    {
        return false;
    }
    MarkPacket(p, classIndex);
    m_marks++;
    return true;
}

MrcEcnMarker::MarkPoint
MrcEcnMarker::GetMarkPoint() const
{
    return m_markPoint;
}

uint64_t
MrcEcnMarker::GetMarkCount() const
{
    return m_marks;
}

int64_t
MrcEcnMarker::AssignStreams(int64_t stream)
{
    NS_ABORT_MSG_IF(stream < -1, "MrcEcnMarker::AssignStreams: stream " << stream << " < -1");
    // the numbering of RandomVariableStream::SetStream: -1 takes the next automatic
    // stream, a fixed stream n is 2^63 + n (after the automatic ones)
    m_rngStream = stream == -1 ? RngSeedManager::GetNextStreamIndex()
                               : (uint64_t{1} << 63) + static_cast<uint64_t>(stream);
    m_rngRun = RngSeedManager::GetRun();
    m_rngSeed = RngSeedManager::GetSeed();
    m_rng.reset();
    return 1;
}

} // namespace ns3
