/* Part of vgpreload_ompsim-amd64-linux.so: the OMPT tool that turns the
 * OpenMP runtime's events into ompsim client requests (vgtool/OmpEvents.h,
 * one OMPSIM_USERREQ_OMP_EVENT per event; docs/openmp.md, "Event intake").
 *
 * libomp finds `ompt_start_tool` in any loaded object, so defining it here
 * is all it takes under Valgrind. Natively and under other tools the probe
 * fails and ompt_start_tool returns NULL at once: libomp then runs with OMPT
 * off and the program pays nothing.
 *
 * Ids: parallel regions and tasks (implicit and explicit) get an id from one
 * process-wide atomic counter, kept in their ompt_data_t. The numbering
 * depends on timing; the tool derives logical identities from the events.
 *
 * All code here is in the unsimulated section (OmpPreload.h). With
 * OMPSIM_OMPT_DEBUG=1 in the environment each event is also printed to
 * stderr (see ompsim_omp_event), which costs simulated libc instructions:
 * a debugging aid only. */
#include <omp-tools.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "OmpPreload.h"
#include "ompsim.h"

int ompsim_omp_state;
int ompsim_gomp_forwarded;
OMPSIM_TLS omp_word ompsim_caller_ra;
OMPSIM_TLS int ompsim_debug_tid;

static int g_debug;
static int g_debug_threads;
static omp_word g_next_id;
static unsigned g_omp_version;

/* Defined by the linker (this file's code is in the section); not weak, so
 * that they are reached PC-relative, with no relocation. */
extern char __start_ompsim_unsimulated[] __attribute__((visibility("hidden")));
extern char __stop_ompsim_unsimulated[] __attribute__((visibility("hidden")));

OMPSIM_UNSIM int ompsim_omp_probe(void) {
    if (ompsim_omp_state) return ompsim_omp_state > 0;
    if (VALGRIND_DO_CLIENT_REQUEST_EXPR(0, OMPSIM_USERREQ_EPAPI_PROBE, 0, 0, 0, 0, 0) != OMPSIM_EPAPI_MAGIC) {
        ompsim_omp_state = -1;
        return 0;
    }
    /* The same range SimEventSets.c's sim_init registers (the linker merges
     * every object's section): the tool ignores a range it already has. */
    VALGRIND_DO_CLIENT_REQUEST_STMT(OMPSIM_USERREQ_UNSIMULATED_CODE, __start_ompsim_unsimulated,
                                    __stop_ompsim_unsimulated, 0, 0, 0);
    const char* d = getenv("OMPSIM_OMPT_DEBUG");
    g_debug = d && d[0] && !(d[0] == '0' && d[1] == 0);
    ompsim_omp_state = 1;
    return 1;
}

OMPSIM_UNSIM omp_word ompsim_codeptr(const void* ra) {
    if (!ra) return 0;
    if ((const char*)ra >= __start_ompsim_unsimulated && (const char*)ra < __stop_ompsim_unsimulated)
        return ompsim_caller_ra ? ompsim_caller_ra - 1 : 0;
    return (omp_word)ra - 1;
}

/* ---------------------------------------------------------------- debug output */

/* Arrays of characters, not pointers: no relocation for the dynamic loader
 * to process at the start of every program (also below). */
static const char kind_names[OMP_EV_KIND_END][24] = {
    [OMP_EV_TOOL_INIT] = "TOOL_INIT",
    [OMP_EV_THREAD_BEGIN] = "THREAD_BEGIN",
    [OMP_EV_THREAD_END] = "THREAD_END",
    [OMP_EV_PARALLEL_BEGIN] = "PARALLEL_BEGIN",
    [OMP_EV_PARALLEL_END] = "PARALLEL_END",
    [OMP_EV_IMPLICIT_TASK_BEGIN] = "IMPLICIT_TASK_BEGIN",
    [OMP_EV_IMPLICIT_TASK_END] = "IMPLICIT_TASK_END",
    [OMP_EV_WORK_BEGIN] = "WORK_BEGIN",
    [OMP_EV_WORK_END] = "WORK_END",
    [OMP_EV_LOOP_INIT] = "LOOP_INIT",
    [OMP_EV_CHUNK] = "CHUNK",
    [OMP_EV_LOOP_DONE] = "LOOP_DONE",
    [OMP_EV_SYNC_BEGIN] = "SYNC_BEGIN",
    [OMP_EV_SYNC_END] = "SYNC_END",
    [OMP_EV_SYNC_WAIT_BEGIN] = "SYNC_WAIT_BEGIN",
    [OMP_EV_SYNC_WAIT_END] = "SYNC_WAIT_END",
    [OMP_EV_MUTEX_ACQUIRE] = "MUTEX_ACQUIRE",
    [OMP_EV_MUTEX_ACQUIRED] = "MUTEX_ACQUIRED",
    [OMP_EV_MUTEX_RELEASED] = "MUTEX_RELEASED",
    [OMP_EV_MASKED_BEGIN] = "MASKED_BEGIN",
    [OMP_EV_MASKED_END] = "MASKED_END",
    [OMP_EV_TASK_CREATE] = "TASK_CREATE",
    [OMP_EV_TASK_DEPENDENCES] = "TASK_DEPENDENCES",
    [OMP_EV_TASK_DEPENDENCE] = "TASK_DEPENDENCE",
    [OMP_EV_TASK_SCHEDULE] = "TASK_SCHEDULE",
    [OMP_EV_CALLBACK_UNAVAILABLE] = "CALLBACK_UNAVAILABLE",
    [OMP_EV_TASK_ALLOC] = "TASK_ALLOC",
    [OMP_EV_FUNC_ENTER] = "FUNC_ENTER",
    [OMP_EV_FUNC_EXIT] = "FUNC_EXIT",
    [OMP_EV_RUNTIME_START] = "RUNTIME_START",
};

/* Which of a2..a5 (bit 0 = a2) are addresses, printed in hex; the others
 * are printed as signed decimals. */
static const unsigned char hex_args[OMP_EV_KIND_END] = {
    [OMP_EV_PARALLEL_BEGIN] = 8,  [OMP_EV_PARALLEL_END] = 4,   [OMP_EV_WORK_BEGIN] = 4,
    [OMP_EV_WORK_END] = 4,        [OMP_EV_SYNC_BEGIN] = 2,     [OMP_EV_SYNC_END] = 2,
    [OMP_EV_SYNC_WAIT_BEGIN] = 2, [OMP_EV_SYNC_WAIT_END] = 2,  [OMP_EV_MUTEX_ACQUIRE] = 6,
    [OMP_EV_MUTEX_ACQUIRED] = 6,  [OMP_EV_MUTEX_RELEASED] = 6, [OMP_EV_MASKED_BEGIN] = 1,
    [OMP_EV_MASKED_END] = 1,      [OMP_EV_TASK_CREATE] = 8,    [OMP_EV_TASK_DEPENDENCES] = 2,
    [OMP_EV_TASK_ALLOC] = 1,
};

static void debug_print(omp_word kind, const omp_word* a) OMPSIM_UNSIM;
static void debug_print(omp_word kind, const omp_word* a) {
    if (!ompsim_debug_tid) ompsim_debug_tid = __atomic_add_fetch(&g_debug_threads, 1, __ATOMIC_RELAXED);
    char line[200];
    int n = snprintf(line, sizeof line, "ompt: T%d %s", ompsim_debug_tid,
                     kind < OMP_EV_KIND_END && kind_names[kind][0] ? kind_names[kind] : "?");
    for (int i = 0; i < 4 && n < (int)sizeof line; ++i)
        n += snprintf(line + n, sizeof line - n,
                      (hex_args[kind < OMP_EV_KIND_END ? kind : 0] >> i) & 1 ? " %#lx" : " %ld", a[i]);
    if (n >= (int)sizeof line - 1) n = sizeof line - 2;
    line[n++] = '\n';
    ssize_t w = write(2, line, n);
    (void)w;
}

OMPSIM_UNSIM void ompsim_omp_event(omp_word kind, omp_word a2, omp_word a3, omp_word a4, omp_word a5) {
    VALGRIND_DO_CLIENT_REQUEST_STMT(OMPSIM_USERREQ_OMP_EVENT, kind, a2, a3, a4, a5);
    if (g_debug) {
        omp_word a[4] = {a2, a3, a4, a5};
        debug_print(kind, a);
    }
}

/* ---------------------------------------------------------------- callbacks */

static omp_word new_id(void) OMPSIM_UNSIM;
static omp_word new_id(void) { return __atomic_add_fetch(&g_next_id, 1, __ATOMIC_RELAXED); }

static omp_word id_of(ompt_data_t* d) OMPSIM_UNSIM;
static omp_word id_of(ompt_data_t* d) { return d ? d->value : 0; }

#define EV(kind, a2, a3, a4, a5) \
    ompsim_omp_event(kind, (omp_word)(a2), (omp_word)(a3), (omp_word)(a4), (omp_word)(a5))

static void on_thread_begin(ompt_thread_t type, ompt_data_t* thread) OMPSIM_UNSIM;
static void on_thread_begin(ompt_thread_t type, ompt_data_t* thread) {
    thread->value = (omp_word)type;
    EV(OMP_EV_THREAD_BEGIN, type, 0, 0, 0);
}

static void on_thread_end(ompt_data_t* thread) OMPSIM_UNSIM;
static void on_thread_end(ompt_data_t* thread) { EV(OMP_EV_THREAD_END, id_of(thread), 0, 0, 0); }

static void on_parallel_begin(ompt_data_t* task, const ompt_frame_t* frame, ompt_data_t* parallel, unsigned requested,
                              int flags, const void* ra) OMPSIM_UNSIM;
static void on_parallel_begin(ompt_data_t* task, const ompt_frame_t* frame, ompt_data_t* parallel, unsigned requested,
                              int flags, const void* ra) {
    parallel->value = new_id();
    EV(OMP_EV_PARALLEL_BEGIN, parallel->value, requested, (unsigned)flags, ompsim_codeptr(ra));
}

static void on_parallel_end(ompt_data_t* parallel, ompt_data_t* task, int flags, const void* ra) OMPSIM_UNSIM;
static void on_parallel_end(ompt_data_t* parallel, ompt_data_t* task, int flags, const void* ra) {
    EV(OMP_EV_PARALLEL_END, id_of(parallel), (unsigned)flags, ompsim_codeptr(ra), 0);
}

static void on_implicit_task(ompt_scope_endpoint_t ep, ompt_data_t* parallel, ompt_data_t* task, unsigned team,
                             unsigned index, int flags) OMPSIM_UNSIM;
static void on_implicit_task(ompt_scope_endpoint_t ep, ompt_data_t* parallel, ompt_data_t* task, unsigned team,
                             unsigned index, int flags) {
    if (ep == ompt_scope_begin) {
        task->value = new_id();
        /* The initial task's implicit parallel region has no PARALLEL_BEGIN. */
        if (parallel && !parallel->value) parallel->value = new_id();
    }
    EV(ep == ompt_scope_begin ? OMP_EV_IMPLICIT_TASK_BEGIN : OMP_EV_IMPLICIT_TASK_END, id_of(parallel), team, index,
       id_of(task) << 4 | ((unsigned)flags & 0xf));
}

static void on_work(ompt_work_t type, ompt_scope_endpoint_t ep, ompt_data_t* parallel, ompt_data_t* task,
                    uint64_t count, const void* ra) OMPSIM_UNSIM;
static void on_work(ompt_work_t type, ompt_scope_endpoint_t ep, ompt_data_t* parallel, ompt_data_t* task,
                    uint64_t count, const void* ra) {
    if (ompsim_single_quiet && (type == ompt_work_single_executor || type == ompt_work_single_other)) return;
    EV(ep == ompt_scope_begin ? OMP_EV_WORK_BEGIN : OMP_EV_WORK_END, type, count, ompsim_codeptr(ra), 0);
}

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t ep, ompt_data_t* parallel,
                           ompt_data_t* task, const void* ra) OMPSIM_UNSIM;
static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t ep, ompt_data_t* parallel,
                           ompt_data_t* task, const void* ra) {
    EV(ep == ompt_scope_begin ? OMP_EV_SYNC_BEGIN : OMP_EV_SYNC_END, kind, ompsim_codeptr(ra), 0, 0);
}

static void on_sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t ep, ompt_data_t* parallel,
                                ompt_data_t* task, const void* ra) OMPSIM_UNSIM;
static void on_sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t ep, ompt_data_t* parallel,
                                ompt_data_t* task, const void* ra) {
    EV(ep == ompt_scope_begin ? OMP_EV_SYNC_WAIT_BEGIN : OMP_EV_SYNC_WAIT_END, kind, ompsim_codeptr(ra), 0, 0);
}

static void on_mutex_acquire(ompt_mutex_t kind, unsigned hint, unsigned impl, ompt_wait_id_t wait,
                             const void* ra) OMPSIM_UNSIM;
static void on_mutex_acquire(ompt_mutex_t kind, unsigned hint, unsigned impl, ompt_wait_id_t wait, const void* ra) {
    EV(OMP_EV_MUTEX_ACQUIRE, kind, wait, ompsim_codeptr(ra), 0);
}

static void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait, const void* ra) OMPSIM_UNSIM;
static void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait, const void* ra) {
    EV(OMP_EV_MUTEX_ACQUIRED, kind, wait, ompsim_codeptr(ra), 0);
}

static void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait, const void* ra) OMPSIM_UNSIM;
static void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait, const void* ra) {
    EV(OMP_EV_MUTEX_RELEASED, kind, wait, ompsim_codeptr(ra), 0);
}

/* A nest lock taken again by its owner (begin) or released while still held
 * (end): the outermost acquire and release come as mutex_acquired/released. */
static void on_nest_lock(ompt_scope_endpoint_t ep, ompt_wait_id_t wait, const void* ra) OMPSIM_UNSIM;
static void on_nest_lock(ompt_scope_endpoint_t ep, ompt_wait_id_t wait, const void* ra) {
    EV(ep == ompt_scope_begin ? OMP_EV_MUTEX_ACQUIRED : OMP_EV_MUTEX_RELEASED, ompt_mutex_nest_lock, wait,
       ompsim_codeptr(ra), 1);
}

static void on_masked(ompt_scope_endpoint_t ep, ompt_data_t* parallel, ompt_data_t* task,
                      const void* ra) OMPSIM_UNSIM;
static void on_masked(ompt_scope_endpoint_t ep, ompt_data_t* parallel, ompt_data_t* task, const void* ra) {
    EV(ep == ompt_scope_begin ? OMP_EV_MASKED_BEGIN : OMP_EV_MASKED_END, ompsim_codeptr(ra), 0, 0, 0);
}

static void on_task_create(ompt_data_t* parent, const ompt_frame_t* frame, ompt_data_t* task, int flags, int has_deps,
                           const void* ra) OMPSIM_UNSIM;
static void on_task_create(ompt_data_t* parent, const ompt_frame_t* frame, ompt_data_t* task, int flags, int has_deps,
                           const void* ra) {
    if (!task) return;
    if (!task->value) task->value = new_id();
    EV(OMP_EV_TASK_CREATE, task->value, (unsigned)flags, has_deps, ompsim_codeptr(ra));
}

static void on_task_schedule(ompt_data_t* prior, ompt_task_status_t status, ompt_data_t* next) OMPSIM_UNSIM;
static void on_task_schedule(ompt_data_t* prior, ompt_task_status_t status, ompt_data_t* next) {
    EV(OMP_EV_TASK_SCHEDULE, id_of(prior), status, id_of(next), 0);
}

static void on_dependences(ompt_data_t* task, const ompt_dependence_t* deps, int ndeps) OMPSIM_UNSIM;
static void on_dependences(ompt_data_t* task, const ompt_dependence_t* deps, int ndeps) {
    EV(OMP_EV_TASK_DEPENDENCES, id_of(task), deps, ndeps, 0);
}

static void on_task_dependence(ompt_data_t* src, ompt_data_t* sink) OMPSIM_UNSIM;
static void on_task_dependence(ompt_data_t* src, ompt_data_t* sink) {
    EV(OMP_EV_TASK_DEPENDENCE, id_of(src), id_of(sink), 0, 0);
}

static void on_dispatch(ompt_data_t* parallel, ompt_data_t* task, ompt_dispatch_t kind,
                        ompt_data_t instance) OMPSIM_UNSIM;
static void on_dispatch(ompt_data_t* parallel, ompt_data_t* task, ompt_dispatch_t kind, ompt_data_t instance) {}

/* ---------------------------------------------------------------- start-up */

/* Registers one callback; a refused one is sent as CALLBACK_UNAVAILABLE. */
static void reg(ompt_set_callback_t set, ompt_callbacks_t which, ompt_callback_t fn) OMPSIM_UNSIM;
static void reg(ompt_set_callback_t set, ompt_callbacks_t which, ompt_callback_t fn) {
    ompt_set_result_t r = set(which, fn);
    if (r == ompt_set_error || r == ompt_set_never || r == ompt_set_impossible)
        EV(OMP_EV_CALLBACK_UNAVAILABLE, which, r, 0, 0);
}

static int tool_initialize(ompt_function_lookup_t lookup, int device, ompt_data_t* data) OMPSIM_UNSIM;
static int tool_initialize(ompt_function_lookup_t lookup, int device, ompt_data_t* data) {
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    EV(OMP_EV_TOOL_INIT, g_omp_version, ompsim_gomp_forwarded ? 2 : 1, 0, 0);
    if (!set) return 0;
    /* One call each (a table of function pointers would need relocations). */
    reg(set, ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin);
    reg(set, ompt_callback_thread_end, (ompt_callback_t)on_thread_end);
    reg(set, ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin);
    reg(set, ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end);
    reg(set, ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task);
    reg(set, ompt_callback_work, (ompt_callback_t)on_work);
    reg(set, ompt_callback_sync_region, (ompt_callback_t)on_sync_region);
    reg(set, ompt_callback_sync_region_wait, (ompt_callback_t)on_sync_region_wait);
    /* The reduction callback has the sync_region signature; libomp sends it
     * with ompt_sync_region_reduction. */
    reg(set, ompt_callback_reduction, (ompt_callback_t)on_sync_region);
    reg(set, ompt_callback_mutex_acquire, (ompt_callback_t)on_mutex_acquire);
    reg(set, ompt_callback_mutex_acquired, (ompt_callback_t)on_mutex_acquired);
    reg(set, ompt_callback_mutex_released, (ompt_callback_t)on_mutex_released);
    reg(set, ompt_callback_nest_lock, (ompt_callback_t)on_nest_lock);
    /* ompt_callback_masked (OpenMP 5.1) has the number and signature of
     * OpenMP 5.0's ompt_callback_master. */
    reg(set, ompt_callback_masked, (ompt_callback_t)on_masked);
    reg(set, ompt_callback_task_create, (ompt_callback_t)on_task_create);
    reg(set, ompt_callback_task_schedule, (ompt_callback_t)on_task_schedule);
    reg(set, ompt_callback_dependences, (ompt_callback_t)on_dependences);
    reg(set, ompt_callback_task_dependence, (ompt_callback_t)on_task_dependence);
    /* Asked for to learn whether the runtime has it (libomp 14 does not):
     * chunks come from the dispatch wrappers (OmpLoopWrappers.c). A runtime
     * that has it would report the chunks twice: it is unregistered. */
    reg(set, ompt_callback_dispatch, (ompt_callback_t)on_dispatch);
    set(ompt_callback_dispatch, 0);
    return 1;
}

static void tool_finalize(ompt_data_t* data) OMPSIM_UNSIM;
static void tool_finalize(ompt_data_t* data) {}

ompt_start_tool_result_t* ompt_start_tool(unsigned int omp_version, const char* runtime_version) OMPSIM_UNSIM;
ompt_start_tool_result_t* ompt_start_tool(unsigned int omp_version, const char* runtime_version) {
    static ompt_start_tool_result_t result;
    if (!ompsim_omp_active()) return NULL;
    g_omp_version = omp_version;
    EV(OMP_EV_RUNTIME_START, omp_version, 0, 0, 0);
    ompsim_rt_heap_start(__builtin_return_address(0)); /* the runtime calls: RuntimeHeap.c */
    result.initialize = tool_initialize;
    result.finalize = tool_finalize;
    return &result;
}
