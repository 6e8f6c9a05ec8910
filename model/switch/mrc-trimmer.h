/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TRIMMER_H
#define MRC_TRIMMER_H

#include "ns3/mrc-packet-info.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <memory>

/**
 * \file
 * \ingroup mrc
 * Packet trimming: cut a trimmable data packet to its headers instead of dropping it.
 */

namespace ns3
{

class RngStream;

/**
 * \ingroup mrc
 * Switch packet trimming (UEC, MRC).
 *
 * A packet whose outer DSCP is in the trimmable set (TrimmableDscpMask; DSCP_TRIMMABLE
 * and DSCP_TRIMMABLE_RETX by default) is trimmed when its egress queue would grow past
 * TrimThreshold (ShouldTrim), or when the switch would otherwise drop it. Trim() keeps
 * the first TrimSize bytes (counted from the outer IPv6 header; 0 = exactly the
 * headers through the transport's extension headers), re-marks the outer and inner
 * DSCP as TrimmedDscp, or TrimmedLastHopDscp when the egress port faces a host, and
 * fixes the IPv6 payload lengths and the UDP length. The switch forwards the result in
 * its control (high-priority) class; AdmitHeader bounds that queue.
 *
 * TrimVictim chooses which packet a crossed TrimThreshold costs its payload: the
 * arriving one (Arriving, the default), the data packet queued last on that egress
 * class, which the arrival then replaces (LastQueued), or either with probability 1/2
 * (RandomOfTwo, the rule of UEC's reference simulator htsim). The switch asks
 * TrimQueuedVictim once per crossed threshold; RandomOfTwo draws from a stream fixed by
 * AssignStreams (MrcFabricStreams::AssignTrimmerStreams in a fabric).
 */
class MrcTrimmer : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// Which packet pays for a crossed TrimThreshold (TrimVictim attribute).
    enum Victim
    {
        ARRIVING = 0,     //!< the arriving packet
        LAST_QUEUED = 1,  //!< the data packet queued last on the egress class
        RANDOM_OF_TWO = 2 //!< one of the two, each with probability 1/2 (htsim)
    };

    MrcTrimmer();
    ~MrcTrimmer() override;

    /// \return true if the packet's outer DSCP is in the trimmable set
    bool IsTrimmable(const MrcPacketInfo& info) const;

    /**
     * \param info the parsed packet
     * \param egressQueueBytes bytes in its egress (data) queue before it joins
     * \return true if the packet is trimmable and queue + packet > TrimThreshold
     */
    bool ShouldTrim(const MrcPacketInfo& info, uint64_t egressQueueBytes) const;

    /**
     * Size of the trimmed packet: info.headerBytes when TrimSize is 0, else
     * min(packet size, TrimSize). Aborts when TrimSize cuts into the headers.
     * \param info the parsed packet
     * \return bytes kept
     */
    uint32_t GetTrimmedSize(const MrcPacketInfo& info) const;

    /**
     * Make the trimmed copy of a packet (the original is not changed). Packet tags and
     * the byte tags of the kept bytes are kept. Counts the trim.
     * \param p packet starting at its outer IPv6 header
     * \param info what MrcParsePacket found in p
     * \param egressFacesHost true if the egress port leads to a host (last hop)
     * \return the trimmed packet
     */
    Ptr<Packet> Trim(Ptr<const Packet> p, const MrcPacketInfo& info, bool egressFacesHost);

    /**
     * Bound of the trimmed-header queue: false (and a counted drop) when
     * headerQueueBytes + bytes > HeaderQueueLimit.
     * \param headerQueueBytes bytes in the queue of trimmed headers
     * \param bytes size of the trimmed packet
     * \return true if the trimmed packet may be enqueued
     */
    bool AdmitHeader(uint64_t headerQueueBytes, uint32_t bytes);

    /**
     * Called by the switch when ShouldTrim is true: whether to trim the data packet
     * queued last on the egress class instead of the arriving one. RandomOfTwo draws
     * here (one draw per crossed threshold, as in htsim); the other choices never draw.
     * \return true to trim the queued packet
     */
    bool TrimQueuedVictim();

    /// \return the TrimVictim attribute
    Victim GetVictim() const;

    /**
     * Fix the stream of RandomOfTwo's draws (numbered as RandomVariableStream::SetStream
     * numbers a fixed stream). Without it the first draw takes the next automatic stream;
     * the trimmer takes no stream index before its first draw, so trimmers that never
     * draw leave every other automatic stream number as it was.
     * \param stream the stream index (-1: the next automatic one, at the first draw)
     * \return the number of stream indices assigned (1)
     */
    int64_t AssignStreams(int64_t stream);

    /// \return TrimmedLastHopDscp if egressFacesHost, else TrimmedDscp
    uint8_t GetTrimmedDscp(bool egressFacesHost) const;

    /**
     * Add a DSCP to, or remove it from, the trimmable set.
     * \param dscp 0..63
     * \param trimmable true to add
     */
    void SetTrimmable(uint8_t dscp, bool trimmable);

    /// \return packets trimmed (all hops)
    uint64_t GetTrimCount() const;
    /// \return packets trimmed toward a host
    uint64_t GetLastHopTrimCount() const;
    /// \return trimmed headers dropped because the header queue was full
    uint64_t GetHeaderDropCount() const;

    /**
     * TracedCallback signature of Trim.
     * \param original the packet before trimming
     * \param trimmed the trimmed packet
     * \param lastHop true if re-marked TrimmedLastHopDscp
     */
    typedef void (*TrimTracedCallback)(Ptr<const Packet> original,
                                       Ptr<const Packet> trimmed,
                                       bool lastHop);

  private:
    void SetDscpMask(uint64_t mask);
    uint64_t GetDscpMask() const;

    uint64_t m_threshold;         //!< TrimThreshold attribute
    uint32_t m_trimSize;          //!< TrimSize attribute
    uint64_t m_dscpMask;          //!< TrimmableDscpMask attribute
    uint8_t m_trimmedDscp;        //!< TrimmedDscp attribute
    uint8_t m_trimmedLastHopDscp; //!< TrimmedLastHopDscp attribute
    uint64_t m_headerQueueLimit;  //!< HeaderQueueLimit attribute
    Victim m_victim;              //!< TrimVictim attribute
    uint64_t m_trims{0};          //!< packets trimmed
    uint64_t m_lastHopTrims{0};   //!< packets trimmed toward a host
    uint64_t m_headerDrops{0};    //!< trimmed headers dropped

    std::unique_ptr<RngStream> m_rng; //!< RandomOfTwo's draws, made at the first draw
    int64_t m_rngStream{-1};          //!< AssignStreams (-1: automatic at the first draw)

    TracedCallback<Ptr<const Packet>, Ptr<const Packet>, bool> m_trimTrace; //!< Trim
};

} // namespace ns3

#endif /* MRC_TRIMMER_H */
