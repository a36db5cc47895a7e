/* An OpenMP program whose client requests read or change what the replay
 * computed while the replay worker (--replay-thread, vgtool/ReplayWorker.h)
 * may still be simulating batches (tests/integration/replay_thread.sh).
 * With 4 threads:
 *  - static loops over two arrays, each a parallel region with a barrier;
 *  - a dump and a zeroing of the counters between the regions;
 *  - a user region and a what-if region around a loop, and a user region
 *    in every thread inside a parallel region (each of its client requests
 *    makes the replay catch up and wait for the worker while the others
 *    record; a dump there would depend on their progress, docs/openmp.md);
 *  - a critical section and a lock in every thread;
 *  - tasks: each thread creates two, the creator waits for them;
 *  - a named range (OMPSIM_NAME_RANGE) half way: the monitor comes on and
 *    the replay runs on the main thread from then on;
 *  - argv[1] "fork": a child is forked after the second region, runs a
 *    serial loop and exits; "kill": the program raises SIGSEGV right after
 *    the last region, whose events the replay has not all run yet (a kill
 *    inside a region would stop the other threads at points that depend
 *    on timing).
 * Prints the checksum. */
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ompsim.h"

#define N (1 << 16)
static double a[N], b[N];
static double total;
static omp_lock_t lock;

static void sweep(int steps) {
    for (int s = 0; s < steps; ++s) {
#pragma omp parallel for schedule(static)
        for (int i = 1; i < N - 1; ++i) b[i] = 0.5 * (a[i - 1] + a[i + 1]);
#pragma omp parallel for schedule(static)
        for (int i = 1; i < N - 1; ++i) a[i] = 0.5 * (b[i - 1] + b[i + 1]);
    }
}

static double work(int k) {
    double s = 0;
    for (int i = k; i < N; i += 64) s += a[i];
    return s;
}

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "";
    for (int i = 0; i < N; ++i) a[i] = i % 7;
    omp_init_lock(&lock);
    sweep(2);
    OMPSIM_DUMP("after-first");
    OMPSIM_ZERO_COUNTERS();
    OMPSIM_REGION_BEGIN("middle");
    OMPSIM_WHATIF_BEGIN("halved");
    sweep(2);
    OMPSIM_WHATIF_END("halved");
    OMPSIM_REGION_END("middle");
    if (strcmp(mode, "fork") == 0) {
        pid_t pid = fork();
        if (pid == 0) {
            double s = 0;
            for (int i = 0; i < N; ++i) s += a[i];
            _exit(s > 0 ? 3 : 4);
        }
        int st = 0;
        waitpid(pid, &st, 0);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 3) return 1;
    }
#pragma omp parallel
    {
        int t = omp_get_thread_num();
        OMPSIM_REGION_BEGIN("inside");
        double s = work(t);
        OMPSIM_REGION_END("inside");
#pragma omp critical
        total += s;
        omp_set_lock(&lock);
        total += 1;
        omp_unset_lock(&lock);
        double x = 0, y = 0;
#pragma omp task shared(x)
        x = work(t + 8);
#pragma omp task shared(y)
        y = work(t + 16);
#pragma omp taskwait
#pragma omp atomic
        total += x + y;
    }
    OMPSIM_NAME_RANGE(b, sizeof b, "b");
    sweep(1);
#pragma omp parallel
    {
        double s = work(omp_get_thread_num() + 24);
#pragma omp atomic
        total += s;
    }
    if (strcmp(mode, "kill") == 0) raise(SIGSEGV);
    omp_destroy_lock(&lock);
    printf("%.1f\n", total + a[N / 2]);
    return 0;
}
