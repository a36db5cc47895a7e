#!/usr/bin/env python3
"""Prefetchers and data TLBs end to end (issue 11), on tests/progs/sweep.c.

usage: prefetch_tlb.py RUNNER SWEEP_BINARY SWEEP_SOURCE [OMPSIM_REPORT]

sweep 256 16 reads a page-aligned 256 KiB array (4096 lines, 64 pages of
4 KiB) with one load per line: a cold pass, a warm pass, then the first
16 KiB (256 lines, 4 pages) twice. On the desktop machine (D1 48 KiB
12-way, L2 1.25 MiB, L3 30 MiB) with a tagged next-line prefetcher on D1
(--D1-prefetch=next-line) and DTLB1 64 x 4-way + DTLB2 1536 x 12-way:

  COLD:  the first line of each page misses D1 and proposes the next line;
         every later line of the page is a prefetch hit that proposes the
         one after, up to the page's end: D1mr = 64 (not 4096), and those
         64 demand misses also miss L2 and L3 (cold): D2mr = D3mr = 64.
         Each page is translated for the first time: T1m = T2m = 64.
  WARM:  256 KiB > D1, so the pass starts with nothing of the array in D1:
         again one D1 miss per page (64), served by L2 (0 L2, L3 misses).
         The 64 pages fill DTLB1's 16 sets x 4 ways exactly (the loops make
         no other data access): T1m = 0.
  SMALL: the first 4 pages, evicted from D1 by the warm pass: 4 misses
         on the first walk, none on the second; T1m = 0.

Cycles of COLD: Ir + 64 memory accesses x 250 + 64 walks x 30 (prefetches
cost no time: timeliness is out of the model's scope).

Without the prefetcher the counts are those of tests/integration/sweep.sh
(4096, 4096, 512 line misses in D1), which the same run checks.
"""
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

runner, binary, source = sys.argv[1:4]
report = sys.argv[4] if len(sys.argv) > 4 else None
failures = []


def check(what, got, want):
    if got == want:
        print(f"ok: {what}: {got}")
    else:
        print(f"FAIL: {what}: expected {want}, got {got}")
        failures.append(what)


def marker_line(marker):
    with open(source) as f:
        for i, text in enumerate(f, 1):
            if marker in text:
                return i
    raise SystemExit(f"marker {marker} not in {source}")


def run(options):
    with tempfile.TemporaryDirectory() as d:
        doc = f"{d}/doc.xml"
        p = subprocess.run([runner, "-q", f"--output-file={doc}", *options, binary, "256", "16"],
                           capture_output=True, text=True)
        if p.returncode != 0:
            print(p.stderr)
            raise SystemExit(f"FAIL: the run with {options} exited {p.returncode}")
        if report:
            # The document passes the reader's checks (ompsim-report exits
            # 2 on any) and the summary shows the new tables.
            r = subprocess.run([report, "summary", doc], capture_output=True, text=True)
            check(f"ompsim-report summary of the run with {options} exits 0", r.returncode, 0)
            if r.returncode != 0:
                print(r.stderr)
            if any(o.startswith("--D1-prefetch") for o in options):
                check("the summary has the prefetch table", "Prefetching" in r.stdout, True)
        return ET.parse(doc).getroot()


def line_costs(root, line):
    events = root.find("events").text.split()
    total = [0] * len(events)
    for f in root.iter("file"):
        if not f.get("path").endswith("sweep.c"):
            continue
        for ln in f.iter("line"):
            if int(ln.get("number")) == line:
                total = [a + int(b) for a, b in zip(total, ln.text.split())]
    return dict(zip(events, total))


COLD, WARM, SMALL = (marker_line(m) for m in ("SWEEP-COLD", "SWEEP-WARM", "SWEEP-SMALL"))

plain = run([])
for name, line, want in (("COLD", COLD, 4096), ("WARM", WARM, 4096), ("SMALL", SMALL, 256)):
    check(f"no prefetcher: {name} D1mr", line_costs(plain, line)["D1mr"], want)

root = run(["--D1-prefetch=next-line", "--DTLB1=64,4", "--DTLB2=1536,12"])
events = root.find("events").text.split()
check("events end with the TLB misses", events[-3:], ["T1m", "T2m", "Cycles"])
expect = {
    "COLD": (COLD, {"Dr": 4096, "D1mr": 64, "D2mr": 64, "D3mr": 64, "T1m": 64, "T2m": 64}),
    "WARM": (WARM, {"Dr": 4096, "D1mr": 64, "D2mr": 0, "D3mr": 0, "T1m": 0, "T2m": 0}),
    "SMALL": (SMALL, {"Dr": 512, "D1mr": 4, "D2mr": 0, "D3mr": 0, "T1m": 0, "T2m": 0}),
}
for name, (line, want) in expect.items():
    got = line_costs(root, line)
    for ev, v in want.items():
        check(f"{name} {ev}", got[ev], v)
cold = line_costs(root, COLD)
check("COLD cycles", cold["Cycles"], cold["Ir"] + 64 * 250 + 64 * 30)

machine = root.find("machine")
d1 = [c for c in machine.findall("cache") if c.get("name") == "D1"][0]
check("D1 prefetch attributes", (d1.get("prefetch"), d1.get("prefetch-degree")), ("next-line", "1"))
tlbs = machine.find("tlbs")
check("tlbs", (tlbs.get("page-size"), [(t.get("name"), t.get("entries"), t.get("assoc")) for t in tlbs]),
      ("4096", [("DTLB1", "64", "4"), ("DTLB2", "1536", "12")]))

totals = root.find("totals")
stats = {s.get("name"): s for s in totals.findall("cache-stats")}
d1s = stats["D1"]
# 63 prefetches per page: 64 pages cold, 64 warm, 4 small; all of the
# sweep's are used. The rest of the program (start-up, printf) adds its own.
issued, useful = int(d1s.get("prefetches-issued")), int(d1s.get("prefetches-useful"))
check("D1 prefetches issued cover the sweep's 63 x 132", issued >= 63 * 132, True)
check("D1 useful <= issued", useful <= issued, True)
check("D1 useful + polluting <= issued", useful + int(d1s.get("prefetches-polluting")) <= issued, True)
check("D1 prefetch requests are the issued ones", int(d1s.get("prefetch-refs")), issued)
check("L2 prefetch requests come from D1", int(stats["L2"].get("prefetch-refs")), issued)
tlb = {t.get("name"): t for t in totals.findall("tlb-stats")}
costs = dict(zip(events, map(int, totals.find("costs").text.split())))
check("T1m total = DTLB1 misses", costs["T1m"], int(tlb["DTLB1"].get("misses")))
check("T2m total = DTLB2 misses", costs["T2m"], int(tlb["DTLB2"].get("misses")))
check("DTLB2 lookups = DTLB1 misses", int(tlb["DTLB2"].get("refs")), int(tlb["DTLB1"].get("misses")))

# The monitor: the array (global 'buf') has every prefetch hit of the sweep,
# 63 per page of its 64 + 64 + 4 page walks, and its 64 cold page walks.
mon = run(["--monitor=yes", "--D1-prefetch=next-line", "--DTLB1=64,4", "--DTLB2=1536,12"])
ds = mon.find("data-structures")
columns = ds.get("events").split()
check("data-structure columns end with Dpf T1m T2m", columns[-3:], ["Dpf", "T1m", "T2m"])
buf = [s for s in ds.findall("data-structure") if s.get("name") == "buf"][0]
vals = dict(zip(columns, map(int, buf.find("costs").text.split())))
check("buf Dr", vals["Dr"], 4096 * 2 + 512)
check("buf D1mr", vals["D1mr"], 64 + 64 + 4)
check("buf Dpf", vals["Dpf"], 63 * (64 + 64 + 4))
check("buf T1m", vals["T1m"], 64)
check("buf T2m", vals["T2m"], 64)

# 2 MiB pages: the array's 256 KiB lie in one or two huge pages.
huge = run(["--DTLB1=64,4", "--tlb-page=2M"])
check("2 MiB pages: COLD T1m", line_costs(huge, COLD)["T1m"] <= 2, True)

sys.exit(1 if failures else 0)
