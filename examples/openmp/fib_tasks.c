/* Tasks and taskwait: recursive Fibonacci. Each call above the cutoff
 * creates two child tasks and waits for both (taskwait); below it the
 * recursion is serial, so the task count stays small: fib(16) makes 12
 * calls with n >= CUTOFF, hence 24 tasks. One thread starts the recursion
 * (single); the team runs the tasks. */
#include <stdio.h>

#define CUTOFF 12

static long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

static long fib(int n) {
    if (n < CUTOFF) return fib_serial(n);
    long a, b;
#pragma omp task shared(a)
    a = fib(n - 1);
#pragma omp task shared(b)
    b = fib(n - 2);
#pragma omp taskwait
    return a + b;
}

int main(void) {
    long r = 0;
#pragma omp parallel
#pragma omp single
    r = fib(16);
    printf("fib(16) = %ld (expected 987)\n", r);
    return r == 987 ? 0 : 1;
}
