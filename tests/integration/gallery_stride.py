"""Gallery 01, access stride (examples/gallery/01-stride): one run of
stride on the teaching machine (D1 4 KiB 2-way, L2 64 KiB 8-way, 64-byte
lines), only the walks simulated (--collect-atstart=no: empty caches).

Each walk reads N = 1024 ints (4 B), element i * s of array stride<s>,
which is line aligned. A 64-byte line holds 16 ints, so the walk touches
N * s * 4 / 64 lines when s * 4 < 64 (16 / s loads per line) and N lines
(one load per line) from s = 16 on. No line is read twice, so each touched
line misses exactly once in D1 and once in L2, whatever their size:
    s      1    2    4    8    16    32
    lines  64  128  256  512  1024  1024
and every array has Dr = N reads, no writes."""

N = 1024


def lines_touched(s):
    return N * s * 4 // 64 if s * 4 < 64 else N


def experiment(g):
    doc = g.run("report", "stride", options=["--machine=teaching", "--collect-atstart=no", "--monitor=yes"])
    ds = g.structures(doc)
    for s in (1, 2, 4, 8, 16, 32):
        c = ds["stride%d" % s]["costs"]
        g.equal(c["Dr"], N, "stride%d: Dr" % s)
        g.equal(c["Dw"], 0, "stride%d: Dw" % s)
        g.equal(c["D1mr"], lines_touched(s), "stride%d: D1mr" % s)
        g.equal(c["D2mr"], lines_touched(s), "stride%d: D2mr" % s)
    # The point of the experiment: from 1 to 16, doubling the stride doubles
    # the misses of the same number of loads; beyond a line it cannot grow.
    for s in (1, 2, 4, 8):
        g.equal(ds["stride%d" % (2 * s)]["costs"]["D1mr"], 2 * ds["stride%d" % s]["costs"]["D1mr"],
                "stride%d: D1mr, twice stride%d's" % (2 * s, s))
