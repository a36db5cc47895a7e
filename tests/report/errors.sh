#!/bin/sh
# errors.sh REPORT_BINARY SRCDIR: invalid documents and bad command lines.
# A truncated copy of tests/sir/minimal.xml, an empty file, foreign XML, an
# HTML page, compressed, binary and future-version documents, a Cachegrind
# out file and a missing file make every command exit 2 with one line
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

# Foreign, binary and future-version documents (issue 10): the message says
# what the file is, and binary bytes are shown in hex, never raw.
bad_dir=$srcdir/tests/sir/bad
run "$report" summary "$bad_dir/foreign-html.xml"
expect_error "HTML page" 'foreign-html\.xml: not an ompsim profile \(root element is <html>\)$'
run "$report" export "$bad_dir/gzip.xml" --format=json
expect_error "gzip-compressed document" 'gzip\.xml:1: not an XML document \(gzip-compressed data; decompress it first: it starts with bytes 1F 8B '
run "$report" annotate "$bad_dir/binary-elf.xml"
expect_error "the program instead of its profile" 'binary-elf\.xml:1: not an XML document \(an ELF executable or library, not its profile: it starts with bytes 7F 45 4C 46 '
run "$report" arrays "$bad_dir/binary-junk.xml"
expect_error "binary junk" 'binary-junk\.xml:1: not an XML document \(binary data: it starts with bytes 67 61 72 62 61 67 65 00 \.\.\.\)$'
if [ "$(tr -d '\11\12\40-\176' <"$tmp/err" | wc -c)" -eq 0 ]; then ok "binary junk: the message is printable ASCII"
else bad "binary junk: the message has raw bytes"; fi
run "$report" diff "$fixture" "$bad_dir/future-version.xml"
expect_error "future version (diff NEW)" 'future-version\.xml:2: format version 2 is newer than this ompsim-report understands \(1\); upgrade ompsim$'
run "$report" summary "$srcdir/tests/sir/bad/not-xml.xml"
expect_error "Cachegrind out file" "not-xml\.xml:1: not an XML document \(it starts with 'desc: "

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
