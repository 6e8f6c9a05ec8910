/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-mpi.h"

#include "ns3/abort.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/string.h"
#include "ns3/tag.h"

#include <algorithm>
#include <cstdlib>
#include <map>

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"

#include <mpi.h>
#endif

#ifdef NS3_MPI
namespace
{
uint64_t g_rounds = 0;         //!< synchronization rounds (granted time windows) taken part in
uint64_t g_roundsInFlight = 0; //!< of them, rounds that found frames in flight (no new window)
uint64_t g_nullMessages = 0;   //!< null messages sent (null-message synchronization)
bool g_counting = false;       //!< a split run is on (between BeginRun and EndRun)

/**
 * The message every rank contributes to a round of ns-3's granted-time-window engine
 * (DistributedSimulatorImpl's LbtsMessage, whose header ns-3 does not install): its
 * layout, read only to tell a round that granted a new window from one that found
 * frames in flight (sent but not yet received: the engine repeats the round).
 */
struct RoundMessage
{
    uint32_t txCount; //!< frames the rank has sent
    uint32_t rxCount; //!< frames the rank has received
    uint32_t rank;    //!< the rank
    int64_t nextTime; //!< its next event's time (ns3::Time's integer)
    bool finished;    //!< no event left on the rank
};

/// Bytes of a null message of ns-3's NullMessageMpiInterface (two 64-bit and two 32-bit
/// numbers, no packet): a frame is always longer (its packet's serialization follows).
constexpr int NULL_MESSAGE_BYTES = 2 * 8 + 2 * 4;
} // namespace

// MPI's profiling interface (PMPI, MPI standard section 15.2): these definitions take the
// place of the MPI library's for every caller in the process (ns-3's libns3-mpi included,
// as libns3-mrc comes before libmpi in the programs' library order), count, and call the
// library's PMPI_ entry. ns-3's engines keep no such counter. Only the two calls the
// engines make once per round and per null message are wrapped; the module's own
// collectives (MrcMpi::GatherToRoot, MinOverRanks, SumOverRanks) use other calls.

/// ns-3's DistributedSimulatorImpl calls it once per synchronization round.
extern "C" int
MPI_Allgather(const void* sendbuf,
              int sendcount,
              MPI_Datatype sendtype,
              void* recvbuf,
              int recvcount,
              MPI_Datatype recvtype,
              MPI_Comm comm)
{
    const int rc = PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    if (g_counting && rc == MPI_SUCCESS && sendtype == MPI_BYTE &&
        sendcount == static_cast<int>(sizeof(RoundMessage)))
    {
        ++g_rounds;
        int size = 0;
        PMPI_Comm_size(comm, &size);
        const auto* m = static_cast<const RoundMessage*>(recvbuf);
        uint64_t tx = 0;
        uint64_t rx = 0;
        for (int i = 0; i < size; ++i)
        {
            tx += m[i].txCount;
            rx += m[i].rxCount;
        }
        if (tx != rx)
        {
            ++g_roundsInFlight;
        }
    }
    return rc;
}

/// ns-3's MPI interfaces send frames and (NullMessageMpiInterface) null messages with it.
extern "C" int
MPI_Isend(const void* buf,
          int count,
          MPI_Datatype datatype,
          int dest,
          int tag,
          MPI_Comm comm,
          MPI_Request* request)
{
    if (g_counting && datatype == MPI_CHAR && count == NULL_MESSAGE_BYTES)
    {
        ++g_nullMessages;
    }
    return PMPI_Isend(buf, count, datatype, dest, tag, comm, request);
}
#endif

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcMpi");

namespace
{
bool g_started = false;     //!< Initialize called MPI_Init
bool g_distributed = false; //!< more than one rank
bool g_active = false;      //!< between BeginRun and EndRun
uint32_t g_rank = 0;
uint32_t g_size = 1;
uint64_t g_sent = 0;
uint64_t g_received = 0;
uint64_t g_noticesSent = 0;
std::map<uint32_t, std::pair<uint32_t, uint32_t>> g_routes; //!< rank -> (node, ifIndex)
Callback<void, MrcRankNotice> g_notice;                     //!< notices go here

/// A notice between ranks (MrcMpi::SendNotice): a frame-less packet with this tag.
class MrcRankNoticeTag : public Tag
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::MrcRankNoticeTag")
                                .SetParent<Tag>()
                                .SetGroupName("Mrc")
                                .AddConstructor<MrcRankNoticeTag>();
        return tid;
    }

    TypeId GetInstanceTypeId() const override
    {
        return GetTypeId();
    }

    uint32_t GetSerializedSize() const override
    {
        return 4 + 4 * 8;
    }

    void Serialize(TagBuffer i) const override
    {
        i.WriteU32(notice.kind);
        for (int64_t v : notice.values)
        {
            i.WriteU64(static_cast<uint64_t>(v));
        }
    }

    void Deserialize(TagBuffer i) override
    {
        notice.kind = i.ReadU32();
        for (int64_t& v : notice.values)
        {
            v = static_cast<int64_t>(i.ReadU64());
        }
    }

    void Print(std::ostream& os) const override
    {
        os << "notice kind=" << notice.kind << " values=" << notice.values[0] << ','
           << notice.values[1] << ',' << notice.values[2] << ',' << notice.values[3];
    }

    MrcRankNotice notice; //!< the notice
};

/// \return the number of ranks mpirun/mpiexec announced in the environment (0: none)
uint32_t
LauncherSize()
{
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS"})
    {
        const char* v = std::getenv(name);
        if (v && *v)
        {
            return static_cast<uint32_t>(std::strtoul(v, nullptr, 10));
        }
    }
    return 0;
}
} // namespace

NS_OBJECT_ENSURE_REGISTERED(MrcRankNoticeTag);

bool
MrcMpi::IsCompiled()
{
#ifdef NS3_MPI
    return true;
#else
    return false;
#endif
}

std::string
MrcMpi::Initialize(int* argc, char*** argv)
{
    if (g_started)
    {
        return "";
    }
    const uint32_t announced = LauncherSize();
#ifdef NS3_MPI
    if (announced > 1)
    {
        MPI_Init(argc, argv);
        g_started = true;
        int rank = 0;
        int size = 1;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        g_rank = static_cast<uint32_t>(rank);
        g_size = static_cast<uint32_t>(size);
        g_distributed = g_size > 1;
    }
    return "";
#else
    (void)argc;
    (void)argv;
    if (announced > 1)
    {
        return "started by mpirun with " + std::to_string(announced) +
               " ranks, but this build of the module has no MPI (ns-3 was built without its "
               "mpi module; build the MPI variant: ./ns3-mrc run --ranks=N ...)";
    }
    return "";
#endif
}

void
MrcMpi::BeginRun(bool nullMessages)
{
    if (!g_distributed)
    {
        return;
    }
#ifdef NS3_MPI
    NS_ABORT_MSG_IF(g_active, "MrcMpi::BeginRun called twice without EndRun");
    GlobalValue::Bind("SimulatorImplementationType",
                      StringValue(nullMessages ? "ns3::NullMessageSimulatorImpl"
                                               : "ns3::DistributedSimulatorImpl"));
    MpiInterface::Enable(MPI_COMM_WORLD);
    g_active = true;
    g_counting = true;
#else
    (void)nullMessages;
#endif
}

void
MrcMpi::EndRun()
{
#ifdef NS3_MPI
    if (g_active)
    {
        MpiInterface::Disable(); // frees ns-3's communicator; MPI stays up (we started it)
        g_active = false;
        g_counting = false;
    }
#endif
    g_routes.clear();
    g_notice = Callback<void, MrcRankNotice>();
}

void
MrcMpi::Finalize()
{
#ifdef NS3_MPI
    EndRun();
    if (g_started)
    {
        MPI_Finalize();
        g_started = false;
    }
#endif
}

bool
MrcMpi::IsActive()
{
    return g_active;
}

bool
MrcMpi::IsDistributed()
{
    return g_distributed;
}

uint32_t
MrcMpi::GetRank()
{
    return g_rank;
}

uint32_t
MrcMpi::GetSize()
{
    return g_size;
}

bool
MrcMpi::IsLocal(const Node* node)
{
    return !g_active || node == nullptr || node->GetSystemId() == g_rank;
}

void
MrcMpi::Send(Ptr<Packet> frame, Time rxTime, uint32_t node, uint32_t ifIndex)
{
#ifdef NS3_MPI
    ++g_sent;
    MpiInterface::SendPacket(frame, rxTime, node, ifIndex);
#else
    (void)frame;
    (void)rxTime;
    (void)node;
    (void)ifIndex;
    NS_FATAL_ERROR("MrcMpi::Send: this build has no MPI");
#endif
}

void
MrcMpi::InstallReceiver(Ptr<NetDevice> device, Callback<void, Ptr<Packet>> receive)
{
#ifdef NS3_MPI
    Ptr<MpiReceiver> r = device->GetObject<MpiReceiver>();
    if (!r)
    {
        r = CreateObject<MpiReceiver>();
        device->AggregateObject(r);
    }
    r->SetReceiveCallback(Callback<void, Ptr<Packet>>([receive](Ptr<Packet> p) {
        MrcRankNoticeTag notice;
        if (p->GetSize() == 0 && p->PeekPacketTag(notice))
        {
            NS_ABORT_MSG_IF(g_notice.IsNull(), "MrcMpi: a notice from another rank, no receiver");
            g_notice(notice.notice);
            return;
        }
        ++g_received;
        receive(p);
    }));
#else
    (void)device;
    (void)receive;
    NS_FATAL_ERROR("MrcMpi::InstallReceiver: this build has no MPI");
#endif
}

void
MrcMpi::AddRankRoute(uint32_t rank, uint32_t node, uint32_t ifIndex)
{
    g_routes.emplace(rank, std::make_pair(node, ifIndex));
}

void
MrcMpi::SendNotice(const MrcRankNotice& notice, Time rxTime)
{
    for (uint32_t r = 0; r < g_size; ++r)
    {
        if (r == g_rank)
        {
            continue;
        }
        auto it = g_routes.find(r);
        NS_ABORT_MSG_IF(it == g_routes.end(),
                        "MrcMpi: rank " << g_rank << " has no link to rank " << r
                                        << " (a notice cannot reach it)");
        Ptr<Packet> p = Create<Packet>();
        MrcRankNoticeTag tag;
        tag.notice = notice;
        p->AddPacketTag(tag);
#ifdef NS3_MPI
        MpiInterface::SendPacket(p, rxTime, it->second.first, it->second.second);
#else
        (void)rxTime;
#endif
        ++g_noticesSent;
    }
}

void
MrcMpi::SetNoticeCallback(Callback<void, MrcRankNotice> cb)
{
    g_notice = cb;
}

std::vector<std::string>
MrcMpi::GatherToRoot(const std::string& mine)
{
    std::vector<std::string> all;
#ifdef NS3_MPI
    if (g_distributed)
    {
        // Sizes first, then the texts (in pieces of at most 1 GiB: MPI counts are ints).
        const uint64_t n = mine.size();
        std::vector<uint64_t> sizes(g_size, 0);
        MPI_Gather(&n, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
        const uint64_t piece = uint64_t{1} << 30;
        if (g_rank == 0)
        {
            all.resize(g_size);
            all[0] = mine;
            for (uint32_t r = 1; r < g_size; ++r)
            {
                all[r].resize(sizes[r]);
                for (uint64_t at = 0; at < sizes[r]; at += piece)
                {
                    const int len = static_cast<int>(std::min(piece, sizes[r] - at));
                    MPI_Recv(&all[r][at], len, MPI_CHAR, r, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                }
            }
        }
        else
        {
            for (uint64_t at = 0; at < n; at += piece)
            {
                const int len = static_cast<int>(std::min(piece, n - at));
                MPI_Send(mine.data() + at, len, MPI_CHAR, 0, 7, MPI_COMM_WORLD);
            }
        }
        return all;
    }
#endif
    all.push_back(mine);
    return all;
}

int64_t
MrcMpi::MinOverRanks(int64_t value)
{
#ifdef NS3_MPI
    if (g_distributed)
    {
        int64_t out = value;
        MPI_Allreduce(&value, &out, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
        return out;
    }
#endif
    return value;
}

uint64_t
MrcMpi::SumOverRanks(uint64_t value)
{
#ifdef NS3_MPI
    if (g_distributed)
    {
        uint64_t out = value;
        MPI_Allreduce(&value, &out, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
        return out;
    }
#endif
    return value;
}

uint64_t
MrcMpi::GetSyncRounds()
{
#ifdef NS3_MPI
    return g_rounds;
#else
    return 0;
#endif
}

uint64_t
MrcMpi::GetSyncRoundsInFlight()
{
#ifdef NS3_MPI
    return g_roundsInFlight;
#else
    return 0;
#endif
}

uint64_t
MrcMpi::GetNullMessagesSent()
{
#ifdef NS3_MPI
    return g_nullMessages;
#else
    return 0;
#endif
}

uint64_t
MrcMpi::GetFramesSent()
{
    return g_sent;
}

uint64_t
MrcMpi::GetNoticesSent()
{
    return g_noticesSent;
}

uint64_t
MrcMpi::GetFramesReceived()
{
    return g_received;
}

} // namespace ns3
