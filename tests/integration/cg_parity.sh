#!/bin/bash
# cg_parity.sh VALGRIND_LIB_DIR PROGRAM [ARGS...]
#
# Runs PROGRAM under Valgrind Cachegrind and under ompsim --machine=cachegrind
# with identical cache configurations and an identical client environment
# (VALGRIND_LIB=VALGRIND_LIB_DIR for BOTH runs: the LD_PRELOAD path of the
# preload libraries ends up on the client stack, so a different VALGRIND_LIB
# string can shift the client's stack layout), then requires
#   - identical program stdout and exit status, and
#   - identical Cachegrind output (events, summary, per file/function/line
#     costs) according to cg_compare.py.
# Exit status: 0 if everything matches, 1 on any mismatch or failure,
# 2 on usage errors.
#
# Environment:
#   VALGRIND        valgrind launcher to use (default: valgrind from PATH)
#   CG_CACHES       cache options for both runs
#                   (default "--I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64")
#   OMPSIM_EXTRA_OPTS  replaces "--machine=cachegrind --simulate-wrappers=yes"
#                   in the ompsim run
#                   (for self-testing with a fake "ompsim" that is really
#                   cachegrind, e.g. OMPSIM_EXTRA_OPTS=--cache-sim=yes)
#   CG_PARITY_KEEP  if set to a directory, the outputs are copied there
#   PYTHON          python3 interpreter (default python3)

set -u

usage() {
    echo "usage: $0 VALGRIND_LIB_DIR PROGRAM [ARGS...]" >&2
    exit 2
}

[ $# -ge 2 ] || usage
VGLIB=$1
shift
[ -d "$VGLIB" ] || { echo "cg_parity: not a directory: $VGLIB" >&2; exit 2; }

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VALGRIND=${VALGRIND:-valgrind}
PYTHON=${PYTHON:-python3}
CACHES=${CG_CACHES:---I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64}
OMPSIM_OPTS=${OMPSIM_EXTRA_OPTS---machine=cachegrind --simulate-wrappers=yes}

T=$(mktemp -d "${TMPDIR:-/tmp}/cg_parity.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' HUP INT TERM

# ompsim's preload library (allocation wrappers) is in every ompsim client.
# Cachegrind gets it through LD_PRELOAD so that both clients load the same
# libraries, run the same code (the wrappers are not in force in either run:
# these programs are serial and run without the monitor, and only ompsim
# sends calls to them; --simulate-wrappers=yes would count them where they
# are) and see the same environment, variable for
# variable and in the same order (ld.so scans it): both runs get an explicit environment that
# ends with the variables Valgrind adds, GLIBCXX_FORCE_NEW and LD_PRELOAD.
# Valgrind edits existing ones in place and appends missing ones, so the
# order comes out the same whichever tool runs.
# Debian's /usr/bin/valgrind is a /bin/sh wrapper that exports three
# variables and execs valgrind.bin; dash re-exports the environment in its
# own hash order, which would put an existing LD_PRELOAD mid-way. So call
# valgrind.bin directly with the wrapper's variables already set.
PRELOAD=$VGLIB/vgpreload_ompsim-amd64-linux.so
BASE_ENV=()
while IFS= read -r -d '' kv; do
    case $kv in
        LD_PRELOAD=*|VALGRIND_LIB=*|GLIBCXX_FORCE_NEW=*|GLIBCPP_FORCE_NEW=*|LD_LIBRARY_PATH=*|_=*) ;;
        *) BASE_ENV+=("$kv") ;;
    esac
done < <(env -0)
if [ "$VALGRIND" = valgrind ] && command -v valgrind.bin >/dev/null &&
   grep -q 'exec \$0.bin' "$(command -v valgrind)" 2>/dev/null; then
    VALGRIND=valgrind.bin
    BASE_ENV+=("LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/lib/debug" "GLIBCPP_FORCE_NEW=1")
elif [ -n "${LD_LIBRARY_PATH:-}" ]; then
    BASE_ENV+=("LD_LIBRARY_PATH=$LD_LIBRARY_PATH")
fi
BASE_ENV+=("VALGRIND_LIB=$VGLIB" "GLIBCXX_FORCE_NEW=1")
CG_ENV=()
[ -e "$PRELOAD" ] && CG_ENV=("LD_PRELOAD=$PRELOAD")

# ompsim translates without VEX's chasing, as Callgrind does (see
# vgtool/ToolMain.cpp, post_clo_init): with chasing, VEX counts more
# instructions in places (ld.so's intel_check_word, glibc's _int_free), so
# Cachegrind gets --vex-guest-chase=no to see the same instructions.
CG_CHASE=--vex-guest-chase=no
# Word splitting of CACHES / OMPSIM_OPTS is intended.
# shellcheck disable=SC2086
env -i "${BASE_ENV[@]}" "${CG_ENV[@]}" "$VALGRIND" --tool=cachegrind --cache-sim=yes $CG_CHASE $CACHES \
    --cachegrind-out-file="$T/cg.out" "$@" >"$T/cg.stdout" 2>"$T/cg.stderr" </dev/null
cg_rc=$?
# shellcheck disable=SC2086
env -i "${BASE_ENV[@]}" "$VALGRIND" --tool=ompsim $OMPSIM_OPTS $CACHES \
    --output-file="$T/om.xml" --cachegrind-out-file="$T/om.out" "$@" >"$T/om.stdout" 2>"$T/om.stderr" </dev/null
om_rc=$?

if [ -n "${CG_PARITY_KEEP:-}" ]; then
    keep="$CG_PARITY_KEEP/$(basename "$1").$$"
    mkdir -p "$keep" && cp "$T"/* "$keep"/
fi

fail=0
show_stderr() {
    echo "--- $1 stderr (last 20 lines):"
    tail -n 20 "$2"
}

if [ ! -s "$T/cg.out" ]; then
    echo "cg_parity: cachegrind produced no output file (exit $cg_rc)"
    show_stderr cachegrind "$T/cg.stderr"
    fail=1
fi
if [ ! -s "$T/om.out" ]; then
    echo "cg_parity: ompsim produced no output file (exit $om_rc)"
    show_stderr ompsim "$T/om.stderr"
    fail=1
fi
if [ "$cg_rc" != "$om_rc" ]; then
    echo "cg_parity: exit status differs: cachegrind $cg_rc, ompsim $om_rc"
    fail=1
fi
if ! cmp -s "$T/cg.stdout" "$T/om.stdout"; then
    echo "cg_parity: program stdout differs (cachegrind vs ompsim):"
    diff "$T/cg.stdout" "$T/om.stdout" | head -n 20
    fail=1
fi
if [ "$fail" = 0 ] || { [ -s "$T/cg.out" ] && [ -s "$T/om.out" ]; }; then
    "$PYTHON" "$HERE/cg_compare.py" "$T/cg.out" "$T/om.out"
    rc=$?
    [ "$rc" = 0 ] || fail=1
fi

if [ "$fail" = 0 ]; then
    echo "cg_parity: PASS $*"
    exit 0
fi

# A mismatch: run both tools once more to tell a parity bug from a client
# whose addresses moved between runs (seen rarely, only with tiny
# direct-mapped caches, which turn any address shift into different
# conflict misses). The reruns redirect exactly as the first runs did:
# stdout to /dev/null instead of a file changes glibc's buffer sizes and so
# the client's allocations. ompsim differing from itself is our bug and fails;
# Cachegrind differing from itself means the reference run was not
# reproducible, and the second pair decides.
# shellcheck disable=SC2086
env -i "${BASE_ENV[@]}" "${CG_ENV[@]}" "$VALGRIND" --tool=cachegrind --cache-sim=yes $CG_CHASE $CACHES \
    --cachegrind-out-file="$T/cg2.out" "$@" >"$T/cg2.stdout" 2>"$T/cg2.stderr" </dev/null
# shellcheck disable=SC2086
env -i "${BASE_ENV[@]}" "$VALGRIND" --tool=ompsim $OMPSIM_OPTS $CACHES \
    --output-file="$T/om2.xml" --cachegrind-out-file="$T/om2.out" "$@" >"$T/om2.stdout" 2>"$T/om2.stderr" </dev/null
echo "cg_parity: second runs: ompsim vs ompsim:"
if ! "$PYTHON" "$HERE/cg_compare.py" "$T/om.out" "$T/om2.out"; then
    echo "cg_parity: FAIL $*: ompsim is not deterministic"
    exit 1
fi
if ! "$PYTHON" "$HERE/cg_compare.py" "$T/cg.out" "$T/cg2.out" >/dev/null; then
    echo "cg_parity: the first Cachegrind run was not reproducible; comparing the second pair:"
    if "$PYTHON" "$HERE/cg_compare.py" "$T/cg2.out" "$T/om2.out"; then
        echo "cg_parity: PASS $* (on the second pair)"
        exit 0
    fi
fi
echo "cg_parity: FAIL $*"
exit 1
