/* memops.c - memcpy / memset / memmove over many sizes and alignments,
 * including unaligned and overlapping (forward and backward) moves, plus
 * x86-64 string instructions via inline asm: rep movsb, rep stosb, rep movsq,
 * rep stosq, a zero-count rep, and a backwards (DF=1) rep movsb.
 * (Cachegrind counts each iteration of a rep-prefixed instruction as one
 * instruction fetch.)  Deterministic; prints one checksum line. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#define BUFSZ 8192
#define PAD 64

static unsigned char src[BUFSZ + 2 * PAD] __attribute__((aligned(64)));
static unsigned char dst[BUFSZ + 2 * PAD] __attribute__((aligned(64)));

static uint64_t h = 1469598103934665603ULL;   /* FNV-1a */
static void hash_bytes(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
}

/* Calls through volatile pointers so the compiler cannot turn constant-size
 * calls into inline moves: the libc routines really run. */
static void *(*volatile p_memcpy)(void *, const void *, size_t) = memcpy;
static void *(*volatile p_memmove)(void *, const void *, size_t) = memmove;
static void *(*volatile p_memset)(void *, int, size_t) = memset;

#if defined(__x86_64__)
static void rep_movsb(void *d, const void *s, size_t n)
{
    __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}
static void rep_stosb(void *d, int c, size_t n)
{
    __asm__ volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
}
static void rep_movsq(void *d, const void *s, size_t nq)
{
    __asm__ volatile("rep movsq" : "+D"(d), "+S"(s), "+c"(nq) : : "memory");
}
static void rep_stosq(void *d, uint64_t v, size_t nq)
{
    __asm__ volatile("rep stosq" : "+D"(d), "+c"(nq) : "a"(v) : "memory");
}
/* Backwards copy with the direction flag set: d and s point at the LAST
 * byte of the regions. */
static void rep_movsb_back(void *dlast, const void *slast, size_t n)
{
    __asm__ volatile("std\n\trep movsb\n\tcld"
                     : "+D"(dlast), "+S"(slast), "+c"(n) : : "memory", "cc");
}
#else
static void rep_movsb(void *d, const void *s, size_t n)
{
    unsigned char *dd = d; const unsigned char *ss = s;
    while (n--) *dd++ = *ss++;
}
static void rep_stosb(void *d, int c, size_t n) { memset(d, c, n); }
static void rep_movsq(void *d, const void *s, size_t nq)
{
    uint64_t *dd = d; const uint64_t *ss = s;
    while (nq--) *dd++ = *ss++;
}
static void rep_stosq(void *d, uint64_t v, size_t nq)
{
    uint64_t *dd = d;
    while (nq--) *dd++ = v;
}
static void rep_movsb_back(void *dlast, const void *slast, size_t n)
{
    unsigned char *dd = dlast; const unsigned char *ss = slast;
    while (n--) *dd-- = *ss--;
}
#endif

static const size_t sizes[] = {
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 15, 16, 17, 23, 24, 31, 32, 33,
    47, 48, 63, 64, 65, 95, 96, 127, 128, 129, 191, 255, 256, 257, 300,
    511, 512, 513, 1000, 1023, 1024, 1500, 2048, 2049, 3333, 4096, 4100,
    6000, 8000
};
#define NSIZES (sizeof sizes / sizeof sizes[0])
static const unsigned salign[] = { 0, 1, 3, 8, 13 };
#define NSALIGN (sizeof salign / sizeof salign[0])

int main(void)
{
    for (size_t i = 0; i < sizeof src; i++)
        src[i] = (unsigned char)(i * 131u + (i >> 7) * 7u + 1u);
    memset(dst, 0, sizeof dst);

    unsigned long ops = 0;

    /* memcpy / memset over sizes x alignments */
    for (size_t si = 0; si < NSIZES; si++) {
        size_t n = sizes[si];
        unsigned dstep = n > 1024 ? 5 : 1;
        for (unsigned da = 0; da < 16; da += dstep) {
            for (size_t sa = 0; sa < NSALIGN; sa++) {
                p_memcpy(dst + PAD + da, src + PAD + salign[sa], n);
                ops++;
            }
            hash_bytes(dst + PAD + da, n < 64 ? n : 64);
            if (n)
                hash_bytes(dst + PAD + da + n - 1, 1);
            p_memset(dst + PAD + da, (int)(n + da), n);
            ops++;
            hash_bytes(dst + PAD + da, n < 32 ? n : 32);
        }
    }

    /* overlapping memmove, forward and backward, various distances */
    static const unsigned dists[] = { 1, 2, 3, 7, 8, 15, 16, 31, 33, 64, 100, 513 };
    for (size_t si = 0; si < NSIZES; si++) {
        size_t n = sizes[si];
        if (n + 600 > BUFSZ)
            continue;
        for (size_t di = 0; di < sizeof dists / sizeof dists[0]; di++) {
            unsigned d = dists[di];
            memcpy(dst + PAD, src + PAD, n + d);
            p_memmove(dst + PAD + d, dst + PAD, n);        /* dst > src */
            ops++;
            hash_bytes(dst + PAD + d, n < 48 ? n : 48);
            p_memmove(dst + PAD + 3, dst + PAD + 3 + d, n); /* dst < src */
            ops++;
            hash_bytes(dst + PAD + 3, n < 48 ? n : 48);
        }
    }

    /* string instructions */
    for (size_t si = 0; si < NSIZES; si++) {
        size_t n = sizes[si];
        for (unsigned a = 0; a < 8; a += 3) {
            rep_movsb(dst + PAD + a, src + PAD + 2 * a + 1, n);
            hash_bytes(dst + PAD + a, n < 40 ? n : 40);
            rep_stosb(dst + PAD + a, 0x5a ^ (int)n, n);
            hash_bytes(dst + PAD + a, n < 40 ? n : 40);
            rep_movsq(dst + PAD + a, src + PAD + 5, n / 8);
            hash_bytes(dst + PAD + a, n < 40 ? n : 40);
            rep_stosq(dst + PAD + a, 0x0123456789abcdefULL + n, n / 8);
            hash_bytes(dst + PAD + a, n < 40 ? n : 40);
            ops += 4;
        }
    }
    /* overlapping forward rep movsb: byte-at-a-time semantics replicate a
     * pattern */
    memcpy(dst + PAD, "abcdefg", 7);
    rep_movsb(dst + PAD + 7, dst + PAD, 700);
    hash_bytes(dst + PAD, 707);
    /* backwards copy with DF=1 (overlapping, dst > src) */
    memcpy(dst + PAD, src + PAD, 1000);
    rep_movsb_back(dst + PAD + 10 + 999, dst + PAD + 999, 1000);
    hash_bytes(dst + PAD, 1010);
    ops += 2;

    printf("memops checksum %016llx ops %lu\n", (unsigned long long)h, ops);
    return 0;
}
