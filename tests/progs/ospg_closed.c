/* Programs whose inherent parallelism has a closed form, for
 * tests/integration/ospg_closed.py (docs/parallelism.md). Work is counted in
 * iterations of spin(), a loop of a fixed number of instructions per
 * iteration; everything else the program does (calls, loop control, the
 * code around the runtime calls) is small next to it, which is the test's
 * tolerance. Counters are zeroed at the start of main: the C library's
 * start-up is not part of the program's figures.
 *
 *   loop-dynamic   P = 200k serial, a loop of N = 32 iterations of W = 100k
 *                  with schedule(dynamic, 1), S = 100k serial:
 *                  parallelism (P + N W + S) / (P + W + S) = 3.5M / 0.4M = 8.75
 *   loop-chunk4    the same loop with schedule(dynamic, 4): chunks of 4 W:
 *                  3.5M / 0.7M = 5
 *   loop-static    schedule(static) on T threads: T chunks of N/T iterations,
 *                  the same figures as loop-dynamic-T (schedule(dynamic, N/T))
 *   tree           tasks: a binary tree of depth D = 6, each inner node
 *                  A = 10k before its two tasks and B = 10k after the
 *                  taskwait, each leaf L = 50k: work (2^D - 1)(A + B) + 2^D L
 *                  = 4.46M, span D (A + B) + L = 170k: 26.24
 *   chain          8 sibling tasks of W = 100k, each depending on the one
 *                  before (depend(inout: x)): span 8 W, parallelism 1; with
 *                  independent tasks (chain-free): span W, parallelism 8
 *   nested         2 x 2 nested teams (num_threads(2), 2 active levels),
 *                  each member W = 100k: work 4 W, span W: 4
 *   primes         the OMP-WHIP paper's figure 1: a dynamic loop over
 *                  2..N testing primality (the inner loop annotated
 *                  "inner"), then a serial count (annotated "count") */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "ompsim.h"

static unsigned long __attribute__((noinline)) spin(unsigned long n) {
    volatile unsigned long s = 0;
    for (unsigned long i = 0; i < n; ++i) s += i;
    return s;
}

#define N 32
#define W 100000

static void loop(int kind) {
    spin(200000);
    if (kind == 0) {
#pragma omp parallel for schedule(dynamic, 1)
        for (int i = 0; i < N; ++i) spin(W);
    } else if (kind == 1) {
#pragma omp parallel for schedule(dynamic, 4)
        for (int i = 0; i < N; ++i) spin(W);
    } else if (kind == 2) {
#pragma omp parallel for schedule(static)
        for (int i = 0; i < N; ++i) spin(W);
    } else {
        int t = omp_get_max_threads();
        int c = N / t;
#pragma omp parallel for schedule(dynamic, c)
        for (int i = 0; i < N; ++i) spin(W);
    }
    spin(100000);
}

static void tree(int d) {
    if (d == 0) {
        spin(50000);
        return;
    }
    spin(10000);
#pragma omp task
    tree(d - 1);
#pragma omp task
    tree(d - 1);
#pragma omp taskwait
    spin(10000);
}

static void chain(int dependent) {
    int x = 0, y[8];
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < 8; ++i) {
        if (dependent) {
#pragma omp task depend(inout : x)
            spin(W);
        } else {
#pragma omp task depend(inout : y[i])
            spin(W);
        }
    }
    (void)x;
    (void)y;
}

static void nested(void) {
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2)
#pragma omp parallel num_threads(2)
    spin(W);
}

#define PRIMES 60000
static char prime[PRIMES + 1];

static int primes(void) {
#pragma omp parallel
    {
#pragma omp for schedule(dynamic, 1000)
        for (int i = 2; i <= PRIMES; ++i) {
            OMPSIM_WHATIF_BEGIN("inner");
            int p = 1;
            for (int j = 2; j * j <= i; ++j)
                if (i % j == 0) {
                    p = 0;
                    break;
                }
            prime[i] = (char)p;
            OMPSIM_WHATIF_END("inner");
        }
    }
    int count = 0;
    OMPSIM_WHATIF_BEGIN("count");
    for (int r = 0; r < 20; ++r)
        for (int i = 2; i <= PRIMES; ++i) count += prime[i];
    OMPSIM_WHATIF_END("count");
    return count / 20;
}

int main(int argc, char** argv) {
    OMPSIM_ZERO_COUNTERS();
    const char* mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "loop-dynamic")) loop(0);
    else if (!strcmp(mode, "loop-chunk4")) loop(1);
    else if (!strcmp(mode, "loop-static")) loop(2);
    else if (!strcmp(mode, "loop-dynamic-T")) loop(3);
    else if (!strcmp(mode, "tree")) {
#pragma omp parallel
#pragma omp single
        tree(6);
    } else if (!strcmp(mode, "chain")) chain(1);
    else if (!strcmp(mode, "chain-free")) chain(0);
    else if (!strcmp(mode, "nested")) nested();
    else if (!strcmp(mode, "primes")) return primes() == 6057 ? 0 : 1;  /* pi(60000) = 6057 */
    else return 2;
    return 0;
}
