/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-ev-table.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/mrc-heap-scheduler.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcEvTable");

NS_OBJECT_ENSURE_REGISTERED(MrcEvTable);

const char*
MrcEvStateName(MrcEvState s)
{
    switch (s)
    {
    case MrcEvState::UNKNOWN:
        return "UNKNOWN";
    case MrcEvState::GOOD:
        return "GOOD";
    case MrcEvState::SKIP:
        return "SKIP";
    case MrcEvState::ASSUMED_BAD:
        return "ASSUMED_BAD";
    case MrcEvState::DENIED:
        return "DENIED";
    }
    return "?";
}

const char*
MrcEvReasonName(MrcEvReason r)
{
    switch (r)
    {
    case MrcEvReason::ECN_ECHO:
        return "ECN_ECHO";
    case MrcEvReason::TRIM_NACK:
        return "TRIM_NACK";
    case MrcEvReason::SKIP_EXPIRED:
        return "SKIP_EXPIRED";
    case MrcEvReason::ALWAYS_SKIP:
        return "ALWAYS_SKIP";
    case MrcEvReason::TIMEOUT:
        return "TIMEOUT";
    case MrcEvReason::LOSS_INFERRED:
        return "LOSS_INFERRED";
    case MrcEvReason::MIN_ACTIVE_FLOOR:
        return "MIN_ACTIVE_FLOOR";
    case MrcEvReason::PROBE_REVIVED:
        return "PROBE_REVIVED";
    case MrcEvReason::PROMOTED:
        return "PROMOTED";
    case MrcEvReason::CONTROLLER_DENY:
        return "CONTROLLER_DENY";
    case MrcEvReason::CONTROLLER_ALLOW:
        return "CONTROLLER_ALLOW";
    case MrcEvReason::CARRIER_LOSS:
        return "CARRIER_LOSS";
    }
    return "?";
}

MrcPathSignal
MrcPathSignalOfSack(MrcPathFeedback m)
{
    switch (m)
    {
    case MrcPathFeedback::NONE:
        return MrcPathSignal::GOOD;
    case MrcPathFeedback::SKIP_ONCE:
        return MrcPathSignal::ECN;
    case MrcPathFeedback::ALWAYS_SKIP:
        return MrcPathSignal::BAD;
    }
    return MrcPathSignal::GOOD;
}

TypeId
MrcEvTable::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcEvTable")
            .SetParent<MrcPathSelector>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcEvTable>()
            .AddAttribute(
                "Order",
                "Order of the active EVs within a rotation round. Stratified (default, our "
                "choice): with SRv6 EVs the NIC knows each EV's path (its uSID carrier), so the "
                "round interleaves the paths: a random path order per round, each sub-round "
                "visits every path once with a random EV of that path; EVs without a carrier "
                "are each their own path, which makes the two orders the same for structured "
                "EVs. Shuffle: a uniform shuffle of all active EVs per round (the spec's "
                "'pseudo-random order, reshuffled periodically' read literally); with several "
                "EVs per path it sends runs of packets down one path.",
#if MRC_NS3_VERSION_MINOR >= 41
                EnumValue<Order>(ORDER_STRATIFIED),
                MakeEnumAccessor<Order>(&MrcEvTable::m_order),
#else
                EnumValue(ORDER_STRATIFIED),
                MakeEnumAccessor(&MrcEvTable::m_order),
#endif
                MakeEnumChecker(ORDER_STRATIFIED, "Stratified", ORDER_SHUFFLE, "Shuffle"))
            .AddAttribute("SkipMode",
                          "How SKIP ends: Rotation (after EcnSkipTurns/TrimSkipTurns passes of "
                          "the rotation; protocol reference Q6 model default) or Time (after "
                          "SkipTime).",
#if MRC_NS3_VERSION_MINOR >= 41
                          EnumValue<SkipMode>(SKIP_ROTATION),
                          MakeEnumAccessor<SkipMode>(&MrcEvTable::m_skipMode),
#else
                          EnumValue(SKIP_ROTATION),
                          MakeEnumAccessor(&MrcEvTable::m_skipMode),
#endif
                          MakeEnumChecker(SKIP_ROTATION, "Rotation", SKIP_TIME, "Time"))
            .AddAttribute("EcnSkipTurns",
                          "Rotation passes an EV skips after SACK m = SKIP_ONCE. Default 1 "
                          "(SKIP_ONCE; Q6 model default).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&MrcEvTable::m_ecnSkipTurns),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute("TrimSkipTurns",
                          "Rotation passes an EV skips after a TRIMMED NACK. Default 1 (Q6 "
                          "model default; UEC htsim uses 4).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&MrcEvTable::m_trimSkipTurns),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute("SkipTime",
                          "SKIP duration in Time mode. 0 = the base RTT given by SetBaseRtt "
                          "(Q6 model default: one base RTT).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&MrcEvTable::m_skipTime),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ProbeInterval",
                          "Gap between reliability probes of an ASSUMED_BAD EV (after the "
                          "previous probe was answered or timed out). Default 1 ms (Q6 model "
                          "default; not published).",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&MrcEvTable::m_probeInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("ProbeJitter",
                          "Uniform jitter of the probe interval, as a fraction: the gap is "
                          "ProbeInterval * (1 + U(-j, j)). Default 0.5 (Q6 model default).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&MrcEvTable::m_probeJitter),
                          MakeDoubleChecker<double>(0.0, 0.99))
            .AddAttribute("ProbeTimeout",
                          "A probe unanswered for this long failed. Default 2 ms (the "
                          "controller API's probe example; Q6 model default).",
                          TimeValue(MilliSeconds(2)),
                          MakeTimeAccessor(&MrcEvTable::m_probeTimeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("ReviveSuccesses",
                          "Consecutive answered probes that revive an ASSUMED_BAD EV. Default 3 "
                          "(Q6 model default; the paper says only 'enough').",
                          UintegerValue(3),
                          MakeUintegerAccessor(&MrcEvTable::m_reviveSuccesses),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute("RefillAvoidsFailedPaths",
                          "When a retired EV is replaced from the backup set, promote only a "
                          "backup on a path (SRv6 carrier) none of whose EVs is ASSUMED_BAD; "
                          "if no such backup is left, leave the plane's active set short "
                          "(while it keeps at least one EV). false: the oldest backup not on "
                          "the path the retired EV failed on, else the oldest. Our choice, "
                          "not published; default false (validation case 15a).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MrcEvTable::m_refillAvoidsFailedPaths),
                          MakeBooleanChecker())
            .AddAttribute("RetireWholePath",
                          "When an active EV is retired for a loss or a timeout, retire the "
                          "other active EVs of the same path (the same SRv6 carrier: a "
                          "replica of the path, as mrc-sim gives a plane with fewer paths "
                          "than EVs) as well, each down to the ev_min_active floor. Our "
                          "choice, not published; default false (validation case 15a).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MrcEvTable::m_retireWholePath),
                          MakeBooleanChecker())
            .AddAttribute("CarrierLossEvs",
                          "Dead-carrier rule: a path group (EVs with one SRv6 carrier, "
                          "replicas of one path) is taken as dead once losses or timeouts "
                          "hit this many distinct EVs of it with no sign in between that it "
                          "delivers (a SACK echoing one of its EVs, a TRIMMED NACK, a probe "
                          "answer, or a loss of which a later packet of the path was "
                          "delivered); then every active EV of it is retired (CARRIER_LOSS) "
                          "and none of its backups is promoted until a probe revives one of "
                          "its EVs. 0 = off (each EV must lose its own packet). Default 3: "
                          "our choice, not published ([P1] retires the EV of a silent loss, "
                          "and there an EV is one of 2,048 paths; here a plane has fewer "
                          "paths than EVs: validation cases 13a, 15a); 2 cost the failover "
                          "scenario 3 % of its goodput, 3 nothing.",
                          UintegerValue(3),
                          MakeUintegerAccessor(&MrcEvTable::m_carrierLossEvs),
                          MakeUintegerChecker<uint32_t>(0, 1000))
            .AddAttribute("CarrierLossWindow",
                          "Dead-carrier rule: the losses counted against a carrier must fall "
                          "within this time of the first; an older count starts again. 0 = no "
                          "limit. Default 500 us (our choice: about two retransmission "
                          "timeouts at TimeoutExponent 8, so losses that only the timeout "
                          "finds still add up).",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&MrcEvTable::m_carrierLossWindow),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("CarrierConfirmTime",
                          "Dead-carrier rule: how long a carrier with CarrierLossEvs lost EVs "
                          "stays suspect (one probe is sent on it) before it is taken as dead; "
                          "any sign of life meanwhile clears it. A timeout finds every packet "
                          "of a window at once, those of live paths whose SACKs were lost "
                          "too; the wait lets the next SACKs tell them apart. 0 (default) = 4 "
                          "base RTTs (SetBaseRtt; none set: no wait). Our choice, not "
                          "published.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&MrcEvTable::m_carrierConfirmTime),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Profile",
                          "EV profile of Init(localQpn, remoteQpn, nPorts), the path-selector "
                          "family's entry (the MRC queue pair sets it to its own profile). "
                          "Null (default): a structured profile with default attributes.",
                          PointerValue(),
                          MakePointerAccessor(&MrcEvTable::m_profile),
                          MakePointerChecker<MrcEvProfile>())
            .AddTraceSource("EvState",
                            "An EV changed state (or a backup EV entered the active set).",
                            MakeTraceSourceAccessor(&MrcEvTable::m_stateTrace),
                            "ns3::MrcEvTable::StateTracedCallback")
            .AddTraceSource("PlaneState",
                            "A plane became unusable (local or remote port down) or usable.",
                            MakeTraceSourceAccessor(&MrcEvTable::m_planeTrace),
                            "ns3::MrcEvTable::PlaneTracedCallback")
            .AddTraceSource("CarrierState",
                            "A carrier (path group) was found dead (CarrierLossEvs) or a probe "
                            "revived one of its EVs.",
                            MakeTraceSourceAccessor(&MrcEvTable::m_carrierTrace),
                            "ns3::MrcEvTable::CarrierTracedCallback");
    return tid;
}

MrcEvTable::MrcEvTable()
    : m_skipMode(SKIP_ROTATION),
      m_order(ORDER_STRATIFIED),
      m_ecnSkipTurns(1),
      m_trimSkipTurns(1),
      m_carrierLossEvs(3),
      m_rng(CreateObject<UniformRandomVariable>()),
      m_skipTime(Time(0)),
      m_probeInterval(MilliSeconds(1)),
      m_probeJitter(0.5),
      m_probeTimeout(MilliSeconds(2)),
      m_reviveSuccesses(3),
      m_refillAvoidsFailedPaths(false),
      m_retireWholePath(false),
      m_carrierLossWindow(MicroSeconds(500)),
      m_carrierConfirmTime(Time(0))
{
    NS_LOG_FUNCTION(this);
}

MrcEvTable::~MrcEvTable()
{
    NS_LOG_FUNCTION(this);
}

void
MrcEvTable::DoDispose()
{
    for (auto& t : m_probeTimers)
    {
        t.second.Cancel();
    }
    for (auto& p : m_pathState)
    {
        p.confirm.Cancel();
    }
    m_probeCb = MakeNullCallback<void, uint32_t>();
    m_probeSender = MakeNullCallback<void, const MrcPathChoice&>();
    m_rng = nullptr;
    m_profile = nullptr;
    MrcPathSelector::DoDispose();
}

int64_t
MrcEvTable::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

void
MrcEvTable::Init(Ptr<MrcEvProfile> profile,
                 uint32_t numPlanes,
                 const std::vector<MrcEvCandidate>& candidates)
{
    Init(profile->Generate(numPlanes, candidates));
}

void
MrcEvTable::Init(uint32_t localQpn, uint32_t remoteQpn, uint32_t nPorts)
{
    NS_LOG_FUNCTION(this << localQpn << remoteQpn << nPorts);
    Ptr<MrcEvProfile> profile = m_profile;
    if (!profile)
    {
        profile = CreateObject<MrcEvProfile>();
        profile->SetFormat(MrcEvProfile::STRUCTURED);
    }
    Init(profile, nPorts, m_candidates);
    std::vector<MrcEvCandidate>().swap(m_candidates); // the EVs are made; Init runs once
}

void
MrcEvTable::Init(const MrcEvSet& set)
{
    NS_LOG_FUNCTION(this << set.active.size() << set.backup.size());
    NS_ABORT_MSG_IF(!m_hot.empty(), "MrcEvTable::Init called twice");
    NS_ABORT_MSG_IF(set.active.empty(), "MrcEvTable::Init: the active set is empty");
    SizePlanes(set);
    std::vector<uint32_t> carrierPaths; // id of the first EV of each carrier path
    for (const auto& c : set.active)
    {
        uint32_t id = AddEv(c, carrierPaths);
        m_hot[id].state = MrcEvState::GOOD;
        AddToActive(id);
        ++m_plane[c.plane].target;
    }
    for (const auto& c : set.backup)
    {
        uint32_t id = AddEv(c, carrierPaths);
        m_hot[id].state = MrcEvState::UNKNOWN;
        m_hot[id].set = MrcEvEntry::BACKUP;
        m_backup[c.plane].push_back(id);
    }
    m_evMinActive = set.evMinActive;
    // the per-path counts (m_pathState) and the EVs' cold parts (m_cold) are made when
    // first needed: most connections count no loss
    for (Plane& pl : m_plane)
    {
        pl.reverseEv = NO_EV;
        pl.reversePos = 0;
    }
    // The first round is drawn by the first Select: the random stream may still be fixed
    // (AssignStreams) after Init, so the order depends only on the stream and the EVs.
    m_drawn = false;
}

void
MrcEvTable::SizePlanes(const MrcEvSet& set)
{
    m_planes = 0;
    for (const auto* list : {&set.active, &set.backup})
    {
        for (const auto& c : *list)
        {
            NS_ABORT_MSG_IF(c.plane >= 32,
                            "MrcEvTable: plane " << c.plane << " not allowed; allowed 0..31");
            m_planes = std::max(m_planes, c.plane + 1);
        }
    }
    const size_t total = set.active.size() + set.backup.size();
    m_backup.assign(m_planes, {});
    m_hot.reserve(total);
    m_plane.assign(m_planes, Plane{});
    m_planeIds.assign(m_planes, {});
    // every list at its final size at once: no growth's spare room in each connection
    // (a plane's active vector never holds more than its EVs of the first active set)
    std::vector<uint32_t> active(m_planes, 0);
    std::vector<uint32_t> all(m_planes, 0);
    for (const auto& c : set.active)
    {
        ++active[c.plane];
        ++all[c.plane];
    }
    for (const auto& c : set.backup)
    {
        ++all[c.plane];
    }
    for (uint32_t p = 0; p < m_planes; ++p)
    {
        m_plane[p].active.reserve(active[p]);
        m_planeIds[p].reserve(all[p]);
        m_backup[p].reserve(all[p] - active[p]);
    }
    std::size_t slots = 8;
    while (slots < 2 * total)
    {
        slots <<= 1;
    }
    m_byValue.assign(slots, 0);
}

uint32_t
MrcEvTable::AddEv(const MrcEvCandidate& c, std::vector<uint32_t>& carrierPaths)
{
    uint32_t id = m_hot.size();
    NS_ABORT_MSG_IF(FindByValue(c.value) != NO_EV,
                    "MrcEvTable: EV value 0x" << std::hex << c.value << std::dec
                                              << " appears twice");
    m_hot.emplace_back();
    m_hot.back().value = c.value;
    IndexValue(id);
    m_hot.back().plane = static_cast<uint8_t>(c.plane); // below 32 (SizePlanes)
    m_planeIds[c.plane].push_back(id);
    // Path groups: EVs that share an SRv6 carrier take the same path (replicas told apart
    // only by their value); every EV without a carrier is a path of its own.
    uint32_t path = m_paths;
    if (c.hasCarrier)
    {
        for (uint32_t first : carrierPaths)
        {
            const EvHot& o = m_hot[first];
            if (o.plane == c.plane && m_carriers[o.carrier] == c.carrier)
            {
                path = o.path;
                m_hot.back().carrier = o.carrier;
                break;
            }
        }
        if (path == m_paths)
        {
            carrierPaths.push_back(id);
            m_hot.back().carrier = m_carriers.size();
            m_carriers.push_back(c.carrier);
        }
    }
    if (path == m_paths)
    {
        ++m_paths;
    }
    m_hot.back().path = path;
    return id;
}

void
MrcEvTable::SetProbeCallback(Callback<void, uint32_t> cb)
{
    m_probeCb = cb;
}

void
MrcEvTable::SetProbeSender(Callback<void, const MrcPathChoice&> cb)
{
    m_probeSender = cb;
}

void
MrcEvTable::SetProfile(Ptr<MrcEvProfile> profile)
{
    m_profile = profile;
}

void
MrcEvTable::SetCandidates(const std::vector<MrcEvCandidate>& candidates)
{
    m_candidates = candidates;
}

void
MrcEvTable::SetBaseRtt(Time rtt)
{
    m_baseRtt = rtt;
}

Time
MrcEvTable::GetSkipTime() const
{
    return m_skipTime.IsStrictlyPositive() ? m_skipTime : m_baseRtt;
}

void
MrcEvTable::CheckId(uint32_t id) const
{
    NS_ABORT_MSG_IF(id >= m_hot.size(),
                    "MrcEvTable: EV id " << id << " not allowed; allowed 0.." << m_hot.size() - 1);
}

void
MrcEvTable::SetState(uint32_t id, MrcEvState to, MrcEvReason reason)
{
    EvHot& e = m_hot[id];
    MrcEvState from = e.state;
    e.state = to;
    NS_LOG_DEBUG("EV " << id << " 0x" << std::hex << e.value << std::dec << " plane "
                       << uint32_t{e.plane} << ": " << MrcEvStateName(from) << " -> "
                       << MrcEvStateName(to) << " (" << MrcEvReasonName(reason) << ")");
    m_stateTrace(id, e.value, e.plane, from, to, reason);
}

// ----- active set and rotation -----

void
MrcEvTable::AddToActive(uint32_t id)
{
    EvHot& e = m_hot[id];
    e.set = MrcEvEntry::ACTIVE;
    std::vector<uint32_t>& act = m_plane[e.plane].active;
    e.pos = act.size();
    act.push_back(id);
    ++m_plane[e.plane].activeCount;
    ++m_nActive;
}

void
MrcEvTable::RemoveFromActive(uint32_t id)
{
    const EvHot& e = m_hot[id];
    NS_ASSERT(e.set == MrcEvEntry::ACTIVE);
    const uint32_t plane = e.plane;
    std::vector<uint32_t>& act = m_plane[plane].active;
    uint32_t& cursor = m_plane[plane].cursor;
    auto swapPos = [this, &act](uint32_t a, uint32_t b) {
        std::swap(act[a], act[b]);
        m_hot[act[a]].pos = a;
        m_hot[act[b]].pos = b;
    };
    uint32_t i = m_hot[id].pos;
    if (i < cursor)
    {
        // visited this round: move it to the end of the visited part, shrink that part
        swapPos(i, cursor - 1);
        --cursor;
        i = cursor;
    }
    swapPos(i, act.size() - 1);
    act.pop_back();
    cursor = std::min<uint32_t>(cursor, act.size());
    --m_plane[plane].activeCount;
    --m_nActive;
}

void
MrcEvTable::ShuffleIds(uint32_t* ids, std::size_t n)
{
    for (auto i = static_cast<uint32_t>(n); i > 1; --i)
    {
        uint32_t j = m_rng->GetInteger(0, i - 1);
        std::swap(ids[i - 1], ids[j]);
    }
}

MrcEvTable::ReshuffleScratch&
MrcEvTable::Scratch() const
{
    static ReshuffleScratch scratch;
    if (scratch.count.size() < m_paths)
    {
        scratch.count.resize(m_paths, 0);
        scratch.start.resize(m_paths, 0);
    }
    return scratch;
}

void
MrcEvTable::Reshuffle(uint32_t plane)
{
    std::vector<uint32_t>& act = m_plane[plane].active;
    const uint32_t n = act.size();
    uint32_t longest = 0;
    if (m_order == ORDER_STRATIFIED)
    {
        // count the plane's active EVs by path
        ReshuffleScratch& sc = Scratch();
        sc.pathOrder.clear();
        for (uint32_t id : act)
        {
            const uint32_t path = m_hot[id].path;
            if (sc.count[path]++ == 0)
            {
                sc.pathOrder.push_back(path);
            }
            longest = std::max(longest, sc.count[path]);
        }
        if (longest > 1)
        {
            DealStratified(plane, longest);
        }
        for (uint32_t p : sc.pathOrder)
        {
            sc.count[p] = 0;
        }
    }
    if (longest <= 1)
    {
        // Fisher-Yates of the plane's active set: the Shuffle order, and also the
        // stratified one when every active EV is a path of its own (structured EVs)
        ShuffleIds(act.data(), act.size());
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        m_hot[act[i]].pos = i;
    }
    m_plane[plane].cursor = 0;
    m_plane[plane].rounds++;
    m_rounds = std::max(m_rounds, m_plane[plane].rounds);
}

void
MrcEvTable::DealStratified(uint32_t plane, uint32_t longest)
{
    // Group the ids by path (in ascending path order, each group in active order), shuffle
    // every group and the order of the paths, then deal one EV per path per sub-round in
    // that path order.
    std::vector<uint32_t>& act = m_plane[plane].active;
    ReshuffleScratch& sc = Scratch();
    std::sort(sc.pathOrder.begin(), sc.pathOrder.end());
    uint32_t next = 0;
    for (uint32_t p : sc.pathOrder)
    {
        sc.start[p] = next;
        next += sc.count[p];
    }
    sc.grouped.resize(act.size());
    for (uint32_t id : act)
    {
        sc.grouped[sc.start[m_hot[id].path]++] = id;
    }
    for (uint32_t p : sc.pathOrder)
    {
        sc.start[p] -= sc.count[p]; // back to the group's first index
        ShuffleIds(sc.grouped.data() + sc.start[p], sc.count[p]);
    }
    ShuffleIds(sc.pathOrder.data(), sc.pathOrder.size());
    uint32_t k = 0;
    for (uint32_t r = 0; r < longest; ++r)
    {
        for (uint32_t p : sc.pathOrder)
        {
            if (r < sc.count[p])
            {
                act[k++] = sc.grouped[sc.start[p] + r];
            }
        }
    }
    NS_ASSERT(k == act.size());
}

void
MrcEvTable::DrawFirstRounds()
{
    // round 1 of every plane, drawn lazily (see Init), in plane order
    for (uint32_t p = 0; p < m_planes; ++p)
    {
        if (!m_plane[p].active.empty())
        {
            Reshuffle(p);
        }
    }
    m_drawn = true;
}

uint32_t
MrcEvTable::SelectId(uint32_t sendablePlanes, uint32_t excludeEv)
{
    const uint32_t usable = sendablePlanes & ~(m_localDownMask | m_remoteDownMask);
    // a retransmission avoids the path of the EV it was lost on, not only the EV: other
    // EVs with the same carrier take the same path
    const uint32_t excludePath = excludeEv < m_hot.size() ? m_hot[excludeEv].path : NO_EV;
    if (!m_drawn && m_nActive > 0)
    {
        DrawFirstRounds();
    }
    // The planes whose port can send take turns; each plane walks its own rotation, so a
    // busy port never costs its paths their turns and every path of a plane gets the same
    // share of that plane's packets.
    for (uint32_t t = 0; t < m_planes; ++t)
    {
        const uint32_t plane = (m_nextPlane + t) % m_planes;
        if (((usable >> plane) & 1) == 0)
        {
            continue;
        }
        const uint32_t id = SelectInPlane(plane, excludeEv, excludePath);
        if (id != NO_EV)
        {
            m_nextPlane = (plane + 1) % m_planes;
            return id;
        }
    }
    return NO_EV;
}

uint32_t
MrcEvTable::SelectInPlane(uint32_t plane, uint32_t excludeEv, uint32_t excludePath)
{
    std::vector<uint32_t>& act = m_plane[plane].active;
    const uint32_t n = act.size();
    uint32_t& cursor = m_plane[plane].cursor;
    for (uint32_t k = 0; k < n; ++k)
    {
        if (cursor >= act.size())
        {
            Reshuffle(plane);
        }
        const uint32_t id = act[cursor++];
        // one 32-byte EvHot holds all a selection reads and writes of an EV
        EvHot& h = m_hot[id];
        if (h.state == MrcEvState::SKIP)
        {
            if (m_skipMode == SKIP_ROTATION)
            {
                if (--h.skipTurns == 0)
                {
                    SetState(id, MrcEvState::GOOD, MrcEvReason::SKIP_EXPIRED);
                }
                continue; // this pass was the skipped turn
            }
            if (MrcNow() < ColdOf(id).skipUntil)
            {
                continue;
            }
            SetState(id, MrcEvState::GOOD, MrcEvReason::SKIP_EXPIRED);
        }
        if (h.state != MrcEvState::GOOD)
        {
            continue;
        }
        if (excludeEv != NO_EV && (id == excludeEv || h.path == excludePath))
        {
            continue;
        }
        ++h.sent;
        return id;
    }
    return NO_EV;
}

// ----- planes -----

void
MrcEvTable::SetLocalPortUp(uint32_t plane, bool up)
{
    NS_ABORT_MSG_IF(plane >= 32, "MrcEvTable: plane " << plane << " not allowed; allowed 0..31");
    bool before = IsPlaneUp(plane);
    m_localDownMask = up ? (m_localDownMask & ~(1u << plane)) : (m_localDownMask | (1u << plane));
    if (IsPlaneUp(plane) != before)
    {
        m_planeTrace(plane, !before);
    }
}

void
MrcEvTable::SetRemotePortUp(uint32_t plane, bool up)
{
    NS_ABORT_MSG_IF(plane >= 32, "MrcEvTable: plane " << plane << " not allowed; allowed 0..31");
    bool before = IsPlaneUp(plane);
    m_remoteDownMask =
        up ? (m_remoteDownMask & ~(1u << plane)) : (m_remoteDownMask | (1u << plane));
    if (IsPlaneUp(plane) != before)
    {
        m_planeTrace(plane, !before);
    }
}

bool
MrcEvTable::IsPlaneUp(uint32_t plane) const
{
    return (((m_localDownMask | m_remoteDownMask) >> plane) & 1) == 0;
}

bool
MrcEvTable::CanUsePort(uint32_t port) const
{
    return port < 32 && IsPlaneUp(port) && GetActiveCount(port) > 0;
}

MrcPathChoice
MrcEvTable::SelectReverse(uint32_t port)
{
    MrcPathChoice none;
    none.port = NO_PORT;
    if (port >= m_plane.size())
    {
        return none;
    }
    // the next of the plane's EVs after the last one used, in id order (the plane's list
    // only: a walk over every EV would touch all planes' entries)
    const std::vector<uint32_t>& ids = m_planeIds[port];
    const auto n = static_cast<uint32_t>(ids.size());
    const uint32_t start = m_plane[port].reverseEv == NO_EV ? 0 : m_plane[port].reversePos + 1;
    uint32_t id = NO_EV;
    for (uint32_t k = 0; k < n; ++k)
    {
        const uint32_t pos = (start + k) % n;
        const EvHot& h = m_hot[ids[pos]];
        if (h.set == MrcEvEntry::ACTIVE && h.state == MrcEvState::GOOD)
        {
            id = ids[pos];
            m_plane[port].reversePos = pos;
            break;
        }
    }
    m_plane[port].reverseEv = id;
    return id == NO_EV ? none : ChoiceOf(id);
}

// ----- the path-selector family's interface -----

bool
MrcEvTable::UsesPort(uint32_t port) const
{
    return port < m_planes && !m_planeIds[port].empty();
}

MrcPathChoice
MrcEvTable::DoSelect(const MrcPathRequest& r)
{
    uint32_t planes = r.ports;
    if (r.port != NO_PORT)
    {
        planes = r.port < 32 ? (1u << r.port) : 0;
    }
    uint32_t exclude = NO_EV;
    if (r.retransmission)
    {
        exclude = r.lostEv != NO_EV ? FindByValue(r.lostEv) : m_lastLost;
    }
    const uint32_t id = SelectId(planes, exclude);
    if (id == NO_EV)
    {
        MrcPathChoice none;
        none.port = NO_PORT;
        return none;
    }
    return ChoiceOf(id);
}

MrcPathChoice
MrcEvTable::ChoiceOf(uint32_t id) const
{
    const EvHot& e = m_hot[id];
    MrcPathChoice c = EvChoice(e.plane, e.value);
    c.path = e.path;
    c.carrier = e.carrier != NO_CARRIER ? &m_carriers[e.carrier] : nullptr;
    return c;
}

void
MrcEvTable::DoFeedback(uint32_t ev, MrcPathSignal kind)
{
    const uint32_t id = FindByValue(ev);
    if (id == NO_EV)
    {
        return; // late feedback for a replaced value, or not ours
    }
    switch (kind)
    {
    case MrcPathSignal::GOOD:
        ApplySack(id, MrcPathFeedback::NONE);
        break;
    case MrcPathSignal::ECN:
        ApplySack(id, MrcPathFeedback::SKIP_ONCE);
        break;
    case MrcPathSignal::BAD:
        ApplySack(id, MrcPathFeedback::ALWAYS_SKIP);
        break;
    case MrcPathSignal::NACK:
        ApplyTrim(id);
        break;
    case MrcPathSignal::TIMEOUT:
        ApplyLoss(id, MrcEvReason::TIMEOUT);
        break;
    case MrcPathSignal::LOSS:
        ApplyLoss(id, MrcEvReason::LOSS_INFERRED);
        break;
    }
}

void
MrcEvTable::LossOnLivePath(uint32_t ev, MrcPathSignal kind)
{
    if (kind != MrcPathSignal::LOSS && kind != MrcPathSignal::TIMEOUT)
    {
        Feedback(ev, kind);
        return;
    }
    CountFeedback(kind);
    const uint32_t id = FindByValue(ev);
    if (id == NO_EV)
    {
        return;
    }
    ApplyLoss(id,
              kind == MrcPathSignal::TIMEOUT ? MrcEvReason::TIMEOUT : MrcEvReason::LOSS_INFERRED,
              false);
    NoteCarrierAlive(m_hot[id].path);
}

bool
MrcEvTable::IsCarrierDown(uint32_t path) const
{
    return path < m_pathState.size() && m_pathState[path].down != 0;
}

uint32_t
MrcEvTable::GetCarrierFailures() const
{
    return m_carrierFailures;
}

// ----- queries -----

uint32_t
MrcEvTable::FindByValue(uint32_t value) const
{
    // open addressing: one or two cache lines of the index per SACK, then the EV's own
    if (m_byValue.empty())
    {
        return NO_EV;
    }
    const std::size_t mask = m_byValue.size() - 1;
    for (std::size_t i = HomeOf(value); m_byValue[i] != 0; i = (i + 1) & mask)
    {
        const uint32_t id = m_byValue[i] - 1;
        if (m_hot[id].value == value)
        {
            return id;
        }
    }
    return NO_EV;
}

MrcEvEntry
MrcEvTable::GetEntry(uint32_t evId) const
{
    CheckId(evId);
    const EvHot& h = m_hot[evId];
    const MrcEvHistory& c = ColdOf(evId);
    MrcEvEntry e;
    e.ev.plane = h.plane;
    e.ev.value = h.value;
    e.ev.hasCarrier = h.carrier != NO_CARRIER;
    if (e.ev.hasCarrier)
    {
        e.ev.carrier = m_carriers[h.carrier];
    }
    e.state = h.state;
    e.set = h.set;
    e.path = h.path;
    e.sent = h.sent;
    static_cast<MrcEvHistory&>(e) = c;
    return e;
}

MrcEvState
MrcEvTable::GetState(uint32_t evId) const
{
    CheckId(evId);
    return m_hot[evId].state;
}

uint32_t
MrcEvTable::GetValue(uint32_t evId) const
{
    CheckId(evId);
    return m_hot[evId].value;
}

uint32_t
MrcEvTable::GetPlane(uint32_t evId) const
{
    CheckId(evId);
    return m_hot[evId].plane;
}

uint32_t
MrcEvTable::GetEvCount() const
{
    return m_hot.size();
}

bool
MrcEvTable::IsActiveAndGood(uint32_t evId) const
{
    CheckId(evId);
    const EvHot& h = m_hot[evId];
    return h.set == MrcEvEntry::ACTIVE && h.state == MrcEvState::GOOD;
}

const std::vector<uint32_t>&
MrcEvTable::GetPlaneIds(uint32_t plane) const
{
    static const std::vector<uint32_t> none;
    return plane < m_planeIds.size() ? m_planeIds[plane] : none;
}

uint32_t
MrcEvTable::GetPlaneCount() const
{
    return m_planes;
}

uint32_t
MrcEvTable::GetActiveCount() const
{
    return m_nActive;
}

uint32_t
MrcEvTable::GetActiveCount(uint32_t plane) const
{
    return plane < m_planes ? m_plane[plane].activeCount : 0;
}

uint32_t
MrcEvTable::GetBackupCount(uint32_t plane) const
{
    return plane < m_planes ? m_backup[plane].size() : 0;
}

uint32_t
MrcEvTable::CountInState(MrcEvState s) const
{
    return std::count_if(m_hot.begin(), m_hot.end(), [s](const EvHot& e) { return e.state == s; });
}

uint32_t
MrcEvTable::GetEvMinActive() const
{
    return m_evMinActive;
}

uint64_t
MrcEvTable::GetRounds() const
{
    return m_rounds;
}

uint32_t
MrcEvTable::GetPathCount() const
{
    return m_paths;
}

uint32_t
MrcEvTable::GetPath(uint32_t evId) const
{
    CheckId(evId);
    return m_hot[evId].path;
}

// ----- the parts made when first needed -----

MrcEvTable::EvCold&
MrcEvTable::Cold(uint32_t id)
{
    static_assert(sizeof(EvHot) == 32, "two EVs a cache line");
    if (m_cold.empty())
    {
        m_cold.resize(m_hot.size());
    }
    return m_cold[id];
}

const MrcEvTable::EvCold&
MrcEvTable::ColdOf(uint32_t id) const
{
    static const EvCold blank;
    return m_cold.empty() ? blank : m_cold[id];
}

MrcEvTable::PathState&
MrcEvTable::PathRef(uint32_t path)
{
    if (m_pathState.empty())
    {
        m_pathState.resize(m_paths);
    }
    return m_pathState[path];
}

EventId&
MrcEvTable::ProbeTimer(uint32_t id)
{
    for (auto& t : m_probeTimers)
    {
        if (t.first == id)
        {
            return t.second;
        }
    }
    m_probeTimers.emplace_back(id, EventId());
    return m_probeTimers.back().second;
}

void
MrcEvTable::CancelProbe(uint32_t id)
{
    for (auto& t : m_probeTimers)
    {
        if (t.first == id)
        {
            t.second.Cancel();
            return;
        }
    }
}

void
MrcEvTable::IndexValue(uint32_t id)
{
    const std::size_t mask = m_byValue.size() - 1;
    std::size_t i = HomeOf(m_hot[id].value);
    while (m_byValue[i] != 0)
    {
        i = (i + 1) & mask;
    }
    m_byValue[i] = id + 1;
}

uint32_t
MrcEvTable::CarrierIndex(const MrcUsidCarrier& c)
{
    auto it = std::find(m_carriers.begin(), m_carriers.end(), c);
    if (it != m_carriers.end())
    {
        return static_cast<uint32_t>(it - m_carriers.begin());
    }
    m_carriers.push_back(c);
    return static_cast<uint32_t>(m_carriers.size() - 1);
}

} // namespace ns3
