/* Gallery 03, associativity conflicts and padding: the sum of the first
 * COLS columns of a 32 x 512 matrix of doubles, column by column (the inner
 * loop goes down a column), twice:
 *
 *   unpadded[ROWS][512]   rows 4096 B apart: a power of two
 *   padded[ROWS][512 + 8] rows 4160 B apart: one 64-byte line more
 *
 * A column of either matrix touches ROWS = 32 lines, 2 KiB: a small part of
 * a 4 KiB cache. But a cache puts the line at address x into set
 * (x / 64) mod sets, and addresses 4096 B apart fall into the same set of
 * every cache whose way (size / ways) divides 4 KiB: the 32 lines of an
 * unpadded column all compete for ONE set of the 2-way D1, and each access
 * evicts a line that the walk needs again. The padding shifts each row one
 * set further on, so the 32 lines spread over 32 sets: each line misses
 * once, and the next COLS - 1 columns (on the same lines: 8 doubles per
 * line) hit.
 *
 * Only the walks are simulated (--collect-atstart=no): the caches start
 * empty. README.md has the numbers; tests/integration/gallery_associativity.py
 * checks them. */
#include <stdio.h>

#include "ompsim.h"

#define ROWS 32
#define COLS 8 /* the doubles of one 64-byte line */
#define LD 512 /* doubles per row: 4 KiB */
#define PAD 8  /* one line of padding per row */

static double unpadded[ROWS][LD] __attribute__((aligned(4096)));
static double padded[ROWS][LD + PAD] __attribute__((aligned(4096)));

/* Column by column over rows `ld` doubles apart; one load per element
 * (built without vectorisation). */
__attribute__((noinline)) static double columns(const double* m, long ld) {
    double sum = 0;
    for (int j = 0; j < COLS; ++j)
        for (int i = 0; i < ROWS; ++i) sum += m[i * ld + j]; /* COLUMN */
    return sum;
}

int main(void) {
    for (int i = 0; i < ROWS; ++i)
        for (int j = 0; j < COLS; ++j) unpadded[i][j] = padded[i][j] = i + j;
    OMPSIM_START_COLLECTION();
    double a = columns(&unpadded[0][0], LD);
    double b = columns(&padded[0][0], LD + PAD);
    OMPSIM_STOP_COLLECTION();
    printf("sums %.1f %.1f\n", a, b);
    /* sum over i < 32, j < 8 of i + j = 8 * 496 + 32 * 28 */
    return a == b && a == 8 * 496 + 32 * 28 ? 0 : 1;
}
