/* Gallery 06, false sharing and its fix: two threads each increment their
 * own counter N times, first with the counters side by side,
 *
 *   long shared_line[2]         both in one 64-byte line
 *
 * then with each counter on a line of its own,
 *
 *   struct { long v; char pad[56]; } own_lines[2]
 *
 * The threads never read each other's counter, yet in the first loop each
 * core's copy of the line is invalidated whenever the other core writes
 * its half: every time a thread gets to run again, its first access misses
 * (a coherence miss, on bytes nobody else wrote: false sharing). The
 * padded loop has none. README.md derives the count for ompsim's
 * deterministic replay; tests/integration/gallery_false_sharing.py checks
 * it. Built with clang -fopenmp. */
#include <omp.h>
#include <stdio.h>

#define NTHREADS 2
#define N 4000

static volatile long shared_line[NTHREADS] __attribute__((aligned(64)));
static struct {
    volatile long v;
    char pad[64 - sizeof(long)];
} own_lines[NTHREADS] __attribute__((aligned(64)));

/* One load and one store per increment: volatile keeps both, the empty asm
 * keeps the compiler from fusing them into one add-to-memory instruction. */
#define INCREMENT(x)                     \
    do {                                 \
        long v_ = (x);                   \
        __asm__ volatile("" : "+r"(v_)); \
        (x) = v_ + 1;                    \
    } while (0)

int main(void) {
#pragma omp parallel num_threads(NTHREADS)
    {
        int t = omp_get_thread_num();
        for (int i = 0; i < N; ++i) INCREMENT(shared_line[t]); /* SHARED */
    }
#pragma omp parallel num_threads(NTHREADS)
    {
        int t = omp_get_thread_num();
        for (int i = 0; i < N; ++i) INCREMENT(own_lines[t].v); /* PADDED */
    }
    long a = 0, b = 0;
    for (int t = 0; t < NTHREADS; ++t) {
        a += shared_line[t];
        b += own_lines[t].v;
    }
    printf("totals %ld %ld (expected %d)\n", a, b, NTHREADS * N);
    return a == NTHREADS * N && b == NTHREADS * N ? 0 : 1;
}
