#!/bin/sh
# rowcol.sh RUNNER ROWCOL_BINARY ROWCOL_SOURCE
# The bundled example on the default 'desktop' machine (D1 48 KiB 12-way,
# 64 sets; L2 1.25 MiB 10-way, 2048 sets; L3 30 MiB 12-way, 40960 sets; LRU;
# 64 B lines). The matrix is 1024 x 1024 doubles = 8 MiB, page aligned.
#  ROWS: 1,048,576 loads; each 64 B line is read once for 8 doubles and
#        was evicted from D1 and L2 since the initialisation wrote it:
#        131,072 misses in D1 and L2. The whole matrix (131,072 lines, at
#        most 4 per L3 set) stays in L3: 0 L3 misses.
#  COLS: 1,048,576 loads; a column's 1,024 lines are 8 KiB apart, i.e. all
#        in one D1 set (12 ways) and in 16 L2 sets (64 lines each, 10 ways):
#        every load misses D1 and L2; L3 still holds them: 0 L3 misses.
runner=$1 bin=$2 src=$3
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
"$runner" -q --monitor=yes --output-file="$t/doc.xml" --cachegrind-out-file="$t/out" "$bin" >"$t/stdout" 2>"$t/stderr" || {
  echo "FAIL: tool run failed"; cat "$t/stderr"; exit 1; }
status=0
. "$(dirname "$0")/lib.sh"
expect_line_costs "$t/out" "$src" '/\* ROWS \*/' "6 7 8 9" "1048576 131072 131072 0"
expect_line_costs "$t/out" "$src" '/\* COLS \*/' "6 7 8 9" "1048576 1048576 1048576 0"
m=$(python3 "$(dirname "$0")/monitor_doc.py" structure "$t/doc.xml" m | grep -E '^(kind|Dr|D[123]mr|D[123]mw)=' | tr '\n' ' ')
want="kind=global Dr=2097152 D1mr=1179648 D2mr=1179648 D3mr=0 D1mw=131072 D2mw=131072 D3mw=131072 "
if [ "$m" = "$want" ]; then echo "ok: array m: $m"; else echo "FAIL: array m: expected '$want', got '$m'"; status=1; fi
exit $status
