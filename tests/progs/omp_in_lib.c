/* A serial program whose library (omp_sum.c, libomp_sum.so) is built with
 * -fopenmp: the OpenMP runtime comes in through the library, not the
 * program (tests/integration/wrappers.sh: the heap wrappers must be in
 * force all the same). Prints 499500. */
#include <stdio.h>

int omp_sum(int n);

int main(void) {
    printf("%d\n", omp_sum(1000));
    return 0;
}
