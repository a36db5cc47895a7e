# Shared by the integration tests (sourced).

# line_costs OUT SRC MARKER FIELDS: the sum of the given cost columns (awk
# field numbers of a Cachegrind-format cost line, "LINE Ir ...") over every
# record of the source line of SRC that contains MARKER.
line_costs() {
  _line=$(grep -n -- "$3" "$2" | head -n 1 | cut -d: -f1)
  awk -v L="$_line" -v F="$(basename "$2")" -v C="$4" '
    BEGIN { n = split(C, col, " ") }
    /^fl=/ { infile = index($0, F) > 0 }
    infile && $1 == L { for (i = 1; i <= n; i++) sum[i] += $(col[i]) }
    END { s = ""; for (i = 1; i <= n; i++) s = s (i > 1 ? " " : "") (sum[i] + 0); print s }' "$1"
}

# expect_line_costs OUT SRC MARKER FIELDS EXPECTED: prints ok/FAIL, sets status=1 on FAIL.
expect_line_costs() {
  _got=$(line_costs "$1" "$2" "$3" "$4")
  if [ "$_got" = "$5" ]; then echo "ok: $3: $_got"
  else echo "FAIL: $3: expected '$5', got '$_got'"; status=1; fi
}

# doc_diff A B: the lines that differ between two profile documents, each
# group headed by the file and function (or the document part) it lies in,
# so that a rare failure in CI says where two runs parted.
doc_diff() {
  diff -U0 "$1" "$2" | awk -v doc="$1" '
    BEGIN {
      where = "(head)"  # then the top-level element, or file:function in <program>
      while ((getline l < doc) > 0) {
        ++n
        if (l ~ /^  <[a-z]/) { where = l; sub(/^  </, "", where); sub(/[ >].*/, "", where); where = "<" where ">" }
        else if (l ~ /<file path="/) { f = l; sub(/.*<file path="/, "", f); sub(/".*/, "", f); where = f }
        else if (l ~ /<region type="function" name="/) { g = l; sub(/.*name="/, "", g); sub(/".*/, "", g); where = f ":" g }
        at[n] = where
      }
    }
    /^(---|\+\+\+) / { next }
    /^@@/ { split($2, a, ","); ln = substr(a[1], 2) + 0; w = ln < 1 ? at[1] : at[ln]; print "@@ " w " (line " ln ")"; next }
    { print substr($0, 1, 300) }'
}

# doc_pair_diffs DIR_A DIR_B LINES: doc_diff (at most LINES lines) of each
# document of DIR_A that differs from the one of DIR_B for the same process
# and dump (the same <run> attributes and <command>). The documents are
# named by pid, so sorting by name pairs a parent with another run's child.
doc_pair_diffs() {
  for _a in "$1"/doc*.xml; do
    _k=$(sed -n '3,4p' "$_a")
    _m=
    for _b in "$2"/doc*.xml; do
      if [ "$(sed -n '3,4p' "$_b")" = "$_k" ]; then _m=$_b; break; fi
    done
    if [ -z "$_m" ]; then
      echo "@@ $(basename "$_a"): no document of the same process and dump in the other run"
      continue
    fi
    cmp -s "$_a" "$_m" && continue
    echo "@@ $(basename "$_a") against $(basename "$_m"):"
    doc_diff "$_a" "$_m" | head -n "$3"
  done
}

# pin_pid: the next process id is 20001, where the system lets the test
# choose it (/proc/sys/kernel/ns_last_pid, as root); false otherwise. A
# program that prints or formats pids does work that depends on their
# number of digits, and pids wrap (pid_max 32768 here), so two runs of one
# test can straddle 9,999 | 10,000.
pin_pid() {
  [ -w /proc/sys/kernel/ns_last_pid ] && echo 20000 >/proc/sys/kernel/ns_last_pid 2>/dev/null
}
