/* User regions (OMPSIM_REGION_BEGIN/END) in a serial program: "outer" runs
 * 3 times, each time "inner" twice; an END whose region never began is
 * ignored with a warning. Expected (tests/integration/regions_check.py
 * user): outer (root:1, outer:2), inner (outer:3, inner:3), execC 3 and 6;
 * stderr names the stray END. */
#include <stdio.h>

#include "ompsim.h"

volatile long sink;

int main(void) {
    for (int i = 0; i < 3; ++i) {
        OMPSIM_REGION_BEGIN("outer");
        for (int j = 0; j < 2; ++j) {
            OMPSIM_REGION_BEGIN("inner");
            sink += i * j;
            OMPSIM_REGION_END("inner");
        }
        OMPSIM_REGION_END("outer");
    }
    OMPSIM_REGION_END("never begun");
    printf("%ld\n", sink);
    return 0;
}
