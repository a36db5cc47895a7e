/* The OpenMP events the preload library's OMPT tool (vgtool/preload/) sends
 * to the tool, one client request per event. Shared by the preload (C, guest
 * code) and the tool (C++, freestanding): plain C, no includes.
 *
 * Every event is OMPSIM_USERREQ_OMP_EVENT with five word arguments:
 *   a1 = kind (OmpEventKind), a2..a5 as listed per kind below.
 * "codeptr" is OMPT's codeptr_ra minus one (an address inside the call
 * instruction of the construct, which the tool symbolises to file:line);
 * 0 when the runtime gave none. When a preload wrapper calls the runtime,
 * the preload replaces a return address inside itself by the wrapper's
 * caller, so codeptrs always point into the program (or are 0). libomp 14
 * gives none for the end-of-region barrier in worker threads, and in
 * MUTEX_RELEASED of a critical on threads other than thread 0 it passes 0
 * or another thread's address (docs/openmp.md, "Code pointers").
 *
 * Identities: parallel and task ids are assigned by the preload from one
 * process-wide counter (unique, but their numbering depends on timing); the
 * tool derives logical identities from them (creation order in the parent),
 * so nothing deterministic depends on the raw values.
 *
 * The tool records each event in the stream of the thread that sent it, in
 * program order with that thread's memory accesses (ARCHITECTURE.md, "Data
 * flow"). Events that a runtime does not send are listed in docs/openmp.md. */
#ifndef OMPSIM_VGTOOL_OMPEVENTS_H
#define OMPSIM_VGTOOL_OMPEVENTS_H

/* VG_USERREQ_TOOL_BASE('O','M') + 0x300 (see include/ompsim.h). */
#define OMPSIM_USERREQ_OMP_EVENT (((unsigned)'O' << 24 | (unsigned)'M' << 16) + 0x300)

typedef enum {
    /* The OMPT tool was initialised (a2 = runtime version number as OMPT
     * gives it, the omp_version argument of ompt_start_tool, e.g. 201611 for
     * libomp 14; a3 = 1 for libomp, 2 for a gcc-built program whose libgomp
     * calls the preload forwards to libomp). Sent once, before any other
     * OpenMP event, by the thread that initialises the runtime. */
    OMP_EV_TOOL_INIT = 1,
    /* ompt_callback_thread_begin/end: a2 = ompt_thread_t (1 initial,
     * 2 worker, 3 other). */
    OMP_EV_THREAD_BEGIN,
    OMP_EV_THREAD_END,
    /* ompt_callback_parallel_begin in the encountering thread:
     * a2 = parallel id, a3 = requested team size, a4 = flags (ompt_parallel_*),
     * a5 = codeptr. */
    OMP_EV_PARALLEL_BEGIN,
    /* ompt_callback_parallel_end in the encountering thread, after the join:
     * a2 = parallel id, a3 = flags, a4 = codeptr. */
    OMP_EV_PARALLEL_END,
    /* ompt_callback_implicit_task (ompt_scope_begin/end) in each team member:
     * a2 = parallel id (0 at the end of a team member's implicit task:
     *      OMPT gives no parallel data there),
     * a3 = actual team size (as OMPT gives it: libomp 14 passes 0 at the end
     *      in worker threads),
     * a4 = thread number in the team,
     * a5 = (implicit task id << 4) | (flags & 0xf), flags being
     *      ompt_task_initial (1) or ompt_task_implicit (2).
     * The initial task (flags 1) gets a parallel id of its own: the implicit
     * parallel region around the whole program, which has no PARALLEL_BEGIN. */
    OMP_EV_IMPLICIT_TASK_BEGIN,
    OMP_EV_IMPLICIT_TASK_END,
    /* ompt_callback_work: a2 = ompt_work_t (loop, sections, single_executor,
     * single_other, workshare, distribute, taskloop, scope), a3 = count
     * (iterations, sections...; as OMPT gives it), a4 = codeptr. */
    OMP_EV_WORK_BEGIN,
    OMP_EV_WORK_END,
    /* Dynamic and guided loops, which libomp 14 reports with no OMPT event,
     * seen at the runtime entry points (__kmpc_dispatch_init_*,
     * __kmpc_dispatch_next_*, GOMP_loop_*_start/next):
     * LOOP_INIT: a2 = lower bound, a3 = upper bound (inclusive), a4 = stride,
     *            a5 = schedule kind (OMP_SCHED_*, OMP_SCHED_ORDERED or-ed in
     *            for ordered loops) << 32 | chunk size (low 32 bits; 0 = none
     *            given).
     * CHUNK:     a2 = chunk lower bound, a3 = chunk upper bound (inclusive),
     *            sent when a dispatch call hands this thread a chunk.
     * LOOP_DONE: the dispatch call told this thread the loop is finished.
     * The bounds are what the compiler passes: clang normalises most loops
     * (0 .. trip count - 1, stride 1: chunks are logical iteration numbers),
     * gcc passes the loop variable's bounds and stride.
     * Bounds are 64-bit words: sign-extended for the signed entry points
     * (__kmpc_dispatch_*_4/_8, GOMP_loop_*), zero-extended for the unsigned
     * ones (_4u/_8u, GOMP_loop_ull_*). In each thread the order is
     * WORK_BEGIN, LOOP_INIT, CHUNK..., WORK_END, LOOP_DONE (WORK_* when the
     * runtime sends them; an empty GOMP loop gives LOOP_INIT, LOOP_DONE only).
     * The loop a CHUNK belongs to is the last LOOP_INIT of the thread's
     * current implicit task: a parallel region nested inside a chunk runs its
     * own loops between IMPLICIT_TASK_BEGIN and _END in the same thread,
     * after which the outer loop's CHUNKs resume with no new LOOP_INIT.
     * gcc code: the GOMP_loop_*_start and GOMP_parallel_loop_* entry points
     * take an exclusive end, converted here to the inclusive upper bound
     * (end - 1 for a positive stride, end + 1 for a negative one; the
     * ull entry points' stride is sent signed, -str when counting down).
     * Every CHUNK, gcc's included, is what libomp's __kmpc_dispatch_next_*
     * returned (GOMP_loop_*_start/next call __kmpc_dispatch_next_8/8u),
     * already inclusive: GOMP's own exclusive chunk ends are never used.
     * Combined constructs (GOMP_parallel_loop_*, GOMP_parallel_sections)
     * send the LOOP_INIT in each team member just before the outlined body
     * runs. The GOMP 1.0 entry points GOMP_parallel_loop_*_start and
     * GOMP_parallel_sections_start (not emitted by GCC since 4.9) are not
     * wrapped: their CHUNKs come without LOOP_INIT. gcc's sections
     * (GOMP_sections_start/next, GOMP_parallel_sections) are dispatched the
     * same way and sent as a loop of schedule OMP_SCHED_SECTIONS over
     * [1, number of sections] with chunk 1: each CHUNK [k, k] is the section
     * k (counting from 1) this thread runs. */
    OMP_EV_LOOP_INIT,
    OMP_EV_CHUNK,
    OMP_EV_LOOP_DONE,
    /* ompt_callback_sync_region / sync_region_wait (scope begin/end):
     * a2 = ompt_sync_region_t (barrier kinds, taskwait, taskgroup,
     * reduction), a3 = codeptr. */
    OMP_EV_SYNC_BEGIN,
    OMP_EV_SYNC_END,
    OMP_EV_SYNC_WAIT_BEGIN,
    OMP_EV_SYNC_WAIT_END,
    /* Mutual exclusion (critical, locks, nest locks, ordered, atomic if the
     * runtime reports it): a2 = ompt_mutex_t, a3 = wait id (the lock's
     * address or the critical's name variable), a4 = codeptr.
     * ACQUIRE: ompt_callback_mutex_acquire (about to wait);
     * ACQUIRED: ompt_callback_mutex_acquired, or nest_lock scope begin
     *           (a5 = 1 for a nested re-acquisition);
     * RELEASED: ompt_callback_mutex_released, or nest_lock scope end
     *           (a5 = 1 when the nest lock is still held after it). */
    OMP_EV_MUTEX_ACQUIRE,
    OMP_EV_MUTEX_ACQUIRED,
    OMP_EV_MUTEX_RELEASED,
    /* ompt_callback_masked (master in OpenMP < 5.1): a2 = codeptr.
     * gcc-built code tests the thread number inline: no event. */
    OMP_EV_MASKED_BEGIN,
    OMP_EV_MASKED_END,
    /* ompt_callback_task_create in the creating thread: a2 = new task id,
     * a3 = flags (ompt_task_flag_t), a4 = has_dependences, a5 = codeptr. */
    OMP_EV_TASK_CREATE,
    /* ompt_callback_dependences: a2 = task id, a3 = guest address of the
     * ompt_dependence_t array, a4 = number of entries. The tool reads the
     * array while handling the request. libomp also sends it for the
     * doacross constructs `ordered depend(sink: ...)` and
     * `ordered depend(source)`, each time a thread meets one: task id = the
     * thread's implicit task, types ompt_dependence_type_sink (6) /
     * _source (5), one entry per loop dimension describing the iteration
     * vector (not an address: not a task dependence). */
    OMP_EV_TASK_DEPENDENCES,
    /* ompt_callback_task_dependence (a pair the runtime found): a2 = source
     * task id, a3 = sink task id. */
    OMP_EV_TASK_DEPENDENCE,
    /* ompt_callback_task_schedule: a2 = prior task id, a3 =
     * ompt_task_status_t of the prior task, a4 = next task id. Implicit
     * tasks have ids too (IMPLICIT_TASK_BEGIN a5 >> 4): when a thread goes
     * back to its implicit task, a4 (or a2) is that task's id. 0 only when
     * OMPT gives no task data. */
    OMP_EV_TASK_SCHEDULE,
    /* At initialisation, for each callback the preload asked for and the
     * runtime refused (ompt_set_callback answered ompt_set_error, _never or
     * _impossible): a2 = the ompt_callbacks_t number, a3 = the answer.
     * Callbacks answered _sometimes, _sometimes_paired or _always are
     * registered and not listed. */
    OMP_EV_CALLBACK_UNAVAILABLE,
    /* An explicit task's descriptor, from the preload's wrapper of
     * __kmpc_omp_task_alloc in the creating thread, before the program
     * fills it in: a2 = first byte (the kmp_task_t), a3 = length (through
     * the end of its shareds block). The TASK_CREATE that follows in the
     * thread is that task's. a3 = 0: forget the last one (__kmpc_taskloop
     * creates its tasks from copies of it). a4 = 1: the block of the task
     * that is running, sent from inside it (gcc's GOMP_task allocates
     * inside the runtime; the preload learns the block when the task
     * starts): a2 = the program's part, a3 = its length. */
    OMP_EV_TASK_ALLOC,
    /* Programs built with -finstrument-functions: the preload replaces the
     * C library's (empty) __cyg_profile_func_enter/_exit hooks.
     * FUNC_ENTER: a2 = the function's address, a3 = its call site.
     * FUNC_EXIT:  a2 = the function's address, a3 = an address inside the
     *             function near its end (where it calls the exit hook).
     * Sent by any thread, OpenMP or not; the first FUNC_ENTER makes the tool
     * record region events even in a serial program. */
    OMP_EV_FUNC_ENTER,
    OMP_EV_FUNC_EXIT,
    /* The runtime found the preload's ompt_start_tool (a2 = omp_version):
     * sent from inside it, before the runtime initialises itself. The tool
     * starts streaming here, not at TOOL_INIT: what libomp does between the
     * two (its library registration formats the process id into an
     * environment variable with snprintf, which costs more instructions the
     * more digits the pid has) is then the runtime's, not the program's. */
    OMP_EV_RUNTIME_START,
    OMP_EV_KIND_END
} OmpEventKind;

/* Schedule kinds of OMP_EV_LOOP_INIT (a5 >> 32), from libomp's sched_type
 * (kmp.h): static (33, 34, 40, 41, 44, 45), dynamic (35), guided (36, 42, 43,
 * 46), runtime (37, 47; the chunks show what the runtime chose), auto (38),
 * other (39, trapezoidal); the ordered (65..71) and nomerge (160..199)
 * variants map likewise, ordered ones with OMP_SCHED_ORDERED. */
enum { OMP_SCHED_STATIC = 1, OMP_SCHED_DYNAMIC = 2, OMP_SCHED_GUIDED = 3, OMP_SCHED_RUNTIME = 4,
       OMP_SCHED_AUTO = 5, OMP_SCHED_OTHER = 6, OMP_SCHED_SECTIONS = 7,
       OMP_SCHED_ORDERED = 0x100 };

#endif
