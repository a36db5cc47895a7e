/* OpenMP parallel-for 2D 5-point Jacobi stencil, N x N doubles, STEPS
 * sweeps, schedule(static) rows (bench). Threads from OMP_NUM_THREADS.
 *   omp_loop N STEPS */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
    int n = argc > 1 ? atoi(argv[1]) : 512, steps = argc > 2 ? atoi(argv[2]) : 20;
    double* a = malloc(sizeof(double) * n * n);
    double* b = malloc(sizeof(double) * n * n);
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n * n; ++i) a[i] = b[i] = (i % 17) * 0.25;
    for (int s = 0; s < steps; ++s) {
#pragma omp parallel for schedule(static)
        for (int i = 1; i < n - 1; ++i)
            for (int j = 1; j < n - 1; ++j)
                b[i * n + j] = 0.2 * (a[i * n + j] + a[(i - 1) * n + j] + a[(i + 1) * n + j] +
                                      a[i * n + j - 1] + a[i * n + j + 1]);
        double* t = a; a = b; b = t;
    }
    printf("%.6f\n", a[(n / 2) * n + n / 3]);
    free(a); free(b);
    return 0;
}
