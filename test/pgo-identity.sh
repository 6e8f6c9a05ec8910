#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pgo-identity.sh [OUTDIR]
#
# The profile-guided build changes no output. Builds build/ (./ns3-mrc build) and
# build-pgo/ (./ns3-mrc build --pgo) if they are not up to date, runs the reference
# scenarios of test/output-identity.py with each build's mrc-sim, and compares: every run
# must end with the same exit code (0, or 1 where the scenario reports so by design), and
# every result file must be byte-identical (summary.json without its "run.host" object:
# wall time, peak RSS, host name). OUTDIR (default: a temporary folder, removed at the end)
# keeps both sets of results. Run from anywhere; CI runs it (.ci/run). Exit 0 if the two
# builds agree, 1 otherwise.
set -u -o pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
[ $# -le 1 ] || { echo "usage: $0 [OUTDIR]" >&2; exit 2; }
if [ $# = 1 ]; then
    OUT=$1
    mkdir -p "$OUT" || exit 1
else
    OUT=$(mktemp -d)
    trap 'rm -rf "$OUT"' EXIT
fi

./ns3-mrc build >"$OUT/build.log" 2>&1 || { tail -n 40 "$OUT/build.log"; echo "pgo-identity: plain build failed"; exit 1; }
./ns3-mrc build --pgo || { echo "pgo-identity: PGO build failed"; exit 1; }

status=0
for b in build build-pgo; do
    python3 test/output-identity.py run "$b/examples/mrc-sim" "$OUT/$b" --jobs=2 >"$OUT/$b.exits" ||
        { echo "pgo-identity: the runs of $b failed to start"; exit 1; }
    # 0: done; 1: the scenario's own verdict (failover reports its stalls so); else a fault
    if grep -Ev ': exit [01]$' "$OUT/$b.exits"; then
        echo "pgo-identity: a run of $b ended with a fault (logs: $OUT/$b/*.log)"
        status=1
    fi
done
if ! cmp -s "$OUT/build.exits" "$OUT/build-pgo.exits"; then
    echo "pgo-identity: the two builds' runs end differently:"
    diff "$OUT/build.exits" "$OUT/build-pgo.exits"
    status=1
fi
python3 test/output-identity.py diff "$OUT/build" "$OUT/build-pgo" || status=1
[ $status = 0 ] && echo "pgo-identity: the profile-guided build's outputs are those of build/"
exit $status
