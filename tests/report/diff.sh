#!/bin/sh
# diff.sh REPORT_BINARY SRCDIR: 'ompsim-report diff' on the fixture and a
# variant with one more D1 read miss (3 -> 4, +33.33%) and 12 more Cycles on
# line 7 (totals, region and line changed together: the reader checks sums).
# Exit 0 with loose limits, 1 with a tight one (LIMIT EXCEEDED line), 2 for
# errors; --format=json parses and says exceeded=true.
report=$1 srcdir=$2
fixture=$srcdir/tests/sir/minimal.xml
. "$(dirname "$0")/lib.sh"
expect_in() {  # FILE TEXT
  if grep -qF -- "$2" "$1"; then ok "$(basename "$1") has '$2'"; else bad "$(basename "$1") lacks '$2'"; cat "$1"; fi
}
one_error_line() {
  if [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q '^ompsim-report: ' "$tmp/err"
  then ok "$1: one error line: $(cat "$tmp/err")"; else bad "$1: stderr is not one 'ompsim-report:' line"; cat "$tmp/err"; fi
}

base=$tmp/base.xml new=$tmp/new.xml
cp "$fixture" "$base"
sed -e 's|<costs>30 2 1 10 3 2 5 1 1 282</costs>|<costs>30 2 1 10 4 2 5 1 1 294</costs>|g' \
    -e 's|<line number="7">20 1 0 10 3 2 0 0 0 20</line>|<line number="7">20 1 0 10 4 2 0 0 0 32</line>|' \
    "$fixture" >"$new"
if [ "$(grep -c '10 4 2' "$new")" -eq 3 ]; then ok "variant built"; else bad "sed did not change the fixture"; fi

run "$report" diff "$base" "$base"
expect_rc 0 "diff of a document with itself"
expect_in "$tmp/out" "(no function changed)"

run "$report" diff "$base" "$new"
expect_rc 0 "diff without limits"
if grep -Eq '^D1mr +3 +4 +\+1 +\+33\.33% +1\.333$' "$tmp/out"; then ok "D1mr row"; else bad "no D1mr row 3 4 +1 +33.33% 1.333"; cat "$tmp/out"; fi
if grep -Eq '^Ir +30 +30 +0 +0\.00% +1\.000$' "$tmp/out"; then ok "Ir row"; else bad "no unchanged Ir row"; fi
if grep -Eq '^ *282 +294 +\+12 +1\.043 +/src/a\.c:main$' "$tmp/out"; then ok "function change"; else bad "no function row for main"; fi

run "$report" diff "$base" "$new" --limit D1mr=50% --limit Ir=0 --limit Cycles=12
expect_rc 0 "loose limits (D1mr=50%, Ir=0, Cycles=12)"
if grep -q 'LIMIT EXCEEDED' "$tmp/out"; then bad "LIMIT EXCEEDED printed for loose limits"; else ok "no LIMIT EXCEEDED"; fi

run "$report" diff "$base" "$new" --limit D1mr=2%
expect_rc 1 "tight limit D1mr=2%"
expect_in "$tmp/out" "LIMIT EXCEEDED: D1mr +33.33% (limit 2%): 3 -> 4"

run "$report" diff "$base" "$new" --limit Cycles=11 --limit D1mr=40%
expect_rc 1 "absolute limit Cycles=11"
expect_in "$tmp/out" "LIMIT EXCEEDED: Cycles +12 (limit 11): 282 -> 294"
if grep -q 'LIMIT EXCEEDED: D1mr' "$tmp/out"; then bad "D1mr=40% reported"; else ok "D1mr=40% not exceeded"; fi

# Limits apply to increases only: NEW -> BASE is a decrease.
run "$report" diff "$new" "$base" --limit D1mr=0% --limit Cycles=0
expect_rc 0 "decreases never exceed"

run "$report" diff "$base" "$new" --limit D1mr=2% --format=json
expect_rc 1 "json with a tight limit"
if python3 -m json.tool "$tmp/out" >/dev/null; then ok "json parses"; else bad "json does not parse"; cat "$tmp/out"; fi
if python3 - "$tmp/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["exceeded"] is True, d["exceeded"]
assert set(d) >= {"base", "new", "events", "functions", "exceeded"}, list(d)
e = {x["name"]: x for x in d["events"]}
assert e["D1mr"]["base"] == 3 and e["D1mr"]["new"] == 4 and e["D1mr"]["change"] == 1, e["D1mr"]
assert e["D1mr"]["limit"] == "2%" and e["D1mr"]["exceeded"] is True, e["D1mr"]
assert e["Ir"]["exceeded"] is False and e["Ir"]["limit"] is None and e["Ir"]["factor"] == 1.0, e["Ir"]
f = d["functions"][0]
assert f["function"] == "main" and f["change"] == 12, f
PY
then ok "json content (exceeded=true, D1mr 3 -> 4)"; else bad "json content"; fi
expect_in "$tmp/err" "LIMIT EXCEEDED: D1mr"

# Errors: exit 2 and one line on stderr.
run "$report" diff "$base" "$tmp/missing.xml"
expect_rc 2 "missing NEW file"
one_error_line "missing file"
expect_in "$tmp/err" "missing.xml"

run "$report" diff "$base" "$new" --limit D9mr=2%
expect_rc 2 "unknown event in --limit"
one_error_line "unknown event"
expect_in "$tmp/err" "known events: Ir I1mr I2mr Dr D1mr D2mr Dw D1mw D2mw Cycles"

run "$report" diff "$base" "$new" --limit D1mr=lots
expect_rc 2 "malformed --limit"
one_error_line "malformed limit"

run "$report" diff "$base" "$new" --format=yaml
expect_rc 2 "bad --format"

# Another event list (Cachegrind names for the last level) is another machine.
sed -e 's|<events>Ir I1mr I2mr Dr D1mr D2mr Dw D1mw D2mw Cycles</events>|<events>Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw Cycles</events>|' \
    "$fixture" >"$tmp/other.xml"
run "$report" diff "$base" "$tmp/other.xml"
expect_rc 2 "different event lists"
expect_in "$tmp/err" "different machines"

run "$report" diff --help
expect_rc 0 "diff --help"
expect_in "$tmp/out" "Exit status"

exit $status
