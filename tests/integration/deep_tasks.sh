#!/bin/sh
# deep_tasks.sh RUNNER DEEP_TASKS_BINARY OMPSIM_REPORT
# 200 undeferred tasks nested in one another on 2 threads: the run ends
# normally (the tool once asserted at 64 nested units), the program's sum
# is 200 x 201 / 2 = 20100, and the document passes the reader's checks.
runner=$1 bin=$2 report=$3
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
OMP_NUM_THREADS=2 "$runner" -q --output-file="$t/doc.xml" "$bin" 200 >"$t/stdout" 2>"$t/stderr" || {
  echo "FAIL: the run failed"; cat "$t/stderr"; exit 1; }
grep -q '^sum 20100$' "$t/stdout" || { echo "FAIL: wrong output"; cat "$t/stdout"; exit 1; }
grep -q 'complete="true"' "$t/doc.xml" || { echo "FAIL: the document is not complete"; exit 1; }
"$report" summary "$t/doc.xml" >"$t/summary" 2>&1 || { echo "FAIL: ompsim-report rejects the document"; cat "$t/summary"; exit 1; }
echo "ok: 200 nested undeferred tasks"
