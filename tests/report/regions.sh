#!/bin/sh
# regions.sh REPORT_BINARY SRCDIR: 'ompsim-report regions' on the fixture
# tests/sir/regions.xml. compute() (R00001) forks a parallel region (R00002)
# of 2 threads that twice runs a loop (R00003), a critical (R00004) and, on
# thread 0 only, a master (R00005) calling norm() (R00006); main calls norm()
# again. Per node (summed over the threads) inclusive = execT, exclusive =
# the node's own states:
#   node 0 root     15,260 = 7,630 x 2     exclusive 1,200 serial + 2,080 idle = 3,280
#   node 2 PARALLEL 11,380 = 5,830 + 5,550 exclusive 420 + 140 = 560
#   node 3 LOOP      7,870 = 4,050 + 3,820 (no children: exclusive the same)
#   node 4 CRITICAL  2,370 = 780 + 1,590   (thread 1 waited 770 to enter)
#   node 5 MASTER      580, exclusive 330 (norm() 250 below it)
# Overheads of the parallel region (of 11,380): synchronization 770 (the
# critical's enterT), imbalance 250 + 20 (loop) + 120 + 10 (parallel) = 400,
# thread management 100 + 80 = 180; 1,350 in all = 11.9% (8.8% of 15,260).
report=$1 srcdir=$2
fixture=$srcdir/tests/sir/regions.xml
. "$(dirname "$0")/lib.sh"
expect_line() {  # the exact line in stdout
  if grep -qxF -- "$1" "$tmp/out"; then ok "line '$1'"; else bad "no line '$1'"; fi
}

run "$report" regions "$fixture"
expect_rc 0 "regions regions.xml"
[ -s "$tmp/err" ] && bad "regions wrote to stderr: $(cat "$tmp/err")"
cp "$tmp/out" "$tmp/default.txt"
# the header
expect_line "-- Region profile"
expect_line "Program:          /src/regions 2"
expect_line "Threads:          2"
expect_line "Times:            in simulated cycles (each thread's core clock)"
expect_line "Run time:         7,630 cycles (the longest thread; 15,260 summed over the threads)"
# the region overview
expect_line "Region  Type      Location           Function           Name"
expect_line "R00002  PARALLEL  regions.c (14-27)  compute"
expect_line "R00003  LOOP      regions.c (17-20)  compute._omp_fn.0"
expect_line "R00006  FUNCTION  regions.c (6-10)   norm               norm"
# the flat profile: each type with its columns, D1mr and D2mr by default
expect_line "R00003 regions.c (17-20) LOOP"
expect_line "TID  execT  execC  bodyT  exitBarT  D1mr  D2mr"
expect_line "  0  4,050      2  3,800       250   152    38"
expect_line "  1  3,820      2  3,800        20   152    38"
expect_line "SUM  7,870      4  7,600       270   304    76"
expect_line "R00005 regions.c (24-25) MASTER"
expect_line "TID  execT  execC  D1mr  D2mr"
expect_line "  0    580      2     4     0"
# the callgraph, as ompP's figure 3
expect_line "   0     15,260  100.0%      3,280  21.5%      2  ROOT      [regions: 2 threads]"
expect_line "   2     11,380   74.6%        560   3.7%      2  PARALLEL  | +-R00002 regions.c (14-27)"
expect_line "   4      2,370   15.5%      2,370  15.5%      4  CRITICAL  |   |-R00004 regions.c (21-23) (unnamed)"
expect_line "   7        300    2.0%        300   2.0%      1  FUNCTION  +-R00006 regions.c (6-10) ('norm')"
# the states: thread 1 idles 2,080 cycles outside the parallel region
if grep -Eq '^ +1 +4,750 +0 +0 +30 +0 +0 +0 +770 +0 +0 +2,080 +4,750 +800 +7,630$' "$tmp/out"; then
  ok "states of thread 1"; else bad "states of thread 1"; fi
# the overheads
expect_line "Coverage:         11,380 cycles (74.6%)"
if grep -Eq '^ +2  R00002  regions\.c \(14-27\)  11,380 +1,350  11\.9% +770  6\.8% +400  3\.5% +0  0\.0% +180  1\.6%$' "$tmp/out"
then ok "overheads of the parallel region"; else bad "overheads of the parallel region"; fi
if grep -Eq '^ SUM  +11,380  74\.6% +1,350  8\.8% +770  5\.0% +400  2\.6% +0  0\.0% +180  1\.2%$' "$tmp/out"
then ok "overheads of the program"; else bad "overheads of the program"; fi
if grep -q "per call-graph node" "$tmp/out"; then bad "states by node without --states-by-node"; else ok "no states by node"; fi

# --- --states-by-node adds a table; --events chooses the event columns
run "$report" regions "$fixture" --states-by-node
expect_rc 0 "regions --states-by-node"
expect_line "-- OpenMP states per call-graph node (cycles, summed over the threads)"
if grep -Eq '^ +3  R00003 LOOP +7,600 +0 +0 +270 +0 +0 +0 +0 +0 +0 +0 +7,600 +270 +7,870$' "$tmp/out"
then ok "states of the loop node"; else bad "states of the loop node"; fi
run "$report" regions "$fixture" --events=Ir,Cycles
expect_rc 0 "regions --events=Ir,Cycles"
expect_line "TID  execT  execC  bodyT  exitBarT     Ir  Cycles"
expect_line "  0  4,050      2  3,800       250  2,280   3,800"

# --- errors: one line, exit 2, nothing on stdout
run "$report" regions "$fixture" --events=Ir,D3mr
expect_error "unknown event" "^ompsim-report: --events: unknown event 'D3mr'; the document's events are Ir I1mr"
run "$report" regions "$srcdir/tests/sir/multicore.xml"
expect_error "no region profile" '^ompsim-report: .*multicore\.xml: no region profile \(run the program under ompsim with OpenMP, OMPSIM_REGION_BEGIN or -finstrument-functions\)$'
run "$report" regions "$srcdir/tests/sir/minimal.xml"
expect_error "single-threaded document" '^ompsim-report: .*minimal\.xml: no region profile'
run "$report" regions "$fixture" --bogus
expect_error "unknown option" '^ompsim-report: .*--bogus'
run "$report" regions
expect_error "missing FILE" '^ompsim-report: .*FILE'
head -n 80 "$fixture" >"$tmp/truncated.xml"
run "$report" regions "$tmp/truncated.xml"
expect_error "truncated" '^ompsim-report: .*truncated\.xml:[0-9]+: XML error'
for f in "$srcdir"/tests/sir/bad/rp-*.xml; do
  run "$report" regions "$f"
  expect_error "$(basename "$f")" "^ompsim-report: .*$(basename "$f"):[0-9]+: <"
done
run "$report" regions --help
if [ "$rc" -eq 0 ] && grep -q -- '--states-by-node' "$tmp/out"; then ok "regions --help"; else bad "regions --help: exit $rc"; fi
exit $status
