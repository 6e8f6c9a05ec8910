/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_ECMP_FORWARDING_H
#define MRC_ECMP_FORWARDING_H

#include "mrc-forwarding.h"

#include "ns3/ipv6-address.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * Longest-prefix-match ECMP forwarding with a per-switch hash seed.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * ECMP forwarding: IPv6 prefix -> group of egress ports, longest prefix first, next hop
 * by a seeded hash of (outer source, outer destination, outer flow label, UDP
 * source port, UDP destination port).
 *
 * Two hash functions (attribute HashFunction): Mix (default), a seeded 64-bit mix with
 * full avalanche, so every distinct 5-tuple lands on a port as if at random; and Crc32,
 * the CRC-32 of the 5-tuple's bytes as switch ASICs compute it, linear over GF(2), with
 * the per-switch seed choosing which 32 bits of the rotated CRC pick the port (so the
 * tiers of a fabric use different bit slices and do not polarize). With Crc32, a set of
 * entropy values that differ in their low k bits only (UEC's XOR-spread path set) is
 * spread exactly evenly over 2^j ports for j <= k.
 *
 * Routes live in one hash table per prefix length; a lookup probes the lengths in use
 * from the longest down (a Clos switch uses two or three lengths).
 *
 * Failures: SetPortState(port, false) takes the port out of every group at once. A
 * flow whose hash picks a live port keeps it; only flows of the failed port move (they
 * are rehashed over the group's live ports). A group with no live port means no
 * route. RemoveRoute/ReplaceRoute let a route controller model control-plane
 * convergence later.
 */
class MrcEcmpForwarding : public MrcForwarding
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcEcmpForwarding();
    ~MrcEcmpForwarding() override;

    /**
     * Add one egress port to the group of a prefix (creating the route if needed). A
     * port already in the group is not added twice.
     * \param prefix IPv6 prefix (bits past prefixLength are ignored)
     * \param prefixLength 0..128
     * \param port egress port
     */
    void AddRoute(Ipv6Address prefix, uint8_t prefixLength, uint32_t port);

    /**
     * Set the whole group of a prefix (creating the route if needed).
     * \param prefix IPv6 prefix
     * \param prefixLength 0..128
     * \param ports egress ports, at least one
     */
    void ReplaceRoute(Ipv6Address prefix, uint8_t prefixLength, const std::vector<uint32_t>& ports);

    /**
     * Remove the route of a prefix.
     * \param prefix IPv6 prefix
     * \param prefixLength 0..128
     * \return true if the route existed
     */
    bool RemoveRoute(Ipv6Address prefix, uint8_t prefixLength);

    /**
     * \param prefix IPv6 prefix
     * \param prefixLength 0..128
     * \return the configured ports of the prefix's group (empty if no such route)
     */
    std::vector<uint32_t> GetRoute(Ipv6Address prefix, uint8_t prefixLength) const;

    /// \return the number of routes
    uint32_t GetNRoutes() const;

    void SetPortState(uint32_t port, bool up) override;

    /// \return false if the port was set down
    bool IsPortUp(uint32_t port) const;

    /// ECMP hash functions (attribute HashFunction).
    enum HashFunction : uint8_t
    {
        HASH_MIX,  //!< seeded 64-bit mix (random-like)
        HASH_CRC32 //!< CRC-32 (IEEE 802.3) of the 5-tuple, rotated by the seed
    };

    /**
     * The flow hash (with this switch's Seed).
     * \param info the parsed packet
     * \return 64-bit hash of the 5 fields
     */
    uint64_t Hash(const MrcPacketInfo& info) const;

  protected:
    int32_t DoRoute(MrcPacketInfo& info, uint32_t inPort) override;

  private:
    /// An IPv6 address or prefix as two 64-bit words.
    struct Key
    {
        uint64_t hi; //!< bytes 0..7
        uint64_t lo; //!< bytes 8..15

        /// \return true if equal
        bool operator==(const Key& o) const
        {
            return hi == o.hi && lo == o.lo;
        }
    };

    /// Hash of a Key for the route tables.
    struct KeyHash
    {
        /// \return hash of k
        std::size_t operator()(const Key& k) const;
    };

    /// An ECMP group.
    struct Group
    {
        std::vector<uint32_t> ports; //!< configured ports
        std::vector<uint32_t> live;  //!< ports that are up
    };

    /// Routes of one prefix length.
    struct LengthTable
    {
        uint8_t length;                                 //!< prefix length
        Key mask;                                       //!< its mask
        std::unordered_map<Key, Group, KeyHash> routes; //!< prefix -> group
    };

    static Key ToKey(const Ipv6Address& a);
    static Key MaskOf(uint8_t length);
    /// Hash() with the destination key already computed.
    uint64_t HashWithDst(const MrcPacketInfo& info, const Key& d) const;
    LengthTable& TableFor(uint8_t length);
    Group* Find(Ipv6Address prefix, uint8_t prefixLength);
    void UpdateLive(Group& g) const;

    uint64_t m_seed;                   //!< Seed attribute
    HashFunction m_hashFunction;       //!< HashFunction attribute
    std::vector<LengthTable> m_tables; //!< by decreasing prefix length
    std::vector<bool> m_portDown;      //!< ports set down
};

} // namespace ns3

#endif /* MRC_ECMP_FORWARDING_H */
