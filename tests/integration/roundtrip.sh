#!/bin/sh
# roundtrip.sh RUNNER ROUNDTRIP_BINARY XSD PROGRAM...
# Documents the tool writes (several machines and programs) are valid against
# the schema and round-trip byte for byte through sir/ (read -> write).
runner=$1 rt=$2 xsd=$3
shift 3
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
n=0
for prog in "$@"; do
  for machine in desktop cachegrind teaching; do
    n=$((n + 1))
    "$runner" -q --machine=$machine --output-file="$t/doc$n.xml" "$prog" >/dev/null 2>"$t/err" ||
      { echo "FAIL: run $prog on $machine"; cat "$t/err"; exit 1; }
  done
done
status=0
if command -v xmllint >/dev/null; then
  xmllint --noout --schema "$xsd" "$t"/doc*.xml 2>"$t/lint" && echo "ok: $n documents valid against the schema" ||
    { echo "FAIL: schema validation"; head -n 20 "$t/lint"; status=1; }
else
  echo "FAIL: xmllint is missing"; status=1
fi
"$rt" "$t"/doc*.xml || status=1
exit $status
