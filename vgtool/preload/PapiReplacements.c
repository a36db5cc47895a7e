/* Part of vgpreload_ompsim-amd64-linux.so: simulated PAPI for unmodified
 * programs. A program linked with -lpapi and run under ompsim calls these
 * instead of libpapi's functions (Valgrind redirects every PAPI_* below in
 * any object whose soname matches libpapi.so*), and reads the simulator's
 * counts for the preset events of include/epapi.h. PAPI functions not
 * replaced here (timers, hardware info, the high-level API) stay libpapi's.
 *
 * Under another tool (Cachegrind, for parity runs) the probe fails and each
 * replacement calls the real function, so the program behaves as natively. */
#include <papi.h>
#include <stddef.h>

#include "SimEventSets.h"
#include "epapi.h"
#include "ompsim.h"

#define PAPI_SONAME libpapiZdsoZa

/* The first PAPI call asks whether it runs under ompsim (sim_init), and
 * registers this object's unsimulated section: only that first call's own
 * instructions are simulated, long before any event set starts. No
 * constructor does it at load time: it would run different code under
 * Cachegrind and break the parity runs, which preload this library too. */
/* A replacement of `int PAPI_<fn>(params)` that calls the simulated event
 * sets under ompsim and the original function elsewhere. */
#define REPLACE(ret, fn, params, args, sim_call)                                    \
    ret I_REPLACE_SONAME_FNNAME_ZU(PAPI_SONAME, fn) params OMPSIM_UNSIMULATED;          \
    ret I_REPLACE_SONAME_FNNAME_ZU(PAPI_SONAME, fn) params {                            \
        if (sim_active() || sim_init()) return sim_call;                                          \
        OrigFn orig;                                                                \
        VALGRIND_GET_ORIG_FN(orig);                                                 \
        return call_##fn args;                                                      \
    }

/* PAPI_state's flags. */
static int sim_papi_state(int es, int* status) OMPSIM_UNSIMULATED;
static int sim_papi_state(int es, int* status) {
    int running = 0;
    int rc = sim_state(es, &running);
    if (rc == EPAPI_OK && status) *status = running ? PAPI_RUNNING : PAPI_STOPPED;
    return rc;
}

static int sim_add_named(int es, const char* name) OMPSIM_UNSIMULATED;
static int sim_add_named(int es, const char* name) {
    int code = 0;
    int rc = sim_name_to_code(name, &code);
    return rc == EPAPI_OK ? sim_add_event(es, code) : rc;
}

/* Calls of the original with 1..3 word arguments. */
static long call1(OrigFn f, long a) OMPSIM_UNSIMULATED;
static long call1(OrigFn f, long a) {
    long r;
    CALL_FN_W_W(r, f, a);
    return r;
}
static long call2(OrigFn f, long a, long b) OMPSIM_UNSIMULATED;
static long call2(OrigFn f, long a, long b) {
    long r;
    CALL_FN_W_WW(r, f, a, b);
    return r;
}
static long call3(OrigFn f, long a, long b, long c) OMPSIM_UNSIMULATED;
static long call3(OrigFn f, long a, long b, long c) {
    long r;
    CALL_FN_W_WWW(r, f, a, b, c);
    return r;
}

#define call_PAPI_library_init(o, v) (int)call1(o, v)
REPLACE(int, PAPI_library_init, (int version), (orig, version),
        (version & 0xffff0000) == version ? version : EPAPI_EINVAL)

static int call_PAPI_is_initialized(OrigFn o) OMPSIM_UNSIMULATED;
static int call_PAPI_is_initialized(OrigFn o) {
    long r;
    CALL_FN_W_v(r, o);
    return (int)r;
}
REPLACE(int, PAPI_is_initialized, (void), (orig), PAPI_LOW_LEVEL_INITED)

#define call_PAPI_create_eventset(o, es) (int)call1(o, (long)(es))
REPLACE(int, PAPI_create_eventset, (int* es), (orig, es), sim_create_eventset(es))
#define call_PAPI_add_event(o, es, c) (int)call2(o, es, c)
REPLACE(int, PAPI_add_event, (int es, int code), (orig, es, code), sim_add_event(es, code))
#define call_PAPI_remove_event(o, es, c) (int)call2(o, es, c)
REPLACE(int, PAPI_remove_event, (int es, int code), (orig, es, code), sim_remove_event(es, code))
#define call_PAPI_num_events(o, es) (int)call1(o, es)
REPLACE(int, PAPI_num_events, (int es), (orig, es), sim_num_events(es))
#define call_PAPI_query_event(o, c) (int)call1(o, c)
REPLACE(int, PAPI_query_event, (int code), (orig, code), sim_query_event(code))
#define call_PAPI_start(o, es) (int)call1(o, es)
REPLACE(int, PAPI_start, (int es), (orig, es), sim_start(es))
#define call_PAPI_stop(o, es, v) (int)call2(o, es, (long)(v))
REPLACE(int, PAPI_stop, (int es, long long* v), (orig, es, v), sim_stop(es, v))
#define call_PAPI_read(o, es, v) (int)call2(o, es, (long)(v))
REPLACE(int, PAPI_read, (int es, long long* v), (orig, es, v), sim_read(es, v))
#define call_PAPI_accum(o, es, v) (int)call2(o, es, (long)(v))
REPLACE(int, PAPI_accum, (int es, long long* v), (orig, es, v), sim_accum(es, v))
#define call_PAPI_reset(o, es) (int)call1(o, es)
REPLACE(int, PAPI_reset, (int es), (orig, es), sim_reset(es))
#define call_PAPI_state(o, es, s) (int)call2(o, es, (long)(s))
REPLACE(int, PAPI_state, (int es, int* status), (orig, es, status), sim_papi_state(es, status))
#define call_PAPI_cleanup_eventset(o, es) (int)call1(o, es)
REPLACE(int, PAPI_cleanup_eventset, (int es), (orig, es), sim_cleanup_eventset(es))
#define call_PAPI_destroy_eventset(o, es) (int)call1(o, (long)(es))
REPLACE(int, PAPI_destroy_eventset, (int* es), (orig, es), sim_destroy_eventset(es))
#define call_PAPI_list_events(o, es, c, n) (int)call3(o, es, (long)(c), (long)(n))
REPLACE(int, PAPI_list_events, (int es, int* codes, int* n), (orig, es, codes, n), sim_list_events(es, codes, n))
#define call_PAPI_event_name_to_code(o, n, c) (int)call2(o, (long)(n), (long)(c))
REPLACE(int, PAPI_event_name_to_code, (const char* name, int* code), (orig, name, code),
        sim_name_to_code(name, code))
#define call_PAPI_event_code_to_name(o, c, n) (int)call2(o, c, (long)(n))
REPLACE(int, PAPI_event_code_to_name, (int code, char* name), (orig, code, name),
        sim_code_to_name(code, name, EPAPI_MAX_STR_LEN))
#define call_PAPI_add_named_event(o, es, n) (int)call2(o, es, (long)(n))
REPLACE(int, PAPI_add_named_event, (int es, const char* name), (orig, es, name), sim_add_named(es, name))
#define call_PAPI_thread_init(o, f) (int)call1(o, (long)(f))
REPLACE(int, PAPI_thread_init, (unsigned long (*f)(void)), (orig, f), EPAPI_OK)
#define call_PAPI_strerror(o, c) (char*)call1(o, c)
REPLACE(char*, PAPI_strerror, (int code), (orig, code), (char*)sim_strerror(code))
