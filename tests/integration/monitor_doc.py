#!/usr/bin/env python3
"""monitor_doc.py: questions about a profile document, for the monitor and
ePAPI tests. Reads the XML with the standard library only, independently of
sir/.

  monitor_doc.py structure DOC NAME
      one 'key=value' line per attribute of the data structure NAME, then
      one per cost column (Dr=.. D1mr=..), then site=... for heap sites
  monitor_doc.py bucket-sums DOC
      checks that the buckets of every histogram sum to the structure's
      costs; prints one line per structure, exits 1 on a mismatch
  monitor_doc.py interval DOC SRC FUNCTION MARKER EVENT[,EVENT...]
      the named events summed over FUNCTION's region in SRC plus every
      line of SRC that contains MARKER (outside FUNCTION)
"""
import os
import sys
import xml.etree.ElementTree as ET


def costs(text):
    return [int(v) for v in text.split()]


def section(root):
    ds = root.find("data-structures")
    if ds is None:
        sys.exit("no <data-structures> section (run with --monitor=yes)")
    return ds, ds.get("events").split()


def structure(doc, name):
    ds, names = section(ET.parse(doc).getroot())
    found = [s for s in ds.findall("data-structure") if s.get("name") == name]
    if len(found) != 1:
        sys.exit(f"{len(found)} data structures named {name!r}")
    s = found[0]
    for k, v in sorted(s.attrib.items()):
        print(f"{k}={v}")
    for n, v in zip(names, costs(s.find("costs").text)):
        print(f"{n}={v}")
    site = s.find("site")
    if site is not None:
        print(f"site={site.text}")
    return 0


def bucket_sums(doc):
    ds, names = section(ET.parse(doc).getroot())
    status = 0
    for s in ds.findall("data-structure"):
        h = s.find("histogram")
        if h is None:
            continue
        total = costs(s.find("costs").text)
        sums = [0] * len(total)
        for b in h.findall("bucket"):
            for i, v in enumerate(costs(b.text)):
                sums[i] += v
        ok = sums == total
        status |= not ok
        print(f"{'ok' if ok else 'FAIL'}: {s.get('name')}: buckets {sums} costs {total}")
    return status


def interval(doc, src, function, marker, events):
    root = ET.parse(doc).getroot()
    names = root.find("events").text.split()
    wanted = [names.index(e) for e in events.split(",")]
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
                    v = costs(ln.text)
                    for i, w in enumerate(wanted):
                        sums[i] += v[w]
    print(" ".join(str(s) for s in sums))
    return 0


def main(argv):
    if len(argv) >= 3 and argv[0] == "structure" and len(argv) == 3:
        return structure(argv[1], argv[2])
    if len(argv) == 2 and argv[0] == "bucket-sums":
        return bucket_sums(argv[1])
    if len(argv) == 6 and argv[0] == "interval":
        return interval(*argv[1:])
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
