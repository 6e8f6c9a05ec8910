/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-shared-buffer-mmu.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/mrc-uint128.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcSharedBufferMmu");

NS_OBJECT_ENSURE_REGISTERED(MrcSharedBufferMmu);

namespace
{
/// 128-bit unsigned integer (a GCC/Clang extension) for exact rate x time products.
} // namespace

TypeId
MrcSharedBufferMmu::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcSharedBufferMmu")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcSharedBufferMmu>()
            .AddAttribute("BufferSize",
                          "Switch buffer in bytes (reserves + headrooms + shared pool). "
                          "Default 32 MiB: the HPCC simulator's run.py, 16 x 100/50 MiB at "
                          "100 Gb/s.",
                          UintegerValue(32 * 1024 * 1024),
                          MakeUintegerAccessor(&MrcSharedBufferMmu::SetBufferSize,
                                               &MrcSharedBufferMmu::GetBufferSize),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("ReservePerQueue",
                          "Guaranteed ingress bytes of every (port, priority). Default 4 KiB "
                          "(HPCC simulator switch-mmu.cc).",
                          UintegerValue(4 * 1024),
                          MakeUintegerAccessor(&MrcSharedBufferMmu::SetReserve,
                                               &MrcSharedBufferMmu::GetReserve),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Headroom",
                          "PFC headroom of every lossless (port, priority) given by "
                          "ConfigurePorts; SetHeadroom overrides it per port. Default "
                          "37,500 B = 3 x 100 Gb/s x 1 us (HPCC simulator third.cc formula, see "
                          "ComputeHeadroom).",
                          UintegerValue(37500),
                          MakeUintegerAccessor(&MrcSharedBufferMmu::m_defaultHeadroom),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("PfcAlpha",
                          "Dynamic-threshold factor: an ingress queue may hold up to alpha x "
                          "(free shared bytes) of the shared pool. Default 1/8 (HPCC simulator, "
                          "pfc_a_shift 3).",
                          DoubleValue(0.125),
                          MakeDoubleAccessor(&MrcSharedBufferMmu::m_alpha),
                          MakeDoubleChecker<double>(1e-9))
            .AddAttribute("ResumeOffset",
                          "XON hysteresis in bytes: resume when shared use <= threshold - "
                          "offset. Default 3 KiB (HPCC simulator switch-mmu.cc).",
                          UintegerValue(3 * 1024),
                          MakeUintegerAccessor(&MrcSharedBufferMmu::m_resumeOffset),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("LossyEgressAlpha",
                          "Dynamic-threshold factor of lossy egress queues: a lossy packet is "
                          "dropped when its egress queue would exceed beta x (free shared "
                          "bytes). Default 1 (our choice; the HPCC simulator has no lossy "
                          "mode).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&MrcSharedBufferMmu::m_egressAlpha),
                          MakeDoubleChecker<double>(1e-9))
            .AddAttribute("PfcPriorityMask",
                          "Priorities made lossless on every port by ConfigurePorts (bit p = "
                          "priority p). Default 0: all lossy (MRC runs with PFC off); RoCE "
                          "profiles set their data class.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcSharedBufferMmu::m_pfcMask),
                          MakeUintegerChecker<uint8_t>())
            .AddTraceSource("Drop",
                            "A packet was refused: ports, priorities, bytes and the reason.",
                            MakeTraceSourceAccessor(&MrcSharedBufferMmu::m_dropTrace),
                            "ns3::MrcSharedBufferMmu::DropTracedCallback")
            .AddTraceSource("PfcStateChanged",
                            "An ingress queue asked for XOFF (true) or XON (false).",
                            MakeTraceSourceAccessor(&MrcSharedBufferMmu::m_pfcTrace),
                            "ns3::MrcSharedBufferMmu::PfcTracedCallback");
    return tid;
}

MrcSharedBufferMmu::MrcSharedBufferMmu()
    : m_bufferSize(0),
      m_reserve(0),
      m_defaultHeadroom(0),
      m_alpha(0.125),
      m_resumeOffset(0),
      m_egressAlpha(1.0),
      m_pfcMask(0)
{
    NS_LOG_FUNCTION(this);
}

MrcSharedBufferMmu::~MrcSharedBufferMmu()
{
    NS_LOG_FUNCTION(this);
}

std::string
MrcSharedBufferMmu::DecisionName(Decision d)
{
    switch (d)
    {
    case ADMIT:
        return "ADMIT";
    case DROP_SHARED_FULL:
        return "DROP_SHARED_FULL";
    case DROP_HEADROOM_FULL:
        return "DROP_HEADROOM_FULL";
    case DROP_EGRESS_LIMIT:
        return "DROP_EGRESS_LIMIT";
    }
    return "UNKNOWN";
}

uint64_t
MrcSharedBufferMmu::ComputeHeadroom(DataRate rate, Time linkDelay)
{
    NS_ABORT_MSG_IF(linkDelay.IsStrictlyNegative(),
                    "link delay " << linkDelay << " is negative: allowed >= 0");
    // 3 x bit/s x ps / (8 bit/B x 1e12 ps/s), rounded up, in 128-bit arithmetic.
    const MrcUint128 bits = static_cast<MrcUint128>(rate.GetBitRate()) *
                            static_cast<uint64_t>(linkDelay.GetPicoSeconds()) * 3u;
    const MrcUint128 den = static_cast<MrcUint128>(8) * 1000000000000ull;
    return static_cast<uint64_t>((bits + den - 1) / den);
}

void
MrcSharedBufferMmu::ConfigurePorts(uint32_t nPorts)
{
    NS_LOG_FUNCTION(this << nPorts);
    NS_ABORT_MSG_IF(nPorts == 0, "MrcSharedBufferMmu: number of ports 0 is not allowed (>= 1)");
    m_nPorts = nPorts;
    m_ingress.assign(static_cast<std::size_t>(nPorts) * N_PRIO, Ingress());
    m_egress.assign(static_cast<std::size_t>(nPorts) * N_PRIO, 0);
    m_portAlpha.assign(nPorts, m_alpha);
    for (uint32_t port = 0; port < nPorts; ++port)
    {
        for (uint8_t prio = 0; prio < N_PRIO; ++prio)
        {
            Ingress& q = m_ingress[Index(port, prio)];
            q.headroomLimit = m_defaultHeadroom;
            q.lossless = (m_pfcMask >> prio) & 1;
        }
    }
    m_headroomSum = 0;
    for (const Ingress& q : m_ingress)
    {
        if (q.lossless)
        {
            m_headroomSum += q.headroomLimit;
        }
    }
    m_sharedUsed = 0;
    m_total = 0;
    m_dropPackets.fill(0);
    m_dropBytes.fill(0);
    Recompute();
}

uint32_t
MrcSharedBufferMmu::GetNPorts() const
{
    return m_nPorts;
}

std::size_t
MrcSharedBufferMmu::Index(uint32_t port, uint8_t prio) const
{
    return static_cast<std::size_t>(port) * N_PRIO + prio;
}

void
MrcSharedBufferMmu::AbortIndex(uint32_t port, uint8_t prio, const char* what) const
{
    NS_ABORT_MSG("MrcSharedBufferMmu::" << what << ": (port " << port << ", priority "
                                        << unsigned(prio) << ") is out of range: ports 0.."
                                        << int64_t(m_nPorts) - 1 << ", priorities 0.." << N_PRIO - 1
                                        << " (call ConfigurePorts first)");
}

void
MrcSharedBufferMmu::Recompute()
{
    if (m_nPorts == 0)
    {
        return;
    }
    const uint64_t queues = static_cast<uint64_t>(m_nPorts) * N_PRIO;
    const uint64_t reserved = m_reserve * queues;
    // kept up to date by ConfigurePorts, SetHeadroom and SetPfcEnabled: a switch sets the
    // headroom of every port and class, and summing all queues each time was quadratic
    const uint64_t headroom = m_headroomSum;
    NS_ABORT_MSG_IF(reserved + headroom > m_bufferSize,
                    "MrcSharedBufferMmu: BufferSize "
                        << m_bufferSize << " B is smaller than ReservePerQueue " << m_reserve
                        << " B x " << queues << " queues (" << reserved
                        << " B) + headroom of the lossless queues (" << headroom << " B)");
    m_sharedPool = m_bufferSize - reserved - headroom;
    NS_LOG_DEBUG("shared pool " << m_sharedPool << " B (buffer " << m_bufferSize << ", reserve "
                                << reserved << ", headroom " << headroom << ")");
}

void
MrcSharedBufferMmu::SetBufferSize(uint64_t bytes)
{
    m_bufferSize = bytes;
    Recompute();
}

uint64_t
MrcSharedBufferMmu::GetBufferSize() const
{
    return m_bufferSize;
}

void
MrcSharedBufferMmu::SetReserve(uint64_t bytes)
{
    NS_ABORT_MSG_IF(m_total > 0,
                    "MrcSharedBufferMmu: ReservePerQueue cannot change while the buffer holds "
                        << m_total << " B");
    m_reserve = bytes;
    Recompute();
}

uint64_t
MrcSharedBufferMmu::GetReserve() const
{
    return m_reserve;
}

void
MrcSharedBufferMmu::SetHeadroom(uint32_t port, uint64_t bytes)
{
    for (uint8_t prio = 0; prio < N_PRIO; ++prio)
    {
        CheckIndex(port, prio, "SetHeadroom");
        SetHeadroomLimit(m_ingress[Index(port, prio)], bytes);
    }
    Recompute();
}

void
MrcSharedBufferMmu::SetHeadroom(uint32_t port, uint8_t prio, uint64_t bytes)
{
    CheckIndex(port, prio, "SetHeadroom");
    SetHeadroomLimit(m_ingress[Index(port, prio)], bytes);
    Recompute();
}

void
MrcSharedBufferMmu::SetHeadroomLimit(Ingress& q, uint64_t bytes)
{
    if (q.lossless)
    {
        m_headroomSum = m_headroomSum - q.headroomLimit + bytes;
    }
    q.headroomLimit = bytes;
}

uint64_t
MrcSharedBufferMmu::GetHeadroom(uint32_t port, uint8_t prio) const
{
    CheckIndex(port, prio, "GetHeadroom");
    return m_ingress[Index(port, prio)].headroomLimit;
}

void
MrcSharedBufferMmu::SetPfcEnabled(uint32_t port, uint8_t prio, bool enabled)
{
    CheckIndex(port, prio, "SetPfcEnabled");
    Ingress& q = m_ingress[Index(port, prio)];
    NS_ABORT_MSG_IF(q.bytes + q.headroom > 0,
                    "MrcSharedBufferMmu::SetPfcEnabled: (port "
                        << port << ", priority " << unsigned(prio) << ") holds "
                        << q.bytes + q.headroom << " B; change PFC only on an empty queue");
    if (q.lossless != enabled)
    {
        m_headroomSum = enabled ? m_headroomSum + q.headroomLimit : m_headroomSum - q.headroomLimit;
    }
    q.lossless = enabled;
    q.paused = false;
    Recompute();
}

bool
MrcSharedBufferMmu::IsPfcEnabled(uint32_t port, uint8_t prio) const
{
    CheckIndex(port, prio, "IsPfcEnabled");
    return m_ingress[Index(port, prio)].lossless;
}

void
MrcSharedBufferMmu::SetPfcAlpha(uint32_t port, double alpha)
{
    CheckIndex(port, 0, "SetPfcAlpha");
    NS_ABORT_MSG_IF(!(alpha > 0),
                    "MrcSharedBufferMmu::SetPfcAlpha: alpha " << alpha << " is not > 0");
    m_portAlpha[port] = alpha;
}

double
MrcSharedBufferMmu::GetPfcAlpha(uint32_t port) const
{
    CheckIndex(port, 0, "GetPfcAlpha");
    return m_portAlpha[port];
}

uint64_t
MrcSharedBufferMmu::SharedOf(const Ingress& q) const
{
    return q.bytes > m_reserve ? q.bytes - m_reserve : 0;
}

uint64_t
MrcSharedBufferMmu::FreeShared() const
{
    return m_sharedUsed < m_sharedPool ? m_sharedPool - m_sharedUsed : 0;
}

uint64_t
MrcSharedBufferMmu::GetPfcThreshold(uint32_t port) const
{
    CheckIndex(port, 0, "GetPfcThreshold");
    return static_cast<uint64_t>(m_portAlpha[port] * static_cast<double>(FreeShared()));
}

uint64_t
MrcSharedBufferMmu::GetEgressThreshold() const
{
    return static_cast<uint64_t>(m_egressAlpha * static_cast<double>(FreeShared()));
}

MrcSharedBufferMmu::Decision
MrcSharedBufferMmu::Drop(uint32_t inPort,
                         uint8_t inPrio,
                         uint32_t outPort,
                         uint8_t outPrio,
                         uint32_t bytes,
                         Decision reason)
{
    NS_LOG_LOGIC("drop " << bytes << " B from (" << inPort << "," << unsigned(inPrio) << ") to ("
                         << outPort << "," << unsigned(outPrio) << "): " << DecisionName(reason));
    m_dropPackets[reason]++;
    m_dropBytes[reason] += bytes;
    m_dropTrace(inPort, inPrio, outPort, outPrio, bytes, reason);
    return reason;
}

MrcSharedBufferMmu::Decision
MrcSharedBufferMmu::Admit(uint32_t inPort,
                          uint8_t inPrio,
                          uint32_t outPort,
                          uint8_t outPrio,
                          uint32_t bytes)
{
    CheckIndex(inPort, inPrio, "Admit (ingress)");
    CheckIndex(outPort, outPrio, "Admit (egress)");
    Ingress& q = m_ingress[Index(inPort, inPrio)];
    uint64_t& egress = m_egress[Index(outPort, outPrio)];

    const uint64_t fromReserve =
        q.bytes < m_reserve ? std::min<uint64_t>(bytes, m_reserve - q.bytes) : 0;
    const uint64_t rest = bytes - fromReserve;
    if (rest > 0)
    {
        const uint64_t free = FreeShared();
        if (q.lossless)
        {
            const uint64_t threshold = GetPfcThreshold(inPort);
            if (SharedOf(q) + rest <= threshold && rest <= free)
            {
                m_sharedUsed += rest;
                q.bytes += bytes;
            }
            else if (q.headroom + rest <= q.headroomLimit)
            {
                q.bytes += fromReserve;
                q.headroom += rest;
            }
            else
            {
                return Drop(inPort, inPrio, outPort, outPrio, bytes, DROP_HEADROOM_FULL);
            }
        }
        else
        {
            if (egress + bytes > GetEgressThreshold())
            {
                return Drop(inPort, inPrio, outPort, outPrio, bytes, DROP_EGRESS_LIMIT);
            }
            if (rest > free)
            {
                return Drop(inPort, inPrio, outPort, outPrio, bytes, DROP_SHARED_FULL);
            }
            m_sharedUsed += rest;
            q.bytes += bytes;
        }
    }
    else
    {
        q.bytes += bytes;
    }
    egress += bytes;
    m_total += bytes;
    return ADMIT;
}

void
MrcSharedBufferMmu::Release(uint32_t inPort,
                            uint8_t inPrio,
                            uint32_t outPort,
                            uint8_t outPrio,
                            uint32_t bytes)
{
    CheckIndex(inPort, inPrio, "Release (ingress)");
    CheckIndex(outPort, outPrio, "Release (egress)");
    Ingress& q = m_ingress[Index(inPort, inPrio)];
    uint64_t& egress = m_egress[Index(outPort, outPrio)];
    NS_ABORT_MSG_IF(bytes > q.bytes + q.headroom || bytes > egress,
                    "MrcSharedBufferMmu::Release of "
                        << bytes << " B exceeds what (port " << inPort << ", priority "
                        << unsigned(inPrio) << ") holds (" << q.bytes + q.headroom
                        << " B) or egress (port " << outPort << ", priority " << unsigned(outPrio)
                        << ") holds (" << egress << " B)");
    const uint64_t fromHeadroom = std::min<uint64_t>(q.headroom, bytes);
    q.headroom -= fromHeadroom;
    const uint64_t remaining = bytes - fromHeadroom;
    const uint64_t fromShared = std::min(remaining, SharedOf(q));
    m_sharedUsed -= fromShared;
    q.bytes -= remaining;
    egress -= bytes;
    m_total -= bytes;
}

bool
MrcSharedBufferMmu::ShouldPause(uint32_t inPort, uint8_t prio)
{
    CheckIndex(inPort, prio, "ShouldPause");
    Ingress& q = m_ingress[Index(inPort, prio)];
    if (!q.lossless || q.paused)
    {
        return false;
    }
    const uint64_t shared = SharedOf(q);
    if (q.headroom > 0 || (shared > 0 && shared >= GetPfcThreshold(inPort)))
    {
        NS_LOG_LOGIC("XOFF (" << inPort << "," << unsigned(prio) << "): shared " << shared
                              << " threshold " << GetPfcThreshold(inPort) << " headroom "
                              << q.headroom);
        q.paused = true;
        m_pfcTrace(inPort, prio, true);
        return true;
    }
    return false;
}

bool
MrcSharedBufferMmu::ShouldResume(uint32_t inPort, uint8_t prio)
{
    CheckIndex(inPort, prio, "ShouldResume");
    Ingress& q = m_ingress[Index(inPort, prio)];
    if (!q.paused || q.headroom > 0)
    {
        return false;
    }
    const uint64_t shared = SharedOf(q);
    if (shared == 0 || shared + m_resumeOffset <= GetPfcThreshold(inPort))
    {
        NS_LOG_LOGIC("XON (" << inPort << "," << unsigned(prio) << "): shared " << shared
                             << " threshold " << GetPfcThreshold(inPort));
        q.paused = false;
        m_pfcTrace(inPort, prio, false);
        return true;
    }
    return false;
}

bool
MrcSharedBufferMmu::IsPaused(uint32_t port, uint8_t prio) const
{
    CheckIndex(port, prio, "IsPaused");
    return m_ingress[Index(port, prio)].paused;
}

uint64_t
MrcSharedBufferMmu::GetIngressBytes(uint32_t port, uint8_t prio) const
{
    CheckIndex(port, prio, "GetIngressBytes");
    return m_ingress[Index(port, prio)].bytes;
}

uint64_t
MrcSharedBufferMmu::GetSharedBytes(uint32_t port, uint8_t prio) const
{
    CheckIndex(port, prio, "GetSharedBytes");
    return SharedOf(m_ingress[Index(port, prio)]);
}

uint64_t
MrcSharedBufferMmu::GetHeadroomBytes(uint32_t port, uint8_t prio) const
{
    CheckIndex(port, prio, "GetHeadroomBytes");
    return m_ingress[Index(port, prio)].headroom;
}

uint64_t
MrcSharedBufferMmu::GetEgressBytes(uint32_t port, uint8_t prio) const
{
    CheckIndex(port, prio, "GetEgressBytes");
    return m_egress[Index(port, prio)];
}

uint64_t
MrcSharedBufferMmu::GetSharedPoolSize() const
{
    return m_sharedPool;
}

uint64_t
MrcSharedBufferMmu::GetSharedPoolUsed() const
{
    return m_sharedUsed;
}

uint64_t
MrcSharedBufferMmu::GetTotalBytes() const
{
    return m_total;
}

uint64_t
MrcSharedBufferMmu::GetDropPackets(Decision reason) const
{
    return m_dropPackets.at(reason);
}

uint64_t
MrcSharedBufferMmu::GetDropBytes(Decision reason) const
{
    return m_dropBytes.at(reason);
}

} // namespace ns3
