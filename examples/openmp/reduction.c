/* reduction(+:sum): every thread adds into a private copy, and the copies
 * are combined once at the end of the loop. No thread ever writes the
 * shared sum inside the loop, so there is no contention and no false
 * sharing; compare critical.c and atomic.c, which update one shared
 * variable on every iteration. */
#include <stdio.h>

#define N 20000

int main(void) {
    long sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (long i = 1; i <= N; ++i) sum += i;
    printf("sum %ld (expected %ld)\n", sum, (long)N * (N + 1) / 2);
    return sum == (long)N * (N + 1) / 2 ? 0 : 1;
}
