/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-srv6-encap.h"

#include "mrc-byte-io.h"
#include "mrc-packet-info.h"
#include "mrc-traffic-class.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcSrv6Encap");

namespace
{

/// Size of an IPv6 header without extensions.
constexpr uint32_t IPV6_HEADER_SIZE = 40;

} // namespace

void
MrcSrv6Encapsulate(Ptr<Packet> p,
                   uint8_t trafficClass,
                   uint32_t flowLabel,
                   const Ipv6Address& outerSource,
                   const MrcUsidCarrier& outerDestination,
                   const MrcSrhHeader* srh,
                   uint8_t hopLimit)
{
    NS_LOG_FUNCTION(p << unsigned(trafficClass) << flowLabel << outerSource << outerDestination
                      << srh << unsigned(hopLimit));
    NS_ABORT_MSG_IF(flowLabel > MRC_FLOW_LABEL_MASK,
                    "flow label 0x" << std::hex << flowLabel << std::dec
                                    << " does not fit in 20 bits");
    uint32_t payload = p->GetSize();
    MrcIpv6Fields outer;
    if (srh)
    {
        NS_ABORT_MSG_IF(srh->GetNextHeader() != MRC_IPV6_IN_IPV6,
                        "the SRH before an inner IPv6 header must have next header "
                            << unsigned(MRC_IPV6_IN_IPV6) << ", not "
                            << unsigned(srh->GetNextHeader()));
        payload += srh->GetSerializedSize();
        p->AddHeader(*srh);
        outer.nextHeader = MrcSrhHeader::PROTOCOL_NUMBER;
    }
    else
    {
        outer.nextHeader = MRC_IPV6_IN_IPV6;
    }
    NS_ABORT_MSG_IF(payload > 0xffff,
                    "IPv6 payload of " << payload << " bytes does not fit the 16-bit length "
                                       << "field (jumbograms are not modelled)");
    outer.trafficClass = trafficClass;
    outer.flowLabel = flowLabel;
    outer.payloadLength = static_cast<uint16_t>(payload);
    outer.hopLimit = hopLimit;
    outer.src = outerSource;
    outerDestination.GetBytes(outer.dst.bytes);
    MrcAddIpv6Header(p, outer);
}

void
MrcSrv6Encapsulate(Ptr<Packet> p,
                   const Ipv6Header& inner,
                   const Ipv6Address& outerSource,
                   const MrcUsidCarrier& outerDestination,
                   const MrcSrhHeader* srh,
                   uint8_t hopLimit)
{
    MrcSrv6Encapsulate(p,
                       inner.GetTrafficClass(),
                       inner.GetFlowLabel(),
                       outerSource,
                       outerDestination,
                       srh,
                       hopLimit);
}

void
MrcSrv6Encapsulate(Ptr<Packet> p,
                   const Ipv6Address& outerSource,
                   const MrcUsidCarrier& outerDestination,
                   const MrcSrhHeader* srh,
                   uint8_t hopLimit)
{
    NS_ABORT_MSG_IF(p->GetSize() < IPV6_HEADER_SIZE,
                    "a packet of " << p->GetSize() << " bytes cannot start with an IPv6 header");
    uint8_t b[4];
    p->CopyData(b, 4);
    NS_ABORT_MSG_IF((b[0] >> 4) != 6,
                    "the packet to encapsulate starts with IP version " << (b[0] >> 4)
                                                                        << ", not 6");
    uint8_t trafficClass = static_cast<uint8_t>(((b[0] & 0x0f) << 4) | (b[1] >> 4));
    uint32_t flowLabel = MrcByteIo::ReadU24(b + 1) & MRC_FLOW_LABEL_MASK;
    MrcSrv6Encapsulate(p, trafficClass, flowLabel, outerSource, outerDestination, srh, hopLimit);
}

void
MrcSrv6EncapsulatePath(Ptr<Packet> p,
                       const Ipv6Header& inner,
                       const Ipv6Address& outerSource,
                       const MrcUsidCarrier* path,
                       uint32_t count,
                       uint8_t hopLimit)
{
    NS_ABORT_MSG_IF(count == 0, "an SRv6 path needs at least one carrier");
    if (count == 1)
    {
        MrcSrv6Encapsulate(p, inner, outerSource, path[0], nullptr, hopLimit);
        return;
    }
    MrcSrhHeader srh;
    MrcUsidCarrier first = srh.SetPath(path, count);
    MrcSrv6Encapsulate(p, inner, outerSource, first, &srh, hopLimit);
}

bool
MrcSrv6Decapsulate(Ptr<Packet> p, Ipv6Header* outer, MrcSrhHeader* srh)
{
    NS_LOG_FUNCTION(p);
    Ipv6Header o;
    NS_ABORT_MSG_IF(p->GetSize() < 40,
                    "a " << p->GetSize() << "-byte packet is too short for an outer IPv6 header");
    p->RemoveHeader(o);
    NS_ABORT_MSG_IF(o.GetPayloadLength() != p->GetSize(),
                    "outer IPv6 payload length " << o.GetPayloadLength() << " but " << p->GetSize()
                                                 << " bytes follow the outer header");
    bool hasSrh = false;
    if (o.GetNextHeader() == MrcSrhHeader::PROTOCOL_NUMBER)
    {
        // The SRH's length as its header says (8 * (Hdr Ext Len + 1) bytes) must be there
        // before it is read.
        uint8_t fixed[8];
        NS_ABORT_MSG_IF(p->CopyData(fixed, 8) < 8, "a packet too short for its SRH");
        const uint32_t srhBytes = 8 * (fixed[1] + 1u);
        NS_ABORT_MSG_IF(p->GetSize() < srhBytes,
                        "SRH of " << srhBytes << " bytes (Hdr Ext Len " << unsigned(fixed[1])
                                  << ") in a packet of " << p->GetSize() << " bytes");
        MrcSrhHeader s;
        p->RemoveHeader(s);
        NS_ABORT_MSG_IF(s.GetNextHeader() != MRC_IPV6_IN_IPV6,
                        "SRH next header " << unsigned(s.GetNextHeader())
                                           << ": only IPv6-in-IPv6 (41) is decapsulated");
        hasSrh = true;
        if (srh)
        {
            *srh = s;
        }
    }
    else
    {
        NS_ABORT_MSG_IF(o.GetNextHeader() != MRC_IPV6_IN_IPV6,
                        "outer IPv6 next header " << unsigned(o.GetNextHeader())
                                                  << ": not an IPv6-in-IPv6 packet (41, or 43 "
                                                  << "with an SRH)");
    }
    if (outer)
    {
        *outer = o;
    }
    return hasSrh;
}

bool
MrcSrv6CopyCeToInner(const Ipv6Header& outer, Ipv6Header& inner)
{
    if (MrcGetEcn(outer) == MrcEcn::CE)
    {
        return MrcMarkCe(inner);
    }
    return MrcGetEcn(inner) == MrcEcn::CE;
}

} // namespace ns3
