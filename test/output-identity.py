#!/usr/bin/env python3
"""Byte-identity of mrc-sim outputs across a refactor.

  output-identity.py run MRC_SIM DIR [--jobs=N]   run the reference scenarios into DIR/<name>/
  output-identity.py diff DIR_A DIR_B             compare two such folders file by file

A refactor that must not change the model runs this before and after and diffs the two
folders: every file must be byte-identical, except summary.json's "run.host" object (wall
time, host name), which is removed before comparing. Run from the module's root (the hpcc
and htsim scenarios read the samples in data/). Exit 0 when identical, 1 otherwise.
"""

import concurrent.futures
import filecmp
import json
import os
import subprocess
import sys

# The scenarios the architecture work is checked on (issue 14), with options that keep
# each run short. Names are folder names.
RUNS = {
    "compare": ["compare"],
    "failover": ["failover"],
    "incast": ["incast"],
    "incast-victim": ["incast-victim"],
    "loss": ["loss"],
    "allreduce": ["allreduce"],
    "permutation-pcap": ["permutation", "--pcap=1"],
    "hpcc": ["hpcc"],
    "htsim": ["htsim"],
}


def run(sim, out, jobs):
    os.makedirs(out, exist_ok=True)

    def one(name):
        args = RUNS[name]
        d = os.path.join(out, name)
        cmd = [sim, "--scenario=" + args[0]] + args[1:] + ["--out=" + d]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        with open(os.path.join(out, name + ".log"), "w") as f:
            f.write(" ".join(cmd) + "\n" + r.stdout)
        return name, r.returncode

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        for name, rc in ex.map(one, RUNS):
            print(f"{name}: exit {rc}")
    return 0


def load_summary(path):
    data = json.load(open(path))
    data.get("run", {}).pop("host", None)
    return data


def list_files(top):
    """Every file below top, as paths relative to it (subfolders included), sorted."""
    if not os.path.isdir(top):
        return []
    out = []
    for root, _, names in os.walk(top):
        for n in names:
            out.append(os.path.relpath(os.path.join(root, n), top))
    return sorted(out)


def diff(a, b):
    bad = 0
    files = 0
    for name in RUNS:
        da, db = os.path.join(a, name), os.path.join(b, name)
        na = list_files(da)
        nb = list_files(db)
        if na != nb:
            only = sorted(set(na) ^ set(nb))
            more = f" and {len(only) - 10} more" if len(only) > 10 else ""
            print(f"{name}: different files: {only[:10]}{more}")
            bad += 1
        for f in sorted(set(na) & set(nb)):
            files += 1
            pa, pb = os.path.join(da, f), os.path.join(db, f)
            if os.path.basename(f) == "summary.json":
                same = load_summary(pa) == load_summary(pb)
            else:
                same = filecmp.cmp(pa, pb, shallow=False)
            if not same:
                print(f"{name}/{f}: differs")
                bad += 1
    print(f"{files} files compared in {len(RUNS)} runs, {bad} differences")
    return 1 if bad else 0


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "run":
        jobs = 2
        for arg in sys.argv[4:]:
            if arg.startswith("--jobs="):
                jobs = int(arg.split("=", 1)[1])
        return run(os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3]), jobs)
    if len(sys.argv) == 4 and sys.argv[1] == "diff":
        return diff(sys.argv[2], sys.argv[3])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
