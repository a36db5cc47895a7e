/* The ompP paper's Figure 1 (Fürlinger and Moore, IJPP 2009): the same
 * gprof profile, two control flows. Version A calls foo and bar in one
 * loop; version B (-DVERSION_B) calls foo 20 times, then bar 20 times.
 * Built with -finstrument-functions: the functions are FUNCTION regions.
 * Expected (tests/integration/regions_check.py): A: foo (main:1, bar:19),
 * bar (foo:20); B: foo (main:1, foo:19), bar (foo:1, bar:19). */
#include <stdio.h>

volatile int sink;

__attribute__((noinline)) void foo(void) { sink += 1; }
__attribute__((noinline)) void bar(void) { sink += 2; }

int main(void) {
    int i;
#ifndef VERSION_B
    for (i = 0; i < 20; i++) {
        foo();
        bar();
    }
#else
    for (i = 0; i < 20; i++) foo();
    for (i = 0; i < 20; i++) bar();
#endif
    printf("%d\n", sink);
    return 0;
}
