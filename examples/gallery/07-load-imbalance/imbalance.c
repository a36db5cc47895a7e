/* Gallery 07, load imbalance and what-if: a serial set-up of S units of
 * work, then a parallel loop of N iterations in which iteration i does
 * i + 1 units (a triangle: late iterations are expensive).
 *
 *   imbalance static    schedule(static): thread t of 4 gets iterations
 *                       8t .. 8t + 7, so thread 3 does 228 of the 528
 *                       units and the others wait for it at the barrier
 *   imbalance dynamic   schedule(dynamic, 1): iterations are handed out
 *                       one at a time, so no thread waits long
 *
 * A unit is UNIT iterations of spin(), a loop of a fixed number of
 * instructions. The set-up is annotated OMPSIM_WHATIF_BEGIN/END("setup"),
 * so that `ompsim-report whatif LOG --region setup:4` can predict what
 * making it 4 times faster would give. README.md derives the figures;
 * tests/integration/gallery_imbalance.py checks them. Built with clang
 * -fopenmp. */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "ompsim.h"

#define N 32      /* loop iterations */
#define S 64      /* units of serial set-up */
#define UNIT 1000 /* spin() iterations per unit */

static unsigned long __attribute__((noinline)) spin(unsigned long n) {
    volatile unsigned long s = 0;
    for (unsigned long i = 0; i < n; ++i) s += i;
    return s;
}

static unsigned long done[N];

int main(int argc, char** argv) {
    int dynamic = argc > 1 && strcmp(argv[1], "dynamic") == 0;
    if (argc != 2 || (!dynamic && strcmp(argv[1], "static") != 0)) {
        fprintf(stderr, "usage: imbalance static|dynamic\n");
        return 2;
    }
    /* The C library's start-up is not part of the program's figures. */
    OMPSIM_ZERO_COUNTERS();
    OMPSIM_WHATIF_BEGIN("setup");
    spin((unsigned long)S * UNIT); /* SETUP */
    OMPSIM_WHATIF_END("setup");
    if (dynamic) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(4)
        for (int i = 0; i < N; ++i) done[i] = spin((unsigned long)(i + 1) * UNIT); /* DYNAMIC */
    } else {
#pragma omp parallel for schedule(static) num_threads(4)
        for (int i = 0; i < N; ++i) done[i] = spin((unsigned long)(i + 1) * UNIT); /* STATIC */
    }
    int bad = 0;
    for (int i = 0; i < N; ++i) bad |= done[i] != (unsigned long)(i + 1) * UNIT * ((i + 1) * UNIT - 1) / 2;
    printf("%s: %s\n", argv[1], bad ? "WRONG" : "ok");
    return bad;
}
