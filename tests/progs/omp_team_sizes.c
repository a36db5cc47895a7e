/* Parallel regions whose team size changes from one to the next: 2, then
 * 4, then 3 threads (num_threads and omp_set_num_threads), each summing a
 * 4096-element array with a static loop (tests/integration/clients.sh). */
#include <omp.h>
#include <stdio.h>

#define N 4096

static double a[N];

static double sum_with(int threads) {
    double total = 0;
    omp_set_num_threads(threads);
#pragma omp parallel for schedule(static) reduction(+ : total)
    for (int i = 0; i < N; ++i) total += a[i];
    return total;
}

int main(void) {
    for (int i = 0; i < N; ++i) a[i] = i;
    double expected = (double)N * (N - 1) / 2, t2 = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp for schedule(static) reduction(+ : t2)
        for (int i = 0; i < N; ++i) t2 += a[i];
    }
    double t4 = sum_with(4), t3 = sum_with(3);
    printf("sums %.0f %.0f %.0f (expected %.0f)\n", t2, t4, t3, expected);
    return t2 == expected && t4 == expected && t3 == expected ? 0 : 1;
}
