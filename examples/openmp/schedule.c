/* Loop schedules: one array, three loops over it, each with another
 * schedule. Which thread runs which iterations:
 *   static       contiguous blocks of N / threads iterations, fixed in advance
 *                (no runtime call per chunk: the compiler computes the block);
 *   dynamic, 4   chunks of 4 iterations handed out on demand (the runtime's
 *                dispatcher is called once per chunk);
 *   guided       chunks that start large and shrink towards the end.
 * Under ompsim the dynamic and guided chunks arrive as LOOP_INIT / CHUNK /
 * LOOP_DONE events (docs/openmp.md). The printed sums do not depend on the
 * schedule or on the number of threads. Built twice: with clang (libomp)
 * and, as schedule_gcc, with gcc (libgomp, which the preload library runs
 * on libomp under Valgrind). */
#include <stdio.h>

#define N 1000

static double a[N];

static void fill_static(void) {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; ++i) a[i] = 0.5 * i;
}

static void scale_dynamic(void) {
#pragma omp parallel for schedule(dynamic, 4)
    for (int i = 0; i < N; ++i) a[i] = 2.0 * a[i] + 1.0;
}

static void shift_guided(void) {
#pragma omp parallel for schedule(guided)
    for (int i = 0; i < N; ++i) a[i] -= 1.0;
}

int main(void) {
    fill_static();
    scale_dynamic();
    shift_guided();
    double s = 0;
    for (int i = 0; i < N; ++i) s += a[i];
    printf("sum %.1f (expected %.1f)\n", s, (double)N * (N - 1) / 2);
    return s == (double)N * (N - 1) / 2 ? 0 : 1;
}
