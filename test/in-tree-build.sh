#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# in-tree-build.sh MODULE_DIR
#
# Builds the mrc module the way ns-3 users do: copied into an ns-3 source tree
# as contrib/mrc, configured with ns-3's own CMake (build_lib), built, and
# tested with ns-3's test.py. Registered in CTest as "in-tree-build"; exit code
# 77 means "skipped".
#
# Environment:
#   MRC_NS3_SOURCE          unset/empty: skip (exit 77).
#                           auto: fetch Debian's ns3 source package with
#                             apt-get source into $MRC_INTREE_DIR/<ver>/
#                             (reused when already unpacked).
#                           /path/to/ns-3: use that source tree (it is modified:
#                             contrib/mrc, cmake-cache/ and build/ are written).
#                           /path/to/ns-3.VV.tar.xz (or .tar.bz2, .tar.gz, .tgz; a
#                             release or allinone tarball): unpacked once into
#                             $MRC_INTREE_DIR/<tarball name>/ and reused.
#                           Any ns-3 release from 3.37 on.
#   MRC_NS3_SOURCE_VERSION  3.37 (default; Debian bookworm) or 3.43 (trixie);
#                           used with MRC_NS3_SOURCE=auto.
#   MRC_INTREE_DIR          where fetched or unpacked trees live (default
#                           MODULE_DIR/build-intree).
#   MRC_NS3_PROFILE         ns-3 build profile: default (the default: -O2 -g,
#                           asserts and logging on), release or debug.
#   MRC_INTREE_JOBS         parallel compile jobs (default 2).
#   MRC_INTREE_NICE         niceness of the ns-3 build (default 0).
#   MRC_INTREE_BUILD_ONLY   1: stop after the build (no test.py run); used by
#                           `./ns3-mrc run --ranks=N` to build the MPI variant.
#   MRC_INTREE_MPI          1: configure ns-3 with --enable-mpi (ns-3's mpi module and the
#                           module's cross-rank links) and run the distributed-run check
#                           (test/mpi-identity.sh); 0: without MPI; auto (default): 1 when
#                           mpicxx and mpirun are installed.
set -u -o pipefail

if [ -z "${MRC_NS3_SOURCE:-}" ]; then
    echo "in-tree build check skipped: run ./ns3-mrc test --in-tree[=3.37|3.43|3.48] or --ns3-source=PATH"
    echo "(or set MRC_NS3_SOURCE=auto|/path/to/ns-3[.tar.xz] and run ctest -R in-tree-build -V)"
    exit 77
fi

[ $# -eq 1 ] || { echo "usage: $0 MODULE_DIR" >&2; exit 2; }
MODULE_DIR=$(cd "$1" && pwd) || { echo "in-tree: no such module folder '$1'" >&2; exit 2; }
VERSION=${MRC_NS3_SOURCE_VERSION:-3.37}
[ "$MRC_NS3_SOURCE" = auto ] || VERSION="given source" # until its VERSION file is read
PROFILE=${MRC_NS3_PROFILE:-default}
JOBS=${MRC_INTREE_JOBS:-2}
NICE=${MRC_INTREE_NICE:-0}
MPI=${MRC_INTREE_MPI:-auto}
if [ "$MPI" = auto ]; then
    if command -v mpicxx >/dev/null && command -v mpirun >/dev/null; then MPI=1; else MPI=0; fi
fi
case "$MPI" in
0 | 1) ;;
*) echo "in-tree: MRC_INTREE_MPI='$MPI' is not allowed (0, 1, auto)" >&2; exit 2 ;;
esac
CACHE_ROOT=${MRC_INTREE_DIR:-$MODULE_DIR/build-intree}

case "$PROFILE" in
default | release | debug) ;;
*) echo "in-tree: MRC_NS3_PROFILE='$PROFILE' is not allowed (default, release, debug)" >&2; exit 2 ;;
esac

# --- timing -------------------------------------------------------------------
T_START=$(date +%s)
TIMINGS=()
phase_begin() {
    PHASE=$1
    PHASE_T0=$(date +%s)
    echo
    echo "=== in-tree [$VERSION]: $PHASE ($(date '+%H:%M:%S'))"
}
phase_end() {
    local dt=$(($(date +%s) - PHASE_T0))
    TIMINGS+=("$(printf '%-10s %5d s  (%dm%02ds)%s' "$PHASE" "$dt" $((dt / 60)) $((dt % 60)) "${1:-}")")
    echo "=== in-tree [$VERSION]: $PHASE done in ${dt} s${1:-}"
}
print_timings() {
    local rc=$? total=$(($(date +%s) - T_START))
    echo
    echo "=== in-tree [$VERSION] timings (${JOBS} jobs, profile ${PROFILE}):"
    local t
    for t in "${TIMINGS[@]:-}"; do [ -n "$t" ] && echo "    $t"; done
    printf '    %-10s %5d s  (%dm%02ds)\n' total "$total" $((total / 60)) $((total % 60))
    if [ "$rc" = 0 ]; then
        echo "=== in-tree [$VERSION]: PASSED"
    else
        echo "=== in-tree [$VERSION]: FAILED (exit $rc)${PHASE:+ in phase '$PHASE'}"
    fi
}
trap print_timings EXIT

fail() {
    echo "in-tree [$VERSION]: $*" >&2
    exit 1
}

# show_log_tail LOG: the end of a log, after a failure.
show_log_tail() {
    echo "--- last 60 lines of $1:" >&2
    tail -n 60 "$1" >&2
}

# build_progress: from make's output on stdin, print a line each time the
# percentage passes another tenth. (A shell loop, not awk: mawk reads a pipe in
# large blocks, which would hold the lines back.)
build_progress() {
    local line p last=-1
    while IFS= read -r line; do
        p=-1
        if [[ $line =~ ^\[\ *([0-9]+)%\] ]]; then # make
            p=$((BASH_REMATCH[1] / 10 * 10))
        elif [[ $line =~ ^\[([0-9]+)/([0-9]+)\] ]] && [ "${BASH_REMATCH[2]}" -gt 0 ]; then # ninja
            p=$((BASH_REMATCH[1] * 100 / BASH_REMATCH[2] / 10 * 10))
        fi
        if [ "$p" -ge 0 ]; then
            if [ "$p" -gt "$last" ]; then
                last=$p
                printf '  build %3d%%  %(%H:%M:%S)T\n' "$p" -1
            fi
        fi
    done
}

# --- locating the ns-3 tree ---------------------------------------------------
# find_ns3_tree DIR: print the ns-3 source folder inside DIR. Debian's package
# unpacks as ns3-<ver>/ns-<ver>/ (the "allinone" layout, next to bake and
# netanim); a plain ns-3 checkout is the folder itself.
find_ns3_tree() {
    local d
    for d in "$1" "$1"/ns-3* "$1"/*/ns-3*; do
        if [ -f "$d/test.py" ] && [ -f "$d/CMakeLists.txt" ] && [ -d "$d/src/core" ]; then
            (cd "$d" && pwd)
            return 0
        fi
    done
    return 1
}

# Debian suites that serve each ns-3 source package.
suite_for() {
    case "$1" in
    3.37) echo bookworm ;;
    3.43) echo trixie ;;
    *) return 1 ;;
    esac
}

# debian_source_version VER: the newest Debian revision of ns3 VER known to apt.
debian_source_version() {
    apt-cache showsrc ns3 2>/dev/null | awk '/^Version:/ {print $2}' | grep -E "^$(echo "$1" | sed 's/\./\\./g')(\+[^-]*)?-" |
        sort -V | tail -n 1
}

# ensure_deb_src: make the bookworm and trixie source indexes known to apt.
# Only deb-src entries are added: binary packages keep coming from the
# machine's own suite.
SOURCES_FILE=/etc/apt/sources.list.d/mrc-deb-src.sources
ensure_deb_src() {
    [ -n "$(debian_source_version "$VERSION")" ] && return 0
    if [ "$(id -u)" != 0 ]; then
        fail "apt knows no source package ns3 $VERSION. As root, add a deb-src entry for Debian $(suite_for "$VERSION"), e.g.
  printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' > $SOURCES_FILE
  apt-get update
or run this check as root (./ns3-mrc test --in-tree does)."
    fi
    echo "in-tree: adding Debian source-package entries ($SOURCES_FILE) and running apt-get update"
    cat >"$SOURCES_FILE" <<'EOF'
# Added by the mrc module's in-tree build check (test/in-tree-build.sh):
# source packages only, so that `apt-get source ns3=<version>` can fetch
# Debian's ns-3 3.37 (bookworm) and 3.43 (trixie) source trees.
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    apt-get update -qq || fail "apt-get update failed"
    [ -n "$(debian_source_version "$VERSION")" ] ||
        fail "even with deb-src entries for bookworm and trixie, apt knows no source package ns3 $VERSION"
}

# fetch_debian_tree: set TREE to an unpacked Debian ns3 source tree for VERSION.
fetch_debian_tree() {
    suite_for "$VERSION" >/dev/null || fail "MRC_NS3_SOURCE_VERSION='$VERSION' is not allowed (3.37, 3.43)"
    local cache="$CACHE_ROOT/$VERSION"
    local stamp="$cache/.unpacked"
    if [ -f "$stamp" ] && TREE=$(find_ns3_tree "$cache/$(cat "$stamp")"); then
        echo "in-tree: reusing $(cat "$stamp") in $cache"
        return 0
    fi
    command -v dpkg-source >/dev/null ||
        fail "dpkg-source is missing: apt-get install dpkg-dev (./ns3-mrc test --in-tree installs it)"
    ensure_deb_src
    local debver
    debver=$(debian_source_version "$VERSION")
    echo "in-tree: Debian source package ns3 $debver (suite $(suite_for "$VERSION"))"
    rm -rf "$cache"
    mkdir -p "$cache/download"
    # As root, apt-get cannot hand the download to its _apt user inside a
    # root-owned folder; say so instead of warning about it.
    (cd "$cache/download" && apt-get source -q -o APT::Sandbox::User=root "ns3=$debver") >"$cache/fetch.log" 2>&1 || {
        show_log_tail "$cache/fetch.log"
        if grep -q '404' "$cache/fetch.log"; then
            fail "apt-get source ns3=$debver failed: apt's index lists ns3 $debver, but the mirror answered
404 Not Found for its files (a mirror keeps only the versions its current indexes
name, and a proxy may serve fewer). Give an ns-3 $VERSION source tree instead:
  MRC_NS3_SOURCE=/path/to/ns-$VERSION ctest -R in-tree-build -V   (in build/)"
        fi
        fail "apt-get source ns3=$debver failed (log: $cache/fetch.log)"
    }
    local unpacked
    unpacked=$(find "$cache/download" -mindepth 1 -maxdepth 1 -type d | head -n 1)
    [ -n "$unpacked" ] || fail "apt-get source ns3=$debver unpacked nothing (see $cache/fetch.log)"
    mv "$unpacked" "$cache/"
    local name
    name=$(basename "$unpacked")
    # Keep the unpacked tree only; the tarballs are 40 MB and not needed again.
    rm -rf "$cache/download"
    TREE=$(find_ns3_tree "$cache/$name") ||
        fail "no ns-3 source folder (with test.py, CMakeLists.txt, src/core) in Debian's package $cache/$name"
    echo "$name" >"$stamp"
    echo "in-tree: unpacked to $TREE"
}

# unpack_tarball FILE: set TREE to the ns-3 tree of a release tarball, unpacked
# once into $CACHE_ROOT/<name>/ (reused while the tarball is the same file).
unpack_tarball() {
    local file name dest stamp id
    file=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
    name=$(basename "$file")
    name=${name%.tar.xz}
    name=${name%.tar.bz2}
    name=${name%.tar.gz}
    name=${name%.tgz}
    dest="$CACHE_ROOT/$name"
    stamp="$dest/.unpacked"
    id="$file $(stat -c '%s %Y' "$file")"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$id" ] && TREE=$(find_ns3_tree "$dest"); then
        echo "in-tree: reusing $dest (unpacked from $file)"
        return 0
    fi
    echo "in-tree: unpacking $file into $dest"
    rm -rf "$dest"
    mkdir -p "$dest"
    tar -xf "$file" -C "$dest" || fail "unpacking $file failed"
    TREE=$(find_ns3_tree "$dest") ||
        fail "no ns-3 source folder (with test.py, CMakeLists.txt, src/core) in $file"
    echo "$id" >"$stamp"
}

# The checks proper, in one function: bash reads all of it before running it,
# so editing this file during a long run cannot derail the run.
main() {
# --- 1. fetch -----------------------------------------------------------------
phase_begin fetch
if [ "$MRC_NS3_SOURCE" = auto ]; then
    fetch_debian_tree
elif [ -f "$MRC_NS3_SOURCE" ]; then
    unpack_tarball "$MRC_NS3_SOURCE"
else
    TREE=$(find_ns3_tree "$MRC_NS3_SOURCE") ||
        fail "MRC_NS3_SOURCE='$MRC_NS3_SOURCE' holds no ns-3 source tree (test.py, CMakeLists.txt, src/core)"
fi
TREE_VERSION=$(head -n 1 "$TREE/VERSION" 2>/dev/null || echo unknown)
echo "in-tree: ns-3 source tree $TREE (VERSION file: $TREE_VERSION)"
if [ "$MRC_NS3_SOURCE" = auto ] && [ "$TREE_VERSION" != "$VERSION" ]; then
    fail "the tree says it is ns-3 $TREE_VERSION, not $VERSION"
fi
[ "$MRC_NS3_SOURCE" = auto ] || VERSION=$TREE_VERSION
# 3.37 is the oldest release the module supports; "3-dev" (a development
# checkout) is newer than any release.
if [[ "$VERSION" =~ ^3\.([0-9]+) ]] && [ "${BASH_REMATCH[1]}" -lt 37 ]; then
    fail "ns-3 $VERSION is older than 3.37, the oldest release the mrc module supports"
fi
LOGS="$TREE/mrc-logs"
mkdir -p "$LOGS"

# Copy the module: every file git tracks plus new files not ignored (so the
# copy holds what the module contains now, without build folders). Outside a
# git checkout, everything but build output. The copy is made fresh in a
# staging folder, then contrib/mrc is made equal to it by content: a changed
# file is written anew (so its time is now and make recompiles it, even when
# the module's own file is older than an earlier, different copy), an
# unchanged one is left alone (so a second run recompiles nothing), and files
# the module no longer has are removed.
DEST="$TREE/contrib/mrc"
STAGE="$TREE/mrc-logs/staging"
rm -rf "$STAGE"
mkdir -p "$STAGE" "$DEST" # Debian's tree may ship an empty contrib/ or none at all
if git -C "$MODULE_DIR" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$MODULE_DIR" && git ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
        tar --null -T - -cf -) | tar -xf - -C "$STAGE" || fail "copying the module to $STAGE failed"
else
    (cd "$MODULE_DIR" && tar --exclude='./build*' --exclude=./results --exclude=./.git -cf - .) |
        tar -xf - -C "$STAGE" || fail "copying the module to $STAGE failed"
fi
N_CHANGED=0
while IFS= read -r -d '' f; do
    if ! cmp -s "$STAGE/$f" "$DEST/$f"; then
        mkdir -p "$(dirname "$DEST/$f")"
        rm -f "$DEST/$f"
        cp "$STAGE/$f" "$DEST/$f" || fail "copying $f to $DEST failed"
        chmod --reference="$STAGE/$f" "$DEST/$f"
        N_CHANGED=$((N_CHANGED + 1))
    fi
done < <(cd "$STAGE" && find . -type f -printf '%P\0')
while IFS= read -r -d '' f; do
    [ -e "$STAGE/$f" ] || rm -f "$DEST/$f"
done < <(cd "$DEST" && find . -type f -printf '%P\0')
find "$DEST" -mindepth 1 -type d -empty -delete
rm -rf "$STAGE"
echo "in-tree: $DEST holds the module's $(find "$DEST" -type f | wc -l) files ($N_CHANGED new or changed since the last run)"
phase_end

# --- 2. configure -------------------------------------------------------------
# Through ns-3's own ./ns3, as a user would. NS3 --enable-modules=mrc builds only
# mrc and what its CMakeLists.txt links (read as text: ${libcore}, ${libnetwork},
# ${libinternet}, and what those need). ./ns3 refuses to run when USER is root
# (it fears root-owned files in a user's tree); this tree belongs to the check,
# so ./ns3 is told another name.
ns3() {
    local user=${USER:-}
    [ "$user" = root ] || [ -z "$user" ] && user=mrc-intree
    USER=$user nice -n "$NICE" python3 ./ns3 "$@"
}
phase_begin configure
cd "$TREE" || fail "cannot enter $TREE"
# ns-3's configure writes a forwarding header build/include/ns3/X.h for every module header
# but skips one that already exists, so a header that moved inside the module (e.g. from
# model/link/ to model/util/) would keep pointing at its old place. Remove the module's
# forwarding headers (stubs and symlinks into contrib/mrc) whose target no longer exists;
# configure writes them anew. (The others stay, so that nothing is recompiled for them.)
if [ -d build/include/ns3 ]; then
    N_STALE=0
    for h in build/include/ns3/*.h; do
        target=""
        if [ -L "$h" ]; then
            target=$(readlink "$h")
        elif [ -f "$h" ]; then
            target=$(sed -n 's/^#include "\(.*\/contrib\/mrc\/.*\)"$/\1/p' "$h" | head -n 1)
        fi
        if [[ "$target" == */contrib/mrc/* ]] && [ ! -e "$target" ]; then
            rm -f "$h"
            N_STALE=$((N_STALE + 1))
        fi
    done
    echo "in-tree: removed $N_STALE stale forwarding headers of the module from build/include/ns3"
fi
PROFILE_ARGS=(-d "$PROFILE")
[ "$PROFILE" = default ] && PROFILE_ARGS+=(--enable-asserts --enable-logs)
if [ "$MPI" = 1 ]; then PROFILE_ARGS+=(--enable-mpi); else PROFILE_ARGS+=(--disable-mpi); fi
ns3 configure "${PROFILE_ARGS[@]}" --enable-tests --enable-examples --disable-werror \
    --disable-python-bindings --enable-modules=mrc --filter-module-examples-and-tests=mrc \
    >"$LOGS/configure.log" 2>&1 || {
    show_log_tail "$LOGS/configure.log"
    fail "./ns3 configure failed (log: $LOGS/configure.log)"
}
# ns-3 prints the module lists at the end of configure.
sed -n '/Modules configured to be built/,/^-- Configuring done/p' "$LOGS/configure.log" | grep -v '^$' | head -n 30
grep -q 'contrib/mrc\|[[:space:]]mrc[[:space:]]\|[[:space:]]mrc$' "$LOGS/configure.log" ||
    echo "in-tree: warning: configure did not mention the mrc module (see $LOGS/configure.log)"
phase_end

# --- 3. build -----------------------------------------------------------------
# Only progress steps of 10 % are shown; the full output is in build.log.
phase_begin build
# ./ns3 build runs `cmake --build cmake-cache -j N` but caps N at the number of cores minus
# one (one job on a 2-core machine, whatever -j says). The check runs that same command
# with MRC_INTREE_JOBS jobs, then ./ns3 build, which must find nothing left to do.
nice -n "$NICE" cmake --build cmake-cache -j "$JOBS" 2>&1 | tee "$LOGS/build.log" | build_progress
BUILD_RC=${PIPESTATUS[0]}
if [ "$BUILD_RC" = 0 ]; then
    ns3 build >>"$LOGS/build.log" 2>&1
    BUILD_RC=$?
fi
if [ "$BUILD_RC" != 0 ]; then
    grep -n -B2 -A8 'error:' "$LOGS/build.log" | head -n 80 >&2
    show_log_tail "$LOGS/build.log"
    fail "./ns3 build failed (log: $LOGS/build.log)"
fi
MRC_WARNINGS=$(grep -c 'contrib/mrc/.*warning:' "$LOGS/build.log")
if [ "$MRC_WARNINGS" != 0 ]; then
    echo "in-tree: $MRC_WARNINGS compiler warnings in contrib/mrc:"
    grep 'contrib/mrc/.*warning:' "$LOGS/build.log" | sort -u | head -n 40
fi
ls "$TREE"/build/lib/*mrc* 2>/dev/null | sed 's/^/  built /'
phase_end " ($MRC_WARNINGS warnings in contrib/mrc)"
if [ "${MRC_INTREE_BUILD_ONLY:-0}" = 1 ]; then
    echo "in-tree: built (MRC_INTREE_BUILD_ONLY=1: no tests run); programs in $TREE/build/contrib/mrc/examples"
    exit 0
fi

# --- 4. test ------------------------------------------------------------------
# test.py runs the suite "mrc": one ns-3 TestCase per GoogleTest case, each in a
# child process of its own. -f EXTENSIVE includes the slow cases that a plain
# `./test.py -s mrc` (QUICK) leaves out.
phase_begin test
python3 test.py -n -s mrc -f EXTENSIVE --text="$LOGS/test-suite.txt" 2>&1 | tee "$LOGS/test-suite.log"
TEST_RC=${PIPESTATUS[0]}
# test.py up to 3.4x appends .txt to the name given to --text.
[ -f "$LOGS/test-suite.txt.txt" ] && mv -f "$LOGS/test-suite.txt.txt" "$LOGS/test-suite.txt"
# The per-case verdicts, from test.py's text report (one line per case).
CASES=$(grep -c 'PASS: Test Case' "$LOGS/test-suite.txt" 2>/dev/null)
FAILED_CASES=$(grep -E '(FAIL|CRASH): Test Case' "$LOGS/test-suite.txt" 2>/dev/null)
echo "in-tree: ${CASES:-0} test cases of the suite mrc passed (-f EXTENSIVE)${FAILED_CASES:+; failed:}"
[ -n "$FAILED_CASES" ] && echo "$FAILED_CASES" | head -n 50
# test.py colours its verdicts ("[1/1] PASS: TestSuite mrc") even into a pipe.
if [ "$TEST_RC" != 0 ] || ! sed 's/\x1b\[[0-9;]*m//g' "$LOGS/test-suite.log" | grep -q 'PASS: TestSuite mrc$'; then
    [ -f "$LOGS/test-suite.txt" ] && grep -v 'PASS: Test Case' "$LOGS/test-suite.txt" | tail -n 200 >&2
    fail "./test.py -n -s mrc -f EXTENSIVE did not pass (exit $TEST_RC)"
fi

# C++ examples listed in test/examples-to-run.py run through test.py, which
# reads the same file (with arguments and conditions). Python examples are not
# run: this check builds ns-3 without Python bindings.
N_EXAMPLES=$(python3 -c "
import sys
ns = {}
exec(open(sys.argv[1]).read(), ns)
print(len(ns.get('cpp_examples', [])))
" "$DEST/test/examples-to-run.py" 2>/dev/null || echo 0)
if [ "$N_EXAMPLES" -gt 0 ]; then
    python3 test.py -n --constrain=example 2>&1 | tee "$LOGS/test-examples.log"
    EX_RC=${PIPESTATUS[0]}
    PASSED=$(sed -n 's/.*tests passed (\([0-9]*\) passed.*/\1/p' "$LOGS/test-examples.log" | tail -n 1)
    [ "$EX_RC" = 0 ] || fail "./test.py -n --constrain=example failed (exit $EX_RC)"
    [ "${PASSED:-0}" -ge "$N_EXAMPLES" ] ||
        fail "test.py ran ${PASSED:-0} examples but test/examples-to-run.py lists $N_EXAMPLES (is each built and its condition true?)"
else
    echo "in-tree: test/examples-to-run.py lists no examples"
fi

# The scenario program through ./ns3 run, and a typo in an enum attribute: the
# module's message and exit code 2, not ns-3's enum assert.
ns3 run --no-build "mrc-sim incast --senders=2 --out=$LOGS/run-mrc-sim" >"$LOGS/run-mrc-sim.log" 2>&1 ||
    { tail -n 30 "$LOGS/run-mrc-sim.log" >&2; fail "./ns3 run \"mrc-sim incast --senders=2\" failed"; }
grep -v '^\s*$' "$LOGS/run-mrc-sim.log" | tail -n 6 | sed 's/^/  /'
ns3 run --no-build "mrc-sim --ns3::MrcDcqcnNotificationPoint::CnpStyle=Sometimes" >"$LOGS/run-enum-typo.log" 2>&1
TYPO_RC=$?
echo "in-tree: ./ns3 run \"mrc-sim --ns3::MrcDcqcnNotificationPoint::CnpStyle=Sometimes\": exit $TYPO_RC"
grep -m1 'error:' "$LOGS/run-enum-typo.log" | sed 's/^/  /'
# ./ns3 run reports the program's exit code as its own (3.48: 2; 3.37: 1).
grep -q "error: invalid value for --ns3::MrcDcqcnNotificationPoint::CnpStyle: value 'Sometimes' is not valid" \
    "$LOGS/run-enum-typo.log" || { cat "$LOGS/run-enum-typo.log" >&2; fail "the enum typo did not give the module's message"; }
# Distributed runs (MRC_INTREE_MPI=1): the same seed gives the same result files with 1, 2
# and 4 ranks (test/mpi-identity.sh, mpirun on this machine).
if [ "$MPI" = 1 ]; then
    MPI_PROG=$(find build -path '*contrib/mrc/examples/*' -name 'ns3*-mrc-sim-*' -type f -executable | head -n 1)
    [ -n "$MPI_PROG" ] || fail "no mrc-sim program in build/ for the distributed-run check"
    bash "$DEST/test/mpi-identity.sh" "$MPI_PROG" "$LOGS/mpi-identity" 2>&1 | tee "$LOGS/mpi-identity.log"
    [ "${PIPESTATUS[0]}" = 0 ] || fail "distributed runs differ from one process (log: $LOGS/mpi-identity.log)"
else
    echo "in-tree: distributed-run check not run (ns-3 configured without MPI)"
fi
phase_end
exit 0
}

main
exit $?
