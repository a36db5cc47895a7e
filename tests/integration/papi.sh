#!/bin/sh
# papi.sh RUNNER PAPI_SWEEP_BINARY PAPI_SWEEP_SOURCE
# An unmodified PAPI program (linked with -lpapi, no ompsim header) under
# ompsim reads simulated counts, and they are the document's counts for the
# same interval: everything main does after PAPI_start returns (the lines
# marked INTERVAL) plus all of kernel().
#  - The array a (1 MiB global, 64 B lines, no prefetching) is read once:
#    exactly 1 MiB / 64 B = 16,384 L1 read misses and 131,072 reads for the
#    data structure 'a' (compulsory misses; the desktop D1 is 48 KiB).
#  - PAPI_L1_DCM = D1mr + D1mw, PAPI_L1_LDM = D1mr, PAPI_L1_STM = D1mw,
#    PAPI_LD_INS = Dr, PAPI_SR_INS = Dw, all over the interval, from the
#    document (tests/integration/monitor_doc.py reads it).
runner=$1 bin=$2 src=$3
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
status=0
check() { # what expected got
  if [ "$2" = "$3" ]; then echo "ok: $1: $3"; else echo "FAIL: $1: expected '$2', got '$3'"; status=1; fi
}
q="$(dirname "$0")/monitor_doc.py"

"$runner" -q --monitor=yes --output-file="$t/doc.xml" "$bin" >"$t/out" 2>"$t/err" || {
  echo "FAIL: tool run failed"; cat "$t/err" "$t/out"; exit 1; }
papi=$(sed -n 's/^PAPI_L1_DCM=\([0-9]*\) PAPI_L1_LDM=\([0-9]*\) PAPI_L1_STM=\([0-9]*\) PAPI_LD_INS=\([0-9]*\) PAPI_SR_INS=\([0-9]*\)$/\1 \2 \3 \4 \5/p' "$t/out")
[ -n "$papi" ] || { echo "FAIL: no PAPI values printed"; cat "$t/out"; exit 1; }
doc=$(python3 "$q" interval "$t/doc.xml" "$src" kernel INTERVAL D1mr,D1mw,Dr,Dw) || exit 1
set -- $doc
check "PAPI L1_DCM L1_LDM L1_STM LD_INS SR_INS = document interval" "$(($1 + $2)) $1 $2 $3 $4" "$papi"

a=$(python3 "$q" structure "$t/doc.xml" a | tr '\n' ' ')
check "array a: reads, L1 read misses, writes" "Dr=131072 D1mr=16384 Dw=0" \
  "$(echo "$a" | grep -o 'Dr=[0-9]* D1mr=[0-9]*') $(echo "$a" | grep -o 'Dw=[0-9]*')"
check "array a: declared at" "file=papi_sweep.c kind=global line=11" \
  "$(echo "$a" | grep -o 'file=[^ ]* kind=[^ ]* line=[0-9]*')"
# The kernel's sweep line alone: the 16,384 misses are all the array's.
check "SWEEP line D1mr" "16384" "$(python3 "$q" interval "$t/doc.xml" "$src" none SWEEP D1mr)"

# Natively the same binary talks to the real PAPI: on a machine without
# counters (a VM) it reports that the event is not available and exits 2.
"$bin" >"$t/native" 2>&1
rc=$?
if [ $rc -eq 0 ] || { [ $rc -eq 2 ] && grep -q '^PAPI_add_event: ' "$t/native"; }; then
  echo "ok: native run (exit $rc): $(head -n 1 "$t/native")"
else
  echo "FAIL: native run exit $rc"; cat "$t/native"; status=1
fi
exit $status
