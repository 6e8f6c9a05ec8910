/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-trimmer.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/enum.h"
#include "ns3/header.h"
#include "ns3/log.h"
#include "ns3/mrc-traffic-class.h"
#include "ns3/mrc-udp-checksum.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/rng-stream.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstring>
#include <iomanip>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcTrimmer");

NS_OBJECT_ENSURE_REGISTERED(MrcTrimmer);

/**
 * \ingroup mrc
 * The rewritten header bytes of a trimmed packet (outer IPv6 through UDP), put back
 * in front of the unchanged rest. Private to the trimmer: it carries bytes, not
 * fields, so that any header stack (SRH included) can be patched in one piece.
 */
class MrcTrimmedHeaderBytes : public Header
{
  public:
    /// Largest patch (outer IPv6 + extension headers + inner IPv6 + UDP).
    static constexpr uint32_t MAX_BYTES = 1024;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::MrcTrimmedHeaderBytes")
                                .SetParent<Header>()
                                .SetGroupName("Mrc")
                                .AddConstructor<MrcTrimmedHeaderBytes>();
        return tid;
    }

    TypeId GetInstanceTypeId() const override
    {
        return GetTypeId();
    }

    /**
     * Use `size` bytes at `bytes` (kept by pointer: the header lives only for AddHeader).
     * \param bytes the header bytes
     * \param size their number
     */
    void Set(const uint8_t* bytes, uint32_t size)
    {
        m_bytes = bytes;
        m_size = size;
    }

    uint32_t GetSerializedSize() const override
    {
        return m_size;
    }

    void Serialize(Buffer::Iterator start) const override
    {
        start.Write(m_bytes, m_size);
    }

    uint32_t Deserialize(Buffer::Iterator /* start */) override
    {
        // Only used to print packets; the size is unknown without the end.
        return 0;
    }

    uint32_t Deserialize(Buffer::Iterator start, Buffer::Iterator end) override
    {
        m_size = end.GetDistanceFrom(start);
        m_bytes = nullptr;
        return m_size;
    }

    void Print(std::ostream& os) const override
    {
        os << "trimmed header stack, " << m_size << " bytes";
    }

  private:
    const uint8_t* m_bytes{nullptr}; //!< bytes to serialize (not owned)
    uint32_t m_size{0};              //!< number of bytes
};

NS_OBJECT_ENSURE_REGISTERED(MrcTrimmedHeaderBytes);

namespace
{

/// Rewrite the DSCP of the IPv6 header at b, keeping version, ECN and flow label.
void
PatchDscp(uint8_t* b, uint8_t dscp)
{
    const uint8_t oldTc = static_cast<uint8_t>(((b[0] & 0x0f) << 4) | (b[1] >> 4));
    const uint8_t tc = MrcMakeTrafficClass(dscp, MrcEcnOf(oldTc));
    b[0] = static_cast<uint8_t>((b[0] & 0xf0) | (tc >> 4));
    b[1] = static_cast<uint8_t>(((tc & 0x0f) << 4) | (b[1] & 0x0f));
}

void
WriteU16(uint8_t* b, uint32_t v)
{
    b[0] = static_cast<uint8_t>(v >> 8);
    b[1] = static_cast<uint8_t>(v);
}

} // namespace

TypeId
MrcTrimmer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcTrimmer")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcTrimmer>()
            .AddAttribute("TrimThreshold",
                          "Egress data-queue bytes: a trimmable packet that would take the queue "
                          "above this is trimmed. Default 125,000 B (our choice: 1 BDP at "
                          "100 Gb/s and 10 us, after htsim's 1-BDP data queue with trimming).",
                          UintegerValue(125000),
                          MakeUintegerAccessor(&MrcTrimmer::m_threshold),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("TrimSize",
                          "Bytes kept, counted from the outer IPv6 header: min(packet, "
                          "TrimSize); must cover the headers through the transport extension "
                          "headers. 0 keeps exactly those headers. Default 256 (MRC model "
                          "default, after NVIDIA Spectrum's default trimming profile).",
                          UintegerValue(256),
                          MakeUintegerAccessor(&MrcTrimmer::m_trimSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TrimmableDscpMask",
                          "Set of DSCPs that may be trimmed, bit d = DSCP d. Default "
                          "DSCP_TRIMMABLE 4 and DSCP_TRIMMABLE_RETX 8 (MRC-Client emulator).",
                          UintegerValue((uint64_t{1} << MrcDscp::TRIMMABLE) |
                                        (uint64_t{1} << MrcDscp::TRIMMABLE_RETX)),
                          MakeUintegerAccessor(&MrcTrimmer::SetDscpMask, &MrcTrimmer::GetDscpMask),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("TrimmedDscp",
                          "DSCP of a packet trimmed inside the fabric. Default 11 (NVIDIA "
                          "Spectrum trimming remark).",
                          UintegerValue(MrcDscp::TRIMMED),
                          MakeUintegerAccessor(&MrcTrimmer::m_trimmedDscp),
                          MakeUintegerChecker<uint8_t>(0, MrcDscp::MAX))
            .AddAttribute("TrimmedLastHopDscp",
                          "DSCP of a packet trimmed on a port that faces a host. Default 21 "
                          "(NVIDIA Spectrum asymmetric mode, host-facing downlinks).",
                          UintegerValue(MrcDscp::TRIMMED_LASTHOP),
                          MakeUintegerAccessor(&MrcTrimmer::m_trimmedLastHopDscp),
                          MakeUintegerChecker<uint8_t>(0, MrcDscp::MAX))
            .AddAttribute("HeaderQueueLimit",
                          "Bytes of trimmed headers an egress port may queue; beyond it "
                          "trimmed headers are dropped. Default 250,000 B (our choice: 2 x "
                          "TrimThreshold, after htsim's header queue of 2 x the data queue).",
                          UintegerValue(250000),
                          MakeUintegerAccessor(&MrcTrimmer::m_headerQueueLimit),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("TrimVictim",
                          "Which packet is trimmed when an arrival crosses TrimThreshold: "
                          "Arriving (the arrival), LastQueued (the data packet queued last "
                          "on that egress class; the arrival takes its place) or RandomOfTwo "
                          "(either, with probability 1/2: UEC's reference simulator htsim). "
                          "A full buffer below the threshold always trims the arrival. "
                          "Default Arriving (our choice; the UEC 1.0 text we have names no "
                          "victim).",
#if MRC_NS3_VERSION_MINOR >= 41
                          EnumValue<Victim>(ARRIVING),
                          MakeEnumAccessor<Victim>(&MrcTrimmer::m_victim),
#else
                          EnumValue(ARRIVING),
                          MakeEnumAccessor(&MrcTrimmer::m_victim),
#endif
                          MakeEnumChecker(ARRIVING,
                                          "Arriving",
                                          LAST_QUEUED,
                                          "LastQueued",
                                          RANDOM_OF_TWO,
                                          "RandomOfTwo"))
            .AddTraceSource("Trim",
                            "A packet was trimmed: original, trimmed copy, last hop.",
                            MakeTraceSourceAccessor(&MrcTrimmer::m_trimTrace),
                            "ns3::MrcTrimmer::TrimTracedCallback");
    return tid;
}

MrcTrimmer::MrcTrimmer()
    : m_threshold(0),
      m_trimSize(0),
      m_dscpMask(0),
      m_trimmedDscp(MrcDscp::TRIMMED),
      m_trimmedLastHopDscp(MrcDscp::TRIMMED_LASTHOP),
      m_headerQueueLimit(0),
      m_victim(ARRIVING)
{
    NS_LOG_FUNCTION(this);
}

MrcTrimmer::~MrcTrimmer()
{
    NS_LOG_FUNCTION(this);
}

void
MrcTrimmer::SetDscpMask(uint64_t mask)
{
    m_dscpMask = mask;
}

uint64_t
MrcTrimmer::GetDscpMask() const
{
    return m_dscpMask;
}

void
MrcTrimmer::SetTrimmable(uint8_t dscp, bool trimmable)
{
    NS_ABORT_MSG_IF(dscp > MrcDscp::MAX,
                    "MrcTrimmer::SetTrimmable: DSCP " << unsigned(dscp)
                                                      << " is out of range: allowed 0..63");
    if (trimmable)
    {
        m_dscpMask |= uint64_t{1} << dscp;
    }
    else
    {
        m_dscpMask &= ~(uint64_t{1} << dscp);
    }
}

bool
MrcTrimmer::IsTrimmable(const MrcPacketInfo& info) const
{
    return (m_dscpMask >> info.GetDscp()) & 1;
}

bool
MrcTrimmer::ShouldTrim(const MrcPacketInfo& info, uint64_t egressQueueBytes) const
{
    return IsTrimmable(info) && egressQueueBytes + info.packetBytes > m_threshold;
}

uint32_t
MrcTrimmer::GetTrimmedSize(const MrcPacketInfo& info) const
{
    if (m_trimSize == 0)
    {
        return info.headerBytes;
    }
    const uint32_t size = std::min(info.packetBytes, m_trimSize);
    NS_ABORT_MSG_IF(size < info.headerBytes,
                    "MrcTrimmer: TrimSize "
                        << m_trimSize << " B cuts into the headers of a " << info.packetBytes
                        << "-byte packet (opcode 0x" << std::hex << unsigned(info.opcode)
                        << std::dec << ", " << info.headerBytes
                        << " B of headers); allowed: 0 (headers only) or >= " << info.headerBytes);
    return size;
}

bool
MrcTrimmer::TrimQueuedVictim()
{
    switch (m_victim)
    {
    case ARRIVING:
        return false;
    case LAST_QUEUED:
        return true;
    case RANDOM_OF_TWO:
        break;
    }
    if (!m_rng)
    {
        // the numbering of RandomVariableStream::SetStream: a fixed stream n is 2^63 + n
        const uint64_t stream = m_rngStream == -1
                                    ? RngSeedManager::GetNextStreamIndex()
                                    : (uint64_t{1} << 63) + static_cast<uint64_t>(m_rngStream);
        m_rng = std::make_unique<RngStream>(RngSeedManager::GetSeed(),
                                            stream,
                                            RngSeedManager::GetRun());
    }
    return m_rng->RandU01() < 0.5;
}

MrcTrimmer::Victim
MrcTrimmer::GetVictim() const
{
    return m_victim;
}

int64_t
MrcTrimmer::AssignStreams(int64_t stream)
{
    NS_ABORT_MSG_IF(stream < -1, "MrcTrimmer::AssignStreams: stream " << stream << " < -1");
    m_rngStream = stream;
    m_rng.reset();
    return 1;
}

uint8_t
MrcTrimmer::GetTrimmedDscp(bool egressFacesHost) const
{
    return egressFacesHost ? m_trimmedLastHopDscp : m_trimmedDscp;
}

Ptr<Packet>
MrcTrimmer::Trim(Ptr<const Packet> p, const MrcPacketInfo& info, bool egressFacesHost)
{
    NS_ASSERT_MSG(p->GetSize() == info.packetBytes,
                  "MrcTrimmer::Trim: info describes a " << info.packetBytes << "-byte packet, not "
                                                        << p->GetSize());
    const uint32_t keep = GetTrimmedSize(info);
    const uint8_t dscp = GetTrimmedDscp(egressFacesHost);
    // Bytes to rewrite: everything up to the end of UDP (or of the innermost IPv6).
    uint32_t patch = MRC_IPV6_HEADER_BYTES;
    if (info.hasUdp)
    {
        patch = info.udpOffset + MRC_UDP_HEADER_BYTES;
    }
    else if (info.encapsulated)
    {
        patch = info.innerOffset + MRC_IPV6_HEADER_BYTES;
    }
    NS_ABORT_MSG_IF(patch > MrcTrimmedHeaderBytes::MAX_BYTES || patch > keep,
                    "MrcTrimmer::Trim: header stack of " << patch << " B cannot be trimmed to "
                                                         << keep << " B");

    Ptr<Packet> q = p->CreateFragment(0, keep);
    uint8_t buf[MrcTrimmedHeaderBytes::MAX_BYTES];
    q->CopyData(buf, patch);
    PatchDscp(buf, dscp);
    WriteU16(buf + 4, keep - MRC_IPV6_HEADER_BYTES);
    if (info.encapsulated)
    {
        uint8_t* inner = buf + info.innerOffset;
        PatchDscp(inner, dscp);
        WriteU16(inner + 4, keep - info.innerOffset - MRC_IPV6_HEADER_BYTES);
    }
    if (info.hasUdp)
    {
        WriteU16(buf + info.udpOffset + 4, keep - info.udpOffset);
        // A zero checksum (RoCEv2's) stays zero; a filled-in one is recomputed over what
        // is left, so that a capture of the trimmed packet still checks clean.
        const uint32_t field = info.udpOffset + MrcUdpChecksum::FIELD_OFFSET;
        if (buf[field] != 0 || buf[field + 1] != 0)
        {
            std::vector<uint8_t> bytes(keep);
            q->CopyData(bytes.data(), keep);
            std::copy(buf, buf + patch, bytes.begin());
            const uint16_t sum = MrcUdpChecksum::Compute(bytes.data(),
                                                         keep,
                                                         info.GetInnermostIpv6Offset(),
                                                         info.udpOffset);
            WriteU16(buf + field, sum);
        }
    }
    q->RemoveAtStart(patch);
    MrcTrimmedHeaderBytes h;
    h.Set(buf, patch);
    q->AddHeader(h);

    m_trims++;
    if (egressFacesHost)
    {
        m_lastHopTrims++;
    }
    NS_LOG_LOGIC("trimmed " << info.packetBytes << " B to " << keep << " B, DSCP "
                            << unsigned(dscp));
    m_trimTrace(p, q, egressFacesHost);
    return q;
}

bool
MrcTrimmer::AdmitHeader(uint64_t headerQueueBytes, uint32_t bytes)
{
    if (headerQueueBytes + bytes > m_headerQueueLimit)
    {
        m_headerDrops++;
        return false;
    }
    return true;
}

uint64_t
MrcTrimmer::GetTrimCount() const
{
    return m_trims;
}

uint64_t
MrcTrimmer::GetLastHopTrimCount() const
{
    return m_lastHopTrims;
}

uint64_t
MrcTrimmer::GetHeaderDropCount() const
{
    return m_headerDrops;
}

} // namespace ns3
