#!/bin/sh
# Times ompsim --machine=cachegrind against Cachegrind on the same binaries
# (bench/kernels/), alternating the tools run by run (plus ompsim's default
# three-level machine, for information), and prints a
# Markdown table of median wall times and their ratio.
#   bench/cachegrind_mode.sh BUILD_DIR [RUNS]      (make bench-cachegrind)
# Both tools run with the same VALGRIND_LIB (BUILD_DIR/.inplace), the same
# explicit caches and the same environment, so they simulate the same thing.
. "$(dirname "$0")/lib.sh"
caches="--I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64"

echo "| program | Cachegrind (s) | ompsim --machine=cachegrind (s) | ratio | ompsim default desktop, 3 levels (s) | ratio |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
IFS='|'
for spec in $kernels; do
  IFS=' '
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
  echo "| $* | $cg | $om | $(ratio "$om" "$cg") | $dt | $(ratio "$dt" "$cg") |"
done
