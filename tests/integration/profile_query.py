#!/usr/bin/env python3
"""profile_query.py DOC SOURCE MARKER EVENT[,EVENT...]

Prints the named events of the source line of SOURCE that contains MARKER,
summed over the document's regions of every file whose path ends with
SOURCE's base name. Reads the document with the standard library only, so
it checks the tool's output independently of sir/.
"""
import os
import sys
import xml.etree.ElementTree as ET


def main():
    if len(sys.argv) != 5:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    doc, source, marker, events = sys.argv[1:]
    with open(source) as f:
        numbers = [i + 1 for i, text in enumerate(f) if marker in text]
    if not numbers:
        print(f"marker {marker!r} not in {source}", file=sys.stderr)
        return 2
    line = numbers[0]
    root = ET.parse(doc).getroot()
    names = root.find("events").text.split()
    wanted = [names.index(e) for e in events.split(",")]
    sums = [0] * len(wanted)
    base = os.path.basename(source)
    for f in root.find("program").findall("file"):
        if not f.get("path").endswith("/" + base) and f.get("path") != base:
            continue
        for region in f.findall("region"):
            for ln in region.findall("line"):
                if int(ln.get("number")) == line:
                    values = [int(v) for v in ln.text.split()]
                    for i, w in enumerate(wanted):
                        sums[i] += values[w]
    print(" ".join(str(s) for s in sums))
    return 0


if __name__ == "__main__":
    sys.exit(main())
