#!/bin/sh
# events.sh REPORT_BINARY SRCDIR: 'ompsim-report events' on the fixtures in
# tests/report/events/:
#   fig3-0.xml .. fig3-3.xml  IPM's figure 3 (Fürlinger and Skinner 2009): four
#     single-threaded processes, ranks 0-3 (rank attributes), components
#     "region callsite size partner": MPI_Init (fig3.c:3), MPI_Comm_size (:4),
#     MPI_Comm_rank (:5), then 10 x MPI_Send of 80 B to rank-1 (:8) on the
#     odd ranks or 10 x MPI_Recv of 80 B from rank+1 (:10) on the even ones,
#     MPI_Finalize (:11). The odd ranks' region profile has a function setup()
#     first, so main() is R00002 and node 2 there but R00001 and node 1 on the
#     even ranks; their callsites are C1..C5 in both, C4 being the Send on
#     odd ranks and the Recv on even ones: unifying by call path and line
#     (not by id) gives 6 nodes, by id it would give 5. Cycles per edge:
#     START->Init 100, Init->size 20, size->rank 30, rank->Send/Recv 40, the
#     9 repeats 900 (rank 0), 450 (1), 990 (2), 459 (3), ->Finalize 50+rank.
#   size-0.xml, size-1.xml  no rank attribute (ranks by position): MPI_Init,
#     MPI_Send to rank+1 of 80 B x3 (rank 0) or 96 B x5 (rank 1), MPI_Finalize.
#   threads.xml  tests/sir/regions.xml (2 threads) with the event flow of its
#     region entries, all five components: thread 0 enters compute, the
#     parallel region, loop, critical, master, norm, loop, critical, master,
#     norm, then norm again at the top (call-graph node 7); thread 1 the
#     parallel region, loop, critical, loop, critical.
report=$1 srcdir=$2
case $report in /*) ;; *) report=$PWD/$report ;; esac
case $srcdir in /*) ;; *) srcdir=$PWD/$srcdir ;; esac
. "$srcdir/tests/report/lib.sh"
cd "$srcdir/tests/report/events" || exit 1
expect_line() {  # the exact line in stdout (printf: dash's echo would expand the \n of labels)
  if grep -qxF -- "$1" "$tmp/out"; then printf "ok: line '%s'\n" "$1"; else printf "FAIL: no line '%s'\n" "$1"; status=1; fi
}
have_dot=no
command -v dot >/dev/null 2>&1 && have_dot=yes
check_dot() {  # WHAT: Graphviz reads stdout (when installed)
  if [ $have_dot = yes ]; then
    if dot -Tsvg "$tmp/out" >/dev/null 2>"$tmp/dot.err"; then ok "$1: dot accepts it"
    else bad "$1: dot refuses it: $(cat "$tmp/dot.err")"; fi
  fi
}
nodes() { awk '/^-- Nodes/ { on = 1 } /^-- Edges/ { on = 0 } on && /^N[0-9]/ { n++ } END { print n + 0 }' "$tmp/out"; }  # node rows of the text format
fig3="fig3-0.xml fig3-1.xml fig3-2.xml fig3-3.xml"

# --- 1. IPM's figure 3: the merged graph, text and DOT
cat >"$tmp/fig3.txt" <<'TXT'
-- Merged event flow graph (IPM's application-level graph)
Documents:        4
Program:          /src/fig3
Components:       region callsite size partner
Sizes:            exact
Edge labels:      count x (ranks); contributors with equal counts share an edge
Time unit:        cycles

Rank  Threads  Rank from  Document
----  -------  ---------  ----------
   0        1  attribute  fig3-0.xml
   1        1  attribute  fig3-1.xml
   2        1  attribute  fig3-2.xml
   3        1  attribute  fig3-3.xml

-- Nodes (in order of first occurrence; START: each thread's start)
Node  Label                           Entries  Ranks
----  ------------------------------  -------  -----
N1    MPI_Init @ fig3.c:3                   4  0-3
N2    MPI_Comm_size @ fig3.c:4              4  0-3
N3    MPI_Comm_rank @ fig3.c:5              4  0-3
N4    MPI_Recv 80 B (+1) @ fig3.c:10       20  0,2
N5    MPI_Finalize @ fig3.c:11              4  0-3
N6    MPI_Send 80 B (-1) @ fig3.c:8        20  1,3

-- Edges (count x (ranks); cycles between the two events, summed)
From   To  Label     Cycles
-----  --  --------  ------
START  N1  1x (0-3)     400
N1     N2  1x (0-3)      80
N2     N3  1x (0-3)     120
N3     N4  1x (0,2)      80
N3     N6  1x (1,3)      80
N4     N4  9x (0,2)   1,890
N4     N5  1x (0,2)     102
N6     N5  1x (1,3)     104
N6     N6  9x (1,3)     909
TXT
run "$report" events $fig3
expect_rc 0 "events fig3 (text)"
[ -s "$tmp/err" ] && bad "events wrote to stderr: $(cat "$tmp/err")"
expect_output "$tmp/fig3.txt" "figure 3, text"
# The documents in another order: ranks come from the attributes, the output is the same.
run "$report" events fig3-3.xml fig3-1.xml fig3-0.xml fig3-2.xml
expect_output "$tmp/fig3.txt" "documents in any order"

cat >"$tmp/fig3.dot" <<'DOT'
digraph events {
  graph [fontname="Helvetica", fontsize=10, labelloc="t", label="merged event flow graph of fig3, 4 processes (ranks 0-3)\ncomponents: region callsite size partner; edges: count x (ranks)"];
  node [shape=box, style=rounded, fontname="Helvetica", fontsize=10];
  edge [fontname="Helvetica", fontsize=9];
  start [shape=circle, label="START"];
  n1 [label="MPI_Init\n@ fig3.c:3"];
  n2 [label="MPI_Comm_size\n@ fig3.c:4"];
  n3 [label="MPI_Comm_rank\n@ fig3.c:5"];
  n4 [label="MPI_Recv 80 B (+1)\n@ fig3.c:10"];
  n5 [label="MPI_Finalize\n@ fig3.c:11"];
  n6 [label="MPI_Send 80 B (-1)\n@ fig3.c:8"];
  start -> n1 [label="1x (0-3)"];
  n1 -> n2 [label="1x (0-3)"];
  n2 -> n3 [label="1x (0-3)"];
  n3 -> n4 [label="1x (0,2)"];
  n3 -> n6 [label="1x (1,3)"];
  n4 -> n4 [label="9x (0,2)"];
  n4 -> n5 [label="1x (0,2)"];
  n6 -> n5 [label="1x (1,3)"];
  n6 -> n6 [label="9x (1,3)"];
}
DOT
run "$report" events $fig3 --format=dot
expect_rc 0 "events fig3 --format=dot"
expect_output "$tmp/fig3.dot" "figure 3, DOT"
check_dot "figure 3"

# Projections of figure 3. Callsites unify by call path and line: 6 nodes.
run "$report" events $fig3 --components=callsite
expect_rc 0 "--components=callsite"
n=$(nodes); [ "$n" -eq 6 ] && ok "callsite: 6 nodes (unified by location, not by id)" || bad "callsite: $n nodes"
expect_line "N4    @ fig3.c:10       20  0,2"
expect_line "N6    @ fig3.c:8        20  1,3"
expect_line "N4     N4  9x (0,2)   1,890"
run "$report" events $fig3 --components=region
n=$(nodes); [ "$n" -eq 6 ] && ok "region: 6 nodes" || bad "region: $n nodes"
expect_line "N4    MPI_Recv            20  0,2"
# Size and partner alone: size 0 (Init, size, rank, Finalize: one node, a
# self loop of 2 per rank), 80 B to +1, 80 B to -1.
run "$report" events $fig3 --components=size,partner --format=dot
expect_line '  n1 [label="0 B"];'
expect_line '  n2 [label="80 B (+1)"];'
expect_line '  n3 [label="80 B (-1)"];'
expect_line '  n1 -> n1 [label="2x (0-3)"];'
expect_line '  n2 -> n1 [label="1x (0,2)"];'
check_dot "--components=size,partner"
run "$report" events $fig3 --components=partner
expect_line "N1    (no partner)       16  0-3"
expect_line "N2    (+1)               20  0,2"
# One process: relative to its rank attribute (rank 1 sends to 0: -1).
run "$report" events fig3-1.xml --format=dot
expect_line '  graph [fontname="Helvetica", fontsize=10, labelloc="t", label="event flow graph of fig3, rank 1, 1 thread\ncomponents: region callsite size partner; edges: count x (threads)"];'
expect_line '  n4 [label="MPI_Send 80 B (-1)\n@ fig3.c:8"];'
expect_line '  n4 -> n4 [label="9x (0)"];'

# --- 2. projection of a multithreaded process: --components=region merges
# the threads' signatures and norm() in its two call paths (a self loop)
run "$report" events threads.xml
expect_rc 0 "events threads.xml"
n=$(nodes); [ "$n" -eq 10 ] && ok "all components: 10 nodes" || bad "all components: $n nodes"
expect_line "Rank:             none (partners relative to rank 0)"
expect_line "N6    FUNCTION norm in MASTER regions.c (24-25), thread 0                       2  0"
expect_line "N7    FUNCTION norm in program, thread 0                                        1  0"
expect_line "N10   CRITICAL regions.c (21-23) in PARALLEL regions.c (14-27), thread 1        2  1"
expect_line "N9     N10  2x (1)   3,820"
cat >"$tmp/region.txt" <<'TXT'
-- Event flow graph (IPM's event signature flow graph)
Document:         threads.xml
Program:          /src/regions 2
Rank:             none (partners relative to rank 0)
Threads:          2
Components:       region
Edge labels:      count x (threads); contributors with equal counts share an edge
Time unit:        cycles

-- Nodes (in order of first occurrence; START: each thread's start)
Node  Label                       Entries  Threads
----  --------------------------  -------  -------
N1    FUNCTION compute                  1  0
N2    PARALLEL regions.c (14-27)        2  0,1
N3    LOOP regions.c (17-20)            4  0,1
N4    CRITICAL regions.c (21-23)        4  0,1
N5    MASTER regions.c (24-25)          2  0
N6    FUNCTION norm                     3  0

-- Edges (count x (threads); cycles between the two events, summed)
From   To  Label     Cycles
-----  --  --------  ------
START  N1  1x (0)         0
START  N2  1x (1)         0
N1     N2  1x (0)       300
N2     N3  1x (0,1)     230
N3     N4  2x (0,1)   7,870
N4     N3  1x (1)       820
N4     N5  2x (0)       780
N5     N6  2x (0)        80
N6     N3  1x (0)       270
N6     N6  1x (0)     1,200
TXT
run "$report" events threads.xml --components=region
expect_rc 0 "events threads.xml --components=region"
expect_output "$tmp/region.txt" "--components=region: merged nodes, summed weights, a self loop"
# The call path in the label: norm() under the master and at the top.
run "$report" events threads.xml --components=callsite,region --format=dot
expect_line '  n6 [label="FUNCTION norm\nin MASTER regions.c (24-25)"];'
expect_line '  n7 [label="FUNCTION norm\nin program"];'
expect_line '  n6 -> n7 [label="1x (0)"];'
check_dot "threads.xml region,callsite"
# The threads alone: one node each, every transition a self loop.
run "$report" events threads.xml --components=thread --format=dot
expect_line '  n1 [label="thread 0"];'
expect_line '  n1 -> n1 [label="10x (0)"];'
expect_line '  n2 -> n2 [label="4x (1)"];'
# Merged with a document that has more than one thread: rank:thread contributors.
run "$report" events threads.xml fig3-1.xml --format=dot
expect_rc 0 "threads.xml (position 0) with fig3-1.xml (rank 1)"
expect_line '  start -> n2 [label="1x (0:1)"];'
expect_line '  n2 -> n3 [label="1x (0:0,1)"];'
expect_line '  start -> n8 [label="1x (1:0)"];'
expect_line '  n11 -> n11 [label="9x (1:0)"];'
check_dot "rank:thread"

# --- 3. sizes: exact, or by power-of-two magnitude (80 B and 96 B: 64-127 B);
# ranks by position; one pair of nodes with two counts: parallel edges
run "$report" events size-0.xml size-1.xml
expect_rc 0 "events size-*.xml"
n=$(nodes); [ "$n" -eq 4 ] && ok "exact sizes: 4 nodes" || bad "exact sizes: $n nodes"
expect_line "   1        1  position   size-1.xml"
expect_line "N2    MPI_Send 80 B (+1) @ fig3.c:8        3  0"
expect_line "N4    MPI_Send 96 B (+1) @ fig3.c:8        5  1"
cat >"$tmp/magnitude.dot" <<'DOT'
digraph events {
  graph [fontname="Helvetica", fontsize=10, labelloc="t", label="merged event flow graph of fig3, 2 processes (ranks 0,1)\ncomponents: region callsite size partner (sizes by magnitude); edges: count x (ranks)"];
  node [shape=box, style=rounded, fontname="Helvetica", fontsize=10];
  edge [fontname="Helvetica", fontsize=9];
  start [shape=circle, label="START"];
  n1 [label="MPI_Init\n@ fig3.c:3"];
  n2 [label="MPI_Send 64-127 B (+1)\n@ fig3.c:8"];
  n3 [label="MPI_Finalize\n@ fig3.c:11"];
  start -> n1 [label="1x (0,1)"];
  n1 -> n2 [label="1x (0,1)"];
  n2 -> n2 [label="4x (1)"];
  n2 -> n2 [label="2x (0)"];
  n2 -> n3 [label="1x (0,1)"];
}
DOT
run "$report" events size-0.xml size-1.xml --size=magnitude --format=dot
expect_rc 0 "--size=magnitude"
expect_output "$tmp/magnitude.dot" "--size=magnitude: 80 B and 96 B are 64-127 B"
check_dot "--size=magnitude"
run "$report" events size-0.xml size-1.xml --size=magnitude
expect_line "Sizes:            by magnitude (power-of-two buckets)"
expect_line "N2     N2  4x (1)       120"
expect_line "N2     N2  2x (0)        60"
# Alone, a document without a rank is rank 0: size-1.xml's partner 2 is +2.
run "$report" events size-1.xml --format=dot
expect_line '  n2 [label="MPI_Send 96 B (+2)\n@ fig3.c:8"];'

# --- --output writes the same text to a file
run "$report" events $fig3 --format=dot --output="$tmp/written.dot"
expect_rc 0 "events --output"
[ -s "$tmp/out" ] && bad "--output also wrote to stdout"
if cmp -s "$tmp/written.dot" "$tmp/fig3.dot"; then ok "--output file"; else bad "--output file differs"; fi

# --- 5. svg: with Graphviz (when installed), with a stand-in 'dot', without 'dot'
if [ $have_dot = yes ]; then
  run "$report" events $fig3 --format=svg
  expect_rc 0 "events --format=svg"
  if grep -q '<svg' "$tmp/out" && grep -q '>MPI_Send 80 B (&#45;1)<' "$tmp/out" && grep -q '>9x (1,3)<' "$tmp/out"
  then ok "svg has the nodes and edges"; else bad "svg"; fi
  if command -v xmllint >/dev/null; then
    if xmllint --noout --nonet "$tmp/out" 2>/dev/null; then ok "svg is well-formed"; else bad "svg is not well-formed"; fi
  fi
fi
mkdir "$tmp/bin" "$tmp/nodot"
cat >"$tmp/bin/dot" <<'SH'
#!/bin/sh
# A stand-in for Graphviz: the DOT text in an <svg>.
[ "$1" = "-Tsvg" ] || { echo "stand-in dot: expected -Tsvg, got $1" >&2; exit 9; }
printf '<svg xmlns="http://www.w3.org/2000/svg"><!--\n'
/bin/cat "$2"
printf -- '--></svg>\n'
SH
chmod +x "$tmp/bin/dot"
PATH="$tmp/bin" run "$report" events $fig3 --format=svg --output="$tmp/fig3.svg"
expect_rc 0 "svg through the stand-in dot"
{ printf '<svg xmlns="http://www.w3.org/2000/svg"><!--\n'; cat "$tmp/fig3.dot"; printf -- '--></svg>\n'; } >"$tmp/expected.svg"
if cmp -s "$tmp/fig3.svg" "$tmp/expected.svg"; then ok "the DOT text went through dot -Tsvg"; else bad "svg through the stand-in"; fi
PATH="$tmp/nodot" run "$report" events $fig3 --format=svg
expect_error "no dot" "^ompsim-report: --format=svg needs Graphviz's 'dot' program, which is not installed"

# --- 'merge' is IPM's merge step by name: the same graph as 'events' with
# several documents, in every format; one document is an error (section 4)
for f in text dot; do
  "$report" events $fig3 --format=$f >"$tmp/events.$f" 2>&1
  run "$report" merge $fig3 --format=$f
  if [ "$rc" -eq 0 ] && cmp -s "$tmp/out" "$tmp/events.$f"; then ok "merge = events ($f)"
  else bad "merge differs from events ($f), exit $rc"; fi
done

# --- 4. errors: one line, exit 2, nothing on stdout
run "$report" merge fig3-0.xml
expect_error "merge of one" "^ompsim-report: merge: 1 document given; merging needs one per process, at least two \\('ompsim-report events FILE' draws one process's graph\\)$"
run "$report" events $fig3 --components=region,sequence
expect_error "unknown component" "^ompsim-report: --components: unknown component 'sequence' \(the components are region, callsite, size, partner, thread\)$"
run "$report" events threads.xml fig3-1.xml --components=region,thread
expect_error "component not recorded" "^ompsim-report: --components: fig3-1\.xml did not record the component 'thread' \(it recorded region callsite size partner\)$"
run "$report" events fig3-0.xml "$srcdir/tests/sir/regions.xml"
expect_error "no event flow" "^ompsim-report: .*/tests/sir/regions\.xml has no event flow graph \(run with region events and --event-flow other than no\)$"
run "$report" events fig3-0.xml fig3-1.xml fig3-0.xml
expect_error "duplicate rank" "^ompsim-report: fig3-0\.xml and fig3-0\.xml are both rank 0 \(fig3-0\.xml by its rank attribute, fig3-0\.xml by its rank attribute\); give one document per rank$"
run "$report" events size-0.xml size-1.xml fig3-1.xml
expect_error "rank attribute = position" "^ompsim-report: size-1\.xml and fig3-1\.xml are both rank 1 \(size-1\.xml by its position among the arguments, fig3-1\.xml by its rank attribute\); give one document per rank$"
run "$report" events $fig3 --format=png
expect_error "bad --format" '^ompsim-report: --format: png not in \{text,dot,svg\}'
run "$report" events $fig3 --size=rough
expect_error "bad --size" '^ompsim-report: --size: rough not in \{exact,magnitude\}'
run "$report" events fig3-0.xml "$tmp/missing.xml"
expect_error "unreadable file" "^ompsim-report: .*/missing\.xml: cannot open"
run "$report" events $fig3 --output=/nonexistent/dir/f.txt
expect_error "unwritable --output" '^ompsim-report: cannot write /nonexistent/dir/f\.txt: '
# An invalid event flow (an edge of count 0): the reader's FILE:LINE: message.
sed 's|<edge from="S3" to="S4" thread="0" count="1"|<edge from="S3" to="S4" thread="0" count="0"|' fig3-0.xml >"$tmp/bad.xml"
run "$report" events "$tmp/bad.xml"
expect_error "invalid event flow" "^ompsim-report: .*/bad\.xml:[0-9]+: "
run "$report" events
expect_error "no document" "^ompsim-report: FILE is required"
run "$report" events --help
if [ "$rc" -eq 0 ] && grep -q -- '--components' "$tmp/out" && grep -q -- '--size' "$tmp/out"; then ok "events --help"
else bad "events --help: exit $rc"; fi
exit $status
