/* Part of vgpreload_ompsim-amd64-linux.so: each explicit task's descriptor
 * as clang code allocates it, sent to the tool (OMP_EV_TASK_ALLOC), which
 * replays the accesses to it at an address that does not depend on timing
 * (vgtool/TaskDescriptors.h; docs/openmp.md, "Task descriptors").
 *
 * kmp_task_t* __kmpc_omp_task_alloc(ident_t*, kmp_int32 gtid, kmp_int32 flags,
 *     size_t sizeof_kmp_task_t, size_t sizeof_shareds, kmp_routine_entry_t)
 * returns the kmp_task_t (its first field the pointer to the shareds block,
 * which libomp places after the task's private copies); the program then
 * fills both in, and its task entry reads them. The runtime's own part of
 * the allocation (kmp_taskdata_t, before the kmp_task_t) is never touched
 * by program code. gcc's GOMP_task is handled at the end of this file. */
#include "OmpPreload.h"
#include "ompsim.h"


LIBOMP_WRAPPER(W, __kmpc_omp_task_alloc, (void* loc, long gtid, long flags, unsigned long task_size,
                                          unsigned long shareds_size, void* entry)) {
    OrigFn orig;
    W r;
    VALGRIND_GET_ORIG_FN(orig);
    CALL_FN_W_6W(r, orig, loc, gtid, flags, task_size, shareds_size, entry);
    if (r && ompsim_omp_active()) {
        omp_word lo = (omp_word)r, hi = lo + task_size;
        omp_word shareds = *(omp_word*)r;
        if (shareds_size && shareds + shareds_size > hi && shareds >= lo && shareds - hi < 4096)
            hi = shareds + shareds_size;
        ompsim_omp_event(OMP_EV_TASK_ALLOC, lo, hi - lo, 0, 0);
    }
    return r;
}

/* void __kmpc_taskloop(ident_t*, int gtid, kmp_task_t* task, int if_val,
 *     kmp_uint64* lb, kmp_uint64* ub, kmp_int64 st, int nogroup, int sched,
 *     kmp_uint64 grainsize, void* task_dup) and __kmpc_taskloop_5 (one more
 * int, modifier): the tasks are copies of `task`, made by the runtime. */
#define FORGET(fn, params, call)                                           \
    LIBOMP_WRAPPER(W, fn, params) {                                       \
        OrigFn orig;                                                      \
        W r;                                                              \
        VALGRIND_GET_ORIG_FN(orig);                                       \
        if (ompsim_omp_active()) ompsim_omp_event(OMP_EV_TASK_ALLOC, 0, 0, 0, 0); \
        call;                                                             \
        return r;                                                         \
    }
FORGET(__kmpc_taskloop, (long a1, long a2, long a3, long a4, long a5, long a6, long a7, long a8, long a9, long a10,
                         long a11),
       CALL_FN_W_11W(r, orig, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11))
FORGET(__kmpc_taskloop_5, (long a1, long a2, long a3, long a4, long a5, long a6, long a7, long a8, long a9, long a10,
                           long a11, long a12),
       CALL_FN_W_12W(r, orig, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12))

/* ---------------------------------------------------------------- gcc's GOMP_task */

/* void GOMP_task(void (*fn)(void*), void* data, void (*cpyfn)(void*, void*),
 *     long arg_size, long arg_align, bool if_clause, unsigned flags,
 *     void** depend, int priority, void* detach)
 * libomp allocates the block inside the runtime, copies `data` into it
 * (cpyfn, or a plain copy) and later calls fn(block). So that the tool
 * learns where the block is, the wrapper hands the runtime a block of its
 * own making: a Trailer (the real fn, cpyfn, data and size), then the
 * program's part at offset `skip`. copy_task puts the Trailer and the
 * program's data into the runtime's block; run_task reports the block from
 * inside the task (OMP_EV_TASK_ALLOC with a4 = 1: the running task's own)
 * and calls the real fn on the program's part. An if(0) task runs at once
 * with the wrapper's buffer (libomp calls fn(data) there): the program's
 * function then gets its original data, as natively. */
struct Trailer {
    void (*fn)(void*);
    void (*cpyfn)(void*, void*);
    void* data;
    unsigned long size, skip;
    int copied;
};

static unsigned long trailer_skip(unsigned long align) OMPSIM_UNSIM;
static unsigned long trailer_skip(unsigned long align) {
    return (sizeof(struct Trailer) + align - 1) / align * align;
}

static void copy_task(void* dst, void* src) OMPSIM_UNSIM;
static void copy_task(void* dst, void* src) {
    struct Trailer* from = (struct Trailer*)src;
    struct Trailer* to = (struct Trailer*)dst;
    *to = *from;
    to->copied = 1;
    char* part = (char*)dst + from->skip;
    if (from->cpyfn) {
        from->cpyfn(part, from->data);
    } else {
        /* The runtime's own copy is not simulated either. */
        const char* d = (const char*)from->data;
        for (unsigned long i = 0; i < from->size; ++i) part[i] = d[i];
    }
}

static void run_task(void* p) OMPSIM_UNSIM;
static void run_task(void* p) {
    struct Trailer* t = (struct Trailer*)p;
    if (!t->copied) {
        t->fn(t->data);
        return;
    }
    if (t->size) ompsim_omp_event(OMP_EV_TASK_ALLOC, (omp_word)p + t->skip, t->size, 1, 0);
    t->fn((char*)p + t->skip);
}

LIBOMP_WRAPPER(W, GOMP_task, (void (*fn)(void*), void* data, void (*cpyfn)(void*, void*), long size, long align,
                              long if_clause, long flags, long depend, long priority, long detach)) {
    OrigFn orig;
    W r;
    VALGRIND_GET_ORIG_FN(orig);
    if (!ompsim_omp_active()) {
        CALL_FN_W_10W(r, orig, fn, data, cpyfn, size, align, if_clause, flags, depend, priority, detach);
        return r;
    }
    unsigned long a = align > 16 ? (unsigned long)align : 16;
    struct Trailer t = {fn, cpyfn, data, size > 0 ? (unsigned long)size : 0, trailer_skip(a), 0};
    omp_word saved = ompsim_caller_ra;
    ompsim_caller_ra = (omp_word)__builtin_return_address(0);
    CALL_FN_W_10W(r, orig, run_task, &t, copy_task, (long)(t.skip + t.size), (long)a, if_clause, flags, depend,
                  priority, detach);
    ompsim_caller_ra = saved;
    return r;
}
