/* OpenMP tasks (bench): recursive merge sort of N ints; each call above
 * CUTOFF elements sorts its halves in two tasks and waits (taskwait), then
 * merges; below it the sort is serial (insertion sort under 32 elements).
 * One thread starts the recursion (single); the team runs the tasks.
 *   omp_tasks N CUTOFF */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long cutoff = 8192;

static void merge(int* a, int* tmp, long n) {
    long h = n / 2, i = 0, j = h, k = 0;
    while (i < h && j < n) tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
    while (i < h) tmp[k++] = a[i++];
    while (j < n) tmp[k++] = a[j++];
    memcpy(a, tmp, sizeof(int) * (size_t)n);
}

static void sort_serial(int* a, int* tmp, long n) {
    if (n < 32) {
        for (long i = 1; i < n; ++i) {
            int v = a[i];
            long j = i;
            for (; j > 0 && a[j - 1] > v; --j) a[j] = a[j - 1];
            a[j] = v;
        }
        return;
    }
    sort_serial(a, tmp, n / 2);
    sort_serial(a + n / 2, tmp + n / 2, n - n / 2);
    merge(a, tmp, n);
}

static void sort_tasks(int* a, int* tmp, long n) {
    if (n < cutoff) {
        sort_serial(a, tmp, n);
        return;
    }
#pragma omp task
    sort_tasks(a, tmp, n / 2);
#pragma omp task
    sort_tasks(a + n / 2, tmp + n / 2, n - n / 2);
#pragma omp taskwait
    merge(a, tmp, n);
}

int main(int argc, char** argv) {
    long n = argc > 1 ? atol(argv[1]) : 1 << 20;
    if (argc > 2) cutoff = atol(argv[2]);
    int* a = malloc(sizeof(int) * (size_t)n);
    int* tmp = malloc(sizeof(int) * (size_t)n);
    unsigned x = 2463534242u;
    for (long i = 0; i < n; ++i) {
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        a[i] = (int)(x % 1000000u);
    }
#pragma omp parallel
#pragma omp single
    sort_tasks(a, tmp, n);
    long bad = 0;
    for (long i = 1; i < n; ++i) bad += a[i - 1] > a[i];
    printf("%d %d %ld\n", a[0], a[n - 1], bad);
    free(a); free(tmp);
    return bad != 0;
}
