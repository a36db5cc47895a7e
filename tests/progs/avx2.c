/* avx2.c - AVX2/FMA loops: _mm256_loadu_ps / _mm256_storeu_ps on deliberately
 * misaligned float arrays (crossing cache lines), _mm256_load_ps /
 * _mm256_store_ps on 32-byte aligned arrays, _mm256_fmadd_ps, and masked
 * _mm256_maskload_ps / _mm256_maskstore_ps (vmaskmovps) for loop tails.
 *
 * Build: gcc -O2 -gdwarf-4 -mavx2 -mfma avx2.c
 * The AVX2 kernels also carry __attribute__((target("avx2,fma"))), so the
 * file builds without -mavx2 too.  At run time __builtin_cpu_supports picks
 * the AVX2 path or a scalar fallback (printing a note); note that if the file
 * IS built with -mavx2 the compiler may use AVX anywhere, so the fallback is
 * only meaningful for a build without -mavx2.
 * Deterministic; prints one checksum line. */
#include <stdio.h>
#include <stdint.h>
#include <immintrin.h>

#define N 4096
#define REPS 6

static float xa[N + 64] __attribute__((aligned(64)));
static float ya[N + 64] __attribute__((aligned(64)));
static float za[N + 64] __attribute__((aligned(64)));

__attribute__((target("avx2,fma"), noinline))
static void saxpy_unaligned_avx2(float a, const float *x, float *y, int n)
{
    __m256 va = _mm256_set1_ps(a);
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 vx = _mm256_loadu_ps(x + i);
        __m256 vy = _mm256_loadu_ps(y + i);
        _mm256_storeu_ps(y + i, _mm256_fmadd_ps(va, vx, vy));
    }
    int rem = n - i;
    if (rem > 0) {
        /* lanes 0..rem-1 active: mask element has its sign bit set */
        __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(rem), lane);
        __m256 vx = _mm256_maskload_ps(x + i, mask);
        __m256 vy = _mm256_maskload_ps(y + i, mask);
        _mm256_maskstore_ps(y + i, mask, _mm256_fmadd_ps(va, vx, vy));
    }
}

__attribute__((target("avx2,fma"), noinline))
static void fma3_aligned_avx2(const float *x, const float *y, float *z, int n)
{
    /* x, y, z 32-byte aligned, n multiple of 8 */
    __m256 c = _mm256_set1_ps(0.5f);
    for (int i = 0; i < n; i += 8) {
        __m256 vx = _mm256_load_ps(x + i);
        __m256 vy = _mm256_load_ps(y + i);
        __m256 vz = _mm256_load_ps(z + i);
        _mm256_store_ps(z + i, _mm256_fmadd_ps(vx, vy, _mm256_mul_ps(c, vz)));
    }
}

__attribute__((target("avx2,fma"), noinline))
static void masked_every_other_avx2(float *z, int n)
{
    /* masked store to a subset of lanes over the whole (misaligned) array */
    __m256i mask = _mm256_setr_epi32(-1, 0, -1, 0, 0, -1, 0, -1);
    __m256 one = _mm256_set1_ps(1.0f);
    for (int i = 0; i + 8 <= n; i += 8) {
        __m256 v = _mm256_maskload_ps(z + i, mask);
        _mm256_maskstore_ps(z + i, mask, _mm256_add_ps(v, one));
    }
}

__attribute__((target("avx2,fma"), noinline))
static double hsum_avx2(const float *z, int n)
{
    __m256d acc = _mm256_setzero_pd();
    int i = 0;
    for (; i + 4 <= n; i += 4)
        acc = _mm256_add_pd(acc, _mm256_cvtps_pd(_mm_loadu_ps(z + i)));
    double t[4];
    _mm256_storeu_pd(t, acc);
    double s = (t[0] + t[1]) + (t[2] + t[3]);
    for (; i < n; i++)
        s += z[i];
    return s;
}

/* scalar fallbacks (same algorithm, no FMA contraction guaranteed) */
__attribute__((noinline))
static void saxpy_unaligned_scalar(float a, const float *x, float *y, int n)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}
__attribute__((noinline))
static void fma3_aligned_scalar(const float *x, const float *y, float *z, int n)
{
    for (int i = 0; i < n; i++)
        z[i] = x[i] * y[i] + 0.5f * z[i];
}
__attribute__((noinline))
static void masked_every_other_scalar(float *z, int n)
{
    static const int sel[8] = { 1, 0, 1, 0, 0, 1, 0, 1 };
    for (int i = 0; i + 8 <= n; i += 8)
        for (int k = 0; k < 8; k++)
            if (sel[k])
                z[i + k] += 1.0f;
}
__attribute__((noinline))
static double hsum_scalar(const float *z, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += z[i];
    return s;
}

int main(void)
{
    int use_avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (!use_avx2)
        printf("note: avx2/fma not supported, using scalar fallback\n");

    for (int i = 0; i < N + 64; i++) {
        xa[i] = (float)((i * 37) % 101) * 0.03125f;
        ya[i] = (float)((i * 53) % 89) * 0.0625f - 2.0f;
        za[i] = (float)(i % 7) * 0.25f;
    }

    double total = 0.0;
    for (int r = 0; r < REPS; r++) {
        /* misaligned: offsets 1..3 floats (4..12 bytes), odd lengths */
        int n = N - 5 - r;                 /* tail lengths vary: rem != 0 */
        const float *x = xa + 1 + (r % 3);
        float *y = ya + 3 + (r % 2);
        float a = 0.75f + (float)r * 0.125f;
        if (use_avx2) {
            saxpy_unaligned_avx2(a, x, y, n);
            fma3_aligned_avx2(xa, ya, za, N);
            masked_every_other_avx2(za + 1 + r, N - 8);
            total += hsum_avx2(ya, N) + hsum_avx2(za + 5, N - 5);
        } else {
            saxpy_unaligned_scalar(a, x, y, n);
            fma3_aligned_scalar(xa, ya, za, N);
            masked_every_other_scalar(za + 1 + r, N - 8);
            total += hsum_scalar(ya, N) + hsum_scalar(za + 5, N - 5);
        }
    }
    printf("avx2 checksum %.6f path %s\n", total, use_avx2 ? "avx2" : "scalar");
    return 0;
}
