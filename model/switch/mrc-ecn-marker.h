/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_ECN_MARKER_H
#define MRC_ECN_MARKER_H

#include "ns3/data-rate.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/rng-stream.h"

#include <cstdint>
#include <memory>

/**
 * \file
 * \ingroup mrc
 * RED-style ECN marking on the instantaneous egress queue length.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * Switch ECN marker: RED on the instantaneous bytes of one egress queue.
 *
 * With q the egress queue's bytes, the marking probability is 0 for q <= Kmin,
 * Pmax x (q - Kmin) / (Kmax - Kmin) for Kmin < q <= Kmax, and 1 for q > Kmax (the HPCC
 * simulator's rule). The switch asks at the point MarkAt names: at enqueue with the
 * queue's bytes before the packet joins, or at dequeue with the bytes left after the
 * packet leaves (HPCC simulator).
 *
 * Which packets may be marked: only ECN-capable ones (ECT(0), ECT(1) or CE), and never
 * those of the control class (ControlClass). NoEcnToHost is read by the switch: when
 * true, it does not mark on ports that face a host (MRC marks on every hop but the
 * last, so that ECN signals fabric imbalance, not incast); IsActiveOn() applies it.
 * Only the outer IPv6 header is marked; a decapsulating NIC copies CE inward
 * (RFC 6040) or reads the outer header.
 */
class MrcEcnMarker : public Object
{
  public:
    /// Where the switch takes the marking decision.
    enum MarkPoint : uint8_t
    {
        ENQUEUE = 0, //!< when the packet joins the egress queue
        DEQUEUE = 1, //!< when the packet leaves the egress queue
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcEcnMarker();
    ~MrcEcnMarker() override;

    /**
     * Kmin and Kmax of the HPCC simulator's run.py for DCQCN, scaled with the link
     * rate: 100 KB x rate / 25 Gb/s and 400 KB x rate / 25 Gb/s (KB = 1000 B).
     * \param rate egress link rate
     * \param kmin out: Kmin in bytes
     * \param kmax out: Kmax in bytes
     */
    static void HpccThresholds(DataRate rate, uint64_t& kmin, uint64_t& kmax);

    /**
     * Draw the marking decision for one packet (consumes one random draw only when
     * Kmin < queueBytes <= Kmax). Aborts on Kmin > Kmax.
     * \param queueBytes egress queue bytes, as MarkAt defines them
     * \return true if the packet should be marked CE
     */
    bool ShouldMark(uint64_t queueBytes);

    /// \return the marking probability at queueBytes (no random draw)
    double GetProbability(uint64_t queueBytes);

    /**
     * \param egressFacesHost true if the egress port leads to a host NIC
     * \return false when NoEcnToHost forbids marking on that port
     */
    bool IsActiveOn(bool egressFacesHost) const;

    /**
     * Mark the outer IPv6 header CE in place, if the packet is ECN-capable and not of
     * the control class. No random draw.
     * \param p packet starting at its outer IPv6 header
     * \param classIndex priority class the packet travels in
     * \return true if the packet now carries CE because of this call or was CE already
     */
    bool MarkPacket(Ptr<Packet> p, uint32_t classIndex);

    /**
     * The whole decision: class and ECN capability first (no draw for packets that
     * cannot be marked), then ShouldMark, then MarkPacket.
     * \param p packet starting at its outer IPv6 header
     * \param queueBytes egress queue bytes, as MarkAt defines them
     * \param classIndex priority class the packet travels in
     * \return true if the packet was marked (counted in GetMarkCount)
     */
    bool MaybeMark(Ptr<Packet> p, uint64_t queueBytes, uint32_t classIndex);

    /// \return MarkAt
    MarkPoint GetMarkPoint() const;

    /// \return the number of packets MaybeMark marked
    uint64_t GetMarkCount() const;

    /**
     * Assign a fixed random variable stream number to the random variable used.
     * \param stream first stream index to use
     * \return the number of stream indices assigned (1)
     */
    int64_t AssignStreams(int64_t stream);

  private:
    void Update();
    void SetKmin(uint64_t bytes);
    uint64_t GetKmin() const;
    void SetKmax(uint64_t bytes);
    uint64_t GetKmax() const;
    void SetPmax(double p);
    double GetPmax() const;

    uint64_t m_kmin;         //!< Kmin attribute
    uint64_t m_kmax;         //!< Kmax attribute
    double m_pmax;           //!< Pmax attribute
    MarkPoint m_markPoint;   //!< MarkAt attribute
    uint32_t m_controlClass; //!< ControlClass attribute
    bool m_noEcnToHost;      //!< NoEcnToHost attribute
    bool m_dirty{true};      //!< thresholds changed since the last check
    double m_slope{0};       //!< Pmax / (Kmax - Kmin)
    uint64_t m_marks{0};     //!< packets marked

    // The marking draws. A large fabric has hundreds of thousands of switch ports, most of
    // which never draw (queues below Kmin, or ECN off), so the generator is made at the
    // first draw. Its stream is fixed when the marker is made (the next automatic stream
    // index, as a UniformRandomVariable made here would take) or by AssignStreams (stream
    // 2^63 + n, as RandomVariableStream::SetStream numbers a fixed stream), so the draws
    // are the ones an eagerly made UniformRandomVariable would give.

    /// \return the generator of the marking draws, made on first use
    RngStream& Rng();

    std::unique_ptr<RngStream> m_rng; //!< marking draws, null until the first draw
    uint64_t m_rngStream;             //!< the generator's stream index
    uint64_t m_rngRun;                //!< the run (substream) it was fixed with
    uint32_t m_rngSeed;               //!< the seed it was fixed with
};

} // namespace ns3

#endif /* MRC_ECN_MARKER_H */
