#!/bin/sh
# histogram.sh REPORT_BINARY SRCDIR: 'ompsim-report histogram' on the fixture
# tests/sir/structures.xml (see arrays.sh for its structures).
#
# grid (#0, /src/a.c:2, 4096 bytes at 0x601000) has 4 portions (bins mode);
# its buckets, columns Dr D1mr D2mr Dw D1mw D2mw, are
#   0: 50 30 8 20 2 0    1: (left out: zero)    2: 40 10 2 30 3 1    3: 10 0 0 0 0 0
# Level 1 (hits = Dr - D1mr, Dw - D1mw): read hits, read misses, write hits,
# write misses = 20 30 18 2 | 0 0 0 0 | 30 10 27 3 | 10 0 0 0; the largest
# total is 70, so the 40-character bars end at round(40 * running sum / 70):
# bucket 0: 11 29 39 40 (r x11, R x18, w x10, W x1), bucket 2: 17 23 38 40
# (r17 R6 w15 W2), bucket 3: 6 (r6). Portion i covers bytes
# [ceil(i*4096/4), ceil((i+1)*4096/4)) = 1024 i .. 1024 i + 1023.
# Level 2 (hits = D1mr - D2mr, D1mw - D2mw): 22 8 2 0 | 0 0 0 0 | 8 2 2 1 | 0 0 0 0.
report=$1 srcdir=$2
fixture=$srcdir/tests/sir/structures.xml
. "$(dirname "$0")/lib.sh"

# --- the text chart at level 1
run "$report" histogram "$fixture" grid@/src/a.c:2
expect_rc 0 "histogram grid@/src/a.c:2"
[ -s "$tmp/err" ] && bad "histogram wrote to stderr: $(cat "$tmp/err")"
expect_match '^Data structure: +grid \(global, declared at /src/a\.c:2\)$' "structure line"
expect_match '^Address: +0x601000, 4 KiB$' "address line"
expect_match '^Histogram: +4 portions of the structure \(bins mode\)$' "histogram line"
expect_match '^Level: +D1 ' "level line"
expect_match '^Bucket  Offsets +Addresses +Read hits +Read misses +Write hits +Write misses  Chart$' "header"
expect_match '^ +0  0-1023 +0x601000-0x6013ff +20 +30 +18 +2  r{11}R{18}w{10}W$' "bucket 0"
expect_match '^ +1  1024-2047 +0x601400-0x6017ff +0 +0 +0 +0$' "bucket 1, left out of the document, is a zero row"
expect_match '^ +2  2048-3071 +0x601800-0x601bff +30 +10 +27 +3  r{17}R{6}w{15}W{2}$' "bucket 2"
expect_match '^ +3  3072-4095 +0x601c00-0x601fff +10 +0 +0 +0  r{6}$' "bucket 3"
expect_match '^Chart: r read hits, R read misses, w write hits, W write misses; 40 characters = 70 events$' "legend"
cp "$tmp/out" "$tmp/grid.txt"
# The same structure by file name, index and #index.
for spec in grid@a.c:2 0 '#0'; do
  run "$report" histogram "$fixture" "$spec"
  expect_output "$tmp/grid.txt" "'$spec' selects the same structure"
done

# --- level 2: bucket 0 22 8 2 0 (total 32; bar ends 28 38 40 40),
# bucket 2 8 2 2 1 (ends 10 13 15 16)
run "$report" histogram "$fixture" '#0' --level=L2
expect_rc 0 "histogram --level=L2"
expect_match '^ +0  0-1023 +0x601000-0x6013ff +22 +8 +2 +0  r{28}R{10}w{2}$' "bucket 0 at L2"
expect_match '^ +2  2048-3071 +0x601800-0x601bff +8 +2 +2 +1  r{10}R{3}w{2}W$' "bucket 2 at L2"
expect_match '^ +3  3072-4095 +0x601c00-0x601fff +0 +0 +0 +0$' "bucket 3 at L2"

# --- a heap site: offsets inside a block, no addresses. At L2 its buckets
# 20 15 12 10 8 8 and 10 10 8 0 0 0 give 3 12 0 8 (bar ends 5 26 26 40) and 2 8 0 0.
run "$report" histogram "$fixture" make_list --level=2
expect_rc 0 "histogram make_list"
expect_match '^Site: +make_list \(/src/a\.c:5\) \| main \(/src/a\.c:9\)$' "site line"
expect_match '^Blocks: +3 allocated, 640 bytes in all, the largest 256 B$' "blocks line"
expect_match '^Bucket  Offsets  Read hits  Read misses  Write hits  Write misses  Chart$' "no address column"
expect_match '^ +0  0-63 +3 +12 +0 +8  r{5}R{21}W{14}$' "heap bucket 0"
expect_match '^ +1  64-127 +2 +8 +0 +0  r{3}R{14}$' "heap bucket 1"
expect_match '^ +3  192-255 +0 +0 +0 +0$' "heap bucket 3"

# --- csv
run "$report" histogram "$fixture" '#0' --format=csv
expect_rc 0 "histogram --format=csv"
cat >"$tmp/expected.csv" <<'EOF'
bucket,first_offset,last_offset,read_hits,read_misses,write_hits,write_misses
0,0,1023,20,30,18,2
1,1024,2047,0,0,0,0
2,2048,3071,30,10,27,3
3,3072,4095,10,0,0,0
EOF
expect_output "$tmp/expected.csv" "csv of grid"

# Lines mode: buckets of 96 bytes over the largest block of 256 (the last
# one ends with the block).
sed '/kind="heap"/,/<\/histogram>/ s|<histogram bins="4">|<histogram bucket-bytes="96" buckets="3">|' "$fixture" >"$tmp/lines.xml"
run "$report" histogram "$tmp/lines.xml" make_list --format=csv
expect_rc 0 "lines-mode histogram"
cat >"$tmp/expected.csv" <<'EOF'
bucket,first_offset,last_offset,read_hits,read_misses,write_hits,write_misses
0,0,95,5,15,2,8
1,96,191,0,10,0,0
2,192,255,0,0,0,0
EOF
expect_output "$tmp/expected.csv" "csv of a lines-mode histogram"
run "$report" histogram "$tmp/lines.xml" make_list
expect_match '^Histogram: +3 buckets of 96 bytes \(lines mode\); offsets in a block of 256 B$' "lines-mode histogram line"

# Bins mode with blocks smaller than the bins: a 2-byte block in 4 portions
# has bytes in portions 0 (byte 0) and 2 (byte 1) only.
sed 's|size="256" blocks="3"|size="2" blocks="3"|' "$fixture" >"$tmp/tiny.xml"
run "$report" histogram "$tmp/tiny.xml" make_list --format=csv
cat >"$tmp/expected.csv" <<'EOF'
bucket,first_offset,last_offset,read_hits,read_misses,write_hits,write_misses
0,0,0,5,15,2,8
1,,,0,10,0,0
2,1,1,0,0,0,0
3,,,0,0,0,0
EOF
expect_output "$tmp/expected.csv" "csv with empty portions"

# A name holding '@' (a versioned symbol) is still selected by its name.
sed 's|name="make_list"|name="_IO_x@@GLIBC_2.2.5"|' "$fixture" >"$tmp/at.xml"
run "$report" histogram "$tmp/at.xml" _IO_x@@GLIBC_2.2.5 --format=csv
expect_rc 0 "a name with @"

# --- svg: valid XML, the four series, one bar per non-zero count (4 + 4 + 1)
run "$report" histogram "$fixture" '#0' --svg="$tmp/grid.svg"
expect_rc 0 "histogram --svg"
expect_output "$tmp/grid.txt" "--svg keeps the text chart on stdout"
if [ -s "$tmp/grid.svg" ]; then ok "svg written"; else bad "no svg written"; fi
if command -v xmllint >/dev/null; then
  if xmllint --noout "$tmp/grid.svg"; then ok "svg is well-formed XML"; else bad "svg is not well-formed"; fi
fi
if grep -q '^<svg xmlns="http://www.w3.org/2000/svg"' "$tmp/grid.svg"; then ok "svg root"; else bad "svg root"; fi
for label in "read hits" "read misses" "write hits" "write misses" "Number of events" \
             "grid: D1 accesses by position" "Relative position in grid (portion, of 4)"; do
  if grep -qF -- ">$label<" "$tmp/grid.svg"; then ok "svg text '$label'"; else bad "svg lacks '$label'"; fi
done
bars=$(grep -c '<rect .*><title>bucket' "$tmp/grid.svg")
if [ "$bars" -eq 9 ]; then ok "svg has 9 bars"; else bad "svg has $bars bars, expected 9"; fi
if command -v rsvg-convert >/dev/null; then
  if rsvg-convert -o "$tmp/grid.png" "$tmp/grid.svg" && [ -s "$tmp/grid.png" ]; then ok "rsvg-convert renders it"
  else bad "rsvg-convert cannot render the svg"; fi
fi
run "$report" histogram "$fixture" '#0' --svg="$tmp/no/such/dir/x.svg"
expect_error "svg into a missing directory" '^ompsim-report: cannot write .*x\.svg'

# --- errors
run "$report" histogram "$fixture" grid
expect_error "ambiguous name" "^ompsim-report: 'grid' names 2 data structures: #0 grid@/src/a\.c:2 \(global\), #3 grid@/src/b\.c:7 \(global\); choose one as NAME@FILE:LINE or #INDEX$"
run "$report" histogram "$fixture" grid@b.c:7
expect_error "no histogram" "^ompsim-report: data structure 'grid' \(/src/b\.c:7\) has no histogram: run the tool with --histogram-lines=K or --histogram-bins=N$"
run "$report" histogram "$fixture" table
expect_error "not counted" "^ompsim-report: data structure 'table' \(/src/a\.c:3\) was not counted"
run "$report" histogram "$fixture" nothing
expect_error "unknown name" "^ompsim-report: no data structure named 'nothing'"
run "$report" histogram "$fixture" grid@/src/a.c:3
expect_error "wrong line" "^ompsim-report: no data structure named 'grid@/src/a\.c:3'"
run "$report" histogram "$fixture" '#4'
expect_error "index out of range" '^ompsim-report: no data structure #4 \(the document has 4, #0 to #3\)$'
run "$report" histogram "$srcdir/tests/sir/minimal.xml" grid
expect_error "no section" 'no data-structures section \(run the tool with --monitor=yes\)$'
run "$report" histogram "$fixture" '#0' --level=3
expect_error "level 3" '^ompsim-report: --level 3: there is no such level'
run "$report" histogram "$fixture"
expect_error "missing NAME" '^ompsim-report: .*NAME'
run "$report" histogram "$fixture" '#0' --help
expect_rc 0 "histogram --help"

exit $status
