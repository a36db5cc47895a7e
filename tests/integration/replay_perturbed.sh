#!/bin/sh
# replay_perturbed.sh RUNNER BUILD_DIR
# Where the replay stops while the client records (a pause for the worker,
# a slot waiting for events its thread has not recorded), how many of a
# stream's events it sees at once, and how far the replay worker lags all
# depend on the host's timing; the documents must not (docs/openmp.md,
# "Replay"). --replay-perturb=SEED makes the replay pause, stall and take
# fewer events at random points, and the worker stop for random whiles:
# each program's document with seeds 1 and 2, with and without the worker,
# must be byte-identical to its unperturbed run, and -v must say the replay
# was perturbed. The programs: locks, tasks with dependences, teams of one
# after a team of four (their workers report the first region's end only
# at exit, so the whole replay runs then), nested teams, client requests
# between and inside regions, undeferred tasks 200 deep, turns of 7
# instructions, and the monitor (the replay on the main thread).
runner=$1 b=$2
. "$(dirname "$0")/lib.sh"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
status=0
ex=$b/examples/openmp
progs=$b/tests/progs

# check NAME OPTIONS... PROGRAM ARGS...
check() {
  name=$1
  shift
  # One directory name length for every run (the environment holds it).
  mkdir -p "$t/$name/r"
  (cd "$t/$name/r" && "$runner" --replay-perturb=0 --output-file=doc.xml "$@" >out 2>err) ||
    { echo "FAIL: $name: unperturbed run exited with $?"; tail -n 3 "$t/$name/r/err"; status=1; return; }
  grep -q 'deterministic="true"' "$t/$name/r/doc.xml" || { echo "FAIL: $name: not deterministic"; status=1; }
  # Dumps (omp_requests) add doc.1.xml, doc.2.xml ...: all of them, in order.
  cat "$t/$name/r"/doc*.xml >"$t/$name/base.xml"
  rm -f "$t/$name/r"/doc*.xml
  for seed in 1 2; do
    for worker in yes no; do
      (cd "$t/$name/r" && "$runner" -v --replay-perturb=$seed --replay-thread=$worker --output-file=doc.xml "$@" \
        >out 2>err) ||
        { echo "FAIL: $name seed $seed worker $worker: exited with $?"; status=1; continue; }
      n=$(sed -n 's/.*replay perturbed \([0-9]*\) times.*/\1/p' "$t/$name/r/err")
      if [ "${n:-0}" -eq 0 ]; then
        echo "FAIL: $name seed $seed worker $worker: the replay was not perturbed"; status=1
      elif cat "$t/$name/r"/doc*.xml | cmp -s "$t/$name/base.xml" -; then
        echo "ok: $name seed $seed worker $worker: perturbed $n times, identical document"
      else
        echo "FAIL: $name seed $seed worker $worker: the document differs"; status=1
        # Everything but the source lines' costs first (machine, cores,
        # threads, structures: where the runs parted), then a few of those.
        cat "$t/$name/r"/doc*.xml | diff "$t/$name/base.xml" - >"$t/diff"
        grep '^[<>]' "$t/diff" | grep -v '<line number=' | cut -c1-300 | head -n 60
        echo "($(grep -c '^[<>] *<line number=' "$t/diff") differing source-line cost lines, the first ones, by function:)"
        cat "$t/$name/r"/doc*.xml >"$t/run.xml"
        doc_diff "$t/$name/base.xml" "$t/run.xml" | grep -E '^@@|^[-+] *<line number=' | head -n 24
      fi
      rm -f "$t/$name/r"/doc*.xml
    done
  done
}

export OMP_NUM_THREADS=4
for p in critical nest_lock fib_tasks task_depend schedule; do
  check "$p" "$ex/$p"
done
check serial_teams "$progs/omp_serial_teams"
OMP_MAX_ACTIVE_LEVELS=2 check nested "$progs/omp_nested"
check requests "$progs/omp_requests"
OMP_NUM_THREADS=2 check deep_tasks "$progs/deep_tasks" 200
check quantum7 --quantum=7 "$ex/task_depend"
check monitor --monitor=yes "$ex/critical"

# A seed is a 32-bit number; anything else is refused before the client runs.
for bad in --replay-perturb=4294967296 --replay-perturb=-1 --replay-perturb=x; do
  "$(dirname "$0")/expect_error.sh" "$runner" "$ex/critical" \
    "--replay-perturb: expected a whole number from 0 to 4294967295" "$bad" >/dev/null ||
    { echo "FAIL: $bad was not refused"; status=1; }
done
exit $status
