// Where the preload library's heap wrappers are (the section
// "ompsim_heap_wrappers" of vgpreload_ompsim-amd64-linux.so), so that the
// instrumenter neither simulates nor counts them: they are the tool's
// instrumentation, not the program (vgtool/preload/HeapWrappers.c has the
// figures). With --simulate-wrappers=yes they are simulated where they are
// in force (HeapWrapping.h: with --monitor=yes, and in OpenMP programs).
//
// The tool finds the section itself, in the library's file, when Valgrind
// has read the library's symbols: the program asks nothing, so it runs the
// same instructions under every tool, and no wrapper call, not even one
// made while the C library initialises, is counted.
#ifndef OMPSIM_VGTOOL_WRAPPERCODE_H
#define OMPSIM_VGTOOL_WRAPPERCODE_H

#include "ValgrindApi.h"

namespace ompsim {
namespace wrappers {

void init(bool simulated);

// A mapping was made or its protection changed (Valgrind may have read an
// object's symbols): the next question searches for the preload again.
void mapping_changed();

// Whether `a` is in the wrappers' code (the first frames of the stack of
// every heap report, which the monitor leaves out of allocation sites).
bool in_wrappers(Addr a);
// The wrappers' code as [lo, lo + span); false (span 0) until it is found.
bool bounds(Addr* lo, Addr* span);
// The preload's symbols (HeapHooks.cpp reads its wrappers there); null
// until Valgrind has read them.
const DebugInfo* preload();

// Whether the instruction at `a` is wrapper code that is not simulated
// (asked at translation time).
bool skipped(Addr a);

}  // namespace wrappers
}  // namespace ompsim

#endif
