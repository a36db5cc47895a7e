#!/bin/sh
# clients.sh CASE RUNNER ROUNDTRIP XSD PROGRAM [ARG...]
# Programs that misbehave or are big (issue 10): each run must end with a
# document that is valid (the schema, and sir/ reads it back byte for byte)
# and says what it covers. PROGRAM is the test program of CASE:
#   segv, abort        ends (killed by SIGSEGV / SIGABRT)
#   thread_exit        proc_life: a second thread calls exit(7)
#   fork_exec SMALL    proc_life: parent, child A (exit 5), child B exec'ing
#                      SMALL; --trace-children=yes and %p: three documents
#   kill_self          proc_life: the process sends itself SIGTERM, SIGINT
#   killed             proc_life: SIGTERM from outside while it waits
#   handled            proc_life: SIGUSR1 and SIGTERM caught by a handler
#   threads200         many_threads: 200 threads alive together
#   omp_team_sizes     teams of 2, 4, then 3 threads
#   omp_wide           one team of 300 OpenMP threads: more than the OSPG's
#                      256 thread slots (a warning, not a crash)
#   big_heap           big_heap reserve, with --monitor=yes
#   many_allocs        big_heap allocs 300000, with --monitor=yes
#   unmap              unmap_structure, with --monitor=yes
case_=$1 runner=$2 rt=$3 xsd=$4 prog=$5
shift 5
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }
ok() { echo "ok: $*"; }

# valid DOC...: the schema and the round trip through sir/.
valid() {
  if xmllint --noout --schema "$xsd" "$@" 2>"$t/lint"; then ok "$# document(s) valid against the schema"
  else fail "schema"; head -n 5 "$t/lint"; fi
  "$rt" "$@" >"$t/rt" || { fail "round trip"; cat "$t/rt"; }
}
# has DOC 'TEXT' WHAT: DOC holds TEXT (fixed string).
has() {
  if grep -qF -- "$2" "$1"; then ok "$3"; else fail "$3: '$2' not in $(basename "$1")"; grep '<run ' "$1"; fi
}
# run DOC OPTION... -- ARG...: the program under the tool; stdout in $t/out.
run() {
  doc=$1
  shift
  "$runner" -q --output-file="$doc" "$@" >"$t/out" 2>"$t/err"
  code=$?
  [ -s "$doc" ] || { fail "no document"; cat "$t/err"; exit 1; }
}

# A run killed by signal N: incomplete; `signal` is N when the program sent
# it to itself (abort, kill on its own pid), 0 for a fault or a signal from
# outside, which Valgrind does not tell the tool (docs/output-format.md).
killed_by() { echo "complete=\"false\" termination=\"signal\" exit-status=\"0\" signal=\"$1\""; }
case $case_ in
segv | abort)
  run "$t/d.xml" "$prog" "$case_"
  valid "$t/d.xml"
  if [ "$case_" = abort ]; then sig=6; else sig=0; fi
  has "$t/d.xml" "<run $(killed_by $sig)" "killed by a signal: marked incomplete, signal=\"$sig\""
  # The work before the end is in: main's memset of 64 KiB = 1024 lines.
  grep -q 'name="main"' "$t/d.xml" && ok "main's costs are in" || fail "main's costs are missing"
  ;;
thread_exit)
  run "$t/d.xml" "$prog" thread-exit
  [ "$code" = 7 ] && ok "exit status 7" || fail "exit status $code, expected 7"
  valid "$t/d.xml"
  has "$t/d.xml" '<run complete="true" termination="exit" exit-status="7" signal="0"' "exit(7) from the second thread"
  has "$t/d.xml" 'threads="2"' "two threads"
  [ "$(grep -c '<thread id=' "$t/d.xml")" = 2 ] && ok "two <thread> elements" || fail "not two <thread> elements"
  ;;
fork_exec)
  small=$1
  (cd "$t" && "$runner" -q --trace-children=yes --output-file='doc.%p.xml' "$prog" fork "$small" >out 2>err)
  code=$?
  # "pids PARENT A B status 5 0" (SMALL's line is there too)
  set -- $(grep '^pids ' "$t/out")
  [ "$code" = 0 ] && [ "$1" = pids ] && [ "$6" = 5 ] && [ "$7" = 0 ] && ok "parent and children ran: $*" ||
    { fail "run: status $code, stdout '$*'"; cat "$t/err"; exit 1; }
  parent=$2 a=$3 b=$4
  for pid in "$parent" "$a" "$b"; do
    [ -s "$t/doc.$pid.xml" ] && ok "doc.$pid.xml written" || fail "no doc.$pid.xml"
  done
  n=$(ls "$t" | grep -c '^doc\.')
  [ "$n" = 3 ] && ok "three documents, distinct pids" || { fail "$n documents"; ls "$t"; }
  [ "$(ls "$t" | grep -vc -e '^doc\.[0-9]*\.xml$' -e '^out$' -e '^err$')" = 0 ] && ok "no stray files" ||
    { fail "stray files"; ls "$t"; }
  valid "$t/doc.$parent.xml" "$t/doc.$a.xml" "$t/doc.$b.xml"
  has "$t/doc.$parent.xml" '<run complete="true" termination="exit" exit-status="0"' "parent: exit 0"
  has "$t/doc.$a.xml" '<run complete="true" termination="exit" exit-status="5"' "child A: exit 5"
  has "$t/doc.$b.xml" "<command exe=\"$small\">" "child B: the exec'd program"
  has "$t/doc.$b.xml" '<run complete="true" termination="exit" exit-status="0"' "child B: exit 0"
  ;;
kill_self)
  for sig in 15 2; do
    run "$t/d$sig.xml" "$prog" kill-self $sig
    [ "$code" = $((128 + sig)) ] && ok "killed by signal $sig" || fail "status $code, expected $((128 + sig))"
    valid "$t/d$sig.xml"
    has "$t/d$sig.xml" "<run $(killed_by $sig)" "signal $sig: marked incomplete, and which signal"
  done
  ;;
killed)
  "$runner" -q --output-file="$t/d.xml" "$prog" wait >"$t/out" 2>"$t/err" &
  pid=$!
  i=0
  while ! grep -q ready "$t/out" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
  kill -TERM $pid
  wait $pid
  code=$?
  [ "$code" = 143 ] && ok "SIGTERM ended it" || fail "status $code, expected 143"
  [ -s "$t/d.xml" ] || { fail "no document"; cat "$t/err"; exit 1; }
  valid "$t/d.xml"
  has "$t/d.xml" "<run $(killed_by 0)" "SIGTERM from outside: marked incomplete (signal unknown)"
  ;;
handled)
  run "$t/d.xml" "$prog" handled
  [ "$code" = 0 ] && grep -q 'caught 11' "$t/out" && ok "both handlers ran, exit 0" || fail "status $code: $(cat "$t/out")"
  valid "$t/d.xml"
  has "$t/d.xml" '<run complete="true" termination="exit" exit-status="0" signal="0"' "handled signals: a normal exit"
  grep -q 'name="on_signal"' "$t/d.xml" && ok "the handler's costs are in" || fail "no costs of on_signal"
  ;;
threads200)
  run "$t/d.xml" "$prog"
  [ "$code" = 0 ] && ok "exit 0" || { fail "status $code"; cat "$t/out" "$t/err"; }
  valid "$t/d.xml"
  has "$t/d.xml" 'threads="201"' "201 threads (main and 200)"
  [ "$(grep -c '<thread id=' "$t/d.xml")" = 201 ] && ok "201 <thread> elements" || fail "not 201 <thread> elements"
  ;;
omp_team_sizes)
  export OMP_NUM_THREADS=4
  run "$t/d.xml" "$prog"
  [ "$code" = 0 ] && ok "exit 0" || { fail "status $code"; cat "$t/out" "$t/err"; }
  valid "$t/d.xml"
  has "$t/d.xml" '<run complete="true" termination="exit" exit-status="0"' "a normal exit"
  # Teams of 2, 4 and 3: the runtime reuses its threads, four at most.
  has "$t/d.xml" 'threads="4"' "four threads"
  ;;
omp_wide)
  export OMP_NUM_THREADS=300
  run "$t/d.xml" "$prog"
  [ "$code" = 0 ] && grep -q 'team 300 sum 44850' "$t/out" && ok "300 threads, sum 0 + ... + 299 = 44850" ||
    { fail "status $code: $(cat "$t/out")"; tail -5 "$t/err"; }
  valid "$t/d.xml"
  has "$t/d.xml" '<run complete="true" termination="exit" exit-status="0"' "a normal exit"
  has "$t/d.xml" 'threads="300"' "300 threads"
  [ "$(sed -n '/^  <threads>/,/^  <\/threads>/p' "$t/d.xml" | grep -c '<thread id=')" = 300 ] &&
    ok "300 <thread> elements in <threads>" || fail "not 300 <thread> elements in <threads>"
  has "$t/d.xml" '<warning kind="ospg-thread-slots" limit="256">' "<warning> ospg-thread-slots"
  has "$t/err" "warning: the OSPG follows 256 OpenMP threads; the work of the 44 others is not in it" \
    "stderr: the OSPG warning"
  ;;
big_heap)
  run "$t/d.xml" --monitor=yes --histogram-bins=16 "$prog" reserve
  [ "$code" = 0 ] && grep -q 'stores 64' "$t/out" && ok "32 GiB reserved, 8 GiB allocated" ||
    { fail "status $code: $(cat "$t/out")"; cat "$t/err"; }
  valid "$t/d.xml"
  has "$t/d.xml" '<run complete="true" termination="exit" exit-status="0"' "a normal exit"
  # The 8 GiB block is one heap structure of that size with its 32 stores
  # (one long every 256 MiB, none straddling a line) and no reads; every
  # store misses every level but the first, whose line malloc's chunk header
  # (16 bytes before the block) had just brought in.
  grep -A2 '<data-structure kind="heap".* size="8589934592"' "$t/d.xml" | grep -q '<costs>0 0 0 0 32 31 31 31</costs>' &&
    ok "the 8 GiB block: Dw 32, 31 misses at each level" || { fail "the 8 GiB block"; grep -A2 'size="8589934592"' "$t/d.xml"; }
  ;;
many_allocs)
  # 300000: about 5 s of user time (2 s of it the monitor's start-up); a
  # million took about 13 s (some 10 us per malloc/free pair with the monitor).
  n=300000
  run "$t/d.xml" --monitor=yes "$prog" allocs $n
  [ "$code" = 0 ] && grep -q "blocks $n" "$t/out" && ok "$n blocks" || { fail "status $code"; cat "$t/err"; }
  valid "$t/d.xml"
  # One site for the small blocks: n blocks of 16, 32, 48 bytes in turn,
  # n/3 of each: (16 + 32 + 48) * 100000 bytes; one 1-byte store each and
  # no reads (free's own writes come after the block left the monitor).
  grep -A2 '<data-structure kind="heap".* blocks="300000" bytes="9600000"' "$t/d.xml" |
    grep -q '<costs>0 0 0 0 300000 ' && ok "one site: $n blocks, 9600000 bytes, Dr 0, Dw $n" ||
    { fail "no site with $n blocks of 9600000 bytes, Dr 0, Dw $n"; grep -A2 'blocks="300000"' "$t/d.xml"; }
  ;;
unmap)
  run "$t/d.xml" --monitor=yes "$prog"
  [ "$code" = 0 ] && ok "exit 0" || { fail "status $code"; cat "$t/err"; }
  valid "$t/d.xml"
  # Dw of each structure: its own stores only, one per 64-byte line.
  python3 - "$t/d.xml" <<'EOF' || status=1
import sys
import xml.etree.ElementTree as ET
ds = ET.parse(sys.argv[1]).getroot().find("data-structures")
cols = ds.get("events").split()
want = {"big_block": 16384, "mapped": 16384, "small_a": 64, "small_b": 128}
got = {}
for s in ds.findall("data-structure"):
    if s.get("name") in want:
        v = [int(x) for x in s.find("costs").text.split()]
        got[s.get("name")] = v[cols.index("Dw")]
bad = 0
for name, n in want.items():
    print(("ok" if got.get(name) == n else "FAIL") + f": {name}: Dw {got.get(name)}, expected {n}")
    bad |= got.get(name) != n
sys.exit(bad)
EOF
  ;;
*)
  echo "unknown case $case_"
  exit 2
  ;;
esac
exit $status
