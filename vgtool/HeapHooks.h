// Calls of the C library's allocation functions go to the preload's heap
// wrappers (vgtool/preload/HeapWrappers.c), by the instrumenter: where it
// translates the first instruction of libc's malloc, free, ... it puts a
// side exit to the wrapper, taken unless the call's return address lies in
// the wrappers' code (the wrapper calling the real function). So a wrapped
// call costs a load, a subtraction and a compare, where Valgrind's
// function wrapping reached the real function through a no-redirect jump,
// served by its scheduler: a trip through it per malloc and free (2,000 to
// 2,099 minor scheduler events for 2,000 of them), about 0.24 s of
// containers 100000 4's 3.2 s with the wrappers in force and no monitor.
// With the monitor (25 bins) that run went from 5.17 s to 4.90 s, and from
// 5.69 s to 5.50 s in a slower hour (medians of 5 alternating runs, 5 of 5
// faster both times; docs/performance.md, twenty-third session).
//
// The exit is exact only before a block's first instruction (VEX drops
// register writes before the tool instruments), so ompsim translates
// without chasing (ToolMain.cpp, post_clo_init): a call or jump to malloc
// always starts a block. The functions' entries are found in libc's symbol
// table, the wrappers' in the preload's, by name (vgtool/HeapHookList.h),
// once both objects' symbols have been read.
#ifndef OMPSIM_VGTOOL_HEAPHOOKS_H
#define OMPSIM_VGTOOL_HEAPHOOKS_H

#include "ValgrindApi.h"

namespace ompsim {
namespace heaphooks {

// Puts the wrappers in force before the program runs (post_clo_init).
void enable();
// Puts them in force while it runs (inside a client request, where
// translations may be discarded): the C library's functions translated so
// far are translated again.
void enable_now();

// A mapping was made or its protection changed: the next question looks
// for the C library and the preload again if they were not both seen.
void mapping_changed();

// The wrapper that a call of the instruction at `a` goes to, if `a` is the
// first instruction of a wrapped function and the wrappers are in force;
// else 0. Asked at translation time, for every instruction.
Addr wrapper_for(Addr a);

// OMPSIM_USERREQ_HEAP_REAL_FNS: fills `table` (OMPSIM_HOOK_COUNT words of
// client memory) with the C library's functions; returns how many it found.
UWord real_functions(UWord* table);

}  // namespace heaphooks
}  // namespace ompsim

#endif
