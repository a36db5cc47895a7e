/* phases.c - three phases of misses for the miss worker's auto mode
 * (tests/integration/miss_thread.sh, vgtool/MissWorker.h):
 *   1. a 16 MiB write stream: 256 K lines, each missing every level of the
 *      default machine and later evicted dirty (most misses go past L2);
 *   2. 40 reads of one line each over a 512 KiB array (8 K lines, more
 *      than the 48 KiB D1, less than the 1.25 MiB L2): 320 K misses, all
 *      but the first pass's 8 K ending in L2;
 *   3. the write stream again.
 * Deterministic; prints one checksum line. */
#include <stdio.h>

#define LINE 64
#define BIG (16u << 20)
#define HOT (512u << 10)

static unsigned char big[BIG] __attribute__((aligned(4096)));
static unsigned char hot[HOT] __attribute__((aligned(4096)));

static void stream(unsigned char v) {
    for (unsigned i = 0; i < BIG; i += LINE) big[i] = (unsigned char)(v + i / LINE);
}

int main(void) {
    unsigned sum = 0;
    stream(1);
    volatile unsigned char* h = hot;
    for (int pass = 0; pass < 40; ++pass)
        for (unsigned i = 0; i < HOT; i += LINE) sum += h[i];
    stream(2);
    for (unsigned i = 0; i < BIG; i += 4096) sum += big[i];
    printf("phases %u\n", sum);
    return 0;
}
