/* A tour of the constructs the OpenMP event intake reports, in one small
 * program (tests/integration/omp_events.sh checks its events):
 * a dynamic loop, an explicit barrier, a critical section, single, and
 * tasks with taskwait. */
#include <stdio.h>

#define N 257
#define CHUNK 5

static int a[N];
static int visits[N];
static long total;

static int work(int i) { return (i * 3) % 11; }

int main(void) {
#pragma omp parallel
    {
#pragma omp for schedule(dynamic, CHUNK) nowait
        for (int i = 0; i < N; ++i) {
            a[i] = work(i);
            visits[i] += 1;
        }
#pragma omp barrier
        long mine = 0;
#pragma omp for schedule(static)
        for (int i = 0; i < N; ++i) mine += a[i];
#pragma omp critical
        total += mine;
#pragma omp single
        {
            for (int k = 0; k < 4; ++k) {
#pragma omp task firstprivate(k)
                a[k] += 100;
            }
#pragma omp taskwait
        }
    }
    int once = 1;
    for (int i = 0; i < N; ++i) once &= visits[i] == 1;
    long expected = 0;
    for (int i = 0; i < N; ++i) expected += work(i);
    printf("total %ld (expected %ld), each iteration once: %s, a[0..3] %d %d %d %d\n", total, expected,
           once ? "yes" : "no", a[0], a[1], a[2], a[3]);
    return total == expected && once ? 0 : 1;
}
