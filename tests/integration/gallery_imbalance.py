"""Gallery 07, load imbalance and what-if (examples/gallery/07-load-imbalance):
imbalance static and imbalance dynamic (clang -fopenmp, num_threads(4)),
each run with --ospg-work=instructions (work in instructions: independent
of the caches) and --ospg-log for ompsim-report whatif.

Work is counted in units of UNIT = 1,000 iterations of spin(), a loop of a
fixed number of instructions: S = 64 units of serial set-up (the what-if
region 'setup'), then 32 iterations, iteration i doing i + 1 units: 528.
  static: thread t runs iterations 8t .. 8t+7: 64t + 36 units: 36, 100,
    164, 228. The loop's span is the largest share: parallelism
    528 / 228 = 2.316; the program's (64 + 528) / (64 + 228) = 2.027.
    Every thread waits at the loop's barrier for thread 3: exitBarT of
    threads 0..3 = 192, 128, 64, 0 units (228 - share).
  dynamic, chunk 1: each iteration a P node: the loop's span is the largest
    iteration, 32 units: 528 / 32 = 16.5; the program's 592 / 96 = 6.167.
    The replay hands each iteration, in order, to the thread that is free
    first in simulated time (docs/openmp.md): greedy list scheduling of
    1, 2, ..., 32 on 4 threads (computed below) ends at 120, 128, 136 and
    144 units: the loop takes 144 units, 228 / 144 = 1.583 times less than
    with static blocks, and the threads wait 24, 16, 8, 0 units.
  what-if --region setup:4 divides the set-up's serial work by 4:
    static 592 / (16 + 228) = 2.426; dynamic 592 / (16 + 32) = 12.33.
Tolerance 2 % (as tests/integration/ospg_closed.py): the closed forms count
spin()'s iterations only; the calls, loop control and runtime glue on the
critical path add about 0.5 % here. Times (exitBarT, execT) are simulated
cycles; a unit's cycles are taken from thread 3's static share (bodyT of
the loop / 228)."""
import heapq
import re

S = 64
N = 32
T = 4
OPTIONS = ["--ospg-work=instructions"]
TOLERANCE = 0.02


def static_shares():
    block = N // T
    return [sum(i + 1 for i in range(block * t, block * (t + 1))) for t in range(T)]


def greedy_finish():
    """Finishing times of the threads when chunks 1, 2, ..., N (units) go in
    order to the thread that is free first."""
    free = [(0, t) for t in range(T)]
    for size in range(1, N + 1):
        at, t = heapq.heappop(free)
        heapq.heappush(free, (at + size, t))
    return sorted(at for at, _ in free)


def work_span(text):
    """(work, span) of the program in `parallelism`/`whatif` text (the
    first Work: and Span: lines after the last profile heading)."""
    part = text.split("-- What-if profile")[-1]
    w = re.search(r"^Work:\s+([0-9,]+)", part, re.M)
    s = re.search(r"^Span:\s+([0-9,]+)", part, re.M)
    return int(w.group(1).replace(",", "")), int(s.group(1).replace(",", ""))


def directive(text, kind):
    """(work, span) of the directive row of type KIND (e.g. LOOP)."""
    for line in text.splitlines():
        f = line.split()
        if len(f) > 5 and f[1] == kind and f[0].startswith("R0"):
            return int(f[-4].replace(",", "")), int(f[-3].replace(",", ""))
    raise SystemExit("FAIL: no %s directive in:\n%s" % (kind, text))


def flat_table(text, kind):
    """{thread: {column: value}} of the flat-profile table of the region of
    type KIND in `ompsim-report regions` text."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("R0") and line.split()[-1] == kind:
            cols = lines[i + 1].split()
            rows = {}
            for row in lines[i + 3:]:
                f = row.split()
                if not f or f[0] == "SUM":
                    return rows
                rows[int(f[0])] = dict(zip(cols[1:], (int(x.replace(",", "")) for x in f[1:])))
    raise SystemExit("FAIL: no %s table in:\n%s" % (kind, text))


def experiment(g):
    shares = static_shares()
    finish = greedy_finish()
    loop_work = sum(shares)
    g.equal(shares, [36, 100, 164, 228], "static shares (units; closed form 64t + 36)")
    g.equal(finish, [120, 128, 136, 144], "greedy finishing times of the dynamic loop (units)")
    docs, logs = {}, {}
    for name, mode in (("report", "static"), ("dynamic", "dynamic")):
        logs[mode] = g.outdir + "/" + name + ".log"
        docs[mode] = g.run(name, "imbalance", args=[mode], options=OPTIONS + ["--ospg-log=" + logs[mode]])
    par = {m: g.ompsim_report("parallelism", docs[m]) for m in docs}
    regions = {m: flat_table(g.ompsim_report("regions", docs[m]), "LOOP") for m in docs}

    # The parallelism profile: closed forms.
    span_static, span_dynamic = max(shares), N
    for mode, span in (("static", span_static), ("dynamic", span_dynamic)):
        w, s = directive(par[mode], "LOOP")
        g.near(w / s, loop_work / span, TOLERANCE, "%s: the loop's parallelism (528 / %d)" % (mode, span))
        w, s = work_span(par[mode])
        g.near(w / s, (S + loop_work) / (S + span), TOLERANCE,
               "%s: the program's parallelism (592 / (64 + %d))" % (mode, span))

    # ompP's view: who waits how long at the loop's barrier, in units.
    unit = regions["static"][T - 1]["bodyT"] / max(shares)
    waits = [regions["static"][t]["exitBarT"] / unit for t in range(T)]
    for t in range(T):
        g.check(abs(waits[t] - (max(shares) - shares[t])) <= TOLERANCE * max(shares),
                "static: thread %d waits %.1f units at the loop's barrier (derived %d)" % (t, waits[t], max(shares) - shares[t]))
    waits = sorted(regions["dynamic"][t]["exitBarT"] / unit for t in range(T))
    want = sorted(max(finish) - f for f in finish)
    g.check(all(abs(a - b) <= TOLERANCE * max(finish) for a, b in zip(waits, want)),
            "dynamic: the waits at the loop's barrier %s units (derived %s)" % (["%.1f" % x for x in waits], want))
    # The measured speed-up of balancing: the loop's time, static / dynamic.
    time = {m: max(r["execT"] for r in regions[m].values()) for m in regions}
    g.near(time["static"] / time["dynamic"], max(shares) / max(finish), TOLERANCE,
           "the loop's time, static / dynamic (228 / 144)")

    # What-if: the set-up 4 times faster.
    for mode, span in (("static", span_static), ("dynamic", span_dynamic)):
        w, s = work_span(g.ompsim_report("whatif", logs[mode], "--region", "setup:4"))
        g.near(w / s, (S + loop_work) / (S / 4 + span), TOLERANCE,
               "%s: what-if setup:4, the program's parallelism (592 / (16 + %d))" % (mode, span))
