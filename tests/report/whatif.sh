#!/bin/sh
# whatif.sh REPORT_BINARY SRCDIR: OSPG logs (report/OspgLog.cpp) read by
# 'ompsim-report whatif' and 'ompsim-report parallelism LOG', on the
# hand-written logs of tests/report/ospg/ (docs/parallelism.md has the format
# and the analysis). The figures below follow from the graphs by hand.
#
# prime.log, the paper's prime example: root S; W 1000 cycles (800
#   instructions) of serial code (program start -> site 1); the parallel
#   region S (site 1, R00002 PARALLEL prime.c:12-20) -> its segment S (site 2,
#   R00003 LOOP prime.c:14-18, the loop's barrier ends it) -> two member P's
#   -> one share P each (site 2) -> 20 dynamic chunk P's (site 2), each a W of
#   100 cycles / 50 instructions (LOOP -> what-if begin, site 3, line 15) and
#   a W of 640 / 320 labelled 'inner' (site 3 -> site 4, what-if end, line
#   17); W 500 / 300 of serial code (site 1 -> program end). Burden 10.
#   Cycles: work 1000 + 20 x 740 + 500 = 16,300; span 1000 + 740 + 500 =
#   2,240, parallelism 7.28; burdened span 2,240 + 3 x 10 (member, share and
#   chunk P on the chain) = 2,270. LOOP and PARALLEL: work 14,800, span 740
#   (20.00); serial: program 1,500 (66.96 %), LOOP 740 (33.04 %), PARALLEL 0.
#   Instructions: work 800 + 20 x 370 + 300 = 8,500, span 1,470 (5.78),
#   burdened 1,500.
#   What-if 'inner' by f: each chunk's span 100 + 640 / f, the program's
#   1,600 + 640 / f: f = 4: 1,760 (9.26), burdened 1,790; f = 16 (the
#   default): 1,640 (9.94); the table: 2,240 7.28 | 1,920 8.49 | 1,760 9.26 |
#   1,680 9.70 | 1,640 9.94 | 1,610 10.12, LOOP 14,800 / (100 + 640 / f):
#   20.00 | 35.24 | 56.92 | 82.22 | 105.71 | 134.55.
#   prime.c:15-17 selects the W nodes between sites 3 and 4 (lines 15 and 17):
#   the same as 'inner'. prime.c:14-18 also selects the chunks' first W (site
#   2, lines 14-18 -> site 3): by 4 the chunk's span is (100 + 640) / 4 = 185,
#   the program's 1,685 (9.67). 'inner' by 4 and prime.c:15-17 by 2 select the
#   same W nodes: 640 / 8 = 80, span 1,680 (9.70). Instructions, 'inner' by
#   4: 1,100 + 50 + 80 = 1,230 (6.91), burdened 1,260.
# deps.log, tasks with depend clauses: W 100 (serial), the creator's task S
#   (site 1, R00001 TASK deps.c:5-7) holding task A (P, W 300), the
#   creator's continuation W 100, task B (W 100, D A -> B), task C (W 150),
#   task D (W 200, D B -> D; its site 3 is a TASK region the region profile
#   does not hold: RID '-'), then W 50 (site 2 -> program end). Burden 5;
#   complete no, 1,234 cycles / 567 instructions lost.
#   A ends at 300; B starts at max(continuation 100, A 300) = 300, ends at
#   400; C ends at 100 + 150 = 250; D starts at max(100, 400), ends at 600:
#   span 100 + 600 + 50 = 750, work 1,000 (1.33); burdened: A 305, B 305 +
#   105 = 410, D 410 + 205 = 615: 765. Critical path W1, A, B, D, W12: TASK
#   serial 400 (53.33 %), D's 200 is the program's (site 3 is not named):
#   program 350 (46.67 %); TASK work 850, span 600 (1.42). The fragments:
#   TASK -> TASK 2 W nodes 400, D's (3 -> 3, mapped to program start ->
#   program end) 200, program start -> TASK 100, TASKWAIT -> end 50.
#   deps.c:5-7 selects the W nodes whose events are both site 1 (lines 5-7):
#   A, the continuation, B and C, not D (site 3, lines 9-10) nor the serial
#   ones. By f: span 150 + 400 / f + 200, TASK span 400 / f + 200: f = 2:
#   550 (1.82), TASK 400 (850 / 400 = 2.125: 2.13 half up); the table:
#   750 1.33 1.42 | 550 1.82 2.13 | 450 2.22 2.83 | 400 2.50 3.40 | 375 2.67
#   3.78 | 356.25 -> 356 2.81 and TASK 206.25 -> 206: 4.13 (figures are whole
#   units, rounded to nearest; ratios come from them).
# amdahl.log, Amdahl's law: W 200 serial, W 800 labelled 'setup' (what-if
#   sites 1 and 2, amdahl.c:3 and :5), then R00001 PARALLEL (site 3) with
#   R00002 LOOP (site 4): two members, one share each of W 500. Work 2,000,
#   span 1,500 (1.33). 'setup' by f: span 700 + 800 / f: 16 (default): 750
#   (2.67); 4: 900 (2.22); the table: 1,500 1.33 | 1,100 1.82 | 900 2.22 |
#   800 2.50 | 750 2.67 | 712.5 -> 713 2.81; LOOP (serial 500, the only
#   directive with serial work) 2.00 throughout.
# four.log, four parallel regions in a row (R00001..R00004, four.c:10-19,
#   20-29, 30-39, 40-49), two members of w = 128, 512, 384, 256 each: work
#   2,560, span 1,280 (2.00). four.c:20-29 by f: span 768 + 512 / f: the
#   table 1,280 2.00 | 1,024 2.50 | 896 2.86 | 832 3.08 | 800 3.20 | 776 3.30;
#   the directive columns are the three with the most serial work, R00002
#   (512: 1,024 / (512 / f) = 2 f), R00003 (384), R00004 (256), not R00001.
report=$1 srcdir=$2
case $report in /*) ;; *) report=$PWD/$report ;; esac
case $srcdir in /*) ;; *) srcdir=$PWD/$srcdir ;; esac
. "$srcdir/tests/report/lib.sh"
cp "$srcdir"/tests/report/ospg/*.log "$tmp"/ || exit 1
cd "$tmp" || exit 1
expect_line() {  # the exact line in stdout
  if grep -qxF -- "$1" "$tmp/out"; then printf "ok: line '%s'\n" "$1"; else printf "FAIL: no line '%s'\n" "$1"; status=1; cat "$tmp/out"; fi
}
fails() {  # WHAT MESSAGE: exit 2, stderr exactly "ompsim-report: MESSAGE", no stdout
  if [ "$rc" -ne 2 ]; then bad "$1: exit $rc, expected 2"; cat "$tmp/out" "$tmp/err"
  elif [ "$(cat "$tmp/err")" != "ompsim-report: $2" ]; then bad "$1: stderr '$(cat "$tmp/err")', expected 'ompsim-report: $2'"
  elif [ -s "$tmp/out" ]; then bad "$1: wrote to stdout"
  else ok "$1: $(cat "$tmp/err")"; fi
}
table() { sed -n '/^-- Program parallelism when/,$p' "$tmp/out" >"$tmp/table"; }
expect_table() {  # FILE WHAT: the table section of stdout is exactly FILE
  table
  if cmp -s "$1" "$tmp/table"; then ok "$2"; else bad "$2"; diff "$1" "$tmp/table"; fi
}

# --- 1. prime.log: 'inner' by 4
run "$report" whatif prime.log --region inner:4
expect_rc 0 "whatif inner:4"
expect_line "-- What-if analysis of prime (serial work of the selected regions divided, work as measured)"
expect_line "Region:                'inner' / 4"
expect_line "Measured:              work 16,300, span 2,240, parallelism 7.28"
expect_line "-- What-if profile of prime: 'inner' / 4"
expect_line "Work:                  16,300"
expect_line "Span:                  1,760"
expect_line "Parallelism:           9.26"
expect_line "Burdened span:         1,790"
expect_match "^R00003 LOOP prime.c:14-18 +1 +14,800 +260 +56.92 " "inner:4: the loop's span 260"
expect_match "^what-if 'inner' begin prime.c:15 +what-if 'inner' end prime.c:17 +inner +1 +640 +160 " \
  "inner:4: the labelled fragment's work 640, serial 160"
cat >"$tmp/prime-table.txt" <<'TXT'
-- Program parallelism when the selected regions are optimised by
Factor         Span  Parallelism  R00003 LOOP prime.c:14-18
------------  -----  -----------  -------------------------
1 (measured)  2,240         7.28                      20.00
2             1,920         8.49                      35.24
4             1,760         9.26                      56.92
8             1,680         9.70                      82.22
16            1,640         9.94                     105.71
64            1,610        10.12                     134.55
(Each factor divides the serial work of every selected region at once; the factors given with
--region are not used here. The directive column: the parallelism of the directive with the most serial
work on the measured critical path.)
TXT
expect_table "$tmp/prime-table.txt" "inner:4: the factor table"
cp "$tmp/out" "$tmp/inner4.txt"

# The same region by lines: by basename, by the log's path; the table is the same.
for spec in prime.c:15-17:4 /src/prime.c:15-17:4; do
  run "$report" whatif prime.log --region $spec
  expect_rc 0 "whatif $spec"
  expect_line "Span:                  1,760"
  expect_table "$tmp/prime-table.txt" "$spec: the factor table"
done
run "$report" whatif prime.log --region inner
expect_line "Region:                'inner' / 16"
expect_line "Span:                  1,640"
expect_line "Parallelism:           9.94"
run "$report" whatif prime.log --region prime.c:14-18:4
expect_line "Span:                  1,685"
expect_line "Parallelism:           9.67"
run "$report" whatif prime.log --region inner:4 --region prime.c:15-17:2
expect_rc 0 "two regions selecting the same W nodes"
expect_line "Regions:               'inner' / 4, prime.c:15-17 / 2"
expect_line "Span:                  1,680"
expect_line "Parallelism:           9.70"
run "$report" whatif --region inner:4 prime.log
expect_rc 0 "--region before LOG"
expect_line "Span:                  1,760"
run "$report" whatif prime.log --region inner:2.5
expect_line "Region:                'inner' / 2.5"
expect_line "Span:                  1,856"
run "$report" whatif prime.log --region inner:4 --measure=instructions
expect_rc 0 "whatif --measure=instructions"
expect_line "Measured:              work 8,500, span 1,470, parallelism 5.78"
expect_line "Span:                  1,230"
expect_line "Parallelism:           6.91"
expect_line "Burdened span:         1,260"
run "$report" whatif prime.log --region inner:4 --burden=0
expect_line "Burdened span:         1,760"
run "$report" whatif prime.log --region inner:4 --output="$tmp/written.txt"
expect_rc 0 "whatif --output"
if [ ! -s "$tmp/out" ] && cmp -s "$tmp/written.txt" "$tmp/inner4.txt"; then ok "--output writes the report, nothing to stdout"
else bad "--output"; fi

# --- 2. parallelism LOG (Parallelism.cpp's command on profile_from_log)
run "$report" parallelism prime.log
expect_rc 0 "parallelism prime.log"
expect_line "Work:                  16,300"
expect_line "Span:                  2,240"
expect_line "Parallelism:           7.28"
expect_line "Burdened span:         2,270"
expect_match "^Program +1 +16,300 +2,240 +7.28 +66.96$" "parallelism: the program's row"
expect_match "^R00003 LOOP prime.c:14-18 +1 +14,800 +740 +20.00 +33.04$" "parallelism: the loop's row"
expect_match "^R00002 PARALLEL prime.c:12-20 +1 +14,800 +740 +20.00 +0.00$" "parallelism: the region's row"
run "$report" parallelism prime.log --measure=instructions
expect_rc 0 "parallelism --measure=instructions"
expect_line "Measure:               instructions of user code"
expect_line "Work:                  8,500"
expect_line "Span:                  1,470"
expect_line "Parallelism:           5.78"
expect_line "Burdened span:         1,500"
run "$report" parallelism prime.log --burden=1000
expect_line "Burdened span:         5,240"

# --- 3. deps.log: dependences, an unnamed site, an incomplete graph
run "$report" parallelism deps.log
expect_rc 0 "parallelism deps.log"
expect_line "Graph:                 13 nodes, 7 W nodes, 2 dependences"
expect_line "Complete:              no: the node limit was reached; 1,234 cycles of work have no W node"
expect_line "Work:                  1,000"
expect_line "Span:                  750"
expect_line "Burdened span:         765"
expect_match "^Program +1 +1,000 +750 +1.33 +46.67$" "deps: the program holds D's serial work"
expect_match "^R00001 TASK deps.c:5-7 +1 +850 +600 +1.42 +53.33$" "deps: the task directive"
expect_no_match "TASK deps.c:9" "deps: the unnamed site is not listed"
expect_match "^R00001 TASK deps.c:5-7 +R00001 TASK deps.c:5-7 +- +2 +400 " "deps: A and B on the critical path"
expect_match "^program start +program end +- +1 +200 " "deps: D's fragment bounded by the unnamed site"
run "$report" parallelism deps.log --measure=instructions
expect_line "Complete:              no: the node limit was reached; 567 instructions of work have no W node"
run "$report" whatif deps.log --region deps.c:5-7:2
expect_rc 0 "whatif deps.c:5-7:2"
expect_line "Span:                  550"
expect_line "Parallelism:           1.82"
cat >"$tmp/deps-table.txt" <<'TXT'
-- Program parallelism when the selected regions are optimised by
Factor        Span  Parallelism  R00001 TASK deps.c:5-7
------------  ----  -----------  ----------------------
1 (measured)   750         1.33                    1.42
2              550         1.82                    2.13
4              450         2.22                    2.83
8              400         2.50                    3.40
16             375         2.67                    3.78
64             356         2.81                    4.13
(Each factor divides the serial work of every selected region at once; the factors given with
--region are not used here. The directive column: the parallelism of the directive with the most serial
work on the measured critical path.)
TXT
expect_table "$tmp/deps-table.txt" "deps: the factor table"

# --- 4. amdahl.log: a labelled serial region raises the program's parallelism
run "$report" whatif amdahl.log --region setup
expect_rc 0 "whatif setup"
expect_line "Measured:              work 2,000, span 1,500, parallelism 1.33"
expect_line "Span:                  750"
expect_line "Parallelism:           2.67"
for spec in setup:4 amdahl.c:3-5:4; do
  run "$report" whatif amdahl.log --region $spec
  expect_line "Span:                  900"
  expect_line "Parallelism:           2.22"
done
cat >"$tmp/amdahl-table.txt" <<'TXT'
-- Program parallelism when the selected regions are optimised by
Factor         Span  Parallelism  R00002 LOOP amdahl.c:9-11
------------  -----  -----------  -------------------------
1 (measured)  1,500         1.33                       2.00
2             1,100         1.82                       2.00
4               900         2.22                       2.00
8               800         2.50                       2.00
16              750         2.67                       2.00
64              713         2.81                       2.00
(Each factor divides the serial work of every selected region at once; the factors given with
--region are not used here. The directive column: the parallelism of the directive with the most serial
work on the measured critical path.)
TXT
expect_table "$tmp/amdahl-table.txt" "amdahl: the factor table"

# --- 5. four.log: the three directives with the most serial work
run "$report" whatif four.log --region four.c:20-29:4
expect_rc 0 "whatif four.c:20-29:4"
expect_line "Span:                  896"
expect_line "Parallelism:           2.86"
cat >"$tmp/four-table.txt" <<'TXT'
-- Program parallelism when the selected regions are optimised by
Factor         Span  Parallelism  R00002 PARALLEL four.c:20-29  R00003 PARALLEL four.c:30-39  R00004 PARALLEL four.c:40-49
------------  -----  -----------  ----------------------------  ----------------------------  ----------------------------
1 (measured)  1,280         2.00                          2.00                          2.00                          2.00
2             1,024         2.50                          4.00                          2.00                          2.00
4               896         2.86                          8.00                          2.00                          2.00
8               832         3.08                         16.00                          2.00                          2.00
16              800         3.20                         32.00                          2.00                          2.00
64              776         3.30                        128.00                          2.00                          2.00
(Each factor divides the serial work of every selected region at once; the factors given with
--region are not used here. The directive columns: the parallelism of the 3 directives with the most serial
work on the measured critical path.)
TXT
expect_table "$tmp/four-table.txt" "four: the factor table"

# --- 6. bad arguments
run "$report" whatif prime.log --region outer:4
fails "unknown label" "--region: no what-if label 'outer' in prime.log (labels: inner)"
run "$report" whatif deps.log --region outer
fails "unknown label, no labels" "--region: no what-if label 'outer' in deps.log (labels: none)"
for f in x 0 -2 '' 1e999 nan; do
  run "$report" whatif prime.log --region "inner:$f"
  fails "factor '$f'" "--region: factor must be a positive number: '$f'"
done
run "$report" whatif prime.log --region prime.c:14-18:abc
fails "factor of a line range" "--region: factor must be a positive number: 'abc'"
run "$report" whatif prime.log --region prime.c:18-14
fails "reversed line range" "--region prime.c:18-14: the first line 18 is after the last 14"
run "$report" whatif prime.log --region prime.c:0-14
fails "line 0" "--region prime.c:0-14: line numbers start at 1 and are below 2^32, not '0'"
run "$report" whatif prime.log --region prime.c:30-40
fails "lines without fragments" "--region prime.c:30-40: no fragment of prime.log lies between two events in those lines (no W node whose FROM and TO sites are in them)"
run "$report" whatif prime.log --region src/prime.c:15-17
fails "a path with '/' must be the log's" "--region src/prime.c:15-17: no fragment of prime.log lies between two events in those lines (no W node whose FROM and TO sites are in them)"
run "$report" whatif amdahl.log --region amdahl.c:1-4
fails "only one bounding event in the lines" "--region amdahl.c:1-4: no fragment of amdahl.log lies between two events in those lines (no W node whose FROM and TO sites are in them)"
run "$report" whatif prime.log
fails "no --region" "whatif: no --region given; choose the code to optimise with --region LABEL[:FACTOR] or --region FILE:FIRST-LAST[:FACTOR]"
cp "$srcdir/tests/sir/regions.xml" "$tmp/doc.xml"
run "$report" whatif doc.xml --region inner
fails "a document" "doc.xml is a profile document; whatif needs the OSPG log (run with --ospg-log=FILE)"
run "$report" whatif missing.log --region inner
fails "no such log" "missing.log: cannot open: No such file or directory"
for b in -3 x 18446744073709551616; do
  run "$report" whatif prime.log --region inner --burden=$b
  fails "--burden=$b" "--burden: expected a whole number of the measure's unit, not '$b'"
done
run "$report" whatif prime.log --region inner --measure=bogus
expect_error "--measure=bogus" "--measure"

# --- 7. malformed logs: one line naming the log and the line
# bad NAME SED-SCRIPT MESSAGE: amdahl.log edited by SED-SCRIPT, read by whatif.
bad_log() {
  sed "$2" amdahl.log >"$1.log"
  run "$report" whatif "$1.log" --region setup
  fails "$1" "$3"
}
bad_deps() {  # the same on deps.log
  sed "$2" deps.log >"$1.log"
  run "$report" whatif "$1.log" --region deps.c:5-7
  fails "$1" "$3"
}
bad_log version 's/^ompsim-ospg 1$/ompsim-ospg 2/' "version.log:1: ompsim-ospg 2: this ompsim-report reads version 1"
bad_log not-log '1s/.*/hello/' "not-log.log:1: not an OSPG log: the first line is not 'ompsim-ospg 1' (written by ompsim --ospg-log)"
: >empty.log
run "$report" whatif empty.log --region setup
fails "empty file" "empty.log: empty file (not an OSPG log)"
bad_log unknown '5a\
frob 1' "unknown.log:6: unknown record 'frob'"
bad_log empty-line '5a\
' "empty-line.log:6: empty line"
bad_log measure 's/^measure cycles$/measure seconds/' "measure.log:5: measure must be cycles or instructions, not 'seconds'"
bad_log burden 's/^burden 0$/burden 99999999999999999999/' "burden.log:6: the burden must be a whole number, not '99999999999999999999'"
bad_log complete 's/^complete yes 0 0$/complete maybe 0 0/' "complete.log:7: complete must be yes or no, not 'maybe'"
bad_log complete-fields 's/^complete yes 0 0$/complete yes 0/' "complete-fields.log:7: 'complete' needs 4 fields: complete yes|no LOST_CYCLES LOST_INSTRUCTIONS"
bad_log no-burden '/^burden/d' "no-burden.log:12: 'nodes' before the 'burden' line"
bad_log twice '6p' "twice.log:7: a second 'burden' line"
bad_log site-order '8{h;d};9G' "site-order.log:9: site 1 after site 2: site ids must ascend"
bad_log site-zero 's/^site 1 whatif/site 0 whatif/' "site-zero.log:8: site 0 is the program and is not listed"
bad_log site-kind 's/^site 3 region/site 3 loop/' "site-kind.log:10: site kind must be region or whatif, not 'loop'"
bad_log site-rid 's/R00001/X1/' "site-rid.log:10: the region must be a region id like R00003 or '-', not 'X1'"
bad_log site-lines 's/PARALLEL 7 12/PARALLEL 12 7/' "site-lines.log:10: FIRST 12 is after LAST 7"
bad_log site-edge 's/whatif 1 end/whatif 1 stop/' "site-edge.log:9: the edge must be begin or end, not 'stop'"
bad_log site-label 's/^site 2 whatif 1/site 2 whatif 3/' "site-label.log:9: label 3 is not defined (no 'label 3' line)"
bad_log label-name '12a\
label 2 setup' "label-name.log:13: label name 'setup' is already label 1"
bad_log header-after '14a\
site 9 whatif 1 begin 1 a.c' "header-after.log:15: 'site' after the 'nodes' line (line 13)"
bad_log root 's/^S - 0$/S - 1/' "root.log:14: the root (node 0) must be 'S - 0', not 'S - 1'"
bad_log no-parent '17s/.*/S - 3/' "no-parent.log:17: only the root (node 0) has no parent; this is node 3"
bad_log parent-later '19s/.*/P 7 3/' "parent-later.log:19: parent 7 is not an earlier node (this is node 5)"
bad_log parent-w '17s/.*/S 1 3/' "parent-w.log:17: parent 1 is a W node"
bad_log bad-number '15s/.*/W 0 2x0 200 0 0 1/' "bad-number.log:15: CYCLES must be a whole number, not '2x0'"
bad_log big-id '17s/.*/S 0 4294967296/' "big-id.log:17: SITE must be a whole number below 2^32, not '4294967296'"
bad_log w-fields '15s/.*/W 0 200 200 0 0/' "w-fields.log:15: 'W' needs 7 fields: W PARENT CYCLES INSTRUCTIONS LABEL FROM TO"
bad_log undefined-site '17s/.*/S 0 7/' "undefined-site.log:17: site 7 is not defined (no 'site 7' line)"
bad_log undefined-from '15s/.*/W 0 200 200 0 9 1/' "undefined-from.log:15: FROM site 9 is not defined (no 'site 9' line)"
bad_log undefined-label '16s/.*/W 0 800 800 2 1 2/' "undefined-label.log:16: label 2 is not defined (no 'label 2' line)"
bad_log too-few 's/^nodes 11 0$/nodes 12 0/' "too-few.log:25: 'end' after 11 of the 12 node lines announced on line 13"
bad_log too-many 's/^nodes 11 0$/nodes 10 0/' "too-many.log:24: more node lines than the 10 announced on line 13"
bad_log no-nodes 's/^nodes 11 0$/nodes 0 0/' "no-nodes.log:13: a graph has at least its root node (N is 0)"
bad_log node-before '13d' "node-before.log:13: 'S' before the 'nodes' line"
bad_log truncated '/^end$/d' "truncated.log:24: truncated: no 'end' line"
bad_log truncated-nodes '20,$d' "truncated-nodes.log:19: truncated: no 'end' line"
bad_log after-end '$a\
S 0 3' "after-end.log:26: data after the 'end' line"
sed '$a\
# a comment is no data' amdahl.log >comment-after-end.log
run "$report" whatif comment-after-end.log --region setup
expect_rc 0 "a comment after the 'end' line"
bad_deps d-not-p 's/^D 3 6$/D 4 6/' "d-not-p.log:26: D 4 6: node 4 is a W node, not a task's P node"
bad_deps d-order 's/^D 3 6$/D 6 3/' "d-order.log:26: D 6 3: FROM must be an earlier node than TO"
bad_deps d-missing 's/^D 3 6$/D 3 60/' "d-missing.log:26: D 3 60: no node 60 (the graph has 13)"
bad_deps d-few 's/^nodes 13 2$/nodes 13 3/' "d-few.log:28: 'end' after 2 of the 3 dependence lines announced on line 12"
bad_deps d-many 's/^nodes 13 2$/nodes 13 1/' "d-many.log:27: more dependence lines than the 1 announced on line 12"
bad_deps d-early 's/^nodes 13 2$/nodes 14 2/' "d-early.log:26: 'D' after 13 of the 14 node lines announced on line 12"
# 'parallelism LOG' reads logs with the same reader.
run "$report" parallelism version.log
fails "parallelism on a bad log" "version.log:1: ompsim-ospg 2: this ompsim-report reads version 1"

exit $status
