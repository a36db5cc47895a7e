#!/bin/sh
# html.sh REPORT SRCDIR RUNNER OMP_PROG SINGLE_PROG ARTIFACTS: 'ompsim-report html'
# on the fixtures of tests/sir/ and on two fresh runs with --monitor=yes
# (OMP_PROG, examples/openmp/false_sharing, 4 threads with its OSPG log;
# SINGLE_PROG, tests/progs/heap_sites, with 8-bin histograms).
#
# (a) every page is generated (exit 0, nothing on stderr);
# (b) html_check.py parses it and compares it with the document read by
#     ElementTree: the sections and the number of <svg> charts the document
#     calls for, the tables' numbers equal to the document's, escaping, no
#     network resource (its docstring has the rules);
# (c) headless Chromium loads the two fresh pages and the classify
#     fixture's (the 3C and reuse charts) with a probe script injected
#     (html_check.py inject): no script error, every chart rendered
#     with a non-zero size, the page's sorting script works; and the OpenMP
#     page unmodified for a screenshot (ARTIFACTS/html-omp.png, with the page
#     as html-omp.html), where no console message may appear. Exit 77
#     (skipped) without chromium.
# Errors: an unreadable or invalid document and an unwritable output give
# one line and exit 2.
report=$1 srcdir=$2 runner=$3 omp_prog=$4 single_prog=$5 artifacts=$6
. "$(dirname "$0")/lib.sh"
check=$(dirname "$0")/html_check.py
py=${PYTHON3:-python3}
fixtures=$srcdir/tests/sir
if command -v dot >/dev/null 2>&1; then dot=--dot=yes; else dot=--dot=no; fi

page() {  # NAME DOC [OPTIONS...]: $tmp/NAME.html, checked by html_check.py
  _name=$1 _doc=$2
  shift 2
  run "$report" html "$_doc" -o "$tmp/$_name.html" "$@"
  if [ "$rc" -ne 0 ] || [ -s "$tmp/err" ]; then bad "html $_name: exit $rc: $(cat "$tmp/err")"; return; fi
  if "$py" "$check" check "$tmp/$_name.html" "$_doc" $dot >"$tmp/check" 2>&1; then ok "html $_name: $(grep -c '^ok' "$tmp/check") checks"
  else bad "html $_name:"; grep -v '^ok' "$tmp/check"; fi
}

# --- (a), (b): the fixtures
for f in minimal structures multicore regions parallelism prefetch-tlb eventflow classify; do
  page "$f" "$fixtures/$f.xml"
done
# Without Graphviz the flow graph is a table.
if [ "$dot" = --dot=yes ]; then
  run env PATH=/nonexistent "$report" html "$fixtures/regions.xml" -o "$tmp/nodot.html"
  if [ "$rc" -eq 0 ] && "$py" "$check" check "$tmp/nodot.html" "$fixtures/regions.xml" --dot=no >"$tmp/check" 2>&1
  then ok "html without dot: the flow table"; else bad "html without dot"; cat "$tmp/err"; grep -v '^ok' "$tmp/check"; fi
fi

# --- fresh runs
OMP_NUM_THREADS=4 "$runner" --monitor=yes --histogram-bins=8 --ospg-log="$tmp/omp.ospg" \
  --output-file="$tmp/omp.xml" -q "$omp_prog" >/dev/null 2>"$tmp/omp.err" || { bad "the OpenMP run failed"; cat "$tmp/omp.err"; }
"$runner" --monitor=yes --histogram-bins=8 --output-file="$tmp/single.xml" -q "$single_prog" >/dev/null 2>"$tmp/single.err" ||
  { bad "the single-threaded run failed"; cat "$tmp/single.err"; }
page omp "$tmp/omp.xml" --ospg-log="$tmp/omp.ospg"
page single "$tmp/single.xml"
# The what-if table comes from the log: false_sharing's one parallel loop.
if grep -q 'id="tab-whatif"' "$tmp/omp.html"; then ok "omp: what-if table from the OSPG log"; else bad "omp: no what-if table"; fi
if grep -q 'id="tab-threads"' "$tmp/omp.html" && ! grep -q 'id="tab-threads"' "$tmp/single.html"; then
  ok "threads only for the OpenMP run"; else bad "threads section"; fi

# --- errors
run "$report" html "$tmp/none.xml" -o "$tmp/x.html"
expect_error "missing document" "^ompsim-report: .*none\.xml"
printf '<ompsim-profile format-version="1">' >"$tmp/bad.xml"
run "$report" html "$tmp/bad.xml" -o "$tmp/x.html"
expect_error "invalid document" "^ompsim-report: .*bad\.xml:[0-9]+: "
run "$report" html "$fixtures/minimal.xml" -o "$tmp/no/such/dir/x.html"
expect_error "unwritable output" "^ompsim-report: cannot write .*x\.html"
run "$report" html "$fixtures/minimal.xml" --top=0
expect_error "--top=0" "^ompsim-report: --top"

# --- (c) Chromium
chrome=$(command -v chromium || command -v chromium-browser)
if [ -z "$chrome" ]; then
  echo "chromium is not installed: the browser checks are skipped"
  [ "$status" -eq 0 ] && exit 77
  exit "$status"
fi
browse() {  # OUTFILE ARGS...: headless Chromium with a profile of its own
  _out=$1
  shift
  timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions \
    --user-data-dir="$tmp/chrome" --enable-logging=stderr --v=0 "$@" >"$_out" 2>"$_out.err"
}
for name in omp single classify; do  # classify: the 3C and reuse charts
  "$py" "$check" inject "$tmp/$name.html" "$tmp/$name.probe.html"
  browse "$tmp/$name.dom" --dump-dom "file://$tmp/$name.probe.html"
  if "$py" "$check" dom "$tmp/$name.dom" "$tmp/$name.html" >"$tmp/check" 2>&1; then
    ok "chromium $name: $(grep '^ok' "$tmp/check" | tr '\n' ' ')"
  else bad "chromium $name:"; cat "$tmp/check"; tail -5 "$tmp/$name.dom.err"; fi
done
mkdir -p "$artifacts"
for name in omp; do
  rm -f "$artifacts/html-$name.png"
  browse "$tmp/$name.shot" --hide-scrollbars --window-size=1200,3000 --screenshot="$artifacts/html-$name.png" \
    "file://$tmp/$name.html"
  if [ -s "$artifacts/html-$name.png" ]; then ok "screenshot $artifacts/html-$name.png"; else bad "no screenshot of $name"; fi
  if grep -q 'CONSOLE' "$tmp/$name.shot.err"; then bad "console messages on $name:"; grep 'CONSOLE' "$tmp/$name.shot.err"
  else ok "$name: no console message"; fi
done
cp "$tmp/omp.html" "$artifacts/html-omp.html"
exit $status
