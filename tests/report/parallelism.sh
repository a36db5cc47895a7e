#!/bin/sh
# parallelism.sh REPORT_BINARY SRCDIR: 'ompsim-report parallelism' on
# tests/sir/parallelism.xml, the run of tests/sir/regions.xml as an OSPG
# (burden 500 cycles; sites 1-4 the regions R00002 PARALLEL, R00003 LOOP,
# R00004 CRITICAL, R00005 MASTER, sites 5 and 6 the what-if region 'inner'
# at lines 19-20):
#   1,000 cycles of serial code (program start -> parallel region), then the
#   parallel region with 2 members: segment 1 (ended by the loop's barrier)
#   holds the dynamic loop's 4 chunks of 1,500 cycles, two per member (each
#   chunk 100 from the loop to 'inner' begin, 1,200 in 'inner', 200 from
#   'inner' end back to the loop); segment 2, member 0: 50 (loop -> critical),
#   300 in the critical, 40 between it and a second entry, 300 in it again,
#   30 (critical -> master), 400 in the master, 30 (master -> end of the
#   region) = 1,150; member 1: 50, 300 in the critical, 10 = 360. Then 500
#   cycles of serial code.
# By hand (docs/parallelism.md, "The analysis"):
#   work = 1,000 + 4 x 1,500 + 1,150 + 360 + 500 = 9,010
#   span = 1,000 + 1,500 (one chunk) + 1,150 (member 0) + 500 = 4,150
#   burdened span: a chunk is a P node below its share's P node below the
#   member's P node, so segment 1 adds 3 burdens: 1,500 + 1,500 = 3,000;
#   segment 2 one: 1,150 + 500 = 1,650; 1,000 + 3,000 + 1,650 + 500 = 6,150
#   parallelism 9,010 / 4,150 = 2.171 -> 2.17; burdened 9,010 / 6,150 =
#   1.46504 -> 1.47
#   directives: the loop (its segment's S node) work 6,000, span 1,500,
#   parallelism 4.00; the parallel region work 7,510, span 2,650, 2.83
#   serial work on the critical path: program 1,000 + 500 = 1,500 (36.14 %),
#   loop 100 + 1,200 + 200 = 1,500 (36.14 %), parallel region member 0's
#   1,150 (27.71 %); 1,500 + 1,500 + 1,150 = 4,150
#   speedups: upper min(P, 2.17); lower 9,010 P / (9,010 + 6,150 P):
#   P=2 18,020 / 21,310 = 0.846, 4: 1.072, 8: 1.238, 16: 1.342, 32: 1.401,
#   64: 1.432
#   fragments: % of 4,150: 1,200 28.92, 1,000 24.10, 640 15.42 (3 W nodes:
#   300 + 40 + 300), 500 12.05, 400 9.64, 200 4.82, 100 2.41, 50 1.20,
#   30 0.72 (twice: from 4 before from 5 ... ties by from)
report=$1 srcdir=$2
case $report in /*) ;; *) report=$PWD/$report ;; esac
case $srcdir in /*) ;; *) srcdir=$PWD/$srcdir ;; esac
. "$srcdir/tests/report/lib.sh"
fixture=$srcdir/tests/sir/parallelism.xml

# --- 1. the fixture, exactly
cat >"$tmp/expected.txt" <<'TXT'
-- Parallelism profile of regions
Measure:               cycles (simulated cycles of user code)
Burden:                500 cycles per P node on a chain
Graph:                 38 nodes, 24 W nodes, 0 dependences
Complete:              yes
OSPG log:              regions.ospg

Work:                  9,010
Span:                  4,150
Parallelism:           2.17
Burdened span:         6,150
Burdened parallelism:  1.47
Serial work:           1,500 outside every directive (36.14% of the span)

-- Directives (most serial work on the critical path first)
Directive                        Instances   Work   Span  Parallelism  Serial %
-------------------------------  ---------  -----  -----  -----------  --------
Program                                  1  9,010  4,150         2.17     36.14
R00003 LOOP regions.c:17-20              1  6,000  1,500         4.00     36.14
R00002 PARALLEL regions.c:14-27          1  7,510  2,650         2.83     27.71

-- Speedup estimates (upper: min(cores, parallelism); lower: work / (work / cores + burdened span))
Cores  Upper  Lower
-----  -----  -----
    2   2.00   0.85
    4   2.17   1.07
    8   2.17   1.24
   16   2.17   1.34
   32   2.17   1.40
   64   2.17   1.43

-- Code regions on the critical path (most serial work first)
From                                To                                  Label  W nodes  Serial  % of span
----------------------------------  ----------------------------------  -----  -------  ------  ---------
what-if 'inner' begin regions.c:19  what-if 'inner' end regions.c:20    inner        1   1,200      28.92
program start                       R00002 PARALLEL regions.c:14-27     -            1   1,000      24.10
R00004 CRITICAL regions.c:21-23     R00004 CRITICAL regions.c:21-23     -            3     640      15.42
R00002 PARALLEL regions.c:14-27     program end                         -            1     500      12.05
R00005 MASTER regions.c:24-25       R00005 MASTER regions.c:24-25       -            1     400       9.64
what-if 'inner' end regions.c:20    R00003 LOOP regions.c:17-20         -            1     200       4.82
R00003 LOOP regions.c:17-20         what-if 'inner' begin regions.c:19  -            1     100       2.41
R00003 LOOP regions.c:17-20         R00004 CRITICAL regions.c:21-23     -            1      50       1.20
R00004 CRITICAL regions.c:21-23     R00005 MASTER regions.c:24-25       -            1      30       0.72
R00005 MASTER regions.c:24-25       R00002 PARALLEL regions.c:14-27     -            1      30       0.72
TXT
run "$report" parallelism "$fixture"
expect_rc 0 "parallelism fixture"
expect_output "$tmp/expected.txt" "parallelism fixture: the whole profile"
if [ -s "$tmp/err" ]; then bad "parallelism fixture: stderr: $(cat "$tmp/err")"; fi

# --output writes the same text to a file, nothing to stdout.
run "$report" parallelism "$fixture" --output="$tmp/written.txt"
expect_rc 0 "--output"
if [ -s "$tmp/out" ]; then bad "--output: wrote to stdout"; fi
if cmp -s "$tmp/expected.txt" "$tmp/written.txt"; then ok "--output: the same text"; else bad "--output: differs"; fi

# --- 2. variants: not complete and without a log; a fragment whose work is
# more than its serial work (as after a what-if factor) adds a Work column;
# a profile without any work.
sed -e 's/complete="true" lost-work="0" log="regions.ospg"/complete="false" lost-work="2500"/' \
  "$fixture" >"$tmp/incomplete.xml"
run "$report" parallelism "$tmp/incomplete.xml"
expect_rc 0 "incomplete"
expect_match '^Complete:              no: the node limit was reached; 2,500 cycles of work have no W node$' "incomplete: lost work"
expect_match '^OSPG log:              none \(run with --ospg-log=FILE to keep the graph for what-if analyses\)$' "incomplete: no log"
sed -e 's/work="100" serial="100"/work="1600" serial="100"/' "$fixture" >"$tmp/measured.xml"
run "$report" parallelism "$tmp/measured.xml"
expect_rc 0 "fragment work above its serial work"
expect_match '^From +To +Label +W nodes +Work +Serial +% of span$' "fragments: a Work column"
expect_match '^R00003 LOOP regions.c:17-20 +what-if .inner. begin regions.c:19 +- +1 +1,600 +100 +2.41$' "fragments: work and serial"
sed -e '/<parallelism /,/<\/parallelism>/d' "$fixture" >"$tmp/none.xml"
sed -e 's|  </region-profile>|  </region-profile>\n  <parallelism measure="instructions" burden="0" nodes="0" w-nodes="0" dependences="0" complete="true" lost-work="0">\n    <program work="0" span="0" burdened-span="0" serial="0"/>\n  </parallelism>|' \
  "$tmp/none.xml" >"$tmp/empty.xml"
run "$report" parallelism "$tmp/empty.xml"
expect_rc 0 "no work"
expect_match '^Measure:               instructions of user code$' "no work: instructions"
expect_match '^Parallelism:           -$' "no work: no parallelism"
expect_match '^Program +1 +0 +0 +- +-$' "no work: the program row"
expect_match '^    2      -      -$' "no work: no speedup bounds"
expect_match '^Serial work:           0 outside every directive$' "no work: no share of a span"
expect_match '^\(none: the program did no work\)$' "no work: no fragments"

# --- 3. errors: one line, exit 2, nothing on stdout
run "$report" parallelism "$tmp/none.xml"
expect_error "no parallelism profile" "^ompsim-report: $tmp/none.xml has no parallelism profile \(an OpenMP run with --ospg=yes, the default\)$"
run "$report" parallelism "$fixture" --measure=instructions
expect_error "--measure on a document" "^ompsim-report: --measure: a document's profile is in cycles; give the OSPG log to change it$"
run "$report" parallelism "$fixture" --burden=100
expect_error "--burden on a document" "^ompsim-report: --burden: a document's profile has burden 500; give the OSPG log to change it$"
run "$report" parallelism "$fixture" --measure=time
expect_error "--measure=time" "^ompsim-report: --measure: time not in \{cycles,instructions\}"
run "$report" parallelism "$fixture" --burden=-1
expect_error "--burden=-1" "^ompsim-report: --burden: expected a whole number from 0 to 1000000000000, not '-1'"
run "$report" parallelism "$fixture" --burden=1000000000001
expect_error "--burden too large" "^ompsim-report: --burden: expected a whole number from 0 to 1000000000000"
run "$report" parallelism "$fixture" --format=dot
expect_error "unknown option" "^ompsim-report: .*--format"
run "$report" parallelism
expect_error "no FILE" "^ompsim-report: .*FILE"
run "$report" parallelism "$tmp/missing.xml"
expect_error "missing file" "^ompsim-report: $tmp/missing.xml: cannot open: "
run "$report" parallelism "$srcdir/tests/sir/bad/par-serial-sum.xml"
expect_error "invalid section" "^ompsim-report: .*par-serial-sum.xml:117: <parallelism>: the serial work of the program"
run "$report" parallelism "$fixture" --output=/nonexistent/dir/out.txt
expect_error "unwritable --output" "^ompsim-report: cannot write /nonexistent/dir/out.txt: "

# --- 4. an OSPG log (the figures are tests/report/whatif.sh's): analysed
# again, with another measure and burden.
log=$srcdir/tests/report/ospg/prime.log
if [ -f "$log" ]; then
  run "$report" parallelism "$log"
  expect_rc 0 "OSPG log"
  expect_match "^OSPG log: +$log\$" "OSPG log: named"
  expect_match '^-- Code regions on the critical path' "OSPG log: the critical path"
  run "$report" parallelism "$log" --measure=instructions --burden=0
  expect_rc 0 "OSPG log, --measure --burden"
  expect_match '^Measure: +instructions of user code$' "OSPG log: --measure=instructions"
  expect_match '^Burden: +0 instructions per P node on a chain$' "OSPG log: --burden=0"
else
  echo "skip: no $log"
fi

exit $status
