#!/bin/sh
# limits.sh RUNNER REPORT ROUNDTRIP XSD FIB_TASKS
# The limits of docs/limits.md, each reached with a small value, end in a
# valid document that says so. examples/openmp/fib_tasks (fib(16) in tasks)
# on 4 threads:
#  - --stream-buffer=1M --stream-spill=no: Valgrind runs one thread for a
#    whole time slice (tens of thousands of blocks) while the replay needs
#    the others' events every 1000 instructions, so the running thread
#    buffers megabytes: the 1 MiB limit is reached and, with no spill file
#    (stream_spill.sh tests the default), the replay leaves the canonical
#    order;
#  - --ospg-max-nodes=50: fib(16) with a task cut-off at 12 spawns far more
#    than 50 tasks (each one a P node, a W node at least), so the graph fills
#    to exactly 50 nodes and the rest of the work is lost work.
# Expected: the program's own result, one stderr warning each, the
# document valid (schema, sir/ round trip), deterministic="false" with the
# stream-buffer reason, <parallelism nodes="50" complete="false">, the two
# <warning>s with the options' values as limits (1M = 1048576 bytes), and
# `ompsim-report summary` showing both. The same run within its limits has
# no <warnings> at all (documents of runs within their limits do not change).
runner=$1 report=$2 rt=$3 xsd=$4 prog=$5
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }
ok() { echo "ok: $*"; }
has() {  # FILE TEXT WHAT: FILE holds TEXT (a fixed string)
  if grep -qF -- "$2" "$1"; then ok "$3"; else fail "$3: '$2' not in $(basename "$1")"; fi
}

OMP_NUM_THREADS=4 "$runner" -q --stream-buffer=1M --stream-spill=no --ospg-max-nodes=50 --output-file="$t/lim.xml" "$prog" \
  >"$t/out" 2>"$t/err" || { fail "the run exited $?"; cat "$t/err"; exit 1; }
has "$t/out" "fib(16) = 987 (expected 987)" "the program ran to its end"
has "$t/err" "warning: this run's profile is not deterministic: stream buffer limit of 1048576 bytes reached" \
  "stderr: the stream buffer warning"
has "$t/err" "warning: the OSPG reached --ospg-max-nodes=50" "stderr: the OSPG warning"
if xmllint --noout --schema "$xsd" "$t/lim.xml" 2>"$t/lint"; then ok "valid against the schema"
else fail "schema"; head -n 5 "$t/lint"; fi
"$rt" "$t/lim.xml" >"$t/rt" && ok "sir/ reads it and writes the same bytes" || { fail "round trip"; cat "$t/rt"; }
has "$t/lim.xml" 'deterministic="false">' "deterministic=\"false\""
has "$t/lim.xml" '<warning kind="stream-buffer" option="--stream-buffer" limit="1048576">' "<warning> stream-buffer"
has "$t/lim.xml" '<warning kind="ospg-max-nodes" option="--ospg-max-nodes" limit="50">' "<warning> ospg-max-nodes"
has "$t/lim.xml" 'nodes="50"' "the OSPG holds exactly 50 nodes"
has "$t/lim.xml" 'complete="false" lost-work="' "<parallelism complete=\"false\">"
"$report" summary "$t/lim.xml" >"$t/summary" 2>&1 || fail "summary refuses the document: $(cat "$t/summary")"
has "$t/summary" "Limit reached:    stream-buffer (--stream-buffer=1048576): the replay's event buffers filled up" \
  "summary: stream-buffer"
has "$t/summary" "Limit reached:    ospg-max-nodes (--ospg-max-nodes=50): the OSPG reached its node limit" \
  "summary: ospg-max-nodes"

OMP_NUM_THREADS=4 "$runner" -q --output-file="$t/ok.xml" "$prog" >"$t/out" 2>"$t/err" || fail "the run within limits exited $?"
if grep -q '<warnings>' "$t/ok.xml"; then fail "a run within its limits has <warnings>"; else ok "no <warnings> within the limits"; fi
has "$t/ok.xml" 'deterministic="true">' "within the limits: deterministic=\"true\""
exit $status
