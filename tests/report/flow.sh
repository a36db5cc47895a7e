#!/bin/sh
# flow.sh REPORT_BINARY SRCDIR: 'ompsim-report flow' on the fixture
# tests/sir/regions.xml (see regions.sh for its regions). The DOT text has
# one box per call-graph node (8), a dotted edge from each parent to its
# child (7) and a solid edge per predecessor (9), labelled with the threads
# and counts: the loop (node 3) is entered from the parallel region by both
# threads once ("0-1|2"), then from the critical by thread 1 ("1|1") and from
# the master by thread 0 ("0|1") -- the threads diverge at the master.
# Exclusive cycles colour the boxes, white 0 to red for the largest (the
# loop's 7,870): the critical's 2,370 is 255 - round(255 * 2370 / 7870) =
# 178 = #ffb2b2. When Graphviz is installed, 'dot' must accept every graph;
# --format=svg is also checked with a stand-in 'dot' (and without one).
report=$1 srcdir=$2
fixture=$srcdir/tests/sir/regions.xml
. "$(dirname "$0")/lib.sh"
expect_line() {  # the exact line in stdout (printf: dash's echo would expand the \n of labels)
  if grep -qxF -- "$1" "$tmp/out"; then printf "ok: line '%s'\n" "$1"; else printf "FAIL: no line '%s'\n" "$1"; status=1; fi
}
count() { grep -c -- "$1" "$tmp/out"; }
have_dot=no
command -v dot >/dev/null 2>&1 && have_dot=yes
check_dot() {  # WHAT: Graphviz reads stdout (when installed)
  if [ $have_dot = yes ]; then
    if dot -Tsvg "$tmp/out" >/dev/null 2>"$tmp/dot.err"; then ok "$1: dot accepts it"
    else bad "$1: dot refuses it: $(cat "$tmp/dot.err")"; fi
  fi
}

# --- the whole graph
run "$report" flow "$fixture"
expect_rc 0 "flow regions.xml"
[ -s "$tmp/err" ] && bad "flow wrote to stderr: $(cat "$tmp/err")"
cp "$tmp/out" "$tmp/full.dot"
expect_line "digraph flow {"
expect_line '  n0 [label="regions\n2 threads\n3,280 cycles", fillcolor="#ff9595"];'
expect_line '  n3 [label="R00003 LOOP\nregions.c (17-20)\n7,870 cycles", fillcolor="#ff0000"];'
expect_line '  n4 [label="R00004 CRITICAL\nregions.c (21-23)\n2,370 cycles", fillcolor="#ffb2b2"];'
expect_line "  n6 [label=\"R00006 FUNCTION\\nregions.c (6-10) ('norm')\\n250 cycles\", fillcolor=\"#fff7f7\"];"
expect_line '  n2 -> n3 [label="0-1|2"];'
expect_line '  n4 -> n3 [label="1|1", constraint=false];'
expect_line '  n5 -> n3 [label="0|1", constraint=false];'
expect_line '  n3 -> n4 [label="0-1|4", constraint=false];'
expect_line '  n1 -> n2 [style=dotted];'
expect_line "}"
n=$(count ' \[label="R0\| n0 \[label'); [ "$n" -eq 8 ] && ok "8 nodes" || bad "$n nodes"
n=$(count 'style=dotted'); [ "$n" -eq 7 ] && ok "7 call edges" || bad "$n call edges"
n=$(grep -- '-> n' "$tmp/out" | grep -vc dotted); [ "$n" -eq 9 ] && ok "9 flow edges" || bad "$n flow edges"
check_dot "the whole graph"

# --- one layer: the parallel region (^: it has a parent) and its children
# (+: the master has a child of its own); by node id or region id
cat >"$tmp/layer2.dot" <<'DOT'
digraph flow {
  graph [fontname="Helvetica", fontsize=10, labelloc="t", label="layer of node 2 (R00002 PARALLEL) and its children; (^): has a parent, (+): has children\nsolid: control flow (threads|times), dotted: parent to child; fill: exclusive cycles summed over the threads, white 0 to red 7,870"];
  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10];
  edge [fontname="Helvetica", fontsize=9];
  n2 [label="R00002 (^) PARALLEL\nregions.c (14-27)\n560 cycles", fillcolor="#ffeded"];
  n3 [label="R00003 LOOP\nregions.c (17-20)\n7,870 cycles", fillcolor="#ff0000"];
  n4 [label="R00004 CRITICAL\nregions.c (21-23)\n2,370 cycles", fillcolor="#ffb2b2"];
  n5 [label="R00005 (+) MASTER\nregions.c (24-25)\n330 cycles", fillcolor="#fff4f4"];
  n2 -> n3 [style=dotted];
  n2 -> n3 [label="0-1|2"];
  n4 -> n3 [label="1|1", constraint=false];
  n5 -> n3 [label="0|1", constraint=false];
  n2 -> n4 [style=dotted];
  n3 -> n4 [label="0-1|4", constraint=false];
  n2 -> n5 [style=dotted];
  n4 -> n5 [label="0|2", constraint=false];
}
DOT
for layer in 2 R00002 R2; do
  run "$report" flow "$fixture" --layer="$layer"
  expect_rc 0 "flow --layer=$layer"
  expect_output "$tmp/layer2.dot" "--layer=$layer is the parallel region's layer"
done
check_dot "--layer=2"
# The root's layer: the colours scale to its own largest node (the root's 3,280).
run "$report" flow "$fixture" --layer=0
expect_line '  n0 [label="regions\n2 threads\n3,280 cycles", fillcolor="#ff0000"];'
expect_line "  n1 [label=\"R00001 (+) FUNCTION\\nregions.c (12-29) ('compute')\\n300 cycles\", fillcolor=\"#ffe8e8\"];"
expect_line '  n1 -> n7 [label="0|1", constraint=false];'
n=$(count '^  n[0-9]* \[label'); [ "$n" -eq 3 ] && ok "layer 0 has 3 nodes" || bad "layer 0 has $n nodes"
check_dot "--layer=0"
# A leaf: the node alone. R00006 is its first node, 6.
run "$report" flow "$fixture" --layer=R6
expect_rc 0 "flow --layer=R6"
expect_line "  n6 [label=\"R00006 (^) FUNCTION\\nregions.c (6-10) ('norm')\\n250 cycles\", fillcolor=\"#ff0000\"];"
n=$(count -- '->'); [ "$n" -eq 0 ] && ok "a leaf's layer has no edges" || bad "a leaf's layer has $n edges"
check_dot "--layer=R6"

# --- --output writes the same text to a file
run "$report" flow "$fixture" --layer=2 --output="$tmp/written.dot"
expect_rc 0 "flow --output"
[ -s "$tmp/out" ] && bad "--output also wrote to stdout"
if cmp -s "$tmp/written.dot" "$tmp/layer2.dot"; then ok "--output file"; else bad "--output file differs"; fi

# --- svg: with Graphviz (when installed), with a stand-in 'dot', without 'dot'
if [ $have_dot = yes ]; then
  run "$report" flow "$fixture" --format=svg
  expect_rc 0 "flow --format=svg"
  if grep -q '<svg' "$tmp/out" && grep -q '>R00004 CRITICAL<' "$tmp/out"; then ok "svg has the boxes"; else bad "svg"; fi
  if command -v xmllint >/dev/null; then
    if xmllint --noout --nonet "$tmp/out" 2>/dev/null; then ok "svg is well-formed"; else bad "svg is not well-formed"; fi
  fi
fi
mkdir "$tmp/bin" "$tmp/nodot"
cat >"$tmp/bin/dot" <<'SH'
#!/bin/sh
# A stand-in for Graphviz: the arguments, then the DOT text, in an <svg>.
[ "$1" = "-Tsvg" ] || { echo "stand-in dot: expected -Tsvg, got $1" >&2; exit 9; }
case "$(/bin/cat "$2")" in *BROKEN*) echo "Error: syntax error in line 1" >&2; echo "more" >&2; exit 3;; esac
printf '<svg xmlns="http://www.w3.org/2000/svg"><!--\n'
/bin/cat "$2"
printf -- '--></svg>\n'
SH
chmod +x "$tmp/bin/dot"
PATH="$tmp/bin" run "$report" flow "$fixture" --format=svg --layer=2 --output="$tmp/layer2.svg"
expect_rc 0 "svg through the stand-in dot"
{ printf '<svg xmlns="http://www.w3.org/2000/svg"><!--\n'; cat "$tmp/layer2.dot"; printf -- '--></svg>\n'; } >"$tmp/expected.svg"
if cmp -s "$tmp/layer2.svg" "$tmp/expected.svg"; then ok "the DOT text went through dot -Tsvg"; else bad "svg through the stand-in"; fi
sed 's|name="compute"/>|name="BROKEN"/>|' "$fixture" >"$tmp/broken.xml"
PATH="$tmp/bin" run "$report" flow "$tmp/broken.xml" --format=svg --output="$tmp/broken.svg"
expect_error "dot fails" "^ompsim-report: .*/dot -Tsvg failed \(exit status 3\): Error: syntax error in line 1$"
[ -e "$tmp/broken.svg" ] && bad "a failed svg was written"
PATH="$tmp/nodot" run "$report" flow "$fixture" --format=svg
expect_error "no dot" "^ompsim-report: --format=svg needs Graphviz's 'dot' program, which is not installed"

# --- errors: one line, exit 2, nothing on stdout
run "$report" flow "$fixture" --layer=8
expect_error "unknown node" "^ompsim-report: --layer 8: no call-graph node 8 \(the nodes are 0 to 7; "
run "$report" flow "$fixture" --layer=R00007
expect_error "unknown region" '^ompsim-report: --layer R00007: no region R00007 \(the regions are R00001 to R00006\)$'
run "$report" flow "$fixture" --layer=main
expect_error "bad --layer" "^ompsim-report: --layer must be a call-graph node id \(0, 1, \.\.\.\) or a region id \(R00001, \.\.\.\), not 'main'$"
run "$report" flow "$fixture" --layer=
expect_error "empty --layer" '^ompsim-report: --layer'
run "$report" flow "$fixture" --format=png
expect_error "bad --format" '^ompsim-report: --format: png not in \{dot,svg\}'
run "$report" flow "$fixture" --output=/nonexistent/dir/f.dot
expect_error "unwritable --output" '^ompsim-report: cannot write /nonexistent/dir/f\.dot: '
run "$report" flow "$srcdir/tests/sir/multicore.xml"
expect_error "no region profile" '^ompsim-report: .*multicore\.xml: no region profile \(run the program under ompsim'
run "$report" flow "$srcdir/tests/sir/bad/rp-pred-order.xml"
expect_error "invalid profile" '^ompsim-report: .*rp-pred-order\.xml:95: <pred>: '
run "$report" flow --help
if [ "$rc" -eq 0 ] && grep -q -- '--layer' "$tmp/out"; then ok "flow --help"; else bad "flow --help: exit $rc"; fi
exit $status
