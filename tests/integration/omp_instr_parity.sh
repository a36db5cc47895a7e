#!/bin/sh
# omp_instr_parity.sh RUNNER PROGRAM...
# Nothing of an OpenMP program's own code is lost or counted twice: with
# OMP_NUM_THREADS=4, the instructions ompsim records per source line of the
# program's file (its Cachegrind-format output, summed over functions)
# equal what Cachegrind counts for the same lines (valgrind from PATH,
# --cache-sim=no), an independent count of the code the threads executed.
# The programs are ones whose per-line counts do not depend on which
# thread ran what (no dynamic or guided loop: ompsim fixes that assignment
# and Cachegrind's run does not; docs/openmp.md). A lost stream segment
# shows here: before e8f810a the code after a taskwait whose children ran
# on the same thread was not recorded (most of fib_tasks' `return a + b`).
runner=$1; shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

# lines FILE SOURCE: "line Ir" for the cost lines of files named SOURCE.
lines() {
    awk -v src="$2" '
        /^fl=/ { f = substr($0, 4); n = split(f, p, "/"); keep = (p[n] == src); next }
        /^[0-9]/ && keep { ir[$1] += $2 }
        END { for (l in ir) print l, ir[l] }' "$1" | sort -n
}

for prog in "$@"; do
    name=$(basename "$prog")
    env OMP_NUM_THREADS=4 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$tmp/cg.$name" \
        "$prog" > /dev/null 2>&1 || { echo "FAIL: $name under cachegrind"; status=1; continue; }
    env OMP_NUM_THREADS=4 "$runner" -q --output-file=/dev/null --cachegrind-out-file="$tmp/om.$name" \
        "$prog" > /dev/null 2>&1 || { echo "FAIL: $name under ompsim"; status=1; continue; }
    lines "$tmp/cg.$name" "$name.c" > "$tmp/cg.lines"
    lines "$tmp/om.$name" "$name.c" > "$tmp/om.lines"
    if [ ! -s "$tmp/cg.lines" ]; then
        echo "FAIL: $name: no line of $name.c in Cachegrind's output"; status=1
    elif cmp -s "$tmp/cg.lines" "$tmp/om.lines"; then
        echo "ok   $name: $(wc -l < "$tmp/cg.lines") lines of $name.c, $(awk '{s += $2} END {print s}' "$tmp/cg.lines") instructions, as Cachegrind counts"
    else
        echo "FAIL: $name: per-line instructions differ (< cachegrind, > ompsim)"
        diff "$tmp/cg.lines" "$tmp/om.lines" | head -n 10
        status=1
    fi
done
exit $status
