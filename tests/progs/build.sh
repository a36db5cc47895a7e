#!/bin/sh
# build.sh OUTDIR [OPT]   - build every test program into OUTDIR.
# OPT defaults to -O2 (use -O0 for the unoptimised variants).
# Uses $CC / $CXX if set (default gcc / g++).  OPT, CC and CXX are split
# into words on purpose (e.g. OPT="-O2 -fno-inline").
# shellcheck disable=SC2086
set -eu
if [ $# -lt 1 ]; then
    echo "usage: $0 OUTDIR [OPT]" >&2
    exit 2
fi
OUT=$1
OPT=${2:--O2}
CC=${CC:-gcc}
CXX=${CXX:-g++}
SRC=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
set -x
$CC  $OPT -gdwarf-4 -o "$OUT/stencil"    "$SRC/stencil.c"
$CC  $OPT -gdwarf-4 -o "$OUT/matmul"     "$SRC/matmul.c"
$CC  $OPT -gdwarf-4 -o "$OUT/ptrchase"   "$SRC/ptrchase.c"
$CC  $OPT -gdwarf-4 -o "$OUT/memops"     "$SRC/memops.c"
$CC  $OPT -gdwarf-4 -mcx16 -o "$OUT/atomics" "$SRC/atomics.c"
$CC  $OPT -gdwarf-4 -o "$OUT/packed"     "$SRC/packed.c"
$CXX $OPT -gdwarf-4 -o "$OUT/containers" "$SRC/containers.cpp"
$CXX $OPT -gdwarf-4 -o "$OUT/alloc_calls" "$SRC/alloc_calls.cpp"
$CC  $OPT -gdwarf-4 -mavx2 -mfma -o "$OUT/avx2" "$SRC/avx2.c"
$CC  $OPT -gdwarf-4 -o "$OUT/calls"      "$SRC/calls.c" "$SRC/calls_helper.c"
$CC  $OPT -gdwarf-4 -o "$OUT/small"      "$SRC/small.c"
