/* Gauss elimination without pivoting on a 100 x 100 REAL (float) matrix,
 * the EP-Cache study (Kereku et al., Euro-Par 2004, section 5) in C.
 *
 * Built twice (examples/Makefile.inc):
 *   gauss_orig  the original loop nest: for each pivot k, scale column k,
 *               then update the trailing matrix column by column, the
 *               innermost loop running down a column (i). That is the
 *               storage order of the Fortran original, but C stores A by
 *               rows: consecutive elements of a column are 400 B apart.
 *   gauss_opt   -DOPTIMISED: the i and j loops interchanged, so the
 *               innermost loop runs along a row of A (and along the pivot
 *               row, which every row update reuses).
 * Both do the same floating-point operations on the same operands in the
 * same order per element, so they print the same results, bit for bit.
 *
 * Only the elimination is simulated (run with --collect-atstart=no): the
 * initialisation and the triangular solves are not. README.md explains the
 * numbers; tests/integration/gauss.sh derives and checks them. */
#include <math.h>
#include <stdio.h>

#include "ompsim.h"

#define N 100

/* 64-byte aligned: every row is 400 B, so with 16-byte cache lines each row
 * is exactly 25 lines. */
static float A[N][N] __attribute__((aligned(64)));
static float b[N];
static float x[N];

__attribute__((noinline)) static void eliminate(void) {
    for (int k = 0; k < N - 1; ++k) {
        const float pivot = A[k][k];
#ifdef OPTIMISED
        for (int i = k + 1; i < N; ++i) {
            const float m = A[i][k] / pivot;
            A[i][k] = m;
            for (int j = k + 1; j < N; ++j) A[i][j] -= m * A[k][j]; /* UPDATE */
        }
#else
        for (int i = k + 1; i < N; ++i) A[i][k] /= pivot;
        for (int j = k + 1; j < N; ++j) {
            const float akj = A[k][j];
            for (int i = k + 1; i < N; ++i) A[i][j] -= A[i][k] * akj; /* UPDATE */
        }
#endif
    }
}

/* A = L U with the multipliers below the diagonal: L y = b, then U x = y. */
static void solve(void) {
    for (int i = 0; i < N; ++i) {
        float s = b[i];
        for (int j = 0; j < i; ++j) s -= A[i][j] * x[j];
        x[i] = s;
    }
    for (int i = N - 1; i >= 0; --i) {
        float s = x[i];
        for (int j = i + 1; j < N; ++j) s -= A[i][j] * x[j];
        x[i] = s / A[i][i];
    }
}

int main(void) {
    /* Diagonally dominant, so elimination without pivoting is stable; b is
     * the row sums, so the exact solution is x = 1. */
    for (int i = 0; i < N; ++i) {
        b[i] = 0;
        for (int j = 0; j < N; ++j) {
            A[i][j] = i == j ? 2.0f * N : 1.0f / (1 + (i > j ? i - j : j - i));
            b[i] += A[i][j];
        }
    }
    OMPSIM_START_COLLECTION();
    eliminate();
    OMPSIM_STOP_COLLECTION();
    solve();
    double err = 0, sum = 0;
    for (int i = 0; i < N; ++i) {
        sum += x[i];
        if (fabs(x[i] - 1.0) > err) err = fabs(x[i] - 1.0);
    }
    printf("sum(x) %.6f  max|x-1| %.3g  U[99][99] %.9g\n", sum, err, A[N - 1][N - 1]);
    return err < 1e-4 ? 0 : 1;
}
