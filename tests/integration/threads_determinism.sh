#!/bin/sh
# threads_determinism.sh RUNNER PROGRAM [ARGS...]
# A program of POSIX threads gives byte-identical documents however its
# threads are scheduled: two rounds of four runs at once (on the 2-core
# machine the threads of each run wait for one another in turn), all
# compared with the first. tests/progs/many_threads (200 threads, a
# barrier, 200 joins) had main's pthread_join go to sleep or not on a
# thread still running, and the C library's code of the wait was recorded:
# 4 different documents in 10 runs side by side, all deterministic="true"
# (OmpIntake.cpp, kLibcWaits). One directory name length for every run
# (the document depends on the working directory's).
runner=$1
shift
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
status=0
for round in 1 2; do
  for k in 1 2 3 4; do
    mkdir -p "$t/r$round$k"
    (cd "$t/r$round$k" && "$runner" -q --output-file=doc.xml "$@" >out 2>err) &
  done
  wait
done
for round in 1 2; do
  for k in 1 2 3 4; do
    d="$t/r$round$k/doc.xml"
    if [ ! -s "$d" ]; then echo "FAIL: run $round.$k: no document"; cat "$t/r$round$k/err"; status=1; continue; fi
    grep -q 'deterministic="true"' "$d" || { echo "FAIL: run $round.$k: not deterministic=\"true\""; status=1; }
    if cmp -s "$t/r11/doc.xml" "$d"; then echo "ok: run $round.$k identical"
    else
      echo "FAIL: run $round.$k differs from run 1.1:"
      awk '/<region type="function"/{g=$0} /<costs>/{print g " " $0}' "$t/r11/doc.xml" >"$t/a"
      awk '/<region type="function"/{g=$0} /<costs>/{print g " " $0}' "$d" >"$t/b"
      diff "$t/a" "$t/b" | grep '^[<>]' | cut -c1-200 | head -n 12
      status=1
    fi
  done
done
exit $status
