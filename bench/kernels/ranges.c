/* N monitored structures (bench --scaling): one 16 MiB heap buffer cut into
 * N ranges, each named with OMPSIM_NAME_RANGE ("r0", "r1", ...), swept
 * ROUNDS times; the work does not depend on N. Without --monitor=yes (and
 * under other tools) the requests cost a few no-op instructions.
 *   ranges N ROUNDS */
#include <stdio.h>
#include <stdlib.h>

#include "ompsim.h"

int main(int argc, char** argv) {
    long n = argc > 1 ? atol(argv[1]) : 100;
    int rounds = argc > 2 ? atoi(argv[2]) : 10;
    long total = 2L << 20;  /* doubles: 16 MiB */
    long per = total / n;
    double* buf = malloc(sizeof(double) * (size_t)total);
    static char names[100000][8];
    for (long r = 0; r < n && r < 100000; ++r) {
        snprintf(names[r], sizeof names[r], "r%ld", r);
        OMPSIM_NAME_RANGE(buf + r * per, sizeof(double) * (size_t)per, names[r]);
    }
    for (long i = 0; i < total; ++i) buf[i] = (double)(i % 13);
    double s = 0;
    for (int k = 0; k < rounds; ++k)
        for (long i = 0; i < total; i += 2) { s += buf[i]; buf[i + 1] = s * 0.5; }
    printf("%.1f\n", s);
    free(buf);
    return 0;
}
