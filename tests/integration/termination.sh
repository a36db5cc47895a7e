#!/bin/sh
# termination.sh RUNNER ENDS_BINARY
# The document records how the client ended: exit status from exit();
# a client killed by a signal still gets a document, marked incomplete.
runner=$1 bin=$2
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
status=0
run() {  # NAME EXPECTED_RUN_ATTRIBUTES ARGS...
  name=$1 want=$2
  shift 2
  "$runner" -q --output-file="$t/$name.xml" "$bin" "$@" >/dev/null 2>"$t/$name.err"
  if [ ! -s "$t/$name.xml" ]; then echo "FAIL: $name: no document"; cat "$t/$name.err"; status=1; return; fi
  if ! tail -n 1 "$t/$name.xml" | grep -q '^</ompsim-profile>$'; then echo "FAIL: $name: document not closed"; status=1; fi
  if grep -q "<run $want" "$t/$name.xml"; then echo "ok: $name: <run $want"
  else echo "FAIL: $name: expected <run $want"; grep '<run' "$t/$name.xml"; status=1; fi
}
run exit0 'complete="true" termination="exit" exit-status="0" signal="0"'
run exit3 'complete="true" termination="exit" exit-status="3" signal="0"' exit 3
run segv 'complete="false" termination="signal"' segv
run abort 'complete="false" termination="signal"' abort
# The crashed run still holds the work done before the crash: main's memset.
grep -q 'name="main"' "$t/segv.xml" && echo "ok: segv document has main's costs" || { echo "FAIL: segv document lacks main"; status=1; }
exit $status
