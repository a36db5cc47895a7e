#!/bin/sh
# omp_determinism.sh RUNNER PROGRAM...
# Each OpenMP program, with OMP_NUM_THREADS=4, gives byte-identical profile
# documents: three runs (the second with a busy process beside it), and two
# more with KMP_BLOCKTIME=0 (compared with each other: the variable is part
# of the environment the C library and the dynamic linker read at start-up,
# so its runs differ from the others in that start-up, never among
# themselves). Every document says deterministic="true".
runner=$1; shift
tmp=$(mktemp -d)
busy=
trap 'rm -rf "$tmp"; [ -n "$busy" ] && kill $busy 2>/dev/null' EXIT
fail=0
for prog in "$@"; do
    name=$(basename "$prog")
    for i in 1 2 3 4 5; do
        if [ $i = 2 ]; then (while :; do :; done) & busy=$!; fi
        if [ $i -ge 4 ]; then env=KMP_BLOCKTIME=0; else env=OMPSIM_UNUSED=0; fi
        env OMP_NUM_THREADS=4 $env "$runner" --output-file="$tmp/$name.$i.xml" -q "$prog" > /dev/null 2>&1 ||
            { echo "FAIL: $name run $i failed"; fail=1; }
        if [ $i = 2 ]; then kill $busy; wait $busy 2>/dev/null; busy=; fi
    done
    for i in 2 3; do
        if ! cmp -s "$tmp/$name.1.xml" "$tmp/$name.$i.xml"; then
            echo "FAIL: $name run $i differs from run 1; first differences:"
            diff "$tmp/$name.1.xml" "$tmp/$name.$i.xml" | grep -v '<cache-stats' | head -n 8
            # Where: the regions (function, file) whose costs differ.
            for r in 1 $i; do
                awk '/<file /{f=$0} /<region /{g=$0} /<costs>/{print f " " g " " $0}' "$tmp/$name.$r.xml" > "$tmp/regions.$r"
            done
            diff "$tmp/regions.1" "$tmp/regions.$i" | grep '^[<>]' | sed -e 's/ *<[a-z]* //g' | head -n 12
            cp "$tmp/$name.1.xml" "$tmp/$name.$i.xml" "${OMPSIM_KEEP_DIR:-$tmp}/" 2>/dev/null
            fail=1
        fi
    done
    cmp -s "$tmp/$name.4.xml" "$tmp/$name.5.xml" || { echo "FAIL: $name KMP_BLOCKTIME=0 runs differ"; fail=1; }
    grep -q 'deterministic="true"' "$tmp/$name.1.xml" || { echo "FAIL: $name not deterministic"; fail=1; }
    [ $fail = 0 ] && echo "ok   $name: 5 runs, identical"
done
exit $fail
