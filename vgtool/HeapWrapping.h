// Whether the preload library's heap wrappers (vgpreload/HeapWrappers.c)
// are in force for this run (HeapHooks.h sends the C library's allocation
// functions to them). A wrapped call costs little, but the wrappers are
// needed only
//   - with --monitor=yes, to report the heap blocks, and
//   - in OpenMP programs, whose runtime gets a heap of its own
//     (vgpreload/RuntimeHeap.c) so that the program's allocations land at
//     the same addresses in every run.
// decide() puts them in force before the program runs when either holds.
// An OpenMP program is one that, or one of whose libraries, names libomp,
// libgomp or libiomp5 among its needed libraries (found as ld.so finds
// them: run path, LD_LIBRARY_PATH, the system's directories); a runtime
// found otherwise (a library only ld.so's cache knows, or dlopen) puts
// them in force when it starts.
#ifndef OMPSIM_VGTOOL_HEAPWRAPPING_H
#define OMPSIM_VGTOOL_HEAPWRAPPING_H

#include "ValgrindApi.h"

namespace ompsim {
namespace heapwrap {

// In post_clo_init (before the dynamic linker maps the preload).
void decide(bool monitor);

// An OpenMP runtime has registered the preload's OMPT tool.
void runtime_started();

}  // namespace heapwrap
}  // namespace ompsim

#endif
