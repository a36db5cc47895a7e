// Event arrays (EventStream.h) made resident ahead of the recording by the
// replay worker while it has nothing to run.
//
// A task program's recording runs far ahead of the replay wherever the
// replay's task order and the real run's differ (omp_tasks 1000000 4096
// with 4 threads buffers about 590 MB of events). Each new array's 16
// pages were first written by the client's thread, in the kernel's fault
// path (the memory cgroup's charge, its locks): in the phases where the
// replay waited for a task the recording had not reached, 60 % of the main
// thread's samples were those faults while the worker spun idle beside it
// (perf, 0.1 s bins). So the main thread keeps blocks allocated ahead, half
// as many as the run has used, 16 to 1,024 (VG_(malloc) is not thread-safe,
// and allocating touches only the block's header), the worker touches
// their pages when idle, and the main
// thread takes a block only once the worker has finished it; otherwise it
// allocates one as before. Which block holds which events changes nothing
// the simulation sees.
#ifndef OMPSIM_VGTOOL_EVENTRESERVE_H
#define OMPSIM_VGTOOL_EVENTRESERVE_H

#include "ValgrindApi.h"

namespace ompsim {
namespace evreserve {

// Main thread: the size of every block (set once, before the first take()).
void init(SizeT block_bytes);
// Main thread: a new block, one the worker made resident if there is
// one. While the replay worker runs, it also allocates blocks to keep the
// reserve full and, when it added some, wakes the worker if it sleeps.
void* new_block();

// The replay worker, between commands: touches one page of the next
// block; false when every allocated block is resident.
bool warm_one_page();

// Blocks taken resident and blocks the main thread had to allocate cold
// (for -v and the tests).
u64 taken_warm();
u64 taken_cold();

}  // namespace evreserve
}  // namespace ompsim

#endif
