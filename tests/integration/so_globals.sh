#!/bin/sh
# so_globals.sh RUNNER SO_GLOBALS_BINARY SO_TABLE_SOURCE
# Globals of the program's own objects, and no variable info for the rest
# (vgtool/VarInfoFilter). so_globals writes and reads main_table (2048
# doubles, in the program) and so_table (4096 ints, in its own shared
# library libso_table.so, outside the system directories) once per element.
#  - Both are global structures of 16,384 bytes, declared where the source
#    says: Dr = Dw = the element count.
#  - Each is first touched by its stores: 16,384 / 64 = 256 cold line
#    misses, D1mw = 256. The 512 lines fit the default D1 (48 KiB, 12-way,
#    64 sets: 8 lines per set), so the reads that follow all hit: D1mr = 0.
#    (The program is bound at start-up: a lazy binding between the writes
#    and the reads would bring the dynamic linker's data and stack in.)
#  - Valgrind records variables for the program and for libso_table.so, and
#    none for libc: Valgrind's own symbol-table trace for libc lists its
#    symbols and no "Recording this variable" line (on a machine without
#    glibc's debug files there are none to record anyway).
#  - Every global structure comes from the two sources: no library's.
#  - The program and the dynamic linker are mapped before the tool sees a
#    system call: the program is read again with its variables before it
#    runs, the dynamic linker never (its symbols are read, no variable is
#    recorded), and with --keep-debuginfo=yes, which keeps both read with
#    their variables, main_table is still found.
#  - A user's own --read-var-info=yes is left to Valgrind: every object's
#    variables are read, the dynamic linker's too.
runner=$1 bin=$2 src=$3
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
status=0
q="$(dirname "$0")/monitor_doc.py"
"$runner" -q --monitor=yes --output-file="$t/doc.xml" "$bin" >"$t/out" 2>"$t/err" || {
  echo "FAIL: tool run failed"; cat "$t/err"; exit 1; }
[ "$(cat "$t/out")" = "10482688" ] || { echo "FAIL: program output $(cat "$t/out")"; status=1; }
line=$(grep -n '^int so_table' "$src" | cut -d: -f1)
check() {  # NAME FILE LINE N
  python3 "$q" structure "$t/doc.xml" "global:$1" >"$t/$1" || { echo "FAIL: no single global $1"; status=1; return; }
  for kv in kind=global file=$2 line=$3 size=16384 Dr=$4 Dw=$4 D1mw=256 D1mr=0; do
    if grep -qxF "$kv" "$t/$1"; then echo "ok: $1 $kv"; else echo "FAIL: $1 expected $kv, got: $(tr '\n' ' ' <"$t/$1")"; status=1; fi
  done
}
check so_table so_table.c "$line" 4096
mline=$(grep -n '^double main_table' "$(dirname "$src")/so_globals.c" | cut -d: -f1)
check main_table so_globals.c "$mline" 2048
others=$(grep -o '<data-structure kind="global"[^>]*file="[^"]*"' "$t/doc.xml" | grep -v -e 'file="so_table.c"' -e 'file="so_globals.c"')
[ -z "$others" ] && echo "ok: no other object's globals" || { echo "FAIL: globals from elsewhere: $others"; status=1; }
trace() {  # PATTERN: the symbol-table trace of the objects matching it
  "$runner" --monitor=yes --trace-symtab=yes --trace-symtab-patt="$1" --output-file=/dev/null "$bin" 2>&1 >/dev/null
}
# with_variables NAME PATTERN: the object's variables were recorded.
with_variables() {
  n=$(trace "$2" | grep -a -c 'Recording this variable')
  [ "$n" -gt 0 ] && echo "ok: $1's variables read ($n)" || { echo "FAIL: no variable read for $1"; status=1; }
}
# symbols_only NAME PATTERN: the object's symbols were read, no variable.
symbols_only() {
  trace "$2" >"$t/trace"
  syms=$(grep -a -c 'raw symbol' "$t/trace")
  vars=$(grep -a -c 'Recording this variable' "$t/trace")
  if [ "$syms" -gt 0 ] && [ "$vars" = 0 ]; then echo "ok: $1's symbols read ($syms), no variable"
  else echo "FAIL: $1: $syms symbols, $vars variables recorded"; status=1; fi
}
with_variables libso_table.so '*libso_table.so*'
with_variables "the program" '*/so_globals'
symbols_only libc '*/libc.so*'
symbols_only "the dynamic linker" '*ld-linux*'
n=$("$runner" --monitor=yes --read-var-info=yes --trace-symtab=yes --trace-symtab-patt='*ld-linux*' \
  --output-file=/dev/null "$bin" 2>&1 >/dev/null | grep -a -c 'Recording this variable')
[ "$n" -gt 0 ] && echo "ok: --read-var-info=yes: the dynamic linker's variables read ($n)" ||
  { echo "FAIL: --read-var-info=yes: no variable read for the dynamic linker"; status=1; }
"$runner" -q --monitor=yes --keep-debuginfo=yes --output-file="$t/keep.xml" "$bin" >/dev/null 2>"$t/err" || {
  echo "FAIL: tool run with --keep-debuginfo=yes failed"; cat "$t/err"; exit 1; }
python3 "$q" structure "$t/keep.xml" "global:main_table" | grep -qxF "line=$mline" &&
  echo "ok: --keep-debuginfo=yes: main_table found" || { echo "FAIL: --keep-debuginfo=yes: no main_table"; status=1; }
exit $status
