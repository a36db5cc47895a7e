#!/bin/sh
# dead_registration.sh RUNNER PROGRAM: a registration of libomp left in
# /dev/shm by a killed process whose pid this run got must not change the
# document (vgtool/RuntimeRegistration.h), and a live one must be left alone.
#  - dead: a flag address this process does not map. Before the fix, libomp
#    read /proc/<pid>/maps to learn that, and its 0x5f0 bytes of FILE and
#    buffer moved every later heap block of the program (seen in CI as a
#    document that differed in 1 run of 15).
#  - live: the flag at the program's __dso_handle, a word of its writable
#    data that holds its own address (a PIE client loads at 0x108000 under
#    Valgrind 3.19 on amd64): libomp must still find its "neighbour" and stop
#    with its error for two runtimes in one process.
# The file is planted by a shell that then execs Valgrind, so the tool runs
# with the shell's pid; both runs of a pair go through the same shell, so
# that their environments (and the client's stack) are the same.
runner=$1 prog=$2
t=$(mktemp -d)
uid=$(id -u)
trap 'rm -rf "$t"' EXIT
status=0
if [ ! -d /dev/shm ] || [ ! -w /dev/shm ]; then
  echo "skip: /dev/shm is not writable"; exit 77
fi
export OMP_NUM_THREADS=4

# run NAME PLANT [OPTIONS...]: PLANT is the registration's content or "".
run() {
  name=$1 plant=$2  # names of one length: the working directory is in the environment
  shift 2
  mkdir -p "$t/$name"
  (cd "$t/$name" && PLANT=$plant UID_=$uid sh -c '
      f=/dev/shm/__KMP_REGISTERED_LIB_$$_$UID_
      [ -n "$PLANT" ] && printf "%s" "$PLANT" >"$f"
      echo "$f" >file
      unset PLANT UID_
      exec "$@"' sh "$runner" -v --output-file=doc.xml "$@" "$prog" 4096 4 >out 2>err
    echo $? >code) 2>/dev/null  # the shell's "Aborted" for the live run
}

run none ""
run dead "0x7ff0dead0000-cafe1234-libomp.so.5"
if [ "$(cat "$t/none/code") $(cat "$t/dead/code")" != "0 0" ]; then
  echo "FAIL: runs exited with $(cat "$t/none/code") and $(cat "$t/dead/code")"; tail -n 3 "$t/dead/err"; status=1
elif cmp -s "$t/none/doc.xml" "$t/dead/doc.xml"; then
  echo "ok: a dead registration for the run's pid: identical documents"
else
  echo "FAIL: a dead registration for the run's pid changed the document"
  diff "$t/none/doc.xml" "$t/dead/doc.xml" | head -n 8
  status=1
fi
grep -q "removed a dead OpenMP runtime's registration" "$t/dead/err" ||
  { echo "FAIL: -v did not say the dead registration was removed"; status=1; }
! grep -q "removed a dead OpenMP runtime's registration" "$t/none/err" ||
  { echo "FAIL: -v reported a removal with no registration planted"; status=1; }
f=$(cat "$t/dead/file")
[ ! -e "$f" ] || { echo "FAIL: $f is still there"; rm -f "$f"; status=1; }

off=$(nm "$prog" | awk '$3 == "__dso_handle" { print $1 }')
[ -n "$off" ] || { echo "FAIL: no __dso_handle in $prog"; exit 1; }
flag=$(printf '%x' $((0x108000 + 0x$off)))
run live "0x$flag-$flag-libomp.so.5"
f=$(cat "$t/live/file")
if [ -e "$f" ]; then
  echo "ok: a live registration was left in place"
  rm -f "$f"
else
  echo "FAIL: the tool removed a live registration"; status=1
fi
if [ "$(cat "$t/live/code")" != 0 ] && grep -q "OMP: Error #15" "$t/live/err"; then
  echo "ok: libomp still reports a second runtime: $(grep -o 'OMP: Error #15[^.]*' "$t/live/err" | head -n 1)"
else
  echo "FAIL: libomp did not stop for the live registration (exit $(cat "$t/live/code"))"; tail -n 3 "$t/live/err"; status=1
fi
exit $status
