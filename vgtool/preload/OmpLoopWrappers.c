/* Part of vgpreload_ompsim-amd64-linux.so: the chunks of dynamic, guided
 * and runtime-scheduled loops, which libomp 14 reports with no OMPT event
 * (ompt_set_callback answers "never" for ompt_callback_dispatch). Valgrind
 * wraps libomp's dispatch entry points; each wrapper calls the real
 * function and sends OMP_EV_LOOP_INIT, OMP_EV_CHUNK or OMP_EV_LOOP_DONE
 * (vgtool/OmpEvents.h; docs/openmp.md, "Event intake").
 *
 * clang code calls __kmpc_dispatch_init_* once per thread and loop, then
 * __kmpc_dispatch_next_* until it returns 0. gcc code (GompForward.c runs it
 * on libomp) calls GOMP_loop_*_start, which initialises the loop and hands
 * out the first chunk, then GOMP_loop_*_next; combined constructs
 * (GOMP_parallel_loop_*, GOMP_parallel_sections) initialise the loop in
 * every thread of the new team before calling the outlined body. In libomp
 * all of them end in __kmpc_dispatch_next_8/8u, so the chunks of gcc code
 * come from the same wrapper as clang's (inclusive bounds, no conversion);
 * the GOMP wrappers only add the LOOP_INIT, with GOMP's exclusive end made
 * inclusive. Order in a thread: WORK_BEGIN (from OMPT), LOOP_INIT,
 * CHUNK..., WORK_END, LOOP_DONE.
 *
 * A GOMP_loop_*_start wrapper lets the runtime hand out the first chunk
 * before it can send the LOOP_INIT; the dispatch wrapper then keeps that
 * chunk (struct Deferred) and the GOMP wrapper sends it after the LOOP_INIT.
 *
 * The wrappers are in the unsimulated section (OmpPreload.h): only the
 * runtime's own instructions are simulated, as without the wrappers. Under
 * another tool they call through and send nothing. */
#include "OmpPreload.h"
#include "ompsim.h"

struct Deferred {
    int active; /* inside a GOMP *_start wrapper: keep the first dispatch result */
    int have;
    W ret;
    omp_word lb, ub;
};
static OMPSIM_TLS struct Deferred deferred;

/* ---------------------------------------------------------------- schedules */

OMPSIM_UNSIM omp_word ompsim_kmp_sched(int s) {
    s &= ~((1 << 29) | (1 << 30)); /* kmp_sch_modifier_monotonic / _nonmonotonic */
    omp_word ordered = 0;
    if (s >= 193 && s <= 199) { /* kmp_nm_ord_* */
        s -= 160;
        ordered = OMP_SCHED_ORDERED;
    } else if (s >= 160 && s < 193) { /* kmp_nm_* */
        s -= 128;
    } else if (s >= 64 && s < 91) { /* kmp_ord_* */
        s -= 32;
        ordered = OMP_SCHED_ORDERED;
    }
    switch (s) {
        case 33:
        case 34:
        case 40:
        case 41:
        case 44:
        case 45:
        case 91:
        case 92:
            return OMP_SCHED_STATIC | ordered;
        case 35:
            return OMP_SCHED_DYNAMIC | ordered;
        case 36:
        case 42:
        case 43:
        case 46:
            return OMP_SCHED_GUIDED | ordered;
        case 37:
        case 47:
            return OMP_SCHED_RUNTIME | ordered;
        case 38:
            return OMP_SCHED_AUTO | ordered;
        default:
            return OMP_SCHED_OTHER | ordered;
    }
}

static omp_word sched_word(omp_word kind, omp_word chunk) OMPSIM_UNSIM;
static omp_word sched_word(omp_word kind, omp_word chunk) { return kind << 32 | (chunk & 0xffffffffUL); }

/* ---------------------------------------------------------------- return addresses */

/* Only the outermost wrapper of a thread records its caller: a wrapped
 * function that libomp calls from another one (GOMP_loop_start calls
 * GOMP_loop_dynamic_start, which calls __kmpc_dispatch_next_8) keeps the
 * user's call site. The outlined body of a combined construct runs at depth
 * 0 again (combined_body). */
static OMPSIM_TLS int wrap_depth;
#define ENTER_RA()                                                                       \
    do {                                                                                 \
        if (wrap_depth++ == 0) ompsim_caller_ra = (omp_word)__builtin_return_address(0); \
    } while (0)
#define LEAVE_RA()                                   \
    do {                                             \
        if (--wrap_depth == 0) ompsim_caller_ra = 0; \
    } while (0)

/* ---------------------------------------------------------------- __kmpc_dispatch_* */

static void chunk_or_done(W r, omp_word lb, omp_word ub) OMPSIM_UNSIM;
static void chunk_or_done(W r, omp_word lb, omp_word ub) {
    if ((int)r)
        ompsim_omp_event(OMP_EV_CHUNK, lb, ub, 0, 0);
    else
        ompsim_omp_event(OMP_EV_LOOP_DONE, 0, 0, 0, 0);
}

/* void __kmpc_dispatch_init_<sfx>(ident_t*, kmp_int32 gtid, enum sched_type,
 *                                 T lb, T ub, ST st, ST chunk) */
#define DISPATCH_INIT(sfx, T, ST, SIGNED)                                                                              \
    LIBOMP_WRAPPER(void, __kmpc_dispatch_init_##sfx,                                                             \
                   (void* loc, int gtid, int sched, T lb, T ub, ST st, ST chunk)) {                              \
        OrigFn orig;                                                                                             \
        W r;                                                                                                     \
        VALGRIND_GET_ORIG_FN(orig);                                                                              \
        ENTER_RA();                                                                                              \
        CALL_FN_W_7W(r, orig, loc, gtid, sched, lb, ub, st, chunk);                                              \
        LEAVE_RA();                                                                                              \
        (void)r;                                                                                                 \
        if (ompsim_omp_active()) {                                                                               \
            omp_word sw = sched_word(ompsim_kmp_sched(sched), (omp_word)chunk);                                  \
            ompsim_omp_event(OMP_EV_LOOP_INIT, (omp_word)lb, (omp_word)ub, (omp_word)(long)st, sw);              \
            ompsim_fixed_begin((omp_word)lb, (omp_word)ub, (long)st, sw, SIGNED);                                \
        }                                                                                                        \
    }

/* int __kmpc_dispatch_next_<sfx>(ident_t*, kmp_int32 gtid, kmp_int32* p_last,
 *                                T* p_lb, T* p_ub, ST* p_st) */
#define DISPATCH_NEXT(sfx, T, ST)                                                                                   \
    LIBOMP_WRAPPER(W, __kmpc_dispatch_next_##sfx,                                                                   \
                   (void* loc, int gtid, int* last, T* p_lb, T* p_ub, ST* p_st)) {                                  \
        OrigFn orig;                                                                                                \
        W r;                                                                                                        \
        VALGRIND_GET_ORIG_FN(orig);                                                                                 \
        ENTER_RA();                                                                                                 \
        if (ompsim_omp_active() && ompsim_fixed_active()) {                                                         \
            omp_word flb, fub;                                                                                      \
            long fst;                                                                                               \
            int flast;                                                                                              \
            r = ompsim_fixed_next(&flb, &fub, &fst, &flast);                                                        \
            if (r) {                                                                                                \
                *p_lb = (T)flb;                                                                                     \
                *p_ub = (T)fub;                                                                                     \
                if (p_st) *p_st = (ST)fst;                                                                          \
                if (last) *last = flast;                                                                            \
            } else {                                                                                                \
                int dl;                                                                                             \
                T dlb, dub;                                                                                         \
                ST dst;                                                                                             \
                do CALL_FN_W_6W(r, orig, loc, gtid, &dl, &dlb, &dub, &dst);                                         \
                while ((int)r);                                                                                     \
            }                                                                                                       \
        } else {                                                                                                    \
            CALL_FN_W_6W(r, orig, loc, gtid, last, p_lb, p_ub, p_st);                                               \
        }                                                                                                           \
        LEAVE_RA();                                                                                                 \
        if (ompsim_omp_active()) {                                                                                  \
            omp_word lb = (int)r ? (omp_word)*p_lb : 0, ub = (int)r ? (omp_word)*p_ub : 0;                          \
            if (deferred.active && !deferred.have) {                                                                \
                deferred.have = 1;                                                                                  \
                deferred.ret = r;                                                                                   \
                deferred.lb = lb;                                                                                   \
                deferred.ub = ub;                                                                                   \
            } else {                                                                                                \
                chunk_or_done(r, lb, ub);                                                                           \
            }                                                                                                       \
        }                                                                                                           \
        return r;                                                                                                   \
    }

typedef int kmp_int32;
typedef unsigned kmp_uint32;
typedef long kmp_int64;
typedef unsigned long kmp_uint64;

DISPATCH_INIT(4, kmp_int32, kmp_int32, 1)
DISPATCH_INIT(4u, kmp_uint32, kmp_int32, 0)
DISPATCH_INIT(8, kmp_int64, kmp_int64, 1)
DISPATCH_INIT(8u, kmp_uint64, kmp_int64, 0)
DISPATCH_NEXT(4, kmp_int32, kmp_int32)
DISPATCH_NEXT(4u, kmp_uint32, kmp_int32)
DISPATCH_NEXT(8, kmp_int64, kmp_int64)
DISPATCH_NEXT(8u, kmp_uint64, kmp_int64)

/* ---------------------------------------------------------------- GOMP_loop_*_start */

/* Before the real GOMP start function: keep the first dispatch result. */
static struct Deferred defer_begin(void) OMPSIM_UNSIM;
static struct Deferred defer_begin(void) {
    struct Deferred saved = deferred;
    deferred.active = 1;
    deferred.have = 0;
    return saved;
}

/* After it: LOOP_INIT, then the first chunk or LOOP_DONE (an empty loop
 * never reaches the dispatcher). */
static void defer_end(struct Deferred saved, omp_word lb, omp_word ub_incl, omp_word st, omp_word sched) OMPSIM_UNSIM;
static void defer_end(struct Deferred saved, omp_word lb, omp_word ub_incl, omp_word st, omp_word sched) {
    struct Deferred d = deferred;
    deferred = saved;
    if (!ompsim_omp_active()) return;
    ompsim_omp_event(OMP_EV_LOOP_INIT, lb, ub_incl, st, sched);
    if (d.have)
        chunk_or_done(d.ret, d.lb, d.ub);
    else
        ompsim_omp_event(OMP_EV_LOOP_DONE, 0, 0, 0, 0);
}

/* A nested GOMP wrapper (libomp's GOMP_loop_start calls
 * GOMP_loop_dynamic_start, ...) reports; the outer one only passes its
 * caller's return address on. */

/* A wrapper of libomp's `fn` that records its caller's return address
 * around the call (ENTER_RA/LEAVE_RA): `params` its parameter list,
 * `before` and `after` statements around `call`, the call of the real
 * function (into r). */
#define RA_WRAP(fn, params, before, call, after)               \
    LIBOMP_WRAPPER(W, fn, params) {                            \
        OrigFn orig;                                           \
        W r;                                                   \
        VALGRIND_GET_ORIG_FN(orig);                            \
        ENTER_RA();                                            \
        before;                                                \
        call;                                                  \
        LEAVE_RA();                                            \
        after;                                                 \
        return r;                                              \
    }

/* A GOMP_*_start wrapper: LOOP_INIT with the loop's first index, inclusive
 * last index, stride and schedule word, then the deferred first chunk. */
#define DEFERRED_START(fn, params, call, lb_, ub_incl, st_, sched_) \
    DEFERRED_START_S(fn, params, call, lb_, ub_incl, st_, sched_, 1)
/* ... with the loop's signedness (the ull entry points: 0). The fixed
 * assignment (DeterministicWork.c) is set up before the runtime's start
 * function asks the dispatcher for the first chunk. */
#define DEFERRED_START_S(fn, params, call, lb_, ub_incl, st_, sched_, SIGNED)                          \
    RA_WRAP(fn, params, struct Deferred saved = defer_begin();                                         \
            if (ompsim_omp_active()) ompsim_fixed_begin(lb_, ub_incl, (long)(st_), sched_, SIGNED), call, \
            defer_end(saved, lb_, ub_incl, st_, sched_))

/* GOMP's end is exclusive. */
#define GOMP_LAST(ub, str) ((omp_word)((str) > 0 ? (ub)-1 : (ub) + 1))

/* int GOMP_loop_<name>_start(long lb, long ub, long str, long chunk, long* p_lb, long* p_ub) */
#define GOMP_START(name, kind)                                                                          \
    DEFERRED_START(GOMP_loop_##name##_start,                                                            \
                   (long lb, long ub, long str, long chunk, long* p_lb, long* p_ub),                   \
                   CALL_FN_W_6W(r, orig, lb, ub, str, chunk, p_lb, p_ub), (omp_word)lb, GOMP_LAST(ub, str), \
                   (omp_word)str, sched_word(kind, (omp_word)chunk))

/* int GOMP_loop_<name>_start(long lb, long ub, long str, long* p_lb, long* p_ub) */
#define GOMP_RUNTIME_START(name, kind)                                                                    \
    DEFERRED_START(GOMP_loop_##name##_start, (long lb, long ub, long str, long* p_lb, long* p_ub),        \
                   CALL_FN_W_5W(r, orig, lb, ub, str, p_lb, p_ub), (omp_word)lb, GOMP_LAST(ub, str),     \
                   (omp_word)str, sched_word(kind, 0))

/* The unsigned long long loops: `up` (a bool) tells the direction, str is
 * the magnitude of the step (libomp: stride = up ? str : -str). */
typedef unsigned long long ull;
#define ULL_UB(up, ub) ((omp_word)((unsigned char)(up) ? (ub)-1 : (ub) + 1))
#define ULL_ST(up, str) ((omp_word)((unsigned char)(up) ? (long long)(str) : -(long long)(str)))

/* int GOMP_loop_ull_<name>_start(bool up, ull lb, ull ub, ull str, ull chunk, ull* p_lb, ull* p_ub) */
#define GOMP_ULL_START(name, kind)                                                                       \
    DEFERRED_START_S(GOMP_loop_ull_##name##_start,                                                         \
                   (long up, ull lb, ull ub, ull str, ull chunk, ull* p_lb, ull* p_ub),                  \
                   CALL_FN_W_7W(r, orig, up, lb, ub, str, chunk, p_lb, p_ub), (omp_word)lb, ULL_UB(up, ub), \
                   ULL_ST(up, str), sched_word(kind, (omp_word)chunk), 0)

/* int GOMP_loop_ull_<name>_start(bool up, ull lb, ull ub, ull str, ull* p_lb, ull* p_ub) */
#define GOMP_ULL_RUNTIME_START(name, kind)                                                                   \
    DEFERRED_START_S(GOMP_loop_ull_##name##_start, (long up, ull lb, ull ub, ull str, ull* p_lb, ull* p_ub),   \
                   CALL_FN_W_6W(r, orig, up, lb, ub, str, p_lb, p_ub), (omp_word)lb, ULL_UB(up, ub),        \
                   ULL_ST(up, str), sched_word(kind, 0), 0)

/* doacross (ordered(n)) loops: the outermost loop, [0, counts[0]) step 1.
 * int GOMP_loop_doacross_<name>_start(unsigned n, long* counts, long chunk, long* p_lb, long* p_ub) */
#define GOMP_DOACROSS_START(ull_, T, kind)                                                              \
    DEFERRED_START(GOMP_loop_##ull_##doacross_##kind##_start, (long n, T* counts, T chunk, T* p_lb, T* p_ub), \
                   CALL_FN_W_5W(r, orig, n, counts, chunk, p_lb, p_ub), 0, (omp_word)counts[0] - 1, 1,   \
                   sched_word(DOACROSS_##kind, (omp_word)chunk))
#define GOMP_DOACROSS_RUNTIME_START(ull_, T)                                                          \
    DEFERRED_START(GOMP_loop_##ull_##doacross_runtime_start, (long n, T* counts, T* p_lb, T* p_ub),   \
                   CALL_FN_W_WWWW(r, orig, n, counts, p_lb, p_ub), 0, (omp_word)counts[0] - 1, 1,     \
                   sched_word(OMP_SCHED_RUNTIME, 0))
#define DOACROSS_static OMP_SCHED_STATIC
#define DOACROSS_dynamic OMP_SCHED_DYNAMIC
#define DOACROSS_guided OMP_SCHED_GUIDED

#define SCH_S OMP_SCHED_STATIC
#define SCH_D OMP_SCHED_DYNAMIC
#define SCH_G OMP_SCHED_GUIDED
#define SCH_R OMP_SCHED_RUNTIME
#define SCH_O OMP_SCHED_ORDERED

GOMP_START(static, SCH_S)
GOMP_START(dynamic, SCH_D)
GOMP_START(guided, SCH_G)
GOMP_START(nonmonotonic_dynamic, SCH_D)
GOMP_START(nonmonotonic_guided, SCH_G)
GOMP_START(ordered_static, SCH_S | SCH_O)
GOMP_START(ordered_dynamic, SCH_D | SCH_O)
GOMP_START(ordered_guided, SCH_G | SCH_O)
GOMP_RUNTIME_START(runtime, SCH_R)
GOMP_RUNTIME_START(maybe_nonmonotonic_runtime, SCH_R)
GOMP_RUNTIME_START(nonmonotonic_runtime, SCH_R)
GOMP_RUNTIME_START(ordered_runtime, SCH_R | SCH_O)

GOMP_ULL_START(static, SCH_S)
GOMP_ULL_START(dynamic, SCH_D)
GOMP_ULL_START(guided, SCH_G)
GOMP_ULL_START(nonmonotonic_dynamic, SCH_D)
GOMP_ULL_START(nonmonotonic_guided, SCH_G)
GOMP_ULL_START(ordered_static, SCH_S | SCH_O)
GOMP_ULL_START(ordered_dynamic, SCH_D | SCH_O)
GOMP_ULL_START(ordered_guided, SCH_G | SCH_O)
GOMP_ULL_RUNTIME_START(runtime, SCH_R)
GOMP_ULL_RUNTIME_START(maybe_nonmonotonic_runtime, SCH_R)
GOMP_ULL_RUNTIME_START(nonmonotonic_runtime, SCH_R)
GOMP_ULL_RUNTIME_START(ordered_runtime, SCH_R | SCH_O)

GOMP_DOACROSS_START(, long, static)
GOMP_DOACROSS_START(, long, dynamic)
GOMP_DOACROSS_START(, long, guided)
GOMP_DOACROSS_RUNTIME_START(, long)
GOMP_DOACROSS_START(ull_, ull, static)
GOMP_DOACROSS_START(ull_, ull, dynamic)
GOMP_DOACROSS_START(ull_, ull, guided)
GOMP_DOACROSS_RUNTIME_START(ull_, ull)

/* unsigned GOMP_sections_start(unsigned count): section numbers 1..count,
 * 0 = no more. */
DEFERRED_START(GOMP_sections_start, (long count), CALL_FN_W_W(r, orig, count), 1, (unsigned)count, 1,
               sched_word(OMP_SCHED_SECTIONS, 1))

/* The generic entry points GCC 9+ calls for loops with task reductions and
 * the like delegate to the ones above; their wrappers only record the
 * user's call site for the codeptr of the runtime's events. */
#define PARAMS3 (long a1, long a2, long a3)
#define ARGS3 a1, a2, a3
#define PARAMS8 (long a1, long a2, long a3, long a4, long a5, long a6, long a7, long a8)
#define ARGS8 a1, a2, a3, a4, a5, a6, a7, a8
#define PARAMS9 (long a1, long a2, long a3, long a4, long a5, long a6, long a7, long a8, long a9)
#define ARGS9 a1, a2, a3, a4, a5, a6, a7, a8, a9
#define PARAMS10 (long a1, long a2, long a3, long a4, long a5, long a6, long a7, long a8, long a9, long a10)
#define ARGS10 a1, a2, a3, a4, a5, a6, a7, a8, a9, a10
#define PASS_THROUGH(fn, params, args, call) RA_WRAP(fn, params, (void)0, call(r, orig, args), (void)0)
PASS_THROUGH(GOMP_loop_start, PARAMS9, ARGS9, CALL_FN_W_9W)
PASS_THROUGH(GOMP_loop_ordered_start, PARAMS9, ARGS9, CALL_FN_W_9W)
PASS_THROUGH(GOMP_loop_ull_start, PARAMS10, ARGS10, CALL_FN_W_10W)
PASS_THROUGH(GOMP_loop_ull_ordered_start, PARAMS10, ARGS10, CALL_FN_W_10W)
PASS_THROUGH(GOMP_loop_doacross_start, PARAMS8, ARGS8, CALL_FN_W_8W)
PASS_THROUGH(GOMP_loop_ull_doacross_start, PARAMS8, ARGS8, CALL_FN_W_8W)
PASS_THROUGH(GOMP_sections2_start, PARAMS3, ARGS3, CALL_FN_W_WWW)

/* ---------------------------------------------------------------- combined constructs */

/* GOMP_parallel_loop_* and GOMP_parallel_sections initialise the loop in
 * each thread of the new team (libomp's microtask wrapper, or the primary
 * thread after the fork) and then call the outlined body. The wrapper hands
 * the runtime a body of its own, which sends the LOOP_INIT in that thread
 * and calls the real body. The record lives in the wrapper's frame: these
 * functions return after the region has ended. */
struct Combined {
    void (*fn)(void*);
    void* data;
    omp_word lb, ub, st, sched;
};

static void combined_body(void* p) OMPSIM_UNSIM;
static void combined_body(void* p) {
    struct Combined* c = (struct Combined*)p;
    int depth = wrap_depth;
    omp_word ra = ompsim_caller_ra;
    wrap_depth = 0;
    ompsim_caller_ra = 0;
    ompsim_omp_event(OMP_EV_LOOP_INIT, c->lb, c->ub, c->st, c->sched);
    ompsim_fixed_begin(c->lb, c->ub, (long)c->st, c->sched, 1);
    c->fn(c->data);
    wrap_depth = depth;
    ompsim_caller_ra = ra;
}

/* A combined construct's wrapper: `params` starts with fn and data; the
 * loop's first index, inclusive last index, stride and schedule word; CALL
 * and the arguments after fn and data for the real function. */
#define COMBINED(name, params, lb_, ub_incl, st_, sched_, CALL, ...)         \
    LIBOMP_WRAPPER(void, name, params) {                                     \
        OrigFn orig;                                                         \
        W r;                                                                 \
        VALGRIND_GET_ORIG_FN(orig);                                          \
        struct Combined c = {fn, data, lb_, ub_incl, st_, sched_};           \
        ENTER_RA();                                                          \
        if (ompsim_omp_active())                                             \
            CALL(r, orig, combined_body, &c, __VA_ARGS__);                   \
        else                                                                 \
            CALL(r, orig, fn, data, __VA_ARGS__);                            \
        LEAVE_RA();                                                          \
        (void)r;                                                             \
    }

/* void GOMP_parallel_loop_<name>(fn, data, unsigned nthreads, long lb, long ub, long str, long chunk, unsigned flags)
 */
#define GOMP_PARALLEL_LOOP(name, kind)                                                                          \
    COMBINED(GOMP_parallel_loop_##name,                                                                         \
             (void (*fn)(void*), void* data, long nthreads, long lb, long ub, long str, long chunk, long flags), \
             (omp_word)lb, GOMP_LAST(ub, str), (omp_word)str, sched_word(kind, (omp_word)chunk), CALL_FN_W_8W,   \
             nthreads, lb, ub, str, chunk, flags)

/* void GOMP_parallel_loop_<name>(fn, data, unsigned nthreads, long lb, long ub, long str, unsigned flags) */
#define GOMP_PARALLEL_LOOP_RUNTIME(name)                                                                         \
    COMBINED(GOMP_parallel_loop_##name,                                                                          \
             (void (*fn)(void*), void* data, long nthreads, long lb, long ub, long str, long flags), (omp_word)lb, \
             GOMP_LAST(ub, str), (omp_word)str, sched_word(OMP_SCHED_RUNTIME, 0), CALL_FN_W_7W, nthreads, lb, ub, \
             str, flags)

GOMP_PARALLEL_LOOP(static, SCH_S)
GOMP_PARALLEL_LOOP(dynamic, SCH_D)
GOMP_PARALLEL_LOOP(guided, SCH_G)
GOMP_PARALLEL_LOOP(nonmonotonic_dynamic, SCH_D)
GOMP_PARALLEL_LOOP(nonmonotonic_guided, SCH_G)
GOMP_PARALLEL_LOOP_RUNTIME(runtime)
GOMP_PARALLEL_LOOP_RUNTIME(maybe_nonmonotonic_runtime)
GOMP_PARALLEL_LOOP_RUNTIME(nonmonotonic_runtime)

/* void GOMP_parallel_sections(fn, data, unsigned nthreads, unsigned count, unsigned flags) */
COMBINED(GOMP_parallel_sections, (void (*fn)(void*), void* data, long nthreads, long count, long flags), 1,
         (unsigned)count, 1, sched_word(OMP_SCHED_SECTIONS, 1), CALL_FN_W_5W, nthreads, count, flags)
