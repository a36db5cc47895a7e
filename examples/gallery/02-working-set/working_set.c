/* Gallery 02, working-set size: read arrays of 1 KiB to 1 MiB, each one
 * PASSES times from start to end, one int per 64-byte line (the loads of a
 * pass touch every line of the array once, and nothing else).
 *
 * On a cache of C bytes with LRU replacement, a working set that fits
 * (here at most half of C) misses only in the first pass, a miss ratio of
 * 1 / PASSES. One that does not fit (at
 * least twice C) misses on every load in every pass: each set sees more
 * lines, in a cycle, than it has ways, and LRU always evicts the line that
 * comes back next. So the miss ratio of each cache level steps from
 * 1 / PASSES to 1 at that level's capacity: D1 between 2 and 8 KiB, L2
 * between 16 and 64 KiB, L3 between 128 and 512 KiB with the machine of
 * README.md (--D1=4K,2,64 --L2=32K,8,64 --L3=256K,8,64).
 *
 * One array per size (ws_1k ... ws_1m), so the monitor counts each working
 * set apart. Only the passes are simulated (--collect-atstart=no): the
 * caches start empty. tests/integration/gallery_working_set.py checks the
 * numbers. */
#include <stdio.h>

#include "ompsim.h"

#define PASSES 8
#define INTS_PER_LINE 16
#define KIB (1024 / sizeof(int)) /* ints per KiB */

/* Line aligned and never written: in .bss, untouched until read. */
static int ws_1k[1 * KIB] __attribute__((aligned(64)));
static int ws_2k[2 * KIB] __attribute__((aligned(64)));
static int ws_8k[8 * KIB] __attribute__((aligned(64)));
static int ws_16k[16 * KIB] __attribute__((aligned(64)));
static int ws_64k[64 * KIB] __attribute__((aligned(64)));
static int ws_128k[128 * KIB] __attribute__((aligned(64)));
static int ws_512k[512 * KIB] __attribute__((aligned(64)));
static int ws_1m[1024 * KIB] __attribute__((aligned(64)));

/* PASSES passes over n ints, one load per line. */
__attribute__((noinline)) static long sweep(const int* a, long n) {
    long sum = 0;
    for (int p = 0; p < PASSES; ++p)
        for (long i = 0; i < n; i += INTS_PER_LINE) sum += a[i]; /* SWEEP */
    return sum;
}

#define SWEEP(a) sweep(a, (long)(sizeof(a) / sizeof(int)))

int main(void) {
    OMPSIM_START_COLLECTION();
    long sum = SWEEP(ws_1k) + SWEEP(ws_2k) + SWEEP(ws_8k) + SWEEP(ws_16k) + SWEEP(ws_64k) +
               SWEEP(ws_128k) + SWEEP(ws_512k) + SWEEP(ws_1m);
    OMPSIM_STOP_COLLECTION();
    printf("sum %ld\n", sum);
    return sum == 0 ? 0 : 1;
}
