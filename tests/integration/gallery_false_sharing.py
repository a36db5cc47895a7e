"""Gallery 06, false sharing and its fix (examples/gallery/06-false-sharing):
one run of false_sharing (2 threads, built with clang -fopenmp) on the
teaching machine (private 4 KiB D1 per core, shared L2, MESI), one core per
thread, the deterministic replay at its default quantum Q = 1,000
instructions (docs/openmp.md, "Replay").

Derivation:
  - thread t runs N = 4,000 increments of its counter, 5 instructions each
    (load, add, store, increment, compare-and-branch; checked below: the
    loop's line executes 2 x 5 x N instructions);
  - the loop starts p instructions into the thread's implicit task,
    0 < p < Q, so its accesses span turns 0 .. ceil((p + 5N) / Q) - 1 =
    0 .. 20: 21 turns, and the replay alternates the two threads turn by
    turn;
  - shared_line: both counters in one line. Between two turns of a thread
    the other writes the line, which invalidates this core's copy: the
    first access of each of turns 1 .. 20 misses, 20 coherence misses per
    thread, each on bytes the other thread never wrote: false sharing. At
    the end the initial thread reads shared_line[0] while the line is
    thread 1's (it ran the last turn): one more. 2 x 20 + 1 = 41, all
    false sharing;
  - own_lines: one counter per line: no line is written by two cores, and
    core 0 never held thread 1's line before reading it at the end (a cold
    miss, not a coherence miss): 0.
ompsim-report summary's finding says the same, and --classify-misses=yes
puts the 41 into the coherence class of D1."""

N = 4000
Q = 1000
T = 2
INSTR = 5


def experiment(g):
    doc = g.run("report", "false_sharing", options=["--machine=teaching", "--monitor=yes"] + g.classify_options())
    j = g.export(doc)
    g.equal(j["run"]["deterministic"], True, "deterministic replay")
    cycles = {}
    for marker in ("/* SHARED */", "/* PADDED */"):
        c = g.line_costs(j, "false_sharing.c", marker)
        g.equal(c.get("Ir"), T * INSTR * N, "the %s loop's instructions (%d threads x %d x N)" % (marker, T, INSTR))
        cycles[marker] = c.get("Cycles")
    # Same instructions; the shared line's loop also pays its coherence
    # misses (cache-to-cache transfers), which the padded loop has none of.
    g.check(cycles["/* SHARED */"] > cycles["/* PADDED */"],
            "the SHARED loop's cycles %s > the PADDED loop's %s" % (cycles["/* SHARED */"], cycles["/* PADDED */"]))
    turns = -(-(1 + INSTR * N) // Q)  # ceil((p + 5N) / Q) for 0 < p <= Q - (5N mod Q)
    expected = T * (turns - 1) + 1
    ds = {s["name"]: s["costs"] for s in j["data_structures"]["structures"]}
    g.equal((ds["shared_line"]["Dcm"], ds["shared_line"]["Dfs"]), (expected, expected),
            "shared_line: coherence and false-sharing misses")
    g.equal((ds["own_lines"]["Dcm"], ds["own_lines"]["Dfs"]), (0, 0), "own_lines: coherence and false-sharing misses")
    g.equal(j["coherence"]["coherence_misses"], expected, "coherence misses of the whole run (all shared_line's)")
    finding = "false sharing: shared_line %d false-sharing misses of %d coherence misses" % (expected, expected)
    g.check(finding in g.ompsim_report("summary", doc), "summary says: " + finding)
    # 3C plus coherence: a coherence miss is classified as such first.
    classes = g.structure_classes({"costs": ds["shared_line"]})
    g.check(classes is not None, "miss classes in the document")
    if classes is not None:
        g.equal(classes["D1"]["coherence"], expected, "shared_line: D1 misses of the coherence class")
        g.equal(g.structure_classes({"costs": ds["own_lines"]})["D1"]["coherence"], 0,
                "own_lines: D1 misses of the coherence class")
