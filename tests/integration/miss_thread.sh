#!/bin/sh
# miss_thread.sh RUNNER PROGS_DIR
# --miss-thread (vgtool/MissWorker.h) moves the levels below L1 of a
# one-thread run to a second host thread; it must change no number. Each
# program runs with the worker never (no), always (yes) and while most
# misses go past L2 (auto): the documents are byte-identical. The programs
# cover what makes the main thread wait for the worker or stop using it:
# accesses that straddle lines (memops), client requests with dumps and
# zeroed counters (clreq), fork (proc_life: the children have no worker),
# a second thread (omp_sum: the replay takes over), a named range that
# switches the monitor on (unmap_structure), a client killed by a signal
# (proc_life kill-self), and auto mode's switches (ptrchase with a 64 KiB
# L2: nearly every L1 miss goes to L3, and the worker takes the whole lower
# half; phases: from the levels below L2 to the whole lower half and back,
# three times); and with --monitor=yes, where the worker adds each miss's
# depth to its structure's counters.
runner=$1 progs=$2
. "$(dirname "$0")/lib.sh"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
status=0
cpus=$(nproc 2>/dev/null || echo 1)

# same NAME MODE OPTIONS... PROGRAM ARGS...: the run with --miss-thread=MODE
# (yes, auto, or - for no such check) must have handed misses over (-v says how
# many), unless the host gives the process one CPU.
same() {
  name=$1 expect=$2
  shift 2
  # One directory per mode, names of one length (the document records the
  # working directory): 1 = no, 2 = yes, 3 = auto.
  i=0
  for m in no yes auto; do
    i=$((i + 1))
    d="$t/$name/$i"
    mkdir -p "$d"
    # The same next pid for every run (lib.sh): proc_life's parent prints
    # three pids (glibc's _itoa_word, 14 instructions a digit) and its
    # exec'd child's start-up moves with them too (ld.so's strcspn, 14), so
    # runs whose pids had another number of digits differed (once in a
    # ctest -j2 run: 42 instructions, 3 bytes of documents; pids 9,982 and
    # 20,002 give 217,615 and 217,657 instructions to the parent).
    pin_pid
    (cd "$d" && "$runner" -v --miss-thread=$m --output-file='doc.%p.xml' --trace-children=yes "$@" >out 2>err)
    code=$?
    [ "$code" = "${exit_status:-0}" ] ||
      { echo "FAIL: $name --miss-thread=$m exited with $code"; tail -n 5 "$d/err"; status=1; return; }
    # Documents by content (the names hold pids): total size, sorted checksums.
    (cd "$d" && cat doc.*.xml | wc -c && md5sum doc.*.xml | cut -d' ' -f1 | sort) >"$d.sums"
    n=$(sed -n 's/.*miss thread: \([0-9]*\) L1 misses.*/\1/p' "$d/err" | head -n 1)
    if [ "$cpus" -lt 2 ]; then
      [ "${n:-0}" = 0 ] || { echo "FAIL: $name $m: $n handed over on one CPU"; status=1; }
    elif [ "$m" = "$expect" ]; then
      [ "${n:-0}" -gt 0 ] && echo "ok: $name $m: $n handed over" || { echo "FAIL: $name $m: nothing handed over"; status=1; }
    fi
  done
  if cmp -s "$t/$name/1.sums" "$t/$name/2.sums" && cmp -s "$t/$name/1.sums" "$t/$name/3.sums"; then
    echo "ok: $name: identical documents with no, yes and auto ($(($(wc -l <"$t/$name/1.sums") - 1)) of them)"
  else
    echo "FAIL: $name: documents differ"; status=1
    diff "$t/$name/1.sums" "$t/$name/2.sums" | head -n 5
    diff "$t/$name/1.sums" "$t/$name/3.sums" | head -n 5
    # Which figures differ, by function, so that a rare failure in CI says
    # where to look.
    for k in 2 3; do doc_pair_diffs "$t/$name/1" "$t/$name/$k" 30; done
  fi
}

same ptrchase auto --L2=64K,8,64 "$progs/ptrchase"
# below_l2 NAME: auto mode handed the levels below L2 over and switched
# between that and the whole lower half at least three times (phases.c's
# stream, reads that end in L2, the stream again).
below_l2() {
  [ "$cpus" -lt 2 ] && return
  line=$(grep 'miss thread:' "$t/$1/3/err")
  e=$(echo "$line" | sed -n 's/.* \([0-9]*\) entries of them below L2.*/\1/p')
  w=$(echo "$line" | sed -n 's/.* \([0-9]*\) switches.*/\1/p')
  if [ "${e:-0}" -gt 0 ] && [ "${w:-0}" -ge 3 ]; then
    echo "ok: $1 auto: $e entries below L2, $w switches"
  else
    echo "FAIL: $1 auto: expected entries below L2 and 3 switches: $line"; status=1
  fi
}
same phases auto "$progs/phases"
below_l2 phases
same memops yes "$progs/memops"
same containers yes "$progs/containers"
same clreq yes --collect-atstart=no "$progs/clreq"
same fork yes "$progs/proc_life" fork "$progs/small"
same monitor_on yes "$progs/unmap_structure"
# With the monitor: each miss's structure counters go to the worker with the
# miss (a 25-bin histogram, buckets of 4 lines), lines that straddle, and
# heap blocks coming and going between the misses.
same monitor_chase auto --monitor=yes --histogram-bins=25 --L2=64K,8,64 "$progs/ptrchase"
same monitor_lines yes --monitor=yes --histogram-lines=4 "$progs/stencil"
same monitor_memops yes --monitor=yes --histogram-bins=25 "$progs/memops"
same monitor_heap yes --monitor=yes --histogram-bins=25 "$progs/containers"
same monitor_phases auto --monitor=yes --histogram-bins=25 "$progs/phases"
below_l2 monitor_phases
OMP_NUM_THREADS=2 same openmp - "$progs/omp_fixed_work"
# Killed by SIGSEGV (sent to itself) while the worker holds misses: the
# document written at the end is still the same (status 128 + 11).
exit_status=139 same killed yes "$progs/proc_life" kill-self 11
exit $status
