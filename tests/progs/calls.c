/* calls.c - function-call heavy program spread over two source files
 * (calls.c + calls_helper.c, plus an inline function from calls_helper.h):
 * recursion (fib(20), mutual recursion, small Ackermann), calls through
 * function pointers in both directions, and a noinline local helper, so
 * per-file / per-function / per-line cost attribution is exercised.
 * Build: gcc -O2 -gdwarf-4 calls.c calls_helper.c
 * Deterministic; prints one checksum line. */
#include <stdio.h>
#include "calls_helper.h"

static uint64_t (*volatile fib_ptr)(unsigned) = fib;

__attribute__((noinline)) static uint64_t square_plus(uint64_t x)
{
    return x * x + 7;
}

static uint64_t callback(uint64_t x)
{
    return rotmix(x, 0x1234) >> 1;
}

int main(void)
{
    uint64_t h = 0;

    h = rotmix(h, fib(20));
    h = rotmix(h, fib_ptr(18));

    for (unsigned i = 0; i < 300; i++)
        h = rotmix(h, (uint64_t)is_even(i * 7) * 3 + (uint64_t)is_odd(i));

    h = rotmix(h, ackermann_small(2, 40));

    for (unsigned i = 0; i < 2000; i++) {
        binop_fn f = get_op(i);
        h = f(h, i);
        if ((i & 63) == 0)
            h = rotmix(h, apply_all(h, i, callback));
        h = square_plus(h);
    }
    printf("calls checksum %016llx\n", (unsigned long long)h);
    return 0;
}
