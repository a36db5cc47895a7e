#!/bin/sh
# conflict.sh RUNNER CONFLICT_BINARY
# examples/conflict: c[i] = a[i] + b[i], i = 0..1023, doubles; a, b, c are
# page aligned; b and c start SHIFT_B and SHIFT_C 64-byte lines further on
# (program arguments). Compiled without vectorisation: one 8-byte load of
# a[i], one of b[i] and one 8-byte store to c[i] per iteration, nothing else
# touches memory inside the loop. --collect-atstart=no and
# OMPSIM_START/STOP_COLLECTION around the loop: the caches start empty.
# Each stream covers 1024 * 8 B = 128 lines of 64 B, one line per 8
# consecutive iterations ("step" L = i / 8 = 0..127).
#
# Machine: teaching preset with the D1 given explicitly, L2 64 KiB 8-way
# (128 sets, way 8 KiB), 64 B lines, LRU, write-back + write-allocate.
#  2-way D1  --D1=4096,2,64: 32 sets, way 2 KiB; line n is in set n mod 32.
#  1-way D1  --D1=4096,1,64: 64 sets, way 4 KiB; line n is in set n mod 64.
# A page-aligned address is a multiple of both way sizes, so a[i], b[i],
# c[i] share a D1 set when unshifted, and a shift of s lines moves the
# stream s sets on.
#
#  (1) 2-way, shifts 0 0: in step L all three streams use one set; each
#      iteration touches three lines in a 2-way LRU set: the set always
#      holds the two lines touched last, i.e. never the one asked for.
#      Every access misses: a, b: 1024 reads, 1024 D1 read misses;
#      c: 1024 writes, 1024 D1 write misses.
#  (2) 2-way, shifts 0 1: a, b in set L, c in set L+1 (mod 32). Set L gets
#      the two lines a, b of step L (the c line it held in step L-1 is no
#      longer used and is the LRU victim); two lines fit two ways. Each line
#      misses once, when first touched: 128 D1 misses per array (Dr, Dw
#      still 1024).
#  (3) 1-way, shifts 0 1: a and b share one line frame per step: each read
#      of a evicts b's line and vice versa: 1024 read misses each; c alone in
#      its set: 128 write misses.
#  (4) 1-way, shifts 1 2: a, b, c in sets L, L+1, L+2: 128 misses each.
# L2 (all runs): 3 x 128 lines, at most 3 per L2 set (each stream's 128
# consecutive lines hit 128 different sets) plus a few instruction lines,
# 8 ways: nothing is evicted, so exactly the first touch of each line
# misses: 128 L2 read misses for a and b, 128 L2 write misses for c (the
# write-allocate fetch of a D1 write miss is a write at L2).
runner=$1 bin=$2
case $runner in /*) ;; */*) runner=$PWD/$runner ;; esac
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
status=0
run() {  # NAME D1 SHIFT_B SHIFT_C
  (cd "$t" && "$runner" -q --machine=teaching --D1="$2" --L2=64K,8,64 \
    --collect-atstart=no --monitor=yes --output-file="$1.xml" "$bin" "$3" "$4" \
    >"$1.stdout" 2>"$1.stderr") || { echo "FAIL: $1: run failed"; cat "$t/$1.stderr"; exit 1; }
}
expect() {  # NAME STRUCTURE EVENTS EXPECTED
  got=$("$here/monitor_doc.py" costs "$t/$1.xml" "global:$2" "$3")
  if [ "$got" = "$4" ]; then echo "ok: $1 $2 $3 = $got"
  else echo "FAIL: $1 $2 $3: expected '$4', got '$got'"; status=1; fi
}
run twoway-thrash 4096,2,64 0 0
run twoway-padded 4096,2,64 0 1
run direct-thrash 4096,1,64 0 1
run direct-padded 4096,1,64 1 2
for r in twoway-thrash twoway-padded direct-thrash direct-padded; do
  grep -qx 'sum 1571328.0' "$t/$r.stdout" || { echo "FAIL: $r: wrong result"; cat "$t/$r.stdout"; status=1; }
done
R=Dr,D1mr,D2mr W=Dw,D1mw,D2mw
expect twoway-thrash a $R "1024 1024 128"
expect twoway-thrash b $R "1024 1024 128"
expect twoway-thrash c $W "1024 1024 128"
expect twoway-thrash c Dr "0"
expect twoway-padded a $R "1024 128 128"
expect twoway-padded b $R "1024 128 128"
expect twoway-padded c $W "1024 128 128"
expect direct-thrash a $R "1024 1024 128"
expect direct-thrash b $R "1024 1024 128"
expect direct-thrash c $W "1024 128 128"
expect direct-padded a $R "1024 128 128"
expect direct-padded b $R "1024 128 128"
expect direct-padded c $W "1024 128 128"
exit $status
