#!/bin/sh
# What the data-structure monitor costs: the same binaries (bench/kernels/)
# under ompsim's default machine with --monitor=no, --monitor=yes (static
# counters) and --monitor=yes --histogram-bins=25, alternating run by run,
# and a Markdown table of median wall times.
#   bench/monitor_overhead.sh BUILD_DIR [RUNS]      (make bench-monitor)
# --monitor=yes also makes Valgrind read the variables' debug information
# (VG_(needs_var_info)), a start-up cost that does not grow with the run:
# it is measured on an empty program and subtracted for the "lookup" ratio,
# which is what the per-access lookup costs.
. "$(dirname "$0")/lib.sh"
printf 'int main(void) { return 0; }\n' >"$work/empty.c"
${CC:-gcc} -O2 -gdwarf-4 -o "$work/empty" "$work/empty.c"
# time3 NAME ARGS...: fills $work/NAME.{no,yes,bins} with RUNS timings each
time3() {
  n=$1; shift
  : >"$work/$n.no"; : >"$work/$n.yes"; : >"$work/$n.bins"
  i=0
  while [ $i -lt "$runs" ]; do
    seconds valgrind --tool=ompsim --monitor=no --output-file=/dev/null "$work/$@" >>"$work/$n.no"
    seconds valgrind --tool=ompsim --monitor=yes --output-file=/dev/null "$work/$@" >>"$work/$n.yes"
    seconds valgrind --tool=ompsim --monitor=yes --histogram-bins=25 --output-file=/dev/null "$work/$@" >>"$work/$n.bins"
    i=$((i + 1))
  done
}

time3 empty empty
e_no=$(median <"$work/empty.no") e_yes=$(median <"$work/empty.yes")
echo "Start-up, empty program: --monitor=no ${e_no} s, --monitor=yes ${e_yes} s"
echo
echo "| program | --monitor=no (s) | --monitor=yes (s) | total ratio | lookup ratio | + --histogram-bins=25 (s) | lookup ratio |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
IFS='|'
for spec in $kernels; do
  IFS=' '
  set -- $spec
  time3 "$1" "$@"
  no=$(median <"$work/$1.no") yes=$(median <"$work/$1.yes") bins=$(median <"$work/$1.bins")
  lookup() { echo "$1 $2 $e_no $e_yes" | awk '{ printf "%.2fx", ($1 - ($4 - $3)) / $2 }'; }
  echo "| $* | $no | $yes | $(ratio "$yes" "$no") | $(lookup "$yes" "$no") | $bins | $(lookup "$bins" "$no") |"
done
