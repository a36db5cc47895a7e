/* The OpenMP library of omp_in_lib.c: the sum of 0 .. n-1 by a parallel
 * reduction. */
int omp_sum(int n) {
    int s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < n; ++i) s += i;
    return s;
}
