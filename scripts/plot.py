#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plots and tables from mrc-sim result folders (the files of design.md section 4).

    scripts/plot.py DIR [DIR ...] [--out=DIR] [--kinds=K1,K2,...] [--bins=N]

DIR is a result folder (summary.json, flows.csv, ...); several folders are compared in
one figure, labelled by folder name (DIR=LABEL sets the label). Transports are never
added together: every figure has one curve, bar or panel per (folder, transport), and
the figures over time (each transport's run starts at 0) have one panel per transport.
Kinds:

  fct_cdf        CDF of the flow completion times, one curve per folder and transport
  slowdown       slowdown by flow size in the HPCC style, per folder and transport: flows
                 sorted by size, cut into --bins (20) bins of equal count; per bin the size
                 upper bound and the median, p95 and p99 slowdown (printed, and written as
                 slowdown-LABEL.md, one table per transport)
  throughput     receive rate of all hosts over time (timeseries.csv rx_gbps), one panel
                 per transport; per-flow tx rate when there are at most 8 flows; the
                 incast victim's tx rate in bold; failures and repairs (events.csv) as
                 vertical lines
  utilization    mean link utilization per plane and per T0 -> T1 uplink (links.csv), one
                 bar or curve per folder and transport; prints the uplink spread: max
                 |bytes - mean| / mean over the uplinks (mean of the uplinks of the same
                 T0), and over the T1 switches (uplink bytes summed per T1)
  queue          switch egress queue depth over time (queue_bytes), the 8 deepest ports
                 per transport panel
  cwnd           congestion window per flow over time (cwnd_bytes), victim in bold
  rate           congestion-control rate per flow over time (rate_gbps), victim in bold
  pfc            ports paused by PFC over time (TRANSPORT/pfc.txt), per transport panel
  rate_fraction  ideal_fct / fct of every flow (1 = line rate), sorted
  goodput        goodput per folder and transport (summary.json)

Default kinds: fct_cdf, slowdown, throughput, utilization, queue, cwnd, rate, pfc (a
panel without data says so). Each plot is written as
KIND.png (300 dpi) and KIND.pdf into --out (default: the first folder). Needs Debian's
python3-matplotlib for plots (without it: a message and exit 3; the slowdown tables
still work); exit 2 on bad options.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mrcresults as mr  # noqa: E402

KINDS = ("fct_cdf", "slowdown", "throughput", "utilization", "queue", "cwnd", "rate", "pfc",
         "rate_fraction", "goodput")
DEFAULT_KINDS = ("fct_cdf", "slowdown", "throughput", "utilization", "queue", "cwnd", "rate", "pfc")

DPI = 300
# One style for every figure: readable at print size (legends >= 9 pt).
STYLE = {"font.size": 10, "axes.titlesize": 11, "axes.labelsize": 10, "xtick.labelsize": 9,
         "ytick.labelsize": 9, "legend.fontsize": 9, "figure.titlesize": 12, "lines.linewidth": 1.4,
         "axes.grid": True, "grid.alpha": 0.3, "savefig.dpi": DPI, "pdf.fonttype": 42}
VICTIM_COLOR = "#d62728"
FAIL_COLOR = "#d62728"
REPAIR_COLOR = "#2ca02c"
MAX_LINES = 8  # per-entity curves per panel
# Colours of the other curves: the tab10 cycle without its red (the victim's colour).
OTHER_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
                "#bcbd22", "#17becf")

plt = None


class NoMatplotlib(Exception):
    """matplotlib is not installed."""


def _pyplot():
    """matplotlib.pyplot with the Agg backend and our style; NoMatplotlib without it."""
    global plt
    if plt is None:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as pyplot
        except ImportError as e:
            raise NoMatplotlib("matplotlib is not installed (%s); on Debian: apt-get install "
                               "python3-matplotlib. No plot was drawn." % e)
        pyplot.rcParams.update(STYLE)
        plt = pyplot
    return plt


def _legend(ax, **kw):
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=9, **kw)


def _save(fig, path):
    """Write PATH (a .png, 300 dpi) and the same figure as .pdf; return the PNG path."""
    fig.tight_layout()
    base = os.path.splitext(path)[0]
    fig.savefig(base + ".png", dpi=DPI)
    fig.savefig(base + ".pdf")
    plt.close(fig)
    return base + ".png"


def _by_transport(flows):
    out = {}
    for f in flows:
        out.setdefault(f["transport"], []).append(f)
    return out


def _scenarios(results):
    names = []
    for r in results:
        try:
            s = r.scenario()
        except mr.ResultError:
            s = ""
        if s and s not in names:
            names.append(s)
    return ", ".join(names) or "mrc-sim"


def _panels(results):
    """(result, transport) of every folder and transport, in order."""
    out = []
    for r in results:
        names = r.transport_names()
        if not names:  # a summary without transports: the transports of flows.csv
            names = sorted(_by_transport(r.flows))
        out += [(r, t) for t in names]
    return out


def _title(results, what, transports=None):
    t = "scenario %s: %s" % (_scenarios(results), what)
    return t + (" (%s)" % ", ".join(transports) if transports else "")


def _mark_failures(ax, r, transport):
    """Vertical lines at the failures (red) and repairs (green) of a transport's run."""
    seen = set()
    for t_ns, kind, fail in r.failure_times_ns(transport):
        if (t_ns, kind) in seen:
            continue
        seen.add((t_ns, kind))
        ax.axvline(t_ns / 1e3, color=FAIL_COLOR if fail else REPAIR_COLOR, ls="--", lw=1.2)
        ax.annotate(kind, (t_ns / 1e3, 0.98), xycoords=("data", "axes fraction"), rotation=90,
                    va="top", ha="right", fontsize=9, color=FAIL_COLOR if fail else REPAIR_COLOR)


def _series(rows, transport, metric):
    """{entity: [(t_ns, value)]} of one transport's metric."""
    out = {}
    for row in mr.rows_of(rows, transport):
        if row["metric"] == metric:
            out.setdefault(row["entity"], []).append((row["time_ns"], float(row["value"])))
    return out


def _faceted(results, what, draw, ylabel, has, missing):
    """One panel per (folder, transport), stacked; draw(ax, r, transport) draws a panel
    for which has(r, transport) is true, the others say `missing`. Returns the figure."""
    panels = _panels(results)
    p = _pyplot()
    fig, axes = p.subplots(max(1, len(panels)), 1, figsize=(8.5, 2.6 * max(1, len(panels)) + 0.6),
                           squeeze=False)
    for ax, (r, t) in zip(axes[:, 0], panels):
        ax.set_prop_cycle(color=OTHER_COLORS)
        if has(r, t):
            draw(ax, r, t)
        else:
            ax.text(0.5, 0.5, missing, transform=ax.transAxes, ha="center", va="center")
            end = r.transports().get(t, {}).get("simulatedTimeNs")
            if end:
                ax.set_xlim(0, end / 1e3)
        _mark_failures(ax, r, t)
        ax.set_title("%s, %s" % (r.label, t) if len(results) > 1 else t)
        ax.set_ylabel(ylabel)
        ax.set_xlabel("simulated time (us)")
        _legend(ax, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    fig.suptitle(_title(results, what))
    return fig


def fct_cdf(results, path):
    p = _pyplot()
    fig, ax = p.subplots(figsize=(6.4, 4.2))
    for r in results:
        for t, flows in sorted(_by_transport(r.flows).items()):
            fct = sorted(f["fct_ns"] / 1e3 for f in flows if f.get("fct_ns") is not None)
            if not fct:
                continue
            y = [(i + 1) / len(flows) for i in range(len(fct))]  # unfinished flows keep it < 1
            ax.step(fct, y, where="post", label="%s, %s" % (r.label, t) if len(results) > 1 else t)
    ax.set_xlabel("flow completion time (us)")
    ax.set_ylabel("fraction of flows")
    ax.set_ylim(0, 1.02)
    ax.set_title(_title(results, "FCT CDF"))
    _legend(ax)
    return _save(fig, path)


def slowdown_table(flows, bins=20):
    """HPCC-style slowdown by size: flows sorted by size (ties by flow id), cut into `bins`
    bins of equal count (bin i holds sorted flows floor(i*n/bins) .. floor((i+1)*n/bins)-1);
    per non-empty bin (size upper bound, count, median, p95, p99) of the slowdown, each
    percentile the element at floor(q * count) of the bin's sorted slowdowns. Unfinished
    flows (no slowdown) are left out. Give it the flows of one transport."""
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


def slowdown_tables(r, bins=20):
    """The slowdown tables of one folder, one per transport (never pooled)."""
    parts = []
    by_t = _by_transport(r.flows)
    for t in [x for x in r.transport_names() if x in by_t] + sorted(set(by_t) - set(r.transport_names())):
        parts.append(slowdown_markdown(slowdown_table(by_t[t], bins), "%s, %s" % (r.label, t)))
    return "\n".join(parts)


def host_rx(r, transport):
    """Receive rate of all hosts of one transport's run over time: [(t_ns, Gb/s)]."""
    return mr.aggregate_series(mr.rows_of(r.timeseries, transport), "rx_gbps", "host")


def throughput(results, path):
    def has(r, t):
        return any(row["metric"] == "rx_gbps" for row in mr.rows_of(r.timeseries, t))

    def draw(ax, r, t):
        rows = mr.rows_of(r.timeseries, t)
        agg = host_rx(r, t)
        ax.plot([a / 1e3 for a, _ in agg], [v for _, v in agg], color="black", label="all hosts, rx")
        victim = r.victim_flow(t)
        flows = _series(rows, t, "tx_gbps")
        flows = {e: s for e, s in flows.items() if e.startswith("flow")}
        show = sorted(flows, key=lambda e: int(e[4:])) if len(flows) <= MAX_LINES else []
        if victim is not None and "flow%d" % victim in flows and "flow%d" % victim not in show:
            show.append("flow%d" % victim)
        for e in show:
            s = flows[e]
            v = victim is not None and e == "flow%d" % victim
            ax.plot([a / 1e3 for a, _ in s], [b for _, b in s], lw=2.2 if v else 0.9,
                    color=VICTIM_COLOR if v else None, alpha=1 if v else 0.7,
                    label="%s tx (victim)" % e if v else "%s tx" % e, zorder=3 if v else 2)
        return True

    fig = _faceted(results, "host receive throughput per transport", draw, "throughput (Gb/s)", has,
                   "no rx_gbps samples in this run")
    return _save(fig, path)


def _per_entity(metric, what, ylabel, scale, top_by_peak):
    def has(r, t):
        return any(row["metric"] == metric for row in mr.rows_of(r.timeseries, t))

    def draw(ax, r, t):
        series = _series(r.timeseries, t, metric)
        victim = r.victim_flow(t)
        vname = None if victim is None else "flow%d" % victim
        if top_by_peak:
            names = sorted(series, key=lambda e: (-max(v for _, v in series[e]), e))[:MAX_LINES]
        else:
            names = sorted(series, key=lambda e: (len(e), e))
            if len(names) > MAX_LINES:
                names = [n for n in names[:MAX_LINES] if n != vname]
        if vname in series and vname not in names:
            names.append(vname)
        for e in names:
            s = series[e]
            v = e == vname
            ax.step([a / 1e3 for a, _ in s], [b * scale for _, b in s], where="post",
                    lw=2.2 if v else 1.0, color=VICTIM_COLOR if v else None,
                    label=e + (" (victim)" if v else ""), zorder=3 if v else 2)
        if len(series) > len(names):
            ax.text(0.01, 0.97, "%d of %d shown" % (len(names), len(series)), transform=ax.transAxes,
                    va="top", fontsize=9)
        return True

    def plot(results, path):
        fig = _faceted(results, what, draw, ylabel, has, "no %s samples in this run" % metric)
        return _save(fig, path)

    return plot


queue = _per_entity("queue_bytes", "switch egress queue depth (deepest ports)", "queue (KB)", 1e-3, True)
cwnd = _per_entity("cwnd_bytes", "congestion window per flow", "cwnd (KB)", 1e-3, False)
rate = _per_entity("rate_gbps", "congestion-control rate per flow", "rate (Gb/s)", 1.0, False)


def pfc(results, path):
    def draw(ax, r, t):
        paused, n, xs, ys = set(), 0, [0.0], [0]
        for e in sorted(r.pfc(t), key=lambda e: e["time_ns"]):
            key = (e["node"], e["if_index"])
            if e["type"] == 1:
                paused.add(key)
            else:
                paused.discard(key)
            n = len(paused)
            xs.append(e["time_ns"] / 1e3)
            ys.append(n)
        ax.step(xs, ys, where="post", color="#1f77b4", label="paused ports")
        return True

    fig = _faceted(results, "ports paused by PFC", draw, "paused ports", lambda r, t: bool(r.pfc(t)),
                   "no PFC pause in this run")
    return _save(fig, path)


def uplink_spread(links):
    """Spread of the T0 -> T1 uplinks' bytes: (uplinks, per uplink, per T1). Per uplink:
    max |x - m| / m over the uplinks, m = the mean of the uplinks of the same T0 (so that
    T0s sending different amounts do not count as imbalance; idle T0s are left out). Per
    T1: the same over the uplink bytes summed per T1 switch. None when nothing was sent.
    Give it the links of one transport."""
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
    """Left: mean utilization of the links of each plane (grouped bars, one per folder and
    transport). Right: T0 -> T1 uplinks, as bars by name for one (folder, transport) with
    up to 32 uplinks, else as sorted curves (the idle uplinks are the flat start)."""
    p = _pyplot()
    panels = _panels(results)
    fig, (a1, a2) = p.subplots(1, 2, figsize=(11, 4.4))
    w = 0.8 / max(1, len(panels))
    planes_seen = set()
    links_of = [mr.rows_of(r.links, t) for r, t in panels]
    ups_all = [sorted((link for link in ls if mr.is_uplink(link)), key=lambda x: (x["from"], x["to"]))
               for ls in links_of]
    as_bars = len(panels) == 1 and len(ups_all[0]) <= 32
    for k, ((r, t), links, ups) in enumerate(zip(panels, links_of, ups_all)):
        label = "%s, %s" % (r.label, t) if len(results) > 1 else t
        per_plane = {}
        for link in links:
            pl = mr.link_plane(link)
            if pl is not None and link.get("utilization") is not None:
                per_plane.setdefault(pl, []).append(link["utilization"])
        planes = sorted(per_plane)
        planes_seen.update(planes)
        a1.bar([pl - 0.4 + w * (k + 0.5) for pl in planes],
               [sum(per_plane[pl]) / len(per_plane[pl]) for pl in planes], width=w, label=label)
        util = [u["utilization"] or 0 for u in ups]
        n, d_up, d_t1 = uplink_spread(links)
        if d_up is not None:
            print("%s: %d T0 -> T1 uplinks, max deviation from the mean bytes %.1f%% per uplink "
                  "(mean of its T0), %.1f%% per T1" % (label, n, 100 * d_up, 100 * d_t1))
        if as_bars:
            a2.bar(range(len(ups)), util, label=label)
            a2.set_xticks(range(len(ups)))
            a2.set_xticklabels(["%s>%s" % (u["from"], u["to"]) for u in ups], rotation=90, fontsize=7)
        else:
            a2.step(range(len(util)), sorted(util), where="mid", label=label)
    a1.set_xticks(sorted(planes_seen))
    a1.set_xlabel("plane")
    a1.set_ylabel("mean link utilization (fraction of line rate)")
    a2.set_xlabel("T0 -> T1 uplink" + ("" if as_bars else " (sorted by utilization)"))
    a2.set_ylabel("utilization (fraction of line rate)")
    for a in (a1, a2):
        a.grid(alpha=0.3, axis="y")
        _legend(a)
    fig.suptitle(_title(results, "link utilization"))
    return _save(fig, path)


def rate_fraction(results, path):
    p = _pyplot()
    fig, ax = p.subplots(figsize=(6.4, 4.2))
    for r in results:
        for t, flows in sorted(_by_transport(r.flows).items()):
            v = sorted(mr.flow_rate_fraction(f) for f in flows)
            ax.plot(range(len(v)), v, marker=".", label="%s, %s" % (r.label, t) if len(results) > 1 else t)
    ax.axhline(0.5, color="grey", ls=":", lw=1)
    ax.axhline(1 / 3, color="grey", ls=":", lw=1)
    ax.set_xlabel("flow (sorted by rate fraction)")
    ax.set_ylabel("ideal FCT / FCT (fraction of line rate)")
    ax.set_ylim(0, 1.05)
    ax.set_title(_title(results, "rate fraction per flow"))
    _legend(ax)
    return _save(fig, path)


def goodput(results, path):
    p = _pyplot()
    fig, ax = p.subplots(figsize=(max(5, 0.9 * len(_panels(results)) + 2), 4.2))
    names, vals = [], []
    for r, t in _panels(results):
        names.append("%s\n%s" % (r.label, t))
        vals.append(r.transports().get(t, {}).get("goodputGbps") or 0)
    ax.bar(range(len(vals)), vals)
    ax.set_xticks(range(len(vals)))
    ax.set_xticklabels(names, fontsize=9)
    ax.set_ylabel("goodput (Gb/s)")
    ax.set_title(_title(results, "goodput per transport"))
    ax.grid(alpha=0.3, axis="y")
    return _save(fig, path)


PLOTTERS = {"fct_cdf": fct_cdf, "throughput": throughput, "utilization": utilization, "queue": queue,
            "cwnd": cwnd, "rate": rate, "pfc": pfc, "rate_fraction": rate_fraction, "goodput": goodput}


def case_plots(kinds, results, outdir, prefix):
    """Draw each kind for the results into outdir/PREFIX-KIND.png (and .pdf); returns the
    PNG paths (kinds without data are left out)."""
    os.makedirs(outdir, exist_ok=True)
    paths = []
    for k in kinds:
        if k not in PLOTTERS:
            raise ValueError("unknown plot kind %r (allowed: %s)" % (k, ", ".join(sorted(PLOTTERS))))
        png = PLOTTERS[k](results, os.path.join(outdir, "%s-%s.png" % (prefix, k)))
        if png:
            paths.append(png)
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
    no_plots = None
    try:
        for k in kinds:
            if k == "slowdown":
                for r in results:
                    text = slowdown_tables(r, bins)
                    print(text)
                    with open(os.path.join(out, "slowdown-%s.md" % r.label), "w") as f:
                        f.write(text)
            elif no_plots is None:
                try:
                    print(PLOTTERS[k](results, os.path.join(out, "%s.png" % k)))
                except NoMatplotlib as e:
                    no_plots = e
    except mr.ResultError as e:
        sys.stderr.write("plot.py: %s\n" % e)
        return 1
    if no_plots is not None:
        sys.stderr.write("plot.py: %s\n" % no_plots)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
