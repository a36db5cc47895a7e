/* Nested locks (omp_nest_lock_t): a thread that holds the lock may take it
 * again. add_pair() takes the lock and calls add_one() twice, which takes
 * it again; only the outermost set/unset really acquire and release it (the
 * inner ones are MUTEX_ACQUIRED / RELEASED events with a5 = 1). */
#include <omp.h>
#include <stdio.h>

#define N 400

static omp_nest_lock_t lock;
static long counter;

static void add_one(void) {
    omp_set_nest_lock(&lock);
    counter += 1;
    omp_unset_nest_lock(&lock);
}

static void add_pair(void) {
    omp_set_nest_lock(&lock);
    add_one();
    add_one();
    omp_unset_nest_lock(&lock);
}

int main(void) {
    omp_init_nest_lock(&lock);
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; ++i) add_pair();
    omp_destroy_nest_lock(&lock);
    printf("counter %ld (expected %d)\n", counter, 2 * N);
    return counter == 2 * N ? 0 : 1;
}
