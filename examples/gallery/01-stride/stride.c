/* Gallery 01, access stride: the same number of loads, N = 1024 ints, read
 * with strides of 1, 2, 4, 8, 16 and 32 elements, each stride over an array
 * of its own (stride1 ... stride32) so that the monitor counts them apart.
 *
 * A 64-byte line holds 16 ints. A walk with stride s < 16 uses 16 / s of
 * the ints of every line it touches, and touches N * s * 4 / 64 lines; from
 * s = 16 on every load is on a line of its own: N lines. No line is ever
 * read twice, so every touched line misses exactly once in every cache,
 * whatever its size: the misses are the lines touched.
 *
 * Only the walks are simulated (run with --collect-atstart=no): the caches
 * start empty. README.md has the numbers; tests/integration/gallery_stride.py
 * checks them. */
#include <stdio.h>

#include "ompsim.h"

#define N 1024 /* loads per walk */

/* One array per stride, each N * s ints, line aligned (first touch of a
 * line is then exactly every 16 / s loads). Never written: they stay in
 * .bss, untouched until the walk. */
static int stride1[N * 1] __attribute__((aligned(64)));
static int stride2[N * 2] __attribute__((aligned(64)));
static int stride4[N * 4] __attribute__((aligned(64)));
static int stride8[N * 8] __attribute__((aligned(64)));
static int stride16[N * 16] __attribute__((aligned(64)));
static int stride32[N * 32] __attribute__((aligned(64)));

/* noinline and a run-time stride: one loop, one load per iteration (built
 * without vectorisation). */
__attribute__((noinline)) static long walk(const int* a, int s) {
    long sum = 0;
    for (int i = 0; i < N; ++i) sum += a[(long)i * s]; /* WALK */
    return sum;
}

int main(void) {
    OMPSIM_START_COLLECTION();
    long sum = walk(stride1, 1) + walk(stride2, 2) + walk(stride4, 4) + walk(stride8, 8) +
               walk(stride16, 16) + walk(stride32, 32);
    OMPSIM_STOP_COLLECTION();
    printf("sum %ld\n", sum);
    return sum == 0 ? 0 : 1;
}
