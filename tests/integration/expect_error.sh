#!/bin/sh
# expect_error.sh RUNNER PROGRAM 'expected message part' [tool options...]
# Passes when the tool refuses the options: non-zero exit, the expected text
# on stderr in a line that names ompsim, and the client never ran (no stdout).
runner=$1 prog=$2 expected=$3
shift 3
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
"$runner" "$@" "$prog" >"$out" 2>"$err"
status=$?
fail() { echo "FAIL: $*"; echo "--- stderr:"; cat "$err"; echo "--- stdout:"; cat "$out"; exit 1; }
[ "$status" -ne 0 ] || fail "exit status 0 for options: $*"
grep -F -- "$expected" "$err" | grep -q ompsim || fail "no line naming ompsim with '$expected'"
[ ! -s "$out" ] || fail "the client ran although the options were rejected"
echo "ok: status $status: $(grep -F -- "$expected" "$err" | head -n 1)"
