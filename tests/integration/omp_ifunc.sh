#!/bin/sh
# omp_ifunc.sh RUNNER IFUNC_FIRST_BINARY
# IFUNC resolvers run on the dynamic linker's behalf, which is not recorded
# once threads run (docs/openmp.md): which thread binds a lazily bound
# symbol first depends on timing. ifunc_first calls memrchr for the first
# time inside a parallel region of 4 threads.
#  - memrchr's resolver runs twice: once at start-up for the C library's
#    own reference (an IRELATIVE relocation, before any thread: recorded),
#    once when the program's PLT slot is bound. Lazily, that second run is
#    in the parallel region and not recorded; with LD_BIND_NOW=1 it is at
#    start-up and recorded. Each run of the resolver executes the same
#    instructions, so Ir(resolver, lazy) x 2 = Ir(resolver, bind now) > 0.
#    The resolver is every region named exactly "memrchr" (the selector
#    inlined from the C library's ifunc header and the entry at
#    memrchr.c); the implementation has its own name (__memrchr_avx2 ...).
#  - The program's answer is 0+7+14+21 = 42 under the tool.
runner=$1 bin=$2
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
status=0
for mode in lazy now; do
  if [ $mode = now ]; then env=LD_BIND_NOW=1; else env=OMPSIM_UNUSED=1; fi
  env OMP_NUM_THREADS=4 $env "$runner" -q --output-file="$t/$mode.xml" "$bin" >"$t/$mode.out" 2>"$t/$mode.err" || {
    echo "FAIL: $mode run failed"; cat "$t/$mode.err"; exit 1; }
  [ "$(cat "$t/$mode.out")" = 42 ] || { echo "FAIL: $mode output $(cat "$t/$mode.out")"; status=1; }
done
ir() {  # Ir summed over the regions named exactly memrchr
  python3 - "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
prog = ET.parse(sys.argv[1]).getroot().find("program")
print(sum(int(r.find("costs").text.split()[0]) for r in prog.iter("region") if r.get("name") == "memrchr"))
PY
}
lazy=$(ir "$t/lazy.xml") now=$(ir "$t/now.xml")
if [ "$lazy" -gt 0 ] && [ $((2 * lazy)) -eq "$now" ]; then
  echo "ok: resolver Ir lazy=$lazy (start-up only), bind-now=$now (both runs)"
else
  echo "FAIL: resolver Ir lazy=$lazy, bind-now=$now (expected lazy x 2 = bind-now)"; status=1
fi
exit $status
