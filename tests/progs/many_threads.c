/* 200 POSIX threads alive at the same time (tests/integration/clients.sh):
 * each sums its own 1 KiB slice of a shared array after all have started
 * (a barrier), then main joins them and checks the total. */
#include <pthread.h>
#include <stdio.h>

#define THREADS 200
#define SLICE 128 /* longs: 1 KiB */

static long values[THREADS * SLICE];
static long sums[THREADS];
static pthread_barrier_t all_started;

static void* work(void* arg) {
    long id = (long)arg;
    pthread_barrier_wait(&all_started);
    long s = 0;
    for (int i = 0; i < SLICE; ++i) s += values[id * SLICE + i];
    sums[id] = s;
    return NULL;
}

int main(void) {
    for (long i = 0; i < THREADS * SLICE; ++i) values[i] = i;
    pthread_t t[THREADS];
    pthread_barrier_init(&all_started, NULL, THREADS);
    for (long i = 0; i < THREADS; ++i)
        if (pthread_create(&t[i], NULL, work, (void*)i) != 0) return 2;
    long total = 0;
    for (int i = 0; i < THREADS; ++i) {
        pthread_join(t[i], NULL);
        total += sums[i];
    }
    long n = (long)THREADS * SLICE;
    printf("total %ld (expected %ld)\n", total, n * (n - 1) / 2);
    return total == n * (n - 1) / 2 ? 0 : 1;
}
