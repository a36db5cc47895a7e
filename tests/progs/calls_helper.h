/* calls_helper.h - shared declarations for calls.c / calls_helper.c.
 * The static inline function below is inlined into callers in BOTH .c files,
 * so its cost is attributed to fl=calls_helper.h under the callers' fn=. */
#ifndef CALLS_HELPER_H
#define CALLS_HELPER_H

#include <stdint.h>

typedef uint64_t (*binop_fn)(uint64_t, uint64_t);

static inline uint64_t rotmix(uint64_t h, uint64_t v)
{
    h ^= v;
    h = (h << 13) | (h >> 51);
    return h * 0x9E3779B97F4A7C15ULL;
}

uint64_t fib(unsigned n);
int is_even(unsigned n);
int is_odd(unsigned n);
uint64_t ackermann_small(uint64_t m, uint64_t n);
binop_fn get_op(unsigned i);
uint64_t apply_all(uint64_t a, uint64_t b, uint64_t (*cb)(uint64_t));
unsigned num_ops(void);

#endif
