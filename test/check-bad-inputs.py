#!/usr/bin/env python3
"""The bad-input corpus of mrc-sim (issue 20): every case must be rejected cleanly.

  check-bad-inputs.py MRC_SIM CORPUS_DIR

CORPUS_DIR/cases.txt names one case a line: NAME | ARGUMENTS | EXPECTED, where "@/" in
ARGUMENTS stands for CORPUS_DIR. Each case runs mrc-sim with ARGUMENTS (and --out in a
scratch folder unless it gives --out) and passes when mrc-sim exits with code 2 within
TIME_LIMIT seconds and its error output contains EXPECTED (the option or FILE:LINE it
names), both as given and with --checkOnly added (so the problem is found before any
simulation, and --checkOnly sees it). Every other file of CORPUS_DIR must be used by some
case. Exit 0 when all pass.
"""

import os
import shlex
import subprocess
import sys
import tempfile

TIME_LIMIT = 60


def load_cases(corpus):
    cases = []
    with open(os.path.join(corpus, "cases.txt")) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.split(" | ")]
            if len(parts) != 3:
                sys.exit(f"cases.txt:{n}: expected 'NAME | ARGUMENTS | EXPECTED'")
            cases.append(parts)
    return cases


def run_case(sim, corpus, scratch, name, args, expected):
    problem = run_once(sim, corpus, scratch, name, args, expected)
    if not problem and "--checkOnly" not in args:
        problem = run_once(sim, corpus, scratch, name, args + " --checkOnly", expected)
        problem = problem and "with --checkOnly: " + problem
    return problem


def run_once(sim, corpus, scratch, name, args, expected):
    argv = [a.replace("@/", corpus + "/") for a in shlex.split(args)]
    if not any(a.startswith("--out=") for a in argv):
        argv.append("--out=" + os.path.join(scratch, name))
    try:
        r = subprocess.run([sim] + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=TIME_LIMIT, cwd=scratch)
    except subprocess.TimeoutExpired:
        return f"no answer within {TIME_LIMIT} s (a hang)"
    err = r.stderr.decode("utf-8", "replace")
    if r.returncode != 2:
        return f"exit code {r.returncode}, not 2; stderr: {err.strip()[-400:]}"
    if expected not in err:
        return f"the message does not contain {expected!r}: {err.strip()[-400:]}"
    return ""


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    sim, corpus = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    cases = load_cases(corpus)
    used = {"cases.txt"}
    for _, args, _ in cases:
        for a in shlex.split(args):
            if "@/" in a:
                used.add(a.split("@/", 1)[1])
    bad = 0
    for f in sorted(set(os.listdir(corpus)) - used):
        print(f"{f}: FAIL: not used by any case of cases.txt")
        bad += 1
    with tempfile.TemporaryDirectory(prefix="mrc-bad-inputs-") as scratch:
        for name, args, expected in cases:
            problem = run_case(sim, corpus, scratch, name, args, expected)
            print(f"{name}: {'FAIL: ' + problem if problem else 'ok'}")
            bad += 1 if problem else 0
    print(f"{len(cases)} cases, {bad} failures")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
