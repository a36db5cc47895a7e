#!/bin/sh
# omp_events.sh RUNNER TOUR_BINARY SCHEDULE_GCC_BINARY
# The OpenMP event intake of the preload library (docs/openmp.md), seen
# through OMPSIM_OMPT_DEBUG=1, which prints every event the preload sends
# to the tool as "ompt: T<n> KIND a2 a3 a4 a5".
#
# examples/openmp/tour (clang, libomp): one parallel region with a
# schedule(dynamic, 5) loop over 0..256 (nowait), an explicit barrier, a
# static loop, a critical section, and a single that creates 4 tasks and
# waits for them. Expected:
#  - TOOL_INIT (runtime 1 = libomp) and CALLBACK_UNAVAILABLE for
#    ompt_callback_dispatch (32), which libomp 14 refuses (ompt_set_never);
#  - every kind the constructs produce: parallel and implicit tasks, work
#    (loop, single executor and other), LOOP_INIT / CHUNK / LOOP_DONE,
#    explicit barrier (sync kind 3) and taskwait (5), critical (mutex
#    kind 5), 4 TASK_CREATE and the TASK_SCHEDULE of each task;
#  - in every thread exactly one LOOP_INIT of the dynamic loop (0..256,
#    stride 1, dynamic, chunk 5) and one LOOP_DONE after it, and the CHUNKs
#    of all threads cover 0..256 exactly once, none longer than 5;
#  - begin/end events balanced.
# examples/openmp/schedule_gcc (gcc, libgomp forwarded to libomp): TOOL_INIT
# says runtime 2, and the dynamic (chunk 4) and guided loops over 0..999
# are each covered exactly once. Without OMPSIM_OMPT_DEBUG nothing is
# printed; the preload's wrappers and callbacks are never counted as the
# program's code (no region of theirs in the profile).
runner=$1 tour=$2 gcc_prog=$3
case $runner in /*) ;; */*) runner=$PWD/$runner ;; esac
case $tour in /*) ;; *) tour=$PWD/$tour ;; esac
case $gcc_prog in /*) ;; *) gcc_prog=$PWD/$gcc_prog ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
status=0
fail() { echo "FAIL: $*"; status=1; }
ok() { echo "ok: $*"; }

run() { # run NAME PROGRAM [env...]
  _name=$1 _prog=$2
  shift 2
  env OMP_NUM_THREADS=4 KMP_BLOCKTIME=0 "$@" "$runner" --output-file="$tmp/$_name.xml" "$_prog" \
    > "$tmp/$_name.out" 2> "$tmp/$_name.err"
  _rc=$?
  grep '^ompt: ' "$tmp/$_name.err" > "$tmp/$_name.ev"
  if [ $_rc -ne 0 ]; then fail "$_name exited with $_rc"; sed 's/^/  /' "$tmp/$_name.err" | tail -20; fi
}

# count FILE KIND [a2 [a3 [a4 [a5]]]]: events of that kind (and arguments).
count() {
  awk -v k="$2" -v a2="${3-}" -v a3="${4-}" -v a4="${5-}" -v a5="${6-}" '
    $3 == k && (a2 == "" || $4 == a2) && (a3 == "" || $5 == a3) && (a4 == "" || $6 == a4) &&
    (a5 == "" || $7 == a5) { n++ }
    END { print n + 0 }' "$1"
}

expect() { # expect FILE WHAT OP N KIND [args...]
  _f=$1 _what=$2 _op=$3 _n=$4
  shift 4
  _got=$(count "$_f" "$@")
  if [ "$_got" "$_op" "$_n" ]; then ok "$_what: $_got"; else fail "$_what: expected $_op $_n, got $_got"; fi
}

# coverage FILE LO HI STRIDE SCHED_WORD MAXLEN: the loop whose LOOP_INIT is
# "LO HI STRIDE SCHED_WORD": one LOOP_INIT and one LOOP_DONE per thread
# that took part, CHUNKs between them, together covering LO..HI exactly
# once, none longer than MAXLEN (0 = any length).
coverage() {
  awk -v lo="$2" -v hi="$3" -v st="$4" -v sw="$5" -v maxlen="$6" '
    $3 == "LOOP_INIT" && $4 == lo && $5 == hi && $6 == st && $7 == sw {
      if (seen[$2]++) { print "second LOOP_INIT in " $2; bad = 1 }
      inloop[$2] = 1; threads++; next }
    $3 == "LOOP_INIT" { inloop[$2] = 0; next }
    $3 == "CHUNK" && inloop[$2] {
      if ($5 < $4 || (maxlen > 0 && $5 - $4 + 1 > maxlen)) { print "bad chunk " $4 ".." $5; bad = 1 }
      for (i = $4; i <= $5; i++) hits[i]++
      chunks++; next }
    $3 == "LOOP_DONE" && inloop[$2] { inloop[$2] = 0; done++ }
    END {
      for (i = lo; i <= hi; i++) if (hits[i] != 1) { print "iteration " i " run " hits[i] + 0 " times"; bad = 1; break }
      for (i in hits) if (i + 0 < lo + 0 || i + 0 > hi + 0) { print "iteration " i " outside the loop"; bad = 1; break }
      if (threads == 0) { print "no LOOP_INIT " lo " " hi " " st " " sw; bad = 1 }
      if (done != threads) { print threads " LOOP_INIT but " done " LOOP_DONE"; bad = 1 }
      if (!bad) print "ok", threads, chunks
      exit bad }' "$1"
}

check_coverage() { # check_coverage WHAT FILE LO HI STRIDE SCHED_WORD MAXLEN
  _what=$1
  shift
  if _out=$(coverage "$@"); then ok "$_what: $(echo "$_out" | awk '{print $2 " threads, " $3 " chunks"}')"
  else fail "$_what: $_out"; fi
}

balanced() { # balanced FILE BEGIN END
  _b=$(count "$1" "$2") _e=$(count "$1" "$3")
  if [ "$_b" -gt 0 ] && [ "$_b" -eq "$_e" ]; then ok "$2/$3: $_b each"; else fail "$2 $_b, $3 $_e"; fi
}

# ---------------------------------------------------------------- tour (clang)
run tour "$tour" OMPSIM_OMPT_DEBUG=1
E=$tmp/tour.ev
grep -q "each iteration once: yes" "$tmp/tour.out" && ok "tour output" || fail "tour output: $(cat "$tmp/tour.out")"
expect "$E" "TOOL_INIT from libomp" -eq 1 TOOL_INIT "" 1
expect "$E" "dispatch callback refused (never)" -eq 1 CALLBACK_UNAVAILABLE 32 1
expect "$E" "no other callback refused" -eq 1 CALLBACK_UNAVAILABLE
expect "$E" "THREAD_BEGIN" -ge 1 THREAD_BEGIN
expect "$E" "PARALLEL_BEGIN (one region)" -eq 1 PARALLEL_BEGIN
expect "$E" "implicit tasks of the team" -eq 4 IMPLICIT_TASK_BEGIN "" 4
expect "$E" "WORK_BEGIN loop" -ge 8 WORK_BEGIN 1
expect "$E" "WORK_BEGIN single executor" -eq 1 WORK_BEGIN 3
expect "$E" "WORK_BEGIN single other" -eq 3 WORK_BEGIN 4
# schedule dynamic (2) << 32 | chunk 5
expect "$E" "LOOP_INIT of the dynamic loop, one per thread" -eq 4 LOOP_INIT 0 256 1 $((2 << 32 | 5))
expect "$E" "CHUNK (257 iterations in chunks of 5)" -eq 52 CHUNK
expect "$E" "explicit barrier" -eq 4 SYNC_BEGIN 3
expect "$E" "taskwait" -eq 1 SYNC_BEGIN 5
expect "$E" "critical acquire" -eq 4 MUTEX_ACQUIRE 5
expect "$E" "critical acquired" -eq 4 MUTEX_ACQUIRED 5
expect "$E" "critical released" -eq 4 MUTEX_RELEASED 5
expect "$E" "TASK_CREATE (explicit tasks)" -eq 4 TASK_CREATE
expect "$E" "TASK_SCHEDULE: each task completes" -eq 4 TASK_SCHEDULE "" 1
check_coverage "dynamic chunks cover 0..256 exactly once" "$E" 0 256 1 $((2 << 32 | 5)) 5
balanced "$E" PARALLEL_BEGIN PARALLEL_END
balanced "$E" IMPLICIT_TASK_BEGIN IMPLICIT_TASK_END
balanced "$E" WORK_BEGIN WORK_END
balanced "$E" SYNC_BEGIN SYNC_END
balanced "$E" SYNC_WAIT_BEGIN SYNC_WAIT_END
balanced "$E" THREAD_BEGIN THREAD_END
# Task ids are unique and every scheduled task was created.
awk '$3 == "TASK_CREATE" { if (c[$4]++) { print "task id " $4 " created twice"; bad = 1 } }
     $3 == "TASK_SCHEDULE" && $5 == 1 { if (!($4 in c)) { print "task " $4 " completed, never created"; bad = 1 } }
     END { exit bad }' "$E" && ok "task ids" || fail "task ids"

# The wrappers and callbacks run in the unsimulated section: none of them
# is a region of the profile (only the first probe, which registers the
# section, runs before the registration).
if [ ! -s "$tmp/tour.xml" ]; then
  fail "no profile document"
elif grep -E 'name="(_vgw|_vgr|on_|combined_body|ompsim_omp_event|chunk_or_done|defer_)' "$tmp/tour.xml" > "$tmp/leak"; then
  fail "preload code counted as the program's: $(head -3 "$tmp/leak")"
else
  ok "no wrapper or callback in the profile"
fi

# ---------------------------------------------------------------- debug output off by default
run quiet "$tour"
if [ -s "$tmp/quiet.ev" ]; then fail "events printed without OMPSIM_OMPT_DEBUG"; else ok "no event output by default"; fi

# ---------------------------------------------------------------- schedule_gcc (gcc, libgomp -> libomp)
run gcc "$gcc_prog" OMPSIM_OMPT_DEBUG=1
E=$tmp/gcc.ev
grep -q "^sum 499500.0 (expected 499500.0)" "$tmp/gcc.out" && ok "schedule_gcc output" || fail "schedule_gcc output: $(cat "$tmp/gcc.out")"
expect "$E" "TOOL_INIT from libgomp forwarded to libomp" -eq 1 TOOL_INIT "" 2
expect "$E" "three parallel regions" -eq 3 PARALLEL_BEGIN
check_coverage "gcc dynamic chunks cover 0..999 exactly once" "$E" 0 999 1 $((2 << 32 | 4)) 4
check_coverage "gcc guided chunks cover 0..999 exactly once" "$E" 0 999 1 $((3 << 32 | 1)) 0
balanced "$E" IMPLICIT_TASK_BEGIN IMPLICIT_TASK_END

exit $status
