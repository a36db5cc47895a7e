// Explicit tasks' descriptors at addresses that do not depend on timing.
//
// libomp allocates each task's descriptor (kmp_task_t, the task's private
// copies, its shareds block) from per-thread free lists that tasks finished
// on other threads refill, so the addresses a task body and its creator
// touch there changed from run to run (fib_tasks missed 3 more lines in D1
// in one run of four). The preload reports each descriptor
// (OMP_EV_TASK_ALLOC); the replay gives it a canonical block from this heap
// when the creator's kMkTaskMemory is replayed and moves the accesses of the
// creator (until its kMkTask) and of the task onto it (StackRelocation.h).
// Blocks are freed when the task ends in the replay and reused last-in
// first-out per size, as libomp's free lists do, so descriptors stay as warm
// in the simulated caches as the runtime's reuse makes them. A block keeps
// the descriptor's offset within its cache line, so it covers the same
// number of lines.
#ifndef OMPSIM_VGTOOL_TASKDESCRIPTORS_H
#define OMPSIM_VGTOOL_TASKDESCRIPTORS_H

#include "CostCentres.h"

namespace ompsim {
namespace descriptors {

// Far above what Valgrind gives a client on amd64 (its mappings stay below
// 128 GiB unless the program maps terabytes): simulated addresses only.
constexpr Addr kBase = 0x7e0000000000ULL;

// The canonical address of the descriptor [lo, lo + len).
Addr take(Addr lo, Addr len);
// Gives back what take(lo, len) returned.
void give_back(Addr canon, Addr lo, Addr len);

}  // namespace descriptors
}  // namespace ompsim

#endif
