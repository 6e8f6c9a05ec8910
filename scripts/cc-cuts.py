#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Why senders finished when they did: the congestion-control cuts of a run, by cause and
by where the flows go.

Reads an mrc-sim result folder written with ``--maxCcEvents=N`` (the ``cc_cut`` lines of
events.csv: one per NSCC window cut, ``CAUSE cwnd BEFORE->AFTER`` in bytes, or per DCQCN
rate cut, ``CAUSE rate BEFORE->AFTER`` in bit/s), flows.csv and links.csv (which host hangs
under which T0), and prints:

- every cause: cuts, the mean share kept (AFTER / BEFORE);
- the flows that cross T0s, grouped by how many such flows their source T0 sends and their
  destination T0 receives (the load on the two tiers they cross): flows, FCT mean and max,
  decreases per flow and their mean factor (NSCC's MULTIPLICATIVE_DECREASE, DCQCN's
  DECREASE), trim cuts per flow (NSCC's TRIM_NACK).

A flow's cuts are those of its source host's requesters (``where`` = ``host<i>:qp<n>``,
every queue pair of the host), so the grouping assumes one destination per source host (a
permutation); the lanes of a pair (``--qpsPerPair=N``) are one flow, which ends with its last
lane.

  ./ns3-mrc run perm128-mrc --maxCcEvents=100000
  scripts/cc-cuts.py results/perm128-mrc [--transport=mrc]
  ./ns3-mrc run perm128-roce --maxCcEvents=100000
  scripts/cc-cuts.py results/perm128-roce --transport=roce
"""

import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mrcresults as mr  # noqa: E402


def parse_cut(detail):
    """(cause, before, after) of a cc_cut detail, or None when malformed."""
    words = (detail or "").split()
    if len(words) != 3 or words[1] not in ("cwnd", "rate") or "->" not in words[2]:
        return None
    before, after = words[2].split("->", 1)
    try:
        return words[0], int(before), int(after)
    except ValueError:
        return None


DECREASES = ("MULTIPLICATIVE_DECREASE", "DECREASE")  # NSCC's and DCQCN's


def cuts_by_host(events, transport):
    """host index -> list of (cause, before, after)."""
    out = collections.defaultdict(list)
    for e in mr.rows_of(events, transport):
        if e.get("kind") != "cc_cut":
            continue
        cut = parse_cut(e.get("detail"))
        host = mr.host_index((e.get("where") or "").split(":")[0])
        if cut is None or host is None:
            raise mr.ResultError("malformed cc_cut line: where %r, detail %r" % (e.get("where"), e.get("detail")))
        out[host].append(cut)
    return out


def t0_of(host_t0, host):
    """The T0 index of a host (its plane-0 T0), or None."""
    names = host_t0.get(host)
    if not names:
        return None
    sid = mr.switch_id(sorted(names)[0])
    return sid[2] if sid else None


def analyse(result, transport):
    """The report's rows: (causes, groups). causes: cause -> (cuts, mean kept); groups:
    (cross-T0 flows the source T0 sends, those the destination T0 receives) -> figures."""
    # one flow per source and destination: the lanes of a pair (--qpsPerPair) are one flow,
    # which ends with its last lane
    pairs = {}
    for f in mr.rows_of(result.flows, transport):
        if f.get("fct_ns"):
            key = (f["src"], f["dst"])
            if key not in pairs or f["fct_ns"] > pairs[key]["fct_ns"]:
                pairs[key] = f
    flows = list(pairs.values())
    cuts = cuts_by_host(result.events, transport)
    if not cuts:
        raise mr.ResultError("%s: no cc_cut lines for %s (run mrc-sim with --maxCcEvents=N)"
                             % (result.label, transport))
    causes = {}
    for cause in sorted({c for v in cuts.values() for c, _, _ in v}):
        kept = [a / b for v in cuts.values() for c, b, a in v if c == cause and b > 0]
        causes[cause] = (len(kept), sum(kept) / len(kept) if kept else 0.0)
    host_t0 = mr.host_t0_map(result.links)
    cross = []
    for f in flows:
        s, d = t0_of(host_t0, f["src"]), t0_of(host_t0, f["dst"])
        if s is not None and d is not None and s != d:
            cross.append((f, s, d))
    outgoing = collections.Counter(s for _, s, _ in cross)
    incoming = collections.Counter(d for _, _, d in cross)
    groups = {}
    for key in sorted({(outgoing[s], incoming[d]) for _, s, d in cross}, reverse=True):
        members = [f for f, s, d in cross if (outgoing[s], incoming[d]) == key]
        fct = [f["fct_ns"] / 1000.0 for f in members]
        md = [a / b for f in members for c, b, a in cuts.get(f["src"], []) if c in DECREASES]
        trims = sum(1 for f in members for c, _, _ in cuts.get(f["src"], []) if c == "TRIM_NACK")
        groups[key] = {"flows": len(members), "fctMeanUs": sum(fct) / len(fct), "fctMaxUs": max(fct),
                     "mdPerFlow": len(md) / len(members), "mdFactor": sum(md) / len(md) if md else 1.0,
                     "trimCutsPerFlow": trims / len(members)}
    return causes, groups


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("result", help="an mrc-sim result folder (--out)")
    ap.add_argument("--transport", default="mrc", help="transport of the rows to read [mrc]")
    args = ap.parse_args(argv)
    try:
        causes, groups = analyse(mr.Result(args.result), args.transport)
    except mr.ResultError as e:
        print("cc-cuts.py: %s" % e, file=sys.stderr)
        return 2
    print("%-26s %8s %10s" % ("cause", "cuts", "mean kept"))
    for cause, (n, kept) in causes.items():
        print("%-26s %8d %10.3f" % (cause, n, kept))
    print("\ncross-T0 flows, by the cross-T0 flows of their source T0 (out) and destination T0 (in)")
    print("%-10s %6s %10s %10s %8s %10s %10s" % ("out / in", "flows", "FCT mean", "FCT max", "dec/flow",
                                                 "dec factor", "trims/flow"))
    for (o, i), g in groups.items():
        print("%-10s %6d %7.1f us %7.1f us %8.2f %10.3f %10.1f" % (
            "%d / %d" % (o, i), g["flows"], g["fctMeanUs"], g["fctMaxUs"], g["mdPerFlow"], g["mdFactor"],
            g["trimCutsPerFlow"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
