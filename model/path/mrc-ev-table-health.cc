/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MrcEvTable, part of its implementation (see mrc-ev-table.h): the EV health state machine.
// Feedback (SKIP, retirement to ASSUMED_BAD with the ev_min_active floor, refill from the
// backup set), the probes of ASSUMED_BAD EVs and their revival, and the controller's Deny,
// Allow and Replace. The rest (set-up, rotation, planes, the family interface, queries) is in
// mrc-ev-table.cc.

#include "mrc-ev-table.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mrc-heap-scheduler.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MrcEvTableHealth");

// ----- feedback -----

void
MrcEvTable::EnterSkip(uint32_t id, uint32_t turns, MrcEvReason reason)
{
    EvHot& e = m_hot[id];
    if (m_skipMode == SKIP_ROTATION)
    {
        e.skipTurns = std::max(e.skipTurns, turns);
    }
    else
    {
        Time& until = Cold(id).skipUntil;
        until = std::max(until, MrcNow() + GetSkipTime());
    }
    if (e.state != MrcEvState::SKIP)
    {
        SetState(id, MrcEvState::SKIP, reason);
    }
}

void
MrcEvTable::OnSack(uint32_t evId, MrcPathFeedback m)
{
    CheckId(evId);
    CountFeedback(MrcPathSignalOfSack(m));
    ApplySack(evId, m);
}

void
MrcEvTable::OnNack(uint32_t evId, MrcNackReason reason)
{
    CheckId(evId);
    if (!MrcNackReasonPenalizesEv(reason))
    {
        return; // says nothing about the path
    }
    CountFeedback(MrcPathSignal::NACK);
    ApplyTrim(evId);
}

void
MrcEvTable::OnTimeout(uint32_t evId)
{
    CheckId(evId);
    CountFeedback(MrcPathSignal::TIMEOUT);
    ApplyLoss(evId, MrcEvReason::TIMEOUT);
}

void
MrcEvTable::OnInferredLoss(uint32_t evId)
{
    CheckId(evId);
    CountFeedback(MrcPathSignal::LOSS);
    ApplyLoss(evId, MrcEvReason::LOSS_INFERRED);
}

void
MrcEvTable::ApplySack(uint32_t id, MrcPathFeedback m)
{
    const EvHot& e = m_hot[id];
    NoteCarrierAlive(e.path); // the packet it echoes arrived
    if (m == MrcPathFeedback::ALWAYS_SKIP)
    {
        m_lastLost = id;
    }
    if (e.set != MrcEvEntry::ACTIVE || m == MrcPathFeedback::NONE)
    {
        return;
    }
    if (m == MrcPathFeedback::SKIP_ONCE)
    {
        ++Cold(id).ecnEchoes;
        EnterSkip(id, m_ecnSkipTurns, MrcEvReason::ECN_ECHO);
    }
    else if (m == MrcPathFeedback::ALWAYS_SKIP)
    {
        Retire(id, MrcEvReason::ALWAYS_SKIP);
    }
}

void
MrcEvTable::ApplyTrim(uint32_t id)
{
    m_lastLost = id;
    const EvHot& e = m_hot[id];
    NoteCarrierAlive(e.path); // the trimmed header went the whole way
    if (e.set != MrcEvEntry::ACTIVE)
    {
        return;
    }
    ++Cold(id).trims;
    EnterSkip(id, m_trimSkipTurns, MrcEvReason::TRIM_NACK);
}

void
MrcEvTable::ApplyLoss(uint32_t id, MrcEvReason reason, bool carrierCounts)
{
    m_lastLost = id;
    if (m_hot[id].set == MrcEvEntry::ACTIVE)
    {
        ++Cold(id).timeouts;
    }
    Retire(id, reason);
    if (carrierCounts && m_carrierLossEvs > 0)
    {
        CountCarrierLoss(id);
    }
}

void
MrcEvTable::NoteCarrierAlive(uint32_t path)
{
    if (m_carrierLossEvs == 0 || PathLosses(path) == 0)
    {
        return;
    }
    // a new count: every EV of the path may count again; a suspect carrier is cleared
    PathState& ps = m_pathState[path];
    ps.losses = 0;
    ++ps.epoch;
    ps.confirm.Cancel();
}

void
MrcEvTable::CountCarrierLoss(uint32_t id)
{
    const EvHot& e = m_hot[id];
    const uint32_t path = e.path;
    if (IsPathDown(path) || !IsPlaneUp(e.plane))
    {
        return; // already down; or Q3: a loss on a down plane says nothing of the path
    }
    const Time now = MrcNow();
    PathState& ps = PathRef(path);
    if (ps.losses > 0 && m_carrierLossWindow.IsStrictlyPositive() &&
        now - ps.firstLoss > m_carrierLossWindow)
    {
        ps.losses = 0; // too old: start again
        ++ps.epoch;
    }
    EvCold& c = Cold(id);
    if (c.carrierEpoch == ps.epoch)
    {
        return; // this EV was counted already
    }
    c.carrierEpoch = ps.epoch;
    if (ps.losses++ == 0)
    {
        ps.firstLoss = now;
    }
    if (ps.losses >= m_carrierLossEvs && ps.confirm.IsExpired())
    {
        SuspectCarrier(path, id);
    }
}

void
MrcEvTable::SuspectCarrier(uint32_t path, uint32_t id)
{
    const uint32_t plane = m_hot[id].plane;
    const Time wait =
        m_carrierConfirmTime.IsStrictlyPositive() ? m_carrierConfirmTime : 4 * m_baseRtt;
    if (!wait.IsStrictlyPositive())
    {
        RetireCarrier(path, plane);
        return;
    }
    // one reliability probe on the carrier, on a GOOD active EV of it if one is left (its
    // answer, like any SACK echoing the carrier, clears the suspicion)
    uint32_t probeId = id;
    for (uint32_t other : m_planeIds[plane])
    {
        if (m_hot[other].path == path && m_hot[other].set == MrcEvEntry::ACTIVE &&
            m_hot[other].state == MrcEvState::GOOD)
        {
            probeId = other;
            break;
        }
    }
    if (IsPlaneUp(plane))
    {
        if (!m_probeCb.IsNull())
        {
            m_probeCb(probeId);
        }
        else if (!m_probeSender.IsNull())
        {
            m_probeSender(ChoiceOf(probeId));
        }
    }
    PathRef(path).confirm =
        Simulator::Schedule(wait, &MrcEvTable::ConfirmCarrier, this, path, plane);
}

void
MrcEvTable::ConfirmCarrier(uint32_t path, uint32_t plane)
{
    if (PathLosses(path) >= m_carrierLossEvs && !IsPathDown(path))
    {
        RetireCarrier(path, plane);
    }
}

void
MrcEvTable::RetireCarrier(uint32_t path, uint32_t plane)
{
    NS_LOG_LOGIC("carrier of path " << path << " (plane " << plane << ") is down");
    PathState& ps = PathRef(path);
    ps.down = 1;
    ps.losses = 0;
    ++ps.epoch;
    ++m_carrierFailures;
    m_carrierTrace(path, plane, false);
    // a copy of the ids: Retire changes the sets
    const std::vector<uint32_t> ids = m_planeIds[plane];
    for (uint32_t other : ids)
    {
        if (m_hot[other].path == path && m_hot[other].set == MrcEvEntry::ACTIVE)
        {
            Retire(other, MrcEvReason::CARRIER_LOSS);
        }
    }
}

void
MrcEvTable::Retire(uint32_t id, MrcEvReason reason)
{
    EvHot& e = m_hot[id];
    if (e.set != MrcEvEntry::ACTIVE)
    {
        return;
    }
    const uint32_t plane = e.plane;
    if (!IsPlaneUp(plane) && reason != MrcEvReason::ALWAYS_SKIP)
    {
        // Q3: losses on a plane whose port is down do not count against its EVs
        NS_LOG_LOGIC("EV " << id << ": loss on down plane " << plane << " ignored");
        return;
    }
    if (m_nActive <= m_evMinActive &&
        (m_backup[plane].empty() || PickBackup(plane, e.path) == m_backup[plane].end()))
    {
        EnterSkip(id, m_ecnSkipTurns, MrcEvReason::MIN_ACTIVE_FLOOR);
        return;
    }
    RemoveFromActive(id);
    e.set = MrcEvEntry::RETIRED;
    EvCold& c = Cold(id);
    ++c.retirements;
    c.probeSuccesses = 0;
    c.probeOutstanding = false;
    e.skipTurns = 0;
    SetState(id, MrcEvState::ASSUMED_BAD, reason);
    Refill(plane, e.path);
    ScheduleProbe(id);
    if (m_retireWholePath && !m_retiringPath && reason != MrcEvReason::ALWAYS_SKIP)
    {
        // the other EVs of this SRv6 carrier take the same links: retire them now rather
        // than lose one packet on each (a copy of the ids: Retire changes the sets)
        m_retiringPath = true;
        const uint32_t path = e.path;
        const std::vector<uint32_t> ids = m_planeIds[plane];
        for (uint32_t other : ids)
        {
            if (other != id && m_hot[other].set == MrcEvEntry::ACTIVE && m_hot[other].path == path)
            {
                Retire(other, reason);
            }
        }
        m_retiringPath = false;
    }
}

std::vector<uint32_t>::iterator
MrcEvTable::PickBackup(uint32_t plane, uint32_t avoidPath)
{
    std::vector<uint32_t>& backup = m_backup[plane];
    if (m_refillAvoidsFailedPaths && !backup.empty())
    {
        // paths with an EV retired for loss or timeout and not yet revived: a backup there
        // (a replica of the same SRv6 carrier) would meet the same failure
        std::vector<uint32_t> bad;
        for (uint32_t id : m_planeIds[plane])
        {
            if (m_hot[id].state == MrcEvState::ASSUMED_BAD)
            {
                bad.push_back(m_hot[id].path);
            }
        }
        auto it = std::find_if(backup.begin(), backup.end(), [this, avoidPath, &bad](uint32_t b) {
            const uint32_t path = m_hot[b].path;
            return path != avoidPath && !IsPathDown(path) &&
                   std::find(bad.begin(), bad.end(), path) == bad.end();
        });
        if (it != backup.end() || m_plane[plane].activeCount > 0)
        {
            return it; // end(): the plane's active set stays short
        }
    }
    // the oldest backup, but not one on the path the retired EV just failed on (a replica
    // of the same SRv6 carrier would fail the same way) unless no other is left; never
    // one of a carrier found dead (CarrierLossEvs): with only those left the plane's
    // active set stays short, and an empty plane is not used until a probe revives an EV
    auto it = std::find_if(backup.begin(), backup.end(), [this, avoidPath](uint32_t b) {
        return m_hot[b].path != avoidPath && !IsPathDown(m_hot[b].path);
    });
    if (it == backup.end())
    {
        it = std::find_if(backup.begin(), backup.end(), [this](uint32_t b) {
            return !IsPathDown(m_hot[b].path);
        });
    }
    return it;
}

void
MrcEvTable::Refill(uint32_t plane, uint32_t avoidPath)
{
    while (m_plane[plane].activeCount < m_plane[plane].target && !m_backup[plane].empty())
    {
        std::vector<uint32_t>& backup = m_backup[plane];
        auto it = PickBackup(plane, avoidPath);
        if (it == backup.end())
        {
            return;
        }
        uint32_t id = *it;
        backup.erase(it);
        m_hot[id].skipTurns = 0;
        if (!m_cold.empty())
        {
            m_cold[id].skipUntil = Time(0);
        }
        AddToActive(id);
        SetState(id, MrcEvState::GOOD, MrcEvReason::PROMOTED);
    }
}

void
MrcEvTable::Place(uint32_t id)
{
    EvHot& e = m_hot[id];
    const uint32_t plane = e.plane;
    if (m_plane[plane].activeCount < m_plane[plane].target)
    {
        AddToActive(id);
    }
    else
    {
        e.set = MrcEvEntry::BACKUP;
        m_backup[plane].push_back(id);
    }
}

// ----- probes -----

void
MrcEvTable::ScheduleProbe(uint32_t id)
{
    EventId& timer = ProbeTimer(id);
    timer.Cancel();
    double factor = 1.0 + m_rng->GetValue(-m_probeJitter, m_probeJitter);
    timer = Simulator::Schedule(Seconds(m_probeInterval.GetSeconds() * factor),
                                &MrcEvTable::SendProbe,
                                this,
                                id);
}

void
MrcEvTable::SendProbe(uint32_t id)
{
    const EvHot& e = m_hot[id];
    if (e.state != MrcEvState::ASSUMED_BAD)
    {
        return;
    }
    if ((m_probeCb.IsNull() && m_probeSender.IsNull()) || !IsPlaneUp(e.plane))
    {
        ScheduleProbe(id); // try again later (Q3: no probes on a down plane)
        return;
    }
    EvCold& c = Cold(id);
    c.probeOutstanding = true;
    ++c.probesSent;
    ProbeTimer(id) = Simulator::Schedule(m_probeTimeout, &MrcEvTable::ProbeTimedOut, this, id);
    if (!m_probeCb.IsNull())
    {
        m_probeCb(id);
    }
    else
    {
        m_probeSender(ChoiceOf(id));
    }
}

void
MrcEvTable::ProbeTimedOut(uint32_t id)
{
    if (m_hot[id].state != MrcEvState::ASSUMED_BAD || !ColdOf(id).probeOutstanding)
    {
        return;
    }
    EvCold& c = Cold(id);
    c.probeOutstanding = false;
    c.probeSuccesses = 0;
    ++c.probeTimeouts;
    ScheduleProbe(id);
}

bool
MrcEvTable::ProbeAnswered(uint32_t ev, MrcPathSignal kind)
{
    const uint32_t id = FindByValue(ev);
    if (id == NO_EV)
    {
        return false;
    }
    const MrcPathFeedback m = kind == MrcPathSignal::GOOD  ? MrcPathFeedback::NONE
                              : kind == MrcPathSignal::ECN ? MrcPathFeedback::SKIP_ONCE
                                                           : MrcPathFeedback::ALWAYS_SKIP;
    return OnProbeAnswer(id, m);
}

bool
MrcEvTable::OnProbeAnswer(uint32_t evId, MrcPathFeedback m)
{
    CheckId(evId);
    const EvHot& e = m_hot[evId];
    NoteCarrierAlive(e.path); // the probe went the whole way and back
    if (e.state != MrcEvState::ASSUMED_BAD || !ColdOf(evId).probeOutstanding)
    {
        return false;
    }
    CancelProbe(evId);
    EvCold& c = Cold(evId);
    c.probeOutstanding = false;
    ++c.probeAnswers;
    if (m == MrcPathFeedback::ALWAYS_SKIP)
    {
        c.probeSuccesses = 0;
        ScheduleProbe(evId);
        return true;
    }
    if (++c.probeSuccesses < m_reviveSuccesses)
    {
        ScheduleProbe(evId);
        return true;
    }
    c.probeSuccesses = 0;
    if (IsPathDown(e.path))
    {
        // the carrier works again: its backups may be promoted, its losses count anew
        PathState& ps = m_pathState[e.path];
        ps.down = 0;
        ps.losses = 0;
        ++ps.epoch;
        m_carrierTrace(e.path, e.plane, true);
    }
    if (m == MrcPathFeedback::SKIP_ONCE)
    {
        m_hot[evId].skipTurns = m_ecnSkipTurns;
        c.skipUntil = MrcNow() + GetSkipTime();
        SetState(evId, MrcEvState::SKIP, MrcEvReason::PROBE_REVIVED);
    }
    else
    {
        SetState(evId, MrcEvState::GOOD, MrcEvReason::PROBE_REVIVED);
    }
    Place(evId);
    // a plane left short while its backups could not be promoted (a dead carrier's, or with
    // RefillAvoidsFailedPaths a failed path's) takes them now that the path works again,
    // rather than at its next retirement
    Refill(e.plane);
    return true;
}

// ----- controller -----

void
MrcEvTable::Deny(uint32_t evId)
{
    CheckId(evId);
    EvHot& e = m_hot[evId];
    const uint32_t plane = e.plane;
    switch (e.set)
    {
    case MrcEvEntry::DENIED:
        return;
    case MrcEvEntry::ACTIVE:
        RemoveFromActive(evId);
        break;
    case MrcEvEntry::BACKUP: {
        auto& q = m_backup[plane];
        q.erase(std::find(q.begin(), q.end(), evId));
        break;
    }
    case MrcEvEntry::RETIRED:
        break;
    }
    const bool wasActive = e.set == MrcEvEntry::ACTIVE;
    CancelProbe(evId);
    if (!m_cold.empty())
    {
        m_cold[evId].probeOutstanding = false;
    }
    e.set = MrcEvEntry::DENIED;
    SetState(evId, MrcEvState::DENIED, MrcEvReason::CONTROLLER_DENY);
    if (wasActive)
    {
        Refill(plane);
    }
}

void
MrcEvTable::Allow(uint32_t evId)
{
    CheckId(evId);
    if (m_hot[evId].set != MrcEvEntry::DENIED)
    {
        return;
    }
    m_hot[evId].skipTurns = 0;
    SetState(evId, MrcEvState::GOOD, MrcEvReason::CONTROLLER_ALLOW);
    Place(evId);
}

bool
MrcEvTable::Replace(uint32_t evId, const MrcEvCandidate& ev)
{
    CheckId(evId);
    EvHot& e = m_hot[evId];
    if (ev.plane != e.plane)
    {
        return false;
    }
    const uint32_t other = FindByValue(ev.value);
    if (other != NO_EV && other != evId)
    {
        return false;
    }
    e.value = ev.value;
    // the index again, with the new value (a controller's call, not a packet's)
    std::fill(m_byValue.begin(), m_byValue.end(), 0);
    for (uint32_t id = 0; id < m_hot.size(); ++id)
    {
        IndexValue(id);
    }
    e.carrier = ev.hasCarrier ? CarrierIndex(ev.carrier) : NO_CARRIER;
    e.skipTurns = 0;
    if (!m_cold.empty())
    {
        m_cold[evId].skipUntil = Time(0);
        m_cold[evId].probeSuccesses = 0;
    }
    if (e.set == MrcEvEntry::RETIRED)
    {
        CancelProbe(evId);
        if (!m_cold.empty())
        {
            m_cold[evId].probeOutstanding = false;
        }
        SetState(evId, MrcEvState::GOOD, MrcEvReason::CONTROLLER_ALLOW);
        Place(evId);
    }
    else if (e.set != MrcEvEntry::DENIED && e.state == MrcEvState::SKIP)
    {
        SetState(evId, MrcEvState::GOOD, MrcEvReason::CONTROLLER_ALLOW);
    }
    return true;
}

} // namespace ns3
