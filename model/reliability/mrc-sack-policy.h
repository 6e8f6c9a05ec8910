/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SACK_POLICY_H
#define MRC_SACK_POLICY_H

#include "mrc-receive-bitmap.h"

#include "ns3/object.h"

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * Receiver decision: send a SACK for this data packet now, or keep coalescing.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * Why a SACK goes out (bit flags; several may hold at once).
 */
enum MrcSackReason : uint32_t
{
    SACK_HOLD = 0,                  //!< no SACK now
    SACK_BYTES = 1u << 0,           //!< the coalescing byte count reached the trigger
    SACK_ECN = 1u << 1,             //!< the packet arrived ECN-CE
    SACK_AR = 1u << 2,              //!< the sender asked (BTH A / UEC AR)
    SACK_RETX = 1u << 3,            //!< the packet is a retransmission
    SACK_FIRST_PACKET = 1u << 4,    //!< first data packet of the connection
    SACK_FIRST_OOO = 1u << 5,       //!< the first hole appeared (ooo count 0 -> 1)
    SACK_AR_DRAINED = 1u << 6,      //!< holes closed after an AR arrived while they were open
    SACK_LAST_OF_MESSAGE = 1u << 7, //!< last packet of a message
    SACK_DUPLICATE = 1u << 8,       //!< a duplicate arrived (the sender may have lost a SACK)
};

/**
 * \ingroup mrc
 * Per-connection SACK generation policy (one object per receiving QP / PDC).
 *
 * Each data arrival that the receive window accepted or found duplicate is shown to
 * OnData(); it returns a non-zero MrcSackReason mask when a SACK must go now. The byte
 * rule is UET PDS ACK coalescing: every NEW packet adds max(bytes, MinPktAddBytes) to a
 * counter; a SACK goes when the counter reaches TriggerBytes. Every SACK (whatever the
 * reason) resets the counter; SACKs the caller sends for other reasons (probe response)
 * are reported with OnSackSent(). Out-of-window packets are NACKed, not SACKed: OnData
 * returns SACK_HOLD for them and leaves the counter alone.
 */
class MrcSackPolicy : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcSackPolicy();
    ~MrcSackPolicy() override;

    /// Per-packet flags of an arrival.
    struct Data
    {
        uint32_t bytes{0};         //!< payload bytes
        bool ce{false};            //!< arrived ECN-CE
        bool ar{false};            //!< BTH A (ack request) / UEC AR set
        bool retx{false};          //!< BTH RTX set
        bool lastOfMessage{false}; //!< Write Last / Write Only (with or without Immediate)
    };

    /**
     * \param d the packet's flags
     * \param rx the receive window's verdict on its PSN (MrcReceiveBitmap::OnArrival)
     * \return the reasons to SACK now (SACK_HOLD = 0: keep coalescing)
     */
    uint32_t OnData(const Data& d, const MrcRxResult& rx);
    /// A SACK left for another reason: restart coalescing.
    void OnSackSent();
    /// \return the coalescing counter (bytes accounted since the last SACK)
    uint32_t GetPendingBytes() const;

  private:
    uint32_t m_triggerBytes;   //!< TriggerBytes
    uint32_t m_minPktAddBytes; //!< MinPktAddBytes
    bool m_onEcn;              //!< SackOnEcn
    bool m_onAr;               //!< SackOnAr
    bool m_onRetx;             //!< SackOnRetx
    bool m_onFirstPacket;      //!< SackOnFirstPacket
    bool m_onFirstOoo;         //!< SackOnFirstOutOfOrder
    bool m_onArDrained;        //!< SackOnArDrained
    bool m_onLastOfMessage;    //!< SackOnLastOfMessage
    bool m_onDuplicate;        //!< SackOnDuplicate
    uint32_t m_pending{0};     //!< coalescing counter
    bool m_seenFirst{false};   //!< a data packet arrived before
    bool m_arWhileOoo{false};  //!< an AR arrived while holes were open
};

} // namespace ns3

#endif /* MRC_SACK_POLICY_H */
