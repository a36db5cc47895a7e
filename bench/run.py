#!/usr/bin/env python3
"""ompsim's benchmark suite (issue 8): times ompsim against Valgrind's
none, Cachegrind and Callgrind (--cache-sim=yes) on the same binaries.

  make bench                          # = bench/run.py --build BUILD_DIR
  bench/run.py --build _build         # the suite, 3 runs per configuration
  bench/run.py --build _build --quick --runs 1     # tiny inputs, smoke test
  bench/run.py --build _build --scaling            # the scaling study

What it does
  1. Compiles the kernels of bench/kernels/ into BUILD_DIR/bench-kernels/:
     C with ${CC:-gcc} -O2 -gdwarf-4, C++ with ${CXX:-g++} -O2 -gdwarf-4,
     the OpenMP ones with ${CLANG:-clang} -fopenmp -gdwarf-4 -O1 -Wall (the
     flags of examples/openmp/Makefile.inc: LLVM's libomp, which has OMPT).
  2. Runs every benchmark under every configuration RUNS times, round-robin:
     round i runs the configurations in turn, starting with a different one
     each round, so that a slow phase of the machine hits all of them. The
     working directory is BUILD_DIR/bench-kernels; VALGRIND_OPTS is removed
     from the environment and VALGRIND_LIB points at BUILD_DIR/.inplace (the
     uninstalled ompsim next to the system's Valgrind tools), for every tool.
  3. Measures per run the wall time, the user+system CPU time and the peak
     resident set (ru_maxrss of the child from wait4: Valgrind's launcher
     execs the tool in the same process, so this is the tool's peak).
  4. Reports medians, ratios to Cachegrind and the acceptance bounds of
     issue 8 (PASS/FAIL on wall time and peak RSS; A1 to A3 also read as
     CPU time, for information; the exit status is 0 whatever they say:
     this is a measurement, not a test). Exit status 1 only if the driver itself or a
     compilation failed; runs that fail are reported and recorded.
     Each time ratio gets a 95 % interval, the rounds resampled
     (bench/intervals.py), and each time bound a verdict with the host's
     noise: holds (every interval within the bound), fails (one wholly
     beyond it) or undecided (more rounds, or a quieter machine, needed).
  5. Writes bench/results.json (all the figures, the host, the commands) and
     rewrites the table of docs/performance.md between
     <!-- bench:begin --> and <!-- bench:end --> (the scaling study: between
     <!-- bench-scaling:begin --> and <!-- bench-scaling:end -->). The other
     part of each file is kept. With --quick neither file is touched unless
     --write is given; --no-write never touches them.

Configurations (every benchmark; OpenMP programs with OMP_NUM_THREADS=4 for
every configuration, native included; every Valgrind run with
--fair-sched=try, ompsim's default: the pipe lock made omp_tasks' times
depend on how long libomp's idle threads spun)
  native          the program itself
  none            valgrind --tool=none
  cachegrind      valgrind --tool=cachegrind --cache-sim=yes
                    --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64
                    --cachegrind-out-file=/dev/null
  cachegrind-desktop  the same with the caches of ompsim's default machine
                    that Cachegrind can model: --I1=32768,8,64
                    --D1=49152,12,64 --LL=31457280,15,64 (desktop's L3 as
                    the LL); the bounds are against cachegrind, this is
                    reported beside them
  callgrind       valgrind --tool=callgrind --cache-sim=yes (cachegrind's
                    caches) --callgrind-out-file=/dev/null
  ompsim          valgrind --tool=ompsim --monitor=no --output-file=DOC
                    (default machine: desktop, L1I/L1D + L2 private, L3;
                    OpenMP programs: one simulated core per thread, MESI
                    coherence, deterministic replay; all always on)
  ompsim+monitor  valgrind --tool=ompsim --monitor=yes --histogram-bins=25
                    --output-file=DOC
  DOC is BUILD_DIR/bench-kernels/last.BENCHMARK.CONFIG.xml, overwritten by
  every run (a few hundred KiB), and read after each run: an incomplete
  document or deterministic="false" (e.g. --stream-buffer reached) is
  reported as a note. Each configuration's Valgrind log of the last run is
  kept in BUILD_DIR/bench-kernels/stderr.BENCHMARK.CONFIG; lines that look
  like warnings or errors are reported as notes too.

Benchmarks (full size / --quick size; the full sizes make a Cachegrind run
take a few seconds on a 2-core Xeon VM, native runs well under a second)
  empty        no arguments (start-up of each tool; not in the checks)
  stencil      1024 40 / 128 4          2D Jacobi, N x N doubles, STEPS sweeps
  matmul       400 / 60                 naive ijk N x N doubles
  chase        2097152 16777216 / 16384 131072   pointer chasing, N nodes, STEPS
  containers   100000 4 / 5000 1        std::vector/map/unordered_map, N keys
  memcopy      200 / 4                  memcpy/memset, ROUNDS over 16 MiB
  omp_loop     1024 40 / 128 4          parallel-for stencil, 4 threads
  omp_tasks    1000000 4096 / 50000 4096   task merge sort, N ints, CUTOFF

Acceptance bounds (issue 8; medians of wall time, peak RSS)
  A1  single-threaded, ompsim (no monitor)          <= 1.0x Cachegrind
  A2  single-threaded, ompsim+monitor (bins=25)     <= 1.2x Cachegrind
  A3  OpenMP 4 threads, ompsim                      <= 1.5x Cachegrind
      (a run whose document says deterministic="false" fails A3)
  A4  every benchmark: Callgrind slower than ompsim
  A5  single-threaded, ompsim peak RSS              <= 1.5x Cachegrind's
  (ompsim+monitor's peak RSS ratio is shown for information.)

--scaling: how ompsim's time and memory grow (median of RUNS, round-robin)
  threads      omp_loop 1024 20 with OMP_NUM_THREADS=1,2,4,8: cachegrind, ompsim
  structures   ranges N 40 (N = 1, 10, 100, 1000 ranges named with
               OMPSIM_NAME_RANGE over 16 MiB): ompsim --monitor=no,
               --monitor=yes, --monitor=yes --histogram-bins=25
  histogram    stencil 1024 20: ompsim --monitor=no, --monitor=yes,
               --histogram-bins=25, --histogram-bins=1000
  levels       chase 2097152 8388608: ompsim with --L2=none (1 level),
               --L3=none (2), default (3), --L4=128M,16,64 (4); cachegrind (2)
  (--quick: omp_loop 128 4, ranges N 2, stencil 128 4, chase 16384 131072)
"""

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from intervals import LEVEL, ratio_interval, verdict  # noqa: E402

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = os.path.join(SRC, "bench", "kernels")

CACHES = ["--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64"]
# The caches of ompsim's default machine (desktop, MachinePresets) that
# Cachegrind's two levels can model: its I1, its 48 KiB 12-way D1, and its
# 30 MiB 15-way L3 as the LL (desktop's private 1.25 MiB L2 has no
# counterpart). For information beside the bounds, which are measured
# against CACHES: a 12-way D1 costs every simulator more per miss than an
# 8-way one (matmul 400: Cachegrind 1.53 s with CACHES, 1.82 s with these).
DESKTOP_CACHES = ["--I1=32768,8,64", "--D1=49152,12,64", "--LL=31457280,15,64"]
# Every tool with Valgrind's fair scheduler lock, ompsim's default
# (vgtool/FairScheduling.h). With the default pipe lock libomp's spinning
# idle threads decide the time: Cachegrind on omp_tasks took 3.1, 5.2 and
# 18.9 s in three runs, 1.36 to 1.45 s with the ticket lock.
SCHED = ["--fair-sched=try"]

# name -> argv after "valgrind" (None: the program runs natively)
CONFIGS = {
    "native": None,
    "none": ["--tool=none"] + SCHED,
    "cachegrind": ["--tool=cachegrind", "--cache-sim=yes"] + SCHED + CACHES + ["--cachegrind-out-file=/dev/null"],
    "cachegrind-desktop": ["--tool=cachegrind", "--cache-sim=yes"] + SCHED + DESKTOP_CACHES +
                          ["--cachegrind-out-file=/dev/null"],
    "callgrind": ["--tool=callgrind", "--cache-sim=yes"] + SCHED + CACHES + ["--callgrind-out-file=/dev/null"],
    "ompsim": ["--tool=ompsim", "--monitor=no"] + SCHED,
    "ompsim+monitor": ["--tool=ompsim", "--monitor=yes", "--histogram-bins=25"] + SCHED,
}
# ompsim also gets --output-file=BUILD_DIR/bench-kernels/last.<benchmark>.<config>.xml
# (a few hundred KiB, overwritten by every run), read after the run for its
# determinism verdict: a run that hit --stream-buffer says
# deterministic="false" there and nowhere else.
CONFIG_ORDER = list(CONFIGS)

# name, source, kind (serial / openmp / startup), full args, quick args
BENCHMARKS = [
    ("empty", "empty.c", "startup", [], []),
    ("stencil", "stencil.c", "serial", ["1024", "40"], ["128", "4"]),
    ("matmul", "matmul.c", "serial", ["400"], ["60"]),
    ("chase", "chase.c", "serial", ["2097152", "16777216"], ["16384", "131072"]),
    ("containers", "containers.cpp", "serial", ["100000", "4"], ["5000", "1"]),
    ("memcopy", "memcopy.c", "serial", ["200"], ["4"]),
    ("omp_loop", "omp_loop.c", "openmp", ["1024", "40"], ["128", "4"]),
    ("omp_tasks", "omp_tasks.c", "openmp", ["1000000", "4096"], ["50000", "4096"]),
]
# Built but only used by --scaling.
EXTRA_SOURCES = [("ranges", "ranges.c")]

CHECKS = [
    # id, description, benchmark kind, config, metric, bound
    ("A1", "single-threaded, ompsim / Cachegrind time", "serial", "ompsim", "time", 1.0),
    ("A2", "single-threaded, ompsim+monitor / Cachegrind time", "serial", "ompsim+monitor", "time", 1.2),
    ("A3", "OpenMP, 4 threads, ompsim / Cachegrind time", "openmp", "ompsim", "time", 1.5),
    ("A4", "every program, ompsim / Callgrind time (Callgrind slower)", "any", "ompsim", "vs_callgrind", 1.0),
    ("A5", "single-threaded, ompsim / Cachegrind peak RSS", "serial", "ompsim", "rss", 1.5),
]

BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"
SBEGIN, SEND = "<!-- bench-scaling:begin -->", "<!-- bench-scaling:end -->"


def log(msg=""):
    print(msg, flush=True)


def fail(msg):
    print("bench/run.py: " + msg, file=sys.stderr)
    sys.exit(1)


# ---------------------------------------------------------------- building

def compile_kernels(work, build):
    os.makedirs(work, exist_ok=True)
    cc = os.environ.get("CC", "gcc")
    cxx = os.environ.get("CXX", "g++")
    clang = os.environ.get("CLANG", "clang")
    with open(os.path.join(work, "empty.c"), "w") as f:
        f.write("int main(void) { return 0; }\n")
    sources = [(b[0], b[1]) for b in BENCHMARKS] + EXTRA_SOURCES
    commands = {}
    for name, source in sources:
        path = os.path.join(work, source) if source == "empty.c" else os.path.join(KERNELS, source)
        out = os.path.join(work, name)
        if name.startswith("omp_"):
            cmd = [clang, "-fopenmp", "-gdwarf-4", "-O1", "-Wall", "-o", out, path]
        elif source.endswith(".cpp"):
            cmd = [cxx, "-O2", "-gdwarf-4", "-Wall", "-o", out, path]
        else:
            cmd = [cc, "-O2", "-gdwarf-4", "-Wall", "-I" + os.path.join(SRC, "include"), "-o", out, path]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        if r.returncode != 0:
            fail("cannot compile %s:\n%s\n%s" % (source, " ".join(cmd), r.stdout))
        commands[name] = " ".join(os.path.relpath(c, SRC) if c.startswith(SRC) else c for c in cmd)
    return commands


# ----------------------------------------------------------------- running

class Runner:
    def __init__(self, build, work, timeout, extra_env):
        self.work = work
        self.timeout = timeout
        env = dict(os.environ)
        env.pop("VALGRIND_OPTS", None)
        env["VALGRIND_LIB"] = os.path.join(build, ".inplace")
        env.update(extra_env)
        self.env = env
        self.valgrind = shutil.which("valgrind") or "/usr/bin/valgrind"

    def argv(self, tool_args, prog, args, tag):
        exe = os.path.join(self.work, prog)
        if tool_args is None:
            return [exe] + list(args)
        tool_args = list(tool_args)
        if "--tool=ompsim" in tool_args:
            tool_args.append("--output-file=" + self.document(tag))
        return [self.valgrind] + tool_args + [exe] + list(args)

    def document(self, tag):
        return os.path.join(self.work, "last.%s.xml" % re.sub(r"[^A-Za-z0-9_.+-]", "_", tag))

    def run(self, argv, env_add, tag):
        """One timed run: (wall s, cpu s, maxrss KiB, exit status, stdout, stderr path)."""
        env = dict(self.env)
        env.update(env_add)
        err_path = os.path.join(self.work, "stderr." + re.sub(r"[^A-Za-z0-9_.+-]", "_", tag))
        out_path = os.path.join(self.work, "stdout.tmp")
        with open(out_path, "w") as out, open(err_path, "w") as err:
            t0 = time.perf_counter()
            p = subprocess.Popen(argv, stdout=out, stderr=err, env=env, cwd=self.work,
                                 start_new_session=True)
            deadline = t0 + self.timeout
            status = None
            while True:
                pid, st, ru = os.wait4(p.pid, os.WNOHANG)
                if pid:
                    status = st
                    break
                if time.perf_counter() > deadline:
                    os.killpg(p.pid, signal.SIGKILL)
                    pid, st, ru = os.wait4(p.pid, 0)
                    status = None
                    break
                time.sleep(0.005)
            wall = time.perf_counter() - t0
            p.returncode = 0  # reaped by wait4; keep Popen from waiting again
        with open(out_path) as f:
            stdout = f.read()
        if status is None:
            code = "timeout after %d s" % self.timeout
        elif os.WIFEXITED(status):
            code = os.WEXITSTATUS(status)
        else:
            code = "signal %d" % os.WTERMSIG(status)
        return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss, code, stdout, err_path


def document_notes(path):
    """What an ompsim document says about the run: incomplete, not deterministic."""
    notes = []
    try:
        with open(path, errors="replace") as f:
            head = f.read(4096)
    except OSError:
        return ["no profile document"]
    m = re.search(r"<run [^>]*>", head)
    if not m:
        return ["the profile document has no <run> element"]
    run = m.group(0)
    if 'complete="true"' not in run:
        notes.append("document: " + run)
    if 'deterministic="false"' in run:
        r = re.search(r"<reason>(.*?)</reason>", head, re.S)
        notes.append('deterministic="false": ' + (r.group(1).strip() if r else "no reason given"))
    return notes


NOTE_RE = re.compile(r"warning|error|ompsim:|valgrind:|assert|unhandled|unrecognised|impossible|stream",
                     re.IGNORECASE)


# Cachegrind and Callgrind describe the host's last-level cache before the
# explicit --I1/--D1/--LL replace it (their output files show the geometry
# given); these are not worth a note.
IGNORED_RE = re.compile(r"Copyright|Command:|L3 cache found, using its data|specified LL cache:|"
                        r"simulated LL cache:")


def stderr_notes(path):
    """Lines of a Valgrind log that may say something went wrong."""
    notes = []
    try:
        with open(path, errors="replace") as f:
            for line in f:
                line = line.rstrip("\n")
                body = re.sub(r"^(==|--)\d+(==|--) ", "", line)
                if NOTE_RE.search(body) and not IGNORED_RE.search(body):
                    notes.append(body)
    except OSError:
        pass
    return notes[:20]


def rounds(runner, jobs, nruns, label):
    """jobs: list of (key, argv, env). Runs every job nruns times, round-robin
    with a rotating start. Returns key -> dict of lists."""
    res = {k: {"times": [], "cpu": [], "rss_kb": [], "errors": [], "notes": [], "stdout": None}
           for k, _, _ in jobs}
    n = len(jobs)
    for i in range(nruns):
        for j in range(n):
            key, argv, env = jobs[(i + j) % n]
            tag = label + "." + key
            doc = runner.document(tag)
            if os.path.exists(doc):
                os.unlink(doc)
            wall, cpu, rss, code, out, errp = runner.run(argv, env, tag)
            r = res[key]
            r["times"].append(round(wall, 3))
            r["cpu"].append(round(cpu, 3))
            r["rss_kb"].append(rss)
            if code != 0:
                r["errors"].append("run %d: exit %s" % (i + 1, code))
                with open(errp, errors="replace") as f:
                    tail = f.read().splitlines()[-5:]
                r["errors"].extend("  " + t for t in tail)
            notes = stderr_notes(errp)
            if any(x.startswith("--output-file=") for x in argv):
                notes += document_notes(doc)
            for x in notes:
                if x not in r["notes"]:
                    r["notes"].append(x)
            if r["stdout"] is None:
                r["stdout"] = out
            elif out != r["stdout"]:
                r["errors"].append("run %d: output differs from run 1" % (i + 1))
    return res


def summarise(r):
    out = {
        "times": r["times"],
        "cpu_times": r["cpu"],
        "rss_kb": r["rss_kb"],
        "median_time": round(statistics.median(r["times"]), 3),
        "median_cpu": round(statistics.median(r["cpu"]), 3),
        "median_rss_kb": int(statistics.median(r["rss_kb"])),
    }
    if r["errors"]:
        out["errors"] = r["errors"]
    if r["notes"]:
        out["notes"] = r["notes"]
    return out


# -------------------------------------------------------------- host info

def sh(cmd, cwd=None):
    try:
        return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=cwd,
                              universal_newlines=True).stdout.strip()
    except OSError:
        return ""


def host_info():
    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = 0
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    mem = int(line.split()[1])
    except OSError:
        pass
    distro = ""
    try:
        with open("/etc/os-release") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    distro = line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    commit = sh(["git", "rev-parse", "HEAD"], cwd=SRC)
    if commit and sh(["git", "status", "--porcelain", "--untracked-files=no"], cwd=SRC):
        commit += "+dirty"
    return {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "hostname": platform.node(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "mem_gib": round(mem / 1048576, 1),
        "os": distro,
        "kernel": platform.release(),
        "valgrind": sh(["valgrind", "--version"]),
        "gcc": sh([os.environ.get("CC", "gcc"), "-dumpfullversion"]),
        "clang": sh([os.environ.get("CLANG", "clang"), "--version"]).split("\n")[0],
        "python": platform.python_version(),
        "git_commit": commit,
        "loadavg_start": os.getloadavg(),
    }


def short_commit(h):
    c = h.get("git_commit") or "unknown"
    return c[:12] + ("+dirty" if c.endswith("+dirty") else "")


def rel(path):
    path = os.path.abspath(path)
    return os.path.relpath(path, SRC) if path.startswith(SRC + os.sep) else path


def machine_line(h):
    return "%s, %d cores, %.0f GiB, %s, %s, gcc %s, %s" % (
        h["cpu"] or "unknown CPU", h["cores"] or 0, h["mem_gib"], h["os"], h["valgrind"], h["gcc"],
        h["clang"])


# ------------------------------------------------------------------ suite

def add_ratios(entry):
    """A benchmark's ratios to Cachegrind (and cachegrind-desktop,
    Callgrind), with the time ratios' intervals, in each configuration's
    summary."""
    cg = entry["results"].get("cachegrind")
    cl = entry["results"].get("callgrind")
    cgd = entry["results"].get("cachegrind-desktop")
    for c, s in entry["results"].items():
        if cgd:
            s["time_vs_cg_desktop"] = round(s["median_time"] / cgd["median_time"], 3)
        if cg:
            s["time_ratio"] = round(s["median_time"] / cg["median_time"], 3)
            if c != "cachegrind":
                s["time_ratio_interval"] = ratio_interval(s["times"], cg["times"])
            s["rss_ratio"] = round(s["median_rss_kb"] / cg["median_rss_kb"], 3)
            if cg["median_cpu"] > 0:
                s["cpu_ratio"] = round(s["median_cpu"] / cg["median_cpu"], 3)
        if cl:
            s["time_vs_callgrind"] = round(s["median_time"] / cl["median_time"], 3)
            if c != "callgrind":
                s["time_vs_callgrind_interval"] = ratio_interval(s["times"], cl["times"])


def run_suite(a, runner, quick):
    benches = [b for b in BENCHMARKS if not a.bench or b[0] in a.bench]
    configs = [c for c in CONFIG_ORDER if not a.configs or c in a.configs]
    results = []
    for name, _src, kind, full, small in benches:
        args = small if quick else full
        env = {"OMP_NUM_THREADS": str(a.threads)} if kind == "openmp" else {}
        jobs = [(c, runner.argv(CONFIGS[c], name, args, name + "." + c), env) for c in configs]
        log("%-11s %-24s %s" % (name, " ".join(args), "" if not env else "OMP_NUM_THREADS=%d" % a.threads))
        raw = rounds(runner, jobs, a.runs, name)
        entry = {"name": name, "kind": kind, "args": args,
                 "threads": a.threads if kind == "openmp" else 1,
                 "env": env, "results": {}}
        for c in configs:
            entry["results"][c] = summarise(raw[c])
        add_ratios(entry)
        cg = entry["results"].get("cachegrind")
        for c in configs:
            s = entry["results"][c]
            line = "    %-15s %8.3f s  cpu %8.3f s  %8.1f MiB" % (
                c, s["median_time"], s["median_cpu"], s["median_rss_kb"] / 1024)
            if "time_ratio" in s:
                iv = s.get("time_ratio_interval")
                line += "  %5.2fx time%s  %5.2fx mem (vs cachegrind)" % (
                    s["time_ratio"], " [%.2f-%.2f]" % tuple(iv) if iv else "", s["rss_ratio"])
            if "errors" in s:
                line += "  ERRORS"
            log(line)
            for e in s.get("errors", []):
                log("        ! " + e)
            for e in s.get("notes", []):
                log("        " + (e if e.startswith("note:") else "note: " + e))
        outs = {raw[c]["stdout"] for c in configs}
        if len(outs) > 1:
            entry["output_mismatch"] = {c: raw[c]["stdout"] for c in configs}
            log("    ! the program's output differs between configurations")
        if not quick and cg and cg["median_time"] < 1.0 and kind != "startup":
            log("    note: Cachegrind ran for less than 1 s: the input is small for this machine")
        results.append(entry)
    return results, configs


def evaluate_checks(results):
    checks = []
    for cid, desc, kind, config, metric, bound in CHECKS:
        rows = []
        # The time bounds read as CPU time too (user + system of every host
        # thread), for information: ompsim's workers take a second host CPU
        # where Cachegrind takes one. And against Cachegrind with the default
        # machine's caches (DESKTOP_CACHES), for information too.
        cpu = []
        desk = []
        for e in results:
            if e["kind"] == "startup" or (kind != "any" and e["kind"] != kind):
                continue
            s = e["results"].get(config)
            if not s:
                continue
            interval = None
            if metric == "time":
                v = s.get("time_ratio")
                interval = s.get("time_ratio_interval")
                if "cpu_ratio" in s:
                    cpu.append({"benchmark": e["name"], "value": s["cpu_ratio"]})
                if "time_vs_cg_desktop" in s:
                    desk.append({"benchmark": e["name"], "value": s["time_vs_cg_desktop"]})
            elif metric == "rss":
                v = s.get("rss_ratio")
            else:
                v = s.get("time_vs_callgrind")
                interval = s.get("time_vs_callgrind_interval")
            if v is None:
                continue
            ok = v < bound if metric == "vs_callgrind" else v <= bound
            row = {"benchmark": e["name"], "value": v, "pass": ok}
            if interval:
                row["interval"] = interval
                row["verdict"] = verdict(interval, bound, strict=metric == "vs_callgrind")
            # A3 is about the deterministic replay: a run that left it
            # (--stream-buffer reached) does not count.
            if cid == "A3" and any(n.startswith('deterministic="false"') for n in s.get("notes", [])):
                row["pass"] = False
                row["why"] = "not deterministic"
            if "errors" in s:
                row["pass"] = False
                row["why"] = "failed runs"
            rows.append(row)
        if rows:
            check = {"id": cid, "description": desc, "config": config, "bound": bound,
                     "per_benchmark": rows, "pass": all(r["pass"] for r in rows),
                     "worst": max(r["value"] for r in rows)}
            sure = noise_verdict(rows)
            if sure:
                check["noise_verdict"] = sure
            if cpu:
                check["cpu_per_benchmark"] = cpu
                check["cpu_worst"] = max(r["value"] for r in cpu)
                check["cpu_pass"] = all(r["value"] <= bound for r in cpu)
            if desk:
                check["desktop_per_benchmark"] = desk
                check["desktop_worst"] = max(r["value"] for r in desk)
                check["desktop_pass"] = all(r["value"] <= bound for r in desk)
            checks.append(check)
    info = []
    for e in results:
        s = e["results"].get("ompsim+monitor")
        if e["kind"] == "serial" and s and "rss_ratio" in s:
            info.append({"benchmark": e["name"], "value": s["rss_ratio"]})
    return checks, info


def noise_verdict(rows):
    """A bound's verdict with the host's noise (intervals.py): "fails" when
    some benchmark's whole interval is beyond the bound, "holds" when every
    benchmark's is within it, else "undecided"; None when a row has no
    interval (a failed run, fewer than 3 rounds)."""
    if not rows or any("verdict" not in r or r["verdict"] is None for r in rows):
        return None
    if any(r["verdict"] == "fails" or "why" in r for r in rows):
        return "fails"
    if all(r["verdict"] == "holds" for r in rows):
        return "holds"
    return "undecided"


def fmt_row(r):
    """A benchmark's ratio, its interval when there is one, and why it failed."""
    cell = "%s %.2f" % (r["benchmark"], r["value"])
    if "interval" in r:
        cell += " [%.2f-%.2f]" % tuple(r["interval"])
    if "why" in r:
        cell += " (%s)" % r["why"]
    return cell


def print_checks(checks, info):
    log()
    log("Acceptance bounds (issue 8):")
    for c in checks:
        rel = "<" if c["id"] == "A4" else "<="
        log("  %s %s: %s %s %.2f  worst %.2f%s" % (
            "PASS" if c["pass"] else "FAIL", c["id"], c["description"], rel, c["bound"], c["worst"],
            "; with the noise: " + c["noise_verdict"] if "noise_verdict" in c else ""))
        log("       " + ", ".join(fmt_row(r) + ("" if r["pass"] else " FAIL") for r in c["per_benchmark"]))
    for key, how in (("cpu", "read as CPU time"), ("desktop", "against cachegrind-desktop")):
        for c in checks:
            if key + "_per_benchmark" in c:
                log("  info: %s %s: %s, worst %.2f (%s)" % (
                    c["id"], how, "within the bound" if c[key + "_pass"] else "beyond the bound", c[key + "_worst"],
                    ", ".join("%s %.2f" % (r["benchmark"], r["value"]) for r in c[key + "_per_benchmark"])))
    if info:
        log("  info: single-threaded, ompsim+monitor / Cachegrind peak RSS: " +
            ", ".join("%s %.2f" % (r["benchmark"], r["value"]) for r in info))


def fmt_cell(s, key="median_time", ratio="time_ratio", scale=1.0, digits=2):
    if s is None:
        return "-"
    v = s[key] * scale
    cell = ("%%.%df" % digits) % v
    if ratio in s and ratio is not None:
        cell += " (%.2fx)" % s[ratio]
    if "errors" in s:
        cell += " !"
    return cell


def measured_header(doc):
    """The lines both tables start with: when, where, how often, the command."""
    h = doc["host"]
    return ["Measured on %s on %s; median of %d run%s; load average at the start %.2f, at the end %.2f;"
            % (h["date"][:10], machine_line(h), doc["runs"], "" if doc["runs"] == 1 else "s",
               h["loadavg_start"][0], doc["loadavg_end"][0]),
            "ompsim at commit `%s`. Command:" % short_commit(h),
            "", "```", doc["command"], "```", ""]


def time_table(lines, doc, title, key, ratio):
    """A table of seconds per program and configuration, with ratios to Cachegrind."""
    configs = doc["configs_run"]
    lines.append(title)
    lines.append("")
    lines.append("| program | threads | " + " | ".join(configs) + " |")
    lines.append("| --- | ---: | " + " | ".join("---:" for _ in configs) + " |")
    for e in doc["benchmarks"]:
        lab = " ".join([e["name"]] + e["args"])
        lines.append("| %s | %d | %s |" % (lab, e["threads"], " | ".join(
            fmt_cell(e["results"].get(c), key=key, ratio=None if c == "cachegrind" else ratio) for c in configs)))
    lines.append("")


# The checks' readings for information (evaluate_checks(): "cpu" as CPU
# time, "desktop" against cachegrind-desktop) as a table under `title`.
def info_table(lines, checks, key, title, describe):
    rows = [c for c in checks if key + "_per_benchmark" in c]
    if not rows:
        return
    lines.append(title)
    lines.append("")
    lines.append("| | bound | within | worst | per benchmark |")
    lines.append("| --- | --- | --- | ---: | --- |")
    for c in rows:
        lines.append("| %s | %s <= %.1f | %s | %.2f | %s |" % (
            c["id"], describe(c["description"]), c["bound"], "yes" if c[key + "_pass"] else "**no**",
            c[key + "_worst"], ", ".join("%s %.2f" % (r["benchmark"], r["value"]) for r in c[key + "_per_benchmark"])))
    lines.append("")


def suite_markdown(doc):
    configs = doc["configs_run"]
    lines = measured_header(doc)
    if doc.get("quick"):
        lines.append("**Quick mode (tiny inputs): the times are mostly Valgrind's start-up; not a measurement "
                     "of the simulators.**")
        lines.append("")
    time_table(lines, doc, "Wall time in seconds (ratio to Cachegrind); `!` marks a configuration with a failed run:",
               "median_time", "time_ratio")
    time_table(lines, doc, "CPU time (user + system, every host thread) in seconds (ratio to Cachegrind's):",
               "median_cpu", "cpu_ratio")
    lines.append("Peak resident memory in MiB (ratio to Cachegrind):")
    lines.append("")
    lines.append("| program | " + " | ".join(configs) + " |")
    lines.append("| --- | " + " | ".join("---:" for _ in configs) + " |")
    for e in doc["benchmarks"]:
        lab = " ".join([e["name"]] + e["args"])
        lines.append("| %s | %s |" % (lab, " | ".join(
            fmt_cell(e["results"].get(c), key="median_rss_kb", scale=1 / 1024.0, digits=1,
                     ratio=None if c == "cachegrind" else "rss_ratio") for c in configs)))
    lines.append("")
    if doc["checks"]:
        lines.append("Acceptance bounds of issue 8 (result: on the medians; with the noise: whether "
                     "the %d %% intervals in brackets, the suite's rounds resampled (bench/intervals.py), "
                     "lie within the bound, beyond it, or around it):" % round(LEVEL * 100))
        lines.append("")
        lines.append("| | bound | result | with the noise | worst | per benchmark |")
        lines.append("| --- | --- | --- | --- | ---: | --- |")
        for c in doc["checks"]:
            rel = "<" if c["id"] == "A4" else "<="
            lines.append("| %s | %s %s %.1f | %s | %s | %.2f | %s |" % (
                c["id"], c["description"], rel, c["bound"], "PASS" if c["pass"] else "**FAIL**",
                c.get("noise_verdict") or "-", c["worst"], ", ".join(fmt_row(r) for r in c["per_benchmark"])))
        lines.append("")
        info_table(lines, doc["checks"], "cpu",
                   "The time bounds read as CPU time instead (information: the bounds above are wall "
                   "time; `--miss-thread=no --replay-thread=no` keeps ompsim on one host CPU):",
                   lambda d: d.replace(" time", " (CPU)"))
        info_table(lines, doc["checks"], "desktop",
                   "The time bounds against `cachegrind-desktop` instead (information: Cachegrind with the "
                   "default machine's I1, D1 and L3 as its LL):",
                   lambda d: d.replace("Cachegrind", "cachegrind-desktop"))
    return "\n".join(lines)


# ---------------------------------------------------------------- scaling

def scaling_plan(quick):
    q = quick
    loop_args = ["128", "4"] if q else ["1024", "20"]
    ranges_rounds = "2" if q else "40"
    stencil_args = ["128", "4"] if q else ["1024", "20"]
    chase_args = ["16384", "131072"] if q else ["2097152", "8388608"]
    om = ["--tool=ompsim"]
    plan = []
    # (study, point label, x value, config label, tool args, prog, args, env)
    for t in (1, 2, 4, 8):
        for cfg in ("cachegrind", "ompsim"):
            plan.append(("threads", "omp_loop %s" % " ".join(loop_args), t, cfg, CONFIGS[cfg], "omp_loop",
                         loop_args, {"OMP_NUM_THREADS": str(t)}))
    for n in (1, 10, 100, 1000):
        for cfg, extra in (("--monitor=no", ["--monitor=no"]), ("--monitor=yes", ["--monitor=yes"]),
                           ("--histogram-bins=25", ["--monitor=yes", "--histogram-bins=25"])):
            plan.append(("structures", "ranges N %s" % ranges_rounds, n, cfg, om + extra, "ranges",
                         [str(n), ranges_rounds], {}))
    for b, extra in (("--monitor=no", ["--monitor=no"]), ("--monitor=yes", ["--monitor=yes"]),
                     ("--histogram-bins=25", ["--monitor=yes", "--histogram-bins=25"]),
                     ("--histogram-bins=1000", ["--monitor=yes", "--histogram-bins=1000"])):
        plan.append(("histogram", "stencil %s" % " ".join(stencil_args), b, "ompsim", om + extra, "stencil",
                     stencil_args, {}))
    for lv, extra in ((1, ["--L2=none"]), (2, ["--L3=none"]), (3, []), (4, ["--L4=128M,16,64"])):
        plan.append(("levels", "chase %s" % " ".join(chase_args), lv, "ompsim", om + extra, "chase",
                     chase_args, {}))
    plan.append(("levels", "chase %s" % " ".join(chase_args), 2, "cachegrind", CONFIGS["cachegrind"],
                 "chase", chase_args, {}))
    return plan


def run_scaling(a, runner, quick):
    plan = scaling_plan(quick)
    studies = []
    for study in ("threads", "structures", "histogram", "levels"):
        pts = [p for p in plan if p[0] == study]
        # One round-robin per program and arguments: every point of the study.
        jobs = []
        for p in pts:
            key = "%s|%s" % (p[2], p[3])
            jobs.append((key, runner.argv(p[4], p[5], p[6], "scaling.%s.%s" % (study, key)), p[7]))
        log("%-11s %s" % (study, pts[0][1]))
        raw = rounds(runner, jobs, a.runs, "scaling." + study)
        rows = []
        for p, (key, argv, env) in zip(pts, jobs):
            s = summarise(raw[key])
            row = {"x": p[2], "config": p[3], "argv": [os.path.basename(x) if x.startswith(runner.work) else x
                                                       for x in argv[1:]] if p[4] else [],
                   "env": env}
            row.update(s)
            rows.append(row)
            label = "%s %s" % (p[2], p[3]) if study != "histogram" else str(p[2])
            log("    %-28s %8.3f s  %8.1f MiB%s" % (label, s["median_time"], s["median_rss_kb"] / 1024,
                                                   "  ERRORS" if "errors" in s else ""))
            for e in s.get("errors", []):
                log("        ! " + e)
            for e in s.get("notes", []):
                log("        " + (e if e.startswith("note:") else "note: " + e))
        studies.append({"study": study, "program": pts[0][1], "points": rows})
    return studies


def scaling_markdown(doc):
    lines = measured_header(doc)
    if doc.get("quick"):
        lines.append("**Quick mode (tiny inputs): the times are mostly Valgrind's start-up.**")
        lines.append("")
    titles = {"threads": "OMP_NUM_THREADS", "structures": "structures",
              "histogram": "monitor", "levels": "cache levels"}
    for st in doc["studies"]:
        lines.append("`%s`:" % st["program"])
        lines.append("")
        configs = []
        xs = []
        for p in st["points"]:
            if p["config"] not in configs:
                configs.append(p["config"])
            if p["x"] not in xs:
                xs.append(p["x"])
        if st["study"] == "histogram":
            lines.append("| %s | time (s) | peak RSS (MiB) |" % titles[st["study"]])
            lines.append("| --- | ---: | ---: |")
            for p in st["points"]:
                lines.append("| `%s` | %.2f | %.1f |" % (p["x"], p["median_time"], p["median_rss_kb"] / 1024))
        elif st["study"] == "levels":
            lines.append("| tool | levels | options | time (s) | peak RSS (MiB) |")
            lines.append("| --- | ---: | --- | ---: | ---: |")
            for p in st["points"]:
                opts = " ".join(x for x in p["argv"] if x.startswith("--L") and not x.startswith("--LL")
                                and p["config"] == "ompsim")
                if p["config"] == "cachegrind":
                    opts = "I1, D1, LL as in the suite"
                lines.append("| %s | %s | %s | %.2f | %.1f |" % (
                    p["config"], p["x"], "`%s`" % opts if opts and p["config"] == "ompsim" else opts or "default",
                    p["median_time"], p["median_rss_kb"] / 1024))
        else:
            ratio = st["study"] == "threads" and configs == ["cachegrind", "ompsim"]
            head = " | ".join("%s time (s) | %s RSS (MiB)" % (c, c) for c in configs)
            lines.append("| %s | %s%s |" % (titles[st["study"]], head,
                                            " | ompsim / cachegrind time | RSS" if ratio else ""))
            lines.append("| --- | " + " | ".join("---: | ---:" for _ in configs) +
                         (" | ---: | ---:" if ratio else "") + " |")
            for x in xs:
                cells = []
                got = {}
                for c in configs:
                    p = [q for q in st["points"] if q["x"] == x and q["config"] == c]
                    if p:
                        got[c] = p[0]
                    cells.append("%.2f | %.1f" % (p[0]["median_time"], p[0]["median_rss_kb"] / 1024) if p
                                 else "- | -")
                if ratio and len(got) == 2:
                    cells.append("%.2fx | %.2fx" % (got["ompsim"]["median_time"] / got["cachegrind"]["median_time"],
                                                    got["ompsim"]["median_rss_kb"] / got["cachegrind"]["median_rss_kb"]))
                lines.append("| %s | %s |" % (x, " | ".join(cells)))
        lines.append("")
    return "\n".join(lines)


# ---------------------------------------------------------------- writing

def replace_between(text, begin, end, body):
    i = text.find(begin)
    j = text.find(end)
    if i < 0 or j < 0 or j < i:
        return None
    return text[:i + len(begin)] + "\n" + body.rstrip("\n") + "\n" + text[j:]


def read_doc(path, after=""):
    """The text of --doc, or a one-line refusal (`after` appended)."""
    try:
        with open(path) as f:
            return f.read()
    except OSError as e:
        fail("--doc %s: %s%s" % (path, e.strerror or e, after))


def write_outputs(a, key, doc, markdown, begin, end):
    path = a.json
    data = {}
    if os.path.exists(path):
        try:
            with open(path) as f:
                data = json.load(f)
        except (OSError, ValueError):
            data = {}
    data["format"] = "ompsim-bench-1"
    data[key] = doc
    with open(path, "w") as f:
        json.dump(data, f, indent=1, sort_keys=False)
        f.write("\n")
    log("wrote %s" % rel(path))
    # Checked before the runs; gone since?
    text = read_doc(a.doc, " (the results are in %s)" % rel(path))
    new = replace_between(text, begin, end, markdown)
    if new is None:
        log("! %s has no %s ... %s markers: table not written" % (a.doc, begin, end))
        return
    with open(a.doc, "w") as f:
        f.write(new)
    log("rewrote the table of %s" % rel(a.doc))


# ------------------------------------------------------------------- main

def main():
    p = argparse.ArgumentParser(
        prog="bench/run.py", description=__doc__.split("\n\n", 1)[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--build", default=os.path.join(SRC, "_build"),
                   help="the build directory (with .inplace/ and the built tool) [%(default)s]")
    p.add_argument("--runs", type=int, default=None,
                   help="runs per configuration [$BENCH_RUNS or 3]")
    p.add_argument("--quick", action="store_true",
                   help="tiny inputs (a smoke test: times are mostly start-up); writes nothing unless --write")
    p.add_argument("--scaling", action="store_true",
                   help="run the scaling study instead of the suite")
    p.add_argument("--write", action="store_true", help="write results.json and the doc even with --quick")
    p.add_argument("--no-write", action="store_true", help="never write results.json or the doc")
    p.add_argument("--bench", type=lambda s: s.split(","), default=None,
                   help="comma-separated benchmarks to run (suite only) [all: %s]" %
                   ",".join(b[0] for b in BENCHMARKS))
    p.add_argument("--configs", type=lambda s: s.split(","), default=None,
                   help="comma-separated configurations (suite only) [all: %s]" % ",".join(CONFIG_ORDER))
    p.add_argument("--threads", type=int, default=4,
                   help="OMP_NUM_THREADS of the OpenMP benchmarks, every configuration [%(default)s]")
    p.add_argument("--env", action="append", default=[], metavar="VAR=VALUE",
                   help="add VAR=VALUE to every run's environment (repeatable), e.g. KMP_BLOCKTIME=0")
    p.add_argument("--timeout", type=int, default=900, help="seconds before a run is killed [%(default)s]")
    p.add_argument("--json", default=os.path.join(SRC, "bench", "results.json"),
                   help="the machine-readable results [%(default)s]")
    p.add_argument("--doc", default=os.path.join(SRC, "docs", "performance.md"),
                   help="the document whose table is rewritten [%(default)s]")
    p.add_argument("--list", action="store_true", help="print the commands that would run, and exit")
    a = p.parse_args()

    if a.runs is None:
        a.runs = int(os.environ.get("BENCH_RUNS") or 3)
    if a.runs < 1:
        fail("--runs must be at least 1")
    for b in a.bench or []:
        if b not in [x[0] for x in BENCHMARKS]:
            fail("unknown benchmark %r" % b)
    for c in a.configs or []:
        if c not in CONFIGS:
            fail("unknown configuration %r" % c)
    extra_env = {}
    for kv in a.env:
        if "=" not in kv:
            fail("--env wants VAR=VALUE, not %r" % kv)
        k, v = kv.split("=", 1)
        extra_env[k] = v
    build = os.path.abspath(a.build)
    if not os.path.exists(os.path.join(build, ".inplace", "ompsim-amd64-linux")):
        fail("%s/.inplace/ompsim-amd64-linux is missing: build the tool first (make)" % build)
    work = os.path.join(build, "bench-kernels")
    runner = Runner(build, work, a.timeout, extra_env)

    if a.list:
        for name, _src, kind, full, small in BENCHMARKS:
            env = "OMP_NUM_THREADS=%d " % a.threads if kind == "openmp" else ""
            for c in CONFIG_ORDER:
                log("%-11s %-15s %s%s" % (name, c, env, " ".join(
                    runner.argv(CONFIGS[c], name, small if a.quick else full, name + "." + c))))
        for pt in scaling_plan(a.quick):
            env = " ".join("%s=%s" % kv for kv in pt[7].items())
            log("scaling %-10s %-5s %s%s" % (pt[0], pt[2], env + " " if env else "",
                                             " ".join(runner.argv(pt[4], pt[5], pt[6], "scaling"))))
        return 0

    writes = not a.no_write and not (a.quick and not a.write)
    if writes:
        # Checked before the runs, not after them: a suite takes 20 minutes.
        marks = (SBEGIN, SEND) if a.scaling else (BEGIN, END)
        text = read_doc(a.doc)
        if marks[0] not in text or marks[1] not in text:
            fail("--doc %s has no %s ... %s markers for the table" % (a.doc, marks[0], marks[1]))
        json_dir = os.path.dirname(os.path.abspath(a.json))
        if not os.path.isdir(json_dir):
            fail("--json %s: no directory %s" % (a.json, json_dir))
    if os.path.exists(os.path.expanduser("~/.valgrindrc")):
        log("note: ~/.valgrindrc exists and applies to every Valgrind run")
    host = host_info()
    log("host: " + machine_line(host))
    log("load average: %.2f %.2f %.2f%s" % (host["loadavg_start"] + (
        "  (the machine is busy: figures will be noisy)" if host["loadavg_start"][0] > 0.5 else "",)))
    compile_cmds = compile_kernels(work, build)
    cmdline = " ".join(["bench/run.py", "--build", os.path.relpath(build, SRC), "--runs", str(a.runs)] +
                       (["--quick"] if a.quick else []) + (["--scaling"] if a.scaling else []) +
                       (["--bench", ",".join(a.bench)] if a.bench else []) +
                       (["--configs", ",".join(a.configs)] if a.configs else []) +
                       (["--threads", str(a.threads)] if a.threads != 4 else []) +
                       ["--env " + kv for kv in a.env])
    t0 = time.time()
    if a.scaling:
        studies = run_scaling(a, runner, a.quick)
        doc = {"host": host, "command": cmdline, "runs": a.runs, "quick": a.quick,
               "env": extra_env, "compile": compile_cmds, "studies": studies,
               "loadavg_end": os.getloadavg(), "seconds": round(time.time() - t0, 1)}
        key, md, begin, end = "scaling", scaling_markdown(doc), SBEGIN, SEND
    else:
        results, configs = run_suite(a, runner, a.quick)
        checks, info = evaluate_checks(results)
        print_checks(checks, info)
        doc = {"host": host, "command": cmdline, "runs": a.runs, "quick": a.quick,
               "env": extra_env, "compile": compile_cmds,
               "configs": {c: {"argv": (["valgrind"] + CONFIGS[c] + (
                   ["--output-file=bench-kernels/last.BENCHMARK.%s.xml" % c] if "--tool=ompsim" in CONFIGS[c]
                   else [])) if CONFIGS[c] else ["(native)"]} for c in configs},
               "configs_run": configs, "benchmarks": results, "checks": checks,
               "monitor_rss_ratio_info": info,
               "loadavg_end": os.getloadavg(), "seconds": round(time.time() - t0, 1)}
        key, md, begin, end = "suite", suite_markdown(doc), BEGIN, END
    log()
    log("%.0f s in all; load average at the end %.2f" % (time.time() - t0, doc["loadavg_end"][0]))
    if not writes:
        log("results not written (%s)" % ("--no-write" if a.no_write else "--quick without --write"))
    else:
        write_outputs(a, key, doc, md, begin, end)
    return 0


if __name__ == "__main__":
    sys.exit(main())
