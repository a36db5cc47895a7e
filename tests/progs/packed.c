/* packed.c - arrays of __attribute__((packed)) records of odd sizes (13 and
 * 37 bytes), so many 2/4/8-byte loads and stores straddle 64-byte cache
 * lines; plus read-modify-write instructions on memory (add/sub/or/xor/inc
 * [mem], reg|imm) produced by x[idx] += v style code that GCC cannot
 * vectorise (indirect indices).  Deterministic; prints one checksum line. */
#include <stdio.h>
#include <stdint.h>

struct __attribute__((packed)) r13 {   /* 1 + 4 + 8 = 13 bytes */
    uint8_t tag;
    uint32_t a;
    double b;
};

struct __attribute__((packed)) r37 {   /* 2 + 24 + 4 + 7 = 37 bytes */
    uint16_t s;
    uint64_t q[3];
    uint32_t i;
    uint8_t c[7];
};

_Static_assert(sizeof(struct r13) == 13, "r13 size");
_Static_assert(sizeof(struct r37) == 37, "r37 size");

#define N13 3001
#define N37 1201
#define NX 4096

static struct r13 a13[N13];
static struct r37 a37[N37];
static uint32_t x[NX];
static uint64_t y[NX];
static uint16_t idx[NX];
static uint32_t hist[256];

static uint64_t lcg = 12345;
static uint32_t rnd(void)
{
    lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(lcg >> 32);
}

/* noinline so each loop is a distinct function in the profile */
__attribute__((noinline)) static void init(void)
{
    for (int i = 0; i < N13; i++) {
        a13[i].tag = (uint8_t)i;
        a13[i].a = (uint32_t)i * 3u;
        a13[i].b = (double)i * 0.5;
    }
    for (int i = 0; i < N37; i++) {
        a37[i].s = (uint16_t)(i * 7);
        for (int k = 0; k < 3; k++)
            a37[i].q[k] = (uint64_t)i * 1000003u + (uint64_t)k;
        a37[i].i = (uint32_t)i;
        for (int k = 0; k < 7; k++)
            a37[i].c[k] = (uint8_t)(i + k);
    }
    for (int i = 0; i < NX; i++) {
        x[i] = (uint32_t)i;
        y[i] = (uint64_t)i << 20;
        idx[i] = (uint16_t)(rnd() % NX);
    }
}

__attribute__((noinline)) static void update13(int round)
{
    for (int i = 0; i < N13; i++) {
        a13[i].a += (uint32_t)(i + round);       /* RMW on unaligned 4 bytes */
        a13[i].b = a13[i].b * 1.25 + (double)round;
        a13[i].tag ^= (uint8_t)round;
    }
}

__attribute__((noinline)) static void update37(int round)
{
    for (int i = 0; i < N37; i++) {
        a37[i].q[i % 3] += (uint64_t)round;      /* 8-byte RMW, unaligned */
        a37[i].i -= 1;
        a37[i].s += (uint16_t)i;
        a37[i].c[round % 7] |= 0x10;
    }
}

__attribute__((noinline)) static void scatter(int round)
{
    for (int i = 0; i < NX; i++) {
        x[idx[i]] += (uint32_t)(i + round);      /* add [mem], reg */
        y[idx[(i + round) & (NX - 1)]] ^= (uint64_t)i;  /* xor [mem], reg */
        hist[x[i] & 255]++;                      /* add [mem], 1 */
    }
}

__attribute__((noinline)) static uint64_t reduce(void)
{
    uint64_t h = 0;
    for (int i = 0; i < N13; i++) {
        h = h * 31 + a13[i].a + a13[i].tag;
        h += (uint64_t)(a13[i].b * 8.0);
    }
    for (int i = 0; i < N37; i++) {
        h = h * 37 + a37[i].q[0] + a37[i].q[1] + a37[i].q[2];
        h += a37[i].i + a37[i].s;
        for (int k = 0; k < 7; k++)
            h += (uint64_t)a37[i].c[k] << k;
    }
    for (int i = 0; i < NX; i++)
        h = h * 3 + x[i] + (y[i] >> 3);
    for (int i = 0; i < 256; i++)
        h = h * 5 + hist[i];
    return h;
}

int main(void)
{
    init();
    for (int r = 0; r < 4; r++) {
        update13(r);
        update37(r);
        scatter(r);
    }
    printf("packed checksum %016llx\n", (unsigned long long)reduce());
    return 0;
}
