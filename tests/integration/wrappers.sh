#!/bin/sh
# wrappers.sh RUNNER PROGRAM SOURCE OMP_PROGRAM OMP_IN_LIB OMP_DLOPEN LIBOMP_SUM
# The preload library's heap wrappers are the tool's instrumentation, not
# the program. They are in force only where they are needed (--monitor=yes,
# or an OpenMP program, whose runtime gets a heap of its own), and ompsim
# neither simulates nor counts them, so a profile holds what Cachegrind
# counts for the same program run without the library. Cachegrind
# (valgrind from PATH, --cache-sim=no, --vex-guest-chase=no as ompsim
# translates, no preload) is the independent count: per function of the
# program's source file and of glibc's malloc.c and arena.c, ompsim's
# instructions must equal it
#   - by default, and with --monitor=yes (whose wrappers also report every
#     block to the tool), with no wrapper in the profile;
#   - with --monitor=yes --simulate-wrappers=yes too, where the wrappers do
#     appear (they run between the program and malloc, and change neither).
# With --simulate-wrappers=yes every function with a source file keeps its
# count (Valgrind reads no line information for the wrappers' section, so
# they show as ???), and the run gains at least 200,000 instructions over
# --monitor=yes alone: PROGRAM makes 20,000 wrapped calls (20 an iteration,
# 1,000 iterations), each at least 10 instructions (the nesting counter up
# and down, the table's load and the call through it, the test of the
# monitor's answer). --monitor=yes counts as many instructions in all as
# the default run. Without the monitor the serial PROGRAM runs no wrapper:
# --simulate-wrappers=yes alone counts what the default run counts.
# Which runs send malloc to its wrapper (-v: "heap wrappers: N functions of
# libc.so.6"): not the serial default run, but --monitor=yes, OMP_PROGRAM
# (which names libomp among its needed libraries) and OMP_IN_LIB (a serial
# program whose library needs libomp, found through the program's run path)
# from the start, and OMP_DLOPEN (which loads LIBOMP_SUM with dlopen) once
# the runtime starts; each prints what it prints natively.
runner=$1 bin=$2 src=$3 omp=$4 omp_in_lib=$5 omp_dlopen=$6 libomp_sum=$7
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
status=0
name=$(basename "$src")

# all_funcs OUT: "file<TAB>function<TAB>Ir" for every function with a source
# file in a Cachegrind-format file.
all_funcs() {
  awk '/^fl=/ { f = substr($0, 4); next } /^fn=/ { fn = substr($0, 4); next }
       /^[0-9]/ && f != "???" { ir[f "\t" fn] += $2 } END { for (k in ir) print k "\t" ir[k] }' "$1" | sort
}
# funcs OUT: "file function Ir" for malloc.c, arena.c and the program's file
# (files by their base name).
funcs() {
  all_funcs "$1" | awk -F'\t' -v src="$name" '
    { n = split($1, p, "/"); f = p[n] }
    f == src || f == "malloc.c" || f == "arena.c" { ir[f " " $2] += $3 }
    END { for (k in ir) print k, ir[k] }' | sort
}
total() { awk '/^summary:/ { print $2 }' "$1"; }

valgrind --tool=cachegrind --cache-sim=no --vex-guest-chase=no --cachegrind-out-file="$t/cg.out" "$bin" >"$t/cg.stdout" 2>"$t/cg.err" || {
  echo "FAIL: cachegrind run"; tail -n 5 "$t/cg.err"; exit 1; }
funcs "$t/cg.out" >"$t/cg.funcs"
grep -q "^$name main " "$t/cg.funcs" && grep -q "^malloc.c " "$t/cg.funcs" || {
  echo "FAIL: Cachegrind's output names no function of $name or malloc.c"; exit 1; }

for mode in default monitor simulated unwrapped; do
  case $mode in
    default) opts= ;;
    monitor) opts=--monitor=yes ;;
    simulated) opts="--monitor=yes --simulate-wrappers=yes" ;;
    unwrapped) opts=--simulate-wrappers=yes ;;
  esac
  "$runner" -q $opts --output-file="$t/$mode.xml" --cachegrind-out-file="$t/$mode.out" "$bin" \
    >"$t/$mode.stdout" 2>"$t/$mode.err" || { echo "FAIL: $mode: tool run"; tail -n 5 "$t/$mode.err"; status=1; continue; }
  cmp -s "$t/cg.stdout" "$t/$mode.stdout" || { echo "FAIL: $mode: program output differs"; status=1; }
  funcs "$t/$mode.out" >"$t/$mode.funcs"
  if cmp -s "$t/cg.funcs" "$t/$mode.funcs"; then
    echo "ok   $mode: $(wc -l <"$t/cg.funcs") functions of $name, malloc.c and arena.c as Cachegrind counts them"
  else
    echo "FAIL: $mode: per-function instructions differ (< cachegrind, > ompsim)"
    diff "$t/cg.funcs" "$t/$mode.funcs" | head -n 10
    status=1
  fi
  if [ "$mode" = monitor ]; then
    # libstdc++'s operator new is not wrapped (it calls the wrapped malloc):
    # a new'd block's site still starts at the line that said new.
    for stmt in 'new long(i)' 'new long\[10\]'; do
      line=$(grep -n "$stmt" "$src" | head -n 1 | cut -d: -f1)
      if grep -q "kind=\"heap\" name=\"main\" file=\"$name\" line=\"$line\" .* blocks=\"1000\"" "$t/$mode.xml"; then
        echo "ok   $mode: the blocks of '$stmt' are main ($name:$line), 1000 of them"
      else
        echo "FAIL: $mode: no structure main ($name:$line) with 1000 blocks for '$stmt'"; status=1
      fi
    done
  fi
  if [ "$mode" = default ] || [ "$mode" = monitor ]; then
    # The C library's own functions have glibc's file names; a wrapper of
    # one shows as ??? (see above).
    if awk '/^fl=/ { u = ($0 == "fl=???") } /^fn=/ && u { print substr($0, 4) }' "$t/$mode.out" |
       grep -qE '^(ompsim_hook_|ask_tracking$|ask_real$)'; then
      echo "FAIL: $mode: wrapper code in the profile"; status=1
    else echo "ok   $mode: no wrapper code in the profile"; fi
  fi
done
if [ -s "$t/default.out" ] && [ -s "$t/monitor.out" ] && [ -s "$t/simulated.out" ] && [ -s "$t/unwrapped.out" ]; then
  all_funcs "$t/monitor.out" >"$t/default.all"
  all_funcs "$t/simulated.out" >"$t/simulated.all"
  awk -F'\t' 'NR == FNR { d[$1 "\t" $2] = $3; next }
       ($1 "\t" $2) in d { if (d[$1 "\t" $2] != $3) { print "FAIL: simulated: " $1 ":" $2 " " d[$1 "\t" $2] " -> " $3; bad = 1 }
                           delete d[$1 "\t" $2]; next }
       { print "FAIL: simulated: new function " $1 ":" $2; bad = 1 }
       END { for (k in d) { print "FAIL: simulated: " k " missing"; bad = 1 }
             print (bad ? "bad" : "ok"), NR - FNR }' "$t/default.all" "$t/simulated.all" >"$t/cmp"
  grep '^FAIL' "$t/cmp" | head -n 10
  set -- $(tail -n 1 "$t/cmp")
  gain=$(( $(total "$t/simulated.out") - $(total "$t/monitor.out") ))
  if [ "$1" = ok ] && [ "$gain" -ge 200000 ]; then
    echo "ok   simulated: $2 functions with a source file as before; the wrappers add $gain instructions"
  else
    echo "FAIL: simulated: functions changed ($1) or only $gain instructions gained"; status=1
  fi
  if [ "$(total "$t/monitor.out")" = "$(total "$t/default.out")" ]; then
    echo "ok   monitor: $(total "$t/monitor.out") instructions in all, as without the monitor"
  else
    echo "FAIL: monitor: $(total "$t/monitor.out") instructions in all, $(total "$t/default.out") without the monitor"; status=1
  fi
  if [ "$(total "$t/unwrapped.out")" = "$(total "$t/default.out")" ]; then
    echo "ok   unwrapped: --simulate-wrappers=yes alone counts $(total "$t/unwrapped.out"), as the default run"
  else
    echo "FAIL: unwrapped: $(total "$t/unwrapped.out") instructions with --simulate-wrappers=yes alone, $(total "$t/default.out") by default"; status=1
  fi
fi

# wraps NAME WANT PROGRAM OPTS...: whether the run sends the C library's
# malloc to its wrapper (WANT yes or no), as -v reports it (HeapHooks.cpp).
wraps() {
  name=$1 want=$2 prog=$3; shift 3
  "$runner" -v "$@" --output-file="$t/redir.xml" --output-overwrite=yes "$prog" \
    >/dev/null 2>"$t/redir.err" || { echo "FAIL: $name: tool run"; tail -n 5 "$t/redir.err"; status=1; return; }
  if grep -qE 'heap wrappers: [1-9][0-9]* functions of libc\.so' "$t/redir.err"; then got=yes; else got=no; fi
  if [ "$got" = "$want" ]; then echo "ok   wrappers: $name sends malloc to its wrapper: $want"
  else echo "FAIL: wrappers: $name sends malloc to its wrapper: $got, expected $want"; status=1; fi
}
wraps "serial, default" no "$bin"
wraps "serial, --monitor=yes" yes "$bin" --monitor=yes
# Chasing asked for is refused with a warning (the exits need each
# function to start a translation); the run still gives the same profile.
"$runner" -q --monitor=yes --vex-guest-chase=yes --output-file="$t/chase.xml" --cachegrind-out-file="$t/chase.out" \
  "$bin" >"$t/chase.stdout" 2>"$t/chase.err"
if grep -q 'warning: ompsim translates without chasing: --vex-guest-chase=yes ignored' "$t/chase.err" &&
   cmp -s "$t/cg.stdout" "$t/chase.stdout" && cmp -s "$t/monitor.out" "$t/chase.out"; then
  echo "ok   --vex-guest-chase=yes: refused with a warning, the same profile as --monitor=yes"
else echo "FAIL: --vex-guest-chase=yes: no warning, or another output or profile"; tail -n 3 "$t/chase.err"; status=1; fi
OMP_NUM_THREADS=2 wraps "OpenMP program, default" yes "$omp"
OMP_NUM_THREADS=2 wraps "OpenMP in a library, default" yes "$omp_in_lib"
# dlopen: nothing is in force before the runtime starts; its start puts the
# wrappers in force (the message comes when the tool next translates).
OMP_NUM_THREADS=2 "$runner" -v --output-file="$t/dl.xml" "$omp_dlopen" "$libomp_sum" >"$t/dl.out" 2>"$t/dl.err" ||
  { echo "FAIL: OpenMP through dlopen: tool run"; tail -n 5 "$t/dl.err"; status=1; }
if [ "$(cat "$t/dl.out")" = "$(printf '499500\n4951')" ]; then echo "ok   OpenMP through dlopen: output as natively"
else echo "FAIL: OpenMP through dlopen: output $(cat "$t/dl.out" | tr '\n' ' ')"; status=1; fi
if grep -qE 'heap wrappers: [1-9][0-9]* functions of libc\.so' "$t/dl.err"; then
  echo "ok   OpenMP through dlopen: malloc goes to its wrapper once the runtime starts"
else echo "FAIL: OpenMP through dlopen: the wrappers were not put in force"; status=1; fi
exit $status
