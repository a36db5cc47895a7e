#!/usr/bin/env python3
"""monitor_doc.py: questions about the data-structure section of a profile
document, for the monitor, ePAPI and example tests. Reads the XML with the
standard library only, so it checks the tool's output independently of sir/.
NAME is a structure's name, optionally with its kind (global:A, heap:main);
it must match exactly one counted structure.

  monitor_doc.py costs DOC NAME EVENT[,EVENT...] [buckets|threads]
      the named events (columns of the section's `events` attribute) of
      NAME: one line of totals; or one line per histogram bucket, index 0 to
      N-1, omitted (all-zero) buckets printed as zeros; or one line per thread
  monitor_doc.py structure DOC NAME
      one 'key=value' line per attribute of NAME, then one per cost column
      (Dr=.. D1mr=..), then site=... for heap sites
  monitor_doc.py bucket-sums DOC
      checks that the buckets of every histogram sum to the structure's
      costs; one line per structure, exit 1 on a mismatch
  monitor_doc.py interval DOC SRC FUNCTION MARKER EVENT[,EVENT...]
      the document's events (program section) summed over FUNCTION's region
      in SRC plus every other line of SRC that contains MARKER
Exit status 2 on a usage error, a missing section or structure, or an
unknown event.
"""
import os
import sys
import xml.etree.ElementTree as ET


def fail(msg):
    print(f"monitor_doc.py: {msg}", file=sys.stderr)
    sys.exit(2)


def numbers(text):
    return [int(v) for v in text.split()]


def section(doc):
    ds = ET.parse(doc).getroot().find("data-structures")
    if ds is None:
        fail(f"{doc} has no <data-structures> section (run with --monitor=yes)")
    return ds, ds.get("events").split()


def find(ds, doc, name):
    kind = None
    if ":" in name:
        kind, name = name.split(":", 1)
    found = [s for s in ds.findall("data-structure")
             if s.get("name") == name and s.get("counted") == "true"
             and (kind is None or s.get("kind") == kind)]
    if len(found) != 1:
        fail(f"{len(found)} counted structures named {name!r} in {doc}")
    return found[0]


def columns(names, events):
    for e in events.split(","):
        if e not in names:
            fail(f"no event {e!r} in {names}")
    return [names.index(e) for e in events.split(",")]


def costs(doc, name, events, what="totals"):
    ds, names = section(doc)
    s = find(ds, doc, name)
    wanted = columns(names, events)
    pick = lambda text: " ".join(str(numbers(text)[w]) for w in wanted)
    if what == "totals":
        print(pick(s.find("costs").text))
    elif what == "threads":
        for t in s.findall("thread"):
            print(t.get("id"), pick(t.find("costs").text))
    elif what == "buckets":
        h = s.find("histogram")
        if h is None:
            fail(f"{name!r} has no histogram (--histogram-bins or --histogram-lines)")
        buckets = {int(b.get("index")): pick(b.text) for b in h.findall("bucket")}
        zeros = " ".join("0" for _ in wanted)
        for i in range(int(h.get("bins") or h.get("buckets"))):
            print(i, buckets.get(i, zeros))
    else:
        fail(f"unknown selector {what!r} (buckets or threads)")
    return 0


def structure(doc, name):
    ds, names = section(doc)
    s = find(ds, doc, name)
    for k, v in sorted(s.attrib.items()):
        print(f"{k}={v}")
    for n, v in zip(names, numbers(s.find("costs").text)):
        print(f"{n}={v}")
    site = s.find("site")
    if site is not None:
        print(f"site={site.text}")
    return 0


def bucket_sums(doc):
    ds, _ = section(doc)
    status = 0
    for s in ds.findall("data-structure"):
        h = s.find("histogram")
        if h is None:
            continue
        total = numbers(s.find("costs").text)
        sums = [0] * len(total)
        for b in h.findall("bucket"):
            for i, v in enumerate(numbers(b.text)):
                sums[i] += v
        ok = sums == total
        status |= not ok
        print(f"{'ok' if ok else 'FAIL'}: {s.get('name')}: buckets {sums} costs {total}")
    return status


def interval(doc, src, function, marker, events):
    root = ET.parse(doc).getroot()
    wanted = columns(root.find("events").text.split(), events)
    with open(src) as f:
        marked = {i + 1 for i, text in enumerate(f) if marker in text}
    base = os.path.basename(src)
    sums = [0] * len(wanted)
    for f in root.find("program").findall("file"):
        if os.path.basename(f.get("path")) != base:
            continue
        for region in f.findall("region"):
            whole = region.get("name") == function
            for ln in region.findall("line"):
                if whole or int(ln.get("number")) in marked:
                    v = numbers(ln.text)
                    for i, w in enumerate(wanted):
                        sums[i] += v[w]
    print(" ".join(str(s) for s in sums))
    return 0


COMMANDS = {"costs": (costs, (4, 5)), "structure": (structure, (3,)),
            "bucket-sums": (bucket_sums, (2,)), "interval": (interval, (6,))}


def main(argv):
    if argv and argv[0] in COMMANDS and len(argv) in COMMANDS[argv[0]][1]:
        return COMMANDS[argv[0]][0](*argv[1:])
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
