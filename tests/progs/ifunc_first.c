/* The first call of memrchr, an IFUNC of the C library, is made inside a
 * parallel region: whichever thread gets there first makes the dynamic
 * linker bind the program's PLT slot, which runs memrchr's IFUNC resolver
 * (tests/integration/omp_ifunc.sh). */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>
#include <string.h>

static char buf[4][256];

int main(void) {
    long found = 0;
#pragma omp parallel num_threads(4) reduction(+ : found)
    {
        int t = omp_get_thread_num();
        memset(buf[t], 'a', sizeof buf[t]);
        buf[t][t * 7] = 'b';
        found += (char*)memrchr(buf[t], 'b', sizeof buf[t]) - buf[t];
    }
    printf("%ld\n", found);
    return found != 42;
}
