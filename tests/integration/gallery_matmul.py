"""Gallery 04, loop interchange and tiling (examples/gallery/04-matmul):
one run of matmul (N = 64 doubles, a row of B is 512 B = 8 lines, B is
512 lines) with a fully associative 4 KiB D1 of 64 lines, LRU
(--machine=teaching --D1=4096,full,64: no conflicts, only capacity), only
the three products simulated (--collect-atstart=no).

Each version reads its own B (b_ijk, b_ikj, b_tiled): N^3 = 262,144 loads.
In a fully associative LRU cache of 64 lines a load hits exactly when
fewer than 64 other distinct lines were touched since the last touch of
its line (its reuse distance < 64). Stale lines of an earlier version are
never touched again and do not change any distance.
  ijk: B[k][j] for k = 0..63 (a column: 64 lines), then B[k][j+1] on the
    same line (j mod 8 < 7): since the last touch of B[k][j]'s line, the 63
    other lines of the column and the 8 lines of A's row i: 71 >= 64.
    Every load misses: N^3 = 262,144.
  ikj: B[k][0..63] (a row: 8 lines, each read 8 times in a row), the rows
    k = 0..63 in turn for every i: a line is reused 7 times at once (hit)
    and next for row i + 1, after all 512 lines of B: miss. N^3 / 8 =
    32,768 misses: the interchange divides them by 8 = line / element.
  tiled (T = 16): for each 16 x 16 tile of B (16 rows x 2 lines = 32
    lines), every row i of A runs over the whole tile: between two touches
    of a tile line, at most the 31 other tile lines and the 2 lines each of
    A and of C in rows i and i + 1: 39 < 64, a hit. Each line of B misses once,
    when its tile starts: N^2 / 8 = 512, the compulsory misses, the bound
    no loop order can beat."""

N = 64
MACHINE = ["--machine=teaching", "--D1=4096,full,64"]


def experiment(g):
    doc = g.run("report", "matmul", options=MACHINE + ["--collect-atstart=no", "--monitor=yes"] + g.classify_options())
    ds = g.structures(doc)
    want = {"b_ijk": N ** 3, "b_ikj": N ** 3 // 8, "b_tiled": N * N // 8}
    for name, misses in want.items():
        c = ds[name]["costs"]
        g.equal(c["Dr"], N ** 3, "%s: Dr" % name)
        g.equal(c["D1mr"], misses, "%s: D1mr" % name)
    g.equal(ds["b_ijk"]["costs"]["D1mr"] // ds["b_ikj"]["costs"]["D1mr"], 8,
            "interchange: b_ijk's D1 misses / b_ikj's (64-byte line / 8-byte double)")
    # 3C: the first touch of each of B's 512 lines is compulsory; in a fully
    # associative D1 the classifier's shadow (a fully associative LRU cache
    # of the same size) is the cache itself, so every other miss is a
    # capacity miss and none a conflict miss.
    for name, misses in want.items():
        k = g.structure_classes(ds[name])
        g.check(k is not None, "%s: miss classes in the document" % name)
        if k is not None:
            k = k["D1"]
            g.equal((k["compulsory"], k["capacity"], k["conflict"]), (N * N // 8, misses - N * N // 8, 0),
                    "%s: D1 misses (compulsory, capacity, conflict)" % name)
