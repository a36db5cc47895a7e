/* calls_helper.c - second translation unit for calls.c: recursive
 * functions, a table of operation function pointers, and a function that
 * calls back into calls.c through a pointer. */
#include "calls_helper.h"

uint64_t fib(unsigned n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

/* mutual recursion across two functions */
int is_even(unsigned n)
{
    if (n == 0)
        return 1;
    return is_odd(n - 1);
}

int is_odd(unsigned n)
{
    if (n == 0)
        return 0;
    return is_even(n - 1);
}

uint64_t ackermann_small(uint64_t m, uint64_t n)
{
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ackermann_small(m - 1, 1);
    return ackermann_small(m - 1, ackermann_small(m, n - 1));
}

static uint64_t op_add(uint64_t a, uint64_t b) { return a + b; }
static uint64_t op_sub(uint64_t a, uint64_t b) { return a - b; }
static uint64_t op_mul(uint64_t a, uint64_t b) { return a * b + 1; }
static uint64_t op_xor(uint64_t a, uint64_t b) { return a ^ (b << 3); }
static uint64_t op_mix(uint64_t a, uint64_t b) { return rotmix(a, b); }

static binop_fn const ops[] = { op_add, op_sub, op_mul, op_xor, op_mix };

unsigned num_ops(void)
{
    return (unsigned)(sizeof ops / sizeof ops[0]);
}

binop_fn get_op(unsigned i)
{
    return ops[i % num_ops()];
}

uint64_t apply_all(uint64_t a, uint64_t b, uint64_t (*cb)(uint64_t))
{
    uint64_t r = a;
    for (unsigned i = 0; i < num_ops(); i++)
        r = cb(ops[i](r, b));
    return r;
}
