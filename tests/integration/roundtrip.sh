#!/bin/sh
# roundtrip.sh RUNNER ROUNDTRIP_BINARY XSD PROGRAM... [--monitor PROGRAM...]
# Documents the tool writes (several machines and programs, with and without
# the data-structure monitor) are valid against the schema and round-trip
# byte for byte through sir/ (read -> write).
#
# Every program runs on the desktop, cachegrind and teaching machines. The
# programs after --monitor also run with the monitor (which costs about 2 s
# of start-up per run, so only programs with structures worth checking):
# --histogram-lines=4 on the desktop machine, --histogram-bins=25 on the
# cachegrind machine (whose columns end in DLmr/DLmw) and the static mode
# with 2 monitor slots on the teaching machine; each of these documents must
# hold a <data-structures> section.
runner=$1 rt=$2 xsd=$3
shift 3
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
n=0
status=0
run() {  # PROGRAM OPTION...: one document, doc<n>.xml
  prog=$1
  shift
  n=$((n + 1))
  "$runner" -q "$@" --output-file="$t/doc$n.xml" "$prog" >/dev/null 2>"$t/err" ||
    { echo "FAIL: run $prog $*"; cat "$t/err"; exit 1; }
}
monitor=no
for prog in "$@"; do
  if [ "$prog" = --monitor ]; then monitor=yes; continue; fi
  for machine in desktop cachegrind teaching; do
    run "$prog" --machine=$machine
  done
  [ $monitor = yes ] || continue
  for options in "--machine=desktop --monitor=yes --histogram-lines=4" \
                 "--machine=cachegrind --monitor=yes --histogram-bins=25" \
                 "--machine=teaching --monitor=yes --monitor-slots=2"; do
    # shellcheck disable=SC2086
    run "$prog" $options
    grep -q '^  <data-structures events=' "$t/doc$n.xml" ||
      { echo "FAIL: $prog $options: no <data-structures> section"; status=1; }
  done
done
# Real histograms of both kinds were checked, not only empty sections.
grep -q '<histogram bucket-bytes=' "$t"/doc*.xml || { echo "FAIL: no lines-mode histogram in any document"; status=1; }
grep -q '<histogram bins="25">' "$t"/doc*.xml || { echo "FAIL: no bins-mode histogram in any document"; status=1; }
if command -v xmllint >/dev/null; then
  xmllint --noout --schema "$xsd" "$t"/doc*.xml 2>"$t/lint" && echo "ok: $n documents valid against the schema" ||
    { echo "FAIL: schema validation"; head -n 20 "$t/lint"; status=1; }
else
  echo "FAIL: xmllint is missing"; status=1
fi
"$rt" "$t"/doc*.xml || status=1
exit $status
