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
static volatile long sink;

/* foo and bar each read every int of item i once. */
__attribute__((noinline)) void foo(int i) {
    long s = 0;
    for (int k = 0; k < ITEM_INTS; ++k) s += items[i][k]; /* FOO */
    sink += s;
}

__attribute__((noinline)) void bar(int i) {
    int m = 0;
    for (int k = 0; k < ITEM_INTS; ++k) m = items[i][k] > m ? items[i][k] : m; /* BAR */
    sink += m;
}

int main(int argc, char** argv) {
    int b = argc > 1 && strcmp(argv[1], "b") == 0;
    if (argc != 2 || (!b && strcmp(argv[1], "a") != 0)) {
        fprintf(stderr, "usage: control_flow a|b\n");
        return 2;
    }
    int i;
    if (!b) {
        for (i = 0; i < NITEMS; i++) { /* VERSION A */
            foo(i);
            bar(i);
        }
    } else {
        for (i = 0; i < NITEMS; i++) foo(i); /* VERSION B */
        for (i = 0; i < NITEMS; i++) bar(i);
    }
    printf("%ld\n", (long)sink);
    return 0;
}
