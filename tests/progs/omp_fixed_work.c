/* Which thread ran which iteration of dynamic and guided loops, and which
 * thread ran each single, printed for tests/integration/omp_fixed_work.sh,
 * which compares them with ompsim's fixed assignment (docs/openmp.md,
 * "Fixed work assignment"). Built with clang (libomp's __kmpc_dispatch_*)
 * and with gcc (GOMP_loop_*_start/next, GOMP_single_start, forwarded to
 * libomp). The program also checks what must hold under any assignment:
 * every iteration runs once, and lastprivate gets the last iteration.
 *
 * Output, one line per loop: "<name>:" then the thread of each iteration in
 * iteration order; then "single:" and the thread of each of 6 singles. */
#include <omp.h>
#include <stdio.h>

#define N 100

static int owner[N];
static int runs[N];

static int check(const char* name, int count, int last, int expected_last) {
    int bad = 0;
    printf("%s:", name);
    for (int i = 0; i < count; ++i) {
        printf(" %d", owner[i]);
        if (runs[i] != 1) bad = 1;
        runs[i] = 0;
    }
    printf("\n");
    if (bad) printf("%s: an iteration did not run exactly once\n", name);
    if (last != expected_last) {
        printf("%s: lastprivate %d, expected %d\n", name, last, expected_last);
        bad = 1;
    }
    return bad;
}

int main(void) {
    int bad = 0, last = -1;

#pragma omp parallel for schedule(dynamic, 3) lastprivate(last)
    for (int i = 0; i < 50; ++i) {
        owner[i] = omp_get_thread_num();
        ++runs[i];
        last = i;
    }
    bad |= check("dynamic3", 50, last, 49);

#pragma omp parallel for schedule(guided, 2) lastprivate(last)
    for (int i = 0; i < N; ++i) {
        owner[i] = omp_get_thread_num();
        ++runs[i];
        last = i;
    }
    bad |= check("guided2", N, last, N - 1);

    /* Counting down by 2: logical iteration k is i = 99 - 2k. */
#pragma omp parallel for schedule(dynamic, 2) lastprivate(last)
    for (int i = 99; i >= 0; i -= 2) {
        owner[(99 - i) / 2] = omp_get_thread_num();
        ++runs[(99 - i) / 2];
        last = i;
    }
    bad |= check("down2", 50, last, 1);

    /* schedule(runtime) with OMP_SCHEDULE set by the test. */
#pragma omp parallel for schedule(runtime) lastprivate(last)
    for (int i = 0; i < 20; ++i) {
        owner[i] = omp_get_thread_num();
        ++runs[i];
        last = i;
    }
    bad |= check("runtime", 20, last, 19);

    int single_owner[6];
#pragma omp parallel
    {
        for (int k = 0; k < 3; ++k) {
#pragma omp single
            single_owner[k] = omp_get_thread_num();
        }
        for (int k = 3; k < 6; ++k) {
#pragma omp single nowait
            single_owner[k] = omp_get_thread_num();
        }
    }
    printf("single:");
    for (int k = 0; k < 6; ++k) printf(" %d", single_owner[k]);
    printf("\n");
    return bad;
}
