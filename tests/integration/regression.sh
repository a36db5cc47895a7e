#!/bin/sh
# regression.sh RUNNER REPORT ROW_BINARY COLUMN_BINARY
# A baseline workflow on a real regression: the row-order build is the
# baseline, the column-order build misses far more in D1 (256 x 256 doubles:
# row order misses once per 64 B line, 8192 times; column order on every
# load, 65536 times, since a column's 256 lines, 2 KiB apart, fill 2 of
# D1's 64 sets).
#  - diff of two baseline runs: exit 0 under a 2 % limit;
#  - diff baseline -> regression with --limit D1mr=2%: exit 1, names D1mr;
#  - the same with a limit the change stays within: exit 0;
#  - a missing document: exit 2;
#  - export --format=callgrind of the regression opens in callgrind_annotate.
runner=$1 report=$2 row=$3 col=$4
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
opts="-q --collect-atstart=no"
"$runner" $opts --output-file="$t/base.xml" "$row" >/dev/null 2>&1 &&
"$runner" $opts --output-file="$t/base2.xml" "$row" >/dev/null 2>&1 &&
"$runner" $opts --output-file="$t/new.xml" "$col" >/dev/null 2>&1 || { echo "FAIL: runs"; exit 1; }
status=0
check() {  # EXPECTED_STATUS DESCRIPTION ARGS...
  want=$1 what=$2
  shift 2
  "$report" diff "$@" >"$t/out" 2>&1
  got=$?
  if [ "$got" = "$want" ]; then echo "ok: $what: exit $got"
  else echo "FAIL: $what: exit $got, expected $want"; cat "$t/out"; status=1; fi
}
check 0 "baseline vs itself" "$t/base.xml" "$t/base2.xml" --limit D1mr=2%
check 1 "regression over 2 %" "$t/base.xml" "$t/new.xml" --limit D1mr=2%
grep -q "D1mr" "$t/out" && grep -i -q "exceeded" "$t/out" && echo "ok: the report names D1mr" ||
  { echo "FAIL: no line naming the exceeded D1mr limit"; cat "$t/out"; status=1; }
# 8192 -> 65536 is +57344, +700 %: within 800 % and within an absolute 60000.
check 0 "regression within 800 %" "$t/base.xml" "$t/new.xml" --limit D1mr=800%
check 0 "regression within +60000" "$t/base.xml" "$t/new.xml" --limit D1mr=60000
check 1 "regression over +50000" "$t/base.xml" "$t/new.xml" --limit D1mr=50000
check 2 "missing document" "$t/base.xml" "$t/nonexistent.xml" --limit D1mr=2%
"$report" export "$t/new.xml" --format=callgrind -o "$t/callgrind.out" &&
  callgrind_annotate "$t/callgrind.out" >"$t/ann" 2>&1 && grep -q "reduce" "$t/ann" &&
  echo "ok: callgrind_annotate reads the export" || { echo "FAIL: callgrind export"; head "$t/ann"; status=1; }
exit $status
