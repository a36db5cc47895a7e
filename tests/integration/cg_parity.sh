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
#   OMPSIM_EXTRA_OPTS  replaces "--machine=cachegrind" in the ompsim run
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
OMPSIM_OPTS=${OMPSIM_EXTRA_OPTS---machine=cachegrind}

T=$(mktemp -d "${TMPDIR:-/tmp}/cg_parity.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' HUP INT TERM

# Word splitting of CACHES / OMPSIM_OPTS is intended.
# shellcheck disable=SC2086
VALGRIND_LIB=$VGLIB "$VALGRIND" --tool=cachegrind --cache-sim=yes $CACHES \
    --cachegrind-out-file="$T/cg.out" "$@" >"$T/cg.stdout" 2>"$T/cg.stderr" </dev/null
cg_rc=$?
# shellcheck disable=SC2086
VALGRIND_LIB=$VGLIB "$VALGRIND" --tool=ompsim $OMPSIM_OPTS $CACHES \
    --cachegrind-out-file="$T/om.out" "$@" >"$T/om.stdout" 2>"$T/om.stderr" </dev/null
om_rc=$?

if [ -n "${CG_PARITY_KEEP:-}" ]; then
    mkdir -p "$CG_PARITY_KEEP" && cp "$T"/* "$CG_PARITY_KEEP"/
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
echo "cg_parity: FAIL $*"
exit 1
