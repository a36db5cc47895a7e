#!/bin/sh
# omp_false_sharing.sh RUNNER FALSE_SHARING PADDED SOURCE REPORT
# examples/openmp/false_sharing with 4 threads on the default machine, the
# deterministic replay at its default quantum Q = 1,000 instructions.
#
# Derivation (docs/openmp.md "Replay", examples/openmp/README.md):
#  - thread t runs N = 20,000 iterations of counters[t] = counters[t] + 1,
#    5 instructions each (load, add, store, increment, compare-and-branch;
#    checked below: the loop line executes 4 x 5 x N instructions);
#  - the loop starts p instructions into the implicit task, 0 < p < Q, so it
#    spans turns 0 .. ceil((p + 5N) / Q) - 1 = 0 .. 100: 101 turns with
#    accesses to the shared line;
#  - between two turns of a thread the three others write the line, so the
#    thread's copy is invalid at each of its turns 1 .. 100: 100 coherence
#    misses per thread, each on bytes no other thread writes (false sharing);
#  - after the region the initial thread reads the counters once more while
#    the line is thread 3's: one more coherence miss, again on bytes thread 3
#    did not write.
# So counters has 4 x 100 + 1 = 401 coherence misses, all false sharing.
# The padded version puts each counter on its own line: no line is shared
# during the loop and core 0 never held the others' lines, so 0.
# With --cores=2 (slot s on core s mod 2: 0 1 0 1) every turn runs on the
# other core than the turn before, so only the first turn on each core
# misses cold: 4 x 101 - 2 turns, +1 for the final read = 403 coherence
# misses, all false sharing. With --cores=1 nothing is shared: 0.
# With 128-byte lines at every level the padded counters share lines two
# by two (threads 0 and 1, threads 2 and 3): between two turns of a thread
# its partner wrote the line, so again each thread misses at its turns 1 ..
# 100 on bytes it alone writes, 400; the final read misses on the first
# line (thread 1's), while the second was never core 0's (a cold miss):
# 401 coherence misses, all false sharing, where 64-byte lines give 0.
# Those runs take the replay's loop for lines other than 64 bytes, with
# the monitor (on the main thread: the counters' row) and without it (on
# the replay worker: the run's totals, which nothing else shares).
runner=$1 unpadded=$2 padded=$3 src=$4 report=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
N=20000 Q=1000 T=4
run() { # run NAME PROGRAM [OPTION...]
    _name=$1 _prog=$2
    shift 2
    OMP_NUM_THREADS=$T "$runner" --monitor=yes "$@" --output-file="$tmp/$_name.xml" -q "$_prog" > /dev/null \
        2> "$tmp/$_name.err" || { echo "FAIL: $_name run failed"; cat "$tmp/$_name.err"; exit 1; }
}
run unpadded "$unpadded"
run padded "$padded"
run cores2 "$unpadded" --cores=2
run cores1 "$unpadded" --cores=1
run lines128 "$padded" --L1=48K,12,128 --L2=1280K,10,128 --L3=30M,12,128
run lines128w "$padded" --L1=48K,12,128 --L2=1280K,10,128 --L3=30M,12,128 --monitor=no
loop_line=$(grep -n 'INCREMENT(COUNTER(t))' "$src" | cut -d: -f1)
turns=$(( (1 + 5 * N + Q - 1) / Q ))   # ceil((p + 5N) / Q) for any 0 < p <= Q - 5N mod Q
expected=$(( T * (turns - 1) + 1 ))
python3 - "$tmp/unpadded.xml" "$tmp/padded.xml" "$loop_line" "$N" "$T" "$expected" "$tmp" "$turns" <<'PY' || fail=1
import sys, xml.etree.ElementTree as ET
unpadded, padded, line, n, t, expected = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
tmp, turns = sys.argv[7], int(sys.argv[8])
bad = 0
def check(cond, what):
    global bad
    print(("ok   " if cond else "FAIL ") + what)
    bad |= not cond
def structure(path, name):
    doc = ET.parse(path).getroot()
    ds = doc.find("data-structures")
    cols = ds.get("events").split()
    for s in ds.findall("data-structure"):
        if s.get("name") == name:
            return dict(zip(cols, map(int, s.find("costs").text.split()))), doc
    raise SystemExit("no structure " + name + " in " + path)
u, doc = structure(unpadded, "counters")
ir = sum(int(l.text.split()[0]) for f in doc.find("program") for r in f for l in r.findall("line")
         if f.get("path").endswith("false_sharing.c") and l.get("number") == line)
check(ir == 5 * n * t, f"loop line {line}: {ir} instructions = 4 x 5 x N")
check(u["Dcm"] == expected, f"counters: {u['Dcm']} coherence misses, derived {expected}")
check(u["Dfs"] == expected, f"counters: {u['Dfs']} false-sharing misses, derived {expected}")
check(doc.find("run").get("deterministic") == "true", "deterministic")
p, pdoc = structure(padded, "counters")
check(p["Dcm"] == 0 and p["Dfs"] == 0, f"padded counters: {p['Dcm']} coherence, {p['Dfs']} false-sharing misses")
coh = pdoc.find("totals/coherence")
check(coh is not None and coh.get("coherence-misses") == "0", "padded run: no coherence miss at all")
c2, _ = structure(tmp + "/cores2.xml", "counters")
e2 = t * turns - 2 + 1
check(c2["Dcm"] == e2 and c2["Dfs"] == e2, f"--cores=2: {c2['Dcm']} coherence, {c2['Dfs']} false-sharing misses, derived {e2}")
c1, c1doc = structure(tmp + "/cores1.xml", "counters")
check(c1["Dcm"] == 0 and c1doc.find("totals/coherence").get("coherence-misses") == "0", "--cores=1: no coherence miss")
l128, l128doc = structure(tmp + "/lines128.xml", "counters")
check(l128doc.find("machine/cache").get("line-size") == "128", "128-byte lines run: the machine has them")
check(l128["Dcm"] == expected and l128["Dfs"] == expected,
      f"padded, 128-byte lines: {l128['Dcm']} coherence, {l128['Dfs']} false-sharing misses, derived {expected}")
w = ET.parse(tmp + "/lines128w.xml").getroot().find("totals/coherence")
check(w.get("coherence-misses") == str(expected) and w.get("false-sharing-misses") == str(expected),
      f"padded, 128-byte lines, replay worker: {w.get('coherence-misses')} coherence misses in all, derived {expected}")
sys.exit(bad)
PY
# The finding users read: the same derived numbers in ompsim-report summary.
finding="false sharing: counters $expected false-sharing misses of $expected coherence misses"
if "$report" summary "$tmp/unpadded.xml" | grep -qF "$finding"; then echo "ok   summary: $finding"
else echo "FAIL summary does not say: $finding"; fail=1; fi
if "$report" summary "$tmp/padded.xml" | grep -qF "no false sharing detected"; then echo "ok   padded summary: no false sharing detected"
else echo "FAIL padded summary does not say: no false sharing detected"; fail=1; fi
exit $fail
