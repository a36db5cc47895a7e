#!/bin/sh
# config_file.sh RUNNER PROGRAM CONFIG_FILE
# tests/integration/teaching-l2.cfg starts from the teaching machine (4 KiB
# 2-way L1s) and replaces its L2 by 128 KiB 4-way FIFO: the machine the tool
# reports must be exactly that.
runner=$1 prog=$2 cfg=$3
err=$(mktemp)
trap 'rm -f "$err" "$err.xml"' EXIT
"$runner" --cache-config="$cfg" --output-file="$err.xml" "$prog" >/dev/null 2>"$err" || { echo "FAIL: run failed"; cat "$err"; exit 1; }
status=0
expect() {
  if grep -q -- "$1" "$err"; then echo "ok: $1"; else echo "FAIL: missing '$1'"; status=1; fi
}
expect "Machine: teaching, 2 levels, split L1"
expect "I1  4 KiB, 64 B lines, 2-way, 32 sets, lru, write-back"
expect "D1  4 KiB, 64 B lines, 2-way, 32 sets, lru, write-back"
expect "L2  128 KiB, 64 B lines, 4-way, 512 sets, fifo, write-back, non-inclusive"
[ $status -eq 0 ] || sed -n '/Machine/,$p' "$err"
exit $status
