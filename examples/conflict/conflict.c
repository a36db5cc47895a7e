/* Cache conflicts: c[i] = a[i] + b[i] over three 8 KiB arrays of doubles.
 *
 *   conflict [SHIFT_B [SHIFT_C]]
 *
 * The three arrays are page aligned, so without shifts a[i], b[i] and c[i]
 * lie at the same offset from a 4 KiB boundary and fall into the same set
 * of any cache whose way (size / associativity) divides 4 KiB. A loop
 * touching three lines of one set every iteration thrashes a 2-way cache
 * (and two of them already thrash a direct-mapped one): every access
 * misses. SHIFT_B and SHIFT_C (0 to 4, in 64-byte lines) start b and c that
 * many lines further on, which spreads the three streams over different
 * sets: then each line misses once, when it is first touched.
 *
 * Only the loop is simulated (run with --collect-atstart=no): it starts
 * with empty caches. README.md has the numbers and the command lines;
 * tests/integration/conflict.sh checks them. */
#include <stdio.h>
#include <stdlib.h>

#include "ompsim.h"

#define N 1024        /* doubles per array: 8 KiB = 128 lines of 64 B */
#define LINE 8        /* doubles per 64-byte line */
#define MAX_SHIFT 4   /* lines */

static double a[N] __attribute__((aligned(4096)));
static double b[N + MAX_SHIFT * LINE] __attribute__((aligned(4096)));
static double c[N + MAX_SHIFT * LINE] __attribute__((aligned(4096)));

static int shift_arg(int argc, char** argv, int k) {
    int s = argc > k ? atoi(argv[k]) : 0;
    if (s < 0 || s > MAX_SHIFT) {
        fprintf(stderr, "conflict: a shift is 0 to %d lines\n", MAX_SHIFT);
        exit(2);
    }
    return s;
}

/* noinline: the simulated part is this loop and nothing else. */
__attribute__((noinline)) static void add(double* restrict z, const double* restrict x,
                                          const double* restrict y) {
    for (int i = 0; i < N; ++i) z[i] = x[i] + y[i]; /* KERNEL */
}

int main(int argc, char** argv) {
    double* bb = b + shift_arg(argc, argv, 1) * LINE;
    double* cc = c + shift_arg(argc, argv, 2) * LINE;
    for (int i = 0; i < N; ++i) {
        a[i] = i;
        bb[i] = 2.0 * i;
    }
    OMPSIM_START_COLLECTION();
    add(cc, a, bb);
    OMPSIM_STOP_COLLECTION();
    double s = 0;
    for (int i = 0; i < N; ++i) s += cc[i];
    printf("sum %.1f\n", s);
    return s == 3.0 * N * (N - 1) / 2 ? 0 : 1;
}
