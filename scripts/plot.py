#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plots and tables from mrc-sim result folders (the files of design.md section 4).

    scripts/plot.py DIR [DIR ...] [--out=DIR] [--kinds=K1,K2,...] [--bins=N]

DIR is a result folder (summary.json, flows.csv, ...); several folders are compared in
one figure, labelled by folder name (DIR=LABEL sets the label). Kinds:

  fct_cdf        CDF of the flow completion times, one curve per folder and transport
  slowdown       slowdown by flow size in the HPCC style: flows sorted by size, cut into
                 --bins (20) bins of equal count; per bin the size upper bound and the
                 median, p95 and p99 slowdown (printed, and written as slowdown-LABEL.md)
  throughput     aggregate host receive rate over time (timeseries.csv rx_gbps) and the
                 per-flow tx rate, failures and repairs of events.csv as vertical lines
  utilization    mean utilization per plane and per T0 -> T1 uplink (links.csv); prints
                 the uplink spread: max |bytes - mean| / mean over the uplinks (mean of
                 the uplinks of the same T0), and over the T1 switches (uplink bytes
                 summed per T1)
  rate_fraction  ideal_fct / fct of every flow (1 = line rate), sorted
  goodput        goodput per folder and transport (summary.json)

Default kinds: fct_cdf, slowdown, throughput, utilization. PNGs go to --out (default:
the first folder). Needs Debian's python3-matplotlib; exit 2 on bad options.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mrcresults as mr  # noqa: E402

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

KINDS = ("fct_cdf", "slowdown", "throughput", "utilization", "rate_fraction", "goodput")
DEFAULT_KINDS = ("fct_cdf", "slowdown", "throughput", "utilization")


def _legend(ax):
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=7)


def _save(fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def _by_transport(flows):
    out = {}
    for f in flows:
        out.setdefault(f["transport"], []).append(f)
    return out


def fct_cdf(results, path):
    fig, ax = plt.subplots(figsize=(6, 4))
    for r in results:
        for t, flows in sorted(_by_transport(r.flows).items()):
            fct = sorted(f["fct_ns"] / 1e3 for f in flows if f.get("fct_ns") is not None)
            if not fct:
                continue
            y = [(i + 1) / len(flows) for i in range(len(fct))]  # unfinished flows keep it < 1
            ax.step(fct, y, where="post", label="%s %s" % (r.label, t))
    ax.set_xlabel("flow completion time (us)")
    ax.set_ylabel("fraction of flows")
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3)
    _legend(ax)
    return _save(fig, path)


def slowdown_table(flows, bins=20):
    """HPCC-style slowdown by size: flows sorted by size (ties by flow id), cut into `bins`
    bins of equal count (bin i holds sorted flows floor(i*n/bins) .. floor((i+1)*n/bins)-1);
    per non-empty bin (size upper bound, count, median, p95, p99) of the slowdown, each
    percentile the element at floor(q * count) of the bin's sorted slowdowns. Unfinished
    flows (no slowdown) are left out."""
    done = sorted((f for f in flows if f.get("slowdown") is not None), key=lambda f: (f["bytes"], f["flow_id"]))
    n = len(done)
    rows = []
    for i in range(bins):
        part = done[i * n // bins:(i + 1) * n // bins]
        if not part:
            continue
        s = sorted(f["slowdown"] for f in part)
        pick = [s[min(len(s) - 1, int(q * len(s)))] for q in (0.5, 0.95, 0.99)]
        rows.append((part[-1]["bytes"], len(s), pick[0], pick[1], pick[2]))
    return rows


def slowdown_markdown(rows, title):
    lines = ["### Slowdown by flow size: %s" % title, "",
             "| size <= (bytes) | flows | median | p95 | p99 |", "|---:|---:|---:|---:|---:|"]
    lines += ["| %d | %d | %.3f | %.3f | %.3f |" % r for r in rows]
    return "\n".join(lines) + "\n"


def throughput(results, path):
    fig, ax = plt.subplots(figsize=(7, 4))
    marked = set()
    for r in results:
        agg = mr.aggregate_series(r.timeseries, "rx_gbps", "host")
        if agg:
            ax.plot([t / 1e3 for t, _ in agg], [v for _, v in agg], label="%s all hosts rx" % r.label)
        flows = sorted({(row["transport"], row["entity"]) for row in r.timeseries
                        if row["metric"] == "tx_gbps" and row["entity"].startswith("flow")})
        if len(flows) <= 8:  # per-flow curves only when readable
            for t, ent in flows:
                s = [(row["time_ns"], row["value"]) for row in r.timeseries
                     if row["entity"] == ent and row["metric"] == "tx_gbps" and row["transport"] == t]
                ax.plot([a / 1e3 for a, _ in s], [b for _, b in s], lw=0.8, alpha=0.7,
                        label="%s %s %s tx" % (r.label, t, ent))
        for e in r.events:
            if e["kind"] in mr.FAILURE_KINDS + mr.REPAIR_KINDS and (e["time_ns"], e["kind"]) not in marked:
                marked.add((e["time_ns"], e["kind"]))
                fail = e["kind"] in mr.FAILURE_KINDS
                ax.axvline(e["time_ns"] / 1e3, color="red" if fail else "green", ls="--", lw=1)
                ax.annotate(e["kind"], (e["time_ns"] / 1e3, 1), xycoords=("data", "axes fraction"),
                            rotation=90, va="top", ha="right", fontsize=7)
    ax.set_xlabel("time (us)")
    ax.set_ylabel("Gb/s")
    ax.grid(alpha=0.3)
    _legend(ax)
    return _save(fig, path)


def uplink_spread(links):
    """Spread of the T0 -> T1 uplinks' bytes: (uplinks, per uplink, per T1). Per uplink:
    max |x - m| / m over the uplinks, m = the mean of the uplinks of the same T0 (so that
    T0s sending different amounts do not count as imbalance; idle T0s are left out). Per
    T1: the same over the uplink bytes summed per T1 switch. None when nothing was sent."""
    ups = [link for link in links if mr.is_uplink(link)]
    per_t0, per_t1 = {}, {}
    for u in ups:
        per_t0.setdefault(u["from"], []).append(u["bytes"] or 0)
        t1 = mr.switch_id(u["to"])
        per_t1[t1] = per_t1.get(t1, 0) + (u["bytes"] or 0)

    def dev(v):
        m = sum(v) / len(v) if v else 0
        return max(abs(x - m) / m for x in v) if m > 0 else None

    d_up = [d for d in (dev(v) for v in per_t0.values()) if d is not None]
    return len(ups), max(d_up) if d_up else None, dev(list(per_t1.values()))


def utilization(results, path):
    """Left: mean utilization of the links of each plane (grouped bars, one per folder).
    Right: T0 -> T1 uplinks, as bars by name for one folder with up to 32 uplinks, else
    as sorted curves (one per folder; the idle uplinks are the flat start)."""
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4))
    w = 0.8 / max(1, len(results))
    planes_seen = set()
    ups_all = [sorted((link for link in r.links if mr.is_uplink(link)), key=lambda x: (x["from"], x["to"]))
               for r in results]
    as_bars = len(results) == 1 and len(ups_all[0]) <= 32
    for k, (r, ups) in enumerate(zip(results, ups_all)):
        per_plane = {}
        for link in r.links:
            p = mr.link_plane(link)
            if p is not None and link.get("utilization") is not None:
                per_plane.setdefault(p, []).append(link["utilization"])
        planes = sorted(per_plane)
        planes_seen.update(planes)
        a1.bar([p - 0.4 + w * (k + 0.5) for p in planes],
               [sum(per_plane[p]) / len(per_plane[p]) for p in planes], width=w, label=r.label)
        util = [u["utilization"] or 0 for u in ups]
        n, d_up, d_t1 = uplink_spread(r.links)
        if d_up is not None:
            print("%s: %d T0 -> T1 uplinks, max deviation from the mean bytes %.1f%% per uplink "
                  "(mean of its T0), %.1f%% per T1" % (r.label, n, 100 * d_up, 100 * d_t1))
        if as_bars:
            a2.bar(range(len(ups)), util, label=r.label)
            a2.set_xticks(range(len(ups)))
            a2.set_xticklabels(["%s>%s" % (u["from"], u["to"]) for u in ups], rotation=90, fontsize=6)
        else:
            a2.step(range(len(util)), sorted(util), where="mid", label=r.label)
    a1.set_xticks(sorted(planes_seen))
    a1.set_xlabel("plane")
    a1.set_ylabel("mean link utilization")
    a2.set_xlabel("T0 -> T1 uplink" + ("" if as_bars else " (sorted by utilization)"))
    a2.set_ylabel("utilization")
    for a in (a1, a2):
        a.grid(alpha=0.3, axis="y")
        _legend(a)
    return _save(fig, path)


def rate_fraction(results, path):
    fig, ax = plt.subplots(figsize=(6, 4))
    for r in results:
        for t, flows in sorted(_by_transport(r.flows).items()):
            v = sorted(mr.flow_rate_fraction(f) for f in flows)
            ax.plot(range(len(v)), v, marker=".", label="%s %s" % (r.label, t))
    ax.axhline(0.5, color="grey", ls=":", lw=1)
    ax.axhline(1 / 3, color="grey", ls=":", lw=1)
    ax.set_xlabel("flow (sorted)")
    ax.set_ylabel("ideal fct / fct (fraction of line rate)")
    ax.set_ylim(0, 1.05)
    ax.grid(alpha=0.3)
    _legend(ax)
    return _save(fig, path)


def goodput(results, path):
    fig, ax = plt.subplots(figsize=(max(5, 0.8 * len(results) + 2), 4))
    names, vals = [], []
    for r in results:
        for t, s in sorted(r.transports().items()):
            names.append("%s\n%s" % (r.label, t))
            vals.append(s.get("goodputGbps") or 0)
    ax.bar(range(len(vals)), vals)
    ax.set_xticks(range(len(vals)))
    ax.set_xticklabels(names, fontsize=7)
    ax.set_ylabel("goodput (Gb/s)")
    ax.grid(alpha=0.3, axis="y")
    return _save(fig, path)


PLOTTERS = {"fct_cdf": fct_cdf, "throughput": throughput, "utilization": utilization,
            "rate_fraction": rate_fraction, "goodput": goodput}


def case_plots(kinds, results, outdir, prefix):
    """Draw each kind for the results into outdir/PREFIX-KIND.png; returns the paths."""
    os.makedirs(outdir, exist_ok=True)
    paths = []
    for k in kinds:
        if k not in PLOTTERS:
            raise ValueError("unknown plot kind %r (allowed: %s)" % (k, ", ".join(sorted(PLOTTERS))))
        paths.append(PLOTTERS[k](results, os.path.join(outdir, "%s-%s.png" % (prefix, k))))
    return paths


def main(argv):
    dirs, out, kinds, bins = [], None, list(DEFAULT_KINDS), 20
    for a in argv:
        if a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        if a.startswith("--out="):
            out = a[6:]
        elif a.startswith("--kinds="):
            kinds = [k for k in a[8:].split(",") if k]
            bad = [k for k in kinds if k not in KINDS]
            if bad or not kinds:
                sys.stderr.write("plot.py: unknown kind(s) %s (allowed: %s)\n" % (", ".join(bad) or "''", ", ".join(KINDS)))
                return 2
        elif a.startswith("--bins="):
            try:
                bins = int(a[7:])
                if bins < 1:
                    raise ValueError
            except ValueError:
                sys.stderr.write("plot.py: --bins=%s: a positive integer\n" % a[7:])
                return 2
        elif a.startswith("-"):
            sys.stderr.write("plot.py: unknown option '%s' (allowed: --out=DIR, --kinds=LIST, --bins=N)\n" % a)
            return 2
        else:
            dirs.append(a)
    if not dirs:
        sys.stderr.write("plot.py: name at least one result folder\n")
        return 2
    results = []
    for d in dirs:
        path, _, label = d.partition("=")
        if not os.path.isdir(path):
            sys.stderr.write("plot.py: %s is not a folder\n" % path)
            return 2
        results.append(mr.Result(path, label or None))
    out = out or dirs[0].partition("=")[0]
    os.makedirs(out, exist_ok=True)
    try:
        for k in kinds:
            if k == "slowdown":
                for r in results:
                    text = slowdown_markdown(slowdown_table(r.flows, bins), r.label)
                    print(text)
                    with open(os.path.join(out, "slowdown-%s.md" % r.label), "w") as f:
                        f.write(text)
            else:
                print(PLOTTERS[k](results, os.path.join(out, "%s.png" % k)))
    except mr.ResultError as e:
        sys.stderr.write("plot.py: %s\n" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
