/* Walks for the miss classification and reuse-distance tests
 * (tests/integration/classify.sh), on a D1 of 64 lines (4 KiB, 4-way,
 * 16 sets of 64-byte lines). Each walk has its own named, line-aligned
 * array, so its counts are its structure's:
 *   fits:     32 lines read twice (fit in D1);
 *   big:      128 lines read twice (twice D1);
 *   conflict: 8 lines 1 KiB apart (one D1 set, 4 ways) read 4 times;
 *   cycle:    100 lines read 3 times (reuse distances).
 * One volatile load per line, nothing else inside the loops. */
#include <ompsim.h>

#define LINE 64
#define INTS_PER_LINE (LINE / (int)sizeof(int))

static int fits[32 * INTS_PER_LINE] __attribute__((aligned(4096)));
static int big[128 * INTS_PER_LINE] __attribute__((aligned(4096)));
static int conflict[8 * 1024 / (int)sizeof(int)] __attribute__((aligned(4096)));
static int cycle[100 * INTS_PER_LINE] __attribute__((aligned(4096)));

static long walk(const int* a, int lines, int stride_ints, int passes) {
    const volatile int* v = a;
    long sum = 0;
    for (int p = 0; p < passes; ++p)
        for (int i = 0; i < lines; ++i) sum += v[i * stride_ints];
    return sum;
}

int main(void) {
    OMPSIM_NAME_RANGE(fits, sizeof fits, "fits");
    OMPSIM_NAME_RANGE(big, sizeof big, "big");
    OMPSIM_NAME_RANGE(conflict, sizeof conflict, "conflict");
    OMPSIM_NAME_RANGE(cycle, sizeof cycle, "cycle");
    long s = walk(fits, 32, INTS_PER_LINE, 2);
    s += walk(big, 128, INTS_PER_LINE, 2);
    s += walk(conflict, 8, 1024 / (int)sizeof(int), 4);
    s += walk(cycle, 100, INTS_PER_LINE, 3);
    return (int)(s & 1);
}
