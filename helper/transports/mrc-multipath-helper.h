/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_MULTIPATH_HELPER_H
#define MRC_MULTIPATH_HELPER_H

#include "mrc-rdma-helper.h"

#include "ns3/mrc-ev-profile.h"
#include "ns3/mrc-topology.h"
#include "ns3/object-factory.h"

#include <cstdint>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * Connects MRC queue pairs (MrcMultipathQueuePair) with their EV sets.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * Creates and connects pairs of MRC queue pairs and gives each its EV candidates:
 * structured (random 16-bit values per plane, any fabric) or SRv6 (one candidate per
 * topology path of each plane, MrcTopology::GetAllPaths, MrcEvCandidate::FromCarrier),
 * each direction with its own paths.
 *
 * \code
 *   MrcTopologyHelper th(cfg);
 *   Ptr<MrcTopology> topo = th.Build();
 *   MrcRdmaHelper rdma;
 *   MrcMultipathHelper::InstallNics(rdma, topo);
 *   MrcMultipathHelper mrc;
 *   auto c = mrc.Connect(topo, 0, 5, 1 << 20, MrcEvProfile::SRV6);
 * \endcode
 */
class MrcMultipathHelper
{
  public:
    MrcMultipathHelper();

    /**
     * Set an attribute of every queue pair created afterwards.
     * \param name attribute of ns3::MrcMultipathQueuePair
     * \param value its value
     */
    void SetQueuePairAttribute(const std::string& name, const AttributeValue& value);
    /**
     * Set an attribute of the EV profile every connection gets (a fresh one per QP).
     * \param name attribute of ns3::MrcEvProfile (EvCount, BackupCount, EvMinActive)
     * \param value its value
     */
    void SetEvProfileAttribute(const std::string& name, const AttributeValue& value);

    /**
     * First random stream of the next connection. Every Connect fixes the streams of the
     * two EV profiles (before the EV sets are drawn) and of the two EV tables (before their
     * first rotation order is drawn), four streams per connection in the order requester
     * profile, requester table, responder profile, responder table, and advances the next
     * stream by 4. So a run depends only on this number, the seed and the inputs, not on
     * how many random variables the process created before. Default 1000 (our choice);
     * give two helpers of one simulation disjoint ranges.
     * \param stream the first stream index (>= 0)
     */
    void SetFirstStream(int64_t stream);

    /// \return the stream the next connection starts with
    int64_t GetNextStream() const;

    /// Streams one Connect uses.
    static constexpr int64_t STREAMS_PER_CONNECTION = 4;

    /**
     * Install a NIC on every host of a fabric, one port per plane (port p = plane p).
     * \param rdma the RDMA helper (NIC attributes)
     * \param topo the fabric
     */
    static void InstallNics(MrcRdmaHelper& rdma, Ptr<MrcTopology> topo);

    /**
     * \param topo the fabric
     * \param src sending host
     * \param dst receiving host
     * \return one SRv6 candidate per path of every plane from src to dst
     */
    static std::vector<MrcEvCandidate> GetSrv6Candidates(Ptr<MrcTopology> topo,
                                                         uint32_t src,
                                                         uint32_t dst);

    /**
     * Create an MRC QP on each host (both must have a NIC), give each the EV candidates
     * of its direction, set BaseRtt to the fabric's GetBaseRtt(Mtu) unless the BaseRtt
     * attribute was set on this helper, connect them, and register a region at dst.
     * \param topo the fabric
     * \param src requester host
     * \param dst responder host
     * \param regionBytes region size at dst (0: none)
     * \param format SRV6 (paths from the topology) or STRUCTURED (random values)
     * \param regionBase the region's base address
     * \return both QPs and the region
     */
    MrcRdmaHelper::Connection Connect(Ptr<MrcTopology> topo,
                                      uint32_t src,
                                      uint32_t dst,
                                      uint64_t regionBytes,
                                      MrcEvProfile::Format format = MrcEvProfile::STRUCTURED,
                                      uint64_t regionBase = 0x100000000ULL);

    /**
     * Connect two hosts of any fabric with structured EVs (random 16-bit values per
     * plane). BaseRtt must be set on this helper for the default NSCC.
     * \param a requester host
     * \param b responder host
     * \param regionBytes region size at b (0: none)
     * \param regionBase its base address
     * \return both QPs and the region
     */
    MrcRdmaHelper::Connection Connect(Ptr<Node> a,
                                      Ptr<Node> b,
                                      uint64_t regionBytes,
                                      uint64_t regionBase = 0x100000000ULL);

  private:
    /// Create, configure and connect the pair.
    MrcRdmaHelper::Connection DoConnect(Ptr<MrcRdmaNic> na,
                                        Ptr<MrcRdmaNic> nb,
                                        const std::vector<MrcEvCandidate>& ab,
                                        const std::vector<MrcEvCandidate>& ba,
                                        MrcEvProfile::Format format,
                                        Time baseRtt,
                                        uint64_t regionBytes,
                                        uint64_t regionBase);

    ObjectFactory m_qp;      //!< makes queue pairs
    ObjectFactory m_profile; //!< makes EV profiles
    bool m_baseRttSet;       //!< BaseRtt was set with SetQueuePairAttribute
    int64_t m_nextStream;    //!< first stream of the next connection
};

} // namespace ns3

#endif /* MRC_MULTIPATH_HELPER_H */
