/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SCENARIO_CONNECTIONS_H
#define MRC_SCENARIO_CONNECTIONS_H

#include "ns3/callback.h"
#include "ns3/mrc-rdma-helper.h"
#include "ns3/mrc-workload.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

/**
 * \file
 * \ingroup mrc
 * MrcScenarioConnections: the connections of a scenario's workload, as RDMA applications
 * keep them: queue pairs opened once per (job, source, destination) and reused by every
 * message between them.
 */

namespace ns3
{

/**
 * \ingroup mrc
 * One queue-pair pair of a connection (a "lane"): its two queue pairs, the region at the
 * responder that its messages write into, and where the next message goes in it.
 *
 * Every message posted on a lane writes its own range of the region, right after the
 * previous message's: the region's written intervals merge as messages complete in order,
 * so its bookkeeping stays a handful of intervals however many messages the lane carries.
 */
struct MrcConnectionLane
{
    MrcRdmaHelper::Connection qps; //!< requester, responder and the responder's region
    uint32_t connection{0};        //!< index of the connection it belongs to
    uint64_t nextOffset{0};        //!< region offset of the next message posted on it
    uint64_t messages{0};          //!< messages posted on it
    std::vector<std::size_t> open; //!< messages posted on it and not ended, oldest first
};

/**
 * \ingroup mrc
 * The connections of a workload. A connection is keyed by (job, source host, destination
 * host, priority group): the job is the collective a message belongs to (plain messages
 * share job 0), the priority group a flow file's pg (its queue pairs send with that pg's
 * DSCP). A connection has up to QpsPerConnection lanes (queue-pair pairs); its messages
 * are striped over them round-robin, as NCCL stripes a channel's traffic over several
 * queue pairs. A lane is opened (by the caller's opener) when its first message comes.
 *
 * QpsPerConnection 0 keeps the older model: every message opens a lane of its own (a new
 * queue-pair pair per message, never reused).
 */
class MrcScenarioConnections
{
  public:
    /// Opens a lane for a message: connects a queue-pair pair from f.src to f.dst.
    using Opener = Callback<MrcRdmaHelper::Connection, const MrcFlowSpec&>;

    /// Key of a connection: (job, source, destination, priority group).
    using Key = std::tuple<uint32_t, uint32_t, uint32_t, int32_t>;

    /// Where a message goes.
    struct Placement
    {
        std::size_t lane{0}; //!< index into GetLanes()
        uint64_t offset{0};  //!< offset of the message in the lane's region
        bool opened{false};  //!< the lane was opened for this message
    };

    /// Region bytes registered per lane: room for every message a run may post on it.
    static constexpr uint64_t REGION_BYTES = uint64_t{1} << 50;

    /// \param qpsPerConnection lanes per connection (0: one new lane per message)
    void SetQpsPerConnection(uint32_t qpsPerConnection);
    /// \return lanes per connection (0: one new lane per message)
    uint32_t GetQpsPerConnection() const;

    /// \param open opens a lane (called when a message needs a lane not opened yet)
    void SetOpener(Opener open);

    /**
     * Place message \p id: choose its lane (round-robin over its connection's lanes,
     * opening the lane if needed), reserve its bytes in the lane's region and note it
     * open on the lane.
     * \param id the message id
     * \param f the message
     * \return its lane and region offset
     */
    Placement Place(std::size_t id, const MrcFlowSpec& f);

    /**
     * Message \p id ended (completed or failed): it is no longer open on its lane.
     * \param lane the lane it was placed on
     * \param id the message id
     */
    void Close(std::size_t lane, std::size_t id);

    /// \return the lanes, in opening order
    const std::vector<MrcConnectionLane>& GetLanes() const;
    /// \param lane the lane index \return the lane
    const MrcConnectionLane& GetLane(std::size_t lane) const;
    /// \return the number of connections opened
    std::size_t GetNConnections() const;

    /// \param f a message \return its connection key
    static Key KeyOf(const MrcFlowSpec& f);

  private:
    /// A connection: its lanes and the lane of its next message.
    struct Connection
    {
        std::vector<std::size_t> lanes; //!< lane indices, in opening order
        uint32_t next{0};               //!< the lane slot of its next message
    };

    /// \param conn the connection index (GetNConnections() for none) \param f the message
    /// \return a new lane, opened for f
    std::size_t OpenLane(uint32_t conn, const MrcFlowSpec& f);

    uint32_t m_qpsPerConnection{1};         //!< lanes per connection (0: one per message)
    Opener m_open;                          //!< opens a lane
    std::map<Key, uint32_t> m_index;        //!< connection index by key
    std::vector<Connection> m_conns;        //!< connections, in opening order
    std::vector<MrcConnectionLane> m_lanes; //!< lanes, in opening order
};

} // namespace ns3

#endif /* MRC_SCENARIO_CONNECTIONS_H */
