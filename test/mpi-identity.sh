#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# mpi-identity.sh PROGRAM OUTDIR
#
# The distributed-run check (issue 17): PROGRAM is the MPI variant of mrc-sim (the module
# in an ns-3 tree configured with --enable-mpi). Each case runs once in one process with
# --ranks=1 and then under `mpirun -np N` with --ranks=N; flows.csv, fct.txt, pfc.txt,
# timeseries.csv and collective-steps.csv (per transport where a run has several), and
# events.csv in the cases with failures (its flow_stall rows included), must be
# byte-identical, and summary.json the same apart from the figures that describe the
# machine or the engine, not the
# simulation: "host" (wall clock, peak RSS), "eventsExecuted" (each rank counts its own
# events, and the events every rank runs, such as a link failure, once per rank) and the
# option "ranks". "host" also holds, in split runs only, the "mpi" object (the engine's
# synchronization: a one-process run has none by nature), which check_counters checks on
# its own in every split run. Exit 0 if every case agrees, 1 otherwise.
set -u -o pipefail

[ $# -eq 2 ] || { echo "usage: $0 PROGRAM OUTDIR" >&2; exit 2; }
PROG=$1
OUT=$2
DATA=$(cd "$(dirname "$0")" && pwd)/data/mpi
mkdir -p "$OUT"
command -v mpirun >/dev/null || { echo "mpi-identity: no mpirun (Debian package openmpi-bin)"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

# name | ranks to compare with --ranks=1 | mrc-sim arguments (small fabrics: seconds each)
# [| arguments of the split runs only, e.g. a --rankMap [| events: compare events.csv too]]
CASES=(
    "compare|2 4|compare --hosts=16 --hostsPerT0=4 --bytes=400000"
    "incast-pfc|2|incast --hosts=16 --hostsPerT0=4 --t1PerPlane=2 --senders=12 --bytes=1000000 --transports=roce,mrc --ns3::MrcSharedBufferMmu::BufferSize=500000"
    "incast-4|4|incast --hosts=16 --hostsPerT0=4 --t1PerPlane=4 --senders=12 --bytes=1000000 --transports=roce,mrc --ns3::MrcSharedBufferMmu::BufferSize=700000"
    "incast-null|2|incast --hosts=16 --hostsPerT0=4 --t1PerPlane=2 --senders=12 --bytes=1000000 --transport=roce --ns3::MrcSharedBufferMmu::BufferSize=500000 --sync=null"
    "ar-null|2|allreduce --hosts=16 --hostsPerT0=4 --bytes=800000 --transport=mrc --sync=null"
    "failover|2|failover --bytes=2000000 --simTime=5ms||events"
    "failover-16|2 4|failover --hosts=16 --hostsPerT0=4 --t1PerPlane=4 --bytes=1000000 --simTime=5ms||events"
    "fattree|2|permutation --topology=fattree --k=4 --transports=uec,mrc --bytes=300000"
    "mrc-structured|2|permutation --hosts=16 --hostsPerT0=4 --transport=mrc --evFormat=structured --bytes=300000"
    "allreduce|2 4|allreduce --hosts=16 --hostsPerT0=4 --bytes=800000"
    "trace|2 4|flows --trace=@/dependencies.trace --exclusive=false --hosts=16 --hostsPerT0=4 --transports=roce,mrc"
    "triggers|2|flows --flowFile=@/triggers.cm --hosts=16 --hostsPerT0=4 --transports=uec,mrc"
    "rankmap|2|compare --hosts=16 --hostsPerT0=4 --t1PerPlane=4 --bytes=400000|--rankMap=@/rankmap.txt"
    "ar-rankmap|2|allreduce --hosts=16 --hostsPerT0=4 --t1PerPlane=4 --bytes=800000 --transport=mrc|--rankMap=@/rankmap.txt"
    "topo-hpcc|2|hpcc --transports=roce,mrc"
    "topo-htsim|2 4|htsim --transports=roce,mrc"
    "topo-rankmap|2|htsim --transports=roce,mrc|--rankMap=@/fattree16-rankmap.txt"
    "topo-delays|2|hpcc --topoFile=@/mixed-delays.topology --flowFile=@/mixed-delays-flows.txt --transports=roce,mrc"
    "topo-null|2|hpcc --topoFile=@/mixed-delays.topology --flowFile=@/mixed-delays-flows.txt --transport=mrc --sync=null"
    "loss|2 4|loss --hosts=16 --hostsPerT0=4 --bytes=400000"
    "loss-links|2|permutation --hosts=16 --hostsPerT0=4 --bytes=300000 --transports=roce,mrc --lossRate=0.002 --lossAt=links"
    "topo-errors|2|hpcc --topoFile=@/link-errors.topology --flowFile=@/mixed-delays-flows.txt --transports=roce,mrc"
    "cut|2 4|permutation --hosts=16 --hostsPerT0=4 --t1PerPlane=4 --planes=2 --bytes=300000 --transports=roce,mrc --failLink=p0-t0-2:p0-t1-3@20us,host9:p0-t0-2@30us,p0-t0-3:p0-t1-0@25us --failAt=20us --repairAt=80us||events"
    "flap|2 4|permutation --hosts=16 --hostsPerT0=4 --t1PerPlane=4 --planes=2 --bytes=300000 --transports=uec,mrc --flapLink=p0-t0-3:p0-t1-0@10us/20us/8us/3,p0-t0-1:p0-t1-2@15us/30us/10us/2,p1-t0-2:p1-t1-3@12us/25us/10us/2||events"
    "victim|2 4|incast-victim --hosts=16 --hostsPerT0=4 --bytes=400000"
    "alltoall|2|alltoall --hosts=8 --hostsPerT0=4 --bytes=100000"
    "allgather|2 4|allgather --hosts=16 --hostsPerT0=4 --bytes=800000"
    "reconverge|2|reconverge --bytes=3000000 --ns3::MrcEcmpRouteManager::ConvergenceDelay=100us --failAt=30us||events"
    "poisson|2|flows --hosts=16 --hostsPerT0=4 --duration=200us --transports=uec,mrc"
    "perm128-mrc|2 4|perm128-mrc --bytes=100000"
    "perm128-roce|2|perm128-roce --bytes=100000"
    "switch|2 4|permutation --hosts=16 --hostsPerT0=4 --t1PerPlane=4 --planes=2 --bytes=300000 --transports=roce,mrc --failSwitch=p0-t1-1,p1-t0-3 --failAt=20us --repairSwitchAt=90us||events"
    "switch-null|2|permutation --hosts=16 --hostsPerT0=4 --t1PerPlane=4 --planes=2 --bytes=300000 --transport=mrc --failSwitch=p0-t1-1,p1-t0-3 --failAt=20us --repairSwitchAt=90us --grayLink=p0-t0-3:host13 --grayLoss=0.05 --sync=null||events"
    "gray|2 4|permutation --hosts=16 --hostsPerT0=4 --t1PerPlane=4 --planes=2 --bytes=300000 --transports=uec,mrc --grayLink=p0-t1-2:p0-t0-3,p0-t0-3:host13,p1-t0-0:p1-t1-1 --grayLoss=0.05 --failAt=10us --grayUntil=150us||events"
    "plane|2 4|permutation --hosts=16 --hostsPerT0=4 --t1PerPlane=4 --planes=2 --bytes=300000 --transports=roce,mrc --failPlane=1 --failAt=25us --repairPlaneAt=100us||events"
    "port|2 4|permutation --hosts=16 --hostsPerT0=4 --t1PerPlane=4 --planes=2 --bytes=300000 --transports=uec,mrc --failPort=host3:0,host12:1,host14:0 --failAt=20us --repairPortAt=90us||events"
)

# summary.json without the machine's and the engine's figures
strip_summary() {
    python3 - "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if k not in ("host", "eventsExecuted", "ranks")}
    if isinstance(o, list):
        return [strip(v) for v in o]
    return o
print(json.dumps(strip(d), indent=1, sort_keys=True))
EOF
}

# check_counters N RUNDIR LOG: the synchronization counters of a split run (summary.json's
# run.host.mpi and every rank's "mrc-sim: rank" line on stderr) are consistent:
# - every rank took part in the same number of granted-time-window rounds (MPI_Allgather is
#   collective), summary.json gives that number, and frames between ranks sum alike;
# - granted time windows: rounds > 0, no null messages; --sync=null: no rounds, null messages > 0;
# - granted time windows, one transport on a Clos (lookahead L = --linkDelay, T = simulated
#   time): the rounds that granted a window (rounds without frames in flight) lie in
#   [T / L / 2, T / L + 2]. Each such round grants up to the smallest next event time of all
#   ranks plus L, and the next round comes only when every rank's next event lies beyond
#   that: windows advance by at least L (at most T / L of them, plus the first one and the
#   last round, which finds every rank finished). They advance by at most L plus the time no
#   rank has an event: k = 2 allows such idle time up to L on average per window (measured
#   in these runs: the granted rounds are within 5 % of T / L, see doc/mrc.rst).
check_counters() {
    python3 - "$@" <<'EOF2'
import json, re, sys
n, run, log = int(sys.argv[1]), sys.argv[2], sys.argv[3]
d = json.load(open(run + "/summary.json"))
m = d["run"]["host"].get("mpi")
bad = []
if m is None or m["ranks"] != n:
    print("no run.host.mpi with ranks %d in summary.json" % n)
    sys.exit(1)
lines = [l for l in open(log, errors="replace") if l.startswith("mrc-sim: rank ")]
pat = re.compile(r"(\d+) frames sent to other ranks, (\d+) received, (\d+) synchronization rounds "
                 r"\((\d+) with frames in flight\), (\d+) null messages sent")
ranks = [tuple(int(x) for x in pat.search(l).groups()) for l in lines]
if len(ranks) != n:
    bad.append("%d rank lines, not %d" % (len(ranks), n))
sent, recv = sum(r[0] for r in ranks), sum(r[1] for r in ranks)
if sent != m["framesBetweenRanks"] or recv > sent:
    bad.append("frames: sent %d, received %d, summary %d" % (sent, recv, m["framesBetweenRanks"]))
if any(r[2] != m["syncRounds"] or r[3] != m["syncRoundsInFlight"] for r in ranks):
    bad.append("rounds differ between ranks: %s" % [r[2:4] for r in ranks])
if sum(r[4] for r in ranks) != m["nullMessages"]:
    bad.append("null messages: ranks %s, summary %d" % ([r[4] for r in ranks], m["nullMessages"]))
note = ""
if m["sync"] == "null":
    if m["syncRounds"] != 0 or m["nullMessages"] <= 0:
        bad.append("--sync=null: %d rounds, %d null messages" % (m["syncRounds"], m["nullMessages"]))
else:
    if m["syncRounds"] <= 0 or m["nullMessages"] != 0:
        bad.append("granted: %d rounds, %d null messages" % (m["syncRounds"], m["nullMessages"]))
    o = d["run"]["options"]
    unit = {"ns": 1, "us": 1000, "ms": 1000000}
    lm = re.fullmatch(r"([0-9.]+)(ns|us|ms)", o.get("linkDelay", ""))
    if (len(d["transports"]) == 1 and o.get("topology") == "clos" and not o.get("topoFile")
            and lm):
        L = float(lm.group(1)) * unit[lm.group(2)]
        windows = d["run"]["simulatedTimeNs"] / L
        granted = m["syncRounds"] - m["syncRoundsInFlight"]
        note = ", %d granting rounds for T / L = %.1f" % (granted, windows)
        if not windows / 2 <= granted <= windows + 2:
            bad.append("granting rounds %d outside [%.1f, %.1f] (T %d ns, L %g ns)"
                       % (granted, windows / 2, windows + 2, d["run"]["simulatedTimeNs"], L))
if bad:
    print("; ".join(bad))
    sys.exit(1)
print("%s: %d rounds (%d with frames in flight), %d null messages, %d frames%s"
      % (m["sync"], m["syncRounds"], m["syncRoundsInFlight"], m["nullMessages"],
         m["framesBetweenRanks"], note))
EOF2
}

FAILED=0
for c in "${CASES[@]}"; do
    IFS='|' read -r name ranks args split extra <<<"$c"
    args=${args//@\//$DATA/} # @/FILE: a file of test/data/mpi
    split=${split//@\//$DATA/}
    ref="$OUT/$name-r1"
    rm -rf "$ref"
    # shellcheck disable=SC2086
    if ! "$PROG" $args --ranks=1 --out="$ref" >"$ref.log" 2>&1; then
        [ -f "$ref/summary.json" ] || { echo "mpi-identity: $name, 1 rank: failed"; tail -n 20 "$ref.log"; FAILED=1; continue; }
    fi
    for n in $ranks; do
        run="$OUT/$name-r$n"
        rm -rf "$run"
        t0=$(date +%s.%N)
        # shellcheck disable=SC2086
        mpirun -np "$n" "$PROG" $args $split --ranks="$n" --out="$run" >"$run.log" 2>&1
        rc=$?
        wall=$(python3 -c "import time,sys; print('%.1f' % (time.time() - float(sys.argv[1])))" "$t0")
        if [ ! -f "$run/summary.json" ]; then
            echo "mpi-identity: $name, $n ranks: no summary.json (exit $rc)"
            tail -n 20 "$run.log"
            FAILED=1
            continue
        fi
        diffs=()
        while IFS= read -r f; do
            cmp -s "$ref/$f" "$run/$f" || diffs+=("$f")
        done < <(cd "$ref" && find . \( -name flows.csv -o -name fct.txt -o -name pfc.txt -o -name collective-steps.csv -o -name timeseries.csv \) | sort)
        if [ "${extra:-}" = events ]; then
            grep -q ',flow_stall,' "$ref/events.csv" || diffs+=("events.csv (no flow_stall rows at 1 rank)")
            cmp -s "$ref/events.csv" "$run/events.csv" || diffs+=("events.csv")
        fi
        if ! cmp -s <(strip_summary "$ref/summary.json") <(strip_summary "$run/summary.json"); then
            diffs+=("summary.json")
        fi
        if counters=$(check_counters "$n" "$run" "$run.log"); then
            echo "mpi-identity: $name, $n ranks: counters consistent ($counters)"
        else
            echo "mpi-identity: $name, $n ranks: COUNTERS INCONSISTENT: $counters"
            FAILED=1
        fi
        if [ ${#diffs[@]} -eq 0 ]; then
            echo "mpi-identity: $name, $n ranks: identical to 1 rank ($wall s; flows.csv, fct.txt, pfc.txt, timeseries.csv, collective-steps.csv where written, summary.json${extra:+, events.csv})"
        else
            echo "mpi-identity: $name, $n ranks: DIFFERS from 1 rank in ${diffs[*]}"
            for f in "${diffs[@]}"; do
                if [ "$f" = events.csv ]; then
                    diff "$ref/$f" "$run/$f" | head -n 10
                elif [ "${f#events.csv }" != "$f" ]; then
                    :
                elif [ "$f" = summary.json ]; then
                    diff <(strip_summary "$ref/summary.json") <(strip_summary "$run/summary.json") | head -n 20
                else
                    diff "$ref/$f" "$run/$f" | head -n 10
                fi
            done
            FAILED=1
        fi
    done
done
exit $FAILED
