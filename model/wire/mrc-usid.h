/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_USID_H
#define MRC_USID_H

#include "ns3/ipv6-address.h"

#include <array>
#include <cstdint>
#include <initializer_list>
#include <ostream>

/**
 * \file
 * \ingroup mrc
 * SRv6 micro-SID (uSID) carriers and the model's uSID bit layout.
 *
 * A uSID carrier is an IPv6 destination address made of a 32-bit locator block
 * followed by up to six 16-bit uSIDs, in the style of RFC 9800's NEXT-C-SID
 * flavour as MRC uses it [Araujo et al., arXiv:2605.04333, sec. 2.2]. The first
 * uSID after the block is the active one. A switch whose uSID is active
 * matches the first 48 bits, shifts the uSID part left by 16 bits (a zero uSID
 * enters at the end) and forwards on the result. A zero active uSID is the end
 * of the carrier.
 *
 * The bit layout inside a uSID is not published; the model's layout is our
 * choice, described at MrcMakeUsid().
 */

namespace ns3
{

/**
 * \ingroup mrc
 * An IPv6 address used as an SRv6 uSID carrier: 32-bit locator block, then six
 * 16-bit uSID slots. A small value type (two 64-bit words, no allocation).
 *
 * Slot 0 (address bits 32..47) holds the active uSID. The uSIDs still to be
 * visited are the non-zero slots from slot 0 up to the first zero slot.
 */
class MrcUsidCarrier
{
  public:
    /// Number of 16-bit uSID slots after a 32-bit locator block: (128 - 32) / 16.
    static constexpr uint32_t MAX_USIDS = 6;

    /**
     * The model's default locator block, fcbb:bb00::/32 (our choice).
     *
     * It lies in the unique-local range fc00::/7 (RFC 4193), so it cannot clash
     * with global addresses, and in the fcbb:: range of vendors' SRv6 uSID
     * configuration examples. Users of carriers take the block from an attribute.
     */
    static constexpr uint32_t DEFAULT_LOCATOR_BLOCK = 0xfcbbbb00;

    /// An all-zero carrier: locator block 0, no uSIDs (end of carrier).
    MrcUsidCarrier();

    /**
     * Build a carrier from a locator block and the uSIDs in path order.
     * Aborts if there are more than MAX_USIDS uSIDs or if one of them is 0
     * (0 is the end-of-carrier marker). Unused slots are zero.
     * \param locatorBlock the 32-bit locator block (e.g. DEFAULT_LOCATOR_BLOCK)
     * \param usids the uSIDs, first one active
     */
    MrcUsidCarrier(uint32_t locatorBlock, std::initializer_list<uint16_t> usids);

    /**
     * Build a carrier from a locator block and an array of uSIDs in path order.
     * Same checks as the initializer-list form.
     * \param locatorBlock the 32-bit locator block
     * \param usids pointer to count uSIDs, first one active
     * \param count number of uSIDs (0..MAX_USIDS)
     */
    MrcUsidCarrier(uint32_t locatorBlock, const uint16_t* usids, uint32_t count);

    /**
     * Read a carrier from an IPv6 address (any 128-bit value is accepted).
     * \param address the address
     */
    explicit MrcUsidCarrier(const Ipv6Address& address);

    /**
     * Read a carrier from 16 bytes in network order.
     * \param buf 16 bytes
     * \return the carrier
     */
    static MrcUsidCarrier FromBytes(const uint8_t buf[16]);

    /// \return the carrier as an IPv6 address
    Ipv6Address ToAddress() const;

    /**
     * Write the carrier's 16 bytes in network order.
     * \param buf destination of 16 bytes
     */
    void GetBytes(uint8_t buf[16]) const;

    /// \return the 32-bit locator block (address bits 0..31)
    uint32_t GetLocatorBlock() const;

    /// \return the active uSID (address bits 32..47); 0 means end of carrier
    uint16_t GetActiveUsid() const;

    /**
     * \param slot slot number, 0 (active) .. MAX_USIDS - 1; aborts otherwise
     * \return the uSID in that slot (0 if empty)
     */
    uint16_t GetUsid(uint32_t slot) const;

    /// \return the first 48 bits (locator block and active uSID) as an integer, a /48 table key
    uint64_t GetKey48() const;

    /**
     * \param locatorBlock a 32-bit locator block
     * \param usid a uSID
     * \return the /48 key that GetKey48() returns for a carrier with that block and active uSID
     */
    static constexpr uint64_t MakeKey48(uint32_t locatorBlock, uint16_t usid)
    {
        return (static_cast<uint64_t>(locatorBlock) << 16) | usid;
    }

    /**
     * \param locatorBlock the switch's locator block
     * \param usid the switch's own uSID
     * \return true if the first 48 bits are this block followed by this uSID
     */
    bool Matches(uint32_t locatorBlock, uint16_t usid) const;

    /// Shift the uSID part left by 16 bits (the SRv6 uN shift); a zero uSID enters slot 5.
    void Shift();

    /**
     * Apply `count` uN shifts (Shift) to an IPv6 address in place, for a destination whose
     * shifts were carried beside its packet instead of written (MrcNetDevice::SendToClass).
     * \param address the 16 address bytes
     * \param count shifts (0: nothing; 6 or more leave the block and no uSID)
     */
    static void ShiftAddress(uint8_t* address, uint32_t count);

    /// \return true when the active uSID is 0 (no uSID left in this carrier)
    bool IsEnd() const;

    /// \return the number of uSIDs left: non-zero slots from slot 0 up to the first zero slot
    uint32_t GetRemainingCount() const;

    /**
     * List the uSIDs left, active first.
     * \param out receives GetRemainingCount() uSIDs; the other entries are set to 0
     * \return the number of uSIDs written
     */
    uint32_t GetRemaining(std::array<uint16_t, MAX_USIDS>& out) const;

    /**
     * Print as an IPv6 address, e.g. fcbb:bb00:1001:2002::.
     * \param os output stream
     */
    void Print(std::ostream& os) const;

    /// \return true if both carriers hold the same 128 bits
    bool operator==(const MrcUsidCarrier& other) const
    {
        return m_high == other.m_high && m_low == other.m_low;
    }

    /// \return true if the carriers differ
    bool operator!=(const MrcUsidCarrier& other) const
    {
        return !(*this == other);
    }

  private:
    uint64_t m_high; //!< address bits 0..63: locator block, slots 0 and 1
    uint64_t m_low;  //!< address bits 64..127: slots 2..5
};

/**
 * Stream a carrier (see MrcUsidCarrier::Print).
 * \param os output stream
 * \param carrier the carrier
 * \return os
 */
std::ostream& operator<<(std::ostream& os, const MrcUsidCarrier& carrier);

/**
 * \ingroup mrc
 * The role field of a uSID in the model's layout.
 */
enum class MrcUsidType : uint8_t
{
    T0 = 0,            ///< a tier-0 (leaf) switch
    T1 = 1,            ///< a tier-1 (spine) switch
    HOST_DOWNLINK = 2, ///< a last-hop T0 downlink port toward a host NIC
    T2 = 3,            ///< a tier-2 switch of a 3-tier fat-tree (reserved in 2-tier fabrics)
};

/// Number of planes the layout can name (plane field values 1..15 carry planes 0..14).
constexpr uint32_t MRC_USID_MAX_PLANES = 15;

/// Number of indices per plane and type (10-bit index field).
constexpr uint32_t MRC_USID_MAX_INDEX = 1024;

/// Mask of the plane field in a uSID (bits 15..12); the same bits carry the plane in an EV.
constexpr uint16_t MRC_USID_PLANE_MASK = 0xf000;

/**
 * Make a uSID in the model's layout (not published: our choice, after the
 * model default of the protocol reference, Q7):
 *
 *     bit 15 .. 12 | 11 .. 10 | 9 .. 0
 *     plane + 1    | type     | index
 *
 * The plane field holds the 0-based plane number plus one, that is, the
 * 1-based NIC port number of the MRC API. This keeps every uSID non-zero: with
 * a plain 0-based plane field, T0 number 0 of plane 0 would be uSID 0, the
 * end-of-carrier marker. An EV that carries the plane in bits 15..12 must use
 * the same plane + 1 value so that copying the plane into a uSID stays a
 * mask-and-OR (MrcUsidWithPlane).
 *
 * Aborts if plane >= MRC_USID_MAX_PLANES or index >= MRC_USID_MAX_INDEX.
 * \param plane 0-based plane number (0..14)
 * \param type the role
 * \param index 0-based switch or downlink number within the plane and role (0..1023)
 * \return the uSID
 */
uint16_t MrcMakeUsid(uint32_t plane, MrcUsidType type, uint32_t index);

/// \return the 0-based plane of a uSID in the model's layout (aborts if its plane field is 0)
uint32_t MrcUsidPlane(uint16_t usid);

/// \return the role of a uSID in the model's layout
constexpr MrcUsidType
MrcUsidTypeOf(uint16_t usid)
{
    return static_cast<MrcUsidType>((usid >> 10) & 0x3);
}

/// \return the 10-bit index of a uSID in the model's layout
constexpr uint16_t
MrcUsidIndex(uint16_t usid)
{
    return usid & 0x3ff;
}

/**
 * Replace the plane of a uSID (mask and OR). Aborts if plane >= MRC_USID_MAX_PLANES.
 * \param usid a uSID in the model's layout
 * \param plane the new 0-based plane
 * \return the uSID with the new plane field
 */
uint16_t MrcUsidWithPlane(uint16_t usid, uint32_t plane);

/**
 * \param type a role
 * \return its name: "T0", "T1", "DOWNLINK" or "T2"
 */
const char* MrcUsidTypeName(MrcUsidType type);

} // namespace ns3

#endif /* MRC_USID_H */
