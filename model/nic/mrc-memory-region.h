/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_MEMORY_REGION_H
#define MRC_MEMORY_REGION_H

#include "ns3/object.h"

#include <cstdint>
#include <utility>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * A registered memory region that records where arriving payload lands.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * A memory region registered at an RDMA NIC: a remote key, a base virtual address and a
 * length. Payload is virtual, so the region records *placements* instead of bytes: every
 * Place() adds an address interval. Overlapping placements are counted as duplicate
 * bytes, so a test can check that every byte of a message was written exactly once and
 * at the right address (the placed set equals the message's range, with no duplicates).
 *
 * The record is an interval set (merged ranges), so it stays small however many packets
 * arrive: a message placed in order is one interval.
 */
class MrcMemoryRegion : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MrcMemoryRegion();

    /**
     * Set the region's key and range (done by MrcRdmaNic::RegisterMemoryRegion).
     * \param rkey remote key
     * \param base first virtual address
     * \param length bytes
     */
    void Configure(uint32_t rkey, uint64_t base, uint64_t length);

    /// \return the remote key
    uint32_t GetRkey() const;
    /// \return the first virtual address
    uint64_t GetBase() const;
    /// \return the length in bytes
    uint64_t GetLength() const;

    /**
     * \param address first byte
     * \param length bytes
     * \return true if [address, address + length) lies inside the region
     */
    bool Contains(uint64_t address, uint64_t length) const;

    /**
     * Record that payload was written to [address, address + length). Bytes already
     * written before count as duplicates (and stay recorded once).
     * \param address first byte
     * \param length bytes (0: nothing recorded)
     * \return false (and nothing recorded) if the range is not inside the region
     */
    bool Place(uint64_t address, uint64_t length);

    /// \return distinct bytes written so far
    uint64_t GetBytesPlaced() const;
    /// \return bytes written more than once (a byte written three times counts twice)
    uint64_t GetDuplicateBytes() const;
    /// \return number of Place() calls that recorded bytes
    uint64_t GetPlacements() const;
    /// \return number of disjoint written intervals
    std::size_t GetIntervalCount() const;

    /**
     * \param address first byte
     * \param length bytes
     * \return true if every byte of [address, address + length) has been written
     */
    bool IsCovered(uint64_t address, uint64_t length) const;

    /**
     * The exactly-once check: the written set is exactly [address, address + length)
     * and no byte was written twice.
     * \param address first byte
     * \param length bytes
     * \return true if so
     */
    bool IsExactlyOnce(uint64_t address, uint64_t length) const;

    /// Forget every placement (the range is kept).
    void Clear();

  private:
    uint32_t m_rkey;   //!< remote key
    uint64_t m_base;   //!< first address
    uint64_t m_length; //!< bytes
    /// A written interval: start, end (exclusive).
    using Span = std::pair<uint64_t, uint64_t>;
    std::vector<Span> m_spans; //!< written intervals, disjoint and ascending
    uint64_t m_placed;         //!< distinct bytes written
    uint64_t m_duplicate;      //!< bytes written again
    uint64_t m_placements;     //!< Place() calls that recorded bytes
};

} // namespace ns3

#endif /* MRC_MEMORY_REGION_H */
