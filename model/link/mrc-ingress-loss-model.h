/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_INGRESS_LOSS_MODEL_H
#define MRC_INGRESS_LOSS_MODEL_H

#include "ns3/error-model.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

/**
 * \file
 * \ingroup mrc
 * Random loss of the packets a NIC port receives, as a packet program in the NIC drops them.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * Drops each frame a device receives with probability Rate, one uniform draw per frame
 * (the draws of a RateErrorModel in packet units on the same stream), except the frames
 * of the MAC Control EtherType (PFC pause frames), which pass without a draw while
 * SkipMacControl is true.
 *
 * It models the loss of [P1] section 5.2.7, "an inline P4 program to all NICs in the
 * cluster that randomly drops incoming packets at a prescribed rate", on a host NIC port
 * (mrc-sim --lossAt=path): every packet the NIC's packet pipeline receives, data and
 * every control packet alike (ACK, SACK, NACK, probe, CNP), is dropped once, where it
 * enters its destination NIC. A PFC frame never reaches that pipeline: the MAC's control
 * sublayer takes it (IEEE 802.3 Clause 31, MAC Control; 802.1Qbb builds PFC on it), so it
 * is not one of the packets such a program can drop.
 *
 * Like ns-3's RateErrorModel, a disabled model (ErrorModel::Disable) drops nothing and
 * draws nothing.
 */
class MrcIngressLossModel : public ErrorModel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcIngressLossModel();
    ~MrcIngressLossModel() override;

    /// \param rate the probability that a frame (other than a skipped one) is dropped
    void SetRate(double rate);
    /// \return the drop probability
    double GetRate() const;

    /**
     * Use a fixed random stream.
     * \param stream the stream index
     * \return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /// \return the frames that met a draw (every frame but the skipped ones)
    uint64_t GetDraws() const;
    /// \return the frames that passed without a draw (MAC Control frames)
    uint64_t GetSkipped() const;

    /**
     * IsCorrupt for a frame whose EtherType the caller knows is not MAC Control (an IPv6
     * frame whose Ethernet header MrcNetDevice has not written, mrc-unwritten.h): the same
     * draw, without reading the frame.
     * \return true if the frame is dropped
     */
    bool IsCorruptNotMacControl();

  private:
    bool DoCorrupt(Ptr<Packet> p) override;
    void DoReset() override;

    /**
     * \param frame a received frame, Ethernet header first
     * \return true when it carries the MAC Control EtherType
     */
    static bool IsMacControl(Ptr<const Packet> frame);

    double m_rate;                        //!< drop probability
    bool m_skipMacControl;                //!< MAC Control frames pass without a draw
    Ptr<UniformRandomVariable> m_uniform; //!< one draw per frame
    uint64_t m_draws{0};                  //!< frames drawn for
    uint64_t m_skipped{0};                //!< frames passed without a draw
};

} // namespace ns3

#endif // MRC_INGRESS_LOSS_MODEL_H
