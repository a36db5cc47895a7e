/* The bundled example: the same matrix summed row by row and column by
 * column. Row order reads each 64-byte line once for 8 doubles; column order
 * jumps 8 KiB between loads, so with a 1024-wide matrix every load of the
 * column sweep misses in L1. Run it with
 *   valgrind --tool=ompsim --cachegrind-out-file=rowcol.out ./rowcol
 *   cg_annotate rowcol.out
 * and compare the D1mr of the two loops. */
#include <stdio.h>

#define N 1024

/* Page-aligned so that each row is exactly 128 cache lines of 64 B. */
static double m[N][N] __attribute__((aligned(4096)));

static double sum_rows(void) {
    double s = 0;
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) s += m[i][j]; /* ROWS */
    return s;
}

static double sum_cols(void) {
    double s = 0;
    for (int j = 0; j < N; ++j)
        for (int i = 0; i < N; ++i) s += m[i][j]; /* COLS */
    return s;
}

int main(void) {
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) m[i][j] = i + 0.5 * j;
    double r = sum_rows();
    double c = sum_cols();
    printf("rows %.1f cols %.1f\n", r, c);
    return r == c ? 0 : 1;
}
