#!/usr/bin/env python3
"""Checks the <event-flow> of tests/progs/ipm_figure3.c runs (the IPM paper's
Figure 3 program, one run per rank) against the program's structure.

event_flow.py rank RANK|none DOC SOURCE
    default components: the signatures (name, size, absolute partner, call
    site line from the source's @markers), the rank attribute, and the
    edges S0 -> Init -> Comm_size -> Comm_rank -> X, X -> X 9 times,
    X -> Finalize, with X = MPI_Send to rank - 1 (odd ranks) or MPI_Recv
    from rank + 1 (even ranks).
event_flow.py mpi RANK DOC SOURCE
    tests/progs/ipm_figure3_mpi.c on the stand-in libmpi.so.40: the same
    events from the preload's MPI wrappers, then MPI_Bcast of 3 ints from
    root 0 (12 B, partner 0) and MPI_Recv of 1 int from MPI_ANY_SOURCE
    (4 B, no partner), at the program's lines.
event_flow.py sizes RANK DOC
    --event-flow=size: two signatures (0 B and 80 B), IPM's smallest graph.
event_flow.py absent DOC
    --event-flow=no: no section.
Prints one line per check; exits 1 if any failed."""
import sys
import xml.etree.ElementTree as ET

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def marker_line(source, name):
    for i, line in enumerate(open(source), 1):
        if f"@{name} " in line:
            return i
    sys.exit(f"{source}: no marker @{name}")


def flow(doc):
    return ET.parse(doc).getroot().find("event-flow")


def edges(ef, key):
    sig = {s.get("id"): key(s) for s in ef.findall("signature")}
    sig["S0"] = "START"
    got = {}
    for e in ef.findall("edge"):
        k = (sig[e.get("from")], sig[e.get("to")])
        got[k] = got.get(k, 0) + int(e.get("count"))
    return got


def ranks(rank_arg, doc, source, mpi=False):
    ef = flow(doc)
    check(ef is not None, "the document has <event-flow>")
    check(ef.get("components") == "region callsite size partner", "default components region callsite size partner")
    known = rank_arg != "none"
    rank = int(rank_arg) if known else 1
    check(ef.get("rank") == (rank_arg if known else None),
          f"rank attribute {rank_arg if known else 'absent'} (from the launcher's environment or --rank)")
    odd = rank % 2 == 1
    x = ("MPI_Send", "send", rank - 1) if odd else ("MPI_Recv", "recv", rank + 1)
    calls = [("MPI_Init", "init", None, 0), ("MPI_Comm_size", "size", None, 0), ("MPI_Comm_rank", "rank", None, 0),
             (x[0], x[1], x[2], 80), ("MPI_Finalize", "finalize", None, 0)]
    if mpi:
        calls[4:4] = [("MPI_Bcast", "bcast", 0, 12), ("MPI_Recv", "any", None, 4)]
    callsites = {c.get("id"): c for c in ef.findall("callsite")}
    sigs = ef.findall("signature")
    check(len(sigs) == len(calls), f"{len(calls)} signatures ({len(sigs)})")
    for s, (name, marker, partner, size) in zip(sigs, calls):
        c = callsites[s.get("callsite")]
        got = (s.get("event"), s.get("size"), s.get("partner"), int(c.get("line")), c.get("function"), c.get("node"))
        want = (name, str(size), None if partner is None else str(partner), marker_line(source, marker), "main", "0")
        check(got == want, f"{s.get('id')} is {name} {size} B partner {partner} at @{marker} in main: {got}")
    name = lambda s: s.get("event") + ("" if s.get("partner") or s.get("size") == "0" else " any")
    want = {("START", "MPI_Init"): 1, ("MPI_Init", "MPI_Comm_size"): 1, ("MPI_Comm_size", "MPI_Comm_rank"): 1,
            ("MPI_Comm_rank", x[0]): 1, (x[0], x[0]): 9}
    if mpi:
        want.update({(x[0], "MPI_Bcast"): 1, ("MPI_Bcast", "MPI_Recv any"): 1, ("MPI_Recv any", "MPI_Finalize"): 1})
    else:
        want[(x[0], "MPI_Finalize")] = 1
    check(edges(ef, name) == want, f"edges {want}")


def sizes(rank, doc):
    ef = flow(doc)
    check(ef is not None and ef.get("components") == "size", "--event-flow=size records the size only")
    check([s.get("size") for s in ef.findall("signature")] == ["0", "80"], "two signatures: 0 B and 80 B")
    check(all(s.get("event") is None and s.get("callsite") is None for s in ef.findall("signature")),
          "no other component")
    want = {("START", "0"): 1, ("0", "0"): 2, ("0", "80"): 1, ("80", "80"): 9, ("80", "0"): 1}
    check(edges(ef, lambda s: s.get("size")) == want, f"size edges {want}")


if __name__ == "__main__":
    what = sys.argv[1]
    if what == "rank":
        ranks(sys.argv[2], sys.argv[3], sys.argv[4])
    elif what == "mpi":
        ranks(sys.argv[2], sys.argv[3], sys.argv[4], mpi=True)
    elif what == "sizes":
        sizes(sys.argv[2], sys.argv[3])
    elif what == "absent":
        check(flow(sys.argv[2]) is None, "--event-flow=no: no <event-flow>")
    else:
        sys.exit(f"unknown check {what}")
    sys.exit(1 if failures else 0)
