/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_UEC_WIRE_H
#define MRC_UEC_WIRE_H

#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>

/**
 * \file
 * \ingroup mrc
 * Build and read the acknowledgements of the UEC RUD queue pair (MrcUecQueuePair). The
 * model carries RUD's ACK / ACK_CC fields in MRC's SACK packet (BTH opcode 0xDC, SETH,
 * CC_STATE); see doc/mrc.rst, "UEC RUD queue pair". Kept in its own translation unit so
 * that the queue pair does not include the SETH header itself.
 */

namespace ns3
{

class MrcReceiveBitmap;

/**
 * \ingroup mrc
 * The RUD ACK_CC fields of one acknowledgement, as the sender reads them.
 */
struct MrcUecAckFields
{
    uint32_t cackPsn{0};     //!< cumulative PSN: every PSN up to it arrived
    uint32_t ackPsn{0};      //!< the PSN whose arrival triggered the ACK
    uint32_t sackBase{0};    //!< PSN of bit 0 of the SACK bitmap
    uint64_t sackBitmap{0};  //!< 64 PSNs from sackBase, bit i = sackBase + i
    uint16_t ev{0};          //!< EV of the triggering packet (echoed)
    bool probe{false};       //!< SETH pr: answers a probe (ackPsn then has no meaning)
    uint16_t probeId{0};     //!< the probe_id answered (when probe)
    bool ecn{false};         //!< the triggering packet arrived ECN-CE
    uint32_t rcvdUnits{0};   //!< rcvd_bytes in 256 B units (24 bits, wrapping)
    uint16_t oooCount{0};    //!< PSNs held above the cumulative point
    uint8_t rcvCwndPend{0};  //!< receiver penalty (0 = none)
    bool restoreCwnd{false}; //!< receiver asks the sender to restore its window
    uint8_t ccType{0};       //!< SETH cc_type: 0 NSCC (ACK_CC), MRC_UEC_CC_TYPE_RCCC (a PULL)
};

/**
 * SETH cc_type of a PULL (receiver credit grant): an ACK_CC whose CC_STATE rcvd_bytes field
 * carries the cumulative credit instead (24 bits, 256 B units), the credit field of UET's
 * RCCC ACK_CC variant. The value 1 is our choice (MRC 1.0 defines only NSCC's 0).
 */
constexpr uint8_t MRC_UEC_CC_TYPE_RCCC = 1;

/**
 * Build an ACK_CC from its BTH (without IPv6, UDP and ICRC).
 * \param win the receive window (cack_psn, SACK block, ooo_count)
 * \param triggerPsn PSN of the packet the ACK answers
 * \param destQp the peer's QPN
 * \param ev the EV of the triggering packet (echoed)
 * \param ecn the triggering packet arrived CE
 * \param rcvdBytes bytes counted by the receiver so far (sent in 256 B units)
 * \param rcvCwndPend receiver penalty rcv_cwnd_pend (0-127)
 * \param restoreCwnd restore_cwnd
 * \param icrcRoom end the packet with four zero bytes of room for the ICRC (a packet for
 *        MrcQueuePair::AddFrameHeaders, as MrcQueuePair::NewPacket makes)
 * \return the packet: BTH (opcode MRC_SACK), SETH, CC_STATE (and the room, if asked)
 */
Ptr<Packet> MrcUecMakeAck(const MrcReceiveBitmap& win,
                          uint32_t triggerPsn,
                          uint32_t destQp,
                          uint16_t ev,
                          bool ecn,
                          uint64_t rcvdBytes,
                          uint8_t rcvCwndPend = 0,
                          bool restoreCwnd = false,
                          bool icrcRoom = false);

/**
 * Build a PULL (receiver credit grant) from its BTH: an ACK_CC of the receive window with
 * cc_type MRC_UEC_CC_TYPE_RCCC and the cumulative credit in the rcvd_bytes field.
 * \param win the receive window (cack_psn, SACK block, ooo_count)
 * \param destQp the peer's QPN
 * \param ev the EV it leaves on (echoed in SETH)
 * \param creditUnits cumulative credit granted, in 256 B units (kept to 24 bits)
 * \param icrcRoom end the packet with four zero bytes of room for the ICRC (as MrcUecMakeAck)
 * \return the packet: BTH (opcode MRC_SACK), SETH, CC_STATE (and the room, if asked)
 */
Ptr<Packet> MrcUecMakePull(const MrcReceiveBitmap& win,
                           uint32_t destQp,
                           uint16_t ev,
                           uint32_t creditUnits,
                           bool icrcRoom = false);

/**
 * Read the fields of an ACK_CC built by MrcUecMakeAck.
 * \param ext the bytes after its BTH (SETH, CC_STATE; at least 36)
 * \param out [out] the fields
 */
void MrcUecReadAck(const uint8_t* ext, MrcUecAckFields& out);

} // namespace ns3

#endif /* MRC_UEC_WIRE_H */
