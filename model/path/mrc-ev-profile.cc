/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-ev-profile.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/mrc-entropy.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <unordered_set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcEvProfile");

NS_OBJECT_ENSURE_REGISTERED(MrcEvProfile);

MrcEvCandidate
MrcEvCandidate::FromCarrier(uint32_t plane, const MrcUsidCarrier& carrier)
{
    uint32_t uplink = 0;
    for (uint32_t slot = 0; slot < MrcUsidCarrier::MAX_USIDS; ++slot)
    {
        uint16_t usid = carrier.GetUsid(slot);
        if (usid == 0)
        {
            break;
        }
        if (MrcUsidTypeOf(usid) == MrcUsidType::T1)
        {
            uplink = MrcUsidIndex(usid);
            break;
        }
    }
    MrcEvCandidate c;
    c.plane = plane;
    c.value = MrcSrv6EvMake(plane, uplink);
    c.hasCarrier = true;
    c.carrier = carrier;
    return c;
}

MrcEvCandidate
MrcEvCandidate::Structured(uint32_t plane, uint16_t value16)
{
    MrcEvCandidate c;
    c.plane = plane;
    c.value = value16;
    return c;
}

TypeId
MrcEvProfile::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MrcEvProfile")
            .SetParent<Object>()
            .SetGroupName("Mrc")
            .AddConstructor<MrcEvProfile>()
            .AddAttribute("Format",
                          "EV format: Srv6 (one uSID carrier per EV, IPv6-in-IPv6) or Structured "
                          "(EV bits in UDP source port and flow label, hashed by ECMP/STEV "
                          "switches). Default Srv6, MRC's production mode [P1 2.2].",
#if MRC_NS3_VERSION_MINOR >= 41
                          EnumValue<Format>(SRV6),
                          MakeEnumAccessor<Format>(&MrcEvProfile::m_format),
#else
                          EnumValue(SRV6),
                          MakeEnumAccessor(&MrcEvProfile::m_format),
#endif
                          MakeEnumChecker(SRV6, "Srv6", STRUCTURED, "Structured"))
            .AddAttribute("EvCount",
                          "Active EVs per QP in generated mode, split equally over the planes. "
                          "Default 128: the paper's 128-256 [P1 2.1] and the protocol "
                          "reference's model default (sec. 9).",
                          UintegerValue(128),
                          MakeUintegerAccessor(&MrcEvProfile::m_evCount),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("BackupCount",
                          "Backup EVs per QP in generated mode, split over the planes like "
                          "EvCount. Default 64 (not published; protocol reference sec. 9).",
                          UintegerValue(64),
                          MakeUintegerAccessor(&MrcEvProfile::m_backupCount),
                          MakeUintegerChecker<uint32_t>(0, 65535))
            .AddAttribute("EvMinActive",
                          "ev_min_active: the active set is not shrunk below this by timeouts "
                          "or ALWAYS_SKIP. 0 = active count / 4, as the controller API's "
                          "examples (our choice of default).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MrcEvProfile::m_evMinActive),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "SpreadOverPaths",
                "When several candidates of a plane share one SRv6 carrier (one path with "
                "several EV values, as mrc-sim gives a plane with fewer paths than EVs), deal "
                "the active and then the backup EVs over the paths in turn (a random path "
                "order, a random candidate of each path), so that every path gets an equal "
                "share of the active set (+-1). false draws the EVs uniformly from all "
                "candidates, which gives the paths unequal shares. Candidates that are all "
                "distinct paths are drawn uniformly either way. Default true (our choice).",
                BooleanValue(true),
                MakeBooleanAccessor(&MrcEvProfile::m_spreadOverPaths),
                MakeBooleanChecker())
            .AddAttribute(
                "PinFirstPath",
                "Experiments only: put every active EV of a plane on the plane's first path "
                "(the carrier of its first SRv6 candidate in the topology's order: T1 0 in a "
                "Clos), so that QPs between the same racks share one path, as [P1] sec. 5.2 "
                "forced two flows onto one EV; the backups are drawn from the other paths as "
                "usual. Candidates without a carrier (structured EVs) are drawn as usual. "
                "Default false (our attribute).",
                BooleanValue(false),
                MakeBooleanAccessor(&MrcEvProfile::m_pinFirstPath),
                MakeBooleanChecker());
    return tid;
}

MrcEvProfile::MrcEvProfile()
    : m_format(SRV6),
      m_mode(GENERATED),
      m_evCount(128),
      m_backupCount(64),
      m_evMinActive(0),
      m_spreadOverPaths(true),
      m_pinFirstPath(false),
      m_rng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

MrcEvProfile::~MrcEvProfile()
{
    NS_LOG_FUNCTION(this);
}

void
MrcEvProfile::DoDispose()
{
    m_rng = nullptr;
    Object::DoDispose();
}

MrcEvProfile::Format
MrcEvProfile::GetFormat() const
{
    return m_format;
}

void
MrcEvProfile::SetFormat(Format format)
{
    m_format = format;
}

MrcEvProfile::Mode
MrcEvProfile::GetMode() const
{
    return m_mode;
}

uint32_t
MrcEvProfile::GetEvCount() const
{
    return m_evCount;
}

uint32_t
MrcEvProfile::GetBackupCount() const
{
    return m_backupCount;
}

uint32_t
MrcEvProfile::GetEvMinActive(uint32_t activeCount) const
{
    return m_evMinActive != 0 ? m_evMinActive : activeCount / 4;
}

void
MrcEvProfile::SetExplicit(const std::vector<MrcEvCandidate>& active,
                          const std::vector<MrcEvCandidate>& backup)
{
    NS_ABORT_MSG_IF(active.empty(), "MrcEvProfile::SetExplicit: the active array is empty");
    m_mode = EXPLICIT;
    m_explicitActive = active;
    m_explicitBackup = backup;
}

int64_t
MrcEvProfile::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

void
MrcEvProfile::Check(const std::vector<MrcEvCandidate>& evs, uint32_t numPlanes) const
{
    std::unordered_set<uint32_t> seen;
    seen.reserve(evs.size());
    for (const auto& c : evs)
    {
        NS_ABORT_MSG_IF(c.plane >= numPlanes,
                        "MrcEvProfile: EV 0x" << std::hex << c.value << std::dec << " has plane "
                                              << c.plane << "; allowed 0.." << numPlanes - 1);
        NS_ABORT_MSG_IF(!seen.insert(c.value).second,
                        "MrcEvProfile: EV value 0x"
                            << std::hex << c.value << std::dec
                            << " appears twice; EV values must be unique within a QP");
        NS_ABORT_MSG_IF(m_format == SRV6 && !c.hasCarrier,
                        "MrcEvProfile: SRv6 format needs a uSID carrier for EV 0x"
                            << std::hex << c.value << std::dec);
    }
}

bool
MrcEvProfile::DealOverPaths(std::vector<MrcEvCandidate>& cands, uint32_t take)
{
    // Group the candidates by carrier (one group per path; a candidate without a carrier is
    // a path of its own).
    std::vector<std::vector<uint32_t>> groups;
    std::vector<uint32_t> firstOf; // index of the first candidate of each group
    uint32_t longest = 0;
    for (uint32_t i = 0; i < cands.size(); ++i)
    {
        uint32_t g = groups.size();
        if (cands[i].hasCarrier)
        {
            for (uint32_t k = 0; k < firstOf.size(); ++k)
            {
                const MrcEvCandidate& o = cands[firstOf[k]];
                if (o.hasCarrier && o.carrier == cands[i].carrier)
                {
                    g = k;
                    break;
                }
            }
        }
        if (g == groups.size())
        {
            groups.emplace_back();
            firstOf.push_back(i);
        }
        groups[g].push_back(i);
        longest = std::max<uint32_t>(longest, groups[g].size());
    }
    if (longest <= 1)
    {
        return false; // every candidate is a path of its own: draw uniformly
    }
    for (auto& g : groups)
    {
        for (uint32_t i = g.size(); i > 1; --i)
        {
            std::swap(g[i - 1], g[m_rng->GetInteger(0, i - 1)]);
        }
    }
    for (uint32_t i = groups.size(); i > 1; --i)
    {
        std::swap(groups[i - 1], groups[m_rng->GetInteger(0, i - 1)]);
    }
    std::vector<MrcEvCandidate> out;
    out.reserve(cands.size());
    for (uint32_t r = 0; r < longest && out.size() < take; ++r)
    {
        for (const auto& g : groups)
        {
            if (r < g.size())
            {
                out.push_back(cands[g[r]]);
            }
        }
    }
    out.resize(std::min<std::size_t>(out.size(), take));
    std::copy(out.begin(), out.end(), cands.begin());
    return true;
}

void
MrcEvProfile::Draw(std::vector<MrcEvCandidate>& cands, uint32_t take)
{
    const uint32_t n = cands.size();
    if (!m_spreadOverPaths || !DealOverPaths(cands, take))
    {
        // Partial Fisher-Yates: only the first `take` positions are needed.
        for (uint32_t i = 0; i < take; ++i)
        {
            uint32_t j = m_rng->GetInteger(i, n - 1);
            std::swap(cands[i], cands[j]);
        }
    }
}

void
MrcEvProfile::PinFirstPath(const std::vector<MrcEvCandidate>& cands,
                           uint32_t wantActive,
                           uint32_t wantBackup,
                           MrcEvSet& set)
{
    // The candidates of the first path (the first candidate's carrier) in their given order,
    // then the others.
    std::vector<MrcEvCandidate> pinned;
    std::vector<MrcEvCandidate> others;
    const MrcUsidCarrier first = cands[0].carrier;
    for (const auto& c : cands)
    {
        (c.hasCarrier && c.carrier == first ? pinned : others).push_back(c);
    }
    const uint32_t nPinned = std::min<uint32_t>(pinned.size(), wantActive);
    // The rest of the active set (when the first path has fewer candidates than wanted)
    // and the backups come from the other paths, drawn as without the pin.
    const uint32_t fromOthers =
        std::min<uint32_t>(others.size(), wantActive - nPinned + wantBackup);
    Draw(others, fromOthers);
    const uint32_t othersActive = std::min<uint32_t>(fromOthers, wantActive - nPinned);
    set.active.insert(set.active.end(), pinned.begin(), pinned.begin() + nPinned);
    set.active.insert(set.active.end(), others.begin(), others.begin() + othersActive);
    set.backup.insert(set.backup.end(), others.begin() + othersActive, others.begin() + fromOthers);
    // Spare candidates of the first path are the last backups, used only when the other paths
    // cannot fill the backup set.
    const uint32_t backupsLeft = wantBackup - (fromOthers - othersActive);
    const uint32_t spare = std::min<uint32_t>(pinned.size() - nPinned, backupsLeft);
    set.backup.insert(set.backup.end(), pinned.begin() + nPinned, pinned.begin() + nPinned + spare);
    NS_LOG_LOGIC("plane " << cands[0].plane << ": " << nPinned
                          << " active EVs pinned to the first path, " << othersActive
                          << " active and " << fromOthers - othersActive + spare
                          << " backup EVs from the other paths");
}

MrcEvSet
MrcEvProfile::Generate(uint32_t numPlanes, const std::vector<MrcEvCandidate>& candidates)
{
    NS_LOG_FUNCTION(this << numPlanes << candidates.size());
    const uint32_t maxPlanes = m_format == SRV6 ? 15 : 32;
    NS_ABORT_MSG_IF(numPlanes == 0 || numPlanes > maxPlanes,
                    "MrcEvProfile: numPlanes " << numPlanes << " not allowed; allowed 1.."
                                               << maxPlanes);
    MrcEvSet set;
    if (m_mode == EXPLICIT)
    {
        std::vector<MrcEvCandidate> all = m_explicitActive;
        all.insert(all.end(), m_explicitBackup.begin(), m_explicitBackup.end());
        Check(all, numPlanes);
        set.active = m_explicitActive;
        set.backup = m_explicitBackup;
        set.evMinActive = GetEvMinActive(set.active.size());
        return set;
    }

    // Per-plane pools.
    std::vector<std::vector<MrcEvCandidate>> pool(numPlanes);
    if (candidates.empty())
    {
        NS_ABORT_MSG_IF(m_format == SRV6,
                        "MrcEvProfile: SRv6 format needs candidate paths (uSID carriers)");
        // ECMP: draw distinct random 16-bit values, as many as each plane needs.
        std::unordered_set<uint32_t> used;
        for (uint32_t p = 0; p < numPlanes; ++p)
        {
            uint32_t need = m_evCount / numPlanes + (p < m_evCount % numPlanes ? 1 : 0) +
                            m_backupCount / numPlanes + (p < m_backupCount % numPlanes ? 1 : 0);
            NS_ABORT_MSG_IF(used.size() + need > 65535,
                            "MrcEvProfile: " << m_evCount << " + " << m_backupCount
                                             << " EVs do not fit 16-bit values");
            while (need > 0)
            {
                uint32_t v = m_rng->GetInteger(1, 65535);
                if (used.insert(v).second)
                {
                    pool[p].push_back(MrcEvCandidate::Structured(p, static_cast<uint16_t>(v)));
                    --need;
                }
            }
        }
    }
    else
    {
        Check(candidates, numPlanes);
        for (const auto& c : candidates)
        {
            pool[c.plane].push_back(c);
        }
    }

    for (uint32_t p = 0; p < numPlanes; ++p)
    {
        auto& cands = pool[p];
        const uint32_t wantActive = m_evCount / numPlanes + (p < m_evCount % numPlanes ? 1 : 0);
        const uint32_t wantBackup =
            m_backupCount / numPlanes + (p < m_backupCount % numPlanes ? 1 : 0);
        const uint32_t n = cands.size();
        if (n < wantActive + wantBackup)
        {
            NS_LOG_WARN("plane " << p << " has " << n << " candidate paths for " << wantActive
                                 << " active + " << wantBackup << " backup EVs");
        }
        if (m_pinFirstPath && n > 0 && cands[0].hasCarrier)
        {
            PinFirstPath(cands, wantActive, wantBackup, set);
            continue;
        }
        const uint32_t take = std::min(n, wantActive + wantBackup);
        Draw(cands, take);
        const uint32_t nActive = std::min(n, wantActive);
        set.active.insert(set.active.end(), cands.begin(), cands.begin() + nActive);
        set.backup.insert(set.backup.end(), cands.begin() + nActive, cands.begin() + take);
    }
    set.evMinActive = GetEvMinActive(set.active.size());
    return set;
}

} // namespace ns3
