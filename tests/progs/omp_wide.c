/* One parallel region with as many threads as OMP_NUM_THREADS asks (300 in
 * tests/integration/clients.sh: more than the 256 the OSPG follows), each
 * thread adding its own number into its own slot of an array; prints the
 * team size and the sum 0 + 1 + ... + (n - 1). */
#include <omp.h>
#include <stdio.h>

#define MAX 1024

static long slot[MAX];

int main(void) {
    int team = 0;
#pragma omp parallel
    {
        int me = omp_get_thread_num();
        if (me < MAX) slot[me] = me;
#pragma omp single
        team = omp_get_num_threads();
    }
    long sum = 0;
    for (int i = 0; i < MAX; ++i) sum += slot[i];
    printf("team %d sum %ld\n", team, sum);
    return sum == (long)team * (team - 1) / 2 ? 0 : 1;
}
