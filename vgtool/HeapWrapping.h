// Whether the preload library's heap wrappers (vgpreload/HeapWrappers.c)
// are in force for this run, decided before the program runs.
//
// Each wrapped call reaches the real function through a no-redirect jump,
// which Valgrind serves from its scheduler rather than its translation
// cache: about 0.3 s of containers 100000 4's 4.1 s (docs/performance.md).
// They are needed only
//   - with --monitor=yes, to report the heap blocks, and
//   - in OpenMP programs, whose runtime gets a heap of its own
//     (vgpreload/RuntimeHeap.c) so that the program's allocations land at
//     the same addresses in every run.
// The wrappers name their library with the soname synonym "ompsimheap"
// (Valgrind's VG_SO_SYN), and Valgrind drops a redirection whose synonym
// --soname-synonyms does not define when it reads the preload's symbols.
// decide() defines it as libc.so* when either holds, or leaves a user's
// own definition alone. An OpenMP program is one that, or one of whose
// libraries, names libomp, libgomp or libiomp5 among its needed libraries
// (found as ld.so finds them: run path, LD_LIBRARY_PATH, the system's
// directories); a runtime found otherwise (a library only ld.so's cache
// knows, or dlopen) gets a warning when it starts.
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
