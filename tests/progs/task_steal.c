/* Four tasks of 1, 2, 3 and 4 units of work, created in that order by one
 * thread of four, which then waits (tests/integration/task_steal.sh).
 *
 * Under the replay's work-stealing order (docs/openmp.md, "Replay") the
 * creator runs its newest task, D (4 units), and the other three threads,
 * finding no task of their own at the single's barrier, steal the oldest
 * in turn: thread 1 runs A, thread 2 B, thread 3 C. (Oldest first from one
 * queue would give the creator A and thread 3 D.)
 *   task_steal UNIT (iterations per unit of work) */
#include <stdio.h>
#include <stdlib.h>

static long work(long n) {
    long s = 0;
    for (long i = 0; i < n; ++i) s += i ^ (s >> 3);
    return s;
}

int main(int argc, char** argv) {
    long unit = argc > 1 ? atol(argv[1]) : 100000;
    long r[4] = {0, 0, 0, 0};
#pragma omp parallel num_threads(4)
#pragma omp single
    {
#pragma omp task shared(r)
        r[0] = work(1 * unit);
#pragma omp task shared(r)
        r[1] = work(2 * unit);
#pragma omp task shared(r)
        r[2] = work(3 * unit);
#pragma omp task shared(r)
        r[3] = work(4 * unit);
#pragma omp taskwait
    }
    printf("%ld\n", (r[0] ^ r[1] ^ r[2] ^ r[3]) & 1);
    return 0;
}
