/* Gallery 08, the control-flow example of ompP (Fürlinger and Moore,
 * "Capturing and Analyzing the Execution Control Flow of OpenMP
 * Applications", IJPP 2009, Figure 1): two programs with the same profile
 * (foo and bar each called 20 times from main, each doing the same work)
 * and different control flows:
 *
 *   control_flow a   for (i = 0; i < 20; i++) { foo(i); bar(i); }
 *   control_flow b   for (i = 0; i < 20; i++) foo(i);
 *                    for (i = 0; i < 20; i++) bar(i);
 *
 * A call-graph profile (gprof, or ompP's call graph) cannot tell them
 * apart; the control-flow graph (which region followed which, how often)
 * can. And, as the paper remarks, when foo and bar work on the same data,
 * version a keeps that data in the cache and version b does not: here
 * foo(i) and bar(i) both read item i of `items` (20 items of 512 B, 10 KiB
 * in all, more than the 4 KiB D1 of the teaching machine).
 *
 * Built with gcc -finstrument-functions: foo and bar are FUNCTION regions.
 * README.md has the flow graphs and the misses;
 * tests/integration/gallery_control_flow.py checks them. */
#include <stdio.h>
#include <string.h>

#define NITEMS 20
#define ITEM_INTS 128 /* 512 B: 8 lines of 64 B */

/* Not static: the compiler must not assume the never-written items are
 * all zero and drop the loads. */
int items[NITEMS][ITEM_INTS] __attribute__((aligned(64)));

/* foo and bar each read every int of item i once. They return their result
 * rather than add it to a global: between foo(i) and bar(i) only stack
 * lines may be touched. A global's line shares a D1 set with one stack line
 * for some sizes of the environment (the stack's place), and the two then
 * evict the items of that set: 5 more misses in bar, seen on one machine. */
__attribute__((noinline)) long foo(int i) {
    long s = 0;
    for (int k = 0; k < ITEM_INTS; ++k) s += items[i][k]; /* FOO */
    return s;
}

__attribute__((noinline)) long bar(int i) {
    int m = 0;
    for (int k = 0; k < ITEM_INTS; ++k) m = items[i][k] > m ? items[i][k] : m; /* BAR */
    return m;
}

int main(int argc, char** argv) {
    int b = argc > 1 && strcmp(argv[1], "b") == 0;
    if (argc != 2 || (!b && strcmp(argv[1], "a") != 0)) {
        fprintf(stderr, "usage: control_flow a|b\n");
        return 2;
    }
    int i;
    long sum = 0;
    if (!b) {
        for (i = 0; i < NITEMS; i++) { /* VERSION A */
            sum += foo(i);
            sum += bar(i);
        }
    } else {
        for (i = 0; i < NITEMS; i++) sum += foo(i); /* VERSION B */
        for (i = 0; i < NITEMS; i++) sum += bar(i);
    }
    printf("%ld\n", sum);
    return 0;
}
