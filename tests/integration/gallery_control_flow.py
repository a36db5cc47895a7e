"""Gallery 08, the control-flow example of ompP (examples/gallery/08-control-flow;
Fürlinger and Moore, IJPP 2009, Figure 1): control_flow a and control_flow b,
built with gcc -finstrument-functions (foo, bar and main are FUNCTION
regions), each run on the teaching machine (D1 4 KiB 2-way, 32 sets;
L2 64 KiB) with --monitor=yes.

Call graph (both versions): main calls foo 20 times and bar 20 times; the
profile cannot tell them apart. The control-flow graph (ompsim-report flow:
an edge X -> Y labelled "thread|count" when Y was entered after X, X being
Y's parent or the sibling that ran before it) can:
  a: main -> foo 1, bar -> foo 19, foo -> bar 20   (the paper's 1(d))
  b: main -> foo 1, foo -> foo 19, foo -> bar 1, bar -> bar 19   (1(e))

Caches: foo(i) and bar(i) each read the 128 ints of item i (512 B, 8
lines, line aligned; item i's line m is line 8 i + m of `items`, in D1 set
(8 i + m + c) mod 32 for a fixed c). 20 items = 160 lines, 10 KiB; nothing
else touches them, and the first read of a line misses everywhere.
  a: foo(i) misses the 8 lines of item i (160 in all). bar(i) comes right
    after: in each of those 8 sets only a stack line can have been touched
    in between, and a 2-way LRU set keeps the item's line: bar misses 0.
  b: bar(i) comes after foo has read all 20 items. The items of D1 set s
    are the 5 items i = i0, i0 + 4, ... (8 i mod 32 repeats every 4 items),
    read in the same order by foo and then by bar: a cycle of 5 lines in a
    2-way LRU set, every read misses: bar misses 160 too.
  L2 (64 KiB, 8-way) keeps all 160 lines: 160 L2 misses in both versions.
So per source line (export json): foo's loop 2,560 loads, 160 D1 misses in
both; bar's loop 2,560 loads, 0 D1 misses in a, 160 in b; `items`: 5,120
loads, 160 D1 misses in a, 320 in b, 160 L2 misses in both.
The region profile (ompsim-report regions) is the gprof-like view: foo and
bar entered 20 times each in both versions. Their time differs: bar runs
the same instructions in both, and a reference served by L2 costs the L2
latency, 12 cycles on the teaching machine, while a D1 hit costs nothing
beyond the CPI (docs/output-format.md, "Cycles"): bar's execT in b exceeds
a's by 160 x 12 = 1,920 cycles."""
import re

LOADS = 20 * 128
LINES = 20 * 8
L2_LATENCY = 12
MACHINE = ["--machine=teaching", "--monitor=yes"]
WANT_FLOW = {
    "a": {("main", "foo"): 1, ("bar", "foo"): 19, ("foo", "bar"): 20},
    "b": {("main", "foo"): 1, ("foo", "foo"): 19, ("foo", "bar"): 1, ("bar", "bar"): 19},
}


def flow_edges(dot):
    """{(from function, to function): count} of thread 0's control-flow
    edges between FUNCTION regions in `ompsim-report flow` DOT text."""
    names = {}
    for m in re.finditer(r'^\s*(n\d+) \[label="[^"]*FUNCTION\\n[^"]*\(\'(\w+)\'\)', dot, re.M):
        names[m.group(1)] = m.group(2)
    edges = {}
    for m in re.finditer(r'^\s*(n\d+) -> (n\d+) \[label="([^"]*)"', dot, re.M):
        a, b, label = m.groups()
        if a in names and b in names:
            threads, count = label.split("|")
            if threads == "0":
                edges[(names[a], names[b])] = int(count.replace(",", ""))
    return edges


def function_row(regions_text, name):
    """{column: value} of thread 0 in the flat-profile table of FUNCTION
    region NAME in `ompsim-report regions` text."""
    lines = regions_text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("R0") and line.endswith("('%s') FUNCTION" % name):
            cols = lines[i + 1].split()
            row = lines[i + 3].split()
            return dict(zip(cols[1:], (int(x.replace(",", "")) for x in row[1:])))
    raise SystemExit("FAIL: no FUNCTION region %s in:\n%s" % (name, regions_text))


def experiment(g):
    bar_time = {}
    for version, name in (("a", "report"), ("b", "version_b")):
        doc = g.run(name, "control_flow", args=[version], options=MACHINE)
        regions = g.ompsim_report("regions", doc)
        foo_row, bar_row = function_row(regions, "foo"), function_row(regions, "bar")
        g.equal((foo_row["execC"], bar_row["execC"]), (20, 20),
                "version %s: foo and bar entered (execC): the same profile in both versions" % version)
        bar_time[version] = bar_row["execT"]
        edges = flow_edges(g.ompsim_report("flow", doc, "--format=dot"))
        g.equal(edges, WANT_FLOW[version], "version %s: control-flow edges between main, foo, bar" % version)
        j = g.export(doc)
        bar_misses = 0 if version == "a" else LINES
        foo = g.line_costs(j, "control_flow.c", "/* FOO */")
        bar = g.line_costs(j, "control_flow.c", "/* BAR */")
        g.equal((foo.get("Dr"), foo.get("D1mr")), (LOADS, LINES), "version %s: foo's loop: Dr, D1mr" % version)
        g.equal((bar.get("Dr"), bar.get("D1mr")), (LOADS, bar_misses), "version %s: bar's loop: Dr, D1mr" % version)
        items = {s["name"]: s["costs"] for s in j["data_structures"]["structures"]}["items"]
        g.equal((items["Dr"], items["D1mr"], items["D2mr"]), (2 * LOADS, LINES + bar_misses, LINES),
                "version %s: items: Dr, D1mr, D2mr" % version)
    g.equal(bar_time["b"] - bar_time["a"], LINES * L2_LATENCY,
            "bar's execT, version b - version a (160 L2 hits x 12 cycles)")
