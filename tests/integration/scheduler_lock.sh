#!/bin/sh
# scheduler_lock.sh RUNNER OPENMP_PROGRAM
# ompsim picks Valgrind's fair (ticket) scheduler lock unless a --fair-sched
# option was given (vgtool/FairScheduling.h): -v -v names the lock the core
# chose. The lock changes which client thread runs when, never a number of
# the profile: an OpenMP program's documents with the ticket lock and with
# the pipe lock are byte-identical.
runner=$1 prog=$2
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
status=0

# The lock named in a -v -v log on standard input.
lock_named() { sed -n 's/.*Scheduler: using \(.*\) scheduler lock implementation.*/\1/p'; }

# The lock --fair-sched=try gives on this host (the ticket lock needs futexes).
expect=$(valgrind --tool=none -v -v --fair-sched=try true 2>&1 | lock_named)
[ -n "$expect" ] || { echo "FAIL: valgrind -v -v does not name its scheduler lock"; exit 1; }

# lock NAME EXPECTED [ENV] OPTIONS...: the lock of a run of `true`.
lock() {
    name=$1 want=$2 env=$3
    shift 3
    got=$(env $env "$runner" -v -v --output-file="$t/true.xml" --output-overwrite=yes "$@" true 2>&1 | lock_named)
    if [ "$got" = "$want" ]; then echo "ok: $name: the $got scheduler lock"
    else echo "FAIL: $name: the '$got' scheduler lock, expected '$want'"; status=1; fi
}
lock default "$expect" OMPSIM_UNUSED=0
lock "--fair-sched=no" generic OMPSIM_UNUSED=0 --fair-sched=no
lock "VALGRIND_OPTS=--fair-sched=no" generic VALGRIND_OPTS=--fair-sched=no
lock "--fair-sched=try" "$expect" OMPSIM_UNUSED=0 --fair-sched=try

for m in try no; do
    OMP_NUM_THREADS=4 "$runner" -q --fair-sched=$m --output-file="$t/$m.xml" "$prog" >/dev/null 2>"$t/$m.err" ||
        { echo "FAIL: $prog with --fair-sched=$m"; tail -n 5 "$t/$m.err"; status=1; }
done
if cmp -s "$t/try.xml" "$t/no.xml"; then echo "ok: $(basename "$prog"): identical documents with both locks"
else echo "FAIL: $(basename "$prog"): the documents differ between the locks"; status=1; fi
exit $status
