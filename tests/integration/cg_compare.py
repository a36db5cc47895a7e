#!/usr/bin/env python3
"""Compare two Cachegrind-format output files for exact cost equality.

Usage: cg_compare.py [--zero-as-absent] A B

Accepted format (as written by Valgrind 3.19 Cachegrind):
    desc: ...            (any number; ignored)
    cmd: ...             (ignored)
    events: E1 E2 ...    (exactly one, before any cost line)
    positions: line      (optional; only "line" is supported)
    fl=FILE              (starts a file; resets the current function)
    fn=NAME              (function within the current file)
    LINE n1 n2 ...       (cost line; fewer counts than events = trailing zeros)
    summary: n1 n2 ...   (exactly one, one count per event)
Blank lines and lines starting with '#' are skipped.

Checks: the event lists are equal, the summary lines are equal, and the costs
aggregated per (file, function, line) are equal (a key appearing several
times in one file is summed; record order is irrelevant).  A key present in
only one file is a difference even if its costs are all zero, unless
--zero-as-absent is given.

Exit status: 0 identical, 1 different, 2 usage error / unreadable / malformed
input (with a one-line message on stderr).
"""

import signal
import sys

MAX_DIFFS = 20


class Malformed(Exception):
    pass


class Profile:
    def __init__(self, path):
        self.path = path
        self.events = None          # list of event names
        self.summary = None         # list of ints
        self.summary_text = None    # original summary line (stripped)
        self.costs = {}             # (fl, fn, line) -> list of ints
        self.cost_lines = 0         # number of cost lines read


def parse(path):
    prof = Profile(path)
    try:
        f = open(path, "r", encoding="utf-8", errors="surrogateescape")
    except OSError as e:
        raise Malformed("cannot read %s: %s" % (path, e.strerror or e))
    fl = None
    fn = None
    try:
        with f:
            for lineno, raw in enumerate(f, 1):
                line = raw.rstrip("\r\n")
                where = "%s:%d" % (path, lineno)
                stripped = line.strip()
                if not stripped or stripped.startswith("#"):
                    continue
                if line.startswith("desc:") or line.startswith("cmd:"):
                    continue
                if line.startswith("events:"):
                    if prof.events is not None:
                        raise Malformed("%s: duplicate events: line" % where)
                    prof.events = line[len("events:"):].split()
                    if not prof.events:
                        raise Malformed("%s: empty events: line" % where)
                    if len(set(prof.events)) != len(prof.events):
                        raise Malformed("%s: repeated event name" % where)
                    continue
                if line.startswith("positions:"):
                    if line[len("positions:"):].split() != ["line"]:
                        raise Malformed("%s: unsupported positions: line" % where)
                    continue
                if line.startswith("summary:"):
                    if prof.summary is not None:
                        raise Malformed("%s: duplicate summary: line" % where)
                    if prof.events is None:
                        raise Malformed("%s: summary: before events:" % where)
                    prof.summary = parse_counts(
                        line[len("summary:"):].split(), where)
                    if len(prof.summary) != len(prof.events):
                        raise Malformed(
                            "%s: summary has %d counts, events: has %d"
                            % (where, len(prof.summary), len(prof.events)))
                    prof.summary_text = line.strip()
                    continue
                if line.startswith("fl="):
                    fl = line[3:]
                    fn = None
                    continue
                if line.startswith("fn="):
                    if fl is None:
                        raise Malformed("%s: fn= before any fl=" % where)
                    fn = line[3:]
                    continue
                if line[0].isdigit():
                    if prof.events is None:
                        raise Malformed("%s: cost line before events:" % where)
                    if prof.summary is not None:
                        raise Malformed("%s: cost line after summary:" % where)
                    if fl is None or fn is None:
                        raise Malformed("%s: cost line outside fl=/fn=" % where)
                    parts = line.split()
                    lno = parse_counts(parts[:1], where)[0]
                    counts = parse_counts(parts[1:], where)
                    n = len(prof.events)
                    if len(counts) > n:
                        raise Malformed("%s: %d counts for %d events"
                                        % (where, len(counts), n))
                    key = (fl, fn, lno)
                    acc = prof.costs.get(key)
                    if acc is None:
                        acc = [0] * n
                        prof.costs[key] = acc
                    for i, c in enumerate(counts):
                        acc[i] += c
                    prof.cost_lines += 1
                    continue
                raise Malformed("%s: unrecognised line: %.60r" % (where, line))
    except OSError as e:
        raise Malformed("cannot read %s: %s" % (path, e.strerror or e))
    if prof.events is None:
        raise Malformed("%s: no events: line" % path)
    if prof.summary is None:
        raise Malformed("%s: no summary: line" % path)
    return prof


def parse_counts(tokens, where):
    out = []
    for t in tokens:
        if not t.isdigit() or not t.isascii():
            raise Malformed("%s: bad number %.30r" % (where, t))
        out.append(int(t))
    return out


def fmt_key(key):
    fl, fn, lno = key
    return "fl=%s fn=%s line=%d" % (fl, fn, lno)


def fmt_counts(counts):
    if counts is None:
        return "<absent>"
    return " ".join(str(c) for c in counts)


def main(argv):
    args = list(argv[1:])
    zero_as_absent = False
    if args and args[0] == "--zero-as-absent":
        zero_as_absent = True
        args.pop(0)
    if len(args) != 2 or any(a.startswith("--") for a in args):
        sys.stderr.write("usage: cg_compare.py [--zero-as-absent] A B\n")
        return 2
    try:
        a = parse(args[0])
        b = parse(args[1])
    except Malformed as e:
        sys.stderr.write("cg_compare: %s\n" % e)
        return 2

    ok = True
    if a.events != b.events:
        print("events differ:")
        print("  A: %s" % " ".join(a.events))
        print("  B: %s" % " ".join(b.events))
        # Costs cannot be compared column by column; report summaries only.
        print("summary A: %s" % a.summary_text)
        print("summary B: %s" % b.summary_text)
        return 1

    if zero_as_absent:
        for p in (a, b):
            for k in [k for k, v in p.costs.items() if not any(v)]:
                del p.costs[k]

    keys = set(a.costs) | set(b.costs)
    diffs = []
    for k in keys:
        va = a.costs.get(k)
        vb = b.costs.get(k)
        if va != vb:
            diffs.append(k)
    diffs.sort(key=lambda k: (k[0], k[1], k[2]))

    summary_equal = a.summary == b.summary
    if diffs or not summary_equal:
        ok = False

    if ok:
        print("identical: %d lines, %s" % (len(keys), a.summary_text))
        return 0

    print("events: %s" % " ".join(a.events))
    if diffs:
        print("%d of %d (file, function, line) keys differ (A=%s, B=%s); "
              "first %d:" % (len(diffs), len(keys), a.path, b.path,
                             min(MAX_DIFFS, len(diffs))))
        for k in diffs[:MAX_DIFFS]:
            print("  %s" % fmt_key(k))
            print("    A: %s" % fmt_counts(a.costs.get(k)))
            print("    B: %s" % fmt_counts(b.costs.get(k)))
    else:
        print("per-line costs identical (%d keys)" % len(keys))
    print("summary %s A: %s" % ("equal" if summary_equal else "DIFFERS",
                                a.summary_text))
    print("summary %s B: %s" % ("equal" if summary_equal else "DIFFERS",
                                b.summary_text))
    return 1


if __name__ == "__main__":
    # Die quietly when piped into e.g. head.
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main(sys.argv))
