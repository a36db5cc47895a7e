#!/bin/sh
# event_flow.sh RUNNER REPORT PROGRAM SOURCE MPI_PROGRAM MPI_SOURCE
# The IPM paper's Figure 3 program (tests/progs/ipm_figure3.c) run as four
# "ranks", each under its own ompsim as an MPI launcher would start them;
# the rank reaches the tool from Open MPI's, PMIx's and MPICH's environment
# variables and from --rank. event_flow.py checks each document; the merged
# graph (ompsim-report events) must be the paper's. MPI_PROGRAM is the same
# program written with MPI calls on a stand-in libmpi.so.40: the preload's
# wrappers report them.
runner=$1; report=$2; prog=$3; src=$4; mpiprog=$5; mpisrc=$6
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
run() {  # run [VAR=VALUE...] RUNNER OPTIONS... PROGRAM
    env "$@" > /dev/null 2> "$tmp/stderr" || { cat "$tmp/stderr"; fail "$prog under ompsim ($*)"; }
}
run OMPI_COMM_WORLD_RANK=0 "$runner" -q --output-file="$tmp/r0.xml" "$prog"
run PMI_RANK=1 "$runner" -q --output-file="$tmp/r1.xml" "$prog"
run FIG3_RANK=2 PMIX_RANK=2 "$runner" -q --output-file="$tmp/r2.xml" "$prog"
run FIG3_RANK=3 "$runner" -q --rank=3 --output-file="$tmp/r3.xml" "$prog"
run FIG3_RANK=1 "$runner" -q --output-file="$tmp/norank.xml" "$prog"
run FIG3_RANK=1 "$runner" -q --event-flow=size --output-file="$tmp/sizes.xml" "$prog"
run FIG3_RANK=1 "$runner" -q --event-flow=no --output-file="$tmp/none.xml" "$prog"
for r in 0 1 2 3; do
    run OMPI_COMM_WORLD_RANK=$r "$runner" -q --output-file="$tmp/mpi$r.xml" "$mpiprog"
done
status=0
for r in 0 1 2 3; do
    python3 "$here/event_flow.py" rank $r "$tmp/r$r.xml" "$src" || status=1
done
for r in 0 1 2 3; do
    python3 "$here/event_flow.py" mpi $r "$tmp/mpi$r.xml" "$mpisrc" || status=1
done
python3 "$here/event_flow.py" rank none "$tmp/norank.xml" "$src" || status=1
python3 "$here/event_flow.py" sizes 1 "$tmp/sizes.xml" || status=1
python3 "$here/event_flow.py" absent "$tmp/none.xml" || status=1
# The paper's merged graph: nodes numbered by first occurrence (rank 0's
# events, then the new ones of rank 1), relative partners, equal counts of
# different ranks on one edge.
"$report" events "$tmp/r0.xml" "$tmp/r1.xml" "$tmp/r2.xml" "$tmp/r3.xml" --format=dot > "$tmp/merged.dot" ||
    fail "ompsim-report events"
grep -- '->' "$tmp/merged.dot" | sort > "$tmp/edges"
cat > "$tmp/want" <<'END'
  n1 -> n2 [label="1x (0-3)"];
  n2 -> n3 [label="1x (0-3)"];
  n3 -> n4 [label="1x (0,2)"];
  n3 -> n6 [label="1x (1,3)"];
  n4 -> n4 [label="9x (0,2)"];
  n4 -> n5 [label="1x (0,2)"];
  n6 -> n5 [label="1x (1,3)"];
  n6 -> n6 [label="9x (1,3)"];
  start -> n1 [label="1x (0-3)"];
END
if diff "$tmp/want" "$tmp/edges"; then echo "ok   merged edges are the paper's Figure 3"; else echo "FAIL merged edges"; status=1; fi
for n in 'n4 \[label="MPI_Recv 80 B (+1)' 'n6 \[label="MPI_Send 80 B (-1)' 'n5 \[label="MPI_Finalize'; do
    grep -q "$n" "$tmp/merged.dot" && echo "ok   node $n" || { echo "FAIL node $n"; status=1; }
done
dot -Tsvg "$tmp/merged.dot" > /dev/null || { echo "FAIL dot cannot render the merged graph"; status=1; }
exit $status
