#!/bin/sh
# gauss.sh RUNNER GAUSS_ORIG GAUSS_OPT
# examples/gauss: Gauss elimination without pivoting of A, 100 x 100 float,
# row-major, 64-byte aligned (EP-Cache, section 5). Only the elimination is
# simulated (--collect-atstart=no + OMPSIM_START/STOP_COLLECTION): the caches
# start empty. Built -O2 -fno-tree-vectorize; the accesses to A are exactly
# the source's (checked in the disassembly), in this order in step k:
#  orig: P: read A[k][k]; S: for i>k: read, write A[i][k];
#        for j>k { K: read A[k][j]; for i>k { X: read A[i][k];
#                                             Y: read, write A[i][j] } }
#  opt:  read A[k][k]; for i>k { read, write A[i][k];
#                                for j>k: read A[i][j], read A[k][j], write A[i][j] }
# Machine: --machine=teaching --L1=1K,full,16 --L2=64K,8,16 --icache=no:
# D1 = 64 lines of 16 B, fully associative, LRU; L2 64 KiB 8-way (512 sets).
# A line holds 4 floats and a row is exactly 25 lines: element (i,j) is in
# line (i, j/4). In a fully associative LRU cache of 64 lines an access hits
# iff fewer than 64 other distinct lines were touched since the last access
# to its line (its "distance").
# Notation: step k = 0..98, m = 99-k, q = k/4, e = 3 - k%4 (the columns
# j > k in group q); B_k = rows k..99 x line groups q..24, the (m+1)(25-q)
# lines step k touches. Histogram: --histogram-bins=25, portion p = bytes
# [1600p, 1600p+1600) = rows 4p..4p+3 = 100 lines.
#
# Counting the loops (exact, per row r = 0..99, [c] = 1 if c else 0):
#  reads  orig: r(200-r) + [r<=98](100-r);  total sum_{m=1}^{99} 1+2m+2m^2 = 666,699
#         opt:  100r - r(r-1)/2 + [r<=98](1 + (99-r)^2);  total 1+m+2m^2: 661,749
#  writes both: 100r - r(r-1)/2;  total sum m+m^2 = 333,300
# Every store follows a load of its line with at most one other line in
# between: D1mw = 0, hence D2mw = 0. L2: A's 2500 lines, at most 5 per L2
# set, plus a few stack lines, in 8 ways: never evicted; every line is first
# touched by a read in step 0: D2mr = 2500, 100 per portion.
#
# opt (exact): within a step every reuse is at distance <= 50 (worst: a
#  pivot-row line, between rows i-1 and i: 50-q-(k+1)/4): hit. A line of
#  B_k was last used in step k-1 (B_k is inside B_{k-1}); since then every
#  other row of k+1..99 touched all its lines of groups q..24: distance
#  >= (98-k)(25-q) >= 75 for k <= 83: miss (k = 0: cold). So step k <= 83
#  misses exactly |B_k|. Step 84: |B_84| = 64; all miss but line (99,24),
#  the last line of step 83, reached after exactly 63 others (row 99's lines
#  21-23, rows 85-98's 4 lines, pivot row 84's 4 lines). After step 84 D1
#  holds exactly B_84, which contains every later B_k: 0 misses.
#   D1mr(A) = sum_{k=0}^{83} (100-k)(25-k/4) + 63 = 86,030 + 63 = 86,093
#   per portion: 250 + 398p - 8p^2 (p <= 20), 5056 (p = 21..23), 5055 (p = 24)
#  (row r misses sum_{k=0}^{min(r,83)} (25-k/4), + 4 - [r=99] if r >= 84).
#
# orig (exact): sweep j (the i loop) touches the X lines (i,q) and Y lines
#  (i,j/4) of the m rows i > k and the pivot line (k,j/4). Distances:
#   X and Y from sweep j-1 to sweep j: 2m, or m within group q;
#   Y in group q: 0 (X just read the line); K in group q: m (the m X lines
#   since P or the previous K);
#   X in the first sweep of group q+1: m-1+(i-k); X in sweep k+1 after S:
#   m (e >= 1) or m-1+(i-k) (e = 0);
#   S for k%4 != 0: 199-i-k (from sweep 99 of step k-1); P: 2m+1;
#   S and P for k%4 = 0 (last used as Y lines of group q in step k-1,
#   followed by groups q+1..24 of rows k..99): >= (m+1)(24-q) >= 80;
#   first touches of lines of groups > q (Y, K): >= m(25-q)-1 >= 79.
#  So (hit iff distance <= 63), misses per step:
#   k <= 35 (m >= 64): all but the e*m Y reads in group q miss:
#     1+2m+2m^2-em; sum 487,470
#   36 <= k <= 67 (32 <= m <= 63): also hit: K and X in group q (e + em),
#     X in the first sweep of group q+1 with i-k <= 64-m (64-m), S with
#     i >= 136-k if k%4 != 0 (63-m); sum 147,328
#   68 <= k <= 83 (2m <= 62): within a step everything hits; a line of B_k
#     misses once, except (k%4 != 0) the group-q lines of rows k..99 (P, S):
#     (m+1)(25-q) - [k%4 != 0](m+1); sum 2,340
#   k = 84: 63 (line (99,24) hits, as in opt), k >= 85: 0.
#   D1mr(A) = 487,470 + 147,328 + 2,340 + 63 = 637,201 (95.6 % of the reads)
#  Per portion: the same rules, each miss attributed to the row accessed
#  (orig_row_misses below); e.g. portion 0 = 1566, portion 24 = 35,591.
runner=$1 orig=$2 opt=$3
case $runner in /*) ;; */*) runner=$PWD/$runner ;; esac
case $orig in /*) ;; *) orig=$PWD/$orig ;; esac
case $opt in /*) ;; *) opt=$PWD/$opt ;; esac
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
status=0
EV=Dr,D1mr,D2mr,Dw,D1mw,D2mw
for v in orig opt; do
  eval bin=\$$v
  (cd "$t" && "$runner" -q --machine=teaching --L1=1K,full,16 --L2=64K,8,16 --icache=no \
    --collect-atstart=no --monitor=yes --histogram-bins=25 --output-file=$v.xml "$bin" \
    >$v.stdout 2>$v.stderr) || { echo "FAIL: $v: run failed"; cat "$t/$v.stderr"; exit 1; }
done
if cmp -s "$t/orig.stdout" "$t/opt.stdout"; then echo "ok: same results: $(cat "$t/opt.stdout")"
else echo "FAIL: the two versions print different results"; cat "$t/orig.stdout" "$t/opt.stdout"; status=1; fi

expect() {  # WHAT GOT EXPECTED
  if [ "$2" = "$3" ]; then echo "ok: $1 = $2"
  else echo "FAIL: $1: expected '$3', got '$2'"; status=1; fi
}
expect "orig A $EV" "$("$here/monitor_doc.py" costs "$t/orig.xml" global:A $EV)" "666699 637201 2500 333300 0 0"
expect "opt A $EV" "$("$here/monitor_doc.py" costs "$t/opt.xml" global:A $EV)" "661749 86093 2500 333300 0 0"

# The 25 portions: the per-row formulas of the header, summed over 4 rows.
python3 - >"$t/expected" <<'EOF'
def reads(v, r):
    if v == "orig":
        return r * (200 - r) + (100 - r if r <= 98 else 0)
    return 100 * r - r * (r - 1) // 2 + (1 + (99 - r) ** 2 if r <= 98 else 0)

def writes(r):
    return 100 * r - r * (r - 1) // 2

def opt_portion_misses(p):
    return 250 + 398 * p - 8 * p * p if p <= 20 else (5056 if p <= 23 else 5055)

def orig_row_misses(r):
    s = 0
    for k in range(min(r, 98) + 1):
        m, q, e, t = 99 - k, k // 4, 3 - k % 4, r - k
        if m >= 64:
            s += 1 + m if t == 0 else 1 + 2 * m - e              # P + K / S + X + Y
        elif m >= 32:
            if t == 0:
                s += 1 + m - e                                   # P + K
            else:
                s += 1 - (k % 4 != 0 and r >= 136 - k)           # S
                s += m - e - (t <= 64 - m)                       # X
                s += m - e                                       # Y
        elif k <= 83:
            s += 25 - q - (k % 4 != 0)
        elif k == 84:
            s += 4 - (r == 99)
    return s

for v in ("orig", "opt"):
    for p in range(25):
        rows = range(4 * p, 4 * p + 4)
        rm = sum(orig_row_misses(r) for r in rows) if v == "orig" else opt_portion_misses(p)
        print(v, p, sum(reads(v, r) for r in rows), rm, 100, sum(writes(r) for r in rows), 0, 0)
EOF
for v in orig opt; do
  "$here/monitor_doc.py" costs "$t/$v.xml" global:A $EV buckets | sed "s/^/$v /" >>"$t/got"
  # The buckets add up to the totals.
  expect "$v A: bucket sums" "$(grep "^$v " "$t/got" | awk '{for (i = 3; i <= NF; i++) s[i] += $i}
    END {for (i = 3; i <= NF; i++) printf "%s%d", (i > 3 ? " " : ""), s[i]; print ""}')" \
    "$("$here/monitor_doc.py" costs "$t/$v.xml" global:A $EV)"
done
if diff "$t/expected" "$t/got" >"$t/diff"; then echo "ok: all 2 x 25 portions ($EV) as derived"
else echo "FAIL: portions differ (< derived, > document):"; cat "$t/diff"; status=1; fi
# Where the misses are: elimination only touches rows below the pivot, so
# in both versions later portions carry more events; the original misses
# on nearly every read everywhere, the optimised version mostly where rows
# are updated often (the last portions).
awk '$1 == "orig" {o[$2] = $4} $1 == "opt" {n[$2] = $4}
  END {for (p = 0; p < 25; p++) printf "portion %2d: read misses orig %6d  opt %5d\n", p, o[p], n[p]}' "$t/got"
exit $status
