/* The C library's allocation functions that the preload's heap wrappers
 * (vgtool/preload/HeapWrappers.c) stand in for, and how the two sides name
 * them. Shared by the preload (C, guest code) and the tool (C++,
 * freestanding, vgtool/HeapHooks.h): plain C, no includes.
 *
 * The wrapper of `f` is the preload's function ompsim_hook_f. The tool sends
 * a call of the C library's `f` to it when it translates f's first
 * instruction, unless the call comes from the wrappers themselves; the
 * wrappers reach the real functions through the table that
 * OMPSIM_USERREQ_HEAP_REAL_FNS fills, in this order. */
#ifndef OMPSIM_VGTOOL_HEAPHOOKLIST_H
#define OMPSIM_VGTOOL_HEAPHOOKLIST_H

/* OMPSIM_USERREQ_HEAP_REAL_FNS (include/ompsim.h): a1 = a table of
 * OMPSIM_HOOK_COUNT words, which the tool fills with the functions'
 * addresses in the C library (0 for one it did not find); returns the
 * number found. */

#define OMPSIM_HEAP_HOOKS(X) \
    X(malloc)                \
    X(calloc)                \
    X(realloc)               \
    X(free)                  \
    X(cfree)                 \
    X(memalign)              \
    X(aligned_alloc)         \
    X(valloc)                \
    X(pvalloc)               \
    X(posix_memalign)

#define OMPSIM_HOOK_INDEX(f) OMPSIM_HOOK_##f,
enum { OMPSIM_HEAP_HOOKS(OMPSIM_HOOK_INDEX) OMPSIM_HOOK_COUNT };
#undef OMPSIM_HOOK_INDEX

#endif
