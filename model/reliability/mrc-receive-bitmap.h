/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RECEIVE_BITMAP_H
#define MRC_RECEIVE_BITMAP_H

#include <cstdint>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * Receiver-side PSN tracking shared by the UEC RUD and MRC transports: which PSNs of the
 * window [ePSN, ePSN + W) have arrived, the cumulative point, and the SACK block.
 */

namespace ns3
{

class MrcSethHeader;
class MrcCcStateHeader;

/**
 * \ingroup mrc
 * What an arriving data PSN was, as the receive window sees it.
 */
enum class MrcRxArrival : uint8_t
{
    NEW,           //!< first arrival of a PSN inside [ePSN, ePSN + W): placed and recorded
    DUPLICATE,     //!< the PSN arrived before (below ePSN, or its bit is already set)
    OUT_OF_WINDOW, //!< the PSN lies at or beyond ePSN + W: NACK it with PSN_OOR_WINDOW
};

/**
 * \ingroup mrc
 * Result of MrcReceiveBitmap::OnArrival.
 */
struct MrcRxResult
{
    MrcRxArrival kind{MrcRxArrival::NEW}; //!< what the PSN was
    bool outOfOrder{false};               //!< NEW and above ePSN (a hole lies below it)
    uint32_t advanced{0};                 //!< PSNs by which ePSN moved forward
    bool firstOutOfOrder{false};          //!< the out-of-order count went from 0 to 1
    bool oooDrained{false};               //!< the out-of-order count went from > 0 to 0
    uint32_t oooCount{0};                 //!< PSNs held above ePSN after this arrival
};

/**
 * \ingroup mrc
 * The responder's PSN window as a bitmap (one per QP / PDC).
 *
 * ePSN is the next PSN expected in order; every PSN before it has arrived. The window
 * [ePSN, ePSN + W) is tracked in a ring of W bits (W a multiple of 64; MRC's MPR x 128).
 * A PSN that arrives at ePSN moves ePSN forward over every contiguous PSN already held.
 * PSNs are 24 bits; all comparisons are serial-number arithmetic modulo 2^24, so a PSN
 * "before" ePSN is one up to 2^23 behind it.
 *
 * SACK content (SETH): cack_psn = ePSN - 1 (every PSN up to and including it arrived), and
 * one 64-PSN block: base = max(ePSN, trigger - 63), i.e. the 64 PSNs ending at the PSN
 * that triggers the SACK, but never starting below ePSN (UEC htsim's rule without its
 * ECN/AR special case; our choice). With at most 64 packets between two SACKs every
 * arrival is reported once. For a trigger below ePSN (duplicate) or beyond the window the
 * block starts at ePSN. ooo_count (CC_STATE) is the number of PSNs held above ePSN.
 */
class MrcReceiveBitmap
{
  public:
    static constexpr uint32_t PSN_MASK = 0xffffff;    //!< PSNs are 24 bits
    static constexpr uint32_t BLOCK_PSNS = 64;        //!< PSNs per SACK bitmap
    static constexpr uint32_t MPR_UNIT_PSNS = 128;    //!< PSNs per unit of SETH mpr
    static constexpr uint32_t MAX_WINDOW = 255 * 128; //!< largest window (mpr 255)
    static constexpr uint32_t DEFAULT_WINDOW = 1024;  //!< MPR 8 (mrc-protocol.md section 9)

    /**
     * \param windowPsns W, the number of PSNs tracked from ePSN: a multiple of 64 in
     *        [64, 32640] (aborts otherwise). Default 1024 = MPR 8, the OCP API example.
     * \param initialPsn the first PSN the sender will use (24 bits)
     */
    explicit MrcReceiveBitmap(uint32_t windowPsns = DEFAULT_WINDOW, uint32_t initialPsn = 0);

    /**
     * \param mpr the SETH mpr value, 1..255
     * \param initialPsn the first PSN
     * \return a bitmap whose window is mpr x 128 PSNs
     */
    static MrcReceiveBitmap FromMpr(uint8_t mpr, uint32_t initialPsn = 0);

    /**
     * Record the arrival of a data PSN (trimmed packets are not arrivals).
     * \param psn the BTH PSN (24 bits)
     * \return what it was and how the window moved
     */
    MrcRxResult OnArrival(uint32_t psn);

    /// \return ePSN, the next PSN expected in order
    uint32_t GetExpectedPsn() const;
    /// \return cack_psn = ePSN - 1 mod 2^24: the last PSN of the in-order prefix
    uint32_t GetCumulativePsn() const;
    /// \return W, the window in PSNs
    uint32_t GetWindowPsns() const;
    /// \return the SETH mpr value for the window: W / 128 (rounded down)
    uint8_t GetMprField() const;
    /// \return the number of PSNs received above ePSN (not yet in order)
    uint32_t GetOooCount() const;
    /// \return the CC_STATE ooo_count field: GetOooCount() capped at 0x7fff
    uint16_t GetOooCountField() const;
    /// \return true if psn has arrived (below ePSN, or its bit is set)
    bool HasArrived(uint32_t psn) const;

    /**
     * \param triggerPsn the PSN of the packet the SACK answers
     * \return the bitmap base chosen for it: max(ePSN, trigger - 63) when the trigger lies
     *         in [ePSN, ePSN + W), else ePSN
     */
    uint32_t GetSackBase(uint32_t triggerPsn) const;
    /**
     * \param basePsn the PSN of bit 0; must lie in [ePSN, ePSN + W - 64] (aborts)
     * \return the 64 arrival bits from basePsn, bit i (1 << i) = PSN base + i (the SETH
     *         order, MrcSethHeader::SACK_BITMAP_BASE_AT_LSB)
     */
    uint64_t GetBitmap(uint32_t basePsn) const;

    /**
     * Write the SACK fields into a SETH: cack_psn, ack_psn (the trigger, or cack_psn when
     * the trigger is more than 32768 PSNs away), sack_offset (GetSackBase) and
     * sack_bitmap, and mpr. Other fields are left as they are.
     * \param seth the header to fill
     * \param triggerPsn the PSN of the packet the SACK answers
     */
    void FillSeth(MrcSethHeader& seth, uint32_t triggerPsn) const;
    /**
     * Write ooo_count into a CC_STATE; other fields are left as they are.
     * \param cc the header to fill
     */
    void FillCcState(MrcCcStateHeader& cc) const;

  private:
    /// \param offset PSN offset from ePSN, < W \return true if its bit is set
    bool TestBit(uint32_t offset) const;
    /// \param offset PSN offset from ePSN, < W
    void SetBit(uint32_t offset);
    /// \param offset PSN offset from ePSN, < W
    void ClearBit(uint32_t offset);

    std::vector<uint64_t> m_words; //!< W bits; bit (m_head + k) mod W = PSN ePSN + k
    uint32_t m_window;             //!< W
    uint32_t m_head{0};            //!< ring position of ePSN
    uint32_t m_epsn;               //!< next expected PSN
    uint32_t m_ooo{0};             //!< bits set in the window (PSNs held above ePSN)
};

} // namespace ns3

#endif /* MRC_RECEIVE_BITMAP_H */
