#!/usr/bin/env python3
"""Checks a document's <region-profile> against figures derived by hand.

regions_check.py fig1a|fig1b|fig4 DOC
    The ompP paper's Figures 1 and 4 (tests/progs/flow_fig1.c, flow_fig4.c):
    the predecessor lists of the functions, exactly as the paper gives them.
regions_check.py user DOC
    tests/progs/user_regions.c: nested user regions in a serial program.
regions_check.py omp DOC SOURCE
    tests/progs/omp_regions.c run with OMP_NUM_THREADS=4 and every latency
    0 (a cycle is an instruction): the critical section's enter waits, the
    static loop's imbalance and the master construct's diverging flow
    (see the program's comment for the derivations).
regions_check.py ends DOC SOURCE
    tests/progs/omp_region_ends.c with OMP_NUM_THREADS=4: a critical section
    that thread 0 never enters and a single whose body another thread runs
    span their blocks, from the pragma to the last statement or the brace.
Every check also reads the document's <event-flow> (IPM's event flow
graph, default components): the transitions between region entries per
thread, derived from the programs' structure, and for every signature the
entries per thread equal execC of its node in the region profile (each
entry of a node is one event).
Prints one line per failed check and exits 1 if any failed."""
import re
import sys
import xml.etree.ElementTree as ET

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


class Profile:
    def __init__(self, path):
        root = ET.parse(path).getroot()
        rp = root.find("region-profile")
        if rp is None:
            sys.exit(f"{path}: no <region-profile>")
        self.columns = rp.get("columns").split()
        self.states = rp.get("states").split()
        self.events = rp.get("events").split()
        self.regions = {r.get("id"): r for r in rp.findall("region")}
        self.nodes = {}
        for n in rp.findall("node"):
            threads = {}
            for t in n.findall("thread"):
                threads[int(t.get("id"))] = {
                    "col": dict(zip(self.columns, map(int, t.get("columns").split()))),
                    "states": dict(zip(self.states, map(int, t.get("states").split()))),
                    "costs": dict(zip(self.events, map(int, t.get("costs").split()))),
                }
            preds = [(int(p.get("from")), int(p.get("thread")), int(p.get("count"))) for p in n.findall("pred")]
            self.nodes[int(n.get("id"))] = {"region": n.get("region"), "parent": n.get("parent"),
                                            "threads": threads, "preds": preds}

    def region_ids(self, **attrs):
        return [rid for rid, r in self.regions.items() if all(r.get(k) == v for k, v in attrs.items())]

    def node_of(self, **attrs):
        ids = self.region_ids(**attrs)
        nodes = [nid for nid, n in self.nodes.items() if n["region"] in ids]
        if len(nodes) != 1:
            sys.exit(f"expected one node for {attrs}, found {len(nodes)}")
        return nodes[0]

    def preds(self, node, thread=0):
        return {frm: c for frm, th, c in self.nodes[node]["preds"] if th == thread}


class Flow:
    """The <event-flow> of a document, signatures named by their node."""

    def __init__(self, path, profile):
        root = ET.parse(path).getroot()
        ef = root.find("event-flow")
        if ef is None:
            sys.exit(f"{path}: no <event-flow>")
        self.components = ef.get("components").split()
        callsites = {c.get("id"): int(c.get("node")) for c in ef.findall("callsite")}
        self.node = {}  # signature -> node (region entries)
        for sg in ef.findall("signature"):
            if sg.get("region") is not None:
                self.node[sg.get("id")] = callsites[sg.get("callsite")]
        self.node["S0"] = "START"
        self.edges = {}
        for e in ef.findall("edge"):
            key = (self.node[e.get("from")], self.node[e.get("to")], int(e.get("thread")))
            self.edges[key] = self.edges.get(key, 0) + int(e.get("count"))
        # Entries per (node, thread) against the region profile's execC.
        entries = {}
        for (frm, to, th), c in self.edges.items():
            entries[(to, th)] = entries.get((to, th), 0) + c
        execc = {(nid, th): t["col"]["execC"] for nid, n in profile.nodes.items() if nid
                 for th, t in n["threads"].items()}
        check(entries == execc, "event flow: every node's entries per thread are its execC")

    def of_thread(self, thread=0):
        return {(f, t): c for (f, t, th), c in self.edges.items() if th == thread}


def fig1(doc, version):
    p = Profile(doc)
    main, foo, bar = (p.node_of(type="FUNCTION", name=n) for n in ("main", "foo", "bar"))
    if version == "a":
        check(p.preds(foo) == {main: 1, bar: 19}, "Figure 1 A: foo's predecessors are main 1, bar 19")
        check(p.preds(bar) == {foo: 20}, "Figure 1 A: bar's predecessor is foo 20")
    else:
        check(p.preds(foo) == {main: 1, foo: 19}, "Figure 1 B: foo's predecessors are main 1, foo 19")
        check(p.preds(bar) == {foo: 1, bar: 19}, "Figure 1 B: bar's predecessors are foo 1, bar 19")
    for n, name in ((foo, "foo"), (bar, "bar")):
        check(p.nodes[n]["threads"][0]["col"]["execC"] == 20, f"{name} entered 20 times")
        check(p.nodes[n]["parent"] == str(main), f"{name} is called from main")
    f = Flow(doc, p)
    if version == "a":
        want = {("START", main): 1, (main, foo): 1, (foo, bar): 20, (bar, foo): 19}
    else:
        want = {("START", main): 1, (main, foo): 1, (foo, foo): 19, (foo, bar): 1, (bar, bar): 19}
    check(f.of_thread() == want, f"Figure 1 {version.upper()}: event flow transitions {want} by node")


def fig4(doc):
    p = Profile(doc)
    n = {f: p.node_of(type="FUNCTION", name=f) for f in ("P", "A", "B", "C", "X", "Y", "Z")}
    want = {"A": {n["P"]: 1, n["C"]: 4}, "X": {n["A"]: 5}, "Y": {n["X"]: 5}, "B": {n["A"]: 5},
            "C": {n["B"]: 5}, "Z": {n["C"]: 5}}
    for f, preds in want.items():
        shown = ", ".join(f"{k}:{v}" for k, v in preds.items())
        check(p.preds(n[f]) == preds, f"Figure 4: {f}'s predecessor list is ({shown}) by node id")
    # The event flow follows time, not nesting: Y is followed by B, Z by A.
    main = p.node_of(type="FUNCTION", name="main")
    want = {("START", main): 1, (main, n["P"]): 1, (n["P"], n["A"]): 1, (n["A"], n["X"]): 5, (n["X"], n["Y"]): 5,
            (n["Y"], n["B"]): 5, (n["B"], n["C"]): 5, (n["C"], n["Z"]): 5, (n["Z"], n["A"]): 4}
    check(Flow(doc, p).of_thread() == want, "Figure 4: event flow P A X Y B C Z A ... by node")


def user(doc):
    p = Profile(doc)
    Flow(doc, p)
    outer, inner = (p.node_of(type="REGION", name=n) for n in ("outer", "inner"))
    check(p.preds(outer) == {0: 1, outer: 2}, "user regions: outer is entered from the root once, after itself twice")
    check(p.preds(inner) == {outer: 3, inner: 3}, "user regions: inner is entered from outer 3 times, after itself 3 times")
    check(p.nodes[inner]["parent"] == str(outer), "user regions: inner nests in outer")
    check([p.nodes[n]["threads"][0]["col"]["execC"] for n in (outer, inner)] == [3, 6], "user regions: execC 3 and 6")
    check(not p.region_ids(name="never begun"), "user regions: an END that never began makes no region")


def marker_line(source, name):
    for i, line in enumerate(open(source), 1):
        if f"@{name} " in line or line.rstrip().endswith(f"@{name} */"):
            return i
    sys.exit(f"{source}: no marker @{name}")


def region_at(p, rtype, line):
    ids = [rid for rid, r in p.regions.items() if r.get("type") == rtype and int(r.get("first-line")) <= line <= int(r.get("last-line"))]
    if len(ids) != 1:
        sys.exit(f"expected one {rtype} region at line {line}, found {ids}")
    nodes = [nid for nid, n in p.nodes.items() if n["region"] == ids[0]]
    if len(nodes) != 1:
        sys.exit(f"expected one node of {ids[0]}, found {nodes}")
    return nodes[0]


def omp(doc, source):
    p = Profile(doc)
    threads = range(4)
    # Critical: all four threads ask at the same cycle (right after a
    # barrier); the lock goes in replay order 0, 1, 2, 3, so thread k waits
    # for the bodies of threads 0..k-1. With every latency 0 a body costs
    # its instructions: bodyT = Ir in the node.
    crit = p.nodes[region_at(p, "CRITICAL", marker_line(source, "critical"))]["threads"]
    bodies = [crit[k]["col"]["bodyT"] for k in threads]
    check(all(crit[k]["col"]["bodyT"] == crit[k]["costs"]["Ir"] for k in threads),
          f"critical: each body's cycles are its instructions ({bodies})")
    waits = [crit[k]["col"]["enterT"] for k in threads]
    check(waits == [sum(bodies[:k]) for k in threads],
          f"critical: thread k waits for the bodies of threads before it: enterT {waits}")
    check(all(crit[k]["states"]["critical-wait"] == waits[k] for k in threads),
          "critical: the waits are critical-wait cycles")
    # The imbalanced loop: iteration i costs c0 + c1 * i instructions;
    # thread k runs i = 100k .. 100k + 99, so consecutive threads differ by
    # c1 * 100 * 100 and all wait for thread 3 at the implicit barrier.
    loop = p.nodes[region_at(p, "LOOP", marker_line(source, "imbalanced"))]["threads"]
    body = [loop[k]["col"]["bodyT"] for k in threads]
    steps = [body[k + 1] - body[k] for k in range(3)]
    check(steps[0] > 0 and steps[0] % 10000 == 0 and steps == [steps[0]] * 3,
          f"loop: thread shares differ by c1 * 10000 each ({steps})")
    bars = [loop[k]["col"]["exitBarT"] for k in threads]
    check(bars == [body[3] - body[k] for k in threads], f"loop: exitBarT = slowest share - own share ({bars})")
    check(sum(bars) == 6 * steps[0], f"loop: imbalance = (3 + 2 + 1) * c1 * 10000 = {6 * steps[0]}")
    # Figure 8: three runs of the region; thread 0 goes loop -> master -> loop,
    # the others loop -> loop.
    loops = [region_at(p, "LOOP", marker_line(source, f"loop{j}")) for j in (1, 2, 3)]
    masters = [region_at(p, "MASTER", marker_line(source, f"master{j}")) for j in (1, 2, 3)]
    par = int(p.nodes[loops[0]]["parent"])
    for k in threads:
        check(p.preds(loops[0], k) == {par: 3}, f"Figure 8: thread {k} enters loop1 from the parallel region 3 times")
    for j in (1, 2):
        check(p.preds(loops[j], 0) == {masters[j - 1]: 3}, f"Figure 8: thread 0 enters loop{j + 1} from master{j}")
        for k in (1, 2, 3):
            check(p.preds(loops[j], k) == {loops[j - 1]: 3}, f"Figure 8: thread {k} enters loop{j + 1} from loop{j}")
    for j in range(3):
        check(p.preds(masters[j], 0) == {loops[j]: 3}, f"Figure 8: master{j + 1} follows loop{j + 1} on thread 0")
        check(set(p.nodes[masters[j]]["threads"]) == {0}, f"Figure 8: only thread 0 runs master{j + 1}")
    # The same divergence in the event flow: thread 0 goes loop -> master ->
    # loop, the others loop -> loop; the region's second and third runs
    # follow the last construct of the run before.
    f = Flow(doc, p)
    for k in threads:
        got = f.of_thread(k)
        if k == 0:
            want = {(loops[j], masters[j]): 3 for j in range(3)}
            want.update({(masters[j], loops[j + 1]): 3 for j in range(2)})
            want[(masters[2], par)] = 2
        else:
            want = {(loops[j], loops[j + 1]): 3 for j in range(2)}
            want[(loops[2], par)] = 2
        want[(par, loops[0])] = 3
        mine = {key: c for key, c in got.items() if key[0] in loops + masters + [par]}
        check(mine == want, f"Figure 8: thread {k}'s event flow through the loops and masters")


def ends(doc, source):
    p = Profile(doc)
    for rtype, name in (("CRITICAL", "critical"), ("SINGLE", "single")):
        begin = marker_line(source, name + "-begin")
        lo, hi = marker_line(source, name + "-last"), marker_line(source, name + "-end")
        ids = [rid for rid, r in p.regions.items() if r.get("type") == rtype]
        if len(ids) != 1:
            check(False, f"{name}: one {rtype} region (found {ids})")
            continue
        r = p.regions[ids[0]]
        first, last = int(r.get("first-line")), int(r.get("last-line"))
        check(first == begin and lo <= last <= hi,
              f"{name}: lines {first}-{last}, from {begin} to {lo} or up to {hi}")
    Flow(doc, p)


if __name__ == "__main__":
    what, doc = sys.argv[1], sys.argv[2]
    if what in ("fig1a", "fig1b"):
        fig1(doc, what[-1])
    elif what == "user":
        user(doc)
    elif what == "fig4":
        fig4(doc)
    elif what == "omp":
        omp(doc, sys.argv[3])
    elif what == "ends":
        ends(doc, sys.argv[3])
    else:
        sys.exit(f"unknown check {what}")
    sys.exit(1 if failures else 0)
