#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The validation suite: run the cases of validation/*.case, compare with the literature.

    scripts/validate.py [--quick] [--case=ID] [--jobs=N] [--reuse] [--no-plots]
                        [--sim=PATH] [--cases=DIR] [--out=DIR] [--list]

Each case names runs of mrc-sim, a metric computed from their result folders, and the
expected value or band with a tolerance (validation/README.md has the format). Every run
is made once per seed of the case ([case] seeds, default 1 2 3; --seed=S is added unless
the run sets its own seed); the metric is computed per seed and the verdict must hold at
every seed. A case's [ablation] (options that turn the tested mechanism off) is run at
every seed too and judged by the same rule: the ablated case fails when the relation fails
at some seed; when it holds at every seed the case is INSENSITIVE. A case whose setup is
declared faithful ([case] faithful = yes) and whose result lies outside its band is
DIVERGES when the case file explains the difference ([case] divergence = ...), else FAIL.

The runner first asks mrc-sim which scenarios exist (--list) and probes every run with its
own options and --checkOnly=1 (every option and input checked, nothing simulated), so a
case that needs a scenario, transport or option that mrc-sim does not have yet is SKIPPED
(when the case declares it in `requires`) instead of failing. Independent runs go in
parallel (--jobs, default: all cores); identical runs (same arguments) are run once and
shared between cases; --reuse keeps the result folder of an identical earlier run instead
of running it again.

Writes OUT/report.md (default results/validation/): the DIVERGES cases first, a summary
table, then a section per case with its seeds, ablation, runs and PNG plots (OUT/plots/,
from the first seed). Exit status 1 when any case FAILs or is INSENSITIVE (an error counts
as a FAIL), 0 otherwise (DIVERGES included), 2 for bad options or a malformed case file.
"""

import configparser
import concurrent.futures
import hashlib
import math
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mrcresults as mr  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RELATIONS = (">=", "<=", "==", "within", "between")


class CaseError(Exception):
    """A malformed case file."""


def fail_usage(msg):
    sys.stderr.write("validate.py: %s\n" % msg)
    sys.exit(2)


# ---------------------------------------------------------------------------
# metrics: f(results, params) -> (value, note). results: list of mr.Result in the
# order of the metric's `runs`; params: the other keys of [metric] as text.

def _flows(results, transport=None):
    for r in results:
        for f in r.flows:
            if transport is None or f["transport"] == transport:
                yield r, f


def _main_receiver(flows):
    """The most common destination (the incast receiver)."""
    count = {}
    for f in flows:
        count[f["dst"]] = count.get(f["dst"], 0) + 1
    if not count:
        raise mr.ResultError("no flows")
    return max(sorted(count), key=lambda d: count[d])


def m_min_flow_rate_fraction(results, p):
    """Smallest ideal_fct/fct over all flows of the runs (1 = line rate; unfinished = 0)."""
    worst = None
    n = 0
    for r, f in _flows(results, p.get("transport")):
        n += 1
        v = mr.flow_rate_fraction(f)
        if worst is None or v < worst[0]:
            worst = (v, r.label, f["flow_id"])
    if worst is None:
        raise mr.ResultError("no flows")
    return worst[0], "%d flows; slowest: flow %s of run %s" % (n, worst[2], worst[1])


def m_min_pair_rate_fraction(results, p):
    """Smallest rate fraction of a sender-receiver pair, all its messages together: the
    pair's bytes over the time from its first start to its last end, against the line rate
    of its messages (bytes / ideal_fct of its largest message); an unfinished message
    makes the pair 0. With one message per pair it equals min_flow_rate_fraction; with n
    equal messages the pair's ideal is n x one message's, whose fixed latency then counts n
    times, so the value is overstated by up to that latency share (1.07 for the fastest of
    8 x 500 KB messages per pair at 100 Gb/s, 1.2 for 16 x 250 KB)."""
    pairs = {}
    for r, f in _flows(results, p.get("transport")):
        pairs.setdefault((r.label, f["src"], f["dst"]), []).append(f)
    if not pairs:
        raise mr.ResultError("no flows")
    worst = None
    for key, fl in sorted(pairs.items()):
        if any(f.get("end_ns") is None for f in fl):
            v = 0.0
        else:
            big = max(fl, key=lambda f: f["bytes"])
            ideal = sum(f["bytes"] for f in fl) * float(big["ideal_fct_ns"]) / big["bytes"]
            span = max(f["end_ns"] for f in fl) - min(f["start_ns"] for f in fl)
            v = ideal / span if span > 0 else 0.0
        if worst is None or v < worst[0]:
            worst = (v, key, len(fl))
    return worst[0], "%d pairs; slowest: %s -> %s of run %s (%d messages)" % (
        len(pairs), worst[1][1], worst[1][2], worst[1][0], worst[2])


def m_fct_us(results, p):
    """A statistic (stat = min, median or max; default median) of the messages' completion
    times in us; with max_bytes only the messages of at most that size count."""
    stat = p.get("stat", "median")
    if stat not in ("min", "median", "max"):
        raise CaseError("fct_us: stat = %r (allowed: min, median, max)" % stat)
    limit = float(p["max_bytes"]) if "max_bytes" in p else None
    v = [f["fct_ns"] / 1e3 for _, f in _flows(results, p.get("transport"))
         if f.get("fct_ns") is not None and (limit is None or f["bytes"] <= limit)]
    if not v:
        raise mr.ResultError("no completed message")
    x = {"min": min, "median": statistics.median, "max": max}[stat](v)
    return x, "%s of %d messages" % (stat, len(v))


def m_victim_rate_fraction(results, p):
    """Mean ideal_fct/fct of the flows that do not go to the incast receiver."""
    vals = []
    for r in results:
        flows = [f for f in r.flows if p.get("transport") in (None, f["transport"])]
        recv = _main_receiver(flows)
        vals += [mr.flow_rate_fraction(f) for f in flows if f["dst"] != recv]
    if not vals:
        raise mr.ResultError("no victim flow (every flow goes to the incast receiver)")
    return sum(vals) / len(vals), "%d victim flow(s)" % len(vals)


def _incast_rates(results, p):
    rates = []
    for r in results:
        flows = [f for f in r.flows if p.get("transport") in (None, f["transport"])]
        recv = _main_receiver(flows)
        for f in flows:
            if f["dst"] == recv:
                rates.append(f["bytes"] * 8.0 / f["fct_ns"] if f.get("fct_ns") else 0.0)
    return rates


def m_jain_fairness(results, p):
    """Jain's index of the incast flows' mean rates (bytes*8/fct); 1 = equal."""
    x = _incast_rates(results, p)
    if not x or sum(x) == 0:
        raise mr.ResultError("no completed incast flow")
    return sum(x) ** 2 / (len(x) * sum(v * v for v in x)), "%d incast flows" % len(x)


def m_fair_share_ratio(results, p):
    """min/max of the incast flows' mean tx_gbps (timeseries) while all of them are active.

    The window starts at converge_fraction (default 0.5) of the way from the last start
    to the first end of these flows, so the first rate cuts are left out."""
    frac = float(p.get("converge_fraction", 0.5))
    worst = None
    for r in results:
        flows = [f for f in r.flows if p.get("transport") in (None, f["transport"])]
        recv = _main_receiver(flows)
        inc = [f for f in flows if f["dst"] == recv]
        t0 = max(f["start_ns"] for f in inc)
        ends = [f["end_ns"] for f in inc if f.get("end_ns") is not None]
        t1 = min(ends) if ends else r.summary["run"].get("simulatedTimeNs", 0)
        lo = t0 + frac * (t1 - t0)
        means = []
        for f in inc:
            ent = "flow%d" % f["flow_id"]
            v = [row["value"] for row in r.timeseries
                 if row["entity"] == ent and row["metric"] == "tx_gbps" and lo <= row["time_ns"] <= t1]
            if not v:
                raise mr.ResultError("%s: no tx_gbps samples of %s in [%d, %d] ns" % (r.label, ent, lo, t1))
            means.append(sum(v) / len(v))
        ratio = min(means) / max(means) if max(means) > 0 else 0.0
        if worst is None or ratio < worst[0]:
            worst = (ratio, r.label, means, lo, t1)
    return worst[0], "run %s: mean Gb/s %s over [%.0f, %.0f] us" % (
        worst[1], ", ".join("%.2f" % m for m in worst[2]), worst[3] / 1e3, worst[4] / 1e3)


def _idle_uplinks(r):
    ups = [link for link in r.links if mr.is_uplink(link)]
    if not ups:
        raise mr.ResultError("%s: links.csv has no T0 -> T1 link" % r.label)
    sizes = [f["bytes"] for f in r.flows]
    # A link that carries only acknowledgements is idle for data: below half a message.
    thresh = 0.5 * min(sizes) if sizes else 1
    return ups, [link for link in ups if link["bytes"] < thresh]


def m_idle_uplink_fraction(results, p):
    """Fraction of T0 -> T1 links that carried less than half of the smallest message."""
    total = idle = 0
    for r in results:
        ups, idl = _idle_uplinks(r)
        total += len(ups)
        idle += len(idl)
    return idle / total, "%d of %d uplinks idle" % (idle, total)


def m_ecmp_idle_theory(results, p):
    """Expected idle-uplink fraction for uniform hashing: mean over T0s of (1-1/n)^m.

    n = uplinks of the T0, m = flows from its hosts to hosts under another T0 (the
    general form of (1-1/n)^n, which tends to 1/e). Needs one plane."""
    vals = []
    for r in results:
        t0_of = mr.host_t0_map(r.links)
        if any(len(v) != 1 for v in t0_of.values()):
            raise mr.ResultError("%s: ecmp_idle_theory needs a one-plane fabric" % r.label)
        ups = [link for link in r.links if mr.is_uplink(link)]
        n_up = {}
        for link in ups:
            n_up[link["from"]] = n_up.get(link["from"], 0) + 1
        m = {t: 0 for t in n_up}
        for f in r.flows:
            a, b = t0_of.get(f["src"], [None])[0], t0_of.get(f["dst"], [None])[0]
            if a is None or b is None:
                raise mr.ResultError("%s: flow %s: host not in links.csv" % (r.label, f["flow_id"]))
            if a != b:
                m[a] = m.get(a, 0) + 1
        for t, n in n_up.items():
            vals += [(1.0 - 1.0 / n) ** m[t]] * n
    return sum(vals) / len(vals), "(1-1/n)^n -> 1/e = %.4f" % math.exp(-1)


def m_fabric_drops(results, p):
    """Packets dropped on fabric links (links.csv drops column), all runs."""
    d = sum(link["drops"] or 0 for r in results for link in r.links)
    return d, "%d links" % sum(len(r.links) for r in results)


def m_link_drops(results, p):
    """Packets dropped on the links from node `from` to node `to` (links.csv rows with those
    from and to columns, every port pair between them), summed over the runs."""
    src, dst = p.get("from"), p.get("to")
    if not src or not dst:
        raise CaseError("link_drops needs from = a node name and to = a node name (links.csv)")
    total, rows = 0, 0
    for r in results:
        for link in r.links:
            if link["from"] == src and link["to"] == dst:
                total += link["drops"] or 0
                rows += 1
    if rows == 0:
        raise mr.ResultError("link_drops: links.csv has no link from %r to %r" % (src, dst))
    return total, "%d link(s) %s -> %s" % (rows, src, dst)


def m_pfc_pause_frames(results, p):
    """PFC pause frames of all transports (summary.json)."""
    return sum(t.get("pfcPauseFrames", 0) for r in results for t in r.transports().values()), ""


def m_interrupted_flows(results, p):
    """Messages that did not complete (a QP in error leaves its message unfinished); when
    every message completed, the qp_error events of events.csv."""
    unfinished = sum(1 for _, f in _flows(results, p.get("transport")) if f.get("end_ns") is None)
    errors = sum(1 for r in results for e in r.events if e["kind"] == "qp_error")
    return (unfinished or errors), "%d unfinished, %d qp_error events" % (unfinished, errors)


def _goodput(r, transport):
    g = r.transport_summary(transport).get("goodputGbps")
    if g is None:
        raise mr.ResultError("%s: no goodput" % r.label)
    return float(g)


def m_goodput_ratio(results, p):
    """goodput of the first run / goodput of the second (summary.json goodputGbps)."""
    if len(results) != 2:
        raise CaseError("goodput_ratio needs runs = A, B")
    a, b = (_goodput(r, p.get("transport")) for r in results)
    return (a / b if b > 0 else float("inf")), "%s %.2f Gb/s, %s %.2f Gb/s" % (
        results[0].label, a, results[1].label, b)


def m_min_goodput_ratio(results, p):
    """Smallest goodput(A)/goodput(B) over consecutive run pairs (A1, B1, A2, B2, ...)."""
    if len(results) % 2 or not results:
        raise CaseError("min_goodput_ratio needs runs in pairs A1, B1, A2, B2, ...")
    ratios = []
    for a, b in zip(results[0::2], results[1::2]):
        ga, gb = _goodput(a, p.get("transport")), _goodput(b, p.get("transport"))
        ratios.append((ga / gb if gb > 0 else float("inf"), "%s/%s %.3f" % (a.label, b.label, ga / gb if gb else 0)))
    return min(ratios)[0], "; ".join(t for _, t in ratios)


def m_goodput_fraction(results, p):
    """goodput (summary.json goodputGbps) / capacity_gbps, smallest over the runs."""
    try:
        cap = float(p["capacity_gbps"])
        if cap <= 0:
            raise ValueError
    except (KeyError, ValueError):
        raise CaseError("goodput_fraction needs capacity_gbps = a positive number")
    vals = [(_goodput(r, p.get("transport")) / cap, r.label) for r in results]
    v = min(vals)
    return v[0], "%s: %.2f of %g Gb/s" % (v[1], v[0] * cap, cap)


def m_transport_counter(results, p):
    """A counter of summary.json's transport section (counter = timeouts, trims, nacks,
    drops, retransmissions, ...), summed over the runs."""
    name = p.get("counter")
    if not name:
        raise CaseError("transport_counter needs counter = a summary.json transport field")
    total = 0
    for r in results:
        v = r.transport_summary(p.get("transport")).get(name)
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            raise mr.ResultError("%s: summary.json has no counter %r" % (r.label, name))
        total += v
    return total, "%s summed over %d run(s)" % (name, len(results))


def m_goodput_vs_expected(results, p):
    """Largest |goodput / expected - 1| over the runs: expected_gbps lists each run's
    expected goodput (summary.json goodputGbps), in the order of the metric's runs."""
    try:
        exp = [float(x) for x in p["expected_gbps"].replace(",", " ").split()]
        if len(exp) != len(results) or min(exp) <= 0:
            raise ValueError
    except (KeyError, ValueError):
        raise CaseError("goodput_vs_expected needs expected_gbps = one positive number per run (%d)" % len(results))
    worst, notes = 0.0, []
    for r, e in zip(results, exp):
        g = _goodput(r, p.get("transport"))
        worst = max(worst, abs(g / e - 1))
        notes.append("%s %.2f of %g Gb/s" % (r.label, g, e))
    return worst, "; ".join(notes)


EV_RE = re.compile(r"\bev (\d+) .*\b([A-Z_]+)->([A-Z_]+) ([A-Z_]+)")


def _ev_records(results, p):
    """(result, time_ns, qp where, ev, from, to, reason) of the ev_state records."""
    out = []
    for r in results:
        for e in (r.events_of(p["transport"]) if p.get("transport") else r.events):
            if e["kind"] != "ev_state":
                continue
            m = EV_RE.search(str(e["detail"]))
            if m:
                out.append((r, e["time_ns"], e["where"], int(m.group(1)), m.group(2), m.group(3), m.group(4)))
    return out


def m_ev_transitions(results, p):
    """Number of ev_state records (events.csv) with the given to-state (to), reason and
    from-state (from_state); each left out matches any."""
    n = sum(1 for _, _, _, _, a, b, why in _ev_records(results, p)
            if p.get("to", b) == b and p.get("reason", why) == why and p.get("from_state", a) == a)
    return n, "ev_state records%s" % "".join(" %s=%s" % (k, p[k]) for k in ("from_state", "to", "reason") if k in p)


def m_ev_revived_fraction(results, p):
    """Share of the entropy values marked ASSUMED_BAD (distinct QP and EV) that a probe
    brought back (ASSUMED_BAD->GOOD or ->SKIP with reason PROBE_REVIVED) afterwards."""
    bad, revived = {}, set()
    for r, t, where, ev, a, b, why in _ev_records(results, p):
        key = (r.label, where, ev)
        if b == "ASSUMED_BAD":
            bad.setdefault(key, t)
        elif a == "ASSUMED_BAD" and why == "PROBE_REVIVED" and key in bad:
            revived.add(key)
    if not bad:
        raise mr.ResultError("no entropy value was marked ASSUMED_BAD")
    return len(revived) / len(bad), "%d of %d EVs marked bad were revived by probes" % (len(revived), len(bad))


def _throughput_around_failure(r, p):
    series = mr.aggregate_series(r.timeseries, p.get("series_metric", "rx_gbps"), "host")
    fail = r.first_failure_ns()
    if fail is None:
        raise mr.ResultError("%s: events.csv has no failure" % r.label)
    if not series:
        raise mr.ResultError("%s: timeseries.csv has no host rx_gbps" % r.label)
    return series, fail


def m_throughput_ratio_after_failure(results, p):
    """Mean aggregate host rx_gbps in [fail+settle, fail+settle+window) / in [fail-window, fail).
    stat = min: the lowest sample of the window after the failure instead of its mean
    (a transient dip within the window counts); after_window_us: the length of that window
    (default window_us)."""
    w = float(p.get("window_us", 100)) * 1e3
    settle = float(p.get("settle_us", 50)) * 1e3
    wa = float(p.get("after_window_us", p.get("window_us", 100))) * 1e3
    stat = p.get("stat", "mean")
    if stat not in ("mean", "min"):
        raise CaseError("throughput_ratio_after_failure: stat = %r (allowed: mean, min)" % stat)
    vals = []
    for r in results:
        series, fail = _throughput_around_failure(r, p)
        before = [v for t, v in series if fail - w <= t < fail]
        after = [v for t, v in series if fail + settle <= t < fail + settle + wa]
        if not before or not after:
            raise mr.ResultError("%s: no samples in the windows around the failure at %d ns" % (r.label, fail))
        a = min(after) if stat == "min" else sum(after) / len(after)
        vals.append(a / (sum(before) / len(before)))
    return min(vals), "per run: " + ", ".join("%.3f" % v for v in vals)


def m_throughput_ratio_vs_control(results, p):
    """Mean aggregate host rx_gbps of run A over mean of run B (runs = A, B) in the same window
    [fail+settle, fail+settle+after_window), fail being run A's first failure (B is the same
    run without it: a control of the same seed)."""
    if len(results) != 2:
        raise CaseError("throughput_ratio_vs_control needs runs = A, B")
    settle = float(p.get("settle_us", 50)) * 1e3
    wa = float(p.get("after_window_us", p.get("window_us", 100))) * 1e3
    series_a, fail = _throughput_around_failure(results[0], p)
    series_b = mr.aggregate_series(results[1].timeseries, p.get("series_metric", "rx_gbps"), "host")
    means = []
    for r, series in ((results[0], series_a), (results[1], series_b)):
        vals = [v for t, v in series if fail + settle <= t < fail + settle + wa]
        if not vals:
            raise mr.ResultError("%s: no samples in [%d, %d) ns" % (r.label, fail + settle, fail + settle + wa))
        means.append(sum(vals) / len(vals))
    a, b = means
    return (a / b if b > 0 else float("inf")), "%s %.1f Gb/s, %s %.1f Gb/s in [%g, %g) us" % (
        results[0].label, a, results[1].label, b, (fail + settle) / 1e3, (fail + settle + wa) / 1e3)


def m_step_tracking_error(results, p):
    """Largest |measured - expected| over the steps of failures made one at a time: for
    step k (the k-th distinct failure time of events.csv), the mean aggregate host rx_gbps
    in [t_k + settle, t_k + settle + after_window) over its mean in the window_us before the
    first failure, against levels (the k-th expected fraction, e.g. "0.75 0.5 0.25");
    after_window_us defaults to the time left until the next step (the last step: window_us).
    The note lists every step's measured fraction."""
    try:
        levels = [float(x) for x in p["levels"].replace(",", " ").split()]
        if not levels:
            raise ValueError
    except (KeyError, ValueError):
        raise CaseError("step_tracking_error needs levels = the expected fraction after each step")
    w = float(p.get("window_us", 100)) * 1e3
    settle = float(p.get("settle_us", 50)) * 1e3
    worst, notes = None, []
    for r in results:
        series = mr.aggregate_series(r.timeseries, p.get("series_metric", "rx_gbps"), "host")
        steps = sorted({e["time_ns"] for e in r.events if e["kind"] in mr.FAILURE_KINDS})
        if len(steps) != len(levels):
            raise mr.ResultError("%s: %d failure times in events.csv, %d levels" % (r.label, len(steps), len(levels)))
        if not series:
            raise mr.ResultError("%s: timeseries.csv has no host rx_gbps" % r.label)
        before = [v for t, v in series if steps[0] - w <= t < steps[0]]
        if not before:
            raise mr.ResultError("%s: no samples before the first failure" % r.label)
        base = sum(before) / len(before)
        got = []
        for k, (t0, level) in enumerate(zip(steps, levels)):
            end = (t0 + settle + float(p["after_window_us"]) * 1e3 if "after_window_us" in p
                   else steps[k + 1] if k + 1 < len(steps) else t0 + settle + w)
            after = [v for t, v in series if t0 + settle <= t < end]
            if not after:
                raise mr.ResultError("%s: no samples after the failure at %d ns" % (r.label, t0))
            f = sum(after) / len(after) / base if base > 0 else 0.0
            got.append("%.3f" % f)
            err = abs(f - level)
            if worst is None or err > worst:
                worst = err
        notes.append("%s: %s (expected %s)" % (r.label, " ".join(got), " ".join("%g" % x for x in levels)))
    return worst, "; ".join(notes)


def m_dip_duration_us(results, p):
    """Time from the failure until aggregate host rx_gbps is back at >= level (0.9) x its
    mean over the window (100 us) before the failure, for hold (3) samples in a row."""
    w = float(p.get("window_us", 100)) * 1e3
    level = float(p.get("level", 0.9))
    hold = int(p.get("hold", 3))
    worst = 0.0
    for r in results:
        series, fail = _throughput_around_failure(r, p)
        before = [v for t, v in series if fail - w <= t < fail]
        if not before:
            raise mr.ResultError("%s: no samples before the failure" % r.label)
        target = level * sum(before) / len(before)
        after = [(t, v) for t, v in series if t >= fail]
        back = None
        for i in range(len(after) - hold + 1):
            if all(v >= target for _, v in after[i:i + hold]):
                back = after[i][0]
                break
        d = float("inf") if back is None else (back - fail) / 1e3
        worst = max(worst, d)
    return worst, "level %.0f%% of the pre-failure mean" % (level * 100)


def _stalls(results, p):
    """(result, flow, max_stall_ns, from_ns) of the flow_stall records (runs with --failLink):
    per message the longest time in which the responder placed no new payload byte."""
    want = p.get("transport")
    out = []
    for r in results:
        ts = list(r.transports())
        for e in r.events:
            if e["kind"] != "flow_stall":
                continue
            kv = dict(x.split("=", 1) for x in str(e["detail"]).split() if "=" in x)
            t = kv.get("transport", ts[0] if len(ts) == 1 else None)
            if want is not None and t != want:
                continue
            out.append((r, e["where"], int(kv["max_stall_ns"]), int(kv["from_ns"])))
    if not out:
        raise mr.ResultError("no flow_stall records%s (runs need --failLink)" % (
            " of transport %s" % want if want else ""))
    return out


def m_max_stall_us(results, p):
    """Longest stall of any message (flow_stall records of events.csv), in us."""
    s = max(_stalls(results, p), key=lambda x: x[2])
    return s[2] / 1e3, "%s of run %s, from %.1f us" % (s[1], s[0].label, s[3] / 1e3)


def m_stall_end_after_failure_us(results, p):
    """Latest end of a message's longest stall, in us after the first failure; only stalls
    of at least min_stall_us (default 0) count."""
    least = float(p.get("min_stall_us", 0)) * 1e3
    cand = [x for x in _stalls(results, p) if x[2] >= least]
    if not cand:
        raise mr.ResultError("no stall of at least %g us" % (least / 1e3))
    s = max(cand, key=lambda x: x[2] + x[3])
    fail = s[0].first_failure_ns()
    if fail is None:
        raise mr.ResultError("%s: events.csv has no failure" % s[0].label)
    return (s[2] + s[3] - fail) / 1e3, "%s of run %s stalled %.1f us from %.1f us (failure at %.1f us)" % (
        s[1], s[0].label, s[2] / 1e3, s[3] / 1e3, fail / 1e3)


def m_mrc_timeout_us(results, p):
    """One MRC timeout, 1.024 us x 2^TimeoutExponent (summary.json options mrcTimeoutNs)."""
    for r in results:
        for k, v in r.summary.get("run", {}).get("options", {}).items():
            if k == "mrcTimeoutNs" or k.endswith(".mrcTimeoutNs"):
                return int(v) / 1e3, "TimeoutExponent of the MRC QPs"
    raise mr.ResultError("no mrcTimeoutNs in summary.json (no MRC run?)")


METRICS = {name[2:]: fn for name, fn in globals().items() if name.startswith("m_") and callable(fn)}


# ---------------------------------------------------------------------------
# case files

SEED_RE = re.compile(r"^--seed(=|$)")


def has_seed(args):
    return any(SEED_RE.match(a) for a in args)


class Run:
    def __init__(self, label, args):
        self.label = label
        self.args = args
        self.key = hashlib.sha1("\0".join(args).encode()).hexdigest()[:10]
        self.folder = None

    @property
    def scenario(self):
        return self.args[0] if self.args and not self.args[0].startswith("-") else "permutation"


class Variant:
    """One set of the case's runs: at one seed, optionally with the ablation's arguments."""

    def __init__(self, seed, runs, ablated):
        self.seed = seed
        self.runs = runs  # list of Run, in the case's order
        self.ablated = ablated

    @property
    def tag(self):
        return ("ablation, seed %d" if self.ablated else "seed %d") % self.seed


YES = ("yes", "true", "1")
NO = ("no", "false", "0")


class Case:
    def __init__(self, path):
        self.path = path
        cp = configparser.ConfigParser(interpolation=None)
        cp.optionxform = str
        try:
            with open(path) as f:
                cp.read_file(f)
        except (OSError, configparser.Error) as e:
            raise CaseError("%s: %s" % (path, e))
        self.cp = cp
        where = os.path.basename(path)

        def get(section, key, default=None):
            if cp.has_option(section, key):
                return cp.get(section, key).strip()
            if default is None:
                raise CaseError("%s: [%s] needs '%s'" % (where, section, key))
            return default

        def flag(section, key):
            v = get(section, key, "no").lower()
            if v not in YES + NO:
                raise CaseError("%s: [%s] %s = %r (allowed: yes, no)" % (where, section, key, v))
            return v in YES

        for s in ("case", "metric", "expect"):
            if not cp.has_section(s):
                raise CaseError("%s: no [%s] section" % (where, s))
        self.id = get("case", "id")
        self.title = get("case", "title")
        self.claim = " ".join(get("case", "claim").split())
        self.source = " ".join(get("case", "source").split())
        self.scaling = " ".join(get("case", "scaling").split())
        q = get("case", "quick", "no").lower()
        if q not in YES + NO:
            raise CaseError("%s: quick = %r (allowed: yes, no)" % (where, q))
        self.quick = q in YES
        self.faithful = flag("case", "faithful")
        self.divergence = " ".join(get("case", "divergence", "").split())
        try:
            self.seeds = [int(x) for x in re.split(r"[\s,]+", get("case", "seeds", "1 2 3")) if x]
            if not self.seeds or any(x < 1 for x in self.seeds) or len(set(self.seeds)) != len(self.seeds):
                raise ValueError
        except ValueError:
            raise CaseError("%s: [case] seeds = %r (distinct positive integers, e.g. 1 2 3)" % (
                where, get("case", "seeds")))
        self.requires = [x for x in re.split(r"[\s,]+", get("case", "requires", "")) if x]
        for item in self.requires:
            if not re.match(r"^(scenario|transport|option):\S+$", item):
                raise CaseError("%s: requires item %r (allowed: scenario:NAME, transport:NAME, option:NAME)"
                                % (where, item))
        try:
            self.timeout = float(get("case", "timeout", "1800"))
        except ValueError:
            raise CaseError("%s: timeout = %r (seconds, a number)" % (where, get("case", "timeout")))
        self.plots = [x for x in re.split(r"[\s,]+", get("case", "plots", "")) if x]
        self.base = []  # (label, args) as written in the case file
        for s in cp.sections():
            if s.startswith("run "):
                label = s[4:].strip()
                try:
                    args = shlex.split(get(s, "args"))
                except ValueError as e:
                    raise CaseError("%s: [%s] args: %s" % (where, s, e))
                # {casedir}: the case file's folder (input files that live beside the case)
                args = [x.replace("{casedir}", os.path.dirname(os.path.abspath(path))) for x in args]
                if any(a.startswith("--out=") or a == "--out" for a in args):
                    raise CaseError("%s: [%s] sets --out (the runner chooses the folder)" % (where, s))
                self.base.append((label, args))
            elif s not in ("case", "metric", "expect", "ablation"):
                raise CaseError("%s: unknown section [%s]" % (where, s))
        if not self.base:
            raise CaseError("%s: no [run LABEL] section" % where)
        labels = [x[0] for x in self.base]
        if len(set(labels)) != len(labels):
            raise CaseError("%s: two runs with the same label" % where)
        self.metric = get("metric", "name")
        if self.metric not in METRICS:
            raise CaseError("%s: unknown metric %r (allowed: %s)" % (where, self.metric, ", ".join(sorted(METRICS))))
        self.metric_runs = [x for x in re.split(r"[\s,]+", get("metric", "runs", " ".join(labels))) if x]
        for x in self.metric_runs:
            if x not in labels:
                raise CaseError("%s: [metric] runs names %r, not a run label" % (where, x))
        self.params = {k: v.strip() for k, v in cp.items("metric") if k not in ("name", "runs")}
        self.parse_ablation(cp, where, labels)
        self.relation = get("expect", "relation")
        if self.relation not in RELATIONS:
            raise CaseError("%s: relation %r (allowed: %s)" % (where, self.relation, ", ".join(RELATIONS)))
        self.value_text = get("expect", "value")
        self.tol_text = get("expect", "tolerance", "0")
        self.published = " ".join(get("expect", "published", "").split())
        try:
            self.expected_fn = None
            if self.value_text.startswith("@"):
                if self.relation == "between" or self.value_text[1:] not in METRICS:
                    raise ValueError("@%s is not a metric (or relation is between)" % self.value_text[1:])
                self.expected_fn = METRICS[self.value_text[1:]]
                self.values = None
            else:
                self.values = [float(x) for x in self.value_text.split(",")]
                if len(self.values) != (2 if self.relation == "between" else 1):
                    raise ValueError("relation %s takes %s value(s)" % (self.relation, 2 if self.relation == "between" else 1))
                if self.relation == "between" and self.values[0] > self.values[1]:
                    raise ValueError("between %g, %g: the lower bound comes first" % tuple(self.values))
            self.tol_rel = self.tol_text.endswith("%")
            self.tol = float(self.tol_text.rstrip("%")) / (100.0 if self.tol_rel else 1.0)
            if self.tol < 0:
                raise ValueError("negative tolerance")
        except ValueError as e:
            raise CaseError("%s: [expect]: %s" % (where, e))
        self.variants = [Variant(s, self.make_runs(s, False), False) for s in self.seeds]
        # the ablation at every seed, judged as the case is (fails when some seed fails)
        self.ablated = [Variant(s, self.make_runs(s, True), True) for s in self.seeds] \
            if self.ablation_args is not None else []

    def parse_ablation(self, cp, where, labels):
        """[ablation]: args (appended to the runs), runs (labels; default all), mechanism
        (what the args switch off), or mechanism = none: REASON alone (no mechanism to ablate)."""
        self.mechanism = None  # None: the case file has no [ablation]
        self.no_ablation_reason = None
        self.ablation_args = None
        self.ablation_runs = []
        if not cp.has_section("ablation"):
            return
        sec = dict((k, v.strip()) for k, v in cp.items("ablation"))
        for k in sec:
            if k not in ("args", "runs", "mechanism"):
                raise CaseError("%s: [ablation] unknown key '%s' (allowed: args, runs, mechanism)" % (where, k))
        mech = " ".join(sec.get("mechanism", "").split())
        if not mech:
            raise CaseError("%s: [ablation] needs 'mechanism' (what the ablation turns off, or none: REASON)" % where)
        self.mechanism = mech
        if mech.lower().startswith("none"):
            reason = mech[4:].lstrip()
            if not reason.startswith(":") or not reason[1:].strip():
                raise CaseError("%s: [ablation] mechanism = %r: write none: REASON" % (where, mech))
            for k in ("args", "runs"):
                if k in sec:
                    raise CaseError("%s: [ablation] '%s' with mechanism = none (nothing to ablate)" % (where, k))
            self.no_ablation_reason = reason[1:].strip()
            return
        if not sec.get("args"):
            raise CaseError("%s: [ablation] needs 'args' (the options that turn the mechanism off)" % where)
        try:
            args = shlex.split(sec["args"])
        except ValueError as e:
            raise CaseError("%s: [ablation] args: %s" % (where, e))
        for a in args:
            if not a.startswith("--") or a.startswith("--out") or SEED_RE.match(a):
                raise CaseError("%s: [ablation] args: %r (options only; not --out or --seed)" % (where, a))
        # {casedir}: as in the runs' args (an input file beside the case, e.g. another flow file)
        self.ablation_args = [x.replace("{casedir}", os.path.dirname(os.path.abspath(self.path))) for x in args]
        self.ablation_runs = [x for x in re.split(r"[\s,]+", sec.get("runs", " ".join(labels))) if x]
        if not self.ablation_runs:
            raise CaseError("%s: [ablation] runs is empty" % where)
        for x in self.ablation_runs:
            if x not in labels:
                raise CaseError("%s: [ablation] runs names %r, not a run label" % (where, x))

    def make_runs(self, seed, ablated):
        out = []
        for label, args in self.base:
            a = list(args)
            if not has_seed(a):
                a.append("--seed=%d" % seed)
            if ablated and label in self.ablation_runs:
                a += self.ablation_args
            out.append(Run(label, a))
        return out

    @property
    def all_variants(self):
        return self.variants + self.ablated

    @property
    def runs(self):
        """Every distinct run of the case (all seeds, the ablation)."""
        seen, out = set(), []
        for v in self.all_variants:
            for r in v.runs:
                if r.key not in seen:
                    seen.add(r.key)
                    out.append(r)
        return out

    def expected_text(self, expected=None):
        if self.relation == "between":
            return "between %g and %g" % tuple(self.values)
        v = expected if expected is not None else (self.values[0] if self.values else None)
        ref = " (%s)" % self.value_text[1:] if self.expected_fn else ""
        sym = {"within": "≈", "==": "="}.get(self.relation, self.relation)
        return "%s %s%s" % (sym, "?" if v is None else fmt(v), ref)

    def band_text(self, expected=None):
        t = self.expected_text(expected)
        if self.tol:
            t += " ± %s" % self.tol_text
        return t

    def ablation_text(self):
        if self.mechanism is None:
            return "no ablation"
        if self.no_ablation_reason is not None:
            return "none: " + self.no_ablation_reason
        return self.mechanism


def fmt(v):
    if isinstance(v, float):
        if math.isinf(v):
            return "inf"
        return "%.4g" % v
    return str(v)


def judge(case, measured, expected):
    """PASS or FAIL of a measured value against the case's relation."""
    if case.relation == "between":
        lo, hi = case.values
        tl = case.tol * abs(lo) if case.tol_rel else case.tol
        th = case.tol * abs(hi) if case.tol_rel else case.tol
        return lo - tl <= measured <= hi + th
    t = case.tol * abs(expected) if case.tol_rel else case.tol
    if case.relation == ">=":
        return measured >= expected - t
    if case.relation == "<=":
        return measured <= expected + t
    return abs(measured - expected) <= t  # within, ==


def load_cases(folder):
    if not os.path.isdir(folder):
        fail_usage("no case folder %s" % folder)
    cases = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".case"):
            cases.append(Case(os.path.join(folder, name)))
    ids = [c.id for c in cases]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise CaseError("case id used twice: %s" % ", ".join(dup))
    return cases


# ---------------------------------------------------------------------------
# running mrc-sim

def first_error_line(text):
    """The line of mrc-sim's output that says what went wrong, without the list of allowed
    options that may follow it."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    pick = next((ln for ln in lines if "error" in ln.lower() or "not a scenario" in ln or "allowed" in ln),
                lines[-1] if lines else "(no message)")
    if "(allowed: --" in pick:
        pick = pick[:pick.index("(allowed: --")].rstrip()
    return pick[:300]


def list_scenarios(sim):
    try:
        p = subprocess.run([sim, "--list"], capture_output=True, text=True, timeout=120)
    except OSError as e:
        return None, "cannot run %s: %s" % (sim, e)
    if p.returncode != 0:
        return None, "%s --list exited %d: %s" % (sim, p.returncode, first_error_line(p.stderr + p.stdout))
    return {ln.split()[0] for ln in p.stdout.splitlines() if ln.strip()}, None


def probe(sim, run, folder):
    """Check the run's options without simulating (--checkOnly=1): (returncode, message)."""
    os.makedirs(folder, exist_ok=True)
    try:
        p = subprocess.run([sim] + run.args + ["--checkOnly=1", "--out=" + folder],
                           capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        return -1, str(e)
    return p.returncode, first_error_line(p.stderr + p.stdout)


def execute(sim, run, folder, timeout, reuse):
    """Run mrc-sim into folder: None on success (exit 0 or 1 with summary.json), else a message."""
    argfile = os.path.join(folder, "validate-args.txt")
    want = shlex.join(run.args) + "\n"
    if reuse and os.path.exists(os.path.join(folder, "summary.json")) and os.path.exists(argfile):
        with open(argfile) as f:
            if f.read() == want:
                return None
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    log = folder + ".log"  # beside the folder: mrc-sim may replace the folder
    try:
        with open(log, "w") as lf:
            p = subprocess.run([sim] + run.args + ["--out=" + folder], stdout=lf, stderr=subprocess.STDOUT,
                               timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timed out after %g s (log: %s)" % (timeout, log)
    except OSError as e:
        return "cannot run %s: %s" % (sim, e)
    with open(log) as f:
        text = f.read()
    if p.returncode not in (0, 1):
        return "mrc-sim exited %d: %s (log: %s)" % (p.returncode, first_error_line(text), log)
    if not os.path.exists(os.path.join(folder, "summary.json")):
        return "mrc-sim wrote no summary.json (log: %s)" % log
    with open(argfile, "w") as f:
        f.write(want)
    return None


def requirement_matches(item, message):
    kind, name = item.split(":", 1)
    low = message.lower()
    if kind == "transport":
        return "transport" in low and name.lower() in low
    return name.lower() in low


class Outcome:
    def __init__(self, case):
        self.case = case
        self.verdict = None
        self.per_seed = []  # (seed, measured, expected, passed, note)
        self.note = ""
        self.ablation = None  # [(seed, measured, passed, note)] of the ablated runs, or an error text
        self.plots = []

    @property
    def measured_values(self):
        return [m for _, m, _, _, _ in self.per_seed if m is not None]

    @property
    def expected(self):
        e = [x for _, _, x, _, _ in self.per_seed if x is not None]
        return e[0] if e else None

    def spread(self):
        """(min, median, max) of the measured values over the seeds, or None."""
        v = self.measured_values
        if not v:
            return None
        return min(v), statistics.median(v), max(v)

    def spread_text(self):
        s = self.spread()
        if s is None:
            return "-"
        if len(self.measured_values) == 1:
            return fmt(s[0])
        return "%s / %s / %s" % tuple(fmt(x) for x in s)

    def ablation_passes(self):
        """True when the ablated case holds at every seed (the metric ignores the mechanism)."""
        return isinstance(self.ablation, list) and all(ok for _, _, ok, _ in self.ablation)

    def ablation_result_text(self):
        c = self.case
        if not c.ablated:
            return c.ablation_text()
        if self.ablation is None:
            return "not run"
        if isinstance(self.ablation, str):
            return "error: " + self.ablation
        values = [m for _, m, _, _ in self.ablation]
        text = fmt(values[0]) if len(values) == 1 else "%s / %s / %s" % (
            fmt(min(values)), fmt(statistics.median(values)), fmt(max(values)))
        if self.ablation_passes():
            return text + " still passes"
        failed = [s for s, _, ok, _ in self.ablation if not ok]
        if len(self.ablation) == 1:
            return text + " fails"
        return "%s fails at seed%s %s" % (text, "s" if len(failed) > 1 else "", ", ".join(map(str, failed)))


def availability(case, scenarios, list_error, probes):
    """None when the case can run, else (verdict, reason)."""
    if list_error:
        return list_error
    for run in case.runs:
        if run.scenario not in scenarios:
            if "scenario:" + run.scenario in case.requires:
                return "SKIPPED", "not yet available: scenario '%s'" % run.scenario
            return "FAIL", "run %s: mrc-sim has no scenario '%s'" % (run.label, run.scenario)
    for run in case.runs:
        rc, msg = probes[run.key]
        if rc in (0, 1):
            continue
        if rc == 2:
            for item in case.requires:
                if requirement_matches(item, msg):
                    return "SKIPPED", "not yet available: %s (mrc-sim: %s)" % (item, msg)
            return "FAIL", "run %s: mrc-sim rejected the options: %s" % (run.label, msg)
        return "FAIL", "run %s: probe exited %d: %s" % (run.label, rc, msg)
    return None


def measure(case, variant):
    """(measured, expected, passed, note) of the case's metric on one variant's runs."""
    byl = {r.label: r for r in variant.runs}
    results = [mr.Result(byl[x].folder, x) for x in case.metric_runs]
    measured, note = METRICS[case.metric](results, case.params)
    expected = case.expected_fn(results, case.params)[0] if case.expected_fn else (
        case.values[0] if case.relation != "between" else None)
    return measured, expected, judge(case, measured, expected), note


def evaluate(case, plotdir, errors=None):
    """The verdict of a case whose runs are done; errors: run key -> message of failed runs."""
    errors = errors or {}
    o = Outcome(case)
    broken = None
    for v in case.variants:
        bad = [(r.label, errors[r.key]) for r in v.runs if errors.get(r.key)]
        if bad:
            o.per_seed.append((v.seed, None, None, False, "run %s: %s" % bad[0]))
            broken = broken or "%s: run %s: %s" % (v.tag, bad[0][0], bad[0][1])
            continue
        try:
            m, e, ok, note = measure(case, v)
            o.per_seed.append((v.seed, m, e, ok, note))
        except Exception as e:  # noqa: BLE001 -- a broken result fails its case, not the suite
            msg = "error computing %s: %s: %s" % (case.metric, type(e).__name__, e)
            o.per_seed.append((v.seed, None, None, False, msg))
            broken = broken or "%s: %s" % (v.tag, msg)
    failed = [s for s, _, _, ok, _ in o.per_seed if not ok]
    if broken:
        o.verdict, o.note = "FAIL", broken
    elif not failed:
        o.verdict = "PASS"
        o.note = o.per_seed[0][4]
    else:
        where = "outside the band at seed%s %s" % ("s" if len(failed) > 1 else "", ", ".join(map(str, failed)))
        if case.faithful and case.divergence:
            o.verdict, o.note = "DIVERGES", where
        elif case.faithful:
            o.verdict, o.note = "FAIL", where + "; DIVERGES without a measured explanation (no divergence text)"
        else:
            o.verdict, o.note = "FAIL", where
    if case.ablated:
        o.ablation = []
        for v in case.ablated:
            bad = [(r.label, errors[r.key]) for r in v.runs if errors.get(r.key)]
            if bad:
                o.ablation = "%s: run %s: %s" % (v.tag, bad[0][0], bad[0][1])
                break
            try:
                m, _, ok, note = measure(case, v)
                o.ablation.append((v.seed, m, ok, note))
            except Exception as e:  # noqa: BLE001
                o.ablation = "%s: error computing %s: %s: %s" % (v.tag, case.metric, type(e).__name__, e)
                break
        if isinstance(o.ablation, str):
            if o.verdict in ("PASS", "DIVERGES"):
                o.verdict, o.note = "FAIL", "ablation: " + o.ablation
        elif o.ablation_passes() and o.verdict == "PASS":
            o.verdict = "INSENSITIVE"
            o.note = "still passes with the ablation (%s) at every seed: measured %s" % (
                " ".join(case.ablation_args), " / ".join(fmt(m) for _, m, _, _ in o.ablation))
    if case.plots and plotdir:
        try:
            import plot
            all_results = [mr.Result(r.folder, r.label) for r in case.variants[0].runs]
            o.plots = plot.case_plots(case.plots, all_results, plotdir, case.id)
        except Exception as e:  # a plot problem must not hide the verdict
            o.note += "; plots failed: %s" % e
    return o


# ---------------------------------------------------------------------------
# report

VERDICTS = ("PASS", "DIVERGES", "INSENSITIVE", "FAIL", "SKIPPED")


def md(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def write_report(path, outcomes, sim, quick):
    rel = os.path.dirname(path)
    n = {v: sum(1 for o in outcomes if o.verdict == v) for v in VERDICTS}
    lines = ["# ns3-mrc validation report", "",
             "Simulator: `%s`; set: %s; %s." % (
                 os.path.relpath(sim, ROOT) if sim.startswith(ROOT) else sim,
                 "quick" if quick else "all",
                 ", ".join("%d %s" % (n[v], v) for v in ("PASS", "FAIL", "SKIPPED", "DIVERGES", "INSENSITIVE"))), "",
             "A case runs at each of its seeds and its verdict must hold at every one (the spread is "
             "min / median / max over the seeds). A case that names an ablation (the option that "
             "turns its mechanism off) runs it at every seed and judges it by the same rule: the ablated "
             "case must fail (at some seed), else it is INSENSITIVE (counted as a FAIL). DIVERGES: a faithful setup whose result "
             "lies outside the band, with a measured explanation in the case file (not a FAIL).", ""]
    div = [o for o in outcomes if o.verdict == "DIVERGES"]
    if div:
        lines += ["## Diverging from the publication", ""]
        for o in div:
            c = o.case
            lines.append("- **%s**: measured %s, band %s%s. %s" % (
                c.id, o.spread_text(), c.band_text(o.expected),
                ("; published %s" % c.published) if c.published else "", c.divergence))
        lines.append("")
    lines += ["| Case | Claim | Seeds | Measured (min / median / max) | Band | Published | Ablation | Verdict |",
              "|---|---|---|---|---|---|---|---|"]
    for o in outcomes:
        c = o.case
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            md(c.id), md(c.title), " ".join(map(str, c.seeds)), o.spread_text(),
            md(c.band_text(o.expected)), md(c.published or "-"),
            md(o.ablation_result_text() if c.ablated else
               ("none" if c.no_ablation_reason is not None else "no ablation")),
            o.verdict + (" (%s)" % md(o.note.split(" (mrc-sim:")[0]) if o.verdict == "SKIPPED" else "")))
    for o in outcomes:
        c = o.case
        lines += ["", "## %s: %s" % (c.id, c.title), "",
                  "- **Verdict:** %s%s" % (o.verdict, (" — " + md(o.note)) if o.note else ""),
                  "- **Claim:** %s" % c.claim, "- **Source:** %s" % c.source,
                  "- **Setup differences:** %s%s" % (c.scaling, " (faithful setup)" if c.faithful else ""),
                  "- **Band:** %s%s" % (c.band_text(o.expected),
                                        ("; published: %s" % c.published) if c.published else ""),
                  "- **Metric:** `%s` over runs %s%s" % (c.metric, ", ".join(c.metric_runs),
                                                       (" (" + ", ".join("%s=%s" % kv for kv in sorted(c.params.items())) + ")") if c.params else ""),
                  "- **Seeds:** %s; result spread (min / median / max): %s" % (
                      " ".join(map(str, c.seeds)), o.spread_text())]
        for seed, m, e, ok, note in o.per_seed:
            lines.append("  - seed %d: %s%s%s" % (
                seed, "-" if m is None else fmt(m), " (expected %s)" % fmt(e) if c.expected_fn and e is not None else "",
                (" %s — %s" % ("pass" if ok else "fail", md(note))) if note or m is not None else ""))
        if c.ablated:
            lines.append("- **Ablation:** %s: `%s` on runs %s (every seed): %s" % (
                c.mechanism, " ".join(c.ablation_args), ", ".join(c.ablation_runs),
                md(o.ablation_result_text())))
            if isinstance(o.ablation, list):
                for seed, m, ok, note in o.ablation:
                    lines.append("  - ablated, seed %d: %s %s%s" % (
                        seed, fmt(m), "pass" if ok else "fail", (" — " + md(note)) if note else ""))
        else:
            lines.append("- **Ablation:** %s" % c.ablation_text())
        if c.divergence:
            lines.append("- **Divergence (measured):** %s" % c.divergence)
        lines.append("- **Runs** (each gets --seed=S of the seed unless it sets its own):")
        for label, args in c.base:
            lines.append("  - `%s`: `mrc-sim %s`" % (label, shlex.join(args)))
        for p in o.plots:
            lines += ["", "![%s](%s)" % (os.path.basename(p), os.path.relpath(p, rel))]
    os.makedirs(rel, exist_ok=True)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


# ---------------------------------------------------------------------------

def parse_args(argv):
    opts = {"quick": False, "case": None, "jobs": os.cpu_count() or 1, "reuse": False,
            "sim": os.path.join(ROOT, "build", "examples", "mrc-sim"),
            "cases": os.path.join(ROOT, "validation"),
            "out": os.path.join(ROOT, "results", "validation"), "list": False, "no-plots": False}
    for a in argv:
        name, eq, val = a.partition("=")
        key = name[2:] if name.startswith("--") else None
        if key in ("quick", "reuse", "list", "no-plots") and not eq:
            opts[key] = True
        elif key in ("case", "sim", "cases", "out") and eq and val:
            opts[key] = val
        elif key == "jobs" and eq:
            try:
                opts["jobs"] = int(val)
                if opts["jobs"] < 1:
                    raise ValueError
            except ValueError:
                fail_usage("--jobs=%r: a positive integer" % val)
        elif a in ("-h", "--help"):
            print(__doc__.strip())
            sys.exit(0)
        else:
            fail_usage("unknown option '%s' (allowed: --quick, --case=ID, --jobs=N, --reuse, --sim=PATH, "
                       "--cases=DIR, --out=DIR, --list, --no-plots)" % a)
    return opts


def main(argv):
    o = parse_args(argv)
    try:
        cases = load_cases(o["cases"])
    except CaseError as e:
        fail_usage(str(e))
    if o["list"]:
        for c in cases:
            print("%-34s %-5s %s" % (c.id, "quick" if c.quick else "", c.title))
        return 0
    if o["case"]:
        cases = [c for c in cases if c.id == o["case"]]
        if not cases:
            fail_usage("--case=%s: no such case (see --list)" % o["case"])
    elif o["quick"]:
        cases = [c for c in cases if c.quick]
    out, sim = os.path.abspath(o["out"]), os.path.abspath(o["sim"])
    rundir, plotdir = os.path.join(out, "runs"), os.path.join(out, "plots")
    os.makedirs(plotdir, exist_ok=True)

    if not os.access(sim, os.X_OK):
        scenarios, list_error = set(), ("SKIPPED", "not yet available: %s is not built" % sim)
    else:
        scenarios, err = list_scenarios(sim)
        list_error = ("FAIL", err) if err else None
    folders = {}  # identical arguments share one folder, named after the first label
    for c in cases:
        for r in (r for v in c.all_variants for r in v.runs):
            r.folder = folders.setdefault(
                r.key, os.path.join(rundir, "%s-%s" % (re.sub(r"[^A-Za-z0-9_.-]", "_", r.label), r.key)))
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=o["jobs"])
    probes = {}
    if not list_error:
        wanted = {r.key: r for c in cases for r in c.runs if r.scenario in scenarios}
        futs = {k: pool.submit(probe, sim, r, os.path.join(out, "probes", k)) for k, r in wanted.items()}
        probes = {k: f.result() for k, f in futs.items()}
        shutil.rmtree(os.path.join(out, "probes"), ignore_errors=True)

    outcomes, pending = [], []
    for c in cases:
        why = availability(c, scenarios, list_error, probes)
        if why:
            oc = Outcome(c)
            oc.verdict, oc.note = why
            outcomes.append(oc)
        else:
            pending.append(c)
    needed = {}
    for c in pending:
        for r in c.runs:
            t = max(c.timeout, needed[r.key][1]) if r.key in needed else c.timeout
            needed[r.key] = (r, t)
    print("validate: %d case(s), %d to run (%d mrc-sim runs on %d workers)" % (
        len(cases), len(pending), len(needed), o["jobs"]), flush=True)
    futs = {k: pool.submit(execute, sim, r, r.folder, t, o["reuse"]) for k, (r, t) in needed.items()}
    errors = {}
    for k, f in futs.items():
        errors[k] = f.result()
        print("  run %-28s %s" % (needed[k][0].label, errors[k] or "done"), flush=True)
    pool.shutdown()
    for c in pending:
        outcomes.append(evaluate(c, None if o["no-plots"] else plotdir, errors))
    order = {c.id: i for i, c in enumerate(cases)}
    outcomes.sort(key=lambda x: order[x.case.id])
    report = os.path.join(out, "report.md")
    write_report(report, outcomes, sim, o["quick"] and not o["case"])
    for oc in outcomes:
        print("%-11s %-38s %s" % (oc.verdict, oc.case.id,
                                  ("measured %s, band %s, ablation: %s" % (
                                      oc.spread_text(), oc.case.band_text(oc.expected), oc.ablation_result_text()))
                                  if oc.measured_values else oc.note))
    div = [oc.case.id for oc in outcomes if oc.verdict == "DIVERGES"]
    if div:
        print("DIVERGES (not a failure; see the report): %s" % ", ".join(div))
    print("report: %s" % report)
    return 1 if any(oc.verdict in ("FAIL", "INSENSITIVE") for oc in outcomes) else 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
