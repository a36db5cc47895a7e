/* stencil.c - 2D 5-point Jacobi stencil on doubles.
 * Two 130x130 double grids (~132 KiB each, together > L1), 8 sweeps,
 * ping-ponging between the grids.  Deterministic; prints one checksum line. */
#include <stdio.h>

#define N 130
#define SWEEPS 8

static double ga[N][N];
static double gb[N][N];

static void sweep(double (*restrict dst)[N], double (*restrict src)[N])
{
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++)
            dst[i][j] = 0.2 * (src[i][j] + src[i - 1][j] + src[i + 1][j]
                               + src[i][j - 1] + src[i][j + 1]);
}

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double v = (double)((i * 31 + j * 17) % 97) / 97.0;
            ga[i][j] = v;
            gb[i][j] = v;   /* boundary values identical in both grids */
        }

    double (*src)[N] = ga;
    double (*dst)[N] = gb;
    for (int s = 0; s < SWEEPS; s++) {
        sweep(dst, src);
        double (*t)[N] = src;
        src = dst;
        dst = t;
    }

    double sum = 0.0, wsum = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            sum += src[i][j];
            wsum += src[i][j] * (double)((i + 1) * (j + 3) % 11);
        }
    printf("stencil checksum %.10f %.10f\n", sum, wsum);
    return 0;
}
