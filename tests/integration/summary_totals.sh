#!/bin/sh
# summary_totals.sh RUNNER REPORT PROGRAM
# 'ompsim-report summary' on the document shows the same totals as the
# tool's stderr summary of the same run (instructions, data reads, writes).
runner=$1 report=$2 prog=$3
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
"$runner" --output-file="$t/doc.xml" "$prog" >/dev/null 2>"$t/stderr" || { echo "FAIL: run"; cat "$t/stderr"; exit 1; }
"$report" summary "$t/doc.xml" >"$t/summary" 2>&1 || { echo "FAIL: ompsim-report summary"; cat "$t/summary"; exit 1; }
status=0
for label in "Instructions:" "Data reads:" "Data writes:"; do
  tool=$(grep -F "$label" "$t/stderr" | head -n 1 | sed 's/.*: *//')
  rep=$(grep -F "$label" "$t/summary" | head -n 1 | sed 's/.*: *//')
  if [ -n "$tool" ] && [ "$tool" = "$rep" ]; then echo "ok: $label $tool in both"
  else echo "FAIL: $label tool '$tool' vs report '$rep'"; status=1; fi
done
exit $status
