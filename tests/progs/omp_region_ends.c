/* The line ranges of constructs whose end thread 0 does not run
 * (tests/integration/regions_check.py ends, with OMP_NUM_THREADS=4): a
 * critical section that only threads 1 to 3 enter (libomp 14 gives their
 * releases no reliable code pointer), and a single construct that thread 0
 * reaches last (it spins first), so another thread runs its body. Either
 * range must run from the pragma ("@name-begin") to the block's last
 * statement ("@name-last") or its closing brace ("@name-end"), whichever
 * thread ran it. */
#include <omp.h>
#include <stdio.h>

static long sink[64];

__attribute__((noinline)) static long spin(long n) {
    long x = 1;
    for (long j = 0; j < n; ++j) x = x * 3 + j;
    return x;
}

int main(void) {
#pragma omp parallel num_threads(4)
    {
        int me = omp_get_thread_num();
        if (me != 0) {
#pragma omp critical /* @critical-begin */
            {
                sink[0] += spin(100);
                sink[1] += me; /* @critical-last */
            } /* @critical-end */
        } else {
            sink[8] += spin(2000000);
        }
#pragma omp single /* @single-begin */
        {
            sink[16] += spin(10);
            sink[17] += me; /* @single-last */
        } /* @single-end */
    }
    printf("%ld\n", sink[0] + sink[1] + sink[8] + sink[16] + sink[17] > 0 ? 1L : 0L);
    return 0;
}
