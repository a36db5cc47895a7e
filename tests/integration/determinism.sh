#!/bin/sh
# determinism.sh RUNNER PROGRAM [TOOL OPTIONS...]
# Two runs of the same binary with the same input and environment give
# byte-identical documents (no time stamps, no pids, no host names inside).
runner=$1 prog=$2
shift 2
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
for i in 1 2; do
  "$runner" -q "$@" --output-file="$t/run$i.xml" "$prog" >/dev/null 2>"$t/err" || { echo "FAIL: run $i"; cat "$t/err"; exit 1; }
done
if cmp "$t/run1.xml" "$t/run2.xml"; then
  echo "ok: identical documents ($(wc -c <"$t/run1.xml") bytes)"
else
  diff "$t/run1.xml" "$t/run2.xml" | head -n 20; exit 1
fi
