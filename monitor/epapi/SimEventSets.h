/* Simulated event sets: PAPI's event-set semantics over the counts the
 * ompsim tool keeps (vgtool/EpapiService.h). Compiled into libepapi (for
 * EPAPI_*) and into the tool's preload library (for the PAPI_* functions of
 * unmodified PAPI programs); each copy is hidden inside its object.
 *
 * All of this code lives in the section "ompsim_unsimulated", which each
 * object registers with the tool: the tool neither simulates nor counts it,
 * so a start/stop pair measures exactly the program's own work in between,
 * the same interval the profile document shows.
 *
 * Return codes and event codes are PAPI's (include/epapi.h). */
#ifndef OMPSIM_MONITOR_EPAPI_SIMEVENTSETS_H
#define OMPSIM_MONITOR_EPAPI_SIMEVENTSETS_H

#include <stddef.h>

#define OMPSIM_UNSIMULATED __attribute__((section("ompsim_unsimulated"), noinline))
#define OMPSIM_HIDDEN __attribute__((visibility("hidden")))

/* 1 when running under ompsim (and the object's code is registered). */
OMPSIM_HIDDEN int sim_init(void);
OMPSIM_HIDDEN int sim_active(void);
OMPSIM_HIDDEN void sim_shutdown(void);

OMPSIM_HIDDEN int sim_create_eventset(int* es);
OMPSIM_HIDDEN int sim_add_event(int es, int code);
OMPSIM_HIDDEN int sim_remove_event(int es, int code);
OMPSIM_HIDDEN int sim_num_events(int es);
OMPSIM_HIDDEN int sim_list_events(int es, int* codes, int* n);
OMPSIM_HIDDEN int sim_query_event(int code);
OMPSIM_HIDDEN int sim_start(int es);
OMPSIM_HIDDEN int sim_stop(int es, long long* values);
OMPSIM_HIDDEN int sim_read(int es, long long* values);
OMPSIM_HIDDEN int sim_accum(int es, long long* values);
OMPSIM_HIDDEN int sim_reset(int es);
OMPSIM_HIDDEN int sim_state(int es, int* running);
OMPSIM_HIDDEN int sim_cleanup_eventset(int es);
OMPSIM_HIDDEN int sim_destroy_eventset(int* es);

OMPSIM_HIDDEN int sim_set_range(int es, const void* addr, size_t len);
OMPSIM_HIDDEN int sim_set_histogram(int es, unsigned lines, unsigned bins);
OMPSIM_HIDDEN int sim_histogram_size(int es);
OMPSIM_HIDDEN int sim_read_histogram(int es, int code, long long* buckets, int n);

/* Preset names ("PAPI_L1_DCM"; "EPAPI_L1_DCM" is accepted too). */
OMPSIM_HIDDEN int sim_name_to_code(const char* name, int* code);
OMPSIM_HIDDEN int sim_code_to_name(int code, char* out, size_t size);
OMPSIM_HIDDEN const char* sim_description(int code);
OMPSIM_HIDDEN const char* sim_strerror(int rc);

#endif
