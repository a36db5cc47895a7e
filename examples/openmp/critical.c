/* critical: the shared histogram is updated inside a critical section, so
 * one thread at a time runs the update. Each update takes the runtime's
 * lock (MUTEX_ACQUIRE / ACQUIRED / RELEASED events, kind critical), and the
 * histogram's cache lines travel from core to core. */
#include <stdio.h>

#define N 4000
#define BINS 8

static long hist[BINS];

int main(void) {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; ++i) {
        int bin = (i * 7) % BINS;
#pragma omp critical(histogram)
        hist[bin] += 1;
    }
    long total = 0;
    for (int b = 0; b < BINS; ++b) total += hist[b];
    printf("total %ld (expected %d), bin 0 %ld\n", total, N, hist[0]);
    return total == N ? 0 : 1;
}
