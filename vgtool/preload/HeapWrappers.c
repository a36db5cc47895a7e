/* Part of vgpreload_ompsim-amd64-linux.so, which Valgrind preloads into every
 * client of the tool. It wraps (does not replace) the allocation functions:
 * each wrapper calls the real function and then tells the tool what it did
 * with a client request, so the tool can group heap blocks into data
 * structures by allocation site.
 *
 * Wrapping rather than replacing keeps the program's own allocator and its
 * address layout, and the library runs unchanged under other tools
 * (Cachegrind ignores the requests): tests/integration/cg_parity.sh runs
 * Cachegrind with this library in LD_PRELOAD so both tools see the same
 * client. A per-thread depth counter keeps nested calls (realloc of NULL
 * calls malloc) from reporting one block twice.
 *
 * The wrappers are plain functions, ompsim_hook_<name> (vgtool/HeapHookList.h).
 * The tool sends the C library's calls to them as it translates the
 * functions (vgtool/HeapHooks.h), where they are in force (with
 * --monitor=yes, and in OpenMP programs: vgtool/HeapWrapping.h); a call
 * from a wrapper goes on to the real function, found in a table the tool
 * fills once. Under other tools nothing calls them. (Valgrind's function
 * wrapping, used until 2026-11-29, reached the real function through a
 * no-redirect jump: a trip through its scheduler per call.)
 *
 * Once an OpenMP runtime has registered the OMPT tool, the C library's
 * allocation functions serve requests from the runtime's code from a heap
 * of their own (RuntimeHeap.c), unreported.
 *
 * The wrappers are the tool's instrumentation, not the program: all of
 * their code is in the section "ompsim_heap_wrappers", which ompsim finds in
 * this file (vgtool/WrapperCode) and neither simulates nor counts unless
 * --simulate-wrappers=yes. In containers 100000 4 they were 218 M of 796 M
 * simulated instructions when Valgrind's wrapping called the real function
 * (about 55 per malloc and 60 per free: the register saves of CALL_FN_*,
 * VALGRIND_GET_ORIG_FN, the nesting counter), and HeapWrappers.c:free was
 * the fourth function of the profile; alloc_calls' 20,000 calls now add
 * about 52 each (tests/integration/wrappers.sh). Nothing
 * here tells the tool where the section is, so the program runs the same
 * instructions under every tool. */
#include <stddef.h>
#include <string.h>

#include "HeapHookList.h"
#include "ompsim.h"

#define WRAPPER_CODE __attribute__((section("ompsim_heap_wrappers"), noinline))

/* initial-exec: the library is preloaded, so its TLS block is static and
 * `depth` is one %fs-relative access; the default (general-dynamic, for
 * -fPIC) called __tls_get_addr on every ++/--, 75 M of the 904 M
 * instructions of bench/kernels/containers, counted in its profile. */
static __thread int depth __attribute__((tls_model("initial-exec")));

/* The C library's functions (the order of HeapHookList.h), asked of the
 * tool at the first wrapped call: only the tool sends calls here, and only
 * for the functions it found. */
static unsigned long real[OMPSIM_HOOK_COUNT];
WRAPPER_CODE __attribute__((cold)) static void ask_real(void) {
    unsigned long t[OMPSIM_HOOK_COUNT] = {0};
    (void)VALGRIND_DO_CLIENT_REQUEST_EXPR(0, OMPSIM_USERREQ_HEAP_REAL_FNS, t, 0, 0, 0, 0);
    for (int k = 0; k < OMPSIM_HOOK_COUNT; ++k) __atomic_store_n(&real[k], t[k], __ATOMIC_RELAXED);
}
static inline unsigned long real_fn(int k) {
    unsigned long f = __atomic_load_n(&real[k], __ATOMIC_RELAXED);
    if (__builtin_expect(f == 0, 0)) {
        ask_real();
        f = __atomic_load_n(&real[k], __ATOMIC_RELAXED);
    }
    return f;
}
#define REAL(fn, type) ((type)real_fn(OMPSIM_HOOK_##fn))

/* RuntimeHeap.c. Its code is in the section "ompsim_unsimulated", which
 * only an OpenMP program registers: the two tests every wrapper makes are
 * inline here, on RuntimeHeap's variables, so a serial program's wrappers
 * run no code outside their own section. */
__attribute__((visibility("hidden"))) extern int ompsim_rt_heap_on;
__attribute__((visibility("hidden"))) extern unsigned long ompsim_rt_code_lo, ompsim_rt_code_hi;
__attribute__((visibility("hidden"))) extern char *ompsim_rt_base, *ompsim_rt_end;
__attribute__((visibility("hidden"))) void* ompsim_rt_alloc(size_t n, size_t align);
__attribute__((visibility("hidden"))) size_t ompsim_rt_usable(const void* p);
__attribute__((visibility("hidden"))) void ompsim_rt_free(void* p);

/* `n` bytes with `align` from the runtime's heap if the wrapper's caller
 * (return address `ra`) is the OpenMP runtime; NULL otherwise (or if that
 * heap cannot serve it). */
static inline void* runtime_alloc(size_t n, size_t align, const void* ra) {
    return ompsim_rt_heap_on && !depth && (unsigned long)ra - ompsim_rt_code_lo < ompsim_rt_code_hi - ompsim_rt_code_lo
               ? ompsim_rt_alloc(n, align)
               : NULL;
}

/* Whether `p` is a block of RuntimeHeap's. */
static inline int runtime_owns(const void* p) {
    return ompsim_rt_base && (const char*)p >= ompsim_rt_base && (const char*)p < ompsim_rt_end;
}

/* Whether the tool groups heap blocks (--monitor=yes), asked once: that is
 * fixed for the run, and each report is a client request, a trip to
 * Valgrind's scheduler at every malloc and free even when nothing is done
 * with it (bench/kernels/containers with --monitor=no: 9.46 s -> 8.78 s).
 * (ompsim handles the reports themselves inside the wrappers' translations,
 * without the trip: vgtool/Instrumenter.cpp, add_heap_request.) Under other
 * tools and natively the answer is 0, so
 * Cachegrind with this library (cg_parity.sh) runs the same code as
 * ompsim without the monitor. */
static int tracking = -1;
WRAPPER_CODE __attribute__((cold)) static int ask_tracking(void) {
    int t = (int)VALGRIND_DO_CLIENT_REQUEST_EXPR(0, OMPSIM_USERREQ_HEAP_TRACKING, 0, 0, 0, 0, 0);
    __atomic_store_n(&tracking, t, __ATOMIC_RELAXED);
    return t;
}
static inline int heap_tracked(void) {
    int t = __atomic_load_n(&tracking, __ATOMIC_RELAXED);
    return __builtin_expect(t >= 0, 1) ? t : ask_tracking();
}

static inline void report_alloc(void* p, size_t n) {
    if (heap_tracked() && p && depth == 0)
        VALGRIND_DO_CLIENT_REQUEST_STMT(OMPSIM_USERREQ_HEAP_ALLOC, p, n, 0, 0, 0);
}
static inline void report_free(void* p) {
    if (heap_tracked() && p && depth == 0)
        VALGRIND_DO_CLIENT_REQUEST_STMT(OMPSIM_USERREQ_HEAP_FREE, p, 0, 0, 0, 0);
}

/* The C library's functions first offer the runtime its own heap
 * (`align` 0 or not a power of two: never). */
#define RT_FIRST(n, align)                                        \
    do {                                                          \
        size_t al_ = (align);                                     \
        if (al_ && !(al_ & (al_ - 1))) {                          \
            void* rt = runtime_alloc((n), al_, __builtin_return_address(0)); \
            if (rt) return rt;                                    \
        }                                                         \
    } while (0)

/* void* f(size_t) : malloc, valloc, pvalloc */
#define WRAP_ALLOC1(fn, rt_align)                                \
    void* ompsim_hook_##fn(size_t n) WRAPPER_CODE;               \
    void* ompsim_hook_##fn(size_t n) {                           \
        void* r;                                                 \
        RT_FIRST(n, rt_align);                                   \
        ++depth;                                                 \
        r = REAL(fn, void* (*)(size_t))(n);                      \
        --depth;                                                 \
        report_alloc(r, n);                                      \
        return r;                                                \
    }

/* void* f(size_t, X) : memalign and aligned_alloc (align first) */
#define WRAP_ALLOC2(fn, size_arg, rt_align)                      \
    void* ompsim_hook_##fn(size_t a, size_t b) WRAPPER_CODE;     \
    void* ompsim_hook_##fn(size_t a, size_t b) {                 \
        void* r;                                                 \
        RT_FIRST(size_arg, rt_align);                            \
        ++depth;                                                 \
        r = REAL(fn, void* (*)(size_t, size_t))(a, b);           \
        --depth;                                                 \
        report_alloc(r, size_arg);                               \
        return r;                                                \
    }

/* void f(void*) : free and cfree */
#define WRAP_FREE(fn)                                            \
    void ompsim_hook_##fn(void* p) WRAPPER_CODE;                 \
    void ompsim_hook_##fn(void* p) {                             \
        if (runtime_owns(p)) {                                   \
            ompsim_rt_free(p);                                   \
            return;                                              \
        }                                                        \
        report_free(p);                                          \
        ++depth;                                                 \
        REAL(fn, void (*)(void*))(p);                            \
        --depth;                                                 \
    }

WRAP_ALLOC1(malloc, 16)
WRAP_ALLOC1(valloc, 4096)
WRAP_ALLOC1(pvalloc, 4096)
WRAP_ALLOC2(memalign, b, a)
WRAP_ALLOC2(aligned_alloc, b, a)
WRAP_FREE(free)
WRAP_FREE(cfree)

void* ompsim_hook_calloc(size_t a, size_t b) WRAPPER_CODE;
void* ompsim_hook_calloc(size_t a, size_t b) {
    void* r;
    if (!b || a <= (size_t)-1 / b) {
        r = runtime_alloc(a * b, 16, __builtin_return_address(0));
        if (r) {
            memset(r, 0, a * b);
            return r;
        }
    }
    ++depth;
    r = REAL(calloc, void* (*)(size_t, size_t))(a, b);
    --depth;
    report_alloc(r, a * b);
    return r;
}

void* ompsim_hook_realloc(void* p, size_t n) WRAPPER_CODE;
void* ompsim_hook_realloc(void* p, size_t n) {
    void* (*real_realloc)(void*, size_t) = REAL(realloc, void* (*)(void*, size_t));
    void* r;
    if (runtime_owns(p)) {
        /* A runtime block grows within the runtime's heap (or, past its
         * largest class, into glibc's, unreported). */
        size_t old = ompsim_rt_usable(p);
        if (n <= old) return p;
        r = ompsim_rt_alloc(n, 16);
        if (!r) {
            ++depth;
            r = real_realloc(0, n);
            --depth;
        }
        if (r) {
            memcpy(r, p, old);
            ompsim_rt_free(p);
        }
        return r;
    }
    if (!p) RT_FIRST(n, 16);
    ++depth;
    r = real_realloc(p, n);
    --depth;
    /* A failed realloc leaves the old block alone. */
    if (r || n == 0) report_free(p);
    report_alloc(r, n);
    return r;
}

int ompsim_hook_posix_memalign(void** out, size_t align, size_t n) WRAPPER_CODE;
int ompsim_hook_posix_memalign(void** out, size_t align, size_t n) {
    int r;
    if (align >= sizeof(void*) && !(align & (align - 1))) {
        void* rt = runtime_alloc(n, align, __builtin_return_address(0));
        if (rt) {
            *out = rt;
            return 0;
        }
    }
    ++depth;
    r = REAL(posix_memalign, int (*)(void**, size_t, size_t))(out, align, n);
    --depth;
    if (r == 0) report_alloc(*out, n);
    return r;
}

/* C++'s operator new and delete are not wrapped: libstdc++'s call
 * malloc, aligned_alloc and free, wrapped above (when a wrapper's call of
 * the real function was a trip through Valgrind's scheduler, wrapping both
 * cost containers 100000 4 4.63 s against 4.31 s). The monitor leaves
 * libstdc++'s operator new frames out of a block's allocation site
 * (vgtool/DataStructures.cpp). */
