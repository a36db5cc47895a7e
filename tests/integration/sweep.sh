#!/bin/sh
# sweep.sh RUNNER SWEEP_BINARY SWEEP_SOURCE
# Checks the general hierarchy (default 'desktop' machine: D1 48 KiB, L2
# 1.25 MiB, L3 30 MiB, 64 B lines, LRU) against counts derived by hand for
# tests/progs/sweep.c with N = 256 KiB and a 16 KiB small array:
#   SWEEP-COLD:  4096 reads, 4096 misses in D1, L2 and L3 (never touched before)
#   SWEEP-WARM:  4096 reads, 4096 D1 misses (256 KiB > D1), 0 L2 and L3 misses
#   SWEEP-SMALL: 512 reads, 256 D1 misses (first walk; pass 2 left only the
#                array's last 48 KiB in D1), 0 L2 and L3 misses
runner=$1 bin=$2 src=$3
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
"$runner" -q --output-file="$t/doc.xml" --cachegrind-out-file="$t/out" "$bin" 256 16 >"$t/stdout" 2>"$t/stderr" || {
  echo "FAIL: tool run failed"; cat "$t/stderr"; exit 1; }
status=0
. "$(dirname "$0")/lib.sh"
grep -q '^events: Ir I1mr I2mr I3mr Dr D1mr D2mr D3mr Dw D1mw D2mw D3mw$' "$t/out" || {
  echo "FAIL: unexpected events line"; grep '^events' "$t/out"; exit 1; }
expect_line_costs "$t/out" "$src" SWEEP-COLD "6 7 8 9" "4096 4096 4096 4096"
expect_line_costs "$t/out" "$src" SWEEP-WARM "6 7 8 9" "4096 4096 0 0"
expect_line_costs "$t/out" "$src" SWEEP-SMALL "6 7 8 9" "512 256 0 0"
exit $status
