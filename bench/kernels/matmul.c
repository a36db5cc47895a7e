/* Naive ijk matrix multiply of N x N doubles (bench). */
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char** argv) {
    int n = argc > 1 ? atoi(argv[1]) : 200;
    double *a = malloc(sizeof(double) * n * n), *b = malloc(sizeof(double) * n * n),
           *c = malloc(sizeof(double) * n * n);
    for (int i = 0; i < n * n; ++i) { a[i] = (i % 7) * 0.5; b[i] = (i % 5) * 0.25; c[i] = 0; }
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            double s = 0;
            for (int k = 0; k < n; ++k) s += a[i * n + k] * b[k * n + j];
            c[i * n + j] = s;
        }
    printf("%.3f\n", c[(n / 2) * n + n / 3]);
    free(a); free(b); free(c);
    return 0;
}
