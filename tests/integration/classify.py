#!/usr/bin/env python3
"""Miss classification (--classify-misses) and reuse distances
(--reuse-distance) end to end (issue 9, items 1 and 2).

usage: classify.py RUNNER CLASSIFY_WALK STENCIL FALSE_SHARING REPORT

1. tests/progs/classify_walk.c on the desktop machine with a D1 of 64
   lines (--D1=4096,4,64: 16 sets x 4 ways of 64 B; L2 1.25 MiB and L3
   30 MiB hold everything here). Each walk reads one int per line of its
   own line-aligned named array; nothing else happens inside the loops.
   Per structure, hand-derived (docs/cache-model.md, "Miss classes (3C)"):
     fits      32 lines x 2: pass 1 misses D1 32 times, all first
               references (compulsory); 2 lines per set: pass 2 hits.
     big       128 lines x 2: pass 1: 128 compulsory; 8 lines per set
               cycle through 4 ways, and 128 distinct lines through the
               64-line fully associative shadow: pass 2 misses all 128 in
               both: capacity 128.
     conflict  8 lines 1 KiB apart (16 sets x 64 B), all in one D1 set,
               x 4: pass 1: 8 compulsory; passes 2-4: 8 lines cycle
               through 4 ways (all miss), but the shadow holds all 8:
               conflict 24.
     cycle     100 lines x 3: 6 or 7 lines per set, 100 > 64 shadow
               lines: 100 compulsory, 200 capacity.
   L2 and L3 miss only on first references: D2comp = D3comp = the lines.
   Reuse distances (distinct other lines between two reads of a line):
   a cyclic walk over N lines re-reads each at distance N - 1, so
     fits 32 cold + 32 at 31 (bin 16-31); big 128 cold + 128 at 127
     (bin 64-127); conflict 8 cold + 24 at 7 (bin 4-7); cycle 100 cold +
     200 at 99 (bin 64-127), and its miss-ratio curve: 1 up to 64 lines,
     1/3 (the cold ones) from 128 lines.
   Classification must not change the simulation: the totals of a run
   without the options are the same.
2. The classes add up to the misses of every cache (totals and cores), of
   every structure and thread, on the default machine for tests/progs/
   stencil (--monitor=yes), checked here from the XML and by ompsim-report.
3. examples/openmp/false_sharing with 4 threads: tests/integration/
   omp_false_sharing.sh derives 401 coherence misses of `counters`; each
   missed D1 and L2 (the private levels) for that reason: D1coh = D2coh =
   401 = Dcm, and the shared L3 has no coherence class. Per core, the
   coherence class of L2 equals that of D1 plus I1 (every access that
   missed L2 missed L1 first) and the core's coherence-misses counter.
"""
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

runner, walk, stencil, false_sharing, report = sys.argv[1:6]
failures = []
CLASSES = ["comp", "cap", "conf", "coh"]
ATTRS = ["miss-compulsory", "miss-capacity", "miss-conflict", "miss-coherence"]


def check(what, got, want):
    if got == want:
        print(f"ok: {what}: {got}")
    else:
        print(f"FAIL: {what}: expected {want}, got {got}")
        failures.append(what)


def run(tmp, name, prog, *options, env=None):
    out = os.path.join(tmp, name + ".xml")
    r = subprocess.run([runner, *options, f"--output-file={out}", "-q", prog], capture_output=True, text=True,
                       env=env)
    if r.returncode != 0:
        print(f"FAIL: {name}: the run failed ({r.returncode}): {r.stderr}")
        sys.exit(1)
    return out


def columns(root):
    ds = root.find("data-structures")
    return ds.get("events").split(), ds


def costs(el):
    return [int(v) for v in el.text.split()]


def structure(root, name):
    cols, ds = columns(root)
    for s in ds.findall("data-structure"):
        if s.get("name") == name:
            return dict(zip(cols, costs(s.find("costs")))), s
    print(f"FAIL: no structure {name}")
    sys.exit(1)


def check_sums(root, label):
    """Every cache-stats: the classes add up to the demand misses; every
    structure and thread: D<k>comp+cap+conf+coh = D<k>mr + D<k>mw."""
    bad = 0
    stats = root.findall("totals/cache-stats") + root.findall("cores/core/cache-stats")
    for cs in stats:
        demand = sum(int(cs.get(k + "-misses")) for k in ("fetch", "read", "write"))
        if sum(int(cs.get(a)) for a in ATTRS) != demand:
            bad += 1
    check(f"{label}: cache-stats whose classes add up to their demand misses", len(stats) - bad, len(stats))
    if root.find("data-structures") is None:
        return
    cols, ds = columns(root)
    levels = sum(1 for c in cols if c.endswith("mr"))
    vectors = [costs(c) for c in ds.iter("costs")]
    bad = 0
    for v in vectors:
        row = dict(zip(cols, v))
        for k in range(1, levels + 1):
            if sum(row[f"D{k}{c}"] for c in CLASSES) != row[f"D{k}mr"] + row[f"D{k}mw"]:
                bad += 1
    check(f"{label}: structure and thread vectors whose classes add up to their misses", len(vectors) - bad,
          len(vectors))


def report_ok(doc, label):
    r = subprocess.run([report, "summary", doc], capture_output=True, text=True)
    check(f"{label}: ompsim-report summary reads the document", r.returncode, 0)
    check(f"{label}: the summary has the miss classes", "Miss classes" in r.stdout, True)


with tempfile.TemporaryDirectory() as tmp:
    # ---- 1. hand-derived walks
    opts = ["--D1=4096,4,64"]
    doc = run(tmp, "walk", walk, *opts, "--classify-misses=yes", "--reuse-distance=yes")
    plain = run(tmp, "plain", walk, *opts)
    root = ET.parse(doc).getroot()
    want = {  # D1 classes, then the lines (L2 and L3: compulsory only)
        "fits": ([32, 0, 0, 0], 32),
        "big": ([128, 128, 0, 0], 128),
        "conflict": ([8, 0, 24, 0], 8),
        "cycle": ([100, 200, 0, 0], 100),
    }
    for name, (d1, lines) in want.items():
        row, _ = structure(root, name)
        check(f"{name}: D1 compulsory, capacity, conflict, coherence", [row[f"D1{c}"] for c in CLASSES], d1)
        check(f"{name}: D1 misses (reads only)", row["D1mr"], sum(d1))
        for k in (2, 3):
            check(f"{name}: L{k} classes", [row[f"D{k}{c}"] for c in CLASSES], [lines, 0, 0, 0])
    reuse_want = {
        "fits": (64, 32, [("16", "31", "32")]),
        "big": (256, 128, [("64", "127", "128")]),
        "conflict": (32, 8, [("4", "7", "24")]),
        "cycle": (300, 100, [("64", "127", "200")]),
    }
    for name, (accesses, cold, bins) in reuse_want.items():
        _, s = structure(root, name)
        r = s.find("reuse-distance")
        got = (int(r.get("accesses")), int(r.get("cold")),
               [(b.get("min"), b.get("max"), b.get("count")) for b in r.findall("bin")])
        check(f"{name}: reuse accesses, cold, bins", got, (accesses, cold, bins))
    r = subprocess.run([report, "reuse", doc, "cycle", "--format=csv"], capture_output=True, text=True)
    curve = {int(l.split(",")[0]): l.split(",")[3] for l in r.stdout.splitlines()[1:]}
    check("cycle: miss ratio at 1, 64, 128 lines", [curve.get(1), curve.get(64), curve.get(128)],
          ["1.000000", "1.000000", "0.333333"])
    check("classification changes no total",
          ET.parse(plain).getroot().find("totals/costs").text, root.find("totals/costs").text)
    check_sums(root, "walk")
    report_ok(doc, "walk")

    # ---- 2. the default machine, a real program
    doc = run(tmp, "stencil", stencil, "--classify-misses=yes", "--monitor=yes")
    root = ET.parse(doc).getroot()
    check_sums(root, "stencil")
    report_ok(doc, "stencil")

    # ---- 3. false sharing, 4 threads
    env = dict(os.environ, OMP_NUM_THREADS="4")
    doc = run(tmp, "fs", false_sharing, "--classify-misses=yes", "--monitor=yes", env=env)
    root = ET.parse(doc).getroot()
    row, _ = structure(root, "counters")
    check("counters: D1, L2, L3 coherence class; Dcm", [row["D1coh"], row["D2coh"], row["D3coh"], row["Dcm"]],
          [401, 401, 0, 401])
    prefetch = any(c.get("prefetch") for c in root.findall("machine/cache"))
    for core in root.findall("cores/core"):
        by = {cs.get("name"): cs for cs in core.findall("cache-stats")}
        l1 = int(by["D1"].get("miss-coherence")) + int(by["I1"].get("miss-coherence"))
        l2 = int(by["L2"].get("miss-coherence"))
        check(f"core {core.get('id')}: L2 coherence class = D1 + I1", l2, l1)
        if not prefetch:
            check(f"core {core.get('id')}: L2 coherence class = coherence-misses", l2,
                  int(by["L2"].get("coherence-misses")))
    check_sums(root, "false_sharing")
    report_ok(doc, "false_sharing")

if failures:
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
