#!/usr/bin/env python3
"""ds_query.py DOC NAME EVENT[,EVENT...] [buckets|threads]

Prints costs of the data structure NAME from the <data-structures> section
of the profile document DOC (written with --monitor=yes), for the named
events (names of the section's `events` attribute, e.g. Dr,D1mr):

  (no 4th argument)  one line: the structure's totals;
  buckets            one line per histogram bucket, index 0 to bins-1 (the
                     `bins` or, in lines mode, `buckets` attribute): the
                     index, then the costs; buckets the document omits (all
                     zero) print as zeros;
  threads            one line per thread: the thread id, then the costs.

NAME is the structure's name attribute, optionally prefixed with its kind
(global:A, heap:make_list, user:tile). It must match exactly one structure
with counted="true". Reads the document with the standard library only, so
it checks the tool's output independently of sir/. Exit status 2 on a usage
error, a missing section or structure, or an unknown event.
"""
import sys
import xml.etree.ElementTree as ET


def fail(msg):
    print(f"ds_query.py: {msg}", file=sys.stderr)
    sys.exit(2)


def values(elem, wanted):
    text = elem.find("costs").text if elem.tag != "bucket" else elem.text
    row = [int(v) for v in text.split()]
    return [row[w] for w in wanted]


def main():
    if len(sys.argv) not in (4, 5):
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    doc, name, events = sys.argv[1:4]
    what = sys.argv[4] if len(sys.argv) == 5 else "totals"
    if what not in ("totals", "buckets", "threads"):
        fail(f"unknown selector {what!r} (buckets or threads)")
    kind = None
    if ":" in name:
        kind, name = name.split(":", 1)
    section = ET.parse(doc).getroot().find("data-structures")
    if section is None:
        fail(f"{doc} has no <data-structures> section (run with --monitor=yes)")
    names = section.get("events").split()
    wanted = []
    for e in events.split(","):
        if e not in names:
            fail(f"no event {e!r} in {names}")
        wanted.append(names.index(e))
    found = [ds for ds in section.findall("data-structure")
             if ds.get("name") == name and ds.get("counted") == "true"
             and (kind is None or ds.get("kind") == kind)]
    if len(found) != 1:
        fail(f"{len(found)} counted structures named {name!r} in {doc}")
    ds = found[0]
    if what == "totals":
        print(" ".join(str(v) for v in values(ds, wanted)))
    elif what == "threads":
        for t in ds.findall("thread"):
            print(t.get("id"), " ".join(str(v) for v in values(t, wanted)))
    else:
        hist = ds.find("histogram")
        if hist is None:
            fail(f"{name!r} has no histogram (--histogram-bins or --histogram-lines)")
        buckets = {int(b.get("index")): values(b, wanted) for b in hist.findall("bucket")}
        count = int(hist.get("bins") or hist.get("buckets"))
        for i in range(count):
            row = buckets.get(i, [0] * len(wanted))
            print(i, " ".join(str(v) for v in row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
