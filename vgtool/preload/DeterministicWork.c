/* Part of vgpreload_ompsim-amd64-linux.so: under ompsim, which thread runs
 * which dynamic or guided chunk, and which thread runs a single construct,
 * no longer depends on timing (docs/openmp.md, "Fixed work assignment").
 *
 * Why: the replay gives chunks and single bodies to simulated cores by its
 * own rule, but what a chunk's stream contains depends on the thread that
 * recorded it. A thread's first chunk carries the loop's set-up code (clang
 * rotates the dispatch loop; gcc's GOMP_loop_*_start path runs 3 more
 * instructions), a thread that gets no chunk skips it, guided chunk sizes
 * follow the arrival order, and the 2 instructions that test a single's
 * result land in the body for the executor only. With the runtime's
 * first-come assignment these moved from run to run.
 *
 * Rule (valid OpenMP: any assignment is, and none blocks, because every
 * thread of a team meets every loop and single):
 * - dynamic, chunk c (default 1): chunk j = iterations [j*c, (j+1)*c) goes
 *   to thread j mod n; guided, minimum c: chunk j starts where chunk j-1
 *   ended, its size max(c, ceil(remaining / 2n)) (libomp's guided factor
 *   1/2n), and goes to thread j mod n. Runtime schedules use
 *   omp_get_schedule(); auto counts as guided. Static, ordered and other
 *   kinds keep the runtime's own (static is fixed already; ordered loops
 *   keep the runtime's per-chunk bookkeeping).
 * - single: thread 0 runs the body (OMPT's single events are sent from
 *   here, not from the runtime's guess). gcc's copyprivate single
 *   (GOMP_single_copy_start) keeps the runtime's choice.
 *
 * The runtime is still called: __kmpc_dispatch_init/GOMP_*_start set its
 * loop up, and when this file says a thread is done the wrapper drains the
 * runtime's own dispatcher (calls it until it answers 0), so its buffers,
 * lastprivate accounting and OMPT work-end events are as usual; __kmpc_single
 * and GOMP_single_start still count the construct.
 *
 * State is per thread and nesting level (omp_get_level, up to
 * kLevels): a parallel region nested in a chunk runs its own loops. */
#include "OmpPreload.h"
#include "ompsim.h"

/* libomp's API, reached only while the program runs an OpenMP construct
 * (weak: no load-time lookup in serial programs). */
extern int omp_get_thread_num(void) __attribute__((weak));
extern int omp_get_num_threads(void) __attribute__((weak));
extern int omp_get_level(void) __attribute__((weak));
extern void omp_get_schedule(int* kind, int* chunk) __attribute__((weak));

enum { kLevels = 8 };

struct FixedLoop {
    int on, guided;
    unsigned nth;             /* team size */
    omp_word lb;              /* first index */
    long st;                  /* stride */
    unsigned long n;          /* trip count */
    unsigned long chunk;      /* dynamic chunk / guided minimum */
    unsigned long next;       /* logical iteration of this thread's next chunk */
    unsigned long next_size;  /* its size (guided) */
};
static OMPSIM_TLS struct FixedLoop loops[kLevels];

static struct FixedLoop* level_loop(void) OMPSIM_UNSIM;
static struct FixedLoop* level_loop(void) {
    int l = omp_get_level ? omp_get_level() : 0;
    return l >= 0 && l < kLevels ? &loops[l] : 0;
}

static unsigned long trip_count(omp_word lb, omp_word ub, long st, int is_signed) OMPSIM_UNSIM;
static unsigned long trip_count(omp_word lb, omp_word ub, long st, int is_signed) {
    if (st > 0) {
        if (is_signed ? (long)ub < (long)lb : ub < lb) return 0;
        return (ub - lb) / (unsigned long)st + 1;
    }
    if (st < 0) {
        if (is_signed ? (long)lb < (long)ub : lb < ub) return 0;
        return (lb - ub) / (unsigned long)-st + 1;
    }
    return 0;
}

static unsigned long guided_size(const struct FixedLoop* f, unsigned long start) OMPSIM_UNSIM;
static unsigned long guided_size(const struct FixedLoop* f, unsigned long start) {
    unsigned long left = f->n - start, share = (left + 2UL * f->nth - 1) / (2UL * f->nth);
    unsigned long size = share > f->chunk ? share : f->chunk;
    return size < left ? size : left;
}

/* Moves f->next over `count` chunks of the sequence. */
static void skip_chunks(struct FixedLoop* f, unsigned long count) OMPSIM_UNSIM;
static void skip_chunks(struct FixedLoop* f, unsigned long count) {
    if (!f->guided) {
        unsigned long step = count * f->chunk;
        f->next = step / f->chunk != count || f->n - f->next <= step ? f->n : f->next + step;
        return;
    }
    while (count-- && f->next < f->n) f->next += guided_size(f, f->next);
}

OMPSIM_UNSIM int ompsim_fixed_begin(omp_word lb, omp_word ub_incl, long st, omp_word sched, int is_signed) {
    struct FixedLoop* f = level_loop();
    if (!f) return 0;
    f->on = 0;
    omp_word kind = sched >> 32;
    long chunk = (int)(sched & 0xffffffffUL);
    if (kind == OMP_SCHED_RUNTIME && omp_get_schedule) {
        int k = 0, c = 0;
        omp_get_schedule(&k, &c);
        k &= 0x7fffffff; /* omp_sched_monotonic */
        kind = k == 2 ? OMP_SCHED_DYNAMIC : k == 3 || k == 4 ? OMP_SCHED_GUIDED : OMP_SCHED_STATIC;
        chunk = c;
    } else if (kind == OMP_SCHED_AUTO) {
        kind = OMP_SCHED_GUIDED;
        chunk = 1;
    } else if (kind == OMP_SCHED_SECTIONS) {
        kind = OMP_SCHED_DYNAMIC;
    }
    if (kind != OMP_SCHED_DYNAMIC && kind != OMP_SCHED_GUIDED) return 0;
    if (!omp_get_thread_num || !omp_get_num_threads) return 0;
    f->guided = kind == OMP_SCHED_GUIDED;
    f->nth = (unsigned)omp_get_num_threads();
    f->lb = lb;
    f->st = st;
    f->n = trip_count(lb, ub_incl, st, is_signed);
    f->chunk = chunk > 0 ? (unsigned long)chunk : 1;
    f->next = 0;
    if (f->nth == 0) f->nth = 1;
    skip_chunks(f, (unsigned long)omp_get_thread_num());
    f->on = 1;
    return 1;
}

OMPSIM_UNSIM int ompsim_fixed_active(void) {
    struct FixedLoop* f = level_loop();
    return f && f->on;
}

OMPSIM_UNSIM int ompsim_fixed_next(omp_word* lb, omp_word* ub, long* st, int* last) {
    struct FixedLoop* f = level_loop();
    if (!f || !f->on) return 0;
    if (f->next >= f->n) {
        f->on = 0;
        return 0;
    }
    unsigned long size = f->guided ? guided_size(f, f->next) : f->n - f->next < f->chunk ? f->n - f->next : f->chunk;
    unsigned long first = f->next, final = first + size - 1;
    *lb = f->lb + first * (omp_word)f->st;
    *ub = f->lb + final * (omp_word)f->st;
    *st = f->st;
    *last = final == f->n - 1;
    skip_chunks(f, f->nth);
    return 1;
}

/* ---------------------------------------------------------------- single */


/* Set while the runtime's single entry point runs: OmptTool.c's work
 * callback drops the runtime's single events, this file sends its own. */
OMPSIM_TLS int ompsim_single_quiet;

static int single_decide(const void* ra) OMPSIM_UNSIM;
static int single_decide(const void* ra) {
    int mine = omp_get_thread_num && omp_get_thread_num() == 0;
    omp_word codeptr = (omp_word)ra - 1;
    if (mine) {
        ompsim_omp_event(OMP_EV_WORK_BEGIN, 3 /* ompt_work_single_executor */, 1, codeptr, 0);
    } else {
        ompsim_omp_event(OMP_EV_WORK_BEGIN, 4 /* ompt_work_single_other */, 1, codeptr, 0);
        ompsim_omp_event(OMP_EV_WORK_END, 4, 1, codeptr, 0);
    }
    return mine;
}

/* A wrapper of the runtime's single entry point `fn`: the runtime still
 * counts the construct (its events muted), then thread 0 is the executor. */
#define SINGLE_WRAP(fn, params, call)                          \
    LIBOMP_WRAPPER(W, fn, params) {                            \
        OrigFn orig;                                           \
        W r;                                                   \
        VALGRIND_GET_ORIG_FN(orig);                            \
        if (!ompsim_omp_active()) {                            \
            call;                                              \
            return r;                                          \
        }                                                      \
        ompsim_single_quiet = 1;                               \
        call;                                                  \
        ompsim_single_quiet = 0;                               \
        return single_decide(__builtin_return_address(0));     \
    }

/* kmp_int32 __kmpc_single(ident_t*, kmp_int32 gtid) */
SINGLE_WRAP(__kmpc_single, (void* loc, long gtid), CALL_FN_W_WW(r, orig, loc, gtid))
/* bool GOMP_single_start(void) */
SINGLE_WRAP(GOMP_single_start, (void), CALL_FN_W_v(r, orig))
