#!/bin/sh
# multicore.sh REPORT_BINARY SRCDIR: ompsim-report on the parts of a
# multi-threaded run, with the fixture tests/sir/multicore.xml (4 OpenMP
# threads on 4 cores, MESI, the Dcm/Dfs columns). 'summary' shows the
# determinism line, the cores of the machine, the coherence totals, a table of
# threads and one of cores, and the findings (false sharing per structure,
# most first, or "no false sharing detected"); single-threaded documents show
# none of it. 'export' has the parts in JSON (stable keys, null when absent)
# and as CSV tables (--table=threads|cores|coherence); 'arrays' shows Dcm and
# Dfs. A document breaking a rule of these parts is refused with FILE:LINE.
report=$1 srcdir=$2
fixture=$srcdir/tests/sir/multicore.xml
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
expect_rc 0 "summary multicore.xml"
[ -s "$tmp/err" ] && bad "summary wrote to stderr: $(cat "$tmp/err")"
cp "$tmp/out" "$tmp/summary"
expect_line "Deterministic:    yes (round-robin, quantum 1000)"
expect_line "Threads:          4 (simulate-runtime=no)"
expect_line "Cores:            4, private levels 1-2 (I1, D1, L2), MESI coherence, cache-to-cache 65 cycles, upgrade 65 cycles"
expect_line "-- Coherence"
expect_line "Coherence misses: 128"
expect_line "False sharing:    108 (84.4% of the coherence misses)"
expect_line "Invalidations:    112"
expect_line "C2C transfers:    93"
expect_line "Upgrades:         98"
# Threads: thread, Valgrind tid, OpenMP number, core, Ir, Dr, Dw, D1 misses
# (D1mr + D1mw), L3 misses (I3mr + D3mr + D3mw), Cycles.
expect_line "Thread  Tid  OMP  Core   Ir   Dr   Dw  D1 misses  L3 misses  Cycles"
expect_line "     0    1    0     0  980  318  122         76         20   6,016"
expect_line "     3    4    3     3  900  300  100         64          1   2,188"
# Cores: instructions, cycles, busy, wait %, and the coherence counters
# summed over the private caches (core 0: D1 30 + L2 4 coherence misses).
expect_line "Core  Instructions  Cycles   Busy  Wait %  Coherence misses  Invalidations received  C2C in  Upgrades"
expect_line "   0           980   6,136  6,016    2.0%                34                      27      24        25"
expect_line "   1           900   4,564  2,164   52.6%                31                      28      22        24"
expect_line "-- Findings"
expect_line "false sharing: counters 90 false-sharing misses of 96 coherence misses"
expect_line "false sharing: alloc_partials 3 false-sharing misses of 4 coherence misses"
expect_no_line "false sharing: grid"
expect_no_line "false sharing: padded"
first=$(line_of "false sharing: counters 90 false-sharing misses of 96 coherence misses")
second=$(line_of "false sharing: alloc_partials 3 false-sharing misses of 4 coherence misses")
if [ -n "$first" ] && [ -n "$second" ] && [ "$first" -lt "$second" ]; then ok "findings by Dfs, most first"
else bad "findings order: counters at '$first', alloc_partials at '$second'"; fi
# The sections come in this order, the hot spots last.
prev=0
for h in "-- Run" "-- Machine" "-- Program totals" "-- Cache levels" "-- Coherence" "-- Threads" "-- Cores" \
         "-- Findings" "-- Hottest functions by Cycles"; do
  n=$(line_of "$h")
  if [ -n "$n" ] && [ "$n" -gt "$prev" ]; then prev=$n; else bad "section '$h' at '$n' (after line $prev)"; fi
done
ok "sections in order"

# A run that is not deterministic: NO and the reasons, one per line.
sed -e 's/deterministic="true"/deterministic="false"/' \
    -e 's|threads="4"/>|threads="4">\n      <reason>stream buffer of thread 2 full (--stream-buffer=256M) while thread 0 lagged</reason>\n      <reason>thread 3 blocked in read()</reason>\n    </determinism>|' \
    "$fixture" >"$tmp/nondet.xml"
run "$report" summary "$tmp/nondet.xml"
expect_rc 0 "summary of a run that is not deterministic"
expect_line "Deterministic:    NO: stream buffer of thread 2 full (--stream-buffer=256M) while thread 0 lagged"
expect_line "                      thread 3 blocked in read()"

# No false sharing: every Dfs 0 (the structures' coherence misses stay).
sed -e '/<data-structures/,$ s| [0-9]*</costs>| 0</costs>|' -e '/<data-structures/,$ s| [0-9]*</bucket>| 0</bucket>|' \
    "$fixture" >"$tmp/nofs.xml"
run "$report" summary "$tmp/nofs.xml"
expect_rc 0 "summary without false sharing"
expect_line "no false sharing detected"
expect_no_line "false sharing: "

# Single-threaded documents: none of the new sections; structures without
# the coherence columns give no findings.
for f in minimal structures; do
  run "$report" summary "$srcdir/tests/sir/$f.xml"
  expect_rc 0 "summary $f.xml"
  expect_line "Deterministic:    yes"
  for h in "-- Coherence" "-- Threads" "-- Cores" "-- Findings" "Cores:" "Threads:"; do expect_no_line "$h"; done
done

# --- export json: the parts, with stable keys
run "$report" export "$fixture" --format=json
expect_rc 0 "export json"
if python3 - "$tmp/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert list(d) == ["format_version", "tool_version", "run", "machine", "events", "totals", "cache_stats", "memory",
                   "coherence", "tlb_stats", "files", "threads", "cores", "data_structures"], list(d)
assert d["run"]["determinism"] == {"scheduler": "round-robin", "quantum": 1000, "simulate_runtime": "no",
                                   "threads": 4, "reasons": []}, d["run"]["determinism"]
m = d["machine"]
assert (m["cores"], m["private_levels"], m["coherence"], m["c2c_latency"], m["upgrade_latency"]) == \
    (4, 2, "mesi", 65, 65), m
assert d["coherence"] == {"coherence_misses": 128, "false_sharing_misses": 108, "invalidations": 112,
                          "c2c_transfers": 93, "upgrades": 98}, d["coherence"]
t = d["threads"]
assert [(x["id"], x["valgrind_tid"], x["omp_thread"], x["core"]) for x in t] == \
    [(0, 1, 0, 0), (1, 2, 1, 1), (2, 3, 2, 2), (3, 4, 3, 3)], t
for e in d["events"]:
    assert sum(x["costs"][e] for x in t) == d["totals"][e], e
c = d["cores"]
assert [x["id"] for x in c] == [0, 1, 2, 3]
assert list(c[0]) == ["id", "instructions", "cycles", "busy_cycles", "wait_cycles", "cache_stats"], list(c[0])
assert [s["name"] for s in c[0]["cache_stats"]] == ["I1", "D1", "L2"]
assert c[0]["cache_stats"][0]["coherence"] is None
k = c[0]["cache_stats"][1]["coherence"]
assert list(k) == ["coherence_misses", "false_sharing_misses", "invalidations_received", "invalidations_sent",
                   "c2c_in", "c2c_out", "upgrades"], list(k)
assert sum(s["coherence"]["coherence_misses"] for x in c for s in x["cache_stats"] if s["coherence"]) == 128
ds = d["data_structures"]
assert ds["events"][-2:] == ["Dcm", "Dfs"], ds["events"]
assert ds["structures"][0]["costs"]["Dfs"] == 90 and ds["structures"][0]["threads"][0]["costs"]["Dcm"] == 25
PY
then ok "json: determinism, machine, coherence, threads, cores, Dcm/Dfs"; else bad "json content"; fi
run "$report" export "$srcdir/tests/sir/minimal.xml" --format=json
if python3 - "$tmp/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["coherence"] is None and d["threads"] is None and d["cores"] is None and d["run"]["determinism"] is None
assert all(d["machine"][k] is None for k in ("cores", "private_levels", "coherence", "c2c_latency", "upgrade_latency"))
PY
then ok "json: the keys are null for a single-threaded run"; else bad "json nulls"; fi

# --- export csv tables
run "$report" export "$fixture" --format=csv --table=threads
expect_rc 0 "csv threads"
expect_line "thread,valgrind_tid,omp_thread,core,Ir,I1mr,I2mr,I3mr,Dr,D1mr,D2mr,D3mr,Dw,D1mw,D2mw,D3mw,Cycles"
expect_line "0,1,0,0,980,7,5,4,318,42,15,8,122,34,10,8,6016"
if [ "$(wc -l <"$tmp/out")" -eq 5 ]; then ok "csv threads: header + 4 records"; else bad "csv threads: $(wc -l <"$tmp/out") lines"; fi
run "$report" export "$fixture" --format=csv --table=cores
expect_rc 0 "csv cores"
if [ "$(wc -l <"$tmp/out")" -eq 13 ]; then ok "csv cores: header + 4 cores x 3 private caches"; else bad "csv cores: $(wc -l <"$tmp/out") lines"; fi
expect_line "0,980,6136,6016,120,D1,0,0,318,42,122,34,0,0,36,29,0,0,30,26,24,27,22,20,25"
expect_line "0,980,6136,6016,120,I1,980,7,0,0,0,0,0,0,0,0,0,0,,,,,,,"
if python3 - "$tmp/out" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert len(rows) == 12 and all(len(r) == 25 for r in rows)
ins = sum(int(r["c2c_in"] or 0) for r in rows)
outs = sum(int(r["c2c_out"] or 0) for r in rows)
assert ins == outs == 93, (ins, outs)
PY
then ok "csv cores read back by Python's csv (c2c in = out = 93)"; else bad "csv cores content"; fi
run "$report" export "$fixture" --format=csv --table=coherence
expect_rc 0 "csv coherence"
expect_line "coherence_misses,false_sharing_misses,invalidations,c2c_transfers,upgrades"
expect_line "128,108,112,93,98"
run "$report" export "$fixture" --format=csv --table=lines
expect_rc 0 "csv lines"
expect_line "/src/omp.c,main._omp_fn.0,15,1200,0,0,0,400,102,12,4,400,94,8,0,4752"
run "$report" export "$srcdir/tests/sir/minimal.xml" --format=csv --table=threads
expect_error "csv threads of a single-threaded run" \
  '^ompsim-report: .*minimal\.xml: no threads \(a single-threaded run\); --table=threads$'
run "$report" export "$fixture" --format=json --table=cores
expect_error "--table with json" '^ompsim-report: --table applies to --format=csv only'
run "$report" export "$fixture" --format=csv --table=regions
expect_rc 2 "--table=regions"

# --- arrays: Dcm and Dfs columns, sort keys
run "$report" arrays "$fixture" --sort=false-sharing
expect_rc 0 "arrays --sort=false-sharing"
if grep -Eq '^#  Kind .* Coherence misses  False sharing$' "$tmp/out"; then ok "arrays: coherence columns"
else bad "arrays: no coherence columns"; cat "$tmp/out"; fi
if grep -Eq '^0  global  counters .* 96 +90$' "$tmp/out"; then ok "arrays: counters 96 / 90"; else bad "arrays counters row"; fi
names=$(awk '/^-  -/ { go = 1; next } go { print $3 }' "$tmp/out" | tr '\n' ' ')
if [ "$names" = "counters alloc_partials grid padded " ]; then ok "arrays sorted by Dfs: $names"; else bad "arrays order: $names"; fi
run "$report" arrays "$fixture" --format=json --sort=coherence-misses
if python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["structures"]
assert [(x["name"], x["coherence_misses"], x["false_sharing_misses"]) for x in s] == \
    [("counters", 96, 90), ("grid", 6, 0), ("alloc_partials", 4, 3), ("padded", 0, 0)], s' "$tmp/out"
then ok "arrays json: coherence_misses, false_sharing_misses"; else bad "arrays json"; cat "$tmp/out"; fi
run "$report" arrays "$srcdir/tests/sir/structures.xml" --format=json
if python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["structures"][0]["coherence_misses"] is None' "$tmp/out"
then ok "arrays json: null without the columns"; else bad "arrays json without the columns"; fi
run "$report" histogram "$fixture" grid --level=L3
expect_rc 0 "histogram at the last level with the coherence columns"

# --- documents breaking a rule of the new parts: FILE:LINE: message
run "$report" summary "$srcdir/tests/sir/bad/mc-thread-sum.xml"
expect_error "threads do not add up" \
  'mc-thread-sum\.xml:38: <threads>: the threads. <costs> do not add up to <totals> \(Ir is 3680, the threads add up to 3679\)$'
run "$report" export "$srcdir/tests/sir/bad/mc-coherence-sum.xml" --format=json
expect_error "coherence totals do not add up" \
  "mc-coherence-sum\.xml:21: <coherence>: 'coherence-misses' \(127\) does not equal the sum of the cores' 'coherence-misses' \(128\)$"
run "$report" arrays "$srcdir/tests/sir/bad/mc-core-out-of-range.xml"
expect_error "core id out of range" 'mc-core-out-of-range\.xml:68: <core>: id 4 is out of range \(the machine has 4 cores, 0 to 3\)$'

exit $status
