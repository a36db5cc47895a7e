/* Gallery 04, loop interchange and tiling: C = A x B for N x N doubles,
 * three times, each time with a B of its own so that the monitor counts
 * the three versions apart (the same values in b_ijk, b_ikj, b_tiled):
 *
 *   ijk    for i, j: for k: sum += A[i][k] * B[k][j]   B walked down columns
 *   ikj    for i, k: for j: C[i][j] += A[i][k] * B[k][j]   B along rows
 *   tiled  ikj over T x T tiles of B: each tile is used by every row i
 *          while it is in the cache
 *
 * The README works out the misses of B on a 4 KiB fully associative LRU
 * D1 (64 lines; fully associative so that only capacity matters:
 * 03-associativity is about conflicts):
 *   ijk   every load of B misses: N^3
 *   ikj   one miss per 64-byte line of a row, 8 doubles: N^3 / 8
 *   tiled each line of B misses once: N^2 / 8
 * tests/integration/gallery_matmul.py checks them. Only the three
 * products are simulated (--collect-atstart=no); C is cleared between them
 * with the simulation off. */
#include <stdio.h>
#include <string.h>

#include "ompsim.h"

#define N 64
#define T 16 /* tile: 16 x 16 doubles of B = 32 lines, half of the D1 */

static double a[N][N] __attribute__((aligned(64)));
static double b_ijk[N][N] __attribute__((aligned(64)));
static double b_ikj[N][N] __attribute__((aligned(64)));
static double b_tiled[N][N] __attribute__((aligned(64)));
static double c[N][N] __attribute__((aligned(64)));
static double check[N][N];

__attribute__((noinline)) static void ijk(double b[N][N]) {
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) {
            double sum = 0;
            for (int k = 0; k < N; ++k) sum += a[i][k] * b[k][j]; /* IJK */
            c[i][j] = sum;
        }
}

__attribute__((noinline)) static void ikj(double b[N][N]) {
    for (int i = 0; i < N; ++i)
        for (int k = 0; k < N; ++k) {
            double aik = a[i][k];
            for (int j = 0; j < N; ++j) c[i][j] += aik * b[k][j]; /* IKJ */
        }
}

__attribute__((noinline)) static void tiled(double b[N][N]) {
    for (int kk = 0; kk < N; kk += T)
        for (int jj = 0; jj < N; jj += T)
            for (int i = 0; i < N; ++i)
                for (int k = kk; k < kk + T; ++k) {
                    double aik = a[i][k];
                    for (int j = jj; j < jj + T; ++j) c[i][j] += aik * b[k][j]; /* TILED */
                }
}

/* Runs one version with the simulation on and compares its C with the
 * first one's (small integers: every version's sums are exact). */
static int run(void (*product)(double (*)[N]), double b[N][N], int first) {
    memset(c, 0, sizeof c);
    OMPSIM_START_COLLECTION();
    product(b);
    OMPSIM_STOP_COLLECTION();
    if (first) memcpy(check, c, sizeof c);
    return memcmp(check, c, sizeof c) != 0;
}

int main(void) {
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) {
            a[i][j] = (i + j) % 7;
            b_ijk[i][j] = b_ikj[i][j] = b_tiled[i][j] = (i * j) % 5;
        }
    int bad = run(ijk, b_ijk, 1) + run(ikj, b_ikj, 0) + run(tiled, b_tiled, 0);
    printf("c[N-1][N-1] %.1f, %s\n", c[N - 1][N - 1], bad ? "versions DIFFER" : "versions agree");
    return bad;
}
