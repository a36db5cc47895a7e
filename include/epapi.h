/* epapi.h: ePAPI, a PAPI-style counter interface extended with address
 * ranges and histograms (the EP-Cache monitor's interface), link -lepapi.
 *
 * Under `valgrind --tool=ompsim` every value comes from the simulated
 * machine: exact, repeatable, and the same numbers the profile document
 * holds for the same interval. Run natively, ePAPI forwards to PAPI
 * (libpapi) and answers EPAPI_ENOEVNT for events the hardware does not offer
 * and EPAPI_ENOSUPP for the range and histogram extensions, which no PAPI
 * component provides.
 *
 * The way of working is PAPI's:
 *
 *   int es = EPAPI_NULL;
 *   long long v[2];
 *   EPAPI_library_init(EPAPI_VER_CURRENT);
 *   EPAPI_create_eventset(&es);
 *   EPAPI_add_named_event(es, "PAPI_L1_DCM");
 *   EPAPI_add_event(es, EPAPI_L1_DCA);
 *   EPAPI_set_range(es, a, sizeof a);          // extension: only accesses to a
 *   EPAPI_set_histogram(es, 0, 25);            // extension: 25 portions of a
 *   EPAPI_start(es);  kernel();  EPAPI_stop(es, v);
 *   EPAPI_read_histogram(es, EPAPI_L1_DCM, buckets, 25);
 *
 * Event codes and error codes have PAPI's values, so a code from papi.h
 * means the same event here. docs/epapi.md defines every event in terms of
 * the simulated hierarchy.
 */
#ifndef OMPSIM_EPAPI_H
#define OMPSIM_EPAPI_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EPAPI_VER_CURRENT 0x01000000
#define EPAPI_NULL (-1)
#define EPAPI_MAX_STR_LEN 128
#define EPAPI_PRESET_MASK ((int)0x80000000)

/* Return codes (PAPI's values). */
#define EPAPI_OK 0
#define EPAPI_EINVAL (-1)     /* invalid argument */
#define EPAPI_ENOMEM (-2)     /* out of memory */
#define EPAPI_ESYS (-3)       /* a system call failed */
#define EPAPI_ENOEVNT (-7)    /* event not available (machine or hardware) */
#define EPAPI_ECNFLCT (-8)    /* event cannot be counted with this set's range */
#define EPAPI_ENOTRUN (-9)    /* event set is not running */
#define EPAPI_EISRUN (-10)    /* event set is running */
#define EPAPI_ENOEVST (-11)   /* no such event set */
#define EPAPI_ENOTPRESET (-12) /* not a preset event */
#define EPAPI_ENOINIT (-16)   /* EPAPI_library_init was not called */
#define EPAPI_ENOSUPP (-18)   /* not supported here (native run: ranges, histograms) */
#define EPAPI_EBUF (-20)      /* buffer too small */

/* Preset events: X(NAME, index, level, what, description). `level` is the
 * cache level (0 for instruction and cycle counts); `what` says which count
 * of that level (see docs/epapi.md). Codes are EPAPI_PRESET_MASK | index,
 * the same as PAPI_<NAME>. */
#define EPAPI_PRESET_EVENTS(X)                                                  \
    X(L1_DCM, 0x00, 1, DCM, "Level 1 data cache misses")                         \
    X(L1_ICM, 0x01, 1, ICM, "Level 1 instruction cache misses")                  \
    X(L2_DCM, 0x02, 2, DCM, "Level 2 data cache misses")                         \
    X(L2_ICM, 0x03, 2, ICM, "Level 2 instruction cache misses")                  \
    X(L3_DCM, 0x04, 3, DCM, "Level 3 data cache misses")                         \
    X(L3_ICM, 0x05, 3, ICM, "Level 3 instruction cache misses")                  \
    X(L1_TCM, 0x06, 1, TCM, "Level 1 cache misses")                              \
    X(L2_TCM, 0x07, 2, TCM, "Level 2 cache misses")                              \
    X(L3_TCM, 0x08, 3, TCM, "Level 3 cache misses")                              \
    X(L3_LDM, 0x0e, 3, LDM, "Level 3 load misses")                               \
    X(L3_STM, 0x0f, 3, STM, "Level 3 store misses")                              \
    X(L1_LDM, 0x17, 1, LDM, "Level 1 load misses")                               \
    X(L1_STM, 0x18, 1, STM, "Level 1 store misses")                              \
    X(L2_LDM, 0x19, 2, LDM, "Level 2 load misses")                               \
    X(L2_STM, 0x1a, 2, STM, "Level 2 store misses")                              \
    X(L3_DCH, 0x1d, 3, DCH, "Level 3 data cache hits")                           \
    X(TOT_INS, 0x32, 0, INS, "Instructions completed")                           \
    X(LD_INS, 0x35, 0, LD, "Load instructions")                                  \
    X(SR_INS, 0x36, 0, SR, "Store instructions")                                 \
    X(TOT_CYC, 0x3b, 0, CYC, "Total cycles (simulated)")                         \
    X(LST_INS, 0x3c, 0, LST, "Load/store instructions completed")                \
    X(L1_DCH, 0x3e, 1, DCH, "Level 1 data cache hits")                           \
    X(L2_DCH, 0x3f, 2, DCH, "Level 2 data cache hits")                           \
    X(L1_DCA, 0x40, 1, DCA, "Level 1 data cache accesses")                       \
    X(L2_DCA, 0x41, 2, DCA, "Level 2 data cache accesses")                       \
    X(L3_DCA, 0x42, 3, DCA, "Level 3 data cache accesses")                       \
    X(L1_DCR, 0x43, 1, DCR, "Level 1 data cache reads")                          \
    X(L2_DCR, 0x44, 2, DCR, "Level 2 data cache reads")                          \
    X(L3_DCR, 0x45, 3, DCR, "Level 3 data cache reads")                          \
    X(L1_DCW, 0x46, 1, DCW, "Level 1 data cache writes")                         \
    X(L2_DCW, 0x47, 2, DCW, "Level 2 data cache writes")                         \
    X(L3_DCW, 0x48, 3, DCW, "Level 3 data cache writes")                         \
    X(L1_ICH, 0x49, 1, ICH, "Level 1 instruction cache hits")                    \
    X(L2_ICH, 0x4a, 2, ICH, "Level 2 instruction cache hits")                    \
    X(L3_ICH, 0x4b, 3, ICH, "Level 3 instruction cache hits")                    \
    X(L1_ICA, 0x4c, 1, ICA, "Level 1 instruction cache accesses")                \
    X(L2_ICA, 0x4d, 2, ICA, "Level 2 instruction cache accesses")                \
    X(L3_ICA, 0x4e, 3, ICA, "Level 3 instruction cache accesses")                \
    X(L1_TCH, 0x55, 1, TCH, "Level 1 total cache hits")                          \
    X(L2_TCH, 0x56, 2, TCH, "Level 2 total cache hits")                          \
    X(L3_TCH, 0x57, 3, TCH, "Level 3 total cache hits")                          \
    X(L1_TCA, 0x58, 1, TCA, "Level 1 total cache accesses")                      \
    X(L2_TCA, 0x59, 2, TCA, "Level 2 total cache accesses")                      \
    X(L3_TCA, 0x5a, 3, TCA, "Level 3 total cache accesses")

enum {
#define EPAPI_ENUM_(name, idx, level, what, descr) EPAPI_##name = EPAPI_PRESET_MASK | idx,
    EPAPI_PRESET_EVENTS(EPAPI_ENUM_)
#undef EPAPI_ENUM_
    EPAPI_END_OF_PRESETS_
};

/* Library and event sets (as PAPI). */
int EPAPI_library_init(int version); /* returns EPAPI_VER_CURRENT or an error */
int EPAPI_is_initialized(void);
void EPAPI_shutdown(void);
int EPAPI_is_simulated(void); /* 1 under ompsim, 0 natively */
int EPAPI_create_eventset(int* EventSet);
int EPAPI_add_event(int EventSet, int EventCode);
int EPAPI_add_named_event(int EventSet, const char* EventName);
int EPAPI_remove_event(int EventSet, int EventCode);
int EPAPI_num_events(int EventSet);
int EPAPI_query_event(int EventCode);
int EPAPI_event_name_to_code(const char* name, int* EventCode);
int EPAPI_event_code_to_name(int EventCode, char* out); /* out: EPAPI_MAX_STR_LEN */
int EPAPI_start(int EventSet);
int EPAPI_stop(int EventSet, long long* values);
int EPAPI_read(int EventSet, long long* values);
int EPAPI_accum(int EventSet, long long* values);
int EPAPI_reset(int EventSet);
int EPAPI_cleanup_eventset(int EventSet);
int EPAPI_destroy_eventset(int* EventSet);
const char* EPAPI_strerror(int code);

/* Extensions: the EP-Cache monitor's address ranges and histograms. */

/* Count only the data accesses to [addr, addr+len) (PAPI_DATA_ADDRESS's
 * intent). Only data-cache events (DCA DCR DCW DCH DCM LDM STM, LD_INS,
 * SR_INS, LST_INS) can be restricted: EPAPI_ECNFLCT otherwise. A range that
 * is exactly a global, a named range or an earlier ePAPI range reads that
 * structure; any other range becomes a monitored range of its own. */
int EPAPI_set_range(int EventSet, const void* addr, size_t len);
/* Histogram of the set's range: buckets of `lines` cache lines (a power of
 * two) or `bins` equal portions; exactly one is non-zero. Restarts the
 * structure's histogram. Call before EPAPI_start. */
int EPAPI_set_histogram(int EventSet, unsigned lines, unsigned bins);
/* Number of buckets of the set's histogram, or an error. */
int EPAPI_histogram_size(int EventSet);
/* Counts of event `EventCode` (one of the set's) per bucket since
 * EPAPI_start (and until EPAPI_stop); n >= EPAPI_histogram_size. */
int EPAPI_read_histogram(int EventSet, int EventCode, long long* buckets, int n);

#ifdef __cplusplus
}
#endif

#endif
