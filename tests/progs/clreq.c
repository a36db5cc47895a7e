/* Client requests (include/ompsim.h): measure only a kernel.
 * Run with --collect-atstart=no. Expected (tests/integration/clreq.sh):
 *  - start-up, the first sweep and printf are not measured;
 *  - KERNEL: 64 KiB read once with one load per 64 B line: 1024 reads;
 *    cold, so 1024 D1 misses (the array was never touched before);
 *  - the dump "after-kernel" holds the same kernel counts;
 *  - after OMPSIM_ZERO_COUNTERS the second kernel run (KERNEL2) is counted
 *    alone in the final document: 1024 reads; 64 KiB does not fit the
 *    48 KiB D1 (LRU sweep), so 1024 D1 misses, but it fits L2: 0 L2 misses;
 *  - ZEROED runs measured, right before an OMPSIM_ZERO_COUNTERS: nothing of
 *    it counts in either document, not even its instructions (its loop's
 *    certain I1 hits are counted per run of a stretch of code and multiplied
 *    out when something reads the counters: the zeroing must do so first). */
#include <stdio.h>

#include "ompsim.h"

#define SIZE (64 * 1024)
static unsigned char a[SIZE] __attribute__((aligned(4096)));
static unsigned char b[SIZE] __attribute__((aligned(4096)));
static unsigned char c[SIZE] __attribute__((aligned(4096)));

int main(void) {
    unsigned sum = 0;
    volatile unsigned char* p = a;
    volatile unsigned char* q = b;
    for (int i = 0; i < SIZE; i += 64) sum += q[i]; /* UNMEASURED */
    volatile unsigned char* r = c;
    OMPSIM_START_COLLECTION();
    for (int i = 0; i < SIZE; i += 64) sum += r[i]; /* ZEROED */
    OMPSIM_ZERO_COUNTERS();
    for (int i = 0; i < SIZE; i += 64) sum += p[i]; /* KERNEL */
    OMPSIM_STOP_COLLECTION();
    OMPSIM_DUMP("after-kernel");
    OMPSIM_ZERO_COUNTERS();
    OMPSIM_START_COLLECTION();
    for (int i = 0; i < SIZE; i += 64) sum += p[i]; /* KERNEL2 */
    OMPSIM_STOP_COLLECTION();
    printf("sum %u\n", sum);
    return 0;
}
