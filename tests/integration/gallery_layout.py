"""Gallery 05, array of structures versus structure of arrays
(examples/gallery/05-aos-soa): one run of layout on the teaching machine
(D1 4 KiB, L2 64 KiB, 64-byte lines), only the two loops simulated
(--collect-atstart=no: empty caches).

N = 1024 particles; each loop reads m and x of every particle once (the
compiler loads m once per particle): 2 N = 2048 loads per layout.
  aos: struct particle is 8 doubles = one line, line aligned: the two
    loads of particle i are on line i: N = 1024 lines, 1024 misses; 16 of
    every 64 bytes fetched are used.
  soa: soa_m[i], soa_x[i]: 8 doubles per line, N / 8 = 128 lines each:
    128 misses each, 256 in all: a quarter of aos's.
No line is read twice, so L2 misses the same lines once each too. soa_y
and soa_z are never read: the monitor lists no counts for them (or
zeros)."""

N = 1024


def experiment(g):
    doc = g.run("report", "layout", options=["--machine=teaching", "--collect-atstart=no", "--monitor=yes"])
    ds = g.structures(doc)
    want = {"aos": (2 * N, N), "soa_x": (N, N // 8), "soa_m": (N, N // 8)}
    for name, (dr, lines) in want.items():
        c = ds[name]["costs"]
        g.equal((c["Dr"], c["D1mr"], c["D2mr"]), (dr, lines, lines), "%s: Dr, D1mr, D2mr" % name)
    for name in ("soa_y", "soa_z"):
        c = ds[name]["costs"] if name in ds else {}
        g.equal(c.get("Dr", 0), 0, "%s: Dr (never read)" % name)
    aos = ds["aos"]["costs"]["D1mr"]
    soa = ds["soa_x"]["costs"]["D1mr"] + ds["soa_m"]["costs"]["D1mr"]
    g.equal(aos, 4 * soa, "aos's D1 misses, 4 x soa_x's + soa_m's (2 of 8 fields used)")
