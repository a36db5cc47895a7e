#!/bin/sh
# omp_fixed_work.sh RUNNER CLANG_PROGRAM GCC_PROGRAM
# Under ompsim the real run gives dynamic and guided chunks and single
# constructs to threads by a fixed rule (docs/openmp.md, "Fixed work
# assignment"; vgtool/preload/DeterministicWork.c), so that what each
# thread records never depends on timing. tests/progs/omp_fixed_work.c
# prints the thread of every iteration; with OMP_NUM_THREADS=4 and
# OMP_SCHEDULE=guided,1 the rule gives, for clang and gcc builds alike:
#  - dynamic, chunk 3, 50 iterations: iteration i on thread (i/3) mod 4;
#  - dynamic, chunk 2, i = 99, 97, ..., 1: logical iteration k on (k/2) mod 4;
#  - guided, minimum 2, 100 iterations: chunk sizes max(2, ceil(left/8)):
#    13 11 10 9 8 7 6 5 4 4 3 3 3 2 2 2 2 2 2 2, to threads 0 1 2 3 0 1 ...;
#  - runtime (guided, 1), 20 iterations: sizes 3 3 2 2 2 1 1 1 1 1 1 1 1;
#  - single (3 with a barrier, 3 nowait): all on thread 0.
# The program itself checks that each iteration ran once and that
# lastprivate got the last iteration (exit status).
runner=$1; shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

# expand SIZE... : the owner list of chunks of those sizes given round-robin.
expand() { awk 'BEGIN { for (j = 1; j < ARGC; ++j) for (k = 0; k < ARGV[j]; ++k) printf " %d", (j - 1) % 4; printf "\n" }' "$@"; }
# blocks COUNT CHUNK: dynamic, COUNT iterations in chunks of CHUNK.
blocks() { awk -v n="$1" -v c="$2" 'BEGIN { for (i = 0; i < n; ++i) printf " %d", int(i / c) % 4; printf "\n" }'; }

{
    echo "dynamic3:$(blocks 50 3)"
    echo "guided2:$(expand 13 11 10 9 8 7 6 5 4 4 3 3 3 2 2 2 2 2 2 2)"
    echo "down2:$(blocks 50 2)"
    echo "runtime:$(expand 3 3 2 2 2 1 1 1 1 1 1 1 1)"
    echo "single: 0 0 0 0 0 0"
} > "$tmp/expected"

for prog in "$@"; do
    name=$(basename "$prog")
    env OMP_NUM_THREADS=4 OMP_SCHEDULE=guided,1 "$runner" -q --output-file="$tmp/$name.xml" "$prog" > "$tmp/$name.out" 2>&1 ||
        { echo "FAIL: $name exited with $?"; cat "$tmp/$name.out"; status=1; continue; }
    if cmp -s "$tmp/expected" "$tmp/$name.out"; then
        echo "ok   $name: chunks and singles on the threads the rule gives"
    else
        echo "FAIL: $name"; diff "$tmp/expected" "$tmp/$name.out"; status=1
    fi
done
exit $status
