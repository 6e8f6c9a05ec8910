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
 * Two kinds of routes. Prefix routes (AddRoute, ReplaceRoute) live in one hash table
 * per prefix length; a lookup probes the lengths in use from the longest down. Range
 * routes (SetRangeRoutes) map runs of consecutive host addresses to ECMP groups that
 * the runs share: a route controller that knows the address plan (MrcEcmpRouteManager)
 * gives a T0 one run per host and one run per block of other hosts, a T1 one run per
 * T0, so the table grows with the switch's ports and not with the fabric's hosts. A
 * range route is as specific as a /128 route and is looked up first; a destination no
 * run covers falls through to the prefix routes. The runs are kept as strides: a stride
 * is a sequence of runs of one size, each starting where the one before ends (a T1's one
 * run per T0, a T0's own hosts), so a lookup is a search over the strides (one or a few
 * a switch of a Clos or fat-tree, however many hosts the fabric has) and a division
 * inside the stride, and costs the same at any fabric size.
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

    /// \return the number of routes (prefix routes and range routes)
    uint32_t GetNRoutes() const;

    /// A run of consecutive destination addresses routed to one ECMP group.
    struct RangeRoute
    {
        Ipv6Address first; //!< first address of the run
        uint64_t count;    //!< addresses in the run, at least 1 (they differ in the low 64 bits)
        uint32_t group;    //!< index of its group in the groups given with the runs
    };

    /**
     * Replace all range routes. Runs must be in increasing address order and must not
     * overlap; a run may not cross a 64-bit boundary of the address. Aborts otherwise,
     * on an empty group or on a group index out of range. Runs that name the same
     * group share it (one copy of its ports).
     * \param groups the ECMP groups: ports in the order the hash indexes them
     * \param runs the runs
     * \return how many runs changed: added (no old run starts at its address),
     *         changed (the old run there had another end or other ports) or removed
     */
    uint32_t SetRangeRoutes(const std::vector<std::vector<uint32_t>>& groups,
                            const std::vector<RangeRoute>& runs);

    /// \return the number of range routes
    uint32_t GetNRangeRoutes() const;

    /// \return the number of distinct ECMP groups the range routes use
    uint32_t GetNRangeGroups() const;

    /**
     * \param i a range route, 0 .. GetNRangeRoutes() - 1, in address order
     * \return the run: its first address, its count and its group (an index in the
     *         groups as stored: each group once, in the order of first use)
     */
    RangeRoute GetRangeRoute(uint32_t i) const;

    /**
     * \param dst a destination address
     * \return the index of the range route covering dst (as GetRangeRoute numbers
     *         them), or -1 if no run covers it
     */
    int64_t FindRangeRoute(Ipv6Address dst) const;

    /// \return the number of strides the range routes form (see the class text)
    uint32_t GetNRangeStrides() const;

    /**
     * \param dst a destination address
     * \return the configured ports of the route a lookup of dst takes (range routes
     *         first, then the longest prefix), empty if none
     */
    std::vector<uint32_t> GetNextHops(Ipv6Address dst) const;

    /// \return heap bytes held by the route tables (capacity of their vectors and nodes)
    std::size_t GetRouteBytes() const;

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

    /**
     * The port of a packet whose route has several live ports. ECMP (this class) keeps
     * the hashed port; load-aware subclasses choose another one of the live ports.
     * \param info the parsed packet
     * \param hash its flow hash
     * \param ecmpPort the port ECMP chose (live)
     * \param live the group's live ports
     * \param nLive their number (at least 2)
     * \return the egress port
     */
    virtual uint32_t ChoosePort(const MrcPacketInfo& info,
                                uint64_t hash,
                                uint32_t ecmpPort,
                                const uint32_t* live,
                                uint32_t nLive);

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

    /// An ECMP group of the range routes: ports and live ports in m_rangePorts.
    struct RangeGroup
    {
        uint32_t first; //!< its first port in m_rangePorts and live port in m_rangeLive
        uint32_t n;     //!< configured ports
        uint32_t nLive; //!< live ports
    };

    /// \return true if a is before b (address order)
    static bool Less(const Key& a, const Key& b)
    {
        return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
    }

    /// Runs of one size, each starting where the one before ends (same high 64 bits).
    /// The first address is kept with the rest, so a lookup's search and division read
    /// the same cache lines.
    struct Stride
    {
        Key first;      //!< first address of its first run
        uint64_t count; //!< addresses in each run
        uint32_t run0;  //!< index of its first run
        uint32_t n;     //!< its runs, at least 1
        uint8_t shift;  //!< log2(count) if count is a power of two, else NO_SHIFT
    };

    /// What a lookup reads of a run: a copy of its group's entry and the group's first
    /// port (a one-port group, every downlink run, needs nothing else).
    struct RunGroup
    {
        uint32_t first; //!< the group's RangeGroup::first
        uint32_t n;     //!< configured ports
        uint32_t nLive; //!< live ports
        uint32_t port0; //!< its first configured port
    };

    static constexpr uint8_t NO_SHIFT = 0xFF; //!< Stride::shift of a count not a power of two

    /// \param d a destination \return index of the range route covering d, or -1
    int64_t FindRange(const Key& d) const;
    /// Rebuild the strides from m_rangeFirst and m_rangeLast.
    void BuildStrides();
    /// Recompute the live ports of range group g.
    void UpdateRangeLive(RangeGroup& g);
    /// Copy every run's group entry into m_runGroups (after any change of a group).
    void CopyRunGroups();
    /// \param i a range route \return its group's configured ports
    std::vector<uint32_t> RangePorts(std::size_t i) const;

    /// \param a an address \return it as a key (its 16 bytes as two big-endian words)
    static Key ToKey(const Ipv6Address& a);
    /// \param a an address as bytes (a parse result's) \return it as a key
    static Key ToKey(const MrcIpv6Bytes& a);
    static Key MaskOf(uint8_t length);
    /// Hash() with the destination key already computed.
    uint64_t HashWithDst(const MrcPacketInfo& info, const Key& d) const;
    LengthTable& TableFor(uint8_t length);
    Group* Find(Ipv6Address prefix, uint8_t prefixLength);
    void UpdateLive(Group& g) const;

    // What a range lookup reads first, together: the hash settings, the strides, the
    // runs' group entries and the ports (a switch's lookup touches a few cache lines
    // however many hosts the fabric has).
    uint64_t m_seed;                    //!< Seed attribute
    HashFunction m_hashFunction;        //!< HashFunction attribute
    std::vector<Stride> m_strides;      //!< the strides, by increasing first address
    std::vector<RunGroup> m_runGroups;  //!< each run's group entry (copies, for the lookup)
    std::vector<uint32_t> m_rangePorts; //!< configured ports of all groups

    std::vector<uint32_t> m_rangeLive;     //!< live ports of all groups (same layout)
    std::vector<LengthTable> m_tables;     //!< by decreasing prefix length
    std::vector<bool> m_portDown;          //!< ports set down
    std::vector<Key> m_rangeFirst;         //!< first address of each run, increasing
    std::vector<uint64_t> m_rangeLast;     //!< low 64 bits of each run's last address
    std::vector<uint32_t> m_rangeGroup;    //!< group of each run
    std::vector<RangeGroup> m_rangeGroups; //!< the shared groups
};

} // namespace ns3

#endif /* MRC_ECMP_FORWARDING_H */
