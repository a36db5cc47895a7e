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
 * client. A per-thread depth counter keeps nested calls (operator new calls
 * malloc) from reporting one block twice. */
#include <stddef.h>

#include "ompsim.h"

static __thread int depth;

#define LIBC libcZdsoZa
#define LIBSTDCXX libstdcZpZpZa

static void report_alloc(void* p, size_t n) {
    if (p && depth == 0) VALGRIND_DO_CLIENT_REQUEST_STMT(OMPSIM_USERREQ_HEAP_ALLOC, p, n, 0, 0, 0);
}
static void report_free(void* p) {
    if (p && depth == 0) VALGRIND_DO_CLIENT_REQUEST_STMT(OMPSIM_USERREQ_HEAP_FREE, p, 0, 0, 0, 0);
}

/* void* f(size_t) : malloc, valloc, operator new and new[] */
#define WRAP_ALLOC1(soname, fn)                                  \
    void* I_WRAP_SONAME_FNNAME_ZU(soname, fn)(size_t n);         \
    void* I_WRAP_SONAME_FNNAME_ZU(soname, fn)(size_t n) {        \
        OrigFn orig;                                             \
        void* r;                                                 \
        VALGRIND_GET_ORIG_FN(orig);                              \
        ++depth;                                                 \
        CALL_FN_W_W(r, orig, n);                                 \
        --depth;                                                 \
        report_alloc(r, n);                                      \
        return r;                                                \
    }

/* void* f(size_t, X) : aligned or nothrow operator new, memalign (align first) */
#define WRAP_ALLOC2(soname, fn, size_arg)                        \
    void* I_WRAP_SONAME_FNNAME_ZU(soname, fn)(size_t a, size_t b); \
    void* I_WRAP_SONAME_FNNAME_ZU(soname, fn)(size_t a, size_t b) { \
        OrigFn orig;                                             \
        void* r;                                                 \
        VALGRIND_GET_ORIG_FN(orig);                              \
        ++depth;                                                 \
        CALL_FN_W_WW(r, orig, a, b);                             \
        --depth;                                                 \
        report_alloc(r, size_arg);                               \
        return r;                                                \
    }

/* void* f(size_t, X, Y) : aligned nothrow operator new (size first) */
#define WRAP_ALLOC3(soname, fn)                                  \
    void* I_WRAP_SONAME_FNNAME_ZU(soname, fn)(size_t n, size_t al, void* nt); \
    void* I_WRAP_SONAME_FNNAME_ZU(soname, fn)(size_t n, size_t al, void* nt) { \
        OrigFn orig;                                             \
        void* r;                                                 \
        VALGRIND_GET_ORIG_FN(orig);                              \
        ++depth;                                                 \
        CALL_FN_W_WWW(r, orig, n, al, nt);                       \
        --depth;                                                 \
        report_alloc(r, n);                                      \
        return r;                                                \
    }

/* void f(void*, ...) : free and every operator delete */
#define WRAP_FREE(soname, fn)                                    \
    void I_WRAP_SONAME_FNNAME_ZU(soname, fn)(void* p, size_t a, size_t b); \
    void I_WRAP_SONAME_FNNAME_ZU(soname, fn)(void* p, size_t a, size_t b) { \
        OrigFn orig;                                             \
        VALGRIND_GET_ORIG_FN(orig);                              \
        report_free(p);                                          \
        ++depth;                                                 \
        CALL_FN_v_WWW(orig, p, a, b);                            \
        --depth;                                                 \
    }

WRAP_ALLOC1(LIBC, malloc)
WRAP_ALLOC1(LIBC, valloc)
WRAP_ALLOC1(LIBC, pvalloc)
WRAP_ALLOC2(LIBC, calloc, a * b)
WRAP_ALLOC2(LIBC, memalign, b)
WRAP_ALLOC2(LIBC, aligned_alloc, b)
WRAP_FREE(LIBC, free)
WRAP_FREE(LIBC, cfree)

void* I_WRAP_SONAME_FNNAME_ZU(LIBC, realloc)(void* p, size_t n);
void* I_WRAP_SONAME_FNNAME_ZU(LIBC, realloc)(void* p, size_t n) {
    OrigFn orig;
    void* r;
    VALGRIND_GET_ORIG_FN(orig);
    ++depth;
    CALL_FN_W_WW(r, orig, p, n);
    --depth;
    /* A failed realloc leaves the old block alone. */
    if (r || n == 0) report_free(p);
    report_alloc(r, n);
    return r;
}

int I_WRAP_SONAME_FNNAME_ZU(LIBC, posix_memalign)(void** out, size_t align, size_t n);
int I_WRAP_SONAME_FNNAME_ZU(LIBC, posix_memalign)(void** out, size_t align, size_t n) {
    OrigFn orig;
    long r;
    VALGRIND_GET_ORIG_FN(orig);
    ++depth;
    CALL_FN_W_WWW(r, orig, out, align, n);
    --depth;
    if (r == 0) report_alloc(*out, n);
    return (int)r;
}

/* C++: operator new/new[] (plain, nothrow, aligned, aligned nothrow) and
 * every operator delete/delete[], mangled as in the Itanium ABI (size_t is
 * unsigned long: 'm'). */
WRAP_ALLOC1(LIBSTDCXX, _Znwm)
WRAP_ALLOC1(LIBSTDCXX, _Znam)
WRAP_ALLOC2(LIBSTDCXX, _ZnwmRKSt9nothrow_t, a)
WRAP_ALLOC2(LIBSTDCXX, _ZnamRKSt9nothrow_t, a)
WRAP_ALLOC2(LIBSTDCXX, _ZnwmSt11align_val_t, a)
WRAP_ALLOC2(LIBSTDCXX, _ZnamSt11align_val_t, a)
WRAP_ALLOC3(LIBSTDCXX, _ZnwmSt11align_val_tRKSt9nothrow_t)
WRAP_ALLOC3(LIBSTDCXX, _ZnamSt11align_val_tRKSt9nothrow_t)
WRAP_FREE(LIBSTDCXX, _ZdlPv)
WRAP_FREE(LIBSTDCXX, _ZdaPv)
WRAP_FREE(LIBSTDCXX, _ZdlPvm)
WRAP_FREE(LIBSTDCXX, _ZdaPvm)
WRAP_FREE(LIBSTDCXX, _ZdlPvRKSt9nothrow_t)
WRAP_FREE(LIBSTDCXX, _ZdaPvRKSt9nothrow_t)
WRAP_FREE(LIBSTDCXX, _ZdlPvSt11align_val_t)
WRAP_FREE(LIBSTDCXX, _ZdaPvSt11align_val_t)
WRAP_FREE(LIBSTDCXX, _ZdlPvmSt11align_val_t)
WRAP_FREE(LIBSTDCXX, _ZdaPvmSt11align_val_t)
WRAP_FREE(LIBSTDCXX, _ZdlPvSt11align_val_tRKSt9nothrow_t)
WRAP_FREE(LIBSTDCXX, _ZdaPvSt11align_val_tRKSt9nothrow_t)
