#!/bin/sh
# prefetch_tlb.sh REPORT_BINARY SRCDIR: ompsim-report on a machine with
# hardware prefetchers and data TLBs, the fixture tests/sir/prefetch-tlb.xml
# (desktop-like, 3 levels; next-line + stride on D1, stream on L2, none on
# I1 and L3; DTLB1 64 entries 4-way, DTLB2 2048 entries 16-way, 4 KiB pages,
# page walks of 30 cycles). Its figures, derived by hand:
#   D1 issued 1000 prefetches, 750 useful, 200 polluting: accuracy 75.00%;
#   L2 issued 400, 100 useful, 250 polluting: accuracy 25.00%;
#   DTLB1 6000 look-ups (Dr + Dw = 4000 + 2000), 300 misses: 5.00%;
#   DTLB2 300 look-ups (the DTLB1 misses), 60 misses (page walks): 20.00%;
#   T1m 300 = 60 + 40 (main, lines 5 and 9) + 200 (copy, line 14), T2m 60 = 12 + 8 + 40.
# 'summary' shows the prefetchers and TLBs of the machine, the events T1m T2m,
# a prefetch table per cache and a TLB table; 'arrays' the columns Dpf T1m
# T2m; 'export' every figure (JSON keys and the CSV tables prefetch and tlbs);
# 'diff' compares two such documents; a document breaking a rule of these
# parts is refused with FILE:LINE (exit 2).
report=$1 srcdir=$2
fixture=$srcdir/tests/sir/prefetch-tlb.xml
. "$(dirname "$0")/lib.sh"
expect_line() {  # the exact line in stdout
  if grep -qxF -- "$1" "$tmp/out"; then ok "line '$1'"; else bad "no line '$1'"; fi
}
expect_no_line() {
  if grep -qF -- "$1" "$tmp/out"; then bad "unexpected '$1'"; else ok "no '$1'"; fi
}
line_of() { grep -nxF -- "$1" "$tmp/out" | head -n 1 | cut -d: -f1; }

# --- summary
run "$report" summary "$fixture"
expect_rc 0 "summary prefetch-tlb.xml"
[ -s "$tmp/err" ] && bad "summary wrote to stderr: $(cat "$tmp/err")"
# The machine: the prefetchers of each level that has one, the TLBs.
expect_line "Cache  Prefetchers       Degree  Stride table  Streams"
expect_line "D1     next-line,stride       2           256       16"
expect_line "L2     stream                 4           256       32"
expect_line "TLB    Level  Entries  Assoc  Latency"
expect_line "DTLB1      1       64      4        0"
expect_line "DTLB2      2    2,048     16        7"
expect_line "Page size:        4 KiB"
# The events: T1m and T2m before Cycles.
expect_line "T1m        300"
expect_line "T2m         60"
t1=$(line_of "T1m        300") t2=$(line_of "T2m         60") cy=$(line_of "Cycles  53,640")
if [ -n "$t1" ] && [ -n "$t2" ] && [ -n "$cy" ] && [ "$t1" -lt "$t2" ] && [ "$t2" -lt "$cy" ]
then ok "T1m, T2m, then Cycles"; else bad "event order: T1m at '$t1', T2m at '$t2', Cycles at '$cy'"; fi
# Prefetching: every cache, accuracy = useful / issued.
expect_line "-- Prefetching"
expect_line "Cache  Prefetchers       Issued  Useful  Polluting  Accuracy  Prefetch refs  Prefetch misses"
expect_line "I1     -                      0       0          0         -              0                0"
expect_line "D1     next-line,stride   1,000     750        200    75.00%          1,000            1,000"
expect_line "L2     stream               400     100        250    25.00%          1,400              600"
expect_line "L3     -                      0       0          0         -            600              240"
# TLBs: refs, misses, miss rate; page walks and their latency.
expect_line "-- TLBs"
expect_line "TLB    Level   Refs  Misses  Miss rate"
expect_line "DTLB1      1  6,000     300      5.00%"
expect_line "DTLB2      2    300      60     20.00%"
expect_line "Page walks:       60"
expect_line "Walk latency:     30 cycles"
# Hot spots: the DTLB1 misses next to the D1 misses.
if grep -Eq '^35,522 +66\.2% +7,000 +400 +100 +200 +/src/stream\.c:copy$' "$tmp/out"
then ok "hottest function with T1m"; else bad "no hottest function row with T1m 200"; cat "$tmp/out"; fi
# Documents without prefetchers or TLBs show none of it.
run "$report" summary "$srcdir/tests/sir/minimal.xml"
expect_rc 0 "summary minimal.xml"
for h in "-- Prefetching" "-- TLBs" "Page size:" "Walk latency:" "Prefetchers" "T1m"; do expect_no_line "$h"; done

# --- arrays: Dpf, T1m, T2m per structure
run "$report" arrays "$fixture"
expect_rc 0 "arrays"
expect_line "#  Kind    Name      Declared at / site                                      Size  Blocks  Reads  Writes  D1 misses  D1 miss ratio  Prefetch hits  DTLB1 misses  DTLB2 misses"
expect_line "0  global  src       /src/stream.c:2                                       32 KiB       1  3,000       0        400          13.3%            600           160            32"
expect_line "2  heap    make_buf  make_buf (/src/stream.c:20) | main (/src/stream.c:5)   4 KiB       2  1,000     500        150          10.0%              0            60            12"
expect_line "1  global  dst       /src/stream.c:3                                       32 KiB       1      0   1,000        100          10.0%            150            40             8"
run "$report" arrays "$fixture" --sort=dtlb2-misses --level=LL --format=json
expect_rc 0 "arrays --sort=dtlb2-misses --level=LL --format=json"
if python3 - "$tmp/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["cache"] == "L3", d["cache"]
s = d["structures"]
assert [x["name"] for x in s] == ["src", "make_buf", "dst"], s
assert [(x["prefetch_hits"], x["dtlb1_misses"], x["dtlb2_misses"]) for x in s] == [(600, 160, 32), (0, 60, 12), (150, 40, 8)]
assert [x["misses"] for x in s] == [80, 30, 20], [x["misses"] for x in s]
PY
then ok "arrays json: prefetch_hits, dtlb1_misses, dtlb2_misses"; else bad "arrays json"; fi
# The histogram leaves the new columns out (as Dcm and Dfs).
run "$report" histogram "$fixture" make_buf
expect_rc 0 "histogram make_buf"
if grep -Eq '^ +3 +768-1023 +900 +100 +450 +50 ' "$tmp/out"; then ok "histogram bucket 3"; else bad "no histogram row for bucket 3"; cat "$tmp/out"; fi

# --- export json: every figure, stable keys
run "$report" export "$fixture" --format=json
expect_rc 0 "export json"
if python3 - "$tmp/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert list(d) == ["format_version", "tool_version", "run", "machine", "events", "totals", "cache_stats", "memory",
                   "coherence", "tlb_stats", "files", "threads", "cores", "data_structures"], list(d)
m = d["machine"]
assert [c["prefetch"] for c in m["caches"]] == [
    None,
    {"prefetchers": ["next-line", "stride"], "degree": 2, "table": 256, "streams": 16},
    {"prefetchers": ["stream"], "degree": 4, "table": 256, "streams": 32},
    None], m["caches"]
assert m["tlbs"] == {"page_size": 4096, "walk_latency": 30, "levels": [
    {"name": "DTLB1", "level": 1, "entries": 64, "assoc": 4, "latency": 0},
    {"name": "DTLB2", "level": 2, "entries": 2048, "assoc": 16, "latency": 7}]}, m["tlbs"]
assert d["events"][-3:] == ["T1m", "T2m", "Cycles"], d["events"]
assert (d["totals"]["T1m"], d["totals"]["T2m"]) == (300, 60), d["totals"]
keys = ["prefetch_refs", "prefetch_misses", "prefetches_issued", "prefetches_useful", "prefetches_polluting"]
p = [s["prefetch"] for s in d["cache_stats"]]
assert all(list(x) == keys for x in p), p
assert [[x[k] for k in keys] for x in p] == [[0, 0, 0, 0, 0], [1000, 1000, 1000, 750, 200],
                                            [1400, 600, 400, 100, 250], [600, 240, 0, 0, 0]], p
assert d["tlb_stats"] == [{"name": "DTLB1", "refs": 6000, "misses": 300},
                          {"name": "DTLB2", "refs": 300, "misses": 60}], d["tlb_stats"]
assert d["tlb_stats"][0]["misses"] == d["totals"]["T1m"] and d["tlb_stats"][1]["misses"] == d["totals"]["T2m"]
lines = [l for f in d["files"] for r in f["regions"] for l in r["lines"]]
assert sum(l["costs"]["T1m"] for l in lines) == 300 and sum(l["costs"]["T2m"] for l in lines) == 60
ds = d["data_structures"]
assert ds["events"][-3:] == ["Dpf", "T1m", "T2m"], ds["events"]
assert [(s["costs"]["Dpf"], s["costs"]["T1m"], s["costs"]["T2m"]) for s in ds["structures"]] == \
    [(600, 160, 32), (150, 40, 8), (0, 60, 12)]
PY
then ok "json: prefetchers, tlbs, cache_stats prefetch, tlb_stats, T1m/T2m, Dpf"; else bad "json content"; fi
run "$report" export "$srcdir/tests/sir/minimal.xml" --format=json
if python3 - "$tmp/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["tlb_stats"] is None and d["machine"]["tlbs"] is None
assert all(c["prefetch"] is None for c in d["machine"]["caches"])
assert all(s["prefetch"] is None for s in d["cache_stats"])
PY
then ok "json without prefetchers and TLBs: null"; else bad "json nulls"; fi

# --- export csv: the lines with T1m T2m, the tables prefetch and tlbs
run "$report" export "$fixture" --format=csv
expect_rc 0 "export csv"
expect_line "file,function,line,Ir,I1mr,I2mr,I3mr,Dr,D1mr,D2mr,D3mr,Dw,D1mw,D2mw,D3mw,T1m,T2m,Cycles"
expect_line "/src/stream.c,copy,14,7000,6,3,1,3000,400,160,80,1000,100,40,20,200,40,35522"
cat >"$tmp/prefetch.csv" <<'EOF'
cache,level,prefetchers,degree,table,streams,prefetch_refs,prefetch_misses,prefetches_issued,prefetches_useful,prefetches_polluting
I1,1,,,,,0,0,0,0,0
D1,1,"next-line,stride",2,256,16,1000,1000,1000,750,200
L2,2,stream,4,256,32,1400,600,400,100,250
L3,3,,,,,600,240,0,0,0
EOF
run "$report" export "$fixture" --format=csv --table=prefetch
expect_rc 0 "export csv --table=prefetch"
expect_output "$tmp/prefetch.csv" "csv prefetch table"
cat >"$tmp/tlbs.csv" <<'EOF'
tlb,level,entries,assoc,latency,page_size,walk_latency,refs,misses
DTLB1,1,64,4,0,4096,30,6000,300
DTLB2,2,2048,16,7,4096,30,300,60
EOF
run "$report" export "$fixture" --format=csv --table=tlbs
expect_rc 0 "export csv --table=tlbs"
expect_output "$tmp/tlbs.csv" "csv tlbs table"
run "$report" export "$srcdir/tests/sir/minimal.xml" --format=csv --table=prefetch
expect_error "csv prefetch table without prefetchers" \
  "^ompsim-report: .*/minimal\.xml: no prefetchers \(a machine without hardware prefetchers\); --table=prefetch$"
run "$report" export "$srcdir/tests/sir/minimal.xml" --format=csv --table=tlbs
expect_error "csv tlbs table without TLBs" "^ompsim-report: .*/minimal\.xml: no TLBs \(a machine without data TLBs\); --table=tlbs$"

# --- diff: two documents with TLBs (30 more DTLB1 misses on line 14, 6 more page walks)
new=$tmp/new.xml
sed -e 's|<costs>10000 20 10 5 4000 500 200 100 2000 250 100 50 300 60 53640</costs>|<costs>10000 20 10 5 4000 500 200 100 2000 250 100 50 330 66 53640</costs>|' \
    -e 's|>7000 6 3 1 3000 400 160 80 1000 100 40 20 200 40 35522<|>7000 6 3 1 3000 400 160 80 1000 100 40 20 230 46 35522<|g' \
    -e 's|name="DTLB1" refs="6000" misses="300"|name="DTLB1" refs="6000" misses="330"|' \
    -e 's|name="DTLB2" refs="300" misses="60"|name="DTLB2" refs="330" misses="66"|' \
    "$fixture" >"$new"
run "$report" diff "$fixture" "$new"
expect_rc 0 "diff of two documents with TLBs"
if grep -Eq '^T1m +300 +330 +\+30 +\+10\.00% +1\.100$' "$tmp/out"; then ok "T1m row"; else bad "no T1m row 300 330 +30 +10.00% 1.100"; cat "$tmp/out"; fi
if grep -Eq '^T2m +60 +66 +\+6 +\+10\.00% +1\.100$' "$tmp/out"; then ok "T2m row"; else bad "no T2m row"; fi
run "$report" diff "$fixture" "$new" --limit T2m=5%
expect_rc 1 "diff --limit T2m=5%"
expect_line "LIMIT EXCEEDED: T2m +10.00% (limit 5%): 60 -> 66"
run "$report" diff "$fixture" "$srcdir/tests/sir/multicore.xml"
expect_error "diff against a machine without TLBs" "^ompsim-report: different machines: "

# --- documents that break a rule: one line FILE:LINE: message, exit 2
run "$report" summary "$srcdir/tests/sir/bad/pf-useful-polluting.xml"
expect_error "pf-useful-polluting.xml" \
  "pf-useful-polluting\.xml:20: <cache-stats>: prefetches-useful \(750\) and prefetches-polluting \(300\) add up to more than prefetches-issued \(1000\)"
run "$report" arrays "$srcdir/tests/sir/bad/tlb-stats-totals.xml"
expect_error "tlb-stats-totals.xml" \
  "tlb-stats-totals\.xml:24: <tlb-stats name=\"DTLB1\">: misses \(301\) does not equal the T1m of <totals> \(300\)"
run "$report" export "$srcdir/tests/sir/bad/tlb-events-missing.xml" --format=json
expect_error "tlb-events-missing.xml" "tlb-events-missing\.xml:16: <events>: no event 'T2m'"

exit $status
