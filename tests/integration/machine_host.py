#!/usr/bin/env python3
"""machine_host.py MODE RUNNER PROGRAM [ARG]

--machine=host (docs/host-detection.md) against what this script reads from
sysfs itself, independently of the tool:

  check RUNNER PROGRAM [FIXTURE]
      runs `--machine=host --output-file=...`; the printed hierarchy equals
      sysfs (levels, types, sizes, ways, line sizes, sets, sharing, the
      number of private levels) and the document's <machine> describes the
      same geometry with the desktop preset's latencies. With FIXTURE (a
      tests/unit/host/*.txt file) the sysfs tree is that machine's, written
      to a temporary directory the tool reads through OMPSIM_HOST_SYSFS.
  cpuid RUNNER PROGRAM
      OMPSIM_HOST_SYSFS names an empty directory: the tool falls back to
      CPUID; the printed geometry still equals the real sysfs.
  config RUNNER PROGRAM
      `machine = host` in a --cache-config file, with `L3-latency = 50` (or
      the last level's) applied on top of the detected machine.
  bad-option RUNNER PROGRAM
      an option that cannot apply to the detected machine (a latency of the
      level below the last) is refused with the builder's message.
  bad-sysfs RUNNER PROGRAM FIXTURE
      a broken description (tests/unit/host/inconsistent.txt,
      missing_file.txt) is refused before the program runs, with the
      message the unit tests expect, naming the temporary tree.
Exit status 0 when every check holds, 1 otherwise (each failure printed).
"""
import atexit
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SYSFS = "/sys/devices/system/cpu/cpu0"
LATENCY = {1: 5, 2: 15, 3: 65, 4: 120}
MEMORY_LATENCY = 250
UNITS = ["B", "KiB", "MiB", "GiB", "TiB"]

failures = []


def scratch():
    """A temporary directory removed when the script exits."""
    d = tempfile.mkdtemp(prefix="machine_host.")
    atexit.register(shutil.rmtree, d, True)
    return d


def check(ok, what):
    if not ok:
        failures.append(what)
        print(f"FAIL: {what}")


def finish():
    if failures:
        print(f"{len(failures)} check(s) failed")
        sys.exit(1)
    print("ok")
    sys.exit(0)  # SystemExit: the atexit handlers still run


# ---------------------------------------------------------------------------
# sysfs, read here


def read(root, rel):
    with open(os.path.join(root, rel)) as f:
        return f.read().strip()


def cpu_list(text):
    cpus = set()
    for part in text.split(","):
        a, _, b = part.partition("-")
        cpus.update(range(int(a), int(b or a) + 1))
    return cpus


def size_bytes(text):
    mult = {"K": 1024, "M": 1024 ** 2, "G": 1024 ** 3}
    if text[-1] in mult:
        return int(text[:-1]) * mult[text[-1]]
    return int(text)


def sysfs_caches(root):
    """cpu0's caches as a list of dicts, in index order, and the siblings."""
    try:
        siblings = cpu_list(read(root, "topology/thread_siblings_list"))
    except FileNotFoundError:
        siblings = {0}
    caches = []
    n = 0
    while os.path.isdir(os.path.join(root, f"cache/index{n}")):
        d = f"cache/index{n}/"
        level = int(read(root, d + "level"))
        kind = read(root, d + "type")
        ways = int(read(root, d + "ways_of_associativity"))
        line = int(read(root, d + "coherency_line_size"))
        size = size_bytes(read(root, d + "size"))
        parts = 1
        if os.path.exists(os.path.join(root, d + "physical_line_partition")):
            parts = max(1, int(read(root, d + "physical_line_partition")))
        if os.path.exists(os.path.join(root, d + "number_of_sets")):
            sets = int(read(root, d + "number_of_sets"))
        else:
            sets = size // ((ways or size // line) * line * parts)
        shared_text = read(root, d + "shared_cpu_list")
        shared = cpu_list(shared_text)
        if level == 1:
            name = {"Data": "D1", "Instruction": "I1"}.get(kind, "L1")
        else:
            name = f"L{level}"
        caches.append(dict(name=name, level=level, kind=kind, size=size, ways=ways, line=line,
                           sets=sets, parts=parts, cpus=shared_text, private=shared <= siblings))
        n += 1
    return caches, siblings


def private_levels(caches):
    levels = max(c["level"] for c in caches)
    p = 0
    for k in range(1, levels + 1):
        if all(c["private"] for c in caches if c["level"] == k):
            p = k
        else:
            break
    return max(p, 1), levels


def size_text(n):
    u = 0
    while u < 4 and n and n % 1024 == 0:
        n //= 1024
        u += 1
    return f"{n} {UNITS[u]}"


# ---------------------------------------------------------------------------
# The tool


def run(runner, prog, opts, env_extra=None):
    env = dict(os.environ)
    env.update(env_extra or {})
    p = subprocess.run([runner, "--tool=ompsim"] + opts + [prog], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def tool_lines(stderr):
    """The tool's "ompsim: " message lines, without Valgrind's ==pid== prefix."""
    out = []
    for line in stderr.splitlines():
        m = re.match(r"^==\d+== ompsim: (.*)$", line)
        if m:
            out.append(m.group(1))
    return out


CACHE_RE = re.compile(
    r"^  (\w+) +(\d+) (B|KiB|MiB|GiB|TiB), (?:(\d+)-way|fully associative), (\d+) B lines, "
    r"(\d+) sets?, (?:(\d+) line partitions, )?"
    r"(?:private \(cpus? ([^)]*)\)|shared by cpus (\S+)|private \((?:up to )?(\d+) logical cpus?\)|"
    r"shared by up to (\d+) logical cpus), (non-inclusive|inclusive|exclusive)$")


def parse_printout(lines):
    """header, [cache dicts], private levels line, inclusion line, latency line."""
    start = [i for i, l in enumerate(lines) if l.startswith("--machine=host: from ")]
    if len(start) != 1:
        return None
    i = start[0]
    header = lines[i]
    caches = []
    i += 1
    while i < len(lines) and CACHE_RE.match(lines[i]):
        m = CACHE_RE.match(lines[i])
        size = int(m.group(2)) * 1024 ** UNITS.index(m.group(3))
        caches.append(dict(name=m.group(1), size=size, ways=int(m.group(4)) if m.group(4) else 0,
                           line=int(m.group(5)), sets=int(m.group(6)),
                           parts=int(m.group(7) or 1),
                           cpus=m.group(8) if m.group(8) is not None else m.group(9),
                           private=m.group(8) is not None or m.group(10) is not None,
                           inclusion=m.group(12), text=lines[i]))
        i += 1
    rest = lines[i:i + 3]
    return header, caches, rest


def compare_printout(sys_caches, printed, cpu_lists=True):
    check(len(printed) == len(sys_caches),
          f"{len(printed)} caches printed, sysfs has {len(sys_caches)}")
    for s, p in zip(sys_caches, printed):
        what = f"{s['name']} (sysfs index {sys_caches.index(s)}): printed '{p['text']}'"
        check(p["name"] == s["name"], f"{what}: name, sysfs says {s['name']}")
        check(p["size"] == s["size"], f"{what}: size, sysfs says {s['size']} B")
        check(p["ways"] == s["ways"], f"{what}: ways, sysfs says {s['ways']}")
        check(p["line"] == s["line"], f"{what}: line, sysfs says {s['line']}")
        check(p["sets"] == s["sets"], f"{what}: sets, sysfs says {s['sets']}")
        check(p["parts"] == s["parts"], f"{what}: partitions, sysfs says {s['parts']}")
        if cpu_lists:
            check(p["private"] == s["private"], f"{what}: private, sysfs says {s['private']}")
            check(p["cpus"] == s["cpus"], f"{what}: cpus, sysfs says {s['cpus']}")
        expect_text = size_text(s["size"])
        check(f" {expect_text}," in p["text"], f"{what}: size text, expected {expect_text}")


def compare_document(doc, sys_caches, printed, latencies=None):
    root = ET.parse(doc).getroot()
    m = root.find("machine")
    check(m is not None, f"{doc}: no <machine>")
    if m is None:
        return
    p, levels = private_levels(sys_caches)
    split = any(c["name"] == "I1" for c in sys_caches)
    check(m.get("name") == "host", f"<machine name='{m.get('name')}'>, expected host")
    check(m.get("model") == "hierarchy", f"<machine model='{m.get('model')}'>")
    check(m.get("levels") == str(levels), f"<machine levels='{m.get('levels')}'>, sysfs: {levels}")
    check(m.get("split-l1") == ("true" if split else "false"), f"<machine split-l1='{m.get('split-l1')}'>")
    check(m.get("memory-latency") == str(MEMORY_LATENCY), f"memory-latency {m.get('memory-latency')}")
    by_name = {c.get("name"): c for c in m.findall("cache")}
    check(len(by_name) == len(sys_caches), f"{len(by_name)} <cache> elements, sysfs has {len(sys_caches)}")
    inclusion = {c["name"]: c["inclusion"] for c in printed}
    for s in sys_caches:
        c = by_name.get(s["name"])
        check(c is not None, f"no <cache name='{s['name']}'>")
        if c is None:
            continue
        assoc = s["ways"] or s["size"] // s["line"]
        lat = (latencies or {}).get(s["level"], LATENCY[s["level"]])
        for attr, want in (("level", s["level"]), ("size", s["size"]), ("assoc", assoc),
                           ("line-size", s["line"]), ("sets", s["size"] // (assoc * s["line"])),
                           ("latency", lat), ("replacement", "lru"), ("write-policy", "write-back"),
                           ("inclusion", inclusion.get(s["name"]))):
            check(c.get(attr) == str(want), f"<cache name='{s['name']}'> {attr}='{c.get(attr)}', expected {want}")


# ---------------------------------------------------------------------------
# Fixtures (tests/unit/host/*.txt) as sysfs trees


def materialize(fixture, where):
    prefix = SYSFS + "/"
    with open(fixture) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.startswith(prefix):
                continue
            path, _, value = line[len(prefix):].partition(":")
            full = os.path.join(where, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as out:
                out.write(value + "\n")
    return where


# ---------------------------------------------------------------------------
# Modes


def mode_check(runner, prog, fixture=None):
    tmp = scratch()
    env = {}
    root = SYSFS
    if fixture:
        root = materialize(fixture, os.path.join(tmp, "cpu0"))
        env["OMPSIM_HOST_SYSFS"] = root
    sys_caches, siblings = sysfs_caches(root)
    check(sys_caches, f"{root}: no caches (this test needs sysfs cache descriptions)")
    if not sys_caches:
        finish()
    doc = os.path.join(tmp, "host.xml")
    status, out, err = run(runner, prog, ["--machine=host", f"--output-file={doc}"], env)
    check(status == 0, f"exit status {status}:\n{err}")
    parsed = parse_printout(tool_lines(err))
    check(parsed is not None, f"no '--machine=host: from' line in:\n{err}")
    if parsed is None:
        finish()
    header, printed, rest = parsed
    print("\n".join([header] + [c["text"] for c in printed] + rest))
    n = len(sys_caches)
    check(header == f"--machine=host: from {root}/cache ({n} cache{'s' if n != 1 else ''})",
          f"header '{header}'")
    compare_printout(sys_caches, printed)
    p, levels = private_levels(sys_caches)
    sib = ",".join(str(c) for c in sorted(siblings))
    check(len(rest) == 3 and rest[0].startswith(f"  private levels: {p} of {levels} (cpu 0's core: cpus "),
          f"private levels line {rest[:1]}, expected {p} of {levels} (siblings {sib})")
    check(len(rest) == 3 and rest[1].startswith("  inclusion: "), f"inclusion line {rest[1:2]}")
    lat = ", ".join(f"L{k} {LATENCY[k]}" for k in range(1, levels + 1))
    check(len(rest) == 3 and rest[2] == "  latencies: not reported by the hardware; the desktop "
          f"preset's: {lat}, memory {MEMORY_LATENCY} cycles", f"latency line {rest[2:3]}")
    compare_document(doc, sys_caches, printed)
    finish()


def mode_cpuid(runner, prog):
    tmp = scratch()
    empty = os.path.join(tmp, "empty")
    os.makedirs(empty)
    sys_caches, _ = sysfs_caches(SYSFS)
    doc = os.path.join(tmp, "host.xml")
    status, out, err = run(runner, prog, ["--machine=host", f"--output-file={doc}"],
                           {"OMPSIM_HOST_SYSFS": empty})
    check(status == 0, f"exit status {status}:\n{err}")
    parsed = parse_printout(tool_lines(err))
    check(parsed is not None, f"no '--machine=host: from' line in:\n{err}")
    if parsed is None:
        finish()
    header, printed, rest = parsed
    print("\n".join([header] + [c["text"] for c in printed] + rest))
    check(re.match(r"^--machine=host: from CPUID leaf 0x(4|8000001D) \(\d+ caches?; "
                   + re.escape(empty) + r"/cache has no cache descriptions\)$", header) is not None,
          f"header '{header}'")
    # CPUID's sharing is a count of APIC IDs, not a list (and on hybrid parts
    # may count another core type's): compare the geometry.
    compare_printout(sys_caches, printed, cpu_lists=False)
    compare_document(doc, sys_caches, printed)
    finish()


def mode_config(runner, prog):
    tmp = scratch()
    sys_caches, _ = sysfs_caches(SYSFS)
    _, levels = private_levels(sys_caches)
    cfg = os.path.join(tmp, "host.cfg")
    with open(cfg, "w") as f:
        f.write(f"# the detected machine with another last-level latency\nmachine = host\nL{levels}-latency = 50\n")
    doc = os.path.join(tmp, "host.xml")
    status, out, err = run(runner, prog, [f"--cache-config={cfg}", f"--output-file={doc}"])
    check(status == 0, f"exit status {status}:\n{err}")
    parsed = parse_printout(tool_lines(err))
    check(parsed is not None, f"no '--machine=host: from' line in:\n{err}")
    if parsed is None:
        finish()
    compare_printout(sys_caches, parsed[1])
    compare_document(doc, sys_caches, parsed[1], latencies={levels: 50})
    finish()


def expect_refusal(status, out, err, expected):
    check(status != 0, "exit status 0")
    lines = [l for l in err.splitlines() if "ompsim" in l and expected in l]
    check(len(lines) == 1, f"no line naming ompsim with '{expected}' in:\n{err}")
    check(out == "", f"the client ran: {out!r}")
    if lines:
        print(lines[0])


def mode_bad_option(runner, prog):
    sys_caches, _ = sysfs_caches(SYSFS)
    _, levels = private_levels(sys_caches)
    if levels < 4:
        opt, expected = (f"--L{levels + 1}-latency=10",
                         f"--L{levels + 1}-latency: there is no L{levels + 1} (the hierarchy has {levels} levels)")
    else:
        opt, expected = "--L1-unified=yes --I1=32K,8,64", "--I1: level 1 is unified"
    status, out, err = run(runner, prog, ["--machine=host"] + opt.split())
    expect_refusal(status, out, err, expected)
    finish()


def mode_bad_sysfs(runner, prog, fixture):
    tmp = scratch()
    root = materialize(fixture, os.path.join(tmp, "cpu0"))
    name = os.path.basename(fixture)
    expected = {
        "inconsistent.txt": f"--machine=host: L2 ({root}/cache/index2): size 1048576 B differs from sets x "
                            "ways x line x partitions (2048 x 16 x 64 x 1 = 2097152 B): the description is "
                            "inconsistent",
        "missing_file.txt": f"--machine=host: cannot read {root}/cache/index2/ways_of_associativity "
                            "(no such file)",
    }[name]
    status, out, err = run(runner, prog, ["--machine=host"], {"OMPSIM_HOST_SYSFS": root})
    expect_refusal(status, out, err, expected)
    finish()


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        sys.exit(2)
    mode, runner, prog = sys.argv[1:4]
    extra = sys.argv[4:]
    modes = {"check": mode_check, "cpuid": mode_cpuid, "config": mode_config,
             "bad-option": mode_bad_option, "bad-sysfs": mode_bad_sysfs}
    if mode not in modes:
        print(__doc__)
        sys.exit(2)
    modes[mode](runner, prog, *extra)


if __name__ == "__main__":
    main()
