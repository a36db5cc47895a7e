# Shared by the ompsim-report shell tests (sourced after report=, srcdir=).
# Each check prints "ok: ..." or "FAIL: ..."; a FAIL sets status=1, which
# the test exits with.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; status=1; }
# run CMD...: stdout to $tmp/out, stderr to $tmp/err, exit status to $rc.
run() { "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
expect_rc() {  # STATUS WHAT
  if [ "$rc" -eq "$1" ]; then ok "$2: exit $rc"; else bad "$2: exit $rc, expected $1"; cat "$tmp/out" "$tmp/err"; fi
}
expect_match() {  # REGEX WHAT
  if grep -Eq -- "$1" "$tmp/out"; then ok "$2"; else bad "$2: no line matching '$1'"; cat "$tmp/out"; fi
}
expect_no_match() {  # REGEX WHAT
  if grep -Eq -- "$1" "$tmp/out"; then bad "$2: a line matches '$1'"; else ok "$2"; fi
}
expect_error() {  # WHAT REGEX: exit 2, one stderr line matching, no stdout
  if [ "$rc" -ne 2 ]; then bad "$1: exit $rc, expected 2"
  elif [ "$(wc -l <"$tmp/err")" -ne 1 ]; then bad "$1: $(wc -l <"$tmp/err") stderr lines"; cat "$tmp/err"
  elif ! grep -Eq -- "$2" "$tmp/err"; then bad "$1: stderr does not match '$2': $(cat "$tmp/err")"
  elif [ -s "$tmp/out" ]; then bad "$1: wrote to stdout"
  else ok "$1: $(cat "$tmp/err")"; fi
}
expect_output() {  # FILE WHAT: stdout is exactly FILE
  if cmp -s "$1" "$tmp/out"; then ok "$2"; else bad "$2"; diff "$1" "$tmp/out"; fi
}
