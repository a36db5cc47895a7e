// Valgrind's fair scheduler lock for ompsim runs unless the user chose one.
//
// Valgrind runs one client thread at a time. Its default lock (--fair-sched=no,
// a pipe) lets the thread that releases it take it straight back, so libomp's
// idle threads, which spin for work, can keep the lock for whole time slices
// while the thread with the work waits. The ticket lock (--fair-sched=yes)
// hands it over in arrival order. ompsim's profiles do not depend on which
// thread Valgrind runs when (the deterministic scheduler replays the streams in
// its own order), so the choice changes only the time: omp_tasks 1000000 4096
// with 4 threads took 4.0, 4.2 and 8.6 s with the pipe lock, 3.67 to 3.72 s
// with the ticket lock (docs/performance.md, "Valgrind's scheduler lock").
#ifndef OMPSIM_VGTOOL_FAIRSCHEDULING_H
#define OMPSIM_VGTOOL_FAIRSCHEDULING_H

namespace ompsim {

// Call from post_clo_init (the core creates the lock after it, in
// VG_(scheduler_init_phase1)): selects --fair-sched=try (the ticket lock where
// the host has one, else the pipe) unless a --fair-sched option was given on
// the command line, in ~/.valgrindrc, ./.valgrindrc or VALGRIND_OPTS.
void default_fair_scheduling();

}  // namespace ompsim

#endif
