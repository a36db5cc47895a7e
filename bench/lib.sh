# Shared by the bench scripts (sourced with BUILD_DIR [RUNS] as $1 $2):
# builds bench/kernels/ into $work, points Valgrind at the uninstalled tool,
# and gives seconds/median/ratio helpers.
set -eu
build=$(cd "$1" && pwd)
runs=${2:-3}
src=$(cd "$(dirname "$0")" && pwd)/kernels
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
VALGRIND_LIB=$build/.inplace
export VALGRIND_LIB
for k in stencil matmul chase memcopy; do
  ${CC:-gcc} -O2 -gdwarf-4 -o "$work/$k" "$src/$k.c"
done
# The kernels and their arguments, in table order.
kernels="stencil 1024 40|matmul 400|chase 2097152 16777216|memcopy 200"

seconds() {  # command... -> elapsed wall seconds
  s=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  e=$(date +%s.%N)
  echo "$s $e" | awk '{ printf "%.3f\n", $2 - $1 }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ratio() { echo "$1 $2" | awk '{ printf "%.2fx", $1 / $2 }'; }
