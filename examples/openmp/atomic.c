/* atomic: one shared counter, incremented by every iteration with a
 * lock-prefixed instruction instead of a lock. Cheaper than critical.c's
 * lock, but the counter's cache line still moves between the cores on every
 * increment. (libomp reports no event for an atomic update the compiler
 * inlines.) */
#include <stdio.h>

#define N 4000

int main(void) {
    long count = 0;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; ++i) {
#pragma omp atomic
        count += 1;
    }
    printf("count %ld (expected %d)\n", count, N);
    return count == N ? 0 : 1;
}
