#!/bin/sh
# heap_sites.sh RUNNER HEAP_SITES_BINARY HEAP_SITES_SOURCE
# One malloc line (marked SITE) runs 1,000 times; each 4 KiB block is filled
# (512 doubles, one 8 B store each: built without vectorisation), one double
# is read back, and the block is freed.
#  - The 1,000 blocks are one data structure, kind heap, named after the
#    allocating function (main) with the site's file:line: blocks=1000,
#    bytes=4,096,000, size (largest block)=4096.
#  - Counted once each, although the addresses are reused: Dw = 512 x 1000
#    = 512,000, Dr = 1,000 (free's own writes into the block come after the
#    block's range is removed, so they are not the structure's).
#  - glibc hands back the same 4 KiB chunk each time (the freed chunk merges
#    into the top chunk and is carved again), so at most the first block's
#    64 lines miss D1: D1mw <= 64.
#  - With --histogram-lines=8 (512 B buckets over each 4 KiB block) the 8
#    buckets sum to the totals, and each holds 64 x 1,000 = 64,000 writes.
#  - No trip through Valgrind's scheduler per heap event: the C library's
#    functions go to the wrappers by an exit in their translations, the
#    wrappers call the real ones directly (vgtool/HeapHooks.h), and the
#    reports are handled in the wrappers' own translations (Instrumenter.cpp,
#    add_heap_request). Valgrind's "minor sched events" (--stats=yes) with
#    the monitor less those without it (no wrapper in force) are the few of
#    the C library's start-up and the monitor's: under 1,000, where one trip
#    per malloc and free makes 2,000 or more (Valgrind's function wrapping,
#    before 2026-11-29: 2,000 to 2,099; with the report as a client request
#    as well, 4,000).
runner=$1 bin=$2 src=$3
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
status=0
q="$(dirname "$0")/monitor_doc.py"
"$runner" -q --monitor=yes --histogram-lines=8 --output-file="$t/doc.xml" "$bin" >"$t/out" 2>"$t/err" || {
  echo "FAIL: tool run failed"; cat "$t/err"; exit 1; }
site_line=$(grep -n 'SITE' "$src" | head -n 1 | cut -d: -f1)
python3 "$q" structure "$t/doc.xml" main >"$t/main" || { echo "FAIL: no single structure 'main'"; exit 1; }
for kv in kind=heap blocks=1000 bytes=4096000 size=4096 file=heap_sites.c line=$site_line Dr=1000 Dw=512000; do
  if grep -qxF "$kv" "$t/main"; then echo "ok: $kv"; else echo "FAIL: expected $kv"; status=1; fi
done
grep -q "^site=main (heap_sites.c:$site_line) | " "$t/main" && echo "ok: site starts at main (heap_sites.c:$site_line)" || {
  echo "FAIL: site: $(grep '^site=' "$t/main")"; status=1; }
d1mw=$(sed -n 's/^D1mw=//p' "$t/main")
if [ "$d1mw" -le 64 ]; then echo "ok: D1mw=$d1mw <= 64"; else echo "FAIL: D1mw=$d1mw > 64"; status=1; fi
n=$(grep -c '<data-structure kind="heap" name="main"' "$t/doc.xml")
[ "$n" = 1 ] && echo "ok: one structure for the site" || { echo "FAIL: $n structures named main"; status=1; }
python3 "$q" bucket-sums "$t/doc.xml" >"$t/sums" && echo "ok: bucket sums" || { echo "FAIL: bucket sums"; cat "$t/sums"; status=1; }
python3 - "$t/doc.xml" <<'PY' || status=1
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
s = [s for s in root.find("data-structures") if s.get("name") == "main"][0]
h = s.find("histogram")
writes = {int(b.get("index")): int(b.text.split()[4]) for b in h.findall("bucket")}
ok = h.get("bucket-bytes") == "512" and h.get("buckets") == "8" and writes == {i: 64000 for i in range(8)}
print(("ok" if ok else "FAIL") + f": histogram bucket-bytes={h.get('bucket-bytes')} buckets={h.get('buckets')} writes={writes}")
sys.exit(0 if ok else 1)
PY
sched() {  # MONITOR: Valgrind's minor scheduler events for the run
  "$runner" --monitor="$1" --stats=yes --output-file="$t/stats.xml" "$bin" 2>&1 >/dev/null |
    sed -n 's/.*scheduler: [0-9,]*\/\([0-9,]*\) major\/minor sched events.*/\1/p' | tr -d ,
}
with=$(sched yes)
rm -f "$t/stats.xml"
without=$(sched no)
trips=$(( ${with:-0} - ${without:-0} ))
if [ -n "$with" ] && [ -n "$without" ] && [ "$trips" -lt 1000 ]; then
  echo "ok: $trips scheduler trips for 2,000 heap events"
else echo "FAIL: scheduler trips for 2,000 heap events: $trips ($with with the monitor, $without without)"; status=1; fi
exit $status
