/* ompsim.h: client requests of the ompsim Valgrind tool, for C and C++.
 *
 * Each macro is a Valgrind client request: a few no-op instructions when
 * the program does not run under Valgrind (or runs under another tool), so
 * instrumented programs can ship as they are.
 *
 *   OMPSIM_START_COLLECTION();   simulate and count from here on
 *   OMPSIM_STOP_COLLECTION();    stop simulating (caches keep their contents)
 *   OMPSIM_ZERO_COUNTERS();      forget what was counted so far
 *   OMPSIM_DUMP("label");        write a profile document now
 *
 *   OMPSIM_REGION_BEGIN("name");  a user region (ompP's REGION) in the
 *   OMPSIM_REGION_END("name");    region profile: its call graph node,
 *                                 times in simulated cycles, cache events
 *
 *   OMPSIM_EVENT("name", bytes, partner);  a point event in the event flow
 *                                 graph (IPM's): e.g. a message of `bytes`
 *                                 to rank `partner` (< 0: no partner)
 *
 *   OMPSIM_NAME_RANGE(ptr, size, "name");   monitor [ptr, ptr+size) as a data
 *                                            structure named "name" (stack
 *                                            arrays, pools, parts of arrays)
 *   OMPSIM_FORGET_RANGE(ptr);               stop monitoring the range at ptr
 *   OMPSIM_SET_RESOLUTION(ptr, lines, bins); histogram of the structure at ptr
 *                                            in buckets of `lines` cache lines,
 *                                            or in `bins` equal portions
 *
 * A typical baseline measures a kernel, not start-up:
 *   valgrind --tool=ompsim --collect-atstart=no ./app
 * with OMPSIM_START_COLLECTION() / OMPSIM_STOP_COLLECTION() around the
 * kernel. OMPSIM_DUMP writes ompsim.out.<pid>.<n>.xml (n = 1, 2, ...) with
 * run termination="dump" and the label; the final document at exit is still
 * written as usual.
 */
#ifndef OMPSIM_H
#define OMPSIM_H

#include <valgrind/valgrind.h>

typedef enum {
    OMPSIM_USERREQ_START_COLLECTION = VG_USERREQ_TOOL_BASE('O', 'M'),
    OMPSIM_USERREQ_STOP_COLLECTION,
    OMPSIM_USERREQ_ZERO_COUNTERS,
    OMPSIM_USERREQ_DUMP,
    OMPSIM_USERREQ_NAME_RANGE,
    OMPSIM_USERREQ_FORGET_RANGE,
    OMPSIM_USERREQ_SET_RESOLUTION,
    OMPSIM_USERREQ_REGION_BEGIN,
    OMPSIM_USERREQ_REGION_END,
    OMPSIM_USERREQ_EVENT,
    OMPSIM_USERREQ_WHATIF_BEGIN,
    OMPSIM_USERREQ_WHATIF_END,
    /* Sent by the tool's preload library (heap wrappers), not by programs.
     * (OMPSIM_USERREQ_EVENT's fourth argument, 0 here, is the code address
     * the preload's MPI wrappers give for the program's call.) */
    OMPSIM_USERREQ_HEAP_ALLOC = VG_USERREQ_TOOL_BASE('O', 'M') + 0x100,
    OMPSIM_USERREQ_HEAP_FREE,
    OMPSIM_USERREQ_HEAP_TRACKING, /* 1 if the tool wants the two above */
    OMPSIM_USERREQ_HEAP_REAL_FNS, /* the wrappers' table of the C library's functions (vgtool/HeapHookList.h) */
    /* Sent by libepapi and the preload library's simulated PAPI (see
     * vgtool/EpapiService.h for the arguments), not by programs. */
    OMPSIM_USERREQ_EPAPI_PROBE = VG_USERREQ_TOOL_BASE('O', 'M') + 0x200,
    OMPSIM_USERREQ_UNSIMULATED_CODE,
    OMPSIM_USERREQ_EPAPI_RANGE,
    OMPSIM_USERREQ_EPAPI_QUERY,
    OMPSIM_USERREQ_EPAPI_READ,
    OMPSIM_USERREQ_EPAPI_HISTOGRAM,
    OMPSIM_USERREQ_EPAPI_RESOLUTION
} OmpsimClientRequest;

/* OMPSIM_USERREQ_EPAPI_PROBE answers this under ompsim (0 elsewhere). */
#define OMPSIM_EPAPI_MAGIC 0x0e9a9101

#define OMPSIM_START_COLLECTION() \
    VALGRIND_DO_CLIENT_REQUEST_STMT(OMPSIM_USERREQ_START_COLLECTION, 0, 0, 0, 0, 0)
#define OMPSIM_STOP_COLLECTION() \
    VALGRIND_DO_CLIENT_REQUEST_STMT(OMPSIM_USERREQ_STOP_COLLECTION, 0, 0, 0, 0, 0)
#define OMPSIM_ZERO_COUNTERS() \
    VALGRIND_DO_CLIENT_REQUEST_STMT(OMPSIM_USERREQ_ZERO_COUNTERS, 0, 0, 0, 0, 0)
/* label: a NUL-terminated string, or 0 for none. */
#define OMPSIM_DUMP(label) \
    VALGRIND_DO_CLIENT_REQUEST_STMT(OMPSIM_USERREQ_DUMP, (label), 0, 0, 0, 0)

/* name: a NUL-terminated string; begin and end of one region use the same name. */
#define OMPSIM_REGION_BEGIN(name) \
    VALGRIND_DO_CLIENT_REQUEST_STMT(OMPSIM_USERREQ_REGION_BEGIN, (name), 0, 0, 0, 0)
#define OMPSIM_REGION_END(name) \
    VALGRIND_DO_CLIENT_REQUEST_STMT(OMPSIM_USERREQ_REGION_END, (name), 0, 0, 0, 0)

/* name: a NUL-terminated string; bytes: the data size; partner: a rank, or
 * a negative number for none. */
#define OMPSIM_EVENT(name, bytes, partner) \
    VALGRIND_DO_CLIENT_REQUEST_STMT(OMPSIM_USERREQ_EVENT, (name), (bytes), (long)(partner), 0, 0)

/* What-if analyses (docs/parallelism.md): the code between the two is to be
 * optimised; `ompsim-report whatif LOG --region label:FACTOR` estimates the
 * program's parallelism if it were. label: a NUL-terminated string. */
#define OMPSIM_WHATIF_BEGIN(label) \
    VALGRIND_DO_CLIENT_REQUEST_STMT(OMPSIM_USERREQ_WHATIF_BEGIN, (label), 0, 0, 0, 0)
#define OMPSIM_WHATIF_END(label) \
    VALGRIND_DO_CLIENT_REQUEST_STMT(OMPSIM_USERREQ_WHATIF_END, (label), 0, 0, 0, 0)

#define OMPSIM_NAME_RANGE(ptr, size, name) \
    VALGRIND_DO_CLIENT_REQUEST_STMT(OMPSIM_USERREQ_NAME_RANGE, (ptr), (size), (name), 0, 0)
#define OMPSIM_FORGET_RANGE(ptr) \
    VALGRIND_DO_CLIENT_REQUEST_STMT(OMPSIM_USERREQ_FORGET_RANGE, (ptr), 0, 0, 0, 0)
#define OMPSIM_SET_RESOLUTION(ptr, lines, bins) \
    VALGRIND_DO_CLIENT_REQUEST_STMT(OMPSIM_USERREQ_SET_RESOLUTION, (ptr), (lines), (bins), 0, 0)

#endif
