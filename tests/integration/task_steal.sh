#!/bin/sh
# task_steal.sh RUNNER TASK_STEAL_BINARY
# The replay's work-stealing task order (docs/openmp.md, "Replay"):
# tests/progs/task_steal creates tasks A, B, C, D of 1, 2, 3, 4 units of
# work on thread 0 of 4 and waits. Thread 0 runs its newest (D); threads
# 1, 2, 3 steal the oldest in turn (A, B, C). Run with UNIT and 2 x UNIT
# iterations per unit: a core's instructions grow by the units its task has
# times U (the instructions of UNIT iterations), so the growth is 4U, 1U,
# 2U, 3U on cores 0 to 3 (oldest first from one queue would give 1U, 2U,
# 3U, 4U). Exactly on cores 1 to 3, which run nothing else that depends on
# UNIT; core 0 also parses the argument and prints the result, a few
# instructions that may differ (2 here), so there within U / 1000.
runner=$1 bin=$2
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
for unit in 40000 80000; do
  OMP_NUM_THREADS=4 "$runner" -q --output-file="$t/$unit.xml" "$bin" $unit >"$t/stdout" 2>"$t/stderr" || {
    echo "FAIL: the run with $unit failed"; cat "$t/stderr"; exit 1; }
  grep -q 'deterministic="true"' "$t/$unit.xml" || { echo "FAIL: not deterministic"; exit 1; }
  grep -o '<core id="[0-9]*" instructions="[0-9]*"' "$t/$unit.xml" | sed 's/.*instructions="\([0-9]*\)"/\1/' >"$t/$unit.cores"
done
paste "$t/40000.cores" "$t/80000.cores" | awk '
  { grow[NR - 1] = $2 - $1 }
  END {
    if (NR != 4) { print "FAIL: " NR " cores in the document, not 4"; exit 1 }
    U = grow[1]
    want[0] = 4; want[1] = 1; want[2] = 2; want[3] = 3
    for (c = 0; c < 4; ++c)
      if (c == 0 ? (grow[c] - 4 * U) * 1000 > U || (4 * U - grow[c]) * 1000 > U : grow[c] != want[c] * U) {
        printf "FAIL: core %d grew by %d instructions, not %d x %d\n", c, grow[c], want[c], U; bad = 1
      }
    if (U <= 0) { print "FAIL: no growth"; exit 1 }
    if (bad) exit 1
    printf "ok: cores 0-3 ran D, A, B, C (growth 4, 1, 2, 3 x %d instructions)\n", U
  }'
