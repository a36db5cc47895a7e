/* False sharing: thread t increments counters[t], N times. The threads
 * never touch each other's counter, yet without padding all the counters
 * sit in one 64-byte cache line, so every increment (one load and one
 * store, see INCREMENT) needs the line that another core has just written.
 * Built twice:
 *   false_sharing         long counters[NTHREADS]: 8 counters per line
 *   false_sharing_padded  -DPADDED: each counter alone on its 64-byte line
 * Loop structure: one parallel region of NTHREADS threads; thread t runs
 *   for (i = 0; i < N; ++i) counters[t] = counters[t] + 1;   (INCREMENT)
 * The results are the same; on a simulated machine with coherent per-core
 * caches the unpadded version misses on nearly every store. The region
 * asks for NTHREADS threads; if the runtime gives fewer, the missing
 * counters stay 0 and the program says so. */
#include <omp.h>
#include <stdio.h>

#define NTHREADS 4
#define N 20000

#ifdef PADDED
struct Counter {
    volatile long value;
    char pad[64 - sizeof(long)];
};
static struct Counter counters[NTHREADS] __attribute__((aligned(64)));
#define COUNTER(t) counters[t].value
#else
static volatile long counters[NTHREADS] __attribute__((aligned(64)));
#define COUNTER(t) counters[t]
#endif

/* One load and one store per increment. The counters are volatile, so
 * every increment reaches memory; the empty asm keeps the compiler from
 * fusing the two into one read-modify-write instruction (add $1, mem). */
#define INCREMENT(x)                  \
    do {                              \
        long v_ = (x);                \
        __asm__ volatile("" : "+r"(v_)); \
        (x) = v_ + 1;                 \
    } while (0)

int main(void) {
#pragma omp parallel num_threads(NTHREADS)
    {
        int t = omp_get_thread_num();
        for (int i = 0; i < N; ++i) INCREMENT(COUNTER(t));
    }
    long total = 0;
    for (int t = 0; t < NTHREADS; ++t) total += COUNTER(t);
    printf("total %ld (expected %d)\n", total, NTHREADS * N);
    return total == (long)NTHREADS * N ? 0 : 1;
}
