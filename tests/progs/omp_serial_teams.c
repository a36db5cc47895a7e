/* Parallel regions of one thread inside a program of several, for
 * tests/integration/replay_thread.sh: a first region with the whole team
 * fills two vectors, then every sweep runs an axpy in a region of
 * num_threads(1) (every other one also if(0)). A team of one forks, and
 * its thread 0 runs on in the same turn while the other threads sit idle.
 *   omp_serial_teams [N [SWEEPS]] */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
    long n = argc > 1 ? atol(argv[1]) : 1L << 16;
    int sweeps = argc > 2 ? atoi(argv[2]) : 40;
    double* x = malloc(sizeof(double) * n);
    double* y = malloc(sizeof(double) * n);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i) {
        x[i] = (double)(i % 13);
        y[i] = 1.0;
    }
    for (int s = 0; s < sweeps; ++s) {
#pragma omp parallel for num_threads(1) if (s % 2 == 0)
        for (long i = 0; i < n; ++i) y[i] = 0.5 * y[i] + x[i];
    }
    printf("%.6f\n", y[n / 3]);
    free(x);
    free(y);
    return 0;
}
