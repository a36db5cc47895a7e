/* Internals shared by the OpenMP parts of vgpreload_ompsim-amd64-linux.so:
 * OmptTool.c (the OMPT tool), OmpLoopWrappers.c (dispatch and GOMP loop
 * wrappers) and GompForward.c/.S (gcc programs on libomp). Hidden symbols
 * only; nothing here is seen by the client.
 *
 * Every function of these files lives in the section "ompsim_unsimulated"
 * (as monitor/epapi/SimEventSets.h's code does): once registered with
 * OMPSIM_USERREQ_UNSIMULATED_CODE the tool neither simulates nor counts its
 * instructions, so the event intake costs the simulated program nothing.
 * The section is registered by the first probe (ompsim_omp_active), never by
 * a constructor: a constructor would make a serial program execute
 * different code under ompsim and under Cachegrind, which the parity tests
 * compare. Thread-local variables are initial-exec (one %fs-relative access,
 * no call into the dynamic loader's __tls_get_addr). */
#ifndef OMPSIM_VGTOOL_PRELOAD_OMPPRELOAD_H
#define OMPSIM_VGTOOL_PRELOAD_OMPPRELOAD_H

#include "OmpEvents.h"

#define OMPSIM_UNSIM __attribute__((section("ompsim_unsimulated"), noinline))
#define OMPSIM_HID __attribute__((visibility("hidden")))
#define OMPSIM_TLS __thread __attribute__((tls_model("initial-exec")))

typedef unsigned long omp_word;

/* Wrappers of libomp's functions (Valgrind function wrapping, soname
 * libomp.so*): LIBOMP_WRAPPER(type, fn, params) declares the wrapper in the
 * unsimulated section and begins its definition; its body gets the real
 * function with VALGRIND_GET_ORIG_FN and calls it with CALL_FN_*, whose
 * result is a word (W). */
#define LIBOMP libompZdsoZa
typedef long W;
#define LIBOMP_WRAPPER(type, fn, params)                          \
    type I_WRAP_SONAME_FNNAME_ZU(LIBOMP, fn) params OMPSIM_UNSIM; \
    type I_WRAP_SONAME_FNNAME_ZU(LIBOMP, fn) params

/* 1 when the process runs under ompsim (the first call probes the tool and
 * registers the unsimulated section), 0 natively and under other tools. */
OMPSIM_HID int ompsim_omp_probe(void);
OMPSIM_HID extern int ompsim_omp_state; /* 0 = not probed, 1 = ompsim, -1 = not ompsim */
static inline __attribute__((always_inline)) int ompsim_omp_active(void) {
    return ompsim_omp_state > 0 || (ompsim_omp_state == 0 && ompsim_omp_probe());
}

/* Sends one OMPSIM_USERREQ_OMP_EVENT (and prints it when OMPSIM_OMPT_DEBUG
 * is set). Call only when ompsim_omp_active(). */
OMPSIM_HID void ompsim_omp_event(omp_word kind, omp_word a2, omp_word a3, omp_word a4, omp_word a5);

/* Code pointers: the runtime's codeptr_ra, minus one; 0 when none. A wrapper
 * in this library that calls a runtime entry point makes the runtime see a
 * return address inside the wrapper: the wrapper saves its own caller's
 * return address in ompsim_caller_ra, and ompsim_codeptr() substitutes it
 * for any address inside the unsimulated section. */
OMPSIM_HID extern OMPSIM_TLS omp_word ompsim_caller_ra;
OMPSIM_HID omp_word ompsim_codeptr(const void* ra);

/* A small per-thread number for the debug output (1 = first thread seen). */
OMPSIM_HID extern OMPSIM_TLS int ompsim_debug_tid;

/* Set by GompForward.c when it has loaded libomp for a gcc-built program
 * (OMP_EV_TOOL_INIT a3 = 2). */
OMPSIM_HID extern int ompsim_gomp_forwarded;

/* RuntimeHeap.c: from now on the allocations made by the code of the
 * object holding `runtime_code` come from a heap of their own. */
OMPSIM_HID void ompsim_rt_heap_start(const void* runtime_code);

/* DeterministicWork.c: the fixed assignment of dynamic and guided chunks.
 * ompsim_fixed_begin (in the thread, after the runtime set the loop up, or
 * before a GOMP start function asks for its first chunk) takes over the
 * loop when its schedule (OMP_EV_LOOP_INIT's word) is dynamic or guided and
 * answers 1; ompsim_fixed_active says whether the thread's current loop is
 * taken over; ompsim_fixed_next gives the thread's next chunk (inclusive
 * bounds, stride, lastprivate flag) or 0 when it has none left, which ends
 * the take-over. */
OMPSIM_HID int ompsim_fixed_begin(omp_word lb, omp_word ub_incl, long st, omp_word sched, int is_signed);
OMPSIM_HID int ompsim_fixed_active(void);
OMPSIM_HID int ompsim_fixed_next(omp_word* lb, omp_word* ub, long* st, int* last);
/* Set while the runtime decides a single: OmptTool.c drops its single
 * events, DeterministicWork.c sends them for thread 0 as the executor. */
OMPSIM_HID extern OMPSIM_TLS int ompsim_single_quiet;

/* libomp's sched_type (kmp.h) -> OMP_SCHED_* (with OMP_SCHED_ORDERED). */
OMPSIM_HID omp_word ompsim_kmp_sched(int sched);

#endif
