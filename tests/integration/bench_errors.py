#!/usr/bin/env python3
"""bench/run.py refuses bad arguments in one line, with status 1, before it
runs anything: a suite takes twenty minutes, and a --doc that cannot be
rewritten once stopped it with a traceback at the end, its results only in
the JSON file.

usage: bench_errors.py SRCDIR BUILDDIR
"""
import os
import subprocess
import sys
import tempfile
import time

src, build = sys.argv[1], sys.argv[2]
run_py = os.path.join(src, "bench", "run.py")
failures = []

with tempfile.TemporaryDirectory() as tmp:
    unmarked = os.path.join(tmp, "unmarked.md")
    with open(unmarked, "w") as f:
        f.write("# a document without the table's markers\n")
    suite_only = os.path.join(tmp, "suite_only.md")
    with open(suite_only, "w") as f:
        f.write("<!-- bench:begin -->\n<!-- bench:end -->\n")
    missing = os.path.join(tmp, "missing.md")
    cases = [
        (["--doc", missing], "--doc %s: No such file or directory" % missing),
        (["--doc", unmarked], "--doc %s has no <!-- bench:begin --> ... <!-- bench:end --> markers for the table" % unmarked),
        # The scaling study writes its own table.
        (["--scaling", "--doc", suite_only],
         "--doc %s has no <!-- bench-scaling:begin --> ... <!-- bench-scaling:end --> markers for the table"
         % suite_only),
        (["--json", os.path.join(tmp, "no", "such", "dir", "r.json")],
         "--json %s: no directory %s" % (os.path.join(tmp, "no", "such", "dir", "r.json"),
                                         os.path.join(tmp, "no", "such", "dir"))),
        (["--bench", "stencil,nosuch"], "unknown benchmark 'nosuch'"),
        (["--configs", "ompsim,nosuch"], "unknown configuration 'nosuch'"),
        (["--env", "KMP_BLOCKTIME"], "--env wants VAR=VALUE, not 'KMP_BLOCKTIME'"),
    ]
    for args, want in cases:
        before = len(failures)
        t0 = time.time()
        p = subprocess.run([sys.executable, run_py, "--build", build] + args,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
        took = time.time() - t0
        lines = p.stderr.splitlines()
        what = " ".join(args)
        if p.returncode != 1:
            failures.append("%s: status %d, want 1" % (what, p.returncode))
        if lines != ["bench/run.py: " + want]:
            failures.append("%s: stderr %r, want the one line %r" % (what, p.stderr, "bench/run.py: " + want))
        # Refused before the kernels are compiled or anything is timed.
        if "host:" in p.stdout or took > 30:
            failures.append("%s: ran before refusing (%.1f s, stdout %r)" % (what, took, p.stdout[:200]))
        if len(failures) == before:
            print("ok: %s -> %s" % (what, want))

for f in failures:
    print("FAIL: " + f)
sys.exit(1 if failures else 0)
