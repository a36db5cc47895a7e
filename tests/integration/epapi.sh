#!/bin/sh
# epapi.sh RUNNER EPAPI_RANGES_BINARY
# ePAPI's extensions on the default desktop machine (D1 48 KiB 12-way,
# L2 1.25 MiB, 64 B lines, write-allocate, no prefetching). The kernel reads
# a (1 MiB, page aligned, 131,072 doubles) once, then writes b (64 KiB,
# 8,192 doubles) once; built without vectorisation, so one 8 B access per
# element, each inside one line.
#  a: L1_DCA = 131,072 accesses; L1_DCM = L1_LDM = 1 MiB / 64 B = 16,384
#     (compulsory); L1_STM = 0. Histogram of L1_DCM in 4 portions of
#     256 KiB: 4,096 each.
#  b: L1_DCW = 8,192; the 1 MiB sweep of a just before evicted any line of b
#     from the 48 KiB D1, so every line misses once: L1_STM = 64 KiB / 64 B
#     = 1,024, and those misses are L2's data accesses: L2_DCA = 1,024.
#  Errors: TOT_INS cannot be restricted to a range (EPAPI_ECNFLCT = -8), an
#  unknown name is EPAPI_ENOEVNT (-7), stopping a set that never started is
#  EPAPI_ENOTRUN (-9).
# With --monitor=yes, EPAPI_set_range(a) reads the global 'a' itself, and the
# document's costs of 'a' (touched only inside the interval) equal ePAPI's.
# With --histogram-bins=25 every histogram's buckets sum to its costs.
runner=$1 bin=$2
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
status=0
q="$(dirname "$0")/monitor_doc.py"
expect() { # file line
  if grep -qxF -- "$2" "$1"; then echo "ok: $2"; else echo "FAIL: expected line '$2' in:"; cat "$1"; status=1; fi
}

"$runner" -q --output-file="$t/doc.xml" "$bin" >"$t/out" 2>"$t/err" || {
  echo "FAIL: tool run failed"; cat "$t/err" "$t/out"; exit 1; }
expect "$t/out" "simulated=1"
expect "$t/out" "a: L1_DCA=131072 L1_DCM=16384 L1_LDM=16384 L1_STM=0"
expect "$t/out" "a histogram L1_DCM (4): 4096 4096 4096 4096"
expect "$t/out" "b: L1_DCW=8192 L1_STM=1024 L2_DCA=1024"
expect "$t/out" "range TOT_INS: -8"
expect "$t/out" "unknown name: -7"
expect "$t/out" "stop before start: -9"
# The whole program misses the arrays' 16,384 + 1,024 = 17,408 lines in the
# interval, plus what main does between the calls: ePAPI's code is not
# simulated, and main's instructions there only touch its stack frame
# (under 256 B, at most 4 lines) and the return-address slots of the calls
# (at most 4 more lines below it), each line missing at most once after the
# sweep evicted it. So 17,408 <= L1_DCM <= 17,416.
all=$(sed -n 's/^all: L1_DCM=\([0-9]*\) .*/\1/p' "$t/out")
if [ -n "$all" ] && [ "$all" -ge 17408 ] && [ "$all" -le 17416 ]; then echo "ok: all L1_DCM $all in [17408, 17416]"
else echo "FAIL: all L1_DCM '$all' not in [17408, 17416]"; status=1; fi
# counted_loop(100000) runs 3 x 100,000 instructions in its loop and a ret;
# main adds the argument, the call, and the stop's argument set-up and call
# (ePAPI's own code is not simulated): at most 40 more. Most of the loop's
# instructions are certain I1 hits, counted per run of their stretch of
# code and multiplied out when ePAPI reads the counters.
ins=$(sed -n 's/^loop: TOT_INS=\([0-9]*\)$/\1/p' "$t/out")
if [ -n "$ins" ] && [ "$ins" -ge 300001 ] && [ "$ins" -le 300040 ]; then echo "ok: loop TOT_INS $ins in [300001, 300040]"
else echo "FAIL: loop TOT_INS '$ins' not in [300001, 300040]"; status=1; fi

"$runner" -q --monitor=yes --histogram-bins=25 --output-file="$t/mon.xml" "$bin" >"$t/out2" 2>"$t/err2" || {
  echo "FAIL: tool run with --monitor=yes failed"; cat "$t/err2"; exit 1; }
expect "$t/out2" "a: L1_DCA=131072 L1_DCM=16384 L1_LDM=16384 L1_STM=0"
a=$(python3 "$q" structure "$t/mon.xml" a | grep -E '^(kind|Dr|D1mr|Dw|D1mw)=' | tr '\n' ' ')
if [ "$a" = "kind=global Dr=131072 D1mr=16384 Dw=0 D1mw=0 " ]; then echo "ok: document's a: $a"
else echo "FAIL: document's a: $a"; status=1; fi
if python3 "$q" bucket-sums "$t/mon.xml" >"$t/sums"; then echo "ok: bucket sums ($(wc -l <"$t/sums") histograms)"
else echo "FAIL: bucket sums"; cat "$t/sums"; status=1; fi

# Natively: PAPI underneath; the range extension is not supported (-18).
"$bin" >"$t/native" 2>&1 || { echo "FAIL: native run failed"; cat "$t/native"; status=1; }
expect "$t/native" "simulated=0"
expect "$t/native" "range a: Not supported (-18)"
if grep -E '^add ' "$t/native" | grep -vqE '\((-7)\)$'; then
  echo "FAIL: a native add failed with something other than EPAPI_ENOEVNT"; cat "$t/native"; status=1
else echo "ok: native adds succeed or say EPAPI_ENOEVNT"; fi
exit $status
