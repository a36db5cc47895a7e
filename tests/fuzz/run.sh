#!/bin/sh
# run.sh FUZZER SRCDIR WORKDIR [SECONDS]: runs the document reader's libFuzzer
# target (tests/fuzz/SirFuzzer.cpp) for SECONDS (default 60) on the seeds in
# tests/fuzz/corpus/ and every fixture of tests/sir/ (good and bad), with the
# dictionary tests/fuzz/sir.dict. New inputs go to WORKDIR/corpus (kept, so
# a second run starts where the first stopped), findings to WORKDIR/artifacts.
# Exits 0 when the time ran out without a finding.
#
# Limits: -timeout=10 s per input (a hang), -rss_limit_mb=2048, and
# -malloc_limit_mb=512: the inputs are at most the largest seed (12 KB), so
# any single allocation of 512 MiB is a bug (a size taken from the input).
fuzzer=$1 srcdir=$2 work=$3 secs=${4:-60}
mkdir -p "$work/corpus" "$work/artifacts" || exit 2
"$fuzzer" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 \
  -dict="$srcdir/tests/fuzz/sir.dict" -artifact_prefix="$work/artifacts/" -print_final_stats=1 \
  "$work/corpus" "$srcdir/tests/fuzz/corpus" "$srcdir/tests/sir"
rc=$?
if [ "$rc" -ne 0 ]; then
  echo "FAIL: the fuzzer found an input the reader mishandles (exit $rc); reproduce with: $fuzzer $work/artifacts/<file>"
  ls -l "$work/artifacts"
fi
exit $rc
