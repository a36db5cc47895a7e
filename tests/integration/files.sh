#!/bin/sh
# files.sh CASE RUNNER ROUNDTRIP SMALL [PROC_LIFE]
# The tool's output files (docs/output-format.md, "Output files"):
#   unwritable   a read-only directory, a path through a regular file: one
#                line naming the option, the file and the reason, status 1,
#                the client never runs
#   disk_full    a 4 KiB tmpfs (as root) and /dev/full: one line naming the
#                file, status 1, no "Profile document" line, and no file
#                left that could pass for a document
#   existing     a name without %p is never overwritten (document,
#                Cachegrind-format file, OSPG log) unless
#                --output-overwrite=yes; names with %p are unaffected
#   fork_fixed   a fixed name and fork(): the parent's document only
case_=$1 runner=$2 rt=$3 small=$4 proc=$5
t=$(mktemp -d)
mounted=""
cleanup() {
  for m in $mounted; do umount "$m" 2>/dev/null; done
  chmod -R u+w "$t" 2>/dev/null
  rm -rf "$t"
}
trap cleanup EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }
ok() { echo "ok: $*"; }

# refused 'MESSAGE' OPTION...: status 1, MESSAGE on a line naming ompsim,
# and the client never ran (SMALL prints a line when it runs).
refused() {
  msg=$1
  shift
  "$runner" -q "$@" "$small" >"$t/out" 2>"$t/err"
  code=$?
  if [ "$code" = 1 ] && grep -F -- "$msg" "$t/err" | grep -q ompsim && [ ! -s "$t/out" ]; then ok "refused: $msg"
  else fail "expected status 1, '$msg' and no client output; status $code"; cat "$t/err" "$t/out"; fi
}
# write_fails FILE 'MESSAGE' OPTION...: the client ran, writing FILE failed,
# and FILE is not announced as a document.
write_fails() {
  file=$1 msg=$2
  shift 2
  "$runner" --vgdb=no "$@" "$small" >"$t/out" 2>"$t/err"
  code=$?
  if [ "$code" = 1 ] && grep -F -- "$msg" "$t/err" | grep -q ompsim; then ok "status 1 and: $msg"
  else fail "expected status 1 and '$msg'; status $code"; cat "$t/err"; fi
  [ "$(grep -cF -- "$msg" "$t/err")" = 1 ] || fail "the message is not one line"
  [ -s "$t/out" ] && ok "the client ran" || fail "the client did not run"
  ! grep -qF "Profile document: $file" "$t/err" || fail "$file is announced although it was not written"
}

case $case_ in
unwritable)
  mkdir "$t/ro"
  if [ "$(id -u)" = 0 ]; then
    mount -t tmpfs -o ro,size=64k tmpfs "$t/ro" && mounted="$t/ro" || { echo "FAIL: cannot mount"; exit 1; }
    why="read-only file system"
  else
    chmod 555 "$t/ro"
    why="permission denied"
  fi
  refused "--output-file: cannot create '$t/ro/d.xml' ($why)" --output-file="$t/ro/d.xml"
  refused "--cachegrind-out-file: cannot create '$t/ro/cg.out' ($why)" --output-file="$t/d.xml" --cachegrind-out-file="$t/ro/cg.out"
  [ ! -e "$t/d.xml" ] && ok "the document claimed before the refusal is removed" || fail "$t/d.xml left behind"
  : >"$t/plain"
  refused "--output-file: cannot create '$t/plain/d.xml' (a part of the path is not a directory)" --output-file="$t/plain/d.xml"
  refused "--output-file: cannot create '$t' (it is a directory)" --output-file="$t"
  ;;
disk_full)
  write_fails /dev/full "--output-file: cannot write '/dev/full' (no space left on device)" --output-file=/dev/full
  if [ "$(id -u)" = 0 ]; then
    mkdir "$t/full"
    mount -t tmpfs -o size=4k tmpfs "$t/full" && mounted="$t/full" || { echo "FAIL: cannot mount"; exit 1; }
    write_fails "$t/full/d.xml" "--output-file: cannot write '$t/full/d.xml' (no space left on device)" --output-file="$t/full/d.xml"
    [ -z "$(ls -A "$t/full")" ] && ok "nothing left on the full disk" || { fail "files left:"; ls -la "$t/full"; }
    write_fails "$t/full/cg.out" "--cachegrind-out-file: cannot write '$t/full/cg.out' (no space left on device)" \
      --output-file="$t/ok.xml" --cachegrind-out-file="$t/full/cg.out"
    [ -z "$(ls -A "$t/full")" ] && ok "nothing left on the full disk" || { fail "files left:"; ls -la "$t/full"; }
    "$rt" "$t/ok.xml" >/dev/null && ok "the document beside it is whole" || fail "the document beside it"
    # The staging directory full: the stage is cut short, and noticed
    # (--vgdb=no in write_fails: Valgrind's own files there would fail first).
    TMPDIR="$t/full"
    export TMPDIR
    write_fails "$t/staged.xml" "--output-file: cannot write '$t/staged.xml' (its temporary file is incomplete" \
      --output-file="$t/staged.xml"
    unset TMPDIR
    [ ! -e "$t/staged.xml" ] && ok "no document from a cut stage" || fail "$t/staged.xml left behind"
  else
    echo "skipped: the tmpfs cases (not root)"
  fi
  ;;
existing)
  "$runner" -q --output-file="$t/d.xml" --cachegrind-out-file="$t/cg.out" "$small" >/dev/null 2>&1 ||
    { echo "FAIL: first run"; exit 1; }
  sum=$(cat "$t/d.xml" "$t/cg.out" | cksum)
  refused "--output-file: cannot create '$t/d.xml' (it exists, and a name without %p is never overwritten" \
    --output-file="$t/d.xml"
  refused "--cachegrind-out-file: cannot create '$t/cg.out' (it exists" --output-file="$t/d2.xml" --cachegrind-out-file="$t/cg.out"
  [ ! -e "$t/d2.xml" ] && ok "nothing claimed by the refused run is left" || fail "$t/d2.xml left behind"
  : >"$t/o.log"
  refused "--ospg-log: cannot create '$t/o.log' (it exists" --output-file="$t/d3.xml" --ospg-log="$t/o.log"
  [ "$(cat "$t/d.xml" "$t/cg.out" | cksum)" = "$sum" ] && ok "the first run's files are untouched" || fail "files changed"
  "$runner" -q --output-overwrite=yes --output-file="$t/d.xml" --cachegrind-out-file="$t/cg.out" "$small" >"$t/out" 2>"$t/err" &&
    [ -s "$t/out" ] && "$rt" "$t/d.xml" >/dev/null && ok "--output-overwrite=yes replaces them" ||
    { fail "--output-overwrite=yes"; cat "$t/err"; }
  # %p names: every run its own file; a leftover of the same name is replaced.
  for i in 1 2; do "$runner" -q --output-file="$t/p.%p.xml" "$small" >/dev/null 2>&1 || fail "run $i with %p"; done
  [ "$(ls "$t" | grep -c '^p\.[0-9]*\.xml$')" = 2 ] && ok "two runs with %p: two documents" || { fail "not two"; ls "$t"; }
  [ -z "$(ls "$t" | grep -e stage -e '\.tmp\.')" ] && ok "no temporary files left" || { fail "temporary files left"; ls "$t"; }
  ;;
fork_fixed)
  "$runner" -q --output-file="$t/d.xml" "$proc" fork /bin/true >"$t/out" 2>"$t/err"
  code=$?
  set -- $(grep '^pids ' "$t/out")
  [ "$code" = 0 ] && [ "$6" = 5 ] && ok "the program ran: $*" || { fail "status $code: $*"; cat "$t/err"; }
  grep -q '<run complete="true" termination="exit" exit-status="0"' "$t/d.xml" &&
    ok "the document is the parent's (exit 0), not child A's (exit 5)" || fail "not the parent's document"
  "$rt" "$t/d.xml" >/dev/null && ok "it is whole" || fail "round trip"
  grep -qF -- "--output-file: '$t/d.xml' has no %p and belongs to the parent process: this forked process (pid $3)" "$t/err" &&
    ok "child A says it writes no document" || { fail "no message from child A"; cat "$t/err"; }
  ;;
*)
  echo "unknown case $case_"
  exit 2
  ;;
esac
exit $status
