#!/bin/sh
# regions.sh RUNNER CHECK PROGRAM [SOURCE]
# Runs PROGRAM under ompsim and checks its region profile with
# regions_check.py CHECK (figures derived by hand; see that script). OpenMP
# programs run with 4 threads and every latency 0, so that a cycle is an
# instruction and the expected times follow from the program's structure.
runner=$1; check=$2; prog=$3; src=$4
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
OMP_NUM_THREADS=4 "$runner" -q --output-file="$tmp/doc.xml" \
    --L2-latency=0 --L3-latency=0 --memory-latency=0 --c2c-latency=0 --upgrade-latency=0 \
    "$prog" > /dev/null 2> "$tmp/stderr" || { cat "$tmp/stderr"; echo "FAIL: $prog under ompsim"; exit 1; }
if [ "$check" = user ]; then
    # The stray end is reported once, on one line, and the run goes on.
    grep -q 'warning: OMPSIM_REGION_END("never begun") without an OMPSIM_REGION_BEGIN of that name: ignored' \
        "$tmp/stderr" || { cat "$tmp/stderr"; echo "FAIL: no warning for the stray OMPSIM_REGION_END"; exit 1; }
fi
python3 "$here/regions_check.py" "$check" "$tmp/doc.xml" $src
