#!/usr/bin/env python3
"""The bench's intervals (bench/intervals.py) and the verdicts run.py draws
from them, on times whose intervals follow by reasoning.

usage: bench_intervals.py SRCDIR
"""
import os
import sys

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.join(sys.argv[1], "bench"))
import intervals  # noqa: E402
import run  # noqa: E402

failures = []


def check(what, got, want):
    if got != want:
        failures.append("%s: got %r, want %r" % (what, got, want))


# A tool that is 1.1 times Cachegrind in every round, on a host whose speed
# changes threefold between rounds: every resample has the same rounds on
# both sides, and a median scales (the mean of the two middle values too),
# so every resampled ratio is 1.1 and the interval has no width.
cg = [3.0, 5.5, 4.1, 9.0, 3.3]
tool = [1.1 * t for t in cg]
iv = intervals.ratio_interval(tool, cg)
check("paired rounds, constant ratio", iv, (1.1, 1.1))
check("1.1x against <= 1.0", intervals.verdict(iv, 1.0), "fails")
check("1.1x against <= 1.2", intervals.verdict(iv, 1.2), "holds")
# The same with 6 rounds (even: medians of two middle values).
cg6 = cg + [7.7]
check("paired rounds, 6 of them", intervals.ratio_interval([1.1 * t for t in cg6], cg6), (1.1, 1.1))

# Identical times: ratio 1.0, within "<= 1.0" and not within A4's "< 1.0".
same = [2.0, 2.5, 2.2]
iv = intervals.ratio_interval(same, same)
check("identical times", iv, (1.0, 1.0))
check("1.0 against <= 1.0", intervals.verdict(iv, 1.0), "holds")
check("1.0 against < 1.0 (strict)", intervals.verdict(iv, 1.0, strict=True), "fails")

# Cachegrind steady at 1 s, the tool 0.8 to 1.2 s. A resample's median is
# 0.8 when at least 3 of its 5 picks are the 0.8 round: probability
# 10 * 0.2^3 * 0.8^2 + 5 * 0.2^4 * 0.8 + 0.2^5 = 0.058, more than the 2.5 %
# tail, so the interval's ends are the extreme rounds, and the bound 1.0
# lies inside it.
iv = intervals.ratio_interval([0.9, 1.0, 1.1, 1.2, 0.8], [1.0] * 5)
check("spread of 0.8 to 1.2", iv, (0.8, 1.2))
check("0.8-1.2 against <= 1.0", intervals.verdict(iv, 1.0), "undecided")
check("0.8-1.2 against <= 1.25", intervals.verdict(iv, 1.25), "holds")
check("0.8-1.2 against <= 0.75", intervals.verdict(iv, 0.75), "fails")

# The same times give the same interval (a seeded generator of its own).
check("repeatable", intervals.ratio_interval([1.3, 0.9, 1.7, 1.1], [1.0, 1.2, 0.8, 1.1]),
      intervals.ratio_interval([1.3, 0.9, 1.7, 1.1], [1.0, 1.2, 0.8, 1.1]))

# Too few rounds to say anything, and input that is wrong.
check("2 rounds", intervals.ratio_interval([1.0, 2.0], [1.0, 2.0]), None)
check("no interval, no verdict", intervals.verdict(None, 1.0), None)
check("a zero reference time", intervals.ratio_interval([1.0, 1.0, 1.0], [1.0, 0.0, 1.0]), None)
try:
    intervals.ratio_interval([1.0, 1.0, 1.0], [1.0, 1.0])
    failures.append("rounds of different lengths: no ValueError")
except ValueError:
    pass

# A bound's verdict over its benchmarks (run.py).
holds = {"benchmark": "a", "value": 0.9, "pass": True, "interval": (0.85, 0.95), "verdict": "holds"}
around = {"benchmark": "b", "value": 0.98, "pass": True, "interval": (0.9, 1.1), "verdict": "undecided"}
beyond = {"benchmark": "c", "value": 1.3, "pass": False, "interval": (1.2, 1.4), "verdict": "fails"}
failed = dict(holds, why="failed runs", **{"pass": False})
bare = {"benchmark": "d", "value": 0.9, "pass": True}
check("all within", run.noise_verdict([holds, dict(holds)]), "holds")
check("one around the bound", run.noise_verdict([holds, around]), "undecided")
check("one beyond", run.noise_verdict([around, beyond]), "fails")
check("a failed run", run.noise_verdict([failed]), "fails")
check("a row without an interval", run.noise_verdict([holds, bare]), None)
check("a row's cell", run.fmt_row(around), "b 0.98 [0.90-1.10]")
check("a failed row's cell", run.fmt_row(failed), "a 0.90 [0.85-0.95] (failed runs)")

for f in failures:
    print("FAIL " + f)
if failures:
    sys.exit(1)
print("bench intervals: all checks passed")
