/* An unmodified PAPI program: PAPI_start, a kernel that reads a 1 MiB
 * global array once, PAPI_stop. Under ompsim the preload library answers
 * the PAPI calls from the simulator (tests/integration/papi.sh).
 * Built with -fno-plt -Wl,-z,now so that no lazy-binding resolver runs
 * inside the measured interval: the PAPI_stop call is then one line of
 * main, whose costs the document shows. */
#include <papi.h>
#include <stdio.h>

#define N (1 << 17) /* 131072 doubles = 1 MiB */
double a[N];

__attribute__((noinline)) double kernel(void) {
    double s = 0;
    for (int i = 0; i < N; ++i) s += a[i]; /* SWEEP */
    return s;
}

int main(void) {
    int es = PAPI_NULL;
    long long v[5];
    int rc = PAPI_library_init(PAPI_VER_CURRENT);
    if (rc != PAPI_VER_CURRENT) {
        printf("PAPI_library_init: %s\n", PAPI_strerror(rc));
        return 1;
    }
    if ((rc = PAPI_create_eventset(&es)) != PAPI_OK) {
        printf("PAPI_create_eventset: %s\n", PAPI_strerror(rc));
        return 1;
    }
    const int events[5] = {PAPI_L1_DCM, PAPI_L1_LDM, PAPI_L1_STM, PAPI_LD_INS, PAPI_SR_INS};
    for (int i = 0; i < 5; ++i) {
        if ((rc = PAPI_add_event(es, events[i])) != PAPI_OK) {
            printf("PAPI_add_event: %s\n", PAPI_strerror(rc));
            return 2; /* natively: the machine has no such counter */
        }
    }
    PAPI_start(es);
    double s = kernel(); /* INTERVAL */
    PAPI_stop(es, v);    /* INTERVAL */
    printf("sum=%g\n", s);
    printf("PAPI_L1_DCM=%lld PAPI_L1_LDM=%lld PAPI_L1_STM=%lld PAPI_LD_INS=%lld PAPI_SR_INS=%lld\n", v[0], v[1],
           v[2], v[3], v[4]);
    return 0;
}
