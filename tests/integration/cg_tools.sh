#!/bin/sh
# cg_tools.sh RUNNER PROGRAM PROGRAM_SOURCE
# --cachegrind-out-file output must be readable by Cachegrind's own tools in
# both modes: cg_annotate shows the program's source lines with counts, and
# cg_diff of a run against itself gives an all-zero summary.
runner=$1 prog=$2 src=$3
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
status=0
for mode in "--machine=cachegrind" "--machine=desktop"; do
  rm -f "$t/a" "$t/a.xml" "$t/b" "$t/b.xml"  # names without %p are never overwritten
  "$runner" -q $mode --output-file="$t/a.xml" --cachegrind-out-file="$t/a" "$prog" >/dev/null 2>"$t/err" || { echo "FAIL: run $mode"; cat "$t/err"; exit 1; }
  "$runner" -q $mode --output-file="$t/b.xml" --cachegrind-out-file="$t/b" "$prog" >/dev/null 2>"$t/err" || { echo "FAIL: run $mode"; cat "$t/err"; exit 1; }
  if cg_annotate --auto=yes "$t/a" "$src" >"$t/ann" 2>"$t/err" && grep -q "Events recorded" "$t/ann" &&
     grep -q -F "$(basename "$src")" "$t/ann"; then
    echo "ok: cg_annotate reads the $mode file"
  else
    echo "FAIL: cg_annotate on the $mode file"; cat "$t/err"; head -n 20 "$t/ann"; status=1
  fi
  if cg_diff "$t/a" "$t/b" >"$t/diff" 2>"$t/err" &&
     grep '^summary:' "$t/diff" | awk '{ for (i = 2; i <= NF; i++) if ($i != 0) exit 1 }'; then
    echo "ok: cg_diff of two $mode runs is all zeros (the runs are deterministic)"
  else
    echo "FAIL: cg_diff on the $mode files"; cat "$t/err"; grep '^summary' "$t/diff"; status=1
  fi
done
exit $status
