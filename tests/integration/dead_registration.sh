#!/bin/sh
# dead_registration.sh RUNNER PROGRAM FORKING: a registration of libomp left
# in /dev/shm by a killed process whose pid this run got must not change the
# document (vgtool/RuntimeRegistration.h), and a live one must be left alone.
#  - dead: a flag address this process does not map. Before the fix, libomp
#    read /proc/<pid>/maps to learn that, and its 0x5f0 bytes of FILE and
#    buffer moved every later heap block of the program (seen in CI as a
#    document that differed in 1 run of 15).
#  - live: the flag at the program's __dso_handle, a word of its writable
#    data that holds its own address (a PIE client loads at 0x108000 under
#    Valgrind 3.19 on amd64): libomp must still find its "neighbour" and stop
#    with its error for two runtimes in one process.
#  - a forked child (FORKING = omp_requests, "fork"): its runtime registers
#    again under the child's pid, so files are planted for the next 300
#    pids; the child's document must be the one of a run without them.
# The file is planted by a shell that then execs Valgrind, so the tool runs
# with the shell's pid; both runs of a pair go through the same shell, so
# that their environments (and the client's stack) are the same.
runner=$1 prog=$2 forking=$3
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

# same_docs A B WHAT: ok if the two documents are identical.
same_docs() {
  if cmp -s "$1" "$2"; then
    echo "ok: $3: identical documents"
  else
    echo "FAIL: $3 changed the document"
    diff "$1" "$2" | head -n 8
    status=1
  fi
}

run none ""
run dead "0x7ff0dead0000-cafe1234-libomp.so.5"
if [ "$(cat "$t/none/code") $(cat "$t/dead/code")" != "0 0" ]; then
  echo "FAIL: runs exited with $(cat "$t/none/code") and $(cat "$t/dead/code")"; tail -n 3 "$t/dead/err"; status=1
else
  same_docs "$t/none/doc.xml" "$t/dead/doc.xml" "a dead registration for the run's pid"
fi
grep -q "removed a dead OpenMP runtime's registration" "$t/dead/err" ||
  { echo "FAIL: -v did not say the dead registration was removed"; status=1; }
! grep -q "removed a dead OpenMP runtime's registration" "$t/none/err" ||
  { echo "FAIL: -v reported a removal with no registration planted"; status=1; }
f=$(cat "$t/dead/file")
[ ! -e "$f" ] || { echo "FAIL: $f is still there"; rm -f "$f"; status=1; }

# fork_run NAME PLANT: omp_requests fork, with PLANT planted for the 300
# pids after the shell's (the child's is one of them on a quiet machine).
fork_run() {
  name=$1 plant=$2
  mkdir -p "$t/$name"
  (cd "$t/$name" && PLANT=$plant UID_=$uid sh -c '
      echo $$ >parent
      i=1
      while [ -n "$PLANT" ] && [ $i -le 300 ]; do
        printf "%s" "$PLANT" >/dev/shm/__KMP_REGISTERED_LIB_$(($$ + i))_$UID_
        i=$((i + 1))
      done
      unset PLANT UID_ i
      exec "$@"' sh "$runner" -v --output-file=doc.%p.xml "$forking" fork >out 2>err
    echo $? >code) 2>/dev/null
  parent=$(cat "$t/$name/parent")
  i=1
  while [ $i -le 300 ]; do rm -f "/dev/shm/__KMP_REGISTERED_LIB_$((parent + i))_$uid"; i=$((i + 1)); done
  # The child's document: the one not named after the parent.
  child=$(cd "$t/$name" && ls doc.*.xml | grep -v "^doc\.$parent\." | head -n 1)
  cpid=${child#doc.}
  cpid=${cpid%%.*}
  echo "$cpid" >"$t/$name/child"
  [ -n "$cpid" ] && rm -f "/dev/shm/__KMP_REGISTERED_LIB_${cpid}_$uid"  # it leaves by _exit
  [ -n "$child" ] && cp "$t/$name/$child" "$t/$name/child.xml"
}

fork_run fnon ""
fork_run fdea "0x7ff0dead0000-cafe1234-libomp.so.5"
parent=$(cat "$t/fdea/parent") cpid=$(cat "$t/fdea/child")
if [ "$(cat "$t/fnon/code") $(cat "$t/fdea/code")" != "0 0" ] || [ ! -f "$t/fnon/child.xml" ] || [ ! -f "$t/fdea/child.xml" ]; then
  echo "FAIL: the forking runs exited with $(cat "$t/fnon/code") and $(cat "$t/fdea/code"), or left no child document"
  tail -n 3 "$t/fdea/err"; status=1
elif [ -z "$cpid" ] || [ "$cpid" -le "$parent" ] || [ "$cpid" -gt $((parent + 300)) ]; then
  echo "ok: (the child's pid $cpid fell outside the planted pids after $parent: its case not tried)"
elif ! grep -q "^--$cpid-- removed a dead OpenMP runtime's registration" "$t/fdea/err"; then
  echo "FAIL: the forked child $cpid did not remove the dead registration planted for it"; status=1
else
  same_docs "$t/fnon/child.xml" "$t/fdea/child.xml" "a dead registration for a forked child's pid"
fi

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
