/* single and master inside one parallel region:
 *   single  one thread (whichever arrives first) initialises the table; the
 *           others wait at the implicit barrier at its end;
 *   master  thread 0 alone computes the total, with no barrier: the
 *           explicit barrier before it makes every thread's part visible.
 * Every thread fills its own part of the table in between. */
#include <omp.h>
#include <stdio.h>

#define N 1024

static int table[N];
static long total;

int main(void) {
#pragma omp parallel
    {
#pragma omp single
        for (int i = 0; i < N; ++i) table[i] = 1;

        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        for (int i = t; i < N; i += nt) table[i] += i;

#pragma omp barrier
#pragma omp master
        {
            long s = 0;
            for (int i = 0; i < N; ++i) s += table[i];
            total = s;
        }
    }
    long expected = N + (long)N * (N - 1) / 2;
    printf("total %ld (expected %ld)\n", total, expected);
    return total == expected ? 0 : 1;
}
