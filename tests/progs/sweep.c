/* Closed-form test of the general hierarchy (tests/integration/sweep.sh).
 *
 * A 64-byte-aligned array of N bytes is read once per pass with one load
 * per 64-byte line, each pass on its own source line so the per-line costs
 * separate them:
 *   pass 1 (cold):   every line misses in every level  -> N/64 misses in D1, L2, L3
 *   pass 2 (warm):   with N larger than D1 but smaller than L2 (LRU), every
 *                    line misses in D1 and hits in L2  -> N/64 D1 misses, 0 L2
 *   pass 3 (small):  the first D1/2 bytes twice; the second walk hits D1.
 * N is argv[1] in KiB (default 256 KiB: > 48 KiB D1, < 1.25 MiB L2). */
#include <stdio.h>
#include <stdlib.h>

#define LINE 64

static unsigned char buf[4u << 20] __attribute__((aligned(4096)));

int main(int argc, char** argv) {
    size_t n = (argc > 1 ? (size_t)atoi(argv[1]) : 256) * 1024;
    size_t small = argc > 2 ? (size_t)atoi(argv[2]) * 1024 : 16 * 1024;
    if (n > sizeof buf || small > n) return 2;
    volatile unsigned char* p = buf;
    unsigned sum = 0;
    for (size_t i = 0; i < n; i += LINE) sum += p[i]; /* SWEEP-COLD */
    for (size_t i = 0; i < n; i += LINE) sum += p[i]; /* SWEEP-WARM */
    for (int r = 0; r < 2; ++r)
        for (size_t i = 0; i < small; i += LINE) sum += p[i]; /* SWEEP-SMALL */
    printf("sum %u\n", sum);
    return 0;
}
