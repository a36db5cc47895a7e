#!/bin/sh
# arrays.sh REPORT_BINARY SRCDIR: 'ompsim-report arrays' on the fixture
# tests/sir/structures.xml (the teaching machine of minimal.xml, D1 and L2,
# with four hand-made data structures):
#
#   #  kind    name       Dr  D1mr D2mr  Dw  D1mw D2mw
#   0  global  grid       100  40   10   50   5    1     /src/a.c:2, 4 KiB
#   1  heap    make_list   30  25   20   10   8    8     3 blocks, largest 256 B
#   2  user    table        0   0    0    0   0    0     counted="false"
#   3  global  grid         4   1    0    2   1    0     /src/b.c:7, 64 B
#
# D1 misses = D1mr + D1mw: 45, 33, 0, 2; miss ratio = misses / (Dr + Dw):
# 30.0%, 82.5%, -, 33.3%. L2 misses = D2mr + D2mw: 11, 28, 0, 0; L2 miss
# ratio = L2 misses / D1 misses: 24.4%, 84.8%, -, 0.0%. So level 1 lists
# 0 1 3 2, level 2 lists 1 0 2 3 (ties keep the document's order).
report=$1 srcdir=$2
fixture=$srcdir/tests/sir/structures.xml
. "$(dirname "$0")/lib.sh"
# The # column of the table rows (the lines after the dashes), in order.
order() { awk 'seen { printf "%s%s", sep, $1; sep = " " } /^-  -/ { seen = 1 } END { print "" }' "$tmp/out"; }
expect_order() {  # "0 1 3 2" WHAT
  got=$(order)
  if [ "$got" = "$1" ]; then ok "$2: order $got"; else bad "$2: order '$got', expected '$1'"; cat "$tmp/out"; fi
}

# --- level 1 (the default)
run "$report" arrays "$fixture"
expect_rc 0 "arrays"
[ -s "$tmp/err" ] && bad "arrays wrote to stderr: $(cat "$tmp/err")"
expect_order "0 1 3 2" "level 1 sorted by misses"
expect_match '^#  Kind +Name +Declared at / site +Size +Blocks +Reads +Writes +D1 misses +D1 miss ratio$' "header"
expect_match '^0  global  grid +/src/a\.c:2 +4 KiB +1 +100 +50 +45 +30\.0%$' "grid row"
expect_match '^1  heap    make_list +make_list \(/src/a\.c:5\) \| main \(/src/a\.c:9\) +256 B +3 +30 +10 +33 +82\.5%$' \
  "heap row with its site"
expect_match '^3  global  grid +/src/b\.c:7 +64 B +1 +4 +2 +2 +33\.3%$' "second grid row"
expect_match '^2  user    table +/src/a\.c:3 +1 KiB +1 +0 +0 +0 +not counted$' "uncounted row"
expect_match '^Monitor: +bins, 4 portions of each block$' "monitor mode"

# --- level 2, by number, cache name and "last level", any case
for level in 2 L2 l2 LL; do
  run "$report" arrays "$fixture" --level="$level"
  expect_rc 0 "arrays --level=$level"
  expect_order "1 0 2 3" "level $level sorted by misses"
done
expect_match '^1  heap .* +28 +84\.8%$' "make_list at L2"
expect_match '^0  global  grid .* +11 +24\.4%$' "grid at L2"
expect_match '^3  global  grid .* +0 +0\.0%$' "second grid at L2: 0 of 2"
expect_match 'L2 misses +L2 miss ratio$' "L2 header"
run "$report" arrays "$fixture" --level=D1
expect_order "0 1 3 2" "--level=D1"

# --- sort keys and --limit
run "$report" arrays "$fixture" --sort=write-misses
expect_order "1 0 3 2" "--sort=write-misses (8 5 1 0)"
run "$report" arrays "$fixture" --sort=reads
expect_order "0 1 3 2" "--sort=reads (100 30 4 0)"
run "$report" arrays "$fixture" --sort=name
expect_order "0 3 1 2" "--sort=name (grid grid make_list table)"
run "$report" arrays "$fixture" --sort=ratio
expect_order "1 3 0 2" "--sort=ratio (82.5 33.3 30.0 none)"
run "$report" arrays "$fixture" --sort=size
expect_order "0 2 1 3" "--sort=size (4096 1024 256 64)"
run "$report" arrays "$fixture" --limit=2
expect_order "0 1" "--limit=2"
expect_match '^Structures: +4 \(the first 2 shown\)$' "--limit note"

# --- the last level of the cachegrind model is called LL
sed -e 's/name="L2"/name="LL"/g' -e 's/I2mr/ILmr/; s/D2mr/DLmr/g; s/D2mw/DLmw/g' "$fixture" >"$tmp/cg.xml"
run "$report" arrays "$tmp/cg.xml" --level=LL
expect_rc 0 "cachegrind names, --level=LL"
expect_order "1 0 2 3" "LL sorted by misses"
expect_match 'LL misses +LL miss ratio$' "LL header"

# --- json
run "$report" arrays "$fixture" --format=json --level=2
expect_rc 0 "arrays --format=json"
if python3 - "$tmp/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert (d["level"], d["cache"], d["sort"], d["mode"], d["resolution"]) == (2, "L2", "misses", "bins", 4), d
s = d["structures"]
assert [x["index"] for x in s] == [1, 0, 2, 3], s
m = s[0]
assert (m["name"], m["kind"], m["blocks"], m["bytes"], m["size"]) == ("make_list", "heap", 3, 640, 256), m
assert m["site"] == "make_list (/src/a.c:5) | main (/src/a.c:9)", m
assert (m["reads"], m["writes"], m["references"], m["read_misses"], m["write_misses"], m["misses"]) == (30, 10, 33, 20, 8, 28), m
assert abs(m["miss_ratio"] - 28 / 33) < 1e-12, m
g = s[1]
assert (g["address"], g["file"], g["line"], g["site"]) == ("0x601000", "/src/a.c", 2, None), g
assert s[2]["counted"] is False and s[2]["miss_ratio"] is None, s[2]
assert s[3]["miss_ratio"] == 0.0, s[3]
PY
then ok "json content"; else bad "json content"; cat "$tmp/out"; fi

# --- errors
run "$report" arrays "$srcdir/tests/sir/minimal.xml"
expect_error "no data-structures section" '^ompsim-report: .*minimal\.xml: no data-structures section \(run the tool with --monitor=yes\)$'
run "$report" arrays "$fixture" --level=3
expect_error "level 3" '^ompsim-report: --level 3: there is no such level; the data structures were counted at levels 1 to 2 \(D1, L2\)$'
run "$report" arrays "$fixture" --level=I1
expect_error "instruction cache" '^ompsim-report: --level I1: that is an instruction cache'
run "$report" arrays "$fixture" --level=fast
expect_error "not a level" "^ompsim-report: --level must be a cache level: .*not 'fast'$"
run "$report" arrays "$fixture" --sort=bogus
expect_error "unknown sort key" "^ompsim-report: --sort must be one of misses, read-misses, .*not 'bogus'$"
run "$report" arrays "$fixture" --format=csv
expect_error "--format=csv" '^ompsim-report: .*--format'
run "$report" arrays "$fixture" --help
expect_rc 0 "arrays --help"

exit $status
