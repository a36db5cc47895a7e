/* Gallery 05, array of structures versus structure of arrays: the centre
 * of mass along x of N particles, sum(m * x) / sum(m), with the particles
 * stored two ways:
 *
 *   aos               one 64-byte struct per particle: x y z vx vy vz m q
 *   soa_x, soa_m, ... one array per field (soa_y ... are never read)
 *
 * The loop reads two of the eight fields. In the array of structures they
 * share the particle's line with six fields nobody reads: N lines are
 * fetched for 2 N loads, 1/4 of every fetched byte is used. In the
 * structure of arrays the loads of x and m are consecutive in their
 * arrays: N / 8 lines each, every fetched byte used. Same loads, a quarter
 * of the lines.
 *
 * Only the two loops are simulated (--collect-atstart=no): the caches
 * start empty, and no line is read twice, so every line misses once at
 * every level. README.md has the numbers; tests/integration/gallery_layout.py
 * checks them. */
#include <stdio.h>

#include "ompsim.h"

#define N 1024

struct particle {
    double x, y, z, vx, vy, vz, m, q; /* 8 doubles: one 64-byte line */
};

static struct particle aos[N] __attribute__((aligned(64)));
static double soa_x[N] __attribute__((aligned(64)));
static double soa_y[N] __attribute__((aligned(64)));
static double soa_z[N] __attribute__((aligned(64)));
static double soa_m[N] __attribute__((aligned(64)));

__attribute__((noinline)) static double centre_aos(void) {
    double mx = 0, m = 0;
    for (int i = 0; i < N; ++i) {
        mx += aos[i].m * aos[i].x; /* AOS */
        m += aos[i].m;
    }
    return mx / m;
}

__attribute__((noinline)) static double centre_soa(void) {
    double mx = 0, m = 0;
    for (int i = 0; i < N; ++i) {
        mx += soa_m[i] * soa_x[i]; /* SOA */
        m += soa_m[i];
    }
    return mx / m;
}

int main(void) {
    for (int i = 0; i < N; ++i) {
        aos[i].x = soa_x[i] = i;
        aos[i].y = soa_y[i] = 2 * i;
        aos[i].z = soa_z[i] = 3 * i;
        aos[i].m = soa_m[i] = 1 + i % 3;
    }
    OMPSIM_START_COLLECTION();
    double ca = centre_aos();
    double cs = centre_soa();
    OMPSIM_STOP_COLLECTION();
    printf("centre %.4f %.4f\n", ca, cs);
    return ca == cs ? 0 : 1;
}
