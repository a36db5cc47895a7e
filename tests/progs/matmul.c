/* matmul.c - naive ijk and ikj matrix multiply, 96x96 doubles.
 * Inputs are small integers so results are exact and both loop orders give
 * bit-identical products.  Deterministic; prints one checksum line. */
#include <stdio.h>

#define N 96

static double A[N][N], B[N][N], C1[N][N], C2[N][N];

static void mm_ijk(double (*restrict c)[N], double (*restrict a)[N],
                   double (*restrict b)[N])
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double s = 0.0;
            for (int k = 0; k < N; k++)
                s += a[i][k] * b[k][j];
            c[i][j] = s;
        }
}

static void mm_ikj(double (*restrict c)[N], double (*restrict a)[N],
                   double (*restrict b)[N])
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            c[i][j] = 0.0;
    for (int i = 0; i < N; i++)
        for (int k = 0; k < N; k++) {
            double aik = a[i][k];
            for (int j = 0; j < N; j++)
                c[i][j] += aik * b[k][j];
        }
}

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i][j] = (double)((i * 7 + j * 3) % 13) - 6.0;
            B[i][j] = (double)((i * 5 + j * 11) % 17) - 8.0;
        }

    mm_ijk(C1, A, B);
    mm_ikj(C2, A, B);

    long long s1 = 0, s2 = 0, mism = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            s1 += (long long)C1[i][j] * (i + 2 * j + 1);
            s2 += (long long)C2[i][j] * (i + 2 * j + 1);
            if (C1[i][j] != C2[i][j])
                mism++;
        }
    printf("matmul checksum %lld %lld mismatches %lld\n", s1, s2, mism);
    return 0;
}
