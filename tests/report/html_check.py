#!/usr/bin/env python3
"""Checks a page of 'ompsim-report html' against its profile document.

  html_check.py check PAGE DOC [--dot=yes|no]   structure, numbers, no network
  html_check.py inject PAGE OUT                 a copy with the browser probe
  html_check.py dom DUMP PAGE                   the probe's findings in Chromium's --dump-dom

The expected sections, charts and numbers are derived here from the XML
document with ElementTree, independently of ompsim-report's reader:
  - sections: machine always; levels with <cache-stats>; threads with
    <threads>; structures with <data-structures>; histograms when a counted
    structure has a <histogram>; classes when the <cache-stats> have
    miss-compulsory; reuse when a <reuse-distance> has accesses; regions with <region-profile>, flow when it
    has more than one node; parallelism and whatif with <parallelism>;
    source when a line has a non-zero cost of the rank event (Cycles, else
    the first event);
  - <svg> charts: one per cache with references, one for <cores>, one per
    data level (D<k>mr columns) when a structure is counted, one per counted
    structure with a histogram (at most 24), one for the miss classes, one
    for the miss-ratio curves, one for the OpenMP states, one
    for the flow graph when Graphviz is installed (--dot=yes), one for the
    speedup estimates when work and span are non-zero;
  - the numbers of the totals, cache levels, data structures, threads,
    parallelism tables and the costliest source line equal the document's.
Exit 0 when every check passes, 1 otherwise (each failure printed).
"""
import json
import re
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

VOID = {"meta", "br", "img", "input", "link", "hr", "wbr", "col", "source"}
failures = []


def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent = tag, dict(attrs), parent
        self.children, self.text = [], ""

    def all(self, tag=None):
        for c in self.children:
            if tag is None or c.tag == tag:
                yield c
            yield from c.all(tag)

    def content(self):
        return self.text + "".join(c.content() for c in self.children)


class Tree(HTMLParser):
    """A strict tree: every element closed in order (SVG's <x/> too)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", [], None)
        self.at = self.root
        self.errors = []

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.at)
        self.at.children.append(node)
        if tag not in VOID:
            self.at = node

    def handle_startendtag(self, tag, attrs):
        self.at.children.append(Node(tag, attrs, self.at))

    def handle_endtag(self, tag):
        if self.at.tag != tag:
            self.errors.append(f"</{tag}> closes <{self.at.tag}>")
            return
        self.at = self.at.parent

    def handle_data(self, data):
        # Text goes to the innermost open element (enough for cells and titles).
        self.at.text += data


def parse(path):
    with open(path, encoding="utf-8") as f:
        raw = f.read()
    t = Tree()
    t.feed(raw)
    t.close()
    return raw, t


def by_id(tree, ident):
    for n in tree.root.all():
        if n.attrs.get("id") == ident:
            return n
    return None


def table_rows(tree, ident):
    """[{header: cell text}] of table `ident`, or None."""
    t = by_id(tree, ident)
    if t is None:
        return None
    heads = [th.content().strip() for th in t.all("th")]
    rows = []
    for tr in t.all("tr"):
        cells = [td.content() for td in tr.all("td")]
        if cells:
            rows.append(dict(zip(heads, cells)))
    return rows


def num(text):
    return int(text.replace(",", "").strip())


def ints(text):
    return [int(v) for v in text.split()]


def check_page(page, doc_path, dot):
    raw, tree = parse(page)
    doc = ET.parse(doc_path).getroot()
    check(not tree.errors, f"{page}: elements nest and close ({tree.errors[:3]})")
    check(raw.startswith("<!DOCTYPE html>"), "starts with <!DOCTYPE html>")
    # Nothing from the network: no src/href/url()/@import naming a host.
    external = re.findall(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:|//)|url\(\s*["']?\s*(?:https?:|//)|@import""", raw,
                          re.I)
    check(not external, f"no external resources ({external[:3]})")
    check(not re.search(r"<(?:link|iframe|img|object|embed)\b", raw, re.I), "no link, iframe, img, object, embed")
    scripts = list(tree.root.all("script"))
    check(all("src" not in s.attrs for s in scripts), "scripts are inline")
    hrefs = [a.attrs.get("href", "") for a in tree.root.all("a")]
    check(all(h.startswith("#") for h in hrefs), "links stay inside the page")

    events = doc.find("events").text.split()
    totals = ints(doc.find("totals/costs").text)
    rank = events.index("Cycles") if "Cycles" in events else 0
    ds = doc.find("data-structures")
    rp = doc.find("region-profile")
    par = doc.find("parallelism")
    threads = doc.find("threads")
    cores = doc.find("cores")
    stats = doc.findall("totals/cache-stats")
    kinds = ["fetch", "read", "write", "writeback"]
    lines = [ints(l.text) for l in doc.iter("line")]

    # --- the sections
    expected = ["machine"]
    if stats:
        expected.append("levels")
    if threads is not None and len(threads):
        expected.append("threads")
    counted = []
    if ds is not None:
        expected.append("structures")
        counted = [s for s in ds.findall("data-structure") if s.get("counted") == "true"]
        if any(s.find("histogram") is not None for s in counted):
            expected.append("histograms")
    classified = any(c.get("miss-compulsory") is not None for c in stats)
    if classified:
        expected.append("classes")
    reused = ds is not None and any(int(r.get("accesses")) > 0 for r in ds.iter("reuse-distance"))
    if reused:
        expected.append("reuse")
    if rp is not None:
        expected.append("regions")
        if len(rp.findall("node")) > 1:
            expected.append("flow")
    if par is not None:
        expected += ["parallelism", "whatif"]
    if any(l[rank] > 0 for l in lines):
        expected.append("source")
    sections = [s.attrs.get("id") for s in tree.root.all("section")]
    check(sections == expected, f"sections {sections} == {expected}")
    for s in tree.root.all("section"):
        caps = [p for p in s.all("p") if "caption" in p.attrs.get("class", "")]
        check(caps and caps[0].content().strip(), f"section {s.attrs.get('id')} has a caption")

    # --- the charts
    svgs = 0
    with_refs = [c for c in stats if any(int(c.get(k + "-refs")) for k in kinds)]
    svgs += len(with_refs)
    if cores is not None:
        svgs += 1
    if counted:
        svgs += len([c for c in ds.get("events").split() if re.fullmatch(r"D\d+mr", c)])
        svgs += min(24, len([s for s in counted if s.find("histogram") is not None]))
    svgs += classified + reused
    if rp is not None:
        svgs += 1
        if len(rp.findall("node")) > 1 and dot:
            svgs += 1
    if par is not None:
        prog = par.find("program")
        if int(prog.get("work")) and int(prog.get("span")):
            svgs += 1
    found = len(list(tree.root.all("svg")))
    check(found == svgs, f"{found} <svg> charts, expected {svgs}")
    for c in with_refs:
        fig = by_id(tree, "fig-level-" + c.get("name"))
        check(fig is not None and len(list(fig.all("svg"))) == 1, f"figure of {c.get('name')}")
        if fig is None:
            continue
        tips = [t.content() for t in fig.all("title")]
        for k, label in zip(kinds, ["fetch", "read", "write", "write-back"]):
            refs, misses = int(c.get(k + "-refs")), int(c.get(k + "-misses"))
            if refs and misses:
                want = f"{c.get('name')} {label}: {misses:,} misses"
                check(want in tips, f"bar '{want}'")
    if rp is not None and len(rp.findall("node")) > 1:
        flow = by_id(tree, "fig-flow")
        check((flow is not None) == dot, f"flow graph drawn: {flow is not None}, Graphviz: {dot}")
        if not dot:
            check(by_id(tree, "tab-flow") is not None, "the flow table stands in for the drawing")

    # --- the numbers
    rows = table_rows(tree, "tab-totals")
    check(rows is not None and [(r["Event"], num(r["Total"])) for r in rows] == list(zip(events, totals)),
          "tab-totals equals <totals>")
    if stats:
        want = []
        for c in stats:
            for k, label in zip(kinds, ["fetch", "read", "write", "write-back"]):
                refs, misses = int(c.get(k + "-refs")), int(c.get(k + "-misses"))
                if refs:
                    want.append((c.get("name"), label, refs, refs - misses, misses))
        got = [(r["Cache"], r["Kind"], num(r["Refs"]), num(r["Hits"]), num(r["Misses"]))
               for r in table_rows(tree, "tab-levels")]
        check(got == want, "tab-levels equals <cache-stats> (hits = refs - misses)")
    if ds is not None:
        cols = ds.get("events").split()
        got = table_rows(tree, "tab-structures")
        structs = ds.findall("data-structure")
        ok = got is not None and len(got) == len(structs)
        for r, s in zip(got or [], structs):
            costs = dict(zip(cols, ints(s.find("costs").text)))
            ok = ok and num(r["Dr"]) == costs["Dr"] and num(r["Dw"]) == costs["Dw"]
            for k in range(1, 10):
                if f"D{k}mr" in costs:
                    name = [h for h in r if h.endswith(" read misses")][k - 1]
                    ok = ok and num(r[name]) == costs[f"D{k}mr"]
        check(ok, "tab-structures equals the structures' Dr, Dw and D<k>mr")
    if classified:
        names = ["compulsory", "capacity", "conflict", "coherence"]
        want = [(c.get("name"), [int(c.get("miss-" + n)) for n in names]) for c in stats]
        got = [(r["Cache"], [num(r[n]) for n in names]) for r in table_rows(tree, "tab-classes") or []]
        check(got == want, "tab-classes equals the miss-* attributes")
    if reused:
        got = table_rows(tree, "tab-reuse") or []
        want = sum(max(1, len(r.findall("bin"))) for r in ds.iter("reuse-distance") if int(r.get("accesses")))
        check(len(got) == want, f"tab-reuse has a row per bin ({len(got)} == {want})")
    if threads is not None and len(threads):
        got = table_rows(tree, "tab-threads")
        ok = got is not None and len(got) == len(threads)
        for r, t in zip(got or [], threads):
            costs = dict(zip(events, ints(t.find("costs").text)))
            ok = ok and all(num(r[e]) == costs[e] for e in ("Ir", "Dr", "Dw", "Cycles") if e in costs)
        check(ok, "tab-threads equals <threads>")
    if par is not None:
        prog = par.find("program")
        got = {r["Figure"]: r["Value"] for r in table_rows(tree, "tab-parallelism")}
        check(num(got["Work"]) == int(prog.get("work")) and num(got["Span"]) == int(prog.get("span")),
              "tab-parallelism work and span equal <program>")
    if any(l[rank] > 0 for l in lines):
        got = table_rows(tree, "tab-lines")
        check(got and num(got[0][events[rank]]) == max(l[rank] for l in lines),
              f"the first source line has the largest {events[rank]}")
    # The command is shown with its arguments escaped ('x&y' in structures.xml).
    for arg in doc.findall("run/command/arg"):
        text = arg.text or ""
        check(text in tree.root.content(), f"argument {text!r} shown")
        if "&" in text:
            check(text.replace("&", "&amp;") in raw, f"argument {text!r} escaped")


PROBE_HEAD = ("<script>window.__errors=[];window.addEventListener('error',function(e){"
              "window.__errors.push(String(e.message)+' at '+e.lineno);});</script>")
PROBE_END = """<script>
(function () {
  var r = {svgs: 0, rendered: 0, bars: 0, sorted: null, errors: window.__errors};
  var svgs = document.querySelectorAll('svg');
  r.svgs = svgs.length;
  for (var i = 0; i < svgs.length; i++) {
    var b = svgs[i].getBoundingClientRect();
    if (b.width > 0 && b.height > 0) r.rendered++;
  }
  var rects = document.querySelectorAll('figure svg rect title');
  for (var j = 0; j < rects.length; j++) {
    var b2 = rects[j].parentNode.getBoundingClientRect();
    if (b2.width > 0 && b2.height > 0) r.bars++;
  }
  // The page's script: a click on Total sorts the totals, most first.
  var th = document.querySelectorAll('#tab-totals th')[1];
  if (th) {
    th.click();
    var v = [].map.call(document.querySelectorAll('#tab-totals tbody tr td:nth-child(2)'),
                        function (td) { return parseInt(td.textContent.replace(/,/g, ''), 10); });
    r.sorted = v.every(function (x, k) { return k === 0 || v[k - 1] >= x; });
  }
  var out = document.createElement('pre');
  out.id = 'ompsim-probe';
  out.textContent = 'PROBE' + JSON.stringify(r) + 'PROBE';
  document.body.appendChild(out);
})();
</script>"""


def inject(page, out):
    with open(page, encoding="utf-8") as f:
        raw = f.read()
    raw = raw.replace("<head>", "<head>\n" + PROBE_HEAD, 1)
    at = raw.rindex("</body>")
    with open(out, "w", encoding="utf-8") as f:
        f.write(raw[:at] + PROBE_END + raw[at:])


def dom(dump, page):
    with open(dump, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"PROBE(\{.*?\})PROBE", text)
    check(m is not None, "the probe ran (its result is in the DOM)")
    if not m:
        return
    r = json.loads(m.group(1))
    _, tree = parse(page)
    want = len(list(tree.root.all("svg")))
    check(r["errors"] == [], f"no script errors: {r['errors']}")
    check(r["svgs"] == want, f"Chromium sees {r['svgs']} svg elements, the page has {want}")
    check(r["rendered"] == want, f"{r['rendered']} of {want} charts rendered with a non-zero size")
    check(want == 0 or r["bars"] > 0, f"{r['bars']} bars and points drawn with a non-zero size")
    check(r["sorted"] is True, "a click on the Total heading sorts the totals")


def main(argv):
    if len(argv) >= 3 and argv[0] == "check":
        check_page(argv[1], argv[2], "--dot=yes" in argv[3:])
    elif len(argv) == 3 and argv[0] == "inject":
        inject(argv[1], argv[2])
        return 0
    elif len(argv) == 3 and argv[0] == "dom":
        dom(argv[1], argv[2])
    else:
        print(__doc__)
        return 2
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
