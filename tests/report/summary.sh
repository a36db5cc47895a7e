#!/bin/sh
# summary.sh REPORT_BINARY SRCDIR: 'ompsim-report summary' on the fixture
# tests/sir/minimal.xml prints the run, the machine, the program totals with
# the exact numbers (the labels Valgrind users compare by eye), the cache
# levels and the hot spots; numbers get thousands separators.
report=$1 srcdir=$2
fixture=$srcdir/tests/sir/minimal.xml
. "$(dirname "$0")/lib.sh"
expect_line() {  # the exact line in stdout
  if grep -qxF -- "$1" "$tmp/out"; then ok "line '$1'"; else bad "no line '$1'"; fi
}
expect_text() {  # a part of a line in stdout
  if grep -qF -- "$1" "$tmp/out"; then ok "text '$1'"; else bad "no text '$1'"; fi
}

run "$report" summary "$fixture"
expect_rc 0 "summary minimal.xml"
[ -s "$tmp/err" ] && bad "summary wrote to stderr: $(cat "$tmp/err")"
expect_line "Instructions:     30"
expect_line "Data reads:       10"
expect_line "Data writes:      5"
expect_line "Cycles:           282"
expect_line "Memory reads:     4"
expect_text "/tmp/a.out 1 'x&y'"
expect_line "Name:             teaching"
expect_text "complete: exit status 0"
# Machine rows: name, level, side, size, assoc, line, sets.
if grep -Eq '^L2 +2 +unified +64 KiB +8 +64 +128 +lru +write-back +non-inclusive +12$' "$tmp/out"
then ok "L2 machine row"; else bad "no L2 machine row"; fi
# Cache levels: D1 read misses 3 of 10; kinds without refs are left out.
if grep -Eq '^D1 +1 +read +10 +3 +30\.00%$' "$tmp/out"; then ok "D1 read miss rate"; else bad "no D1 read row"; fi
if grep -Eq '^I1 +1 +(read|write|writeback) ' "$tmp/out"; then bad "I1 kinds without refs shown"; else ok "no zero-ref kinds"; fi
# Hot spots by Cycles: main, then line 3 (262 cycles) before line 7 (20).
if grep -Eq '^ *282 +100\.0% +30 +3 +1 +/src/a\.c:main$' "$tmp/out"; then ok "hottest function"; else bad "no hottest function row"; fi
l3=$(grep -n '/src/a.c:3 (main)' "$tmp/out" | cut -d: -f1)
l7=$(grep -n '/src/a.c:7 (main)' "$tmp/out" | cut -d: -f1)
if [ -n "$l3" ] && [ -n "$l7" ] && [ "$l3" -lt "$l7" ]; then ok "hottest lines in order"; else bad "hottest lines: 3 at '$l3', 7 at '$l7'"; fi

# Thousands separators: 1,234,567 instructions (line 3 gets the difference;
# totals and region stay the sums of the lines).
sed -e 's|<costs>30 2 1 10 3 2 5 1 1 282</costs>|<costs>1234567 2 1 10 3 2 5 1 1 282</costs>|' \
    -e 's|<line number="3">10 |<line number="3">1234547 |' "$fixture" >"$tmp/big.xml"
run "$report" summary "$tmp/big.xml"
expect_rc 0 "summary big.xml"
expect_line "Instructions:     1,234,567"

run "$report" summary --help
expect_rc 0 "summary --help"
expect_text "FILE"

exit $status
