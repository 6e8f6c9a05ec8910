#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Fairness by position of the 15 -> 1 incast on a k = 4 fat-tree, over seeds.

Runs ``mrc-sim --scenario=incast --topology=fattree --k=4 --senders=15 --transports=T
--seed=S`` (plus any extra ``--name=value`` options) for each seed, at most --jobs at once,
and prints per seed the fastest over the slowest FCT (the fairness tests' figure: within
2x means >= 0.5), the same-T0 sender's FCT over the median other-pod FCT, and at the end
how many seeds are within 2x.

  scripts/incast-fairness.py --transport=uec --seeds=1-20 [--jobs=2] [-- --ns3::X=Y ...]
"""

import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
SIM = os.path.join(HERE, "..", "build", "examples", "mrc-sim")


def seeds_of(text):
    out = []
    for part in text.split(","):
        if "-" in part:
            a, b = part.split("-")
            out.extend(range(int(a), int(b) + 1))
        elif part:
            out.append(int(part))
    return out


def position(src, dst):
    """Position of a sender relative to the receiver (k = 4: 2 hosts per T0, 4 per pod)."""
    if src // 2 == dst // 2:
        return "sameT0"
    if src // 4 == dst // 4:
        return "samePod"
    return "otherPod"


def run_one(sim, transport, seed, extra, outdir):
    out = os.path.join(outdir, f"{transport}-{seed}")
    cmd = [sim, "--scenario=incast", "--topology=fattree", "--k=4", "--senders=15",
           f"--transports={transport}", f"--seed={seed}", f"--out={out}"] + extra
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        # exit 1: some message did not complete by --simTime; the fairness figure needs all
        sys.stderr.write(f"incast-fairness.py: seed {seed}: mrc-sim exit {r.returncode}: "
                         f"{r.stderr.strip()[-400:]}\n")
        sys.exit(2)
    with open(os.path.join(out, "flows.csv")) as f:
        rows = [row for row in csv.DictReader(f) if row["transport"] == transport]
    fcts = {int(row["src"]): (int(row["fct_ns"]), position(int(row["src"]), int(row["dst"])))
            for row in rows}
    return seed, fcts


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--transport", default="uec", choices=["uec", "mrc"])
    p.add_argument("--seeds", default="1-20")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--sim", default=SIM)
    p.add_argument("--per-sender", action="store_true", help="print every sender's FCT")
    p.add_argument("extra", nargs="*", help="options passed on to mrc-sim (after --)")
    a = p.parse_args()
    if not os.access(a.sim, os.X_OK):
        p.error(f"no mrc-sim at {a.sim} (build first: ./ns3-mrc build)")
    try:
        seeds = seeds_of(a.seeds)
    except ValueError:
        p.error(f"--seeds={a.seeds}: expected a list like 1-20 or 1,4,7")
    if not seeds or a.jobs < 1:
        p.error("need at least one seed and --jobs >= 1")
    env_tmp = tempfile.mkdtemp(prefix="incast-fairness-")
    with ThreadPoolExecutor(max_workers=a.jobs) as ex:
        results = list(ex.map(lambda s: run_one(a.sim, a.transport, s, a.extra, env_tmp), seeds))
    within = 0
    ratios = []
    print("seed  fastest/slowest  sameT0/median-otherPod  fastest(pos)  slowest(pos)")
    for seed, fcts in results:
        lo_src = min(fcts, key=lambda s: fcts[s][0])
        hi_src = max(fcts, key=lambda s: fcts[s][0])
        ratio = fcts[lo_src][0] / fcts[hi_src][0]
        other = statistics.median(f for f, pos in fcts.values() if pos == "otherPod")
        same = [f for f, pos in fcts.values() if pos == "sameT0"]
        rel = same[0] / other if same else float("nan")
        ok = 2 * fcts[lo_src][0] >= fcts[hi_src][0]
        within += 1 if ok else 0
        ratios.append(ratio)
        print(f"{seed:4d}  {ratio:15.3f}  {rel:22.2f}  {lo_src:3d} {fcts[lo_src][1]:8s}"
              f"  {hi_src:3d} {fcts[hi_src][1]:8s}{'' if ok else '  OUTSIDE 2x'}")
        if a.per_sender:
            for s in sorted(fcts):
                print(f"      src {s:2d} {fcts[s][1]:8s} fct {fcts[s][0] / 1000:8.1f} us")
    print(f"{a.transport}: within 2x at {within} of {len(seeds)} seeds; fastest/slowest "
          f"min {min(ratios):.3f} median {statistics.median(ratios):.3f} max {max(ratios):.3f}"
          f"; options: {' '.join(a.extra) or '(defaults)'}")
    shutil.rmtree(env_tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
