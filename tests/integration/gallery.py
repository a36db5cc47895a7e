#!/usr/bin/env python3
"""gallery.py EXPERIMENT BUILDDIR [--keep DIR]

Runs one experiment of the teaching gallery (examples/gallery/NN-name/)
under the tool of BUILDDIR and checks the effect it teaches, in numbers
derived in the experiment's README.md and its gallery_*.py module:

    01-stride 02-working-set 03-associativity 04-matmul 05-aos-soa
    06-false-sharing 07-load-imbalance 08-control-flow

Numbers are read with ompsim-report (export --format=json, summary,
regions, flow, parallelism, whatif), never from the tool's own printout. The documents go to a
temporary directory, or to DIR with --keep (make gallery keeps them and
builds the HTML page of the run named 'report'). Prints one line per check;
exit status 1 when one failed, 2 when a run failed."""
import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

MODULES = {
    "01-stride": "gallery_stride",
    "02-working-set": "gallery_working_set",
    "03-associativity": "gallery_associativity",
    "04-matmul": "gallery_matmul",
    "05-aos-soa": "gallery_layout",
    "06-false-sharing": "gallery_false_sharing",
    "07-load-imbalance": "gallery_imbalance",
    "08-control-flow": "gallery_control_flow",
}


class Gallery:
    """What an experiment module gets: runs, readers and checks."""

    def __init__(self, experiment, build, outdir):
        self.experiment = experiment
        self.build = build
        self.outdir = outdir
        self.runner = os.path.join(build, "vg-in-place")
        self.report = os.path.join(build, "ompsim-report")
        self.failures = []

    def program(self, name):
        return os.path.join(self.build, "examples", "gallery", self.experiment, name)

    def run(self, name, program, args=(), options=(), env=None):
        """Runs PROGRAM ARGS under the tool with OPTIONS; the document is
        OUTDIR/NAME.xml (returned). A failed run ends the experiment."""
        doc = os.path.join(self.outdir, name + ".xml")
        cmd = [self.runner, "-q", "--output-file=" + doc] + list(options) + [self.program(program)] + list(args)
        r = subprocess.run(cmd, cwd=self.outdir, env=dict(os.environ, **(env or {})),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        with open(os.path.join(self.outdir, name + ".stdout"), "w") as f:
            f.write(r.stdout)
        if r.returncode != 0 or not os.path.exists(doc):
            print(r.stderr)
            print("FAIL: %s: %s exited %d" % (name, " ".join(cmd), r.returncode))
            sys.exit(2)
        return doc

    def source(self, name):
        """The path of the experiment's source file NAME."""
        here = os.path.dirname(os.path.abspath(__file__))
        return os.path.join(here, "..", "..", "examples", "gallery", self.experiment, name)

    def ompsim_report(self, *args):
        r = subprocess.run([self.report] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            print("FAIL: ompsim-report %s: %s" % (" ".join(args), r.stderr.strip()))
            sys.exit(2)
        return r.stdout

    def export(self, doc):
        return json.loads(self.ompsim_report("export", doc, "--format=json"))

    def structures(self, doc):
        """{name: structure} of the document's data structures (export json:
        kind, name, ..., costs {column: value})."""
        ds = self.export(doc)["data_structures"]
        if ds is None:
            print("FAIL: %s has no data structures (--monitor=yes?)" % doc)
            sys.exit(2)
        return {s["name"]: s for s in ds["structures"]}

    def line_costs(self, doc_json, name, marker):
        """The costs {event: value} of the line of source file NAME that
        holds MARKER, summed over its records in export json's `files`."""
        with open(self.source(name)) as f:
            number = next((i for i, text in enumerate(f, 1) if marker in text), None)
        if number is None:
            print("FAIL: no %s in %s" % (marker, name))
            sys.exit(2)
        total = {}
        for f in doc_json["files"]:
            if os.path.basename(f["path"]) == name:
                for r in f["regions"]:
                    for line in r["lines"]:
                        if line["number"] == number:
                            for k, v in line["costs"].items():
                                total[k] = total.get(k, 0) + v
        return total

    def classify_options(self):
        """The 3C miss classification (issue 9 item 1; docs/cache-model.md)."""
        return ["--classify-misses=yes"]

    @staticmethod
    def structure_classes(structure):
        """{"D1": {"compulsory", "capacity", "conflict", "coherence"}, ...}
        from a structure's D<k>comp D<k>cap D<k>conf D<k>coh columns (export
        json), or None for a run without them."""
        costs = structure["costs"]
        if "D1comp" not in costs:
            return None
        out = {}
        k = 1
        while "D%dcomp" % k in costs:
            out["D%d" % k] = {"compulsory": costs["D%dcomp" % k], "capacity": costs["D%dcap" % k],
                              "conflict": costs["D%dconf" % k], "coherence": costs["D%dcoh" % k]}
            k += 1
        return out

    def check(self, ok, what):
        print(("ok:   " if ok else "FAIL: ") + what)
        if not ok:
            self.failures.append(what)

    def equal(self, got, want, what):
        self.check(got == want, "%s = %s (derived %s)" % (what, got, want))

    def near(self, got, want, tolerance, what):
        """|got - want| <= tolerance * want."""
        self.check(abs(got - want) <= tolerance * abs(want),
                   "%s = %.4g, derived %.4g (within %g %%)" % (what, got, want, 100 * tolerance))


def main(argv):
    if len(argv) < 3 or argv[1] not in MODULES:
        sys.exit("usage: gallery.py EXPERIMENT BUILDDIR [--keep DIR]; experiments: " + " ".join(MODULES))
    experiment, build = argv[1], os.path.abspath(argv[2])
    keep = None
    if len(argv) == 5 and argv[3] == "--keep":
        keep = os.path.abspath(argv[4])
    elif len(argv) != 3:
        sys.exit("usage: gallery.py EXPERIMENT BUILDDIR [--keep DIR]")
    if keep:
        shutil.rmtree(keep, ignore_errors=True)
        os.makedirs(keep)
        outdir = keep
    else:
        outdir = tempfile.mkdtemp(prefix="gallery-")
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    module = importlib.import_module(MODULES[experiment])
    g = Gallery(experiment, build, outdir)
    try:
        module.experiment(g)
    finally:
        if not keep:
            shutil.rmtree(outdir, ignore_errors=True)
    if g.failures:
        print("%d check(s) failed" % len(g.failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
