/* Region profiles with figures that follow from the program's structure
 * (tests/integration/regions_check.py, run with OMP_NUM_THREADS=4 and every
 * latency 0, so that a cycle is an instruction):
 *  - a critical section entered by all threads at the same time: each
 *    thread waits for the bodies of the threads before it in the replay's
 *    lock order (thread k: the sum of the bodies of threads 0..k-1);
 *  - a static loop whose iteration i costs c0 + c1 * i (spin runs i + 1
 *    times: every iteration takes the same path): thread k's share
 *    costs c1 * 10000 more than thread k-1's, and each thread waits at the
 *    loop's implicit barrier for the slowest (thread 3);
 *  - the paper's Figure 8: loops each followed by a master construct,
 *    three times: thread 0 goes loop -> master -> loop, the others loop ->
 *    loop.
 * The markers "@name" let the checker find the constructs' lines. */
#include <stdio.h>

#define N 400

static long sink[4 * 16];

__attribute__((noinline)) static long spin(long n) {
    long x = 1;
    for (long j = 0; j < n; ++j) x = x * 3 + j;
    return x;
}

static void critical_phase(void) {
#pragma omp parallel
    {
        long mine = 0;
#pragma omp barrier
#pragma omp critical /* @critical */
        mine += spin(300);
        sink[0] += mine;
    }
}

static void imbalance_phase(void) {
#pragma omp parallel
    {
        long mine = 0;
#pragma omp for schedule(static) /* @imbalanced */
        for (int i = 0; i < N; ++i) mine += spin(i + 1);
#pragma omp atomic
        sink[16] += mine;
    }
}

static void master_phase(void) {
#pragma omp parallel
    {
        long mine = 0;
#pragma omp for /* @loop1 */
        for (int i = 0; i < N; ++i) mine += i;
#pragma omp master /* @master1 */
        sink[32] += 1;
#pragma omp for /* @loop2 */
        for (int i = 0; i < N; ++i) mine += 2 * i;
#pragma omp master /* @master2 */
        sink[32] += 2;
#pragma omp for /* @loop3 */
        for (int i = 0; i < N; ++i) mine += 3 * i;
#pragma omp master /* @master3 */
        sink[32] += 3;
#pragma omp atomic
        sink[48] += mine;
    }
}

int main(void) {
    critical_phase();
    imbalance_phase();
    for (int r = 0; r < 3; ++r) master_phase();
    printf("%ld %ld %ld %ld\n", sink[0], sink[16], sink[32], sink[48]);
    return 0;
}
