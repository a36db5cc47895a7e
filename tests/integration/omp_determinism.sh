#!/bin/sh
# omp_determinism.sh RUNNER PROGRAM...
# Each OpenMP program, with OMP_NUM_THREADS=4, gives byte-identical profile
# documents: three runs (the second with a busy process beside it, the third
# with a process id of another number of digits when the system lets the
# test choose the next pid: libomp formats its pid at start-up, which once
# made runs differ by 19 instructions whenever pids wrapped), and two
# more with KMP_BLOCKTIME=0 (compared with each other: the variable is part
# of the environment the C library and the dynamic linker read at start-up,
# so its runs differ from the others in that start-up, never among
# themselves). Every document says deterministic="true".
runner=$1; shift
tmp=$(mktemp -d)
busy=
trap 'rm -rf "$tmp"; [ -n "$busy" ] && kill $busy 2>/dev/null' EXIT
fail=0
# same A B NAME: runs A and B of NAME gave the same document; else say where
# they differ (the first lines, and the regions whose costs differ).
same() {
    cmp -s "$tmp/$3.$1.xml" "$tmp/$3.$2.xml" && return
    echo "FAIL: $3 run $2 differs from run $1; first differences:"
    diff "$tmp/$3.$1.xml" "$tmp/$3.$2.xml" | grep -v '<cache-stats' | head -n 8
    for r in $1 $2; do
        awk '/<file /{f=$0} /<region /{g=$0} /<costs>/{print f " " g " " $0}' "$tmp/$3.$r.xml" > "$tmp/regions.$r"
    done
    diff "$tmp/regions.$1" "$tmp/regions.$2" | grep '^[<>]' | sed -e 's/ *<[a-z]* //g' | head -n 12
    cp "$tmp/$3.$1.xml" "$tmp/$3.$2.xml" "${OMPSIM_KEEP_DIR:-$tmp}/" 2>/dev/null
    fail=1
}
for prog in "$@"; do
    name=$(basename "$prog")
    for i in 1 2 3 4 5; do
        if [ $i = 2 ]; then (while :; do :; done) & busy=$!; fi
        if [ $i -ge 4 ]; then env=KMP_BLOCKTIME=0; else env=OMPSIM_UNUSED=0; fi
        # Run 3: a 4-digit pid after a 5-digit one (or the other way round).
        if [ $i = 3 ] && [ -w /proc/sys/kernel/ns_last_pid ]; then
            if [ "$last_pid" -ge 10000 ] 2>/dev/null; then echo 2000; else echo 20000; fi > /proc/sys/kernel/ns_last_pid 2>/dev/null
        fi
        env OMP_NUM_THREADS=4 $env "$runner" --output-file="$tmp/$name.$i.xml" -q "$prog" > /dev/null 2>&1 &
        last_pid=$!
        wait $last_pid || { echo "FAIL: $name run $i failed"; fail=1; }
        if [ $i = 2 ]; then kill $busy; wait $busy 2>/dev/null; busy=; fi
    done
    same 1 2 "$name"
    same 1 3 "$name"
    same 4 5 "$name"
    grep -q 'deterministic="true"' "$tmp/$name.1.xml" || { echo "FAIL: $name not deterministic"; fail=1; }
    [ $fail = 0 ] && echo "ok   $name: 5 runs, identical"
done
exit $fail
