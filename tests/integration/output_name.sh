#!/bin/sh
# output_name.sh RUNNER PROGRAM
# Without --output-file the document is ompsim.out.<pid>.xml in the working
# directory; --output-file expands %p (pid) and %q{VAR} (environment) as
# Valgrind's own options do.
runner=$1 prog=$2
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
status=0
(cd "$t" && "$runner" "$prog" >/dev/null 2>stderr) || { echo "FAIL: run"; cat "$t/stderr"; exit 1; }
pid=$(sed -n 's/^==\([0-9]*\)==.*/\1/p' "$t/stderr" | head -n 1)
if [ -f "$t/ompsim.out.$pid.xml" ]; then echo "ok: ompsim.out.$pid.xml written"
else echo "FAIL: no ompsim.out.$pid.xml"; ls "$t"; status=1; fi
grep -q "Profile document: .*/ompsim.out.$pid.xml" "$t/stderr" && echo "ok: stderr names the document" ||
  { echo "FAIL: stderr does not name the document"; status=1; }
(cd "$t" && OMPSIM_TEST_TAG=tagged "$runner" -q --output-file='run-%q{OMPSIM_TEST_TAG}-%p.xml' "$prog" >/dev/null 2>stderr2)
ls "$t" | grep -q '^run-tagged-[0-9]*\.xml$' && echo "ok: %q{VAR} and %p expanded" ||
  { echo "FAIL: %q{VAR}/%p not expanded"; ls "$t"; status=1; }
exit $status
