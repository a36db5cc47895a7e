/* Parallel regions of one thread inside a program of several: a first
 * region with the whole team, then N-point stencil sweeps, each in a
 * region of num_threads(1) (and every other one also if(0)), for
 * tests/integration/replay_thread.sh. A team of one forks, and its thread
 * 0 runs on in the same turn while the other threads sit idle.
 *   omp_serial_teams [N [SWEEPS]] */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
    int n = argc > 1 ? atoi(argv[1]) : 256, sweeps = argc > 2 ? atoi(argv[2]) : 20;
    double* a = malloc(sizeof(double) * n * n);
    double* b = malloc(sizeof(double) * n * n);
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n * n; ++i) a[i] = b[i] = (i % 7) * 0.5;
    for (int s = 0; s < sweeps; ++s) {
#pragma omp parallel for num_threads(1) if (s % 2 == 0)
        for (int i = 1; i < n - 1; ++i)
            for (int j = 1; j < n - 1; ++j)
                b[i * n + j] = 0.2 * (a[i * n + j] + a[(i - 1) * n + j] + a[(i + 1) * n + j] +
                                      a[i * n + j - 1] + a[i * n + j + 1]);
        double* t = a;
        a = b;
        b = t;
    }
    printf("%.6f\n", a[(n / 2) * n + n / 3]);
    free(a);
    free(b);
    return 0;
}
