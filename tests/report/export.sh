#!/bin/sh
# export.sh REPORT_BINARY SRCDIR: 'ompsim-report export' of the fixture
# tests/sir/minimal.xml. json parses and holds the totals, the machine and
# the lines (and the data structures of tests/sir/structures.xml, null for
# minimal.xml); csv is a header and one record per source line (2 for the
# fixture) with RFC 4180 quoting; callgrind is read by callgrind_annotate,
# which shows the function main; -o writes a file.
report=$1 srcdir=$2
fixture=$srcdir/tests/sir/minimal.xml
. "$(dirname "$0")/lib.sh"

# --- json
run "$report" export "$fixture" --format=json
expect_rc 0 "export json"
if python3 -m json.tool "$tmp/out" >/dev/null; then ok "json parses"; else bad "json does not parse"; fi
if python3 - "$tmp/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("run", "machine", "events", "totals", "cache_stats", "memory", "files"):
    assert k in d, k
t = d["totals"]
assert list(t) == d["events"], list(t)
assert t["Ir"] == 30 and t["Dr"] == 10 and t["Dw"] == 5 and t["D1mr"] == 3 and t["Cycles"] == 282, t
assert d["run"]["exe"] == "/tmp/a.out" and d["run"]["args"] == ["1", "x&y"], d["run"]
assert [c["name"] for c in d["machine"]["caches"]] == ["I1", "D1", "L2"]
assert d["cache_stats"][1]["name"] == "D1" and d["cache_stats"][1]["read_misses"] == 3, d["cache_stats"][1]
assert d["memory"] == {"reads": 4, "writes": 0}, d["memory"]
r = d["files"][0]["regions"][0]
assert d["files"][0]["path"] == "/src/a.c" and r["name"] == "main" and r["type"] == "function"
assert (r["first_line"], r["last_line"]) == (3, 7)
assert r["costs"]["Ir"] == 30
assert [(l["number"], l["costs"]["Cycles"]) for l in r["lines"]] == [(3, 262), (7, 20)], r["lines"]
PY
then ok "json content (totals Ir=30 ... Cycles=282, lines 3 and 7)"; else bad "json content"; fi

# The data-structure section (tests/sir/structures.xml), null without one.
run "$report" export "$srcdir/tests/sir/structures.xml" --format=json
expect_rc 0 "export json with data structures"
if python3 - "$tmp/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ds = d["data_structures"]
assert ds["events"] == ["Dr", "D1mr", "D2mr", "Dw", "D1mw", "D2mw"], ds["events"]
assert (ds["mode"], ds["resolution"], ds["slots"]) == ("bins", 4, 0), ds
s = ds["structures"]
assert [x["name"] for x in s] == ["grid", "make_list", "table", "grid"], s
g = s[0]
assert (g["kind"], g["file"], g["line"], g["address"], g["size"], g["counted"], g["site"]) == \
    ("global", "/src/a.c", 2, "0x601000", 4096, True, None), g
assert g["costs"] == {"Dr": 100, "D1mr": 40, "D2mr": 10, "Dw": 50, "D1mw": 5, "D2mw": 1}, g["costs"]
assert [(t["id"], t["costs"]["Dr"]) for t in g["threads"]] == [(1, 60), (2, 40)], g["threads"]
h = g["histogram"]
assert h["bins"] == 4 and "bucket_bytes" not in h, h
assert [(b["index"], b["costs"]["D1mr"]) for b in h["entries"]] == [(0, 30), (2, 10), (3, 0)], h
assert s[1]["site"] == "make_list (/src/a.c:5) | main (/src/a.c:9)" and s[1]["bytes"] == 640, s[1]
assert s[2]["counted"] is False and s[2]["histogram"] is None and s[2]["threads"] == [], s[2]
PY
then ok "json data_structures"; else bad "json data_structures"; fi
run "$report" export "$fixture" --format=json
if python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["data_structures"] is None' "$tmp/out"
then ok "json data_structures is null without the section"; else bad "json data_structures without the section"; fi

# --- csv
run "$report" export "$fixture" --format=csv
expect_rc 0 "export csv"
if [ "$(wc -l <"$tmp/out")" -eq 3 ]; then ok "csv: header + 2 records"; else bad "csv has $(wc -l <"$tmp/out") lines"; cat "$tmp/out"; fi
if [ "$(sed -n 1p "$tmp/out")" = "file,function,line,Ir,I1mr,I2mr,Dr,D1mr,D2mr,Dw,D1mw,D2mw,Cycles" ]
then ok "csv header"; else bad "csv header: $(sed -n 1p "$tmp/out")"; fi
if [ "$(sed -n 2p "$tmp/out")" = "/src/a.c,main,3,10,1,1,0,0,0,5,1,1,262" ]
then ok "csv record of line 3"; else bad "csv record: $(sed -n 2p "$tmp/out")"; fi
# Quoting: a function name with a comma and double quotes.
sed 's|name="main"|name="f(a, \&quot;b\&quot;)"|' "$fixture" >"$tmp/quoted.xml"
run "$report" export "$tmp/quoted.xml" --format=csv
expect_rc 0 "export csv of a quoted name"
if python3 - "$tmp/out" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert len(rows) == 3 and all(len(r) == 13 for r in rows), rows
assert rows[1][1] == 'f(a, "b")', rows[1]
PY
then ok "csv quoting read back by Python's csv"; else bad "csv quoting"; cat "$tmp/out"; fi

# --- callgrind
run "$report" export "$fixture" --format=callgrind -o "$tmp/callgrind.out"
expect_rc 0 "export callgrind -o"
if [ -s "$tmp/out" ]; then bad "-o also wrote to stdout"; else ok "-o: nothing on stdout"; fi
for l in "# callgrind format" "version: 1" "creator: ompsim-report" "positions: line" \
         "events: Ir I1mr I2mr Dr D1mr D2mr Dw D1mw D2mw Cycles" "fl=/src/a.c" "fn=main" \
         "3 10 1 1 0 0 0 5 1 1 262" "summary: 30 2 1 10 3 2 5 1 1 282" "totals: 30 2 1 10 3 2 5 1 1 282"; do
  if grep -qxF -- "$l" "$tmp/callgrind.out"; then ok "callgrind line '$l'"; else bad "callgrind lacks '$l'"; fi
done
if command -v callgrind_annotate >/dev/null 2>&1; then
  callgrind_annotate "$tmp/callgrind.out" >"$tmp/ca" 2>&1
  rc=$?
  expect_rc 0 "callgrind_annotate"
  if grep -Eq '^ *30 .*a\.c:main' "$tmp/ca"; then ok "callgrind_annotate shows main with Ir 30"
  else bad "callgrind_annotate output lacks main"; cat "$tmp/ca"; fi
else
  echo "skip: callgrind_annotate not installed"
fi

# --- errors
run "$report" export "$fixture"
expect_rc 2 "export without --format"
run "$report" export "$fixture" --format=xml
expect_rc 2 "export --format=xml"
run "$report" export "$fixture" --format=json -o "$tmp/no/such/dir/out.json"
expect_rc 2 "export -o into a missing directory"
if grep -q '^ompsim-report: cannot write' "$tmp/err"; then ok "cannot write message"; else bad "no cannot-write message"; cat "$tmp/err"; fi

exit $status
