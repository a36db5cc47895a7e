/* One allocation line run 1000 times: the monitor groups the blocks by
 * allocation site, so they are one data structure (tests/integration/
 * heap_sites.sh). Each block is 4 KiB, written once and freed, so the next
 * malloc may return the same address: a freed and reused range must never
 * be counted twice. */
#include <stdlib.h>
#include <string.h>

#define BLOCKS 1000
#define DOUBLES 512 /* 4 KiB */

__attribute__((noinline)) static void fill(double* p) {
    for (int i = 0; i < DOUBLES; ++i) p[i] = i; /* FILL */
}

int main(void) {
    double sum = 0;
    for (int k = 0; k < BLOCKS; ++k) {
        double* p = malloc(DOUBLES * sizeof(double)); /* SITE */
        fill(p);
        sum += p[k % DOUBLES];
        free(p);
    }
    return sum < 0;
}
