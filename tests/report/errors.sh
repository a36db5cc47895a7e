#!/bin/sh
# errors.sh REPORT_BINARY SRCDIR: invalid documents and bad command lines.
# A truncated copy of tests/sir/minimal.xml, an empty file, foreign XML and a
# missing file make every command exit 2 with one line
# "ompsim-report: FILE[:LINE]: message" on stderr and nothing on stdout;
# unknown commands and options exit 2; --help exits 0.
report=$1 srcdir=$2
fixture=$srcdir/tests/sir/minimal.xml
. "$(dirname "$0")/lib.sh"

head -n 20 "$fixture" >"$tmp/truncated.xml"
: >"$tmp/empty.xml"
printf '<?xml version="1.0"?>\n<svg width="1"/>\n' >"$tmp/foreign.xml"

for cmd in summary annotate "export --format=json" "export --format=csv" "export --format=callgrind" arrays regions flow; do
  # shellcheck disable=SC2086
  run "$report" $cmd "$tmp/truncated.xml"
  expect_error "$cmd truncated" '^ompsim-report: .*truncated\.xml:[0-9]+: '
done
run "$report" diff "$fixture" "$tmp/truncated.xml"
expect_error "diff NEW truncated" '^ompsim-report: .*truncated\.xml:[0-9]+: '
run "$report" diff "$tmp/truncated.xml" "$fixture" --limit Ir=1%
expect_error "diff BASE truncated" '^ompsim-report: .*truncated\.xml:[0-9]+: '
run "$report" histogram "$tmp/truncated.xml" grid
expect_error "histogram truncated" '^ompsim-report: .*truncated\.xml:[0-9]+: '
run "$report" summary "$tmp/empty.xml"
expect_error "empty file" '^ompsim-report: .*empty\.xml'
run "$report" summary "$tmp/foreign.xml"
expect_error "foreign XML" '^ompsim-report: .*foreign\.xml.*ompsim'
run "$report" summary "$tmp/missing.xml"
expect_error "missing file" '^ompsim-report: .*missing\.xml'

# Every invalid fixture of the reader's own tests is refused the same way.
if [ -d "$srcdir/tests/sir/bad" ]; then
  n=0
  for f in "$srcdir"/tests/sir/bad/*.xml; do
    run "$report" summary "$f"
    if [ "$rc" -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ]; then bad "$(basename "$f"): exit $rc"; cat "$tmp/err"; fi
    n=$((n + 1))
  done
  ok "$n invalid fixtures exit 2"
fi

run "$report"
expect_error "no command" '^ompsim-report: '
run "$report" sumary "$fixture"
expect_error "misspelt command" "^ompsim-report: unknown command 'sumary'"
run "$report" summary "$fixture" --bogus
expect_error "unknown option" '^ompsim-report: .*--bogus'
run "$report" summary
expect_error "missing FILE" '^ompsim-report: .*FILE'
run "$report" annotate "$fixture" --threshold 150
expect_error "threshold out of range" '^ompsim-report: .*threshold'

for cmd in "" summary annotate diff export arrays histogram regions flow; do
  # shellcheck disable=SC2086
  run "$report" $cmd --help
  if [ "$rc" -eq 0 ] && grep -q '^Usage: ompsim-report' "$tmp/out"; then ok "'$cmd --help'"; else bad "'$cmd --help': exit $rc"; fi
done

exit $status
