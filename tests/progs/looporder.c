/* The same reduction in two loop orders (built twice: -DCOLUMN_ORDER gives
 * the cache-unfriendly one). tests/integration/regression.sh uses the pair
 * as a baseline and a regression: same instructions, far more D1 misses. */
#include <stdio.h>

#include "ompsim.h"

#define N 256
static double m[N][N] __attribute__((aligned(4096)));

static double reduce(void) {
    double s = 0;
#ifdef COLUMN_ORDER
    for (int j = 0; j < N; ++j)
        for (int i = 0; i < N; ++i) s += m[i][j];
#else
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) s += m[i][j];
#endif
    return s;
}

int main(void) {
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) m[i][j] = i - j;
    OMPSIM_START_COLLECTION();
    double s = reduce();
    OMPSIM_STOP_COLLECTION();
    printf("%.1f\n", s);
    return 0;
}
