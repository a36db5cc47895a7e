#!/bin/sh
# annotate.sh REPORT_BINARY SRCDIR: 'ompsim-report annotate' of the fixture
# tests/sir/minimal.xml. The function table sorted by the first shown event;
# with --source a readable file printed around its costly lines (4 lines of
# context, "-- line N" before a part that does not start the file, blank
# prefix for lines without costs) and a one-line note for an unreadable one.
report=$1 srcdir=$2
fixture=$srcdir/tests/sir/minimal.xml
. "$(dirname "$0")/lib.sh"

run "$report" annotate "$fixture"
expect_rc 0 "annotate"
expect_match '^30 \(100\.0%\) .*282 \(100\.0%\)  PROGRAM TOTALS$' "totals row"
expect_match '^30 \(100\.0%\) .*  /src/a\.c:main$' "function row"
expect_no_match 'Annotated source' "no source without --source"

# The source: the fixture's file moved to a 20-line file of ours, its line 7
# moved to line 17 so that lines 8-12 fall outside the context.
seq 1 20 | sed 's/^/source line /' >"$tmp/a.c"
sed -e "s|path=\"/src/a.c\"|path=\"$tmp/a.c\"|" -e 's|last-line="7"|last-line="17"|' \
    -e 's|<line number="7">|<line number="17">|' "$fixture" >"$tmp/moved.xml"
run "$report" annotate "$tmp/moved.xml" --source --show Cycles,Ir,D1mr
expect_rc 0 "annotate --source --show Cycles,Ir,D1mr"
expect_match '^Event sort order: Cycles$' "sorted by the first shown event"
expect_match "^-- Annotated source file: $tmp/a.c\$" "file heading"
expect_match '^ +262 +10 +\.  source line 3$' "line 3 with its costs ('.' for zero)"
expect_match '^ +20 +20 +3  source line 17$' "line 17 with its costs"
expect_match '^ +source line 1$' "context line 1 without costs"
expect_match '^ +source line 7$' "context line 7 (3 + 4)"
expect_no_match 'source line (8|9|10|11|12)$' "lines 8-12 left out"
expect_match '^-- line 13 -+$' "'-- line 13' marker"
expect_match '^ +source line 20$' "context line 20"

run "$report" annotate "$fixture" --source
expect_rc 0 "annotate --source of an unreadable file"
expect_match '^-- Source file not readable: /src/a\.c \(' "one-line note for /src/a.c"

# Two functions: line 7 becomes a function 'aux' of its own (regions
# sorted by name, each the sum of its lines; the totals do not change).
python3 - "$fixture" "$tmp/two.xml" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
old = re.search(r'( *)<region type="function" name="main".*?</region>\n', text, re.S)
ind = old.group(1)
aux = (ind + '<region type="function" name="aux" first-line="7" last-line="7">\n'
       + ind + '  <costs>20 1 0 10 3 2 0 0 0 20</costs>\n'
       + ind + '  <line number="7">20 1 0 10 3 2 0 0 0 20</line>\n' + ind + '</region>\n')
main = (ind + '<region type="function" name="main" first-line="3" last-line="3">\n'
        + ind + '  <costs>10 1 1 0 0 0 5 1 1 262</costs>\n'
        + ind + '  <line number="3">10 1 1 0 0 0 5 1 1 262</line>\n' + ind + '</region>\n')
open(sys.argv[2], "w").write(text[:old.start()] + aux + main + text[old.end():])
PY
run "$report" annotate "$tmp/two.xml" --show Ir
expect_rc 0 "annotate of two functions"
a=$(grep -n '/src/a\.c:aux$' "$tmp/out" | cut -d: -f1)
m=$(grep -n '/src/a\.c:main$' "$tmp/out" | cut -d: -f1)
if [ -n "$a" ] && [ -n "$m" ] && [ "$a" -lt "$m" ]; then ok "sorted by Ir: aux (20) before main (10)"; else bad "order aux '$a' main '$m'"; cat "$tmp/out"; fi
run "$report" annotate "$tmp/two.xml" --show Cycles --threshold 10
expect_rc 0 "annotate --show Cycles --threshold 10"
expect_match '/src/a\.c:main$' "main (92.9% of Cycles) listed"
expect_no_match '/src/a\.c:aux$' "aux (7.1% of Cycles) hidden"

run "$report" annotate "$fixture" --show Ir,Bogus
expect_rc 2 "unknown event in --show"
if grep -q "^ompsim-report: unknown event 'Bogus'.*known events: Ir" "$tmp/err"; then ok "message lists the events"; else bad "message: $(cat "$tmp/err")"; fi

exit $status
