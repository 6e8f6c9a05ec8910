#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run mrc-sim over a parameter grid in parallel and combine the summaries.

    scripts/sweep.py [SCENARIO] --param=NAME=V1,V2,... [--param=...] [--MRCSIMOPTION=VALUE ...]
                     [--out=DIR] [--jobs=N] [--sim=PATH] [--dry-run]

Every combination of the --param values is one point: mrc-sim runs SCENARIO with the fixed
options, then NAME=VALUE of the point, writing into OUT/NAME1-V1_NAME2-V2 (default OUT:
results/sweep/). Points run in parallel on --jobs workers (default: all cores).
OUT/sweep.csv has one row per point and transport: the point's folder, the parameter
values, mrc-sim's exit code, and the fields of summary.json's transport entry (nested
fields joined with '.', e.g. fctNs.p99). --dry-run prints the commands only.

Before the sweep every point is checked by mrc-sim --checkOnly=1 (nothing simulated); when mrc-sim rejects an
option or value of any point, nothing runs. Exit status: 2 for a malformed grid or option
(or when mrc-sim rejects one), 1 when
a point failed otherwise (a crash, no summary.json), 0 when every point ran (mrc-sim's
exit 1, a message that did not complete, counts as ran).
"""

import concurrent.futures
import csv
import itertools
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME_RE = re.compile(r"^(ns3::[A-Za-z0-9_:]+|[A-Za-z][A-Za-z0-9_]*)$")
OWN = ("param", "out", "jobs", "sim", "dry-run")


class GridError(Exception):
    """A malformed grid or option."""


def parse_param(text):
    """'name=v1,v2' -> (name, [v1, v2])."""
    name, eq, vals = text.partition("=")
    if not eq or not NAME_RE.match(name):
        raise GridError("--param=%s: write --param=NAME=V1,V2,... (NAME an mrc-sim option)" % text)
    if name in ("out", "list", "PrintHelp"):
        raise GridError("--param=%s: %s cannot be swept" % (text, name))
    values = vals.split(",")
    if not vals or any(v == "" for v in values):
        raise GridError("--param=%s: empty value in the list" % text)
    if len(set(values)) != len(values):
        raise GridError("--param=%s: a value is listed twice" % text)
    return name, values


def parse_args(argv):
    o = {"scenario": None, "params": [], "fixed": [], "out": os.path.join(ROOT, "results", "sweep"),
         "jobs": os.cpu_count() or 1, "sim": os.path.join(ROOT, "build", "examples", "mrc-sim"),
         "dry": False}
    for a in argv:
        if a in ("-h", "--help"):
            print(__doc__.strip())
            sys.exit(0)
        if not a.startswith("--"):
            if o["scenario"] is not None or o["params"] or o["fixed"]:
                raise GridError("unexpected argument '%s' (the scenario comes first)" % a)
            o["scenario"] = a
            continue
        name, eq, val = a[2:].partition("=")
        if name == "param":
            if not eq:
                raise GridError("--param needs NAME=V1,V2,...")
            o["params"].append(parse_param(val))
        elif name == "out" and eq and val:
            o["out"] = val
        elif name == "sim" and eq and val:
            o["sim"] = val
        elif name == "jobs" and eq:
            if not val.isdigit() or int(val) < 1:
                raise GridError("--jobs=%s: a positive integer" % val)
            o["jobs"] = int(val)
        elif name == "dry-run" and not eq:
            o["dry"] = True
        elif name in OWN:
            raise GridError("option '%s' is malformed" % a)
        elif eq and NAME_RE.match(name):
            o["fixed"].append((name, val))
        else:
            raise GridError("unknown option '%s' (sweep options: --param=NAME=V1,V2, --out=DIR, --jobs=N, "
                            "--sim=PATH, --dry-run; mrc-sim options are written --name=value)" % a)
    if not o["params"]:
        raise GridError("no --param=NAME=V1,V2,... given: nothing to sweep")
    names = [n for n, _ in o["params"]]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise GridError("--param %s given twice" % ", ".join(dup))
    clash = sorted(set(names) & {n for n, _ in o["fixed"]})
    if clash:
        raise GridError("%s is both swept (--param) and fixed" % ", ".join(clash))
    return o


def grid(params):
    """Every point: list of (name, value), in the order of the --param options."""
    names = [n for n, _ in params]
    return [list(zip(names, combo)) for combo in itertools.product(*[v for _, v in params])]


def point_dir(point):
    return "_".join("%s-%s" % (n, re.sub(r"[^A-Za-z0-9.+-]", "-", v)) for n, v in point)


def command(o, point, folder):
    cmd = [o["sim"]] + ([o["scenario"]] if o["scenario"] else [])
    cmd += ["--%s=%s" % kv for kv in o["fixed"]] + ["--%s=%s" % kv for kv in point]
    return cmd + ["--out=" + folder]


def probe_point(cmd, folder):
    """Check the point's command without simulating (--checkOnly=1): None, or mrc-sim's complaint
    when it rejects an option (exit code 2)."""
    os.makedirs(folder, exist_ok=True)
    try:
        p = subprocess.run(cmd[:-1] + ["--checkOnly=1", "--out=" + folder], capture_output=True, text=True)
    except OSError as e:
        return "cannot run %s: %s" % (cmd[0], e)
    if p.returncode != 2:
        return None
    lines = [ln.strip() for ln in (p.stderr + p.stdout).splitlines() if ln.strip()]
    msg = next((ln for ln in lines if "error" in ln.lower()), lines[-1] if lines else "exit code 2")
    return msg.split(" (allowed: --")[0]


def run_point(cmd, folder):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "run.log"), "w") as log:
        try:
            return subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT).returncode
        except OSError as e:
            log.write("cannot run: %s\n" % e)
            return 127


def flatten(d, prefix=""):
    out = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(flatten(v, prefix + k + "."))
        else:
            out[prefix + k] = v
    return out


def combine(o, points, codes, path):
    names = [n for n, _ in o["params"]]
    rows, fields = [], []
    for point, code in zip(points, codes):
        folder = point_dir(point)
        base = {"point": folder}
        base.update(dict(point))
        base["exit_code"] = code
        summ = os.path.join(o["out"], folder, "summary.json")
        transports = {}
        if os.path.exists(summ):
            with open(summ) as f:
                transports = json.load(f).get("transports", {})
        if not transports:
            rows.append(base)
        for t, s in sorted(transports.items()):
            row = dict(base, transport=t)
            flat = flatten(s)
            for k in flat:
                if k not in fields:
                    fields.append(k)
            row.update(flat)
            rows.append(row)
    header = ["point"] + names + ["exit_code", "transport"] + fields
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=header, restval="")
        w.writeheader()
        for r in rows:
            w.writerow(r)
    return len(rows)


def main(argv):
    try:
        o = parse_args(argv)
    except GridError as e:
        sys.stderr.write("sweep.py: %s\n" % e)
        return 2
    points = grid(o["params"])
    cmds = [command(o, p, os.path.join(o["out"], point_dir(p))) for p in points]
    if o["dry"]:
        for c in cmds:
            print(" ".join(c))
        return 0
    if not os.access(o["sim"], os.X_OK):
        sys.stderr.write("sweep.py: %s is not built (./ns3-mrc build)\n" % o["sim"])
        return 1
    with concurrent.futures.ThreadPoolExecutor(max_workers=o["jobs"]) as pool:
        # First every point is checked (--checkOnly=1), so a rejected option stops the sweep before it runs.
        probe_dir = os.path.join(o["out"], ".probe")
        complaints = list(pool.map(lambda i: probe_point(cmds[i], os.path.join(probe_dir, str(i))),
                                   range(len(cmds))))
        shutil.rmtree(probe_dir, ignore_errors=True)
        rejected = [(point_dir(p), c) for p, c in zip(points, complaints) if c]
        if rejected:
            for name, c in rejected:
                sys.stderr.write("sweep.py: point %s: mrc-sim: %s\n" % (name, c))
            return 2
        print("sweep: %d point(s) on %d worker(s) into %s" % (len(points), o["jobs"], o["out"]), flush=True)
        futs = [pool.submit(run_point, c, os.path.join(o["out"], point_dir(p))) for c, p in zip(cmds, points)]
        codes = []
        for p, f in zip(points, futs):
            codes.append(f.result())
            print("  %-40s exit %d" % (point_dir(p), codes[-1]), flush=True)
    n = combine(o, points, codes, os.path.join(o["out"], "sweep.csv"))
    print("sweep.csv: %d row(s)" % n)
    if any(c == 2 for c in codes):
        sys.stderr.write("sweep.py: mrc-sim rejected an option (see the point's run.log)\n")
        return 2
    bad = [point_dir(p) for p, c in zip(points, codes)
           if c not in (0, 1) or not os.path.exists(os.path.join(o["out"], point_dir(p), "summary.json"))]
    if bad:
        sys.stderr.write("sweep.py: failed point(s): %s\n" % ", ".join(bad))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
