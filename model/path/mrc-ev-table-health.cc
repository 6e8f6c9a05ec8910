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
    MrcEvEntry& e = m_evs[id];
    if (m_skipMode == SKIP_ROTATION)
    {
        m_hot[id].skipTurns = std::max(m_hot[id].skipTurns, turns);
    }
    else
    {
        e.skipUntil = std::max(e.skipUntil, MrcNow() + GetSkipTime());
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
    MrcEvEntry& e = m_evs[id];
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
        ++e.ecnEchoes;
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
    MrcEvEntry& e = m_evs[id];
    NoteCarrierAlive(e.path); // the trimmed header went the whole way
    if (e.set != MrcEvEntry::ACTIVE)
    {
        return;
    }
    ++e.trims;
    EnterSkip(id, m_trimSkipTurns, MrcEvReason::TRIM_NACK);
}

void
MrcEvTable::ApplyLoss(uint32_t id, MrcEvReason reason, bool carrierCounts)
{
    m_lastLost = id;
    if (m_evs[id].set == MrcEvEntry::ACTIVE)
    {
        ++m_evs[id].timeouts;
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
    if (m_carrierLossEvs == 0 || m_pathLosses[path] == 0)
    {
        return;
    }
    // a new count: every EV of the path may count again; a suspect carrier is cleared
    m_pathLosses[path] = 0;
    ++m_pathEpoch[path];
    m_pathConfirm[path].Cancel();
}

void
MrcEvTable::CountCarrierLoss(uint32_t id)
{
    MrcEvEntry& e = m_evs[id];
    const uint32_t path = e.path;
    if (m_pathDown[path] || !IsPlaneUp(e.ev.plane))
    {
        return; // already down; or Q3: a loss on a down plane says nothing of the path
    }
    const Time now = MrcNow();
    if (m_pathLosses[path] > 0 && m_carrierLossWindow.IsStrictlyPositive() &&
        now - m_pathFirstLoss[path] > m_carrierLossWindow)
    {
        m_pathLosses[path] = 0; // too old: start again
        ++m_pathEpoch[path];
    }
    if (e.carrierEpoch == m_pathEpoch[path])
    {
        return; // this EV was counted already
    }
    e.carrierEpoch = m_pathEpoch[path];
    if (m_pathLosses[path]++ == 0)
    {
        m_pathFirstLoss[path] = now;
    }
    if (m_pathLosses[path] >= m_carrierLossEvs && m_pathConfirm[path].IsExpired())
    {
        SuspectCarrier(path, id);
    }
}

void
MrcEvTable::SuspectCarrier(uint32_t path, uint32_t id)
{
    const uint32_t plane = m_evs[id].ev.plane;
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
        if (m_evs[other].path == path && m_hot[other].set == MrcEvEntry::ACTIVE &&
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
    m_pathConfirm[path] = Simulator::Schedule(wait, &MrcEvTable::ConfirmCarrier, this, path, plane);
}

void
MrcEvTable::ConfirmCarrier(uint32_t path, uint32_t plane)
{
    if (m_pathLosses[path] >= m_carrierLossEvs && !m_pathDown[path])
    {
        RetireCarrier(path, plane);
    }
}

void
MrcEvTable::RetireCarrier(uint32_t path, uint32_t plane)
{
    NS_LOG_LOGIC("carrier of path " << path << " (plane " << plane << ") is down");
    m_pathDown[path] = 1;
    m_pathLosses[path] = 0;
    ++m_pathEpoch[path];
    ++m_carrierFailures;
    m_carrierTrace(path, plane, false);
    // a copy of the ids: Retire changes the sets
    const std::vector<uint32_t> ids = m_planeIds[plane];
    for (uint32_t other : ids)
    {
        if (m_evs[other].path == path && m_evs[other].set == MrcEvEntry::ACTIVE)
        {
            Retire(other, MrcEvReason::CARRIER_LOSS);
        }
    }
}

void
MrcEvTable::Retire(uint32_t id, MrcEvReason reason)
{
    MrcEvEntry& e = m_evs[id];
    if (e.set != MrcEvEntry::ACTIVE)
    {
        return;
    }
    const uint32_t plane = e.ev.plane;
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
    m_hot[id].set = MrcEvEntry::RETIRED;
    ++e.retirements;
    e.probeSuccesses = 0;
    e.probeOutstanding = false;
    m_hot[id].skipTurns = 0;
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
            if (other != id && m_evs[other].set == MrcEvEntry::ACTIVE && m_evs[other].path == path)
            {
                Retire(other, reason);
            }
        }
        m_retiringPath = false;
    }
}

std::deque<uint32_t>::iterator
MrcEvTable::PickBackup(uint32_t plane, uint32_t avoidPath)
{
    std::deque<uint32_t>& backup = m_backup[plane];
    if (m_refillAvoidsFailedPaths && !backup.empty())
    {
        // paths with an EV retired for loss or timeout and not yet revived: a backup there
        // (a replica of the same SRv6 carrier) would meet the same failure
        std::vector<uint32_t> bad;
        for (uint32_t id : m_planeIds[plane])
        {
            if (m_evs[id].state == MrcEvState::ASSUMED_BAD)
            {
                bad.push_back(m_evs[id].path);
            }
        }
        auto it = std::find_if(backup.begin(), backup.end(), [this, avoidPath, &bad](uint32_t b) {
            const uint32_t path = m_evs[b].path;
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
        return m_evs[b].path != avoidPath && !IsPathDown(m_evs[b].path);
    });
    if (it == backup.end())
    {
        it = std::find_if(backup.begin(), backup.end(), [this](uint32_t b) {
            return !IsPathDown(m_evs[b].path);
        });
    }
    return it;
}

void
MrcEvTable::Refill(uint32_t plane, uint32_t avoidPath)
{
    while (m_plane[plane].activeCount < m_plane[plane].target && !m_backup[plane].empty())
    {
        std::deque<uint32_t>& backup = m_backup[plane];
        auto it = PickBackup(plane, avoidPath);
        if (it == backup.end())
        {
            return;
        }
        uint32_t id = *it;
        backup.erase(it);
        MrcEvEntry& b = m_evs[id];
        m_hot[id].skipTurns = 0;
        b.skipUntil = Time(0);
        AddToActive(id);
        SetState(id, MrcEvState::GOOD, MrcEvReason::PROMOTED);
    }
}

void
MrcEvTable::Place(uint32_t id)
{
    MrcEvEntry& e = m_evs[id];
    const uint32_t plane = e.ev.plane;
    if (m_plane[plane].activeCount < m_plane[plane].target)
    {
        AddToActive(id);
    }
    else
    {
        e.set = MrcEvEntry::BACKUP;
        m_hot[id].set = MrcEvEntry::BACKUP;
        m_backup[plane].push_back(id);
    }
}

// ----- probes -----

void
MrcEvTable::ScheduleProbe(uint32_t id)
{
    MrcEvEntry& e = m_evs[id];
    e.probeEvent.Cancel();
    double factor = 1.0 + m_rng->GetValue(-m_probeJitter, m_probeJitter);
    e.probeEvent = Simulator::Schedule(Seconds(m_probeInterval.GetSeconds() * factor),
                                       &MrcEvTable::SendProbe,
                                       this,
                                       id);
}

void
MrcEvTable::SendProbe(uint32_t id)
{
    MrcEvEntry& e = m_evs[id];
    if (e.state != MrcEvState::ASSUMED_BAD)
    {
        return;
    }
    if ((m_probeCb.IsNull() && m_probeSender.IsNull()) || !IsPlaneUp(e.ev.plane))
    {
        ScheduleProbe(id); // try again later (Q3: no probes on a down plane)
        return;
    }
    e.probeOutstanding = true;
    ++e.probesSent;
    e.probeEvent = Simulator::Schedule(m_probeTimeout, &MrcEvTable::ProbeTimedOut, this, id);
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
    MrcEvEntry& e = m_evs[id];
    if (e.state != MrcEvState::ASSUMED_BAD || !e.probeOutstanding)
    {
        return;
    }
    e.probeOutstanding = false;
    e.probeSuccesses = 0;
    ++e.probeTimeouts;
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
    MrcEvEntry& e = m_evs[evId];
    NoteCarrierAlive(e.path); // the probe went the whole way and back
    if (e.state != MrcEvState::ASSUMED_BAD || !e.probeOutstanding)
    {
        return false;
    }
    e.probeEvent.Cancel();
    e.probeOutstanding = false;
    ++e.probeAnswers;
    if (m == MrcPathFeedback::ALWAYS_SKIP)
    {
        e.probeSuccesses = 0;
        ScheduleProbe(evId);
        return true;
    }
    if (++e.probeSuccesses < m_reviveSuccesses)
    {
        ScheduleProbe(evId);
        return true;
    }
    e.probeSuccesses = 0;
    if (IsPathDown(e.path))
    {
        // the carrier works again: its backups may be promoted, its losses count anew
        m_pathDown[e.path] = 0;
        m_pathLosses[e.path] = 0;
        ++m_pathEpoch[e.path];
        m_carrierTrace(e.path, e.ev.plane, true);
    }
    if (m == MrcPathFeedback::SKIP_ONCE)
    {
        m_hot[evId].skipTurns = m_ecnSkipTurns;
        e.skipUntil = MrcNow() + GetSkipTime();
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
    Refill(e.ev.plane);
    return true;
}

// ----- controller -----

void
MrcEvTable::Deny(uint32_t evId)
{
    CheckId(evId);
    MrcEvEntry& e = m_evs[evId];
    const uint32_t plane = e.ev.plane;
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
    e.probeEvent.Cancel();
    e.probeOutstanding = false;
    e.set = MrcEvEntry::DENIED;
    m_hot[evId].set = MrcEvEntry::DENIED;
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
    if (m_evs[evId].set != MrcEvEntry::DENIED)
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
    MrcEvEntry& e = m_evs[evId];
    if (ev.plane != e.ev.plane)
    {
        return false;
    }
    const uint32_t* other = m_byValue.Find(ev.value);
    if (other && *other != evId)
    {
        return false;
    }
    m_byValue.Erase(e.ev.value);
    m_byValue.Insert(ev.value, evId);
    e.ev = ev;
    m_hot[evId].skipTurns = 0;
    e.skipUntil = Time(0);
    e.probeSuccesses = 0;
    if (e.set == MrcEvEntry::RETIRED)
    {
        e.probeEvent.Cancel();
        e.probeOutstanding = false;
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
