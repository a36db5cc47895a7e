#!/usr/bin/env python3
"""Runs every row of the option table (options.tsv) under the tool.

    options_table.py RUNNER CLIENT TABLE SRCDIR

RUNNER is vg-in-place (it adds --tool=ompsim), CLIENT a program that prints
one line to stdout (tests/progs/small). Each row is

    ok      -           ARG [ARG...]
    error   SUBSTRING   ARG [ARG...]

separated by tabs (an ARG may hold blanks or be empty after its '=').
{src} in an ARG stands for SRCDIR, {tmp} for the row's own working
directory (a fresh temporary directory, where documents land), {nl} for a
newline (which a message must show as '?' to stay one line).

An ok row must exit 0 with the client's line on stdout and nothing but the
client's output there. An error row must exit non-zero before the client ran
(empty stdout) with exactly one line on stderr (the runs use -q, which
leaves nothing else there): "valgrind: ompsim: " followed by a message that
holds SUBSTRING. SUBSTRING itself must name the option (a --NAME of the
row, a level such as "L2:", the configuration file, or Cachegrind's mode for
--machine=cachegrind) and go on to state the rule.

The table must also cover the tool's --help: every option listed there has
at least one ok row and one error row, and every option the table uses is
listed there. Rows run two at a time.
"""
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

LEVELS = ("L1", "L1I", "I1", "L1D", "D1", "L2", "L3", "L4", "LL", "LLL")
# Per-level options are listed once in --help, as --L<k>-NAME (and the TLB
# latencies as --DTLB<k>-latency).
LEVEL_OPTION = re.compile(r"^--(?:%s)-(.+)$" % "|".join(LEVELS))
TLB_LATENCY = re.compile(r"^--DTLB[12]-latency$")
# Validation messages name a level rather than an option (docs/cache-config.md,
# "Validation rules"), and the Cachegrind-mode rules name that mode.
LEVEL_LABEL = re.compile(r"(?:^|\s)(?:I1|D1|L1|L2|L3|L4|LL|DTLB1|DTLB2): ")
CACHEGRIND_MODE = ("cachegrind mode", "Cachegrind's model")
ENV_TAG = "OMPSIM_TABLE_TAG"


def read_table(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) < 3 or cols[0] not in ("ok", "error"):
                sys.exit(f"{path}:{number}: expected 'ok|error<TAB>SUBSTRING<TAB>ARG...'")
            if cols[0] == "ok" and cols[1] != "-":
                sys.exit(f"{path}:{number}: an ok row has '-' as its message")
            rows.append((number, cols[0], cols[1], cols[2:]))
    return rows


def option_name(arg):
    """'--L2-latency=4' -> '--L2-latency' ('' for a non-option)."""
    if not arg.startswith("--"):
        return ""
    return arg.split("=", 1)[0]


def help_name(name):
    """The spelling --help uses for an option name."""
    if TLB_LATENCY.match(name):
        return "--DTLB<k>-latency"
    m = LEVEL_OPTION.match(name)
    if m and m.group(1) != "unified":
        return "--L<k>-" + m.group(1)
    return name


def names_option(substring, args, cfg_names):
    """The naming part of SUBSTRING, or None."""
    if substring.startswith("unknown option '"):
        return "unknown option"
    for a in args:
        n = option_name(a)
        if n and n in substring:
            return n
    m = LEVEL_LABEL.search(substring)
    if m:
        return m.group(0).strip()
    for c in cfg_names:
        if c + ":" in substring:
            return c
    if any(a == "--machine=cachegrind" for a in args):
        for w in CACHEGRIND_MODE:
            if w in substring:
                return w
    return None


def run_row(row, runner, client, src, marker):
    number, expect, substring, raw = row
    tmp = tempfile.mkdtemp(prefix="ompsim-opt-")
    try:
        args = [a.replace("{src}", src).replace("{tmp}", tmp).replace("{nl}", "\n") for a in raw]
        env = dict(os.environ)
        env[ENV_TAG] = "tag"
        env.pop("OMPSIM_TABLE_UNSET", None)
        try:
            p = subprocess.run([runner, "-q"] + args + [client], cwd=tmp, env=env,
                               capture_output=True, text=True, errors="replace", timeout=120)
        except subprocess.TimeoutExpired:
            return f"line {number}: {raw}: no answer within 120 s"
        err_lines = p.stderr.splitlines()
        what = f"line {number}: {' '.join(raw)}"
        if expect == "ok":
            if p.returncode != 0:
                return f"{what}: expected to run, got exit {p.returncode}; stderr:\n{p.stderr}"
            if p.stdout.strip() != marker:
                return f"{what}: the client's output is {p.stdout!r}, not {marker!r}"
            return None
        problems = []
        if p.returncode == 0:
            problems.append("exit status 0")
        if p.stdout:
            problems.append(f"the client ran (stdout {p.stdout!r})")
        if len(err_lines) != 1:
            problems.append(f"{len(err_lines)} lines on stderr, not 1")
        line = err_lines[0] if err_lines else ""
        if not line.startswith("valgrind: ompsim: "):
            problems.append("the error line does not start with 'valgrind: ompsim: '")
        if substring not in line:
            problems.append(f"'{substring}' not in the message")
        if problems:
            return f"{what}: " + "; ".join(problems) + f"\n    stderr: {p.stderr!r}"
        return None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def help_options(runner):
    p = subprocess.run([runner, "--help"], capture_output=True, text=True, errors="replace")
    text = p.stdout.split("user options for ompsim:", 1)[-1]
    text = text.split("debugging options for ompsim", 1)[0].split("Extra options read from", 1)[0]
    names = set()
    for line in text.splitlines():
        for tok in re.findall(r"--[A-Za-z0-9<>-]+", line):
            names.add(tok.rstrip("-"))
    return names


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    # Rows run in their own directories: absolute paths.
    runner, client, table, src = (os.path.abspath(a) for a in sys.argv[1:])
    rows = read_table(table)
    failures = []

    # Every error row's message names the option and states a rule.
    for number, expect, substring, raw in rows:
        if expect != "error":
            continue
        cfgs = [os.path.basename(a.split("=", 1)[1]) for a in raw if a.startswith("--cache-config=")]
        named = names_option(substring, raw, cfgs)
        if named is None:
            failures.append(f"line {number}: '{substring}' names none of {raw}")
        elif len(substring) < len(named) + 10 and not substring.startswith("unknown option"):
            failures.append(f"line {number}: '{substring}' names the option but states no rule")

    # The table and --help cover each other.
    listed = help_options(runner)
    covered = {"ok": set(), "error": set()}
    for _, expect, _, raw in rows:
        for a in raw:
            n = option_name(a)
            if n:
                covered[expect].add(help_name(n))
    used = covered["ok"] | covered["error"]
    for n in sorted(listed - covered["ok"]):
        failures.append(f"--help lists {n}, but no ok row uses it")
    for n in sorted(listed - covered["error"]):
        failures.append(f"--help lists {n}, but no error row uses it")
    # Error rows may use names that exist nowhere (unknown options).
    for n in sorted(covered["ok"] - listed):
        failures.append(f"the table runs {n}, which --help does not list")

    marker = subprocess.run([client], capture_output=True, text=True).stdout.strip()
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = pool.map(lambda r: run_row(r, runner, client, src, marker), rows)
        for r in results:
            if r:
                failures.append(r)

    oks = sum(1 for r in rows if r[1] == "ok")
    print(f"{len(rows)} rows ({oks} ok, {len(rows) - oks} error), {len(used)} options")
    if failures:
        print("FAIL:\n" + "\n".join(failures))
        return 1
    print("all rows behave as the table says")
    return 0


if __name__ == "__main__":
    sys.exit(main())
