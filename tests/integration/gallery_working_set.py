"""Gallery 02, working-set size (examples/gallery/02-working-set): one run
of working_set on a three-level machine given explicitly,
    --machine=teaching --D1=4K,2,64 --L2=32K,8,64 --L3=256K,8,64
(LRU, write-back; 64-byte lines), only the passes simulated
(--collect-atstart=no: empty caches).

Array ws_<size> is read PASSES = 8 times from start to end, one load per
line: L = size / 64 lines, Dr = 8 L. At a cache of C bytes:
  - size <= C / 2: the L lines spread evenly over the sets (consecutive
    lines go to consecutive sets) and take at most half of each set's ways,
    so nothing evicts them between passes: only the first pass misses, L
    misses, a miss ratio of 1/8 of the loads;
  - size >= 2 C: every set gets at least twice as many of the array's
    lines as it has ways, in the same cyclic order each pass; LRU always
    evicts the line that comes back next, so every load misses, 8 L, a
    miss ratio of 1.
Reads only, so nothing is written back, and a level sees exactly the
misses of the level above (non-inclusive hierarchy). Hence, per array,
misses at (D1, L2, L3):
    1K, 2K      L,   L,   L      fits in D1 (4 KiB)
    8K, 16K     8L,  L,   L      fits in L2 (32 KiB)
    64K, 128K   8L,  8L,  L      fits in L3 (256 KiB)
    512K, 1M    8L,  8L,  8L     fits nowhere
The miss ratio of each level steps from 1/8 to 1 at its capacity.
With --classify-misses=yes the misses of a level
are compulsory (L, the first pass) plus capacity (the rest): a fully
associative LRU cache of the same size misses the same way, so no miss of
these cyclic sweeps is a conflict miss."""

PASSES = 8
SIZES = [(1, "1k"), (2, "2k"), (8, "8k"), (16, "16k"), (64, "64k"), (128, "128k"), (512, "512k"), (1024, "1m")]
CAPACITY_KIB = {"D1": 4, "D2": 32, "D3": 256}
MACHINE = ["--machine=teaching", "--D1=4K,2,64", "--L2=32K,8,64", "--L3=256K,8,64"]


def experiment(g):
    doc = g.run("report", "working_set",
                options=MACHINE + ["--collect-atstart=no", "--monitor=yes"] + g.classify_options())
    ds = g.structures(doc)
    for kib, name in SIZES:
        s = ds["ws_" + name]
        c = s["costs"]
        lines = kib * 1024 // 64
        g.equal(c["Dr"], PASSES * lines, "ws_%s: Dr" % name)
        ratios = []
        for level, cap in CAPACITY_KIB.items():
            fits = 2 * kib <= cap
            want = lines if fits else PASSES * lines
            g.equal(c[level + "mr"], want, "ws_%s: %smr (%s %d KiB)" % (name, level, "fits in" if fits else "exceeds", cap))
            ratios.append(c[level + "mr"] / c["Dr"])
        print("      ws_%-5s miss ratios D1 %.3f  L2 %.3f  L3 %.3f" % (name, *ratios))
        classes = g.structure_classes(s)
        g.check(classes is not None, "ws_%s: miss classes in the document" % name)
        if classes is not None:
            for level in CAPACITY_KIB:
                k = classes.get(level)
                if k is None:
                    g.check(False, "ws_%s: no miss classes for %s" % (name, level))
                    continue
                g.equal((k["compulsory"], k["capacity"], k["conflict"]),
                        (lines, c[level + "mr"] - lines, 0),
                        "ws_%s: %s misses (compulsory, capacity, conflict)" % (name, level))
