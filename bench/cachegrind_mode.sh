#!/bin/sh
# Times ompsim --machine=cachegrind against Cachegrind on the same binaries
# (bench/kernels/), alternating the tools run by run (plus ompsim's default
# three-level machine, for information), and prints a
# Markdown table of median wall times and their ratio.
#   bench/cachegrind_mode.sh BUILD_DIR [RUNS]      (make bench-cachegrind)
# Both tools run with the same VALGRIND_LIB (BUILD_DIR/.inplace), the same
# explicit caches and the same environment, so they simulate the same thing.
set -eu
build=$(cd "$1" && pwd)
runs=${2:-3}
src=$(cd "$(dirname "$0")" && pwd)/kernels
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
VALGRIND_LIB=$build/.inplace
export VALGRIND_LIB
caches="--I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64"
for k in stencil matmul chase memcopy; do
  ${CC:-gcc} -O2 -gdwarf-4 -o "$work/$k" "$src/$k.c"
done

seconds() {  # command... -> elapsed wall seconds
  s=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  e=$(date +%s.%N)
  echo "$s $e" | awk '{ printf "%.3f\n", $2 - $1 }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "| program | Cachegrind (s) | ompsim --machine=cachegrind (s) | ratio | ompsim default desktop, 3 levels (s) | ratio |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
for spec in "stencil 1024 40" "matmul 400" "chase 2097152 16777216" "memcopy 200"; do
  set -- $spec
  name=$1
  : >"$work/cg" ; : >"$work/om" ; : >"$work/dt"
  i=0
  while [ $i -lt "$runs" ]; do
    seconds valgrind --tool=cachegrind --cache-sim=yes $caches --cachegrind-out-file=/dev/null "$work/$@" >>"$work/cg"
    seconds valgrind --tool=ompsim --machine=cachegrind $caches "$work/$@" >>"$work/om"
    seconds valgrind --tool=ompsim "$work/$@" >>"$work/dt"
    i=$((i + 1))
  done
  cg=$(median <"$work/cg") om=$(median <"$work/om") dt=$(median <"$work/dt")
  ratio() { echo "$1 $2" | awk '{ printf "%.2fx", $1 / $2 }'; }
  echo "| $* | $cg | $om | $(ratio "$om" "$cg") | $dt | $(ratio "$dt" "$cg") |"
done
