#!/bin/sh
# stream_spill.sh RUNNER FIB_TASKS
# Beyond --stream-buffer the replay's events go to a temporary file
# (--stream-spill=yes, the default; docs/openmp.md, "Memory"): the replay
# keeps its canonical order, so the document does not depend on the limit.
# examples/openmp/fib_tasks on 4 threads buffers megabytes ahead of the
# replay (tests/integration/limits.sh): with --stream-buffer=1M (twice) it
# must spill (the stderr note says so) and give the very document of a run
# with the default 512M, which never reaches its limit here;
# deterministic="true" in all three, and no spill file left behind.
runner=$1 prog=$2
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export TMPDIR="$t/tmp"
mkdir "$TMPDIR"
run() {  # NAME OPTIONS...
  name=$1; shift
  OMP_NUM_THREADS=4 "$runner" "$@" --output-file="$t/$name.xml" "$prog" >"$t/$name.out" 2>"$t/$name.err" || {
    echo "FAIL: the run $name exited $?"; cat "$t/$name.err"; exit 1; }
  grep -q 'deterministic="true"' "$t/$name.xml" || { echo "FAIL: $name is not deterministic"; exit 1; }
}
run default
run small1 --stream-buffer=1M
run small2 --stream-buffer=1M
grep -q "chunks of events went to a temporary file in $TMPDIR" "$t/small1.err" || {
  echo "FAIL: no spill note with --stream-buffer=1M"; grep note "$t/small1.err"; exit 1; }
if grep -q "went to a temporary file" "$t/default.err"; then echo "FAIL: the default run spilled"; exit 1; fi
for n in small1 small2; do
  cmp -s "$t/default.xml" "$t/$n.xml" || { echo "FAIL: $n differs from the default run"; exit 1; }
done
[ -z "$(ls -A "$TMPDIR")" ] || { echo "FAIL: files left in TMPDIR: $(ls "$TMPDIR")"; exit 1; }
echo "ok: --stream-buffer=1M spilled ($(grep -o '[0-9]* chunks' "$t/small1.err")) and gave the default run's document"
