#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# check-cli-options.sh REPO_ROOT
#
# CTest check of ./ns3-mrc's refusals of options that cannot go together or do not exist:
# each must exit 2, before building anything, with a message naming the option and what is
# allowed. Exit 0 if every case does, 1 otherwise.
set -u -o pipefail
[ $# -eq 1 ] || { echo "usage: $0 REPO_ROOT" >&2; exit 2; }
cli="$1/ns3-mrc"
status=0

# expect "ARGS" "TEXT": ./ns3-mrc ARGS exits 2 and its first line of stderr contains TEXT
expect() {
    local args=$1 text=$2 out rc
    # shellcheck disable=SC2086
    out=$("$cli" $args 2>&1 >/dev/null) && rc=0 || rc=$?
    local first=${out%%$'\n'*}
    if [ $rc != 2 ] || [[ "$first" != *"$text"* ]]; then
        echo "FAIL: ./ns3-mrc $args: exit $rc, first line '$first' (expected exit 2 and '$text')"
        status=1
    else
        echo "ok: ./ns3-mrc $args: $first"
    fi
}

expect "build --pgo --debug" "'build --pgo' is an optimised build; --debug is the other kind (allowed: one of them)"
expect "build --bogus" "unknown option '--bogus' for 'build' (allowed: --debug, --pgo)"
expect "run compare --pgo --ranks=2" "'run --ranks' runs its own MPI build; --pgo is for runs in one process"
expect "bench --pgo --ranks=2" "'bench --ranks' runs its own MPI build; --no-asserts and --pgo are for the other benchmarks"
expect "bench --bogus" "unknown option '--bogus' for 'bench' (allowed: --filter=REGEX, --repeat=N, --instructions, --cache[=BYTES], --no-asserts, --pgo, --ranks=N)"
expect "bench --cache=1000" "bad --cache '1000' for 'bench' (allowed: a last-level size in bytes, a power of two from 65536 to 1073741824; --cache alone: 2097152)"
expect "bench --cache=3145728" "bad --cache '3145728' for 'bench'"
expect "bench --repeat=0" "bad --repeat '0' for 'bench' (allowed: a whole number >= 1)"
expect "validate --bogus" "unknown option '--bogus' for 'validate' (allowed: --quick, --case=ID, --reuse, --no-plots, --jobs=N, --pgo)"
expect "nosuchcommand" "unknown command 'nosuchcommand'"
exit $status
