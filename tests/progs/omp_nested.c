/* Nested parallel regions (run with OMP_MAX_ACTIVE_LEVELS=2): an outer
 * team of 2 threads, each forking an inner team of 2 that sums its half of
 * an array with a static loop, and a critical section that adds each inner
 * thread's part. Used by tests/integration/omp_nested.sh. */
#include <omp.h>
#include <stdio.h>

#define N 4096

static double a[N];
static double total;

int main(void) {
    for (int i = 0; i < N; ++i) a[i] = i;
#pragma omp parallel num_threads(2)
    {
        int half = omp_get_thread_num();
#pragma omp parallel num_threads(2)
        {
            double part = 0;
#pragma omp for schedule(static)
            for (int i = half * (N / 2); i < (half + 1) * (N / 2); ++i) part += a[i];
#pragma omp critical
            total += part;
        }
    }
    printf("total %.0f (expected %.0f)\n", total, (double)N * (N - 1) / 2);
    return total == (double)N * (N - 1) / 2 ? 0 : 1;
}
