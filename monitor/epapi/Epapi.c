/* libepapi: EPAPI_* (include/epapi.h). Under ompsim every call goes to the
 * simulated event sets; natively, to PAPI. The choice is made once, in
 * EPAPI_library_init. Every function sits in the unsimulated section, so
 * under ompsim a call costs the program nothing it would see in its counts
 * (SimEventSets.h). */
#include "epapi.h"

#include <papi.h>
#include <string.h>

#include "SimEventSets.h"

static int initialized;
static int simulated;

/* PAPI's codes are ePAPI's (epapi.h promises it); checked at compile time. */
_Static_assert(PAPI_L1_DCM == EPAPI_L1_DCM && PAPI_TOT_CYC == EPAPI_TOT_CYC && PAPI_L3_TCA == EPAPI_L3_TCA,
               "ePAPI event codes must equal PAPI's");
_Static_assert(PAPI_ENOEVNT == EPAPI_ENOEVNT && PAPI_ENOINIT == EPAPI_ENOINIT && PAPI_NULL == EPAPI_NULL,
               "ePAPI error codes must equal PAPI's");

OMPSIM_UNSIMULATED int EPAPI_library_init(int version) {
    if ((version & 0xffff0000) != (EPAPI_VER_CURRENT & 0xffff0000)) return EPAPI_EINVAL;
    if (initialized) return EPAPI_VER_CURRENT;
    if (sim_init()) {
        simulated = 1;
    } else {
        int rc = PAPI_library_init(PAPI_VER_CURRENT);
        if (rc != PAPI_VER_CURRENT) return rc < 0 ? rc : EPAPI_ESYS;
        simulated = 0;
    }
    initialized = 1;
    return EPAPI_VER_CURRENT;
}

OMPSIM_UNSIMULATED int EPAPI_is_initialized(void) { return initialized; }
OMPSIM_UNSIMULATED int EPAPI_is_simulated(void) { return initialized && simulated; }

OMPSIM_UNSIMULATED void EPAPI_shutdown(void) {
    if (!initialized) return;
    if (simulated)
        sim_shutdown();
    else
        PAPI_shutdown();
    initialized = 0;
}

#define DISPATCH(sim_call, papi_call)        \
    do {                                     \
        if (!initialized) return EPAPI_ENOINIT; \
        return simulated ? (sim_call) : (papi_call); \
    } while (0)

OMPSIM_UNSIMULATED int EPAPI_create_eventset(int* es) {
    DISPATCH(sim_create_eventset(es), PAPI_create_eventset(es));
}
/* PAPI says "component disabled" (no counters in a VM, perf_event_paranoid)
 * or "no such event" for what this machine cannot count: one answer here. */
static int native_add(int es, int code) OMPSIM_UNSIMULATED;
static int native_add(int es, int code) {
    int rc = PAPI_add_event(es, code);
    return rc == PAPI_ECMP || rc == PAPI_ENOCMP || rc == PAPI_ECMP_DISABLED ? EPAPI_ENOEVNT : rc;
}

OMPSIM_UNSIMULATED int EPAPI_add_event(int es, int code) { DISPATCH(sim_add_event(es, code), native_add(es, code)); }

OMPSIM_UNSIMULATED int EPAPI_add_named_event(int es, const char* name) {
    int code = 0;
    int rc = EPAPI_event_name_to_code(name, &code);
    return rc == EPAPI_OK ? EPAPI_add_event(es, code) : rc;
}

OMPSIM_UNSIMULATED int EPAPI_remove_event(int es, int code) {
    DISPATCH(sim_remove_event(es, code), PAPI_remove_event(es, code));
}
OMPSIM_UNSIMULATED int EPAPI_num_events(int es) { DISPATCH(sim_num_events(es), PAPI_num_events(es)); }
OMPSIM_UNSIMULATED int EPAPI_query_event(int code) { DISPATCH(sim_query_event(code), PAPI_query_event(code)); }

/* Names come from ePAPI's own table in both modes: the same spelling is
 * accepted with or without PAPI underneath. */
OMPSIM_UNSIMULATED int EPAPI_event_name_to_code(const char* name, int* code) {
    return sim_name_to_code(name, code);
}
OMPSIM_UNSIMULATED int EPAPI_event_code_to_name(int code, char* out) {
    return sim_code_to_name(code, out, EPAPI_MAX_STR_LEN);
}

OMPSIM_UNSIMULATED int EPAPI_start(int es) { DISPATCH(sim_start(es), PAPI_start(es)); }
OMPSIM_UNSIMULATED int EPAPI_stop(int es, long long* v) { DISPATCH(sim_stop(es, v), PAPI_stop(es, v)); }
OMPSIM_UNSIMULATED int EPAPI_read(int es, long long* v) { DISPATCH(sim_read(es, v), PAPI_read(es, v)); }
OMPSIM_UNSIMULATED int EPAPI_accum(int es, long long* v) { DISPATCH(sim_accum(es, v), PAPI_accum(es, v)); }
OMPSIM_UNSIMULATED int EPAPI_reset(int es) { DISPATCH(sim_reset(es), PAPI_reset(es)); }
OMPSIM_UNSIMULATED int EPAPI_cleanup_eventset(int es) {
    DISPATCH(sim_cleanup_eventset(es), PAPI_cleanup_eventset(es));
}
OMPSIM_UNSIMULATED int EPAPI_destroy_eventset(int* es) {
    DISPATCH(sim_destroy_eventset(es), PAPI_destroy_eventset(es));
}

OMPSIM_UNSIMULATED const char* EPAPI_strerror(int code) {
    const char* s = sim_strerror(code);
    /* Codes only PAPI returns (natively) get PAPI's text. */
    if (initialized && !simulated && s[0] == 'U') {
        const char* p = PAPI_strerror(code);
        if (p) return p;
    }
    return s;
}

/* The extensions exist only in the simulator: no PAPI component counts an
 * address range or keeps a histogram. */
OMPSIM_UNSIMULATED int EPAPI_set_range(int es, const void* addr, size_t len) {
    DISPATCH(sim_set_range(es, addr, len), EPAPI_ENOSUPP);
}
OMPSIM_UNSIMULATED int EPAPI_set_histogram(int es, unsigned lines, unsigned bins) {
    DISPATCH(sim_set_histogram(es, lines, bins), EPAPI_ENOSUPP);
}
OMPSIM_UNSIMULATED int EPAPI_histogram_size(int es) { DISPATCH(sim_histogram_size(es), EPAPI_ENOSUPP); }
OMPSIM_UNSIMULATED int EPAPI_read_histogram(int es, int code, long long* buckets, int n) {
    DISPATCH(sim_read_histogram(es, code, buckets, n), EPAPI_ENOSUPP);
}
