#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compare the CPU cost per packet hop of two mrc-sim builds by interleaved rounds.

Each round runs both binaries once with the same arguments, in alternating order (A then B
in odd rounds, B then A in even ones), reads runCpuSeconds and packetHops from each run's
--benchJson file, and prints B's cost per hop over A's. At the end it prints the median of
these paired ratios, how many rounds B was faster in, and the median cost per hop of each,
then the geometric mean of the ratios and their medians by order (rounds with A first, rounds
with B first). A machine whose speed drifts by the hour slows both runs of a round alike, so
the paired ratio is steadier than two separate benches. In short runs (below a second or so)
the round's first run is often the slower whatever the build: the two medians by order then
differ, and the geometric mean over an even number of rounds is the fairer figure.

    GLIBC_TUNABLES=glibc.malloc.hugetlb=1 scripts/paired-rounds.py \\
        --a=REF/build/examples/mrc-sim --b=build/examples/mrc-sim --rounds=12 -- \\
        perm128-uec --sampleInterval=0s

Both runs of a round must report the same packet hops (the same model); otherwise the
script stops with exit 1. Exit 2: bad options.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def run(binary, args, workdir, name):
    out = os.path.join(workdir, name)
    bench = os.path.join(workdir, name + ".json")
    cmd = [binary] + args + ["--out=" + out, "--benchJson=" + bench]
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit("paired-rounds: %s exited %d: %s" % (" ".join(cmd), done.returncode,
                                                       done.stderr.strip()[-500:]))
    with open(bench) as f:
        b = json.load(f)
    if b.get("packetHops", 0) <= 0:
        sys.exit("paired-rounds: %s reported no packet hops" % binary)
    return b["runCpuSeconds"] / b["packetHops"], b["packetHops"]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--a", required=True, help="the reference mrc-sim")
    p.add_argument("--b", required=True, help="the mrc-sim compared with it")
    p.add_argument("--rounds", type=int, default=12, help="rounds (default 12)")
    p.add_argument("args", nargs=argparse.REMAINDER,
                   help="after --: the scenario and options given to both")
    o = p.parse_args()
    args = o.args[1:] if o.args[:1] == ["--"] else o.args
    if o.rounds < 1:
        p.error("--rounds must be at least 1, not %d" % o.rounds)
    for b in (o.a, o.b):
        if not (os.path.isfile(b) and os.access(b, os.X_OK)):
            p.error("%s is not an executable file" % b)
    env_note = os.environ.get("GLIBC_TUNABLES", "(none)")
    ratios, cost_a, cost_b = [], [], []
    with tempfile.TemporaryDirectory(prefix="paired-rounds-") as work:
        for r in range(1, o.rounds + 1):
            order = ("a", "b") if r % 2 == 1 else ("b", "a")
            got = {}
            for w in order:
                got[w] = run(o.a if w == "a" else o.b, args, work, w)
            if got["a"][1] != got["b"][1]:
                print("paired-rounds: packet hops differ (%d against %d): not the same model"
                      % (got["a"][1], got["b"][1]), file=sys.stderr)
                return 1
            ratio = got["b"][0] / got["a"][0]
            ratios.append(ratio)
            cost_a.append(got["a"][0] * 1e9)
            cost_b.append(got["b"][0] * 1e9)
            load = os.getloadavg()[0]
            print("round %d: B/A %.4f, %.1f -> %.1f ns per hop (load %.2f)"
                  % (r, ratio, cost_a[-1], cost_b[-1], load), flush=True)
    print("paired median %.3f, B faster in %d of %d; medians %.1f -> %.1f ns per hop "
          "(GLIBC_TUNABLES %s)" % (statistics.median(ratios), sum(1 for x in ratios if x < 1),
                                  len(ratios), statistics.median(cost_a),
                                  statistics.median(cost_b), env_note))
    # The order within a round can weigh more than the builds (short runs: the round's first
    # run is often the slower). The odd rounds run A first, the even ones B first: the
    # geometric mean of all ratios, over an even number of rounds, cancels an order effect
    # that scales a run's cost, and the two medians by order show its size.
    a_first = ratios[0::2]
    b_first = ratios[1::2]
    def rounds(n):
        return "%d round%s" % (n, "" if n == 1 else "s")

    print("geometric mean %.3f; median B/A with A first %.3f (%s), with B first %s"
          % (statistics.geometric_mean(ratios), statistics.median(a_first),
             rounds(len(a_first)),
             "%.3f (%s)" % (statistics.median(b_first), rounds(len(b_first))) if b_first
             else "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
