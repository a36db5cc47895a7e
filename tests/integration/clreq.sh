#!/bin/sh
# clreq.sh RUNNER CLREQ_BINARY CLREQ_SOURCE
# --collect-atstart=no with OMPSIM_START/STOP_COLLECTION, OMPSIM_DUMP and
# OMPSIM_ZERO_COUNTERS (tests/progs/clreq.c explains the expected counts).
runner=$1 bin=$2 src=$3
here=$(dirname "$0")
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
(cd "$t" && "$runner" -q --collect-atstart=no --output-file=prof.xml "$bin" >stdout 2>stderr) || {
  echo "FAIL: run failed"; cat "$t/stderr"; exit 1; }
status=0
expect() {  # DOC MARKER EVENTS EXPECTED
  got=$("$here/profile_query.py" "$t/$1" "$src" "$2" "$3")
  if [ "$got" = "$4" ]; then echo "ok: $1 $2 $3 = $got"
  else echo "FAIL: $1 $2 $3: expected '$4', got '$got'"; status=1; fi
}
[ -f "$t/prof.1.xml" ] || { echo "FAIL: no dump document prof.1.xml"; ls "$t"; exit 1; }
grep -q 'termination="dump".*label="after-kernel" dump="0"' "$t/prof.1.xml" && echo "ok: dump labelled" ||
  { echo "FAIL: dump run element"; grep '<run' "$t/prof.1.xml"; status=1; }
grep -q 'complete="true" termination="exit" exit-status="0".*dump="1"' "$t/prof.xml" && echo "ok: final document" ||
  { echo "FAIL: final run element"; grep '<run' "$t/prof.xml"; status=1; }
expect prof.1.xml "/* UNMEASURED */" Dr "0"
expect prof.1.xml "/* ZEROED */" Ir,Dr "0 0"
expect prof.xml "/* ZEROED */" Ir,Dr "0 0"
expect prof.1.xml "/* KERNEL */" Dr,D1mr,D2mr,D3mr "1024 1024 1024 1024"
expect prof.1.xml "/* KERNEL2 */" Dr "0"
expect prof.xml "/* KERNEL */" Dr "0"
expect prof.xml "/* KERNEL2 */" Dr,D1mr,D2mr,D3mr "1024 1024 0 0"
# Nothing outside main() was measured: every region is main's.
others=$(grep -c '<region ' "$t/prof.xml")
[ "$others" = 1 ] && echo "ok: only main measured" || { echo "FAIL: $others regions measured"; status=1; }
exit $status
