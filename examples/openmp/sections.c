/* sections: three independent pieces of work, each run once by some thread
 * of the team (with fewer threads than sections, a thread runs several). */
#include <stdio.h>

#define N 2000

static double x[N], y[N], z[N];

int main(void) {
#pragma omp parallel sections
    {
#pragma omp section
        for (int i = 0; i < N; ++i) x[i] = i;
#pragma omp section
        for (int i = 0; i < N; ++i) y[i] = 2.0 * i;
#pragma omp section
        for (int i = 0; i < N; ++i) z[i] = 3.0 * i;
    }
    double s = 0;
    for (int i = 0; i < N; ++i) s += x[i] + y[i] + z[i];
    double expected = 6.0 * N * (N - 1) / 2;
    printf("sum %.1f (expected %.1f)\n", s, expected);
    return s == expected ? 0 : 1;
}
