"""Gallery 03, associativity conflicts and padding
(examples/gallery/03-associativity): one run of assoc on the teaching
machine with its caches written out, --D1=4096,2,64 (32 sets, a way of
2 KiB) and --L2=64K,8,64 (128 sets, a way of 8 KiB); only the two walks
simulated (--collect-atstart=no: empty caches).

Each walk reads COLS = 8 columns of ROWS = 32 rows, column by column:
256 loads, on 32 lines (row i, doubles 0-7), each line read 8 times (once
per column), first in column 0.
  unpadded, rows 4096 B = 64 lines apart: line n_i = n_0 + 64 i.
    D1 set (n_0 + 64 i) mod 32 = n_0 mod 32: all 32 lines in ONE 2-way set,
    read in the same cyclic order 8 times: LRU always evicts the line that
    comes back next: all 256 loads miss.
    L2 set (n_0 + 64 i) mod 128: two sets, 16 lines each, 8 ways: the same
    cycle, all 256 D1 misses miss L2 too.
  padded, rows 4160 B = 65 lines apart: line n_0 + 65 i, D1 set
    (n_0 + i) mod 32 (65 = 1 mod 32): 32 different sets, one line each;
    L2 set (n_0 + 65 i) mod 128: 32 different sets. Each line misses once,
    in column 0, and the 7 later columns hit: 32 misses in D1 and in L2.
So padding one line per row turns 256 misses into 32, with the same loads
and a 2 KiB working set that fits the 4 KiB D1 either way.
With --classify-misses=yes: unpadded, D1: 32
compulsory, 0 capacity (32 lines fit a fully associative LRU D1 of 64
lines: it would hit every re-read), 224 conflict; L2 likewise (32 lines in
a fully associative L2 of 1024 lines): 32, 0, 224. Padded: 32 compulsory,
nothing else, at both levels."""

LOADS = 256
LINES = 32
MACHINE = ["--machine=teaching", "--D1=4096,2,64", "--L2=64K,8,64"]


def experiment(g):
    doc = g.run("report", "assoc", options=MACHINE + ["--collect-atstart=no", "--monitor=yes"] + g.classify_options())
    ds = g.structures(doc)
    want = {"unpadded": (LOADS, LOADS, LOADS), "padded": (LOADS, LINES, LINES)}
    for name, (dr, d1, d2) in want.items():
        c = ds[name]["costs"]
        g.equal((c["Dr"], c["D1mr"], c["D2mr"]), (dr, d1, d2), "%s: Dr, D1mr, D2mr" % name)
    classes = {name: g.structure_classes(ds[name]) for name in want}
    g.check(None not in classes.values(), "miss classes in the document")
    if None not in classes.values():
        for level in ("D1", "D2"):
            k = classes["unpadded"][level]
            g.equal((k["compulsory"], k["capacity"], k["conflict"], k["coherence"]), (LINES, 0, LOADS - LINES, 0),
                    "unpadded: %s (compulsory, capacity, conflict, coherence)" % level)
            k = classes["padded"][level]
            g.equal((k["compulsory"], k["capacity"], k["conflict"], k["coherence"]), (LINES, 0, 0, 0),
                    "padded: %s (compulsory, capacity, conflict, coherence): padding removed every conflict miss" % level)
