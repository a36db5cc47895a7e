"""How sure a bench verdict is: an interval for a ratio of median times.

The acceptance bounds of issue 8 are read on ratios of medians (ompsim's
median time over Cachegrind's). On a noisy host one run of the suite moves
such a ratio by 10 % or more (containers, A1: 0.90x in one run, 1.09x in the
next, the same tool), so the driver also reports how far the ratio could be
from the one measured: a percentile bootstrap over the suite's rounds.

Rounds, not runs, are resampled. Round i runs every configuration once, in
turn (bench/run.py, rounds()), so a slow phase of the host that lasts a round
slows both sides of a ratio; resampling the rounds keeps each configuration's
run with the Cachegrind run of its round, and that shared slowdown cancels.
A configuration that is always the same multiple of Cachegrind round by round
gets a zero-width interval, however much the host drifted between rounds.

The resampling uses its own seeded generator, so the same times always give
the same interval, in results.json and in the tables alike.
"""

import random
import statistics

# Resamples per interval. With 5 rounds the ends are the same for every
# seed (they are rounds' own ratios); with 11 they moved by up to 0.04x
# over 20 seeds on this project's runs (matmul, omp_tasks: the medians of
# resamples take few values). The seed is fixed, so the same times always
# give the same interval; a ratio whose interval ends within a few
# hundredths of a bound is undecided in any case.
RESAMPLES = 4000
LEVEL = 0.95
SEED = 20261128


def ratio_interval(times, reference, level=LEVEL, resamples=RESAMPLES, seed=SEED):
    """(low, high): the central `level` interval of median(times) /
    median(reference) over `resamples` resamples of the rounds. times[i] and
    reference[i] were measured in the same round. None when there are fewer
    than 3 rounds (too few to say anything) or a reference time is not
    positive."""
    n = len(times)
    if n != len(reference):
        raise ValueError("times and reference need one entry per round (%d and %d)" % (n, len(reference)))
    if not 0 < level < 1:
        raise ValueError("level must lie between 0 and 1, not %r" % level)
    if n < 3 or min(reference) <= 0:
        return None
    rng = random.Random(seed)
    ratios = []
    for _ in range(resamples):
        pick = [rng.randrange(n) for _ in range(n)]
        ratios.append(statistics.median(times[i] for i in pick) /
                      statistics.median(reference[i] for i in pick))
    ratios.sort()
    tail = (1 - level) / 2
    lo = ratios[int(tail * (resamples - 1))]
    hi = ratios[int(round((1 - tail) * (resamples - 1)))]
    return (round(lo, 3), round(hi, 3))


def verdict(interval, bound, strict=False):
    """What the interval says about `ratio <= bound` (`ratio < bound` when
    strict): "holds" when the whole interval is within the bound, "fails"
    when none of it is, "undecided" when the bound lies inside it, None
    without an interval."""
    if interval is None:
        return None
    lo, hi = interval
    inside = (lambda v: v < bound) if strict else (lambda v: v <= bound)
    if inside(hi):
        return "holds"
    if not inside(lo):
        return "fails"
    return "undecided"
